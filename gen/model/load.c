/*
 * model/load.c - the load-generator result (model/load.h): its lifetime and
 * the names of the tools.  ingest/load.c says how every tool fills it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/load.h"

const double load_pct_value[PCT_N] = { 50, 75, 90, 95, 99, 99.9 };

void
load_result_init(struct load_result *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->tool = LOAD_UNKNOWN;
	r->mode = LOAD_MODE_UNKNOWN;
	r->bytes_kind = LOAD_BYTES_UNKNOWN;
	r->rate = r->connections = r->threads = NAN;
	r->duration_s = r->time_taken_s = NAN;
	r->requests = r->responses = r->errors = NAN;
	for (i = 0; i < 6; i++)
		r->status[i] = NAN;
	r->bytes_read = r->bytes_written = NAN;
	r->rps_mean = r->rps_sd = r->rps_max = NAN;
	r->lat_mean_us = r->lat_sd_us = r->lat_max_us = r->lat_min_us = NAN;
	for (i = 0; i < PCT_N; i++)
		r->lat_pct_us[i] = NAN;
	r->throughput_bps = r->timeouts = r->aborted = r->non_2xx_3xx = NAN;
	r->failed = NAN;
	r->bytes_read_tol = 0;
}

void
load_result_free(struct load_result *r)
{
	if (!r)
		return;
	free(r->tool_version);
	free(r->url);
	free(r->client);
	free(r->command);
	load_result_init(r);
}

void
load_results_free(struct load_result *v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		load_result_free(&v[i]);
	free(v);
}

static const struct {
	enum load_tool tool;
	const char *name;
} tool_names[] = {
	{ LOAD_BOMBARDIER_JSON, "bombardier" },
	{ LOAD_BOMBARDIER_TEXT, "bombardier-text" },
	{ LOAD_OHA_JSON, "oha" },
	{ LOAD_AUTOCANNON_JSON, "autocannon" },
	{ LOAD_WRK_TEXT, "wrk" },
	{ LOAD_WRK2_TEXT, "wrk2" },
	{ LOAD_K6_JSON, "k6" },
	{ LOAD_K6_NDJSON, "k6-ndjson" },
	{ LOAD_AB_TEXT, "ab" },
	{ LOAD_HEY_TEXT, "hey" },
	{ LOAD_HEY_CSV, "hey-csv" },
	{ LOAD_VEGETA_JSON, "vegeta" },
	{ LOAD_JMETER_CSV, "jmeter" },
};

const char load_tool_names[] =
	"bombardier, bombardier-text, oha, autocannon, wrk, wrk2, k6, "
	"k6-ndjson, ab, hey, hey-csv, vegeta, jmeter";

const char *
load_tool_name(enum load_tool t)
{
	size_t i;

	for (i = 0; i < sizeof(tool_names) / sizeof(tool_names[0]); i++)
		if (tool_names[i].tool == t)
			return tool_names[i].name;
	return "unknown";
}

enum load_tool
load_tool_from_name(const char *name)
{
	size_t i;

	if (!name)
		return LOAD_UNKNOWN;
	for (i = 0; i < sizeof(tool_names) / sizeof(tool_names[0]); i++)
		if (!strcmp(tool_names[i].name, name))
			return tool_names[i].tool;
	if (!strcmp(name, "bombardier-json"))
		return LOAD_BOMBARDIER_JSON;
	return LOAD_UNKNOWN;
}
