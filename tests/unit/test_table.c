/*
 * test_table.c - the one table builder (render/table.h) with the real
 * partials (templates/p-table.html, p-rows.html): the markup and the
 * Markdown of small tables, written out by hand; rows rendered in chunks
 * give the bytes of one view; cells not reported share one object; a
 * cell never takes its row's link.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "base/buf.h"
#include "render/numfmt.h"
#include "render/table.h"
#include "render/tmpl.h"

static struct tmpl *rows_tp, *frame_tp;

/* got == want; both shown (as comments) only when they differ. */
#undef CHECK_STR
#define CHECK_STR(got, want, what) same((got), (want), (what), __LINE__)

static void
same(const char *got, const char *want, const char *what, int line)
{
	int ok = !strcmp(got, want);

	th_check(ok, __FILE__, line, "%s", what);
	if (!ok)
		printf("# got:\n%s\n# want:\n%s\n", got, want);
}

/* The markup of a finished table, as the pages include it. */
static void
frame(struct table *t, struct buf *out)
{
	json_t *o = table_view(t);

	buf_reset(out);
	CHECK(tmpl_render(frame_tp, o, out, 1) == 0, "p-table.html renders");
	json_decref(o);
}

/* A run page's table: caption, Markdown, an SD, a row and a cell not
 * reported. */
static void
test_plain(void)
{
	struct table t;
	struct buf out = BUF_INIT;
	size_t before;

	table_init(&t, rows_tp, "tbl-x", "Cap <b>");
	table_md(&t);
	table_col(&t, "Target", NULL, 0);
	table_col(&t, "Energy", "mJ", 1);
	table_col(&t, "Rank", NULL, 1);
	table_row(&t, "r-a", "a|b");
	table_pm(&t, 0.0958123, 0.00062, NF_FIXED(5));
	table_num(&t, 1234, NF_THOUS(0));
	table_row(&t, "r-b", NULL);
	before = t.na[1] ? t.na[1]->refcount : 0;
	table_pm(&t, 2.5, NAN, NF_FIXED(1));
	table_num(&t, NAN, NF_THOUS(0));
	table_row(&t, "r-c", "c");
	table_num(&t, NAN, NF_FIXED(1));
	table_num(&t, INFINITY, NF_FIXED(1));
	CHECK(before == 0 && t.na[1] && t.na[1]->refcount == 4,
	      "cells not reported share one object (held by the table and 3 cells)");
	CHECK(table_end(&t) == 0 && table_nrows(&t) == 3, "three rows");
	frame(&t, &out);
	CHECK_STR(out.ptr,
		  "<p class=\"cap\" id=\"tbl-x-cap\">Cap &lt;b&gt;</p>\n"
		  "<div class=\"tw\" role=\"region\" aria-labelledby=\"tbl-x-cap\" tabindex=\"0\">\n"
		  "<table id=\"tbl-x\" aria-labelledby=\"tbl-x-cap\">\n"
		  "<thead>\n"
		  "<tr><th scope=\"col\" class=\"txt\">Target</th><th scope=\"col\" class=\"num\">"
		  "Energy<span class=\"unit\">mJ</span></th><th scope=\"col\" class=\"num\">Rank</th></tr>\n"
		  "</thead>\n"
		  "<tbody>\n"
		  "<tr id=\"r-a\"><th scope=\"row\"><a class=\"self\" href=\"#r-a\">a|b</a></th>"
		  "<td class=\"num\">0.09581<span class=\"pm\"> \xc2\xb1 0.00062</span></td>"
		  "<td class=\"num\">1,234</td></tr>\n"
		  "<tr id=\"r-b\"><th scope=\"row\"><a class=\"self\" href=\"#r-b\"><span class=\"na\" "
		  "title=\"not reported\">\xe2\x80\x93</span></a></th><td class=\"num\">2.5<span "
		  "class=\"pm na\" title=\"not reported\"> \xc2\xb1 \xe2\x80\x93</span></td><td class="
		  "\"num na\" title=\"not reported\">\xe2\x80\x93</td></tr>\n"
		  "<tr id=\"r-c\"><th scope=\"row\"><a class=\"self\" href=\"#r-c\">c</a></th>"
		  "<td class=\"num na\" title=\"not reported\">\xe2\x80\x93</td><td class=\"num na\" "
		  "title=\"not reported\">\xe2\x80\x93</td></tr>\n"
		  "</tbody>\n"
		  "</table>\n"
		  "</div>\n",
		  "a run page's table");
	CHECK_STR(table_md_text(&t)->ptr,
		  "| Target | Energy (mJ) | Rank |\n"
		  "| --- | ---: | ---: |\n"
		  "| a\\|b | 0.09581 \xc2\xb1 0.00062 | 1,234 |\n"
		  "| \xe2\x80\x93 | 2.5 \xc2\xb1 \xe2\x80\x93 | \xe2\x80\x93 |\n"
		  "| c | \xe2\x80\x93 | \xe2\x80\x93 |\n",
		  "its Markdown, rounded as on the page");
	table_free(&t);
	buf_release(&out);
}

/* Empty cells (a column that does not apply to the row) are shared like
 * the cells not reported, and print the empty cell an own object did. */
static void
test_blank(void)
{
	struct table t;
	struct buf out = BUF_INIT;
	struct tcell blank = { "", 1, NULL, NULL, NULL, NULL };
	struct tcell word = { "", 0, NULL, NULL, NULL, NULL };
	size_t i;

	table_init(&t, rows_tp, "tbl-b", NULL);
	table_md(&t);
	table_col(&t, "Run", NULL, 0);
	table_col(&t, "Energy m1", "mJ", 1);
	table_col(&t, "Energy m2", "mJ", 1);
	table_col(&t, "Note", NULL, 0);
	for (i = 0; i < 3; i++) {
		char id[8];

		snprintf(id, sizeof(id), "r%zu", i);
		table_row(&t, id, id);
		if (i == 1)
			table_num(&t, 1.5, NF_FIXED(1));
		else
			table_cell(&t, &blank);
		table_cell(&t, &blank);
		table_cell(&t, &word);
	}
	CHECK(t.blank[1] && t.blank[1]->refcount == 6 && t.blank[0] && t.blank[0]->refcount == 4,
	      "5 empty number cells share one object, 3 empty text cells another");
	CHECK(table_end(&t) == 0, "the table ends");
	frame(&t, &out);
	CHECK(strstr(out.ptr, "<tr id=\"r1\"><th scope=\"row\"><a class=\"self\" href=\"#r1\">r1</a></th>"
			      "<td class=\"num\">1.5</td><td class=\"num\"></td><td class=\"txt\"></td></tr>\n") &&
	      strstr(out.ptr, "<tr id=\"r2\"><th scope=\"row\"><a class=\"self\" href=\"#r2\">r2</a></th>"
			      "<td class=\"num\"></td><td class=\"num\"></td><td class=\"txt\"></td></tr>\n"),
	      "empty cells print as empty td of their class");
	CHECK_STR(table_md_text(&t)->ptr,
		  "| Run | Energy m1 (mJ) | Energy m2 (mJ) | Note |\n"
		  "| --- | ---: | ---: | --- |\n"
		  "| r0 |  |  |  |\n"
		  "| r1 | 1.5 |  |  |\n"
		  "| r2 |  |  |  |\n",
		  "and as empty Markdown cells");
	table_free(&t);
	buf_release(&out);
}

/* A cross-run table: sortable, links, a line below th, data-v on every
 * cell; the row links elsewhere, its plain cell does not. */
static void
test_sortable(void)
{
	struct table t;
	struct buf out = BUF_INIT;
	struct tcol c = { "2026-08-26", "M5", 1, NULL, "Run (r)", NULL, NULL };
	struct trow r = { "rr-x", "x", NULL, "get /", "sub", NULL };
	struct tcell see = { "per route", 1, "num na", NULL, NULL, NULL };

	table_init(&t, rows_tp, "tbl-s", "S");
	table_class(&t, "sortable runs", 1);
	table_note(&t, "A note.");
	table_col(&t, "Target", "route", 0);
	c.href = json_string("../runs/r/index.html");
	table_colx(&t, &c);
	table_col(&t, "Word", NULL, 0);
	r.href = json_string("../targets/x/index.html");
	table_rowx(&t, &r);
	table_pm(&t, 100000, 12.6, NF_THOUS(0));
	table_text(&t, "plain");
	table_row(&t, "rr-y", "y");
	see.href = json_string("#rr-x");
	table_cell(&t, &see);
	table_text(&t, NULL);
	CHECK(table_end(&t) == 0, "sortable table ends");
	frame(&t, &out);
	CHECK_STR(out.ptr,
		  "<p class=\"cap\" id=\"tbl-s-cap\">S</p>\n"
		  "<div class=\"tw\" role=\"region\" aria-labelledby=\"tbl-s-cap\" tabindex=\"0\">\n"
		  "<table id=\"tbl-s\" class=\"sortable runs\" aria-labelledby=\"tbl-s-cap\">\n"
		  "<thead>\n"
		  "<tr><th scope=\"col\" class=\"txt\">Target<span class=\"unit\">route</span></th>"
		  "<th scope=\"col\" class=\"num\"><a href=\"../runs/r/index.html\" title=\"Run (r)\">"
		  "2026-08-26</a><span class=\"unit\">M5</span></th><th scope=\"col\" class=\"txt\">"
		  "Word</th></tr>\n"
		  "</thead>\n"
		  "<tbody>\n"
		  "<tr id=\"rr-x\"><th scope=\"row\"><a href=\"../targets/x/index.html\">x</a> \xc2\xb7 "
		  "get /<br><code class=\"id\">sub</code></th><td class=\"num\" data-v=\"1e+05\">"
		  "100,000<span class=\"pm\"> \xc2\xb1 13</span></td><td class=\"txt\" data-v=\"\">"
		  "plain</td></tr>\n"
		  "<tr id=\"rr-y\"><th scope=\"row\"><a class=\"self\" href=\"#rr-y\">y</a></th>"
		  "<td class=\"num na\" data-v=\"\"><a href=\"#rr-x\">per route</a></td>"
		  "<td class=\"txt na\" data-v=\"\" title=\"not reported\">\xe2\x80\x93</td></tr>\n"
		  "</tbody>\n"
		  "</table>\n"
		  "</div>\n"
		  "<p class=\"sub\">A note.</p>\n",
		  "a cross-run table");
	table_free(&t);
	buf_release(&out);
}

/* A summary table: labelled by a heading elsewhere, column names as
 * tooltips, a note mark, th classes; and with no rows, a row saying so. */
static void
test_labelled(void)
{
	struct table t;
	struct buf out = BUF_INIT;
	struct tcol a = { "Target", NULL, 0, NULL, NULL, "target", NULL };
	struct tcol b = { "Throughput", "req/s", 1, NULL, NULL, "rps", "note-1" };

	table_init(&t, rows_tp, "tbl-t", NULL);
	table_label(&t, "table-t-h");
	table_empty(&t, "No rows were published in this table.");
	table_md(&t);
	table_colx(&t, &a);
	table_colx(&t, &b);
	CHECK(table_end(&t) == 0 && table_nrows(&t) == 0, "an empty table ends");
	frame(&t, &out);
	CHECK_STR(out.ptr,
		  "<div class=\"tw\" role=\"region\" aria-labelledby=\"table-t-h\" tabindex=\"0\">\n"
		  "<table id=\"tbl-t\" aria-labelledby=\"table-t-h\">\n"
		  "<thead>\n"
		  "<tr><th scope=\"col\" class=\"txt\" title=\"column target\">Target</th>"
		  "<th scope=\"col\" class=\"num\" title=\"column rps\">Throughput<a class=\"fn\" "
		  "href=\"#note-1\" title=\"see the note above the table\">*</a><span class=\"unit\">"
		  "req/s</span></th></tr>\n"
		  "</thead>\n"
		  "<tbody>\n"
		  "<tr><td colspan=\"2\">No rows were published in this table.</td></tr>\n"
		  "</tbody>\n"
		  "</table>\n"
		  "</div>\n",
		  "an empty summary table");
	CHECK_STR(table_md_text(&t)->ptr, "| Target | Throughput \\* (req/s) |\n| --- | ---: |\n",
		  "its Markdown: the header alone");
	table_free(&t);
	buf_release(&out);
}

/* n rows rendered table_chunk at a time; the body of the whole table. */
static void
chunked(size_t chunk, size_t n, struct buf *out)
{
	struct table t;
	struct trow r = { NULL, NULL, NULL, NULL, NULL, "num" };
	char id[32], th[32];
	size_t i;

	table_chunk = chunk;
	table_chunk_peak = 0;
	table_init(&t, rows_tp, "tbl-c", "C");
	table_col(&t, "n", NULL, 1);
	table_col(&t, "x", NULL, 1);
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "r-%zu", i);
		snprintf(th, sizeof(th), "%zu", i);
		r.id = id;
		r.th = th;
		table_rowx(&t, &r);
		table_num(&t, i % 3 ? (double)i / 8 : NAN, NF_SHORT);
	}
	CHECK(table_end(&t) == 0, "%zu rows in chunks of %zu", n, chunk);
	frame(&t, out);
	table_free(&t);
}

static void
test_chunks(void)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	size_t saved = table_chunk;

	chunked(7, 100, &a);
	CHECK(table_chunk_peak == 7, "no chunk held more than 7 rows (%zu)", (size_t)table_chunk_peak);
	chunked(1000, 100, &b);
	CHECK(table_chunk_peak == 100, "one chunk of every row (%zu)", (size_t)table_chunk_peak);
	CHECK(a.len && a.len == b.len && !memcmp(a.ptr, b.ptr, a.len),
	      "the table does not depend on the chunk size");
	CHECK(strstr(a.ptr, "<tr id=\"r-99\"><th scope=\"row\" class=\"num\"><a class=\"self\" "
		  "href=\"#r-99\">99</a></th><td class=\"num na\" title=\"not reported\">"
		  "\xe2\x80\x93</td></tr>\n</tbody>") != NULL &&
	      strstr(a.ptr, "href=\"#r-98\">98</a></th><td class=\"num\">12.25</td></tr>\n<tr "),
	      "the last row, then the end of the body");
	table_chunk = saved;
	buf_release(&a);
	buf_release(&b);
}

int
main(void)
{
	rows_tp = tmpl_load(th_templates_dir(), "p-rows");
	frame_tp = tmpl_load(th_templates_dir(), "p-table");
	CHECK(rows_tp && frame_tp, "the partials load");
	if (rows_tp && frame_tp) {
		test_plain();
	test_blank();
		test_sortable();
		test_labelled();
		test_chunks();
	}
	tmpl_free(rows_tp);
	tmpl_free(frame_tp);
	return th_done();
}
