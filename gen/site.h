/*
 * site.h - the only module that writes the output tree.  Everything goes
 * into a fresh temporary directory beside OUT; site_commit() swaps it in
 * with one rename (an atomic exchange where the kernel has it), so readers
 * and a failed build never see a half-written site.
 */
#ifndef ERG_SITE_H
#define ERG_SITE_H

#include <stddef.h>

struct site {
	char *out;	/* final directory */
	char *tmp;	/* where this build writes */
	int lock;	/* open on tmp and flock()ed while tmp is set */
};

/*
 * Also removes temporary trees beside OUT that an interrupted build left
 * (no process holds their lock and they are older than STALE_SECONDS),
 * with a warning for each.
 */
int site_begin(struct site *s, const char *out);
void site_remove_stale(const char *out);	/* just that (a no-op build) */
/* Write rel (relative to the site root; parents created). 0 or -1. */
int site_write(struct site *s, const char *rel, const void *data, size_t len);
int site_commit(struct site *s);	/* swap in, remove the old tree */
void site_abort(struct site *s);	/* remove the temporary tree */

#endif
