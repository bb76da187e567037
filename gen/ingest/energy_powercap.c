/*
 * ingest/energy_powercap.c - "powercap-log v1" (energy-formats.md §7;
 * what `erg record` writes, and what a shell loop over
 * /sys/class/powercap can):
 *
 *     # powercap-log v1 host=<hostname> clock=CLOCK_REALTIME
 *     # zone,intel-rapl:0,package-0,262143328850
 *     # zone,intel-rapl:0:0,core,262143328850
 *     t_ns,zone,energy_uj
 *     1733170000123456789,intel-rapl:0,123456789012
 *     1733170000123456789,intel-rapl:0:0,23456789012
 *
 * Rows with one t_ns are one sweep over the zones; consecutive sweeps are
 * a sample [t_prev, t_cur] with each zone's counter difference.  A counter
 * wraps at its max_energy_range_uj: cur < prev reads as cur + max - prev
 * when that power is plausible (at most twice the zone's highest power
 * over intervals without a wrap, in the interval alone or together with
 * an adjoining one: a reading stamped late), else it is an error, as is any wrap
 * without a known max.  Two sweeps further apart than the counter takes
 * to wrap at twice that peak are an error: a second wrap could hide.
 * An interval over 5x the median (the logger stopped) is a gap instead
 * (en_finish), whatever its counters did, as is the one after a
 * "# resumed" line (erg record --resume marks the pause, whatever its
 * length).
 *
 * Domains: intel-rapl:N zones by name (package-N, psys), their children
 * as "package-N/<name>": dram counts, core/uncore (inside the package)
 * are reported only; intel-rapl-mmio zones duplicate a package and are
 * reported only; with psys, psys alone counts (it covers the rest).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/util.h"
#include "ingest/energy.h"

struct zone {
	char *path, *name;
	uint64_t max;		/* 0: unknown */
	long line;
	int dom;		/* index in pf->dom, -1 if never read */
	uint64_t prev, cur;
	int seen;		/* read in the current sweep */
	int read;		/* read at all */
	double peak_w;		/* highest power over intervals without a wrap
				 * (check_wraps) */
};

struct wrapped {		/* a wrap to hold against the zone's peak */
	size_t sample, zone;
	uint64_t from, to;
	long line;
};

struct pc {
	const char *path;
	struct zone z[PDOM_MAX];
	size_t nz;
	struct wrapped *w;
	size_t nw, aw;
	char *errtext;		/* first "# error" comment */
	/* "# resumed" (erg record --resume): the interval up to the next
	 * sweep is a pause, whatever its length */
	int resume_pending, cur_paused;
	size_t *paused;		/* samples that are such a pause */
	size_t npaused, apaused;
};

static int
is_paused(const struct pc *c, size_t sample)
{
	size_t i;

	for (i = 0; i < c->npaused; i++)
		if (c->paused[i] == sample)
			return 1;
	return 0;
}

static const char *
base_of(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* "intel-rapl:0" 1, "intel-rapl:0:1" 2, "intel-rapl-mmio:0" 1 ... */
static int
depth_of(const char *p)
{
	int n = 0;

	for (p = base_of(p); *p; p++)
		n += *p == ':';
	return n;
}

static int
parse_zone(struct pc *c, char *line, long no)
{
	char *f[3], *p = line + strlen("# zone,");
	size_t i, k;
	uint64_t max = 0;

	for (k = 0; k < 3; k++) {
		f[k] = p;
		p = strchr(p, ',');
		if ((k < 2) != (p != NULL))
			return error_at(c->path, no, "a zone line is '# zone,<path>,<name>,"
					"<max_energy_range_uj>'");
		if (p)
			*p++ = '\0';
	}
	if (!*f[0] || !*f[1])
		return error_at(c->path, no, "zone without a path or a name");
	/* empty or 0: not known (unreadable); no wrap can be told then */
	if (*f[2] && en_uint(f[2], &max))
		return error_at(c->path, no, "max_energy_range_uj '%s' is not a whole number",
				f[2]);
	for (i = 0; i < c->nz; i++)
		if (!strcmp(c->z[i].path, f[0]))
			return error_at(c->path, no, "zone '%s' declared twice (line %ld)",
					f[0], c->z[i].line);
	if (c->nz >= PDOM_MAX)
		return error_at(c->path, no, "more than %d zones", PDOM_MAX);
	c->z[c->nz].path = xstrdup(f[0]);
	c->z[c->nz].name = xstrdup(f[1]);
	c->z[c->nz].line = no;
	c->z[c->nz].max = max;
	c->z[c->nz].dom = -1;
	c->nz++;
	return 0;
}

/*
 * Domain names and which count, once the zones that were read are
 * known.  A zone declared but never read that would count is an error
 * (its energy would be missing from every total).
 */
static int
make_domains(struct pc *c, struct power_file *pf)
{
	struct buf name = BUF_INIT;
	size_t i, k, plen;
	int psys = 0, sum, rc = 0;

	for (i = 0; i < c->nz; i++)
		if (c->z[i].read && depth_of(c->z[i].path) == 1 &&
		    !strstr(base_of(c->z[i].path), "-mmio") && !strcmp(c->z[i].name, "psys"))
			psys = 1;
	for (i = 0; i < c->nz && !rc; i++) {
		struct zone *z = &c->z[i];
		const char *b = base_of(z->path);
		int mmio = strstr(b, "-mmio:") != NULL;

		buf_reset(&name);
		if (depth_of(z->path) >= 2) {
			/* a child: named after its parent zone */
			plen = (size_t)(strrchr(b, ':') - b);
			for (k = 0; k < c->nz; k++)
				if (strlen(base_of(c->z[k].path)) == plen &&
				    !strncmp(base_of(c->z[k].path), b, plen))
					break;
			if (k < c->nz)
				buf_addf(&name, "%s/%s", c->z[k].name, z->name);
			else
				buf_addf(&name, "%s (%s)", z->name, b);
			sum = !psys && !mmio && !power_dom_subzone(z->name);
		} else {
			buf_addf(&name, "%s%s", z->name, mmio ? " (mmio)" : "");
			sum = !mmio && (!psys || !strcmp(z->name, "psys"));
		}
		if (!z->read) {
			if (sum)
				rc = error_at(c->path, z->line, "zone '%s' (%s) is declared but "
					      "never read: its energy would be missing from every "
					      "total", z->path, z->name);
			continue;
		}
		for (k = 0; k < pf->ndom; k++)
			if (!strcmp(pf->dom[k], name.ptr))
				rc = error_at(c->path, z->line, "zones '%s' and '%s' are both "
					      "named '%s'", c->z[k].path, z->path, name.ptr);
		if (!rc)
			z->dom = (int)power_add_domain(pf, name.ptr, sum);
	}
	buf_release(&name);
	return rc;
}

static double
t_ms(uint64_t t_ns)
{
	return (double)(t_ns / 1000000) + (double)(t_ns % 1000000) / 1e6;
}

/*
 * End of a sweep at t: check every zone was read, then (after the first
 * sweep) a sample.  Zone counters are raw here; wraps are resolved and
 * checked after the whole file (they need the zones' peaks).
 */
static int
end_sweep(struct pc *c, struct power_file *pf, uint64_t t_prev, uint64_t t, long line,
	  size_t nsweep, double *dj)
{
	size_t i;

	for (i = 0; i < c->nz; i++)
		if (c->z[i].read && !c->z[i].seen)
			return error_at(c->path, line, "the sweep at t_ns %" PRIu64 " has no "
					"reading of zone '%s'", t, c->z[i].path);
	for (i = 0; i < c->nz; i++) {
		struct zone *z = &c->z[i];

		if (!z->read)
			continue;
		z->seen = 0;
		if (nsweep > 1 && !c->cur_paused) {
			if (z->cur >= z->prev) {
				dj[z->dom] = (double)(z->cur - z->prev) / 1e6;
			} else {
				/* (with no max, an error unless it is a gap) */
				dj[z->dom] = z->max ? (double)(z->max - z->prev + z->cur) / 1e6
					: NAN;
				ALLOC_GROW(c->w, c->nw + 1, c->aw);
				c->w[c->nw].sample = pf->n;
				c->w[c->nw].zone = i;
				c->w[c->nw].from = z->prev;
				c->w[c->nw].to = z->cur;
				c->w[c->nw].line = line;
				c->nw++;
			}
		}
		z->prev = z->cur;
	}
	if (nsweep > 1 && c->cur_paused) {
		ALLOC_GROW(c->paused, c->npaused + 1, c->apaused);
		c->paused[c->npaused++] = pf->n;
	}
	if (nsweep > 1)
		en_add_sample(pf, t_ms(t_prev), t_ms(t), line, dj);
	return 0;
}

/*
 * The lowest power of sample i taken together with a neighbour it adjoins
 * (neither a gap).  A reading stamped early or late (the logger, or the
 * driver updating the counter, held up for a moment) moves energy between
 * two adjacent intervals but not out of the pair: over the pair, a real
 * wrap keeps a plausible power, a reset does not.  +inf when no neighbour
 * qualifies.
 */
static double
late_reading(const struct power_file *pf, size_t i, size_t dom, double gap)
{
	double best = INFINITY, j = power_dom_joules(pf, i, dom);
	const struct psample *s = &pf->s[i];
	size_t n;

	for (n = i ? i - 1 : i + 1; n <= i + 1 && n < pf->n; n += 2) {
		const struct psample *o = &pf->s[n];

		if (o->elapsed_ms > gap || isnan(power_dom_joules(pf, n, dom)) ||
		    (n < i ? o->end_ms != s->start_ms : s->end_ms != o->start_ms))
			continue;
		best = fmin(best, (j + power_dom_joules(pf, n, dom)) /
			    ((s->elapsed_ms + o->elapsed_ms) / 1000));
	}
	return best;
}

/*
 * Wraps against the zones' peaks; sweeps against the wrap horizon.  Not
 * across a gap (the logger stopped, as between the attempts of a resumed
 * `erg record`): its energy is not counted, so neither a second wrap nor
 * a reset (a reboot) in it can make a figure wrong.
 */
static int
check_wraps(struct pc *c, struct power_file *pf)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], e[NUM_TEXT_LEN];
	size_t i, k;
	double w, dt, horizon, gap = en_gap_ms(pf);
	/* A counter moves in steps (about 1 ms apart): over an interval
	 * much shorter than the usual one (the last reading when the logger
	 * stops) a step reads as a huge power; power over such an interval
	 * is taken over half the median interval instead. */
	double min_s = isfinite(gap) ? gap / 10 / 1000 : 0;
	unsigned char *wrapped = xcalloc(pf->n * c->nz + 1, 1);

	for (k = 0; k < c->nw; k++)
		wrapped[c->w[k].sample * c->nz + c->w[k].zone] = 1;
	for (i = 0; i < pf->n; i++)
		for (k = 0; k < c->nz; k++) {
			struct zone *z = &c->z[k];

			if (z->dom < 0 || wrapped[i * c->nz + k] || pf->s[i].elapsed_ms > gap)
				continue;
			w = power_dom_joules(pf, i, (size_t)z->dom) /
			    fmax(pf->s[i].elapsed_ms / 1000, min_s);
			if (w > z->peak_w)
				z->peak_w = w;
		}
	free(wrapped);
	for (k = 0; k < c->nw; k++) {
		struct zone *z = &c->z[c->w[k].zone];
		const struct psample *s = &pf->s[c->w[k].sample];

		if (s->elapsed_ms > gap)
			continue;
		if (!z->max)
			return error_at(c->path, c->w[k].line, "counter of zone '%s' goes "
					"backwards (from %" PRIu64 " to %" PRIu64 " uJ) and its "
					"max_energy_range_uj is not known: no wrap can be told",
					z->path, c->w[k].from, c->w[k].to);
		w = power_dom_joules(pf, c->w[k].sample, (size_t)z->dom) /
		    fmax(s->elapsed_ms / 1000, min_s);
		if (z->peak_w > 0 && w > 2 * z->peak_w &&
		    late_reading(pf, c->w[k].sample, (size_t)z->dom, gap) <= 2 * z->peak_w)
			continue;
		if (z->peak_w > 0 ? w > 2 * z->peak_w : w > EN_MAX_WATTS)
			return error_at(c->path, c->w[k].line, "counter of zone '%s' goes "
					"backwards (from %" PRIu64 " to %" PRIu64 " uJ): a wrap at "
					"max_energy_range_uj %" PRIu64 " would mean %s W, more "
					"than twice its peak of %s W; was it reset?", z->path,
					c->w[k].from, c->w[k].to, z->max, num_text(a, w),
					num_text(b, z->peak_w));
	}
	for (k = 0; k < c->nz; k++) {
		struct zone *z = &c->z[k];

		if (z->dom < 0 || !z->max || !(z->peak_w > 0))
			continue;
		horizon = (double)z->max / 1e6 / (2 * z->peak_w);
		for (i = 0; i < pf->n; i++) {
			dt = pf->s[i].elapsed_ms / 1000;
			if (dt >= horizon && !(pf->s[i].elapsed_ms > gap) && !is_paused(c, i))
				return error_at(c->path, pf->s[i].no, "readings %s s apart: at "
						"twice the peak power of zone '%s' (%s W) its "
						"counter wraps every %s s, so a wrap could hide "
						"between them", num_text(a, dt), z->path,
						num_text(b, z->peak_w), num_text(e, horizon));
		}
	}
	return 0;
}

/* A pause shorter than en_finish() makes a gap is one all the same:
 * its energy is not counted, and the page lists it. */
static void
paused_holes(const struct pc *c, struct power_file *pf)
{
	double med = en_gap_ms(pf) / 5;
	size_t i, k, at, ah = pf->nholes;

	for (i = 0; i < c->npaused; i++) {
		at = c->paused[i];
		for (k = 0; k < pf->nholes && pf->holes[k].at != at; k++)
			;
		if (k < pf->nholes)
			continue;
		for (k = 0; k < pf->nholes && pf->holes[k].at < at; k++)
			;
		ALLOC_GROW(pf->holes, pf->nholes + 1, ah);
		memmove(&pf->holes[k + 1], &pf->holes[k], (pf->nholes - k) * sizeof(*pf->holes));
		memset(&pf->holes[k], 0, sizeof(pf->holes[k]));
		pf->holes[k].at = at;
		pf->holes[k].ms = pf->s[at].elapsed_ms;
		pf->holes[k].lo_ms = pf->s[at].start_ms;
		pf->holes[k].hi_ms = pf->s[at].end_ms;
		pf->holes[k].missing = isfinite(med) && med > 0 ?
			(int)fmax(0, floor(pf->s[at].elapsed_ms / med + 0.5) - 1) : 0;
		pf->nholes++;
	}
}

static int
header_line(struct pc *c, char *line, long no)
{
	char *p = line + strlen("# powercap-log "), *tok, *save = NULL;

	if (strncmp(p, "v1", 2) || (p[2] && p[2] != ' '))
		return error_at(c->path, no, "powercap-log version '%.*s' is not one erg reads "
				"(v1)", (int)strcspn(p, " "), p);
	for (tok = strtok_r(p + 2, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strncmp(tok, "clock=", 6) && strcmp(tok + 6, "CLOCK_REALTIME"))
			return error_at(c->path, no, "clock '%s' is not the wall clock: erg "
					"needs CLOCK_REALTIME to place the samples", tok + 6);
	return 0;
}

int
energy_read_powercap(const char *path, struct power_file *pf)
{
	struct pc c = { 0 };
	struct elines l;
	char *line, *f1, *f2;
	size_t len, i, nsweep = 0, k;
	uint64_t t, t_prev = 0, t_cur = 0, v;
	long sweep_line = 0;
	int r, in_rows = 0, bad = 0, header = 0;
	double dj[PDOM_MAX];

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "powercap-log";
	pf->caveat = "RAPL: processor package and DRAM as the CPU estimates them (a model "
		     "on older Intel parts), no PSU, board, disk or fan power";
	c.path = path;
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	/*
	 * Domains are known only once the rows say which zones are read;
	 * rows are kept by zone index until then, so a first pass collects
	 * zones and the checks, and sample values come with the second
	 * sweep.  Zones must all be declared before the header, so the
	 * domains can be made at the header: a zone is "read" when declared
	 * and is checked to have rows after the file.
	 */
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (l.line == 1) {
			if (strncmp(line, "# powercap-log ", 15)) {
				bad = error_at(path, 1, "a powercap log starts '# powercap-log v1'");
				break;
			}
			bad = header_line(&c, line, 1);
			continue;
		}
		if (!len)
			continue;	/* a blank line (an editor's last one), as the
					 * other logs have it */
		if (line[0] == '#') {
			if (in_rows && !strncmp(line, "# zone,", 7))
				bad = error_at(path, l.line, "zone declared after the rows began");
			else if (!strncmp(line, "# zone,", 7))
				bad = parse_zone(&c, line, l.line);
			else if (!strncmp(line, "# error", 7) && !c.errtext)
				c.errtext = xstrdup(line);
			else if (!strcmp(line, "# resumed") && in_rows)
				c.resume_pending = 1;
			continue;
		}
		if (!header) {
			if (strcmp(line, "t_ns,zone,energy_uj")) {
				bad = error_at(path, l.line, "expected the header 't_ns,zone,energy_uj'");
				break;
			}
			header = 1;
			for (i = 0; i < c.nz; i++)
				c.z[i].read = 1;
			continue;
		}
		if (!in_rows) {
			in_rows = 1;
			/* every declared zone, for now; unread ones are
			 * found at the end and the domains remade */
			if ((bad = make_domains(&c, pf)))
				break;
		}
		f1 = strchr(line, ',');
		f2 = f1 ? strchr(f1 + 1, ',') : NULL;
		if (!f2 || strchr(f2 + 1, ',')) {
			bad = error_at(path, l.line, "a row is 't_ns,zone,energy_uj'");
			break;
		}
		*f1++ = '\0';
		*f2++ = '\0';
		if (en_uint(line, &t) || !t) {
			bad = error_at(path, l.line, "t_ns '%s' is not a whole number of "
				       "nanoseconds", line);
			break;
		}
		for (k = 0; k < c.nz && strcmp(c.z[k].path, f1); k++)
			;
		if (k == c.nz) {
			bad = error_at(path, l.line, "zone '%s' is not declared", f1);
			break;
		}
		if (en_uint(f2, &v)) {
			bad = error_at(path, l.line, "energy_uj '%s' is not a whole number", f2);
			break;
		}
		if (c.z[k].max && v > c.z[k].max) {
			bad = error_at(path, l.line, "energy_uj %" PRIu64 " of zone '%s' is above "
				       "its max_energy_range_uj %" PRIu64, v, f1, c.z[k].max);
			break;
		}
		if (!nsweep || t != t_cur) {
			if (nsweep && t < t_cur) {
				bad = error_at(path, l.line, "t_ns %" PRIu64 " is before the "
					       "sweep at line %ld", t, sweep_line);
				break;
			}
			if (nsweep && (bad = end_sweep(&c, pf, t_prev, t_cur, sweep_line, nsweep,
						       dj)))
				break;
			t_prev = t_cur;
			t_cur = t;
			sweep_line = l.line;
			nsweep++;
			c.cur_paused = c.resume_pending;
			c.resume_pending = 0;
			for (i = 0; i < PDOM_MAX; i++)
				dj[i] = NAN;
		}
		if (c.z[k].seen) {
			bad = error_at(path, l.line, "zone '%s' read twice in the sweep at line %ld",
				       f1, sweep_line);
			break;
		}
		c.z[k].seen = 2;	/* 2: has rows (see below) */
		c.z[k].cur = v;
	}
	if (!bad && r < 0)
		bad = -1;
	if (!bad && !header && !l.eof)
		bad = -1;
	if (!bad && nsweep) {
		/* The last sweep: complete, or the logger was stopped in it. */
		size_t miss = 0;

		for (i = 0; i < c.nz; i++)
			miss += !c.z[i].seen;
		if (miss && miss < c.nz && nsweep > 1) {
			warn_at(path, sweep_line, "the last sweep is incomplete (the logger "
				"stopped in it): left out");
		} else if (miss == c.nz) {
			/* impossible: a sweep has a row */
		} else if (!miss) {
			bad = end_sweep(&c, pf, t_prev, t_cur, sweep_line, nsweep, dj);
		} else {
			bad = error_at(path, sweep_line, "the only sweep does not read every "
				       "declared zone");
		}
	}
	if (!bad && !header && !l.line)
		bad = error_at(path, 0, "empty file");
	if (!bad && !header)
		bad = error_at(path, l.line, "no header 't_ns,zone,energy_uj'");
	if (!bad && pf->n == 0)
		bad = error_at(path, 0, "no sample in '%s' has energy (%s)", base_of(path),
			       c.errtext ? c.errtext : nsweep ? "one sweep only: energy needs two"
			       : "no readings");
	if (!bad)
		bad = check_wraps(&c, pf);
	bad = en_end(pf, &l, bad, NULL);
	/* after en_finish: a marked pause too short to be a gap becomes one */
	if (!bad)
		paused_holes(&c, pf);
	for (i = 0; i < c.nz; i++) {
		free(c.z[i].path);
		free(c.z[i].name);
	}
	free(c.w);
	free(c.paused);
	free(c.errtext);
	return bad;
}
