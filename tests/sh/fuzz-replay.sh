#!/bin/sh
# Every checked-in fuzz corpus (tests/fuzz/corpus/<target>/) replayed once
# through its target, built with the project's compiler and flags
# (build/fuzz/replay_<target>: tests/fuzz/replay.c instead of libFuzzer).
# Each target checks its own oracles (tests/fuzz/fuzz.h), so a file that
# once crashed erg, or broke an escaping rule, fails here until fixed.
# One line per target.  Under make asan the replay runs with ASan+UBSan,
# under make valgrind with $VALGRIND.
set -u
: "${BUILD:?}"
src=${ERG_SRC:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ERG_FUZZ_TMP=$tmp
ERG_TEMPLATES=$src/templates
export ERG_FUZZ_TMP ERG_TEMPLATES
for dir in "$src"/tests/fuzz/corpus/*/; do
	dir=${dir%/}
	t=$(basename "$dir")
	bin=$src/$BUILD/fuzz/replay_$t
	if [ ! -x "$bin" ]; then
		echo "not ok - fuzz replay $t: $bin not built"
		continue
	fi
	# shellcheck disable=SC2086
	if ${VALGRIND:-} "$bin" "$dir" > "$tmp/out" 2> "$tmp/err"; then
		echo "ok - fuzz replay $t: $(cat "$tmp/out")"
	else
		rc=$?
		last=$(grep '^replay: ' "$tmp/err" | tail -1 | sed 's/^replay: //')
		echo "not ok - fuzz replay $t: exit status $rc on '$last'"
		grep -v '^replay: ' "$tmp/err" | head -20 | sed 's/^/# /'
	fi
done
