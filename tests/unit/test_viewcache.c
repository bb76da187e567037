/*
 * test_viewcache.c - the views keep a record of plain values per run
 * (views_run_make()), not its summary, and read summaries back only for
 * pages over a bounded set of runs, through a cache of at most
 * ERG_VIEW_CACHE of them (issue 19: memory bounded whatever the archive).
 *
 * 60 runs over two machines (energy sessions with routes, rounds and idle
 * windows; every seventh a summary run with published texts) are
 * rendered twice: from the array of their results, as the tests render
 * (render_index(), build_views()), and as the build does, from their
 * records alone (build_views_src()): the results are freed once the
 * records are made, each record goes through its bytes (views_run_encode()
 * and views_run_decode(), as an unchanged run's record comes from the
 * cache) and each summary is made afresh when the views ask for it.  The
 * pages must be the same, byte for byte, and only the index reads
 * summaries back (its newest 50: the routes are in the records).  The test keeps a
 * reference to every summary it hands out, so one the views still hold
 * has a refcount above 1: with ERG_VIEW_CACHE=2, at no page do they hold
 * more than 2.  ERG_VIEW_CACHE is read strictly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/sink.h"
#include "base/util.h"
#include "cmd/build.h"
#include "harness.h"
#include "render/page_run.h"
#include "render/page_views.h"

#define NRUNS 60

static const char *src_dir;

/* Run i: deterministic, so that making it again gives the same results. */
static json_t *
run_results(size_t i)
{
	static const char *const names[] = { "elysia", "hono", "Bun" };
	static const char *const routes[] = { "ping", "json" };
	json_t *res = json_object(), *targets = json_array(), *ms = json_array();
	json_t *idle = json_array();
	const char *mach = i % 2 ? "m4" : "m5";
	int summary = i % 7 == 3;
	size_t nt = i % 2 ? 2 : 3, t, r, q;
	char id[64], date[32], text[32];

	snprintf(date, sizeof(date), "2025-%02d-%02dT10:00:00Z", (int)(1 + i / 28 % 12),
		 (int)(1 + i % 28));
	snprintf(id, sizeof(id), "%s/%.10s", mach, date);
	json_object_set_new(res, "run", json_string(id));
	json_object_set_new(res, "kind", json_string(summary ? "summary" : "energy-session"));
	json_object_set_new(res, "title", json_string(id));
	json_object_set_new(res, "captured_at", json_string(date));
	json_object_set_new(res, "machine", json_pack("{s:s, s:s}", "id", mach, "model", "Mac17,3"));
	json_object_set_new(res, "energy_source", json_string(summary ? "none" : "powermetrics"));
	json_object_set_new(res, "validation", json_pack("{s:s}", "status", "ok"));
	for (t = 0; t < nt; t++) {
		double k = (1 + 0.1 * (double)t) * (1 + 0.003 * (double)i);
		json_t *tg = json_pack("{s:s}", "name", names[t]), *h, *rl = json_array();

		if (summary) {
			snprintf(text, sizeof(text), "%.0f", 1000 / k);
			h = json_pack("{s:{s:f, s:s}}", "rps", "mean", 1000 / k, "published", text);
		} else {
			h = json_pack("{s:{s:f, s:f, s:i}, s:f, s:f, s:f}", "mj_per_req", "mean", k,
				      "sd", 0.01 * k, "n", 5, "rps", 1000 / k, "rps_sd", 3 / k,
				      "watts", 10 * k);
		}
		json_object_set_new(tg, "headline", h);
		for (q = 0; q < 2; q++)
			json_array_append_new(rl, json_pack("{s:s, s:{s:f, s:f, s:i}}", "name",
							    routes[q], "rps", "mean",
							    (1 + (double)q) * 900 / k, "sd", 2 / k,
							    "n", 5));
		/* a trials sweep's route figure names the x it is at */
		if (i % 5 == 1)
			json_object_set_new(json_object_get(json_array_get(rl, 1), "rps"), "at",
					    json_pack("{s:i, s:s}", "connections", 64, "note", "x"));
		json_object_set_new(tg, "routes", rl);
		json_array_append_new(targets, tg);
		for (r = 0; !summary && r < 5; r++) {
			double v = k * (1 + 0.01 * (double)r);

			json_array_append_new(ms, json_pack(
				"{s:s, s:i, s:f, s:f, s:f, s:[{s:s, s:s, s:f, s:f, s:f}]}",
				"target", names[t], "round", (int)r + 1, "headline_mj_per_req", v,
				"headline_rps", 1000 / v, "headline_watts", v * 10, "routes", "name",
				"ping", "per", "request", "mj_per_req", v, "rps", 1000 / v,
				"mean_watts", v * 10));
		}
	}
	for (r = 0; !summary && r < 3; r++)
		json_array_append_new(idle, json_pack("{s:f}", "mean_watts", 0.5 + 0.01 * (double)r));
	json_object_set_new(res, "targets", targets);
	json_object_set_new(res, "measurements", ms);
	json_object_set_new(res, "idle_windows", idle);
	return res;
}

/* The files a rendering wrote, in order; for the second, the summaries
 * the views held at each. */
struct files {
	char **name;
	struct buf *data;
	size_t n, alloc;
	json_t **handed;	/* summaries handed to the views, a reference each */
	size_t nhanded, ahanded, loads, max_held;
};

static int
catch_write(void *ctx, const char *rel, const void *data, size_t len)
{
	struct files *f = ctx;
	size_t i, j, held = 0;

	if (f->n == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 64;
		f->name = xrealloc(f->name, f->alloc * sizeof(*f->name));
		f->data = xrealloc(f->data, f->alloc * sizeof(*f->data));
	}
	f->name[f->n] = xstrdup(rel);
	buf_init(&f->data[f->n], 0);
	buf_add(&f->data[f->n], data, len);
	f->n++;
	/* those the views let go are dropped, so the list stays short */
	for (i = j = 0; i < f->nhanded; i++) {
		if (f->handed[i]->refcount > 1) {
			held++;
			f->handed[j++] = f->handed[i];
		} else {
			json_decref(f->handed[i]);
		}
	}
	f->nhanded = j;
	if (held > f->max_held)
		f->max_held = held;
	return 0;
}

static json_t *
hand_summary(void *arg, size_t i, size_t *bytes)
{
	struct files *f = arg;
	json_t *res = run_results(i);

	ALLOC_GROW(f->handed, f->nhanded + 1, f->ahanded);
	f->handed[f->nhanded++] = json_incref(res);
	f->loads++;
	*bytes = 0;
	return res;
}

static json_t *
whole_results(void *arg, size_t i)
{
	(void)arg;
	return run_results(i);
}

static void
files_free(struct files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->name[i]);
		buf_release(&f->data[i]);
	}
	for (i = 0; i < f->nhanded; i++)
		json_decref(f->handed[i]);
	free(f->name);
	free(f->data);
	free(f->handed);
}

static void
test_same_pages(void)
{
	struct files a = { 0 }, b = { 0 };
	struct render_ctx rc = { 0 };
	struct sink ka = { catch_write, &a }, kb = { catch_write, &b };
	struct views_run *recs[NRUNS];
	struct views_src src;
	struct buf dir = BUF_INIT;
	json_t *all = json_array();
	size_t i, same = 0;

	buf_addf(&dir, "%s/templates", src_dir);
	for (i = 0; i < NRUNS; i++)
		json_array_append_new(all, run_results(i));
	CHECK(!render_begin(&rc, dir.ptr, ka) && !render_index(&rc, all) &&
	      !build_views(&rc, all, NULL, NULL), "the views of %d runs from their results",
	      NRUNS);
	render_end(&rc);

	for (i = 0; i < NRUNS; i++) {
		static const unsigned char tag[VIEWS_REC_TAG];
		struct views_run *r = views_run_make(json_array_get(all, i), NULL);
		struct buf bytes = BUF_INIT;

		views_run_encode(r, tag, &bytes);
		views_run_free(r);
		if (views_run_decode(bytes.ptr, bytes.len, "rec", tag, &recs[i]))
			recs[i] = NULL;
		buf_release(&bytes);
	}
	json_decref(all);	/* the records hold nothing of it */
	src.runs = recs;
	src.n = NRUNS;
	src.summary = hand_summary;
	src.ctx = &b;
	setenv("ERG_VIEW_CACHE", "2", 1);
	CHECK(!render_begin(&rc, dir.ptr, kb) &&
	      !build_views_src(&rc, &src, 1, NULL, NULL, whole_results, NULL),
	      "the views of %d runs from their records and summaries read back", NRUNS);
	render_end(&rc);

	for (i = 0; i < a.n && i < b.n; i++)
		same += !strcmp(a.name[i], b.name[i]) && a.data[i].len == b.data[i].len &&
			!memcmp(a.data[i].ptr, b.data[i].ptr, a.data[i].len);
	CHECK(a.n > 50 && a.n == b.n && same == a.n,
	      "the same %zu files, byte for byte, in the same order (%zu of %zu)", a.n, same, b.n);
	for (i = 0; i < a.n && i < b.n; i++)
		if (strcmp(a.name[i], b.name[i]) || a.data[i].len != b.data[i].len ||
		    memcmp(a.data[i].ptr, b.data[i].ptr, a.data[i].len)) {
			printf("# first difference: %s / %s\n", a.name[i], b.name[i]);
			break;
		}
	/* the index reads the newest 50; every other page draws from the records */
	CHECK(b.loads >= 50 && b.loads <= 52, "summaries were read back for the index only "
	      "(%zu reads)", b.loads);
	CHECK(b.max_held >= 1 && b.max_held <= 2,
	      "at no page do the views hold more than ERG_VIEW_CACHE=2 summaries (at most %zu)",
	      b.max_held);

	/* read strictly, like ERG_PAGE_ROWS */
	{
		struct files c = { 0 };
		struct sink kc = { catch_write, &c };
		struct buf diag = BUF_INIT;
		int rc2;

		setenv("ERG_VIEW_CACHE", "0", 1);
		render_begin(&rc, dir.ptr, kc);
		diag_capture(&diag);
		rc2 = build_views_src(&rc, &src, 1, NULL, NULL, whole_results, NULL);
		diag_capture(NULL);
		render_end(&rc);
		CHECK(rc2 == -1 && diag.ptr && strstr(diag.ptr, "erg: error: ERG_VIEW_CACHE must be a "
						      "whole number from 1 to 1000000, not '0'"),
		      "ERG_VIEW_CACHE=0 is refused: %s", diag.ptr ? diag.ptr : "(nothing)");
		buf_release(&diag);
		files_free(&c);
	}
	unsetenv("ERG_VIEW_CACHE");
	for (i = 0; i < NRUNS; i++)
		views_run_free(recs[i]);
	files_free(&a);
	files_free(&b);
	buf_release(&dir);
}

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	src_dir = getenv("ERG_SRC") ? getenv("ERG_SRC") : ".";
	test_same_pages();
	return th_done();
}
