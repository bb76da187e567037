#!/bin/sh
# A routeComplete for an id no measurementStart names.  It used to make up
# a measurement of its own.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 9 's/"id":"r1-s2-beta"/"id":"r1-s2-gamma"/'
