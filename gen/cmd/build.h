/*
 * build.h - the pipeline over a whole archive: scan, ingest, analyze, write
 * results.json and pages into a temporary tree, swap it in.
 *
 * Runs are processed on jobs threads; the site is the same byte for byte
 * whatever jobs is.  A build that replaces a site erg built reads again
 * only the runs whose files changed (see cache.h) and, when nothing
 * changed, writes nothing and says so.
 */
#ifndef ERG_BUILD_H
#define ERG_BUILD_H

#include <jansson.h>

struct build_opts {
	const char *archive;
	const char *out;	/* NULL: check only, write nothing */
	const char *tmpl_dir;
	int jobs;		/* runs in parallel; <= 0: one per online core */
	int quiet;		/* no summary line, no progress line */
	const char *version;	/* erg's version, part of the cache key */
	int explain;		/* list what was rendered (not carried over) */
};

int build_run_all(const struct build_opts *o);

struct run_ref;
/* Read, check and analyse one run (no output written): its results JSON
 * (as written to runs/<id>/results.json, plus "files", "notes",
 * "power_trace"), or NULL after diagnostics. */
json_t *build_process(const struct run_ref *ref);

struct render_ctx;
struct pair_list;
struct target_aliases;
/* The index's companions: the machine, target, compare and diff pages of
 * every run's results all (pairs: those of diffs.txt, or NULL; aliases:
 * targets.txt, or NULL), each diff computed, written and freed in turn.
 * 0, or -1 after diagnostics. */
int build_views(struct render_ctx *rc, json_t *all, const struct pair_list *pairs,
		const struct target_aliases *aliases);
/* The same from what the views keep of each run and its summary read
 * back (render/page_views.h, views_src), with index.html first when
 * index, as the build renders them; load(arg, i): the whole results of
 * src->runs[i] for its diffs (a new reference, or NULL after
 * diagnostics). */
struct views_src;
int build_views_src(struct render_ctx *rc, const struct views_src *src, int index,
		    const struct pair_list *pairs, const struct target_aliases *aliases,
		    json_t *(*load)(void *arg, size_t i), void *arg);

#endif
