/*
 * load_autocannon.c - autocannon's JSON output (-j), formats.md §4.
 *
 * Mapping: responses = requests.total (every completed response, any
 * status); errors = "errors" (connection errors and timeouts; "timeouts" is
 * a subset, kept in `timeouts`); requests = responses + errors; status
 * classes from "1xx".."5xx", status[0] = errors plus any response outside
 * them.  Latency is in ms recorded into an integer histogram (sub-ms
 * samples read 0): converted to microseconds as written, p95 is not
 * reported, p99.9 is "p99_9" or, in older versions, "p999"; a run without a single response (latency.totalCount 0) gets
 * NAN latencies instead of autocannon's zeros.  rps = the per-sample
 * request counts scaled from sampleInt to one second.  bytes_read =
 * throughput.total, bytes as read from the socket (headers and bodies).
 * time_taken_s = finish - start (ms precision) when both are readable,
 * else "duration" (rounded to 0.01 s); the two more than 0.02 s apart (or
 * finish before start) are an error at "finish".  The configured -d and any rate
 * limit are not in the output: duration_s is NAN, mode unknown.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"
#include "base/util.h"

static int
digits(const char **p, int n, long *v)
{
	*v = 0;
	while (n--) {
		if (**p < '0' || **p > '9')
			return -1;
		*v = *v * 10 + (**p - '0');
		(*p)++;
	}
	return 0;
}

/* "2026-12-02T07:57:52.307Z" -> whole Unix seconds and the fraction (kept
 * apart so that finish - start stays exact to the millisecond). */
static int
parse_iso_utc(const char *s, long long *whole, double *frac)
{
	long y, mo, d, h, mi, se;
	double scale = 0.1;

	*frac = 0;
	if (digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) ||
	    *s++ != '-' || digits(&s, 2, &d) || *s++ != 'T' ||
	    digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi) ||
	    *s++ != ':' || digits(&s, 2, &se))
		return -1;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, scale /= 10)
			*frac += (*s - '0') * scale;
	}
	if (strcmp(s, "Z") || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 23 || mi > 59 || se > 60)
		return -1;
	*whole = (long long)days_from_civil(y, mo, d) * 86400 +
		 h * 3600 + mi * 60 + se;
	return 0;
}

struct iso_time {
	int ok;
	long long whole;
	double frac;
};

static int
read_time(const struct jdoc *j, const struct jpos *root, const char *key,
	  struct iso_time *t)
{
	char *s = NULL;
	struct jpos p;
	int rc = jdoc_string(j, root, key, 0, &s);

	t->ok = 0;
	if (rc <= 0)
		return rc;
	if (parse_iso_utc(s, &t->whole, &t->frac)) {
		jdoc_get(j, root, key, 0, &p);
		jdoc_error(j, &p, "is not an ISO-8601 UTC time like "
			    "'2026-12-02T07:57:52.307Z'");
		free(s);
		return -1;
	}
	t->ok = 1;
	free(s);
	return 1;
}

static int
read_latency(const struct jdoc *j, const struct jpos *root,
	     struct load_result *r)
{
	static const char *const keys[PCT_N] = { "p50", "p75", "p90", NULL,
						 "p99", "p99_9" };
	struct jpos lat, p;
	double count = NAN;
	size_t i;

	if (jdoc_object(j, root, "latency", JD_REQ, &lat) < 0 ||
	    jdoc_real(j, &lat, "mean", JD_REQ | JD_NONNEG, &r->lat_mean_us) < 0 ||
	    jdoc_real(j, &lat, "stddev", JD_REQ | JD_NONNEG, &r->lat_sd_us) < 0 ||
	    jdoc_real(j, &lat, "min", JD_NONNEG, &r->lat_min_us) < 0 ||
	    jdoc_real(j, &lat, "max", JD_REQ | JD_NONNEG, &r->lat_max_us) < 0 ||
	    jdoc_count(j, &lat, "totalCount", 0, &count) < 0)
		return -1;
	for (i = 0; i < PCT_N; i++)
		if (keys[i] && jdoc_real(j, &lat, keys[i], JD_NONNEG,
					  &r->lat_pct_us[i]) < 0)
			return -1;
	/* autocannon before the p99_9 spelling wrote the same figure as
	 * p999; a file with both holds two values for one percentile */
	if (jdoc_get(j, &lat, "p999", 0, &p) > 0) {
		if (!isnan(r->lat_pct_us[PCT_999]))
			return jdoc_error(j, &p, "and 'latency.p99_9' are the "
					  "same percentile: give one");
		if (jdoc_real(j, &lat, "p999", JD_NONNEG,
			      &r->lat_pct_us[PCT_999]) < 0)
			return -1;
	}
	r->lat_mean_us *= 1e3;
	r->lat_sd_us *= 1e3;
	r->lat_min_us *= 1e3;
	r->lat_max_us *= 1e3;
	for (i = 0; i < PCT_N; i++)
		r->lat_pct_us[i] *= 1e3;
	if (count == 0) {	/* nothing measured: autocannon prints zeros */
		r->lat_mean_us = r->lat_sd_us = r->lat_min_us = NAN;
		r->lat_max_us = NAN;
		for (i = 0; i < PCT_N; i++)
			r->lat_pct_us[i] = NAN;
	}
	return 0;
}

int
load_autocannon_json(const char *path, const char *data, size_t len,
		     struct load_result *r)
{
	static const char *const cls[] = { NULL, "1xx", "2xx", "3xx", "4xx",
					   "5xx" };
	struct jdoc j;
	struct jpos root, req, thr, p;
	double sample_ms = 1000, duration = NAN, classes = 0;
	struct iso_time start, finish;
	size_t s = load_json_start(data, len, 0), i;
	long line0 = 0;
	int ret = -1, rc;

	if (s >= len || data[s] != '{')
		return error_at(path, 0, "autocannon output must be a JSON "
				"object (autocannon text output is not "
				"supported; use -j)");
	for (i = 0; i < s; i++)
		line0 += data[i] == '\n';
	if (load_json_parse(&j, path, data + s, len - s, line0, 0))
		return -1;
	r->tool = LOAD_AUTOCANNON_JSON;
	r->bytes_kind = LOAD_BYTES_WIRE;
	jdoc_root(&j, &root);
	if (jdoc_string(&j, &root, "url", 0, &r->url) < 0 ||
	    jdoc_count(&j, &root, "connections", JD_REQ, &r->connections) < 0 ||
	    jdoc_real(&j, &root, "duration", JD_REQ | JD_NONNEG, &duration) < 0 ||
	    read_time(&j, &root, "start", &start) < 0 ||
	    read_time(&j, &root, "finish", &finish) < 0 ||
	    jdoc_count(&j, &root, "errors", JD_REQ, &r->errors) < 0 ||
	    jdoc_count(&j, &root, "timeouts", 0, &r->timeouts) < 0)
		goto out;
	rc = jdoc_real(&j, &root, "sampleInt", 0, &sample_ms);
	if (rc < 0)
		goto out;
	if (rc && !(sample_ms > 0)) {
		jdoc_get(&j, &root, "sampleInt", 0, &p);
		jdoc_error(&j, &p, "must be a positive number of "
			    "milliseconds");
		goto out;
	}
	for (i = 1; i < 6; i++) {
		if (jdoc_count(&j, &root, cls[i], JD_REQ, &r->status[i]) < 0)
			goto out;
		classes += r->status[i];
	}
	if (read_latency(&j, &root, r) ||
	    jdoc_object(&j, &root, "requests", JD_REQ, &req) < 0 ||
	    jdoc_count(&j, &req, "total", JD_REQ, &r->responses) < 0 ||
	    jdoc_real(&j, &req, "mean", JD_REQ | JD_NONNEG, &r->rps_mean) < 0 ||
	    jdoc_real(&j, &req, "stddev", JD_REQ | JD_NONNEG, &r->rps_sd) < 0 ||
	    jdoc_real(&j, &req, "max", JD_REQ | JD_NONNEG, &r->rps_max) < 0 ||
	    jdoc_object(&j, &root, "throughput", JD_REQ, &thr) < 0 ||
	    jdoc_count(&j, &thr, "total", JD_REQ, &r->bytes_read) < 0)
		goto out;
	r->rps_mean *= 1000 / sample_ms;
	r->rps_sd *= 1000 / sample_ms;
	r->rps_max *= 1000 / sample_ms;
	if (classes > r->responses) {
		jdoc_get(&j, &req, "total", 0, &p);
		char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

		jdoc_error(&j, &p, "(%s) is smaller than the 1xx-5xx counts "
			    "together (%s)", num_text(a, r->responses), num_text(b, classes));
		goto out;
	}
	r->requests = r->responses + r->errors;
	r->status[0] = r->errors + (r->responses - classes);
	r->time_taken_s = duration;
	if (start.ok && finish.ok) {
		double d = (double)(finish.whole - start.whole) +
			   (finish.frac - start.frac);
		char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

		/* autocannon writes duration as finish - start rounded to
		 * 0.01 s (every sample in ../shared); more than 0.02 s apart,
		 * one of them is not this run's */
		if (!(d >= 0) || fabs(d - duration) > 0.02) {
			jdoc_get(&j, &root, "finish", 0, &p);
			jdoc_error(&j, &p, "is %s s after 'start', but 'duration' is %s s",
				   num_text(a, d), num_text(b, duration));
			goto out;
		}
		r->time_taken_s = d;
	}
	ret = 0;
out:
	jdoc_free(&j);
	return ret;
}
