#!/bin/sh
# Output failures, made on purpose by the LD_PRELOAD shim tests/inject/
# inject.c ($BUILD/inject/inject.so): a full disk or an I/O error while
# the site is written, flushed, closed, renamed into place, or while its
# directories are made.  Each case checks that erg says which file failed
# and why ("erg: error: cannot write '...': No space left on device"),
# exits with status 1, leaves the previous site byte for byte as it was,
# leaves no temporary tree (OUT.tmp-*, OUT.old-*) behind, and that the
# shim really did inject the failure (its log), so no case passes
# vacuously.
#
# The archive holds two runs; before each case one of them is touched, so
# erg rebuilds it and reuses the other: in place, as the site is erg's
# (an update: what it wrote is moved in at the end), or, for the cases of
# the swap (whole=1: a folder of the site touched first), carried into a
# new tree by links or copies; a failure must not reach the previous site
# through those either.
set -u
: "${ERG:?}" "${BUILD:?}"
src=${ERG_SRC:-.}
shim=$src/$BUILD/inject/inject.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# make asan: erg links ASan's runtime, which wants to be first in the
# library list; the shim goes first, which is harmless here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

ok() { echo "ok - inject: $*"; }
notok() { echo "not ok - inject: $*"; }

if [ ! -f "$shim" ]; then
	notok "shim $shim not built"
	exit 0
fi

arch=$tmp/archive out=$tmp/site whole=
mkdir -p "$arch/2023"
"$BUILD/tools/mksmall" "$arch/2023/one" >/dev/null
"$BUILD/tools/mksmall" "$arch/2023/two" >/dev/null

# Every file of a tree as "path size checksum", in a fixed order.
fingerprint() {
	(cd "$1" && find . -type f | LC_ALL=C sort | while IFS= read -r f; do
		printf '%s %s\n' "$f" "$(cksum < "$f")"
	done)
}

if "$ERG" build --quiet --archive "$arch" --out "$out" 2>"$tmp/err"; then
	ok "good site builds"
else
	notok "good site builds: $(head -3 "$tmp/err")"
fi
fingerprint "$out" > "$tmp/before"

leftovers() {
	ls -d "$1".tmp-* "$1".old-* 2>/dev/null
}

# case NAME STERR-REGEX VAR=VALUE...: one failing build under the shim.
# Every stderr line must match the regex (a message per failing file).
case_() {
	name=$1 re=$2
	shift 2
	touch "$arch/2023/two/notes.md"
	# a site whose folders changed is built whole and swapped in
	# (renames, copies); else it is updated in place (tests/sh/update.sh)
	[ -n "$whole" ] && touch "$out/runs"
	rm -f "$tmp/log"
	env "$@" ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
		"$ERG" build --quiet --archive "$arch" --out "$out" >/dev/null 2>"$tmp/err"
	st=$?
	if [ -s "$tmp/log" ]; then
		ok "$name: failure injected ($(head -1 "$tmp/log" | cut -d' ' -f1))"
	else
		notok "$name: the shim injected nothing (exit status $st)"
	fi
	[ "$st" -eq 1 ] && ok "$name: exit status 1" || notok "$name: exit status $st, want 1"
	if [ -s "$tmp/err" ] && ! grep -Evq "$re" "$tmp/err"; then
		ok "$name: message $(head -1 "$tmp/err" | sed "s|$tmp|TMP|g")"
	else
		notok "$name: stderr '$(head -3 "$tmp/err" | sed "s|$tmp|TMP|g")' does not match '$re'"
	fi
	fingerprint "$out" > "$tmp/after"
	if cmp -s "$tmp/before" "$tmp/after"; then
		ok "$name: previous site byte-identical"
	else
		notok "$name: previous site changed: $(diff "$tmp/before" "$tmp/after" | head -4 | tr '\n' ' ')"
	fi
	if [ -z "$(leftovers "$out")" ]; then
		ok "$name: no temporary tree left"
	else
		notok "$name: left behind: $(leftovers "$out" | tr '\n' ' ')"
	fi
}

T="'[^']*/site\\.tmp-[A-Za-z0-9]{6}/[^']+'"
case_ enospc-first-byte "^erg: error: cannot write $T: No space left on device\$" \
	ERG_INJECT_AFTER=0
case_ enospc-mid-tree "^erg: error: cannot write $T: No space left on device\$" \
	ERG_INJECT_AFTER=30000
case_ eio-run-page "^erg: error: cannot write $T: Input/output error\$" \
	ERG_INJECT_AFTER=0 ERG_INJECT_ERRNO=EIO ERG_INJECT_PATH='*/runs/*/index.html'
case_ enospc-results-json "^erg: error: cannot write $T: No space left on device\$" \
	ERG_INJECT_AFTER=100 ERG_INJECT_PATH='*/results.json'
case_ enospc-at-flush "^erg: error: cannot write $T: No space left on device\$" \
	ERG_INJECT_AFTER=5000 ERG_INJECT_WHEN=flush
case_ eio-at-close "^erg: error: cannot close $T: Input/output error\$" \
	ERG_INJECT_AFTER=5000 ERG_INJECT_WHEN=close ERG_INJECT_ERRNO=EIO
case_ enospc-manifest "^erg: error: cannot write $T: No space left on device\$" \
	ERG_INJECT_AFTER=0 ERG_INJECT_PATH='*/.erg-cache/*'
case_ mkdtemp-enospc "^erg: error: cannot create a temporary directory beside '[^']*/site': No space left on device\$" \
	ERG_INJECT_MKDIR=ENOSPC
case_ mkdir-eio "^erg: error: cannot create directory '[^']*/site\\.tmp-[A-Za-z0-9]{6}/runs[^']*': Input/output error\$" \
	ERG_INJECT_MKDIR=EIO ERG_INJECT_MKDIR_PATH='*/runs*'
# An update in place: rename 1 sets the manifest aside, 2 moves the first
# page in; refused, the site is as it was (the manifest put back).
whole=
case_ update-aside-eio "^erg: [^:]*/site: error: cannot set '\.erg-cache/manifest' aside: Input/output error\$" \
	ERG_INJECT_RENAME=1
case_ update-first-page-eio "^erg: [^:]*/site/\.erg-site: error: cannot replace: Input/output error\$" \
	ERG_INJECT_RENAME=2
# Built whole and swapped in: the atomic exchange (renameat2) is call 1;
# without it erg moves the previous site aside (call 2) and the new one in
# (call 3).
whole=1
case_ rename-all-eio "^erg: error: cannot move the previous site '[^']*/site' aside: Input/output error\$" \
	ERG_INJECT_RENAME=all
case_ rename-new-in-eio "^erg: error: cannot rename '[^']*/site\\.tmp-[A-Za-z0-9]{6}' to '[^']*/site': Input/output error\$" \
	ERG_INJECT_RENAME=1,3
# The unchanged run is carried from the previous site by hard links; where
# the file system refuses a link (EXDEV) its files are copied: a full disk
# there.
case_ enospc-copying-old-run "^erg: error: cannot (write|copy) [^:]*: No space left on device\$" \
	ERG_INJECT_AFTER=0 ERG_INJECT_PATH='*/runs/2023/one/*' ERG_INJECT_LINK=EXDEV

# Without the atomic exchange the build still succeeds (two renames).
touch "$arch/2023/two/notes.md" "$out/runs"
rm -f "$tmp/log"
if ERG_INJECT_RENAME=1 ERG_INJECT_RENAME_ERRNO=ENOSYS ERG_INJECT_LOG="$tmp/log" \
	LD_PRELOAD="$shim" "$ERG" build --quiet --archive "$arch" --out "$out" 2>"$tmp/err" &&
	[ -s "$tmp/log" ] && [ -z "$(leftovers "$out")" ] && [ -f "$out/index.html" ]; then
	ok "no renameat2: built with two renames, nothing left behind"
else
	notok "no renameat2: $(head -2 "$tmp/err" | sed "s|$tmp|TMP|g") $(leftovers "$out")"
fi

# A first build (no previous site) whose final rename fails leaves nothing.
rm -f "$tmp/log"
if ERG_INJECT_RENAME=all ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
	"$ERG" build --quiet --archive "$arch" --out "$tmp/new" 2>"$tmp/err"; then
	notok "first build, rename fails: exit status 0"
elif grep -Eq "^erg: error: cannot rename '[^']*/new\\.tmp-[A-Za-z0-9]{6}' to '[^']*/new': Input/output error\$" "$tmp/err" &&
	[ ! -e "$tmp/new" ] && [ -z "$(leftovers "$tmp/new")" ]; then
	ok "first build, rename fails: message, no site, nothing left behind"
else
	notok "first build, rename fails: '$(head -2 "$tmp/err" | sed "s|$tmp|TMP|g")' $(ls -d "$tmp"/new* 2>/dev/null)"
fi

# erg check never writes: a shim that fails every write changes nothing.
if ERG_INJECT_AFTER=0 LD_PRELOAD="$shim" "$ERG" check --archive "$arch" 2>"$tmp/err"; then
	ok "check writes nothing"
else
	notok "check under a failing disk: $(head -2 "$tmp/err" | sed "s|$tmp|TMP|g")"
fi

# A run page fails while the index and views are being rendered beside it
# (the big run is processed last and its page written after the views
# started): one failed run, one message, whatever -j.  The patterns also
# hit view pages (targets/express/, diffs/); what they stumble on after
# the run failed is not reported again.  (Once one glob, '*[gs]/index.html',
# it also hit the root index.html whenever the temporary tree's random
# name ended in g or s: a flaky test.)  Which write fails first is a
# race: the views start once every run is processed, beside the big run's
# page; a view failing first stops the run page from being written.  Either
# way exactly one of the injected writes is reported.
big=$src/archive/m5-energy/2026-08-26T0856-saturated
if [ -d "$big" ]; then
	arch2=$tmp/archive2
	mkdir -p "$arch2/2023"
	"$BUILD/tools/mksmall" "$arch2/2023/one" >/dev/null
	cp -R "$big" "$arch2/2023/big"
	for j in 1 2 3; do
		rm -f "$tmp/log"
		ERG_INJECT_AFTER=0 ERG_INJECT_ERRNO=EIO ERG_INJECT_PATH='*/runs/2023/big/index.html|*/targets/*/index.html|*/diffs/*/index.html' \
			ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
			"$ERG" build --quiet -j "$j" --archive "$arch2" --out "$tmp/site2" 2>"$tmp/err"
		st=$?
		if [ "$st" -eq 1 ] && [ -s "$tmp/log" ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
			grep -Eq "^erg: error: cannot write '[^']*/(runs/2023/big|targets/[^/']*|diffs/[^']*)/index\\.html': Input/output error\$" "$tmp/err"; then
			ok "run page fails beside the views, -j $j: one message, status 1"
		else
			notok "run page fails beside the views, -j $j: status $st, $(wc -l < "$tmp/err") lines: $(head -3 "$tmp/err" | sed "s|$tmp|TMP|g" | tr '\n' ' ')"
		fi
	done
else
	notok "no $big: the run-page-beside-views case needs the bundled archive"
fi
