#!/bin/sh
# Repetition 2 of one cell given twice: a third value for the cell would be silently averaged in; an error at the second row naming the first.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,connections,repetition,rps\na,1,1,10\na,1,2,11\na,4,2,20\na,1,2,12\n' > "$r/trials/t.csv"
