#!/bin/sh
# strtod takes "inf" and "nan"; a figure that is infinite or not a number
# was published blank or as a dash.  Now each is an error at its line.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,p99_ms\nelysia,inf,1.5\nbun,2,nan\n' > "$r/tables/t.csv"
