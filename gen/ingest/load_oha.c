/*
 * load_oha.c - oha's JSON output (--output-format json, formerly -j),
 * formats.md §3.
 *
 * Every duration is in seconds (converted here); non-finite values are
 * written as null and read as NAN.
 *
 * Mapping: responses = sum of statusCodeDistribution; errors = sum of
 * errorDistribution except "aborted due to deadline", which are requests
 * still in flight when -z ended the run: oha leaves them out of its
 * successRate, and erg keeps them out of requests and errors too (they are
 * in `aborted`).  requests = responses + errors; status classes from the
 * status-code keys, with codes outside 100-599 and the errors in status[0].
 * Latency: mean = summary.average (successful requests only, as oha
 * computes it), min = fastest, max = slowest, no standard deviation;
 * percentiles from latencyPercentiles.  rps from "rps" (10 ms windows).
 * bytes_read = summary.totalData, which counts response BODY bytes only
 * (bytes_kind LOAD_BYTES_BODY), unlike the wire bytes of the other tools.
 * The URL, connections, duration and rate limit are not in the output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "ingest/load.h"

#define DEADLINE_ERROR "aborted due to deadline"

static int
read_summary(const struct jdoc *j, const struct jpos *root,
	     struct load_result *r)
{
	struct jpos sum;
	double ok = NAN;

	if (jdoc_object(j, root, "summary", JD_REQ, &sum) < 0)
		return -1;
	if (jdoc_real(j, &sum, "successRate", JD_NULL | JD_NONNEG, &ok) < 0 ||
	    jdoc_real(j, &sum, "total", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->time_taken_s) < 0 ||
	    jdoc_real(j, &sum, "slowest", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->lat_max_us) < 0 ||
	    jdoc_real(j, &sum, "fastest", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->lat_min_us) < 0 ||
	    jdoc_real(j, &sum, "average", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->lat_mean_us) < 0 ||
	    jdoc_count(j, &sum, "totalData", JD_REQ, &r->bytes_read) < 0)
		return -1;
	r->lat_max_us *= 1e6;
	r->lat_min_us *= 1e6;
	r->lat_mean_us *= 1e6;
	return 0;
}

static int
read_percentiles(const struct jdoc *j, const struct jpos *root,
		 struct load_result *r)
{
	static const char *const keys[PCT_N] = { "p50", "p75", "p90", "p95",
						 "p99", "p99.9" };
	struct jpos pct;
	size_t i;
	int rc = jdoc_object(j, root, "latencyPercentiles", 0, &pct);

	if (rc <= 0)
		return rc;
	for (i = 0; i < PCT_N; i++) {
		if (jdoc_real(j, &pct, keys[i], JD_NULL | JD_NONNEG,
			       &r->lat_pct_us[i]) < 0)
			return -1;
		r->lat_pct_us[i] *= 1e6;
	}
	return 0;
}

static int
read_rps(const struct jdoc *j, const struct jpos *root,
	 struct load_result *r)
{
	struct jpos rps;
	int rc = jdoc_object(j, root, "rps", 0, &rps);

	if (rc <= 0)
		return rc;
	if (jdoc_real(j, &rps, "mean", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->rps_mean) < 0 ||
	    jdoc_real(j, &rps, "stddev", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->rps_sd) < 0 ||
	    jdoc_real(j, &rps, "max", JD_REQ | JD_NULL | JD_NONNEG,
		       &r->rps_max) < 0)
		return -1;
	return 0;
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
read_status(const struct jdoc *j, const struct jpos *root,
	    struct load_result *r)
{
	struct jpos dist, m;
	const char *key;
	json_t *v;
	size_t i;

	if (jdoc_object(j, root, "statusCodeDistribution", JD_REQ, &dist) < 0)
		return -1;
	for (i = 0; i < 6; i++)
		r->status[i] = 0;
	json_object_foreach(dist.v, key, v) {
		double n;
		int code = status_code(key);

		m.up = &dist;
		m.key = key;
		m.idx = 0;
		m.v = v;
		if (code < 0)
			return jdoc_error(j, &m, "is not an HTTP status code");
		if (jdoc_count_value(j, &m, &n))
			return -1;
		r->status[code >= 100 && code < 600 ? code / 100 : 0] += n;
	}
	return 0;
}

static int
read_errors(const struct jdoc *j, const struct jpos *root,
	    struct load_result *r)
{
	struct jpos dist, m;
	const char *key;
	json_t *v;

	if (jdoc_object(j, root, "errorDistribution", JD_REQ, &dist) < 0)
		return -1;
	r->errors = r->aborted = 0;
	json_object_foreach(dist.v, key, v) {
		double n;

		m.up = &dist;
		m.key = key;
		m.idx = 0;
		m.v = v;
		if (jdoc_count_value(j, &m, &n))
			return -1;
		if (!strcmp(key, DEADLINE_ERROR))
			r->aborted += n;
		else
			r->errors += n;
	}
	return 0;
}

int
load_oha_json(const char *path, const char *data, size_t len,
	      struct load_result *r)
{
	struct jdoc j;
	struct jpos root;
	size_t s = load_json_start(data, len, 0), i;
	long line0 = 0;
	int ret = -1;

	if (s >= len || data[s] != '{')
		return error_at(path, 0, "oha output must be a JSON object");
	for (i = 0; i < s; i++)
		line0 += data[i] == '\n';
	if (load_json_parse(&j, path, data + s, len - s, line0, 0))
		return -1;
	r->tool = LOAD_OHA_JSON;
	r->bytes_kind = LOAD_BYTES_BODY;
	jdoc_root(&j, &root);
	if (read_summary(&j, &root, r) || read_percentiles(&j, &root, r) ||
	    read_rps(&j, &root, r) || read_status(&j, &root, r) ||
	    read_errors(&j, &root, r))
		goto out;
	r->responses = 0;
	for (i = 1; i < 6; i++)
		r->responses += r->status[i];
	r->responses += r->status[0];	/* odd codes: still responses */
	r->requests = r->responses + r->errors;
	r->status[0] += r->errors;
	ret = 0;
out:
	jdoc_free(&j);
	return ret;
}
