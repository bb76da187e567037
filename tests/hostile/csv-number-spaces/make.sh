#!/bin/sh
# " 12" and "12 ": strtod skips the leading space and stops at the
# trailing one.  Cells are numbers with nothing around them.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,p99_ms\nelysia, 12,1.5\nbun,2,12 \n' > "$r/tables/t.csv"
