#!/bin/sh
# tests/browser/run.sh - load the built pages from file:// in headless
# Chromium: no console message (the pages have no script, so any message
# is an error: a missing stylesheet, a blocked load), no request that is
# not file://, and screenshots under tests/out/ to look at (1280 px and
# 360 px wide, light and dark).  Called by tests/sh/browser.sh.
#
# make test installs chromium (make test-deps).  Without /usr/bin/chromium
# (or $CHROMIUM) the test prints a skip line, which tests/run.sh counts as
# a failure unless SKIP_BROWSER=1; with SKIP_BROWSER=1 it skips at once.
# Environment: ERG_SRC, BUILD, ERG (as tests/run.sh sets them), CHROMIUM,
# SKIP_BROWSER.
set -u
ERG_SRC=${ERG_SRC:-$(pwd)}
BUILD=${BUILD:-build}
case $BUILD in /*) b=$BUILD ;; *) b=$ERG_SRC/$BUILD ;; esac
ERG=${ERG:-$b/erg}
export ERG_SRC BUILD ERG
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
out=${TEST_OUT:-$ERG_SRC/tests/out}

if [ "${SKIP_BROWSER:-}" = 1 ]; then
	echo "skip - browser: not run, as asked (SKIP_BROWSER=1)"
	exit 0
fi
if [ ! -x "$CHROMIUM" ]; then
	echo "skip - browser: $CHROMIUM is not installed: make test-deps (SKIP_BROWSER=1)"
	exit 0
fi
if command -v timeout > /dev/null 2>&1; then
	T="timeout 120"
else
	T=
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$out"

# chromium OUTBASE [flags...] URL: a fresh profile each time, so nothing
# is cached between pages.
chrome() {
	base=$1
	shift
	prof=$(mktemp -d "$tmp/profile.XXXXXX")
	$T "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--no-first-run --disable-sync --hide-scrollbars \
		--user-data-dir="$prof" "$@" > "$base.out" 2> "$base.err"
}

sh "$ERG_SRC/tests/golden/build-small.sh" "$tmp/site" 2> "$tmp/build.err" || {
	echo "not ok - browser: the small site builds"
	sed 's/^/# /' "$tmp/build.err"
	exit 0
}
pages="small-index:$tmp/site/index.html small-run:$tmp/site/runs/2023-11/small/index.html"
# A page of the reference session too: from the whole committed archive,
# or, when that does not build, from a copy of its first energy session
# (a directory with a timeline.jsonl) alone.
if ls "$ERG_SRC"/archive/*/*/ > /dev/null 2>&1; then
	if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/ref" \
		--templates "$ERG_SRC/templates" 2> /dev/null; then
		rm -rf "$tmp/ref"
		s=$(find "$ERG_SRC/archive" -name timeline.jsonl | sort | sed -n 1p)
		if [ -n "$s" ]; then
			s=$(dirname "$s")
			mkdir -p "$tmp/refarch/ref"
			cp -R "$s" "$tmp/refarch/ref/"
			"$ERG" build --quiet --archive "$tmp/refarch" --out "$tmp/ref" \
				--templates "$ERG_SRC/templates" 2> /dev/null || rm -rf "$tmp/ref"
		fi
	fi
	if [ -d "$tmp/ref/runs" ]; then
		p=$(find "$tmp/ref/runs" -name index.html -exec grep -l 'energy-session' {} + |
			sort | sed -n 1p)
		[ -n "$p" ] && pages="$pages reference-run:$p"
	fi
fi

for entry in $pages; do
	name=${entry%%:*}
	file=${entry#*:}
	url="file://$file"
	# Load the page, with every host unresolvable and a net log of
	# every request; the DOM after load goes to stdout.
	chrome "$tmp/$name" --enable-logging=stderr --v=0 \
		--host-resolver-rules="MAP * ~NOTFOUND" \
		--log-net-log="$tmp/$name.netlog" --dump-dom "$url"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '</html>' "$tmp/$name.out"; then
		echo "ok - browser: $name loads"
	else
		echo "not ok - browser: $name loads (status $rc)"
		sed -n '1,20s/^/# /p' "$tmp/$name.err"
		continue
	fi
	if grep -q ':CONSOLE' "$tmp/$name.err"; then
		echo "not ok - browser: $name logs nothing to the console"
		grep ':CONSOLE' "$tmp/$name.err" | sed -n '1,20s/^/# /p'
	else
		echo "ok - browser: $name logs nothing to the console"
	fi
	# Requests made for the page carry a file:// isolation key (the
	# browser's own background requests do not).
	grep '"network_isolation_key":"file://' "$tmp/$name.netlog" 2> /dev/null |
		grep -o '"url":"[^"]*"' | grep -v '"url":"file://' | sort -u > "$tmp/$name.net"
	if [ ! -s "$tmp/$name.netlog" ]; then
		echo "not ok - browser: $name: no net log written"
	elif [ -s "$tmp/$name.net" ]; then
		echo "not ok - browser: $name requests only file:// URLs"
		sed -n '1,20s/^/# /p' "$tmp/$name.net"
	else
		echo "ok - browser: $name requests only file:// URLs"
	fi
	if grep -q -i -E '(src|href)="(https?:)?//' "$tmp/$name.out" &&
		! grep -q '<!--notes-->' "$tmp/$name.out"; then
		echo "not ok - browser: $name: the DOM refers to the network"
	fi

	# Screenshots: wide, narrow (360 px, a small phone), dark.
	for shot in "1280,2400:$name" "360,2400:$name-360" "1280,2400:$name-dark:--force-dark-mode"; do
		size=${shot%%:*}
		rest=${shot#*:}
		png=${rest%%:*}
		extra=
		case $rest in *:*) extra=${rest#*:} ;; esac
		rm -f "$out/$png.png"
		# shellcheck disable=SC2086
		chrome "$tmp/$png" $extra --window-size="$size" \
			--screenshot="$out/$png.png" "$url"
		if [ -s "$out/$png.png" ]; then
			echo "ok - browser: screenshot tests/out/$png.png"
		else
			echo "not ok - browser: screenshot tests/out/$png.png"
			sed -n '1,10s/^/# /p' "$tmp/$png.err"
		fi
	done
done
exit 0
