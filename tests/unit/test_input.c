/*
 * test_input.c - plain and gzip reading through input.h: identical bytes,
 * multi-member gzip, truncation, corruption, the size cap, read_all, the
 * digest of what was read (inline and on the helper thread).
 * Gzip test data is made here with zlib into mkstemp files under /tmp.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"
#include "harness.h"
#include "ingest/input.h"
#include "base/sha256.h"
#include "base/util.h"

static char *tmp_paths[64];
static int ntmp;

/* Write n bytes to a new temporary file; the path is removed at exit. */
static const char *
tmp_write(const void *p, size_t n)
{
	char tmpl[] = "/tmp/erg-test-input-XXXXXX";
	int fd = mkstemp(tmpl);

	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n) || close(fd) < 0)
		die_errno("cannot write temporary file");
	if (ntmp == (int)(sizeof(tmp_paths) / sizeof(tmp_paths[0])))
		die("too many temporary files");
	tmp_paths[ntmp] = xstrdup(tmpl);
	return tmp_paths[ntmp++];
}

static void
tmp_cleanup(void)
{
	while (ntmp > 0) {
		unlink(tmp_paths[--ntmp]);
		free(tmp_paths[ntmp]);
	}
}

/* Append one gzip member holding p[0..n) to out. */
static void
gz_member(struct buf *out, const void *p, size_t n)
{
	unsigned char chunk[16384];
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2 failed");
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		ret = deflate(&z, Z_FINISH);
		buf_add(out, chunk, sizeof(chunk) - z.avail_out);
	} while (ret == Z_OK || ret == Z_BUF_ERROR);
	if (ret != Z_STREAM_END)
		die("deflate failed");
	deflateEnd(&z);
}

/* stderr capture, to check the wording and location of diagnostics. */
static int saved_fd = -1;
static FILE *cap_file;

static void
cap_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	saved_fd = dup(2);
	if (!cap_file || saved_fd < 0 || dup2(fileno(cap_file), 2) < 0)
		die_errno("cannot capture stderr");
}

static void
cap_end(struct buf *out)
{
	char tmp[4096];
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	buf_reset(out);
	rewind(cap_file);
	while ((n = fread(tmp, 1, sizeof(tmp), cap_file)) > 0)
		buf_add(out, tmp, n);
	fclose(cap_file);
}

/* Captured text fit for one TAP line: newlines shown as '|'. */
static const char *
one_line(struct buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (b->ptr[i] == '\n')
			b->ptr[i] = '|';
	return b->ptr;
}

/* Some text of varied bytes, larger than one 256 KiB read. */
static void
make_text(struct buf *b, size_t n)
{
	uint32_t x = 12345;

	while (b->len < n) {
		x = x * 1103515245u + 12345u;
		buf_addf(b, "<key>k%u</key><integer>%u</integer>\n", x % 97, x >> 8);
	}
}

/* Read a whole stream with reads of step bytes; -1 if a read failed. */
static int
read_in_steps(const char *path, uint64_t max, size_t step, struct buf *out, int *gz)
{
	struct input *in = input_open(path, max);
	char *tmp;
	long r;

	if (!in)
		return -1;
	*gz = input_is_gzip(in);
	tmp = xmalloc(step);
	while ((r = input_read(in, tmp, step)) > 0)
		buf_add(out, tmp, (size_t)r);
	if (r == 0 && input_offset(in) != out->len)
		r = -2;
	free(tmp);
	input_close(in);
	return r < 0 ? (int)r : 0;
}

static void
test_plain_and_gzip_identical(void)
{
	struct buf text = BUF_INIT, gz = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	const char *plain, *gzp;
	int isgz = -1;

	make_text(&text, 700 * 1024);
	gz_member(&gz, text.ptr, text.len);
	plain = tmp_write(text.ptr, text.len);
	gzp = tmp_write(gz.ptr, gz.len);

	CHECK(input_read_all(plain, input_max_small, &a) == 0, "read_all plain");
	CHECK(input_read_all(gzp, input_max_small, &b) == 0, "read_all gzip");
	CHECK(a.len == text.len && !memcmp(a.ptr, text.ptr, text.len),
	      "plain bytes identical (%zu of %zu)", a.len, text.len);
	CHECK(b.len == text.len && !memcmp(b.ptr, text.ptr, text.len),
	      "gzip bytes identical (%zu of %zu)", b.len, text.len);
	CHECK(b.ptr[b.len] == '\0', "read_all NUL-terminates");

	/* Odd read sizes cross every internal buffer boundary. */
	buf_reset(&a);
	CHECK(read_in_steps(gzp, input_max_stream, 7777, &a, &isgz) == 0 && isgz == 1,
	      "gzip in 7777-byte reads, offsets agree");
	CHECK(a.len == text.len && !memcmp(a.ptr, text.ptr, text.len), "gzip stepped bytes identical");
	buf_reset(&a);
	CHECK(read_in_steps(plain, input_max_stream, 1, &a, &isgz) == 0 && isgz == 0,
	      "plain in 1-byte reads, offsets agree");
	CHECK(a.len == text.len && !memcmp(a.ptr, text.ptr, text.len), "plain stepped bytes identical");

	{
		struct input *in = input_open(gzp, input_max_stream);

		CHECK(in && input_size_hint(in) == gz.len, "size hint is the on-disk size");
		input_close(in);
	}
	buf_release(&text);
	buf_release(&gz);
	buf_release(&a);
	buf_release(&b);
}

static void
test_real_sample_gzip(void)
{
	struct buf path = BUF_INIT, raw = BUF_INIT, gz = BUF_INIT, back = BUF_INIT;
	const char *shared = getenv("SHARED");
	int ok;

	buf_addf(&path, "%s/samples/powermetrics/m1pro_MacBookPro18-3_macos15.3_24D81_show-all_5samples.plist",
		 shared ? shared : "../shared");
	ok = input_read_all(path.ptr, input_max_stream, &raw) == 0;
	CHECK(ok && raw.len == 2184881, "real sample read plain (%zu bytes)", raw.len);
	gz_member(&gz, raw.ptr, raw.len);
	ok = input_read_all(tmp_write(gz.ptr, gz.len), input_max_stream, &back) == 0;
	CHECK(ok && back.len == raw.len && !memcmp(back.ptr, raw.ptr, raw.len),
	      "real sample through gzip identical, NULs included (%zu bytes)", back.len);
	buf_release(&path);
	buf_release(&raw);
	buf_release(&gz);
	buf_release(&back);
}

static void
test_concatenated_members(void)
{
	struct buf gz = BUF_INIT, out = BUF_INIT;
	const char *p;
	static const char zeros[37];
	int ok;

	gz_member(&gz, "hello, ", 7);
	gz_member(&gz, "", 0);	/* an empty member in the middle */
	gz_member(&gz, "world\n", 6);
	p = tmp_write(gz.ptr, gz.len);
	ok = input_read_all(p, 100, &out) == 0;
	CHECK(ok && !strcmp(out.ptr, "hello, world\n"), "three members read as one stream: '%.12s'", out.ptr);

	/* Zero padding after the last member is ignored, as gzip(1) does. */
	buf_add(&gz, zeros, sizeof(zeros));
	buf_reset(&out);
	ok = input_read_all(tmp_write(gz.ptr, gz.len), 100, &out) == 0;
	CHECK(ok && !strcmp(out.ptr, "hello, world\n"), "trailing zero bytes ignored");
	buf_release(&gz);
	buf_release(&out);
}

static void
test_truncated(void)
{
	struct buf text = BUF_INIT, gz = BUF_INIT, out = BUF_INIT, err = BUF_INIT, want = BUF_INIT;
	const char *p;
	int e0 = diag_errors, r, ok;

	make_text(&text, 300 * 1024);
	gz_member(&gz, text.ptr, text.len);

	/* Cut in the middle of the deflate data. */
	p = tmp_write(gz.ptr, gz.len / 2);
	cap_begin();
	r = input_read_all(p, input_max_stream, &out);
	cap_end(&err);
	CHECK(r == -1 && diag_errors == e0 + 1, "half a gzip file fails");
	ok = strstr(err.ptr, ": error: truncated gzip stream\n") != NULL;
	CHECK(ok, "message: %s", one_line(&err));
	CHECK(out.len == 0, "read_all leaves the buffer as it was on failure");

	/* All data there, only the 8-byte trailer (CRC, size) missing. */
	p = tmp_write(gz.ptr, gz.len - 8);
	cap_begin();
	r = input_read_all(p, input_max_stream, &out);
	cap_end(&err);
	buf_addf(&want, "erg: %s:@%zu: error: truncated gzip stream\n", p, text.len);
	ok = r == -1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "gzip without its trailer fails at the delivered offset: %s", one_line(&err));

	/* Only the magic. */
	p = tmp_write("\x1f\x8b", 2);
	cap_begin();
	r = input_read_all(p, input_max_stream, &out);
	cap_end(&err);
	ok = r == -1 && strstr(err.ptr, ":@0: error: truncated gzip stream");
	CHECK(ok, "bare magic: %s", one_line(&err));

	buf_release(&text);
	buf_release(&gz);
	buf_release(&out);
	buf_release(&err);
	buf_release(&want);
}

static void
test_corrupt(void)
{
	struct buf gz = BUF_INIT, out = BUF_INIT, err = BUF_INIT, text = BUF_INIT;
	int r, ok;

	make_text(&text, 5000);
	gz_member(&gz, text.ptr, text.len);
	/* Flip a bit in the CRC32 trailer: zlib's "incorrect data check". */
	gz.ptr[gz.len - 6] ^= 0x40;
	cap_begin();
	r = input_read_all(tmp_write(gz.ptr, gz.len), input_max_stream, &out);
	cap_end(&err);
	ok = r == -1 && strstr(err.ptr, "error: corrupt gzip stream: incorrect data check");
	CHECK(ok, "bad CRC: %s", one_line(&err));

	/* Garbage after a member is not another member. */
	gz.ptr[gz.len - 6] ^= 0x40;
	buf_addstr(&gz, "garbage");
	cap_begin();
	r = input_read_all(tmp_write(gz.ptr, gz.len), input_max_stream, &out);
	cap_end(&err);
	ok = r == -1 && strstr(err.ptr, "error: corrupt gzip stream: incorrect header check");
	CHECK(ok, "trailing garbage: %s", one_line(&err));

	/* A bad block type in the deflate data (header is 10 bytes). */
	buf_reset(&gz);
	gz_member(&gz, text.ptr, text.len);
	gz.ptr[10] = (char)0x07;	/* BFINAL=1, BTYPE=11 (reserved) */
	cap_begin();
	r = input_read_all(tmp_write(gz.ptr, gz.len), input_max_stream, &out);
	cap_end(&err);
	ok = r == -1 && strstr(err.ptr, ":@0: error: corrupt gzip stream: invalid block type");
	CHECK(ok, "bad block: %s", one_line(&err));

	buf_release(&gz);
	buf_release(&out);
	buf_release(&err);
	buf_release(&text);
}

static void
test_cap(void)
{
	struct buf gz = BUF_INIT, out = BUF_INIT, err = BUF_INIT, want = BUF_INIT;
	size_t n = 1 << 20;
	char *zeros = xcalloc(1, n);
	const char *p, *plain;
	int r, ok;

	gz_member(&gz, zeros, n);	/* 1 MiB of zeros is ~1 KiB of gzip */
	p = tmp_write(gz.ptr, gz.len);
	cap_begin();
	r = input_read_all(p, 4096, &out);
	cap_end(&err);
	buf_addf(&want, "erg: %s:@4096: error: inflated size exceeds the limit of 4096 bytes\n", p);
	ok = r == -1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "gzip bomb (%zu bytes on disk) stops at the cap: %s", gz.len, one_line(&err));

	buf_reset(&out);
	r = input_read_all(p, n, &out);
	CHECK(r == 0 && out.len == n, "a stream of exactly the cap is accepted");
	buf_reset(&out);
	cap_begin();
	r = input_read_all(p, n - 1, &out);
	cap_end(&err);
	CHECK(r == -1 && strstr(err.ptr, ":@1048575: error: inflated size exceeds the limit of 1048575 bytes"),
	      "one byte over the cap is not");

	plain = tmp_write(zeros, 5000);
	cap_begin();
	r = input_read_all(plain, 4999, &out);
	cap_end(&err);
	buf_reset(&want);
	buf_addf(&want, "erg: %s:@4999: error: file size exceeds the limit of 4999 bytes\n", plain);
	ok = r == -1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "plain file over the cap: %s", one_line(&err));
	buf_reset(&out);
	r = input_read_all(plain, 5000, &out);
	CHECK(r == 0 && out.len == 5000, "plain file at the cap");

	CHECK(input_max_stream == (uint64_t)8 << 30 && input_max_small == (uint64_t)64 << 20,
	      "default caps 8 GiB and 64 MiB");
	free(zeros);
	buf_release(&gz);
	buf_release(&out);
	buf_release(&err);
	buf_release(&want);
}

static void
test_read_all_appends_and_edges(void)
{
	struct buf out = BUF_INIT, err = BUF_INIT;
	struct input *in;
	int r, ok;

	buf_addstr(&out, "head:");
	r = input_read_all(tmp_write("tail", 4), 100, &out);
	CHECK(r == 0 && !strcmp(out.ptr, "head:tail"), "read_all appends: '%s'", out.ptr);
	r = input_read_all(tmp_write("", 0), 100, &out);
	CHECK(r == 0 && !strcmp(out.ptr, "head:tail"), "empty file adds nothing");
	buf_reset(&out);
	r = input_read_all(tmp_write("\x1f", 1), 100, &out);
	CHECK(r == 0 && out.len == 1 && out.ptr[0] == 0x1f, "a lone 0x1f byte is a plain file");

	cap_begin();
	r = input_read_all("/nonexistent/erg-power.plist", 100, &out);
	cap_end(&err);
	ok = r == -1 && !strcmp(err.ptr, "erg: /nonexistent/erg-power.plist: error: cannot open: No such file or directory\n");
	CHECK(ok, "open error names the path: %s", one_line(&err));
	cap_begin();
	in = input_open("/tmp", 100);
	cap_end(&err);
	ok = !strcmp(err.ptr, "erg: /tmp: error: not a regular file (a directory)\n");
	CHECK(!in && ok, "a directory is refused: %s", one_line(&err));
	cap_begin();
	r = input_read_all("/dev/null", 100, &out);
	cap_end(&err);
	ok = !strcmp(err.ptr, "erg: /dev/null: error: not a regular file (a character device)\n");
	CHECK(r == -1 && ok, "a device is refused: %s", one_line(&err));
	buf_release(&out);
	buf_release(&err);
}

/* SHA-256 of p[0..n) in hex, computed directly. */
static void
sha_hex(const void *p, size_t n, char hex[65])
{
	unsigned char d[32];
	struct sha256 c;

	sha256_begin(&c);
	sha256_add(&c, p, n);
	sha256_end(&c, d);
	sha256_hex(d, hex);
}

/*
 * Read path whole through input_open_digest() with reads of step bytes,
 * into out; then its digest.  0, -1 if reading failed, -2 if the digest.
 */
static int
read_digest(const char *path, size_t step, struct buf *out, char hex[65], uint64_t *size)
{
	struct input *in = input_open_digest(path, input_max_stream);
	long r;
	int ret;

	buf_reset(out);
	if (!in)
		return -1;
	do {
		buf_grow(out, step);
		r = input_read(in, out->ptr + out->len, step);
		if (r > 0)
			out->len += (size_t)r;
	} while (r > 0);
	ret = r < 0 ? -1 : input_digest(in, hex, size) ? -2 : 0;
	input_close(in);
	return ret;
}

static void
test_digest(void)
{
	static const size_t steps[] = { 4096, ((size_t)1 << 20) + 1 };
	static const char *const how[] = { "on the helper thread", "inline" };
	struct buf text = BUF_INIT, gz = BUF_INIT, out = BUF_INIT, err = BUF_INIT;
	char hex[65], want_plain[65], want_gz[65], want_empty[65];
	const char *plain, *gzp, *empty, *bad;
	uint64_t size, saved = input_hash_async_min;
	struct input *in;
	size_t i, k;
	int r;

	/* Several 256 KiB reads: the helper's 4 slots are reused many times. */
	make_text(&text, 3 * 1024 * 1024 + 123);
	gz_member(&gz, text.ptr, text.len / 2);
	gz_member(&gz, text.ptr + text.len / 2, text.len - text.len / 2);
	plain = tmp_write(text.ptr, text.len);
	gzp = tmp_write(gz.ptr, gz.len);
	empty = tmp_write("", 0);
	sha_hex(text.ptr, text.len, want_plain);
	sha_hex(gz.ptr, gz.len, want_gz);
	sha_hex("", 0, want_empty);
	for (k = 0; k < 2; k++) {
		input_hash_async_min = k ? UINT64_MAX : 0;
		for (i = 0; i < 2; i++) {
			r = read_digest(plain, steps[i], &out, hex, &size);
			CHECK(r == 0 && !strcmp(hex, want_plain) && size == text.len &&
			      out.len == text.len && !memcmp(out.ptr, text.ptr, text.len),
			      "digest of a plain file, %s, reads of %zu bytes", how[k], steps[i]);
			r = read_digest(gzp, steps[i], &out, hex, &size);
			CHECK(r == 0 && !strcmp(hex, want_gz) && size == gz.len &&
			      out.len == text.len && !memcmp(out.ptr, text.ptr, text.len),
			      "digest of a gzip file is of its compressed bytes, %s, reads of %zu",
			      how[k], steps[i]);
		}
		r = read_digest(empty, 4096, &out, hex, &size);
		CHECK(r == 0 && !strcmp(hex, want_empty) && size == 0,
		      "digest of an empty file, %s", how[k]);

		/* Not read to the end: no digest, and closing stops the helper. */
		in = input_open_digest(plain, input_max_stream);
		CHECK(in && input_read(in, out.ptr, 4096) == 4096 &&
		      input_digest(in, hex, &size) == -1, "no digest before the end, %s", how[k]);
		input_close(in);
		in = input_open_digest(plain, input_max_stream);
		r = in && input_read(in, out.ptr, 4096) == 4096;
		input_close(in);
		CHECK(r, "closed half-read, %s", how[k]);
		in = input_open_digest(plain, input_max_stream);
		CHECK(in && input_digest_thread(in) == !k, "input_digest_thread says %s",
		      how[k]);
		input_close(in);
		/* Once only. */
		in = input_open_digest(empty, input_max_stream);
		CHECK(in && input_read(in, out.ptr, 1) == 0 && input_digest(in, hex, &size) == 0 &&
		      input_digest(in, hex, &size) == -1, "a second digest is refused, %s", how[k]);
		input_close(in);
	}
	input_hash_async_min = saved;

	in = input_open(plain, input_max_stream);
	while (in && input_read(in, out.ptr, 4096) > 0)
		;
	CHECK(in && input_digest(in, hex, &size) == -1 && !input_digest_thread(in),
	      "input_open() does not digest");
	input_close(in);

	/* A corrupt gzip stream read with an error: no digest. */
	buf_reset(&out);
	buf_add(&out, gz.ptr, gz.len);
	for (i = gz.len / 3; i < gz.len / 3 + 64; i++)
		out.ptr[i] ^= 0x55;
	bad = tmp_write(out.ptr, out.len);
	input_hash_async_min = 0;
	cap_begin();
	r = read_digest(bad, 4096, &out, hex, &size);
	cap_end(&err);
	input_hash_async_min = saved;
	CHECK(r == -1 && strstr(err.ptr, "corrupt gzip stream"),
	      "no digest of a file that failed to read: %s", one_line(&err));
	buf_release(&text);
	buf_release(&gz);
	buf_release(&out);
	buf_release(&err);
}

/*
 * A FIFO with no writer: opening it for reading would wait for one
 * forever.  Every way in (input_open, input_open_digest, input_read_all,
 * input_open_fd, input_file_sha256) refuses it at once with one located
 * message.  alarm() turns a hang into a failed test instead of a stuck
 * suite.
 */
static void
test_fifo_refused(void)
{
	char dir[] = "/tmp/erg-test-fifo-XXXXXX";
	struct buf path = BUF_INIT, out = BUF_INIT, err = BUF_INIT, want = BUF_INIT;
	struct input *in1, *in2;
	char hex[65];
	uint64_t size;
	int r, fd;

	if (!mkdtemp(dir))
		die_errno("mkdtemp");
	buf_addf(&path, "%s/notes.md", dir);
	if (mkfifo(path.ptr, 0600))
		die_errno("mkfifo");
	for (r = 0; r < 5; r++)
		buf_addf(&want, "erg: %s: error: not a regular file (a FIFO)\n", path.ptr);
	alarm(20);
	cap_begin();
	in1 = input_open(path.ptr, 100);
	in2 = input_open_digest(path.ptr, 100);
	r = input_read_all(path.ptr, 100, &out);
	fd = input_open_fd(path.ptr);
	r += input_file_sha256(path.ptr, hex, &size);
	cap_end(&err);
	alarm(0);
	CHECK(!in1 && !in2 && r == -2 && fd == -1, "a FIFO is refused by every opener, without blocking");
	r = !strcmp(err.ptr, want.ptr);
	CHECK(r, "a FIFO: five times the located message: %s", one_line(&err));
	unlink(path.ptr);
	rmdir(dir);
	buf_release(&path);
	buf_release(&out);
	buf_release(&err);
	buf_release(&want);
}

/* input_file_sha256: the digest of the bytes as stored (gzip not inflated). */
static void
test_file_sha256(void)
{
	struct buf data = BUF_INIT, gz = BUF_INIT, err = BUF_INIT;
	char hex[65], want[65];
	uint64_t size = 0;
	int r;

	make_text(&data, 300 * 1024);
	sha_hex(data.ptr, data.len, want);
	r = input_file_sha256(tmp_write(data.ptr, data.len), hex, &size);
	CHECK(r == 0 && !strcmp(hex, want) && size == data.len,
	      "input_file_sha256 of %zu plain bytes", data.len);
	gz_member(&gz, data.ptr, data.len);
	sha_hex(gz.ptr, gz.len, want);
	r = input_file_sha256(tmp_write(gz.ptr, gz.len), hex, &size);
	CHECK(r == 0 && !strcmp(hex, want) && size == gz.len,
	      "input_file_sha256 of a gzip file: its own bytes");
	cap_begin();
	r = input_file_sha256("/nonexistent/x", hex, &size);
	cap_end(&err);
	r = r == -1 && !strcmp(err.ptr, "erg: /nonexistent/x: error: cannot open: No such file or directory\n");
	CHECK(r, "input_file_sha256 of a missing file: %s", one_line(&err));
	buf_release(&data);
	buf_release(&gz);
	buf_release(&err);
}

int
main(void)
{
	test_plain_and_gzip_identical();
	test_real_sample_gzip();
	test_concatenated_members();
	test_truncated();
	test_corrupt();
	test_cap();
	test_read_all_appends_and_edges();
	test_digest();
	test_fifo_refused();
	test_file_sha256();
	tmp_cleanup();
	return th_done();
}
