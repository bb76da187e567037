/*
 * markdown.h - the author's notes (GitHub-flavoured Markdown: tables,
 * strikethrough, autolinks, task lists) to an HTML fragment, through
 * libcmark-gfm in its safe mode: raw HTML is omitted ("<!-- raw HTML
 * omitted -->") and javascript:, vbscript:, file: and non-image data: URLs
 * are blanked by cmark itself; autolinks pass the same link filter.  The fragment is trusted markup afterwards (it
 * goes into pages through tmpl_raw()), so this module also enforces what a
 * page of an offline, self-contained site may hold:
 *
 *   - images are never loaded: an image becomes a link to its URL when
 *     that URL is absolute http(s), else its alt text;
 *   - links with a scheme stay only for http:, https: and mailto:;
 *     in-page links ("#...") stay; a relative link stays only when it
 *     names one of the files listed in `keep` (files erg writes beside
 *     the page), else the link is unwrapped to its text, because the
 *     archive's other files are not part of the site;
 *   - headings move down by `heading_shift` levels (capped at h6) so the
 *     notes fit under the page's own headings.
 */
#ifndef ERG_MARKDOWN_H
#define ERG_MARKDOWN_H

#include <stddef.h>

#include "base/buf.h"

struct md_opts {
	int heading_shift;		/* 0: keep the author's levels */
	const char *const *keep;	/* relative link targets that exist */
	size_t nkeep;
};

/* Render md[0..len) with the default options (headings shifted by 2, no
 * relative links kept) and append the HTML to out.  0, or -1 after a
 * diagnostic (cmark failed to allocate or render). */
/* Register cmark-gfm's extensions.  Done once by the first render too,
 * but the registry is a global list the library itself does not guard:
 * a threaded program calls this before its first thread (helgrind saw the
 * registration race a reader under -j). */
void markdown_init(void);
int markdown_to_html(const char *md, size_t len, struct buf *out);
int markdown_to_html_opts(const char *md, size_t len, const struct md_opts *o,
			  struct buf *out);

#endif
