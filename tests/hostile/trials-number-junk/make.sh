#!/bin/sh
# A trials table whose rps cell is '12abc': a recognised metric must hold numbers (csv.h's grammar), so a located error quoting the cell, never 12.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,repetition,rps\na,1,10\na,2,12abc\n' > "$r/trials/t.csv"
