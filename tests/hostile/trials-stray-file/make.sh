#!/bin/sh
# A file in trials/ that is not NAME.csv or NAME.jsonl (an .xlsx export) would be left out unseen: an error.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,rep,rps\na,1,1\n' > "$r/trials/t.csv"
printf x > "$r/trials/t.xlsx"
