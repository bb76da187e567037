#!/bin/sh
# power.plist (processor) and a power.csv with a cpu domain: summed, the
# two would count the CPU twice; an error naming both.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
printf 'time,cpu_W\n1700000000500,\n1700000106500,5\n' > "$r/power.csv"
