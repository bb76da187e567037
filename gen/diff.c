/*
 * diff.c - `erg diff A B` (see diff.h): compute the comparison of two
 * results documents into one JSON document, then render that document
 * as text, Markdown, JSON or a self-contained HTML page.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "buf.h"
#include "build.h"
#include "diff.h"
#include "html.h"
#include "input.h"
#include "jsonx.h"
#include "path.h"
#include "session.h"
#include "stats.h"
#include "util.h"

const char diff_usage[] =
	"usage: erg diff [--archive DIR] [--format text|markdown|json|html] [--out FILE]\n"
	"                [--templates DIR] A B\n"
	"\n"
	"Compares run B against run A.  A and B are run ids under the archive\n"
	"(default 'archive') or run directories: energy sessions (meta.json and\n"
	"timeline.jsonl) or summary runs (run.json).  Lists every difference of\n"
	"environment (machine, software, load settings, room temperature, energy\n"
	"source, rounds), then per target and route: mean +- SD over rounds in A\n"
	"and in B, delta % = (B/A - 1) * 100, the 95 % bootstrap CI of the ratio\n"
	"of means, the exact two-sided Mann-Whitney p over rounds, and the\n"
	"verdict: '~' when p > 0.05, else the delta; '?' when the rounds are too\n"
	"few for any difference to reach p <= 0.05.\n"
	"\n"
	"With a summary run (figures as published) on either side there is one\n"
	"value per cell and no test: cells are matched by metric, target, route\n"
	"and x column (a sweep such as connections); each shows its value (a\n"
	"session's mean +- SD (n)), delta % and B/A; the verdict is 'n/a (one\n"
	"value per cell)'.  Cells whose units differ are listed, not compared.\n"
	"\n"
	"  --format F     text (default), markdown, json, or html (a self-contained\n"
	"                 page; needs --out)\n"
	"  --out FILE     write to FILE instead of standard output\n"
	"  --templates D  where erg.css for --format html is (default 'templates')\n";

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

static const struct metric *
metric_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(route_metrics); i++)
		if (name && !strcmp(route_metrics[i].name, name))
			return &route_metrics[i];
	return NULL;
}

/* ------------------------------------------------- one side's layout */

struct troute {
	const char *name;
	const char *per;	/* "request", "MB" or NULL */
};

struct tgt {
	const char *name;
	struct troute *r;
	size_t nr, ar;
};

struct side {
	json_t *res;
	struct tgt *t;
	size_t nt, at;
};

static struct tgt *
find_tgt(const struct side *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nt; i++)
		if (!strcmp(s->t[i].name, name))
			return &s->t[i];
	return NULL;
}

static struct tgt *
add_tgt(struct side *s, const char *name)
{
	struct tgt *t = find_tgt(s, name);

	if (t)
		return t;
	ALLOC_GROW(s->t, s->nt + 1, s->at);
	t = &s->t[s->nt++];
	memset(t, 0, sizeof(*t));
	t->name = name;
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
side_scan(struct side *s, json_t *res)
{
	json_t *arr, *m, *ro;
	size_t i, j;

	memset(s, 0, sizeof(*s));
	s->res = res;
	arr = json_object_get(res, "targets");
	for (i = 0; i < json_array_size(arr); i++) {
		const char *name = jx_path_str(json_array_get(arr, i), "name");

		if (name)
			add_tgt(s, name);
	}
	arr = json_object_get(res, "measurements");
	for (i = 0; i < json_array_size(arr); i++) {
		const char *name = jx_path_str(m = json_array_get(arr, i), "target");
		struct tgt *t;
		json_t *routes = json_object_get(m, "routes");

		if (!name)
			continue;
		t = add_tgt(s, name);
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

	for (i = 0; i < s->nt; i++)
		free(s->t[i].r);
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
side_values(const struct side *s, const char *target, const char *route,
	    const struct metric *m, double **out)
{
	json_t *arr = json_object_get(s->res, "measurements");
	struct rv *rv = xcalloc(json_array_size(arr) + 1, sizeof(*rv));
	size_t i, j, n = 0;

	for (i = 0; i < json_array_size(arr); i++) {
		json_t *ms = json_array_get(arr, i), *src = NULL, *v, *rd;
		const char *t = jx_path_str(ms, "target");

		if (!t || strcmp(t, target))
			continue;
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
	return n;
}

/* ------------------------------------------------------- computation */

static size_t clean_text(struct buf *out, const char *s);

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
	clean_text(&b, s);
	v = json_string(b.ptr);
	buf_release(&b);
	return v;
}

struct ctx {
	struct side a, b;
	int same;
	int sum_a, sum_b;	/* A, B is a summary run (one value per cell) */
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

static void
fmt_g(char *s, size_t n, double v)
{
	snprintf(s, n, "%.2g", v);
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
		if (stats_bootstrap_ratio(a, na, b, nb, DIFF_RESAMPLES, DIFF_SEED, &lo, &hi))
			lo = hi = NAN;
		p = stats_mann_whitney(a, na, b, nb, NULL);
		if (minp > DIFF_ALPHA) {
			char note[256], sp[32];

			fmt_g(sp, sizeof(sp), minp);
			snprintf(note, sizeof(note),
				 "with %zu vs %zu rounds no difference can reach significance at "
				 "%.2g: the smallest exact p for %zu vs %zu is %s (verdict '?')",
				 na, nb, DIFF_ALPHA, na, nb, sp);
			add_note(c->notes, note);
			snprintf(verdict, sizeof(verdict), "?");
		} else if (!(p <= DIFF_ALPHA)) {
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
		const struct tgt *ta = &c->a.t[i], *tb = find_tgt(&c->b, ta->name);
		double *a, *b;

		if (!tb)
			continue;
		if (route && (!find_route(ta, route) || !find_route(tb, route)))
			continue;
		na = side_values(&c->a, ta->name, route, m, &a);
		nb = side_values(&c->b, ta->name, route, m, &b);
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
		const struct tgt *ty = find_tgt(y, x->t[i].name);

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
	{ "room temperature", "conditions.room_temp_c", "conditions.room_temp_c" },
	{ "energy source", "energy_source", "energy_source" },
	{ "energy source", "conditions.power", "conditions.power" },
	{ "rounds", "rounds", "rounds" },
	{ "rounds", "conditions.methodology", "conditions.methodology" },
};

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
	json_t *out = json_object(), *v;

	if (!strcmp(e->path, "rounds")) {
		if (!summary)
			json_object_set_new(out, "rounds", json_integer((json_int_t)rounds));
	} else if (summary && !strcmp(e->path, "conditions.room_temp_c") &&
		   !jx_path(res, e->path) &&
		   (v = jx_path(res, "conditions.room_temperature_c"))) {
		flatten(v, e->field, out, NULL);
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
		json_t *fa = env_flat(c->a.res, e, rounds_a, c->sum_a);
		json_t *fb = env_flat(c->b.res, e, rounds_b, c->sum_b);
		json_t *keys = json_array(), *va, *vb;
		const char *key;
		json_t *tmp;

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
			if ((c->sum_a || c->sum_b) && !(va && vb))
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

	json_object_set_new(o, "alpha", json_real(DIFF_ALPHA));
	json_object_set_new(o, "summary", json_string("mean and sample SD (n - 1) over rounds"));
	json_object_set_new(o, "delta", json_string("(mean B / mean A - 1) * 100"));
	json_object_set_new(ci, "level", json_real(0.95));
	json_object_set_new(ci, "method",
			    json_string("percentile bootstrap of mean B / mean A, "
					"rounds resampled independently on each side"));
	json_object_set_new(ci, "resamples", json_integer(DIFF_RESAMPLES));
	json_object_set_new(ci, "seed", json_integer(DIFF_SEED));
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
#define NO_TEST_VERDICT "n/a (one value per cell)"

struct cell {
	const char *qty;	/* what cells are matched by */
	const char *metric;	/* the name on its side: column or metric */
	const char *label, *unit;
	int energy;
	char *target;		/* owned; "" when the table names none */
	char *route;		/* owned; NULL: headline */
	const char *xcol, *xlabel, *xunit;	/* a sweep's x column, or NULL */
	double x;
	const char *table;	/* summary: the table's file */
	double *v;		/* owned: per-round values, or the one published value */
	size_t n;
	double sd;		/* published with the value (summary), else NAN */
	int published, dup, used;
	size_t idx;		/* order of appearance */
};

struct cells {
	struct cell *c;
	size_t n, alloc;
};

static void fmt_short(struct buf *b, double v);

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
	size_t n = side_values(s, t->name, route, m, &v);
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
		fmt_short(b, json_number_value(v));
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
row_label(json_t *cols, json_t *row, const struct tcols *k, int qualify)
{
	struct buf b = BUF_INIT;
	size_t j;
	int first = 1;

	if (k->subject >= 0 && !json_is_null(json_array_get(row, (size_t)k->subject))) {
		if (k->subject != k->target)
			buf_addf(&b, "%s: ", jx_path_str(json_array_get(cols, (size_t)k->subject),
							 "name"));
		key_text(&b, json_array_get(row, (size_t)k->subject));
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

		key[i].label = row_label(cols, row, k, 0);
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
summary_cell(struct cells *cs, json_t *t, json_t *cols, json_t *row, size_t j,
	     const struct tcols *k)
{
	json_t *col = json_array_get(cols, j), *v = json_array_get(row, j), *sd;
	const char *name = jx_path_str(col, "name");
	struct cell *x = cell_add(cs);

	x->qty = qty_of(name);
	x->metric = name;
	x->label = str_or(col, "label", name);
	x->unit = str_or(col, "unit", "");
	x->energy = energy_unit(name, x->unit);
	x->target = row_label(cols, row, k, k->qualify);
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
	sd = k->sd >= 0 && !strcmp(name, "mj_per_req") ? json_array_get(row, (size_t)k->sd) : NULL;
	if (json_is_number(sd))
		x->sd = json_number_value(sd);
	x->published = 1;
}

/* A summary run's cells: every number of every measuring column. */
static void
summary_cells(json_t *res, struct cells *cs)
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
					summary_cell(cs, t, cols, row, j, &k);
			}
		}
	}
}

/* A summary side's targets and routes (for the only-in lists), from its cells. */
static void
side_from_cells(struct side *s, json_t *res, const struct cells *cs)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->res = res;
	for (i = 0; i < cs->n; i++) {
		struct tgt *t = add_tgt(s, cs->c[i].target);

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

	if ((r = strcmp(a->qty, b->qty)) || (r = strcmp(a->target, b->target)) ||
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
		fmt_short(b, x->x);
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
	json_object_set_new(row, "verdict", json_string(NO_TEST_VERDICT));
	if (a->energy || b->energy)
		c->energy_rows++;
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
		    !(t = find_tgt(sy, e->target)) || (e->route && !find_route(t, e->route)))
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
			json_array_append_new(c->rows, untested_row(c, a, b));
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
diff_compute(json_t *a, const char *id_a, const char *dir_a, json_t *b,
	     const char *id_b, const char *dir_b, const char *same_reason)
{
	struct ctx c;
	struct cells ca = { NULL, 0, 0 }, cb = { NULL, 0, 0 };
	json_t *d = json_object(), *summary = json_object();
	const char **routes = NULL;
	size_t nroutes = 0, aroutes = 0, i, k, ra, rb;
	size_t sig = 0, same = 0, undecided = 0;
	int machines_differ, untested;

	memset(&c, 0, sizeof(c));
	c.sum_a = is_summary(a);
	c.sum_b = is_summary(b);
	untested = c.sum_a || c.sum_b;
	/* A summary side's targets and routes are those of its table cells. */
	if (c.sum_a) {
		summary_cells(a, &ca);
		side_from_cells(&c.a, a, &ca);
	} else {
		side_scan(&c.a, a);
	}
	if (c.sum_b) {
		summary_cells(b, &cb);
		side_from_cells(&c.b, b, &cb);
	} else {
		side_scan(&c.b, b);
	}
	if (!same_reason && json_array_size(json_object_get(a, "measurements")) &&
	    json_equal(json_object_get(a, "measurements"), json_object_get(b, "measurements")))
		same_reason = "identical measurements";
	if (!same_reason && c.sum_a && c.sum_b && json_array_size(json_object_get(a, "tables")) &&
	    json_equal(json_object_get(a, "tables"), json_object_get(b, "tables")))
		same_reason = "identical published tables";
	c.same = same_reason != NULL;
	c.rows = json_array();
	c.geomeans = json_array();
	c.notes = json_array();
	c.warnings = json_array();
	c.only_a = json_object();
	c.only_b = json_object();
	c.not_comparable = json_array();
	ra = side_rounds(&c.a);
	rb = side_rounds(&c.b);

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

	if (untested) {
		if (!c.sum_a)
			session_cells(&c.a, &ca);
		if (!c.sum_b)
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

/* -------------------------------------------------- cell formatting */

/*
 * Untrusted text for a terminal or Markdown: valid UTF-8 is kept except
 * C0 and C1 controls and DEL, which (with invalid bytes) become '?', so
 * no escape sequence reaches the terminal.  Returns the display width in
 * code points.
 */
static size_t
clean_text(struct buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t w = 0, len, i;
	unsigned cp;

	while (*p) {
		unsigned char c = *p;

		if (c < 0x80) {
			buf_addch(out, c < 0x20 || c == 0x7f ? '?' : c);
			p++;
			w++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			len = 2;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			cp = c & 0x07;
		} else {
			len = 0;
			cp = 0;
		}
		for (i = 1; i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				break;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if (!len || i < len || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0)) {
			buf_addch(out, '?');
			p += len && i == len ? len : 1;
		} else {
			buf_add(out, p, len);
			p += len;
		}
		w++;
	}
	return w;
}

/* Decimals giving 4 significant digits to the smallest magnitude. */
static int
decimals_for(double minabs)
{
	int d;

	if (!(minabs > 0) || !isfinite(minabs))
		return 2;
	d = 3 - (int)floor(log10(minabs));
	return d < 0 ? 0 : d > 9 ? 9 : d;
}

static void
fmt_fixed(struct buf *b, double v, int dec)
{
	char s[64];
	const char *q;

	if (!isfinite(v)) {
		buf_addstr(b, "n/a");
		return;
	}
	snprintf(s, sizeof(s), "%.*f", dec, v);
	/* "-0.000" -> "0.000" */
	for (q = s + (*s == '-'); *q == '0' || *q == '.'; q++)
		;
	buf_addstr(b, *s == '-' && !*q ? s + 1 : s);
}

/*
 * A published figure as it was written, as far as a double can tell:
 * the fewest decimals that read back as the same number (0.0958, not
 * 0.09580), so that no digit is shown that the source did not give.
 * Trailing zeros the source wrote ("0.1010") are lost with the number.
 */
static void
fmt_short(struct buf *b, double v)
{
	char s[64];
	int d;

	if (!isfinite(v)) {
		buf_addstr(b, "n/a");
		return;
	}
	/* A plain number as long as it fits s (up to ~1e62), else %.17g. */
	d = html_shortest_decimals(v, 17);
	if (d >= 0 && snprintf(s, sizeof(s), "%.*f", d, v) < (int)sizeof(s)) {
		buf_addstr(b, strcmp(s, "-0") ? s : "0");
		return;
	}
	snprintf(s, sizeof(s), "%.17g", v);
	buf_addstr(b, s);
}

static double
num(json_t *o, const char *path)
{
	json_t *v = jx_path(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Widths of the parts of the sample cells of one table (text only). */
struct sample_w {
	size_t mean, sd, n;
};

static size_t width(const char *s);

static void
pad_left(struct buf *b, const char *s, size_t w)
{
	size_t n = width(s);

	while (n++ < w)
		buf_addch(b, ' ');
	buf_addstr(b, s);
}

/* A published figure (summary run): shown as given, without an n. */
static int
is_published(json_t *s)
{
	return json_is_true(json_object_get(s, "published"));
}

static void
fmt_value(struct buf *b, json_t *s, const char *key, int dec)
{
	if (is_published(s))
		fmt_short(b, num(s, key));
	else
		fmt_fixed(b, num(s, key), dec);
}

/*
 * "mean ± sd (n)", the parts right-aligned to w when it is not NULL.  A
 * published figure is "value ± sd" (sd as published, when given): its n
 * would be 1, which says nothing about the rounds behind a published SD.
 */
static void
cell_sample(struct buf *b, json_t *s, int dec, const struct sample_w *w)
{
	struct buf t = BUF_INIT;

	fmt_value(&t, s, "mean", dec);
	pad_left(b, t.ptr, w ? w->mean : 0);
	if (isfinite(num(s, "sd")) || (w && w->sd)) {
		buf_reset(&t);
		if (isfinite(num(s, "sd")))
			fmt_value(&t, s, "sd", dec);
		buf_addstr(b, t.len ? " \xc2\xb1 " : "   ");
		pad_left(b, t.ptr, w ? w->sd : 0);
	}
	buf_reset(&t);
	if (!is_published(s))
		buf_addf(&t, "(%.0f)", num(s, "n"));
	if (t.len || (w && w->n)) {
		buf_addch(b, ' ');
		pad_left(b, t.ptr, w ? w->n : 0);
	}
	buf_release(&t);
}

static void
sample_widths(json_t *s, int dec, struct sample_w *w)
{
	struct buf t = BUF_INIT;

	fmt_value(&t, s, "mean", dec);
	w->mean = w->mean > width(t.ptr) ? w->mean : width(t.ptr);
	buf_reset(&t);
	if (isfinite(num(s, "sd"))) {
		fmt_value(&t, s, "sd", dec);
		w->sd = w->sd > width(t.ptr) ? w->sd : width(t.ptr);
	}
	buf_reset(&t);
	if (!is_published(s)) {
		buf_addf(&t, "(%.0f)", num(s, "n"));
		w->n = w->n > width(t.ptr) ? w->n : width(t.ptr);
	}
	buf_release(&t);
}

static void
cell_delta(struct buf *b, double d)
{
	char s[64];

	if (!isfinite(d)) {
		buf_addstr(b, "n/a");
		return;
	}
	snprintf(s, sizeof(s), "%+.2f%%", d);
	if (!strcmp(s + 1, "0.00%"))
		buf_addstr(b, "0.00%");
	else
		buf_addstr(b, s);
}

static void
cell_ci(struct buf *b, json_t *row, int same)
{
	json_t *ci = json_object_get(row, "ratio_ci95");
	json_t *l = json_array_get(ci, 0), *h = json_array_get(ci, 1);
	double lo = json_is_number(l) ? json_number_value(l) : NAN;
	double hi = json_is_number(h) ? json_number_value(h) : NAN;

	if (same)
		buf_addstr(b, "[1, 1]");
	else if (!isfinite(lo) || !isfinite(hi))
		buf_addstr(b, "n/a");
	else
		buf_addf(b, "[%.4f, %.4f]", lo, hi);
}

static void
cell_p(struct buf *b, double p)
{
	if (!isfinite(p))
		buf_addstr(b, "n/a");
	else if (p >= 0.0001)
		buf_addf(b, "%.4f", p);
	else
		buf_addf(b, "%.1e", p);
}

/* "headline" or "route 'ping'"-like table titles; the units are always
 * stated ("no unit" for a plain number such as a CV). */
static void
table_title(struct buf *b, json_t *row)
{
	const char *route = jx_path_str(row, "route"), *label = jx_path_str(row, "label");
	const struct metric *m = metric_by_name(jx_path_str(row, "metric"));
	const char *unit = jx_path_str(row, "unit");

	if (!route) {
		size_t i;

		for (i = 0; i < NELEM(head_metrics); i++)
			if (!strcmp(head_metrics[i].name, jx_path_str(row, "metric")))
				m = &head_metrics[i];
	}
	buf_addstr(b, route ? "route " : "headline");
	if (route)
		clean_text(b, route);
	buf_addstr(b, ": ");
	clean_text(b, label ? label : m ? m->label : jx_path_str(row, "metric"));
	if (label && strcmp(label, jx_path_str(row, "metric"))) {
		buf_addstr(b, " [");
		clean_text(b, jx_path_str(row, "metric"));
		buf_addch(b, ']');
	}
	buf_addstr(b, " (");
	clean_text(b, unit && *unit ? unit : "no unit");
	buf_addch(b, ')');
	if (jx_path_str(row, "x.label")) {
		buf_addstr(b, ", by ");
		clean_text(b, jx_path_str(row, "x.label"));
	}
}

static int
same_table(json_t *x, json_t *y)
{
	const char *rx = jx_path_str(x, "route"), *ry = jx_path_str(y, "route");

	if (strcmp(jx_path_str(x, "metric"), jx_path_str(y, "metric")) ||
	    strcmp(jx_path_str(x, "unit"), jx_path_str(y, "unit")) ||
	    strcmp_null(jx_path_str(x, "x.column"), jx_path_str(y, "x.column")))
		return 0;
	return (!rx && !ry) || (rx && ry && !strcmp(rx, ry));
}

/* Table i: rows [*lo, *hi) and its geomean entry; 0 when past the end. */
static int
table_at(json_t *d, size_t t, size_t *lo, size_t *hi, json_t **geo)
{
	json_t *rows = json_object_get(d, "rows");
	size_t i = 0, k = 0, j;

	while (i < json_array_size(rows)) {
		for (j = i + 1; j < json_array_size(rows) &&
		     same_table(json_array_get(rows, i), json_array_get(rows, j)); j++)
			;
		if (k == t) {
			*lo = i;
			*hi = j;
			*geo = json_array_get(json_object_get(d, "geomeans"), t);
			return 1;
		}
		k++;
		i = j;
	}
	return 0;
}

/* Decimals for the measured values of a table (published figures are
 * shown as given); from all values when every one is published. */
static int
table_decimals(json_t *d, size_t lo, size_t hi)
{
	json_t *rows = json_object_get(d, "rows");
	double minabs = INFINITY, any = INFINITY, v;
	size_t i;
	const char *side[] = { "a", "b" }, **s;

	for (i = lo; i < hi; i++)
		for (s = side; s < side + 2; s++) {
			json_t *x = json_object_get(json_array_get(rows, i), *s);

			v = fabs(num(x, "mean"));
			if (v > 0 && v < any)
				any = v;
			if (v > 0 && v < minabs && !is_published(x))
				minabs = v;
		}
	return decimals_for(isfinite(minabs) ? minabs : any);
}

#define NCOL 7

/*
 * The columns of the result tables: with significance (energy sessions on
 * both sides) or without (a summary run on either side: no CI, no p).
 */
struct layout {
	size_t ncol;
	const char *head[NCOL];
	int right[NCOL];	/* text: right-aligned numbers */
	const char *md_rule;
	size_t verdict;		/* index of the verdict column */
};

static const struct layout tested_layout = {
	7,
	{ "target", "A mean \xc2\xb1 SD (n)", "B mean \xc2\xb1 SD (n)", "\xce\x94%",
	  "B/A 95% CI", "p", "verdict" },
	{ 0, 0, 0, 1, 0, 1, 0 },
	"|---|---:|---:|---:|---|---:|---|\n",
	6,
};

static int
untested(json_t *d)
{
	return json_is_string(json_object_get(d, "no_significance"));
}

static void
layout_of(json_t *d, struct layout *l)
{
	if (!untested(d)) {
		*l = tested_layout;
		return;
	}
	memset(l, 0, sizeof(*l));
	l->ncol = 6;
	l->head[0] = "target";
	/* side_json: "rounds" is null for a summary run */
	l->head[1] = json_is_null(jx_path(d, "a.rounds")) ? "A published" :
		     "A mean \xc2\xb1 SD (n)";
	l->head[2] = json_is_null(jx_path(d, "b.rounds")) ? "B published" :
		     "B mean \xc2\xb1 SD (n)";
	l->head[3] = "\xce\x94%";
	l->head[4] = "B/A";
	l->head[5] = "verdict";
	l->right[3] = l->right[4] = 1;
	l->md_rule = "|---|---:|---:|---:|---:|---|\n";
	l->verdict = 5;
}

/* The row's name: its target, and the x value of a sweep. */
static void
target_text(struct buf *b, json_t *row, void (*esc)(struct buf *, const char *))
{
	const char *t = jx_path_str(row, "target");
	json_t *x = json_object_get(row, "x");

	if (t && *t)
		esc(b, t);
	else if (!json_is_object(x))
		buf_addstr(b, "\xe2\x80\x94");	/* a table without targets */
	if (json_is_object(x)) {
		struct buf v = BUF_INIT;

		if (t && *t)
			buf_addstr(b, ", ");
		esc(b, jx_path_str(x, "label"));
		fmt_short(&v, num(x, "value"));
		buf_addf(b, " %s", v.ptr);
		if (jx_path_str(x, "unit") && *jx_path_str(x, "unit")) {
			buf_addch(b, ' ');
			esc(b, jx_path_str(x, "unit"));
		}
		buf_release(&v);
	}
}

static void esc_text(struct buf *b, const char *s);

static void
cell_ratio(struct buf *b, double r)
{
	if (!isfinite(r))
		buf_addstr(b, "n/a");
	else
		buf_addf(b, "%.4f", r);
}

/* Cells of one row (untrusted names cleaned) into c[NCOL]; w: NULL, or
 * the widths of A's and of B's values. */
static void
row_cells(json_t *row, int dec, int same, const struct sample_w *w, struct buf *c)
{
	const struct sample_w *wb = w ? w + 1 : NULL;

	size_t i;

	for (i = 0; i < NCOL; i++)
		buf_reset(&c[i]);
	if (jx_path_str(row, "verdict") && !strcmp(jx_path_str(row, "verdict"), NO_TEST_VERDICT)) {
		target_text(&c[0], row, esc_text);
		cell_sample(&c[1], json_object_get(row, "a"), dec, w);
		cell_sample(&c[2], json_object_get(row, "b"), dec, wb);
		cell_delta(&c[3], num(row, "delta_pct"));
		cell_ratio(&c[4], num(row, "ratio"));
		buf_addstr(&c[5], jx_path_str(row, "verdict"));
		return;
	}
	clean_text(&c[0], jx_path_str(row, "target"));
	cell_sample(&c[1], json_object_get(row, "a"), dec, w);
	cell_sample(&c[2], json_object_get(row, "b"), dec, wb);
	cell_delta(&c[3], num(row, "delta_pct"));
	cell_ci(&c[4], row, same);
	cell_p(&c[5], num(row, "p"));
	buf_addstr(&c[6], jx_path_str(row, "verdict"));
}

static void
geo_cells(json_t *geo, int dec, const struct sample_w *w, struct buf *c)
{
	struct buf t = BUF_INIT;
	size_t i;

	for (i = 0; i < NCOL; i++)
		buf_reset(&c[i]);
	buf_addstr(&c[0], "geomean");
	for (i = 1; i <= 2; i++) {
		buf_reset(&t);
		fmt_fixed(&t, num(geo, i == 1 ? "a" : "b"), dec);
		pad_left(&c[i], t.ptr, w ? w[i - 1].mean : 0);
	}
	buf_release(&t);
	cell_delta(&c[3], num(geo, "delta_pct"));
}

static size_t
width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* A JSON scalar for the environment table: strings bare, others as JSON. */
static void
env_value(struct buf *b, json_t *v)
{
	char *s;

	if (!v || json_is_null(v)) {
		buf_addstr(b, "(absent)");
	} else if (json_is_string(v)) {
		clean_text(b, json_string_value(v));
	} else {
		s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
		clean_text(b, s ? s : "?");
		free(s);
	}
}

/* Were all p-values exact (no side past 25 rounds)? */
static int
all_exact(json_t *d)
{
	json_t *rows = json_object_get(d, "rows");
	size_t i;

	for (i = 0; i < json_array_size(rows); i++)
		if (num(json_array_get(rows, i), "a.n") > 25 || num(json_array_get(rows, i), "b.n") > 25)
			return 0;
	return 1;
}

/* What the columns are; sep between its three sentences. */
static void
legend(struct buf *b, json_t *d, const char *sep)
{
	if (untested(d)) {
		const char *w[] = { "A", "B" };
		size_t i;

		int both = json_is_null(jx_path(d, "a.rounds")) &&
			   json_is_null(jx_path(d, "b.rounds"));

		buf_addstr(b, "values: ");
		for (i = 0; i < (size_t)(2 - both); i++) {
			const char *k = i ? "b.rounds" : "a.rounds";

			if (!both)
				buf_addf(b, "%s%s ", i ? "; " : "", w[i]);
			if (json_is_null(jx_path(d, k)))
				buf_addstr(b, "as published, one value per cell (\xc2\xb1 the SD "
					   "published with it, where given)");
			else
				buf_addstr(b, "mean \xc2\xb1 SD (n) over rounds");
		}
		buf_addf(b, "%s\xce\x94%% = (B/A \xe2\x88\x92 1)\xc2\xb7" "100; B/A: the ratio of "
			 "the values; no confidence interval, no p-value%s", sep, sep);
		buf_addf(b, "verdict: %s", NO_TEST_VERDICT);
		return;
	}
	buf_addf(b, "values: mean \xc2\xb1 SD (n) over rounds; \xce\x94%% = (B/A \xe2\x88\x92 1)"
		 "\xc2\xb7" "100%s", sep);
	buf_addf(b, "B/A 95%% CI: percentile bootstrap of the ratio of means (%u resamples, "
		 "seed %u)%s", DIFF_RESAMPLES, DIFF_SEED, sep);
	buf_addf(b, "p: %stwo-sided Mann\xe2\x80\x93Whitney U over rounds%s; verdict: ~ when "
		 "p > %.2g, else \xce\x94%%", all_exact(d) ? "exact " : "",
		 all_exact(d) ? "" : " (exact up to 25 rounds a side)", DIFF_ALPHA);
}

static void
summary_line(struct buf *b, json_t *d)
{
	json_t *s = json_object_get(d, "summary");

	if (untested(d)) {
		buf_addf(b, "%.0f comparison%s, none tested for significance (one value per cell)",
			 num(s, "rows"), num(s, "rows") == 1 ? "" : "s");
		return;
	}
	buf_addf(b, "%.0f comparison%s: %.0f significant, %.0f ~, %.0f ?", num(s, "rows"),
		 num(s, "rows") == 1 ? "" : "s", num(s, "significant"),
		 num(s, "not_significant"), num(s, "undecided"));
}

/* A name that may be empty (a summary table without targets). */
static void
esc_name(struct buf *b, const char *s, void (*esc)(struct buf *, const char *))
{
	if (!s || !*s) {
		buf_addstr(b, "(no target)");
	} else if (strchr(s, ',')) {
		/* "frameworks: elysia, bun" is one name in a list of names */
		buf_addch(b, '\'');
		esc(b, s);
		buf_addch(b, '\'');
	} else {
		esc(b, s);
	}
}

static const char *const only_kinds[] = { "targets", "routes", "metrics" };

/* "express, video of bun, cv" lists of what one side alone has
 * (kind: 0 targets, 1 routes, 2 metrics). */
static int
only_list(struct buf *b, json_t *only, int kind, void (*esc)(struct buf *, const char *))
{
	json_t *arr = json_object_get(only, only_kinds[kind]);
	size_t i;

	for (i = 0; i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);

		if (i)
			buf_addstr(b, ", ");
		if (kind == 1) {
			esc_name(b, jx_path_str(e, "route"), esc);
			buf_addstr(b, " of ");
			esc_name(b, jx_path_str(e, "target"), esc);
		} else if (kind == 2) {
			esc(b, jx_path_str(e, "metric"));
			if (jx_path_str(e, "unit") && *jx_path_str(e, "unit")) {
				buf_addstr(b, " (");
				esc(b, jx_path_str(e, "unit"));
				buf_addch(b, ')');
			}
		} else {
			esc_name(b, json_string_value(e), esc);
		}
	}
	return i > 0;
}

/* "rps of route 'ping' of 'elysia': req/s in A, req/min in B" */
static void
not_comparable_text(struct buf *b, json_t *e, void (*esc)(struct buf *, const char *))
{
	const char *ma = jx_path_str(e, "metric"), *mb = jx_path_str(e, "metric_b");

	esc(b, ma);
	if (mb && strcmp(ma, mb)) {
		buf_addstr(b, " / ");
		esc(b, mb);
	}
	if (jx_path_str(e, "route")) {
		buf_addstr(b, " of route '");
		esc(b, jx_path_str(e, "route"));
		buf_addch(b, '\'');
	}
	buf_addstr(b, " of ");
	target_text(b, e, esc);
	buf_addstr(b, ": ");
	esc(b, *jx_path_str(e, "unit_a") ? jx_path_str(e, "unit_a") : "no unit");
	buf_addstr(b, " in A, ");
	esc(b, *jx_path_str(e, "unit_b") ? jx_path_str(e, "unit_b") : "no unit");
	buf_addstr(b, " in B");
}

static void
esc_text(struct buf *b, const char *s)
{
	clean_text(b, s);
}

/* ---------------------------------------------------------- text */

static void
text_pad(struct buf *b, const char *s, size_t w)
{
	size_t n = width(s);

	buf_addstr(b, s);
	while (n++ < w)
		buf_addch(b, ' ');
}

static void
text_line(struct buf *out, struct buf *c, const size_t *w, const struct layout *l)
{
	size_t i;

	for (i = 0; i < l->ncol; i++) {
		if (i)
			buf_addstr(out, "  ");
		if (l->right[i])	/* delta, p, ratio: numbers, right-aligned */
			pad_left(out, c[i].ptr, w[i]);
		else
			text_pad(out, c[i].ptr, i + 1 < l->ncol ? w[i] : 0);
	}
	while (out->len && out->ptr[out->len - 1] == ' ')
		buf_setlen(out, out->len - 1);
	buf_addch(out, '\n');
}

static void
text_side(struct buf *out, const char *which, json_t *s)
{
	buf_addf(out, "%s: ", which);
	clean_text(out, jx_path_str(s, "run"));
	buf_addstr(out, "\n   ");
	if (jx_path_str(s, "captured_at")) {
		buf_addstr(out, json_is_null(json_object_get(s, "rounds")) ? "dated " : "captured ");
		clean_text(out, jx_path_str(s, "captured_at"));
		buf_addstr(out, "; ");
	}
	clean_text(out, jx_path_str(s, "machine"));
	if (json_is_null(json_object_get(s, "rounds")))
		buf_addstr(out, "; summary run: figures as published, no rounds\n");
	else
		buf_addf(out, "; %.0f round%s\n", num(s, "rounds"),
			 num(s, "rounds") == 1 ? "" : "s");
}

static void
groups_list(struct buf *b, json_t *env)
{
	json_t *g = json_object_get(env, "compared");
	size_t i;

	for (i = 0; i < json_array_size(g); i++)
		buf_addf(b, "%s%s", i ? ", " : "", json_string_value(json_array_get(g, i)));
}

/* Differences that are a field only one run records (run.json of a
 * summary run says less than a session's meta.json): told apart in the
 * count so that a long list of them does not read as 40 changes. */
static size_t
one_sided(const json_t *diffs)
{
	size_t i, n = 0;

	for (i = 0; i < json_array_size(diffs); i++) {
		const json_t *e = json_array_get(diffs, i);

		n += json_is_null(json_object_get(e, "a")) || json_is_null(json_object_get(e, "b"));
	}
	return n;
}

static void
count_sentence(struct buf *out, const json_t *diffs)
{
	size_t n = json_array_size(diffs), k = one_sided(diffs);

	buf_addf(out, "%zu difference%s", n, n == 1 ? "" : "s");
	if (k)
		buf_addf(out, ", %zu of them %s recorded by one run only", k,
			 k == 1 ? "a field" : "fields");
}

void
diff_render_text(json_t *d, struct buf *out)
{
	json_t *env = json_object_get(d, "environment");
	json_t *diffs = json_object_get(env, "differences"), *rows = json_object_get(d, "rows");
	json_t *arr, *geo;
	struct buf c[NCOL], cell = BUF_INIT;
	size_t i, j, t, lo, hi, w[NCOL], fw = 5, aw = 1;
	int same = json_is_true(json_object_get(d, "same_data")), dec;
	struct layout l;

	layout_of(d, &l);
	for (i = 0; i < NCOL; i++)
		buf_init(&c[i], 0);
	text_side(out, "A", json_object_get(d, "a"));
	text_side(out, "B", json_object_get(d, "b"));
	buf_addch(out, '\n');

	if (!json_array_size(diffs)) {
		buf_addstr(out, "environment: no differences (");
		groups_list(out, env);
		buf_addstr(out, ")\n");
	} else {
		buf_addstr(out, "environment: ");
		count_sentence(out, diffs);
		buf_addstr(out, " (compared: ");
		groups_list(out, env);
		buf_addstr(out, ")\n");
		for (i = 0; i < json_array_size(diffs); i++) {
			json_t *e = json_array_get(diffs, i);

			buf_reset(&cell);
			env_value(&cell, json_object_get(e, "a"));
			fw = fw > width(jx_path_str(e, "field")) ? fw : width(jx_path_str(e, "field"));
			aw = aw > width(cell.ptr) ? aw : width(cell.ptr);
		}
		buf_addstr(out, "  ");
		text_pad(out, "field", fw + 2);
		text_pad(out, "A", aw + 2);
		buf_addstr(out, "B\n");
		for (i = 0; i < json_array_size(diffs); i++) {
			json_t *e = json_array_get(diffs, i);

			buf_addstr(out, "  ");
			buf_reset(&cell);
			clean_text(&cell, jx_path_str(e, "field"));
			text_pad(out, cell.ptr, fw + 2);
			buf_reset(&cell);
			env_value(&cell, json_object_get(e, "a"));
			text_pad(out, cell.ptr, aw + 2);
			env_value(out, json_object_get(e, "b"));
			buf_addch(out, '\n');
		}
	}
	arr = json_object_get(d, "warnings");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, "\nWARNING: ");
		clean_text(out, json_string_value(json_array_get(arr, i)));
		buf_addch(out, '\n');
	}
	arr = json_object_get(d, "notes");
	if (json_array_size(arr))
		buf_addch(out, '\n');
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, "note: ");
		clean_text(out, json_string_value(json_array_get(arr, i)));
		buf_addch(out, '\n');
	}
	for (j = 0; j < 2; j++) {
		json_t *only = json_object_get(d, j ? "only_in_b" : "only_in_a");

		for (t = 0; t < 3; t++) {
			buf_reset(&cell);
			if (only_list(&cell, only, (int)t, esc_text))
				buf_addf(out, "%s only in %s: %s\n", only_kinds[t], j ? "B" : "A",
					 cell.ptr);
		}
	}
	arr = json_object_get(d, "not_comparable");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, "not comparable (units differ): ");
		not_comparable_text(out, json_array_get(arr, i), esc_text);
		buf_addch(out, '\n');
	}
	buf_addch(out, '\n');
	if (untested(d)) {
		clean_text(out, jx_path_str(d, "no_significance"));
		buf_addstr(out, "\n\n");
	}
	legend(out, d, "\n");
	buf_addstr(out, "\n");
	summary_line(out, d);
	buf_addstr(out, "\n");

	for (t = 0; table_at(d, t, &lo, &hi, &geo); t++) {
		struct sample_w sw[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

		/* With significance both sides are alike and share widths; a
		 * published side has its own. */
		dec = table_decimals(d, lo, hi);
		for (i = lo; i < hi; i++) {
			sample_widths(jx_path(json_array_get(rows, i), "a"), dec, &sw[0]);
			sample_widths(jx_path(json_array_get(rows, i), "b"), dec,
				      &sw[untested(d)]);
		}
		if (!untested(d))
			sw[1] = sw[0];
		for (i = 0; i < l.ncol; i++)
			w[i] = width(l.head[i]);
		for (i = lo; i <= hi; i++) {
			if (i < hi)
				row_cells(json_array_get(rows, i), dec, same, sw, c);
			else if (geo)
				geo_cells(geo, dec, sw, c);
			else
				break;
			for (j = 0; j < l.ncol; j++)
				w[j] = w[j] > width(c[j].ptr) ? w[j] : width(c[j].ptr);
		}
		buf_addch(out, '\n');
		table_title(out, json_array_get(rows, lo));
		buf_addch(out, '\n');
		for (j = 0; j < l.ncol; j++) {
			buf_reset(&c[j]);
			buf_addstr(&c[j], l.head[j]);
		}
		text_line(out, c, w, &l);
		for (i = lo; i < hi; i++) {
			row_cells(json_array_get(rows, i), dec, same, sw, c);
			text_line(out, c, w, &l);
		}
		if (geo) {
			geo_cells(geo, dec, sw, c);
			text_line(out, c, w, &l);
		}
	}
	for (i = 0; i < NCOL; i++)
		buf_release(&c[i]);
	buf_release(&cell);
}

/* ------------------------------------------------------ Markdown */

/* Cleaned text with Markdown's inline syntax characters backslash-escaped. */
static void
md_esc(struct buf *b, const char *s)
{
	struct buf t = BUF_INIT;
	size_t i;

	clean_text(&t, s);
	for (i = 0; i < t.len; i++) {
		if (strchr("\\`*_[]<>|~&!#$", t.ptr[i]))
			buf_addch(b, '\\');
		buf_addch(b, t.ptr[i]);
	}
	buf_release(&t);
}

/* Cells are Markdown already: numbers, verdicts, escaped names. */
static void
md_row(struct buf *out, struct buf *c, const struct layout *l)
{
	size_t i;

	buf_addch(out, '|');
	for (i = 0; i < l->ncol; i++) {
		buf_addch(out, ' ');
		buf_addstr(out, c[i].ptr);
		buf_addstr(out, " |");
	}
	buf_addch(out, '\n');
}

static void
md_side(struct buf *out, const char *which, json_t *s)
{
	struct buf t = BUF_INIT;
	size_t i;

	/* the run id as a code span, where only a backtick would matter */
	clean_text(&t, jx_path_str(s, "run"));
	buf_addf(out, "- **%s**: `", which);
	for (i = 0; i < t.len; i++)
		buf_addch(out, t.ptr[i] == '`' ? '\'' : t.ptr[i]);
	buf_addstr(out, "`");
	buf_release(&t);
	if (jx_path_str(s, "captured_at")) {
		buf_addstr(out, json_is_null(json_object_get(s, "rounds")) ? ", dated " : ", captured ");
		md_esc(out, jx_path_str(s, "captured_at"));
	}
	buf_addstr(out, "; ");
	md_esc(out, jx_path_str(s, "machine"));
	if (json_is_null(json_object_get(s, "rounds")))
		buf_addstr(out, "; summary run: figures as published, no rounds\n");
	else
		buf_addf(out, "; %.0f round%s\n", num(s, "rounds"),
			 num(s, "rounds") == 1 ? "" : "s");
}

void
diff_render_markdown(json_t *d, struct buf *out)
{
	json_t *env = json_object_get(d, "environment");
	json_t *diffs = json_object_get(env, "differences"), *rows = json_object_get(d, "rows");
	json_t *arr, *geo;
	struct buf c[NCOL], cell = BUF_INIT;
	size_t i, j, t, lo, hi;
	int same = json_is_true(json_object_get(d, "same_data")), dec;
	struct layout l;

	layout_of(d, &l);
	for (i = 0; i < NCOL; i++)
		buf_init(&c[i], 0);
	buf_addstr(out, "# erg diff\n\n");
	md_side(out, "A", json_object_get(d, "a"));
	md_side(out, "B", json_object_get(d, "b"));

	buf_addstr(out, "\n## Environment\n\n");
	if (!json_array_size(diffs)) {
		buf_addstr(out, "No differences (");
		groups_list(out, env);
		buf_addstr(out, ").\n");
	} else {
		count_sentence(out, diffs);
		buf_addstr(out, " (compared: ");
		groups_list(out, env);
		buf_addstr(out, ").\n\n| field | A | B |\n|---|---|---|\n");
		for (i = 0; i < json_array_size(diffs); i++) {
			json_t *e = json_array_get(diffs, i);

			buf_addstr(out, "| ");
			md_esc(out, jx_path_str(e, "field"));
			for (j = 0; j < 2; j++) {
				buf_reset(&cell);
				env_value(&cell, json_object_get(e, j ? "b" : "a"));
				buf_addstr(out, " | ");
				md_esc(out, cell.ptr);
			}
			buf_addstr(out, " |\n");
		}
	}
	arr = json_object_get(d, "warnings");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, "\n> **WARNING:** ");
		md_esc(out, json_string_value(json_array_get(arr, i)));
		buf_addch(out, '\n');
	}
	arr = json_object_get(d, "notes");
	if (json_array_size(arr))
		buf_addch(out, '\n');
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, "- Note: ");
		md_esc(out, json_string_value(json_array_get(arr, i)));
		buf_addch(out, '\n');
	}
	for (j = 0; j < 2; j++) {
		json_t *only = json_object_get(d, j ? "only_in_b" : "only_in_a");

		for (t = 0; t < 3; t++) {
			buf_reset(&cell);
			if (only_list(&cell, only, (int)t, md_esc))
				buf_addf(out, "- %s only in %s: %s\n",
					 t == 0 ? "Targets" : t == 1 ? "Routes" : "Metrics",
					 j ? "B" : "A", cell.ptr);
		}
	}
	arr = json_object_get(d, "not_comparable");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, "- Not comparable (units differ): ");
		not_comparable_text(out, json_array_get(arr, i), md_esc);
		buf_addch(out, '\n');
	}
	buf_addstr(out, "\n## Results\n\n");
	if (untested(d)) {
		buf_addstr(out, "**");
		md_esc(out, jx_path_str(d, "no_significance"));
		buf_addstr(out, "**\n\n");
	}
	buf_reset(&cell);
	legend(&cell, d, "; ");
	md_esc(out, cell.ptr);
	buf_addstr(out, ".\n\n");
	summary_line(out, d);
	buf_addstr(out, ".\n");

	for (t = 0; table_at(d, t, &lo, &hi, &geo); t++) {
		dec = table_decimals(d, lo, hi);
		buf_addstr(out, "\n### ");
		buf_reset(&cell);
		table_title(&cell, json_array_get(rows, lo));
		md_esc(out, cell.ptr);
		buf_addstr(out, "\n\n");
		for (j = 0; j < l.ncol; j++) {
			buf_reset(&c[j]);
			buf_addstr(&c[j], l.head[j]);
		}
		md_row(out, c, &l);
		buf_addstr(out, l.md_rule);
		for (i = lo; i < hi; i++) {
			row_cells(json_array_get(rows, i), dec, same, NULL, c);
			buf_reset(&cell);
			md_esc(&cell, c[0].ptr);
			buf_reset(&c[0]);
			buf_addstr(&c[0], cell.ptr);
			md_row(out, c, &l);
		}
		if (geo) {
			geo_cells(geo, dec, NULL, c);
			buf_reset(&c[0]);
			buf_addstr(&c[0], "*geomean*");
			md_row(out, c, &l);
		}
	}
	for (i = 0; i < NCOL; i++)
		buf_release(&c[i]);
	buf_release(&cell);
}

/* ---------------------------------------------------------- HTML */

/* Used when templates/erg.css is absent. */
static const char builtin_css[] =
	"body{font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",sans-serif;margin:2rem auto;"
	"max-width:72rem;padding:0 1rem;color:#1b1b1b;background:#fff}\n"
	"table{border-collapse:collapse;margin:.5rem 0 1.5rem}\n"
	"th,td{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left;"
	"font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.num{text-align:right}\n"
	".tw{overflow-x:auto;max-width:100%}\n"
	"@media (prefers-color-scheme:dark){body{background:#111;color:#e8e8e8}"
	"th,td{border-color:#333}}\n";

/* Appended to either sheet: what only this page has. */
static const char diff_css[] =
	".diff-warning{border:2px solid var(--warn,#b00);background:var(--warn-bg,#fee);"
	"color:var(--warn,#b00);padding:.5rem 1rem;font-weight:bold}\n"
	"tr.geomean td{font-style:italic}\n"
	"td.sig{font-weight:bold}\n";

static void
html_cell(struct buf *out, const char *cls, const char *s)
{
	if (cls)
		html_printf(out, "<td class=\"%A\">%H</td>", cls, s);
	else
		html_printf(out, "<td>%H</td>", s);
}

static void
html_side(struct buf *out, const char *which, json_t *s)
{
	html_printf(out, "<dt>%H</dt><dd><code>%H</code>", which, jx_path_str(s, "run"));
	if (jx_path_str(s, "title"))
		html_printf(out, " \xe2\x80\x94 %H", jx_path_str(s, "title"));
	html_printf(out, "<br>");
	if (jx_path_str(s, "captured_at"))
		html_printf(out, "%H %H; ", json_is_null(json_object_get(s, "rounds")) ? "dated" :
			    "captured", jx_path_str(s, "captured_at"));
	if (json_is_null(json_object_get(s, "rounds")))
		html_printf(out, "%H; summary run: figures as published, no rounds</dd>\n",
			    jx_path_str(s, "machine"));
	else
		html_printf(out, "%H; %.0f round%H</dd>\n", jx_path_str(s, "machine"),
			    num(s, "rounds"), num(s, "rounds") == 1 ? "" : "s");
}

/* Text as it is: the HTML writer escapes it. */
static void
esc_raw(struct buf *b, const char *s)
{
	buf_addstr(b, s ? s : "");
}

void
diff_render_html(json_t *d, const char *css, struct buf *out)
{
	json_t *env = json_object_get(d, "environment");
	json_t *diffs = json_object_get(env, "differences"), *rows = json_object_get(d, "rows");
	json_t *arr, *geo;
	struct buf c[NCOL], cell = BUF_INIT;
	size_t i, j, t, lo, hi;
	int same = json_is_true(json_object_get(d, "same_data")), dec;
	struct layout l;

	layout_of(d, &l);
	for (i = 0; i < NCOL; i++)
		buf_init(&c[i], 0);
	html_printf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>erg diff: %H vs %H</title>\n<style>\n%R%R</style>\n</head>\n"
		    "<body class=\"erg-diff\">\n<main>\n<h1>erg diff</h1>\n<dl class=\"runs\">\n",
		    jx_path_str(d, "a.run"), jx_path_str(d, "b.run"), css ? css : builtin_css,
		    diff_css);
	html_side(out, "A", json_object_get(d, "a"));
	html_side(out, "B", json_object_get(d, "b"));
	html_printf(out, "</dl>\n<h2>Environment</h2>\n");
	buf_reset(&cell);
	groups_list(&cell, env);
	if (!json_array_size(diffs)) {
		html_printf(out, "<p>No differences (%H).</p>\n", cell.ptr);
	} else {
		struct buf n = BUF_INIT;

		count_sentence(&n, diffs);
		html_printf(out, "<p>%H (compared: %H).</p>\n<div class=\"tw\"><table class=\"env\">\n"
			    "<thead><tr><th>field</th><th>A</th><th>B</th></tr></thead>\n<tbody>\n",
			    n.ptr, cell.ptr);
		buf_release(&n);
		for (i = 0; i < json_array_size(diffs); i++) {
			json_t *e = json_array_get(diffs, i);

			html_printf(out, "<tr><td><code>%H</code></td>", jx_path_str(e, "field"));
			for (j = 0; j < 2; j++) {
				buf_reset(&cell);
				env_value(&cell, json_object_get(e, j ? "b" : "a"));
				html_cell(out, NULL, cell.ptr);
			}
			html_printf(out, "</tr>\n");
		}
		html_printf(out, "</tbody>\n</table></div>\n");
	}
	arr = json_object_get(d, "warnings");
	for (i = 0; i < json_array_size(arr); i++)
		html_printf(out, "<p class=\"diff-warning\"><strong>WARNING:</strong> %H</p>\n",
			    json_string_value(json_array_get(arr, i)));
	arr = json_object_get(d, "notes");
	for (i = 0; i < json_array_size(arr); i++)
		html_printf(out, "<p class=\"note\">Note: %H</p>\n",
			    json_string_value(json_array_get(arr, i)));
	for (j = 0; j < 2; j++) {
		json_t *only = json_object_get(d, j ? "only_in_b" : "only_in_a");

		for (t = 0; t < 3; t++) {
			buf_reset(&cell);
			if (only_list(&cell, only, (int)t, esc_text))
				html_printf(out, "<p class=\"note\">%H only in %H: %H</p>\n",
					    t == 0 ? "Targets" : t == 1 ? "Routes" : "Metrics",
					    j ? "B" : "A", cell.ptr);
		}
	}
	arr = json_object_get(d, "not_comparable");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_reset(&cell);
		not_comparable_text(&cell, json_array_get(arr, i), esc_text);
		html_printf(out, "<p class=\"note\">Not comparable (units differ): %H</p>\n",
			    cell.ptr);
	}
	html_printf(out, "<h2>Results</h2>\n");
	if (untested(d))
		html_printf(out, "<p class=\"no-test\"><strong>%H</strong></p>\n",
			    jx_path_str(d, "no_significance"));
	buf_reset(&cell);
	legend(&cell, d, "; ");
	html_printf(out, "<p class=\"legend\">%H.</p>\n", cell.ptr);
	buf_reset(&cell);
	summary_line(&cell, d);
	html_printf(out, "<p>%H.</p>\n", cell.ptr);
	for (t = 0; table_at(d, t, &lo, &hi, &geo); t++) {
		dec = table_decimals(d, lo, hi);
		buf_reset(&cell);
		table_title(&cell, json_array_get(rows, lo));
		html_printf(out, "<h3>%H</h3>\n<div class=\"tw\"><table class=\"diff\">\n<thead><tr>",
			    cell.ptr);
		for (j = 0; j < l.ncol; j++)
			html_printf(out, j && j < l.verdict ? "<th class=\"num\">%H</th>" :
				    "<th>%H</th>", l.head[j]);
		html_printf(out, "</tr></thead>\n<tbody>\n");
		for (i = lo; i < hi; i++) {
			json_t *row = json_array_get(rows, i);
			const char *v = jx_path_str(row, "verdict");

			row_cells(row, dec, same, NULL, c);
			/* names again from the JSON: html escaping, not the terminal cleaner */
			buf_reset(&cell);
			if (untested(d))
				target_text(&cell, row, esc_raw);
			else
				buf_addstr(&cell, jx_path_str(row, "target"));
			html_printf(out, "<tr><td>%H</td>", cell.ptr);
			for (j = 1; j < l.ncol; j++)
				html_cell(out, j != l.verdict ? "num" : untested(d) ? "untested" :
					  !strcmp(v, "~") ? "ns" : !strcmp(v, "?") ? "undecided" : "sig",
					  c[j].ptr);
			html_printf(out, "</tr>\n");
		}
		if (geo) {
			geo_cells(geo, dec, NULL, c);
			html_printf(out, "<tr class=\"geomean\">");
			for (j = 0; j < l.ncol; j++)
				html_cell(out, j ? "num" : NULL, c[j].ptr);
			html_printf(out, "</tr>\n");
		}
		html_printf(out, "</tbody>\n</table></div>\n");
	}
	html_printf(out, "</main>\n</body>\n</html>\n");
	for (i = 0; i < NCOL; i++)
		buf_release(&c[i]);
	buf_release(&cell);
}

/* ---------------------------------------------------------- JSON */

void
diff_render_json(json_t *d, struct buf *out)
{
	char *s = json_dumps(d, JSON_INDENT(2) | JSON_REAL_PRECISION(17));

	if (!s)
		die("out of memory");
	buf_addstr(out, s);
	buf_addch(out, '\n');
	free(s);
}

/* ------------------------------------------------------- command */

struct loaded {
	struct run_ref ref;
	struct buf id, dir;
	json_t *res;
};

/*
 * A run id under the archive, or a run directory: an energy session
 * (meta.json and timeline.jsonl) or a summary run (run.json), in that
 * order, as archive.c tells them apart.
 */
static int
resolve(const char *archive, const char *arg, struct loaded *l)
{
	struct buf cand = BUF_INIT, rj = BUF_INIT;
	size_t n = strlen(arg);
	enum run_kind kind = RUN_ENERGY_SESSION;
	int found = 0;

	while (n > 1 && arg[n - 1] == '/')
		n--;
	buf_add(&l->id, arg, n);
	if (arg[0] != '/') {
		buf_addf(&cand, "%s/%s", archive, l->id.ptr);
		if (session_detect(cand.ptr)) {
			buf_addstr(&l->dir, cand.ptr);
			found = 1;
		}
	}
	if (!found && session_detect(l->id.ptr)) {
		buf_addstr(&l->dir, l->id.ptr);
		found = 1;
	}
	if (!found && cand.len) {
		buf_addf(&rj, "%s/run.json", cand.ptr);
		if (path_exists(rj.ptr)) {
			buf_addstr(&l->dir, cand.ptr);
			found = 1;
			kind = RUN_SUMMARY;
		}
	}
	if (!found) {
		buf_reset(&rj);
		buf_addf(&rj, "%s/run.json", l->id.ptr);
		if (path_exists(rj.ptr)) {
			buf_addstr(&l->dir, l->id.ptr);
			found = 1;
			kind = RUN_SUMMARY;
		}
	}
	if (!found) {
		if (cand.len)
			error("'%s' is not a run: neither '%s' nor '%s' holds meta.json and "
			      "timeline.jsonl, or run.json", arg, cand.ptr, l->id.ptr);
		else
			error("'%s' is not a run directory (no meta.json and timeline.jsonl, "
			      "no run.json)", arg);
	}
	buf_release(&cand);
	buf_release(&rj);
	if (!found)
		return -1;
	l->ref.id = l->id.ptr;
	l->ref.dir = l->dir.ptr;
	l->ref.kind = kind;
	return 0;
}

static int
write_out(const char *path, const struct buf *b)
{
	FILE *f;

	if (!path) {
		if (fwrite(b->ptr, 1, b->len, stdout) != b->len || fflush(stdout))
			return error_errno("cannot write to standard output");
		return 0;
	}
	f = fopen(path, "w");
	if (!f)
		return error_errno("cannot open '%s' for writing", path);
	if (fwrite(b->ptr, 1, b->len, f) != b->len) {
		fclose(f);
		return error_errno("cannot write '%s'", path);
	}
	if (fclose(f))
		return error_errno("cannot write '%s'", path);
	return 0;
}

/*
 * Why css cannot be inlined into a self-contained page, or NULL: "</"
 * could end the <style> element, a NUL is not text, and @import or a
 * url() other than data: or #fragment would load something from outside.
 */
static const char *
css_refusal(const struct buf *css)
{
	const char *q;

	if (memchr(css->ptr, '\0', css->len))
		return "a NUL byte";
	if (strstr(css->ptr, "</"))
		return "'</'";
	for (q = css->ptr; *q; q++) {
		if (*q == '@' && !strncasecmp(q + 1, "import", 6))
			return "@import";
		if ((*q == 'u' || *q == 'U') && !strncasecmp(q, "url(", 4)) {
			const char *v = q + 4;

			while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r' || *v == '\f' ||
			       *v == '"' || *v == '\'')
				v++;
			if (strncasecmp(v, "data:", 5) && *v != '#')
				return "a url() to another resource";
		}
	}
	return NULL;
}

/* dir/erg.css, or NULL for the built-in sheet. */
static char *
load_css(const char *dir)
{
	struct buf p = BUF_INIT, css = BUF_INIT;
	char *s = NULL;
	const char *why;

	buf_addf(&p, "%s/erg.css", dir);
	if (path_is_file(p.ptr) && !input_read_all(p.ptr, input_max_small, &css)) {
		if ((why = css_refusal(&css)))
			warn("'%s' holds %s and cannot be inlined in a self-contained page; "
			     "using the built-in style", p.ptr, why);
		else
			s = buf_detach(&css, NULL);
	}
	buf_release(&p);
	buf_release(&css);
	return s;
}

static int PRINTF(1, 2)
usage_error(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	error("%s (see 'erg diff --help')", b.ptr);
	buf_release(&b);
	return 2;
}

int
diff_main(int argc, char **argv)
{
	const char *archive = "archive", *format = "text", *outpath = NULL;
	const char *tdir = "templates", *pos[2];
	struct loaded l[2];
	struct buf out = BUF_INIT;
	char *css = NULL, *ra = NULL, *rb = NULL;
	const char *same = NULL;
	json_t *d;
	int i, npos = 0, rc = 0, opts = 1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			fputs(diff_usage, stdout);
			return 0;
		} else if (opts && !strcmp(a, "--")) {
			opts = 0;
		} else if (opts && a[0] == '-' && a[1]) {
			if (strcmp(a, "--archive") && strcmp(a, "--format") && strcmp(a, "--out") &&
			    strcmp(a, "--templates"))
				return usage_error("unknown option '%s'", a);
			if (i + 1 >= argc)
				return usage_error("option '%s' needs a value", a);
			if (!strcmp(a, "--archive"))
				archive = argv[++i];
			else if (!strcmp(a, "--format"))
				format = argv[++i];
			else if (!strcmp(a, "--out"))
				outpath = argv[++i];
			else
				tdir = argv[++i];
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			return usage_error("too many arguments: '%s' (want two runs)", a);
		}
	}
	if (npos < 2)
		return usage_error("want two runs, A and B");
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
	    strcmp(format, "html"))
		return usage_error("unknown format '%s' (text, markdown, json or html)", format);
	if (!strcmp(format, "html") && !outpath)
		return usage_error("--format html needs --out FILE");

	memset(l, 0, sizeof(l));
	for (i = 0; i < 2; i++) {
		buf_init(&l[i].id, 0);
		buf_init(&l[i].dir, 0);
	}
	if (resolve(archive, pos[0], &l[0]) || resolve(archive, pos[1], &l[1])) {
		rc = 1;
		goto done;
	}
	ra = realpath(l[0].dir.ptr, NULL);
	rb = realpath(l[1].dir.ptr, NULL);
	if (ra && rb && !strcmp(ra, rb))
		same = "same run directory";
	l[0].res = build_process(&l[0].ref);
	if (l[0].res)
		l[1].res = same ? json_incref(l[0].res) : build_process(&l[1].ref);
	if (!l[0].res || !l[1].res) {
		rc = 1;
		goto done;
	}
	d = diff_compute(l[0].res, l[0].id.ptr, l[0].dir.ptr, l[1].res, l[1].id.ptr,
			 l[1].dir.ptr, same);
	if (json_array_size(json_object_get(d, "warnings"))) {
		size_t k;

		for (k = 0; k < json_array_size(json_object_get(d, "warnings")); k++)
			warn("%s", json_string_value(json_array_get(json_object_get(d, "warnings"), k)));
	}
	if (!strcmp(format, "text")) {
		diff_render_text(d, &out);
	} else if (!strcmp(format, "markdown")) {
		diff_render_markdown(d, &out);
	} else if (!strcmp(format, "json")) {
		diff_render_json(d, &out);
	} else {
		css = load_css(tdir);
		diff_render_html(d, css, &out);
	}
	json_decref(d);
	if (write_out(outpath, &out))
		rc = 1;
done:
	for (i = 0; i < 2; i++) {
		json_decref(l[i].res);
		buf_release(&l[i].id);
		buf_release(&l[i].dir);
	}
	free(ra);
	free(rb);
	free(css);
	buf_release(&out);
	return rc;
}
