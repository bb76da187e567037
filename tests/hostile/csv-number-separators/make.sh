#!/bin/sh
# Digit separators: rps "1,234" (quoted, one cell) and p99_ms "1_000".
# Neither is a number of the grammar; each column's first bad cell is a
# located error.  A published table keeps 1234, never "1,234".
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,p99_ms\n# units: ,req/s,ms\nelysia,"1,234",1.5\nbun,1234,1_000\n' > "$r/tables/t.csv"
