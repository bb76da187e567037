/*
 * checks.c - see checks.h.  The design checks of energy-method.md §1.3
 * ("validation block"), §1.5 and §5 items 8-11, over the analysed model:
 *
 *   ordering       rounds x slots from the measurements; Latin square,
 *                  cyclic / sequential / other; carry-over pairs
 *   position_bias  r and rho of normalised mJ/req against slot, pooled
 *                  over (measurement, small route) points and again over
 *                  per-measurement headline values
 *   session_drift  r of the same points against session minute
 *   idle_drift     first / last idle watts, OLS slope in W/h, idle share
 *   restatement    r^2 of Pearson(W/rps, 1/rps)
 *   throttling     thermal pressure and performance-cluster MHz per window
 *   coverage       low-coverage windows, gaps and samples without joules
 *   responses      load windows with errors or non-2xx responses
 *   attribution    CPU-time shares per process group and load window from
 *                  the powermetrics tasks sampler, and the rejected
 *                  joules-from-CPU-time fit (see the section below)
 *   pitfalls       one warning string per problem found
 *
 * Every check carries "status" ("ok", "warn", "fail", "n/a") and a
 * one-line "verdict".  Numbers are kept at full precision (pages round);
 * undefined figures are JSON null.  Where erg differs from the original
 * analyzer it says so: Spearman's rho uses average ranks for ties (the
 * published figure did not), and r is also computed on one value per
 * measurement because the route points of one measurement share its slot
 * and are not independent (§1.5).
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "analyze/checks.h"
#include "analyze/integrate.h"
#include "base/idmap.h"
#include "base/jsonx.h"
#include "base/num.h"
#include "analyze/stats.h"
#include "base/util.h"

#define LIST_CAP 50		/* longest list written; "..._total" counts all */
#define COVERAGE_MIN 0.95	/* §1.3: flag windows covered less than this */
#define COVERAGE_FAIL 0.5	/* a load window mostly unmeasured */
#define GAP_FACTOR 3.0		/* a sample interval > 3 x the median is a gap */
#define MIN_ROUNDS 3
#define Z975 1.96
#define RESTATE_NEAR 0.9	/* r^2 from which "mostly restates throughput" */
#define IDLE_DRIFT_WARN 0.25	/* fitted idle change over the session vs mean idle */
#define IDLE_SHARE_MATTERS 0.01	/* below this the idle floor cannot move results */
#define IDLE_DRIFT_RECON_MIN 5	/* idle windows a reconstructed run needs for a verdict */
#define MAX_SLOT 1000		/* larger slot numbers are not a design */

enum status { ST_NA, ST_OK, ST_WARN, ST_FAIL };

static const char *const status_names[] = { "n/a", "ok", "warn", "fail" };

struct ctx {
	const struct run *r;
	int has_power;
	double t0;		/* session start, Unix ms */
	json_t *pitfalls;
	enum status worst;
};

/* A list written with at most LIST_CAP entries; n counts them all. */
struct clist {
	json_t *a;
	size_t n;
};

static void
clist_add(struct clist *l, json_t *v)
{
	if (json_array_size(l->a) < LIST_CAP)
		json_array_append_new(l->a, v);
	else
		json_decref(v);
	l->n++;
}

static void PRINTF(4, 5)
verdict(struct ctx *c, json_t *o, enum status st, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	json_object_set_new(o, "status", json_string(status_names[st]));
	json_object_set_new(o, "verdict", json_string(b.ptr));
	buf_release(&b);
	if (st > c->worst)
		c->worst = st;
}

static void PRINTF(2, 3)
pitfall(struct ctx *c, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	json_array_append_new(c->pitfalls, json_string(b.ptr));
	buf_release(&b);
}

/* A check object whose "status" and "verdict" come first in the output
 * (jansson keeps insertion order); verdict() overwrites them in place. */
static json_t *
check_new(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "status", json_null());
	json_object_set_new(o, "verdict", json_null());
	return o;
}

static double
minutes(const struct ctx *c, double ms)
{
	return (ms - c->t0) / 60000.0;
}

static json_t *
jbool_or_null(double r, int v)
{
	return isnan(r) ? json_null() : json_boolean(v);
}

static const char *
thermal_str(int t)
{
	const char *s = thermal_name(t);

	return s ? s : "unknown";
}

/* ------------------------------------------------------------------ */
/* ordering */

struct cell {
	const struct measurement *m;
	size_t t;		/* target index */
};

static int
cmp_double_asc(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Target names numbered in order of first use. */
struct names {
	struct idmap map;
	const char **v;		/* room for one name per measurement */
	size_t n;
};

static size_t
name_index(struct names *t, const char *name)
{
	size_t k = idmap_intern(&t->map, name);

	if (k == t->n)
		t->v[t->n++] = name;
	return k;
}

static int
cmp_by_start(const void *pa, const void *pb)
{
	const struct measurement *a = *(const struct measurement *const *)pa;
	const struct measurement *b = *(const struct measurement *const *)pb;

	if (a->start_ms != b->start_ms)
		return (a->start_ms > b->start_ms) - (a->start_ms < b->start_ms);
	if (a->round != b->round)
		return (a->round > b->round) - (a->round < b->round);
	return (a->slot > b->slot) - (a->slot < b->slot);
}

static int
cmp_by_round_slot(const void *pa, const void *pb)
{
	const struct measurement *a = *(const struct measurement *const *)pa;
	const struct measurement *b = *(const struct measurement *const *)pb;

	if (a->round != b->round)
		return (a->round > b->round) - (a->round < b->round);
	return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Round d + 1 is round d shifted by `shift` positions (mod s). */
static int
is_shift(const size_t *grid, size_t nr, size_t s, size_t shift)
{
	size_t d, j;

	for (d = 0; d + 1 < nr; d++)
		for (j = 0; j < s; j++)
			if (grid[(d + 1) * s + j] != grid[d * s + (j + shift) % s])
				return 0;
	return 1;
}

/* One ordered pair of consecutive measurements' targets. */
struct pair {
	size_t from, to, first, count;
};

static int
cmp_pair(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;

	if (a->from != b->from)
		return (a->from > b->from) - (a->from < b->from);
	if (a->to != b->to)
		return (a->to > b->to) - (a->to < b->to);
	return (a->first > b->first) - (a->first < b->first);
}

static int
cmp_pair_first(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/* Predecessor pairs in session order: what ran just before what. */
static json_t *
carryover(const struct run *r, struct names *tn, int *balanced)
{
	const struct measurement **v = xmalloc((r->nm + 1) * sizeof(*v));
	struct pair *p = xmalloc((r->nm + 1) * sizeof(*p));
	size_t i, k, n = 0, np = 0, nu = 0, ndistinct = 0, lo = SIZE_MAX, hi = 0, nt;
	json_t *a = json_array();

	/* Measurements left out of the grid (no round or slot) still ran, so
	 * they count here. */
	for (i = 0; i < r->nm; i++) {
		name_index(tn, r->m[i].target);
		v[n++] = &r->m[i];
	}
	nt = tn->n;
	qsort(v, n, sizeof(*v), cmp_by_start);
	for (i = 0; i + 1 < n; i++) {
		p[np].from = name_index(tn, v[i]->target);
		p[np].to = name_index(tn, v[i + 1]->target);
		p[np].first = i;
		np++;
	}
	/* Count each pair; keep its first occurrence. */
	qsort(p, np, sizeof(*p), cmp_pair);
	for (i = 0; i < np; i = k) {
		for (k = i + 1; k < np && p[k].from == p[i].from && p[k].to == p[i].to; k++)
			;
		p[nu] = p[i];
		p[nu].count = k - i;
		if (p[nu].from != p[nu].to) {
			ndistinct++;
			lo = p[nu].count < lo ? p[nu].count : lo;
			hi = p[nu].count > hi ? p[nu].count : hi;
		}
		nu++;
	}
	/* In order of first occurrence, so the list reads like the session. */
	qsort(p, nu, sizeof(*p), cmp_pair_first);
	for (i = 0; i < nu; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "from", json_string(tn->v[p[i].from]));
		json_object_set_new(o, "to", json_string(tn->v[p[i].to]));
		json_object_set_new(o, "count", json_integer((json_int_t)p[i].count));
		json_array_append_new(a, o);
	}
	/* First-order carry-over is balanced when every ordered pair of
	 * distinct targets follows equally often (a Williams design). */
	*balanced = nt >= 2 && nt - 1 <= np / nt && ndistinct == nt * (nt - 1) && lo == hi;
	free(v);
	free(p);
	return a;
}

static int
cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return (a > b) - (a < b);
}

static int
cmp_double_find(const void *key, const void *elem)
{
	return cmp_double_asc(key, elem);
}

/* Grids larger than this many cells per measurement are not a design
 * (mostly empty), and would take memory out of proportion to the run. */
#define GRID_SPARSE 4

static json_t *
check_ordering(struct ctx *c, int *nrounds_out)
{
	const struct run *r = c->r;
	json_t *o = check_new(), *jgrid;
	struct names tn = { IDMAP_INIT, NULL, 0 };
	const struct measurement **v = xmalloc((r->nm + 1) * sizeof(*v));
	double *rv = xmalloc((r->nm + 1) * sizeof(*rv));
	double *sv = xmalloc((r->nm + 1) * sizeof(*sv));
	size_t *grid = NULL, *cnt = NULL, *touched = NULL, *tix = NULL;
	size_t nt = 0, n = 0, nr = 0, ns = 0, i, j, k, d, cap, nviol_round = 0, ntouch;
	struct clist viol = { json_array(), 0 };
	int latin = 0, balanced = 0, complete = 1, sequential = 0, cyclic = 0;
	int carry_bal = 0, sparse = 0;
	const char *scheme;
	struct buf b = BUF_INIT;

	tn.v = xmalloc((r->nm + 1) * sizeof(*tn.v));
	for (i = 0; i < r->nm; i++) {
		const struct measurement *m = &r->m[i];

		if (m->round < 1 || m->slot < 1 || m->slot > MAX_SLOT) {
			buf_reset(&b);
			buf_addf(&b, "measurement '%s' has no usable round and slot", m->id);
			clist_add(&viol, json_string(b.ptr));
			continue;
		}
		v[n++] = m;
	}
	qsort(v, n, sizeof(*v), cmp_by_round_slot);
	tix = xmalloc((n + 1) * sizeof(*tix));
	for (i = 0; i < n; i++) {
		tix[i] = name_index(&tn, v[i]->target);
		rv[i] = v[i]->round;
		sv[i] = v[i]->slot;
	}
	nt = tn.n;
	/* Distinct rounds and slots (sorted). */
	qsort(rv, n, sizeof(*rv), cmp_double_asc);
	qsort(sv, n, sizeof(*sv), cmp_double_asc);
	for (i = 0; i < n; i++) {
		if (!nr || rv[nr - 1] != rv[i])
			rv[nr++] = rv[i];
		if (!ns || sv[ns - 1] != sv[i])
			sv[ns++] = sv[i];
	}
	*nrounds_out = (int)nr;
	json_object_set_new(o, "scheme", json_null());
	json_object_set_new(o, "latin_square", json_false());
	json_object_set_new(o, "rounds", json_integer((json_int_t)nr));
	json_object_set_new(o, "slots", json_integer((json_int_t)ns));
	json_object_set_new(o, "targets", json_integer((json_int_t)nt));
	if (!n) {
		json_object_set_new(o, "violations", viol.a);
		json_object_set_new(o, "violations_total", json_integer((json_int_t)viol.n));
		verdict(c, o, ST_NA, "no measurements with a round and a slot");
		goto out;
	}
	if (ns && (sv[0] != 1 || sv[ns - 1] != (double)ns)) {
		buf_reset(&b);
		buf_addf(&b, "slots are numbered %d..%d, not 1..%zu", (int)sv[0],
			 (int)sv[ns - 1], ns);
		clist_add(&viol, json_string(b.ptr));
	}
	cnt = xcalloc(nt + 1, sizeof(*cnt));
	touched = xmalloc((nt + 1) * sizeof(*touched));

	/* grid[round][slot] = target index, SIZE_MAX for an empty cell. */
	sparse = nr > (GRID_SPARSE * n + 64) / ns;
	if (sparse) {
		buf_reset(&b);
		buf_addf(&b, "%zu rounds x %zu slots for %zu measurements: too sparse for "
			 "a grid", nr, ns, n);
		clist_add(&viol, json_string(b.ptr));
		complete = 0;
	} else {
		grid = xmalloc(nr * ns * sizeof(*grid));
		for (i = 0; i < nr * ns; i++)
			grid[i] = SIZE_MAX;
		for (i = d = 0; i < n; i++) {
			size_t s, t = tix[i];
			double x = v[i]->slot;

			while (rv[d] != v[i]->round)
				d++;	/* v and rv are both in round order */
			s = (size_t)((const double *)bsearch(&x, sv, ns, sizeof(*sv),
							      cmp_double_find) - sv);
			if (grid[d * ns + s] != SIZE_MAX) {
				buf_reset(&b);
				buf_addf(&b, "round %d slot %d holds both '%s' and '%s'",
					 v[i]->round, v[i]->slot, tn.v[grid[d * ns + s]], tn.v[t]);
				clist_add(&viol, json_string(b.ptr));
				nviol_round++;
				continue;
			}
			grid[d * ns + s] = t;
		}
		for (i = 0; i < nr * ns; i++)
			if (grid[i] == SIZE_MAX)
				complete = 0;
	}

	/* Each target once per round (v is in round order).  Messages name
	 * targets in order while the list has room; past that they are only
	 * counted, so many targets and rounds cost no more than the run. */
	for (i = 0; i < n; i = j) {
		size_t nv = 0, said = 0;

		for (ntouch = 0, j = i; j < n && v[j]->round == v[i]->round; j++)
			if (!cnt[tix[j]]++)
				touched[ntouch++] = tix[j];
		for (k = 0; k < ntouch; k++)
			nv += cnt[touched[k]] != 1;
		nv += nt - ntouch;
		for (k = 0; k < nt && said < nv && json_array_size(viol.a) < LIST_CAP; k++) {
			if (cnt[k] == 1)
				continue;
			buf_reset(&b);
			if (cnt[k])
				buf_addf(&b, "'%s' runs %zu times in round %d", tn.v[k],
					 cnt[k], v[i]->round);
			else
				buf_addf(&b, "'%s' is missing from round %d", tn.v[k],
					 v[i]->round);
			clist_add(&viol, json_string(b.ptr));
			said++;
		}
		viol.n += nv - said;
		nviol_round += nv;
		for (k = 0; k < ntouch; k++)
			cnt[touched[k]] = 0;
	}
	if (sparse)
		goto scheme;

	/* Each target in each slot equally often: once when there are as
	 * many rounds as targets (a Latin square), at most ceil(R/T) times
	 * otherwise; more is a violation. */
	cap = (nr + nt - 1) / nt;
	balanced = nr % nt == 0 && ns == nt;
	for (j = 0; j < ns; j++) {
		for (ntouch = 0, i = 0; i < nr; i++)
			if (grid[i * ns + j] != SIZE_MAX && !cnt[grid[i * ns + j]]++)
				touched[ntouch++] = grid[i * ns + j];
		/* Untouched targets count 0 times. */
		if (ntouch < nt && nr / nt != 0)
			balanced = 0;
		qsort(touched, ntouch, sizeof(*touched), cmp_size);
		for (k = 0; k < ntouch; k++) {
			size_t t = touched[k];

			if (cnt[t] != nr / nt)
				balanced = 0;
			if (cnt[t] <= cap)
				continue;
			buf_reset(&b);
			buf_addf(&b, "'%s' is in slot %d in %zu rounds", tn.v[t], (int)sv[j],
				 cnt[t]);
			clist_add(&viol, json_string(b.ptr));
		}
		for (k = 0; k < ntouch; k++)
			cnt[touched[k]] = 0;
	}
	balanced = balanced && complete && !nviol_round;
	latin = balanced && nr == nt && !viol.n;

scheme:
	/* The scheme: same order every round, or each round the previous
	 * one rotated by one position (either direction). */
	if (complete && !nviol_round && nr >= 2 && ns == nt) {
		sequential = is_shift(grid, nr, ns, 0);
		if (!sequential && ns >= 2)
			cyclic = is_shift(grid, nr, ns, 1) || is_shift(grid, nr, ns, ns - 1);
	}
	if (nr < 2)
		scheme = "single-round";
	else if (sequential)
		scheme = "sequential";
	else if (cyclic)
		scheme = "cyclic";
	else if (latin)
		scheme = "latin-square";
	else if (balanced)
		scheme = "balanced";
	else if (complete && !nviol_round)
		scheme = "permuted";
	else
		scheme = "irregular";

	json_object_set_new(o, "scheme", json_string(scheme));
	json_object_set_new(o, "latin_square", json_boolean(latin));
	json_object_set_new(o, "balanced", json_boolean(balanced));
	json_object_set_new(o, "violations", viol.a);
	json_object_set_new(o, "violations_total", json_integer((json_int_t)viol.n));
	jgrid = json_array();
	for (i = 0; grid && i < nr; i++) {
		json_t *row = json_array();

		for (j = 0; j < ns; j++)
			json_array_append_new(row, grid[i * ns + j] == SIZE_MAX ? json_null() :
					      json_string(tn.v[grid[i * ns + j]]));
		json_array_append_new(jgrid, row);
	}
	json_object_set_new(o, "grid", jgrid);
	json_object_set_new(o, "carryover_pairs", carryover(r, &tn, &carry_bal));
	json_object_set_new(o, "carryover_balanced", json_boolean(carry_bal));

	if (!strcmp(scheme, "sequential")) {
		verdict(c, o, ST_WARN,
			"sequential (non-rotated) ordering: every round ran the %zu targets "
			"in the same order, so slot position is confounded with target", nt);
		pitfall(c, "sequential (non-rotated) ordering: each target always ran in "
			"the same slot, so warm-up, heat and drift are confounded with the "
			"target");
	} else if (nr < 2) {
		verdict(c, o, ST_WARN, "a single round: slot position cannot be balanced");
	} else if (latin) {
		verdict(c, o, ST_OK,
			"%s %zux%zu Latin square: every target once per round and once per "
			"slot%s", cyclic ? "cyclic" : "non-cyclic", nr, ns,
			carry_bal ? "; carry-over balanced too" :
			cyclic ? "; this balances slot position but not carry-over (within a "
				 "round each target always follows the same predecessor)" :
				 "; carry-over (which target precedes which) is not balanced");
	} else if (viol.n) {
		verdict(c, o, ST_WARN, "%s order over %zu rounds x %zu slots, not a Latin "
			"square: %zu violation%s", scheme, nr, ns, viol.n,
			viol.n == 1 ? "" : "s");
		pitfall(c, "ordering is not a Latin square (%zu violation%s): targets do "
			"not share slot positions evenly", viol.n, viol.n == 1 ? "" : "s");
	} else if (balanced) {
		verdict(c, o, ST_OK, "%s order: %zu rounds x %zu slots, every target "
			"equally often in every slot", cyclic ? "cyclic" : "balanced", nr, ns);
	} else {
		verdict(c, o, ST_WARN, "%s order: %zu rounds for %zu targets, so slot "
			"positions cannot be fully balanced", cyclic ? "cyclic" : scheme, nr, nt);
	}
out:
	buf_release(&b);
	free(grid);
	free(cnt);
	free(touched);
	free(tix);
	free(tn.v);
	idmap_free(&tn.map);
	free(v);
	free(rv);
	free(sv);
	return o;
}

/* ------------------------------------------------------------------ */
/* points: one per (measurement, small route) with an energy figure */

struct point {
	const struct measurement *m;
	const struct route_win *w;
	double norm;		/* mj_per_req / mean of that target-route */
};

struct gpoint {
	size_t group, i;	/* (target, route) group; index in the points */
};

static int
cmp_gpoint(const void *pa, const void *pb)
{
	const struct gpoint *a = pa, *b = pb;

	if (a->group != b->group)
		return (a->group > b->group) - (a->group < b->group);
	return (a->i > b->i) - (a->i < b->i);
}

static size_t
collect_points(const struct run *r, struct point **out)
{
	struct idmap tm = IDMAP_INIT, rm = IDMAP_INIT;
	struct point *p;
	struct gpoint *g;
	size_t i, j, k, n = 0, total = 0, nr;
	size_t *tix = xmalloc((r->nm + 1) * sizeof(*tix));

	for (i = 0; i < r->nm; i++)
		total += r->m[i].nroutes;
	p = xmalloc((total + 1) * sizeof(*p));
	g = xmalloc((total + 1) * sizeof(*g));
	for (i = 0; i < r->nm; i++) {
		tix[i] = idmap_intern(&tm, r->m[i].target);
		for (j = 0; j < r->m[i].nroutes; j++) {
			const struct route_win *w = &r->m[i].routes[j];

			idmap_intern(&rm, w->name);
			if (w->per_mb || !isfinite(w->mj_per_req))
				continue;
			p[n].m = &r->m[i];
			p[n].w = w;
			p[n].norm = NAN;
			g[n].i = n;
			g[n].group = tix[i];	/* route added below */
			n++;
		}
	}
	/* Group number = target * routes + route (both below the number of
	 * windows, so the product fits). */
	nr = rm.n;
	for (k = 0; k < n; k++) {
		size_t rix = 0;

		idmap_get(&rm, p[k].w->name, &rix);
		g[k].group = g[k].group * nr + rix;
	}
	/* Mean of each group over its points in point order. */
	qsort(g, n, sizeof(*g), cmp_gpoint);
	for (i = 0; i < n; i = j) {
		double sum = 0;

		for (j = i; j < n && g[j].group == g[i].group; j++)
			sum += p[g[j].i].w->mj_per_req;
		for (k = i; k < j; k++)
			p[g[k].i].norm = p[g[k].i].w->mj_per_req / (sum / (double)(j - i));
	}
	/* Drop points whose group mean was zero (no energy figure). */
	for (i = k = 0; i < n; i++)
		if (isfinite(p[i].norm))
			p[k++] = p[i];
	free(g);
	free(tix);
	idmap_free(&tm);
	idmap_free(&rm);
	*out = p;
	return k;
}

/* {"n","pearson_r","se_r","significant"}: SE = 1/sqrt(max(n-3,1)) as the
 * published analyzer; significant when |r| > 1.96 SE. */
static json_t *
corr_json(const double *x, const double *y, size_t n, double *r_out, int *sig)
{
	json_t *o = json_object();
	double r = stats_pearson(x, y, n);
	double se = 1.0 / sqrt(n > 4 ? (double)(n - 3) : 1.0);

	*sig = !isnan(r) && fabs(r) > Z975 * se;
	*r_out = r;
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	json_object_set_new(o, "pearson_r", jx_real(r));
	json_object_set_new(o, "se_r", jx_real(se));
	json_object_set_new(o, "significant", jbool_or_null(r, *sig));
	return o;
}

static void
corr_into(json_t *dst, json_t *src)
{
	json_object_update(dst, src);
	json_decref(src);
}

static json_t *
check_position_bias(struct ctx *c, const struct point *p, size_t n)
{
	const struct run *r = c->r;
	json_t *o = check_new(), *pm, *byslot;
	double *x = xmalloc((n + r->nm + 1) * sizeof(*x));
	double *y = xmalloc((n + r->nm + 1) * sizeof(*y));
	double rr, rho, rm = NAN;
	int sig = 0, sigm = 0, maxslot = 0;
	size_t i, j, nm = 0;

	if (!c->has_power) {
		verdict(c, o, ST_NA, "no power data");
		goto out;
	}
	for (i = 0; i < n; i++) {
		x[i] = p[i].m->slot;
		y[i] = p[i].norm;
		if (p[i].m->slot > maxslot)
			maxslot = p[i].m->slot;
	}
	json_object_set_new(o, "metric",
			    json_string("gross mJ/req per small route, normalised to the "
					"target-route mean"));
	corr_into(o, corr_json(x, y, n, &rr, &sig));
	rho = stats_spearman(y, x, n);
	json_object_set_new(o, "spearman_rho", jx_real(rho));

	byslot = json_array();
	if (maxslot <= MAX_SLOT && maxslot > 0) {
		double *sum = xcalloc((size_t)maxslot + 1, sizeof(*sum));
		size_t *cnt = xcalloc((size_t)maxslot + 1, sizeof(*cnt));

		for (i = 0; i < n; i++)
			if (p[i].m->slot >= 1) {
				sum[p[i].m->slot] += p[i].norm;
				cnt[p[i].m->slot]++;
			}
		for (j = 1; j <= (size_t)maxslot; j++)
			json_array_append_new(byslot, cnt[j] ? jx_real(sum[j] / (double)cnt[j]) :
					      json_null());
		free(sum);
		free(cnt);
	}
	json_object_set_new(o, "mean_normalised_by_slot", byslot);

	/* One value per measurement: the request-weighted headline over the
	 * target's mean headline (sums in measurement order). */
	{
		struct idmap tm = IDMAP_INIT;
		size_t *tix = xmalloc((r->nm + 1) * sizeof(*tix)), k;
		double *sum = xcalloc(r->nm + 1, sizeof(*sum));
		size_t *cnt = xcalloc(r->nm + 1, sizeof(*cnt));

		for (i = 0; i < r->nm; i++) {
			const struct measurement *m = &r->m[i];

			tix[i] = k = idmap_intern(&tm, m->target);
			if (isfinite(m->head_mj_per_req) && m->slot >= 1) {
				sum[k] += m->head_mj_per_req;
				cnt[k]++;
			}
		}
		for (i = 0; i < r->nm; i++) {
			const struct measurement *m = &r->m[i];

			k = tix[i];
			if (!isfinite(m->head_mj_per_req) || m->slot < 1 || !(sum[k] > 0))
				continue;
			x[nm] = m->slot;
			y[nm] = m->head_mj_per_req / (sum[k] / (double)cnt[k]);
			nm++;
		}
		idmap_free(&tm);
		free(tix);
		free(sum);
		free(cnt);
	}
	pm = corr_json(x, y, nm, &rm, &sigm);
	json_object_set_new(o, "per_measurement", pm);

	if (n < 4 || isnan(rr)) {
		verdict(c, o, ST_NA, "too few points or no spread in slot or value (n = %zu)", n);
	} else if (sig || sigm) {
		verdict(c, o, ST_WARN,
			"slot effect: r = %.3f over %zu route points (SE %.3f), r = %.3f over "
			"%zu measurements (SE %.3f)%s", rr, n, 1.0 / sqrt(n > 4 ? (double)(n - 3) : 1.0),
			rm, nm, 1.0 / sqrt(nm > 4 ? (double)(nm - 3) : 1.0),
			sigm ? "" : "; the per-measurement r is not significant");
		pitfall(c, "significant position bias: normalised mJ/req correlates with "
			"slot (r = %.3f over %zu points, %.3f over %zu measurements)", rr, n,
			rm, nm);
	} else {
		verdict(c, o, ST_OK,
			"no significant slot effect: r = %.3f (n = %zu, SE %.3f), rho = %.3f; "
			"per measurement r = %.3f (n = %zu)", rr, n,
			1.0 / sqrt(n > 4 ? (double)(n - 3) : 1.0), rho, rm, nm);
	}
out:
	free(x);
	free(y);
	return o;
}

static json_t *
check_session_drift(struct ctx *c, const struct point *p, size_t n)
{
	json_t *o = check_new();
	double *x = xmalloc((n + 1) * sizeof(*x));
	double *y = xmalloc((n + 1) * sizeof(*y));
	double rr;
	int sig;
	size_t i, k = 0;

	if (!c->has_power) {
		verdict(c, o, ST_NA, "no power data");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (isfinite(p[i].m->session_min)) {
			x[k] = p[i].m->session_min;
			y[k] = p[i].norm;
			k++;
		}
	corr_into(o, corr_json(x, y, k, &rr, &sig));
	if (k < 4 || isnan(rr))
		verdict(c, o, ST_NA, "too few points or no spread (n = %zu)", k);
	else if (sig)
		verdict(c, o, ST_WARN, "normalised mJ/req drifts over the session: r = %.3f "
			"against session minute (n = %zu)", rr, k);
	else
		verdict(c, o, ST_OK, "no significant drift over the session: r = %.3f "
			"against session minute (n = %zu)", rr, k);
out:
	free(x);
	free(y);
	return o;
}

/* ------------------------------------------------------------------ */
/* idle drift */

static int
cmp_idle(const void *pa, const void *pb)
{
	const struct idle_win *a = *(const struct idle_win *const *)pa;
	const struct idle_win *b = *(const struct idle_win *const *)pb;

	return (a->start_ms > b->start_ms) - (a->start_ms < b->start_ms);
}

static json_t *
check_idle_drift(struct ctx *c)
{
	const struct run *r = c->r;
	json_t *o = check_new();
	const struct idle_win **v = xmalloc((r->nidle + 1) * sizeof(*v));
	double *h = xmalloc((r->nidle + 1) * sizeof(*h));
	double *w = xmalloc((r->nidle + 1) * sizeof(*w));
	double a, slope = NAN, share = NAN, ssum = 0, mean, change, span;
	size_t i, j, n = 0, ns = 0;
	struct buf sb = BUF_INIT;

	json_object_set_new(o, "first_watts", json_null());
	json_object_set_new(o, "last_watts", json_null());
	json_object_set_new(o, "slope_w_per_h", json_null());
	json_object_set_new(o, "idle_share", json_null());
	if (!c->has_power) {
		verdict(c, o, ST_NA, "no power data");
		goto out;
	}
	for (i = 0; i < r->nidle; i++)
		if (isfinite(r->idle[i].pw.mean_watts) && isfinite(r->idle[i].start_ms))
			v[n++] = &r->idle[i];
	qsort(v, n, sizeof(*v), cmp_idle);
	for (i = 0; i < n; i++) {
		h[i] = (v[i]->start_ms - c->t0) / 3.6e6;
		w[i] = v[i]->pw.mean_watts;
	}
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++)
			if (isfinite(r->m[i].routes[j].idle_share)) {
				ssum += r->m[i].routes[j].idle_share;
				ns++;
			}
	if (ns)
		share = ssum / (double)ns;
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	json_object_set_new(o, "idle_share", jx_real(share));
	if (!n) {
		verdict(c, o, ST_NA, "no idle windows with power data");
		goto out;
	}
	/* A reconstructed run's idle windows may be the rebuild's own (the
	 * attribution pass: 3, synthetic): a handful of them would only
	 * test the rebuild, so no verdict, neither ok nor warn. */
	if (n < IDLE_DRIFT_RECON_MIN && r->meta && jx_path(r->meta, "erg.reconstructed") &&
	    !json_is_null(jx_path(r->meta, "erg.reconstructed"))) {
		verdict(c, o, ST_NA, "not assessed: %zu idle window%s in a reconstructed run, "
			"whose sample-level detail is synthetic (at least %d needed)", n,
			n == 1 ? "" : "s", IDLE_DRIFT_RECON_MIN);
		goto out;
	}
	if (stats_ols(h, w, n, &a, &slope, NULL))
		slope = NAN;
	json_object_set_new(o, "first_watts", jx_real(w[0]));
	json_object_set_new(o, "last_watts", jx_real(w[n - 1]));
	json_object_set_new(o, "slope_w_per_h", jx_real(slope));
	json_object_set_new(o, "span_h", jx_real(h[n - 1] - h[0]));

	/* Warn when the fitted line moves the floor by more than a quarter of
	 * its mean over the session, and the floor is large enough (>= 1 % of
	 * load energy) for that to move the net figures. */
	mean = stats_mean(w, n);
	span = h[n - 1] - h[0];
	change = slope * span;
	if (isfinite(share))
		buf_addf(&sb, "; idle is %.1f%% of load energy%s", 100 * share,
			 share < IDLE_SHARE_MATTERS ? ", so gross and net barely differ" : "");
	if (isfinite(change) && fabs(change) > IDLE_DRIFT_WARN * fabs(mean) &&
	    !(share < IDLE_SHARE_MATTERS))
		verdict(c, o, ST_WARN, "idle floor drifts: %.3f W first, %.3f W last, slope "
			"%+.4f W/h over %.2f h%s", w[0], w[n - 1], slope, span, sb.ptr);
	else if (isfinite(slope))
		verdict(c, o, ST_OK, "idle floor %.3f W first, %.3f W last, slope %+.4f W/h%s",
			w[0], w[n - 1], slope, sb.ptr);
	else
		verdict(c, o, ST_OK, "idle floor %.3f W first, %.3f W last, no slope from "
			"%zu window%s%s", w[0], w[n - 1], n, n == 1 ? "" : "s", sb.ptr);
out:
	buf_release(&sb);
	free(v);
	free(h);
	free(w);
	return o;
}

/* ------------------------------------------------------------------ */
/* restatement */

static json_t *
check_restatement(struct ctx *c, const struct point *p, size_t n)
{
	json_t *o = check_new();
	double *x = xmalloc((n + 1) * sizeof(*x));
	double *y = xmalloc((n + 1) * sizeof(*y));
	double rr, r2;
	size_t i, k = 0;

	json_object_set_new(o, "r2", json_null());
	if (!c->has_power) {
		json_object_set_new(o, "n", json_integer(0));
		verdict(c, o, ST_NA, "no power data");
		goto out;
	}
	for (i = 0; i < n; i++) {
		double wt = p[i].w->pw.mean_watts, rps = p[i].w->rps_mean;

		if (!isfinite(wt) || !(rps > 0) || !isfinite(rps))
			continue;
		x[k] = 1.0 / rps;
		y[k] = wt / rps;
		k++;
	}
	rr = stats_pearson(x, y, k);
	r2 = rr * rr;
	json_object_set_new(o, "r2", jx_real(r2));
	json_object_set_new(o, "n", json_integer((json_int_t)k));
	if (k < 3 || isnan(r2)) {
		verdict(c, o, ST_NA, "too few points or no spread in throughput (n = %zu)", k);
		goto out;
	}
	json_object_set_new(o, "reading", json_string(r2 >= RESTATE_NEAR ?
		"near 1: energy per request mostly restates throughput on a saturated machine" :
		"well below 1: power differs between targets, so energy per request says "
		"more than throughput"));
	verdict(c, o, ST_OK, "r^2 of (W/rps, 1/rps) = %.3f over %zu points: %s", r2, k,
		r2 >= RESTATE_NEAR ? "mJ/req mostly restates 1/throughput" :
		"mJ/req carries information beyond throughput");
out:
	free(x);
	free(y);
	return o;
}

/* ------------------------------------------------------------------ */
/* throttling */

struct wref {
	const struct measurement *m;
	const struct route_win *w;
};

static int
cmp_wref(const void *pa, const void *pb)
{
	const struct wref *a = pa, *b = pb;

	if (a->w->start_ms != b->w->start_ms)
		return (a->w->start_ms > b->w->start_ms) - (a->w->start_ms < b->w->start_ms);
	return cmp_by_start(&a->m, &b->m);
}

static size_t
collect_windows(const struct run *r, struct wref **out)
{
	size_t i, j, n = 0, total = 0;
	struct wref *v;

	for (i = 0; i < r->nm; i++)
		total += r->m[i].nroutes;
	v = xmalloc((total + 1) * sizeof(*v));
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++) {
			v[n].m = &r->m[i];
			v[n].w = &r->m[i].routes[j];
			n++;
		}
	qsort(v, n, sizeof(*v), cmp_wref);
	*out = v;
	return n;
}

static json_t *
check_throttling(struct ctx *c, const struct wref *v, size_t n)
{
	const struct run *r = c->r;
	json_t *o = check_new(), *series;
	struct clist nn = { json_array(), 0 }, inn = { json_array(), 0 };
	double mhz_sum = 0, mhz_min = INFINITY, mhz_max = -INFINITY;
	size_t i, nmhz = 0, nthermal = 0;
	int worst = THERMAL_ABSENT;
	char f1[NUM_TEXT_LEN], f2[NUM_TEXT_LEN];

	if (!c->has_power) {
		json_object_set_new(o, "non_nominal", nn.a);
		json_object_set_new(o, "series", json_array());
		json_decref(inn.a);
		verdict(c, o, ST_NA, "no power data");
		return o;
	}
	series = json_array();
	for (i = 0; i < n; i++) {
		const struct route_win *w = v[i].w;
		double mhz = w->pw.cluster_mhz;
		json_t *e = json_object();

		json_object_set_new(e, "measurement", json_string(v[i].m->id));
		json_object_set_new(e, "route", json_string(w->name));
		json_object_set_new(e, "session_min", jx_real(minutes(c, w->start_ms)));
		json_object_set_new(e, "mhz", jx_real(mhz));
		json_object_set_new(e, "thermal", jx_string(thermal_name(w->pw.thermal)));
		json_array_append_new(series, e);
		if (isfinite(mhz)) {
			mhz_sum += mhz;
			nmhz++;
			mhz_min = fmin(mhz_min, mhz);
			mhz_max = fmax(mhz_max, mhz);
		}
		if (w->pw.thermal == THERMAL_ABSENT)
			continue;
		nthermal++;
		if (w->pw.thermal > worst)
			worst = w->pw.thermal;
		if (w->pw.thermal > THERMAL_NOMINAL) {
			e = json_object();
			json_object_set_new(e, "measurement", json_string(v[i].m->id));
			json_object_set_new(e, "route", json_string(w->name));
			json_object_set_new(e, "thermal", json_string(thermal_str(w->pw.thermal)));
			json_object_set_new(e, "session_min", jx_real(minutes(c, w->start_ms)));
			json_object_set_new(e, "mhz", jx_real(mhz));
			clist_add(&nn, e);
		}
	}
	for (i = 0; i < r->nidle; i++) {
		const struct idle_win *w = &r->idle[i];
		json_t *e;

		if (w->pw.thermal <= THERMAL_NOMINAL)
			continue;
		e = json_object();
		json_object_set_new(e, "idle", json_string(w->id));
		json_object_set_new(e, "thermal", json_string(thermal_str(w->pw.thermal)));
		json_object_set_new(e, "session_min", jx_real(minutes(c, w->start_ms)));
		clist_add(&inn, e);
	}
	json_object_set_new(o, "windows", json_integer((json_int_t)n));
	json_object_set_new(o, "worst", jx_string(thermal_name(worst)));
	json_object_set_new(o, "non_nominal", nn.a);
	json_object_set_new(o, "non_nominal_total", json_integer((json_int_t)nn.n));
	json_object_set_new(o, "idle_non_nominal", inn.a);
	json_object_set_new(o, "idle_non_nominal_total", json_integer((json_int_t)inn.n));
	json_object_set_new(o, "mhz_mean", jx_real(nmhz ? mhz_sum / (double)nmhz : NAN));
	json_object_set_new(o, "mhz_min", jx_real(nmhz ? mhz_min : NAN));
	json_object_set_new(o, "mhz_max", jx_real(nmhz ? mhz_max : NAN));
	json_object_set_new(o, "series", series);

	if (!nthermal && !nmhz) {
		verdict(c, o, ST_NA, "no thermal pressure or cluster frequency in the power data");
	} else if (nn.n) {
		verdict(c, o, worst >= THERMAL_HEAVY ? ST_FAIL : ST_WARN,
			"thermal pressure above Nominal in %zu of %zu load windows (worst %s)",
			nn.n, n, thermal_str(worst));
		pitfall(c, "non-Nominal thermal pressure in %zu load window%s (worst %s): "
			"the machine may have throttled", nn.n, nn.n == 1 ? "" : "s",
			thermal_str(worst));
	} else if (!nthermal) {
		verdict(c, o, ST_OK, "no thermal pressure recorded; performance cluster "
			"%s-%s MHz across %zu windows", num_text(f1, round(mhz_min)),
			num_text(f2, round(mhz_max)), nmhz);
	} else if (nmhz) {
		verdict(c, o, ST_OK, "thermal pressure Nominal in all %zu load windows; "
			"performance cluster %s-%s MHz", nthermal, num_text(f1, round(mhz_min)),
			num_text(f2, round(mhz_max)));
	} else {
		verdict(c, o, ST_OK, "thermal pressure Nominal in all %zu load windows",
			nthermal);
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* coverage */

static const char *
rel_path(const struct run *r, const char *path)
{
	size_t n;

	if (!path)
		return NULL;
	if (r->dir) {
		n = strlen(r->dir);
		if (n && !strncmp(path, r->dir, n) && path[n] == '/')
			return path + n + 1;
	}
	return path;
}

static void
power_gaps(struct ctx *c, struct clist *gaps, struct clist *nopower)
{
	const struct run *r = c->r;
	size_t f, i, h;

	for (f = 0; f < r->npf; f++) {
		const struct power_file *pf = &r->pf[f];
		const char *name = rel_path(r, pf->path);
		double *d, med;

		for (i = 0; i < pf->n; i++) {
			json_t *e;

			if (!isnan(pf->s[i].joules))
				continue;
			e = json_object();
			json_object_set_new(e, "file", jx_string(name));
			json_object_set_new(e, "sample", json_integer((json_int_t)i));
			json_object_set_new(e, "start_ms", jx_real(pf->s[i].start_ms));
			json_object_set_new(e, "session_min", jx_real(minutes(c, pf->s[i].start_ms)));
			clist_add(nopower, e);
		}
		if (pf->n < 3)
			continue;
		/* Sample-to-sample interval on the fitted axis; the fit makes
		 * samples contiguous, so a stall shows as one long interval.
		 * A timestamp step beyond that (less 1 s for truncation) shows
		 * dropped samples.  The holes power_read() found are gaps
		 * whatever their length: one missing sample is only twice the
		 * median. */
		d = xmalloc(pf->n * sizeof(*d));
		for (i = 1; i < pf->n; i++)
			d[i - 1] = pf->s[i].end_ms - pf->s[i - 1].end_ms;
		med = stats_median(d, pf->n - 1);
		for (i = 1, h = 0; i < pf->n; i++) {
			double step = fmax(d[i - 1], pf->s[i].ts_ms - pf->s[i - 1].ts_ms - 1000.0);
			const struct phole *hole;
			double gs, ge;
			json_t *e;

			while (h < pf->nholes && pf->holes[h].at < i)
				h++;
			hole = h < pf->nholes && pf->holes[h].at == i ? &pf->holes[h] : NULL;
			if (!hole && (!(med > 0) || !(step > GAP_FACTOR * med)))
				continue;
			e = json_object();
			json_object_set_new(e, "file", jx_string(name));
			json_object_set_new(e, "sample", json_integer((json_int_t)i));
			if (hole && pf->timed) {
				/* on the epoch as the reader placed it: the
				 * interval of sample i itself when the logger
				 * stalled (en_finish()), or the time between two
				 * dated samples (en_place_dated()) */
				gs = hole->lo_ms;
				ge = hole->hi_ms;
			} else if (hole) {
				/* where the fit left it: right before sample i */
				gs = pf->s[i].start_ms - hole->ms * pf->fit_b;
				ge = pf->s[i].start_ms;
			} else {
				gs = pf->s[i - 1].end_ms;
				ge = pf->s[i - 1].end_ms + step;
			}
			json_object_set_new(e, "start_ms", jx_real(gs));
			json_object_set_new(e, "end_ms", jx_real(ge));
			if (hole)
				json_object_set_new(e, "missing_samples", json_integer(hole->missing));
			json_object_set_new(e, "interval_ms", jx_real(step));
			json_object_set_new(e, "median_ms", jx_real(med));
			json_object_set_new(e, "session_min", jx_real(minutes(c, gs)));
			clist_add(gaps, e);
		}
		free(d);
	}
}

static json_t *
check_coverage(struct ctx *c, const struct wref *v, size_t n, size_t *nlow)
{
	const struct run *r = c->r;
	json_t *o = check_new();
	struct clist low = { json_array(), 0 }, gaps = { json_array(), 0 };
	struct clist nop = { json_array(), 0 };
	double worst = INFINITY;
	size_t i, nfail = 0;
	enum status st;

	*nlow = 0;
	json_object_set_new(o, "threshold", json_real(COVERAGE_MIN));
	if (!c->has_power) {
		json_object_set_new(o, "low", low.a);
		json_object_set_new(o, "gaps", gaps.a);
		json_object_set_new(o, "samples_without_power", json_integer(0));
		json_decref(nop.a);
		verdict(c, o, ST_NA, "no power data");
		return o;
	}
	for (i = 0; i < n; i++) {
		const struct route_win *w = v[i].w;
		json_t *e;

		if (!isfinite(w->pw.coverage))
			continue;
		worst = fmin(worst, w->pw.coverage);
		if (w->pw.coverage >= COVERAGE_MIN)
			continue;
		if (w->pw.coverage < COVERAGE_FAIL)
			nfail++;
		e = json_object();
		json_object_set_new(e, "kind", json_string("load"));
		json_object_set_new(e, "measurement", json_string(v[i].m->id));
		json_object_set_new(e, "route", json_string(w->name));
		json_object_set_new(e, "coverage", jx_real(w->pw.coverage));
		json_object_set_new(e, "session_min", jx_real(minutes(c, w->start_ms)));
		clist_add(&low, e);
	}
	for (i = 0; i < r->nidle; i++) {
		const struct idle_win *w = &r->idle[i];
		json_t *e;

		if (!isfinite(w->pw.coverage))
			continue;
		worst = fmin(worst, w->pw.coverage);
		if (w->pw.coverage >= COVERAGE_MIN)
			continue;
		e = json_object();
		json_object_set_new(e, "kind", json_string("idle"));
		json_object_set_new(e, "idle", json_string(w->id));
		json_object_set_new(e, "coverage", jx_real(w->pw.coverage));
		json_object_set_new(e, "session_min", jx_real(minutes(c, w->start_ms)));
		clist_add(&low, e);
	}
	power_gaps(c, &gaps, &nop);
	*nlow = low.n;
	json_object_set_new(o, "min_coverage", jx_real(isfinite(worst) ? worst : NAN));
	json_object_set_new(o, "low", low.a);
	json_object_set_new(o, "low_total", json_integer((json_int_t)low.n));
	json_object_set_new(o, "gaps", gaps.a);
	json_object_set_new(o, "gaps_total", json_integer((json_int_t)gaps.n));
	json_object_set_new(o, "samples_without_power", json_integer((json_int_t)nop.n));
	json_object_set_new(o, "without_power", nop.a);

	st = nfail ? ST_FAIL : (low.n || gaps.n || nop.n) ? ST_WARN : ST_OK;
	if (st == ST_OK)
		verdict(c, o, st, "every window is at least %.0f%% covered by power samples; "
			"no gaps", 100 * COVERAGE_MIN);
	else
		verdict(c, o, st, "%zu window%s under %.0f%% coverage%s, %zu gap%s in the "
			"power samples, %zu sample%s without energy", low.n,
			low.n == 1 ? "" : "s", 100 * COVERAGE_MIN,
			nfail ? " (some load windows mostly unmeasured)" : "", gaps.n,
			gaps.n == 1 ? "" : "s", nop.n, nop.n == 1 ? "" : "s");
	if (low.n)
		pitfall(c, "low power coverage: %zu window%s under %.0f%% covered by power "
			"samples", low.n, low.n == 1 ? "" : "s", 100 * COVERAGE_MIN);
	return o;
}

/* ------------------------------------------------------------------ */
/* responses */

/* Below this share of 2xx answers a window measured mostly failures. */
#define OK_SHARE_FAIL 0.5

static json_t *
check_responses(struct ctx *c, const struct wref *v, size_t n)
{
	json_t *o = check_new();
	struct clist bad = { json_array(), 0 };
	size_t i, nwin = 0, nunknown = 0, nfail = 0;

	for (i = 0; i < n; i++) {
		const struct route_win *w = v[i].w;
		json_t *e;

		nwin++;
		if (isnan(w->non2xx) && isnan(w->errors)) {
			nunknown++;
			continue;
		}
		if (!(w->non2xx > 0) && !(w->errors > 0))
			continue;
		if (w->ok2xx < OK_SHARE_FAIL * w->requests)
			nfail++;
		e = json_object();
		json_object_set_new(e, "measurement", json_string(v[i].m->id));
		json_object_set_new(e, "route", json_string(w->name));
		json_object_set_new(e, "requests", jx_real(w->requests));
		json_object_set_new(e, "responses_2xx", jx_real(w->ok2xx));
		json_object_set_new(e, "non2xx", jx_real(w->non2xx));
		json_object_set_new(e, "errors", jx_real(w->errors));
		clist_add(&bad, e);
	}
	json_object_set_new(o, "windows", json_integer((json_int_t)nwin));
	json_object_set_new(o, "windows_unknown", json_integer((json_int_t)nunknown));
	json_object_set_new(o, "bad", bad.a);
	json_object_set_new(o, "bad_total", json_integer((json_int_t)bad.n));
	if (!nwin) {
		verdict(c, o, ST_NA, "no load windows");
	} else if (bad.n) {
		verdict(c, o, nfail ? ST_FAIL : ST_WARN, "%zu of %zu load windows had requests "
			"without a 2xx response (non-2xx or transport errors)%s; energy per "
			"request counts them there, energy per 2xx response does not", bad.n,
			nwin, nfail ? ", in some fewer than half were 2xx" : "");
		pitfall(c, "errors or non-2xx responses in %zu load window%s: requests "
			"counted there were not all served", bad.n, bad.n == 1 ? "" : "s");
	} else if (nunknown == nwin) {
		verdict(c, o, ST_NA, "no load window reports the status of its responses");
	} else if (nunknown) {
		verdict(c, o, ST_OK, "no errors and only 2xx responses in the %zu load windows "
			"that report them (%zu do not)", nwin - nunknown, nunknown);
	} else {
		verdict(c, o, ST_OK, "no errors and only 2xx responses in all %zu load "
			"windows", nwin);
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* attribution */

/*
 * CPU-time attribution (energy-method.md §1.2 tasks sampler, §1.3
 * "Attribution", §3.4).  Per load window, the CPU time of every process
 * (power_tasks_integrate: a sample's task times are apportioned to the
 * window by the same fractional overlap as its joules) is put into one
 * of the buckets below, first match wins:
 *
 *   DEAD_TASKS     pid -1: processes that exited during the sample
 *   kernel_task    pid 0
 *   server         pid == the measurement's serverPid
 *   load generator pid == the window's load-generator pid, or the tool's
 *                  process name ("bombardier")
 *   server         the name of the serverPid task in that window (its
 *                  children and workers: "bun"); when the serverPid is not
 *                  among the tasks, the runtime of the target ("bun" of
 *                  "bun/elysia")
 *   powermetrics   the sampler itself
 *   WindowServer   the compositor, which the published analysis shows
 *   other
 *
 * Shares are of the window's CPU time over all tasks (DEAD_TASKS
 * included), and of its P-core time (ptime_ns, written with --show-all)
 * where every task of the window had one.  DEAD_TASKS may belong to any
 * bucket, so each share is a lower bound and share + DEAD_TASKS share an
 * upper one.
 *
 * The joules-from-CPU-time fit is the published one (attribute.ts): over
 * the windows with P-core time, least squares through the origin of
 *     joules = a * P-core s + b * E-core s
 * where P-core s is the window's ptime summed over all tasks, E-core s its
 * CPU time minus that, and joules the window's SoC energy; R^2 is centred
 * (stats_ols2_origin).  On the published attribution session this gives
 * a = 5.0468, b = -2.1419, R^2 = 0.4804 (tests/unit/test_attrib.c).  A
 * negative coefficient is physically impossible, so the fit is reported
 * as rejected.  Joules per process are never computed.
 *
 * Also checked: a window's P-core time per second against the performance
 * cores of meta.json (machine.perflevel0.count), and its CPU time against
 * all cores (perflevel0 + perflevel1), with 2 % slack for the apportioning
 * at the window edges.  More than the cores can run warns: the published
 * session has up to 5.19 P-core seconds per second on 4 performance cores.
 * Status: n/a without task data; warn for that, or for load windows
 * without (or under 95 % covered by) task data; ok otherwise.
 */

enum { B_SERVER, B_LOAD, B_KERNEL, B_DEAD, B_SAMPLER, B_WINDOWSERVER, B_OTHER, NBUCKET };

static const char *const bucket_role[NBUCKET] = {
	"server", "load_generator", "kernel", "exited", "sampler", "compositor", "other"
};

#define ATTRIB_MIN_FIT 3	/* windows needed for a two-coefficient fit */
#define CORE_SLACK 1.02		/* apportioning may blur a window edge a little */

/* The load generator's pid of a window.  NEEDSWORK: routeComplete's
 * bombardierPid is not in the model yet (struct route_win needs a
 * load_pid); until it is, the load generator is found by name only. */
static double
route_load_pid(const struct route_win *w)
{
	return w->load_pid;
}

/* Process name of the window's load generator; NULL when it has none of
 * its own (autocannon runs inside node). */
static const char *
load_proc_name(const struct run *r, const struct route_win *w)
{
	const char *s;

	if (w->has_load) {
		switch (w->load.tool) {
		case LOAD_BOMBARDIER_JSON:
		case LOAD_BOMBARDIER_TEXT:
			return "bombardier";
		case LOAD_OHA_JSON:
			return "oha";
		case LOAD_WRK_TEXT:
		case LOAD_WRK2_TEXT:
			return "wrk";
		case LOAD_K6_JSON:
		case LOAD_K6_NDJSON:
			return "k6";
		case LOAD_AB_TEXT:
			return "ab";
		case LOAD_HEY_TEXT:
		case LOAD_HEY_CSV:
			return "hey";
		case LOAD_VEGETA_JSON:
			return "vegeta";
		case LOAD_JMETER_CSV:
			return "java";	/* JMeter runs in a JVM */
		case LOAD_AUTOCANNON_JSON:
			return NULL;
		default:
			break;
		}
	}
	s = jx_path_str(r->meta, "load.tool");
	if (s && *s)
		return s;
	return "bombardier";	/* the energy runner's generator */
}

static int
pid_is(int32_t pid, double want)
{
	return isfinite(want) && (double)pid == want;
}

struct attrib_win {
	const struct measurement *m;
	const struct route_win *w;
	double cpu[NBUCKET], pcore[NBUCKET];
	double cpu_ms, pcore_ms;	/* pcore_ms NAN when some task had no ptime */
	double window_s;
};

/* Server names of the window into names (at most cap); returns the count. */
static size_t
server_names(const struct measurement *m, const struct ptask_win *tw,
	     const char **names, size_t cap, char *rt, size_t rtlen)
{
	size_t i, j, n = 0;
	const char *slash;

	for (i = 0; i < tw->n && n < cap; i++) {
		if (!pid_is(tw->t[i].pid, m->server_pid) || !*tw->t[i].name)
			continue;
		for (j = 0; j < n && strcmp(names[j], tw->t[i].name); j++)
			;
		if (j == n)
			names[n++] = tw->t[i].name;
	}
	if (!n && m->target_full && (slash = strchr(m->target_full, '/')) &&
	    slash > m->target_full && (size_t)(slash - m->target_full) < rtlen) {
		memcpy(rt, m->target_full, (size_t)(slash - m->target_full));
		rt[slash - m->target_full] = '\0';
		names[n++] = rt;
	}
	return n;
}

static int
bucket_of(const struct ptask_sum *t, const struct measurement *m, double load_pid,
	  const char *load_name, const char *const *snames, size_t nsn)
{
	size_t i;

	if (t->pid == -1)
		return B_DEAD;
	if (t->pid == 0)
		return B_KERNEL;
	if (pid_is(t->pid, m->server_pid))
		return B_SERVER;
	if (pid_is(t->pid, load_pid) || (load_name && !strcmp(t->name, load_name)))
		return B_LOAD;
	for (i = 0; i < nsn; i++)
		if (!strcmp(t->name, snames[i]))
			return B_SERVER;
	if (!strcmp(t->name, "powermetrics"))
		return B_SAMPLER;
	if (!strcmp(t->name, "WindowServer"))
		return B_WINDOWSERVER;
	return B_OTHER;
}

static json_t *
share_or_null(double part, double whole)
{
	return jx_real(whole > 0 && isfinite(part) ? part / whole : NAN);
}

/* Core count of a perflevel from meta.json (machine.perflevelN.count). */
static double
meta_cores(const struct run *r, const char *level)
{
	char key[64];
	json_t *v;

	snprintf(key, sizeof(key), "machine.%s.count", level);
	v = jx_path(r->meta, key);
	return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : NAN;
}

static json_t *
attrib_window_json(const struct ctx *c, const struct attrib_win *a,
		   const struct ptask_win *tw, const char *load_name,
		   const char *const *snames, size_t nsn)
{
	json_t *e = json_object(), *bk = json_array(), *sn = json_array();
	double dead = a->cpu[B_DEAD], pdead = a->pcore[B_DEAD];
	size_t i;

	json_object_set_new(e, "measurement", json_string(a->m->id));
	json_object_set_new(e, "framework", json_string(a->m->target));
	json_object_set_new(e, "route", json_string(a->w->name));
	json_object_set_new(e, "session_min", jx_real(minutes(c, a->w->start_ms)));
	json_object_set_new(e, "window_ms", jx_real(a->w->end_ms - a->w->start_ms));
	json_object_set_new(e, "window_j", jx_real(a->w->pw.energy_j));
	json_object_set_new(e, "mean_watts", jx_real(a->w->pw.mean_watts));
	json_object_set_new(e, "task_samples", json_integer((json_int_t)tw->samples));
	json_object_set_new(e, "task_coverage", jx_real(tw->coverage));
	json_object_set_new(e, "cpu_ms", jx_real(a->cpu_ms));
	json_object_set_new(e, "pcore_ms", jx_real(a->pcore_ms));
	json_object_set_new(e, "cpu_cores", jx_real(a->cpu_ms / 1000 / a->window_s));
	json_object_set_new(e, "pcore_cores", jx_real(a->pcore_ms / 1000 / a->window_s));
	json_object_set_new(e, "dead_cpu_share", share_or_null(dead, a->cpu_ms));
	for (i = 0; i < nsn; i++)
		json_array_append_new(sn, json_string(snames[i]));
	json_object_set_new(e, "server_processes", sn);
	for (i = 0; i < NBUCKET; i++) {
		json_t *b = json_object();
		const char *name = i == B_SERVER ? "server" : i == B_LOAD ?
				   (load_name ? load_name : "load generator") :
				   i == B_KERNEL ? "kernel_task" : i == B_DEAD ? "DEAD_TASKS" :
				   i == B_SAMPLER ? "powermetrics" :
				   i == B_WINDOWSERVER ? "WindowServer" : "other";
		double pc = isnan(a->pcore_ms) ? NAN : a->pcore[i];

		json_object_set_new(b, "name", json_string(name));
		json_object_set_new(b, "role", json_string(bucket_role[i]));
		json_object_set_new(b, "cpu_ms", jx_real(a->cpu[i]));
		json_object_set_new(b, "pcore_ms", jx_real(pc));
		json_object_set_new(b, "cpu_share", share_or_null(a->cpu[i], a->cpu_ms));
		json_object_set_new(b, "pcore_share", share_or_null(pc, a->pcore_ms));
		/* Upper bounds: all of DEAD_TASKS could be this bucket's. */
		json_object_set_new(b, "cpu_share_max", i == B_DEAD ?
				    share_or_null(dead, a->cpu_ms) :
				    share_or_null(a->cpu[i] + dead, a->cpu_ms));
		json_object_set_new(b, "pcore_share_max", i == B_DEAD ?
				    share_or_null(isnan(a->pcore_ms) ? NAN : pdead, a->pcore_ms) :
				    share_or_null(pc + pdead, a->pcore_ms));
		json_array_append_new(bk, b);
	}
	json_object_set_new(e, "buckets", bk);
	return e;
}

/* The published joules ~ P-core s + E-core s fit (see above). */
static json_t *
attrib_fit(const struct attrib_win *a, size_t n, int *rejected, double *r2_out)
{
	json_t *o = json_object();
	double *x1 = xmalloc((n + 1) * sizeof(*x1));
	double *x2 = xmalloc((n + 1) * sizeof(*x2));
	double *y = xmalloc((n + 1) * sizeof(*y));
	double fa = NAN, fb = NAN, r2 = NAN;
	size_t i, k = 0, nop = 0;
	const char *reason = NULL;

	for (i = 0; i < n; i++) {
		if (!isfinite(a[i].w->pw.energy_j) || !(a[i].cpu_ms > 0))
			continue;
		if (!isfinite(a[i].pcore_ms)) {
			nop++;
			continue;
		}
		x1[k] = a[i].pcore_ms / 1000;
		x2[k] = (a[i].cpu_ms - a[i].pcore_ms) / 1000;
		y[k] = a[i].w->pw.energy_j;
		k++;
	}
	*rejected = -1;
	if (!k && nop)
		reason = "not fitted: no P-core time (ptime_ns, which powermetrics writes "
			 "with --show-all)";
	else if (k < ATTRIB_MIN_FIT)
		reason = "not fitted: fewer than 3 windows with energy and P-core time";
	else if (stats_ols2_origin(x1, x2, y, k, &fa, &fb, &r2))
		reason = "not fitted: P-core and E-core seconds are collinear";
	else if (fa < 0 && fb < 0)
		reason = "negative P-core and E-core coefficients";
	else if (fa < 0)
		reason = "negative P-core coefficient";
	else if (fb < 0)
		reason = "negative E-core coefficient";
	if (k >= ATTRIB_MIN_FIT && isfinite(fa))
		*rejected = fa < 0 || fb < 0;
	*r2_out = r2;
	json_object_set_new(o, "model", json_string(
		"joules = a * P-core seconds + b * E-core seconds, least squares through "
		"the origin"));
	json_object_set_new(o, "definition", json_string(
		"per load window: P-core seconds = ptime summed over all tasks (DEAD_TASKS "
		"included), E-core seconds = CPU seconds minus P-core seconds, joules = the "
		"window's SoC energy; R^2 centred"));
	json_object_set_new(o, "a_j_per_pcore_s", jx_real(fa));
	json_object_set_new(o, "b_j_per_ecore_s", jx_real(fb));
	json_object_set_new(o, "r2", jx_real(r2));
	json_object_set_new(o, "n", json_integer((json_int_t)k));
	json_object_set_new(o, "rejected", *rejected < 0 ? json_null() : json_boolean(*rejected));
	json_object_set_new(o, "reason", jx_string(reason));
	free(x1);
	free(x2);
	free(y);
	return o;
}

static json_t *
check_attribution(struct ctx *c, const struct wref *v, size_t n)
{
	const struct run *r = c->r;
	json_t *o = check_new(), *wins = json_array(), *fit;
	struct attrib_win *a = xcalloc(n + 1, sizeof(*a));
	struct ptask_win tw = PTASK_WIN_INIT;
	double dmin = INFINITY, dmax = -INFINITY, r2 = NAN;
	double pcores = meta_cores(r, "perflevel0"), ecores = meta_cores(r, "perflevel1");
	double pmax = 0, cmax = 0;
	size_t i, k, na = 0, nlow = 0, nnone = 0, nover_p = 0, nover_c = 0, npc = 0;
	int rejected;
	struct buf b = BUF_INIT;
	char f1[NUM_TEXT_LEN];

	json_object_set_new(o, "metric", json_string(
		"share of CPU time (and of P-core time) of each process group in each load "
		"window"));
	json_object_set_new(o, "note", json_string(
		"DEAD_TASKS is CPU time of processes that exited during a sample; it cannot be "
		"attributed to any surviving process, so every share is a bound: at least the "
		"share shown, at most that plus the DEAD_TASKS share. Per-process joules are not "
		"reported: SoC power at saturation is near-constant whatever the accumulated CPU "
		"time, so energy is not proportional to CPU time (the fit below)."));
	if (!power_task_samples(r->pf, r->npf)) {
		json_object_set_new(o, "windows", wins);
		json_object_set_new(o, "fit", json_null());
		verdict(c, o, ST_NA, "no per-process CPU time (the powermetrics tasks sampler "
			"was not run)");
		free(a);
		return o;
	}
	for (i = 0; i < n; i++) {
		const struct measurement *m = v[i].m;
		const struct route_win *w = v[i].w;
		struct attrib_win *x = &a[na];
		const char *snames[8], *load_name = load_proc_name(r, w);
		char rt[64];
		size_t nsn;
		int nop = 0;

		power_tasks_integrate(r->pf, r->npf, w->start_ms, w->end_ms, &tw);
		if (!tw.samples || !(tw.cpu_ms > 0)) {
			nnone++;
			continue;
		}
		if (tw.coverage < COVERAGE_MIN)
			nlow++;
		x->m = m;
		x->w = w;
		x->window_s = (w->end_ms - w->start_ms) / 1000;
		nsn = server_names(m, &tw, snames, sizeof(snames) / sizeof(snames[0]), rt,
				   sizeof(rt));
		for (k = 0; k < tw.n; k++) {
			const struct ptask_sum *t = &tw.t[k];
			int bi = bucket_of(t, m, route_load_pid(w), load_name, snames, nsn);

			x->cpu[bi] += t->cpu_ms;
			x->pcore[bi] += t->pcore_ms;
			x->cpu_ms += t->cpu_ms;
			x->pcore_ms += t->pcore_ms;
			nop |= t->nop_cpu_ms > 0;
		}
		if (nop)
			x->pcore_ms = NAN;
		else
			npc++;
		dmin = fmin(dmin, x->cpu[B_DEAD] / x->cpu_ms);
		dmax = fmax(dmax, x->cpu[B_DEAD] / x->cpu_ms);
		/* What the cores could have run in the window. */
		if (isfinite(pcores) && isfinite(x->pcore_ms) &&
		    x->pcore_ms / 1000 > CORE_SLACK * pcores * x->window_s)
			nover_p++;
		if (isfinite(pcores) && isfinite(ecores) &&
		    x->cpu_ms / 1000 > CORE_SLACK * (pcores + ecores) * x->window_s)
			nover_c++;
		if (isfinite(x->pcore_ms))
			pmax = fmax(pmax, x->pcore_ms / 1000 / x->window_s);
		cmax = fmax(cmax, x->cpu_ms / 1000 / x->window_s);
		json_array_append_new(wins, attrib_window_json(c, x, &tw, load_name, snames, nsn));
		na++;
	}
	ptask_win_free(&tw);
	json_object_set_new(o, "windows", wins);
	json_object_set_new(o, "windows_without_tasks", json_integer((json_int_t)nnone));
	json_object_set_new(o, "dead_share_min", jx_real(na ? dmin : NAN));
	json_object_set_new(o, "dead_share_max", jx_real(na ? dmax : NAN));
	json_object_set_new(o, "performance_cores", jx_real(pcores));
	json_object_set_new(o, "efficiency_cores", jx_real(ecores));
	json_object_set_new(o, "max_pcore_cores", jx_real(npc ? pmax : NAN));
	json_object_set_new(o, "max_cpu_cores", jx_real(na ? cmax : NAN));
	json_object_set_new(o, "windows_pcore_over_capacity", json_integer((json_int_t)nover_p));
	json_object_set_new(o, "windows_cpu_over_capacity", json_integer((json_int_t)nover_c));
	fit = attrib_fit(a, na, &rejected, &r2);
	json_object_set_new(o, "fit", fit);

	if (!na) {
		verdict(c, o, ST_NA, "the power samples carry task data, but none overlaps a "
			"load window");
		goto out;
	}
	buf_addf(&b, "CPU-time shares in %zu load window%s; they are bounds, since DEAD_TASKS "
		 "(exited processes, %.1f-%.1f%% of CPU time) cannot be attributed", na,
		 na == 1 ? "" : "s", 100 * dmin, 100 * dmax);
	if (rejected > 0)
		buf_addf(&b, "; the joules-from-CPU-time fit is rejected (%s, R^2 %.3f), so no "
			 "per-process joules", jx_path_str(fit, "reason"), r2);
	else if (rejected == 0)
		buf_addf(&b, "; the joules-from-CPU-time fit has R^2 %.3f, but per-process "
			 "joules are still not reported", r2);
	else
		buf_addf(&b, "; no joules-from-CPU-time fit (%s)", jx_path_str(fit, "reason"));
	if (nover_p)
		buf_addf(&b, "; P-core time exceeds what the %s performance cores can run in "
			 "%zu window%s (up to %.2f per second)", num_text(f1, pcores), nover_p,
			 nover_p == 1 ? "" : "s", pmax);
	if (nover_c)
		buf_addf(&b, "; CPU time exceeds the %s cores in %zu window%s",
			 num_text(f1, pcores + ecores),
			 nover_c, nover_c == 1 ? "" : "s");
	if (nlow || nnone)
		buf_addf(&b, "; %zu window%s without task data, %zu under %.0f%% covered", nnone,
			 nnone == 1 ? "" : "s", nlow, 100 * COVERAGE_MIN);
	verdict(c, o, nover_p || nover_c || nlow || nnone ? ST_WARN : ST_OK, "%s", b.ptr);
	if (nover_p)
		pitfall(c, "per-task P-core time (ptime_ns) adds up to more than the %s "
			"performance cores can run in %zu load window%s (up to %.2f core-seconds "
			"per second): it cannot be P-core time alone, so P-core shares and the "
			"joules fit rest on an unclear quantity", num_text(f1, pcores), nover_p,
			nover_p == 1 ? "" : "s", pmax);
	if (nover_c)
		pitfall(c, "per-task CPU time adds up to more than the %s cores can run in "
			"%zu load window%s", num_text(f1, pcores + ecores), nover_c,
			nover_c == 1 ? "" : "s");
out:
	buf_release(&b);
	free(a);
	return o;
}

/* ------------------------------------------------------------------ */

static int
run_has_power(const struct run *r)
{
	size_t i, j;

	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++)
			if (isfinite(r->m[i].routes[j].pw.energy_j) &&
			    r->m[i].routes[j].pw.coverage > 0)
				return 1;
	return 0;
}

static double
session_t0(const struct run *r)
{
	double t0 = r->session_start_ms;
	size_t i;

	if (isfinite(t0))
		return t0;
	t0 = INFINITY;
	for (i = 0; i < r->nm; i++)
		t0 = fmin(t0, r->m[i].start_ms);
	for (i = 0; i < r->nidle; i++)
		t0 = fmin(t0, r->idle[i].start_ms);
	return isfinite(t0) ? t0 : 0;
}

json_t *
checks_run(const struct run *r)
{
	struct ctx c;
	json_t *o = json_object();
	struct point *p;
	struct wref *wv;
	size_t np, nw, nlow;
	int nrounds = 0;

	c.r = r;
	c.has_power = run_has_power(r);
	c.t0 = session_t0(r);
	c.pitfalls = json_array();
	c.worst = ST_NA;
	np = collect_points(r, &p);
	nw = collect_windows(r, &wv);

	json_object_set_new(o, "status", json_null());
	json_object_set_new(o, "pitfalls", json_incref(c.pitfalls));
	json_object_set_new(o, "ordering", check_ordering(&c, &nrounds));
	if (nrounds > 0 && nrounds < MIN_ROUNDS)
		pitfall(&c, "fewer than %d rounds (%d): too few repetitions for a spread "
			"or a balanced order", MIN_ROUNDS, nrounds);
	json_object_set_new(o, "position_bias", check_position_bias(&c, p, np));
	json_object_set_new(o, "session_drift", check_session_drift(&c, p, np));
	json_object_set_new(o, "idle_drift", check_idle_drift(&c));
	json_object_set_new(o, "restatement", check_restatement(&c, p, np));
	json_object_set_new(o, "throttling", check_throttling(&c, wv, nw));
	json_object_set_new(o, "coverage", check_coverage(&c, wv, nw, &nlow));
	json_object_set_new(o, "responses", check_responses(&c, wv, nw));
	json_object_set_new(o, "attribution", check_attribution(&c, wv, nw));
	if (nrounds > 0 && nrounds < MIN_ROUNDS && c.worst < ST_WARN)
		c.worst = ST_WARN;
	json_object_set_new(o, "status", json_string(status_names[c.worst]));
	json_decref(c.pitfalls);
	free(p);
	free(wv);
	return o;
}
