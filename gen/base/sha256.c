/* sha256.c - FIPS 180-4 SHA-256; see sha256.h for why it is hand-written. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_SHANI 1
#include <cpuid.h>
#include <immintrin.h>
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/sha256.h"
#include "base/util.h"

/* 16-byte aligned: the SHA-NI rounds load them four at a time. */
static _Alignas(16) const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* n 64-byte blocks at p into h, in portable C. */
static void
blocks_portable(uint32_t h[8], const unsigned char *p, size_t n)
{
	uint32_t w[64], a, b, d, e, f, g, hh, cc, t1, t2;
	int i;

	for (; n; n--, p += 64) {
		for (i = 0; i < 16; i++)
			w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
			       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
		for (i = 16; i < 64; i++) {
			uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		a = h[0], b = h[1], cc = h[2], d = h[3];
		e = h[4], f = h[5], g = h[6], hh = h[7];
		for (i = 0; i < 64; i++) {
			t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
			     K[i] + w[i];
			t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
			hh = g, g = f, f = e, e = d + t1;
			d = cc, cc = b, b = a, a = t1 + t2;
		}
		h[0] += a, h[1] += b, h[2] += cc, h[3] += d;
		h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
	}
}

#ifdef HAVE_SHANI
/*
 * The same with the SHA extensions, as in Intel's "New Instructions
 * Supporting the Secure Hash Algorithm on Intel Architecture Processors"
 * (2013).  sha256rnds2 does two rounds on a state split as ABEF and CDGH
 * (high lane first), taking W[t] + K[t] from the low two lanes of its
 * third operand.  The message schedule goes four words at a time: with
 * M[g] = W[4g..4g+3],
 *     M[g] = msg2(msg1(M[g-4], M[g-3]) + alignr(M[g-1], M[g-2], 4), M[g-1])
 * msg1 gives W[t-16] + sigma0(W[t-15]), alignr W[t-7], and msg2 adds
 * sigma1(W[t-2]), from M[g-1] or from its own first two results.  pshufb
 * (SSSE3) byte-swaps the big-endian words, pblendw (SSE4.1) splits the
 * state.  The target attribute lets this one function use them whatever
 * the build flags; sha256_have_shani() checks the CPU first.
 */
__attribute__((target("sha,sse4.1")))
static void
blocks_shani(uint32_t h[8], const unsigned char *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i s0, s1, t, abef, cdgh, wk, m[4];
	int g;

	t = _mm_loadu_si128((const __m128i *)(const void *)&h[0]);	/* DCBA */
	s1 = _mm_loadu_si128((const __m128i *)(const void *)&h[4]);	/* HGFE */
	t = _mm_shuffle_epi32(t, 0xb1);			/* CDAB */
	s1 = _mm_shuffle_epi32(s1, 0x1b);		/* EFGH */
	s0 = _mm_alignr_epi8(t, s1, 8);			/* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xf0);		/* CDGH */
	for (; n; n--, p += 64) {
		abef = s0;
		cdgh = s1;
		/* Unrolled, m[] lives in registers: m[g & 3] is W[4g..4g+3]. */
#pragma GCC unroll 16
		for (g = 0; g < 16; g++) {
			if (g < 4)
				m[g] = _mm_shuffle_epi8(
					_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * g)),
					bswap);
			else
				m[g & 3] = _mm_sha256msg2_epu32(
					_mm_add_epi32(_mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]),
						      _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4)),
					m[(g + 3) & 3]);
			wk = _mm_add_epi32(m[g & 3],
					   _mm_load_si128((const __m128i *)(const void *)&K[4 * g]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, wk);
			s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(wk, 0x0e));
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	t = _mm_shuffle_epi32(s0, 0x1b);		/* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xb1);		/* DCHG */
	s0 = _mm_blend_epi16(t, s1, 0xf0);		/* DCBA */
	s1 = _mm_alignr_epi8(s1, t, 8);			/* HGFE */
	_mm_storeu_si128((__m128i *)(void *)&h[0], s0);
	_mm_storeu_si128((__m128i *)(void *)&h[4], s1);
}

/*
 * CPUID rather than __builtin_cpu_supports("sha"): clang 14, which builds
 * the fuzz targets, does not know that feature name.  Leaf 7 EBX bit 29:
 * SHA; leaf 1 ECX bits 9 and 19: SSSE3 and SSE4.1.  The instructions use
 * only the XMM registers, which every x86-64 kernel saves.
 */
static int
cpu_has_shani(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return (b & (1u << 29)) != 0;
}
#endif

int
sha256_have_shani(void)
{
#ifdef HAVE_SHANI
	/* -1: not asked yet.  Threads racing here compute the same answer. */
	static atomic_int have = -1;
	int v = atomic_load_explicit(&have, memory_order_relaxed);

	if (v < 0) {
		v = cpu_has_shani();
		atomic_store_explicit(&have, v, memory_order_relaxed);
	}
	return v;
#else
	return 0;
#endif
}

static void
blocks(struct sha256 *c, const unsigned char *p, size_t n)
{
#ifdef HAVE_SHANI
	if (c->impl == SHA256_SHANI) {
		blocks_shani(c->h, p, n);
		return;
	}
#endif
	blocks_portable(c->h, p, n);
}

int
sha256_init_impl(struct sha256 *c, enum sha256_impl impl)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	if (impl == SHA256_AUTO)
		impl = sha256_have_shani() ? SHA256_SHANI : SHA256_PORTABLE;
	else if (impl == SHA256_SHANI && !sha256_have_shani())
		return -1;
	else if (impl != SHA256_SHANI && impl != SHA256_PORTABLE)
		BUG("unknown SHA-256 implementation %d", (int)impl);
	memcpy(c->h, iv, sizeof(iv));
	c->len = 0;
	c->nblk = 0;
	c->impl = impl;
	return 0;
}

void
sha256_init(struct sha256 *c)
{
	sha256_init_impl(c, SHA256_AUTO);
}

void
sha256_update(struct sha256 *c, const void *data, size_t n)
{
	const unsigned char *p = data;

	c->len += n;
	if (c->nblk) {
		size_t k = 64 - c->nblk < n ? 64 - c->nblk : n;

		memcpy(c->blk + c->nblk, p, k);
		c->nblk += k;
		p += k;
		n -= k;
		if (c->nblk < 64)
			return;
		blocks(c, c->blk, 1);
		c->nblk = 0;
	}
	/* All whole blocks in one call: SHA-NI keeps the state in registers. */
	if (n >= 64) {
		blocks(c, p, n / 64);
		p += n & ~(size_t)63;
		n &= 63;
	}
	memcpy(c->blk, p, n);
	c->nblk = n;
}

void
sha256_final(struct sha256 *c, unsigned char out[32])
{
	uint64_t bits = c->len * 8;
	int i;

	/* 0x80, zeros up to 8 bytes short of a block end, the bit length. */
	c->blk[c->nblk++] = 0x80;
	if (c->nblk > 56) {
		memset(c->blk + c->nblk, 0, 64 - c->nblk);
		blocks(c, c->blk, 1);
		c->nblk = 0;
	}
	memset(c->blk + c->nblk, 0, 56 - c->nblk);
	for (i = 0; i < 8; i++)
		c->blk[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	blocks(c, c->blk, 1);
	c->nblk = 0;
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
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

int
sha256_file(const char *path, char hex[65], uint64_t *size)
{
	unsigned char buf[65536], d[32];
	struct sha256 c;
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return error_errno("cannot open '%s'", path);
	sha256_init(&c);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&c, buf, n);
	if (ferror(f)) {
		fclose(f);
		return error_errno("cannot read '%s'", path);
	}
	fclose(f);
	if (size)
		*size = c.len;	/* before sha256_final adds the padding */
	sha256_final(&c, d);
	sha256_hex(d, hex);
	return 0;
}
