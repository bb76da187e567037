/*
 * view.h - small accessors shared by the page renderers (render.c,
 * render_summary.c, render_views.c): reading results JSON that may lack
 * a field, and building template data.  Header-only because each is a
 * line or two; the template engine does all escaping.
 */
#ifndef ERG_VIEW_H
#define ERG_VIEW_H

#include <jansson.h>
#include <math.h>

/* A finite number, or NAN (absent, null, wrong type: "not reported"). */
static inline double
num_of(const json_t *v)
{
	double d;

	if (!v || !json_is_number(v))
		return NAN;
	d = json_number_value(v);
	return isfinite(d) ? d : NAN;
}

static inline double
jnum(const json_t *o, const char *key)
{
	return num_of(json_object_get(o, key));
}

static inline const char *
jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A view string (the escapers repair invalid UTF-8); null for NULL. */
static inline json_t *
S(const char *s)
{
	return s ? json_string_nocheck(s) : json_null();
}

static inline void
set_s(json_t *o, const char *key, const char *s)
{
	json_object_set_new(o, key, S(s));
}

#endif
