/*
 * ingest/energy_nvsmi.c - `nvidia-smi --query-gpu=timestamp[,index],
 * power.draw[,...] --format=csv[,nounits] -lms N` (energy-formats.md §6):
 *
 *     timestamp, index, power.draw [W]
 *     2024/10/13 03:33:31.779, 0, 19.46 W
 *
 * Fields are separated by ", "; units ride in the header and, without
 * nounits, in each cell.  timestamp is local time without a zone, so the
 * run must say its offset (meta.json erg.powerTimezone).  power.draw is a
 * gauge: each GPU (by index; one GPU when there is no index column) is
 * integrated by the trapezoid over its own timestamps.  A tick is one row
 * per GPU (a GPU index repeating starts the next one); the sample of a
 * tick spans from the previous tick's last timestamp to its own last, and
 * holds each GPU's energy since its previous row.  [N/A] and [Not
 * Supported] are no value (that GPU has no energy there); a reading
 * above 2 kW is no plausible board power.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/util.h"
#include "ingest/energy.h"

#define NV_MAX_WATTS 2000.0
#define NV_FIELDS 64

/* Split line at ", " into f (at most NV_FIELDS); the count. */
static size_t
split(char *line, char **f)
{
	size_t n = 0;
	char *p = line, *q;

	for (;;) {
		if (n == NV_FIELDS)
			return n + 1;
		f[n++] = p;
		q = strstr(p, ", ");
		if (!q)
			return n;
		*q = '\0';
		p = q + 2;
	}
}

/* "2024/10/13 03:33:31.779" at offset tz_ms: Unix ms; -1 if not such a time */
static int
nv_time(const char *s, double tz_ms, double *ms)
{
	char iso[40];

	if (strlen(s) < 19 || strlen(s) > 30 || s[4] != '/' || s[7] != '/')
		return -1;
	snprintf(iso, sizeof(iso), "%sZ", s);
	iso[4] = '-';
	iso[7] = '-';
	if (en_iso_time(iso, ms))
		return -1;
	*ms -= tz_ms;
	return 0;
}

struct gpu {
	long index;
	double t, w;		/* last row: time, watts (NAN: none) */
	int dom;
};

int
energy_read_nvsmi(const char *path, const struct energy_opts *o, struct power_file *pf)
{
	struct gpu g[PDOM_MAX];
	size_t ng = 0, nf, k, ct = SIZE_MAX, ci = SIZE_MAX, cp = SIZE_MAX, ncol = 0;
	char *f[NV_FIELDS + 1], *line, *end, name[32];
	struct elines l;
	size_t len;
	double t, w, dj[PDOM_MAX], tick_start = NAN, tick_end = 0;
	int r, bad = 0, units = 0, seen[PDOM_MAX] = { 0 }, nseen = 0, ticks = 0;
	long idx, tick_line = 0;

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "nvidia-smi";
	pf->caveat = "nvidia-smi power.draw: a gauge of board power, averaged by the driver "
		     "(over 1 s on Ampere and newer), within +/- 5 W; integrated by the "
		     "trapezoid";
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	for (k = 0; k < PDOM_MAX; k++)
		dj[k] = NAN;
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (!len)
			continue;
		nf = split(line, f);
		if (!ncol) {
			if (nf > NV_FIELDS) {
				bad = error_at(path, l.line, "more than %d columns", NV_FIELDS);
				break;
			}
			for (k = 0; k < nf; k++) {
				if (!strcmp(f[k], "timestamp"))
					ct = k;
				else if (!strcmp(f[k], "index"))
					ci = k;
				else if (!strcmp(f[k], "power.draw [W]") ||
					 !strcmp(f[k], "power.draw"))
					cp = k, units = f[k][10] != '\0';
			}
			if (ct == SIZE_MAX || cp == SIZE_MAX) {
				bad = error_at(path, l.line, "the header has no 'timestamp' or no "
					       "'power.draw' (query them with --query-gpu and "
					       "--format=csv)");
				break;
			}
			ncol = nf;
			continue;
		}
		if (nf != ncol) {
			/* nvidia-smi killed mid-line leaves a short last line */
			if (l.eof && l.pos == l.b.len) {
				warn_at(path, l.line, "%zu fields, the header has %zu: a cut last "
					"line, left out", nf, ncol);
				break;
			}
			bad = error_at(path, l.line, "%zu fields, the header has %zu", nf, ncol);
			break;
		}
		if (!o || !o->tz_set) {
			bad = error_at(path, l.line, "timestamp '%s' has no timezone (nvidia-smi "
				       "writes local time): give the logging machine's offset as "
				       "meta.json erg.powerTimezone, e.g. \"+02:00\"", f[ct]);
			break;
		}
		if (nv_time(f[ct], o->tz_ms, &t)) {
			bad = error_at(path, l.line, "timestamp '%s' is not 'YYYY/MM/DD "
				       "HH:MM:SS.mmm'", f[ct]);
			break;
		}
		idx = 0;
		if (ci != SIZE_MAX) {
			idx = strtol(f[ci], &end, 10);
			if (end == f[ci] || *end || idx < 0 || idx > 1000 ||
			    (f[ci][0] == '0' && f[ci][1])) {
				bad = error_at(path, l.line, "index '%s' is not a GPU index", f[ci]);
				break;
			}
		}
		if (!strcmp(f[cp], "[N/A]") || !strcmp(f[cp], "[Not Supported]") ||
		    !strcmp(f[cp], "[Unknown Error]")) {
			w = NAN;
		} else {
			len = strlen(f[cp]);
			if (units) {
				if (len < 3 || strcmp(f[cp] + len - 2, " W")) {
					bad = error_at(path, l.line, "power.draw '%s' is not 'N W'",
						       f[cp]);
					break;
				}
				f[cp][len - 2] = '\0';
			}
			if (en_number(f[cp], &w) || w < 0) {
				bad = error_at(path, l.line, "power.draw '%s' is not a number of "
					       "watts", f[cp]);
				break;
			}
			if (w > NV_MAX_WATTS) {
				bad = error_at(path, l.line, "power.draw of GPU %ld is %s W: more "
					       "than 2 kW is no plausible reading for one board",
					       idx, f[cp]);
				break;
			}
		}
		for (k = 0; k < ng && g[k].index != idx; k++)
			;
		if (k == ng) {
			if (ticks > 0) {
				bad = error_at(path, l.line, "GPU %ld appears after the first tick",
					       idx);
				break;
			}
			if (ng == PDOM_MAX) {
				bad = error_at(path, l.line, "more than %d GPUs", PDOM_MAX);
				break;
			}
			snprintf(name, sizeof(name), "gpu%ld", idx);
			g[ng].index = idx;
			g[ng].t = NAN;
			g[ng].w = NAN;
			g[ng].dom = (int)power_add_domain(pf, name, 1);
			ng++;
		}
		if (seen[k]) {
			/* the next tick: the one before is whole */
			if ((size_t)nseen != ng) {
				bad = error_at(path, tick_line, "a tick without every GPU's row");
				break;
			}
			if (ticks > 0)
				en_add_sample(pf, tick_start, tick_end, tick_line, dj);
			ticks++;
			tick_start = tick_end;
			memset(seen, 0, sizeof(seen));
			nseen = 0;
			for (k = 0; k < PDOM_MAX; k++)
				dj[k] = NAN;
			for (k = 0; k < ng && g[k].index != idx; k++)
				;
		}
		if (!isnan(g[k].t)) {
			if (!(t > g[k].t)) {
				bad = error_at(path, l.line, "timestamp of GPU %ld does not move "
					       "forward", idx);
				break;
			}
			/* trapezoid; no value at either end: no energy */
			dj[g[k].dom] = (g[k].w + w) / 2 * ((t - g[k].t) / 1000);
		}
		g[k].t = t;
		g[k].w = w;
		seen[k] = 1;
		if (!nseen++) {
			tick_end = t;
			tick_line = l.line;
		} else if (t > tick_end) {
			tick_end = t;
		}
	}
	if (!bad && r < 0)
		bad = -1;
	if (!bad && !ncol)
		bad = error_at(path, 0, "no header: nvidia-smi --format=csv writes one");
	if (!bad && (size_t)nseen == ng && ng && ticks > 0)
		en_add_sample(pf, tick_start, tick_end, tick_line, dj);
	else if (!bad && nseen && ticks > 0)
		warn_at(path, tick_line, "the last tick lacks a GPU's row: left out");
	return en_end(pf, &l, bad, NULL);
}
