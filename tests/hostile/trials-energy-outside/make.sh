#!/bin/sh
# Energy per trial: a trial that ends after the last power sample cannot
# be integrated (its energy would be short by what no sample saw).
# Refused at its row, not counted as a low-coverage trial.
r=$1/2026/trials-energy
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials with power", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'time,cpu_W\n1733170000000,\n1733170001000,10\n1733170002000,10\n1733170003000,10\n' \
	> "$r/power.csv"
printf 'target,repetition,start_ms,end_ms,requests\na,1,1733170000000,1733170002000,100\na,2,1733170002000,1733170003500,100\n' \
	> "$r/trials/t.csv"
