#!/bin/sh
# A framework name with a Latin-1 byte (not UTF-8) in timeline.jsonl.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 18 's/"framework":"alpha"/"framework":"alph\xe9"/'
