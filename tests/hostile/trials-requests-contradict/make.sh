#!/bin/sh
# Trial a/2 (10 s) has 100,000 requests but an rps of 1000 (10,000 in
# its 10 s): one of them is not this trial's.  Read, its energy per
# request was a tenth of its twin's, exit 0.
r=$1/2026/trials-energy
mkdir -p "$r/trials"
cat > "$r/run.json" <<'JSON'
{"title": "trials with power", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
{
	echo 'time,cpu_W'
	echo '1733170000000,'
	i=1
	while [ $i -le 60 ]; do
		echo "$((1733170000000 + i * 1000)),40"
		i=$((i + 1))
	done
} > "$r/power.csv"
printf 'target,repetition,start_ms,end_ms,requests,rps\n' > "$r/trials/t.csv"
printf 'a,1,1733170001000,1733170011000,10000,1000\na,2,1733170012000,1733170022000,100000,1000\n' >> "$r/trials/t.csv"
