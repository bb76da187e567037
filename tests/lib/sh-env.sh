# tests/lib/sh-env.sh - what the shell tests of tests/sh/ set up first
# (sourced, after setting T to the test's name; not a test itself, so not
# in tests/sh/, whose every file tests/run.sh runs):
#   ERG_SRC, BUILD, SHARED, ERG (exported: helper scripts read them);
#   b, the build directory as an absolute path; LC_ALL=C and TZ=UTC, so
#   sorting and dates do not depend on the machine; tmp, a scratch
#   directory removed on exit; ok/notok, one counted line each; show, a
#   file as at most 40 comment lines (not counted); site_same NAME, for
#   the tests of incremental builds: $site equals a full build of the
#   archive (the test's own `build OUT`), byte for byte, the cache included
#   but for its folder record (inode numbers and times: cache.h);
#   wait_for SECONDS COMMAND..., for the tests of processes (erg record):
#   COMMAND's status once it succeeds, or its failure after SECONDS, so
#   that a test waits on a condition rather than for a fixed time that a
#   loaded machine can overrun; favour_timing, for the same tests: the
#   test and what it starts (servers, load generators, fake samplers and
#   counters) run at nice -10 when the system allows it (as root), so
#   that their timing is their own and not that of whatever else loads
#   the machine, as on the quiet machine a real recording wants.
set -u
ERG_SRC=${ERG_SRC:-$(pwd)}
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
case $BUILD in /*) b=$BUILD ;; *) b=$ERG_SRC/$BUILD ;; esac
ERG=${ERG:-$b/erg}
export ERG_SRC BUILD SHARED ERG
LC_ALL=C
TZ=UTC
export LC_ALL TZ
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - $T: $*"; }
notok() { echo "not ok - $T: $*"; }
show() { sed -n '1,40s/^/# /p' "$1"; }
wait_for() { # seconds, command...
	wf_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$wf_end" ] || return 1
		sleep 0.05
	done
}
favour_timing() {
	renice -n -10 -p $$ > /dev/null 2>&1 || :
}
site_same() {
	rm -rf "$tmp/fresh"
	build "$tmp/fresh" 2> "$tmp/err" || show "$tmp/err"
	if diff -r -x folders "$site" "$tmp/fresh" > "$tmp/diff" 2>&1; then
		ok "$1: the site equals a full build"
	else
		notok "$1: the site differs from a full build"
		show "$tmp/diff"
	fi
}
