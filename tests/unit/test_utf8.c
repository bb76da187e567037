/*
 * test_utf8.c - the one UTF-8 decoder (base/utf8.h): well-formed and
 * ill-formed sequences with the lengths Unicode's "maximal subpart"
 * gives them, validation, encoding every length, the controls writers
 * drop or show.  Expected values written out by hand from table 3-7.
 */
#include <string.h>

#include "harness.h"

#include "base/buf.h"
#include "base/utf8.h"

static void
dec_line(const char *s, size_t n, size_t want_len, uint32_t want_cp, int line)
{
	uint32_t cp = 0;
	size_t len = utf8_decode(s, n, &cp);

	th_check(len == want_len && cp == want_cp, __FILE__, line,
		 "decode: length %zu code point %#lx (want %zu, %#lx)", len, (unsigned long)cp,
		 want_len, (unsigned long)want_cp);
}

#define DEC(s, len, cp) dec_line(s, sizeof(s) - 1, len, cp, __LINE__)

static void
test_decode(void)
{
	DEC("A", 1, 0x41);
	DEC("\x7f", 1, 0x7f);
	DEC("\xc2\x80", 2, 0x80);
	DEC("\xdf\xbf", 2, 0x7ff);
	DEC("\xe0\xa0\x80", 3, 0x800);
	DEC("\xe2\x80\xae", 3, 0x202e);
	DEC("\xef\xbf\xbf", 3, 0xffff);
	DEC("\xf0\x90\x80\x80", 4, 0x10000);
	DEC("\xf4\x8f\xbf\xbf", 4, 0x10ffff);
	/* ill-formed: the maximal subpart */
	DEC("\x80", 1, UTF8_BAD);		/* a lone continuation byte */
	DEC("\xc0\xaf", 1, UTF8_BAD);		/* C0, C1 never lead */
	DEC("\xc1\xbf", 1, UTF8_BAD);
	DEC("\xe0\x9f\x80", 1, UTF8_BAD);	/* overlong: E0 needs A0..BF */
	DEC("\xed\xa0\x80", 1, UTF8_BAD);	/* a surrogate: ED needs 80..9F */
	DEC("\xf0\x8f\xbf\xbf", 1, UTF8_BAD);	/* overlong: F0 needs 90..BF */
	DEC("\xf4\x90\x80\x80", 1, UTF8_BAD);	/* past U+10FFFF */
	DEC("\xf5\x80\x80\x80", 1, UTF8_BAD);
	DEC("\xe2\x80", 2, UTF8_BAD);		/* truncated: both bytes one subpart */
	DEC("\xe2\x80x", 2, UTF8_BAD);
	DEC("\xf0\x90\x80", 3, UTF8_BAD);
	DEC("\xe2\xc2\x85", 1, UTF8_BAD);	/* a lead byte ends the subpart */
}

static void
test_valid(void)
{
	CHECK(utf8_valid("", 0) && utf8_valid("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", 14),
	      "valid: empty, 2, 3 and 4 bytes");
	CHECK(utf8_valid("a\0b", 3), "valid: a NUL is a character");
	CHECK(!utf8_valid("a\xff", 2) && !utf8_valid("\xed\xbf\xbf", 3) &&
	      !utf8_valid("\xc3", 1) && !utf8_valid("\xc0\x80", 2),
	      "invalid: FF, a surrogate, truncated, overlong NUL");
	CHECK(utf8_bom("\xef\xbb\xbfx", 4) == 3 && utf8_bom("\xef\xbb", 2) == 0 &&
	      utf8_bom("x\xef\xbb\xbf", 4) == 0, "BOM: only at the start, whole");
}

static void
test_put(void)
{
	static const uint32_t cps[] = { 0, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff };
	struct buf b = BUF_INIT;
	size_t i, bad = 0;
	uint32_t cp;

	for (i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		buf_reset(&b);
		utf8_put(&b, cps[i]);
		if (utf8_decode(b.ptr, b.len, &cp) != b.len || cp != cps[i])
			bad++;
	}
	CHECK(!bad, "put: every length reads back (%zu wrong)", bad);
	buf_reset(&b);
	utf8_put(&b, 0x20ac);
	CHECK(b.len == 3 && !memcmp(b.ptr, "\xe2\x82\xac", 3), "put: U+20AC is E2 82 AC");
	buf_release(&b);
}

static void
test_classes(void)
{
	CHECK(utf8_is_control(0) && utf8_is_control('\t') && utf8_is_control(0x1f) &&
	      utf8_is_control(0x7f) && utf8_is_control(0x85) && utf8_is_control(0x9f),
	      "controls: C0, DEL, C1");
	CHECK(!utf8_is_control(' ') && !utf8_is_control(0xa0) && !utf8_is_control(UTF8_BAD),
	      "not controls: space, NBSP, an ill-formed byte");
	CHECK(utf8_is_bidi(0x202a) && utf8_is_bidi(0x202e) && utf8_is_bidi(0x2066) &&
	      utf8_is_bidi(0x2069), "bidi: U+202A..U+202E, U+2066..U+2069");
	CHECK(!utf8_is_bidi(0x200e) && !utf8_is_bidi(0x200f) && !utf8_is_bidi(0x61c) &&
	      !utf8_is_bidi(0x2029) && !utf8_is_bidi(0x206a), "not bidi: the marks, neighbours");
}

static void
test_clean(void)
{
	static const char in[] = "a\tb\r\nc\x01\x7f" "d\xc2\x85" "e\xe2\x80\xae" "f\xff\xc3\xa9";
	struct buf b = BUF_INIT;

	utf8_clean(&b, in, sizeof(in) - 1);
	CHECK(b.len == strlen("a\tb\r\ncde[U+202E]f\xff\xc3\xa9") &&
	      !memcmp(b.ptr, "a\tb\r\ncde[U+202E]f\xff\xc3\xa9", b.len),
	      "clean: controls but TAB CR LF dropped, bidi shown, the rest kept");
	buf_release(&b);
}

int
main(void)
{
	test_decode();
	test_valid();
	test_put();
	test_classes();
	test_clean();
	return th_done();
}
