/*
 * jsonx.c - see jsonx.h.  The scanner below walks JSON text that jansson
 * has already validated (or text of a damaged file, where it must not
 * crash): jansson keeps no positions for values, so a value's line is
 * found again in the text when, and only when, a diagnostic needs it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonx.h"
#include "util.h"

int
jx_num(json_t *obj, const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return isfinite(*out) ? 1 : -1;
}

int
jx_str(json_t *obj, const char *key, const char **out)
{
	json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = json_string_value(v);
	return 1;
}

json_t *
jx_real(double v)
{
	if (!isfinite(v))
		return json_null();
	/* Whole numbers below 2^53 as integers keep counts readable. */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *
jx_string(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *
jx_path(json_t *obj, const char *dotted)
{
	char key[128];
	const char *p = dotted, *dot;
	size_t n;

	while (obj && *p) {
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		obj = json_is_object(obj) ? json_object_get(obj, key) : NULL;
		p += n + (dot ? 1 : 0);
		if (!dot)
			break;
	}
	return obj;
}

const char *
jx_path_str(json_t *obj, const char *dotted)
{
	json_t *v = jx_path(obj, dotted);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

json_t *
jx_load(const char *path, const char *data, size_t len)
{
	json_error_t err;
	json_t *j;
	size_t k;

	/* RFC 8259 lets a parser ignore a byte order mark; jansson refuses it. */
	k = utf8_bom(data, len);
	data += k;
	len -= k;
	/* A key given twice is refused: browsers and JS keep the last
	 * silently, but two values for one field contradict each other. */
	j = json_loadb(data, len, JSON_REJECT_DUPLICATES, &err);
	if (!j)
		error_at(path, err.line > 0 ? err.line : 0, "invalid JSON: %s", err.text);
	return j;
}

/* ---- a tolerant scanner over JSON text (see jsonx.h) -------------------- */

size_t
jx_skip_ws(const char *t, size_t n, size_t i)
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
jx_skip_value(const char *t, size_t n, size_t i)
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
jx_hex(const char *t, size_t n, size_t i, int digits)
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

static void
add_utf8(struct buf *b, unsigned long c)
{
	if (c < 0x80) {
		buf_addch(b, (int)c);
	} else if (c < 0x800) {
		buf_addch(b, (int)(0xc0 | (c >> 6)));
		buf_addch(b, (int)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		buf_addch(b, (int)(0xe0 | (c >> 12)));
		buf_addch(b, (int)(0x80 | ((c >> 6) & 0x3f)));
		buf_addch(b, (int)(0x80 | (c & 0x3f)));
	} else {
		buf_addch(b, (int)(0xf0 | (c >> 18)));
		buf_addch(b, (int)(0x80 | ((c >> 12) & 0x3f)));
		buf_addch(b, (int)(0x80 | ((c >> 6) & 0x3f)));
		buf_addch(b, (int)(0x80 | (c & 0x3f)));
	}
}

/* Decode the string at t[i] == '"' into b; returns the index after it. */
size_t
jx_read_string(const char *t, size_t n, size_t i, struct buf *b)
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
			u = jx_hex(t, n, i + 1, 4);
			if (u < 0) {
				buf_addch(b, 'u');
				break;
			}
			i += 4;
			if (u >= 0xd800 && u < 0xdc00 && i + 6 < n &&
			    t[i + 1] == '\\' && t[i + 2] == 'u') {
				long lo = jx_hex(t, n, i + 3, 4);

				if (lo >= 0xdc00 && lo < 0xe000) {
					u = 0x10000 + ((u - 0xd800) << 10) +
					    (lo - 0xdc00);
					i += 6;
				}
			}
			add_utf8(b, (unsigned long)u);
			break;
		default:
			buf_addch(b, t[i]);
			break;
		}
	}
	return n;
}

size_t
jx_text_find(const char *t, size_t n, const struct jx_step *st, size_t ns)
{
	struct buf key = BUF_INIT;
	size_t i, at, k;

	at = i = jx_skip_ws(t, n, utf8_bom(t, n));
	for (k = 0; k < ns; k++) {
		const struct jx_step *s = &st[k];
		size_t idx = 0;
		int found = 0;

		if (i >= n || t[i] != (s->key ? '{' : '['))
			break;
		for (i++;;) {
			size_t kpos;

			i = jx_skip_ws(t, n, i);
			if (i >= n || t[i] == '}' || t[i] == ']')
				break;
			kpos = i;
			if (s->key) {
				if (t[i] != '"')
					break;
				i = jx_skip_ws(t, n, jx_read_string(t, n, i, &key));
				if (i >= n || t[i] != ':')
					break;
				i = jx_skip_ws(t, n, i + 1);
				if (!strcmp(key.ptr, s->key))
					found = 1;
			} else if (idx == s->idx) {
				found = 1;
			}
			if (found) {
				at = kpos;
				break;
			}
			i = jx_skip_ws(t, n, jx_skip_value(t, n, i));
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

long
jx_text_line(const char *t, size_t n, size_t off)
{
	long line = 1;
	size_t i;

	for (i = 0; i < off && i < n; i++)
		line += t[i] == '\n';
	return line;
}

long
jx_member_line(const char *t, size_t n, const char *dotted)
{
	struct jx_step st[8];
	char key[8][128];
	const char *p = dotted, *dot;
	size_t ns = 0, len;

	while (*p && ns < sizeof(st) / sizeof(st[0])) {
		dot = strchr(p, '.');
		len = dot ? (size_t)(dot - p) : strlen(p);
		if (len >= sizeof(key[0]))
			break;
		memcpy(key[ns], p, len);
		key[ns][len] = '\0';
		st[ns].key = key[ns];
		st[ns].idx = 0;
		ns++;
		if (!dot)
			break;
		p = dot + 1;
	}
	return jx_text_line(t, n, jx_text_find(t, n, st, ns));
}

const char *
jx_type_name(const json_t *v)
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

const char *
jx_fmt(char *out, double v)
{
	int prec;

	if (isnan(v))
		return strcpy(out, "NaN");
	/* Whole numbers below 2^53 as integers, anything else in the fewest
	 * significant digits that read back as the same double (at most
	 * 17, so never hundreds of digits). */
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(out, JX_FMT_LEN, "%.0f", v);
		return out;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(out, JX_FMT_LEN, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return out;
	}
	snprintf(out, JX_FMT_LEN, "%.17g", v);
	return out;
}
