#!/bin/sh
# powermetrics text whose date has no UTC offset (the real samples carry
# one; a log edited or written by another tool may not): with no
# erg.powerTimezone in meta.json erg cannot place it on the Unix epoch.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
printf '*** Sampled system activity (Tue Nov 14 22:13:21 2023) (1000.00ms elapsed) ***\n\nCPU Power: 900 mW\n' > "$r/powermetrics.txt"
