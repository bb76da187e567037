#!/bin/sh
# idle-01 ends 1 s into the first load window of r1-s2-beta (its record
# logged when it ended, after the measurementStart: 'ts' goes backwards,
# a warning).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 7 's/"ts":1700000041000,(.*)"endedAtMs":1700000041000/"ts":1700000043000,$1"endedAtMs":1700000043000/'
