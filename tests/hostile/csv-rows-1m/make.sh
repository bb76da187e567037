#!/bin/sh
# A table of 1,000,000 rows (~32 MB, within --max-file): reading it took
# 6.3 GB.  Over the row cap (100,000, --max-rows) it is refused at the
# line of the first row too many, having parsed no further.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
awk 'BEGIN { print "target,route,rps,p50_ms,p99_ms"; print "# units: ,,req/s,ms,ms";
	for (i = 0; i < 1000000; i++)
		printf "t%d,r%d,%d.%d,%d.%03d,%d.%02d\n", i % 7, i, 100000 + i, i % 10, i % 3, i % 1000, 10 + i % 50, i % 100 }' \
	> "$r/tables/t.csv"
