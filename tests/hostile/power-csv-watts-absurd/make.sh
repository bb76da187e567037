#!/bin/sh
# A gauge above the plausible limit (100 kW) in power.csv: refused at
# its line, never integrated.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
printf 'time,gpu0_W\n1700000000500,\n1700000050500,300\n1700000106500,250000\n' > "$r/power.csv"
