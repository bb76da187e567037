/*
 * fuzz_md.c - the author's notes (markdown.c): the input is notes.md,
 * rendered as render.c does (markdown_to_html_opts: headings shifted by
 * 2, the run's own downloads kept as relative links) and with the
 * defaults (markdown_to_html).
 *
 * Oracles (markdown.h): the HTML is clean UTF-8; cmark-gfm's safe mode
 * leaves no raw HTML, so every tag is one cmark-gfm writes for Markdown
 * and its extensions (tables, strikethrough, autolinks, task lists), with
 * only href, title, start and class attributes, align="left|center|right"
 * on table cells and type="checkbox" checked="" disabled="" on task-list
 * boxes (no event handler, no style, no src: images become links or
 * text); every href, autolinks' included, is http(s), mailto, a fragment
 * or one of the kept names.
 */
#include <ctype.h>
#include <string.h>

#include "fuzz.h"
#include "render/markdown.h"
#include "base/util.h"

static const char *const keep[] = {
	"results.json", "headline.csv", "routes.csv", "per-mb.csv",
	"windows.csv", "tables.md", "index.html",
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

static int
prefix_ci(const char *s, const char *p)
{
	return !strncasecmp(s, p, strlen(p));
}

/* An href value (up to the closing quote) erg allows. */
static int
href_ok(const char *v, const char *end, int with_keep)
{
	size_t i, n;

	/* cmark percent-encodes leading blanks of <...> destinations; a
	 * relative "%20http:" is harmless. */
	while (end - v >= 3 && (!strncmp(v, "%20", 3) || !strncmp(v, "%09", 3)))
		v += 3;
	if (v == end || *v == '#' || prefix_ci(v, "http://") || prefix_ci(v, "https://") ||
	    prefix_ci(v, "mailto:"))
		return 1;
	if (!with_keep)
		return 0;
	n = strcspn(v, "?#\"");
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (strlen(keep[i]) == n && !strncmp(keep[i], v, n))
			return 1;
	return 0;
}

static int
in_list(const char *p, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !strncasecmp(p, *list, n))
			return 1;
	return 0;
}

/* The value v[0..end) the extensions' attributes may have. */
static int
value_ok(const char *n, const char *v, const char *end)
{
	static const char *const align[] = { "left", "center", "right", NULL };
	size_t len = (size_t)(end - v);

	if (!strncasecmp(n, "align", 5))
		return in_list(v, len, align);
	if (!strncasecmp(n, "type", 4))
		return len == 8 && !memcmp(v, "checkbox", 8);
	if (!strncasecmp(n, "checked", 7) || !strncasecmp(n, "disabled", 8))
		return len == 0;
	return 1;
}

/*
 * Walk the HTML as a browser's tokenizer would: every '<' must open a
 * tag cmark-gfm writes, with only the attributes it writes, so no raw
 * HTML, image or event handler can be there; check every href.
 */
static void
check(const struct buf *b, int with_keep)
{
	static const char *const tags[] = {
		"a", "p", "em", "strong", "code", "pre", "h1", "h2", "h3", "h4",
		"h5", "h6", "ul", "ol", "li", "blockquote", "hr", "br",
		"table", "thead", "tbody", "tr", "th", "td", "del", "input", NULL,
	};
	static const char *const attrs[] = {
		"href", "title", "start", "class", "align", "type", "checked", "disabled", NULL,
	};
	const char *p = b->ptr, *end = b->ptr + b->len, *n, *v;

	if (!fuzz_html_chars_ok(b->ptr, b->len)) {
		struct buf t = BUF_INIT;
		size_t i;
		int ok;

		if (!fuzz_relaxed("md-controls"))
			fuzz_fail("md: HTML is not clean UTF-8 (or holds control characters)");
		/* Known bug relaxed: drop the controls, UTF-8 must still hold. */
		for (i = 0; i < b->len; i++) {
			unsigned char c = (unsigned char)b->ptr[i];

			if (c == 0xc2 && i + 1 < b->len && (unsigned char)b->ptr[i + 1] >= 0x80 &&
			    (unsigned char)b->ptr[i + 1] <= 0x9f)
				i++;
			else if (!((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f))
				buf_addch(&t, c);
		}
		ok = fuzz_html_chars_ok(t.ptr, t.len);
		buf_release(&t);
		if (!ok)
			fuzz_fail("md: HTML is not well-formed UTF-8");
	}
	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		p++;
		if (end - p >= 3 && !memcmp(p, "!--", 3)) {
			/* cmark's only comment: <!-- raw HTML omitted --> */
			if ((size_t)(end - p) < 25 || memcmp(p, "!-- raw HTML omitted -->", 24))
				fuzz_fail("md: comment other than cmark's '%.40s'", p);
			p += 24;
			continue;
		}
		if (p < end && *p == '/')
			p++;
		for (n = p; p < end && isalnum((unsigned char)*p); p++)
			;
		if (!in_list(n, (size_t)(p - n), tags))
			fuzz_fail("md: tag '<%.*s' in the HTML", (int)(p - n > 20 ? 20 : p - n), n);
		for (;;) {
			while (p < end && *p == ' ')
				p++;
			if (p < end && (*p == '>' || *p == '/')) {
				p += *p == '/' ? 2 : 1;
				break;
			}
			for (n = p; p < end && (isalnum((unsigned char)*p) || *p == '-'); p++)
				;
			if (!in_list(n, (size_t)(p - n), attrs))
				fuzz_fail("md: attribute '%.*s' in the HTML", (int)(p - n > 20 ? 20 : p - n), n);
			if (p >= end || *p != '=' || p + 1 >= end || p[1] != '"')
				fuzz_fail("md: attribute '%.*s' without a quoted value", (int)(p - n), n);
			v = p + 2;
			p = memchr(v, '"', (size_t)(end - v));
			if (!p)
				fuzz_fail("md: unterminated attribute value");
			if (!strncasecmp(n, "href", 4) && !href_ok(v, p, with_keep))
				fuzz_fail("md: link to '%.*s' kept", (int)(p - v > 100 ? 100 : p - v), v);
			if (!value_ok(n, v, p))
				fuzz_fail("md: %.*s=\"%.*s\" in the HTML", (int)(v - 2 - n), n,
					  (int)(p - v > 40 ? 40 : p - v), v);
			p++;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct md_opts o = { 2, keep, sizeof(keep) / sizeof(keep[0]) };
	struct buf out = BUF_INIT;

	fuzz_begin();
	if (markdown_to_html_opts((const char *)data, size, &o, &out) == 0)
		check(&out, 1);
	buf_reset(&out);
	if (markdown_to_html((const char *)data, size, &out) == 0)
		check(&out, 0);
	fuzz_end();
	buf_release(&out);
	return 0;
}
