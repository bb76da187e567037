#!/bin/sh
# Route a of r1-s1-alpha keeps the runner's own bombardier file
# (bombardier/r1-s1-alpha-a.json: 10,000 requests in 5 s) and its
# loadFile names a 3 s wrk run of 26,695 requests: two raw outputs for
# one window.  Only the loadFile was read, and the bombardier file was
# left out of the raw-files table; exit 0 with alpha ranked first.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
mkdir -p "$r/load"
cat > "$r/load/x" << 'WRK'
Running 3s test @ http://127.0.0.1:3000/a
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.50ms    2.00ms  30.00ms   75.00%
    Req/Sec     4.45k   300.00     5.00k    80.00%
  26695 requests in 3.00s, 2.54MB read
Requests/sec:   8898.33
Transfer/sec:    866.00KB
WRK
line_edit "$r/timeline.jsonl" 4 's/"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000/"loadFile":"load\/x"/'
