#!/bin/sh
# power.csv with ISO 8601 times but no zone: erg cannot place them on
# the Unix epoch of the timeline.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
printf 'time,package-0_W\n2023-11-14T22:13:20,\n2023-11-14T22:15:00,5\n' > "$r/power.csv"
