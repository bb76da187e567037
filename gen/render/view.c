/*
 * view.c - the helpers the page renderers share (see view.h).  Each was
 * written once per renderer before; one copy means a run page, a summary
 * page and a cross-run page cannot come to disagree on an id, a link or
 * an escaped name.  Nothing here knows a page or a template name.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "ingest/csv.h"
#include "render/html.h"
#include "render/tmpl.h"
#include "base/utf8.h"
#include "base/util.h"
#include "render/view.h"

/* ------------------------------------------------------------------ */
/* reading results */

const json_t *
jpath(const json_t *o, const char *dotted)
{
	const char *dot;
	char key[128];
	size_t n;

	for (;;) {
		dot = strchr(dotted, '.');
		n = dot ? (size_t)(dot - dotted) : strlen(dotted);
		if (n >= sizeof(key) || !json_is_object(o))
			return NULL;
		memcpy(key, dotted, n);
		key[n] = '\0';
		if (!(o = json_object_get(o, key)) || !dot)
			return o;
		dotted = dot + 1;
	}
}

/* ------------------------------------------------------------------ */
/* string sets */

int
sset_has(const struct sset *set, const char *s)
{
	size_t i;

	if (!set->cap)
		return 0;
	for (i = sset_hash(s) & (set->cap - 1); set->v[i]; i = (i + 1) & (set->cap - 1))
		if (!strcmp(set->v[i], s))
			return 1;
	return 0;
}

/* Store s (owned from now on), known to be absent: rehashing moves the
 * strings, it does not copy them again. */
static void
sset_put(struct sset *set, char *s)
{
	size_t i;

	if (2 * (set->n + 1) > set->cap) {
		struct sset bigger = { NULL, 0, set->cap ? 2 * set->cap : 64 };

		bigger.v = xcalloc(bigger.cap, sizeof(*bigger.v));
		for (i = 0; i < set->cap; i++)
			if (set->v[i])
				sset_put(&bigger, set->v[i]);
		free(set->v);
		*set = bigger;
	}
	for (i = sset_hash(s) & (set->cap - 1); set->v[i]; i = (i + 1) & (set->cap - 1))
		;
	set->v[i] = s;
	set->n++;
}

const char *
sset_add(struct sset *set, const char *s)
{
	char *copy = xstrdup(s);

	sset_put(set, copy);
	return copy;
}

void
sset_free(struct sset *set)
{
	size_t i;

	for (i = 0; i < set->cap; i++)
		free(set->v[i]);
	free(set->v);
	memset(set, 0, sizeof(*set));
}

/* ------------------------------------------------------------------ */
/* ids and links */

void
id_sanitise(struct buf *b, const char *s)
{
	if (!s || !*s) {
		buf_addch(b, '_');
		return;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_')
			buf_addch(b, (char)c);
		else if (c < 0x80 || (c & 0xc0) == 0xc0)
			buf_addch(b, '_');	/* one per character, not per byte */
	}
}

const char *
id_unique(struct sset *ids, struct buf *b, const char *const *suffixes)
{
	struct buf t = BUF_INIT;
	const char *const *sfx;
	const char *id;
	size_t base = b->len, k;
	int clash;

	for (k = 2;; k++) {
		clash = sset_has(ids, b->ptr);
		for (sfx = suffixes; !clash && sfx && *sfx; sfx++) {
			buf_reset(&t);
			buf_addf(&t, "%s%s", b->ptr, *sfx);
			clash = sset_has(ids, t.ptr);
		}
		if (!clash)
			break;
		buf_setlen(b, base);
		buf_addf(b, "-%zu", k);
	}
	id = sset_add(ids, b->ptr);
	for (sfx = suffixes; sfx && *sfx; sfx++) {
		buf_reset(&t);
		buf_addf(&t, "%s%s", b->ptr, *sfx);
		sset_add(ids, t.ptr);
	}
	buf_release(&t);
	return id;
}

void
url_path(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
		    c == '~' || c == '/')
			buf_addch(b, (char)c);
		else
			buf_addf(b, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

long
run_depth(const char *id)
{
	const char *p = id, *e;
	long d = 1;

	if (!id || !*id)
		return -1;
	while (*p) {
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		if (e == p || (e - p == 1 && p[0] == '.') ||
		    (e - p == 2 && p[0] == '.' && p[1] == '.'))
			return -1;
		d++;
		p = *e ? e + 1 : e;
	}
	return d;
}

/* ------------------------------------------------------------------ */
/* view values */

json_t *
build_date(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	int64_t t;
	long long days, era, doe, yoe, doy, mp, y, mo, d;
	char s[48];	/* three of any long long: gcc -O0 cannot see the ranges */

	if (!e || parse_i64(e, &t) || t < 0 || t >= 253402300800LL)	/* year 9999 */
		return json_null();
	/* civil_from_days (H. Hinnant): days since 1970-01-01 to a civil
	 * date, in 400-year eras from March, no time zone involved */
	days = t / 86400 + 719468;
	era = days / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	mo = mp < 10 ? mp + 3 : mp - 9;
	y = yoe + era * 400 + (mo <= 2);
	snprintf(s, sizeof(s), "%04lld-%02lld-%02lld", y, mo, d);
	return json_string_nocheck(s);
}

size_t
iso_prefix(const char *iso)
{
	size_t i;

	if (!iso || strlen(iso) < 10)
		return 0;
	for (i = 0; i < 10; i++)
		if ((i == 4 || i == 7) ? iso[i] != '-' : (iso[i] < '0' || iso[i] > '9'))
			return 0;
	if (strlen(iso) < 16 || iso[10] != 'T' || iso[13] != ':')
		return 10;
	for (i = 11; i < 16; i++)
		if (i != 13 && (iso[i] < '0' || iso[i] > '9'))
			return 10;
	return 16;
}

void
machine_label(struct buf *b, const json_t *m)
{
	const char *model = jstr(m, "model"), *chip = jstr(m, "chip"), *id = jstr(m, "id");

	if (model)
		buf_addstr(b, model);
	if (chip) {
		if (b->len)
			buf_addstr(b, MIDDOT);
		buf_addstr(b, chip);
	}
	if (id) {
		if (b->len)
			buf_addf(b, " (%s)", id);
		else
			buf_addstr(b, id);
	}
	if (!b->len)
		buf_addstr(b, "unknown machine");
}

void
figure(json_t *list, struct buf *svg, const char *caption)
{
	json_t *f = json_object();

	json_object_set_new(f, "svg", tmpl_rawn(svg->ptr, svg->len));
	set_s(f, "caption", caption);
	json_array_append_new(list, f);
	buf_reset(svg);
}

const char *
synthetic_note(const json_t *res)
{
	const json_t *r = json_object_get(res, "reconstructed");
	const char *kind = jstr(res, "kind");

	if (!r || json_is_null(r) || json_is_false(r) || (kind && !strcmp(kind, "summary")))
		return NULL;
	return "Reconstructed run: sample-level detail outside the published points is "
	       "synthetic.";
}

/* strcmp of a and b in ASCII lower case (the targets' keys). */
static int
keycmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		x = x >= 'A' && x <= 'Z' ? x + 32 : x;
		y = y >= 'A' && y <= 'Z' ? y + 32 : y;
		if (x != y || !x)
			return x - y;
	}
}

size_t
target_slot(const json_t *targets, const char *name)
{
	const json_t *t, *u;
	size_t i, j, n = 0;

	if (!name)
		return 0;
	json_array_foreach(targets, i, t) {
		const char *s = jstr(t, "name");

		if (!s || keycmp(s, name) >= 0)
			continue;
		/* count each key once: the first of its spellings */
		for (j = 0; j < i; j++) {
			u = json_array_get(targets, j);
			if (jstr(u, "name") && !keycmp(jstr(u, "name"), s))
				break;
		}
		n += j == i;
	}
	return n;
}

json_t *
kv_group(json_t *groups, const char *id, const char *title)
{
	json_t *g = json_object(), *rows = json_array();

	set_s(g, "id", id);
	set_s(g, "title", title);
	json_object_set_new(g, "wide", json_false());
	json_object_set_new(g, "rows", rows);
	json_array_append_new(groups, g);
	return rows;
}

/* ------------------------------------------------------------------ */
/* text exports */

void
md_text(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0, i, len;
	uint32_t cp;

	for (i = 0; i < n; i += len) {
		len = utf8_decode(s + i, n - i, &cp);
		if (cp == '\n' || cp == '\r' || cp == '\t')
			buf_addch(b, ' ');
		else if (utf8_is_control(cp))
			continue;
		else if (utf8_is_bidi(cp))
			buf_addf(b, "\\[U+%04lX\\]", (unsigned long)cp);
		else if (cp < 0x80 && strchr("\\`*_[]<>|!~&#", (int)cp))
			buf_addf(b, "\\%c", (char)cp);
		else
			buf_add(b, s + i, len);
	}
}

/*
 * Would a spreadsheet take s for a formula?  '=' and '@' start one, and
 * so does '+' or '-' unless the whole cell is one number of the grammar
 * of summary tables (csv.h: "-5", "+5", "-1e3" are data; "-1+2", "+3-4",
 * "-cmd|' /C calc'!A0", "+5%" are not); a lone "+" or "-" computes
 * nothing and stays.  A leading TAB, CR or LF can hide any of them
 * (OWASP, CSV injection).
 */
static int
formula_like(const char *s, size_t n)
{
	if (!n)
		return 0;
	if (s[0] == '=' || s[0] == '@' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')
		return 1;
	if (s[0] != '+' && s[0] != '-')
		return 0;
	return n > 1 && !csv_number_syntax(s, n);
}

void
csv_str(struct buf *b, const char *s, size_t n)
{
	struct buf clean = BUF_INIT;
	size_t i;
	int quote;

	/* what an export must not carry (a terminal that shows the file
	 * would obey controls); a NUL of a JSON string is dropped too */
	utf8_clean(&clean, s, n);
	s = clean.ptr;
	n = clean.len;
	quote = formula_like(s, n);
	if (!quote && !memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\r', n) &&
	    !memchr(s, '\n', n)) {
		buf_add(b, s, n);
		buf_release(&clean);
		return;
	}
	buf_addch(b, '"');
	if (quote)
		buf_addch(b, '\'');	/* shown as text, as OWASP advises */
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			buf_addch(b, '"');
		buf_addch(b, s[i]);
	}
	buf_addch(b, '"');
	buf_release(&clean);
}

size_t
strlist_index(char ***list, size_t *n, size_t *alloc, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s))
			return i;
	ALLOC_GROW(*list, *n + 1, *alloc);
	(*list)[*n] = xstrdup(s);
	return (*n)++;
}

void
strlist_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
