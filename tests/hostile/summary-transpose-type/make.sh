#!/bin/sh
# run.json may say a table was published turned ("transpose": true, issue
# 15): anything but true, false or null is refused at its line, never read
# as false (the page would then contradict the source unseen).
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "turned", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T",
             "transpose": "yes"}]}
JSON
printf 'target,startup_ms,rss_mb\nxisto,21,4.8\nNode,268,147.5\n' > "$r/tables/t.csv"
