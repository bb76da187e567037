/*
 * numfmt.c - see numfmt.h.  Before it, the run pages, the summary pages,
 * the cross-run pages, the charts and html.c each had their formatters
 * (num_plain, num_short and fmt_num, jfmt and jreal, html_fmt_*), which
 * agreed on most numbers and not on all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/num.h"
#include "render/numfmt.h"

#define MAX_DECIMALS 20
#define NUMBUF 400	/* "%.20f" of DBL_MAX */

static int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Significant digits of a number text: "0.0958" 3, "5007" 4, "100" 3. */
static int
sig_digits(const char *t)
{
	int n = 0, lead = 1;

	for (; *t && *t != 'e' && *t != 'E'; t++) {
		if (*t < '0' || *t > '9')
			continue;
		if (lead && *t == '0')
			continue;
		lead = 0;
		n++;
	}
	return n;
}

/* Decimals of the shortest fixed-point text of v; -1 when it needs more
 * than 17 or |v| >= 1e15, past what a published table gives. */
static int
published_decimals(double v)
{
	if (!isfinite(v) || fabs(v) >= 1e15)
		return -1;
	return num_shortest_decimals(v, 17);
}

/* t with its integer digits grouped when there are at least min of them;
 * as it is when it has an exponent or min is 0. */
static void
add_grouped(struct buf *b, const char *t, int min)
{
	size_t lead = *t == '-' || *t == '+', digits = strspn(t + lead, "0123456789"), i;

	if (!min || strchr(t, 'e') || strchr(t, 'E') || digits < (size_t)min) {
		buf_addstr(b, t);
		return;
	}
	buf_add(b, t, lead);
	for (i = 0; i < digits; i++) {
		if (i && (digits - i) % 3 == 0)
			buf_addch(b, ',');
		buf_addch(b, t[lead + i]);
	}
	buf_addstr(b, t + lead + digits);
}

/* The digits of a finite v in format f, ungrouped, into out[NUMBUF]. */
static void
digits(char *out, double v, struct numfmt f)
{
	char e[64];
	size_t n;
	int exp10, sig;

	out[0] = '\0';
	switch (f.style) {
	case NUM_FIXED:
		num_format(out, NUMBUF, 'f', clamp(f.dec, 0, MAX_DECIMALS), v);
		break;
	case NUM_PCT:
		num_format(out, NUMBUF, 'f', clamp(f.dec, 0, MAX_DECIMALS), v * 100.0);
		break;
	case NUM_SIG:
		if (v == 0) {
			strcpy(out, "0");
			break;
		}
		sig = clamp(f.dec, 1, 17);
		/* %e rounds to sig digits first: 9.996 with 3 has exponent 1 */
		snprintf(e, sizeof(e), "%.*e", sig - 1, v);
		exp10 = strchr(e, 'e') ? (int)strtol(strchr(e, 'e') + 1, NULL, 10) : 0;
		num_format(out, NUMBUF, 'f', clamp(sig - 1 - exp10, 0, MAX_DECIMALS), v);
		if (f.trim && strchr(out, '.')) {
			n = strlen(out);
			while (n && out[n - 1] == '0')
				n--;
			if (n && out[n - 1] == '.')
				n--;
			out[n] = '\0';
		}
		break;
	case NUM_SHORT:
		num_text(out, v);
		if (f.dec > 0 && published_decimals(v) < f.dec && sig_digits(out) < 5)
			num_format(out, NUMBUF, 'f', clamp(f.dec, 0, MAX_DECIMALS), v);
		break;
	case NUM_REAL:
		num_format(out, NUMBUF, 'g', num_shortest_digits(v), v);
		break;
	}
}

void
numfmt_add(struct buf *b, double v, struct numfmt f)
{
	char out[NUMBUF];

	if (!isfinite(v)) {
		buf_addstr(b, NUM_MISSING);
		return;
	}
	digits(out, v, f);
	add_grouped(b, out, f.group);
}

void
numfmt_val(struct buf *b, struct numval x, struct numfmt f)
{
	if (x.text)
		add_grouped(b, x.text, f.group);
	else
		numfmt_add(b, x.v, f);
}

json_t *
numfmt_json(double v, struct numfmt f)
{
	struct buf b = BUF_INIT;
	json_t *s;

	if (!isfinite(v))
		return json_null();
	numfmt_add(&b, v, f);
	s = json_stringn_nocheck(b.ptr, b.len);
	buf_release(&b);
	return s;
}

void
numfmt_csv(struct buf *b, double v)
{
	char out[NUM_TEXT_LEN];

	if (isfinite(v))
		buf_addstr(b, num_text(out, v));
}

int
numfmt_col_decimals(const double *v, size_t n, int sig, int none)
{
	double m = INFINITY;
	size_t i;
	int d;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] != 0 && fabs(v[i]) < m)
			m = fabs(v[i]);
	if (!isfinite(m))
		return none;
	d = sig - 1 - (int)floor(log10(m));
	return d < 0 ? 0 : d > 8 ? 8 : d;
}

struct numfmt
numfmt_published(const double *v, size_t n, int numeric)
{
	struct numfmt f = NF_SHORT;
	double maxabs = 0;
	size_t i, nf = 0, nd = 0;
	int wide = 0, dec = 0, d;

	if (!numeric)
		return f;
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		nf++;
		d = published_decimals(v[i]);
		if (d < 0 || d > 12)
			wide = 1;
		else if (d > dec)
			dec = d;
		if (fabs(v[i]) > maxabs)
			maxabs = fabs(v[i]);
	}
	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && published_decimals(v[i]) == dec)
			nd++;
	/* more than 15 significant digits cannot all be trusted to print */
	if (!wide && dec > 0 && 2 * nd >= nf && maxabs * pow(10, dec) < 1e15)
		f.dec = dec;
	f.group = maxabs >= 10000 ? 4 : 0;
	return f;
}
