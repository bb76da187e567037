/*
 * archive.h - finding runs in an archive directory: any depth (16 levels),
 * sorted, never following a symbolic link to a directory.  A directory
 * holding meta.json and timeline.jsonl is an energy session, one holding
 * run.json a summary run.  No run vanishes without a word: a directory
 * with only one of a session's two files, with both kinds of run, a run
 * inside a run, a marker that is a dangling link or a link out of the
 * run, a link to a run directory, a run too deep to be scanned: each is
 * an error naming it (a link to any other directory is a warning).
 */
#ifndef ERG_ARCHIVE_H
#define ERG_ARCHIVE_H

#include <stddef.h>

enum run_kind { RUN_ENERGY_SESSION = 1, RUN_SUMMARY };

struct run_ref {
	char *id;	/* path relative to the archive root */
	char *dir;	/* archive-root/id */
	enum run_kind kind;
};

struct run_list {
	struct run_ref *v;
	size_t n, alloc;
};

extern size_t archive_max_runs;	/* refuse archives with more runs */

/* 0, or -1 after diagnostics (every problem found is reported, unless
 * there are more than archive_max_runs runs).  The root's folders are
 * scanned on up to jobs threads; the runs and the diagnostics come out in
 * the same order whatever jobs is. */
int archive_scan(const char *root, int jobs, struct run_list *out);
void run_list_free(struct run_list *l);

#endif
