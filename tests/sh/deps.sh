#!/bin/sh
# tests/sh/deps.sh - rebuilds render what changed (issue 19): the views'
# dependency record (OUT/.erg-cache/deps) carries over every cross-run
# page whose inputs are unchanged.  An archive of 24 runs over three
# machines (tests/tools/mkarchive; host-002's sessions name their second
# target "gamma").  For each change, `erg build --explain` lists what it
# rendered, and
#   - that list equals the set the test expects: for a changed run, from
#     the archive (its run folder, its machine's pages, its targets'
#     pages, the diff pages that name it, the compare page, the pages
#     every build renders); for an added or removed run and for a changed
#     targets.txt, the folders of pages that name the run (or that are
#     new, or whose bytes changed) in a full build;
#   - the site equals a full build of the same archive, byte for byte
#     (diff -r, the cache included).
# Then a record that does not parse, or names a file outside its unit,
# carries nothing over, and a planted link is not followed.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=deps
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH

a=$tmp/archive
site=$tmp/site
sum=$ERG_SRC/archive/apple-m4/2026-11-07-hello-server
"$b/tools/mksmall" "$tmp/small" > /dev/null
# Copies, not mkarchive's hard links: removing a run would change the
# ctime, and so the key, of every run that links the same files.
"$b/tools/mkarchive" "$tmp/linked" 24 "$tmp/small" "$tmp/small" "$sum" 3
cp -R "$tmp/linked" "$a"
for f in "$a"/host-002/*/timeline.jsonl; do
	sed 's|"framework":"beta"|"framework":"gamma"|g' "$f" > "$tmp/tl" && mv "$tmp/tl" "$f"
done

build() { "$ERG" build --quiet --archive "$a" --out "$@"; }

# The folders of what --explain listed ("runs/ID/" stays a folder).
rendered() {
	sed -n 's|^erg: rendered ||p' "$1" | sed -e 's|/[^/]*\.[a-z]*$||' -e 's|/$||' \
		-e 's|^[^/]*\.[a-z]*$|.|' | sort -u
}
# The folders of the site's pages (not runs/, not the cache).
folders() {
	(cd "$1" && find . -path ./runs -prune -o -path ./.erg-cache -prune -o -type f -print) |
		sed -e 's|^\./||' -e 's|^[^/]*$|.|' -e 's|/[^/]*$||' | sort -u
}
# Those of site $1 whose pages name text $2.
naming() {
	(cd "$1" && grep -rlF --exclude-dir=runs --exclude-dir=.erg-cache -e "$2" .) |
		sed -e 's|^\./||' -e 's|^[^/]*$|.|' -e 's|/[^/]*$||' | sort -u
}
# Those whose pages differ between sites $1 and $2, or are only in $2.
changed() {
	(cd "$2" && find . -path ./runs -prune -o -path ./.erg-cache -prune -o -type f -print) |
		sed 's|^\./||' | while read -r f; do
		cmp -s "$1/$f" "$2/$f" || echo "$f"
	done | sed -e 's|^[^/]*$|.|' -e 's|/[^/]*$||' | sort -u
}
# Every build renders these: index.html, the lists, the search.
always() { printf '.\nmachines\ntargets\ndiffs\nsearch\n'; }

# covers NAME: every folder whose pages changed since $tmp/old was rendered
covers() {
	changed "$tmp/old" "$site" > "$tmp/changed"
	rendered "$tmp/explain" > "$tmp/got"
	if [ -z "$(comm -23 "$tmp/changed" "$tmp/got")" ]; then
		ok "$1: every changed page was rendered"
	else
		notok "$1: changed but not rendered: $(comm -23 "$tmp/changed" "$tmp/got" | tr '\n' ' ')"
	fi
}
# expect NAME FILE: what --explain listed equals FILE's folders
expect() {
	rendered "$tmp/explain" > "$tmp/got"
	sort -u "$2" > "$tmp/want"
	if cmp -s "$tmp/got" "$tmp/want"; then
		ok "$1: rendered exactly $(wc -l < "$tmp/want" | tr -d ' ') folders"
	else
		notok "$1: rendered folders differ from the expected ones (< rendered, > expected)"
		diff "$tmp/got" "$tmp/want" > "$tmp/d"
		show "$tmp/d"
	fi
}

if build "$site" 2> "$tmp/err"; then
	ok "full build"
else
	notok "full build"
	show "$tmp/err"
fi
if [ -f "$site/.erg-cache/deps" ] && grep -q '^unit [0-9a-f]\{64\} .* machines/host-000/$' \
	"$site/.erg-cache/deps"; then
	ok "the dependency record is in the cache"
else
	notok "no dependency record"
fi
build "$site" --explain 2> "$tmp/explain"
if ! grep -q rendered "$tmp/explain"; then
	ok "no-op: nothing rendered"
else
	notok "no-op rendered something"
	show "$tmp/explain"
fi

# 1. one run changed: a small session of host-001 gets a new title
run=$(cd "$a" && ls -d host-001/*-small-* | sed -n 2p)
meta=$a/$run/meta.json
sed 's/"title": "[^"]*"/"title": "Retitled run"/' "$meta" > "$tmp/meta" && mv "$tmp/meta" "$meta"
cp -R "$site" "$tmp/old"
build "$site" --explain 2> "$tmp/explain"
site_same "change"
# expected from the archive: the run, its machine (meta.json machine.id),
# its targets (the timeline's "framework" names, their own slugs), the diff
# pages naming it (consecutive sessions of one machine: folder A_vs_B of
# the ids, '/' to '-'), compare/ (one page: fewer than 100 runs)
{
	always
	echo "runs/$run"
	echo compare
	sed -n 's/.*"id": *"\([^"]*\)".*/machines\/\1/p' "$meta"
	grep -o '"framework":"[^"]*"' "$a/$run/timeline.jsonl" | sort -u |
		sed -e 's/"framework":"//' -e 's/"$//' -e 's/^/targets\//'
	slug=$(echo "$run" | tr / -)
	(cd "$tmp/fresh" && ls -d diffs/*/) | sed 's|/$||' |
		grep -E "^diffs/($slug)_vs_|_vs_($slug)\$"
} > "$tmp/expect"
if [ "$(grep -c '^diffs/' "$tmp/expect")" -ge 1 ] && grep -q '^targets/alpha$' "$tmp/expect"; then
	ok "change: the run has diffs and targets to carry"
else
	notok "change: the test archive lacks what the test needs"
	show "$tmp/expect"
fi
expect "change (from the archive)" "$tmp/expect"
{ always; echo "runs/$run"; naming "$site" "runs/$run/index.html"; } > "$tmp/expect2"
expect "change (the pages naming the run)" "$tmp/expect2"
covers "change"
n=$(grep -c '^erg: rendered diffs/.*_vs_' "$tmp/explain")
total=$(ls -d "$site"/diffs/*/ | wc -l)
if [ "$n" -lt "$total" ] && [ "$(grep -c '^erg: rendered machines/host' "$tmp/explain")" -eq 1 ]; then
	ok "change: $n of $total diff pages and one machine page rendered"
else
	notok "change: $n of $total diff pages rendered"
fi

# 2. one run added to host-000 (a new year: 2027)
rm -rf "$tmp/old"
cp -R "$site" "$tmp/old"
"$b/tools/mkarchive" --one small "$tmp/small" "$a/host-000/2027-01-01-small-added" host-000 \
	2027-01-01T00:00:00Z "Added run"
build "$site" --explain 2> "$tmp/explain"
site_same "add"
{ always; echo "runs/host-000/2027-01-01-small-added"; changed "$tmp/old" "$site";
  naming "$site" "runs/host-000/2027-01-01-small-added/index.html"; } > "$tmp/expect"
expect "add" "$tmp/expect"
covers "add"
if ! grep -q '^erg: rendered machines/host-001/' "$tmp/explain" &&
	grep -q '^erg: rendered machines/host-000/' "$tmp/explain"; then
	ok "add: its machine rendered, another not"
else
	notok "add: machine pages"
fi

# 3. a run removed (the one changed above)
rm -rf "$tmp/old"
cp -R "$site" "$tmp/old"
rm -rf "${a:?}/$run"
build "$site" --explain 2> "$tmp/explain"
site_same "remove"
{ always; changed "$tmp/old" "$site"; naming "$tmp/old" "runs/$run/index.html" |
	while read -r d; do [ -d "$site/$d" ] && echo "$d"; done; } > "$tmp/expect"
expect "remove" "$tmp/expect"
covers "remove"

# 4. targets.txt makes "gamma" (host-002's) one with a new canonical name:
# whatever lists it renders again, host-000's and host-001's pages do not
rm -rf "$tmp/old"
cp -R "$site" "$tmp/old"
printf 'gamma = Gamma server\n' > "$a/targets.txt"
build "$site" --explain 2> "$tmp/explain"
site_same "targets.txt"
# expected from the archive: the pages of every run naming gamma (its
# machine, the diffs naming it), gamma's page under its new name, compare/
{
	always
	echo compare
	echo targets/gamma-server
	grep -l '"framework":"gamma"' "$a"/*/*/timeline.jsonl | while read -r f; do
		d=${f%/timeline.jsonl}
		sed -n 's/.*"id": *"\([^"]*\)".*/machines\/\1/p' "$d/meta.json"
		slug=$(echo "${d#"$a"/}" | tr / -)
		(cd "$site" && ls -d diffs/*/) | sed 's|/$||' |
			grep -E "^diffs/($slug)_vs_|_vs_($slug)\$"
	done
} > "$tmp/expect"
expect "targets.txt" "$tmp/expect"
covers "targets.txt"
if grep -q '^erg: rendered targets/gamma-server/' "$tmp/explain" &&
	grep -q '^erg: rendered machines/host-002/' "$tmp/explain" &&
	! grep -q '^erg: rendered machines/host-00[01]/' "$tmp/explain" &&
	! grep -q '^erg: rendered targets/alpha/' "$tmp/explain" &&
	grep -q '^inputs targets.txt' "$site/.erg-cache/deps"; then
	ok "targets.txt: the pages of gamma rendered, the others carried"
else
	notok "targets.txt: rendered the wrong pages"
	show "$tmp/explain"
fi

# 5. the record is untrusted: one that does not parse, or whose unit names
# a file outside it, carries nothing over; a planted link is not followed
touch "$a/host-000/2027-01-01-small-added/meta.json"
printf 'secret\n' > "$tmp/private"
sed 's|^machines/host-001/index.html$|../../private|' "$site/.erg-cache/deps" > "$tmp/deps"
cp "$tmp/deps" "$site/.erg-cache/deps"
build "$site" --explain 2> "$tmp/explain"
if grep -q '^erg: rendered machines/host-001/index.html' "$tmp/explain" &&
	grep -q '^erg: rendered targets/alpha/' "$tmp/explain"; then
	ok "a record naming a file outside its unit is not used"
else
	notok "a bad record was used"
fi
site_same "after a bad record"
touch "$a/host-000/2027-01-01-small-added/meta.json"
rm "$site/machines/host-001/index.html"
ln -s "$tmp/private" "$site/machines/host-001/index.html"
build "$site" --explain 2> "$tmp/explain"
if grep -q '^erg: rendered machines/host-001/index.html' "$tmp/explain" &&
	! grep -q secret "$site/machines/host-001/index.html" && [ ! -L "$site/machines/host-001/index.html" ]; then
	ok "a planted link is rendered over, not followed"
else
	notok "a planted link was followed or kept"
fi
site_same "after a planted link"

# 6. the page size (ERG_PAGE_ROWS, for the tests) is part of the cache's
# key: lists paged at 2 runs are not carried into a build paged at 200
ERG_PAGE_ROWS=2
export ERG_PAGE_ROWS
build "$site" 2> "$tmp/err" || show "$tmp/err"
unset ERG_PAGE_ROWS
if [ -f "$site/machines/host-000/page-2.html" ]; then
	ok "ERG_PAGE_ROWS=2 pages the machine's runs"
else
	notok "ERG_PAGE_ROWS=2 wrote no machines/host-000/page-2.html"
fi
build "$site" --explain 2> "$tmp/explain"
if grep -q '^erg: rendered machines/host-000/index.html' "$tmp/explain" &&
	[ ! -e "$site/machines/host-000/page-2.html" ]; then
	ok "a page-size change renders the paged lists again"
else
	notok "pages of another page size were carried over"
fi
site_same "after a page-size change"
