#!/bin/sh
# A run with both tables/ (published figures) and trials/: the trials page
# shows the trials, so the tables would be left off it unseen.  Refused.
r=$1/2026/trials
mkdir -p "$r/trials" "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,rep,rps\na,1,10\n' > "$r/trials/t.csv"
printf 'target,rps\na,10\n' > "$r/tables/t.csv"
