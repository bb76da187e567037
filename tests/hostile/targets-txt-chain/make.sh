#!/bin/sh
# archive/targets.txt: a canonical name that is itself an alias is refused:
# name the final target.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
printf 'node = nodejs\nnodejs = Node.js\n' > "$1/targets.txt"
