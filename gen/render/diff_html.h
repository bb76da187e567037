/*
 * diff_html.h - a comparison document (analyze/compare.h) as an HTML
 * page, through templates/diff.html: the page of `erg diff --format html`
 * (self-contained: the stylesheets templates/erg.css and diff.css inlined)
 * and the site's diffs/<A>_vs_<B>/index.html (erg.css linked, diff.css
 * inlined, the site's navigation on top).  The figures are diff_cells.c's,
 * as in the text outputs; the template escapes every name.
 */
#ifndef ERG_DIFF_HTML_H
#define ERG_DIFF_HTML_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

struct diff_html;

/*
 * Load dir/diff.html and the stylesheets: dir/diff.css, and dir/erg.css
 * too when standalone.  A sheet that could not stay inside <style> ("</"),
 * a NUL, or one that would load something (@import, a url() other than
 * data: or #fragment) is refused.  NULL after diagnostics.
 */
struct diff_html *diff_html_load(const char *dir, int standalone);
void diff_html_free(struct diff_html *h);	/* NULL is fine */

/* The site's navigation of a diff page (diffs/<slug>/index.html). */
struct diff_site {
	size_t nmachines;		/* 1, or 2 when A and B differ */
	const char *machine_slug[2];	/* machines/<slug>/index.html */
	const char *machine_label[2];
	const char *href[2];		/* A's and B's run pages, from the root */
	const char *when[2];		/* their dates as the site shows them */
	const char *why;		/* how the pair was chosen */
};

/* Append the page of d to out; site NULL for a page of its own.  0, or
 * -1 after a diagnostic (out then holds a part to discard). */
int diff_render_html(const struct diff_html *h, json_t *d, const struct diff_site *site,
		     struct buf *out);

/* Does head[0..n) (a file's first KiB) start a page diff.html made? */
int diff_html_is_ours(const char *head, size_t n);

#endif
