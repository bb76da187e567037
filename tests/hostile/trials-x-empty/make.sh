#!/bin/sh
# A trial without its connections: it cannot be placed in a cell of the sweep.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,connections,repetition,rps\na,1,1,10\na,,2,11\n' > "$r/trials/t.csv"
