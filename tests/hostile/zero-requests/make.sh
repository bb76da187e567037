#!/bin/sh
# A routeComplete with "requests": 0 (and a load file that agrees).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 9 's/"requests":10000/"requests":0/'
perl -i -pe 's/"req2xx": 10000/"req2xx": 0/' "$r/bombardier/r1-s2-beta-a.json"
