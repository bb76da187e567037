#!/bin/sh
# A turbostat log at 30 W with the rows of S + 34 to S + 38 missing (the
# logger stalled, in an idle window): the row of S + 39 covers six
# seconds, a gap over 5x the median.  The coverage check put that gap at
# the six seconds before it (S + 27 to S + 33), where the rows are; it is
# S + 33 to S + 39.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
SKIP="34 35 36 37 38" turbostat_log -1 107 30.00 > "$r/turbostat.txt"
