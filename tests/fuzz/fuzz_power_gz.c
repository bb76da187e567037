/*
 * fuzz_power_gz.c - gzip-compressed power streams: input.c's inflating
 * reader and its cap, then power.c on what comes out.
 *
 * Byte 0 of the input is the options, the rest is the payload:
 *   bits 0-1  0: the file is the payload gzipped (one member)
 *             1: the file is the payload as it is (corrupt gzip seeds)
 *             2: two gzip members, split in the middle of the payload
 *             3: the payload gzipped, then cut short
 *   bits 2-3  cap on the inflated size: 0 erg's default, 1 4096 bytes,
 *             2 exactly the payload size, 3 one byte less
 *   bits 4-6  deflate level 0-7 (0 stores, so the payload shows through)
 *   bit 7     modes 0 and 2: three zero bytes after the last member
 *             (gzip(1) skips them)
 * Oracles, for modes 0, 2 and 3 (where the file's content is known):
 * input_read_all() delivers the payload exactly when it fits the cap,
 * fails when it does not, and always fails on a cut-short stream;
 * power_read() fails whenever reading must fail.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/buf.h"
#include "fuzz.h"
#include "ingest/input.h"
#include "analyze/integrate.h"
#include "ingest/powermetrics.h"

static struct fuzz_file file;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	fuzz_file_open(&file, "power.plist.gz");
	return 0;
}

/* Append p[0..n) to out as one gzip member. */
static void
gzip_member(struct buf *out, const uint8_t *p, size_t n, int level)
{
	z_stream zs;
	unsigned char chunk[16384];
	int ret;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		fuzz_fail("deflateInit2 failed");
	zs.next_in = (unsigned char *)p;
	zs.avail_in = (uInt)n;
	do {
		zs.next_out = chunk;
		zs.avail_out = sizeof(chunk);
		ret = deflate(&zs, Z_FINISH);
		if (ret == Z_STREAM_ERROR)
			fuzz_fail("deflate failed");
		buf_add(out, chunk, sizeof(chunk) - zs.avail_out);
	} while (ret != Z_STREAM_END);
	deflateEnd(&zs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf f = BUF_INIT, got = BUF_INIT;
	struct power_file pf = POWER_FILE_INIT;
	uint64_t saved = input_max_stream, cap;
	const uint8_t *body;
	size_t n;
	int mode, level, rd, pw, cut = 0;

	if (size < 1)
		return 0;
	mode = data[0] & 3;
	level = (data[0] >> 4) & 7;
	body = data + 1;
	n = size - 1;
	switch ((data[0] >> 2) & 3) {
	case 0: cap = saved; break;
	case 1: cap = 4096; break;
	case 2: cap = n; break;
	default: cap = n ? n - 1 : 0; break;
	}
	switch (mode) {
	case 1:
		buf_add(&f, body, n);
		break;
	case 2:
		gzip_member(&f, body, n / 2, level);
		gzip_member(&f, body + n / 2, n - n / 2, level);
		break;
	default:
		gzip_member(&f, body, n, level);
		break;
	}
	if ((mode == 0 || mode == 2) && (data[0] & 0x80))
		buf_add(&f, "\0\0\0", 3);
	if (mode == 3) {
		/* Keep 2 to len - 8 bytes: the trailer at least goes (a member
		 * is 20 bytes or more). */
		buf_setlen(&f, f.len - 8 - (n % (f.len - 9)));
		cut = 1;
	}

	fuzz_begin();
	fuzz_file_set(&file, f.ptr, f.len);
	rd = input_read_all(file.path, cap, &got);
	if (mode != 1) {
		if (cut && rd == 0)
			fuzz_fail("gz: a stream cut to %zu of its bytes was read whole", f.len);
		if (!cut && mode != 3 && (n <= cap) != (rd == 0))
			fuzz_fail("gz: %zu inflated bytes with cap %llu: read %s", n,
				  (unsigned long long)cap, rd ? "failed" : "succeeded");
		if (rd == 0 && mode != 3 && (got.len != n || memcmp(got.ptr, body, n)))
			fuzz_fail("gz: inflated %zu bytes differ from the %zu written", got.len, n);
	}
	input_max_stream = cap;
	pw = power_read(file.path, &pf);
	input_max_stream = saved;
	if (pw == 0) {
		if (rd)
			fuzz_fail("gz: power_read accepted a file input_read_all refused");
		fuzz_power_use(&pf);
		power_file_free(&pf);
	}
	fuzz_end();
	buf_release(&f);
	buf_release(&got);
	return 0;
}
