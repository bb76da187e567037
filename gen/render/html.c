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

#include "base/num.h"
#include "base/utf8.h"
#include "render/html.h"
#include "base/util.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/* Entities for the five ASCII bytes that are never written as themselves. */
static const char *const entity[128] = {
	['&'] = "&amp;",
	['<'] = "&lt;",
	['>'] = "&gt;",
	['"'] = "&quot;",
	['\''] = "&#39;",
};

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
		len = utf8_decode(s + i, n - i, &cp);
		if (cp == UTF8_BAD || cp == 0xfffe || cp == 0xffff)
			buf_addstr(b, REPLACEMENT);
		else if (utf8_is_bidi(cp))
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

/* Large enough for "%.40f" of DBL_MAX (309 digits + point + 40 + sign). */
#define NUMBUF 400
#define MAX_PREC 40

static void
add_double(struct buf *b, char conv, int prec, double v)
{
	char out[NUMBUF];

	if (!isfinite(v)) {
#ifdef ERG_DEBUG
		BUG("html_printf: non-finite number");
#endif
		buf_addch(b, '0');
		return;
	}
	num_format(out, sizeof(out), conv, prec, v);
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
