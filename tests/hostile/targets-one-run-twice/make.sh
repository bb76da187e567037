#!/bin/sh
# Two targets of one run that are one target ('Bun' and 'bun': names
# compare ignoring ASCII case) would leave one of them off the views:
# refused, at the run.
r=$1/2026/run
mkdir -p "$r/tables"
printf '{"title": "t", "date": "2026-01-01", "machine": {"id": "m"}}\n' > "$r/run.json"
printf 'target,rps\nBun,1\nbun,2\n' > "$r/tables/t.csv"
