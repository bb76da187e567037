#!/bin/sh
# A routeComplete of r1-s1-alpha that says round 2.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"round":1/"round":2/'
