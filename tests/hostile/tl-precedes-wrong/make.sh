#!/bin/sh
# idle-03 names r2-s1-beta (which ran before it) as the measurement it
# precedes, instead of r2-s2-alpha.  r2-s2-alpha silently got the earliest
# idle window's floor, r2-s1-beta the later one: every net figure of both
# moved.  Now an error for the name and for the measurement left without.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's/("id":"idle-03".*"precedesMeasurementId":)"r2-s2-alpha"/$1"r2-s1-beta"/' "$r/timeline.jsonl"
