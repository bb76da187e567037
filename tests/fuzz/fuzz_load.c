/*
 * fuzz_load.c - load-generator results (load*.c): every format erg reads.
 *
 * Each input goes through load_parse() with format detection (what
 * session.c calls), then load_parse_multi_as() forced to each format in
 * turn, so one input exercises every parser and mutations of one
 * format's seeds reach the others.  Every result is then printed the
 * way pages print it: strings through the escapers, numbers through the
 * formatters and jx_real() (results.json).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "render/html.h"
#include "render/numfmt.h"
#include "base/jsonx.h"
#include "ingest/load.h"
#include "base/util.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

static void
str(const char *s)
{
	if (s)
		fuzz_escape(s, strlen(s));
}

static void
num(struct buf *b, double v)
{
	json_t *j = jx_real(v);

	numfmt_add(b, v, NF_FIXED(2));
	numfmt_add(b, v, NF_THOUS(0));
	numfmt_add(b, v, NF_SIG(4));
	numfmt_add(b, v, NF_REAL);
	if (!j)
		fuzz_fail("load: jx_real(%g) returned NULL", v);
	json_decref(j);
}

static void
use(const struct load_result *r)
{
	struct buf b = BUF_INIT;
	const double *d[] = {
		&r->rate, &r->connections, &r->threads, &r->duration_s,
		&r->time_taken_s, &r->requests, &r->responses, &r->errors,
		&r->bytes_read, &r->bytes_written, &r->rps_mean, &r->rps_sd,
		&r->rps_max, &r->lat_mean_us, &r->lat_sd_us, &r->lat_max_us,
		&r->lat_min_us, &r->throughput_bps, &r->timeouts, &r->aborted,
		&r->non_2xx_3xx, &r->failed,
	};
	size_t i;

	str(r->tool_version);
	str(r->url);
	str(r->client);
	str(r->command);
	html_printf(&b, "<td>%H</td>", load_tool_name(r->tool));
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		num(&b, *d[i]);
	for (i = 0; i < 6; i++)
		num(&b, r->status[i]);
	for (i = 0; i < PCT_N; i++)
		num(&b, r->lat_pct_us[i]);
	if (!fuzz_html_chars_ok(b.ptr, b.len))
		fuzz_fail("load: formatted numbers are not clean text");
	buf_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* load_parse() wants the whole file NUL-terminated, as input.c gives it. */
	char *text = xmalloc(size + 1);
	struct load_result r, *v;
	size_t n, i;
	int t;

	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_begin();
	load_result_init(&r);
	if (load_parse("fuzz/load.json", text, size, LOAD_UNKNOWN, &r) == 0) {
		if (load_detect(text, size) == LOAD_UNKNOWN)
			fuzz_fail("load: parsed, but load_detect() knows no format");
		use(&r);
	}
	load_result_free(&r);
	for (t = LOAD_UNKNOWN; t <= LOAD_JMETER_CSV; t++) {
		if (load_parse_multi_as("fuzz/load.txt", text, size, (enum load_tool)t, &v, &n) == 0) {
			if (!n || !v)
				fuzz_fail("load: success with %zu results", n);
			for (i = 0; i < n; i++)
				use(&v[i]);
			load_results_free(v, n);
		} else if (v || n) {
			fuzz_fail("load: failure left %zu results", n);
		}
	}
	fuzz_end();
	free(text);
	return 0;
}
