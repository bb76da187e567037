/*
 * table.c - see table.h.  It replaces three builders (tbl_* of the run
 * page, table_view of the summary page, vt_* of the cross-run pages) and
 * their five partials; what they did differently is now an option of
 * the one table, so the pages print as they did.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "render/numfmt.h"
#include "render/table.h"
#include "render/tmpl.h"
#include "render/view.h"

#define PLUSMINUS " \xc2\xb1 "

size_t table_chunk = 256;
_Atomic size_t table_chunk_peak;

/* The "nothing" of every key a row or a cell may leave out (table.h). */
static json_t *
chunk_root(void)
{
	json_t *r = json_object();

	json_object_set_new(r, "rows", json_array());
	json_object_set_new(r, "sortable", json_false());
	/* rows */
	json_object_set_new(r, "thref", json_null());
	json_object_set_new(r, "tail", json_null());
	json_object_set_new(r, "tsub", json_null());
	json_object_set_new(r, "tcls", json_null());
	json_object_set_new(r, "tna", json_false());
	/* cells */
	json_object_set_new(r, "na", json_false());
	json_object_set_new(r, "sd", json_null());
	json_object_set_new(r, "sdna", json_false());
	json_object_set_new(r, "v", json_null());
	json_object_set_new(r, "href", json_null());
	json_object_set_new(r, "sub", json_null());
	return r;
}

static json_t *
str(const char *s)
{
	return s ? json_stringn_nocheck(s, strlen(s)) : json_null();
}

void
table_init(struct table *t, const struct tmpl *rows_tp, const char *id, const char *caption)
{
	struct buf lab = BUF_INIT;

	memset(t, 0, sizeof(*t));
	t->rows_tp = rows_tp;
	t->o = json_object();
	t->cols = json_array();
	t->root = chunk_root();
	t->rows = json_object_get(t->root, "rows");
	t->num = json_string("num");
	t->txt = json_string("txt");
	json_object_set_new(t->o, "id", str(id));
	json_object_set_new(t->o, "caption", str(caption));
	buf_addf(&lab, "%s-cap", id);
	json_object_set_new(t->o, "lab", caption ? str(lab.ptr) : json_null());
	json_object_set_new(t->o, "cls", json_null());
	json_object_set_new(t->o, "note", json_null());
	json_object_set_new(t->o, "empty", json_null());
	json_object_set_new(t->o, "ncols", json_integer(1));
	json_object_set(t->o, "cols", t->cols);
	json_object_set_new(t->o, "body", json_null());
	buf_release(&lab);
}

void
table_label(struct table *t, const char *lab)
{
	json_object_set_new(t->o, "lab", str(lab));
}

void
table_class(struct table *t, const char *cls, int sortable)
{
	json_object_set_new(t->o, "cls", str(cls));
	json_object_set_new(t->root, "sortable", json_boolean(sortable));
	t->sortable = sortable;
}

void
table_note(struct table *t, const char *note)
{
	json_object_set_new(t->o, "note", str(note));
}

void
table_empty(struct table *t, const char *text)
{
	json_object_set_new(t->o, "empty", str(text));
}

void
table_md(struct table *t)
{
	t->md_on = 1;
}

/* ------------------------------------------------------------------ */
/* columns */

void
table_col(struct table *t, const char *h, const char *unit, int num)
{
	struct tcol c = { h, unit, num, NULL, NULL, NULL, NULL };

	table_colx(t, &c);
}

void
table_colx(struct table *t, const struct tcol *c)
{
	json_t *o = json_object();
	struct buf tip = BUF_INIT;

	json_object_set_new(o, "h", str(c->h));
	json_object_set_new(o, "u", str(c->unit));
	json_object_set(o, "cls", c->num ? t->num : t->txt);
	json_object_set_new(o, "href", c->href ? c->href : json_null());
	json_object_set_new(o, "title", str(c->title));
	if (c->name)
		buf_addf(&tip, "column %s", c->name);
	json_object_set_new(o, "tip", c->name ? str(tip.ptr) : json_null());
	json_object_set_new(o, "mark", str(c->mark));
	json_array_append_new(t->cols, o);
	t->ncols++;
	buf_release(&tip);
}

/* The Markdown header: "| h \* (u) |", then "| --- | ---: |". */
static void
md_head(struct table *t)
{
	const json_t *c;
	size_t i;

	buf_addch(&t->md, '|');
	json_array_foreach(t->cols, i, c) {
		buf_addch(&t->md, ' ');
		md_text(&t->md, jstr(c, "h"));
		if (jstr(c, "mark"))
			buf_addstr(&t->md, " \\*");
		if (jstr(c, "u")) {
			buf_addstr(&t->md, " (");
			md_text(&t->md, jstr(c, "u"));
			buf_addch(&t->md, ')');
		}
		buf_addstr(&t->md, " |");
	}
	buf_addstr(&t->md, "\n|");
	json_array_foreach(t->cols, i, c)
		buf_addstr(&t->md, json_object_get(c, "cls") == t->num ? " ---: |" : " --- |");
	buf_addch(&t->md, '\n');
}

/* ------------------------------------------------------------------ */
/* rows */

/* Render the rows gathered so far and start the next chunk. */
static void
flush(struct table *t)
{
	size_t n = json_array_size(t->rows), peak = atomic_load(&table_chunk_peak);

	if (!n)
		return;
	while (n > peak && !atomic_compare_exchange_weak(&table_chunk_peak, &peak, n))
		;
	if (!t->err && tmpl_render(t->rows_tp, t->root, &t->body, 1))
		t->err = -1;
	t->rows = json_array();
	json_object_set_new(t->root, "rows", t->rows);
}

/* The current row is complete. */
static void
row_end(struct table *t)
{
	if (!t->cells)
		return;
	if (t->md_on)
		buf_addch(&t->md, '\n');
	t->cells = NULL;
	if (json_array_size(t->rows) >= (table_chunk ? table_chunk : 1))
		flush(t);
}

void
table_row(struct table *t, const char *id, const char *th)
{
	struct trow r = { id, th, NULL, NULL, NULL, NULL };

	table_rowx(t, &r);
}

void
table_rowx(struct table *t, const struct trow *r)
{
	json_t *o = json_object();

	row_end(t);
	if (t->md_on && !t->nrows)
		md_head(t);
	t->nrows++;
	json_object_set_new(o, "id", str(r->id));
	if (r->th)
		json_object_set_new(o, "th", str(r->th));
	else
		json_object_set_new(o, "tna", json_true());
	if (r->href)
		json_object_set_new(o, "thref", r->href);
	if (r->tail)
		json_object_set_new(o, "tail", str(r->tail));
	if (r->sub)
		json_object_set_new(o, "tsub", str(r->sub));
	if (r->cls)
		json_object_set_new(o, "tcls", str(r->cls));
	t->cells = json_array();
	json_object_set_new(o, "cells", t->cells);
	json_array_append_new(t->rows, o);
	if (t->md_on) {
		buf_addstr(&t->md, "| ");
		if (r->th)
			md_text(&t->md, r->th);
		else
			buf_addstr(&t->md, NUM_MISSING);
		buf_addstr(&t->md, " |");
	}
}

/* ------------------------------------------------------------------ */
/* cells */

/* A cell not reported, of class cls: the table's shared one for "num"
 * and "txt", a new one for another class. */
static void
cell_na(struct table *t, int num, const char *cls)
{
	json_t **shared = cls ? NULL : &t->na[num != 0], *c;

	if (!t->cells)
		BUG("a cell before the first row");
	if (shared && *shared) {
		json_array_append(t->cells, *shared);
	} else {
		c = json_object();
		json_object_set_new(c, "na", json_true());
		if (cls)
			json_object_set_new(c, "cls", str(cls));
		else
			json_object_set(c, "cls", num ? t->num : t->txt);
		if (shared)
			*shared = json_incref(c);
		json_array_append_new(t->cells, c);
	}
	if (t->md_on)
		buf_addstr(&t->md, " " NUM_MISSING " |");
}

/* A cell showing text (taken as is, escaped by the template). */
static json_t *
cell_new(struct table *t, const char *text, size_t len, int num, const char *cls)
{
	json_t *c = json_object();

	if (!t->cells)
		BUG("a cell before the first row");
	json_object_set_new(c, "t", json_stringn_nocheck(text, len));
	if (cls)
		json_object_set_new(c, "cls", str(cls));
	else
		json_object_set(c, "cls", num ? t->num : t->txt);
	json_array_append_new(t->cells, c);
	if (t->md_on) {
		buf_addch(&t->md, ' ');
		md_text(&t->md, text);
	}
	return c;
}

static void
md_end(struct table *t)
{
	if (t->md_on)
		buf_addstr(&t->md, " |");
}

void
table_num(struct table *t, double v, struct numfmt f)
{
	struct numval x = { v, NULL };

	table_numval(t, x, f);
}

void
table_numval(struct table *t, struct numval x, struct numfmt f)
{
	struct buf b = BUF_INIT;
	json_t *c;

	if (!isfinite(x.v) && !x.text) {
		cell_na(t, 1, NULL);
		return;
	}
	numfmt_val(&b, x, f);
	c = cell_new(t, b.ptr, b.len, 1, NULL);
	if (t->sortable)
		json_object_set_new(c, "v", numfmt_json(x.v, NF_REAL));
	md_end(t);
	buf_release(&b);
}

void
table_pm(struct table *t, double v, double sd, struct numfmt f)
{
	struct buf b = BUF_INIT;
	json_t *c;

	if (!isfinite(v)) {
		cell_na(t, 1, NULL);
		return;
	}
	numfmt_add(&b, v, f);
	c = cell_new(t, b.ptr, b.len, 1, NULL);
	if (t->sortable)
		json_object_set_new(c, "v", numfmt_json(v, NF_REAL));
	if (isfinite(sd)) {
		json_object_set_new(c, "sd", numfmt_json(sd, f));
		if (t->md_on) {
			buf_addstr(&t->md, PLUSMINUS);
			md_text(&t->md, json_string_value(json_object_get(c, "sd")));
		}
	} else {
		json_object_set_new(c, "sdna", json_true());
		if (t->md_on)
			buf_addstr(&t->md, PLUSMINUS NUM_MISSING);
	}
	md_end(t);
	buf_release(&b);
}

void
table_range(struct table *t, double lo, double hi, struct numfmt f)
{
	struct buf b = BUF_INIT;

	if (!isfinite(lo) || !isfinite(hi)) {
		cell_na(t, 1, NULL);
		return;
	}
	numfmt_add(&b, lo, f);
	buf_addstr(&b, " " EN_DASH " ");
	numfmt_add(&b, hi, f);
	cell_new(t, b.ptr, b.len, 1, NULL);
	md_end(t);
	buf_release(&b);
}

void
table_text(struct table *t, const char *s)
{
	struct tcell c = { s, 0, NULL, NULL, NULL, NULL };

	table_cell(t, &c);
}

void
table_cell(struct table *t, const struct tcell *c)
{
	json_t *o;

	if (!c->text) {
		cell_na(t, c->num, c->cls);
		json_decref(c->href);
		json_decref(c->key);
		return;
	}
	/* An empty cell (a column that does not apply to the row: another
	 * machine's energy) is the table's shared one, not an object per
	 * cell: a target page can have millions of them (issue 19). */
	if (!*c->text && !c->cls && !c->href && !c->sub && !c->key) {
		json_t **shared = &t->blank[c->num != 0];

		if (!t->cells)
			BUG("a cell before the first row");
		if (!*shared) {
			*shared = json_object();
			json_object_set_new(*shared, "t", json_string(""));
			json_object_set(*shared, "cls", c->num ? t->num : t->txt);
		}
		json_array_append(t->cells, *shared);
		if (t->md_on)
			buf_addstr(&t->md, "  |");
		return;
	}
	o = cell_new(t, c->text, strlen(c->text), c->num, c->cls);
	if (c->href)
		json_object_set_new(o, "href", c->href);
	if (c->sub)
		json_object_set_new(o, "sub", str(c->sub));
	if (c->key)
		json_object_set_new(o, "v", c->key);
	md_end(t);
}

/* ------------------------------------------------------------------ */

int
table_end(struct table *t)
{
	row_end(t);
	flush(t);
	if (t->md_on && !t->nrows)
		md_head(t);
	/* the partial puts {{{body}}} on a line of its own */
	if (t->body.len && t->body.ptr[t->body.len - 1] == '\n')
		buf_setlen(&t->body, t->body.len - 1);
	json_object_set_new(t->o, "body", t->body.len ? tmpl_rawn(t->body.ptr, t->body.len)
						  : json_null());
	json_object_set_new(t->o, "ncols", json_integer((json_int_t)(t->ncols ? t->ncols : 1)));
	buf_release(&t->body);
	return t->err;
}

size_t
table_nrows(const struct table *t)
{
	return t->nrows;
}

json_t *
table_view(struct table *t)
{
	return json_incref(t->o);
}

const struct buf *
table_md_text(const struct table *t)
{
	return &t->md;
}

void
table_free(struct table *t)
{
	json_decref(t->o);
	json_decref(t->cols);
	json_decref(t->root);
	json_decref(t->na[0]);
	json_decref(t->na[1]);
	json_decref(t->blank[0]);
	json_decref(t->blank[1]);
	json_decref(t->num);
	json_decref(t->txt);
	buf_release(&t->body);
	buf_release(&t->md);
	memset(t, 0, sizeof(*t));
}
