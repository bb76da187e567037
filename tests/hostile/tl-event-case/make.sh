#!/bin/sh
# "RouteComplete" for "routeComplete": an unknown event, once ignored, which
# lost route b of r1-s1-alpha.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 5 's/"event":"routeComplete"/"event":"RouteComplete"/'
