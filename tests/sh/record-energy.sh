#!/bin/sh
# tests/sh/record-energy.sh - erg record's energy samplers other than
# powercap: perf, turbostat, nvidia-smi and powermetrics, which this
# machine cannot run for real, are tests/record/fake-sampler.py on PATH
# under their names (it prints the tools' documented lines at the right
# times: 10 W, or 30 W while a wrk runs); the load is Debian's wrk against
# nginx (1 target x 1 route x 2 rounds, 1 s windows).  For each:
#   1. the exact argv erg passes; the sampler's file under the name and in
#      the layout erg build's reader detects; meta.json names the source
#      and gives erg.powerStartMs for perf (its times count from its start)
#      and erg.powerTimezone for nvidia-smi (local time, here under TZ=EST5:
#      -05:00); no sampler left running;
#   2. `erg build` reads the run with its energy: idle floors are the
#      fake's 10 W, every window draws more, coverage ok (or a stall of the
#      fake under load listed as a gap).
# Then: a sampler that fails at start is one error (its own words and how
# to grant access) before any measurement; one that dies mid-session
# fails the session (sessionEnd not ok, the reason); --resume of a
# sampled run is refused; a sampler not installed is an error before
# anything runs.
# Needs nginx and wrk (as record.sh; SKIP_RECORD=1 skips).
T=record-energy.sh
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
src=$ERG_SRC/tests/record

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] ||
   ! command -v wrk >/dev/null 2>&1; then
	echo "skip - record-energy.sh: nginx or wrk not installed (make test-deps) (SKIP_RECORD=1)"
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
sed -e "s|@PORT@|$port|" -e "s|@ROOT@|$tmp/www|" "$src/nginx.conf.in" > "$tmp/a/nginx.conf"
for t in perf turbostat nvidia-smi powermetrics; do
	ln -s "$src/fake-sampler.py" "$tmp/fake/$t"
done
FAKE_IDLE=10 FAKE_BUSY=30 FAKE_ARGV=$tmp/argv
export FAKE_IDLE FAKE_BUSY FAKE_ARGV

plan() { # source, rounds
	cat << EOF
{ "title": "$1", "arm": "e", "rounds": ${2:-2}, "windowSec": 1, "gapSec": 0, "cooldownSec": 1.5,
  "idleBaseline": {"offsetSec": 0.3, "endOffsetSec": 1.3},
  "load": {"tool": "wrk", "connections": 4, "threads": 1},
  "energy": {"source": "$1", "intervalMs": 100},
  "targets": [{"name": "a", "command": "nginx -p $tmp/a -c nginx.conf", "cwd": "a",
               "url": "http://127.0.0.1:$port", "ready": {"path": "/index.html", "timeoutSec": 10}}],
  "routes": [ {"name": "ping", "path": "/index.html"} ] }
EOF
}

run_one() { # source, file, expected argv (one word a line), UTC offset, TZ
	plan $1 > "$tmp/plan.json"
	rm -f "$tmp/argv.stop"
	TZ=${5:-UTC} PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id $1 \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	# erg stops and reaps its sampler before it exits: none may be left
	# now (no grace period, whatever the load)
	if [ $rc -eq 0 ] && cmp -s "$tmp/argv" "$3" && [ -s "$tmp/archive/$1/$2" ] &&
	   ! pgrep -f "$tmp/fake/" > /dev/null; then
		ok "$1: recorded with the exact argv into '$2', the sampler stopped and reaped"
	else
		notok "$1: recording (status $rc)"; show "$tmp/err"; diff "$3" "$tmp/argv" | sed 's/^/# /'
	fi
	# stopped by its own signal, not killed after 5 s (its last lines
	# would be lost): a sampler inherited erg's blocked signals once
	sig=SIGINT
	[ $1 = nvidia-smi ] && sig=SIGTERM
	if [ "$(cat "$tmp/argv.stop" 2>/dev/null)" = $sig ] && ! grep -q "did not stop" "$tmp/err"; then
		ok "$1: the sampler stopped on erg's $sig"
	else
		notok "$1: the sampler did not stop on $sig (it got: $(cat "$tmp/argv.stop" 2>/dev/null))"
		show "$tmp/err"
	fi
	python3 - "$tmp/archive/$1" $1 "$2" "$4" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, os, sys
run, src, f, tz = sys.argv[1:5]
meta = json.load(open(os.path.join(run, "meta.json")))
ev = [json.loads(l) for l in open(os.path.join(run, "timeline.jsonl"))]
def check(c, what):
    print(("ok" if c else "FAIL") + " " + what)
check(meta["power"]["source"] == src and meta["power"]["file"] == f, "meta.json power: source, file")
check(meta["tools"][src] == ("%s 9.9-fake" % src if src != "powermetrics" else None),
      "meta.json: the sampler's version (powermetrics has no version option)")
start = meta["erg"].get("powerStartMs")
check(src != "perf" and start is None or
      ev[0]["event"] == "sessionStart" and ev[0]["ts"] - 10000 <= start <= ev[0]["ts"],
      "erg.powerStartMs for perf only, just before sessionStart: %s" % start)
check(meta["erg"].get("powerTimezone") == (tz if src == "nvidia-smi" else None),
      "erg.powerTimezone for nvidia-smi only: %s" % meta["erg"].get("powerTimezone"))
EOF
	if [ $? -eq 0 ] && ! grep -q FAIL "$tmp/py.txt"; then
		ok "$1: meta.json ($(grep -c '^ok' "$tmp/py.txt") checks)"
	else
		notok "$1: meta.json"; show "$tmp/py.txt"
	fi
	rm -rf "$tmp/site"
	"$ERG" build --archive "$tmp/archive" --out "$tmp/site" -q > "$tmp/out" 2> "$tmp/err"
	rc=$?
	python3 - "$tmp/site/runs/$1/results.json" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, sys
res = json.load(open(sys.argv[1]))
def check(c, what):
    print(("ok" if c else "FAIL") + " " + what)
idle = res["idle_windows"]
# (a window's mean power is its energy over its whole length: with a
# sampler stall in it, the fake's power times its coverage)
check(len(idle) == 3 and all(i["coverage"] > 0.3 and
                             abs(i["mean_watts"] / i["coverage"] / 10 - 1) < 0.1 for i in idle),
      "3 idle floors at the fake's 10 W over their covered part: %s" %
      " ".join("%.2f/%.3f" % (i["mean_watts"], i["coverage"]) for i in idle))
win = [w for m in res["measurements"] for w in m["routes"]]
# wrk runs most of a window (the sampler sees it start and end)
check(len(win) == 2 and all(18 < w["mean_watts"] <= 30.5 for w in win),
      "2 windows, each drawing most of the time the fake's 30 W: %s" %
      " ".join("%.2f" % w["mean_watts"] for w in win))
check(all(w["net_energy_j"] > 0 for w in win), "net energy above the idle floor")
# A loaded machine can stall the fake sampler for a moment (python's own
# start included): the reader then lists a gap, a sample without energy
# or a window under 95% covered (coverage "warn"), an honest outcome; the
# figures above still have to line up.  A failed coverage check fails.
cov = res["validation"]["coverage"]
check(cov["status"] == "ok" or (cov["status"] == "warn" and all(w["coverage"] > 0.5 for w in win)),
      "coverage ok, or only sampler stalls: %s, gaps %s, %s without energy, low %s" %
      (cov["status"], [round(g["interval_ms"]) for g in cov.get("gaps") or []],
       cov.get("samples_without_power"), cov.get("low_total")))
EOF
	py=$?
	if [ $rc -eq 0 ] && [ $py -eq 0 ] && ! grep -q FAIL "$tmp/py.txt"; then
		ok "$1: erg build reads the run with its energy ($(grep -c '^ok' "$tmp/py.txt") checks)"
	else
		notok "$1: erg build of the run (status $rc)"; show "$tmp/err"
	fi
	sed -n 's/^/# /p' "$tmp/py.txt"
	mv "$tmp/archive/$1" "$tmp/done-$1"
}

P=$tmp/archive/.erg-record
printf 'perf\nstat\n-a\n-I\n100\n-x\n,\n-o\n%s\n-e\npower/energy-pkg/\n' "$P-perf/perf-stat.csv" > "$tmp/want"
run_one perf perf-stat.csv "$tmp/want" +00:00
printf 'turbostat\n--quiet\n--Summary\n--show\nTime_Of_Day_Seconds,PkgWatt,CorWatt,RAMWatt\n--interval\n0.1\n' > "$tmp/want"
run_one turbostat turbostat.txt "$tmp/want" +00:00
printf 'nvidia-smi\n--query-gpu=timestamp,index,power.draw\n--format=csv\n-lms\n100\n' > "$tmp/want"
run_one nvidia-smi nvidia-smi.csv "$tmp/want" -05:00 EST5
printf 'powermetrics\n-f\nplist\n-i\n100\n--samplers\ncpu_power\n' > "$tmp/want"
run_one powermetrics power.plist "$tmp/want" +00:00

# A sampler that fails at start: its words and the hint, before any
# measurement; the unfinished run holds no sessionStart (a resume starts
# afresh)
plan perf 1 > "$tmp/plan.json"
FAKE_FAIL="Error: access to performance monitoring and observability operations is limited." \
	PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id fail > "$tmp/out" 2> "$tmp/err"
rc=$?
want="erg: error: energy sampler 'perf' exited with status 1: 'Error: access to performance monitoring and observability operations is limited.'; perf counts the power/energy-* events system-wide only with kernel.perf_event_paranoid at most 0 ('sudo sysctl kernel.perf_event_paranoid=0') or as root, and only on a processor with RAPL (Intel, AMD)"
if [ $rc -eq 1 ] && grep -qxF "$want" "$tmp/err" && [ ! -e "$tmp/archive/fail" ] &&
   [ ! -s "$tmp/archive/.erg-record-fail/timeline.jsonl" ] && ! grep -q "measurement 1/" "$tmp/err"; then
	ok "a sampler that fails at start: its words and how to grant access, before any measurement"
else
	notok "a sampler that fails at start (status $rc)"; show "$tmp/err"
fi
rm -rf "$tmp/archive/.erg-record-fail"

# A sampler that dies mid-session fails the session
plan turbostat 2 > "$tmp/plan.json"
FAKE_DIE=$tmp/archive/.erg-record-die/timeline.jsonl PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id die > "$tmp/out" 2> "$tmp/err"
rc=$?
part=$tmp/archive/.erg-record-die
msg="energy sampler 'turbostat' exited with status 3 during the session, before measurement 'r2-s1-a'"
if [ $rc -eq 1 ] && grep -qxF "erg: error: $msg" "$tmp/err" &&
   tail -n 1 "$part/timeline.jsonl" | grep -qF '"event":"sessionEnd","ok":false,"error":"'"$msg"'"' &&
   [ "$(grep -c '"event":"measurementComplete"' "$part/timeline.jsonl")" = 1 ] && [ ! -e "$tmp/archive/die" ]; then
	ok "a sampler that dies mid-session fails the session, saying so"
else
	notok "a sampler that dies mid-session (status $rc)"; show "$tmp/err"
fi
# ... and a sampled run cannot be resumed (its log cannot mark the pause)
PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id die --resume > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -qxF "erg: error: this run is sampled by 'turbostat', whose log cannot be continued across a pause: it cannot be resumed (record it again)" "$tmp/err" &&
   [ "$(grep -c '"event":"sessionResumed"' "$part/timeline.jsonl")" = 0 ]; then
	ok "--resume of a sampled run is refused before anything runs"
else
	notok "--resume of a sampled run (status $rc)"; show "$tmp/err"
fi
rm -rf "$part"

# A sampler deaf to its stop signal is killed after 5 s, and erg says
# what that may have cost
plan perf 1 > "$tmp/plan.json"
FAKE_DEAF=1 PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id deaf > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -qxF "erg: warning: energy sampler 'perf' did not stop within 5 s of signal 2 (Interrupt) and was killed: the end of its 'perf-stat.csv' may be missing" "$tmp/err" &&
   ! pgrep -f "$tmp/fake/" > /dev/null; then
	ok "a sampler deaf to its stop signal: killed after 5 s, with a warning"
else
	notok "a sampler deaf to its stop signal (status $rc)"; show "$tmp/err"
fi
rm -rf "$tmp/archive/deaf"

# erg killed mid-session (SIGKILL: no handler runs): the guardians stop
# the sampler and the server within their 5 s grace; none is left
plan perf 50 > "$tmp/plan.json"
PATH=$tmp/fake:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id killed > "$tmp/out" 2> "$tmp/err" &
pid=$!
part=$tmp/archive/.erg-record-killed
i=0
while [ $i -lt 600 ] && ! grep -qs '"event":"measurementStart"' "$part/timeline.jsonl"; do
	sleep 0.1; i=$((i + 1))
done
kill -KILL $pid
wait $pid 2> /dev/null
i=0
while [ $i -lt 150 ] && pgrep -f "$tmp/(fake/|a )" > /dev/null; do
	sleep 0.1; i=$((i + 1))
done
left=$(pgrep -af "$tmp/(fake/|a )")
if grep -qs '"event":"measurementStart"' "$part/timeline.jsonl" && [ -z "$left" ]; then
	ok "erg record killed by SIGKILL: its sampler and server are stopped, none left running"
else
	notok "erg record killed by SIGKILL: left running: $left"
	pkill -KILL -f "$tmp/(fake/|a )"
fi
rm -rf "$part"

# A sampler that is not installed
plan nvidia-smi 1 > "$tmp/plan.json"
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id none > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "erg: error: energy sampler 'nvidia-smi' is not installed (not found on PATH); on Debian: 'apt-get install nvidia-smi'" ] &&
   [ -z "$(ls -A "$tmp/archive")" ]; then
	ok "a sampler not installed: one error before anything runs"
else
	notok "a sampler not installed (status $rc)"; show "$tmp/err"
fi
