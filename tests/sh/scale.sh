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
# a full build of the changed archive, byte for byte.  Last, 40 runs over
# 12 machines: a target with energy figures from more than 8 machines has
# one energy column beside the machine column, not a column per machine.
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
# (machine and target pages are not paginated yet: a machine of 520 runs
# has a 2.9 MB page)
big=$(find "$site/compare" -name '*.html' -size +2048k | head -n 3)
if [ -f "$site/compare/index.html" ] && [ -z "$big" ]; then
	ok "no compare page above 2 MB"
else
	notok "compare pages above 2 MB: $big"
fi
if [ "$(find "$site/.erg-cache/runs" -name summary.json | wc -l)" -eq 521 ]; then
	ok "a summary per run in the cache"
else
	notok "summaries: $(find "$site/.erg-cache/runs" -name summary.json | wc -l) of 521"
fi
if [ -d "$site/runs" ] &&
	[ -z "$(find "$site" -path "$site/.erg-cache" -prune -o -name summary.json -print)" ]; then
	ok "no summary published outside the cache"
else
	notok "summary.json in the published site"
fi
# one run changed: its title
meta=$(find "$a" -path '*-00030[0-9]/meta.json' | sort | head -n 1)
sed 's/"title": "[^"]*"/"title": "Retitled run"/' "$meta" > "$tmp/meta" && mv "$tmp/meta" "$meta"
"$ERG" build --archive "$a" --out "$site" 2> "$tmp/err"
"$ERG" build --quiet --archive "$a" --out "$tmp/fresh" 2> /dev/null
if grep -q "(520 unchanged)" "$tmp/err" && diff -r "$site" "$tmp/fresh" > "$tmp/diff" 2>&1; then
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
	! grep -q '>Energy on ' "$p" && grep -q 'from [0-9]* machines: one column' "$p"; then
	ok "a target on $nm machines: one energy column"
else
	notok "a target on $nm machines: energy columns per machine, or none"
	show "$tmp/err"
fi
exit 0
