/*
 * test_render_summary.c - the page of a summary run (gen/render/page_summary.c)
 * and the latency charts of throughput-only sessions.
 *
 * Every summary run of the example archive (each directory holding a
 * run.json) is read with summary_read() and rendered with the real
 * templates into a site under a mkdtemp directory, twice, and checked:
 * the page, tables.md and one CSV per table exist; each table has as many
 * rows as the results; ids are unique and sanitised; the unweighted-average
 * note of the i7 run is there, next to its table; the threads run has line
 * charts over workers; the notes-only M1 run shows its notes; numbers keep
 * the precision the CSV gave; missing figures are "–" titled "not
 * reported"; the CSVs copy the tables (RFC 4180); the two builds are
 * byte-identical.  A hand-written summary results JSON with hostile
 * names, a hostile column and a hostile source URL checks the escaping.
 * Hand-written sessions check render_latency_charts().
 *
 * The source tree is found through ERG_SRC (default ".").
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "harness.h"

#include "base/buf.h"
#include "render/page_run.h"
#include "render/page_summary.h"
#include "render/table.h"
#include "site/site.h"
#include "ingest/summary.h"
#include "base/util.h"

static const char *src = ".";
static char tmp[64];

static char *
slurp(const char *path)
{
	struct buf b = BUF_INIT;
	char chunk[8192];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_detach(&b, NULL);
}

static char *
site_file(const char *site, const char *id, const char *name)
{
	struct buf p = BUF_INIT;
	char *s;

	buf_addf(&p, "%s/runs/%s/%s", site, id, name);
	s = slurp(p.ptr);
	buf_release(&p);
	return s;
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;
	const char *p = hay;

	while (hay && (p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* The text between the first "<table id=\"ID\"" and its "</table>". */
static char *
table_of(const char *page, const char *id)
{
	struct buf want = BUF_INIT;
	const char *a, *e;
	char *s = NULL;

	buf_addf(&want, "<table id=\"%s\"", id);
	a = page ? strstr(page, want.ptr) : NULL;
	e = a ? strstr(a, "</table>") : NULL;
	if (e)
		s = xstrndup(a, (size_t)(e - a));
	buf_release(&want);
	return s;
}

/* The element with id="ID" up to the end of its svg (charts). */
static char *
svg_of(const char *page, const char *id)
{
	struct buf want = BUF_INIT;
	const char *a, *e;
	char *s = NULL;

	buf_addf(&want, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\"", id);
	a = page ? strstr(page, want.ptr) : NULL;
	e = a ? strstr(a, "</svg>") : NULL;
	if (e)
		s = xstrndup(a, (size_t)(e - a));
	buf_release(&want);
	return s;
}

/* Every id="..." of page: unique, and only [A-Za-z0-9_-]. */
static void
check_ids(const char *page, const char *what)
{
	const char *p = page;
	char **seen = NULL;
	size_t n = 0, alloc = 0, i, dup = 0, bad = 0;

	while (p && (p = strstr(p, " id=\""))) {
		const char *e = strchr(p + 5, '"');
		char *v;

		if (!e)
			break;
		v = xstrndup(p + 5, (size_t)(e - p - 5));
		if (!*v || strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			       strlen(v))
			bad++;
		for (i = 0; i < n; i++)
			if (!strcmp(seen[i], v))
				dup++;
		ALLOC_GROW(seen, n + 1, alloc);
		seen[n++] = v;
		p = e;
	}
	CHECK(n > 0 && !dup && !bad, "%s: %zu ids, %zu duplicated, %zu not sanitised", what, n, dup,
	      bad);
	for (i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
}

static const char *
templates_dir(void)
{
	static struct buf b = BUF_INIT;

	buf_reset(&b);
	buf_addf(&b, "%s/templates", src);
	return b.ptr;
}

/* ------------------------------------------------------------------ */
/* the archive */

struct runref {
	char *dir, *id;
};

static void
find_runs(const char *root, const char *rel, struct runref **v, size_t *n, size_t *alloc)
{
	struct buf d = BUF_INIT, f = BUF_INIT;
	DIR *dh;
	struct dirent *e;
	struct stat st;
	char **names = NULL;
	size_t nn = 0, na = 0, i;

	buf_addf(&d, "%s%s%s", root, *rel ? "/" : "", rel);
	buf_addf(&f, "%s/run.json", d.ptr);
	if (*rel && !stat(f.ptr, &st) && S_ISREG(st.st_mode)) {
		ALLOC_GROW(*v, *n + 1, *alloc);
		(*v)[*n].dir = xstrdup(d.ptr);
		(*v)[(*n)++].id = xstrdup(rel);
	} else if ((dh = opendir(d.ptr))) {
		while ((e = readdir(dh)))
			if (e->d_name[0] != '.') {
				ALLOC_GROW(names, nn + 1, na);
				names[nn++] = xstrdup(e->d_name);
			}
		closedir(dh);
		/* name order, so the runs come in a stable order */
		for (i = 1; i < nn; i++) {
			size_t k;

			for (k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
				char *x = names[k];

				names[k] = names[k - 1];
				names[k - 1] = x;
			}
		}
		for (i = 0; i < nn; i++) {
			struct buf r = BUF_INIT, p = BUF_INIT;

			buf_addf(&r, "%s%s%s", rel, *rel ? "/" : "", names[i]);
			buf_addf(&p, "%s/%s", root, r.ptr);
			if (!stat(p.ptr, &st) && S_ISDIR(st.st_mode))
				find_runs(root, r.ptr, v, n, alloc);
			buf_release(&r);
			buf_release(&p);
			free(names[i]);
		}
		free(names);
	}
	buf_release(&d);
	buf_release(&f);
}

/* Render runs (and the extra results, if any) into dir; 0 on success. */
static int
build(const char *dir, json_t *all)
{
	struct site s = { 0 };
	struct render_ctx rc = { 0 };
	size_t i;
	int bad = 0;

	if (site_begin(&s, dir))
		return -1;
	if (render_begin(&rc, templates_dir(), site_sink(&s))) {
		site_abort(&s);
		return -1;
	}
	for (i = 0; i < json_array_size(all) && !bad; i++) {
		json_t *res = json_array_get(all, i);
		struct buf rel = BUF_INIT;
		char *text = json_dumps(res, JSON_INDENT(1));

		buf_addf(&rel, "runs/%s/results.json", json_string_value(json_object_get(res, "run")));
		bad = !text || site_write(&s, rel.ptr, text, strlen(text));
		free(text);
		buf_release(&rel);
		if (!bad)
			bad = render_summary_run(&rc, res) != 0;
	}
	render_end(&rc);
	if (bad) {
		site_abort(&s);
		return -1;
	}
	return site_commit(&s);
}

/* "tables/throughput.csv" -> "throughput" */
static void
base_of(struct buf *b, const char *file)
{
	const char *s = strrchr(file, '/');

	buf_addstr(b, s ? s + 1 : file);
	if (str_endswith(b->ptr, ".csv"))
		buf_setlen(b, b->len - 4);
}

static int
same_file(const char *a, const char *b, const char *id, const char *name)
{
	char *x = site_file(a, id, name), *y = site_file(b, id, name);
	int same = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

static void
test_archive(void)
{
	struct runref *runs = NULL;
	size_t n = 0, alloc = 0, i, j;
	struct buf arch = BUF_INIT, site1 = BUF_INIT, site2 = BUF_INIT;
	json_t *all = json_array();
	int rc, found_i7 = 0, found_threads = 0, found_m1 = 0;

	buf_addf(&arch, "%s/archive", src);
	find_runs(arch.ptr, "", &runs, &n, &alloc);
	CHECK(n >= 9, "the example archive holds the summary runs (found %zu)", n);
	for (i = 0; i < n; i++) {
		json_t *res = summary_read(runs[i].dir, runs[i].id);

		CHECK(res != NULL, "summary_read %s", runs[i].id);
		if (res)
			json_array_append_new(all, res);
	}
	buf_addf(&site1, "%s/site1", tmp);
	buf_addf(&site2, "%s/site2", tmp);
	rc = build(site1.ptr, all);
	CHECK(rc == 0, "every summary run renders");
	CHECK(build(site2.ptr, all) == 0, "and again");
	if (rc) {
		json_decref(all);
		goto out;
	}

	for (i = 0; i < json_array_size(all); i++) {
		json_t *res = json_array_get(all, i), *t;
		const char *id = json_string_value(json_object_get(res, "run"));
		char *page = site_file(site1.ptr, id, "index.html");
		char *md = site_file(site1.ptr, id, "tables.md");

		CHECK(page && strstr(page, "</html>"), "%s: index.html written", id);
		CHECK(md && !strncmp(md, "## ", 3), "%s: tables.md written", id);
		CHECK(same_file(site1.ptr, site2.ptr, id, "index.html") &&
		      same_file(site1.ptr, site2.ptr, id, "tables.md"),
		      "%s: two builds give the same bytes", id);
		if (!page) {
			free(md);
			continue;
		}
		check_ids(page, id);
		if (strstr(id, "published-headline")) {
			/* the M5 table publishes SDs over 5 rounds (run.json "n") */
			CHECK(strstr(page, "Figures as published") &&
			      strstr(page, "Means with the SD the source published over 5 rounds") &&
			      !strstr(page, "One value per cell"),
			      "%s: says the figures are means with published SDs over 5 rounds, "
			      "no 'one value per cell' beside them", id);
		} else {
			CHECK(strstr(page, "Figures as published") &&
			      strstr(page, "One value per cell, no rounds or repetitions: no spread or "
					   "uncertainty can be shown"),
			      "%s: says the figures are as published, with no uncertainty", id);
		}
		CHECK(!strstr(page, "<script") && !strstr(page, "NaN") && !strstr(page, "inf<"),
		      "%s: no script, no NaN", id);
		json_array_foreach(json_object_get(res, "tables"), j, t) {
			struct buf base = BUF_INIT, tid = BUF_INIT, csvn = BUF_INIT;
			char *tb, *csv;
			size_t nrows = json_array_size(json_object_get(t, "rows"));

			base_of(&base, json_string_value(json_object_get(t, "file")));
			buf_addf(&tid, "tbl-%s", base.ptr);
			buf_addf(&csvn, "%s.csv", base.ptr);
			tb = table_of(page, tid.ptr);
			if (json_is_true(json_object_get(t, "transpose"))) {
				/* printed turned (run.json): a row per column but the
				 * first, a column per row and the "Measure" column */
				size_t ncols = json_array_size(json_object_get(t, "columns"));

				CHECK(tb && count(tb, "<tr id=\"r-") == ncols - 1 &&
				      count(tb, "<th scope=\"col\"") == nrows + 1,
				      "%s: turned table %s has a row per measure (%zu) and a "
				      "column per row (%zu + 1)", id, base.ptr, ncols - 1, nrows);
			} else {
				CHECK(tb && count(tb, "<tr id=\"r-") == nrows,
				      "%s: table %s has its %zu rows (page: %zu)", id, base.ptr, nrows,
				      count(tb, "<tr id=\"r-"));
				CHECK(tb && count(tb, "<th scope=\"col\"") ==
						    json_array_size(json_object_get(t, "columns")),
				      "%s: table %s has every column", id, base.ptr);
			}
			csv = site_file(site1.ptr, id, csvn.ptr);
			{
				/* a units line when a column has a unit */
				size_t nunits = 0, k;
				json_t *co;

				json_array_foreach(json_object_get(t, "columns"), k, co)
					nunits += json_string_length(json_object_get(co, "unit")) > 0;
				CHECK(csv && count(csv, "\r\n") == nrows + 1 + (nunits > 0) &&
				      (!nunits || strstr(csv, "\r\n# units: ")),
				      "%s: %s holds a header, %sand %zu rows", id, csvn.ptr,
				      nunits ? "a units line " : "", nrows);
			}
			CHECK(md && count(md, "\n| ") >= nrows + 1, "%s: tables.md has table %s", id,
			      base.ptr);
			free(tb);
			free(csv);
			buf_release(&base);
			buf_release(&tid);
			buf_release(&csvn);
		}

		if (strstr(id, "bun-http-framework-benchmark")) {
			char *avg = table_of(page, "tbl-average");
			const char *note = strstr(page, "class=\"recon tnote\" id=\"note-average-1\"");

			found_i7 = 1;
			CHECK(note && strstr(note, "unweighted average over heterogeneous routes") &&
			      avg && note < strstr(page, "<table id=\"tbl-average\""),
			      "i7: the unweighted-average note stands above its table");
			CHECK(avg && strstr(avg, "href=\"#note-average-1\""),
			      "i7: the average column points at the note");
			CHECK(md && strstr(md, "> **Note:** 'average\\_rps' is an unweighted average"),
			      "i7: tables.md carries the note");
			CHECK(strstr(page, "<td class=\"num\">362,395.4</td>") &&
			      strstr(page, "<td class=\"num\">266,498.91</td>") &&
			      strstr(page, "<td class=\"num\">3,141.2</td>"),
			      "i7: figures as the CSV gave them, thousands separated");
			CHECK(strstr(page, "id=\"chart-throughput-rps\"") &&
			      !strstr(page, "id=\"chart-average-average_rps\""),
			      "i7: throughput charted, the unweighted average not");
			CHECK(strstr(page, "id=\"r-throughput-elysia-bun-params_query_header\""),
			      "i7: stable row anchors from target, runtime and route");
			{
				char *csv = site_file(site1.ptr, id, "throughput.csv");

				static const char want[] =
					"target,runtime,route,rps\r\n"
					"# units: ,,,req/s\r\n"
					"elysia,bun,get /,362395.4\r\n"
					"elysia,bun,\"params, query & header\",266498.91\r\n";

				CHECK(csv && !strncmp(csv, want, sizeof(want) - 1),
				      "i7: throughput.csv copies the table with its units, quoting a comma");
				free(csv);
			}
			free(avg);
		}
		if (strstr(id, "2026-11-05-threads")) {
			char *svg = svg_of(page, "chart-threads-rps");

			found_threads = 1;
			CHECK(svg && strstr(svg, "<path class=\"line s0\" d=\"M") &&
			      count(svg, "<circle class=\"dot\"") == 4 && !strstr(svg, "class=\"bar"),
			      "threads: throughput is a line over workers (4 points)");
			CHECK(svg && strstr(svg, ">Workers</text>"), "threads: the x axis is workers");
			CHECK(strstr(page, "id=\"chart-threads-p99_ms\"") &&
			      strstr(page, "id=\"chart-threads-rss_mb\"") &&
			      !strstr(page, "id=\"chart-threads-cpu_s_per_100k\""),
			      "threads: a line per recognised metric, none for unknown columns");
			free(svg);
		}
		if (strstr(id, "slow-dependencies")) {
			char *svg = svg_of(page, "chart-slow-rps");

			CHECK(svg && strstr(svg, "<title>three: 100 Delay (ms), 211 Throughput (req/s)") &&
			      strstr(page, ">three</text>"),
			      "slow: the points of the second line are named");
			CHECK(strstr(page, "<td class=\"num\">633</td>") &&
			      strstr(page, "<td class=\"num\">55,557</td>") &&
			      strstr(page, "<td class=\"num\">12.8</td>") &&
			      strstr(page, "<td class=\"num\">5,007.0</td>"),
			      "slow: 633 stays 633 (significant figures), 5,007.0 as published");
			free(svg);
		}
		if (strstr(id, "2022-express-vs-bun-serve")) {
			found_m1 = 1;
			CHECK(strstr(page, "<section id=\"notes\"") &&
			      strstr(page, "The published ratios") &&
			      strstr(page, "No tables were published for this run"),
			      "M1: notes only, rendered");
			/* The only table is the notes' own GFM table of the published
			 * ratios (archive notes.md): no data table. */
			CHECK(count(page, "<table") == 1 && strstr(page, "<section id=\"notes\"") &&
			      strstr(page, "<table") > strstr(page, "<section id=\"notes\"") &&
			      strstr(page, "<th>Connections</th>") &&
			      strstr(page, "<td>about 4×</td>"),
			      "M1: no data table; the notes' ratio table is a table");
			CHECK(strstr(page, "<time datetime=\"2022\">2022</time>"),
			      "M1: the date as published (a year)");
		}
		if (strstr(id, "2026-11-05-resilience")) {
			CHECK(count(page, "<td class=\"num na\" title=\"not reported\">\xe2\x80\x93</td>") == 7,
			      "resilience: the 7 empty cells are dashes titled not reported");
			CHECK(strstr(page, "<span class=\"unit\">HTTP status</span>"),
			      "resilience: an unknown column shows the unit the CSV gave");
			{
				char *csv = site_file(site1.ptr, id, "resilience.csv");

				CHECK(csv && strstr(csv, "\r\n\"1,024 connections\",218320,5.326,0,27.3,,200\r\n"),
				      "resilience: CSV quotes a comma, leaves an empty field for null");
				free(csv);
			}
		}
		if (strstr(id, "2026-11-08-conduit")) {
			CHECK(strstr(page, "<td class=\"num\">3.10</td>") &&
			      strstr(page, "<td class=\"num\">132,489</td>") &&
			      strstr(page, "<td class=\"num\">39.1</td>") &&
			      strstr(page, "<td class=\"num\">136.0</td>"),
			      "conduit: 3.10 and 136.0 keep their zeros, 132,489 gains none");
			CHECK(count(page, "<figure class=\"chart\">") == 2 + 4 + 3,
			      "conduit: charts for the recognised metrics only (%zu)",
			      count(page, "<figure class=\"chart\">"));
		}
		/* The published SD as whiskers, and whose energy figures they
		 * are: tests/golden/pages/summary-sd. */
		if (strstr(id, "published-headline"))
			CHECK(strstr(page, "<td class=\"num\">0.1010</td>"),
			      "m5: 0.1010 as published");
		if (strstr(id, "2026-11-05-todo-api")) {
			char *svg = svg_of(page, "chart-todo-rps");

			CHECK(svg && count(svg, "<rect class=\"bar") == 9 &&
			      strstr(svg, ">list</text>") && strstr(svg, "legend"),
			      "todo: grouped bars, routes x targets");
			free(svg);
		}
		free(page);
		free(md);
	}
	CHECK(found_i7 && found_threads && found_m1, "the i7, threads and M1 runs were found");
	json_decref(all);
out:
	for (i = 0; i < n; i++) {
		free(runs[i].dir);
		free(runs[i].id);
	}
	free(runs);
	buf_release(&arch);
	buf_release(&site1);
	buf_release(&site2);
}

/* ------------------------------------------------------------------ */
/* hostile values */

#define EVIL_T "<script>alert(1)</script>"
#define EVIL_C "\\\"><svg onload=alert(1)>"	/* JSON-escaped '"' */

static const char *const evil_json[] = {
	"{\"run\": \"pub/evil run\", \"kind\": \"summary\",",
	" \"title\": \"Evil <b>bold</b> & [x](javascript:alert(1))\",",
	" \"captured_at\": \"2024-02-30\\\"><script>\",",
	" \"machine\": {\"id\": \"m<1>\", \"chip\": \"C&D\", \"model\": null, \"cores\": 8},",
	" \"software\": {\"" EVIL_T "\": \"1.0\"},",
	" \"conditions\": {\"load\": {\"tool\": \"oha\", \"connections\": 64},",
	"   \"routes\": {\"" EVIL_C "\": \"<i>x</i>\"}},",
	" \"source\": {\"title\": \"</cite><script>\", \"published\": null,",
	"   \"url\": \"javascript:alert(1)\", \"note\": \"as published\"},",
	" \"caveats\": [\"<em>own</em> caveat\"],",
	" \"notes\": {\"file\": \"notes.md\", \"markdown\": \"# N\\n\\n<script>alert(1)</script>\\n\\n",
	"[a](javascript:alert(2)) [csv](ev_il.csv) ![i](x.png)\\n\"},",
	" \"energy_source\": \"none\", \"reconstructed\": null,",
	" \"tables\": [",
	"  {\"file\": \"tables/../ev\\\"il.csv\", \"title\": \"T <i>1</i>\", \"caption\": \"<img src=x onerror=alert(1)>\",",
	"   \"x_column\": null, \"notes\": [\"'average_rps' and '" EVIL_C "' <u>note</u>\"],",
	"   \"columns\": [",
	"    {\"name\": \"target\", \"label\": \"Target\", \"unit\": \"\", \"recognised\": true, \"numeric\": false, \"role\": \"key\"},",
	"    {\"name\": \"" EVIL_C "\", \"label\": \"" EVIL_C "\", \"unit\": \"<u>\", \"recognised\": false, \"numeric\": true, \"role\": \"metric\"},",
	"    {\"name\": \"rss_mb\", \"label\": \"RSS\", \"unit\": \"MB\", \"recognised\": true, \"numeric\": true, \"role\": \"metric\"},",
	"    {\"name\": \"rps\", \"label\": \"Throughput\", \"unit\": \"req/s\", \"recognised\": true, \"numeric\": true, \"role\": \"metric\"},",
	"    {\"name\": \"cpu_ms_per_1k\", \"label\": \"CPU per 1k requests\", \"unit\": \"ms\", \"recognised\": true, \"numeric\": true, \"role\": \"metric\"},",
	"    {\"name\": \"comment\", \"label\": \"comment\", \"unit\": \"\", \"recognised\": false, \"numeric\": false, \"role\": \"text\"}],",
	"   \"rows\": [",
	"    [\"" EVIL_T "\", 1, 3.8, 55557, 132489, \"say \\\"hi\\\", ok\"],",
	"    [\"b\", null, 3.72, 633, 39.1, \"two\\nlines\"],",
	"    [\"c\", 3, 5.05, 12.8, 48.1, null],",
	"    [null, 4, null, 211, 41.6, \"=1+1\"]]},",
	"  {\"file\": \"tables/ev\\\"il.csv\", \"title\": null, \"caption\": null, \"x_column\": \"connections\",",
	"   \"notes\": [],",
	"   \"columns\": [",
	"    {\"name\": \"target\", \"label\": \"Target\", \"unit\": \"\", \"recognised\": true, \"numeric\": false, \"role\": \"key\"},",
	"    {\"name\": \"connections\", \"label\": \"Connections\", \"unit\": \"\", \"recognised\": true, \"numeric\": true, \"role\": \"x\"},",
	"    {\"name\": \"rps\", \"label\": \"Throughput\", \"unit\": \"req/s\", \"recognised\": true, \"numeric\": true, \"role\": \"metric\"}],",
	"   \"rows\": [[\"" EVIL_T "\", 10, 100], [\"" EVIL_T "\", 1, 50], [\"b\", 1, 70], [\"b\", 10, null]]}],",
	" \"targets\": [], \"measurements\": [], \"idle_windows\": []}",
	NULL,
};

static json_t *
parse_parts(const char *const *parts)
{
	struct buf b = BUF_INIT;
	json_error_t err;
	json_t *j;

	for (; *parts; parts++)
		buf_addstr(&b, *parts);
	j = json_loads(b.ptr, 0, &err);
	if (!j)
		printf("# JSON error line %d: %s\n", err.line, err.text);
	buf_release(&b);
	return j;
}

/* Every href="..." value of page, checked for s (case-insensitively). */
static int
href_has(const char *page, const char *s)
{
	const char *p = page;

	while (p && (p = strstr(p, "href=\""))) {
		const char *e = strchr(p + 6, '"');
		char *v;
		size_t i;
		int hit;

		if (!e)
			break;
		v = xstrndup(p + 6, (size_t)(e - p - 6));
		for (i = 0; v[i]; i++)
			if (v[i] >= 'A' && v[i] <= 'Z')
				v[i] = (char)(v[i] - 'A' + 'a');
		hit = strstr(v, s) != NULL;	/* s is lowercase */
		free(v);
		if (hit)
			return 1;
		p = e;
	}
	return 0;
}

/* A '<' in Markdown not escaped with a backslash. */
static int
raw_lt(const char *md)
{
	const char *p;

	for (p = md; *p; p++)
		if (*p == '<' && (p == md || p[-1] != '\\'))
			return 1;
	return 0;
}

static void
test_hostile(void)
{
	json_t *res = parse_parts(evil_json), *all = json_array();
	struct buf site = BUF_INIT;
	const char *id = "pub/evil run";
	char *page = NULL, *md = NULL, *csv = NULL, *csv2 = NULL, *tb = NULL;

	CHECK(res != NULL, "hostile results parse");
	if (!res)
		return;
	json_array_append_new(all, res);
	buf_addf(&site, "%s/evil", tmp);
	CHECK(build(site.ptr, all) == 0, "hostile summary renders");
	page = site_file(site.ptr, id, "index.html");
	md = site_file(site.ptr, id, "tables.md");
	csv = site_file(site.ptr, id, "ev_il.csv");
	csv2 = site_file(site.ptr, id, "ev_il-2.csv");
	CHECK(page != NULL, "hostile page written");
	if (!page)
		goto out;
	check_ids(page, "hostile page");
	CHECK(!strstr(page, "<script") && !strstr(page, "<svg onload") && !strstr(page, "<img") &&
	      !strstr(page, "<u>") && !strstr(page, "<b>") && !strstr(page, "<em>"),
	      "no markup from the data reaches the page");
	CHECK(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;") &&
	      strstr(page, "&quot;&gt;&lt;svg onload=alert(1)&gt;"),
	      "the hostile target and column show, escaped");
	CHECK(strstr(page, "title=\"column &quot;&gt;&lt;svg onload=alert(1)&gt;\""),
	      "the hostile column name is escaped in an attribute too");
	CHECK(!href_has(page, "javascript:"), "no javascript: link (source URL, notes)");
	CHECK(strstr(page, " at <span class=\"url\">javascript:alert(1)</span>"),
	      "the source URL is text, not a link (only the notes link out)");
	CHECK(strstr(page, "href=\"ev_il.csv\"") && strstr(page, "href=\"ev_il-2.csv\""),
	      "table files with the same base name get distinct CSV names");
	CHECK(strstr(page, "<a href=\"ev_il.csv\">csv</a>"),
	      "a notes link to a CSV written beside the page stays a link");
	CHECK(!strstr(page, "<time datetime"), "an invalid date is shown, not used as a datetime");
	tb = table_of(page, "tbl-ev_il");
	CHECK(tb && count(tb, "<tr id=\"r-") == 4, "hostile table: 4 rows");
	CHECK(tb && strstr(tb, "<tr id=\"r-ev_il-script_alert_1_script\">"),
	      "row id from the sanitised target");
	CHECK(tb && strstr(tb, "<th scope=\"row\" class=\"txt\"><a class=\"self\" href=\"#r-ev_il-na\">"
			     "<span class=\"na\" title=\"not reported\">\xe2\x80\x93</span>"),
	      "a missing row name is a dash titled not reported");
	CHECK(tb && strstr(tb, "<td class=\"num\">3.80</td>") &&
	      strstr(tb, "<td class=\"num\">55,557</td>") && strstr(tb, "<td class=\"num\">633</td>") &&
	      strstr(tb, "<td class=\"num\">132,489</td>") && strstr(tb, "<td class=\"num\">39.1</td>"),
	      "numbers: 3.80 padded, 633 and 132,489 as given, thousands separated");
	CHECK(tb && count(tb, "title=\"not reported\">\xe2\x80\x93</td>") == 3,
	      "missing cells are dashes titled not reported (%zu)",
	      count(tb, "title=\"not reported\">\xe2\x80\x93</td>"));
	CHECK(tb && strstr(tb, "href=\"#note-ev_il-1\""),
	      "the columns the note names point at it");
	CHECK(strstr(page, "id=\"chart-ev_il-2-rps\"") && strstr(page, "class=\"line s0\""),
	      "the second table charts lines over connections");
	CHECK(md && strstr(md, "\\<script\\>alert(1)\\</script\\>") && !raw_lt(md),
	      "tables.md escapes markup (and drops a javascript: source URL)");
	CHECK(csv && !strcmp(csv, "target,\"\"\"><svg onload=alert(1)>\",rss_mb,rps,cpu_ms_per_1k,comment\r\n"
			      "# units: ,<u>,MB,req/s,ms,\r\n"
			      "<script>alert(1)</script>,1,3.8,55557,132489,\"say \"\"hi\"\", ok\"\r\n"
			      "b,,3.72,633,39.1,\"two\nlines\"\r\n"
			      "c,3,5.05,12.8,48.1,\r\n"
			      ",4,,211,41.6,\"'=1+1\"\r\n"),
	      "CSV: RFC 4180 quoting (quote, comma, newline), empty for null, numbers as read, a formula as text");
	CHECK(csv2 && !strcmp(csv2, "target,connections,rps\r\n"
				  "# units: ,,req/s\r\n"
				  "<script>alert(1)</script>,10,100\r\n"
				  "<script>alert(1)</script>,1,50\r\n"
				  "b,1,70\r\n"
				  "b,10,\r\n"),
	      "CSV of the second table");
out:
	free(page);
	free(md);
	free(csv);
	free(csv2);
	free(tb);
	json_decref(all);
	buf_release(&site);
}

/* The least a results JSON may hold: no source, machine, notes, caveats,
 * a table without title, caption, notes or x_column, a column with only
 * a name. */
static void
test_minimal(void)
{
	json_t *res = json_pack("{s:s, s:s, s:{s:s}, s:[{s:s, s:[{s:s}, {s:s, s:b}], "
				"s:[[s, i], [s, n]]}]}",
				"run", "m/min", "kind", "summary", "source", "url", "https://x.example/",
				"tables", "file", "t.csv", "columns", "name", "a", "name", "rps",
				"numeric", 1, "rows", "x", 5, "y");
	json_t *all = json_array();
	struct buf site = BUF_INIT;
	char *page;

	json_array_append_new(all, res);
	buf_addf(&site, "%s/min", tmp);
	CHECK(build(site.ptr, all) == 0, "a minimal summary renders");
	page = site_file(site.ptr, "m/min", "index.html");
	CHECK(page && strstr(page, "<h1>m/min</h1>") && strstr(page, "publication date not given") &&
	      strstr(page, "<span class=\"na\" title=\"not reported\">date \xe2\x80\x93</span>"),
	      "the run id for a title, dates not given");
	CHECK(page && strstr(page, "<table id=\"tbl-t\"") && strstr(page, "id=\"chart-t-rps\""),
	      "the table and its chart");
	if (page)
		check_ids(page, "minimal page");
	free(page);
	json_decref(all);
	buf_release(&site);
}

static void
test_bad_id(void)
{
	json_t *res = json_pack("{s:s, s:s, s:[]}", "run", "../up", "kind", "summary", "tables");
	struct render_ctx rc = { 0 };

	rc.tmpl_dir = templates_dir();
	printf("# an error is expected next\n");
	CHECK(render_summary_run(&rc, res) == -1, "a run id leaving the site is refused");
	json_decref(res);
}

/* ------------------------------------------------------------------ */
/* latency charts */

static const char *const lat_json[] = {
	"{\"run\": \"t\", \"kind\": \"energy-session\", \"energy_source\": \"none\",",
	" \"targets\": [{\"name\": \"" EVIL_T "\"}, {\"name\": \"b\"}],",
	" \"measurements\": [",
	"  {\"target\": \"" EVIL_T "\", \"round\": 1, \"routes\": [",
	"   {\"name\": \"ping\", \"load\": {\"latency_mean_us\": 1000, \"latency_pct_us\":",
	"     {\"p50\": 900, \"p75\": 1100, \"p90\": 1500, \"p95\": 2000, \"p99\": 4000, \"p99.9\": 9000}}},",
	"   {\"name\": \"body\", \"load\": {\"latency_mean_us\": 5000, \"latency_pct_us\":",
	"     {\"p50\": null, \"p75\": null, \"p90\": null, \"p95\": null, \"p99\": null, \"p99.9\": null}}}]},",
	"  {\"target\": \"" EVIL_T "\", \"round\": 2, \"routes\": [",
	"   {\"name\": \"ping\", \"load\": {\"latency_mean_us\": 3000, \"latency_pct_us\":",
	"     {\"p50\": 1100, \"p75\": 1300, \"p90\": 1700, \"p95\": 2200, \"p99\": 6000, \"p99.9\": 11000}}}]},",
	"  {\"target\": \"b\", \"round\": 1, \"routes\": [",
	"   {\"name\": \"ping\", \"load\": {\"latency_mean_us\": 2000, \"latency_pct_us\": {\"p50\": 1800}}}]}]}",
	NULL,
};

static void
test_latency(void)
{
	json_t *res = parse_parts(lat_json), *none;
	struct buf out = BUF_INIT;
	int n;

	CHECK(res != NULL, "latency results parse");
	if (!res)
		return;
	n = render_latency_charts(res, &out);
	CHECK(n == 2, "one chart per route with latency figures (%d)", n);
	CHECK(count(out.ptr, "<figure class=\"chart\">") == 2 && count(out.ptr, "<figcaption>") == 2,
	      "figures with captions");
	CHECK(strstr(out.ptr, "id=\"chart-latency-ping\"") && strstr(out.ptr, "id=\"chart-latency-body\""),
	      "stable chart ids");
	CHECK(strstr(out.ptr, "mean over the rounds") && strstr(out.ptr, "1 SD over the rounds") &&
	      strstr(out.ptr, "(n = 1" "\xe2\x80\x93" "2 rounds)"),
	      "the caption says mean over rounds, SD, n");
	/* ping, first target: mean (1000+3000)/2 us = 2 ms, SD 1.414 ms */
	CHECK(strstr(out.ptr, "<title>mean, &lt;script&gt;alert(1)&lt;/script&gt;: 2 latency (ms) "
			      "\xc2\xb1 1.414</title>"),
	      "mean over rounds in ms with its SD, the target escaped");
	CHECK(strstr(out.ptr, "<title>p99.9, &lt;script&gt;alert(1)&lt;/script&gt;: 10 latency (ms) "
			      "\xc2\xb1 1.414</title>"),
	      "p99.9 over rounds");
	CHECK(strstr(out.ptr, "<title>p50, b: 1.8 latency (ms)</title>"),
	      "one round: no SD");
	CHECK(!strstr(out.ptr, "<script"), "nothing unescaped");
	{
		const char *body = strstr(out.ptr, "id=\"chart-latency-body\"");

		const char *ping = strstr(out.ptr, "id=\"chart-latency-ping\"");

		CHECK(body && !strstr(body, ">p50</text>") && strstr(body, ">mean</text>"),
		      "a route with only the mean shows only the mean");
		/* its title, axis and caption name the mean alone (issue 15) */
		CHECK(body && strstr(body, "Mean latency, route body") &&
		      !strstr(body, "by percentile") && !strstr(body, "and percentiles") &&
		      !strstr(body, "percentile of all") && strstr(body, ">mean</text>") &&
		      strstr(body, "its mean, per target (no percentiles were recorded)"),
		      "the mean-only chart names no percentile");
		CHECK(ping && body && ping < body &&
		      strstr(ping, "Latency by percentile, route ping") &&
		      strstr(ping, "its mean and percentiles, per target.") &&
		      strstr(ping, ">mean and percentiles</text>") &&
		      strstr(ping, "not the percentile of all the requests pooled"),
		      "the chart with percentiles names mean and percentiles");
	}
	buf_reset(&out);
	none = json_pack("{s:s, s:[{s:s, s:[{s:s, s:{s:n}}]}]}", "run", "x", "measurements",
			 "target", "a", "routes", "name", "ping", "load", "latency_mean_us");
	CHECK(render_latency_charts(none, &out) == 0 && out.len == 0,
	      "no latency figures: nothing, and 0");
	CHECK(render_latency_charts(json_object_get(res, "nothing"), &out) == 0 && out.len == 0,
	      "no results at all: nothing");
	json_decref(none);
	json_decref(res);
	buf_release(&out);
}

/*
 * A table larger than SUMMARY_VIEW_MAX_ROWS: its rows reach the template
 * in chunks of table_chunk (never more in one view), the page is
 * byte for byte the page of one big view, and there are no charts but a
 * line saying why.  The mechanism that keeps a 100,000-row table from
 * having a JSON object per cell at once; no timing or RSS here.
 */
static void
test_large(void)
{
	json_t *res, *cols, *rows, *all;
	struct buf a = BUF_INIT, b = BUF_INIT;
	char *pa = NULL, *pb = NULL, *md = NULL, *csv = NULL, *tb = NULL;
	size_t i, n = SUMMARY_VIEW_MAX_ROWS + 500, saved = table_chunk, peak;

	res = json_pack("{s:s, s:s, s:s, s:s}", "run", "m/large", "kind", "summary",
			"title", "Large", "energy_source", "none");
	cols = json_pack("[{s:s, s:s, s:s, s:b}, {s:s, s:s, s:s, s:b}, {s:s, s:s, s:s, s:b}]",
			 "name", "target", "label", "Target", "role", "key", "numeric", 0,
			 "name", "route", "label", "Route", "role", "key", "numeric", 0,
			 "name", "rps", "label", "Throughput", "role", "metric", "numeric", 1);
	rows = json_array();
	for (i = 0; i < n; i++) {
		char r[32];

		snprintf(r, sizeof(r), "r%zu", i);
		json_array_append_new(rows, json_pack("[s, s, f]", i % 2 ? "x" : "y", r, i + 0.5));
	}
	json_object_set_new(res, "tables", json_pack("[{s:s, s:o, s:o, s:n, s:[]}]", "file",
						     "tables/big.csv", "columns", cols, "rows", rows,
						     "x_column", "notes"));
	all = json_array();
	json_array_append_new(all, res);

	table_chunk = 7;
	table_chunk_peak = 0;
	buf_addf(&a, "%s/large-a", tmp);
	CHECK(build(a.ptr, all) == 0, "large table renders in chunks of 7");
	peak = table_chunk_peak;
	CHECK(peak == 7, "no view held more than 7 rows (peak %zu)", peak);
	table_chunk = n + 1;
	table_chunk_peak = 0;
	buf_addf(&b, "%s/large-b", tmp);
	CHECK(build(b.ptr, all) == 0, "large table renders in one view");
	CHECK(table_chunk_peak == n, "one view of every row (peak %zu)",
	      table_chunk_peak);
	table_chunk = saved;

	pa = site_file(a.ptr, "m/large", "index.html");
	pb = site_file(b.ptr, "m/large", "index.html");
	CHECK(pa && pb && !strcmp(pa, pb), "the page does not depend on the chunk size");
	CHECK(same_file(a.ptr, b.ptr, "m/large", "tables.md") &&
	      same_file(a.ptr, b.ptr, "m/large", "big.csv"), "nor do the exports");
	tb = table_of(pa, "tbl-big");
	CHECK(tb && count(tb, "<tr id=\"r-big-") == n, "every row on the page (%zu)",
	      tb ? count(tb, "<tr id=\"r-big-") : 0);
	CHECK(tb && strstr(tb, "<tr id=\"r-big-x-r1499\"><th scope=\"row\" class=\"txt\">"
			     "<a class=\"self\" href=\"#r-big-x-r1499\">x</a></th>"
			     "<td class=\"txt\">r1499</td><td class=\"num\">1499.5</td></tr>\n</tbody>"),
	      "the last row, then the end of the table body");
	CHECK(pa && !strstr(pa, "<svg") &&
	      strstr(pa, "<p class=\"from\">No charts: 1500 rows are more than a chart can show "
			 "(at most 1000); the table and the CSV hold every value.</p>"),
	      "no charts, and the page says why");
	md = site_file(a.ptr, "m/large", "tables.md");
	csv = site_file(a.ptr, "m/large", "big.csv");
	CHECK(md && count(md, "\n| ") == n + 2, "tables.md: the header, its rule and every row");
	CHECK(csv && count(csv, "\r\n") == n + 1 && strstr(csv, "\r\nx,r1499,1499.5\r\n"),
	      "the CSV: the header and every row at full precision");
	free(pa);
	free(pb);
	free(md);
	free(csv);
	free(tb);
	json_decref(all);
	buf_release(&a);
	buf_release(&b);
}

int
main(void)
{
	char cmd[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("ERG_SRC") && *getenv("ERG_SRC"))
		src = getenv("ERG_SRC");
	snprintf(tmp, sizeof(tmp), "/tmp/erg-test-rsum-XXXXXX");
	if (!mkdtemp(tmp))
		die_errno("mkdtemp");
	test_archive();
	test_hostile();
	test_minimal();
	test_bad_id();
	test_large();
	test_latency();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (getenv("ERG_KEEP"))	/* to look at the pages */
		printf("# kept %s\n", tmp);
	else if (system(cmd))
		fprintf(stderr, "cleanup failed\n");
	return th_done();
}
