/*
 * diff_cells.h - the numbers and names of a comparison document
 * (analyze/compare.h) as the diff outputs show them: decimals per table,
 * "mean ± SD (n)", Δ%, CI, p, the table layout and titles, the legend and
 * the lists of what one run alone has.  The text, Markdown and HTML
 * renderers (diff_text.c, diff_html.c) share it, so every output shows
 * the same figures, and it is the one module to swap for another number
 * formatter.
 *
 * Names reach a cell through an escaper given by the caller: dcell_clean
 * for a terminal (controls and invalid UTF-8 as '?'), Markdown's, or none
 * for HTML (the template escapes).  A cell buffer array holds DCELL_NCOL
 * buffers; the layout says how many are used.
 */
#ifndef ERG_DIFF_CELLS_H
#define ERG_DIFF_CELLS_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

#define DCELL_NCOL 7

typedef void dcell_esc_fn(struct buf *b, const char *s);

/* The columns of the result tables: with significance (energy sessions on
 * both sides) or without (a summary run on either side: no CI, no p). */
struct dcell_layout {
	size_t ncol;
	const char *head[DCELL_NCOL];
	int right[DCELL_NCOL];	/* text: right-aligned numbers */
	const char *md_rule;
	size_t verdict;		/* index of the verdict column */
};

/* Widths of the parts of the sample cells of one table (text alignment). */
struct dcell_widths {
	size_t mean, sd, n;
};

/* s with controls and invalid UTF-8 as '?' (utf8_term), a dcell_esc_fn. */
void dcell_clean(struct buf *b, const char *s);
/* Width in code points of valid UTF-8. */
size_t dcell_width(const char *s);
void dcell_pad_left(struct buf *b, const char *s, size_t w);
/* A number of the document at a dotted path, or NAN. */
double dcell_num(json_t *o, const char *path);

/* Is this a comparison with a summary run (no test)? */
int dcell_untested(json_t *d);
void dcell_layout_of(json_t *d, struct dcell_layout *l);
/* Table t: rows [*lo, *hi) of "rows" and its geomean entry; 0 past the end. */
int dcell_table(json_t *d, size_t t, size_t *lo, size_t *hi, json_t **geo);
/* Decimals of the measured values of rows [lo, hi). */
int dcell_decimals(json_t *d, size_t lo, size_t hi);
/* "headline: energy per request (mJ/req)", names cleaned. */
void dcell_title(struct buf *b, json_t *row);
/* Widen w to the parts of side s ("a" or "b" of a row). */
void dcell_sample_widths(json_t *s, int dec, struct dcell_widths *w);
/*
 * The cells of a row into c[DCELL_NCOL] (reset first): the name through
 * esc, then the sides, Δ%, CI or B/A, p, verdict.  w: NULL, or the widths
 * of A's and of B's values (w[0], w[1]) to align the parts to.
 */
void dcell_row(json_t *row, int dec, int same, const struct dcell_widths *w, dcell_esc_fn *esc,
	       struct buf *c);
/* The geomean row of a table ("geomean", A, B, Δ%; the rest empty). */
void dcell_geo(json_t *geo, int dec, const struct dcell_widths *w, struct buf *c);
/* The row's name: its target, and the x value of a sweep. */
void dcell_target(struct buf *b, json_t *row, dcell_esc_fn *esc);

/* An environment value: strings cleaned, others as JSON, "(absent)". */
void dcell_env_value(struct buf *b, json_t *v);
/* "machine, software, ..." */
void dcell_groups(struct buf *b, json_t *env);
/* "3 differences, 1 of them a field recorded by one run only" */
void dcell_count(struct buf *b, const json_t *diffs);
/* What the columns mean; sep between its three sentences. */
void dcell_legend(struct buf *b, json_t *d, const char *sep);
/* "95 comparisons: 1 significant, 94 ~, 0 ?" */
void dcell_summary(struct buf *b, json_t *d);
/* "targets", "routes", "metrics": the kinds of the only-in lists. */
extern const char *const dcell_only_kinds[3];
/* The only-in list of kind (0..2) of only_in_a or only_in_b; 0 if empty. */
int dcell_only(struct buf *b, json_t *only, int kind, dcell_esc_fn *esc);
/* "rps of route 'ping' of 'elysia': req/s in A, req/min in B" */
void dcell_not_comparable(struct buf *b, json_t *e, dcell_esc_fn *esc);

#endif
