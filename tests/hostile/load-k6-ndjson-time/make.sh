#!/bin/sh
# k6 --out json points, one of which has a time without its zone.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"k6.ndjson"/'
cat > "$r/k6.ndjson" <<'J'
{"type":"Metric","data":{"name":"http_reqs","type":"counter","contains":"default","thresholds":[],"submetrics":null},"metric":"http_reqs"}
{"metric":"http_reqs","type":"Point","data":{"time":"2023-11-14T22:13:41.5-03:00","value":1,"tags":{"status":"200"}}}
{"metric":"http_reqs","type":"Point","data":{"time":"2023-11-14T22:13:41.6","value":1,"tags":{"status":"200"}}}
J
