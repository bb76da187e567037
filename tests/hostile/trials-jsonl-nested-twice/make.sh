#!/bin/sh
# A JSONL trial giving 'lat.p99' both flat and nested: two values for one column.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf '{"target": "a", "rep": 1, "lat.p99": 3, "lat": {"p99": 4}}\n' > "$r/trials/t.jsonl"
