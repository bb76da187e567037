/*
 * test_diff_render.c - the pieces `erg diff` and the site's diff pages are
 * made of since the split: the walk text and Markdown share
 * (gen/render/diff_text.c), the page of templates/diff.html
 * (gen/render/diff_html.c), what `--out` may replace (diff_*_is_ours,
 * site_write_file in gen/site/site.c), and build_views()
 * (gen/cmd/build.c) comparing the site's diff pairs one at a time.
 *
 * The text and Markdown of a small hand-written comparison document are
 * compared with the outputs worked out by hand from the layout rules
 * (column widths, decimals, escapes), with a hostile target name (an
 * escape sequence, Markdown syntax) in both.  build_views() is checked by
 * counting jansson's live bytes each time a diff page is written: holding
 * every document would add one document's worth per pair.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze/compare.h"
#include "base/buf.h"
#include "base/sink.h"
#include "base/util.h"
#include "cmd/build.h"
#include "harness.h"
#include "render/diff_html.h"
#include "render/diff_text.h"
#include "render/page_run.h"
#include "site/site.h"

static const char *src_dir;

/* ------------------------------------------------ jansson's live bytes */

static size_t live;

static void *
count_malloc(size_t n)
{
	void *p = malloc(n);

	if (p)
		live += malloc_usable_size(p);
	return p;
}

static void
count_free(void *p)
{
	if (p)
		live -= malloc_usable_size(p);
	free(p);
}

/* ------------------------------------------------------- a document */

/*
 * One tested row (req/s of target "t<1>" + ESC "[2J"), its geomean, two
 * environment differences, a warning, a note, and what one run alone
 * has, with Markdown syntax in the names.
 */
static const char doc_text[] =
	"{\"format\": \"erg-diff/1\","
	" \"a\": {\"run\": \"r/a\", \"dir\": null, \"kind\": null, \"title\": null,"
	"        \"captured_at\": \"2026-01-01T00:00:00Z\", \"machine\": \"M<1>\", \"rounds\": 3},"
	" \"b\": {\"run\": \"r/b`x\", \"dir\": null, \"kind\": null, \"title\": null,"
	"        \"captured_at\": null, \"machine\": \"M|2\", \"rounds\": 1},"
	" \"same_data\": false, \"same_data_reason\": null,"
	" \"environment\": {\"compared\": [\"machine\", \"rounds\"], \"differences\": ["
	"   {\"group\": \"machine\", \"field\": \"machine.model\", \"a\": \"M<1>\", \"b\": \"M|2\"},"
	"   {\"group\": \"rounds\", \"field\": \"rounds\", \"a\": 3, \"b\": 1}],"
	"   \"machines_differ\": true},"
	" \"no_significance\": null,"
	" \"warnings\": [\"the machines differ\"], \"notes\": [\"note *one*\"],"
	" \"only_in_a\": {\"targets\": [\"t_x\"], \"routes\": [], \"metrics\": []},"
	" \"only_in_b\": {\"targets\": [], \"routes\": [{\"target\": \"t1\", \"route\": \"r[1]\"}],"
	"               \"metrics\": []},"
	" \"not_comparable\": [],"
	" \"rows\": [{\"metric\": \"rps\", \"unit\": \"req/s\", \"target\": \"t<1>\\u001b[2J\","
	"   \"route\": null, \"a\": {\"mean\": 100, \"sd\": 10, \"n\": 3, \"values\": [90, 100, 110]},"
	"   \"b\": {\"mean\": 110, \"sd\": null, \"n\": 1, \"values\": [110]},"
	"   \"delta_pct\": 10, \"ratio_ci95\": [1.05, 1.15], \"p\": 0.25, \"verdict\": \"~\"}],"
	" \"geomeans\": [{\"metric\": \"rps\", \"unit\": \"req/s\", \"route\": null, \"targets\": 1,"
	"   \"a\": 100, \"b\": 110, \"delta_pct\": 10}],"
	" \"summary\": {\"rows\": 1, \"significant\": 0, \"not_significant\": 1, \"undecided\": 0,"
	"   \"not_tested\": 0}}";

/*
 * Text: the environment's field column is 13 wide ("machine.model") plus
 * 2, A's 4 ("M<1>") plus 2.  The table: 100 is the smallest magnitude, so
 * 1 decimal (4 significant digits); both sides share the widths of the
 * parts (mean 5, SD 4, n 3), so B's missing SD is 3 + 4 blanks; columns
 * are 8 (the cleaned name), 16, 16, 7, 16, 6 wide, Δ% and p right-aligned,
 * two spaces between, trailing blanks cut.
 */
static const char want_text[] =
	"A: r/a\n"
	"   captured 2026-01-01T00:00:00Z; M<1>; 3 rounds\n"
	"B: r/b`x\n"
	"   M|2; 1 round\n"
	"\n"
	"environment: 2 differences (compared: machine, rounds)\n"
	"  field" "          " "A" "     " "B\n"
	"  machine.model" "  " "M<1>" "  " "M|2\n"
	"  rounds" "         " "3" "     " "1\n"
	"\n"
	"WARNING: the machines differ\n"
	"\n"
	"note: note *one*\n"
	"targets only in A: t_x\n"
	"routes only in B: r[1] of t1\n"
	"\n"
	"values: mean \xc2\xb1 SD (n) over rounds; \xce\x94% = (B/A \xe2\x88\x92 1)\xc2\xb7" "100\n"
	"B/A 95% CI: percentile bootstrap of the ratio of means (10000 resamples, seed 1)\n"
	"p: exact two-sided Mann\xe2\x80\x93Whitney U over rounds; verdict: ~ when p > 0.05, "
	"else \xce\x94%\n"
	"1 comparison: 0 significant, 1 ~, 0 ?\n"
	"\n"
	"headline: throughput (req/s)\n"
	"target  " "  " "A mean \xc2\xb1 SD (n) " "  " "B mean \xc2\xb1 SD (n) " "  "
	"     \xce\x94%" "  " "B/A 95% CI      " "  " "     p" "  " "verdict\n"
	"t<1>?[2J" "  " "100.0 \xc2\xb1 10.0 (3)" "  " "110.0" "        " "(1)" "  " "+10.00%" "  "
	"[1.0500, 1.1500]" "  " "0.2500" "  " "~\n"
	"geomean " "  " "100.0" "           " "  " "110.0" "           " "  " "+10.00%\n";

/* Markdown: no alignment; names, the legend and titles escaped. */
static const char want_md[] =
	"# erg diff\n"
	"\n"
	"- **A**: `r/a`, captured 2026-01-01T00:00:00Z; M\\<1\\>; 3 rounds\n"
	"- **B**: `r/b'x`; M\\|2; 1 round\n"
	"\n"
	"## Environment\n"
	"\n"
	"2 differences (compared: machine, rounds).\n"
	"\n"
	"| field | A | B |\n"
	"|---|---|---|\n"
	"| machine.model | M\\<1\\> | M\\|2 |\n"
	"| rounds | 3 | 1 |\n"
	"\n"
	"> **WARNING:** the machines differ\n"
	"\n"
	"- Note: note \\*one\\*\n"
	"- Targets only in A: t\\_x\n"
	"- Routes only in B: r\\[1\\] of t1\n"
	"\n"
	"## Results\n"
	"\n"
	"values: mean \xc2\xb1 SD (n) over rounds; \xce\x94% = (B/A \xe2\x88\x92 1)\xc2\xb7" "100; "
	"B/A 95% CI: percentile bootstrap of the ratio of means (10000 resamples, seed 1); "
	"p: exact two-sided Mann\xe2\x80\x93Whitney U over rounds; verdict: \\~ when p \\> 0.05, "
	"else \xce\x94%.\n"
	"\n"
	"1 comparison: 0 significant, 1 ~, 0 ?.\n"
	"\n"
	"### headline: throughput (req/s)\n"
	"\n"
	"| target | A mean \xc2\xb1 SD (n) | B mean \xc2\xb1 SD (n) | \xce\x94% | B/A 95% CI | p | verdict |\n"
	"|---|---:|---:|---:|---|---:|---|\n"
	"| t\\<1\\>?\\[2J | 100.0 \xc2\xb1 10.0 (3) | 110.0 (1) | +10.00% | [1.0500, 1.1500] | 0.2500 "
	"| ~ |\n"
	"| *geomean* | 100.0 | 110.0 | +10.00% |  |  |  |\n";

static json_t *
load_doc(void)
{
	json_error_t err;
	json_t *d = json_loads(doc_text, 0, &err);

	CHECK(d != NULL, "the hand-written document parses (%s)", d ? "" : err.text);
	return d;
}

/* The first line where a and b differ, for a failing check. */
static void
show_first_difference(const char *what, const char *got, const char *want)
{
	size_t line = 1;

	while (*got && *got == *want) {
		line += *got == '\n';
		got++;
		want++;
	}
	printf("# %s: first difference at line %zu: got '%.40s', want '%.40s'\n", what, line, got,
	       want);
}

static void
test_walk(void)
{
	json_t *d = load_doc();
	struct buf out = BUF_INIT;

	if (!d)
		return;
	diff_render_text(d, &out);
	CHECK(!strcmp(out.ptr, want_text), "text: the walk's parts, widths and cleaned names");
	if (strcmp(out.ptr, want_text))
		show_first_difference("text", out.ptr, want_text);
	CHECK(!strchr(out.ptr, '\x1b'), "text: no escape byte reaches the terminal");
	CHECK(diff_text_is_ours(out.ptr, out.len > 1024 ? 1024 : out.len),
	      "text: known as an erg diff output");
	buf_reset(&out);
	diff_render_markdown(d, &out);
	CHECK(!strcmp(out.ptr, want_md), "markdown: the same parts in the same order, escaped");
	if (strcmp(out.ptr, want_md))
		show_first_difference("markdown", out.ptr, want_md);
	CHECK(!strchr(out.ptr, '\x1b'), "markdown: no escape byte");
	CHECK(diff_text_is_ours(out.ptr, out.len > 1024 ? 1024 : out.len),
	      "markdown: known as an erg diff output");
	buf_reset(&out);
	diff_render_json(d, &out);
	CHECK(diff_text_is_ours(out.ptr, out.len > 1024 ? 1024 : out.len),
	      "json: known as an erg diff output");
	buf_release(&out);
	json_decref(d);
}

/* ------------------------------------------------------------- HTML */

static struct diff_html *
load_page(int standalone)
{
	struct buf dir = BUF_INIT;
	struct diff_html *h;

	buf_addf(&dir, "%s/templates", src_dir);
	h = diff_html_load(dir.ptr, standalone);
	buf_release(&dir);
	CHECK(h != NULL, "templates/diff.html loads (%s)", standalone ? "standalone" : "site");
	return h;
}

static void
test_html(void)
{
	json_t *d = load_doc();
	struct diff_html *own = load_page(1), *site = load_page(0);
	struct diff_site nav = { 2, { "apple-m5", "x-y" },
				 { "Apple M5", "<img src=x onerror=alert(1)>" },
				 { "runs/r/a/index.html", "runs/r/%22b\"q/index.html" },
				 { "2026-01-01 00:00", "<i>undated</i>" }, "consecutive runs" };
	struct buf out = BUF_INIT, css = BUF_INIT, p = BUF_INIT;
	char first_rule[64] = "";
	FILE *f;

	if (!d || !own || !site)
		goto out;
	json_object_set_new(json_object_get(d, "a"), "run", json_string("r/<b>&\"'"));
	json_object_set_new(json_object_get(d, "a"), "title", json_string("</title><script>x()"));
	json_object_set_new(json_array_get(json_object_get(d, "rows"), 0), "target",
			    json_string("<script>alert(1)</script>\x1b[2J"));
	json_array_set_new(json_object_get(d, "notes"), 0, json_string("<b>bold</b> & more"));

	CHECK(!diff_render_html(own, d, NULL, &out), "the page of its own renders");
	CHECK(!strstr(out.ptr, "<script") && !strstr(out.ptr, "<b>") && !strstr(out.ptr, "<img"),
	      "html: no markup from the document");
	CHECK(strstr(out.ptr, "<title>erg diff: r/&lt;b&gt;&amp;&quot;&#39; vs r/b`x</title>") != NULL,
	      "html: run ids escaped in the title");
	CHECK(strstr(out.ptr, "<code>r/&lt;b&gt;&amp;&quot;&#39;</code> \xe2\x80\x94 "
		     "&lt;/title&gt;&lt;script&gt;x()<br>") != NULL, "html: the run's title escaped");
	CHECK(strstr(out.ptr, "<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;[2J</td>") != NULL,
	      "html: the target escaped, its control character dropped");
	CHECK(!strchr(out.ptr, '\x1b'), "html: no escape byte");
	CHECK(strstr(out.ptr, "<tr><td><code>machine.model</code></td><td>M&lt;1&gt;</td>"
		     "<td>M|2</td></tr>") != NULL, "html: environment values escaped");
	CHECK(strstr(out.ptr, "<p class=\"note\">Note: &lt;b&gt;bold&lt;/b&gt; &amp; more</p>") != NULL,
	      "html: notes escaped");
	CHECK(strstr(out.ptr, "<td class=\"num\">100.0 \xc2\xb1 10.0 (3)</td>") &&
	      strstr(out.ptr, "<td class=\"ns\">~</td>") &&
	      strstr(out.ptr, "<tr class=\"geomean\"><td>geomean</td><td class=\"num\">100.0</td>"),
	      "html: the figures are the text's (no alignment), verdict and geomean classes");
	CHECK(diff_html_is_ours(out.ptr, out.len > 1024 ? 1024 : out.len),
	      "html: carries erg's generator tag");
	CHECK(!strstr(out.ptr, "<link") && !strstr(out.ptr, "<header"),
	      "html of its own: no link, no site navigation");
	/* erg.css is inlined whole, before diff.css */
	buf_addf(&p, "%s/templates/erg.css", src_dir);
	if ((f = fopen(p.ptr, "r"))) {
		if (!fgets(first_rule, sizeof(first_rule), f))
			first_rule[0] = '\0';
		fclose(f);
	}
	buf_addf(&css, "<style>\n%s", first_rule);
	CHECK(first_rule[0] && strstr(out.ptr, css.ptr) &&
	      strstr(out.ptr, "td.sig{font-weight:bold}\n</style>\n</head>"),
	      "html of its own: erg.css and diff.css inlined");

	buf_reset(&out);
	CHECK(!diff_render_html(site, d, &nav, &out), "the site's page renders");
	CHECK(strstr(out.ptr, "<link rel=\"stylesheet\" href=\"../../erg.css\">\n<style>\n.diff-warning") &&
	      !strstr(out.ptr, css.ptr), "site page: erg.css linked, only diff.css inlined");
	CHECK(strstr(out.ptr, "<a href=\"../../machines/x-y/index.html\">&lt;img src=x "
		     "onerror=alert(1)&gt;</a></nav>") != NULL, "site page: machine label escaped");
	CHECK(strstr(out.ptr, "<a href=\"../../runs/r/%22b%22q/index.html\">B, &lt;i&gt;undated"
		     "&lt;/i&gt;</a>") != NULL,
	      "site page: a run href percent-encoded, an encoded one kept, its date escaped");
	CHECK(!strstr(out.ptr, "<img") && !strstr(out.ptr, "<i>") && !strstr(out.ptr, "<script"),
	      "site page: no markup from the data");
out:
	diff_html_free(own);
	diff_html_free(site);
	json_decref(d);
	buf_release(&out);
	buf_release(&css);
	buf_release(&p);
}

/* ------------------------------------------------- --out: ours or not */

static void
test_ours(void)
{
	static const char html_other[] = "<!DOCTYPE html>\n<html><head><title>x</title></head></html>\n";
	static const char gen_late[] = "<p><meta name=\"generator\" content=\"erg\">\n";

	CHECK(!diff_text_is_ours("A: my notes\nsecond line\n", 24), "text: 'A: ' alone is not ours");
	CHECK(!diff_text_is_ours("A: x\n   y\nC: z\n", 15), "text: no 'B: ' line: not ours");
	CHECK(!diff_text_is_ours("# erg diff\n\nnotes\n", 18), "markdown: a heading alone is not ours");
	CHECK(!diff_text_is_ours("{\"format\": \"erg-diff/1\"}\n", 25),
	      "json: not written by erg (one line): not ours");
	CHECK(!diff_text_is_ours("", 0), "an empty file is not ours");
	CHECK(!diff_html_is_ours(html_other, sizeof(html_other) - 1),
	      "html: a page without the generator tag is not ours");
	CHECK(!diff_html_is_ours(gen_late, sizeof(gen_late) - 1),
	      "html: the tag without the doctype is not ours");
}

static int
ours_prefix(const char *head, size_t n)
{
	return n >= 4 && !memcmp(head, "ERG\n", 4);
}

static char *
slurp(const char *path)
{
	struct buf b = BUF_INIT;
	char tmp[4096];
	size_t k;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	while ((k = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(&b, tmp, k);
	fclose(f);
	return buf_detach(&b, NULL);
}

static void
test_write_file(void)
{
	char tmpl[] = "/tmp/erg-diff-out-XXXXXX", *dir = mkdtemp(tmpl), *s;
	struct buf p = BUF_INIT, q = BUF_INIT, diag = BUF_INIT;
	struct stat st;
	int rc;

	CHECK(dir != NULL, "mkdtemp");
	if (!dir)
		return;
	buf_addf(&p, "%s/out.txt", dir);
	CHECK(!site_write_file(p.ptr, "ERG\none\n", 8, ours_prefix), "a new file is written");
	chmod(p.ptr, 0640);
	CHECK(!site_write_file(p.ptr, "ERG\ntwo\n", 8, ours_prefix), "its own file is replaced");
	s = slurp(p.ptr);
	CHECK(s && !strcmp(s, "ERG\ntwo\n"), "with the new content");
	free(s);
	CHECK(!stat(p.ptr, &st) && (st.st_mode & 07777) == 0640, "and its permissions kept");

	buf_addf(&q, "%s/notes.txt", dir);
	s = NULL;
	{
		FILE *f = fopen(q.ptr, "w");

		if (f) {
			fputs("my notes\n", f);
			fclose(f);
		}
	}
	diag_capture(&diag);
	rc = site_write_file(q.ptr, "ERG\nx\n", 6, ours_prefix);
	diag_capture(NULL);
	CHECK(rc == -1 && strstr(diag.ptr, "notes.txt: error: exists and is not a file erg wrote"),
	      "a file erg did not write is refused with a located error");
	s = slurp(q.ptr);
	CHECK(s && !strcmp(s, "my notes\n"), "and left as it was");
	free(s);

	buf_reset(&q);
	buf_addf(&q, "%s/link", dir);
	if (!symlink(p.ptr, q.ptr)) {
		buf_reset(&diag);
		diag_capture(&diag);
		rc = site_write_file(q.ptr, "ERG\nx\n", 6, ours_prefix);
		diag_capture(NULL);
		CHECK(rc == -1 && strstr(diag.ptr, "exists and is a symbolic link"),
		      "a symbolic link is not followed nor replaced");
		s = slurp(p.ptr);
		CHECK(s && !strcmp(s, "ERG\ntwo\n"), "its target is untouched");
		free(s);
	}
	buf_reset(&q);
	buf_addf(&q, "%s/fifo", dir);
	if (!mkfifo(q.ptr, 0600)) {
		buf_reset(&diag);
		diag_capture(&diag);
		rc = site_write_file(q.ptr, "ERG\nx\n", 6, ours_prefix);
		diag_capture(NULL);
		CHECK(rc == -1 && strstr(diag.ptr, "exists and is a FIFO"),
		      "a FIFO is refused without being opened");
	}
	buf_reset(&q);
	buf_addf(&q, "rm -rf '%s'", dir);
	{
		/* nothing but the files made here: no temporary file left over */
		struct buf ls = BUF_INIT;
		FILE *f;
		char line[256];
		int other = 0;

		buf_addf(&ls, "ls -A '%s'", dir);
		if ((f = popen(ls.ptr, "r"))) {
			while (fgets(line, sizeof(line), f))
				other += strcmp(line, "out.txt\n") && strcmp(line, "notes.txt\n") &&
					 strcmp(line, "link\n") && strcmp(line, "fifo\n");
			pclose(f);
		}
		CHECK(other == 0, "no temporary file is left beside the output");
		buf_release(&ls);
	}
	if (system(q.ptr))
		printf("# cleanup of %s failed\n", dir);
	buf_release(&p);
	buf_release(&q);
	buf_release(&diag);
}

/* ---------------------------------------------- the build's diff pairs */

/* An energy session of machine m5 on day d, every value scaled by k. */
static json_t *
session(int day, double k)
{
	json_t *res = json_object(), *targets = json_array(), *ms = json_array();
	static const char *const names[] = { "elysia", "hono" };
	char id[32], date[32];
	size_t t, r;

	snprintf(id, sizeof(id), "m5/2026-09-%02d", day);
	snprintf(date, sizeof(date), "2026-09-%02dT10:00:00Z", day);
	json_object_set_new(res, "run", json_string(id));
	json_object_set_new(res, "title", json_string(id));
	json_object_set_new(res, "captured_at", json_string(date));
	json_object_set_new(res, "machine", json_pack("{s:s, s:s, s:s}", "id", "m5", "model",
						      "Mac17,3", "chip", "Apple M5"));
	json_object_set_new(res, "energy_source", json_string("powermetrics"));
	for (t = 0; t < 2; t++) {
		json_array_append_new(targets, json_pack("{s:s}", "name", names[t]));
		for (r = 0; r < 5; r++) {
			double v = k * (1 + 0.1 * (double)t) * (1 + 0.01 * (double)r);

			json_array_append_new(ms, json_pack(
				"{s:s, s:i, s:f, s:f, s:f, s:[{s:s, s:s, s:f, s:f, s:f}]}",
				"target", names[t], "round", (int)r + 1, "headline_mj_per_req", v,
				"headline_rps", 1000 / v, "headline_watts", v * 10, "routes", "name",
				"ping", "per", "request", "mj_per_req", v, "rps", 1000 / v,
				"mean_watts", v * 10));
		}
	}
	json_object_set_new(res, "targets", targets);
	json_object_set_new(res, "measurements", ms);
	return res;
}

/* Live jansson bytes each time a diff page reaches the sink. */
struct catch {
	size_t pages, min, max;
};

static int
catch_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct catch *c = ctx;

	(void)data;
	(void)len;
	if (!strncmp(rel, "diffs/", 6) && strcmp(rel, "diffs/index.html")) {
		if (!c->pages || live < c->min)
			c->min = live;
		if (live > c->max)
			c->max = live;
		c->pages++;
	}
	return 0;
}

static void
test_build_views(void)
{
	struct catch c = { 0, 0, 0 };
	struct render_ctx rc = { 0 };
	struct sink k = { catch_write, &c };
	struct buf dir = BUF_INIT;
	json_t *all = json_array(), *d;
	size_t before, doc, i;
	const size_t n = 9;

	for (i = 0; i < n; i++)
		json_array_append_new(all, session((int)i + 1, 1 + 0.05 * (double)i));
	/* What one comparison of two such runs holds. */
	before = live;
	d = compare_runs(json_array_get(all, 0), "a", NULL, json_array_get(all, 1), "b", NULL, NULL);
	doc = live - before;
	json_decref(d);
	CHECK(doc > 10000, "one comparison document holds %zu bytes", doc);

	buf_addf(&dir, "%s/templates", src_dir);
	CHECK(!render_begin(&rc, dir.ptr, k), "render_begin");
	CHECK(!build_views(&rc, all, NULL, NULL), "build_views renders the views of %zu sessions", n);
	render_end(&rc);
	CHECK(c.pages == n - 1, "a diff page per consecutive pair (%zu of %zu)", c.pages, n - 1);
	printf("# live jansson bytes at the diff pages: %zu .. %zu; one document %zu\n", c.min, c.max,
	       doc);
	/* Holding every document would grow by a document per page. */
	CHECK(c.max - c.min < doc / 2,
	      "memory at the last diff page is that of the first: each document is freed "
	      "before the next (grew %zu bytes over %zu pages, a document is %zu)",
	      c.max - c.min, c.pages, doc);
	json_decref(all);
	buf_release(&dir);
}

int
main(void)
{
	/* Before jansson allocates anything. */
	json_set_alloc_funcs(count_malloc, count_free);
	setvbuf(stdout, NULL, _IOLBF, 0);
	src_dir = getenv("ERG_SRC") ? getenv("ERG_SRC") : ".";
	test_walk();
	test_html();
	test_ours();
	test_write_file();
	test_build_views();
	return th_done();
}
