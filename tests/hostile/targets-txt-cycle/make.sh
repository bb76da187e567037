#!/bin/sh
# archive/targets.txt: two names that are aliases of each other make a
# cycle, said once at the line that closes it.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\na,1\n' > "$r/tables/t.csv"
printf '# a cycle\na = b\nb = a\n' > "$1/targets.txt"
