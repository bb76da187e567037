/*
 * load_json.c - JSON plumbing for the load parsers: loading with jansson,
 * rewriting Go's %q escapes, and locating any value by its path so that
 * every diagnostic carries a file line.
 *
 * jansson keeps no positions for values, so a value's line is found again
 * in the text when (and only when) a diagnostic needs it: a small scanner
 * walks the already-validated text along the path (member names, array
 * indexes) and counts newlines up to the member's key.  A missing member is
 * reported at the line of the object that should have held it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/jsonx.h"
#include "base/num.h"
#include "ingest/load.h"

unsigned
ljson_top_keys(const char *t, size_t n, size_t i, int *complete)
{
	static const struct {
		const char *key;
		unsigned bit;
	} known[] = {
		{ "spec", LK_SPEC }, { "result", LK_RESULT },
		{ "summary", LK_SUMMARY }, { "latencyPercentiles", LK_LATPCT },
		{ "statusCodeDistribution", LK_STATUSDIST },
		{ "connections", LK_CONNECTIONS }, { "latency", LK_LATENCY },
		{ "requests", LK_REQUESTS }, { "throughput", LK_THROUGHPUT },
		{ "sampleInt", LK_SAMPLEINT },
	};
	struct buf key = BUF_INIT;
	unsigned bits = 0;
	size_t k;

	*complete = 0;
	if (i >= n || t[i] != '{')
		return 0;
	for (i++;;) {
		i = jx_skip_ws(t, n, i);
		if (i < n && t[i] == '}') {
			*complete = 1;
			break;
		}
		if (i >= n || t[i] != '"')
			break;
		i = jx_skip_ws(t, n, jx_read_string(t, n, i, &key));
		if (i >= n || t[i] != ':')
			break;
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (!strcmp(key.ptr, known[k].key))
				bits |= known[k].bit;
		i = jx_skip_ws(t, n, jx_skip_value(t, n, jx_skip_ws(t, n, i + 1)));
		if (i < n && t[i] == ',') {
			i++;
			continue;
		}
		if (i < n && t[i] == '}')
			*complete = 1;
		break;
	}
	buf_release(&key);
	return bits;
}

/* ---- Go %q escapes --------------------------------------------------- */

/*
 * bombardier writes strings with Go's %q, whose escapes JSON lacks: \a, \v,
 * \xNN (a control byte, or a byte of invalid UTF-8) and \UXXXXXXXX.  They
 * are rewritten inside strings as \u escapes before jansson sees the text;
 * \xNN >= 0x80 becomes U+00NN (the byte read as Latin-1: the original bytes
 * were not UTF-8, so nothing better exists).  No newline is added or
 * removed, so jansson's line numbers stay file lines.  Returns NULL when
 * nothing needed rewriting.
 */
static char *
go_unescape(const char *t, size_t n, size_t *outlen)
{
	struct buf b = BUF_INIT;
	size_t i, done = 0;
	int in_str = 0, changed = 0;

	for (i = 0; i < n; i++) {
		long v;
		char e;

		if (!in_str) {
			in_str = t[i] == '"';
			continue;
		}
		if (t[i] == '"') {
			in_str = 0;
			continue;
		}
		if (t[i] != '\\' || i + 1 >= n)
			continue;
		e = t[i + 1];
		if (e == 'a' || e == 'v') {
			v = e == 'a' ? 7 : 11;
			buf_add(&b, t + done, i - done);
			buf_addf(&b, "\\u%04lx", v);
			done = i + 2;
			changed = 1;
		} else if (e == 'x' && (v = jx_hex(t, n, i + 2, 2)) >= 0) {
			buf_add(&b, t + done, i - done);
			buf_addf(&b, "\\u%04lx", v);
			done = i + 4;
			changed = 1;
		} else if (e == 'U' && (v = jx_hex(t, n, i + 2, 8)) >= 0 &&
			   v <= 0x10ffff) {
			buf_add(&b, t + done, i - done);
			if (v < 0x10000) {
				buf_addf(&b, "\\u%04lx", v);
			} else {
				v -= 0x10000;
				buf_addf(&b, "\\u%04lx\\u%04lx", 0xd800 + (v >> 10),
					 0xdc00 + (v & 0x3ff));
			}
			done = i + 10;
			changed = 1;
		}
		i++;	/* skip the escaped character (or the escape letter) */
	}
	if (!changed) {
		buf_release(&b);
		return NULL;
	}
	buf_add(&b, t + done, n - done);
	return buf_detach(&b, outlen);
}

/* ---- documents ------------------------------------------------------- */

int
ljson_load(struct ljson *j, const char *path, const char *text, size_t len,
	   long line0, int go_escapes)
{
	json_error_t err;
	char *fixed = NULL;
	size_t flen = 0;

	memset(j, 0, sizeof(*j));
	j->path = path;
	j->line0 = line0;
	if (go_escapes)
		fixed = go_unescape(text, len, &flen);
	if (fixed) {
		j->text = fixed;
		j->len = flen;
	} else {
		j->text = xstrndup(text, len);
		j->len = len;
	}
	/*
	 * JSON_DECODE_ANY stays off (the root must be an object or array);
	 * duplicate keys are refused (no tool writes them, so they mean a
	 * damaged file); NUL is allowed inside strings because Go's \x00
	 * becomes \u0000 above.
	 */
	j->root = json_loadb(j->text, j->len,
			     JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
	if (!j->root) {
		error_at(path, err.line > 0 ? line0 + err.line : 0,
			 "invalid JSON: %s", err.text);
		ljson_free(j);
		return -1;
	}
	if (!json_is_object(j->root)) {
		struct jpos root;

		ljson_root(j, &root);
		ljson_error(j, &root, "must be a JSON object");
		ljson_free(j);
		return -1;
	}
	return 0;
}

void
ljson_free(struct ljson *j)
{
	json_decref(j->root);
	free(j->text);
	j->root = NULL;
	j->text = NULL;
}

void
ljson_root(struct ljson *j, struct jpos *p)
{
	p->up = NULL;
	p->key = NULL;
	p->idx = 0;
	p->v = j->root;
}

/* Offset of p's member key (or array element) in the text; for a path
 * step that cannot be found, the offset of the deepest step found. */
static size_t
locate(const struct ljson *j, const struct jpos *p)
{
	struct jx_step st[32];
	const struct jpos *q;
	size_t ns, k;

	for (q = p, k = 0; q && q->up; q = q->up)
		k++;
	for (q = p; k > sizeof(st) / sizeof(st[0]); k--)
		q = q->up;	/* deeper than erg ever looks: report an ancestor */
	for (ns = k; q && q->up; q = q->up) {
		k--;
		st[k].key = q->key;
		st[k].idx = q->idx;
	}
	return jx_text_find(j->text, j->len, st, ns);
}

long
ljson_line(const struct ljson *j, const struct jpos *p)
{
	size_t at = locate(j, p), i;
	long line = j->line0 + 1;

	for (i = 0; i < at && i < j->len; i++)
		line += j->text[i] == '\n';
	return line;
}

void
ljson_name(const struct jpos *p, struct buf *b)
{
	if (!p || !p->up)
		return;
	ljson_name(p->up, b);
	if (p->key) {
		if (p->up->up)
			buf_addch(b, '.');
		buf_addstr(b, p->key);
	} else {
		buf_addf(b, "[%zu]", p->idx);
	}
}

int
ljson_error(const struct ljson *j, const struct jpos *p, const char *fmt, ...)
{
	struct buf name = BUF_INIT, msg = BUF_INIT;
	va_list ap;

	ljson_name(p, &name);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (name.len)
		error_at(j->path, ljson_line(j, p), "'%s' %s", name.ptr, msg.ptr);
	else
		error_at(j->path, ljson_line(j, p), "the document %s", msg.ptr);
	buf_release(&name);
	buf_release(&msg);
	return -1;
}

int
ljson_get(const struct ljson *j, const struct jpos *o, const char *key,
	  int flags, struct jpos *out)
{
	out->up = o;
	out->key = key;
	out->idx = 0;
	out->v = json_is_object(o->v) ? json_object_get(o->v, key) : NULL;
	if (out->v)
		return 1;
	if (flags & LJ_REQ) {
		struct buf name = BUF_INIT;

		ljson_name(out, &name);
		error_at(j->path, ljson_line(j, o), "missing '%s'", name.ptr);
		buf_release(&name);
		return -1;
	}
	return 0;
}

int
ljson_object(const struct ljson *j, const struct jpos *o, const char *key,
	     int flags, struct jpos *out)
{
	int rc = ljson_get(j, o, key, flags, out);

	if (rc <= 0)
		return rc;
	if (!json_is_object(out->v))
		return ljson_error(j, out, "must be an object, not %s",
				   jx_type_name(out->v));
	return 1;
}

int
ljson_array(const struct ljson *j, const struct jpos *o, const char *key,
	    int flags, struct jpos *out)
{
	int rc = ljson_get(j, o, key, flags, out);

	if (rc <= 0)
		return rc;
	if (!json_is_array(out->v))
		return ljson_error(j, out, "must be an array, not %s",
				   jx_type_name(out->v));
	return 1;
}

int
ljson_count_value(const struct ljson *j, const struct jpos *p, double *out)
{
	if (json_is_integer(p->v)) {
		json_int_t x = json_integer_value(p->v);

		if (x < 0)
			return ljson_error(j, p, "must not be negative (%lld)",
					   (long long)x);
		*out = (double)x;
		return 0;
	}
	if (json_is_real(p->v)) {
		double x = json_real_value(p->v);

		char b[NUM_TEXT_LEN];

		if (x < 0)
			return ljson_error(j, p, "must not be negative (%s)",
					   num_text(b, x));
		if (x != floor(x))
			return ljson_error(j, p, "must be a whole number, not %s",
					   num_text(b, x));
		*out = x;
		return 0;
	}
	return ljson_error(j, p, "must be a non-negative integer, not %s",
			   jx_type_name(p->v));
}

int
ljson_count(const struct ljson *j, const struct jpos *o, const char *key,
	    int flags, double *out)
{
	struct jpos p;
	int rc = ljson_get(j, o, key, flags, &p);

	if (rc <= 0)
		return rc;
	return ljson_count_value(j, &p, out) ? -1 : 1;
}

int
ljson_real(const struct ljson *j, const struct jpos *o, const char *key,
	   int flags, double *out)
{
	struct jpos p;
	int rc = ljson_get(j, o, key, flags, &p);
	double x;

	if (rc <= 0)
		return rc;
	if (json_is_null(p.v) && (flags & LJ_NULL)) {
		*out = NAN;
		return 1;
	}
	if (!json_is_number(p.v))
		return ljson_error(j, &p, "must be a number, not %s",
				   jx_type_name(p.v));
	x = json_number_value(p.v);
	if ((flags & LJ_NONNEG) && x < 0) {
		char b[NUM_TEXT_LEN];

		return ljson_error(j, &p, "must not be negative (%s)", num_text(b, x));
	}
	*out = x;
	return 1;
}

int
ljson_string(const struct ljson *j, const struct jpos *o, const char *key,
	     int flags, char **out)
{
	struct jpos p;
	int rc = ljson_get(j, o, key, flags, &p);

	if (rc <= 0)
		return rc;
	if (json_is_null(p.v) && (flags & LJ_NULL))
		return 0;
	if (!json_is_string(p.v))
		return ljson_error(j, &p, "must be a string, not %s",
				   jx_type_name(p.v));
	free(*out);
	*out = xstrdup(json_string_value(p.v));
	return 1;
}
