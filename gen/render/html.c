/*
 * html.c - escapers and the markup printf; the character sets and the
 * policy are documented in html.h.  Nothing here keeps state, so every
 * function is safe to call from several threads on different bufs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/html.h"
#include "base/util.h"

#define BAD_CP UINT32_MAX
#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */
#define EN_DASH "\xe2\x80\x93"		/* U+2013: "not reported" */

/* Entities for the five ASCII bytes that are never written as themselves. */
static const char *const entity[128] = {
	['&'] = "&amp;",
	['<'] = "&lt;",
	['>'] = "&gt;",
	['"'] = "&quot;",
	['\''] = "&#39;",
};

/*
 * Decode one UTF-8 sequence at p (n > 0 bytes left).  Returns its length;
 * *cp is the code point, or BAD_CP for an ill-formed sequence, whose
 * length is then its maximal subpart (the lead byte and the continuation
 * bytes that were still acceptable), at least 1.  Well-formed means
 * Unicode table 3-7: no overlongs, no surrogates, nothing past U+10FFFF.
 */
static size_t
utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t need, i;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else {
		*cp = BAD_CP;
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || p[i] < lo || p[i] > hi) {
			*cp = BAD_CP;
			return i;
		}
		v = v << 6 | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}

/* LRE RLE PDF LRO RLO, LRI RLI FSI PDI (see html.h) */
static int
is_bidi(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

unsigned long
html_bidi_control(const char *s, size_t n)
{
	uint32_t cp;

	if (n < 3 || (unsigned char)s[0] != 0xe2)
		return 0;
	utf8_decode((const unsigned char *)s, n, &cp);
	return is_bidi(cp) ? cp : 0;
}

static void
escape(struct buf *b, const char *s, size_t n, int attr)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run, len;
	uint32_t cp;
	unsigned char c;

	buf_grow(b, n);
	while (i < n) {
		run = i;
		while (i < n && p[i] >= 0x20 && p[i] < 0x7f && !entity[p[i]])
			i++;
		buf_add(b, s + run, i - run);
		if (i >= n)
			break;
		c = p[i];
		if (c < 0x80) {
			if (entity[c])
				buf_addstr(b, entity[c]);
			else if (c == '\t' || c == '\n' || c == '\r')
				buf_addch(b, attr ? ' ' : c);
			/* other C0 controls and DEL: dropped */
			i++;
			continue;
		}
		len = utf8_decode(p + i, n - i, &cp);
		if (cp == BAD_CP || cp == 0xfffe || cp == 0xffff)
			buf_addstr(b, REPLACEMENT);
		else if (is_bidi(cp))
			buf_addf(b, "[U+%04lX]", (unsigned long)cp);
		else if (cp > 0x9f)
			buf_add(b, s + i, len);
		/* else C1 control: dropped */
		i += len;
	}
}

void
html_text(struct buf *b, const char *s, size_t n)
{
	escape(b, s, n, 0);
}

void
html_attr(struct buf *b, const char *s, size_t n)
{
	escape(b, s, n, 1);
}

static int
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int
is_xdigit(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned char
to_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Ignored inside a scheme: browsers drop TAB/LF/CR anywhere in a URL, and
 * we also skip the other controls rather than guess what some parser does. */
static int
is_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/*
 * Copy up to cap-1 bytes of p[0..n) into out, lowercased and without
 * controls, stopping before the first byte for which stop() is true.
 * Returns the index of that byte in p (n when none), or n + 1 when the
 * text did not fit.
 */
static size_t
lower_until(const unsigned char *p, size_t n, char *out, size_t cap,
	    int (*stop)(unsigned char))
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (is_ctl(p[i]))
			continue;
		if (stop(p[i]))
			break;
		if (k + 1 >= cap)
			return n + 1;
		out[k++] = (char)to_lower(p[i]);
	}
	out[k] = '\0';
	return i;
}

static int
stop_scheme(unsigned char c)
{
	return !is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.';
}

static int
stop_mediatype(unsigned char c)
{
	return c == ';' || c == ',';
}

/* Is the (trimmed) URL p[0..n) one html_url() refuses?  See html.h. */
static int
url_refused(const unsigned char *p, size_t n)
{
	static const char *const images[] = {
		"image/png", "image/gif", "image/jpeg", "image/webp",
	};
	char scheme[16], type[16];
	size_t i, j;

	i = lower_until(p, n, scheme, sizeof(scheme), stop_scheme);
	/* No ':' right after scheme characters: relative, or a long scheme
	 * (none of the refused ones is long). */
	if (i >= n || p[i] != ':' || !is_alpha((unsigned char)scheme[0]))
		return 0;
	if (!strcmp(scheme, "javascript") || !strcmp(scheme, "vbscript") ||
	    !strcmp(scheme, "livescript"))
		return 1;
	if (strcmp(scheme, "data"))
		return 0;
	i++;
	j = lower_until(p + i, n - i, type, sizeof(type), stop_mediatype);
	if (j >= n - i)
		return 1;	/* no ';' or ',': not a media type we accept */
	for (j = 0; j < sizeof(images) / sizeof(images[0]); j++)
		if (!strcmp(type, images[j]))
			return 0;
	return 1;
}

/* RFC 3986 unreserved, gen-delims and sub-delims: kept as they are. */
static int
url_safe(unsigned char c)
{
	return is_alpha(c) || is_digit(c) ||
	       (c && strchr("-._~:/?#[]@!$&'()*+,;=", c) != NULL);
}

static void
url_encode(struct buf *b, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;
	unsigned char c;

	buf_grow(b, n);
	for (i = 0; i < n; i++) {
		c = p[i];
		if (c == '%' && n - i > 2 && is_xdigit(p[i + 1]) &&
		    is_xdigit(p[i + 2])) {
			buf_addch(b, '%');
		} else if (c == '&') {
			buf_addstr(b, "&amp;");
		} else if (c == '\'') {
			buf_addstr(b, "&#39;");
		} else if (c < 0x80 && url_safe(c)) {
			buf_addch(b, c);
		} else {
			buf_addch(b, '%');
			buf_addch(b, hex[c >> 4]);
			buf_addch(b, hex[c & 15]);
		}
	}
}

void
html_url(struct buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	while (n && p[0] <= 0x20) {
		p++;
		n--;
	}
	while (n && p[n - 1] <= 0x20)
		n--;
	if (url_refused(p, n)) {
		buf_addch(b, '#');
		return;
	}
	url_encode(b, p, n);
}

void
html_url_part(struct buf *b, const char *s, size_t n)
{
	url_encode(b, (const unsigned char *)s, n);
}

/*
 * Copy the output of snprintf("%f/%g/%e") from in to out (same size or
 * larger) in the C locale's shape: whatever the current LC_NUMERIC uses as
 * decimal point (any run of bytes that is not a digit, sign or exponent
 * letter; printf never groups without the ' flag) becomes '.'.  A result
 * with no non-zero mantissa digit loses its minus sign.
 */
static void
c_number(char *out, const char *in)
{
	size_t k = 0;
	int nonzero = 0, in_exp = 0;
	const char *s = in;

	while (*s) {
		unsigned char c = (unsigned char)*s;

		if (is_digit(c) || c == '-' || c == '+' || c == 'e' || c == 'E') {
			if (c == 'e' || c == 'E')
				in_exp = 1;
			else if (is_digit(c) && c != '0' && !in_exp)
				nonzero = 1;
			out[k++] = (char)c;
			s++;
			continue;
		}
		out[k++] = '.';
		while (*s && !is_digit((unsigned char)*s) && *s != '-' &&
		       *s != '+' && *s != 'e' && *s != 'E')
			s++;
	}
	out[k] = '\0';
	if (out[0] == '-' && !nonzero)
		memmove(out, out + 1, k);
}

/* Large enough for "%.40f" of DBL_MAX (309 digits + point + 40 + sign). */
#define NUMBUF 400
#define MAX_PREC 40

static void
add_double(struct buf *b, char conv, int prec, double v)
{
	char tmp[NUMBUF], out[NUMBUF];

	if (!isfinite(v)) {
#ifdef ERG_DEBUG
		BUG("html_printf: non-finite number");
#endif
		buf_addch(b, '0');
		return;
	}
	if (conv == 'f')
		snprintf(tmp, sizeof(tmp), "%.*f", prec, v);
	else
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
	c_number(out, tmp);
	buf_addstr(b, out);
}

static void
add_conv_str(struct buf *b, char conv, const char *s, size_t n)
{
	switch (conv) {
	case 'H':
		html_text(b, s, n);
		break;
	case 'A':
		html_attr(b, s, n);
		break;
	case 'U':
		html_url(b, s, n);
		break;
	default:
		buf_add(b, s, n);
		break;
	}
}

void
html_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	const char *p = fmt, *q;

	while (*p) {
		int prec = -1, star = 0, lmod = 0;	/* lmod: 1 l, 2 ll, 3 z */
		char conv;

		q = strchr(p, '%');
		if (!q) {
			buf_addstr(b, p);
			return;
		}
		buf_add(b, p, (size_t)(q - p));
		p = q + 1;
		if (*p == '%') {
			buf_addch(b, '%');
			p++;
			continue;
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				star = 1;
				p++;
			} else if (is_digit((unsigned char)*p)) {
				prec = 0;
				while (is_digit((unsigned char)*p)) {
					prec = prec * 10 + (*p++ - '0');
					if (prec > MAX_PREC)
						BUG("html_printf: precision too large in \"%s\"", fmt);
				}
			} else {
				BUG("html_printf: bad precision in \"%s\"", fmt);
			}
		}
		if (*p == 'l') {
			lmod = 1;
			if (*++p == 'l') {
				lmod = 2;
				p++;
			}
		} else if (*p == 'z') {
			lmod = 3;
			p++;
		}
		conv = *p;
		if (!conv)
			BUG("html_printf: '%%' at end of \"%s\"", fmt);
		p++;
		switch (conv) {
		case 'H':
		case 'A':
		case 'U':
		case 'R': {
			const char *s;
			int len = 0;

			if (lmod || prec >= 0)
				BUG("html_printf: bad %%%c in \"%s\"", conv, fmt);
			if (star)
				len = va_arg(ap, int);
			s = va_arg(ap, const char *);
			if (star && len < 0)
				BUG("html_printf: negative length for %%.*%c", conv);
			if (s)
				add_conv_str(b, conv, s, star ? (size_t)len : strlen(s));
			break;
		}
		case 'd':
			if (star || prec >= 0 || lmod == 3)
				BUG("html_printf: bad %%d in \"%s\"", fmt);
			if (lmod == 0)
				buf_addf(b, "%d", va_arg(ap, int));
			else if (lmod == 1)
				buf_addf(b, "%ld", va_arg(ap, long));
			else
				buf_addf(b, "%lld", va_arg(ap, long long));
			break;
		case 'u':
			if (star || prec >= 0)
				BUG("html_printf: bad %%u in \"%s\"", fmt);
			if (lmod == 0)
				buf_addf(b, "%u", va_arg(ap, unsigned));
			else if (lmod == 1)
				buf_addf(b, "%lu", va_arg(ap, unsigned long));
			else if (lmod == 2)
				buf_addf(b, "%llu", va_arg(ap, unsigned long long));
			else
				buf_addf(b, "%zu", va_arg(ap, size_t));
			break;
		case 'f':
		case 'g':
			if (star || lmod)
				BUG("html_printf: bad %%%c in \"%s\"", conv, fmt);
			add_double(b, conv, prec < 0 ? 6 : prec, va_arg(ap, double));
			break;
		default:
			BUG("html_printf: unknown conversion '%%%c' in \"%s\"", conv, fmt);
		}
	}
}

void
html_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	html_vprintf(b, fmt, ap);
	va_end(ap);
}

#define MAX_DECIMALS 20

static int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* "%.*f" of a finite v into out[NUMBUF], C-shaped. */
static void
fixed(char *out, double v, int decimals)
{
	char tmp[NUMBUF];

	snprintf(tmp, sizeof(tmp), "%.*f", clamp(decimals, 0, MAX_DECIMALS), v);
	c_number(out, tmp);
}

void
html_fmt_fixed(struct buf *b, double v, int decimals)
{
	char out[NUMBUF];

	if (!isfinite(v)) {
		buf_addstr(b, EN_DASH);
		return;
	}
	fixed(out, v, decimals);
	buf_addstr(b, out);
}

void
html_fmt_thousands(struct buf *b, double v, int decimals)
{
	char out[NUMBUF];
	const char *p = out;
	size_t digits;

	if (!isfinite(v)) {
		buf_addstr(b, EN_DASH);
		return;
	}
	fixed(out, v, decimals);
	if (*p == '-')
		buf_addch(b, *p++);
	digits = strspn(p, "0123456789");
	while (digits) {
		size_t group = digits % 3 ? digits % 3 : 3;

		buf_add(b, p, group);
		p += group;
		digits -= group;
		if (digits)
			buf_addch(b, ',');
	}
	buf_addstr(b, p);
}

void
html_fmt_sig(struct buf *b, double v, int sig)
{
	char tmp[NUMBUF];
	const char *e;
	int exp10;

	if (!isfinite(v)) {
		buf_addstr(b, EN_DASH);
		return;
	}
	if (v == 0) {
		buf_addch(b, '0');
		return;
	}
	sig = clamp(sig, 1, 17);
	/* %e rounds to sig digits first, so 9.996 with sig 3 gives exponent 1. */
	snprintf(tmp, sizeof(tmp), "%.*e", sig - 1, v);
	e = strchr(tmp, 'e');
	exp10 = e ? (int)strtol(e + 1, NULL, 10) : 0;
	html_fmt_fixed(b, v, clamp(sig - 1 - exp10, 0, MAX_DECIMALS));
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
 * otherwise a binary search finds the same k.  test_html compares the two
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
html_shortest_decimals(double v, int max_dec)
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
html_shortest_digits(double v)
{
	/* 17 significant digits always read back (DBL_DECIMAL_DIG). */
	int p = least_reading_back(v, 1, 16, 0);

	return p < 0 ? 17 : p;
}

void
html_fmt_real(struct buf *b, double v)
{
	char tmp[NUMBUF], out[NUMBUF];

	if (!isfinite(v)) {
		buf_addstr(b, EN_DASH);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.*g", html_shortest_digits(v), v);
	c_number(out, tmp);
	buf_addstr(b, out);
}
