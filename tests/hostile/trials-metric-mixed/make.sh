#!/bin/sh
# A column erg does not know holding numbers and 'n/a': read as text it
# would be a key and split the cell in two (one for 'n/a', one per number),
# so each "cell" had one trial and no spread.  An error at the text,
# naming a line with a number.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,rep,rps,cpu_server\na,1,10,55.5\na,2,11,n/a\na,3,12,61\n' > "$r/trials/t.csv"
