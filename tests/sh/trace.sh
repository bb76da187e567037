#!/bin/sh
# tests/sh/trace.sh - the reconstructed M5 session shows the published
# power trace (issue 15).  The expected points are read from the published
# dataset (../shared/reference/energy-benchmark-m5.json, block powerTrace:
# one ping window per framework in round 3, each point a sample's start
# relative to the window start, tMs, and its mean power, watts), never from
# erg's output.  The committed session (archive/m5-energy/
# 2026-08-26T0856-saturated, written by tests/tools/rebuild) is built with
# erg, and for each traced framework:
#   - results.json power_trace holds that window (measurement of that
#     framework and round, route ping);
#   - the samples starting inside the window are exactly the published
#     points, in order: start within 0.5 ms of tMs, mean power (erg's:
#     energy over the fitted sample length) rounding to the published W;
#     one sample more straddles the window start (the unpublished head);
#   - the window's energy, mean power and sample count in
#     results.json are still the published energyJ, meanWatts and
#     powerSamples (3 dp);
#   - the run page's power-around-a-window chart draws each point: the
#     series titled with the target has a step starting at tMs and at the
#     published W, in pixels through the axis ticks the chart prints
#     (within 0.15 px: the path's 0.1 px resolution, ~3 ms and ~0.01 W).
# And without erg, from the raw power.plist.gz (python's plistlib) and the
# published method (energy-method.md 1.3: OLS of timestamp + 500 ms on
# cumulative elapsed_ns; start = end - elapsed x b): the samples starting
# inside each traced window are the published points, and the plist's own
# mean power, (cpu + gpu + ane energy, whole mJ) over elapsed_ns, rounds to
# the published W.
T=trace
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

run=2026-08-26T0856-saturated
data=$SHARED/reference/energy-benchmark-m5.json
if [ ! -f "$data" ]; then
	notok "no published dataset at $data"
	exit 0
fi
mkdir -p "$tmp/a/m5-energy"
cp -r "$ERG_SRC/archive/m5-energy/$run" "$tmp/a/m5-energy/"
if ! "$ERG" build --quiet --archive "$tmp/a" --out "$tmp/site" > "$tmp/err" 2>&1; then
	notok "the reference session does not build"
	show "$tmp/err"
	exit 0
fi
python3 - "$data" "$tmp/site" "$run" "$tmp/a/m5-energy/$run" << 'PY'
import calendar, glob, gzip, html, json, plistlib, re, sys

data, site, run, rundir = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

def ok(c, what):
    print(("ok" if c else "not ok") + " - trace: " + what)
    return c

pub = json.load(open(data))
pt = pub["powerTrace"]
res_paths = glob.glob("%s/runs/*/%s/results.json" % (site, run))
if not ok(len(res_paths) == 1, "one results.json for %s" % run):
    sys.exit(0)
res = json.load(open(res_paths[0]))
page = open(res_paths[0].replace("results.json", "index.html"), encoding="utf-8").read()

# The chart: its tick values and grid lines give the axis mapping.
m = re.search(r'<svg[^>]*\sid="chart-trace[^"]*".*?</svg>', page, re.S)
svg = m.group(0) if m else ""
ok(m is not None, "the run page has the power-around-a-window chart")

def num_text(t):
    t = html.unescape(t).replace("\u2212", "-").replace(",", "").replace("\u202f", "")
    return float(t)

def axis_map():
    g = re.search(r'<path class="grid" d="([^"]*)"', svg)
    if not g:
        return None
    ys = [float(v) for v in re.findall(r'M[-0-9.]+,([-0-9.]+)H', g.group(1))]
    xs = [float(v) for v in re.findall(r'M([-0-9.]+),[-0-9.]+V', g.group(1))]
    ticks = [num_text(t) for t in re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', svg)]
    if len(ticks) != len(ys) + len(xs) or len(ys) < 2 or len(xs) < 2:
        return None
    def fit(px, val):
        # px = a + b * val through the outermost ticks
        b = (px[-1] - px[0]) / (val[-1] - val[0])
        return px[0] - b * val[0], b
    return fit(xs, ticks[len(ys):]), fit(ys, ticks[:len(ys)])

amap = axis_map() if svg else None
ok(amap is not None, "the chart's axis ticks are read")

def steps(name):
    # the series path titled with the target: every H is one sample's
    # step, from the pen's x to its own, at the pen's y
    m = re.search(r'<path class="line[^"]*"[^>]*\sd="([^"]*)"[^>]*><title>%s</title></path>'
                  % re.escape(html.escape(name)), svg)
    if not m:
        return None
    out, x, y = [], None, None
    for cmd, a, b in re.findall(r'([MHV])([-0-9.]+)(?:,([-0-9.]+))?', m.group(1)):
        if cmd == "M":
            x, y = float(a), float(b)
        elif cmd == "V":
            y = float(a)
        else:
            out.append((x, float(a), y))
            x = float(a)
    return out

# The raw samples on the published time base.
docs = [d for d in gzip.open(rundir + "/power.plist.gz").read().split(b"\0") if d.strip()]
raw = []
for d in docs:
    p = plistlib.loads(d)
    pr = p["processor"]
    raw.append((calendar.timegm(p["timestamp"].timetuple()) * 1000, p["elapsed_ns"],
                pr["cpu_energy"] + pr.get("gpu_energy", 0) + pr.get("ane_energy", 0)))
ts0, cum, xs = raw[0][0], 0.0, []
for ts, el, mj in raw:
    cum += el / 1e6
    xs.append(cum)
mx = sum(xs) / len(xs)
my = sum(ts - ts0 + 500 for ts, el, mj in raw) / len(raw)
sxx = sum((x - mx) ** 2 for x in xs)
sxy = sum((x - mx) * (r[0] - ts0 + 500 - my) for x, r in zip(xs, raw))
fb = sxy / sxx
fa = ts0 + my - fb * mx
plist = [(fa + fb * x - r[1] / 1e6 * fb, fa + fb * x, r[1], r[2]) for x, r in zip(xs, raw)]
ok(len(plist) > 8000 and 0.99 < fb < 1.01, "%d plist samples, time fit b = %.9f" % (len(plist), fb))

ok(pt.get("route") == "ping" and pt.get("intervalMs") == 500 and len(pt["series"]) == 2,
   "the dataset traces the ping windows of two frameworks")
for fw, points in sorted(pt["series"].items()):
    meas = [x for x in pub["measurements"] if x["framework"] == fw and x["round"] == pt["round"]]
    if not ok(len(meas) == 1, "%s: one measurement in round %d" % (fw, pt["round"])):
        continue
    pw = meas[0]["routes"][pt["route"]]
    tr = [o for o in res["power_trace"] if o.get("measurement") == meas[0]["id"]]
    if not ok(len(tr) == 1 and tr[0]["route"] == pt["route"] and tr[0]["round"] == pt["round"],
              "%s: results.json traces window %s %s" % (fw, meas[0]["id"], pt["route"])):
        continue
    tr = tr[0]
    wl = pw["endedAtMs"] - pw["startedAtMs"]
    ok(tr["window_ms"] == wl, "%s: window of %d ms" % (fw, wl))
    inside = [s for s in tr["samples"] if 0 <= s[0] < tr["window_ms"]]
    head = [s for s in tr["samples"] if s[0] < 0 < s[1]]
    ok(len(inside) == len(points) == 20,
       "%s: %d samples start inside the window, %d points published" % (fw, len(inside), len(points)))
    ok(len(head) == 1, "%s: one unpublished sample straddles the window start" % fw)
    off = ["%d: %.3f ms %.5f W for %d ms %.3f W" % (j, s[0], s[2], p["tMs"], p["watts"])
           for j, (s, p) in enumerate(zip(inside, points))
           if not (abs(s[0] - p["tMs"]) < 0.5 and abs(s[2] - p["watts"]) < 0.0005)]
    ok(not off and len(inside) == len(points),
       "%s: every sample starts at the published tMs and its mean power rounds to the "
       "published W%s" % (fw, "; off: " + "; ".join(off[:4]) if off else ""))
    t0 = pw["startedAtMs"]
    pin = [q for q in plist if t0 <= q[0] < t0 + wl]
    poff = ["%d: %.3f ms %.5f W for %d ms %.3f W" % (j, q[0] - t0, q[3] / (q[2] / 1e6), p["tMs"],
                                                    p["watts"])
            for j, (q, p) in enumerate(zip(pin, points))
            if not (abs(q[0] - t0 - p["tMs"]) < 0.5 and abs(q[3] / (q[2] / 1e6) - p["watts"]) < 0.0005)]
    ok(len(pin) == len(points) and not poff and
       len([q for q in plist if q[0] < t0 < q[1]]) == 1,
       "%s: in power.plist.gz, the %d samples starting inside the window start at the published "
       "tMs, whole mJ over elapsed_ns round to the published W, one more straddles the start%s"
       % (fw, len(pin), "; off: " + "; ".join(poff[:4]) if poff else ""))
    rw = [r for m2 in res["measurements"] if m2["id"] == meas[0]["id"]
          for r in m2["routes"] if r["name"] == pt["route"]]
    ok(len(rw) == 1 and round(rw[0]["energy_j"], 3) == pw["energyJ"] and
       round(rw[0]["mean_watts"], 3) == pw["meanWatts"] and rw[0]["samples"] == pw["powerSamples"],
       "%s: the window still gives the published %.3f J, %.3f W over %d samples"
       % (fw, pw["energyJ"], pw["meanWatts"], pw["powerSamples"]))

    st = steps(tr["target"]) if amap else None
    if not ok(st is not None, "%s: the chart has a series titled %s" % (fw, tr["target"])):
        continue
    (xa, xb), (ya, yb) = amap
    miss = []
    for p in points:
        px, py = xa + xb * p["tMs"] / 1000.0, ya + yb * p["watts"]
        if not any(abs(s[0] - px) <= 0.15 and abs(s[2] - py) <= 0.15 for s in st):
            miss.append("%d ms %.3f W (%.1f,%.1f)" % (p["tMs"], p["watts"], px, py))
    ok(not miss, "%s: the chart draws all %d published points%s"
       % (fw, len(points), "; missing " + ", ".join(miss[:4]) if miss else ""))
PY
