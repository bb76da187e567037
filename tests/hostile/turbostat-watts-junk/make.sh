#!/bin/sh
# A summary row whose PkgWatt does not parse whole ('8.45W'): refused at
# its line, never read as 8.45 or 0.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
printf 'Time_Of_Day_Seconds\tCore\tCPU\tPkgWatt\n1700000000.000000\t-\t-\t8.45\n1700000005.000000\t-\t-\t8.45W\n' > "$r/turbostat.txt"
