/*
 * trials.c - read the per-trial tables of a trials run (see trials.h).
 * CSV and JSONL end in one representation, a column list and rows of
 * JSON cells (null, number, string), so that one pass gives every column
 * its role and checks every cell, whichever file it came from.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/jsonx.h"
#include "base/num.h"
#include "base/path.h"
#include "base/utf8.h"
#include "base/util.h"
#include "ingest/csv.h"
#include "ingest/energy.h"
#include "ingest/input.h"
#include "ingest/session.h"
#include "ingest/summary.h"
#include "ingest/trials.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const target_names[] = { "target", "framework", "server" };
static const char *const route_names[] = { "route", "scenario", "endpoint" };
static const char *const rep_names[] = { "repetition", "round", "rep", "iteration" };
/* When each trial ran, for its energy: epoch ms, or ISO 8601 with a zone. */
static const char *const start_names[] = { "start_ms", "start" };
static const char *const end_names[] = { "end_ms", "end" };
static const char *const seq_names[] = { "sequence", "seq", "trial", "order" };
static const char *const x_names[] = { "connections", "workers", "threads", "concurrency", "clients",
				       "vus", "rate", "delay_ms", "payload_bytes",
				       "payload_size", "payload_kb" };

/* Metrics a harness writes per trial beyond the summary tables' names. */
static const struct {
	const char *name, *label, *unit;
} extra[] = {
	{ "latency_mean_ms", "Latency mean", "ms" },
	{ "latency_max_ms", "Latency max", "ms" },
	{ "p75_ms", "p75 latency", "ms" },
	{ "p90_ms", "p90 latency", "ms" },
	{ "p95_ms", "p95 latency", "ms" },
	{ "p999_ms", "p99.9 latency", "ms" },
	{ "requests", "Requests", "" },
	{ "errors", "Errors", "" },
	{ "non_2xx", "Non-2xx responses", "" },
	{ "timeouts", "Timeouts", "" },
	{ "cpu_pct", "CPU", "%" },
	{ "duration_s", "Duration", "s" },
};

/*
 * Resource metrics of one process of the trial ("server.cpu_pct" from a
 * nested JSONL object, "db_rss_mb"): the label names the process.
 */
static const struct {
	const char *suffix, *label, *unit;
} resource[] = {
	{ "cpu_pct", "CPU", "%" },
	{ "rss_mb", "RSS", "MB" },
	{ "rss_kb", "RSS", "KB" },
	{ "rss_bytes", "RSS", "bytes" },
};

/* 1 and label "CPU (server)", *unit when name is PROC.SUFFIX or PROC_SUFFIX
 * (a process name past 100 bytes is cut in the label only). */
static int
resource_column(const char *name, char label[128], const char **unit)
{
	size_t i, n = strlen(name), k;

	for (i = 0; i < sizeof(resource) / sizeof(resource[0]); i++) {
		k = strlen(resource[i].suffix);
		if (n > k + 1 && !strcmp(name + n - k, resource[i].suffix) &&
		    (name[n - k - 1] == '.' || name[n - k - 1] == '_')) {
			size_t len = n - k - 1 < 100 ? n - k - 1 : 100;

			while (len && ((unsigned char)name[len] & 0xc0) == 0x80)
				len--;	/* not inside a UTF-8 sequence */
			snprintf(label, 128, "%s (%.*s)", resource[i].label, (int)len, name);
			*unit = resource[i].unit;
			return 1;
		}
	}
	return 0;
}

static int
in_list(const char *name, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return 1;
	return 0;
}

/* A column that counts failures: a trial with one not 0 failed. */
static int
is_error_column(const char *name)
{
	static const char *const names[] = { "errors", "error", "failed", "failures",
					     "non_2xx", "non2xx", "timeouts" };

	return in_list(name, names, NELEM(names)) || str_endswith(name, "_errors") ||
	       str_endswith(name, ".errors");
}

/* The table as read: names, and rows of cells (null, number or string). */
struct raw {
	const char *path;	/* for messages */
	int csv;		/* cells are the text as written */
	char **names;
	size_t nc, ac;
	json_t **cell;		/* row-major, nc per row once complete */
	size_t nr, ar;
	long *line;
	char **unitv;		/* CSV "# units:" entries, or NULL */
};

static void
raw_free(struct raw *t)
{
	size_t i;

	for (i = 0; i < t->nr * t->nc; i++)
		json_decref(t->cell[i]);
	for (i = 0; i < t->nc; i++) {
		free(t->names[i]);
		if (t->unitv)
			free(t->unitv[i]);
	}
	free(t->names);
	free(t->unitv);
	free(t->cell);
	free(t->line);
}

static json_t *
cell_at(const struct raw *t, size_t r, size_t j)
{
	return t->cell[r * t->nc + j];
}

/* ---- CSV ---------------------------------------------------------------- */

static const char *
units_line(const struct csv_row *r)
{
	const char *u = r->f[0];

	if (*u++ != '#')
		return NULL;
	while (*u == ' ')
		u++;
	if (strncmp(u, "units:", 6))
		return NULL;
	for (u += 6; *u == ' ';)
		u++;
	return u;
}

static int
read_csv(struct raw *t, const char *text, size_t len)
{
	struct csv c = { 0 };
	size_t i, j, first = 1;
	const char *u0 = NULL;
	int rc, bad = 0;

	rc = csv_parse(t->path, text, len,
		       summary_max_rows < SIZE_MAX - 2 ? summary_max_rows + 2 : SIZE_MAX, &c);
	if (rc < 0)
		return -1;
	if (c.n > 1 && (u0 = units_line(&c.rows[1])))
		first = 2;
	if (c.n > first + summary_max_rows || rc == CSV_MORE) {
		error_at(t->path, c.n > first + summary_max_rows ? c.rows[first + summary_max_rows].line
								 : c.next_line,
			 "table has more than %zu rows (raise the limit with --max-rows)",
			 summary_max_rows);
		goto bad;
	}
	for (i = 0; i < c.n; i++)
		for (j = 0; j < c.rows[i].n; j++)
			if (!utf8_valid(c.rows[i].f[j], strlen(c.rows[i].f[j]))) {
				error_at(t->path, c.rows[i].line, "field %zu is not valid UTF-8", j + 1);
				goto bad;
			}
	if (c.n == 0 || c.rows[0].n == 0) {
		error_at(t->path, 1, "empty table: a header row naming the columns is needed");
		goto bad;
	}
	if (c.rows[0].n > TRIALS_MAX_COLUMNS) {
		error_at(t->path, c.rows[0].line, "%zu columns are more than %d", c.rows[0].n,
			 TRIALS_MAX_COLUMNS);
		goto bad;
	}
	t->nc = c.rows[0].n;
	t->names = xcalloc(t->nc, sizeof(char *));
	for (j = 0; j < t->nc; j++)
		t->names[j] = xstrdup(c.rows[0].f[j]);
	if (u0) {
		if (c.rows[1].n != t->nc) {
			error_at(t->path, c.rows[1].line,
				 "units line has %zu entr%s where the header has %zu column%s",
				 c.rows[1].n, c.rows[1].n == 1 ? "y" : "ies", t->nc,
				 t->nc == 1 ? "" : "s");
			goto bad;
		}
		t->unitv = xcalloc(t->nc, sizeof(char *));
		for (j = 0; j < t->nc; j++) {
			const char *x = j ? c.rows[1].f[j] : u0;

			while (*x == ' ')
				x++;
			t->unitv[j] = xstrdup(x);
		}
	}
	t->cell = xcalloc((c.n - first) * t->nc + 1, sizeof(json_t *));
	t->line = xcalloc(c.n - first + 1, sizeof(long));
	for (i = first; i < c.n; i++) {
		if (c.rows[i].n != t->nc) {
			bad = error_at(t->path, c.rows[i].line, "%zu fields where the header has %zu",
				       c.rows[i].n, t->nc);
			continue;
		}
		for (j = 0; j < t->nc; j++)
			t->cell[t->nr * t->nc + j] =
				*c.rows[i].f[j] ? json_string(c.rows[i].f[j]) : json_null();
		t->line[t->nr++] = c.rows[i].line;
	}
	csv_free(&c);
	return bad;
bad:
	csv_free(&c);
	return -1;
}

/* ---- JSONL -------------------------------------------------------------- */

static size_t
col_add(struct raw *t, const char *name)
{
	size_t j;

	for (j = 0; j < t->nc; j++)
		if (!strcmp(t->names[j], name))
			return j;
	ALLOC_GROW(t->names, t->nc + 1, t->ac);
	t->names[t->nc] = xstrdup(name);
	return t->nc++;
}

/* Flatten the members of o (prefix "a.b" or "") into vals, by column. */
static int
flatten(struct raw *t, const struct jdoc *doc, const struct jpos *at, const char *prefix,
	json_t ***vals, size_t *nvals)
{
	const char *k;
	json_t *v;

	json_object_foreach(at->v, k, v) {
		struct jpos p = { at, k, 0, v };
		struct buf name = BUF_INIT;
		size_t j;
		int rc = 0;

		buf_addf(&name, "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_is_object(v)) {
			rc = flatten(t, doc, &p, name.ptr, vals, nvals);
		} else if (json_is_array(v) || json_is_boolean(v)) {
			rc = jdoc_error(doc, &p, "must be a number, a string, null or an object, not %s",
					jdoc_type_name(v));
		} else if (t->nc >= TRIALS_MAX_COLUMNS && !in_list(name.ptr,
					(const char *const *)t->names, t->nc)) {
			rc = error_at(t->path, jdoc_line(doc, &p), "more than %d columns",
				      TRIALS_MAX_COLUMNS);
		} else {
			j = col_add(t, name.ptr);
			if (j >= *nvals) {
				*vals = xrealloc(*vals, (j + 1) * sizeof(json_t *));
				memset(*vals + *nvals, 0, (j + 1 - *nvals) * sizeof(json_t *));
				*nvals = j + 1;
			}
			if ((*vals)[j])
				rc = jdoc_error(doc, &p, "is given twice (as '%s' and nested)", name.ptr);
			else
				(*vals)[j] = json_incref(v);
		}
		buf_release(&name);
		if (rc)
			return -1;
	}
	return 0;
}

static int
read_jsonl(struct raw *t, const char *text, size_t len)
{
	const char *p = text + utf8_bom(text, len), *end = text + len, *nl;
	json_t ***rows = NULL;
	size_t *nv = NULL, i, j, arows = 0;
	long line = 0, *lines = NULL;
	int bad = 0;

	for (; p < end; p = nl + 1) {
		struct jdoc doc;
		struct jpos root;
		json_t **vals = NULL;
		size_t nvals = 0, n;

		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n)
			continue;
		if (t->nr >= summary_max_rows) {
			bad = error_at(t->path, line,
				       "table has more than %zu rows (raise the limit with --max-rows)",
				       summary_max_rows);
			break;
		}
		if (jdoc_load(&doc, t->path, p, n, line - 1, 0)) {
			bad = -1;
			continue;
		}
		jdoc_root(&doc, &root);
		if (flatten(t, &doc, &root, "", &vals, &nvals)) {
			for (j = 0; j < nvals; j++)
				json_decref(vals[j]);
			free(vals);
			jdoc_free(&doc);
			bad = -1;
			continue;
		}
		jdoc_free(&doc);
		ALLOC_GROW(rows, t->nr + 1, arows);
		nv = xrealloc(nv, (t->nr + 1) * sizeof(*nv));
		lines = xrealloc(lines, (t->nr + 1) * sizeof(*lines));
		rows[t->nr] = vals;
		nv[t->nr] = nvals;
		lines[t->nr] = line;
		t->nr++;
	}
	/* a member a trial leaves out is not reported there */
	t->cell = xcalloc(t->nr * t->nc + 1, sizeof(json_t *));
	for (i = 0; i < t->nr; i++) {
		for (j = 0; j < t->nc; j++) {
			json_t *v = j < nv[i] ? rows[i][j] : NULL;

			t->cell[i * t->nc + j] = v ? v : json_null();
		}
		free(rows[i]);
	}
	free(rows);
	free(nv);
	t->line = lines;
	if (!bad && !t->nr)
		bad = error_at(t->path, 0, "no trials: one JSON object per line is needed");
	return bad;
}

/* ---- columns -------------------------------------------------------------- */

static int
cell_number(const struct raw *t, json_t *v, double *out, const char **why)
{
	*why = "";
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return 0;
	}
	if (t->csv && json_is_string(v))
		return csv_number(json_string_value(v), out, why);
	return -1;
}

/* The cell as a message quotes it. */
static const char *
cell_quote(json_t *v, char *tmp)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_number(v))
		return num_text(tmp, json_number_value(v));
	return "";
}

/* Give column j its role and check its cells; its JSON, or NULL. */
static json_t *
column(struct raw *t, size_t j, json_t *units, int *seen)
{
	const char *name = t->names[j], *label = name, *unit = "", *srole = NULL, *role;
	const char *why, *s;
	int recognised = 0, numeric = 1, err = 0;
	size_t i, k;
	double v;
	char tmp[NUM_TEXT_LEN], rlabel[128];
	json_t *col;

	if (!*name)
		return error_at(t->path, t->csv ? 1 : 0, "column %zu has no name", j + 1), NULL;
	for (k = 0; k < j; k++)
		if (!strcmp(t->names[k], name)) {
			error_at(t->path, t->csv ? 1 : 0, "column '%s' named twice", name);
			return NULL;
		}
	if (summary_column(name, &label, &unit, &srole))
		recognised = 1;
	for (k = 0; !recognised && k < NELEM(extra); k++)
		if (!strcmp(extra[k].name, name)) {
			label = extra[k].label;
			unit = extra[k].unit;
			srole = "metric";
			recognised = 1;
		}
	if (!recognised && resource_column(name, rlabel, &unit)) {
		label = rlabel;
		srole = "metric";
		recognised = 1;
	}
	if (in_list(name, start_names, NELEM(start_names)) ||
	    in_list(name, end_names, NELEM(end_names))) {
		int e = in_list(name, end_names, NELEM(end_names));

		if (seen[4 + e]) {
			error_at(t->path, t->csv ? 1 : 0,
				 "'%s' and '%s' both give the trial's %s; keep one",
				 t->names[seen[4 + e] - 1], name, e ? "end" : "start");
			return NULL;
		}
		seen[4 + e] = (int)j + 1;
		role = e ? "end" : "start";
	} else if (in_list(name, target_names, NELEM(target_names)) && !seen[0]) {
		role = "target";
		seen[0] = 1;
	} else if (in_list(name, route_names, NELEM(route_names)) && !seen[1]) {
		role = "route";
		seen[1] = 1;
	} else if (in_list(name, rep_names, NELEM(rep_names))) {
		if (seen[2]) {
			error_at(t->path, t->csv ? 1 : 0,
				 "'%s' and '%s' both name the repetition; keep one",
				 t->names[seen[2] - 1], name);
			return NULL;
		}
		role = "repetition";
		seen[2] = (int)j + 1;
	} else if (in_list(name, seq_names, NELEM(seq_names)) && !seen[3]) {
		role = "sequence";
		seen[3] = 1;
	} else if (in_list(name, x_names, NELEM(x_names)) || (srole && !strcmp(srole, "x"))) {
		role = "x";
	} else if (srole && !strcmp(srole, "key")) {
		role = "key";
	} else {
		role = "metric";
	}
	if (!recognised)
		label = name;
	for (i = 0; i < t->nr; i++) {
		json_t *c = cell_at(t, i, j);

		if (json_is_null(c) || !cell_number(t, c, &v, &why))
			continue;
		numeric = 0;
		if (!strcmp(role, "x") || !strcmp(role, "repetition") || !strcmp(role, "sequence") ||
		    (recognised && !strcmp(role, "metric")) ||
		    ((!strcmp(role, "start") || !strcmp(role, "end")) && str_endswith(name, "_ms"))) {
			error_at(t->path, t->line[i], "'%s' must be a number, not '%s'%s%s%s", name,
				 cell_quote(c, tmp), *why ? " (" : "", why, *why ? ")" : "");
			return NULL;
		}
		break;
	}
	/*
	 * A column of text names the trial's cell (a runtime); one that mixes
	 * numbers and text is a metric with a stray word in it ("n/a", "-"):
	 * as a key it would split the cells by it, silently.
	 */
	if (!strcmp(role, "metric") && !numeric) {
		long num_line = 0;

		for (k = 0; k < t->nr && !num_line; k++)
			if (!json_is_null(cell_at(t, k, j)) && !cell_number(t, cell_at(t, k, j), &v, &why))
				num_line = t->line[k];
		if (num_line) {
			error_at(t->path, t->line[i], "'%s' holds numbers (line %ld) and text ('%s'): a "
				 "metric not reported in a trial is an empty cell, a name is text in "
				 "every trial", name, num_line, cell_quote(cell_at(t, i, j), tmp));
			return NULL;
		}
		role = "key";	/* text: names the trial's cell */
	}
	for (i = 0; i < t->nr; i++) {
		json_t *c = cell_at(t, i, j);

		if (!strcmp(role, "target") || !strcmp(role, "x") || !strcmp(role, "repetition") ||
		    !strcmp(role, "start") || !strcmp(role, "end")) {
			if (json_is_null(c) || (json_is_string(c) && !json_string_length(c))) {
				error_at(t->path, t->line[i], "'%s' is empty: every trial needs %s",
					 name, !strcmp(role, "target") ? "its target" :
					 !strcmp(role, "x") ? "its value of every x column" :
					 !strcmp(role, "repetition") ? "its repetition" :
					 "its start and end time");
				return NULL;
			}
		}
		if ((!strcmp(role, "start") || !strcmp(role, "end")) && !str_endswith(name, "_ms")) {
			int rc = json_is_string(c) ? en_iso_time(json_string_value(c), &v) : -1;

			if (rc) {
				error_at(t->path, t->line[i], rc == -2 ?
					 "'%s' has no time zone ('%s'): erg cannot place it on the "
					 "power data's clock (end it in Z or +HH:MM)" :
					 "'%s' must be an ISO 8601 time with a zone, not '%s'", name,
					 cell_quote(c, tmp));
				return NULL;
			}
			json_decref(c);
			t->cell[i * t->nc + j] = jx_real(v);
			continue;
		}
		if (!strcmp(role, "repetition")) {
			cell_number(t, c, &v, &why);
			if (v != floor(v) || v < 0 || v > 1000000) {
				error_at(t->path, t->line[i],
					 "'%s' must be a whole number from 0 to 1000000, not %s", name,
					 cell_quote(c, tmp));
				return NULL;
			}
		}
		if (!strcmp(role, "target") && !t->csv && !json_is_string(c)) {
			error_at(t->path, t->line[i], "'%s' must be a string, not %s", name,
				 jdoc_type_name(c));
			return NULL;
		}
		/* the cell as it will be kept: numbers in number columns, text in
		 * the others (a JSON 7 in a text column is the name "7") */
		if (json_is_null(c))
			continue;
		if (strcmp(role, "target") && strcmp(role, "route") && strcmp(role, "key")) {
			cell_number(t, c, &v, &why);
			json_decref(c);
			t->cell[i * t->nc + j] = jx_real(v);
			if (is_error_column(name) && v != 0)
				err = 1;
		} else if (json_is_number(c)) {
			t->cell[i * t->nc + j] = json_string(cell_quote(c, tmp));
			json_decref(c);
		}
	}
	if (t->unitv && *t->unitv[j])
		unit = t->unitv[j];
	else if (jx_str(units, name, &s) > 0)
		unit = s;
	col = json_object();
	json_object_set_new(col, "name", json_string(name));
	json_object_set_new(col, "label", json_string(label));
	json_object_set_new(col, "unit", json_string(unit));
	json_object_set_new(col, "recognised", json_boolean(recognised));
	json_object_set_new(col, "role", json_string(role));
	json_object_set_new(col, "numeric", json_boolean(strcmp(role, "target") &&
							 strcmp(role, "route") &&
							 strcmp(role, "key")));
	json_object_set_new(col, "error", json_boolean(!strcmp(role, "metric") &&
						       is_error_column(name)));
	(void)err;
	return col;
}

/* ---- the trials' times --------------------------------------------------- */

/* A number cell's value, NAN for an empty one. */
static double
num_at(const struct raw *t, size_t r, size_t j)
{
	json_t *v = cell_at(t, r, j);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static ssize_t
col_named(const struct raw *t, const char *name)
{
	size_t j;

	for (j = 0; j < t->nc; j++)
		if (!strcmp(t->names[j], name))
			return (ssize_t)j;
	return -1;
}

struct span {
	double start, end;
	size_t row;
};

static int
cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/*
 * Each trial's energy is the power between its start and its end: two
 * trials whose times overlap would count that energy in both (an energy
 * session's overlapping windows are an error too).  And a trial's
 * requests over its time against its rps: a factor of two apart, one of
 * them is not this trial's.  0, or -1 after a located error.
 */
static int
check_times(const struct raw *t, size_t cs, size_t ce)
{
	ssize_t cr = col_named(t, "requests"), cp = col_named(t, "rps");
	struct span *sp = xcalloc(t->nr ? t->nr : 1, sizeof(*sp));
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], c[NUM_TEXT_LEN], d[NUM_TEXT_LEN];
	size_t i;
	int bad = 0;

	for (i = 0; i < t->nr; i++) {
		sp[i].start = num_at(t, i, cs);
		sp[i].end = num_at(t, i, ce);
		sp[i].row = i;
	}
	qsort(sp, t->nr, sizeof(*sp), cmp_span);
	for (i = 1; i < t->nr && !bad; i++)
		if (sp[i].start < sp[i - 1].end)
			bad = error_at(t->path, t->line[sp[i].row], "the trial starts (%s ms) before "
				       "the one at line %ld ends (%s ms): their energy would be "
				       "counted in both", num_text(a, sp[i].start),
				       t->line[sp[i - 1].row], num_text(b, sp[i - 1].end));
	for (i = 0; cr >= 0 && cp >= 0 && i < t->nr && !bad; i++) {
		double n = num_at(t, i, (size_t)cr), rps = num_at(t, i, (size_t)cp);
		double secs = (num_at(t, i, ce) - num_at(t, i, cs)) / 1000, rate = n / secs;

		if (isnan(n) || !(rps > 0) || !(secs > 0) || (rate <= 2 * rps && rate >= rps / 2))
			continue;
		bad = error_at(t->path, t->line[i], "requests %s in the trial's %s s are %s req/s, "
			       "but its rps is %s: more than a factor of 2 apart", num_text(a, n),
			       num_text(b, secs), num_text(c, round(rate * 1000) / 1000),
			       num_text(d, rps));
	}
	free(sp);
	return bad;
}

/* Every timed trial of a run's tables, for the check across tables. */
struct tspan {
	double start, end;
	const char *table;	/* its path, owned by the list */
	long line;
};

struct tspans {
	struct tspan *v;
	size_t n, alloc;
	char **paths;
	size_t npaths, apaths;
};

static int
cmp_tspan(const void *a, const void *b)
{
	const struct tspan *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return strcmp(x->table, y->table);
}

/*
 * Across tables: one table may list the same trials as another (other
 * metrics of the same runs: the same start and end), but a trial that
 * overlaps another table's without being the same ran at the same time
 * as it, and each would be charged the whole power of the overlap, as
 * within a table (check_times).  0, or -1 after a located error.
 */
static int
check_times_across(struct tspans *all)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];
	const struct tspan *last = NULL;
	size_t i;

	if (all->n > 1)
		qsort(all->v, all->n, sizeof(*all->v), cmp_tspan);
	for (i = 0; i < all->n; i++) {
		const struct tspan *s = &all->v[i];

		if (last && s->start == last->start && s->end == last->end)
			continue;	/* the same trial in another table */
		if (last && s->start < last->end)
			return error_at(s->table, s->line, "the trial starts (%s ms) before the one "
					"at %s:%ld ends (%s ms), and is not the same trial (another "
					"start or end): their energy would be counted in both",
					num_text(a, s->start), last->table, last->line,
					num_text(b, last->end));
		if (!last || s->end > last->end)
			last = s;
	}
	return 0;
}

static void
tspans_free(struct tspans *all)
{
	size_t i;

	for (i = 0; i < all->npaths; i++)
		free(all->paths[i]);
	free(all->paths);
	free(all->v);
}

static json_t *
read_table(const char *dir, const char *rel, json_t *units, struct tspans *all)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	struct raw t;
	json_t *out = NULL, *cols, *rows, *lines;
	const char *why;
	size_t i, j;
	int seen[6] = { 0 }, metrics = 0, bad = 0;

	memset(&t, 0, sizeof(t));
	if (path_inside(dir, rel, &path, &why)) {
		error_at(dir, 0, "trials table '%s': %s", rel, why ? why : "no such file");
		goto out;
	}
	if (input_read_all(path.ptr, input_max_small, &data))
		goto out;
	t.path = path.ptr;
	t.csv = str_endswith(rel, ".csv");
	if (t.csv ? read_csv(&t, data.ptr, data.len) : read_jsonl(&t, data.ptr, data.len))
		goto out;
	cols = json_array();
	for (j = 0; j < t.nc; j++) {
		json_t *c = column(&t, j, units, seen);

		if (!c) {
			bad = 1;
			break;
		}
		metrics += !strcmp(json_string_value(json_object_get(c, "role")), "metric");
		json_array_append_new(cols, c);
	}
	if (!bad && !seen[0])
		bad = error_at(path.ptr, t.csv ? 1 : 0,
			       "no target column ('target', 'framework' or 'server')");
	if (!bad && !seen[2])
		bad = error_at(path.ptr, t.csv ? 1 : 0,
			       "no repetition column ('repetition', 'round', 'rep' or 'iteration'): "
			       "a trials table has one row per repetition");
	if (!bad && !metrics)
		bad = error_at(path.ptr, t.csv ? 1 : 0,
			       "no metric column: every column names the trial");
	if (!bad && !t.nr)
		bad = error_at(path.ptr, t.csv ? 1 : 0, "no trials: the table has no rows");
	if (!bad && !seen[4] != !seen[5])
		bad = error_at(path.ptr, t.csv ? 1 : 0, "'%s' without '%s': a trial's energy needs "
			       "both its start and its end", t.names[seen[4] + seen[5] - 1],
			       seen[4] ? "end_ms' or 'end" : "start_ms' or 'start");
	for (i = 0; !bad && seen[4] && seen[5] && i < t.nr; i++) {
		double a = json_number_value(cell_at(&t, i, (size_t)seen[4] - 1));
		double b = json_number_value(cell_at(&t, i, (size_t)seen[5] - 1));
		char ta[NUM_TEXT_LEN], tb[NUM_TEXT_LEN];

		if (!(b > a))
			bad = error_at(path.ptr, t.line[i], "the trial ends (%s ms) %s it starts "
				       "(%s ms)", num_text(tb, b), b == a ? "when" : "before",
				       num_text(ta, a));
	}
	if (!bad && seen[4] && seen[5])
		bad = check_times(&t, (size_t)seen[4] - 1, (size_t)seen[5] - 1);
	if (bad) {
		json_decref(cols);
		goto out;
	}
	if (seen[4] && seen[5]) {
		ALLOC_GROW(all->paths, all->npaths + 1, all->apaths);
		all->paths[all->npaths++] = xstrdup(path.ptr);
		for (i = 0; i < t.nr; i++) {
			ALLOC_GROW(all->v, all->n + 1, all->alloc);
			all->v[all->n].start = num_at(&t, i, (size_t)seen[4] - 1);
			all->v[all->n].end = num_at(&t, i, (size_t)seen[5] - 1);
			all->v[all->n].table = all->paths[all->npaths - 1];
			all->v[all->n++].line = t.line[i];
		}
	}
	rows = json_array();
	lines = json_array();
	for (i = 0; i < t.nr; i++) {
		json_t *row = json_array();

		for (j = 0; j < t.nc; j++)
			json_array_append(row, cell_at(&t, i, j));
		json_array_append_new(rows, row);
		json_array_append_new(lines, json_integer(t.line[i]));
	}
	out = json_object();
	json_object_set_new(out, "file", json_string(rel));
	json_object_set_new(out, "format", json_string(t.csv ? "csv" : "jsonl"));
	json_object_set_new(out, "columns", cols);
	json_object_set_new(out, "rows", rows);
	json_object_set_new(out, "lines", lines);
out:
	raw_free(&t);
	buf_release(&path);
	buf_release(&data);
	return out;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

json_t *
trials_read(const char *dir, json_t *units, int *bad)
{
	struct buf td = BUF_INIT;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	struct tspans all = { 0 };
	json_t *tables;

	buf_addf(&td, "%s/trials", dir);
	if (!path_is_dir(td.ptr)) {
		if (path_exists(td.ptr))
			*bad = error_at(td.ptr, 0, "not a directory");
		buf_release(&td);
		return NULL;
	}
	tables = json_array();
	if (!(d = opendir(td.ptr))) {
		*bad = error_errno("cannot open '%s'", td.ptr);
		buf_release(&td);
		return tables;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (!str_endswith(e->d_name, ".csv") && !str_endswith(e->d_name, ".jsonl")) {
			struct buf p = BUF_INIT;

			buf_addf(&p, "%s/%s", td.ptr, e->d_name);
			*bad = error_at(p.ptr, 0, "not a trials table (NAME.csv or NAME.jsonl)");
			buf_release(&p);
			continue;
		}
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		struct buf rel = BUF_INIT;
		json_t *t;

		buf_addf(&rel, "trials/%s", names[i]);
		if ((t = read_table(dir, rel.ptr, units, &all)))
			json_array_append_new(tables, t);
		else
			*bad = 1;
		buf_release(&rel);
		free(names[i]);
	}
	free(names);
	if (!*bad && !n)
		*bad = error_at(td.ptr, 0, "no trials table (NAME.csv or NAME.jsonl)");
	if (!*bad && check_times_across(&all))
		*bad = 1;
	tspans_free(&all);
	buf_release(&td);
	return tables;
}

int
trials_power(const char *dir, json_t *res, struct run *r)
{
	json_t *list = json_object_get(res, "power_files");
	int rc;

	memset(r, 0, sizeof(*r));
	r->dir = xstrdup(dir);
	if (json_is_array(list)) {
		json_t *erg = json_object();

		r->meta = json_object();
		json_object_set(erg, "power", list);
		json_object_set_new(r->meta, "erg", erg);
	}
	rc = session_read_power(r, dir);
	if (r->warnings)
		json_object_set(res, "warnings", r->warnings);
	return rc;
}
