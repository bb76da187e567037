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

#include "analyze/analyze.h"
#include "analyze/integrate.h"
#include "base/idmap.h"
#include "base/jsonx.h"
#include "base/num.h"
#include "analyze/stats.h"
#include "base/util.h"

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

/* Large-payload routes: listed in meta, or >= 64 KiB read per request
 * over all windows of that route (a per-window decision could split one
 * route across units). */
static void
mark_per_mb(struct run *r)
{
	struct idmap names = IDMAP_INIT, listed = IDMAP_INIT;
	size_t i, j, k, total = 0;
	double *bytes, *req;

	for (i = 0; i < r->nper_mb_routes; i++)
		idmap_put(&listed, r->per_mb_routes[i], 1);
	for (i = 0; i < r->nm; i++)
		total += r->m[i].nroutes;
	bytes = xcalloc(total + 1, sizeof(*bytes));
	req = xcalloc(total + 1, sizeof(*req));
	/* Sums in window order, route by route. */
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++) {
			const struct route_win *o = &r->m[i].routes[j];

			k = idmap_intern(&names, o->name);
			if (isnan(o->bytes_read) || isnan(o->requests))
				continue;
			bytes[k] += o->bytes_read;
			req[k] += o->requests;
		}
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++) {
			struct route_win *w = &r->m[i].routes[j];

			if (idmap_get(&listed, w->name, &k)) {
				w->per_mb = 1;
				continue;
			}
			k = idmap_intern(&names, w->name);
			w->per_mb = req[k] > 0 && bytes[k] / req[k] >= PER_MB_BYTES_PER_REQ;
		}
	free(bytes);
	free(req);
	idmap_free(&names);
	idmap_free(&listed);
}

static void
pwin_none(struct pwin *p)
{
	size_t d;

	memset(p, 0, sizeof(*p));
	p->energy_j = p->mean_watts = p->coverage = p->cluster_mhz = NAN;
	p->thermal = THERMAL_ABSENT;
	for (d = 0; d < PDOM_MAX; d++)
		p->dom_j[d] = NAN;
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
 * (the last one, should a resumed session log two); the earliest idle
 * window stands in when none names it.  floor[i] for measurement i. */
static void
idle_floors(const struct run *r, int *floor)
{
	struct idmap pre = IDMAP_INIT;
	size_t i, k;
	int first = -1;

	for (i = 0; i < r->nidle; i++) {
		if (r->idle[i].precedes)
			idmap_put(&pre, r->idle[i].precedes, i);
		if (first < 0 || r->idle[i].start_ms < r->idle[first].start_ms)
			first = (int)i;
	}
	for (i = 0; i < r->nm; i++)
		floor[i] = idmap_get(&pre, r->m[i].id, &k) ? (int)k : first;
	idmap_free(&pre);
}

static int
per_window(struct run *r)
{
	int *floor = xmalloc((r->nm + 1) * sizeof(*floor));
	size_t i, j, nlen = strlen(r->dir) + sizeof("/timeline.jsonl");
	char *tl = xmalloc(nlen);
	int bad = 0;

	snprintf(tl, nlen, "%s/timeline.jsonl", r->dir);
	idle_floors(r, floor);
	for (i = 0; i < r->nm; i++) {
		struct measurement *m = &r->m[i];
		double ej = 0, req = 0, ok = 0, rps = 0, watts = 0;
		size_t nsmall = 0;
		int k = floor[i];

		for (j = 0; j < m->nroutes; j++) {
			struct route_win *w = &m->routes[j];
			double e = w->pw.energy_j, s = (w->end_ms - w->start_ms) / 1000.0;

			w->idle = k;
			w->idle_watts = k >= 0 ? r->idle[k].pw.mean_watts : NAN;
			w->net_energy_j = e - w->idle_watts * s;
			w->idle_share = w->idle_watts * s / e;
			/* A floor equal to the window's power (a flat draw) can
			 * leave rounding below zero: that is no energy, not a
			 * floor above the window; only what rounding cannot
			 * explain is the error below. */
			if (w->net_energy_j < 0 && w->net_energy_j >= -1e-9 * e) {
				w->net_energy_j = 0;
				w->idle_share = 1;
			}
			w->mj_per_req = e * 1000.0 / w->requests;
			w->net_mj_per_req = w->net_energy_j * 1000.0 / w->requests;
			w->mj_per_mb = e * 1000.0 / (w->bytes_read / 1e6);
			/* Failed requests cost energy too; over the 2xx responses
			 * alone is what a served request cost (none: no figure). */
			w->mj_per_2xx = w->ok2xx > 0 ? e * 1000.0 / w->ok2xx : NAN;
			/* (a window outside the power data is an error already) */
			if (w->net_energy_j < 0 && w->pw.coverage > 0) {
				char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], c[NUM_TEXT_LEN];

				bad = error_at(tl, w->line, "window '%s' of '%s' has net energy "
					       "below zero (%s J): the idle floor of '%s' (%s W) is "
					       "above its mean power (%s W)", w->name, m->id,
					       num_text(a, w->net_energy_j), r->idle[k].id,
					       num_text(b, w->idle_watts), num_text(c, w->pw.mean_watts));
			}
			if (w->per_mb)
				continue;
			ej += e;
			req += w->requests;
			ok += w->ok2xx;
			rps += w->rps_mean;
			watts += w->pw.mean_watts;
			nsmall++;
		}
		/* Request-weighted: sum of joules over sum of requests, so a
		 * route is counted by how much traffic it carried. */
		m->head_mj_per_req = nsmall ? ej * 1000.0 / req : NAN;
		m->head_mj_per_2xx = nsmall && ok > 0 ? ej * 1000.0 / ok : NAN;
		m->head_rps = nsmall ? rps / (double)nsmall : NAN;
		m->head_watts = nsmall ? watts / (double)nsmall : NAN;
	}
	free(floor);
	free(tl);
	return bad;
}

/* Indexes of v[0..n) ordered by key, ties by index (stable). */
struct keyed {
	double key;
	size_t i;
};

static int
cmp_keyed_asc(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	return (a->i > b->i) - (a->i < b->i);
}

static int
cmp_keyed_desc(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return (a->key < b->key) - (a->key > b->key);
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Ranks: lowest energy per request first, highest power first (as
 * published); equal figures rank by order of appearance; targets without
 * a figure share the rank after the last that has one.
 */
static void
rank_targets(struct run *r)
{
	struct keyed *v = xmalloc((r->ntargets + 1) * sizeof(*v));
	size_t i, n;

	for (n = i = 0; i < r->ntargets; i++) {
		r->targets[i].rank_mj = r->targets[i].rank_watts = 1;
		if (!isnan(r->targets[i].head_mj.mean))
			v[n++] = (struct keyed){ r->targets[i].head_mj.mean, i };
	}
	qsort(v, n, sizeof(*v), cmp_keyed_asc);
	for (i = 0; i < r->ntargets; i++)
		if (isnan(r->targets[i].head_mj.mean))
			r->targets[i].rank_mj = (int)n + 1;
	for (i = 0; i < n; i++)
		r->targets[v[i].i].rank_mj = (int)i + 1;
	for (n = i = 0; i < r->ntargets; i++)
		if (!isnan(r->targets[i].head_watts.mean))
			v[n++] = (struct keyed){ r->targets[i].head_watts.mean, i };
	qsort(v, n, sizeof(*v), cmp_keyed_desc);
	for (i = 0; i < r->ntargets; i++)
		if (isnan(r->targets[i].head_watts.mean))
			r->targets[i].rank_watts = (int)n + 1;
	for (i = 0; i < n; i++)
		r->targets[v[i].i].rank_watts = (int)i + 1;
	free(v);
}

/* One route window of a target, for grouping by route. */
struct tw {
	size_t q;			/* index in the target's routes */
	const struct route_win *w;
};

static void
aggregate(struct run *r)
{
	struct idmap tmap = IDMAP_INIT;
	size_t i, j, k, n, total = 0;
	size_t *tix = xmalloc((r->nm + 1) * sizeof(*tix));
	size_t *start, *order;
	struct tw *tw, *by;
	size_t *cnt;
	double *a = xmalloc((r->nm + 1) * sizeof(double));
	double *b = xmalloc((r->nm + 1) * sizeof(double));
	double *c = xmalloc((r->nm + 1) * sizeof(double));
	double *d = xmalloc((r->nm + 1) * sizeof(double));
	double *e = xmalloc((r->nm + 1) * sizeof(double));
	double *f = xmalloc((r->nm + 1) * sizeof(double));
	double *g2 = xmalloc((r->nm + 1) * sizeof(double));

	/* Targets in order of first appearance. */
	r->targets = xcalloc(r->nm + 1, sizeof(*r->targets));
	for (i = 0; i < r->nm; i++) {
		tix[i] = idmap_intern(&tmap, r->m[i].target);
		if (tix[i] == r->ntargets)
			r->targets[r->ntargets++].name = xstrdup(r->m[i].target);
		total += r->m[i].nroutes;
	}
	idmap_free(&tmap);
	r->targets = xrealloc(r->targets, (r->ntargets + 1) * sizeof(*r->targets));
	/* The measurements of each target, in session order (counting sort). */
	start = xcalloc(r->ntargets + 2, sizeof(*start));
	order = xmalloc((r->nm + 1) * sizeof(*order));
	for (i = 0; i < r->nm; i++)
		start[tix[i] + 2]++;
	for (k = 0; k < r->ntargets; k++)
		start[k + 2] += start[k + 1];
	for (i = 0; i < r->nm; i++)
		order[start[tix[i] + 1]++] = i;
	tw = xmalloc((total + 1) * sizeof(*tw));
	by = xmalloc((total + 1) * sizeof(*by));
	cnt = xmalloc((total + 2) * sizeof(*cnt));
	for (k = 0; k < r->ntargets; k++) {
		struct target *t = &r->targets[k];
		struct idmap rmap = IDMAP_INIT;
		size_t ralloc = 0, nw = 0, lo = k ? start[k] : 0, hi = start[k + 1];

		for (n = 0; lo + n < hi; n++) {
			const struct measurement *m = &r->m[order[lo + n]];

			a[n] = m->head_mj_per_req;
			b[n] = m->head_rps;
			c[n] = m->head_watts;
			g2[n] = m->head_mj_per_2xx;
			/* Routes in order of first appearance for this target. */
			for (j = 0; j < m->nroutes; j++) {
				size_t q = idmap_intern(&rmap, m->routes[j].name);

				if (q == t->nroutes) {
					ALLOC_GROW(t->routes, t->nroutes + 1, ralloc);
					memset(&t->routes[q], 0, sizeof(t->routes[q]));
					t->routes[q].name = xstrdup(m->routes[j].name);
					t->nroutes++;
				}
				if (m->routes[j].per_mb)
					t->routes[q].per_mb = 1;
				tw[nw].q = q;
				tw[nw].w = &m->routes[j];
				nw++;
			}
		}
		idmap_free(&rmap);
		to_stat5(a, n, &t->head_mj);
		to_stat5(b, n, &t->head_rps);
		to_stat5(c, n, &t->head_watts);
		to_stat5(g2, n, &t->head_mj_2xx);
		/* Windows grouped by route, each group in session order. */
		memset(cnt, 0, (t->nroutes + 2) * sizeof(*cnt));
		for (i = 0; i < nw; i++)
			cnt[tw[i].q + 2]++;
		for (j = 0; j < t->nroutes; j++)
			cnt[j + 2] += cnt[j + 1];
		for (i = 0; i < nw; i++)
			by[cnt[tw[i].q + 1]++] = tw[i];
		for (j = 0; j < t->nroutes; j++) {
			struct target_route *tr = &t->routes[j];
			double net = 0, share = 0;
			size_t g0 = j ? cnt[j] : 0, g1 = cnt[j + 1];

			for (n = 0; g0 + n < g1; n++) {
				const struct route_win *w = by[g0 + n].w;

				a[n] = w->mj_per_req;
				b[n] = w->rps_mean;
				c[n] = w->pw.mean_watts;
				d[n] = w->mj_per_mb;
				e[n] = w->net_mj_per_req;
				f[n] = w->idle_share;
				g2[n] = w->mj_per_2xx;
				net += e[n];
				share += f[n];
			}
			to_stat5(a, n, &tr->mj_per_req);
			to_stat5(b, n, &tr->rps);
			to_stat5(c, n, &tr->watts);
			to_stat5(d, n, &tr->mj_per_mb);
			tr->net_mj_per_req = n ? net / (double)n : NAN;
			tr->idle_share = n ? share / (double)n : NAN;
			tr->mj_per_2xx = stats_mean(g2, n);
		}
	}
	rank_targets(r);
	free(tix);
	free(start);
	free(order);
	free(tw);
	free(by);
	free(cnt);
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
	free(f);
	free(g2);
}

int
analyze_run(struct run *r)
{
	size_t i;
	int bad;

	/* Each power file gets its own time axis (a resumed session leaves
	 * a gap between files). */
	for (i = 0; i < r->npf; i++) {
		power_fit(&r->pf[i]);
		if (r->pf[i].fit_fallback)
			run_warn(r, r->pf[i].path, 0, "the timestamps of its %zu samples cannot pin "
				 "the time fit's slope; taken as 1", r->pf[i].n);
	}
	mark_per_mb(r);
	bad = integrate_windows(r);
	if (per_window(r))
		bad = -1;
	aggregate(r);
	return bad;
}
