/*
 * build.c - see build.h.  Data flows one way: each run is read
 * (session.c), analysed (analyze.c), turned into JSON (results.c), and
 * only that JSON reaches the renderer.  Nothing is written until every
 * run has been read and checked, and then only into the temporary tree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "archive.h"
#include "build.h"
#include "checks.h"
#include "jsonx.h"
#include "path.h"
#include "render.h"
#include "results.h"
#include "session.h"
#include "sha256.h"
#include "site.h"
#include "util.h"

/* Raw files of the run with size and digest, for the "raw files" table. */
static json_t *
files_json(const struct run *r)
{
	json_t *arr = json_array();
	struct buf p = BUF_INIT;
	size_t i, j;
	char hex[65];
	uint64_t size;
	const char *fixed[] = { "meta.json", "timeline.jsonl" };

#define ADD(rel) \
	do { \
		buf_reset(&p); \
		buf_addf(&p, "%s/%s", r->dir, (rel)); \
		if (!sha256_file(p.ptr, hex, &size)) { \
			json_t *o_ = json_object(); \
			json_object_set_new(o_, "name", json_string(rel)); \
			json_object_set_new(o_, "bytes", json_integer((json_int_t)size)); \
			json_object_set_new(o_, "sha256", json_string(hex)); \
			json_array_append_new(arr, o_); \
		} \
	} while (0)
	for (i = 0; i < 2; i++)
		ADD(fixed[i]);
	if (r->notes_rel)
		ADD(r->notes_rel);
	for (i = 0; i < r->npf; i++) {
		const char *base = strrchr(r->pf[i].path, '/');

		ADD(base ? base + 1 : r->pf[i].path);
	}
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++)
			if (r->m[i].routes[j].has_load)
				ADD(r->m[i].routes[j].load_rel);
#undef ADD
	buf_release(&p);
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
		json_object_set_new(o, "round", json_integer(pick->round));
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

	if (ref->kind != RUN_ENERGY_SESSION) {
		error_at(ref->dir, 0, "summary runs (run.json) are not supported yet");
		return NULL;
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

int
build_run_all(const struct build_opts *o)
{
	struct run_list runs;
	struct site site = { 0 };
	struct render_ctx rc;
	json_t *all = json_array();
	size_t i;
	int bad = 0, errors0 = diag_errors;

	if (archive_scan(o->archive, &runs)) {
		json_decref(all);
		return -1;
	}
	if (!runs.n)
		warn("no runs found under '%s'", o->archive);
	for (i = 0; i < runs.n; i++) {
		json_t *res = build_process(&runs.v[i]);

		if (!res) {
			bad = -1;
			continue;
		}
		json_array_append_new(all, res);
	}
	if (bad || diag_errors > errors0 || !o->out)
		goto done;

	if (site_begin(&site, o->out)) {
		bad = -1;
		goto done;
	}
	if (render_begin(&rc, o->tmpl_dir, &site)) {
		site_abort(&site);
		bad = -1;
		goto done;
	}
	for (i = 0; i < json_array_size(all) && !bad; i++) {
		json_t *res = json_array_get(all, i);
		struct buf rel = BUF_INIT;
		char *text;

		buf_addf(&rel, "runs/%s/results.json", json_string_value(json_object_get(res, "run")));
		text = json_dumps(res, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		if (!text || site_write(&site, rel.ptr, text, strlen(text)))
			bad = -1;
		free(text);
		buf_release(&rel);
		if (!bad && render_run(&rc, res))
			bad = -1;
	}
	if (!bad && render_index(&rc, all))
		bad = -1;
	render_end(&rc);
	if (bad || diag_errors > errors0) {
		site_abort(&site);
		bad = -1;
	} else if (site_commit(&site)) {
		bad = -1;
	} else if (!o->quiet) {
		fprintf(stderr, "erg: built %zu run%s into '%s'\n", runs.n,
			runs.n == 1 ? "" : "s", o->out);
	}
done:
	json_decref(all);
	run_list_free(&runs);
	return bad || diag_errors > errors0 ? -1 : 0;
}
