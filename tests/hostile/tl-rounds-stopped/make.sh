#!/bin/sh
# sessionStart announces 3 rounds, and the session ended with an error after
# 2: it builds, and the page says so.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 1 's/"rounds":2/"rounds":3/'
line_edit "$r/timeline.jsonl" 23 's/"ok":true/"ok":false,"error":"killed"/'
