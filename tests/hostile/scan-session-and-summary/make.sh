#!/bin/sh
# One directory holds an energy session and a summary run's run.json:
# only one of them was read.  Now an error naming the directory.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
printf '{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"}}\n' > "$r/run.json"
