#!/bin/sh
# The reference session with sample 950 cut out of power.plist (in the
# middle of r1-s3-bun's 'body' window).  Every later sample's elapsed_ns
# chain is 0.5 s short of the timestamps: the time fit smeared that over
# the file and moved every window (by up to 1 %) while coverage said
# "no gaps".  Now the hole is found from the timestamps and left empty:
# that window's coverage falls, the other 99 keep their figures.
. "$HOSTILE/lib.sh"
r=$1/2023/run
mkdir -p "$1/2023"
cp -r "$HOSTILE/../../archive/m5-energy/2026-08-26T0856-saturated" "$r"
gzip -d "$r/power.plist.gz"
perl -0 -i -ne 'print unless $. == 950' "$r/power.plist"
