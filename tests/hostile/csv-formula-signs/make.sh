#!/bin/sh
# Cells a spreadsheet runs as formulas although they start with a sign:
# "-1+2", "+3-4" (were written bare: only a sign followed by a non-number
# character was guarded), beside "=1", "@x", "<TAB>=1".  "-5", "+5" and
# "-1e3" are numbers and stay as they are.  All in a text column of a
# summary table (its CSV download) and as target names.
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "summary", "date": "2026-11-05", "machine": {"id": "m"},
 "tables": [{"file": "tables/t.csv", "title": "T"}]}
JSON
printf 'target,rps,note\n-1+2,1,-1+2\n+3-4,2,+3-4\n=1,3,=1\n@x,4,@x\n"\t=1",5,"\t=1"\na,6,-5\nb,7,+5\nc,8,-1e3\n' > "$r/tables/t.csv"
