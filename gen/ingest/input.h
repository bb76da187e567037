/*
 * input.h - reading archive files: plain or gzip (detected by magic bytes,
 * not by name), streamed in chunks, with a hard cap on the number of bytes
 * delivered (the *inflated* size for gzip, so a gzip bomb stops at the cap).
 *
 * All archive reads go through here, so every size limit lives in one place,
 * and so does the rule that only regular files are read: a FIFO, a device,
 * a socket or a directory is refused when it is opened, without blocking
 * ("erg: PATH: error: not a regular file (a FIFO)").  Symbolic links are
 * followed: callers check them first (path_inside(), archive.c).
 */
#ifndef ERG_INPUT_H
#define ERG_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* Default caps; main.c may change them from the command line. */
extern uint64_t input_max_stream;	/* power files: 8 GiB inflated */
extern uint64_t input_max_small;	/* JSON, Markdown, CSV: 64 MiB */
/*
 * 1 (default): raw files are digested for the raw-files table.  0: they
 * are not (erg build --no-digest; erg check and erg diff, which publish
 * no digest): input_open_digest() is input_open().  SHA-256 of a big
 * plain power file costs more than parsing it and cannot be split across
 * cores, so it is the one part of a build a user may want to skip.
 */
extern int input_digests;

struct input;	/* opaque */

/* Open path; NULL after an "erg: path: error: ..." diagnostic. */
struct input *input_open(const char *path, uint64_t max_bytes);
/*
 * input_open() that also computes the SHA-256 of the bytes read from the
 * file (the on-disk bytes: compressed ones for gzip), so that a caller
 * who reads the whole file gets its digest without reading it twice.  A
 * file of at least input_hash_async_min bytes is hashed on a helper
 * thread (on copies of what was read) while the caller parses.  With
 * input_digests 0, the same as input_open().
 */
struct input *input_open_digest(const char *path, uint64_t max_bytes);
extern uint64_t input_hash_async_min;	/* default 8 MiB; 0: always */
/*
 * Read up to n bytes into p.  Returns bytes read (0 at end), or -1 after a
 * diagnostic (I/O error, corrupt or truncated gzip, cap exceeded), located
 * by the byte offset in the delivered (inflated) stream.
 */
long input_read(struct input *in, void *p, size_t n);
uint64_t input_offset(const struct input *in);	/* bytes delivered so far */
uint64_t input_size_hint(const struct input *in); /* on-disk size, for progress */
int input_is_gzip(const struct input *in);
/*
 * After input_read() returned 0 on an input_open_digest() input: the
 * SHA-256 (lowercase hex) and size of the file's bytes; 0, or -1 (no
 * diagnostic) when the input does not digest, failed, or was not read to
 * its end.  Once only: it ends the hashing.
 */
int input_digest(struct input *in, char hex[65], uint64_t *size);
/* Is the digest computed on a helper thread (a core's worth of work)? */
int input_digest_thread(const struct input *in);
void input_close(struct input *in);

/*
 * open(2) for reading that never blocks and accepts only a regular file:
 * the descriptor (blocking again, close-on-exec), or -1 after a located
 * diagnostic.  What input_open() uses; for readers that need only a
 * descriptor.
 */
int input_open_fd(const char *path);

/* SHA-256 (lowercase hex) and size of a whole file, read as is (gzip not
 * inflated); 0, or -1 after a diagnostic. */
int input_file_sha256(const char *path, char hex[65], uint64_t *size);

/* Whole file into b (appended, NUL-terminated); 0, or -1 after a diagnostic. */
int input_read_all(const char *path, uint64_t max_bytes, struct buf *b);

#endif
