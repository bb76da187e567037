/*
 * diff_html.c - the HTML page of a comparison (see diff_html.h).  The
 * view holds ready strings: the figures from diff_cells.c and the names
 * as they are, which the template escapes.  Environment values, the
 * only-in lists and the unit notes are the text outputs' cleaned strings
 * (controls as '?'), so every output shows the same characters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/jsonx.h"
#include "base/util.h"
#include "ingest/input.h"
#include "render/diff_cells.h"
#include "render/diff_html.h"
#include "render/tmpl.h"
#include "render/view.h"

#define CSS_MAX (1u << 20)
/* What diff.html puts in every page's head, and diff_html_is_ours() finds. */
#define GENERATOR "<meta name=\"generator\" content=\"erg\">"

struct diff_html {
	struct tmpl *t;
	char *style;		/* "<style>\n...</style>" */
};

/*
 * Why css cannot be inlined into a page, or NULL: "</" could end the
 * <style> element, a NUL is not text, and @import or a url() other than
 * data: or #fragment would load something from outside.
 */
static const char *
css_refusal(const struct buf *css)
{
	const char *q;

	if (memchr(css->ptr, '\0', css->len))
		return "a NUL byte";
	if (strstr(css->ptr, "</"))
		return "'</'";
	for (q = css->ptr; *q; q++) {
		if (*q == '@' && !strncasecmp(q + 1, "import", 6))
			return "@import";
		if ((*q == 'u' || *q == 'U') && !strncasecmp(q, "url(", 4)) {
			const char *v = q + 4;

			while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r' || *v == '\f' ||
			       *v == '"' || *v == '\'')
				v++;
			if (strncasecmp(v, "data:", 5) && *v != '#')
				return "a url() to another resource";
		}
	}
	return NULL;
}

/* Append dir/name to out, if it may be inlined.  0 or -1. */
static int
add_sheet(struct buf *out, const char *dir, const char *name)
{
	struct buf p = BUF_INIT, css = BUF_INIT;
	const char *why;
	int rc = -1;

	buf_addf(&p, "%s/%s", dir, name);
	if (input_read_all(p.ptr, CSS_MAX, &css))
		goto out;
	if ((why = css_refusal(&css))) {
		error_at(p.ptr, 0, "holds %s and cannot be inlined in a page's <style>", why);
		goto out;
	}
	buf_add(out, css.ptr, css.len);
	rc = 0;
out:
	buf_release(&p);
	buf_release(&css);
	return rc;
}

struct diff_html *
diff_html_load(const char *dir, int standalone)
{
	struct diff_html *h = xcalloc(1, sizeof(*h));
	struct buf style = BUF_INIT;

	buf_addstr(&style, "<style>\n");
	if (!(h->t = tmpl_load(dir, "diff")) ||
	    (standalone && add_sheet(&style, dir, "erg.css")) || add_sheet(&style, dir, "diff.css")) {
		buf_release(&style);
		diff_html_free(h);
		return NULL;
	}
	buf_addstr(&style, "</style>");
	h->style = buf_detach(&style, NULL);
	return h;
}

void
diff_html_free(struct diff_html *h)
{
	if (!h)
		return;
	tmpl_free(h->t);
	free(h->style);
	free(h);
}

/* Text as it is: the template escapes it. */
static void
as_is(struct buf *b, const char *s)
{
	buf_addstr(b, s ? s : "");
}

static json_t *
side_view(const char *which, json_t *s)
{
	json_t *o = json_object();
	int summary = json_is_null(json_object_get(s, "rounds"));
	char what[64];

	set_s(o, "which", which);
	set_s(o, "run", jx_path_str(s, "run"));
	json_object_set_new(o, "has_title", json_boolean(jx_path_str(s, "title") != NULL));
	set_s(o, "title", jx_path_str(s, "title"));
	json_object_set_new(o, "has_date", json_boolean(jx_path_str(s, "captured_at") != NULL));
	set_s(o, "date_word", summary ? "dated" : "captured");
	set_s(o, "date", jx_path_str(s, "captured_at"));
	set_s(o, "machine", jx_path_str(s, "machine"));
	if (summary)
		snprintf(what, sizeof(what), "summary run: figures as published, no rounds");
	else
		snprintf(what, sizeof(what), "%.0f round%s", dcell_num(s, "rounds"),
			 dcell_num(s, "rounds") == 1 ? "" : "s");
	set_s(o, "what", what);
	return o;
}

static void
env_view(json_t *view, json_t *d)
{
	json_t *env = json_object_get(d, "environment");
	json_t *diffs = json_object_get(env, "differences"), *rows = json_array();
	struct buf b = BUF_INIT;
	size_t i;

	dcell_groups(&b, env);
	set_s(view, "env_groups", b.ptr);
	buf_reset(&b);
	dcell_count(&b, diffs);
	set_s(view, "env_count", b.ptr);
	for (i = 0; i < json_array_size(diffs); i++) {
		json_t *e = json_array_get(diffs, i), *r = json_object();

		set_s(r, "field", jx_path_str(e, "field"));
		buf_reset(&b);
		dcell_env_value(&b, json_object_get(e, "a"));
		set_s(r, "a", b.ptr);
		buf_reset(&b);
		dcell_env_value(&b, json_object_get(e, "b"));
		set_s(r, "b", b.ptr);
		json_array_append_new(rows, r);
	}
	json_object_set_new(view, "env_rows", rows);
	buf_release(&b);
}

/* Notes, what one run alone has, cells whose units differ: one list. */
static json_t *
notes_view(json_t *d)
{
	static const char *const kinds[] = { "Targets", "Routes", "Metrics" };
	json_t *out = json_array(), *arr;
	struct buf b = BUF_INIT;
	size_t i, j, k;

	arr = json_object_get(d, "notes");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_reset(&b);
		buf_addf(&b, "Note: %s", json_string_value(json_array_get(arr, i)));
		json_array_append_new(out, S(b.ptr));
	}
	for (j = 0; j < 2; j++)
		for (k = 0; k < 3; k++) {
			buf_reset(&b);
			buf_addf(&b, "%s only in %s: ", kinds[k], j ? "B" : "A");
			if (dcell_only(&b, json_object_get(d, j ? "only_in_b" : "only_in_a"), (int)k,
				       dcell_clean))
				json_array_append_new(out, S(b.ptr));
		}
	arr = json_object_get(d, "not_comparable");
	for (i = 0; i < json_array_size(arr); i++) {
		buf_reset(&b);
		buf_addstr(&b, "Not comparable (units differ): ");
		dcell_not_comparable(&b, json_array_get(arr, i), dcell_clean);
		json_array_append_new(out, S(b.ptr));
	}
	buf_release(&b);
	return out;
}

static json_t *
cell(const char *text, const char *cls)
{
	json_t *o = json_object();

	set_s(o, "text", text);
	set_s(o, "cls", cls);
	return o;
}

/* The verdict's class: the style of a significant difference. */
static const char *
verdict_class(json_t *d, json_t *row)
{
	const char *v = jx_path_str(row, "verdict");

	if (dcell_untested(d))
		return "untested";
	return !strcmp(v, "~") ? "ns" : !strcmp(v, "?") ? "undecided" : "sig";
}

static json_t *
tables_view(json_t *d)
{
	json_t *rows = json_object_get(d, "rows"), *out = json_array(), *geo;
	struct buf c[DCELL_NCOL], b = BUF_INIT;
	struct dcell_layout l;
	size_t i, j, k, lo, hi;
	int same = json_is_true(json_object_get(d, "same_data")), dec;

	dcell_layout_of(d, &l);
	for (j = 0; j < DCELL_NCOL; j++)
		buf_init(&c[j], 0);
	for (k = 0; dcell_table(d, k, &lo, &hi, &geo); k++) {
		json_t *t = json_object(), *head = json_array(), *tr = json_array();

		dec = dcell_decimals(d, lo, hi);
		buf_reset(&b);
		dcell_title(&b, json_array_get(rows, lo));
		set_s(t, "title", b.ptr);
		for (j = 0; j < l.ncol; j++) {
			json_t *h = cell(l.head[j], NULL);

			json_object_set_new(h, "num", json_boolean(j && j < l.verdict));
			json_array_append_new(head, h);
		}
		for (i = lo; i <= hi; i++) {
			json_t *r = json_object(), *cells = json_array();

			if (i < hi)
				dcell_row(json_array_get(rows, i), dec, same, NULL, as_is, c);
			else if (geo)
				dcell_geo(geo, dec, NULL, c);
			else
				break;
			for (j = 0; j < l.ncol; j++)
				json_array_append_new(cells, cell(c[j].ptr, !j ? NULL :
					i == hi || j != l.verdict ? "num" :
					verdict_class(d, json_array_get(rows, i))));
			json_object_set_new(r, "geomean", json_boolean(i == hi));
			json_object_set_new(r, "cells", cells);
			json_array_append_new(tr, r);
		}
		json_object_set_new(t, "head", head);
		json_object_set_new(t, "rows", tr);
		json_array_append_new(out, t);
	}
	for (j = 0; j < DCELL_NCOL; j++)
		buf_release(&c[j]);
	buf_release(&b);
	return out;
}

static json_t *
site_view(const struct diff_site *s)
{
	json_t *o = json_object(), *m = json_array();
	size_t i;

	for (i = 0; i < s->nmachines && i < 2; i++) {
		json_t *e = json_object();

		set_s(e, "slug", s->machine_slug[i]);
		set_s(e, "label", s->machine_label[i]);
		json_array_append_new(m, e);
	}
	json_object_set_new(o, "machines", m);
	set_s(o, "href_a", s->href[0]);
	set_s(o, "when_a", s->when[0]);
	set_s(o, "href_b", s->href[1]);
	set_s(o, "when_b", s->when[1]);
	set_s(o, "why", s->why);
	return o;
}

int
diff_render_html(const struct diff_html *h, json_t *d, const struct diff_site *site,
		 struct buf *out)
{
	json_t *view = json_object(), *sides = json_array();
	struct buf b = BUF_INIT;
	int rc;

	set_s(view, "run_a", jx_path_str(d, "a.run"));
	set_s(view, "run_b", jx_path_str(d, "b.run"));
	json_object_set_new(view, "site", site ? site_view(site) : json_null());
	json_object_set_new(view, "style", tmpl_raw(h->style));
	json_array_append_new(sides, side_view("A", json_object_get(d, "a")));
	json_array_append_new(sides, side_view("B", json_object_get(d, "b")));
	json_object_set_new(view, "sides", sides);
	env_view(view, d);
	json_object_set_new(view, "warnings", json_deep_copy(json_object_get(d, "warnings")));
	json_object_set_new(view, "notes", notes_view(d));
	set_s(view, "no_significance", jx_path_str(d, "no_significance"));
	dcell_legend(&b, d, "; ");
	set_s(view, "legend", b.ptr);
	buf_reset(&b);
	dcell_summary(&b, d);
	set_s(view, "summary", b.ptr);
	json_object_set_new(view, "tables", tables_view(d));
	rc = tmpl_render(h->t, view, out, 1);
	json_decref(view);
	buf_release(&b);
	return rc;
}

int
diff_html_is_ours(const char *head, size_t n)
{
	static const char doctype[] = "<!DOCTYPE html>\n";
	size_t k = sizeof(GENERATOR) - 1, i;

	if (n < sizeof(doctype) - 1 || memcmp(head, doctype, sizeof(doctype) - 1))
		return 0;
	for (i = 0; i + k <= n; i++)
		if (!memcmp(head + i, GENERATOR, k))
			return 1;
	return 0;
}
