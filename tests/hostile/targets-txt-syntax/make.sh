#!/bin/sh
# archive/targets.txt (issue 15): a line without '=', one with two, and
# one without a canonical name are each refused at their line.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
printf 'node = Node.js\nbun\na = b = c\ndeno =   # nothing\n' > "$1/targets.txt"
