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
cat > "$r/wrk/a.txt" <<'WRK'
Running 5s test @ http://127.0.0.1:3000/a
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   250.50us   20.00us 900.00us   75.00%
    Req/Sec     1.00k    10.00     1.05k    80.00%
  10000 requests in 5.00s, 972.80KB read
Requests/sec:   2000.00
Transfer/sec:    194.56KB
WRK
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":996147,"loadFile":"wrk\/a.txt"/'
