/*
 * json.c - see json.h.  The load parsers' located reader (ljson) and the
 * scanner meta.json's member lines were found with (jsonx.c) were two;
 * every JSON file erg reads now goes through this one.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/num.h"
#include "base/utf8.h"
#include "base/util.h"

/* ---- the scanner ------------------------------------------------------ */

size_t
jtext_skip_ws(const char *t, size_t n, size_t i)
{
	while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' ||
			 t[i] == '\r'))
		i++;
	return i;
}

static size_t
skip_string(const char *t, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return n;
}

/* Past one value of any kind; iterative, so hostile nesting cannot blow
 * the stack (this also runs on text jansson has not validated). */
size_t
jtext_skip_value(const char *t, size_t n, size_t i)
{
	size_t depth = 0;

	while (i < n) {
		char c = t[i];

		if (c == '"') {
			i = skip_string(t, n, i);
			if (!depth)
				return i;
		} else if (c == '{' || c == '[') {
			depth++;
			i++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return i;
			i++;
			if (!--depth)
				return i;
		} else if (!depth && (c == ',' || c == ' ' || c == '\t' ||
				      c == '\n' || c == '\r')) {
			return i;
		} else {
			i++;
		}
	}
	return n;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long
jtext_hex(const char *t, size_t n, size_t i, int digits)
{
	long v = 0;
	int k;

	if (i + (size_t)digits > n)
		return -1;
	for (k = 0; k < digits; k++) {
		int h = hexval(t[i + (size_t)k]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* Decode the string at t[i] == '"' into b; returns the index after it. */
size_t
jtext_string(const char *t, size_t n, size_t i, struct buf *b)
{
	buf_reset(b);
	for (i++; i < n; i++) {
		char c = t[i];
		long u;

		if (c == '"')
			return i + 1;
		if (c != '\\') {
			buf_addch(b, c);
			continue;
		}
		if (++i >= n)
			break;
		switch (t[i]) {
		case 'b': buf_addch(b, '\b'); break;
		case 'f': buf_addch(b, '\f'); break;
		case 'n': buf_addch(b, '\n'); break;
		case 'r': buf_addch(b, '\r'); break;
		case 't': buf_addch(b, '\t'); break;
		case 'u':
			u = jtext_hex(t, n, i + 1, 4);
			if (u < 0) {
				buf_addch(b, 'u');
				break;
			}
			i += 4;
			if (u >= 0xd800 && u < 0xdc00 && i + 6 < n &&
			    t[i + 1] == '\\' && t[i + 2] == 'u') {
				long lo = jtext_hex(t, n, i + 3, 4);

				if (lo >= 0xdc00 && lo < 0xe000) {
					u = 0x10000 + ((u - 0xd800) << 10) +
					    (lo - 0xdc00);
					i += 6;
				}
			}
			utf8_put(b, (uint32_t)u);
			break;
		default:
			buf_addch(b, t[i]);
			break;
		}
	}
	return n;
}

/*
 * Offset of the member key (or array element) that the steps st[0..ns)
 * lead to from the root of t[0..n); when a step is not found, of the
 * deepest step found.
 */
static size_t
text_find(const char *t, size_t n, const struct jpos *const *st, size_t ns)
{
	struct buf key = BUF_INIT;
	size_t i, at, k;

	at = i = jtext_skip_ws(t, n, utf8_bom(t, n));
	for (k = 0; k < ns; k++) {
		const struct jpos *s = st[k];
		size_t idx = 0;
		int found = 0;

		if (i >= n || t[i] != (s->key ? '{' : '['))
			break;
		for (i++;;) {
			size_t kpos;

			i = jtext_skip_ws(t, n, i);
			if (i >= n || t[i] == '}' || t[i] == ']')
				break;
			kpos = i;
			if (s->key) {
				if (t[i] != '"')
					break;
				i = jtext_skip_ws(t, n, jtext_string(t, n, i, &key));
				if (i >= n || t[i] != ':')
					break;
				i = jtext_skip_ws(t, n, i + 1);
				if (!strcmp(key.ptr, s->key))
					found = 1;
			} else if (idx == s->idx) {
				found = 1;
			}
			if (found) {
				at = kpos;
				break;
			}
			i = jtext_skip_ws(t, n, jtext_skip_value(t, n, i));
			if (i >= n || t[i] != ',')
				break;
			i++;
			idx++;
		}
		if (!found)
			break;
	}
	buf_release(&key);
	return at;
}

/* ---- documents -------------------------------------------------------- */


int
jdoc_take(struct jdoc *j, const char *path, char *text, size_t len, long line0, int flags)
{
	json_error_t err;
	size_t bom = utf8_bom(text, len);
	struct jpos root;

	memset(j, 0, sizeof(*j));
	j->path = path;
	j->line0 = line0;
	j->text = text;
	j->len = len;
	/* JSON_DECODE_ANY stays off: jansson wants an object or an array */
	j->root = json_loadb(text + bom, len - bom,
			     JSON_REJECT_DUPLICATES |
			     (flags & JD_NUL ? JSON_ALLOW_NUL : 0), &err);
	if (!j->root) {
		/* a key twice is two values for one field, not a syntax slip */
		error_at(path, err.line > 0 ? line0 + err.line : 0, "%s: %s",
			 json_error_code(&err) == json_error_duplicate_key ?
			 "a field given twice" : "invalid JSON", err.text);
		jdoc_free(j);
		return -1;
	}
	if (!json_is_object(j->root)) {
		jdoc_root(j, &root);
		error_at(path, jdoc_line(j, &root), "not a JSON object");
		jdoc_free(j);
		return -1;
	}
	return 0;
}

int
jdoc_load(struct jdoc *j, const char *path, const char *text, size_t len, long line0,
	  int flags)
{
	return jdoc_take(j, path, xstrndup(text, len), len, line0, flags);
}

void
jdoc_free(struct jdoc *j)
{
	json_decref(j->root);
	free(j->text);
	j->root = NULL;
	j->text = NULL;
}

void
jdoc_root(const struct jdoc *j, struct jpos *p)
{
	p->up = NULL;
	p->key = NULL;
	p->idx = 0;
	p->v = j->root;
}

/* Offset of p's member key (or array element) in the text; for a path
 * step that cannot be found, the offset of the deepest step found. */
static size_t
locate(const struct jdoc *j, const struct jpos *p)
{
	const struct jpos *st[32], *q;
	size_t ns, k;

	for (q = p, k = 0; q && q->up; q = q->up)
		k++;
	for (q = p; k > sizeof(st) / sizeof(st[0]); k--)
		q = q->up;	/* deeper than erg ever looks: report an ancestor */
	for (ns = k; q && q->up; q = q->up)
		st[--k] = q;
	return text_find(j->text, j->len, st, ns);
}

long
jdoc_line(const struct jdoc *j, const struct jpos *p)
{
	size_t at = locate(j, p), i;
	long line = j->line0 + 1;

	for (i = 0; i < at && i < j->len; i++)
		line += j->text[i] == '\n';
	return line;
}

void
jdoc_name(const struct jpos *p, struct buf *b)
{
	if (!p || !p->up)
		return;
	jdoc_name(p->up, b);
	if (p->key) {
		if (p->up->up)
			buf_addch(b, '.');
		buf_addstr(b, p->key);
	} else {
		buf_addf(b, "[%zu]", p->idx);
	}
}

int
jdoc_error(const struct jdoc *j, const struct jpos *p, const char *fmt, ...)
{
	struct buf name = BUF_INIT, msg = BUF_INIT;
	va_list ap;

	jdoc_name(p, &name);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (name.len)
		error_at(j->path, jdoc_line(j, p), "'%s' %s", name.ptr, msg.ptr);
	else
		error_at(j->path, jdoc_line(j, p), "the document %s", msg.ptr);
	buf_release(&name);
	buf_release(&msg);
	return -1;
}

int
jdoc_get(const struct jdoc *j, const struct jpos *o, const char *key,
	  int flags, struct jpos *out)
{
	out->up = o;
	out->key = key;
	out->idx = 0;
	out->v = json_is_object(o->v) ? json_object_get(o->v, key) : NULL;
	if (out->v)
		return 1;
	if (flags & JD_REQ) {
		struct buf name = BUF_INIT;

		jdoc_name(out, &name);
		error_at(j->path, jdoc_line(j, o), "missing '%s'", name.ptr);
		buf_release(&name);
		return -1;
	}
	return 0;
}

int
jdoc_object(const struct jdoc *j, const struct jpos *o, const char *key,
	     int flags, struct jpos *out)
{
	int rc = jdoc_get(j, o, key, flags, out);

	if (rc <= 0)
		return rc;
	return jdoc_check(j, out, JD_OBJECT) ? -1 : 1;
}

int
jdoc_array(const struct jdoc *j, const struct jpos *o, const char *key,
	    int flags, struct jpos *out)
{
	int rc = jdoc_get(j, o, key, flags, out);

	if (rc <= 0)
		return rc;
	return jdoc_check(j, out, JD_ARRAY) ? -1 : 1;
}

int
jdoc_check(const struct jdoc *j, const struct jpos *p, enum jd_kind k)
{
	static const char *const want[] = {
		[JD_STRING] = "a string", [JD_NUMBER] = "a number",
		[JD_COUNT] = "a whole number", [JD_SMALL] = "a whole number",
		[JD_BOOL] = "true or false", [JD_OBJECT] = "an object", [JD_ARRAY] = "an array",
	};
	char b[NUM_TEXT_LEN];
	double x;
	int ok;

	switch (k) {
	case JD_STRING:
		ok = json_is_string(p->v);
		break;
	case JD_BOOL:
		ok = json_is_boolean(p->v);
		break;
	case JD_OBJECT:
		ok = json_is_object(p->v);
		break;
	case JD_ARRAY:
		ok = json_is_array(p->v);
		break;
	default:
		ok = json_is_number(p->v);
		break;
	}
	if (!ok)
		return jdoc_error(j, p, "must be %s, not %s", want[k], jdoc_type_name(p->v));
	x = json_is_number(p->v) ? json_number_value(p->v) : 0;
	/* past 2^53 a double no longer holds every whole number, and a count
	 * of 1e300 requests is no run's */
	if (k == JD_COUNT && (x < 0 || x != floor(x) || x > 9007199254740992.0 ||
			      (json_is_integer(p->v) && json_integer_value(p->v) > 9007199254740992LL))) {
		/* an integer as written: as a double 2^53 + 1 prints as 2^53 */
		if (json_is_integer(p->v))
			snprintf(b, sizeof(b), "%" JSON_INTEGER_FORMAT, json_integer_value(p->v));
		else
			num_text(b, x);
		return jdoc_error(j, p, "must be a whole number from 0 to 2^53, not %s", b);
	}
	if (k == JD_SMALL && (x < 0 || x != floor(x) || x > 1e6))
		return jdoc_error(j, p, "must be a whole number from 0 to 1000000, not %s",
				  num_text(b, x));
	return 0;
}

int
jdoc_count_value(const struct jdoc *j, const struct jpos *p, double *out)
{
	if (jdoc_check(j, p, JD_COUNT))
		return -1;
	*out = json_number_value(p->v);
	return 0;
}

int
jdoc_count(const struct jdoc *j, const struct jpos *o, const char *key,
	    int flags, double *out)
{
	struct jpos p;
	int rc = jdoc_get(j, o, key, flags, &p);

	if (rc <= 0)
		return rc;
	return jdoc_count_value(j, &p, out) ? -1 : 1;
}

int
jdoc_real(const struct jdoc *j, const struct jpos *o, const char *key,
	   int flags, double *out)
{
	struct jpos p;
	int rc = jdoc_get(j, o, key, flags, &p);
	double x;

	if (rc <= 0)
		return rc;
	if (json_is_null(p.v) && (flags & JD_NULL)) {
		*out = NAN;
		return 1;
	}
	if (jdoc_check(j, &p, JD_NUMBER))
		return -1;
	x = json_number_value(p.v);
	if ((flags & JD_NONNEG) && x < 0) {
		char b[NUM_TEXT_LEN];

		return jdoc_error(j, &p, "must not be negative (%s)", num_text(b, x));
	}
	*out = x;
	return 1;
}

int
jdoc_string(const struct jdoc *j, const struct jpos *o, const char *key,
	     int flags, char **out)
{
	struct jpos p;
	int rc = jdoc_get(j, o, key, flags, &p);

	if (rc <= 0)
		return rc;
	if (json_is_null(p.v) && (flags & JD_NULL))
		return 0;
	if (jdoc_check(j, &p, JD_STRING))
		return -1;
	free(*out);
	*out = xstrdup(json_string_value(p.v));
	return 1;
}

const struct jpos *
jdoc_at(const struct jdoc *j, const char *dotted, struct jd_path *at)
{
	const char *p = dotted, *dot;
	size_t len;

	jdoc_root(j, &at->step[0]);
	at->n = 1;
	while (*p && at->n <= JD_PATH_MAX) {
		struct jpos *up = &at->step[at->n - 1], *s = &at->step[at->n];
		char *key = at->key[at->n - 1];

		dot = strchr(p, '.');
		len = dot ? (size_t)(dot - p) : strlen(p);
		if (len >= sizeof(at->key[0]) || !json_is_object(up->v))
			return NULL;
		memcpy(key, p, len);
		key[len] = '\0';
		s->up = up;
		s->key = key;
		s->idx = 0;
		if (!(s->v = json_object_get(up->v, key)))
			return NULL;
		at->n++;
		if (!dot)
			return s;
		p = dot + 1;
	}
	return NULL;
}

const char *
jdoc_type_name(const json_t *v)
{
	if (!v)
		return "absent";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: return "true";
	case JSON_FALSE: return "false";
	case JSON_NULL: return "null";
	}
	return "?";
}
