#!/bin/sh
# A vegeta JSON report whose status codes count 9999 responses of 10000
# requests.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"vegeta.json"/'
printf '{"latencies":{"total":25000000000,"mean":2500000,"50th":2000000,"90th":4000000,"95th":5000000,"99th":8000000,"max":9000000,"min":500000},"bytes_in":{"total":1000000,"mean":100},"bytes_out":{"total":0,"mean":0},"earliest":"2023-11-14T22:13:41Z","latest":"2023-11-14T22:13:46Z","end":"2023-11-14T22:13:46.001Z","duration":5000000000,"wait":1000000,"requests":10000,"rate":2000,"throughput":1999.6,"success":1,"status_codes":{"200":9999},"errors":[]}\n' > "$r/vegeta.json"
