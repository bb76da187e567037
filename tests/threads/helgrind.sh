#!/bin/sh
# tests/threads/helgrind.sh - erg's threads under valgrind's helgrind
# (make valgrind; not part of make test, whose ASan build helgrind cannot
# run).  A build has up to three kinds of threads at once: the run
# workers (-j), the power reader's scan workers and digest thread, and the
# index/views task that starts while run pages are still being written.
# Each case must end with no helgrind report (--error-exitcode):
#   1. a full build at -j 1, -j 2 and -j 3 of two small sessions and a
#      22 MB plain one (scan workers and the digest thread are used from
#      8 MiB on);
#   2. the same with --no-digest (no digest thread, one more scan worker);
#   3. a rebuild with one run changed (the others reused from the cache,
#      under the same binary: the cache key includes it);
#   4. erg check -j 3 of an archive with a broken run (errors reported
#      from several threads at once);
#   5. the views' diff pages and units on three threads, a build and
#      an update.
# Environment: BUILD (build), SHARED (../shared).
set -u
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
ERG=$BUILD/erg
HG="valgrind -q --tool=helgrind --error-exitcode=9"
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

ok() { echo "ok - helgrind: $*"; }
notok() { echo "not ok - helgrind: $*"; fails=$((fails + 1)); }
# run NAME CMD...: the command under helgrind; its report shown on failure.
run() {
	name=$1
	shift
	if $HG "$@" > "$tmp/out" 2> "$tmp/err"; then
		ok "$name"
	else
		notok "$name (status $?)"
		sed -n '1,40s/^/# /p' "$tmp/err"
	fi
}

command -v valgrind > /dev/null || { echo "helgrind: valgrind is not installed" >&2; exit 1; }
a=$tmp/a
mkdir -p "$a/m"
"$BUILD/tools/mksmall" "$a/m/r1" > /dev/null
cp -R "$a/m/r1" "$a/m/r2"
if [ -f "$SHARED/reference/energy-benchmark-m5.json" ]; then
	"$BUILD/tools/rebuild" --plain "$SHARED/reference/energy-benchmark-m5.json" \
		"$a/m5/run" > /dev/null 2>&1
else
	echo "# no $SHARED/reference: no 22 MB session, small ones only"
fi

for j in 1 2 3; do
	run "full build -j $j" "$ERG" build --quiet -j "$j" --archive "$a" --out "$tmp/s$j"
done
run "full build --no-digest -j 2" "$ERG" build --quiet --no-digest -j 2 --archive "$a" \
	--out "$tmp/nd"
touch "$a/m/r1/notes.md"
run "rebuild of one changed run -j 3" "$ERG" build -j 3 --archive "$a" --out "$tmp/s3"
if grep -q "(2 unchanged)" "$tmp/err"; then
	ok "the rebuild reused the unchanged runs"
else
	notok "the rebuild reused nothing: $(head -c 200 "$tmp/err")"
fi
cp -R "$a/m/r1" "$a/m/r3"
printf '{"broken"\n' >> "$a/m/r3/timeline.jsonl"
if $HG "$ERG" check -j 3 --archive "$a" > "$tmp/out" 2> "$tmp/err"; then
	notok "check -j 3 of a broken archive succeeded"
elif [ $? -eq 9 ]; then
	notok "check -j 3 of a broken archive: helgrind report"
	sed -n '1,40s/^/# /p' "$tmp/err"
elif grep -q "r3/timeline.jsonl:[0-9]*: error:" "$tmp/err"; then
	ok "check -j 3 of a broken archive: located error, no helgrind report"
else
	notok "check -j 3 of a broken archive: no located error"
	sed -n '1,10s/^/# /p' "$tmp/err"
fi
# 5. The views' units on -j threads: 30 runs over as many machines, pages
# of 3 runs, a build then an update after one run changed.
"$BUILD/tools/mkarchive" "$tmp/many" 30 "$a/m/r1" "$a/m/r1" \
	archive/apple-m4/2026-11-07-hello-server 2 > /dev/null
ERG_PAGE_ROWS=3 run "views units -j 3" "$ERG" build --quiet -j 3 --archive "$tmp/many" \
	--out "$tmp/m"
sed 's/"title": "[^"]*"/"title": "changed"/' "$(find "$tmp/many" -name meta.json | sort | head -n 1)" \
	> "$tmp/meta.new" && mv "$tmp/meta.new" "$(find "$tmp/many" -name meta.json | sort | head -n 1)"
ERG_PAGE_ROWS=3 run "views units, an update -j 3" "$ERG" build --quiet -j 3 \
	--archive "$tmp/many" --out "$tmp/m"
[ "$fails" -eq 0 ]
