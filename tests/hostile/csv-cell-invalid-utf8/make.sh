#!/bin/sh
# A summary run whose CSV has a cell that is not UTF-8 (0xC7 then '9').
# Found by fuzz_csv: json_string() refused the cell, the row came out one
# value short, and render.c's cell_text() read the missing value: erg
# crashed.  Now refused with a message at the CSV's line 2.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'extra\n\307\071s\n' > "$r/tables/t.csv"
