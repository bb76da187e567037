/*
 * num.c - see num.h.  The shortest-text search was written once for the
 * pages (html.c), once more for the summary tables and once for
 * messages; this is the one left.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

/* Large enough for "%.40f" of DBL_MAX (309 digits + point + 40 + sign). */
#define NUMBUF 400
#define MAX_PREC 40

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Copy what snprintf("%f/%g/%e") wrote (in) to out[0..cap) in the C
 * locale's shape: whatever the current LC_NUMERIC uses as decimal point
 * (any run of bytes that is not a digit, sign or exponent letter; printf
 * never groups without the ' flag) becomes '.'.  A result with no
 * non-zero mantissa digit loses its minus sign.
 */
static void
c_shape(char *out, size_t cap, const char *in)
{
	char tmp[NUMBUF];
	size_t k = 0;
	int nonzero = 0, in_exp = 0;
	const char *s = in;

	while (*s && k + 1 < sizeof(tmp)) {
		char c = *s;

		if (is_digit(c) || c == '-' || c == '+' || c == 'e' || c == 'E') {
			if (c == 'e' || c == 'E')
				in_exp = 1;
			else if (is_digit(c) && c != '0' && !in_exp)
				nonzero = 1;
			tmp[k++] = c;
			s++;
			continue;
		}
		tmp[k++] = '.';
		while (*s && !is_digit(*s) && *s != '-' && *s != '+' && *s != 'e' && *s != 'E')
			s++;
	}
	tmp[k] = '\0';
	snprintf(out, cap, "%s", tmp[0] == '-' && !nonzero ? tmp + 1 : tmp);
}

void
num_format(char *out, size_t cap, char conv, int prec, double v)
{
	char tmp[NUMBUF];

	prec = prec < 0 ? 0 : prec > MAX_PREC ? MAX_PREC : prec;
	if (conv == 'f')
		snprintf(tmp, sizeof(tmp), "%.*f", prec, v);
	else if (conv == 'e')
		snprintf(tmp, sizeof(tmp), "%.*e", prec, v);
	else
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
	if (isfinite(v))
		c_shape(out, cap, tmp);
	else
		snprintf(out, cap, "%s", tmp);
}

/*
 * Does "%.*f" (fixed) or "%.*g" of v with k decimals or digits read back as
 * v?  strtod reads what snprintf wrote in the same locale, so the test
 * holds whatever LC_NUMERIC is.
 */
static int
reads_back(double v, int k, int fixed)
{
	char tmp[NUMBUF];

	snprintf(tmp, sizeof(tmp), fixed ? "%.*f" : "%.*g", k, v);
	return strtod(tmp, NULL) == v;
}

/*
 * The least k in [lo, hi] for which v reads back, or -1.  Printing is a
 * correct rounding to the nearest point of a grid, and the grid for k + 1
 * contains the grid for k, so a k that reads back is followed by k + 1
 * that does too -- as long as the doubles that read back as v lie
 * symmetrically around it.  They do unless v is a power of two (the gap
 * below it is half the gap above), so only then is every k tried in turn;
 * otherwise a binary search finds the same k.  test_num compares the two
 * on 60,000 values (3 million and every power of ten, checked once).
 */
static int
least_reading_back(double v, int lo, int hi, int fixed)
{
	int e, mid;

	if (!isfinite(v) || lo > hi)
		return -1;
	if (fabs(frexp(v, &e)) == 0.5) {
		for (; lo <= hi; lo++)
			if (reads_back(v, lo, fixed))
				return lo;
		return -1;
	}
	if (!reads_back(v, hi, fixed))
		return -1;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (reads_back(v, mid, fixed))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int
num_shortest_decimals(double v, int max_dec)
{
	int sure, k;

	if (!isfinite(v) || max_dec < 0)
		return -1;
	/*
	 * 17 significant digits always read back: with |v| < 10^(e+1) that
	 * is 16 - e decimals (one more in case log10 rounds up).  Printing
	 * costs time by the digit, so the search stays below that.
	 */
	sure = v == 0 ? 0 : 17 - (int)floor(log10(fabs(v)));
	if (sure < 0)
		sure = 0;
	if (sure >= max_dec)
		return least_reading_back(v, 0, max_dec, 1);
	k = least_reading_back(v, 0, sure, 1);
	return k >= 0 ? k : least_reading_back(v, sure + 1, max_dec, 1);
}

int
num_shortest_digits(double v)
{
	/* 17 significant digits always read back (DBL_DECIMAL_DIG). */
	int p = least_reading_back(v, 1, 16, 0);

	return p < 0 ? 17 : p;
}

const char *
num_text(char *out, double v)
{
	int d;

	if (isnan(v))
		return strcpy(out, "NaN");
	if (isinf(v))
		return strcpy(out, v < 0 ? "-inf" : "inf");
	if (v == 0)
		return strcpy(out, "0");
	d = fabs(v) < 1e21 ? num_shortest_decimals(v, MAX_PREC) : -1;
	if (d >= 0)
		num_format(out, NUM_TEXT_LEN, 'f', d, v);
	else
		num_format(out, NUM_TEXT_LEN, 'g', num_shortest_digits(v), v);
	return out;
}
