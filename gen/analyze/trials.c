/*
 * trials.c - per-cell statistics and design checks of a trials run (see
 * trials.h).  Cells are found through a JSON object keyed by the cell's
 * identity, so a table of many rows groups in linear time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/integrate.h"
#include "analyze/stats.h"
#include "analyze/trials.h"
#include "base/buf.h"
#include "base/jsonx.h"
#include "base/num.h"
#include "base/util.h"

#define NELEM_ENERGY (sizeof(energy_cols) / sizeof(energy_cols[0]))

struct roles {
	int target, route, rep, seq;
	size_t *key, nkey, *x, nx, *metric, nmetric;
};

static void
roles_of(json_t *cols, struct roles *r)
{
	size_t j, n = json_array_size(cols);

	memset(r, 0, sizeof(*r));
	r->target = r->route = r->rep = r->seq = -1;
	r->key = xcalloc(n + 1, sizeof(size_t));
	r->x = xcalloc(n + 1, sizeof(size_t));
	r->metric = xcalloc(n + 1, sizeof(size_t));
	for (j = 0; j < n; j++) {
		const char *role = jx_path_str(json_array_get(cols, j), "role");

		if (!role)
			continue;
		if (!strcmp(role, "target"))
			r->target = (int)j;
		else if (!strcmp(role, "route"))
			r->route = (int)j;
		else if (!strcmp(role, "repetition"))
			r->rep = (int)j;
		else if (!strcmp(role, "sequence"))
			r->seq = (int)j;
		else if (!strcmp(role, "key"))
			r->key[r->nkey++] = j;
		else if (!strcmp(role, "x"))
			r->x[r->nx++] = j;
		else if (!strcmp(role, "metric"))
			r->metric[r->nmetric++] = j;
	}
}

static void
roles_free(struct roles *r)
{
	free(r->key);
	free(r->x);
	free(r->metric);
}

static const char *
col_name(json_t *cols, size_t j)
{
	return jx_path_str(json_array_get(cols, j), "name");
}

/* "nginx, GET /, runtime bun, connections 4": for checks and notes. */
static void
group_label(struct buf *b, json_t *g)
{
	const char *k;
	json_t *v;
	char tmp[NUM_TEXT_LEN];

	buf_addstr(b, jx_path_str(g, "target"));
	if (jx_path_str(g, "route"))
		buf_addf(b, ", %s", jx_path_str(g, "route"));
	json_object_foreach(json_object_get(g, "keys"), k, v)
		buf_addf(b, ", %s %s", k, json_string_value(v));
	json_object_foreach(json_object_get(g, "x"), k, v)
		buf_addf(b, ", %s %s", k, num_text(tmp, json_number_value(v)));
}

/* A text part of a cell's identity: "-" when absent, else its length
 * and the text. */
static void
key_part(struct buf *b, json_t *v)
{
	if (json_is_string(v))
		buf_addf(b, "%zu:%s", json_string_length(v), json_string_value(v));
	else
		buf_addch(b, '-');
}

struct rowref {
	double rep;
	size_t row;
};

static int
cmp_rowref(const void *pa, const void *pb)
{
	const struct rowref *a = pa, *b = pb;

	if (a->rep != b->rep)
		return a->rep < b->rep ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static json_t *
stat_json(json_t *o, const double *v, size_t n)
{
	struct summary s;
	json_t *ci = json_array();

	stats_summary(v, n, &s);
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	json_object_set_new(o, "mean", jx_real(s.mean));
	json_object_set_new(o, "sd", jx_real(s.sd));
	json_object_set_new(o, "cv", jx_real(s.cv));
	json_object_set_new(o, "median", jx_real(s.median));
	json_object_set_new(o, "min", jx_real(s.min));
	json_object_set_new(o, "max", jx_real(s.max));
	json_array_append_new(ci, jx_real(s.ci_lo));
	json_array_append_new(ci, jx_real(s.ci_hi));
	json_object_set_new(o, "ci95", ci);
	return o;
}

/* The metric the drift check follows: throughput, else the first. */
static size_t
primary_metric(json_t *cols, const struct roles *r)
{
	size_t i;

	for (i = 0; i < r->nmetric; i++)
		if (!strcmp(col_name(cols, r->metric[i]), "rps"))
			return r->metric[i];
	return r->metric[0];
}

/* What each trial's window gives, appended as metrics of the table. */
static const char *const energy_cols[][3] = {
	{ "energy_j", "Energy", "J" },
	{ "mean_w", "Mean power", "W" },
	{ "mj_per_req", "Energy per request", "mJ/req" },
};

static int
col_index(json_t *cols, const char *key, const char *value)
{
	json_t *c;
	size_t j;

	json_array_foreach(cols, j, c)
		if (jx_path_str(c, key) && !strcmp(jx_path_str(c, key), value))
			return (int)j;
	return -1;
}

static const char *
file_base(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/*
 * Energy per trial: each trial's window [start, end] integrated over the
 * run's power data as a session's windows are (power_integrate: the
 * overlap share of every sample, coverage the share of the window that
 * samples with energy cover), its mean power, and mJ per request from
 * the 'requests' column, else rps x the window.  Gross: trials runs give
 * no idle windows, so no floor is subtracted.  A trial not wholly inside
 * the power data is an error at its row; coverage under
 * TRIALS_MIN_COVERAGE is flagged per trial.
 */
static int
trial_energy(json_t *t, const char *path, const struct power_file *pf, size_t npf)
{
	json_t *cols = json_object_get(t, "columns"), *rows = json_object_get(t, "rows");
	json_t *lines = json_object_get(t, "lines"), *row, *cov, *low, *o;
	int js = col_index(cols, "role", "start"), je = col_index(cols, "role", "end");
	int jr = col_index(cols, "name", "requests"), jp = col_index(cols, "name", "rps");
	double lo = INFINITY, hi = -INFINITY, mincov = INFINITY;
	size_t i, k, nlow = 0;
	struct buf src = BUF_INIT;
	char ta[NUM_TEXT_LEN], tb[NUM_TEXT_LEN];
	int bad = 0;
	long head = jx_path_str(t, "format") && !strcmp(jx_path_str(t, "format"), "csv");

	if (js < 0 || je < 0) {
		if (!npf)
			return 0;
		return error_at(path, head, "the run has power data but the trials give no time: "
				"add 'start_ms' and 'end_ms' (Unix ms) or 'start' and 'end' "
				"(ISO 8601) columns");
	}
	if (!npf)
		return 0;
	if (jr >= 0 && strcmp(jx_path_str(json_array_get(cols, (size_t)jr), "role"), "metric"))
		jr = -1;
	if (jp >= 0 && strcmp(jx_path_str(json_array_get(cols, (size_t)jp), "role"), "metric"))
		jp = -1;
	for (k = 0; k < NELEM_ENERGY; k++)
		if (col_index(cols, "name", energy_cols[k][0]) >= 0)
			return error_at(path, head, "column '%s' is what erg derives from the power "
					"data for each trial; rename it", energy_cols[k][0]);
	for (i = 0; i < npf; i++) {
		if (!pf[i].n)
			continue;
		if (pf[i].s[0].start_ms < lo)
			lo = pf[i].s[0].start_ms;
		if (pf[i].s[pf[i].n - 1].end_ms > hi)
			hi = pf[i].s[pf[i].n - 1].end_ms;
		if (!i || pf[i].group != pf[i - 1].group)
			buf_addf(&src, "%s%s (%s)", src.len ? ", " : "", file_base(pf[i].path),
				 pf[i].source ? pf[i].source : "powermetrics");
	}
	cov = json_array();
	low = json_array();
	json_array_foreach(rows, i, row) {
		double a = json_number_value(json_array_get(row, (size_t)js));
		double b = json_number_value(json_array_get(row, (size_t)je)), req = NAN;
		long line = (long)json_integer_value(json_array_get(lines, i));
		struct pwin w;

		if (a < lo || b > hi) {
			bad = error_at(path, line, "the trial (%s to %s ms) is not inside the power "
				       "data (%s to %s ms): %s", num_text(ta, a), num_text(tb, b),
				       num_text((char[NUM_TEXT_LEN]){ 0 }, lo),
				       num_text((char[NUM_TEXT_LEN]){ 0 }, hi),
				       a < lo ? "it starts before the first sample" :
				       "it ends after the last sample");
			continue;
		}
		power_integrate(pf, npf, a, b, &w);
		if (jr >= 0 && json_is_number(json_array_get(row, (size_t)jr)))
			req = json_number_value(json_array_get(row, (size_t)jr));
		else if (jr < 0 && jp >= 0 && json_is_number(json_array_get(row, (size_t)jp)))
			req = json_number_value(json_array_get(row, (size_t)jp)) * (b - a) / 1000;
		json_array_append_new(row, jx_real(w.energy_j));
		json_array_append_new(row, jx_real(w.mean_watts));
		json_array_append_new(row, jx_real(req > 0 ? w.energy_j * 1000 / req : NAN));
		json_array_append_new(cov, jx_real(w.coverage));
		if (w.coverage < mincov)
			mincov = w.coverage;
		if (!(w.coverage >= TRIALS_MIN_COVERAGE) && ++nlow <= 20)
			json_array_append_new(low, json_integer(line));
	}
	if (bad) {
		json_decref(cov);
		json_decref(low);
		buf_release(&src);
		return -1;
	}
	for (k = 0; k < NELEM_ENERGY; k++) {
		json_t *c = json_object();

		json_object_set_new(c, "name", json_string(energy_cols[k][0]));
		json_object_set_new(c, "label", json_string(energy_cols[k][1]));
		json_object_set_new(c, "unit", json_string(energy_cols[k][2]));
		json_object_set_new(c, "recognised", json_true());
		json_object_set_new(c, "role", json_string("metric"));
		json_object_set_new(c, "numeric", json_true());
		json_object_set_new(c, "error", json_false());
		json_object_set_new(c, "derived", json_true());
		json_array_append_new(cols, c);
	}
	o = json_object();
	json_object_set_new(o, "source", json_string(src.ptr ? src.ptr : ""));
	json_object_set_new(o, "requests", json_string(jr >= 0 ? "column" : jp >= 0 ? "rps" :
						       "none"));
	json_object_set_new(o, "net", json_false());
	json_object_set_new(o, "coverage", cov);
	json_object_set_new(o, "min_coverage", jx_real(mincov));
	json_object_set_new(o, "threshold", json_real(TRIALS_MIN_COVERAGE));
	json_object_set_new(o, "low", json_integer((json_int_t)nlow));
	json_object_set_new(o, "low_lines", low);
	json_object_set_new(t, "energy", o);
	buf_release(&src);
	return 0;
}

static int
analyze_table(json_t *t, const char *dir, json_t *targets, json_t *tindex, size_t *rounds,
	      const struct power_file *pf, size_t npf)
{
	json_t *cols = json_object_get(t, "columns"), *rows = json_object_get(t, "rows");
	json_t *lines = json_object_get(t, "lines"), *index = json_object();
	json_t *groups = json_array(), *cells = json_array(), *checks = json_object(), *o;
	json_t *xcols = json_array(), *mcols = json_array(), *at;
	size_t nrows = json_array_size(rows), i, j, k, ng, *gof = xcalloc(nrows + 1, sizeof(size_t));
	size_t *cnt = NULL, *start = NULL, *fill = NULL, minn = SIZE_MAX, maxn = 0, nfail = 0, prim = 0;
	struct rowref *order = NULL;
	struct roles r;
	struct buf key = BUF_INIT, path = BUF_INIT, lab = BUF_INIT;
	const char *file = jx_path_str(t, "file");
	double *v = xcalloc(nrows + 1, sizeof(double));
	int bad = 0;
	char tmp[NUM_TEXT_LEN];

	buf_addf(&path, "%s/%s", dir, file);
	if (trial_energy(t, path.ptr, pf, npf)) {
		bad = -1;
		memset(&r, 0, sizeof(r));
		goto out;
	}
	roles_of(cols, &r);
	prim = primary_metric(cols, &r);
	/* each row's cell */
	for (i = 0; i < nrows; i++) {
		json_t *row = json_array_get(rows, i), *e;

		/* each part with its length, so no name can run into the next */
		buf_reset(&key);
		key_part(&key, json_array_get(row, (size_t)r.target));
		key_part(&key, r.route >= 0 ? json_array_get(row, (size_t)r.route) : NULL);
		for (k = 0; k < r.nkey; k++)
			key_part(&key, json_array_get(row, r.key[k]));
		for (k = 0; k < r.nx; k++)
			buf_addf(&key, "%s;",
				 num_text(tmp, json_number_value(json_array_get(row, r.x[k]))));
		if ((e = json_object_get(index, key.ptr))) {
			gof[i] = (size_t)json_integer_value(e);
			continue;
		}
		gof[i] = json_array_size(groups);
		json_object_set_new(index, key.ptr, json_integer((json_int_t)gof[i]));
		o = json_object();
		json_object_set(o, "target", json_array_get(row, (size_t)r.target));
		json_object_set_new(o, "route", r.route >= 0 && json_is_string(json_array_get(
			row, (size_t)r.route)) ? json_copy(json_array_get(row, (size_t)r.route))
					       : json_null());
		e = json_object();
		for (k = 0; k < r.nkey; k++)
			if (json_is_string(json_array_get(row, r.key[k])))
				json_object_set(e, col_name(cols, r.key[k]),
						json_array_get(row, r.key[k]));
		json_object_set_new(o, "keys", e);
		e = json_object();
		for (k = 0; k < r.nx; k++)
			json_object_set(e, col_name(cols, r.x[k]), json_array_get(row, r.x[k]));
		json_object_set_new(o, "x", e);
		json_array_append_new(groups, o);
	}
	ng = json_array_size(groups);
	/* rows by cell, then by repetition */
	cnt = xcalloc(ng + 1, sizeof(size_t));
	start = xcalloc(ng + 1, sizeof(size_t));
	fill = xcalloc(ng + 1, sizeof(size_t));
	order = xcalloc(nrows + 1, sizeof(*order));
	for (i = 0; i < nrows; i++)
		cnt[gof[i]]++;
	for (k = 1; k < ng; k++)
		start[k] = start[k - 1] + cnt[k - 1];
	for (i = 0; i < nrows; i++) {
		struct rowref *x = &order[start[gof[i]] + fill[gof[i]]++];

		x->row = i;
		x->rep = json_number_value(json_array_get(json_array_get(rows, i), (size_t)r.rep));
	}
	for (k = 0; k < ng; k++) {
		json_t *g = json_array_get(groups, k);
		struct rowref *x = order + start[k];

		qsort(x, cnt[k], sizeof(*x), cmp_rowref);
		for (i = 1; i < cnt[k]; i++)
			if (x[i].rep == x[i - 1].rep) {
				buf_reset(&lab);
				group_label(&lab, g);
				bad = error_at(path.ptr, (long)json_integer_value(json_array_get(lines,
								x[i].row)),
					       "repetition %s of '%s' is given twice (also line %ld)",
					       num_text(tmp, x[i].rep), lab.ptr,
					       (long)json_integer_value(json_array_get(lines,
								x[i - 1].row)));
			}
		buf_reset(&lab);
		group_label(&lab, g);
		json_object_set_new(g, "label", json_string(lab.ptr));
		json_object_set_new(g, "trials", json_integer((json_int_t)cnt[k]));
		if (cnt[k] < minn)
			minn = cnt[k];
		if (cnt[k] > maxn)
			maxn = cnt[k];
		for (j = 0; j < r.nmetric; j++) {
			json_t *c = json_object(), *vals = json_array(), *reps = json_array();
			json_t *col = json_array_get(cols, r.metric[j]);
			size_t n = 0;

			for (i = 0; i < cnt[k]; i++) {
				json_t *cv = json_array_get(json_array_get(rows, x[i].row), r.metric[j]);

				if (!json_is_number(cv))
					continue;
				v[n++] = json_number_value(cv);
				json_array_append_new(vals, json_real(v[n - 1]));
				json_array_append_new(reps, json_real(x[i].rep));
			}
			json_object_set_new(c, "group", json_integer((json_int_t)k));
			json_object_set(c, "metric", json_object_get(col, "name"));
			json_object_set(c, "label", json_object_get(col, "label"));
			json_object_set(c, "unit", json_object_get(col, "unit"));
			json_object_set_new(c, "values", vals);
			json_object_set_new(c, "repetitions", reps);
			stat_json(c, v, n);
			json_array_append_new(cells, c);
		}
	}
	if (bad)
		goto out;
	if (maxn > *rounds)
		*rounds = maxn;

	/* repetitions per cell */
	o = json_object();
	json_object_set_new(o, "ok", json_boolean(minn == maxn));
	json_object_set_new(o, "min", json_integer((json_int_t)minn));
	json_object_set_new(o, "max", json_integer((json_int_t)maxn));
	{
		json_t *un = json_array();

		for (k = 0; k < ng && minn != maxn; k++)
			if (cnt[k] != maxn && json_array_size(un) < 20)
				json_array_append(un, json_object_get(json_array_get(groups, k), "label"));
		json_object_set_new(o, "unequal", un);
	}
	json_object_set_new(checks, "repetitions", o);

	/* failed trials: an error column not 0 */
	{
		json_t *fc = json_array(), *fl = json_array();

		for (j = 0; j < r.nmetric; j++)
			if (json_is_true(jx_path(json_array_get(cols, r.metric[j]), "error")))
				json_array_append(fc, json_object_get(json_array_get(cols, r.metric[j]),
								      "name"));
		for (i = 0; i < nrows; i++) {
			int failed = 0;

			for (j = 0; j < r.nmetric; j++) {
				json_t *cv = json_array_get(json_array_get(rows, i), r.metric[j]);

				if (json_is_true(jx_path(json_array_get(cols, r.metric[j]), "error")) &&
				    json_is_number(cv) && json_number_value(cv) != 0)
					failed = 1;
			}
			if (failed && ++nfail <= 20)
				json_array_append(fl, json_array_get(lines, i));
		}
		o = json_object();
		json_object_set_new(o, "applies", json_boolean(json_array_size(fc) > 0));
		json_object_set_new(o, "ok", json_boolean(nfail == 0));
		json_object_set_new(o, "trials", json_integer((json_int_t)nfail));
		json_object_set_new(o, "of", json_integer((json_int_t)nrows));
		json_object_set_new(o, "columns", fc);
		json_object_set_new(o, "lines", fl);
		json_object_set_new(checks, "failed", o);
	}

	/* drift: trial order against the value relative to its cell's mean */
	o = json_object();
	json_object_set_new(o, "applies", json_boolean(r.seq >= 0));
	json_object_set_new(o, "column", r.seq >= 0 ? json_copy(json_object_get(
		json_array_get(cols, (size_t)r.seq), "name")) : json_null());
	json_object_set_new(o, "metric", json_string(col_name(cols, prim)));
	json_object_set_new(o, "threshold", json_real(TRIALS_DRIFT_RHO));
	if (r.seq >= 0) {
		double *mean = xcalloc(ng + 1, sizeof(double)), *sx = xcalloc(nrows + 1, sizeof(double));
		double *sy = xcalloc(nrows + 1, sizeof(double)), rho;
		size_t *mn = xcalloc(ng + 1, sizeof(size_t)), n = 0;

		for (i = 0; i < nrows; i++) {
			json_t *cv = json_array_get(json_array_get(rows, i), prim);

			if (json_is_number(cv)) {
				mean[gof[i]] += json_number_value(cv);
				mn[gof[i]]++;
			}
		}
		for (k = 0; k < ng; k++)
			mean[k] = mn[k] ? mean[k] / (double)mn[k] : NAN;
		for (i = 0; i < nrows; i++) {
			json_t *row = json_array_get(rows, i), *cv = json_array_get(row, prim);
			json_t *sv = json_array_get(row, (size_t)r.seq);

			if (!json_is_number(cv) || !json_is_number(sv) || !(mean[gof[i]] != 0))
				continue;
			sx[n] = json_number_value(sv);
			sy[n] = json_number_value(cv) / mean[gof[i]] - 1;
			n++;
		}
		rho = n >= 3 ? stats_spearman(sx, sy, n) : NAN;
		json_object_set_new(o, "rho", jx_real(rho));
		json_object_set_new(o, "n", json_integer((json_int_t)n));
		json_object_set_new(o, "ok", json_boolean(!(n >= TRIALS_DRIFT_MIN_N &&
							    fabs(rho) >= TRIALS_DRIFT_RHO)));
		free(mean);
		free(mn);
		free(sx);
		free(sy);
	} else {
		json_object_set_new(o, "rho", json_null());
		json_object_set_new(o, "n", json_integer(0));
		json_object_set_new(o, "ok", json_true());
	}
	json_object_set_new(checks, "drift", o);

	for (k = 0; k < r.nx; k++)
		json_array_append(xcols, json_object_get(json_array_get(cols, r.x[k]), "name"));
	for (k = 0; k < r.nmetric; k++)
		json_array_append(mcols, json_object_get(json_array_get(cols, r.metric[k]), "name"));

	/*
	 * The cross-run views: targets and routes, with a throughput where a
	 * cell is one per target and route: without x columns the cell; in a
	 * sweep (no other key) the cell at the highest x every target and
	 * route of the table has (x vectors compared column by column in
	 * table order), named in "at".
	 */
	at = NULL;
	if (r.nx && !r.nkey) {
		json_t *seen = json_object(), *pairs = json_object(), *e;
		size_t npairs, best = SIZE_MAX;

		for (k = 0; k < ng; k++) {
			json_t *g = json_array_get(groups, k);

			buf_reset(&key);
			key_part(&key, json_object_get(g, "target"));
			key_part(&key, json_object_get(g, "route"));
			json_object_set_new(pairs, key.ptr, json_true());
		}
		npairs = json_object_size(pairs);
		for (k = 0; k < ng; k++) {
			json_t *g = json_array_get(groups, k), *gx = json_object_get(g, "x");

			buf_reset(&key);
			for (i = 0; i < r.nx; i++)
				buf_addf(&key, "%s;", num_text(tmp, json_number_value(json_object_get(
						gx, col_name(cols, r.x[i])))));
			e = json_object_get(seen, key.ptr);
			json_object_set_new(seen, key.ptr, json_integer(e ? json_integer_value(e) + 1 : 1));
			if ((size_t)json_integer_value(json_object_get(seen, key.ptr)) != npairs)
				continue;
			if (best != SIZE_MAX) {
				json_t *bx = json_object_get(json_array_get(groups, best), "x");

				for (i = 0; i < r.nx; i++) {
					double a = json_number_value(json_object_get(gx, col_name(cols, r.x[i])));
					double b = json_number_value(json_object_get(bx, col_name(cols, r.x[i])));

					if (a != b) {
						if (a > b)
							best = k;
						break;
					}
				}
			} else {
				best = k;
			}
		}
		if (best != SIZE_MAX)
			at = json_object_get(json_array_get(groups, best), "x");
		json_decref(seen);
		json_decref(pairs);
	}
	for (k = 0; k < ng; k++) {
		json_t *g = json_array_get(groups, k), *tg, *e, *routes;
		const char *name = jx_path_str(g, "target"), *route = jx_path_str(g, "route");

		if (!(e = json_object_get(tindex, name))) {
			tg = json_object();
			json_object_set_new(tg, "name", json_string(name));
			json_object_set_new(tg, "headline", json_object());
			json_object_set_new(tg, "routes", json_array());
			json_array_append_new(targets, tg);
			e = json_object();
			json_object_set(e, "t", tg);
			json_object_set_new(e, "r", json_object());
			json_object_set_new(tindex, name, e);
		}
		tg = json_object_get(e, "t");
		routes = json_object_get(e, "r");
		if (route && !json_object_get(routes, route)) {
			json_t *ro = json_object();

			json_object_set_new(ro, "name", json_string(route));
			json_object_set_new(ro, "per", json_string("request"));
			json_array_append_new(json_object_get(tg, "routes"), ro);
			json_object_set(routes, route, ro);
		}
		if (route && !r.nkey && (!r.nx || (at && json_equal(at, json_object_get(g, "x")))))
			for (i = 0; i < json_array_size(cells); i++) {
				json_t *c = json_array_get(cells, i), *s;

				if ((size_t)json_integer_value(json_object_get(c, "group")) != k ||
				    strcmp(jx_path_str(c, "metric"), "rps"))
					continue;
				s = json_object();
				json_object_set(s, "mean", json_object_get(c, "mean"));
				json_object_set(s, "sd", json_object_get(c, "sd"));
				json_object_set(s, "n", json_object_get(c, "n"));
				if (r.nx)
					json_object_set(s, "at", at);
				json_object_set_new(json_object_get(routes, route), "rps", s);
			}
	}
out:
	json_object_set_new(t, "groups", groups);
	json_object_set_new(t, "cells", cells);
	json_object_set_new(t, "x_columns", xcols);
	json_object_set_new(t, "metrics", mcols);
	json_object_set_new(t, "primary", json_string(col_name(cols, prim)));
	json_object_set_new(t, "checks", checks);
	json_decref(index);
	roles_free(&r);
	free(gof);
	free(cnt);
	free(start);
	free(fill);
	free(order);
	free(v);
	buf_release(&key);
	buf_release(&path);
	buf_release(&lab);
	return bad ? -1 : 0;
}

int
trials_analyze(json_t *res, const char *dir)
{
	return trials_analyze_power(res, dir, NULL, 0);
}

int
trials_analyze_power(json_t *res, const char *dir, const struct power_file *pf, size_t npf)
{
	json_t *t, *targets = json_array(), *tindex = json_object();
	size_t i, rounds = 0;
	int bad = 0;

	json_array_foreach(json_object_get(res, "trials"), i, t)
		if (analyze_table(t, dir, targets, tindex, &rounds, pf, npf))
			bad = -1;
	json_decref(tindex);
	/* the targets of the trials, after any of its summary tables' */
	json_array_foreach(targets, i, t)
		json_array_append(json_object_get(res, "targets"), t);
	json_decref(targets);
	json_object_set_new(res, "rounds", json_integer((json_int_t)rounds));
	return bad;
}
