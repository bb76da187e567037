#!/bin/sh
# The baseline of idle-00 (samples 6-15) at 30 W, above the 10 W and 20 W of
# r1-s1-alpha's windows: their net energy would be below zero.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
for k in 6 7 8 9 10 11 12 13 14 15; do
	sample_edit "$r/power.plist" $k 's/<integer>2000<\/integer>/<integer>30000<\/integer>/'
done
