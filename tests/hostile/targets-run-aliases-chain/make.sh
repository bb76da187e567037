#!/bin/sh
# run.json "aliases": the rules of targets.txt, each at its member's
# line: a canonical name that is itself an alias.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"},\n "aliases": {"node": "nodejs",\n             "nodejs": "Node.js"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
