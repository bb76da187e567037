#!/bin/sh
# The table has its own 'energy_j' column: erg derives that metric from the
# power data, so the two would be confused.  Refused, asking for a rename.
r=$1/2026/trials-energy
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials with power", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'time,cpu_W\n1733170000000,\n1733170001000,10\n1733170002000,10\n1733170003000,10\n' > "$r/power.csv"
printf 'target,repetition,start_ms,end_ms,energy_j\na,1,1733170001000,1733170002000,9\n' > "$r/trials/t.csv"
