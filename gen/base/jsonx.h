/*
 * jsonx.h - erg's own JSON (results, the model's meta.json tree once
 * ingest has checked it): values for output, and lookups that need no
 * diagnostics.  Files are read with base/json.h, which locates every
 * value it complains about.
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
/*
 * json_dumps(v, flags) with every real written as the shortest text that
 * reads back as the same double (num_text(): 17.87, not jansson's
 * 17.870000000000001), kept a real ("2.0", never "2"); integers and
 * strings as jansson writes them.  Any JSON_REAL_PRECISION in flags is
 * replaced.  NULL on failure; free() the result.
 */
char *jx_dumps(const json_t *v, size_t flags);

#endif
