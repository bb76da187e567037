/*
 * test_stats.c - unit tests for gen/analyze/stats.c.
 *
 * Every expected value below was worked out independently of the C code:
 * by hand (shown in the comment), or with Python 3 using exact rational
 * arithmetic (fractions.Fraction), brute-force enumeration of all
 * C(nx+ny, nx) relabelings for Mann-Whitney, or mpmath 1.3 (40 digits,
 * regularised incomplete beta inverted with findroot) for t quantiles.
 * None of them is output of stats.c pasted back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "analyze/stats.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))

static void
test_summary(void)
{
	/*
	 * {1,2,3,4,10}: mean 20/5 = 4; deviations -3 -2 -1 0 6, squares sum
	 * 50, var 50/4 = 12.5, sd sqrt(12.5) = 3.5355339059327378;
	 * cv = sd/4 = 0.88388347648318444; median 3.  CI half-width =
	 * t975(4) * sd / sqrt 5 = 2.776 * 1.5811388300841898 = 4.389241392,
	 * so [-0.38924139231371058, 8.3892413923137106] (Python).
	 */
	static const double x[] = { 10, 2, 4, 1, 3 };
	struct summary s;

	stats_summary(x, N_(x), &s);
	CHECK(s.n == 5, "summary n");
	CHECK_NEAR(s.mean, 4, 1e-15, "summary mean");
	CHECK_NEAR(s.sd, 3.5355339059327378, 1e-14, "summary sd");
	CHECK_NEAR(s.cv, 0.88388347648318444, 1e-14, "summary cv");
	CHECK_NEAR(s.min, 1, 0, "summary min");
	CHECK_NEAR(s.max, 10, 0, "summary max");
	CHECK_NEAR(s.median, 3, 0, "summary median (odd n)");
	CHECK_NEAR(s.ci_lo, -0.38924139231371058, 1e-13, "summary ci_lo");
	CHECK_NEAR(s.ci_hi, 8.3892413923137106, 1e-13, "summary ci_hi");

	/* Even n: median of {4,1,3,2} is (2+3)/2. */
	{
		static const double e[] = { 4, 1, 3, 2 };

		CHECK_NEAR(stats_median(e, 4), 2.5, 0, "median even n");
	}
	/* sd of a constant is exactly 0 */
	{
		static const double c[] = { 0.1, 0.1, 0.1 };

		CHECK_NEAR(stats_sd(c, 3), 0, 1e-17, "sd of constant");
	}
	/*
	 * Centring matters: {1e9+1, 1e9+2, 1e9+3} has sd 1 exactly; the
	 * naive sum-of-squares formula loses it.
	 */
	{
		static const double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

		CHECK_NEAR(stats_sd(big, 3), 1, 1e-9, "sd with large offset");
	}
}

static void
test_small_n(void)
{
	static const double one[] = { 7 };
	static const double nanv[] = { 1, NAN, 3 };
	struct summary s;
	double a, b, r2, lo, hi, r[3], u;

	stats_summary(NULL, 0, &s);
	CHECK(s.n == 0 && isnan(s.mean) && isnan(s.sd) && isnan(s.median) &&
	      isnan(s.min) && isnan(s.ci_lo), "summary n=0 all NAN");
	stats_summary(one, 1, &s);
	CHECK(s.mean == 7 && s.median == 7 && s.min == 7 && s.max == 7,
	      "summary n=1 location = the value");
	CHECK(isnan(s.sd) && isnan(s.cv) && isnan(s.ci_lo) && isnan(s.ci_hi),
	      "summary n=1 spread NAN");
	stats_summary(nanv, 3, &s);
	CHECK(isnan(s.mean) && isnan(s.sd) && isnan(s.median) &&
	      isnan(s.min) && isnan(s.max), "summary with NaN input is NAN");
	CHECK(isnan(stats_mean(NULL, 0)), "mean n=0");
	CHECK(isnan(stats_sd(one, 1)), "sd n=1");
	CHECK(isnan(stats_median(NULL, 0)), "median n=0");
	CHECK(isnan(stats_median(nanv, 3)), "median with NaN");
	CHECK(isnan(stats_t975(0)), "t975 df=0");
	CHECK(stats_ols(one, one, 1, &a, &b, &r2) == -1 && isnan(a) &&
	      isnan(b) && isnan(r2), "ols n=1");
	CHECK(stats_ols(nanv, one, 0, &a, &b, NULL) == -1, "ols n=0");
	CHECK(stats_ols2_origin(one, one, one, 1, &a, &b, &r2) == -1,
	      "ols2_origin n=1");
	CHECK(isnan(stats_pearson(one, one, 1)), "pearson n=1");
	CHECK(isnan(stats_spearman(one, one, 1)), "spearman n=1");
	CHECK(isnan(stats_pearson(nanv, nanv, 3)), "pearson NaN");
	CHECK(isnan(stats_spearman(nanv, nanv, 3)), "spearman NaN");
	stats_ranks(nanv, 3, r);
	CHECK(r[0] == 1 && isnan(r[1]) && r[2] == 2, "ranks: NaN gets NAN");
	CHECK(isnan(stats_mann_whitney(NULL, 0, one, 1, &u)) && isnan(u),
	      "mann-whitney empty side");
	CHECK(isnan(stats_mann_whitney(nanv, 3, one, 1, NULL)),
	      "mann-whitney NaN");
	CHECK(isnan(stats_geomean(NULL, 0)), "geomean n=0");
	CHECK_NEAR(stats_geomean(one, 1), 7, 1e-14, "geomean n=1");
	CHECK(stats_bootstrap_ratio(one, 1, one, 1, 100, 1, &lo, &hi) == -1 &&
	      isnan(lo) && isnan(hi), "bootstrap n=1 refused");
	CHECK(stats_bootstrap_ratio(nanv, 3, nanv, 3, 100, 1, &lo, &hi) == -1,
	      "bootstrap NaN refused");
}

static void
test_t975(void)
{
	/* Table values from energy-method.md section 5, returned verbatim. */
	CHECK_NEAR(stats_t975(1), 12.706, 1e-12, "t975 df=1 table");
	CHECK_NEAR(stats_t975(4), 2.776, 1e-12, "t975 df=4 table");
	CHECK_NEAR(stats_t975(30), 2.042, 1e-12, "t975 df=30 table");
	/* ... and within table rounding of the exact quantiles (mpmath). */
	CHECK_NEAR(stats_t975(1), 12.7062047361747, 5e-4, "t975 df=1 exact");
	CHECK_NEAR(stats_t975(4), 2.77644510519779, 5e-4, "t975 df=4 exact");
	CHECK_NEAR(stats_t975(30), 2.04227245630124, 5e-4, "t975 df=30 exact");
	/* Printed tables: 2.021 (df 40), 1.984 (df 100). */
	CHECK_NEAR(stats_t975(40), 2.021, 5e-4, "t975 df=40 printed table");
	CHECK_NEAR(stats_t975(100), 1.984, 5e-4, "t975 df=100 printed table");
	/* Exact (mpmath, 40 digits); the expansion promises < 3e-8. */
	CHECK_NEAR(stats_t975(31), 2.03951344639641, 3e-8, "t975 df=31");
	CHECK_NEAR(stats_t975(40), 2.02107539030627, 3e-8, "t975 df=40");
	CHECK_NEAR(stats_t975(60), 2.00029782201426, 3e-8, "t975 df=60");
	CHECK_NEAR(stats_t975(100), 1.98397151852355, 3e-8, "t975 df=100");
	CHECK_NEAR(stats_t975(1000), 1.96233908082641, 1e-12, "t975 df=1000");
	CHECK_NEAR(stats_t975(4000000000u), 1.959963984540054, 1e-9,
		   "t975 df huge -> z");
}

static void
test_ols(void)
{
	/*
	 * x = 1..5, y = {1,3,2,5,4}: xbar = ybar = 3, Sxx = 10,
	 * Sxy = 4+0+0+2+2 = 8, Syy = 4+0+1+4+1 = 10 -> b = 0.8,
	 * a = 3 - 2.4 = 0.6, R^2 = 8^2/(10*10) = 0.64.
	 */
	static const double x[] = { 1, 2, 3, 4, 5 };
	static const double y[] = { 1, 3, 2, 5, 4 };
	static const double c[] = { 2, 2, 2, 2, 2 };
	double a, b, r2, bx[4], by[4];
	int i;

	CHECK(stats_ols(x, y, 5, &a, &b, &r2) == 0, "ols returns 0");
	CHECK_NEAR(a, 0.6, 1e-14, "ols intercept");
	CHECK_NEAR(b, 0.8, 1e-14, "ols slope");
	CHECK_NEAR(r2, 0.64, 1e-14, "ols r2");
	CHECK(stats_ols(c, y, 5, &a, &b, &r2) == -1 && isnan(b),
	      "ols x without spread -> -1, b NAN");
	/* y constant: line b = 0 exists, R^2 is 0/0 -> NAN */
	CHECK(stats_ols(x, c, 5, &a, &b, &r2) == 0 && b == 0 && a == 2 &&
	      isnan(r2), "ols constant y: b 0, r2 NAN");
	/*
	 * Millisecond timestamps (the time-axis fit): x = 1.7e12 + 1000 i,
	 * y = 3 + 0.5 x, all exactly representable.  Exact answer a = 3,
	 * b = 0.5, R^2 = 1; a keeps ~1e-4 absolute error from ybar - b xbar
	 * at magnitude 8.5e11 (ulp 1.2e-4), nothing more.
	 */
	for (i = 0; i < 4; i++) {
		bx[i] = 1.7e12 + 1000.0 * i;
		by[i] = 3 + 0.5 * bx[i];
	}
	CHECK(stats_ols(bx, by, 4, &a, &b, &r2) == 0, "ols big x");
	CHECK_NEAR(b, 0.5, 1e-12, "ols big x slope");
	CHECK_NEAR(a, 3, 1e-3, "ols big x intercept");
	CHECK_NEAR(r2, 1, 1e-12, "ols big x r2");
}

static void
test_ols2_origin(void)
{
	/*
	 * Fraction arithmetic in Python on the normal equations:
	 * x1 = {1,2,3,4}, x2 = {2,1,0,1}, y = {3,5,6,9}:
	 *   a = 121/58 = 2.086206896551724, b = 16/29 = 0.5517241379310345,
	 *   R^2 centred   1 - SSres/sum(y-ybar)^2 = 0.98988505747126432,
	 *   R^2 uncentred 1 - SSres/sum y^2       = 0.99874400548070341.
	 * The header promises the centred one; both are checked so a swap
	 * of definitions is caught.
	 */
	static const double x1[] = { 1, 2, 3, 4 };
	static const double x2[] = { 2, 1, 0, 1 };
	static const double y[] = { 3, 5, 6, 9 };
	/*
	 * Second example: y ~ constant fitted through the origin with
	 * x1 = {1,2,3,4}, x2 = x1^2, y = {10,11,10,11}: a = 1381/155,
	 * b = -50/31, R^2 centred = -12.703225806451613 (worse than the
	 * mean), uncentred 0.9689972266822362 (looks great - the reason
	 * the centred form is the honest one).
	 */
	static const double q2[] = { 1, 4, 9, 16 };
	static const double yc[] = { 10, 11, 10, 11 };
	static const double dbl[] = { 2, 4, 6, 8 };
	double a, b, r2;

	CHECK(stats_ols2_origin(x1, x2, y, 4, &a, &b, &r2) == 0,
	      "origin fit returns 0");
	CHECK_NEAR(a, 121.0 / 58, 1e-13, "origin fit a");
	CHECK_NEAR(b, 16.0 / 29, 1e-13, "origin fit b");
	CHECK_NEAR(r2, 0.98988505747126432, 1e-13, "origin fit R^2 centred");
	CHECK(fabs(r2 - 0.99874400548070341) > 1e-3,
	      "origin fit R^2 is not the uncentred value");

	CHECK(stats_ols2_origin(x1, q2, yc, 4, &a, &b, &r2) == 0,
	      "origin fit 2 returns 0");
	CHECK_NEAR(a, 1381.0 / 155, 1e-12, "origin fit 2 a");
	CHECK_NEAR(b, -50.0 / 31, 1e-12, "origin fit 2 b");
	CHECK_NEAR(r2, -12.703225806451613, 1e-11,
		   "origin fit 2 R^2 centred (negative)");
	CHECK(stats_ols2_origin(x1, x2, y, 4, &a, &b, NULL) == 0,
	      "origin fit r2 may be NULL");

	/* x2 = 2 x1: collinear -> singular */
	CHECK(stats_ols2_origin(x1, dbl, y, 4, &a, &b, &r2) == -1 &&
	      isnan(a) && isnan(b) && isnan(r2), "origin fit singular");
}

static void
test_correlation(void)
{
	/*
	 * x = {10,20,20,30}, y = {1,2,3,4} by hand: ranks x 1 2.5 2.5 4,
	 * ranks y 1 2 3 4; both mean 2.5; Sxy = 2.25+0+0+2.25 = 4.5,
	 * Sxx = 4.5, Syy = 5 -> rho = 4.5/sqrt(22.5) = 0.9486832980505138.
	 * Pearson of the raw values: x - 20 = -10 0 0 10, y - 2.5 =
	 * -1.5 -.5 .5 1.5: Sxy = 30, Sxx = 200, Syy = 5 -> 30/sqrt(1000)
	 * = 0.9486832980505138 as well.
	 */
	static const double hx[] = { 10, 20, 20, 30 };
	static const double hy[] = { 1, 2, 3, 4 };
	/*
	 * Python (Fraction): px/py below, Pearson = (225/8) /
	 * sqrt((191/8)(431/8)) = 0.78420065265318162; mid-ranks
	 * px: 1 5/2 5/2 4 6 6 6 8, py: 2 1 4 3 11/2 11/2 8 7;
	 * Spearman = 0.85211164199264344.
	 */
	static const double px[] = { 1, 2, 2, 3, 4, 4, 4, 7 };
	static const double py[] = { 2, 1, 4, 3, 5, 5, 9, 8 };
	static const double rpx[] = { 1, 2.5, 2.5, 4, 6, 6, 6, 8 };
	static const double rpy[] = { 2, 1, 4, 3, 5.5, 5.5, 8, 7 };
	static const double c[] = { 3, 3, 3, 3 };
	static const double neg[] = { 4, 3, 2, 1 };
	double r[8];
	size_t i;
	int ok;

	CHECK_NEAR(stats_spearman(hx, hy, 4), 0.9486832980505138, 1e-15,
		   "spearman by hand with a tie");
	CHECK_NEAR(stats_pearson(hx, hy, 4), 0.9486832980505138, 1e-15,
		   "pearson by hand");
	CHECK_NEAR(stats_pearson(px, py, 8), 0.78420065265318162, 1e-14,
		   "pearson with ties");
	CHECK_NEAR(stats_spearman(px, py, 8), 0.85211164199264344, 1e-14,
		   "spearman with ties (average ranks)");
	stats_ranks(px, 8, r);
	for (ok = 1, i = 0; i < 8; i++)
		ok &= r[i] == rpx[i];
	CHECK(ok, "mid-ranks of px");
	stats_ranks(py, 8, r);
	for (ok = 1, i = 0; i < 8; i++)
		ok &= r[i] == rpy[i];
	CHECK(ok, "mid-ranks of py (unsorted input)");
	CHECK(isnan(stats_pearson(c, hy, 4)), "pearson zero variance");
	CHECK(isnan(stats_spearman(c, hy, 4)), "spearman all tied");
	CHECK_NEAR(stats_pearson(neg, hy, 4), -1, 0, "pearson exactly -1");
	CHECK_NEAR(stats_spearman(neg, hy, 4), -1, 0, "spearman exactly -1");
}

static void
test_mann_whitney(void)
{
	static const double a5[] = { 1, 2, 3, 4, 5 };
	static const double b5[] = { 6, 7, 8, 9, 10 };
	static const double a3[] = { 1, 2, 3 };
	static const double b3[] = { 4, 5, 6 };
	static const double same[] = { 5, 5, 5, 5 };
	/*
	 * Tied cases: U counts x > y pairs (+1/2 per tie); p by
	 * enumerating every relabeling of the pooled sample in Python and
	 * applying p = min(1, 2 min(P(U <= u), P(U >= u))).
	 */
	static const double t1x[] = { 1, 2, 2, 3, 5 };
	static const double t1y[] = { 2, 3, 3, 4, 6, 6 };
	static const double t2x[] = { 1.5, 1.5, 2, 2, 2, 3, 4, 4 };
	static const double t2y[] = { 2, 3, 3, 4, 4, 5, 5, 5, 6 };
	static const double t3x[] = { 1, 1, 1, 2, 2 };
	static const double t3y[] = { 1, 1, 2, 2, 2, 2, 3 };
	double xs[60], ys[60], u, p;
	int i;

	/* 5 vs 5 separated: only 1 of C(10,5) = 252 in each tail: 2/252 */
	p = stats_mann_whitney(a5, 5, b5, 5, &u);
	CHECK_NEAR(p, 2.0 / 252, 1e-15, "mw 5v5 separated p = 2/252");
	CHECK_NEAR(u, 0, 0, "mw 5v5 U_x = 0");
	p = stats_mann_whitney(b5, 5, a5, 5, &u);
	CHECK_NEAR(p, 0.0079365079365079361, 1e-15, "mw 5v5 reversed p");
	CHECK_NEAR(u, 25, 0, "mw 5v5 reversed U_x = 25");
	/* 3 vs 3 separated: 2/C(6,3) = 2/20 */
	CHECK_NEAR(stats_mann_whitney(a3, 3, b3, 3, NULL), 0.1, 1e-15,
		   "mw 3v3 separated p = 0.1");
	/* identical samples: U = nx ny / 2, both tails >= 1/2 */
	CHECK_NEAR(stats_mann_whitney(a5, 5, a5, 5, &u), 1, 0,
		   "mw identical samples p = 1");
	CHECK_NEAR(u, 12.5, 0, "mw identical samples U = 12.5");
	CHECK_NEAR(stats_mann_whitney(same, 4, same, 3, &u), 1, 0,
		   "mw all values equal p = 1");
	CHECK_NEAR(u, 6, 0, "mw all equal U = 4*3/2");
	/* {1,2,2} vs {2,3}: 2>2 twice counts 1/2 each -> U = 1 (by hand) */
	{
		static const double tx[] = { 1, 2, 2 };
		static const double ty[] = { 2, 3 };

		stats_mann_whitney(tx, 3, ty, 2, &u);
		CHECK_NEAR(u, 1, 0, "mw U with ties by hand");
	}

	/* Brute force (Python): t1 U=7 p=40/231, t2 U=11.5 p=3/143,
	 * t3 U=11 p=31/66 */
	p = stats_mann_whitney(t1x, N_(t1x), t1y, N_(t1y), &u);
	CHECK_NEAR(u, 7, 0, "mw ties t1 U");
	CHECK_NEAR(p, 40.0 / 231, 1e-14, "mw ties t1 exact p = 40/231");
	p = stats_mann_whitney(t2x, N_(t2x), t2y, N_(t2y), &u);
	CHECK_NEAR(u, 11.5, 0, "mw ties t2 U");
	CHECK_NEAR(p, 3.0 / 143, 1e-14, "mw ties t2 exact p = 3/143");
	p = stats_mann_whitney(t3x, N_(t3x), t3y, N_(t3y), &u);
	CHECK_NEAR(u, 11, 0, "mw ties t3 U");
	CHECK_NEAR(p, 31.0 / 66, 1e-14, "mw ties t3 exact p = 31/66");
	/* swapping sides: same two-sided p, U_y = nx ny - U_x */
	p = stats_mann_whitney(t2y, N_(t2y), t2x, N_(t2x), &u);
	CHECK_NEAR(u, 72 - 11.5, 0, "mw ties t2 swapped U");
	CHECK_NEAR(p, 3.0 / 143, 1e-14, "mw ties t2 swapped p");

	/* E: 12 vs 10, no ties, x_i = 5i mod 23, y_i = (5i+2) mod 23 + 0.5;
	 * brute force over C(22,10) = 646646 labelings: U = 55,
	 * p = 249380/323323 = 0.77130300040516764 */
	for (i = 0; i < 12; i++)
		xs[i] = (5 * i) % 23;
	for (i = 0; i < 10; i++)
		ys[i] = (5 * i + 2) % 23 + 0.5;
	p = stats_mann_whitney(xs, 12, ys, 10, &u);
	CHECK_NEAR(u, 55, 0, "mw 12v10 U");
	CHECK_NEAR(p, 249380.0 / 323323, 1e-13, "mw 12v10 exact p (brute)");

	/*
	 * A: 50 vs 50, no ties (exact limit): x_i = 2 ((7i) mod 50) (the
	 * evens 0..98), y_i = 2i + 21.  Python, exact integers via the
	 * recursion c(u;m,n) = c(u-n;m-1,n) + c(u;m,n-1) over U:
	 * U = 780, p = 0.0010550164711136758 (normal would give 0.00121).
	 */
	for (i = 0; i < 50; i++) {
		xs[i] = 2 * ((7 * i) % 50);
		ys[i] = 2 * i + 21;
	}
	p = stats_mann_whitney(xs, 50, ys, 50, &u);
	CHECK_NEAR(u, 780, 0, "mw 50v50 U");
	CHECK_NEAR(p, 0.0010550164711136758, 1e-15, "mw 50v50 exact p");

	/*
	 * B: 25 vs 25 with ties (exact limit): x_i = (7i) mod 13,
	 * y_i = (5i) mod 11 + 2.  Python: element-by-element 0/1 knapsack
	 * over (count, mid-rank sum) with exact integers (itself checked
	 * against brute force on t1..t3): U = 265,
	 * p = 0.36053111368635304.
	 */
	for (i = 0; i < 25; i++) {
		xs[i] = (7 * i) % 13;
		ys[i] = (5 * i) % 11 + 2;
	}
	p = stats_mann_whitney(xs, 25, ys, 25, &u);
	CHECK_NEAR(u, 265, 0, "mw 25v25 ties U");
	CHECK_NEAR(p, 0.36053111368635304, 1e-13, "mw 25v25 ties exact p");

	/*
	 * C: same formulas for 30 vs 30 -> ties above 25, normal
	 * approximation.  Python: U = 361.5, tie term sum(t^3 - t),
	 * var = 900/12 ((61) - T/(60*59)), z = (|U - 450| - 0.5)/sd,
	 * p = erfc(z/sqrt 2) = 0.19186596156951169 (exact would be 0.19214).
	 */
	for (i = 0; i < 30; i++) {
		xs[i] = (7 * i) % 13;
		ys[i] = (5 * i) % 11 + 2;
	}
	p = stats_mann_whitney(xs, 30, ys, 30, &u);
	CHECK_NEAR(u, 361.5, 0, "mw 30v30 ties U");
	CHECK_NEAR(p, 0.19186596156951169, 1e-12, "mw 30v30 normal approx p");

	/* D: 60 vs 55 no ties -> normal: x_i = 3i, y_i = 3i + 31.
	 * Python: U = 1225, p = 0.017466219103968259 */
	for (i = 0; i < 60; i++)
		xs[i] = 3 * i;
	for (i = 0; i < 55; i++)
		ys[i] = 3 * i + 31;
	p = stats_mann_whitney(xs, 60, ys, 55, &u);
	CHECK_NEAR(u, 1225, 0, "mw 60v55 U");
	CHECK_NEAR(p, 0.017466219103968259, 1e-12, "mw 60v55 normal approx p");

	/* min p = 2 / C(n+m, n) */
	CHECK_NEAR(stats_mw_min_p(5, 5), 2.0 / 252, 1e-17, "mw_min_p 5,5");
	CHECK_NEAR(stats_mw_min_p(3, 3), 0.1, 1e-17, "mw_min_p 3,3");
	CHECK_NEAR(stats_mw_min_p(4, 4), 2.0 / 70, 1e-17, "mw_min_p 4,4");
	CHECK_NEAR(stats_mw_min_p(3, 7), 2.0 / 120, 1e-17, "mw_min_p 3,7");
	CHECK_NEAR(stats_mw_min_p(1, 1), 1, 0, "mw_min_p 1,1 capped at 1");
	CHECK(isnan(stats_mw_min_p(0, 4)), "mw_min_p empty side NAN");
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Type 7 on a sorted copy, written out as its definition. */
static double
type7_sorted(const double *v, size_t n, double p)
{
	double *s = malloc(n * sizeof(*s)), h = p * (double)(n - 1), r;
	size_t i = (size_t)h;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	r = i + 1 >= n ? s[n - 1] : s[i] + (h - (double)i) * (s[i + 1] - s[i]);
	if (i + 1 < n && h == (double)i)
		r = s[i];
	free(s);
	return r;
}

/*
 * stats_percentile finds its order statistics by selection: the same
 * values a sort gives, to the bit, for any order and any ties (sizes 1 to
 * 10,000; sorted, reversed, organ-pipe, few distinct values, all equal).
 */
static void
test_percentile(void)
{
	static const double ps[] = { 0, 0.025, 0.1, 0.5, 0.9, 0.975, 1, 0.3333 };
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 16, 33, 100, 257, 1000, 10000 };
	uint64_t st = 12345;
	double *v = malloc(10000 * sizeof(*v)), *w = malloc(10000 * sizeof(*w));
	size_t si, i, pi, bad = 0, cases = 0;
	int shape;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];

		for (shape = 0; shape < 6; shape++) {
			for (i = 0; i < n; i++) {
				st = st * 6364136223846793005u + 1442695040888963407u;
				switch (shape) {
				case 0: v[i] = (double)(st >> 11) / 9007199254740992.0; break;
				case 1: v[i] = (double)((st >> 33) % 4); break;
				case 2: v[i] = (double)i; break;
				case 3: v[i] = (double)(n - i); break;
				case 4: v[i] = (double)(i < n / 2 ? i : n - i); break;
				default: v[i] = 0.1; break;
				}
			}
			for (pi = 0; pi < sizeof(ps) / sizeof(ps[0]); pi++) {
				double want = type7_sorted(v, n, ps[pi]), got;

				memcpy(w, v, n * sizeof(*w));
				got = stats_percentile(w, n, ps[pi]);
				cases++;
				if (memcmp(&got, &want, sizeof(got)) != 0) {
					if (bad++ < 5)
						printf("# n %zu shape %d p %g: %.17g, sorted %.17g\n", n,
						       shape, ps[pi], got, want);
				}
			}
		}
	}
	CHECK(bad == 0, "percentile by selection equals the sorted type 7, bit for bit (%zu of %zu differ)",
	      bad, cases);
	free(v);
	free(w);
}

static void
test_bootstrap(void)
{
	/*
	 * Constant samples: every resample mean is the same sum of the
	 * same value, so every ratio is exactly 1 - even for 0.1, which is
	 * not representable.
	 */
	static const double k[] = { 0.1, 0.1, 0.1, 0.1, 0.1 };
	static const double x[] = { 9.8, 10.1, 10.4, 9.9, 10.0,
				    10.3, 9.7, 10.2, 10.0, 9.6 };
	/* x = {1,3}, y = {2,2}: mean(x*) is 1, 2, 3 with prob 1/4, 1/2,
	 * 1/4, so ratios 2, 1, 2/3; with 10000 reps the 2.5 % and 97.5 %
	 * points fall inside the 2/3 and 2 blocks (each holds ~2500). */
	static const double ax[] = { 1, 3 };
	static const double ay[] = { 2, 2 };
	static const double z[] = { 1, -1 };
	double y[10], lo, hi, lo2, hi2;
	int i, ok;

	CHECK(stats_bootstrap_ratio(k, 5, k, 5, 2000, 42, &lo, &hi) == 0,
	      "bootstrap constant returns 0");
	CHECK(lo == 1 && hi == 1, "bootstrap x == y constant: [1, 1] exactly");

	for (i = 0; i < 10; i++)
		y[i] = 1.05 * x[i];
	ok = stats_bootstrap_ratio(x, 10, y, 10, 10000, 7, &lo, &hi) == 0;
	CHECK(ok && lo < 1.05 && hi > 1.05 && lo > 1.0 && hi < 1.1,
	      "bootstrap y = 1.05 x: CI [%g, %g] contains 1.05", lo, hi);
	stats_bootstrap_ratio(x, 10, y, 10, 10000, 7, &lo2, &hi2);
	CHECK(lo == lo2 && hi == hi2, "bootstrap deterministic for a seed");
	stats_bootstrap_ratio(x, 10, y, 10, 10000, 8, &lo2, &hi2);
	CHECK(lo != lo2 || hi != hi2, "bootstrap seed changes the stream");
	/* x == y, not constant: interval around 1, not degenerate */
	ok = stats_bootstrap_ratio(x, 10, x, 10, 10000, 7, &lo, &hi) == 0;
	CHECK(ok && lo < 1 && hi > 1, "bootstrap x == y: CI straddles 1");

	CHECK(stats_bootstrap_ratio(ax, 2, ay, 2, 10000, 1, &lo, &hi) == 0,
	      "bootstrap two-point returns 0");
	CHECK_NEAR(lo, 2.0 / 3, 1e-15, "bootstrap two-point lo = 2/3");
	CHECK_NEAR(hi, 2, 1e-15, "bootstrap two-point hi = 2");

	CHECK(stats_bootstrap_ratio(z, 2, x, 10, 100, 1, &lo, &hi) == -1 &&
	      isnan(lo) && isnan(hi), "bootstrap mean(x) = 0 refused");
	CHECK(stats_bootstrap_ratio(x, 10, x, 10, 0, 1, &lo, &hi) == -1,
	      "bootstrap reps = 0 refused");
}

static void
test_geomean(void)
{
	static const double a[] = { 1, 4, 16 };	/* cube root of 64 = 4 */
	static const double b[] = { 2, 8 };		/* sqrt 16 = 4 */
	static const double c[] = { 2, 0, 8 };
	static const double d[] = { 2, NAN };
	static const double big[] = { 1e200, 1e200, 1e200 };

	CHECK_NEAR(stats_geomean(a, 3), 4, 1e-14, "geomean {1,4,16}");
	CHECK_NEAR(stats_geomean(b, 2), 4, 1e-14, "geomean {2,8}");
	CHECK(isnan(stats_geomean(c, 3)), "geomean with 0 is NAN");
	CHECK(isnan(stats_geomean(d, 2)), "geomean with NaN is NAN");
	CHECK_NEAR(stats_geomean(big, 3) / 1e200, 1, 1e-12,
		   "geomean does not overflow");
}

int
main(void)
{
	test_summary();
	test_small_n();
	test_t975();
	test_ols();
	test_ols2_origin();
	test_correlation();
	test_mann_whitney();
	test_percentile();
	test_bootstrap();
	test_geomean();
	return th_done();
}
