/*
 * model.c - the run model's own functions: freeing it, and the warnings
 * that ingest and analysis attach to it (see model.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "model/model.h"
#include "base/util.h"

void
measurement_init(struct measurement *m)
{
	memset(m, 0, sizeof(*m));
	m->start_ms = m->end_ms = NAN;
	m->server_pid = m->startup_ms = m->rss_before = m->rss_after = NAN;
	m->head_mj_per_req = m->head_rps = m->head_watts = NAN;
}

void
measurement_clear(struct measurement *m)
{
	size_t i;

	for (i = 0; i < m->nroutes; i++) {
		free(m->routes[i].name);
		free(m->routes[i].load_rel);
		load_result_free(&m->routes[i].load);
	}
	free(m->routes);
	free(m->id);
	free(m->target);
	free(m->target_full);
	measurement_init(m);
}

void
run_warn(struct run *r, const char *path, long line, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	const char *rel = path;
	size_t n = r->dir ? strlen(r->dir) : 0;
	va_list ap;
	json_t *w;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	warn_at(path, line, "%s", msg.ptr);
	/* The page names files as the run holds them, not by the builder's path. */
	if (path && n && !strncmp(path, r->dir, n) && path[n] == '/')
		rel = path + n + 1;
	if (!r->warnings)
		r->warnings = json_array();
	w = json_object();
	json_object_set_new(w, "file", rel ? json_string(rel) : json_null());
	json_object_set_new(w, "line", line > 0 ? json_integer(line) : json_null());
	json_object_set_new(w, "message", json_string(msg.ptr));
	json_array_append_new(r->warnings, w);
	buf_release(&msg);
}

void
run_free(struct run *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nm; i++)
		measurement_clear(&r->m[i]);
	free(r->m);
	for (i = 0; i < r->nidle; i++) {
		free(r->idle[i].id);
		free(r->idle[i].kind);
		free(r->idle[i].follows);
		free(r->idle[i].precedes);
	}
	free(r->idle);
	for (i = 0; i < r->npf; i++)
		power_file_free(&r->pf[i]);
	free(r->pf);
	for (i = 0; i < r->ntargets; i++) {
		size_t j;

		for (j = 0; j < r->targets[i].nroutes; j++)
			free(r->targets[i].routes[j].name);
		free(r->targets[i].routes);
		free(r->targets[i].name);
	}
	free(r->targets);
	for (i = 0; i < r->nper_mb_routes; i++)
		free(r->per_mb_routes[i]);
	free(r->per_mb_routes);
	json_decref(r->meta);
	json_decref(r->session_start);
	json_decref(r->validation);
	json_decref(r->warnings);
	free(r->notes_md);
	free(r->notes_rel);
	free(r->id);
	free(r->dir);
	memset(r, 0, sizeof(*r));
}
