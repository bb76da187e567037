#!/bin/sh
# tests/run.sh - run every test program and script, count their
# "ok - ..." / "not ok - ..." / "skip - ..." lines, and end with the one
# line CI reads:
#     N passed, N failed
# preceded by "N skipped" (and what was skipped).  A program that exits
# non-zero without printing a "not ok" line (a crash, a sanitizer report)
# counts as one failure of its own.
#
# No test skips silently: a test that cannot run prints
#     skip - what: why (SKIP_NAME=1)
# naming the variable that allows the skip.  With that variable set to 1
# in the environment (make test SKIP_BROWSER=1) it counts as skipped;
# otherwise, or when the line names no variable, it is a failure.
# Environment: BUILD (build dir, default build), SHARED (../shared),
# VALGRIND (command prefix for the C test programs, optional; with it only
# the C programs and the scripts that use VALGRIND run, as the other
# scripts run erg itself and make test covers them), TEST_JOBS (C test
# programs run at a time, default 1; the counts are printed in order).
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
ERG_SRC=$(pwd)
export BUILD SHARED ERG_SRC
ERG="$ERG_SRC/$BUILD/erg"
export ERG
mkdir -p tests/out
pass=0
fail=0
skip=0
skipped=
log=tests/out/test.log
: > "$log"

# A skip line allowed by its SKIP_ variable stays; any other becomes a
# "not ok" line of the same text.
allow_skips() { # output file
	awk '/^skip - / {
		v = ""
		if (match($0, /\(SKIP_[A-Z0-9_]+=1\)$/))
			v = substr($0, RSTART + 1, RLENGTH - 4)
		if (v == "" || ENVIRON[v] != "1") {
			print "not ok - " substr($0, 8) (v == "" ? \
				" [skipped, naming no SKIP_ variable]" : " [skipped without " v "=1]")
			next
		}
	}
	{ print }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

count() { # name, exit status, output file
	allow_skips "$3"
	p=$(grep -c '^ok - ' "$3")
	f=$(grep -c '^not ok - ' "$3")
	s=$(grep -c '^skip - ' "$3")
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $1 exited with status $2" >> "$3"
		f=1
	fi
	grep '^not ok - ' "$3"
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$s" -gt 0 ]; then
		skip=$((skip + s))
		skipped="$skipped $1"
		printf '%-28s %5d passed, %d failed, %d skipped\n' "$1" "$p" "$f" "$s"
	else
		printf '%-28s %5d passed, %d failed\n' "$1" "$p" "$f"
	fi
	cat "$3" >> "$log"
}

jobs=${TEST_JOBS:-1}
running=0
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	out=tests/out/$name.out
	( ${VALGRIND:-} "$t" > "$out" 2>&1; echo $? > "$out.rc" ) &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	out=tests/out/$name.out
	count "$name" "$(cat "$out.rc" 2>/dev/null || echo 1)" "$out"
	rm -f "$out.rc"
done
for t in tests/sh/*.sh; do
	[ -f "$t" ] || continue
	[ -n "${VALGRIND:-}" ] && ! grep -q VALGRIND "$t" && continue
	name=$(basename "$t" .sh)
	out=tests/out/sh-$name.out
	sh "$t" > "$out" 2>&1
	count "sh/$name" $? "$out"
done
echo "$skip skipped${skipped:+ (allowed by SKIP_ variables):$skipped}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
