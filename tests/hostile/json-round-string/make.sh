#!/bin/sh
# measurementStart with "round": "1" (a string).  erg read it as absent and
# published round 0; now an error at the line, and no figure.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 3 's/"round":1/"round":"1"/'
