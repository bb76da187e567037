#!/bin/sh
# A trials run with power.csv whose table gives no start/end per trial:
# the energy could not be given to any trial.  Refused, naming the columns.
r=$1/2026/trials-energy
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials with power", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'time,cpu_W\n1733170000000,\n1733170001000,10\n1733170002000,10\n1733170003000,10\n' > "$r/power.csv"
printf 'target,repetition,requests\na,1,100\n' > "$r/trials/t.csv"
