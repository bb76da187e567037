/*
 * summary.c - read a summary run (see summary.h) into results JSON:
 *
 *   { "run", "kind": "summary", "title", "captured_at", "machine",
 *     "software", "conditions": {"load", ...}, "source", "caveats",
 *     "notes": {"file", "markdown"}, "energy_source": "published"|"none",
 *     "tables": [ { "file", "title", "caption",
 *                   "columns": [ {"name", "label", "unit", "recognised",
 *                                 "numeric", "role", "n" when stated} ],
 *                   "rows": [ [cell, ...] ],       numbers or strings, null
 *                   "published": [ [text, ...] ],  per row and column: the
 *                                  text a number cell was published as
 *                                  ("0.1010" beside the number 0.101),
 *                                  null for every other cell
 *                   "x_column": name or null,      numeric x for line charts
 *                   "transpose": bool,             run.json: the source printed
 *                                  it with the rows as columns (pages
 *                                  show it so; the data stays as read)
 *                   "notes": [string] } ],
 *     "targets": [ { "name", "headline": {...},
 *                    "routes": [ {"name", "rps": {"mean","sd","n"}, ...} ] } ],
 *     "aliases": { "ALIAS": "CANONICAL" } only when run.json gives them
 *                (ingest/targets.h: which names are one target) }
 *
 * A figure of "targets" carries its published text too: a summary object
 * {"mean": 0.101, "published": "0.1010", "sd", "sd_published", "cv",
 * "cv_published", "n"}, a plain number KEY beside "KEY_published".
 *
 * Published figures are single values unless a column gives an SD; n is
 * what run.json states ("n": 5 for a table, or {"column": 5}), else 1 for a
 * value without an SD and null (not known) for one published with an SD:
 * an SD over 1 value says nothing.  Nothing is averaged across routes here.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/csv.h"
#include "ingest/input.h"
#include "base/json.h"
#include "base/jsonx.h"
#include "base/path.h"
#include "ingest/summary.h"
#include "ingest/targets.h"
#include "ingest/trials.h"
#include "base/util.h"
#include "base/utf8.h"

struct known {
	const char *name, *label, *unit, *role;
};

/* role: "key" (identifies a row), "x" (numeric parameter), "metric". */
static const struct known known[] = {
	{ "target", "Target", "", "key" },
	{ "route", "Route", "", "key" },
	{ "runtime", "Runtime", "", "key" },
	{ "phase", "Phase", "", "key" },
	{ "connections", "Connections", "", "x" },
	{ "workers", "Workers", "", "x" },
	{ "delay_ms", "Delay", "ms", "x" },
	{ "rps", "Throughput", "req/s", "metric" },
	{ "average_rps", "Average throughput", "req/s", "metric" },
	{ "p50_ms", "p50 latency", "ms", "metric" },
	{ "p99_ms", "p99 latency", "ms", "metric" },
	{ "rss_mb", "RSS", "MB", "metric" },
	{ "startup_ms", "Startup", "ms", "metric" },
	{ "cpu_ms_per_1k", "CPU per 1k requests", "ms", "metric" },
	{ "mj_per_req", "Energy per request", "mJ/req", "metric" },
	{ "mj_per_req_sd", "SD of energy per request", "mJ/req", "metric" },
	{ "cv", "CV", "", "metric" },
	{ "watts", "SoC power", "W", "metric" },
	{ "mj_per_mb", "Energy per MB", "mJ/MB", "metric" },
};

static const struct known *
lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

static json_t *
copy_or(json_t *o, const char *key, json_t *dflt)
{
	json_t *v = json_object_get(o, key);

	if (v) {
		json_decref(dflt);
		return json_deep_copy(v);
	}
	return dflt;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t summary_max_rows = SUMMARY_MAX_ROWS;

int
summary_column(const char *name, const char **label, const char **unit, const char **role)
{
	const struct known *k = lookup(name);

	if (!k)
		return 0;
	*label = k->label;
	*unit = k->unit;
	*role = k->role;
	return 1;
}

/*
 * A cell: empty → null; in a column of numbers a number (csv_number) →
 * number; else the text as written.  Key columns (target, route, ...) and
 * text columns keep their text even where it looks numeric: a target
 * "007" is a name, not 7, and a text column mixing "1.10" and "1.2-beta"
 * must not show "1.1".
 */
static json_t *
cell(const char *s, int numeric)
{
	const char *why;
	double v;

	if (!*s)
		return json_null();
	if (numeric && !csv_number(s, &v, &why))
		return jx_real(v);
	return json_string(s);
}

/* "# units: a,b,c": the second line, when its first field starts so. */
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

/*
 * The n a table's spec states for column name: "n": N for every column,
 * or "n": {"column": N} (checked by check_n); 0 when not stated.
 */
static json_int_t
spec_n(json_t *spec, const char *name)
{
	json_t *n = json_object_get(spec, "n");

	if (json_is_object(n))
		n = json_object_get(n, name);
	return json_is_integer(n) ? json_integer_value(n) : 0;
}

/* One n: a whole number of rounds, at least 1.  0, or -1 after an error. */
static int
check_one_n(const struct jdoc *doc, const struct jpos *p)
{
	if (jdoc_check(doc, p, JD_SMALL))
		return -1;
	if (json_integer_value(p->v) < 1)
		return jdoc_error(doc, p, "must be at least 1 (the rounds behind the figures)");
	return 0;
}

/* A table spec's "n", when it has one: N or {"column": N, ...}. */
static int
check_n(const struct jdoc *doc, const struct jpos *spec)
{
	struct jpos n, m;
	const char *k;
	json_t *x;
	int bad = 0;

	if (jdoc_get(doc, spec, "n", 0, &n) <= 0 || json_is_null(n.v))
		return 0;
	if (!json_is_object(n.v))
		return check_one_n(doc, &n);
	json_object_foreach(n.v, k, x) {
		if (jdoc_get(doc, &n, k, 0, &m) > 0 && check_one_n(doc, &m))
			bad = -1;
	}
	return bad;
}

/*
 * A heading for a column erg does not recognise and run.json does not
 * label: its name with '_' as spaces and a capital ("rss_at_rest_mb" ->
 * "Rss at rest mb" would still be a name, so a unit suffix the units
 * line already gives is dropped: "Rss at rest").
 */
static json_t *
fallback_label(const char *name, const char *unit)
{
	static const char *const sfx[] = { "_mb", "_ms", "_s", "_b", "_bytes", "_w", "_mj", NULL };
	struct buf b = BUF_INIT;
	size_t n = strlen(name), i;
	json_t *l;

	for (i = 0; sfx[i] && unit && *unit; i++) {
		size_t k = strlen(sfx[i]);

		if (n > k && !strcasecmp(name + n - k, sfx[i])) {
			n -= k;
			break;
		}
	}
	for (i = 0; i < n; i++)
		buf_addch(&b, name[i] == '_' ? ' ' : name[i]);
	if (b.len && b.ptr[0] >= 'a' && b.ptr[0] <= 'z')
		b.ptr[0] = (char)(b.ptr[0] - 'a' + 'A');
	l = json_string(b.len ? b.ptr : name);
	buf_release(&b);
	return l;
}

static json_t *
read_table(const char *dir, const char *rel, json_t *spec, json_t *units, json_t *labels)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	struct csv c = { 0 };
	json_t *t = NULL, *cols, *rows, *notes, *pub;
	const char *why, *s, *u0 = NULL;
	char **unitv = NULL;
	size_t i, j, first = 1, nunits = 0;
	int rc;

	if (path_inside(dir, rel, &path, &why)) {
		error_at(dir, 0, "table '%s': %s", rel, why ? why : "no such file");
		goto out;
	}
	if (input_read_all(path.ptr, input_max_small, &data))
		goto out;
	/* the header and a units line, then the rows: stop past the cap */
	rc = csv_parse(path.ptr, data.ptr, data.len,
		       summary_max_rows < SIZE_MAX - 2 ? summary_max_rows + 2 : SIZE_MAX, &c);
	buf_release(&data);
	if (rc < 0)
		goto out;
	if (c.n > 1 && (u0 = units_line(&c.rows[1])))
		first = 2;
	if (c.n > first + summary_max_rows || rc == CSV_MORE) {
		error_at(path.ptr, c.n > first + summary_max_rows ? c.rows[first + summary_max_rows].line
								  : c.next_line,
			 "table has more than %zu rows (raise the limit with --max-rows)",
			 summary_max_rows);
		goto done;
	}
	for (i = 0; i < c.n; i++)
		for (j = 0; j < c.rows[i].n; j++)
			if (!utf8_valid(c.rows[i].f[j], strlen(c.rows[i].f[j]))) {
				error_at(path.ptr, c.rows[i].line, "field %zu is not valid UTF-8", j + 1);
				goto done;
			}
	if (c.n == 0 || c.rows[0].n == 0) {
		error_at(path.ptr, 1, "empty table: a header row naming the columns is needed");
		goto done;
	}
	if (u0) {
		nunits = c.rows[1].n;
		if (nunits != c.rows[0].n) {
			error_at(path.ptr, c.rows[1].line,
				 "units line has %zu entr%s where the header has %zu column%s", nunits,
				 nunits == 1 ? "y" : "ies", c.rows[0].n, c.rows[0].n == 1 ? "" : "s");
			nunits = 0;
			goto done;
		}
		unitv = xcalloc(nunits, sizeof(char *));
		unitv[0] = xstrdup(u0);
		for (j = 1; j < nunits; j++) {
			const char *x = c.rows[1].f[j];

			while (*x == ' ')
				x++;
			unitv[j] = xstrdup(x);
		}
	}
	if (json_is_object(json_object_get(spec, "n"))) {
		const char *k;
		json_t *x;

		json_object_foreach(json_object_get(spec, "n"), k, x) {
			for (j = 0; j < c.rows[0].n && strcmp(c.rows[0].f[j], k); j++)
				;
			if (j == c.rows[0].n) {
				error_at(path.ptr, 1, "run.json gives 'n' for column '%s', which this "
					 "table does not have", k);
				goto done;
			}
		}
	}
	t = json_object();
	cols = json_array();
	rows = json_array();
	pub = json_array();
	notes = json_array();
	json_object_set_new(t, "file", json_string(rel));
	json_object_set_new(t, "title", copy_or(spec, "title", json_null()));
	json_object_set_new(t, "caption", copy_or(spec, "caption", json_null()));
	json_object_set_new(t, "x_column", json_null());
	json_object_set_new(t, "transpose", json_boolean(json_is_true(json_object_get(spec,
										   "transpose"))));
	for (j = 0; j < c.rows[0].n; j++) {
		const char *name = c.rows[0].f[j];
		const struct known *k = lookup(name);
		json_t *col = json_object();
		const char *unit = k ? k->unit : "";

		size_t q;

		if (!*name) {
			error_at(path.ptr, c.rows[0].line, "column %zu has no name", j + 1);
			json_decref(col);
			goto bad_table;
		}
		for (q = 0; q < j; q++)
			if (!strcmp(c.rows[0].f[q], name)) {
				error_at(path.ptr, c.rows[0].line, "column '%s' named twice", name);
				json_decref(col);
				goto bad_table;
			}
		if (j < nunits && *unitv[j])
			unit = unitv[j];
		else if (jx_str(units, name, &s) > 0)
			unit = s;
		json_object_set_new(col, "name", json_string(name));
		/* run.json's label first: the source's heading ("RSS at rest") */
		if (jx_str(labels, name, &s) > 0 && *s)
			json_object_set_new(col, "label", json_string(s));
		else if (k)
			json_object_set_new(col, "label", json_string(k->label));
		else
			json_object_set_new(col, "label", fallback_label(name, unit));
		json_object_set_new(col, "unit", json_string(unit));
		json_object_set_new(col, "recognised", json_boolean(k != NULL));
		json_object_set_new(col, "role", json_string(k ? k->role : "metric"));
		if (spec_n(spec, name))
			json_object_set_new(col, "n", json_integer(spec_n(spec, name)));
		if (k && !strcmp(k->role, "x") && json_is_null(json_object_get(t, "x_column")))
			json_object_set_new(t, "x_column", json_string(name));
		if (!strcmp(name, "average_rps") || !strcasecmp(name, "average"))
			json_array_append_new(notes, json_sprintf(
				"'%s' is an unweighted average over heterogeneous routes, as published: "
				"routes with different costs count equally, so it is not a throughput "
				"anyone measured", name));
		json_array_append_new(cols, col);
	}
	/*
	 * A recognised value column must hold numbers (or nothing); a column
	 * erg does not know is numeric when every cell is a number, else text
	 * shown as written, so no cell is ever read as a number it is not.
	 */
	for (j = 0; j < json_array_size(cols); j++) {
		json_t *col = json_array_get(cols, j);
		const char *role = json_string_value(json_object_get(col, "role"));
		int numeric = 1, recognised = json_is_true(json_object_get(col, "recognised"));
		double v;

		for (i = first; i < c.n; i++) {
			const char *f;

			if (c.rows[i].n != c.rows[0].n)
				continue;
			f = c.rows[i].f[j];
			if (!*f || !csv_number(f, &v, &why))
				continue;
			numeric = 0;
			if (recognised && strcmp(role, "key")) {
				error_at(path.ptr, c.rows[i].line, "column '%s' must hold numbers, not '%s'%s%s%s",
					 json_string_value(json_object_get(col, "name")), f,
					 *why ? " (" : "", why, *why ? ")" : "");
				break;
			}
		}
		json_object_set_new(col, "numeric", json_boolean(numeric && strcmp(role, "key")));
		if (!numeric && !recognised)
			json_object_set_new(col, "role", json_string("text"));
	}
	/* rows after the columns: whether a column is numeric decides its cells */
	for (i = first; i < c.n; i++) {
		json_t *row, *prow;

		if (c.rows[i].n != c.rows[0].n) {
			error_at(path.ptr, c.rows[i].line, "%zu fields where the header has %zu",
				 c.rows[i].n, c.rows[0].n);
			continue;
		}
		row = json_array();
		prow = json_array();
		for (j = 0; j < c.rows[i].n; j++) {
			json_t *x = cell(c.rows[i].f[j], json_is_true(json_object_get(
				json_array_get(cols, j), "numeric")));

			json_array_append_new(prow, json_is_number(x) ? json_string(c.rows[i].f[j])
								    : json_null());
			json_array_append_new(row, x);
		}
		json_array_append_new(rows, row);
		json_array_append_new(pub, prow);
	}
	json_object_set_new(t, "columns", cols);
	json_object_set_new(t, "rows", rows);
	json_object_set_new(t, "published", pub);
	json_object_set_new(t, "notes", notes);
	goto done;
bad_table:
	json_decref(cols);
	json_decref(rows);
	json_decref(pub);
	json_decref(notes);
	json_decref(t);
	t = NULL;
done:
	csv_free(&c);
out:
	for (j = 0; j < nunits; j++)
		free(unitv[j]);
	free(unitv);
	buf_release(&path);
	buf_release(&data);
	return t;
}

static int
col_index(json_t *t, const char *name)
{
	json_t *cols = json_object_get(t, "columns"), *c;
	size_t i;

	json_array_foreach(cols, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name))
			return (int)i;
	return -1;
}

/* The published text of cell (r, c) of table t, or NULL. */
static json_t *
pub_text(json_t *t, size_t r, int c)
{
	json_t *x = c < 0 ? NULL : json_array_get(json_array_get(json_object_get(t, "published"), r),
						  (size_t)c);

	return json_is_string(x) ? x : NULL;
}

/* The n stated for column c of t, or NULL. */
static json_t *
col_n(json_t *t, int c)
{
	json_t *n = c < 0 ? NULL : json_object_get(json_array_get(json_object_get(t, "columns"),
								   (size_t)c), "n");

	return json_is_integer(n) ? n : NULL;
}

static json_t *
one_value(json_t *v, json_t *text)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", json_is_number(v) ? json_copy(v) : json_null());
	if (text)
		json_object_set(o, "published", text);
	json_object_set_new(o, "sd", json_null());
	json_object_set_new(o, "n", json_integer(json_is_number(v) ? 1 : 0));
	return o;
}

/*
 * The target named name, appended to targets when new.  index maps names
 * to {"t": target, "r": {route name: route}}, so that a table of many
 * rows finds its targets and routes in constant time, not by a scan.
 */
static json_t *
get_target(json_t *targets, json_t *index, const char *name, json_t **routes_index)
{
	json_t *e = json_object_get(index, name), *t;

	if (e) {
		*routes_index = json_object_get(e, "r");
		return json_object_get(e, "t");
	}
	t = json_object();
	json_object_set_new(t, "name", json_string(name));
	json_object_set_new(t, "headline", json_object());
	json_object_set_new(t, "routes", json_array());
	json_array_append_new(targets, t);
	e = json_object();
	json_object_set(e, "t", t);
	*routes_index = json_object();
	json_object_set_new(e, "r", *routes_index);
	json_object_set_new(index, name, e);
	return t;
}

/*
 * Cross-run views need target x route figures.  Taken only from tables
 * keyed by target (and route) without a numeric x column, so a sweep over
 * connections or workers is not mistaken for one figure per target.
 */
static void
derive_targets(json_t *tables, json_t *targets)
{
	json_t *t, *row, *index = json_object(), *rindex;
	size_t i, k;
	static const char *const metrics[] = { "rps", "p50_ms", "p99_ms", "rss_mb",
					       "startup_ms", "cpu_ms_per_1k", "mj_per_req",
					       "watts", "mj_per_mb" };

	json_array_foreach(tables, i, t) {
		int ct = col_index(t, "target"), cr = col_index(t, "route");
		int csd = col_index(t, "mj_per_req_sd"), ccv = col_index(t, "cv");
		size_t r;

		if (ct < 0 || !json_is_null(json_object_get(t, "x_column")))
			continue;
		if (json_array_size(json_object_get(t, "rows")) > SUMMARY_VIEW_MAX_ROWS) {
			json_array_append_new(json_object_get(t, "notes"), json_sprintf(
				"not in the cross-run views: %zu rows are more than they compare "
				"(at most %d)", json_array_size(json_object_get(t, "rows")),
				SUMMARY_VIEW_MAX_ROWS));
			continue;
		}
		json_array_foreach(json_object_get(t, "rows"), r, row) {
			json_t *name = json_array_get(row, (size_t)ct), *tg, *dst;
			const char *route = NULL;

			if (!json_is_string(name))
				continue;
			tg = get_target(targets, index, json_string_value(name), &rindex);
			if (cr >= 0 && json_is_string(json_array_get(row, (size_t)cr)))
				route = json_string_value(json_array_get(row, (size_t)cr));
			if (route) {
				dst = json_object_get(rindex, route);
				if (!dst) {
					dst = json_object();
					json_object_set_new(dst, "name", json_string(route));
					json_object_set_new(dst, "per", json_string("request"));
					json_array_append_new(json_object_get(tg, "routes"), dst);
					json_object_set(rindex, route, dst);
				}
			} else {
				dst = json_object_get(tg, "headline");
			}
			for (k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++) {
				int c = col_index(t, metrics[k]);
				json_t *o;

				if (c < 0 || !json_is_number(json_array_get(row, (size_t)c)))
					continue;
				if (json_object_get(dst, metrics[k])) {
					error("%s: %s of '%s'%s%s given twice (a second table or row); "
					      "keep one figure per target and route",
					      json_string_value(json_object_get(t, "file")), metrics[k],
					      json_string_value(name), route ? " route " : "",
					      route ? route : "");
					continue;
				}
				/* Same shapes as an energy session's results: a summary
				 * (mean, sd, n) for rps per route and for mJ/req, plain
				 * numbers elsewhere. */
				if (strcmp(metrics[k], "mj_per_req") &&
				    (strcmp(metrics[k], "rps") || !route)) {
					char key[64];

					json_object_set(dst, metrics[k], json_array_get(row, (size_t)c));
					snprintf(key, sizeof(key), "%s_published", metrics[k]);
					if (pub_text(t, r, c))
						json_object_set(dst, key, pub_text(t, r, c));
					continue;
				}
				o = one_value(json_array_get(row, (size_t)c), pub_text(t, r, c));
				if (!strcmp(metrics[k], "mj_per_req")) {
					if (csd >= 0 && json_is_number(json_array_get(row, (size_t)csd))) {
						json_object_set(o, "sd", json_array_get(row, (size_t)csd));
						if (pub_text(t, r, csd))
							json_object_set(o, "sd_published", pub_text(t, r, csd));
						/* an SD over an unknown number of rounds, not 1 */
						json_object_set_new(o, "n", json_null());
					}
					if (ccv >= 0 && json_is_number(json_array_get(row, (size_t)ccv))) {
						/* results hold a CV as a fraction; a column
						 * published in percent keeps its text */
						double cv = json_number_value(json_array_get(row, (size_t)ccv));
						const char *u = json_string_value(json_object_get(
							json_array_get(json_object_get(t, "columns"),
								       (size_t)ccv), "unit"));

						if (u && !strcmp(u, "%"))
							cv /= 100;
						json_object_set_new(o, "cv", jx_real(cv));
						if (pub_text(t, r, ccv))
							json_object_set(o, "cv_published", pub_text(t, r, ccv));
					}
				}
				if (col_n(t, c))
					json_object_set(o, "n", col_n(t, c));
				json_object_set_new(dst, metrics[k], o);
			}
		}
	}
	json_decref(index);
}

/* n ASCII digits at s, as a number; -1 when one is not a digit. */
static int
num_at(const char *s, size_t n)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int
month_days(int y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/*
 * Is s a date as published: YYYY, YYYY-MM, YYYY-MM-DD, or a date and
 * time YYYY-MM-DDTHH:MM[:SS[.fraction]] with an optional Z or +HH:MM /
 * -HH:MM (ISO 8601 / RFC 3339, seconds up to 60 for a leap second)?  And
 * a real one: month 1-12, a day the month has (leap years by the
 * Gregorian rule), hours 0-23, minutes 0-59.  0, or -1 with why.
 */
static int
check_date(const char *s, struct buf *why)
{
	size_t n = strlen(s), i;
	int y, m, d;

	if (n != 4 && n != 7 && n < 10)
		goto form;
	if ((y = num_at(s, 4)) < 0)
		goto form;
	if (n == 4)
		return 0;
	if (s[4] != '-' || (m = num_at(s + 5, 2)) < 0)
		goto form;
	if (m < 1 || m > 12) {
		buf_addf(why, "no month %02d", m);
		return -1;
	}
	if (n == 7)
		return 0;
	if (s[7] != '-' || (d = num_at(s + 8, 2)) < 0)
		goto form;
	if (d < 1 || d > month_days(y, m)) {
		buf_addf(why, "%.7s has %d days", s, month_days(y, m));
		return -1;
	}
	if (n == 10)
		return 0;
	/* THH:MM */
	if (n < 16 || s[10] != 'T' || s[13] != ':' || num_at(s + 11, 2) < 0 || num_at(s + 14, 2) < 0)
		goto form;
	if (num_at(s + 11, 2) > 23 || num_at(s + 14, 2) > 59)
		goto time;
	i = 16;
	if (s[i] == ':') {
		if (num_at(s + i + 1, 2) < 0)
			goto form;
		if (num_at(s + i + 1, 2) > 60)
			goto time;
		i += 3;
		if (s[i] == '.') {
			if (num_at(s + i + 1, 1) < 0)
				goto form;
			for (i++; s[i] >= '0' && s[i] <= '9'; i++)
				;
		}
	}
	if (s[i] == 'Z') {
		i++;
	} else if (s[i] == '+' || s[i] == '-') {
		if (num_at(s + i + 1, 2) < 0 || s[i + 3] != ':' || num_at(s + i + 4, 2) < 0)
			goto form;
		if (num_at(s + i + 1, 2) > 23 || num_at(s + i + 4, 2) > 59)
			goto time;
		i += 6;
	}
	if (i == n)
		return 0;
form:
	buf_addstr(why, "not YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM...");
	return -1;
time:
	buf_addstr(why, "no such time of day");
	return -1;
}

json_t *
summary_read(const char *dir, const char *id)
{
	struct buf path = BUF_INIT, data = BUF_INIT, full = BUF_INIT;
	json_t *run = NULL, *res = NULL, *tables, *specs, *spec, *units, *labels, *notes, *cond, *v;
	json_t *aliases = NULL;
	struct jdoc doc = { 0 };
	struct jpos root, p, q, sp;
	const char *s = NULL, *why, *k;
	long nline = 0;
	size_t i;
	int bad = 0, errors0 = diag_thread_errors();

	buf_addf(&path, "%s/run.json", dir);
	/* duplicate keys: the last wins, as browsers and JS read them */
	if (input_read_all(path.ptr, input_max_small, &data) ||
	    jdoc_load(&doc, path.ptr, data.ptr, data.len, 0, 0))
		goto out;
	run = doc.root;
	jdoc_root(&doc, &root);
	{
		static const char *const strs[] = { "title", "date" };
		static const char *const objs[] = { "software", "load", "conditions", "source", "units",
						    "labels" };
		struct buf why = BUF_INIT;

		/* every error at the member's line; a missing one at the line
		 * of the object that lacks it */
		for (i = 0; i < 2; i++)
			if (jdoc_get(&doc, &root, strs[i], JD_REQ, &p) < 0 ||
			    (p.v && jdoc_check(&doc, &p, JD_STRING)))
				bad = -1;
		if (jdoc_get(&doc, &root, "date", 0, &p) > 0 && json_is_string(p.v) &&
		    check_date(json_string_value(p.v), &why))
			bad = jdoc_error(&doc, &p, "'%s' is not a real date (%s)",
					 json_string_value(p.v), why.ptr);
		buf_release(&why);
		if (jdoc_object(&doc, &root, "machine", JD_REQ, &p) <= 0 ||
		    jdoc_get(&doc, &p, "id", JD_REQ, &q) < 0 ||
		    (q.v && jdoc_check(&doc, &q, JD_STRING)))
			bad = -1;
		for (i = 0; i < 6; i++)
			if (jdoc_get(&doc, &root, objs[i], 0, &p) > 0 && !json_is_null(p.v) &&
			    jdoc_check(&doc, &p, JD_OBJECT))
				bad = -1;
		/* a unit or label is a string: another type would be dropped unseen */
		for (i = 0; i < 2; i++)
			if (jdoc_get(&doc, &root, i ? "labels" : "units", 0, &p) > 0 &&
			    json_is_object(p.v))
				json_object_foreach(p.v, k, v) {
					struct jpos u = { &p, k, 0, v };

					if (jdoc_check(&doc, &u, JD_STRING))
						bad = -1;
				}
		if (jdoc_get(&doc, &root, "caveats", 0, &p) > 0 && jdoc_check(&doc, &p, JD_ARRAY))
			bad = -1;
		if (targets_run_aliases(&doc, &root, &aliases))
			bad = -1;
		if (bad)
			goto out;
	}
	res = json_object();
	json_object_set_new(res, "run", json_string(id));
	json_object_set_new(res, "kind", json_string("summary"));
	json_object_set_new(res, "title", copy_or(run, "title", json_null()));
	json_object_set_new(res, "captured_at", copy_or(run, "date", json_null()));
	json_object_set_new(res, "machine", copy_or(run, "machine", json_object()));
	json_object_set_new(res, "software", copy_or(run, "software", json_object()));
	cond = copy_or(run, "conditions", json_object());
	if (json_object_get(run, "load"))
		json_object_set(cond, "load", json_object_get(run, "load"));
	json_object_set_new(res, "conditions", cond);
	json_object_set_new(res, "source", copy_or(run, "source", json_null()));
	json_object_set_new(res, "caveats", copy_or(run, "caveats", json_array()));
	json_object_set_new(res, "reconstructed", json_null());
	if (aliases)
		json_object_set_new(res, "aliases", aliases);
	aliases = NULL;
	units = json_object_get(run, "units");
	labels = json_object_get(run, "labels");

	notes = json_object();
	s = "notes.md";
	if (jdoc_get(&doc, &root, "notes", 0, &p) > 0 && !json_is_null(p.v)) {
		if (jdoc_check(&doc, &p, JD_STRING))
			bad = 1;
		else
			s = json_string_value(p.v);
		nline = jdoc_line(&doc, &p);
	}
	switch (path_inside(dir, s, &full, &why)) {
	case 0:
		buf_reset(&data);
		if (input_read_all(full.ptr, input_max_small, &data))
			bad = 1;
		json_object_set_new(notes, "file", json_string(s));
		json_object_set_new(notes, "markdown", json_stringn(data.ptr, data.len));
		break;
	case -2:
		if (nline) {
			error_at(path.ptr, nline, "notes file '%s' does not exist", s);
			bad = 1;
		}
		json_object_set_new(notes, "file", json_null());
		json_object_set_new(notes, "markdown", json_null());
		break;
	default:
		error_at(path.ptr, nline, "notes file '%s': %s", s, why);
		bad = 1;
	}
	json_object_set_new(res, "notes", notes);

	tables = json_array();
	specs = NULL;
	if (jdoc_get(&doc, &root, "tables", 0, &p) > 0 && jdoc_check(&doc, &p, JD_ARRAY)) {
		bad = 1;	/* and no tables of a list that is not one */
	} else if ((specs = p.v)) {
		json_array_foreach(specs, i, spec) {
			json_t *t;

			sp.up = &p;
			sp.key = NULL;
			sp.idx = i;
			sp.v = spec;
			if (!json_is_object(spec) || jdoc_get(&doc, &sp, "file", 0, &q) <= 0 ||
			    !json_is_string(q.v)) {
				jdoc_error(&doc, &sp, "has no 'file'");
				bad = 1;
				continue;
			}
			s = json_string_value(q.v);
			if (check_n(&doc, &sp)) {
				bad = 1;
				continue;
			}
			/* true or false; null is as absent (false) */
			if (jdoc_get(&doc, &sp, "transpose", 0, &q) > 0 && !json_is_null(q.v) &&
			    jdoc_check(&doc, &q, JD_BOOL)) {
				bad = 1;
				continue;
			}
			if ((t = read_table(dir, s, spec, units, labels)))
				json_array_append_new(tables, t);
			else
				bad = 1;
		}
	} else {
		/* every tables/NAME.csv, in name order */
		struct buf td = BUF_INIT;
		DIR *d;
		struct dirent *e;
		char **names = NULL;
		size_t n = 0, alloc = 0;

		buf_addf(&td, "%s/tables", dir);
		if ((d = opendir(td.ptr))) {
			while ((e = readdir(d)))
				if (e->d_name[0] != '.' && str_endswith(e->d_name, ".csv")) {
					ALLOC_GROW(names, n + 1, alloc);
					names[n++] = xstrdup(e->d_name);
				}
			closedir(d);
		}
		if (n > 1)
			qsort(names, n, sizeof(*names), cmp_str);
		for (i = 0; i < n; i++) {
			struct buf rel = BUF_INIT;
			json_t *t;

			buf_addf(&rel, "tables/%s", names[i]);
			if ((t = read_table(dir, rel.ptr, NULL, units, labels)))
				json_array_append_new(tables, t);
			else
				bad = 1;
			buf_release(&rel);
			free(names[i]);
		}
		free(names);
		buf_release(&td);
	}
	/* a trials run: the same run.json, and one row per trial */
	if ((v = trials_read(dir, units, &bad))) {
		/* the page of a trials run shows its trials: tables beside them
		 * would be left off it unseen */
		if (json_array_size(tables))
			bad = error_at(dir, 0, "holds both summary tables and 'trials/'; keep "
				       "one kind of run per directory");
		json_object_set_new(res, "kind", json_string("trials"));
		json_object_set_new(res, "trials", v);
		json_object_set_new(res, "centre", json_string("mean"));
		if (jdoc_get(&doc, &root, "centre", 0, &p) > 0 && !json_is_null(p.v)) {
			if (jdoc_check(&doc, &p, JD_STRING))
				bad = 1;
			else if (strcmp(json_string_value(p.v), "mean") &&
				 strcmp(json_string_value(p.v), "median"))
				bad = jdoc_error(&doc, &p, "must be 'mean' or 'median', not '%s'",
						 json_string_value(p.v));
			else
				json_object_set(res, "centre", p.v);
		}
		/* the power files of its energy per trial, when not found by name */
		if (jdoc_get(&doc, &root, "power", 0, &p) > 0 && !json_is_null(p.v)) {
			if (jdoc_check(&doc, &p, JD_ARRAY)) {
				bad = 1;
			} else {
				json_array_foreach(p.v, i, spec) {
					struct jpos u = { &p, NULL, i, spec };
					int rc;

					if (jdoc_check(&doc, &u, JD_STRING)) {
						bad = 1;
						continue;
					}
					rc = path_inside(dir, json_string_value(spec), &full, &why);
					if (rc)
						bad = jdoc_error(&doc, &u, "names '%s', %s",
								 json_string_value(spec),
								 rc == -2 ? "which the run does not have" :
								 why);
				}
				json_object_set(res, "power_files", p.v);
			}
		}
	}
	if (!bad && json_array_size(tables) == 0 && !json_object_get(res, "trials") &&
	    json_is_null(json_object_get(notes, "markdown"))) {
		error_at(path.ptr, 0, "a summary run needs a table (tables/NAME.csv) or notes");
		bad = 1;
	}
	json_object_set_new(res, "tables", tables);
	{
		json_t *targets = json_array(), *t;
		int energy = 0;

		derive_targets(tables, targets);
		json_array_foreach(targets, i, t)
			if (json_object_get(json_object_get(t, "headline"), "mj_per_req"))
				energy = 1;
		json_object_set_new(res, "targets", targets);
		json_object_set_new(res, "energy_source", json_string(energy ? "published" : "none"));
	}
	json_object_set_new(res, "measurements", json_array());
	json_object_set_new(res, "idle_windows", json_array());
out:
	json_decref(aliases);
	jdoc_free(&doc);
	buf_release(&path);
	buf_release(&data);
	buf_release(&full);
	if (res && (bad || diag_thread_errors() > errors0)) {
		json_decref(res);
		res = NULL;
	}
	return res;
}
