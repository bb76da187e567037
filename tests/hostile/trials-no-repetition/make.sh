#!/bin/sh
# A table with no repetition column cannot be told from a summary table of one value per cell: refused, naming the columns it looks for.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,connections,rps\na,1,10\n' > "$r/trials/t.csv"
