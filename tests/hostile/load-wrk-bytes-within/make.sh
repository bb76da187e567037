#!/bin/sh
# Route a of r1-s1-alpha measured with wrk, which prints its byte total
# rounded: "972.80KB read" is 996147.2 bytes, give or take 5.12, and the
# timeline logs 996147.  They agree (erg said "bytesRead 996147 differ from
# 996147").
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
mkdir -p "$r/wrk"
wrk_report 5s 10000 5.00s 972.80KB 194.56KB > "$r/wrk/a.txt"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":996147,"loadFile":"wrk\/a.txt"/'
