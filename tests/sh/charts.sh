#!/bin/sh
# tests/sh/charts.sh - the committed archive's pages claim no more than
# their data (issue 15, "Charts claim no more than the data"):
#   - the M5 sessions, named after the local minute they started
#     (T0856, T1023) and captured at 01:56:28Z and 03:23:17Z, show their
#     local time with its offset (+07:00, worked by hand), the UTC time in
#     the title; never "01:56 UTC" beside T0856;
#   - a summary run that records only a date shows that date;
#   - the performance cluster is named as the M5 samples name it
#     (S-Cluster, macOS 26): the windows table's column and the frequency
#     chart's title and caption, never "P-cluster";
#   - every chart caption of the two reconstructed sessions (meta.json
#     erg.reconstructed) says that sample-level detail outside the
#     published points is synthetic; the published summary run's do not.
T=charts
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

if ! "$ERG" build --quiet --archive "$ERG_SRC/archive" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the committed archive does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$tmp/site/runs" << 'PY'
import re, sys

def ok(c, what):
    print(("ok" if c else "not ok") + " - charts: " + what)

def page(run):
    return open(sys.argv[1] + '/' + run + '/index.html', encoding='utf-8').read()

for run, local, utc in (('m5-energy/2026-08-26T0856-saturated', '2026-08-26T08:56:28+07:00',
                         '2026-08-26 01:56 UTC'),
                        ('m5-energy/2026-08-26T1023-attrib', '2026-08-26T10:23:17+07:00',
                         '2026-08-26 03:23 UTC')):
    s = page(run)
    want = ('<time datetime="%s" title="%s; offset from the run id">%s %s %s</time>'
            % (local, utc, local[:10], local[11:16], local[-6:]))
    ok(want in s, run + ": local time with its offset: " + want)
    sub = s[s.find('<p class="sub">'):s.find('</p>', s.find('<p class="sub">'))]
    ok(utc not in re.sub(r'title="[^"]*"', '', sub), run + ": no UTC time beside the run id")
s = page('m5-energy/2026-08-26T0856-saturated')
ok('<th scope="col" class="num">S-Cluster' in s, "the windows table's column is S-Cluster")
ok('S-Cluster frequency across the session' in s and
   'performance cluster (S-Cluster) of each load window' in s,
   "the frequency chart names S-Cluster")
ok('P-cluster' not in s and 'P-Cluster' not in s, "no P-cluster on an M5 page")
SYN = 'Reconstructed run: sample-level detail outside the published points is synthetic.'
for run, want in (('m5-energy/2026-08-26T0856-saturated', True),
                  ('m5-energy/2026-08-26T1023-attrib', True),
                  ('m5-energy/2026-08-26-published-headline', False)):
    caps = re.findall(r'<figcaption>(.*?)</figcaption>', page(run), re.S)
    ok(len(caps) >= 3, run + ": has charts (%d)" % len(caps))
    if want:
        bad = [c for c in caps if not c.rstrip().endswith(SYN)]
        ok(not bad, run + ": every one of %d captions says sample detail is synthetic %s"
           % (len(caps), bad[:1]))
    else:
        ok(not any(SYN in c for c in caps), run + ": no synthetic note on published figures")
s = page('m5-energy/2026-08-26-published-headline')
ok('<time datetime="2026-08-26">2026-08-26</time>' in s, "a dated summary run keeps its date")
PY
