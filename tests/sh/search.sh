#!/bin/sh
# tests/sh/search.sh - the site-wide offline search (issue 19):
# search/index.html, its head search/index.js and its shards
# search/runs-K.js (render/page_search.h).  A run whose title and machine
# id hold markup, quotes, a script end tag, U+2028 and non-ASCII text:
# every file of the index holds them only escaped (ASCII, no '<', '>' or
# '&'), is exactly one assignment of one JSON value, and reads back as
# exactly those strings (and each run's targets); the page puts them on
# the page as text,
# evaluating nothing.  Then 25 runs over three machines and two years with
# shards forced small (ERG_PAGE_ROWS=1: 10 runs a shard): every shard
# within its bounds and of one year, every run in exactly one shard, the
# head's counts those of the shards, newest first; and three runs of
# ~120 KB titles in two shards of at most ~300 KB.
# (tests/sh/browser-search.sh searches such a site in Chromium.)
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
if LC_ALL=C grep -q '[<>&]' "$js" "$tmp"/site/search/runs-*.js ||
	LC_ALL=C grep -q "$(printf '[\200-\377]')" "$js" "$tmp"/site/search/runs-*.js; then
	notok "the index holds '<', '>', '&' or a byte that is not ASCII"
	show "$js"
else
	ok "the index (head and shards) is ASCII without '<', '>' or '&'"
fi
# the index's files as Python values, each checked to be one assignment
cat > "$tmp/idx.py" <<'PY'
import json, os, re, sys
def load(d):
    t = open(os.path.join(d, "index.js")).read()
    head = ("/* erg: the search index of search/index.html (data only) */\n"
            "var ERG_SEARCH = ")
    tail = ";\nvar ERG_SEARCH_SHARDS = [];\n"
    assert t.startswith(head) and t.endswith(tail), "index.js: not one assignment"
    h = json.loads(t[len(head):-len(tail)])
    shards = []
    for k, sh in enumerate(h["shards"]):
        assert sh[0] == "runs-%d.js" % (k + 1), sh
        t = open(os.path.join(d, sh[0])).read()
        pre = ("/* erg: runs of the search index, part %d (data only) */\n"
               "ERG_SEARCH_SHARDS[%d] = " % (k + 1, k))
        assert t.startswith(pre) and t.endswith(";\n"), sh[0] + ": not one assignment"
        shards.append(json.loads(t[len(pre):-2]))
    extra = sorted(f for f in os.listdir(d) if re.match(r"runs-", f))
    assert extra == sorted(s[0] for s in h["shards"]), ("files", extra)
    return h, shards
PY
if python3 - "$tmp/site/search" "$title" <<'PY'
import sys
exec(open(sys.argv[1] + "/../../idx.py").read())
h, shards = load(sys.argv[1])
want = sys.argv[2].encode().decode('unicode_escape')
runs = {r[0]: r for s in shards for r in s}
ms = h["machines"]
assert runs["m/r2"][1] == want, runs["m/r2"]
assert ms[runs["m/r2"][2]][0] == 'm<b>&"\u2029', runs["m/r2"]
assert runs["m/r1"][1] == "Small hand-made session", runs["m/r1"]
assert runs["m/r2"][4] == "runs/m/r2/index.html", runs["m/r2"]
assert sorted(m[0] for m in ms) == sorted(['m<b>&"\u2029', "test-machine"]), ms
assert sorted(t[0] for t in h["targets"]) == ["alpha", "beta"], h["targets"]
for r in runs.values():
    assert sorted(h["targets"][t][0] for t in r[5]) == ["alpha", "beta"], r
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

# Shards forced small: ERG_PAGE_ROWS=1 makes them 10 runs (SEARCH_SHARD_PAGES
# list pages).  2024: 11 runs (two shards), 2025: 14 (two more).
"$b/tools/mksmall" "$tmp/small" > /dev/null
i=1
while [ $i -le 25 ]; do
	y=2024
	[ $i -gt 11 ] && y=2025
	d=$(printf '%s-%02d-%02dT10:00:00Z' $y $(( i % 12 + 1 )) $(( i % 27 + 1 )))
	"$b/tools/mkarchive" --one small "$tmp/small" "$tmp/many/h$(( i % 3 ))/r$i" \
		"h$(( i % 3 ))" "$d" "Run $i" || notok "mkarchive"
	i=$(( i + 1 ))
done
if ERG_PAGE_ROWS=1 "$ERG" build --quiet --archive "$tmp/many" --out "$tmp/msite" 2> "$tmp/err"; then
	ok "build with small shards"
else
	notok "build with small shards"
	show "$tmp/err"
fi
if python3 - "$tmp/msite/search" "$tmp/many" <<'PY' > "$tmp/py" 2>&1
import os, sys
exec(open(sys.argv[1] + "/../../idx.py").read())
h, shards = load(sys.argv[1])
ids = sorted("%s/%s" % (m, r) for m in os.listdir(sys.argv[2])
             for r in os.listdir(os.path.join(sys.argv[2], m)))
got = [r[0] for s in shards for r in s]
assert len(got) == len(set(got)), "a run in two shards"
assert sorted(got) == ids, (sorted(got), ids)
assert [len(s) for s in shards] == [10, 4, 10, 1], [len(s) for s in shards]
for sh, rows in zip(h["shards"], shards):
    assert sh[2] == len(rows) <= 10, sh
    assert all(r[3].startswith(sh[1]) for r in rows), ("a shard of two years", sh)
    assert os.path.getsize(os.path.join(sys.argv[1], sh[0])) <= 300000, sh
dates = [r[3] for s in shards for r in s]
assert dates == sorted(dates, reverse=True), "not newest first"
assert h["runs"] == 25
assert h["years"] == [["2025", 14], ["2024", 11]], h["years"]
per = {}
for s in shards:
    for r in s:
        per[h["machines"][r[2]][0]] = per.get(h["machines"][r[2]][0], 0) + 1
assert {m[0]: m[3] for m in h["machines"]} == per == {"h0": 8, "h1": 9, "h2": 8}, per
assert all(m[2] == "machines/%s/index.html" % m[0] for m in h["machines"]), h["machines"]
assert all(sorted(h["targets"][t][0] for t in r[5]) == ["alpha", "beta"] for s in shards
           for r in s), "a run without its targets"
PY
then
	ok "4 shards of at most 10 runs and one year, every run in exactly one, the head's counts theirs"
else
	notok "the shards or the head's counts are wrong"
	show "$tmp/py"
fi

# The byte bound: three runs whose titles take ~120 KB each in the index
# (20,000 x U+00E9, 6 bytes escaped): two fit in a shard of ~300 KB, the
# third starts the next.
i=1
while [ $i -le 3 ]; do
	"$b/tools/mksmall" "$tmp/big/m/r$i" > /dev/null
	python3 - "$tmp/big/m/r$i/meta.json" $i <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["title"] = "T%s " % sys.argv[2] + "\u00e9" * 20000
json.dump(m, open(sys.argv[1], "w"), ensure_ascii=False)
PY
	i=$(( i + 1 ))
done
"$ERG" build --quiet --archive "$tmp/big" --out "$tmp/bsite" 2> "$tmp/err" || show "$tmp/err"
if python3 - "$tmp/bsite/search" <<'PY' > "$tmp/py" 2>&1
import os, sys
exec(open(sys.argv[1] + "/../../idx.py").read())
h, shards = load(sys.argv[1])
assert [len(s) for s in shards] == [2, 1], [len(s) for s in shards]
for sh in h["shards"]:
    n = os.path.getsize(os.path.join(sys.argv[1], sh[0]))
    assert 100000 < n <= 300000, (sh, n)
assert sorted(r[1][:3] for s in shards for r in s) == ["T1 ", "T2 ", "T3 "]
PY
then
	ok "shards of at most 300,000 bytes: three runs of ~120 KB in two shards"
else
	notok "the shards' byte bound"
	show "$tmp/py"
fi
exit 0
