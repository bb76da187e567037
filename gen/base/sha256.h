/*
 * sha256.h - SHA-256 for the raw-files digests of run pages and the build
 * cache's keys, through libnettle (Debian nettle-dev).
 *
 * nettle rather than OpenSSL's libcrypto: its context is a plain value
 * (no allocation, no call that can fail, nothing to free on an error
 * path, and it may be copied), it keeps no global state and reads no
 * configuration file, so any thread may own a context.  Both pick SHA-NI
 * at run time; on the 2-core CI machine (AMD EPYC) nettle 3.8 hashes
 * 1.70 GB/s, libcrypto 3.0 1.92 GB/s (200 MB in memory): ~15 ms more for
 * the 221 MB reference power file.
 *
 * The wrapper adds the byte count (what was digested: the size on disk
 * the raw-files table shows) and the hex form.  Its names are not
 * nettle's (sha256_init, sha256_update and sha256_digest are nettle's
 * macros).
 */
#ifndef ERG_SHA256_H
#define ERG_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

struct sha256 {
	struct sha256_ctx ctx;
	uint64_t len;		/* bytes so far */
};

void sha256_begin(struct sha256 *c);
void sha256_add(struct sha256 *c, const void *p, size_t n);
/* The digest of everything added; c is begun afresh. */
void sha256_end(struct sha256 *c, unsigned char out[32]);
void sha256_hex(const unsigned char d[32], char out[65]);

#endif
