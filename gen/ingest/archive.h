/*
 * archive.h - finding runs in an archive directory: any depth (16 levels),
 * sorted, never following a symbolic link to a directory.  A directory
 * holding meta.json and timeline.jsonl is an energy session, one holding
 * run.json a summary run.  No run vanishes without a word: a directory
 * with only one of a session's two files, with both kinds of run, a run
 * inside a run, a marker that is a dangling link or a link out of the
 * run, a link to a run directory, a run too deep to be scanned: each is
 * an error naming it (a link to any other directory is a warning).
 *
 * Below a run's markers one walk does both its key and the check for runs
 * inside it: the folders under a run are listed once (a no-op rebuild is
 * this walk), the run's own folder twice (the scan's listing finds its
 * markers, the walk's is sorted for the key; one folder in ~25 entries).
 */
#ifndef ERG_ARCHIVE_H
#define ERG_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

struct sha256;
struct stat;

enum run_kind { RUN_ENERGY_SESSION = 1, RUN_SUMMARY };

struct run_ref {
	char *id;	/* path relative to the archive root */
	char *dir;	/* archive-root/id */
	enum run_kind kind;
	/* The cache's key of the run: every entry below its folder, each by
	 * its name, type, size, inode, device, mtime and ctime; keyed is 0
	 * when an entry vanished while it was walked or the folders nest
	 * deeper than 32 below it (then the run is read, not taken from the cache). */
	unsigned char key[32];
	uint64_t bytes;		/* its regular files' sizes */
	int keyed;
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
/* One entry of a key: rel and the fields above. */
void archive_key_stat(struct sha256 *c, const char *rel, const struct stat *st);

#endif
