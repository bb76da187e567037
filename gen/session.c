/*
 * session.c - read an energy session (see session.h) into struct run.
 *
 * The timeline is the spine: it names every window and its times; the
 * load generator's files and the power stream are read against it.  Every
 * inconsistency between the timeline and the files it names is an error
 * located at the timeline line, because a silently mismatched window would
 * give a wrong number that nobody notices.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "jsonx.h"
#include "path.h"
#include "session.h"
#include "util.h"

int
session_detect(const char *dir)
{
	struct buf b = BUF_INIT;
	int yes;

	buf_addf(&b, "%s/meta.json", dir);
	yes = path_is_file(b.ptr);
	buf_reset(&b);
	buf_addf(&b, "%s/timeline.jsonl", dir);
	yes = yes && path_is_file(b.ptr);
	buf_release(&b);
	return yes;
}

static struct measurement *
find_measurement(struct run *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].id, id))
			return &r->m[i];
	return NULL;
}

static void
route_init(struct route_win *w)
{
	memset(w, 0, sizeof(*w));
	w->start_ms = w->end_ms = NAN;
	w->requests = w->bytes_read = w->bytes_written = NAN;
	w->rps_mean = w->rps_sd = w->lat_mean_us = w->lat_max_us = NAN;
	w->non2xx = NAN;
	w->load_pid = NAN;
	w->idle = -1;
	w->idle_watts = w->net_energy_j = w->idle_share = NAN;
	w->mj_per_req = w->net_mj_per_req = w->mj_per_mb = NAN;
	load_result_init(&w->load);
}

/* Fields common to routeComplete and measurementComplete.routes.X. */
static int
read_route_fields(const char *path, long line, json_t *o, struct route_win *w)
{
	static const char *const nums[] = { "req1xx", "req3xx", "req4xx", "req5xx", "others" };
	double v;
	const char *s;
	size_t i;
	int bad = 0;

#define NUM(key, dst) \
	do { \
		int rc_ = jx_num(o, key, &v); \
		if (rc_ < 0) \
			bad |= error_at(path, line, "'%s' is not a number", key); \
		else if (rc_ > 0) \
			(dst) = v; \
	} while (0)
	NUM("startedAtMs", w->start_ms);
	NUM("endedAtMs", w->end_ms);
	NUM("requests", w->requests);
	NUM("bytesRead", w->bytes_read);
	NUM("bytesWritten", w->bytes_written);
	NUM("rpsMean", w->rps_mean);
	NUM("rpsStddev", w->rps_sd);
	NUM("latencyMeanUs", w->lat_mean_us);
	NUM("latencyMaxUs", w->lat_max_us);
	NUM("bombardierPid", w->load_pid);
#undef NUM
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		int rc = jx_num(o, nums[i], &v);

		if (rc < 0)
			bad |= error_at(path, line, "'%s' is not a number", nums[i]);
		else if (rc > 0)
			w->non2xx = (isnan(w->non2xx) ? 0 : w->non2xx) + v;
	}
	if (jx_str(o, "loadFile", &s) > 0) {
		free(w->load_rel);
		w->load_rel = xstrdup(s);
	} else if (jx_str(o, "loadFile", &s) < 0) {
		bad |= error_at(path, line, "'loadFile' is not a string");
	}
	if (isnan(w->start_ms) || isnan(w->end_ms))
		bad |= error_at(path, line, "route '%s' lacks startedAtMs/endedAtMs", w->name);
	else if (w->end_ms <= w->start_ms)
		bad |= error_at(path, line, "route '%s' ends before it starts", w->name);
	if (!isnan(w->requests) && w->requests <= 0)
		bad |= error_at(path, line, "route '%s' of the measurement has %s requests",
				w->name, w->requests == 0 ? "zero" : "a negative number of");
	if (!isnan(w->bytes_read) && w->bytes_read < 0)
		bad |= error_at(path, line, "route '%s': negative bytesRead", w->name);
	return bad ? -1 : 0;
}

static struct route_win *
add_route(struct measurement *m, const char *name, long line)
{
	struct route_win *w;

	ALLOC_GROW(m->routes, m->nroutes + 1, m->aroutes);
	w = &m->routes[m->nroutes++];
	route_init(w);
	w->name = xstrdup(name);
	w->line = line;
	return w;
}

static struct route_win *
find_route(struct measurement *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nroutes; i++)
		if (!strcmp(m->routes[i].name, name))
			return &m->routes[i];
	return NULL;
}

/* measurementStart, or the first routeComplete of a runner that wrote none. */
static struct measurement *
measurement_from(struct run *r, const char *path, long line, json_t *o,
		 const char *id)
{
	struct measurement *m;
	const char *s;
	double v;

	ALLOC_GROW(r->m, r->nm + 1, r->am);
	m = &r->m[r->nm++];
	measurement_init(m);
	m->id = xstrdup(id);
	m->line = line;
	if (jx_str(o, "framework", &s) > 0)
		m->target = xstrdup(s);
	else {
		error_at(path, line, "measurement '%s' has no 'framework'", id);
		m->target = xstrdup("?");
	}
	if (jx_str(o, "target", &s) > 0)
		m->target_full = xstrdup(s);
	/* Rounds and slots are small whole numbers; anything else is not a
	 * runner's record (and would not fit an int). */
	if (jx_num(o, "round", &v) > 0) {
		if (v != floor(v) || v < 0 || v > 1e6)
			error_at(path, line, "'round' must be a whole number from 0 to 1000000, not %g", v);
		else
			m->round = (int)v;
	}
	if (jx_num(o, "slot", &v) > 0) {
		if (v != floor(v) || v < 0 || v > 1e6)
			error_at(path, line, "'slot' must be a whole number from 0 to 1000000, not %g", v);
		else
			m->slot = (int)v;
	}
	if (jx_num(o, "startedAtMs", &v) > 0)
		m->start_ms = v;
	if (jx_num(o, "serverPid", &v) > 0)
		m->server_pid = v;
	if (jx_num(o, "startupMs", &v) > 0)
		m->startup_ms = v;
	return m;
}

static char *
opt_strdup(json_t *o, const char *key)
{
	const char *s;

	return jx_str(o, key, &s) > 0 ? xstrdup(s) : NULL;
}

static int
read_idle(struct run *r, const char *path, long line, json_t *o)
{
	struct idle_win *w;
	const char *id;
	double v;
	int bad = 0;
	size_t i;

	if (jx_str(o, "id", &id) <= 0)
		return error_at(path, line, "idleWindow without a string 'id'");
	for (i = 0; i < r->nidle; i++)
		if (!strcmp(r->idle[i].id, id))
			return error_at(path, line, "duplicate idle window id '%s'", id);
	ALLOC_GROW(r->idle, r->nidle + 1, r->aidle);
	w = &r->idle[r->nidle++];
	memset(w, 0, sizeof(*w));
	w->id = xstrdup(id);
	w->line = line;
	w->kind = opt_strdup(o, "kind");
	w->follows = opt_strdup(o, "followsMeasurementId");
	w->precedes = opt_strdup(o, "precedesMeasurementId");
	w->index = (int)r->nidle - 1;
	if (jx_num(o, "index", &v) > 0) {
		if (v != floor(v) || v < 0 || v > 1e6)
			bad = error_at(path, line, "'index' must be a whole number from 0 to 1000000, not %g", v);
		else
			w->index = (int)v;
	}
	w->start_ms = w->end_ms = w->base_start_ms = w->base_end_ms = NAN;
	if (jx_num(o, "startedAtMs", &w->start_ms) <= 0 ||
	    jx_num(o, "endedAtMs", &w->end_ms) <= 0)
		bad = error_at(path, line, "idle window '%s' lacks numeric startedAtMs/endedAtMs", id);
	else if (w->end_ms <= w->start_ms)
		bad = error_at(path, line, "idle window '%s' ends before it starts", id);
	if (jx_num(o, "baselineStartMs", &w->base_start_ms) < 0 ||
	    jx_num(o, "baselineEndMs", &w->base_end_ms) < 0)
		bad = error_at(path, line, "idle window '%s': baseline times are not numbers", id);
	return bad;
}

static int
read_event(struct run *r, const char *path, long line, json_t *o, double ts)
{
	const char *ev, *id, *route;
	struct measurement *m;
	struct route_win *w;
	json_t *routes, *rv;
	double v;

	jx_str(o, "event", &ev);
	if (!strcmp(ev, "sessionStart")) {
		if (!r->session_start)
			r->session_start = json_incref(o);
		return 0;
	}
	if (!strcmp(ev, "sessionResumed")) {
		r->resumed++;
		return 0;
	}
	if (!strcmp(ev, "heartbeat")) {
		r->heartbeats++;
		return 0;
	}
	if (!strcmp(ev, "sessionEnd")) {
		const char *e;

		if (json_is_false(json_object_get(o, "ok")))
			warn_at(path, line, "the session ended with an error: %s",
				jx_str(o, "error", &e) > 0 ? e : "(no message)");
		return 0;
	}
	if (!strcmp(ev, "idleWindow"))
		return read_idle(r, path, line, o);
	if (!strcmp(ev, "measurementStart")) {
		if (jx_str(o, "id", &id) <= 0)
			return error_at(path, line, "measurementStart without a string 'id'");
		if ((m = find_measurement(r, id))) {
			if (!isnan(m->end_ms))
				return error_at(path, line,
						"duplicate measurement id '%s' (first at line %ld)",
						id, m->line);
			/* A resumed session re-runs a measurement it never finished. */
			warn_at(path, line, "measurement '%s' restarted; the unfinished attempt at line %ld is dropped",
				id, m->line);
			measurement_clear(m);
			memmove(m, m + 1, (size_t)(r->m + r->nm - (m + 1)) * sizeof(*m));
			r->nm--;
		}
		measurement_from(r, path, line, o, id);
		return 0;
	}
	if (!strcmp(ev, "routeComplete")) {
		if (jx_str(o, "id", &id) <= 0 || jx_str(o, "route", &route) <= 0)
			return error_at(path, line, "routeComplete needs string 'id' and 'route'");
		if (!(m = find_measurement(r, id)))
			m = measurement_from(r, path, line, o, id);
		if (find_route(m, route))
			return error_at(path, line, "duplicate route '%s' in measurement '%s'", route, id);
		w = add_route(m, route, line);
		return read_route_fields(path, line, o, w);
	}
	if (!strcmp(ev, "measurementComplete")) {
		if (jx_str(o, "id", &id) <= 0)
			return error_at(path, line, "measurementComplete without a string 'id'");
		if (!(m = find_measurement(r, id)))
			m = measurement_from(r, path, line, o, id);
		m->end_ms = jx_num(o, "endedAtMs", &v) > 0 ? v : ts;
		if (jx_num(o, "rssBeforeBytes", &v) > 0)
			m->rss_before = v;
		if (jx_num(o, "rssAfterBytes", &v) > 0)
			m->rss_after = v;
		/* A runner that logs no routeComplete still lists the routes here. */
		routes = json_object_get(o, "routes");
		if (m->nroutes == 0 && json_is_object(routes)) {
			const char *name;

			json_object_foreach(routes, name, rv) {
				if (!json_is_object(rv))
					return error_at(path, line, "routes.%s is not an object", name);
				w = add_route(m, name, line);
				if (read_route_fields(path, line, rv, w))
					return -1;
			}
		}
		return 0;
	}
	return 0;	/* unknown events are the runner's business */
}

static int
read_timeline(struct run *r, const char *dir)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	char *p, *end, *nl;
	long line = 0;
	double ts, last_ts = -INFINITY;
	int bad = 0, errors0 = diag_thread_errors();
	json_error_t err;

	buf_addf(&path, "%s/timeline.jsonl", dir);
	if (input_read_all(path.ptr, input_max_small, &data)) {
		buf_release(&data);
		buf_release(&path);
		return -1;
	}
	r->session_start_ms = INFINITY;
	r->session_end_ms = -INFINITY;
	p = data.ptr + utf8_bom(data.ptr, data.len);
	for (end = data.ptr + data.len; p < end; p = nl + 1) {
		json_t *o;
		const char *ev;
		size_t n;

		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n)
			continue;
		o = json_loadb(p, n, 0, &err);
		if (!o) {
			bad |= error_at(path.ptr, line, "not a JSON object: %s", err.text);
			continue;
		}
		if (!json_is_object(o)) {
			bad |= error_at(path.ptr, line, "not a JSON object");
		} else if (jx_str(o, "event", &ev) <= 0) {
			bad |= error_at(path.ptr, line, "record without a string 'event'");
		} else if (jx_num(o, "ts", &ts) <= 0) {
			bad |= error_at(path.ptr, line, "record without a numeric 'ts'");
		} else {
			if (ts < last_ts)
				warn_at(path.ptr, line, "'ts' goes backwards (%.0f after %.0f)", ts, last_ts);
			last_ts = ts;
			if (ts < r->session_start_ms)
				r->session_start_ms = ts;
			if (ts > r->session_end_ms)
				r->session_end_ms = ts;
			if (read_event(r, path.ptr, line, o, ts))
				bad = -1;
		}
		json_decref(o);
	}
	if (diag_thread_errors() > errors0)
		bad = -1;	/* errors reported below read_event's return value */
	if (!bad && r->nm == 0)
		bad = error_at(path.ptr, 0, "no measurements in the timeline");
	buf_release(&data);
	buf_release(&path);
	return bad ? -1 : 0;
}

static int
cmp_win(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Windows that overlap cannot both be charged the energy of the overlap. */
static int
check_overlaps(struct run *r, const char *tl)
{
	double *w = NULL;	/* triples: start, end, line */
	size_t n = 0, a = 0, i, j;
	int bad = 0;

	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++) {
			ALLOC_GROW(w, 3 * (n + 1), a);
			w[3 * n] = r->m[i].routes[j].start_ms;
			w[3 * n + 1] = r->m[i].routes[j].end_ms;
			w[3 * n + 2] = (double)r->m[i].routes[j].line;
			n++;
		}
	if (n > 1)
		qsort(w, n, 3 * sizeof(double), cmp_win);
	for (i = 1; i < n; i++)
		if (w[3 * i] < w[3 * (i - 1) + 1])
			bad = error_at(tl, (long)w[3 * i + 2],
				       "load window overlaps the window logged at line %ld",
				       (long)w[3 * (i - 1) + 2]);
	free(w);
	return bad;
}

static int
read_loads(struct run *r, const char *dir)
{
	struct buf rel = BUF_INIT, full = BUF_INIT, data = BUF_INIT, tl = BUF_INIT;
	size_t i, j;
	int bad = 0;

	buf_addf(&tl, "%s/timeline.jsonl", dir);
	for (i = 0; i < r->nm; i++) {
		struct measurement *m = &r->m[i];

		for (j = 0; j < m->nroutes; j++) {
			struct route_win *w = &m->routes[j];
			const char *why;
			int explicit = w->load_rel != NULL, rc;

			buf_reset(&rel);
			if (explicit)
				buf_addstr(&rel, w->load_rel);
			else
				buf_addf(&rel, "bombardier/r%d-s%d-%s-%s.json", m->round,
					 m->slot, m->target, w->name);
			rc = path_inside(dir, rel.ptr, &full, &why);
			if (rc == -2 && !explicit) {
				if (isnan(w->requests))
					bad = error_at(tl.ptr, w->line,
						       "no request count and no load file '%s'", rel.ptr);
				continue;
			}
			if (rc) {
				bad = error_at(tl.ptr, w->line, "load file '%s': %s", rel.ptr, why);
				continue;
			}
			buf_reset(&data);
			if (input_read_all(full.ptr, input_max_small, &data) ||
			    load_parse(full.ptr, data.ptr, data.len, LOAD_UNKNOWN, &w->load)) {
				bad = -1;
				continue;
			}
			free(w->load_rel);
			w->load_rel = xstrdup(rel.ptr);
			w->has_load = 1;
			/* The runner copied these from the same file: any difference
			 * means the file is not the one the window was measured with. */
			if (!isnan(w->requests) && !isnan(w->load.requests) &&
			    w->requests != w->load.requests)
				bad = error_at(tl.ptr, w->line,
					       "requests %.0f differ from %.0f in '%s'",
					       w->requests, w->load.requests, rel.ptr);
			if (!isnan(w->bytes_read) && !isnan(w->load.bytes_read) &&
			    w->bytes_read != w->load.bytes_read)
				bad = error_at(tl.ptr, w->line,
					       "bytesRead %.0f differ from %.0f in '%s'",
					       w->bytes_read, w->load.bytes_read, rel.ptr);
			if (isnan(w->requests))
				w->requests = w->load.requests;
			if (isnan(w->bytes_read))
				w->bytes_read = w->load.bytes_read;
			if (isnan(w->bytes_written))
				w->bytes_written = w->load.bytes_written;
			if (isnan(w->rps_mean))
				w->rps_mean = w->load.rps_mean;
			if (isnan(w->rps_sd))
				w->rps_sd = w->load.rps_sd;
			if (isnan(w->lat_mean_us))
				w->lat_mean_us = w->load.lat_mean_us;
			if (isnan(w->lat_max_us))
				w->lat_max_us = w->load.lat_max_us;
			if (!isnan(w->requests) && w->requests <= 0)
				bad = error_at(tl.ptr, w->line, "route '%s' has zero requests", w->name);
		}
	}
	buf_release(&rel);
	buf_release(&full);
	buf_release(&data);
	buf_release(&tl);
	return bad ? -1 : 0;
}

/*
 * The power files of a run: power.plist, then power.plist.1, .2, ... each
 * optionally gzipped (a session may start at power.plist.1).  Every
 * "power.plist*" entry of the run directory is accounted for: a file of
 * the stream must be a regular file inside the run, numbered without
 * gaps; a name that looks like part of the stream but is none erg reads
 * (power.plist.gz.1, power.plist.01, power.plist.1.gz.gz) is an error,
 * since its samples would be silently left out; any other (a backup such
 * as power.plist.bak, power.plistX) is not read, with a warning on the
 * page.
 */
struct pname {
	char *name;
	unsigned long k;	/* 0 for power.plist */
	int gz;
};

static int
cmp_pname(const void *a, const void *b)
{
	const struct pname *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->gz - y->gz;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * What name is: 1 a file of the stream (*k, *gz set), 2 something that
 * looks like one (made of ".<digits>" and ".gz" parts), 0 anything else.
 * name starts with "power.plist".
 */
static int
power_name(const char *name, unsigned long *k, int *gz)
{
	const char *p = name + strlen("power.plist"), *q;
	size_t n;

	*k = 0;
	*gz = 0;
	if (!*p || !strcmp(p, ".gz")) {
		*gz = *p != '\0';
		return 1;
	}
	if (*p != '.')
		return 0;
	q = p + 1;
	n = strspn(q, "0123456789");
	if (n && n <= 6 && q[0] != '0' && (!q[n] || !strcmp(q + n, ".gz"))) {
		*k = strtoul(q, NULL, 10);
		*gz = q[n] != '\0';
		return 1;
	}
	/* ".<digits>" and ".gz" parts only */
	for (; *p; p += n + 1) {
		if (*p != '.')
			return 0;
		n = strspn(p + 1, "0123456789");
		if (!n && !strncmp(p + 1, "gz", 2) && (p[3] == '.' || !p[3]))
			n = 2;
		if (!n || (p[1 + n] && p[1 + n] != '.'))
			return 0;
	}
	return 2;
}

/* A file of the stream must be a regular file inside the run. */
static int
power_file_ok(const char *dir, const char *name, const char *path)
{
	struct stat st;
	struct buf full = BUF_INIT;
	const char *why, *kind;
	int rc;

	if (lstat(path, &st))
		return error_at(path, 0, "cannot read: %s", strerror(errno));
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st))
			return error_at(path, 0, "symbolic link to nothing: %s", strerror(errno));
		rc = path_inside(dir, name, &full, &why);
		buf_release(&full);
		if (rc)
			return error_at(path, 0, "symbolic link leading out of the run");
	}
	if (S_ISREG(st.st_mode))
		return 0;
	kind = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
	       S_ISSOCK(st.st_mode) ? "a socket" : S_ISCHR(st.st_mode) ? "a character device" :
	       S_ISBLK(st.st_mode) ? "a block device" : "not a file";
	return error_at(path, 0, "not a regular file but %s", kind);
}

/*
 * What the files say against each other and against meta.json: their
 * time spans must not overlap (a copy, a continuation that repeats
 * samples: energy counted twice), they must name one machine, and
 * meta.json's machine.model should be that machine.
 */
static int
check_power_files(struct run *r)
{
	const char *model;
	struct power_file *a, *b;
	size_t i, h, at;
	int bad = 0;

	for (i = 0; i + 1 < r->npf && !bad; i++) {
		a = &r->pf[i];
		b = &r->pf[i + 1];
		if (b->start_hi <= a->end_lo)
			bad = error_at(b->path, 0, "its samples overlap those of '%s' in time (by "
				       "%.1f s at least): a copy, or a continuation that repeats "
				       "samples, would count energy twice",
				       strrchr(a->path, '/') + 1, (a->end_lo - b->start_hi) / 1000);
		else if (a->hw_model && b->hw_model && strcmp(a->hw_model, b->hw_model))
			bad = error_at(b->path, 0, "hw_model '%s' but '%s' in '%s': one run, one "
				       "machine", b->hw_model, a->hw_model,
				       strrchr(a->path, '/') + 1);
	}
	if (bad)
		return -1;
	for (i = 0; i < r->npf; i++) {
		const struct power_file *pf = &r->pf[i];

		for (h = 0; h < pf->nholes; h++) {
			at = pf->holes[h].at;
			run_warn(r, pf->path, 0, "about %d sample%s missing between sample %u and "
				 "sample %u (the timestamps run %.1f s ahead of elapsed_ns there): "
				 "no energy is counted in between", pf->holes[h].missing,
				 pf->holes[h].missing == 1 ? "" : "s",
				 pf->s[at - pf->holes[h].unplaced - 1].no, pf->s[at].no,
				 pf->holes[h].ms / 1000);
		}
		if (pf->fit_fallback)
			run_warn(r, pf->path, 0, "the timestamps of its %zu samples cannot pin the "
				 "time fit's slope; taken as 1", pf->n);
	}
	model = r->meta ? jx_path_str(r->meta, "machine.model") : NULL;
	for (i = 0; i < r->npf && model; i++)
		if (r->pf[i].hw_model) {
			if (strcmp(r->pf[i].hw_model, model))
				run_warn(r, r->pf[i].path, 0, "hw_model '%s' of the samples differs "
					 "from meta.json's machine.model '%s'", r->pf[i].hw_model,
					 model);
			break;
		}
	return 0;
}

static int
read_power(struct run *r, const char *dir)
{
	struct buf p = BUF_INIT;
	struct pname *f = NULL;
	char **other = NULL;
	size_t nf = 0, af = 0, no = 0, ao = 0, i, alloc = 0;
	unsigned long k;
	struct dirent *e;
	DIR *d;
	int bad = 0, gz, kind;

	d = opendir(dir);
	if (!d)
		return error_at(dir, 0, "cannot list the run directory: %s", strerror(errno));
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "power.plist", strlen("power.plist")))
			continue;
		kind = power_name(e->d_name, &k, &gz);
		if (kind == 1) {
			ALLOC_GROW(f, nf + 1, af);
			f[nf].name = xstrdup(e->d_name);
			f[nf].k = k;
			f[nf++].gz = gz;
		} else {
			ALLOC_GROW(other, no + 1, ao);
			other[no++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (nf)
		qsort(f, nf, sizeof(*f), cmp_pname);
	if (no)
		qsort(other, no, sizeof(*other), cmp_str);

	for (i = 0; i < no; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, other[i]);
		if (power_name(other[i], &k, &gz) == 2)
			bad = error_at(p.ptr, 0, "looks like part of the power stream but is no name "
				       "erg reads (power.plist, power.plist.1, ..., each may end "
				       "in .gz): its samples would be left out; rename or remove it");
		else
			run_warn(r, p.ptr, 0, "not read: the power stream is power.plist, "
				 "power.plist.1, ... (each may end in .gz)");
	}
	for (i = 0; i < nf && !bad; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, f[i].name);
		if (power_file_ok(dir, f[i].name, p.ptr))
			bad = -1;
		else if (i && f[i].k == f[i - 1].k)
			bad = error_at(p.ptr, 0, "both '%s' and '%s' exist; keep one", f[i - 1].name,
				       f[i].name);
		else if (i ? f[i].k != f[i - 1].k + 1 : f[i].k > 1)
			bad = error_at(p.ptr, 0, "'power.plist.%lu' is missing before it: "
				       "continuation files are numbered without gaps",
				       i ? f[i - 1].k + 1 : 1);
	}
	for (i = 0; i < nf && !bad; i++) {
		if (i && f[i].k == f[i - 1].k)
			continue;
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, f[i].name);
		ALLOC_GROW(r->pf, r->npf + 1, alloc);
		memset(&r->pf[r->npf], 0, sizeof(r->pf[0]));
		if (power_read(p.ptr, &r->pf[r->npf])) {
			power_file_free(&r->pf[r->npf]);
			bad = -1;
			break;
		}
		r->npf++;
	}
	if (!bad)
		bad = check_power_files(r);
	for (i = 0; i < nf; i++)
		free(f[i].name);
	free(f);
	for (i = 0; i < no; i++)
		free(other[i]);
	free(other);
	buf_release(&p);
	return bad;
}

static int
read_meta(struct run *r, const char *dir)
{
	struct buf path = BUF_INIT, data = BUF_INIT, full = BUF_INIT;
	const char *notes = "notes.md", *why;
	json_t *list, *v;
	size_t i;
	int rc = -1, explicit;

	buf_addf(&path, "%s/meta.json", dir);
	if (input_read_all(path.ptr, input_max_small, &data))
		goto out;
	if (!(r->meta = jx_load(path.ptr, data.ptr, data.len)))
		goto out;
	if (!json_is_object(r->meta)) {
		error_at(path.ptr, 1, "meta.json is not a JSON object");
		goto out;
	}
	explicit = jx_str(r->meta, "notes", &notes);
	if (explicit < 0) {
		error_at(path.ptr, 0, "'notes' is not a string (the path of a Markdown file in the run)");
		goto out;
	}
	switch (path_inside(dir, notes, &full, &why)) {
	case 0:
		buf_reset(&data);
		if (input_read_all(full.ptr, input_max_small, &data))
			goto out;
		r->notes_md = xstrndup(data.ptr, data.len);
		r->notes_rel = xstrdup(notes);
		break;
	case -2:
		if (explicit) {
			error_at(path.ptr, 0, "notes file '%s' does not exist", notes);
			goto out;
		}
		break;
	default:
		error_at(path.ptr, 0, "notes file '%s': %s", notes, why);
		goto out;
	}
	list = jx_path(r->meta, "erg.perMbRoutes");
	if (list && !json_is_array(list)) {
		error_at(path.ptr, 0, "'erg.perMbRoutes' is not an array of route names");
		goto out;
	}
	json_array_foreach(list, i, v) {
		if (!json_is_string(v)) {
			error_at(path.ptr, 0, "'erg.perMbRoutes' is not an array of route names");
			goto out;
		}
		r->per_mb_routes = xrealloc(r->per_mb_routes,
					    (r->nper_mb_routes + 1) * sizeof(char *));
		r->per_mb_routes[r->nper_mb_routes++] = xstrdup(json_string_value(v));
	}
	rc = 0;
out:
	buf_release(&path);
	buf_release(&data);
	buf_release(&full);
	return rc;
}

int
session_read(const char *dir, const char *id, struct run *r)
{
	struct buf tl = BUF_INIT;
	int bad = 0;

	memset(r, 0, sizeof(*r));
	r->id = xstrdup(id);
	r->dir = xstrdup(dir);
	r->kind = "energy-session";
	buf_addf(&tl, "%s/timeline.jsonl", dir);
	if (read_meta(r, dir) || read_timeline(r, dir)) {
		buf_release(&tl);
		return -1;
	}
	if (check_overlaps(r, tl.ptr))
		bad = -1;
	if (read_loads(r, dir))
		bad = -1;
	if (!bad && read_power(r, dir))
		bad = -1;
	buf_release(&tl);
	return bad;
}
