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
