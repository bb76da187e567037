/*
 * utf8.h - UTF-8, the one decoder: validation, decoding, encoding, the
 * byte order mark, and the characters no writer passes through as they
 * are.  Well-formed means Unicode's table 3-7: no overlongs, no
 * surrogates, nothing past U+10FFFF.
 */
#ifndef ERG_UTF8_H
#define ERG_UTF8_H

#include <stddef.h>
#include <stdint.h>

struct buf;

#define UTF8_BAD UINT32_MAX	/* an ill-formed sequence */

/*
 * Decode the character at s (n > 0 bytes left): its length, and in *cp
 * its code point, or UTF8_BAD for an ill-formed sequence, whose length
 * is then its maximal subpart (the lead byte and the continuation bytes
 * that were still acceptable), at least 1: one U+FFFD each, as Unicode
 * advises, for a writer that replaces them.
 */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Is s[0..n) well-formed UTF-8? */
int utf8_valid(const char *s, size_t n);
/* 3 if s starts with a byte order mark (which editors and spreadsheets
 * write and every text input may skip), else 0. */
size_t utf8_bom(const char *s, size_t n);
/* cp (at most U+10FFFF) in UTF-8. */
void utf8_put(struct buf *b, uint32_t cp);

/* C0 controls (TAB, LF and CR too), DEL and the C1 controls U+0080..
 * U+009F, which some terminals obey as escape sequences. */
int utf8_is_control(uint32_t cp);
/* The bidirectional embedding, override and isolate controls (U+202A..
 * U+202E, U+2066..U+2069): a raw one reorders the text around it, past
 * the end of the name it came in (html.h). */
int utf8_is_bidi(uint32_t cp);
/*
 * s[0..n) as text for a file or a page that shows it as it is: controls
 * other than TAB, LF and CR dropped, bidirectional controls written as
 * the visible "[U+202E]" (as html.h writes them), everything else (ill-
 * formed bytes too: the writer after this decides) kept.
 */
void utf8_clean(struct buf *b, const char *s, size_t n);
/*
 * s (NULL: "") for a terminal, a JSON string or a message: controls
 * (C0, DEL, C1) and each ill-formed sequence as '?', so no escape
 * sequence reaches a terminal and jansson, which refuses invalid UTF-8,
 * accepts the result; bidirectional controls as "[U+202E]".  Returns
 * the width in code points.
 */
size_t utf8_term(struct buf *b, const char *s);

#endif
