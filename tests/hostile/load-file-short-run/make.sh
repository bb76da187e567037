#!/bin/sh
# Route a of r1-s1-alpha (a 5 s window) names a wrk run of 1 s as its
# load file: the other 4 s of the window ran no load, and their energy
# is still divided by its 2,000 requests.  Read as it is (the window is
# the runner's), with a warning on the page.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/bombardier/r1-s1-alpha-a.json"
mkdir -p "$r/load"
wrk_report 1s 2000 1.00s 195.31KB 195.31KB > "$r/load/x"
line_edit "$r/timeline.jsonl" 4 's/"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000/"loadFile":"load\/x"/'
