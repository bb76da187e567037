/*
 * render_views.c - the cross-run pages (see render_views.h).
 *
 * As in render.c, page code builds a view (a JSON tree of ready-to-print
 * strings; numbers are formatted here) and hands it to a template, which
 * escapes every string for where it lands.  The only raw markup is the
 * charts from svg.c.  The diff pages are templates/diff.html, the page
 * of `erg diff --format html`, with the site's navigation (diff_html.c),
 * from comparison documents the caller computes one at a time.
 *
 * Model: the runs in date order (struct vrun), the machines (by key),
 * the targets (by name), and every (run, target) occurrence, sorted by
 * target then run, so a target's history is one contiguous slice.
 *
 * Conventions of the tables (render/table.h): a figure not reported
 * prints as the missing value; a cell that does not apply (another
 * machine's energy column) is empty.  Every cell carries its value in
 * data-v for the sort script (numbers at full precision).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/num.h"
#include "render/diff_html.h"
#include "render/html.h"
#include "ingest/pairs.h"
#include "ingest/targets.h"
#include "render/numfmt.h"
#include "base/path.h"
#include "base/sha256.h"
#include "render/page_run.h"
#include "render/page_search.h"
#include "render/page_views.h"
#include "analyze/stats.h"
#include "render/svg.h"
#include "render/table.h"
#include "render/tmpl.h"
#include "base/util.h"
#include "render/view.h"

#define PM "\xc2\xb1"
#define NBSP "\xc2\xa0"		/* keeps a date and its time on one line */
#define SLUG_MAX 64
#define CHART_SERIES_MAX 8
/* Columns (runs) of one compare page; more runs: a page per machine and
 * period (compare_page()). */
#define COMPARE_MAX_RUNS 100
/* Energy columns of a target page, one per machine, up to this many
 * machines; past it one column beside each run's machine (target_page()). */
#define TARGET_ENERGY_COLS 8
/* The bars and dots of a machine's page, shared among its charts (two a
 * target and the idle one): 60 charts of 240 marks each made a 3 MB page
 * (test_views.c), every chart under its own budget (SVG_MARKS_MAX). */
#define PAGE_MARKS_MAX 4000
/* Runs of one page of a machine's or a target's run lists, and the table
 * rows all its lists may hold together (a run of many targets or routes
 * fills a page sooner): past them the lists go on at page-2.html, ...
 * (list_pages()), so no page grows with the archive (issue 19).
 * ERG_PAGE_ROWS, for the tests only, sets the runs per page (and rows
 * 4 times that), so pagination shows on a small archive. */
#define PAGE_RUNS 200
#define PAGE_ROWS_PER_RUN 4

static const char caveat_devices[] =
	"powermetrics energy is an estimate and not comparable across devices";

/* ------------------------------------------------------------------ */
/* JSON access and view values */

/* A mean with its SD and n, from either shape of the results: an object
 * {mean, sd, n} (summary runs, routes, mj_per_req) or a number with a
 * sibling KEY_sd (rps and watts of an energy session's headline). */
struct mv {
	double mean, sd, n;
	const char *text;	/* a summary run's published text of the mean */
	const char *sdtext;	/* and of its SD */
};

static struct mv
mv_get(const json_t *o, const char *key)
{
	const json_t *x = json_object_get(o, key);
	struct mv m = { NAN, NAN, NAN, NULL, NULL };
	char sdkey[64];

	if (json_is_object(x)) {
		m.mean = jnum(x, "mean");
		m.sd = jnum(x, "sd");
		m.n = jnum(x, "n");
		m.text = jstr(x, "published");
		m.sdtext = jstr(x, "sd_published");
	} else if (json_is_number(x)) {
		m.mean = num_of(x);
		snprintf(sdkey, sizeof(sdkey), "%s_sd", key);
		m.sd = jnum(o, sdkey);
		m.n = jnum(json_object_get(o, "mj_per_req"), "n");
		snprintf(sdkey, sizeof(sdkey), "%s_published", key);
		m.text = jstr(o, sdkey);
	}
	return m;
}

/* ------------------------------------------------------------------ */
/* what the views keep of a run (page_views.h: views_run_make()) */

/* A struct mv as kept: the texts are offsets into the record's strings
 * (0: none). */
struct rmv {
	double mean, sd, n;
	uint32_t text, sdtext;
};

struct rent {			/* an entry of the run's "targets" */
	uint32_t name;		/* 0: it has none (no target of the views) */
	uint32_t key, spelling;	/* ingest/targets.h, with the aliases */
	uint32_t route, nroutes;	/* its routes: route[route .. route + nroutes) */
	int anyroute;		/* a route with a finite req/s */
	double route_min;	/* the smallest |req/s| of its routes but 0, or INFINITY */
	struct rmv rps, mj, watts;	/* its headline */
};

struct rroute {			/* an element of an entry's "routes" */
	uint32_t name;		/* 0: none */
	uint32_t at;		/* a trials sweep's "at" as cell_route_rps() names it, or 0 */
	struct rmv rps;
};

struct rround {			/* a measurement: one round of one target */
	uint32_t ent;		/* the first entry of its target's key */
	double round, mj, rps;	/* headline_mj_per_req, headline_rps */
};

struct views_run {
	uint32_t id, title, date, kind, src, mid, mlabel;
	int idle_array;		/* idle_windows is an array */
	int single_round;	/* single_round() */
	size_t nent, nround, nidle, nroute;
	struct rent *ent;
	struct rround *round;	/* in the order of the measurements */
	struct rroute *route;	/* every entry's, entry after entry */
	double *idle;		/* idle_windows[].mean_watts that are finite */
	char *str;		/* the strings, each NUL-terminated */
	size_t nstr;		/* their bytes */
};

/* String at offset o of r, or NULL. */
static const char *
rs(const struct views_run *r, uint32_t o)
{
	return o ? r->str + o : NULL;
}

static uint32_t
rs_put(struct buf *b, const char *s)
{
	size_t o = b->len;

	if (!s)
		return 0;
	if (o > UINT32_MAX - strlen(s) - 1)
		die("a run's names take more than 4 GB");
	buf_add(b, s, strlen(s) + 1);
	return (uint32_t)o;
}

static struct rmv
rmv_put(struct buf *b, const json_t *o, const char *key)
{
	struct mv m = mv_get(o, key);
	struct rmv k = { m.mean, m.sd, m.n, rs_put(b, m.text), rs_put(b, m.sdtext) };

	return k;
}

static struct mv
rmv_get(const struct views_run *r, const struct rmv *k)
{
	struct mv m = { k->mean, k->sd, k->n, rs(r, k->text), rs(r, k->sdtext) };

	return m;
}

/* A session whose measurements are all of one round (a CPU-time
 * attribution pass): no spread on its side, so no test; it is not a
 * repeat of the sessions around it and is paired only when listed. */
static int
single_round(const json_t *res)
{
	const json_t *ms = json_object_get(res, "measurements"), *m;
	double r0 = NAN;
	size_t i;

	if (!json_array_size(ms))
		return 0;
	json_array_foreach(ms, i, m) {
		double r = jnum(m, "round");

		if (!isfinite(r) || (i && r != r0))
			return 0;
		r0 = r;
	}
	return 1;
}

/* One block for the record and its arrays (each of 8-byte members), so
 * that it takes two allocations with its strings. */
static struct views_run *
record_alloc(size_t nent, size_t nround, size_t nidle, size_t nroute)
{
	struct views_run *r;
	char *p;

	p = xcalloc(1, sizeof(*r) + nent * sizeof(*r->ent) + nround * sizeof(*r->round) +
			       nroute * sizeof(*r->route) + nidle * sizeof(*r->idle));
	r = (struct views_run *)p;
	r->ent = (struct rent *)(p + sizeof(*r));
	r->round = (struct rround *)(r->ent + nent);
	r->route = (struct rroute *)(r->round + nround);
	r->idle = (double *)(r->route + nroute);
	return r;
}

/* A trials sweep's route figure is the cell at one x (analyze/trials.c):
 * "at" and its numeric members, named under the value. */
static void
route_at(struct buf *b, const json_t *at)
{
	const char *k;
	json_t *x;

	buf_reset(b);
	buf_addstr(b, "at");
	json_object_foreach((json_t *)at, k, x)
		if (json_is_number(x)) {
			char tmp[NUM_TEXT_LEN];

			buf_addf(b, " %s %s", k, num_text(tmp, json_number_value(x)));
		}
}

struct views_run *
views_run_make(const json_t *res, const struct target_aliases *aliases)
{
	const json_t *ts = json_object_get(res, "targets"), *ms = json_object_get(res, "measurements");
	const json_t *iw = json_object_get(res, "idle_windows"), *m = json_object_get(res, "machine");
	const json_t *al = json_object_get(res, "aliases"), *x;
	size_t nt = json_array_size(ts), nm = json_array_size(ms), ni = json_array_size(iw), i, j;
	size_t nr = 0;
	struct buf s = BUF_INIT, k = BUF_INIT;
	struct views_run *r;

	if (!json_is_object(res) || run_depth(jstr(res, "run")) < 0)
		return NULL;	/* render_run() refuses it already */
	json_array_foreach(ts, i, x)
		nr += json_array_size(json_object_get(x, "routes"));
	r = record_alloc(nt, nm, ni, nr);
	buf_addch(&s, '\0');	/* offset 0 is no string */
	r->id = rs_put(&s, jstr(res, "run"));
	r->title = rs_put(&s, jstr(res, "title"));
	r->date = rs_put(&s, jstr(res, "captured_at"));
	r->kind = rs_put(&s, jstr(res, "kind"));
	r->src = rs_put(&s, jstr(res, "energy_source"));
	r->mid = rs_put(&s, jstr(m, "id"));
	machine_label(&k, m);
	r->mlabel = rs_put(&s, k.ptr);
	r->nent = nt;
	json_array_foreach(ts, i, x) {
		struct rent *e = &r->ent[i];
		const json_t *h = json_object_get(x, "headline"), *rt;
		const char *name = jstr(x, "name");

		e->rps = rmv_put(&s, h, "rps");
		e->mj = rmv_put(&s, h, "mj_per_req");
		e->watts = rmv_put(&s, h, "watts");
		e->route = (uint32_t)r->nroute;
		e->nroutes = (uint32_t)json_array_size(json_object_get(x, "routes"));
		e->route_min = INFINITY;
		json_array_foreach(json_object_get(x, "routes"), j, rt) {
			struct rroute *q = &r->route[r->nroute++];
			const json_t *at = json_object_get(json_object_get(rt, "rps"), "at");

			q->name = rs_put(&s, jstr(rt, "name"));
			q->rps = rmv_put(&s, rt, "rps");
			if (json_is_object(at)) {
				route_at(&k, at);
				q->at = rs_put(&s, k.ptr);
			}
			e->anyroute |= isfinite(q->rps.mean);
			if (isfinite(q->rps.mean) && q->rps.mean != 0 && fabs(q->rps.mean) < e->route_min)
				e->route_min = fabs(q->rps.mean);
		}
		if (!name)
			continue;
		e->name = rs_put(&s, name);
		e->spelling = rs_put(&s, target_canonical(aliases, al, name));
		target_key(aliases, al, name, &k);
		e->key = rs_put(&s, k.ptr);
	}
	/* the rounds of each target, for the dots of the charts */
	json_array_foreach(ms, i, x) {
		struct rround *q = &r->round[r->nround];

		if (!jstr(x, "target"))
			continue;
		target_key(aliases, al, jstr(x, "target"), &k);
		for (j = 0; j < nt; j++)
			if (r->ent[j].name && !strcmp(s.ptr + r->ent[j].key, k.ptr))
				break;
		if (j == nt)
			continue;	/* no target of the run: on no chart */
		q->ent = (uint32_t)j;
		q->round = jnum(x, "round");
		q->mj = jnum(x, "headline_mj_per_req");
		q->rps = jnum(x, "headline_rps");
		r->nround++;
	}
	r->single_round = single_round(res);
	r->idle_array = json_is_array(iw);
	json_array_foreach(iw, i, x)
		if (isfinite(jnum(x, "mean_watts")))
			r->idle[r->nidle++] = jnum(x, "mean_watts");
	r->str = buf_detach(&s, &r->nstr);
	buf_release(&k);
	return r;
}

void
views_run_free(struct views_run *r)
{
	if (r)
		free(r->str);
	free(r);
}

const char *
views_run_id(const struct views_run *r)
{
	return rs(r, r->id);
}

/*
 * The record as bytes (page_views.h), little-endian whatever the host:
 *   "erg-rec\n", u32 version, tag[32],
 *   u32 nent nround nroute nidle nstr,
 *   u32 id title date kind src mid mlabel flags (1 idle_array, 2 single_round),
 *   per entry u32 name key spelling route nroutes anyroute, f64 route_min,
 *     its rps, mj and watts (struct rmv: f64 mean sd n, u32 text sdtext),
 *   per round u32 ent, f64 round mj rps,
 *   per route u32 name at, its rps (rmv),
 *   per idle window f64,
 *   the strings (nstr bytes, the first and the last NUL).
 * Every string is an offset into the strings, 0 for none.
 */
#define REC_MAGIC "erg-rec\n"
#define REC_VERSION 1u
#define REC_HEAD (8 + 4 + VIEWS_REC_TAG + 5 * 4 + 8 * 4)
#define REC_RMV (3 * 8 + 2 * 4)
#define REC_ENT (6 * 4 + 8 + 3 * REC_RMV)
#define REC_ROUND (4 + 3 * 8)
#define REC_ROUTE (2 * 4 + REC_RMV)

static void
put32(struct buf *b, uint32_t x)
{
	unsigned char c[4] = { (unsigned char)x, (unsigned char)(x >> 8),
			       (unsigned char)(x >> 16), (unsigned char)(x >> 24) };

	buf_add(b, c, 4);
}

static void
put64(struct buf *b, double d)
{
	uint64_t x;

	memcpy(&x, &d, 8);
	put32(b, (uint32_t)x);
	put32(b, (uint32_t)(x >> 32));
}

static void
put_rmv(struct buf *b, const struct rmv *m)
{
	put64(b, m->mean);
	put64(b, m->sd);
	put64(b, m->n);
	put32(b, m->text);
	put32(b, m->sdtext);
}

static uint32_t
cnt32(size_t n)
{
	if (n > UINT32_MAX)
		die("a run's record holds more than 2^32 items");
	return (uint32_t)n;
}

void
views_run_encode(const struct views_run *r, const unsigned char tag[VIEWS_REC_TAG],
		 struct buf *out)
{
	size_t i;

	buf_add(out, REC_MAGIC, 8);
	put32(out, REC_VERSION);
	buf_add(out, tag, VIEWS_REC_TAG);
	put32(out, cnt32(r->nent));
	put32(out, cnt32(r->nround));
	put32(out, cnt32(r->nroute));
	put32(out, cnt32(r->nidle));
	put32(out, cnt32(r->nstr));
	put32(out, r->id);
	put32(out, r->title);
	put32(out, r->date);
	put32(out, r->kind);
	put32(out, r->src);
	put32(out, r->mid);
	put32(out, r->mlabel);
	put32(out, (r->idle_array ? 1u : 0) | (r->single_round ? 2u : 0));
	for (i = 0; i < r->nent; i++) {
		const struct rent *e = &r->ent[i];

		put32(out, e->name);
		put32(out, e->key);
		put32(out, e->spelling);
		put32(out, e->route);
		put32(out, e->nroutes);
		put32(out, e->anyroute ? 1 : 0);
		put64(out, e->route_min);
		put_rmv(out, &e->rps);
		put_rmv(out, &e->mj);
		put_rmv(out, &e->watts);
	}
	for (i = 0; i < r->nround; i++) {
		put32(out, r->round[i].ent);
		put64(out, r->round[i].round);
		put64(out, r->round[i].mj);
		put64(out, r->round[i].rps);
	}
	for (i = 0; i < r->nroute; i++) {
		put32(out, r->route[i].name);
		put32(out, r->route[i].at);
		put_rmv(out, &r->route[i].rps);
	}
	for (i = 0; i < r->nidle; i++)
		put64(out, r->idle[i]);
	buf_add(out, r->str, r->nstr);
}

/* Reading a record: every read is inside len, which decode checked
 * against the counts first. */
struct rrd {
	const unsigned char *p;
	size_t off, nstr;
	const char *path;
	int bad;
};

static uint32_t
get32(struct rrd *d)
{
	const unsigned char *c = d->p + d->off;

	d->off += 4;
	return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
}

static double
get64(struct rrd *d)
{
	uint64_t x = get32(d);
	double v;

	x |= (uint64_t)get32(d) << 32;
	memcpy(&v, &x, 8);
	return v;
}

/* A string offset: inside the strings (0 is none). */
static uint32_t
get_str(struct rrd *d)
{
	uint32_t o = get32(d);

	if (o >= d->nstr && !d->bad)
		d->bad = error_off(d->path, (long long)d->off - 4,
				   "run record: string offset %u outside its %zu bytes of strings",
				   o, d->nstr);
	return o < d->nstr ? o : 0;
}

static struct rmv
get_rmv(struct rrd *d)
{
	struct rmv m;

	m.mean = get64(d);
	m.sd = get64(d);
	m.n = get64(d);
	m.text = get_str(d);
	m.sdtext = get_str(d);
	return m;
}

int
views_run_decode(const void *data, size_t len, const char *path,
		 const unsigned char tag[VIEWS_REC_TAG], struct views_run **out)
{
	struct rrd d = { data, 0, 0, path, 0 };
	uint32_t nent, nround, nroute, nidle, nstr, flags, next = 0;
	uint64_t need;
	struct views_run *r;
	size_t i;

	*out = NULL;
	if (len < 8 || memcmp(data, REC_MAGIC, 8))
		return error_off(path, 0, "not a run record of erg (no 'erg-rec' at its start)");
	if (len < REC_HEAD)
		return error_off(path, (long long)len, "run record truncated: %zu bytes, "
				 "its header takes %d", len, REC_HEAD);
	d.off = 8;
	if (get32(&d) != REC_VERSION || memcmp(d.p + d.off, tag, VIEWS_REC_TAG))
		return 1;	/* another erg's, or made under other aliases */
	d.off += VIEWS_REC_TAG;
	nent = get32(&d);
	nround = get32(&d);
	nroute = get32(&d);
	nidle = get32(&d);
	nstr = get32(&d);
	need = REC_HEAD + (uint64_t)nent * REC_ENT + (uint64_t)nround * REC_ROUND +
	       (uint64_t)nroute * REC_ROUTE + (uint64_t)nidle * 8 + nstr;
	if (need != len)
		return error_off(path, 8 + 4 + VIEWS_REC_TAG, "run record of %zu bytes where its "
				 "counts take %llu", len, (unsigned long long)need);
	if (!nstr || d.p[len - nstr] || d.p[len - 1])
		return error_off(path, (long long)(len - (nstr ? nstr : 0)),
				 "run record: its strings do not start and end with a NUL byte");
	d.nstr = nstr;
	r = record_alloc(nent, nround, nidle, nroute);
	r->nent = nent;
	r->nround = nround;
	r->nroute = nroute;
	r->nidle = nidle;
	r->nstr = nstr;
	r->str = xmalloc(nstr);
	memcpy(r->str, d.p + len - nstr, nstr);
	r->id = get_str(&d);
	r->title = get_str(&d);
	r->date = get_str(&d);
	r->kind = get_str(&d);
	r->src = get_str(&d);
	r->mid = get_str(&d);
	r->mlabel = get_str(&d);
	flags = get32(&d);
	if (!d.bad && (flags & ~3u))
		d.bad = error_off(path, (long long)d.off - 4, "run record: unknown flags %#x", flags);
	if (!d.bad && (!r->id || !r->mlabel))
		d.bad = error_off(path, REC_HEAD - 8 * 4, "run record without a run id or machine");
	r->idle_array = (flags & 1) != 0;
	r->single_round = (flags & 2) != 0;
	for (i = 0; i < nent && !d.bad; i++) {
		struct rent *e = &r->ent[i];
		size_t at = d.off;

		e->name = get_str(&d);
		e->key = get_str(&d);
		e->spelling = get_str(&d);
		e->route = get32(&d);
		e->nroutes = get32(&d);
		e->anyroute = get32(&d) != 0;
		e->route_min = get64(&d);
		e->rps = get_rmv(&d);
		e->mj = get_rmv(&d);
		e->watts = get_rmv(&d);
		if (!d.bad && e->name && (!e->key || !e->spelling))
			d.bad = error_off(path, (long long)at, "run record: target %zu without "
					  "its key or spelling", i);
		if (!d.bad && (e->route != next || e->nroutes > nroute - next))
			d.bad = error_off(path, (long long)at + 12, "run record: routes %u+%u of "
					  "target %zu are not the next of its %u", e->route,
					  e->nroutes, i, nroute);
		next += e->nroutes;
	}
	if (!d.bad && next != nroute)
		d.bad = error_off(path, 8 + 4 + VIEWS_REC_TAG + 8, "run record: %u routes, its "
				  "targets hold %u", nroute, next);
	for (i = 0; i < nround && !d.bad; i++) {
		struct rround *q = &r->round[i];

		q->ent = get32(&d);
		q->round = get64(&d);
		q->mj = get64(&d);
		q->rps = get64(&d);
		if (q->ent >= nent || !r->ent[q->ent].name)
			d.bad = error_off(path, (long long)d.off - REC_ROUND, "run record: round "
					  "%zu of target %u, not a named one of %u", i, q->ent, nent);
	}
	for (i = 0; i < nroute && !d.bad; i++) {
		r->route[i].name = get_str(&d);
		r->route[i].at = get_str(&d);
		r->route[i].rps = get_rmv(&d);
	}
	for (i = 0; i < nidle && !d.bad; i++)
		if (!isfinite(r->idle[i] = get64(&d)))
			d.bad = error_off(path, (long long)d.off - 8, "run record: idle power "
					  "%zu is not a finite number", i);
	if (d.bad) {
		views_run_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* ------------------------------------------------------------------ */
/* unique slugs in a directory, unique ids in a page */

/*
 * A path segment for name: [A-Za-z0-9._-], every other character (not
 * byte: a UTF-8 sequence counts once) '-', no leading '.', at most max
 * bytes before the suffix, never empty (slug_base()); unique in taken
 * ignoring ASCII case, with "-2", "-3", ... added (slug_take()).  Each
 * returns a new string.
 */
static char *
slug_base(const char *name, size_t max)
{
	struct buf b = BUF_INIT;
	const unsigned char *s = (const unsigned char *)(name ? name : "");

	for (; *s && b.len < max; s++) {
		unsigned char c = *s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '_' || c == '-')
			buf_addch(&b, c);
		else if (c < 0x80 || (c & 0xc0) == 0xc0)
			buf_addch(&b, '-');
	}
	if (!b.len)
		buf_addstr(&b, "unnamed");
	if (b.ptr[0] == '.')
		b.ptr[0] = '-';
	return buf_detach(&b, NULL);
}

/* base (owned from now on) made unique in taken, ignoring case. */
static char *
slug_take(struct sset *taken, char *name)
{
	struct buf b = BUF_INIT, low = BUF_INIT;
	size_t base, k, i;

	buf_addstr(&b, name);
	free(name);
	base = b.len;
	for (k = 2;; k++) {
		buf_reset(&low);
		for (i = 0; i < b.len; i++)
			buf_addch(&low, b.ptr[i] >= 'A' && b.ptr[i] <= 'Z' ? b.ptr[i] - 'A' + 'a' : b.ptr[i]);
		if (!sset_has(taken, low.ptr))
			break;
		buf_setlen(&b, base);
		buf_addf(&b, "-%zu", k);
	}
	sset_add(taken, low.ptr);
	buf_release(&low);
	return buf_detach(&b, NULL);
}

static char *
slug_make(struct sset *taken, const char *name, size_t max)
{
	return slug_take(taken, slug_base(name, max));
}

/* An element id from prefix and parts, each sanitised (view.h), joined by
 * one '-', unique in the page ("-2", "-3", ...); out is scratch. */
static const char *
id_make(struct sset *ids, struct buf *out, const char *prefix, const char *a, const char *b)
{
	const char *parts[3] = { prefix, a, b };
	size_t p;

	buf_reset(out);
	for (p = 0; p < 3; p++) {
		if (!parts[p])
			continue;
		if (out->len && out->ptr[out->len - 1] != '-')
			buf_addch(out, '-');
		id_sanitise(out, parts[p]);
	}
	return id_unique(ids, out, NULL);
}

/* ------------------------------------------------------------------ */
/* the model */

struct vrun {
	const struct views_run *rec;
	size_t si;		/* its place in the views_src */
	size_t cslot;		/* its summary in the cache (run_res()) + 1, or 0 */
	const char *id, *title, *date, *kind, *src;
	char *href;		/* from the site root: runs/<id>/index.html */
	char *slug;		/* for diff page names */
	const char *mlabel;	/* its machine's label */
	char *when;		/* "2026-08-26 01:56", "2026-08-26", as given, or "undated" */
	size_t m;		/* its machine */
	int summary;		/* kind "summary": published figures */
	int energy;		/* energy_source other than "none" */
	size_t ntargets;
	size_t *tg;		/* per entry of its "targets": the target, or nt */
};

struct vmach {
	const char *key;	/* machine.id, or the label */
	char *label, *slug;
	size_t *runs, nruns;	/* date order */
	size_t *occ, nocc;	/* its occurrences, in occ order (target, run) */
	size_t ntargets;	/* distinct targets among them */
	size_t *diffs, ndiffs;	/* the diff pairs with a run of it, in order */
};

struct vocc {			/* a target in a run */
	size_t run, tgt;
	size_t idx;		/* in the run's "targets" */
	const char *key;	/* while views_load() runs */
	const char *spelling;	/* the name after the aliases */
};

struct vtgt {
	const char *name;	/* as shown (views_load()) */
	const char *key;	/* what names it (ingest/targets.h) */
	char *slug;
	size_t first, n;	/* its occurrences: occ[first .. first + n) */
};

struct vdiff {
	size_t a, b;		/* runs */
	long line;		/* of diffs.txt; 0: consecutive runs */
	char *slug;
	size_t shared;		/* targets in both */
	/* from its comparison, once its page is written (views_diff_page) */
	int done, untested;
	size_t rows, significant;
};

/* A summary read back (run_res()). */
struct vcached {
	size_t run;
	json_t *res;
	size_t bytes;
	unsigned long long used;	/* when last asked for */
};

struct views {
	struct render_ctx *c;
	const struct target_aliases *aliases;	/* the archive's, or NULL */
	struct views_src src;
	struct vcached *cache;
	size_t ncache, cache_max, cache_bytes;
	unsigned long long tick;
	struct vrun *r;
	size_t nr;
	struct vmach *m;
	size_t nm;
	struct vtgt *t;
	size_t nt;
	struct vocc *occ;
	size_t nocc;
	struct vdiff *d;
	size_t nd, ad;
	size_t nskipped;	/* summary runs, not diffed */
	size_t nsingle;		/* single-round sessions, not paired automatically */
	struct tmpl *machine, *target, *compare, *list, *search;
	struct diff_html *diff;
	const struct tmpl *rows;	/* render_rows() */
	size_t page_runs;	/* PAGE_RUNS, or ERG_PAGE_ROWS */
	size_t *pgno;		/* per run: its list page on the page being drawn */
	int err;		/* a table's rows did not render */
	struct buf scratch;
	const struct views_deps *deps;	/* incremental: views_set_deps(), or NULL */
};

/* captured_at for display: date and minutes ("2026-08-26 01:56", joined
 * by a no-break space, with the offset when it is not Z: "... +02:00")
 * when it is ISO 8601, else as given. */
static char *
when_of(const char *iso)
{
	char w[32];
	size_t n = iso_prefix(iso);

	if (!iso)
		return xstrdup("undated");
	if (n == 16) {
		const char *tz = strpbrk(iso + 16, "Z+-");

		/* an offset other than Z is shown: the tables say UTC */
		snprintf(w, sizeof(w), "%.10s" NBSP "%.5s%s%.6s", iso, iso + 11,
			 tz && *tz != 'Z' ? NBSP : "", tz && *tz != 'Z' ? tz : "");
		return xstrdup(w);
	}
	if (n == 10) {
		snprintf(w, sizeof(w), "%.10s", iso);
		return xstrdup(w);
	}
	return xstrdup(iso);
}

static int
cmp_run(const void *pa, const void *pb)
{
	const struct vrun *a = pa, *b = pb;
	int c;

	if (!a->date != !b->date)
		return a->date ? -1 : 1;
	if (a->date && (c = strcmp(a->date, b->date)))
		return c;
	return strcmp(a->id, b->id);
}

/* Names in the order people read lists: ignoring ASCII case, then by
 * bytes ("abc" < "Bun" < "bun" < "hono"). */
static int
name_cmp(const char *a, const char *b)
{
	int c = strcasecmp(a, b);

	return c ? c : strcmp(a, b);
}

static int
cmp_str(const void *pa, const void *pb)
{
	return name_cmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Occurrences by key, then run, then place in the run: with targets
 * numbered in key order, a target's history is one slice. */
static int
cmp_occ_key(const void *pa, const void *pb)
{
	const struct vocc *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->run != b->run)
		return (a->run > b->run) - (a->run < b->run);
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static int
cmp_spelling(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/*
 * The name a target is shown by: the spelling most of its occurrences
 * have after the aliases (targets.txt's canonical, when it names one,
 * is every occurrence's), ties to the first in byte order ("Bun" before
 * "bun").  Whatever run came first, the same archive shows the same name.
 */
static const char *
display_name(const struct vocc *occ, size_t n)
{
	const char **sp = xcalloc(n + 1, sizeof(*sp)), *best = NULL;
	size_t i, j, nbest = 0;

	for (i = 0; i < n; i++)
		sp[i] = occ[i].spelling;
	qsort(sp, n, sizeof(*sp), cmp_spelling);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(sp[j], sp[i]); j++)
			;
		if (j - i > nbest) {
			best = sp[i];
			nbest = j - i;
		}
	}
	free(sp);
	return best;
}

/* Index of name in sorted v[0..n), or n. */
static size_t
find_name(const char *const *v, size_t n, const char *name)
{
	const char *const *p = bsearch(&name, v, n, sizeof(*v), cmp_str);

	return p ? (size_t)(p - v) : n;
}

static void
views_load(struct views *v, const struct views_src *src)
{
	const char **keys;
	size_t i, j, k, nk = 0, nn = 0;
	struct sset taken = { 0 };
	struct buf b = BUF_INIT;

	v->src = *src;
	v->r = xcalloc(src->n + 1, sizeof(*v->r));
	for (i = 0; i < src->n; i++) {
		const struct views_run *x = src->runs[i];
		struct vrun *r = &v->r[v->nr];

		if (!x)
			continue;	/* render_run() refuses it already */
		r->rec = x;
		r->si = i;
		r->id = rs(x, x->id);
		r->title = x->title ? rs(x, x->title) : r->id;
		r->date = rs(x, x->date);
		r->kind = rs(x, x->kind);
		r->src = rs(x, x->src);
		r->summary = r->kind && !strcmp(r->kind, "summary");
		r->energy = !r->src || strcmp(r->src, "none");
		r->ntargets = x->nent;
		r->mlabel = rs(x, x->mlabel);
		r->when = when_of(r->date);
		buf_reset(&b);
		buf_addstr(&b, "runs/");
		url_path(&b, r->id);
		buf_addstr(&b, "/index.html");
		r->href = xstrdup(b.ptr);
		v->nr++;
	}
	qsort(v->r, v->nr, sizeof(*v->r), cmp_run);

	/* machines: keys sorted and made unique, then each run's index */
	keys = xcalloc(v->nr + 1, sizeof(*keys));
	for (i = 0; i < v->nr; i++) {
		const struct views_run *x = v->r[i].rec;

		keys[nk++] = x->mid ? rs(x, x->mid) : v->r[i].mlabel;
	}
	qsort(keys, nk, sizeof(*keys), cmp_str);
	sset_add(&taken, "index.html");	/* machines/index.html is the list */
	for (i = j = 0; i < nk; i++)
		if (!j || strcmp(keys[j - 1], keys[i]))
			keys[j++] = keys[i];
	nk = j;
	v->m = xcalloc(nk + 1, sizeof(*v->m));
	v->nm = nk;
	for (i = 0; i < nk; i++) {
		v->m[i].key = keys[i];
		v->m[i].slug = slug_make(&taken, keys[i], SLUG_MAX);
		v->m[i].runs = xcalloc(v->nr + 1, sizeof(size_t));
	}
	for (i = 0; i < v->nr; i++) {
		const struct views_run *x = v->r[i].rec;
		const char *key = x->mid ? rs(x, x->mid) : v->r[i].mlabel;
		struct vmach *vm;

		v->r[i].m = find_name(keys, nk, key);
		vm = &v->m[v->r[i].m];
		if (!vm->label)
			vm->label = xstrdup(v->r[i].mlabel);
		vm->runs[vm->nruns++] = i;
	}
	sset_free(&taken);
	for (i = 0; i < v->nr; i++)
		v->r[i].slug = slug_make(&taken, v->r[i].id, SLUG_MAX);
	sset_free(&taken);

	/* targets: one per key (ingest/targets.h), in key order */
	for (i = 0; i < v->nr; i++)
		nn += v->r[i].ntargets;
	v->occ = xcalloc(nn + 1, sizeof(*v->occ));
	nn = 0;
	for (i = 0; i < v->nr; i++) {
		const struct views_run *x = v->r[i].rec;

		v->r[i].tg = xcalloc(v->r[i].ntargets + 1, sizeof(size_t));
		for (j = 0; j < x->nent; j++) {
			if (!x->ent[j].name)
				continue;
			v->occ[nn].run = i;
			v->occ[nn].idx = j;
			v->occ[nn].spelling = rs(x, x->ent[j].spelling);
			v->occ[nn].key = rs(x, x->ent[j].key);
			nn++;
		}
	}
	v->nocc = nn;
	qsort(v->occ, v->nocc, sizeof(*v->occ), cmp_occ_key);
	v->t = xcalloc(nn + 1, sizeof(*v->t));
	for (i = 0; i < v->nocc; i = j) {
		struct vtgt *tg = &v->t[v->nt];

		for (j = i; j < v->nocc && !strcmp(v->occ[j].key, v->occ[i].key); j++)
			v->occ[j].tgt = v->nt;
		tg->key = v->occ[i].key;
		tg->name = display_name(&v->occ[i], j - i);
		tg->first = i;
		tg->n = j - i;
		v->nt++;
	}
	for (i = 0; i < v->nocc; i++) {
		v->occ[i].key = NULL;
		v->r[v->occ[i].run].tg[v->occ[i].idx] = v->occ[i].tgt;
	}
	for (i = 0; i < v->nr; i++)
		for (j = 0; j < v->r[i].ntargets; j++)
			if (!v->r[i].rec->ent[j].name)
				v->r[i].tg[j] = v->nt;
	/*
	 * Slugs from the keys, so that a URL does not move with the runs:
	 * a key that is its own slug ("bun") first, then the others in key
	 * order with "-2", "-3" where their slugs meet ("a b" after "a-b").
	 */
	sset_add(&taken, "index.html");	/* targets/index.html is the list */
	for (k = 0; k < 2; k++)
		for (i = 0; i < v->nt; i++) {
			char *base;

			if (v->t[i].slug)
				continue;
			base = slug_base(v->t[i].key, SLUG_MAX);
			if (!k && (strcmp(base, v->t[i].key) || sset_has(&taken, base)))
				free(base);
			else
				v->t[i].slug = slug_take(&taken, base);
		}
	/* each machine's occurrences, so that no per-machine step loops over
	 * every run's targets */
	for (i = 0; i < v->nocc; i++)
		v->m[v->r[v->occ[i].run].m].nocc++;
	for (i = 0; i < v->nm; i++) {
		v->m[i].occ = xcalloc(v->m[i].nocc + 1, sizeof(size_t));
		v->m[i].nocc = 0;
	}
	for (i = 0; i < v->nocc; i++) {
		struct vmach *vm = &v->m[v->r[v->occ[i].run].m];

		if (!vm->nocc || v->occ[vm->occ[vm->nocc - 1]].tgt != v->occ[i].tgt)
			vm->ntargets++;
		vm->occ[vm->nocc++] = i;
	}
	sset_free(&taken);
	free(keys);
	buf_release(&b);
}

static void
views_free(struct views *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		free(v->r[i].href);
		free(v->r[i].slug);
		free(v->r[i].when);
		free(v->r[i].tg);
	}
	for (i = 0; i < v->nm; i++) {
		free(v->m[i].label);
		free(v->m[i].slug);
		free(v->m[i].runs);
		free(v->m[i].occ);
		free(v->m[i].diffs);
	}
	for (i = 0; i < v->nt; i++)
		free(v->t[i].slug);
	for (i = 0; i < v->ncache; i++)
		json_decref(v->cache[i].res);
	free(v->cache);
	for (i = 0; i < v->nd; i++)
		free(v->d[i].slug);
	free(v->r);
	free(v->m);
	free(v->t);
	free(v->occ);
	free(v->d);
	free(v->pgno);
	tmpl_free(v->machine);
	tmpl_free(v->target);
	tmpl_free(v->compare);
	tmpl_free(v->list);
	tmpl_free(v->search);
	diff_html_free(v->diff);
	buf_release(&v->scratch);
}

/* The occurrence of target tg in run ri (in v->occ), or SIZE_MAX. */
static size_t
occ_in(const struct views *v, size_t tg, size_t ri)
{
	size_t lo = v->t[tg].first, hi = lo + v->t[tg].n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->occ[mid].run == ri)
			return mid;
		if (v->occ[mid].run < ri)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/* Entry j of run ri's "targets", as kept. */
static const struct rent *
run_ent(const struct views *v, size_t ri, size_t j)
{
	return &v->r[ri].rec->ent[j];
}

/* The headline figure of occurrence oi: HL_RPS, HL_MJ or HL_W. */
enum { HL_RPS, HL_MJ, HL_W };

static struct mv
ent_hl(const struct views *v, size_t ri, size_t j, int which)
{
	const struct views_run *x = v->r[ri].rec;
	const struct rent *e = &x->ent[j];

	return rmv_get(x, which == HL_RPS ? &e->rps : which == HL_MJ ? &e->mj : &e->watts);
}

/* The same of occurrence oi. */
static struct mv
occ_hl(const struct views *v, size_t oi, int which)
{
	return ent_hl(v, v->occ[oi].run, v->occ[oi].idx, which);
}

/*
 * Run ri's summary (views_src), read back for a page over a bounded set
 * of runs, or NULL after diagnostics (v->err: no page is written then).
 * The last few stay in a cache of at most v->cache_max runs and
 * VIEWS_CACHE_BYTES of summaries' text (a tree takes ~8 times its text),
 * the least recently used out first; what it returns is borrowed until
 * the next call, so nothing keeps a pointer into a summary beyond it
 * (ERG_VIEW_CACHE=1 makes every call but a repeated one free the one
 * before: ASan finds any pointer kept).  Measured on 1,000 mkarchive
 * runs: 256 runs cached held 13 MB more than 16 and saved a fifth of the
 * ~4,200 reads (3.4 a run); 64 costs about what 16 does.
 */
#define VIEWS_CACHE_RUNS 64
#define VIEWS_CACHE_BYTES ((size_t)2 << 20)

static const json_t *
run_res(struct views *v, size_t ri)
{
	struct vrun *r = &v->r[ri];
	struct vcached *e;
	size_t i, k, bytes = 0;

	if (r->cslot) {
		e = &v->cache[r->cslot - 1];
		e->used = ++v->tick;
		return e->res;
	}
	if (!v->cache)
		v->cache = xcalloc(v->cache_max + 1, sizeof(*v->cache));
	/* room: the least recently used go while too many or too big */
	while (v->ncache && (v->ncache >= v->cache_max || v->cache_bytes > VIEWS_CACHE_BYTES)) {
		for (k = 0, i = 1; i < v->ncache; i++)
			if (v->cache[i].used < v->cache[k].used)
				k = i;
		v->r[v->cache[k].run].cslot = 0;
		json_decref(v->cache[k].res);
		v->cache_bytes -= v->cache[k].bytes;
		v->cache[k] = v->cache[--v->ncache];
		if (k < v->ncache)
			v->r[v->cache[k].run].cslot = k + 1;
	}
	e = &v->cache[v->ncache++];
	e->res = v->src.summary(v->src.ctx, r->si, &bytes);
	if (!e->res)
		v->err = -1;	/* kept: one diagnostic per run */
	e->run = ri;
	e->bytes = bytes;
	e->used = ++v->tick;
	v->cache_bytes += bytes;
	r->cslot = v->ncache;
	return e->res;
}

/* Occurrence oi's routes, *n of them, in its run's record. */
static const struct rroute *
occ_routes(const struct views *v, size_t oi, size_t *n)
{
	const struct views_run *x = v->r[v->occ[oi].run].rec;
	const struct rent *e = &x->ent[v->occ[oi].idx];

	*n = e->nroutes;
	return x->route + e->route;
}

/* Route q's name in occurrence oi's record, or NULL. */
static const char *
route_name(const struct views *v, size_t oi, const struct rroute *q)
{
	return rs(v->r[v->occ[oi].run].rec, q->name);
}

/* ------------------------------------------------------------------ */
/* hrefs from a page depth levels below the root */

static json_t *
href_up(size_t depth, const char *a, const char *b, const char *c)
{
	struct buf h = BUF_INIT;
	json_t *s;

	while (depth--)
		buf_addstr(&h, "../");
	buf_addstr(&h, a);
	if (b)
		buf_addstr(&h, b);
	if (c)
		buf_addstr(&h, c);
	s = json_string_nocheck(h.ptr);
	buf_release(&h);
	return s;
}

static json_t *
href_run(const struct views *v, size_t ri, size_t depth)
{
	return href_up(depth, v->r[ri].href, NULL, NULL);
}

static json_t *
href_machine(const struct views *v, size_t mi, size_t depth)
{
	return href_up(depth, "machines/", v->m[mi].slug, "/index.html");
}

static json_t *
href_target(const struct views *v, size_t ti, size_t depth)
{
	return href_up(depth, "targets/", v->t[ti].slug, "/index.html");
}

static json_t *
href_diff(const struct views *v, size_t di, size_t depth)
{
	return href_up(depth, "diffs/", v->d[di].slug, "/index.html");
}

/* ------------------------------------------------------------------ */
/* tables (render/table.h): sortable, every cell carrying its value in
 * data-v for the sort script (templates/views-p-sort.html) */

static void
cross_table(struct views *v, struct table *t, struct sset *ids, const char *id, const char *caption)
{
	table_init(t, v->rows, id_make(ids, &v->scratch, id, NULL, NULL), caption);
	table_class(t, "sortable runs", 1);	/* runs: erg.css keeps td.date on one line */
}

/* A row; its id from prefix and parts (made unique); th links to href
 * (NULL: to the row), sub below it. */
static void
cross_row(struct views *v, struct table *t, struct sset *ids, const char *prefix, const char *a,
       const char *b, const char *th, json_t *href, const char *sub)
{
	struct trow r = { NULL, th, href, NULL, sub, NULL };

	r.id = id_make(ids, &v->scratch, prefix, a, b);
	table_rowx(t, &r);
}

/* Finish t: [t] when keep, else [] (the page says why there is none). */
static json_t *
cross_done(struct views *v, struct table *t, int keep)
{
	json_t *list;

	if (table_end(t))
		v->err = -1;
	list = keep ? one(table_view(t)) : json_array();
	table_free(t);
	return list;
}

/* Text; names and titles (wrap) may break anywhere, short words not. */
static void
cell_text(struct table *t, const char *s, json_t *href, const char *sub)
{
	struct tcell c = { s, 0, NULL, href, sub, NULL };

	table_cell(t, &c);
}

static void
cell_word(struct table *t, const char *s)
{
	struct tcell c = { s, 0, "", NULL, NULL, NULL };

	table_cell(t, &c);
}

/* A date: on one line (erg.css: table.runs td.date). */
static void
cell_date(struct table *t, const char *s)
{
	struct tcell c = { s, 0, "date", NULL, NULL, NULL };

	table_cell(t, &c);
}

/* A machine key, linked: one line once erg.css has td.key. */
static void
cell_key(struct table *t, const char *s, json_t *href)
{
	struct tcell c = { s, 0, "key", href, NULL, NULL };

	table_cell(t, &c);
}

/* Does not apply here (another machine's column): empty, sorts last. */
static void
cell_blank(struct table *t)
{
	struct tcell c = { "", 1, NULL, NULL, NULL, NULL };

	table_cell(t, &c);
}

/* A pointer elsewhere, shown dimmed, sorting as not reported. */
static void
cell_see(struct table *t, const char *text, json_t *href)
{
	struct tcell c = { text, 1, "num na", href, NULL, NULL };

	table_cell(t, &c);
}

/* mean ± SD with dec decimals; SD "± –" when the mean is known and it is
 * not.  A published single value (a summary run's figure without an SD)
 * prints alone, as published ("0.1010", "231,097"), not rounded to dec. */
static void
cell_mv(struct table *t, struct mv m, int dec, int thousands)
{
	if (m.text && !isfinite(m.sd)) {
		struct numval x = { m.mean, m.text };
		struct numfmt f = NF_SHORT;

		f.group = 4;
		table_numval(t, x, f);
		return;
	}
	/* A published mean ± SD written with the same decimals: those
	 * decimals print both texts as published ("0.0958 ± 0.0006"). */
	if (m.text && m.sdtext && !strpbrk(m.text, "eE") && !strpbrk(m.sdtext, "eE")) {
		const char *p = strchr(m.text, '.'), *q = strchr(m.sdtext, '.');
		int dm = p ? (int)strlen(p + 1) : 0, ds = q ? (int)strlen(q + 1) : 0;

		if (dm == ds)
			dec = dm;
	}
	table_pm(t, m.mean, m.sd, thousands ? NF_THOUS(dec) : NF_FIXED(dec));
}

/*
 * A route's throughput; a trials sweep's is the cell at one x (analyze/
 * trials.c: the highest its targets share), named under the value.
 */
static void
cell_route_rps(struct table *t, const struct views_run *x, const struct rroute *q, int dec)
{
	struct mv m = rmv_get(x, &q->rps);
	struct buf b = BUF_INIT;
	struct tcell c = { NULL, 1, NULL, NULL, NULL, NULL };

	if (!q->at || !isfinite(m.mean)) {
		cell_mv(t, m, dec, 1);
		return;
	}
	numfmt_add(&b, m.mean, NF_THOUS(dec));
	if (isfinite(m.sd)) {
		buf_addstr(&b, " \xc2\xb1 ");
		numfmt_add(&b, m.sd, NF_THOUS(dec));
	}
	c.text = b.ptr;
	c.sub = rs(x, q->at);
	c.key = json_real(m.mean);	/* sorts as the other cells do */
	table_cell(t, &c);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* pages */

static json_t *
page_view(const char *title, size_t depth)
{
	json_t *view = json_object();

	set_s(view, "title", title);
	json_object_set_new(view, "up", up_list(depth));
	json_object_set_new(view, "built", build_date());
	return view;
}

static int
page_write(struct views *v, struct tmpl *t, json_t *view, const char *a, const char *b)
{
	struct buf page = BUF_INIT, rel = BUF_INIT;
	int rc = -1;

	buf_addstr(&rel, a);
	if (b) {
		buf_addstr(&rel, b);
		buf_addstr(&rel, "/index.html");
	}
	if (!v->err && !tmpl_render(t, view, &page, 1) &&
	    !sink_write(&v->c->out, rel.ptr, page.ptr, page.len))
		rc = 0;
	buf_release(&page);
	buf_release(&rel);
	return rc;
}

/* One page of a run list: items ord[first .. first + n) of a list in
 * page order (newest first). */
struct lpage {
	size_t first, n;
};

/* Cut n items (rows[i] table rows each) into pages of at most
 * v->page_runs items and PAGE_ROWS_PER_RUN times as many rows; an item
 * of more rows than that has a page of its own. */
static struct lpage *
list_pages(const struct views *v, const size_t *rows, size_t n, size_t *np)
{
	struct lpage *pg = xcalloc(n + 1, sizeof(*pg));
	size_t i, k = 0, sum = 0, cap = v->page_runs * PAGE_ROWS_PER_RUN;

	for (i = 0; i < n; i++) {
		if (pg[k].n && (pg[k].n == v->page_runs || sum + rows[i] > cap)) {
			k++;
			pg[k].first = i;
			sum = 0;
		}
		pg[k].n++;
		sum += rows[i];
	}
	*np = k + 1;
	return pg;
}

/* The file of page k (0-based) of a list, in its page's folder. */
static void
page_file(struct buf *b, size_t k)
{
	buf_reset(b);
	if (k)
		buf_addf(b, "page-%zu.html", k + 1);
	else
		buf_addstr(b, "index.html");
}

/* The navigation between the pages of a list, on page k of np; null when
 * the list fits one page. */
static json_t *
page_nav(size_t k, size_t np, size_t nitems, const char *what)
{
	json_t *nav, *pages;
	struct buf b = BUF_INIT;
	size_t q;

	if (np < 2)
		return json_null();
	nav = json_object();
	pages = json_array();
	buf_addf(&b, "Page %zu of %zu of the %zu %s, newest first", k + 1, np, nitems, what);
	set_s(nav, "text", b.ptr);
	page_file(&b, 0);
	set_s(nav, "first", k ? b.ptr : NULL);
	page_file(&b, k ? k - 1 : 0);
	set_s(nav, "prev", k ? b.ptr : NULL);
	page_file(&b, k + 1);
	set_s(nav, "next", k + 1 < np ? b.ptr : NULL);
	page_file(&b, np - 1);
	set_s(nav, "last", k + 1 < np ? b.ptr : NULL);
	for (q = 0; q < np; q++) {
		json_t *e = json_object();
		char num[32];

		snprintf(num, sizeof(num), "%zu", q + 1);
		set_s(e, "text", num);
		page_file(&b, q);
		set_s(e, "href", q != k ? b.ptr : NULL);
		json_array_append_new(pages, e);
	}
	json_object_set_new(nav, "pages", pages);
	buf_release(&b);
	return nav;
}

/* page k of a list whose page 1 is a/b/index.html: a/b/page-K.html */
static int
page_write_k(struct views *v, struct tmpl *t, json_t *view, const char *a, const char *b,
	     size_t k)
{
	struct buf rel = BUF_INIT, f = BUF_INIT;
	int rc;

	if (!k)
		return page_write(v, t, view, a, b);
	page_file(&f, k);
	buf_addf(&rel, "%s%s/%s", a, b, f.ptr);
	rc = page_write(v, t, view, rel.ptr, NULL);
	buf_release(&rel);
	buf_release(&f);
	return rc;
}

/* A bar chart of values over runs (dates): mean, ±SD whiskers and, when
 * given, the individual values as dots. */
struct series {
	size_t n, cap;
	char **labels;
	double *value, *err;
	double **dots;
	size_t *ndots;
	size_t slot;		/* the chart style of its target on the page */
	size_t marks;		/* its chart's budget of marks: 0, the default */
};

static void
series_add(struct series *s, const char *label, double value, double err, double *dots,
	   size_t ndots)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->labels = xrealloc(s->labels, s->cap * sizeof(*s->labels));
		s->value = xrealloc(s->value, s->cap * sizeof(*s->value));
		s->err = xrealloc(s->err, s->cap * sizeof(*s->err));
		s->dots = xrealloc(s->dots, s->cap * sizeof(*s->dots));
		s->ndots = xrealloc(s->ndots, s->cap * sizeof(*s->ndots));
	}
	s->labels[s->n] = xstrdup(label);
	s->value[s->n] = value;
	s->err[s->n] = err;
	s->dots[s->n] = dots;
	s->ndots[s->n] = ndots;
	s->n++;
}

static void
series_free(struct series *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->labels[i]);
		free(s->dots[i]);
	}
	free(s->labels);
	free(s->value);
	free(s->err);
	free(s->dots);
	free(s->ndots);
	memset(s, 0, sizeof(*s));
}

/* Next number to try per label, for series_unique_labels(). */
struct snum {
	char **k;
	size_t *v;
	size_t cap;		/* 0 or a power of two; at most half full */
	size_t n;
};

/* The number of k (2 when new), to read and update. */
static size_t *
snum_at(struct snum *m, const char *k)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct snum g = { NULL, NULL, m->cap ? 2 * m->cap : 64, m->n };

		g.k = xcalloc(g.cap, sizeof(*g.k));
		g.v = xcalloc(g.cap, sizeof(*g.v));
		for (i = 0; i < m->cap; i++)
			if (m->k[i]) {
				size_t j;

				for (j = sset_hash(m->k[i]) & (g.cap - 1); g.k[j]; j = (j + 1) & (g.cap - 1))
					;
				g.k[j] = m->k[i];
				g.v[j] = m->v[i];
			}
		free(m->k);
		free(m->v);
		*m = g;
	}
	for (i = sset_hash(k) & (m->cap - 1); m->k[i]; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->k[i], k))
			return &m->v[i];
	m->k[i] = xstrdup(k);
	m->v[i] = 2;
	m->n++;
	return &m->v[i];
}

static void
snum_free(struct snum *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->k[i]);
	free(m->k);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/*
 * Labels must differ: a repeated one gets " (2)", " (3)", ..., the first
 * not taken by an earlier (final) label.  Linear: a set of the labels so
 * far, and per label the number to try next; numbers below it are taken,
 * and stay taken, as the set only grows.  (Comparing each label with all
 * earlier ones for each number tried was cubic when every run of a
 * 1,000-run archive had the same label: ~40 % of its build.)
 */
static void
series_unique_labels(struct series *s)
{
	struct sset taken = { 0 };
	struct snum next = { 0 };
	struct buf b = BUF_INIT;
	size_t i, *k;

	for (i = 0; i < s->n; i++) {
		if (!sset_has(&taken, s->labels[i])) {
			sset_add(&taken, s->labels[i]);
			continue;
		}
		k = snum_at(&next, s->labels[i]);
		for (;; ++*k) {
			buf_reset(&b);
			buf_addf(&b, "%s (%zu)", s->labels[i], *k);
			if (!sset_has(&taken, b.ptr))
				break;
		}
		++*k;
		sset_add(&taken, b.ptr);
		free(s->labels[i]);
		s->labels[i] = xstrdup(b.ptr);
	}
	buf_release(&b);
	snum_free(&next);
	sset_free(&taken);
}

static const char *
shared_note(const struct series *s)
{
	_Static_assert(PAGE_MARKS_MAX == 4000, "the note's figure");
	return s->marks && s->marks < SVG_MARKS_MAX ?
	       " (the budget of one chart of the many on this page, which share 4,000)" : "";
}

/*
 * The budget of marks of each series chart of machine mi's page: an
 * equal share of PAGE_MARKS_MAX among two charts a target and the idle
 * one (0, the default, when that is not less), at least 10: past 100
 * targets, a chart of more than its share of bars is a line.
 */
static size_t
machine_marks(const struct views *v, size_t mi)
{
	const struct vmach *m = &v->m[mi];
	size_t oi, nt = 0, share;

	/* the occurrences are in target order */
	for (oi = 0; oi < m->nocc; oi++)
		nt += !oi || v->occ[m->occ[oi]].tgt != v->occ[m->occ[oi - 1]].tgt;
	share = PAGE_MARKS_MAX / (2 * nt + 1);
	if (share >= SVG_MARKS_MAX)
		return 0;
	return share < 10 ? 10 : share;
}

static void
chart_series(json_t *list, struct sset *ids, const char *id, const char *id2,
	     const char *title, const char *ylabel, const char *caption, struct series *s)
{
	struct buf svg = BUF_INIT, idb = BUF_INIT;
	struct svg_frame f = { 0 };
	struct svg_bars bars = { 0 };
	size_t *style = xcalloc(s->n + 1, sizeof(*style)), i;

	/* every bar is the one target's, in its colour and pattern */
	for (i = 0; i < s->n; i++)
		style[i] = s->slot;
	series_unique_labels(s);
	f.style = style;
	f.id = id_make(ids, &idb, id, id2, NULL);
	f.title = title;
	f.desc = caption;
	f.ylabel = ylabel;
	bars.n = s->n;
	bars.labels = (const char *const *)s->labels;
	bars.value = s->value;
	bars.err = s->err;
	bars.dots = (const double *const *)s->dots;
	bars.ndots = s->ndots;
	bars.series = 1;
	bars.marks_max = s->marks;
	f.xlabel = svg_bars_as_line(&bars) ? "run, oldest to newest (1 = the oldest)"
					   : "run (captured at, UTC)";
	svg_bar_chart(&svg, &f, &bars);
	if (svg_bars_as_line(&bars)) {
		/* the caption told of bars and dots: say what is drawn instead */
		struct buf c2 = BUF_INIT;

		if (s->n > SVG_BARS_MAX)
			buf_addf(&c2, "%s With %zu runs (more than %d) the chart", caption, s->n,
				 SVG_BARS_MAX);
		else
			buf_addf(&c2, "%s With %zu runs, whose bars and dots would be more than %zu "
				 "marks%s, the chart", caption, s->n, svg_bars_marks_max(&bars),
				 shared_note(s));
		buf_addf(&c2, " is one line through the means, oldest (%s) to newest (%s), "
			 "whiskers " PM "1 SD; no bars, no dots: the tables and run pages have each "
			 "value.", s->labels[0], s->labels[s->n - 1]);
		figure(list, &svg, c2.ptr);
		buf_release(&c2);
	} else if (svg_bars_dots_dropped(&bars)) {
		struct buf c2 = BUF_INIT;

		buf_addf(&c2, "%s No dots here: the %zu bars and their dots would be more than "
			 "%zu marks%s; each bar's tooltip gives its n, and the run pages each value.",
			 caption, s->n, svg_bars_marks_max(&bars), shared_note(s));
		figure(list, &svg, c2.ptr);
		buf_release(&c2);
	} else {
		figure(list, &svg, caption);
	}
	free(style);
	buf_release(&svg);
	buf_release(&idb);
}

/* Per-round headline values of target tg in run ri (energy sessions:
 * results.measurements, kept by views_run_make()), mJ/req when mj, else
 * req/s, in round order; NULL when there are none. */
static double *
round_values(const struct views *v, size_t ri, size_t tg, int mj, size_t *n)
{
	const struct views_run *x = v->r[ri].rec;
	double *rr = NULL, *out;
	size_t i, k = 0, a, b;

	*n = 0;
	for (i = 0; i < x->nround; i++) {
		const struct rround *q = &x->round[i];
		double y = mj ? q->mj : q->rps;

		if (!isfinite(y) || v->r[ri].tg[q->ent] != tg)
			continue;
		rr = xrealloc(rr, (k + 1) * 2 * sizeof(double));
		rr[2 * k] = q->round;
		rr[2 * k + 1] = y;
		k++;
	}
	for (a = 1; a < k; a++)	/* insertion sort by round: stable, k is small */
		for (b = a; b > 0 && rr[2 * (b - 1)] > rr[2 * b]; b--) {
			double t0 = rr[2 * b], t1 = rr[2 * b + 1];

			rr[2 * b] = rr[2 * (b - 1)];
			rr[2 * b + 1] = rr[2 * (b - 1) + 1];
			rr[2 * (b - 1)] = t0;
			rr[2 * (b - 1) + 1] = t1;
		}
	if (!k)
		return NULL;
	out = xmalloc(k * sizeof(double));
	for (a = 0; a < k; a++)
		out[a] = rr[2 * a + 1];
	free(rr);
	*n = k;
	return out;
}

/* Run kind for a table cell. */
static const char *
kind_text(const struct vrun *r)
{
	if (r->summary)
		return r->energy ? "summary (published energy)" : "summary (published)";
	if (!r->energy)
		return r->kind ? r->kind : "run";
	return r->kind ? r->kind : "energy session";
}

/* A run's id under its title, unless the title is the id. */
static const char *
run_sub(const struct vrun *r)
{
	return strcmp(r->title, r->id) ? r->id : NULL;
}

static const char *
energy_text(const struct vrun *r)
{
	if (!r->energy)
		return "none";
	if (r->summary)
		return "published";
	return r->src ? r->src : "measured";
}

/* ------------------------------------------------------------------ */
/* diff pairs */

static size_t
shared_targets(const struct views *v, size_t a, size_t b)
{
	size_t i, n = 0;

	for (i = 0; i < v->r[a].ntargets; i++) {
		size_t k = v->r[a].tg[i];

		if (k < v->nt && occ_in(v, k, b) != SIZE_MAX)
			n++;
	}
	return n;
}

static void
diff_add(struct views *v, struct sset *taken, size_t a, size_t b, long line)
{
	struct vdiff *d;
	struct buf name = BUF_INIT;
	size_t i;

	/* consecutive pairs are distinct; a listed one may repeat any */
	for (i = 0; line && i < v->nd; i++)
		if (v->d[i].a == a && v->d[i].b == b)
			return;
	ALLOC_GROW(v->d, v->nd + 1, v->ad);
	d = &v->d[v->nd++];
	memset(d, 0, sizeof(*d));
	d->a = a;
	d->b = b;
	d->line = line;
	d->shared = shared_targets(v, a, b);
	buf_addf(&name, "%s_vs_%s", v->r[a].slug, v->r[b].slug);
	d->slug = slug_make(taken, name.ptr, 2 * SLUG_MAX + 4);
	buf_release(&name);
}

struct idref {
	const char *id;
	size_t run;
};

static int
cmp_idref(const void *pa, const void *pb)
{
	return strcmp(((const struct idref *)pa)->id, ((const struct idref *)pb)->id);
}

/* The pairs listed in diffs.txt (ingest/pairs.c read and checked them),
 * after the consecutive ones. */
static void
diffs_listed(struct views *v, struct sset *taken, const struct pair_list *listed)
{
	struct idref *ids = xcalloc(v->nr + 1, sizeof(*ids)), key, *ha, *hb;
	size_t i;

	for (i = 0; i < v->nr; i++) {
		ids[i].id = v->r[i].id;
		ids[i].run = i;
	}
	qsort(ids, v->nr, sizeof(*ids), cmp_idref);
	for (i = 0; i < listed->n; i++) {
		key.id = listed->v[i].a;
		ha = bsearch(&key, ids, v->nr, sizeof(*ids), cmp_idref);
		key.id = listed->v[i].b;
		hb = bsearch(&key, ids, v->nr, sizeof(*ids), cmp_idref);
		/* A run without pages (render_run() refused its id) has none. */
		if (ha && hb)
			diff_add(v, taken, ha->run, hb->run, listed->v[i].line);
	}
	free(ids);
}

static void
diffs_collect(struct views *v, const struct pair_list *listed)
{
	struct sset taken = { 0 };
	size_t m, i;

	sset_add(&taken, "index.html");	/* diffs/index.html is the list */
	for (m = 0; m < v->nm; m++) {
		size_t prev = v->nr;

		for (i = 0; i < v->m[m].nruns; i++) {
			size_t ri = v->m[m].runs[i];

			if (v->r[ri].summary) {
				v->nskipped++;
				continue;
			}
			if (v->r[ri].rec->single_round) {
				v->nsingle++;
				continue;
			}
			if (prev < v->nr && shared_targets(v, prev, ri))
				diff_add(v, &taken, prev, ri, 0);
			prev = ri;
		}
	}
	if (listed)
		diffs_listed(v, &taken, listed);
	sset_free(&taken);
	for (i = 0; i < v->nd; i++) {
		struct vmach *ma = &v->m[v->r[v->d[i].a].m], *mb = &v->m[v->r[v->d[i].b].m];

		ma->diffs = xrealloc(ma->diffs, (ma->ndiffs + 1) * sizeof(size_t));
		ma->diffs[ma->ndiffs++] = i;
		if (mb != ma) {
			mb->diffs = xrealloc(mb->diffs, (mb->ndiffs + 1) * sizeof(size_t));
			mb->diffs[mb->ndiffs++] = i;
		}
	}
}

/* The table of diff pages: all of them, or those of machine only_m
 * (only_m >= v->nm: all).  [] when there are none. */
static json_t *diffs_table_of(struct views *v, struct sset *ids, size_t depth,
			      const size_t *idx, size_t n);

/* Every diff, or those of machine only_m whose run on it (B, else A) is on
 * list page `page` (v->pgno; SIZE_MAX: all of the machine's), newest
 * first. */
static json_t *
diffs_table(struct views *v, struct sset *ids, size_t depth, size_t only_m, size_t page)
{
	size_t q, n = 0, nq = only_m < v->nm ? v->m[only_m].ndiffs : v->nd;
	size_t *idx = xcalloc(nq + 1, sizeof(size_t));
	json_t *t;

	for (q = 0; q < nq; q++) {
		size_t i = only_m < v->nm ? v->m[only_m].diffs[nq - 1 - q] : q;
		const struct vdiff *d = &v->d[i];

		if (only_m < v->nm && page != SIZE_MAX &&
		    v->pgno[v->r[d->b].m == only_m ? d->b : d->a] != page)
			continue;
		idx[n++] = i;
	}
	t = diffs_table_of(v, ids, depth, idx, n);
	free(idx);
	return t;
}

/* The diffs v->d[idx[0..n)], in that order. */
static json_t *
diffs_table_of(struct views *v, struct sset *ids, size_t depth, const size_t *idx, size_t n)
{
	struct table t;
	struct buf b = BUF_INIT;
	size_t q;

	cross_table(v, &t, ids, "tbl-diffs", "Diff pages: B compared with A, per target and metric");
	table_col(&t, "Diff", "B vs A, captured at (UTC)", 0);
	table_col(&t, "Machine", NULL, 0);
	table_col(&t, "A", NULL, 0);
	table_col(&t, "B", NULL, 0);
	table_col(&t, "Why", NULL, 0);
	table_col(&t, "Shared targets", NULL, 1);
	table_col(&t, "Significant", "p " "\xe2\x89\xa4" " 0.05", 1);
	for (q = 0; q < n; q++) {
		size_t i = idx[q];
		const struct vdiff *d = &v->d[i];
		const struct vrun *a = &v->r[d->a], *bb = &v->r[d->b];
		struct tcell c = { NULL, 1, NULL, NULL, NULL, NULL };

		buf_reset(&b);
		buf_addf(&b, "vs %s", a->when);
		cross_row(v, &t, ids, "d-", d->slug, NULL, bb->when, href_diff(v, i, depth), b.ptr);
		if (a->m == bb->m) {
			cell_key(&t, v->m[a->m].key, href_machine(v, a->m, depth));
		} else {
			buf_reset(&b);
			buf_addf(&b, "%s / %s", v->m[a->m].key, v->m[bb->m].key);
			cell_text(&t, b.ptr, NULL, "different machines");
		}
		cell_text(&t, a->title, href_run(v, d->a, depth), run_sub(a));
		cell_text(&t, bb->title, href_run(v, d->b, depth), run_sub(bb));
		buf_reset(&b);
		if (d->line)
			buf_addf(&b, "listed in diffs.txt, line %ld", d->line);
		else
			buf_addstr(&b, "consecutive runs");
		cell_word(&t, b.ptr);
		table_num(&t, (double)d->shared, NF_THOUS(0));
		buf_reset(&b);
		if (d->untested) {
			/* A summary run has one value per cell: "0 of N" would
			 * read as "tested, nothing differs". */
			buf_addf(&b, "not tested (%zu rows)", d->rows);
			c.key = json_integer(-1);
		} else {
			buf_addf(&b, "%zu of %zu", d->significant, d->rows);
			c.key = json_integer((json_int_t)d->significant);
		}
		c.text = b.ptr;
		table_cell(&t, &c);
	}
	buf_release(&b);
	return cross_done(v, &t, table_nrows(&t) > 0);
}

/* An integer of the diff document's summary ("rows", "significant"). */
static size_t
diff_count(const json_t *doc, const char *key)
{
	return (size_t)json_integer_value(json_object_get(json_object_get(doc, "summary"), key));
}

/* diffs/<slug>/index.html: the diff page with the site's navigation;
 * of the document only its counts are kept, for the lists. */
static int
diff_page(struct views *v, size_t di, json_t *doc)
{
	struct vdiff *d = &v->d[di];
	const struct vrun *a = &v->r[d->a], *b = &v->r[d->b];
	struct buf html = BUF_INIT, rel = BUF_INIT;
	struct diff_site site;
	int rc = -1;

	memset(&site, 0, sizeof(site));
	site.nmachines = b->m != a->m ? 2 : 1;
	site.machine_slug[0] = v->m[a->m].slug;
	site.machine_label[0] = v->m[a->m].label;
	site.machine_slug[1] = v->m[b->m].slug;
	site.machine_label[1] = v->m[b->m].label;
	site.href[0] = a->href;
	site.when[0] = a->when;
	site.href[1] = b->href;
	site.when[1] = b->when;
	{
		int ta = a->kind && !strcmp(a->kind, "trials"), tb = b->kind && !strcmp(b->kind, "trials");

		site.why = d->line ? "pair listed in diffs.txt" :
			   ta && tb ? "consecutive trials runs of this machine" :
			   ta || tb ? "consecutive measured runs of this machine (an energy session "
				      "and a trials run)" :
			   "consecutive energy sessions of this machine";
	}
	buf_addf(&rel, "diffs/%s/index.html", d->slug);
	if (!diff_render_html(v->diff, doc, &site, &html) &&
	    !sink_write(&v->c->out, rel.ptr, html.ptr, html.len))
		rc = 0;
	d->untested = json_is_string(json_object_get(doc, "no_significance"));
	d->rows = diff_count(doc, "rows");
	d->significant = diff_count(doc, "significant");
	d->done = 1;
	buf_release(&html);
	buf_release(&rel);
	return rc;
}

/* ------------------------------------------------------------------ */
/* machines/<slug>/index.html */

/* "N runs" and "from D1 to D2" over runs[0..n) (date order). */
static void
span_text(const struct views *v, const size_t *runs, size_t n, struct buf *count,
	  struct buf *span)
{
	const char *first = NULL, *last = NULL;
	size_t i;

	buf_addf(count, "%zu run%s", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		if (v->r[runs[i]].date) {
			if (!first)
				first = v->r[runs[i]].when;
			last = v->r[runs[i]].when;
		}
	if (first && strcmp(first, last))
		buf_addf(span, "%s to %s", first, last);
	else if (first)
		buf_addf(span, "%s", first);
}

static json_t *
machine_runs_table(struct views *v, struct sset *ids, const size_t *ord, size_t n)
{
	struct table t;
	size_t i;

	cross_table(v, &t, ids, "tbl-runs", "Runs on this machine, newest first");
	table_col(&t, "Run", NULL, 0);
	table_col(&t, "Captured at", "UTC", 0);
	table_col(&t, "Kind", NULL, 0);
	table_col(&t, "Targets", NULL, 1);
	table_col(&t, "Energy", "source", 0);
	for (i = 0; i < n; i++) {
		const struct vrun *r = &v->r[ord[i]];
		cross_row(v, &t, ids, "run-", r->slug, NULL, r->title, href_run(v, ord[i], 2),
				       run_sub(r));

		cell_date(&t, r->when);
		cell_word(&t, kind_text(r));
		table_num(&t, (double)r->ntargets, NF_THOUS(0));
		cell_word(&t, energy_text(r));
	}
	return cross_done(v, &t, 1);
}

/* Idle floor per energy session: mean of idle_windows[].mean_watts. */
/* The mean of a run's idle_windows[].mean_watts with SD and n; x (n
 * values, allocated) the windows' figures, NULL when not a session. */
static double *
run_idle(const struct vrun *r, struct mv *mv, size_t *n)
{
	double *x;

	*n = 0;
	if (r->summary || !r->energy || !r->rec->idle_array)
		return NULL;
	x = xcalloc(r->rec->nidle + 1, sizeof(double));
	memcpy(x, r->rec->idle, r->rec->nidle * sizeof(double));
	*n = r->rec->nidle;
	mv->mean = stats_mean(x, *n);
	mv->sd = stats_sd(x, *n);
	mv->n = (double)*n;
	return x;
}

/* The idle table over the page's runs ord[0..n) (newest first); the chart,
 * over every run of the machine, when charts. */
static void
machine_idle(struct views *v, struct sset *ids, size_t mi, json_t *view, const size_t *ord,
	     size_t nord, int charts_too)
{
	const struct vmach *m = &v->m[mi];
	struct table t;
	struct series s = { .marks = machine_marks(v, mi) };
	json_t *charts = json_array();
	size_t i, rows = 0;

	cross_table(v, &t, ids, "tbl-idle", "Idle power per energy session, newest first");
	table_col(&t, "Run", NULL, 0);
	table_col(&t, "Captured at", "UTC", 0);
	table_col(&t, "Idle power", "W, mean " PM " SD over the idle windows", 1);
	table_col(&t, "Idle windows", "n", 1);
	for (i = 0; i < nord; i++) {
		const struct vrun *r = &v->r[ord[i]];
		struct mv mv = { NAN, NAN, NAN, NULL, NULL };
		size_t n;
		double *x = run_idle(r, &mv, &n);

		if (!x)
			continue;
		cross_row(v, &t, ids, "idle-", r->slug, NULL, r->title, href_run(v, ord[i], 2),
			  run_sub(r));
		cell_date(&t, r->when);
		cell_mv(&t, mv, 4, 0);
		table_num(&t, (double)n, NF_THOUS(0));
		rows++;
		free(x);
	}
	for (i = 0; charts_too && i < m->nruns; i++) {
		const struct vrun *r = &v->r[m->runs[i]];
		struct mv mv = { NAN, NAN, NAN, NULL, NULL };
		size_t n;
		double *x = run_idle(r, &mv, &n);

		if (n)
			series_add(&s, r->when, mv.mean, mv.sd, x, n);
		else
			free(x);
	}
	if (s.n)
		chart_series(charts, ids, "chart-idle", NULL, "Idle power across runs", "watts",
			     "Idle power of each energy session, W: bars are the mean over its idle "
			     "windows (the mean SoC power of each window, idle_windows[].mean_watts); "
			     "whiskers \xc2\xb1" "1 SD across those windows; dots: each window. A "
			     "moving floor moves gross energy per request with it.", &s);
	series_free(&s);
	json_object_set_new(view, "idle", cross_done(v, &t, rows > 0));
	json_object_set_new(view, "idle_charts", charts);
	set_s(view, "idle_note",
	      "The power the machine drew while idle, before each measurement: the floor "
	      "under every energy figure. Each energy session's idle windows are averaged "
	      "(the mean of idle_windows[].mean_watts, \xc2\xb1 1 SD across windows), so "
	      "drift of the floor itself across days shows here.");
}

/* Per target, its headline over this machine's runs on list page `page`
 * (v->pgno), newest first: one table; on the first page, charts over every
 * run for targets with values in two runs or more. */
static void
machine_history(struct views *v, struct sset *ids, size_t mi, json_t *view, size_t page)
{
	const struct vmach *m = &v->m[mi];
	struct table t;
	json_t *charts = json_array();
	struct buf cap = BUF_INIT, idb = BUF_INIT;
	double *mj = xcalloc(m->nocc + 1, sizeof(double));
	size_t i, oi, nmj = 0, slot, marks = machine_marks(v, mi);
	int energy = 0, dec_mj, dec_rps;

	for (i = 0; i < m->nruns; i++)
		energy |= v->r[m->runs[i]].energy;
	/* one precision per column */
	{
		double *rps = xcalloc(m->nocc + 1, sizeof(double));
		size_t nrps = 0;

		for (oi = 0; oi < m->nocc; oi++) {
			mj[nmj++] = occ_hl(v, m->occ[oi], HL_MJ).mean;
			rps[nrps++] = occ_hl(v, m->occ[oi], HL_RPS).mean;
		}
		dec_mj = numfmt_col_decimals(mj, nmj, 4, 2);
		dec_rps = numfmt_col_decimals(rps, nrps, 4, 2);
		free(rps);
	}
	cross_table(v, &t, ids, "tbl-history", "Headline per target and run, newest first");
	table_col(&t, "Target", NULL, 0);
	table_col(&t, "Captured at", "UTC", 0);
	table_col(&t, "Run", NULL, 0);
	if (energy) {
		table_col(&t, "Energy per request", "mJ/req, mean " PM " SD", 1);
		table_col(&t, "n", "rounds", 1);
	}
	table_col(&t, "Throughput", "req/s, mean " PM " SD", 1);
	if (energy)
		table_col(&t, "SoC power", "W, mean " PM " SD", 1);
	/* the machine's occurrences are in target order (by key): one target at
	 * a time, each the next chart style of the page */
	for (oi = 0, slot = 0; oi < m->nocc; slot++) {
		struct series smj = { .slot = slot, .marks = marks },
			      srps = { .slot = slot, .marks = marks };
		size_t k = v->occ[m->occ[oi]].tgt;
		const struct vtgt *tg = &v->t[k];
		json_t *figs = json_array();
		size_t oe, ob;

		for (oe = oi; oe < m->nocc && v->occ[m->occ[oe]].tgt == k; oe++)
			;
		for (ob = oe; ob-- > oi;) {
			const struct vocc *o = &v->occ[m->occ[ob]];
			const struct vrun *r = &v->r[o->run];
			struct mv e = occ_hl(v, m->occ[ob], HL_MJ), q = occ_hl(v, m->occ[ob], HL_RPS);
			struct mv w = occ_hl(v, m->occ[ob], HL_W);

			if (v->pgno[o->run] != page ||
			    (!isfinite(e.mean) && !isfinite(q.mean) && !isfinite(w.mean)))
				continue;
			cross_row(v, &t, ids, "h-", tg->slug, r->slug, tg->name, href_target(v, k, 2), NULL);
			cell_date(&t, r->when);
			cell_text(&t, r->title, href_run(v, o->run, 2), r->summary ? "published" : NULL);
			if (energy) {
				cell_mv(&t, e, dec_mj, 0);
				table_num(&t, e.n, NF_THOUS(0));
			}
			cell_mv(&t, q, dec_rps, 1);
			if (energy)
				cell_mv(&t, w, 3, 0);
		}
		for (; page == 0 && oi < oe; oi++) {
			const struct vocc *o = &v->occ[m->occ[oi]];
			const struct vrun *r = &v->r[o->run];
			struct mv e = occ_hl(v, m->occ[oi], HL_MJ), q = occ_hl(v, m->occ[oi], HL_RPS);
			double *dots;
			size_t nd;

			if (isfinite(e.mean)) {
				buf_reset(&cap);
				buf_addf(&cap, "%s%s", r->when, r->summary ? " (published)" : "");
				dots = r->summary ? NULL : round_values(v, o->run, k, 1, &nd);
				series_add(&smj, cap.ptr, e.mean, e.sd, dots, dots ? nd : 0);
			}
			if (isfinite(q.mean)) {
				buf_reset(&cap);
				buf_addf(&cap, "%s%s", r->when, r->summary ? " (published)" : "");
				dots = r->summary ? NULL : round_values(v, o->run, k, 0, &nd);
				series_add(&srps, cap.ptr, q.mean, q.sd, dots, dots ? nd : 0);
			}
		}
		oi = oe;
		if (smj.n >= 2) {
			buf_reset(&cap);
			buf_addstr(&cap, "Energy per request of ");
			buf_addstr(&cap, tg->name);
			buf_addstr(&cap, " across runs on this machine, mJ/req (gross SoC energy, "
				   "request-weighted over the headline routes). Bars: mean; "
				   "whiskers: \xc2\xb1" "1 SD over the rounds; dots: each round "
				   "(published figures have none).");
			chart_series(figs, ids, "chart-mj-", tg->slug, "Energy per request across runs",
				     "mJ per request", cap.ptr, &smj);
		}
		if (srps.n >= 2) {
			buf_reset(&cap);
			buf_addstr(&cap, "Throughput of ");
			buf_addstr(&cap, tg->name);
			buf_addstr(&cap, " across runs on this machine, req/s. Bars: mean; whiskers: "
				   "\xc2\xb1" "1 SD over the rounds; dots: each round.");
			chart_series(figs, ids, "chart-rps-", tg->slug, "Throughput across runs",
				     "requests per second", cap.ptr, &srps);
		}
		series_free(&smj);
		series_free(&srps);
		if (json_array_size(figs)) {
			json_t *o = json_object();

			set_s(o, "id", id_make(ids, &idb, "charts-", tg->slug, NULL));
			set_s(o, "name", tg->name);
			json_object_set_new(o, "href", href_target(v, k, 2));
			json_object_set_new(o, "figs", figs);
			json_array_append_new(charts, o);
		} else {
			json_decref(figs);
		}
	}
	json_object_set_new(view, "history", cross_done(v, &t, table_nrows(&t) > 0));
	json_object_set_new(view, "history_charts", charts);
	set_s(view, "history_note",
	      energy ? "Each target's headline in every run of this machine: energy per request "
		       "(gross SoC energy, request-weighted over the run's headline routes), "
		       "throughput and SoC power, mean \xc2\xb1 1 SD over the rounds. Figures "
		       "marked published were copied from their source (one value, no rounds). "
		       "Charts follow for targets measured in two runs or more."
		     : "Each target's headline throughput in every run of this machine that "
		       "publishes one (mean \xc2\xb1 1 SD where known). Charts follow for targets "
		       "with figures in two runs or more.");
	free(mj);
	buf_release(&cap);
	buf_release(&idb);
}

/* Where the routes matrix put (target, route): the row's id, for links to
 * it from the headline matrix.  All borrowed (the id from the page's ids). */
struct rowref {
	const char *target, *id;
	char *route;		/* a copy */
};

struct rowrefs {
	struct rowref *v;
	size_t n, alloc;
};

/*
 * The req/s per route matrix over runs[0..nruns): rows (target, route)
 * in target then first-seen route order, columns the runs that have any
 * (headed by machine key when machine_cols, else by kind).  Returns []
 * or [table]; a row's th is the target name, its tail the route name.
 */
static json_t *
routes_matrix(struct views *v, struct sset *ids, const size_t *runs, size_t nruns, size_t depth,
	      const char *caption, int machine_cols, struct rowrefs *refs)
{
	struct tcol c = { NULL, NULL, 1, NULL, NULL, NULL, NULL };
	struct table t;
	size_t *cols = xcalloc(nruns + 1, sizeof(size_t)), ncol = 0, i, j, k, q;
	int *dec;
	struct buf u = BUF_INIT, tt = BUF_INIT;

	for (i = 0; i < nruns; i++) {
		int any = 0;

		for (j = 0; j < v->r[runs[i]].ntargets; j++)
			any |= run_ent(v, runs[i], j)->anyroute;
		if (any)
			cols[ncol++] = runs[i];
	}
	if (!ncol) {
		free(cols);
		return json_array();
	}
	dec = xcalloc(ncol + 1, sizeof(int));
	for (i = 0; i < ncol; i++) {
		/* the smallest of each entry's routes: the decimals of them all */
		double *x = xcalloc(v->r[cols[i]].ntargets + 1, sizeof(double));

		for (j = 0; j < v->r[cols[i]].ntargets; j++)
			x[j] = run_ent(v, cols[i], j)->route_min;
		dec[i] = numfmt_col_decimals(x, v->r[cols[i]].ntargets, 4, 2);
		free(x);
	}
	cross_table(v, &t, ids, "tbl-routes", caption);
	table_col(&t, "Target", "route", 0);
	for (i = 0; i < ncol; i++) {
		const struct vrun *r = &v->r[cols[i]];

		buf_reset(&u);
		buf_reset(&tt);
		if (machine_cols)
			buf_addstr(&u, v->m[r->m].key);
		else
			buf_addstr(&u, r->summary ? "published" : r->energy ? "measured" : "measured, no energy");
		buf_addf(&tt, "%s (%s)", r->title, r->id);
		c.h = r->when;
		c.unit = u.ptr;
		c.href = href_run(v, cols[i], depth);
		c.title = tt.ptr;
		table_colx(&t, &c);
	}
	for (k = 0; k < v->nt; k++) {
		const struct vtgt *tg = &v->t[k];
		char **rn = NULL;
		size_t nrn = 0;

		/* the target's route names over these runs, first seen first */
		for (i = 0; i < ncol; i++) {
			size_t oi = occ_in(v, k, cols[i]), nq;
			const struct rroute *rt;

			if (oi == SIZE_MAX)
				continue;
			rt = occ_routes(v, oi, &nq);
			for (j = 0; j < nq; j++) {
				const char *name = route_name(v, oi, &rt[j]);

				if (!name || !isfinite(rt[j].rps.mean))
					continue;
				for (q = 0; q < nrn && strcmp(rn[q], name); q++)
					;
				if (q == nrn) {
					rn = xrealloc(rn, (nrn + 1) * sizeof(*rn));
					rn[nrn++] = xstrdup(name);
				}
			}
		}
		for (q = 0; q < nrn; q++) {
			struct trow r = { NULL, tg->name, href_target(v, k, depth), rn[q], NULL, NULL };

			r.id = id_make(ids, &v->scratch, "rr-", tg->slug, rn[q]);
			table_rowx(&t, &r);
			if (refs) {
				ALLOC_GROW(refs->v, refs->n + 1, refs->alloc);
				refs->v[refs->n].target = tg->name;
				refs->v[refs->n].route = xstrdup(rn[q]);
				refs->v[refs->n++].id = r.id;
			}

			for (i = 0; i < ncol; i++) {
				size_t oi = occ_in(v, k, cols[i]), nq = 0;
				const struct rroute *rt = NULL, *hit = NULL;

				if (oi != SIZE_MAX)
					rt = occ_routes(v, oi, &nq);
				for (j = 0; j < nq; j++)
					if (route_name(v, oi, &rt[j]) &&
					    !strcmp(route_name(v, oi, &rt[j]), rn[q])) {
						hit = &rt[j];
						break;
					}
				if (!hit)
					cell_blank(&t);
				else
					cell_route_rps(&t, v->r[cols[i]].rec, hit, dec[i]);
			}
		}
		for (q = 0; q < nrn; q++)
			free(rn[q]);
		free(rn);
	}
	free(cols);
	free(dec);
	buf_release(&u);
	buf_release(&tt);
	return cross_done(v, &t, 1);
}

static int
machine_page_k(struct views *v, size_t mi, const size_t *ord, size_t n, size_t k, size_t np)
{
	const struct vmach *m = &v->m[mi];
	struct sset ids = { 0 };
	struct buf count = BUF_INIT, span = BUF_INIT;
	json_t *view = page_view(m->label, 2), *dt;
	int rc;

	set_s(view, "key", m->key);
	span_text(v, m->runs, m->nruns, &count, &span);
	set_s(view, "nruns_text", count.ptr);
	set_s(view, "span", span.len ? span.ptr : NULL);
	json_object_set_new(view, "pagenav", page_nav(k, np, m->nruns, "runs"));
	json_object_set_new(view, "runs", machine_runs_table(v, &ids, ord, n));
	machine_idle(v, &ids, mi, view, ord, n, k == 0);
	machine_history(v, &ids, mi, view, k);
	json_object_set_new(view, "routes",
			    routes_matrix(v, &ids, ord, n, 2,
					  "Throughput per target and route, req/s (mean \xc2\xb1 SD "
					  "where known; a trials sweep at the highest x all its targets "
					  "share, named under the value), runs newest first", 0, NULL));
	set_s(view, "routes_note",
	      "Every route's throughput, one column per run that reports routes; an empty cell: "
	      "the run did not have that target or route. Route names are the runs' own: the "
	      "same name in two runs need not be the same request.");
	dt = diffs_table(v, &ids, 2, mi, np > 1 ? k : SIZE_MAX);
	json_object_set_new(view, "diffs", dt);
	set_s(view, "no_diffs",
	      v->nskipped ? "No diff pages for this machine: they are made for two measured "
			    "runs (energy sessions or trials runs) sharing a target; summary "
			    "runs (published figures) are "
			    "compared only when a pair is listed in the archive's diffs.txt."
			  : "No diff pages for this machine: they need two measured runs (energy "
			    "sessions or trials runs) sharing a target, or a pair listed in the "
			    "archive's diffs.txt.");
	rc = page_write_k(v, v->machine, view, "machines/", m->slug, k);
	json_decref(view);
	sset_free(&ids);
	buf_release(&count);
	buf_release(&span);
	return rc;
}

/* machines/<slug>/index.html and, past v->page_runs runs, page-2.html,
 * ...: the run lists (runs, idle power, history, routes, diffs) of the
 * page's runs, newest first; the charts of every run on the first. */
static int
machine_page(struct views *v, size_t mi)
{
	const struct vmach *m = &v->m[mi];
	size_t *ord = xcalloc(m->nruns + 1, sizeof(size_t));
	size_t *rows = xcalloc(m->nruns + 1, sizeof(size_t)), i, k, np;
	struct lpage *pg;
	int rc = 0;

	for (i = 0; i < m->nruns; i++) {
		ord[i] = m->runs[m->nruns - 1 - i];
		rows[i] = 1 + v->r[ord[i]].ntargets;
	}
	pg = list_pages(v, rows, m->nruns, &np);
	for (k = 0; k < np; k++)
		for (i = pg[k].first; i < pg[k].first + pg[k].n; i++)
			v->pgno[ord[i]] = k;
	for (k = 0; k < np && !rc; k++)
		rc = machine_page_k(v, mi, ord + pg[k].first, pg[k].n, k, np);
	free(pg);
	free(rows);
	free(ord);
	return rc;
}

/* ------------------------------------------------------------------ */
/* targets/<slug>/index.html */

static int
target_page(struct views *v, size_t ti)
{
	const struct vtgt *tg = &v->t[ti];
	struct sset ids = { 0 };
	struct table t, rt;
	struct buf b = BUF_INIT, cap = BUF_INIT;
	struct buf spanb = BUF_INIT, cav = BUF_INIT;
	json_t *view = NULL, *charts, *rcharts;
	size_t page, np, lo, hi, *prow = xcalloc(tg->n + 1, sizeof(size_t));
	struct lpage *pg;
	size_t *em = xcalloc(v->nm + 1, sizeof(size_t)), nem = 0, *mach_seen;
	size_t *ek = xcalloc(v->nm + 1, sizeof(size_t));	/* machine: its em index + 1 */
	size_t nmach = 0, i, j, k;
	double *x = xcalloc(tg->n + 1, sizeof(double));
	int dec_rps, *dec_mj = xcalloc(v->nm + 1, sizeof(int)), rc = 0;
	struct series srps = { 0 };

	/* machines with energy figures for this target, in machine order */
	mach_seen = xcalloc(v->nm + 1, sizeof(size_t));
	for (i = tg->first; i < tg->first + tg->n; i++) {
		const struct vrun *r = &v->r[v->occ[i].run];

		mach_seen[r->m] = 1;
		if (r->energy && isfinite(occ_hl(v, i, HL_MJ).mean))
			mach_seen[r->m] = 2;
	}
	for (i = 0; i < v->nm; i++) {
		nmach += mach_seen[i] != 0;
		if (mach_seen[i] == 2)
			em[nem++] = i;
	}
	for (k = 0; k < nem; k++) {
		size_t n = 0;

		for (i = tg->first; i < tg->first + tg->n; i++)
			if (v->r[v->occ[i].run].m == em[k])
				x[n++] = occ_hl(v, i, HL_MJ).mean;
		dec_mj[k] = numfmt_col_decimals(x, n, 4, 2);
	}
	for (i = 0; i < tg->n; i++)
		x[i] = occ_hl(v, tg->first + i, HL_RPS).mean;
	dec_rps = numfmt_col_decimals(x, tg->n, 4, 2);

	buf_addf(&spanb, "on %zu machine%s in %zu run%s", nmach, nmach == 1 ? "" : "s", tg->n,
		 tg->n == 1 ? "" : "s");
	buf_reset(&b);
	if (nem > 1)
		buf_addf(&b, "Energy figures of this target come from %zu machines, so they are "
			 "split into one column per machine: %s. Compare energy within a column "
			 "(one machine, different dates), never across columns.", nem,
			 caveat_devices);
	else if (nem == 1)
		buf_addf(&b, "Energy figures come from one machine only; should others be added, "
			 "they get their own column: %s.", caveat_devices);
	if (nem > TARGET_ENERGY_COLS) {
		/* a column per machine would be mostly empty cells: 200
		 * machines made 3.19 M of them on one page (issue 19) */
		buf_reset(&b);
		buf_addf(&b, "Energy figures of this target come from %zu machines: one column, each "
			 "figure of its run's machine (the Machine column): %s. Compare energy "
			 "only between rows of one machine (sort by machine), never across "
			 "machines.", nem, caveat_devices);
	}
	buf_addstr(&cav, b.ptr);
	for (k = 0; k < nem; k++)
		ek[em[k]] = k + 1;
	/* the pages: occurrences newest first, a row each and one per route */
	for (i = 0; i < tg->n; i++) {
		const struct vocc *o = &v->occ[tg->first + tg->n - 1 - i];

		prow[i] = 1 + run_ent(v, o->run, o->idx)->nroutes;
	}
	pg = list_pages(v, prow, tg->n, &np);
	for (page = 0; page < np && !rc; page++) {
		/* occ[lo .. hi] are on this page */
		hi = tg->first + tg->n - 1 - pg[page].first;
		lo = hi + 1 - pg[page].n;
		view = page_view(tg->name, 2);
		charts = json_array();
		rcharts = json_array();
		memset(&ids, 0, sizeof(ids));
		memset(&srps, 0, sizeof(srps));
		set_s(view, "span", spanb.ptr);
		json_object_set_new(view, "pagenav", page_nav(page, np, tg->n, "runs"));
		set_s(view, "caveat", nem > 1 ? cav.ptr : NULL);
		set_s(view, "caveat_one", nem == 1 ? cav.ptr : NULL);

		cross_table(v, &t, &ids, "tbl-headline", "Headline of this target in every run, newest first");
		table_col(&t, "Run", NULL, 0);
		table_col(&t, "Captured at", "UTC", 0);
		table_col(&t, "Machine", NULL, 0);
		table_col(&t, "Throughput", "req/s, mean " PM " SD", 1);
		if (nem > TARGET_ENERGY_COLS)
			table_col(&t, "Energy per request", "mJ/req, mean " PM " SD, on the run's machine", 1);
		for (k = 0; k < nem && nem <= TARGET_ENERGY_COLS; k++) {
			struct tcol c = { NULL, "mJ/req, mean " PM " SD", 1, NULL, NULL, NULL, NULL };

			buf_reset(&b);
			buf_addf(&b, "Energy on %s", v->m[em[k]].key);
			c.h = b.ptr;
			c.href = href_machine(v, em[k], 2);
			c.title = v->m[em[k]].label;
			table_colx(&t, &c);
		}
		for (i = hi + 1; i-- > lo;) {
			const struct vocc *o = &v->occ[i];
			const struct vrun *r = &v->r[o->run];
			struct mv q = occ_hl(v, i, HL_RPS);
			cross_row(v, &t, &ids, "r-", r->slug, NULL, r->title, href_run(v, o->run, 2), run_sub(r));

			cell_date(&t, r->when);
			cell_key(&t, v->m[r->m].key, href_machine(v, r->m, 2));
			if (!isfinite(q.mean) && run_ent(v, o->run, o->idx)->nroutes)
				cell_see(&t, "per route", json_string("#routes"));
			else
				cell_mv(&t, q, dec_rps, 1);
			if (nem > TARGET_ENERGY_COLS) {
				struct mv e = occ_hl(v, i, HL_MJ);

				if (!r->energy)
					e.mean = NAN;	/* none recorded: not reported */
				if (!ek[r->m])
					cell_blank(&t);
				else
					cell_mv(&t, e, dec_mj[ek[r->m] - 1], 0);
			}
			for (k = 0; k < nem && nem <= TARGET_ENERGY_COLS; k++) {
				struct mv e = occ_hl(v, i, HL_MJ);

				if (!r->energy)
					e.mean = NAN;	/* none recorded: not reported */
				if (r->m != em[k])
					cell_blank(&t);
				else
					cell_mv(&t, e, dec_mj[k], 0);
			}
		}
		for (i = tg->first; page == 0 && i < tg->first + tg->n; i++) {
			const struct vocc *o = &v->occ[i];
			const struct vrun *r = &v->r[o->run];
			struct mv q = occ_hl(v, i, HL_RPS);

			if (isfinite(q.mean)) {
				size_t nd = 0;
				double *dots = r->summary ? NULL : round_values(v, o->run, ti, 0, &nd);

				buf_reset(&b);
				buf_addf(&b, "%s" MIDDOT "%s", r->when, v->m[r->m].key);
				series_add(&srps, b.ptr, q.mean, q.sd, dots, nd);
			}
		}
		table_note(&t, nem > TARGET_ENERGY_COLS ? "Empty energy cells: that run's machine has no "
				"energy figures for this target." :
			       nem ? "Empty cells: that run is on another machine, whose energy is "
				     "not comparable with this column's." : NULL);
		json_object_set_new(view, "headline", cross_done(v, &t, 1));
		set_s(view, "headline_note",
		      "One row per run that has this target, on any machine. Throughput and energy per "
		      "request are the run's headline (mean \xc2\xb1 1 SD over the rounds; a published "
		      "figure is one value, with the SD its source gave, if any). Runs that publish only "
		      "per-route figures say \xe2\x80\x9cper route\xe2\x80\x9d: see below.");

		if (srps.n >= 2) {
			buf_reset(&cap);
			buf_addstr(&cap, "Headline throughput of ");
			buf_addstr(&cap, tg->name);
			buf_addstr(&cap, " in every run that reports it, req/s, labelled by date and "
				   "machine. Bars: mean; whiskers: \xc2\xb1" "1 SD over the rounds; dots: "
				   "each round. Different machines differ in hardware, not only in date.");
			chart_series(charts, &ids, "chart-rps", NULL, "Throughput across runs and machines",
				     "requests per second", cap.ptr, &srps);
		}
		/* a chart per machine up to TARGET_ENERGY_COLS machines; past
		 * them each machine's page has its own (200 charts made a
		 * 2.4 MB page at 5,000 runs, issue 19) */
		for (k = 0; page == 0 && k < nem && nem <= TARGET_ENERGY_COLS; k++) {
			struct series s = { 0 };

			for (i = tg->first; i < tg->first + tg->n; i++) {
				const struct vrun *r = &v->r[v->occ[i].run];
				struct mv e = occ_hl(v, i, HL_MJ);
				double *dots = NULL;
				size_t nd = 0;

				if (r->m != em[k] || !isfinite(e.mean))
					continue;
				if (!r->summary)
					dots = round_values(v, v->occ[i].run, ti, 1, &nd);
				buf_reset(&b);
				buf_addf(&b, "%s%s", r->when, r->summary ? " (published)" : "");
				series_add(&s, b.ptr, e.mean, e.sd, dots, nd);
			}
			if (s.n) {
				buf_reset(&cap);
				buf_addstr(&cap, "Energy per request of ");
				buf_addstr(&cap, tg->name);
				buf_addstr(&cap, " on ");
				buf_addstr(&cap, v->m[em[k]].label);
				buf_addstr(&cap, " only, mJ/req (gross SoC energy). Bars: mean; whiskers: "
					   "\xc2\xb1" "1 SD over the rounds; dots: each round (published "
					   "figures have none). One chart per machine: ");
				buf_addstr(&cap, caveat_devices);
				buf_addstr(&cap, ".");
				buf_reset(&b);
				buf_addf(&b, "Energy per request on %s", v->m[em[k]].label);
				chart_series(charts, &ids, "chart-mj-", v->m[em[k]].slug, b.ptr,
					     "mJ per request", cap.ptr, &s);
			}
			series_free(&s);
		}
		json_object_set_new(view, "charts", charts);
		buf_reset(&b);
		if (page == 0 && nem > TARGET_ENERGY_COLS)
			buf_addf(&b, "Energy per request of this target over time comes from %zu "
				 "machines: it is charted on each machine's page (linked from the "
				 "Machine column) with two runs of it or more, one chart per "
				 "machine, since energy is not comparable across machines.", nem);
		set_s(view, "charts_note", b.len ? b.ptr : NULL);

		/* per route: one row per run and route */
		cross_table(v, &rt, &ids, "tbl-routes", "Throughput per route in every run, newest first");
		table_col(&rt, "Route", NULL, 0);
		table_col(&rt, "Captured at", "UTC", 0);
		table_col(&rt, "Machine", NULL, 0);
		table_col(&rt, "Run", NULL, 0);
		table_col(&rt, "Throughput", "req/s, mean " PM " SD", 1);
		{
			double *y = xcalloc(tg->n + 1, sizeof(double));
			int dec;
			const struct rroute *r0;
			const char **sl = NULL;
			char **gl = NULL;
			double *gv = NULL, *ge = NULL;
			size_t ng = 0, ns = 0, *srun = NULL, g, s2;

			/* the decimals of every route of every run: of the smallest
			 * of each run's */
			for (i = 0; i < tg->n; i++) {
				const struct vocc *o = &v->occ[tg->first + i];

				y[i] = run_ent(v, o->run, o->idx)->route_min;
			}
			dec = numfmt_col_decimals(y, tg->n, 4, 2);
			free(y);
			for (i = hi + 1; i-- > lo;) {
				const struct vocc *o = &v->occ[i];
				const struct vrun *r = &v->r[o->run];
				size_t nq;

				r0 = occ_routes(v, i, &nq);
				for (j = 0; j < nq; j++) {
					const char *name = route_name(v, i, &r0[j]) ?
							   route_name(v, i, &r0[j]) : "";
					cross_row(v, &rt, &ids, "rt-", r->slug, name, name, NULL, NULL);
					cell_date(&rt, r->when);
					cell_key(&rt, v->m[r->m].key, href_machine(v, r->m, 2));
					cell_text(&rt, r->title, href_run(v, o->run, 2), run_sub(r));
					cell_route_rps(&rt, r->rec, &r0[j], dec);
				}
			}
			/* the chart, of every run with a route's figure, on the first page */
			for (i = tg->first; page == 0 && i < tg->first + tg->n; i++)
				if (run_ent(v, v->occ[i].run, v->occ[i].idx)->anyroute) {
					srun = xrealloc(srun, (ns + 1) * sizeof(*srun));
					srun[ns++] = i;
				}
			/* the routes of those runs, first seen first */
			for (s2 = 0; ns <= CHART_SERIES_MAX && s2 < ns; s2++) {
				size_t nq;

				r0 = occ_routes(v, srun[s2], &nq);
				for (j = 0; j < nq; j++) {
					const char *name = route_name(v, srun[s2], &r0[j]) ?
							   route_name(v, srun[s2], &r0[j]) : "";

					if (!isfinite(r0[j].rps.mean))
						continue;
					for (g = 0; g < ng && strcmp(gl[g], name); g++)
						;
					if (g == ng) {
						gl = xrealloc(gl, (ng + 1) * sizeof(*gl));
						gl[ng++] = xstrdup(name);
					}
				}
			}
			/* grouped bars: routes x runs, when the runs are few enough to tell apart */
			if (ng && ns && ns <= CHART_SERIES_MAX) {
				struct svg_frame f = { 0 };
				struct svg_groups gg = { 0 };
				struct buf svg = BUF_INIT, idb = BUF_INIT;
				char **labels = xcalloc(ns + 1, sizeof(char *));

				gv = xcalloc(ng * ns + 1, sizeof(double));
				ge = xcalloc(ng * ns + 1, sizeof(double));
				sl = xcalloc(ns + 1, sizeof(*sl));
				for (s2 = 0; s2 < ns; s2++) {
					const struct vocc *o = &v->occ[srun[s2]];
					const struct vrun *r = &v->r[o->run];
					size_t nq;
					const struct rroute *routes = occ_routes(v, srun[s2], &nq);

					buf_reset(&b);
					buf_addf(&b, "%s" MIDDOT "%s", r->when, v->m[r->m].key);
					labels[s2] = xstrdup(b.ptr);
					sl[s2] = labels[s2];
					for (g = 0; g < ng; g++) {
						gv[g * ns + s2] = NAN;
						ge[g * ns + s2] = NAN;
						for (j = 0; j < nq; j++)
							if (route_name(v, srun[s2], &routes[j]) &&
							    !strcmp(route_name(v, srun[s2], &routes[j]), gl[g])) {
								gv[g * ns + s2] = routes[j].rps.mean;
								ge[g * ns + s2] = routes[j].rps.sd;
								break;
							}
					}
				}
				gg.ngroups = ng;
				gg.nseries = ns;
				gg.group_labels = (const char *const *)gl;
				gg.series_labels = sl;
				gg.value = gv;
				gg.err = ge;
				f.id = id_make(&ids, &idb, "chart-routes", NULL, NULL);
				f.title = "Throughput per route";
				buf_reset(&cap);
				buf_addstr(&cap, "Throughput of ");
				buf_addstr(&cap, tg->name);
				buf_addstr(&cap, " per route, req/s, one bar per run (date and machine). "
					   "Whiskers: \xc2\xb1" "1 SD over the rounds where known. A route "
					   "missing from a run has no bar.");
				f.desc = cap.ptr;
				f.xlabel = "route";
				f.ylabel = "requests per second";
				svg_grouped_bars(&svg, &f, &gg);
				figure(rcharts, &svg, cap.ptr);
				for (s2 = 0; s2 < ns; s2++)
					free(labels[s2]);
				free(labels);
				buf_release(&svg);
				buf_release(&idb);
			}
			for (g = 0; g < ng; g++)
				free(gl[g]);
			free(gl);
			free(sl);
			free(gv);
			free(ge);
			free(srun);
		}
		json_object_set_new(view, "routes", cross_done(v, &rt, table_nrows(&rt) > 0));
		json_object_set_new(view, "route_charts", rcharts);
		set_s(view, "routes_note",
		      "Every route of this target in every run, with its throughput (mean \xc2\xb1 1 SD "
		      "where the run has rounds; a trials sweep at the highest x all the run's targets "
		      "share, named under the value). Route names are each run's own: equal names in two "
		      "runs need not be the same request. Energy per route is on the run pages.");

		rc = page_write_k(v, v->target, view, "targets/", tg->slug, page);
		json_decref(view);
		series_free(&srps);
		sset_free(&ids);
	}
	free(pg);
	free(prow);
	buf_release(&spanb);
	buf_release(&cav);
	free(em);
	free(ek);
	free(mach_seen);
	free(x);
	free(dec_mj);
	buf_release(&b);
	buf_release(&cap);
	return rc;
}

/* ------------------------------------------------------------------ */
/* compare/index.html */

/* Row id of (target, route) in the routes matrix, or NULL. */
static const char *
route_row_id(const struct rowrefs *refs, const char *target, const char *route)
{
	size_t i;

	for (i = 0; i < refs->n; i++)
		if (!strcmp(refs->v[i].target, target) && !strcmp(refs->v[i].route, route))
			return refs->v[i].id;
	return NULL;
}

/* A targets x runs matrix of a headline figure. */
static json_t *
matrix(struct views *v, struct sset *ids, const char *id, const char *caption,
       const size_t *runs, size_t nruns, int key, int machine_cols,
       const struct rowrefs *routes, size_t depth)
{
	struct tcol c = { NULL, NULL, 1, NULL, NULL, NULL, NULL };
	struct table t;
	struct buf u = BUF_INIT, tt = BUF_INIT;
	size_t *cols = xcalloc(nruns + 1, sizeof(size_t)), ncol = 0, i, k;
	int *dec = xcalloc(nruns + 1, sizeof(int)), thousands = key == HL_RPS;
	double *x = xcalloc(v->nt + 1, sizeof(double));

	for (i = 0; i < nruns; i++) {
		size_t n = 0;
		int any = 0;

		for (k = 0; k < v->r[runs[i]].ntargets; k++) {
			x[n] = ent_hl(v, runs[i], k, key).mean;
			any |= isfinite(x[n]) || (routes && run_ent(v, runs[i], k)->nroutes);
			if (n < v->nt)
				n++;
		}
		if (!any)
			continue;
		dec[ncol] = numfmt_col_decimals(x, n, 4, 2);
		cols[ncol++] = runs[i];
	}
	cross_table(v, &t, ids, id, caption);
	table_col(&t, "Target", NULL, 0);
	for (i = 0; i < ncol; i++) {
		const struct vrun *r = &v->r[cols[i]];

		buf_reset(&u);
		buf_reset(&tt);
		if (machine_cols)
			buf_addf(&u, "%s%s", v->m[r->m].key, r->summary ? MIDDOT "published" : "");
		else
			buf_addstr(&u, r->summary ? "published" : "measured");
		buf_addf(&tt, "%s (%s)", r->title, r->id);
		c.h = r->when;
		c.unit = u.ptr;
		c.href = href_run(v, cols[i], depth);
		c.title = tt.ptr;
		table_colx(&t, &c);
	}
	for (k = 0; k < v->nt; k++) {
		for (i = 0; i < ncol; i++) {
			size_t oi = occ_in(v, k, cols[i]);

			if (oi != SIZE_MAX && (isfinite(occ_hl(v, oi, key).mean) || routes))
				break;
		}
		if (i == ncol)
			continue;	/* not in these runs */
		cross_row(v, &t, ids, machine_cols ? "rps-" : "mj-", v->t[k].slug, NULL, v->t[k].name,
			       href_target(v, k, depth), NULL);
		for (i = 0; i < ncol; i++) {
			size_t oi = occ_in(v, k, cols[i]);
			struct mv m;
			const char *r0 = NULL, *rid;

			if (oi == SIZE_MAX) {
				cell_blank(&t);
				continue;
			}
			m = occ_hl(v, oi, key);
			/* its first route's name, when it is linked */
			if (!isfinite(m.mean) && routes && run_ent(v, cols[i], v->occ[oi].idx)->nroutes) {
				size_t nq;

				r0 = route_name(v, oi, occ_routes(v, oi, &nq));
			}
			if (!isfinite(m.mean) && routes && r0 &&
			    (rid = route_row_id(routes, v->t[k].name, r0))) {
				struct buf h = BUF_INIT;

				buf_addf(&h, "#%s", rid);
				cell_see(&t, "per route", json_string(h.ptr));
				buf_release(&h);
			} else {
				cell_mv(&t, m, dec[i], thousands);
			}
		}
	}
	free(cols);
	free(dec);
	free(x);
	buf_release(&u);
	buf_release(&tt);
	return cross_done(v, &t, ncol > 0);
}

/*
 * The compare matrices over runs all[0..nall) (date order), one page: rel
 * at depth below the root, title; periods: the navigation between the
 * pages of one machine (NULL: the archive's one page).
 */
static int
compare_body(struct views *v, const size_t *all, size_t nall, const char *rel, size_t depth,
	     const char *title, json_t *periods)
{
	struct sset ids = { 0 };
	struct rowrefs refs = { NULL, 0, 0 };
	json_t *view = page_view(title, depth), *energy = json_array(), *routes;
	size_t *er = xcalloc(nall + 1, sizeof(size_t));
	unsigned char *tseen = xcalloc(v->nt + 1, 1), *mseen = xcalloc(v->nm + 1, 1);
	size_t i, m, n, nempty = 0, nt = 0, nm = 0;
	struct buf b = BUF_INIT, idb = BUF_INIT;
	int rc;

	for (i = 0; i < nall; i++) {
		size_t j, k;

		nempty += v->r[all[i]].ntargets == 0;
		nm += !mseen[v->r[all[i]].m]++;
		for (j = 0; j < v->r[all[i]].ntargets; j++)
			if ((k = v->r[all[i]].tg[j]) < v->nt)
				nt += !tseen[k]++;
	}
	json_object_set_new(view, "periods", periods ? periods : json_array());
	buf_addf(&b, "%zu target%s" MIDDOT "%zu run%s on %zu machine%s, oldest first. Column "
		 "headings link to the runs, target names to the targets' pages.",
		 nt, nt == 1 ? "" : "s", nall, nall == 1 ? "" : "s", nm, nm == 1 ? "" : "s");
	set_s(view, "sub", b.ptr);
	routes = routes_matrix(v, &ids, all, nall, depth,
			       "Throughput per target and route, req/s (mean \xc2\xb1 SD where "
			       "known; a trials sweep at the highest x all its targets share, "
			       "named under the value); columns: runs, oldest first", 1, &refs);
	json_object_set_new(view, "rps",
			    matrix(v, &ids, "tbl-rps", "Headline throughput, req/s (mean \xc2\xb1 "
				   "SD where known); columns: runs, oldest first", all, nall, HL_RPS,
				   1, &refs, depth));
	buf_reset(&b);
	buf_addstr(&b, "One row per target, one column per run (date, then machine). A run's "
		   "headline throughput is over its headline routes; runs that publish only "
		   "per-route figures link to them (\xe2\x80\x9cper route\xe2\x80\x9d); an empty "
		   "cell: the target is not in that run. Throughput depends on the machine and "
		   "the load settings, which the run pages list.");
	if (nempty)
		buf_addf(&b, " %zu run%s without per-target figures (published tables only) %s "
			 "left out: see %s pages.", nempty, nempty == 1 ? "" : "s",
			 nempty == 1 ? "is" : "are", nempty == 1 ? "its" : "their");
	set_s(view, "rps_note", b.ptr);
	for (m = 0; m < v->nm; m++) {
		json_t *tb, *o;

		if (!mseen[m])
			continue;
		for (i = n = 0; i < nall; i++)
			if (v->r[all[i]].m == m && v->r[all[i]].energy)
				er[n++] = all[i];
		if (!n)
			continue;
		buf_reset(&b);
		buf_addf(&b, "Energy per request on %s, mJ/req (mean \xc2\xb1 SD)", v->m[m].label);
		buf_reset(&idb);
		buf_addf(&idb, "tbl-mj-%s", v->m[m].slug);
		tb = matrix(v, &ids, idb.ptr, b.ptr, er, n, HL_MJ, 0, NULL, depth);
		if (!json_array_size(tb)) {
			json_decref(tb);
			continue;
		}
		o = json_object();
		set_s(o, "id", id_make(&ids, &idb, "energy-", v->m[m].slug, NULL));
		set_s(o, "machine", v->m[m].label);
		buf_reset(&b);
		buf_addf(&b, "Energy: %s", v->m[m].key);
		set_s(o, "short", b.ptr);
		set_s(o, "note", "Gross SoC energy per request (request-weighted over each run's "
				 "headline routes), mean \xc2\xb1 1 SD over the rounds; published "
				 "columns are the source's figures. One matrix per machine: "
				 "powermetrics energy is an estimate and not comparable across "
				 "devices.");
		json_object_set_new(o, "tables", tb);
		json_array_append_new(energy, o);
	}
	json_object_set_new(view, "energy", energy);
	set_s(view, "no_energy", "No run in the archive has energy figures.");
	json_object_set_new(view, "routes", routes);
	set_s(view, "routes_note",
	      "Every (target, route) pair of every run that reports routes. Route names are the "
	      "runs' own: equal names in two runs need not be the same request.");
	rc = page_write(v, v->compare, view, rel, NULL);
	json_decref(view);
	sset_free(&ids);
	for (i = 0; i < refs.n; i++)
		free(refs.v[i].route);
	free(refs.v);
	free(er);
	free(tseen);
	free(mseen);
	buf_release(&b);
	buf_release(&idb);
	return rc;
}

static json_t *list_view(const char *title, const char *sub, json_t *tables,
			 const char *empty);
static int compare_unit(struct views *v, const size_t *all, size_t nall, const char *rel,
			size_t depth, const char *title, json_t *periods);

/* The year of a run's date ("2024"), or "undated". */
static void
period_of(const struct vrun *r, char out[16])
{
	if (r->date && iso_prefix(r->date) >= 10)
		snprintf(out, 16, "%.4s", r->date);
	else
		snprintf(out, 16, "undated");
}

struct cpage {			/* one compare page of a machine */
	size_t first, n;	/* runs: v->m[m].runs[first .. first + n) */
	char name[32];		/* its folder: "2024", "2024-2", "undated" */
};

/* A machine's runs in pages of at most COMPARE_MAX_RUNS, by year. */
static struct cpage *
compare_pages(const struct views *v, size_t mi, size_t *np)
{
	const struct vmach *m = &v->m[mi];
	struct cpage *pg = NULL;
	size_t i, j, n = 0, alloc = 0, k;
	char y[16], y2[16];

	for (i = 0; i < m->nruns; i = j) {
		period_of(&v->r[m->runs[i]], y);
		for (j = i; j < m->nruns; j++) {
			period_of(&v->r[m->runs[j]], y2);
			if (strcmp(y, y2))
				break;
		}
		for (k = 0; i + k * COMPARE_MAX_RUNS < j; k++) {
			ALLOC_GROW(pg, n + 1, alloc);
			pg[n].first = i + k * COMPARE_MAX_RUNS;
			pg[n].n = j - pg[n].first < COMPARE_MAX_RUNS ? j - pg[n].first : COMPARE_MAX_RUNS;
			if (k)
				snprintf(pg[n].name, sizeof(pg[n].name), "%s-%zu", y, k + 1);
			else
				snprintf(pg[n].name, sizeof(pg[n].name), "%s", y);
			n++;
		}
	}
	*np = n;
	return pg;
}

/*
 * compare/index.html.  An archive of at most COMPARE_MAX_RUNS runs has
 * one page, every run a column.  A larger one gets a page per machine and
 * year (split further past COMPARE_MAX_RUNS runs) at
 * compare/<machine>/<period>/index.html, each with the navigation between
 * its machine's periods, and compare/index.html lists them: no page grows
 * with the archive.
 */
static int
compare_page(struct views *v)
{
	struct sset ids = { 0 };
	struct table t;
	struct buf b = BUF_INIT, rel = BUF_INIT, span = BUF_INIT;
	size_t *all, i, mi, k, npg;
	json_t *view;
	int rc = 0;

	if (v->nr <= COMPARE_MAX_RUNS) {
		all = xcalloc(v->nr + 1, sizeof(size_t));
		for (i = 0; i < v->nr; i++)
			all[i] = i;
		rc = compare_unit(v, all, v->nr, "compare/index.html", 1, "Compare runs", NULL);
		free(all);
		return rc;
	}
	cross_table(v, &t, &ids, "tbl-compare", "Compare pages: one per machine and period");
	table_col(&t, "Machine", NULL, 0);
	table_col(&t, "Period", NULL, 0);
	table_col(&t, "Runs", NULL, 1);
	table_col(&t, "Captured", "first to last, UTC", 0);
	for (mi = 0; mi < v->nm && !rc; mi++) {
		const struct vmach *m = &v->m[mi];
		struct cpage *pg = compare_pages(v, mi, &npg);

		for (k = 0; k < npg && !rc; k++) {
			json_t *nav = json_array();
			size_t q;

			for (q = 0; q < npg; q++) {
				json_t *e = json_object();

				set_s(e, "text", pg[q].name);
				buf_reset(&b);
				buf_addf(&b, "../%s/index.html", pg[q].name);
				set_s(e, "href", q != k ? b.ptr : NULL);
				json_array_append_new(nav, e);
			}
			buf_reset(&rel);
			buf_addf(&rel, "compare/%s/%s/index.html", m->slug, pg[k].name);
			buf_reset(&b);
			buf_addf(&b, "Compare runs on %s, %s", m->label, pg[k].name);
			rc = compare_unit(v, m->runs + pg[k].first, pg[k].n, rel.ptr, 3, b.ptr, nav);
			buf_reset(&b);
			buf_addf(&b, "%s/%s/index.html", m->slug, pg[k].name);
			cross_row(v, &t, &ids, "c-", m->slug, pg[k].name, m->label,
				  json_string(b.ptr), NULL);
			cell_text(&t, pg[k].name, NULL, NULL);
			table_num(&t, (double)pg[k].n, NF_THOUS(0));
			buf_reset(&b);
			buf_reset(&span);
			span_text(v, m->runs + pg[k].first, pg[k].n, &b, &span);
			cell_date(&t, span.len ? span.ptr : NUM_MISSING);
		}
		free(pg);
	}
	buf_reset(&b);
	buf_addf(&b, "%zu runs on %zu machines: one compare page per machine and year (at most "
		 "%d runs each), every run a column.", v->nr, v->nm, COMPARE_MAX_RUNS);
	view = list_view("Compare runs", b.ptr, cross_done(v, &t, table_nrows(&t) > 0),
			 "No runs in the archive.");
	if (!rc)
		rc = page_write(v, v->list, view, "compare/index.html", NULL);
	json_decref(view);
	sset_free(&ids);
	buf_release(&b);
	buf_release(&rel);
	buf_release(&span);
	return rc;
}

/* ------------------------------------------------------------------ */
/* machines/index.html, targets/index.html, diffs/index.html */

static json_t *
list_view(const char *title, const char *sub, json_t *tables, const char *empty)
{
	json_t *view = page_view(title, 1);

	json_object_set_new(view, "pagenav", json_null());
	set_s(view, "sub", sub);
	json_object_set_new(view, "notes", json_array());
	json_object_set_new(view, "tables", tables);
	set_s(view, "empty", empty);
	return view;
}

static int
machines_list(struct views *v)
{
	struct sset ids = { 0 };
	struct table t;
	struct buf b = BUF_INIT, span = BUF_INIT;
	json_t *view;
	size_t i, j;
	int rc;

	cross_table(v, &t, &ids, "tbl-machines", "Machines");
	table_col(&t, "Machine", NULL, 0);
	table_col(&t, "Runs", NULL, 1);
	table_col(&t, "Energy sessions", NULL, 1);
	table_col(&t, "Targets", NULL, 1);
	table_col(&t, "Captured", "first to last, UTC", 0);
	for (i = 0; i < v->nm; i++) {
		const struct vmach *m = &v->m[i];
		cross_row(v, &t, &ids, "m-", m->slug, NULL, m->label, href_machine(v, i, 1), NULL);
		size_t ne = 0, nt = 0;

		for (j = 0; j < m->nruns; j++)
			ne += !v->r[m->runs[j]].summary;
		nt = m->ntargets;
		table_num(&t, (double)m->nruns, NF_THOUS(0));
		table_num(&t, (double)ne, NF_THOUS(0));
		table_num(&t, (double)nt, NF_THOUS(0));
		buf_reset(&b);
		buf_reset(&span);
		span_text(v, m->runs, m->nruns, &b, &span);
		cell_date(&t, span.len ? span.ptr : NUM_MISSING);
	}
	buf_reset(&b);
	buf_addf(&b, "%zu machine%s: each one's runs over time, its idle power, and its targets' "
		 "history.", v->nm, v->nm == 1 ? "" : "s");
	view = list_view("Machines", b.ptr, cross_done(v, &t, table_nrows(&t) > 0),
			 "No runs in the archive.");
	rc = page_write(v, v->list, view, "machines/index.html", NULL);
	json_decref(view);
	sset_free(&ids);
	buf_release(&b);
	buf_release(&span);
	return rc;
}

static int
targets_list(struct views *v)
{
	struct sset ids = { 0 };
	struct table t;
	struct buf b = BUF_INIT, span = BUF_INIT;
	json_t *view;
	size_t i, j;
	int rc;

	cross_table(v, &t, &ids, "tbl-targets", "Targets");
	table_col(&t, "Target", NULL, 0);
	table_col(&t, "Machines", NULL, 1);
	table_col(&t, "Runs", NULL, 1);
	table_col(&t, "With energy", "runs", 1);
	table_col(&t, "Captured", "first to last, UTC", 0);
	for (i = 0; i < v->nt; i++) {
		const struct vtgt *tg = &v->t[i];
		cross_row(v, &t, &ids, "t-", tg->slug, NULL, tg->name, href_target(v, i, 1), NULL);
		size_t nm = 0, ne = 0, *runs = xcalloc(tg->n + 1, sizeof(size_t));
		unsigned char *seen = xcalloc(v->nm + 1, 1);

		for (j = 0; j < tg->n; j++) {
			const struct vocc *o = &v->occ[tg->first + j];

			runs[j] = o->run;
			if (!seen[v->r[o->run].m]++)
				nm++;
			ne += v->r[o->run].energy && isfinite(occ_hl(v, tg->first + j, HL_MJ).mean);
		}
		table_num(&t, (double)nm, NF_THOUS(0));
		table_num(&t, (double)tg->n, NF_THOUS(0));
		table_num(&t, (double)ne, NF_THOUS(0));
		buf_reset(&b);
		buf_reset(&span);
		span_text(v, runs, tg->n, &b, &span);
		cell_date(&t, span.len ? span.ptr : NUM_MISSING);
		free(runs);
		free(seen);
	}
	buf_reset(&b);
	buf_addf(&b, "%zu target%s: each one on every machine and date.", v->nt,
		 v->nt == 1 ? "" : "s");
	view = list_view("Targets", b.ptr, cross_done(v, &t, table_nrows(&t) > 0),
			 "No run in the archive has per-target figures.");
	rc = page_write(v, v->list, view, "targets/index.html", NULL);
	json_decref(view);
	sset_free(&ids);
	buf_release(&b);
	buf_release(&span);
	return rc;
}

static int
diffs_list(struct views *v)
{
	struct sset ids = { 0 };
	struct buf b = BUF_INIT;
	json_t *view, *notes;
	int rc;

	buf_addf(&b, "%zu diff page%s: run B against run A, per target and metric, over the "
		 "per-round values (erg diff).", v->nd, v->nd == 1 ? "" : "s");
	view = list_view("Diffs", b.ptr, diffs_table(v, &ids, 1, v->nm, SIZE_MAX),
			 "No diff pages: they need two measured runs (energy sessions or trials "
			 "runs) of one machine sharing a target, or a pair listed in the "
			 "archive's diffs.txt.");
	notes = json_object_get(view, "notes");
	json_array_append_new(notes, S("Made for each pair of consecutive measured runs (energy "
				       "sessions or trials runs) of one machine that share a "
				       "target, and for each pair \xe2\x80\x9c" "A B\xe2\x80\x9d "
				       "(run ids) listed in the archive's diffs.txt."));
	if (v->nskipped) {
		buf_reset(&b);
		buf_addf(&b, "%zu summary run%s (published figures) %s not paired automatically; "
			 "a pair listed in diffs.txt is compared cell by cell without a "
			 "significance test (one value per cell).", v->nskipped,
			 v->nskipped == 1 ? "" : "s", v->nskipped == 1 ? "is" : "are");
		json_array_append_new(notes, S(b.ptr));
	}
	if (v->nsingle) {
		buf_reset(&b);
		buf_addf(&b, "%zu session%s of a single round (such as a CPU-time attribution "
			 "pass) %s not paired automatically: one value per cell has no spread "
			 "to test; list a pair in diffs.txt to compare it.", v->nsingle,
			 v->nsingle == 1 ? "" : "s", v->nsingle == 1 ? "is" : "are");
		json_array_append_new(notes, S(b.ptr));
	}
	rc = page_write(v, v->list, view, "diffs/index.html", NULL);
	json_decref(view);
	sset_free(&ids);
	buf_release(&b);
	return rc;
}

/* A diff by its runs (indexes in date order), for newest B first. */
struct dkey {
	size_t b, a, i;
};

static int
cmp_dkey_newest(const void *pa, const void *pb)
{
	const struct dkey *a = pa, *b = pb;

	if (a->b != b->b)
		return a->b < b->b ? 1 : -1;
	return (a->a < b->a) - (a->a > b->a);
}

/* diffs/by-machine/<slug>/index.html (and page-2.html, ...): the diffs
 * whose B run is on machine mi, newest first.  Their count in *n. */
static int
diffs_machine(struct views *v, size_t mi, size_t *n)
{
	const struct vmach *m = &v->m[mi];
	size_t *idx = xcalloc(m->ndiffs + 1, sizeof(size_t)), *rows, np, k, q;
	struct dkey *dk = xcalloc(m->ndiffs + 1, sizeof(*dk));
	struct lpage *pg;
	struct buf b = BUF_INIT, dir = BUF_INIT;
	int rc = 0;

	*n = 0;
	for (q = 0; q < m->ndiffs; q++)
		if (v->r[v->d[m->diffs[q]].b].m == mi) {
			dk[*n].b = v->d[m->diffs[q]].b;
			dk[*n].a = v->d[m->diffs[q]].a;
			dk[(*n)++].i = m->diffs[q];
		}
	qsort(dk, *n, sizeof(*dk), cmp_dkey_newest);
	for (q = 0; q < *n; q++)
		idx[q] = dk[q].i;
	free(dk);
	if (!*n) {
		free(idx);
		return 0;
	}
	rows = xcalloc(*n + 1, sizeof(size_t));
	for (q = 0; q < *n; q++)
		rows[q] = 1;
	pg = list_pages(v, rows, *n, &np);
	buf_addf(&dir, "diffs/by-machine/");
	for (k = 0; k < np && !rc; k++) {
		struct sset ids = { 0 };
		json_t *view;

		buf_reset(&b);
		buf_addf(&b, "Diffs on %s", m->label);
		view = page_view(b.ptr, 3);
		buf_reset(&b);
		buf_addf(&b, "%zu diff page%s whose run B is on this machine, newest first.", *n,
			 *n == 1 ? "" : "s");
		set_s(view, "sub", b.ptr);
		json_object_set_new(view, "notes", json_array());
		json_object_set_new(view, "pagenav", page_nav(k, np, *n, "diffs"));
		json_object_set_new(view, "tables", diffs_table_of(v, &ids, 3, idx + pg[k].first,
								   pg[k].n));
		set_s(view, "empty", "No diff pages.");
		rc = page_write_k(v, v->list, view, dir.ptr, m->slug, k);
		json_decref(view);
		sset_free(&ids);
	}
	free(pg);
	free(rows);
	free(idx);
	buf_release(&b);
	buf_release(&dir);
	return rc;
}

/* More diffs than a page takes: diffs/index.html lists the machines, each
 * with its diff list (issue 19). */
static int
diffs_lists(struct views *v)
{
	struct sset ids = { 0 };
	struct table t;
	struct buf b = BUF_INIT;
	json_t *view;
	size_t mi, n, total = 0;
	int rc = 0;

	if (v->nd <= v->page_runs)
		return diffs_list(v);
	cross_table(v, &t, &ids, "tbl-diff-machines", "Diff lists, one per machine of run B");
	table_col(&t, "Machine", NULL, 0);
	table_col(&t, "Diffs", NULL, 1);
	for (mi = 0; mi < v->nm && !rc; mi++) {
		rc = diffs_machine(v, mi, &n);
		if (!n)
			continue;
		total += n;
		buf_reset(&b);
		buf_addf(&b, "by-machine/%s/index.html", v->m[mi].slug);
		cross_row(v, &t, &ids, "dm-", v->m[mi].slug, NULL, v->m[mi].label,
			  json_string(b.ptr), NULL);
		table_num(&t, (double)n, NF_THOUS(0));
	}
	if (!rc && total != v->nd)
		BUG("diffs_lists: %zu of %zu diffs listed", total, v->nd);
	buf_reset(&b);
	buf_addf(&b, "%zu diff pages: run B against run A, per target and metric, over the "
		 "per-round values (erg diff); one list per machine (of run B).", v->nd);
	view = list_view("Diffs", b.ptr, cross_done(v, &t, table_nrows(&t) > 0), "No diff pages.");
	if (!rc)
		rc = page_write(v, v->list, view, "diffs/index.html", NULL);
	json_decref(view);
	sset_free(&ids);
	buf_release(&b);
	return rc;
}

/* ------------------------------------------------------------------ */
/* search/ (render/page_search.h): every run newest first, the machines and
 * the targets; a shard holds the runs of SEARCH_SHARD_PAGES list pages. */

static int
search_page(struct views *v)
{
	struct search_run *runs = xcalloc(v->nr + 1, sizeof(*runs));
	struct search_machine *ms = xcalloc(v->nm + 1, sizeof(*ms));
	struct search_target *ts = xcalloc(v->nt + 1, sizeof(*ts));
	struct search_src s = { runs, v->nr, ms, v->nm, ts, v->nt,
				v->page_runs * SEARCH_SHARD_PAGES };
	size_t i, k = 0;
	int rc;

	for (i = v->nr; i-- > 0; k++) {
		const struct vrun *r = &v->r[i];

		runs[k] = (struct search_run){ .id = r->id, .title = r->title, .machine = r->m,
					       .date = r->when, .href = r->href, .tg = r->tg,
					       .ntg = r->ntargets };
		period_of(r, runs[k].year);
	}
	for (i = 0; i < v->nm; i++)
		ms[i] = (struct search_machine){ v->m[i].key, v->m[i].label, v->m[i].slug,
						 v->m[i].nruns };
	for (i = 0; i < v->nt; i++)
		ts[i] = (struct search_target){ v->t[i].name, v->t[i].slug };
	rc = search_write(v->c, v->search, &s);
	free(runs);
	free(ms);
	free(ts);
	return rc;
}

/* ------------------------------------------------------------------ */
/* units of pages for incremental builds (views_deps in page_views.h) */

struct unit {
	struct sha256 c;
	const char **runs;
	size_t nruns, aruns;
	unsigned inputs;
	int bad;		/* a run without a key: always render */
};

static void
mat_str(struct unit *u, const char *s)
{
	if (s)
		sha256_add(&u->c, s, strlen(s) + 1);
	else
		sha256_add(&u->c, "\xff", 1);	/* never part of UTF-8 */
}

static void
mat_num(struct unit *u, long long n)
{
	char b[32];
	int k = snprintf(b, sizeof(b), "%lld;", n);

	sha256_add(&u->c, b, (size_t)k);
}

static void
mat_machine(struct unit *u, const struct vmach *m)
{
	mat_str(u, m->key);
	mat_str(u, m->label);
	mat_str(u, m->slug);
}

/* Everything a page that lists run ri shows of it and of its names;
 * names: its targets' names too (not on a target's page, which shows only
 * its own target of each run). */
static void
mat_run(struct views *v, struct unit *u, size_t ri, int names)
{
	const struct vrun *r = &v->r[ri];
	unsigned char key[32];
	size_t j;

	mat_str(u, "run");
	mat_str(u, r->id);
	if (v->deps->run_key(v->deps->ctx, r->id, key))
		u->bad = 1;
	else
		sha256_add(&u->c, key, 32);
	mat_str(u, r->slug);
	mat_machine(u, &v->m[r->m]);
	for (j = 0; names && j < r->ntargets; j++) {
		size_t k = r->tg[j];

		if (k >= v->nt) {
			mat_str(u, NULL);
			continue;
		}
		mat_str(u, v->t[k].key);
		mat_str(u, v->t[k].name);
		mat_str(u, v->t[k].slug);
		mat_str(u, rs(r->rec, run_ent(v, ri, j)->spelling));
	}
	if (v->aliases && v->aliases->n)
		u->inputs |= VIEWS_IN_TARGETS;
	ALLOC_GROW(u->runs, u->nruns + 1, u->aruns);
	u->runs[u->nruns++] = r->id;
}

static void
mat_diff(struct views *v, struct unit *u, size_t di)
{
	const struct vdiff *d = &v->d[di];

	mat_str(u, "diff");
	mat_str(u, d->slug);
	mat_num(u, d->line);
	mat_num(u, (long long)d->shared);
	mat_run(v, u, d->a, 1);
	mat_run(v, u, d->b, 1);
	if (d->line)
		u->inputs |= VIEWS_IN_DIFFS;
}

/* A unit's key starts with its kind and the page size (ERG_PAGE_ROWS,
 * which the tests change: pages split otherwise are not carried over). */
static void
unit_begin(const struct views *v, struct unit *u, const char *kind)
{
	memset(u, 0, sizeof(*u));
	sha256_begin(&u->c);
	mat_str(u, kind);
	mat_num(u, (long long)v->page_runs);
}

/* 1: the unit was carried over, do not render it. */
static int
unit_carried(struct views *v, struct unit *u, const char *name, long long counts[3])
{
	unsigned char key[32];
	long long dummy[3] = { 0, 0, 0 };
	int rc;

	sha256_end(&u->c, key);
	rc = v->deps->unit(v->deps->ctx, name, u->bad ? NULL : key, u->runs, u->nruns,
			   u->inputs, counts ? counts : dummy);
	free(u->runs);
	return rc;
}

static int
machine_unit(struct views *v, size_t mi)
{
	const struct vmach *m = &v->m[mi];
	struct unit u;
	struct buf name = BUF_INIT;
	size_t i;
	int rc;

	if (!v->deps)
		return machine_page(v, mi);
	unit_begin(v, &u, "machine");
	mat_machine(&u, m);
	mat_num(&u, v->nskipped > 0);
	mat_num(&u, v->nr > COMPARE_MAX_RUNS);
	for (i = 0; i < m->nruns; i++)
		mat_run(v, &u, m->runs[i], 1);
	for (i = 0; i < m->ndiffs; i++) {
		const struct vdiff *d = &v->d[m->diffs[i]];

		mat_diff(v, &u, m->diffs[i]);
		mat_num(&u, d->untested);
		mat_num(&u, (long long)d->rows);
		mat_num(&u, (long long)d->significant);
	}
	buf_addf(&name, "machines/%s/", m->slug);
	rc = unit_carried(v, &u, name.ptr, NULL) ? 0 : machine_page(v, mi);
	if (!rc)
		v->deps->end(v->deps->ctx, NULL);
	buf_release(&name);
	return rc;
}

static int
target_unit(struct views *v, size_t ti)
{
	const struct vtgt *tg = &v->t[ti];
	struct unit u;
	struct buf name = BUF_INIT;
	size_t i;
	int rc;

	if (!v->deps)
		return target_page(v, ti);
	unit_begin(v, &u, "target");
	mat_str(&u, tg->key);
	mat_str(&u, tg->name);
	mat_str(&u, tg->slug);
	for (i = tg->first; i < tg->first + tg->n; i++) {
		mat_num(&u, (long long)v->occ[i].idx);
		mat_run(v, &u, v->occ[i].run, 0);
	}
	buf_addf(&name, "targets/%s/", tg->slug);
	rc = unit_carried(v, &u, name.ptr, NULL) ? 0 : target_page(v, ti);
	if (!rc)
		v->deps->end(v->deps->ctx, NULL);
	buf_release(&name);
	return rc;
}

/* One compare page over runs all[0..nall); nav: the names of its
 * machine's pages (NULL: the archive's one page). */
static int
compare_unit(struct views *v, const size_t *all, size_t nall, const char *rel, size_t depth,
	     const char *title, json_t *periods)
{
	struct unit u;
	size_t i;
	int rc;

	if (!v->deps)
		return compare_body(v, all, nall, rel, depth, title, periods);
	unit_begin(v, &u, "compare");
	mat_str(&u, rel);
	mat_str(&u, title);
	if (periods) {
		char *nav = json_dumps(periods, JSON_COMPACT | JSON_SORT_KEYS);

		mat_str(&u, nav ? nav : "?");
		if (!nav)
			u.bad = 1;
		free(nav);
	}
	for (i = 0; i < nall; i++)
		mat_run(v, &u, all[i], 1);
	if (unit_carried(v, &u, rel, NULL)) {
		json_decref(periods);
		return 0;
	}
	rc = compare_body(v, all, nall, rel, depth, title, periods);
	if (!rc)
		v->deps->end(v->deps->ctx, NULL);
	return rc;
}

void
views_set_deps(struct views *v, const struct views_deps *d)
{
	v->deps = d;
}

int
views_diff_carried(struct views *v, size_t i)
{
	struct vdiff *d = &v->d[i];
	struct unit u;
	struct buf name = BUF_INIT;
	long long counts[3] = { 0, 0, 0 };
	int carried;

	if (!v->deps)
		return 0;
	unit_begin(v, &u, "diff");
	mat_diff(v, &u, i);
	buf_addf(&name, "diffs/%s/", d->slug);
	carried = unit_carried(v, &u, name.ptr, counts);
	buf_release(&name);
	if (carried) {
		d->untested = counts[0] != 0;
		d->rows = (size_t)counts[1];
		d->significant = (size_t)counts[2];
		d->done = 1;
	}
	return carried;
}

/* ------------------------------------------------------------------ */
/* years/<year>/index.html: every run of a year, past VIEWS_INDEX_RUNS runs */

/* The runs of the year of v->r[i]: [i, returned) (v->r is in date order). */
static size_t
year_end(const struct views *v, size_t i, char y[16])
{
	char y2[16];
	size_t j;

	period_of(&v->r[i], y);
	for (j = i; j < v->nr; j++) {
		period_of(&v->r[j], y2);
		if (strcmp(y, y2))
			break;
	}
	return j;
}

static int
year_pages(struct views *v, size_t first, size_t end, const char *y)
{
	size_t n = end - first, *ord = xcalloc(n + 1, sizeof(size_t));
	size_t *rows = xcalloc(n + 1, sizeof(size_t)), i, k, np;
	struct lpage *pg;
	struct buf b = BUF_INIT;
	int rc = 0;

	for (i = 0; i < n; i++) {
		ord[i] = end - 1 - i;
		rows[i] = 1;
	}
	pg = list_pages(v, rows, n, &np);
	for (k = 0; k < np && !rc; k++) {
		struct sset ids = { 0 };
		struct table t;
		json_t *view;

		cross_table(v, &t, &ids, "tbl-runs", "Runs of the year, newest first");
		table_col(&t, "Run", NULL, 0);
		table_col(&t, "Captured at", "UTC", 0);
		table_col(&t, "Machine", NULL, 0);
		table_col(&t, "Kind", NULL, 0);
		table_col(&t, "Targets", NULL, 1);
		table_col(&t, "Energy", "source", 0);
		for (i = pg[k].first; i < pg[k].first + pg[k].n; i++) {
			const struct vrun *r = &v->r[ord[i]];

			cross_row(v, &t, &ids, "run-", r->slug, NULL, r->title, href_run(v, ord[i], 2),
				  run_sub(r));
			cell_date(&t, r->when);
			cell_key(&t, v->m[r->m].key, href_machine(v, r->m, 2));
			cell_word(&t, kind_text(r));
			table_num(&t, (double)r->ntargets, NF_THOUS(0));
			cell_word(&t, energy_text(r));
		}
		buf_reset(&b);
		buf_addf(&b, "Runs of %s", y);
		view = page_view(b.ptr, 2);
		buf_reset(&b);
		buf_addf(&b, "%zu run%s on every machine, newest first.", n, n == 1 ? "" : "s");
		set_s(view, "sub", b.ptr);
		json_object_set_new(view, "notes", json_array());
		json_object_set_new(view, "pagenav", page_nav(k, np, n, "runs"));
		json_object_set_new(view, "tables", cross_done(v, &t, 1));
		set_s(view, "empty", "No runs.");
		rc = page_write_k(v, v->list, view, "years/", y, k);
		json_decref(view);
		sset_free(&ids);
	}
	free(pg);
	free(rows);
	free(ord);
	buf_release(&b);
	return rc;
}

/* years/index.html and a page (or more) per year, for an index that shows
 * only the newest runs. */
static int
years_pages(struct views *v)
{
	struct sset ids = { 0 };
	struct table t;
	struct buf b = BUF_INIT;
	json_t *view;
	size_t i, j, *start = xcalloc(v->nr + 1, sizeof(size_t)), ny = 0;
	char y[16];
	int rc = 0;

	if (v->nr <= VIEWS_INDEX_RUNS) {
		free(start);
		return 0;
	}
	for (i = 0; i < v->nr; i = j) {
		j = year_end(v, i, y);
		start[ny++] = i;
	}
	start[ny] = v->nr;
	cross_table(v, &t, &ids, "tbl-years", "Runs per year, newest first");
	table_col(&t, "Year", NULL, 0);
	table_col(&t, "Runs", NULL, 1);
	for (i = ny; i-- > 0 && !rc;) {
		period_of(&v->r[start[i]], y);
		rc = year_pages(v, start[i], start[i + 1], y);
		buf_reset(&b);
		buf_addf(&b, "%s/index.html", y);
		cross_row(v, &t, &ids, "y-", y, NULL, y, json_string(b.ptr), NULL);
		table_num(&t, (double)(start[i + 1] - start[i]), NF_THOUS(0));
	}
	buf_reset(&b);
	buf_addf(&b, "%zu runs: every run of each year, on every machine.", v->nr);
	view = list_view("Runs per year", b.ptr, cross_done(v, &t, 1), "No runs.");
	if (!rc)
		rc = page_write(v, v->list, view, "years/index.html", NULL);
	json_decref(view);
	sset_free(&ids);
	buf_release(&b);
	free(start);
	return rc;
}

/* views_index_lists() of the views' runs */
static json_t *
index_lists(struct views *v)
{
	json_t *o = json_object(), *m = json_array(), *yl = json_array();
	size_t i, j;
	char y[16];

	for (i = 0; i < v->nm; i++) {
		json_t *e = json_object();

		set_s(e, "text", v->m[i].label);
		json_object_set_new(e, "href", href_machine(v, i, 0));
		json_object_set_new(e, "nruns", json_integer((json_int_t)v->m[i].nruns));
		json_array_append_new(m, e);
	}
	for (i = 0; i < v->nr; i = j) {
		json_t *e = json_object();
		struct buf b = BUF_INIT;

		j = year_end(v, i, y);
		buf_addf(&b, "years/%s/index.html", y);
		set_s(e, "text", y);
		set_s(e, "href", b.ptr);
		json_object_set_new(e, "nruns", json_integer((json_int_t)(j - i)));
		json_array_insert_new(yl, 0, e);	/* newest first */
		buf_release(&b);
	}
	json_object_set_new(o, "machines", m);
	json_object_set_new(o, "years", yl);
	return o;
}

static json_t *
all_summary(void *ctx, size_t i, size_t *bytes)
{
	*bytes = 0;	/* the caller's: held anyway */
	return json_incref(json_array_get(ctx, i));
}

void
views_src_all(struct views_src *src, json_t *all, const struct target_aliases *aliases)
{
	struct views_run **runs = xcalloc(json_array_size(all) + 1, sizeof(*runs));
	size_t i;

	for (i = 0; i < json_array_size(all); i++)
		runs[i] = views_run_make(json_array_get(all, i), aliases);
	src->runs = runs;
	src->n = json_array_size(all);
	src->summary = all_summary;
	src->ctx = all;
}

void
views_src_free(struct views_src *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		views_run_free(src->runs[i]);
	free((void *)src->runs);
	memset(src, 0, sizeof(*src));
}

json_t *
views_index_lists(json_t *all)
{
	struct views v;
	struct views_src src;
	json_t *o;

	memset(&v, 0, sizeof(v));
	views_src_all(&src, all, NULL);
	views_load(&v, &src);
	o = index_lists(&v);
	views_free(&v);
	views_src_free(&src);
	return o;
}

static const json_t *
index_get(void *ctx, size_t i)
{
	return run_res(ctx, i);
}

int
views_index(struct views *v)
{
	struct index_run *ir = xcalloc(v->nr + 1, sizeof(*ir));
	json_t *lists = v->nr > VIEWS_INDEX_RUNS ? index_lists(v) : NULL;
	size_t i;
	int rc;

	for (i = 0; i < v->nr; i++) {
		ir[i].id = v->r[i].id;
		ir[i].key = v->m[v->r[i].m].key;
		ir[i].label = v->r[i].mlabel;
		ir[i].date = v->r[i].date;
	}
	rc = render_index_runs(v->c, ir, v->nr, index_get, v, lists);
	json_decref(lists);
	free(ir);
	return rc || v->err ? -1 : 0;
}

/* ------------------------------------------------------------------ */

/*
 * A size the tests set through the environment, dflt when unset; anything
 * but a whole number from 1 to 1000000 is an error.  ERG_PAGE_ROWS: the
 * runs of a list page (PAGE_RUNS), so pagination shows on a small
 * archive; ERG_VIEW_CACHE: the summaries the views keep at most
 * (run_res(); VIEWS_CACHE_RUNS), 1 so that any pointer kept into one is
 * freed by the next read.
 */
static int
env_size(const char *name, size_t dflt, size_t *out)
{
	const char *e = getenv(name);
	int64_t n;

	*out = dflt;
	if (!e)
		return 0;
	if (parse_i64(e, &n) || n < 1 || n > 1000000)
		return error("%s must be a whole number from 1 to 1000000, not '%s'", name, e);
	*out = (size_t)n;
	return 0;
}

struct views *
views_open(struct render_ctx *c, const struct views_src *src, const struct pair_list *listed,
	   const struct target_aliases *aliases)
{
	struct views *v = xcalloc(1, sizeof(*v));

	v->c = c;
	v->aliases = aliases;
	v->rows = render_rows(c);
	if (!(v->machine = tmpl_load(c->tmpl_dir, "views-machine")) ||
	    !(v->target = tmpl_load(c->tmpl_dir, "views-target")) ||
	    !(v->compare = tmpl_load(c->tmpl_dir, "views-compare")) ||
	    !(v->list = tmpl_load(c->tmpl_dir, "views-list")) ||
	    !(v->search = tmpl_load(c->tmpl_dir, "views-search")) ||
	    !(v->diff = diff_html_load(c->tmpl_dir, 0))) {
		views_close(v);
		return NULL;
	}
	if (env_size("ERG_PAGE_ROWS", PAGE_RUNS, &v->page_runs) ||
	    env_size("ERG_VIEW_CACHE", VIEWS_CACHE_RUNS, &v->cache_max)) {
		views_close(v);
		return NULL;
	}
	views_load(v, src);
	v->pgno = xcalloc(v->nr + 1, sizeof(size_t));
	diffs_collect(v, listed);
	return v;
}

size_t
views_npairs(const struct views *v)
{
	return v->nd;
}

void
views_pair(const struct views *v, size_t i, size_t *a, size_t *b)
{
	*a = v->r[v->d[i].a].si;
	*b = v->r[v->d[i].b].si;
}

int
views_diff_page(struct views *v, size_t i, json_t *doc)
{
	int rc = diff_page(v, i, doc);

	if (!rc && v->deps) {
		const struct vdiff *d = &v->d[i];
		long long counts[3] = { d->untested, (long long)d->rows, (long long)d->significant };

		v->deps->end(v->deps->ctx, counts);
	}
	return rc;
}

/*
 * The pages over every run first (the longest tasks: on two threads one
 * renders them while the other takes the machines and targets), then a
 * unit per machine and per target.  None reads what another writes: a
 * machine's pages set the list page numbers of its own runs only, which
 * no page over every run reads.
 */
static int (*const views_whole[])(struct views *) = {
	years_pages, search_page, compare_page, diffs_lists, machines_list, targets_list,
};
#define NWHOLE (sizeof(views_whole) / sizeof(views_whole[0]))

size_t
views_nunits(const struct views *v)
{
	size_t i;

	/* the machines' pages and the diff lists show every diff's counts */
	for (i = 0; i < v->nd; i++)
		if (!v->d[i].done)
			BUG("views_nunits: the page of diff pair %zu was not written", i);
	return NWHOLE + v->nm + v->nt;
}

int
views_render_unit(struct views *v, size_t i)
{
	if (i < NWHOLE)
		return views_whole[i](v);
	i -= NWHOLE;
	if (i < v->nm)
		return machine_unit(v, i);
	return target_unit(v, i - v->nm);
}

int
views_render(struct views *v)
{
	size_t i, n = views_nunits(v);

	for (i = 0; i < n; i++)
		if (views_render_unit(v, i))
			return -1;
	return 0;
}

struct views *
views_fork(const struct views *v, struct render_ctx *c, const struct views_deps *deps)
{
	struct views *w = xmalloc(sizeof(*w));

	*w = *v;
	w->c = c;
	w->deps = deps;
	/* the summaries' cache is the index's alone (run_res()) */
	w->cache = NULL;
	w->ncache = w->cache_bytes = 0;
	w->err = 0;
	buf_init(&w->scratch, 0);
	return w;
}

void
views_fork_free(struct views *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->ncache; i++)
		json_decref(w->cache[i].res);
	free(w->cache);
	buf_release(&w->scratch);
	free(w);
}

void
views_close(struct views *v)
{
	if (!v)
		return;
	views_free(v);
	free(v);
}

json_t *
render_views_links(json_t *all)
{
	struct views v;
	json_t *o = json_object(), *m = json_object(), *t = json_object(), *p = json_array();
	static const char *const pages[][2] = {
		{ "Machines", "machines/index.html" },
		{ "Targets", "targets/index.html" },
		{ "Compare", "compare/index.html" },
		{ "Diffs", "diffs/index.html" },
	};
	struct views_src src;
	size_t i;

	memset(&v, 0, sizeof(v));
	views_src_all(&src, all, NULL);
	views_load(&v, &src);
	for (i = 0; i < v.nm; i++)
		json_object_set_new(m, v.m[i].key, href_machine(&v, i, 0));
	for (i = 0; i < v.nt; i++)
		json_object_set_new(t, v.t[i].name, href_target(&v, i, 0));
	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		json_t *e = json_object();

		set_s(e, "text", pages[i][0]);
		set_s(e, "href", pages[i][1]);
		json_array_append_new(p, e);
	}
	json_object_set_new(o, "machines", m);
	json_object_set_new(o, "targets", t);
	json_object_set_new(o, "pages", p);
	views_free(&v);
	views_src_free(&src);
	return o;
}
