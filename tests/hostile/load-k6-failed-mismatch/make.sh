#!/bin/sh
# A k6 summary whose http_req_failed passes + fails (9999) is not its
# http_reqs count (10000): two figures of one run that contradict.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"k6.json"/'
printf '{"metrics": {\n"http_reqs": {"count": 10000, "rate": 2000},\n"http_req_failed": {"passes": 1, "fails": 9998, "value": 0.0001}\n}, "root_group": {}}\n' > "$r/k6.json"
