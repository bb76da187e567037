#!/bin/sh
# Energy per trial: an ISO 8601 start without a zone cannot be placed on
# the power data's clock (local time or UTC?).  Refused at its line.
r=$1/2026/trials-tz
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
printf 'target,repetition,start,end,rps\na,1,2024-12-02T20:06:41Z,2024-12-02T20:06:43Z,5\na,2,2024-12-02T20:06:44,2024-12-02T20:06:46Z,5\n' \
	> "$r/trials/t.csv"
