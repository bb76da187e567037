#!/bin/sh
# turbostat-builds' log (40 W in the measurements, 30 W otherwise, a row
# a second to S + 101), killed while writing its last row: "30.00" cut
# to "3" with no newline after it.  Read, that row made a second of the
# last idle window 3 W, silently; it is left out (the window's coverage
# says what is missing), and the run's page says so.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	turbostat_log -1 101
	printf 'Time_Of_Day_Seconds\tPkgWatt\n'
	printf '%d.000000\t3' $((1700000000 + 102))
} > "$r/turbostat.txt"
