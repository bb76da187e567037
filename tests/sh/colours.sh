#!/bin/sh
# tests/sh/colours.sh - one colour and pattern per target across every
# chart of a page (issue 15): the charts of the committed archive's pages,
# read back from their SVG (tests/lib/svgparse.py), give each target one
# colour class, one hatch (bars), one dash (lines) and one marker shape
# (points), and distinct targets distinct colour and pattern:
#   - the M5 session page (bar, grouped, scatter, step and latency charts);
#   - the M5 machine page, whose per-target history charts are one target
#     each (chart-mj-<target>, chart-rps-<target>);
#   - summary pages with a target column: hello-server (bars per row:
#     Bun, Node, xisto in 5 charts) and conduit (bars per row and bars
#     grouped by route with the targets as series, 9 charts).  (Where the
#     targets are the groups, as on the i7 page, colour tells the series,
#     routes, apart, and no target has a colour.)
#   - a trials run of three targets (Zeta, alpha, mid) over two routes
#     and a connections sweep: line charts (a line per target) and grouped
#     bars (targets as series) give a target one style, ranked by name.
T=colours
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
# the trials fixture: one line per target in each connections chart
tr=$tmp/trials/2026/sweep
mkdir -p "$tr/trials"
cat > "$tr/run.json" <<'JSON'
{"title": "sweep", "date": "2026-12-03", "machine": {"id": "m"}}
JSON
{
	echo "target,connections,rep,rps,p99_ms"
	for t in Zeta alpha mid; do for c in 1 4 16; do for r in 1 2 3; do
		echo "$t,$c,$r,$((c * 100 + r)),$((c + r))"
	done; done; done
} > "$tr/trials/wrk.csv"
mkdir -p "$tmp/trials/2026/bars/trials"
cp "$tr/run.json" "$tmp/trials/2026/bars/run.json"
{
	echo "target,route,rep,rps"
	for t in Zeta alpha mid; do for u in a b; do for r in 1 2 3; do
		echo "$t,$u,$r,$((r * 10))"
	done; done; done
} > "$tmp/trials/2026/bars/trials/wrk.csv"
if ! "$ERG" build --quiet --archive "$tmp/trials" --out "$tmp/tsite" > "$tmp/err" 2>&1; then
	notok "the trials fixture does not build"
	show "$tmp/err"
fi

python3 - "$tmp/site" "$ERG_SRC/tests/lib" "$tmp/tsite" << 'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from svgparse import styles

site = sys.argv[1]

def ok(c, what):
    print(("ok" if c else "not ok") + " - colours: " + what)

def page(p):
    return open(site + '/' + p, encoding='utf-8').read()

def targets(run):
    return [t['name'] for t in json.load(open(site + '/runs/' + run + '/results.json'))['targets']]

def check(where, got, names, min_charts):
    ok(sorted(got) == sorted(names), "%s: every target is drawn (%s)" % (where, sorted(got)))
    for n, g in sorted(got.items()):
        ok(len(g['charts']) >= min_charts, "%s: %s is in %d charts" % (where, n, len(g['charts'])))
        one = all(len(g[k]) <= 1 for k in ('colour', 'hatch', 'dash', 'marker')) and g['colour']
        ok(one, "%s: %s has one colour and pattern in every chart: %s" %
           (where, n, {k: sorted(v) for k, v in g.items() if k != 'charts'}))
    look = [(min(g['colour'] or {-1}), min(g['hatch'] or {''})) for g in got.values()]
    ok(len(set(look)) == len(look), "%s: distinct targets look distinct: %s" % (where, look))

run = 'm5-energy/2026-08-26T0856-saturated'
names = targets(run)
check('M5 session', styles(page('runs/' + run + '/index.html'), names), names, 10)

def history(cid):
    for p in ('chart-mj-', 'chart-rps-'):
        if cid.startswith(p):
            return cid[len(p):]
    return None
m5 = ['bun', 'effect', 'elysia', 'express', 'hono']
check('M5 machine page', styles(page('machines/apple-m5-mac17-3/index.html'), m5, history), m5, 2)

for run, nch in (('apple-m4/2026-11-07-hello-server', 5),
                 ('apple-m4/2026-11-08-conduit', 9)):
    names = targets(run)
    check(run, styles(page('runs/' + run + '/index.html'), names), names, nch)

site = sys.argv[3]
names = ['Zeta', 'alpha', 'mid']
for run, nch in (('2026/sweep', 2), ('2026/bars', 1)):
    got = styles(page('runs/' + run + '/index.html'), names)
    check('trials ' + run, got, names, nch)
    # slots by name in lower case: alpha 0, mid 1, Zeta 2 (Zeta is first in the file)
    ok([min(got[n]['colour'] or {-1}) for n in ('alpha', 'mid', 'Zeta')] == [0, 1, 2]
       if sorted(got) == sorted(names) else False,
       "trials %s: colours ranked by name: %s" % (run, {n: sorted(g['colour']) for n, g in got.items()}))
PY
exit 0
