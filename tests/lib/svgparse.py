# tests/lib/svgparse.py - reads the charts erg writes (gen/render/svg.c) back
# for the shell tests: each styled element (bar, line, dot, legend key) with
# its colour class sK, its pattern (hatch, dash, marker shape) and the name
# it is drawn for (the subject of its <title>, or its legend text).
import re, sys, html as H

TOK = re.compile(r'<(/?)([a-zA-Z]+)((?:[^>"]|"[^"]*")*)>|([^<]+)')
STY = re.compile(r'class="(bar|line|dot|key) s(\d+)"')

def items(svg):
    """Styled elements of one chart: kind, colour, pattern, and the name
    they are drawn for (their <title>'s subject or their legend text)."""
    out, cur, want_title, want_legend, legend_from = [], None, False, False, 0
    grab = None
    for m in TOK.finditer(svg):
        close, tag, attrs, text = m.group(1), m.group(2), m.group(3) or '', m.group(4)
        if text is not None:
            if grab == 'title' and cur is not None:
                cur['title'] = H.unescape(text)
            elif grab == 'legend':
                name = H.unescape(text)
                for it in out[legend_from:]:
                    if it['title'] is None:
                        it['legend'] = name
                legend_from = len(out)
            grab = None
            continue
        if close:
            continue
        s = STY.search(attrs)
        if s:
            pat = None
            if s.group(1) in ('line',):
                d = re.search(r'stroke-dasharray="([^"]*)"', attrs)
                pat = 'dash ' + (d.group(1) if d else 'solid')
            if s.group(1) == 'dot':
                d = re.search(r'd="M[-0-9.]+,[-0-9.]+([^"]*)"', attrs)
                pat = 'marker ' + (d.group(1) if d else '?')
            cur = {'kind': s.group(1), 'colour': int(s.group(2)), 'pat': pat,
                   'title': None, 'legend': None}
            out.append(cur)
            want_title = not attrs.rstrip().endswith('/')
            continue
        if tag == 'title' and want_title:
            grab = 'title'
            want_title = False
            continue
        want_title = False
        if tag == 'rect' and 'fill="url(#' in attrs and out:
            h = re.search(r'-h(\d+)\)"', attrs)
            if out[-1]['kind'] in ('bar', 'key'):
                out[-1]['pat'] = 'hatch ' + h.group(1)
        if tag == 'text' and 'class="legend"' in attrs:
            grab = 'legend'
    for it in out:
        if it['kind'] in ('bar', 'key') and it['pat'] is None:
            it['pat'] = 'hatch none'
        if it['title'] is not None:
            head = it['title'].split(': ')[0]
            it['name'] = head.split(', ')[-1]
        else:
            it['name'] = it['legend']
    return out

def charts(page):
    return [(re.search(r'<svg[^>]*\sid="([^"]*)"', s).group(1), s)
            for s in re.findall(r'<svg.*?</svg>', page, re.S)]

def styles(page, names, name_of=None):
    """name -> {'colour': set, 'hatch'/'dash'/'marker': set} over every
    chart of page; name_of(chart id) names every element of a chart."""
    got = {}
    for cid, svg in charts(page):
        for it in items(svg):
            n = name_of(cid) if name_of else it['name']
            if n not in names:
                continue
            g = got.setdefault(n, {'colour': set(), 'hatch': set(), 'dash': set(),
                                   'marker': set(), 'charts': set()})
            g['colour'].add(it['colour'])
            g['charts'].add(cid)
            if it['pat']:
                k, v = it['pat'].split(' ', 1)
                g[k].add(v)
    return got

# Point labels of a scatter (svg.c point_labels()): the box each covers,
# sized as svg.c sizes text: 6.6 px (0.6 em of 11 px) per character, 12 px
# high with the baseline 9 px below the top; and the points, each covering
# 4.5 px around its centre.
CW, ASC, LH, R = 6.6, 9.0, 12.0, 4.5

def text_chars(inner):
    inner = re.sub(r'<title>.*?</title>', '', inner, flags=re.S)
    return len(H.unescape(re.sub(r'<[^>]*>', '', inner)))

def point_labels(svg):
    """[(text, box)] of the chart's point labels, box = (x0, y0, x1, y1),
    and the leader lines [(x0, y0, x1, y1)]."""
    g = re.search(r'<g class="point-labels">(.*?)</g>', svg, re.S)
    if not g:
        return None, None
    labels = []
    for m in re.finditer(r'<text class="tick" x="([-0-9.]+)" y="([-0-9.]+)"( text-anchor="[^"]*")?>(.*?)</text>',
                         g.group(1), re.S):
        x, y, inner = float(m.group(1)), float(m.group(2)), m.group(4)
        assert not m.group(3), "point labels are written with the start anchor"
        w = text_chars(inner) * CW
        t = re.search(r'<title>(.*?)</title>', inner, re.S)
        text = H.unescape(t.group(1) if t else re.sub(r'<[^>]*>', '', inner))
        labels.append((text, (x, y - ASC, x + w, y - ASC + LH)))
    leaders = [tuple(map(float, m.groups())) for m in
               re.finditer(r'<path class="leader" d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)"/>', g.group(1))]
    return labels, leaders

def scatter_points(svg):
    """[(name, x, y)]: the points (circles or markers) with the subject of
    their <title>."""
    pts = []
    for m in re.finditer(r'<circle class="dot[^"]*" cx="([-0-9.]+)" cy="([-0-9.]+)"[^>]*><title>(.*?)</title>', svg, re.S):
        pts.append((H.unescape(m.group(3)).split(': ')[0], float(m.group(1)), float(m.group(2))))
    for m in re.finditer(r'<path class="dot s\d+" d="M([-0-9.]+),([-0-9.]+)[^"]*"><title>(.*?)</title>', svg, re.S):
        pts.append((H.unescape(m.group(3)).split(': ')[0], float(m.group(1)), float(m.group(2))))
    return pts

def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

def dist_box(x, y, b):
    dx = max(b[0] - x, 0, x - b[2])
    dy = max(b[1] - y, 0, y - b[3])
    return (dx * dx + dy * dy) ** 0.5

def label_problems(svg):
    """What is wrong with the placement of the chart's point labels: two
    boxes overlapping, a box over a point, a label away from every point
    of its name without a leader line from one of them to it."""
    labels, leaders = point_labels(svg)
    if labels is None:
        return None
    bad = []
    pts = scatter_points(svg)
    for i, (t, b) in enumerate(labels):
        for t2, b2 in labels[i + 1:]:
            if overlap(b, b2):
                bad.append('labels %r and %r overlap' % (t, t2))
        for n, x, y in pts:
            if overlap(b, (x - R, y - R, x + R, y + R)):
                bad.append('label %r covers the point of %r' % (t, n))
        own = [(x, y) for n, x, y in pts if n == t or (t.endswith('\u2026') and n.startswith(t[:-1]))]
        near = any(dist_box(x, y, b) <= R + 2 + 0.2 for x, y in own)
        led = any(((l[0] - x) ** 2 + (l[1] - y) ** 2) ** 0.5 <= R + 0.2 and dist_box(l[2], l[3], b) <= 0.1
                  for l in leaders for x, y in own)
        if not own:
            bad.append('label %r names no point' % t)
        elif not near and not led:
            bad.append('label %r is neither next to its point nor led to it' % t)
    return bad
