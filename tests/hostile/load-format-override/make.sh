#!/bin/sh
# A wrk2 run whose output lacks the lines that tell wrk2 from wrk: detection
# says wrk, "loadFormat":"wrk2" on the routeComplete says what it is.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
mkdir -p "$r/wrk"
wrk_report 5s 10000 5.00s 972.80KB 194.56KB > "$r/wrk/a.txt"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":996147,"loadFile":"wrk\/a.txt","loadFormat":"wrk2"/'
