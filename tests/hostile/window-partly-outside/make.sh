#!/bin/sh
# The last route window ends 20 s after the last power sample: part of it
# has no energy data (and its bombardier run of 3 s fills less than half
# of the 37 s: a warning of its own).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 20 's/"ts":1700000093000,(.*)"endedAtMs":1700000093000/"ts":1700000127000,$1"endedAtMs":1700000127000/'
# (its records logged after it: the routeComplete, the measurementComplete
# and the session's end)
line_edit "$r/timeline.jsonl" 21 's/1700000093001/1700000127001/g'
line_edit "$r/timeline.jsonl" 23 's/"ts":1700000104500/"ts":1700000127500/'
# The postroll idle window (line 22) would now overlap the stretched window,
# itself an error: it goes, so that only the coverage is at stake.
perl -i -ne 'print unless $. == 22' "$r/timeline.jsonl"
