#!/bin/sh
# tests/sh/update.sh - a rebuild of a site as erg left it is an update in
# place (site_update(), cache_merge(); issue 19): the build writes only
# what it renders afresh into its temporary tree and moves that into the
# site, so an unchanged file is never linked, copied or moved:
#   - one run changed: every file not rendered keeps its inode and has one
#     link, no link was even tried, and the site equals a full build;
#   - a later run broken: the build fails and the site is as it was;
#   - a run removed: its folder and its cached summary and record go; a
#     run added: the site equals a full build;
#   - the first page's move refused (tests/inject): the site as it was,
#     its manifest put back; a later one refused: the build says the site
#     is partly updated, leaves no manifest and no temporary tree, and the
#     next build is a full one that equals a fresh build;
#   - a second build of the same site waits for the first (the lock on
#     OUT): it ends only after the holder let go.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=update
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH

a=$tmp/archive
site=$tmp/site
sum=$ERG_SRC/archive/apple-m4/2026-11-07-hello-server
shim=$b/inject/inject.so
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
"$b/tools/mksmall" "$tmp/small" > /dev/null
"$b/tools/mkarchive" "$tmp/linked" 12 "$tmp/small" "$tmp/small" "$sum" 3
cp -R "$tmp/linked" "$a"

build() { "$ERG" build --quiet --archive "$a" --out "$@"; }
inodes() { (cd "$1" && find . -type f -not -path './.erg-cache/folders' -printf '%P %i %n\n' | sort); }
h() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
# up_to_date OK NOTOK: the next build has nothing to do.
up_to_date() {
	"$ERG" build --archive "$a" --out "$site" 2> "$tmp/err"
	if grep -q "is up to date" "$tmp/err"; then
		ok "$1"
	else
		notok "$2"
		show "$tmp/err"
	fi
}

if [ ! -f "$shim" ]; then
	notok "shim $shim not built"
	exit 0
fi
if build "$site" 2> "$tmp/err"; then
	ok "first build"
else
	notok "first build"
	show "$tmp/err"
fi
# sessions have a meta.json (summary runs a run.json)
runs=$(cd "$a" && find . -name meta.json | sed 's|^\./||; s|/meta\.json$||' | sort)
nruns=$(find "$site/runs" -name index.html | wc -l | tr -d ' ')
one=$(echo "$runs" | sed -n 1p)
two=$(echo "$runs" | sed -n 2p)

# 1. One run changed.
inodes "$site" > "$tmp/ino.before"
touch "$a/$one/notes.md"
rm -f "$tmp/log"
ERG_INJECT_LINK=EPERM ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
	"$ERG" build --archive "$a" --out "$site" --explain 2> "$tmp/explain"
st=$?
inodes "$site" > "$tmp/ino.after"
sed -n 's|^erg: rendered ||p' "$tmp/explain" > "$tmp/rendered"
if [ "$st" -eq 0 ] && grep -qxF "runs/$one/" "$tmp/rendered" &&
	grep -q "^erg: built $nruns runs into '[^']*' ($((nruns - 1)) unchanged)$" "$tmp/explain"; then
	ok "one run changed: it alone of the runs is rendered"
else
	notok "one run changed: status $st, or not exactly it rendered"
	show "$tmp/explain"
fi
# Files neither rendered (a page --explain lists, a file of the changed
# run, its cached summary and record) nor written by every build (the
# marker, the style sheet, erg's records) are the previous inodes.
join "$tmp/ino.before" "$tmp/ino.after" |
	grep -v -e '^\.erg-cache/[a-z]* ' -e '^\.erg-site ' -e '^erg\.css ' \
		-e "^runs/$one/" -e "^\.erg-cache/runs/$(h "$one")\." |
	while read -r f i1 n1 i2 n2; do
		grep -qxF "$f" "$tmp/rendered" && continue
		echo "$f $([ "$i1" = "$i2" ] && echo same || echo new)"
	done > "$tmp/kept"
if [ -s "$tmp/kept" ] && ! grep -q ' new$' "$tmp/kept" &&
	grep -q '^runs/.*/index.html same$' "$tmp/kept" && grep -q '^machines/.*/index.html same$' "$tmp/kept"; then
	ok "one run changed: the $(wc -l < "$tmp/kept") files not rendered kept their inodes"
else
	notok "one run changed: a file not rendered was replaced"
	grep ' new$' "$tmp/kept" > "$tmp/bad"
	show "$tmp/bad"
fi
if [ -z "$(awk '$3 != 1' "$tmp/ino.after")" ] && [ ! -s "$tmp/log" ]; then
	ok "one run changed: no file has a second link, and no link was tried"
else
	notok "one run changed: links made or tried"
	show "$tmp/log"
fi
if [ -z "$(ls -d "$site".tmp-* 2> /dev/null)" ]; then
	ok "one run changed: no temporary tree left"
else
	notok "one run changed: a temporary tree left"
fi
site_same "one run changed"
build "$site" 2> "$tmp/err"
if grep -q "is up to date" "$tmp/err" || [ ! -s "$tmp/err" ]; then
	ok "one run changed: the next build has nothing to do"
else
	notok "one run changed: the next build did something"
	show "$tmp/err"
fi

# 1b. A later run broken: the update fails before it moves anything.
print() {
	(cd "$1" && find . -type f | sort | while IFS= read -r f; do
		printf '%s %s %s\n' "$f" "$(stat -c '%i %h' "$f")" "$(cksum < "$f")"
	done)
}
touch "$a/$one/notes.md"
mkdir -p "$a/zz-broken/1999-01-01-bad"
cp -R "$tmp/small/." "$a/zz-broken/1999-01-01-bad/"
printf '{ "title": ' > "$a/zz-broken/1999-01-01-bad/meta.json"
print "$site" > "$tmp/print.before"
build "$site" -j 1 2> "$tmp/err"
st=$?
print "$site" > "$tmp/print.after"
if [ "$st" -ne 0 ] && cmp -s "$tmp/print.before" "$tmp/print.after" &&
	[ -z "$(ls -d "$site".tmp-* 2> /dev/null)" ]; then
	ok "a later run broken: the build fails, every file of the site as it was, no temporary tree"
else
	notok "a later run broken: status $st, or the site changed"
	diff "$tmp/print.before" "$tmp/print.after" > "$tmp/diff"
	show "$tmp/diff"
fi
rm -rf "$a/zz-broken"
build "$site" 2> /dev/null

# 1c. The binary: its times changed (a link to it, as `perf record` makes
# in ~/.debug, changes its ctime) keep the site; its bytes changed (one
# appended: it still runs) rebuild every run.
touch -r "$ERG" "$ERG"
build "$site" 2> /dev/null
up_to_date "the binary's ctime changed: up to date" "the binary's ctime changed: the site was rebuilt"
cp "$ERG" "$tmp/erg2"
printf x >> "$tmp/erg2"
"$tmp/erg2" build --templates "$ERG_SRC/templates" --archive "$a" --out "$site" 2> "$tmp/err"
if grep -q "^erg: built $nruns runs into '[^']*'$" "$tmp/err"; then
	ok "the binary's bytes changed: every run rebuilt"
else
	notok "the binary's bytes changed: not every run rebuilt"
	show "$tmp/err"
fi
build "$site" 2> /dev/null

# 2. A run removed, then one added.
mv "$a/$two" "$tmp/two.away"
if build "$site" 2> "$tmp/err" && [ ! -e "$site/runs/$two" ] &&
	[ ! -e "$site/.erg-cache/runs/$(h "$two").json" ] &&
	[ ! -e "$site/.erg-cache/runs/$(h "$two").rec" ]; then
	ok "a run removed: its folder, summary and record are gone"
else
	notok "a run removed: something of it is left"
	show "$tmp/err"
fi
site_same "a run removed"
mkdir -p "$a/zz-added"
mv "$tmp/two.away" "$a/zz-added/run"
if build "$site" 2> "$tmp/err" && [ -f "$site/runs/zz-added/run/index.html" ]; then
	ok "a run added: its pages are there"
else
	notok "a run added"
	show "$tmp/err"
fi
site_same "a run added"

# 3. The update fails while moving pages in.  Rename 1 sets the manifest
# aside; rename 2, the first page, refused: the site as it was.
touch "$a/$one/notes.md"
print "$site" > "$tmp/print.before"
rm -f "$tmp/log"
ERG_INJECT_RENAME=2 ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
	"$ERG" build --archive "$a" --out "$site" 2> "$tmp/err"
st=$?
print "$site" > "$tmp/print.after"
if [ "$st" -ne 0 ] && [ -s "$tmp/log" ] && grep -q "^erg: $site/.*: error: cannot replace: " "$tmp/err" &&
	! grep -q "partly" "$tmp/err" && cmp -s "$tmp/print.before" "$tmp/print.after" &&
	[ -z "$(ls -d "$site".tmp-* 2> /dev/null)" ]; then
	ok "the first move refused: the build fails, every file of the site as it was (the manifest put back)"
else
	notok "the first move refused: status $st, or the site changed"
	diff "$tmp/print.before" "$tmp/print.after" > "$tmp/diff"
	show "$tmp/diff"
	show "$tmp/err"
fi
# rename 3, the second page, refused: partly updated.
rm -f "$tmp/log"
ERG_INJECT_RENAME=3 ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
	"$ERG" build --archive "$a" --out "$site" 2> "$tmp/err"
st=$?
if [ "$st" -ne 0 ] && [ -s "$tmp/log" ] &&
	grep -q "^erg: $site/.*: error: cannot replace: " "$tmp/err" &&
	grep -q "^erg: $site: error: left partly updated; the next build rebuilds it in full$" "$tmp/err"; then
	ok "a move refused: the build fails and says the site is partly updated"
else
	notok "a move refused: status $st"
	show "$tmp/err"
fi
if [ ! -e "$site/.erg-cache/manifest" ] && [ -z "$(ls -d "$site".tmp-* 2> /dev/null)" ]; then
	ok "a move refused: no manifest left, no temporary tree"
else
	notok "a move refused: a manifest or a temporary tree left"
fi
build "$site" 2> /dev/null
up_to_date "a move refused: the next build rebuilt the site" \
	"a move refused: the build after the next is not a no-op"
site_same "a move refused, then rebuilt"

# 4. One build at a time: a holder of the lock on OUT, then a build.
touch "$a/$one/notes.md"
flock "$site" sh -c "touch '$tmp/held'; sleep 1; date +%s%N > '$tmp/released'" &
holder=$!
if wait_for 10 test -e "$tmp/held"; then
	build "$site" 2> "$tmp/err"
	st=$?
	date +%s%N > "$tmp/done"
	wait "$holder"
	if [ "$st" -eq 0 ] && [ "$(cat "$tmp/done")" -ge "$(cat "$tmp/released")" ] &&
		grep -q "^erg: waiting for another build of '$site'$" "$tmp/err"; then
		ok "locked: the build said it waits, and waited for the lock on the site"
	else
		notok "locked: status $st, or it ended before the holder let go"
		show "$tmp/err"
	fi
else
	notok "locked: the holder never took the lock"
	kill "$holder" 2> /dev/null
fi
site_same "after the wait"
