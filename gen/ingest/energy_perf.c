/*
 * ingest/energy_perf.c - `perf stat -a -I MS -x, -e power/energy-pkg/,
 * power/energy-ram/ [--per-socket] [-o FILE]` (energy-method.md §2.2,
 * energy-formats.md §4):
 *
 *     # started on Thu Dec  3 07:08:18 2026
 *
 *          1.001048308,19.63,Joules,power/energy-pkg/,2002406532,100.00,,
 *
 * Fields by position from the left: time in seconds since counting
 * started, [socket "S0" and its CPU count with --per-socket], value,
 * unit, event, run time, percentage; newer perf appends metric fields,
 * which are ignored.  Values are joules per interval; an interval is
 * [previous time, this time] (the first from 0), so the short last one is
 * right.  The start on the Unix epoch: meta.json erg.powerStartMs, else
 * the "# started on" line (ctime: local time, whole seconds) with
 * erg.powerTimezone.  Events: energy-pkg is "package" (per socket
 * "package-N"), energy-ram "dram", energy-psys "psys" (counts alone),
 * energy-cores "core" and energy-gpu "gfx" (inside the package: reported
 * only).  "<not counted>" and "<not supported>" are no value.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/util.h"
#include "ingest/energy.h"

#define PF_FIELDS 16

static const char *
event_domain(const char *ev)
{
	static const struct {
		const char *ev, *dom;
	} map[] = {
		{ "power/energy-pkg/", "package" }, { "power/energy-ram/", "dram" },
		{ "power/energy-psys/", "psys" }, { "power/energy-cores/", "core" },
		{ "power/energy-gpu/", "gfx" }, { "power_core/energy-core/", "core" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(ev, map[i].ev))
			return map[i].dom;
	return NULL;
}

/* "Thu Dec  3 07:08:18 2026" at offset tz_ms: Unix ms; -1 if not such */
static int
ctime_ms(const char *s, double tz_ms, double *ms)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char mon[4], wd[4], iso[32];
	int d, h, mi, se, y, n = 0;
	const char *m;

	if (sscanf(s, "%3s %3s %d %d:%d:%d %d%n", wd, mon, &d, &h, &mi, &se, &y, &n) != 7 ||
	    s[n] || !(m = strstr(months, mon)) || (m - months) % 3)
		return -1;
	snprintf(iso, sizeof(iso), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, (int)(m - months) / 3 + 1,
		 d, h, mi, se);
	if (en_iso_time(iso, ms))
		return -1;
	*ms -= tz_ms;
	return 0;
}

/*
 * Both meta.json erg.powerStartMs and perf's own "# started on" (whole
 * seconds, local time): the header is the start's second, at the zone's
 * offset when erg.powerTimezone gives it, else at some offset of whole
 * quarter hours (every zone's).  Further apart, one of them is another
 * run's, and the whole power series would be placed that far off.  1
 * after a located error.
 */
static int
header_contradicts(const char *path, long line, const char *s, const struct energy_opts *o)
{
	double h, d, off = 0;
	char a[NUM_TEXT_LEN];

	if (ctime_ms(s, o->tz_set ? o->tz_ms : 0, &h))
		return error_at(path, line, "'%s' is not a ctime date", s), 1;
	d = o->start_ms - h;
	if (!o->tz_set)
		off = round(d / 900000) * 900000;
	/* the second the header names, a second's slack either side */
	if (d - off >= -1000 && d - off < 2000)
		return 0;
	error_at(path, line, "'# started on %s' is %s s %s meta.json erg.powerStartMs%s", s,
		 num_text(a, fabs(round((d - off) / 1000))), d - off < 0 ? "after" : "before",
		 o->tz_set ? " at erg.powerTimezone" : " at any time zone's offset");
	return 1;
}

/* psys covers the package and DRAM: it counts alone */
static void
psys_alone(struct power_file *pf)
{
	size_t d;

	for (d = 0; d < pf->ndom; d++)
		pf->dom_sum[d] = !strncmp(pf->dom[d], "psys", 4);
}

int
energy_read_perf(const char *path, const struct energy_opts *o, struct power_file *pf)
{
	struct elines l;
	char *line, *f[PF_FIELDS + 1], *p, name[64];
	size_t len, nf, k, d;
	double t, v, t0 = NAN, prev = 0, cur = NAN, dj[PDOM_MAX];
	int r, bad = 0, sock, psys = 0, in_rows = 0, started = 0;
	long line_no = 0;
	const char *dom;

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "perf-stat";
	pf->caveat = "RAPL through perf: processor package and DRAM as the CPU estimates "
		     "them, no PSU, board, disk or fan power; joules printed to 10 mJ";
	if (o && o->start_set)
		t0 = o->start_ms;
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	for (k = 0; k < PDOM_MAX; k++)
		dj[k] = NAN;
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (!len)
			continue;
		if (line[0] == '#') {
			if (!strncmp(line, "# started on ", 13) && !started) {
				started = 1;
				if (isnan(t0) && (!o || !o->tz_set)) {
					bad = error_at(path, l.line, "'# started on' is local time "
						       "without a zone: give the offset as meta.json "
						       "erg.powerTimezone (or the start as "
						       "erg.powerStartMs)");
					break;
				}
				if (isnan(t0) && ctime_ms(line + 13, o->tz_ms, &t0)) {
					bad = error_at(path, l.line, "'%s' is not a ctime date",
						       line + 13);
					break;
				}
				if (o && o->start_set && header_contradicts(path, l.line, line + 13, o)) {
					bad = -1;
					break;
				}
			}
			continue;
		}
		for (nf = 0, p = line; nf <= PF_FIELDS; nf++) {
			f[nf] = p;
			p = strchr(p, ',');
			if (!p) {
				nf++;
				break;
			}
			*p++ = '\0';
		}
		if (nf < 6 || nf > PF_FIELDS) {
			bad = error_at(path, l.line, "not a perf stat -x, interval line (%zu fields)",
				       nf);
			break;
		}
		if (isnan(t0)) {
			bad = error_at(path, l.line, "no start time: perf stat writes '# started on' "
				       "only with -o; give meta.json erg.powerStartMs");
			break;
		}
		for (p = f[0]; *p == ' '; p++)
			;
		if (en_number(p, &t) || t <= 0) {
			bad = error_at(path, l.line, "time '%s' is not seconds since perf started", p);
			break;
		}
		sock = -1;
		k = 1;
		if (f[1][0] == 'S' && f[1][1] >= '0' && f[1][1] <= '9') {
			sock = atoi(f[1] + 1);
			k = 3;
			if (nf < 8) {
				bad = error_at(path, l.line, "not a --per-socket interval line");
				break;
			}
		}
		if (strcmp(f[k + 1], "Joules")) {
			bad = error_at(path, l.line, "unit '%s' is not Joules: only power/energy-* "
				       "events are read", f[k + 1]);
			break;
		}
		if (!(dom = event_domain(f[k + 2]))) {
			bad = error_at(path, l.line, "event '%s' is no RAPL energy event erg knows",
				       f[k + 2]);
			break;
		}
		if (sock >= 0)
			snprintf(name, sizeof(name), "%s-%d", dom, sock);
		else
			snprintf(name, sizeof(name), "%s", dom);
		if (!strcmp(f[k], "<not counted>") || !strcmp(f[k], "<not supported>")) {
			v = NAN;
		} else if (en_number(f[k], &v) || v < 0) {
			bad = error_at(path, l.line, "value '%s' is not a number of joules", f[k]);
			break;
		}
		/* a new time: the interval before is whole */
		if (in_rows && t != cur) {
			if (!(t > cur)) {
				bad = error_at(path, l.line, "time %s goes backwards", p);
				break;
			}
			if (!pf->n && psys)
				psys_alone(pf);
			en_add_sample(pf, t0 + prev * 1000, t0 + cur * 1000, line_no, dj);
			prev = cur;
			for (d = 0; d < PDOM_MAX; d++)
				dj[d] = NAN;
		}
		if (!in_rows || t != cur)
			line_no = l.line;
		in_rows = 1;
		cur = t;
		for (d = 0; d < pf->ndom && strcmp(pf->dom[d], name); d++)
			;
		if (d == pf->ndom) {
			if (pf->n) {
				bad = error_at(path, l.line, "'%s' appears after the first interval",
					       f[k + 2]);
				break;
			}
			if (d == PDOM_MAX) {
				bad = error_at(path, l.line, "more than %d domains", PDOM_MAX);
				break;
			}
			power_add_domain(pf, name, !power_dom_subzone(dom));
			psys |= !strcmp(dom, "psys");
		} else if (!isnan(dj[d])) {
			bad = error_at(path, l.line, "'%s' twice in the interval at %s s", name, p);
			break;
		}
		dj[d] = v;
	}
	if (!bad && r < 0)
		bad = -1;
	if (!bad && in_rows) {
		if (!pf->n && psys)
			psys_alone(pf);
		en_add_sample(pf, t0 + prev * 1000, t0 + cur * 1000, line_no, dj);
	}
	return en_end(pf, &l, bad, NULL);
}
