#!/bin/sh
# A repetition of 1.5: repetitions are whole numbers, as rounds are.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,rep,rps\na,1,10\na,1.5,11\n' > "$r/trials/t.csv"
