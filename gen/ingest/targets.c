/* targets.c - one target under several names (see targets.h). */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/path.h"
#include "base/utf8.h"
#include "base/util.h"
#include "ingest/input.h"
#include "ingest/targets.h"

static void
fold(struct buf *b, const char *s)
{
	buf_reset(b);
	for (; *s; s++)
		buf_addch(b, *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s);
}

/* Do a and b differ other than by ASCII case?  Not strcasecmp: it
 * follows the locale. */
static int
fold_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		x = x >= 'A' && x <= 'Z' ? (unsigned char)(x - 'A' + 'a') : x;
		y = y >= 'A' && y <= 'Z' ? (unsigned char)(y - 'A' + 'a') : y;
		if (x != y || !x)
			return (x > y) - (x < y);
	}
}

/* One "alias = canonical" as given, wherever it came from. */
struct entry {
	char *alias, *canonical, *akey, *ckey;
	long line;
};

static int
cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = strcmp(a->akey, b->akey);

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

static int
cmp_alias(const void *pa, const void *pb)
{
	return strcmp(((const struct target_alias *)pa)->key,
		      ((const struct target_alias *)pb)->key);
}

/* The first entry (by line) of alias key akey in e[0..n), sorted by
 * cmp_entry(); NULL when there is none. */
static const struct entry *
entry_find(const struct entry *e, size_t n, const char *akey)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(e[mid].akey, akey) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(e[lo].akey, akey) ? &e[lo] : NULL;
}

/* An alias that maps to another name, not one that fixes a spelling. */
static int
is_alias(const struct entry *e)
{
	return strcmp(e->akey, e->ckey) != 0;
}

/*
 * Check the entries (path: where they come from; lines are theirs) and
 * build the table.  Every problem is reported; 0 or -1.
 */
static int
build_table(const char *path, struct entry *e, size_t n, struct target_aliases *out)
{
	size_t i, j;
	int rc = 0;

	if (n > 1)
		qsort(e, n, sizeof(*e), cmp_entry);
	for (i = 1; i < n; i++)
		if (!strcmp(e[i].akey, e[i - 1].akey))
			rc = !strcmp(e[i].ckey, e[i - 1].ckey) ?
				     error_at(path, e[i].line, "alias '%s' is given twice (also line %ld)",
					      e[i].alias, e[i - 1].line) :
				     error_at(path, e[i].line, "alias '%s' names both '%s' (line %ld) and '%s'",
					      e[i].alias, e[i - 1].canonical, e[i - 1].line,
					      e[i].canonical);
	for (i = 0; i < n; i++) {
		const struct entry *f;

		for (j = 0; j < n; j++)
			if (j != i && !strcmp(e[j].ckey, e[i].ckey) &&
			    strcmp(e[j].canonical, e[i].canonical) && e[j].line < e[i].line)
				break;
		if (j < n) {
			rc = error_at(path, e[i].line, "canonical name '%s' is spelled '%s' on line %ld; "
				      "spell it one way", e[i].canonical, e[j].canonical, e[j].line);
			continue;
		}
		if (!is_alias(&e[i]) || !(f = entry_find(e, n, e[i].ckey)) || !is_alias(f))
			continue;
		if (!strcmp(f->ckey, e[i].akey)) {
			/* a cycle of two: said once, at its later line */
			if (f->line < e[i].line)
				rc = error_at(path, e[i].line, "'%s' and '%s' are aliases of each "
					      "other (line %ld): a cycle", e[i].alias, f->alias,
					      f->line);
		} else {
			rc = error_at(path, e[i].line, "canonical name '%s' is itself an alias of "
				      "'%s' (line %ld); name the final target", e[i].canonical,
				      f->canonical, f->line);
		}
	}
	if (rc)
		return -1;
	for (i = 0; i < n; i++) {
		ALLOC_GROW(out->v, out->n + 2, out->alloc);
		out->v[out->n].key = xstrdup(e[i].akey);
		out->v[out->n].canonical = xstrdup(e[i].canonical);
		out->v[out->n].line = e[i].line;
		out->n++;
		/* the canonical maps to itself: its spelling is the table's */
		if (is_alias(&e[i]) && !entry_find(e, n, e[i].ckey)) {
			for (j = 0; j < out->n && strcmp(out->v[j].key, e[i].ckey); j++)
				;
			if (j == out->n) {
				out->v[out->n].key = xstrdup(e[i].ckey);
				out->v[out->n].canonical = xstrdup(e[i].canonical);
				out->v[out->n].line = e[i].line;
				out->n++;
			}
		}
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_alias);
	return 0;
}

static void
entries_free(struct entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(e[i].alias);
		free(e[i].canonical);
		free(e[i].akey);
		free(e[i].ckey);
	}
	free(e);
}

static void
entry_set(struct entry *e, const char *alias, size_t na, const char *canon, size_t nc, long line)
{
	struct buf b = BUF_INIT;

	e->alias = xstrndup(alias, na);
	e->canonical = xstrndup(canon, nc);
	fold(&b, e->alias);
	e->akey = xstrdup(b.ptr);
	fold(&b, e->canonical);
	e->ckey = xstrdup(b.ptr);
	e->line = line;
	buf_release(&b);
}

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* s[0..*n) without blanks at either end. */
static const char *
trim(const char *s, size_t *n)
{
	while (*n && blank(*s)) {
		s++;
		(*n)--;
	}
	while (*n && blank(s[*n - 1]))
		(*n)--;
	return s;
}

int
targets_read(const char *archive, struct target_aliases *out)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct entry *e = NULL;
	size_t n = 0, alloc = 0;
	char *p, *eol;
	long line = 0;
	int rc = 0;

	buf_addf(&path, "%s/%s", archive, TARGETS_FILE);
	if (!path_exists(path.ptr))
		goto out;
	if (input_read_all(path.ptr, input_max_small, &text)) {
		rc = -1;
		goto out;
	}
	if (memchr(text.ptr, '\0', text.len)) {
		rc = error_at(path.ptr, 0, "holds a NUL byte: not a text file");
		goto out;
	}
	for (p = text.ptr; p < text.ptr + text.len; p = eol + 1) {
		const char *a, *c, *eq;
		size_t na, nc;
		char *q;

		line++;
		eol = memchr(p, '\n', (size_t)(text.ptr + text.len - p));
		if (!eol)
			eol = text.ptr + text.len;
		*eol = '\0';
		/* '#' after a blank or at the start: "C#" is a name */
		for (q = p; *q; q++)
			if (*q == '#' && (q == p || blank(q[-1]))) {
				*q = '\0';
				break;
			}
		na = strlen(p);
		trim(p, &na);
		if (!na)
			continue;
		if (!(eq = strchr(p, '='))) {
			rc = error_at(path.ptr, line, "expected 'alias = canonical name', found no '='");
			continue;
		}
		if (strchr(eq + 1, '=')) {
			rc = error_at(path.ptr, line, "more than one '=' (expected 'alias = canonical "
				      "name')");
			continue;
		}
		na = (size_t)(eq - p);
		a = trim(p, &na);
		nc = strlen(eq + 1);
		c = trim(eq + 1, &nc);
		if (!na || !nc) {
			rc = error_at(path.ptr, line, "empty %s", !na ? "alias" : "canonical name");
			continue;
		}
		if (!utf8_valid(a, na) || !utf8_valid(c, nc)) {
			rc = error_at(path.ptr, line, "not UTF-8");
			continue;
		}
		ALLOC_GROW(e, n + 1, alloc);
		entry_set(&e[n++], a, na, c, nc, line);
	}
	if (!rc)
		rc = build_table(path.ptr, e, n, out);
out:
	entries_free(e, n);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

void
targets_free(struct target_aliases *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].key);
		free(t->v[i].canonical);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

int
targets_run_aliases(const struct jdoc *doc, const struct jpos *root, json_t **out)
{
	struct target_aliases t = { NULL, 0, 0 };
	struct entry *e = NULL;
	struct jpos p;
	const char *k;
	json_t *v;
	size_t n = 0;
	int rc = 0;

	*out = NULL;
	if (jdoc_get(doc, root, "aliases", 0, &p) <= 0 || json_is_null(p.v))
		return 0;
	if (jdoc_check(doc, &p, JD_OBJECT))
		return -1;
	e = xcalloc(json_object_size(p.v) + 1, sizeof(*e));
	json_object_foreach(p.v, k, v) {
		struct jpos m = { &p, k, 0, v };

		if (jdoc_check(doc, &m, JD_STRING)) {
			rc = -1;
			continue;
		}
		if (!*k || !*json_string_value(v)) {
			rc = error_at(doc->path, jdoc_line(doc, &m), "empty %s",
				      !*k ? "alias" : "canonical name");
			continue;
		}
		entry_set(&e[n++], k, strlen(k), json_string_value(v), json_string_length(v),
			  jdoc_line(doc, &m));
	}
	if (!rc)
		rc = build_table(doc->path, e, n, &t);
	if (!rc)
		*out = json_deep_copy(p.v);
	targets_free(&t);
	entries_free(e, n);
	return rc;
}

const char *
target_canonical(const struct target_aliases *archive, const json_t *run_aliases,
		 const char *name)
{
	const char *k, *s = name;
	json_t *v;

	json_object_foreach((json_t *)run_aliases, k, v)
		if (json_is_string(v) && !fold_cmp(k, name)) {
			s = json_string_value(v);
			break;
		}
	if (archive && archive->n) {
		struct buf b = BUF_INIT;
		struct target_alias key, *hit;

		fold(&b, s);
		key.key = b.ptr;
		hit = bsearch(&key, archive->v, archive->n, sizeof(*archive->v), cmp_alias);
		buf_release(&b);
		if (hit)
			s = hit->canonical;
	}
	return s;
}

void
target_key(const struct target_aliases *archive, const json_t *run_aliases, const char *name,
	   struct buf *b)
{
	fold(b, target_canonical(archive, run_aliases, name));
}

int
targets_check_run(const struct target_aliases *archive, const json_t *res, const char *where)
{
	const json_t *ts = json_object_get(res, "targets"), *al = json_object_get(res, "aliases");
	size_t n = json_array_size(ts), i, j;
	char **keys = xcalloc(n + 1, sizeof(*keys));
	struct buf b = BUF_INIT;
	int rc = 0;

	for (i = 0; i < n; i++) {
		const char *name = json_string_value(json_object_get(json_array_get(ts, i), "name"));

		if (!name)
			continue;
		target_key(archive, al, name, &b);
		keys[i] = xstrdup(b.ptr);
		for (j = 0; j < i && rc == 0; j++)
			if (keys[j] && !strcmp(keys[j], keys[i]))
				rc = error_at(where, 0, "targets '%s' and '%s' of this run are one "
					      "target (names are compared ignoring ASCII case, "
					      "after the aliases of targets.txt and run.json); "
					      "a page could show only one of them",
					      json_string_value(json_object_get(json_array_get(ts, j),
										"name")),
					      name);
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	buf_release(&b);
	return rc;
}
