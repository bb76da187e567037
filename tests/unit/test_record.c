/*
 * test_record.c - erg record's schedule and plan (gen/cmd/record_plan.c):
 *   - cyclic and seeded random orders are Latin squares for 2..8 targets
 *     (every target once per round and once per slot over nt rounds; each
 *     block of nt rounds again one when there are more rounds);
 *   - cyclic: each round is the previous one rotated by one slot;
 *   - random: the same seed gives the same order, another seed another;
 *   - sequential: the plan's order in every round;
 *   - cpu lists; plans that read and plans that are refused;
 *   - a request rate: read for the plan and per route, required by wrk2,
 *     refused at its line for a tool that cannot hold one (wrk, ab, k6),
 *     when not a whole number from 1, and for hey when it does not divide
 *     by the connections (hey's -q is per worker);
 *   - the powercap logger marks a resume ("# resumed"), and the reader
 *     makes the interval across it a gap however short, where the same
 *     log without the mark is an error (a wrap could hide in it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "base/buf.h"
#include "base/util.h"
#include "cmd/record.h"
#include "ingest/energy.h"

/* Is block [r0, r0 + nt) of the schedule a Latin square? */
static int
latin(const size_t *v, size_t nt, size_t r0)
{
	size_t r, s, k;
	int ok = 1;

	for (r = r0; r < r0 + nt; r++) {
		unsigned char seen[16] = { 0 };

		for (s = 0; s < nt; s++)
			if (v[r * nt + s] >= nt || seen[v[r * nt + s]]++)
				ok = 0;
	}
	for (s = 0; s < nt; s++) {
		unsigned char seen[16] = { 0 };

		for (r = r0; r < r0 + nt; r++) {
			k = v[r * nt + s];
			if (k >= nt || seen[k]++)
				ok = 0;
		}
	}
	return ok;
}

static void
test_schedules(void)
{
	size_t nt, r, s;

	for (nt = 2; nt <= 8; nt++) {
		size_t *c = rec_schedule(ORDER_CYCLIC, 0, nt, (int)(2 * nt));
		size_t *x = rec_schedule(ORDER_RANDOM, 42, nt, (int)(2 * nt));
		size_t *y = rec_schedule(ORDER_RANDOM, 42, nt, (int)(2 * nt));
		size_t *z = rec_schedule(ORDER_RANDOM, 43, nt, (int)(2 * nt));
		size_t *q = rec_schedule(ORDER_SEQUENTIAL, 0, nt, 3);
		int rot = 1, same = 1, differs = 0, seq = 1;

		CHECK(latin(c, nt, 0) && latin(c, nt, nt), "cyclic %zu targets: Latin square", nt);
		CHECK(latin(x, nt, 0) && latin(x, nt, nt), "random %zu targets: Latin square", nt);
		for (r = 1; r < 2 * nt; r++)
			for (s = 0; s < nt; s++)
				if (c[r * nt + s] != c[(r - 1) * nt + (s + 1) % nt])
					rot = 0;
		CHECK(rot, "cyclic %zu targets: each round the previous one rotated", nt);
		for (r = 0; r < 2 * nt * nt; r++) {
			same &= x[r] == y[r];
			differs |= x[r] != z[r];
		}
		CHECK(same, "random %zu targets: the same seed gives the same order", nt);
		CHECK(nt < 3 || differs, "random %zu targets: another seed, another order", nt);
		for (r = 0; r < 3; r++)
			for (s = 0; s < nt; s++)
				seq &= q[r * nt + s] == s;
		CHECK(seq, "sequential %zu targets: the plan's order every round", nt);
		free(c);
		free(x);
		free(y);
		free(z);
		free(q);
	}
	/* by hand: 3 targets, cyclic */
	{
		size_t *c = rec_schedule(ORDER_CYCLIC, 0, 3, 3);
		static const size_t want[9] = { 0, 1, 2, 1, 2, 0, 2, 0, 1 };

		CHECK(!memcmp(c, want, sizeof(want)), "cyclic 3x3 is abc, bca, cab");
		free(c);
	}
}

static void
test_cpulist(void)
{
	unsigned char m[128];

	CHECK(!rec_cpulist("0", m) && m[0] == 1, "cpu list '0'");
	CHECK(!rec_cpulist("1,3-5", m) && m[0] == 0x3a, "cpu list '1,3-5'");
	CHECK(rec_cpulist("", m) && rec_cpulist("1-", m) && rec_cpulist("a", m) &&
	      rec_cpulist("3-1", m) && rec_cpulist("1,", m) && rec_cpulist("2000", m),
	      "bad cpu lists are refused");
}

/* Read text as a plan into p (rec_plan_free it): rec_plan_read's result. */
static int
plan_read_text(const char *text, struct rec_plan *p)
{
	char path[] = "/tmp/erg-test-plan-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -2;
	fputs(text, f);
	fclose(f);
	rc = rec_plan_read(path, p);
	unlink(path);
	return rc;
}

static int
plan_from(const char *text)
{
	char path[] = "/tmp/erg-test-plan-XXXXXX";
	struct rec_plan p;
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -2;
	fputs(text, f);
	fclose(f);
	rc = rec_plan_read(path, &p);
	if (!rc && p.nt != 2)
		rc = -3;
	rec_plan_free(&p);
	unlink(path);
	return rc;
}

#define TARGETS \
	"\"targets\": [{\"name\": \"a\", \"command\": \"x\", \"url\": \"http://127.0.0.1:1\"}," \
	"{\"name\": \"b\", \"command\": \"y\", \"url\": \"http://[::1]:2/base/\"}]"
#define ROUTES "\"routes\": [{\"name\": \"ping\", \"path\": \"/\"}]"
#define LOAD "\"load\": {\"tool\": \"wrk\"}"

static void
test_plans(void)
{
	diag_quiet_warnings = 1;
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 10, " LOAD ", "
			TARGETS ", " ROUTES "}") == 0, "a small plan reads");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 10, "
			"\"windowsec\": 2, " LOAD ", " TARGETS ", " ROUTES "}") == -1,
	      "an unknown member is refused");
	CHECK(plan_from("{\"rounds\": \"2\", \"windowSec\": 1, " LOAD ", " TARGETS ", "
			ROUTES "}") == -1, "a string 'rounds' is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1.5, " LOAD ", " TARGETS ", "
			ROUTES "}") == -1, "a fractional window is refused (wrk: whole s)");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 3, " LOAD ", "
			TARGETS ", " ROUTES "}") == -1,
	      "a cooldown too short for the default baseline is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 3, "
			"\"idleBaseline\": {\"offsetSec\": 1, \"endOffsetSec\": 4}, " LOAD ", "
			TARGETS ", " ROUTES "}") == -1, "a baseline past the cooldown is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"ordering\": \"random\", " LOAD
			", " TARGETS ", " ROUTES "}") == -1, "random ordering without a seed");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			"\"load\": {\"tool\": \"vegeta\"}, " TARGETS ", " ROUTES "}") == -1,
	      "a load generator erg record does not drive (vegeta) is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			"\"load\": {\"tool\": \"hey\", \"threads\": 2}, " TARGETS ", " ROUTES
			"}") == 0, "hey: threads (-cpus) read");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			"\"load\": {\"tool\": \"ab\", \"requests\": 9}, " TARGETS ", " ROUTES
			"}") == 0, "ab: requests read");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			"\"load\": {\"tool\": \"hey\", \"requests\": 9}, " TARGETS ", " ROUTES
			"}") == -1, "hey: requests cannot be honoured");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			"\"load\": {\"tool\": \"hey\"}, " TARGETS ", \"routes\": [{\"name\": "
			"\"p\", \"path\": \"/\", \"method\": \"PATCH\"}]}") == -1,
	      "hey: PATCH cannot be honoured");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			"\"load\": {\"tool\": \"oha\"}, " TARGETS ", \"routes\": [{\"name\": "
			"\"p\", \"path\": \"/\", \"load\": {\"threads\": 2}}]}") == -1,
	      "oha: threads of a route cannot be honoured");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"targets\": [{\"name\": \"a\", \"command\": \"x\", \"url\": "
			"\"https://h\"}, {\"name\": \"a\", \"command\": \"x\", \"url\": "
			"\"http://h\"}], " ROUTES "}") == -1,
	      "an https URL and a repeated target name are refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			TARGETS ", \"routes\": [{\"name\": \"../x\", \"path\": \"/\"}]}") == -1,
	      "a route name that would leave the run is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"energy\": {\"source\": \"perf\", \"events\": \"power/energy-pkg/,"
			"power/energy-ram/\"}, " TARGETS ", " ROUTES "}") == 0,
	      "perf with two events reads");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"energy\": {\"source\": \"perf\", \"events\": \"cycles\"}, " TARGETS
			", " ROUTES "}") == -1, "perf: an event erg build cannot read is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"energy\": {\"source\": \"turbostat\", \"events\": "
			"\"power/energy-pkg/\"}, " TARGETS ", " ROUTES "}") == -1,
	      "events with another source than perf is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"energy\": {\"source\": \"nvidia-smi\", \"root\": \"/x\"}, " TARGETS
			", " ROUTES "}") == -1, "root with another source than powercap is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"energy\": {\"source\": \"powermetrics\", \"intervalMs\": 250.5}, "
			TARGETS ", " ROUTES "}") == -1,
	      "a fractional interval for a sampler that takes whole ms is refused");
	CHECK(plan_from("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, " LOAD ", "
			"\"energy\": {\"source\": \"scaphandre\"}, " TARGETS ", " ROUTES "}") ==
	      -1, "an energy source erg record does not know is refused");
	diag_quiet_warnings = 0;
	/* errors are located at the member's own line */
	{
		struct buf b = BUF_INIT;
		int rc;

		diag_capture(&b);
		rc = plan_from("{\n  \"rounds\": 2,\n  \"windowSec\": 1,\n  \"cooldownSec\": 10,\n"
			       "  \"load\": {\"tool\": \"wrk\",\n    \"threads\": -1},\n  "
			       TARGETS ",\n  " ROUTES "}");
		diag_capture(NULL);
		CHECK(rc == -1 && b.ptr && strstr(b.ptr, ":6: error: 'load.threads' must be a "
						  "whole number"), "located error: %s",
		      b.ptr ? b.ptr : "(none)");
		buf_release(&b);
	}
	/* what a tool cannot honour is an error at the member, never dropped */
	{
		static const struct {
			const char *plan, *want;
		} v[] = {
			{ "  \"load\": {\"tool\": \"bombardier\",\n    \"threads\": 2},\n  " TARGETS
			  ",\n  " ROUTES "}", ":6: error: 'load.threads' cannot be honoured: "
			  "'bombardier' has no setting for threads" },
			{ "  \"load\": {\"tool\": \"k6\",\n    \"requests\": 2},\n  " TARGETS
			  ",\n  " ROUTES "}", ":6: error: 'load.requests' cannot be honoured: 'k6' "
			  "runs for the window, not for a number of requests ('requests' is ab's "
			  "cap on requests in a window)" },
			{ "  \"load\": {\"tool\": \"ab\"},\n  " TARGETS ",\n  \"routes\": [{\"name\": "
			  "\"d\", \"path\": \"/\",\n    \"bodyFile\": \"x\",\n    \"method\": \"DELETE\"}]}",
			  ":9: error: 'routes[0].method' cannot be honoured: 'ab' sends a body "
			  "with POST (-p) or PUT (-u) only" },
		};
		size_t i;

		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			struct buf b = BUF_INIT, plan = BUF_INIT;
			int rc;

			buf_addf(&plan, "{\n  \"rounds\": 2,\n  \"windowSec\": 1,\n  \"cooldownSec\": "
				 "10,\n%s", v[i].plan);
			diag_capture(&b);
			rc = plan_from(plan.ptr);
			diag_capture(NULL);
			CHECK(rc == -1 && b.ptr && strstr(b.ptr, v[i].want), "located: %s",
			      b.ptr ? b.ptr : "(none)");
			buf_release(&b);
			buf_release(&plan);
		}
	}
}

/* A powercap log at 1 W (100000 uJ every 100 ms) of one zone whose
 * counter wraps at 600000 uJ: at twice the peak it wraps every 0.3 s.
 * After 10 sweeps, a pause of 400 ms (under 5 intervals: no gap by
 * length) with the counter anywhere, then 5 sweeps more. */
static void
write_log(const char *path, int mark)
{
	FILE *f = fopen(path, "w");
	unsigned long long t = 1733170000000000000ULL, v = 0;
	int i;

	fputs("# powercap-log v1 host=h clock=CLOCK_REALTIME\n"
	      "# zone,intel-rapl:0,package-0,600000\nt_ns,zone,energy_uj\n", f);
	for (i = 0; i < 15; i++) {
		if (i == 10) {
			if (mark)
				fputs("# resumed\n", f);
			t += 300000000ULL;	/* + the usual 100 ms below */
			v = 550000;
		}
		fprintf(f, "%llu,intel-rapl:0,%llu\n", t, v);
		t += 100000000ULL;
		v = (v + 100000) % 600000;
	}
	fclose(f);
}

/* The request rate: where it is read, where it is refused (at its line). */
static void
test_rates(void)
{
	static const struct {
		const char *plan, *want;
	} bad[] = {
		{ "  \"load\": {\"tool\": \"wrk2\"},\n  " TARGETS ",\n  " ROUTES "}",
		  "erg: PLAN:5: error: 'load.tool' is 'wrk2', which needs a request rate (its "
		  "-R): give 'load.rate' in requests per second\n" },
		{ "  \"load\": {\"tool\": \"wrk2\"},\n  " TARGETS ",\n  \"routes\": [{\"name\": "
		  "\"p\", \"path\": \"/\", \"load\": {\"rate\": 10}},\n    {\"name\": \"q\", "
		  "\"path\": \"/q\"}]}",
		  "erg: PLAN:8: error: 'routes[1]' has no request rate, which 'wrk2' needs: "
		  "give 'load.rate' or a 'rate' in this route's 'load'\n" },
		{ "  \"load\": {\"tool\": \"wrk\",\n    \"rate\": 100},\n  " TARGETS ",\n  "
		  ROUTES "}", "erg: PLAN:6: error: 'load.rate' cannot be honoured: 'wrk' "
		  "cannot hold a request rate (wrk2 can)\n" },
		{ "  \"load\": {\"tool\": \"ab\"},\n  " TARGETS ",\n  \"routes\": [{\"name\": "
		  "\"p\", \"path\": \"/\",\n    \"load\": {\"rate\": 100}}]}",
		  "erg: PLAN:8: error: 'routes[0].load.rate' cannot be honoured: 'ab' has no "
		  "setting for a request rate\n" },
		{ "  \"load\": {\"tool\": \"k6\",\n    \"rate\": 100},\n  " TARGETS ",\n  "
		  ROUTES "}", "erg: PLAN:6: error: 'load.rate' cannot be honoured: 'k6' takes "
		  "a rate only in an arrival-rate scenario, which erg record does not "
		  "write\n" },
		{ "  \"load\": {\"tool\": \"wrk2\",\n    \"rate\": 100.5},\n  " TARGETS
		  ",\n  " ROUTES "}", "erg: PLAN:6: error: 'load.rate' must be a whole number from 0 to 2^53, "
		  "not 100.5\n" },
		{ "  \"load\": {\"tool\": \"wrk2\",\n    \"rate\": 0},\n  " TARGETS ",\n  "
		  ROUTES "}", "erg: PLAN:6: error: 'load.rate' must be from 1 to 10000000 "
		  "(requests per second)\n" },
		{ "  \"load\": {\"tool\": \"oha\",\n    \"rate\": \"100\"},\n  " TARGETS
		  ",\n  " ROUTES "}", "erg: PLAN:6: error: 'load.rate' " },
		{ "  \"load\": {\"tool\": \"hey\", \"connections\": 4,\n    \"rate\": 10},\n  "
		  TARGETS ",\n  \"routes\": [{\"name\": \"p\", \"path\": \"/\"}, {\"name\": "
		  "\"q\", \"path\": \"/q\"}]}",
		  "erg: PLAN:6: error: 'load.rate' is 10, not a multiple of the 4 connections "
		  "of route 'p': hey's -q is a rate per worker\n" },
		{ "  \"load\": {\"tool\": \"hey\", \"connections\": 4, \"rate\": 100},\n  "
		  TARGETS ",\n  \"routes\": [{\"name\": \"p\", \"path\": \"/\",\n    "
		  "\"load\": {\"connections\": 3}}]}",
		  "erg: PLAN:5: error: 'load.rate' is 100, not a multiple of the 3 connections "
		  "of route 'p': hey's -q is a rate per worker\n" },
	};
	struct rec_plan p;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct buf b = BUF_INIT, plan = BUF_INIT;
		char *at;

		buf_addf(&plan, "{\n  \"rounds\": 2,\n  \"windowSec\": 1,\n  \"cooldownSec\": "
			 "10,\n%s", bad[i].plan);
		diag_capture(&b);
		rc = plan_read_text(plan.ptr, &p);
		diag_capture(NULL);
		rec_plan_free(&p);
		/* the temporary file's name stands as PLAN */
		at = b.ptr && !strncmp(b.ptr, "erg: ", 5) ? strchr(b.ptr + 5, ':') : NULL;
		buf_reset(&plan);
		if (at)
			buf_addf(&plan, "erg: PLAN%s", at);
		/* one error, exactly (a prefix when the reader's own words end it) */
		CHECK(rc == -1 && at && !strncmp(plan.ptr, bad[i].want, strlen(bad[i].want)) &&
		      (bad[i].want[strlen(bad[i].want) - 1] != '\n' ||
		       !strcmp(plan.ptr, bad[i].want)),
		      "rate refused, located: %s", b.ptr ? b.ptr : "(none)");
		buf_release(&b);
		buf_release(&plan);
	}

	/* read: the plan's rate, a route's own, and hey's exact division */
	rc = plan_read_text("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			    "\"load\": {\"tool\": \"wrk2\", \"rate\": 250}, " TARGETS ", "
			    "\"routes\": [{\"name\": \"p\", \"path\": \"/\"}, {\"name\": \"q\", "
			    "\"path\": \"/q\", \"load\": {\"rate\": 40}}]}", &p);
	CHECK(rc == 0 && p.load.rate == 250 && rec_route_rate(&p, &p.r[0]) == 250 &&
	      rec_route_rate(&p, &p.r[1]) == 40 && !strcmp(p.lt->format, "wrk2") &&
	      !strcmp(p.lt->rate_opt, "-R"),
	      "wrk2: the plan's rate and a route's own are read (250, 40 req/s)");
	rec_plan_free(&p);
	rc = plan_read_text("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			    "\"load\": {\"tool\": \"wrk2\"}, " TARGETS ", \"routes\": [{\"name\": "
			    "\"p\", \"path\": \"/\", \"load\": {\"rate\": 7}}]}", &p);
	CHECK(rc == 0 && isnan(p.load.rate) && rec_route_rate(&p, &p.r[0]) == 7,
	      "wrk2: a rate in every route is enough");
	rec_plan_free(&p);
	rc = plan_read_text("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			    "\"load\": {\"tool\": \"hey\", \"connections\": 4, \"rate\": 100}, "
			    TARGETS ", \"routes\": [{\"name\": \"p\", \"path\": \"/\", \"load\": "
			    "{\"connections\": 5}}]}", &p);
	CHECK(rc == 0 && rec_route_rate(&p, &p.r[0]) == 100,
	      "hey: a rate dividing by the connections reads (100 over 5)");
	rec_plan_free(&p);
	rc = plan_read_text("{\"rounds\": 2, \"windowSec\": 1, \"cooldownSec\": 0, "
			    "\"load\": {\"tool\": \"wrk\"}, " TARGETS ", " ROUTES "}", &p);
	CHECK(rc == 0 && isnan(p.load.rate) && isnan(rec_route_rate(&p, &p.r[0])),
	      "wrk: no rate, none read");
	rec_plan_free(&p);
}

static void
test_resume_mark(void)
{
	char dir[] = "/tmp/erg-test-pc-XXXXXX", path[128], zone[128];
	struct power_file pf;
	struct buf b = BUF_INIT, log = BUF_INIT;
	struct rec_powercap *pc;
	double sum = 0;
	size_t i;
	int rc;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/powercap.csv", dir);
	write_log(path, 0);
	diag_capture(&b);
	rc = energy_read_powercap(path, &pf);
	diag_capture(NULL);
	CHECK(rc == -1 && b.ptr && strstr(b.ptr, "powercap.csv:14: error: readings 0.4 s apart") &&
	      strstr(b.ptr, "a wrap could hide between them"),
	      "without the mark, a 0.4 s pause at a 0.3 s wrap horizon is an error: %s",
	      b.ptr ? b.ptr : "(none)");
	buf_release(&b);
	write_log(path, 1);
	rc = energy_read_powercap(path, &pf);
	CHECK(rc == 0 && pf.n == 14 && pf.nholes == 1 && pf.holes[0].at == 9 &&
	      pf.holes[0].ms == 400 && pf.holes[0].missing == 3 && isnan(pf.s[9].joules),
	      "with '# resumed', the interval across it is a gap (sample 10 of 14, 400 ms, "
	      "3 readings missing, no energy)");
	for (i = 0; rc == 0 && i < pf.n; i++)
		if (i != 9)
			sum += pf.s[i].joules;
	CHECK(rc == 0 && fabs(sum - 1.3) < 1e-9, "the other 13 intervals hold 0.1 J each: %g J",
	      sum);
	if (!rc)
		power_file_free(&pf);
	/* the logger writes the mark when it continues a log */
	snprintf(zone, sizeof(zone), "%s/intel-rapl:0", dir);
	mkdir(zone, 0755);
	snprintf(zone, sizeof(zone), "%s/intel-rapl:0/energy_uj", dir);
	f = fopen(zone, "w");
	fputs("12345\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/log.csv", dir);
	rc = rec_powercap_open(dir, &pc);
	CHECK(rc == 0, "a one-zone tree opens");
	if (!rc) {
		rec_powercap_start(pc, path, 0, 1000, 0, 0);
		rec_powercap_stop(pc);
	}
	rc = rec_powercap_open(dir, &pc);
	if (!rc) {
		rec_powercap_start(pc, path, 1, 1000, 0, 0);
		rec_powercap_stop(pc);
	}
	f = fopen(path, "r");
	while (f && !feof(f) && (i = fread(zone, 1, sizeof(zone), f)) > 0)
		buf_add(&log, zone, i);
	if (f)
		fclose(f);
	CHECK(log.ptr && !strncmp(log.ptr, "# powercap-log v1 ", 18) &&
	      strstr(log.ptr, "\nt_ns,zone,energy_uj\n") &&
	      strstr(log.ptr, ",intel-rapl:0,12345\n# resumed\n") &&
	      !strstr(strstr(log.ptr, "# resumed") + 1, "# powercap-log"),
	      "a continued log: '# resumed' after the last reading, no second header");
	buf_release(&log);
	unlink(zone);
	snprintf(zone, sizeof(zone), "rm -rf '%s'", dir);
	rc = system(zone);
	(void)rc;
}

int
main(void)
{
	test_schedules();
	test_cpulist();
	test_plans();
	test_rates();
	test_resume_mark();
	return th_done();
}
