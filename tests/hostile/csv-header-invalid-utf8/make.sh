#!/bin/sh
# A summary run (run.json + tables/*.csv) whose CSV header names a column
# with a Latin-1 byte, not UTF-8.  Found by fuzz_csv: erg crashed
# (json_string() refused the name, and the column lookup then compared a
# NULL name); now refused with a message at the CSV's line 1.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'ta\255rget,rps\nx,1\n' > "$r/tables/t.csv"
