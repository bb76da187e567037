/*
 * analyze/integrate.c - the time fit of power samples and window
 * integration (see integrate.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/integrate.h"
#include "base/util.h"

void
power_fit(struct power_file *pf)
{
	struct psample *s = pf->s;
	size_t i, h, n = pf->n, np = 0;
	double cum, mx, my, sxx, sxy, dx, a, b, ts0;

	pf->fit_fallback = 0;
	if (pf->timed) {
		/* the reader placed every sample (an interval of its own
		 * clock): nothing to fit */
		pf->fit_a = 0;
		pf->fit_b = 1;
		return;
	}
	if (!n) {
		pf->fit_a = 0;
		pf->fit_b = 1;
		return;
	}
	/*
	 * OLS of y = ts + 500 (the middle of the whole second the timestamp
	 * truncates to) on x = cumulative elapsed ms, with centred sums: y is
	 * taken relative to the first timestamp, as Unix ms squared would eat
	 * the digits the fit needs.  The chain of elapsed times runs on over
	 * the holes of missing samples; samples that cannot be placed next to
	 * them do not pin the line.  (Sample 0 is never one of those.)
	 */
	ts0 = s[0].ts_ms;
	cum = mx = my = 0;
	for (i = h = 0; i < n; i++) {
		if (h < pf->nholes && pf->holes[h].at == i)
			cum += pf->holes[h++].ms;
		cum += s[i].elapsed_ms;
		if (s[i].unplaced)
			continue;
		mx += cum;
		my += s[i].ts_ms - ts0 + 500;
		np++;
	}
	mx /= (double)np;
	my /= (double)np;
	cum = sxx = sxy = 0;
	for (i = h = 0; i < n; i++) {
		if (h < pf->nholes && pf->holes[h].at == i)
			cum += pf->holes[h++].ms;
		cum += s[i].elapsed_ms;
		if (s[i].unplaced)
			continue;
		dx = cum - mx;
		sxx += dx * dx;
		sxy += dx * (s[i].ts_ms - ts0 + 500 - my);
	}
	b = sxx > 0 ? sxy / sxx : 1;
	if (!(b >= 0.9 && b <= 1.1)) {
		/*
		 * Deviation from analyze.ts: drift is ppm-sized, and
		 * check_time() has found the timestamps in agreement with a
		 * slope of 1 (within their resolution), so such a slope only
		 * says that a few whole-second timestamps cannot pin it (two
		 * 0.5 s samples in one second give b = 0, and zero-length
		 * windows).  Keep the mean offset with b = 1; the caller tells
		 * the reader (fit_fallback).
		 */
		pf->fit_fallback = 1;
		b = 1;
	}
	a = ts0 + my - b * mx;
	pf->fit_a = a;
	pf->fit_b = b;
	cum = 0;
	for (i = h = 0; i < n; i++) {
		if (h < pf->nholes && pf->holes[h].at == i)
			cum += pf->holes[h++].ms;
		cum += s[i].elapsed_ms;
		s[i].end_ms = a + b * cum;
		s[i].start_ms = s[i].end_ms - s[i].elapsed_ms * b;
	}
}

/* Index of the first sample of pf whose end is after t. */
static size_t
first_ending_after(const struct power_file *pf, double t)
{
	size_t lo = 0, hi = pf->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pf->s[mid].end_ms > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void
power_integrate(const struct power_file *files, size_t nfiles, double t0_ms,
		double t1_ms, struct pwin *out)
{
	double covered[PGROUP_MAX] = { 0 }, mhz = 0, lo, hi, ov, share, dj;
	size_t f, i, d, nmhz = 0;
	int g, groups = 0;
	const struct psample *s;

	memset(out, 0, sizeof(*out));
	out->thermal = THERMAL_ABSENT;
	out->cluster_mhz = NAN;
	for (d = 0; d < PDOM_MAX; d++)
		out->dom_j[d] = NAN;
	if (!(t1_ms > t0_ms)) {
		out->mean_watts = NAN;
		return;
	}
	for (f = 0; f < nfiles; f++) {
		const struct power_file *pf = &files[f];

		g = pf->group >= 0 && pf->group < PGROUP_MAX ? pf->group : 0;
		if (g + 1 > groups)
			groups = g + 1;
		for (i = first_ending_after(pf, t0_ms); i < pf->n; i++) {
			s = &pf->s[i];
			if (s->start_ms >= t1_ms)
				break;
			if (s->unplaced)
				continue;
			lo = s->start_ms > t0_ms ? s->start_ms : t0_ms;
			hi = s->end_ms < t1_ms ? s->end_ms : t1_ms;
			ov = hi - lo;
			if (!(ov > 0))
				continue;
			out->samples++;
			if (!isnan(s->joules)) {
				share = ov / (s->end_ms - s->start_ms);
				out->energy_j += share * s->joules;
				covered[g] += ov;
				/* Per domain, apart from the total: energy_j
				 * keeps the published order of additions. */
				for (d = 0; d < pf->ndom; d++) {
					dj = power_dom_joules(pf, i, d);
					if (isnan(dj))
						continue;
					if (isnan(out->dom_j[pf->dom_g[d]]))
						out->dom_j[pf->dom_g[d]] = 0;
					out->dom_j[pf->dom_g[d]] += share * dj;
				}
			}
			if (!isnan(s->pclust_mhz)) {
				mhz += s->pclust_mhz;
				nmhz++;
			}
			if (s->thermal > out->thermal)
				out->thermal = s->thermal;
		}
	}
	if (nmhz)
		out->cluster_mhz = mhz / (double)nmhz;
	out->mean_watts = out->energy_j / ((t1_ms - t0_ms) / 1000);
	/* Sources add up only where each covers the window: the least
	 * covered one is what the total is worth. */
	out->coverage = covered[0] / (t1_ms - t0_ms);
	for (g = 1; g < groups; g++)
		if (covered[g] / (t1_ms - t0_ms) < out->coverage)
			out->coverage = covered[g] / (t1_ms - t0_ms);
}

size_t
power_task_samples(const struct power_file *files, size_t nfiles)
{
	size_t f, i, n = 0;

	for (f = 0; f < nfiles; f++)
		if (files[f].task_off)
			for (i = 0; i < files[f].n; i++)
				n += files[f].s[i].has_tasks != 0;
	return n;
}

/* Grouping of tasks by (pid, name) while integrating: open addressing
 * over indices into out->t (index + 1, 0 = empty). */
struct tgroup {
	size_t *slot;
	size_t cap;
};

static uint64_t
task_key_hash(int32_t pid, const char *name)
{
	return str_hash(name, strlen(name)) ^ ((uint64_t)(uint32_t)pid * 0x9E3779B97F4A7C15ULL);
}

static struct ptask_sum *
task_group(struct tgroup *g, struct ptask_win *out, int32_t pid, const char *name)
{
	size_t i, k, mask;

	if (2 * (out->n + 1) > g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 128;
		size_t *t = xcalloc(cap, sizeof(*t));

		for (k = 0; k < out->n; k++) {
			i = task_key_hash(out->t[k].pid, out->t[k].name) & (cap - 1);
			while (t[i])
				i = (i + 1) & (cap - 1);
			t[i] = k + 1;
		}
		free(g->slot);
		g->slot = t;
		g->cap = cap;
	}
	mask = g->cap - 1;
	for (i = task_key_hash(pid, name) & mask; g->slot[i]; i = (i + 1) & mask) {
		struct ptask_sum *t = &out->t[g->slot[i] - 1];

		if (t->pid == pid && (t->name == name || !strcmp(t->name, name)))
			return t;
	}
	ALLOC_GROW(out->t, out->n + 1, out->alloc);
	g->slot[i] = out->n + 1;
	memset(&out->t[out->n], 0, sizeof(out->t[0]));
	out->t[out->n].pid = pid;
	out->t[out->n].name = name;
	return &out->t[out->n++];
}

static int
cmp_task_sum(const void *pa, const void *pb)
{
	const struct ptask_sum *a = pa, *b = pb;

	if (a->cpu_ms != b->cpu_ms)
		return a->cpu_ms < b->cpu_ms ? 1 : -1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->name, b->name);
}

void
power_tasks_integrate(const struct power_file *files, size_t nfiles,
		      double t0_ms, double t1_ms, struct ptask_win *out)
{
	struct tgroup g = { NULL, 0 };
	struct ptask_sum *keep = out->t;
	size_t keep_alloc = out->alloc;
	double covered = 0, lo, hi, ov, w;
	size_t f, i, k;

	/* Reset, reusing the array of a previous result. */
	memset(out, 0, sizeof(*out));
	out->t = keep;
	out->alloc = keep_alloc;
	if (!(t1_ms > t0_ms))
		return;
	for (f = 0; f < nfiles; f++) {
		const struct power_file *pf = &files[f];

		if (!pf->task_off)
			continue;
		for (i = first_ending_after(pf, t0_ms); i < pf->n; i++) {
			const struct psample *s = &pf->s[i];

			if (s->start_ms >= t1_ms)
				break;
			lo = s->start_ms > t0_ms ? s->start_ms : t0_ms;
			hi = s->end_ms < t1_ms ? s->end_ms : t1_ms;
			ov = hi - lo;
			if (!(ov > 0) || !s->has_tasks || s->unplaced)
				continue;
			out->samples++;
			covered += ov;
			/* ns x weight / 1e6 = ms */
			w = ov / (s->end_ms - s->start_ms) / 1e6;
			for (k = pf->task_off[i]; k < pf->task_off[i + 1]; k++) {
				const struct ptask *t = &pf->tasks[k];
				struct ptask_sum *sum = task_group(&g, out, t->pid,
								   pf->names[t->name]);

				sum->cpu_ms += w * t->cpu_ns;
				if (isnan(t->p_ns))
					sum->nop_cpu_ms += w * t->cpu_ns;
				else
					sum->pcore_ms += w * t->p_ns;
			}
		}
	}
	free(g.slot);
	if (out->n)
		qsort(out->t, out->n, sizeof(out->t[0]), cmp_task_sum);
	for (k = 0; k < out->n; k++) {
		out->cpu_ms += out->t[k].cpu_ms;
		out->pcore_ms += out->t[k].pcore_ms;
		out->nop_cpu_ms += out->t[k].nop_cpu_ms;
	}
	out->coverage = covered / (t1_ms - t0_ms);
}
