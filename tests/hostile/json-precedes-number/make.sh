#!/bin/sh
# idleWindow with "precedesMeasurementId": 8 (a number), once read as
# absent, so that the measurement silently took another idle floor.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 7 's/"precedesMeasurementId":"r1-s2-beta"/"precedesMeasurementId":8/'
