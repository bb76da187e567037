#!/bin/sh
# A summary run dated "2026-02-30" (February 30): any string was taken as the
# date, shown and used to order runs.  Dates must be real dates; the
# message names the line of the member (run.json errors had no line).
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{
  "title": "summary",
  "date": "2026-02-30",
  "machine": {"id": "m"},
  "tables": [{"file": "tables/t.csv", "title": "T"}]
}
JSON
printf 'target,rps\nelysia,184915\n' > "$r/tables/t.csv"
