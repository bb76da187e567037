/*
 * model.h - what erg knows about one archived run, after ingest and after
 * analysis.  No I/O and no HTML here: ingest (session.c) fills the input
 * fields, analyze.c fills the derived ones, results.c turns the whole into
 * results.json, and the pages are rendered from that JSON.
 *
 * Units are in the field names or comments: times are Unix epoch
 * milliseconds, energy joules, power watts.  NAN means "not known".
 */
#ifndef ERG_MODEL_H
#define ERG_MODEL_H

#include <jansson.h>
#include <stddef.h>

#include "model/load.h"
#include "model/power.h"
#include "base/util.h"

/* "Nominal" ... "Critical" for a THERMAL_* level; NULL when absent. */
const char *thermal_name(int t);

/* One load window: one route of one measurement. */
struct route_win {
	char *name;
	double start_ms, end_ms;
	long line;			/* timeline line of its routeComplete */
	/* as the runner recorded it (routeComplete) */
	double requests, bytes_read, bytes_written;
	double rps_mean, rps_sd, lat_mean_us, lat_max_us;
	double time_s;			/* timeTakenSeconds: the tool's own run time */
	double tl_status[6];		/* others, req1xx..req5xx as logged; NAN if not */
	double load_pid;		/* bombardierPid: the load generator's process */
	/* the load generator's own file, when there is one */
	char *load_rel;			/* path relative to the run directory */
	int load_force;			/* enum load_tool from loadFormat, or LOAD_UNKNOWN */
	int has_load;
	struct load_result load;
	/* outcome of the requests, from the load file when it says, else from
	 * the timeline; NAN when neither does */
	double ok2xx;			/* requests answered 2xx (wrk: 2xx or 3xx) */
	double non2xx;			/* requests without a 2xx answer: requests - ok2xx */
	double errors;			/* transport errors among those (no answer at all) */

	/* analysis */
	int per_mb;			/* large-payload route: reported per MB */
	struct pwin pw;			/* energy_j, mean_watts, coverage, ... */
	int idle;			/* index into run.idle, -1 if none */
	double idle_watts, net_energy_j, idle_share;
	double mj_per_req, net_mj_per_req, mj_per_mb;
	double mj_per_2xx;		/* energy over the 2xx responses only */
};

struct measurement {
	char *id, *target, *target_full;	/* "r1-s1-elysia", "elysia", "bun/elysia" */
	int round, slot;		/* -1 when the timeline does not give them */
	long line;			/* of its measurementStart */
	long end_line;			/* of its measurementComplete, 0 before */
	double start_ms, end_ms;
	double server_pid, startup_ms, rss_before, rss_after;
	struct route_win *routes;
	size_t nroutes, aroutes;
	/* analysis: request-weighted over the small routes */
	double head_mj_per_req, head_rps, head_watts;
	double head_mj_per_2xx;		/* the same energy over their 2xx responses */
	double session_min;		/* minutes since session start */
};

struct idle_win {
	char *id, *kind, *follows, *precedes;
	int index;
	long line;
	double start_ms, end_ms, base_start_ms, base_end_ms;
	struct pwin pw;			/* over the baseline range */
	double session_min;
};

struct stat5 {			/* a summary across rounds (see stats.h) */
	size_t n;
	double mean, sd, cv, min, max, ci_lo, ci_hi;
};

struct target_route {
	char *name;
	int per_mb;
	struct stat5 mj_per_req, rps, watts, mj_per_mb;
	double net_mj_per_req, idle_share;
	double mj_per_2xx;		/* mean over the rounds */
};

struct target {
	char *name;
	struct stat5 head_mj, head_rps, head_watts;
	struct stat5 head_mj_2xx;	/* headline energy per 2xx response */
	struct target_route *routes;
	size_t nroutes;
	int rank_mj, rank_watts;	/* 1-based */
};

struct run {
	char *id;			/* path relative to the archive root */
	char *dir;			/* filesystem path of the run directory */
	const char *kind;		/* "energy-session" */
	json_t *meta;			/* meta.json as parsed (owned) */
	char *notes_md;			/* notes.md contents or NULL */
	char *notes_rel;

	struct measurement *m;
	size_t nm, am;
	struct idle_win *idle;
	size_t nidle, aidle;
	struct power_file *pf;
	size_t npf;

	double session_start_ms, session_end_ms;
	size_t heartbeats;
	int resumed;
	json_t *session_start;		/* the sessionStart record (owned) or NULL */

	/* analysis */
	struct target *targets;
	size_t ntargets;
	char **per_mb_routes;		/* from meta erg.perMbRoutes */
	size_t nper_mb_routes;
	int load_force;			/* meta erg.loadFormat: enum load_tool */
	json_t *validation;		/* design checks (analyze/checks), owned */
	json_t *warnings;		/* run_warn(): [{file, line, message}], owned, or NULL */
};

/* A measurement with every field unknown (NAN) and no routes. */
void measurement_init(struct measurement *m);
/* Free what m holds and make it as measurement_init leaves it. */
void measurement_clear(struct measurement *m);
void run_free(struct run *r);
/*
 * An input problem that leaves the figures right but that a reader must
 * see: printed as a located warning (warn_at) and kept in r->warnings,
 * which results.json publishes as "warnings" and the run page lists under
 * "Read this first".  path is a file of the run (its full path; the page
 * shows it relative to the run), line <= 0 when there is none.
 */
void run_warn(struct run *r, const char *path, long line, const char *fmt, ...)
	PRINTF(4, 5);

#endif
