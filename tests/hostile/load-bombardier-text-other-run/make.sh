#!/bin/sh
# Route a of r1-s1-alpha (a 5 s window) names a bombardier text report
# of a 10 s run (bun-http-framework-benchmark's bun.txt, its progress
# bar cut short): 2,287,804 requests divided 5 s of energy, exit 0.  Text
# reports give no run time, only the duration bombardier was set to run
# ("for 10s"), which the window is held to.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/bombardier/r1-s1-alpha-a.json"
mkdir -p "$r/load"
cat > "$r/load/x" << 'TXT'
Bombarding http://127.0.0.1:3000/ for 10s using 500 connection(s)
[=========================================================================] 10s
Done!
Statistics        Avg      Stdev        Max
  Reqs/sec    229744.39   35671.96  261999.90
  Latency        2.18ms   735.90us    88.82ms
  HTTP codes:
    1xx - 0, 2xx - 2287804, 3xx - 0, 4xx - 0, 5xx - 0
    others - 0
  Throughput:    39.05MB/s
TXT
line_edit "$r/timeline.jsonl" 4 's/"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000/"loadFile":"load\/x"/'
