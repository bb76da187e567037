#!/bin/sh
# measurementStart with "slot": "1" (a string), once read as no slot.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 3 's/"slot":1/"slot":"1"/'
