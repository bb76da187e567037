/*
 * test_base.c - the small shared pieces: struct buf, SHA-256 (FIPS 180-4
 * example vectors, the portable and the SHA-NI implementation against
 * each other), safe path joins, diagnostics formatting.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/path.h"
#include "base/sha256.h"
#include "base/util.h"
#include "harness.h"

static void
test_buf(void)
{
	struct buf b = BUF_INIT;
	char *p;
	size_t n, i;

	CHECK(b.ptr && b.ptr[0] == '\0' && b.len == 0, "BUF_INIT is an empty string");
	buf_addstr(&b, "abc");
	buf_addch(&b, 'd');
	buf_addf(&b, "%d-%s", 42, "x");
	CHECK_STR(b.ptr, "abcd42-x", "appends");
	buf_consume(&b, 2);
	CHECK_STR(b.ptr, "cd42-x", "consume");
	buf_reset(&b);
	for (i = 0; i < 10000; i++)
		buf_addf(&b, "%05zu", i);
	CHECK(b.len == 50000 && !memcmp(b.ptr + 49995, "09999", 5), "long appends");
	/* a formatted string longer than the current capacity */
	buf_reset(&b);
	buf_addf(&b, "%0300d", 7);
	CHECK(b.len == 300 && b.ptr[299] == '7' && b.ptr[300] == '\0', "addf grows");
	p = buf_detach(&b, &n);
	CHECK(n == 300 && b.len == 0 && b.ptr[0] == '\0', "detach leaves an empty buf");
	free(p);
	buf_release(&b);
}

/* Digest of p[0..n) with implementation impl, fed in pieces of at most step bytes. */
static void
digest(enum sha256_impl impl, const void *p, size_t n, size_t step, char hex[65])
{
	const unsigned char *q = p;
	unsigned char d[32];
	struct sha256 c;
	size_t k;

	if (sha256_init_impl(&c, impl))
		BUG("SHA-256 implementation %d unavailable", (int)impl);
	for (; n; q += k, n -= k) {
		k = n < step ? n : step;
		sha256_update(&c, q, k);
	}
	sha256_final(&c, d);
	sha256_hex(d, hex);
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * FIPS 180-4 / NIST example vectors, with each implementation: the
 * portable one, and SHA-NI where the CPU has it (both are in every
 * binary; sha256_init() takes SHA-NI when it can).
 */
static void
test_sha256_vectors(enum sha256_impl impl, const char *name)
{
	static const struct { const char *in; const char *hex; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	char hex[65];
	size_t i;
	char *mil;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		digest(impl, v[i].in, strlen(v[i].in), 1000, hex);
		CHECK(!strcmp(hex, v[i].hex), "sha256 (%s) of %zu bytes: %s", name,
		      strlen(v[i].in), hex);
		digest(impl, v[i].in, strlen(v[i].in), 1, hex);
		CHECK(!strcmp(hex, v[i].hex), "sha256 (%s) of %zu bytes, a byte at a time", name,
		      strlen(v[i].in));
	}
	/* one million 'a', whole and in uneven pieces */
	mil = malloc(1000000);
	memset(mil, 'a', 1000000);
	digest(impl, mil, 1000000, 1000000, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  name);
	digest(impl, mil, 1000000, 777, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  name);
	free(mil);
}

/*
 * The two implementations against each other on random data: every
 * length from 0 to 300 bytes (all padding cases: 55, 56, 63, 64 ...),
 * random lengths up to 40 blocks, at every alignment of the start, fed
 * whole and in random pieces.
 */
static void
test_sha256_cross(void)
{
	enum { MAX = 64 * 40 + 64 };
	unsigned char *buf = malloc(MAX + 16);
	char a[65], b[65], c[65];
	size_t i, n, off, step, bad = 0, runs = 0;

	for (i = 0; i < MAX + 16; i++)
		buf[i] = (unsigned char)rnd();
	for (i = 0; i < 301 + 400; i++) {
		n = i <= 300 ? i : (size_t)(rnd() % (MAX - 15)) + 1;
		off = i % 16;
		step = 1 + (size_t)(rnd() % 130);
		digest(SHA256_PORTABLE, buf + off, n, n ? n : 1, a);
		digest(SHA256_SHANI, buf + off, n, n ? n : 1, b);
		digest(SHA256_SHANI, buf + off, n, step, c);
		runs++;
		if (strcmp(a, b) || strcmp(a, c)) {
			if (!bad)
				printf("# first difference: %zu bytes at offset %zu, pieces of %zu\n",
				       n, off, step);
			bad++;
		}
	}
	CHECK(!bad, "SHA-NI = portable SHA-256 on %zu random inputs, unaligned, in pieces "
	      "(%zu differ)", runs, bad);
	free(buf);
}

static void
test_sha256(void)
{
	struct sha256 c;
	char tmpl[] = "/tmp/erg-test-sha-XXXXXX", hex[65], want[65];
	unsigned char *data;
	uint64_t size = 0;
	size_t i, n = 3 * 65536 + 100;
	int fd;

	test_sha256_vectors(SHA256_PORTABLE, "portable");
	CHECK((sha256_init_impl(&c, SHA256_SHANI) == 0) == (sha256_have_shani() != 0),
	      "SHA-NI can be chosen exactly when the CPU has it (%s)",
	      sha256_have_shani() ? "it has" : "it has not");
	sha256_init(&c);
	CHECK(c.impl == (sha256_have_shani() ? SHA256_SHANI : SHA256_PORTABLE),
	      "sha256_init takes SHA-NI when it can");
	if (sha256_have_shani()) {
		test_sha256_vectors(SHA256_SHANI, "SHA-NI");
		test_sha256_cross();
	} else {
		printf("# this CPU has no SHA-NI: its implementation is not tested here\n");
	}

	/* sha256_file: a file of several read buffers, and a missing file */
	data = malloc(n);
	for (i = 0; i < n; i++)
		data[i] = (unsigned char)rnd();
	fd = mkstemp(tmpl);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n || close(fd))
		BUG("cannot write %s", tmpl);
	digest(SHA256_PORTABLE, data, n, n, want);
	CHECK(sha256_file(tmpl, hex, &size) == 0 && !strcmp(hex, want) && size == n,
	      "sha256_file: %zu bytes", n);
	unlink(tmpl);
	free(data);
	fflush(stderr);
	{
		int saved = dup(2), devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 2);
		i = (size_t)sha256_file(tmpl, hex, &size);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		close(devnull);
	}
	CHECK(i == (size_t)-1, "sha256_file of a missing file fails");
}

static void
test_path(void)
{
	char dir[] = "/tmp/erg-test-path-XXXXXX";
	struct buf out = BUF_INIT, p = BUF_INIT;
	const char *why;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	buf_addf(&p, "%s/run", dir);
	mkdir(p.ptr, 0777);
	buf_addf(&p, "/ok.json");
	f = fopen(p.ptr, "w");
	fclose(f);
	buf_reset(&p);
	buf_addf(&p, "%s/outside.json", dir);
	f = fopen(p.ptr, "w");
	fclose(f);
	buf_reset(&p);
	buf_addf(&p, "%s/run/link.json", dir);
	if (symlink("../outside.json", p.ptr))
		CHECK(0, "symlink");
	buf_reset(&p);
	buf_addf(&p, "%s/run", dir);

	CHECK(path_inside(p.ptr, "ok.json", &out, &why) == 0, "plain name resolves");
	CHECK(path_inside(p.ptr, "missing.json", &out, &why) == -2, "missing file is -2");
	CHECK(path_inside(p.ptr, "../outside.json", &out, &why) == -1 && strstr(why, ".."),
	      "'..' refused");
	CHECK(path_inside(p.ptr, "a/../../outside.json", &out, &why) == -1, "inner '..' refused");
	CHECK(path_inside(p.ptr, "/etc/passwd", &out, &why) == -1 && strstr(why, "absolute"),
	      "absolute path refused");
	CHECK(path_inside(p.ptr, "link.json", &out, &why) == -1 && strstr(why, "leaves"),
	      "symlink out of the run refused");
	CHECK(path_inside(p.ptr, "a\nb", &out, &why) == -1, "control character refused");
	CHECK(path_inside(p.ptr, "", &out, &why) == -1, "empty path refused");
	CHECK(path_inside(p.ptr, "x..y", &out, &why) == -2, "'x..y' is an ordinary name");
	buf_reset(&p);
	buf_addstr(&p, dir);
	CHECK(path_remove_tree(p.ptr) == 0 && !path_exists(p.ptr), "remove tree");
	buf_release(&out);
	buf_release(&p);
}

static void
test_diag(void)
{
	char tmpl[] = "/tmp/erg-test-diag-XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(2), before = diag_errors;
	char text[512] = "";
	FILE *f;
	size_t n;

	fflush(stderr);
	dup2(fd, 2);
	error_at("a/b.json", 12, "bad '%s'", "x\033[2Jy");
	error_off("p.plist.gz", 81920, "broken");
	warn_at("c.md", 0, "odd");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(tmpl, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	unlink(tmpl);
	close(fd);
	CHECK(strstr(text, "erg: a/b.json:12: error: bad 'x?[2Jy'\n") != NULL,
	      "located error, control character shown as '?'");
	CHECK(strstr(text, "erg: p.plist.gz:@81920: error: broken\n") != NULL, "byte offset form");
	CHECK(strstr(text, "erg: c.md: warning: odd\n") != NULL, "warning without a line");
	CHECK(diag_errors == before + 2, "errors counted");
}

int
main(void)
{
	test_buf();
	test_sha256();
	test_path();
	test_diag();
	return th_done();
}
