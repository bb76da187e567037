/*
 * html.h - the one escaping writer of erg.
 *
 * Every byte that comes from the archive is untrusted and reaches HTML or
 * SVG only through the functions here (directly, or through tmpl.c which
 * calls them).  The short call is the safe call: html_printf() has no
 * plain %s, so interpolating a name without choosing its context does not
 * compile into anything.
 *
 * All output is UTF-8 and valid in both HTML and XML (SVG):
 *   - invalid UTF-8 (bad lead or continuation bytes, overlongs, surrogates,
 *     code points past U+10FFFF, truncated sequences) becomes U+FFFD, one
 *     per maximal ill-formed subpart (the Unicode "best practice");
 *   - U+FFFE and U+FFFF, not XML characters, become U+FFFD;
 *   - C0 controls other than TAB, LF and CR, DEL and the C1 controls
 *     (U+0080..U+009F) are dropped: invalid or discouraged in HTML and XML,
 *     and never meaningful in a results page.
 *   - the bidirectional embedding, override and isolate controls
 *     (U+202A..U+202E LRE RLE PDF LRO RLO, U+2066..U+2069 LRI RLI FSI PDI)
 *     are written as the visible text "[U+202E]": a raw one reorders the
 *     text around it, past the end of the name it came in (a title, a
 *     cell, a target), and makes "evil\u202Egpj.exe" read "evilexe.jpg".
 *     Numeric references would not help (the DOM holds the character
 *     either way), and <bdi> cannot go where text is escaped for an
 *     attribute, a <title> or SVG; a visible code point works in every
 *     context and shows the reader what the name holds.  The marks
 *     U+200E, U+200F and U+061C stay: they reorder nothing but neutrals
 *     next to them, and right-to-left names need them.
 *
 * Numbers printed here never depend on the C locale's decimal point (erg
 * never calls setlocale, but a library might): see html_printf().
 *
 * No function returns an error: allocation failure dies in buf.c, and a
 * malformed html_printf() format is a programming error (BUG).
 */
#ifndef ERG_HTML_H
#define ERG_HTML_H

#include <stdarg.h>
#include <stddef.h>

#include "base/buf.h"

/*
 * Text content: escapes & < > " ' (as &amp; &lt; &gt; &quot; &#39;), so the
 * same output is also safe inside a quoted attribute value.  TAB, LF and CR
 * are kept.
 */
void html_text(struct buf *b, const char *s, size_t n);

/* Attribute value (quoted with " or '): as html_text, and TAB, LF, CR
 * become spaces so a value stays on one line. */
void html_attr(struct buf *b, const char *s, size_t n);

/*
 * A whole URL for href/src-like attributes.
 *
 * Leading and trailing spaces and C0 controls are trimmed (browsers do the
 * same).  The scheme is read case-insensitively, skipping any C0 control
 * or DEL inside it (browsers drop TAB/LF/CR there: "java\tscript:").  These
 * are refused, and the whole URL is replaced by "#":
 *     javascript:  vbscript:  livescript:
 *     data:  except data:image/png, data:image/gif, data:image/jpeg and
 *            data:image/webp followed by ';' or ',' (bitmaps cannot run
 *            script; image/svg+xml can, so it is refused).
 * Every other scheme, and every relative URL, is kept.  This is a deny
 * list, as cmark's: erg links to its own relative pages and to whatever
 * http(s) URL a benchmark hit, so an allow list would buy little.
 *
 * Then bytes outside the RFC 3986 set (unreserved, gen-delims, sub-delims)
 * are percent-encoded as %XX; a '%' already followed by two hex digits is
 * kept, any other '%' becomes %25.  Non-ASCII bytes are encoded byte by
 * byte, so UTF-8 survives and invalid UTF-8 cannot break anything.  The
 * result is finally attribute-escaped (& and ' are legal in URLs).
 */
void html_url(struct buf *b, const char *s, size_t n);

/*
 * Part of a URL whose scheme trusted text already fixed, for example the
 * "ID" in href="runs/ID.html": percent-encoding and escaping as html_url,
 * but no trimming and no scheme check.  Use only after a literal prefix
 * that contains '/', '?', '#' or a whole scheme; tmpl.c enforces that.
 */
void html_url_part(struct buf *b, const char *s, size_t n);

/*
 * printf for markup.  Conversions:
 *   %H   const char *, text-escaped (html_text)
 *   %A   const char *, attribute-escaped (html_attr)
 *   %U   const char *, a whole URL (html_url)
 *   %R   const char *, raw: ONLY for markup erg itself produced (cmark
 *        output, SVG built with these functions), never for archive data
 *   The four take an optional ".*" precision: an int length, then the
 *   pointer, for strings that are not NUL-terminated (%.*H).  A NULL
 *   pointer prints nothing (an absent name prints as empty).
 *   %d %ld %lld  int, long, long long
 *   %u %lu %llu %zu  unsigned, unsigned long, unsigned long long, size_t
 *   %f %.Nf  double, fixed with N decimals (default 6, N <= 40)
 *   %g %.Ng  double, N significant digits (default 6, N <= 40)
 *   %%   a literal '%'
 * There is no %s and no width or flags; anything else is a BUG().
 *
 * Doubles always use '.' as decimal separator, whatever LC_NUMERIC says.
 * A value that prints as zero prints without a minus sign ("0", not
 * "-0").  A non-finite double has no representation in HTML or SVG
 * ("NaN" in a coordinate breaks the chart), so it prints as "0"; in a
 * build with -DERG_DEBUG it is a BUG() instead.  Callers keep NAN
 * ("not reported") out of html_printf and format such values with
 * numfmt_add() (render/numfmt.h), which prints the missing value.
 *
 * The format string is not checked by the compiler (GCC's printf checker
 * does not know %H), so keep formats literal and covered by tests.
 */
void html_printf(struct buf *b, const char *fmt, ...);
void html_vprintf(struct buf *b, const char *fmt, va_list ap);

#endif
