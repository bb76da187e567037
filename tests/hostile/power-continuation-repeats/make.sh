#!/bin/sh
# A resumed session whose continuation file starts with the last three
# samples of power.plist again (samples 1-60, then 58-106).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -0 -ne 'print if $. >= 58' "$r/power.plist" > "$r/power.plist.1"
perl -0 -i -ne 'print if $. <= 60' "$r/power.plist"
