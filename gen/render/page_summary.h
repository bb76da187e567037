/*
 * render_summary.h - the run page of a summary run (figures as published
 * elsewhere, read by summary.c) and the latency charts of throughput-only
 * energy sessions.  Like render.c, renders from the results JSON only.
 */
#ifndef ERG_RENDER_SUMMARY_H
#define ERG_RENDER_SUMMARY_H

#include <jansson.h>

#include "base/buf.h"
#include "render/page_run.h"

/*
 * A results JSON of kind "summary" into runs/<id>/ of c->site:
 *   index.html    the page (templates/summary.html and its partials)
 *   NAME.csv      one per table, the published table as given (RFC 4180,
 *                 CRLF, numbers at full precision, empty = not reported);
 *                 NAME is the table file's base name, made unique
 *   tables.md     the tables in Markdown, formatted as on the page
 * results.json is build.c's, as for every run.  Safe to call from several
 * threads at once (no state outside the arguments; the page's template
 * is loaded from c->tmpl_dir per call, the rows' is render_begin()'s).
 * 0, or -1 after a diagnostic.
 */
int render_summary_run(struct render_ctx *c, json_t *res);

/* A table of more than SUMMARY_VIEW_MAX_ROWS (summary.h) rows gets no
 * charts, and a line on the page says why.  Its rows are rendered in
 * chunks (render/table.h). */

/*
 * Latency charts of a session from measurements[].routes[].load:
 * latency_mean_us and latency_pct_us {p50, p75, p90, p95, p99, p99.9}.
 * One chart per route: grouped bars (mean and each percentile x target),
 * in ms, the mean over the rounds with +-1 SD whiskers (the caption says
 * so, and that a percentile averaged over rounds is not the percentile of
 * the pooled requests).  Appends zero or more <figure class="chart">
 * elements (inline SVG and figcaption) to out, for a {{{raw}}} slot inside
 * a <div class="charts">; ids start with "chart-latency-".  Appends
 * nothing and returns 0 when no route has a latency figure.  Returns the
 * number of charts appended.
 */
int render_latency_charts(json_t *res, struct buf *out);

/* The top of the page (title, date, source) and the setup groups of a
 * run.json run, into view; and a table {columns, rows} as CSV, as the
 * summary page writes them (page_trials.c uses both). */
void summary_page_top(json_t *view, const json_t *res, const char *id, size_t depth);
void summary_csv(struct buf *b, const json_t *t);

#endif
