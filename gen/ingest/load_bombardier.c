/*
 * load_bombardier.c - bombardier's JSON output (-o json), formats.md §2.1.
 *
 * Accepted forms: bombardier's own one-line output, possibly preceded by
 * its intro and progress text (-p i,p,r), and any re-indented rendering of
 * it (jq, the energy runner's JSON.stringify(x, null, '\t')).  Go's %q
 * escapes in strings are rewritten before parsing (load_json.c).
 *
 * Mapping: requests = req1xx..req5xx + others; responses = req1xx..req5xx;
 * status[0] = others (transport errors count there, as status -1);
 * errors = sum of errors[].count (bombardier omits the array when it is
 * empty, so absent means 0); latency in microseconds as written, with
 * percentiles only under -l; rps = bombardier's per-window rate stats;
 * bytes are wire bytes; threads are not reported.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"

static int
read_spec(const struct jdoc *j, const struct jpos *spec,
	  struct load_result *r)
{
	char *type = NULL;
	double rate = NAN;
	int rc;

	if (jdoc_count(j, spec, "numberOfConnections", JD_REQ,
			&r->connections) < 0 ||
	    jdoc_string(j, spec, "testType", 0, &type) < 0)
		goto fail;
	rc = jdoc_real(j, spec, "testDurationSeconds",
			(type && !strcmp(type, "timed") ? JD_REQ : 0) |
			JD_NONNEG, &r->duration_s);
	if (rc < 0 || jdoc_string(j, spec, "url", 0, &r->url) < 0 ||
	    jdoc_string(j, spec, "client", 0, &r->client) < 0)
		goto fail;
	rc = jdoc_real(j, spec, "rate", JD_NONNEG, &rate);
	if (rc < 0)
		goto fail;
	if (rc) {
		r->mode = LOAD_RATE;
		r->rate = rate;
	} else {
		r->mode = LOAD_CLOSED;
	}
	free(type);
	return 0;
fail:
	free(type);
	return -1;
}

static int
read_errors(const struct jdoc *j, const struct jpos *result, double *sum)
{
	struct jpos arr, el;
	size_t i;
	int rc;

	*sum = 0;
	rc = jdoc_array(j, result, "errors", 0, &arr);
	if (rc <= 0)
		return rc;
	for (i = 0; i < json_array_size(arr.v); i++) {
		double c;
		char *desc = NULL;

		el.up = &arr;
		el.key = NULL;
		el.idx = i;
		el.v = json_array_get(arr.v, i);
		if (!json_is_object(el.v))
			return jdoc_error(j, &el, "must be an object with "
					   "'description' and 'count'");
		rc = jdoc_string(j, &el, "description", JD_REQ, &desc);
		free(desc);
		if (rc < 0 || jdoc_count(j, &el, "count", JD_REQ, &c) < 0)
			return -1;
		*sum += c;
	}
	return 0;
}

static int
read_latency(const struct jdoc *j, const struct jpos *result,
	     struct load_result *r)
{
	static const char *const keys[] = { "50", "75", "90", "95", "99" };
	static const enum load_pct idx[] = { PCT_50, PCT_75, PCT_90, PCT_95,
					     PCT_99 };
	struct jpos lat, pct;
	size_t i;
	int rc;

	rc = jdoc_object(j, result, "latency", 0, &lat);
	if (rc <= 0)
		return rc;
	if (jdoc_real(j, &lat, "mean", JD_REQ | JD_NONNEG, &r->lat_mean_us) < 0 ||
	    jdoc_real(j, &lat, "stddev", JD_REQ | JD_NONNEG, &r->lat_sd_us) < 0 ||
	    jdoc_real(j, &lat, "max", JD_REQ | JD_NONNEG, &r->lat_max_us) < 0)
		return -1;
	rc = jdoc_object(j, &lat, "percentiles", 0, &pct);
	if (rc <= 0)
		return rc;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (jdoc_real(j, &pct, keys[i], JD_NONNEG,
			       &r->lat_pct_us[idx[i]]) < 0)
			return -1;
	return 0;
}

static int
read_rps(const struct jdoc *j, const struct jpos *result,
	 struct load_result *r)
{
	struct jpos rps;
	int rc = jdoc_object(j, result, "rps", 0, &rps);

	if (rc <= 0)
		return rc;
	if (jdoc_real(j, &rps, "mean", JD_REQ | JD_NONNEG, &r->rps_mean) < 0 ||
	    jdoc_real(j, &rps, "stddev", JD_REQ | JD_NONNEG, &r->rps_sd) < 0 ||
	    jdoc_real(j, &rps, "max", JD_REQ | JD_NONNEG, &r->rps_max) < 0)
		return -1;
	return 0;
}

int
load_bombardier_json(const char *path, const char *data, size_t len,
		     struct load_result *r)
{
	static const char *const cls[] = { "others", "req1xx", "req2xx",
					   "req3xx", "req4xx", "req5xx" };
	struct jdoc j;
	struct jpos root, spec, result;
	size_t s = load_json_start(data, len, 1), i;
	long line0 = 0;
	int ret = -1;

	if (s >= len)
		return error_at(path, 0, "no JSON object in this bombardier "
				"output");
	for (i = 0; i < s; i++)
		line0 += data[i] == '\n';
	if (load_json_parse(&j, path, data + s, len - s, line0, 1))
		return -1;
	r->tool = LOAD_BOMBARDIER_JSON;
	r->bytes_kind = LOAD_BYTES_WIRE;
	jdoc_root(&j, &root);
	if (jdoc_object(&j, &root, "spec", JD_REQ, &spec) < 0 ||
	    jdoc_object(&j, &root, "result", JD_REQ, &result) < 0 ||
	    read_spec(&j, &spec, r))
		goto out;
	if (jdoc_count(&j, &result, "bytesRead", JD_REQ, &r->bytes_read) < 0 ||
	    jdoc_count(&j, &result, "bytesWritten", JD_REQ,
			&r->bytes_written) < 0 ||
	    jdoc_real(&j, &result, "timeTakenSeconds", JD_REQ | JD_NONNEG,
		       &r->time_taken_s) < 0)
		goto out;
	r->responses = 0;
	for (i = 0; i < 6; i++) {
		if (jdoc_count(&j, &result, cls[i], JD_REQ, &r->status[i]) < 0)
			goto out;
		if (i)
			r->responses += r->status[i];
	}
	r->requests = r->responses + r->status[0];
	if (read_errors(&j, &result, &r->errors) < 0 ||
	    read_latency(&j, &result, r) < 0 || read_rps(&j, &result, r) < 0)
		goto out;
	if (r->errors > r->status[0]) {
		char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];
		struct jpos o;

		jdoc_get(&j, &result, "others", 0, &o);
		warn_at(path, jdoc_line(&j, &o), "errors add up to %s, more "
			"than 'others' (%s), which should include them",
			num_text(a, r->errors), num_text(b, r->status[0]));
	}
	ret = 0;
out:
	jdoc_free(&j);
	return ret;
}
