/*
 * render_summary.c - the run page of a summary run, and the latency
 * charts of throughput-only sessions (see render_summary.h).
 *
 * A summary run holds figures published elsewhere (summary.c): a few
 * tables of one value per cell, with the machine and conditions as the
 * source gives them.  The page says so before anything else, shows every
 * table with its columns as given (recognised columns get their label and
 * unit, unknown ones their name and the unit the CSV gave), and charts the
 * recognised metrics: grouped bars by target and route (or bars by row),
 * or lines over a numeric x column (connections, workers, delay).
 *
 * Conventions follow render.c: the view is a JSON tree of ready-to-print
 * strings handed to templates/summary.html (escaped there by context);
 * the only raw markup is erg's own SVG and the cmark output of the notes.
 * A missing figure prints as the missing value (render/numfmt.h); the
 * tables are render/table.h's, as on every page.  Every table row and
 * chart has an id unique in the page, built from sanitised names ([A-Za-z0-9_-]) with "-2", "-3", ... on a
 * collision, so links to them survive a rebuild.
 *
 * Numbers in tables show the digits the CSV gave: the shortest decimal
 * that reads back as the value, with trailing zeros restored in columns
 * that use fixed decimals (numfmt_published), and thousands separators
 * in columns that reach 10,000.  A number of a summary run prints as it was
 * published (its text in results.json), on the page and in the CSV copies.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "render/html.h"
#include "render/markdown.h"
#include "render/numfmt.h"
#include "render/page_run.h"
#include "render/page_summary.h"
#include "analyze/stats.h"
#include "ingest/summary.h"
#include "render/svg.h"
#include "render/table.h"
#include "render/tmpl.h"
#include "base/util.h"
#include "render/view.h"

#define PLUSMINUS "\xc2\xb1"
#define TURN_MAX_ROWS 16	/* a turned table (run.json "transpose") has a column per row */

/* ------------------------------------------------------------------ */
/* numbers */

/* Metadata: as published, grouped from 10,000 ("12,345", "2023"). */
static const struct numfmt meta_num = { NUM_SHORT, 0, 5, 0 };

/* The format of column j of rows (numfmt_published). */
static struct numfmt
column_format(const json_t *rows, size_t j, int numeric)
{
	double *v = xmalloc((json_array_size(rows) + 1) * sizeof(double));
	const json_t *row;
	struct numfmt f;
	size_t i;

	json_array_foreach(rows, i, row)
		v[i] = num_of(json_array_get(row, j));
	f = numfmt_published(v, json_array_size(rows), numeric);
	free(v);
	return f;
}

/* ------------------------------------------------------------------ */
/* ids: unique in a page, [A-Za-z0-9_-] */

/* s sanitised for an id: letters, digits, '-' and '_' kept, any other
 * character (not byte) one '_', runs of '_' squeezed, none at either end;
 * "_" when nothing is left.  Not id_sanitise() (view.h), which keeps every
 * '_': a new rule would break links to these pages' anchors. */
static void
id_part(struct buf *b, const char *s)
{
	size_t start = b->len;

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '-' || c == '_';

		if (!keep && c >= 0x80 && (c & 0xc0) != 0xc0)
			continue;	/* a continuation byte */
		if (!keep)
			c = '_';
		if (c == '_' && (b->len == start || b->ptr[b->len - 1] == '_'))
			continue;
		buf_addch(b, (char)c);
	}
	while (b->len > start && b->ptr[b->len - 1] == '_')
		buf_setlen(b, b->len - 1);
	if (b->len == start)
		buf_addch(b, '_');
}

/* ------------------------------------------------------------------ */
/* text of metadata values */

/* A metadata key as a label: "room_temperature_c" -> "Room temperature
 * (°C)", "os" -> "OS", "keepAlive" -> "Keep alive". */
static void
humanise(struct buf *b, const char *key, int cap)
{
	static const char *const upper[] = { "os", "id", "url", "cpu", "rss", "http", NULL };
	size_t n = strlen(key), start = b->len, i;
	int celsius = 0;

	for (i = 0; upper[i]; i++)
		if (!strcasecmp(key, upper[i])) {
			for (; *key; key++)
				buf_addch(b, *key >= 'a' && *key <= 'z' ? *key - 'a' + 'A' : *key);
			return;
		}
	if (n > 2 && (!strcmp(key + n - 2, "_c") || !strcmp(key + n - 2, "_C"))) {
		n -= 2;
		celsius = 1;
	}
	for (i = 0; i < n; i++) {
		char c = key[i];

		if (c >= 'A' && c <= 'Z' && b->len > start && b->ptr[b->len - 1] != ' ' &&
		    i && key[i - 1] >= 'a' && key[i - 1] <= 'z') {
			buf_addch(b, ' ');
			buf_addch(b, c - 'A' + 'a');
		} else {
			buf_addch(b, c == '_' ? ' ' : c);
		}
	}
	if (cap && b->len > start && b->ptr[start] >= 'a' && b->ptr[start] <= 'z')
		b->ptr[start] = (char)(b->ptr[start] - 'a' + 'A');
	if (celsius)
		buf_addstr(b, " (\xc2\xb0" "C)");
}

/* A JSON value as one line of text; numbers from 10,000 up grouped. */
static void
value_text(struct buf *b, const json_t *x)
{
	const json_t *e;
	const char *k;
	size_t i;

	if (!x)
		return;		/* absent: nothing, as null */
	switch (json_typeof(x)) {
	case JSON_STRING:
		buf_add(b, json_string_value(x), json_string_length(x));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		numfmt_add(b, json_number_value(x), meta_num);
		break;
	case JSON_TRUE:
		buf_addstr(b, "yes");
		break;
	case JSON_FALSE:
		buf_addstr(b, "no");
		break;
	case JSON_NULL:
		break;
	case JSON_ARRAY: {
		int flat = 1;

		json_array_foreach(x, i, e)
			flat &= !json_is_array(e) && !json_is_object(e);
		json_array_foreach(x, i, e) {
			if (i)
				buf_addstr(b, flat ? ", " : "; ");
			value_text(b, e);
		}
		break;
	}
	case JSON_OBJECT:
		i = 0;
		json_object_foreach((json_t *)x, k, e) {
			if (i++)
				buf_addstr(b, "; ");
			humanise(b, k, 0);
			buf_addstr(b, ": ");
			value_text(b, e);
		}
		break;
	}
}

/* ------------------------------------------------------------------ */
/* CSV */

/* A field: the published text of a number when there is one, so that
 * "0.1010" stays "0.1010". */
static void
csv_value(struct buf *b, const json_t *x, const json_t *text)
{
	if (json_is_string(text) && json_is_number(x))
		buf_add(b, json_string_value(text), json_string_length(text));
	else if (json_is_number(x))
		numfmt_csv(b, num_of(x));	/* empty when not finite */
	else if (json_is_string(x))
		csv_str(b, json_string_value(x), json_string_length(x));
	/* null: an empty field */
}

/*
 * The published table as given, in the layout of the archive's tables (it
 * reads back as one): a header row of column names, a "# units:" line
 * when any column has a unit, then the rows with the published text of
 * every number; CRLF line ends.
 */
static void
csv_table(struct buf *b, const json_t *t)
{
	const json_t *c, *row, *x, *pub = json_object_get(t, "published");
	size_t i, j;
	int units = 0;

	json_array_foreach(json_object_get(t, "columns"), i, c) {
		if (i)
			buf_addch(b, ',');
		csv_value(b, json_object_get(c, "name"), NULL);
		units |= jstr(c, "unit") && *jstr(c, "unit");
	}
	buf_addstr(b, "\r\n");
	if (units) {
		/* the marker inside the first field, so that a unit that
		 * needs quoting quotes the marker with it */
		struct buf f = BUF_INIT;

		json_array_foreach(json_object_get(t, "columns"), i, c) {
			buf_reset(&f);
			if (i)
				buf_addch(b, ',');
			else
				buf_addstr(&f, "# units: ");
			buf_addstr(&f, jstr(c, "unit") ? jstr(c, "unit") : "");
			csv_str(b, f.ptr, f.len);
		}
		buf_addstr(b, "\r\n");
		buf_release(&f);
	}
	json_array_foreach(json_object_get(t, "rows"), i, row) {
		json_array_foreach(row, j, x) {
			if (j)
				buf_addch(b, ',');
			csv_value(b, x, json_array_get(json_array_get(pub, i), j));
		}
		buf_addstr(b, "\r\n");
	}
}

/* ------------------------------------------------------------------ */
/* one published table */

struct col {
	const json_t *o;
	const char *name, *label, *unit, *role;
	int numeric, recognised;
	int is_label;		/* names a row in charts (never the x column) */
	struct numfmt f;	/* of its numbers */
};

struct tv {
	const json_t *t, *rows, *pub;
	struct col *c;
	size_t nc, nr;
	long x;			/* the x column, -1 for none */
	char *base;		/* sanitised base name of the table file */
	const char *title;
	const json_t *targets;	/* the run's (results "targets"), for chart styles */
};

static void
tv_load(struct tv *v, const json_t *t, const char *fallback_title)
{
	const json_t *cols = json_object_get(t, "columns"), *co;
	const char *file = jstr(t, "file"), *slash, *xname = jstr(t, "x_column");
	struct buf b = BUF_INIT, base = BUF_INIT;
	size_t j;
	int nkey = 0;

	memset(v, 0, sizeof(*v));
	v->t = t;
	v->rows = json_object_get(t, "rows");
	v->pub = json_object_get(t, "published");
	v->nr = json_array_size(v->rows);
	v->nc = json_array_size(cols);
	v->c = xcalloc(v->nc + 1, sizeof(*v->c));
	v->x = -1;
	json_array_foreach(cols, j, co) {
		struct col *c = &v->c[j];

		c->o = co;
		c->name = jstr(co, "name") ? jstr(co, "name") : "";
		c->label = jstr(co, "label") ? jstr(co, "label") : c->name;
		c->unit = jstr(co, "unit") && *jstr(co, "unit") ? jstr(co, "unit") : NULL;
		c->role = jstr(co, "role") ? jstr(co, "role") : "text";
		c->numeric = json_is_true(json_object_get(co, "numeric"));
		c->recognised = json_is_true(json_object_get(co, "recognised"));
		if (xname && !strcmp(xname, c->name) && c->numeric && v->x < 0)
			v->x = (long)j;
		c->f = column_format(v->rows, j, c->numeric);
	}
	/* rows are named by their key columns (target, route, runtime,
	 * phase); a table without one by its text columns */
	for (j = 0; j < v->nc; j++)
		if ((long)j != v->x && !strcmp(v->c[j].role, "key"))
			v->c[j].is_label = nkey = 1;
	for (j = 0; j < v->nc && !nkey; j++)
		v->c[j].is_label = (long)j != v->x && !strcmp(v->c[j].role, "text");
	slash = file ? strrchr(file, '/') : NULL;
	buf_addstr(&b, slash ? slash + 1 : file ? file : "table");
	if (b.len > 4 && !strcasecmp(b.ptr + b.len - 4, ".csv"))
		buf_setlen(&b, b.len - 4);
	id_part(&base, b.ptr);
	v->base = buf_detach(&base, NULL);
	v->title = jstr(t, "title") ? jstr(t, "title") : fallback_title ? fallback_title : v->base;
	buf_release(&b);
}

static void
tv_free(struct tv *v)
{
	free(v->c);
	free(v->base);
}

/* The published text of cell (i, j) ("0.1010"), or NULL. */
static const char *
cell_published(const struct tv *v, size_t i, size_t j)
{
	return json_string_value(json_array_get(json_array_get(v->pub, i), j));
}

/*
 * The text of cell (i, j) as on the page; 0 when it is not reported.  A
 * number prints as it was published, with thousands separators from
 * 1,000 as the published tables write them ("5,007.0", "0.1010"); a
 * results document without the published text (older) falls back to the
 * column's format.
 */
static int
cell_text(const struct tv *v, size_t i, size_t j, struct buf *b)
{
	const json_t *x = json_array_get(json_array_get(v->rows, i), j);

	if (json_is_string(x)) {
		buf_add(b, json_string_value(x), json_string_length(x));
		return 1;
	}
	if (json_is_number(x) && isfinite(num_of(x))) {
		struct numval nv = { num_of(x), cell_published(v, i, j) };
		struct numfmt f = v->c[j].f;

		if (nv.text)
			f.group = 4;
		numfmt_val(b, nv, f);
		return 1;
	}
	return 0;
}

static double
cell_num(const struct tv *v, size_t i, long j)
{
	return j < 0 ? NAN : num_of(json_array_get(json_array_get(v->rows, i), (size_t)j));
}

static long
col_named(const struct tv *v, const char *name)
{
	size_t j;

	for (j = 0; j < v->nc; j++)
		if (!strcmp(v->c[j].name, name))
			return (long)j;
	return -1;
}

/* A unit for the header of a recognised column summary.c gives none. */
static const char *
unit_hint(const struct col *c)
{
	if (c->unit)
		return c->unit;
	if (!c->recognised)
		return NULL;
	if (!strcmp(c->name, "connections") || !strcmp(c->name, "workers"))
		return "count";
	if (!strcmp(c->name, "cv"))
		return "SD/mean";
	return NULL;
}

/* "Label (unit)" or "Label". */
static void
label_unit(struct buf *b, const struct col *c)
{
	const char *u = unit_hint(c);

	buf_addstr(b, c->label);
	if (u && strcmp(u, "count"))
		buf_addf(b, " (%s)", u);
}

/* ------------------------------------------------------------------ */
/* charts of a table */

/* Metrics drawn, in this order of preference within a table's columns.
 * average_rps is left out on purpose: it averages routes of different
 * cost (the table's note says so), and the per-route figures are charted
 * from their own table; mj_per_req_sd becomes the whiskers of mj_per_req
 * and cv is a ratio of the two. */
static int
chartable(const char *name)
{
	static const char *const m[] = {
		"rps", "p50_ms", "p99_ms", "rss_mb", "startup_ms", "cpu_ms_per_1k",
		"mj_per_req", "watts", "mj_per_mb", NULL,
	};
	size_t i;

	for (i = 0; m[i]; i++)
		if (!strcmp(m[i], name))
			return 1;
	return 0;
}

/* The label columns' texts of row i joined by " · " into b (the first
 * column's text when the table has no label column). */
static void
row_label(const struct tv *v, size_t i, const char *const *use, struct buf *b)
{
	size_t j, start = b->len;

	for (j = 0; j < v->nc; j++) {
		if (use ? !use[j] : !v->c[j].is_label)
			continue;
		if (b->len > start)
			buf_addstr(b, MIDDOT);
		if (!cell_text(v, i, j, b))
			buf_addstr(b, NUM_MISSING);
	}
	if (b->len == start && v->nc && !cell_text(v, i, 0, b))
		buf_addstr(b, NUM_MISSING);
}

/* A column label, its first letter lowercased for the middle of a
 * sentence unless it starts an acronym ("Route" -> "route", "HTTP"). */
static void
add_label(struct buf *b, const char *s, int lower)
{
	size_t at = b->len;

	buf_addstr(b, s);
	if (lower && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
		b->ptr[at] = (char)(s[0] - 'A' + 'a');
}

/* Names of the label columns selected by use (all label columns when use
 * is NULL), "Label and Label". */
static void
dim_name(const struct tv *v, const char *const *use, struct buf *b, int lower)
{
	size_t j, k = 0, n = 0;

	for (j = 0; j < v->nc; j++)
		if (use ? use[j] != NULL : v->c[j].is_label)
			n++;
	for (j = 0; j < v->nc; j++) {
		if (use ? !use[j] : !v->c[j].is_label)
			continue;
		if (k++)
			buf_addstr(b, k == n ? " and " : ", ");
		add_label(b, v->c[j].label, lower);
	}
}

/* The layout of the bar charts of a table without an x column: grouped
 * (series x groups, each pair at most once) or one bar per row. */
struct bars_layout {
	int grouped;
	int series_target;	/* grouped, and the series are the targets */
	char **gl, **sl;	/* group and series labels */
	size_t ng, ns, ga, sa;
	size_t *gi, *si;	/* per row */
	char **rl;		/* per row: its label (bars by row) */
	struct buf gdim, sdim;	/* what groups and series are ("Route", "Target") */
	struct buf gcap, scap;	/* the same for a sentence ("route", "target") */
};

static void
bars_layout(const struct tv *v, struct bars_layout *L)
{
	long tcol = col_named(v, "target");
	const char **suse = xcalloc(v->nc + 1, sizeof(char *));
	const char **guse = xcalloc(v->nc + 1, sizeof(char *));
	struct buf b = BUF_INIT, tb = BUF_INIT;
	size_t i, j, ng = 0, nt = 0, ta = 0;
	char *seen, **tl = NULL;

	memset(L, 0, sizeof(*L));
	L->rl = xcalloc(v->nr + 1, sizeof(char *));
	L->gi = xcalloc(v->nr + 1, sizeof(size_t));
	L->si = xcalloc(v->nr + 1, sizeof(size_t));
	for (i = 0; i < v->nr; i++) {
		buf_reset(&b);
		row_label(v, i, NULL, &b);
		L->rl[i] = xstrdup(b.ptr);
	}
	if (tcol < 0 || !v->c[tcol].is_label)
		goto plain;
	/* Series: the target, with the label columns that follow from it
	 * (a runtime per framework) in parentheses; groups: the others. */
	suse[tcol] = "t";
	for (i = 0; i < v->nr; i++) {
		buf_reset(&b);
		cell_text(v, i, (size_t)tcol, &b);
		L->si[i] = strlist_index(&tl, &nt, &ta, b.ptr);	/* target of row i */
	}
	for (j = 0; j < v->nc; j++) {
		char **first;
		int attached = 1;

		if ((long)j == tcol || !v->c[j].is_label)
			continue;
		/* does each target have one value of column j? */
		first = xcalloc(nt + 1, sizeof(char *));
		for (i = 0; i < v->nr && attached; i++) {
			buf_reset(&b);
			cell_text(v, i, j, &b);
			if (!first[L->si[i]])
				first[L->si[i]] = xstrdup(b.ptr);
			else
				attached = !strcmp(first[L->si[i]], b.ptr);
		}
		for (i = 0; i < nt; i++)
			free(first[i]);
		free(first);
		if (attached) {
			suse[j] = "a";
		} else {
			guse[j] = "g";
			ng++;
		}
	}
	strlist_free(tl, nt);
	if (!ng)
		goto plain;
	for (i = 0; i < v->nr; i++) {
		size_t n0;

		buf_reset(&b);
		if (!cell_text(v, i, (size_t)tcol, &b))
			buf_addstr(&b, NUM_MISSING);
		n0 = b.len;
		for (j = 0; j < v->nc; j++)
			if (suse[j] && suse[j][0] == 'a') {
				buf_addstr(&b, b.len == n0 ? " (" : ", ");
				if (!cell_text(v, i, j, &b))
					buf_addstr(&b, NUM_MISSING);
			}
		if (b.len > n0)
			buf_addch(&b, ')');
		L->si[i] = strlist_index(&L->sl, &L->ns, &L->sa, b.ptr);
		buf_reset(&b);
		row_label(v, i, guse, &b);
		L->gi[i] = strlist_index(&L->gl, &L->ng, &L->ga, b.ptr);
	}
	/* each (group, series) once, or the chart would hide rows */
	seen = xcalloc(L->ng * L->ns + 1, 1);
	for (i = 0; i < v->nr; i++) {
		if (seen[L->gi[i] * L->ns + L->si[i]])
			break;
		seen[L->gi[i] * L->ns + L->si[i]] = 1;
	}
	free(seen);
	if (i < v->nr) {
		strlist_free(L->gl, L->ng);
		strlist_free(L->sl, L->ns);
		L->gl = L->sl = NULL;
		L->ng = L->ns = L->ga = L->sa = 0;
		goto plain;
	}
	L->grouped = 1;
	buf_addstr(&tb, v->c[tcol].label);
	dim_name(v, guse, &L->gdim, 0);
	dim_name(v, guse, &L->gcap, 1);
	buf_addstr(&L->sdim, tb.ptr);
	add_label(&L->scap, tb.ptr, 1);
	/* the dimension with fewer values makes the series (the legend) */
	L->series_target = L->ns <= L->ng;
	if (L->ns > L->ng) {
		char **t = L->gl;
		size_t *ti = L->gi, n = L->ng, a = L->ga;
		struct buf x = L->gdim;

		L->gl = L->sl, L->gi = L->si, L->ng = L->ns, L->ga = L->sa;
		L->sl = t, L->si = ti, L->ns = n, L->sa = a;
		L->gdim = L->sdim;
		L->sdim = x;
		x = L->gcap;
		L->gcap = L->scap;
		L->scap = x;
	}
	goto out;
plain:
	dim_name(v, NULL, &L->gdim, 0);
	dim_name(v, NULL, &L->gcap, 1);
out:
	free(suse);
	free(guse);
	buf_release(&b);
	buf_release(&tb);
}

static void
bars_layout_free(struct bars_layout *L, size_t nr)
{
	strlist_free(L->gl, L->ng);
	strlist_free(L->sl, L->ns);
	strlist_free(L->rl, nr);
	free(L->gi);
	free(L->si);
	buf_release(&L->gdim);
	buf_release(&L->sdim);
	buf_release(&L->gcap);
	buf_release(&L->scap);
}

static void
chart_frame_id(struct sset *ids, const struct tv *v, const struct col *m, struct buf *b)
{
	static const char *const sfx[] = { "-title", "-desc", NULL };
	struct buf want = BUF_INIT;

	buf_addstr(&want, "chart-");
	id_part(&want, v->base);
	buf_addch(&want, '-');
	id_part(&want, m->name);
	buf_addstr(b, id_unique(ids, &want, sfx));
	buf_release(&want);
}

static void
table_bars(struct sset *ids, const struct tv *v, json_t *list)
{
	struct bars_layout L;
	long sdc = col_named(v, "mj_per_req_sd"), tcol = col_named(v, "target");
	struct buf svg = BUF_INIT, cap = BUF_INIT, yl = BUF_INIT, id = BUF_INIT, title = BUF_INIT;
	size_t i, j, *style = NULL;

	bars_layout(v, &L);
	/* A target's style, the same in every chart of the page: per series
	 * when the series are the targets, per bar when the bars are rows. */
	if (tcol >= 0 && v->c[tcol].is_label && (!L.grouped || L.series_target)) {
		style = xcalloc((L.grouped ? L.ns : v->nr) + 1, sizeof(*style));
		for (i = 0; i < v->nr; i++) {
			buf_reset(&title);
			cell_text(v, i, (size_t)tcol, &title);
			style[L.grouped ? L.si[i] : i] = target_slot(v->targets, title.ptr);
		}
	}
	for (j = 0; j < v->nc; j++) {
		const struct col *m = &v->c[j];
		struct svg_frame f = { 0 };
		double *val, *err = NULL;
		size_t nv = L.grouped ? L.ng * L.ns : v->nr, any = 0;
		int whiskers = !strcmp(m->name, "mj_per_req") && sdc >= 0 && v->c[sdc].numeric;

		if (!m->numeric || !chartable(m->name) || !strcmp(m->role, "x"))
			continue;
		val = xmalloc((nv + 1) * sizeof(double));
		if (whiskers)
			err = xmalloc((nv + 1) * sizeof(double));
		for (i = 0; i < nv; i++) {
			val[i] = NAN;
			if (err)
				err[i] = NAN;
		}
		for (i = 0; i < v->nr; i++) {
			size_t k = L.grouped ? L.gi[i] * L.ns + L.si[i] : i;

			val[k] = cell_num(v, i, (long)j);
			if (err)
				err[k] = cell_num(v, i, sdc);
			any += isfinite(val[k]) != 0;
		}
		if (!any) {
			free(val);
			free(err);
			continue;
		}
		buf_reset(&id);
		buf_reset(&cap);
		buf_reset(&yl);
		buf_reset(&title);
		chart_frame_id(ids, v, m, &id);
		label_unit(&yl, m);
		buf_addf(&title, "%s: %s", v->title, m->label);
		buf_addstr(&cap, yl.ptr);
		buf_addstr(&cap, " by ");
		buf_addstr(&cap, L.gcap.len ? L.gcap.ptr : "row");
		if (L.grouped) {
			buf_addstr(&cap, " and ");
			buf_addstr(&cap, L.scap.ptr);
		}
		if (whiskers)
			buf_addstr(&cap, ", as published. Whiskers: " PLUSMINUS "1 SD as the "
				   "source published it.");
		else
			buf_addstr(&cap, ", as published: one value per bar, no rounds, so no "
				   "error bars.");
		f.id = id.ptr;
		f.title = title.ptr;
		f.desc = cap.ptr;
		f.ylabel = yl.ptr;
		f.xlabel = L.gdim.len ? L.gdim.ptr : NULL;
		f.style = style;
		if (L.grouped) {
			struct svg_groups g = { 0 };

			g.ngroups = L.ng;
			g.nseries = L.ns;
			g.group_labels = (const char *const *)L.gl;
			g.series_labels = (const char *const *)L.sl;
			g.value = val;
			g.err = err;
			svg_grouped_bars(&svg, &f, &g);
		} else {
			struct svg_bars b = { 0 };

			b.n = v->nr;
			b.labels = (const char *const *)L.rl;
			b.value = val;
			b.err = err;
			svg_bar_chart(&svg, &f, &b);
		}
		figure(list, &svg, cap.ptr);
		free(val);
		free(err);
	}
	bars_layout_free(&L, v->nr);
	free(style);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&yl);
	buf_release(&id);
	buf_release(&title);
}

/* Lines over the x column: one per combination of the label columns. */
static void
table_lines(struct sset *ids, const struct tv *v, json_t *list)
{
	char **sl = NULL;
	size_t ns = 0, sa = 0, i, j, k, n;
	size_t *si = xcalloc(v->nr + 1, sizeof(size_t)), *order = xcalloc(v->nr + 1, sizeof(size_t));
	double *x = xmalloc((2 * v->nr + 1) * sizeof(double)), *y = xmalloc((2 * v->nr + 1) * sizeof(double));
	const char **labels = xcalloc(2 * v->nr + 1, sizeof(char *));
	const struct col *xc = &v->c[v->x];
	struct buf b = BUF_INIT, svg = BUF_INIT, cap = BUF_INIT, yl = BUF_INIT, xl = BUF_INIT;
	struct buf id = BUF_INIT, title = BUF_INIT, dim = BUF_INIT;
	int has_labels = 0;

	for (j = 0; j < v->nc; j++)
		has_labels |= v->c[j].is_label;
	for (i = 0; i < v->nr; i++) {
		buf_reset(&b);
		if (has_labels)
			row_label(v, i, NULL, &b);
		si[i] = strlist_index(&sl, &ns, &sa, b.ptr);
	}
	/* rows by series (first appearance), then by x; stable */
	n = 0;
	for (k = 0; k < ns; k++)
		for (i = 0; i < v->nr; i++)
			if (si[i] == k) {
				size_t p = n++;

				while (p > 0 && si[order[p - 1]] == k &&
				       cell_num(v, order[p - 1], v->x) > cell_num(v, i, v->x)) {
					order[p] = order[p - 1];
					p--;
				}
				order[p] = i;
			}
	dim_name(v, NULL, &dim, 1);
	label_unit(&xl, xc);
	for (j = 0; j < v->nc; j++) {
		const struct col *m = &v->c[j];
		struct svg_frame f = { 0 };
		struct svg_points p = { 0 };
		size_t np = 0, any = 0;

		if (!m->numeric || !chartable(m->name) || (long)j == v->x)
			continue;
		for (i = 0; i < n; i++) {
			size_t r = order[i];

			if (i && si[order[i - 1]] != si[r]) {
				x[np] = y[np] = NAN;	/* breaks the line */
				labels[np++] = NULL;
			}
			x[np] = cell_num(v, r, v->x);
			y[np] = cell_num(v, r, (long)j);
			any += isfinite(x[np]) && isfinite(y[np]);
			labels[np++] = sl[si[r]];
		}
		if (!any)
			continue;
		buf_reset(&id);
		buf_reset(&cap);
		buf_reset(&yl);
		buf_reset(&title);
		chart_frame_id(ids, v, m, &id);
		label_unit(&yl, m);
		buf_addf(&title, "%s: %s by ", v->title, m->label);
		add_label(&title, xc->label, 1);
		buf_addf(&cap, "%s against ", yl.ptr);
		add_label(&cap, xl.ptr, 1);
		if (has_labels && ns > 1)
			buf_addf(&cap, ", one line per %s (named at its points)", dim.ptr);
		else if (has_labels)
			buf_addf(&cap, " (%s %s)", dim.ptr, sl[0]);
		buf_addstr(&cap, ", as published: one value per point, no rounds, so no "
			   "error bars.");
		p.n = np;
		p.x = x;
		p.y = y;
		/* the points name their line when there are several */
		p.labels = ns > 1 ? labels : NULL;
		p.connect = 1;
		f.id = id.ptr;
		f.title = title.ptr;
		f.desc = cap.ptr;
		f.xlabel = xl.ptr;
		f.ylabel = yl.ptr;
		svg_scatter(&svg, &f, &p);
		figure(list, &svg, cap.ptr);
	}
	strlist_free(sl, ns);
	free(si);
	free(order);
	free(x);
	free(y);
	free(labels);
	buf_release(&b);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&yl);
	buf_release(&xl);
	buf_release(&id);
	buf_release(&title);
	buf_release(&dim);
}

/* ------------------------------------------------------------------ */
/* the table view and its Markdown */

/*
 * The rows of a table (render/table.h renders them in chunks, so a table
 * of 100,000 rows never has a JSON object per cell in memory at once),
 * each named by an id from its key and x columns (else its label
 * columns, else its first column), made in row order.
 */

/* Cell (i, j) of the data as published, wherever the page puts it. */
static void
put_cell(struct table *t, const struct tv *v, size_t i, size_t j, struct buf *b)
{
	struct tcell c = { NULL, v->c[j].numeric, NULL, NULL, NULL, NULL };

	buf_reset(b);
	c.text = cell_text(v, i, j, b) ? b->ptr : NULL;
	table_cell(t, &c);
}

static void
tv_rows(struct sset *ids, const struct tv *v, struct table *t)
{
	struct buf b = BUF_INIT, want = BUF_INIT, th = BUF_INIT;
	size_t i, j;
	int any_key = 0;

	for (j = 0; j < v->nc; j++)
		any_key |= !strcmp(v->c[j].role, "key") || (long)j == v->x;
	for (i = 0; i < v->nr; i++) {
		struct trow r = { NULL, NULL, NULL, NULL, NULL, NULL };

		buf_reset(&want);
		buf_addstr(&want, "r-");
		buf_addstr(&want, v->base);
		for (j = 0; j < v->nc; j++) {
			int use = any_key ? !strcmp(v->c[j].role, "key") || (long)j == v->x
					  : v->c[j].is_label;

			if (!use)
				continue;
			buf_reset(&b);
			buf_addch(&want, '-');
			if (cell_text(v, i, j, &b))
				id_part(&want, b.ptr);
			else
				buf_addstr(&want, "na");
		}
		if (!want.len || want.len == 2 + strlen(v->base)) {
			buf_reset(&b);
			buf_addch(&want, '-');
			if (cell_text(v, i, 0, &b))
				id_part(&want, b.ptr);
			else
				buf_addf(&want, "%zu", i + 1);
		}
		buf_reset(&th);
		r.id = id_unique(ids, &want, NULL);
		r.th = v->nc && cell_text(v, i, 0, &th) ? th.ptr : NULL;
		r.cls = v->nc && v->c[0].numeric ? "num" : "txt";
		table_rowx(t, &r);
		for (j = 1; j < v->nc; j++)
			put_cell(t, v, i, j, &b);
	}
	buf_release(&b);
	buf_release(&want);
	buf_release(&th);
}

/*
 * A table the source printed turned (run.json "transpose": the targets as
 * columns, the measures as rows, as the Conduit write-up's startup and
 * memory table): one column per row of the data, headed by its first
 * cell, and one row per other column, headed by its label and unit.  The
 * cells are the same published texts; only the page turns them.
 */
static void
tv_turned(struct sset *ids, const struct tv *v, struct table *t)
{
	struct buf b = BUF_INIT, want = BUF_INIT, th = BUF_INIT;
	size_t i, j;

	table_col(t, "Measure", NULL, 0);
	for (i = 0; i < v->nr; i++) {
		struct tcol c = { NULL, NULL, 1, NULL, NULL, NULL, NULL };

		buf_reset(&b);
		c.h = cell_text(v, i, 0, &b) ? b.ptr : NUM_MISSING;
		table_colx(t, &c);
	}
	for (j = 1; j < v->nc; j++) {
		struct trow r = { NULL, NULL, NULL, NULL, NULL, "txt" };

		buf_reset(&want);
		buf_addf(&want, "r-%s-", v->base);
		id_part(&want, v->c[j].name);
		buf_reset(&th);
		label_unit(&th, &v->c[j]);
		r.id = id_unique(ids, &want, NULL);
		r.th = th.ptr;
		table_rowx(t, &r);
		for (i = 0; i < v->nr; i++)
			put_cell(t, v, i, j, &b);
	}
	buf_release(&b);
	buf_release(&want);
	buf_release(&th);
}

/* {sid, title, caption, file, csv, nrows, notes: [{id, text}],
 *  tbl: [the table for p-table.html],
 *  charts: [{svg, caption}], nochart}; NULL after a template error. */
static json_t *
section_view(struct sset *ids, const struct tv *v, const char *csv_name,
	   const struct tmpl *rows_tp, struct buf *md)
{
	static const char *const sec_sfx[] = { "-h", NULL };
	json_t *o = json_object(), *notes = json_array(), *charts = json_array(), *x;
	struct buf b = BUF_INIT, want = BUF_INIT;
	struct table t;
	const char **marks = xcalloc(v->nc + 1, sizeof(char *));
	const char *sid, *tid;
	size_t i, j;

	buf_addstr(&want, "table-");
	buf_addstr(&want, v->base);
	sid = id_unique(ids, &want, sec_sfx);
	buf_reset(&want);
	buf_addstr(&want, "tbl-");
	buf_addstr(&want, v->base);
	tid = id_unique(ids, &want, NULL);
	table_init(&t, rows_tp, tid, NULL);
	buf_reset(&b);
	buf_addf(&b, "%s-h", sid);
	table_label(&t, b.ptr);
	table_empty(&t, "No rows were published in this table.");
	table_md(&t);
	buf_reset(&b);
	set_s(o, "sid", sid);
	set_s(o, "title", v->title);
	set_s(o, "caption", jstr(v->t, "caption"));
	set_s(o, "file", jstr(v->t, "file"));
	set_s(o, "csv", csv_name);
	buf_addf(&b, "%zu row%s", v->nr, v->nr == 1 ? "" : "s");
	/* a turned table shows its rows as columns: say so, or "2 rows" sits
	 * under a table of three */
	if (json_is_true(json_object_get(v->t, "transpose")) && v->nr && v->nr <= TURN_MAX_ROWS)
		buf_addstr(&b, " in the file, shown as columns");
	set_s(o, "nrows", b.ptr);

	/* Markdown: heading, caption, notes */
	buf_addstr(md, "### ");
	md_text(md, v->title);
	buf_addstr(md, "\n\n");
	if (jstr(v->t, "caption")) {
		md_text(md, jstr(v->t, "caption"));
		buf_addstr(md, "\n\n");
	}

	/* notes: shown above the table; a column a note names (in quotes, as
	 * summary.c writes them) gets a mark pointing at it */
	json_array_foreach(json_object_get(v->t, "notes"), i, x) {
		json_t *n = json_object();
		const char *nid;

		buf_reset(&b);
		value_text(&b, x);
		if (!b.len) {
			json_decref(n);
			continue;
		}
		if (!strchr(".!?", b.ptr[b.len - 1]))
			buf_addch(&b, '.');
		buf_reset(&want);
		buf_addf(&want, "note-%s-%zu", v->base, i + 1);
		nid = id_unique(ids, &want, NULL);
		set_s(n, "id", nid);
		set_s(n, "text", b.ptr);
		json_array_append_new(notes, n);
		buf_addstr(md, "> **Note:** ");
		md_text(md, b.ptr);
		buf_addstr(md, "\n\n");
		for (j = 0; j < v->nc; j++) {
			struct buf q = BUF_INIT;

			buf_addf(&q, "'%s'", v->c[j].name);
			if (!marks[j] && strstr(b.ptr, q.ptr))
				marks[j] = nid;
			buf_release(&q);
		}
	}

	/* columns, rows; turned as the source printed it, when it did and the
	 * rows are few enough to be columns */
	if (json_is_true(json_object_get(v->t, "transpose")) && v->nr && v->nr <= TURN_MAX_ROWS) {
		tv_turned(ids, v, &t);
	} else {
		for (j = 0; j < v->nc; j++) {
			struct tcol c = { v->c[j].label, unit_hint(&v->c[j]), v->c[j].numeric,
					  NULL, NULL, v->c[j].name, marks[j] };

			table_colx(&t, &c);
		}
		tv_rows(ids, v, &t);
	}
	if (table_end(&t)) {
		json_decref(o);
		json_decref(notes);
		json_decref(charts);
		o = NULL;
		goto out;
	}
	buf_add(md, table_md_text(&t)->ptr, table_md_text(&t)->len);
	buf_addch(md, '\n');
	json_object_set_new(o, "tbl", one(table_view(&t)));
	json_object_set_new(o, "notes", notes);

	/* a chart of thousands of bars or points shows nothing and costs a
	 * page of SVG per column: the table and the CSV hold every value */
	if (v->nr > SUMMARY_VIEW_MAX_ROWS) {
		buf_reset(&b);
		buf_addf(&b, "No charts: %zu rows are more than a chart can show (at most %d); "
			 "the table and the CSV hold every value.", v->nr, SUMMARY_VIEW_MAX_ROWS);
		set_s(o, "nochart", b.ptr);
	} else {
		json_object_set_new(o, "nochart", json_null());
		if (v->nr && v->x >= 0)
			table_lines(ids, v, charts);
		else if (v->nr)
			table_bars(ids, v, charts);
	}
	json_object_set_new(o, "charts", charts);
out:
	table_free(&t);
	free(marks);
	buf_release(&b);
	buf_release(&want);
	return o;
}

/* ------------------------------------------------------------------ */
/* setup */

static void
kv_add(json_t *rows, const char *k, const json_t *x)
{
	json_t *r = json_object();
	struct buf b = BUF_INIT;

	value_text(&b, x);
	set_s(r, "k", k);
	set_s(r, "v", b.len ? b.ptr : NULL);
	json_array_append_new(rows, r);
	buf_release(&b);
}

/* Every member of obj as a row; a nested object one row per member
 * ("Routes · get /"); cap capitalises the labels (not software names). */
static void
kv_flatten(json_t *rows, const json_t *obj, const char *skip, int cap)
{
	const char *k, *k2;
	json_t *x, *y;
	struct buf kb = BUF_INIT;

	json_object_foreach((json_t *)obj, k, x) {
		if (skip && !strcmp(k, skip))
			continue;
		if (json_is_object(x) && json_object_size(x)) {
			json_object_foreach(x, k2, y) {
				buf_reset(&kb);
				if (cap)
					humanise(&kb, k, 1);
				else
					buf_addstr(&kb, k);
				buf_addstr(&kb, MIDDOT);
				buf_addstr(&kb, k2);
				kv_add(rows, kb.ptr, y);
			}
			continue;
		}
		buf_reset(&kb);
		if (!cap)
			buf_addstr(&kb, k);
		else if (!strcmp(k, "id"))
			buf_addstr(&kb, "Machine id");
		else
			humanise(&kb, k, 1);
		kv_add(rows, kb.ptr, x);
	}
	buf_release(&kb);
}

static void
setup_view(json_t *view, const json_t *res)
{
	const json_t *cond = json_object_get(res, "conditions");
	json_t *groups = json_array(), *rows;
	size_t i;

	rows = kv_group(groups, "setup-machine", "Machine");
	kv_flatten(rows, json_object_get(res, "machine"), NULL, 1);
	rows = kv_group(groups, "setup-software", "Software");
	kv_flatten(rows, json_object_get(res, "software"), NULL, 0);
	rows = kv_group(groups, "setup-load", "Load");
	kv_flatten(rows, json_object_get(cond, "load"), NULL, 1);
	rows = kv_group(groups, "setup-source", "Source");
	kv_flatten(rows, json_object_get(res, "source"), NULL, 1);
	rows = kv_group(groups, "setup-conditions", "Conditions");
	json_object_set_new(json_array_get(groups, json_array_size(groups) - 1), "wide",
			    json_true());
	kv_flatten(rows, cond, "load", 1);
	/* a group the run says nothing for is left out, not a bare heading */
	for (i = json_array_size(groups); i-- > 0;)
		if (!json_array_size(json_object_get(json_array_get(groups, i), "rows")))
			json_array_remove(groups, i);
	json_object_set_new(view, "setup", groups);
}

/* ------------------------------------------------------------------ */
/* the page */

/* A date as published ("2022", "2023-05", "2026-11-05", an ISO time) is
 * also a <time datetime> value; anything else is only shown. */
static int
is_iso_date(const char *s)
{
	size_t i, n = s ? strlen(s) : 0;

	if (n < 4)
		return 0;
	for (i = 0; i < 4; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	if (n == 4)
		return 1;
	if (n < 7 || s[4] != '-' || s[5] < '0' || s[5] > '9' || s[6] < '0' || s[6] > '9')
		return 0;
	if (n == 7)
		return 1;
	if (n < 10 || s[7] != '-' || s[8] < '0' || s[8] > '9' || s[9] < '0' || s[9] > '9')
		return 0;
	for (i = 10; i < n; i++)
		if (!strchr("0123456789-:.TZ+", s[i]))
			return 0;
	return 1;
}

/*
 * A published time for display, as run pages show theirs: an ISO 8601
 * time with its zone ("2026-12-03T06:28Z", "...T08:56:28+07:00") reads
 * "2026-12-03 06:28 UTC" or "2026-08-26 08:56 +07:00"; anything else (a
 * date, a year, a time without a zone) as published.
 */
static void
when_view(json_t *view, const char *when)
{
	const char *z;
	char w[48];
	size_t n;

	if (!when || iso_prefix(when) != 16) {
		set_s(view, "when", when);
		return;
	}
	z = when + 16;
	z += strspn(z, "0123456789:.");
	n = strlen(z);
	if (!strcmp(z, "Z"))
		snprintf(w, sizeof(w), "%.10s %.5s UTC", when, when + 11);
	else if (n == 6 && (z[0] == '+' || z[0] == '-') && z[3] == ':' &&
		 strspn(z + 1, "0123456789") == 2 && strspn(z + 4, "0123456789") == 2)
		snprintf(w, sizeof(w), "%.10s %.5s %s", when, when + 11, z);
	else
		snprintf(w, sizeof(w), "%s", when);
	set_s(view, "when", w);
}

static void
top_view(json_t *view, const json_t *res, const char *id, size_t depth)
{
	const json_t *r = json_object_get(res, "reconstructed"), *src = json_object_get(res, "source");
	const char *when = jstr(res, "captured_at");
	json_t *so = json_object();
	struct buf b = BUF_INIT;
	static const char *const skeys[] = { "title", "published", "url", "note", NULL };
	size_t i;

	json_object_set_new(view, "up", up_list(depth));
	set_s(view, "title", jstr(res, "title") ? jstr(res, "title") : id);
	set_s(view, "run", id);
	set_s(view, "captured_at", when);
	set_s(view, "datetime", is_iso_date(when) ? when : NULL);
	when_view(view, when);
	if (!r || json_is_null(r) || json_is_false(r)) {
		json_object_set_new(view, "reconstructed", json_false());
		json_object_set_new(view, "reconstructed_text", json_null());
	} else {
		value_text(&b, r);
		json_object_set_new(view, "reconstructed", json_true());
		set_s(view, "reconstructed_text", b.len && !json_is_true(r) ? b.ptr : NULL);
		buf_reset(&b);
	}
	for (i = 0; skeys[i]; i++) {
		const json_t *x = json_object_get(src, skeys[i]);

		buf_reset(&b);
		if (!strcmp(skeys[i], "url")) {
			set_s(so, "url", json_is_string(x) && json_string_length(x) ? json_string_value(x)
									: NULL);
			continue;
		}
		value_text(&b, x);
		/* the note reads as a sentence of its own */
		while (!strcmp(skeys[i], "note") && b.len && strchr(". ", b.ptr[b.len - 1]))
			buf_setlen(&b, b.len - 1);
		if (!strcmp(skeys[i], "note") && b.len && b.ptr[0] >= 'a' && b.ptr[0] <= 'z')
			b.ptr[0] = (char)(b.ptr[0] - 'a' + 'A');
		set_s(so, skeys[i], b.len ? b.ptr : NULL);
	}
	json_object_set_new(view, "source", so);
	json_object_set_new(view, "energy", json_boolean(jstr(res, "energy_source") &&
							 !strcmp(jstr(res, "energy_source"), "published")));
	json_object_set_new(view, "built", build_date());
	buf_release(&b);
}

/*
 * Whether a table publishes a spread (a column "sd" or "*_sd"), and the
 * rounds behind the figures when run.json states one n for all the
 * columns that give one (0: not stated, or several).
 */
struct spread {
	int sd;
	long long n;
};

static struct spread
spread_of(const json_t *res)
{
	struct spread sp = { 0, 0 };
	const json_t *t, *c;
	size_t i, j;
	int several = 0;

	json_array_foreach(json_object_get(res, "tables"), i, t)
		json_array_foreach(json_object_get(t, "columns"), j, c) {
			const char *name = jstr(c, "name") ? jstr(c, "name") : "";
			size_t len = strlen(name);
			const json_t *n = json_object_get(c, "n");

			if (!strcmp(name, "sd") || (len > 3 && !strcmp(name + len - 3, "_sd")))
				sp.sd = 1;
			if (json_is_integer(n)) {
				if (sp.n && sp.n != json_integer_value(n))
					several = 1;
				sp.n = json_integer_value(n);
			}
		}
	if (several)
		sp.n = 0;
	return sp;
}

/* The sentence on spread, for the page and tables.md. */
static void
spread_text(struct buf *b, struct spread sp, int caveat)
{
	if (!sp.sd) {
		buf_addstr(b, caveat ? "One value per cell, with no rounds or repetitions: no spread, "
				       "confidence interval or test of a difference can be given, and "
				       "small differences between neighbours may be noise."
				     : "One value per cell, no rounds: no uncertainty can be given.");
		return;
	}
	buf_addstr(b, "Means with the SD the source published");
	if (sp.n)
		buf_addf(b, " over %lld rounds", sp.n);
	else
		buf_addstr(b, " (the number of rounds is not stated)");
	buf_addstr(b, caveat ? "; erg has only these summaries, not the rounds, so it gives no "
			       "confidence interval or test of a difference of its own; figures "
			       "without an SD are single values."
			     : "; no confidence interval or test of erg's own.");
}

static void
caveats_view(json_t *view, const json_t *res)
{
	json_t *cav = json_array(), *own = json_array();
	const json_t *x;
	struct buf b = BUF_INIT;
	size_t i;

	json_array_append_new(cav, S(
		"erg did not measure these figures: they are copied as published, and "
		"there are no raw files to check them against."));
	spread_text(&b, spread_of(res), 1);
	json_array_append_new(cav, S(b.ptr));
	buf_reset(&b);
	{
		struct spread sp = spread_of(res);

		json_object_set_new(view, "spread", json_boolean(sp.sd));
		buf_reset(&b);
		spread_text(&b, sp, 0);
		set_s(view, "spread_text", b.ptr);
		buf_reset(&b);
	}
	json_array_append_new(cav, S(
		"Numbers are shown with the digits the published table gave, in the pages, "
		"the CSV downloads (with their units) and results.json (\"published\")."));
	if (jstr(res, "energy_source") && !strcmp(jstr(res, "energy_source"), "published"))
		json_array_append_new(cav, S(
			"The energy figures are the source's: what they include and how they "
			"were measured follow its method, so compare them with erg's measured "
			"sessions only where the method matches."));
	json_array_foreach(json_object_get(res, "caveats"), i, x) {
		buf_reset(&b);
		value_text(&b, x);
		if (b.len)
			json_array_append_new(own, S(b.ptr));
	}
	json_object_set_new(view, "caveats", cav);
	json_object_set_new(view, "run_caveats", own);
	buf_release(&b);
}

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

int
render_summary_run(struct render_ctx *c, json_t *res)
{
	/* ids the template writes itself */
	static const char *const fixed[] = {
		"top", "published", "published-h", "reconstructed", "setup", "setup-h",
		"setup-machine", "setup-software", "setup-load", "setup-source",
		"setup-conditions",
		"tables", "tables-h", "notes", "notes-h", "caveats", "caveats-h",
		"run-caveats", "files", "files-h", NULL,
	};
	struct sset ids = { 0 }, files = { 0 };
	struct tmpl *tp = NULL;
	json_t *view = NULL, *tables, *t, *tv;
	const char *id = jstr(res, "run"), *md;
	const char **keep = NULL;
	size_t i, k, nkeep = 0, akeep = 0;
	struct buf page = BUF_INIT, mdb = BUF_INIT, notes = BUF_INIT, b = BUF_INIT, csv = BUF_INIT;
	long depth;
	int rc = -1;

	if (!id)
		return error("results without a run id ('run' missing or not a string)");
	if ((depth = run_depth(id)) < 0)
		return error("run id '%s' is not a relative path", id);
	if (!(tp = tmpl_load(c->tmpl_dir, "summary")))
		return -1;
	for (i = 0; fixed[i]; i++)
		sset_add(&ids, fixed[i]);
	sset_add(&files, "results.json");
	sset_add(&files, "tables.md");
	sset_add(&files, "index.html");

	view = json_object();
	top_view(view, res, id, (size_t)depth);
	setup_view(view, res);
	caveats_view(view, res);

	/* tables.md: the heading and the scope */
	buf_addstr(&mdb, "## ");
	md_text(&mdb, jstr(res, "title") ? jstr(res, "title") : id);
	buf_addstr(&mdb, "\n\nRun ");
	md_text(&mdb, id);
	buf_addstr(&mdb, ". Figures as published");
	if (jpath_str(res, "source.title")) {
		buf_addstr(&mdb, " in *");
		md_text(&mdb, jpath_str(res, "source.title"));
		buf_addch(&mdb, '*');
	}
	if (json_object_get(json_object_get(res, "source"), "published") &&
	    !json_is_null(json_object_get(json_object_get(res, "source"), "published"))) {
		value_text(&b, json_object_get(json_object_get(res, "source"), "published"));
		buf_addstr(&mdb, " (");
		md_text(&mdb, b.ptr);
		buf_addch(&mdb, ')');
		buf_reset(&b);
	}
	md = jpath_str(res, "source.url");
	if (md && (!strncasecmp(md, "http://", 7) || !strncasecmp(md, "https://", 8))) {
		buf_addstr(&mdb, ", <");
		/* an autolink: no spaces or angle brackets inside */
		for (md = jpath_str(res, "source.url"); *md; md++)
			if ((unsigned char)*md > 0x20 && *md != '<' && *md != '>' && *md != 0x7f)
				buf_addch(&mdb, *md);
		buf_addch(&mdb, '>');
	}
	buf_addstr(&mdb, ". ");
	spread_text(&mdb, spread_of(res), 0);
	buf_addstr(&mdb, " Machine and conditions as published.\n\n");

	tables = json_array();
	json_array_foreach(json_object_get(res, "tables"), i, t) {
		struct tv v;
		const char *fname;
		char fallback[32];

		snprintf(fallback, sizeof(fallback), "Table %zu", i + 1);
		tv_load(&v, t, fallback);
		v.targets = json_object_get(res, "targets");
		/* base.csv, or base-2.csv, ... when two tables share a name */
		for (k = 1;; k++) {
			buf_reset(&b);
			buf_addstr(&b, v.base);
			if (k > 1)
				buf_addf(&b, "-%zu", k);
			buf_addstr(&b, ".csv");
			if (!sset_has(&files, b.ptr))
				break;
		}
		fname = sset_add(&files, b.ptr);
		/* the ids of the table's rows and charts follow the CSV's name */
		free(v.base);
		v.base = xstrndup(fname, strlen(fname) - 4);
		ALLOC_GROW(keep, nkeep + 1, akeep);
		keep[nkeep++] = fname;
		if (!(tv = section_view(&ids, &v, fname, render_rows(c), &mdb))) {
			tv_free(&v);
			json_decref(tables);
			goto out;
		}
		json_array_append_new(tables, tv);
		buf_reset(&csv);
		csv_table(&csv, t);
		if (write_file(c, id, fname, &csv)) {
			tv_free(&v);
			json_decref(tables);
			goto out;
		}
		tv_free(&v);
	}
	json_object_set_new(view, "tables", tables);

	/* notes; links to the files written here stay links */
	md = jpath_str(res, "notes.markdown");
	if (md && *md) {
		static const char *const base[] = { "results.json", "tables.md", "index.html" };
		struct md_opts o = { 2, NULL, 0 };

		for (i = 0; i < 3; i++) {
			ALLOC_GROW(keep, nkeep + 1, akeep);
			keep[nkeep++] = base[i];
		}
		o.keep = keep;
		o.nkeep = nkeep;
		if (markdown_to_html_opts(md, strlen(md), &o, &notes))
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
	sset_free(&files);
	free(keep);
	buf_release(&page);
	buf_release(&mdb);
	buf_release(&notes);
	buf_release(&b);
	buf_release(&csv);
	return rc;
}

/* ------------------------------------------------------------------ */
/* latency charts of a session */

#define NLAT 7
static const char *const lat_key[NLAT] = { NULL, "p50", "p75", "p90", "p95", "p99", "p99.9" };
static const char *const lat_label[NLAT] = { "mean", "p50", "p75", "p90", "p95", "p99", "p99.9" };

static double
lat_value(const json_t *load, size_t k)
{
	if (!k)
		return num_of(json_object_get(load, "latency_mean_us"));
	return num_of(json_object_get(json_object_get(load, "latency_pct_us"), lat_key[k]));
}

int
render_latency_charts(json_t *res, struct buf *out)
{
	const json_t *ms = json_object_get(res, "measurements"), *m, *r, *t;
	char **tn = NULL, **rn = NULL;
	size_t nt = 0, ta = 0, nr = 0, ra = 0, i, j, k, q, charts = 0;
	struct sset ids = { 0 };
	struct buf svg = BUF_INIT, cap = BUF_INIT, title = BUF_INIT, want = BUF_INIT;
	double *x = NULL;
	size_t nx = 0, *style;

	/* targets in the results' order, then any only the measurements name */
	json_array_foreach(json_object_get(res, "targets"), i, t)
		if (jstr(t, "name"))
			strlist_index(&tn, &nt, &ta, jstr(t, "name"));
	json_array_foreach(ms, i, m) {
		if (jstr(m, "target"))
			strlist_index(&tn, &nt, &ta, jstr(m, "target"));
		json_array_foreach(json_object_get(m, "routes"), j, r)
			if (jstr(r, "name"))
				strlist_index(&rn, &nr, &ra, jstr(r, "name"));
	}
	nx = json_array_size(ms) + 1;
	x = xmalloc(nx * sizeof(double));
	style = xcalloc(nt + 1, sizeof(*style));
	for (i = 0; i < nt; i++)
		style[i] = target_slot(json_object_get(res, "targets"), tn[i]);
	for (q = 0; q < nr; q++) {
		double *val = xmalloc((NLAT * nt + 1) * sizeof(double));
		double *err = xmalloc((NLAT * nt + 1) * sizeof(double));
		double nlo = INFINITY, nhi = 0;
		size_t ng = 0;
		const char *gl[NLAT];
		struct svg_frame f = { 0 };
		struct svg_groups g = { 0 };
		static const char *const sfx[] = { "-title", "-desc", NULL };

		for (k = 0; k < NLAT; k++) {
			int anyk = 0;

			for (i = 0; i < nt; i++) {
				struct summary s;
				size_t n = 0;

				json_array_foreach(ms, j, m) {
					size_t a;

					if (!jstr(m, "target") || strcmp(jstr(m, "target"), tn[i]))
						continue;
					json_array_foreach(json_object_get(m, "routes"), a, r)
						if (jstr(r, "name") && !strcmp(jstr(r, "name"), rn[q])) {
							double v = lat_value(json_object_get(r, "load"), k);

							if (isfinite(v) && n < nx)
								x[n++] = v / 1000.0;
						}
				}
				val[ng * nt + i] = err[ng * nt + i] = NAN;
				if (!n)
					continue;
				stats_summary(x, n, &s);
				val[ng * nt + i] = s.mean;
				err[ng * nt + i] = s.sd;	/* NAN when n < 2 */
				nlo = (double)n < nlo ? (double)n : nlo;
				nhi = (double)n > nhi ? (double)n : nhi;
				anyk = 1;
			}
			if (anyk)
				gl[ng++] = lat_label[k];
		}
		if (ng) {
			/* name only what was recorded: a mean alone is no percentile */
			int mean = !strcmp(gl[0], lat_label[0]), pct = ng > (size_t)mean;
			const char *what = mean && pct ? "mean and percentiles"
					   : mean ? "mean" : "percentiles";

			buf_reset(&want);
			buf_reset(&cap);
			buf_reset(&title);
			buf_addstr(&want, "chart-latency-");
			id_part(&want, rn[q]);
			f.id = id_unique(&ids, &want, sfx);
			if (pct)
				buf_addf(&title, "Latency by percentile, route %s", rn[q]);
			else
				buf_addf(&title, "Mean latency, route %s", rn[q]);
			buf_addf(&cap, "Latency of route %s as the load generator reported it (ms): "
				 "its %s, per target%s. Bars: the mean over the "
				 "rounds (n = ", rn[q], what,
				 pct ? "" : " (no percentiles were recorded)");
			if (nlo == nhi)
				buf_addf(&cap, "%.0f", nlo);
			else
				buf_addf(&cap, "%.0f" EN_DASH "%.0f", nlo, nhi);
			buf_addstr(&cap, nhi == 1 ? " round" : " rounds");
			buf_addstr(&cap, nhi >= 2 ? "); whiskers: " PLUSMINUS "1 SD over the rounds."
						  : "; one round, so no whiskers).");
			if (pct)
				buf_addstr(&cap, " A percentile averaged over rounds is not the "
					   "percentile of all the requests pooled.");
			f.title = title.ptr;
			f.desc = cap.ptr;
			f.xlabel = what;
			f.ylabel = "latency (ms)";
			g.ngroups = ng;
			g.nseries = nt;
			g.group_labels = gl;
			g.series_labels = (const char *const *)tn;
			g.value = val;
			g.err = err;
			f.style = style;
			buf_reset(&svg);
			svg_grouped_bars(&svg, &f, &g);
			if (synthetic_note(res)) {
				buf_addch(&cap, ' ');
				buf_addstr(&cap, synthetic_note(res));
			}
			html_printf(out, "<figure class=\"chart\">\n%R\n<figcaption>%H</figcaption>\n"
				    "</figure>\n", svg.ptr, cap.ptr);
			charts++;
		}
		free(val);
		free(err);
	}
	free(x);
	free(style);
	strlist_free(tn, nt);
	strlist_free(rn, nr);
	sset_free(&ids);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&title);
	buf_release(&want);
	return (int)charts;
}

/* ------------------------------------------------------------------ */
/* shared with the page of a trials run (page_trials.c) */

void
summary_page_top(json_t *view, const json_t *res, const char *id, size_t depth)
{
	top_view(view, res, id, depth);
	setup_view(view, res);
}

void
summary_csv(struct buf *b, const json_t *t)
{
	csv_table(b, t);
}
