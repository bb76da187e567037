#!/bin/sh
# routeComplete with more 2xx responses (10001) than requests (10000).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"req2xx":10000/"req2xx":10001/'
