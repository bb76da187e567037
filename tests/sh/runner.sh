#!/bin/sh
# tests/sh/runner.sh - tests/run.sh itself, on a made-up tree of one test
# program and two test scripts:
#   1. "ok" and "not ok" lines are counted per program and in the last
#      line, which is exactly "N passed, N failed";
#   2. a "skip - ... (SKIP_X=1)" line counts as skipped only when SKIP_X=1
#      is in the environment; without it, with another value, or when the
#      line names no SKIP_ variable, it is a failure, shown as "not ok";
#   3. the line before the last says how many were skipped and by whom;
#   4. a program that exits non-zero without a "not ok" line fails once;
#   5. the exit status is non-zero exactly when something failed;
#   6. TEST_JOBS=3 (all at once) prints the same lines in the same order
#      as one at a time; TEST_TIMES=1 adds a line of times per test.
# Environment: ERG_SRC (set by tests/run.sh).
T=runner
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
unset SKIP_FAKE SKIP_OTHER TEST_JOBS TEST_TIMES

t=$tmp/tree
mkdir -p "$t/bt/tests" "$t/tests/sh"
cat > "$t/bt/tests/test_fake" << 'X'
#!/bin/sh
echo "ok - one"
echo "ok - two"
echo "# a comment"
echo "skip - fake: cannot run here (SKIP_FAKE=1)"
X
cat > "$t/tests/sh/crash.sh" << 'X'
echo "ok - before the crash"
exit 3
X
cat > "$t/tests/sh/plain.sh" << 'X'
echo "ok - plain"
echo "skip - plain: no variable named"
echo "skip - plain: another variable (SKIP_OTHER=1)"
X
chmod +x "$t/bt/tests/test_fake"

# run ENV...: tests/run.sh in the tree; its output in $tmp/out, status in rc.
run() {
	(cd "$t" && env "$@" BUILD=bt sh "$ERG_SRC/tests/run.sh") > "$tmp/out" 2>&1
	rc=$?
}
expect() { # what, line number from the end (1: last), wanted text
	got=$(tail -n "$2" "$tmp/out" | head -n 1)
	if [ "$got" = "$3" ]; then
		ok "$1: '$3'"
	else
		notok "$1: got '$got', want '$3'"
		show "$tmp/out"
	fi
}

run SKIP_OTHER=1
expect "SKIP_FAKE unset" 1 "4 passed, 3 failed"
expect "SKIP_FAKE unset, skips line" 2 "1 skipped (allowed by SKIP_ variables): sh/plain"
[ "$rc" -ne 0 ] && ok "SKIP_FAKE unset: status $rc" || notok "SKIP_FAKE unset: status 0"
if grep -qxF "not ok - fake: cannot run here (SKIP_FAKE=1) [skipped without SKIP_FAKE=1]" "$tmp/out" &&
	grep -qxF "not ok - plain: no variable named [skipped, naming no SKIP_ variable]" "$tmp/out" &&
	grep -qxF "not ok - sh/crash exited with status 3" "$tmp/out"; then
	ok "the disallowed skips and the crash are shown as 'not ok'"
else
	notok "the disallowed skips and the crash are not shown as 'not ok'"
	show "$tmp/out"
fi
if grep -Eq '^test_fake +2 passed, 1 failed$' "$tmp/out" &&
	grep -Eq '^sh/plain +1 passed, 1 failed, 1 skipped$' "$tmp/out"; then
	ok "per-program lines count passes, failures and skips"
else
	notok "per-program lines"
	show "$tmp/out"
fi

run SKIP_FAKE=yes SKIP_OTHER=1
expect "SKIP_FAKE=yes is not SKIP_FAKE=1" 1 "4 passed, 3 failed"

run SKIP_FAKE=1 SKIP_OTHER=1
expect "SKIP_FAKE=1" 1 "4 passed, 2 failed"
expect "SKIP_FAKE=1, skips line" 2 "2 skipped (allowed by SKIP_ variables): test_fake sh/plain"

cp "$tmp/out" "$tmp/out1"
run SKIP_FAKE=1 SKIP_OTHER=1 TEST_JOBS=3
if cmp -s "$tmp/out1" "$tmp/out" && [ "$rc" -ne 0 ]; then
	ok "TEST_JOBS=3: the same lines in the same order"
else
	notok "TEST_JOBS=3 differs from one at a time"
	diff "$tmp/out1" "$tmp/out" | show /dev/stdin
fi
run SKIP_FAKE=1 SKIP_OTHER=1 TEST_TIMES=1
if [ "$(grep -Ec '^ +([0-9]+\.[0-9][0-9]|-) +[0-9]+\.[0-9][0-9]  (test_fake|sh/plain|sh/crash)$' "$tmp/out")" -eq 3 ] &&
	[ "$(grep -v '^ ' "$tmp/out")" = "$(cat "$tmp/out1")" ]; then
	ok "TEST_TIMES=1: a line of wall and CPU seconds per test, nothing else changed"
else
	notok "TEST_TIMES=1"
	show "$tmp/out"
fi

rm "$t/tests/sh/crash.sh"
printf 'echo "ok - plain"\n' > "$t/tests/sh/plain.sh"
run SKIP_FAKE=1
expect "nothing fails" 1 "3 passed, 0 failed"
[ "$rc" -eq 0 ] && ok "nothing fails: status 0" || notok "nothing fails: status $rc"
rm "$t/bt/tests/test_fake"
run
expect "nothing skipped" 2 "0 skipped"
exit 0
