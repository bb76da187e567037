#!/bin/sh
# routeComplete with "requests": "10000" (a string), once read as absent
# and replaced by the load file's count.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"requests":10000/"requests":"10000"/'
