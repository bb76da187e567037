#!/bin/sh
# A JSONL trial with an array member: there is no one number per trial to read from it.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf '{"target": "a", "rep": 1, "rps": 10}\n{"target": "a", "rep": 2, "lat": [1, 2]}\n' > "$r/trials/t.jsonl"
