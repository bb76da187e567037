#!/bin/sh
# tests/sh/record-loadgen.sh - erg record drives every load generator it
# knows, stores its raw output as erg build reads it back, and erg build
# reads the run:
#   1. hey and ab from Debian, for real, against nginx (1 target x 2 routes:
#      a GET and a POST with a body file and a Content-Type, 1 s each): the
#      timeline names the format (loadFormat), the command is the one
#      planned, the stored file is the tool's own output with requests,
#      and `erg build` reads the run with its Latin square and responses
#      checks passing; hey is held to 100 req/s (-q 25 per worker over 4
#      connections: at most 104 requests in a 1 s route);
#   2. oha, bombardier, autocannon, k6 and wrk2 (not in Debian) as fake
#      executables on PATH: each records the exact argv erg passes (checked
#      against the argv written out here by hand from the tools' documented
#      options, with a rate of 100 req/s: oha -q, bombardier -r, autocannon
#      --overallRate, wrk2 -R; k6 without) and prints a real output of that
#      tool from ../shared/samples (k6: writes it where --summary-export
#      says; wrk2: none there, so the documented shape, tests/README.md);
#      erg reads it back before logging it and `erg build` reads the run;
#      the rate is in each routeComplete, sessionStart's rps and meta.json,
#      and wrk2's run page shows it as the request rate;
#   3. the server's version from the target's "version" command in
#      meta.json, and a version command that fails is an error first.
# Needs nginx, hey and ab (make test-deps installs them; SKIP_RECORD=1 skips).
T=record-loadgen.sh
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
src=$ERG_SRC/tests/record

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] ||
   ! command -v hey >/dev/null 2>&1 || ! command -v ab >/dev/null 2>&1; then
	echo "skip - record-loadgen.sh: nginx, hey or ab not installed (make test-deps) (SKIP_RECORD=1)"
	exit 0
fi
PATH=$PATH:/usr/sbin
favour_timing
chmod 755 "$tmp"
port=$(python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/www" "$tmp/a" "$tmp/archive" "$tmp/fake"
echo hello > "$tmp/www/index.html"
printf '{"a": 1}\n' > "$tmp/body.json"
body=$(realpath "$tmp/body.json")
sed -e "s|@PORT@|$port|" -e "s|@ROOT@|$tmp/www|" "$src/nginx.conf.in" > "$tmp/a/nginx.conf"
url=http://127.0.0.1:$port

plan() { # tool, extra load settings
	cat << EOF
{ "title": "$1", "arm": "$1", "rounds": 1, "windowSec": 1, "gapSec": 0.2, "cooldownSec": 1,
  "idleBaseline": {"offsetSec": 0.2, "endOffsetSec": 0.9},
  "load": {"tool": "$1", "connections": 4 ${2-}},
  "targets": [{"name": "a", "command": "nginx -p $tmp/a -c nginx.conf", "cwd": "a",
               "url": "$url", "ready": {"path": "/index.html", "timeoutSec": 10},
               "version": "${VERSION_CMD:-nginx -v}"}],
  "routes": [ {"name": "ping", "path": "/index.html"},
    {"name": "post", "method": "POST", "path": "/echo", "bodyFile": "body.json",
     "headers": {"Content-Type": "application/json"}, "load": {"timeoutSec": 5}} ] }
EOF
}

# Checks of one recorded run: argv (one line per word, routes apart by
# '@@' lines), the first bytes of the stored output, the format's name.
check_run() { # tool, expected cmds file, output prefix
	python3 - "$tmp/archive/$1" "$1" "$2" "$3" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, os, sys
run, tool, want, prefix = sys.argv[1:5]
ev = [json.loads(l) for l in open(os.path.join(run, "timeline.jsonl"))]
def check(c, what):
    print(("ok" if c else "FAIL") + " " + what)
rc = [e for e in ev if e["event"] == "routeComplete"]
check(ev[-1]["event"] == "sessionEnd" and ev[-1]["ok"] is True and len(rc) == 2, "2 routes, ended ok")
check(all(r["loadFormat"] == tool for r in rc), "loadFormat '%s'" % tool)
cmds = open(want).read().split("@@\n")
got = [r["cmd"] for r in rc]
check(got == [" ".join(c.split("\n")).strip() for c in cmds], "the commands: %r" % got)
check(all(r["requests"] > 0 for r in rc), "requests read back: %s" % [r["requests"] for r in rc])
check(all(open(os.path.join(run, r["loadFile"])).read().lstrip().startswith(prefix) for r in rc),
      "the stored files are the tool's own output")
check(all(r["loadFile"].endswith(".json" if prefix == "{" else ".txt") for r in rc), "file names")
meta = json.load(open(os.path.join(run, "meta.json")))
check(meta["erg"]["loadFormat"] == tool and meta["load"]["tool"] == tool, "meta.json: the tool")
EOF
	if [ $? -eq 0 ] && ! grep -q FAIL "$tmp/py.txt"; then
		ok "$1: recorded, commands as planned, output read back ($(grep -c '^ok' "$tmp/py.txt") checks)"
	else
		notok "$1: the recorded run"; show "$tmp/py.txt"
	fi
}

build_run() { # tool
	rm -rf "$tmp/site"
	"$ERG" build --archive "$tmp/archive" --out "$tmp/site" -q > "$tmp/out" 2> "$tmp/err"
	rc=$?
	python3 - "$tmp/site/runs/$1/results.json" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, sys
res = json.load(open(sys.argv[1]))
v = res["validation"]
o = v["ordering"]
print(o["status"], o["latin_square"], v["responses"]["status"])
sys.exit(0 if (o["status"], o["latin_square"], v["responses"]["status"]) == ("ok", True, "ok") else 1)
EOF
	if [ $rc -eq 0 ] && [ $? -eq 0 ]; then
		ok "$1: erg build reads the run, its checks pass"
	else
		notok "$1: erg build of the run (status $rc)"; show "$tmp/err"; show "$tmp/py.txt"
	fi
}

# 1. hey and ab, for real
printf 'hey\n-z\n1s\n-c\n4\n-q\n25\n-m\nGET\n%s/index.html\n@@\nhey\n-z\n1s\n-c\n4\n-q\n25\n-t\n5\n-m\nPOST\n-H\nContent-Type: application/json\n-D\n%s\n%s/echo\n' \
	"$url" "$body" "$url" > "$tmp/want"
# 100 req/s over 4 connections: hey's -q is per worker, so -q 25
plan hey ', "rate": 100' > "$tmp/plan.json"
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id hey > "$tmp/out" 2> "$tmp/err" ||
	{ notok "hey: erg record failed"; show "$tmp/err"; }
check_run hey "$tmp/want" "Summary:"
# held to the rate: at most 100 requests in the 1 s window (+ one round
# of 4 in flight), where hey against nginx makes thousands unthrottled
n=$(python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["requests"]) for l in open(sys.argv[1]) if json.loads(l)["event"] == "routeComplete"))' \
	"$tmp/archive/hey/timeline.jsonl")
if [ -n "$n" ] && python3 -c 'import sys; sys.exit(0 if all(0 < float(x) <= 104 for x in sys.argv[1:]) else 1)' $n; then
	ok "hey: held to 100 req/s by -q 25 per worker (requests per 1 s route: $n)"
else
	notok "hey: the rate (requests per route: $n)"
fi
build_run hey
# the server's version, from the plan's command (nginx prints it on stderr)
want=$(nginx -v 2>&1)
if [ -n "$want" ] && [ "$(python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["targets"]["a"]; print(t["version"] + "|" + t["versionCommand"])' \
        "$tmp/archive/hey/meta.json")" = "$want|nginx -v" ]; then
	ok "the server's version in meta.json, from the plan's version command: $want"
else
	notok "the server's version in meta.json"
fi
rm -rf "$tmp/archive/hey"
# a version command that fails: one error before anything runs
VERSION_CMD="nginx --no-such-option" plan hey > "$tmp/plan.json"
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id v > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "erg: error: target 'a': its version command 'nginx --no-such-option' exited with status 1" ] &&
   [ -z "$(ls -A "$tmp/archive")" ]; then
	ok "a version command that fails is one error before anything runs"
else
	notok "a version command that fails (status $rc)"; show "$tmp/err"
fi

printf 'ab\n-t\n1\n-n\n1000000\n-c\n4\n-k\n-m\nGET\n%s/index.html\n@@\nab\n-t\n1\n-n\n1000000\n-c\n4\n-k\n-s\n5\n-p\n%s\n-T\napplication/json\n%s/echo\n' \
	"$url" "$body" "$url" > "$tmp/want"
plan ab ', "requests": 1000000' > "$tmp/plan.json"
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id ab > "$tmp/out" 2> "$tmp/err" ||
	{ notok "ab: erg record failed"; show "$tmp/err"; }
check_run ab "$tmp/want" "This is ApacheBench"
build_run ab
# ab stops at its -n requests even within -t: a window cut short fails
plan ab ', "requests": 5' > "$tmp/plan.json"
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id ab-short > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "^erg: error: measurement 'r1-s1-a' failed: route 'ping': ab stopped after 5 requests in 0\.[0-9] s, before the 1 s window ended: raise 'load.requests'$" "$tmp/err" &&
   [ ! -e "$tmp/archive/ab-short" ]; then
	ok "ab: a window its -n cut short fails the measurement, saying so"
else
	notok "ab: a window cut short (status $rc)"; show "$tmp/err"
fi
rm -rf "$tmp/archive/ab" "$tmp/archive/.erg-record-ab-short"

# 2. fakes: print the argv, then a real sample output of the tool
S=$SHARED/samples
fake() { # tool, version option, sample
	cat > "$tmp/fake/$1" << EOF
#!/bin/sh
if [ "\$1" = "$2" ]; then echo "$1 9.9.9-fake"; exit 0; fi
[ -s "$tmp/argv.$1" ] && echo @@ >> "$tmp/argv.$1"
printf '%s\n' "\$0" "\$@" | sed '1s|.*/||' >> "$tmp/argv.$1"
sleep 1
out=
while [ \$# -gt 0 ]; do [ "\$1" = --summary-export ] && out=\$2; shift; done
if [ -n "\$out" ]; then cat "$3" > "\$out"; else cat "$3"; fi
EOF
	chmod +x "$tmp/fake/$1"
}
# The published samples ran 3 s to 2 min; a fake runs 1 s, its window.
# erg refuses a load file whose tool ran longer than 1.5 times its window
# and a second more (another run's), so each sample's run time is set to
# the 1 s the fake ran: oha's summary.total, bombardier's timeTakenSeconds,
# autocannon's duration and finish, k6's http_reqs rate (legacy exports
# give the time as count / rate).  Nothing else is changed.
python3 - "$S" "$tmp" << 'PY' || notok "fitting the samples to 1 s"
import json, sys
from datetime import datetime, timedelta
s, t = sys.argv[1:3]
def fit(src, dst, edit):
    d = json.load(open(f"{s}/{src}"))
    edit(d)
    json.dump(d, open(f"{t}/{dst}", "w"), indent=2)
def oha(d): d["summary"]["total"] = 1.0
def bombardier(d):
    d["spec"]["testDurationSeconds"] = 1
    d["result"]["timeTakenSeconds"] = 1.0
def autocannon(d):
    d["duration"] = 1.0
    start = datetime.strptime(d["start"], "%Y-%m-%dT%H:%M:%S.%fZ")
    d["finish"] = (start + timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
def k6(d): d["metrics"]["http_reqs"]["rate"] = float(d["metrics"]["http_reqs"]["count"])
fit("oha/oha1.15.0_-c8_-q200_-z3s_latency-correction_IronTraffic.json", "oha.json", oha)
fit("bombardier/gaplo917-lb_bc0_apache-event_c1000_JQ-PRETTY.json", "bombardier.json", bombardier)
fit("autocannon/autocannon9.0.0_-j_c10_d3_fast.json", "autocannon.json", autocannon)
fit("k6/legacy_--summary-export_ticket-reserve_100reqs_1fail.json", "k6.json", k6)
PY
fake oha --version "$tmp/oha.json"
fake bombardier --version "$tmp/bombardier.json"
fake autocannon --version "$tmp/autocannon.json"
fake k6 version "$tmp/k6.json"
# no real wrk2 output in ../shared/samples: the documented shape
# (formats.md section 5, see tests/README.md), 100 requests at -R100
cat > "$tmp/wrk2.txt" << EOF
Running 1s test @ $url/index.html
  2 threads and 4 connections
  Thread calibration: mean lat.: 1.102ms, rate sampling interval: 10ms
  Thread calibration: mean lat.: 1.087ms, rate sampling interval: 10ms
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.05ms  310.22us   2.41ms   71.00%
    Req/Sec    52.10     60.31   111.00     80.00%
  Latency Distribution (HdrHistogram - Recorded Latency)
 50.000%    1.01ms
 75.000%    1.24ms
 90.000%    1.49ms
 99.000%    2.11ms
 99.900%    2.41ms
 99.990%    2.41ms
 99.999%    2.41ms
100.000%    2.41ms

  Detailed Percentile spectrum:
       Value   Percentile   TotalCount 1/(1-Percentile)

       0.512     0.000000            1         1.00
       1.010     0.500000           50         2.00
       2.411     1.000000          100          inf
#[Mean    =        1.050, StdDeviation   =        0.310]
#[Max     =        2.410, Total count    =          100]
#[Buckets =           27, SubBuckets     =         2048]
----------------------------------------------------------
  100 requests in 1.00s, 24.41KB read
Requests/sec:     99.98
Transfer/sec:     24.40KB
EOF
fake wrk2 -v "$tmp/wrk2.txt"
P=$tmp/archive/.erg-record

printf 'oha\n--no-tui\n--output-format\njson\n-z\n1s\n-c\n4\n-q\n100\n-m\nGET\n%s/index.html\n@@\noha\n--no-tui\n--output-format\njson\n-z\n1s\n-c\n4\n-q\n100\n-t\n5s\n-m\nPOST\n-H\nContent-Type: application/json\n-D\n%s\n%s/echo\n' \
	"$url" "$body" "$url" > "$tmp/want.oha"
printf 'bombardier\n-c\n4\n-d\n1s\n-r\n100\n-m\nGET\n-l\n-o\njson\n-p\nr\n%s/index.html\n@@\nbombardier\n-c\n4\n-d\n1s\n-r\n100\n-t\n5s\n-m\nPOST\n-H\nContent-Type: application/json\n-f\n%s\n-l\n-o\njson\n-p\nr\n%s/echo\n' \
	"$url" "$body" "$url" > "$tmp/want.bombardier"
printf 'autocannon\n-c\n4\n-d\n1\n-w\n2\n--overallRate\n100\n-m\nGET\n-j\n%s/index.html\n@@\nautocannon\n-c\n4\n-d\n1\n-w\n2\n--overallRate\n100\n-t\n5\n-m\nPOST\n-H\nContent-Type=application/json\n-i\n%s\n-j\n%s/echo\n' \
	"$url" "$body" "$url" > "$tmp/want.autocannon"
printf 'k6\nrun\n--quiet\n--no-color\n--vus\n4\n--duration\n1s\n--summary-export\n%s\n%s\n@@\nk6\nrun\n--quiet\n--no-color\n--vus\n4\n--duration\n1s\n--summary-export\n%s\n%s\n' \
	"$P-k6/load/r1-s1-a-ping.json" "$P-k6/load/a-ping.k6.js" \
	"$P-k6/load/r1-s1-a-post.json" "$P-k6/load/a-post.k6.js" > "$tmp/want.k6"
printf 'wrk2\n-t2\n-c4\n-d1s\n-R100\n--latency\n%s/index.html\n@@\nwrk2\n-t2\n-c4\n-d1s\n-R100\n--latency\n--timeout\n5s\n-H\nContent-Type: application/json\n-s\n%s\n%s/echo\n' \
	"$url" "$P-wrk2/load/post.lua" "$url" > "$tmp/want.wrk2"
for tool in oha bombardier autocannon k6 wrk2; do
	extra=
	[ $tool = autocannon ] && extra=', "threads": 2'
	# a rate where the tool holds one in its own option (k6: refused)
	[ $tool != k6 ] && extra="$extra, \"rate\": 100"
	prefix={
	[ $tool = wrk2 ] && prefix="Running 1s test @ "
	plan $tool "$extra" > "$tmp/plan.json"
	PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id $tool > "$tmp/out" 2> "$tmp/err" ||
		{ notok "$tool: erg record failed"; show "$tmp/err"; }
	if cmp -s "$tmp/argv.$tool" "$tmp/want.$tool"; then
		ok "$tool: the exact argv erg passes"
	else
		notok "$tool: argv"; diff "$tmp/want.$tool" "$tmp/argv.$tool" | sed 's/^/# /'
	fi
	# (the commands in the timeline are the same argv)
	check_run $tool "$tmp/want.$tool" "$prefix"
	# (k6, without a rate: none is claimed anywhere)
	if python3 - "$tmp/archive/$tool" $tool > "$tmp/py.txt" 2>&1 << 'EOF'
import json, os, sys
run, tool = sys.argv[1:3]
ev = [json.loads(l) for l in open(os.path.join(run, "timeline.jsonl"))]
rc = [e for e in ev if e["event"] == "routeComplete"]
ss = [e for e in ev if e["event"] == "sessionStart"][0]
meta = json.load(open(os.path.join(run, "meta.json")))
got = ([r.get("rate") for r in rc], ss.get("rps"), meta["erg"].get("requestRate"))
print(got)
want = ([None, None], None, None) if tool == "k6" else ([100, 100], 100, 100)
sys.exit(0 if got == want else 1)
EOF
	then
		ok "$tool: the rate asked for (k6: none) in routeComplete, sessionStart (rps) and meta.json"
	else
		notok "$tool: the rate in the timeline"; show "$tmp/py.txt"
	fi
	if [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tools"][sys.argv[2]])' \
	        "$tmp/archive/$tool/meta.json" $tool)" = "$tool 9.9.9-fake" ]; then
		ok "$tool: its version in meta.json, from the tool"
	else
		notok "$tool: version in meta.json"
	fi
	if [ $tool = k6 ]; then
		js=$tmp/archive/k6/load/a-post.k6.js
		if grep -qxF "const body = open(\"$body\", 'b');" "$js" &&
		   grep -qxF "const params = { headers: { \"Content-Type\": \"application/json\" }, timeout: '5s' };" "$js" &&
		   grep -qxF "	http.request(\"POST\", \"$url/echo\", body, params);" "$js" &&
		   grep -qxF "	http.request(\"GET\", \"$url/index.html\", null, params);" "$tmp/archive/k6/load/a-ping.k6.js"; then
			ok "k6: its scripts send the route's method, URL, body, headers and timeout"
		else
			notok "k6: scripts"; show "$js"
		fi
	fi
	build_run $tool
	if [ $tool = wrk2 ]; then
		# the page says the run was held to a rate, not saturating
		if python3 - "$tmp/site/runs/wrk2/index.html" > "$tmp/py.txt" 2>&1 << 'EOF'
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r"<dt>Request rate</dt><dd>([^<]*)</dd>", h)
print(m and m.group(1), repr(h[h.find("<h3>Load</h3>"):h.find("Request rate") + 60]))
sys.exit(0 if m and m.group(1).strip() == "100 req/s" else 1)
EOF
		then
			ok "wrk2: the run page's request rate is the rate asked for (100 req/s)"
		else
			notok "wrk2: the page's request rate"; show "$tmp/py.txt"
		fi
	fi
	rm -rf "$tmp/archive/$tool"
done
