/*
 * sha256.h - SHA-256 (FIPS 180-4) for the checksums of raw files listed on
 * run pages.  Hand-written from the standard because it is ~100 lines and
 * pulling in a crypto library (libgcrypt, nettle, OpenSSL) for one digest
 * would be a heavier dependency than the code; tested against the FIPS
 * example vectors.
 */
#ifndef ERG_SHA256_H
#define ERG_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes so far */
	unsigned char blk[64];
	size_t nblk;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *p, size_t n);
void sha256_final(struct sha256 *c, unsigned char out[32]);
void sha256_hex(const unsigned char d[32], char out[65]);
/* Digest of a file's bytes on disk; 0 or -1 after a diagnostic. */
int sha256_file(const char *path, char hex[65], uint64_t *size);

#endif
