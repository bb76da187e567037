#!/bin/sh
# idle-01 precedes "r1-s2-gamma", which is no measurement: r1-s2-beta
# silently took the first idle window as its floor.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 7 's/"precedesMeasurementId":"r1-s2-beta"/"precedesMeasurementId":"r1-s2-gamma"/'
