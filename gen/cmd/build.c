/*
 * build.c - see build.h.  Data flows one way: each run is read
 * (session.c), analysed (analyze.c), turned into JSON (results.c), and
 * only that JSON reaches the renderer.  Nothing is written outside the
 * temporary tree, which replaces the site only when every run was read
 * without error.
 *
 * Runs are processed by -j worker threads, each taking the next run in
 * archive order, reading, analysing and rendering it on its own, then
 * freeing its results: its summary (run_summary()) goes to the cache, and
 * only a record of plain values (views_run_make()) stays for the last
 * task, which renders the index and the views as soon as every run is
 * processed (struct pool), reading summaries back for pages over a
 * bounded set of runs and the results of two runs at a time for each
 * diff.  The main thread waits
 * for the tasks in order, prints each one's diagnostics in that order
 * (util.c captures them per thread) and draws the progress line.  Pages
 * depend only on a run's results, which no renderer modifies (render.h),
 * so the site is the same byte for byte whatever -j is.
 *
 * Incremental builds (cache.h): a run whose key matches the manifest of
 * the site being replaced is not read again; its record is read back from
 * the old site's OUT/.erg-cache/runs/<h>.rec (cache_name(): no JSON is
 * parsed) and its files, summary and record are carried into the new tree
 * (hard links, cache.h).  The cross-run pages
 * whose inputs did not change are carried too (struct deps); the index
 * and the lists are always rendered again.  When nothing changed at
 * all, nothing is written.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/compare.h"
#include "ingest/archive.h"
#include "cmd/build.h"
#include "site/cache.h"
#include "analyze/checks.h"
#include "ingest/input.h"
#include "ingest/pairs.h"
#include "ingest/targets.h"
#include "base/jsonx.h"
#include "base/path.h"
#include "base/progress.h"
#include "render/page_run.h"
#include "render/page_views.h"
#include "analyze/results.h"
#include "ingest/session.h"
#include "base/sha256.h"
#include "site/site.h"
#include "ingest/summary.h"
#include "ingest/trials.h"
#include "analyze/trials.h"
#include "base/util.h"

/*
 * One file of the raw-files table.  Power files were digested as they were
 * parsed (power_file.sha256), so the biggest files are not read a second
 * time; without digests (input_digests 0) a file is only stat'ed and its
 * "sha256" is null.
 */
static void
file_add(json_t *arr, const char *dir, const char *rel, const struct power_file *pf)
{
	struct buf p = BUF_INIT;
	char hex[65] = "";
	uint64_t size = 0;
	struct stat st;
	int ok;
	json_t *o;

	buf_addf(&p, "%s/%s", dir, rel);
	if (pf && pf->sha256[0]) {
		memcpy(hex, pf->sha256, sizeof(hex));
		size = pf->file_bytes;
		ok = 1;
	} else if (input_digests) {
		ok = !input_file_sha256(p.ptr, hex, &size);
	} else if (stat(p.ptr, &st)) {
		ok = !error_at(p.ptr, 0, "cannot stat: %s", strerror(errno));
	} else {
		size = (uint64_t)st.st_size;
		ok = 1;
	}
	buf_release(&p);
	if (!ok)
		return;
	o = json_object();
	json_object_set_new(o, "name", json_string(rel));
	json_object_set_new(o, "bytes", json_integer((json_int_t)size));
	json_object_set_new(o, "sha256", hex[0] ? json_string(hex) : json_null());
	json_array_append_new(arr, o);
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The power.plist* entries of the run that were not read (power.plist.bak,
 * which the run's warnings name): the table shows everything of the power
 * stream the archive holds.  Only a regular file is digested; a link or a
 * FIFO is listed without size (it is not followed, and never opened).
 */
static void
unread_power_files(json_t *arr, const struct run *r)
{
	struct buf p = BUF_INIT;
	char **names = NULL;
	size_t n = 0, alloc = 0, i, k;
	struct dirent *e;
	struct stat st;
	json_t *o;
	DIR *d = opendir(r->dir);

	if (!d)
		return;		/* session.c listed it a moment ago */
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "power.plist", strlen("power.plist")))
			continue;
		for (k = 0; k < r->npf; k++)
			if (!strcmp(strrchr(r->pf[k].path, '/') + 1, e->d_name))
				break;
		if (k < r->npf)
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", r->dir, names[i]);
		if (!lstat(p.ptr, &st) && S_ISREG(st.st_mode)) {
			file_add(arr, r->dir, names[i], NULL);
		} else {
			o = json_object();
			json_object_set_new(o, "name", json_string(names[i]));
			json_object_set_new(o, "bytes", json_null());
			json_object_set_new(o, "sha256", json_null());
			json_array_append_new(arr, o);
		}
		free(names[i]);
	}
	free(names);
	buf_release(&p);
}

/* Raw files of the run with size and digest, for the "raw files" table. */
static json_t *
files_json(const struct run *r)
{
	json_t *arr = json_array();
	size_t i, j;

	file_add(arr, r->dir, "meta.json", NULL);
	file_add(arr, r->dir, "timeline.jsonl", NULL);
	if (r->notes_rel)
		file_add(arr, r->dir, r->notes_rel, NULL);
	for (i = 0; i < r->npf; i++) {
		const struct power_file *pf = &r->pf[i];
		const char *base = strrchr(pf->path, '/');

		base = base ? base + 1 : pf->path;
		file_add(arr, r->dir, base, pf);
	}
	unread_power_files(arr, r);
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++)
			if (r->m[i].routes[j].has_load)
				file_add(arr, r->dir, r->m[i].routes[j].load_rel, NULL);
	return arr;
}

/*
 * One representative window per target for the power-trace chart: the
 * middle round's first route, with the samples around it (3 s margin) so
 * the window edges can be drawn against the sample steps.
 */
static json_t *
trace_json(const struct run *r)
{
	json_t *arr = json_array();
	size_t t, i, k, f;

	if (!r->npf)
		return arr;
	for (t = 0; t < r->ntargets; t++) {
		const struct measurement *pick = NULL, *ms[256];
		size_t n = 0;
		const struct route_win *w;
		json_t *o, *samples;

		for (i = 0; i < r->nm && n < 256; i++)
			if (!strcmp(r->m[i].target, r->targets[t].name) && r->m[i].nroutes)
				ms[n++] = &r->m[i];
		if (!n)
			continue;
		/* rounds in ascending order, then the middle one */
		for (i = 1; i < n; i++)
			for (k = i; k > 0 && ms[k - 1]->round > ms[k]->round; k--) {
				const struct measurement *x = ms[k];

				ms[k] = ms[k - 1];
				ms[k - 1] = x;
			}
		pick = ms[(n - 1) / 2];
		w = &pick->routes[0];
		o = json_object();
		samples = json_array();
		json_object_set_new(o, "target", json_string(r->targets[t].name));
		json_object_set_new(o, "measurement", json_string(pick->id));
		json_object_set_new(o, "round", pick->round >= 0 ? json_integer(pick->round) : json_null());
		json_object_set_new(o, "route", json_string(w->name));
		json_object_set_new(o, "window_ms", jx_real(w->end_ms - w->start_ms));
		json_object_set_new(o, "mean_watts", jx_real(w->pw.mean_watts));
		for (f = 0; f < r->npf; f++)
			for (i = 0; i < r->pf[f].n; i++) {
				const struct psample *s = &r->pf[f].s[i];
				json_t *so;

				if (s->end_ms < w->start_ms - 3000 || s->start_ms > w->end_ms + 3000 ||
				    isnan(s->joules))
					continue;
				so = json_array();
				json_array_append_new(so, jx_real(s->start_ms - w->start_ms));
				json_array_append_new(so, jx_real(s->end_ms - w->start_ms));
				json_array_append_new(so, jx_real(s->joules * 1000.0 /
								  (s->end_ms - s->start_ms)));
				json_array_append_new(samples, so);
			}
		json_object_set_new(o, "samples", samples);
		json_array_append_new(arr, o);
	}
	return arr;
}

/* Read, check and analyse one run; its results JSON or NULL. */
json_t *
build_process(const struct run_ref *ref)
{
	struct run r;
	json_t *res = NULL, *notes;

	if (ref->kind == RUN_SUMMARY) {
		res = summary_read(ref->dir, ref->id);
		if (res && json_object_get(res, "trials")) {
			int bad = trials_power(ref->dir, res, &r) ||
				  trials_analyze_power(res, ref->dir, r.pf, r.npf);

			run_free(&r);
			if (bad) {
				json_decref(res);
				res = NULL;
			}
		}
		return res;
	}
	if (session_read(ref->dir, ref->id, &r) == 0 && analyze_run(&r) == 0) {
		r.validation = checks_run(&r);
		res = results_json(&r);
		json_object_set_new(res, "files", files_json(&r));
		notes = json_object();
		json_object_set_new(notes, "file", jx_string(r.notes_rel));
		json_object_set_new(notes, "markdown", jx_string(r.notes_md));
		json_object_set_new(res, "notes", notes);
		json_object_set_new(res, "power_trace", trace_json(&r));
	}
	run_free(&r);
	return res;
}

/* Full results for a diff: the caller's (tests hold every run's results). */
static json_t *
load_same(void *arg, size_t i)
{
	return json_incref(json_array_get(arg, i));
}

/*
 * How a diff gets its runs' whole results: load gives run i's, a new
 * reference, or NULL after diagnostics.
 */
struct diff_src {
	json_t *(*load)(void *arg, size_t i);
	void *arg;
	const struct target_aliases *aliases;
};

/*
 * Diff pair i of v: compared, its page written and its document freed
 * before the next (a document holds every round's values of both runs),
 * so memory holds one comparison per thread, whatever the number of
 * pairs.  0, or -1 after diagnostics.
 */
static int
diff_one(struct views *v, size_t i, const struct diff_src *ds)
{
	size_t ia, ib;
	json_t *a, *b, *d;
	int rc;

	if (views_diff_carried(v, i))
		return 0;	/* its page and counts from the previous site */
	views_pair(v, i, &ia, &ib);
	a = ds->load(ds->arg, ia);
	b = ia == ib ? json_incref(a) : ds->load(ds->arg, ib);
	if (!a || !b) {
		json_decref(a);
		json_decref(b);
		return -1;
	}
	d = compare_runs_in(a, json_string_value(json_object_get(a, "run")), NULL, b,
			    json_string_value(json_object_get(b, "run")), NULL,
			    a == b ? "the same run" : NULL, ds->aliases);
	json_decref(a);
	json_decref(b);
	rc = views_diff_page(v, i, d) ? -1 : 0;
	json_decref(d);
	return rc;
}

/*
 * The cross-run pages of the runs of src (page_views.h), with index.html
 * first when index: the diff pages (diff_one()), then the view units,
 * which show every diff's counts.  With a dependency record and jobs > 1
 * both phases run on jobs threads (views_parallel()).
 */
struct deps;
static int views_parallel(struct views *v, struct render_ctx *rc, struct deps *d, int jobs,
			  const struct diff_src *ds);

static int
views_with(struct render_ctx *rc, const struct views_src *src, int index,
	   const struct pair_list *pairs, const struct target_aliases *aliases,
	   json_t *(*load)(void *, size_t), void *arg, const struct views_deps *deps,
	   struct deps *dp, int jobs)
{
	struct views *v = views_open(rc, src, pairs, aliases);
	struct diff_src ds = { load, arg, aliases };
	size_t i;
	int bad = !v;

	if (v && deps)
		views_set_deps(v, deps);
	if (!bad && index && views_index(v))
		bad = 1;
	if (!bad && dp && jobs > 1) {
		bad = views_parallel(v, rc, dp, jobs, &ds) != 0;
	} else {
		for (i = 0; !bad && i < views_npairs(v); i++)
			bad = diff_one(v, i, &ds) != 0;
		if (!bad && views_render(v))
			bad = 1;
	}
	views_close(v);
	return bad ? -1 : 0;
}

int
build_views(struct render_ctx *rc, json_t *all, const struct pair_list *pairs,
	    const struct target_aliases *aliases)
{
	struct views_src src;
	int rc2;

	views_src_all(&src, all, aliases);
	rc2 = views_with(rc, &src, 0, pairs, aliases, load_same, all, NULL, NULL, 1);
	views_src_free(&src);
	return rc2;
}

int
build_views_src(struct render_ctx *rc, const struct views_src *src, int index,
		const struct pair_list *pairs, const struct target_aliases *aliases,
		json_t *(*load)(void *arg, size_t i), void *arg)
{
	return views_with(rc, src, index, pairs, aliases, load, arg, NULL, NULL, 1);
}

/*
 * What the index and the cross-run views read of a run, a few KB where
 * its results are up to megabytes: every member but the run page's own
 * (files, notes, power_trace, a summary's tables), of the measurements
 * only the per-round headline the history charts dot, of the idle windows
 * their mean power, of the validation its status.  Values are shared with
 * res, not copied.  It is kept in the cache, and the views read it back
 * only for a page over a bounded set of runs; they hold a record of plain
 * values per run (views_run_make()), never a summary per run.
 */
static json_t *
run_summary(json_t *res)
{
	static const char *const keep_m[] = { "target", "round", "headline_mj_per_req",
					      "headline_rps" };
	json_t *sum = json_object(), *v, *x, *y;
	const char *key;
	size_t i, k;

	json_object_foreach(res, key, v) {
		if (!strcmp(key, "files") || !strcmp(key, "notes") || !strcmp(key, "power_trace") ||
		    !strcmp(key, "tables"))
			continue;
		if (!strcmp(key, "measurements") && json_is_array(v)) {
			json_t *a = json_array();

			json_array_foreach(v, i, x) {
				y = json_object();
				for (k = 0; k < sizeof(keep_m) / sizeof(keep_m[0]); k++)
					if (json_object_get(x, keep_m[k]))
						json_object_set(y, keep_m[k], json_object_get(x, keep_m[k]));
				json_array_append_new(a, y);
			}
			json_object_set_new(sum, key, a);
		} else if (!strcmp(key, "idle_windows") && json_is_array(v)) {
			json_t *a = json_array();

			json_array_foreach(v, i, x) {
				y = json_object();
				if (json_object_get(x, "mean_watts"))
					json_object_set(y, "mean_watts", json_object_get(x, "mean_watts"));
				json_array_append_new(a, y);
			}
			json_object_set_new(sum, key, a);
		} else if (!strcmp(key, "validation") && json_is_object(v)) {
			y = json_object();
			if (json_object_get(v, "status"))
				json_object_set(y, "status", json_object_get(v, "status"));
			json_object_set_new(sum, key, y);
		} else {
			json_object_set(sum, key, v);
		}
	}
	return sum;
}

/* ------------------------------------------------------------------ */
/* the whole archive */


struct slot {
	const struct run_ref *ref;
	struct views_run *rec;	/* what the views keep of it (page_views.h) */
	struct buf diag;	/* captured diagnostics */
	const struct cache_run *old;	/* same key in the old manifest */
	int done, failed;
	int reused;		/* taken from the old site */
};

/*
 * The tasks are the runs, in archive order, and, when a site is written,
 * one more (slot n): the index and the cross-run views.  Those need every
 * run's record and summary but none of its pages, so the task waits until every run
 * is processed (nprocessed == n) and then renders while run pages are
 * still being written: with one big run, the views take the core the run
 * page leaves free.  A worker takes tasks in order, so whoever takes the
 * last one leaves no run unclaimed: the wait always ends.
 */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t next, n, ntasks, nprocessed;
	struct slot *s;		/* n + 1 slots */
	struct site *site;	/* NULL: check only */
	struct render_ctx *rc;
	const char *out;
	const struct pair_list *pairs;	/* of diffs.txt */
	const struct target_aliases *aliases;	/* of targets.txt */
	atomic_int bad;		/* a run failed: render nothing more */
	struct deps *deps;	/* the views' record; NULL: check only */
	unsigned char rtag[VIEWS_REC_TAG];	/* the records' (aliases_tag()) */
	int jobs;		/* threads for the view units */
	/* An update in place (site.h, site_update()): the old site is as erg
	 * left it (its folder record holds), so what is unchanged stays where
	 * it is and the tree gets only what is rendered afresh. */
	int update;
};

/* Where run i's files are while the build runs: in the old site when the
 * update keeps them in place, else in the tree being written. */
static const char *
run_root(const struct pool *p, size_t i)
{
	return p->update && p->s[i].reused ? p->out : p->site->tmp;
}

/*
 * Where a run's summary (run_summary()) and its views' record
 * (views_run_encode()) are kept: in the cache, not the published site
 * (walk_files() leaves OUT/.erg-cache out of the manifest; reuse() carries
 * them with the run), as OUT/.erg-cache/runs/<h>.json and <h>.rec, h the
 * SHA-256 of the run's id in hex.  One folder for every run: a folder per
 * run cost a mkdir and an rmdir per run on every build; and names from
 * the id itself could meet (ids are paths: run "a.json" beside the folder
 * of run "a.json.json/b").  The summary and the record say whose they are.
 */
#define CACHE_RUNS CACHE_DIR "/runs/"

static void
cache_name(struct buf *b, const char *id, const char *ext)
{
	struct sha256 c;
	unsigned char h[32];
	char hex[65];

	sha256_begin(&c);
	sha256_add(&c, id, strlen(id));
	sha256_end(&c, h);
	sha256_hex(h, hex);
	buf_addf(b, "%s%s%s", CACHE_RUNS, hex, ext);
}

/*
 * The tag of the records (views_run_encode()): the archive's aliases
 * (targets.txt) they were made under, which no run's key holds.  A
 * record under another tag is made again from the run's summary; one
 * under this tag passed targets_check_run() with these aliases when it
 * was made, so an unchanged run need not be checked again.
 */
static void
aliases_tag(const struct target_aliases *a, unsigned char tag[VIEWS_REC_TAG])
{
	struct sha256 c;
	size_t i;

	sha256_begin(&c);
	sha256_add(&c, "erg-aliases 1", 14);
	for (i = 0; i < a->n; i++) {
		sha256_add(&c, a->v[i].key, strlen(a->v[i].key) + 1);
		sha256_add(&c, a->v[i].canonical, strlen(a->v[i].canonical) + 1);
	}
	sha256_end(&c, tag);
}

/* A results.json erg wrote: far below this (the reference session's is
 * ~1 MB); the old site is not trusted to be what erg wrote. */
#define RESULTS_MAX ((size_t)256 << 20)

/*
 * Write results.json and the summary of a freshly processed run, before
 * the views may start (processed()): a diff reads its runs' results back
 * (load_results()), a view page its summary (load_summary()).  *rec: what
 * the views keep of it.  0 or -1.
 */
static int
write_results(struct pool *p, json_t *res, struct views_run **rec)
{
	struct buf rel = BUF_INIT, b = BUF_INIT;
	const char *id = json_string_value(json_object_get(res, "run"));
	json_t *sum = run_summary(res);
	char *text;
	int rc = 0;

	*rec = views_run_make(sum, p->aliases);
	buf_addf(&rel, "runs/%s/results.json", id);
	text = jx_dumps(res, JSON_INDENT(1));
	if (!text || site_write(p->site, rel.ptr, text, strlen(text)))
		rc = -1;
	free(text);
	buf_reset(&rel);
	cache_name(&rel, id, ".json");
	text = rc ? NULL : jx_dumps(sum, JSON_COMPACT);
	if (!rc && (!text || site_write(p->site, rel.ptr, text, strlen(text))))
		rc = -1;
	free(text);
	if (!rc && *rec) {
		buf_reset(&rel);
		cache_name(&rel, id, ".rec");
		views_run_encode(*rec, p->rtag, &b);
		rc = site_write(p->site, rel.ptr, b.ptr, b.len);
	}
	buf_release(&rel);
	buf_release(&b);
	json_decref(sum);
	return rc;
}

/* A diff's whole results of run i, read back from the tree being written. */
static json_t *
load_results(void *arg, size_t i)
{
	struct pool *p = arg;
	struct buf rel = BUF_INIT, text = BUF_INIT;
	json_error_t err;
	json_t *res = NULL;

	buf_addf(&rel, "runs/%s/results.json", p->s[i].ref->id);
	if (cache_read_file(run_root(p, i), rel.ptr, RESULTS_MAX, &text) ||
	    !(res = json_loadb(text.ptr, text.len, 0, &err)))
		error_at(run_root(p, i), 0, "cannot read back '%s' for its diff", rel.ptr);
	buf_release(&rel);
	buf_release(&text);
	return res;
}

/* Run i's summary for a view page (views_src), read back from the tree
 * being written: write_results() wrote it, or reuse() copied it there.
 * Its size in *bytes. */
static json_t *
load_summary(void *arg, size_t i, size_t *bytes)
{
	struct pool *p = arg;
	struct buf rel = BUF_INIT, text = BUF_INIT;
	const char *id = p->s[i].ref->id;
	json_error_t err;
	json_t *sum = NULL, *run;

	cache_name(&rel, id, ".json");
	*bytes = 0;
	if (!cache_read_file(run_root(p, i), rel.ptr, RESULTS_MAX, &text))
		sum = json_loadb(text.ptr, text.len, 0, &err);
	run = json_object_get(sum, "run");
	if (!json_is_object(sum) || !json_is_string(run) || strcmp(json_string_value(run), id)) {
		error_at(run_root(p, i), 0, "cannot read back '%s' for the views", rel.ptr);
		json_decref(sum);
		sum = NULL;
	} else {
		*bytes = text.len;
	}
	buf_release(&rel);
	buf_release(&text);
	return sum;
}

/* The old site's summary of run id, parsed, or NULL (silently). */
static json_t *
old_summary(const struct pool *p, const char *rel, const char *id)
{
	struct buf text = BUF_INIT;
	json_error_t err;
	json_t *sum, *run;

	sum = cache_read_file(p->out, rel, RESULTS_MAX, &text) ? NULL :
	      json_loadb(text.ptr, text.len, 0, &err);
	buf_release(&text);
	run = sum ? json_object_get(sum, "run") : NULL;
	if (!json_is_object(sum) || !json_is_string(run) || strcmp(json_string_value(run), id)) {
		json_decref(sum);
		return NULL;
	}
	return sum;
}

/*
 * An unchanged run: its record, summary and files from the old site, read
 * without following links (cache.h); its results are not read, nor its
 * summary when the record is under this build's tag.  1 and *rec; 0 when
 * the run is to be rendered afresh (a file missing or not a regular file,
 * a site of an erg from before the records); -1 after a located error (a
 * record that does not read back, a run that targets.txt now refuses).
 */
static int
reuse(struct pool *p, struct slot *s, struct views_run **rec)
{
	struct buf prefix = BUF_INIT, rrel = BUF_INIT, srel = BUF_INIT, text = BUF_INIT;
	const char *id = s->ref->id;
	struct views_run *r = NULL;
	char *names[2];
	int rc = 0, k, fresh = 0;

	*rec = NULL;
	buf_addf(&prefix, "runs/%s/", id);
	cache_name(&rrel, id, ".rec");
	cache_name(&srel, id, ".json");
	/* its files are checked as they are carried (cache_copy_files()) */
	if (cache_read_file(p->out, rrel.ptr, RESULTS_MAX, &text))
		goto out;
	{
		struct buf where = BUF_INIT;

		buf_addf(&where, "%s/%s", p->out, rrel.ptr);
		k = views_run_decode(text.ptr, text.len, where.ptr, p->rtag, &r);
		if (!k && strcmp(views_run_id(r), id))
			k = error_at(where.ptr, 0, "the record of run '%s' where that of '%s' "
				     "belongs", views_run_id(r), id);
		buf_release(&where);
	}
	if (k < 0) {
		rc = -1;
		goto out;
	}
	if (k == 1) {
		/* made under other aliases (or by another erg): again, from
		 * the summary, checked against this build's targets.txt */
		json_t *sum = old_summary(p, srel.ptr, id);

		if (!sum)
			goto out;
		if (targets_check_run(p->aliases, sum, s->ref->dir)) {
			json_decref(sum);
			rc = -1;
			goto out;
		}
		r = views_run_make(sum, p->aliases);
		json_decref(sum);
		fresh = 1;
		if (!r)
			goto out;
	}
	names[0] = srel.ptr + strlen(CACHE_RUNS);
	names[1] = rrel.ptr + strlen(CACHE_RUNS);
	if (p->update) {
		/* kept where they are: the folder record vouches for them */
	} else if (cache_copy_files(p->out, p->site->tmp, prefix.ptr, s->old->files, s->old->nfiles) ||
	    cache_copy_files(p->out, p->site->tmp, CACHE_RUNS, names, fresh ? 1 : 2)) {
		/* Render afresh into a clean folder. */
		struct buf path = BUF_INIT;

		buf_addf(&path, "%s/%s", p->site->tmp, prefix.ptr);
		path_remove_tree(path.ptr);
		buf_reset(&path);
		buf_addf(&path, "%s/%s", p->site->tmp, srel.ptr);
		unlink(path.ptr);
		buf_reset(&path);
		buf_addf(&path, "%s/%s", p->site->tmp, rrel.ptr);
		unlink(path.ptr);
		buf_release(&path);
		goto out;
	}
	if (fresh) {
		buf_reset(&text);
		views_run_encode(r, p->rtag, &text);
		if (site_write(p->site, rrel.ptr, text.ptr, text.len)) {
			rc = -1;
			goto out;
		}
	}
	*rec = r;
	r = NULL;
	rc = 1;
out:
	views_run_free(r);
	buf_release(&prefix);
	buf_release(&rrel);
	buf_release(&srel);
	buf_release(&text);
	return rc;
}

/*
 * The views' dependency record (site/cache.h, CACHE_DEPS): the views ask
 * before each unit of pages (render/page_views.h, views_deps) whether the
 * previous site's files of it can be carried over: its key (everything
 * its pages show, with the keys of the runs it lists) is the one the
 * record holds and its files are there, regular and reached through no
 * link (cache_copy_files()).  Otherwise the unit is rendered and its
 * files are the ones written through the views' sink until its end().
 * Pages written outside every unit (index.html, the lists, the search)
 * make the unit "*", rendered every time.
 */
struct idkey {
	const char *id;
	const struct slot *s;
};

struct deps;

/* One thread rendering view units: the unit it has open.  The views'
 * callbacks and sink get a task as their context. */
struct deps_task {
	struct deps *d;
	size_t open;		/* the unit being rendered, or (size_t)-1 */
	struct views_deps vd;
};

struct deps {
	struct pool *p;
	struct idkey *ids;	/* sorted by id: the manifest's run order */
	size_t nids;
	struct cache_deps old;	/* the previous site's, or empty */
	struct cache_deps cur;	/* under mu: units are added from every task */
	pthread_mutex_t mu;
	struct sink inner;	/* the site's */
	struct deps_task main;	/* the views' own thread */
};

static int
cmp_idkey(const void *a, const void *b)
{
	return strcmp(((const struct idkey *)a)->id, ((const struct idkey *)b)->id);
}

static const struct idkey *
deps_run(const struct deps *d, const char *id)
{
	struct idkey k = { id, NULL };

	return d->nids ? bsearch(&k, d->ids, d->nids, sizeof(*d->ids), cmp_idkey) : NULL;
}

static int
deps_run_key(void *ctx, const char *id, unsigned char key[32])
{
	const struct idkey *k = deps_run(((struct deps_task *)ctx)->d, id);

	if (!k || !k->s->ref->keyed)
		return -1;
	memcpy(key, k->s->ref->key, 32);
	return 0;
}

static struct cache_unit *
deps_add(struct deps *d, const char *name)
{
	struct cache_unit *u;

	ALLOC_GROW(d->cur.v, d->cur.n + 1, d->cur.alloc);
	u = &d->cur.v[d->cur.n++];
	memset(u, 0, sizeof(*u));
	u->name = xstrdup(name);
	return u;
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int
deps_unit(void *ctx, const char *name, const unsigned char *key, const char *const *runs,
	  size_t nruns, unsigned inputs, long long counts[3])
{
	struct deps_task *t = ctx;
	struct deps *d = t->d;
	struct cache_unit *u;
	const struct cache_unit *o = key ? cache_deps_find(&d->old, name) : NULL;
	size_t i, j;
	int rc = 0;

	/* u points into cur, which another task may grow: all of it locked
	 * (the render itself is not) */
	pthread_mutex_lock(&d->mu);
	u = deps_add(d, name);

	u->keyed = key != NULL;
	if (key)
		memcpy(u->key, key, 32);
	u->inputs = (inputs & VIEWS_IN_TARGETS ? DEPS_IN_TARGETS : 0) |
		    (inputs & VIEWS_IN_DIFFS ? DEPS_IN_DIFFS : 0);
	u->runs = xcalloc(nruns + 1, sizeof(*u->runs));
	for (i = 0; i < nruns; i++) {
		const struct idkey *k = deps_run(d, runs[i]);

		if (k)
			u->runs[u->nruns++] = (size_t)(k - d->ids);
	}
	if (u->nruns)
		qsort(u->runs, u->nruns, sizeof(*u->runs), cmp_size);
	for (i = j = 0; i < u->nruns; i++)
		if (!j || u->runs[j - 1] != u->runs[i])
			u->runs[j++] = u->runs[i];
	u->nruns = j;
	if (o && o->keyed && !memcmp(o->key, key, 32) && o->nfiles &&
	    (d->p->update || cache_files_exist(d->p->out, "", o->files, o->nfiles))) {
		if (d->p->update ||
		    !cache_copy_files(d->p->out, d->p->site->tmp, "", o->files, o->nfiles)) {
			u->files = xcalloc(o->nfiles + 1, sizeof(*u->files));
			for (i = 0; i < o->nfiles; i++)
				u->files[i] = xstrdup(o->files[i]);
			u->nfiles = u->afiles = o->nfiles;
			memcpy(u->counts, o->counts, sizeof(u->counts));
			memcpy(counts, o->counts, sizeof(u->counts));
			u->carried = 1;
			t->open = (size_t)-1;
			rc = 1;
			goto out;
		}
		/* Render afresh: what was copied goes (the render may write
		 * fewer files than the copy began). */
		for (i = 0; i < o->nfiles; i++) {
			struct buf f = BUF_INIT;

			buf_addf(&f, "%s/%s", d->p->site->tmp, o->files[i]);
			unlink(f.ptr);
			buf_release(&f);
		}
	}
	t->open = d->cur.n - 1;
out:
	pthread_mutex_unlock(&d->mu);
	return rc;
}

static void
deps_end(void *ctx, const long long *counts)
{
	struct deps_task *t = ctx;
	struct deps *d = t->d;

	pthread_mutex_lock(&d->mu);
	if (t->open < d->cur.n && counts)
		memcpy(d->cur.v[t->open].counts, counts, sizeof(d->cur.v[t->open].counts));
	pthread_mutex_unlock(&d->mu);
	t->open = (size_t)-1;
}

/* The views' sink: the site's, noting which unit wrote what. */
static int
deps_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct deps_task *t = ctx;
	struct deps *d = t->d;
	struct cache_unit *u;

	if (sink_write(&d->inner, rel, data, len))
		return -1;
	pthread_mutex_lock(&d->mu);
	if (t->open < d->cur.n) {
		u = &d->cur.v[t->open];
	} else {
		u = &d->cur.v[0];	/* "*" (deps_open()) */
	}
	ALLOC_GROW(u->files, u->nfiles + 1, u->afiles);
	u->files[u->nfiles++] = xstrdup(rel);
	pthread_mutex_unlock(&d->mu);
	return 0;
}

static void
deps_task_init(struct deps_task *t, struct deps *d)
{
	t->d = d;
	t->open = (size_t)-1;
	t->vd.run_key = deps_run_key;
	t->vd.unit = deps_unit;
	t->vd.end = deps_end;
	t->vd.ctx = t;
}

static void
deps_open(struct deps *d, struct pool *p, int have_old)
{
	size_t i;
	struct cache_unit *all;

	memset(d, 0, sizeof(*d));
	d->p = p;
	pthread_mutex_init(&d->mu, NULL);
	d->ids = xcalloc(p->n + 1, sizeof(*d->ids));
	for (i = 0; i < p->n; i++) {
		d->ids[i].id = p->s[i].ref->id;
		d->ids[i].s = &p->s[i];
	}
	d->nids = p->n;
	if (d->nids)
		qsort(d->ids, d->nids, sizeof(*d->ids), cmp_idkey);
	if (have_old && cache_deps_load(p->out, &d->old))
		memset(&d->old, 0, sizeof(d->old));
	all = deps_add(d, "*");
	all->all = 1;
	all->inputs = DEPS_IN_TARGETS | DEPS_IN_DIFFS;
	d->inner = site_sink(p->site);
	deps_task_init(&d->main, d);
}

static void
deps_close(struct deps *d)
{
	cache_deps_free(&d->old);
	cache_deps_free(&d->cur);
	free(d->ids);
	pthread_mutex_destroy(&d->mu);
}

/*
 * The views' tasks on jobs threads (issue 19: at 100,000 runs the views
 * were a fifth of a full build, on one core): each thread a fork of v
 * with its own sink and dependency task, the tasks taken one at a time
 * from a shared counter, in two phases: the diff pages, then, once every
 * thread is done with them (the lists and the machines' pages show every
 * diff's counts), the view units.  A diff pair writes only its own
 * counts.  Which thread renders a page changes nothing in it; the record
 * sorts its units and files (cache_deps_text()).  Diagnostics are
 * captured per thread and passed on in thread order (a failing build
 * only).
 */
struct unit_thread {
	struct views *v;
	struct render_ctx rc;
	struct deps_task t;
	const struct diff_src *ds;	/* NULL: the units' phase */
	_Atomic size_t *next;
	size_t n;
	_Atomic int *bad;
	struct buf diag;
	pthread_t th;
	int started;
};

static void *
unit_worker(void *arg)
{
	struct unit_thread *u = arg;
	size_t i;
	int rc;

	diag_capture(&u->diag);
	while (!atomic_load(u->bad) && (i = atomic_fetch_add(u->next, 1)) < u->n) {
		rc = u->ds ? diff_one(u->v, i, u->ds) : views_render_unit(u->v, i);
		if (rc)
			atomic_store(u->bad, 1);
	}
	diag_capture(NULL);
	return NULL;
}

/* One phase: tasks [0, n) (diff pairs with ds, else view units). */
static void
views_phase(struct unit_thread *u, int jobs, size_t n, const struct diff_src *ds,
	    struct buf *sink)
{
	_Atomic size_t next = 0;
	int k;

	for (k = 0; k < jobs; k++) {
		u[k].ds = ds;
		u[k].next = &next;
		u[k].n = n;
	}
	/* this thread is one of them */
	for (k = 1; k < jobs; k++)
		u[k].started = !pthread_create(&u[k].th, NULL, unit_worker, &u[k]);
	unit_worker(&u[0]);
	diag_capture(sink);
	for (k = 0; k < jobs; k++) {
		if (k && u[k].started)
			pthread_join(u[k].th, NULL);
		else if (k)
			unit_worker(&u[k]);	/* no thread: its share here */
		if (sink)
			buf_add(sink, u[k].diag.ptr, u[k].diag.len);
		else
			fputs(u[k].diag.ptr, stderr);
		buf_reset(&u[k].diag);
	}
}

static int
views_parallel(struct views *v, struct render_ctx *rc, struct deps *d, int jobs,
	       const struct diff_src *ds)
{
	struct unit_thread *u = xcalloc((size_t)jobs, sizeof(*u));
	_Atomic int bad = 0;
	struct buf *sink = diag_captured();
	int k;

	for (k = 0; k < jobs; k++) {
		deps_task_init(&u[k].t, d);
		u[k].rc = *rc;
		u[k].rc.out.write = deps_write;
		u[k].rc.out.ctx = &u[k].t;
		u[k].v = views_fork(v, &u[k].rc, &u[k].t.vd);
		u[k].bad = &bad;
		buf_init(&u[k].diag, 0);
	}
	views_phase(u, jobs, views_npairs(v), ds, sink);
	if (!atomic_load(&bad))
		views_phase(u, jobs, views_nunits(v), NULL, sink);
	for (k = 0; k < jobs; k++) {
		buf_release(&u[k].diag);
		views_fork_free(u[k].v);
	}
	free(u);
	return atomic_load(&bad) ? -1 : 0;
}

/* Once per run task, on every path: work_views() waits for n of them. */
static void
processed(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	p->nprocessed++;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/*
 * A run task.  Only the views' record of the run outlives it: its
 * results and summary are written, its pages rendered and the trees freed
 * here, so memory holds one run's results per worker, not the archive's.
 */
static void
work(struct pool *p, struct slot *s)
{
	json_t *res;
	int k;

	if (p->site && s->old && (k = reuse(p, s, &s->rec))) {
		s->reused = k > 0;
		if (k < 0) {
			s->failed = 1;
			atomic_store(&p->bad, 1);
		}
		processed(p);
		return;
	}
	res = build_process(s->ref);
	if (res && targets_check_run(p->aliases, res, s->ref->dir)) {
		json_decref(res);
		res = NULL;
	}
	if (!res || (p->site && write_results(p, res, &s->rec))) {
		s->failed = 1;
		atomic_store(&p->bad, 1);	/* before processed(): no views */
	}
	/* Before the pages, so that the views can start. */
	processed(p);
	if (res && !s->failed && p->site && !atomic_load(&p->bad) && render_run(p->rc, res))
		s->failed = 1;
	json_decref(res);
}

/* The last task: index.html and the views, once every run is processed;
 * 0, or -1 (also when a run failed and there is nothing to render). */
static int
work_views(struct pool *p)
{
	struct render_ctx vrc;
	struct views_run **recs;
	struct views_src src;
	size_t i;
	int rc;

	pthread_mutex_lock(&p->mu);
	while (p->nprocessed < p->n)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	if (atomic_load(&p->bad))
		return -1;
	recs = xcalloc(p->n + 1, sizeof(*recs));
	for (i = 0; i < p->n; i++)
		recs[i] = p->s[i].rec;
	src.runs = recs;
	src.n = p->n;
	src.summary = load_summary;
	src.ctx = p;
	vrc = *p->rc;
	vrc.out.write = deps_write;
	vrc.out.ctx = &p->deps->main;
	rc = views_with(&vrc, &src, 1, p->pairs, p->aliases, load_results, p, &p->deps->main.vd,
			p->deps, p->jobs);
	free(recs);
	return rc ? -1 : 0;
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	struct slot *s;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->ntasks)
			break;
		s = &p->s[i];
		diag_capture(&s->diag);
		if (i == p->n) {
			s->failed = work_views(p) != 0;
		} else {
			progress_run_begin();
			work(p, s);
			progress_run_end(s->old ? 0 : s->ref->bytes);
		}
		diag_capture(NULL);
		if (s->failed)
			atomic_store(&p->bad, 1);
		pthread_mutex_lock(&p->mu);
		s->done = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

/* Run the pool; diagnostics are printed in archive order.  0 or -1. */
static int
run_pool(struct pool *p, int jobs, int ticking)
{
	pthread_t *t;
	size_t i, nt = 0;
	int bad = 0;

	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > p->ntasks)
		jobs = (int)(p->ntasks ? p->ntasks : 1);
	t = xcalloc((size_t)jobs, sizeof(*t));
	for (i = 0; i < (size_t)jobs; i++) {
		if (pthread_create(&t[nt], NULL, worker, p)) {
			if (!nt)
				die("cannot start a worker thread");
			break;
		}
		nt++;
	}
	for (i = 0; i < p->ntasks; i++) {
		pthread_mutex_lock(&p->mu);
		while (!p->s[i].done) {
			if (ticking) {
				struct timespec ts;

				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += 100 * 1000 * 1000;
				if (ts.tv_nsec >= 1000000000L) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000L;
				}
				pthread_cond_timedwait(&p->cv, &p->mu, &ts);
				pthread_mutex_unlock(&p->mu);
				progress_tick();
				pthread_mutex_lock(&p->mu);
			} else {
				pthread_cond_wait(&p->cv, &p->mu);
			}
		}
		pthread_mutex_unlock(&p->mu);
		/* After a failed run the views may have stumbled on what it
		 * left unwritten: one run's problem, reported once, whatever -j. */
		if (i == p->n && bad)
			continue;
		if (p->s[i].diag.len) {
			progress_clear();
			fputs(p->s[i].diag.ptr, stderr);
			fflush(stderr);
		}
		if (p->s[i].failed)
			bad = -1;
	}
	for (i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	free(t);
	return bad;
}

static int
default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* Is the old site exactly what this build would write?  Every run has
 * the key it was built with, and no folder of the site changed since erg
 * wrote it (no page deleted or replaced: cache.h, the folder record). */
static int
up_to_date(const struct build_opts *o, const struct cache_manifest *m,
	   const unsigned char global[32], const struct slot *s, size_t n)
{
	size_t i;

	static char name[] = SITE_MARKER;
	char *const marker[] = { name };

	/* A site of an erg from before the marker gets one by a build; one
	 * built under other limits, a manifest that records these. */
	if (memcmp(m->global, global, 32) || m->nruns != n || !cache_limits_equal(m))
		return 0;
	for (i = 0; i < n; i++)
		if (!s[i].old)
			return 0;
	return cache_files_exist(o->out, "", marker, 1) && cache_folders_same(o->out);
}

/*
 * The manifest (and for a swap the folder record) into the tree; its text
 * also in *manifest.  An update (old, d) lists the runs it kept in place
 * with the files old gave them, and the files of the view units it kept.
 */
static int
write_manifest(struct site *site, const unsigned char global[32],
	       const unsigned char akey[32], const struct slot *s, size_t n,
	       const struct cache_manifest *old, const struct deps *d, struct buf *manifest)
{
	char **ids = xcalloc(n + 1, sizeof(*ids)), **keep = NULL;
	unsigned char (*keys)[32] = xcalloc(n + 1, sizeof(*keys));
	unsigned char *kept = xcalloc(n + 1, 1);
	struct buf folders = BUF_INIT;
	size_t i, j, nkeep = 0, akeep = 0;
	int rc = 0;

	for (i = 0; i < n; i++) {
		ids[i] = s[i].ref->id;
		/* A run that could not be keyed gets a key no walk produces. */
		if (s[i].ref->keyed)
			memcpy(keys[i], s[i].ref->key, 32);
		kept[i] = old && s[i].reused;
	}
	for (i = 0; old && i < d->cur.n; i++)
		for (j = 0; d->cur.v[i].carried && j < d->cur.v[i].nfiles; j++) {
			ALLOC_GROW(keep, nkeep + 1, akeep);
			keep[nkeep++] = d->cur.v[i].files[j];
		}
	/* Without a manifest the next build is simply a full one. */
	if (!cache_describe(site->tmp, global, akey, ids, (const unsigned char (*)[32])keys, n,
			    old, kept, keep, nkeep, manifest, old ? NULL : &folders))
		rc = site_write(site, CACHE_MANIFEST, manifest->ptr, manifest->len) ||
		     (!old && site_write(site, CACHE_FOLDERS, folders.ptr, folders.len)) ? -1 : 0;
	buf_release(&folders);
	free(ids);
	free(keys);
	free(kept);
	free(keep);
	return rc;
}

/*
 * Move what the update wrote into the site and remove what it no longer
 * has: the old manifest's files the new one does not list, and the
 * cached summary and record of each run gone from the archive.
 */
static int
update_site(struct site *site, const struct cache_manifest *old, struct buf *manifest)
{
	struct cache_manifest cur;
	char **stale = NULL, **gone = NULL;
	size_t nstale = 0, ngone = 0, i;
	int rc;

	if (cache_parse(manifest, &cur)) {
		site_abort(site);
		return error_at(site->out ? site->out : ".", 0, "cannot read back the manifest "
				"this build wrote");
	}
	cache_stale(old, &cur, &stale, &nstale, &gone, &ngone);
	stale = xrealloc(stale, (nstale + 2 * ngone + 1) * sizeof(*stale));
	for (i = 0; i < ngone; i++) {
		struct buf b = BUF_INIT;

		cache_name(&b, gone[i], ".json");
		stale[nstale++] = buf_detach(&b, NULL);
		cache_name(&b, gone[i], ".rec");
		stale[nstale++] = buf_detach(&b, NULL);
		free(gone[i]);
	}
	free(gone);
	rc = site_update(site, CACHE_MANIFEST, stale, nstale);
	for (i = 0; i < nstale; i++)
		free(stale[i]);
	free(stale);
	cache_free(&cur);
	return rc;
}

/* The record goes with the manifest: it describes the site beside it. */
static int
write_deps(struct site *site, struct deps *d)
{
	struct buf text = BUF_INIT;
	int rc;

	cache_deps_text(&d->cur, &text);
	rc = site_write(site, CACHE_DEPS, text.ptr, text.len);
	buf_release(&text);
	return rc;
}

/*
 * --explain: what this build rendered, one line each, sorted: the runs read
 * and rendered again ("runs/<id>/") and every cross-run page written
 * afresh; the pages of units carried over are not listed.
 */
static void
explain(const struct deps *d, const struct slot *s, size_t n)
{
	char **v = NULL;
	size_t nv = 0, av = 0, i, j;

	for (i = 0; i < n; i++)
		if (!s[i].reused) {
			struct buf b = BUF_INIT;

			buf_addf(&b, "runs/%s/", s[i].ref->id);
			ALLOC_GROW(v, nv + 1, av);
			v[nv++] = buf_detach(&b, NULL);
		}
	for (i = 0; i < d->cur.n; i++)
		for (j = 0; !d->cur.v[i].carried && j < d->cur.v[i].nfiles; j++) {
			ALLOC_GROW(v, nv + 1, av);
			v[nv++] = xstrdup(d->cur.v[i].files[j]);
		}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_name);
	for (i = 0; i < nv; i++) {
		fprintf(stderr, "erg: rendered %s\n", v[i]);
		free(v[i]);
	}
	free(v);
}

int
build_run_all(const struct build_opts *o)
{
	struct run_list runs;
	struct site site = { 0 };
	struct render_ctx rc = { 0 };
	struct cache_manifest old = { 0 };
	struct pair_list pairs = { NULL, 0, 0 };
	struct target_aliases aliases = { NULL, 0, 0 };
	struct pool p;
	struct deps deps;
	struct slot *s;
	struct buf manifest = BUF_INIT;
	unsigned char global[32], akey[32];
	uint64_t total = 0;
	size_t i, nreused = 0;
	int bad = 0, errors0 = diag_errors, have_old = 0, ticking, update = 0, outlock = -1;

	/* Before reading anything: never replace what erg did not write. */
	if (o->out && site_check_out(o->out, o->archive))
		return -1;
	/* Another build of OUT finishes first: this one then starts from
	 * the site it left, and never moves pages into a site being swapped. */
	if (o->out)
		outlock = site_lock_out(o->out);
	if (archive_scan(o->archive, o->jobs > 0 ? o->jobs : default_jobs(), &runs)) {
		site_unlock_out(outlock);
		return -1;
	}
	/* An empty site in place of the previous one is a lost site. */
	if (!runs.n)
		return error_at(o->archive, 0, "no runs found (a run is a directory holding 'meta.json' and 'timeline.jsonl', or 'run.json')");
	{
		const char **ids = xcalloc(runs.n + 1, sizeof(*ids));

		for (i = 0; i < runs.n; i++)
			ids[i] = runs.v[i].id;
		bad = pairs_read(o->archive, ids, runs.n, &pairs);
		if (targets_read(o->archive, &aliases))
			bad = -1;
		free(ids);
		if (bad) {
			pair_list_free(&pairs);
			targets_free(&aliases);
			run_list_free(&runs);
			site_unlock_out(outlock);
			return -1;
		}
	}
	s = xcalloc(runs.n + 1, sizeof(*s));
	buf_init(&s[runs.n].diag, 0);	/* the views' */
	if (o->out) {
		char **ids = xcalloc(runs.n + 1, sizeof(*ids));

		for (i = 0; i < runs.n; i++)
			ids[i] = runs.v[i].id;
		cache_global_key(o->tmpl_dir, o->version, global);
		cache_archive_key(o->archive, ids, runs.n, akey);
		free(ids);
		have_old = !cache_load(o->out, &old) && !memcmp(old.global, global, 32) &&
			   cache_limits_cover(&old);
	}
	for (i = 0; i < runs.n; i++) {
		s[i].ref = &runs.v[i];
		buf_init(&s[i].diag, 0);
	}
	/* the runs' keys are the scan's (archive.h) */
	for (i = 0; have_old && i < runs.n; i++) {
		const struct cache_run *c = cache_find(&old, runs.v[i].id);

		if (runs.v[i].keyed && c && !memcmp(c->key, runs.v[i].key, 32))
			s[i].old = c;
	}
	for (i = 0; i < runs.n; i++) {
		if (!s[i].old)
			total += s[i].ref->bytes;
		else
			nreused++;
	}
	if (have_old && !memcmp(old.archive, akey, 32) &&
	    up_to_date(o, &old, global, s, runs.n)) {
		site_remove_stale(o->out);
		if (!o->quiet)
			fprintf(stderr, "erg: '%s' is up to date (%zu run%s)\n", o->out,
				runs.n, runs.n == 1 ? "" : "s");
		goto done;
	}
	/* Update in place only a site as erg left it; any other is built
	 * whole into a new tree, what is unchanged carried by links. */
	update = have_old && cache_folders_same(o->out);

	if (o->out) {
		if (site_begin(&site, o->out)) {
			bad = -1;
			goto done;
		}
		if (render_begin(&rc, o->tmpl_dir, site_sink(&site))) {
			site_abort(&site);
			bad = -1;
			goto done;
		}
	}
	ticking = !o->quiet && isatty(STDERR_FILENO);
	progress_start(ticking, runs.n - nreused, total);
	memset(&p, 0, sizeof(p));
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	p.n = runs.n;
	p.s = s;
	p.site = o->out ? &site : NULL;
	p.rc = &rc;
	p.out = o->out;
	p.pairs = &pairs;
	p.aliases = &aliases;
	p.ntasks = runs.n + (o->out != NULL);
	p.update = update;
	p.jobs = o->jobs > 0 ? o->jobs : default_jobs();
	aliases_tag(&aliases, p.rtag);
	atomic_init(&p.bad, 0);
	if (o->out) {
		deps_open(&deps, &p, have_old);
		p.deps = &deps;
	}
	if (run_pool(&p, o->jobs > 0 ? o->jobs : default_jobs(), ticking))
		bad = -1;
	progress_stop();
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	if (!o->out)
		goto done;

	nreused = 0;
	for (i = 0; i < runs.n; i++)
		nreused += s[i].reused != 0;
	if (!bad && diag_errors == errors0 &&
	    (write_deps(&site, &deps) ||
	     write_manifest(&site, global, akey, s, runs.n, p.update ? &old : NULL, &deps,
			    &manifest)))
		bad = -1;
	render_end(&rc);
	if (bad || diag_errors > errors0) {
		site_abort(&site);
		bad = -1;
	} else if (p.update ? update_site(&site, &old, &manifest) : site_commit(&site)) {
		bad = -1;
	} else {
		if (o->explain)
			explain(&deps, s, runs.n);
	}
	if (!bad && !o->quiet) {
		fprintf(stderr, "erg: built %zu run%s into '%s'", runs.n,
			runs.n == 1 ? "" : "s", o->out);
		if (nreused)
			fprintf(stderr, " (%zu unchanged)", nreused);
		fputc('\n', stderr);
	}
	deps_close(&deps);
done:
	for (i = 0; i <= runs.n; i++) {
		views_run_free(s[i].rec);
		buf_release(&s[i].diag);
	}
	free(s);
	cache_free(&old);
	pair_list_free(&pairs);
	targets_free(&aliases);
	run_list_free(&runs);
	buf_release(&manifest);
	site_unlock_out(outlock);
	return bad || diag_errors > errors0 ? -1 : 0;
}
