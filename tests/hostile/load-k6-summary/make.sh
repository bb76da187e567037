#!/bin/sh
# Route a of r1-s1-alpha measured with k6: its --summary-export (legacy
# shape) is named by loadFile.  k6 reports no status classes and, with the
# default summaryTrendStats, no p(75), p(99) or p(99.9): those must stay
# "not reported", never 0.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"k6\/a.json"/'
mkdir -p "$r/k6"
cat > "$r/k6/a.json" <<'J'
{
    "root_group": {"name": "", "path": "", "id": "d41d8cd98f00b204e9800998ecf8427e", "groups": {}, "checks": {}},
    "metrics": {
        "http_reqs": {"count": 10000, "rate": 2000},
        "http_req_failed": {"passes": 0, "fails": 10000, "value": 0},
        "data_received": {"count": 1000000, "rate": 200000},
        "data_sent": {"count": 800000, "rate": 160000},
        "vus_max": {"value": 50, "min": 50, "max": 50},
        "http_req_duration": {"avg": 2.5, "min": 0.5, "med": 2, "max": 9, "p(90)": 4, "p(95)": 5},
        "http_req_duration{expected_response:true}": {"avg": 2.5, "min": 0.5, "med": 2, "max": 9, "p(90)": 4, "p(95)": 5}
    }
}
J
