#!/bin/sh
# tests/bench/pages.sh - how long headless Chromium takes to load and
# screenshot a site's heaviest pages (issue 19: every page of a 20,000-run
# site under 2 s).  Run by tests/bench/scale.sh on each site it builds, or
# alone:
#   sh tests/bench/pages.sh SITE [N]
#
# One Chromium loads the pages one after another (tests/bench/pages.mjs,
# through the DevTools protocol), each timed from the navigation to the
# finished 1280 x 2000 screenshot; the browser's start is not in it.
# A site of 20,000 runs has ~35,000 pages, so not every page is timed:
# the N (default 12) largest pages by bytes, the N with the most table
# rows, and the largest page of each folder (runs, machines, targets,
# compare, diffs, years, search, the index).  Prints one line per page
# (seconds, bytes, table rows, path) and a last line
# "pages: max S s over K pages".
set -eu
site=$1
n=${2:-12}
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
{
	sort -k1,1nr "$tmp/all" | head -n "$n"
	sort -k2,2nr "$tmp/all" | head -n "$n"
	awk '{ k = $3; if (k !~ /\//) k = "."; else sub(/\/.*/, "", k)
		if (!(k in b) || $1 > b[k]) { b[k] = $1; l[k] = $0 } }
		END { for (k in l) print l[k] }' "$tmp/all"
} | sort -u -k3,3 | sort -k1,1nr > "$tmp/pick"
awk -v s="$site" '{ print s "/" $3 }' "$tmp/pick" > "$tmp/files"
# shellcheck disable=SC2046
node --experimental-websocket --no-warnings "$here/pages.mjs" $(cat "$tmp/files") > "$tmp/times"
awk -v s="$site/" 'NR == FNR { sub(s, "", $2); t[$2] = $1; next }
	{ printf "%7s s %10s B %6s rows  %s\n", t[$3], $1, $2, $3
	  if (t[$3] + 0 > max) max = t[$3] + 0; k++ }
	END { printf "pages: max %.3f s over %d pages\n", max, k }' "$tmp/times" "$tmp/pick"
