#!/bin/sh
# tests/sh/ratios.sh - one rule for ratio columns and shortest reals (issue
# 15):
#   - the M5 session page shows CV in percent, headed "% (SD/mean)" as
#     summary and view pages show it: elysia's headline CV is 0.648 %
#     (results.json cv 0.006481 x 100, worked by hand to "0.65"), never the
#     fraction "0.0065"; its per-MB CV likewise; idle share in percent;
#   - every real in every results.json of the example site is written as
#     the shortest text that reads back as the same double (as many
#     significant digits as Python's repr, which is that text), so no
#     17.870000000000001 where 17.87 was meant; integers stay integers.
T=ratios
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$tmp/site" << 'PY'
import glob, html, json, re, sys

def ok(c, what):
    print(("ok" if c else "not ok") + " - ratios: " + what)

site = sys.argv[1]
run = site + '/runs/m5-energy/2026-08-26T0856-saturated/'
s = open(run + 'index.html', encoding='utf-8').read()
r = json.load(open(run + 'results.json'))
ely = [t for t in r['targets'] if t['name'] == 'elysia'][0]
cv = ely['headline']['mj_per_req']['cv']
ok(abs(cv - 0.006481) < 5e-7, "elysia's CV in results.json is the fraction 0.006481 (%r)" % cv)

def table(tid):
    i = s.find('<table id="%s"' % tid)
    return s[i:s.find('</table>', i)] if i >= 0 else ''

def cells(t, row):
    m = re.search(r'<tr id="' + re.escape(row) + r'"[^>]*>(.*?)</tr>', t, re.S)
    return [html.unescape(re.sub(r'<[^>]+>', '', c)).strip()
            for c in re.findall(r'<t[hd][^>]*>(.*?)</t[hd]>', m.group(1), re.S)] if m else []

def heads(t):
    return [html.unescape(re.sub(r'<[^>]+>', ' ', h)).split() for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', t, re.S)]

h = table('tbl-headline')
ok(['CV', '%', '(SD/mean)'] in heads(h), "headline: CV headed '%% (SD/mean)': %s" % heads(h)[:5])
c = cells(h, re.search(r'<tr id="([^"]*elysia[^"]*)"', h).group(1))
ok('0.65' in c and '0.0065' not in c, "headline: elysia's CV 0.65 (percent): %s" % c)
m = table('tbl-per-mb')
ok(['CV', '%', '(SD/mean)'] in heads(m), "per-MB table: CV in percent")
rt = table('tbl-routes')
ok(['Idle', 'share', '%', 'of', 'gross', 'energy'] in heads(rt), "routes: idle share in percent")
row = re.search(r'<tr id="([^"]*elysia[^"]*ping[^"]*)"', rt)
share = [x for x in ely['routes'] if x['name'] == 'ping'][0]['idle_share']
want = '%.2f' % (100 * share)
ok(row and want in cells(rt, row.group(1)), "routes: elysia ping idle share %s %%" % want)

def sig(t):
    m = t.lower().split('e')[0].lstrip('-').replace('.', '').lstrip('0')
    return len(m.rstrip('0')) if m else 0

bad = n = 0
for f in sorted(glob.glob(site + '/runs/*/*/results.json')):
    text = open(f, encoding='utf-8').read()
    # numbers outside strings
    for tok in re.findall(r'"(?:[^"\\]|\\.)*"|(-?\d[\d.eE+-]*)', text):
        if not tok or not re.search(r'[.eE]', tok):
            continue
        n += 1
        if sig(tok) > sig(repr(float(tok))):
            bad += 1
            if bad <= 3:
                print('# %s: %s (shortest %s)' % (f[len(site):], tok, repr(float(tok))))
ok(n > 1000 and not bad, "%d reals in results.json, %d longer than their shortest text" % (n, bad))
PY
exit 0
