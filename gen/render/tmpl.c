/*
 * tmpl.c - template parser (text -> op tree, with the HTML context of
 * every variable decided here) and executor (op tree + JSON -> markup).
 * The language and the escaping rules are described in tmpl.h.
 *
 * The HTML model is a cut-down HTML tokenizer: data, RCDATA (<title>,
 * <textarea>), raw text (<script>, <style>, ...), tags and attributes with
 * their quoting, comments, declarations and CDATA.  It only has to be
 * exact in one direction: wherever it allows a variable, the browser must
 * be in that context too.  Where the two could disagree it refuses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/input.h"
#include "render/html.h"
#include "render/numfmt.h"
#include "render/tmpl.h"
#include "base/util.h"

#define MAX_FILE_BYTES (1u << 20)	/* one template file */
#define MAX_TOTAL_BYTES (16u << 20)	/* a template with all its partials */
#define MAX_DEPTH 100			/* nested blocks and partials */

/* The hidden key marking a tmpl_raw() object; the NUL makes it one that
 * jansson's parser never produces. */
static const char raw_mark[] = "\0erg-raw";
#define RAW_MARK_LEN (sizeof(raw_mark) - 1)

/* ---- op tree ---------------------------------------------------------- */

enum op_kind { OP_TEXT, OP_VAR, OP_RAW, OP_EACH, OP_IF, OP_UNLESS };
enum esc { ESC_TEXT, ESC_ATTR, ESC_URL, ESC_URL_PART };
enum name_kind { NAME_PATH, NAME_DOT, NAME_INDEX, NAME_NUMBER, NAME_OPEN };

struct name {
	enum name_kind kind;
	char *text;		/* as written, for messages */
	char **seg;		/* NAME_PATH: the dot-separated parts */
	size_t nseg;
};

struct oplist {
	struct op *v;
	size_t n, alloc;
};

struct op {
	enum op_kind kind;
	enum esc esc;		/* OP_VAR */
	char *text;		/* OP_TEXT */
	size_t len;
	struct name name;	/* all but OP_TEXT */
	struct oplist body;	/* blocks */
	struct oplist alt;	/* blocks: the {{else}} part */
	const char *file;	/* owned by struct tmpl */
	int line, col;		/* of the "{{" */
};

struct tmpl {
	struct oplist ops;
	char **files;		/* paths of the template and its partials */
	size_t nfiles, afiles;
};

static void oplist_free(struct oplist *l);

static void
name_free(struct name *n)
{
	size_t i;

	for (i = 0; i < n->nseg; i++)
		free(n->seg[i]);
	free(n->seg);
	free(n->text);
}

static void
oplist_free(struct oplist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].text);
		name_free(&l->v[i].name);
		oplist_free(&l->v[i].body);
		oplist_free(&l->v[i].alt);
	}
	free(l->v);
}

void
tmpl_free(struct tmpl *t)
{
	size_t i;

	if (!t)
		return;
	oplist_free(&t->ops);
	for (i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	free(t->files);
	free(t);
}

static const char *
tmpl_add_file(struct tmpl *t, const char *path)
{
	ALLOC_GROW(t->files, t->nfiles + 1, t->afiles);
	t->files[t->nfiles] = xstrdup(path);
	return t->files[t->nfiles++];
}

static struct op *
oplist_push(struct oplist *l)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	memset(&l->v[l->n], 0, sizeof(l->v[l->n]));
	return &l->v[l->n++];
}

static void
oplist_text(struct oplist *l, const char *s, size_t n)
{
	struct op *op;

	if (!n)
		return;
	if (l->n && l->v[l->n - 1].kind == OP_TEXT) {
		op = &l->v[l->n - 1];
		op->text = xrealloc(op->text, op->len + n + 1);
	} else {
		op = oplist_push(l);
		op->kind = OP_TEXT;
		op->text = xmalloc(n + 1);
	}
	memcpy(op->text + op->len, s, n);
	op->len += n;
	op->text[op->len] = '\0';
}

/* "path:line:col" diagnostics (util.h has path:line only). */
static int PRINTF(4, 5)
error_lc(const char *path, int line, int col, const char *fmt, ...)
{
	struct buf where = BUF_INIT, msg = BUF_INIT;
	va_list ap;

	buf_addf(&where, "%s:%d:%d", path, line, col);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_at(where.ptr, 0, "%s", msg.ptr);
	buf_release(&where);
	buf_release(&msg);
	return -1;
}

/* ---- HTML context ------------------------------------------------------ */

enum hs {
	HS_DATA,
	HS_RCDATA,		/* <title>, <textarea>: text, entities decoded */
	HS_RAWTEXT,		/* <script>, <style>, ...: nothing decoded */
	HS_TAG_OPEN,		/* after '<' */
	HS_END_TAG_OPEN,	/* after "</" */
	HS_TAG_NAME,
	HS_BEFORE_ATTR_NAME,
	HS_ATTR_NAME,
	HS_AFTER_ATTR_NAME,
	HS_BEFORE_ATTR_VALUE,
	HS_ATTR_VALUE_DQ,
	HS_ATTR_VALUE_SQ,
	HS_ATTR_VALUE_UNQ,
	HS_AFTER_ATTR_VALUE_Q,
	HS_SELF_CLOSING,
	HS_MARKUP_DECL,		/* after "<!" */
	HS_COMMENT_START,
	HS_COMMENT_START_DASH,
	HS_COMMENT,
	HS_COMMENT_END_DASH,
	HS_COMMENT_END,
	HS_COMMENT_END_BANG,
	HS_BOGUS_COMMENT,	/* <!DOCTYPE ...>, <?...>, </3...> */
	HS_CDATA,
};

/* What a variable in an attribute value would be. */
enum attr_kind {
	AK_TEXT,
	AK_URL,
	AK_JS,			/* on* event handlers */
	AK_CSS,			/* style */
	AK_HTML,		/* srcdoc */
	AK_URL_LIST,		/* srcset */
	AK_ANIM,		/* SVG animation elements can retarget href */
	AK_RESOURCE,		/* URLs that load active content */
	AK_LONG,		/* a name too long to classify */
};

/*
 * URL attribute value: what the text so far fixes (bits).  A variable is
 * allowed when the value is still empty (html_url, scheme checked) or
 * settled without danger (html_url_part).
 */
#define U_SETTLED 1	/* the scheme is fixed by literal text */
#define U_VAR 2		/* a variable appeared, not settled yet */
#define U_LIT 4		/* literal text appeared, not settled yet */
#define U_NOSETTLE 8	/* nothing settles any more: a '&' appeared (a
			 * character reference could hide ':' or '/'), or
			 * two paths joined with different scheme text */
#define U_DANGER 16	/* the literal scheme is javascript: or the like */

#define HNAME 64

struct hctx {
	enum hs s;
	int end_tag;		/* the tag being read is an end tag */
	int tag_long;		/* the tag name did not fit */
	int attr_long;
	int sub;		/* progress inside RCDATA/RAWTEXT/CDATA/<! */
	enum attr_kind ak;	/* set when an attribute value starts */
	unsigned url;		/* U_* for AK_URL values */
	char tag[HNAME + 1];
	char attr[HNAME + 1];
	char raw[HNAME + 1];	/* end tag closing RCDATA/RAWTEXT; "" never */
	char scheme[16];	/* URL value: literal text before any ':' */
	char decl[8];		/* what followed "<!" so far */
};

static int
h_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int
h_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char
h_lower(int c)
{
	return (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

static void
name_addch(char *name, int *islong, int c)
{
	size_t n = strlen(name);

	if (n >= HNAME) {
		*islong = 1;
		return;
	}
	name[n] = h_lower(c);
	name[n + 1] = '\0';
}

static int
in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static enum attr_kind
attr_classify(const struct hctx *h)
{
	static const char *const url_attrs[] = {
		"href", "src", "action", "formaction", "xlink:href", "poster",
		"cite", "background", "data", "codebase", "longdesc", "usemap",
		"manifest", "icon", "ping", "classid", "lowsrc", "dynsrc",
		"xml:base", NULL,
	};
	static const char *const anim[] = {
		"animate", "animatemotion", "animatetransform", "set", NULL,
	};
	static const char *const active[] = {
		"script", "iframe", "frame", "embed", "object", "applet",
		"link", "base", NULL,
	};
	const char *a = h->attr;

	if (h->attr_long || h->tag_long)
		return AK_LONG;
	if (in_list(h->tag, anim))
		return AK_ANIM;
	if (!strncmp(a, "on", 2) && strcmp(a, "open"))
		return AK_JS;
	if (!strcmp(a, "style"))
		return AK_CSS;
	if (!strcmp(a, "srcdoc"))
		return AK_HTML;
	if (!strcmp(a, "srcset") || !strcmp(a, "imagesrcset"))
		return AK_URL_LIST;
	if (in_list(a, url_attrs) || ends_with(a, "url") || ends_with(a, "uri") ||
	    ends_with(a, "href") || ends_with(a, "src"))
		return in_list(h->tag, active) ? AK_RESOURCE : AK_URL;
	/* NEEDSWORK: <meta http-equiv="refresh" content="0;url=..."> takes a
	 * URL in "content"; browsers refuse javascript: there, so it is
	 * left as text. */
	return AK_TEXT;
}

/* A '>' ended a tag: pick the content model that follows. */
static void
h_tag_done(struct hctx *h)
{
	static const char *const rawtext[] = {
		"script", "style", "xmp", "iframe", "noembed", "noframes",
		"noscript", NULL,
	};
	static const char *const rcdata[] = { "title", "textarea", NULL };
	int start = !h->end_tag && !h->tag_long;
	char tag[HNAME + 1];

	memcpy(tag, h->tag, sizeof(tag));
	memset(h, 0, sizeof(*h));
	h->s = HS_DATA;
	if (!start)
		return;
	if (in_list(tag, rawtext) || !strcmp(tag, "plaintext")) {
		h->s = HS_RAWTEXT;
		/* <plaintext> never ends: raw stays "" */
		if (strcmp(tag, "plaintext"))
			memcpy(h->raw, tag, sizeof(h->raw));
	} else if (in_list(tag, rcdata)) {
		h->s = HS_RCDATA;
		memcpy(h->raw, tag, sizeof(h->raw));
	}
}

static void
h_start_tag(struct hctx *h, int end_tag, int c)
{
	h->s = HS_TAG_NAME;
	h->end_tag = end_tag;
	h->tag_long = 0;
	h->tag[0] = '\0';
	name_addch(h->tag, &h->tag_long, c);
}

static void
h_start_attr(struct hctx *h, int c)
{
	h->s = HS_ATTR_NAME;
	h->attr_long = 0;
	h->attr[0] = '\0';
	name_addch(h->attr, &h->attr_long, c);
}

static void
h_start_value(struct hctx *h, enum hs s)
{
	h->s = s;
	h->ak = attr_classify(h);
	h->url = 0;
	h->scheme[0] = '\0';
}

/* Schemes whose URLs run code or carry a document (see html_url). */
static int
scheme_dangerous(const char *s)
{
	static const char *const bad[] = {
		"javascript", "vbscript", "livescript", "data", NULL,
	};

	return in_list(s, bad);
}

/* A literal byte inside a URL attribute value. */
static int
h_url_char(struct hctx *h, int c)
{
	size_t n;

	if (h->url & U_SETTLED)
		return 0;
	if (h->url & U_NOSETTLE) {
		if (!h_ws(c))
			h->url |= U_LIT;
		return 0;
	}
	if (c == '&') {
		h->url |= U_NOSETTLE;
	} else if (c == '/' || c == '?' || c == '#') {
		h->url = U_SETTLED | (h->url & U_DANGER);
	} else if (c == ':') {
		if (h->url & U_VAR)
			return -1;	/* data would choose the scheme */
		h->url = U_SETTLED | (h->url & U_DANGER);
		if (scheme_dangerous(h->scheme))
			h->url |= U_DANGER;
	} else if (!h_ws(c) && c >= 0x20 && c != 0x7f) {
		/* browsers drop TAB/LF/CR inside a scheme: skip all blanks */
		h->url |= U_LIT;
		n = strlen(h->scheme);
		if (n + 1 < sizeof(h->scheme)) {
			h->scheme[n] = h_lower(c);
			h->scheme[n + 1] = '\0';
		} else {
			h->scheme[0] = '*';	/* too long for a bad one */
		}
	}
	return 0;
}

/*
 * Feed one literal byte of the template to the model.  Returns 0, or -1
 * for a construct the model refuses (*why says which).
 */
static int
h_feed(struct hctx *h, int c, const char **why)
{
	size_t n;

reconsume:
	switch (h->s) {
	case HS_DATA:
		if (c == '<')
			h->s = HS_TAG_OPEN;
		break;
	case HS_RCDATA:
	case HS_RAWTEXT:
		/*
		 * Whether the browser reads this content as text depends on
		 * its tree builder, which is not modelled: inside <svg> or
		 * <math> a <title>, <style> or <script> holds markup, inside
		 * <select> a <title> or <style> tag is ignored, <noscript>
		 * is text only with scripting on.  So only text that reads
		 * the same either way is accepted: no '<' that could start
		 * a tag, comment or declaration, except the end tag itself.
		 * (This also keeps "<!--" out of scripts, where it would
		 * enter the escaped states that "</script>" may not end.)
		 */
		n = strlen(h->raw);
		if (h->s == HS_RAWTEXT && !n)
			break;	/* <plaintext> */
		if (h->sub == 0) {
			if (c == '<')
				h->sub = 1;
		} else if (h->sub == 1) {
			if (c == '/') {
				h->sub = 2;
			} else if (h_alpha(c) || c == '!' || c == '?') {
				*why = "markup inside a text-only element";
				return -1;
			} else {
				h->sub = 0;
				goto reconsume;
			}
		} else if ((size_t)h->sub - 2 < n) {
			if (h_lower(c) != h->raw[h->sub - 2]) {
				*why = "markup inside a text-only element";
				return -1;
			}
			h->sub++;
		} else {
			/* "</name" matched: an end tag if a delimiter follows */
			if (!h_ws(c) && c != '/' && c != '>') {
				*why = "markup inside a text-only element";
				return -1;
			}
			{
				char tag[HNAME + 1];

				memcpy(tag, h->raw, sizeof(tag));
				memset(h, 0, sizeof(*h));
				memcpy(h->tag, tag, sizeof(tag));
				h->end_tag = 1;
				h->s = HS_TAG_NAME;
				goto reconsume;
			}
		}
		break;
	case HS_TAG_OPEN:
		if (c == '!') {
			h->s = HS_MARKUP_DECL;
			h->decl[0] = '\0';
		} else if (c == '/') {
			h->s = HS_END_TAG_OPEN;
		} else if (h_alpha(c)) {
			h_start_tag(h, 0, c);
		} else if (c == '?') {
			h->s = HS_BOGUS_COMMENT;
		} else {
			h->s = HS_DATA;
			goto reconsume;
		}
		break;
	case HS_END_TAG_OPEN:
		if (h_alpha(c))
			h_start_tag(h, 1, c);
		else if (c == '>')
			h->s = HS_DATA;
		else {
			h->s = HS_BOGUS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_TAG_NAME:
		if (h_ws(c))
			h->s = HS_BEFORE_ATTR_NAME;
		else if (c == '/')
			h->s = HS_SELF_CLOSING;
		else if (c == '>')
			h_tag_done(h);
		else
			name_addch(h->tag, &h->tag_long, c);
		break;
	case HS_BEFORE_ATTR_NAME:
		if (h_ws(c))
			break;
		if (c == '/' || c == '>') {
			h->s = HS_AFTER_ATTR_NAME;
			goto reconsume;
		}
		h_start_attr(h, c);	/* '=' included: it starts the name */
		break;
	case HS_ATTR_NAME:
		if (h_ws(c) || c == '/' || c == '>') {
			h->s = HS_AFTER_ATTR_NAME;
			goto reconsume;
		}
		if (c == '=')
			h->s = HS_BEFORE_ATTR_VALUE;
		else
			name_addch(h->attr, &h->attr_long, c);
		break;
	case HS_AFTER_ATTR_NAME:
		if (h_ws(c))
			break;
		if (c == '/')
			h->s = HS_SELF_CLOSING;
		else if (c == '=')
			h->s = HS_BEFORE_ATTR_VALUE;
		else if (c == '>')
			h_tag_done(h);
		else
			h_start_attr(h, c);
		break;
	case HS_BEFORE_ATTR_VALUE:
		if (h_ws(c))
			break;
		if (c == '"') {
			h_start_value(h, HS_ATTR_VALUE_DQ);
		} else if (c == '\'') {
			h_start_value(h, HS_ATTR_VALUE_SQ);
		} else if (c == '>') {
			h_tag_done(h);
		} else {
			h_start_value(h, HS_ATTR_VALUE_UNQ);
			goto reconsume;
		}
		break;
	case HS_ATTR_VALUE_DQ:
	case HS_ATTR_VALUE_SQ:
		if (c == (h->s == HS_ATTR_VALUE_DQ ? '"' : '\'')) {
			h->s = HS_AFTER_ATTR_VALUE_Q;
			break;
		}
		if (h->ak == AK_URL && h_url_char(h, c) < 0) {
			*why = "':' after a variable in a URL attribute would "
			       "let data choose the scheme";
			return -1;
		}
		break;
	case HS_ATTR_VALUE_UNQ:
		if (h_ws(c))
			h->s = HS_BEFORE_ATTR_NAME;
		else if (c == '>')
			h_tag_done(h);
		break;
	case HS_AFTER_ATTR_VALUE_Q:
		if (h_ws(c))
			h->s = HS_BEFORE_ATTR_NAME;
		else if (c == '/')
			h->s = HS_SELF_CLOSING;
		else if (c == '>')
			h_tag_done(h);
		else {
			h->s = HS_BEFORE_ATTR_NAME;
			goto reconsume;
		}
		break;
	case HS_SELF_CLOSING:
		/* <script/> still starts script data in HTML (it ends the
		 * element only in SVG): treating it as open is the safe side. */
		if (c == '>')
			h_tag_done(h);
		else {
			h->s = HS_BEFORE_ATTR_NAME;
			goto reconsume;
		}
		break;
	case HS_MARKUP_DECL:
		n = strlen(h->decl);
		h->decl[n] = (char)c;
		h->decl[n + 1] = '\0';
		if (!strcmp(h->decl, "--")) {
			h->s = HS_COMMENT_START;
		} else if (!strcmp(h->decl, "[CDATA[")) {
			/* CDATA only in SVG/MathML; in HTML a bogus comment
			 * that ends at the first '>'.  HS_CDATA refuses a '>'
			 * before "]]>", so both readings end together. */
			h->s = HS_CDATA;
			h->sub = 0;
		} else if (strncmp(h->decl, "--", n + 1) &&
			   strncmp(h->decl, "[CDATA[", n + 1)) {
			h->s = HS_BOGUS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_COMMENT_START:
		if (c == '-')
			h->s = HS_COMMENT_START_DASH;
		else if (c == '>')
			h->s = HS_DATA;
		else {
			h->s = HS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_COMMENT_START_DASH:
		if (c == '-')
			h->s = HS_COMMENT_END;
		else if (c == '>')
			h->s = HS_DATA;
		else {
			h->s = HS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_COMMENT:
		if (c == '-')
			h->s = HS_COMMENT_END_DASH;
		break;
	case HS_COMMENT_END_DASH:
		if (c == '-')
			h->s = HS_COMMENT_END;
		else {
			h->s = HS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_COMMENT_END:
		if (c == '>')
			h->s = HS_DATA;
		else if (c == '!')
			h->s = HS_COMMENT_END_BANG;
		else if (c != '-') {
			h->s = HS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_COMMENT_END_BANG:
		if (c == '-')
			h->s = HS_COMMENT_END_DASH;
		else if (c == '>')
			h->s = HS_DATA;
		else {
			h->s = HS_COMMENT;
			goto reconsume;
		}
		break;
	case HS_BOGUS_COMMENT:
		if (c == '>')
			h->s = HS_DATA;
		break;
	case HS_CDATA:
		if (c == ']') {
			h->sub = h->sub < 2 ? h->sub + 1 : 2;
		} else if (c == '>' && h->sub == 2) {
			h->s = HS_DATA;
		} else if (c == '>') {
			/* outside <svg>/<math> the "section" is a bogus
			 * comment that this '>' would end */
			*why = "'>' inside a CDATA section ends it outside <svg>";
			return -1;
		} else {
			h->sub = 0;
		}
		break;
	}
	return 0;
}

/* Describe where the model is, for messages: "in a tag name". */
static void
h_describe(const struct hctx *h, struct buf *b)
{
	switch (h->s) {
	case HS_DATA:
		buf_addstr(b, "in text");
		break;
	case HS_RCDATA:
	case HS_RAWTEXT:
		if (h->sub)
			buf_addstr(b, "in an end tag");
		else if (h->raw[0])
			buf_addf(b, "inside <%s>", h->raw);
		else
			buf_addstr(b, "inside <plaintext>");
		break;
	case HS_TAG_OPEN:
	case HS_END_TAG_OPEN:
	case HS_TAG_NAME:
		buf_addstr(b, "in a tag name");
		break;
	case HS_BEFORE_ATTR_NAME:
	case HS_AFTER_ATTR_VALUE_Q:
	case HS_SELF_CLOSING:
		buf_addf(b, "inside <%s> between attributes", h->tag);
		break;
	case HS_ATTR_NAME:
	case HS_AFTER_ATTR_NAME:
		buf_addf(b, "in attribute name '%s'", h->attr);
		break;
	case HS_BEFORE_ATTR_VALUE:
	case HS_ATTR_VALUE_UNQ:
		buf_addf(b, "in the unquoted value of attribute '%s'", h->attr);
		break;
	case HS_ATTR_VALUE_DQ:
	case HS_ATTR_VALUE_SQ:
		buf_addf(b, "in the value of attribute '%s'", h->attr);
		break;
	case HS_MARKUP_DECL:
	case HS_BOGUS_COMMENT:
		buf_addstr(b, "inside a <!...> or <?...> declaration");
		break;
	case HS_COMMENT_START:
	case HS_COMMENT_START_DASH:
	case HS_COMMENT:
	case HS_COMMENT_END_DASH:
	case HS_COMMENT_END:
	case HS_COMMENT_END_BANG:
		buf_addstr(b, "inside an HTML comment");
		break;
	case HS_CDATA:
		buf_addstr(b, "inside a CDATA section");
		break;
	}
}

/* Can a block tag ({{#..}}, {{else}}, {{/..}}) stand here?  Only where a
 * token boundary is certain: inside a name it could join two halves. */
static int
h_block_ok(const struct hctx *h)
{
	switch (h->s) {
	case HS_DATA:
	case HS_BEFORE_ATTR_NAME:
	case HS_AFTER_ATTR_VALUE_Q:
	case HS_ATTR_VALUE_DQ:
	case HS_ATTR_VALUE_SQ:
		return 1;
	case HS_RCDATA:
	case HS_RAWTEXT:
		return h->sub == 0;
	default:
		return 0;
	}
}

/* Drop what does not matter at a block boundary, so that equal contexts
 * compare equal (only called where h_block_ok). */
static void
h_canon(struct hctx *h)
{
	struct hctx c;

	memset(&c, 0, sizeof(c));
	c.s = h->s;
	switch (h->s) {
	case HS_RCDATA:
	case HS_RAWTEXT:
		memcpy(c.raw, h->raw, sizeof(c.raw));
		break;
	case HS_AFTER_ATTR_VALUE_Q:
		/* differs from before-attribute-name only in what a missing
		 * space means: the same for anything a variable can do */
		c.s = HS_BEFORE_ATTR_NAME;
		/* fall through */
	case HS_BEFORE_ATTR_NAME:
		c.end_tag = h->end_tag;
		c.tag_long = h->tag_long;
		memcpy(c.tag, h->tag, sizeof(c.tag));
		break;
	case HS_ATTR_VALUE_DQ:
	case HS_ATTR_VALUE_SQ:
		c.end_tag = h->end_tag;
		c.tag_long = h->tag_long;
		c.attr_long = h->attr_long;
		c.ak = h->ak;
		c.url = h->url;
		memcpy(c.tag, h->tag, sizeof(c.tag));
		memcpy(c.attr, h->attr, sizeof(c.attr));
		memcpy(c.scheme, h->scheme, sizeof(c.scheme));
		break;
	default:
		break;
	}
	*h = c;
}

/*
 * Join the context at the end of two control paths into *a.  -1 when
 * they differ in more than what a URL value has fixed so far.  For that,
 * the result must refuse a variable that either path would refuse, and
 * choose html_url where either path is still at the start:
 *   settled on both: settled (dangerous if either is);
 *   settled on one:  the other's state, plus the first one's danger;
 *   settled on none: the union of what has happened, and no settling
 *                    later if the scheme text so far differs.
 * (A settled state has no bits but U_SETTLED and U_DANGER.)
 */
static int
h_join(struct hctx *a, const struct hctx *b0)
{
	struct hctx b = *b0;
	unsigned ua, ub, nosettle = 0;

	h_canon(a);
	h_canon(&b);
	ua = a->url;
	ub = b.url;
	if (!(ua & U_SETTLED) && !(ub & U_SETTLED) && strcmp(a->scheme, b.scheme))
		nosettle = U_NOSETTLE;
	if (ua & U_SETTLED)
		memcpy(a->scheme, b.scheme, sizeof(a->scheme));
	a->url = b.url = 0;
	if (a->s != b.s || a->end_tag != b.end_tag || a->tag_long != b.tag_long ||
	    a->attr_long != b.attr_long || a->ak != b.ak ||
	    strcmp(a->tag, b.tag) || strcmp(a->attr, b.attr) || strcmp(a->raw, b.raw))
		return -1;
	a->url = (ua & ub & U_SETTLED) | ((ua | ub) & ~(unsigned)U_SETTLED) |
		 nosettle;
	return 0;
}

/* ---- parser ------------------------------------------------------------ */

struct incl {
	const char *name;	/* template name without ".html" */
	const struct incl *up;
};

struct parser {
	struct tmpl *t;
	const char *file;	/* diagnostics path, owned by t */
	const char *s;
	size_t n;
	size_t pos;		/* next unread byte */
	size_t lpos;		/* line/col cache: byte lpos is at line:col */
	int line, col;
	struct hctx h;
	const char *dir;	/* partials; NULL: none */
	const struct incl *inc;
	size_t lt;		/* offset of the last literal '<' */
	int depth;		/* blocks and partials open */
	int each_depth;
	size_t *total;		/* bytes parsed so far, partials included */
};

enum tok { TK_ERR = -1, TK_EOF, TK_ELSE, TK_CLOSE };

/* A block's end tag, reported back by parse_seq. */
struct endtag {
	char kw[8];		/* "each", "if", "unless"; "" for else */
	int line, col;
};

static void
loc(struct parser *p, size_t off, int *line, int *col)
{
	if (off < p->lpos) {
		p->lpos = 0;
		p->line = p->col = 1;
	}
	for (; p->lpos < off; p->lpos++) {
		unsigned char c = (unsigned char)p->s[p->lpos];

		if (c == '\n') {
			p->line++;
			p->col = 1;
		} else if ((c & 0xc0) != 0x80) {
			p->col++;
		}
	}
	*line = p->line;
	*col = p->col;
}

static int PRINTF(3, 4)
perr(struct parser *p, size_t off, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	int line, col;
	va_list ap;

	loc(p, off, &line, &col);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_lc(p->file, line, col, "%s", msg.ptr);
	buf_release(&msg);
	return -1;
}

/* Emit literal template text: output it and run it through the model. */
static int
emit_text(struct parser *p, struct oplist *out, size_t from, size_t to)
{
	const char *why = NULL;
	size_t i;

	for (i = from; i < to; i++) {
		char raw[HNAME + 1];

		if (p->s[i] == '<')
			p->lt = i;
		memcpy(raw, p->h.raw, sizeof(raw));
		if (h_feed(&p->h, (unsigned char)p->s[i], &why) >= 0)
			continue;
		if (!strcmp(why, "markup inside a text-only element"))
			return perr(p, p->lt, "markup inside <%s>: only text and "
				    "'</%s>' are allowed here (inside <svg> a '<' "
				    "could start a tag); write '&lt;', or '\\x3c' "
				    "in a script", raw, raw);
		return perr(p, i, "%s", why);
	}
	oplist_text(out, p->s + from, to - from);
	return 0;
}

/* Emit text that is not in the source (at off): {{@open}}. */
static int
emit_literal(struct parser *p, struct oplist *out, size_t off, const char *s)
{
	const char *why = NULL;
	size_t i;

	for (i = 0; s[i]; i++)
		if (h_feed(&p->h, (unsigned char)s[i], &why) < 0)
			return perr(p, off, "%s", why);
	oplist_text(out, s, i);
	return 0;
}

static int
is_name_char(int c)
{
	return h_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Parse a value name s[0..n) (already trimmed).  off locates messages. */
static int
parse_name(struct parser *p, size_t off, const char *s, size_t n,
	   struct name *out)
{
	size_t i, start, alloc = 0;

	memset(out, 0, sizeof(*out));
	out->text = xstrndup(s, n);
	if (n == 1 && s[0] == '.') {
		out->kind = NAME_DOT;
		return 0;
	}
	if (n && s[0] == '@') {
		if (!strcmp(out->text, "@index"))
			out->kind = NAME_INDEX;
		else if (!strcmp(out->text, "@number"))
			out->kind = NAME_NUMBER;
		else if (!strcmp(out->text, "@open"))
			out->kind = NAME_OPEN;
		else
			return perr(p, off, "unknown special name '%s'", out->text);
		if (out->kind != NAME_OPEN && !p->each_depth)
			return perr(p, off, "'%s' outside {{#each}}", out->text);
		return 0;
	}
	out->kind = NAME_PATH;
	for (start = i = 0; i <= n; i++) {
		if (i < n && is_name_char((unsigned char)s[i]))
			continue;
		if ((i < n && s[i] != '.') || i == start)
			return perr(p, off, "bad name '%s': parts are letters, "
				    "digits, '_' or '-', joined by '.'", out->text);
		ALLOC_GROW(out->seg, out->nseg + 1, alloc);
		out->seg[out->nseg++] = xstrndup(s + start, i - start);
		start = i + 1;
	}
	return 0;
}

static void
trim(const char **s, size_t *n)
{
	while (*n && h_ws((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && h_ws((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static int parse_seq(struct parser *p, struct oplist *out, struct endtag *end);
static int parse_file(struct parser *parent, struct oplist *out,
		      const char *path, const char *text, size_t len);

static int
do_partial(struct parser *p, struct oplist *out, size_t off, const char *s,
	   size_t n)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct incl me;
	const struct incl *i;
	char *name = xstrndup(s, n);
	int r = -1;
	size_t k;

	for (k = 0; k < n; k++)
		if (!is_name_char((unsigned char)s[k]))
			break;
	if (!n || k < n) {
		perr(p, off, "bad partial name '%s': use letters, digits, '_' "
		     "or '-'", name);
		goto out;
	}
	if (!p->dir) {
		perr(p, off, "partial '%s' without a template directory", name);
		goto out;
	}
	for (i = p->inc; i; i = i->up) {
		if (strcmp(i->name, name))
			continue;
		perr(p, off, "partial '%s' includes itself", name);
		goto out;
	}
	if (p->depth >= MAX_DEPTH) {
		perr(p, off, "blocks and partials nested too deeply");
		goto out;
	}
	buf_addf(&path, "%s/%s.html", p->dir, name);
	/* input.c never blocks on a FIFO and caps the size; it says why */
	if (input_read_all(path.ptr, MAX_FILE_BYTES, &text) < 0) {
		perr(p, off, "cannot read partial '%s'", path.ptr);
		goto out;
	}
	me.name = name;
	me.up = p->inc;
	p->inc = &me;
	p->depth++;
	r = parse_file(p, out, path.ptr, text.ptr, text.len);
	p->depth--;
	p->inc = me.up;
out:
	free(name);
	buf_release(&path);
	buf_release(&text);
	return r;
}

enum tag_kind {
	TG_VAR, TG_RAW, TG_COMMENT, TG_OPEN, TG_ELSE, TG_CLOSE, TG_PARTIAL,
};

static int
block_ok(struct parser *p, size_t off, const char *what)
{
	struct buf d = BUF_INIT;

	if (h_block_ok(&p->h))
		return 0;
	h_describe(&p->h, &d);
	perr(p, off, "'%s' not allowed %s: inside a tag, a block must hold "
	     "whole attributes with quoted values", what, d.ptr);
	buf_release(&d);
	return -1;
}

/* The escaper for a variable at the current context, or -1 with a message. */
static int
var_context(struct parser *p, size_t off, const struct name *nm, int raw,
	    enum esc *esc)
{
	struct buf d = BUF_INIT;
	const struct hctx *h = &p->h;
	const char *why = NULL;

	if (nm->kind == NAME_OPEN)
		return 0;	/* a literal, allowed everywhere */
	if (raw) {
		if (h->s == HS_DATA)
			return 0;
		h_describe(h, &d);
		perr(p, off, "raw '{{{%s}}}' not allowed %s: only in text",
		     nm->text, d.ptr);
		buf_release(&d);
		return -1;
	}
	switch (h->s) {
	case HS_DATA:
		*esc = ESC_TEXT;
		return 0;
	case HS_RCDATA:
		if (h->sub)
			break;
		*esc = ESC_TEXT;
		return 0;
	case HS_ATTR_VALUE_DQ:
	case HS_ATTR_VALUE_SQ:
		switch (h->ak) {
		case AK_TEXT:
			*esc = ESC_ATTR;
			return 0;
		case AK_URL:
			if (h->url == U_SETTLED) {
				*esc = ESC_URL_PART;
				return 0;
			}
			if (h->url & U_DANGER) {
				why = "the URL's literal scheme runs code or holds "
				      "a document";
				break;
			}
			if (!h->url) {
				*esc = ESC_URL;
				return 0;
			}
			why = "the URL scheme would depend on data; start the "
			      "value with the variable or with literal text "
			      "holding '/', '?', '#' or ':'";
			break;
		case AK_JS:
			why = "an event handler is JavaScript";
			break;
		case AK_CSS:
			why = "CSS is not escaped here";
			break;
		case AK_HTML:
			why = "it holds a whole HTML document";
			break;
		case AK_URL_LIST:
			why = "it holds a list of URLs";
			break;
		case AK_ANIM:
			why = "SVG animation can rewrite other attributes";
			break;
		case AK_RESOURCE:
			why = "it loads active content";
			break;
		case AK_LONG:
			why = "the attribute name is too long to check";
			break;
		}
		break;
	default:
		break;
	}
	h_describe(h, &d);
	if (why)
		perr(p, off, "variable '%s' not allowed %s of <%s>: %s", nm->text,
		     d.ptr, h->tag, why);
	else
		perr(p, off, "variable '%s' not allowed %s", nm->text, d.ptr);
	buf_release(&d);
	return -1;
}

static const char *
kw_of(enum op_kind k)
{
	return k == OP_EACH ? "each" : k == OP_IF ? "if" : "unless";
}

static int
do_block(struct parser *p, struct oplist *out, size_t off, const char *c,
	 size_t n)
{
	struct hctx start, then_end, merged;
	struct endtag end;
	struct op op;
	const char *arg;
	size_t kwlen, alen;
	int line, col, r, has_else = 0;
	char what[48];

	for (kwlen = 0; kwlen < n && !h_ws((unsigned char)c[kwlen]); kwlen++)
		;
	memset(&op, 0, sizeof(op));
	memset(&then_end, 0, sizeof(then_end));
	if (kwlen == 4 && !memcmp(c, "each", 4))
		op.kind = OP_EACH;
	else if (kwlen == 2 && !memcmp(c, "if", 2))
		op.kind = OP_IF;
	else if (kwlen == 6 && !memcmp(c, "unless", 6))
		op.kind = OP_UNLESS;
	else
		return perr(p, off, "unknown block '#%.*s'", (int)kwlen, c);
	snprintf(what, sizeof(what), "{{#%s}}", kw_of(op.kind));
	arg = c + kwlen;
	alen = n - kwlen;
	trim(&arg, &alen);
	if (!alen)
		return perr(p, off, "'%s' needs a name", what);
	if (block_ok(p, off, what) < 0)
		return -1;
	if (p->depth >= MAX_DEPTH)
		return perr(p, off, "blocks and partials nested too deeply");
	loc(p, off, &line, &col);
	op.file = p->file;
	op.line = line;
	op.col = col;
	if (parse_name(p, off, arg, alen, &op.name) < 0)
		goto fail;
	if (op.name.kind == NAME_OPEN ||
	    (op.kind == OP_EACH && (op.name.kind == NAME_INDEX ||
				    op.name.kind == NAME_NUMBER))) {
		perr(p, off, "'%s' is not a list or condition", op.name.text);
		goto fail;
	}
	start = p->h;
	if (op.kind == OP_EACH) {
		p->each_depth++;
		/* The body may follow itself: in a URL value not yet settled,
		 * treat it as coming after a variable. */
		if (p->h.ak == AK_URL && !(p->h.url & U_SETTLED))
			p->h.url |= U_VAR | U_LIT;
	}
	p->depth++;
	r = parse_seq(p, &op.body, &end);
	if (op.kind == OP_EACH)
		p->each_depth--;
	if (r == TK_ELSE) {
		has_else = 1;
		then_end = p->h;
		p->h = start;
		r = parse_seq(p, &op.alt, &end);
		if (r == TK_ELSE) {
			error_lc(p->file, end.line, end.col,
				 "second '{{else}}' in '%s' opened at %d:%d",
				 what, line, col);
			r = TK_ERR;
		}
	}
	p->depth--;
	if (r == TK_ERR)
		goto fail;
	if (r == TK_EOF) {
		perr(p, off, "unclosed '%s'", what);
		goto fail;
	}
	if (strcmp(end.kw, kw_of(op.kind))) {
		error_lc(p->file, end.line, end.col,
			 "'{{/%s}}' does not match '%s' opened at %d:%d", end.kw,
			 what, line, col);
		goto fail;
	}
	/*
	 * Every way out of the block must leave the same HTML context, and
	 * a loop body must end where it started, since it may follow itself.
	 */
	if (op.kind == OP_EACH) {
		merged = start;
		r = h_join(&merged, has_else ? &then_end : &p->h);
		if (r == 0 && has_else)
			r = h_join(&merged, &p->h);
	} else {
		merged = p->h;
		r = h_join(&merged, has_else ? &then_end : &start);
	}
	p->h = merged;
	if (r < 0) {
		error_lc(p->file, end.line, end.col,
			 "'{{/%s}}' ends a block whose paths leave different "
			 "HTML contexts (an unclosed tag, quote or element "
			 "inside '%s' at %d:%d?)", end.kw, what, line, col);
		goto fail;
	}
	*oplist_push(out) = op;
	return 0;
fail:
	name_free(&op.name);
	oplist_free(&op.body);
	oplist_free(&op.alt);
	return -1;
}

/*
 * Does the tag at [q, e) stand alone on its line (only spaces or tabs
 * around it)?  Then *after is where the next line starts.
 */
static int
standalone(const struct parser *p, size_t q, size_t e, size_t *after)
{
	size_t i = q;

	while (i > 0 && (p->s[i - 1] == ' ' || p->s[i - 1] == '\t'))
		i--;
	if (i > 0 && p->s[i - 1] != '\n')
		return 0;
	for (i = e; i < p->n && (p->s[i] == ' ' || p->s[i] == '\t'); i++)
		;
	if (i == p->n)
		*after = i;
	else if (p->s[i] == '\n')
		*after = i + 1;
	else if (p->s[i] == '\r' && i + 1 < p->n && p->s[i + 1] == '\n')
		*after = i + 2;
	else
		return 0;
	return 1;
}

static const char *
find(const char *s, size_t from, size_t n, const char *pat)
{
	size_t m = strlen(pat);

	for (; from + m <= n; from++)
		if (!memcmp(s + from, pat, m))
			return s + from;
	return NULL;
}

/*
 * Parse until end of input or a block tag that belongs to the caller
 * ({{else}}, {{/x}}), which is described in *end.
 */
static int
parse_seq(struct parser *p, struct oplist *out, struct endtag *end)
{
	for (;;) {
		const char *open = find(p->s, p->pos, p->n, "{{"), *close, *c;
		size_t q, e, cn, after, lit_end;
		enum tag_kind kind;
		struct name nm;
		enum esc esc = ESC_TEXT;
		int line, col;

		if (!open) {
			if (emit_text(p, out, p->pos, p->n) < 0)
				return TK_ERR;
			p->pos = p->n;
			return TK_EOF;
		}
		q = (size_t)(open - p->s);
		c = open + 2;
		kind = TG_VAR;
		if (q + 2 < p->n && *c == '{') {
			kind = TG_RAW;
			c++;
		}
		close = find(p->s, (size_t)(c - p->s), p->n, "}}");
		if (!close || find(p->s, (size_t)(c - p->s),
				   (size_t)(close - p->s) + 1, "{{")) {
			perr(p, q, "unclosed '%s'", kind == TG_RAW ? "{{{" : "{{");
			return TK_ERR;
		}
		e = (size_t)(close - p->s) + 2;
		if (kind == TG_RAW) {
			if (e >= p->n || p->s[e] != '}') {
				perr(p, q, "'{{{' closed by '}}' instead of '}}}'");
				return TK_ERR;
			}
			e++;
		}
		cn = (size_t)(close - c);
		trim(&c, &cn);
		if (!cn) {
			perr(p, q, "empty tag");
			return TK_ERR;
		}
		if (kind == TG_VAR) {
			switch (*c) {
			case '!':
				kind = TG_COMMENT;
				break;
			case '#':
				kind = TG_OPEN;
				break;
			case '/':
				kind = TG_CLOSE;
				break;
			case '>':
				kind = TG_PARTIAL;
				break;
			default:
				if (cn == 4 && !memcmp(c, "else", 4))
					kind = TG_ELSE;
				break;
			}
			if (kind == TG_OPEN || kind == TG_CLOSE || kind == TG_PARTIAL) {
				c++;
				cn--;
				trim(&c, &cn);
			}
		}
		lit_end = q;
		if (kind != TG_VAR && kind != TG_RAW && standalone(p, q, e, &after)) {
			while (lit_end > p->pos && (p->s[lit_end - 1] == ' ' ||
						    p->s[lit_end - 1] == '\t'))
				lit_end--;
		} else {
			after = e;
		}
		if (emit_text(p, out, p->pos, lit_end) < 0)
			return TK_ERR;
		p->pos = after;

		switch (kind) {
		case TG_COMMENT:
			break;
		case TG_VAR:
		case TG_RAW:
			if (parse_name(p, q, c, cn, &nm) < 0 ||
			    var_context(p, q, &nm, kind == TG_RAW, &esc) < 0) {
				name_free(&nm);
				return TK_ERR;
			}
			if (nm.kind == NAME_OPEN) {
				name_free(&nm);
				if (kind == TG_RAW) {
					perr(p, q, "'@open' is not raw markup");
					return TK_ERR;
				}
				if (emit_literal(p, out, q, "{{") < 0)
					return TK_ERR;
				break;
			}
			{
				struct op *op = oplist_push(out);

				op->kind = kind == TG_RAW ? OP_RAW : OP_VAR;
				op->esc = esc;
				op->name = nm;
				op->file = p->file;
				loc(p, q, &op->line, &op->col);
			}
			if (kind == TG_VAR && esc == ESC_URL)
				p->h.url |= U_VAR;
			break;
		case TG_OPEN:
			if (do_block(p, out, q, c, cn) < 0)
				return TK_ERR;
			break;
		case TG_ELSE:
		case TG_CLOSE: {
			char what[48];

			snprintf(what, sizeof(what), "{{%s%.*s}}",
				 kind == TG_ELSE ? "" : "/", (int)cn, c);
			if (block_ok(p, q, what) < 0)
				return TK_ERR;
			loc(p, q, &line, &col);
			end->line = line;
			end->col = col;
			end->kw[0] = '\0';
			if (kind == TG_ELSE)
				return TK_ELSE;
			if (cn >= sizeof(end->kw) || !cn) {
				perr(p, q, "unknown block end '{{/%.*s}}'", (int)cn, c);
				return TK_ERR;
			}
			memcpy(end->kw, c, cn);
			end->kw[cn] = '\0';
			if (strcmp(end->kw, "each") && strcmp(end->kw, "if") &&
			    strcmp(end->kw, "unless")) {
				perr(p, q, "unknown block end '{{/%s}}'", end->kw);
				return TK_ERR;
			}
			return TK_CLOSE;
		}
		case TG_PARTIAL:
			if (do_partial(p, out, q, c, cn) < 0)
				return TK_ERR;
			break;
		}
	}
}

/*
 * Parse one file's text into out.  parent is the including parser (NULL
 * for the top template, then p->h etc. start fresh); its HTML context,
 * nesting and include chain carry into the partial and back.
 */
static int
parse_file(struct parser *parent, struct oplist *out, const char *path,
	   const char *text, size_t len)
{
	struct parser p;
	struct endtag end;
	const char *nul;
	int r;

	p = *parent;
	p.file = tmpl_add_file(parent->t, path);
	p.s = text;
	p.n = len;
	p.pos = p.lpos = 0;
	p.line = p.col = 1;
	if (len > MAX_TOTAL_BYTES - *p.total)
		return perr(&p, 0, "templates too large with their partials");
	*p.total += len;
	nul = memchr(text, '\0', len);
	if (nul)
		return perr(&p, (size_t)(nul - text), "NUL byte in template");
	r = parse_seq(&p, out, &end);
	if (r == TK_ELSE)
		r = error_lc(p.file, end.line, end.col, "'{{else}}' outside a block");
	else if (r == TK_CLOSE)
		r = error_lc(p.file, end.line, end.col,
			     "'{{/%s}}' without a matching '{{#%s}}'", end.kw, end.kw);
	else if (r == TK_ERR)
		r = -1;
	parent->h = p.h;
	return r;
}

/* Base name without directory and ".html": the include-chain entry. */
static char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/'), *b = slash ? slash + 1 : path;
	size_t n = strlen(b);

	if (n > 5 && !strcmp(b + n - 5, ".html"))
		n -= 5;
	return xstrndup(b, n);
}

static struct tmpl *
parse_top(const char *path, const char *text, size_t len, const char *dir)
{
	struct tmpl *t = xcalloc(1, sizeof(*t));
	struct parser p;
	struct incl me;
	size_t total = 0;
	char *base = base_name(path);
	int r;

	memset(&p, 0, sizeof(p));
	p.t = t;
	p.h.s = HS_DATA;
	p.dir = dir;
	p.total = &total;
	me.name = base;
	me.up = NULL;
	p.inc = &me;
	r = parse_file(&p, &t->ops, path, text, len);
	free(base);
	if (r < 0) {
		tmpl_free(t);
		return NULL;
	}
	return t;
}

struct tmpl *
tmpl_parse_string(const char *name, const char *text, size_t len,
		  const char *partial_dir)
{
	return parse_top(name, text, len, partial_dir);
}

struct tmpl *
tmpl_load(const char *dir, const char *name)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct tmpl *t = NULL;

	if (!dir || !*dir)
		dir = ".";
	buf_addf(&path, "%s/%s%s", dir, name,
		 str_endswith(name, ".html") ? "" : ".html");
	if (!input_read_all(path.ptr, MAX_FILE_BYTES, &text))
		t = parse_top(path.ptr, text.ptr, text.len, dir);
	buf_release(&path);
	buf_release(&text);
	return t;
}

/* ---- raw fragments ----------------------------------------------------- */

json_t *
tmpl_rawn(const char *html, size_t len)
{
	json_t *o = json_object(), *s = json_stringn_nocheck(html, len);

	if (!o || !s || json_object_set_new(o, "$raw", s) ||
	    json_object_setn_new_nocheck(o, raw_mark, RAW_MARK_LEN, json_true()))
		die("out of memory");
	return o;
}

json_t *
tmpl_raw(const char *html)
{
	return tmpl_rawn(html, strlen(html));
}

/* The markup of a tmpl_raw() object, or NULL for anything else. */
static const json_t *
raw_html(const json_t *v)
{
	const json_t *s;

	if (!json_is_object(v) ||
	    !json_is_true(json_object_getn(v, raw_mark, RAW_MARK_LEN)))
		return NULL;
	s = json_object_get(v, "$raw");
	return json_is_string(s) ? s : NULL;
}

/* ---- executor ---------------------------------------------------------- */

struct scope {
	const json_t *item;
	size_t index;
	int each;		/* pushed by {{#each}}: index is meaningful */
};

struct render {
	struct buf *out;
	int strict;
	struct scope *sc;
	size_t nsc, asc;
};

/* A looked-up value: JSON, or a loop position. */
struct val {
	const json_t *j;	/* NULL: missing, or a position */
	int is_pos;
	long long pos;
};

static int PRINTF(2, 3)
rerr(const struct op *op, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_lc(op->file, op->line, op->col, "%s", msg.ptr);
	buf_release(&msg);
	return -1;
}

static const json_t *
child(const json_t *v, const char *key)
{
	const char *k;

	if (json_is_object(v))
		return json_object_get(v, key);
	if (!json_is_array(v) || !*key)
		return NULL;
	for (k = key; *k; k++)
		if (*k < '0' || *k > '9')
			return NULL;
	if (k - key > 9)
		return NULL;
	return json_array_get(v, (size_t)strtoul(key, NULL, 10));
}

/* 0 found, 1 missing (and not strict), -1 error. */
static int
lookup(struct render *r, const struct op *op, struct val *v)
{
	const struct name *nm = &op->name;
	const json_t *j = NULL;
	size_t k, i;

	memset(v, 0, sizeof(*v));
	switch (nm->kind) {
	case NAME_DOT:
		v->j = r->sc[r->nsc - 1].item;
		return 0;
	case NAME_INDEX:
	case NAME_NUMBER:
		for (k = r->nsc; k-- > 0;) {
			if (!r->sc[k].each)
				continue;
			v->is_pos = 1;
			v->pos = (long long)r->sc[k].index + (nm->kind == NAME_NUMBER);
			return 0;
		}
		BUG("'%s' outside #each passed the parser", nm->text);
	case NAME_PATH:
		for (k = r->nsc; k-- > 0 && !j;)
			if (json_is_object(r->sc[k].item))
				j = json_object_get(r->sc[k].item, nm->seg[0]);
		for (i = 1; j && i < nm->nseg; i++)
			j = child(j, nm->seg[i]);
		break;
	case NAME_OPEN:
		BUG("'@open' is not a value");
	}
	v->j = j;
	if (j)
		return 0;
	if (r->strict)
		return rerr(op, "'%s' is not defined", nm->text);
	return 1;
}

static int
truthy(const struct val *v)
{
	const json_t *j = v->j, *raw;

	if (v->is_pos)
		return v->pos != 0;
	if ((raw = raw_html(j)))
		return json_string_length(raw) > 0;
	switch (json_typeof(j)) {
	case JSON_STRING:
		return json_string_length(j) > 0;
	case JSON_ARRAY:
		return json_array_size(j) > 0;
	case JSON_OBJECT:
		return json_object_size(j) > 0;
	case JSON_INTEGER:
		return json_integer_value(j) != 0;
	case JSON_REAL:
		return json_real_value(j) != 0;
	case JSON_TRUE:
		return 1;
	default:
		return 0;
	}
}

static void
escape_as(struct buf *b, enum esc esc, const char *s, size_t n)
{
	switch (esc) {
	case ESC_TEXT:
		html_text(b, s, n);
		break;
	case ESC_ATTR:
		html_attr(b, s, n);
		break;
	case ESC_URL:
		html_url(b, s, n);
		break;
	case ESC_URL_PART:
		html_url_part(b, s, n);
		break;
	}
}

static int
emit_var(struct render *r, const struct op *op, const struct val *v)
{
	struct buf tmp = BUF_INIT;
	const json_t *j = v->j;

	if (v->is_pos) {
		buf_addf(&tmp, "%lld", v->pos);
	} else {
		switch (json_typeof(j)) {
		case JSON_STRING:
			escape_as(r->out, op->esc, json_string_value(j),
				  json_string_length(j));
			return 0;
		case JSON_INTEGER:
			buf_addf(&tmp, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
			break;
		case JSON_REAL:
			numfmt_add(&tmp, json_real_value(j), NF_REAL);
			break;
		case JSON_TRUE:
			buf_addstr(&tmp, "true");
			break;
		case JSON_FALSE:
			buf_addstr(&tmp, "false");
			break;
		case JSON_NULL:
			break;
		case JSON_OBJECT:
			if (raw_html(j))
				return rerr(op, "'%s' is a raw fragment: use '{{{%s}}}'",
					    op->name.text, op->name.text);
			return rerr(op, "'%s' is an object, not a value", op->name.text);
		case JSON_ARRAY:
			return rerr(op, "'%s' is an array, not a value", op->name.text);
		}
	}
	escape_as(r->out, op->esc, tmp.ptr, tmp.len);
	buf_release(&tmp);
	return 0;
}

static const char *
type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

static int exec(struct render *r, const struct oplist *ops);

static int
exec_each(struct render *r, const struct op *op, const struct val *v,
	  int missing)
{
	size_t i, n;
	int rc = 0;

	if (missing || json_is_null(v->j) || json_is_false(v->j))
		return exec(r, &op->alt);
	if (!json_is_array(v->j))
		return rerr(op, "'%s' in '{{#each}}' is %s, not an array",
			    op->name.text, type_name(v->j));
	n = json_array_size(v->j);
	if (!n)
		return exec(r, &op->alt);
	ALLOC_GROW(r->sc, r->nsc + 1, r->asc);
	r->nsc++;
	for (i = 0; i < n && !rc; i++) {
		r->sc[r->nsc - 1].item = json_array_get(v->j, i);
		r->sc[r->nsc - 1].index = i;
		r->sc[r->nsc - 1].each = 1;
		rc = exec(r, &op->body);
	}
	r->nsc--;
	return rc;
}

static int
exec(struct render *r, const struct oplist *ops)
{
	size_t i;

	for (i = 0; i < ops->n; i++) {
		const struct op *op = &ops->v[i];
		const json_t *raw;
		struct val v;
		int missing = 0, rc = 0;

		if (op->kind == OP_TEXT) {
			buf_add(r->out, op->text, op->len);
			continue;
		}
		missing = lookup(r, op, &v);
		if (missing < 0)
			return -1;
		switch (op->kind) {
		case OP_VAR:
			if (!missing)
				rc = emit_var(r, op, &v);
			break;
		case OP_RAW:
			if (missing || (!v.is_pos && json_is_null(v.j)))
				break;
			raw = v.is_pos ? NULL : raw_html(v.j);
			if (!raw)
				return rerr(op, "'{{{%s}}}' needs a fragment made by "
					    "tmpl_raw(), not %s", op->name.text,
					    v.is_pos ? "a number" : type_name(v.j));
			buf_add(r->out, json_string_value(raw), json_string_length(raw));
			break;
		case OP_EACH:
			rc = exec_each(r, op, &v, missing);
			break;
		case OP_IF:
		case OP_UNLESS:
			if (!missing && truthy(&v) == (op->kind == OP_IF))
				rc = exec(r, &op->body);
			else if (missing && op->kind == OP_UNLESS)
				rc = exec(r, &op->body);
			else
				rc = exec(r, &op->alt);
			break;
		case OP_TEXT:
			break;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

int
tmpl_render(const struct tmpl *t, const json_t *data, struct buf *out,
	    int strict)
{
	struct render r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.out = out;
	r.strict = strict;
	ALLOC_GROW(r.sc, 1, r.asc);
	r.sc[0].item = data;
	r.nsc = 1;
	rc = exec(&r, &t->ops);
	free(r.sc);
	return rc;
}
