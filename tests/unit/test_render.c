/*
 * test_render.c - pages from hand-made results JSON, fed hostile names.
 *
 * A results document is written out here (not produced by the pipeline)
 * with a target named <script>alert(1)</script>, a route named
 * "><svg onload=alert(1)>, a title holding a javascript: link and notes
 * with raw HTML, an onerror image and javascript: links.  It is rendered
 * with the real templates into a site under a mkdtemp directory, and the
 * output is checked: no markup from the data, no script at all, no
 * javascript: URL, the escaped forms present; ids sanitised and unique;
 * missing figures shown as "–" titled "not reported", never 0; CSV
 * quoting and precision; determinism.  What a page of a real run looks
 * like (sections, wording, number formats, the throughput-only and
 * non-2xx variants) is pinned by the page goldens (tests/golden/pages/).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "harness.h"

#include "base/buf.h"
#include "render/markdown.h"
#include "base/path.h"
#include "render/page_run.h"
#include "site/site.h"
#include "base/util.h"

#define EVIL_T "<script>alert(1)</script>"
#define EVIL_R "\\\"><svg onload=alert(1)>"	/* JSON-escaped '"' */

/* One energy run: three targets (two whose names sanitise alike), two
 * small routes and one per-MB route, a null SD, hostile everything. */
static const char *const energy_json[] = {
	"{\"run\": \"2024-01/evil run\", \"kind\": \"energy-session\",",
	" \"title\": \"[click](javascript:alert(1)) <b>bold</b>\",",
	" \"captured_at\": \"2024-01-02T03:04:05Z\",",
	" \"machine\": {\"model\": \"M<1>\", \"chip\": \"C&D\", \"id\": \"box\",",
	"   \"memoryBytes\": 17179869184, \"perflevel0\": {\"name\": \"P\", \"count\": 4},",
	"   \"perflevel1\": {\"name\": \"E\", \"count\": 4}, \"os\": \"OS 1\"},",
	" \"software\": {\"tool\": \"<i>1.0</i>\", \"upstream\": {\"repo\": \"javascript:alert(2)\"}},",
	" \"conditions\": {\"room_temp_c\": 21.5, \"load\": {\"url\": \"http://127.0.0.1:3000/\",",
	"   \"connections\": 50}, \"session_start\": {\"rounds\": 2, \"cooldownSec\": 10, \"rps\": 0},",
	"   \"session_start_ms\": 0, \"session_end_ms\": 120000},",
	" \"reconstructed\": \"rebuilt <from> data\",",
	" \"caveats\": [\"caveat <em>one</em>\"],",
	" \"energy_source\": \"powermetrics\",",
	" \"power_files\": [{\"file\": \"power.plist\", \"samples\": 10}],",
	" \"targets\": [",
	"  {\"name\": \"" EVIL_T "\", \"headline\": {\"mj_per_req\": {\"mean\": 0.0958123, \"sd\": 0.00062,",
	"     \"cv\": 0.0065, \"n\": 2, \"ci95\": [0.09, 0.1]}, \"rps\": 184915.26, \"rps_sd\": 704.5,",
	"     \"watts\": 17.688, \"watts_sd\": 0.058, \"rank_mj_per_req\": 1, \"rank_watts\": 2,",
	"     \"routes\": [\"ping\", \"" EVIL_R "\"]},",
	"   \"routes\": [",
	"    {\"name\": \"ping\", \"per\": \"request\", \"mj_per_req\": {\"mean\": 0.08, \"sd\": 0.001, \"n\": 2},",
	"     \"net_mj_per_req\": 0.079, \"mj_per_mb\": 1, \"rps\": {\"mean\": 1000, \"sd\": 1},",
	"     \"watts\": {\"mean\": 16, \"sd\": 0.1}, \"idle_share\": 0.0016},",
	"    {\"name\": \"" EVIL_R "\", \"per\": \"request\", \"mj_per_req\": {\"mean\": 0.1, \"sd\": null, \"n\": 1},",
	"     \"net_mj_per_req\": null, \"mj_per_mb\": 2, \"rps\": {\"mean\": 900, \"sd\": null},",
	"     \"watts\": {\"mean\": 17, \"sd\": null}, \"idle_share\": null},",
	"    {\"name\": \"video\", \"per\": \"MB\", \"mj_per_req\": {\"mean\": 17.4, \"sd\": 0.4, \"n\": 2},",
	"     \"net_mj_per_req\": 17.3, \"mj_per_mb\": 1.229,",
	"     \"mj_per_mb_stat\": {\"mean\": 1.229, \"sd\": 0.031, \"cv\": 0.025, \"n\": 2, \"ci95\": [1.1, 1.3]},",
	"     \"rps\": {\"mean\": 878.5, \"sd\": 9.3}, \"watts\": {\"mean\": 15.2, \"sd\": 0.5}, \"idle_share\": 0.0018}]},",
	"  {\"name\": \"a b\", \"headline\": {\"mj_per_req\": {\"mean\": 0.17, \"sd\": 0.001, \"cv\": 0.006,",
	"     \"n\": 2, \"ci95\": [0.16, 0.18]}, \"rps\": 79667.9, \"rps_sd\": 1212.6, \"watts\": 13.5,",
	"     \"watts_sd\": 0.14, \"rank_mj_per_req\": 3, \"rank_watts\": 3, \"routes\": [\"ping\"]},",
	"   \"routes\": []},",
	"  {\"name\": \"a/b\", \"headline\": {\"mj_per_req\": {\"mean\": 0.1, \"sd\": null, \"cv\": null,",
	"     \"n\": 1, \"ci95\": [null, null]}, \"rps\": null, \"rps_sd\": null, \"watts\": 17,",
	"     \"watts_sd\": null, \"rank_mj_per_req\": 2, \"rank_watts\": 1, \"routes\": [\"ping\"]},",
	"   \"routes\": []}],",
	" \"measurements\": [",
	"  {\"id\": \"r1-s1-x\", \"target\": \"" EVIL_T "\", \"round\": 1, \"slot\": 1,",
	"   \"headline_mj_per_req\": 0.095, \"headline_watts\": 17.6, \"routes\": [",
	"    {\"name\": \"" EVIL_R "\", \"per\": \"request\", \"start_ms\": 1000, \"end_ms\": 11000,",
	"     \"requests\": 100, \"rps\": 0.1, \"energy_j\": 1e-7, \"mean_watts\": null,",
	"     \"thermal\": \"Nominal\", \"idle_window\": \"idle-00\"}]},",
	"  {\"id\": \"r2-s2-x\", \"target\": \"" EVIL_T "\", \"round\": 2, \"slot\": 2,",
	"   \"headline_mj_per_req\": 0.0966, \"headline_watts\": 17.7, \"routes\": []}],",
	" \"idle_windows\": [{\"id\": \"idle-00\", \"kind\": \"preroll\", \"start_ms\": 0, \"end_ms\": 1000,",
	"   \"session_min\": 0, \"mean_watts\": 0.026}, {\"id\": \"idle-01\", \"kind\": \"cooldown\",",
	"   \"session_min\": 30, \"mean_watts\": 0.021}],",
	" \"validation\": {\"status\": \"warn\", \"pitfalls\": [\"pitfall <b>one</b>\"],",
	"   \"ordering\": {\"status\": \"ok\", \"verdict\": \"fine <ok>\", \"scheme\": \"cyclic\",",
	"     \"grid\": [[\"" EVIL_T "\", \"a b\"], [\"a b\", \"" EVIL_T "\"]]},",
	"   \"idle_drift\": {\"status\": \"weird\", \"verdict\": \"v\", \"slope_w_per_h\": 0.000244},",
	"   \"throttling\": {\"status\": \"fail\", \"verdict\": \"hot\", \"series\": [",
	"     {\"session_min\": 1, \"mhz\": 4200}, {\"session_min\": 2, \"mhz\": 4100}]}},",
	" \"files\": [{\"name\": \"meta.json\", \"bytes\": 1234567, \"sha256\": \"ab12\"},",
	"   {\"name\": \"" EVIL_T "\", \"bytes\": 1, \"sha256\": \"cd34\"}],",
	" \"notes\": {\"file\": \"notes.md\", \"markdown\": \"# Notes\\n\\n<script>alert(1)</script>\\n\\n",
	"<img src=x onerror=alert(1)>\\n\\n[x](javascript:alert(1)) [ok](https://example.com/ok)",
	" ![pic](https://example.com/p.png) [rel](../../../etc/passwd) [res](results.json)",
	" [frag](#headline) [data](data:text/html;base64,PHNjcmlwdD4=) [proto](//evil.example/x)\\n\"},",
	" \"power_trace\": [{\"target\": \"" EVIL_T "\", \"route\": \"ping\", \"window_ms\": 10000,",
	"   \"samples\": [[-1000, 0, 1], [0, 1000, 17], [1000, 2000, 18]]}],",
	" \"warnings\": [{\"file\": \"power.plist\", \"line\": null, \"message\": \"model <b>M</b> differs\"},",
	"   {\"file\": \"timeline.jsonl\", \"line\": 12, \"message\": \"second\"}]",
	"}",
	NULL,
};

/* A throughput-only run (energy_source "none"). */
static const char *const plain_json[] = {
	"{\"run\": \"plain\", \"kind\": \"energy-session\", \"title\": \"Plain\",",
	" \"captured_at\": null, \"machine\": {}, \"software\": {}, \"conditions\": {},",
	" \"reconstructed\": null, \"caveats\": [], \"energy_source\": \"none\", \"power_files\": [],",
	" \"targets\": [{\"name\": \"t\", \"headline\": {\"mj_per_req\": {\"mean\": null, \"sd\": null,",
	"   \"n\": 2}, \"rps\": 5000, \"rps_sd\": 10, \"watts\": null, \"routes\": [\"ping\"]},",
	"   \"routes\": [{\"name\": \"ping\", \"per\": \"request\", \"mj_per_req\": {\"mean\": null},",
	"     \"rps\": {\"mean\": 5000, \"sd\": 10}, \"watts\": {\"mean\": null, \"sd\": null}}]}],",
	" \"measurements\": [], \"idle_windows\": [], \"files\": [], \"notes\": {\"file\": null,",
	" \"markdown\": null}, \"power_trace\": []}",
	NULL,
};

static json_t *
parse_parts(const char *const *parts, json_error_t *err)
{
	struct buf b = BUF_INIT;
	json_t *j;

	for (; *parts; parts++)
		buf_addstr(&b, *parts);
	j = json_loads(b.ptr, 0, err);
	buf_release(&b);
	return j;
}

/* A summary run (figures as published, summary.c's layout), hostile too. */
static const char *const summary_json[] = {
	"{\"run\": \"pub/s1\", \"kind\": \"summary\", \"title\": \"Published <i>x</i>\",",
	" \"captured_at\": \"2026-11-05\", \"machine\": {\"id\": \"m4\", \"chip\": \"Apple M4\", \"cores\": 10},",
	" \"software\": {\"oha\": \"1.16.0\"}, \"conditions\": {\"route\": \"/ping\",",
	"   \"load\": {\"tool\": \"oha\", \"connections\": 256}},",
	" \"source\": {\"title\": \"A post\", \"url\": \"https://example.com/post\"},",
	" \"caveats\": [\"one value per cell\"], \"reconstructed\": null,",
	" \"notes\": {\"file\": \"notes.md\", \"markdown\": \"Read [the post](https://example.com/post).\"},",
	" \"energy_source\": \"none\", \"targets\": [], \"measurements\": [], \"idle_windows\": [],",
	" \"tables\": [{\"file\": \"tables/threads.csv\", \"title\": \"By workers\", \"caption\": \"as published\",",
	"   \"x_column\": \"workers\", \"notes\": [],",
	"   \"columns\": [{\"name\": \"target\", \"label\": \"Target\", \"unit\": \"\", \"role\": \"key\", \"numeric\": false},",
	"     {\"name\": \"workers\", \"label\": \"Workers\", \"unit\": \"\", \"role\": \"x\", \"numeric\": true},",
	"     {\"name\": \"rps\", \"label\": \"Throughput\", \"unit\": \"req/s\", \"role\": \"metric\", \"numeric\": true},",
	"     {\"name\": \"odd\", \"label\": \"<b>odd</b>\", \"unit\": \"\", \"role\": \"metric\", \"numeric\": false}],",
	"   \"rows\": [[\"" EVIL_T "\", 1, 229275, \"a,\\\"b\"], [\"" EVIL_T "\", 2, 217932.5, null]]}]}",
	NULL,
};

static char *
slurp(const char *dir, const char *rel)
{
	struct buf p = BUF_INIT, b = BUF_INIT;
	FILE *f;
	char tmp[4096];
	size_t n;

	buf_addf(&p, "%s/%s", dir, rel);
	f = fopen(p.ptr, "rb");
	buf_release(&p);
	if (!f)
		return NULL;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	return buf_detach(&b, NULL);
}

/* Build a site from the two runs into dir/site; 0 on success. */
static int
build(const char *dir, json_t *all)
{
	struct site s = { 0 };
	struct render_ctx rc;
	struct buf out = BUF_INIT;
	size_t i;
	int bad = 0;

	buf_addf(&out, "%s/site", dir);
	if (site_begin(&s, out.ptr)) {
		buf_release(&out);
		return -1;
	}
	if (render_begin(&rc, th_templates_dir(), site_sink(&s))) {
		site_abort(&s);
		buf_release(&out);
		return -1;
	}
	for (i = 0; i < json_array_size(all) && !bad; i++) {
		json_t *res = json_array_get(all, i);
		struct buf rel = BUF_INIT;
		char *text = json_dumps(res, JSON_INDENT(1));

		/* as build.c does before render_run() */
		buf_addf(&rel, "runs/%s/results.json", json_string_value(json_object_get(res, "run")));
		bad = !text || site_write(&s, rel.ptr, text, strlen(text));
		free(text);
		buf_release(&rel);
		if (!bad)
			bad = render_run(&rc, res);
	}
	if (!bad)
		bad = render_index(&rc, all);
	render_end(&rc);
	if (bad)
		site_abort(&s);
	else
		bad = site_commit(&s);
	buf_release(&out);
	return bad;
}

/* Every href="..." value of page, case-insensitively checked for s. */
static int
href_has(const char *page, const char *s)
{
	const char *p = page;

	while ((p = strstr(p, "href=\""))) {
		const char *e = strchr(p + 6, '"');
		char *v;
		size_t i;
		int hit;

		if (!e)
			break;
		v = xstrndup(p + 6, (size_t)(e - p - 6));
		for (i = 0; v[i]; i++)
			v[i] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] - 'A' + 'a' : v[i]);
		hit = strstr(v, s) != NULL;
		free(v);
		if (hit)
			return 1;
		p = e;
	}
	return 0;
}

/* All id="..." values: [A-Za-z0-9_-]+ and unique. */
static void
check_ids(const char *page, const char *what, size_t min)
{
	const char *p = page;
	char **ids = NULL;
	size_t n = 0, a = 0, i;
	int okchars = 1, unique = 1;

	while ((p = strstr(p, " id=\""))) {
		const char *e = strchr(p + 5, '"');

		if (!e)
			break;
		ALLOC_GROW(ids, n + 1, a);
		ids[n] = xstrndup(p + 5, (size_t)(e - p - 5));
		if (!*ids[n] || strspn(ids[n], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				       "0123456789_-") != strlen(ids[n]))
			okchars = 0;
		for (i = 0; i < n; i++)
			if (!strcmp(ids[i], ids[n]))
				unique = 0;
		n++;
		p = e;
	}
	CHECK(n >= min, "%s: ids found (%zu)", what, n);
	CHECK(okchars, "%s: every id is [A-Za-z0-9_-]+", what);
	CHECK(unique, "%s: every id is unique", what);
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static void
test_markdown(void)
{
	struct buf b = BUF_INIT;
	const char md[] = "# T\n\n<b>x</b> [j](JaVaScRiPt:alert(1)) ![i](http://e.example/i.png)"
			  " [![i](https://e.example/i.png)](https://e.example/) <http://a.example/>";
	const char ctl[] = "a\033[31m b\007 c\177 d\302\205 e\n";

	CHECK(markdown_to_html(md, sizeof(md) - 1, &b) == 0, "markdown renders");
	CHECK(strstr(b.ptr, "<h3>T</h3>") != NULL, "headings shifted by 2");
	CHECK(!strstr(b.ptr, "<b>"), "raw HTML omitted");
	CHECK(!strstr(b.ptr, "<img"), "no image is loaded");
	CHECK(strstr(b.ptr, "<a href=\"http://e.example/i.png\">i</a>") != NULL,
	      "an image becomes a link to it");
	CHECK(!strstr(b.ptr, "avascript") && !strstr(b.ptr, "aVaScRiPt"), "javascript: link dropped");
	CHECK(strstr(b.ptr, "<a href=\"https://e.example/\">i</a>") != NULL,
	      "an image inside a link becomes its alt text");
	CHECK(strstr(b.ptr, "<a href=\"http://a.example/\">") != NULL, "autolinks stay");
	buf_reset(&b);
	CHECK(markdown_to_html(ctl, sizeof(ctl) - 1, &b) == 0 &&
	      !strcmp(b.ptr, "<p>a[31m b c d e</p>\n"), "control characters dropped from the notes");
	buf_release(&b);
}

static void
test_site(void)
{
	char tmpl[] = "/tmp/erg-render-XXXXXX", tmpl2[] = "/tmp/erg-render-XXXXXX";
	char *dir = mkdtemp(tmpl), *dir2 = mkdtemp(tmpl2);
	json_error_t err;
	json_t *all = json_array(), *e = parse_parts(energy_json, &err);
	json_t *p = parse_parts(plain_json, &err);
	json_t *sm = parse_parts(summary_json, &err);
	struct buf sd = BUF_INIT, sd2 = BUF_INIT;
	char *run, *idx, *css, *csv, *md, *plain, *run2, *mb, *sum, *scsv;

	CHECK(dir && dir2, "mkdtemp");
	CHECK(e != NULL, "energy results parse (%s at %d)", err.text, err.line);
	CHECK(p != NULL, "plain results parse (%s at %d)", err.text, err.line);
	CHECK(sm != NULL, "summary results parse (%s at %d)", err.text, err.line);
	if (!dir || !dir2 || !e || !p || !sm)
		return;
	json_array_append_new(all, e);
	json_array_append_new(all, p);
	json_array_append_new(all, sm);
	CHECK(build(dir, all) == 0, "site builds");
	CHECK(build(dir2, all) == 0, "site builds again");
	buf_addf(&sd, "%s/site", dir);
	buf_addf(&sd2, "%s/site", dir2);

	run = slurp(sd.ptr, "runs/2024-01/evil run/index.html");
	idx = slurp(sd.ptr, "index.html");
	css = slurp(sd.ptr, "erg.css");
	csv = slurp(sd.ptr, "runs/2024-01/evil run/routes.csv");
	mb = slurp(sd.ptr, "runs/2024-01/evil run/per-mb.csv");
	md = slurp(sd.ptr, "runs/2024-01/evil run/tables.md");
	plain = slurp(sd.ptr, "runs/plain/index.html");
	run2 = slurp(sd2.ptr, "runs/2024-01/evil run/index.html");
	sum = slurp(sd.ptr, "runs/pub/s1/index.html");
	scsv = slurp(sd.ptr, "runs/pub/s1/threads.csv");
	CHECK(run && idx && css && csv && md && plain && mb, "pages and exports written");
	if (!run || !idx || !css || !csv || !md || !plain || !run2 || !mb)
		goto out;

	/* nothing from the data becomes markup */
	CHECK(!strstr(run, "<script") && !strstr(idx, "<script") && !strstr(plain, "<script"),
	      "no <script in any page (the templates have none either)");
	CHECK(!strstr(run, "onerror="), "no onerror= in the run page");
	CHECK(strstr(run, "<code>power.plist</code>: model &lt;b&gt;M&lt;/b&gt; differs") != NULL,
	      "an input warning is listed under 'Read this first', escaped, with its file");
	CHECK(!strstr(run, "<svg onload") && !strstr(run, "<img"), "no injected element");
	CHECK(!href_has(run, "javascript:") && !href_has(idx, "javascript:"),
	      "no javascript: in any href");
	CHECK(!href_has(run, "data:") && !href_has(run, "//evil"), "no data: or //host href");
	CHECK(strstr(run, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL,
	      "the hostile target name is shown escaped");
	CHECK(strstr(run, "&quot;&gt;&lt;svg onload=alert(1)&gt;") != NULL,
	      "the hostile route name is shown escaped");
	CHECK(strstr(run, "<title>[click](javascript:alert(1)) &lt;b&gt;bold&lt;/b&gt; – erg</title>") != NULL,
	      "the title is text, its link syntax not followed");
	CHECK(strstr(run, "<li>pitfall &lt;b&gt;one&lt;/b&gt;</li>") != NULL, "pitfalls escaped, shown");
	CHECK(strstr(run, "javascript:alert(2)") && !href_has(run, "alert(2)"),
	      "a URL in the metadata is text, not a link");

	/* notes */
	CHECK(strstr(run, "<!-- raw HTML omitted -->") != NULL, "raw HTML in notes omitted");
	CHECK(strstr(run, "<a href=\"https://example.com/ok\">ok</a>") != NULL,
	      "an author's https link stays");
	CHECK(strstr(run, "<a href=\"https://example.com/p.png\">pic</a>") != NULL,
	      "an image in the notes becomes a link");
	CHECK(strstr(run, "<a href=\"results.json\">res</a>") != NULL,
	      "a link to a file of the run directory stays");
	CHECK(!href_has(run, "passwd") && strstr(run, "rel"), "a link out of the site is unwrapped");

	/* structure */
	CHECK(strstr(idx, "href=\"runs/2024-01/evil%20run/index.html\"") != NULL,
	      "index links to the run page, encoded, with index.html");
	CHECK(strstr(idx, "href=\"runs/plain/index.html\"") != NULL, "index links the second run");
	CHECK(strstr(plain, "href=\"../../erg.css\"") != NULL, "depth 2 page");
	CHECK(strstr(run, "id=\"t-_script_alert_1___script_\"") != NULL, "target row id sanitised");
	CHECK(strstr(run, "id=\"t-a_b\"") && strstr(run, "id=\"t-a_b-2\""),
	      "names that sanitise alike get a suffix");
	CHECK(strstr(run, "id=\"chart-headline\"") && strstr(run, "id=\"chart-power\"") &&
	      strstr(run, "id=\"chart-routes\"") && strstr(run, "id=\"chart-per-mb\"") &&
	      strstr(run, "id=\"chart-trace\"") && strstr(run, "id=\"chart-idle\"") &&
	      strstr(run, "id=\"chart-mhz\"") && strstr(run, "id=\"chart-efficiency\""),
	      "every chart has its id");
	check_ids(run, "run page", 40);
	check_ids(idx, "index", 3);
	CHECK(strstr(run, "class=\"badge badge-recon\">reconstructed</span> rebuilt &lt;from&gt; data") != NULL,
	      "reconstructed badge with its text");
	CHECK(strstr(run, "<li>caveat &lt;em&gt;one&lt;/em&gt;</li>") != NULL, "the run's caveats");
	CHECK(strstr(run, "st st-na\">weird") != NULL, "unknown status gets the neutral class");
	CHECK(strstr(run, "slope +0.000244 W/h") != NULL, "idle slope from the validation block");

	/* numbers */
	CHECK(strstr(run, ">0.09581<span class=\"pm\"> ± 0.00062</span>") != NULL,
	      "mJ/req with the column's decimals, ± SD");
	CHECK(strstr(run, ">1.229<span class=\"pm\"> ± 0.031</span>") != NULL, "mJ/MB table");
	CHECK(strstr(run, "<td class=\"num na\" title=\"not reported\">–</td>") != NULL,
	      "a null figure is an en dash titled 'not reported'");
	CHECK(strstr(run, "<span class=\"pm na\" title=\"not reported\"> ± –</span>") != NULL,
	      "a null SD next to a mean");
	CHECK(!strstr(run, "nan") && !strstr(run, "NaN") && !strstr(run, "inf<"),
	      "no NaN or inf printed");
	CHECK(strstr(run, "Cores</dt><dd>4 P + 4 E (8 cores)") != NULL, "cores from perflevels");

	CHECK(strstr(idx, "throughput only") != NULL, "index marks the throughput-only run");
	CHECK(strstr(idx, "id=\"machine-box\"") && strstr(idx, "id=\"machine-unknown_machine\"") &&
	      strstr(idx, "id=\"machine-box\"") < strstr(idx, "id=\"machine-unknown_machine\""),
	      "machines in order of their newest run, undated last");

	/* exports */
	CHECK(strstr(csv, "\"\"\"><svg onload=alert(1)>\"") != NULL, "CSV quotes a field with '\"'");
	CHECK(strstr(csv, ",0.0016\r\n") != NULL, "CSV: full precision, CRLF");
	CHECK(strstr(csv, ",,") != NULL, "CSV: null is an empty field");
	CHECK(!strstr(csv, "e+") && !strstr(csv, "e-0"), "CSV: no exponents for ordinary numbers");
	CHECK(strstr(mb, "video,2,1.229,0.031,") != NULL, "per-MB CSV");
	CHECK(strstr(md, "\\<script\\>alert(1)\\</script\\>") != NULL, "Markdown escapes names");
	CHECK(strstr(md, "| 0.09581 ± 0.00062 |") != NULL, "Markdown rounded as the page");
	CHECK(strstr(md, "(mJ/req, mean ± SD)") != NULL, "Markdown headers say the unit");

	/* a summary run */
	CHECK(sum && scsv, "summary page and its table's CSV written");
	if (sum && scsv) {
		CHECK(!strstr(sum, "<script") && !strstr(sum, "<b>odd") && !strstr(sum, "<i>x"),
		      "summary: nothing from the data becomes markup");
		CHECK(strstr(sum, "&lt;b&gt;odd&lt;/b&gt;") && strstr(sum, "Published &lt;i&gt;x&lt;/i&gt;"),
		      "summary: labels and title escaped");
		CHECK(strstr(sum, "id=\"r-threads-script_alert_1_script-1\"") != NULL,
		      "summary: row ids from the key and x columns");
		CHECK(strstr(scsv, "target,workers,rps,odd\r\n") &&
		      strstr(scsv, ",229275,\"a,\"\"b\"\r\n") && strstr(scsv, ",217932.5,\r\n"),
		      "summary: CSV quoting and precision");
		check_ids(sum, "summary page", 10);
	}
	CHECK(strstr(idx, "published figures") != NULL, "index marks the summary run");

	/* determinism */
	CHECK(!strcmp(run, run2), "the same results give the same page");
out:
	free(run);
	free(idx);
	free(css);
	free(csv);
	free(mb);
	free(md);
	free(plain);
	free(run2);
	free(sum);
	free(scsv);
	json_decref(all);
	if (getenv("RENDER_KEEP")) {	/* for looking at the pages */
		printf("# site kept in %s/site\n", dir);
	} else {
		path_remove_tree(dir);
	}
	path_remove_tree(dir2);
	buf_release(&sd);
	buf_release(&sd2);
}

/* The index of a large archive: 20,000 runs (the default --max-runs) on
 * 10,000 machines, rendered in reasonable time: no quadratic grouping or
 * id lookup. */
static void
test_big_index(void)
{
	char tmpl[] = "/tmp/erg-render-XXXXXX";
	char *dir = mkdtemp(tmpl);
	json_t *all = json_array();
	struct site s = { 0 };
	struct render_ctx rc;
	struct buf out = BUF_INIT, name = BUF_INIT;
	char *idx = NULL;
	size_t i;
	int ok;

	CHECK(dir != NULL, "mkdtemp");
	if (!dir)
		return;
	for (i = 0; i < 20000; i++) {
		json_t *r = json_object(), *m = json_object();

		buf_reset(&name);
		buf_addf(&name, "m/%zu", i % 10000);	/* two runs per machine */
		json_object_set_new(m, "id", json_string(name.ptr));
		json_object_set_new(r, "machine", m);
		buf_reset(&name);
		buf_addf(&name, "r/%05zu", i);
		json_object_set_new(r, "run", json_string(name.ptr));
		buf_reset(&name);
		buf_addf(&name, "2024-01-%02zuT00:00:00Z", 1 + i % 28);
		json_object_set_new(r, "captured_at", json_string(name.ptr));
		json_object_set_new(r, "energy_source", json_string("none"));
		json_array_append_new(all, r);
	}
	buf_addf(&out, "%s/site", dir);
	ok = !site_begin(&s, out.ptr);
	if (ok && render_begin(&rc, th_templates_dir(), site_sink(&s))) {
		site_abort(&s);
		ok = 0;
	}
	if (ok) {
		ok = !render_index(&rc, all);
		render_end(&rc);
		if (ok)
			ok = !site_commit(&s);
		else
			site_abort(&s);
	}
	CHECK(ok, "index of 20,000 runs renders");
	idx = ok ? slurp(out.ptr, "index.html") : NULL;
	/* the newest 50 runs (2024-01-28: i % 28 == 27, by run id), every
	 * machine in the list of machines, every year */
	{
		const char *p = idx;
		size_t nrow = 0, nm = 0;

		while (p && (p = strstr(p, "<tr id=\"run-")))
			nrow++, p++;
		p = idx;
		while (p && (p = strstr(p, "<li><a href=\"machines/m-")))
			nm++, p++;
		CHECK(idx && strstr(idx, "20000 runs") && nrow == 50 && strstr(idx, "id=\"run-r_00027\"") &&
		      strstr(idx, "id=\"run-r_01399\"") && !strstr(idx, "id=\"run-r_01427\"") &&
		      !strstr(idx, "id=\"run-r_19999\"") && nm == 10000 &&
		      strstr(idx, "<a href=\"machines/m-9999/index.html\">") &&
		      strstr(idx, "<a href=\"years/2024/index.html\">2024</a>"),
		      "the newest 50 runs (%zu), every machine's list (%zu of 10000), the year's", nrow,
		      nm);
	}
	CHECK(idx && strstr(idx, "id=\"machine-m_27\"") && strstr(idx, "id=\"machine-m_27-2\"") == NULL,
	      "one group per machine id");
	free(idx);
	json_decref(all);
	path_remove_tree(dir);
	buf_release(&out);
	buf_release(&name);
}

int
main(void)
{
	unsetenv("SOURCE_DATE_EPOCH");
	test_markdown();
	test_site();
	test_big_index();
	return th_done();
}
