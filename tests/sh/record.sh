#!/bin/sh
# tests/sh/record.sh - erg record with real components (nginx from Debian,
# wrk from Debian, a tiny Python server that crashes), a few seconds of
# load each:
#   1. --dry-run prints the cyclic 2x2 schedule and the total time, and
#      writes nothing;
#   2. a missing load generator, and RAPL counters that cannot be read,
#      are one clear error each before anything runs (no partial run);
#   3. end to end: 2 nginx targets x 2 routes (GET, POST with a body) x 2
#      rounds, energy from a synthetic powercap tree whose counters advance
#      and wrap (tests/tools/rapltree: 10 W idle, 30 W while wrk runs); the
#      run appears whole (no partial left), its timeline holds every event,
#      meta.json the plan and its hash, powercap.csv the powercap-log v1
#      layout over the whole session; `erg build` then gives a page with
#      tables, the Latin square, responses and coverage checks pass, and
#      the energy figures are the tree's: idle floors 10 W, windows 30 W,
#      net energy 20 W x the window's length;
#   4. a readiness timeout and 5. a server that crashes mid-measurement fail
#      that measurement (measurementFailed, sessionEnd not ok, a message),
#      keep the partial run, and leave no server behind; resumed once the
#      cause is fixed, the run builds and its page tells of the failure;
#   6. SIGKILL at two random points and Ctrl-C (SIGINT) at one, then
#      --resume: before the resume a check sees no new run, no server
#      survives; after it, one complete run that builds with a Latin square
#      and its energy, the pause in the powercap log a gap on the page.
# Needs nginx and wrk (make test-deps installs them; SKIP_RECORD=1 skips).
T=record.sh
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
src=$ERG_SRC/tests/record

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] ||
   ! command -v wrk >/dev/null 2>&1; then
	echo "skip - record.sh: nginx or wrk not installed (make test-deps) (SKIP_RECORD=1)"
	exit 0
fi
PATH=$PATH:/usr/sbin
chmod 755 "$tmp"	# nginx workers may run as another user
favour_timing

# Two free ports.
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
pa=$1 pb=$2 pc=$3

mkdir -p "$tmp/www" "$tmp/a" "$tmp/b" "$tmp/archive"
echo hello > "$tmp/www/index.html"
printf '{"a": 1}\n' > "$tmp/body.json"
for t in a b; do
	port=$pa
	[ $t = b ] && port=$pb
	sed -e "s|@PORT@|$port|" -e "s|@ROOT@|$tmp/www|" "$src/nginx.conf.in" > "$tmp/$t/nginx.conf"
done
# A powercap tree whose counters advance (rapltree, rewritten in place as
# sysfs is, for the whole test): package-0 at $WI W, or at $WL W while a
# load generator runs (the wrk on PATH below is a wrapper that says so),
# its core at half of that, wrapping at $MAX uJ (every 2 to 6 s:
# several wraps in each session; at twice the peak, every 1 s, shorter
# than the 2 s pause of a resume below); beside them an mmio duplicate that must
# be left out, and a zone that cannot be read.  (A flat draw cannot be
# built: idle floor and window power then differ by the timing noise of
# the readings, and a window whose floor is above it is an error.)
WI=10 WL=30 MAX=60000000
mkdir -p "$tmp/bin" "$tmp/busy"
cat > "$tmp/bin/wrk" << EOF
#!/bin/sh
: > "$tmp/busy/\$\$"
exec "$(command -v wrk)" "\$@"
EOF
chmod +x "$tmp/bin/wrk"
PATH=$tmp/bin:$PATH
zone() { # directory, name, energy_uj
	mkdir -p "$tmp/pc/$1"
	echo "$2" > "$tmp/pc/$1/name"
	echo "$3" > "$tmp/pc/$1/energy_uj"
	echo 262143328850 > "$tmp/pc/$1/max_energy_range_uj"
}
zone intel-rapl-mmio:0 package-0 99
zone intel-rapl:1 package-1 0
rm "$tmp/pc/intel-rapl:1/energy_uj"
mkdir "$tmp/pc/intel-rapl:1/energy_uj"	# unreadable: no rows, a "# error" line
# The tree runs real-time (SCHED_FIFO, as root; it sleeps 2 ms a turn)
# when the system allows it: a hardware counter is current whenever it
# is read, and a tree starved of CPU on a loaded machine is not (its
# counters lag, then catch up at once: an apparent peak of several times
# WL W, whose wrap horizon erg then rightly refuses the log for).
rt=
chrt -f 1 true 2> /dev/null && rt="chrt -f 1"
$rt "$b/tools/rapltree" --in-place --busy "$tmp/busy" $WL --stalls "$tmp/stalls.txt" \
	"$tmp/pc" $WI $MAX 900 > "$tmp/power.txt" &
rapl=$!
trap 'kill $rapl 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
while [ ! -e "$tmp/pc/intel-rapl:0:0/energy_uj" ]; do sleep 0.01; done

targets() { # cooldown-free part of a plan: the two nginx targets
	cat << EOF
  "targets": [
    {"name": "a", "command": "nginx -p $tmp/a -c nginx.conf", "cwd": "a",
     "url": "http://127.0.0.1:$pa", "ready": {"path": "/index.html", "timeoutSec": 10}},
    {"name": "b", "command": "nginx -p $tmp/b -c nginx.conf", "cwd": "b",
     "url": "http://127.0.0.1:$pb", "stopSignal": "QUIT"}
  ],
EOF
}
{
	echo '{ "title": "nginx a and b", "arm": "e2e", "rounds": 2,'
	echo '  "windowSec": 1, "warmupSec": 1, "gapSec": 0.2, "cooldownSec": 1,'
	echo '  "idleBaseline": {"offsetSec": 0.2, "endOffsetSec": 0.9},'
	echo '  "load": {"tool": "wrk", "connections": 10, "threads": 1},'
	echo '  "energy": {"source": "powercap", "root": "pc", "intervalMs": 100},'
	targets
	echo '  "routes": [ {"name": "ping", "path": "/index.html"},'
	echo '    {"name": "post", "method": "POST", "path": "/echo", "bodyFile": "body.json",'
	echo '     "headers": {"Content-Type": "application/json"}, "load": {"connections": 4}} ] }'
} > "$tmp/plan.json"

# 1. dry run
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --dry-run > "$tmp/dry.txt" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -qx '  round 1: 1:a 2:b' "$tmp/dry.txt" &&
   grep -qx '  round 2: 1:b 2:a' "$tmp/dry.txt" &&
   grep -q '= 5.2 s' "$tmp/dry.txt" && grep -q '^total: 4 measurements, about 0h00m21s' "$tmp/dry.txt" &&
   [ -z "$(ls -A "$tmp/archive")" ]; then
	ok "--dry-run prints the cyclic schedule and the time, writes nothing"
else
	notok "--dry-run (status $rc)"; show "$tmp/dry.txt"
fi

# 2. missing load generator
PATH=/nonexistent "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id x > "$tmp/out" 2> "$tmp/err"
rc=$?
want="erg: error: load generator 'wrk' is not installed (not found on PATH); on Debian: 'apt-get install wrk'"
if [ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ -z "$(ls -A "$tmp/archive")" ]; then
	ok "a missing load generator is one error before anything runs"
else
	notok "missing load generator (status $rc)"; show "$tmp/err"
fi

# 2b. RAPL counters that cannot be read: one error before anything runs,
# saying how to grant access (as root, the test reads them as nobody)
mkdir -p "$tmp/pc2/intel-rapl:0"
echo package-0 > "$tmp/pc2/intel-rapl:0/name"
echo 5 > "$tmp/pc2/intel-rapl:0/energy_uj"
chmod 400 "$tmp/pc2/intel-rapl:0/energy_uj"
sed 's|"root": "pc"|"root": "pc2"|' "$tmp/plan.json" > "$tmp/plan2.json"
as=
[ "$(id -u)" = 0 ] && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
$as "$ERG" record "$tmp/plan2.json" --archive "$tmp/archive" --id x > "$tmp/out" 2> "$tmp/err"
rc=$?
want="erg: error: cannot read '$tmp/pc2/intel-rapl:0/energy_uj': permission denied; RAPL counters are readable by root only since Linux 5.10: run erg record as root, or grant read access until the next boot with 'sudo chmod a+r $tmp/pc2/intel-rapl:*/energy_uj' (or a udev rule), or set the energy source to 'none'"
if [ $rc -eq 1 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ -z "$(ls -A "$tmp/archive")" ]; then
	ok "unreadable RAPL counters: one error saying how to grant access, before anything runs"
else
	notok "unreadable RAPL counters (status $rc)"; show "$tmp/err"
fi

# 3. end to end
"$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id e2e > "$tmp/out" 2> "$tmp/err"
rc=$?
run=$tmp/archive/e2e
if [ $rc -eq 0 ] && [ -f "$run/timeline.jsonl" ] && [ -z "$(ls -A "$tmp/archive" | grep -v '^e2e$')" ] &&
   ! ls -a "$tmp/archive" | grep -q erg-record; then
	ok "the run is recorded and moved into place whole"
else
	notok "end-to-end recording (status $rc)"; show "$tmp/err"
fi
python3 - "$run" "$tmp/plan.json" "$(hostname)" $MAX > "$tmp/py.txt" 2>&1 << 'EOF'
import hashlib, json, os, sys
run, plan, host = sys.argv[1:4]
MAX = int(sys.argv[4])
ev = [json.loads(l) for l in open(os.path.join(run, "timeline.jsonl"))]
names = [e["event"] for e in ev]
def count(n): return names.count(n)
def check(c, what):
    print(("ok" if c else "FAIL") + " " + what)
check(names[0] == "sessionStart" and names[-1] == "sessionEnd" and ev[-1]["ok"] is True,
      "sessionStart first, sessionEnd ok last")
check(count("measurementStart") == 4 and count("measurementComplete") == 4 and
      count("routeComplete") == 8 and count("idleWindow") == 5, "4 measurements, 8 routes, 5 idle windows")
ts = [e["ts"] for e in ev]
check(ts == sorted(ts), "ts never goes backwards")
ids = [e["id"] for e in ev if e["event"] == "measurementStart"]
check(ids == ["r1-s1-a", "r1-s2-b", "r2-s1-b", "r2-s2-a"], "cyclic order: " + " ".join(ids))
idle = [e for e in ev if e["event"] == "idleWindow"]
check(all(w["startedAtMs"] <= w["baselineStartMs"] < w["baselineEndMs"] <= w["endedAtMs"] for w in idle),
      "idle baselines inside their windows")
check([w["precedesMeasurementId"] for w in idle] == ids + [None] and
      [w["followsMeasurementId"] for w in idle] == [None] + ids and
      [w["kind"] for w in idle] == ["preroll", "cooldown", "cooldown", "cooldown", "postroll"],
      "a preroll, a cooldown before each later measurement, a postroll")
rc = [e for e in ev if e["event"] == "routeComplete"]
check(all(os.path.isfile(os.path.join(run, r["loadFile"])) and r["requests"] > 0 for r in rc),
      "every route's wrk output is stored, with requests")
check(all(open(os.path.join(run, r["loadFile"])).read().startswith("Running 1s test @ http://127.0.0.1:")
          for r in rc), "the stored files are wrk's own output")
post = [r for r in rc if r["route"] == "post"]
check(all(" -c4 " in r["cmd"] and " -s " in r["cmd"] for r in post), "per-route override and POST script")
meta = json.load(open(os.path.join(run, "meta.json")))
check(meta["planSha256"] == hashlib.sha256(open(plan, "rb").read()).hexdigest(), "meta.json: plan hash")
check(meta["plan"]["arm"] == "e2e" and meta["tools"]["wrk"].startswith("wrk "), "meta.json: plan, wrk version")
check(meta["machine"]["kernel"] == os.uname().release, "meta.json: kernel")
check(any("load generator is not pinned" in w for w in meta["preflight"]["warnings"]) and
      meta["allChecksPassed"] is False, "meta.json: preflight warnings (generator not pinned)")
lines = open(os.path.join(run, "powercap.csv")).read().splitlines()
check(lines[0] == "# powercap-log v1 host=%s clock=CLOCK_REALTIME" % host, "powercap.csv: first line")
check(lines[1:5] == ["# zone,intel-rapl:0,package-0,%d" % MAX,
                     "# zone,intel-rapl:0:0,core,%d" % MAX,
                     "# error,intel-rapl:1,cannot read energy_uj: Is a directory",
                     "t_ns,zone,energy_uj"],
      "powercap.csv: readable zones, no mmio duplicate, the unreadable zone's error (not declared), column header")
rows = [l.split(",") for l in lines[5:]]
check(len(rows) > 20 and len(rows) % 2 == 0 and
      [r[1] for r in rows] == ["intel-rapl:0", "intel-rapl:0:0"] * (len(rows) // 2) and
      all(0 <= int(r[2]) <= MAX for r in rows),
      "powercap.csv: raw counters of both zones in each sweep, %d rows" % len(rows))
t = [int(r[0]) for r in rows]
check(t == sorted(t) and all(t[i] == t[i + 1] for i in range(0, len(t), 2)), "one time per sweep, increasing")
check(t[0] // 1000000 <= ts[0] and t[-1] // 1000000 >= ts[-1], "the log covers the whole session")
pkg = [int(r[2]) for r in rows if r[1] == "intel-rapl:0"]
wraps = sum(b < a for a, b in zip(pkg, pkg[1:]))
check(wraps >= 2, "the package counter advances and wraps during the session (%d wraps)" % wraps)
EOF
if [ $? -eq 0 ] && ! grep -q FAIL "$tmp/py.txt"; then
	ok "timeline, meta.json and powercap.csv ($(grep -c '^ok' "$tmp/py.txt") checks)"
else
	notok "timeline, meta.json or powercap.csv"; show "$tmp/py.txt"
fi
"$ERG" build --archive "$tmp/archive" --out "$tmp/site" -q > "$tmp/out" 2> "$tmp/err"
rc=$?
page=$tmp/site/runs/e2e/index.html
if [ $rc -eq 0 ] && [ -f "$page" ] && [ "$(grep -c '<table' "$page")" -ge 2 ]; then
	ok "erg build gives the run's page with tables"
else
	notok "erg build of the recorded run (status $rc)"; show "$tmp/err"
fi
python3 - "$tmp/site/runs/e2e/results.json" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, sys
v = json.load(open(sys.argv[1]))["validation"]
o = v["ordering"]
print(o["status"], o["latin_square"], v["responses"]["status"])
sys.exit(0 if (o["status"], o["latin_square"], v["responses"]["status"]) == ("ok", True, "ok") else 1)
EOF
if [ $? -eq 0 ]; then
	ok "the Latin square and responses checks pass"
else
	notok "checks of the recorded run"; show "$tmp/py.txt"
fi
# The energy, by hand: the package draws WL W while a wrk runs and WI W
# otherwise (rapltree prints each change), so a window's energy is what
# those steps give over it, its idle floor WI W (no wrk in a baseline),
# and its net energy that energy less WI W times its length.  The core is
# reported only.
python3 - "$tmp/site/runs/e2e/results.json" $WI $WL "$page" "$tmp/power.txt" \
	"$tmp/stalls.txt" "$ERG_SRC/tests/lib" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, sys
res = json.load(open(sys.argv[1]))
wi, wl = float(sys.argv[2]), float(sys.argv[3])
page = open(sys.argv[4]).read()
sys.path.insert(0, sys.argv[7])
from rapltree import Tree
# the tree's power steps and stalls
tree = Tree(sys.argv[5], sys.argv[6], wi, wl)
drawn = tree.drawn
def check(c, what):
    print(("ok" if c else "FAIL") + " " + what)
# The tree's counters lag its steps when rapltree is starved of CPU (wrk
# and nginx fill both cores during a window): what a window reads can
# fall a few % short of what the steps say.  When it stalled near a
# window's start or end (its --stalls file), a reading there held an
# older value: the window may then be off either way by up to the busy
# power over the stalled time (tree.lag_j), which is the tree's error,
# not erg's.
LAG = 0.08
def near(w, lo, hi): # the window's energy within [lo, hi] of what was drawn, and the stalls
    d, lag = drawn(w["start_ms"], w["end_ms"]), tree.lag_j(w["start_ms"], w["end_ms"])
    return d * (1 + lo) - lag < w["energy_j"] < d * (1 + hi) + lag
idle = res["idle_windows"]
def base(i): return drawn(i["baseline_start_ms"], i["baseline_end_ms"]) / \
    ((i["baseline_end_ms"] - i["baseline_start_ms"]) / 1000)
def base_lag(i): # W a baseline's mean may be off by for the tree's stalls near its ends
    return tree.lag_j(i["baseline_start_ms"], i["baseline_end_ms"]) / \
        ((i["baseline_end_ms"] - i["baseline_start_ms"]) / 1000)
check(len(idle) == 5 and all(abs(i["mean_watts"] - base(i)) < LAG * base(i) + base_lag(i) for i in idle) and
      all(abs(base(i) / wi - 1) < 0.1 for i in idle),
      "5 idle floors, each what the tree drew in its baseline (about %g W): %s" % (wi,
      " ".join("%.3f/%.3f" % (i["mean_watts"], base(i)) for i in idle)))
win = [w for m in res["measurements"] for w in m["routes"]]
def dur(w): return (w["end_ms"] - w["start_ms"]) / 1000
check(len(win) == 8 and all(abs(w["energy_j"] / (w["mean_watts"] * dur(w)) - 1) < 1e-9 for w in win),
      "8 windows, each one's energy its mean power times its length")
check(all(near(w, -LAG, 0.02) for w in win),
      "each window's energy is what the tree drew in it, within -%g%% and +2%% (and the tree's "
      "stalls near its ends): %s" % (100 * LAG,
      " ".join("%.2f/%.2f" % (w["energy_j"], drawn(w["start_ms"], w["end_ms"])) +
               ("(stalls %.2f J)" % tree.lag_j(w["start_ms"], w["end_ms"])
                if tree.lag_j(w["start_ms"], w["end_ms"]) else "") for w in win)))
check(all(drawn(w["start_ms"], w["end_ms"]) + tree.lag_j(w["start_ms"], w["end_ms"]) >
          (wi + 0.5 * (wl - wi)) * dur(w) for w in win),
      "(wrk ran most of each window: %s W)" %
      " ".join("%.2f" % w["mean_watts"] for w in win))
check(all(abs(w["net_energy_j"] - (drawn(w["start_ms"], w["end_ms"]) - wi * dur(w))) <
          LAG * w["energy_j"] + tree.lag_j(w["start_ms"], w["end_ms"]) for w in win),
      "net energy is that less %g W x length, within %g%% of the energy: %s" % (wi, 100 * LAG,
      " ".join("%.2f/%.2f" % (w["net_energy_j"], drawn(w["start_ms"], w["end_ms"]) - wi * dur(w))
               for w in win)))
# (On a loaded machine erg's logger itself can stall past 5 intervals:
# the reader then lists a gap, an honest outcome, and the energy checks
# above still hold.)
cov = res["validation"]["coverage"]
check(cov["status"] == "ok" and all(w["coverage"] >= 0.999 for w in win) or
      cov["status"] == "warn" and cov.get("gaps") and all(w["coverage"] >= 0.9 for w in win),
      "coverage check ok and every window covered, or only logger stalls listed as gaps: %s %s, %s" %
      (cov["status"], [round(g["interval_ms"]) for g in cov.get("gaps") or []],
       " ".join("%.3f" % w["coverage"] for w in win)))
e = res["energy"]
check(json.dumps(e).count('"package-0"') >= 1 and "package-0/core" in json.dumps(e),
      "results.json energy names package-0 and its core")
check("package-0" in page and "Headline by domain" in page, "the page shows the domains")
EOF
if [ $? -eq 0 ] && ! grep -q FAIL "$tmp/py.txt"; then
	ok "energy figures of the recorded run ($(grep -c '^ok' "$tmp/py.txt") checks)"
else
	notok "energy figures of the recorded run"
fi
sed -n 's/^/# /p' "$tmp/py.txt"

# 4. readiness timeout: a "server" that never listens (until ready-ok exists),
# a sleep whose argument is this test's own (31.PID s), found by it below;
# then nginx, which listens within the plan's 1 s however loaded the
# machine (a Python server may not even start in that time)
mkdir -p "$tmp/c"
sed -e "s|@PORT@|$pc|" -e "s|@ROOT@|$tmp/www|" "$src/nginx.conf.in" > "$tmp/c/nginx.conf"
never=31.$$
never_left() { ps -eo args | grep -qx "sleep $never"; }
cat > "$tmp/slow.json" << EOF
{ "rounds": 1, "windowSec": 1, "cooldownSec": 0, "load": {"tool": "wrk", "connections": 2, "threads": 1},
  "targets": [{"name": "slow", "url": "http://127.0.0.1:$pc", "ready": {"timeoutSec": 1},
               "command": "[ -f $tmp/ready-ok ] && exec nginx -p $tmp/c -c nginx.conf || exec sleep $never"}],
  "routes": [{"name": "ping", "path": "/"}] }
EOF
"$ERG" record "$tmp/slow.json" --archive "$tmp/archive" --id slow > "$tmp/out" 2> "$tmp/err"
rc=$?
part=$tmp/archive/.erg-record-slow
msg="measurement 'r1-s1-slow' failed: target 'slow' was not ready after 1 s (GET http://127.0.0.1:$pc/: connection refused)"
# erg stops the server's group (its stop signal, SIGKILL after 10 s):
# gone within 30 s however loaded the machine
wait_for 30 eval '! never_left'
if [ $rc -eq 1 ] && grep -qxF "erg: error: $msg" "$tmp/err" &&
   grep -q '"event":"measurementFailed"' "$part/timeline.jsonl" &&
   tail -n 1 "$part/timeline.jsonl" | grep -qF '"event":"sessionEnd","ok":false,"error":"'"$msg"'"' &&
   [ ! -e "$tmp/archive/slow" ] && ! never_left; then
	ok "a readiness timeout fails the measurement, keeps the partial run, stops the server"
else
	notok "readiness timeout (status $rc)"; show "$tmp/err"
fi
# fixed, resumed: the run is whole, and its page tells of the failure
touch "$tmp/ready-ok"
"$ERG" record "$tmp/slow.json" --archive "$tmp/archive" --id slow --resume > "$tmp/out" 2> "$tmp/err"
rc=$?
"$ERG" build --archive "$tmp/archive" --out "$tmp/site" -q > "$tmp/out" 2> "$tmp/err2"
rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] &&
   grep -qF "the session ended with an error: $msg" "$tmp/site/runs/slow/results.json" &&
   grep -qF "the session ended with an error: measurement &#39;r1-s1-slow&#39; failed" "$tmp/site/runs/slow/index.html"; then
	ok "resumed after the failure: the run builds and its page tells of the failure"
else
	notok "resume after a failed measurement (status $rc, build $rc2)"; show "$tmp/err"; show "$tmp/err2"
fi
rm -rf "$tmp/archive/slow"

# 5. a server that dies while it is measured
cat > "$tmp/crash.json" << EOF
{ "rounds": 1, "windowSec": 1, "gapSec": 0.1, "cooldownSec": 0, "load": {"tool": "wrk", "connections": 2, "threads": 1},
  "targets": [{"name": "crashy", "command": "exec python3 $src/crashy.py $pc 2.5", "url": "http://127.0.0.1:$pc"}],
  "routes": [{"name": "r1", "path": "/"}, {"name": "r2", "path": "/"}, {"name": "r3", "path": "/"},
             {"name": "r4", "path": "/"}] }
EOF
"$ERG" record "$tmp/crash.json" --archive "$tmp/archive" --id crash > "$tmp/out" 2> "$tmp/err"
rc=$?
part=$tmp/archive/.erg-record-crash
if [ $rc -eq 1 ] &&
   grep -q "^erg: error: measurement 'r1-s1-crashy' failed: target 'crashy' exited with status 3 \(during\|while\|before\) " "$tmp/err" &&
   grep -q '"event":"measurementFailed".*"error":"target '"'crashy'"' exited with status 3' "$part/timeline.jsonl" &&
   [ ! -e "$tmp/archive/crash" ]; then
	ok "a server that crashes fails its measurement with a clear record and message"
else
	notok "crashing server (status $rc)"; show "$tmp/err"
fi
"$ERG" check --archive "$tmp/archive" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c "is an unfinished 'erg record' run, not read" "$tmp/err")" -eq 1 ]; then
	ok "erg check reads only the complete run and names the unfinished ones"
else
	notok "erg check beside partial runs (status $rc)"; show "$tmp/err"
fi
rm -rf "$tmp/archive/.erg-record-crash"

# 6. SIGKILL at random points, then --resume
{
	echo '{ "rounds": 2, "windowSec": 1, "gapSec": 0, "cooldownSec": 0.5,'
	echo '  "idleBaseline": {"offsetSec": 0.1, "endOffsetSec": 0.4},'
	echo '  "load": {"tool": "wrk", "connections": 4, "threads": 1},'
	echo '  "energy": {"source": "powercap", "root": "pc", "intervalMs": 100},'
	targets
	echo '  "routes": [ {"name": "ping", "path": "/index.html"} ] }'
} > "$tmp/short.json"
for k in 1 2 3; do
	sig=KILL
	d=$(awk -v s="$$$k" 'BEGIN { srand(s); printf "%.2f", 0.05 + rand() * 6 }')
	when="$d s in"
	[ $k = 3 ] && sig=INT when="a measurement in"	# Ctrl-C in the middle (below)
	echo "# SIG$sig $k $when"
	"$ERG" record "$tmp/short.json" --archive "$tmp/archive" --id "k$k" > "$tmp/out" 2> "$tmp/err$k" &
	pid=$!
	# The random point counts from the plan's copy in the unfinished run
	# (a kill before it, while erg starts, leaves nothing to resume with
	# that plan); Ctrl-C comes once a measurement has started.  What a
	# loaded machine delays moves the points with it.  (Not with kill -0:
	# an erg that ended is a zombie until the wait below.)
	part=$tmp/archive/.erg-record-k$k
	wait_for 60 eval '[ -f "$part/plan.json" ] || [ -d "$tmp/archive/k$k" ]'
	if [ $sig = INT ]; then
		wait_for 60 eval 'grep -q "\"event\":\"measurementStart\"" "$part/timeline.jsonl" 2>/dev/null ||
			[ -d "$tmp/archive/k$k" ]'
	else
		sleep "$d"
	fi
	kill -$sig $pid 2>/dev/null
	wait $pid 2>/dev/null
	st=$?
	if [ $sig = INT ]; then
		if [ $st -eq 1 ] && grep -qx "erg: error: interrupted by signal 2 (Interrupt)" "$tmp/err$k" &&
		   tail -n 1 "$tmp/archive/.erg-record-k$k/timeline.jsonl" |
			grep -qF '"event":"sessionEnd","ok":false,"error":"interrupted by signal 2 (Interrupt)"}'; then
			ok "Ctrl-C: status 1, a message, sessionEnd not ok"
		else
			notok "Ctrl-C (status $st)"; show "$tmp/err$k"
		fi
	fi
	# the servers' guardians stop their groups once erg is gone (SIGTERM,
	# SIGKILL after 5 s): none is left within 30 s however loaded the
	# machine
	nginx_left() { ps -eo args | grep -F "nginx -p $tmp/" | grep -cv grep; }
	wait_for 30 eval '[ "$(nginx_left)" -eq 0 ]'
	"$ERG" check --archive "$tmp/archive" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	left=$(nginx_left)
	if [ -d "$tmp/archive/k$k" ]; then
		state="finished before the kill"
		good=$([ $rc -eq 0 ] && [ ! -e "$tmp/archive/.erg-record-k$k" ] && echo 1)
	else
		state="killed"
		good=$([ $rc -eq 0 ] && echo 1)
	fi
	if [ "$good" = 1 ] && [ "$left" -eq 0 ]; then
		ok "SIG$sig $when ($state): erg check sees no new run or a whole one, no server left"
	else
		notok "SIG$sig $when ($state): status $rc, $left nginx left"; show "$tmp/err"
	fi
	if [ "$state" = killed ] && [ $k = 1 ]; then
		sed 's/"rounds": 2/"rounds": 3/' "$tmp/short.json" > "$tmp/other.json"
		"$ERG" record "$tmp/other.json" --archive "$tmp/archive" --id k1 --resume > "$tmp/out" 2> "$tmp/err"
		rc=$?
		# (after the warning about the unreadable zone of the tree)
		if [ $rc -eq 1 ] && [ "$(grep -v '^erg: warning: powercap: 1 of the 3 zones' "$tmp/err")" = "erg: error: '$tmp/other.json' is not the plan the run in '$tmp/archive/.erg-record-k1' started with (its copy is '$tmp/archive/.erg-record-k1/plan.json'): resume with that one" ]; then
			ok "--resume with another plan is refused"
		else
			notok "--resume with another plan (status $rc)"; show "$tmp/err"
		fi
	fi
	if [ "$state" = killed ]; then
		# the pause: the log's readings stop for about 2 s, more than
		# 5 intervals (a gap) and than the wrap horizon (1 s)
		sleep 1.5
		"$ERG" record "$tmp/short.json" --archive "$tmp/archive" --id "k$k" --resume > "$tmp/out" 2> "$tmp/err"
		rc=$?
		if [ $rc -eq 0 ] && [ -f "$tmp/archive/k$k/timeline.jsonl" ] && [ ! -e "$tmp/archive/.erg-record-k$k" ] &&
		   [ "$(grep -c '"event":"measurementComplete"' "$tmp/archive/k$k/timeline.jsonl")" -eq 4 ]; then
			ok "--resume after the kill completes the run"
		else
			notok "--resume after SIG$sig $when (status $rc)"; show "$tmp/err"
		fi
	else
		ok "(no resume needed)"
	fi
done
"$ERG" build --archive "$tmp/archive" --out "$tmp/site" -q > "$tmp/out" 2> "$tmp/err"
rc=$?
# Energy across a resume: the log goes on in the same file, and the pause
# between the attempts is one interval longer than the counter takes to
# wrap at twice the peak power (MAX / 2 WL s): a wrap could hide in it,
# so it is a gap (no energy counted, listed by the coverage check on the
# page), not an error; the windows on either side are measured as before.
# (An idle window cut by the kill is only partly covered: its mean power
# is its energy over its whole length, so WI W times its coverage.)
python3 - "$tmp/site/runs" "$tmp/archive" $WI $WL $MAX "$tmp/power.txt" "$tmp/stalls.txt" \
	"$ERG_SRC/tests/lib" > "$tmp/py.txt" 2>&1 << 'EOF'
import json, sys, os
runs, arch = sys.argv[1:3]
wi, wl, mx = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, sys.argv[8])
from rapltree import Tree
tree = Tree(sys.argv[6], sys.argv[7], wi, wl)	# (see above)
drawn = tree.drawn
def near(w, lo, hi):
    d, lag = drawn(w["start_ms"], w["end_ms"]), tree.lag_j(w["start_ms"], w["end_ms"])
    return d * (1 + lo) - lag < w["energy_j"] < d * (1 + hi) + lag
horizon_ms = mx / 1e3 / (2 * wl)
def idle_w(i): # what the package drew over an idle window, in W: WI, unless
    # a load step spilled into it (a loaded machine runs the fake late)
    a, b = i.get("baseline_start_ms"), i.get("baseline_end_ms")
    if a is None or b is None or b <= a:
        return wi
    return drawn(a, b) / ((b - a) / 1000)
def idle_lag(i): # W its mean may be off by for the tree's stalls near its ends
    a, b = i.get("baseline_start_ms"), i.get("baseline_end_ms")
    return 0 if a is None or b is None or b <= a else tree.lag_j(a, b) / ((b - a) / 1000)
bad = 0
for k in ("k1", "k2", "k3"):
    res = json.load(open(os.path.join(runs, k, "results.json")))
    o = res["validation"]["ordering"]
    c = res["validation"]["coverage"]
    resumed = os.path.exists(os.path.join(arch, k, "timeline.jsonl")) and \
        '"sessionResumed"' in open(os.path.join(arch, k, "timeline.jsonl")).read()
    win = [w for m in res["measurements"] for w in m["routes"]]
    idle = res["idle_windows"]
    page = open(os.path.join(runs, k, "index.html")).read()
    gaps = [g["interval_ms"] for g in c["gaps"]]
    # what fails, by name, so that a log that keeps only the summary
    # says which (tests/run.sh prints a failure's "# " lines)
    why = [n for n, f in (
        ("ordering", (o["status"], o["latin_square"]) != ("ok", True)),
        ("windows", len(win) != 4),
        ("window energy", not all(near(w, -0.08, 0.02) for w in win)),
        ("idle power", not all(abs(i["mean_watts"] / i["coverage"] - idle_w(i)) < 0.1 * idle_w(i) + idle_lag(i)
                               for i in idle if i["mean_watts"] is not None and i["coverage"] > 0.5)),
        ("window coverage", not all(w["coverage"] >= 0.999 for w in win))) if f]
    # the pause: the readings either side of the log's '# resumed' line
    pause, last = None, None
    for l in open(os.path.join(arch, k, "powercap.csv")):
        if l.startswith("# resumed"):
            pause = [last, None]
        elif l[:1].isdigit():
            t = int(l.split(",")[0]) / 1e6
            if pause and pause[1] is None:
                pause[1] = t
            last = t
    spans = [(w["start_ms"], w["end_ms"]) for w in win] + \
        [(i["start_ms"], i["end_ms"]) for i in idle if "start_ms" in i]
    inside = pause is None or None in pause or \
        any(a < pause[1] and pause[0] < b for a, b in spans)
    if resumed and inside and not (c["status"] == "warn" and len(gaps) >= 1 and max(gaps) > horizon_ms and
                                   "gap" in c["verdict"] and c["verdict"] in page.replace("&#39;", "'")):
        why.append("the pause not a gap on the page")
    print(k, "resumed" if resumed else "whole", o["status"], o["latin_square"], c["status"],
          "gaps %s ms (horizon %.0f ms)" % (" ".join("%.0f" % g for g in gaps), horizon_ms),
          "windows", " ".join("%.2f/%.2f J" % (w["energy_j"], drawn(w["start_ms"], w["end_ms"])) +
                              ("(stalls %.2f J)" % tree.lag_j(w["start_ms"], w["end_ms"])
                               if tree.lag_j(w["start_ms"], w["end_ms"]) else "") for w in win),
          "idle W/drawn W/coverage", " ".join("%.2f/%.2f/%.3f" % (i["mean_watts"], idle_w(i), i["coverage"])
                                             for i in idle if i["mean_watts"] is not None),
          "window coverage", " ".join("%.3f" % w["coverage"] for w in win),
          "verdict on the page" if c["verdict"] in page.replace("&#39;", "'") else "verdict NOT on the page",
          "ok" if not why else "FAIL: " + ", ".join(why))
    bad |= bool(why)
sys.exit(bad)
EOF
py=$?
if [ $rc -eq 0 ] && [ $py -eq 0 ]; then
	ok "the resumed runs build with their energy, each a Latin square; the pause is a gap on the page"
	show "$tmp/py.txt"
else
	notok "building the resumed runs (status $rc)"; show "$tmp/py.txt"; show "$tmp/err"
fi
