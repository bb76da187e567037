/*
 * dirlist.h - a folder's entry names, sorted, in one block.  A no-op
 * rebuild lists every folder of the archive (the scan and the runs'
 * keys), so a listing is one getdents64 into one buffer on Linux, with
 * no allocation per name, and the memory is reused from folder to folder.
 */
#ifndef ERG_DIRLIST_H
#define ERG_DIRLIST_H

#include <stddef.h>

#include "base/buf.h"

struct names {
	struct buf blk;		/* each name's type byte, then the name and '\0' */
	size_t *at, nat;	/* their offsets in blk */
	char **v;		/* into blk, sorted by strcmp */
	size_t n;
};

#define NAMES_INIT { BUF_INIT, NULL, 0, NULL, 0 }

/* The names of the open directory fd (left open; -1, a failed open, is
 * refused with errno as the open left it), "." and ".." left out, into l,
 * whose memory is reused.  0, or -1 with errno and no names. */
int names_list_fd(int fd, struct names *l);
/* The same of the directory at path. */
int names_list_dir(const char *path, struct names *l);
/* The type of name l->v[i] as the listing gave it (DT_DIR, DT_REG,
 * DT_LNK, ...; DT_UNKNOWN where the file system does not say). */
static inline unsigned char
names_type(const struct names *l, size_t i)
{
	return (unsigned char)l->v[i][-1];
}
void names_release(struct names *l);

#endif
