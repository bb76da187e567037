/*
 * archive.h - finding runs in an archive directory: any depth, sorted,
 * never following symbolic links out of the archive.
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

/* 0, or -1 after diagnostics. */
int archive_scan(const char *root, struct run_list *out);
void run_list_free(struct run_list *l);

#endif
