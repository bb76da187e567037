/*
 * session.c - read an energy session (see session.h) into struct run.
 *
 * The timeline is the spine: it names every window and its times; the
 * load generator's files and the power stream are read against it.  Every
 * inconsistency between the timeline and the files it names is an error
 * located at the timeline line, because a silently mismatched window would
 * give a wrong number that nobody notices.
 *
 * Fields have types.  A field of the wrong type ("round": "1") is an error
 * at its line, never read as 0 or dropped; a field that is absent, or null
 * (JSON.stringify writes NaN as null), is "not reported" (NAN) where the
 * runner may leave it out, and an error where erg cannot do without it.
 * meta.json members and timeline records are read with base/json.h,
 * which locates every value it complains about by its own line.
 *
 * Cross-checks, all errors:
 *   - an event name that differs from a known one only by case;
 *   - a routeComplete or measurementComplete for an id no measurementStart
 *     names, or logged before it, or (routeComplete) after the
 *     measurementComplete; a framework, target, round or slot that
 *     contradicts the measurementStart;
 *   - a route window outside its own records: before its measurementStart,
 *     after its record's ts, after its measurement's end; an idle window
 *     that ends after its record's ts;
 *   - measurementComplete.routes that names other routes than the
 *     routeComplete records, or copies one of their figures differently;
 *   - a route's status counts that exceed or do not add up to its
 *     requests;
 *   - a measurement without routes, or with another set of routes than the
 *     other measurements of its target;
 *   - round numbers against sessionStart.rounds (fewer rounds than
 *     announced is a page warning when the session did not end well);
 *   - an idle baseline outside its idle window, an idle window that
 *     overlaps a load window or names a measurement that does not exist;
 *   - a count that the timeline and the load file both give and that
 *     differs (wrk's rounded byte total: by more than its printed
 *     precision).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/idmap.h"
#include "ingest/input.h"
#include "ingest/load.h"
#include "ingest/energy.h"
#include "ingest/plistfast.h"
#include "ingest/powermetrics.h"
#include "base/json.h"
#include "base/jsonx.h"
#include "base/num.h"
#include "base/path.h"
#include "ingest/session.h"
#include "base/util.h"
#include "base/utf8.h"

int
session_detect(const char *dir)
{
	struct buf b = BUF_INIT;
	int yes;

	/* as archive.c: a name is enough, whatever it is (session_read()
	 * then says what is wrong with it) */
	buf_addf(&b, "%s/meta.json", dir);
	yes = path_exists(b.ptr);
	buf_reset(&b);
	buf_addf(&b, "%s/timeline.jsonl", dir);
	yes = yes || path_exists(b.ptr);
	buf_release(&b);
	return yes;
}

/* ---- typed fields of one record --------------------------------------- */

/* A record of the timeline (one line, one JSON document), or an object
 * inside one (a measurementComplete's routes.NAME). */
struct rec {
	const char *path;
	long line;
	json_t *o;
	const struct jdoc *doc;
	struct jpos pos;	/* of o */
};

/* 1 and *out when key is present and of kind k; 0 when absent or null
 * (not reported, *out untouched); -1 after an error at its line. */
static int
rec_get(const struct rec *c, const char *key, enum jd_kind k, struct jpos *out)
{
	if (jdoc_get(c->doc, &c->pos, key, 0, out) <= 0 || json_is_null(out->v))
		return 0;
	return jdoc_check(c->doc, out, k) ? -1 : 1;
}

static int
rec_num_kind(const struct rec *c, const char *key, enum jd_kind k, double *out)
{
	struct jpos p;
	int rc = rec_get(c, key, k, &p);

	if (rc > 0)
		*out = json_number_value(p.v);
	return rc;
}

static int
rec_num(const struct rec *c, const char *key, double *out)
{
	return rec_num_kind(c, key, JD_NUMBER, out);
}

/* A rate or a time, which cannot be negative (the load parsers hold the
 * same fields of the load files to it). */
static int
rec_nonneg(const struct rec *c, const char *key, double *out)
{
	char b[NUM_TEXT_LEN];
	double v;
	int rc = rec_num(c, key, &v);

	if (rc <= 0)
		return rc;
	if (v < 0)
		return error_at(c->path, c->line, "'%s' must be at least 0, not %s", key,
				num_text(b, v));
	*out = v;
	return 1;
}

/* A count: a whole number from 0 to 2^53. */
static int
rec_count(const struct rec *c, const char *key, double *out)
{
	return rec_num_kind(c, key, JD_COUNT, out);
}

/* Rounds, slots and indexes: small whole numbers (anything else is not a
 * runner's record, and would not fit an int). */
static int
rec_small(const struct rec *c, const char *key, int *out)
{
	double v;
	int rc = rec_num_kind(c, key, JD_SMALL, &v);

	if (rc > 0)
		*out = (int)v;
	return rc;
}

static int
rec_str(const struct rec *c, const char *key, const char **out)
{
	struct jpos p;
	int rc = rec_get(c, key, JD_STRING, &p);

	if (rc > 0)
		*out = json_string_value(p.v);
	return rc;
}

static int
rec_bool(const struct rec *c, const char *key, int *out)
{
	struct jpos p;
	int rc = rec_get(c, key, JD_BOOL, &p);

	if (rc > 0)
		*out = json_is_true(p.v);
	return rc;
}

/* A load format named by loadFormat (routeComplete) or erg.loadFormat. */
static int
load_format(const char *path, long line, const char *key, const char *name, int *out)
{
	enum load_tool t = load_tool_from_name(name);

	if (t == LOAD_UNKNOWN)
		return error_at(path, line, "'%s' is '%s', not a format erg reads (%s)",
				key, name, load_tool_names);
	*out = (int)t;
	return 0;
}

/* ---- the timeline ------------------------------------------------------ */

/* A routeComplete or measurementComplete whose id no measurementStart has
 * named (yet): an error once the timeline is read, located at its line. */
struct orphan {
	char *id;
	const char *event;
	long line;
	size_t next;		/* next orphan of the same id; SIZE_MAX: none */
	size_t last;		/* (first orphan of an id) its last one */
	int placed;		/* its measurementStart came later */
};

/* The timeline as it is read. */
struct tl {
	struct run *r;
	const char *path;
	struct idmap mid;	/* measurement id -> index in r->m */
	struct idmap iid;	/* idle window id -> index in r->idle */
	struct idmap rid;	/* route key (rkey) -> 1 */
	char **rkeys;		/* the route keys, owned */
	size_t nrkeys, arkeys;
	struct orphan *orph;
	size_t norph, aorph;
	struct idmap oid;	/* id -> its first orphan */
	long start_line;	/* of sessionStart; 0 when there is none */
	int rounds;		/* sessionStart.rounds; -1 when not given */
	int ended;		/* sessionEnd: 1 ok, 0 not ok, -1 none */
	long end_line;		/* of sessionEnd */
};

static const char *const known_events[] = {
	"sessionStart", "sessionResumed", "heartbeat", "sessionEnd",
	"idleWindowStart", "idleWindow", "measurementStart", "routeComplete",
	"measurementComplete",
};

static struct measurement *
find_measurement(struct tl *t, const char *id)
{
	size_t i;

	return idmap_get(&t->mid, id, &i) ? &t->r->m[i] : NULL;
}

/* Drop measurement m (an attempt that a restart replaces); later ones
 * move down, and so do their indexes. */
static void
drop_measurement(struct tl *t, struct measurement *m)
{
	struct run *r = t->r;
	size_t i, k = (size_t)(m - r->m);

	measurement_clear(m);
	memmove(m, m + 1, (r->nm - k - 1) * sizeof(*m));
	r->nm--;
	idmap_free(&t->mid);
	for (i = 0; i < r->nm; i++)
		idmap_put(&t->mid, r->m[i].id, i);
}

static void
route_init(struct route_win *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->start_ms = w->end_ms = NAN;
	w->requests = w->bytes_read = w->bytes_written = NAN;
	w->rps_mean = w->rps_sd = w->lat_mean_us = w->lat_max_us = NAN;
	for (i = 0; i < 6; i++)
		w->tl_status[i] = NAN;
	w->ok2xx = w->non2xx = w->errors = NAN;
	w->load_pid = NAN;
	w->time_s = NAN;
	w->load_force = LOAD_UNKNOWN;
	w->idle = -1;
	w->idle_watts = w->net_energy_j = w->idle_share = NAN;
	w->mj_per_req = w->net_mj_per_req = w->mj_per_mb = w->mj_per_2xx = NAN;
	load_result_init(&w->load);
}

/* Fields common to routeComplete and measurementComplete.routes.X. */
static int
read_route_fields(const struct rec *c, struct route_win *w)
{
	/* index k holds req<k>xx; 0 holds "others" (as load.h's status[]) */
	static const char *const cls[6] = {
		"others", "req1xx", "req2xx", "req3xx", "req4xx", "req5xx"
	};
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];
	const char *s;
	double sum = 0, unused;
	size_t i, nclass = 0;
	int bad = 0, rc;

#define RD(fn, key, dst) \
	do { \
		if (fn(c, key, dst) < 0) \
			bad = -1; \
	} while (0)
	RD(rec_num, "startedAtMs", &w->start_ms);
	RD(rec_num, "endedAtMs", &w->end_ms);
	RD(rec_count, "requests", &w->requests);
	RD(rec_count, "bytesRead", &w->bytes_read);
	RD(rec_count, "bytesWritten", &w->bytes_written);
	RD(rec_nonneg, "rpsMean", &w->rps_mean);
	RD(rec_nonneg, "rpsStddev", &w->rps_sd);
	RD(rec_nonneg, "latencyMeanUs", &w->lat_mean_us);
	RD(rec_nonneg, "latencyMaxUs", &w->lat_max_us);
	RD(rec_nonneg, "timeTakenSeconds", &w->time_s);
	RD(rec_count, "bombardierPid", &w->load_pid);
	/* the runner's other figures (energy-method.md), not used: held to
	 * their type all the same */
	RD(rec_nonneg, "rpsMax", &unused);
	RD(rec_nonneg, "rpsP50", &unused);
	RD(rec_nonneg, "rpsP99", &unused);
	RD(rec_nonneg, "latencyStddevUs", &unused);
#undef RD
	for (i = 0; i < 6; i++) {
		rc = rec_count(c, cls[i], &w->tl_status[i]);
		if (rc < 0)
			bad = -1;
		else if (rc > 0)
			sum += w->tl_status[i], nclass++;
	}
	if ((rc = rec_str(c, "loadFile", &s)) > 0) {
		free(w->load_rel);
		w->load_rel = xstrdup(s);
	} else if (rc < 0) {
		bad = -1;
	}
	if ((rc = rec_str(c, "loadFormat", &s)) > 0) {
		if (load_format(c->path, c->line, "loadFormat", s, &w->load_force))
			bad = -1;
	} else if (rc < 0) {
		bad = -1;
	}
	if (bad)
		return -1;
	if (isnan(w->start_ms) || isnan(w->end_ms))
		return error_at(c->path, c->line, "route '%s' lacks startedAtMs/endedAtMs",
				w->name);
	if (w->end_ms <= w->start_ms)
		return error_at(c->path, c->line, "route '%s' ends before it starts", w->name);
	if (w->requests == 0)
		return error_at(c->path, c->line, "route '%s' of the measurement has zero "
				"requests", w->name);
	if (isnan(w->requests))
		return 0;
	if (w->tl_status[2] > w->requests)
		return error_at(c->path, c->line, "'req2xx' (%s) is more than 'requests' (%s)",
				num_text(a, w->tl_status[2]), num_text(b, w->requests));
	if (sum > w->requests || (nclass == 6 && sum != w->requests))
		return error_at(c->path, c->line, "'req1xx'..'req5xx' and 'others' add up to "
				"%s, not 'requests' (%s)", num_text(a, sum),
				num_text(b, w->requests));
	return 0;
}

/* Route keys: "<line of the measurementStart>:<length of id>:<id><route>",
 * one per route of each attempt of a measurement. */
static const char *
route_key(struct tl *t, const struct measurement *m, const char *route, int *seen)
{
	struct buf k = BUF_INIT;
	size_t v;

	buf_addf(&k, "%ld:%zu:%s%s", m->line, strlen(m->id), m->id, route);
	if (idmap_get(&t->rid, k.ptr, &v)) {
		buf_release(&k);
		*seen = 1;
		return NULL;
	}
	ALLOC_GROW(t->rkeys, t->nrkeys + 1, t->arkeys);
	t->rkeys[t->nrkeys] = buf_detach(&k, NULL);
	idmap_put(&t->rid, t->rkeys[t->nrkeys], 1);
	*seen = 0;
	return t->rkeys[t->nrkeys++];
}

static struct route_win *
add_route(struct tl *t, struct measurement *m, const char *name, long line)
{
	struct route_win *w;
	int seen;

	route_key(t, m, name, &seen);
	if (seen) {
		error_at(t->path, line, "duplicate route '%s' in measurement '%s'", name, m->id);
		return NULL;
	}
	ALLOC_GROW(m->routes, m->nroutes + 1, m->aroutes);
	w = &m->routes[m->nroutes++];
	route_init(w);
	w->name = xstrdup(name);
	w->line = line;
	return w;
}

static int
start_measurement(struct tl *t, const struct rec *c, const char *id)
{
	struct run *r = t->r;
	struct measurement *m;
	const char *s;
	int bad = 0, rc;

	ALLOC_GROW(r->m, r->nm + 1, r->am);
	m = &r->m[r->nm++];
	measurement_init(m);
	m->round = m->slot = -1;
	m->head_mj_per_2xx = NAN;
	m->id = xstrdup(id);
	m->line = c->line;
	idmap_put(&t->mid, m->id, r->nm - 1);
	rc = rec_str(c, "framework", &s);
	if (rc == 0)
		bad = error_at(c->path, c->line, "measurement '%s' has no 'framework'", id);
	m->target = xstrdup(rc > 0 ? s : "?");
	if (rc < 0)
		bad = -1;
	if ((rc = rec_str(c, "target", &s)) > 0)
		m->target_full = xstrdup(s);
	if (rc < 0 ||
	    rec_small(c, "round", &m->round) < 0 ||
	    rec_small(c, "slot", &m->slot) < 0 ||
	    rec_num(c, "startedAtMs", &m->start_ms) < 0 ||
	    rec_count(c, "serverPid", &m->server_pid) < 0 ||
	    rec_num(c, "startupMs", &m->startup_ms) < 0)
		bad = -1;
	return bad;
}

/*
 * A later record of measurement m must not contradict its measurementStart;
 * a round or slot the measurementStart left out is taken from it (the
 * load files are named by them).
 */
static int
check_ident(const struct rec *c, const char *event, struct measurement *m)
{
	static const char *const keys[] = { "round", "slot" };
	const char *s;
	int bad = 0, rc, v = 0;
	size_t i;

	rc = rec_str(c, "framework", &s);
	if (rc < 0)
		bad = -1;
	else if (rc > 0 && strcmp(s, m->target))
		bad = error_at(c->path, c->line, "%s of '%s' says 'framework' '%s', its "
			       "measurementStart (line %ld) '%s'", event, m->id, s, m->line,
			       m->target);
	rc = rec_str(c, "target", &s);
	if (rc < 0)
		bad = -1;
	else if (rc > 0 && m->target_full && strcmp(s, m->target_full))
		bad = error_at(c->path, c->line, "%s of '%s' says 'target' '%s', its "
			       "measurementStart (line %ld) '%s'", event, m->id, s, m->line,
			       m->target_full);
	for (i = 0; i < 2; i++) {
		int *have = i ? &m->slot : &m->round;

		rc = rec_small(c, keys[i], &v);
		if (rc < 0)
			bad = -1;
		else if (rc > 0 && *have < 0)
			*have = v;
		else if (rc > 0 && v != *have)
			bad = error_at(c->path, c->line, "%s of '%s' says '%s' %d, its "
				       "measurementStart (line %ld) %d", event, m->id, keys[i],
				       v, m->line, *have);
	}
	return bad;
}

/* An id without its measurementStart (yet); errors come at the end. */
static void
add_orphan(struct tl *t, const char *event, const char *id, long line)
{
	struct orphan *o;
	size_t first;

	ALLOC_GROW(t->orph, t->norph + 1, t->aorph);
	o = &t->orph[t->norph];
	o->id = xstrdup(id);
	o->event = event;
	o->line = line;
	o->next = o->last = SIZE_MAX;
	o->placed = 0;
	if (idmap_get(&t->oid, id, &first)) {
		size_t last = t->orph[first].last == SIZE_MAX ? first : t->orph[first].last;

		t->orph[last].next = t->norph;
		t->orph[first].last = t->norph;
	} else {
		idmap_put(&t->oid, o->id, t->norph);
	}
	t->norph++;
}

/* measurementStart of id at line: the records of id before it are out of
 * place. */
static int
place_orphans(struct tl *t, const char *id, long line)
{
	size_t k;
	int bad = 0;

	if (!idmap_get(&t->oid, id, &k))
		return 0;
	for (; k != SIZE_MAX; k = t->orph[k].next)
		if (!t->orph[k].placed) {
			t->orph[k].placed = 1;
			bad = error_at(t->path, t->orph[k].line, "%s of '%s' comes before "
				       "its measurementStart (line %ld)", t->orph[k].event, id,
				       line);
		}
	return bad;
}

static int
read_session_start(struct tl *t, const struct rec *c)
{
	struct run *r = t->r;
	const char *s;
	double v;
	int bad = 0;

	if (t->start_line)
		return 0;	/* the first one describes the session */
	t->start_line = c->line;
	r->session_start = json_incref(c->o);
	if (rec_str(c, "arm", &s) < 0 || rec_num(c, "rps", &v) < 0 ||
	    rec_num(c, "cooldownSec", &v) < 0 || rec_num(c, "gapSec", &v) < 0 ||
	    rec_small(c, "rounds", &t->rounds) < 0)
		bad = -1;
	return bad;
}

/* A window is logged once it has ended (the runner takes its end, then
 * logs the record with its ts, from one clock): one that ends later is
 * not the record's (another attempt's, a copy), and its energy or
 * baseline would be charged here. */
static int
ended_when_logged(const struct rec *c, const char *what, const char *name, double end_ms,
		  double ts)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	if (!(end_ms > ts))
		return 0;
	return error_at(c->path, c->line, "%s '%s' ends at %s ms, after this record was "
			"logged ('ts' %s): not this record's window", what, name,
			num_text(a, end_ms), num_text(b, ts));
}

static int
read_idle(struct tl *t, const struct rec *c, double ts)
{
	struct run *r = t->r;
	struct idle_win *w;
	const char *id, *s;
	int bad = 0, rc, nbase;
	size_t i;

	if ((rc = rec_str(c, "id", &id)) <= 0)
		return rc ? -1 : error_at(c->path, c->line, "idleWindow without a string 'id'");
	if (idmap_get(&t->iid, id, &i))
		return error_at(c->path, c->line, "duplicate idle window id '%s' (first at "
				"line %ld)", id, r->idle[i].line);
	ALLOC_GROW(r->idle, r->nidle + 1, r->aidle);
	w = &r->idle[r->nidle++];
	memset(w, 0, sizeof(*w));
	w->id = xstrdup(id);
	idmap_put(&t->iid, w->id, r->nidle - 1);
	w->line = c->line;
	w->index = (int)r->nidle - 1;
	w->start_ms = w->end_ms = w->base_start_ms = w->base_end_ms = NAN;
	if ((rc = rec_str(c, "kind", &s)) > 0)
		w->kind = xstrdup(s);
	if (rc < 0)
		bad = -1;
	if ((rc = rec_str(c, "followsMeasurementId", &s)) > 0)
		w->follows = xstrdup(s);
	if (rc < 0)
		bad = -1;
	if ((rc = rec_str(c, "precedesMeasurementId", &s)) > 0)
		w->precedes = xstrdup(s);
	if (rc < 0)
		bad = -1;
	if (rec_small(c, "index", &w->index) < 0)
		bad = -1;
	if (rec_num(c, "startedAtMs", &w->start_ms) < 0 ||
	    rec_num(c, "endedAtMs", &w->end_ms) < 0)
		return -1;
	if (isnan(w->start_ms) || isnan(w->end_ms))
		return error_at(c->path, c->line, "idle window '%s' lacks startedAtMs/endedAtMs",
				id);
	if (w->end_ms <= w->start_ms)
		return error_at(c->path, c->line, "idle window '%s' ends before it starts", id);
	if (ended_when_logged(c, "idle window", id, w->end_ms, ts))
		return -1;
	nbase = rec_num(c, "baselineStartMs", &w->base_start_ms);
	rc = rec_num(c, "baselineEndMs", &w->base_end_ms);
	if (nbase < 0 || rc < 0)
		return -1;
	if (nbase != rc)
		return error_at(c->path, c->line, "idle window '%s' gives %s without %s", id,
				nbase ? "baselineStartMs" : "baselineEndMs",
				nbase ? "baselineEndMs" : "baselineStartMs");
	return bad;
}

/*
 * A route's window lies inside its own records: it starts no earlier than
 * its measurement (measurementStart.startedAtMs) and has ended when its
 * record was logged.  A window outside them is another attempt's or
 * another measurement's, and its energy would be charged to this one.
 * (That it ends by its measurement's end: read_measurement_complete.)
 */
static int
route_in_measurement(const struct rec *c, const struct measurement *m,
		     const struct route_win *w, double ts)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	if (isfinite(m->start_ms) && w->start_ms < m->start_ms)
		return error_at(c->path, c->line, "route '%s' starts at %s ms, before its "
				"measurement '%s' started (%s ms, line %ld)", w->name,
				num_text(a, w->start_ms), m->id, num_text(b, m->start_ms), m->line);
	return ended_when_logged(c, "route", w->name, w->end_ms, ts);
}

static int
read_route_complete(struct tl *t, const struct rec *c, double ts)
{
	const char *id = NULL, *route = NULL;
	struct measurement *m;
	struct route_win *w;
	int rc1 = rec_str(c, "id", &id), rc2 = rec_str(c, "route", &route), bad;

	if (rc1 < 0 || rc2 < 0)
		return -1;
	if (!rc1 || !rc2)
		return error_at(c->path, c->line, "routeComplete needs string 'id' and 'route'");
	if (!(m = find_measurement(t, id))) {
		add_orphan(t, "routeComplete", id, c->line);
		return 0;
	}
	if (m->end_line)
		return error_at(c->path, c->line, "routeComplete of '%s' comes after its "
				"measurementComplete (line %ld)", id, m->end_line);
	bad = check_ident(c, "routeComplete", m);
	if (!(w = add_route(t, m, route, c->line)))
		return -1;
	if (read_route_fields(c, w) || route_in_measurement(c, m, w, ts))
		return -1;
	return bad;
}

/*
 * The runner writes each route's figures twice: in its routeComplete and
 * again in measurementComplete.routes (energy-method.md).  erg reads the
 * first; the copy must name the same routes with the same values (one
 * serializer wrote both, so the same numbers to the bit), or one of the
 * two is not this run's.
 */
static int
same_copy(const struct rec *c, const struct route_win *copy, const struct route_win *w)
{
	static const struct {
		const char *key;
		size_t off;
	} f[] = {
#define F(key, member) { key, offsetof(struct route_win, member) }
		F("startedAtMs", start_ms), F("endedAtMs", end_ms),
		F("requests", requests), F("bytesRead", bytes_read),
		F("bytesWritten", bytes_written), F("rpsMean", rps_mean),
		F("rpsStddev", rps_sd), F("latencyMeanUs", lat_mean_us),
		F("latencyMaxUs", lat_max_us), F("timeTakenSeconds", time_s),
		F("bombardierPid", load_pid), F("others", tl_status[0]),
		F("req1xx", tl_status[1]), F("req2xx", tl_status[2]),
		F("req3xx", tl_status[3]), F("req4xx", tl_status[4]),
		F("req5xx", tl_status[5]),
#undef F
	};
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		double x = *(const double *)((const char *)copy + f[i].off);
		double y = *(const double *)((const char *)w + f[i].off);

		if (!isnan(x) && !isnan(y) && x != y)
			return error_at(c->path, c->line, "routes.%s.%s is %s, but its "
					"routeComplete (line %ld) logged %s", w->name, f[i].key,
					num_text(a, x), w->line, num_text(b, y));
	}
	if (copy->load_rel && w->load_rel && strcmp(copy->load_rel, w->load_rel))
		return error_at(c->path, c->line, "routes.%s.loadFile is '%s', but its "
				"routeComplete (line %ld) logged '%s'", w->name, copy->load_rel,
				w->line, w->load_rel);
	if (copy->load_force != LOAD_UNKNOWN && w->load_force != LOAD_UNKNOWN &&
	    copy->load_force != w->load_force)
		return error_at(c->path, c->line, "routes.%s.loadFormat differs from its "
				"routeComplete's (line %ld)", w->name, w->line);
	return 0;
}

static int
check_route_copies(const struct rec *c, struct jpos *routes, const struct measurement *m)
{
	const char *name;
	json_t *rv;
	size_t i;
	int bad = 0;

	json_object_foreach(routes->v, name, rv) {
		struct rec rc2 = { c->path, c->line, rv, c->doc, { routes, name, 0, rv } };
		const struct route_win *w = NULL;
		struct route_win copy;

		if (jdoc_check(c->doc, &rc2.pos, JD_OBJECT)) {
			bad = -1;
			continue;
		}
		for (i = 0; i < m->nroutes && !w; i++)
			if (!strcmp(m->routes[i].name, name))
				w = &m->routes[i];
		if (!w) {
			bad = error_at(c->path, c->line, "measurementComplete lists route '%s', "
				       "which no routeComplete of '%s' logged", name, m->id);
			continue;
		}
		route_init(&copy);
		copy.name = (char *)name;	/* read only */
		if (read_route_fields(&rc2, &copy) || same_copy(c, &copy, w))
			bad = -1;
		free(copy.load_rel);
		load_result_free(&copy.load);
	}
	for (i = 0; i < m->nroutes; i++)
		if (!json_object_get(routes->v, m->routes[i].name))
			bad = error_at(c->path, c->line, "measurementComplete's 'routes' lacks "
				       "'%s', which its routeComplete (line %ld) logged",
				       m->routes[i].name, m->routes[i].line);
	return bad;
}

static int
read_measurement_complete(struct tl *t, const struct rec *c, double ts)
{
	const char *id, *name;
	struct measurement *m;
	struct route_win *w;
	struct jpos routes;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];
	json_t *rv;
	double v;
	size_t i;
	int rc, bad;

	if ((rc = rec_str(c, "id", &id)) <= 0)
		return rc ? -1 : error_at(c->path, c->line,
					  "measurementComplete without a string 'id'");
	if (!(m = find_measurement(t, id))) {
		add_orphan(t, "measurementComplete", id, c->line);
		return 0;
	}
	if (m->end_line)
		return error_at(c->path, c->line, "duplicate measurementComplete of '%s' "
				"(first at line %ld)", id, m->end_line);
	m->end_line = c->line;
	bad = check_ident(c, "measurementComplete", m);
	if ((rc = rec_num(c, "endedAtMs", &v)) < 0)
		bad = -1;
	m->end_ms = rc > 0 ? v : ts;
	if (rec_count(c, "rssBeforeBytes", &m->rss_before) < 0 ||
	    rec_count(c, "rssAfterBytes", &m->rss_after) < 0 ||
	    rec_num(c, "startedAtMs", &v) < 0 || rec_count(c, "serverPid", &v) < 0 ||
	    rec_num(c, "startupMs", &v) < 0)
		bad = -1;
	/* A runner that logs no routeComplete still lists the routes here;
	 * one that does copies them here. */
	if ((rc = rec_get(c, "routes", JD_OBJECT, &routes)) < 0)
		return -1;
	if (rc && m->nroutes) {
		if (check_route_copies(c, &routes, m))
			bad = -1;
	} else if (rc) {
		json_object_foreach(routes.v, name, rv) {
			struct rec rc2 = { c->path, c->line, rv, c->doc, { &routes, name, 0, rv } };

			if (jdoc_check(c->doc, &rc2.pos, JD_OBJECT)) {
				bad = -1;
				continue;
			}
			if (!(w = add_route(t, m, name, c->line)) || read_route_fields(&rc2, w) ||
			    route_in_measurement(c, m, w, ts))
				bad = -1;
		}
	}
	/* every route ended by the measurement's end */
	for (i = 0; i < m->nroutes; i++)
		if (m->routes[i].end_ms > m->end_ms)
			bad = error_at(c->path, c->line, "measurement '%s' ends at %s ms, before "
				       "its route '%s' (%s ms, line %ld)", id, num_text(a, m->end_ms),
				       m->routes[i].name, num_text(b, m->routes[i].end_ms),
				       m->routes[i].line);
	return bad;
}

static int
read_event(struct tl *t, const struct rec *c, const char *ev, double ts)
{
	struct run *r = t->r;
	const char *id, *e = NULL;
	struct measurement *m;
	int ok = 1, rc;
	size_t i;

	if (!strcmp(ev, "sessionStart"))
		return read_session_start(t, c);
	if (!strcmp(ev, "sessionResumed")) {
		r->resumed++;
		return 0;
	}
	if (!strcmp(ev, "heartbeat")) {
		r->heartbeats++;
		return 0;
	}
	if (!strcmp(ev, "sessionEnd")) {
		if (rec_bool(c, "ok", &ok) < 0 || rec_str(c, "error", &e) < 0)
			return -1;
		t->ended = ok;
		t->end_line = c->line;
		if (!ok)
			run_warn(r, c->path, c->line, "the session ended with an error: %s",
				 e ? e : "(no message)");
		return 0;
	}
	if (!strcmp(ev, "idleWindowStart"))
		return 0;	/* its idleWindow carries everything */
	if (!strcmp(ev, "idleWindow"))
		return read_idle(t, c, ts);
	if (!strcmp(ev, "measurementStart")) {
		if ((rc = rec_str(c, "id", &id)) <= 0)
			return rc ? -1 : error_at(c->path, c->line,
						  "measurementStart without a string 'id'");
		if ((m = find_measurement(t, id))) {
			if (m->end_line)
				return error_at(c->path, c->line,
						"duplicate measurement id '%s' (first at line %ld)",
						id, m->line);
			/* A resumed session re-runs a measurement it never finished. */
			warn_at(c->path, c->line, "measurement '%s' restarted; the unfinished "
				"attempt at line %ld is dropped", id, m->line);
			drop_measurement(t, m);
		}
		rc = place_orphans(t, id, c->line);
		return start_measurement(t, c, id) || rc ? -1 : 0;
	}
	if (!strcmp(ev, "routeComplete"))
		return read_route_complete(t, c, ts);
	if (!strcmp(ev, "measurementComplete"))
		return read_measurement_complete(t, c, ts);
	/* Unknown events are the runner's business, but a known one with
	 * another case is a typo that would lose its record. */
	for (i = 0; i < sizeof(known_events) / sizeof(known_events[0]); i++)
		if (!strcasecmp(ev, known_events[i]))
			return error_at(c->path, c->line, "event '%s' is not '%s' (event "
					"names are case-sensitive)", ev, known_events[i]);
	return 0;
}

/* ---- whole-timeline checks ---------------------------------------------- */

static int
cmp_str(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* "'a', 'b', 'c'" (at most 12 names) */
static void
name_list(struct buf *b, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 12; i++)
		buf_addf(b, "%s'%s'", i ? ", " : "", v[i]);
	if (n > 12)
		buf_addf(b, " and %zu more", n - 12);
}

/*
 * Every measurement of a target has the same routes: a missing one (lost
 * or misspelled event) would leave a measurement that is averaged with
 * complete ones.  The set most measurements of the target have (ties: the
 * larger, then the first) is the target's; every other is an error.
 */
static int
check_route_sets(struct tl *t)
{
	struct run *r = t->r;
	struct idmap tmap = IDMAP_INIT, smap = IDMAP_INIT;
	const char ***names = xcalloc(r->nm + 1, sizeof(*names));
	char **keys = xcalloc(r->nm + 1, sizeof(*keys));
	size_t *grp = xmalloc((r->nm + 1) * sizeof(*grp));
	size_t *gcount = xcalloc(r->nm + 1, sizeof(*gcount));
	size_t *gfirst = xmalloc((r->nm + 1) * sizeof(*gfirst));
	size_t *best = xmalloc((r->nm + 1) * sizeof(*best));
	size_t *tix = xmalloc((r->nm + 1) * sizeof(*tix));
	struct buf k = BUF_INIT;
	size_t i, j, g, ng = 0;
	int bad = 0;

	for (i = 0; i <= r->nm; i++)
		best[i] = SIZE_MAX;
	for (i = 0; i < r->nm; i++) {
		const struct measurement *m = &r->m[i];

		tix[i] = idmap_intern(&tmap, m->target);
		grp[i] = SIZE_MAX;
		if (!m->nroutes) {
			bad = error_at(t->path, m->line, "measurement '%s' has no routes", m->id);
			continue;
		}
		names[i] = xmalloc(m->nroutes * sizeof(**names));
		for (j = 0; j < m->nroutes; j++)
			names[i][j] = m->routes[j].name;
		qsort(names[i], m->nroutes, sizeof(**names), cmp_str);
		buf_reset(&k);
		buf_addf(&k, "%zu", tix[i]);
		for (j = 0; j < m->nroutes; j++)
			buf_addf(&k, "|%zu:%s", strlen(names[i][j]), names[i][j]);
		keys[i] = buf_detach(&k, NULL);
		g = idmap_intern(&smap, keys[i]);
		if (g == ng)
			gfirst[ng++] = i;
		grp[i] = g;
		gcount[g]++;
	}
	/* The set of each target. */
	for (g = 0; g < ng; g++) {
		size_t tt = tix[gfirst[g]], b = best[tt];

		if (b == SIZE_MAX || gcount[g] > gcount[b] ||
		    (gcount[g] == gcount[b] &&
		     r->m[gfirst[g]].nroutes > r->m[gfirst[b]].nroutes))
			best[tt] = g;
	}
	for (i = 0; i < r->nm; i++) {
		const struct measurement *m = &r->m[i];
		size_t b = best[tix[i]], ref, a, c, na, nb;

		if (grp[i] == SIZE_MAX || grp[i] == b)
			continue;
		ref = gfirst[b];
		na = m->nroutes;
		nb = r->m[ref].nroutes;
		buf_reset(&k);
		name_list(&k, names[ref], nb);
		for (a = c = 0; a < na || c < nb;) {
			int d = a == na ? 1 : c == nb ? -1 : strcmp(names[i][a], names[ref][c]);

			if (d < 0) {
				bad = error_at(t->path, m->line, "measurement '%s' has route '%s', "
					       "which the measurements of '%s' do not have (%s)",
					       m->id, names[i][a], m->target, k.ptr);
				a++;
			} else if (d > 0) {
				bad = error_at(t->path, m->line, "measurement '%s' lacks route '%s' "
					       "(the measurements of '%s' have %s)", m->id,
					       names[ref][c], m->target, k.ptr);
				c++;
			} else {
				a++, c++;
			}
		}
	}
	for (i = 0; i < r->nm; i++) {
		free(names[i]);
		free(keys[i]);
	}
	free(names);
	free(keys);
	free(grp);
	free(gcount);
	free(gfirst);
	free(best);
	free(tix);
	buf_release(&k);
	idmap_free(&tmap);
	idmap_free(&smap);
	return bad;
}

/*
 * sessionStart.rounds against the measurements' rounds.  A session that
 * stopped early (sessionEnd not ok, or none) may hold fewer rounds, which
 * the page says; one that ended well must hold them all.
 */
static int
check_rounds(struct tl *t)
{
	struct run *r = t->r;
	char *seen;
	size_t i, n = 0;
	int bad = 0;

	if (t->rounds < 0 || !r->nm)
		return 0;
	if (t->rounds == 0)
		return error_at(t->path, t->start_line, "'rounds' must be at least 1");
	seen = xcalloc((size_t)t->rounds + 1, 1);
	for (i = 0; i < r->nm; i++) {
		const struct measurement *m = &r->m[i];

		if (m->round > t->rounds || m->round == 0)
			bad = error_at(t->path, m->line, "measurement '%s' is of round %d, "
				       "outside the %d rounds of the sessionStart (line %ld)",
				       m->id, m->round, t->rounds, t->start_line);
		else if (m->round > 0 && !seen[m->round]++)
			n++;
	}
	free(seen);
	if (bad || n == (size_t)t->rounds)
		return bad;
	if (t->ended == 1)
		return error_at(t->path, t->start_line, "the sessionStart announces %d rounds, "
				"the measurements are of %zu", t->rounds, n);
	run_warn(r, t->path, t->start_line, "the session announces %d rounds but holds "
		 "measurements of %zu: it stopped before the end", t->rounds, n);
	return 0;
}

/*
 * Every measurement was completed (its end and server memory are in the
 * measurementComplete), unless the session stopped during it.
 */
static int
check_complete(struct tl *t)
{
	struct run *r = t->r;
	size_t i;
	int bad = 0;

	for (i = 0; i < r->nm; i++) {
		const struct measurement *m = &r->m[i];

		if (m->end_line)
			continue;
		if (t->ended == 1)
			bad = error_at(t->path, m->line, "measurement '%s' has no "
				       "measurementComplete, but the session ended well (line %ld)",
				       m->id, t->end_line);
		else
			run_warn(r, t->path, m->line, "measurement '%s' has no "
				 "measurementComplete: the session stopped during it, and its "
				 "end is not known", m->id);
	}
	return bad;
}

/* Baselines inside their idle windows; the measurements they name exist. */
static int
check_idle(struct tl *t)
{
	struct run *r = t->r;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], c[NUM_TEXT_LEN], d[NUM_TEXT_LEN];
	size_t i, k;
	int bad = 0;

	for (i = 0; i < r->nidle; i++) {
		const struct idle_win *w = &r->idle[i];

		if (!isnan(w->base_start_ms) &&
		    !(w->start_ms <= w->base_start_ms && w->base_start_ms < w->base_end_ms &&
		      w->base_end_ms <= w->end_ms))
			bad = error_at(t->path, w->line, "idle window '%s': its baseline "
				       "%s..%s ms is not inside the window %s..%s ms", w->id,
				       num_text(a, w->base_start_ms), num_text(b, w->base_end_ms),
				       num_text(c, w->start_ms), num_text(d, w->end_ms));
		if (w->precedes && !idmap_get(&t->mid, w->precedes, &k))
			bad = error_at(t->path, w->line, "idle window '%s' precedes '%s', which "
				       "is not a measurement of the timeline", w->id, w->precedes);
		if (w->follows && !idmap_get(&t->mid, w->follows, &k))
			bad = error_at(t->path, w->line, "idle window '%s' follows '%s', which "
				       "is not a measurement of the timeline", w->id, w->follows);
	}
	return bad;
}

/* A measurement by its start (else its first route's). */
struct mstart {
	double t;
	size_t i;
};

static int
cmp_mstart(const void *a, const void *b)
{
	const struct mstart *x = a, *y = b;

	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * An idle window is the floor of the measurement it precedes, so that must
 * be the next measurement after it (and the one it follows the last before
 * it): a name that points elsewhere would subtract another time's idle
 * power.  Where the timeline names the floors, every measurement must have
 * one: the fallback (the earliest idle window, for runners that name none)
 * would stand in unnoticed for a lost or renamed record.
 */
static int
check_floors(struct tl *t)
{
	struct run *r = t->r;
	struct mstart *ms = xmalloc((r->nm + 1) * sizeof(*ms));
	struct idmap pre = IDMAP_INIT;
	size_t i, j, lo, hi, k;
	int bad = 0;

	for (i = 0; i < r->nm; i++) {
		ms[i].t = r->m[i].start_ms;
		ms[i].i = i;
		for (j = 0; isnan(ms[i].t) && j < r->m[i].nroutes; j++)
			ms[i].t = r->m[i].routes[j].start_ms;
	}
	qsort(ms, r->nm, sizeof(*ms), cmp_mstart);
	for (i = 0; i < r->nidle; i++) {
		const struct idle_win *w = &r->idle[i];
		const struct measurement *next, *prev;

		/* the first measurement starting after the window starts */
		for (lo = 0, hi = r->nm; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (ms[mid].t < w->start_ms)
				lo = mid + 1;
			else
				hi = mid;
		}
		next = lo < r->nm ? &r->m[ms[lo].i] : NULL;
		prev = lo ? &r->m[ms[lo - 1].i] : NULL;
		if (w->precedes && idmap_get(&t->mid, w->precedes, &k)) {
			idmap_put(&pre, w->precedes, 1);
			if (!next || strcmp(next->id, w->precedes))
				bad = error_at(t->path, w->line, "idle window '%s' precedes '%s', "
					       "but %s%s%s comes next", w->id, w->precedes,
					       next ? "'" : "no measurement", next ? next->id : "",
					       next ? "'" : "");
		}
		if (w->follows && idmap_get(&t->mid, w->follows, &k) &&
		    (!prev || strcmp(prev->id, w->follows)))
			bad = error_at(t->path, w->line, "idle window '%s' follows '%s', but %s%s%s "
				       "comes before it", w->id, w->follows,
				       prev ? "'" : "no measurement", prev ? prev->id : "",
				       prev ? "'" : "");
	}
	for (i = 0; pre.n && i < r->nm; i++)
		if (!idmap_get(&pre, r->m[i].id, &k))
			bad = error_at(t->path, r->m[i].line, "no idle window precedes measurement "
				       "'%s', as one does every other: its idle floor would be "
				       "another window's", r->m[i].id);
	idmap_free(&pre);
	free(ms);
	return bad;
}

static int
read_timeline(struct run *r, const char *dir)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	char *p, *end, *nl;
	long line = 0;
	double ts, last_ts = -INFINITY;
	int bad = 0, errors0 = diag_thread_errors();
	struct tl t;
	size_t i;

	buf_addf(&path, "%s/timeline.jsonl", dir);
	memset(&t, 0, sizeof(t));
	t.r = r;
	t.path = path.ptr;
	t.rounds = t.ended = -1;
	if (input_read_all(path.ptr, input_max_small, &data)) {
		buf_release(&data);
		buf_release(&path);
		return -1;
	}
	r->session_start_ms = INFINITY;
	r->session_end_ms = -INFINITY;
	p = data.ptr + utf8_bom(data.ptr, data.len);
	for (end = data.ptr + data.len; p < end; p = nl + 1) {
		char x[NUM_TEXT_LEN], y[NUM_TEXT_LEN];
		struct jdoc doc;
		struct rec c;
		const char *ev;
		size_t n;
		int rc;

		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n)
			continue;
		/* a record is one line; a field given twice is two values
		 * for one thing (jansson would keep the last silently) */
		if (jdoc_load(&doc, path.ptr, p, n, line - 1, 0)) {
			bad = -1;
			continue;
		}
		c.path = path.ptr;
		c.line = line;
		c.o = doc.root;
		c.doc = &doc;
		jdoc_root(&doc, &c.pos);
		if ((rc = rec_str(&c, "event", &ev)) <= 0) {
			bad |= rc ? -1 : error_at(path.ptr, line, "record without a string 'event'");
		} else if ((rc = rec_num(&c, "ts", &ts)) <= 0) {
			bad |= rc ? -1 : error_at(path.ptr, line, "record without a numeric 'ts'");
		} else {
			if (ts < last_ts)
				warn_at(path.ptr, line, "'ts' goes backwards (%s after %s)",
					num_text(x, ts), num_text(y, last_ts));
			last_ts = ts;
			if (ts < r->session_start_ms)
				r->session_start_ms = ts;
			if (ts > r->session_end_ms)
				r->session_end_ms = ts;
			if (read_event(&t, &c, ev, ts))
				bad = -1;
		}
		jdoc_free(&doc);
	}
	if (diag_thread_errors() > errors0)
		bad = -1;	/* errors reported below read_event's return value */
	/* Records of no measurement; after a bad line they may be of the
	 * measurementStart it held, so they would only repeat that error. */
	for (i = 0; !bad && i < t.norph; i++)
		if (!t.orph[i].placed)
			error_at(path.ptr, t.orph[i].line, "%s for '%s', which no "
				 "measurementStart names", t.orph[i].event, t.orph[i].id);
	if (diag_thread_errors() > errors0)
		bad = -1;
	if (!bad && r->nm == 0)
		bad = error_at(path.ptr, 0, "no measurements in the timeline");
	/* Whole-timeline checks only on records that read well (a bad record
	 * would only repeat itself here). */
	if (!bad && (check_route_sets(&t) | check_rounds(&t) | check_complete(&t) |
		     check_idle(&t) || check_floors(&t)))
		bad = -1;
	for (i = 0; i < t.norph; i++)
		free(t.orph[i].id);
	free(t.orph);
	for (i = 0; i < t.nrkeys; i++)
		free(t.rkeys[i]);
	free(t.rkeys);
	idmap_free(&t.mid);
	idmap_free(&t.iid);
	idmap_free(&t.rid);
	idmap_free(&t.oid);
	buf_release(&data);
	buf_release(&path);
	return bad ? -1 : 0;
}

/* ---- windows in time ----------------------------------------------------- */

struct span {
	double start, end;
	long line;
	const struct measurement *m;
	const struct route_win *w;
};

static int
cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/*
 * Windows that overlap cannot both be charged the energy of the overlap:
 * neither two load windows, nor an idle window and a load window (the
 * idle floor would hold load).
 */
static int
check_overlaps(struct run *r, const char *tl)
{
	struct span *w, *mx;
	size_t n = 0, total = 0, i, j, lo, hi;
	int bad = 0;

	for (i = 0; i < r->nm; i++)
		total += r->m[i].nroutes;
	w = xmalloc((total + 1) * sizeof(*w));
	mx = xmalloc((total + 1) * sizeof(*mx));
	for (i = 0; i < r->nm; i++)
		for (j = 0; j < r->m[i].nroutes; j++) {
			const struct route_win *x = &r->m[i].routes[j];

			w[n].start = x->start_ms;
			w[n].end = x->end_ms;
			w[n].line = x->line;
			w[n].m = &r->m[i];
			w[n].w = x;
			n++;
		}
	if (n > 1)
		qsort(w, n, sizeof(*w), cmp_span);
	for (i = 1; i < n; i++)
		if (w[i].start < w[i - 1].end)
			bad = error_at(tl, w[i].line,
				       "load window overlaps the window logged at line %ld",
				       w[i - 1].line);
	/* mx[i]: the window of w[0..i] that ends last. */
	for (i = 0; i < n; i++)
		mx[i] = i && mx[i - 1].end >= w[i].end ? mx[i - 1] : w[i];
	for (i = 0; i < r->nidle && n; i++) {
		const struct idle_win *d = &r->idle[i];

		/* the last load window that starts before the idle window ends */
		for (lo = 0, hi = n; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (w[mid].start < d->end_ms)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && mx[lo - 1].end > d->start_ms)
			bad = error_at(tl, d->line, "idle window '%s' overlaps load window '%s' "
				       "of '%s' (line %ld)", d->id, mx[lo - 1].w->name,
				       mx[lo - 1].m->id, mx[lo - 1].line);
	}
	free(w);
	free(mx);
	return bad;
}

/* ---- load-generator files ------------------------------------------------ */

/* A count the timeline and the load file both give must agree; within
 * tol when the tool printed it rounded. */
static int
same_count(const char *tl, const struct route_win *w, const char *what, double here,
	   double there, double tol, const char *rel)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], c[NUM_TEXT_LEN];

	if (isnan(here) || isnan(there) || fabs(here - there) <= tol)
		return 0;
	if (tol > 0)
		return error_at(tl, w->line, "%s %s differ from %s in '%s' by more than "
				"its printed precision (%s)", what, num_text(a, here),
				num_text(b, there), rel, num_text(c, tol));
	return error_at(tl, w->line, "%s %s differ from %s in '%s'", what, num_text(a, here),
			num_text(b, there), rel);
}

/* A figure the timeline copied from the load file (energy-method.md:
 * rpsMean is bombardier's rps.mean, ...) must be the file's; within a
 * millionth, for a runner that printed it rounded. */
static int
same_value(const char *tl, const struct route_win *w, const char *what, double here,
	   double there, const char *rel)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	if (isnan(here) || isnan(there) || fabs(here - there) <= 1e-6 * fabs(there))
		return 0;
	return error_at(tl, w->line, "%s %s differs from %s in '%s'", what, num_text(a, here),
			num_text(b, there), rel);
}

static int
cross_check(const char *tl, const struct route_win *w, const char *rel)
{
	static const char *const cls[6] = {
		"others", "req1xx", "req2xx", "req3xx", "req4xx", "req5xx"
	};
	const struct load_result *l = &w->load;
	int bad = 0;
	size_t k;

	/* The runner copied these from the same file: any difference means
	 * the file is not the one the window was measured with. */
	bad |= same_count(tl, w, "requests", w->requests, l->requests, 0, rel);
	bad |= same_count(tl, w, "bytesRead", w->bytes_read, l->bytes_read,
			  l->bytes_read_tol, rel);
	bad |= same_count(tl, w, "bytesWritten", w->bytes_written, l->bytes_written, 0, rel);
	for (k = 0; k < 6; k++)
		bad |= same_count(tl, w, cls[k], w->tl_status[k], l->status[k], 0, rel);
	/* bombardier's own figures, which the runner copies (energy-method.md);
	 * another tool's rate or latency is erg's reading of its report, not
	 * necessarily what a runner computed from it */
	if (l->tool == LOAD_BOMBARDIER_JSON || l->tool == LOAD_BOMBARDIER_TEXT) {
		bad |= same_value(tl, w, "rpsMean", w->rps_mean, l->rps_mean, rel);
		bad |= same_value(tl, w, "rpsStddev", w->rps_sd, l->rps_sd, rel);
		bad |= same_value(tl, w, "latencyMeanUs", w->lat_mean_us, l->lat_mean_us, rel);
		bad |= same_value(tl, w, "latencyMaxUs", w->lat_max_us, l->lat_max_us, rel);
		bad |= same_value(tl, w, "timeTakenSeconds", w->time_s, l->time_taken_s, rel);
	}
	return bad;
}

/* Seconds rounded to the millisecond, for a message: 38.189, not
 * 38.188786562000004. */
static const char *
secs_text(char *out, double s)
{
	return num_text(out, round(s * 1000) / 1000);
}

/*
 * How long the tool ran against its window: the load file's time (or,
 * when it gives none, the duration it was set to run), else the
 * timeline's timeTakenSeconds.  Both window sources enclose the tool's
 * whole process (the runner's clock around the spawn, erg record's
 * around drive()), so a run far longer is another run's, whose requests
 * (a minute's in a 5 s window) would divide this window's energy: an
 * error.  One far shorter leaves the rest of the window unloaded, its
 * energy still divided by the run's requests: a warning on the page.
 */
static int
check_run_time(struct run *r, const char *tl, const struct measurement *m,
	       const struct route_win *w, const char *rel)
{
	const struct load_result *l = &w->load;
	double win = (w->end_ms - w->start_ms) / 1000, ran = NAN;
	const char *how = "ran", *src = rel;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

	if (w->has_load && isfinite(l->time_taken_s)) {
		ran = l->time_taken_s;
	} else if (w->has_load && isfinite(l->duration_s)) {
		ran = l->duration_s;
		how = "was set to run";
	} else if (isfinite(w->time_s)) {
		ran = w->time_s;
		src = NULL;
	}
	if (!isfinite(ran) || !(win > 0))
		return 0;
	if (ran > 1.5 * win + 1) {
		if (src)
			return error_at(tl, w->line, "load file '%s' %s %s s, its window %s s: not "
					"this window's run", src, how, secs_text(a, ran),
					secs_text(b, win));
		return error_at(tl, w->line, "timeTakenSeconds %s s, the window %s s: not this "
				"window's run", secs_text(a, ran), secs_text(b, win));
	}
	if (ran < win / 2 - 1)
		run_warn(r, tl, w->line, "window '%s' of '%s': its load ran %s s of the window's "
			 "%s s; the unloaded rest's energy is divided by its requests too",
			 w->name, m->id, secs_text(a, ran), secs_text(b, win));
	return 0;
}

/*
 * Without a load file: the published runner's requests against its
 * rpsMean (bombardier's mean of per-second rates, within a fraction of
 * count / timeTakenSeconds: formats.md) over the run time.  A factor of
 * two apart, one of them is another run's.
 */
static int
check_rate(const char *tl, const struct route_win *w)
{
	double secs = isfinite(w->time_s) && w->time_s > 0 ? w->time_s :
		      (w->end_ms - w->start_ms) / 1000, rate;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], c[NUM_TEXT_LEN], d[NUM_TEXT_LEN];

	if (isnan(w->requests) || !(w->rps_mean > 0) || !(secs > 0))
		return 0;
	rate = w->requests / secs;
	if (rate <= 2 * w->rps_mean && rate >= w->rps_mean / 2)
		return 0;
	return error_at(tl, w->line, "requests %s in %s s are %s req/s, but rpsMean is %s: "
			"more than a factor of 2 apart", num_text(a, w->requests),
			secs_text(b, secs), secs_text(c, rate), num_text(d, w->rps_mean));
}

/*
 * What became of the requests: the load file says when it can (it tells
 * transport errors apart), else the timeline.  non2xx counts every request
 * without a 2xx answer, errors included; when only some of the timeline's
 * classes are logged it is what they show (at least that many).
 */
static void
outcome(struct route_win *w)
{
	static const size_t not2[] = { 0, 1, 3, 4, 5 };
	const struct load_result *l = &w->load;
	double sum = 0;
	size_t k, n = 0;

	if (w->has_load && !isnan(l->status[2])) {
		w->ok2xx = l->status[2];
		w->errors = l->errors;
	} else if (w->has_load && !isnan(l->non_2xx_3xx)) {
		w->ok2xx = l->responses - l->non_2xx_3xx;	/* wrk: 2xx or 3xx */
		w->errors = l->errors;
	} else if (!isnan(w->tl_status[2])) {
		w->ok2xx = w->tl_status[2];
	}
	for (k = 0; k < 5; k++)
		if (!isnan(w->tl_status[not2[k]])) {
			sum += w->tl_status[not2[k]];
			n++;
		}
	if (isnan(w->ok2xx) && n == 5 && !isnan(w->requests))
		w->ok2xx = w->requests - sum;
	if (!isnan(w->ok2xx) && !isnan(w->requests))
		w->non2xx = w->requests - w->ok2xx;
	else if (n)
		w->non2xx = sum;
}

static void
warn_outcome(struct run *r, const char *tl, const struct measurement *m,
	     const struct route_win *w)
{
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], c[NUM_TEXT_LEN];
	struct buf of = BUF_INIT, err = BUF_INIT;

	if (!(w->non2xx > 0) && !(w->errors > 0))
		return;
	if (!isnan(w->requests))
		buf_addf(&of, " of %s", num_text(b, w->requests));
	if (w->errors > 0)
		buf_addf(&err, " (%s of them transport errors)", num_text(c, w->errors));
	run_warn(r, tl, w->line, "window '%s' of '%s': %s%s requests got no 2xx "
		 "response%s; its energy per request counts them, and its energy per 2xx "
		 "response is given beside it", w->name, m->id,
		 num_text(a, w->non2xx > 0 ? w->non2xx : w->errors), of.ptr, err.ptr);
	buf_release(&of);
	buf_release(&err);
}

static int
read_loads(struct run *r, const char *dir)
{
	struct buf rel = BUF_INIT, full = BUF_INIT, tl = BUF_INIT, def = BUF_INIT;
	size_t i, j;
	int bad = 0;

	buf_addf(&tl, "%s/timeline.jsonl", dir);
	for (i = 0; i < r->nm; i++) {
		struct measurement *m = &r->m[i];

		for (j = 0; j < m->nroutes; j++) {
			struct route_win *w = &m->routes[j];
			const char *why;
			int explicit = w->load_rel != NULL, rc = -2;
			int force = w->load_force ? w->load_force : r->load_force;

			/* the runner's own name for the window's file */
			buf_reset(&def);
			if (m->round >= 0 && m->slot >= 0)
				buf_addf(&def, "bombardier/r%d-s%d-%s-%s.json", m->round,
					 m->slot, m->target, w->name);
			buf_reset(&rel);
			buf_addstr(&rel, explicit ? w->load_rel : def.ptr);
			if (rel.len)
				rc = path_inside(dir, rel.ptr, &full, &why);
			if (rc == -2 && !explicit) {
				if (isnan(w->requests)) {
					bad = error_at(tl.ptr, w->line, "no request count and no "
						       "load file%s%s%s", rel.len ? " '" : "",
						       rel.ptr, rel.len ? "'" : "");
					continue;
				}
				if (check_run_time(r, tl.ptr, m, w, NULL) || check_rate(tl.ptr, w)) {
					bad = -1;
					continue;
				}
				outcome(w);
				warn_outcome(r, tl.ptr, m, w);
				continue;
			}
			if (rc) {
				bad = error_at(tl.ptr, w->line, "load file '%s': %s", rel.ptr, why);
				continue;
			}
			/* a loadFile beside the runner's own file for the window:
			 * two raw outputs of one window, and only one would be read */
			if (explicit && def.len && strcmp(def.ptr, rel.ptr)) {
				struct buf p = BUF_INIT;
				struct stat st;
				int both;

				buf_addf(&p, "%s/%s", dir, def.ptr);
				both = !lstat(p.ptr, &st);
				buf_release(&p);
				if (both) {
					bad = error_at(tl.ptr, w->line, "loadFile '%s' and the runner's "
						       "'%s' are both this window's load file; keep one",
						       rel.ptr, def.ptr);
					continue;
				}
			}
			/* streams the per-request formats, reads the rest whole */
			if (load_read_file(full.ptr, (enum load_tool)force, &w->load)) {
				bad = -1;
				continue;
			}
			free(w->load_rel);
			w->load_rel = xstrdup(rel.ptr);
			w->has_load = 1;
			if (cross_check(tl.ptr, w, rel.ptr)) {
				bad = -1;
				continue;
			}
			if (check_run_time(r, tl.ptr, m, w, rel.ptr)) {
				bad = -1;
				continue;
			}
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
			if (!isnan(w->requests) && w->requests <= 0) {
				bad = error_at(tl.ptr, w->line, "route '%s' has zero requests",
					       w->name);
				continue;
			}
			outcome(w);
			warn_outcome(r, tl.ptr, m, w);
		}
	}
	buf_release(&rel);
	buf_release(&full);
	buf_release(&tl);
	buf_release(&def);
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
		if (a->group != b->group)
			continue;
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
			if (pf->timed) {
				run_warn(r, pf->path, pf->s[at].no, "no reading for %.1f s before "
					 "this line (more than 5 times the usual interval): no "
					 "energy is counted in between", pf->holes[h].ms / 1000);
				continue;
			}
			run_warn(r, pf->path, 0, "about %d sample%s missing between sample %u and "
				 "sample %u (the timestamps run %.1f s ahead of elapsed_ns there): "
				 "no energy is counted in between", pf->holes[h].missing,
				 pf->holes[h].missing == 1 ? "" : "s",
				 pf->s[at - pf->holes[h].unplaced - 1].no, pf->s[at].no,
				 pf->holes[h].ms / 1000);
		}
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

/*
 * The other power logs erg looks for by name; what they hold (and so how
 * they are read) is told by their content: power.csv, powercap.csv,
 * NAME.powercap-log, nvidia-smi.csv, perf-stat.csv, turbostat.txt,
 * turbostat.log, powermetrics.txt, powermetrics.log, powerstat.txt,
 * powerstat.log, scaphandre.json, each optionally .gz.
 */
static int
other_power_name(const char *n)
{
	static const char *const names[] = {
		"power.csv", "nvidia-smi.csv", "perf-stat.csv", "powercap.csv",
		"turbostat.txt", "turbostat.log", "powermetrics.txt", "powermetrics.log",
		"powerstat.txt", "powerstat.log", "scaphandre.json",
	};
	size_t i, len;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = strlen(names[i]);
		if (!strncmp(n, names[i], len) && (!n[len] || !strcmp(n + len, ".gz")))
			return 1;
	}
	return (str_endswith(n, ".powercap-log") && strlen(n) > strlen(".powercap-log")) ||
	       (str_endswith(n, ".powercap-log.gz") && strlen(n) > strlen(".powercap-log.gz"));
}

/*
 * Read one power file of the run into r->pf[r->npf].  plist: its name
 * promises the powermetrics plist stream, so other content is an error
 * (unreadable content is power_read's to describe).
 */
static int
read_power_file(struct run *r, const char *dir, const char *name, const char *path,
		int plist, const struct energy_opts *o, size_t *alloc)
{
	struct power_file *pf;
	int kind, rc;

	if (power_file_ok(dir, name, path) || energy_sniff(path, &kind))
		return -1;
	if (plist && kind == EK_PM_TEXT)
		return error_at(path, 1, "powermetrics text output where a plist was expected: "
				"record with 'powermetrics -f plist', or name it powermetrics.txt");
	if (plist && kind != EK_PLIST && kind != EK_UNKNOWN)
		return error_at(path, 1, "a %s where a powermetrics plist was expected: name it "
				"power.csv (or list it in meta.json erg.power)",
				energy_kind_name(kind));
	ALLOC_GROW(r->pf, r->npf + 1, *alloc);
	pf = &r->pf[r->npf];
	memset(pf, 0, sizeof(*pf));
	if (plist || kind == EK_PLIST)
		rc = power_read(path, pf);
	else
		rc = energy_read(path, kind, o, pf);
	if (rc) {
		power_file_free(pf);
		return -1;
	}
	/* a counter nobody could read (RAPL in a virtual machine, a file
	 * without permission) logs zeros: no measurement of zero power,
	 * which would rank best at 0 mJ/req */
	{
		size_t i, any = 0, nonzero = 0;

		for (i = 0; i < pf->n; i++)
			if (isfinite(pf->s[i].joules)) {
				any++;
				nonzero += pf->s[i].joules != 0;
			}
		if (any && !nonzero) {
			error_at(path, 0, "every one of its %zu samples has 0 J: a counter that "
				 "was not read (no permission, RAPL in a virtual machine, a source "
				 "without this machine's power), not a measurement of zero power",
				 any);
			power_file_free(pf);
			return -1;
		}
	}
	{
		size_t i;

		for (i = 0; i < pf->nnotes; i++)
			run_warn(r, path, pf->notes[i].line, "%s", pf->notes[i].msg);
	}
	r->npf++;
	return 0;
}

static const char *
base_name(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/*
 * The sources of a run: the plist stream's files are one, every other
 * file one more.  Run-wide domain indexes (pwin.dom_j); two sources whose
 * counted domains cover the same hardware (by power_dom_class: psys
 * covers everything) are an error naming both, since their sum would
 * count it twice; a source none of whose samples has energy is an error
 * at its file.
 */
static int
join_sources(struct run *r)
{
	const char *names[PDOM_MAX];
	size_t i, k, d, e, nn = 0, first[PGROUP_MAX];
	int g = -1, ca, cb;

	for (i = 0; i < r->npf; i++) {
		struct power_file *pf = &r->pf[i];

		if (!i || pf->timed || r->pf[i - 1].timed) {
			if (++g >= PGROUP_MAX)
				return error_at(pf->path, 0, "more than %d power sources",
						PGROUP_MAX);
			first[g] = i;
		}
		pf->group = g;
		for (d = 0; d < pf->ndom; d++) {
			for (k = 0; k < nn && strcmp(names[k], pf->dom[d]); k++)
				;
			if (k == nn) {
				if (nn == PDOM_MAX)
					return error_at(pf->path, 0, "more than %d power domains "
							"in one run", PDOM_MAX);
				names[nn++] = pf->dom[d];
			}
			pf->dom_g[d] = (unsigned char)k;
		}
	}
	for (k = 0; (int)k <= g; k++) {
		unsigned smp = 0;
		struct buf why = BUF_INIT;
		int rc;

		for (i = first[k]; i < r->npf && r->pf[i].group == (int)k; i++) {
			smp |= r->pf[i].samplers;
			for (e = 0; e < r->pf[i].n; e++)
				if (!isnan(r->pf[i].s[e].joules))
					goto has_energy;
		}
		/* the plist names no samplers: its documents' keys show them */
		if (!r->pf[first[k]].timed) {
			buf_addstr(&why, " (no processor energy or power, nor gpu.gpu_energy, in "
				   "any sample; samplers seen:");
			for (d = 0; d < PF_NSMP; d++)
				if (smp & (1u << d))
					buf_addf(&why, "%s %s", why.ptr[why.len - 1] == ':' ? "" : ",",
						 pf_sampler_name((int)d));
			buf_addstr(&why, smp ? ")" : " none)");
		}
		rc = error_at(r->pf[first[k]].path, 0, "no sample in '%s' has energy%s",
			      base_name(r->pf[first[k]].path), why.len ? why.ptr : "");
		buf_release(&why);
		return rc;
has_energy:
		;
	}
	for (k = 1; (int)k <= g; k++)
		for (i = 0; i < k; i++) {
			const struct power_file *a = &r->pf[first[i]], *b = &r->pf[first[k]];

			for (d = 0; d < a->ndom; d++)
				for (e = 0; e < b->ndom; e++) {
					if (!a->dom_sum[d] || !b->dom_sum[e])
						continue;
					ca = power_dom_class(a->dom[d]);
					cb = power_dom_class(b->dom[e]);
					if (ca == PDC_SYSTEM || cb == PDC_SYSTEM ||
					    (ca == cb && (ca != PDC_OTHER ||
							  !strcmp(a->dom[d], b->dom[e]))))
						return error_at(b->path, 0, "its domain '%s' "
								"overlaps domain '%s' of '%s': "
								"summed, the two sources would count "
								"the same energy twice; keep one (meta."
								"json erg.power lists the files to "
								"read)", b->dom[e], a->dom[d],
								base_name(a->path));
				}
		}
	return 0;
}

/* meta.json erg.power: the power files to read, in order ([] none). */
static int
listed_power(struct run *r, const char *dir, json_t *list, const struct energy_opts *o,
	     size_t *alloc)
{
	struct buf full = BUF_INIT, p = BUF_INIT;
	const char *why, *name;
	unsigned long k;
	json_t *v;
	size_t i;
	int gz, bad = 0, rc;

	json_array_foreach(list, i, v) {
		if (!json_is_string(v)) {
			buf_addf(&p, "%s/meta.json", dir);
			bad = error_at(p.ptr, 0, "'erg.power' is not an array of file names");
			break;
		}
		name = json_string_value(v);
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, name);
		rc = path_inside(dir, name, &full, &why);
		if (rc) {
			buf_reset(&p);
			buf_addf(&p, "%s/meta.json", dir);
			bad = error_at(p.ptr, 0, "erg.power: '%s': %s", name,
				       rc == -2 ? "no such file" : why);
			break;
		}
		if (read_power_file(r, dir, name, p.ptr, !strncmp(name, "power.plist", 11) &&
				    power_name(name, &k, &gz) == 1, o, alloc)) {
			bad = -1;
			break;
		}
	}
	buf_release(&full);
	buf_release(&p);
	return bad;
}

int
session_read_power(struct run *r, const char *dir)
{
	struct buf p = BUF_INIT;
	struct pname *f = NULL;
	char **other = NULL, **logs = NULL;
	size_t nf = 0, af = 0, no = 0, ao = 0, nl = 0, al = 0, i, alloc = 0;
	unsigned long k;
	struct dirent *e;
	json_t *list = r->meta ? jx_path(r->meta, "erg.power") : NULL;
	const char *tz = r->meta ? jx_path_str(r->meta, "erg.powerTimezone") : NULL;
	struct energy_opts o = { 0, 0, 0, 0 };
	DIR *d;
	int bad = 0, gz, kind;

	/* (read_meta checked it) */
	o.tz_set = tz && !energy_tz(tz, &o.tz_ms);
	o.start_set = r->meta && jx_path(r->meta, "erg") &&
		      jx_num(jx_path(r->meta, "erg"), "powerStartMs", &o.start_ms) > 0;
	d = opendir(dir);
	if (!d)
		return error_at(dir, 0, "cannot list the run directory: %s", strerror(errno));
	while ((e = readdir(d))) {
		if (other_power_name(e->d_name)) {
			ALLOC_GROW(logs, nl + 1, al);
			logs[nl++] = xstrdup(e->d_name);
			continue;
		}
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
	if (nl)
		qsort(logs, nl, sizeof(*logs), cmp_str);

	if (list && json_is_array(list)) {
		/* the files are named: others are not read, and said so */
		bad = listed_power(r, dir, list, &o, &alloc);
		for (i = 0; i < nf + nl + no && !bad; i++) {
			const char *n = i < nf ? f[i].name : i < nf + nl ? logs[i - nf]
				: other[i - nf - nl];
			size_t j;

			for (j = 0; j < json_array_size(list); j++)
				if (json_is_string(json_array_get(list, j)) &&
				    !strcmp(json_string_value(json_array_get(list, j)), n))
					break;
			if (j < json_array_size(list))
				continue;
			buf_reset(&p);
			buf_addf(&p, "%s/%s", dir, n);
			run_warn(r, p.ptr, 0, "not read: meta.json erg.power lists the power "
				 "files of the run");
		}
		goto done;
	}
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
		if (read_power_file(r, dir, f[i].name, p.ptr, 1, &o, &alloc))
			bad = -1;
	}
	for (i = 0; i < nl && !bad; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, logs[i]);
		if (read_power_file(r, dir, logs[i], p.ptr, 0, &o, &alloc))
			bad = -1;
	}
done:
	if (!bad && r->npf)
		bad = join_sources(r);
	if (!bad)
		bad = check_power_files(r);
	for (i = 0; i < nf; i++)
		free(f[i].name);
	free(f);
	for (i = 0; i < no; i++)
		free(other[i]);
	free(other);
	for (i = 0; i < nl; i++)
		free(logs[i]);
	free(logs);
	buf_release(&p);
	return bad;
}

/* ---- meta.json ----------------------------------------------------------- */

/*
 * The members of meta.json that erg reads, and their types: a wrong type
 * is an error at the member's own line.  Others are shown as they are
 * (any type reads as text on the page).  'S' string, 'N' number, 'C'
 * count (whole, >= 0), 'K' small count (whole, 0 to 1000000: cores,
 * rounds), 'O' object, 'A' array.
 */
static const struct {
	const char *path;
	enum jd_kind type;
} meta_types[] = {
	{ "title", JD_STRING }, { "capturedAt", JD_STRING }, { "notes", JD_STRING },
	{ "roomTempC", JD_NUMBER },
	{ "machine", JD_OBJECT }, { "machine.model", JD_STRING }, { "machine.chip", JD_STRING },
	{ "machine.id", JD_STRING }, { "machine.os", JD_STRING }, { "machine.darwin", JD_STRING },
	{ "machine.memoryBytes", JD_COUNT },
	{ "tools", JD_OBJECT }, { "tools.powermetrics", JD_OBJECT },
	{ "tools.powermetrics.energyField", JD_STRING },
	{ "load", JD_OBJECT }, { "load.tool", JD_STRING }, { "load.url", JD_STRING },
	{ "methodology", JD_OBJECT }, { "methodology.rounds", JD_SMALL },
	{ "methodology.cooldownSec", JD_NUMBER }, { "methodology.interRouteGapSec", JD_NUMBER },
	{ "methodology.orderingScheme", JD_STRING }, { "methodology.integration", JD_STRING },
	{ "methodology.headlineMetric", JD_STRING }, { "methodology.idleWindow", JD_OBJECT },
	{ "methodology.idleWindow.offsetSec", JD_NUMBER },
	{ "methodology.idleWindow.endOffsetSec", JD_NUMBER },
	{ "methodology.idleWindow.source", JD_STRING },
	{ "caveats", JD_ARRAY }, { "erg", JD_OBJECT }, { "erg.perMbRoutes", JD_ARRAY },
	{ "erg.loadFormat", JD_STRING }, { "erg.power", JD_ARRAY },
	{ "erg.powerTimezone", JD_STRING }, { "erg.powerStartMs", JD_NUMBER },
};

/* The member at path, when present and not null, must be of the kind
 * given (an error at its line). */
static int
meta_type(const struct jdoc *j, const char *path, enum jd_kind type)
{
	struct jd_path at;
	const struct jpos *p = jdoc_at(j, path, &at);

	return p && !json_is_null(p->v) ? jdoc_check(j, p, type) : 0;
}

static int
meta_types_check(const struct jdoc *j)
{
	char key[64];
	size_t i;
	int bad = 0, k;

	for (i = 0; i < sizeof(meta_types) / sizeof(meta_types[0]); i++)
		bad |= meta_type(j, meta_types[i].path, meta_types[i].type);
	/* the pages show perflevel0..7 (performance levels of the cores) */
	for (k = 0; k < 8; k++) {
		snprintf(key, sizeof(key), "machine.perflevel%d", k);
		bad |= meta_type(j, key, JD_OBJECT);
		snprintf(key, sizeof(key), "machine.perflevel%d.count", k);
		bad |= meta_type(j, key, JD_SMALL);
		snprintf(key, sizeof(key), "machine.perflevel%d.name", k);
		bad |= meta_type(j, key, JD_STRING);
	}
	return bad;
}

static int
read_meta(struct run *r, const char *dir)
{
	struct buf path = BUF_INIT, data = BUF_INIT, full = BUF_INIT;
	const char *notes = "notes.md", *why;
	const struct jpos *list, *fmt, *np, *tzp;
	struct jd_path at, at2, at3, at4;
	double tzms;
	struct jdoc doc = { 0 };
	json_t *v;
	size_t i;
	long nline = 0;
	int rc = -1;

	buf_addf(&path, "%s/meta.json", dir);
	if (input_read_all(path.ptr, input_max_small, &data))
		goto out;
	/* duplicate keys: the last wins, as browsers and JS read them */
	if (jdoc_load(&doc, path.ptr, data.ptr, data.len, 0, 0))
		goto out;
	r->meta = json_incref(doc.root);
	if (meta_types_check(&doc))
		goto out;
	list = jdoc_at(&doc, "erg.perMbRoutes", &at);
	json_array_foreach(list ? list->v : NULL, i, v)
		if (!json_is_string(v)) {
			jdoc_error(&doc, list, "is not an array of route names");
			goto out;
		}
	if ((tzp = jdoc_at(&doc, "erg.powerTimezone", &at4)) && json_is_string(tzp->v) &&
	    energy_tz(json_string_value(tzp->v), &tzms)) {
		jdoc_error(&doc, tzp, "is not a UTC offset ('Z', '+HH:MM' or '-HH:MM')");
		goto out;
	}
	r->load_force = LOAD_UNKNOWN;
	if ((fmt = jdoc_at(&doc, "erg.loadFormat", &at2)) && json_is_string(fmt->v) &&
	    load_format(path.ptr, jdoc_line(&doc, fmt), "erg.loadFormat",
			json_string_value(fmt->v), &r->load_force))
		goto out;
	if ((np = jdoc_at(&doc, "notes", &at3)) && json_is_string(np->v)) {
		notes = json_string_value(np->v);
		nline = jdoc_line(&doc, np);
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
		if (nline) {
			error_at(path.ptr, nline, "notes file '%s' does not exist", notes);
			goto out;
		}
		break;
	default:
		error_at(path.ptr, nline, "notes file '%s': %s", notes, why);
		goto out;
	}
	json_array_foreach(list ? list->v : NULL, i, v) {
		r->per_mb_routes = xrealloc(r->per_mb_routes,
					    (r->nper_mb_routes + 1) * sizeof(char *));
		r->per_mb_routes[r->nper_mb_routes++] = xstrdup(json_string_value(v));
	}
	rc = 0;
out:
	jdoc_free(&doc);
	buf_release(&path);
	buf_release(&data);
	buf_release(&full);
	return rc;
}

/* A marker file that is a symbolic link must stay inside the run. */
static int
marker_inside(const char *dir, const char *name)
{
	struct buf full = BUF_INIT;
	const char *why;
	int rc = path_inside(dir, name, &full, &why);

	if (rc == -1) {
		buf_reset(&full);
		buf_addf(&full, "%s/%s", dir, name);
		error_at(full.ptr, 0, "%s", why);
	}
	buf_release(&full);
	return rc == -1 ? -1 : 0;
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
	/* archive.c refuses these links for a build; `erg diff` names runs
	 * directly */
	if (marker_inside(dir, "meta.json") || marker_inside(dir, "timeline.jsonl"))
		return -1;
	buf_addf(&tl, "%s/timeline.jsonl", dir);
	if (read_meta(r, dir) || read_timeline(r, dir)) {
		buf_release(&tl);
		return -1;
	}
	if (check_overlaps(r, tl.ptr))
		bad = -1;
	if (read_loads(r, dir))
		bad = -1;
	if (!bad && session_read_power(r, dir))
		bad = -1;
	buf_release(&tl);
	return bad;
}
