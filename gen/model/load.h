/*
 * model/load.h - one model for the result of one load-generator run,
 * whatever tool produced it (bombardier JSON or text, oha JSON, autocannon
 * JSON, wrk / wrk2 text, k6 summary JSON or NDJSON points, ab text, hey
 * text or CSV, vegeta JSON report, JMeter JTL CSV); ingest/load.h reads
 * the files.
 *
 * Every numeric field is NAN when the tool did not report it ("not
 * reported" on pages, never 0).  Counts that a tool always reports are
 * still doubles so that "absent" can be told apart from zero.
 * Units are fixed here, whatever the tool printed: seconds for durations,
 * microseconds for latency, requests/second for rates, bytes for sizes.
 */
#ifndef ERG_MODEL_LOAD_H
#define ERG_MODEL_LOAD_H

#include <stddef.h>

enum load_tool {
	LOAD_UNKNOWN = 0,
	LOAD_BOMBARDIER_JSON,
	LOAD_BOMBARDIER_TEXT,
	LOAD_OHA_JSON,
	LOAD_AUTOCANNON_JSON,
	LOAD_WRK_TEXT,
	LOAD_WRK2_TEXT,
	LOAD_K6_JSON,		/* --summary-export or handleSummary JSON */
	LOAD_K6_NDJSON,		/* --out json points, summarised */
	LOAD_AB_TEXT,
	LOAD_HEY_TEXT,
	LOAD_HEY_CSV,		/* hey -o csv, one row per response */
	LOAD_VEGETA_JSON,	/* vegeta report -type=json */
	LOAD_JMETER_CSV,	/* JTL CSV, one row per sample */
};

/* What a tool's byte counts measure. */
enum load_bytes {
	LOAD_BYTES_UNKNOWN = 0,
	LOAD_BYTES_WIRE,	/* bytes on the connection: headers + bodies (bombardier,
				 * wrk, autocannon) */
	LOAD_BYTES_BODY,	/* response bodies only (oha totalData) */
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

	/*
	 * Appended by the load module; gen/ingest/load.c (file comment) and each
	 * gen/load_<tool>.c say how every tool fills the fields.
	 */
	char *client;		/* HTTP client the tool names: bombardier's
				 * "fasthttp", "net/http.v1", "net/http.v2" */
	char *command;		/* the command line written before the output
				 * in the same file (bun-http-framework-benchmark
				 * results, shell logs); NULL when none */
	enum load_bytes bytes_kind;	/* what bytes_read/bytes_written count */
	double throughput_bps;	/* bytes/s as the tool printed it (2 decimals in
				 * its unit): bombardier text "Throughput" =
				 * (read + written) / time taken; wrk
				 * "Transfer/sec" = read / time taken */
	double timeouts;	/* what the tool calls timeouts, never added to
				 * requests: autocannon's are inside errors; wrk's
				 * are responses slower than --timeout (inside
				 * responses); wrk2's count periodic checks that
				 * found a connection waiting too long */
	double aborted;		/* oha: requests cut off by the -z deadline
				 * ("aborted due to deadline"); in neither
				 * requests nor errors */
	double non_2xx_3xx;	/* wrk/wrk2: responses with status >= 400, its
				 * "Non-2xx or 3xx responses" (0 when the line is
				 * absent); NAN for the other tools */
	double failed;		/* requests the tool itself counts as failed,
				 * by its own rule: k6 http_req_failed (no
				 * expected status, or no response), JMeter
				 * success=false (assertions included), vegeta
				 * (1 - success) x requests; NAN otherwise */
	double bytes_read_tol;	/* how far bytes_read may be from the true count
				 * because the tool rounded it for printing (wrk:
				 * half a unit of its last digit); 0 when exact */
};

void load_result_init(struct load_result *r);	/* all NAN, tool unknown */
void load_result_free(struct load_result *r);
const char *load_tool_name(enum load_tool t);

void load_results_free(struct load_result *v, size_t n);

/* Format by name ("bombardier", "bombardier-text", "oha", "autocannon",
 * "wrk", "wrk2", "k6", "k6-ndjson", "ab", "hey", "hey-csv", "vegeta",
 * "jmeter"); LOAD_UNKNOWN when not recognised. */
enum load_tool load_tool_from_name(const char *name);
/* Those names, for messages: "bombardier, bombardier-text, ..., wrk2". */
extern const char load_tool_names[];

#endif
