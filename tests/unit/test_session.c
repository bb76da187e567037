/*
 * test_session.c - the whole ingest + analysis path on the small hand-made
 * session written by tests/tools/mksmall.c.  Every expected figure below
 * is worked out by hand from the design in mksmall.c's header: samples of
 * exactly 1 s at constant power, window edges on whole seconds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/checks.h"
#include "base/buf.h"
#include "base/idmap.h"
#include "base/jsonx.h"
#include "analyze/results.h"
#include "ingest/session.h"
#include "base/util.h"
#include "harness.h"

static char dir[256];

static void
make(const char *variant)
{
	char cmd[1024];
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";

	snprintf(dir, sizeof(dir), "/tmp/erg-test-session-XXXXXX");
	if (!mkdtemp(dir))
		exit(2);
	snprintf(cmd, sizeof(cmd), "%s/tools/mksmall %s/s %s", build, dir, variant);
	if (system(cmd))
		exit(2);
	strcat(dir, "/s");
}

static void
cleanup(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)(strlen(dir) - 2), dir);
	if (system(cmd))
		fprintf(stderr, "cleanup failed\n");
}

static const struct route_win *
win(const struct run *r, const char *mid, const char *route)
{
	size_t i, j;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].id, mid))
			for (j = 0; j < r->m[i].nroutes; j++)
				if (!strcmp(r->m[i].routes[j].name, route))
					return &r->m[i].routes[j];
	return NULL;
}

static const struct target *
target(const struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ntargets; i++)
		if (!strcmp(r->targets[i].name, name))
			return &r->targets[i];
	return NULL;
}

static void
test_good(void)
{
	struct run r;
	const struct route_win *w;
	const struct target *t;
	int rc;

	make("");
	rc = session_read(dir, "small", &r);
	CHECK(rc == 0, "small session reads");
	rc = rc ? rc : analyze_run(&r);
	CHECK(rc == 0, "small session analyses");
	if (rc) {
		run_free(&r);
		cleanup();
		return;
	}
	CHECK(r.nm == 4, "4 measurements (got %zu)", r.nm);
	CHECK(r.nidle == 5, "5 idle windows (got %zu)", r.nidle);
	CHECK(r.npf == 1, "one power file");
	/* The fit: ts + 500 is the true end, so a = S + 500 and b = 1. */
	CHECK_NEAR(r.pf[0].fit_b, 1.0, 1e-12, "fit slope");
	CHECK_NEAR(r.pf[0].fit_a, 1700000000500.0, 1e-3, "fit intercept");

	/* idle-00: samples 6..15 at 2 W cover the baseline [5.5 s, 15.5 s]. */
	CHECK_NEAR(r.idle[0].pw.mean_watts, 2.0, 1e-9, "idle-00 watts");
	CHECK(r.idle[0].pw.samples == 10, "idle-00 has 10 samples (got %zu)", r.idle[0].pw.samples);
	CHECK_NEAR(r.idle[0].pw.coverage, 1.0, 1e-12, "idle-00 coverage");
	CHECK_NEAR(r.idle[1].pw.mean_watts, 1.0, 1e-9, "idle-01 watts");
	CHECK_NEAR(r.idle[2].pw.mean_watts, 3.0, 1e-9, "idle-02 watts");

	/* r1-s1-alpha route a: 10 W for 5 s = 50 J over 10000 requests. The
	 * edge samples 21 and 26 are half inside: 0.5*10 + 4*10 + 0.5*10. */
	w = win(&r, "r1-s1-alpha", "a");
	CHECK(w != NULL, "window r1-s1-alpha a");
	if (w) {
		CHECK_NEAR(w->pw.energy_j, 50.0, 1e-9, "energy r1-s1-alpha a");
		CHECK_NEAR(w->pw.mean_watts, 10.0, 1e-9, "watts r1-s1-alpha a");
		CHECK_NEAR(w->pw.coverage, 1.0, 1e-12, "coverage r1-s1-alpha a");
		CHECK(w->pw.samples == 6, "6 samples overlap (got %zu)", w->pw.samples);
		CHECK_NEAR(w->mj_per_req, 5.0, 1e-9, "mJ/req r1-s1-alpha a");
		/* idle floor idle-00 = 2 W: net = 50 - 2*5 = 40 J -> 4 mJ/req */
		CHECK_NEAR(w->net_energy_j, 40.0, 1e-9, "net J");
		CHECK_NEAR(w->net_mj_per_req, 4.0, 1e-9, "net mJ/req");
		CHECK_NEAR(w->idle_share, 0.2, 1e-9, "idle share");
		/* 50 J / 1 MB */
		CHECK_NEAR(w->mj_per_mb, 50000.0, 1e-6, "mJ/MB");
		CHECK_NEAR(w->pw.cluster_mhz, 3000.0, 1e-6, "cluster MHz");
		CHECK(w->has_load && w->load.requests == 10000, "bombardier file read");
	}
	/* r2-s1-beta route b: 18 W x 3 s = 54 J; floor idle-02 = 3 W -> net 45 J */
	w = win(&r, "r2-s1-beta", "b");
	CHECK(w != NULL, "window r2-s1-beta b");
	if (w) {
		CHECK_NEAR(w->pw.energy_j, 54.0, 1e-9, "energy r2-s1-beta b");
		CHECK_NEAR(w->net_mj_per_req, 7.5, 1e-9, "net mJ/req r2-s1-beta b");
		CHECK(w->idle >= 0 && !strcmp(r.idle[w->idle].id, "idle-02"), "idle floor is idle-02");
	}
	/* Headlines: (50 + 60) J * 1000 / 16000 req = 6.875 mJ/req for alpha r1,
	 * (55 + 66) * 1000 / 16000 = 7.5625 for alpha r2. */
	t = target(&r, "alpha");
	CHECK(t != NULL, "target alpha");
	if (t) {
		CHECK(t->head_mj.n == 2, "alpha n = 2");
		CHECK_NEAR(t->head_mj.mean, 7.21875, 1e-12, "alpha headline mean");
		/* SD of two values = |difference| / sqrt(2) = 0.6875 / 1.41421356 */
		CHECK_NEAR(t->head_mj.sd, 0.48613591206, 1e-10, "alpha headline SD");
		CHECK_NEAR(t->head_mj.cv, 0.48613591206 / 7.21875, 1e-10, "alpha CV");
		/* t(0.975, 1) = 12.706: half-width 12.706 * 0.6875 / 2 = 4.36769 */
		CHECK_NEAR(t->head_mj.ci_hi - t->head_mj.mean, 4.3676875, 2e-3, "alpha CI half-width");
		/* rps: mean of route means per round: 2000 and 2075 */
		CHECK_NEAR(t->head_rps.mean, 2037.5, 1e-9, "alpha rps");
		/* watts: mean of route watts per round: 15 and 16.5 */
		CHECK_NEAR(t->head_watts.mean, 15.75, 1e-9, "alpha watts");
		CHECK(t->rank_mj == 2 && t->rank_watts == 1, "alpha ranks (mj %d, W %d)",
		      t->rank_mj, t->rank_watts);
		CHECK(t->nroutes == 2 && !t->routes[0].per_mb && !t->routes[1].per_mb,
		      "alpha: two per-request routes");
		if (t->nroutes == 2) {
			CHECK_NEAR(t->routes[0].mj_per_req.mean, 5.25, 1e-12, "alpha a mean");
			CHECK_NEAR(t->routes[0].mj_per_req.sd, 0.35355339059, 1e-10, "alpha a SD");
			CHECK_NEAR(t->routes[0].net_mj_per_req, 4.25, 1e-12, "alpha a net");
			CHECK_NEAR(t->routes[0].rps.mean, 2050, 1e-9, "alpha a rps");
			CHECK_NEAR(t->routes[0].watts.sd, 0.70710678118, 1e-10, "alpha a watts SD");
			CHECK_NEAR(t->routes[1].mj_per_mb.mean, (100000.0 + 110000.0) / 2, 1e-6,
				   "alpha b mJ/MB (60 J and 66 J over 0.6 MB)");
		}
	}
	t = target(&r, "beta");
	CHECK(t != NULL, "target beta");
	if (t) {
		/* (60+48)/16 = 6.75 and (60+54)/16 = 7.125 */
		CHECK_NEAR(t->head_mj.mean, 6.9375, 1e-12, "beta headline mean");
		CHECK_NEAR(t->head_mj.sd, 0.26516504294, 1e-10, "beta headline SD");
		CHECK(t->rank_mj == 1, "beta ranks first on energy");
	}
	run_free(&r);
	cleanup();
}

/*
 * The idle floor against a flat draw: every sample of the small session
 * at one power, so each window's energy is that power times its length
 * and so is its floor, and net energy is zero but for rounding.  Rounding
 * below zero is no energy (net 0, idle share 1); a floor above the window
 * by more than rounding (idle samples 1e-8 higher) is still the error.
 */
static void
flat(struct run *r, double watts, double idle_rel)
{
	struct power_file *pf = &r->pf[0];
	size_t i, k;

	for (i = 0; i < pf->n; i++) {
		/* sample k ends at its timestamp + 500 ms (mksmall.c) */
		double end = pf->s[i].ts_ms + 500, start = end - pf->s[i].elapsed_ms, w = watts;

		for (k = 0; k < r->nidle; k++)
			if (start >= r->idle[k].base_start_ms - 1000 &&
			    end <= r->idle[k].base_end_ms + 1000)
				w *= 1 + idle_rel;
		pf->s[i].joules = w * pf->s[i].elapsed_ms / 1000;
	}
}

static void
test_flat_floor(void)
{
	struct run r;
	size_t i, j, below = 0, nwin = 0, zero = 0;
	int rc;
	struct buf diag = BUF_INIT;

	make("");
	rc = session_read(dir, "small", &r);
	CHECK(rc == 0, "small session reads (flat)");
	if (!rc) {
		/* 0.7 W: not exact in binary; summed over a window's
		 * samples it rounds below the floor times the length (in
		 * all 8 windows, as found by trying) */
		flat(&r, 0.7, 0);
		rc = analyze_run(&r);
		CHECK(rc == 0, "a flat draw analyses (no net energy below zero)");
		for (i = 0; !rc && i < r.nm; i++)
			for (j = 0; j < r.m[i].nroutes; j++) {
				const struct route_win *w = &r.m[i].routes[j];
				double s = (w->end_ms - w->start_ms) / 1000;

				nwin++;
				if (w->pw.energy_j - w->idle_watts * s < 0) {
					below++;
					zero += w->net_energy_j == 0 && w->net_mj_per_req == 0 &&
						w->idle_share == 1;
				}
				CHECK(w->net_energy_j >= 0 && w->net_energy_j < 1e-12,
				      "net energy of a flat draw is 0 (%g J)", w->net_energy_j);
				CHECK_NEAR(w->pw.energy_j, 0.7 * s, 1e-12, "window energy is 0.7 W x its length");
			}
		CHECK(below >= 1, "rounding leaves %zu of %zu windows below zero before the "
		      "clamp", below, nwin);
		CHECK(zero == below, "each of them has net energy 0 and idle share 1 (%zu)", zero);
	}
	run_free(&r);
	rc = session_read(dir, "small", &r);
	if (!rc) {
		flat(&r, 0.7, 1e-8);
		diag_capture(&diag);
		rc = analyze_run(&r);
		diag_capture(NULL);
		CHECK(rc != 0 && strstr(diag.ptr, "has net energy below zero"),
		      "a floor 1e-8 above the window is still an error: %s", diag.ptr);
		run_free(&r);
	}
	buf_release(&diag);
	cleanup();
}

static void
test_per_mb(void)
{
	struct run r;
	const struct target *t;
	char p[512];
	FILE *f;

	/* Listing route b as large-payload takes it out of the headline:
	 * alpha's headline becomes route a alone, (5 + 5.5) / 2. */
	make("");
	snprintf(p, sizeof(p), "%s/meta.json", dir);
	f = fopen(p, "w");
	fputs("{\"title\":\"x\",\"erg\":{\"perMbRoutes\":[\"b\"]}}\n", f);
	fclose(f);
	CHECK(session_read(dir, "small", &r) == 0 && analyze_run(&r) == 0, "per-MB variant reads");
	t = target(&r, "alpha");
	if (t) {
		CHECK_NEAR(t->head_mj.mean, 5.25, 1e-12, "headline without the per-MB route");
		CHECK(t->nroutes == 2 && t->routes[1].per_mb, "route b is per MB");
	}
	run_free(&r);
	cleanup();
}

/* Variants that must fail: each a precise error and -1. */
static void
test_bad(const char *variant, int in_read)
{
	struct run r;
	int rc;

	make(variant);
	rc = session_read(dir, "small", &r);
	if (!in_read && rc == 0)
		rc = analyze_run(&r);
	CHECK(rc != 0, "variant '%s' is rejected", variant);
	run_free(&r);
	cleanup();
}

/* Run a perl -i program on file of the session in dir. */
static void
edit(const char *file, const char *perl)
{
	struct buf cmd = BUF_INIT;

	buf_addf(&cmd, "perl -i -pe '%s' '%s/%s'", perl, dir, file);
	if (system(cmd.ptr))
		fprintf(stderr, "edit failed: %s\n", cmd.ptr);
	buf_release(&cmd);
}

/*
 * A field of the wrong type is refused, and with it the figure: the
 * session does not read, so nothing is published (the hostile cases
 * json-* check the message and that the previous site stays).
 */
static void
test_refused(void)
{
	static const struct {
		const char *what, *file, *perl;
	} cases[] = {
		{ "\"round\": \"1\"", "timeline.jsonl", "s/\"round\":1,/\"round\":\"1\",/ if $. == 3" },
		{ "\"slot\": 1.5", "timeline.jsonl", "s/\"slot\":1,/\"slot\":1.5,/ if $. == 3" },
		{ "\"slot\": \"1\"", "timeline.jsonl", "s/\"slot\":1,/\"slot\":\"1\",/ if $. == 3" },
		{ "idle \"index\": \"0\"", "timeline.jsonl", "s/\"index\":0/\"index\":\"0\"/" },
		{ "\"startupMs\": \"12.5\"", "timeline.jsonl",
		  "s/\"startupMs\":12.5/\"startupMs\":\"12.5\"/ if $. == 3" },
		{ "\"roomTempC\": \"21\"", "meta.json", "s/\"roomTempC\": 21/\"roomTempC\": \"21\"/" },
		{ "\"requests\": \"10000\"", "timeline.jsonl",
		  "s/\"requests\":10000/\"requests\":\"10000\"/ if $. == 4" },
		{ "\"bytesRead\": -1", "timeline.jsonl",
		  "s/\"bytesRead\":1000000/\"bytesRead\":-1/ if $. == 4" },
		{ "\"precedesMeasurementId\": 8", "timeline.jsonl",
		  "s/\"precedesMeasurementId\":\"r1-s2-beta\"/\"precedesMeasurementId\":8/" },
		{ "\"endedAtMs\": \"x\" (measurementComplete)", "timeline.jsonl",
		  "s/\"endedAtMs\":1700000030001/\"endedAtMs\":\"x\"/ if $. == 6" },
		{ "\"ok\": \"yes\" (sessionEnd)", "timeline.jsonl", "s/\"ok\":true/\"ok\":\"yes\"/" },
		{ "\"rounds\": \"2\" (sessionStart)", "timeline.jsonl", "s/\"rounds\":2/\"rounds\":\"2\"/" },
		{ "machine.perflevel0.count 1e300", "meta.json",
		  "s/\"os\": \"TestOS 1\"/\"os\": \"TestOS 1\", \"perflevel0\": {\"count\": 1e300}/" },
		{ "\"title\": 7", "meta.json", "s/\"title\": \"[^\"]*\"/\"title\": 7/" },
		{ "\"loadFormat\": \"bombardir\"", "timeline.jsonl",
		  "s/\"bytesRead\":1000000/\"bytesRead\":1000000,\"loadFormat\":\"bombardir\"/ if $. == 4" },
	};
	size_t i;

	diag_quiet_warnings = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;
		int errors0 = diag_errors, rc;

		make("");
		edit(cases[i].file, cases[i].perl);
		rc = session_read(dir, "small", &r);
		CHECK(rc != 0 && diag_errors > errors0, "%s: the session is refused", cases[i].what);
		run_free(&r);
		cleanup();
	}
	diag_quiet_warnings = 0;
}

/* What the requests became: from the load file when it says (here every
 * response of r1-s1-alpha route a a 404 or 500, the timeline silent), the
 * figures per request and per 2xx response worked out by hand. */
static void
test_non_2xx(void)
{
	struct run r;
	const struct route_win *w;
	const struct target *t;
	json_t *v;

	make("");
	edit("timeline.jsonl", "s/\"req2xx\":10000,\"others\":0,// if $. == 4");
	edit("bombardier/r1-s1-alpha-a.json",
	     "s/\"req2xx\": 10000/\"req2xx\": 0/; s/\"req4xx\": 0/\"req4xx\": 6000/; "
	     "s/\"req5xx\": 0/\"req5xx\": 4000/");
	diag_quiet_warnings = 1;
	CHECK(session_read(dir, "small", &r) == 0 && analyze_run(&r) == 0, "all-404 window reads");
	diag_quiet_warnings = 0;
	w = win(&r, "r1-s1-alpha", "a");
	if (w) {
		CHECK(w->ok2xx == 0 && w->non2xx == 10000 && w->errors == 0,
		      "2xx 0, non-2xx 10000, errors 0 (got %g, %g, %g)", w->ok2xx, w->non2xx,
		      w->errors);
		/* 50 J over 10000 requests; no 2xx response: no figure per 2xx */
		CHECK_NEAR(w->mj_per_req, 5.0, 1e-12, "mJ/req counts the failed requests");
		CHECK(isnan(w->mj_per_2xx), "no mJ per 2xx without a 2xx response");
	}
	CHECK(json_array_size(r.warnings) == 1, "one page warning (got %zu)",
	      json_array_size(r.warnings));
	/* alpha r1: (50 + 60) J over 6000 2xx = 18.333 mJ; r2: 121 J / 16000 */
	t = target(&r, "alpha");
	if (t) {
		CHECK_NEAR(t->head_mj.mean, 7.21875, 1e-12, "per request as before");
		CHECK_NEAR(t->head_mj_2xx.mean, (110000.0 / 6000 + 7.5625) / 2, 1e-12,
			   "per 2xx response");
	}
	r.validation = checks_run(&r);
	v = jx_path(r.validation, "responses.status");
	CHECK(json_is_string(v) && !strcmp(json_string_value(v), "fail"),
	      "responses check fails");
	run_free(&r);
	cleanup();
}

/* A wrk file, whose byte total is printed rounded, against the timeline;
 * and loadFormat from meta.json for every window, the routeComplete's own
 * winning. */
static void
test_wrk_bytes(void)
{
	static const char wrk[] =
		"Running 5s test @ http://127.0.0.1:3000/a\n"
		"  2 threads and 50 connections\n"
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
		"    Latency   250.50us   20.00us 900.00us   75.00%\n"
		"    Req/Sec     1.00k    10.00     1.05k    80.00%\n"
		"  10000 requests in 5.00s, 972.80KB read\n"
		"Requests/sec:   2000.00\n"
		"Transfer/sec:    194.56KB\n";
	static const struct {
		const char *bytes;
		int ok;
	} cases[] = {
		{ "996147", 1 },	/* 972.80 KiB = 996147.2 bytes, printed to 5.12 */
		{ "996152", 1 },	/* 4.8 above */
		{ "996142", 0 },	/* 5.2 below */
		{ "1000000", 0 },
	};
	struct buf p = BUF_INIT, perl = BUF_INIT;
	struct run r;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		make("");
		/* the window's load file is the wrk one: the runner's goes */
		buf_reset(&p);
		buf_addf(&p, "%s/bombardier/r1-s1-alpha-a.json", dir);
		CHECK(unlink(p.ptr) == 0, "the runner's load file of route a removed");
		buf_reset(&p);
		buf_addf(&p, "%s/a.wrk", dir);
		if ((f = fopen(p.ptr, "w"))) {
			fputs(wrk, f);
			fclose(f);
		}
		buf_reset(&perl);
		buf_addf(&perl, "s/\"bytesRead\":1000000/\"bytesRead\":%s,\"loadFile\":\"a.wrk\"/ "
			 "if $. == 4", cases[i].bytes);
		edit("timeline.jsonl", perl.ptr);
		diag_quiet_warnings = 1;
		rc = session_read(dir, "small", &r);
		diag_quiet_warnings = 0;
		CHECK((rc == 0) == cases[i].ok, "bytesRead %s against wrk's 972.80KB: %s",
		      cases[i].bytes, rc == 0 ? "agrees" : "refused");
		if (!rc)
			CHECK(r.m[0].routes[0].load.tool == LOAD_WRK_TEXT &&
			      r.m[0].routes[0].bytes_read == atof(cases[i].bytes),
			      "read as wrk; the timeline's exact count is kept");
		run_free(&r);
		cleanup();
	}
	/* erg.loadFormat names the format of every load file: oha here, so
	 * the bombardier files fail ... */
	make("");
	edit("meta.json", "s/^ \"roomTempC\": 21,/ \"roomTempC\": 21, \"erg\": {\"loadFormat\": \"oha\"},/");
	diag_quiet_warnings = 1;
	CHECK(session_read(dir, "small", &r) != 0,
	      "erg.loadFormat oha: bombardier files are read as oha, and fail");
	run_free(&r);
	/* ... unless each routeComplete names its own. */
	edit("timeline.jsonl", "s/(\"bytesRead\":\\d+)/$1,\"loadFormat\":\"bombardier\"/");
	CHECK(session_read(dir, "small", &r) == 0 && r.m[1].routes[1].load.tool == LOAD_BOMBARDIER_JSON,
	      "a routeComplete's loadFormat wins over erg.loadFormat");
	diag_quiet_warnings = 0;
	run_free(&r);
	cleanup();
	buf_release(&p);
	buf_release(&perl);
}

/* run_warn: printed, kept with the file relative to the run, published. */
static void
test_run_warn(void)
{
	struct run r;
	json_t *res, *w;
	int before = diag_warnings;

	memset(&r, 0, sizeof(r));
	r.id = xstrdup("a/b");
	r.dir = xstrdup("/arch/a/b");
	r.kind = "energy-session";
	diag_quiet_warnings = 1;
	run_warn(&r, "/arch/a/b/power.plist.1", 0, "model '%s' differs", "X");
	run_warn(&r, "/arch/a/bc/timeline.jsonl", 7, "second");
	diag_quiet_warnings = 0;
	CHECK(diag_warnings == before + 2, "run_warn counts as a warning");
	CHECK(json_array_size(r.warnings) == 2, "two warnings kept");
	w = json_array_get(r.warnings, 0);
	CHECK(!strcmp(json_string_value(json_object_get(w, "file")), "power.plist.1"),
	      "file relative to the run directory");
	CHECK(json_is_null(json_object_get(w, "line")), "no line: null");
	CHECK(!strcmp(json_string_value(json_object_get(w, "message")), "model 'X' differs"),
	      "message formatted");
	w = json_array_get(r.warnings, 1);
	CHECK(!strcmp(json_string_value(json_object_get(w, "file")), "/arch/a/bc/timeline.jsonl"),
	      "a path outside the run (a sibling sharing the prefix) stays whole");
	CHECK(json_integer_value(json_object_get(w, "line")) == 7, "line kept");
	res = results_json(&r);
	CHECK(json_array_size(json_object_get(res, "warnings")) == 2, "results.json lists them");
	json_decref(res);
	run_free(&r);
}

/* The run's local time: results know it when the run records it (an
 * offset in capturedAt, or a run id naming the local minute capturedAt
 * falls in), never guessed otherwise.  Offsets worked by hand. */
static void
test_local_time(void)
{
	static const struct {
		const char *id, *at, *local, *from;
	} c[] = {
		/* the M5 session: 01:56:28 UTC, named 08:56 */
		{ "m5/2026-08-26T0856-saturated", "2026-08-26T01:56:28.850Z",
		  "2026-08-26T08:56:28+07:00", "run id" },
		/* west of UTC across midnight: 23:10 on the 25th is 04:10Z on the 26th */
		{ "m/2026-08-25T2310-x", "2026-08-26T04:10:05Z", "2026-08-25T23:10:05-05:00", "run id" },
		/* a half-hour zone, the id a minute before (preflight after the name) */
		{ "m/2026-01-31T2359-x", "2026-01-31T18:30:40Z", "2026-02-01T00:00:40+05:30", "run id" },
		/* across a year end, east */
		{ "2027-01-01T0015", "2026-12-31T10:15:00Z", "2027-01-01T00:15:00+14:00", "run id" },
		/* the offset written in capturedAt itself */
		{ "m/r", "2026-08-26T08:56:28+07:00", "2026-08-26T08:56:28+07:00", "captured_at" },
		/* nothing says: the id equals UTC, is no time, is 7 min off
		 * from any quarter hour... */
		{ "m/2026-08-26T0156-x", "2026-08-26T01:56:28Z", NULL, NULL },
		{ "m/2026-08-26-published", "2026-08-26T01:56:28Z", NULL, NULL },
		{ "m/2026-08-26T0903-x", "2026-08-26T01:56:28Z", NULL, NULL },
		/* ...or more than 14 h away, or an impossible minute */
		{ "m/2026-08-27T0856-x", "2026-08-26T01:56:28Z", NULL, NULL },
		{ "m/2026-08-26T0860-x", "2026-08-26T01:56:28Z", NULL, NULL },
		{ "m/2026-08-26T0856-x", "2026-08-26", NULL, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct run r;
		json_t *res;
		const char *l, *f;

		memset(&r, 0, sizeof(r));
		r.id = xstrdup(c[i].id);
		r.kind = "energy-session";
		r.meta = json_pack("{s:s}", "capturedAt", c[i].at);
		res = results_json(&r);
		l = json_string_value(json_object_get(res, "captured_local"));
		f = json_string_value(json_object_get(res, "captured_local_from"));
		CHECK(c[i].local ? l && f && !strcmp(l, c[i].local) && !strcmp(f, c[i].from)
				 : json_is_null(json_object_get(res, "captured_local")) &&
				   json_is_null(json_object_get(res, "captured_local_from")),
		      "%s at %s: local %s (%s), got %s (%s)", c[i].id, c[i].at,
		      c[i].local ? c[i].local : "null", c[i].from ? c[i].from : "", l ? l : "null",
		      f ? f : "");
		json_decref(res);
		run_free(&r);
	}
}

/* idmap: interning numbers names in order; lookups after many rehashes. */
static void
test_idmap(void)
{
	static char names[5000][16];
	struct idmap m = IDMAP_INIT;
	size_t i, v, bad = 0;

	CHECK(!idmap_get(&m, "x", &v), "empty map has nothing");
	for (i = 0; i < 5000; i++) {
		snprintf(names[i], sizeof(names[i]), "r%zu-s1-fw", i);
		if (idmap_intern(&m, names[i]) != i)
			bad++;
	}
	CHECK(!bad && m.n == 5000, "5000 names numbered in order (%zu wrong)", bad);
	for (i = bad = 0; i < 5000; i++)
		if (idmap_intern(&m, names[i]) != i || !idmap_get(&m, names[i], &v) || v != i)
			bad++;
	CHECK(!bad && m.n == 5000, "each found again, none added (%zu wrong)", bad);
	CHECK(!idmap_get(&m, "r5000-s1-fw", &v), "an absent name is absent");
	idmap_put(&m, names[7], 42);
	CHECK(idmap_get(&m, names[7], &v) && v == 42 && m.n == 5000, "put replaces the value");
	idmap_free(&m);
	CHECK(m.n == 0 && !idmap_get(&m, names[0], &v), "freed map is empty");
}

/*
 * session_detect() as archive.c tells runs: the names make a session,
 * whatever they are; session_read() then says what is wrong (a FIFO is
 * not opened, a link out of the run not followed).
 */
static void
test_detect(void)
{
	struct buf p = BUF_INIT, err = BUF_INIT;
	struct run r;
	int rc;

	make("");
	CHECK(session_detect(dir) == 1, "the small session is one");
	buf_addf(&p, "%s/meta.json", dir);
	CHECK(!unlink(p.ptr) && !mkfifo(p.ptr, 0600), "meta.json made a FIFO");
	CHECK(session_detect(dir) == 1, "a FIFO meta.json: still a session");
	diag_capture(&err);
	rc = session_read(dir, "x", &r);
	diag_capture(NULL);
	run_free(&r);
	CHECK(rc == -1 && strstr(err.ptr, "meta.json: error: not a regular file"),
	      "which is not read: %.*s", (int)strcspn(err.ptr, "\n"), err.ptr);
	CHECK(!unlink(p.ptr) && !symlink("/etc/hostname", p.ptr), "meta.json a link out");
	buf_reset(&err);
	diag_capture(&err);
	rc = session_read(dir, "x", &r);
	diag_capture(NULL);
	run_free(&r);
	CHECK(rc == -1 && strstr(err.ptr, "meta.json: error: path leaves the run directory"),
	      "a link out of the run is not followed: %.*s", (int)strcspn(err.ptr, "\n"),
	      err.ptr);
	unlink(p.ptr);
	buf_reset(&p);
	buf_addf(&p, "%s/timeline.jsonl", dir);
	CHECK(!unlink(p.ptr) && !symlink("nowhere", p.ptr), "timeline.jsonl a dangling link");
	CHECK(session_detect(dir) == 1, "a dangling link and no meta.json: still a session");
	unlink(p.ptr);
	CHECK(session_detect(dir) == 0, "neither name: no session");
	cleanup();
	buf_release(&p);
	buf_release(&err);
}

int
main(void)
{
	test_detect();
	test_idmap();
	test_refused();
	test_non_2xx();
	test_wrk_bytes();
	test_run_warn();
	test_local_time();
	test_good();
	test_per_mb();
	test_flat_floor();
	test_bad("broken-xml", 1);
	test_bad("bad-energy", 1);
	test_bad("missing-load", 1);
	test_bad("escape-load", 1);
	test_bad("mismatch", 1);
	test_bad("bad-json-line", 1);
	test_bad("notes-escape", 1);
	test_bad("window-outside", 0);
	return th_done();
}
