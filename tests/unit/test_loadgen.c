/*
 * test_loadgen.c - the readers of issue 18's load generators (k6 summary
 * and --out json points, ab, hey text and CSV, vegeta JSON, JMeter JTL)
 * against the real samples in $SHARED/samples (default ../shared) and
 * malformed variants written here, and the percentile method of the
 * streamed formats on hand-worked tables.
 *
 * Figures of the summary formats were read by hand from the sample (the
 * comment quotes the line).  Figures of the per-request formats (hey CSV,
 * JTL, k6 points) were computed from the sample's rows by an independent
 * Python script (csv/json modules, sorted list, nearest rank
 * s[ceil(p/100 n) - 1]), never from erg.  Every malformed variant checks
 * the exact "erg: PATH:LINE: error:" prefix of its diagnostic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define LOAD_INTERNAL

#include "base/buf.h"
#include "ingest/load.h"
#include "base/util.h"

#include "load_harness.h"
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

/* The text parses with the one diagnostic "erg: WANT". */
static int
good_warned(const char *name, const char *text, struct load_result *r, const char *want)
{
	int rc = parse_str(name, text, LOAD_UNKNOWN, r);
	char line[1024];

	snprintf(line, sizeof(line), "erg: %s\n", want);
	CHECK(rc == 0 && !strcmp(captured, line), "%s parses with the warning '%s'", name, want);
	if (rc || strcmp(captured, line))
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


/* The sample read by load_read_file (streamed when its format is). */
static int
file_sample(const char *rel, struct load_result *r)
{
	struct buf path = BUF_INIT;
	int rc;

	buf_addf(&path, "%s/samples/%s", shared_dir(), rel);
	cap_begin();
	rc = load_read_file(path.ptr, LOAD_UNKNOWN, r);
	cap_end();
	CHECK(rc == 0 && !captured[0], "%s read from its file without "
	      "diagnostics", rel);
	if (rc || captured[0])
		show_captured();
	buf_release(&path);
	return rc;
}

static void
no_status(const struct load_result *r)
{
	size_t i;

	for (i = 0; i < 6; i++)
		ISNAN(r->status[i]);
}

/* ---- k6 ---------------------------------------------------------------- */

static void
test_k6_samples(void)
{
	struct load_result r;

	if (!sample("k6/legacy_--summary-export_ticket-reserve_100reqs_1fail.json", &r)) {
		CHECK(r.tool == LOAD_K6_JSON, "legacy export is k6");
		/* "http_reqs": {"count": 100, "rate": 23.738350582489275} */
		EQ(r.requests, 100);
		EQ(r.rps_mean, 23.738350582489275);
		/* legacy: no duration; count / rate */
		EQ(r.time_taken_s, 100 / 23.738350582489275);
		/* "http_req_failed": {"passes": 1, "fails": 99, ...} */
		EQ(r.failed, 1);
		EQ(r.non_2xx_3xx, 1);
		EQ(r.responses, 100);
		ISNAN(r.errors);
		no_status(&r);
		/* "http_req_duration{expected_response:true}": avg
		 * 3292.049930303031, min 464.4323, med 3399.1827, max 4180.7135,
		 * p(90) 4031.02704, p(95) 4102.77963 (ms) */
		EQ(r.lat_mean_us, 3292049.930303031);
		EQ(r.lat_min_us, 464432.3);
		EQ(r.lat_max_us, 4180713.5);
		EQ(r.lat_pct_us[PCT_50], 3399182.7);
		EQ(r.lat_pct_us[PCT_90], 4031027.04);
		EQ(r.lat_pct_us[PCT_95], 4102779.63);
		ISNAN(r.lat_pct_us[PCT_75]);
		ISNAN(r.lat_pct_us[PCT_99]);
		ISNAN(r.lat_pct_us[PCT_999]);
		ISNAN(r.lat_sd_us);
		/* "vus_max": {"value": 100, ...}; data_received 7566,
		 * data_sent 19400 */
		EQ(r.connections, 100);
		EQ(r.bytes_read, 7566);
		EQ(r.bytes_written, 19400);
		CHECK(r.bytes_kind == LOAD_BYTES_WIRE, "k6 bytes are wire bytes");
		load_result_free(&r);
	}
	if (!sample("k6/handleSummary_compact_k6-example-circleci-orb_20reqs.json", &r)) {
		CHECK(r.tool == LOAD_K6_JSON, "handleSummary JSON is k6");
		/* "state":{"testRunDurationMs":8274.949,...} */
		EQ(r.time_taken_s, 8.274949);
		/* "http_reqs":{...,"values":{"count":20,"rate":2.4169333249062928}} */
		EQ(r.requests, 20);
		EQ(r.rps_mean, 2.4169333249062928);
		/* "http_req_failed" values passes 0, fails 20 */
		EQ(r.failed, 0);
		/* expected_response:true values avg 255.6286, min 252.999,
		 * med 255.0285, max 260.89, p(90) 257.8066,
		 * p(95) 260.64205000000004 */
		EQ(r.lat_mean_us, 255628.6);
		EQ(r.lat_min_us, 252999);
		EQ(r.lat_pct_us[PCT_50], 255028.5);
		EQ(r.lat_pct_us[PCT_90], 257806.6);
		EQ(r.lat_pct_us[PCT_95], 260642.05000000004);
		EQ(r.lat_max_us, 260890);
		/* vus_max value 5; data_received 37755; data_sent 4490 */
		EQ(r.connections, 5);
		EQ(r.bytes_read, 37755);
		EQ(r.bytes_written, 4490);
		load_result_free(&r);
	}
	if (!sample("k6/legacy_--summary-export_event-gate_59719reqs_63pct-failed.json", &r)) {
		/* "http_reqs": {"count": 32316, ...}; custom metrics and
		 * setup_data beside the built-ins are passed over */
		EQ(r.requests, 32316);
		EQ(r.connections, 700);
		load_result_free(&r);
	}
	if (!file_sample("k6/--out-json_NDJSON_k6-load-template.ndjson", &r)) {
		CHECK(r.tool == LOAD_K6_NDJSON, "--out json points are k6-ndjson");
		/* 21 http_reqs points, all "status":"200" */
		EQ(r.requests, 21);
		EQ(r.responses, 21);
		EQ(r.status[2], 21);
		EQ(r.status[0], 0);
		EQ(r.errors, 0);
		EQ(r.failed, 0);
		/* first point 03:13:39.74173671, last 03:14:17.930523272 */
		CHECK_NEAR(r.time_taken_s, 38.188786562, 1e-6, "k6 span");
		EQ(r.rps_mean, 21 / r.time_taken_s);
		/* data_received 5835, data_sent 3561, vus_max 11 (Python) */
		EQ(r.bytes_read, 5835);
		EQ(r.bytes_written, 3561);
		EQ(r.connections, 11);
		/* 21 http_req_duration points in us (Python, rounded to 1 us):
		 * mean 10938812.857, sd 3153125.859, min 5517436,
		 * max 14722148, nearest rank 11691252 13299149 13944754
		 * 14276060 14722148 14722148 */
		CHECK_NEAR(r.lat_mean_us, 10938812.857, 0.5, "k6 points mean");
		CHECK_NEAR(r.lat_sd_us, 3153125.859, 0.5, "k6 points sd");
		CHECK_NEAR(r.lat_min_us, 5517436, 0.5, "k6 points min");
		CHECK_NEAR(r.lat_max_us, 14722148, 0.5, "k6 points max");
		CHECK_NEAR(r.lat_pct_us[PCT_50], 11691252, 0.5, "k6 p50");
		CHECK_NEAR(r.lat_pct_us[PCT_75], 13299149, 0.5, "k6 p75");
		CHECK_NEAR(r.lat_pct_us[PCT_90], 13944754, 0.5, "k6 p90");
		CHECK_NEAR(r.lat_pct_us[PCT_95], 14276060, 0.5, "k6 p95");
		CHECK_NEAR(r.lat_pct_us[PCT_99], 14722148, 0.5, "k6 p99");
		CHECK_NEAR(r.lat_pct_us[PCT_999], 14722148, 0.5, "k6 p99.9");
		load_result_free(&r);
	}
}

static const char k6_legacy[] =
	"{\n"
	"    \"metrics\": {\n"
	"        \"http_reqs\": {\"count\": 10, \"rate\": 5},\n"
	"        \"http_req_failed\": {\"passes\": 2, \"fails\": 8, \"value\": 0.2},\n"
	"        \"http_req_duration\": {\"avg\": 1.5, \"min\": 0, \"med\": 1, "
	"\"max\": 4, \"p(90)\": 3, \"p(95)\": 3.5, \"p(99.9)\": 4}\n"
	"    },\n"
	"    \"root_group\": {}\n"
	"}\n";

static const char k6_points[] =
	"{\"type\":\"Metric\",\"data\":{\"name\":\"http_reqs\"},\"metric\":\"http_reqs\"}\n"
	"{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2024-01-01T00:00:00Z\",\"value\":1,\"tags\":{\"status\":\"200\"}}}\n"
	"{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2024-01-01T01:00:02.5+01:00\",\"value\":1,\"tags\":{\"status\":\"0\"}}}\n"
	"{\"metric\":\"http_req_failed\",\"type\":\"Point\",\"data\":{\"time\":\"2024-01-01T00:00:01Z\",\"value\":1,\"tags\":{}}}\n"
	"{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"2024-01-01T00:00:01Z\",\"value\":2.5,\"tags\":{\"expected_response\":\"true\"}}}\n"
	"{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"2024-01-01T00:00:01Z\",\"value\":0.001,\"tags\":{\"expected_response\":\"false\"}}}\n";

static void
test_k6_inline(void)
{
	struct load_result r;

	if (!good("legacy.json", k6_legacy, LOAD_UNKNOWN, &r)) {
		/* no expected_response submetric: http_req_duration itself */
		EQ(r.lat_mean_us, 1500);
		EQ(r.lat_pct_us[PCT_999], 4000);
		ISNAN(r.lat_pct_us[PCT_75]);
		EQ(r.time_taken_s, 2);	/* 10 / 5 */
		EQ(r.non_2xx_3xx, 2);
		ISNAN(r.connections);	/* no vus_max */
		ISNAN(r.bytes_read);
		load_result_free(&r);
	}
	bad_subst("noreqs.json", k6_legacy, "http_reqs", "http_reqz",
		  LOAD_UNKNOWN, 2, "'metrics' has no 'http_reqs'");
	bad_subst("strcount.json", k6_legacy, "\"count\": 10", "\"count\": \"10\"",
		  LOAD_UNKNOWN, 3, "'metrics.http_reqs.count' must be");
	bad_subst("failsum.json", k6_legacy, "\"fails\": 8", "\"fails\": 7",
		  LOAD_UNKNOWN, 4, "counts 9 requests (passes + fails), 'http_reqs' 10");
	bad_subst("neglat.json", k6_legacy, "\"avg\": 1.5", "\"avg\": -1.5",
		  LOAD_UNKNOWN, 5, "'metrics.http_req_duration.avg'");
	bad("novalues.json", "{\"state\":{},\"metrics\":{\"http_reqs\":"
	    "{\"type\":\"counter\"}},\"root_group\":{}}", LOAD_UNKNOWN, 1,
	    "missing 'metrics.http_reqs.values'");
	if (!good("points.ndjson", k6_points, LOAD_UNKNOWN, &r)) {
		CHECK(r.tool == LOAD_K6_NDJSON, "points detected");
		EQ(r.requests, 2);
		EQ(r.errors, 1);	/* status "0": no response */
		EQ(r.status[0], 1);
		EQ(r.status[2], 1);
		EQ(r.responses, 1);
		EQ(r.failed, 1);
		/* 01:00:02.5+01:00 is 00:00:02.5 UTC: 2.5 s after the first */
		EQ(r.time_taken_s, 2.5);
		/* tagged points: only the expected_response "true" one */
		EQ(r.lat_mean_us, 2500);
		EQ(r.lat_pct_us[PCT_50], 2500);
		EQ(r.lat_min_us, 2500);
		load_result_free(&r);
	}
	bad_subst("time.ndjson", k6_points, "2024-01-01T00:00:00Z",
		  "2024-01-01 00:00:00", LOAD_UNKNOWN, 2,
		  "'data.time' is not an RFC 3339 time");
	bad_subst("day.ndjson", k6_points, "2024-01-01T00:00:00Z",
		  "2024-02-30T00:00:00Z", LOAD_UNKNOWN, 2, "is not an RFC 3339");
	bad_subst("type.ndjson", k6_points, "\"type\":\"Point\",\"data\":{\"time\":\"2024-01-01T01",
		  "\"type\":\"Pt\",\"data\":{\"time\":\"2024-01-01T01",
		  LOAD_UNKNOWN, 3, "'type' must be 'Metric' or 'Point'");
	bad_subst("status.ndjson", k6_points, "\"status\":\"0\"",
		  "\"status\":\"OK\"", LOAD_UNKNOWN, 3,
		  "'data.tags.status' is not an HTTP status code");
	bad_subst("failed.ndjson", k6_points, "\"value\":1,\"tags\":{}",
		  "\"value\":2,\"tags\":{}", LOAD_UNKNOWN, 4,
		  "'data.value' must be 0 or 1");
	bad_subst("value.ndjson", k6_points, "\"value\":2.5",
		  "\"value\":\"2.5\"", LOAD_UNKNOWN, 5, "'data.value' must be a number");
	bad_subst("json.ndjson", k6_points, "\"value\":0.001,",
		  "\"value\":0.001", LOAD_UNKNOWN, 6, "invalid JSON");
	bad_subst("empty.ndjson", k6_points, "}}}\n{\"metric\":\"http_req_failed\"",
		  "}}}\n\n{\"metric\":\"http_req_failed\"", LOAD_UNKNOWN, 4,
		  "empty line");
	bad("nohttp.ndjson", "{\"metric\":\"vus\",\"type\":\"Point\",\"data\":"
	    "{\"time\":\"2024-01-01T00:00:00Z\",\"value\":1}}\n",
	    LOAD_K6_NDJSON, 0, "no 'http_reqs' points");
}

/* ---- ab ---------------------------------------------------------------- */

static void
test_ab_samples(void)
{
	struct load_result r;

	if (!sample("ab/ab2.3-deb2.4.71_c10_n500_stdout.txt", &r)) {
		CHECK(r.tool == LOAD_AB_TEXT, "ab detected");
		CHECK_STR(r.tool_version, "2.3", "ab version");
		CHECK_STR(r.url, "http://127.0.0.1:8099/index.html", "ab URL");
		EQ(r.connections, 10);	/* Concurrency Level:      10 */
		EQ(r.threads, 1);
		CHECK(r.mode == LOAD_CLOSED, "ab is closed-loop");
		EQ(r.time_taken_s, 1.599);	/* Time taken for tests:   1.599 seconds */
		EQ(r.requests, 500);	/* Complete requests:      500 */
		EQ(r.errors, 0);	/* Failed requests:        0 */
		EQ(r.status[2], 500);
		ISNAN(r.status[4]);
		ISNAN(r.status[0]);
		EQ(r.bytes_read, 786500);	/* Total transferred:      786500 bytes */
		ISNAN(r.bytes_written);
		EQ(r.rps_mean, 312.77);	/* Requests per second:    312.77 */
		ISNAN(r.rps_sd);
		/* Total:          2   28 100.1     19    1247 */
		EQ(r.lat_min_us, 2000);
		EQ(r.lat_mean_us, 28000);
		EQ(r.lat_sd_us, 100100);
		EQ(r.lat_max_us, 1247000);
		/* 50% 19, 75% 25, 90% 30, 95% 35, 99% 50 */
		EQ(r.lat_pct_us[PCT_50], 19000);
		EQ(r.lat_pct_us[PCT_75], 25000);
		EQ(r.lat_pct_us[PCT_90], 30000);
		EQ(r.lat_pct_us[PCT_95], 35000);
		EQ(r.lat_pct_us[PCT_99], 50000);
		ISNAN(r.lat_pct_us[PCT_999]);
		load_result_free(&r);
	}
	if (!sample("ab/ab2.3-deb2.4.71_c8_n300_mixed-status_varlen_stdout.txt", &r)) {
		/* Failed requests: 292 (Connect: 0, Receive: 0, Length: 292,
		 * Exceptions: 0); Non-2xx responses: 64: length failures are
		 * answers, not errors */
		EQ(r.requests, 300);
		EQ(r.errors, 0);
		EQ(r.status[2], 236);
		load_result_free(&r);
	}
	if (!sample("ab/ab2.3-deb2.4.71_c5_n200_all-404_stdout+stderr.txt", &r)) {
		EQ(r.requests, 200);	/* Non-2xx responses:      200 */
		EQ(r.status[2], 0);
		load_result_free(&r);
	}
	{
		struct buf b = BUF_INIT, path = BUF_INIT;
		const char *rel = "ab/ab2.3-deb2.4.71_c5_n50_conn-refused_exit111_stdout+stderr.txt";
		char want[1024];

		if (!read_sample(rel, &b, &path)) {
			cap_begin();
			CHECK(load_parse(path.ptr, b.ptr, b.len, LOAD_UNKNOWN, &r) == -1,
			      "an aborted ab run is refused");
			cap_end();
			snprintf(want, sizeof(want), "erg: %s:5: error: ab stopped "
				 "before its report: 'apr_socket_recv: Connection "
				 "refused (111)'\n", path.ptr);
			CHECK_STR(captured, want, "aborted ab message");
		}
		buf_release(&b);
		buf_release(&path);
	}
}

static const char ab_text[] =
	"This is ApacheBench, Version 2.3 <$Revision: 1879490 $>\n"
	"\n"
	"Benchmarking h (be patient).....done\n"
	"Server Hostname:        h\n"
	"Server Port:            443\n"
	"SSL/TLS Protocol:       TLSv1.3\n"
	"Document Path:          /x\n"
	"Concurrency Level:      4\n"
	"Time taken for tests:   2.000 seconds\n"
	"Complete requests:      100\n"
	"Failed requests:        7\n"
	"   (Connect: 1, Receive: 2, Length: 1, Exceptions: 3)\n"
	"Write errors:           1\n"
	"Non-2xx responses:      10\n"
	"Total transferred:      5000 bytes\n"
	"Requests per second:    50.00 [#/sec] (mean)\n"
	"Connection Times (ms)\n"
	"              min   avg   max\n"
	"Total:          1     3     9\n";

static void
test_ab_inline(void)
{
	struct load_result r;

	if (!good_warned("ab.txt", ab_text, &r, "ab.txt:12: warning: 1 connect errors and 3 "
			 "exceptions: attempts ab started again, not among its complete requests")) {
		CHECK_STR(r.url, "https://h:443/x", "ab https URL");
		/* Receive 2 + 1 write error; the connect error and the
		 * exceptions are attempts outside the complete requests */
		EQ(r.errors, 3);
		EQ(r.status[2], 87);	/* 100 - 10 - 3 */
		EQ(r.responses, 97);
		/* -S table: min avg max, no sd or median */
		EQ(r.lat_min_us, 1000);
		EQ(r.lat_mean_us, 3000);
		EQ(r.lat_max_us, 9000);
		ISNAN(r.lat_sd_us);
		ISNAN(r.lat_pct_us[PCT_50]);
		load_result_free(&r);
	}
	bad_subst("unit.txt", ab_text, "2.000 seconds", "2.000 secs",
		  LOAD_UNKNOWN, 9, "cannot read 'Time taken for tests'");
	bad_subst("junk.txt", ab_text, "Complete requests:      100",
		  "Complete requests:      1e2", LOAD_UNKNOWN, 10,
		  "cannot read 'Complete requests'");
	bad_subst("twice.txt", ab_text, "Write errors:",
		  "Complete requests:      100\nWrite errors:", LOAD_UNKNOWN, 13,
		  "'Complete requests' given twice (first on line 10)");
	bad_subst("nobreak.txt", ab_text,
		  "   (Connect: 1, Receive: 2, Length: 1, Exceptions: 3)\n", "",
		  LOAD_UNKNOWN, 11, "no breakdown of the failed requests");
	bad_subst("break.txt", ab_text, "Exceptions: 3)", "Exceptions: x)",
		  LOAD_UNKNOWN, 12, "cannot read the breakdown");
	bad_subst("few.txt", ab_text, "Non-2xx responses:      10",
		  "Non-2xx responses:      98", LOAD_UNKNOWN, 10,
		  "100 complete requests are fewer than the non-2xx responses "
		  "and errors together (101)");
	/* ab -r against a server resetting 192 of 400 connections (a real
	 * run, ab 2.3): each reset in Receive, Exceptions and Length at
	 * once; 2496 bytes of 12-byte bodies are 208 answers, not the 16 of
	 * Complete - Receive - Exceptions */
	{
		char *t = subst(ab_text, "Failed requests:        7\n"
				"   (Connect: 1, Receive: 2, Length: 1, Exceptions: 3)\n"
				"Write errors:           1\n"
				"Non-2xx responses:      10\n",
				"Failed requests:        576\n"
				"   (Connect: 0, Receive: 192, Length: 192, Exceptions: 192)\n");
		char *u = subst(t, "Complete requests:      100", "Complete requests:      400");

		if (!good_warned("reset.txt", u, &r,
				 "reset.txt:12: warning: 0 connect errors and 192 exceptions: attempts "
				 "ab started again, not among its complete requests")) {
			EQ(r.requests, 400);
			EQ(r.errors, 192);
			EQ(r.responses, 208);
			EQ(r.status[2], 208);
			load_result_free(&r);
		}
		free(u);
		free(t);
	}
	bad_subst("norps.txt", ab_text,
		  "Requests per second:    50.00 [#/sec] (mean)\n", "",
		  LOAD_UNKNOWN, 0, "no 'Requests per second' line");
	bad_subst("total.txt", ab_text, "Total:          1     3     9",
		  "Total:          1     3", LOAD_UNKNOWN, 19,
		  "cannot read the 'Total:' row");
	bad_subst("pct.txt", ab_text, "Total:          1     3     9\n",
		  "Total:          1     3     9\n"
		  "Percentage of the requests served within a certain time (ms)\n"
		  "  50%      x\n", LOAD_UNKNOWN, 21, "cannot read the percentile row");
	bad_subst("pct2.txt", ab_text, "Total:          1     3     9\n",
		  "Total:          1     3     9\n"
		  "Percentage of the requests served within a certain time (ms)\n"
		  "  50%      2\n  50%      2\n", LOAD_UNKNOWN, 22,
		  "percentile 50% given twice");
}

/* ---- hey --------------------------------------------------------------- */

static void
test_hey_samples(void)
{
	struct load_result r;

	if (!sample("hey/hey0.1.4-deb_c10_n500.txt", &r)) {
		CHECK(r.tool == LOAD_HEY_TEXT, "hey detected");
		EQ(r.time_taken_s, 1.2491);	/* Total:	1.2491 secs */
		EQ(r.lat_max_us, 1032900);	/* Slowest:	1.0329 secs */
		EQ(r.lat_min_us, 800);	/* Fastest:	0.0008 secs */
		EQ(r.lat_mean_us, 14700);	/* Average:	0.0147 secs */
		EQ(r.rps_mean, 400.2886);	/* Requests/sec:	400.2886 */
		EQ(r.bytes_read, 693000);	/* Total data:	693000 bytes */
		CHECK(r.bytes_kind == LOAD_BYTES_BODY, "hey counts bodies");
		/* 50% in 0.0061, 75% 0.0082, 90% 0.0110, 95% 0.0136, 99% 0.0182 */
		EQ(r.lat_pct_us[PCT_50], 6100);
		EQ(r.lat_pct_us[PCT_75], 8200);
		EQ(r.lat_pct_us[PCT_90], 11000);
		EQ(r.lat_pct_us[PCT_95], 13600);
		EQ(r.lat_pct_us[PCT_99], 18200);
		ISNAN(r.lat_pct_us[PCT_999]);
		ISNAN(r.lat_sd_us);
		/* [200]	500 responses */
		EQ(r.requests, 500);
		EQ(r.status[2], 500);
		EQ(r.errors, 0);
		ISNAN(r.connections);
		load_result_free(&r);
	}
	if (!sample("hey/hey0.1.4-deb_c8_n300_mixed-status_only-296-sent.txt", &r)) {
		/* [200] 241, [404] 33, [500] 22 */
		EQ(r.requests, 296);
		EQ(r.status[2], 241);
		EQ(r.status[4], 33);
		EQ(r.status[5], 22);
		EQ(r.bytes_read, 7535);
		load_result_free(&r);
	}
	if (!sample("hey/hey0.1.4-deb_c2_n20_conn-refused.txt", &r)) {
		/* Average: NaN, no status codes, [20] ... connection refused */
		EQ(r.requests, 20);
		EQ(r.errors, 20);
		EQ(r.status[0], 20);
		EQ(r.responses, 0);
		ISNAN(r.lat_mean_us);
		ISNAN(r.lat_min_us);	/* hey printed 0.0000: not a latency */
		ISNAN(r.lat_max_us);
		ISNAN(r.bytes_read);	/* no Total data line */
		load_result_free(&r);
	}
	if (!file_sample("hey/hey0.1.4-deb_c4_n40_mixed-status_-o-csv.csv", &r)) {
		CHECK(r.tool == LOAD_HEY_CSV, "hey CSV detected");
		/* Python: 40 rows, 29 x 200, 8 x 404, 3 x 500 */
		EQ(r.responses, 40);
		EQ(r.status[2], 29);
		EQ(r.status[4], 8);
		EQ(r.status[5], 3);
		ISNAN(r.requests);	/* hey drops requests without response */
		ISNAN(r.errors);
		ISNAN(r.status[0]);
		/* Python: mean 42685 us, sd 12671.926, min 5200, max 55900;
		 * nearest rank 45900 48100 49700 51500 55900 55900; the last
		 * request ends at 0.4308 s */
		CHECK_NEAR(r.lat_mean_us, 42685, 1e-6, "hey CSV mean");
		CHECK_NEAR(r.lat_sd_us, 12671.926370868714, 1e-6, "hey CSV sd");
		CHECK_NEAR(r.lat_min_us, 5200, 1e-6, "hey CSV min");
		CHECK_NEAR(r.lat_max_us, 55900, 1e-6, "hey CSV max");
		CHECK_NEAR(r.lat_pct_us[PCT_50], 45900, 1e-6, "hey CSV p50");
		CHECK_NEAR(r.lat_pct_us[PCT_75], 48100, 1e-6, "hey CSV p75");
		CHECK_NEAR(r.lat_pct_us[PCT_90], 49700, 1e-6, "hey CSV p90");
		CHECK_NEAR(r.lat_pct_us[PCT_95], 51500, 1e-6, "hey CSV p95");
		CHECK_NEAR(r.lat_pct_us[PCT_99], 55900, 1e-6, "hey CSV p99");
		CHECK_NEAR(r.lat_pct_us[PCT_999], 55900, 1e-6, "hey CSV p99.9");
		CHECK_NEAR(r.time_taken_s, 0.4308, 1e-12, "hey CSV span");
		load_result_free(&r);
	}
}

static const char hey_text[] =
	"\n"
	"Summary:\n"
	"  Total:\t2.0000 secs\n"
	"  Slowest:\t0.0300 secs\n"
	"  Fastest:\t0.0010 secs\n"
	"  Average:\t0.0100 secs\n"
	"  Requests/sec:\t10.0000\n"
	"  \n"
	"Latency distribution:\n"
	"  10% in 0.0020 secs\n"
	"  50% in 0.0090 secs\n"
	"  0% in 0.0000 secs\n"
	"\n"
	"Status code distribution:\n"
	"  [200]\t15 responses\n"
	"  [302]\t3 responses\n"
	"\n"
	"Error distribution:\n"
	"  [2]\tGet \"http://h/\": EOF\n";

static const char hey_csv[] =
	"response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n"
	"0.0010,0,0,0,0,0,200,0.0000\n"
	"0.0030,0,0,0,0,0,200,1.0000\n"
	"0.0020,0,0,0,0,0,503,0.5000\n";

static void
test_hey_inline(void)
{
	struct load_result r;

	if (!good("hey.txt", hey_text, LOAD_UNKNOWN, &r)) {
		EQ(r.requests, 20);
		EQ(r.status[3], 3);
		EQ(r.status[0], 2);
		EQ(r.lat_pct_us[PCT_50], 9000);
		ISNAN(r.lat_pct_us[PCT_75]);	/* the dropped row */
		ISNAN(r.bytes_read);
		load_result_free(&r);
	}
	bad_subst("nan.txt", hey_text, "0.0100 secs", "NaN secs",
		  LOAD_UNKNOWN, 6, "'Average' is NaN while 18 requests got a response");
	bad_subst("avg.txt", hey_text, "0.0100 secs", "0.0100 ms",
		  LOAD_UNKNOWN, 6, "cannot read 'Average'");
	bad_subst("rps.txt", hey_text, "10.0000", "10.0000x",
		  LOAD_UNKNOWN, 7, "cannot read 'Requests/sec'");
	bad_subst("twice.txt", hey_text, "  Average:",
		  "  Total:\t1.0000 secs\n  Average:", LOAD_UNKNOWN, 6,
		  "'Total' given twice (first on line 3)");
	bad_subst("status.txt", hey_text, "[302]\t3 responses",
		  "[302]\t3 answers", LOAD_UNKNOWN, 16, "cannot read the status row");
	bad_subst("error.txt", hey_text, "[2]\tGet", "[x]\tGet", LOAD_UNKNOWN,
		  19, "cannot read the error row");
	bad_subst("lat.txt", hey_text, "50% in 0.0090 secs", "50% at 0.0090 secs",
		  LOAD_UNKNOWN, 11, "cannot read the latency row");
	bad_subst("noavg.txt", hey_text, "  Average:\t0.0100 secs\n", "",
		  LOAD_UNKNOWN, 0, "no 'Average' line in hey's summary");
	/* cut after its first status row: Requests/sec x Total says 20 */
	bad_subst("cut.txt", hey_text, "  [302]\t3 responses\n\nError distribution:\n"
		  "  [2]\tGet \"http://h/\": EOF\n", "", LOAD_UNKNOWN, 14,
		  "the status codes and errors count 15 requests, but Requests/sec x Total "
		  "is 20.0: a report cut short, or rows missing");
	/* hey before 2018: Requests/sec counted successes only */
	{
		char *t = subst(hey_text, "10.0000", "9.0000");

		if (!good("old-rps.txt", t, LOAD_UNKNOWN, &r)) {
			EQ(r.requests, 20);
			load_result_free(&r);
		}
		free(t);
	}
	bad_subst("head.txt", hey_text, "Status code distribution:\n",
		  "Status code distribution\n", LOAD_UNKNOWN, 14, "unexpected 'Status code distribution'");
	if (!good("hey.csv", hey_csv, LOAD_UNKNOWN, &r)) {
		EQ(r.responses, 3);
		EQ(r.status[2], 2);
		EQ(r.status[5], 1);
		EQ(r.lat_pct_us[PCT_50], 2000);	/* rank ceil(1.5) = 2 */
		EQ(r.lat_mean_us, 2000);
		EQ(r.lat_sd_us, 1000);
		EQ(r.time_taken_s, 1.003);
		EQ(r.rps_mean, 3 / 1.003);
		load_result_free(&r);
	}
	bad_subst("head.csv", hey_csv, "status-code,offset", "status,offset",
		  LOAD_HEY_CSV, 1, "not hey's CSV header: field 7 is 'status'");
	bad_subst("num.csv", hey_csv, "0.0030,", "0x30,", LOAD_UNKNOWN, 3,
		  "'response-time' must be a non-negative number of seconds, not '0x30'");
	bad_subst("neg.csv", hey_csv, ",1.0000", ",-1.0000", LOAD_UNKNOWN, 3,
		  "'offset' must be a non-negative number");
	bad_subst("code.csv", hey_csv, ",503,", ",0,", LOAD_UNKNOWN, 4,
		  "'status-code' must be an HTTP status code, not '0'");
	bad_subst("fields.csv", hey_csv, ",503,0.5000", ",503", LOAD_UNKNOWN, 4,
		  "7 fields where hey's CSV has 8");
	bad("only.csv", "response-time,DNS+dialup,DNS,Request-write,"
	    "Response-delay,Response-read,status-code,offset\n", LOAD_UNKNOWN,
	    0, "no rows after hey's CSV header");
}

/* ---- vegeta ------------------------------------------------------------ */

static void
test_vegeta(void)
{
	static const char *rel =
		"vegeta/vegeta12.8.4_report-json_seldon-rest_8882reqs_EXTRACTED-from-README.json";
	static const char doc[] =
		"{\"latencies\":{\"total\":30,\"mean\":10000,\"50th\":9000,"
		"\"95th\":20000,\"99th\":21000,\"max\":22000},\n"
		"\"bytes_in\":{\"total\":10,\"mean\":3},\"bytes_out\":{\"total\":0,\"mean\":0},\n"
		"\"duration\":2000000000,\"wait\":500000000,\"requests\":3,\"rate\":1.5,\n"
		"\"success\":0.3333333333333333,\n"
		"\"status_codes\":{\"0\":1,\"200\":1,\"500\":1},\"errors\":[\"500 Internal Server Error\"]}\n";
	struct load_result r;

	if (!sample(rel, &r)) {
		CHECK(r.tool == LOAD_VEGETA_JSON, "vegeta detected");
		CHECK(r.mode == LOAD_RATE, "vegeta is open-loop");
		EQ(r.requests, 8882);	/* "requests":8882 */
		EQ(r.status[2], 8882);	/* "status_codes":{"200":8882} */
		EQ(r.errors, 0);
		EQ(r.failed, 0);	/* "success":1 */
		EQ(r.rps_mean, 296.05832946673667);
		/* "duration":30000844820,"wait":247925698 */
		EQ(r.time_taken_s, 30.248770518);
		/* "mean":339033885,"50th":272840630,"90th":339539236,
		 * "95th":368299307,"99th":4982426813,"max":5597505277,
		 * "min":206244298 (ns) */
		EQ(r.lat_mean_us, 339033.885);
		EQ(r.lat_pct_us[PCT_50], 272840.630);
		EQ(r.lat_pct_us[PCT_90], 339539.236);
		EQ(r.lat_pct_us[PCT_95], 368299.307);
		EQ(r.lat_pct_us[PCT_99], 4982426.813);
		EQ(r.lat_max_us, 5597505.277);
		EQ(r.lat_min_us, 206244.298);
		ISNAN(r.lat_pct_us[PCT_75]);
		ISNAN(r.lat_pct_us[PCT_999]);
		ISNAN(r.lat_sd_us);
		EQ(r.bytes_read, 3081764);
		EQ(r.bytes_written, 301988);
		load_result_free(&r);
	}
	if (!good("old.json", doc, LOAD_UNKNOWN, &r)) {
		ISNAN(r.lat_min_us);	/* old versions: no min, no 90th */
		ISNAN(r.lat_pct_us[PCT_90]);
		EQ(r.errors, 1);
		EQ(r.responses, 2);
		EQ(r.status[5], 1);
		EQ(r.failed, 2);
		EQ(r.time_taken_s, 2.5);
		load_result_free(&r);
	}
	{
		/* latencies.total is vegeta's int64 sum of every latency in ns:
		 * past 2^53 (104 days) in a long saturated run, and not used */
		char *big = subst(doc, "\"total\":30,", "\"total\":12000000000000000,");

		if (!good("bigtotal.json", big, LOAD_UNKNOWN, &r)) {
			EQ(r.requests, 3);
			load_result_free(&r);
		}
		free(big);
	}
	bad_subst("sum.json", doc, "\"500\":1", "\"500\":2", LOAD_UNKNOWN, 5,
		  "'status_codes' counts 4 responses, 'requests' 3");
	bad_subst("code.json", doc, "\"500\":1", "\"5xx\":1", LOAD_UNKNOWN, 5,
		  "'status_codes.5xx' is not an HTTP status code");
	bad_subst("succ.json", doc, "0.3333333333333333", "33.3", LOAD_UNKNOWN, 4,
		  "'success' must be a fraction from 0 to 1");
	bad_subst("zero.json", doc, "\"requests\":3", "\"requests\":0",
		  LOAD_UNKNOWN, 3, "'requests' is 0: vegeta reported no request");
	bad_subst("ns.json", doc, "\"mean\":10000", "\"mean\":1e4.5",
		  LOAD_UNKNOWN, 1, "invalid JSON");
	bad_subst("frac.json", doc, "\"50th\":9000", "\"50th\":9000.5",
		  LOAD_UNKNOWN, 1, "'latencies.50th' must be a whole number");
}

/* ---- JMeter ------------------------------------------------------------ */

static void
test_jmeter_samples(void)
{
	static const char *rel[2] = {
		"jmeter/jtl-csv_apache-jmeter_HTMLReportTestFile_3-failures.csv",
		"jmeter/jtl-csv_default-17cols_jsonplaceholder_100rows_unsorted.jtl",
	};
	struct load_result r, m;

	if (!file_sample(rel[0], &r)) {
		CHECK(r.tool == LOAD_JMETER_CSV, "JTL detected");
		/* Python: 255 rows, 252 x 200, 3 x "400,Bad request,...,false" */
		EQ(r.requests, 255);
		EQ(r.status[2], 252);
		EQ(r.status[4], 3);
		EQ(r.failed, 3);
		EQ(r.errors, 0);
		/* span 60185 ms; bytes 4596; sentBytes 2040; allThreads 1 */
		EQ(r.time_taken_s, 60.185);
		EQ(r.rps_mean, 255 / 60.185);
		EQ(r.bytes_read, 4596);
		EQ(r.bytes_written, 2040);
		EQ(r.connections, 1);
		/* mean 235474.50980392157, sd 79927.41747502709, min 100000,
		 * max 353000; nearest rank 232000 314000 337000 339000
		 * 353000 353000 */
		EQ(r.lat_mean_us, 235474.50980392157);
		CHECK_NEAR(r.lat_sd_us, 79927.41747502709, 1e-6, "JTL sd");
		EQ(r.lat_min_us, 100000);
		EQ(r.lat_max_us, 353000);
		EQ(r.lat_pct_us[PCT_50], 232000);
		EQ(r.lat_pct_us[PCT_75], 314000);
		EQ(r.lat_pct_us[PCT_90], 337000);
		EQ(r.lat_pct_us[PCT_95], 339000);
		EQ(r.lat_pct_us[PCT_99], 353000);
		EQ(r.lat_pct_us[PCT_999], 353000);
		/* in memory, the same figures */
		if (!sample(rel[0], &m)) {
			EQ(m.lat_pct_us[PCT_90], r.lat_pct_us[PCT_90]);
			EQ(m.requests, r.requests);
			load_result_free(&m);
		}
		load_result_free(&r);
	}
	if (!file_sample(rel[1], &r)) {
		/* Python: 100 rows all 200, span 9850 ms, bytes 2874066,
		 * sentBytes 13500, allThreads max 6; mean 67960, sd
		 * 68935.61921067799; 53000 58000 67000 88000 461000 462000 */
		EQ(r.requests, 100);
		EQ(r.status[2], 100);
		EQ(r.time_taken_s, 9.85);
		EQ(r.bytes_read, 2874066);
		EQ(r.bytes_written, 13500);
		EQ(r.connections, 6);
		EQ(r.lat_mean_us, 67960);
		CHECK_NEAR(r.lat_sd_us, 68935.61921067799, 1e-6, "JTL sd 2");
		EQ(r.lat_pct_us[PCT_50], 53000);
		EQ(r.lat_pct_us[PCT_75], 58000);
		EQ(r.lat_pct_us[PCT_90], 67000);
		EQ(r.lat_pct_us[PCT_95], 88000);
		EQ(r.lat_pct_us[PCT_99], 461000);
		EQ(r.lat_pct_us[PCT_999], 462000);
		load_result_free(&r);
	}
}

static const char jtl[] =
	"timeStamp,elapsed,label,responseCode,responseMessage,success,bytes,sentBytes,allThreads\n"
	"1000,10,a,200,OK,true,100,10,2\n"
	"1005,20,a,500,\"Server, \"\"sad\"\"\nerror\",false,100,10,3\n"
	"1002,30,t,,Number of samples in transaction : 2,true,200,20,3\n"
	"990,40,a,Non HTTP response code: java.net.ConnectException,Connection refused,false,0,0,3\n";

static void
test_jmeter_inline(void)
{
	struct load_result r;
	char *t;

	if (!good("a.jtl", jtl, LOAD_UNKNOWN, &r)) {
		EQ(r.requests, 3);	/* the transaction parent left out */
		EQ(r.status[2], 1);
		EQ(r.status[5], 1);
		EQ(r.errors, 1);
		EQ(r.status[0], 1);
		EQ(r.responses, 2);
		EQ(r.failed, 2);
		EQ(r.bytes_read, 200);
		EQ(r.bytes_written, 20);
		EQ(r.connections, 3);
		/* from 990 to 990 + 40 = 1030: 40 ms */
		EQ(r.time_taken_s, 0.04);
		EQ(r.lat_pct_us[PCT_50], 20000);	/* 10 20 40: rank 2 */
		EQ(r.lat_pct_us[PCT_999], 40000);
		load_result_free(&r);
	}
	if (!good("tab.jtl", "timeStamp\telapsed\tsuccess\n1000\t5\ttrue\n",
		  LOAD_UNKNOWN, &r)) {
		EQ(r.requests, 1);
		ISNAN(r.errors);	/* no responseCode column */
		ISNAN(r.status[2]);
		ISNAN(r.bytes_read);
		ISNAN(r.connections);
		load_result_free(&r);
	}
	bad_subst("ts.jtl", jtl, "1000,10", "2024/01/01 10:00:00,10", LOAD_UNKNOWN,
		  2, "'timeStamp' must be a whole number of epoch milliseconds");
	bad_subst("el.jtl", jtl, "1000,10", "1000,1.5", LOAD_UNKNOWN, 2,
		  "'elapsed' must be a whole number, not '1.5'");
	bad_subst("succ.jtl", jtl, "OK,true", "OK,yes", LOAD_UNKNOWN, 2,
		  "'success' must be 'true' or 'false', not 'yes'");
	/* the row after the two-line quoted field starts on line 5 */
	bad_subst("fields.jtl", jtl, "200,20,3", "200,20", LOAD_UNKNOWN, 5,
		  "8 fields where the header has 9");
	bad_subst("quote.jtl", jtl, "\"Server, ", "\"Server, \"x", LOAD_UNKNOWN, 3,
		  "text after a closing quote");
	bad_subst("open.jtl", jtl, "error\",false", "error,false", LOAD_UNKNOWN, 3,
		  "unterminated quoted field");
	/* 86400000 ms is a day, the longest latency read */
	bad_subst("day.jtl", jtl, "1000,10", "1000,86400001", LOAD_UNKNOWN, 2,
		  "'elapsed' is not a plausible time: '86400001'");
	t = subst(jtl, "1000,10", "1000,86400000");
	if (!good("dayok.jtl", t, LOAD_UNKNOWN, &r)) {
		EQ(r.lat_max_us, 86400000000.0);
		load_result_free(&r);
	}
	free(t);
	bad_subst("bytes.jtl", jtl, "OK,true,100", "OK,true,-100", LOAD_UNKNOWN, 2,
		  "'bytes' must be a whole number");
	bad("nohead.jtl", "1000,10,a,200,OK,true\n", LOAD_JMETER_CSV, 1,
	    "no 'timeStamp' column: not the header line of a JTL CSV");
	bad("dup.jtl", "timeStamp,elapsed,success,elapsed\n", LOAD_UNKNOWN, 1,
	    "column 'elapsed' given twice");
	bad("empty.jtl", "timeStamp,elapsed,success\n", LOAD_UNKNOWN, 0,
	    "no samples after the JTL header");
	{
		static const char nul[] = "timeStamp,elapsed,success\n1\0,1,true\n";
		struct load_result x;
		int rc;

		cap_begin();
		rc = load_parse("nul.jtl", nul, sizeof(nul) - 1, LOAD_UNKNOWN, &x);
		cap_end();
		CHECK(rc == -1 && str_startswith(captured, "erg: nul.jtl:2: error: "
						 "NUL byte"), "NUL byte refused");
	}
}

/*
 * The percentile method on tables worked by hand, streamed from a file
 * far larger than one read (64 KiB): 100000 samples, elapsed = i mod 1000
 * ms, so each of 0 .. 999 ms occurs 100 times and the value of rank k is
 * floor((k - 1) / 100).  Nearest rank ceil(p/100 n): p50 rank 50000 ->
 * 499, p75 74999 -> 749, p90 -> 899, p95 -> 949, p99 -> 989, p99.9 rank
 * 99900 -> 998.  Mean 499.5 ms; timeStamp = 1e12 + 10 i, so the span is
 * 999990 + 999 ms.
 */
static void
test_percentiles(void)
{
	char path[] = "/tmp/erg-test-jtl-XXXXXX";
	struct load_result r;
	FILE *f;
	int fd = mkstemp(path), i, rc;

	CHECK(fd >= 0, "temporary file");
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fprintf(f, "timeStamp,elapsed,label,success\n");
	for (i = 0; i < 100000; i++)
		fprintf(f, "%lld,%d,\"x\ny\",true\n", 1000000000000LL + 10LL * i,
			i % 1000);
	fclose(f);
	cap_begin();
	rc = load_read_file(path, LOAD_UNKNOWN, &r);
	cap_end();
	CHECK(rc == 0 && !captured[0], "100000-sample JTL streams");
	if (!rc) {
		EQ(r.requests, 100000);
		EQ(r.lat_pct_us[PCT_50], 499000);
		EQ(r.lat_pct_us[PCT_75], 749000);
		EQ(r.lat_pct_us[PCT_90], 899000);
		EQ(r.lat_pct_us[PCT_95], 949000);
		EQ(r.lat_pct_us[PCT_99], 989000);
		EQ(r.lat_pct_us[PCT_999], 998000);
		EQ(r.lat_mean_us, 499500);
		EQ(r.lat_min_us, 0);
		EQ(r.lat_max_us, 999000);
		EQ(r.time_taken_s, 1000.989);
		load_result_free(&r);
	}
	/* a bad row deep in the file: its line, past many reads (each row
	 * is two lines: the quoted label holds a line break) */
	f = fopen(path, "a");
	fprintf(f, "1,2,x,maybe\n");
	fclose(f);
	cap_begin();
	rc = load_read_file(path, LOAD_UNKNOWN, &r);
	cap_end();
	{
		char want[128];

		snprintf(want, sizeof(want), "erg: %s:200002: error: 'success' "
			 "must be 'true' or 'false', not 'maybe'\n", path);
		CHECK(rc == -1, "bad row refused");
		CHECK_STR(captured, want, "bad row located");
	}
	unlink(path);

	/* Above 65536 units a bucket spans 1/32768 of its value (2 ms at
	 * 100 s) and keeps its smallest and largest value.  100001, 100002,
	 * 100003, 100005 ms fall in [100000, 100002), [100002, 100004) (two)
	 * and [100004, 100006): every rank is the first or last of its
	 * bucket, so every percentile is exact (p50 rank 2 = 100002, p75
	 * rank 3 = 100003, p99.9 rank 4 = 100005).  In the histogram test
	 * below, 100002.5 joins the middle bucket: p50 of 5 (rank 3) lies
	 * inside it and is given as its smallest value, 100002, within
	 * 1/32768 of the true 100002.5. */
	if (!good("coarse.jtl", "timeStamp,elapsed,success\n0,100001,true\n"
		  "0,100003,true\n0,100005,true\n0,100002,true\n",
		  LOAD_UNKNOWN, &r)) {
		EQ(r.lat_pct_us[PCT_50], 100002000);
		EQ(r.lat_pct_us[PCT_75], 100003000);
		EQ(r.lat_pct_us[PCT_999], 100005000);
		EQ(r.lat_min_us, 100001000);
		EQ(r.lat_mean_us, 100002750);
		load_result_free(&r);
	}
	{
		struct load_hist h;
		static const double us[] = { 100001000, 100003000, 100005000,
					     100002000, 100002500 };
		size_t k;

		load_hist_init(&h, 1000);
		for (k = 0; k < 5; k++)
			load_hist_add(&h, us[k]);
		EQ(load_hist_pct(&h, 50), 100002000);	/* inside: smallest */
		EQ(load_hist_pct(&h, 80), 100003000);	/* rank 4: last */
		EQ(load_hist_pct(&h, 20), 100001000);
		load_hist_free(&h);
	}
}

/* ---- outputs made for these tests (tests/data/load, tests/README.md) -- */

static int
data_file(const char *name, struct load_result *r)
{
	char path[256];
	int rc;

	snprintf(path, sizeof(path), "tests/data/load/%s", name);
	cap_begin();
	rc = load_read_file(path, LOAD_UNKNOWN, r);
	cap_end();
	CHECK(rc == 0 && !captured[0], "%s reads without diagnostics", name);
	if (rc || captured[0])
		show_captured();
	return rc;
}

static void
test_made_here(void)
{
	struct load_result r;

	if (!data_file("ab2.3-deb_nginx1.22_-k_c8_n2000.txt", &r)) {
		/* Complete requests: 2000; Keep-Alive requests: 2000 (a line
		 * erg passes over); Total: 0 0 0.2 0 2; 99% 1 */
		EQ(r.requests, 2000);
		EQ(r.status[2], 2000);
		EQ(r.time_taken_s, 0.041);
		EQ(r.rps_mean, 48412.08);
		EQ(r.bytes_read, 6014000);
		EQ(r.lat_mean_us, 0);	/* ab's whole ms: a real 0, reported */
		EQ(r.lat_sd_us, 200);
		EQ(r.lat_max_us, 2000);
		EQ(r.lat_pct_us[PCT_99], 1000);
		load_result_free(&r);
	}
	if (!data_file("hey0.1.4-deb_nginx1.22_c6_n600_all-404.txt", &r)) {
		/* [404]	600 responses; "10% in 0.0000 secs" is a real row */
		EQ(r.requests, 600);
		EQ(r.status[4], 600);
		EQ(r.status[2], 0);
		EQ(r.lat_min_us, 0);	/* Fastest: 0.0000 secs, with responses */
		EQ(r.lat_pct_us[PCT_50], 100);
		EQ(r.lat_pct_us[PCT_99], 900);
		EQ(r.bytes_read, 91800);
		load_result_free(&r);
	}
	if (!data_file("hey0.1.4-deb_nginx1.22_c10_n1000_-o-csv.csv", &r)) {
		/* Python: 1000 rows of 200; mean 801.5 us, sd
		 * 2354.419470069223, min 0, max 16200; nearest rank 300 400
		 * 600 3100 15800 16200; last end 0.0829 s */
		EQ(r.responses, 1000);
		EQ(r.status[2], 1000);
		CHECK_NEAR(r.lat_mean_us, 801.5, 1e-6, "hey CSV nginx mean");
		CHECK_NEAR(r.lat_sd_us, 2354.419470069223, 1e-6, "hey CSV nginx sd");
		EQ(r.lat_min_us, 0);
		CHECK_NEAR(r.lat_max_us, 16200, 1e-6, "hey CSV nginx max");
		CHECK_NEAR(r.lat_pct_us[PCT_50], 300, 1e-6, "nginx p50");
		CHECK_NEAR(r.lat_pct_us[PCT_75], 400, 1e-6, "nginx p75");
		CHECK_NEAR(r.lat_pct_us[PCT_90], 600, 1e-6, "nginx p90");
		CHECK_NEAR(r.lat_pct_us[PCT_95], 3100, 1e-6, "nginx p95");
		CHECK_NEAR(r.lat_pct_us[PCT_99], 15800, 1e-6, "nginx p99");
		CHECK_NEAR(r.lat_pct_us[PCT_999], 16200, 1e-6, "nginx p99.9");
		CHECK_NEAR(r.time_taken_s, 0.0829, 1e-12, "nginx span");
		load_result_free(&r);
	}
}

static void
test_detect_new(void)
{
	static const struct {
		const char *text;
		enum load_tool t;
	} c[] = {
		{ "{\"metrics\":{},\"root_group\":{}}", LOAD_K6_JSON },
		{ "{\"state\":{},\"metrics\":{}}", LOAD_K6_JSON },
		{ "{\"metric\":\"vus\",\"type\":\"Point\",\"data\":{}}\n", LOAD_K6_NDJSON },
		{ "{\"latencies\":{},\"status_codes\":{}}", LOAD_VEGETA_JSON },
		{ "This is ApacheBench, Version 2.3\n", LOAD_AB_TEXT },
		{ "\nSummary:\n  Total:\t1 secs\n  Requests/sec:\t1\n", LOAD_HEY_TEXT },
		{ "response-time,DNS+dialup,DNS,Request-write,Response-delay,"
		  "Response-read,status-code,offset\r\n", LOAD_HEY_CSV },
		{ "timeStamp,elapsed,success\n", LOAD_JMETER_CSV },
		{ "\xef\xbb\xbftimeStamp\telapsed\tsuccess\n", LOAD_JMETER_CSV },
		{ "time,elapsed\n", LOAD_UNKNOWN },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECK(load_detect(c[i].text, strlen(c[i].text)) == c[i].t,
		      "detect case %zu as %s", i, load_tool_name(c[i].t));
	CHECK(load_tool_from_name("jmeter") == LOAD_JMETER_CSV, "jmeter name");
	CHECK(load_tool_from_name("k6-ndjson") == LOAD_K6_NDJSON, "k6-ndjson name");
	CHECK(load_tool_from_name("hey-csv") == LOAD_HEY_CSV, "hey-csv name");
}

int
main(void)
{
	test_k6_samples();
	test_k6_inline();
	test_ab_samples();
	test_ab_inline();
	test_hey_samples();
	test_hey_inline();
	test_vegeta();
	test_jmeter_samples();
	test_jmeter_inline();
	test_percentiles();
	test_made_here();
	test_detect_new();
	return th_done();
}
