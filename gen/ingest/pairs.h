/*
 * pairs.h - ARCHIVE/diffs.txt: pairs of runs the site compares besides
 * the consecutive energy sessions of each machine.  One pair "A B" of
 * run ids a line; '#' starts a comment; blank lines are fine; a trailing
 * '/' of an id is dropped.  A line that is not two ids, or an id that is
 * not a run of the archive, is an error located at its line.
 */
#ifndef ERG_PAIRS_H
#define ERG_PAIRS_H

#include <stddef.h>

#define PAIRS_FILE "diffs.txt"

struct run_pair {
	const char *a, *b;	/* entries of the ids given to pairs_read() */
	long line;
};

struct pair_list {
	struct run_pair *v;
	size_t n, alloc;
};

/*
 * Read archive/diffs.txt, when there is one, against the run ids
 * ids[0..nids) (which must outlive out), appending each pair in file
 * order.  0 (also when there is no file), or -1 after a diagnostic for
 * every bad line.
 */
int pairs_read(const char *archive, const char *const *ids, size_t nids, struct pair_list *out);
void pair_list_free(struct pair_list *l);

#endif
