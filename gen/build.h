/*
 * build.h - the pipeline over a whole archive: scan, ingest, analyze, write
 * results.json and pages into a temporary tree, swap it in.
 */
#ifndef ERG_BUILD_H
#define ERG_BUILD_H

#include <jansson.h>

struct build_opts {
	const char *archive;
	const char *out;	/* NULL: check only, write nothing */
	const char *tmpl_dir;
	int jobs;
	int quiet;
};

int build_run_all(const struct build_opts *o);

struct run_ref;
/* Read, check and analyse one run (no output written): its results JSON
 * (as written to runs/<id>/results.json, plus "files", "notes",
 * "power_trace"), or NULL after diagnostics. */
json_t *build_process(const struct run_ref *ref);

#endif
