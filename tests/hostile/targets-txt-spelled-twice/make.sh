#!/bin/sh
# archive/targets.txt: one canonical name spelled two ways leaves the
# name a page shows undecided: refused.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
printf 'node = Node.js\nnodejs = node.js\n' > "$1/targets.txt"
