/*
 * test_base.c - the small shared pieces: struct buf, the SHA-256 wrapper
 * over nettle (FIPS 180-4 example vectors, every padding case against
 * sha256sum), safe path joins, diagnostics formatting, folder listings
 * (names sorted, each with its type as the listing gave it).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/dirlist.h"
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

/* Digest of p[0..n) through the wrapper, fed in pieces of at most step bytes. */
static void
digest(const void *p, size_t n, size_t step, char hex[65])
{
	const unsigned char *q = p;
	unsigned char d[32];
	struct sha256 c;
	size_t k;

	sha256_begin(&c);
	for (; n; q += k, n -= k) {
		k = n < step ? n : step;
		sha256_add(&c, q, k);
	}
	sha256_end(&c, d);
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

/* FIPS 180-4 / NIST example vectors, whole and in pieces. */
static void
test_sha256_vectors(void)
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
		digest(v[i].in, strlen(v[i].in), 1000, hex);
		CHECK(!strcmp(hex, v[i].hex), "sha256 of %zu bytes: %s", strlen(v[i].in), hex);
		digest(v[i].in, strlen(v[i].in), 1, hex);
		CHECK(!strcmp(hex, v[i].hex), "sha256 of %zu bytes, a byte at a time",
		      strlen(v[i].in));
	}
	/* one million 'a', whole and in uneven pieces */
	mil = malloc(1000000);
	memset(mil, 'a', 1000000);
	digest(mil, 1000000, 1000000, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  "sha256 of a million 'a'");
	digest(mil, 1000000, 777, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  "sha256 of a million 'a' in pieces of 777");
	free(mil);
}

/*
 * What the wrapper adds to nettle: the byte count (input.c reports it as
 * the file's size), a context that starts afresh after sha256_end, and
 * one that may be copied mid-stream (input.c's helper thread hands its
 * context back by value).
 */
static void
test_sha256_wrapper(void)
{
	static const char abc[] = "abc", empty[] =
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
	unsigned char d[32];
	char hex[65];
	struct sha256 c, copy;
	uint64_t len;

	sha256_begin(&c);
	sha256_add(&c, "ab", 2);
	copy = c;
	sha256_add(&c, "c", 1);
	len = c.len;
	sha256_end(&c, d);
	sha256_hex(d, hex);
	CHECK(len == 3 && !strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	      "len counts the bytes added (%llu)", (unsigned long long)len);
	CHECK(c.len == 0, "sha256_end resets the count");
	sha256_end(&c, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, empty, "after sha256_end the context digests afresh");
	sha256_add(&copy, abc + 2, 1);
	sha256_end(&copy, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  "a copy taken mid-stream continues the digest");
}

/*
 * Every length from 0 to 300 bytes (all padding cases: 55, 56, 63, 64,
 * 119, 120 ...) at every alignment of the start, fed whole and in random
 * pieces, against coreutils sha256sum of the same bytes (an independent
 * implementation); skipped checks are failures, so sha256sum must run.
 */
static void
test_sha256_lengths(void)
{
	enum { MAX = 300 };
	unsigned char buf[MAX + 16];
	char dir[] = "/tmp/erg-test-sha-XXXXXX", a[65], b[65], line[512], name[64];
	char (*want)[65] = calloc(MAX + 1, sizeof(*want));
	struct buf cmd = BUF_INIT, p = BUF_INIT;
	size_t i, n, bad = 0, seen = 0;
	FILE *f;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)rnd();
	if (!mkdtemp(dir))
		BUG("mkdtemp");
	for (n = 0; n <= MAX; n++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%zu", dir, n);
		f = fopen(p.ptr, "wb");
		if (!f || fwrite(buf + n % 16, 1, n, f) != n || fclose(f))
			BUG("cannot write %s", p.ptr);
	}
	buf_addf(&cmd, "cd %s && sha256sum", dir);
	for (n = 0; n <= MAX; n++)
		buf_addf(&cmd, " %zu", n);
	f = popen(cmd.ptr, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%64[0-9a-f]  %63s", a, name) == 2 &&
		    sscanf(name, "%zu", &n) == 1 && n <= MAX && !want[n][0]) {
			memcpy(want[n], a, 65);
			seen++;
		}
	}
	CHECK(f && pclose(f) == 0 && seen == MAX + 1,
	      "sha256sum digested the %d test inputs (%zu)", MAX + 1, seen);
	for (n = 0; n <= MAX; n++) {
		digest(buf + n % 16, n, n ? n : 1, a);
		digest(buf + n % 16, n, 1 + (size_t)(rnd() % 70), b);
		if (strcmp(a, want[n]) || strcmp(b, want[n])) {
			if (!bad)
				printf("# first difference: %zu bytes: %s, in pieces %s, sha256sum %s\n",
				       n, a, b, want[n]);
			bad++;
		}
	}
	CHECK(seen == MAX + 1 && !bad, "sha256 = sha256sum for every length 0-%d, unaligned, "
	      "whole and in random pieces (%zu differ)", MAX, bad);
	buf_reset(&p);
	buf_addstr(&p, dir);
	path_remove_tree(p.ptr);
	buf_release(&p);
	buf_release(&cmd);
	free(want);
}

static void
test_sha256(void)
{
	test_sha256_vectors();
	test_sha256_wrapper();
	test_sha256_lengths();
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

/* Expected days from Python's datetime.date arithmetic, not from erg. */
static void
test_days(void)
{
	CHECK(days_from_civil(1970, 1, 1) == 0, "1970-01-01 is day 0");
	CHECK(days_from_civil(1969, 12, 31) == -1, "1969-12-31 is day -1");
	CHECK(days_from_civil(2000, 3, 1) == 11017, "2000-03-01 (after a leap day of a century)");
	CHECK(days_from_civil(2024, 2, 29) == 19782, "2024-02-29");
	CHECK(days_from_civil(2026, 8, 26) == 20691, "2026-08-26");
	CHECK(days_from_civil(1600, 1, 1) == -135140, "1600-01-01 (an era back)");
}

/* A folder of a file, a folder, a link and names sorting around them:
 * every name once, sorted, "." and ".." left out, each type the one
 * lstat gives (a file system may give DT_UNKNOWN instead; /tmp here, ext4
 * or overlayfs, gives every type). */
static void
test_names(void)
{
	static const char *const want[] = { ".hidden", "Z", "a", "a.b", "b", "link" };
	char dir[] = "/tmp/erg-names-XXXXXX", p[64];
	struct names l = NAMES_INIT;
	struct stat st;
	size_t i;
	int fd, ok = 1, types = 0;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(p, sizeof(p), "%s/a", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/link", dir);
	ok = !symlink("a", p);
	for (i = 0; i < 4; i++) {
		static const char *const files[] = { "Z", "a.b", "b", ".hidden" };

		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		if ((fd = open(p, O_WRONLY | O_CREAT, 0644)) >= 0)
			close(fd);
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(ok && !names_list_fd(fd, &l) && l.n == 6, "a folder of six entries lists six names");
	for (i = 0; i < l.n && i < 6; i++) {
		int t = names_type(&l, i);

		ok &= !strcmp(l.v[i], want[i]);
		if (!fstatat(fd, l.v[i], &st, AT_SYMLINK_NOFOLLOW))
			types += t == (S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ?
				       DT_LNK : DT_REG);
	}
	CHECK(ok, "the names in strcmp order, hidden ones included");
	CHECK(types == 6, "each name's type is lstat's (%d of 6)", types);
	CHECK(names_list_fd(-1, &l) == -1 && l.n == 0, "a failed open lists nothing");
	close(fd);
	names_release(&l);
	for (i = 0; i < 6; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, want[i]);
		if (remove(p))
			unlink(p);
	}
	rmdir(dir);
}

int
main(void)
{
	test_names();
	test_buf();
	test_days();
	test_sha256();
	test_path();
	test_diag();
	return th_done();
}
