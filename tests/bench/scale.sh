#!/bin/sh
# tests/bench/scale.sh - how erg grows with the archive (issue 19); run by
# make bench after the single-session benchmark, or alone:
#   BUILD=build sh tests/bench/scale.sh
#
# For each size of SCALE (default "1000 5000 20000") tests/tools/mkarchive
# writes a deterministic archive in a temporary folder: ~15 % copies of the
# full reference M5 session (archive/m5-energy/2026-08-26T0856-saturated),
# ~25 % summary runs (archive/apple-m4/2026-11-07-hello-server), ~60 % small
# sessions (tests/tools/mksmall), over 200 machines and five years; every
# run has its own id, machine, date and title, its other files are hard
# links to private copies of the templates (a link changes the ctime of
# what it links, which every run key holds).  Then, once each (wall time from the shell clock, peak RSS from
# /usr/bin/time -v):
#
#   full      erg build into a new OUT
#   noop      erg build again: nothing changed
#   change    one small run's meta.json rewritten (a new title), rebuilt
#   add       one run added to a machine, rebuilt
#
# and the largest page of the site (bytes and path) and its page count,
# and how long headless Chromium takes with its heaviest pages, or with
# every page (SCALE_PAGES=all; tests/bench/pages.sh: count, median, p99,
# max and the slowest 5); a page over 2 s makes the bench fail (status 1,
# "FAIL" in the report).
# A size is skipped when the peak RSS of the one before, scaled to it,
# would exceed half the memory available: on a 2-core machine shared with
# others, a build must never exhaust it.
#
# Environment: BUILD (build), SCALE, JOBS (erg -j), BENCH_TMP, SCALE_KEEP, SCALE_OUT
# (where the report goes, default tests/bench/scale.txt), SCALE_PAGES (12:
# pages.sh's N; "all": every page), and pages.sh's PAGES_*.
set -eu
BUILD=${BUILD:-build}
SCALE=${SCALE:-1000 5000 20000}
OUTFILE=${SCALE_OUT:-tests/bench/scale.txt}
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset SOURCE_DATE_EPOCH || true
MKARCHIVE=$BUILD/tools/mkarchive
MKSMALL=$BUILD/tools/mksmall
FULL=archive/m5-energy/2026-08-26T0856-saturated
SUMMARY=archive/apple-m4/2026-11-07-hello-server
JOBSOPT=
[ -n "${JOBS:-}" ] && JOBSOPT="-j $JOBS"
for f in "$BUILD/erg" "$MKARCHIVE" "$MKSMALL"; do
	[ -x "$f" ] || { echo "scale: $f is missing (make all)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "scale: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

tmp=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/erg-scale.XXXXXX")
# SCALE_KEEP=1 leaves the archives and sites for a closer look.
if [ -n "${SCALE_KEEP:-}" ]; then
	trap 'echo "scale: kept $tmp" >&2' EXIT
else
	trap 'rm -rf "$tmp"' EXIT INT TERM
fi
say() { printf '%s\n' "$*" >&2; }
# One binary and template set for every step (see bench.sh).
cp "$BUILD/erg" "$tmp/erg"
cp -R templates "$tmp/templates"
ERG=$tmp/erg
ERG_TEMPLATES=$tmp/templates
export ERG_TEMPLATES
"$MKSMALL" "$tmp/small" > /dev/null
now_ns() { date +%s%N; }
# step NAME CMD...: prints "wall_s rss_mb"
step() {
	t0=$(now_ns)
	/usr/bin/time -v -o "$tmp/time.out" "$@" > /dev/null 2> "$tmp/err.out" || {
		say "scale: $1 failed:"
		sed -n '1,20p' "$tmp/err.out" "$tmp/time.out" >&2
		exit 1
	}
	t1=$(now_ns)
	awk -v w="$(( t1 - t0 ))" '/Maximum resident set size/ { rss = $NF }
		END { printf "%.3f %.1f\n", w / 1e9, rss / 1024 }' "$tmp/time.out"
}

{
	echo "erg scale benchmark, $(date -u +%Y-%m-%d) - $(uname -sm), $(nproc) cores," \
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
		"load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
	echo "erg -j: ${JOBS:-default ($(nproc))}; one build each; wall s / peak RSS MB"
	printf '%-7s %15s %15s %15s %15s %8s  %s\n' runs full noop change add pages "largest page"
} > "$tmp/report"
prev_n=0
prev_rss=0
pages_failed=0
for n in $SCALE; do
	avail=$(awk '/MemAvailable/ { print int($2 / 1024) }' /proc/meminfo)
	if [ "$prev_n" -gt 0 ] &&
		awk -v r="$prev_rss" -v p="$prev_n" -v n="$n" -v a="$avail" \
			'BEGIN { exit !(r / p * n > a / 2) }'; then
		say "scale: $n runs skipped: ~$(awk -v r="$prev_rss" -v p="$prev_n" -v n="$n" \
			'BEGIN { printf "%.0f", r / p * n }') MB expected, $avail MB available"
		printf '%-7s skipped: peak RSS of %s runs scaled up exceeds half of %s MB available\n' \
			"$n" "$prev_n" "$avail" >> "$tmp/report"
		continue
	fi
	say "scale: generating $n runs"
	a=$tmp/a$n
	o=$tmp/site$n
	"$MKARCHIVE" "$a" "$n" "$FULL" "$tmp/small" "$SUMMARY"
	sync
	say "scale: $n runs: full build"
	# shellcheck disable=SC2086
	full=$(step "$ERG" build --quiet $JOBSOPT --archive "$a" --out "$o")
	# shellcheck disable=SC2086
	noop=$(step "$ERG" build --quiet $JOBSOPT --archive "$a" --out "$o")
	# the first small run of the archive gets a new title
	meta=$(find "$a" -path '*-small-*/meta.json' | sort | head -n 1)
	sed 's/"title": "[^"]*"/"title": "Retitled small run"/' "$meta" > "$tmp/meta.new"
	mv "$tmp/meta.new" "$meta"
	# shellcheck disable=SC2086
	change=$(step "$ERG" build --quiet $JOBSOPT --archive "$a" --out "$o")
	"$MKARCHIVE" --one small "$tmp/small" "$a/host-000/2027-01-01-small-added" host-000 \
		2027-01-01T00:00:00Z "Added small run"
	# shellcheck disable=SC2086
	add=$(step "$ERG" build --quiet $JOBSOPT --archive "$a" --out "$o")
	pages=$(find "$o" -name '*.html' | wc -l | tr -d ' ')
	largest=$(find "$o" -name '*.html' -printf '%s %P\n' | sort -n | tail -n 1)
	printf '%-7s %15s %15s %15s %15s %8s  %s\n' "$n" "$(echo "$full" | tr ' ' /)" \
		"$(echo "$noop" | tr ' ' /)" "$(echo "$change" | tr ' ' /)" \
		"$(echo "$add" | tr ' ' /)" "$pages" "$largest" >> "$tmp/report"
	# pages in headless Chromium (tests/bench/pages.sh): the heaviest, or
	# every page with SCALE_PAGES=all; a page over 2 s fails the bench
	if command -v chromium > /dev/null && command -v node > /dev/null; then
		say "scale: $n runs: loading ${SCALE_PAGES:-the heaviest} pages in Chromium"
		prc=0
		sh tests/bench/pages.sh "$o" "${SCALE_PAGES:-12}" > "$tmp/pages.out" || prc=$?
		sed "s/^/$(printf '%-7s' "$n") /" "$tmp/pages.out" >> "$tmp/report"
		[ "$prc" -eq 0 ] || pages_failed=1
	else
		printf '%-7s browser: not measured (chromium or node missing)\n' "$n" >> "$tmp/report"
	fi
	prev_n=$n
	prev_rss=$(echo "$full" | cut -d' ' -f2)
	[ -n "${SCALE_KEEP:-}" ] || rm -rf "$a" "$a.tmpl" "$o"
done
cat "$tmp/report"
mkdir -p "$(dirname "$OUTFILE")"
cp "$tmp/report" "$OUTFILE"
say "scale: written to $OUTFILE"
if [ "$pages_failed" = 1 ]; then
	say "scale: FAIL: a page took longer than 2 s in Chromium (see the report)"
	exit 1
fi
