#!/bin/sh
# tests/sh/search.sh - the site-wide offline search (issue 19):
# search/index.html and its index search/index.js.  A run whose title and
# machine id hold markup, quotes, a script end tag, U+2028 and non-ASCII
# text: the index holds them only escaped (ASCII, no '<', '>' or '&'), its
# one value reads back as exactly those strings, and the page puts them
# on the page as text, evaluating nothing.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=search
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

a=$tmp/archive
"$b/tools/mksmall" "$a/m/r1" > /dev/null
"$b/tools/mksmall" "$a/m/r2" > /dev/null
title='</script><img src=x onerror=alert(1)> "q" & \u2028 caf\u00e9'
python3 - "$a/m/r2/meta.json" "$title" <<'PY'
import json, sys
p, t = sys.argv[1], sys.argv[2].encode().decode('unicode_escape')
m = json.load(open(p))
m['title'] = t
m['machine']['id'] = 'm<b>&"' + '\u2029'
json.dump(m, open(p, 'w'), ensure_ascii=False)
PY
if "$ERG" build --quiet --archive "$a" --out "$tmp/site" 2> "$tmp/err"; then
	ok "build"
else
	notok "build"
	show "$tmp/err"
fi
js=$tmp/site/search/index.js
if [ -f "$js" ] && [ -f "$tmp/site/search/index.html" ]; then
	ok "search/index.html and search/index.js written"
else
	notok "no search page or index"
fi
if LC_ALL=C grep -q '[<>&]' "$js" || LC_ALL=C grep -q "$(printf '[\200-\377]')" "$js"; then
	notok "the index holds '<', '>', '&' or a byte that is not ASCII"
	show "$js"
else
	ok "the index is ASCII without '<', '>' or '&'"
fi
if python3 - "$js" "$title" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
head = "/* erg: the search index of search/index.html (data only) */\nvar ERG_SEARCH = "
assert text.startswith(head) and text.endswith(";\n"), "not one assignment"
d = json.loads(text[len(head):-2])
want = sys.argv[2].encode().decode('unicode_escape')
runs = {r[0]: r for r in d["runs"]}
assert runs["m/r2"][1] == want, runs["m/r2"]
assert runs["m/r2"][2] == 'm<b>&"\u2029', runs["m/r2"]
assert runs["m/r1"][1] == "Small hand-made session", runs["m/r1"]
assert runs["m/r2"][4] == "runs/m/r2/index.html", runs["m/r2"]
keys = sorted(m[0] for m in d["machines"])
assert keys == sorted(['m<b>&"\u2029', "test-machine"]), keys
assert sorted(t[0] for t in d["targets"]) == ["alpha", "beta"], d["targets"]
PY
then
	ok "the index reads back as the archive's exact strings"
else
	notok "the index does not read back as the archive's strings"
fi
page=$tmp/site/search/index.html
if grep -q 'src="index.js"' "$page" && ! grep -q 'innerHTML\|eval(\|Function(\|document.write' "$page" &&
	grep -q 'textContent' "$page"; then
	ok "the page loads the index as a script and writes text only"
else
	notok "the search page evaluates or writes markup"
fi
if grep -q 'href="../search/index.html"' "$tmp/site/machines/index.html"; then
	ok "the views link to the search"
else
	notok "no link to the search from machines/index.html"
fi
exit 0
