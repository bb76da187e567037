/*
 * markdown.c - see markdown.h.  The notes are parsed into cmark-gfm's tree
 * with GitHub's extensions (tables, strikethrough, autolinks, task lists),
 * the tree is adjusted (links, images, heading levels), then rendered with
 * cmark-gfm's own HTML renderer in safe mode.  cmark's buffer is freed
 * here.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include "base/utf8.h"
#include "render/markdown.h"
#include "base/util.h"

/*
 * Without CMARK_OPT_UNSAFE raw HTML is omitted and dangerous URLs blanked.
 * "tagfilter" is not attached: it only rewrites raw HTML, which safe mode
 * never writes.  Table alignment stays an align attribute (no
 * TABLE_PREFER_STYLE_ATTRIBUTES): the pages allow no inline style.
 */
#define MD_OPTIONS (CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_SMART)

static const char *const md_extensions[] = {
	"table", "strikethrough", "autolink", "tasklist",
};

static pthread_once_t md_once = PTHREAD_ONCE_INIT;
/* cmark-gfm's inline parser keeps one global table of special characters
 * that every parse with extensions rewrites (helgrind: a data race under
 * -j), so parses take turns; notes are small. */
static pthread_mutex_t md_parse_lock = PTHREAD_MUTEX_INITIALIZER;

/* cmark-gfm's registration sets a plain static flag: once, for -j. */
static void
md_register(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

void
markdown_init(void)
{
	pthread_once(&md_once, md_register);
}

static int
lower_prefix(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != *prefix)
			return 0;
	}
	return 1;
}

/* "scheme:" at the start of u (RFC 3986: ALPHA *( ALPHA / DIGIT / + - . )). */
static int
has_scheme(const char *u)
{
	const char *p = u;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	for (p++; *p; p++) {
		if (*p == ':')
			return 1;
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.'))
			return 0;
	}
	return 0;
}

static int
is_web(const char *u)
{
	return lower_prefix(u, "http://") || lower_prefix(u, "https://");
}

/* Link targets that may stay in a page of the site. */
static int
link_allowed(const char *u, const struct md_opts *o)
{
	size_t i, n;

	while (*u == ' ' || *u == '\t')
		u++;
	if (!*u)
		return 0;	/* cmark blanks dangerous URLs */
	if (*u == '#')
		return 1;
	if (u[0] == '/' && u[1] == '/')
		return 0;	/* network-path reference: scheme of the page */
	if (has_scheme(u))
		return is_web(u) || lower_prefix(u, "mailto:");
	n = strcspn(u, "?#");
	for (i = 0; i < o->nkeep; i++)
		if (strlen(o->keep[i]) == n && !strncmp(o->keep[i], u, n))
			return 1;
	return 0;
}

/* Replace node by its children (in place), then free it. */
static void
unwrap(cmark_node *node)
{
	cmark_node *ch;

	while ((ch = cmark_node_first_child(node)))
		cmark_node_insert_before(node, ch);
	cmark_node_free(node);
}

/* An image as a link to the picture (absolute http(s) URL) or, failing
 * that, as its alt text: nothing in a page may load from outside. */
static void
image_to_link(cmark_node *img)
{
	const char *url = cmark_node_get_url(img);
	cmark_node *ch, *link, *up;

	for (up = cmark_node_parent(img); up; up = cmark_node_parent(up))
		if (cmark_node_get_type(up) == CMARK_NODE_LINK)
			break;	/* no link inside a link: keep the alt text */
	if (up || !url || !is_web(url)) {
		unwrap(img);
		return;
	}
	link = cmark_node_new(CMARK_NODE_LINK);
	cmark_node_set_url(link, url);
	cmark_node_set_title(link, cmark_node_get_title(img));
	while ((ch = cmark_node_first_child(img)))
		cmark_node_append_child(link, ch);
	if (!cmark_node_first_child(link)) {
		cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);

		cmark_node_set_literal(t, "image");
		cmark_node_append_child(link, t);
	}
	cmark_node_insert_before(img, link);
	cmark_node_free(img);
}

int
markdown_to_html_opts(const char *md, size_t len, const struct md_opts *o,
		      struct buf *out)
{
	cmark_node *doc, *node, **todo = NULL;
	cmark_parser *parser;
	cmark_iter *it;
	cmark_event_type ev;
	size_t ntodo = 0, atodo = 0, i;
	char *html;

	pthread_once(&md_once, md_register);
	parser = cmark_parser_new(MD_OPTIONS);
	if (!parser)
		return error("cannot parse the notes (Markdown)");
	for (i = 0; i < sizeof(md_extensions) / sizeof(md_extensions[0]); i++) {
		cmark_syntax_extension *ext = cmark_find_syntax_extension(md_extensions[i]);

		if (!ext || !cmark_parser_attach_syntax_extension(parser, ext)) {
			cmark_parser_free(parser);
			return error("cannot load the Markdown extension '%s'", md_extensions[i]);
		}
	}
	pthread_mutex_lock(&md_parse_lock);
	cmark_parser_feed(parser, md, len);
	doc = cmark_parser_finish(parser);
	pthread_mutex_unlock(&md_parse_lock);
	if (!doc) {
		cmark_parser_free(parser);
		return error("cannot parse the notes (Markdown)");
	}
	/* Collect first: changing the tree while iterating it is not allowed. */
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node_type t;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		node = cmark_iter_get_node(it);
		t = cmark_node_get_type(node);
		if (t == CMARK_NODE_HEADING && o->heading_shift) {
			int lv = cmark_node_get_heading_level(node) + o->heading_shift;

			cmark_node_set_heading_level(node, lv > 6 ? 6 : lv < 1 ? 1 : lv);
		} else if (t == CMARK_NODE_IMAGE ||
			   (t == CMARK_NODE_LINK &&
			    !link_allowed(cmark_node_get_url(node) ? cmark_node_get_url(node) : "", o))) {
			ALLOC_GROW(todo, ntodo + 1, atodo);
			todo[ntodo++] = node;
		}
	}
	cmark_iter_free(it);
	/* Innermost last in document order; handle from the end so a node is
	 * never freed before the nodes nested inside it were handled. */
	for (i = ntodo; i-- > 0;) {
		if (cmark_node_get_type(todo[i]) == CMARK_NODE_IMAGE)
			image_to_link(todo[i]);
		else
			unwrap(todo[i]);
	}
	free(todo);
	html = cmark_render_html(doc, MD_OPTIONS, cmark_parser_get_syntax_extensions(parser));
	cmark_node_free(doc);
	cmark_parser_free(parser);
	if (!html)
		return error("cannot render the notes (Markdown)");
	/* without the characters html.h never writes either (cmark passes
	 * them through from the notes): controls other than TAB, LF and CR,
	 * and bidirectional ones as "[U+202E]", in text and attribute values
	 * alike (both take that text as it is) */
	utf8_clean(out, html, strlen(html));
	free(html);
	return 0;
}

int
markdown_to_html(const char *md, size_t len, struct buf *out)
{
	struct md_opts o = { 2, NULL, 0 };

	return markdown_to_html_opts(md, len, &o, out);
}
