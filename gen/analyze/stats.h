/*
 * stats.h - pure statistics over arrays of doubles.  No I/O, no model:
 * everything here is unit-tested against values worked out by hand.
 *
 * Conventions: n is the count; NAN is returned where a statistic is
 * undefined (n too small, zero variance for a correlation, ...).
 */
#ifndef ERG_STATS_H
#define ERG_STATS_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double mean, sd;	/* sd: sample SD (n-1); NAN when n < 2 */
	double cv;		/* sd / mean */
	double min, max;
	double ci_lo, ci_hi;	/* 95 % Student-t interval of the mean; NAN when n < 2 */
	double median;
};

void stats_summary(const double *x, size_t n, struct summary *s);
double stats_mean(const double *x, size_t n);
double stats_sd(const double *x, size_t n);		/* sample SD, n-1 */
double stats_median(const double *x, size_t n);

/* Two-sided 97.5 % quantile of Student's t with df degrees of freedom. */
double stats_t975(unsigned df);

/* Ordinary least squares y = a + b x. Returns 0, or -1 when x has no spread
 * or the input is not finite (then *b = NAN). r2 may be NULL. */
int stats_ols(const double *x, const double *y, size_t n, double *a, double *b,
	      double *r2);
/* Least squares through the origin (no intercept) y = a x1 + b x2;
 * R^2 = 1 - SSres/SStot with SStot centred (so it can be negative).
 * Returns -1 when singular, nearly collinear or given non-finite input. */
int stats_ols2_origin(const double *x1, const double *x2, const double *y,
		      size_t n, double *a, double *b, double *r2);

double stats_pearson(const double *x, const double *y, size_t n);
/* Spearman rho: Pearson over ranks, ties get their average rank. */
double stats_spearman(const double *x, const double *y, size_t n);
/* Average ranks (1-based) of x into r. */
void stats_ranks(const double *x, size_t n, double *r);

/*
 * Mann-Whitney U, two-sided.  Exact null distribution (ties handled by
 * enumerating the distribution of the rank sum with mid-ranks) when
 * nx, ny <= 25 (or no ties and <= 50), otherwise the normal approximation
 * with tie and continuity correction (benchstat's rules).  p = 1 when all
 * values are equal.  *u (may be NULL) receives U for x.
 */
double stats_mann_whitney(const double *x, size_t nx, const double *y,
			  size_t ny, double *u);
/* Smallest two-sided exact p attainable for nx vs ny without ties. */
double stats_mw_min_p(size_t nx, size_t ny);

/*
 * Percentile bootstrap 95 % CI of mean(y)/mean(x), resampling each side
 * independently with replacement, `reps` resamples, deterministic for a
 * given seed (own PRNG, not rand()).  Returns -1 when a side has fewer
 * than 2 values, reps is 0, or a mean is 0 or not finite.
 */
int stats_bootstrap_ratio(const double *x, size_t nx, const double *y,
			  size_t ny, unsigned reps, uint64_t seed, double *lo,
			  double *hi);

/*
 * Percentile p (0..1) of v[0..n-1], n > 0, no NaN, by Hyndman & Fan's
 * type 7 (R's and numpy's default); reorders v (selection, not a sort).
 */
double stats_percentile(double *v, size_t n, double p);

/* Geometric mean of positive values; NAN if any value <= 0 or n == 0. */
double stats_geomean(const double *x, size_t n);

#endif
