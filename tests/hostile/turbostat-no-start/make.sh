#!/bin/sh
# turbostat without --enable Time_Of_Day_Seconds: its rows carry no time,
# and without erg.powerStartMs nothing places them on the timeline.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
printf 'turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\nMeasurement interval: 5.000 seconds\nCore\tCPU\tBusy%%\tPkgWatt\tCorWatt\n-\t-\t0.79\t8.45\t1.60\n0\t0\t1.20\t8.42\t1.59\n' > "$r/turbostat.txt"
