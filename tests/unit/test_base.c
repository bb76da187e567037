/*
 * test_base.c - the small shared pieces: struct buf, SHA-256 (FIPS 180-4
 * example vectors), safe path joins, diagnostics formatting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "path.h"
#include "sha256.h"
#include "util.h"
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

static void
test_sha256(void)
{
	/* FIPS 180-4 / NIST example vectors. */
	static const struct { const char *in; const char *hex; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	unsigned char d[32];
	char hex[65];
	struct sha256 c;
	size_t i;
	char *mil;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256_init(&c);
		sha256_update(&c, v[i].in, strlen(v[i].in));
		sha256_final(&c, d);
		sha256_hex(d, hex);
		CHECK_STR(hex, v[i].hex, "sha256 vector");
	}
	/* one million 'a', fed in uneven pieces */
	mil = malloc(1000000);
	memset(mil, 'a', 1000000);
	sha256_init(&c);
	for (i = 0; i < 1000000; i += 777)
		sha256_update(&c, mil + i, i + 777 > 1000000 ? 1000000 - i : 777);
	sha256_final(&c, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  "sha256 of a million 'a'");
	free(mil);
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
