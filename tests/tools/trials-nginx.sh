#!/bin/sh
# trials-nginx.sh - make a trials run of the example archive: nginx
# (Debian's nginx-light) serving one small static file, driven by wrk over
# a connections sweep, each (connections, repetition) one trial, the
# connection counts interleaved within each repetition so that drift over
# the session spreads over every cell.  Writes RUNDIR/trials/wrk.csv with a
# "# units:" line and RUNDIR/run.json; nothing else.
#
#   sh tests/tools/trials-nginx.sh RUNDIR WORKERS [REPS] [SECONDS] [PORT]
#
# WORKERS is nginx's worker_processes (the configuration that differs
# between the two example runs).  Needs nginx and wrk (apt-get install
# nginx-light wrk); runs nginx as the current user from a temporary
# directory on 127.0.0.1:PORT.
set -eu
out=$1 workers=$2 reps=${3:-5} secs=${4:-3} port=${5:-18080}
conns="1 4 16 64"
tmp=$(mktemp -d)
trap 'kill "$(cat "$tmp/nginx.pid" 2>/dev/null)" 2>/dev/null; sleep 0.5; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/www" "$out/trials"
head -c 1024 /dev/zero | tr '\0' 'x' > "$tmp/www/1k.txt"
cat > "$tmp/nginx.conf" <<CONF
worker_processes $workers;
pid $tmp/nginx.pid;
error_log $tmp/error.log;
daemon on;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path $tmp/body;
	proxy_temp_path $tmp/proxy;
	fastcgi_temp_path $tmp/fcgi;
	uwsgi_temp_path $tmp/uwsgi;
	scgi_temp_path $tmp/scgi;
	server { listen 127.0.0.1:$port; root $tmp/www; }
}
CONF
nginx -c "$tmp/nginx.conf" -p "$tmp"
sleep 0.5
curl -fsS "http://127.0.0.1:$port/1k.txt" > /dev/null
# a warm-up trial, not recorded
wrk -t1 -c16 -d1s "http://127.0.0.1:$port/1k.txt" > /dev/null
csv=$out/trials/wrk.csv
{
	echo "target,route,connections,repetition,sequence,rps,p50_ms,p99_ms,latency_mean_ms,latency_max_ms,requests,errors,non_2xx"
	echo "# units: ,,,,,req/s,ms,ms,ms,ms,,,"
} > "$csv"
seq=0
rep=1
while [ "$rep" -le "$reps" ]; do
	for c in $conns; do
		seq=$((seq + 1))
		wrk -t1 -c"$c" -d"${secs}s" --latency "http://127.0.0.1:$port/1k.txt" > "$tmp/wrk.txt"
		# wrk prints times as 12.34us / 1.23ms / 1.00s: to ms
		awk -v c="$c" -v rep="$rep" -v seq="$seq" '
		function ms(s) {
			if (s ~ /us$/) return substr(s, 1, length(s) - 2) / 1000
			if (s ~ /ms$/) return substr(s, 1, length(s) - 2) + 0
			if (s ~ /m$/) return substr(s, 1, length(s) - 1) * 60000
			if (s ~ /s$/) return substr(s, 1, length(s) - 1) * 1000
			return "BAD"
		}
		$1 == "Latency" && !mean { mean = ms($2); max = ms($4) }
		$1 == "50%" { p50 = ms($2) }
		$1 == "99%" { p99 = ms($2) }
		/requests in/ { req = $1 }
		/Socket errors/ { gsub(/,/, ""); err = $4 + $6 + $8 + $10 }
		/Non-2xx/ { non = $NF }
		$1 == "Requests/sec:" { rps = $2 }
		END {
			printf "nginx,GET /1k.txt,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d\n",
			       c, rep, seq, rps, p50, p99, mean, max, req, err, non
		}' "$tmp/wrk.txt" >> "$csv"
	done
	rep=$((rep + 1))
done
cat > "$out/run.json" <<JSON
{
  "title": "nginx static file, worker_processes $workers: wrk connections sweep, $reps repetitions",
  "date": "$(date -u +%Y-%m-%dT%H:%MZ)",
  "machine": {
    "id": "ci-epyc-2core",
    "chip": "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)",
    "cores": $(nproc),
    "os": "$(. /etc/os-release; echo "$PRETTY_NAME"), kernel $(uname -r)"
  },
  "software": {
    "nginx": "$(nginx -v 2>&1 | sed 's|.*nginx/||')",
    "wrk": "$(dpkg-query -W -f '${Version}' wrk)"
  },
  "load": {
    "tool": "wrk",
    "threads": 1,
    "duration": "${secs} s",
    "connections": "$(echo $conns | tr ' ' ',')"
  },
  "conditions": {
    "worker_processes": $workers,
    "file": "1 KiB static file, access log off",
    "order": "repetitions in turn, connection counts 1, 4, 16, 64 within each; one 1 s warm-up first"
  },
  "centre": "median",
  "notes": "notes.md",
  "caveats": [
    "A shared 2-core virtual machine: wrk, nginx and other work ran on the same cores, so throughput is bounded by the load generator as much as by nginx.",
    "Made by tests/tools/trials-nginx.sh."
  ]
}
JSON
