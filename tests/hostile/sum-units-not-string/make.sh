#!/bin/sh
# A unit given as a number in run.json's "units": it was dropped unseen
# (the column showed no unit).  Every unit is a string; the message names
# the member and its line.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{
  "title": "summary",
  "date": "2026-11-05",
  "machine": {"id": "m"},
  "units": {
    "rps": "req/s",
    "p50_ms": 1000
  }
}
JSON
printf 'target,rps,p50_ms\nelysia,184915,1.5\n' > "$r/tables/t.csv"
