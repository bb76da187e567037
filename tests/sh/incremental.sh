#!/bin/sh
# tests/sh/incremental.sh - rebuilding a site erg built (OUT/.erg-cache):
#   - nothing changed: "is up to date", nothing written, site unchanged;
#   - one run's input modified or only touched: that run is read again,
#     the others are reused, and the site equals a fresh full build of the
#     same archive (diff -r, the manifest included: same archive state);
#   - a run added or removed, the archive's diffs.txt written, a template
#     changed, an output file deleted, a damaged manifest, SOURCE_DATE_EPOCH
#     changed: the result equals a fresh build;
#   - the previous site tampered with (a page or a run's folder replaced by
#     a symbolic link, a FIFO as results.json, a manifest naming a file
#     outside the site): nothing is followed, read or published from it;
#   - the no-op's check of the site is a stat of each folder against the
#     folder record (OUT/.erg-cache/folders, which holds inode numbers and
#     so is left out of the comparisons): a file added to a folder, a page
#     deleted with its folder's mtime set back, a damaged record or a FIFO
#     in its place each make a build that equals a fresh one.
# Timing is measured by the benchmark (make bench), not asserted here.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=incremental
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
unset SOURCE_DATE_EPOCH

a=$tmp/archive
t=$tmp/templates
cp -R "$ERG_SRC/templates" "$t"
for r in r1 r2 r3; do
	"$b/tools/mksmall" "$a/2023/$r" > /dev/null
done
site=$tmp/site

build() { # out [extra args]: build quietly-ish, stderr in $tmp/err
	o=$1
	shift
	"$ERG" build --archive "$a" --out "$o" --templates "$t" "$@" 2> "$tmp/err"
}
sums() { (cd "$1" && find . -type f | sort | xargs cksum); }
# The site equals a fresh build of the archive as it is now.
same_as_fresh() { # what
	rm -rf "$tmp/fresh"
	"$ERG" build --quiet --archive "$a" --out "$tmp/fresh" --templates "$t" 2> /dev/null
	if diff -r -x folders "$site" "$tmp/fresh" > "$tmp/diff" 2>&1; then
		ok "$1: site equals a fresh full build"
	else
		notok "$1: site differs from a fresh full build"
		show "$tmp/diff"
	fi
}
expect_err() { # what pattern
	if grep -q "$2" "$tmp/err"; then
		ok "$1: says '$2'"
	else
		notok "$1: expected '$2'"
		show "$tmp/err"
	fi
}

if build "$site"; then
	ok "first build"
else
	notok "first build"
	show "$tmp/err"
fi
if [ -f "$site/.erg-cache/manifest" ]; then
	ok "the site carries its manifest"
else
	notok "no $site/.erg-cache/manifest"
fi

# 1. no-op
sums "$site" > "$tmp/before"
ls -id "$site" > "$tmp/inode-before"
build "$site"
expect_err "no change" "^erg: '.*' is up to date (3 runs)$"
sums "$site" > "$tmp/after"
ls -id "$site" > "$tmp/inode-after"
if cmp -s "$tmp/before" "$tmp/after" && cmp -s "$tmp/inode-before" "$tmp/inode-after"; then
	ok "no change: the site is left as it was (not even swapped)"
else
	notok "no change: the site was rewritten"
fi
if [ -z "$(ls -d "$tmp"/site.tmp-* 2> /dev/null)" ]; then
	ok "no change: no temporary tree"
else
	notok "no change: temporary tree left"
fi
build "$site" --quiet
if [ ! -s "$tmp/err" ]; then
	ok "no change, --quiet: silent"
else
	notok "no change, --quiet: printed something"
	show "$tmp/err"
fi

# 1b. what the no-op's folder check sees (the site is up to date here)
printf 'stray\n' > "$site/runs/2023/r1/stray.html"
build "$site"
expect_err "a file added to the site" "^erg: built 3 runs into '.*' (3 unchanged)$"
if [ ! -e "$site/runs/2023/r1/stray.html" ]; then
	ok "a file added to the site: gone after the build"
else
	notok "a file added to the site: still there"
fi
same_as_fresh "a file added to the site"
touch -r "$site/runs/2023/r2" "$tmp/stamp"
rm "$site/runs/2023/r2/index.html"
touch -r "$tmp/stamp" "$site/runs/2023/r2"
build "$site"
expect_err "a page deleted, its folder's mtime set back" "(2 unchanged)"
same_as_fresh "a page deleted, its folder's mtime set back"
printf 'erg-folders 1 %064d\n' 0 > "$site/.erg-cache/folders"
build "$site"
expect_err "a damaged folder record" "^erg: built 3 runs into '.*' (3 unchanged)$"
same_as_fresh "a damaged folder record"
rm "$site/.erg-cache/folders"
mkfifo "$site/.erg-cache/folders"
timeout 60 "$ERG" build --archive "$a" --out "$site" --templates "$t" 2> "$tmp/err"
st=$?
expect_err "a FIFO as the folder record" "^erg: built 3 runs into '.*' (3 unchanged)$"
if [ "$st" -eq 0 ] && [ -z "$(find "$site" -type p)" ]; then
	ok "a FIFO as the folder record: not read, none left in the site"
else
	notok "a FIFO as the folder record: status $st"
fi
build "$site"
expect_err "after the folder checks" "is up to date"

# 2. one run's input modified: only its results change
cp "$site/runs/2023/r1/results.json" "$tmp/r1.before"
cp "$site/runs/2023/r2/results.json" "$tmp/r2.before"
printf '\nOne more line of notes.\n' >> "$a/2023/r2/notes.md"
build "$site"
expect_err "r2 notes modified" "^erg: built 3 runs into '.*' (2 unchanged)$"
if cmp -s "$tmp/r1.before" "$site/runs/2023/r1/results.json" &&
	! cmp -s "$tmp/r2.before" "$site/runs/2023/r2/results.json" &&
	grep -q 'One more line of notes' "$site/runs/2023/r2/results.json"; then
	ok "r2 notes modified: r2's results changed, r1's did not"
else
	notok "r2 notes modified: results of the wrong runs changed"
fi
same_as_fresh "r2 notes modified"
# Reused files are copies: a page written again later must never write
# through a link into the site being replaced.
if [ -z "$(find "$site" -type f -links +1)" ]; then
	ok "r2 notes modified: reused files are copies, not links"
else
	notok "r2 notes modified: files with several links in the site"
fi

# 3. touched only: read again, same content
touch "$a/2023/r3/power.plist"
build "$site"
expect_err "r3 touched" "(2 unchanged)"
same_as_fresh "r3 touched"

# 4. a load file rewritten in place, same size, its mtime put back
f=$a/2023/r1/bombardier/r1-s1-alpha-a.json
touch -r "$f" "$tmp/stamp"
cp "$site/runs/2023/r1/results.json" "$tmp/r1.before"
sed 's/"mean": 250.5/"mean": 260.5/' "$f" > "$tmp/x" && cat "$tmp/x" > "$f"
touch -r "$tmp/stamp" "$f"
build "$site"
expect_err "r1 load file rewritten, mtime restored" "(2 unchanged)"
if ! cmp -s "$tmp/r1.before" "$site/runs/2023/r1/results.json"; then
	ok "r1 load file rewritten, mtime restored: r1's results changed"
else
	notok "r1 load file rewritten, mtime restored: r1's results did not change"
fi
same_as_fresh "r1 load file rewritten, mtime restored"

# 5. a run added, then one removed
"$b/tools/mksmall" "$a/2024/r4" > /dev/null
build "$site"
expect_err "r4 added" "^erg: built 4 runs into '.*' (3 unchanged)$"
same_as_fresh "r4 added"
rm -rf "$a/2023/r1"
build "$site"
expect_err "r1 removed" "^erg: built 3 runs into '.*' (3 unchanged)$"
if [ ! -e "$site/runs/2023/r1" ]; then
	ok "r1 removed: its pages are gone"
else
	notok "r1 removed: its pages are still there"
fi
same_as_fresh "r1 removed"

# 5b. an archive file outside the runs (diffs.txt, read by the views)
printf '2023/r2 2023/r3\n' > "$a/diffs.txt"
build "$site"
expect_err "diffs.txt added" "^erg: built 3 runs into '.*' (3 unchanged)$"
same_as_fresh "diffs.txt added"
build "$site"
expect_err "diffs.txt unchanged" "is up to date"
printf '2023/r3 2024/r4\n' > "$a/diffs.txt"
build "$site"
expect_err "diffs.txt changed" "(3 unchanged)"
same_as_fresh "diffs.txt changed"

# 6. a template changed: every run is rendered again
printf '\n' >> "$t/run.html"
build "$site"
expect_err "template changed" "^erg: built 3 runs into '[^']*'$"
same_as_fresh "template changed"

# 7. SOURCE_DATE_EPOCH (the footer's build date) changed
SOURCE_DATE_EPOCH=1700000000 build "$site"
expect_err "SOURCE_DATE_EPOCH set" "^erg: built 3 runs into '[^']*'$"
rm -rf "$tmp/fresh"
SOURCE_DATE_EPOCH=1700000000 "$ERG" build --quiet --archive "$a" --out "$tmp/fresh" --templates "$t"
if diff -r -x folders "$site" "$tmp/fresh" > "$tmp/diff" 2>&1; then
	ok "SOURCE_DATE_EPOCH set: site equals a fresh full build"
else
	notok "SOURCE_DATE_EPOCH set: site differs from a fresh full build"
	show "$tmp/diff"
fi
build "$site"
expect_err "SOURCE_DATE_EPOCH unset again" "^erg: built 3 runs into '[^']*'$"

# 8. an output file deleted from the site: restored
rm "$site/runs/2023/r2/index.html"
build "$site"
expect_err "page deleted" "(2 unchanged)"
same_as_fresh "page deleted"
rm "$site/index.html"
build "$site"
expect_err "index deleted" "(3 unchanged)"
same_as_fresh "index deleted"

# 9. a damaged or missing manifest: a full build, no error
printf 'erg-cache 3\nglobal zz\n' > "$site/.erg-cache/manifest"
if build "$site" && grep -q "^erg: built 3 runs into '[^']*'$" "$tmp/err"; then
	ok "damaged manifest: full build"
else
	notok "damaged manifest"
	show "$tmp/err"
fi
same_as_fresh "damaged manifest"
rm -rf "$site/.erg-cache"
if build "$site" && grep -q "^erg: built 3 runs into '[^']*'$" "$tmp/err"; then
	ok "no manifest: full build"
else
	notok "no manifest"
	show "$tmp/err"
fi

# 10. a failing run after an incremental build: previous site intact
sums "$site" > "$tmp/before"
"$b/tools/mksmall" "$a/2025/bad" bad-json-line > /dev/null
if build "$site"; then
	notok "broken run: build succeeded"
else
	ok "broken run: build fails"
fi
sums "$site" > "$tmp/after"
if cmp -s "$tmp/before" "$tmp/after"; then
	ok "broken run: previous site unchanged"
else
	notok "broken run: previous site changed"
fi
rm -rf "$a/2025"
build "$site"
expect_err "broken run removed" "is up to date"

# 11. the previous site is not trusted: a page replaced by a symbolic link
# to a private file, a run's folder by a link to a doctored copy, a FIFO
# in place of a results.json.  Nothing is followed or read (a read of the
# FIFO would never end): the three runs are rendered afresh.
mkdir -p "$tmp/private"
printf '<p>SECRET-FILE</p>\n' > "$tmp/private/page.html"
rm "$site/runs/2023/r2/index.html"
ln -s "$tmp/private/page.html" "$site/runs/2023/r2/index.html"
cp -R "$site/runs/2023/r3" "$tmp/private/r3"
printf '<p>SECRET-DIR</p>\n' > "$tmp/private/r3/index.html"
rm -rf "$site/runs/2023/r3"
ln -s "$tmp/private/r3" "$site/runs/2023/r3"
rm "$site/runs/2024/r4/results.json"
mkfifo "$site/runs/2024/r4/results.json"
sums "$tmp/private" > "$tmp/private.before"
timeout 60 "$ERG" build --archive "$a" --out "$site" --templates "$t" 2> "$tmp/err"
st=$?
expect_err "planted links and FIFO" "^erg: built 3 runs into '[^']*'$"
if [ "$st" -eq 0 ] && [ -z "$(find "$site" -type l -o -type p)" ] &&
	! grep -r -q SECRET "$site"; then
	ok "planted links and FIFO: not followed, not published, none left in the site"
else
	notok "planted links and FIFO: status $st, or a link, a FIFO or planted text in the site"
fi
sums "$tmp/private" > "$tmp/private.after"
if cmp -s "$tmp/private.before" "$tmp/private.after"; then
	ok "planted links: their targets are untouched"
else
	notok "planted links: their targets changed"
fi
same_as_fresh "planted links and FIFO"
# A manifest naming a file outside the site ("..") is refused as a whole:
# a full build, nothing copied from outside.
printf 'LEAKED\n' > "$tmp/leak.html"
perl -i -pe 's{^(run [0-9a-f]{64}) (\d+) (2023/r2)$}{"$1 " . ($2 + 1) . " $3\n../../../../leak.html"}e' \
	"$site/.erg-cache/manifest"
if grep -q '^\.\./\.\./\.\./\.\./leak\.html$' "$site/.erg-cache/manifest" && build "$site" &&
	grep -q "^erg: built 3 runs into '[^']*'$" "$tmp/err" && ! grep -r -q LEAKED "$site" &&
	[ "$(cat "$tmp/leak.html")" = LEAKED ]; then
	ok "manifest naming '..': refused, full build, nothing copied from outside"
else
	notok "manifest naming '..'"
	show "$tmp/err"
fi
same_as_fresh "manifest naming '..'"
# 12. limits are not in the key: raising one reuses every run (the
# manifest records the new limits), lowering one reads every run again (a
# cached run must meet the lower limit too), and back to the default the
# runs built under the lower one are reused.  --max-runs is in no key.
build "$site"
build "$site" --max-rows 200000
expect_err "a limit raised: every run reused" "(3 unchanged)$"
build "$site" --max-rows 200000 --max-runs 5000000
expect_err "--max-runs raised" "is up to date"
build "$site" --max-rows 5
expect_err "a limit lowered: every run read again" "^erg: built 3 runs into '[^']*'$"
build "$site"
expect_err "back to the default limits: runs reused" "(3 unchanged)$"
same_as_fresh "back to the default limits"

# 13. the runs' summaries and records in OUT/.erg-cache are as untrusted
# as the rest: a FIFO in place of one is not opened; that run is rendered
# afresh.
for ext in json rec; do
	s1=$(find "$site/.erg-cache/runs" -name "*.$ext" | sort | head -n 1)
	touch "$a/2023/r2/meta.json"
	rm "$s1"
	mkfifo "$s1"
	timeout 60 "$ERG" build --archive "$a" --out "$site" --templates "$t" 2> "$tmp/err"
	st=$?
	if [ "$st" -eq 0 ] && [ -z "$(find "$site" -type p)" ]; then
		ok "FIFO as a run's cached .$ext: not read, none left in the site"
	else
		notok "FIFO as a run's cached .$ext: status $st"
		show "$tmp/err"
	fi
	same_as_fresh "FIFO as a run's cached .$ext"
done

# 14. a run's record that does not read back (truncated, wrong magic) is
# erg's own cache damaged: a located error, not a record with defaults
# in it nor a silent rebuild; the previous site is left as it was.
build "$site"
h=$(printf '%s' 2024/r4 | sha256sum | cut -d' ' -f1)
rec=$site/.erg-cache/runs/$h.rec
for damage in truncated magic; do
	if [ "$damage" = truncated ]; then
		head -c 100 "$rec" > "$tmp/rec"
		want="^erg: $site/.erg-cache/runs/$h.rec:@44: error: run record of 100 bytes where its counts take [0-9]*\$"
	else
		{ printf 'ERG'; tail -c +4 "$rec"; } > "$tmp/rec"
		want="^erg: $site/.erg-cache/runs/$h.rec:@0: error: not a run record of erg (no 'erg-rec' at its start)\$"
	fi
	cp "$rec" "$tmp/rec.good"
	cat "$tmp/rec" > "$rec"
	touch "$a/2023/r2/meta.json"
	sums "$site" > "$tmp/before"
	if ! build "$site" && grep -q "$want" "$tmp/err" && sums "$site" | cmp -s - "$tmp/before"; then
		ok "a $damage record: located error, the previous site as it was"
	else
		notok "a $damage record: expected '$want'"
		show "$tmp/err"
	fi
	cp "$tmp/rec.good" "$rec"
done
build "$site"
same_as_fresh "the record mended"
exit 0
