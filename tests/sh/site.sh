#!/bin/sh
# tests/sh/site.sh - the built site as a whole:
#   1. golden: the small session's site equals tests/golden/small/
#      (make regen-golden rewrites it; review with git diff);
#   2. links: every href/src resolves to a file of the site, nothing
#      points outside it but the author's links in the notes
#      (build/tools/linkcheck), for the small session and, when the
#      committed reference archive is there, for it too;
#   3. determinism: two builds of the same archive give byte-identical
#      trees, whatever -j; a rebuild over the previous site (which
#      reuses unchanged runs) gives the same pages as a fresh build;
#   4. a failed build leaves the previous site as it was, with the
#      diagnostic located at the bad timeline line, and no temporary
#      directory behind;
#   5. a build killed half-way (SIGKILL: nothing of erg's runs) leaves its
#      temporary tree; the next build removes it with a warning, but not
#      a tree another build is still writing (it holds an flock), nor a
#      look-alike without the marker erg writes first into its trees.
# Environment: ERG, BUILD, ERG_SRC, SHARED (set by tests/run.sh).
T=site
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

# 1. golden (the build cache, keyed by where the archive is, is not
# part of the comparison)
mkdir -p "$tmp/a/2023-11"
"$b/tools/mksmall" "$tmp/a/2023-11/small"
if sh "$ERG_SRC/tests/golden/build-small.sh" "$tmp/site" "$tmp/a" -j 1 2> "$tmp/err"; then
	ok "small session builds"
else
	notok "small session builds"
	show "$tmp/err"
fi
if [ ! -d "$ERG_SRC/tests/golden/small" ]; then
	notok "golden: tests/golden/small is missing (run make regen-golden)"
elif diff -r -x .erg-cache "$ERG_SRC/tests/golden/small" "$tmp/site" > "$tmp/diff" 2>&1; then
	ok "golden: the site equals tests/golden/small ($(find "$ERG_SRC/tests/golden/small" -type f | wc -l | tr -d ' ') files)"
else
	notok "golden: the site differs from tests/golden/small (make regen-golden, then review)"
	show "$tmp/diff"
fi

# 2. links
LINKCHECK_SCRIPT="$ERG_SRC/templates/views-p-sort.html:$ERG_SRC/templates/views-search.html" "$b/tools/linkcheck" "$tmp/site" || true
# The committed archive (the reference session and whatever else is
# there), when present: it must build, and its pages link correctly too.
if ls "$ERG_SRC"/archive/*/* > /dev/null 2>&1; then
	if "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/ref" \
		--templates "$ERG_SRC/templates" 2> "$tmp/err"; then
		ok "the committed archive builds"
		LINKCHECK_SCRIPT="$ERG_SRC/templates/views-p-sort.html:$ERG_SRC/templates/views-search.html" "$b/tools/linkcheck" "$tmp/ref" | sed 's/links: /links: archive: /' || true
		# Nothing in its pages refers to the network either, outside
		# the notes (checked by linkcheck), in any URL attribute.
		find "$tmp/ref" -name '*.html' > "$tmp/pages"
		hits=0
		while read -r page; do
			sed '/<!--notes-->/,/<!--\/notes-->/d' "$page" |
				grep -q -i -E '(href|src)="(https?:)?//|url\((["'\'']?)(https?:)?//' &&
				hits=$((hits + 1))
		done < "$tmp/pages"
		if [ "$hits" -eq 0 ]; then
			ok "archive pages refer to nothing outside the site"
		else
			notok "archive pages refer to the network ($hits pages)"
		fi
	else
		notok "the committed archive builds"
		show "$tmp/err"
	fi
fi

# 3. determinism
sh "$ERG_SRC/tests/golden/build-small.sh" "$tmp/site2" "$tmp/a" -j 4 2> /dev/null
if diff -r -x folders "$tmp/site" "$tmp/site2" > "$tmp/diff" 2>&1; then
	ok "determinism: two builds (-j 1, -j 4) are byte-identical"
else
	notok "determinism: two builds (-j 1, -j 4) differ"
	show "$tmp/diff"
fi
# A second run appears: the first is reused from the previous site (its
# results.json read back, its files linked), the index is rendered
# again; the outcome must equal a fresh build.
cp -R "$tmp/site" "$tmp/site3"
"$b/tools/mksmall" "$tmp/a/2023-11/small2"
sh "$ERG_SRC/tests/golden/build-small.sh" "$tmp/site3" "$tmp/a" 2> /dev/null
sh "$ERG_SRC/tests/golden/build-small.sh" "$tmp/site4" "$tmp/a" 2> /dev/null
if [ -f "$tmp/site3/runs/2023-11/small2/index.html" ] &&
	diff -r -x folders "$tmp/site4" "$tmp/site3" > "$tmp/diff" 2>&1; then
	ok "determinism: a rebuild over the previous site equals a fresh build"
else
	notok "determinism: a rebuild over the previous site differs from a fresh build"
	show "$tmp/diff"
fi

# 4. a failed build leaves the previous site intact
mkdir -p "$tmp/good/2023-11" "$tmp/bad/2023-11"
"$b/tools/mksmall" "$tmp/good/2023-11/small"
"$b/tools/mksmall" "$tmp/bad/2023-11/small" bad-json-line
"$ERG" build --quiet --archive "$tmp/good" --out "$tmp/out" --templates "$ERG_SRC/templates" 2> /dev/null
sums() { (cd "$1" && find . -type f | sort | xargs cksum); }
sums "$tmp/out" > "$tmp/before"
"$ERG" build --quiet --archive "$tmp/bad" --out "$tmp/out" --templates "$ERG_SRC/templates" \
	2> "$tmp/err"
rc=$?
if [ "$rc" -ne 0 ]; then
	ok "failure: a broken archive fails the build (status $rc)"
else
	notok "failure: a broken archive fails the build (status 0)"
fi
if grep -q 'erg: .*timeline\.jsonl:[0-9][0-9]*: error: ' "$tmp/err"; then
	ok "failure: the diagnostic names the timeline line"
else
	notok "failure: the diagnostic names the timeline line"
	show "$tmp/err"
fi
sums "$tmp/out" > "$tmp/after"
if [ -s "$tmp/before" ] && cmp -s "$tmp/before" "$tmp/after"; then
	ok "failure: the previous site is unchanged ($(wc -l < "$tmp/before" | tr -d ' ') files)"
else
	notok "failure: the previous site changed"
	diff "$tmp/before" "$tmp/after" > "$tmp/diff" 2>&1
	show "$tmp/diff"
fi
left=$(find "$tmp" -maxdepth 1 -name 'out.tmp-*' | wc -l | tr -d ' ')
if [ "$left" -eq 0 ]; then
	ok "failure: no temporary directory left beside the site"
else
	notok "failure: $left temporary director(y/ies) left beside the site"
fi

# 5. temporary trees of killed builds
"$ERG" build --quiet --archive "$tmp/good" --out "$tmp/k" --templates "$ERG_SRC/templates" 2> /dev/null
mkdir -p "$tmp/k.tmp-AbC123/runs" "$tmp/k.tmp-busy12" "$tmp/k.tmp-young1" "$tmp/k.tmp-toolong1" \
	"$tmp/k.tmp-Empty1" "$tmp/k.tmp-Users1/notes"
# A killed build's tree carries the marker erg writes first thing (or is
# empty, killed before); k.tmp-Users1 only looks like one.
cp "$tmp/k/.erg-site" "$tmp/k.tmp-AbC123/.erg-site"
echo half > "$tmp/k.tmp-AbC123/runs/x.html"
echo mine > "$tmp/k.tmp-Users1/notes/keep.md"
touch -d '2 minutes ago' "$tmp/k.tmp-AbC123" "$tmp/k.tmp-busy12" "$tmp/k.tmp-toolong1" \
	"$tmp/k.tmp-Empty1" "$tmp/k.tmp-Users1"
# k.tmp-busy12 is locked by a living process; k.tmp-young1 is too new to
# tell from a build between its mkdtemp and its flock; k.tmp-toolong1 is
# not a name mkdtemp makes for this site; k.tmp-Users1 has no marker.
flock -o "$tmp/k.tmp-busy12" sleep 5 > /dev/null 2>&1 &
holder=$!
sleep 0.3
"$ERG" build --archive "$tmp/good" --out "$tmp/k" --templates "$ERG_SRC/templates" 2> "$tmp/err"
rc=$?
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null
if [ "$rc" -eq 0 ] && [ ! -e "$tmp/k.tmp-AbC123" ] && [ ! -e "$tmp/k.tmp-Empty1" ] &&
	grep -q "^erg: warning: removed '$tmp/k.tmp-AbC123', left behind by an interrupted build$" "$tmp/err" &&
	grep -q "^erg: warning: removed '$tmp/k.tmp-Empty1', left behind by an interrupted build$" "$tmp/err"; then
	ok "stale: a killed build's temporary trees (with the marker, or empty) are removed, with a warning"
else
	notok "stale: a killed build's temporary tree (status $rc)"
	show "$tmp/err"
fi
if [ -d "$tmp/k.tmp-busy12" ] && [ -d "$tmp/k.tmp-young1" ] && [ -d "$tmp/k.tmp-toolong1" ] &&
	[ "$(cat "$tmp/k.tmp-Users1/notes/keep.md")" = mine ] &&
	[ "$(grep -c removed "$tmp/err")" -eq 2 ]; then
	ok "stale: locked, recent, foreign and unmarked directories are left alone"
else
	notok "stale: removed a directory it should have left alone"
	show "$tmp/err"
fi
left=$(find "$tmp" -maxdepth 1 -name 'k.tmp-*' | wc -l | tr -d ' ')
[ "$left" -eq 4 ] && ok "stale: nothing else left beside the site" ||
	notok "stale: $left directories beside the site, want the 4 left alone"
exit 0
