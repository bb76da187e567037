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
cat > "$r/load/x" << 'WRK'
Running 1m test @ http://127.0.0.1:3000/a
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   250.50us   20.00us 900.00us   75.00%
    Req/Sec     1.00k    10.00     1.05k    80.00%
  120000 requests in 1.00m, 11.40MB read
Requests/sec:   2000.00
Transfer/sec:    194.56KB
WRK
line_edit "$r/timeline.jsonl" 4 's/"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000/"loadFile":"load\/x"/'
