#!/bin/sh
# tests/sh/browser-search.sh - the search page in headless Chromium, from
# file:// (issue 19): 25 runs over two years with the index's shards
# forced small (ERG_PAGE_ROWS=1: 10 runs a shard, 4 shards), two titles
# holding "needle" in different shards (the newest and the oldest year)
# and one hostile title.  search/index.html?q=needle must list exactly
# those two runs, linked to their pages, and say that every run was
# searched in every part; ?q=needle%20beta too ("beta" is only in the
# runs' targets); a query that matches nothing says so too; the
# hostile title is on the page as text (no element made from it).
# Skips like tests/browser/run.sh (SKIP_BROWSER=1, no Chromium).
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh), CHROMIUM.
T=browser-search
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ "${SKIP_BROWSER:-}" = 1 ]; then
	echo "skip - $T: not run, as asked (SKIP_BROWSER=1)"
	exit 0
fi
if [ ! -x "$CHROMIUM" ]; then
	echo "skip - $T: $CHROMIUM is not installed: make test-deps (SKIP_BROWSER=1)"
	exit 0
fi
T_OUT=
command -v timeout > /dev/null 2>&1 && T_OUT="timeout 120"

"$b/tools/mksmall" "$tmp/small" > /dev/null
i=1
while [ $i -le 25 ]; do
	y=2024
	[ $i -gt 11 ] && y=2025
	d=$(printf '%s-%02d-%02dT10:00:00Z' $y $(( i % 12 + 1 )) $(( i % 27 + 1 )))
	t="Run $i"
	[ $i = 2 ] && t="Needle in 2024"
	[ $i = 23 ] && t="A needle of 2025"
	"$b/tools/mkarchive" --one small "$tmp/small" "$tmp/a/h$(( i % 3 ))/r$i" \
		"h$(( i % 3 ))" "$d" "$t" || notok "mkarchive"
	i=$(( i + 1 ))
done
python3 - "$tmp/a/h1/r7/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["title"] = '</script><b id="evil">x</b> "q" & \u2028'
json.dump(m, open(sys.argv[1], "w"), ensure_ascii=False)
PY
if ERG_PAGE_ROWS=1 "$ERG" build --quiet --archive "$tmp/a" --out "$tmp/site" 2> "$tmp/err"; then
	ok "build"
else
	notok "build"
	show "$tmp/err"
fi

# search QUERY OUT: the page's DOM once its scripts (and the shards they
# load) have run, every host unresolvable
search() {
	prof=$(mktemp -d "$tmp/profile.XXXXXX")
	$T_OUT "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --no-first-run --disable-sync \
		--host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$prof" \
		--virtual-time-budget=10000 --dump-dom \
		"file://$tmp/site/search/index.html?q=$1" > "$2" 2> "$2.err"
}
search needle "$tmp/needle.html"
if python3 - "$tmp/needle.html" <<'PY' > "$tmp/py" 2>&1
import re, sys
d = open(sys.argv[1]).read()
ol = re.search(r'<ol id="hits">(.*?)</ol>', d, re.S).group(1)
links = re.findall(r'<li>run: <a href="\.\./runs/([^"]+)/index\.html">([^<]*)</a>', ol)
assert links == [("h2/r23", "A needle of 2025"), ("h2/r2", "Needle in 2024")], links
assert ol.count("<li>") == 2, ol
count = re.search(r'<p id="count"[^>]*>([^<]*)</p>', d).group(1)
assert count == "2 matches, every one of the 25 runs searched (4 parts of the index).", count
PY
then
	ok "?q=needle finds the two runs, from the first and the last of 4 shards, every run searched"
else
	notok "?q=needle does not list exactly the two runs"
	show "$tmp/py"
	show "$tmp/needle.html.err"
fi
# "beta" is only in the runs' targets: the runs are found by title and target
search 'needle%20beta' "$tmp/target.html"
if python3 - "$tmp/target.html" <<'PY' > "$tmp/py" 2>&1
import re, sys
d = open(sys.argv[1]).read()
ol = re.search(r'<ol id="hits">(.*?)</ol>', d, re.S).group(1)
links = re.findall(r'<li>run: <a href="\.\./runs/([^"]+)/index\.html">', ol)
assert links == ["h2/r23", "h2/r2"], links
assert ol.count("<li>") == 2 and "alpha, beta" in ol, ol
PY
then
	ok "?q=needle+beta finds the two runs by their title and their target"
else
	notok "a run is not found by its target"
	show "$tmp/py"
fi
search 'evil%20q' "$tmp/evil.html"
if python3 - "$tmp/evil.html" <<'PY' > "$tmp/py" 2>&1
import re, sys
d = open(sys.argv[1]).read()
assert "<b id=\"evil\">" not in d, "markup from a title became an element"
ol = re.search(r'<ol id="hits">(.*?)</ol>', d, re.S).group(1)
assert '&lt;/script&gt;&lt;b id="evil"&gt;x&lt;/b&gt; "q" &amp; \u2028' in ol, ol
assert ol.count("<li>") == 1, ol
PY
then
	ok "a title with a script end tag, markup and U+2028 is found and shown as text"
else
	notok "the hostile title is not shown as text"
	show "$tmp/py"
fi
search 'no%20such%20thing' "$tmp/none.html"
if grep -q '<p id="count"[^>]*>0 matches, every one of the 25 runs searched (4 parts of the index).</p>' \
	"$tmp/none.html" && grep -q '<ol id="hits"></ol>' "$tmp/none.html"; then
	ok "a query matching nothing says so, after searching every run"
else
	notok "a query matching nothing"
	grep 'id="count"' "$tmp/none.html" | show /dev/stdin
fi
# a part of the index that does not load: the answer says it is incomplete
rm -f "$tmp/site/search/runs-3.js"
search needle "$tmp/gone.html"
if grep -q '<p id="count"[^>]*>1 match: 15 of 25 runs searched (3 of 4 parts of the index); part 3 of the index could not be loaded: the answer is incomplete.</p>' \
	"$tmp/gone.html"; then
	ok "a part of the index missing: 15 of 25 runs searched, the answer said to be incomplete"
else
	notok "a part of the index missing is not reported"
	grep 'id="count"' "$tmp/gone.html" | show /dev/stdin
fi
exit 0
