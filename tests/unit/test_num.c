/*
 * test_num.c - numbers as text: the shortest round-trip search and
 * num_text() (base/num.h), the page formats (render/numfmt.h).  Every
 * expected string is written out by hand.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "base/buf.h"
#include "base/num.h"
#include "render/numfmt.h"

static struct buf out = BUF_INIT;

static void
check_str(const char *got, const char *want, const char *what, int line)
{
	th_check(!strcmp(got, want), __FILE__, line, "%s: got '%s' want '%s'", what, got, want);
}

static void
fmt_line(struct numfmt f, double v, const char *want, const char *what, int line)
{
	buf_reset(&out);
	numfmt_add(&out, v, f);
	check_str(out.ptr, want, what, line);
}

#define fmt(f, v, want, what) fmt_line(f, v, want, what, __LINE__)

#define DASH "\xe2\x80\x93"

static void
test_fmt(void)
{
	fmt(NF_FIXED(5), 0.095812, "0.09581", "fixed 5");
	fmt(NF_FIXED(0), 2.7, "3", "fixed 0");
	fmt(NF_FIXED(1), -1.5, "-1.5", "fixed negative");
	fmt(NF_FIXED(2), -0.004, "0.00", "fixed negative zero");
	fmt(NF_FIXED(99), 0.5, "0.50000000000000000000", "fixed clamps to 20");
	fmt(NF_FIXED(-3), 2.7, "3", "fixed clamps to 0");
	fmt(NF_FIXED(2), NAN, DASH, "fixed NAN");
	fmt(NF_FIXED(2), INFINITY, DASH, "fixed inf");

	fmt(NF_THOUS(0), 184915.3, "184,915", "thousands 184915");
	fmt(NF_THOUS(2), 1234567.891, "1,234,567.89", "thousands decimals");
	fmt(NF_THOUS(0), 999.9, "1,000", "thousands rounding carries");
	fmt(NF_THOUS(1), -1234.5, "-1,234.5", "thousands negative");
	fmt(NF_THOUS(0), 12, "12", "thousands 2 digits");
	fmt(NF_THOUS(0), 123, "123", "thousands 3 digits");
	fmt(NF_THOUS(0), 1234, "1,234", "thousands 4 digits");
	fmt(NF_THOUS(0), 123456, "123,456", "thousands 6 digits");
	fmt(NF_THOUS(0), 0, "0", "thousands zero");
	fmt(NF_THOUS(0), -0.4, "0", "thousands negative zero");
	fmt(NF_THOUS(0), NAN, DASH, "thousands NAN");
	fmt(NF_THOUS(0), -INFINITY, DASH, "thousands -inf");

	fmt(NF_SIG(4), 0.0958123, "0.09581", "sig small");
	fmt(NF_SIG(3), 184915.3, "184915", "sig keeps integer digits");
	fmt(NF_SIG(3), 9.996, "10.0", "sig rounding carries");
	fmt(NF_SIG(3), 1.0, "1.00", "sig keeps trailing zeros");
	fmt(NF_SIG(2), -0.00123456, "-0.0012", "sig negative");
	fmt(NF_SIG(2), 123.456, "123", "sig integer part");
	fmt(NF_SIG(3), 0, "0", "sig zero");
	fmt(NF_SIG(3), 1e-30, "0.00000000000000000000", "sig tiny");
	fmt(NF_SIG(3), NAN, DASH, "sig NAN");
}

static void
real_line(double v, const char *want, const char *what, int line)
{
	buf_reset(&out);
	numfmt_add(&out, v, NF_REAL);
	check_str(out.ptr, want, what, line);
}

#define real(v, want, what) real_line(v, want, what, __LINE__)

static void
test_real(void)
{
	real(0.1, "0.1", "real 0.1");
	real(1.0, "1", "real 1");
	real(-2.5, "-2.5", "real -2.5");
	real(1.0 / 3, "0.3333333333333333", "real 1/3");
	real(0.1 + 0.2, "0.30000000000000004", "real 0.1+0.2");
	real(123456789.0, "123456789", "real integer-valued");
	real(1e21, "1e+21", "real big");
	real(1e-7, "1e-07", "real small");
	real(NAN, DASH, "real NAN");
}

/* The plain search num_shortest_* must agree with: every k in turn. */
static int
linear_least(double v, int lo, int hi, int fixed)
{
	char tmp[512];

	for (; lo <= hi; lo++) {
		snprintf(tmp, sizeof(tmp), fixed ? "%.*f" : "%.*g", lo, v);
		if (strtod(tmp, NULL) == v)
			return lo;
	}
	return -1;
}

static uint64_t
next_rand(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * num_shortest_decimals/digits search by bisection except at powers of
 * two; the answer must be the one trying every k in turn gives.  Values:
 * hand-picked edges, random bit patterns, short decimals (what authors
 * write: 0.1, 4.20), their neighbours one ulp away (17 digits), integers
 * and powers of two around 2^53, and numbers near powers of ten.
 */
static void
test_shortest(void)
{
	static const double hand[] = {
		0, -0.0, 0.1, 0.3, 0.1 + 0.2, 1.0 / 3, 2.8510625000000003, 0.0958,
		1700000021000.0, 9007199254740993.0, 9007199254740992.0, 1e15, 1e16,
		1e21, 1e22, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
		0.5, 0.25, 1024, 0.0009765625, 123456.789, 9.999999999999999,
		99.99999999999999, 0.30000000000000004,
	};
	uint64_t s = 42, bits;
	size_t i, bad_dec = 0, bad_dig = 0, n = 0;
	/* 10,000 random values under ERG_TEST_LIGHT (make valgrind and make
	 * asan): 60,000 took 35 s under valgrind, and the paths are the same */
	size_t nrand = getenv("ERG_TEST_LIGHT") ? 10000 : 60000;
	double v = 0;
	int kind;

	th_check(num_shortest_decimals(0.1, 40) == 1, __FILE__, __LINE__, "0.1: 1 decimal");
	th_check(num_shortest_decimals(2.8510625000000003, 40) == 16, __FILE__, __LINE__,
		 "2.8510625000000003: 16 decimals");
	th_check(num_shortest_decimals(1.0 / 3, 10) == -1, __FILE__, __LINE__,
		 "1/3 within 10 decimals: none");
	th_check(num_shortest_decimals(NAN, 40) == -1, __FILE__, __LINE__, "NAN: none");
	th_check(num_shortest_digits(0.1 + 0.2) == 17, __FILE__, __LINE__, "0.1+0.2: 17 digits");
	th_check(num_shortest_digits(0.0958) == 3, __FILE__, __LINE__, "0.0958: 3 digits");
	th_check(num_shortest_digits(1024) == 4, __FILE__, __LINE__, "1024 (a power of two): 4");
	for (i = 0; i < nrand + sizeof(hand) / sizeof(hand[0]); i++) {
		if (i < sizeof(hand) / sizeof(hand[0])) {
			v = hand[i];
		} else {
			bits = next_rand(&s);
			kind = (int)(bits % 6);
			bits = next_rand(&s);
			switch (kind) {
			case 0:		/* any finite bit pattern */
				memcpy(&v, &bits, sizeof(v));
				if (!isfinite(v))
					continue;
				break;
			case 1:		/* a short decimal */
				v = (double)(bits % 100000) / pow(10, (double)((bits >> 40) % 9));
				break;
			case 2:		/* one ulp from a short decimal */
				v = (double)(bits % 100000) / pow(10, (double)((bits >> 40) % 9));
				v = nextafter(v, (bits >> 63) ? INFINITY : -INFINITY);
				break;
			case 3:		/* integers around 2^53 */
				v = 9007199254740992.0 + (double)((int64_t)(bits % 4001) - 2000) * 2;
				break;
			case 4:		/* powers of two and their neighbours */
				v = ldexp(1, (int)(bits % 200) - 100);
				if (bits & 0x100)
					v = nextafter(v, INFINITY);
				break;
			default:	/* near a power of ten */
				v = nextafter(pow(10, (double)((int)(bits % 60) - 30)),
					      (bits >> 63) ? INFINITY : -INFINITY);
				break;
			}
			if (bits & 0x200)
				v = -v;
		}
		n++;
		if (num_shortest_decimals(v, 40) != linear_least(v, 0, 40, 1) ||
		    (fabs(v) < 1e15 && num_shortest_decimals(v, 17) != linear_least(v, 0, 17, 1)))
			bad_dec++;
		if (num_shortest_digits(v) != (linear_least(v, 1, 16, 0) < 0 ? 17
						: linear_least(v, 1, 16, 0)))
			bad_dig++;
	}
	th_check(n > nrand * 9 / 10 && bad_dec == 0, __FILE__, __LINE__,
		 "shortest decimals as the linear search: %zu of %zu differ", bad_dec, n);
	th_check(n > nrand * 9 / 10 && bad_dig == 0, __FILE__, __LINE__,
		 "shortest digits as the linear search: %zu of %zu differ", bad_dig, n);
}


static void
text_line(double v, const char *want, const char *what, int line)
{
	char t[NUM_TEXT_LEN];

	check_str(num_text(t, v), want, what, line);
}

#define text(v, want, what) text_line(v, want, what, __LINE__)

/* Messages and CSV exports: plain decimals while they fit, never "-0",
 * never hundreds of digits. */
static void
test_text(void)
{
	text(0.1, "0.1", "text 0.1");
	text(1700000021000.0, "1700000021000", "text a time in ms");
	text(2.8510625000000003, "2.8510625000000003", "text 17 digits");
	text(-2.5, "-2.5", "text negative");
	text(-0.0, "0", "text -0");
	text(1e-7, "0.0000001", "text small: plain");
	text(1.5e20, "150000000000000000000", "text below 1e21: plain");
	text(1e21, "1e+21", "text 1e21: exponent");
	text(1e300, "1e+300", "text 1e300: not 301 digits");
	text(1e-50, "1e-50", "text past 40 decimals: exponent");
	text(-1.2345678901234567e-45, "-1.2345678901234567e-45", "text 17 digits with exponent");
	text(NAN, "NaN", "text NAN");
	text(INFINITY, "inf", "text inf");
	text(-INFINITY, "-inf", "text -inf");

	buf_reset(&out);
	numfmt_csv(&out, 0.0016);
	numfmt_csv(&out, NAN);
	buf_addch(&out, ',');
	numfmt_csv(&out, 1e-7);
	check_str(out.ptr, "0.0016,0.0000001", "CSV: full precision, nothing when not reported", __LINE__);
}

/* The missing value is one glyph in every format. */
static void
test_missing(void)
{
	static const enum numstyle st[] = { NUM_FIXED, NUM_PCT, NUM_SIG, NUM_SHORT, NUM_REAL };
	struct numval x = { NAN, NULL };
	size_t i;
	json_t *j;

	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		struct numfmt f = { st[i], 3, 4, 1 };

		fmt(f, NAN, DASH, "missing: NAN");
		fmt(f, -INFINITY, DASH, "missing: -inf");
		j = numfmt_json(NAN, f);
		CHECK(json_is_null(j), "missing: null in a view, style %zu", i);
		json_decref(j);
	}
	buf_reset(&out);
	numfmt_val(&out, x, NF_FIXED(2));
	check_str(out.ptr, DASH, "missing: a cell without text", __LINE__);
	CHECK(!strcmp(NUM_MISSING, DASH) && !strcmp(NUM_MISSING_TITLE, "not reported"),
	      "missing: en dash, titled 'not reported'");
}

/* The other formats: percent, trimmed significant digits, grouping of
 * the shortest text, a published text. */
static void
test_more(void)
{
	static const struct numfmt sig_trim = { NUM_SIG, 4, 0, 1 }, short5 = { NUM_SHORT, 0, 5, 0 };
	struct numval pub = { 0.101, "0.1010" };

	fmt(NF_PCT(2), 0.0016, "0.16", "percent");
	fmt(NF_PCT(1), 0.99999, "100.0", "percent rounding");
	fmt(sig_trim, 0.5, "0.5", "sig trimmed");
	fmt(sig_trim, 12.3, "12.3", "sig trimmed keeps digits");
	fmt(sig_trim, 100, "100", "sig trimmed: no point left");
	fmt(NF_SHORT, 0.1, "0.1", "short 0.1");
	fmt(NF_SHORT, 229275, "229275", "short ungrouped");
	fmt(short5, 1234, "1234", "grouped from 5 digits: 4 stay");
	fmt(short5, 12345, "12,345", "grouped from 5 digits");
	fmt(short5, -1234567.5, "-1,234,567.5", "grouped negative");
	fmt(short5, 1e21, "1e+21", "an exponent is not grouped");
	buf_reset(&out);
	numfmt_val(&out, pub, NF_SHORT);
	check_str(out.ptr, "0.1010", "a cell prints its published text", __LINE__);
	{
		struct numval p1 = { 5007, "5007.0" }, p2 = { 184915, "184915" }, p3 = { 1e5, "1e5" },
			      p4 = { 12.8, "+12.8" };
		struct numfmt g4 = NF_SHORT;

		g4.group = 4;
		buf_reset(&out);
		numfmt_val(&out, p1, g4);
		check_str(out.ptr, "5,007.0", "published text grouped from 4 digits", __LINE__);
		buf_reset(&out);
		numfmt_val(&out, p2, g4);
		check_str(out.ptr, "184,915", "published text grouped", __LINE__);
		buf_reset(&out);
		numfmt_val(&out, p3, g4);
		check_str(out.ptr, "1e5", "published exponent text as it is", __LINE__);
		buf_reset(&out);
		numfmt_val(&out, p4, g4);
		check_str(out.ptr, "+12.8", "published text with a sign, short", __LINE__);
		buf_reset(&out);
		numfmt_val(&out, p1, NF_SHORT);
		check_str(out.ptr, "5007.0", "published text ungrouped without group", __LINE__);
	}
}

/*
 * A published column: {3.8, 12.25, 1.75, 132489.5} has 2 decimals in
 * half its cells, so it pads to 2 -- but not 132489.5 (7 significant
 * digits: "132489.50" would add a digit nobody wrote).  It reaches
 * 10,000, so it is grouped.  {3.8, 12.25, 1.5}: 2 decimals in one cell of
 * three, no padding.  A text column: no padding, no grouping.
 */
static void
test_published(void)
{
	double a[] = { 3.8, 12.25, 1.75, 132489.5, NAN }, b[] = { 3.8, 12.25, 1.5 };
	double c[] = { 1234567, 0.5 };
	struct numfmt f = numfmt_published(a, 5, 1);

	fmt(f, 3.8, "3.80", "published: padded");
	fmt(f, 12.25, "12.25", "published: as given");
	fmt(f, 132489.5, "132,489.5", "published: 5 digits or more not padded, grouped");
	f = numfmt_published(b, 3, 1);
	fmt(f, 3.8, "3.8", "published: significant figures left alone");
	f = numfmt_published(c, 2, 0);
	fmt(f, 1234567, "1234567", "published: a text column is not grouped");
	fmt(f, 0.5, "0.5", "published: nor padded");
}

/* Locale independence (th_comma_locale). */
static void
test_locale(void)
{
	char t[NUM_TEXT_LEN];

	if (!th_comma_locale())
		return;
	fmt(NF_THOUS(1), 1234.5, "1,234.5", "thousands under a decimal-comma locale");
	fmt(NF_SIG(4), 0.0958123, "0.09581", "sig under a decimal-comma locale");
	real(0.1, "0.1", "real under a decimal-comma locale");
	check_str(num_text(t, 2.5), "2.5", "text under a decimal-comma locale", __LINE__);
	setlocale(LC_NUMERIC, "C");
}

int
main(void)
{
	test_fmt();
	test_real();
	test_shortest();
	test_text();
	test_missing();
	test_more();
	test_published();
	test_locale();
	buf_release(&out);
	return th_done();
}
