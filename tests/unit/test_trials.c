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
#include "base/jsonx.h"
#include "base/util.h"
#include "ingest/summary.h"
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

	if (res && trials_analyze(res, dir)) {
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
	test_refused();
	test_compare();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
	return th_done();
}
