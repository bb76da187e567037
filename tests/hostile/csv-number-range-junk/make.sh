#!/bin/sh
# "1e999" overflows to infinity (ERANGE) and "12abc" has junk after the
# number: both refused, the first with its reason.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,p99_ms\nelysia,1e999,1.5\nbun,2,12abc\n' > "$r/tables/t.csv"
