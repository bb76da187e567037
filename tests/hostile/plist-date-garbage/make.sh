#!/bin/sh
# The timestamp of sample 30 is not a date: libplist read it as
# 2001-01-01, and the run failed later at the timeline ("window lies
# outside the power data") or not at all.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 30 's{<date>[^<]*</date>}{<date>garbage</date>}'
