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
	"(default 'archive') or run directories (holding meta.json and\n"
	"timeline.jsonl).  Lists every difference of environment (machine,\n"
	"software, load settings, room temperature, energy source, rounds), then\n"
	"per target and route: mean +- SD over rounds in A and in B, delta % =\n"
	"(B/A - 1) * 100, the 95 % bootstrap CI of the ratio of means, the exact\n"
	"two-sided Mann-Whitney p over rounds, and the verdict: '~' when\n"
	"p > 0.05, else the delta; '?' when the rounds are too few for any\n"
	"difference to reach p <= 0.05.\n"
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
	json_t *rows, *geomeans, *notes, *warnings;
	json_t *only_a, *only_b;
	int energy_rows;
};

static void
add_note(json_t *notes, const char *s)
{
	size_t i;

	for (i = 0; i < json_array_size(notes); i++)
		if (!strcmp(json_string_value(json_array_get(notes, i)), s))
			return;
	json_array_append_new(notes, json_string(s));
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

static json_t *
env_flat(json_t *res, const struct envsrc *e, size_t rounds)
{
	static const char *const skip_start[] = { "ts", "event", NULL };
	json_t *out = json_object();

	if (!strcmp(e->path, "rounds"))
		json_object_set_new(out, "rounds", json_integer((json_int_t)rounds));
	else
		flatten(jx_path(res, e->path), e->field, out,
			!strcmp(e->path, "conditions.session_start") ? skip_start : NULL);
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
		json_t *fa = env_flat(c->a.res, e, rounds_a), *fb = env_flat(c->b.res, e, rounds_b);
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
	}
	if (os)
		buf_addf(&s, "%s%s", s.len ? ", " : "", os);
	out = json_string(s.len ? s.ptr : "unknown machine");
	buf_release(&s);
	return out;
}

static json_t *
side_json(json_t *res, const char *id, const char *dir, size_t rounds)
{
	json_t *o = json_object(), *v;

	json_object_set_new(o, "run", jstr(id));
	json_object_set_new(o, "dir", jstr(dir));
	v = json_object_get(res, "title");
	json_object_set_new(o, "title", json_is_string(v) ? json_deep_copy(v) : json_null());
	v = json_object_get(res, "captured_at");
	json_object_set_new(o, "captured_at", json_is_string(v) ? json_deep_copy(v) : json_null());
	json_object_set_new(o, "machine", machine_summary(res));
	json_object_set_new(o, "rounds", json_integer((json_int_t)rounds));
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

json_t *
diff_compute(json_t *a, const char *id_a, const char *dir_a, json_t *b,
	     const char *id_b, const char *dir_b, const char *same_reason)
{
	struct ctx c;
	json_t *d = json_object(), *summary = json_object();
	const char **routes = NULL;
	size_t nroutes = 0, aroutes = 0, i, k, ra, rb;
	size_t sig = 0, same = 0, undecided = 0;
	int machines_differ;

	memset(&c, 0, sizeof(c));
	side_scan(&c.a, a);
	side_scan(&c.b, b);
	if (!same_reason && json_array_size(json_object_get(a, "measurements")) &&
	    json_equal(json_object_get(a, "measurements"), json_object_get(b, "measurements")))
		same_reason = "identical measurements";
	c.same = same_reason != NULL;
	c.rows = json_array();
	c.geomeans = json_array();
	c.notes = json_array();
	c.warnings = json_array();
	c.only_a = json_object();
	c.only_b = json_object();
	ra = side_rounds(&c.a);
	rb = side_rounds(&c.b);

	json_object_set_new(d, "format", json_string("erg-diff/1"));
	json_object_set_new(d, "a", side_json(a, id_a, dir_a, ra));
	json_object_set_new(d, "b", side_json(b, id_b, dir_b, rb));
	json_object_set_new(d, "same_data", json_boolean(c.same));
	json_object_set_new(d, "same_data_reason", jx_string(same_reason));
	json_object_set_new(d, "method", method_json());
	json_object_set_new(d, "environment", environment(&c, ra, rb, &machines_differ));

	if (c.same) {
		struct buf s = BUF_INIT;

		buf_addf(&s, "A and B are the same data (%s): every delta is 0, every verdict "
			 "'~', and the CI of the ratio is exactly [1, 1] (no resampling)",
			 same_reason);
		add_note(c.notes, s.ptr);
		buf_release(&s);
	}
	only_in(&c, &c.a, &c.b, c.only_a);
	only_in(&c, &c.b, &c.a, c.only_b);

	for (i = 0; i < NELEM(head_metrics); i++)
		table(&c, &head_metrics[i], NULL);
	route_union(&c.a, &routes, &nroutes, &aroutes);
	route_union(&c.b, &routes, &nroutes, &aroutes);
	for (k = 0; k < nroutes; k++)
		for (i = 0; i < NELEM(route_metrics); i++)
			table(&c, &route_metrics[i], routes[k]);
	free(routes);

	if (machines_differ && c.energy_rows)
		json_array_append_new(c.warnings,
				      json_string("the machines differ and energy is compared: "
						  "powermetrics energy is an estimate and not "
						  "comparable across devices"));
	for (i = 0; i < json_array_size(c.rows); i++) {
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

	json_object_set_new(d, "warnings", c.warnings);
	json_object_set_new(d, "notes", c.notes);
	json_object_set_new(d, "only_in_a", c.only_a);
	json_object_set_new(d, "only_in_b", c.only_b);
	json_object_set_new(d, "rows", c.rows);
	json_object_set_new(d, "geomeans", c.geomeans);
	json_object_set_new(d, "summary", summary);
	side_free(&c.a);
	side_free(&c.b);
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

/* "mean ± sd (n)", the parts right-aligned to w when it is not NULL. */
static void
cell_sample(struct buf *b, json_t *s, int dec, const struct sample_w *w)
{
	struct buf t = BUF_INIT;

	fmt_fixed(&t, num(s, "mean"), dec);
	pad_left(b, t.ptr, w ? w->mean : 0);
	if (isfinite(num(s, "sd")) || (w && w->sd)) {
		buf_reset(&t);
		if (isfinite(num(s, "sd")))
			fmt_fixed(&t, num(s, "sd"), dec);
		buf_addstr(b, t.len ? " \xc2\xb1 " : "   ");
		pad_left(b, t.ptr, w ? w->sd : 0);
	}
	buf_reset(&t);
	buf_addf(&t, "(%.0f)", num(s, "n"));
	buf_addch(b, ' ');
	pad_left(b, t.ptr, w ? w->n : 0);
	buf_release(&t);
}

static void
sample_widths(json_t *s, int dec, struct sample_w *w)
{
	struct buf t = BUF_INIT;

	fmt_fixed(&t, num(s, "mean"), dec);
	w->mean = w->mean > width(t.ptr) ? w->mean : width(t.ptr);
	buf_reset(&t);
	if (isfinite(num(s, "sd"))) {
		fmt_fixed(&t, num(s, "sd"), dec);
		w->sd = w->sd > width(t.ptr) ? w->sd : width(t.ptr);
	}
	buf_reset(&t);
	buf_addf(&t, "(%.0f)", num(s, "n"));
	w->n = w->n > width(t.ptr) ? w->n : width(t.ptr);
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

/* "headline" or "route 'ping'"-like table titles. */
static void
table_title(struct buf *b, json_t *row)
{
	const char *route = jx_path_str(row, "route");
	const struct metric *m = metric_by_name(jx_path_str(row, "metric"));

	if (!route) {
		size_t i;

		for (i = 0; i < NELEM(head_metrics); i++)
			if (!strcmp(head_metrics[i].name, jx_path_str(row, "metric")))
				m = &head_metrics[i];
	}
	buf_addstr(b, route ? "route " : "headline");
	if (route)
		clean_text(b, route);
	buf_addf(b, ": %s (%s)", m ? m->label : jx_path_str(row, "metric"),
		 jx_path_str(row, "unit"));
}

static int
same_table(json_t *x, json_t *y)
{
	const char *rx = jx_path_str(x, "route"), *ry = jx_path_str(y, "route");

	if (strcmp(jx_path_str(x, "metric"), jx_path_str(y, "metric")))
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

static int
table_decimals(json_t *d, size_t lo, size_t hi)
{
	json_t *rows = json_object_get(d, "rows");
	double minabs = INFINITY, v;
	size_t i;
	const char *side[] = { "a.mean", "b.mean" }, **s;

	for (i = lo; i < hi; i++)
		for (s = side; s < side + 2; s++) {
			v = fabs(num(json_array_get(rows, i), *s));
			if (v > 0 && v < minabs)
				minabs = v;
		}
	return decimals_for(minabs);
}

#define NCOL 7

static const char *const col_head[NCOL] = {
	"target", "A mean \xc2\xb1 SD (n)", "B mean \xc2\xb1 SD (n)", "\xce\x94%",
	"B/A 95% CI", "p", "verdict",
};

/* Cells of one row (untrusted names cleaned) into c[NCOL]. */
static void
row_cells(json_t *row, int dec, int same, const struct sample_w *w, struct buf *c)
{
	size_t i;

	for (i = 0; i < NCOL; i++)
		buf_reset(&c[i]);
	clean_text(&c[0], jx_path_str(row, "target"));
	cell_sample(&c[1], json_object_get(row, "a"), dec, w);
	cell_sample(&c[2], json_object_get(row, "b"), dec, w);
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
		pad_left(&c[i], t.ptr, w ? w->mean : 0);
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

	buf_addf(b, "%.0f comparison%s: %.0f significant, %.0f ~, %.0f ?", num(s, "rows"),
		 num(s, "rows") == 1 ? "" : "s", num(s, "significant"),
		 num(s, "not_significant"), num(s, "undecided"));
}

/* "express, video of bun" lists of what one side alone has. */
static int
only_list(struct buf *b, json_t *only, int routes, void (*esc)(struct buf *, const char *))
{
	json_t *arr = json_object_get(only, routes ? "routes" : "targets");
	size_t i;

	for (i = 0; i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);

		if (i)
			buf_addstr(b, ", ");
		if (routes) {
			esc(b, jx_path_str(e, "route"));
			buf_addstr(b, " of ");
			esc(b, jx_path_str(e, "target"));
		} else {
			esc(b, json_string_value(e));
		}
	}
	return i > 0;
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
text_line(struct buf *out, struct buf *c, const size_t *w)
{
	size_t i;

	for (i = 0; i < NCOL; i++) {
		if (i)
			buf_addstr(out, "  ");
		if (i == 3 || i == 5)	/* delta and p: numbers, right-aligned */
			pad_left(out, c[i].ptr, w[i]);
		else
			text_pad(out, c[i].ptr, i + 1 < NCOL ? w[i] : 0);
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
		buf_addstr(out, "captured ");
		clean_text(out, jx_path_str(s, "captured_at"));
		buf_addstr(out, "; ");
	}
	clean_text(out, jx_path_str(s, "machine"));
	buf_addf(out, "; %.0f round%s\n", num(s, "rounds"), num(s, "rounds") == 1 ? "" : "s");
}

static void
groups_list(struct buf *b, json_t *env)
{
	json_t *g = json_object_get(env, "compared");
	size_t i;

	for (i = 0; i < json_array_size(g); i++)
		buf_addf(b, "%s%s", i ? ", " : "", json_string_value(json_array_get(g, i)));
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
		buf_addf(out, "environment: %zu difference%s (compared: ", json_array_size(diffs),
			 json_array_size(diffs) == 1 ? "" : "s");
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

		for (t = 0; t < 2; t++) {
			buf_reset(&cell);
			if (only_list(&cell, only, (int)t, esc_text))
				buf_addf(out, "%s only in %s: %s\n", t ? "routes" : "targets",
					 j ? "B" : "A", cell.ptr);
		}
	}
	buf_addch(out, '\n');
	legend(out, d, "\n");
	buf_addstr(out, "\n");
	summary_line(out, d);
	buf_addstr(out, "\n");

	for (t = 0; table_at(d, t, &lo, &hi, &geo); t++) {
		struct sample_w sw = { 0, 0, 0 };

		dec = table_decimals(d, lo, hi);
		for (i = lo; i < hi; i++) {
			sample_widths(jx_path(json_array_get(rows, i), "a"), dec, &sw);
			sample_widths(jx_path(json_array_get(rows, i), "b"), dec, &sw);
		}
		for (i = 0; i < NCOL; i++)
			w[i] = width(col_head[i]);
		for (i = lo; i <= hi; i++) {
			if (i < hi)
				row_cells(json_array_get(rows, i), dec, same, &sw, c);
			else if (geo)
				geo_cells(geo, dec, &sw, c);
			else
				break;
			for (j = 0; j < NCOL; j++)
				w[j] = w[j] > width(c[j].ptr) ? w[j] : width(c[j].ptr);
		}
		buf_addch(out, '\n');
		table_title(out, json_array_get(rows, lo));
		buf_addch(out, '\n');
		for (j = 0; j < NCOL; j++) {
			buf_reset(&c[j]);
			buf_addstr(&c[j], col_head[j]);
		}
		text_line(out, c, w);
		for (i = lo; i < hi; i++) {
			row_cells(json_array_get(rows, i), dec, same, &sw, c);
			text_line(out, c, w);
		}
		if (geo) {
			geo_cells(geo, dec, &sw, c);
			text_line(out, c, w);
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
md_row(struct buf *out, struct buf *c)
{
	size_t i;

	buf_addch(out, '|');
	for (i = 0; i < NCOL; i++) {
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
		buf_addstr(out, ", captured ");
		md_esc(out, jx_path_str(s, "captured_at"));
	}
	buf_addstr(out, "; ");
	md_esc(out, jx_path_str(s, "machine"));
	buf_addf(out, "; %.0f round%s\n", num(s, "rounds"), num(s, "rounds") == 1 ? "" : "s");
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
		buf_addf(out, "%zu difference%s (compared: ", json_array_size(diffs),
			 json_array_size(diffs) == 1 ? "" : "s");
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

		for (t = 0; t < 2; t++) {
			buf_reset(&cell);
			if (only_list(&cell, only, (int)t, md_esc))
				buf_addf(out, "- %s only in %s: %s\n", t ? "Routes" : "Targets",
					 j ? "B" : "A", cell.ptr);
		}
	}
	buf_addstr(out, "\n## Results\n\n");
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
		for (j = 0; j < NCOL; j++) {
			buf_reset(&c[j]);
			buf_addstr(&c[j], col_head[j]);
		}
		md_row(out, c);
		buf_addstr(out, "|---|---:|---:|---:|---|---:|---|\n");
		for (i = lo; i < hi; i++) {
			row_cells(json_array_get(rows, i), dec, same, NULL, c);
			buf_reset(&cell);
			md_esc(&cell, c[0].ptr);
			buf_reset(&c[0]);
			buf_addstr(&c[0], cell.ptr);
			md_row(out, c);
		}
		if (geo) {
			geo_cells(geo, dec, NULL, c);
			buf_reset(&c[0]);
			buf_addstr(&c[0], "*geomean*");
			md_row(out, c);
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
		html_printf(out, "captured %H; ", jx_path_str(s, "captured_at"));
	html_printf(out, "%H; %.0f round%H</dd>\n", jx_path_str(s, "machine"), num(s, "rounds"),
		    num(s, "rounds") == 1 ? "" : "s");
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
		html_printf(out, "<p>%zu difference%H (compared: %H).</p>\n<div class=\"tw\"><table class=\"env\">\n"
			    "<thead><tr><th>field</th><th>A</th><th>B</th></tr></thead>\n<tbody>\n",
			    json_array_size(diffs), json_array_size(diffs) == 1 ? "" : "s", cell.ptr);
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

		for (t = 0; t < 2; t++) {
			buf_reset(&cell);
			if (only_list(&cell, only, (int)t, esc_text))
				html_printf(out, "<p class=\"note\">%H only in %H: %H</p>\n",
					    t ? "Routes" : "Targets", j ? "B" : "A", cell.ptr);
		}
	}
	buf_reset(&cell);
	legend(&cell, d, "; ");
	html_printf(out, "<h2>Results</h2>\n<p class=\"legend\">%H.</p>\n", cell.ptr);
	buf_reset(&cell);
	summary_line(&cell, d);
	html_printf(out, "<p>%H.</p>\n", cell.ptr);
	for (t = 0; table_at(d, t, &lo, &hi, &geo); t++) {
		dec = table_decimals(d, lo, hi);
		buf_reset(&cell);
		table_title(&cell, json_array_get(rows, lo));
		html_printf(out, "<h3>%H</h3>\n<div class=\"tw\"><table class=\"diff\">\n<thead><tr>",
			    cell.ptr);
		for (j = 0; j < NCOL; j++)
			html_printf(out, j && j < 6 ? "<th class=\"num\">%H</th>" : "<th>%H</th>",
				    col_head[j]);
		html_printf(out, "</tr></thead>\n<tbody>\n");
		for (i = lo; i < hi; i++) {
			const char *v = jx_path_str(json_array_get(rows, i), "verdict");

			row_cells(json_array_get(rows, i), dec, same, NULL, c);
			/* names again from the JSON: html escaping, not the terminal cleaner */
			html_printf(out, "<tr><td>%H</td>", jx_path_str(json_array_get(rows, i), "target"));
			for (j = 1; j < NCOL; j++)
				html_cell(out, j == 6 ? (!strcmp(v, "~") ? "ns" : !strcmp(v, "?") ?
							 "undecided" : "sig") : "num", c[j].ptr);
			html_printf(out, "</tr>\n");
		}
		if (geo) {
			geo_cells(geo, dec, NULL, c);
			html_printf(out, "<tr class=\"geomean\">");
			for (j = 0; j < NCOL; j++)
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

/* A run id under the archive, or a run directory. */
static int
resolve(const char *archive, const char *arg, struct loaded *l)
{
	struct buf cand = BUF_INIT, rj = BUF_INIT;
	size_t n = strlen(arg);
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
	if (!found) {
		buf_addf(&rj, "%s/run.json", cand.len ? cand.ptr : l->id.ptr);
		if (path_is_file(rj.ptr) || (buf_reset(&rj), buf_addf(&rj, "%s/run.json", l->id.ptr),
					     path_is_file(rj.ptr)))
			error("'%s' is a summary run (run.json): it has no per-round values to "
			      "compare", arg);
		else if (cand.len)
			error("'%s' is not a run: neither '%s' nor '%s' holds meta.json and "
			      "timeline.jsonl", arg, cand.ptr, l->id.ptr);
		else
			error("'%s' is not a run directory (no meta.json and timeline.jsonl)", arg);
	}
	buf_release(&cand);
	buf_release(&rj);
	if (!found)
		return -1;
	l->ref.id = l->id.ptr;
	l->ref.dir = l->dir.ptr;
	l->ref.kind = RUN_ENERGY_SESSION;
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
