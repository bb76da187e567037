/*
 * load_k6.c - k6 (load-formats-2.md §1): the end-of-test summary as
 * --summary-export writes it (the legacy shape: each metric is its values)
 * or as handleSummary receives it (top-level "state"; each metric holds
 * "type", "contains" and "values"), and the --out json points (NDJSON, one
 * object a line), summarised while streamed.
 *
 * Summary mapping: requests = http_reqs.count, rps_mean = http_reqs.rate;
 * failed = http_req_failed.passes (k6 counts a *failed* request as a pass
 * of that rate: no response, or a status outside expected_response,
 * 200-399 by default).  The summary cannot tell a transport error from an
 * unexpected status, so status[] and errors are not reported, responses
 * is set to requests and non_2xx_3xx to the failed count, as wrk's one
 * status figure is (session.c then counts requests - failed as answered
 * 2xx or 3xx).  Latency: "http_req_duration{expected_response:true}" when
 * the file has it (failed requests enter http_req_duration with ~0 ms),
 * else http_req_duration; avg, min, med (p50), max and whichever of
 * p(75), p(90), p(95), p(99), p(99.9) summaryTrendStats asked for; no SD.
 * connections = vus_max; bytes = data_received / data_sent (wire).
 * time_taken_s = state.testRunDurationMs (handleSummary); the legacy
 * export has no duration, and count / rate gives it back exactly (k6
 * divides the count by the test-run duration).
 *
 * Points mapping: requests = sum of http_reqs values, status classes from
 * their "status" tag ("0" = no response: errors), failed = sum of
 * http_req_failed values; latency over the http_req_duration points with
 * expected_response "true" when the points carry that tag, else over all,
 * by load_stream.c's nearest-rank method at 1 us; time_taken_s = first to
 * last point of any metric; rps_mean = requests / time_taken_s.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"

#define DURATION "http_req_duration"
#define DURATION_OK "http_req_duration{expected_response:true}"

/* ---- summary ---------------------------------------------------------- */

/* The values object of metric `name`: 1, 0 when absent, -1 on error. */
static int
metric(const struct jdoc *j, const struct jpos *metrics, const char *name,
       int hs, struct jpos *m, struct jpos *vals)
{
	int rc = jdoc_object(j, metrics, name, 0, m);

	if (rc <= 0)
		return rc;
	if (!hs) {
		*vals = *m;
		return 1;
	}
	return jdoc_object(j, m, "values", JD_REQ, vals) < 0 ? -1 : 1;
}

static int
read_latency(const struct jdoc *j, const struct jpos *metrics, int hs,
	     struct load_result *r)
{
	static const char *const keys[PCT_N] = { "med", "p(75)", "p(90)",
						 "p(95)", "p(99)", "p(99.9)" };
	struct jpos m, v;
	size_t i;
	int rc, ok = 1;

	rc = metric(j, metrics, DURATION_OK, hs, &m, &v);
	if (rc == 0)
		rc = metric(j, metrics, DURATION, hs, &m, &v);
	else
		ok = !(r->failed >= r->requests);	/* no good response */
	if (rc <= 0)
		return rc;
	if (jdoc_real(j, &v, "avg", JD_NONNEG, &r->lat_mean_us) < 0 ||
	    jdoc_real(j, &v, "min", JD_NONNEG, &r->lat_min_us) < 0 ||
	    jdoc_real(j, &v, "max", JD_NONNEG, &r->lat_max_us) < 0)
		return -1;
	for (i = 0; i < PCT_N; i++)
		if (jdoc_real(j, &v, keys[i], JD_NONNEG, &r->lat_pct_us[i]) < 0)
			return -1;
	if (isnan(r->lat_pct_us[PCT_50]) &&
	    jdoc_real(j, &v, "p(50)", JD_NONNEG, &r->lat_pct_us[PCT_50]) < 0)
		return -1;
	r->lat_mean_us *= 1e3;
	r->lat_min_us *= 1e3;
	r->lat_max_us *= 1e3;
	for (i = 0; i < PCT_N; i++)
		r->lat_pct_us[i] = ok ? r->lat_pct_us[i] * 1e3 : NAN;
	if (!ok)
		r->lat_mean_us = r->lat_min_us = r->lat_max_us = NAN;
	return 0;
}

int
load_k6_json(const char *path, const char *data, size_t len,
	     struct load_result *r)
{
	struct jdoc j;
	struct jpos root, metrics, m, v, st;
	size_t s = load_json_start(data, len, 0), i;
	long line0 = 0;
	int ret = -1, hs, rc;
	double passes = NAN, fails = NAN, ms = NAN;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	if (s >= len || data[s] != '{')
		return error_at(path, 0, "k6 summary must be a JSON object");
	for (i = 0; i < s; i++)
		line0 += data[i] == '\n';
	if (load_json_parse(&j, path, data + s, len - s, line0, 0))
		return -1;
	r->tool = LOAD_K6_JSON;
	r->bytes_kind = LOAD_BYTES_WIRE;
	jdoc_root(&j, &root);
	hs = json_object_get(root.v, "state") != NULL ||
	     json_object_get(root.v, "options") != NULL;
	if (jdoc_object(&j, &root, "metrics", JD_REQ, &metrics) < 0)
		goto out;
	rc = metric(&j, &metrics, "http_reqs", hs, &m, &v);
	if (rc < 0)
		goto out;
	if (!rc) {
		jdoc_error(&j, &metrics, "has no 'http_reqs': not the summary "
			   "of an HTTP test");
		goto out;
	}
	if (jdoc_count(&j, &v, "count", JD_REQ, &r->requests) < 0 ||
	    jdoc_real(&j, &v, "rate", JD_REQ | JD_NONNEG, &r->rps_mean) < 0)
		goto out;
	rc = metric(&j, &metrics, "http_req_failed", hs, &m, &v);
	if (rc < 0 || (rc && (jdoc_count(&j, &v, "passes", JD_REQ, &passes) < 0 ||
			      jdoc_count(&j, &v, "fails", JD_REQ, &fails) < 0)))
		goto out;
	if (rc && passes + fails != r->requests) {
		jdoc_error(&j, &v, "counts %s requests (passes + fails), "
			   "'http_reqs' %s", num_text(a, passes + fails),
			   num_text(b, r->requests));
		goto out;
	}
	r->failed = passes;
	r->non_2xx_3xx = passes;
	r->responses = r->requests;
	if (read_latency(&j, &metrics, hs, r))
		goto out;
	rc = metric(&j, &metrics, "vus_max", hs, &m, &v);
	if (rc < 0 || (rc && jdoc_count(&j, &v, "value", JD_REQ,
					&r->connections) < 0))
		goto out;
	rc = metric(&j, &metrics, "data_received", hs, &m, &v);
	if (rc < 0 || (rc && jdoc_count(&j, &v, "count", JD_REQ,
					&r->bytes_read) < 0))
		goto out;
	rc = metric(&j, &metrics, "data_sent", hs, &m, &v);
	if (rc < 0 || (rc && jdoc_count(&j, &v, "count", JD_REQ,
					&r->bytes_written) < 0))
		goto out;
	rc = jdoc_object(&j, &root, "state", 0, &st);
	if (rc < 0 || (rc && jdoc_real(&j, &st, "testRunDurationMs",
				       JD_NONNEG, &ms) < 0))
		goto out;
	if (!isnan(ms))
		r->time_taken_s = ms / 1e3;
	else if (r->rps_mean > 0)
		r->time_taken_s = r->requests / r->rps_mean;
	ret = 0;
out:
	jdoc_free(&j);
	return ret;
}

/* ---- points ----------------------------------------------------------- */

struct points {
	const char *path;
	struct load_hist all, ok;
	int tagged;		/* some duration point carries expected_response */
	double requests, status[6], nostatus, failed, failed_seen;
	double bytes_in, bytes_out, vus_max;
	long long t0;		/* whole seconds of the first point */
	int have_t;
	double tmin, tmax;	/* seconds after t0 */
};

static void *
points_open(const char *path)
{
	struct points *k = xmalloc(sizeof(*k));

	memset(k, 0, sizeof(*k));
	k->path = path;
	load_hist_init(&k->all, 1);
	load_hist_init(&k->ok, 1);
	k->vus_max = NAN;
	return k;
}

static void
points_close(void *st)
{
	struct points *k = st;

	load_hist_free(&k->all);
	load_hist_free(&k->ok);
	free(k);
}

/* "200" -> 200; -1 unless 1 to 3 digits. */
static int
status_code(const char *s)
{
	int v = 0, n = 0;

	for (; *s; s++, n++) {
		if (*s < '0' || *s > '9' || n >= 3)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return n ? v : -1;
}

static int
point(struct points *k, const struct jdoc *j, const struct jpos *root,
      const char *name)
{
	struct jpos d, tags, p;
	char *time = NULL, *status = NULL, *exp = NULL;
	double value, t;
	long long whole;
	int rc, ret = -1;

	if (jdoc_object(j, root, "data", JD_REQ, &d) < 0 ||
	    jdoc_real(j, &d, "value", JD_REQ, &value) < 0 ||
	    jdoc_string(j, &d, "time", JD_REQ, &time) < 0)
		goto out;
	if (load_rfc3339(time, &whole, &t)) {
		jdoc_get(j, &d, "time", 0, &p);
		jdoc_error(j, &p, "is not an RFC 3339 time like "
			   "'2024-08-21T03:13:39.74173671-03:00'");
		goto out;
	}
	if (!k->have_t) {
		k->t0 = whole;
		k->have_t = 1;
		k->tmin = k->tmax = t;
	}
	t += (double)(whole - k->t0);
	if (t < k->tmin)
		k->tmin = t;
	if (t > k->tmax)
		k->tmax = t;
	rc = jdoc_object(j, &d, "tags", JD_NULL, &tags);
	if (rc < 0)
		goto out;
	if (rc && (jdoc_string(j, &tags, "status", JD_NULL, &status) < 0 ||
		   jdoc_string(j, &tags, "expected_response", JD_NULL, &exp) < 0))
		goto out;
	jdoc_get(j, &d, "value", 0, &p);
	if (!strcmp(name, "http_reqs")) {
		int code = status ? status_code(status) : -2;

		if (jdoc_count_value(j, &p, &value))
			goto out;
		if (code == -1) {
			jdoc_get(j, &tags, "status", 0, &p);
			jdoc_error(j, &p, "is not an HTTP status code");
			goto out;
		}
		k->requests += value;
		if (code == -2)
			k->nostatus += value;
		else
			k->status[code >= 100 && code < 600 ? code / 100 : 0] += value;
	} else if (!strcmp(name, "http_req_failed")) {
		if (value != 0 && value != 1) {
			jdoc_error(j, &p, "must be 0 or 1");
			goto out;
		}
		k->failed += value;
		k->failed_seen = 1;
	} else if (!strcmp(name, DURATION)) {
		if (value < 0 || load_hist_add(&k->all, value * 1e3)) {
			jdoc_error(j, &p, "is not a plausible duration in ms");
			goto out;
		}
		if (exp) {
			k->tagged = 1;
			if (!strcmp(exp, "true"))
				load_hist_add(&k->ok, value * 1e3);
		}
	} else if (!strcmp(name, "data_received") || !strcmp(name, "data_sent")) {
		if (jdoc_count_value(j, &p, &value))
			goto out;
		*(name[5] == 'r' ? &k->bytes_in : &k->bytes_out) += value;
	} else if (!strcmp(name, "vus_max")) {
		if (jdoc_count_value(j, &p, &value))
			goto out;
		if (isnan(k->vus_max) || value > k->vus_max)
			k->vus_max = value;
	}
	ret = 0;
out:
	free(time);
	free(status);
	free(exp);
	return ret;
}

static int
points_record(void *st, char *s, size_t n, long line)
{
	struct points *k = st;
	struct jdoc j;
	struct jpos root, p;
	char *type = NULL, *name = NULL;
	int ret = -1;

	if (!n)
		return error_at(k->path, line, "empty line in k6 --out json "
				"output");
	if (jdoc_load(&j, k->path, s, n, line - 1, 0))
		return -1;
	jdoc_root(&j, &root);
	if (jdoc_string(&j, &root, "type", JD_REQ, &type) < 0 ||
	    jdoc_string(&j, &root, "metric", JD_REQ, &name) < 0)
		goto out;
	if (!strcmp(type, "Point")) {
		ret = point(k, &j, &root, name);
	} else if (!strcmp(type, "Metric")) {
		ret = jdoc_object(&j, &root, "data", JD_REQ, &p) < 0 ? -1 : 0;
	} else {
		jdoc_get(&j, &root, "type", 0, &p);
		jdoc_error(&j, &p, "must be 'Metric' or 'Point'");
	}
out:
	free(type);
	free(name);
	jdoc_free(&j);
	return ret;
}

static int
points_end(void *st, long lines, struct load_result *r)
{
	struct points *k = st;
	size_t i;

	(void)lines;
	r->tool = LOAD_K6_NDJSON;
	r->bytes_kind = LOAD_BYTES_WIRE;
	if (!(k->requests > 0))
		return error_at(k->path, 0, "no 'http_reqs' points: not the "
				"--out json of an HTTP test");
	r->requests = k->requests;
	if (k->nostatus == 0) {
		for (i = 0; i < 6; i++)
			r->status[i] = k->status[i];
		r->errors = k->status[0];
		r->responses = r->requests - r->errors;
	}
	if (k->failed_seen)
		r->failed = k->failed;
	r->bytes_read = k->bytes_in;
	r->bytes_written = k->bytes_out;
	r->connections = k->vus_max;
	r->time_taken_s = k->tmax - k->tmin;
	if (r->time_taken_s > 0)
		r->rps_mean = r->requests / r->time_taken_s;
	load_hist_result(k->tagged ? &k->ok : &k->all, r);
	return 0;
}

const struct load_stream_ops load_k6_ndjson_ops = {
	0, points_open, points_record, points_end, points_close
};
