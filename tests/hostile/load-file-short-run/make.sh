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
cat > "$r/load/x" << 'WRK'
Running 1s test @ http://127.0.0.1:3000/a
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   250.50us   20.00us 900.00us   75.00%
    Req/Sec     1.00k    10.00     1.05k    80.00%
  2000 requests in 1.00s, 195.31KB read
Requests/sec:   2000.00
Transfer/sec:    195.31KB
WRK
line_edit "$r/timeline.jsonl" 4 's/"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000/"loadFile":"load\/x"/'
