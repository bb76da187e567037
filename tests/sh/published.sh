#!/bin/sh
# tests/sh/published.sh - every published cell of every summary run of the
# committed archive keeps its published text (issue 15).  The expected
# text is read from the archive's own tables/*.csv (python's csv module,
# not erg), and looked for in three places of the built site:
#   - the run page: row i, column j of the table's <table id="tbl-BASE">
#     holds the text, its integer digits grouped from 1,000 as the
#     published write-ups print them ("5,007.0", "0.1010");
#   - the CSV download BASE.csv: the same header, the archive's units line,
#     and every cell byte for byte;
#   - results.json: tables[k].published[i][j] is the text;
# and the cross-run pages: compare/ holds the 54 i7-13700K route figures
# and the M5 "mean ± SD" as published; the index's best target of the M5
# headline and the hello server as published (no "0.09580", "231,097.0").
# Every column heading is a label, never a raw name with '_'
# ("executable_bytes", "rss_at_rest_mb").
# A numeric cell is one that matches the CSV number grammar (csv.h) in a
# column that is not a key (target, route, runtime, phase).
T=published
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! ls "$ERG_SRC"/archive/*/*/run.json > /dev/null 2>&1; then
	notok "no summary run in the committed archive"
	exit 0
fi
if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$ERG_SRC/archive" "$tmp/site" << 'PY'
import csv, glob, html, io, json, os, re, sys

arch, site = sys.argv[1], sys.argv[2]
NUM = re.compile(r'^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$')
KEYS = {"target", "route", "runtime", "phase"}

def ok(c, what):
    print(("ok" if c else "not ok") + " - published: " + what)

def grouped(t):
    if 'e' in t or 'E' in t:
        return t
    sign = t[0] if t[0] in '+-' else ''
    body = t[len(sign):]
    ip, dot, fp = body.partition('.')
    if len(ip) >= 4:
        ip = '{:,}'.format(int(ip)) if ip.isdigit() else ip
    return sign + ip + dot + fp

def cells_of(page, base):
    m = re.search(r'<table id="tbl-%s"[^>]*>(.*?)</table>' % re.escape(base), page, re.S)
    if not m:
        return None
    body = m.group(1).split('<tbody>', 1)[-1]
    rows = re.findall(r'<tr id="r-[^"]*">(.*?)</tr>', body, re.S)
    out = []
    for r in rows:
        cs = re.findall(r'<t[hd][^>]*>(.*?)</t[hd]>', r, re.S)
        out.append([html.unescape(re.sub(r'<[^>]+>', '', c)) for c in cs])
    return out

runs = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(arch, '*', '*', 'run.json')))
ok(len(runs) >= 8, "%d summary runs in the archive" % len(runs))
for rd in runs:
    rid = os.path.relpath(rd, arch)
    spec = json.load(open(os.path.join(rd, 'run.json')))
    turned = {t['file'] for t in spec.get('tables', []) if t.get('transpose')}
    files = [t['file'] for t in spec.get('tables', [])] or \
        sorted(os.path.relpath(p, rd) for p in glob.glob(os.path.join(rd, 'tables', '*.csv')))
    out = os.path.join(site, 'runs', rid)
    page = open(os.path.join(out, 'index.html'), encoding='utf-8').read()
    res = json.load(open(os.path.join(out, 'results.json'), encoding='utf-8'))
    for k, f in enumerate(files):
        base = os.path.splitext(os.path.basename(f))[0]
        with open(os.path.join(rd, f), newline='', encoding='utf-8') as fh:
            rows = list(csv.reader(fh))
        head, units = rows[0], None
        if len(rows) > 1 and rows[1] and rows[1][0].startswith('#'):
            units = rows[1]
            rows = rows[2:]
        else:
            rows = rows[1:]
        rows = [r for r in rows if r]
        numeric = [h not in KEYS and all(not r[j] or NUM.match(r[j]) for r in rows)
                   and any(r[j] for r in rows) for j, h in enumerate(head)]
        want = [(i, j, r[j]) for i, r in enumerate(rows) for j in range(len(head))
                if numeric[j] and r[j]]
        m = re.search(r'<table id="tbl-%s"[^>]*>(.*?)</thead>' % re.escape(base), page, re.S)
        heads = [html.unescape(re.sub(r'<span class="unit">.*?</span>|<[^>]+>', '', h))
                 for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', m.group(1) if m else '', re.S)]
        got = cells_of(page, base)
        if f in turned:
            # printed turned, as the source did: a column per row (headed
            # by its first cell), a row per other column (headed by its
            # label); turned back here to the archive's orientation
            ok(m and heads == ['Measure'] + [r[0] for r in rows] and got and
               not [g[0] for g in got if '_' in g[0]] and len(got) == len(head) - 1,
               "%s %s: turned as published: columns %s, rows %s" % (rid, base, heads,
               [g[0] for g in got or []]))
            ok(("%d rows in the file, shown as columns" % len(rows)) in page,
               "%s %s: its row count says the rows are shown as columns" % (rid, base))
            got = [[r[0]] + [g[i + 1] for g in got] for i, r in enumerate(rows)] \
                if got and all(len(g) == len(rows) + 1 for g in got) else None
        else:
            ok(m and len(heads) == len(head) and not [h for h in heads if '_' in h],
               "%s %s: column headings are labels, no raw names (%s)" % (rid, base, "; ".join(heads)))
        bad = [(i, j, t) for i, j, t in want
               if not got or i >= len(got) or j >= len(got[i]) or got[i][j] != grouped(t)]
        ok(got is not None and not bad,
           "%s %s: %d published cells on the page as published%s" % (rid, base, len(want),
           "" if not bad else "; first wrong: row %d col %d want '%s' got '%s'" % (
               bad[0][0] + 1, bad[0][1] + 1, grouped(bad[0][2]),
               got[bad[0][0]][bad[0][1]] if got and bad[0][0] < len(got) and bad[0][1] < len(got[bad[0][0]]) else None)))
        try:
            d = list(csv.reader(io.StringIO(open(os.path.join(out, base + '.csv'), newline='', encoding='utf-8').read())))
        except OSError:
            d = None
        exp = [head] + ([units] if units else []) + rows
        # the units line: the same units, the marker in the first field
        if d and units and len(d) > 1:
            u = d[1]
            ok(u[0].startswith('# units:') and [u[0][8:].strip()] + u[1:] ==
               [units[0].split(':', 1)[1].strip()] + units[1:],
               "%s %s.csv: the units line of the archive's table" % (rid, base))
        bad = [(i, j, t) for i, j, t in want
               if not d or len(d) != len(exp) or d[i + 1 + bool(units)][j] != t]
        ok(d is not None and not bad and d[0] == head,
           "%s %s.csv: header and %d published cells byte for byte" % (rid, base, len(want)))
        pub = res['tables'][k].get('published') if k < len(res.get('tables', [])) else None
        bad = [(i, j, t) for i, j, t in want if not pub or pub[i][j] != t]
        ok(pub is not None and not bad,
           "%s %s: results.json 'published' holds the %d texts" % (rid, base, len(want)))

# The cross-run pages and the index show the same texts.
def table(rel):
    with open(os.path.join(arch, rel), newline='', encoding='utf-8') as fh:
        rows = [r for r in csv.reader(fh) if r]
    return rows[0], [r for r in rows[1:] if not r[0].startswith('#')]

def text_of(f):
    p = open(os.path.join(site, f), encoding='utf-8').read()
    return re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', p)))

cmp_page = text_of('compare/index.html')
head, rows = table('intel-i7-13700k/2023-05-16-bun-http-framework-benchmark/tables/throughput.csv')
j = head.index('rps')
miss = [r[j] for r in rows if grouped(r[j]) not in cmp_page]
ok(not miss, "compare: the %d i7-13700K route figures as published (%s)" % (len(rows),
   "all there" if not miss else "missing " + ", ".join(miss[:5])))
head, rows = table('m5-energy/2026-08-26-published-headline/tables/headline.csv')
m, sd = head.index('mj_per_req'), head.index('mj_per_req_sd')
miss = [r[0] for r in rows if "%s \u00b1 %s" % (r[m], r[sd]) not in cmp_page]
ok(not miss, "compare: the M5 energy figures as published mean \u00b1 SD (%s)" %
   ("all there" if not miss else "missing " + ", ".join(miss)))
idx = text_of('index.html')
e = {r[0]: r for r in rows}
ok("elysia %s mJ/req \u00b7 %s req/s" % (e['elysia'][m], grouped(e['elysia'][head.index('rps')])) in
   idx, "index: the M5 headline's best target as published")
head, rows = table('apple-m4/2026-11-07-hello-server/tables/hello.csv')
x = [r for r in rows if r[0] == 'xisto'][0]
ok("xisto %s req/s" % grouped(x[head.index('rps')]) in idx,
   "index: the hello server's best target as published, no false decimal")
PY
exit 0
