#!/bin/sh
# run.json "aliases" (issue 15): a canonical name that is not a string
# and an empty alias are refused at their member's line.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"},\n "aliases": {"node": 5,\n             "": "Bun"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
