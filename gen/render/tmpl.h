/*
 * tmpl.h - erg's tiny template language: the HTML of every page lives in
 * templates/NAME.html, the data in a jansson json_t built by page code.
 *
 * A template is parsed once into an op tree and rendered many times.  The
 * template text is trusted; the data is not, and is escaped by default:
 * the parser follows the HTML of the template (a small model of the HTML
 * tokenizer) and picks the escaper for each {{name}} from where it stands.
 *
 * Syntax (whitespace inside the braces is allowed: {{ name }})
 *   {{name}} {{a.b.c}}  a value; lookup is the current {{#each}} item
 *                       first, then enclosing items outward, then the root
 *                       (mustache rules); a.b.c looks a up that way and b.c
 *                       inside it; an all-digit part indexes an array.
 *                       Name parts are [A-Za-z0-9_-]+.
 *   {{.}}               the current item (the root outside any #each)
 *   {{@index}} {{@number}}  0- and 1-based position in the innermost #each
 *   {{@open}}           a literal "{{"
 *   {{{name}}}          raw markup: the value must come from tmpl_raw()
 *                       (a plain string is a render error); allowed in
 *                       text context only, and trusted to leave the HTML
 *                       context as it found it (balanced, ending in text)
 *   {{#each list}}...{{else}}...{{/each}}   else: when empty, null or absent
 *   {{#if x}}...{{else}}...{{/if}}          {{#unless x}}...{{/unless}}
 *   {{>name}}           the partial name.html from the template's
 *                       directory, parsed in the HTML context where it is
 *                       included; a partial that includes itself is an error
 *   {{! comment }}      ignored ("{{" and "}}" cannot appear inside)
 * A line holding only a block, else, close, comment or partial tag (and
 * spaces or tabs) disappears from the output with its newline.
 *
 * Values: strings are escaped for their context; integers print as
 * integers; reals as the shortest decimal that reads back the same, with
 * '.' whatever the locale; true/false print "true"/"false"; null prints
 * nothing; arrays, objects and raw fragments in a {{name}} slot are
 * errors.  Truthy (#if, #unless): true, a non-zero number, a non-empty
 * string, array or object, a raw fragment with non-empty markup.
 *
 * Escaping chosen at parse time by context:
 *   text, <title>, <textarea>         html_text
 *   quoted attribute value            html_attr
 *   quoted URL attribute value (href, src, action, formaction, xlink:href,
 *   poster, cite, ..., or a name ending in url, uri, href or src):
 *       the whole value (after optional spaces)   html_url  (scheme check)
 *       after literal text holding '/', '?', '#' or ':' (scheme fixed by
 *       the template, and not javascript:, vbscript:, livescript:, data:)
 *                                                 html_url_part
 * Parse errors ("variable 'x' not allowed ..."): <script>, <style> and
 * other raw-text elements, HTML comments, CDATA, tag and attribute names,
 * unquoted attribute values, on* event handlers, style, srcdoc, srcset,
 * attributes of SVG animation elements, resource URLs that load active
 * content (<script src>, <iframe src>, <link href>, <base href>, ...),
 * a URL value whose scheme would depend on data (after literal text with
 * no '/', '?', '#' or ':', after another variable, after a '&'), a URL
 * value after a literal javascript:, vbscript:, livescript: or data:.
 * The model does not follow the tree builder, so literal text must read
 * the same whichever way a browser takes it: inside <title>, <textarea>,
 * <script>, <style>, <noscript>, ... (markup inside <svg>, text
 * elsewhere) a '<' may only start the closing tag ("a < b" is fine,
 * "a<b" is not), and a CDATA section may hold no '>' before "]]>".
 * Block tags may not split a tag or attribute name, and every branch of
 * a block (and each pass of a loop) must end in the HTML context where
 * the block started.
 *
 * Diagnostics: "erg: templates/x.html:LINE:COL: error: ...", columns
 * 1-based in characters, at the "{{" of the offending tag.  Parsing stops
 * at the first error.
 */
#ifndef ERG_TMPL_H
#define ERG_TMPL_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

struct tmpl;

/*
 * Load dir/name (".html" is appended when name lacks it) and its partials
 * from dir.  Returns NULL after diagnostics.
 */
struct tmpl *tmpl_load(const char *dir, const char *name);

/*
 * Parse text[0..len) (may hold any bytes; a NUL is an error).  name is the
 * path used in diagnostics.  Partials come from partial_dir; when it is
 * NULL a {{>partial}} tag is an error (fuzzing, tests).  NULL after
 * diagnostics.
 */
struct tmpl *tmpl_parse_string(const char *name, const char *text, size_t len,
			       const char *partial_dir);

/*
 * Append the rendering of t with data (borrowed, any JSON value) to out.
 * A name that is not found renders as empty / falsy, unless strict, where
 * it is an error (null counts as found).  Returns 0, or -1 after a
 * located diagnostic; out then holds a partial rendering to discard.
 */
int tmpl_render(const struct tmpl *t, const json_t *data, struct buf *out,
		int strict);

void tmpl_free(struct tmpl *t);	/* NULL is fine */

/*
 * A raw fragment for {{{name}}}: markup erg itself produced (cmark output,
 * SVG from html.h).  Returns a new reference, shaped {"$raw": html} plus a
 * hidden marker key holding a NUL byte, which jansson's parser refuses to
 * create: archive JSON passed through to a template cannot forge it.
 */
json_t *tmpl_raw(const char *html);
json_t *tmpl_rawn(const char *html, size_t len);

#endif
