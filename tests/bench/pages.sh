#!/bin/sh
# tests/bench/pages.sh - how long headless Chromium takes to load and
# screenshot a site's pages (issue 19: every page of a 20,000-run site
# under 2 s).  Run by tests/bench/scale.sh on each site it builds, or
# alone:
#   sh tests/bench/pages.sh SITE [N | all]
#
# One Chromium loads the pages one after another in one tab
# (tests/bench/pages.mjs, through the DevTools protocol), each timed from
# the navigation to the finished 1280 x 2000 screenshot; the browser's
# start is not in it.  "all": every .html page of the site (a 20,000-run
# site has ~32,000).  N (default 12): the N largest pages by bytes, the N
# with the most table rows, and the largest page of each folder (runs,
# machines, targets, compare, diffs, years, search, the index).
#
# Prints how many pages were timed, their median, 99th percentile
# (nearest rank) and maximum, the slowest 5 (seconds, bytes, table rows,
# path), and last "pages: ok: ..." or "pages: FAIL: K pages over L s"; the
# exit status is 1 when a page took longer than the limit, timed out or
# did not load.
# Environment: CHROMIUM (chromium), PAGES_LIMIT (2: seconds a page may
# take), PAGES_SHOT (1; 0: time the load only, no screenshot),
# PAGES_TIMEOUT (60: seconds before a page is given up), PAGES_TIMES (a
# file for every page's line, slowest first; none by default).
set -eu
site=$1
n=${2:-12}
limit=${PAGES_LIMIT:-2}
CHROMIUM=${CHROMIUM:-chromium}
export CHROMIUM
here=$(cd "$(dirname "$0")" && pwd)
command -v "$CHROMIUM" > /dev/null || { echo "pages: $CHROMIUM is missing (apt-get install chromium)" >&2; exit 1; }
command -v node > /dev/null || { echo "pages: node is missing (apt-get install nodejs)" >&2; exit 1; }
[ -f "$site/index.html" ] || { echo "pages: $site/index.html is missing" >&2; exit 1; }
site=$(cd "$site" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/erg-pages.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# bytes, table rows and path of every page (one grep over all of them)
find "$site" -name '*.html' -not -path '*/.erg-cache/*' -printf '%s %P\n' | sort -k2,2 > "$tmp/bytes"
(cd "$site" && find . -name '*.html' -not -path './.erg-cache/*' -print0 |
	xargs -0 grep -o -H '<tr[ >]' 2> /dev/null || true) |
	awk -F: '{ sub(/^\.\//, "", $1); c[$1]++ } END { for (f in c) print f, c[f] }' |
	sort -k1,1 > "$tmp/rows"
join -1 2 -2 1 -a 1 -e 0 -o '1.1,2.2,1.2' "$tmp/bytes" "$tmp/rows" > "$tmp/all"
if [ "$n" = all ]; then
	sort -k3,3 "$tmp/all" > "$tmp/pick"
else
	{
		sort -k1,1nr "$tmp/all" | head -n "$n"
		sort -k2,2nr "$tmp/all" | head -n "$n"
		awk '{ k = $3; if (k !~ /\//) k = "."; else sub(/\/.*/, "", k)
			if (!(k in b) || $1 > b[k]) { b[k] = $1; l[k] = $0 } }
			END { for (k in l) print l[k] }' "$tmp/all"
	} | sort -u -k3,3 > "$tmp/pick"
fi
awk -v s="$site" '{ print s "/" $3 }' "$tmp/pick" > "$tmp/files"
rc=0
node --experimental-websocket --no-warnings "$here/pages.mjs" --list "$tmp/files" > "$tmp/times" ||
	rc=$?
# seconds, bytes, rows, path[, timeout], slowest first
awk -v s="$site/" 'NR == FNR { sub(s, "", $2); t[$2] = $1; x[$2] = $3; next }
	{ printf "%7s s %10s B %6s rows  %s%s\n", ($3 in t) ? t[$3] : "-", $1, $2, $3,
		($3 in t) ? (x[$3] != "" ? "  (" x[$3] ")" : "") : "  (not loaded)" }' \
	"$tmp/times" "$tmp/pick" | sort -k1,1gr > "$tmp/lines"
[ -n "${PAGES_TIMES:-}" ] && cp "$tmp/lines" "$PAGES_TIMES"
what="load and screenshot"
[ "${PAGES_SHOT:-1}" = 0 ] && what="load only"
awk '$1 != "-" { print $1 }' "$tmp/lines" | sort -g > "$tmp/sorted"
k=$(wc -l < "$tmp/sorted" | tr -d ' ')
all=$(wc -l < "$tmp/pick" | tr -d ' ')
awk -v k="$k" -v all="$all" -v what="$what" '
	function rank(p,   r) { r = int(p * k); if (r < p * k) r++; if (r < 1) r = 1; return v[r] }
	{ v[NR] = $1 }
	END { if (k) printf "pages: %d of %d pages timed (%s): median %.3f s, p99 %.3f s, max %.3f s\n",
		k, all, what, rank(0.5), rank(0.99), v[k]
	      else printf "pages: none of %d pages timed\n", all }' "$tmp/sorted"
echo "pages: slowest 5:"
sed -n '1,5p' "$tmp/lines"
over=$(awk -v l="$limit" '$1 == "-" || $1 + 0 > l + 0 || / \(timeout\)$/' "$tmp/lines" | wc -l | tr -d ' ')
if [ "$over" -gt 0 ] || [ "$rc" -ne 0 ] || [ "$k" -ne "$all" ]; then
	echo "pages: FAIL: $over of $all pages over $limit s or not loaded (pages.mjs status $rc)"
	exit 1
fi
echo "pages: ok: all $all pages under $limit s"
