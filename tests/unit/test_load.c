/*
 * test_load.c - the load-generator parsers (gen/load*.c) against the real
 * samples in $SHARED/samples (default ../shared) and against malformed
 * variants written here.
 *
 * Every expected figure from a sample was read by hand from the file; the
 * comment above it quotes the line it comes from.  Every malformed variant
 * checks the exact "erg: PATH:LINE: error:" prefix of its diagnostic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#include "base/buf.h"
#include "ingest/load.h"
#include "base/util.h"

#include "load_harness.h"
}

/* Every run of a sample (load_parse_multi); the count must match. */
static struct load_result *
sample_multi(const char *rel, size_t want)
{
	struct buf b = BUF_INIT, path = BUF_INIT;
	struct load_result *v = NULL;
	size_t n = 0;
	int rc;

	if (!read_sample(rel, &b, &path)) {
		cap_begin();
		rc = load_parse_multi(path.ptr, b.ptr, b.len, &v, &n);
		cap_end();
		CHECK(rc == 0 && !captured[0] && n == want,
		      "%s parses into %zu runs without diagnostics (got %zu)",
		      rel, want, n);
		if (rc || captured[0])
			show_captured();
		if (n != want) {
			load_results_free(v, n);
			v = NULL;
		}
	}
	buf_release(&b);
	buf_release(&path);
	return v;
}

/* ---- inline documents ------------------------------------------------ */

static int
parse_str(const char *name, const char *text, enum load_tool force,
	  struct load_result *r)
{
	int rc;

	cap_begin();
	rc = load_parse(name, text, strlen(text), force, r);
	cap_end();
	return rc;
}

/* The text parses cleanly. */
static int
good(const char *name, const char *text, enum load_tool force,
     struct load_result *r)
{
	int rc = parse_str(name, text, force, r);

	CHECK(rc == 0 && !captured[0], "%s parses without diagnostics", name);
	if (rc || captured[0])
		show_captured();
	return rc;
}

/* The text is refused with "erg: NAME:LINE: error: ...MSG..." (LINE 0: no
 * line part). */
static void
bad(const char *name, const char *text, enum load_tool force, long line,
    const char *msg)
{
	struct load_result r;
	char want[256];
	int rc;

	if (line > 0)
		snprintf(want, sizeof(want), "erg: %s:%ld: error: ", name, line);
	else
		snprintf(want, sizeof(want), "erg: %s: error: ", name);
	rc = parse_str(name, text, force, &r);
	CHECK(rc == -1 && str_startswith(captured, want) &&
	      strstr(captured, msg) != NULL,
	      "%s is refused at line %ld with '%s'", name, line, msg);
	if (rc != -1 || !str_startswith(captured, want) ||
	    !strstr(captured, msg))
		show_captured();
	if (!rc)
		load_result_free(&r);
}

/* text with the first `from` replaced by `to` (caller frees). */
static char *
subst(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	struct buf b = BUF_INIT;

	if (!p) {
		fprintf(stderr, "test bug: '%s' not in the template\n", from);
		exit(2);
	}
	buf_add(&b, text, (size_t)(p - text));
	buf_addstr(&b, to);
	buf_addstr(&b, p + strlen(from));
	return buf_detach(&b, NULL);
}

static void
bad_subst(const char *name, const char *text, const char *from,
	  const char *to, enum load_tool force, long line, const char *msg)
{
	char *t = subst(text, from, to);

	bad(name, t, force, line, msg);
	free(t);
}

/* ---- bombardier JSON samples ----------------------------------------- */

static void
test_bombardier_json_samples(void)
{
	struct load_result r;

	if (!sample("bombardier/gaplo917-lb_bc0_apache-event_c1000_JQ-PRETTY.json",
		    &r)) {
		CHECK(r.tool == LOAD_BOMBARDIER_JSON, "tool is bombardier JSON");
		/* "numberOfConnections": 1000, */
		EQ(r.connections, 1000);
		/* "testDurationSeconds": 120, */
		EQ(r.duration_s, 120);
		/* "url": "http://lb.c.tiny-projectsss.internal:8080/io", */
		CHECK_STR(r.url, "http://lb.c.tiny-projectsss.internal:8080/io",
			  "url");
		/* "client": "net/http.v1" */
		CHECK_STR(r.client, "net/http.v1", "client");
		/* an exact byte count: nothing rounded */
		CHECK(r.bytes_read_tol == 0, "bombardier bytesRead is exact");
		/* no "rate" in spec: closed loop */
		CHECK(r.mode == LOAD_CLOSED, "mode is closed");
		ISNAN(r.rate);
		ISNAN(r.threads);
		/* "timeTakenSeconds": 120.275754654, */
		EQ(r.time_taken_s, 120.275754654);
		/* "bytesRead": 262977632, / "bytesWritten": 136277154, */
		EQ(r.bytes_read, 262977632);
		EQ(r.bytes_written, 136277154);
		CHECK(r.bytes_kind == LOAD_BYTES_WIRE, "bytes are wire bytes");
		/* "req2xx": 1162743, ... "others": 2080, */
		EQ(r.status[2], 1162743);
		EQ(r.status[0], 2080);
		EQ(r.status[1], 0);
		EQ(r.status[5], 0);
		EQ(r.responses, 1162743);
		EQ(r.requests, 1162743 + 2080);
		/* "count": 2035 and "count": 45 in "errors" */
		EQ(r.errors, 2035 + 45);
		/* "mean": 103071.05807062532, "stddev": 192179.50149947157,
		 * "max": 14721319 (latency, µs) */
		EQ(r.lat_mean_us, 103071.05807062532);
		EQ(r.lat_sd_us, 192179.50149947157);
		EQ(r.lat_max_us, 14721319);
		ISNAN(r.lat_min_us);
		/* "50": 56835, "75": 161525, "90": 240740, "95": 261594,
		 * "99": 281602 */
		EQ(r.lat_pct_us[PCT_50], 56835);
		EQ(r.lat_pct_us[PCT_75], 161525);
		EQ(r.lat_pct_us[PCT_90], 240740);
		EQ(r.lat_pct_us[PCT_95], 261594);
		EQ(r.lat_pct_us[PCT_99], 281602);
		ISNAN(r.lat_pct_us[PCT_999]);
		/* rps: "mean": 9701.570696818802, "stddev": 1863.8848653571663,
		 * "max": 12321.531717044356, */
		EQ(r.rps_mean, 9701.570696818802);
		EQ(r.rps_sd, 1863.8848653571663);
		EQ(r.rps_max, 12321.531717044356);
		load_result_free(&r);
	}

	if (!sample("bombardier/gaplo917-wfb_expressjs_n1-standard-1-0ms_c1000_JQ-PRETTY.json",
		    &r)) {
		/* "client": "net/http.v2" */
		CHECK_STR(r.client, "net/http.v2", "client");
		/* "url": "http://10.148.0.5:8080", */
		CHECK_STR(r.url, "http://10.148.0.5:8080", "url");
		/* "testDurationSeconds": 30, "timeTakenSeconds": 30.109721636, */
		EQ(r.duration_s, 30);
		EQ(r.time_taken_s, 30.109721636);
		/* "req2xx": 332238, "others": 0, no "errors" array */
		EQ(r.requests, 332238);
		EQ(r.errors, 0);
		EQ(r.status[0], 0);
		/* "90": 101147, then "99": 130098 - no "95" in this file */
		EQ(r.lat_pct_us[PCT_90], 101147);
		EQ(r.lat_pct_us[PCT_99], 130098);
		ISNAN(r.lat_pct_us[PCT_95]);
		/* "max": 598438, */
		EQ(r.lat_max_us, 598438);
		/* "mean": 11069.003959688447, (rps) */
		EQ(r.rps_mean, 11069.003959688447);
		load_result_free(&r);
	}
}

/* ---- bombardier text samples ----------------------------------------- */

static void
test_bombardier_text_sample(void)
{
	struct load_result r;

	if (sample("bombardier/gaplo917-wfb_expressjs_n1-highcpu-4-0ms_c3000_plaintext_-l_with-errors.txt",
		   &r))
		return;
	CHECK(r.tool == LOAD_BOMBARDIER_TEXT, "tool is bombardier text");
	/* "Bombarding http://10.148.0.2:8080/ with 500000 request(s) using
	 *  3000 connection(s)" */
	CHECK_STR(r.url, "http://10.148.0.2:8080/", "url");
	EQ(r.connections, 3000);
	ISNAN(r.duration_s);	/* a counted test, not a timed one */
	CHECK(r.mode == LOAD_MODE_UNKNOWN, "mode unknown without a command");
	CHECK(r.command == NULL, "no command line");
	/* "  Reqs/sec     31156.14    7191.30  158881.47" */
	EQ(r.rps_mean, 31156.14);
	EQ(r.rps_sd, 7191.30);
	EQ(r.rps_max, 158881.47);
	/* "  Latency       92.61ms   674.57ms     14.48s" */
	EQ(r.lat_mean_us, 92610);
	EQ(r.lat_sd_us, 674570);
	EQ(r.lat_max_us, 14480000);
	/* "     50%    40.72ms" ... "     99%    98.03ms" (no 95%) */
	EQ(r.lat_pct_us[PCT_50], 40720);
	EQ(r.lat_pct_us[PCT_75], 43110);
	EQ(r.lat_pct_us[PCT_90], 49810);
	ISNAN(r.lat_pct_us[PCT_95]);
	EQ(r.lat_pct_us[PCT_99], 98030);
	/* "    1xx - 0, 2xx - 498602, 3xx - 0, 4xx - 0, 5xx - 0" */
	EQ(r.status[2], 498602);
	EQ(r.status[4], 0);
	/* "    others - 1398" */
	EQ(r.status[0], 1398);
	EQ(r.responses, 498602);
	EQ(r.requests, 500000);
	/* "    the server closed connection before ... header before closing
	 *  the connection - 1398" */
	EQ(r.errors, 1398);
	/* "  Throughput:     7.88MB/s" */
	EQ(r.throughput_bps, 7.88 * 1024 * 1024);
	ISNAN(r.bytes_read);
	ISNAN(r.time_taken_s);
	load_result_free(&r);
}

static void
check_bun_common(const struct load_result *r, const char *url,
		 double conns)
{
	CHECK(r->tool == LOAD_BOMBARDIER_TEXT, "tool is bombardier text");
	CHECK_STR(r->url, url, "url");
	EQ(r->connections, conns);
	/* "bombardier --fasthttp -c 500 -d 10s ..." */
	EQ(r->duration_s, 10);
	CHECK_STR(r->client, "fasthttp", "client");
	CHECK(r->mode == LOAD_CLOSED, "no -r: closed loop");
	CHECK(r->command && str_startswith(r->command,
					   "bombardier --fasthttp -c "),
	      "command line kept: %s", r->command ? r->command : "(null)");
}

static void
test_bun_results(void)
{
	static const char *const head = "bun-http-framework-benchmark/HEAD-e90bfba/results/";
	struct load_result *v, r;
	struct buf rel = BUF_INIT, b = BUF_INIT, path = BUF_INIT;

	buf_addf(&rel, "%sbun/elysia.txt", head);
	if ((v = sample_multi(rel.ptr, 4))) {
		/* "bombardier --fasthttp -c 500 -d 10s http://127.0.0.1:3000/" */
		check_bun_common(&v[0], "http://127.0.0.1:3000/", 500);
		CHECK_STR(v[0].command,
			  "bombardier --fasthttp -c 500 -d 10s http://127.0.0.1:3000/",
			  "command of run 1");
		/* "  Reqs/sec    402997.65   47126.67  448409.79" */
		EQ(v[0].rps_mean, 402997.65);
		EQ(v[0].rps_sd, 47126.67);
		EQ(v[0].rps_max, 448409.79);
		/* "  Latency        1.24ms   495.38us    86.85ms" */
		EQ(v[0].lat_mean_us, 1240);
		EQ(v[0].lat_sd_us, 495.38);
		EQ(v[0].lat_max_us, 86850);
		/* "    1xx - 0, 2xx - 4025543, 3xx - 0, 4xx - 0, 5xx - 0" */
		EQ(v[0].status[2], 4025543);
		EQ(v[0].requests, 4025543);
		EQ(v[0].errors, 0);
		/* "  Throughput:    78.69MB/s" */
		EQ(v[0].throughput_bps, 78.69 * 1024 * 1024);
		/* no -l: no percentiles */
		ISNAN(v[0].lat_pct_us[PCT_50]);
		/* "Bombarding http://127.0.0.1:3000/id/1?name=bun for 10s ..." */
		check_bun_common(&v[1], "http://127.0.0.1:3000/id/1?name=bun", 500);
		/* "  Reqs/sec    224698.15   32729.35  264189.61" */
		EQ(v[1].rps_mean, 224698.15);
		/* "... -f ./scripts/body.json http://127.0.0.1:3000/json" */
		check_bun_common(&v[2], "http://127.0.0.1:3000/json", 500);
		/* "    1xx - 0, 2xx - 2087220, ..." */
		EQ(v[2].status[2], 2087220);
		/* "bombardier --fasthttp -c 10 -d 10s -H Cache-Control:no-store
		 *  -H If-None-Match:"benchmark-force-full-response"
		 *  http://127.0.0.1:3000/video" */
		check_bun_common(&v[3], "http://127.0.0.1:3000/video", 10);
		/* "  Reqs/sec      1647.74     505.21    2604.97" */
		EQ(v[3].rps_mean, 1647.74);
		/* "  Latency        6.07ms     2.52ms    49.20ms" */
		EQ(v[3].lat_max_us, 49200);
		/* "    1xx - 0, 2xx - 16475, ..." */
		EQ(v[3].status[2], 16475);
		/* "  Throughput:    21.70GB/s" */
		EQ(v[3].throughput_bps, 21.70 * 1024 * 1024 * 1024);
		load_results_free(v, 4);
	}

	buf_reset(&rel);
	buf_addf(&rel, "%sbun/bun.txt", head);
	if ((v = sample_multi(rel.ptr, 4))) {
		check_bun_common(&v[0], "http://127.0.0.1:3000/", 500);
		/* "  Reqs/sec    229744.39   35671.96  261999.90" */
		EQ(v[0].rps_mean, 229744.39);
		EQ(v[0].rps_max, 261999.90);
		/* "  Latency        2.18ms   735.90us    88.82ms" */
		EQ(v[0].lat_mean_us, 2180);
		EQ(v[0].lat_sd_us, 735.90);
		/* "    1xx - 0, 2xx - 2287804, ..." */
		EQ(v[0].requests, 2287804);
		/* "  Throughput:    39.05MB/s" */
		EQ(v[0].throughput_bps, 39.05 * 1024 * 1024);
		/* video: "  Reqs/sec      1557.25     449.20    2527.38" */
		EQ(v[3].rps_mean, 1557.25);
		/* "    1xx - 0, 2xx - 15571, ..." */
		EQ(v[3].status[2], 15571);
		EQ(v[3].connections, 10);
		load_results_free(v, 4);
	}

	buf_reset(&rel);
	buf_addf(&rel, "%sdeno/deno.txt", head);
	if ((v = sample_multi(rel.ptr, 4))) {
		check_bun_common(&v[1], "http://127.0.0.1:3000/id/1?name=bun", 500);
		/* "  Reqs/sec    201701.58   32487.70  227213.68" */
		EQ(v[1].rps_mean, 201701.58);
		EQ(v[1].rps_sd, 32487.70);
		/* "  Latency       23.62ms     2.37ms    60.54ms" (video) */
		EQ(v[3].lat_mean_us, 23620);
		EQ(v[3].lat_sd_us, 2370);
		/* "    1xx - 0, 2xx - 4237, ..." */
		EQ(v[3].requests, 4237);
		/* "  Throughput:     5.58GB/s" */
		EQ(v[3].throughput_bps, 5.58 * 1024 * 1024 * 1024);
		load_results_free(v, 4);
	}

	buf_reset(&rel);
	buf_addf(&rel, "%snode/express.txt", head);
	if ((v = sample_multi(rel.ptr, 4))) {
		/* "  Latency        7.41ms    22.74ms      1.86s" */
		EQ(v[0].lat_max_us, 1860000);
		EQ(v[0].lat_sd_us, 22740);
		/* "  Reqs/sec     44651.29    5220.44   48351.57" (body) */
		EQ(v[2].rps_mean, 44651.29);
		/* "  Latency       11.21ms    26.72ms      2.00s" */
		EQ(v[2].lat_max_us, 2000000);
		/* "    1xx - 0, 2xx - 444980, ..." / "    others - 9" /
		 * "       timeout - 9" */
		EQ(v[2].status[2], 444980);
		EQ(v[2].status[0], 9);
		EQ(v[2].errors, 9);
		EQ(v[2].responses, 444980);
		EQ(v[2].requests, 444989);
		/* "  Throughput:    14.03MB/s" */
		EQ(v[2].throughput_bps, 14.03 * 1024 * 1024);
		/* video: "  Reqs/sec       345.04     158.74     587.58" */
		EQ(v[3].rps_mean, 345.04);
		load_results_free(v, 4);
	}

	/* load_parse wants exactly one run: a results file holds four. */
	buf_reset(&rel);
	buf_addf(&rel, "%sbun/elysia.txt", head);
	if (!read_sample(rel.ptr, &b, &path)) {
		char want[1024];
		int rc;

		cap_begin();
		rc = load_parse(path.ptr, b.ptr, b.len, LOAD_UNKNOWN, &r);
		cap_end();
		snprintf(want, sizeof(want), "erg: %s: error: holds 4 "
			 "bombardier-text runs where one was expected", path.ptr);
		CHECK(rc == -1 && str_startswith(captured, want),
		      "load_parse refuses a file of 4 runs");
		if (rc != -1 || !str_startswith(captured, want))
			show_captured();
		CHECK(load_detect(b.ptr, b.len) == LOAD_BOMBARDIER_TEXT,
		      "results .txt detected as bombardier text");
	}

	/* The pre-2026 layout: command line + "Reqs/sec    N,N". */
	if ((v = sample_multi("bun-http-framework-benchmark/old-bd3a322/results/bun/elysia.txt",
			      3))) {
		/* "Reqs/sec    130011.67,130011.67" */
		EQ(v[0].rps_mean, 130011.67);
		/* "bombardier --fasthttp -c 500 -d 10s http://127.0.0.1:3000/" */
		check_bun_common(&v[0], "http://127.0.0.1:3000/", 500);
		/* "Reqs/sec    100325.05,100325.05" */
		EQ(v[1].rps_mean, 100325.05);
		/* "... -H 'Content-Type:application/json' -f ./scripts/body.json
		 *  http://127.0.0.1:3000/json" / "Reqs/sec     85084.84,85084.84" */
		CHECK_STR(v[2].url, "http://127.0.0.1:3000/json", "url");
		EQ(v[2].rps_mean, 85084.84);
		/* nothing else is in these files */
		ISNAN(v[2].requests);
		ISNAN(v[2].lat_mean_us);
		load_results_free(v, 3);
	}
	buf_release(&rel);
	buf_release(&b);
	buf_release(&path);
}

/* ---- oha samples ------------------------------------------------------ */

static void
test_oha_samples(void)
{
	struct load_result r;

	if (!sample("oha/oha1.15.0_-c8_-q200_-z3s_latency-correction_IronTraffic.json",
		    &r)) {
		CHECK(r.tool == LOAD_OHA_JSON, "tool is oha");
		/* "total": 3.001554375, */
		EQ(r.time_taken_s, 3.001554375);
		/* "slowest": 0.000538, "fastest": 0.000148542,
		 * "average": 0.0003123693716666671, */
		EQ(r.lat_max_us, 538);
		EQ(r.lat_min_us, 148.542);
		EQ(r.lat_mean_us, 312.3693716666671);
		ISNAN(r.lat_sd_us);
		/* "totalData": 7800, - body bytes */
		EQ(r.bytes_read, 7800);
		CHECK(r.bytes_kind == LOAD_BYTES_BODY, "oha counts body bytes");
		ISNAN(r.bytes_written);
		/* latencyPercentiles "p50": 0.000310625, "p75": 0.000347625,
		 * "p90": 0.000384125, "p95": 0.000410542, "p99": 0.000459709,
		 * "p99.9": 0.000538, */
		EQ(r.lat_pct_us[PCT_50], 310.625);
		EQ(r.lat_pct_us[PCT_75], 347.625);
		EQ(r.lat_pct_us[PCT_90], 384.125);
		EQ(r.lat_pct_us[PCT_95], 410.542);
		EQ(r.lat_pct_us[PCT_99], 459.709);
		EQ(r.lat_pct_us[PCT_999], 538);
		/* rps "mean": 197.34224738748, "stddev": 16.232897749688306,
		 * "max": 283.45342073714045, */
		EQ(r.rps_mean, 197.34224738748);
		EQ(r.rps_sd, 16.232897749688306);
		EQ(r.rps_max, 283.45342073714045);
		/* "200": 600 / "aborted due to deadline": 1 */
		EQ(r.status[2], 600);
		EQ(r.status[0], 0);
		EQ(r.responses, 600);
		EQ(r.errors, 0);
		EQ(r.aborted, 1);
		EQ(r.requests, 600);
		/* not in oha's output */
		ISNAN(r.connections);
		CHECK(r.url == NULL, "no url in oha output");
		CHECK(r.mode == LOAD_MODE_UNKNOWN, "mode unknown");
		load_result_free(&r);
	}

	if (!sample("oha/oha1.15.0_-c1_-n1_EXTRACTED-from-loadgen_oha.rs.json",
		    &r)) {
		/* "total": 0.005214, "average": 0.002772958, */
		EQ(r.time_taken_s, 0.005214);
		EQ(r.lat_mean_us, 2772.958);
		/* "totalData": 13, */
		EQ(r.bytes_read, 13);
		/* "mean": 203.22795083428122, "stddev": null, */
		EQ(r.rps_mean, 203.22795083428122);
		ISNAN(r.rps_sd);
		/* "200": 1 / "errorDistribution": {} */
		EQ(r.requests, 1);
		EQ(r.aborted, 0);
		/* "p99.9": 0.002772958, */
		EQ(r.lat_pct_us[PCT_999], 2772.958);
		load_result_free(&r);
	}
}

/* ---- autocannon samples ----------------------------------------------- */

static void
test_autocannon_samples(void)
{
	struct load_result r;
	struct buf b = BUF_INIT, path = BUF_INIT;

	if (!sample("autocannon/autocannon9.0.0_-j_c10_d3_fast.json", &r)) {
		CHECK(r.tool == LOAD_AUTOCANNON_JSON, "tool is autocannon");
		/* "url":"http://127.0.0.1:3999/","connections":10,"sampleInt":1000 */
		CHECK_STR(r.url, "http://127.0.0.1:3999/", "url");
		EQ(r.connections, 10);
		/* "start":"2026-12-02T07:57:52.307Z",
		 * "finish":"2026-12-02T07:57:55.317Z" */
		EQ(r.time_taken_s, 3.010);
		/* "errors":0,"timeouts":0, ... "2xx":112632 */
		EQ(r.errors, 0);
		EQ(r.timeouts, 0);
		EQ(r.status[2], 112632);
		/* "total":112632 (requests) */
		EQ(r.responses, 112632);
		EQ(r.requests, 112632);
		/* latency "mean":0.04,"stddev":0.4,"min":1,"max":35 (ms) */
		EQ(r.lat_mean_us, 40);
		EQ(r.lat_sd_us, 400);
		EQ(r.lat_min_us, 1000);
		EQ(r.lat_max_us, 35000);
		/* "p50":0, ... "p99":1,"p99_9":4 - no p95 */
		EQ(r.lat_pct_us[PCT_50], 0);
		EQ(r.lat_pct_us[PCT_99], 1000);
		EQ(r.lat_pct_us[PCT_999], 4000);
		ISNAN(r.lat_pct_us[PCT_95]);
		/* requests "mean":37544,"stddev":9198.2, ... "max":44123 */
		EQ(r.rps_mean, 37544);
		EQ(r.rps_sd, 9198.2);
		EQ(r.rps_max, 44123);
		/* throughput "total":19034808 */
		EQ(r.bytes_read, 19034808);
		CHECK(r.bytes_kind == LOAD_BYTES_WIRE, "socket bytes");
		ISNAN(r.duration_s);
		load_result_free(&r);
	}

	if (!sample("autocannon/autocannon9.0.0_-j_c10_d3_mixed-200-404-500.json",
		    &r)) {
		/* "2xx":96580,"3xx":0,"4xx":1273,"5xx":1998 */
		EQ(r.status[2], 96580);
		EQ(r.status[4], 1273);
		EQ(r.status[5], 1998);
		EQ(r.status[0], 0);
		/* "total":99851 */
		EQ(r.requests, 99851);
		/* "p75":2,"p90":2 */
		EQ(r.lat_pct_us[PCT_75], 2000);
		EQ(r.lat_pct_us[PCT_90], 2000);
		/* throughput "total":16923690 */
		EQ(r.bytes_read, 16923690);
		load_result_free(&r);
	}

	if (!sample("autocannon/autocannon9.0.0_-j_c50_d3_delayed1-8ms.json",
		    &r)) {
		/* "connections":50 */
		EQ(r.connections, 50);
		/* "start":"2026-12-02T07:58:11.757Z",
		 * "finish":"2026-12-02T07:58:14.791Z" ("duration":3.03) */
		EQ(r.time_taken_s, 3.034);
		/* "mean":5.14,"stddev":3.32,"min":1,"max":58 */
		EQ(r.lat_mean_us, 5140);
		EQ(r.lat_max_us, 58000);
		/* "p50":5,"p75":7,"p90":8, ... "p99":14,"p99_9":46 */
		EQ(r.lat_pct_us[PCT_50], 5000);
		EQ(r.lat_pct_us[PCT_99], 14000);
		EQ(r.lat_pct_us[PCT_999], 46000);
		/* requests "mean":8876.67 */
		EQ(r.rps_mean, 8876.67);
		load_result_free(&r);
	}

	if (!sample("autocannon/autocannon9.0.0_-j_c5_d2_connection-refused.json",
		    &r)) {
		/* "errors":27845, ... "2xx":0 */
		EQ(r.errors, 27845);
		EQ(r.responses, 0);
		EQ(r.requests, 27845);
		EQ(r.status[0], 27845);
		EQ(r.status[2], 0);
		/* "totalCount":0: latencies are not measured, not zero */
		ISNAN(r.lat_mean_us);
		ISNAN(r.lat_max_us);
		ISNAN(r.lat_pct_us[PCT_50]);
		/* requests "mean":0 */
		EQ(r.rps_mean, 0);
		/* throughput "total":0 */
		EQ(r.bytes_read, 0);
		load_result_free(&r);
	}

	/* the table output (stderr) is recognised and refused */
	if (!read_sample("autocannon/autocannon9.0.0_text_-l_stderr.txt", &b,
			 &path)) {
		char want[1024];
		int rc;

		snprintf(want, sizeof(want), "erg: %s: error: autocannon text "
			 "output is not supported; use -j", path.ptr);
		cap_begin();
		rc = load_parse(path.ptr, b.ptr, b.len, LOAD_UNKNOWN, &r);
		cap_end();
		CHECK(rc == -1 && str_startswith(captured, want),
		      "autocannon text output refused with a hint");
		if (rc != -1 || !str_startswith(captured, want))
			show_captured();
	}
	buf_release(&b);
	buf_release(&path);
}

/* ---- wrk samples ------------------------------------------------------ */

static void
test_wrk_samples(void)
{
	struct load_result r;
	struct buf b = BUF_INIT, path = BUF_INIT, crlf = BUF_INIT;

	if (!sample("wrk/wrk4.1.0-debian_t2_c50_d3_--latency.txt", &r)) {
		CHECK(r.tool == LOAD_WRK_TEXT, "tool is wrk");
		CHECK(r.mode == LOAD_CLOSED, "wrk is closed loop");
		/* "Running 3s test @ http://127.0.0.1:3997/" */
		CHECK_STR(r.url, "http://127.0.0.1:3997/", "url");
		EQ(r.duration_s, 3);
		/* "  2 threads and 50 connections" */
		EQ(r.threads, 2);
		EQ(r.connections, 50);
		/* "    Latency     5.73ms    3.24ms  47.71ms   75.53%" */
		EQ(r.lat_mean_us, 5730);
		EQ(r.lat_sd_us, 3240);
		EQ(r.lat_max_us, 47710);
		/* "     50%    5.63ms" "     75%    7.60ms" "     90%    8.89ms"
		 * "     99%   14.56ms" */
		EQ(r.lat_pct_us[PCT_50], 5630);
		EQ(r.lat_pct_us[PCT_75], 7600);
		EQ(r.lat_pct_us[PCT_90], 8890);
		ISNAN(r.lat_pct_us[PCT_95]);
		EQ(r.lat_pct_us[PCT_99], 14560);
		/* "  26695 requests in 3.01s, 4.30MB read" */
		EQ(r.responses, 26695);
		EQ(r.requests, 26695);
		EQ(r.time_taken_s, 3.01);
		EQ(r.bytes_read, 4.30 * 1024 * 1024);
		/* no "Socket errors" / "Non-2xx" lines: none */
		EQ(r.errors, 0);
		EQ(r.non_2xx_3xx, 0);
		/* "Requests/sec:   8881.45" - not the per-thread Req/Sec row */
		EQ(r.rps_mean, 8881.45);
		ISNAN(r.rps_sd);
		ISNAN(r.rps_max);
		/* "Transfer/sec:      1.43MB" */
		EQ(r.throughput_bps, 1.43 * 1024 * 1024);
		/* wrk prints no status classes */
		ISNAN(r.status[2]);
		ISNAN(r.status[0]);
		load_result_free(&r);
	}

	if (!sample("wrk/wrk4.1.0-debian_t2_c20_d3_errors-non2xx.txt", &r)) {
		/* "  2 threads and 20 connections" */
		EQ(r.connections, 20);
		/* "    Latency     1.21ms    3.29ms  67.15ms   97.13%" */
		EQ(r.lat_mean_us, 1210);
		EQ(r.lat_sd_us, 3290);
		EQ(r.lat_max_us, 67150);
		/* no --latency */
		ISNAN(r.lat_pct_us[PCT_50]);
		/* "  76345 requests in 3.01s, 12.34MB read" */
		EQ(r.responses, 76345);
		EQ(r.bytes_read, 12.34 * 1024 * 1024);
		/* printed to 0.01 MiB: the true count is within 0.005 MiB */
		EQ(r.bytes_read_tol, 0.005 * 1024 * 1024);
		/* "  Socket errors: connect 0, read 75, write 0, timeout 0" */
		EQ(r.errors, 75);
		EQ(r.timeouts, 0);
		EQ(r.requests, 76345 + 75);
		/* "  Non-2xx or 3xx responses: 2501" */
		EQ(r.non_2xx_3xx, 2501);
		ISNAN(r.status[4]);
		/* "Requests/sec:  25378.91" / "Transfer/sec:      4.10MB" */
		EQ(r.rps_mean, 25378.91);
		EQ(r.throughput_bps, 4.10 * 1024 * 1024);
		load_result_free(&r);
	}

	/* The same bytes with CRLF line ends read the same. */
	if (!read_sample("wrk/wrk4.1.0-debian_t2_c50_d3_--latency.txt", &b,
			 &path)) {
		size_t i;

		for (i = 0; i < b.len; i++) {
			if (b.ptr[i] == '\n')
				buf_addch(&crlf, '\r');
			buf_addch(&crlf, b.ptr[i]);
		}
		if (!good("crlf.txt", crlf.ptr, LOAD_UNKNOWN, &r)) {
			/* "Transfer/sec:      1.43MB" (last line) */
			EQ(r.throughput_bps, 1.43 * 1024 * 1024);
			CHECK_STR(r.url, "http://127.0.0.1:3997/", "url (CRLF)");
			load_result_free(&r);
		}
	}
	buf_release(&b);
	buf_release(&path);
	buf_release(&crlf);
}

/* ---- inline bombardier JSON ------------------------------------------ */

/* bombardier's own one-line output after its intro and progress bar (-p
 * i,p,r), with Go number and string forms: exponents, a \x01 escape in a
 * header, a \U escape, and -r. */
static const char bmb_raw[] =
	"Bombarding http://127.0.0.1:8080/x for 10s using 125 connection(s)\n"
	"\r[------------] 0s\r[============] 10s\n"
	"Done!\n"
	"{\"spec\":{\"numberOfConnections\":125,\"testType\":\"timed\","
	"\"testDurationSeconds\":10,\"method\":\"GET\","
	"\"url\":\"http://127.0.0.1:8080/\\x41\\U0001F600\","
	"\"headers\":[{\"key\":\"X-A\",\"value\":\"a\\x01b\\a\\v\"}],"
	"\"body\":\"\",\"stream\":false,\"timeoutSeconds\":2,"
	"\"client\":\"fasthttp\",\"rate\":5000},"
	"\"result\":{\"bytesRead\":1,\"bytesWritten\":2,"
	"\"timeTakenSeconds\":10.001,\"req1xx\":0,\"req2xx\":49990,"
	"\"req3xx\":0,\"req4xx\":0,\"req5xx\":0,\"others\":0,"
	"\"latency\":{\"mean\":1.4721319e+07,\"stddev\":0,\"max\":1e+06},"
	"\"rps\":{\"mean\":4999.5,\"stddev\":12.5,\"max\":5100,"
	"\"percentiles\":{\"50\":5000.000000,\"75\":5000.000000,"
	"\"90\":5050.000000,\"95\":5050.000000,\"99\":5100.000000}}}}";

/* The energy runner's JSON.stringify(x, null, '\t') rendering. */
static const char bmb_tabs[] =
	"{\n"						/* 1 */
	"\t\"spec\": {\n"				/* 2 */
	"\t\t\"numberOfConnections\": 500,\n"		/* 3 */
	"\t\t\"testType\": \"timed\",\n"		/* 4 */
	"\t\t\"testDurationSeconds\": 10,\n"		/* 5 */
	"\t\t\"method\": \"GET\",\n"			/* 6 */
	"\t\t\"url\": \"http://127.0.0.1:3000/\",\n"	/* 7 */
	"\t\t\"body\": \"\",\n"				/* 8 */
	"\t\t\"stream\": false,\n"			/* 9 */
	"\t\t\"timeoutSeconds\": 2,\n"			/* 10 */
	"\t\t\"client\": \"fasthttp\"\n"		/* 11 */
	"\t},\n"					/* 12 */
	"\t\"result\": {\n"				/* 13 */
	"\t\t\"bytesRead\": 1000,\n"			/* 14 */
	"\t\t\"bytesWritten\": 500,\n"			/* 15 */
	"\t\t\"timeTakenSeconds\": 10.002,\n"		/* 16 */
	"\t\t\"req1xx\": 0,\n"				/* 17 */
	"\t\t\"req2xx\": 40,\n"				/* 18 */
	"\t\t\"req3xx\": 0,\n"				/* 19 */
	"\t\t\"req4xx\": 0,\n"				/* 20 */
	"\t\t\"req5xx\": 0,\n"				/* 21 */
	"\t\t\"others\": 2,\n"				/* 22 */
	"\t\t\"errors\": [\n"				/* 23 */
	"\t\t\t{\n"					/* 24 */
	"\t\t\t\t\"description\": \"timeout\",\n"	/* 25 */
	"\t\t\t\t\"count\": 2\n"			/* 26 */
	"\t\t\t}\n"					/* 27 */
	"\t\t],\n"					/* 28 */
	"\t\t\"latency\": {\n"				/* 29 */
	"\t\t\t\"mean\": 1234.5,\n"			/* 30 */
	"\t\t\t\"stddev\": 10,\n"			/* 31 */
	"\t\t\t\"max\": 2000\n"				/* 32 */
	"\t\t},\n"					/* 33 */
	"\t\t\"rps\": {\n"				/* 34 */
	"\t\t\t\"mean\": 4,\n"				/* 35 */
	"\t\t\t\"stddev\": 1,\n"			/* 36 */
	"\t\t\t\"max\": 5,\n"				/* 37 */
	"\t\t\t\"percentiles\": {\"50\": 4}\n"		/* 38 */
	"\t\t}\n"					/* 39 */
	"\t}\n"						/* 40 */
	"}";						/* 41 */

static void
test_bombardier_json_inline(void)
{
	struct load_result r;
	char *t;

	if (!good("raw.json", bmb_raw, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_BOMBARDIER_JSON, "raw output detected");
		CHECK(r.mode == LOAD_RATE, "-r gives a fixed-rate run");
		EQ(r.rate, 5000);
		EQ(r.connections, 125);
		EQ(r.lat_mean_us, 14721319);	/* 1.4721319e+07 */
		EQ(r.lat_max_us, 1000000);	/* 1e+06 */
		/* \x41 is 'A'; \U0001F600 is U+1F600 */
		CHECK_STR(r.url, "http://127.0.0.1:8080/A\xf0\x9f\x98\x80",
			  "Go escapes in url");
		EQ(r.requests, 49990);
		EQ(r.errors, 0);
		ISNAN(r.lat_pct_us[PCT_50]);	/* no -l */
		load_result_free(&r);
	}
	/* A JSON error after the progress text is reported at its file line. */
	bad_subst("raw-nan.json", bmb_raw, "\"stddev\":0,", "\"stddev\":NaN,",
		  LOAD_UNKNOWN, 4, "invalid JSON");
	/* An escape neither JSON nor Go has. */
	bad_subst("raw-esc.json", bmb_raw, "a\\x01b", "a\\qb", LOAD_UNKNOWN, 4,
		  "invalid JSON");
	/* Forced as oha, it lacks oha's members. */
	bad("raw-as-oha.json", bmb_raw, LOAD_OHA_JSON, 0,
	    "oha output must be a JSON object");

	if (!good("tabs.json", bmb_tabs, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_BOMBARDIER_JSON, "tab-indented detected");
		CHECK(r.mode == LOAD_CLOSED, "no rate: closed");
		EQ(r.requests, 42);
		EQ(r.errors, 2);
		EQ(r.lat_mean_us, 1234.5);
		EQ(r.rps_mean, 4);
		load_result_free(&r);
	}
	bad("tabs-as-oha.json", bmb_tabs, LOAD_OHA_JSON, 1, "missing 'summary'");
	bad_subst("type.json", bmb_tabs, "\"req2xx\": 40", "\"req2xx\": \"40\"",
		  LOAD_UNKNOWN, 18,
		  "'result.req2xx' must be a whole number, not a string");
	bad_subst("negative.json", bmb_tabs, "\"others\": 2", "\"others\": -1",
		  LOAD_UNKNOWN, 22, "'result.others' must be a whole number from 0 to 2^53, not -1");
	bad_subst("fraction.json", bmb_tabs, "\"req4xx\": 0", "\"req4xx\": 0.5",
		  LOAD_UNKNOWN, 20, "'result.req4xx' must be a whole number");
	bad_subst("missing.json", bmb_tabs, "\t\t\"req2xx\": 40,\n", "",
		  LOAD_UNKNOWN, 13, "missing 'result.req2xx'");
	bad_subst("nodur.json", bmb_tabs, "\t\t\"testDurationSeconds\": 10,\n",
		  "", LOAD_UNKNOWN, 2, "missing 'spec.testDurationSeconds'");
	bad_subst("mean.json", bmb_tabs, "\"mean\": 1234.5", "\"mean\": \"slow\"",
		  LOAD_UNKNOWN, 30,
		  "'result.latency.mean' must be a number, not a string");
	bad_subst("count.json", bmb_tabs, "\t\t\t\t\"count\": 2\n",
		  "\t\t\t\t\"n\": 2\n", LOAD_UNKNOWN, 24,
		  "missing 'result.errors[0].count'");
	bad_subst("spec.json", bmb_tabs, "\"spec\": {", "\"spec\": [],\n\t\"x\": {",
		  LOAD_UNKNOWN, 2, "'spec' must be an object, not an array");
	bad_subst("dup.json", bmb_tabs, "\t\t\"req3xx\": 0,\n",
		  "\t\t\"req3xx\": 0,\n\t\t\"req3xx\": 0,\n", LOAD_UNKNOWN, 20,
		  "duplicate object key");
	bad_subst("rps.json", bmb_tabs, "\"max\": 5,", "\"max\": -5,",
		  LOAD_UNKNOWN, 37, "'result.rps.max' must not be negative");
	/* Cut short in the middle of line 20. */
	t = subst(bmb_tabs, "\"req4xx\": 0,", "\"req4x");
	t[strstr(t, "\"req4x") - t + 6] = '\0';
	bad("truncated.json", t, LOAD_UNKNOWN, 20, "invalid JSON");
	free(t);
}

/* ---- inline oha ------------------------------------------------------ */

/* A run in which every request hit the -z deadline: nulls everywhere. */
static const char oha_null[] =
	"{\n"						/* 1 */
	"  \"summary\": {\n"				/* 2 */
	"    \"successRate\": null,\n"			/* 3 */
	"    \"total\": 3.0,\n"				/* 4 */
	"    \"slowest\": null,\n"			/* 5 */
	"    \"fastest\": null,\n"			/* 6 */
	"    \"average\": null,\n"			/* 7 */
	"    \"requestsPerSec\": 2.6,\n"		/* 8 */
	"    \"totalData\": 0,\n"			/* 9 */
	"    \"sizePerRequest\": null,\n"		/* 10 */
	"    \"sizePerSec\": 0.0\n"			/* 11 */
	"  },\n"					/* 12 */
	"  \"latencyPercentiles\": {\n"			/* 13 */
	"    \"p50\": null,\n"				/* 14 */
	"    \"p99.9\": null\n"				/* 15 */
	"  },\n"					/* 16 */
	"  \"rps\": {\n"				/* 17 */
	"    \"mean\": null,\n"				/* 18 */
	"    \"stddev\": null,\n"			/* 19 */
	"    \"max\": null,\n"				/* 20 */
	"    \"min\": null\n"				/* 21 */
	"  },\n"					/* 22 */
	"  \"statusCodeDistribution\": {},\n"		/* 23 */
	"  \"errorDistribution\": {\n"			/* 24 */
	"    \"aborted due to deadline\": 8\n"		/* 25 */
	"  }\n"						/* 26 */
	"}";						/* 27 */

static void
test_oha_inline(void)
{
	struct load_result r;
	char *t;

	if (!good("oha-null.json", oha_null, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_OHA_JSON, "oha detected");
		EQ(r.requests, 0);
		EQ(r.aborted, 8);
		EQ(r.errors, 0);
		ISNAN(r.lat_mean_us);
		ISNAN(r.lat_pct_us[PCT_50]);
		ISNAN(r.rps_mean);
		EQ(r.time_taken_s, 3);
		load_result_free(&r);
	}
	t = subst(oha_null, "\"statusCodeDistribution\": {}",
		  "\"statusCodeDistribution\": {\"200\": 3, \"503\": 2, \"999\": 1}");
	{
		char *t2 = subst(t, "\"aborted due to deadline\": 8",
				 "\"connection refused\": 4");

		if (!good("oha-mixed.json", t2, LOAD_UNKNOWN, &r)) {
			EQ(r.status[2], 3);
			EQ(r.status[5], 2);
			EQ(r.status[0], 1 + 4);	/* code 999 and 4 errors */
			EQ(r.responses, 6);
			EQ(r.errors, 4);
			EQ(r.requests, 10);
			EQ(r.aborted, 0);
			load_result_free(&r);
		}
		free(t2);
	}
	free(t);
	bad_subst("oha-code.json", oha_null, "\"statusCodeDistribution\": {}",
		  "\"statusCodeDistribution\": {\"2x0\": 5}", LOAD_UNKNOWN, 23,
		  "'statusCodeDistribution.2x0' is not an HTTP status code");
	bad_subst("oha-pct.json", oha_null, "\"p50\": null", "\"p50\": \"fast\"",
		  LOAD_UNKNOWN, 14,
		  "'latencyPercentiles.p50' must be a number, not a string");
	bad_subst("oha-neg.json", oha_null, "deadline\": 8", "deadline\": -2",
		  LOAD_UNKNOWN, 25, "must be a whole number from 0 to 2^53, not -2");
	bad_subst("oha-nodata.json", oha_null, "    \"totalData\": 0,\n", "",
		  LOAD_UNKNOWN, 2, "missing 'summary.totalData'");
	bad_subst("oha-total.json", oha_null, "\"total\": 3.0", "\"total\": -3.0",
		  LOAD_UNKNOWN, 4, "'summary.total' must not be negative");
	bad_subst("oha-rps.json", oha_null, "\"max\": null", "\"max\": true",
		  LOAD_UNKNOWN, 20, "'rps.max' must be a number, not true");
	bad_subst("oha-noerr.json", oha_null,
		  ",\n  \"errorDistribution\": {\n    \"aborted due to deadline\": 8\n  }",
		  "", LOAD_UNKNOWN, 1, "missing 'errorDistribution'");
}

/* ---- inline autocannon ----------------------------------------------- */

static const char ac_pretty[] =
	"{\n"							/* 1 */
	"  \"url\": \"http://127.0.0.1:3000/\",\n"		/* 2 */
	"  \"connections\": 4,\n"				/* 3 */
	"  \"sampleInt\": 500,\n"				/* 4 */
	"  \"duration\": 2.01,\n"				/* 5 */
	"  \"start\": \"2026-12-02T07:57:52.307Z\",\n"		/* 6 */
	"  \"finish\": \"2026-12-02T07:57:54.317Z\",\n"		/* 7 */
	"  \"errors\": 3,\n"					/* 8 */
	"  \"timeouts\": 1,\n"					/* 9 */
	"  \"1xx\": 0,\n"					/* 10 */
	"  \"2xx\": 90,\n"					/* 11 */
	"  \"3xx\": 0,\n"					/* 12 */
	"  \"4xx\": 10,\n"					/* 13 */
	"  \"5xx\": 0,\n"					/* 14 */
	"  \"latency\": {\"mean\": 2.5, \"stddev\": 1, \"min\": 1, \"max\": 9, "
	"\"p50\": 2, \"p75\": 3, \"p90\": 4, \"p99\": 8, \"p99_9\": 9, "
	"\"totalCount\": 100},\n"				/* 15 */
	"  \"requests\": {\"mean\": 25, \"stddev\": 2, \"max\": 30, "
	"\"total\": 100, \"sent\": 104},\n"			/* 16 */
	"  \"throughput\": {\"total\": 17000}\n"		/* 17 */
	"}\n";							/* 18 */

static void
test_autocannon_inline(void)
{
	struct load_result r;

	if (!good("ac.json", ac_pretty, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_AUTOCANNON_JSON, "autocannon detected");
		/* per 500 ms sample -> per second */
		EQ(r.rps_mean, 50);
		EQ(r.rps_sd, 4);
		EQ(r.rps_max, 60);
		EQ(r.time_taken_s, 2.010);
		EQ(r.responses, 100);
		EQ(r.errors, 3);
		EQ(r.timeouts, 1);
		EQ(r.requests, 103);
		EQ(r.status[0], 3);
		EQ(r.status[4], 10);
		EQ(r.lat_mean_us, 2500);
		EQ(r.lat_pct_us[PCT_999], 9000);
		load_result_free(&r);
	}
	/* autocannon before p99_9 wrote p999: the same percentile */
	{
		char *t = subst(ac_pretty, "\"p99_9\": 9", "\"p999\": 7");

		if (!good("ac-p999.json", t, LOAD_UNKNOWN, &r)) {
			EQ(r.lat_pct_us[PCT_999], 7000);
			EQ(r.lat_pct_us[PCT_99], 8000);
			load_result_free(&r);
		}
		free(t);
	}
	bad_subst("ac-both.json", ac_pretty, "\"p99_9\": 9",
		  "\"p99_9\": 9, \"p999\": 9", LOAD_UNKNOWN, 15,
		  "'latency.p999' and 'latency.p99_9' are the same percentile");
	bad_subst("ac-p999s.json", ac_pretty, "\"p99_9\": 9", "\"p999\": \"9\"",
		  LOAD_UNKNOWN, 15, "'latency.p999' must be a number, not a string");
	bad_subst("ac-neg.json", ac_pretty, "\"2xx\": 90", "\"2xx\": -3",
		  LOAD_UNKNOWN, 11, "'2xx' must be a whole number from 0 to 2^53, not -3");
	/* a count no run has, and no double holds exactly */
	bad_subst("ac-huge.json", ac_pretty, "\"total\": 100, \"sent\"", "\"total\": 1e300, \"sent\"",
		  LOAD_UNKNOWN, 16, "'requests.total' must be a whole number from 0 to 2^53, not 1e+300");
	bad_subst("ac-sample.json", ac_pretty, "\"sampleInt\": 500",
		  "\"sampleInt\": 0", LOAD_UNKNOWN, 4,
		  "'sampleInt' must be a positive number of milliseconds");
	bad_subst("ac-start.json", ac_pretty, "\"2026-12-02T07:57:52.307Z\"",
		  "\"yesterday\"", LOAD_UNKNOWN, 6,
		  "'start' is not an ISO-8601 UTC time");
	/* finish before start, and a duration of another run */
	bad_subst("ac-finish.json", ac_pretty, "\"2026-12-02T07:57:54.317Z\"",
		  "\"2026-12-02T07:57:50.317Z\"", LOAD_UNKNOWN, 7,
		  "'finish' is -1.99 s after 'start', but 'duration' is 2.01 s");
	bad_subst("ac-duration.json", ac_pretty, "\"duration\": 2.01", "\"duration\": 60",
		  LOAD_UNKNOWN, 7, "'finish' is 2.01 s after 'start', but 'duration' is 60 s");
	bad_subst("ac-nothr.json", ac_pretty,
		  ",\n  \"throughput\": {\"total\": 17000}", "", LOAD_UNKNOWN, 1,
		  "missing 'throughput'");
	bad_subst("ac-p99.json", ac_pretty, "\"p99\": 8", "\"p99\": \"8\"",
		  LOAD_UNKNOWN, 15, "'latency.p99' must be a number, not a string");
	bad_subst("ac-total.json", ac_pretty, "\"2xx\": 90", "\"2xx\": 200",
		  LOAD_UNKNOWN, 16,
		  "'requests.total' (100) is smaller than the 1xx-5xx counts");
	bad_subst("ac-conn.json", ac_pretty, "\"connections\": 4",
		  "\"connections\": null", LOAD_UNKNOWN, 3,
		  "'connections' must be a whole number, not null");
}

/* ---- inline bombardier text ------------------------------------------ */

static const char bt[] =
	"bombardier -c 8 -d 5s -r 1000 -l http://127.0.0.1:9/x\n"	/* 1 */
	"Bombarding http://127.0.0.1:9/x for 5s using 8 connection(s)\n" /* 2 */
	"\r[====]\r[========] 5s\n"					/* 3 */
	"Done!\n"							/* 4 */
	"Statistics        Avg      Stdev        Max\n"			/* 5 */
	"  Reqs/sec       999.50      10.25    1020.00\n"		/* 6 */
	"  Latency      750.00us   120.50us      1.50s\n"		/* 7 */
	"  Latency Distribution\n"					/* 8 */
	"     50%   700.00us\n"						/* 9 */
	"     75%   800.00us\n"						/* 10 */
	"     90%   900.00us\n"						/* 11 */
	"     95%   950.00us\n"						/* 12 */
	"     99%      1.20ms\n"					/* 13 */
	"  HTTP codes:\n"						/* 14 */
	"    1xx - 0, 2xx - 4990, 3xx - 2, 4xx - 3, 5xx - 1\n"		/* 15 */
	"    others - 4\n"						/* 16 */
	"  Errors:\n"							/* 17 */
	"       timeout - 3\n"						/* 18 */
	"    dial tcp: connection refused - bad - 1\n"			/* 19 */
	"  Throughput:   512.00/s\n";					/* 20 */

static void
test_bombardier_text_inline(void)
{
	struct load_result r, *v;
	size_t n;
	char *t;

	if (!good("bt.txt", bt, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_BOMBARDIER_TEXT, "bombardier text detected");
		CHECK(r.mode == LOAD_RATE, "-r in the command: fixed rate");
		EQ(r.rate, 1000);
		EQ(r.duration_s, 5);
		EQ(r.connections, 8);
		CHECK_STR(r.url, "http://127.0.0.1:9/x", "url");
		CHECK(r.client == NULL, "client not named");
		EQ(r.rps_mean, 999.5);
		EQ(r.lat_mean_us, 750);
		EQ(r.lat_sd_us, 120.5);
		EQ(r.lat_max_us, 1500000);
		EQ(r.lat_pct_us[PCT_95], 950);
		EQ(r.lat_pct_us[PCT_99], 1200);
		EQ(r.status[3], 2);
		EQ(r.status[5], 1);
		EQ(r.requests, 5000);
		EQ(r.errors, 4);
		EQ(r.throughput_bps, 512);
		load_result_free(&r);
	}
	bad_subst("bt-reqs.txt", bt, "999.50", "abc", LOAD_UNKNOWN, 6,
		  "expected a non-negative number in 'Reqs/sec', got 'abc'");
	bad_subst("bt-codes.txt", bt, "2xx - 4990", "2xx - -5", LOAD_UNKNOWN, 15,
		  "expected a count after '2xx - ', got '-5'");
	bad_subst("bt-sep.txt", bt, "2xx - 4990, 3xx", "2xx - 4990; 3xx",
		  LOAD_UNKNOWN, 15, "expected ', 3xx - ' in the HTTP codes");
	bad_subst("bt-others.txt", bt, "    others - 4\n", "", LOAD_UNKNOWN, 5,
		  "bombardier statistics without a 'others - N' line");
	bad_subst("bt-unit.txt", bt, "1.50s", "1.50xs", LOAD_UNKNOWN, 7,
		  "expected a time such as '1.24ms' in 'Latency', got '1.50xs'");
	bad_subst("bt-pct.txt", bt, "950.00us", "fast", LOAD_UNKNOWN, 12,
		  "expected a time such as '1.24ms' in a latency percentile");
	bad_subst("bt-err.txt", bt, "timeout - 3", "timeout - -3", LOAD_UNKNOWN,
		  18, "expected a non-negative error count, got '-3'");
	bad_subst("bt-cmd.txt", bt, "-r 1000", "-r lots", LOAD_UNKNOWN, 1,
		  "cannot read the value 'lots' of '-r' in the bombardier command");
	bad_subst("bt-intro.txt", bt, "using 8 connection(s)", "using eight",
		  LOAD_UNKNOWN, 2, "cannot read the bombardier intro line");
	bad_subst("bt-tput.txt", bt, "512.00/s", "512.00", LOAD_UNKNOWN, 20,
		  "expected a rate such as '78.69MB/s' after 'Throughput:'");
	/* Cut after line 16: no "Throughput:". */
	t = subst(bt, "  Errors:\n", "");
	t[strstr(t, "       timeout") - t] = '\0';
	bad("bt-cut.txt", t, LOAD_UNKNOWN, 16,
	    "truncated bombardier output: the statistics from line 5 end "
	    "without a 'Throughput:' line");
	free(t);
	/* A second statistics block before the first ended. */
	t = subst(bt, "  Throughput:   512.00/s\n", "");
	{
		struct buf two = BUF_INIT;

		buf_addstr(&two, t);
		buf_addstr(&two, bt);
		bad("bt-twice.txt", two.ptr, LOAD_UNKNOWN, 20,
		    "the statistics from line 5 end without");
		buf_release(&two);
	}
	free(t);
	/* Two complete runs: load_parse refuses, load_parse_multi reads both. */
	{
		struct buf two = BUF_INIT;
		char *second = subst(bt, "-r 1000 ", "");

		buf_addstr(&two, bt);
		buf_addstr(&two, "\n");
		buf_addstr(&two, second);
		free(second);
		bad("bt-two.txt", two.ptr, LOAD_UNKNOWN, 0,
		    "holds 2 bombardier-text runs where one was expected");
		cap_begin();
		n = 0;
		v = NULL;
		CHECK(!load_parse_multi("bt-two.txt", two.ptr, two.len, &v, &n) &&
		      n == 2 && !cap_end()[0], "load_parse_multi reads 2 runs");
		if (n == 2) {
			CHECK(v[0].mode == LOAD_RATE && v[1].mode == LOAD_CLOSED,
			      "each run has its own command line");
			EQ(v[1].rps_mean, 999.5);
		}
		load_results_free(v, n);
		buf_release(&two);
	}
	/* Statistics with nothing to compute. */
	t = subst(bt, "  Reqs/sec       999.50      10.25    1020.00\n"
		  "  Latency      750.00us   120.50us      1.50s\n",
		  "  There wasn't enough data to compute statistics for requests.\n"
		  "  There wasn't enough data to compute statistics for latencies.\n");
	if (!good("bt-empty.txt", t, LOAD_UNKNOWN, &r)) {
		ISNAN(r.rps_mean);
		ISNAN(r.lat_mean_us);
		load_result_free(&r);
	}
	free(t);
}

/* ---- inline wrk / wrk2 ----------------------------------------------- */

static const char wrk_text[] =
	"Running 10s test @ http://localhost:8080/index.html\n"		/* 1 */
	"  4 threads and 100 connections\n"				/* 2 */
	"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"		/* 3 */
	"    Latency     1.50ms  300.00us    1.20s   90.00%\n"		/* 4 */
	"    Req/Sec    10.00k     1.00k   12.00k    70.00%\n"		/* 5 */
	"  Latency Distribution\n"					/* 6 */
	"     50%    1.40ms\n"						/* 7 */
	"     75%    1.60ms\n"						/* 8 */
	"     90%    1.90ms\n"						/* 9 */
	"     99%    3.00ms\n"						/* 10 */
	"  400000 requests in 10.00s, 50.00MB read\n"			/* 11 */
	"  Socket errors: connect 1, read 2, write 3, timeout 4\n"	/* 12 */
	"  Non-2xx or 3xx responses: 5\n"				/* 13 */
	"Requests/sec:  40000.00\n"					/* 14 */
	"Transfer/sec:      5.00MB\n";					/* 15 */

/* wrk2 -U: calibration lines, the recorded and the uncorrected
 * HdrHistogram blocks with their spectra. */
static const char wrk2_text[] =
	"wrk2 -t2 -c100 -d30s -R2k -U http://127.0.0.1:8080/\n"		/* 1 */
	"Running 30s test @ http://127.0.0.1:8080/\n"			/* 2 */
	"  2 threads and 100 connections\n"				/* 3 */
	"  Thread calibration: mean lat.: 1.464ms, rate sampling interval: 10ms\n"
	"  Thread calibration: mean lat.: 1.502ms, rate sampling interval: 10ms\n"
	"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"		/* 6 */
	"    Latency     1.44ms  706.00us  12.92ms   68.59%\n"		/* 7 */
	"    Req/Sec     1.05k   212.65     3.44k    72.73%\n"		/* 8 */
	"  Latency Distribution (HdrHistogram - Recorded Latency)\n"	/* 9 */
	" 50.000%    1.37ms\n"
	" 75.000%    1.85ms\n"
	" 90.000%    2.42ms\n"
	" 99.000%    3.02ms\n"
	" 99.900%    5.72ms\n"
	" 99.990%    7.89ms\n"
	" 99.999%   12.68ms\n"
	"100.000%   12.93ms\n"
	"\n"
	"  Detailed Percentile spectrum:\n"
	"       Value   Percentile   TotalCount 1/(1-Percentile)\n"
	"\n"
	"       0.067     0.000000            1         1.00\n"
	"       1.371     0.500000        29680         2.00\n"
	"      12.928     1.000000        59990          inf\n"
	"#[Mean    =        1.437, StdDeviation   =        0.706]\n"
	"#[Max     =       12.920, Total count    =        59990]\n"
	"#[Buckets =           27, SubBuckets     =         2048]\n"
	"----------------------------------------------------------\n"
	"\n"
	"  Latency Distribution (HdrHistogram - Uncorrected Latency "
	"(measured without taking delayed starts into account))\n"
	" 50.000%    1.01ms\n"
	" 75.000%    1.22ms\n"
	" 90.000%    1.50ms\n"
	" 99.000%    2.00ms\n"
	" 99.900%    3.00ms\n"
	" 99.990%    4.00ms\n"
	" 99.999%    5.00ms\n"
	"100.000%    6.00ms\n"
	"\n"
	"  Detailed Percentile spectrum:\n"
	"       Value   Percentile   TotalCount 1/(1-Percentile)\n"
	"\n"
	"       0.050     0.000000            1         1.00\n"
	"#[Mean    =        0.999, StdDeviation   =        0.300]\n"
	"#[Max     =        6.000, Total count    =        59990]\n"
	"#[Buckets =           27, SubBuckets     =         2048]\n"
	"----------------------------------------------------------\n"
	"  59990 requests in 30.00s, 7.50MB read\n"
	"Requests/sec:   1999.67\n"
	"Transfer/sec:    256.00KB\n";

/* Nothing listening: wrk's statistics of nothing. */
static const char wrk_refused[] =
	"Running 3s test @ http://127.0.0.1:9/\n"
	"  2 threads and 10 connections\n"
	"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
	"    Latency     0.00us    0.00us   0.00us    -nan%\n"
	"    Req/Sec     0.00      0.00     0.00      -nan%\n"
	"  0 requests in 3.00s, 0.00B read\n"
	"  Socket errors: connect 20, read 0, write 0, timeout 0\n"
	"Requests/sec:      0.00\n"
	"Transfer/sec:       0.00B\n";

static void
test_wrk_inline(void)
{
	struct load_result r, *v = NULL;
	size_t n = 0;
	char *t;

	if (!good("wrk.txt", wrk_text, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_WRK_TEXT, "wrk detected");
		EQ(r.threads, 4);
		EQ(r.connections, 100);
		EQ(r.duration_s, 10);
		EQ(r.lat_max_us, 1200000);
		EQ(r.lat_sd_us, 300);
		EQ(r.lat_pct_us[PCT_99], 3000);
		EQ(r.responses, 400000);
		EQ(r.errors, 1 + 2 + 3);
		EQ(r.timeouts, 4);
		EQ(r.requests, 400006);
		EQ(r.non_2xx_3xx, 5);
		EQ(r.bytes_read, 50.0 * 1024 * 1024);
		EQ(r.time_taken_s, 10);
		EQ(r.rps_mean, 40000);
		EQ(r.throughput_bps, 5.0 * 1024 * 1024);
		load_result_free(&r);
	}
	bad_subst("wrk-rps.txt", wrk_text, "40000.00", "fast", LOAD_UNKNOWN, 14,
		  "expected a non-negative number, got 'fast'");
	bad_subst("wrk-threads.txt", wrk_text, "and 100 connections",
		  "and lots connections", LOAD_UNKNOWN, 2,
		  "expected a connection count, got 'lots'");
	bad_subst("wrk-unit.txt", wrk_text, "1.50ms", "1.50xs", LOAD_UNKNOWN, 4,
		  "expected a latency such as '5.73ms', got '1.50xs'");
	bad_subst("wrk-sock.txt", wrk_text, "read 2,", "read -2,", LOAD_UNKNOWN,
		  12, "expected a non-negative count, got '-2'");
	bad_subst("wrk-norps.txt", wrk_text, "Requests/sec:  40000.00\n", "",
		  LOAD_UNKNOWN, 14,
		  "the wrk run from line 1 has no 'Requests/sec:' line");
	bad_subst("wrk-bytes.txt", wrk_text, "50.00MB read", "50.00ZB read",
		  LOAD_UNKNOWN, 11, "expected a size such as '4.30MB', got '50.00ZB'");
	bad_subst("wrk-non2xx.txt", wrk_text, "responses: 5", "responses: five",
		  LOAD_UNKNOWN, 13, "expected a non-negative count, got 'five'");
	bad_subst("wrk-pct.txt", wrk_text, "     75%    1.60ms", "     75%    soon",
		  LOAD_UNKNOWN, 8, "expected a latency such as '5.63ms', got 'soon'");
	/* a count a double cannot hold exactly (2^53 and more) */
	bad_subst("wrk-huge.txt", wrk_text, "400000 requests in", "99999999999999999999999 requests in",
		  LOAD_UNKNOWN, 11, "expected a request count, got '99999999999999999999999'");
	bad_subst("wrk-non2xx-over.txt", wrk_text, "responses: 5", "responses: 400001",
		  LOAD_UNKNOWN, 13, "400001 non-2xx or 3xx responses, more than the 400000 "
		  "requests of the run");
	/* every response past --timeout: wrk's histogram is empty, its
	 * statistics 0.00us with a nan "+/- Stdev" (a real run, wrk 4.1):
	 * no latency, not 0 us */
	t = subst(wrk_text, "    Latency     1.50ms  300.00us    1.20s   90.00%\n",
		  "    Latency     0.00us    0.00us   0.00us    -nan%\n");
	{
		char *u = subst(t, "     99%    3.00ms\n", "     99%    0.00us\n");

		if (!good("wrk-empty-hist.txt", u, LOAD_UNKNOWN, &r)) {
			ISNAN(r.lat_mean_us);
			ISNAN(r.lat_sd_us);
			ISNAN(r.lat_max_us);
			ISNAN(r.lat_pct_us[PCT_99]);
			EQ(r.responses, 400000);
			load_result_free(&r);
		}
		free(u);
	}
	free(t);
	/* a byte order mark before the first line (a Windows editor) */
	t = xmalloc(sizeof(wrk_text) + 3);
	memcpy(t, "\xef\xbb\xbf", 3);
	memcpy(t + 3, wrk_text, sizeof(wrk_text));
	if (!good("wrk-bom.txt", t, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_WRK_TEXT, "wrk after a byte order mark detected");
		EQ(r.duration_s, 10);
		EQ(r.responses, 400000);
		load_result_free(&r);
	}
	free(t);
	t = subst(wrk_text, "  Socket errors", "");
	t[strstr(t, ": connect") - t] = '\0';
	bad("wrk-cut.txt", t, LOAD_UNKNOWN, 11,
	    "truncated wrk output: the run from line 1 ends without "
	    "'Transfer/sec:'");
	free(t);

	if (!good("wrk2.txt", wrk2_text, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_WRK2_TEXT, "wrk2 detected");
		CHECK(r.mode == LOAD_RATE, "wrk2 is fixed-rate");
		EQ(r.rate, 2000);	/* -R2k */
		CHECK_STR(r.command,
			  "wrk2 -t2 -c100 -d30s -R2k -U http://127.0.0.1:8080/",
			  "command");
		EQ(r.duration_s, 30);
		/* #[Mean = 1.437, StdDeviation = 0.706] of the recorded block */
		EQ(r.lat_mean_us, 1437);
		EQ(r.lat_sd_us, 706);
		EQ(r.lat_max_us, 12920);
		/* the recorded block, not the uncorrected one */
		EQ(r.lat_pct_us[PCT_50], 1370);
		EQ(r.lat_pct_us[PCT_75], 1850);
		EQ(r.lat_pct_us[PCT_99], 3020);
		EQ(r.lat_pct_us[PCT_999], 5720);
		ISNAN(r.lat_pct_us[PCT_95]);
		EQ(r.responses, 59990);
		EQ(r.rps_mean, 1999.67);
		EQ(r.throughput_bps, 256.0 * 1024);
		load_result_free(&r);
	}
	t = subst(wrk2_text, "wrk2 -t2 -c100 -d30s -R2k -U http://127.0.0.1:8080/\n",
		  "");
	if (!good("wrk2-nocmd.txt", t, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_WRK2_TEXT, "wrk2 told by its calibration");
		ISNAN(r.rate);
		load_result_free(&r);
	}
	free(t);
	bad_subst("wrk2-rate.txt", wrk2_text, "-R2k", "-Rfast", LOAD_UNKNOWN, 1,
		  "cannot read the rate 'fast' in the wrk2 command line");
	bad_subst("wrk2-mean.txt", wrk2_text, "StdDeviation   =        0.706",
		  "StdDeviation   =        x", LOAD_UNKNOWN, 25,
		  "expected '= SD' after 'StdDeviation'");

	if (!good("wrk-refused.txt", wrk_refused, LOAD_UNKNOWN, &r)) {
		EQ(r.responses, 0);
		EQ(r.errors, 20);
		EQ(r.requests, 20);
		ISNAN(r.lat_mean_us);
		EQ(r.rps_mean, 0);
		load_result_free(&r);
	}

	/* two runs in one log */
	{
		struct buf two = BUF_INIT;

		buf_addstr(&two, wrk_text);
		buf_addstr(&two, "$ echo done\n");
		buf_addstr(&two, wrk_refused);
		cap_begin();
		CHECK(!load_parse_multi("wrk-two.txt", two.ptr, two.len, &v, &n) &&
		      n == 2 && !cap_end()[0], "wrk log with 2 runs");
		if (n == 2) {
			EQ(v[0].connections, 100);
			EQ(v[1].connections, 10);
		}
		load_results_free(v, n);
		buf_release(&two);
	}
}

/* ---- detection and names --------------------------------------------- */

static void
test_detect(void)
{
	static const char *const names[] = { "bombardier", "bombardier-text",
					     "oha", "autocannon", "wrk", "wrk2" };
	size_t i;

	bad("unknown.txt", "hello world\n", LOAD_UNKNOWN, 0,
	    "cannot tell the load-generator format; name it with 'loadFormat' on its "
	    "routeComplete or 'erg.loadFormat' in meta.json (bombardier, "
	    "bombardier-text, oha, autocannon, wrk, wrk2, k6, k6-ndjson, ab, hey, "
	    "hey-csv, vegeta, jmeter)");
	bad("empty.txt", "", LOAD_UNKNOWN, 0, "empty file");
	bad("blank.txt", " \n\t\n", LOAD_UNKNOWN, 0, "empty file");
	bad("other.json", "{\"a\": 1}", LOAD_UNKNOWN, 0,
	    "cannot tell the load-generator format of this JSON; name it with "
	    "'loadFormat' on its routeComplete or 'erg.loadFormat' in meta.json");
	/* the end of file is on line 3, after the last newline */
	bad("broken.json", "{\n\"a\": [1,\n", LOAD_UNKNOWN, 3, "invalid JSON");
	bad("array.json", "[1]", LOAD_OHA_JSON, 0,
	    "oha output must be a JSON object");
	bad("scalar.json", "{\"summary\": 1}", LOAD_OHA_JSON, 1,
	    "'summary' must be an object, not an integer");
	bad("wrk-none.txt", "nothing here\n", LOAD_WRK_TEXT, 0,
	    "no wrk run found");
	bad("bt-none.txt", "nothing here\n", LOAD_BOMBARDIER_TEXT, 0,
	    "no bombardier statistics found");

	CHECK(load_detect(bmb_tabs, strlen(bmb_tabs)) == LOAD_BOMBARDIER_JSON,
	      "detect bombardier JSON");
	CHECK(load_detect(bmb_raw, strlen(bmb_raw)) == LOAD_BOMBARDIER_JSON,
	      "detect bombardier JSON after progress text");
	CHECK(load_detect(oha_null, strlen(oha_null)) == LOAD_OHA_JSON,
	      "detect oha");
	CHECK(load_detect(ac_pretty, strlen(ac_pretty)) == LOAD_AUTOCANNON_JSON,
	      "detect autocannon");
	CHECK(load_detect(wrk_text, strlen(wrk_text)) == LOAD_WRK_TEXT,
	      "detect wrk");
	CHECK(load_detect(wrk2_text, strlen(wrk2_text)) == LOAD_WRK2_TEXT,
	      "detect wrk2");
	CHECK(load_detect(bt, strlen(bt)) == LOAD_BOMBARDIER_TEXT,
	      "detect bombardier text");
	CHECK(load_detect("x", 1) == LOAD_UNKNOWN, "detect nothing");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK_STR(load_tool_name(load_tool_from_name(names[i])), names[i],
			  "tool name round trip");
	CHECK(load_tool_from_name("siege") == LOAD_UNKNOWN, "unknown tool name");
	CHECK(load_tool_from_name(NULL) == LOAD_UNKNOWN, "NULL tool name");
	EQ(load_pct_value[PCT_999], 99.9);
}

int
main(void)
{
	test_bombardier_json_samples();
	test_bombardier_text_sample();
	test_bun_results();
	test_oha_samples();
	test_autocannon_samples();
	test_wrk_samples();
	test_bombardier_json_inline();
	test_oha_inline();
	test_autocannon_inline();
	test_bombardier_text_inline();
	test_wrk_inline();
	test_detect();
	return th_done();
}
