#!/bin/sh
# run.json states the rounds behind a table's figures ("n", issue 15): a
# count of 0 or a fraction is refused where it stands, not read as 1; the
# other column's n is a string.  Both are located in run.json.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "n", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T",
             "n": {"mj_per_req": 0, "mj_per_req_sd": "5"}}]}
JSON
printf 'target,mj_per_req,mj_per_req_sd\nelysia,0.0958,0.0006\n' > "$r/tables/t.csv"
