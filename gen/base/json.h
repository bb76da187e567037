/*
 * json.h - the one reader of JSON files (meta.json, run.json, each
 * record of timeline.jsonl, the load generators' outputs): jansson parses,
 * and every diagnostic about a value carries the file line of its member.
 *
 * jansson keeps no positions for values, so a value's line is found again
 * in the text when (and only when) a diagnostic needs it: a small scanner
 * walks the text along the value's path (member names, array indexes) and
 * counts newlines up to its key.  A missing member is reported at the
 * line of the object that should have held it.  A value is named by its
 * path from the root, "result.errors[1].count".
 */
#ifndef ERG_JSON_H
#define ERG_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "base/util.h"

struct buf;

/* A document: its text (a private copy) and its tree. */
struct jdoc {
	const char *path;
	char *text;
	size_t len;
	long line0;		/* file line of text[0], minus one */
	json_t *root;
};

/* A value inside the document: a chain of steps (member key or array
 * index) up to the root. */
struct jpos {
	const struct jpos *up;	/* NULL for the root */
	const char *key;	/* member name, or NULL for an array element */
	size_t idx;
	json_t *v;
};

#define JD_NUL     2	/* "\u0000" allowed inside strings */

/*
 * Parse text[0..len) (file line line0 + 1 onwards; a UTF-8 byte order
 * mark is skipped, as RFC 8259 allows).  Errors: "erg: path:line: error:
 * invalid JSON: ..." (jansson's words), "not a JSON object".  0, or -1
 * after one (j is then empty).  jdoc_take() takes text, which it frees.
 */
int jdoc_load(struct jdoc *j, const char *path, const char *text, size_t len, long line0,
	      int flags);
int jdoc_take(struct jdoc *j, const char *path, char *text, size_t len, long line0, int flags);
void jdoc_free(struct jdoc *j);
void jdoc_root(const struct jdoc *j, struct jpos *p);
long jdoc_line(const struct jdoc *j, const struct jpos *p);
/* p's path for messages: "result.errors[1].count" (empty for the root). */
void jdoc_name(const struct jpos *p, struct buf *b);
/* error_at(p's line, "'NAME' " fmt...) ("the document " for the root);
 * returns -1. */
int jdoc_error(const struct jdoc *j, const struct jpos *p, const char *fmt, ...) PRINTF(3, 4);

#define JD_REQ    1	/* missing is an error */
#define JD_NULL   2	/* JSON null reads as NAN (numbers) or absent (strings) */
#define JD_NONNEG 4	/* negative is an error */
/*
 * Member `key` of object o into *out (a jpos chained to o).  1 = present,
 * 0 = absent (not an error; a value *out is then left unchanged), -1 =
 * error printed.  Wrong types and negative counts are errors at the
 * member's line; a missing JD_REQ member is one at the object's line.
 */
int jdoc_get(const struct jdoc *j, const struct jpos *o, const char *key, int flags,
	     struct jpos *out);
int jdoc_object(const struct jdoc *j, const struct jpos *o, const char *key, int flags,
		struct jpos *out);
int jdoc_array(const struct jdoc *j, const struct jpos *o, const char *key, int flags,
	       struct jpos *out);
int jdoc_count(const struct jdoc *j, const struct jpos *o, const char *key, int flags,
	       double *out);	/* non-negative integer */
int jdoc_real(const struct jdoc *j, const struct jpos *o, const char *key, int flags,
	      double *out);	/* finite number */
int jdoc_string(const struct jdoc *j, const struct jpos *o, const char *key, int flags,
		char **out);	/* a copy, replacing *out */
int jdoc_count_value(const struct jdoc *j, const struct jpos *p, double *out);

/* What a value must be, and the words a message gives it. */
enum jd_kind {
	JD_STRING,
	JD_NUMBER,
	JD_COUNT,	/* a whole number from 0 to 2^53 */
	JD_SMALL,	/* a whole number from 0 to 1000000: rounds, slots, indexes */
	JD_BOOL,
	JD_OBJECT,
	JD_ARRAY,
};
/* Is the value at p of kind k?  0, or -1 after "'NAME' must be a number,
 * not a string" (or "... a whole number from 0 to 2^53, not -1") at its
 * line. */
int jdoc_check(const struct jdoc *j, const struct jpos *p, enum jd_kind k);

/* The member at a dotted path of object keys from the root
 * ("machine.os"): its position, or NULL when a step is absent or not an
 * object (at->step[at->n - 1], the deepest step found, then locates the
 * object that lacks it). */
#define JD_PATH_MAX 8
struct jd_path {
	struct jpos step[JD_PATH_MAX + 1];
	char key[JD_PATH_MAX][64];
	size_t n;
};
const struct jpos *jdoc_at(const struct jdoc *j, const char *dotted, struct jd_path *at);

/* "a string", "an integer", "null" ... for messages; "absent" for NULL. */
const char *jdoc_type_name(const json_t *v);

/*
 * A tolerant scanner over JSON text (also text jansson refused, where it
 * must not crash).  Each function takes the text t[0..n) and an offset
 * i, and returns the offset after what it skipped or read (n at the end
 * of the text); none reads past n, whatever the text.
 */
size_t jtext_skip_ws(const char *t, size_t n, size_t i);
size_t jtext_skip_value(const char *t, size_t n, size_t i);	/* any value */
/* Decode the string at t[i] == '"' into b (reset first). */
size_t jtext_string(const char *t, size_t n, size_t i, struct buf *b);
/* The value of `digits` hex digits at t[i], -1 when they are not. */
long jtext_hex(const char *t, size_t n, size_t i, int digits);

#endif
