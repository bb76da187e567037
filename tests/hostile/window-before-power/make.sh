#!/bin/sh
# The first route window is moved 10 minutes before the power data starts
# (its measurement's start and the preroll idle window before it with
# it, the records' times as they were).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"startedAtMs":1700000021000,"endedAtMs":1700000026000/"startedAtMs":1699999421000,"endedAtMs":1699999426000/'
line_edit "$r/timeline.jsonl" 3 's/"startedAtMs":1700000021000/"startedAtMs":1699999421000/'
line_edit "$r/timeline.jsonl" 2 's/("(?:startedAtMs|endedAtMs|baselineStartMs|baselineEndMs)":)(\d+)/$1 . ($2 - 600000)/ge'
