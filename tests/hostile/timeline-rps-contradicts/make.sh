#!/bin/sh
# Route a of r1-s2-beta (5 s, no load file): 100,000 requests, but
# rpsMean 2000 (10,000 in 5 s).  One of them is another run's; read, the
# requests divided the window's energy ten times.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# (its bombardier file gone: the timeline is all there is of the window)
rm "$r/bombardier/r1-s2-beta-a.json"
line_edit "$r/timeline.jsonl" 9 's/"requests":10000,"req2xx":10000/"requests":100000,"req2xx":100000/; s/"rpsMean":[0-9]+/"rpsMean":2000/'
