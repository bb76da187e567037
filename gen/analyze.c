/*
 * analyze.c - see analyze.h.  Every formula here is the one in
 * ../shared/notes/energy-method.md §1.3; where erg differs from the
 * original analyzer it says so (full precision instead of rounding the
 * idle floor to 3 decimals before subtracting it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "stats.h"
#include "util.h"

static const char *const thermal_names[] = {
	"Nominal", "Light", "Moderate", "Heavy", "Critical"
};

const char *
thermal_name(int t)
{
	if (t < 0 || t > THERMAL_CRITICAL)
		return NULL;
	return thermal_names[t];
}

static void
to_stat5(const double *x, size_t n, struct stat5 *s)
{
	struct summary sm;

	stats_summary(x, n, &sm);
	s->n = sm.n;
	s->mean = sm.mean;
	s->sd = sm.sd;
	s->cv = sm.cv;
	s->min = sm.min;
	s->max = sm.max;
	s->ci_lo = sm.ci_lo;
	s->ci_hi = sm.ci_hi;
}

static int
listed_per_mb(const struct run *r, const char *route)
{
	size_t i;

	for (i = 0; i < r->nper_mb_routes; i++)
		if (!strcmp(r->per_mb_routes[i], route))
			return 1;
	return 0;
}

/* Large-payload routes: listed in meta, or >= 64 KiB read per request
 * over all windows of that route (a per-window decision could split one
 * route across units). */
static void
mark_per_mb(struct run *r)
{
	size_t i, j, k, l;

	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++) {
			struct route_win *w = &r->m[i].routes[j];
			double bytes = 0, req = 0;

			if (listed_per_mb(r, w->name)) {
				w->per_mb = 1;
				continue;
			}
			for (k = 0; k < r->nm; k++)
				for (l = 0; l < r->m[k].nroutes; l++) {
					struct route_win *o = &r->m[k].routes[l];

					if (strcmp(o->name, w->name) || isnan(o->bytes_read) ||
					    isnan(o->requests))
						continue;
					bytes += o->bytes_read;
					req += o->requests;
				}
			w->per_mb = req > 0 && bytes / req >= PER_MB_BYTES_PER_REQ;
		}
}

static void
pwin_none(struct pwin *p)
{
	memset(p, 0, sizeof(*p));
	p->energy_j = p->mean_watts = p->coverage = p->cluster_mhz = NAN;
	p->thermal = THERMAL_ABSENT;
}

static int
idle_range(const struct idle_win *w, double *t0, double *t1)
{
	double len = w->end_ms - w->start_ms;

	if (!isnan(w->base_start_ms) && !isnan(w->base_end_ms)) {
		*t0 = w->base_start_ms;
		*t1 = fmin(w->base_end_ms, w->end_ms);
	} else {
		/* The runner's own rule, for timelines that do not log it. */
		*t0 = w->start_ms + fmax(2000.0, 0.52 * len);
		*t1 = w->start_ms + len - 2000.0;
	}
	return *t1 > *t0 ? 0 : -1;
}

static int
integrate_windows(struct run *r)
{
	char *tl = NULL;
	size_t i, j;
	int bad = 0;
	size_t nlen = strlen(r->dir) + sizeof("/timeline.jsonl");

	tl = xmalloc(nlen);
	snprintf(tl, nlen, "%s/timeline.jsonl", r->dir);
	for (i = 0; i < r->nidle; i++) {
		struct idle_win *w = &r->idle[i];
		double t0, t1;

		w->session_min = (w->start_ms - r->session_start_ms) / 60000.0;
		if (!r->npf) {
			pwin_none(&w->pw);
			continue;
		}
		if (idle_range(w, &t0, &t1)) {
			bad = error_at(tl, w->line, "idle window '%s' has an empty baseline range", w->id);
			continue;
		}
		power_integrate(r->pf, r->npf, t0, t1, &w->pw);
		if (!(w->pw.coverage > 0))
			bad = error_at(tl, w->line, "idle window '%s' lies outside the power data", w->id);
		else if (w->pw.coverage < 0.95)
			warn_at(tl, w->line, "idle window '%s' is only %.1f%% covered by power samples",
				w->id, 100 * w->pw.coverage);
	}
	for (i = 0; i < r->nm; i++) {
		struct measurement *m = &r->m[i];

		m->session_min = (m->start_ms - r->session_start_ms) / 60000.0;
		for (j = 0; j < m->nroutes; j++) {
			struct route_win *w = &m->routes[j];

			if (!r->npf) {
				pwin_none(&w->pw);
				continue;
			}
			power_integrate(r->pf, r->npf, w->start_ms, w->end_ms, &w->pw);
			if (!(w->pw.coverage > 0))
				bad = error_at(tl, w->line,
					       "window '%s' of '%s' lies outside the power data",
					       w->name, m->id);
			else if (w->pw.coverage < 0.95)
				warn_at(tl, w->line,
					"window '%s' of '%s' is only %.1f%% covered by power samples",
					w->name, m->id, 100 * w->pw.coverage);
		}
	}
	free(tl);
	return bad;
}

/* The idle floor of a measurement is the cooldown logged as preceding it
 * (the last one, should a resumed session log two); the first idle
 * window stands in when none names it. */
static int
idle_for(const struct run *r, const char *mid)
{
	int k = -1;
	size_t i;

	for (i = 0; i < r->nidle; i++)
		if (r->idle[i].precedes && !strcmp(r->idle[i].precedes, mid))
			k = (int)i;
	if (k < 0 && r->nidle) {
		k = 0;
		for (i = 1; i < r->nidle; i++)
			if (r->idle[i].start_ms < r->idle[k].start_ms)
				k = (int)i;
	}
	return k;
}

static void
per_window(struct run *r)
{
	size_t i, j;

	for (i = 0; i < r->nm; i++) {
		struct measurement *m = &r->m[i];
		double ej = 0, req = 0, rps = 0, watts = 0;
		size_t nsmall = 0;
		int k = idle_for(r, m->id);

		for (j = 0; j < m->nroutes; j++) {
			struct route_win *w = &m->routes[j];
			double e = w->pw.energy_j, s = (w->end_ms - w->start_ms) / 1000.0;

			w->idle = k;
			w->idle_watts = k >= 0 ? r->idle[k].pw.mean_watts : NAN;
			w->net_energy_j = e - w->idle_watts * s;
			w->idle_share = w->idle_watts * s / e;
			w->mj_per_req = e * 1000.0 / w->requests;
			w->net_mj_per_req = w->net_energy_j * 1000.0 / w->requests;
			w->mj_per_mb = e * 1000.0 / (w->bytes_read / 1e6);
			if (w->per_mb)
				continue;
			ej += e;
			req += w->requests;
			rps += w->rps_mean;
			watts += w->pw.mean_watts;
			nsmall++;
		}
		/* Request-weighted: sum of joules over sum of requests, so a
		 * route is counted by how much traffic it carried. */
		m->head_mj_per_req = nsmall ? ej * 1000.0 / req : NAN;
		m->head_rps = nsmall ? rps / (double)nsmall : NAN;
		m->head_watts = nsmall ? watts / (double)nsmall : NAN;
	}
}

static struct target *
target_get(struct run *r, const char *name, size_t *alloc)
{
	size_t i;

	for (i = 0; i < r->ntargets; i++)
		if (!strcmp(r->targets[i].name, name))
			return &r->targets[i];
	ALLOC_GROW(r->targets, r->ntargets + 1, *alloc);
	memset(&r->targets[r->ntargets], 0, sizeof(r->targets[0]));
	r->targets[r->ntargets].name = xstrdup(name);
	return &r->targets[r->ntargets++];
}

static void
aggregate(struct run *r)
{
	size_t i, j, k, alloc = 0, n;
	double *a = xmalloc((r->nm + 1) * sizeof(double));
	double *b = xmalloc((r->nm + 1) * sizeof(double));
	double *c = xmalloc((r->nm + 1) * sizeof(double));
	double *d = xmalloc((r->nm + 1) * sizeof(double));
	double *e = xmalloc((r->nm + 1) * sizeof(double));
	double *f = xmalloc((r->nm + 1) * sizeof(double));

	for (i = 0; i < r->nm; i++)
		target_get(r, r->m[i].target, &alloc);
	for (k = 0; k < r->ntargets; k++) {
		struct target *t = &r->targets[k];
		size_t ralloc = 0;

		for (n = 0, i = 0; i < r->nm; i++) {
			if (strcmp(r->m[i].target, t->name))
				continue;
			a[n] = r->m[i].head_mj_per_req;
			b[n] = r->m[i].head_rps;
			c[n] = r->m[i].head_watts;
			n++;
			/* Routes in order of first appearance for this target. */
			for (j = 0; j < r->m[i].nroutes; j++) {
				size_t q;

				for (q = 0; q < t->nroutes; q++)
					if (!strcmp(t->routes[q].name, r->m[i].routes[j].name))
						break;
				if (q == t->nroutes) {
					ALLOC_GROW(t->routes, t->nroutes + 1, ralloc);
					memset(&t->routes[q], 0, sizeof(t->routes[q]));
					t->routes[q].name = xstrdup(r->m[i].routes[j].name);
					t->nroutes++;
				}
				if (r->m[i].routes[j].per_mb)
					t->routes[q].per_mb = 1;
			}
		}
		to_stat5(a, n, &t->head_mj);
		to_stat5(b, n, &t->head_rps);
		to_stat5(c, n, &t->head_watts);
		for (j = 0; j < t->nroutes; j++) {
			struct target_route *tr = &t->routes[j];
			double net = 0, share = 0;

			for (n = 0, i = 0; i < r->nm; i++) {
				struct route_win *w = NULL;
				size_t q;

				if (strcmp(r->m[i].target, t->name))
					continue;
				for (q = 0; q < r->m[i].nroutes; q++)
					if (!strcmp(r->m[i].routes[q].name, tr->name))
						w = &r->m[i].routes[q];
				if (!w)
					continue;
				a[n] = w->mj_per_req;
				b[n] = w->rps_mean;
				c[n] = w->pw.mean_watts;
				d[n] = w->mj_per_mb;
				e[n] = w->net_mj_per_req;
				f[n] = w->idle_share;
				net += e[n];
				share += f[n];
				n++;
			}
			to_stat5(a, n, &tr->mj_per_req);
			to_stat5(b, n, &tr->rps);
			to_stat5(c, n, &tr->watts);
			to_stat5(d, n, &tr->mj_per_mb);
			tr->net_mj_per_req = n ? net / (double)n : NAN;
			tr->idle_share = n ? share / (double)n : NAN;
		}
	}
	/* Ranks: lowest energy per request first, highest power first (as
	 * published); targets without a figure rank last. */
	for (k = 0; k < r->ntargets; k++) {
		struct target *t = &r->targets[k];

		t->rank_mj = t->rank_watts = 1;
		for (i = 0; i < r->ntargets; i++) {
			struct target *o = &r->targets[i];

			if (i == k)
				continue;
			if ((isnan(t->head_mj.mean) && !isnan(o->head_mj.mean)) ||
			    o->head_mj.mean < t->head_mj.mean ||
			    (o->head_mj.mean == t->head_mj.mean && i < k))
				t->rank_mj++;
			if ((isnan(t->head_watts.mean) && !isnan(o->head_watts.mean)) ||
			    o->head_watts.mean > t->head_watts.mean ||
			    (o->head_watts.mean == t->head_watts.mean && i < k))
				t->rank_watts++;
		}
	}
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
	free(f);
}

int
analyze_run(struct run *r)
{
	int bad;

	mark_per_mb(r);
	bad = integrate_windows(r);
	per_window(r);
	aggregate(r);
	return bad;
}
