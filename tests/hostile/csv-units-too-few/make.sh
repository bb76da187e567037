#!/bin/sh
# A units line with one entry fewer than the header has columns: the last
# column fell back to another unit silently.  Now an error.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,p99_ms\n# units: ,req/s\nelysia,184915,1.5\n' > "$r/tables/t.csv"
