#!/bin/sh
# A bidirectional override and a C1 control in a cell that must be a
# number (rps "12<RLO>3", p99_ms "4<CSI>5"): each message quotes the cell, with each of them as one '?' so
# the terminal neither reorders the line nor obeys a control sequence.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,p99_ms\nelysia,12\342\200\2563,1\nbun,4,4\302\2335\n' > "$r/tables/t.csv"
