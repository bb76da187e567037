#!/bin/sh
# tests/fuzz/run.sh - run the libFuzzer targets one after another (make fuzz).
#
# usage: sh tests/fuzz/run.sh BUILD SECONDS TARGET...
#
# Target T runs for SECONDS with the dictionary tests/fuzz/dict/T.dict on
# two corpus directories: $BUILD/fuzz/corpus/T first (new inputs go
# there; scratch, not checked in) and the checked-in seeds
# tests/fuzz/corpus/T (read only).  A crash, leak, timeout or oracle
# failure is saved as $BUILD/fuzz/artifacts/T/<kind>-<sha1>; copy it into
# tests/fuzz/corpus/T/ (with a name that says what it was) once the bug is
# fixed, so that make test replays it for ever.
# Extra libFuzzer options come from FUZZ_FLAGS, for example
# "-fork=1 -ignore_crashes=1" to go on after a crash (a long run with known
# bugs not yet fixed), or "-detect_leaks=0".
# FUZZ_JOBS=N runs N targets at a time (one process each); the summaries
# are still printed in target order.  CPU minutes are the fuzzer
# process's own user+system time, which is what "minutes per target"
# means when the machine is shared.
# Prints one summary line per target and exits non-zero if any failed.
set -u
[ $# -ge 3 ] || { echo "usage: $0 BUILD SECONDS TARGET..." >&2; exit 2; }
BUILD=$1 SECONDS_EACH=$2
shift 2
src=$(pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/erg-fuzz-run.XXXXXX") || exit 1
[ -d /dev/shm ] && [ -w /dev/shm ] && {
	rm -rf "$scratch"
	scratch=$(mktemp -d /dev/shm/erg-fuzz-run.XXXXXX) || exit 1
}
trap 'rm -rf "$scratch"' EXIT INT TERM
ERG_FUZZ_TMP=$scratch
ERG_TEMPLATES=$src/templates
export ERG_FUZZ_TMP ERG_TEMPLATES
one() {
	t=$1
	bin=$BUILD/fuzz/fuzz_$t
	log=$BUILD/fuzz/$t.log
	mkdir -p "$BUILD/fuzz/corpus/$t" "$BUILD/fuzz/artifacts/$t"
	stamp=$scratch/stamp.$t
	: > "$stamp"
	dict=
	[ -f "tests/fuzz/dict/$t.dict" ] && dict=-dict=tests/fuzz/dict/$t.dict
	timer=
	[ -x /usr/bin/time ] && timer="/usr/bin/time -o $scratch/cpu.$t -f %U+%S"
	# shellcheck disable=SC2086
	$timer "$bin" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 $dict ${FUZZ_FLAGS:-} \
		-artifact_prefix="$BUILD/fuzz/artifacts/$t/" \
		"$BUILD/fuzz/corpus/$t" "tests/fuzz/corpus/$t" > "$log" 2>&1
	rc=$?
	cpu=
	[ -s "$scratch/cpu.$t" ] &&
		cpu=$(tail -1 "$scratch/cpu.$t" | awk -F+ '{ printf ", %.1f CPU-min", ($1 + $2) / 60 }')
	# Plain mode ends with stat:: lines; fork mode (-fork=N) prints
	# "#RUNS: cov: C ft: F corp: ... oom/timeout/crash: O/T/C ...".
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+:?[[:space:]]' "$log" | tail -1)
	[ -n "$runs" ] || runs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
	crashes=$(echo "$last" | sed -n 's/.*oom\/timeout\/crash: \([0-9\/]*\).*/, oom\/timeout\/crash \1/p')
	new=$(find "$BUILD/fuzz/artifacts/$t" -type f -newer "$stamp" | sort)
	nart=$(echo "$new" | grep -c .)
	if [ "$rc" -eq 0 ] && [ "$nart" -eq 0 ]; then
		echo "fuzz $t: ok, ${runs:-?} runs in ${SECONDS_EACH} s${cpu}, ${cov:-no coverage line}${crashes}"
	else
		echo "fuzz $t: FAILED (status $rc) after ${runs:-?} runs${cpu}, ${cov:-no coverage line}${crashes}; log $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz: oracle failed|.*runtime error)' "$log" | sort | uniq -c | sort -rn | head -8
		echo "$new" | sed '/^$/d; s/^/  artifact: /'
		return 1
	fi
}

# Each target's own scratch files (erg-fuzz-* made by tests/fuzz/common.c)
# live in its own directory so parallel targets do not clean up each
# other's.
jobs=${FUZZ_JOBS:-1}
running=0
for t in "$@"; do
	mkdir -p "$scratch/tmp.$t"
	( ERG_FUZZ_TMP=$scratch/tmp.$t; export ERG_FUZZ_TMP
	  one "$t" > "$scratch/out.$t" 2>&1; echo $? > "$scratch/rc.$t" ) &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
failed=0
for t in "$@"; do
	cat "$scratch/out.$t"
	[ "$(cat "$scratch/rc.$t" 2>/dev/null)" = 0 ] || failed=1
done
exit "$failed"
