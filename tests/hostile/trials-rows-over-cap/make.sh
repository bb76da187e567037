#!/bin/sh
# --max-rows 2 (args) and a trials table of three rows: refused at the third row, parsing no further.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,rep,rps\na,1,1\na,2,2\na,3,3\n' > "$r/trials/t.csv"
