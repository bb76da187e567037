#!/bin/sh
# Route a of r1-s1-alpha (a 5 s window) names a wrk run of a minute as
# its load file: another run's.  Read, its 120,000 requests divided the
# window's energy, about 12 times too little per request, with exit 0.
# A tool that ran more than 1.5 times its window and a second more is
# refused at the routeComplete.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# (the window's own bombardier file gone: only the wrk file is its)
rm "$r/bombardier/r1-s1-alpha-a.json"
mkdir -p "$r/load"
wrk_report 1m 120000 1.00m 11.40MB 194.56KB > "$r/load/x"
line_edit "$r/timeline.jsonl" 4 's/"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000/"loadFile":"load\/x"/'
