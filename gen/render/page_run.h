/*
 * render.h - pages from results.  Renders only from the results JSON
 * (results.json of each run, plus the fields build.c adds for pages:
 * "files", "notes", "power_trace"), through the templates in the template
 * directory, into the site being built.  Never reads the archive.
 */
#ifndef ERG_RENDER_H
#define ERG_RENDER_H

#include <jansson.h>

#include "base/sink.h"

struct render_ctx {
	const char *tmpl_dir;
	struct sink out;	/* where pages go */
	void *cache;		/* loaded templates (render.c owns it) */
};

int render_begin(struct render_ctx *c, const char *tmpl_dir, struct sink out);
/*
 * runs/<id>/index.html and its downloads (CSV, Markdown).  The renderers
 * only read a run's results (views are new objects, shared values are
 * referenced, counts are atomic in jansson): build.c renders the views
 * from the same results while run pages are written, on other threads.
 */
int render_run(struct render_ctx *c, json_t *res);
/* index.html (and other cross-run pages) from the array of all results. */
int render_index(struct render_ctx *c, json_t *all);
/*
 * index.html from what it needs of every run (runs[0..n): id, machine
 * key and label, captured_at; borrowed) and the summaries of the newest
 * VIEWS_INDEX_RUNS only: get(ctx, i) gives runs[i]'s, borrowed until the
 * next call, or NULL after diagnostics.  lists: views_index_lists()'
 * value (borrowed), or NULL when n <= VIEWS_INDEX_RUNS.
 */
struct index_run {
	const char *id, *key, *label, *date;
};
int render_index_runs(struct render_ctx *c, const struct index_run *runs, size_t n,
		      const json_t *(*get)(void *ctx, size_t i), void *ctx, json_t *lists);
void render_end(struct render_ctx *c);
/* templates/p-rows.html, loaded by render_begin(): the rows of every
 * table of every page (render/table.h). */
struct tmpl;
const struct tmpl *render_rows(const struct render_ctx *c);

#endif
