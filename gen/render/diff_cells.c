/*
 * diff_cells.c - the diff outputs' numbers and names (see diff_cells.h).
 * Measured values get the decimals that give the smallest magnitude of
 * their table 4 significant digits; published figures are shown as
 * given.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "base/buf.h"
#include "base/jsonx.h"
#include "base/utf8.h"
#include "base/util.h"
#include "render/diff_cells.h"
#include "render/numfmt.h"

static int
strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b ? 0 : !a ? -1 : 1;
	return strcmp(a, b);
}

double
dcell_num(json_t *o, const char *path)
{
	json_t *v = jx_path(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void
dcell_pad_left(struct buf *b, const char *s, size_t w)
{
	size_t n = dcell_width(s);

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
		numfmt_add(b, dcell_num(s, key), NF_SHORT);
	else
		numfmt_add(b, dcell_num(s, key), NF_FIXED(dec));
}

/*
 * "mean ± sd (n)", the parts right-aligned to w when it is not NULL.  A
 * published figure is "value ± sd" (sd as published, when given): its n
 * would be 1, which says nothing about the rounds behind a published SD.
 */
static void
cell_sample(struct buf *b, json_t *s, int dec, const struct dcell_widths *w)
{
	struct buf t = BUF_INIT;

	fmt_value(&t, s, "mean", dec);
	dcell_pad_left(b, t.ptr, w ? w->mean : 0);
	if (isfinite(dcell_num(s, "sd")) || (w && w->sd)) {
		buf_reset(&t);
		if (isfinite(dcell_num(s, "sd")))
			fmt_value(&t, s, "sd", dec);
		buf_addstr(b, t.len ? " \xc2\xb1 " : "   ");
		dcell_pad_left(b, t.ptr, w ? w->sd : 0);
	}
	buf_reset(&t);
	if (!is_published(s))
		buf_addf(&t, "(%.0f)", dcell_num(s, "n"));
	if (t.len || (w && w->n)) {
		buf_addch(b, ' ');
		dcell_pad_left(b, t.ptr, w ? w->n : 0);
	}
	buf_release(&t);
}

void
dcell_sample_widths(json_t *s, int dec, struct dcell_widths *w)
{
	struct buf t = BUF_INIT;

	fmt_value(&t, s, "mean", dec);
	w->mean = w->mean > dcell_width(t.ptr) ? w->mean : dcell_width(t.ptr);
	buf_reset(&t);
	if (isfinite(dcell_num(s, "sd"))) {
		fmt_value(&t, s, "sd", dec);
		w->sd = w->sd > dcell_width(t.ptr) ? w->sd : dcell_width(t.ptr);
	}
	buf_reset(&t);
	if (!is_published(s)) {
		buf_addf(&t, "(%.0f)", dcell_num(s, "n"));
		w->n = w->n > dcell_width(t.ptr) ? w->n : dcell_width(t.ptr);
	}
	buf_release(&t);
}

static void
cell_delta(struct buf *b, double d)
{
	char s[64];

	if (!isfinite(d)) {
		buf_addstr(b, NUM_MISSING);
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
		buf_addstr(b, NUM_MISSING);
	else
		buf_addf(b, "[%.4f, %.4f]", lo, hi);
}

static void
cell_p(struct buf *b, double p)
{
	if (!isfinite(p))
		buf_addstr(b, NUM_MISSING);
	else if (p >= 0.0001)
		buf_addf(b, "%.4f", p);
	else
		buf_addf(b, "%.1e", p);
}

/* "headline" or "route 'ping'"-like table titles; the units are always
 * stated ("no unit" for a plain number such as a CV). */
void
dcell_title(struct buf *b, json_t *row)
{
	const char *route = jx_path_str(row, "route"), *label = jx_path_str(row, "label");
	const char *unit = jx_path_str(row, "unit"), *name = jx_path_str(row, "metric");
	const char *ml = route ? NULL : compare_metric_label(name, 1);

	if (!ml)
		ml = compare_metric_label(name, 0);
	buf_addstr(b, route ? "route " : "headline");
	if (route)
		utf8_term(b, route);
	buf_addstr(b, ": ");
	utf8_term(b, label ? label : ml ? ml : name);
	if (label && strcmp(label, jx_path_str(row, "metric"))) {
		buf_addstr(b, " [");
		utf8_term(b, jx_path_str(row, "metric"));
		buf_addch(b, ']');
	}
	buf_addstr(b, " (");
	utf8_term(b, unit && *unit ? unit : "no unit");
	buf_addch(b, ')');
	if (jx_path_str(row, "x.label")) {
		buf_addstr(b, ", by ");
		utf8_term(b, jx_path_str(row, "x.label"));
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
int
dcell_table(json_t *d, size_t t, size_t *lo, size_t *hi, json_t **geo)
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
int
dcell_decimals(json_t *d, size_t lo, size_t hi)
{
	json_t *rows = json_object_get(d, "rows");
	double minabs = INFINITY, any = INFINITY, v;
	size_t i;
	const char *side[] = { "a", "b" }, **s;

	for (i = lo; i < hi; i++)
		for (s = side; s < side + 2; s++) {
			json_t *x = json_object_get(json_array_get(rows, i), *s);

			v = fabs(dcell_num(x, "mean"));
			if (v > 0 && v < any)
				any = v;
			if (v > 0 && v < minabs && !is_published(x))
				minabs = v;
		}
	if (!isfinite(minabs))
		minabs = any;
	/* 4 significant digits to the smallest magnitude */
	return numfmt_col_decimals(&minabs, 1, 4, 2);
}

static const struct dcell_layout tested_layout = {
	7,
	{ "target", "A mean \xc2\xb1 SD (n)", "B mean \xc2\xb1 SD (n)", "\xce\x94%",
	  "B/A 95% CI", "p", "verdict" },
	{ 0, 0, 0, 1, 0, 1, 0 },
	"|---|---:|---:|---:|---|---:|---|\n",
	6,
};

int
dcell_untested(json_t *d)
{
	return json_is_string(json_object_get(d, "no_significance"));
}

void
dcell_layout_of(json_t *d, struct dcell_layout *l)
{
	if (!dcell_untested(d)) {
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
void
dcell_target(struct buf *b, json_t *row, dcell_esc_fn *esc)
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
		numfmt_add(&v, dcell_num(x, "value"), NF_SHORT);
		buf_addf(b, " %s", v.ptr);
		if (jx_path_str(x, "unit") && *jx_path_str(x, "unit")) {
			buf_addch(b, ' ');
			esc(b, jx_path_str(x, "unit"));
		}
		buf_release(&v);
	}
}

static void
cell_ratio(struct buf *b, double r)
{
	if (!isfinite(r))
		buf_addstr(b, NUM_MISSING);
	else
		buf_addf(b, "%.4f", r);
}

void
dcell_row(json_t *row, int dec, int same, const struct dcell_widths *w, dcell_esc_fn *esc,
	  struct buf *c)
{
	const struct dcell_widths *wb = w ? w + 1 : NULL;
	size_t i;

	for (i = 0; i < DCELL_NCOL; i++)
		buf_reset(&c[i]);
	if (jx_path_str(row, "verdict") && !strcmp(jx_path_str(row, "verdict"), COMPARE_NO_TEST_VERDICT)) {
		dcell_target(&c[0], row, esc);
		cell_sample(&c[1], json_object_get(row, "a"), dec, w);
		cell_sample(&c[2], json_object_get(row, "b"), dec, wb);
		cell_delta(&c[3], dcell_num(row, "delta_pct"));
		cell_ratio(&c[4], dcell_num(row, "ratio"));
		if (jx_path_str(row, "rounded_twice.via"))
			/* the Δ is rounding, not a difference: say which */
			buf_addf(&c[5], "published value rounded twice: %s \xe2\x86\x92 %s (in one "
				 "step %s)", jx_path_str(row, "rounded_twice.via"),
				 jx_path_str(row, "rounded_twice.published"),
				 jx_path_str(row, "rounded_twice.once"));
		else
			buf_addstr(&c[5], jx_path_str(row, "verdict"));
		return;
	}
	dcell_target(&c[0], row, esc);	/* with the x of a sweep (trials runs) */
	cell_sample(&c[1], json_object_get(row, "a"), dec, w);
	cell_sample(&c[2], json_object_get(row, "b"), dec, wb);
	cell_delta(&c[3], dcell_num(row, "delta_pct"));
	cell_ci(&c[4], row, same);
	cell_p(&c[5], dcell_num(row, "p"));
	buf_addstr(&c[6], jx_path_str(row, "verdict"));
}

void
dcell_geo(json_t *geo, int dec, const struct dcell_widths *w, struct buf *c)
{
	struct buf t = BUF_INIT;
	size_t i;

	for (i = 0; i < DCELL_NCOL; i++)
		buf_reset(&c[i]);
	buf_addstr(&c[0], "geomean");
	for (i = 1; i <= 2; i++) {
		buf_reset(&t);
		numfmt_add(&t, dcell_num(geo, i == 1 ? "a" : "b"), NF_FIXED(dec));
		dcell_pad_left(&c[i], t.ptr, w ? w[i - 1].mean : 0);
	}
	buf_release(&t);
	cell_delta(&c[3], dcell_num(geo, "delta_pct"));
}

size_t
dcell_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* A JSON scalar for the environment table: strings bare, others as JSON. */
void
dcell_env_value(struct buf *b, json_t *v)
{
	char *s;

	if (!v || json_is_null(v)) {
		buf_addstr(b, "(absent)");
	} else if (json_is_string(v)) {
		utf8_term(b, json_string_value(v));
	} else {
		s = jx_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		utf8_term(b, s ? s : "?");
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
		if (dcell_num(json_array_get(rows, i), "a.n") > 25 || dcell_num(json_array_get(rows, i), "b.n") > 25)
			return 0;
	return 1;
}

/* What the columns are; sep between its three sentences. */
void
dcell_legend(struct buf *b, json_t *d, const char *sep)
{
	if (dcell_untested(d)) {
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
		buf_addf(b, "verdict: %s", COMPARE_NO_TEST_VERDICT);
		return;
	}
	buf_addf(b, "values: mean \xc2\xb1 SD (n) over rounds; \xce\x94%% = (B/A \xe2\x88\x92 1)"
		 "\xc2\xb7" "100%s", sep);
	buf_addf(b, "B/A 95%% CI: percentile bootstrap of the ratio of means (%u resamples, "
		 "seed %u)%s", COMPARE_RESAMPLES, COMPARE_SEED, sep);
	buf_addf(b, "p: %stwo-sided Mann\xe2\x80\x93Whitney U over rounds%s; verdict: ~ when "
		 "p > %.2g, else \xce\x94%%", all_exact(d) ? "exact " : "",
		 all_exact(d) ? "" : " (exact up to 25 rounds a side)", COMPARE_ALPHA);
}

void
dcell_summary(struct buf *b, json_t *d)
{
	json_t *s = json_object_get(d, "summary");

	if (dcell_untested(d)) {
		buf_addf(b, "%.0f comparison%s, none tested for significance (one value per cell)",
			 dcell_num(s, "rows"), dcell_num(s, "rows") == 1 ? "" : "s");
		return;
	}
	buf_addf(b, "%.0f comparison%s: %.0f significant, %.0f ~, %.0f ?", dcell_num(s, "rows"),
		 dcell_num(s, "rows") == 1 ? "" : "s", dcell_num(s, "significant"),
		 dcell_num(s, "not_significant"), dcell_num(s, "undecided"));
}

/* A name that may be empty (a summary table without targets). */
static void
esc_name(struct buf *b, const char *s, dcell_esc_fn *esc)
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

const char *const dcell_only_kinds[] = { "targets", "routes", "metrics" };

/* "express, video of bun, cv" lists of what one side alone has
 * (kind: 0 targets, 1 routes, 2 metrics). */
int
dcell_only(struct buf *b, json_t *only, int kind, dcell_esc_fn *esc)
{
	json_t *arr = json_object_get(only, dcell_only_kinds[kind]);
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
void
dcell_not_comparable(struct buf *b, json_t *e, dcell_esc_fn *esc)
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
	dcell_target(b, e, esc);
	buf_addstr(b, ": ");
	esc(b, *jx_path_str(e, "unit_a") ? jx_path_str(e, "unit_a") : "no unit");
	buf_addstr(b, " in A, ");
	esc(b, *jx_path_str(e, "unit_b") ? jx_path_str(e, "unit_b") : "no unit");
	buf_addstr(b, " in B");
}

void
dcell_clean(struct buf *b, const char *s)
{
	utf8_term(b, s);
}


void
dcell_groups(struct buf *b, json_t *env)
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

void
dcell_count(struct buf *out, const json_t *diffs)
{
	size_t n = json_array_size(diffs), k = one_sided(diffs);

	buf_addf(out, "%zu difference%s", n, n == 1 ? "" : "s");
	if (k)
		buf_addf(out, ", %zu of them %s recorded by one run only", k,
			 k == 1 ? "a field" : "fields");
}
