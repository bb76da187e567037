#!/bin/sh
# idleWindow with "index": "0" (a string), once replaced silently by the
# window's position.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 2 's/"index":0/"index":"0"/'
