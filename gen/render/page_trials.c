/*
 * page_trials.c - the run page of a trials run (see page_trials.h).  The
 * top and the setup are the summary page's (both come from run.json);
 * what differs is that every cell has repetitions, so the page shows a
 * centre with its spread, every statistic, and the checks of the design.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/num.h"
#include "base/util.h"
#include "render/markdown.h"
#include "render/numfmt.h"
#include "render/page_summary.h"
#include "render/page_trials.h"
#include "render/svg.h"
#include "render/table.h"
#include "render/tmpl.h"
#include "render/view.h"

#define PM "\xc2\xb1"
#define RHO "\xcf\x81"
#define GE "\xe2\x89\xa5"

/* More cells than this get no charts (as summary tables of more rows). */
#define TRIALS_CHART_MAX_CELLS 1000

struct tt {
	json_t *t, *cols, *groups, *cells;
	size_t ng, nm;
	int median;		/* the centre is the median (else the mean) */
	int has_route;
	const char *base;	/* ids and file names */
};

static json_t *
cell_of(const struct tt *v, size_t g, size_t m)
{
	return json_array_get(v->cells, g * v->nm + m);
}

static json_t *
col_named(const struct tt *v, const char *name)
{
	json_t *c;
	size_t j;

	json_array_foreach(v->cols, j, c)
		if (jstr(c, "name") && !strcmp(jstr(c, "name"), name))
			return c;
	return NULL;
}

static int
is_error_metric(const struct tt *v, size_t m)
{
	json_t *c = col_named(v, jstr(cell_of(v, 0, m), "metric"));

	return c && json_is_true(json_object_get(c, "error"));
}

static double
centre(const struct tt *v, json_t *c)
{
	return jnum(c, v->median ? "median" : "mean");
}

/* Decimals for metric m: 4 significant digits of its smallest centre. */
static struct numfmt
metric_format(const struct tt *v, size_t m)
{
	double *x = xcalloc(v->ng + 1, sizeof(double));
	size_t g;
	struct numfmt f;

	for (g = 0; g < v->ng; g++)
		x[g] = centre(v, cell_of(v, g, m));
	f = NF_THOUS(numfmt_col_decimals(x, v->ng, 4, 0));
	free(x);
	return f;
}

static void
label_unit(struct buf *b, const char *label, const char *unit)
{
	buf_addstr(b, label);
	if (unit && *unit)
		buf_addf(b, " (%s)", unit);
}

/* The centre and its spread as the page states them. */
static void
centre_text(struct buf *b, const struct tt *v, json_t *c, struct numfmt f)
{
	if (v->median) {
		numfmt_add(b, jnum(c, "median"), f);
		if (isfinite(jnum(c, "min"))) {
			buf_addstr(b, " (");
			numfmt_add(b, jnum(c, "min"), f);
			buf_addstr(b, EN_DASH);
			numfmt_add(b, jnum(c, "max"), f);
			buf_addch(b, ')');
		}
	} else {
		numfmt_add(b, jnum(c, "mean"), f);
		buf_addstr(b, " " PM " ");
		numfmt_add(b, jnum(c, "sd"), f);
	}
}

/* ---- checks ------------------------------------------------------------ */

static void
check(json_t *list, int ok, const char *text)
{
	json_t *o = json_object();

	json_object_set_new(o, "ok", json_boolean(ok));
	set_s(o, "mark", ok ? "ok" : "warn");
	set_s(o, "text", text);
	json_array_append_new(list, o);
}

static json_t *
checks_view(const struct tt *v)
{
	json_t *list = json_array(), *x;
	const json_t *c = jpath(v->t, "checks.repetitions");
	struct buf b = BUF_INIT;
	size_t i;
	char tmp[64];

	if (json_is_true(json_object_get(c, "ok"))) {
		buf_addf(&b, "Repetitions per cell: %.0f in each of the %zu cells.", jnum(c, "min"),
			 v->ng);
	} else {
		buf_addf(&b, "Repetitions per cell are unequal: from %.0f to %.0f; fewer than %.0f in ",
			 jnum(c, "min"), jnum(c, "max"), jnum(c, "max"));
		json_array_foreach(json_object_get(c, "unequal"), i, x)
			buf_addf(&b, "%s'%s'", i ? ", " : "", json_string_value(x));
		buf_addstr(&b, ". Cells with fewer repetitions have wider intervals, and a test "
			   "between them has less power.");
	}
	check(list, json_is_true(json_object_get(c, "ok")), b.ptr);

	buf_reset(&b);
	c = jpath(v->t, "checks.failed");
	if (!json_is_true(json_object_get(c, "applies"))) {
		buf_addstr(&b, "Failed trials: not checked (no error column such as 'errors', "
			   "'failed' or 'non_2xx').");
		check(list, 1, b.ptr);
	} else {
		json_t *cols = json_object_get(c, "columns");

		if (json_is_true(json_object_get(c, "ok")))
			buf_addf(&b, "No failed trials: all %.0f have 0 in ", jnum(c, "of"));
		else
			buf_addf(&b, "%.0f of %.0f trials failed (not 0 in ", jnum(c, "trials"),
				 jnum(c, "of"));
		json_array_foreach(cols, i, x)
			buf_addf(&b, "%s'%s'", i ? (i + 1 == json_array_size(cols) ? " or " : ", ") : "",
				 json_string_value(x));
		if (json_is_true(json_object_get(c, "ok"))) {
			buf_addch(&b, '.');
		} else {
			buf_addstr(&b, "): line");
			buf_addstr(&b, json_array_size(json_object_get(c, "lines")) > 1 ? "s " : " ");
			json_array_foreach(json_object_get(c, "lines"), i, x)
				buf_addf(&b, "%s%lld", i ? ", " : "", (long long)json_integer_value(x));
			if (jnum(c, "trials") > (double)json_array_size(json_object_get(c, "lines")))
				buf_addstr(&b, ", ...");
			buf_addstr(&b, ". They are included in the statistics: their figures "
				   "describe failing requests too.");
		}
		check(list, json_is_true(json_object_get(c, "ok")), b.ptr);
	}

	buf_reset(&b);
	c = jpath(v->t, "checks.drift");
	if (!json_is_true(json_object_get(c, "applies"))) {
		buf_addstr(&b, "Drift over the session: not checked (no sequence column such as "
			   "'sequence' or 'trial' gives the order the trials ran in).");
		check(list, 1, b.ptr);
	} else {
		buf_addf(&b, "Trial order ('%s') against '%s' relative to its cell's mean: "
			 "Spearman " RHO " = ", jstr(c, "column"), jstr(c, "metric"));
		numfmt_add(&b, jnum(c, "rho"), NF_FIXED(2));
		snprintf(tmp, sizeof(tmp), "%.1f", jnum(c, "threshold"));
		buf_addf(&b, " over %.0f trials (flagged at |" RHO "| " GE " %s with at least 6). ",
			 jnum(c, "n"), tmp);
		if (json_is_true(json_object_get(c, "ok")))
			buf_addstr(&b, "No drift with trial order is apparent.");
		else
			buf_addstr(&b, "The figures drift with trial order (warm-up, throttling, "
				   "background work): later trials differ systematically from "
				   "earlier ones, so cells measured at different times are not "
				   "like for like.");
		check(list, json_is_true(json_object_get(c, "ok")), b.ptr);
	}
	c = json_object_get(v->t, "energy");
	if (c) {
		const char *req = jstr(c, "requests");

		buf_reset(&b);
		buf_addf(&b, "Energy per trial: each trial's start to end integrated over %s, "
			 "gross (the run gives no idle windows, so no idle floor is subtracted); "
			 "per request %s. ", jstr(c, "source"),
			 !strcmp(req, "column") ? "by the trial's 'requests'" :
			 !strcmp(req, "rps") ? "by 'rps' " "Ã" " (end " "â"
					       " start), as the table has no 'requests' column" :
			 "not computed (no 'requests' or 'rps' column)");
		if (jnum(c, "low") == 0) {
			buf_addstr(&b, "Power samples cover at least 95 % of every trial (lowest ");
			numfmt_add(&b, jnum(c, "min_coverage"), NF_PCT(1));
			buf_addstr(&b, " %).");
		} else {
			buf_addf(&b, "%.0f trial%s covered less than 95 %% by power samples (its "
				 "energy counts only what was covered): line", jnum(c, "low"),
				 jnum(c, "low") == 1 ? " is" : "s are");
			buf_addstr(&b, jnum(c, "low") > 1 ? "s " : " ");
			json_array_foreach(json_object_get(c, "low_lines"), i, x)
				buf_addf(&b, "%s%lld", i ? ", " : "", (long long)json_integer_value(x));
			if (jnum(c, "low") > (double)json_array_size(json_object_get(c, "low_lines")))
				buf_addstr(&b, ", ...");
			buf_addch(&b, '.');
		}
		check(list, jnum(c, "low") == 0, b.ptr);
	}
	buf_release(&b);
	return list;
}

/* ---- tables ------------------------------------------------------------ */

static void
group_cells(struct table *t, const struct tt *v, json_t *g)
{
	const char *k;
	json_t *x, *c;
	size_t j;

	if (v->has_route)
		table_text(t, jstr(g, "route"));
	json_array_foreach(v->cols, j, c)
		if (jstr(c, "role") && !strcmp(jstr(c, "role"), "key"))
			table_text(t, jstr(json_object_get(g, "keys"), jstr(c, "name")));
	json_object_foreach(json_object_get(g, "x"), k, x)
		table_num(t, num_of(x), NF_SHORT);
}

static void
group_cols(struct table *t, const struct tt *v)
{
	json_t *c;
	size_t j;
	struct buf b = BUF_INIT;

	if (v->has_route)
		table_col(t, "Route", NULL, 0);
	json_array_foreach(v->cols, j, c)
		if (jstr(c, "role") && !strcmp(jstr(c, "role"), "key"))
			table_col(t, jstr(c, "label"), NULL, 0);
	json_array_foreach(v->cols, j, c)
		if (jstr(c, "role") && !strcmp(jstr(c, "role"), "x"))
			table_col(t, jstr(c, "label"), *jstr(c, "unit") ? jstr(c, "unit") : NULL, 1);
	buf_release(&b);
}

static int
cells_table(struct sset *ids, const struct tt *v, const struct tmpl *rows_tp, json_t *o,
	    struct buf *md)
{
	struct table t;
	struct buf b = BUF_INIT, want = BUF_INIT;
	struct numfmt *f = xcalloc(v->nm + 1, sizeof(*f));
	size_t g, m;
	int rc;

	buf_addf(&want, "tbl-%s", v->base);
	table_init(&t, rows_tp, id_unique(ids, &want, NULL), NULL);
	buf_reset(&want);
	buf_addf(&want, "%s-h", jstr(o, "sid"));
	table_label(&t, want.ptr);
	table_md(&t);
	table_col(&t, "Target", NULL, 0);
	group_cols(&t, v);
	table_col(&t, "n", "trials", 1);
	for (m = 0; m < v->nm; m++) {
		json_t *c = cell_of(v, 0, m);

		f[m] = metric_format(v, m);
		table_col(&t, jstr(c, "label"), *jstr(c, "unit") ? jstr(c, "unit") : NULL, 1);
	}
	for (g = 0; g < v->ng; g++) {
		json_t *gr = json_array_get(v->groups, g);

		buf_reset(&want);
		buf_addf(&want, "cell-%s-", v->base);
		id_sanitise(&want, jstr(gr, "label"));
		table_row(&t, id_unique(ids, &want, NULL), jstr(gr, "target"));
		group_cells(&t, v, gr);
		table_num(&t, jnum(gr, "trials"), NF_FIXED(0));
		for (m = 0; m < v->nm; m++) {
			struct tcell tc = { NULL, 1, NULL, NULL, NULL, NULL };

			buf_reset(&b);
			centre_text(&b, v, cell_of(v, g, m), f[m]);
			tc.text = b.ptr;
			table_cell(&t, &tc);
		}
	}
	rc = table_end(&t);
	if (!rc) {
		json_object_set_new(o, "tbl", one(table_view(&t)));
		buf_add(md, table_md_text(&t)->ptr, table_md_text(&t)->len);
		buf_addch(md, '\n');
	}
	table_free(&t);
	free(f);
	buf_release(&b);
	buf_release(&want);
	return rc;
}

static int
stats_table(struct sset *ids, const struct tt *v, const struct tmpl *rows_tp, json_t *o)
{
	struct table t;
	struct buf want = BUF_INIT;
	size_t g, m;
	int rc;

	buf_addf(&want, "tbl-%s-stats", v->base);
	table_init(&t, rows_tp, id_unique(ids, &want, NULL),
		   "Every statistic per cell and metric over its repetitions: sample SD (n "
		   "\xe2\x88\x92 1), CV = SD / mean, 95 % CI of the mean by Student's t.");
	table_col(&t, "Cell", NULL, 0);
	table_col(&t, "Metric", NULL, 0);
	table_col(&t, "n", NULL, 1);
	table_col(&t, "Mean", NULL, 1);
	table_col(&t, "SD", NULL, 1);
	table_col(&t, "CV", "%", 1);
	table_col(&t, "Median", NULL, 1);
	table_col(&t, "Min", NULL, 1);
	table_col(&t, "Max", NULL, 1);
	table_col(&t, "95% CI of the mean", NULL, 1);
	for (m = 0; m < v->nm; m++) {
		struct numfmt f = metric_format(v, m);

		for (g = 0; g < v->ng; g++) {
			json_t *c = cell_of(v, g, m), *gr = json_array_get(v->groups, g);
			struct buf mu = BUF_INIT;

			buf_reset(&want);
			buf_addf(&want, "stat-%s-", v->base);
			id_sanitise(&want, jstr(gr, "label"));
			buf_addch(&want, '-');
			id_sanitise(&want, jstr(c, "metric"));
			table_row(&t, id_unique(ids, &want, NULL), jstr(gr, "label"));
			label_unit(&mu, jstr(c, "label"), jstr(c, "unit"));
			table_text(&t, mu.ptr);
			buf_release(&mu);
			table_num(&t, jnum(c, "n"), NF_FIXED(0));
			table_num(&t, jnum(c, "mean"), f);
			table_num(&t, jnum(c, "sd"), f);
			table_num(&t, jnum(c, "cv"), NF_PCT(1));
			table_num(&t, jnum(c, "median"), f);
			table_num(&t, jnum(c, "min"), f);
			table_num(&t, jnum(c, "max"), f);
			table_range(&t, num_of(json_array_get(json_object_get(c, "ci95"), 0)),
				    num_of(json_array_get(json_object_get(c, "ci95"), 1)), f);
		}
	}
	rc = table_end(&t);
	if (!rc)
		json_object_set_new(o, "stats", one(table_view(&t)));
	table_free(&t);
	buf_release(&want);
	return rc;
}

/* ---- charts ------------------------------------------------------------ */

/* A cell's series: its label without the x column xname. */
static void
series_label(struct buf *b, json_t *g, const char *xname)
{
	const char *k;
	json_t *x;
	char tmp[NUM_TEXT_LEN];

	buf_addstr(b, jstr(g, "target"));
	if (jstr(g, "route"))
		buf_addf(b, ", %s", jstr(g, "route"));
	json_object_foreach(json_object_get(g, "keys"), k, x)
		buf_addf(b, ", %s %s", k, json_string_value(x));
	json_object_foreach(json_object_get(g, "x"), k, x)
		if (!xname || strcmp(k, xname))
			buf_addf(b, ", %s %s", k, num_text(tmp, json_number_value(x)));
}

static void
chart_id(struct sset *ids, struct buf *b, const struct tt *v, const char *metric, const char *x)
{
	buf_reset(b);
	buf_addf(b, "chart-%s-", v->base);
	id_sanitise(b, metric);
	if (x) {
		buf_addstr(b, "-by-");
		id_sanitise(b, x);
	}
	id_unique(ids, b, NULL);
}

/*
 * The chart style of each of ns series (si[g]: group g's series), when
 * every series is one target's: its slot among the table's targets
 * (view.h target_slot), so that a target keeps its colour and pattern in
 * every chart of the page.  NULL when a target has several series (routes,
 * keys): they are told apart by position then.
 */
static size_t *
target_styles(const struct tt *v, const size_t *si, size_t ns)
{
	json_t *names = json_array();
	const char **tgt = xcalloc(ns + 1, sizeof(*tgt));
	size_t g, k, *style = NULL;
	int ok = 1;

	for (g = 0; g < v->ng; g++) {
		const char *t = jstr(json_array_get(v->groups, g), "target");

		if (!t || (tgt[si[g]] && strcmp(tgt[si[g]], t)))
			ok = 0;
		else if (!tgt[si[g]])
			tgt[si[g]] = t;
	}
	for (k = 0; ok && k < ns; k++) {
		size_t j;

		for (j = 0; tgt[k] && j < k; j++)
			if (!strcmp(tgt[j], tgt[k]))
				ok = 0;	/* a target with two series */
		if (!tgt[k])
			ok = 0;
		else
			json_array_append_new(names, json_pack("{s:s}", "name", tgt[k]));
	}
	if (ok) {
		style = xcalloc(ns + 1, sizeof(*style));
		for (k = 0; k < ns; k++)
			style[k] = target_slot(names, tgt[k]);
	}
	free(tgt);
	json_decref(names);
	return style;
}

/* The centre of each metric against x column xcol, one line per series. */
static void
lines_by(struct sset *ids, const struct tt *v, json_t *xcol, json_t *list)
{
	const char *xname = jstr(xcol, "name");
	char **sl = NULL;
	size_t ns = 0, sa = 0, g, m, k, *si = xcalloc(v->ng + 1, sizeof(size_t)), *style;
	struct buf b = BUF_INIT, svg = BUF_INIT, cap = BUF_INIT, yl = BUF_INIT, xl = BUF_INIT;
	struct buf id = BUF_INIT, title = BUF_INIT;

	for (g = 0; g < v->ng; g++) {
		buf_reset(&b);
		series_label(&b, json_array_get(v->groups, g), xname);
		si[g] = strlist_index(&sl, &ns, &sa, b.ptr);
	}
	style = target_styles(v, si, ns);
	label_unit(&xl, jstr(xcol, "label"), jstr(xcol, "unit"));
	for (m = 0; m < v->nm; m++) {
		struct svg_band *s = xcalloc(ns + 1, sizeof(*s));
		double *buf = xcalloc(4 * (v->ng + 1), sizeof(double));
		json_t *c0 = cell_of(v, 0, m);
		struct svg_frame f = { 0 };

		if (is_error_metric(v, m)) {
			free(s);
			free(buf);
			continue;
		}
		for (k = 0; k < ns; k++) {
			size_t n = 0;
			double *x = buf, *y = x + v->ng, *lo = y + v->ng, *hi = lo + v->ng;

			/* points in x order (insertion: a series has a few points) */
			for (g = 0; g < v->ng; g++) {
				json_t *c = cell_of(v, g, m);
				double xv = jnum(json_object_get(json_array_get(v->groups, g), "x"), xname);
				size_t p;

				if (si[g] != k)
					continue;
				p = n++;
				while (p > 0 && x[p - 1] > xv) {
					x[p] = x[p - 1];
					y[p] = y[p - 1];
					lo[p] = lo[p - 1];
					hi[p] = hi[p - 1];
					p--;
				}
				x[p] = xv;
				y[p] = centre(v, c);
				lo[p] = jnum(c, "min");
				hi[p] = jnum(c, "max");
			}
			s[k].label = sl[k];
			s[k].n = 0;
			s[k].x = xcalloc(n + 1, sizeof(double));
			s[k].y = xcalloc(n + 1, sizeof(double));
			s[k].lo = xcalloc(n + 1, sizeof(double));
			s[k].hi = xcalloc(n + 1, sizeof(double));
			memcpy((double *)s[k].x, x, n * sizeof(double));
			memcpy((double *)s[k].y, y, n * sizeof(double));
			memcpy((double *)s[k].lo, lo, n * sizeof(double));
			memcpy((double *)s[k].hi, hi, n * sizeof(double));
			s[k].n = n;
		}
		buf_reset(&yl);
		buf_reset(&title);
		buf_reset(&cap);
		label_unit(&yl, jstr(c0, "label"), jstr(c0, "unit"));
		chart_id(ids, &id, v, jstr(c0, "metric"), xname);
		buf_addf(&title, "%s by %s", jstr(c0, "label"), jstr(xcol, "label"));
		{
			struct buf others = BUF_INIT;
			json_t *oc;
			size_t j;

			/* the other x columns are held: a line per value of them */
			json_array_foreach(v->cols, j, oc)
				if (jstr(oc, "role") && !strcmp(jstr(oc, "role"), "x") &&
				    strcmp(jstr(oc, "name"), xname))
					buf_addf(&others, "%s%s", others.len ? " and " :
						 " and value of ", jstr(oc, "label"));
			buf_addf(&cap, "%s of the repetitions of each cell against %s, %s%s; the "
				 "band spans the lowest to the highest repetition.",
				 v->median ? "Median" : "Mean", xl.ptr, ns > 1 || others.len ?
				 "one line per target (and route)" : "one line",
				 others.len ? others.ptr : "");
			buf_release(&others);
		}
		f.id = id.ptr;
		f.title = title.ptr;
		f.desc = cap.ptr;
		f.xlabel = xl.ptr;
		f.ylabel = yl.ptr;
		f.style = style;
		svg_band_lines(&svg, &f, ns, s);
		figure(list, &svg, cap.ptr);
		for (k = 0; k < ns; k++) {
			free((double *)s[k].x);
			free((double *)s[k].y);
			free((double *)s[k].lo);
			free((double *)s[k].hi);
		}
		free(s);
		free(buf);
	}
	strlist_free(sl, ns);
	free(si);
	free(style);
	buf_release(&b);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&yl);
	buf_release(&xl);
	buf_release(&id);
	buf_release(&title);
}

/* No x column: grouped bars, routes along the axis, one bar per target. */
static void
bars(struct sset *ids, const struct tt *v, json_t *list)
{
	char **gl = NULL, **sl = NULL;
	size_t ngr = 0, ga = 0, ns = 0, sa = 0, g, m;
	size_t *gi = xcalloc(v->ng + 1, sizeof(size_t)), *si = xcalloc(v->ng + 1, sizeof(size_t));
	size_t *style;
	struct buf b = BUF_INIT, svg = BUF_INIT, cap = BUF_INIT, yl = BUF_INIT, id = BUF_INIT;
	struct buf title = BUF_INIT;

	for (g = 0; g < v->ng; g++) {
		json_t *gr = json_array_get(v->groups, g);
		const char *k;
		json_t *x;

		gi[g] = strlist_index(&gl, &ngr, &ga, jstr(gr, "route") ? jstr(gr, "route") : "all");
		buf_reset(&b);
		buf_addstr(&b, jstr(gr, "target"));
		json_object_foreach(json_object_get(gr, "keys"), k, x)
			buf_addf(&b, ", %s %s", k, json_string_value(x));
		si[g] = strlist_index(&sl, &ns, &sa, b.ptr);
	}
	style = target_styles(v, si, ns);
	for (m = 0; m < v->nm; m++) {
		double *val = xcalloc(ngr * ns + 1, sizeof(double));
		double *err = xcalloc(ngr * ns + 1, sizeof(double));
		json_t *c0 = cell_of(v, 0, m);
		struct svg_frame f = { 0 };
		struct svg_groups sg = { 0 };

		if (is_error_metric(v, m)) {
			free(val);
			free(err);
			continue;
		}
		for (g = 0; g < ngr * ns; g++)
			val[g] = err[g] = NAN;
		for (g = 0; g < v->ng; g++) {
			json_t *c = cell_of(v, g, m);

			val[gi[g] * ns + si[g]] = centre(v, c);
			err[gi[g] * ns + si[g]] = v->median ? NAN : jnum(c, "sd");
		}
		buf_reset(&yl);
		buf_reset(&title);
		buf_reset(&cap);
		label_unit(&yl, jstr(c0, "label"), jstr(c0, "unit"));
		chart_id(ids, &id, v, jstr(c0, "metric"), NULL);
		buf_addf(&title, "%s per target", jstr(c0, "label"));
		if (v->median)
			buf_addstr(&cap, "Median of the repetitions of each cell (the table gives "
				   "the range of the repetitions).");
		else
			buf_addstr(&cap, "Mean of the repetitions of each cell, whiskers " PM " 1 SD.");
		sg.ngroups = ngr;
		sg.nseries = ns;
		sg.group_labels = (const char *const *)gl;
		sg.series_labels = (const char *const *)sl;
		sg.value = val;
		sg.err = v->median ? NULL : err;
		f.id = id.ptr;
		f.title = title.ptr;
		f.desc = cap.ptr;
		f.xlabel = "Route";
		f.ylabel = yl.ptr;
		f.style = style;
		svg_grouped_bars(&svg, &f, &sg);
		figure(list, &svg, cap.ptr);
		free(val);
		free(err);
	}
	strlist_free(gl, ngr);
	strlist_free(sl, ns);
	free(gi);
	free(si);
	free(style);
	buf_release(&b);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&yl);
	buf_release(&id);
	buf_release(&title);
}

/* ---- CSV --------------------------------------------------------------- */

static void
cells_csv(struct buf *b, const struct tt *v)
{
	static const char *const stat[] = { "n", "mean", "sd", "cv", "median", "min", "max" };
	json_t *c;
	size_t i, k;

	buf_addstr(b, "target,route,keys,x,metric,unit");
	for (k = 0; k < 7; k++)
		buf_addf(b, ",%s", stat[k]);
	buf_addstr(b, ",ci95_lo,ci95_hi\r\n");
	json_array_foreach(v->cells, i, c) {
		json_t *g = json_array_get(v->groups, (size_t)jnum(c, "group"));
		struct buf s = BUF_INIT;
		const char *key;
		json_t *x;
		char tmp[NUM_TEXT_LEN];

		csv_str(b, jstr(g, "target"), strlen(jstr(g, "target")));
		buf_addch(b, ',');
		if (jstr(g, "route"))
			csv_str(b, jstr(g, "route"), strlen(jstr(g, "route")));
		buf_addch(b, ',');
		json_object_foreach(json_object_get(g, "keys"), key, x)
			buf_addf(&s, "%s%s=%s", s.len ? "; " : "", key, json_string_value(x));
		csv_str(b, s.ptr ? s.ptr : "", s.len);
		buf_addch(b, ',');
		buf_reset(&s);
		json_object_foreach(json_object_get(g, "x"), key, x)
			buf_addf(&s, "%s%s=%s", s.len ? "; " : "", key,
				 num_text(tmp, json_number_value(x)));
		csv_str(b, s.ptr ? s.ptr : "", s.len);
		buf_release(&s);
		buf_addch(b, ',');
		csv_str(b, jstr(c, "metric"), strlen(jstr(c, "metric")));
		buf_addch(b, ',');
		csv_str(b, jstr(c, "unit"), strlen(jstr(c, "unit")));
		for (k = 0; k < 7; k++) {
			buf_addch(b, ',');
			numfmt_csv(b, jnum(c, stat[k]));
		}
		buf_addch(b, ',');
		numfmt_csv(b, num_of(json_array_get(json_object_get(c, "ci95"), 0)));
		buf_addch(b, ',');
		numfmt_csv(b, num_of(json_array_get(json_object_get(c, "ci95"), 1)));
		buf_addstr(b, "\r\n");
	}
}

/* ---- the page ---------------------------------------------------------- */

static int
write_file(struct render_ctx *c, const char *id, const char *name, const struct buf *b)
{
	struct buf rel = BUF_INIT;
	int rc;

	buf_addf(&rel, "runs/%s/%s", id, name);
	rc = sink_write(&c->out, rel.ptr, b->ptr, b->len);
	buf_release(&rel);
	return rc;
}

static json_t *
caveats(const json_t *res, int median)
{
	json_t *cav = json_array(), *x;
	size_t i;

	json_array_append_new(cav, S(median ?
		"The centre of each cell is the median of its repetitions, as the run asks "
		"(run.json \"centre\"), with the lowest and highest repetition beside it." :
		"The centre of each cell is the mean of its repetitions (run.json \"centre\" "
		"may ask for the median), with the sample SD beside it."));
	json_array_append_new(cav, S(
		"The 95 % interval is Student's t over the repetitions of a cell: it assumes "
		"the repetitions are independent, which drift or a warm-up would break (see "
		"the checks)."));
	json_array_append_new(cav, S(
		"erg did not run these trials: it reads the harness's table as written and "
		"cannot check the figures against raw load-generator output."));
	json_array_foreach(json_object_get(res, "caveats"), i, x)
		if (json_is_string(x))
			json_array_append_new(cav, S(json_string_value(x)));
	/* what reading the power data warned about (files not read, gaps) */
	json_array_foreach(json_object_get(res, "warnings"), i, x) {
		struct buf b = BUF_INIT;

		buf_addf(&b, "%s", jstr(x, "file") ? jstr(x, "file") : "");
		if (json_is_integer(json_object_get(x, "line")))
			buf_addf(&b, ":%lld", (long long)json_integer_value(json_object_get(x, "line")));
		buf_addf(&b, ": %s", jstr(x, "message") ? jstr(x, "message") : "");
		json_array_append_new(cav, S(b.ptr));
		buf_release(&b);
	}
	return cav;
}

int
render_trials_run(struct render_ctx *c, json_t *res)
{
	static const char *const fixed[] = {
		"top", "trials", "trials-h", "setup", "setup-h", "setup-machine", "setup-software",
		"setup-load", "setup-source", "setup-conditions", "notes", "notes-h", "caveats",
		"caveats-h", "files", "files-h", "method", "method-h", NULL,
	};
	struct sset ids = { 0 };
	struct tmpl *tp = NULL;
	json_t *view = NULL, *secs, *t;
	const char *id = jstr(res, "run"), *md;
	struct buf page = BUF_INIT, mdb = BUF_INIT, notes = BUF_INIT, b = BUF_INIT, csv = BUF_INIT;
	size_t i;
	long depth;
	int rc = -1, median = jstr(res, "centre") && !strcmp(jstr(res, "centre"), "median");

	if (!id)
		return error("results without a run id ('run' missing or not a string)");
	if ((depth = run_depth(id)) < 0)
		return error("run id '%s' is not a relative path", id);
	if (!(tp = tmpl_load(c->tmpl_dir, "trials")))
		return -1;
	for (i = 0; fixed[i]; i++)
		sset_add(&ids, fixed[i]);
	view = json_object();
	summary_page_top(view, res, id, (size_t)depth);
	json_object_set_new(view, "caveats", caveats(res, median));
	json_object_set_new(view, "median", json_boolean(median));
	set_s(view, "centre_text", median ?
	      "the median of the repetitions, with their range (lowest " EN_DASH " highest) in "
	      "brackets" : "the mean of the repetitions " PM " their sample SD");
	buf_addf(&b, "%.0f", jnum(res, "rounds"));
	set_s(view, "rounds", b.ptr);

	buf_addstr(&mdb, "## ");
	md_text(&mdb, jstr(res, "title") ? jstr(res, "title") : id);
	buf_addstr(&mdb, "\n\nRun ");
	md_text(&mdb, id);
	buf_addstr(&mdb, median ? ". Median of the repetitions (lowest" EN_DASH "highest).\n\n" :
		   ". Mean of the repetitions " PM " SD.\n\n");

	secs = json_array();
	json_object_set_new(view, "tables", secs);
	json_array_foreach(json_object_get(res, "trials"), i, t) {
		struct tt v;
		json_t *o = json_object(), *charts = json_array(), *g, *col;
		struct buf base = BUF_INIT, want = BUF_INIT;
		const char *file = jstr(t, "file") ? jstr(t, "file") : "trials";
		const char *slash = strrchr(file, '/'), *dot;
		size_t k;
		int bad = 0;

		json_array_append_new(secs, o);
		memset(&v, 0, sizeof(v));
		v.t = t;
		v.cols = json_object_get(t, "columns");
		v.groups = json_object_get(t, "groups");
		v.cells = json_object_get(t, "cells");
		v.ng = json_array_size(v.groups);
		v.nm = json_array_size(json_object_get(t, "metrics"));
		v.median = median;
		json_array_foreach(v.groups, k, g)
			if (jstr(g, "route"))
				v.has_route = 1;
		slash = slash ? slash + 1 : file;
		dot = strrchr(slash, '.');
		buf_add(&want, slash, dot ? (size_t)(dot - slash) : strlen(slash));
		id_sanitise(&base, want.ptr);
		buf_reset(&want);
		buf_addf(&want, "trials-%s", base.ptr);
		v.base = base.ptr;
		set_s(o, "sid", id_unique(&ids, &want, (const char *const[]){ "-h", NULL }));
		set_s(o, "file", file);
		buf_reset(&b);
		buf_addf(&b, "%zu trials in %zu cells", json_array_size(json_object_get(t, "rows")),
			 v.ng);
		set_s(o, "lead", b.ptr);
		buf_reset(&b);
		buf_addf(&b, "trials-%s.csv", base.ptr);
		set_s(o, "csv", b.ptr);
		buf_reset(&b);
		buf_addf(&b, "cells-%s.csv", base.ptr);
		set_s(o, "cells_csv", b.ptr);
		json_object_set_new(o, "checks", checks_view(&v));
		json_object_set_new(o, "nochart", json_null());
		json_object_set_new(o, "tbl", json_array());
		json_object_set_new(o, "stats", json_array());
		buf_addstr(&mdb, "### ");
		md_text(&mdb, file);
		buf_addstr(&mdb, "\n\n");
		if (v.ng && v.nm) {
			bad |= cells_table(&ids, &v, render_rows(c), o, &mdb) != 0;
			bad |= stats_table(&ids, &v, render_rows(c), o) != 0;
		}
		if (v.ng > TRIALS_CHART_MAX_CELLS) {
			buf_reset(&b);
			buf_addf(&b, "No charts: %zu cells are more than a chart can show (at most "
				 "%d); the tables and the CSV hold every value.", v.ng,
				 TRIALS_CHART_MAX_CELLS);
			set_s(o, "nochart", b.ptr);
		} else if (v.ng && v.nm) {
			int any_x = 0;

			json_array_foreach(v.cols, k, col)
				if (jstr(col, "role") && !strcmp(jstr(col, "role"), "x")) {
					lines_by(&ids, &v, col, charts);
					any_x = 1;
				}
			if (!any_x)
				bars(&ids, &v, charts);
		}
		json_object_set_new(o, "charts", charts);
		/* the downloads */
		buf_reset(&csv);
		summary_csv(&csv, t);
		bad |= write_file(c, id, jstr(o, "csv"), &csv) != 0;
		buf_reset(&csv);
		cells_csv(&csv, &v);
		bad |= write_file(c, id, jstr(o, "cells_csv"), &csv) != 0;
		buf_release(&base);
		buf_release(&want);
		if (bad)
			goto out;
	}

	md = jpath_str(res, "notes.markdown");
	if (md && *md) {
		struct md_opts mo = { 2, NULL, 0 };

		if (markdown_to_html_opts(md, strlen(md), &mo, &notes))
			goto out;
	}
	json_object_set_new(view, "notes", notes.len ? tmpl_rawn(notes.ptr, notes.len) : json_null());
	set_s(view, "notes_file", jpath_str(res, "notes.file"));
	if (write_file(c, id, "tables.md", &mdb))
		goto out;
	if (tmpl_render(tp, view, &page, 1))
		goto out;
	if (write_file(c, id, "index.html", &page))
		goto out;
	rc = 0;
out:
	tmpl_free(tp);
	json_decref(view);
	sset_free(&ids);
	buf_release(&page);
	buf_release(&mdb);
	buf_release(&notes);
	buf_release(&b);
	buf_release(&csv);
	return rc;
}
