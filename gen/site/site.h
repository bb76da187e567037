/*
 * site.h - the only module that writes the output tree.  Everything goes
 * into a fresh temporary directory beside OUT; site_commit() swaps it in
 * with one rename (an atomic exchange where the kernel has it), so readers
 * and a failed build never see a half-written site.  A rebuild of a site
 * as erg left it writes only what changed there and site_update() moves
 * it in file by file (below).
 *
 * erg never deletes what it did not write.  OUT is replaced only when it
 * does not exist, is an empty directory, or is a site erg wrote: every
 * site carries the marker file SITE_MARKER at its root (a site of an erg
 * from before the marker is known by its .erg-cache directory).  A
 * temporary tree of a killed build is removed only if it carries the
 * marker too, or is empty.
 */
#ifndef ERG_SITE_H
#define ERG_SITE_H

#include <stddef.h>

#include "base/sink.h"

struct site {
	char *out;	/* final directory */
	char *tmp;	/* where this build writes */
	int lock;	/* open on tmp and flock()ed while tmp is set */
};

#define SITE_MARKER ".erg-site"

/*
 * May OUT be replaced by a build of archive?  0, or -1 after one located
 * error: OUT is the archive, holds it, or is inside it (compared by device
 * and inode along the real paths, so "./archive/..", trailing slashes,
 * links and bind mounts are seen through); OUT is a symbolic link, is not
 * a directory, or is a non-empty directory that is not a site erg wrote.
 * Nothing is read or written.
 */
int site_check_out(const char *out, const char *archive);

/*
 * Also removes temporary trees beside OUT that an interrupted build left
 * (no process holds their lock and they are older than STALE_SECONDS),
 * with a warning for each.
 */
int site_begin(struct site *s, const char *out);
void site_remove_stale(const char *out);	/* just that (a no-op build) */
/* Write rel (relative to the site root; parents created). 0 or -1. */
int site_write(struct site *s, const char *rel, const void *data, size_t len);
/* Swap in, remove the old tree; refused (tree removed, -1) if OUT is no
 * longer something site_check_out() accepts. */
/* A sink (base/sink.h) that site_write()s into s. */
struct sink site_sink(struct site *s);
int site_commit(struct site *s);
void site_abort(struct site *s);	/* remove the temporary tree */

/*
 * An update in place (issue 19): the tree holds only what this build
 * wrote afresh, and site_update() moves it into OUT file by file (each
 * rename atomic), removes the stale files and writes the folder record,
 * the manifest last (cache_merge(), cache.h).  A build that fails before
 * this leaves OUT as it was, as a swap does; one interrupted during it
 * leaves OUT without a manifest, so the next build is a full one.  0, or
 * -1 after a located error.
 */
int site_update(struct site *s, const char *hold, char *const *stale, size_t n);
/* One build at a time on OUT: an flock on OUT itself (waited for), held
 * until site_unlock_out().  -1 when OUT does not exist (nothing to hold). */
int site_lock_out(const char *out);
void site_unlock_out(int fd);

/*
 * One file outside any site (erg diff --out FILE): written to a temporary
 * file beside path, then renamed over it, so nobody sees half of it.
 * path is replaced only when it does not exist, or is a regular file
 * whose first SITE_HEAD_MAX bytes ours() accepts (a file erg wrote); a
 * link, directory, FIFO or anyone else's file is left alone.  A replaced
 * file keeps its permissions.  0, or -1 after one located error.
 * site_check_file() is its check alone, for a command to fail before it
 * does the work.
 */
#define SITE_HEAD_MAX 1024
int site_write_file(const char *path, const void *data, size_t len,
		    int (*ours)(const char *head, size_t n));
int site_check_file(const char *path, int (*ours)(const char *head, size_t n));

#endif
