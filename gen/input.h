/*
 * input.h - reading archive files: plain or gzip (detected by magic bytes,
 * not by name), streamed in chunks, with a hard cap on the number of bytes
 * delivered (the *inflated* size for gzip, so a gzip bomb stops at the cap).
 *
 * All archive reads go through here, so every size limit lives in one place.
 */
#ifndef ERG_INPUT_H
#define ERG_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Default caps; main.c may change them from the command line. */
extern uint64_t input_max_stream;	/* power files: 8 GiB inflated */
extern uint64_t input_max_small;	/* JSON, Markdown, CSV: 64 MiB */

struct input;	/* opaque */

/* Open path; NULL after an "erg: path: error: ..." diagnostic. */
struct input *input_open(const char *path, uint64_t max_bytes);
/*
 * Read up to n bytes into p.  Returns bytes read (0 at end), or -1 after a
 * diagnostic (I/O error, corrupt or truncated gzip, cap exceeded), located
 * by the byte offset in the delivered (inflated) stream.
 */
long input_read(struct input *in, void *p, size_t n);
uint64_t input_offset(const struct input *in);	/* bytes delivered so far */
uint64_t input_size_hint(const struct input *in); /* on-disk size, for progress */
int input_is_gzip(const struct input *in);
void input_close(struct input *in);

/* Whole file into b (appended, NUL-terminated); 0, or -1 after a diagnostic. */
int input_read_all(const char *path, uint64_t max_bytes, struct buf *b);

#endif
