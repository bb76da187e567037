/*
 * test_trials.c - trials runs on hand-worked tables: the reader
 * (ingest/trials.c, through summary_read), the statistics and design
 * checks per cell (analyze/trials.c) and the comparison of two trials runs
 * (analyze/compare.c) with the U-test over repetitions.
 *
 * Every expected number is worked out by hand (or, for the exact U-test
 * p with ties, by enumerating every relabelling of the pooled values in
 * Python: the method is in the comment), never taken from erg's output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze/compare.h"
#include "analyze/trials.h"
#include "base/buf.h"
#include "base/jsonx.h"
#include "base/util.h"
#include "ingest/summary.h"
#include "ingest/trials.h"
#include "harness.h"

static char root[64];

static void
put(const char *dir, const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	if (!f) {
		perror(p);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static char *
run_dir(const char *name, const char *runjson)
{
	static char d[128];
	char t[160];

	snprintf(d, sizeof(d), "%s/%s", root, name);
	mkdir(d, 0755);
	snprintf(t, sizeof(t), "%s/trials", d);
	mkdir(t, 0755);
	put(d, "run.json", runjson);
	return d;
}

static json_t *
read_run(const char *dir, const char *id)
{
	json_t *res = summary_read(dir, id);
	struct run r;
	int bad;

	if (!res)
		return NULL;
	bad = trials_power(dir, res, &r) || trials_analyze_power(res, dir, r.pf, r.npf);
	run_free(&r);
	if (bad) {
		json_decref(res);
		res = NULL;
	}
	return res;
}

static json_t *
cell(json_t *res, size_t table, size_t group, const char *metric)
{
	json_t *t = json_array_get(json_object_get(res, "trials"), table), *c;
	size_t i;

	json_array_foreach(json_object_get(t, "cells"), i, c)
		if ((size_t)json_integer_value(json_object_get(c, "group")) == group &&
		    !strcmp(jx_path_str(c, "metric"), metric))
			return c;
	return NULL;
}

static double
num(json_t *o, const char *dotted)
{
	json_t *v = jx_path(o, dotted);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double
jv(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char run_json[] =
	"{\"title\": \"t\", \"date\": \"2026-12-03\", \"machine\": {\"id\": \"m\"},"
	" \"centre\": \"median\"}";

/*
 * Cell (a, /x, connections 1): 10, 14, 12, 20 (repetitions 1-4, written
 * out of order).  Median of an even n: (12 + 14) / 2 = 13; mean 14; SD =
 * sqrt((16 + 0 + 4 + 36) / 3) = sqrt(56/3) = 4.3204938; CV 0.3086067;
 * 95 % CI 14 -+ t(3) 3.182 * 4.3204938 / 2 = 14 -+ 6.8739056.
 * Cell (a, /x, connections 4): 30, 34, 32, three repetitions (unequal),
 * the second with errors 2 (line 7: a failed trial).
 * Drift: sequence against value / cell mean - 1: by sequence 1..7 the
 * values -0.2857, -0.0625, 0, 0.0625, -0.1429, 0, 0.4286; their ranks
 * 1, 3, 4.5, 6, 2, 4.5, 7; Spearman = sum dx dy / sqrt(sum dx^2 sum dy^2)
 * = 18.5 / sqrt(28 * 27.5) = 0.6666944: flagged (>= 0.5, n = 7 >= 6).
 */
static const char table_a[] =
	"target,route,connections,repetition,sequence,rps,errors\n"
	"# units: ,,,,,req/s,\n"
	"a,/x,1,2,3,14,0\n"
	"a,/x,1,1,1,10,0\n"
	"a,/x,1,3,5,12,0\n"
	"a,/x,1,4,7,20,0\n"
	"a,/x,4,1,2,30,0\n"
	"a,/x,4,2,4,34,2\n"
	"a,/x,4,3,6,32,0\n";

static void
test_table(void)
{
	char *d = run_dir("a", run_json);
	json_t *res, *c, *t;

	put(d, "trials/t.csv", table_a);
	res = read_run(d, "a");
	CHECK(res != NULL, "a trials run reads");
	if (!res)
		return;
	CHECK(!strcmp(jx_path_str(res, "kind"), "trials"), "kind trials");
	CHECK(!strcmp(jx_path_str(res, "centre"), "median"), "centre from run.json");
	CHECK(num(res, "rounds") == 4, "rounds: the most repetitions of a cell");
	c = cell(res, 0, 0, "rps");
	CHECK(c != NULL, "cell (a, /x, 1) rps");
	CHECK_NEAR(num(c, "n"), 4, 0, "n");
	CHECK_NEAR(num(c, "median"), 13, 0, "median of an even n is the mean of the middle two");
	CHECK_NEAR(num(c, "mean"), 14, 0, "mean");
	CHECK_NEAR(num(c, "sd"), sqrt(56.0 / 3), 1e-12, "sample SD");
	CHECK_NEAR(num(c, "cv"), sqrt(56.0 / 3) / 14, 1e-12, "CV");
	CHECK_NEAR(num(c, "min"), 10, 0, "min");
	CHECK_NEAR(num(c, "max"), 20, 0, "max");
	CHECK_NEAR(json_number_value(json_array_get(json_object_get(c, "ci95"), 0)), 14 - 3.182 * sqrt(56.0 / 3) / 2,
		   1e-9, "CI low, Student t(3) = 3.182");
	CHECK_NEAR(json_number_value(json_array_get(json_object_get(c, "ci95"), 1)),
		   14 + 3.182 * sqrt(56.0 / 3) / 2, 1e-9, "CI high");
	CHECK(json_number_value(json_array_get(json_object_get(c, "values"), 0)) == 10 &&
	      json_number_value(json_array_get(json_object_get(c, "values"), 3)) == 20,
	      "values in repetition order");
	CHECK(!strcmp(jx_path_str(c, "unit"), "req/s"), "unit of a recognised column");
	c = cell(res, 0, 1, "rps");
	CHECK_NEAR(num(c, "median"), 32, 0, "median of an odd n");
	CHECK_NEAR(num(c, "n"), 3, 0, "n of the short cell");
	t = json_array_get(json_object_get(res, "trials"), 0);
	CHECK(json_is_false(jx_path(t, "checks.repetitions.ok")) &&
	      num(t, "checks.repetitions.min") == 3 && num(t, "checks.repetitions.max") == 4,
	      "unequal repetitions flagged, 3 to 4");
	CHECK(json_is_false(jx_path(t, "checks.failed.ok")) && num(t, "checks.failed.trials") == 1 &&
	      json_integer_value(json_array_get(jx_path(t, "checks.failed.lines"), 0)) == 8,
	      "one failed trial, at line 8");
	CHECK_NEAR(num(t, "checks.drift.rho"), 18.5 / sqrt(28 * 27.5), 1e-12,
		   "drift: Spearman of order against relative value");
	CHECK(json_is_false(jx_path(t, "checks.drift.ok")), "drift flagged at |rho| >= 0.5");
	CHECK(!strcmp(jx_path_str(json_array_get(json_object_get(res, "targets"), 0), "name"), "a"),
	      "targets for the views");
	json_decref(res);
}

/* JSONL: other names for the key columns, nested objects flattened, a
 * member a trial leaves out is not reported (n 2, not a 0). */
static void
test_jsonl(void)
{
	char *d = run_dir("j", "{\"title\": \"j\", \"date\": \"2026\", \"machine\": {\"id\": \"m\"},"
			       " \"units\": {\"result.rps\": \"req/s\"}}");
	json_t *res, *c;

	put(d, "trials/k6.jsonl",
	    "{\"framework\": \"b\", \"scenario\": \"s\", \"round\": 0, \"result\": {\"rps\": 5, \"lat\": {\"p99\": 1.5}}}\n"
	    "\n"
	    "{\"framework\": \"b\", \"scenario\": \"s\", \"round\": 1, \"result\": {\"rps\": 7}}\n"
	    "{\"framework\": \"b\", \"scenario\": \"s\", \"round\": 2, \"result\": {\"rps\": 6, \"lat\": {\"p99\": 2.5}}}\n");
	res = read_run(d, "j");
	CHECK(res != NULL, "a JSONL trials run reads");
	if (!res)
		return;
	CHECK(!strcmp(jx_path_str(res, "centre"), "mean"), "centre: mean by default");
	c = cell(res, 0, 0, "result.rps");
	CHECK(c && num(c, "n") == 3 && num(c, "mean") == 6 && num(c, "median") == 6,
	      "flattened metric 'result.rps': n 3, mean 6");
	CHECK(c && !strcmp(jx_path_str(c, "unit"), "req/s"), "unit from run.json units");
	c = cell(res, 0, 0, "result.lat.p99");
	CHECK(c && num(c, "n") == 2 && num(c, "median") == 2, "a member left out is not a 0: n 2, median 2");
	json_decref(res);
}

/* A column of text is a key: it names the cell (two cells here, one per
 * engine), and the other x/key parts stay apart from the target. */
static void
test_keys(void)
{
	char *d = run_dir("k", run_json);
	json_t *res, *g;

	put(d, "trials/t.csv", "target,engine,rep,rps\na,v8,1,1\na,jsc,1,3\na,v8,2,2\na,jsc,2,5\n");
	res = read_run(d, "k");
	CHECK(res != NULL, "a table with a text column reads");
	if (!res)
		return;
	g = json_object_get(json_array_get(json_object_get(res, "trials"), 0), "groups");
	CHECK(json_array_size(g) == 2, "the text column splits the trials into 2 cells");
	CHECK(!strcmp(jx_path_str(json_array_get(g, 1), "keys.engine"), "jsc"), "second cell: engine jsc");
	CHECK_NEAR(num(cell(res, 0, 1, "rps"), "median"), 4, 0, "median of {3, 5} is 4");
	CHECK_NEAR(num(cell(res, 0, 0, "rps"), "median"), 1.5, 0, "median of {1, 2} is 1.5");
	json_decref(res);
}

/*
 * The views' throughput of a sweep: the cell at the highest x every
 * target has.  a ran at 1, 2 and 4 connections, b at 1 and 2: both at 2,
 * where a's rps is {6, 8} (mean 7) and b's {3, 5} (mean 4).
 */
static void
test_views_at(void)
{
	char *d = run_dir("at", run_json);
	json_t *res, *tg;
	size_t i;
	int seen = 0;

	put(d, "trials/t.csv", "target,route,connections,rep,rps\n"
	    "a,/,1,1,1\na,/,1,2,2\na,/,2,1,6\na,/,2,2,8\na,/,4,1,9\na,/,4,2,9\n"
	    "b,/,1,1,1\nb,/,1,2,1\nb,/,2,1,3\nb,/,2,2,5\n");
	res = read_run(d, "at");
	CHECK(res != NULL, "a sweep reads");
	if (!res)
		return;
	json_array_foreach(json_object_get(res, "targets"), i, tg) {
		json_t *ro = json_array_get(json_object_get(tg, "routes"), 0);
		int a = !strcmp(jx_path_str(tg, "name"), "a");

		seen++;
		CHECK(num(ro, "rps.mean") == (a ? 7 : 4), "%s: the mean at connections 2",
		      jx_path_str(tg, "name"));
		CHECK(num(ro, "rps.at.connections") == 2, "%s: 'at' names connections 2, the "
		      "highest both targets have", jx_path_str(tg, "name"));
	}
	CHECK(seen == 2, "both targets in the views");
	json_decref(res);
}

/*
 * Two x columns: connections {1, 2} x payload_bytes {10, 20}, 3
 * repetitions.  A's rps in cell (c, p), repetition k, is 100 c + p + k
 * (mean 100 c + p + 2), B's twice that: every row must pair A's and B's
 * cell of the same c and p (a match on the first x alone would mix the
 * two payloads: two cells a side with one key, not compared).
 */
static void
test_two_x(void)
{
	char *d;
	struct buf ta = BUF_INIT, tb = BUF_INIT;
	json_t *a, *b, *doc, *row, *note;
	size_t i;
	int c, p, k, rows = 0, good = 0, noted = 0;

	buf_addstr(&ta, "target,route,connections,payload_bytes,repetition,rps\n");
	buf_addstr(&tb, ta.ptr);
	for (c = 1; c <= 2; c++)
		for (p = 10; p <= 20; p += 10)
			for (k = 1; k <= 3; k++) {
				buf_addf(&ta, "a,/,%d,%d,%d,%d\n", c, p, k, 100 * c + p + k);
				buf_addf(&tb, "a,/,%d,%d,%d,%d\n", c, p, k, 2 * (100 * c + p + k));
			}
	d = run_dir("x2a", run_json);
	put(d, "trials/t.csv", ta.ptr);
	a = read_run(d, "x2a");
	d = run_dir("x2b", run_json);
	put(d, "trials/t.csv", tb.ptr);
	b = read_run(d, "x2b");
	CHECK(a && b, "two runs over two x columns read");
	if (a && b) {
		doc = compare_runs(a, "x2a", NULL, b, "x2b", NULL, NULL);
		json_array_foreach(json_object_get(doc, "rows"), i, row) {
			const char *t = jx_path_str(row, "target"), *q;
			double x = num(row, "x.value"), pb;

			if (strcmp(jx_path_str(row, "metric"), "rps"))
				continue;
			rows++;
			q = t ? strstr(t, "payload_bytes: ") : NULL;
			pb = q ? atof(q + strlen("payload_bytes: ")) : NAN;
			if (!strcmp(jx_path_str(row, "x.column"), "connections") &&
			    num(row, "a.mean") == 100 * x + pb + 2 &&
			    num(row, "b.mean") == 2 * (100 * x + pb + 2) && num(row, "a.n") == 3)
				good++;
		}
		CHECK(rows == 4, "4 rps rows: one per (connections, payload_bytes), got %d", rows);
		CHECK(good == 4, "each row pairs A's and B's cell of the same connections and "
		      "payload_bytes (%d of 4)", good);
		json_array_foreach(json_object_get(doc, "notes"), i, note)
			if (strstr(json_string_value(note), "sweeps 'connections' and "
				   "'payload_bytes': cells are matched on every one"))
				noted++;
		CHECK(noted == 1, "one note says the sweep has two x columns and how they "
		      "are matched (the tables are alike: not twice)");
		json_decref(doc);
	}
	json_decref(a);
	json_decref(b);
	buf_release(&ta);
	buf_release(&tb);
}

/* A repetition given twice in one cell is an error, not a fifth value. */
static void
test_refused(void)
{
	char *d = run_dir("dup", run_json);

	put(d, "trials/t.csv", "target,rep,rps\na,1,5\na,2,6\na,1,7\n");
	diag_quiet_warnings = 1;
	{
		int fd = dup(2);
		FILE *n = freopen("/dev/null", "w", stderr);
		json_t *res = read_run(d, "dup");

		(void)n;
		CHECK(res == NULL, "a repetition given twice is refused");
		json_decref(res);
		d = run_dir("norep", run_json);
		put(d, "trials/t.csv", "target,rps\na,5\n");
		res = read_run(d, "norep");
		CHECK(res == NULL, "a table without a repetition column is refused");
		json_decref(res);
		d = run_dir("badnum", run_json);
		put(d, "trials/t.csv", "target,rep,rps\na,1,5\na,2,1.2e\n");
		res = read_run(d, "badnum");
		CHECK(res == NULL, "a recognised metric that is not a number is refused");
		json_decref(res);
		fflush(stderr);
		dup2(fd, 2);
		close(fd);
	}
	diag_quiet_warnings = 0;
}

/*
 * erg diff of two trials runs: the cell (a, /x, 1) is 10, 14, 12, 20 in
 * A and 14, 22, 24, 30 in B.  U counts A > B pairs, a tie 1/2: only
 * 14 = 14 and 20 > 14, so U = 1.5; enumerating all C(8,4) = 70
 * relabellings (Python, Fractions) gives P(U <= 1.5) = 3/70, so the
 * exact two-sided p = 2 * 3/70 = 3/35 (> 0.05: '~').  Means 14 and 22.5:
 * delta +60.71428...%.  The cell (a, /x, 4) has 3 vs 3 repetitions: the
 * smallest p is 0.1, so the verdict is '?' whatever the values.
 */
static void
test_compare(void)
{
	char *d = run_dir("a2", run_json);
	json_t *a, *b, *doc, *row, *rows;
	size_t i;
	int seen1 = 0, seen4 = 0;

	put(d, "trials/t.csv", table_a);
	a = read_run(d, "a2");
	d = run_dir("b2", run_json);
	put(d, "trials/t.csv",
	    "target,route,connections,repetition,rps\n"
	    "a,/x,1,1,14\na,/x,1,2,22\na,/x,1,3,24\na,/x,1,4,30\n"
	    "a,/x,4,1,34\na,/x,4,2,36\na,/x,4,3,38\n");
	b = read_run(d, "b2");
	CHECK(a && b, "both runs read");
	if (!a || !b)
		return;
	doc = compare_runs(a, "a2", NULL, b, "b2", NULL, NULL);
	CHECK(json_is_null(json_object_get(doc, "no_significance")),
	      "trials runs are tested (no 'no significance' sentence)");
	rows = json_object_get(doc, "rows");
	json_array_foreach(rows, i, row) {
		if (strcmp(jx_path_str(row, "metric"), "rps"))
			continue;
		if (num(row, "x.value") == 1) {
			seen1 = 1;
			CHECK_NEAR(num(row, "p"), 3.0 / 35, 1e-12, "U-test with ties: p = 3/35");
			CHECK(!strcmp(jx_path_str(row, "verdict"), "~"), "p > 0.05: verdict '~'");
			CHECK_NEAR(num(row, "delta_pct"), (22.5 / 14 - 1) * 100, 1e-9, "delta %");
			CHECK(num(row, "a.n") == 4 && num(row, "b.n") == 4, "n over repetitions");
			CHECK(json_is_number(json_array_get(json_object_get(row, "ratio_ci95"), 0)),
			      "a bootstrap interval of the ratio");
			CHECK(!strcmp(jx_path_str(row, "x.column"), "connections"), "x column");
		} else if (num(row, "x.value") == 4) {
			seen4 = 1;
			CHECK(!strcmp(jx_path_str(row, "verdict"), "?"), "3 vs 3: verdict '?'");
			CHECK_NEAR(num(row, "p"), 0.2, 1e-12,
				   "3 vs 3 {30,34,32} vs {34,36,38}: U = 0.5, p = 2 * 2/20 = 0.2");
		}
	}
	CHECK(seen1 && seen4, "both cells compared");
	CHECK(num(doc, "summary.not_tested") == 0, "no row left untested");
	json_decref(doc);
	doc = compare_runs(a, "a2", NULL, a, "a2", NULL, NULL);
	CHECK(json_is_true(json_object_get(doc, "same_data")), "a run with itself is the same data");
	json_decref(doc);
	json_decref(a);
	json_decref(b);
}

/*
 * Energy per trial.  power.csv: one 'cpu_W' domain, a row every second
 * from t0 = 1733170000000 ms (2024-12-02T20:06:40Z); the mean power over
 * (t0 + (k-1) s, t0 + k s] is 10 W for k = 1..5 and 20 W for k = 6..10,
 * except k = 9, whose cell is empty (no value: 1 s without energy).
 *
 * t.csv, requests from its column:
 *   rep 1, [t0+1 s, t0+3 s]: 2 s x 10 W = 20 J, 10 W, 400 req: 50 mJ/req
 *   rep 2, [t0+5 s, t0+7 s]: 2 s x 20 W = 40 J, 20 W, 1000 req: 40 mJ/req
 *   mean J 30, SD sqrt(2 x 10^2 / 1) = 14.142..., mJ/req median 45.
 *   rep 3, [t0+7 s, t0+10 s]: samples 8 and 10 give 2 x 20 J = 40 J, 9
 *   none: coverage 2/3, flagged; mean W 40 J / 3 s.
 * u.jsonl, ISO times, requests as rps x (end - start), between t.csv's
 * trials (a trial of another table that overlaps one of t's is refused):
 *   [20:06:43.500Z, 20:06:45.000Z] = [t0+3.5 s, t0+5 s]: half of sample 4
 *   (0.5 s x 10 W) and sample 5 (1 s x 10 W) = 15 J, 10 W; rps 1000 x
 *   1.5 s = 1500 req: 10 mJ/req.
 */
static const char power_csv[] =
	"time,cpu_W\n1733170000000,\n1733170001000,10\n1733170002000,10\n1733170003000,10\n"
	"1733170004000,10\n1733170005000,10\n1733170006000,20\n1733170007000,20\n"
	"1733170008000,20\n1733170009000,\n1733170010000,20\n";

static void
test_energy(void)
{
	char *d = run_dir("e", run_json);
	json_t *res, *t, *u, *c;

	put(d, "power.csv", power_csv);
	put(d, "trials/t.csv",
	    "target,repetition,start_ms,end_ms,requests,rps\n"
	    "a,1,1733170001000,1733170003000,400,200\n"
	    "a,2,1733170005000,1733170007000,1000,500\n"
	    "b,1,1733170007000,1733170010000,300,100\n");
	put(d, "trials/u.jsonl",
	    "{\"target\": \"c\", \"rep\": 1, \"start\": \"2024-12-02T20:06:43.500Z\", "
	    "\"end\": \"2024-12-02T20:06:45.000Z\", \"rps\": 1000}\n");
	res = read_run(d, "e");
	CHECK(res != NULL, "a trials run with power.csv and start/end columns reads");
	if (!res)
		return;
	t = json_array_get(json_object_get(res, "trials"), 0);
	u = json_array_get(json_object_get(res, "trials"), 1);
	c = cell(res, 0, 0, "energy_j");
	CHECK(c != NULL, "energy_j is a metric of the cell");
	CHECK_NEAR(jv(json_array_get(json_object_get(c, "values"), 0)), 20, 1e-9,
		   "rep 1: 2 s at 10 W = 20 J");
	CHECK_NEAR(num(c, "mean"), 30, 1e-9, "mean of 20 J and 40 J");
	CHECK_NEAR(num(c, "sd"), sqrt(200.0), 1e-9, "SD over the two trials");
	CHECK_NEAR(num(c, "n"), 2, 0, "n = 2");
	c = cell(res, 0, 0, "mean_w");
	CHECK_NEAR(num(c, "min"), 10, 1e-9, "rep 1: 10 W");
	CHECK_NEAR(num(c, "max"), 20, 1e-9, "rep 2: 20 W");
	c = cell(res, 0, 0, "mj_per_req");
	CHECK_NEAR(num(c, "min"), 40, 1e-9, "rep 2: 40 J / 1000 req = 40 mJ/req");
	CHECK_NEAR(num(c, "max"), 50, 1e-9, "rep 1: 20 J / 400 req = 50 mJ/req");
	CHECK_NEAR(num(c, "median"), 45, 1e-9, "median 45 mJ/req");
	CHECK(!strcmp(jx_path_str(c, "unit"), "mJ/req"), "unit mJ/req");
	CHECK(!strcmp(jx_path_str(t, "energy.requests"), "column"), "requests from the column");
	CHECK(json_is_false(jx_path(t, "energy.net")), "gross: no idle windows");
	c = cell(res, 0, 1, "energy_j");
	CHECK_NEAR(num(c, "mean"), 40, 1e-9, "b: the uncovered second adds nothing: 40 J");
	CHECK_NEAR(num(cell(res, 0, 1, "mean_w"), "mean"), 40.0 / 3, 1e-9, "b: 40 J over 3 s");
	CHECK_NEAR(num(cell(res, 0, 1, "mj_per_req"), "mean"), 40000.0 / 300, 1e-9,
		   "b: 40 J / 300 req");
	CHECK_NEAR(jv(json_array_get(jx_path(t, "energy.coverage"), 2)), 2.0 / 3, 1e-9,
		   "b: coverage 2/3");
	CHECK(num(t, "energy.low") == 1, "one trial under 95 %% coverage");
	CHECK(json_integer_value(json_array_get(jx_path(t, "energy.low_lines"), 0)) == 4,
	      "flagged at its line (4)");
	c = cell(res, 1, 0, "energy_j");
	CHECK_NEAR(num(c, "mean"), 15, 1e-9, "ISO times: 0.5 s x 10 W + 1 s x 10 W = 15 J");
	CHECK_NEAR(num(cell(res, 1, 0, "mean_w"), "mean"), 10, 1e-9, "10 W");
	CHECK_NEAR(num(cell(res, 1, 0, "mj_per_req"), "mean"), 10, 1e-9,
		   "15 J / (1000 req/s x 1.5 s) = 10 mJ/req");
	CHECK(!strcmp(jx_path_str(u, "energy.requests"), "rps"), "requests as rps x window");
	{
		json_t *again = read_run(d, "e");
		json_t *doc = compare_runs(res, "e", NULL, again, "e", NULL, NULL), *row;
		size_t i;
		int mj = 0;

		json_array_foreach(json_object_get(doc, "rows"), i, row)
			if (!strcmp(jx_path_str(row, "metric"), "mj_per_req") &&
			    num(row, "a.n") == 2 && num(row, "b.n") == 2)
				mj = 1;
		CHECK(mj, "erg diff compares mj_per_req over the repetitions");
		json_decref(doc);
		json_decref(again);
	}
	json_decref(res);

	/* the power file named in run.json "power" (a name erg would not look for) */
	d = run_dir("e-listed", "{\"title\": \"t\", \"date\": \"2026-12-03\", "
		    "\"machine\": {\"id\": \"m\"}, \"power\": [\"watts.log\"]}");
	put(d, "watts.log", power_csv);
	put(d, "trials/t.csv", "target,repetition,start_ms,end_ms,requests\n"
	    "a,1,1733170001000,1733170003000,400\n");
	res = read_run(d, "e-listed");
	CHECK(res != NULL, "run.json 'power' names the power file");
	CHECK_NEAR(num(cell(res, 0, 0, "energy_j"), "mean"), 20, 1e-9, "listed: 20 J");
	json_decref(res);

	/*
	 * A powercap-log (erg record's layout, README.md): package-0 counts
	 * 25 J a second (25 W) from t0, its core 12.5 J (reported only).  The
	 * trial [t0 + 1 s, t0 + 3 s]: 50 J, 25 W; 200 req: 250 mJ/req.
	 */
	d = run_dir("e-rapl", run_json);
	{
		struct buf b = BUF_INIT;
		int k;

		buf_addstr(&b, "# powercap-log v1 host=box clock=CLOCK_REALTIME\n"
			   "# zone,intel-rapl:0,package-0,262143328850\n"
			   "# zone,intel-rapl:0:0,core,262143328850\n"
			   "t_ns,zone,energy_uj\n");
		for (k = 0; k <= 5; k++)
			buf_addf(&b, "17331700%02d000000000,intel-rapl:0,%d\n"
				 "17331700%02d000000000,intel-rapl:0:0,%d\n",
				 k, 1000000 + 25000000 * k, k, 500000 + 12500000 * k);
		put(d, "box.powercap-log", b.ptr);
		buf_release(&b);
	}
	put(d, "trials/t.csv", "target,repetition,start_ms,end_ms,requests\n"
	    "a,1,1733170001000,1733170003000,200\n");
	res = read_run(d, "e-rapl");
	CHECK(res != NULL, "a trials run with a powercap-log reads");
	CHECK_NEAR(num(cell(res, 0, 0, "energy_j"), "mean"), 50, 1e-6,
		   "powercap: 2 s at 25 W = 50 J (the core not added)");
	CHECK_NEAR(num(cell(res, 0, 0, "mj_per_req"), "mean"), 250, 1e-6,
		   "powercap: 50 J / 200 req = 250 mJ/req");
	json_decref(res);

	/* refused: a trial outside the power data, times without a zone */
	diag_quiet_warnings = 1;
	{
		int fd = dup(2);
		FILE *n = freopen("/dev/null", "w", stderr);

		(void)n;
		d = run_dir("e-out", run_json);
		put(d, "power.csv", power_csv);
		put(d, "trials/t.csv", "target,repetition,start_ms,end_ms,rps\n"
		    "a,1,1733170001000,1733170011000,5\n");
		res = read_run(d, "e-out");
		CHECK(res == NULL, "a trial ending after the last power sample is refused");
		json_decref(res);
		d = run_dir("e-tz", run_json);
		put(d, "trials/t.csv", "target,repetition,start,end,rps\n"
		    "a,1,2024-12-02T20:06:41,2024-12-02T20:06:43,5\n");
		res = read_run(d, "e-tz");
		CHECK(res == NULL, "a time without a zone is refused");
		json_decref(res);
		d = run_dir("e-notime", run_json);
		put(d, "power.csv", power_csv);
		put(d, "trials/t.csv", "target,repetition,rps\na,1,5\n");
		res = read_run(d, "e-notime");
		CHECK(res == NULL, "power data without trial times is refused");
		json_decref(res);
		d = run_dir("e-nofile", "{\"title\": \"t\", \"date\": \"2026-12-03\", "
			    "\"machine\": {\"id\": \"m\"}, \"power\": [\"nope.csv\"]}");
		put(d, "trials/t.csv", "target,repetition,start_ms,end_ms,rps\n"
		    "a,1,1733170001000,1733170003000,5\n");
		res = read_run(d, "e-nofile");
		CHECK(res == NULL, "a power file run.json lists but the run lacks is refused");
		json_decref(res);
		fflush(stderr);
		dup2(fd, 2);
		close(fd);
	}
	diag_quiet_warnings = 0;
}

int
main(void)
{
	char cmd[128];

	snprintf(root, sizeof(root), "/tmp/erg-test-trials-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_table();
	test_jsonl();
	test_keys();
	test_views_at();
	test_two_x();
	test_refused();
	test_compare();
	test_energy();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
	return th_done();
}
