/*
 * test_html.c - the escapers and html_printf, fed hostile input (the
 * number formatters: test_num.c).  Every expected string is written out by hand.
 */
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "base/buf.h"
#include "render/html.h"

static struct buf out = BUF_INIT;

/* got/want shown C-escaped, so a check stays on one output line. */
static const char *
repr(const char *s, struct buf *b)
{
	buf_reset(b);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			buf_addf(b, "\\x%02x", c);
		else
			buf_addch(b, c);
	}
	return b->ptr;
}

static void
check_str(const char *got, const char *want, const char *what, int line)
{
	struct buf g = BUF_INIT, w = BUF_INIT, h = BUF_INIT;

	th_check(!strcmp(got, want), __FILE__, line, "%s: got '%s' want '%s'",
		 repr(what, &h), repr(got, &g), repr(want, &w));
	buf_release(&g);
	buf_release(&w);
	buf_release(&h);
}

#undef CHECK_STR
#define CHECK_STR(got, want, what) check_str((got), (want), (what), __LINE__)

typedef void (*escaper)(struct buf *, const char *, size_t);

static const char *
run(escaper f, const char *s, size_t n)
{
	buf_reset(&out);
	f(&out, s, n);
	return out.ptr;
}

/* in must be a string literal: sizeof keeps embedded NULs. */
#define T(f, in, want) CHECK_STR(run(f, in, sizeof(in) - 1), want, #f " " #in)

#define FFFD "\xef\xbf\xbd"

static void
test_text(void)
{
	T(html_text, "", "");
	T(html_text, "plain words 123", "plain words 123");
	T(html_text, "<script>alert(1)</script>",
	  "&lt;script&gt;alert(1)&lt;/script&gt;");
	T(html_text, "\"><svg onload=alert(1)>",
	  "&quot;&gt;&lt;svg onload=alert(1)&gt;");
	T(html_text, "a & b 'c'", "a &amp; b &#39;c&#39;");
	T(html_text, "&amp;", "&amp;amp;");
	T(html_text, "tab\tlf\ncr\r", "tab\tlf\ncr\r");
	/* C0 controls (NUL included) and DEL are dropped */
	T(html_text, "a\x01" "b\x1f" "c\x7f" "d\0e\x1b[31m", "abcde[31m");
	/* valid UTF-8 passes: e-acute, euro, U+1D11E, U+FFFD itself, NBSP */
	T(html_text, "\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e" FFFD "\xc2\xa0",
	  "\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e" FFFD "\xc2\xa0");
	/* C1 controls dropped, U+FFFE/U+FFFF (not XML) replaced */
	T(html_text, "x\xc2\x80\xc2\x9fy", "xy");
	T(html_text, "\xef\xbf\xbe\xef\xbf\xbf", FFFD FFFD);
	/* invalid UTF-8: one U+FFFD per maximal ill-formed subpart */
	T(html_text, "\xff", FFFD);
	T(html_text, "a\xc3", "a" FFFD);
	T(html_text, "\xe2\x82", FFFD);
	T(html_text, "\xe2\x82x", FFFD "x");
	T(html_text, "\xc0\xaf", FFFD FFFD);			/* overlong '/' */
	T(html_text, "\xe0\x80\xaf", FFFD FFFD FFFD);		/* overlong */
	T(html_text, "\xed\xa0\x80", FFFD FFFD FFFD);		/* surrogate */
	T(html_text, "\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);	/* > U+10FFFF */
	T(html_text, "\xf0\x9f\x98", FFFD);			/* truncated 4-byte */
	T(html_text, "\x80<", FFFD "&lt;");
	/* bidirectional controls (issue 14) are visible text, so they reorder
	 * nothing around them; the marks LRM/RLM/ALM and their neighbours
	 * U+2029, U+202F, U+2065, U+206A stay */
	T(html_text, "evil\xe2\x80\xaegpj.exe", "evil[U+202E]gpj.exe");
	T(html_text, "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae",
	  "[U+202A][U+202B][U+202C][U+202D][U+202E]");
	T(html_text, "\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
	  "[U+2066][U+2067][U+2068][U+2069]");
	T(html_text, "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
	  "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
	T(html_text, "\xe2\x80", FFFD);	/* a truncated one is invalid UTF-8 */
	/* appends, does not replace */
	buf_reset(&out);
	html_text(&out, "a<", 2);
	html_text(&out, "b>", 2);
	CHECK_STR(out.ptr, "a&lt;b&gt;", "html_text appends");
	/* explicit length stops early */
	CHECK_STR(run(html_text, "<abc", 2), "&lt;a", "html_text honours n");
}

static void
test_attr(void)
{
	T(html_attr, "a\tb\nc\rd", "a b c d");
	T(html_attr, "x\" onmouseover=\"alert(1)", "x&quot; onmouseover=&quot;alert(1)");
	T(html_attr, "x' onmouseover='alert(1)", "x&#39; onmouseover=&#39;alert(1)");
	T(html_attr, "<>&", "&lt;&gt;&amp;");
	T(html_attr, "a\0b\x07" "c", "abc");
	T(html_attr, "bad\xfe", "bad" FFFD);
	T(html_attr, "x\xe2\x80\xae\"y", "x[U+202E]&quot;y");
}

static void
test_url(void)
{
	/* refused schemes */
	T(html_url, "javascript:alert(1)", "#");
	T(html_url, " JaVa\tScRiPt:x", "#");
	T(html_url, "java\nscript:x", "#");
	T(html_url, "java\rscr\x01ipt:x", "#");
	T(html_url, "java\0script:x", "#");
	T(html_url, "\x01\x02 javascript:x", "#");
	T(html_url, "JAVASCRIPT:x", "#");
	T(html_url, "vbscript:msgbox(1)", "#");
	T(html_url, "LiveScript:x", "#");
	T(html_url, "data:text/html,<script>alert(1)</script>", "#");
	T(html_url, "data:text/html;base64,PHNjcmlwdD4=", "#");
	T(html_url, "data:image/svg+xml;base64,PHN2Zz4=", "#");
	T(html_url, "data:image/png", "#");
	T(html_url, "data:image/pngx;base64,AAAA", "#");
	T(html_url, "data:,hello", "#");
	/* accepted data: bitmaps */
	T(html_url, "data:image/png;base64,iVBORw0KGgo=",
	  "data:image/png;base64,iVBORw0KGgo=");
	T(html_url, "DATA:Image/GIF,xyz", "DATA:Image/GIF,xyz");
	T(html_url, "data:image/jpeg;base64,/9j/", "data:image/jpeg;base64,/9j/");
	T(html_url, "data:image/webp,x", "data:image/webp,x");
	/* not a scheme: relative, kept (and harmless) */
	T(html_url, "runs/javascript:x", "runs/javascript:x");
	T(html_url, "java script:x", "java%20script:x");
	T(html_url, "javascript&colon;alert(1)", "javascript&amp;colon;alert(1)");
	T(html_url, "jav&#x61;script:alert(1)", "jav&amp;#x61;script:alert(1)");
	T(html_url, "java%73cript:x", "java%73cript:x");
	T(html_url, "1http:x", "1http:x");
	/* other schemes kept */
	T(html_url, "mailto:a@b.example", "mailto:a@b.example");
	T(html_url, "HTTPS://Example.com/", "HTTPS://Example.com/");
	/* percent-encoding and escaping */
	T(html_url, "http://example.com/a b?q=<x>&y='z'#f",
	  "http://example.com/a%20b?q=%3Cx%3E&amp;y=&#39;z&#39;#f");
	T(html_url, "https://example.com/%7Euser/%zz/%4/%", "https://example.com/%7Euser/%25zz/%254/%25");
	T(html_url, "/caf\xc3\xa9", "/caf%C3%A9");
	T(html_url, "/bad\xff", "/bad%FF");
	T(html_url, "/evil\xe2\x80\xaegpj.exe", "/evil%E2%80%AEgpj.exe");	/* no raw bidi control */
	T(html_url, "\"><script>alert(1)</script>", "%22%3E%3Cscript%3E" "alert(1)%3C/script%3E");
	T(html_url, "\\\\evil.example/", "%5C%5Cevil.example/");
	T(html_url, "/a`b{c}|d^e", "/a%60b%7Bc%7D%7Cd%5Ee");
	T(html_url, "/[v6]:!$()*+,;=@~._-", "/[v6]:!$()*+,;=@~._-");
	T(html_url, "/tab\there", "/tab%09here");
	/* leading/trailing spaces and controls trimmed */
	T(html_url, "  /runs/1.html \n", "/runs/1.html");
	T(html_url, "", "");
	T(html_url, " \t ", "");
	/* parts: no trimming, no scheme check */
	T(html_url_part, " a b/c?d#e ", "%20a%20b/c?d#e%20");
	T(html_url_part, "javascript:x", "javascript:x");
	T(html_url_part, "a&b'c\"", "a&amp;b&#39;c%22");
}

static void
test_printf(void)
{
	buf_reset(&out);
	html_printf(&out, "<a href=\"%U\" title=\"%A\">%H</a>", "javascript:x",
		    "a\"b\nc", "<i>");
	CHECK_STR(out.ptr, "<a href=\"#\" title=\"a&quot;b c\">&lt;i&gt;</a>",
		  "html_printf %U %A %H");
	buf_reset(&out);
	html_printf(&out, "%R|%%|100%%", "<b>erg</b>");
	CHECK_STR(out.ptr, "<b>erg</b>|%|100%", "html_printf %R %%");
	buf_reset(&out);
	html_printf(&out, "[%.*H][%.*A][%.*U][%.*R]", 2, "<abc", 1, "\"x", 3,
		    "a b/", 2, "<bx");
	CHECK_STR(out.ptr, "[&lt;a][&quot;][a%20b][<b]", "html_printf %.*X");
	buf_reset(&out);
	html_printf(&out, "[%H][%A][%U][%R]", (const char *)NULL,
		    (const char *)NULL, (const char *)NULL, (const char *)NULL);
	CHECK_STR(out.ptr, "[][][][]", "html_printf NULL strings");
	buf_reset(&out);
	html_printf(&out, "%d %d %u %ld %lld", -5, INT_MIN, 4000000000u,
		    -1234567890123L, LLONG_MAX);
	CHECK_STR(out.ptr, "-5 -2147483648 4000000000 -1234567890123 9223372036854775807",
		  "html_printf signed");
	buf_reset(&out);
	html_printf(&out, "%lu %llu %zu", 18446744073709551615ul,
		    18446744073709551615ull, (size_t)42);
	CHECK_STR(out.ptr, "18446744073709551615 18446744073709551615 42",
		  "html_printf unsigned");
	buf_reset(&out);
	html_printf(&out, "%g %g %g %.3g %g", 0.5, 1e21, 123456789.0, 3.14159, 1e-5);
	CHECK_STR(out.ptr, "0.5 1e+21 1.23457e+08 3.14 1e-05", "html_printf %g");
	buf_reset(&out);
	html_printf(&out, "%f %.2f %.0f %.1f", 1.5, 3.14159, 3.7, -2.25);
	CHECK_STR(out.ptr, "1.500000 3.14 4 -2.2", "html_printf %f");
	buf_reset(&out);
	html_printf(&out, "%.2f %g %.0f", -0.001, -0.0, -0.4);
	CHECK_STR(out.ptr, "0.00 0 0", "html_printf drops the sign of zero");
	buf_reset(&out);
	html_printf(&out, "x=%g y=%.2f z=%g", NAN, INFINITY, -INFINITY);
	CHECK_STR(out.ptr, "x=0 y=0 z=0", "html_printf non-finite prints 0");
	buf_reset(&out);
	html_printf(&out, "<rect x=\"%.1f\" width=\"%g\"/>", 10.25, 0.125);
	CHECK_STR(out.ptr, "<rect x=\"10.2\" width=\"0.125\"/>", "html_printf svg");
	buf_reset(&out);
	html_printf(&out, "no conversions");
	CHECK_STR(out.ptr, "no conversions", "html_printf literal");
}

/*
 * Locale independence, when a locale with a decimal comma is installed
 * (often none is; then there is nothing to check and no check is made).
 */
static void
test_locale(void)
{
	if (!th_comma_locale())
		return;
	buf_reset(&out);
	html_printf(&out, "%.2f %g %g", 1.5, 0.25, 1e-5);
	CHECK_STR(out.ptr, "1.50 0.25 1e-05", "html_printf under a decimal-comma locale");
	setlocale(LC_NUMERIC, "C");
}

int
main(void)
{
	test_text();
	test_attr();
	test_url();
	test_printf();
	test_locale();
	buf_release(&out);
	return th_done();
}
