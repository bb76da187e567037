#!/bin/sh
# The first route window is moved 10 minutes before the power data starts.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"startedAtMs":1700000021000,"endedAtMs":1700000026000/"startedAtMs":1699999421000,"endedAtMs":1699999426000/'
