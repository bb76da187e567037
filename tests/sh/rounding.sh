#!/bin/sh
# tests/sh/rounding.sh - "published value rounded twice" on the diff page
# of the M5 published headline against its session (issue 15): the
# write-up publishes effect's energy per request as 0.1241, the dataset
# it was rounded from holds 0.12405 (read here from the reference dataset,
# aggregates.byFramework.effect.weightedSmallRoutes.meanMjPerReq), and
# the recomputed value is 0.124046, 0.1240 in one rounding.  That row's
# verdict says so; no other row of the page does (their published values
# are the recomputed ones rounded once); erg diff --format json carries
# rounded_twice {published, via, once} on that row alone.
T=rounding
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
a=m5-energy/2026-08-26-published-headline
b=m5-energy/2026-08-26T0856-saturated
if ! "$ERG" diff --format json "$ERG_SRC/archive/$a" "$ERG_SRC/archive/$b" > "$tmp/d.json" 2> "$tmp/err"; then
	notok "erg diff --format json of the published headline and its session"
	show "$tmp/err"
fi
python3 - "$tmp/site/diffs/m5-energy-2026-08-26-published-headline_vs_m5-energy-2026-08-26T0856-saturated/index.html" \
	"$tmp/d.json" "${SHARED:-$ERG_SRC/../shared}/reference/energy-benchmark-m5.json" << 'PY'
import html, json, re, sys

def ok(c, what):
    print(("ok" if c else "not ok") + " - rounding: " + what)

ds = json.load(open(sys.argv[3]))
mid = ds['aggregates']['byFramework']['effect']['weightedSmallRoutes']['meanMjPerReq']
ok(mid == 0.12405, "the dataset holds effect's 0.12405 (%r)" % mid)
s = open(sys.argv[1], encoding='utf-8').read()
rows = [html.unescape(re.sub(r'<[^>]+>', '|', r)) for r in re.findall(r'<tr>(.*?)</tr>', s, re.S)]
marked = [r for r in rows if 'rounded twice' in r]
want = 'published value rounded twice: 0.12405 \u2192 0.1241 (in one step 0.1240)'
ok(len(marked) == 1 and marked[0].startswith('|effect||0.1241 ') and want in marked[0],
   "the diff page marks effect's energy per request alone: %s" % marked)
d = json.load(open(sys.argv[2]))
rt = [(r['target'], r['metric'], r['rounded_twice']) for r in d['rows'] if r.get('rounded_twice')]
ok(rt == [('effect', 'mj_per_req', {'published': '0.1241', 'via': '0.12405', 'once': '0.1240'})],
   "erg diff --format json: rounded_twice on that row alone: %s" % rt)
ok(all('rounded_twice' in r for r in d['rows']), "every untested row has the member (null or the object)")
PY
exit 0
