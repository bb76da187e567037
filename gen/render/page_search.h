/*
 * page_search.h - the site-wide search (issue 19): search/index.html,
 * which searches run ids, titles, machines and targets in the browser,
 * offline and from file://, and its index, written as scripts (a page
 * opened from file:// may load a script but not fetch a JSON file):
 *
 *   search/index.js     the head, loaded with the page:
 *                       var ERG_SEARCH = { "runs": total,
 *                         "machines": [[key, label, href, runs], ...],
 *                         "targets": [[name, href], ...],
 *                         "years": [[year, runs], ...]  (newest first),
 *                         "shards": [[file, year, runs], ...] };
 *                       var ERG_SEARCH_SHARDS = [];
 *   search/runs-K.js    shard K (1, 2, ...): ERG_SEARCH_SHARDS[K - 1] =
 *                       [[id, title, machine, date, href, [target, ...]],
 *                       ...]; machine and targets index the head's
 *
 * Runs are newest first; a shard holds runs of one year (or "undated")
 * only, at most shard_runs of them and about SEARCH_SHARD_BYTES, so the
 * page loads the head (machines, targets, counts) and then the shards one
 * by one as a query needs them.  hrefs are from the site root.  Every
 * value is JSON in ASCII with '<', '>' and '&' escaped as \u003c ...,
 * U+2028 and U+2029 escaped like every other non-ASCII character: no
 * archive text can end the script or start markup, and the page puts
 * every string on the page with textContent.
 */
#ifndef ERG_RENDER_SEARCH_H
#define ERG_RENDER_SEARCH_H

#include <stddef.h>

struct render_ctx;
struct tmpl;

#define SEARCH_SHARD_BYTES 300000
/* The views' shards: the runs of this many list pages (2,000 runs at
 * PAGE_RUNS; ERG_PAGE_ROWS, for the tests, makes them small too). */
#define SEARCH_SHARD_PAGES 10

struct search_run {
	const char *id, *title;	/* title NULL: the id */
	size_t machine;		/* index into the machines */
	const char *date;	/* as shown ("2026-08-26 01:56", "undated") */
	const char *href;	/* runs/<id>/index.html */
	const size_t *tg;	/* its targets: indexes, ntargets or more for none */
	size_t ntg;
	char year[16];		/* "2026", or "undated": its shard's */
};

struct search_machine {
	const char *key, *label, *slug;	/* machines/<slug>/index.html */
	size_t nruns;
};

struct search_target {
	const char *name, *slug;	/* targets/<slug>/index.html */
};

struct search_src {
	const struct search_run *runs;	/* newest first */
	size_t nruns;
	const struct search_machine *machines;
	size_t nmachines;
	const struct search_target *targets;
	size_t ntargets;
	size_t shard_runs;		/* at most this many runs a shard (> 0) */
};

/*
 * Write search/index.html (templates/views-search.html, loaded by the
 * caller as t), search/index.js and the shards through c->out.  0, or -1
 * after diagnostics.
 */
int search_write(struct render_ctx *c, const struct tmpl *t, const struct search_src *s);

#endif
