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
T=colours
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$tmp/site" "$ERG_SRC/tests/lib" << 'PY'
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
PY
exit 0
