#!/bin/sh
# A summary run's table is a FIFO with no writer (erg hung here): refused
# at once as not a regular file.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
mkfifo "$r/tables/t.csv"
