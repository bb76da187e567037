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
failed=0
for t in "$@"; do
	bin=$BUILD/fuzz/fuzz_$t
	log=$BUILD/fuzz/$t.log
	mkdir -p "$BUILD/fuzz/corpus/$t" "$BUILD/fuzz/artifacts/$t"
	: > "$scratch/stamp"
	dict=
	[ -f "tests/fuzz/dict/$t.dict" ] && dict=-dict=tests/fuzz/dict/$t.dict
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 $dict ${FUZZ_FLAGS:-} \
		-artifact_prefix="$BUILD/fuzz/artifacts/$t/" \
		"$BUILD/fuzz/corpus/$t" "tests/fuzz/corpus/$t" > "$log" 2>&1
	rc=$?
	# Plain mode ends with stat:: lines; fork mode (-fork=N) prints
	# "#RUNS: cov: C ft: F corp: ... oom/timeout/crash: O/T/C ...".
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+:?[[:space:]]' "$log" | tail -1)
	[ -n "$runs" ] || runs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
	crashes=$(echo "$last" | sed -n 's/.*oom\/timeout\/crash: \([0-9\/]*\).*/, oom\/timeout\/crash \1/p')
	new=$(find "$BUILD/fuzz/artifacts/$t" -type f -newer "$scratch/stamp" | sort)
	nart=$(echo "$new" | grep -c .)
	if [ "$rc" -eq 0 ] && [ "$nart" -eq 0 ]; then
		echo "fuzz $t: ok, ${runs:-?} runs in ${SECONDS_EACH} s, ${cov:-no coverage line}${crashes}"
	else
		failed=1
		echo "fuzz $t: FAILED (status $rc) after ${runs:-?} runs, ${cov:-no coverage line}${crashes}; log $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz: oracle failed|.*runtime error)' "$log" | sort | uniq -c | sort -rn | head -8
		echo "$new" | sed '/^$/d; s/^/  artifact: /'
	fi
	rm -rf "${scratch:?}"/erg-fuzz-* "$scratch/stamp"
done
exit "$failed"
