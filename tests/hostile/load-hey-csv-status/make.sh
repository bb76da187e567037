#!/bin/sh
# hey -o csv with a status code that is no HTTP status.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"hey.csv"/'
printf 'response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n0.0010,0.0001,0.0000,0.0000,0.0009,0.0000,200,0.0000\n0.0010,0.0001,0.0000,0.0000,0.0009,0.0000,2000,0.0010\n' > "$r/hey.csv"
