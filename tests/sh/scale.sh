#!/bin/sh
# tests/sh/scale.sh - what keeps a large archive's pages bounded (issue 19),
# on a small one: 520 runs of one machine over five years (tests/tools/
# mkarchive: small sessions and summary runs) and one summary run of
# another.  More runs than one compare page takes (100): compare/index.html
# lists a page per machine and year, a year of more than 100 runs is split
# (2024, 2024-2), no compare page is above 2 MB, every run is a column of
# exactly one page, each page links to its machine's other periods, and
# every link resolves.  The runs' summaries are in the cache, not the
# site.  Then one run changed: it alone is read again, and the site equals
# a full build of the changed archive, byte for byte.  Machine and target
# pages list 200 runs a page; with ERG_PAGE_ROWS=60, every run is on one
# page of each list, newest first, with the navigation, and the history
# chart of 396 runs is one path holding each; the diffs are listed per
# machine; the index shows the newest 50 runs and links to the run lists
# of every machine and year (years/<year>/, paged alike).  Last, 40 runs over
# 12 machines: a target with energy figures from more than 8 machines has
# one energy column beside the machine column, not a column per machine,
# and its energy charts on the machine pages, not one per machine here.
# And 120 nights of the reference session on one machine: every chart of
# its page one line (more than 400 bars and dots), no page above 2 MB.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=scale
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

a=$tmp/archive
site=$tmp/site
"$b/tools/mksmall" "$tmp/small" > /dev/null
sum=$ERG_SRC/archive/apple-m4/2026-11-07-hello-server
"$b/tools/mkarchive" "$a" 520 "$tmp/small" "$tmp/small" "$sum" 1
"$b/tools/mkarchive" --one published "$sum" "$a/other/2025-01-01-published" other-host \
	2025-01-01T00:00:00Z "Published run"
if "$ERG" build --quiet --archive "$a" --out "$site" 2> "$tmp/err"; then
	ok "build of 521 runs"
else
	notok "build of 521 runs"
	show "$tmp/err"
fi
# the compare pages: compare/<machine>/<period>/index.html
find "$site/compare" -mindepth 2 -name index.html | sed "s|^$site/compare/||" | sort > "$tmp/pages"
if grep -q '^host-000/2022/index.html$' "$tmp/pages" && grep -q '^host-000/2026/index.html$' "$tmp/pages" &&
	grep -q '^other-host/2025/index.html$' "$tmp/pages"; then
	ok "a compare page per machine and year"
else
	notok "compare pages: $(tr '\n' ' ' < "$tmp/pages")"
fi
# a year of more than 100 runs gets a second page, and only such a year
split=0
for y in 2022 2023 2024 2025 2026; do
	c=$(ls "$a/host-000" | grep -c "^$y-")
	if [ "$c" -gt 100 ]; then
		grep -q "^host-000/$y-2/index.html$" "$tmp/pages" || split=$((split + 1))
	else
		! grep -q "^host-000/$y-2/" "$tmp/pages" || split=$((split + 1))
	fi
	! grep -q "^host-000/$y-3/" "$tmp/pages" || split=$((split + 1))
done
if [ "$split" -eq 0 ] && grep -q '^host-000/2024-2/index.html$' "$tmp/pages"; then
	ok "a year of more than 100 runs is split in pages of at most 100, others are not"
else
	notok "compare pages ($split wrong): $(tr '\n' ' ' < "$tmp/pages")"
fi
total=0
over=0
while read -r p; do
	n=$(grep -o 'href="\.\./\.\./\.\./runs/[^"]*"' "$site/compare/$p" | sort -u | wc -l)
	total=$((total + n))
	[ "$n" -le 100 ] || over=$((over + 1))
done < "$tmp/pages"
if [ "$total" -eq 521 ] && [ "$over" -eq 0 ]; then
	ok "every run is in exactly one compare page, none with more than 100 runs"
else
	notok "compare pages: $total run columns in all (521 expected), $over over 100"
fi
if [ "$(grep -c 'href="host-000/[0-9-]*/index.html"' "$site/compare/index.html")" -eq \
	"$(grep -c '^host-000/' "$tmp/pages")" ]; then
	ok "compare/index.html lists every page of the machine"
else
	notok "compare/index.html does not list every compare page"
fi
p=$site/compare/host-000/2024-2/index.html
if grep -q 'href="\.\./2024/index.html">2024</a>' "$p" && grep -q '<strong>2024-2</strong>' "$p" &&
	grep -q 'href="\.\./2022/index.html"' "$p"; then
	ok "a compare page links to its machine's other periods"
else
	notok "no navigation between the periods in $p"
fi
LINKCHECK_SCRIPT="$ERG_SRC/templates/views-p-sort.html:$ERG_SRC/templates/views-search.html" \
	"$b/tools/linkcheck" "$site" > "$tmp/links" 2>&1
if [ -f "$site/index.html" ] && grep -q '^ok - links: compare/host-000/2024-2/index.html$' "$tmp/links" &&
	! grep -q '^not ok' "$tmp/links"; then
	ok "every link of the site resolves"
else
	notok "linkcheck"
	grep '^not ok' "$tmp/links" | head -n 10 > "$tmp/bad"
	show "$tmp/bad"
fi
big=$(find "$site" -name '*.html' -size +2048k | head -n 3)
if [ -f "$site/compare/index.html" ] && [ -f "$site/machines/host-000/page-3.html" ] &&
	[ -z "$big" ]; then
	ok "no page above 2 MB (a machine of 520 runs: 3 pages)"
else
	notok "pages above 2 MB: $big"
fi
rows=0
for p in $(find "$site" -name '*.html'); do
	n=$(grep -o '<tr[ >]' "$p" | wc -l)
	[ "$n" -le 5000 ] || rows=$((rows + 1))
done
if [ "$rows" -eq 0 ]; then
	ok "no page above 5,000 table rows"
else
	notok "$rows pages above 5,000 table rows"
fi
# Run lists paginated at a small size (ERG_PAGE_ROWS, for the tests):
# every run on exactly one page of each list, newest first, no page over
# the limit, the navigation between them.
ERG_PAGE_ROWS=60 "$ERG" build --quiet --archive "$a" --out "$tmp/paged" 2> "$tmp/err" ||
	show "$tmp/err"
nrun=$(ls "$a/host-000" | wc -l)
nalpha=$(ls "$a/host-000" | grep -c -e '-small-' -e '-energy-')
# list: the folder, the row id prefix, the runs expected in it
check_list() {
	dir=$1 pre=$2 want=$3 name=${1#"$tmp"/}
	np=$(ls "$dir" | grep -c '^page-[0-9]*\.html$')
	np=$((np + 1))
	: > "$tmp/ids"
	over=0 order=0 nav=0 k=1
	while [ "$k" -le "$np" ]; do
		f=$dir/page-$k.html
		[ "$k" -gt 1 ] || f=$dir/index.html
		# the rows of the list: their ids and dates, in page order
		grep -o "<tr id=\"$pre[^\"]*\"><th scope=\"row\">.*</th><td class=\"date\" data-v=\"\">[^<]*<" "$f" |
			sed 's/^<tr id="\([^"]*\)".*<td class="date" data-v="">\([^<]*\)<$/\2 \1/' > "$tmp/rows"
		n=$(wc -l < "$tmp/rows")
		[ "$n" -le 60 ] || over=$((over + 1))
		cat "$tmp/rows" >> "$tmp/ids"
		# the navigation: every page number, previous and next where they exist
		[ "$(grep -c '^<li><a href="\(index\|page-[0-9]*\)\.html">[0-9]*</a></li>$' "$f")" -eq $((np - 1)) ] &&
			grep -q "^<li><strong aria-current=\"page\">$k</strong></li>$" "$f" || nav=$((nav + 1))
		if [ "$k" -gt 1 ]; then
			prev=page-$((k - 1)).html
			[ "$k" -gt 2 ] || prev=index.html
			grep -q "<a href=\"$prev\" rel=\"prev\">" "$f" || nav=$((nav + 1))
		fi
		if [ "$k" -lt "$np" ]; then
			grep -q "<a href=\"page-$((k + 1)).html\" rel=\"next\">" "$f" || nav=$((nav + 1))
		else
			! grep -q 'rel="next"' "$f" || nav=$((nav + 1))
		fi
		k=$((k + 1))
	done
	# newest first across the pages: "date id" never rises (the date
	# holds a no-break space)
	LC_ALL=C sort -r -c "$tmp/ids" 2> /dev/null || order=1
	all=$(wc -l < "$tmp/ids")
	uniq=$(cut -d' ' -f2 "$tmp/ids" | sort -u | wc -l)
	if [ "$np" -gt 1 ] && [ "$all" -eq "$want" ] && [ "$uniq" -eq "$want" ] && [ "$over" -eq 0 ] &&
		[ "$order" -eq 0 ] && [ "$nav" -eq 0 ]; then
		ok "$name: $want runs on $np pages, each once, newest first, at most 60 a page, navigation"
	else
		notok "$name: $np pages, $all rows ($uniq distinct) of $want, $over over 60, order $order, $nav navigation faults"
	fi
}
check_list "$tmp/paged/machines/host-000" run- "$nrun"
check_list "$tmp/paged/targets/alpha" r- "$nalpha"
check_list "$tmp/paged/years/2024" run- "$(ls "$a"/* | grep -c '^2024-')"
# the index: the newest 50 runs, and the lists of every machine and year
ls "$a/host-000" | sort -r | head -n 50 | sed 's/^/run-host-000_/' | sort > "$tmp/want"
grep -o '<tr id="run-[^"]*"' "$tmp/paged/index.html" | sed 's/^<tr id="//; s/"$//' | sort > "$tmp/got"
if cmp -s "$tmp/want" "$tmp/got" && grep -q '<a href="machines/host-000/index.html">' "$tmp/paged/index.html" &&
	grep -q '<a href="years/2022/index.html">2022</a>' "$tmp/paged/index.html" &&
	[ "$(grep -c '<a href="years/[0-9]*/index.html">' "$tmp/paged/index.html")" -eq 5 ]; then
	ok "the index: the newest 50 runs, links to every machine's and year's runs"
else
	notok "the index: $(wc -l < "$tmp/got") runs, or no lists of machines and years"
fi
LINKCHECK_SCRIPT="$ERG_SRC/templates/views-p-sort.html:$ERG_SRC/templates/views-search.html" \
	"$b/tools/linkcheck" "$tmp/paged" > "$tmp/links" 2>&1
if grep -q '^ok - links: machines/host-000/page-2.html$' "$tmp/links" &&
	grep -q '^ok - links: targets/alpha/page-2.html$' "$tmp/links" && ! grep -q '^not ok' "$tmp/links"; then
	ok "every link of the paginated site resolves"
else
	notok "linkcheck of the paginated site"
	grep '^not ok' "$tmp/links" | head -n 10 > "$tmp/bad"
	show "$tmp/bad"
fi
# More diffs than a page takes: diffs/index.html lists a diff list per
# machine (diffs/by-machine/<machine>/), paged like the run lists; every
# diff page is in exactly one of them, newest first.
nd=$(find "$tmp/paged/diffs" -mindepth 1 -maxdepth 1 -type d -name '*_vs_*' | wc -l)
: > "$tmp/dl"
for f in $(ls "$tmp/paged/diffs/by-machine/host-000/"*.html | sort -V); do
	grep -o '<tr id="d-[^"]*"><th scope="row"><a href="[^"]*"' "$f" |
		sed 's|.*href="\.\./\.\./\.\./diffs/\([^/]*\)/index.html"$|\1|' >> "$tmp/dl"
done
np=$(ls "$tmp/paged/diffs/by-machine/host-000" | wc -l)
big=0
for f in "$tmp/paged/diffs/by-machine/host-000/"*.html; do
	[ "$(grep -c '<tr id="d-' "$f")" -le 60 ] || big=$((big + 1))
done
# consecutive runs of one machine: B's date, the run id's date part, falls
sed 's/.*_vs_host-000-\([0-9-]*\)-[a-z]*-[0-9]*$/\1/' "$tmp/dl" > "$tmp/dates"
if [ "$nd" -gt 60 ] && [ "$np" -gt 1 ] && [ "$big" -eq 0 ] && [ "$(wc -l < "$tmp/dl")" -eq "$nd" ] &&
	[ "$(sort -u "$tmp/dl" | wc -l)" -eq "$nd" ] && sort -r -c "$tmp/dates" 2> /dev/null &&
	grep -q 'href="by-machine/host-000/index.html"' "$tmp/paged/diffs/index.html"; then
	ok "$nd diffs on $np pages of the machine's diff list, each once, newest first"
else
	notok "diff lists: $(wc -l < "$tmp/dl") rows, $(sort -u "$tmp/dl" | wc -l) distinct of $nd, $np pages, $big over 60"
fi
# The charts of every run on page 1 only: the throughput of alpha on
# host-000, one line through each of its runs (more than 200: one path).
f=$tmp/paged/machines/host-000/index.html
d=$(sed -n 's/.*id="chart-rps-alpha".*<path class="line s[0-9]*" d="\([^"]*\)".*/\1/p' "$f")
pts=$(printf '%s' "$d" | tr 'ML' '\n\n' | grep -c '^[0-9.]*,[0-9.]*$')
if [ "$nalpha" -gt 200 ] && [ "$pts" -eq "$nalpha" ] &&
	! grep -q 'id="chart-' "$tmp/paged/machines/host-000/page-2.html"; then
	ok "the history chart of $nalpha runs is one path of $pts points, on page 1 only"
else
	notok "the history chart: $pts points of $nalpha runs"
fi
if ! ERG_PAGE_ROWS=0x10 "$ERG" build --quiet --archive "$a" --out "$tmp/bad-site" 2> "$tmp/err" &&
	grep -q "^erg: error: ERG_PAGE_ROWS must be a whole number from 1 to 1000000, not '0x10'$" "$tmp/err" &&
	[ ! -e "$tmp/bad-site/index.html" ]; then
	ok "ERG_PAGE_ROWS is read strictly"
else
	notok "ERG_PAGE_ROWS=0x10"
	show "$tmp/err"
fi
nsum=$(find "$site/.erg-cache/runs" -type f -name '*.json' | wc -l)
nrec=$(find "$site/.erg-cache/runs" -type f -name '*.rec' | wc -l)
if [ "$nsum" -eq 521 ] && [ "$nrec" -eq 521 ] &&
	[ "$(find "$site/.erg-cache/runs" | wc -l)" -eq 1043 ]; then
	ok "a summary and a record per run in the cache, in one folder"
else
	notok "summaries: $nsum, records: $nrec of 521; $(find "$site/.erg-cache/runs" | wc -l) entries"
fi
if [ -d "$site/runs" ] &&
	[ -z "$(find "$site" -path "$site/.erg-cache" -prune -o -name '*.rec' -print)" ]; then
	ok "no record published outside the cache"
else
	notok "a record in the published site"
fi
# one run changed: its title
meta=$(find "$a" -path '*-00030[0-9]/meta.json' | sort | head -n 1)
sed 's/"title": "[^"]*"/"title": "Retitled run"/' "$meta" > "$tmp/meta" && mv "$tmp/meta" "$meta"
"$ERG" build --archive "$a" --out "$site" 2> "$tmp/err"
"$ERG" build --quiet --archive "$a" --out "$tmp/fresh" 2> /dev/null
if grep -q "(520 unchanged)" "$tmp/err" && diff -r -x folders "$site" "$tmp/fresh" > "$tmp/diff" 2>&1; then
	ok "one run changed: read again alone, the site equals a full build"
else
	notok "one run changed"
	cat "$tmp/err" "$tmp/diff" > "$tmp/both"
	show "$tmp/both"
fi
# A target with energy figures from more than 8 machines: one energy
# column beside each run's machine, not a mostly empty column per machine.
"$b/tools/mkarchive" "$tmp/many" 40 "$tmp/small" "$tmp/small" "$sum" 12
"$ERG" build --quiet --archive "$tmp/many" --out "$tmp/many-site" 2> "$tmp/err"
p=$tmp/many-site/targets/alpha/index.html
nm=$(grep -o 'href="\.\./\.\./machines/[^"]*"' "$p" 2> /dev/null | sort -u | wc -l)
if [ "$nm" -gt 8 ] && [ "$(grep -o '>Energy per request<' "$p" | wc -l)" -eq 1 ] &&
	! grep -q '>Energy on ' "$p" && grep -q 'from [0-9]* machines: one column' "$p" &&
	! grep -q 'id="chart-mj-' "$p" && grep -q 'charted on each machine' "$p" &&
	grep -q 'id="chart-mj-alpha"' "$tmp/many-site/machines/host-000/index.html"; then
	ok "a target on $nm machines: one energy column, its energy charts on the machine pages"
else
	notok "a target on $nm machines: energy columns per machine, or none"
	show "$tmp/err"
fi
# 120 nights of the reference session on one machine: each chart of it a
# series of 120 bars with 5 dots a target (one a round) or 26 (one an
# idle window), a bar and its dots each drew 180-630 KB a chart, 2 MB and
# more for the machine's page.  More than SVG_MARKS_MAX (400) bars and
# dots together: one line each, said in the caption, and no page above
# 2 MB.  (Hard links to a private copy: a link changes the ctime of what
# it links, which the repository's archive must keep.)
m5=$ERG_SRC/archive/m5-energy/2026-08-26T0856-saturated
mkdir -p "$tmp/nights/box"
cp -R "$m5" "$tmp/night"
i=100
while [ $i -lt 220 ]; do
	cp -Rl "$tmp/night" "$tmp/nights/box/n$i"
	i=$((i + 1))
done
"$ERG" build --quiet --archive "$tmp/nights" --out "$tmp/nights-site" 2> "$tmp/err"
rc=$?
p=$(ls "$tmp"/nights-site/machines/*/index.html 2> /dev/null | head -n 1)
big=$(find "$tmp/nights-site" -name '*.html' -size +2048k | wc -l)
lines=$(grep -o 'the chart is one line through the means' "$p" 2> /dev/null | wc -l)
charts=$(grep -o '<svg ' "$p" 2> /dev/null | wc -l)
dots=$(grep -o '<circle class="dot"' "$p" 2> /dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$big" -eq 0 ] && [ "$charts" -gt 10 ] && [ "$lines" -eq "$charts" ] &&
	[ "$dots" -eq 0 ] && [ "$(wc -c < "$p")" -lt 1500000 ]; then
	ok "120 nights of the reference session: $charts charts, each one line, no page above 2 MB ($(wc -c < "$p") bytes)"
else
	notok "120 nights: status $rc, $big pages above 2 MB, $lines lines of $charts charts, $dots dots"
	show "$tmp/err"
fi
exit 0
