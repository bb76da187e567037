/*
 * linkcheck - check that a built site is self-contained and that every
 * link in it resolves.
 *
 * usage: linkcheck SITE
 *
 * For every .html page: each URL-valued attribute (href, src, xlink:href,
 * action, poster, srcset, ...) and each url(...) in a style attribute or
 * <style> element must be either
 *   - a fragment ("#id") naming an id of the same page, or
 *   - a relative reference that resolves, inside SITE, to an existing
 *     regular file (a directory does not count: file:// serves no
 *     directory index), and whose fragment, if any, names an id of the
 *     target page when that is HTML;
 * except that an <a href> between the markers <!--notes--> and
 * <!--/notes--> (the author's notes) may be an absolute http:, https: or
 * mailto: URL.  Nothing else may be absolute: no scheme, no "//host", no
 * "/path".  For every .css file: each url(...) and @import likewise.
 *
 * Prints "ok - links: PAGE" or "not ok - links: PAGE: first problem" per
 * file (more problems follow as "# ..." lines), and exits 1 if any failed.
 * The HTML reader is small but follows the tokenizer where it matters:
 * comments, quoted and unquoted attribute values, character references in
 * values, raw text of <script> and <style>.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/utf8.h"
#include "base/util.h"

struct page {
	char *rel;		/* path relative to the site root */
	char **ids;
	size_t nids, aids;
	int html;
};

static struct page *pages;
static size_t npages, apages;
static const char *root;

struct report {
	const struct page *pg;
	size_t nbad;
};

static void PRINTF(2, 3)
bad(struct report *r, const char *fmt, ...)
{
	va_list ap;
	struct buf b = BUF_INIT;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!r->nbad++)
		printf("not ok - links: %s: %s\n", r->pg->rel, b.ptr);
	else
		printf("# %s: %s\n", r->pg->rel, b.ptr);
	buf_release(&b);
}

static int
read_file(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "rb");
	char tmp[65536];
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(b, tmp, n);
	fclose(f);
	return 0;
}

static void
walk(const char *rel)
{
	struct buf p = BUF_INIT;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, a = 0, i;

	buf_addf(&p, "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(p.ptr)))
		die_errno("cannot open '%s'", p.ptr);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ALLOC_GROW(names, n + 1, a);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		struct buf r = BUF_INIT, full = BUF_INIT;
		struct stat st;

		buf_addf(&r, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		buf_addf(&full, "%s/%s", root, r.ptr);
		if (lstat(full.ptr, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk(r.ptr);
		} else {
			ALLOC_GROW(pages, npages + 1, apages);
			memset(&pages[npages], 0, sizeof(pages[npages]));
			pages[npages].rel = buf_detach(&r, NULL);
			pages[npages].html = str_endswith(pages[npages].rel, ".html");
			npages++;
		}
		buf_release(&r);
		buf_release(&full);
		free(names[i]);
	}
	free(names);
	buf_release(&p);
}

static int
cmp_page(const void *a, const void *b)
{
	return strcmp(((const struct page *)a)->rel, ((const struct page *)b)->rel);
}

static struct page *
find_page(const char *rel)
{
	size_t i;

	for (i = 0; i < npages; i++)
		if (!strcmp(pages[i].rel, rel))
			return &pages[i];
	return NULL;
}

static int
has_id(const struct page *pg, const char *id)
{
	size_t i;

	for (i = 0; i < pg->nids; i++)
		if (!strcmp(pg->ids[i], id))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* a small HTML reader */

struct attr {
	char name[64];
	struct buf val;
};

struct tag {
	char name[64];
	int end;
	struct attr *a;
	size_t na, aa;
};

static int allowed_script(const struct tag *t, const char *body, size_t len, const char *rel);


static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static char
lower(char c)
{
	return (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

/* Character references in an attribute value (the ones erg can write,
 * plus numeric ones); an unknown named reference is kept as is. */
static void
decode_refs(struct buf *out, const char *s, size_t n)
{
	static const struct {
		const char *name, *text;
	} named[] = {
		{ "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" }, { "quot;", "\"" },
		{ "apos;", "'" }, { "colon;", ":" }, { "sol;", "/" }, { "num;", "#" },
		{ "Tab;", "\t" }, { "NewLine;", "\n" }, { "nbsp;", "\xc2\xa0" },
	};
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (s[i] != '&') {
			buf_addch(out, s[i]);
			continue;
		}
		if (i + 1 < n && s[i + 1] == '#') {
			unsigned long cp = 0;
			size_t j = i + 2;
			int hex = j < n && (s[j] == 'x' || s[j] == 'X'), any = 0;

			if (hex)
				j++;
			for (; j < n; j++) {
				long v = hex ? jtext_hex(s, n, j, 1)
					     : s[j] >= '0' && s[j] <= '9' ? s[j] - '0' : -1;

				if (v < 0)
					break;
				cp = cp * (hex ? 16 : 10) + (unsigned long)v;
				if (cp > 0x10ffff)
					cp = 0xfffd;
				any = 1;
			}
			if (any) {
				utf8_put(out, cp ? (uint32_t)cp : 0xfffd);
				i = j < n && s[j] == ';' ? j : j - 1;
				continue;
			}
		}
		for (k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
			size_t l = strlen(named[k].name);

			if (n - i - 1 >= l && !strncmp(s + i + 1, named[k].name, l)) {
				buf_addstr(out, named[k].text);
				i += l;
				break;
			}
		}
		if (k == sizeof(named) / sizeof(named[0]))
			buf_addch(out, '&');
	}
}

static void
tag_reset(struct tag *t)
{
	size_t i;

	for (i = 0; i < t->na; i++)
		buf_release(&t->a[i].val);
	t->na = 0;
	t->name[0] = '\0';
	t->end = 0;
}

/* Read a tag starting after '<' at *pos; *pos ends after '>'.  0 if it
 * was not a tag (text '<'). */
static int
read_tag(const char *s, size_t n, size_t *pos, struct tag *t)
{
	size_t i = *pos, k = 0;

	tag_reset(t);
	if (i < n && s[i] == '/') {
		t->end = 1;
		i++;
	}
	if (i >= n || !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
		return 0;
	while (i < n && !is_space(s[i]) && s[i] != '>' && s[i] != '/') {
		if (k < sizeof(t->name) - 1)
			t->name[k++] = lower(s[i]);
		i++;
	}
	t->name[k] = '\0';
	for (;;) {
		struct attr *a;

		while (i < n && (is_space(s[i]) || s[i] == '/'))
			i++;
		if (i >= n)
			break;
		if (s[i] == '>') {
			i++;
			break;
		}
		ALLOC_GROW(t->a, t->na + 1, t->aa);
		a = &t->a[t->na++];
		k = 0;
		a->val = (struct buf)BUF_INIT;
		while (i < n && !is_space(s[i]) && s[i] != '>' && s[i] != '=' &&
		       !(s[i] == '/' && i + 1 < n && s[i + 1] == '>')) {
			if (k < sizeof(a->name) - 1)
				a->name[k++] = lower(s[i]);
			i++;
		}
		a->name[k] = '\0';
		while (i < n && is_space(s[i]))
			i++;
		if (i < n && s[i] == '=') {
			size_t v0;

			i++;
			while (i < n && is_space(s[i]))
				i++;
			if (i < n && (s[i] == '"' || s[i] == '\'')) {
				char q = s[i++];

				v0 = i;
				while (i < n && s[i] != q)
					i++;
				decode_refs(&a->val, s + v0, i - v0);
				if (i < n)
					i++;
			} else {
				v0 = i;
				while (i < n && !is_space(s[i]) && s[i] != '>')
					i++;
				decode_refs(&a->val, s + v0, i - v0);
			}
		}
	}
	*pos = i;
	return 1;
}

static int
is_url_attr(const char *tag, const char *a)
{
	static const char *const names[] = {
		"href", "src", "xlink:href", "action", "formaction", "poster", "cite",
		"background", "longdesc", "usemap", "manifest", "icon", "ping",
		"codebase", "classid", "lowsrc", "dynsrc", "xml:base", NULL,
	};
	const char *const *p;

	if (!strcmp(a, "data") && !strcmp(tag, "object"))
		return 1;
	for (p = names; *p; p++)
		if (!strcmp(*p, a))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* checking one reference */

static int
scheme_of(const char *u, char *out, size_t cap)
{
	size_t k = 0;
	const char *p = u;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	for (; *p && *p != ':'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.'))
			return 0;
		if (k + 1 < cap)
			out[k++] = lower(*p);
	}
	out[k] = '\0';
	return *p == ':';
}

static void
pct_decode(struct buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && jtext_hex(s, n, i + 1, 2) >= 0) {
			buf_addch(out, (char)jtext_hex(s, n, i + 1, 2));
			i += 2;
		} else {
			buf_addch(out, s[i]);
		}
	}
}

/* base directory of page rel + ref path -> normalised path in out; -1 if
 * it leaves the root. */
static int
resolve(const char *page, const char *path, struct buf *out)
{
	struct buf in = BUF_INIT;
	const char *slash = strrchr(page, '/');
	char *p, *seg, *save = NULL;
	char **st = NULL;
	size_t n = 0, a = 0, i;
	int rc = 0;

	if (slash)
		buf_add(&in, page, (size_t)(slash - page + 1));
	buf_addstr(&in, path);
	p = in.ptr;
	for (seg = strtok_r(p, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			if (!n) {
				rc = -1;
				break;
			}
			n--;
			continue;
		}
		ALLOC_GROW(st, n + 1, a);
		st[n++] = seg;
	}
	buf_reset(out);
	for (i = 0; !rc && i < n; i++) {
		if (i)
			buf_addch(out, '/');
		buf_addstr(out, st[i]);
	}
	if (!rc && path[0] && path[strlen(path) - 1] == '/')
		buf_addch(out, '/');	/* a directory reference */
	free(st);
	buf_release(&in);
	return rc;
}

static void
check_ref(struct report *r, const char *tag, const char *attr, const char *val,
	  int in_notes)
{
	char sch[32];
	const char *u = val, *hash;
	struct buf path = BUF_INIT, dec = BUF_INIT, res = BUF_INIT;
	size_t plen;
	struct page *target;

	while (is_space(*u))
		u++;
	if (!*u) {
		bad(r, "<%s %s> is empty", tag, attr);
		return;
	}
	if (u[0] == '/' || scheme_of(u, sch, sizeof(sch))) {
		int ok = in_notes && !strcmp(tag, "a") && !strcmp(attr, "href") && u[0] != '/' &&
			 (!strcmp(sch, "http") || !strcmp(sch, "https") || !strcmp(sch, "mailto"));

		if (!ok)
			bad(r, "<%s %s=\"%s\"> points outside the site", tag, attr, u);
		return;
	}
	hash = strchr(u, '#');
	plen = strcspn(u, "?#");
	if (!plen) {
		if (hash && hash[1] && !has_id(r->pg, hash + 1))
			bad(r, "<%s %s=\"%s\">: no id '%s' in the page", tag, attr, u, hash + 1);
		return;
	}
	pct_decode(&dec, u, plen);
	if (resolve(r->pg->rel, dec.ptr, &res)) {
		bad(r, "<%s %s=\"%s\"> leaves the site", tag, attr, u);
		goto out;
	}
	target = find_page(res.ptr);
	if (!target) {
		bad(r, "<%s %s=\"%s\">: '%s' is not a file of the site%s", tag, attr, u, res.ptr,
		    str_endswith(res.ptr, "/") ? " (file:// has no directory index)" : "");
		goto out;
	}
	if (hash && hash[1] && target->html && !has_id(target, hash + 1))
		bad(r, "<%s %s=\"%s\">: no id '%s' in '%s'", tag, attr, u, hash + 1, res.ptr);
out:
	buf_release(&path);
	buf_release(&dec);
	buf_release(&res);
}

/* Every url(...) in CSS text; url(#id) refers to the page itself. */
static void
check_css(struct report *r, const char *what, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 4 <= n; i++) {
		struct buf v = BUF_INIT;
		size_t j;
		char q = 0;

		if (!strncmp(s + i, "@import", 7) && i + 7 <= n) {
			bad(r, "%s: @import", what);
			continue;
		}
		if (lower(s[i]) != 'u' || lower(s[i + 1]) != 'r' || lower(s[i + 2]) != 'l' ||
		    s[i + 3] != '(')
			continue;
		j = i + 4;
		while (j < n && is_space(s[j]))
			j++;
		if (j < n && (s[j] == '"' || s[j] == '\''))
			q = s[j++];
		while (j < n && (q ? s[j] != q : (s[j] != ')' && !is_space(s[j]))))
			buf_addch(&v, s[j++]);
		check_ref(r, what, "url()", v.ptr, 0);
		buf_release(&v);
		i = j;
	}
}

/* ------------------------------------------------------------------ */

/* Pass 1: the ids of a page. */
static void
collect_ids(struct page *pg, const char *s, size_t n)
{
	struct tag t = { 0 };
	size_t i = 0, k;

	while (i < n) {
		if (s[i] != '<') {
			i++;
			continue;
		}
		if (!strncmp(s + i, "<!--", 4)) {
			const char *e = strstr(s + i + 4, "-->");

			i = e ? (size_t)(e - s) + 3 : n;
			continue;
		}
		i++;
		if (!read_tag(s, n, &i, &t))
			continue;
		for (k = 0; k < t.na; k++)
			if (!strcmp(t.a[k].name, "id") || !strcmp(t.a[k].name, "name")) {
				ALLOC_GROW(pg->ids, pg->nids + 1, pg->aids);
				pg->ids[pg->nids++] = xstrdup(t.a[k].val.ptr);
			}
		if (!t.end && (!strcmp(t.name, "script") || !strcmp(t.name, "style"))) {
			char close[80];
			const char *e;

			snprintf(close, sizeof(close), "</%s", t.name);
			e = strstr(s + i, close);
			i = e ? (size_t)(e - s) : n;
		}
	}
	tag_reset(&t);
	free(t.a);
}

static void
check_html(struct report *r, const char *s, size_t n)
{
	struct tag t = { 0 };
	size_t i = 0, k;
	int in_notes = 0, ids_dup = 0;

	for (k = 0; k < r->pg->nids; k++) {
		size_t j;

		for (j = 0; j < k; j++)
			if (!strcmp(r->pg->ids[j], r->pg->ids[k]) && ids_dup++ < 5)
				bad(r, "id '%s' appears twice", r->pg->ids[k]);
	}
	while (i < n) {
		if (s[i] != '<') {
			i++;
			continue;
		}
		if (!strncmp(s + i, "<!--", 4)) {
			const char *e = strstr(s + i + 4, "-->");

			if (!strncmp(s + i, "<!--notes-->", 12))
				in_notes = 1;
			else if (!strncmp(s + i, "<!--/notes-->", 13))
				in_notes = 0;
			i = e ? (size_t)(e - s) + 3 : n;
			continue;
		}
		i++;
		if (!read_tag(s, n, &i, &t) || t.end)
			continue;
		for (k = 0; k < t.na; k++) {
			const struct attr *a = &t.a[k];

			if (!strncmp(a->name, "on", 2))
				bad(r, "<%s %s>: an event handler", t.name, a->name);
			if (!strcmp(a->name, "srcset") || !strcmp(a->name, "imagesrcset")) {
				bad(r, "<%s %s>: srcset is not used by erg", t.name, a->name);
			} else if (is_url_attr(t.name, a->name)) {
				check_ref(r, t.name, a->name, a->val.ptr, in_notes);
			} else if (strstr(a->val.ptr, "url(")) {
				check_css(r, t.name, a->val.ptr, a->val.len);
			}
		}
		if (!strcmp(t.name, "script") || !strcmp(t.name, "style")) {
			char close[80];
			const char *e;

			snprintf(close, sizeof(close), "</%s", t.name);
			e = strstr(s + i, close);
			/* The scripts erg ships (sorting tables in the cross-run
			 * views, the search page's) are static text from their
			 * templates: allowed only when they load nothing and are
			 * byte for byte that text (and the search index). */
			if (!strcmp(t.name, "script") &&
			    !allowed_script(&t, s + i, e ? (size_t)(e - (s + i)) : n - i, r->pg->rel))
				bad(r, "<script> in the page that is not erg's own sort or search script");
			if (!strcmp(t.name, "style"))
				check_css(r, "style", s + i, e ? (size_t)(e - (s + i)) : n - i);
			i = e ? (size_t)(e - s) : n;
		}
	}
	if (in_notes)
		bad(r, "<!--notes--> without <!--/notes-->");
	tag_reset(&t);
	free(t.a);
}

/* Bodies of the allowed scripts: each <script> without src of the files
 * named by LINKCHECK_SCRIPT, separated by ':' (templates/views-p-sort.html,
 * templates/views-search.html); none when unset. */
static char **allowed_body;
static size_t *allowed_len, nallowed;

static void
load_allowed_script(void)
{
	const char *list = getenv("LINKCHECK_SCRIPT"), *p, *colon;
	char chunk[4096], *at, *open, *gt, *close;
	size_t k;

	for (p = list; p && *p; p = colon ? colon + 1 : p + strlen(p)) {
		struct buf b = BUF_INIT, name = BUF_INIT;
		FILE *f;

		colon = strchr(p, ':');
		buf_add(&name, p, colon ? (size_t)(colon - p) : strlen(p));
		f = fopen(name.ptr, "rb");
		buf_release(&name);
		if (!f)
			continue;
		while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&b, chunk, k);
		fclose(f);
		for (at = b.ptr; at && (open = strstr(at, "<script")) && (gt = strchr(open, '>')) &&
		     (close = strstr(gt, "</script")); at = close + 1) {
			if (memchr(open, '=', (size_t)(gt - open)))
				continue;	/* <script src=...>: not a body */
			allowed_body = xrealloc(allowed_body, (nallowed + 1) * sizeof(*allowed_body));
			allowed_len = xrealloc(allowed_len, (nallowed + 1) * sizeof(*allowed_len));
			allowed_len[nallowed] = (size_t)(close - (gt + 1));
			allowed_body[nallowed++] = xstrndup(gt + 1, (size_t)(close - (gt + 1)));
		}
		buf_release(&b);
	}
}

/*
 * One of the allowed bodies, loading nothing; or, on search/index.html
 * only, the empty script that loads its index, src="index.js" (which
 * must exist: src is checked as every link).
 */
static int
allowed_script(const struct tag *t, const char *body, size_t len, const char *rel)
{
	size_t k;
	int src = 0;

	for (k = 0; k < t->na; k++)
		if (!strcmp(t->a[k].name, "src")) {
			if (strcmp(t->a[k].val.ptr, "index.js") || strcmp(rel, "search/index.html") ||
			    len)
				return 0;
			src = 1;
		}
	if (src)
		return 1;
	for (k = 0; k < nallowed; k++)
		if (len == allowed_len[k] && !memcmp(body, allowed_body[k], len))
			return 1;
	return 0;
}

int
main(int argc, char **argv)
{
	size_t i, nfail = 0, nchecked = 0;
	struct buf *text;

	if (argc != 2) {
		fprintf(stderr, "usage: linkcheck SITE\n");
		return 2;
	}
	root = argv[1];
	load_allowed_script();
	walk("");
	qsort(pages, npages, sizeof(*pages), cmp_page);
	text = xcalloc(npages + 1, sizeof(*text));
	for (i = 0; i < npages; i++) {
		struct buf p = BUF_INIT;

		text[i] = (struct buf)BUF_INIT;
		buf_addf(&p, "%s/%s", root, pages[i].rel);
		if (read_file(p.ptr, &text[i]))
			die_errno("cannot read '%s'", p.ptr);
		if (pages[i].html)
			collect_ids(&pages[i], text[i].ptr, text[i].len);
		buf_release(&p);
	}
	for (i = 0; i < npages; i++) {
		struct report r = { &pages[i], 0 };

		if (pages[i].html)
			check_html(&r, text[i].ptr, text[i].len);
		else if (str_endswith(pages[i].rel, ".css"))
			check_css(&r, "css", text[i].ptr, text[i].len);
		else
			continue;
		nchecked++;
		if (r.nbad)
			nfail++;
		else
			printf("ok - links: %s\n", pages[i].rel);
	}
	if (!nchecked) {
		printf("not ok - links: no page found under '%s'\n", root);
		nfail++;
	}
	for (i = 0; i < npages; i++) {
		size_t k;

		for (k = 0; k < pages[i].nids; k++)
			free(pages[i].ids[k]);
		free(pages[i].ids);
		free(pages[i].rel);
		buf_release(&text[i]);
	}
	free(pages);
	free(text);
	return nfail ? 1 : 0;
}
