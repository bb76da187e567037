#!/bin/sh
# Route b of r1-s1-alpha starts 2 s before route a of it ends.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 5 's/"startedAtMs":1700000027000/"startedAtMs":1700000024000/'
