/*
 * load_vegeta.c - `vegeta report -type=json` (load-formats-2.md §4).
 *
 * Latencies, duration and wait are whole nanoseconds.  Mapping: requests
 * = "requests"; status classes from "status_codes" (their sum must be
 * requests), where code "0" means no response: those are the transport
 * errors (status[0], errors), responses = requests - errors.  failed =
 * requests x (1 - success): vegeta's success counts 2xx and 3xx only.
 * Latency: mean, min, max, 50th, 90th, 95th, 99th (old versions: no min,
 * no 90th); no SD, p75 or p99.9.  time_taken_s = duration + wait (the
 * attack plus the drain of the last responses); rps_mean = "rate"
 * (requests / attack duration, the rate vegeta offered and achieved).
 * Bytes: bytes_in.total and bytes_out.total (bodies only).  Fixed-rate
 * open loop; the target rate itself is not in the report.  A report of
 * no request at all (vegeta leaves every field zero) is an error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"

static int
read_latencies(const struct jdoc *j, const struct jpos *root,
	       struct load_result *r)
{
	static const char *const keys[PCT_N] = { "50th", NULL, "90th", "95th",
						 "99th", NULL };
	struct jpos lat;
	double total;
	size_t i;

	/* total: the sum of every latency in ns, an int64 that passes 2^53
	 * (104 days summed: 1.2 M requests of 7.5 s) in a long saturated
	 * run; not used, so not held to a count's bound */
	if (jdoc_object(j, root, "latencies", JD_REQ, &lat) < 0 ||
	    jdoc_real(j, &lat, "total", JD_REQ | JD_NONNEG, &total) < 0 ||
	    jdoc_count(j, &lat, "mean", JD_REQ, &r->lat_mean_us) < 0 ||
	    jdoc_count(j, &lat, "max", JD_REQ, &r->lat_max_us) < 0 ||
	    jdoc_count(j, &lat, "min", 0, &r->lat_min_us) < 0)
		return -1;
	for (i = 0; i < PCT_N; i++)
		if (keys[i] && jdoc_count(j, &lat, keys[i],
					   i == PCT_90 ? 0 : JD_REQ,
					   &r->lat_pct_us[i]) < 0)
			return -1;
	r->lat_mean_us /= 1e3;
	r->lat_max_us /= 1e3;
	r->lat_min_us /= 1e3;
	for (i = 0; i < PCT_N; i++)
		r->lat_pct_us[i] /= 1e3;
	return 0;
}

static int
read_status(const struct jdoc *j, const struct jpos *root,
	    struct load_result *r)
{
	struct jpos dist, m;
	const char *key;
	json_t *v;
	double sum = 0;
	size_t i;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	if (jdoc_object(j, root, "status_codes", JD_REQ, &dist) < 0)
		return -1;
	for (i = 0; i < 6; i++)
		r->status[i] = 0;
	r->errors = 0;
	json_object_foreach(dist.v, key, v) {
		double n;
		int code = 0, len = 0;
		const char *c;

		m.up = &dist;
		m.key = key;
		m.idx = 0;
		m.v = v;
		for (c = key; *c >= '0' && *c <= '9' && len < 4; c++, len++)
			code = code * 10 + (*c - '0');
		if (*c || !len || len > 3)
			return jdoc_error(j, &m, "is not an HTTP status code");
		if (jdoc_count_value(j, &m, &n))
			return -1;
		if (code == 0)
			r->errors += n;
		r->status[code >= 100 && code < 600 ? code / 100 : 0] += n;
		sum += n;
	}
	if (sum != r->requests)
		return jdoc_error(j, &dist, "counts %s responses, 'requests' %s",
				  num_text(a, sum), num_text(b, r->requests));
	return 0;
}

int
load_vegeta_json(const char *path, const char *data, size_t len,
		 struct load_result *r)
{
	struct jdoc j;
	struct jpos root, in, out, errs, p;
	size_t s = load_json_start(data, len, 0), i;
	long line0 = 0;
	int ret = -1;
	double duration, wait, success;

	if (s >= len || data[s] != '{')
		return error_at(path, 0, "vegeta report must be a JSON object");
	for (i = 0; i < s; i++)
		line0 += data[i] == '\n';
	if (load_json_parse(&j, path, data + s, len - s, line0, 0))
		return -1;
	r->tool = LOAD_VEGETA_JSON;
	r->mode = LOAD_RATE;
	r->bytes_kind = LOAD_BYTES_BODY;
	jdoc_root(&j, &root);
	if (jdoc_count(&j, &root, "requests", JD_REQ, &r->requests) < 0 ||
	    jdoc_count(&j, &root, "duration", JD_REQ, &duration) < 0 ||
	    jdoc_count(&j, &root, "wait", JD_REQ, &wait) < 0 ||
	    jdoc_real(&j, &root, "rate", JD_REQ | JD_NONNEG, &r->rps_mean) < 0 ||
	    jdoc_real(&j, &root, "success", JD_REQ | JD_NONNEG, &success) < 0 ||
	    jdoc_object(&j, &root, "bytes_in", JD_REQ, &in) < 0 ||
	    jdoc_count(&j, &in, "total", JD_REQ, &r->bytes_read) < 0 ||
	    jdoc_object(&j, &root, "bytes_out", JD_REQ, &out) < 0 ||
	    jdoc_count(&j, &out, "total", JD_REQ, &r->bytes_written) < 0 ||
	    jdoc_array(&j, &root, "errors", JD_NULL, &errs) < 0)
		goto out;
	if (success > 1) {
		jdoc_get(&j, &root, "success", 0, &p);
		jdoc_error(&j, &p, "must be a fraction from 0 to 1");
		goto out;
	}
	if (r->requests == 0) {
		jdoc_get(&j, &root, "requests", 0, &p);
		jdoc_error(&j, &p, "is 0: vegeta reported no request");
		goto out;
	}
	if (read_latencies(&j, &root, r) || read_status(&j, &root, r))
		goto out;
	r->responses = r->requests - r->errors;
	r->failed = round(r->requests * (1 - success));
	r->time_taken_s = (duration + wait) / 1e9;
	ret = 0;
out:
	jdoc_free(&j);
	return ret;
}
