/*
 * ingest/energy_csv.c - power.csv, the plain log any logger can write
 * (README.md "Power sources"):
 *
 *     time,package-0_J,dram_J
 *     1733170000000,123456.789,2345.6
 *     2026-08-26T08:56:01.000Z,123466.790,2345.9
 *
 * time: Unix epoch milliseconds (a decimal, fraction allowed) or ISO 8601
 * with a zone.  Each other column is a domain: "<name>_J" a cumulative
 * counter in joules (the difference of two rows is the energy between
 * them; it never goes back), "<name>_W" the mean power in watts over the
 * interval since the row before (so the first row's must be empty).  An
 * empty cell: no value there.  Lines starting with '#' are comments.
 * Every domain counts but core, uncore and gfx (inside a package), and
 * psys counts alone when present (it covers the rest).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/util.h"
#include "ingest/energy.h"

struct col {
	int joules;		/* 1: counter _J, 0: power _W */
	double prev;		/* counter at the row before; NAN */
};

static int
domain_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
	       ch == '.' || ch == '/' || ch == '_';
}

static int
read_header(const char *path, long no, char *line, struct power_file *pf, struct col *c)
{
	char *f = line, *next, *u;
	size_t k, n;
	int psys = 0;

	next = strchr(f, ',');
	if (!next || (size_t)(next - f) != 4 || strncmp(f, "time", 4))
		return error_at(path, no, "the header is 'time' and then '<domain>_J' or "
				"'<domain>_W' columns");
	for (f = next + 1; f; f = next) {
		next = strchr(f, ',');
		if (next)
			*next++ = '\0';
		n = strlen(f);
		u = n > 2 ? f + n - 2 : NULL;
		if (!u || u[0] != '_' || (u[1] != 'J' && u[1] != 'W'))
			return error_at(path, no, "column '%s' is not '<domain>_J' (joules, "
					"cumulative) or '<domain>_W' (watts)", f);
		for (k = 0; f + k < u; k++)
			if (!domain_char((unsigned char)f[k]))
				return error_at(path, no, "domain '%.*s': lowercase letters, digits "
						"and - . / _ only", (int)(u - f), f);
		if (pf->ndom >= PDOM_MAX)
			return error_at(path, no, "more than %d domains", PDOM_MAX);
		*u = '\0';
		for (k = 0; k < pf->ndom; k++)
			if (!strcmp(pf->dom[k], f))
				return error_at(path, no, "domain '%s' given twice", f);
		c[pf->ndom].joules = u[1] == 'J';
		c[pf->ndom].prev = NAN;
		power_add_domain(pf, f, 1);
		psys |= !strcmp(f, "psys");
	}
	for (k = 0; k < pf->ndom; k++)
		pf->dom_sum[k] = psys ? !strcmp(pf->dom[k], "psys") : !power_dom_subzone(pf->dom[k]);
	return 0;
}

static int
read_time(const char *path, long no, const char *s, double *ms)
{
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++)
		;
	if (p > s && (!*p || *p == '.')) {
		if (en_number(s, ms))
			return error_at(path, no, "time '%s' is not a number of milliseconds", s);
		return 0;
	}
	switch (en_iso_time(s, ms)) {
	case 0:
		return 0;
	case -2:
		return error_at(path, no, "time '%s' has no timezone: erg places the samples "
				"on the Unix epoch; add Z or +HH:MM", s);
	default:
		return error_at(path, no, "time '%s' is neither epoch milliseconds nor an ISO "
				"8601 date and time", s);
	}
}

int
energy_read_csv(const char *path, struct power_file *pf)
{
	struct col c[PDOM_MAX];
	struct elines l;
	char *line, *f, *next;
	size_t len, k, rows = 0;
	double t, prev_t = NAN, v, dj[PDOM_MAX];
	long prev_line = 0;
	int r, bad = 0, header = 0;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "power-csv";
	pf->caveat = "as the logger measured it: power.csv does not say what its domains "
		     "cover";
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (line[0] == '#' || !len)
			continue;
		if (!header) {
			bad = read_header(path, l.line, line, pf, c);
			header = 1;
			continue;
		}
		f = line;
		next = strchr(f, ',');
		if (!next) {
			bad = error_at(path, l.line, "%zu fields, the header has %zu", (size_t)1,
				       pf->ndom + 1);
			break;
		}
		*next++ = '\0';
		if ((bad = read_time(path, l.line, f, &t)))
			break;
		if (rows && !(t > prev_t)) {
			bad = error_at(path, l.line, "time does not move forward from line %ld",
				       prev_line);
			break;
		}
		for (k = 0; k < pf->ndom; k++) {
			f = next;
			if (!f) {
				bad = error_at(path, l.line, "%zu fields, the header has %zu", k + 1,
					       pf->ndom + 1);
				break;
			}
			next = strchr(f, ',');
			if (next)
				*next++ = '\0';
			dj[k] = NAN;
			if (!*f) {
				c[k].prev = c[k].joules ? NAN : c[k].prev;
				continue;
			}
			if (en_number(f, &v)) {
				bad = error_at(path, l.line, "'%s' of '%s' is not a number", f,
					       pf->dom[k]);
				break;
			}
			if (c[k].joules) {
				if (v < c[k].prev) {
					bad = error_at(path, l.line, "counter '%s_J' goes backwards "
						       "(from %s to %s J): power.csv counters never "
						       "wrap, write them unwrapped", pf->dom[k],
						       num_text(a, c[k].prev), num_text(b, v));
					break;
				}
				if (!isnan(c[k].prev))
					dj[k] = v - c[k].prev;
				c[k].prev = v;
			} else {
				if (!rows) {
					bad = error_at(path, l.line, "'%s_W' on the first row: watts "
						       "are the mean over the interval since the row "
						       "before, and there is none; leave it empty",
						       pf->dom[k]);
					break;
				}
				if (v < 0) {
					bad = error_at(path, l.line, "'%s_W' is negative (%s)",
						       pf->dom[k], f);
					break;
				}
				if (v > EN_MAX_WATTS) {
					bad = error_at(path, l.line, "'%s_W' is %s W: more than 100 kW "
						       "is no plausible reading", pf->dom[k], f);
					break;
				}
				dj[k] = v * ((t - prev_t) / 1000);
			}
		}
		if (bad)
			break;
		if (next) {
			bad = error_at(path, l.line, "more fields than the header's %zu",
				       pf->ndom + 1);
			break;
		}
		if (rows)
			en_add_sample(pf, prev_t, t, l.line, dj);
		prev_t = t;
		prev_line = l.line;
		rows++;
	}
	if (!bad && r < 0)
		bad = -1;
	if (!bad && !header)
		bad = error_at(path, 0, "no header: power.csv starts 'time,<domain>_J|_W,...'");
	snprintf(a, sizeof(a), "%zu row%s", rows, rows == 1 ? "" : "s");
	return en_end(pf, &l, bad, a);
}
