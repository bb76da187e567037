#!/bin/sh
# tests/sh/views.sh - the cross-run pages of the committed archive
# (gen/render/page_views.c): machines/, targets/, compare/, diffs/.
#
# The site comes from `erg build`.  Checked:
#   - machines/apple-m5-mac17-3/ lists the two energy sessions and the
#     published-headline summary, with links to their run pages;
#   - targets/elysia/ exists, and shows the cross-device caveat;
#   - compare/ has a throughput row per target (one per targets/ page);
#   - the published-headline summary run renders (its run page with the
#     published figure 0.0958 for elysia, tables/headline.csv) and appears
#     in the compare view: a column of the throughput table and of the M5
#     energy matrix, elysia's cell holding the published 0.0958;
#   - diffs/ lists the diff page of the pair diffs.txt names (the M5
#     published headline against its session), which exists; the
#     single-round attribution pass is not paired with the main session;
#   - every page links relative, resolving files (build/tools/linkcheck).
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=views
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
check() { # description, command...
	what_=$1
	shift
	if "$@"; then ok "$what_"; else notok "$what_"; fi
}
show() { sed -n '1,20s/^/# /p' "$1"; }

if ! ls "$ERG_SRC"/archive/*/* > /dev/null 2>&1; then
	notok "the committed archive (archive/) is missing: nothing checked"
	exit 0
fi

site=$tmp/site
if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$site" \
	--templates "$ERG_SRC/templates" 2> "$tmp/err"; then
	notok "erg build of the committed archive failed: nothing checked"
	show "$tmp/err"
	exit 0
fi
check "the views of the committed archive exist" test -f "$site/compare/index.html"

m=$site/machines/apple-m5-mac17-3/index.html
check "machines/apple-m5-mac17-3/index.html exists" test -f "$m"
for r in 2026-08-26T0856-saturated 2026-08-26T1023-attrib 2026-08-26-published-headline; do
	check "the M5 machine page lists run m5-energy/$r" \
		grep -q "<tr id=\"run-m5-energy-$r\"><th scope=\"row\"><a href=\"../../runs/m5-energy/$r/index.html\">" "$m"
done
check "the M5 machine page charts its idle power across runs" grep -q 'id="chart-idle"' "$m"
check "the M5 machine page has elysia's history charts" grep -q 'id="chart-mj-elysia"' "$m"

t=$site/targets/elysia/index.html
check "targets/elysia/index.html exists" test -f "$t"
check "the target page carries the cross-device caveat" \
	grep -q 'powermetrics energy is an estimate and not comparable across devices' "$t"
check "the target page lists elysia on the Intel machine too" grep -q 'machines/intel-i7-13700k/index.html' "$t"

c=$site/compare/index.html
ntargets=$(find "$site/targets" -mindepth 1 -maxdepth 1 -type d | wc -l | tr -d ' ')
nrows=$(grep -c '<tr id="rps-' "$c")
check "compare/index.html has a row per target ($nrows rows, $ntargets targets)" \
	test "$nrows" -eq "$ntargets" -a "$ntargets" -gt 0
check "compare/index.html has the M5 energy matrix" grep -q 'id="tbl-mj-apple-m5-mac17-3"' "$c"
check "compare/index.html has exactly one script, the static sort script" \
	test "$(grep -c '<script' "$c")" -eq 1

# A summary run (figures as published) renders and takes part in compare/.
p=m5-energy/2026-08-26-published-headline
pr=$site/runs/$p/index.html
check "the summary run $p renders" \
	grep -q '<h1>Energy per request on an Apple M5: the published headline table</h1>' "$pr"
check "its run page shows elysia's published 0.0958 mJ/req" grep -q '<td class="num">0\.0958<' "$pr"
sed -n '/id="tbl-rps"/,/<\/table>/p' "$c" > "$tmp/c-rps"
sed -n '/id="tbl-mj-apple-m5-mac17-3"/,/<\/table>/p' "$c" > "$tmp/c-mj"
check "compare: the summary run is a column of the throughput table" \
	grep -q "<a href=\"../runs/$p/index.html\"" "$tmp/c-rps"
check "compare: the summary run is a column of the M5 energy matrix" \
	grep -q "<a href=\"../runs/$p/index.html\"" "$tmp/c-mj"
# the matrix's first column is the published run (date order, then kind)
check "compare: elysia's published mJ/req (0.0958) is in the M5 energy matrix" \
	grep -q '<tr id="mj-elysia"><th scope="row"><a href="../targets/elysia/index.html">elysia</a></th><td class="num" data-v="0.0958">' "$tmp/c-mj"

d=m5-energy-2026-08-26-published-headline_vs_m5-energy-2026-08-26T0856-saturated
check "diffs/index.html lists the listed M5 pair's diff" grep -q "href=\"../diffs/$d/index.html\"" "$site/diffs/index.html"
check "the diff page exists and is erg diff's" grep -q '<h1>erg diff</h1>' "$site/diffs/$d/index.html"
d=m5-energy-2026-08-26T0856-saturated_vs_m5-energy-2026-08-26T1023-attrib
check "no diff of the main session against the attribution pass" test ! -e "$site/diffs/$d"

# linkcheck allows exactly one script: erg's own sort script, byte for
# byte the text of templates/views-p-sort.html, loading nothing.
if [ -x "$b/tools/linkcheck" ]; then
	LINKCHECK_SCRIPT="$ERG_SRC/templates/views-p-sort.html:$ERG_SRC/templates/views-search.html" "$b/tools/linkcheck" "$site" > "$tmp/links" 2>&1
	nbad=$(grep -c '^not ok' "$tmp/links")
	check "every link of the site resolves and no foreign script (linkcheck: $nbad page(s) with problems)" \
		test "$nbad" -eq 0
	[ "$nbad" -eq 0 ] || grep -A3 '^not ok' "$tmp/links" | sed -n '1,20s/^/# /p'
else
	echo "# $b/tools/linkcheck not built: links not checked here"
fi
exit 0
