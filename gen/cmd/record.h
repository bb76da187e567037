/*
 * record.h - erg record: run a benchmark plan the careful way (rounds in a
 * Latin square, a cooldown with an idle baseline before every measurement,
 * every event on one clock, energy sampled throughout) and archive it in
 * the energy-session layout erg build reads.
 *
 * record_plan.c reads the plan and lays out the schedule (pure, no I/O
 * beyond the plan file); record.c runs it; record_sys.c knows the machine
 * (preflight, meta.json, the powercap logger).
 */
#ifndef ERG_RECORD_H
#define ERG_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Load settings; a route may override any of them (NAN / NULL: inherit). */
struct rec_load {
	double connections, threads, timeout_s;
	double requests;	/* ab only: its cap on requests in a window */
	double rate;		/* requests per second, all connections together */
	char *cpus;		/* cpu list the generator is pinned to */
};

struct rec_target {
	char *name, *command, *cwd, *url, *ready_path, *cpus;
	char *version_cmd;	/* prints the server's version; NULL: none */
	char **env;		/* "KEY=VALUE", NULL-terminated */
	double ready_timeout_s;
	int stop_signal;
	char *host, *port, *base_path;	/* from url (http only) */
};

struct rec_route {
	char *name, *method, *path, *body_file;
	char **headers;		/* "Name: value", NULL-terminated */
	struct rec_load load;
};

/* A load generator erg record drives: how its output is stored and read
 * back (loadFormat), and how it tells its version. */
struct rec_tool {
	const char *name;
	const char *format;	/* loadFormat, as erg build reads it */
	int kind;		/* enum load_tool */
	const char *ext;	/* of the stored output */
	const char *version_arg;	/* NULL: it has no version option */
	unsigned has_threads:1;	/* a setting for threads (or workers) */
	/* its option for a fixed request rate (hey's is per worker); NULL:
	 * it cannot hold one */
	const char *rate_opt;
};
const struct rec_tool *rec_tool_find(const char *name);

enum rec_order { ORDER_CYCLIC, ORDER_RANDOM, ORDER_SEQUENTIAL };
enum rec_energy {
	ENERGY_NONE, ENERGY_POWERCAP,
	/* samplers run as a child process for the whole session */
	ENERGY_PERF, ENERGY_TURBOSTAT, ENERGY_NVSMI, ENERGY_POWERMETRICS
};
/* The name of a source in plans and meta.json. */
const char *rec_energy_name(enum rec_energy e);

struct rec_plan {
	char *path;		/* the plan file */
	char *dir;		/* its directory: relative paths start there */
	char *text;		/* its bytes */
	size_t len;
	char sha256[65];
	json_t *json;		/* the plan as read */
	char *title, *arm;
	int rounds;
	enum rec_order order;
	uint64_t seed;
	double warmup_s, window_s, gap_s, cooldown_s, base_off_s, base_end_s;
	double room_temp_c;	/* NAN: not given */
	char *tool;		/* load generator: "wrk", "hey", ... */
	const struct rec_tool *lt;	/* how it is driven */
	struct rec_load load;
	enum rec_energy energy;
	char *energy_root;	/* powercap tree */
	char *energy_events;	/* perf: its -e list */
	double energy_interval_ms;
	struct rec_target *t;
	size_t nt;
	struct rec_route *r;
	size_t nr;
};

/* The request rate of a route (its own or the plan's); NAN: none. */
double rec_route_rate(const struct rec_plan *p, const struct rec_route *r);

/* Read and check the plan: 0, or -1 after located errors. */
int rec_plan_read(const char *path, struct rec_plan *p);
void rec_plan_free(struct rec_plan *p);

/*
 * The schedule: order[(round - 1) * nt + (slot - 1)] is the index of the
 * target in that slot of that round.  Cyclic: slot s of round r holds
 * target (s + r) mod nt (0-based), a Latin square for every nt rounds;
 * random: that square with its rows, columns and targets shuffled by the
 * seed (still a Latin square); sequential: the plan's order every round.
 */
size_t *rec_schedule(enum rec_order o, uint64_t seed, size_t nt, int rounds);

/* Seconds one measurement takes, not counting server start. */
double rec_measurement_s(const struct rec_plan *p);

/* Parse a cpu list "0,2-3" into a mask of at most 1024 cpus; 0 or -1. */
int rec_cpulist(const char *s, unsigned char mask[128]);

/* Machine facts and preflight (record_sys.c).  warn: one line each. */
json_t *rec_machine(void);
void rec_preflight(const struct rec_plan *p, json_t *warnings);
/* The first line of `tool arg` ("-v", "--version", "version"), or NULL. */

/* The powercap logger: a thread sweeping every zone of root into out
 * ("powercap-log CSV v1").  open finds and reads the zones (an error when
 * none can be read); start writes the header (unless append) and sweeps. */
struct rec_powercap;
int rec_powercap_open(const char *root, struct rec_powercap **pc);
int rec_powercap_start(struct rec_powercap *pc, const char *out, int append,
		       double interval_ms, int64_t epoch0_ns, int64_t mono0_ns);
void rec_powercap_stop(struct rec_powercap *pc);

int record_main(int argc, char **argv, const char *version);
extern const char record_usage[];

#endif
