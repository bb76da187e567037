#!/bin/sh
# Sample 60 is stamped 30 s earlier than sample 59 (a clock step):
# a located warning; the time fit absorbs one outlier, the build succeeds.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 60 's{<date>2023-11-14T22:14:20Z</date>}{<date>2023-11-14T22:13:50Z</date>}'
