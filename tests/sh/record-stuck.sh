#!/bin/sh
# tests/sh/record-stuck.sh - erg record with children that do not do as
# they are told (nginx from Debian; the load generator a stand-in 'wrk'
# that ignores SIGTERM, SIGINT and SIGHUP and never ends, as k6 may
# while it stops gracefully):
#   1. its version probe ('wrk -v') hangs, through a pipeline: after 10 s
#      erg warns that the version is not recorded, kills the probe's
#      whole group (no 'sleep' of it left) and goes on;
#   2. Ctrl-C (SIGINT to erg) in a measurement: erg stops the deaf load
#      generator (SIGKILL after 5 s), says it was interrupted, exits 1,
#      and nothing it started is left running (it used to wait forever);
#   3. erg killed by SIGKILL in a measurement: the deaf load generator
#      dies with it (its parent-death signal is SIGKILL, which it cannot
#      ignore), the server with its guardian;
#   4. neither the load generator nor a server's guardian holds an fd of
#      erg's beyond stdin, stdout and stderr (the run's lock, its
#      timeline; a server that daemonizes would keep them open past erg).
#   5. one that is still running 30 s past its window fails the
#      measurement, saying so, and is stopped.
# Needs nginx (make test-deps installs it).
T=record-stuck.sh
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
src=$ERG_SRC/tests/record

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
	echo "skip - record-stuck.sh: nginx not installed (make test-deps)"
	exit 0
fi
PATH=$PATH:/usr/sbin
chmod 755 "$tmp"
favour_timing
port=$(python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/www" "$tmp/a" "$tmp/archive" "$tmp/bin"
echo hello > "$tmp/www/index.html"
sed -e "s|@PORT@|$port|" -e "s|@ROOT@|$tmp/www|" "$src/nginx.conf.in" > "$tmp/a/nginx.conf"
# The deaf wrk: its marker (its own path) in every process it starts, so
# that pgrep finds whatever is left of it.
cat > "$tmp/bin/wrk" << EOF
#!/bin/sh
trap '' TERM INT HUP
if [ "\$1" = -v ]; then
	[ -n "\${DEAF_SLOW_VERSION:-}" ] && sh -c 'sleep 31.5 # $tmp/bin' | cat
	echo "wrk 9.9-deaf"
	exit 1
fi
while :; do sleep 0.2; done
EOF
chmod +x "$tmp/bin/wrk"
cat > "$tmp/plan.json" << EOF
{ "title": "stuck", "arm": "s", "rounds": 3, "windowSec": 2, "gapSec": 0, "cooldownSec": 0,
  "energy": {"source": "none"},
  "load": {"tool": "wrk", "connections": 2, "threads": 1},
  "targets": [{"name": "a", "command": "nginx -p $tmp/a -c nginx.conf # $tmp/a", "cwd": "a",
               "env": {"ERG_PROBE": "probe", "LC_ALL": "POSIX"},
               "version": "echo \\"\$ERG_PROBE:\$LC_ALL\\"",
               "url": "http://127.0.0.1:$port", "ready": {"path": "/index.html", "timeoutSec": 10}}],
  "routes": [ {"name": "ping", "path": "/index.html"} ] }
EOF
left() { pgrep -af "$tmp/(bin|a)" | grep -v "pgrep"; }
started() { grep -qs '"event":"measurementStart"' "$tmp/archive/.erg-record-$1/timeline.jsonl"; }
gone() { ! kill -0 "$1" 2> /dev/null; }
nothing_left() { [ -z "$(left)" ]; }

# 1 and 2
DEAF_SLOW_VERSION=1 PATH=$tmp/bin:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" \
	--id int > "$tmp/out" 2> "$tmp/err" &
pid=$!
if wait_for 40 started int; then
	ok "a version probe that hangs: the session goes on after 10 s"
else
	notok "a version probe that hangs: no measurement started within 40 s"; show "$tmp/err"
fi
if grep -qxF "erg: warning: 'wrk -v' took over 10 s: its version is not recorded" "$tmp/err" &&
   python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["tools"]["wrk"] is not None)' \
	"$tmp/archive/.erg-record-int/meta.json" &&
   ! pgrep -f "sleep 31.5 # $tmp" > /dev/null; then
	ok "a version probe that hangs: a warning, a null version, its whole group killed"
else
	notok "a version probe that hangs: no warning, or a version, or its pipeline left"
	show "$tmp/err"; left | sed 's/^/# /'
fi
# the target's environment, the plan's variables over erg's own (LC_ALL=C)
v=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["targets"]["a"]["version"])' \
	"$tmp/archive/.erg-record-int/meta.json" 2>&1)
if [ "$v" = "probe:POSIX" ]; then
	ok "a target's env: its variables, one replacing erg's own of the same name"
else
	notok "a target's env: its version command printed '$v', not 'probe:POSIX'"
fi
sleep 0.5
# 4: the fds of the load generator and of the server's guardian, past
# stderr (the shell's own, on its script, aside)
fds() { # pid
	ls -l /proc/$1/fd 2> /dev/null | awk '$(NF - 1) == "->" && $(NF - 2) > 2 { print $(NF - 2), $NF }' |
		grep -v -e " $tmp/bin/wrk\$"
}
lg=$(pgrep -f "^/bin/sh $tmp/bin/wrk -t")
srv=$(pgrep -f "^/bin/sh -c nginx -p $tmp/a")
gd=$(awk '{ print $4 }' /proc/$srv/stat 2> /dev/null)
if [ -n "$lg" ] && [ -n "$gd" ] && [ "$(readlink /proc/$gd/exe)" = "$(readlink /proc/$pid/exe)" ] &&
   [ -z "$(fds $lg)$(fds $gd)" ]; then
	ok "the load generator and the server's guardian hold no fd of erg's past stderr"
else
	notok "children hold fds of erg's (load generator $lg, guardian $gd): $(fds $lg) $(fds $gd)"
fi
kill -INT $pid
if wait_for 15 gone $pid; then
	wait $pid
	st=$?
	if [ $st = 1 ] && grep -qF "erg: error: interrupted by signal 2" "$tmp/err" &&
	   wait_for 3 nothing_left; then
		ok "Ctrl-C with a load generator deaf to SIGTERM: stopped, status 1, nothing left"
	else
		notok "Ctrl-C with a deaf load generator (status $st)"; show "$tmp/err"
		left | sed 's/^/# /'
	fi
else
	notok "Ctrl-C with a load generator deaf to SIGTERM: erg still running after 15 s"
	kill -KILL $pid
fi
rm -rf "$tmp/archive/.erg-record-int"

# 3
PATH=$tmp/bin:$PATH "$ERG" record "$tmp/plan.json" --archive "$tmp/archive" --id kill \
	> "$tmp/out" 2> "$tmp/err" &
pid=$!
wait_for 30 started kill
sleep 0.5
kill -KILL $pid
wait $pid 2> /dev/null
if started kill && wait_for 10 nothing_left; then
	ok "erg SIGKILLed with a load generator deaf to SIGTERM: nothing left running"
else
	notok "erg SIGKILLed with a deaf load generator: left running"; left | sed 's/^/# /'
fi
pkill -KILL -f "$tmp/(bin|a)" 2> /dev/null
rm -rf "$tmp/archive/.erg-record-kill"

# 5: a load generator still running 31 s after it was started for a 1 s
# window fails the measurement, and is stopped (SIGKILL 5 s after SIGTERM)
sed -e 's/"rounds": 3, "windowSec": 2/"rounds": 1, "windowSec": 1/' "$tmp/plan.json" > "$tmp/plan1.json"
PATH=$tmp/bin:$PATH "$ERG" record "$tmp/plan1.json" --archive "$tmp/archive" --id late \
	> "$tmp/out" 2> "$tmp/err" &
pid=$!
if wait_for 60 gone $pid; then
	wait $pid
	st=$?
	msg="measurement 'r1-s1-a' failed: the load generator 'wrk' was still running 31 s after it was started to load for 1 s (stopped) while route 'ping' was driven"
	if [ $st = 1 ] && grep -qxF "erg: error: $msg" "$tmp/err" &&
	   grep -qF '"event":"measurementFailed"' "$tmp/archive/.erg-record-late/timeline.jsonl" &&
	   wait_for 3 nothing_left; then
		ok "a load generator that never ends: the measurement fails after its deadline, nothing left"
	else
		notok "a load generator that never ends (status $st)"; show "$tmp/err"; left | sed 's/^/# /'
	fi
else
	notok "a load generator that never ends: erg still running after 60 s"
	kill -KILL $pid
fi
pkill -KILL -f "$tmp/(bin|a)" 2> /dev/null
exit 0
