/*
 * render_views.h - the cross-run pages of the site: every run of a
 * machine over time, every run of a target across machines, the
 * targets x runs matrices, and `erg diff` pages for pairs of runs.
 * Like render.c, it renders from the results JSON only (each run's
 * summary, views_src, or its whole results), and the diff pages
 * from comparison documents its caller computes (analyze/compare.h); it
 * reads nothing from the archive.
 *
 * Pages (every link relative and naming index.html, for file://):
 *   machines/index.html            the machines, with their run counts
 *   machines/<machine>/index.html  its runs, newest first; per target, history
 *                                  of headline mJ/req and req/s (mean and
 *                                  SD); the idle power floor across runs;
 *                                  req/s per route; its diff pages
 *   targets/index.html             the targets
 *   targets/<target>/index.html    the target on every machine and date;
 *                                  energy columns split by machine
 *   compare/index.html             targets x runs: req/s for all runs,
 *                                  mJ/req per machine, req/s per route
 *   .../page-2.html, ...           the next runs of a machine or target
 *                                  page past 200 runs (charts: page 1)
 *   diffs/index.html               the diff pages
 *   diffs/<A>_vs_<B>/index.html    erg diff of two runs (templates/diff.html)
 * <machine> is machine.id (or the machine's label when it has none),
 * <target> the target's key (its canonical name in ASCII lower case:
 * "Bun" and "bun" are both targets/bun/), <A>, <B> run ids, each
 * sanitised to [A-Za-z0-9._-] (every other character becomes '-', a
 * leading '.' too, at most 64 bytes, never empty, never "index.html")
 * and made unique ignoring case (macOS and Windows file systems do),
 * with "-2", "-3", ... in the order of the names (a target key that is
 * its own slug keeps it; the others in key order).  Pages show the real
 * names, escaped: a target by its most frequent spelling (ties to the
 * first in byte order), or targets.txt's canonical.
 *
 * Diff pages: each pair of consecutive energy sessions (by captured_at,
 * then run id) of one machine that share a target, then every pair
 * listed in ARCHIVE/diffs.txt (ingest/pairs.h; a pair already made is
 * not made twice).  Summary runs have no per-round values and are paired
 * only when listed (compared without significance).
 *
 * Every table row and chart has a stable id; runs are ordered by
 * captured_at (undated last), then run id; the output depends on the
 * results only (and SOURCE_DATE_EPOCH for the footer).  The pages carry
 * one inline script, static text from templates/views-p-sort.html, that
 * makes the tables sortable by column; it loads nothing, and the tables
 * are complete without it.
 */
#ifndef ERG_RENDER_VIEWS_H
#define ERG_RENDER_VIEWS_H

#include <jansson.h>

#include "render/page_run.h"

struct views;
struct pair_list;

/*
 * What the views keep of a run (issue 19): its id, title, date, kind,
 * energy source and machine; per entry of its "targets" the name, key
 * and spelling (ingest/targets.h, with aliases: the archive's
 * targets.txt, NULL: none), the headline (req/s, mJ/req and W with their
 * SD, n and published texts), its routes (name, req/s with its texts, a
 * trials sweep's "at") and the smallest req/s among them; per round its
 * targets' headline; its idle windows' power.  Plain C values in two blocks, about 1 KB where its summary
 * (build.c) is several: every page over the whole history (charts, lists,
 * the dependency keys) draws from these, and only a page over a bounded
 * set of runs reads their summaries back (views_src).  From a run's
 * summary or whole results, on any thread; NULL for what render_run()
 * refuses (not an object, an id that is not a run path).
 */
struct views_run;
struct target_aliases;
struct views_run *views_run_make(const json_t *res, const struct target_aliases *aliases);
void views_run_free(struct views_run *r);	/* NULL is fine */
const char *views_run_id(const struct views_run *r);

/*
 * The record as bytes, so that a build keeps it in the cache and the
 * next one reads it back for an unchanged run without its summary
 * (cmd/build.c): a magic and format version, tag (the caller's: what
 * the record was made under besides the run, its aliases), counts, then
 * fixed-width values and the strings.  views_run_decode() checks every
 * length, count and string offset against the bytes it has: 0 and
 * *out; 1 when the record is of another format version or another tag
 * (not an error: the caller makes it again); -1 after a located error
 * (path:@offset) for bytes that are not such a record.
 */
#define VIEWS_REC_TAG 32
struct buf;
void views_run_encode(const struct views_run *r, const unsigned char tag[VIEWS_REC_TAG],
		      struct buf *out);
int views_run_decode(const void *data, size_t len, const char *path,
		     const unsigned char tag[VIEWS_REC_TAG], struct views_run **out);

/*
 * The runs of the views: runs[0..n) (borrowed until views_close(); NULL
 * entries have no pages and are left out) and, for the index's newest
 * runs (every other page draws from the records),
 * summary(ctx, i): the summary of runs[i] (a new reference; *bytes its
 * size, for the cache's budget, 0 when unknown), or NULL after
 * diagnostics.  The views keep the last few in a small cache
 * (VIEWS_CACHE_RUNS; ERG_VIEW_CACHE=N, for the tests only, sets it) and
 * hold no pointer into one across the reading of another.
 */
struct views_src {
	struct views_run *const *runs;
	size_t n;
	json_t *(*summary)(void *ctx, size_t i, size_t *bytes);
	void *ctx;
};
/* A views_src over every run's results in the array all (borrowed): for
 * the tests and render_index(); views_src_free() frees what it made. */
void views_src_all(struct views_src *src, json_t *all, const struct target_aliases *aliases);
void views_src_free(struct views_src *src);

/*
 * The model of the pages above and the diff pairs they show, from src
 * (read as above); listed: the pairs of diffs.txt (NULL: none); aliases:
 * the archive's targets.txt (NULL: none; the one views_run_make() got),
 * with which and each run's "aliases" names are made one target.
 * Templates come from c->tmpl_dir (views-*.html, diff.html, diff.css and
 * the shared partials p-head, p-foot, p-figure).  Call after
 * render_begin(); the pages may be rendered beside render_run() of any
 * run (neither modifies the results).  NULL after diagnostics.
 *
 * views_index() writes index.html (render_index()) from the same runs.
 * Then, for each pair i < views_npairs(): views_pair() gives its runs A
 * and B (indexes into src->runs), the caller compares them and
 * views_diff_page() writes the page from that document (borrowed; only
 * its counts are kept, so the caller frees it before the next pair).
 * views_render() writes every other page, once every diff page is
 * written.  0, or -1 after diagnostics (the build must then fail: nothing
 * half-written is kept, since the site is only committed on success).
 */
struct views *views_open(struct render_ctx *c, const struct views_src *src,
			 const struct pair_list *listed, const struct target_aliases *aliases);
int views_index(struct views *v);
size_t views_npairs(const struct views *v);
void views_pair(const struct views *v, size_t i, size_t *a, size_t *b);
int views_diff_page(struct views *v, size_t i, json_t *doc);
int views_render(struct views *v);
void views_close(struct views *v);	/* NULL is fine */

/*
 * views_render() in parts, for the units to be rendered on several
 * threads (cmd/build.c): views_nunits() units (the year lists, the search,
 * the compare pages, the diff lists, the lists of machines and targets;
 * then a machine's pages, a target's), once every diff page is written;
 * views_render_unit() one of them, on any thread, in any order.  A thread
 * other than v's renders through views_fork(): v's model shared
 * (read-only by then: a unit writes only its own runs' page numbers), its
 * own render context (the sink), dependency callbacks, scratch and error;
 * views_fork_free() before views_close(v).
 */
struct views_deps;
size_t views_nunits(const struct views *v);
int views_render_unit(struct views *v, size_t i);
struct views *views_fork(const struct views *v, struct render_ctx *c,
			 const struct views_deps *deps);
void views_fork_free(struct views *w);

/*
 * Incremental views (cmd/build.c keeps the record, OUT/.erg-cache/deps).
 * The pages are rendered in units: a machine's pages, a target's, one
 * compare page (past COMPARE_MAX_RUNS runs), one diff page.  Before a
 * unit, the views hash everything its pages show of the archive: each
 * run it lists (its id, its cache key, its machine's key, label and
 * slug, its targets' keys, spellings, names and slugs), plus the unit's
 * own (its slug, the navigation between a machine's compare pages, its
 * diffs' pairs, lines and counts, whether the archive has summary runs).
 * unit() then says whether the previous site's files of that unit were
 * carried over (1: not rendered; a diff's counts come back in counts[]),
 * or 0: the unit is rendered, and end() follows with its counts (a diff:
 * untested, rows, significant; else NULL).  key is NULL when a run has
 * no key (run_key() failed): such a unit is always rendered.  runs: the
 * ids of the runs it lists (borrowed until unit() returns).  inputs:
 * VIEWS_IN_* of the archive's files outside the runs it depends on.
 * Pages outside every unit (index.html, the lists, the search) are
 * rendered on every build.  With no deps set, every unit is rendered.
 */
#define VIEWS_IN_TARGETS 1u	/* targets.txt: the targets' keys and names */
#define VIEWS_IN_DIFFS 2u	/* diffs.txt: a listed pair */
struct views_deps {
	int (*run_key)(void *ctx, const char *id, unsigned char key[32]);
	int (*unit)(void *ctx, const char *name, const unsigned char *key,
		    const char *const *runs, size_t nruns, unsigned inputs, long long counts[3]);
	void (*end)(void *ctx, const long long *counts);
	void *ctx;
};
void views_set_deps(struct views *v, const struct views_deps *d);
/* Was diff pair i's page carried over (then do not compare it)? */
int views_diff_carried(struct views *v, size_t i);

/*
 * Where the pages of views_render() are, for links from other pages:
 *   { "machines": { "<machine key>": "machines/<slug>/index.html", ... },
 *     "targets":  { "<target name>": "targets/<slug>/index.html", ... },
 *     "pages": [ { "text": "Machines", "href": "machines/index.html" },
 *                ... Targets, Compare, Diffs ] }
 * hrefs are relative to the site root.  The machine key is machine.id,
 * or when absent the label render_index() shows.  New reference.
 */
json_t *render_views_links(json_t *all);

/*
 * Past VIEWS_INDEX_RUNS runs the index lists only the newest of them, and
 * the machines and years, each with its full run list:
 * years/<year>/index.html (every run of the year, on every machine, newest
 * first, paged like the machine pages), years/index.html.  The lists for
 * the index: { "machines": [ { "text", "href", "nruns" } ... ],
 * "years": [ { "text": "2026", "href": "years/2026/index.html", "nruns" },
 * ... newest first ] }, hrefs from the site root.  New reference.
 */
#define VIEWS_INDEX_RUNS 50
json_t *views_index_lists(json_t *all);

#endif
