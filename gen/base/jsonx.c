/*
 * jsonx.c - see jsonx.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonx.h"
#include "base/num.h"

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

char *
jx_dumps(const json_t *v, size_t flags)
{
	char *text = json_dumps(v, (flags & ~(size_t)JSON_REAL_PRECISION(31)) |
				   JSON_REAL_PRECISION(17));
	struct buf b = BUF_INIT;
	const char *s;
	int in_str = 0;

	if (!text)
		return NULL;
	/* jansson writes a real with %.17g: 17 digits, most of them noise.
	 * Outside strings, a number token with '.' or an exponent is a real. */
	for (s = text; *s;) {
		if (in_str) {
			if (*s == '\\' && s[1]) {
				buf_add(&b, s, 2);
				s += 2;
				continue;
			}
			in_str = *s != '"';
			buf_addch(&b, *s++);
		} else if (*s == '"') {
			in_str = 1;
			buf_addch(&b, *s++);
		} else if (*s == '-' || (*s >= '0' && *s <= '9')) {
			size_t n = strspn(s, "-+.0123456789eE");
			char num[NUM_TEXT_LEN], *end;
			double d;

			if (!memchr(s, '.', n) && !memchr(s, 'e', n) && !memchr(s, 'E', n)) {
				buf_add(&b, s, n);	/* an integer */
			} else if ((d = strtod(s, &end)), end == s + n && isfinite(d)) {
				num_text(num, d);
				buf_addstr(&b, num);
				if (!strpbrk(num, ".e"))
					buf_addstr(&b, ".0");
			} else {
				buf_add(&b, s, n);
			}
			s += n;
		} else {
			buf_addch(&b, *s++);
		}
	}
	free(text);
	return buf_detach(&b, NULL);
}
