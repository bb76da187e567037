/*
 * numfmt.h - every number a page, a chart, a Markdown table or a CSV
 * export shows, formatted one way.  A format (struct numfmt) says how:
 * fixed decimals, a percentage, significant digits, or the shortest text
 * that reads back as the value (base/num.h, as messages print numbers);
 * with thousands separators or not.  A value that is not finite was not
 * reported and prints as NUM_MISSING, never as 0, "nan" or "n/a"; the
 * templates give it the title NUM_MISSING_TITLE.
 *
 * Output is ASCII digits, '-', '.', ',', 'e', '+' only (or NUM_MISSING):
 * it needs no escaping but may be escaped.  Rounding is printf's
 * (correctly rounded binary value); results that round to zero lose
 * their minus sign; '.' is the decimal point whatever the locale.
 */
#ifndef ERG_NUMFMT_H
#define ERG_NUMFMT_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

#define NUM_MISSING "\xe2\x80\x93"	/* U+2013 EN DASH */
#define NUM_MISSING_TITLE "not reported"

enum numstyle {
	NUM_FIXED,	/* dec decimals (0..20): 0.0958123 -> "0.09581" with 5 */
	NUM_PCT,	/* a share 0..1 in percent, dec decimals: 0.0016 -> "0.16" */
	/* dec significant digits (1..17) without exponent; the integer part
	 * is never rounded away: 184915.3 -> "184915" with 3; at most 20
	 * decimals, so smaller magnitudes print as zero */
	NUM_SIG,
	/* The shortest decimal that reads back as the value (num_text(): the
	 * digits a published figure was written with, as far as a double can
	 * tell: "0.1", "229275").  dec > 0 pads the cells of a column with
	 * fixed decimals: a cell with fewer decimals and fewer than 5
	 * significant digits gets trailing zeros to dec ("3.8" -> "3.80"), so
	 * "132489" beside "39.1" stays as it is; padding adds zeros only. */
	NUM_SHORT,
	/* The shortest %g text that reads back ("1e+05", "0.1"), for machines:
	 * data-v attributes for the sort script, JSON reals in templates. */
	NUM_REAL,
};

struct numfmt {
	enum numstyle style;
	int dec;	/* see the styles */
	int group;	/* ',' every 3 integer digits when there are at least
			 * this many of them (0: never): 4 "1,234", 5 "1234" */
	int trim;	/* NUM_SIG: no trailing zeros after the point */
};

#define NF_FIXED(d)	((struct numfmt){ NUM_FIXED, (d), 0, 0 })
#define NF_THOUS(d)	((struct numfmt){ NUM_FIXED, (d), 4, 0 })
#define NF_PCT(d)	((struct numfmt){ NUM_PCT, (d), 0, 0 })
#define NF_SIG(n)	((struct numfmt){ NUM_SIG, (n), 0, 0 })
#define NF_SHORT	((struct numfmt){ NUM_SHORT, 0, 0, 0 })
#define NF_REAL		((struct numfmt){ NUM_REAL, 0, 0, 0 })
/* A ratio column a page shows (CV = SD/mean, idle share): in percent with
 * 2 decimals, headed NF_RATIO_UNIT, on run, summary and view pages alike;
 * results.json and the CSV exports keep the fraction. */
#define NF_RATIO	NF_PCT(2)
#define NF_RATIO_UNIT	"%"

/*
 * A figure as a cell holds it: the value and, when the source gave one,
 * the text it was published as ("0.1010", which the double 0.101 cannot
 * tell apart from "0.101").  The text, when there is one, is what prints;
 * the value sorts and charts.  { v, NULL } is a plain value.
 */
struct numval {
	double v;
	const char *text;
};

/* v in format f; NUM_MISSING when v is not finite. */
void numfmt_add(struct buf *b, double v, struct numfmt f);
/* x.text when there is one (its integer digits grouped as f.group says:
 * "5007.0" with 4 is "5,007.0"), else x.v in format f. */
void numfmt_val(struct buf *b, struct numval x, struct numfmt f);
/* v in format f as a view string; JSON null when not finite (the
 * templates print the missing value). */
json_t *numfmt_json(double v, struct numfmt f);
/* A field of a CSV export: the shortest text, full precision (it reads
 * back as the value); nothing when not finite. */
void numfmt_csv(struct buf *b, double v);

/*
 * Decimals giving the smallest magnitude in v[] sig significant digits
 * (0.09581 with 4; 1.229 mJ/MB with 4), so that a column and its SDs
 * share one precision; 0..8, none when no value is finite and nonzero.
 */
int numfmt_col_decimals(const double *v, size_t n, int sig, int none);
/*
 * The format of a column of published figures v[0..n) (NAN where a cell
 * is not a number), shown with the digits the source gave: the shortest
 * text; padded to the decimals of its most precise cell when at least
 * half of its cells have that many (a table in fixed decimals: "3.80",
 * "5007.0", "0.1010"; one in significant figures, "55557", "633",
 * "12.8", is left alone); thousands separators when it reaches 10,000.
 * A column that is not numeric (names that happen to be numbers) gets
 * the shortest text only.
 */
struct numfmt numfmt_published(const double *v, size_t n, int numeric);

#endif
