#!/bin/sh
# idle-01 ends 1 s into the first load window of r1-s2-beta.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 7 's/"endedAtMs":1700000041000/"endedAtMs":1700000043000/'
