#!/bin/sh
# measurementStart with "startupMs": "12.5" (a string), once published as
# "not reported".
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 3 's/"startupMs":12.5/"startupMs":"12.5"/'
