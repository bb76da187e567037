#!/bin/sh
# run.json gives "n" for a column the table does not have (a typo of
# mj_per_req): an error naming it, not an n silently dropped.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "n", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T", "n": {"mj_per_rq": 5}}]}
JSON
printf 'target,mj_per_req,mj_per_req_sd\nelysia,0.0958,0.0006\n' > "$r/tables/t.csv"
