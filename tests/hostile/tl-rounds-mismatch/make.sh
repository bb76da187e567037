#!/bin/sh
# sessionStart announces 3 rounds; the session ended well with 2.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 1 's/"rounds":2/"rounds":3/'
