/*
 * view.h - what the page renderers (page_run.c, page_summary.c,
 * page_views.c) share: reading results JSON that may lack a field (the
 * one accessor set of the pages: num_of, jnum, jstr, jpath, jpath_str),
 * building template data, and the rules every page follows for its ids,
 * links and text exports, kept in one place so the pages cannot drift
 * apart.  The one-liners are static inline here, the rest is view.c.
 * Renderers use this; it knows none of their pages.  The template engine
 * does all HTML escaping.
 */
#ifndef ERG_VIEW_H
#define ERG_VIEW_H

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

/* U+2013 in ranges ("3–5"); a value not reported is numfmt.h's NUM_MISSING */
#define EN_DASH "\xe2\x80\x93"
#define MIDDOT " \xc2\xb7 "		/* U+00B7: items of one line */

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

/* o.a.b.c through nested objects ("validation.ordering.grid"); NULL when
 * a step is absent or not an object. */
const json_t *jpath(const json_t *o, const char *dotted);

static inline const char *
jpath_str(const json_t *o, const char *dotted)
{
	return json_string_value(jpath(o, dotted));
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

/* x as a one-item list, for a template section that takes a list. */
static inline json_t *
one(json_t *x)
{
	json_t *a = json_array();

	json_array_append_new(a, x);
	return a;
}

/* "../" once per directory level, for {{#each up}}../{{/each}}. */
static inline json_t *
up_list(size_t depth)
{
	json_t *a = json_array();

	while (depth--)
		json_array_append_new(a, json_true());
	return a;
}

/* ------------------------------------------------------------------ */
/* string sets: the ids of a page, the names taken in a directory */

/* The sets below and page_views.c's label counter hash with this. */
static inline uint64_t
sset_hash(const char *s)
{
	return str_hash(s, strlen(s));
}

/* Open addressing, at most half full: the index of a large archive has
 * an id per run.  { 0 } is an empty set; sset_free() releases it. */
struct sset {
	char **v;		/* slots, NULL when empty */
	size_t n, cap;		/* used, slots (0 or a power of two) */
};

int sset_has(const struct sset *set, const char *s);
/* Add a copy of s, which must not be in the set yet; the copy, owned by
 * the set until sset_free(). */
const char *sset_add(struct sset *set, const char *s);
void sset_free(struct sset *set);

/* ------------------------------------------------------------------ */
/* ids and links */

/* s for an id: [A-Za-z0-9_-] kept, any other character (not byte: a
 * UTF-8 sequence counts once) '_'; "_" for NULL or "".  Links to a row
 * survive a rebuild because the id follows the name. */
void id_sanitise(struct buf *b, const char *s);
/* Make the id in b unique in ids: b as it is, or with "-2", "-3", ...,
 * the first that is free together with b + suffix for each of suffixes
 * (NULL: none), the ids a template derives from it ("-h", "-title").
 * Adds them all; b holds the id on return.  The id, owned by ids. */
const char *id_unique(struct sset *ids, struct buf *b, const char *const *suffixes);

/* A run directory as a relative URL path: every byte outside the
 * unreserved set and '/' percent-encoded (':' too, so no segment can read
 * as a scheme, '%' too, so the name maps back to the directory). */
void url_path(struct buf *b, const char *s);
/* Depth of runs/<id>/ below the site root; -1 for an id that is not a
 * clean relative path (build.c already wrote results.json there, so this
 * only guards the links). */
long run_depth(const char *id);

/* ------------------------------------------------------------------ */
/* view values */

/* SOURCE_DATE_EPOCH as a date ("built"), or null: never the wall clock,
 * so the same archive gives the same bytes. */
json_t *build_date(void);
/* How much of iso reads as ISO 8601: 16 for a date and minutes
 * ("YYYY-MM-DDTHH:MM..."), 10 for a date, else (NULL too) 0. */
size_t iso_prefix(const char *iso);
/* model · chip (id), whichever are given; "unknown machine" if none. */
void machine_label(struct buf *b, const json_t *m);
/* Append a figure (svg, erg's own markup, taken raw) to list; svg is
 * emptied for the next chart. */
void figure(json_t *list, struct buf *svg, const char *caption);
/* The sentence every chart caption of a reconstructed session ends with
 * (results "reconstructed" set, samples on the time axis), else NULL:
 * only the published figures were measured, the samples between them
 * were placed by the rebuild. */
const char *synthetic_note(const json_t *res);
/*
 * The chart style (svg_frame.style) of target name on a page whose
 * targets are the names of targets (a results "targets" array, each with
 * a "name"): its rank among their distinct names sorted in ASCII lower
 * case, the order of the targets' keys.  So a target keeps one colour and
 * pattern in every chart of the page, whatever order a chart lists it in.
 * A name not among them ranks among them and itself.
 */
size_t target_slot(const json_t *targets, const char *name);
/* Append a definition-list group to groups; its rows, to fill. */
json_t *kv_group(json_t *groups, const char *id, const char *title);

/* ------------------------------------------------------------------ */
/* text exports */

/* Text for Markdown: what could start markup, a link, an HTML tag or
 * entity, or a column break is backslash-escaped (CommonMark allows it
 * before any ASCII punctuation), so a name stays text; line breaks become
 * spaces; other controls (C0, DEL, C1) are dropped and bidirectional
 * controls written "[U+202E]" (escaped), as on the pages (html.h).
 * Others stay as they are, to keep the file readable as plain text.
 * Nothing for NULL. */
void md_text(struct buf *b, const char *s);
/* RFC 4180: quoted when holding a comma, quote, CR or LF; "" inside.
 * Controls other than TAB, CR and LF are dropped and bidirectional
 * controls written "[U+202E]", as on the pages.  Text a spreadsheet
 * would run as a formula ("=HYPERLINK(...)", "@SUM", "-1+2", "+3-4",
 * "-cmd|...", a leading TAB, CR or LF) is quoted with a leading
 * apostrophe, so it shows as text; a cell that starts with a sign is
 * data only when it is one number of csv.h's grammar ("-5", "+5",
 * "-1e3") or the sign alone.  Counted, as a JSON string may hold a NUL
 * (dropped). */
void csv_str(struct buf *b, const char *s, size_t n);

/* The index of s in a list of names in first-seen order, added when
 * absent (a copy): the short lists of a table's targets, routes and
 * series.  Linear: for lists of a table's columns and keys, not runs. */
size_t strlist_index(char ***list, size_t *n, size_t *alloc, const char *s);
void strlist_free(char **v, size_t n);

#endif
