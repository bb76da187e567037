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
# scripts run erg itself and make test covers them), TEST_JOBS (tests run
# at a time, C programs and scripts alike, default 1; the counts are
# printed in a fixed order),
# TEST_TIMES=1 (print each file's wall and CPU seconds, user+sys of it and
# its children, slowest CPU first, before the counts; the table is always
# written to tests/out/times.txt, and orders the next run).
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
# One test, as the pool below runs it (sh tests/run.sh --one OUT KIND
# FILE): the C program (KIND c, under $VALGRIND when set) or script (KIND
# sh) FILE, its output in OUT, its exit status in OUT.rc and its times in
# OUT.time, "wall user sys" in seconds from GNU time when installed, else
# "wall - -".
run_one() { # out, kind, file
	case $2 in
	c)	set -- "$1" ${VALGRIND:-} "$3" ;;
	*)	set -- "$1" sh "$3" ;;
	esac
	o=$1
	shift
	if [ -x /usr/bin/time ] && /usr/bin/time -f '%e' -o /dev/null true 2> /dev/null; then
		/usr/bin/time -f '%e %U %S' -o "$o.time" "$@" > "$o" 2>&1
		rc=$?
	else
		t0=$(date +%s.%N)
		"$@" > "$o" 2>&1
		rc=$?
		echo "$t0 $(date +%s.%N)" | awk '{ printf "%.2f - -\n", $2 - $1 }' > "$o.time"
	fi
	echo "$rc" > "$o.rc"
}
if [ "${1:-}" = --one ]; then
	run_one "$2" "$3" "$4"
	exit 0
fi
# Outputs in tests/out (tests/out/BUILD for another build directory, and
# tests/out/valgrind under $VALGRIND, so that make test, make asan and
# make valgrind keep their own outputs and times).
out_dir=tests/out
[ "$BUILD" = build ] || out_dir=tests/out/$(basename "$BUILD")
[ -z "${VALGRIND:-}" ] || out_dir=tests/out/valgrind
TEST_OUT=$ERG_SRC/$out_dir
export TEST_OUT
mkdir -p "$out_dir"
jobs=${TEST_JOBS:-1}
times=$out_dir/times.txt
[ -f "$times" ] || : > "$times"
pass=0
fail=0
skip=0
skipped=
log=$out_dir/test.log
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
	# each failure with the diagnostics under it (its "# " lines, the
	# first 12), so that a log that keeps only this summary, as CI's
	# does, still says why
	awk '/^not ok - / { print; n = 12; next }
		n > 0 && /^# / { print; n--; next }
		{ n = 0 }' "$3"
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

# The tests run TEST_JOBS at a time (xargs -P; each is independent: its
# own temporary directory, ports and processes), the slowest of the last
# run first so that the long ones overlap; their counts are printed
# afterwards in a fixed order, C programs then scripts.
items=$out_dir/items
: > "$items"
rm -f "$out_dir"/*.out.rc "$out_dir"/*.out.time
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "$(basename "$t") c $t" >> "$items"
done
for t in tests/sh/*.sh; do
	[ -f "$t" ] || continue
	[ -n "${VALGRIND:-}" ] && ! grep -q VALGRIND "$t" && continue
	echo "sh/$(basename "$t" .sh) sh $t" >> "$items"
done
# "name kind file" -> "out kind file", slowest first by the last times
awk -v d="$out_dir" 'FILENAME == ARGV[1] { wall[$3] = $2; next }
	{ o = $1; sub(/^sh\//, "sh-", o); print (($1 in wall) ? wall[$1] : 999999), d "/" o ".out", $2, $3 }' \
	"$times" "$items" | sort -s -k1,1 -rn | cut -d' ' -f2- |
	xargs -L 1 -P "$jobs" sh "$0" --one
: > "$times"
while read -r name kind t; do
	o=$(echo "$name" | sed 's|^sh/|sh-|')
	out=$out_dir/$o.out
	[ -f "$out.rc" ] || echo "not ok - $name did not run" >> "$out"
	count "$name" "$(cat "$out.rc" 2>/dev/null || echo 1)" "$out"
	rm -f "$out.rc"
	[ -f "$out.time" ] && tail -n 1 "$out.time" | awk -v n="$name" '{
		cpu = ($2 == "-") ? "-" : sprintf("%.2f", $2 + $3)
		printf "%8s %8.2f  %s\n", cpu, $1, n }' >> "$times"
	rm -f "$out.time"
done < "$items"
rm -f "$items"
sort -rn -o "$times" "$times"
if [ "${TEST_TIMES:-0}" = 1 ]; then
	echo "     cpu     wall  test (seconds; cpu = user+sys)"
	cat "$times"
fi
echo "$skip skipped${skipped:+ (allowed by SKIP_ variables):$skipped}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
