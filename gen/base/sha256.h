/*
 * sha256.h - SHA-256 (FIPS 180-4) for the checksums of raw files listed on
 * run pages.  Hand-written from the standard because it is ~100 lines and
 * pulling in a crypto library (libgcrypt, nettle, OpenSSL) for one digest
 * would be a heavier dependency than the code; tested against the FIPS
 * example vectors.
 *
 * Two implementations of the compression function: portable C, and one
 * with the x86 SHA extensions (SHA-NI: AMD since Zen, Intel since Ice
 * Lake and Goldmont), about 8 times as fast, so that the digest of a
 * 200 MB power file costs less than parsing it.  sha256_init() picks
 * SHA-NI when the CPU has it (a run-time check, so the binary does not
 * depend on build flags); sha256_init_impl() picks one, for tests.
 */
#ifndef ERG_SHA256_H
#define ERG_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum sha256_impl {
	SHA256_AUTO = 0,	/* SHA-NI if available, else portable */
	SHA256_PORTABLE = 1,
	SHA256_SHANI = 2
};

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes so far */
	unsigned char blk[64];
	size_t nblk;
	int impl;		/* SHA256_PORTABLE or SHA256_SHANI */
};

void sha256_init(struct sha256 *c);
/* 0, or -1 (c untouched) if impl is SHA256_SHANI and the CPU lacks it. */
int sha256_init_impl(struct sha256 *c, enum sha256_impl impl);
int sha256_have_shani(void);	/* the CPU has SHA-NI and erg was built for x86 */
void sha256_update(struct sha256 *c, const void *p, size_t n);
void sha256_final(struct sha256 *c, unsigned char out[32]);
void sha256_hex(const unsigned char d[32], char out[65]);
/* Digest of a file's bytes on disk; 0 or -1 after a diagnostic. */
int sha256_file(const char *path, char hex[65], uint64_t *size);

#endif
