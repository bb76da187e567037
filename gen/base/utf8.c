/*
 * utf8.c - see utf8.h.  The escaping writer (html.c), the validator of
 * names and CSV fields (util.c) and the diagnostics' sanitiser each had
 * their own decoding loop; this is the one left.
 */
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"

size_t
utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
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
		*cp = UTF8_BAD;
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || p[i] < lo || p[i] > hi) {
			*cp = UTF8_BAD;
			return i;
		}
		v = v << 6 | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}

int
utf8_valid(const char *s, size_t n)
{
	size_t i = 0;
	uint32_t cp;

	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		i += utf8_decode(s + i, n - i, &cp);
		if (cp == UTF8_BAD)
			return 0;
	}
	return 1;
}

size_t
utf8_bom(const char *s, size_t n)
{
	return n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
}

void
utf8_put(struct buf *b, uint32_t c)
{
	if (c < 0x80) {
		buf_addch(b, (int)c);
	} else if (c < 0x800) {
		buf_addch(b, (int)(0xc0 | (c >> 6)));
		buf_addch(b, (int)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		buf_addch(b, (int)(0xe0 | (c >> 12)));
		buf_addch(b, (int)(0x80 | ((c >> 6) & 0x3f)));
		buf_addch(b, (int)(0x80 | (c & 0x3f)));
	} else {
		buf_addch(b, (int)(0xf0 | (c >> 18)));
		buf_addch(b, (int)(0x80 | ((c >> 12) & 0x3f)));
		buf_addch(b, (int)(0x80 | ((c >> 6) & 0x3f)));
		buf_addch(b, (int)(0x80 | (c & 0x3f)));
	}
}

int
utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

int
utf8_is_bidi(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void
utf8_clean(struct buf *b, const char *s, size_t n)
{
	size_t i, len, run;
	uint32_t cp;

	for (i = 0; i < n; i += len) {
		for (run = i; run < n && (unsigned char)s[run] >= 0x20 &&
			      (unsigned char)s[run] < 0x7f; run++)
			;
		buf_add(b, s + i, run - i);
		if ((i = run) >= n)
			break;
		len = utf8_decode(s + i, n - i, &cp);
		if (cp == '\t' || cp == '\n' || cp == '\r')
			buf_addch(b, (char)cp);
		else if (utf8_is_bidi(cp))
			buf_addf(b, "[U+%04lX]", (unsigned long)cp);
		else if (!utf8_is_control(cp))
			buf_add(b, s + i, len);
	}
}

size_t
utf8_term(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0, i, len, w = 0;
	uint32_t cp;

	for (i = 0; i < n; i += len, w++) {
		len = utf8_decode(s + i, n - i, &cp);
		if (cp == UTF8_BAD || utf8_is_control(cp)) {
			buf_addch(b, '?');
		} else if (utf8_is_bidi(cp)) {
			buf_addf(b, "[U+%04lX]", (unsigned long)cp);
			w += 7;
		} else {
			buf_add(b, s + i, len);
		}
	}
	return w;
}
