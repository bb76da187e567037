/*
 * load.h - one model for the result of one load-generator run, whatever
 * tool produced it (bombardier JSON or text, oha JSON, autocannon JSON,
 * wrk / wrk2 text).
 *
 * Every numeric field is NAN when the tool did not report it ("not
 * reported" on pages, never 0).  Counts that a tool always reports are
 * still doubles so that "absent" can be told apart from zero.
 * Units are fixed here, whatever the tool printed: seconds for durations,
 * microseconds for latency, requests/second for rates, bytes for sizes.
 */
#ifndef ERG_LOAD_H
#define ERG_LOAD_H

#include <stddef.h>

enum load_tool {
	LOAD_UNKNOWN = 0,
	LOAD_BOMBARDIER_JSON,
	LOAD_BOMBARDIER_TEXT,
	LOAD_OHA_JSON,
	LOAD_AUTOCANNON_JSON,
	LOAD_WRK_TEXT,
	LOAD_WRK2_TEXT,
};

enum load_mode {
	LOAD_MODE_UNKNOWN = 0,
	LOAD_CLOSED,	/* closed loop: as fast as the connections allow */
	LOAD_RATE,	/* fixed arrival rate (rate field) */
};

/* Latency percentiles erg keeps; index with enum load_pct. */
enum load_pct { PCT_50, PCT_75, PCT_90, PCT_95, PCT_99, PCT_999, PCT_N };
extern const double load_pct_value[PCT_N]; /* 50, 75, 90, 95, 99, 99.9 */

struct load_result {
	enum load_tool tool;
	char *tool_version;	/* NULL when unknown */
	char *url;		/* NULL when unknown */
	enum load_mode mode;
	double rate;		/* req/s target for LOAD_RATE */
	double connections;
	double threads;
	double duration_s;	/* configured duration */
	double time_taken_s;	/* measured wall time of the run */

	double requests;	/* all attempts with an outcome: responses + errors */
	double responses;	/* requests that got any HTTP response */
	double status[6];	/* [1..5] = 1xx..5xx counts; [0] = others / non-HTTP */
	double errors;		/* transport errors, timeouts */
	double bytes_read;
	double bytes_written;

	double rps_mean, rps_sd, rps_max;
	double lat_mean_us, lat_sd_us, lat_max_us, lat_min_us;
	double lat_pct_us[PCT_N];
};

void load_result_init(struct load_result *r);	/* all NAN, tool unknown */
void load_result_free(struct load_result *r);
const char *load_tool_name(enum load_tool t);

/*
 * Detect the format from the content (and the name as a hint) and parse.
 * `data` is the whole file (NUL-terminated, len bytes); `path` is used for
 * diagnostics only.  `force` overrides detection when not LOAD_UNKNOWN.
 * Returns 0, or -1 after printing "erg: path:line: error: ..." diagnostics.
 */
int load_parse(const char *path, const char *data, size_t len,
	       enum load_tool force, struct load_result *out);

/* Format by name ("bombardier", "bombardier-text", "oha", "autocannon",
 * "wrk", "wrk2"); LOAD_UNKNOWN when not recognised. */
enum load_tool load_tool_from_name(const char *name);

#endif
