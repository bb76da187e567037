/*
 * test_diff.c - `erg diff` (gen/diff.c).
 *
 * Hand-built results documents check the statistics of a row against
 * values worked out by hand (exact Mann-Whitney p with and without ties,
 * the "too few rounds" rule), the environment diff, the lists of what one
 * run alone has, and escaping.  Then the reference session rebuilt by
 * tests/tools/rebuild (twice, the second time with express's windows
 * carrying 5 % more energy): a run against itself, against its perturbed
 * copy, and the text output of `diff` byte for byte against
 * tests/golden/diff/perturbed.txt (regenerate with
 * tests/golden/diff/regen.sh).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "buf.h"
#include "build.h"
#include "diff.h"
#include "harness.h"
#include "util.h"

static const char *build_dir, *shared, *src_dir;

/* ------------------------------------------------- hand-made results */

/*
 * A results document with one target per name, every target measured in
 * rounds 1..n with headline mJ/req v[i] (and headline req/s, W, a "ping"
 * route with the same number as mJ/req, so all rows of a target agree).
 */
struct tdef {
	const char *name;
	const double *v;
	size_t n;
};

static json_t *
make_results(const char *run, const char *chip, const struct tdef *t, size_t nt,
	     int with_video)
{
	json_t *res = json_object(), *targets = json_array(), *ms = json_array();
	json_t *machine = json_object();
	size_t i, k;

	json_object_set_new(res, "run", json_string(run));
	json_object_set_new(machine, "model", json_string("Mac17,3"));
	json_object_set_new(machine, "chip", json_string(chip));
	json_object_set_new(machine, "memoryBytes", json_integer(25769803776LL));
	json_object_set_new(machine, "os", json_string("macOS 26.6.2"));
	json_object_set_new(res, "machine", machine);
	json_object_set_new(res, "software", json_pack("{s:s}", "bun", "1.4.0"));
	json_object_set_new(res, "conditions",
			    json_pack("{s:f, s:{s:i, s:s}}", "room_temp_c", 22.0, "load",
				      "connections", 500, "duration", "10s"));
	json_object_set_new(res, "energy_source", json_string("powermetrics"));
	for (i = 0; i < nt; i++) {
		json_array_append_new(targets, json_pack("{s:s}", "name", t[i].name));
		for (k = 0; k < t[i].n; k++) {
			json_t *m = json_object(), *routes = json_array();
			double v = t[i].v[k];

			json_object_set_new(m, "target", json_string(t[i].name));
			json_object_set_new(m, "round", json_integer((json_int_t)k + 1));
			json_object_set_new(m, "headline_mj_per_req", json_real(v));
			json_object_set_new(m, "headline_rps", json_real(1000 * v));
			json_object_set_new(m, "headline_watts", json_real(v / 10));
			json_array_append_new(routes,
					      json_pack("{s:s, s:s, s:f, s:f, s:f, s:{s:f, s:{s:n, s:f}}}",
							"name", "ping", "per", "request",
							"mj_per_req", v, "rps", 1000 * v,
							"mean_watts", v / 10, "load",
							"latency_mean_us", 100 * v,
							"latency_pct_us", "p50", "p99", 300 * v));
			if (with_video)
				json_array_append_new(routes,
						      json_pack("{s:s, s:s, s:f, s:f, s:f}", "name",
								"video", "per", "MB", "mj_per_mb", v,
								"rps", v, "mean_watts", v));
			json_object_set_new(m, "routes", routes);
			json_array_append_new(ms, m);
		}
	}
	json_object_set_new(res, "targets", targets);
	json_object_set_new(res, "measurements", ms);
	return res;
}

/* The row of metric (route NULL: headline) for target, or NULL. */
static json_t *
find_row(json_t *d, const char *metric, const char *target, const char *route)
{
	json_t *rows = json_object_get(d, "rows");
	size_t i;

	for (i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i);
		const char *rr = json_string_value(json_object_get(r, "route"));

		if (!strcmp(json_string_value(json_object_get(r, "metric")), metric) &&
		    !strcmp(json_string_value(json_object_get(r, "target")), target) &&
		    ((!route && !rr) || (route && rr && !strcmp(route, rr))))
			return r;
	}
	return NULL;
}

static double
rnum(json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *
verdict(json_t *row)
{
	return row ? json_string_value(json_object_get(row, "verdict")) : "(no row)";
}

static int
has_note(json_t *d, const char *key, const char *needle)
{
	json_t *arr = json_object_get(d, key);
	size_t i;

	for (i = 0; i < json_array_size(arr); i++)
		if (strstr(json_string_value(json_array_get(arr, i)), needle))
			return 1;
	return 0;
}

/* One comparison A = a, B = b of target "t" through diff_compute. */
static json_t *
diff_of(const double *a, size_t na, const double *b, size_t nb)
{
	struct tdef ta = { "t", a, na }, tb = { "t", b, nb };
	json_t *ra = make_results("a", "Apple M5", &ta, 1, 0);
	json_t *rb = make_results("b", "Apple M5", &tb, 1, 0);
	json_t *d = diff_compute(ra, "a", NULL, rb, "b", NULL, NULL);

	json_decref(ra);
	json_decref(rb);
	return d;
}

/*
 * Exact two-sided p of the rank sum, worked by hand over all C(na+nb, na)
 * ways of choosing A's ranks (mid-ranks for ties); p = 2 min(tails).
 */
static void
test_mann_whitney(void)
{
	json_t *d, *r;

	/*
	 * 3 vs 3, fully separated: A holds ranks {1,2,3}, the only subset of
	 * sum 6 among C(6,3) = 20: p = 2/20 = 0.1 > 0.05 whatever happens, so
	 * the verdict is "?" with the note.
	 */
	{
		const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };

		d = diff_of(a, 3, b, 3);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 0.1, 1e-12, "3 vs 3 separated: p = 2/20");
		CHECK_STR(verdict(r), "?", "3 vs 3: no verdict");
		CHECK(has_note(d, "notes", "with 3 vs 3 rounds no difference can reach "
			       "significance at 0.05: the smallest exact p for 3 vs 3 is 0.1"),
		      "3 vs 3: the note says why");
		CHECK_NEAR(rnum(r, "delta_pct"), 150.0, 1e-9, "3 vs 3: delta still reported");
		{
			struct buf out = BUF_INIT;

			diff_render_text(d, &out);
			CHECK(strstr(out.ptr, "\nnote: with 3 vs 3 rounds no difference can reach "
				     "significance at 0.05: the smallest exact p for 3 vs 3 is 0.1 "
				     "(verdict '?')\n") != NULL, "3 vs 3: text note");
			CHECK(strstr(out.ptr, "  +150.00%  [") && strstr(out.ptr, "  0.1000  ?\n"),
			      "3 vs 3: text row shows delta, p and '?'");
			buf_release(&out);
		}
		CHECK_NEAR(json_integer_value(json_object_get(json_object_get(d, "summary"),
							      "undecided")),
			   json_array_size(json_object_get(d, "rows")), 0,
			   "3 vs 3: every row undecided");
		json_decref(d);
	}
	/* 4 vs 4, separated: 2 / C(8,4) = 2/70; delta (6.5/2.5 - 1) = +160 %. */
	{
		const double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 };

		d = diff_of(a, 4, b, 4);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 2.0 / 70, 1e-12, "4 vs 4 separated: p = 2/70");
		CHECK_STR(verdict(r), "+160.00%", "4 vs 4 separated: signed delta");
		CHECK(!has_note(d, "notes", "no difference can reach"), "4 vs 4: no note");
		json_decref(d);
	}
	/* B below A: the verdict is negative. 4 vs 4 reversed, delta 2.5/6.5 - 1. */
	{
		const double a[] = { 8, 7, 6, 5 }, b[] = { 4, 3, 2, 1 };

		d = diff_of(a, 4, b, 4);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 2.0 / 70, 1e-12, "4 vs 4 reversed: p = 2/70");
		CHECK_STR(verdict(r), "-61.54%", "4 vs 4 reversed: negative delta");
		json_decref(d);
	}
	/*
	 * Ties, 4 vs 4: A = {1,2,3,3}, B = {3,4,5,6}.  Pooled ranks 1, 2,
	 * then three 3s at positions 3..5 (mid-rank 4), then 6, 7, 8.
	 * R_A = 1 + 2 + 4 + 4 = 11, the smallest sum possible, reached by
	 * {1, 2} and any 2 of the 3 tied values: C(3,2) = 3 of the 70
	 * subsets.  p = 2 * 3/70 = 0.0857 > 0.05: "~".
	 */
	{
		const double a[] = { 1, 2, 3, 3 }, b[] = { 3, 4, 5, 6 };

		d = diff_of(a, 4, b, 4);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 6.0 / 70, 1e-12, "ties 4 vs 4: p = 6/70");
		CHECK_STR(verdict(r), "~", "ties 4 vs 4: not significant");
		json_decref(d);
	}
	/*
	 * Ties, 5 vs 5: A = {1,2,3,4,5}, B = {5,6,7,8,9}.  The two 5s share
	 * ranks 5 and 6 (mid-rank 5.5); R_A = 1+2+3+4+5.5 = 15.5, the minimum,
	 * reached 2 ways (either 5) of C(10,5) = 252; the next sum is 17.
	 * p = 2 * 2/252 = 0.015873; delta = 7/3 - 1 = +133.33 %.
	 */
	{
		const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 5, 6, 7, 8, 9 };

		d = diff_of(a, 5, b, 5);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 4.0 / 252, 1e-12, "ties 5 vs 5: p = 4/252");
		CHECK_STR(verdict(r), "+133.33%", "ties 5 vs 5: significant");
		json_decref(d);
	}
	/*
	 * Interleaved, 3 vs 3: A = {1,3,5}, B = {2,4,6}: R_A = 9; subsets of
	 * {1..6} of size 3 with sum <= 9: {123,124,125,126,134,135,234} = 7;
	 * p = 2 * 7/20 = 0.7 (and "?" still, 3 vs 3).
	 */
	{
		const double a[] = { 1, 3, 5 }, b[] = { 2, 4, 6 };

		d = diff_of(a, 3, b, 3);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 0.7, 1e-12, "interleaved 3 vs 3: p = 14/20");
		json_decref(d);
	}
	/* 3 vs 5 separated: 2 / C(8,3) = 2/56 = 0.0357 < 0.05, so verdicts exist. */
	{
		const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6, 7, 8 };

		d = diff_of(a, 3, b, 5);
		r = find_row(d, "mj_per_req", "t", NULL);
		CHECK_NEAR(rnum(r, "p"), 2.0 / 56, 1e-12, "3 vs 5 separated: p = 2/56");
		CHECK_STR(verdict(r), "+200.00%", "3 vs 5: a verdict is possible");
		CHECK(!has_note(d, "notes", "no difference can reach"), "3 vs 5: no note");
		json_decref(d);
	}
	/* Bootstrap CI of the ratio is reported and brackets the ratio of means. */
	{
		const double a[] = { 10, 11, 9, 10.5, 9.5 }, b[] = { 12, 13, 11, 12.5, 11.5 };

		d = diff_of(a, 5, b, 5);
		r = find_row(d, "mj_per_req", "t", NULL);
		{
			json_t *ci = json_object_get(r, "ratio_ci95");
			double lo = json_number_value(json_array_get(ci, 0));
			double hi = json_number_value(json_array_get(ci, 1));

			CHECK(lo < 1.2 && hi > 1.2 && lo > 1.0 && hi < 1.45,
			      "bootstrap CI [%g, %g] holds 1.2 and excludes 1", lo, hi);
		}
		json_decref(d);
	}
}

static void
test_same_small(void)
{
	const double a[] = { 1, 2, 3 };
	struct tdef t = { "t", a, 3 };
	json_t *res = make_results("a", "Apple M5", &t, 1, 1), *d, *rows;
	size_t i, bad = 0;

	d = diff_compute(res, "a", NULL, res, "a", NULL, "same run directory");
	rows = json_object_get(d, "rows");
	CHECK(json_array_size(rows) > 0, "same data, 3 rounds: rows");
	for (i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i), *ci = json_object_get(r, "ratio_ci95");

		if (strcmp(verdict(r), "~") || rnum(r, "delta_pct") != 0 ||
		    json_number_value(json_array_get(ci, 0)) != 1 ||
		    json_number_value(json_array_get(ci, 1)) != 1)
			bad++;
	}
	CHECK(bad == 0, "same data, 3 rounds: every verdict ~, delta 0, CI [1, 1] (%zu bad)", bad);
	CHECK(json_is_true(json_object_get(d, "same_data")), "same data flagged");
	CHECK(has_note(d, "notes", "A and B are the same data (same run directory)"),
	      "same data stated");
	CHECK(!has_note(d, "notes", "no difference can reach"), "same data: no rounds note");
	json_decref(d);
	json_decref(res);
}

static void
test_layout(void)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 1, 2, 3, 4 };
	struct tdef ta[] = { { "both", a, 4 }, { "only-a", a, 4 } };
	struct tdef tb[] = { { "both", b, 4 }, { "only-b", b, 4 } };
	json_t *ra = make_results("a", "Apple M5", ta, 2, 1);
	json_t *rb = make_results("b", "Apple M4", tb, 2, 0);
	json_t *d, *o, *env, *r;
	struct buf out = BUF_INIT;
	size_t i, n_energy = 0;

	/* Different values, so not the same data (only-a vs only-b). */
	d = diff_compute(ra, "a", NULL, rb, "b", NULL, NULL);
	CHECK(!json_is_true(json_object_get(d, "same_data")), "layout: not the same data");
	o = json_object_get(json_object_get(d, "only_in_a"), "targets");
	CHECK(json_array_size(o) == 1 && !strcmp(json_string_value(json_array_get(o, 0)), "only-a"),
	      "target only in A listed");
	o = json_object_get(json_object_get(d, "only_in_b"), "targets");
	CHECK(json_array_size(o) == 1 && !strcmp(json_string_value(json_array_get(o, 0)), "only-b"),
	      "target only in B listed");
	o = json_object_get(json_object_get(d, "only_in_a"), "routes");
	CHECK(json_array_size(o) == 1 &&
	      !strcmp(json_string_value(json_object_get(json_array_get(o, 0), "route")), "video") &&
	      !strcmp(json_string_value(json_object_get(json_array_get(o, 0), "target")), "both"),
	      "route only in A listed");
	CHECK(find_row(d, "mj_per_req", "both", NULL) && !find_row(d, "mj_per_req", "only-a", NULL),
	      "rows only for targets in both");
	/* Latency p50 is null on both sides: no row; p99 and mean are there. */
	CHECK(!find_row(d, "latency_p50_us", "both", "ping"), "null latency p50: no row");
	r = find_row(d, "latency_p99_us", "both", "ping");
	CHECK(r && !strcmp(json_string_value(json_object_get(r, "unit")), "\xc2\xb5s"),
	      "latency p99 row in us");
	CHECK(find_row(d, "latency_mean_us", "both", "ping") != NULL, "latency mean row");
	r = find_row(d, "mj_per_req", "both", "ping");
	CHECK(r && rnum(json_object_get(r, "a"), "n") == 4 &&
	      json_array_size(json_object_get(json_object_get(r, "a"), "values")) == 4 &&
	      json_is_number(json_object_get(json_object_get(r, "b"), "sd")) &&
	      json_object_get(r, "p") && json_object_get(r, "delta_pct") &&
	      json_array_size(json_object_get(r, "ratio_ci95")) == 2 &&
	      json_is_string(json_object_get(r, "verdict")),
	      "row has a{mean,sd,n,values}, b, delta_pct, ratio_ci95, p, verdict");
	/* identical values but different runs: MW p = 1, bootstrap CI around 1 */
	CHECK_NEAR(rnum(r, "p"), 1, 0, "identical samples: p = 1");
	CHECK_STR(verdict(r), "~", "identical samples: ~");
	CHECK(json_array_size(json_object_get(d, "geomeans")) > 0, "geomeans present");
	for (i = 0; i < json_array_size(json_object_get(d, "rows")); i++) {
		const char *m = json_string_value(json_object_get(json_array_get(
			json_object_get(d, "rows"), i), "metric"));

		n_energy += !strcmp(m, "mj_per_req") || !strcmp(m, "watts");
	}
	CHECK(n_energy > 0, "energy rows compared");

	env = json_object_get(d, "environment");
	CHECK(json_is_true(json_object_get(env, "machines_differ")), "machines differ");
	o = json_array_get(json_object_get(env, "differences"), 0);
	CHECK(json_array_size(json_object_get(env, "differences")) == 1 && o &&
	      !strcmp(json_string_value(json_object_get(o, "field")), "machine.chip") &&
	      !strcmp(json_string_value(json_object_get(o, "b")), "Apple M4"),
	      "environment: exactly the chip differs");
	CHECK(has_note(d, "warnings", "powermetrics energy is an estimate and not comparable "
		       "across devices"), "machine warning");
	diff_render_text(d, &out);
	CHECK(strstr(out.ptr, "WARNING: the machines differ and energy is compared: powermetrics "
		     "energy is an estimate and not comparable across devices") != NULL,
	      "text: loud warning");
	CHECK(strstr(out.ptr, "targets only in A: only-a\n") != NULL, "text: target only in A");
	CHECK(strstr(out.ptr, "targets only in B: only-b\n") != NULL, "text: target only in B");
	CHECK(strstr(out.ptr, "routes only in A: video of both\n") != NULL, "text: route only in A");
	CHECK(strstr(out.ptr, "machine.chip") != NULL, "text: environment difference");
	buf_release(&out);
	json_decref(d);

	/* Same machine: no warning. */
	json_decref(rb);
	rb = make_results("b", "Apple M5", tb, 2, 0);
	d = diff_compute(ra, "a", NULL, rb, "b", NULL, NULL);
	CHECK(json_array_size(json_object_get(d, "warnings")) == 0, "same machine: no warning");
	CHECK(json_array_size(json_object_get(json_object_get(d, "environment"), "differences")) ==
	      0, "same machine: no environment difference");
	json_decref(d);
	json_decref(ra);
	json_decref(rb);
}

static void
test_escaping(void)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 };
	struct tdef ta = { "<script>x\x1b[31m|*", a, 4 }, tb = { "<script>x\x1b[31m|*", b, 4 };
	json_t *ra = make_results("a", "Apple M5", &ta, 1, 0);
	json_t *rb = make_results("b", "M\"4<", &tb, 1, 0);
	json_t *d = diff_compute(ra, "a&b", NULL, rb, "<b>", NULL, NULL);
	struct buf out = BUF_INIT;

	diff_render_html(d, NULL, &out);
	CHECK(!strstr(out.ptr, "<script") && strstr(out.ptr, "&lt;script&gt;"),
	      "html: target name escaped");
	CHECK(!strstr(out.ptr, "\x1b"), "html: no ESC byte");
	CHECK(strstr(out.ptr, "M&quot;4&lt;") != NULL, "html: environment value escaped");
	CHECK(strstr(out.ptr, "<title>erg diff: a&amp;b vs &lt;b&gt;</title>") != NULL,
	      "html: run ids escaped");
	CHECK(!strstr(out.ptr, "http") || !strstr(out.ptr, "src="), "html: no external resources");
	buf_reset(&out);
	diff_render_text(d, &out);
	CHECK(!strstr(out.ptr, "\x1b") && strstr(out.ptr, "<script>x?[31m|*"),
	      "text: control character shown as '?'");
	buf_reset(&out);
	diff_render_markdown(d, &out);
	CHECK(strstr(out.ptr, "\\<script\\>x?\\[31m\\|\\*") != NULL, "markdown: name escaped");
	buf_reset(&out);
	diff_render_json(d, &out);
	{
		json_error_t err;
		json_t *back = json_loads(out.ptr, 0, &err);

		CHECK(back && json_equal(back, d), "json output reads back equal");
		json_decref(back);
	}
	buf_release(&out);
	json_decref(d);
	json_decref(ra);
	json_decref(rb);
}

/* ------------------------------------------------- reference session */

static int
rebuild(const char *opts, const char *out)
{
	struct buf cmd = BUF_INIT;
	int rc;

	buf_addf(&cmd, "%s/tools/rebuild %s %s/reference/energy-benchmark-m5.json %s",
		 build_dir, opts, shared, out);
	rc = system(cmd.ptr);
	buf_release(&cmd);
	return rc;
}

static json_t *
process(const char *id, const char *dir)
{
	struct run_ref ref;

	ref.id = (char *)id;
	ref.dir = (char *)dir;
	ref.kind = RUN_ENERGY_SESSION;
	return build_process(&ref);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char tmp[8192];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	return buf_detach(&b, len);
}

#define REF_ID "m5-energy/2026-08-26T0856-saturated"
#define PERT_ID "m5-energy/perturbed-express-1.05"

static void
test_self(json_t *base, const char *dir)
{
	json_t *d = diff_compute(base, REF_ID, dir, base, REF_ID, dir, "same run directory");
	json_t *rows = json_object_get(d, "rows"), *again;
	size_t i, bad = 0;
	struct buf out = BUF_INIT;

	CHECK(json_array_size(rows) == 95, "self: 95 rows (got %zu)", json_array_size(rows));
	for (i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i), *ci = json_object_get(r, "ratio_ci95");

		if (strcmp(verdict(r), "~") || rnum(r, "delta_pct") != 0 || rnum(r, "p") != 1 ||
		    json_number_value(json_array_get(ci, 0)) != 1 ||
		    json_number_value(json_array_get(ci, 1)) != 1)
			bad++;
	}
	CHECK(bad == 0, "self: every verdict ~, delta 0, p 1, CI exactly [1, 1] (%zu bad)", bad);
	for (i = 0, bad = 0; i < json_array_size(json_object_get(d, "geomeans")); i++)
		bad += rnum(json_array_get(json_object_get(d, "geomeans"), i), "delta_pct") != 0;
	CHECK(bad == 0, "self: geomean deltas 0");
	diff_render_text(d, &out);
	CHECK(strstr(out.ptr, "note: A and B are the same data (same run directory)") != NULL,
	      "self: text says A and B are the same data");
	CHECK(strstr(out.ptr, "[1, 1]") != NULL && !strstr(out.ptr, "[0.") &&
	      !strstr(out.ptr, "[1.0"), "self: text CI [1, 1] only");
	CHECK(strstr(out.ptr, "environment: no differences") != NULL, "self: no env difference");
	buf_release(&out);
	json_decref(d);

	/* A copy of the same results (as from a copied run): identical measurements. */
	again = json_deep_copy(base);
	json_object_set_new(again, "run", json_string("copy"));
	{
		d = diff_compute(base, REF_ID, dir, again, "copy", dir, NULL);
		CHECK(json_is_true(json_object_get(d, "same_data")) &&
		      !strcmp(json_string_value(json_object_get(d, "same_data_reason")),
			      "identical measurements"),
		      "identical measurements detected as the same data");
		CHECK(json_integer_value(json_object_get(json_object_get(d, "summary"),
							 "significant")) == 0,
		      "self copy: nothing significant");
		json_decref(d);
		json_decref(again);
	}
}

static void
test_perturbed(json_t *base, json_t *pert)
{
	json_t *d = diff_compute(base, REF_ID, NULL, pert, PERT_ID, NULL, NULL);
	json_t *rows = json_object_get(d, "rows"), *r;
	size_t i, bad = 0, other = 0, p1 = 0, sig = 0;
	double pmin = 1;
	struct buf out = BUF_INIT;

	CHECK(!json_is_true(json_object_get(d, "same_data")), "perturbed: not the same data");
	r = find_row(d, "mj_per_req", "express", NULL);
	CHECK(r != NULL, "perturbed: express headline mJ/req row");
	if (r) {
		CHECK_NEAR(rnum(r, "delta_pct"), 5.0, 0.1, "express headline mJ/req delta %");
		CHECK_NEAR(rnum(r, "p"), 2.0 / 252, 1e-12, "express: p = 2/252 (5 vs 5 separated)");
		CHECK_STR(verdict(r), "+5.00%", "express headline verdict");
		CHECK_NEAR(json_number_value(json_array_get(json_object_get(r, "ratio_ci95"), 0)),
			   1.05, 0.02, "express CI low near 1.05");
		CHECK(json_number_value(json_array_get(json_object_get(r, "ratio_ci95"), 0)) > 1,
		      "express CI excludes 1");
	}
	r = find_row(d, "watts", "express", NULL);
	CHECK(r && !strcmp(verdict(r), "+5.00%"), "express headline W +5 %%: %s", verdict(r));
	r = find_row(d, "rps", "express", NULL);
	CHECK(r && !strcmp(verdict(r), "~"), "express req/s unchanged: %s", verdict(r));
	for (i = 0; i < json_array_size(rows); i++) {
		const char *t;

		r = json_array_get(rows, i);
		t = json_string_value(json_object_get(r, "target"));
		if (!strcmp(t, "express")) {
			sig += strcmp(verdict(r), "~") != 0;
			continue;
		}
		other++;
		if (strcmp(verdict(r), "~"))
			bad++;
		if (rnum(r, "p") == 1)
			p1++;
		if (rnum(r, "p") < pmin)
			pmin = rnum(r, "p");
		if (fabs(rnum(r, "delta_pct")) > 1e-5)
			bad++;
	}
	CHECK(other == 76 && bad == 0, "every other target ~ with delta ~0 (%zu rows, %zu bad)",
	      other, bad);
	printf("# other targets: %zu of %zu rows with p = 1, smallest p %.4f (rebuild --perturb "
	       "moves their values by ~1e-8 relative)\n", p1, other, pmin);
	CHECK(sig == 10, "express: 10 significant rows (energy and W; got %zu)", sig);
	CHECK(json_array_size(json_object_get(d, "warnings")) == 0, "perturbed: no warning");
	diff_render_html(d, NULL, &out);
	CHECK(strstr(out.ptr, "<tr><td>express</td><td class=\"num\">0.17023 \xc2\xb1 0.00107 (5)"
		     "</td><td class=\"num\">0.17874 \xc2\xb1 0.00113 (5)</td><td class=\"num\">"
		     "+5.00%</td>") && strstr(out.ptr, "<td class=\"sig\">+5.00%</td>"),
	      "html: express row and verdict");
	buf_reset(&out);
	diff_render_markdown(d, &out);
	CHECK(strstr(out.ptr, "| express | 0.17023 \xc2\xb1 0.00107 (5) | 0.17874 \xc2\xb1 0.00113 (5) "
		     "| +5.00% | [1.0429, 1.0574] | 0.0079 | +5.00% |\n") != NULL,
	      "markdown: express row");
	buf_release(&out);
	json_decref(d);
}

/* diff_main over a NULL-terminated list of arguments (copied: argv is char **). */
static int
run_diff(const char *first, ...)
{
	char *argv[32];
	const char *a;
	va_list ap;
	int argc = 0, rc, i;

	va_start(ap, first);
	for (a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = xstrdup(a);
	va_end(ap);
	argv[argc] = NULL;
	rc = diff_main(argc, argv);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return rc;
}

/* The command, end to end: arguments, the golden text, JSON and HTML files. */
static void
test_command(const char *archive)
{
	char golden[1024], out[1024], tmpl[] = "/tmp/erg-diff-out-XXXXXX";
	char *want, *got;
	size_t wlen = 0, glen = 0;
	int rc;

	snprintf(golden, sizeof(golden), "%s/tests/golden/diff/perturbed.txt", src_dir);
	if (!mkdtemp(tmpl)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(out, sizeof(out), "%s/perturbed.txt", tmpl);
	rc = run_diff("diff", "--archive", archive, "--out", out, REF_ID, PERT_ID, NULL);
	CHECK(rc == 0, "diff_main text exits 0 (%d)", rc);
	want = slurp(golden, &wlen);
	got = slurp(out, &glen);
	CHECK(want != NULL, "golden file %s readable", golden);
	CHECK(want && got && wlen == glen && !memcmp(want, got, wlen),
	      "text output equals tests/golden/diff/perturbed.txt byte for byte "
	      "(see diff -u %s %s)", golden, out);
	if (want && got && wlen == glen && !memcmp(want, got, wlen))
		unlink(out);
	free(want);
	free(got);

	snprintf(out, sizeof(out), "%s/d.json", tmpl);
	{
		json_error_t err;
		json_t *d;

		rc = run_diff("diff", "--archive", archive, "--format", "json", "--out", out,
			      REF_ID, REF_ID, NULL);
		CHECK(rc == 0, "diff_main json exits 0");
		d = json_load_file(out, 0, &err);
		CHECK(d && json_is_true(json_object_get(d, "same_data")) &&
		      !strcmp(json_string_value(json_object_get(d, "same_data_reason")),
			      "same run directory") &&
		      !strcmp(json_string_value(json_object_get(d, "format")), "erg-diff/1"),
		      "json: same run directory");
		json_decref(d);
		unlink(out);
	}
	snprintf(out, sizeof(out), "%s/d.html", tmpl);
	{
		char *html;
		size_t n = 0;

		/* the same run: no resampling, so quick under valgrind */
		rc = run_diff("diff", "--archive", archive, "--format", "html", "--templates",
			      "/nonexistent", "--out", out, REF_ID, REF_ID, NULL);
		CHECK(rc == 0, "diff_main html exits 0");
		html = slurp(out, &n);
		CHECK(html && !strncmp(html, "<!DOCTYPE html>", 15) && strstr(html, "<style>") &&
		      strstr(html, "</html>\n") && !strstr(html, "<link") && !strstr(html, "<script") &&
		      !strstr(html, "src="), "html: self-contained page");
		CHECK(html && strstr(html, "<td class=\"ns\">~</td>") &&
		      strstr(html, "A and B are the same data"), "html: same data, verdicts ~");
		free(html);
		unlink(out);
	}
	/* usage errors: 2; a missing run: 1 */
	CHECK(run_diff("diff", REF_ID, NULL) == 2, "one run: usage error");
	CHECK(run_diff("diff", "--format", "xml", "a", "b", NULL) == 2, "unknown format: usage error");
	CHECK(run_diff("diff", "--format", "html", "a", "b", NULL) == 2,
	      "html without --out: usage error");
	CHECK(run_diff("diff", "--archive", archive, REF_ID, "no-such-run", NULL) == 1,
	      "missing run: error");
	CHECK(run_diff("diff", "--bogus", "a", "b", NULL) == 2, "unknown option: usage error");
	CHECK(run_diff("diff", "a", "b", "c", NULL) == 2, "three runs: usage error");
	CHECK(run_diff("diff", "--archive", NULL) == 2, "option without value: usage error");
	rmdir(tmpl);
}

int
main(void)
{
	char dir[] = "/tmp/erg-diff-XXXXXX";
	struct buf a = BUF_INIT, b = BUF_INIT, cmd = BUF_INIT;
	json_t *base = NULL, *pert = NULL;

	/* whole lines, so diff_main's diagnostics on stderr cannot split one */
	setvbuf(stdout, NULL, _IOLBF, 0);
	build_dir = getenv("BUILD") ? getenv("BUILD") : "build";
	shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	src_dir = getenv("ERG_SRC") ? getenv("ERG_SRC") : ".";

	test_mann_whitney();
	test_same_small();
	test_layout();
	test_escaping();

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return th_done();
	}
	buf_addf(&a, "%s/%s", dir, REF_ID);
	buf_addf(&b, "%s/%s", dir, PERT_ID);
	CHECK(rebuild("", a.ptr) == 0, "rebuild the reference session");
	CHECK(rebuild("--perturb express=1.05", b.ptr) == 0, "rebuild with express x1.05");
	diag_quiet_warnings = 1;
	base = process(REF_ID, a.ptr);
	pert = process(PERT_ID, b.ptr);
	CHECK(base && pert, "both sessions process");
	if (base && pert) {
		test_self(base, a.ptr);
		test_perturbed(base, pert);
		test_command(dir);
	}
	json_decref(base);
	json_decref(pert);
	buf_addf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd.ptr))
		printf("# cleanup of %s failed\n", dir);
	buf_release(&a);
	buf_release(&b);
	buf_release(&cmd);
	return th_done();
}
