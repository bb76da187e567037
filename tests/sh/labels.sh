#!/bin/sh
# tests/sh/labels.sh - scatter labels sit next to their own point and
# collide with nothing (issue 15): on every page of the committed archive's
# site, every chart with point labels (gen/render/svg.c point_labels())
# has no two label boxes overlapping, no label box over a point, and each
# label within 2 px of a point it names or joined to one by a leader line.
# Boxes are sized as svg.c sizes text (tests/lib/svgparse.py).  The M5
# session's efficiency chart, where bun's and elysia's labels overlapped,
# labels all 5 targets.  The crowded hostile case is test_svg's.
T=labels
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$tmp/site" "$ERG_SRC/tests/lib" << 'PY'
import os, re, sys
sys.path.insert(0, sys.argv[2])
from svgparse import charts, point_labels, label_problems

def ok(c, what):
    print(("ok" if c else "not ok") + " - labels: " + what)

site = sys.argv[1]
n = nl = 0
for d, _, files in sorted(os.walk(site)):
    for f in sorted(files):
        if not f.endswith('.html'):
            continue
        p = os.path.join(d, f)
        for cid, svg in charts(open(p, encoding='utf-8').read()):
            bad = label_problems(svg)
            if bad is None:
                continue
            n += 1
            nl += len(point_labels(svg)[0])
            ok(not bad, "%s %s: %s" % (os.path.relpath(p, site), cid, '; '.join(bad[:3]) or 'clear'))
ok(n >= 3 and nl >= 5, "%d charts with %d point labels checked" % (n, nl))
s = open(site + '/runs/m5-energy/2026-08-26T0856-saturated/index.html', encoding='utf-8').read()
eff = dict(charts(s))['chart-efficiency']
got = sorted(t for t, _ in point_labels(eff)[0])
ok(got == ['bun', 'effect', 'elysia', 'express', 'hono'], "M5 efficiency chart labels all 5 targets: %s" % got)
# the checker itself sees each fault (a label as the old code placed it,
# at +6 px beside the point and 6 px up, over a neighbour)
pt = '<circle class="dot" cx="%s" cy="%s" r="3.5"><title>%s: 1</title></circle>'
lab = '<text class="tick" x="%s" y="%s">%s</text>'
def svg(*labels):
    return ('<svg>' + pt % (100, 100, 'bun') + pt % (112, 96, 'elysia') +
            '<g class="point-labels">' + ''.join(lab % l for l in labels) + '</g></svg>')
ok(label_problems(svg((106, 94, 'bun'), (300, 300, 'elysia'))) and
   label_problems(svg((106.5, 104, 'bun'), (106.5, 110, 'elysia'))) and
   not label_problems(svg((74, 104, 'bun'), (118.5, 100, 'elysia'))),
   "the checker finds a label over a point, overlapping labels, a label away from its point")
PY
exit 0
