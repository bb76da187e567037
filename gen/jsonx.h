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
/* Parse a JSON document; on error prints "erg: path:line: error: ..." */
json_t *jx_load(const char *path, const char *data, size_t len);

#endif
