/* sha256.c - SHA-256 through nettle; see sha256.h for why nettle. */
#include "base/sha256.h"

void
sha256_begin(struct sha256 *c)
{
	sha256_init(&c->ctx);
	c->len = 0;
}

void
sha256_add(struct sha256 *c, const void *p, size_t n)
{
	sha256_update(&c->ctx, n, p);
	c->len += n;
}

void
sha256_end(struct sha256 *c, unsigned char out[32])
{
	sha256_digest(&c->ctx, SHA256_DIGEST_SIZE, out);
	c->len = 0;
}

void
sha256_hex(const unsigned char d[32], char out[65])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
}
