#!/bin/sh
# Both 'round' and 'rep': which one numbers the repetitions is ambiguous.
r=$1/2026/trials
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,round,rep,rps\na,1,1,10\n' > "$r/trials/t.csv"
