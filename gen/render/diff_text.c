/*
 * diff_text.c - text, Markdown and JSON of a comparison (diff_text.h).
 *
 * One walk (walk()) visits the parts of the document in order: the runs,
 * the environment, warnings, notes, what one run alone has, the legend
 * and the tables; struct fmt says what each format writes around each
 * part and how it escapes names.  The figures come from diff_cells.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonx.h"
#include "base/utf8.h"
#include "base/util.h"
#include "render/diff_cells.h"
#include "render/diff_text.h"

/* The parts a table of cells is made of: the header, rows, a geomean. */
struct cells {
	struct buf *c;		/* nrows * DCELL_NCOL; row 0 the header */
	size_t nrows;
};

static struct buf *
cells_row(const struct cells *t, size_t r)
{
	return &t->c[r * DCELL_NCOL];
}

/* What a format writes around each part of the walk. */
struct fmt {
	dcell_esc_fn *esc;	/* every untrusted name, and titles */
	dcell_esc_fn *legend_esc;	/* the legend (erg's text, in lines for text) */
	int align;		/* pad the parts of the values into columns */
	const char *begin;
	void (*side)(struct buf *out, const char *which, json_t *s);
	/* count NULL: no differences; cells: field, A, B per difference */
	void (*env)(struct buf *out, const char *groups, const char *count,
		    const struct cells *t);
	const char *warning, *note;	/* before each one */
	const char *only[3];		/* "targets" ... as the format says it */
	const char *only_pre, *not_comparable;
	const char *results;
	const char *nosig_pre, *nosig_post;
	const char *legend_sep, *legend_post, *summary_post;
	const char *title_pre, *title_post;
	const char *geomean;
	void (*table)(struct buf *out, const struct cells *t, const struct dcell_layout *l);
};

static void
cells_init(struct cells *t, size_t nrows)
{
	size_t i;

	t->nrows = nrows;
	t->c = xcalloc(nrows * DCELL_NCOL + 1, sizeof(*t->c));
	for (i = 0; i < nrows * DCELL_NCOL; i++)
		buf_init(&t->c[i], 0);
}

static void
cells_release(struct cells *t)
{
	size_t i;

	for (i = 0; i < t->nrows * DCELL_NCOL; i++)
		buf_release(&t->c[i]);
	free(t->c);
}

static void
walk(json_t *d, const struct fmt *f, struct buf *out)
{
	json_t *env = json_object_get(d, "environment");
	json_t *diffs = json_object_get(env, "differences"), *rows = json_object_get(d, "rows");
	json_t *arr, *geo;
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct cells t;
	size_t i, j, k, lo, hi;
	int same = json_is_true(json_object_get(d, "same_data")), dec;
	struct dcell_layout l;

	dcell_layout_of(d, &l);
	buf_addstr(out, f->begin);
	f->side(out, "A", json_object_get(d, "a"));
	f->side(out, "B", json_object_get(d, "b"));

	dcell_groups(&a, env);
	if (json_array_size(diffs))
		dcell_count(&b, diffs);
	cells_init(&t, json_array_size(diffs));
	for (i = 0; i < json_array_size(diffs); i++) {
		json_t *e = json_array_get(diffs, i);
		struct buf *c = cells_row(&t, i);

		dcell_clean(&c[0], jx_path_str(e, "field"));
		dcell_env_value(&c[1], json_object_get(e, "a"));
		dcell_env_value(&c[2], json_object_get(e, "b"));
	}
	f->env(out, a.ptr, json_array_size(diffs) ? b.ptr : NULL, &t);
	cells_release(&t);

	arr = json_object_get(d, "warnings");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, f->warning);
		f->esc(out, json_string_value(json_array_get(arr, i)));
		buf_addch(out, '\n');
	}
	arr = json_object_get(d, "notes");
	if (json_array_size(arr))
		buf_addch(out, '\n');
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, f->note);
		f->esc(out, json_string_value(json_array_get(arr, i)));
		buf_addch(out, '\n');
	}
	for (j = 0; j < 2; j++) {
		json_t *only = json_object_get(d, j ? "only_in_b" : "only_in_a");

		for (k = 0; k < 3; k++) {
			buf_reset(&a);
			if (dcell_only(&a, only, (int)k, f->esc))
				buf_addf(out, "%s%s only in %s: %s\n", f->only_pre, f->only[k],
					 j ? "B" : "A", a.ptr);
		}
	}
	arr = json_object_get(d, "not_comparable");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_addstr(out, f->not_comparable);
		dcell_not_comparable(out, json_array_get(arr, i), f->esc);
		buf_addch(out, '\n');
	}

	buf_addstr(out, f->results);
	if (dcell_untested(d)) {
		buf_addstr(out, f->nosig_pre);
		f->esc(out, jx_path_str(d, "no_significance"));
		buf_addstr(out, f->nosig_post);
	}
	buf_reset(&a);
	dcell_legend(&a, d, f->legend_sep);
	f->legend_esc(out, a.ptr);
	buf_addstr(out, f->legend_post);
	dcell_summary(out, d);
	buf_addstr(out, f->summary_post);

	for (k = 0; dcell_table(d, k, &lo, &hi, &geo); k++) {
		struct dcell_widths sw[2] = { { 0, 0, 0 }, { 0, 0, 0 } };

		dec = dcell_decimals(d, lo, hi);
		/* With significance both sides are alike and share widths; a
		 * published side has its own. */
		for (i = lo; f->align && i < hi; i++) {
			dcell_sample_widths(jx_path(json_array_get(rows, i), "a"), dec, &sw[0]);
			dcell_sample_widths(jx_path(json_array_get(rows, i), "b"), dec,
					    &sw[dcell_untested(d)]);
		}
		if (!dcell_untested(d))
			sw[1] = sw[0];
		cells_init(&t, 1 + hi - lo + (geo != NULL));
		for (j = 0; j < l.ncol; j++)
			buf_addstr(&t.c[j], l.head[j]);
		for (i = lo; i < hi; i++)
			dcell_row(json_array_get(rows, i), dec, same, f->align ? sw : NULL, f->esc,
				  cells_row(&t, 1 + i - lo));
		if (geo) {
			struct buf *c = cells_row(&t, 1 + hi - lo);

			dcell_geo(geo, dec, f->align ? sw : NULL, c);
			buf_reset(&c[0]);
			buf_addstr(&c[0], f->geomean);
		}
		buf_addstr(out, f->title_pre);
		buf_reset(&a);
		dcell_title(&a, json_array_get(rows, lo));
		f->esc(out, a.ptr);
		buf_addstr(out, f->title_post);
		f->table(out, &t, &l);
		cells_release(&t);
	}
	buf_release(&a);
	buf_release(&b);
}

/* ---------------------------------------------------------- text */

static void
as_is(struct buf *b, const char *s)
{
	buf_addstr(b, s);
}

static void
pad_right(struct buf *b, const char *s, size_t w)
{
	size_t n = dcell_width(s);

	buf_addstr(b, s);
	while (n++ < w)
		buf_addch(b, ' ');
}

static void
text_line(struct buf *out, struct buf *c, const size_t *w, const struct dcell_layout *l)
{
	size_t i;

	for (i = 0; i < l->ncol; i++) {
		if (i)
			buf_addstr(out, "  ");
		if (l->right[i])	/* delta, p, ratio: numbers, right-aligned */
			dcell_pad_left(out, c[i].ptr, w[i]);
		else
			pad_right(out, c[i].ptr, i + 1 < l->ncol ? w[i] : 0);
	}
	while (out->len && out->ptr[out->len - 1] == ' ')
		buf_setlen(out, out->len - 1);
	buf_addch(out, '\n');
}

/* "; summary run: ..." or "; 10 rounds", ending a side's line */
static void
side_rounds(struct buf *out, json_t *s)
{
	if (json_is_null(json_object_get(s, "rounds")))
		buf_addstr(out, "; summary run: figures as published, no rounds\n");
	else
		buf_addf(out, "; %.0f round%s\n", dcell_num(s, "rounds"),
			 dcell_num(s, "rounds") == 1 ? "" : "s");
}

static void
text_side(struct buf *out, const char *which, json_t *s)
{
	buf_addf(out, "%s: ", which);
	utf8_term(out, jx_path_str(s, "run"));
	buf_addstr(out, "\n   ");
	if (jx_path_str(s, "captured_at")) {
		buf_addstr(out, json_is_null(json_object_get(s, "rounds")) ? "dated " : "captured ");
		utf8_term(out, jx_path_str(s, "captured_at"));
		buf_addstr(out, "; ");
	}
	utf8_term(out, jx_path_str(s, "machine"));
	side_rounds(out, s);
}

static void
text_env(struct buf *out, const char *groups, const char *count, const struct cells *t)
{
	size_t i, fw = 5, aw = 1;

	if (!count) {
		buf_addf(out, "\nenvironment: no differences (%s)\n", groups);
		return;
	}
	buf_addf(out, "\nenvironment: %s (compared: %s)\n", count, groups);
	for (i = 0; i < t->nrows; i++) {
		const struct buf *c = cells_row(t, i);

		fw = fw > dcell_width(c[0].ptr) ? fw : dcell_width(c[0].ptr);
		aw = aw > dcell_width(c[1].ptr) ? aw : dcell_width(c[1].ptr);
	}
	buf_addstr(out, "  ");
	pad_right(out, "field", fw + 2);
	pad_right(out, "A", aw + 2);
	buf_addstr(out, "B\n");
	for (i = 0; i < t->nrows; i++) {
		const struct buf *c = cells_row(t, i);

		buf_addstr(out, "  ");
		pad_right(out, c[0].ptr, fw + 2);
		pad_right(out, c[1].ptr, aw + 2);
		buf_addstr(out, c[2].ptr);
		buf_addch(out, '\n');
	}
}

static void
text_table(struct buf *out, const struct cells *t, const struct dcell_layout *l)
{
	size_t w[DCELL_NCOL], r, j;

	for (j = 0; j < l->ncol; j++)
		w[j] = 0;
	for (r = 0; r < t->nrows; r++)
		for (j = 0; j < l->ncol; j++)
			if (w[j] < dcell_width(cells_row(t, r)[j].ptr))
				w[j] = dcell_width(cells_row(t, r)[j].ptr);
	for (r = 0; r < t->nrows; r++)
		text_line(out, cells_row(t, r), w, l);
}

static const struct fmt text_fmt = {
	.esc = dcell_clean,
	.legend_esc = as_is,
	.align = 1,
	.begin = "",
	.side = text_side,
	.env = text_env,
	.warning = "\nWARNING: ",
	.note = "note: ",
	.only = { "targets", "routes", "metrics" },
	.only_pre = "",
	.not_comparable = "not comparable (units differ): ",
	.results = "\n",
	.nosig_pre = "",
	.nosig_post = "\n\n",
	.legend_sep = "\n",
	.legend_post = "\n",
	.summary_post = "\n",
	.title_pre = "\n",
	.title_post = "\n",
	.geomean = "geomean",
	.table = text_table,
};

void
diff_render_text(json_t *d, struct buf *out)
{
	walk(d, &text_fmt, out);
}

/* ------------------------------------------------------ Markdown */

/* Cleaned text with Markdown's inline syntax characters backslash-escaped. */
static void
md_esc(struct buf *b, const char *s)
{
	struct buf t = BUF_INIT;
	size_t i;

	utf8_term(&t, s);
	for (i = 0; i < t.len; i++) {
		if (strchr("\\`*_[]<>|~&!#$", t.ptr[i]))
			buf_addch(b, '\\');
		buf_addch(b, t.ptr[i]);
	}
	buf_release(&t);
}

/* Cells are Markdown already: numbers, verdicts, escaped names. */
static void
md_row(struct buf *out, const struct buf *c, size_t ncol)
{
	size_t i;

	buf_addch(out, '|');
	for (i = 0; i < ncol; i++) {
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
	utf8_term(&t, jx_path_str(s, "run"));
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
	side_rounds(out, s);
}

static void
md_env(struct buf *out, const char *groups, const char *count, const struct cells *t)
{
	size_t i, j;

	buf_addstr(out, "\n## Environment\n\n");
	if (!count) {
		buf_addf(out, "No differences (%s).\n", groups);
		return;
	}
	buf_addf(out, "%s (compared: %s).\n\n| field | A | B |\n|---|---|---|\n", count, groups);
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < 3; j++) {
			buf_addstr(out, j ? " | " : "| ");
			md_esc(out, cells_row(t, i)[j].ptr);
		}
		buf_addstr(out, " |\n");
	}
}

static void
md_table(struct buf *out, const struct cells *t, const struct dcell_layout *l)
{
	size_t r;

	md_row(out, cells_row(t, 0), l->ncol);
	buf_addstr(out, l->md_rule);
	for (r = 1; r < t->nrows; r++)
		md_row(out, cells_row(t, r), l->ncol);
}

static const struct fmt md_fmt = {
	.esc = md_esc,
	.legend_esc = md_esc,
	.align = 0,
	.begin = "# erg diff\n\n",
	.side = md_side,
	.env = md_env,
	.warning = "\n> **WARNING:** ",
	.note = "- Note: ",
	.only = { "Targets", "Routes", "Metrics" },
	.only_pre = "- ",
	.not_comparable = "- Not comparable (units differ): ",
	.results = "\n## Results\n\n",
	.nosig_pre = "**",
	.nosig_post = "**\n\n",
	.legend_sep = "; ",
	.legend_post = ".\n\n",
	.summary_post = ".\n",
	.title_pre = "\n### ",
	.title_post = "\n\n",
	.geomean = "*geomean*",
	.table = md_table,
};

void
diff_render_markdown(json_t *d, struct buf *out)
{
	walk(d, &md_fmt, out);
}

/* ---------------------------------------------------------- JSON */

void
diff_render_json(json_t *d, struct buf *out)
{
	char *s = jx_dumps(d, JSON_INDENT(2));

	if (!s)
		die("out of memory");
	buf_addstr(out, s);
	buf_addch(out, '\n');
	free(s);
}

/* ------------------------------------------------- our own files */

/*
 * The first bytes each output always starts with: the JSON document's
 * first member, the Markdown heading and A's line, the text's "A: "
 * line, its indented second line and "B: ".
 */
int
diff_text_is_ours(const char *head, size_t n)
{
	static const char json_head[] = "{\n  \"format\": \"erg-diff/1\",\n";
	static const char md_head[] = "# erg diff\n\n- **A**: `";
	const char *nl, *end = head + n;

	if (n >= sizeof(json_head) - 1 && !memcmp(head, json_head, sizeof(json_head) - 1))
		return 1;
	if (n >= sizeof(md_head) - 1 && !memcmp(head, md_head, sizeof(md_head) - 1))
		return 1;
	if (n < 3 || memcmp(head, "A: ", 3))
		return 0;
	/* "A: id\n   machine...\nB: id\n   machine...\n" */
	if (!(nl = memchr(head, '\n', n)) || end - nl < 5 || memcmp(nl + 1, "   ", 3))
		return 0;
	if (!(nl = memchr(nl + 1, '\n', (size_t)(end - nl - 1))) || end - nl < 4)
		return 0;
	return !memcmp(nl + 1, "B: ", 3);
}
