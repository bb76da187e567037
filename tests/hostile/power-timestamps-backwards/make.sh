#!/bin/sh
# Sample 60 is stamped 30 s earlier than sample 59 (a clock step): the
# elapsed_ns of the samples and the timestamps contradict each other, so
# the time axis cannot be trusted.  (It used to be a warning, and the
# time fit absorbed the outlier into every window's position.)
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 60 's{<date>2023-11-14T22:14:20Z</date>}{<date>2023-11-14T22:13:50Z</date>}'
