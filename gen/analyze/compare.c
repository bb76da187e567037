/*
 * compare.c - the comparison of two results documents (see compare.h).
 * Everything the outputs show is decided here, once; the renderers only
 * format this document and never look at the runs again.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "ingest/targets.h"
#include "analyze/stats.h"
#include "base/buf.h"
#include "base/jsonx.h"
#include "base/num.h"
#include "base/utf8.h"
#include "base/util.h"

/* ------------------------------------------------------------ metrics */

enum per { PER_ANY, PER_REQUEST, PER_MB };

struct metric {
	const char *name;	/* "metric" of a row */
	const char *unit;
	const char *label;	/* table heading */
	const char *key;	/* dotted path in a measurement or route window */
	enum per per;		/* route metrics: which routes have it */
	int energy;		/* compares energy (machine warning) */
};

static const struct metric head_metrics[] = {
	{ "mj_per_req", "mJ/req", "energy per request", "headline_mj_per_req", PER_ANY, 1 },
	{ "rps", "req/s", "throughput", "headline_rps", PER_ANY, 0 },
	{ "watts", "W", "mean power", "headline_watts", PER_ANY, 1 },
};

static const struct metric route_metrics[] = {
	{ "mj_per_req", "mJ/req", "energy per request", "mj_per_req", PER_REQUEST, 1 },
	{ "mj_per_mb", "mJ/MB", "energy per MB", "mj_per_mb", PER_MB, 1 },
	{ "rps", "req/s", "throughput", "rps", PER_ANY, 0 },
	{ "watts", "W", "mean power", "mean_watts", PER_ANY, 1 },
	{ "latency_mean_us", "\xc2\xb5s", "latency mean", "load.latency_mean_us", PER_ANY, 0 },
	{ "latency_p50_us", "\xc2\xb5s", "latency p50", "load.latency_pct_us.p50", PER_ANY, 0 },
	{ "latency_p99_us", "\xc2\xb5s", "latency p99", "load.latency_pct_us.p99", PER_ANY, 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *
compare_metric_label(const char *name, int headline)
{
	const struct metric *m = headline ? head_metrics : route_metrics;
	size_t i, n = headline ? NELEM(head_metrics) : NELEM(route_metrics);

	for (i = 0; name && i < n; i++)
		if (!strcmp(m[i].name, name))
			return m[i].label;
	return NULL;
}

/* ------------------------------------------------- one side's layout */

struct troute {
	const char *name;
	const char *per;	/* "request", "MB" or NULL */
};

struct tgt {
	const char *name;	/* as this side spells it */
	char *key;		/* owned: what the sides are matched by (targets.h) */
	struct troute *r;
	size_t nr, ar;
};

struct side {
	json_t *res;
	const struct target_aliases *ta;	/* the archive's, or NULL */
	const json_t *aliases;			/* the run's own */
	struct tgt *t;
	size_t nt, at;
};

static void
side_init(struct side *s, json_t *res, const struct target_aliases *ta)
{
	memset(s, 0, sizeof(*s));
	s->res = res;
	s->ta = ta;
	s->aliases = json_object_get(res, "aliases");
}

/* The key of a target name of side s, owned by the caller. */
static char *
side_key(const struct side *s, const char *name)
{
	struct buf b = BUF_INIT;

	target_key(s->ta, s->aliases, name, &b);
	return buf_detach(&b, NULL);
}

static struct tgt *
find_tgt(const struct side *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nt; i++)
		if (!strcmp(s->t[i].key, key))
			return &s->t[i];
	return NULL;
}

/* The target of key (owned from now on), named name when it is new. */
static struct tgt *
add_tgt(struct side *s, const char *name, char *key)
{
	struct tgt *t = find_tgt(s, key);

	if (t) {
		free(key);
		return t;
	}
	ALLOC_GROW(s->t, s->nt + 1, s->at);
	t = &s->t[s->nt++];
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->key = key;
	return t;
}

static const struct troute *
find_route(const struct tgt *t, const char *name)
{
	size_t i;

	for (i = 0; t && i < t->nr; i++)
		if (!strcmp(t->r[i].name, name))
			return &t->r[i];
	return NULL;
}

/* Targets in the order of "targets", then any others in "measurements";
 * routes in order of first appearance in the measurements. */
static void
side_scan(struct side *s, json_t *res, const struct target_aliases *ta)
{
	json_t *arr, *m, *ro;
	size_t i, j;

	side_init(s, res, ta);
	arr = json_object_get(res, "targets");
	for (i = 0; i < json_array_size(arr); i++) {
		const char *name = jx_path_str(json_array_get(arr, i), "name");

		if (name)
			add_tgt(s, name, side_key(s, name));
	}
	arr = json_object_get(res, "measurements");
	for (i = 0; i < json_array_size(arr); i++) {
		const char *name = jx_path_str(m = json_array_get(arr, i), "target");
		struct tgt *t;
		json_t *routes = json_object_get(m, "routes");

		if (!name)
			continue;
		t = add_tgt(s, name, side_key(s, name));
		for (j = 0; j < json_array_size(routes); j++) {
			const char *rn = jx_path_str(ro = json_array_get(routes, j), "name");

			if (!rn || find_route(t, rn))
				continue;
			ALLOC_GROW(t->r, t->nr + 1, t->ar);
			t->r[t->nr].name = rn;
			t->r[t->nr].per = jx_path_str(ro, "per");
			t->nr++;
		}
	}
}

static void
side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nt; i++) {
		free(s->t[i].r);
		free(s->t[i].key);
	}
	free(s->t);
}

static size_t
side_rounds(const struct side *s)
{
	json_t *arr = json_object_get(s->res, "measurements");
	double *r = xcalloc(json_array_size(arr) + 1, sizeof(*r));
	size_t i, j, n = 0;

	for (i = 0; i < json_array_size(arr); i++) {
		json_t *v = json_object_get(json_array_get(arr, i), "round");

		if (!json_is_number(v))
			continue;
		for (j = 0; j < n && r[j] != json_number_value(v); j++)
			;
		if (j == n)
			r[n++] = json_number_value(v);
	}
	free(r);
	return n;
}

struct rv {
	double round;
	size_t idx;
	double v;
};

static int
cmp_rv(const void *pa, const void *pb)
{
	const struct rv *a = pa, *b = pb;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
per_matches(enum per want, const char *per)
{
	if (want == PER_ANY)
		return 1;
	if (!per)
		return 0;
	return want == PER_REQUEST ? !strcmp(per, "request") : !strcmp(per, "MB");
}

/*
 * Per-round values of metric m for target (and route, NULL for the
 * headline), in round order; nulls are skipped.  *out is malloc'ed.
 */
static size_t
side_values(const struct side *s, const struct tgt *target, const char *route,
	    const struct metric *m, double **out)
{
	json_t *arr = json_object_get(s->res, "measurements");
	struct rv *rv = xcalloc(json_array_size(arr) + 1, sizeof(*rv));
	struct buf key = BUF_INIT;
	size_t i, j, n = 0;

	for (i = 0; i < json_array_size(arr); i++) {
		json_t *ms = json_array_get(arr, i), *src = NULL, *v, *rd;
		const char *t = jx_path_str(ms, "target");

		if (!t)
			continue;
		if (strcmp(t, target->name)) {
			target_key(s->ta, s->aliases, t, &key);
			if (strcmp(key.ptr, target->key))
				continue;
		}
		if (!route) {
			src = ms;
		} else {
			json_t *routes = json_object_get(ms, "routes");

			for (j = 0; j < json_array_size(routes) && !src; j++) {
				json_t *ro = json_array_get(routes, j);
				const char *rn = jx_path_str(ro, "name");

				if (rn && !strcmp(rn, route) &&
				    per_matches(m->per, jx_path_str(ro, "per")))
					src = ro;
			}
		}
		v = src ? jx_path(src, m->key) : NULL;
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			continue;
		rd = json_object_get(ms, "round");
		rv[n].round = json_is_number(rd) ? json_number_value(rd) : 0;
		rv[n].idx = i;
		rv[n].v = json_number_value(v);
		n++;
	}
	qsort(rv, n, sizeof(*rv), cmp_rv);
	*out = xcalloc(n + 1, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = rv[i].v;
	free(rv);
	buf_release(&key);
	return n;
}

/* ------------------------------------------------------- computation */

/* A JSON string of s, which may come from the command line: invalid
 * UTF-8 (which jansson refuses) and controls become '?'; NULL -> null. */
static json_t *
jstr(const char *s)
{
	struct buf b = BUF_INIT;
	json_t *v;

	if (!s)
		return json_null();
	if ((v = json_string(s)))
		return v;
	utf8_term(&b, s);
	v = json_string(b.ptr);
	buf_release(&b);
	return v;
}

struct ctx {
	struct side a, b;
	int same;
	int sum_a, sum_b;	/* A, B is a summary run (one value per cell) */
	int tri_a, tri_b;	/* A, B is a trials run (repetitions per cell) */
	json_t *rows, *geomeans, *notes, *warnings;
	json_t *only_a, *only_b, *not_comparable;
	int energy_rows;
};

static void
add_note(json_t *notes, const char *s)
{
	size_t i;

	for (i = 0; i < json_array_size(notes); i++)
		if (!strcmp(json_string_value(json_array_get(notes, i)), s))
			return;
	json_array_append_new(notes, jstr(s));
}

static json_t *
sample_json(const double *v, size_t n)
{
	json_t *o = json_object(), *vals = json_array();
	size_t i;

	json_object_set_new(o, "mean", jx_real(stats_mean(v, n)));
	json_object_set_new(o, "sd", jx_real(n >= 2 ? stats_sd(v, n) : NAN));
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	for (i = 0; i < n; i++)
		json_array_append_new(vals, json_real(v[i]));
	json_object_set_new(o, "values", vals);
	return o;
}

static json_t *
make_row(struct ctx *c, const struct metric *m, const char *target,
	 const char *route, const double *a, size_t na, const double *b,
	 size_t nb)
{
	json_t *row = json_object(), *ci = json_array();
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	double delta = NAN, lo = NAN, hi = NAN, p, minp;
	char verdict[64];

	json_object_set_new(row, "metric", json_string(m->name));
	json_object_set_new(row, "unit", json_string(m->unit));
	json_object_set_new(row, "target", json_string(target));
	json_object_set_new(row, "route", jx_string(route));
	json_object_set_new(row, "a", sample_json(a, na));
	json_object_set_new(row, "b", sample_json(b, nb));
	if (ma != 0 && isfinite(ma) && isfinite(mb))
		delta = (mb / ma - 1) * 100;
	minp = stats_mw_min_p(na, nb);
	if (c->same) {
		/* Same data: the ratio is exactly 1, no resampling needed. */
		delta = 0;
		lo = hi = 1;
		p = 1;
		snprintf(verdict, sizeof(verdict), "~");
	} else {
		if (stats_bootstrap_ratio(a, na, b, nb, COMPARE_RESAMPLES, COMPARE_SEED, &lo, &hi))
			lo = hi = NAN;
		p = stats_mann_whitney(a, na, b, nb, NULL);
		if (minp > COMPARE_ALPHA) {
			char note[256], sp[32];

			snprintf(sp, sizeof(sp), "%.2g", minp);
			snprintf(note, sizeof(note),
				 "with %zu vs %zu rounds no difference can reach significance at "
				 "%.2g: the smallest exact p for %zu vs %zu is %s (verdict '?')",
				 na, nb, COMPARE_ALPHA, na, nb, sp);
			add_note(c->notes, note);
			snprintf(verdict, sizeof(verdict), "?");
		} else if (!(p <= COMPARE_ALPHA)) {
			snprintf(verdict, sizeof(verdict), "~");
		} else if (isnan(delta)) {
			snprintf(verdict, sizeof(verdict), "?");
		} else if (delta == 0) {
			snprintf(verdict, sizeof(verdict), "0.00%%");
		} else {
			snprintf(verdict, sizeof(verdict), "%+.2f%%", delta);
		}
	}
	json_object_set_new(row, "delta_pct", jx_real(delta));
	json_array_append_new(ci, jx_real(lo));
	json_array_append_new(ci, jx_real(hi));
	json_object_set_new(row, "ratio_ci95", ci);
	json_object_set_new(row, "p", jx_real(p));
	json_object_set_new(row, "verdict", json_string(verdict));
	if (m->energy)
		c->energy_rows++;
	return row;
}

/* One table: metric m over every target in both (route NULL: headline). */
static void
table(struct ctx *c, const struct metric *m, const char *route)
{
	size_t i, na, nb, nrows = 0, ngeo = 0;
	double *ga = xcalloc(c->a.nt + 1, sizeof(*ga));
	double *gb = xcalloc(c->a.nt + 1, sizeof(*gb));
	json_t *geo;
	double xa, xb;

	for (i = 0; i < c->a.nt; i++) {
		const struct tgt *ta = &c->a.t[i], *tb = find_tgt(&c->b, ta->key);
		double *a, *b;

		if (!tb)
			continue;
		if (route && (!find_route(ta, route) || !find_route(tb, route)))
			continue;
		na = side_values(&c->a, ta, route, m, &a);
		nb = side_values(&c->b, tb, route, m, &b);
		if (na && nb) {
			json_array_append_new(c->rows, make_row(c, m, ta->name, route, a, na, b, nb));
			nrows++;
			xa = stats_mean(a, na);
			xb = stats_mean(b, nb);
			if (xa > 0 && xb > 0) {
				ga[ngeo] = xa;
				gb[ngeo] = xb;
				ngeo++;
			}
		} else if (na || nb) {
			struct buf s = BUF_INIT;

			if (route)
				buf_addf(&s, "%s of route '%s' of '%s'", m->label, route, ta->name);
			else
				buf_addf(&s, "headline %s of '%s'", m->label, ta->name);
			buf_addf(&s, ": values only in %s, not compared", na ? "A" : "B");
			add_note(c->notes, s.ptr);
			buf_release(&s);
		}
		free(a);
		free(b);
	}
	if (nrows) {
		geo = json_object();
		json_object_set_new(geo, "metric", json_string(m->name));
		json_object_set_new(geo, "unit", json_string(m->unit));
		json_object_set_new(geo, "route", jx_string(route));
		json_object_set_new(geo, "targets", json_integer((json_int_t)ngeo));
		xa = ngeo == nrows ? stats_geomean(ga, ngeo) : NAN;
		xb = ngeo == nrows ? stats_geomean(gb, ngeo) : NAN;
		json_object_set_new(geo, "a", jx_real(xa));
		json_object_set_new(geo, "b", jx_real(xb));
		json_object_set_new(geo, "delta_pct",
				    jx_real(!isfinite(xa) || !isfinite(xb) ? NAN :
					    c->same ? 0 : (xb / xa - 1) * 100));
		json_array_append_new(c->geomeans, geo);
	}
	free(ga);
	free(gb);
}

/* Route names over all targets of A, in order, then those only in B. */
static void
route_union(const struct side *s, const char ***names, size_t *n, size_t *alloc)
{
	size_t i, j, k;

	for (i = 0; i < s->nt; i++)
		for (j = 0; j < s->t[i].nr; j++) {
			for (k = 0; k < *n && strcmp((*names)[k], s->t[i].r[j].name); k++)
				;
			if (k < *n)
				continue;
			ALLOC_GROW(*names, *n + 1, *alloc);
			(*names)[(*n)++] = s->t[i].r[j].name;
		}
}

static void
only_in(struct ctx *c, const struct side *x, const struct side *y, json_t *out)
{
	json_t *targets = json_array(), *routes = json_array();
	size_t i, j;

	for (i = 0; i < x->nt; i++) {
		const struct tgt *ty = find_tgt(y, x->t[i].key);

		if (!ty) {
			json_array_append_new(targets, json_string(x->t[i].name));
			continue;
		}
		for (j = 0; j < x->t[i].nr; j++) {
			const struct troute *rx = &x->t[i].r[j], *ry = find_route(ty, rx->name);
			json_t *o;

			if (ry) {
				if (x == &c->a && rx->per && ry->per && strcmp(rx->per, ry->per)) {
					struct buf s = BUF_INIT;

					buf_addf(&s, "route '%s' of '%s' is per %s in A but per %s in B: "
						 "its energy is not compared", rx->name, x->t[i].name,
						 rx->per, ry->per);
					add_note(c->notes, s.ptr);
					buf_release(&s);
				}
				continue;
			}
			o = json_object();
			json_object_set_new(o, "target", json_string(x->t[i].name));
			json_object_set_new(o, "route", json_string(rx->name));
			json_array_append_new(routes, o);
		}
	}
	json_object_set_new(out, "targets", targets);
	json_object_set_new(out, "routes", routes);
}

/* ------------------------------------------------------- environment */

/* Flatten v into out as "prefix.key" -> copy of scalar or array. */
static void
flatten(json_t *v, const char *prefix, json_t *out, const char *const *skip)
{
	const char *key;
	json_t *sub;
	size_t i;

	if (!json_is_object(v)) {
		if (v)
			json_object_set_new(out, prefix, json_deep_copy(v));
		return;
	}
	json_object_foreach(v, key, sub) {
		struct buf p = BUF_INIT;

		for (i = 0; skip && skip[i] && strcmp(skip[i], key); i++)
			;
		if (skip && skip[i])
			continue;
		buf_addf(&p, "%s.%s", prefix, key);
		flatten(sub, p.ptr, out, NULL);
		buf_release(&p);
	}
}

static int
env_equal(json_t *x, json_t *y)
{
	if (json_is_number(x) && json_is_number(y))
		return json_number_value(x) == json_number_value(y);
	return json_equal(x, y);
}

struct envsrc {
	const char *group;
	const char *path;	/* in the results document */
	const char *field;	/* shown name */
};

static const struct envsrc env_sources[] = {
	{ "machine", "machine", "machine" },
	{ "software", "software", "software" },
	{ "load settings", "conditions.load", "conditions.load" },
	{ "load settings", "conditions.session_start", "conditions.session_start" },
	/* what the load files themselves say they ran: the same run
	 * configured twice can still have been driven differently */
	{ "load settings", "load files", "load files" },
	{ "room temperature", "conditions.room_temp_c", "conditions.room_temp_c" },
	{ "energy source", "energy_source", "energy_source" },
	{ "energy source", "conditions.power", "conditions.power" },
	{ "rounds", "rounds", "rounds" },
	{ "rounds", "conditions.methodology", "conditions.methodology" },
	/* trials runs only: the configuration their run.json describes */
	{ "conditions", "conditions", "conditions" },
};

/*
 * The settings every load file of a run gives, over its windows: one
 * value when the windows agree, else "lo-hi" (numbers) or the distinct
 * values joined (text).  Nothing for a run without load files.
 */
static json_t *
load_files_flat(json_t *res)
{
	static const char *const keys[] = { "tool", "connections", "threads", "duration_s",
					    "rate" };
	json_t *out = json_object(), *m, *r, *v;
	size_t i, j, k;

	for (k = 0; k < NELEM(keys); k++) {
		double lo = INFINITY, hi = -INFINITY;
		json_t *texts = json_array();
		struct buf b = BUF_INIT, f = BUF_INIT;

		json_array_foreach(json_object_get(res, "measurements"), i, m)
			json_array_foreach(json_object_get(m, "routes"), j, r) {
				v = jx_path(r, "load");
				v = json_is_object(v) ? json_object_get(v, keys[k]) : NULL;
				if (json_is_number(v)) {
					double x = json_number_value(v);

					lo = x < lo ? x : lo;
					hi = x > hi ? x : hi;
				} else if (json_is_string(v)) {
					size_t t;
					json_t *s;

					json_array_foreach(texts, t, s)
						if (json_equal(s, v))
							break;
					if (t == json_array_size(texts))
						json_array_append(texts, v);
				}
			}
		buf_addf(&f, "load files.%s", keys[k]);
		if (json_array_size(texts)) {
			json_array_foreach(texts, i, v)
				buf_addf(&b, "%s%s", i ? ", " : "", json_string_value(v));
			json_object_set_new(out, f.ptr, json_string(b.ptr));
		} else if (lo == hi) {
			json_object_set_new(out, f.ptr, lo == floor(lo) && fabs(lo) < 9007199254740992.0 ?
					    json_integer((json_int_t)lo) : json_real(lo));
		} else if (lo < hi) {
			char x[NUM_TEXT_LEN], y[NUM_TEXT_LEN];

			buf_addf(&b, "%s-%s", num_text(x, lo), num_text(y, hi));
			json_object_set_new(out, f.ptr, json_string(b.ptr));
		}
		json_decref(texts);
		buf_release(&b);
		buf_release(&f);
	}
	return out;
}

/*
 * One group of fields of a side, flattened.  A summary run has no rounds
 * (the field is absent, not 0), and its run.json names the room
 * temperature conditions.room_temperature_c: it is shown as the
 * session's conditions.room_temp_c so that equal temperatures are no
 * difference.
 */
static json_t *
env_flat(json_t *res, const struct envsrc *e, size_t rounds, int summary)
{
	static const char *const skip_start[] = { "ts", "event", NULL };
	/* compared in the groups above */
	static const char *const skip_cond[] = { "load", "session_start", "room_temp_c",
						 "room_temperature_c", "power", "methodology",
						 NULL };
	json_t *out = json_object(), *v;

	if (!strcmp(e->path, "load files")) {
		json_decref(out);
		return load_files_flat(res);
	} else if (!strcmp(e->path, "rounds")) {
		if (!summary)
			json_object_set_new(out, "rounds", json_integer((json_int_t)rounds));
	} else if (summary && !strcmp(e->path, "conditions.room_temp_c") &&
		   !jx_path(res, e->path) &&
		   (v = jx_path(res, "conditions.room_temperature_c"))) {
		flatten(v, e->field, out, NULL);
	} else if (!strcmp(e->path, "conditions")) {
		flatten(jx_path(res, e->path), e->field, out, skip_cond);
	} else {
		flatten(jx_path(res, e->path), e->field, out,
			!strcmp(e->path, "conditions.session_start") ? skip_start : NULL);
	}
	return out;
}

static json_t *
environment(struct ctx *c, size_t rounds_a, size_t rounds_b, int *machines_differ)
{
	static const char *const ident[] = { "machine.id", "machine.model", "machine.chip",
					     "machine.memoryBytes" };
	json_t *env = json_object(), *groups = json_array(), *diffs = json_array();
	size_t i, k;

	*machines_differ = 0;
	for (i = 0; i < NELEM(env_sources); i++) {
		const struct envsrc *e = &env_sources[i];
		json_t *keys, *va, *vb, *fa, *fb;
		const char *key;
		json_t *tmp;

		if (!strcmp(e->path, "conditions") && !c->tri_a && !c->tri_b)
			continue;
		fa = env_flat(c->a.res, e, rounds_a, c->sum_a);
		fb = env_flat(c->b.res, e, rounds_b, c->sum_b);
		keys = json_array();

		if (!i || strcmp(env_sources[i - 1].group, e->group))
			json_array_append_new(groups, json_string(e->group));
		json_object_foreach(fa, key, tmp)
			json_array_append_new(keys, json_string(key));
		json_object_foreach(fb, key, tmp)
			if (!json_object_get(fa, key))
				json_array_append_new(keys, json_string(key));
		for (k = 0; k < json_array_size(keys); k++) {
			json_t *d;
			size_t j;

			key = json_string_value(json_array_get(keys, k));
			va = json_object_get(fa, key);
			vb = json_object_get(fb, key);
			if (va && vb && env_equal(va, vb))
				continue;
			d = json_object();
			json_object_set_new(d, "group", json_string(e->group));
			json_object_set_new(d, "field", json_string(key));
			json_object_set_new(d, "a", va ? json_deep_copy(va) : json_null());
			json_object_set_new(d, "b", vb ? json_deep_copy(vb) : json_null());
			json_array_append_new(diffs, d);
			/* A summary run's run.json describes its machine in fewer
			 * fields (memory as text, no memoryBytes): a field it lacks
			 * says nothing about whether the machines differ. */
			if ((c->sum_a || c->sum_b || c->tri_a || c->tri_b) && !(va && vb))
				continue;
			for (j = 0; j < NELEM(ident); j++)
				if (!strcmp(key, ident[j]))
					*machines_differ = 1;
		}
		json_decref(keys);
		json_decref(fa);
		json_decref(fb);
	}
	json_object_set_new(env, "compared", groups);
	json_object_set_new(env, "differences", diffs);
	json_object_set_new(env, "machines_differ", json_boolean(*machines_differ));
	return env;
}

/* "Apple M5 (Mac17,3), 24 GiB, macOS 26.6.2 (25G83)", or "unknown". */
static json_t *
machine_summary(json_t *res)
{
	json_t *m = json_object_get(res, "machine");
	const char *chip = jx_path_str(m, "chip"), *model = jx_path_str(m, "model");
	const char *os = jx_path_str(m, "os");
	struct buf s = BUF_INIT;
	double mem;
	json_t *out;

	if (chip)
		buf_addstr(&s, chip);
	if (model)
		buf_addf(&s, chip ? " (%s)" : "%s", model);
	if (jx_num(m, "memoryBytes", &mem) > 0 && mem > 0) {
		double gib = mem / 1073741824.0;

		buf_addf(&s, s.len ? ", " : "");
		if (gib == floor(gib))
			buf_addf(&s, "%.0f GiB", gib);
		else
			buf_addf(&s, "%.1f GiB", gib);
	} else if (jx_path_str(m, "memory")) {
		/* summary runs: memory as their run.json gives it ("24 GB") */
		buf_addf(&s, "%s%s", s.len ? ", " : "", jx_path_str(m, "memory"));
	}
	if (os)
		buf_addf(&s, "%s%s", s.len ? ", " : "", os);
	out = json_string(s.len ? s.ptr : "unknown machine");
	buf_release(&s);
	return out;
}

/* "rounds" is null for a summary run, which has none. */
static json_t *
side_json(json_t *res, const char *id, const char *dir, size_t rounds, int summary)
{
	json_t *o = json_object(), *v;

	json_object_set_new(o, "run", jstr(id));
	json_object_set_new(o, "dir", jstr(dir));
	v = json_object_get(res, "kind");
	json_object_set_new(o, "kind", json_is_string(v) ? json_deep_copy(v) : json_null());
	v = json_object_get(res, "title");
	json_object_set_new(o, "title", json_is_string(v) ? json_deep_copy(v) : json_null());
	v = json_object_get(res, "captured_at");
	json_object_set_new(o, "captured_at", json_is_string(v) ? json_deep_copy(v) : json_null());
	json_object_set_new(o, "machine", machine_summary(res));
	json_object_set_new(o, "rounds",
			    summary ? json_null() : json_integer((json_int_t)rounds));
	return o;
}

static json_t *
method_json(void)
{
	json_t *o = json_object(), *ci = json_object();

	json_object_set_new(o, "alpha", json_real(COMPARE_ALPHA));
	json_object_set_new(o, "summary", json_string("mean and sample SD (n - 1) over rounds"));
	json_object_set_new(o, "delta", json_string("(mean B / mean A - 1) * 100"));
	json_object_set_new(ci, "level", json_real(0.95));
	json_object_set_new(ci, "method",
			    json_string("percentile bootstrap of mean B / mean A, "
					"rounds resampled independently on each side"));
	json_object_set_new(ci, "resamples", json_integer(COMPARE_RESAMPLES));
	json_object_set_new(ci, "seed", json_integer(COMPARE_SEED));
	json_object_set_new(o, "ratio_ci", ci);
	json_object_set_new(o, "test",
			    json_string("Mann-Whitney U over per-round values, two-sided, exact "
					"(ties: up to 25 rounds a side; else 50), else normal "
					"approximation"));
	return o;
}

/* ------------------------------------ one value per cell: summary runs */

/*
 * A summary run holds figures as published: one value per table cell and
 * no rounds, so nothing can be tested against it.  Each side becomes a
 * list of cells, matched by (quantity, target, route, x value); a pair
 * gives the plain difference and the ratio, never a p or a CI.  A summary
 * side's cells come from its tables, not from the derived "targets", so
 * that every numeric column, sweeps over an x column and rows keyed by
 * something other than a target take part; an energy session's come from
 * its per-round measurements, as table() reads them.
 */

struct cell {
	const char *qty;	/* what cells are matched by */
	const char *metric;	/* the name on its side: column or metric */
	const char *label, *unit;
	int energy;
	char *target;		/* owned; "" when the table names none */
	char *tkey;		/* owned: target as matched (targets.h), qualifiers as they are */
	char *route;		/* owned; NULL: headline */
	const char *xcol, *xlabel, *xunit;	/* a sweep's x column, or NULL */
	double x;
	const char *table;	/* summary: the table's file */
	double *v;		/* owned: per-round values, or the one published value */
	size_t n;
	double sd;		/* published with the value (summary), else NAN */
	const char *text;	/* the value's published text (summary), or NULL */
	int published, dup, used;
	size_t idx;		/* order of appearance */
};

struct cells {
	struct cell *c;
	size_t n, alloc;
};

/* A number of a key cell or a note as its source wrote it, as far as a
 * double can tell (base/num.h: the shortest text that reads back). */
static void
key_num(struct buf *b, double v)
{
	char t[NUM_TEXT_LEN];

	buf_addstr(b, isfinite(v) ? num_text(t, v) : "n/a");
}

static int
strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b ? 0 : !a ? -1 : 1;
	return strcmp(a, b);
}

static int
is_summary(json_t *res)
{
	const char *k = jx_path_str(res, "kind");

	return k && !strcmp(k, "summary");
}

/*
 * The latency percentiles are one quantity whatever their unit: p50_ms in
 * a summary table, latency_p50_us in an energy session.  They meet under
 * one name, so the unit check lists them as not comparable instead of
 * as two unrelated metrics.
 */
static const char *
qty_of(const char *name)
{
	static const char *const alias[][2] = {
		{ "p50_ms", "latency_p50" },	{ "latency_p50_us", "latency_p50" },
		{ "p99_ms", "latency_p99" },	{ "latency_p99_us", "latency_p99" },
		{ "latency_mean_us", "latency_mean" },
	};
	size_t i;

	for (i = 0; i < NELEM(alias); i++)
		if (!strcmp(name, alias[i][0]))
			return alias[i][1];
	return name;
}

/* Energy or power: the machine warning applies. */
static int
energy_unit(const char *name, const char *unit)
{
	static const char *const u[] = { "J", "mJ", "kJ", "\xc2\xb5J", "W", "mW", "kW" };
	size_t i, n;

	if (!strcmp(name, "mj_per_req") || !strcmp(name, "mj_per_mb") || !strcmp(name, "watts"))
		return 1;
	for (i = 0; i < NELEM(u); i++) {
		n = strlen(u[i]);
		if (!strncmp(unit, u[i], n) && (!unit[n] || unit[n] == '/' || unit[n] == ' '))
			return 1;
	}
	return 0;
}

static struct cell *
cell_add(struct cells *cs)
{
	struct cell *x;

	ALLOC_GROW(cs->c, cs->n + 1, cs->alloc);
	x = &cs->c[cs->n];
	memset(x, 0, sizeof(*x));
	x->sd = NAN;
	x->idx = cs->n++;
	return x;
}

static void
cells_free(struct cells *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		free(cs->c[i].target);
		free(cs->c[i].tkey);
		free(cs->c[i].route);
		free(cs->c[i].v);
	}
	free(cs->c);
}

static void
session_cell(const struct side *s, struct cells *cs, const struct metric *m,
	     const struct tgt *t, const char *route)
{
	double *v;
	size_t n = side_values(s, t, route, m, &v);
	struct cell *x;

	if (!n) {
		free(v);
		return;
	}
	x = cell_add(cs);
	x->qty = qty_of(m->name);
	x->metric = m->name;
	x->label = m->label;
	x->unit = m->unit;
	x->energy = m->energy;
	x->target = xstrdup(t->name);
	x->tkey = xstrdup(t->key);
	x->route = route ? xstrdup(route) : NULL;
	x->v = v;
	x->n = n;
}

/* An energy session's cells, in the order of its own tables. */
static void
session_cells(const struct side *s, struct cells *cs)
{
	const char **routes = NULL;
	size_t nroutes = 0, aroutes = 0, i, k, t;

	for (i = 0; i < NELEM(head_metrics); i++)
		for (t = 0; t < s->nt; t++)
			session_cell(s, cs, &head_metrics[i], &s->t[t], NULL);
	route_union(s, &routes, &nroutes, &aroutes);
	for (k = 0; k < nroutes; k++)
		for (i = 0; i < NELEM(route_metrics); i++)
			for (t = 0; t < s->nt; t++)
				if (find_route(&s->t[t], routes[k]))
					session_cell(s, cs, &route_metrics[i], &s->t[t], routes[k]);
	free(routes);
}

/* A key cell as text: a string as it is, a number written shortest. */
static void
key_text(struct buf *b, json_t *v)
{
	if (json_is_string(v))
		buf_addstr(b, json_string_value(v));
	else if (json_is_number(v))
		key_num(b, json_number_value(v));
}

static int
col_of(json_t *cols, const char *name)
{
	size_t i;

	for (i = 0; i < json_array_size(cols); i++) {
		const char *n = jx_path_str(json_array_get(cols, i), "name");

		if (n && !strcmp(n, name))
			return (int)i;
	}
	return -1;
}

/* A column that identifies or describes a row rather than measuring it. */
static int
is_keyish(json_t *col)
{
	const char *r = jx_path_str(col, "role");

	return r && (!strcmp(r, "key") || !strcmp(r, "text"));
}

/* Which columns of a table make a cell's identity (-1: none). */
struct tcols {
	int target, route, x, subject, sd;
	int qualify;	/* other key columns are needed to tell rows apart */
};

/*
 * The row's label: its target; in a table without one, "column: value"
 * of its first other key or text column (a phase, a list of frameworks);
 * "" when there is none.  With qualify, every other key or text column
 * is appended ("hono [runtime: deno]").
 */
static char *
row_label(json_t *cols, json_t *row, const struct tcols *k, int qualify, const struct side *s,
	  char **key)
{
	struct buf b = BUF_INIT;
	size_t j, start = 0, nkey = 0;
	int first = 1;

	if (k->subject >= 0 && !json_is_null(json_array_get(row, (size_t)k->subject))) {
		if (k->subject != k->target)
			buf_addf(&b, "%s: ", jx_path_str(json_array_get(cols, (size_t)k->subject),
							 "name"));
		key_text(&b, json_array_get(row, (size_t)k->subject));
		/* a target name is matched by its key (targets.h) */
		if (k->subject == k->target) {
			struct buf t = BUF_INIT;

			target_key(s ? s->ta : NULL, s ? s->aliases : NULL, b.ptr, &t);
			if (key) {
				*key = buf_detach(&t, NULL);
				nkey = 1;
			}
			buf_release(&t);
			start = b.len;
		}
	}
	for (j = 0; qualify && j < json_array_size(cols); j++) {
		json_t *v = json_array_get(row, j);
		int jj = (int)j;

		if (jj == k->subject || jj == k->target || jj == k->route || jj == k->x ||
		    !is_keyish(json_array_get(cols, j)) || json_is_null(v))
			continue;
		buf_addstr(&b, first ? (b.len ? " [" : "[") : ", ");
		buf_addf(&b, "%s: ", jx_path_str(json_array_get(cols, j), "name"));
		key_text(&b, v);
		first = 0;
	}
	if (!first)
		buf_addch(&b, ']');
	if (key && nkey) {
		struct buf t = BUF_INIT;

		buf_addstr(&t, *key);
		buf_add(&t, b.ptr + start, b.len - start);
		free(*key);
		*key = buf_detach(&t, NULL);
	} else if (key) {
		*key = xstrdup(b.ptr);
	}
	return buf_detach(&b, NULL);
}

struct rowkey {
	char *label, *route;
	int has_x;
	double x;
};

static int
cmp_rowkey(const void *pa, const void *pb)
{
	const struct rowkey *a = pa, *b = pb;
	int r;

	if ((r = strcmp(a->label, b->label)) || (r = strcmp_null(a->route, b->route)))
		return r;
	if (a->has_x != b->has_x)
		return a->has_x - b->has_x;
	return !a->has_x || a->x == b->x ? 0 : a->x < b->x ? -1 : 1;
}

/* Do the label, route and x of each row tell the rows apart? */
static int
rows_unique(json_t *cols, json_t *rows, const struct tcols *k)
{
	size_t n = json_array_size(rows), i;
	struct rowkey *key = xcalloc(n + 1, sizeof(*key));
	int unique = 1;

	for (i = 0; i < n; i++) {
		json_t *row = json_array_get(rows, i);

		key[i].label = row_label(cols, row, k, 0, NULL, NULL);
		if (k->route >= 0 && !json_is_null(json_array_get(row, (size_t)k->route))) {
			struct buf b = BUF_INIT;

			key_text(&b, json_array_get(row, (size_t)k->route));
			key[i].route = buf_detach(&b, NULL);
		}
		if (k->x >= 0 && json_is_number(json_array_get(row, (size_t)k->x))) {
			key[i].has_x = 1;
			key[i].x = json_number_value(json_array_get(row, (size_t)k->x));
		}
	}
	if (n > 1)
		qsort(key, n, sizeof(*key), cmp_rowkey);
	for (i = 0; i + 1 < n; i++)
		if (!cmp_rowkey(&key[i], &key[i + 1]))
			unique = 0;
	for (i = 0; i < n; i++) {
		free(key[i].label);
		free(key[i].route);
	}
	free(key);
	return unique;
}

/* A string of a JSON object, or dflt. */
static const char *
str_or(json_t *o, const char *key, const char *dflt)
{
	const char *v = jx_path_str(o, key);

	return v ? v : dflt;
}

/* The cell of column j of row (a table t of columns cols), a number. */
static void
summary_cell(const struct side *s, struct cells *cs, json_t *t, json_t *cols, json_t *row,
	     json_t *prow, size_t j, const struct tcols *k)
{
	json_t *col = json_array_get(cols, j), *v = json_array_get(row, j), *sd;
	const char *name = jx_path_str(col, "name");
	struct cell *x = cell_add(cs);

	x->qty = qty_of(name);
	x->metric = name;
	x->label = str_or(col, "label", name);
	x->unit = str_or(col, "unit", "");
	x->energy = energy_unit(name, x->unit);
	x->target = row_label(cols, row, k, k->qualify, s, &x->tkey);
	if (k->route >= 0 && !json_is_null(json_array_get(row, (size_t)k->route))) {
		struct buf b = BUF_INIT;

		key_text(&b, json_array_get(row, (size_t)k->route));
		x->route = buf_detach(&b, NULL);
	}
	if (k->x >= 0 && json_is_number(json_array_get(row, (size_t)k->x))) {
		json_t *xc = json_array_get(cols, (size_t)k->x);

		x->xcol = jx_path_str(t, "x_column");
		x->xlabel = str_or(xc, "label", x->xcol);
		x->xunit = str_or(xc, "unit", "");
		x->x = json_number_value(json_array_get(row, (size_t)k->x));
	}
	x->table = jx_path_str(t, "file");
	x->v = xcalloc(1, sizeof(*x->v));
	x->v[0] = json_number_value(v);
	x->n = 1;
	x->text = json_string_value(json_array_get(prow, j));
	sd = k->sd >= 0 && !strcmp(name, "mj_per_req") ? json_array_get(row, (size_t)k->sd) : NULL;
	if (json_is_number(sd))
		x->sd = json_number_value(sd);
	x->published = 1;
}

/* A summary run's cells: every number of every measuring column. */
static void
summary_cells(const struct side *s, json_t *res, struct cells *cs)
{
	json_t *t;
	size_t ti;

	json_array_foreach(json_object_get(res, "tables"), ti, t) {
		json_t *cols = json_object_get(t, "columns"), *rows = json_object_get(t, "rows");
		const char *xname = jx_path_str(t, "x_column");
		struct tcols k;
		size_t j, r;

		k.target = col_of(cols, "target");
		k.route = col_of(cols, "route");
		k.x = xname ? col_of(cols, xname) : -1;
		k.subject = k.target;
		for (j = 0; k.subject < 0 && j < json_array_size(cols); j++)
			if ((int)j != k.route && (int)j != k.x &&
			    is_keyish(json_array_get(cols, j)))
				k.subject = (int)j;
		/* an SD column goes with its mean, as summary.c derives it */
		k.sd = col_of(cols, "mj_per_req") >= 0 ? col_of(cols, "mj_per_req_sd") : -1;
		k.qualify = !rows_unique(cols, rows, &k);
		for (j = 0; j < json_array_size(cols); j++) {
			json_t *col = json_array_get(cols, j), *row;
			const char *role = jx_path_str(col, "role");

			if ((int)j == k.sd || !jx_path_str(col, "name") || !role ||
			    strcmp(role, "metric") || !json_is_true(json_object_get(col, "numeric")))
				continue;
			json_array_foreach(rows, r, row) {
				json_t *v = json_array_get(row, j);

				if (json_is_number(v) && isfinite(json_number_value(v)))
					summary_cell(s, cs, t, cols, row,
						     json_array_get(json_object_get(t, "published"), r),
						     j, &k);
			}
		}
	}
}

static int
is_trials(json_t *res)
{
	const char *k = jx_path_str(res, "kind");

	return k && !strcmp(k, "trials");
}

static const char *
col_unit(json_t *cols, const char *name, const char **label)
{
	size_t i;

	for (i = 0; i < json_array_size(cols); i++) {
		json_t *c = json_array_get(cols, i);

		if (jx_path_str(c, "name") && !strcmp(jx_path_str(c, "name"), name)) {
			*label = str_or(c, "label", name);
			return str_or(c, "unit", "");
		}
	}
	*label = name;
	return "";
}

/*
 * A trials run's cells (analyze/trials.c): every metric of every cell,
 * with its values over the repetitions, tested like an energy session's
 * rounds.  The first x column is the cell's x; other key and x columns
 * qualify the target ("nginx [workers: 2]").
 */
static void
trials_cells(const struct side *s, json_t *res, struct cells *cs)
{
	json_t *t, *c;
	size_t ti, i, k;

	json_array_foreach(json_object_get(res, "trials"), ti, t) {
		json_t *cols = json_object_get(t, "columns"), *groups = json_object_get(t, "groups");
		const char *xname = json_string_value(json_array_get(json_object_get(t, "x_columns"), 0));
		json_array_foreach(json_object_get(t, "cells"), i, c) {
			json_t *g = json_array_get(groups, (size_t)json_integer_value(
				json_object_get(c, "group")));
			json_t *vals = json_object_get(c, "values"), *v;
			const char *name = jx_path_str(c, "metric"), *key;
			struct cell *x;
			struct buf b = BUF_INIT, kb = BUF_INIT;
			size_t start;
			int first = 1;

			if (!name || !json_array_size(vals) || !jx_path_str(g, "target"))
				continue;
			x = cell_add(cs);
			x->qty = qty_of(name);
			x->metric = name;
			x->label = str_or(c, "label", name);
			x->unit = str_or(c, "unit", "");
			x->energy = energy_unit(name, x->unit);
			buf_addstr(&b, jx_path_str(g, "target"));
			start = b.len;
			json_object_foreach(json_object_get(g, "keys"), key, v) {
				buf_addf(&b, "%s%s: %s", first ? " [" : ", ", key, json_string_value(v));
				first = 0;
			}
			json_object_foreach(json_object_get(g, "x"), key, v) {
				if (xname && !strcmp(key, xname))
					continue;
				buf_addf(&b, "%s%s: ", first ? " [" : ", ", key);
				key_num(&b, json_number_value(v));
				first = 0;
			}
			if (!first)
				buf_addch(&b, ']');
			target_key(s->ta, s->aliases, jx_path_str(g, "target"), &kb);
			buf_add(&kb, b.ptr + start, b.len - start);
			x->tkey = buf_detach(&kb, NULL);
			x->target = buf_detach(&b, NULL);
			x->route = jx_path_str(g, "route") ? xstrdup(jx_path_str(g, "route")) : NULL;
			if (xname && json_is_number(json_object_get(json_object_get(g, "x"), xname))) {
				x->xcol = xname;
				x->xunit = col_unit(cols, xname, &x->xlabel);
				x->x = json_number_value(json_object_get(json_object_get(g, "x"), xname));
			}
			x->table = jx_path_str(t, "file");
			x->v = xcalloc(json_array_size(vals) + 1, sizeof(double));
			json_array_foreach(vals, k, v)
				if (json_is_number(v))
					x->v[x->n++] = json_number_value(v);
		}
	}
}

/*
 * A sweep over several x columns is said, never left to the reader to
 * guess: cells match on every x (the others qualify the target), and the
 * rows and charts run along the first.
 */
static void
sweep_notes(json_t *notes, json_t *res)
{
	json_t *t, *x;
	size_t ti, i;

	json_array_foreach(json_object_get(res, "trials"), ti, t) {
		json_t *xs = json_object_get(t, "x_columns");
		struct buf s = BUF_INIT;

		if (json_array_size(xs) < 2)
			continue;
		buf_addf(&s, "'%s' sweeps ", str_or(t, "file", "trials"));
		json_array_foreach(xs, i, x)
			buf_addf(&s, "%s'%s'", i ? (i + 1 == json_array_size(xs) ? " and " : ", ") : "",
				 json_string_value(x));
		buf_addf(&s, ": cells are matched on every one; rows and charts run along '%s', "
			 "the others held and named with the target", json_string_value(
				 json_array_get(xs, 0)));
		add_note(notes, s.ptr);	/* once when both sides sweep alike */
		buf_release(&s);
	}
}

/* A summary side's targets and routes (for the only-in lists), from its cells. */
static void
side_from_cells(struct side *s, const struct cells *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		struct tgt *t = add_tgt(s, cs->c[i].target, xstrdup(cs->c[i].tkey));

		if (cs->c[i].route && !find_route(t, cs->c[i].route)) {
			ALLOC_GROW(t->r, t->nr + 1, t->ar);
			t->r[t->nr].name = cs->c[i].route;
			t->r[t->nr].per = NULL;
			t->nr++;
		}
	}
}

/* The identity of a cell: what is matched across the two sides. */
static int
cell_key_cmp(const struct cell *a, const struct cell *b)
{
	int r;

	if ((r = strcmp(a->qty, b->qty)) || (r = strcmp(a->tkey, b->tkey)) ||
	    (r = strcmp_null(a->route, b->route)) || (r = strcmp_null(a->xcol, b->xcol)))
		return r;
	if (a->xcol && a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return 0;
}

static int
cmp_cell_key(const void *pa, const void *pb)
{
	const struct cell *a = *(const struct cell *const *)pa;
	const struct cell *b = *(const struct cell *const *)pb;
	int r = cell_key_cmp(a, b);

	return r ? r : a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The table a row is shown in: quantity, route, x column and unit. */
static int
cmp_cell_group(const void *pa, const void *pb)
{
	const struct cell *a = *(const struct cell *const *)pa;
	const struct cell *b = *(const struct cell *const *)pb;
	int r;

	if ((r = strcmp(a->qty, b->qty)) || (r = strcmp_null(a->route, b->route)) ||
	    (r = strcmp_null(a->xcol, b->xcol)) || (r = strcmp(a->unit, b->unit)))
		return r;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
group_differs(const struct cell *a, const struct cell *b)
{
	return strcmp(a->qty, b->qty) || strcmp_null(a->route, b->route) ||
	       strcmp_null(a->xcol, b->xcol) || strcmp(a->unit, b->unit);
}

/* Pointers to the cells, sorted by cmp. */
static struct cell **
cells_sorted(struct cells *cs, int (*cmp)(const void *, const void *))
{
	struct cell **p = xcalloc(cs->n + 1, sizeof(*p));
	size_t i;

	for (i = 0; i < cs->n; i++)
		p[i] = &cs->c[i];
	if (cs->n > 1)
		qsort(p, cs->n, sizeof(*p), cmp);
	return p;
}

/* The first cell of p (sorted by key) with x's key, or NULL. */
static struct cell *
cell_find(struct cell **p, size_t n, const struct cell *x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cell_key_cmp(p[mid], x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !cell_key_cmp(p[lo], x) ? p[lo] : NULL;
}

static int
has_qty(struct cell **p, size_t n, const char *qty)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(p[mid]->qty, qty) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(p[lo]->qty, qty);
}

/* "rps of route 'get /' of 'elysia' at Workers 4" */
static void
cell_desc(struct buf *b, const struct cell *x)
{
	buf_addstr(b, x->metric);
	if (x->route)
		buf_addf(b, " of route '%s'", x->route);
	if (*x->target)
		buf_addf(b, " of '%s'", x->target);
	if (x->xcol) {
		buf_addf(b, " at %s ", x->xlabel);
		key_num(b, x->x);
		if (*x->xunit)
			buf_addf(b, " %s", x->xunit);
	}
}

/* Cells whose identity is given twice on one side are not compared. */
static void
mark_dups(struct cell **p, size_t n, json_t *notes, const char *which)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		struct buf s = BUF_INIT;

		for (j = i + 1; j < n && !cell_key_cmp(p[i], p[j]); j++)
			p[j]->dup = 1;
		if (j == i + 1)
			continue;
		p[i]->dup = 1;
		cell_desc(&s, p[i]);
		buf_addf(&s, " is given %zu times in %s", j - i, which);
		if (p[i]->table && p[j - 1]->table)
			buf_addf(&s, " (%s and %s)", p[i]->table, p[j - 1]->table);
		buf_addstr(&s, ": not compared");
		add_note(notes, s.ptr);
		buf_release(&s);
	}
}

static double
cell_mean(const struct cell *x)
{
	return x->published ? x->v[0] : stats_mean(x->v, x->n);
}

/* A side of a row: as sample_json, and whether it is a published figure. */
static json_t *
cell_json(const struct cell *x)
{
	json_t *o, *vals;

	if (!x->published) {
		o = sample_json(x->v, x->n);
		json_object_set_new(o, "published", json_false());
		json_object_set_new(o, "table", json_null());
		return o;
	}
	o = json_object();
	vals = json_array();
	json_object_set_new(o, "mean", jx_real(x->v[0]));
	json_object_set_new(o, "sd", jx_real(x->sd));
	json_object_set_new(o, "n", json_integer(1));
	json_array_append_new(vals, json_real(x->v[0]));
	json_object_set_new(o, "values", vals);
	json_object_set_new(o, "published", json_true());
	json_object_set_new(o, "table", jx_string(x->table));
	return o;
}

static json_t *
x_json(const struct cell *x)
{
	if (!x->xcol)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o}", "column", jstr(x->xcol), "label", jstr(x->xlabel),
			 "unit", jstr(x->xunit), "value", jx_real(x->x));
}

/* Text of v rounded to the decimals of s at digit position (after the
 * point) d, half away from zero, from the decimal text s itself:
 * "0.12405" to 4 is "0.1241", "9.96" to 1 "10.0".  out holds cap bytes. */
static void
dec_round(const char *s, int d, char *out, size_t cap)
{
	char digits[NUM_TEXT_LEN + 2];
	const char *dot = strchr(s, '.');
	size_t ni = dot ? (size_t)(dot - s) : strlen(s), nd, n = 0, i;
	int neg = *s == '-', up;

	if (neg) {
		s++;
		ni--;
	}
	/* the integer digits and d decimals, then the first dropped digit */
	for (i = 0; i < ni && n < NUM_TEXT_LEN; i++)
		digits[n++] = s[i];
	nd = dot ? strlen(dot + 1) : 0;
	for (i = 0; i < (size_t)d && n < NUM_TEXT_LEN; i++)
		digits[n++] = i < nd ? dot[1 + i] : '0';
	up = (size_t)d < nd && dot[1 + d] >= '5';
	for (i = n; up && i-- > 0;) {
		if (digits[i] == '9') {
			digits[i] = '0';
		} else {
			digits[i]++;
			up = 0;
		}
	}
	snprintf(out, cap, "%s%s%.*s%s%.*s", neg ? "-" : "", up ? "1" : "", (int)ni, digits,
		 d ? "." : "", d, digits + ni);
}

int
compare_rounded_twice(const char *published, double v, char *via, char *once, size_t cap)
{
	char t[NUM_TEXT_LEN], mid[NUM_TEXT_LEN], two[NUM_TEXT_LEN + 2], one[NUM_TEXT_LEN];
	const char *dot, *p;
	size_t n = 0;
	int d, k;

	if (!published || !isfinite(v) || fabs(v) >= 1e15)
		return 0;
	for (p = published; *p && n + 1 < sizeof(t); p++) {
		if (*p == ',')
			continue;	/* grouping */
		if (!(*p >= '0' && *p <= '9') && *p != '.' && !(*p == '-' && p == published))
			return 0;
		t[n++] = *p;
	}
	t[n] = 0;
	if (*p || !n || strchr(t, '.') != strrchr(t, '.'))
		return 0;
	dot = strchr(t, '.');
	d = dot ? (int)strlen(dot + 1) : 0;
	if (d > 15)
		return 0;
	num_format(one, sizeof(one), 'f', d, v);
	if (!strcmp(one, t))
		return 0;
	for (k = 1; k <= 3; k++) {
		num_format(mid, sizeof(mid), 'f', d + k, v);
		dec_round(mid, d, two, sizeof(two));
		if (!strcmp(two, t)) {
			snprintf(via, cap, "%s", mid);
			snprintf(once, cap, "%s", one);
			return k;
		}
	}
	return 0;
}

/* A published side against a recomputed one whose value, rounded via an
 * intermediate rounding, is the published text: {published, via, once}. */
static json_t *
rounded_json(const struct cell *a, const struct cell *b)
{
	const struct cell *pub = a->published ? a : b, *meas = a->published ? b : a;
	char via[NUM_TEXT_LEN], once[NUM_TEXT_LEN];
	json_t *o;

	if (!pub->published || meas->published ||
	    !compare_rounded_twice(pub->text, cell_mean(meas), via, once, sizeof(via)))
		return json_null();
	o = json_object();
	json_object_set_new(o, "published", json_string(pub->text));
	json_object_set_new(o, "via", json_string(via));
	json_object_set_new(o, "once", json_string(once));
	return o;
}

static json_t *
untested_row(struct ctx *c, const struct cell *a, const struct cell *b)
{
	json_t *row = json_object();
	double ma = cell_mean(a), mb = cell_mean(b), delta = NAN, ratio = NAN;

	if (ma != 0 && isfinite(ma) && isfinite(mb)) {
		ratio = mb / ma;
		delta = (mb / ma - 1) * 100;
	}
	if (c->same) {
		delta = 0;
		ratio = 1;
	}
	json_object_set_new(row, "metric", jstr(a->metric));
	if (strcmp(a->metric, b->metric))
		json_object_set_new(row, "metric_b", jstr(b->metric));
	json_object_set_new(row, "label", jstr(a->label));
	json_object_set_new(row, "unit", jstr(a->unit));
	json_object_set_new(row, "target", jstr(a->target));
	json_object_set_new(row, "route", jstr(a->route));
	json_object_set_new(row, "x", x_json(a));
	json_object_set_new(row, "a", cell_json(a));
	json_object_set_new(row, "b", cell_json(b));
	json_object_set_new(row, "delta_pct", jx_real(delta));
	json_object_set_new(row, "ratio", jx_real(ratio));
	json_object_set_new(row, "ratio_ci95", json_null());
	json_object_set_new(row, "p", json_null());
	json_object_set_new(row, "verdict", json_string(COMPARE_NO_TEST_VERDICT));
	json_object_set_new(row, "rounded_twice", rounded_json(a, b));
	if (a->energy || b->energy)
		c->energy_rows++;
	return row;
}

/* Both sides measured (trials or an energy session): tested as rounds are. */
static json_t *
tested_row(struct ctx *c, const struct cell *a, const struct cell *b)
{
	struct metric m = { a->metric, a->unit, a->label, NULL, PER_ANY, a->energy || b->energy };
	json_t *row = make_row(c, &m, a->target, a->route, a->v, a->n, b->v, b->n);

	json_object_set_new(row, "metric", jstr(a->metric));
	if (strcmp(a->metric, b->metric))
		json_object_set_new(row, "metric_b", jstr(b->metric));
	json_object_set_new(row, "label", jstr(a->label));
	json_object_set_new(row, "unit", jstr(a->unit));
	json_object_set_new(row, "target", jstr(a->target));
	json_object_set_new(row, "route", jstr(a->route));
	json_object_set_new(row, "x", x_json(a));
	return row;
}

static json_t *
not_comparable_json(const struct cell *a, const struct cell *b)
{
	json_t *o = json_object();

	json_object_set_new(o, "metric", jstr(a->metric));
	json_object_set_new(o, "metric_b", jstr(b->metric));
	json_object_set_new(o, "target", jstr(a->target));
	json_object_set_new(o, "route", jstr(a->route));
	json_object_set_new(o, "x", x_json(a));
	json_object_set_new(o, "unit_a", jstr(a->unit));
	json_object_set_new(o, "unit_b", jstr(b->unit));
	return o;
}

/* Metrics of x that y has nowhere, with their units. */
static json_t *
only_metrics(const struct cells *x, struct cell **py, size_t ny)
{
	json_t *out = json_array();
	size_t i, k;

	for (i = 0; i < x->n; i++) {
		const struct cell *c = &x->c[i];

		if (has_qty(py, ny, c->qty))
			continue;
		for (k = 0; k < json_array_size(out); k++)
			if (!strcmp(jx_path_str(json_array_get(out, k), "metric"), c->metric) &&
			    !strcmp(jx_path_str(json_array_get(out, k), "unit"), c->unit))
				break;
		if (k == json_array_size(out))
			json_array_append_new(out, json_pack("{s:o, s:o}", "metric", jstr(c->metric),
							     "unit", jstr(c->unit)));
	}
	return out;
}

#define MAX_ONE_SIDED_NOTES 20

/*
 * A cell of x without its match in y although y has its metric, its
 * target and its route (or a headline): say so, as table() does.  Cells
 * whose metric, target or route y lacks altogether are in the only-in
 * lists already.
 */
static void
one_sided_notes(struct ctx *c, const struct cells *x, const struct side *sy, struct cell **py,
		size_t ny, const char *which)
{
	size_t i, shown = 0, more = 0;

	for (i = 0; i < x->n; i++) {
		const struct cell *e = &x->c[i];
		const struct tgt *t;
		struct buf s = BUF_INIT;

		if (e->used || e->dup || !has_qty(py, ny, e->qty) ||
		    !(t = find_tgt(sy, e->tkey)) || (e->route && !find_route(t, e->route)))
			continue;
		if (shown == MAX_ONE_SIDED_NOTES) {
			more++;
			continue;
		}
		cell_desc(&s, e);
		buf_addf(&s, ": values only in %s, not compared", which);
		add_note(c->notes, s.ptr);
		buf_release(&s);
		shown++;
	}
	if (more) {
		struct buf s = BUF_INIT;

		buf_addf(&s, "and %zu more cell%s with values only in %s", more, more == 1 ? "" : "s",
			 which);
		add_note(c->notes, s.ptr);
		buf_release(&s);
	}
}

struct grp {
	size_t lo, hi, first;
};

static int
cmp_grp(const void *pa, const void *pb)
{
	const struct grp *a = pa, *b = pb;

	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * The rows of a comparison with a summary run: A's cells grouped into
 * tables (quantity, route, x column, unit) in order of first appearance,
 * each matched with B's cell of the same identity.
 */
static void
untested_rows(struct ctx *c, struct cells *ca, struct cells *cb)
{
	struct cell **ka = cells_sorted(ca, cmp_cell_key), **kb = cells_sorted(cb, cmp_cell_key);
	struct cell **ga = cells_sorted(ca, cmp_cell_group);
	struct grp *g = xcalloc(ca->n + 1, sizeof(*g));
	size_t ng = 0, i, j, gi;

	mark_dups(ka, ca->n, c->notes, "A");
	mark_dups(kb, cb->n, c->notes, "B");
	for (i = 0; i < ca->n; i = j) {
		for (j = i + 1; j < ca->n && !group_differs(ga[i], ga[j]); j++)
			;
		g[ng].lo = i;
		g[ng].hi = j;
		g[ng].first = ga[i]->idx;
		ng++;
	}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), cmp_grp);
	for (gi = 0; gi < ng; gi++) {
		size_t nrows = 0, ngeo = 0;
		double *xa = xcalloc(g[gi].hi - g[gi].lo + 1, sizeof(*xa));
		double *xb = xcalloc(g[gi].hi - g[gi].lo + 1, sizeof(*xb));
		const struct cell *first = NULL;

		for (i = g[gi].lo; i < g[gi].hi; i++) {
			struct cell *a = ga[i], *b;
			double ma, mb;

			if (a->dup || !(b = cell_find(kb, cb->n, a)) || b->dup)
				continue;
			a->used = b->used = 1;
			if (strcmp(a->unit, b->unit)) {
				json_array_append_new(c->not_comparable, not_comparable_json(a, b));
				continue;
			}
			json_array_append_new(c->rows, a->published || b->published ?
						       untested_row(c, a, b) : tested_row(c, a, b));
			if (!first)
				first = a;
			nrows++;
			ma = cell_mean(a);
			mb = cell_mean(b);
			if (ma > 0 && mb > 0 && isfinite(ma) && isfinite(mb)) {
				xa[ngeo] = ma;
				xb[ngeo] = mb;
				ngeo++;
			}
		}
		if (nrows) {
			json_t *geo = json_object();
			double ya = ngeo == nrows ? stats_geomean(xa, ngeo) : NAN;
			double yb = ngeo == nrows ? stats_geomean(xb, ngeo) : NAN;

			json_object_set_new(geo, "metric", jstr(first->metric));
			json_object_set_new(geo, "unit", jstr(first->unit));
			json_object_set_new(geo, "route", jstr(first->route));
			json_object_set_new(geo, "x_column", jstr(first->xcol));
			json_object_set_new(geo, "targets", json_integer((json_int_t)ngeo));
			json_object_set_new(geo, "a", jx_real(ya));
			json_object_set_new(geo, "b", jx_real(yb));
			json_object_set_new(geo, "delta_pct",
					    jx_real(!isfinite(ya) || !isfinite(yb) ? NAN :
						    c->same ? 0 : (yb / ya - 1) * 100));
			json_array_append_new(c->geomeans, geo);
		}
		free(xa);
		free(xb);
	}
	if (!json_array_size(c->rows) && !json_array_size(c->not_comparable))
		add_note(c->notes, "no cell is in both runs (same metric, target, route and x "
			 "value): nothing is compared");
	one_sided_notes(c, ca, &c->b, kb, cb->n, "A");
	one_sided_notes(c, cb, &c->a, ka, ca->n, "B");
	json_object_set_new(c->only_a, "metrics", only_metrics(ca, kb, cb->n));
	json_object_set_new(c->only_b, "metrics", only_metrics(cb, ka, ca->n));
	free(g);
	free(ka);
	free(kb);
	free(ga);
}

/* The sentence every output of a comparison with a summary run carries. */
static json_t *
no_test_sentence(const struct ctx *c, const char *id_a, const char *id_b)
{
	struct buf s = BUF_INIT;
	json_t *v;

	if (c->sum_a && c->sum_b && strcmp(id_a, id_b))
		buf_addf(&s, "No significance test: runs %s and %s have one value per cell", id_a,
			 id_b);
	else
		buf_addf(&s, "No significance test: run %s has one value per cell",
			 c->sum_a ? id_a : id_b);
	buf_addstr(&s, " (figures as published); \xce\x94 is a plain difference of the published "
		   "values, not a tested effect.");
	v = jstr(s.ptr);
	buf_release(&s);
	return v;
}

static json_t *
untested_method_json(void)
{
	json_t *o = json_object();

	json_object_set_new(o, "alpha", json_null());
	json_object_set_new(o, "summary",
			    json_string("summary run: the value as published, one per cell (with "
					"the SD published beside it, where given); energy session: "
					"mean and sample SD (n - 1) over rounds"));
	json_object_set_new(o, "delta", json_string("(B / A - 1) * 100"));
	json_object_set_new(o, "ratio", json_string("B / A"));
	json_object_set_new(o, "ratio_ci", json_null());
	json_object_set_new(o, "test", json_null());
	return o;
}

json_t *
compare_runs(json_t *a, const char *id_a, const char *dir_a, json_t *b,
	     const char *id_b, const char *dir_b, const char *same_reason)
{
	return compare_runs_in(a, id_a, dir_a, b, id_b, dir_b, same_reason, NULL);
}

json_t *
compare_runs_in(json_t *a, const char *id_a, const char *dir_a, json_t *b,
		const char *id_b, const char *dir_b, const char *same_reason,
		const struct target_aliases *ta)
{
	struct ctx c;
	struct cells ca = { NULL, 0, 0 }, cb = { NULL, 0, 0 };
	json_t *d = json_object(), *summary = json_object();
	const char **routes = NULL;
	size_t nroutes = 0, aroutes = 0, i, k, ra, rb;
	size_t sig = 0, same = 0, undecided = 0;
	int machines_differ, untested, cellwise;

	memset(&c, 0, sizeof(c));
	c.sum_a = is_summary(a);
	c.sum_b = is_summary(b);
	c.tri_a = is_trials(a);
	c.tri_b = is_trials(b);
	untested = c.sum_a || c.sum_b;
	/* a summary or trials side is cells, matched by metric, target,
	 * route and x: published ones are not tested, repetitions are */
	cellwise = untested || c.tri_a || c.tri_b;
	/* A summary side's targets and routes are those of its table cells. */
	if (c.sum_a || c.tri_a) {
		side_init(&c.a, a, ta);
		(c.sum_a ? summary_cells : trials_cells)(&c.a, a, &ca);
		side_from_cells(&c.a, &ca);
	} else {
		side_scan(&c.a, a, ta);
	}
	if (c.sum_b || c.tri_b) {
		side_init(&c.b, b, ta);
		(c.sum_b ? summary_cells : trials_cells)(&c.b, b, &cb);
		side_from_cells(&c.b, &cb);
	} else {
		side_scan(&c.b, b, ta);
	}
	if (!same_reason && json_array_size(json_object_get(a, "measurements")) &&
	    json_equal(json_object_get(a, "measurements"), json_object_get(b, "measurements")))
		same_reason = "identical measurements";
	if (!same_reason && c.sum_a && c.sum_b && json_array_size(json_object_get(a, "tables")) &&
	    json_equal(json_object_get(a, "tables"), json_object_get(b, "tables")))
		same_reason = "identical published tables";
	if (!same_reason && c.tri_a && c.tri_b && json_array_size(json_object_get(a, "trials")) &&
	    json_equal(json_object_get(a, "trials"), json_object_get(b, "trials")))
		same_reason = "identical trials";
	c.same = same_reason != NULL;
	c.rows = json_array();
	c.geomeans = json_array();
	c.notes = json_array();
	c.warnings = json_array();
	c.only_a = json_object();
	c.only_b = json_object();
	c.not_comparable = json_array();
	ra = c.tri_a ? (size_t)json_integer_value(json_object_get(a, "rounds")) : side_rounds(&c.a);
	rb = c.tri_b ? (size_t)json_integer_value(json_object_get(b, "rounds")) : side_rounds(&c.b);

	json_object_set_new(d, "format", json_string("erg-diff/1"));
	json_object_set_new(d, "a", side_json(a, id_a, dir_a, ra, c.sum_a));
	json_object_set_new(d, "b", side_json(b, id_b, dir_b, rb, c.sum_b));
	json_object_set_new(d, "same_data", json_boolean(c.same));
	json_object_set_new(d, "same_data_reason", jx_string(same_reason));
	json_object_set_new(d, "method", untested ? untested_method_json() : method_json());
	json_object_set_new(d, "environment", environment(&c, ra, rb, &machines_differ));
	json_object_set_new(d, "no_significance",
			    untested ? no_test_sentence(&c, id_a, id_b) : json_null());

	if (c.same) {
		struct buf s = BUF_INIT;

		if (untested)
			buf_addf(&s, "A and B are the same data (%s): every delta is 0 and every "
				 "ratio 1", same_reason);
		else
			buf_addf(&s, "A and B are the same data (%s): every delta is 0, every "
				 "verdict '~', and the CI of the ratio is exactly [1, 1] (no "
				 "resampling)", same_reason);
		add_note(c.notes, s.ptr);
		buf_release(&s);
	}
	only_in(&c, &c.a, &c.b, c.only_a);
	only_in(&c, &c.b, &c.a, c.only_b);
	if (c.tri_a)
		sweep_notes(c.notes, a);
	if (c.tri_b)
		sweep_notes(c.notes, b);

	if (cellwise) {
		if (!c.sum_a && !c.tri_a)
			session_cells(&c.a, &ca);
		if (!c.sum_b && !c.tri_b)
			session_cells(&c.b, &cb);
		untested_rows(&c, &ca, &cb);
	} else {
		for (i = 0; i < NELEM(head_metrics); i++)
			table(&c, &head_metrics[i], NULL);
		route_union(&c.a, &routes, &nroutes, &aroutes);
		route_union(&c.b, &routes, &nroutes, &aroutes);
		for (k = 0; k < nroutes; k++)
			for (i = 0; i < NELEM(route_metrics); i++)
				table(&c, &route_metrics[i], routes[k]);
		free(routes);
		json_object_set_new(c.only_a, "metrics", json_array());
		json_object_set_new(c.only_b, "metrics", json_array());
	}

	if (machines_differ && c.energy_rows)
		json_array_append_new(c.warnings,
				      json_string("the machines differ and energy is compared: "
						  "powermetrics energy is an estimate and not "
						  "comparable across devices"));
	for (i = 0; !untested && i < json_array_size(c.rows); i++) {
		const char *v = jx_path_str(json_array_get(c.rows, i), "verdict");

		if (!strcmp(v, "~"))
			same++;
		else if (!strcmp(v, "?"))
			undecided++;
		else
			sig++;
	}
	json_object_set_new(summary, "rows", json_integer((json_int_t)json_array_size(c.rows)));
	json_object_set_new(summary, "significant", json_integer((json_int_t)sig));
	json_object_set_new(summary, "not_significant", json_integer((json_int_t)same));
	json_object_set_new(summary, "undecided", json_integer((json_int_t)undecided));
	json_object_set_new(summary, "not_tested",
			    json_integer(untested ? (json_int_t)json_array_size(c.rows) : 0));

	json_object_set_new(d, "warnings", c.warnings);
	json_object_set_new(d, "notes", c.notes);
	json_object_set_new(d, "only_in_a", c.only_a);
	json_object_set_new(d, "only_in_b", c.only_b);
	json_object_set_new(d, "not_comparable", c.not_comparable);
	json_object_set_new(d, "rows", c.rows);
	json_object_set_new(d, "geomeans", c.geomeans);
	json_object_set_new(d, "summary", summary);
	side_free(&c.a);
	side_free(&c.b);
	cells_free(&ca);
	cells_free(&cb);
	return d;
}

