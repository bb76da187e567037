/*
 * jsonx.h - typed access to jansson values from untrusted files, with the
 * diagnostics erg prints when a field has the wrong type.
 */
#ifndef ERG_JSONX_H
#define ERG_JSONX_H

#include <jansson.h>

/* 1 if present and numeric (stored in *out), 0 if absent or null,
 * -1 if present with another type or a non-finite value. */
int jx_num(json_t *obj, const char *key, double *out);
/* Same for strings; *out points into obj (not copied). */
int jx_str(json_t *obj, const char *key, const char **out);
/* A number for output: JSON null when not finite (JSON has no NaN). */
json_t *jx_real(double v);
/* A string for output: JSON null when s is NULL. */
json_t *jx_string(const char *s);
/* obj.a.b.c lookup through nested objects; NULL when absent. */
json_t *jx_path(json_t *obj, const char *dotted);
const char *jx_path_str(json_t *obj, const char *dotted);
/* Parse a JSON document (a key twice in an object is an error); on error
 * prints "erg: path:line: error: ..." */
json_t *jx_load(const char *path, const char *data, size_t len);

/* "a string", "an integer", "null" ... for messages; "absent" for NULL. */
const char *jx_type_name(const json_t *v);

/* A number for a message: an integer when whole (below 2^53), otherwise
 * the shortest %g form that reads back as v, never more than 17 digits.
 * out must hold JX_FMT_LEN bytes; returns out. */
#define JX_FMT_LEN 32
const char *jx_fmt(char *out, double v);

/*
 * A tolerant scanner over JSON text, to locate values for diagnostics
 * (jansson keeps no positions).  Each function takes the text t[0..n) and
 * an offset i, and returns the offset after what it skipped or read
 * (n at the end of the text); none reads past n, whatever the text.
 */
size_t jx_skip_ws(const char *t, size_t n, size_t i);
size_t jx_skip_value(const char *t, size_t n, size_t i);	/* any value */
/* Decode the string at t[i] == '"' into b (reset first). */
struct buf;
size_t jx_read_string(const char *t, size_t n, size_t i, struct buf *b);
/* The value of `digits` hex digits at t[i], -1 when they are not. */
long jx_hex(const char *t, size_t n, size_t i, int digits);

/* One step of a path: an object member (key), or an array element (key
 * NULL, index idx). */
struct jx_step {
	const char *key;
	size_t idx;
};
/* Offset of the member key (or element) that path st[0..ns) leads to from
 * the root; when a step is not found, of the deepest step found. */
size_t jx_text_find(const char *t, size_t n, const struct jx_step *st, size_t ns);
/* 1-based line of offset off. */
long jx_text_line(const char *t, size_t n, size_t off);
/* Line of the member at a dotted path of object keys ("machine.os"). */
long jx_member_line(const char *t, size_t n, const char *dotted);

#endif
