/*
 * diff_text.h - a comparison document (analyze/compare.h) as text for a
 * terminal, as Markdown, or as JSON: the outputs of `erg diff` other than
 * the HTML page (diff_html.h).  Text and Markdown are one walk over the
 * document with a table of what each format writes around the parts, so
 * they show the same things in the same order.  Untrusted names: controls
 * and invalid UTF-8 as '?', and in Markdown its inline syntax escaped.
 */
#ifndef ERG_DIFF_TEXT_H
#define ERG_DIFF_TEXT_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

/* Each appends the whole output to out. */
void diff_render_text(json_t *d, struct buf *out);
void diff_render_markdown(json_t *d, struct buf *out);
/* JSON, indented, full precision, ending in a newline. */
void diff_render_json(json_t *d, struct buf *out);

/*
 * Does head[0..n) (the start of a file, up to its first KiB) begin as
 * one of the outputs above does?  How `erg diff --out` knows a file it
 * may replace.
 */
int diff_text_is_ours(const char *head, size_t n);

#endif
