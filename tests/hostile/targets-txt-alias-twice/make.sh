#!/bin/sh
# archive/targets.txt: an alias given twice is refused, even with the
# same canonical name.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
printf 'node = Node.js\nnode = Node.js\n' > "$1/targets.txt"
