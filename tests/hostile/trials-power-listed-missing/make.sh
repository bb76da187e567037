#!/bin/sh
# run.json 'power' lists a file the run does not have: refused at the
# entry's line, not read as a run without power.
r=$1/2026/trials-energy
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"},
 "power": ["watts.csv"]}
JSON
printf 'target,repetition,start_ms,end_ms,rps\na,1,1733170001000,1733170002000,9\n' > "$r/trials/t.csv"
