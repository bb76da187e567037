#!/bin/sh
# tests/sh/attrib.sh - the CPU-time attribution pass of the committed
# archive (m5-energy/2026-08-26T1023-attrib) has one round per target: its
# headline table shows single values, with no "mean ± SD" header, no
# "± –", no CV and no "95 % CI" column (an interval of n = 1), while the
# main session beside it (T0856-saturated, 5 rounds) keeps all of them.
# Its 3 idle windows are the rebuild's (synthetic): no drift verdict, no
# fitted line on its idle chart (the main session's 26 keep theirs); and
# no diff page pairs it with the main session (it is one round), which the
# diffs list says.
T=attrib
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$tmp/site/runs/m5-energy" "$tmp/site/diffs" << 'PY'
import html, re, sys

def ok(c, what):
    print(("ok" if c else "not ok") + " - attrib: " + what)

def headline(run):
    s = open(sys.argv[1] + '/' + run + '/index.html', encoding='utf-8').read()
    i = s.find('<table id="tbl-headline"')
    if i < 0:
        return None
    t = s[i:s.find('</table>', i)]
    return re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', t)))

a = headline('2026-08-26T1023-attrib')
ok(a is not None, "the attribution pass has a headline table")
a = a or ''
ok('95 % CI' not in a and 'CV' not in a, "attribution: no CV and no 95 % CI column (n = 1)")
ok('mean \u00b1 SD' not in a and '\u00b1' not in a, "attribution: no 'mean \u00b1 SD' and no '\u00b1 \u2013'")
ok(re.search(r'elysia 0\.\d+ 1 ', a) is not None, "attribution: elysia's single value, n 1")
m = headline('2026-08-26T0856-saturated') or ''
ok('95 % CI' in m and 'mean \u00b1 SD' in m and ' \u00b1 ' in m,
   "main session (5 rounds): mean \u00b1 SD and the 95 % CI stay")

import json, os
def drift(run):
    r = json.load(open(sys.argv[1] + '/' + run + '/results.json', encoding='utf-8'))
    return r['validation']['idle_drift']
d = drift('2026-08-26T1023-attrib')
ok(d['status'] == 'n/a' and d['verdict'].startswith('not assessed: 3 idle windows'),
   "attribution: idle drift not assessed from 3 synthetic windows: " + d['verdict'])
ok(d['slope_w_per_h'] is None, "attribution: no idle slope")
d = drift('2026-08-26T0856-saturated')
ok(d['status'] == 'ok' and d['n'] == 26, "main session: 26 idle windows keep their verdict")
s = open(sys.argv[1] + '/2026-08-26T1023-attrib/index.html', encoding='utf-8').read()
i = s.find('id="chart-idle"')
ok(i > 0 and 'class="fit"' not in s[i:s.find('</svg>', i)], "attribution: idle chart without a fitted line")
s = open(sys.argv[1] + '/2026-08-26T0856-saturated/index.html', encoding='utf-8').read()
i = s.find('id="chart-idle"')
ok(i > 0 and 'class="fit"' in s[i:s.find('</svg>', i)], "main session: idle chart keeps its line")
pairs = os.listdir(sys.argv[2])
ok(not [p for p in pairs if 'T1023-attrib' in p], "no diff page with the attribution pass: %s" % pairs)
ok('m5-energy-2026-08-26-published-headline_vs_m5-energy-2026-08-26T0856-saturated' in pairs,
   "the listed pair stays")
s = open(sys.argv[2] + '/index.html', encoding='utf-8').read()
ok('1 session of a single round' in s, "the diffs list says why the pass is not paired")
PY
exit 0
