/*
 * stats.c - descriptive statistics, least squares, correlation, the
 * Mann-Whitney U test and a percentile bootstrap over plain double arrays.
 *
 * Pure computation: no I/O, no model, no global state.  Every procedure is
 * written from its textbook definition (energy-method.md sections 4 and 5
 * say which ones the report uses and why).  Undefined results are NAN, never
 * a crash: n = 0 or 1, zero spread, and NaN inputs all end in NAN (or -1
 * from the int-returning fits).  Scratch memory comes from xmalloc, so
 * allocation failure is fatal as everywhere in erg.  Nothing is quadratic
 * except the exact Mann-Whitney distribution, which is bounded by the
 * sample-size limits below.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "base/util.h"

static int
has_nan(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return 1;
	return 0;
}

/*
 * Total order for qsort: NaN sorts after everything, so the comparator stays
 * consistent (qsort with an inconsistent comparator is undefined behaviour)
 * even though callers normally reject NaN before sorting.
 */
static int
cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

double
stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/*
 * Two passes: deviations from the mean rather than sum(x^2) - n*mean^2,
 * which cancels catastrophically for data such as timestamps in ms.  The
 * second term removes the first-order error of the computed mean (the
 * "corrected two-pass" form); it is exactly zero in exact arithmetic.
 */
double
stats_sd(const double *x, size_t n)
{
	double m, d, ss = 0, s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++) {
		d = x[i] - m;
		ss += d * d;
		s += d;
	}
	ss -= s * s / (double)n;
	if (ss < 0)
		ss = 0;
	return sqrt(ss / (double)(n - 1));
}

double
stats_median(const double *x, size_t n)
{
	double *c, med;

	if (n == 0 || has_nan(x, n))
		return NAN;
	c = xmalloc(n * sizeof(*c));
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	if (n % 2)
		med = c[n / 2];
	else	/* a/2 + b/2: no overflow for huge values of either sign */
		med = c[n / 2 - 1] / 2 + c[n / 2] / 2;
	free(c);
	return med;
}

/*
 * t_{0.975, df} for df = 1..30 exactly as tabulated in energy-method.md
 * section 5 (3 decimals, so within 5e-4 of the true quantile; df = 1 is
 * 12.706 vs 12.70620).  Keeping the published table means a CI printed by
 * erg can be re-derived by a reader with any printed t table.
 */
static const double t975_table[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

/*
 * For df > 30: the Cornish-Fisher expansion of the t quantile in powers of
 * 1/df around the normal quantile z (Abramowitz & Stegun 26.7.5), four
 * terms.  Its error is of order df^-5 and negative: checked against an
 * incomplete-beta inversion at 40 digits it is -2.6e-8 at df = 31, -7.3e-9
 * at df = 40, -7.4e-11 at df = 100 and shrinks monotonically after that,
 * so |error| < 3e-8 for every df > 30 - far below the table's rounding.
 * (At df = 4 the same series is already off by 9e-4, which is why the
 * small-df end uses the table.)
 */
double
stats_t975(unsigned df)
{
	/* z = Phi^{-1}(0.975) */
	const double z = 1.959963984540054;
	double z2, z3, z5, z7, z9, v, g1, g2, g3, g4;

	if (df == 0)
		return NAN;
	if (df <= 30)
		return t975_table[df - 1];
	z2 = z * z;
	z3 = z2 * z;
	z5 = z3 * z2;
	z7 = z5 * z2;
	z9 = z7 * z2;
	v = df;
	g1 = (z3 + z) / 4;
	g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	return z + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v;
}

void
stats_summary(const double *x, size_t n, struct summary *s)
{
	double half;
	size_t i;

	s->n = n;
	s->mean = s->sd = s->cv = NAN;
	s->min = s->max = s->median = NAN;
	s->ci_lo = s->ci_hi = NAN;
	/* One NaN makes every order statistic and moment meaningless. */
	if (n == 0 || has_nan(x, n))
		return;
	s->mean = stats_mean(x, n);
	s->median = stats_median(x, n);
	s->min = s->max = x[0];
	for (i = 1; i < n; i++) {
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	if (n < 2)
		return;
	s->sd = stats_sd(x, n);
	/* CV of data centred on zero is not a number worth printing. */
	if (s->mean != 0)
		s->cv = s->sd / s->mean;
	half = stats_t975((unsigned)(n - 1)) * s->sd / sqrt((double)n);
	s->ci_lo = s->mean - half;
	s->ci_hi = s->mean + half;
}

/*
 * y = a + b x by least squares.  Sums are taken about the means (x in
 * erg is often a millisecond timestamp near 1.7e12, where raw sums of
 * squares lose every significant digit).  R^2 = 1 - SSres/SStot with
 * SStot = sum (y - ybar)^2, which for a fit with intercept equals the
 * squared Pearson r; it is NAN when y has no spread.  Non-finite data
 * are refused like a zero-spread x (-1, all outputs NAN).
 */
int
stats_ols(const double *x, const double *y, size_t n, double *a, double *b,
	  double *r2)
{
	double mx, my, sxx = 0, sxy = 0, syy = 0, ssres = 0, dx, dy, e;
	size_t i;

	*a = *b = NAN;
	if (r2)
		*r2 = NAN;
	if (n < 2)
		return -1;
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (i = 0; i < n; i++) {
		dx = x[i] - mx;
		dy = y[i] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	/* No spread in x, or NaN/inf anywhere: no line to report. */
	if (!(sxx > 0) || !isfinite(sxx) || !isfinite(sxy) || !isfinite(syy))
		return -1;
	*b = sxy / sxx;
	*a = my - *b * mx;
	if (r2 && syy > 0) {
		for (i = 0; i < n; i++) {
			e = y[i] - (*a + *b * x[i]);
			ssres += e * e;
		}
		*r2 = 1 - ssres / syy;
	}
	return 0;
}

/*
 * y = a x1 + b x2 with no intercept, from the 2x2 normal equations
 *     [S11 S12] [a]   [S1y]
 *     [S12 S22] [b] = [S2y]      (S = plain, uncentred cross products).
 * Singular when x1 and x2 are (numerically) collinear: det / (S11 S22) is
 * sin^2 of the angle between them, and below 1e-12 (angle < 1e-6 rad) the
 * coefficients are noise, so we refuse.
 *
 * R^2 definition: 1 - SSres/SStot with SStot CENTRED, sum (y - ybar)^2 -
 * the model has no intercept but the baseline is still "predict the mean".
 * This is what the header promises and what the blog's attribute.ts
 * reports (R^2 = 0.4804 for a = 5.0468, b = -2.1419).  It can be negative
 * when the origin fit is worse than the mean; the uncentred alternative
 * 1 - SSres/sum y^2 is always >= 0 and flatters such fits, which is why it
 * is not used.  NAN when y has no spread.
 */
int
stats_ols2_origin(const double *x1, const double *x2, const double *y,
		  size_t n, double *a, double *b, double *r2)
{
	double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0, det, my, d, e;
	double ssres = 0, sstot = 0;
	size_t i;

	*a = *b = NAN;
	if (r2)
		*r2 = NAN;
	if (n < 2)
		return -1;
	for (i = 0; i < n; i++) {
		s11 += x1[i] * x1[i];
		s12 += x1[i] * x2[i];
		s22 += x2[i] * x2[i];
		s1y += x1[i] * y[i];
		s2y += x2[i] * y[i];
	}
	det = s11 * s22 - s12 * s12;
	if (!(s11 > 0) || !(s22 > 0) || !isfinite(s11 * s22) ||
	    !(det > 1e-12 * s11 * s22) || !isfinite(s1y) || !isfinite(s2y))
		return -1;
	*a = (s1y * s22 - s2y * s12) / det;
	*b = (s2y * s11 - s1y * s12) / det;
	if (r2) {
		my = stats_mean(y, n);
		for (i = 0; i < n; i++) {
			e = y[i] - (*a * x1[i] + *b * x2[i]);
			d = y[i] - my;
			ssres += e * e;
			sstot += d * d;
		}
		if (sstot > 0)
			*r2 = 1 - ssres / sstot;
	}
	return 0;
}

double
stats_pearson(const double *x, const double *y, size_t n)
{
	double mx, my, sxx = 0, sxy = 0, syy = 0, dx, dy, r;
	size_t i;

	if (n < 2)
		return NAN;
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (i = 0; i < n; i++) {
		dx = x[i] - mx;
		dy = y[i] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (!(sxx > 0) || !(syy > 0) || !isfinite(sxx * syy))
		return NAN;
	r = sxy / sqrt(sxx * syy);
	/* Rounding can push a perfect correlation a hair past 1. */
	if (r > 1)
		r = 1;
	if (r < -1)
		r = -1;
	return r;
}

struct ranked {
	double v;
	size_t i;	/* position in the caller's array */
};

/* Value order, NaN last; index breaks ties so the order is reproducible. */
static int
cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = cmp_double(&a->v, &b->v);

	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Mid-ranks: a run of equal values at sorted positions first..last
 * (1-based) all get (first + last) / 2.  NaN has no rank and gets NAN.
 */
void
stats_ranks(const double *x, size_t n, double *r)
{
	struct ranked *s;
	size_t i, j, k;

	if (n == 0)
		return;
	s = xmalloc(n * sizeof(*s));
	for (i = 0; i < n; i++) {
		s[i].v = x[i];
		s[i].i = i;
	}
	qsort(s, n, sizeof(*s), cmp_ranked);
	for (i = 0; i < n; i = j) {
		if (isnan(s[i].v)) {
			for (j = i; j < n; j++)
				r[s[j].i] = NAN;
			break;
		}
		for (j = i + 1; j < n && s[j].v == s[i].v; j++)
			;
		for (k = i; k < j; k++)
			r[s[k].i] = ((double)(i + 1) + (double)j) / 2;
	}
	free(s);
}

double
stats_spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, rho;

	if (n < 2)
		return NAN;
	rx = xmalloc(n * sizeof(*rx));
	ry = xmalloc(n * sizeof(*ry));
	stats_ranks(x, n, rx);
	stats_ranks(y, n, ry);
	rho = stats_pearson(rx, ry, n);
	free(rx);
	free(ry);
	return rho;
}

/*
 * Exact null distribution of the doubled rank sum S of a random k-subset of
 * the pooled sample, with ties.  Under H0 every k-subset of the N pooled
 * observations is equally likely to be the x sample.  Twice a mid-rank is
 * an integer (first + last position of its tie group), so S is an integer
 * and a counting DP over tie groups is exact: choosing j of the g members
 * of a group with doubled rank d can happen in C(g, j) ways and adds j*d.
 *
 * cnt[m * width + s] = number of ways to pick m items so far with doubled
 * rank sum s.  Groups are folded in place with m descending, so every
 * source cell is read before any write into it (writes go to m + j > m).
 * Counts are doubles: at most C(100, 50) ~ 1e29, well inside range, and
 * every operation is an addition of non-negative terms, so the relative
 * error stays near machine epsilon.  Work: O(N * k * k * 2N).
 *
 * Returns the two-sided p = min(1, 2 min(P(S <= obs), P(S >= obs))).
 */
static double
mw_exact_p(const size_t *gsize, const size_t *gdrank, size_t ngroups,
	   size_t k, size_t n, size_t obs)
{
	size_t width = k * 2 * n + 1, top = 0, gi, m, j, s, g, d, hi;
	double *cnt, binom, lower = 0, upper = 0, total = 0, p;

	cnt = xcalloc((k + 1) * width, sizeof(*cnt));
	cnt[0] = 1;
	for (gi = 0; gi < ngroups; gi++) {
		g = gsize[gi];
		d = gdrank[gi];
		for (m = (top < k ? top : k) + 1; m-- > 0;) {
			/* sums reachable with m items never exceed m * 2n */
			hi = m * 2 * n;
			binom = 1;
			for (j = 1; j <= g && m + j <= k; j++) {
				double *src = cnt + m * width;
				double *dst = cnt + (m + j) * width + j * d;

				binom = binom * (double)(g - j + 1) / (double)j;
				for (s = 0; s <= hi; s++)
					if (src[s] != 0)
						dst[s] += binom * src[s];
			}
		}
		top += g;
	}
	for (s = 0; s < width; s++) {
		double c = cnt[k * width + s];

		total += c;
		if (s <= obs)
			lower += c;
		if (s >= obs)
			upper += c;
	}
	free(cnt);
	p = 2 * (lower < upper ? lower : upper) / total;
	return p < 1 ? p : 1;
}

/*
 * U for x counts the pairs with x_i > y_j, ties counting 1/2; equivalently
 * R_x - nx(nx+1)/2 with mid-ranks R_x.  The p-value is two-sided,
 *     p = min(1, 2 min(P(U <= u), P(U >= u))),
 * both tails taken because with ties the null distribution of U need not
 * be symmetric.  Exact (mw_exact_p) when there are ties and nx, ny <= 25,
 * or no ties and nx, ny <= 50 (benchstat's limits, energy-method.md 4.1);
 * otherwise the normal approximation with
 *     mean nx ny / 2,
 *     var  nx ny / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 * over tie groups of size t, and continuity correction 1/2 toward the mean.
 * All values equal: p = 1.  Empty side or any NaN: NAN (and *u = NAN).
 */
double
stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		   double *u)
{
	struct ranked *s;
	size_t n = nx + ny, i, j, ngroups = 0, *gsize, *gdrank, rx2 = 0;
	size_t obs, kk, cx;
	double tie = 0, ux, mu, var, z, p;
	int ties = 0, enumx;

	if (u)
		*u = NAN;
	if (nx == 0 || ny == 0 || has_nan(x, nx) || has_nan(y, ny))
		return NAN;

	/* Pool x then y; index >= nx marks a y value. */
	s = xmalloc(n * sizeof(*s));
	for (i = 0; i < nx; i++) {
		s[i].v = x[i];
		s[i].i = i;
	}
	for (i = 0; i < ny; i++) {
		s[nx + i].v = y[i];
		s[nx + i].i = nx + i;
	}
	qsort(s, n, sizeof(*s), cmp_ranked);

	gsize = xmalloc(n * sizeof(*gsize));
	gdrank = xmalloc(n * sizeof(*gdrank));
	/* cx counts x members of each group only long enough to sum R_x. */
	for (i = 0; i < n; i = j) {
		cx = 0;
		for (j = i; j < n && s[j].v == s[i].v; j++)
			cx += s[j].i < nx;
		gsize[ngroups] = j - i;
		gdrank[ngroups] = (i + 1) + j;	/* 2 * mid-rank */
		rx2 += cx * gdrank[ngroups];
		if (j - i > 1) {
			double t = (double)(j - i);

			ties = 1;
			tie += t * t * t - t;
		}
		ngroups++;
	}
	free(s);

	/* 2 U_x = 2 R_x - nx (nx + 1), an integer. */
	ux = ((double)rx2 - (double)nx * (double)(nx + 1)) / 2;
	if (u)
		*u = ux;

	if (ngroups == 1) {
		p = 1;
	} else if ((ties && nx <= 25 && ny <= 25) ||
		   (!ties && nx <= 50 && ny <= 50)) {
		/*
		 * Enumerate subsets of the smaller side (less work); the
		 * y rank sum is the complement of the x one and p is
		 * two-sided, so either side gives the same answer.
		 */
		enumx = nx <= ny;
		kk = enumx ? nx : ny;
		obs = enumx ? rx2 : n * (n + 1) - rx2;
		p = mw_exact_p(gsize, gdrank, ngroups, kk, n, obs);
	} else {
		mu = (double)nx * (double)ny / 2;
		var = (double)nx * (double)ny / 12 *
		      ((double)(n + 1) - tie / ((double)n * (double)(n - 1)));
		if (!(var > 0)) {
			p = 1;
		} else {
			z = (fabs(ux - mu) - 0.5) / sqrt(var);
			if (z < 0)
				z = 0;
			/* 2 (1 - Phi(z)) without the cancellation */
			p = erfc(z / sqrt(2.0));
			if (p > 1)
				p = 1;
		}
	}
	free(gsize);
	free(gdrank);
	return p;
}

/*
 * Fully separated samples put all their probability on the single most
 * extreme subset of each tail: p = 2 / C(nx + ny, nx).  The binomial
 * coefficient is built as a running product of ratios, which overflows to
 * inf (and so p to 0) only where the true p underflows anyway.
 */
double
stats_mw_min_p(size_t nx, size_t ny)
{
	size_t k = nx < ny ? nx : ny, n = nx + ny, i;
	double c = 1, p;

	if (nx == 0 || ny == 0)
		return NAN;
	for (i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	p = 2 / c;
	return p < 1 ? p : 1;
}

/*
 * splitmix64 (Steele, Lea & Flood, OOPSLA 2014, with the 64-bit finaliser
 * constants of that generator): a Weyl sequence passed through a bijective
 * mixer.  Chosen over rand() because the bootstrap CI is printed in the
 * report and must be identical on every platform for a given seed.
 */
static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z;

	*state += UINT64_C(0x9E3779B97F4A7C15);
	z = *state;
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/*
 * Uniform in [0, n) without modulo bias: reject the lowest 2^64 mod n
 * outputs so the remaining range is a whole multiple of n.
 */
static size_t
rand_below(uint64_t *state, size_t n)
{
	uint64_t bound = n, threshold = (0 - bound) % bound, r;

	do
		r = splitmix64(state);
	while (r < threshold);
	return (size_t)(r % bound);
}

static double
resample_mean(const double *x, size_t n, uint64_t *state)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[rand_below(state, n)];
	return sum / (double)n;
}

/*
 * Rearranges v[0..n-1] so that v[k] is the value a sort would put there,
 * nothing after it smaller and nothing before it larger (Hoare's FIND,
 * pivot the median of three).  The bootstrap needs two order statistics
 * of 10,000 replicates per row: sorting them all was 65 % of a view
 * build's time (tests/bench/README.md).  No NaN in v (the caller refuses
 * them).  A run of bad pivots past 2 log2 n + 8 rounds sorts what is
 * left, so no input costs more than a sort.
 */
static void
select_nth(double *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, want = (ptrdiff_t)k;
	int rounds = 8;
	size_t m;

	for (m = n; m > 1; m >>= 1)
		rounds += 2;
	while (hi > lo) {
		ptrdiff_t i = lo, j = hi, mid = lo + (hi - lo) / 2;
		double a = v[lo], b = v[mid], c = v[hi], pivot, t;

		if (--rounds < 0) {
			qsort(v + lo, (size_t)(hi - lo + 1), sizeof(*v), cmp_double);
			return;
		}
		pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		/* the pivot's value is in [lo, hi], so neither scan leaves it */
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		/* now v[lo..j] <= pivot <= v[i..hi], and v[j+1..i-1] == pivot */
		if (want <= j)
			hi = j;
		else if (want >= i)
			lo = i;
		else
			return;
	}
}

/*
 * Percentile p of v[0..n-1] (reordered; n > 0) by linear interpolation
 * between order statistics at position h = p (n - 1) (0-based): v(floor h) +
 * (h - floor h)(v(floor h + 1) - v(floor h)).  This is Hyndman & Fan's
 * type 7 (R's and numpy's default), so a reader can check the CI with
 * either.  Equal neighbours give their value exactly.  The order
 * statistics are found by selection, not a sort: the same two values, so
 * the same result to the bit.
 */
double
stats_percentile(double *v, size_t n, double p)
{
	double h = p * (double)(n - 1), f, next;
	size_t i = (size_t)h, k;

	if (i >= n - 1) {
		select_nth(v, n, n - 1);
		return v[n - 1];
	}
	select_nth(v, n, i);
	f = h - (double)i;
	if (f == 0)
		return v[i];
	next = v[i + 1];
	for (k = i + 2; k < n; k++)
		if (v[k] < next)
			next = v[k];
	return v[i] + f * (next - v[i]);
}

/*
 * Each replicate draws nx values from x and ny from y (in that order, from
 * one splitmix64 stream seeded with `seed`) and records
 * mean(y*) / mean(x*); the CI is the 2.5 % and 97.5 % percentiles of the
 * replicates (stats_percentile).  Returns -1 with *lo = *hi = NAN
 * when a mean is 0 or not finite, when reps is 0, when a side has fewer
 * than 2 values (a single value has no sampling spread to resample, so the
 * degenerate [r, r] interval would be a lie), or when some replicate ratio
 * is not finite (x* with mean 0, possible with signed data).
 */
int
stats_bootstrap_ratio(const double *x, size_t nx, const double *y,
		      size_t ny, unsigned reps, uint64_t seed, double *lo,
		      double *hi)
{
	double mx, my, *r, ratio;
	uint64_t state = seed;
	unsigned i;

	*lo = *hi = NAN;
	if (nx < 2 || ny < 2 || reps == 0)
		return -1;
	mx = stats_mean(x, nx);
	my = stats_mean(y, ny);
	if (!isfinite(mx) || !isfinite(my) || mx == 0 || my == 0)
		return -1;
	r = xmalloc(reps * sizeof(*r));
	for (i = 0; i < reps; i++) {
		mx = resample_mean(x, nx, &state);
		my = resample_mean(y, ny, &state);
		ratio = my / mx;
		if (!isfinite(ratio)) {
			free(r);
			return -1;
		}
		r[i] = ratio;
	}
	*lo = stats_percentile(r, reps, 0.025);
	*hi = stats_percentile(r, reps, 0.975);
	free(r);
	return 0;
}

/* exp(mean log x): no product, so no overflow for long runs of big values. */
double
stats_geomean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))	/* also rejects NaN */
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / (double)n);
}
