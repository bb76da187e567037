/*
 * table.h - the one table builder of the pages: run pages, summary pages
 * and the cross-run pages build every table with it, and every table is
 * printed by one partial, templates/p-table.html, its rows by
 * templates/p-rows.html.
 *
 * A table is columns, then rows, each a header cell (th) and cells added
 * in column order.  Rows are rendered as they come, table_chunk at a time
 * (256: a summary table may have 100,000 rows), into a raw body, and the
 * view of each chunk is freed before the next, so a table never holds a
 * JSON object per cell; a cell not reported is not even an object of its
 * own (one shared per table and class).  The same rows can be written as
 * a Markdown table (table_md()), rounded as on the page.
 *
 * The view: {id, lab, caption, cls, note, empty, ncols, cols, body} for
 * p-table.html, which the page puts where it wants (table_view()), and
 * per chunk {rows: [{id, th, cells: [{t, cls}, ...]}, ...]} for
 * p-rows.html.  A row or a cell holds only what it has: what it leaves out
 * (a link, an SD, a line below the text) the template finds, by its
 * outward lookup, in the chunk's root, which holds every optional key
 * with its "nothing" value; a row's keys and a cell's never share a name,
 * so a cell cannot pick up its row's link.
 */
#ifndef ERG_TABLE_H
#define ERG_TABLE_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "render/numfmt.h"
#include "render/tmpl.h"

/* Rows per rendered chunk; the most rows one chunk held (tests). */
extern size_t table_chunk;
extern _Atomic size_t table_chunk_peak;

struct table {
	json_t *o;		/* the view of p-table.html */
	json_t *cols;
	const struct tmpl *rows_tp;
	json_t *root, *rows;	/* the chunk being gathered */
	json_t *cells;		/* of the current row, NULL before the first */
	json_t *na[2];		/* shared "not reported" cells: txt, num */
	json_t *blank[2];	/* shared empty cells: txt, num */
	json_t *num, *txt;	/* the class strings, shared */
	struct buf body;	/* rows rendered so far */
	struct buf md;		/* the Markdown table, when table_md() */
	size_t nrows, ncols;
	int md_on, sortable, err;
};

/*
 * Begin a table whose rows are rendered with rows_tp (p-rows.html).  id:
 * its element id (already unique in the page); caption: the line above
 * it, which also labels it ("<id>-cap"), or NULL when something else on
 * the page does (table_label()).
 */
void table_init(struct table *t, const struct tmpl *rows_tp, const char *id, const char *caption);
/* Labelled by the element lab, which the page writes (a heading). */
void table_label(struct table *t, const char *lab);
/* "sortable ..." for the sort script: every cell then carries its
 * value in data-v (numbers at full precision, NUM_REAL). */
void table_class(struct table *t, const char *cls, int sortable);
/* A line below the table; a row shown when it has no rows. */
void table_note(struct table *t, const char *note);
void table_empty(struct table *t, const char *text);
/* Also write the table (header and rows) in Markdown, to table_md_text(). */
void table_md(struct table *t);

/* A column: heading, unit line (NULL: none), numeric (right-aligned). */
void table_col(struct table *t, const char *h, const char *unit, int num);
struct tcol {
	const char *h, *unit;
	int num;
	json_t *href;		/* the heading links here (taken), with title */
	const char *title;
	const char *name;	/* the column's name in the source: its tooltip */
	const char *mark;	/* the id of a note about the column: a '*' to it */
};
void table_colx(struct table *t, const struct tcol *c);

/* A row: its id (unique in the page) and header text (NULL: not
 * reported).  The row before it is complete. */
void table_row(struct table *t, const char *id, const char *th);
struct trow {
	const char *id, *th;
	json_t *href;		/* th links here (taken) instead of to the row */
	const char *tail;	/* after th, " · tail" */
	const char *sub;	/* below th, as code */
	const char *cls;	/* class of the th cell */
};
void table_rowx(struct table *t, const struct trow *r);

/* Cells, in column order.  A number: NUM_MISSING when not finite. */
void table_num(struct table *t, double v, struct numfmt f);
void table_numval(struct table *t, struct numval x, struct numfmt f);
/* mean ± SD; "± –" when the mean is known and the SD not. */
void table_pm(struct table *t, double v, double sd, struct numfmt f);
/* "lo – hi", missing unless both are finite. */
void table_range(struct table *t, double lo, double hi, struct numfmt f);
/* Text (NULL: not reported). */
void table_text(struct table *t, const char *s);
struct tcell {
	const char *text;	/* NULL: not reported */
	int num;		/* numeric column */
	const char *cls;	/* instead of "num"/"txt" */
	json_t *href;		/* the text links here (taken) */
	const char *sub;	/* below the text, as code */
	json_t *key;		/* data-v (taken); NULL: none */
};
void table_cell(struct table *t, const struct tcell *c);

/* Finish: render what is left.  0, or -1 after a template error (also
 * after one of an earlier chunk). */
int table_end(struct table *t);
size_t table_nrows(const struct table *t);
/* The view for p-table.html, a new reference (after table_end()). */
json_t *table_view(struct table *t);
/* The Markdown table (after table_end()). */
const struct buf *table_md_text(const struct table *t);
void table_free(struct table *t);

#endif
