/*
 * test_views.c - the cross-run pages (gen/render/page_views.c).
 *
 * 1. An in-memory archive: two machines (one of them with the id
 *    "../../x"), several dates, targets with hostile names
 *    ("<script>alert(1)</script>", "Bun" and "bun": one target, an empty name),
 *    rendered with the real templates into a site under a mkdtemp
 *    directory.  Checked: the pages exist at the sanitised paths; names
 *    are shown escaped; the only <script is the static sort script;
 *    every href is relative, names index.html (or erg.css or an
 *    anchor) and resolves to a file of the site, and every #fragment to
 *    an id of its page; ids are unique in each page; two renderings are
 *    byte-identical; diff pages for consecutive energy sessions and for
 *    the pairs of diffs.txt, whose errors are located at their line.
 * 2. The committed archive (when ERG_SRC/archive is there): every run is
 *    read with build_process() and rendered with render_index() and
 *    build_views() (diffs.txt read by ingest/pairs.c, as the build does),
 *    and the machine, target and compare pages are checked.  With
 *    ERG_VIEWS_SITE=DIR the site is left in DIR, to look at.
 * ERG_VIEWS_KEEP=1 keeps the in-memory archive's site (path printed).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"

#include "ingest/archive.h"
#include "base/buf.h"
#include "cmd/build.h"
#include "base/path.h"
#include "ingest/pairs.h"
#include "ingest/targets.h"
#include "render/page_run.h"
#include "render/page_views.h"
#include "site/site.h"
#include "base/util.h"

static const char *
src_dir(void)
{
	const char *s = getenv("ERG_SRC");

	return s && *s ? s : ".";
}

static const char *
templates_dir(void)
{
	static struct buf b = BUF_INIT;

	if (!b.len)
		buf_addf(&b, "%s/templates", src_dir());
	return b.ptr;
}

static char *
slurp(const char *dir, const char *rel)
{
	struct buf p = BUF_INIT;
	FILE *f;
	char *s = NULL;
	long n;

	buf_addf(&p, "%s/%s", dir, rel);
	f = fopen(p.ptr, "rb");
	buf_release(&p);
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		s = malloc((size_t)n + 1);
		if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
			free(s);
			s = NULL;
		} else if (s) {
			s[n] = '\0';
		}
	}
	fclose(f);
	return s;
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* an in-memory archive */

static json_t *
mv(double mean, double sd, int n)
{
	return json_pack("{s:f, s:f, s:i}", "mean", mean, "sd", sd, "n", n);
}

/* An energy session with targets names[0..nt), rounds rounds, and idle
 * windows; values scaled by k so runs differ. */
static json_t *
energy_run(const char *id, const char *mid, const char *chip, const char *date,
	   const char *const *names, size_t nt, double k)
{
	json_t *r = json_object(), *targets = json_array(), *ms = json_array(), *idle = json_array();
	size_t i, round;

	json_object_set_new(r, "run", json_string(id));
	json_object_set_new(r, "kind", json_string("energy-session"));
	json_object_set_new(r, "title", json_string(id));
	json_object_set_new(r, "captured_at", json_string(date));
	json_object_set_new(r, "energy_source", json_string("powermetrics"));
	json_object_set_new(r, "machine", json_pack("{s:s, s:s, s:s}", "id", mid, "model", "Mac17,3",
						    "chip", chip));
	for (i = 0; i < nt; i++) {
		json_t *h = json_object();

		json_object_set_new(h, "mj_per_req", mv(0.1 * k * (double)(i + 1), 0.001, 5));
		json_object_set_new(h, "rps", json_real(100000.0 / k / (double)(i + 1)));
		json_object_set_new(h, "rps_sd", json_real(500));
		json_object_set_new(h, "watts", json_real(15 + (double)i));
		json_object_set_new(h, "watts_sd", json_real(0.1));
		json_array_append_new(targets, json_pack("{s:s, s:o, s:[{s:s, s:s, s:o, s:o}]}",
							 "name", names[i], "headline", h, "routes",
							 "name", "ping", "per", "request", "rps",
							 mv(120000.0 / k, 800, 5), "mj_per_req",
							 mv(0.09 * k, 0.001, 5)));
		for (round = 1; round <= 5; round++) {
			double j = 1 + 0.01 * (double)round;

			json_array_append_new(ms, json_pack(
				"{s:s, s:i, s:f, s:f, s:f, s:[{s:s, s:s, s:f, s:f}]}",
				"target", names[i], "round", (int)round,
				"headline_mj_per_req", 0.1 * k * (double)(i + 1) * j,
				"headline_rps", 100000.0 / k / (double)(i + 1) / j,
				"headline_watts", 15 + (double)i * j,
				"routes", "name", "ping", "per", "request", "rps", 120000.0 / k / j,
				"mj_per_req", 0.09 * k * j));
		}
	}
	for (i = 0; i < 4; i++)
		json_array_append_new(idle, json_pack("{s:s, s:f}", "id", "idle", "mean_watts",
						      0.02 * k + 0.001 * (double)i));
	json_object_set_new(r, "targets", targets);
	json_object_set_new(r, "measurements", ms);
	json_object_set_new(r, "idle_windows", idle);
	return r;
}

static json_t *
summary_run(const char *id, const char *mid, const char *date, const char *name, double mj,
	    double rps)
{
	json_t *h = json_object();

	if (mj > 0)
		json_object_set_new(h, "mj_per_req", json_pack("{s:f, s:f, s:i}", "mean", mj, "sd",
							       0.0006, "n", 1));
	json_object_set_new(h, "rps", json_pack("{s:f, s:n, s:i}", "mean", rps, "sd", "n", 1));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s}, s:[{s:s, s:o, s:[]}], s:[]}",
			 "run", id, "kind", "summary", "title", id, "captured_at", date,
			 "energy_source", mj > 0 ? "published" : "none",
			 "machine", "id", mid, "chip", "Apple M5",
			 "targets", "name", name, "headline", h, "routes", "tables");
}

static const char *const evil = "<script>alert(1)</script>";

/* Cells reading "K of N" (significant rows of a tested diff). */
static size_t
count_k_of_n(const char *page)
{
	const char *p = page;
	size_t n = 0;

	while ((p = strstr(p, "\">"))) {
		const char *q = p += 2;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p && !strncmp(q, " of ", 4) && q[4] >= '0' && q[4] <= '9')
			n++;
	}
	return n;
}

/* 300 characters, to be cut to 64 in its path */
static const char *
long_name(void)
{
	static char s[301];

	if (!s[0]) {
		memset(s, 'a', 300);
		s[150] = ' ';
	}
	return s;
}

static json_t *
archive_all(void)
{
	static const char *const m5a[] = { "elysia", "<script>alert(1)</script>", "Bun" };
	static const char *const m5b[] = { "elysia", "bun" };
	static const char *const xa[] = { "<script>alert(1)</script>", "elysia", "" };
	json_t *all = json_array();

	/* not in date order on purpose */
	json_array_append_new(all, energy_run("m5/2026-08-27-b", "apple-m5", "Apple M5",
					      "2026-08-27T10:00:00Z", m5b, 2, 1.1));
	json_array_append_new(all, energy_run("m5/2026-08-26-a", "apple-m5", "Apple M5",
					      "2026-08-26T01:56:00Z", m5a, 3, 1.0));
	json_array_append_new(all, energy_run("m5/2026-09-01-c", "apple-m5", "Apple M5",
					      "2026-09-01T08:00:00Z", m5a, 3, 0.9));
	json_array_append_new(all, summary_run("m5/2026-08-26-pub", "apple-m5", "2026-08-26",
					       "elysia", 0.0958, 184915));
	json_array_append_new(all, energy_run("x/\"evil run", "../../x", "<b>chip</b>",
					      "2025-01-02T03:04:05Z", xa, 3, 2.0));
	json_array_append_new(all, energy_run("x/second", "../../x", "<b>chip</b>",
					      "2025-02-02T03:04:05Z", xa, 2, 2.1));
	json_array_append_new(all, summary_run("intel/2023", "intel-i7", "2023-05-16", "elysia", 0,
					       362395.4));
	/* names that would make bad paths: the list page's own name, a long one */
	json_array_append_new(all, summary_run("x/idx", "../../x", "2025-03-01", "index.html", 0,
					       1000));
	json_array_append_new(all, summary_run("x/long", "../../x", "2025-03-02", long_name(), 0,
					       2000));
	json_array_append_new(all, summary_run("x/tz", "../../x", "2025-04-01T10:00:00+02:00",
					       "index.html", 0, 3000));
	return all;
}

/* ------------------------------------------------------------------ */
/* rendering */

/* Render all into DIR/site (index and views); 0 on success. */
static int
render_into(const char *out, json_t *all, const char *archive_root, int views)
{
	struct site s = { 0 };
	struct render_ctx rc = { 0 };
	int bad = 0;

	if (site_begin(&s, out))
		return -1;
	if (render_begin(&rc, templates_dir(), site_sink(&s))) {
		site_abort(&s);
		return -1;
	}
	{
		json_t *res;
		size_t i;

		/* The run pages are page_run.c's; should one fail (another
		 * module's problem), a stub stands where it belongs, so the
		 * links of the views can still be checked. */
		json_array_foreach(all, i, res) {
			struct buf rj = BUF_INIT;
			char *text = json_dumps(res, JSON_INDENT(1) | JSON_REAL_PRECISION(17));

			/* as build.c writes it: the run pages link it */
			buf_addf(&rj, "runs/%s/results.json",
				 json_string_value(json_object_get(res, "run")));
			if (!text || site_write(&s, rj.ptr, text, strlen(text)))
				bad = 1;
			free(text);
			buf_release(&rj);
			if (render_run(&rc, res)) {
				struct buf rel = BUF_INIT;
				static const char stub[] = "<!DOCTYPE html><title>stub</title>\n";

				printf("# render_run failed for '%s': a stub page stands in\n",
				       json_string_value(json_object_get(res, "run")));
				buf_addf(&rel, "runs/%s/index.html",
					 json_string_value(json_object_get(res, "run")));
				if (site_write(&s, rel.ptr, stub, sizeof(stub) - 1))
					bad = 1;
				buf_release(&rel);
			}
		}
	}
	if (!bad && render_index(&rc, all))
		bad = 1;
	if (!bad && views) {
		/* as build.c: diffs.txt checked against the run ids */
		struct pair_list pairs = { NULL, 0, 0 };
		struct target_aliases aliases = { NULL, 0, 0 };
		const char **ids = xcalloc(json_array_size(all) + 1, sizeof(*ids));
		size_t i;

		for (i = 0; i < json_array_size(all); i++)
			ids[i] = json_string_value(json_object_get(json_array_get(all, i), "run"));
		if ((archive_root && (pairs_read(archive_root, ids, json_array_size(all), &pairs) ||
				      targets_read(archive_root, &aliases))) ||
		    build_views(&rc, all, &pairs, &aliases))
			bad = 1;
		pair_list_free(&pairs);
		targets_free(&aliases);
		free(ids);
	}
	render_end(&rc);
	if (bad) {
		site_abort(&s);
		return -1;
	}
	return site_commit(&s);
}

/* ------------------------------------------------------------------ */
/* page checks */

struct pages {
	char **rel;
	size_t n, alloc;
};

static void
walk(const char *root, const char *rel, struct pages *p)
{
	struct buf dir = BUF_INIT;
	DIR *d;
	struct dirent *e;

	buf_addf(&dir, "%s/%s", root, rel);
	d = opendir(dir.ptr);
	while (d && (e = readdir(d))) {
		struct buf sub = BUF_INIT, full = BUF_INIT;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		buf_addf(&full, "%s/%s", root, sub.ptr);
		if (!lstat(full.ptr, &st) && S_ISDIR(st.st_mode)) {
			walk(root, sub.ptr, p);
		} else if (str_endswith(sub.ptr, ".html")) {
			ALLOC_GROW(p->rel, p->n + 1, p->alloc);
			p->rel[p->n++] = xstrdup(sub.ptr);
		}
		buf_release(&sub);
		buf_release(&full);
	}
	if (d)
		closedir(d);
	buf_release(&dir);
}

static int
hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Attribute value as the browser reads it: &amp; &quot; &#39; decoded. */
static void
attr_decode(struct buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '&' && !strncmp(s + i, "&amp;", 5)) {
			buf_addch(out, '&');
			i += 4;
		} else if (s[i] == '&' && !strncmp(s + i, "&quot;", 6)) {
			buf_addch(out, '"');
			i += 5;
		} else if (s[i] == '&' && !strncmp(s + i, "&#39;", 5)) {
			buf_addch(out, '\'');
			i += 4;
		} else {
			buf_addch(out, s[i]);
		}
	}
}

static int
has_id(const char *page, const char *id)
{
	struct buf pat = BUF_INIT;
	int ok;

	buf_addf(&pat, " id=\"%s\"", id);
	ok = strstr(page, pat.ptr) != NULL;
	buf_release(&pat);
	return ok;
}

/*
 * Every href/src of the page at rel: relative, resolving to a file of
 * the site (percent-decoded), fragments naming ids of their page; ids
 * unique.  Returns the number of problems (each printed as a comment).
 */
static int
check_page(const char *site, const char *rel, const char *html)
{
	const char *p = html;
	int bad = 0;
	struct buf dir = BUF_INIT;
	const char *slash = strrchr(rel, '/');

	buf_add(&dir, rel, slash ? (size_t)(slash - rel + 1) : 0);
	while ((p = strstr(p, "href=\"")) || 0) {
		const char *q;
		struct buf url = BUF_INIT, path = BUF_INIT, full = BUF_INIT, frag = BUF_INIT;
		size_t i;
		char *hash;

		p += 6;
		q = strchr(p, '"');
		if (!q)
			break;
		attr_decode(&url, p, (size_t)(q - p));
		p = q + 1;
		if (strstr(url.ptr, "://") || url.ptr[0] == '/' || strchr(url.ptr, ':')) {
			printf("# %s: absolute or scheme URL '%s'\n", rel, url.ptr);
			bad++;
			goto next;
		}
		hash = strchr(url.ptr, '#');
		if (hash) {
			buf_addstr(&frag, hash + 1);
			*hash = '\0';
			url.len = strlen(url.ptr);
		}
		if (!url.len) {
			if (!has_id(html, frag.ptr)) {
				printf("# %s: no id '%s' for its anchor\n", rel, frag.ptr);
				bad++;
			}
			goto next;
		}
		if (!str_endswith(url.ptr, "index.html") && !str_endswith(url.ptr, "erg.css")) {
			printf("# %s: link '%s' does not name index.html\n", rel, url.ptr);
			bad++;
		}
		for (i = 0; i < url.len; i++) {
			if (url.ptr[i] == '%' && hexval(url.ptr[i + 1]) >= 0 && hexval(url.ptr[i + 2]) >= 0) {
				buf_addch(&path, hexval(url.ptr[i + 1]) * 16 + hexval(url.ptr[i + 2]));
				i += 2;
			} else {
				buf_addch(&path, url.ptr[i]);
			}
		}
		buf_addf(&full, "%s/%s%s", site, dir.ptr, path.ptr);
		{
			char *real = realpath(full.ptr, NULL), *root = realpath(site, NULL);

			if (!real || !root || strncmp(real, root, strlen(root)) ||
			    !path_is_file(real)) {
				printf("# %s: link '%s' does not resolve inside the site\n", rel, url.ptr);
				bad++;
			} else if (frag.len) {
				char *target = slurp("/", real);

				if (!target || !has_id(target, frag.ptr)) {
					printf("# %s: '%s': no id '%s' there\n", rel, url.ptr, frag.ptr);
					bad++;
				}
				free(target);
			}
			free(real);
			free(root);
		}
next:
		buf_release(&url);
		buf_release(&path);
		buf_release(&full);
		buf_release(&frag);
	}
	/* ids unique */
	{
		const char *a = html;
		struct pages ids = { 0 };
		size_t i;

		while ((a = strstr(a, " id=\""))) {
			const char *e;

			a += 5;
			e = strchr(a, '"');
			if (!e)
				break;
			for (i = 0; i < ids.n; i++)
				if (strlen(ids.rel[i]) == (size_t)(e - a) && !strncmp(ids.rel[i], a, (size_t)(e - a)))
					break;
			if (i < ids.n) {
				printf("# %s: id '%.*s' twice\n", rel, (int)(e - a), a);
				bad++;
			} else {
				ALLOC_GROW(ids.rel, ids.n + 1, ids.alloc);
				ids.rel[ids.n++] = xstrndup(a, (size_t)(e - a));
			}
		}
		for (i = 0; i < ids.n; i++)
			free(ids.rel[i]);
		free(ids.rel);
	}
	buf_release(&dir);
	return bad;
}

/* Every page of the views: links, ids, scripts.  Returns pages checked. */
static size_t
check_site(const char *site, const char *what)
{
	struct pages p = { 0 };
	size_t i, nviews = 0, badlinks = 0, badscript = 0, nolink = 0;
	char *sort = slurp(templates_dir(), "views-p-sort.html");

	CHECK(sort && !strncmp(sort, "<script>\n", 9), "%s: templates/views-p-sort.html is the script",
	      what);
	walk(site, "", &p);
	for (i = 0; i < p.n; i++) {
		char *html = slurp(site, p.rel[i]);
		int views = !strncmp(p.rel[i], "machines/", 9) || !strncmp(p.rel[i], "targets/", 8) ||
			    !strncmp(p.rel[i], "compare/", 8) || !strncmp(p.rel[i], "diffs/", 6);

		if (!html || !views) {
			free(html);
			continue;
		}
		nviews++;
		badlinks += check_page(site, p.rel[i], html) != 0;
		if (strncmp(p.rel[i], "diffs/", 6) || !strcmp(p.rel[i], "diffs/index.html")) {
			/* the script is the template's text, byte for byte: static */
			if (count(html, "<script") != 1 || !sort || !strstr(html, sort)) {
				printf("# %s: %zu <script\n", p.rel[i], count(html, "<script"));
				badscript++;
			}
		} else if (count(html, "<script")) {
			printf("# %s: a diff page with <script\n", p.rel[i]);
			badscript++;
		}
		if (!strstr(html, "erg.css\">"))
			nolink++;
		free(html);
	}
	CHECK(nviews > 0, "%s: view pages found (%zu)", what, nviews);
	CHECK(badlinks == 0, "%s: every link of every view page is relative and resolves, every id "
	      "unique (%zu page(s) with problems)", what, badlinks);
	CHECK(badscript == 0, "%s: each page's only <script is templates/views-p-sort.html, byte for "
	      "byte (none in diff pages) (%zu bad)", what, badscript);
	CHECK(nolink == 0, "%s: every view page links erg.css (%zu do not)", what, nolink);
	for (i = 0; i < p.n; i++)
		free(p.rel[i]);
	free(p.rel);
	free(sort);
	return nviews;
}

/* Files of two trees identical (the views). */
static int
same_tree(const char *a, const char *b)
{
	struct pages p = { 0 }, q = { 0 };
	size_t i;
	int same;

	walk(a, "", &p);
	walk(b, "", &q);
	same = p.n == q.n;
	for (i = 0; same && i < p.n; i++) {
		char *x = slurp(a, p.rel[i]), *y = slurp(b, p.rel[i]);

		same = x && y && !strcmp(x, y);
		if (!same)
			printf("# differs: %s\n", p.rel[i]);
		free(x);
		free(y);
	}
	for (i = 0; i < p.n; i++)
		free(p.rel[i]);
	for (i = 0; i < q.n; i++)
		free(q.rel[i]);
	free(p.rel);
	free(q.rel);
	return same;
}

/* ------------------------------------------------------------------ */

static void
test_memory(void)
{
	char tmpl[] = "/tmp/erg-views-XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct buf site = BUF_INIT, site2 = BUF_INIT, arch = BUF_INIT, f = BUF_INIT;
	json_t *all = archive_all(), *links;
	char *m5, *mx, *tevil, *tel, *cmp, *dl, *ml, *tl, *bun, *bun2, *d1, *d2, *d3, *tempty;
	const char *diag;

	CHECK(dir != NULL, "mkdtemp");
	if (!dir)
		return;
	buf_addf(&site, "%s/site", dir);
	buf_addf(&site2, "%s/site2", dir);
	buf_addf(&arch, "%s/archive", dir);
	mkdir(arch.ptr, 0755);
	buf_addf(&f, "%s/diffs.txt", arch.ptr);
	write_file(f.ptr, "# extra pairs\n\nm5/2026-08-26-a  m5/2026-09-01-c   # a week apart\n"
		   "m5/2026-08-26-a m5/2026-08-27-b/\nm5/2026-08-26-pub m5/2026-08-26-a\n");

	CHECK(render_into(site.ptr, all, arch.ptr, 1) == 0, "views render");
	CHECK(render_into(site2.ptr, all, arch.ptr, 1) == 0, "views render again");
	CHECK(same_tree(site.ptr, site2.ptr), "the same results give the same bytes");

	m5 = slurp(site.ptr, "machines/apple-m5/index.html");
	mx = slurp(site.ptr, "machines/-.-..-x/index.html");
	tevil = slurp(site.ptr, "targets/-script-alert-1---script-/index.html");
	tel = slurp(site.ptr, "targets/elysia/index.html");
	bun = slurp(site.ptr, "targets/bun/index.html");
	bun2 = slurp(site.ptr, "targets/bun-2/index.html");
	if (!bun2)
		bun2 = slurp(site.ptr, "targets/Bun/index.html");
	tempty = slurp(site.ptr, "targets/unnamed/index.html");
	cmp = slurp(site.ptr, "compare/index.html");
	dl = slurp(site.ptr, "diffs/index.html");
	ml = slurp(site.ptr, "machines/index.html");
	tl = slurp(site.ptr, "targets/index.html");
	d1 = slurp(site.ptr, "diffs/m5-2026-08-26-a_vs_m5-2026-08-27-b/index.html");
	d2 = slurp(site.ptr, "diffs/m5-2026-08-27-b_vs_m5-2026-09-01-c/index.html");
	d3 = slurp(site.ptr, "diffs/m5-2026-08-26-a_vs_m5-2026-09-01-c/index.html");
	CHECK(m5 && mx && ml, "machine pages at sanitised paths (machines/apple-m5, "
	      "machines/-.-..-x for '../../x')");
	CHECK(tevil && tel && tl && tempty, "target pages at sanitised paths (the hostile name, "
	      "the empty name as 'unnamed')");
	/* runs a and c spell it "Bun", b "bun": one target (issue 15), shown
	 * as the spelling of more runs, at the key's lower-case path */
	CHECK(bun && !bun2, "'Bun' and 'bun' are one target at targets/bun/ (no bun-2, no Bun)");
	CHECK(bun && strstr(bun, "<h1>Bun</h1>") && strstr(bun, "m5/2026-08-26-a/index.html") &&
	      strstr(bun, "m5/2026-08-27-b/index.html") && strstr(bun, "m5/2026-09-01-c/index.html"),
	      "targets/bun/ is titled 'Bun' (2 runs to 1) and lists the runs of both spellings");
	{
		char *idx = slurp(site.ptr, "targets/index.html-2/index.html");
		char *lng = slurp(site.ptr, "targets/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
				  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/index.html");

		CHECK(tl && strstr(tl, "<h1>Targets</h1>") && idx && strstr(idx, "<h1>index.html</h1>"),
		      "a target named 'index.html' gets targets/index.html-2/, the list stays");
		CHECK(lng != NULL, "a 300-character name is cut to 64 in its path");
		free(idx);
		free(lng);
	}
	CHECK(cmp && dl, "compare and diffs pages");
	CHECK(d1 && d2, "diff pages for consecutive energy sessions of one machine");
	CHECK(d3, "a diff page for the pair listed in diffs.txt");
	if (!m5 || !mx || !tevil || !tel || !cmp || !dl || !d1 || !d2 || !d3 || !bun ||
	    !ml || !tl || !tempty)
		goto out;

	/* no path outside the site */
	{
		struct buf p = BUF_INIT;

		buf_addf(&p, "%s/x", dir);
		CHECK(!path_exists(p.ptr), "machine '../../x' wrote nothing outside the site");
		buf_release(&p);
	}

	/* names escaped, shown as they are */
	CHECK(strstr(tevil, "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>") != NULL,
	      "the hostile target name is the escaped title of its page");
	CHECK(strstr(m5, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL && !strstr(m5, evil),
	      "the hostile target name is escaped on the machine page");
	CHECK(strstr(cmp, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL && !strstr(cmp, evil),
	      "and on the compare page");
	CHECK(strstr(mx, "&lt;b&gt;chip&lt;/b&gt;") && !strstr(mx, "<b>chip"),
	      "the hostile chip name is escaped");
	CHECK(strstr(mx, "<code>../../x</code>") != NULL, "the machine page shows the real id");
	CHECK(strstr(mx, ">2025-04-01\xc2\xa0" "10:00\xc2\xa0" "+02:00<") != NULL,
	      "a time with an offset other than Z shows the offset");
	CHECK(strstr(dl, "x/&quot;evil run") != NULL, "the hostile run id is escaped in the diff list");
	CHECK(!strstr(dl, "\"evil run"), "and never raw");
	CHECK(strstr(mx, "href=\"../../runs/x/%22evil%20run/index.html\"") != NULL,
	      "run links are percent-encoded relative paths to index.html");

	/* machine page */
	CHECK(strstr(m5, "id=\"tbl-runs\"") && strstr(m5, "id=\"run-m5-2026-08-26-pub\""),
	      "the machine page lists its runs, the summary too");
	CHECK(strstr(m5, "id=\"run-m5-2026-08-26-a\"") > strstr(m5, "id=\"run-m5-2026-08-27-b\"") &&
	      strstr(m5, "id=\"run-m5-2026-08-27-b\"") > strstr(m5, "id=\"run-m5-2026-09-01-c\"") &&
	      strstr(m5, "id=\"run-m5-2026-09-01-c\""),
	      "runs in date order, newest first, whatever the order of the archive");
	CHECK(strstr(m5, "id=\"chart-idle\"") && strstr(m5, "id=\"tbl-idle\""),
	      "idle power across runs: chart and table");
	CHECK(strstr(m5, "0.0180 <") || strstr(m5, "0.0215"), "idle means are shown");
	CHECK(strstr(m5, "id=\"chart-mj-elysia\"") && strstr(m5, "id=\"chart-rps-elysia\""),
	      "history charts per target (mJ/req and req/s)");
	CHECK(strstr(m5, "id=\"h-elysia-m5-2026-08-26-pub\"") != NULL,
	      "the published headline is in the target history");
	CHECK(strstr(m5, "href=\"../../diffs/m5-2026-08-26-a_vs_m5-2026-08-27-b/index.html\""),
	      "the machine page links its diff pages");
	CHECK(count(m5, "<tr id=\"h-") == 9, "history: one row per target and run with a headline "
	      "(%zu)", count(m5, "<tr id=\"h-"));

	/* target page: energy split by machine */
	CHECK(count(tel, "<th scope=\"col\" class=\"num\"><a href=\"../../machines/") == 2,
	      "elysia: one energy column per machine (%zu)",
	      count(tel, "<th scope=\"col\" class=\"num\"><a href=\"../../machines/"));
	CHECK(strstr(tel, "powermetrics energy is an estimate and not comparable across devices") !=
	      NULL, "the cross-device caveat is on the target page");
	CHECK(count(tel, "<tr id=\"r-") == 7, "elysia: a row per run on every machine (%zu)",
	      count(tel, "<tr id=\"r-"));
	CHECK(strstr(tel, "id=\"chart-rps\"") && strstr(tel, "id=\"chart-mj-apple-m5\""),
	      "target charts: throughput and energy per machine");
	CHECK(strstr(tel, ">Intel<") == NULL && strstr(tel, "intel-i7") != NULL,
	      "the throughput-only machine is listed too");

	/* compare */
	/* 6: "Bun" and "bun" are one */
	CHECK(count(cmp, "<tr id=\"rps-") == 6, "compare: a throughput row per target (%zu)",
	      count(cmp, "<tr id=\"rps-"));
	CHECK(strstr(cmp, "id=\"tbl-mj-apple-m5\"") && strstr(cmp, "id=\"tbl-mj--_-__-x\""),
	      "compare: one energy matrix per machine");
	CHECK(strstr(cmp, "data-v=\"1e+05\"") != NULL,
	      "cells carry sort values (shortest round trip, as JavaScript's Number() reads them)");

	/* diffs */
	CHECK(strstr(d1, "<link rel=\"stylesheet\" href=\"../../erg.css\">") != NULL,
	      "diff pages link the site stylesheet");
	CHECK(strstr(d1, "<header class=\"top\">") && strstr(d1, "href=\"../index.html\">All diffs"),
	      "diff pages have the site navigation");
	CHECK(strstr(d1, "<h1>erg diff</h1>") != NULL, "diff pages are erg diff's page");
	CHECK(strstr(dl, "listed in diffs.txt, line 3") != NULL,
	      "the diff list says where a pair comes from");
	CHECK(count(dl, "<tr id=\"d-") == 5, "the diff list: 4 for m5 (2 consecutive, 2 listed, "
	      "1 listed twice) + 1 for x (%zu)", count(dl, "<tr id=\"d-"));
	CHECK(strstr(dl, "summary runs (published figures) are not paired automatically") != NULL,
	      "the diff list says summary runs are compared only when listed");
	CHECK(count(dl, ">not tested (0 rows)</td>") == 1 && count_k_of_n(dl) == 4,
	      "the listed summary pair (no shared cell: the fixture has no tables) is 'not "
	      "tested', the 4 energy pairs give 'k of n' (%zu)", count_k_of_n(dl));

	/* links */
	links = render_views_links(all);
	CHECK(!strcmp(json_string_value(json_object_get(json_object_get(links, "machines"),
							 "../../x")),
		      "machines/-.-..-x/index.html"), "render_views_links: machine hrefs");
	CHECK(!strcmp(json_string_value(json_object_get(json_object_get(links, "targets"), evil)),
		      "targets/-script-alert-1---script-/index.html"), "render_views_links: target hrefs");
	json_decref(links);

	check_site(site.ptr, "memory");

	/* diffs.txt errors, located at their line */
	{
		struct buf err = BUF_INIT, s3 = BUF_INIT;
		int saved = dup(2), fd;
		char *e;

		buf_addf(&err, "%s/err.txt", dir);
		buf_addf(&s3, "%s/site3", dir);
		write_file(f.ptr, "m5/2026-08-26-a m5/nope\n# fine\nm5/2026-08-26-pub m5/2026-08-26-a\n"
			   "one-word\n");
		fflush(stderr);
		fd = open(err.ptr, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		close(fd);
		CHECK(render_into(s3.ptr, all, arch.ptr, 1) != 0, "a bad diffs.txt fails the build");
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		e = slurp("/", err.ptr);
		diag = e ? e : "";
		CHECK(strstr(diag, "diffs.txt:1: error: unknown run 'm5/nope'") != NULL,
		      "unknown run id located at file:line");
		CHECK(!strstr(diag, "diffs.txt:3:"),
		      "a summary run in diffs.txt is accepted (compared without significance)");
		CHECK(strstr(diag, "diffs.txt:4: error: expected two run ids") != NULL,
		      "a line that is not two ids is refused at its line");
		CHECK(!path_exists(s3.ptr), "nothing committed after the error");
		free(e);
		buf_release(&err);
		buf_release(&s3);
	}
out:
	free(m5);
	free(mx);
	free(tevil);
	free(tel);
	free(cmp);
	free(dl);
	free(ml);
	free(tl);
	free(bun);
	free(bun2);
	free(tempty);
	free(d1);
	free(d2);
	free(d3);
	json_decref(all);
	if (getenv("ERG_VIEWS_KEEP") && *getenv("ERG_VIEWS_KEEP")) {
		printf("# kept: %s/site\n", dir);
	} else {
		struct buf rm = BUF_INIT;

		buf_addf(&rm, "rm -rf '%s'", dir);
		if (system(rm.ptr) != 0)
			printf("# could not remove %s\n", dir);
		buf_release(&rm);
	}
	buf_release(&site);
	buf_release(&site2);
	buf_release(&arch);
	buf_release(&f);
}

/*
 * A machine with many targets: 40 nights of a session of 30 targets (5
 * rounds each).  Each target has its history charts on the machine's
 * page (throughput, energy): 60 series charts of 40 bars and 200 dots,
 * each within the budget of one chart (SVG_MARKS_MAX), made a 2.6 MB
 * page.  The page shares one budget of marks among its charts: no page
 * above 2 MB, whatever the number of targets, every chart still drawn.
 */
static void
test_many_targets(void)
{
	char tmpl[] = "/tmp/erg-views-XXXXXX";
	char *dir = mkdtemp(tmpl), *page;
	struct buf site = BUF_INIT, id = BUF_INIT, date = BUF_INIT;
	const char *names[30];
	char namebuf[30][16];
	json_t *all = json_array();
	size_t i, charts, dots, size;
	/* 12 under ERG_TEST_LIGHT (make valgrind): 30 took 50 s there, and
	 * 12 targets' share (4000 / 25 = 160 marks) is still below a
	 * chart's 40 bars and 200 dots */
	size_t nt = getenv("ERG_TEST_LIGHT") ? 12 : 30;

	CHECK(dir != NULL, "mkdtemp");
	if (!dir)
		return;
	for (i = 0; i < nt; i++) {
		snprintf(namebuf[i], sizeof(namebuf[i]), "fw-%02zu", i);
		names[i] = namebuf[i];
	}
	for (i = 0; i < 40; i++) {
		buf_reset(&id);
		buf_reset(&date);
		buf_addf(&id, "wide/night-%02zu", i);
		buf_addf(&date, "2026-03-%02zuT01:00:00Z", i % 28 + 1);
		if (i >= 28) {
			buf_reset(&date);
			buf_addf(&date, "2026-04-%02zuT01:00:00Z", i - 27);
		}
		json_array_append_new(all, energy_run(id.ptr, "wide", "Apple M5", date.ptr, names, nt,
						      1.0 + 0.01 * (double)i));
	}
	buf_addf(&site, "%s/site", dir);
	CHECK(render_into(site.ptr, all, NULL, 1) == 0, "40 runs of %zu targets render", nt);
	page = slurp(site.ptr, "machines/wide/index.html");
	size = page ? strlen(page) : 0;
	charts = count(page, "<svg ");
	dots = count(page, "<circle class=\"dot\"");
	printf("# machine page of %zu targets x 40 runs: %zu bytes, %zu charts, %zu dots\n", nt,
	       size, charts, dots);
	CHECK(page && size < 2 * 1024 * 1024, "%zu targets x 40 runs: the machine page is under 2 MB",
	      nt);
	if (getenv("ERG_VIEWS_KEEP") && *getenv("ERG_VIEWS_KEEP")) {
		struct buf cp = BUF_INIT;

		buf_addf(&cp, "cp '%s/machines/wide/index.html' /tmp/erg-wide.html", site.ptr);
		if (system(cp.ptr) == 0)
			printf("# kept: /tmp/erg-wide.html\n");
		buf_release(&cp);
	}
	CHECK(charts >= 2 * nt, "%zu targets x 40 runs: every target's two history charts are drawn",
	      nt);
	CHECK(dots == 0 && count(page, "would be more than") >= 2 * nt,
	      "%zu targets x 40 runs: the charts share the page's budget (no dots), and say so", nt);
	free(page);
	json_decref(all);
	{
		struct buf rm = BUF_INIT;

		buf_addf(&rm, "rm -rf '%s'", dir);
		if (system(rm.ptr) != 0)
			printf("# could not remove %s\n", dir);
		buf_release(&rm);
	}
	buf_release(&site);
	buf_release(&id);
	buf_release(&date);
}

/* The committed archive, read as erg build reads it. */
static void
test_archive(void)
{
	struct buf arch = BUF_INIT, site = BUF_INIT;
	struct run_list runs = { 0 };
	char tmpl[] = "/tmp/erg-views-XXXXXX", *dir = NULL;
	const char *keep = getenv("ERG_VIEWS_SITE");
	json_t *all = json_array();
	char *mp, *tp, *cp;
	size_t i;
	int ok = 1;

	buf_addf(&arch, "%s/archive", src_dir());
	if (!path_is_dir(arch.ptr)) {
		CHECK(0, "the committed archive %s is missing: nothing checked", arch.ptr);
		goto out;
	}
	ok = archive_scan(arch.ptr, 2, &runs) == 0;
	CHECK(ok && runs.n > 0, "the committed archive scans (%zu runs)", runs.n);
	for (i = 0; i < runs.n; i++) {
		json_t *res = build_process(&runs.v[i]);

		if (!res) {
			ok = 0;
			continue;
		}
		json_array_append_new(all, res);
	}
	CHECK(ok, "every run of the committed archive reads");
	if (keep && *keep) {
		buf_addstr(&site, keep);
	} else {
		dir = mkdtemp(tmpl);
		if (!dir)
			goto out;
		buf_addf(&site, "%s/site", dir);
	}
	CHECK(render_into(site.ptr, all, arch.ptr, 1) == 0, "the committed archive's views render");
	mp = slurp(site.ptr, "machines/apple-m5-mac17-3/index.html");
	tp = slurp(site.ptr, "targets/elysia/index.html");
	cp = slurp(site.ptr, "compare/index.html");
	CHECK(mp && tp && cp, "archive: machines/apple-m5-mac17-3, targets/elysia, compare pages");
	if (mp) {
		CHECK(strstr(mp, "id=\"run-m5-energy-2026-08-26T0856-saturated\"") &&
		      strstr(mp, "id=\"run-m5-energy-2026-08-26T1023-attrib\"") &&
		      strstr(mp, "id=\"run-m5-energy-2026-08-26-published-headline\""),
		      "archive: the M5 page lists the two energy sessions and the published summary");
		CHECK(strstr(mp, "id=\"chart-idle\"") != NULL, "archive: the M5 idle power chart");
		CHECK(strstr(mp, "id=\"chart-mj-elysia\"") != NULL, "archive: elysia's mJ/req history");
	}
	if (cp) {
		json_t *names = json_object();
		const json_t *r, *t;
		size_t j;

		/* distinct target names over the archive, ignoring ASCII case
		 * ("Bun" and "bun" are one target) */
		json_array_foreach(all, i, r)
			json_array_foreach(json_object_get(r, "targets"), j, t)
				if (json_string_value(json_object_get(t, "name"))) {
					char *low = xstrdup(json_string_value(json_object_get(t, "name"))), *q;

					for (q = low; *q; q++)
						if (*q >= 'A' && *q <= 'Z')
							*q = (char)(*q - 'A' + 'a');
					json_object_set_new(names, low, json_true());
					free(low);
				}
		CHECK(count(cp, "<tr id=\"rps-") == json_object_size(names),
		      "archive: compare has a row per target (%zu of %zu)",
		      count(cp, "<tr id=\"rps-"), json_object_size(names));
		json_decref(names);
	}
	check_site(site.ptr, "archive");
	free(mp);
	free(tp);
	free(cp);
out:
	if (dir) {
		struct buf rm = BUF_INIT;

		buf_addf(&rm, "rm -rf '%s'", dir);
		if (system(rm.ptr) != 0)
			printf("# could not remove %s\n", dir);
		buf_release(&rm);
	}
	json_decref(all);
	run_list_free(&runs);
	buf_release(&arch);
	buf_release(&site);
}

/* No runs at all: the pages still exist, and say so. */
static void
test_empty(void)
{
	char tmpl[] = "/tmp/erg-views-XXXXXX";
	char *dir = mkdtemp(tmpl), *cmp, *ml;
	struct buf site = BUF_INIT, rm = BUF_INIT;
	json_t *all = json_array();

	CHECK(dir != NULL, "mkdtemp");
	if (!dir)
		return;
	buf_addf(&site, "%s/site", dir);
	CHECK(render_into(site.ptr, all, NULL, 1) == 0, "an empty archive renders");
	cmp = slurp(site.ptr, "compare/index.html");
	ml = slurp(site.ptr, "machines/index.html");
	CHECK(cmp && strstr(cmp, "No run in the archive has energy figures."), "empty compare page");
	CHECK(ml && strstr(ml, "No runs in the archive."), "empty machines page");
	free(cmp);
	free(ml);
	json_decref(all);
	buf_addf(&rm, "rm -rf '%s'", dir);
	if (system(rm.ptr) != 0)
		printf("# could not remove %s\n", dir);
	buf_release(&rm);
	buf_release(&site);
}

int
main(void)
{
	test_empty();
	test_memory();
	test_many_targets();
	test_archive();
	return th_done();
}
