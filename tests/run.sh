#!/bin/sh
# tests/run.sh - run every test program and script, count their
# "ok - ..." / "not ok - ..." lines, and end with the one line CI reads:
#     N passed, N failed
# A program that exits non-zero without printing a "not ok" line (a crash,
# a sanitizer report) counts as one failure of its own.
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
log=tests/out/test.log
: > "$log"

count() { # name, exit status, output file
	p=$(grep -c '^ok - ' "$3")
	f=$(grep -c '^not ok - ' "$3")
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $1 exited with status $2" >> "$3"
		f=1
	fi
	grep '^not ok - ' "$3"
	pass=$((pass + p))
	fail=$((fail + f))
	printf '%-28s %5d passed, %d failed\n' "$1" "$p" "$f"
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
