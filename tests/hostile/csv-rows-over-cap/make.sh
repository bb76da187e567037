#!/bin/sh
# --max-rows 4 (args) and a table of five rows and a blank line: refused
# at the fifth row's line; the blank line is not a row.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps\na,1\nb,2\n\nc,3\nd,4\ne,5\n' > "$r/tables/t.csv"
