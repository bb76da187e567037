#!/bin/sh
# archive/targets.txt: one alias naming two canonical names (in another
# case: aliases compare ignoring ASCII case) is refused at its second line.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\nnode,1\n' > "$r/tables/t.csv"
printf 'node = Node.js\nNODE = Deno\n' > "$1/targets.txt"
