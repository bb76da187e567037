/*
 * test_prop.c - the property test of issue 14: for random single-field
 * corruptions of a session, erg either refuses it with a located error or
 * publishes exactly the figures the corruption predicts; it never
 * publishes other figures and says it succeeded.
 *
 * Sessions: the small hand-made one (tests/tools/mksmall.c) for volume,
 * the reference session (archive/m5-energy/2026-08-26T0856-saturated,
 * power file inflated) for fewer trials.  A trial changes ONE thing in
 * ONE file, chosen by a seeded generator: a JSON value (another number,
 * one out of range, another type, null, the member deleted or given twice,
 * a number's text made junk), a timeline line (deleted, doubled, swapped
 * with the next, its event renamed), a plist element (a number's text
 * changed to another number or junk, another element type, the key
 * renamed, deleted or doubled, a date moved) or a whole plist document
 * (deleted, doubled, swapped with the next).  Before erg runs, the trial
 * is put in a class:
 *
 *   a  structurally wrong (a wrong type, a duplicate, a contradiction
 *      between records or files, text that is no number): erg must fail
 *      with a located diagnostic (path:line: or path:@offset:), or, if it
 *      accepts the input, publish the intact figures exactly;
 *   b  a valid change of the data: erg must publish the intact figures
 *      with exactly that change.  The prediction applies the same change
 *      to the model ingested from the intact files (a window's new end, a
 *      sample's new energy, a document gone) and analyses that; so what is
 *      tested is that the reader maps each field to exactly its place in
 *      the model and nothing else.  A new energy counter is also checked
 *      against the fractional-overlap integral directly: exactly the
 *      windows overlapping that sample move, each by its overlap share of
 *      the change.  A few changes may be refused instead (a window moved
 *      onto its neighbour), always with a located error;
 *   c  erg must accept it and publish the intact figures (a heartbeat
 *      deleted, a key erg does not read changed).
 *
 * "Figures" are all of results.json's targets, measurements, idle_windows
 * and validation: every number and string, compared exactly.
 *
 * One corruption the reference session tells apart and the small one
 * cannot: a whole power document cut out of the middle.  The small
 * session's samples are exactly 1 s long and stamped on the second, so a
 * missing one moves the timestamps by exactly their resolution (see
 * gen/README.md, "The time axis is held against the timestamps"); there
 * only the first and the last document are deleted.
 *
 * Environment: PROP_ITER (trials on the small session, default 8000),
 * PROP_REF_ITER (on the reference session, default 300; under ERG_TEST_LIGHT
 * 200 and 6), PROP_SEED (default
 * 1), PROP_ONLY=S:N (run only trial N of session S, "small" or "ref", and
 * keep its files under /tmp), PROP_VERBOSE=1 (one line per trial).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze/analyze.h"
#include "base/buf.h"
#include "analyze/checks.h"
#include "analyze/integrate.h"
#include "analyze/results.h"
#include "ingest/session.h"
#include "base/util.h"
#include "harness.h"

/* ---- random numbers (splitmix64: the same trials on every machine) ---- */

static uint64_t rstate;

static uint64_t
rnd(void)
{
	uint64_t z = (rstate += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static size_t
rn(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

/* ---- what a trial does and predicts ----------------------------------- */

enum { CLS_A, CLS_B, CLS_C, NCLS };
static const char cls_name[NCLS] = { 'a', 'b', 'c' };

/* Changes to the intact model that predict a class-b trial's figures. */
enum {
	P_SESS,		/* session start and end: v, v2 */
	P_ROUTE,	/* measurement i, route j, field (RF_*) = v */
	P_MEAS,		/* measurement i, field (MF_*) = v */
	P_IDLE,		/* idle window i, field (IF_*) = v or s */
	P_IDLE_DEL,	/* idle window i removed */
	P_IDLE_SWAP,	/* idle windows i and i + 1 change places */
	P_ROUTE_SWAP,	/* routes j and j + 1 of measurement i change places */
	P_LOAD,		/* load result of measurement i, route j: field (LF_*) = v or s */
	P_SAMPLE,	/* sample i of the power file: every field from smp */
	P_SAMPLE_DEL,	/* sample i removed */
	P_SAMPLE_SWAP,	/* samples i and i + 1 change places */
	P_REFIT,	/* the time fit again, with the holes erg found */
};
enum { RF_START, RF_END, RF_RPS, RF_RPSSD, RF_RPS_LOAD, RF_RPSSD_LOAD };
enum { MF_START, MF_END, MF_STARTUP, MF_RSSB, MF_RSSA };
enum { IF_START, IF_END, IF_BSTART, IF_BEND, IF_KIND, IF_ID, IF_FOLLOWS };
enum { LF_CONN, LF_TT, LF_LMEAN, LF_LSD, LF_LMAX, LF_LAT, LF_RPS, LF_RPSSD, LF_URL };

/* A sample as the prediction sees it. */
struct xs {
	double ts, el, joules, pcl, ecl;
	int thermal;
};

struct patch {
	int op, field;
	size_t i, j;
	double v, v2;
	char *s;		/* owned; NULL is a valid value (absent) */
	struct xs smp;
};

#define MAXP 4

struct mut {
	struct buf desc;
	int cls;
	int may_refuse;		/* b: a located refusal is also right */
	size_t file;		/* index of the file replaced */
	struct buf text;	/* its new content */
	struct patch p[MAXP];
	int np;
	/* The energy of sample es alone changed by dj joules. */
	int echeck;
	size_t es;
	double dj;
	/* erg may find one hole of missing samples near sample hs (b: the
	 * prediction then takes its place and length from erg, after checking
	 * them against hole_ms, when that is > 0). */
	int hole;
	size_t hs;
	double hole_ms;
};

static struct patch *
add_patch(struct mut *mu, int op, size_t i, size_t j, int field, double v)
{
	struct patch *p;

	if (mu->np >= MAXP)
		BUG("too many patches");
	p = &mu->p[mu->np++];
	memset(p, 0, sizeof(*p));
	p->op = op;
	p->i = i;
	p->j = j;
	p->field = field;
	p->v = v;
	return p;
}

static void
mut_clear(struct mut *mu)
{
	int k;

	for (k = 0; k < mu->np; k++)
		free(mu->p[k].s);
	buf_release(&mu->desc);
	buf_release(&mu->text);
	memset(mu, 0, sizeof(*mu));
	buf_init(&mu->desc, 0);
	buf_init(&mu->text, 0);
}

/* ---- the sessions ----------------------------------------------------- */

struct file {
	char *rel;
	char *data;
	size_t len;
	json_t *json;		/* meta.json and load files, parsed */
	size_t m, j;		/* load files: the route they belong to */
};

/* One timeline line of the intact session. */
struct tline {
	char *text;
	json_t *o;
	const char *ev, *id;
	int has_ts;
	double ts;
	size_t m, j, idle;	/* model indexes of its measurement, route, idle window */
};

/* A window of the intact session, for the energy check. */
struct win {
	int idle;		/* 1: idle window i; 0: route j of measurement i */
	size_t i, j;
	double t0, t1;
};

/* A plist element of a document (see scan_doc). */
enum { T_DICT, T_ARRAY, T_INT, T_REAL, T_STR, T_DATE, T_TRUE, T_FALSE, T_DATA, T_EMPTY };

struct item {
	char path[96];
	int tag;
	int member;		/* a dict member (has a <key>), else an array element */
	size_t key_off;		/* start of its <key> (member) or of its element */
	size_t el_off, el_end;	/* the element */
	size_t tx_off, tx_end;	/* its text (leaves) */
};

struct sess {
	const char *name;
	char *top;		/* temporary directory holding both copies */
	char *dir;		/* working copy: trials write here */
	char *pristine;		/* intact copy: predictions read here */
	struct file *f;
	size_t nf;
	size_t meta, timeline, power;
	struct tline *tl;
	size_t ntl;
	size_t *by_ev[16];	/* lines by event */
	size_t nby_ev[16];
	/* the power file's documents: [doc[k], doc_end[k]) */
	size_t *doc, *doc_end;
	size_t ndoc;
	int phase_locked;	/* 1 s samples stamped on the second */
	/* the intact model */
	json_t *fig;
	struct psample *smp;
	size_t nsmp;
	struct win *win;
	size_t nwin;
	size_t nm, nidle;
	char **mid;		/* measurement ids */
	char **iid;		/* idle window ids */
	int (*tl_rps)[8], (*tl_rpssd)[8];	/* the timeline gives rpsMean, rpsStddev */
	double start_ms, end_ms;
	/* results */
	size_t n[NCLS], refused[NCLS], fail[NCLS], located_here[NCLS];
	size_t trials, energy_checked;
	size_t file_level;	/* refusals located by file only */
	char *fl[16];
	size_t nfl;
};

static const char *const events[] = {
	"sessionStart", "idleWindowStart", "idleWindow", "measurementStart",
	"routeComplete", "measurementComplete", "heartbeat", "sessionEnd",
	"sessionResumed",
};
#define NEV (sizeof(events) / sizeof(events[0]))

static int
ev_index(const char *ev)
{
	size_t i;

	for (i = 0; ev && i < NEV; i++)
		if (!strcmp(ev, events[i]))
			return (int)i;
	return -1;
}

static char *
read_file(const char *path, size_t *len)
{
	struct buf b = BUF_INIT;
	char tmp[65536];
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		die_errno("%s", path);
	while ((n = fread(tmp, 1, sizeof(tmp), fp)) > 0)
		buf_add(&b, tmp, n);
	fclose(fp);
	return buf_detach(&b, len);
}

static void
write_file(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp))
		die_errno("%s", path);
}

static void
sh(const char *fmt, ...)
{
	struct buf cmd = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	if (system(cmd.ptr))
		die("command failed: %s", cmd.ptr);
	buf_release(&cmd);
}

static void
add_file(struct sess *S, const char *rel)
{
	struct buf p = BUF_INIT;
	struct file *f;

	S->f = xrealloc(S->f, (S->nf + 1) * sizeof(*S->f));
	f = &S->f[S->nf++];
	memset(f, 0, sizeof(*f));
	f->rel = xstrdup(rel);
	buf_addf(&p, "%s/%s", S->pristine, rel);
	f->data = read_file(p.ptr, &f->len);
	buf_release(&p);
}

/* ---- running erg, in process ------------------------------------------ */

struct res {
	int rc;
	struct buf diag;
	json_t *fig;
	struct phole *holes;
	size_t nholes;
};

static struct sess *G;	/* the session of the trial (patches look at it) */
static int apply(struct run *r, const struct mut *mu, const struct res *got);

/* results.json's figures */
static json_t *
figures(json_t *res)
{
	static const char *const keys[] = { "targets", "measurements", "idle_windows",
					     "validation" };
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set(o, keys[i], json_object_get(res, keys[i]));
	return o;
}

/*
 * Read, analyse and check dir as `erg build` does (build_process()), with
 * the prediction's patches applied between ingest and analysis when mu is
 * given.
 */
static void
run_dir(const char *dir, const struct mut *mu, const struct res *got, struct res *out)
{
	struct run r;
	json_t *res;

	memset(out, 0, sizeof(*out));
	buf_init(&out->diag, 0);
	diag_capture(&out->diag);
	out->rc = session_read(dir, "prop", &r);
	if (!out->rc && r.npf && r.pf[0].nholes) {
		out->nholes = r.pf[0].nholes;
		out->holes = xmalloc(out->nholes * sizeof(*out->holes));
		memcpy(out->holes, r.pf[0].holes, out->nholes * sizeof(*out->holes));
	}
	if (!out->rc && mu)
		out->rc = apply(&r, mu, got);
	if (!out->rc)
		out->rc = analyze_run(&r);
	if (!out->rc) {
		r.validation = checks_run(&r);
		res = results_json(&r);
		out->fig = figures(res);
		json_decref(res);
	}
	diag_capture(NULL);
	run_free(&r);
}

static void
res_free(struct res *o)
{
	buf_release(&o->diag);
	json_decref(o->fig);
	free(o->holes);
	memset(o, 0, sizeof(*o));
}

/* ---- comparing figures ------------------------------------------------ */

static void
jtext(struct buf *b, json_t *v)
{
	char *s;

	if (!v) {
		buf_addstr(b, "(absent)");
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
	buf_add(b, s, strlen(s) > 120 ? 120 : strlen(s));
	free(s);
}

/* 0 if a and b are equal (numbers by value, exactly); else 1 and why. */
static int
jcmp(json_t *a, json_t *b, struct buf *path, struct buf *why)
{
	size_t len = path->len, i;
	const char *k;
	json_t *v;

	if (json_is_number(a) && json_is_number(b)) {
		if (json_number_value(a) == json_number_value(b))
			return 0;
	} else if (a && b && json_typeof(a) == json_typeof(b)) {
		switch (json_typeof(a)) {
		case JSON_OBJECT:
			if (json_object_size(a) != json_object_size(b))
				break;
			json_object_foreach(a, k, v) {
				buf_addf(path, ".%s", k);
				if (jcmp(v, json_object_get(b, k), path, why))
					return 1;
				buf_setlen(path, len);
			}
			return 0;
		case JSON_ARRAY:
			if (json_array_size(a) != json_array_size(b))
				break;
			for (i = 0; i < json_array_size(a); i++) {
				buf_addf(path, "[%zu]", i);
				if (jcmp(json_array_get(a, i), json_array_get(b, i), path, why))
					return 1;
				buf_setlen(path, len);
			}
			return 0;
		case JSON_STRING:
			if (!strcmp(json_string_value(a), json_string_value(b)))
				return 0;
			break;
		default:
			if (json_equal(a, b))
				return 0;
			break;
		}
	}
	buf_addf(why, "%s: got ", path->len ? path->ptr + 1 : "(top)");
	jtext(why, a);
	buf_addstr(why, ", want ");
	jtext(why, b);
	return 1;
}

/*
 * How the errors printed locate the problem: 2, one is "erg: PATH:LINE:
 * error:" or "PATH:@OFFSET: error:" with PATH inside dir; 1, none is, but
 * one names a file inside dir as a whole ("erg: PATH: error:", for what
 * has no line: a file erg cannot tell the format of); 0, neither.  *here:
 * one of them names the file rel.
 */
static int
located(const struct buf *d, const char *dir, const char *rel, int *here)
{
	const char *p = d->ptr, *q, *e;
	size_t n = strlen(dir), nr = strlen(rel);
	int best = 0;

	*here = 0;
	for (; *p; p = e + (*e == '\n')) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (strncmp(p, "erg: ", 5) || strncmp(p + 5, dir, n) || p[5 + n] != '/')
			continue;
		q = memchr(p + 5, ':', (size_t)(e - p - 5));
		if (!q)
			continue;
		if (!strncmp(q, ": error: ", 9)) {
			if (!best)
				best = 1;
		} else {
			if (q[1] == '@')
				q++;
			if (!isdigit((unsigned char)q[1]))
				continue;
			for (q++; isdigit((unsigned char)*q); q++)
				;
			if (strncmp(q, ": error: ", 9))
				continue;
			best = 2;
		}
		if (!strncmp(p + 6 + n, rel, nr) && p[6 + n + nr] == ':')
			*here = 1;
	}
	return best;
}

static const char *
first_error(const struct buf *d, struct buf *out)
{
	const char *p = strstr(d->ptr, ": error: "), *s, *e;

	buf_reset(out);
	if (!p)
		return "(no error printed)";
	for (s = p; s > d->ptr && s[-1] != '\n'; s--)
		;
	e = strchr(p, '\n');
	buf_add(out, s, e ? (size_t)(e - s) : strlen(s));
	return out->ptr;
}

/* ---- JSON values: another one of the same kind, one out of range ----- */

/* Value domains of the fields erg reads. */
enum {
	D_ANY,		/* not read: anything goes */
	D_NUM,		/* any finite number */
	D_TIME,		/* a time in ms: moved by a few ms to a minute */
	D_NN,		/* a number >= 0 */
	D_CNT,		/* a whole number >= 0 */
	D_SMALL,	/* a whole number 0..1000000 */
	D_STR, D_ID, D_BOOL, D_OBJ,
};

static json_t *
jnum(double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* Another valid value for a field of domain dom holding old (NULL: none). */
static json_t *
other_value(int dom, json_t *old, char **ids, size_t nids)
{
	static const double tdelta[] = { 1, 7, 250, 499, 999, 1500, 3000, 20000 };
	static const double mult[] = { 0.5, 0.9, 1.1, 2 };
	double o = json_is_number(old) ? json_number_value(old) : 0, v;
	char s[64];

	if (dom == D_ANY || dom == D_OBJ) {
		if (json_is_number(old))
			dom = D_NUM;
		else if (json_is_boolean(old))
			dom = D_BOOL;
		else
			dom = D_STR;
	}
	switch (dom) {
	case D_TIME:
		v = o + (rn(2) ? 1 : -1) * tdelta[rn(8)];
		return jnum(v);
	case D_NUM:
		switch (rn(4)) {
		case 0: v = o * 2 + 1; break;
		case 1: v = o / 2 + 0.25; break;
		case 2: v = -o - 1; break;
		default: v = o + 1; break;
		}
		return json_is_integer(old) && v == floor(v) ? jnum(v) : json_real(v);
	case D_NN:
		v = o > 0 ? o * mult[rn(4)] : 1.5;
		return json_is_integer(old) && v == floor(v) ? jnum(v) : json_real(v);
	case D_CNT:
		switch (rn(4)) {
		case 0: v = o + 1; break;
		case 1: v = o >= 1 ? o - 1 : o + 2; break;
		case 2: v = o ? 0 : 3; break;
		default: v = o * 2 + 1000; break;
		}
		return jnum(v);
	case D_SMALL:
		do
			v = (double)rn(8);
		while (v == o);
		return jnum(v);
	case D_ID:
		if (nids > 1 && rn(2)) {
			const char *c;

			do
				c = ids[rn(nids)];
			while (json_is_string(old) && !strcmp(c, json_string_value(old)));
			return json_string(c);
		}
		snprintf(s, sizeof(s), "zz-%u", (unsigned)rn(1000));
		return json_string(s);
	case D_BOOL:
		return json_boolean(!json_is_true(old));
	default:
		snprintf(s, sizeof(s), "%s-zz%u", json_is_string(old) ? json_string_value(old) : "",
			 (unsigned)rn(100));
		return json_string(s);
	}
}

static int
has_bad(int dom)
{
	return dom == D_NN || dom == D_CNT || dom == D_SMALL;
}

/* A number outside dom (NULL: dom has no such number). */
static json_t *
bad_value(int dom, json_t *old)
{
	double o = json_is_number(old) ? json_number_value(old) : 0;

	switch (dom) {
	case D_NN:
		return json_real(-(fabs(o) + 0.5));
	case D_CNT:
		return rn(2) ? jnum(-(fabs(o) + 1)) : json_real(o + 0.5);
	case D_SMALL:
		switch (rn(3)) {
		case 0: return jnum(-1);
		case 1: return json_real(2.5);
		default: return jnum(1e7);
		}
	default:
		return NULL;
	}
}

/* A value of another JSON type than old. */
static json_t *
type_value(json_t *old)
{
	char s[64];

	for (;;) {
		switch (rn(5)) {
		case 0:
			if (json_is_string(old))
				continue;
			if (json_is_number(old))
				snprintf(s, sizeof(s), "%.17g", json_number_value(old));
			else
				snprintf(s, sizeof(s), "x");
			return json_string(s);
		case 1:
			if (json_is_boolean(old))
				continue;
			return json_boolean(rn(2));
		case 2:
			if (json_is_array(old))
				continue;
			return json_pack("[O]", old ? old : json_null());
		case 3:
			if (json_is_object(old))
				continue;
			return json_object();
		default:
			if (json_is_number(old))
				continue;
			return json_integer(1);
		}
	}
}

/* Text that is no JSON number, for a number's place. */
static const char *
junk_number(void)
{
	static const char *const j[] = {
		"12abc", "0x10", "NaN", "Infinity", "-", "1e999", "01", ".5", "1.",
		"1_000", "--1", "+1", "1e", "\"\"", "",
	};

	return j[rn(sizeof(j) / sizeof(j[0]))];
}

/* json_dumps of root with member key of par (an object in it) written as
 * the raw text raw. */
static void
dump_with_raw(struct buf *out, json_t *root, json_t *par, const char *key, size_t flags,
	      const char *raw)
{
	static const char ph[] = "\"@@PROP-PLACEHOLDER@@\"";
	char *s, *p;

	json_object_set_new(par, key, json_string("@@PROP-PLACEHOLDER@@"));
	s = json_dumps(root, flags);
	p = strstr(s, ph);
	buf_add(out, s, (size_t)(p - s));
	buf_addstr(out, raw);
	buf_addstr(out, p + sizeof(ph) - 1);
	free(s);
}

/* ---- timeline trials ---------------------------------------------------- */

/*
 * What a change of one timeline field does, by event and key: the class
 * when the value is another valid one, one outside the field's range,
 * absent or null, and what it changes in the model (class b).  Keys not
 * listed are not read (D_ANY): anything goes (class c).  "*" is any
 * event; "routes.*" the members of measurementComplete.routes, read only
 * when no routeComplete was logged (never in these sessions).
 */
struct rule {
	const char *ev, *key;
	int dom;
	char other, bad, del;
	int op, field;		/* the patch of class b */
};

#define B_ROUTE(f) 'b', 'a', 'a', P_ROUTE, f
static const struct rule tl_rules[] = {
	{ "*", "ts", D_TIME, 'b', 'a', 'a', P_SESS, 0 },
	{ "*", "event", D_STR, 'a', 'a', 'a', 0, 0 },
	{ "sessionStart", "arm", D_STR, 'c', 'a', 'c', 0, 0 },
	{ "sessionStart", "rps", D_NUM, 'c', 'c', 'c', 0, 0 },
	{ "sessionStart", "rounds", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "sessionStart", "cooldownSec", D_NUM, 'c', 'c', 'c', 0, 0 },
	{ "sessionStart", "gapSec", D_NUM, 'c', 'c', 'c', 0, 0 },
	{ "idleWindow", "id", D_ID, 'b', 'a', 'a', P_IDLE, IF_ID },
	{ "idleWindow", "index", D_SMALL, 'c', 'a', 'c', 0, 0 },
	{ "idleWindow", "kind", D_STR, 'b', 'a', 'b', P_IDLE, IF_KIND },
	{ "idleWindow", "startedAtMs", D_TIME, 'b', 'a', 'a', P_IDLE, IF_START },
	{ "idleWindow", "endedAtMs", D_TIME, 'b', 'a', 'a', P_IDLE, IF_END },
	{ "idleWindow", "baselineStartMs", D_TIME, 'b', 'a', 'a', P_IDLE, IF_BSTART },
	{ "idleWindow", "baselineEndMs", D_TIME, 'b', 'a', 'a', P_IDLE, IF_BEND },
	{ "idleWindow", "followsMeasurementId", D_ID, 'a', 'a', 'b', P_IDLE, IF_FOLLOWS },
	{ "idleWindow", "precedesMeasurementId", D_ID, 'a', 'a', 'a', 0, 0 },
	{ "measurementStart", "id", D_ID, 'a', 'a', 'a', 0, 0 },
	{ "measurementStart", "round", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "measurementStart", "slot", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "measurementStart", "framework", D_STR, 'a', 'a', 'a', 0, 0 },
	{ "measurementStart", "target", D_STR, 'a', 'a', 'c', 0, 0 },
	{ "measurementStart", "serverPid", D_CNT, 'c', 'a', 'c', 0, 0 },
	{ "measurementStart", "startupMs", D_NUM, 'b', 'b', 'b', P_MEAS, MF_STARTUP },
	{ "measurementStart", "startedAtMs", D_TIME, 'b', 'b', 'b', P_MEAS, MF_START },
	{ "routeComplete", "id", D_ID, 'a', 'a', 'a', 0, 0 },
	{ "routeComplete", "route", D_STR, 'a', 'a', 'a', 0, 0 },
	{ "routeComplete", "round", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "slot", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "framework", D_STR, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "startedAtMs", D_TIME, B_ROUTE(RF_START) },
	{ "routeComplete", "endedAtMs", D_TIME, B_ROUTE(RF_END) },
	{ "routeComplete", "requests", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "req1xx", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "req2xx", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "req3xx", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "req4xx", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "req5xx", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "others", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "bytesRead", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "bytesWritten", D_CNT, 'a', 'a', 'c', 0, 0 },
	{ "routeComplete", "rpsMean", D_NN, 'b', 'a', 'b', P_ROUTE, RF_RPS },
	{ "routeComplete", "rpsStddev", D_NN, 'b', 'a', 'b', P_ROUTE, RF_RPSSD },
	{ "routeComplete", "latencyMeanUs", D_NN, 'c', 'a', 'c', 0, 0 },
	{ "routeComplete", "latencyMaxUs", D_NN, 'c', 'a', 'c', 0, 0 },
	/* not used, but held to their type (timeTakenSeconds: to the load
	 * file's and the window) */
	{ "routeComplete", "timeTakenSeconds", D_NN, 'c', 'a', 'c', 0, 0 },
	{ "routeComplete", "rpsMax", D_NN, 'c', 'a', 'c', 0, 0 },
	{ "routeComplete", "rpsP50", D_NN, 'c', 'a', 'c', 0, 0 },
	{ "routeComplete", "rpsP99", D_NN, 'c', 'a', 'c', 0, 0 },
	{ "routeComplete", "latencyStddevUs", D_NN, 'c', 'a', 'c', 0, 0 },
	{ "routeComplete", "bombardierPid", D_CNT, 'c', 'a', 'c', 0, 0 },
	{ "measurementComplete", "id", D_ID, 'a', 'a', 'a', 0, 0 },
	{ "measurementComplete", "round", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "measurementComplete", "slot", D_SMALL, 'a', 'a', 'c', 0, 0 },
	{ "measurementComplete", "framework", D_STR, 'a', 'a', 'c', 0, 0 },
	{ "measurementComplete", "target", D_STR, 'a', 'a', 'c', 0, 0 },
	{ "measurementComplete", "serverPid", D_CNT, 'c', 'a', 'c', 0, 0 },
	{ "measurementComplete", "startupMs", D_NUM, 'c', 'c', 'c', 0, 0 },
	{ "measurementComplete", "startedAtMs", D_TIME, 'c', 'c', 'c', 0, 0 },
	{ "measurementComplete", "rssBeforeBytes", D_CNT, 'b', 'a', 'b', P_MEAS, MF_RSSB },
	{ "measurementComplete", "rssAfterBytes", D_CNT, 'b', 'a', 'b', P_MEAS, MF_RSSA },
	{ "measurementComplete", "endedAtMs", D_TIME, 'b', 'b', 'b', P_MEAS, MF_END },
	{ "measurementComplete", "routes", D_OBJ, 'a', 'a', 'c', 0, 0 },
	{ "sessionEnd", "ok", D_BOOL, 'c', 'a', 'c', 0, 0 },
	{ "sessionEnd", "error", D_STR, 'c', 'a', 'c', 0, 0 },
};

static const struct rule any_rule = { "*", "*", D_ANY, 'c', 'c', 'c', 0, 0 };

static const struct rule *
tl_rule(const char *ev, const char *key)
{
	size_t i;

	/* routes.X.key: the copy of routeComplete's key (route_copy_class) */
	if (!strncmp(key, "routes.", 7)) {
		const char *dot = strchr(key + 7, '.');

		return dot ? tl_rule("routeComplete", dot + 1) : &any_rule;
	}
	for (i = 0; i < sizeof(tl_rules) / sizeof(tl_rules[0]); i++)
		if ((!strcmp(tl_rules[i].ev, "*") || !strcmp(tl_rules[i].ev, ev)) &&
		    !strcmp(tl_rules[i].key, key))
			return &tl_rules[i];
	return &any_rule;
}

/* The mutated timeline: each line an intact one (text NULL) or new text. */
struct nline {
	size_t from;
	char *text;		/* owned */
};

/* Session start and end as read_timeline() takes them: min and max of
 * the numeric ts of records with a string event. */
static void
sess_ms(const struct sess *S, const struct nline *nl, size_t n, double *lo, double *hi)
{
	size_t i;
	json_t *o, *ts;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < n; i++) {
		double t;

		if (!nl[i].text) {
			if (!S->tl[nl[i].from].has_ts)
				continue;
			t = S->tl[nl[i].from].ts;
		} else {
			o = json_loads(nl[i].text, 0, NULL);
			ts = json_object_get(o, "ts");
			if (!json_is_object(o) || !json_is_string(json_object_get(o, "event")) ||
			    !json_is_number(ts)) {
				json_decref(o);
				continue;
			}
			t = json_number_value(ts);
			json_decref(o);
		}
		if (t < *lo)
			*lo = t;
		if (t > *hi)
			*hi = t;
	}
}

static void
tl_finish(struct sess *S, struct mut *mu, struct nline *nl, size_t n)
{
	double lo, hi;
	size_t i;

	for (i = 0; i < n; i++) {
		if (nl[i].text)
			buf_addstr(&mu->text, nl[i].text);
		else
			buf_addstr(&mu->text, S->tl[nl[i].from].text);
		buf_addch(&mu->text, '\n');
	}
	if (mu->cls != CLS_A) {
		sess_ms(S, nl, n, &lo, &hi);
		if (lo != S->start_ms || hi != S->end_ms) {
			add_patch(mu, P_SESS, 0, 0, 0, lo)->v2 = hi;
			mu->cls = CLS_B;
		}
	}
	for (i = 0; i < n; i++)
		free(nl[i].text);
	free(nl);
}

/*
 * The figures the runner copies from a route's bombardier file into its
 * routeComplete (energy-method.md): a change to one copy alone makes the
 * two disagree, which erg refuses (session.c cross_check).  The
 * timeline's key and the file's path of each.
 */
static const struct {
	const char *tl, *file;
} copied[] = {
	{ "rpsMean", "result.rps.mean" },
	{ "rpsStddev", "result.rps.stddev" },
	{ "latencyMeanUs", "result.latency.mean" },
	{ "latencyMaxUs", "result.latency.max" },
	{ "timeTakenSeconds", "result.timeTakenSeconds" },
};

/* The value at a dotted path of a JSON document, or NULL. */
static json_t *
jat(json_t *o, const char *path)
{
	char key[64];
	const char *dot;

	while (o && (dot = strchr(path, '.'))) {
		size_t n = (size_t)(dot - path);

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path = dot + 1;
	}
	return o ? json_object_get(o, path) : NULL;
}

/* The other copy of field k for route (m, j), or NAN.  from_tl: the
 * changed copy is the timeline's (so look in the load file). */
static double
other_copy(const struct sess *S, size_t m, size_t j, size_t k, int from_tl)
{
	json_t *v = NULL;
	size_t i;

	if (from_tl) {
		for (i = 0; i < S->nf && !v; i++)
			if (S->f[i].m == m && S->f[i].j == j && S->f[i].json)
				v = jat(S->f[i].json, copied[k].file);
	} else {
		for (i = 0; i < S->ntl && !v; i++)
			if (S->tl[i].m == m && S->tl[i].j == j &&
			    !strcmp(S->tl[i].ev, "routeComplete"))
				v = json_object_get(S->tl[i].o, copied[k].tl);
	}
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A copied figure changed to x: refused ('a') when its other copy is
 * there and more than a millionth away (session.c same_value); else c. */
static char
copied_class(const struct sess *S, size_t m, size_t j, const char *key, int from_tl,
	     json_t *x, char c)
{
	double o;
	size_t k;

	if (m == SIZE_MAX || j == SIZE_MAX || !json_is_number(x))
		return c;
	for (k = 0; k < sizeof(copied) / sizeof(copied[0]); k++)
		if (!strcmp(key, from_tl ? copied[k].tl : copied[k].file)) {
			o = other_copy(S, m, j, k, from_tl);
			return !isnan(o) && fabs(json_number_value(x) - o) > 1e-6 * fabs(o) ?
			       'a' : c;
		}
	return c;
}

/* Field key of the record ev of measurement m (route j, or any route
 * when j is SIZE_MAX: the latest value), or NAN. */
static double
tl_value(const struct sess *S, const char *ev, size_t m, size_t j, const char *key)
{
	double x = NAN;
	size_t i;

	for (i = 0; i < S->ntl; i++) {
		json_t *v;

		if (S->tl[i].m != m || strcmp(S->tl[i].ev, ev) ||
		    (j != SIZE_MAX && S->tl[i].j != j))
			continue;
		v = json_object_get(S->tl[i].o, key);
		if (json_is_number(v) && !(x >= json_number_value(v)))
			x = json_number_value(v);
	}
	return x;
}

/*
 * A time that moves a window out of its own records is refused
 * (session.c route_in_measurement): a route starts no earlier than its
 * measurementStart, ends no later than its routeComplete's ts, and no
 * later than its measurement's endedAtMs.  'a' when the changed time x
 * of line L breaks that, else c.
 */
static char
own_records_class(const struct sess *S, size_t L, const char *key, double x, char c)
{
	const struct tline *t = &S->tl[L];

	if (isnan(x) || t->m == SIZE_MAX)
		return c;
	if (!strcmp(t->ev, "routeComplete")) {
		double end = tl_value(S, "routeComplete", t->m, t->j, "endedAtMs");
		double mstart = tl_value(S, "measurementStart", t->m, SIZE_MAX, "startedAtMs");
		double mend = tl_value(S, "measurementComplete", t->m, SIZE_MAX, "endedAtMs");

		if (!strcmp(key, "ts") && x < end)
			return 'a';
		if (!strcmp(key, "startedAtMs") && x < mstart)
			return 'a';
		if (!strcmp(key, "endedAtMs") && (x > t->ts || x > mend))
			return 'a';
	}
	if (!strcmp(t->ev, "measurementComplete") && !strcmp(key, "endedAtMs") &&
	    x < tl_value(S, "routeComplete", t->m, SIZE_MAX, "endedAtMs"))
		return 'a';
	return c;
}

/* An idle window that ends after its record was logged (session.c
 * read_idle): 'a' when the changed time x (its ts or its endedAtMs)
 * makes it so, else c. */
static char
idle_record_class(const struct sess *S, size_t L, const char *key, double x, char c)
{
	const struct tline *t = &S->tl[L];
	json_t *end = json_object_get(t->o, "endedAtMs");

	if (isnan(x) || strcmp(t->ev, "idleWindow") || !json_is_number(end))
		return c;
	if (!strcmp(key, "ts") && x < json_number_value(end))
		return 'a';
	if (!strcmp(key, "endedAtMs") && t->has_ts && x > t->ts)
		return 'a';
	return c;
}

/*
 * measurementComplete.routes.X.key changed by op to v, beside a
 * routeComplete of route X (session.c check_route_copies): the copy is
 * read as the routeComplete is, so a value of the wrong type or range is
 * refused ('a', as the routeComplete's rule ru says), and so is a value
 * that differs from the routeComplete's; a window time removed leaves a
 * route without its window ('a').  Anything else, and every key erg does
 * not read, changes nothing ('c').
 */
static char
route_copy_class(const struct sess *S, size_t L, const char *full, int op, json_t *v)
{
	/* read_route_fields' keys; the first 19 are compared with the
	 * routeComplete's, the rest only held to their type */
	static const char *const read[] = {
		"startedAtMs", "endedAtMs", "requests", "bytesRead", "bytesWritten",
		"rpsMean", "rpsStddev", "latencyMeanUs", "latencyMaxUs", "timeTakenSeconds",
		"bombardierPid", "others", "req1xx", "req2xx", "req3xx", "req4xx", "req5xx",
		"loadFile", "loadFormat", "rpsMax", "rpsP50", "rpsP99", "latencyStddevUs",
	};
	const struct tline *t = &S->tl[L];
	const char *route = full + 7, *key = strchr(route, '.') + 1;
	size_t i, k, rlen = (size_t)(key - 1 - route);
	json_t *rc = NULL, *x;

	for (k = 0; k < sizeof(read) / sizeof(read[0]); k++)
		if (!strcmp(key, read[k]))
			break;
	if (k == sizeof(read) / sizeof(read[0]))
		return 'c';
	if (op == 1 || op == 2)
		return 'a';
	if (op == 3 || op == 4)
		return k < 2 ? 'a' : 'c';
	if (k >= 19)
		return 'c';
	for (i = 0; i < S->ntl && !rc; i++) {
		const char *r = json_string_value(json_object_get(S->tl[i].o, "route"));

		if (S->tl[i].m == t->m && !strcmp(S->tl[i].ev, "routeComplete") && r &&
		    strlen(r) == rlen && !strncmp(r, route, rlen))
			rc = S->tl[i].o;
	}
	x = rc ? json_object_get(rc, key) : NULL;
	if (!x || json_is_null(x))
		return 'c';
	if (json_is_number(x) && json_is_number(v))
		return json_number_value(x) == json_number_value(v) ? 'c' : 'a';
	return json_equal(x, v) ? 'c' : 'a';
}

/* A load file's run time changed to x: refused ('a') when the tool would
 * have run more than 1.5 times its window and a second more (another
 * run's file: session.c check_run_time), else c. */
static char
run_time_class(const struct sess *S, size_t m, size_t j, const char *path, json_t *x, char c)
{
	double w;

	if (c != 'b' || strcmp(path, "result.timeTakenSeconds") || !json_is_number(x))
		return c;
	w = (tl_value(S, "routeComplete", m, j, "endedAtMs") -
	     tl_value(S, "routeComplete", m, j, "startedAtMs")) / 1000;
	return json_number_value(x) > 1.5 * w + 1 ? 'a' : c;
}

static int
cls_of(char c)
{
	return c == 'a' ? CLS_A : c == 'b' ? CLS_B : CLS_C;
}

/* Class b of rule ru for line L, new value v (NULL: absent). */
static void
tl_patch(struct sess *S, struct mut *mu, const struct rule *ru, size_t L, json_t *v)
{
	const struct tline *t = &S->tl[L];
	double x = json_is_number(v) ? json_number_value(v) : NAN;
	struct patch *p;

	switch (ru->op) {
	case P_SESS:
		break;		/* tl_finish() sees the new ts */
	case P_ROUTE:
		if (!v && ru->field == RF_RPS)
			add_patch(mu, P_ROUTE, t->m, t->j, RF_RPS_LOAD, 0);
		else if (!v && ru->field == RF_RPSSD)
			add_patch(mu, P_ROUTE, t->m, t->j, RF_RPSSD_LOAD, 0);
		else
			add_patch(mu, P_ROUTE, t->m, t->j, ru->field, x);
		if (ru->field == RF_START || ru->field == RF_END)
			mu->may_refuse = 1;	/* onto a neighbour, before its start */
		break;
	case P_MEAS:
		/* without endedAtMs, the measurementComplete's own ts */
		if (!v && ru->field == MF_END)
			x = t->ts;
		/* its start orders it among the idle windows */
		if (ru->field == MF_START)
			mu->may_refuse = 1;
		add_patch(mu, P_MEAS, t->m, 0, ru->field, x);
		break;
	case P_IDLE:
		p = add_patch(mu, P_IDLE, t->idle, 0, ru->field, x);
		if (ru->field == IF_KIND || ru->field == IF_ID || ru->field == IF_FOLLOWS)
			p->s = json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
		else
			mu->may_refuse = 1;	/* the baseline out of its window ... */
		if (ru->field == IF_ID && json_is_string(v)) {
			size_t k;

			/* another window's id: a duplicate */
			for (k = 0; k < S->nidle; k++)
				if (!strcmp(S->iid[k], json_string_value(v)))
					mu->cls = CLS_A;
		}
		break;
	}
}

static void
tl_field(struct sess *S, size_t L, struct mut *mu)
{
	const struct tline *t = &S->tl[L];
	json_t *o = json_deep_copy(t->o), *obj = o, *old, *v = NULL, *routes;
	const struct rule *ru;
	const char *keys[64], *k, *key;
	char full[160];
	size_t nk = 0, nr;
	int op, top, idle_ids;
	char c = 'c';

	json_object_foreach(o, k, v)
		if (nk < 64)
			keys[nk++] = k;
	key = keys[rn(nk)];
	snprintf(full, sizeof(full), "%s", key);
	routes = json_object_get(o, "routes");
	/* a member of measurementComplete.routes.X, now and then */
	if (json_is_object(routes) && (nr = json_object_size(routes)) && rn(3) == 0) {
		const char *rk;
		json_t *rv, *pick = NULL;
		size_t want = rn(nr), i = 0;

		json_object_foreach(routes, rk, rv)
			if (i++ == want) {
				pick = rv;
				snprintf(full, sizeof(full), "routes.%s", rk);
			}
		if (json_is_object(pick) && json_object_size(pick)) {
			nk = 0;
			json_object_foreach(pick, k, v)
				if (nk < 64)
					keys[nk++] = k;
			key = keys[rn(nk)];
			snprintf(full + strlen(full), sizeof(full) - strlen(full), ".%s", key);
			obj = pick;
		}
	}
	top = obj == o;
	ru = tl_rule(t->ev, full);
	old = json_object_get(obj, key);
	buf_addf(&mu->desc, "timeline.jsonl:%zu %s '%s' ", L + 1, t->ev, full);
	v = NULL;
	for (;;) {
		op = (int)rn(8);
		if (!strcmp(key, "event") && op < 2)
			continue;		/* renames are line trials */
		if ((op == 1 && !has_bad(ru->dom)) || (op >= 5 && !top) ||
		    (op >= 6 && !json_is_number(old)))
			continue;
		break;
	}
	switch (op) {
	case 0:		/* another valid value; an id, often another's */
		idle_ids = !strcmp(t->ev, "idleWindow") && !strcmp(key, "id");
		v = other_value(ru->dom, old, idle_ids ? S->iid : S->mid,
				idle_ids ? S->nidle : S->nm);
		if (json_equal(v, old)) {
			json_decref(v);
			v = json_deep_copy(old);
			c = 'c';
		} else {
			c = ru->other;
			if (top && !strcmp(t->ev, "routeComplete"))
				c = copied_class(S, t->m, t->j, key, 1, v, c);
		}
		buf_addstr(&mu->desc, "-> ");
		jtext(&mu->desc, v);
		break;
	case 1:		/* a number out of range */
		v = bad_value(ru->dom, old);
		c = ru->bad;
		buf_addstr(&mu->desc, "-> (out of range) ");
		jtext(&mu->desc, v);
		break;
	case 2:		/* another type */
		v = type_value(old);
		c = ru->dom == D_ANY ? 'c' : 'a';
		buf_addstr(&mu->desc, "-> (type) ");
		jtext(&mu->desc, v);
		break;
	case 3:		/* null: not reported */
		v = json_null();
		c = ru->del;
		buf_addstr(&mu->desc, "-> null");
		break;
	case 4:		/* deleted */
		c = ru->del;
		buf_addstr(&mu->desc, "deleted");
		break;
	case 5:		/* given twice, the second time with another value */
		c = 'a';
		buf_addstr(&mu->desc, "given twice");
		break;
	case 6:		/* a number's text made junk */
		c = 'a';
		buf_addstr(&mu->desc, "-> (junk text)");
		break;
	default:	/* the same number spelled as a real */
		c = 'a';
		buf_addstr(&mu->desc, "-> (respelled as a real)");
		break;
	}
	if (!top)
		c = route_copy_class(S, L, full, op, v);
	else if (c == 'b' && op <= 1 && json_is_number(v))
		c = idle_record_class(S, L, key, json_number_value(v),
				      own_records_class(S, L, key, json_number_value(v), c));
	mu->cls = cls_of(c);
	if (mu->cls == CLS_B)
		tl_patch(S, mu, ru, L, op == 3 || op == 4 ? NULL : v);
	{
		struct nline *nl = xcalloc(S->ntl, sizeof(*nl));
		struct buf line = BUF_INIT;
		size_t i, fl = JSON_COMPACT | JSON_REAL_PRECISION(17);
		char *s;

		for (i = 0; i < S->ntl; i++)
			nl[i].from = i;
		if (op == 4) {
			json_object_del(obj, key);
		} else if (op == 5) {
			json_t *w = other_value(ru->dom, old, S->mid, S->nm);

			s = json_dumps(w, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
			buf_addf(&line, "\"%s\":%s", key, s);
			free(s);
			json_decref(w);
			s = json_dumps(o, fl);
			/* before the closing brace */
			w = json_string(line.ptr);
			buf_reset(&line);
			buf_add(&line, s, strlen(s) - 1);
			buf_addch(&line, ',');
			buf_addstr(&line, json_string_value(w));
			buf_addch(&line, '}');
			json_decref(w);
			free(s);
		} else if (op == 6) {
			dump_with_raw(&line, o, o, key, fl, junk_number());
		} else if (op == 7) {
			json_object_set_new(obj, key, json_real(json_number_value(old)));
		} else {
			json_object_set(obj, key, v);
		}
		if (!line.len) {
			s = json_dumps(o, fl);
			buf_addstr(&line, s);
			free(s);
		}
		nl[L].text = buf_detach(&line, NULL);
		json_decref(v);
		json_decref(o);
		tl_finish(S, mu, nl, S->ntl);
	}
}

/* What deleting line L (or taking its record away by renaming its event:
 * renamed, its ts still counts) does. */
static char
tl_gone(struct sess *S, size_t L, struct mut *mu)
{
	const struct tline *t = &S->tl[L];

	switch (ev_index(t->ev)) {
	case 2:		/* idleWindow: a floor of a measurement, or the postroll */
		if (!json_is_null(json_object_get(t->o, "precedesMeasurementId")))
			return 'a';
		add_patch(mu, P_IDLE_DEL, t->idle, 0, 0, 0);
		return 'b';
	case 3: case 4: case 5:
		return 'a';
	default:
		return 'c';
	}
}

static void
tl_line(struct sess *S, size_t L, struct mut *mu)
{
	const struct tline *t = &S->tl[L], *u;
	struct nline *nl = xcalloc(S->ntl + 1, sizeof(*nl));
	size_t i, n = 0;
	int op = (int)rn(6), e = ev_index(t->ev);
	char c = 'c';

	if (op == 2 && L + 1 >= S->ntl)
		op = 0;
	for (i = 0; i < S->ntl; i++) {
		if (i == L && op == 0)
			continue;
		nl[n++].from = i;
		if (i == L && op == 1)
			nl[n++].from = i;
	}
	switch (op) {
	case 0:
		buf_addf(&mu->desc, "timeline.jsonl:%zu (%s) deleted", L + 1, t->ev);
		c = tl_gone(S, L, mu);
		break;
	case 1:
		buf_addf(&mu->desc, "timeline.jsonl:%zu (%s) doubled", L + 1, t->ev);
		c = e == 2 || e == 4 || e == 5 ? 'a' : 'c';
		break;
	case 2:
		u = &S->tl[L + 1];
		buf_addf(&mu->desc, "timeline.jsonl:%zu (%s) swapped with the next (%s)", L + 1,
			 t->ev, u->ev);
		nl[L].from = L + 1;
		nl[L + 1].from = L;
		if (t->id && u->id && !strcmp(t->id, u->id) && e >= 3 && e <= 5) {
			if (e == 4 && !strcmp(u->ev, "routeComplete")) {
				add_patch(mu, P_ROUTE_SWAP, t->m, t->j, 0, 0);
				c = 'b';
			} else {
				c = 'a';
			}
		} else if (e == 2 && !strcmp(u->ev, "idleWindow")) {
			add_patch(mu, P_IDLE_SWAP, t->idle, 0, 0, 0);
			c = 'b';
		} else if (e == 3 && !strcmp(u->ev, "measurementStart")) {
			c = 'a';
		}
		break;
	default: {
		json_t *o = json_deep_copy(t->o);
		char name[64], *s;

		if (op == 3 || (op == 5 && e == 6))
			snprintf(name, sizeof(name), "%sX", t->ev);
		else if (op == 5)
			snprintf(name, sizeof(name), "heartbeat");
		else
			snprintf(name, sizeof(name), "%c%s", tolower((unsigned char)t->ev[0]),
				 t->ev + 1);
		json_object_set_new(o, "event", json_string(name));
		s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
		nl[L].text = s;
		json_decref(o);
		buf_addf(&mu->desc, "timeline.jsonl:%zu event '%s' -> '%s'", L + 1, t->ev, name);
		c = op == 4 ? 'a' : tl_gone(S, L, mu);
		break;
	}
	}
	mu->cls = cls_of(c);
	tl_finish(S, mu, nl, n);
}

static void
tl_mut(struct sess *S, struct mut *mu)
{
	size_t e, L;

	do
		e = rn(NEV);
	while (!S->nby_ev[e]);
	L = S->by_ev[e][rn(S->nby_ev[e])];
	mu->file = S->timeline;
	if (rn(10) < 6)
		tl_field(S, L, mu);
	else
		tl_line(S, L, mu);
}

/* ---- meta.json and load-file trials -------------------------------------- */

/*
 * These are changed as text or as a parsed tree, and classified by what
 * the change does to the parsed document (as erg reads it: duplicate keys
 * refused): unparseable, the same, one member changed, deleted or added,
 * or more.  A path's class comes from the rules below; array indexes are
 * written as "#".
 */
struct prule {
	const char *path;
	int dom;
	char other, bad, del;
	int field;		/* load files: LF_* of class b */
};

static const struct prule meta_rules[] = {
	{ "notes", D_STR, 'a', 'a', 'c', -1 },
	{ "title", D_STR, 'c', 'a', 'c', -1 },
	{ "capturedAt", D_STR, 'c', 'a', 'c', -1 },
	{ "roomTempC", D_NUM, 'c', 'c', 'c', -1 },
	{ "machine", D_OBJ, 'c', 'a', 'c', -1 },
	{ "machine.model", D_STR, 'c', 'a', 'c', -1 },
	{ "machine.chip", D_STR, 'c', 'a', 'c', -1 },
	{ "machine.id", D_STR, 'c', 'a', 'c', -1 },
	{ "machine.os", D_STR, 'c', 'a', 'c', -1 },
	{ "machine.darwin", D_STR, 'c', 'a', 'c', -1 },
	{ "machine.memoryBytes", D_CNT, 'c', 'a', 'c', -1 },
	{ "machine.perflevel#", D_OBJ, 'c', 'a', 'c', -1 },
	{ "machine.perflevel#.count", D_SMALL, 'c', 'a', 'c', -1 },
	{ "machine.perflevel#.name", D_STR, 'c', 'a', 'c', -1 },
	{ "tools", D_OBJ, 'c', 'a', 'c', -1 },
	{ "tools.powermetrics", D_OBJ, 'c', 'a', 'c', -1 },
	{ "tools.powermetrics.energyField", D_STR, 'c', 'a', 'c', -1 },
	{ "load", D_OBJ, 'c', 'a', 'c', -1 },
	{ "load.tool", D_STR, 'c', 'a', 'c', -1 },
	{ "load.url", D_STR, 'c', 'a', 'c', -1 },
	{ "methodology", D_OBJ, 'c', 'a', 'c', -1 },
	{ "methodology.rounds", D_SMALL, 'c', 'a', 'c', -1 },
	{ "methodology.cooldownSec", D_NUM, 'c', 'a', 'c', -1 },
	{ "methodology.interRouteGapSec", D_NUM, 'c', 'a', 'c', -1 },
	{ "methodology.orderingScheme", D_STR, 'c', 'a', 'c', -1 },
	{ "methodology.integration", D_STR, 'c', 'a', 'c', -1 },
	{ "methodology.headlineMetric", D_STR, 'c', 'a', 'c', -1 },
	{ "methodology.idleWindow", D_OBJ, 'c', 'a', 'c', -1 },
	{ "methodology.idleWindow.offsetSec", D_NUM, 'c', 'a', 'c', -1 },
	{ "methodology.idleWindow.endOffsetSec", D_NUM, 'c', 'a', 'c', -1 },
	{ "methodology.idleWindow.source", D_STR, 'c', 'a', 'c', -1 },
	{ "caveats", D_OBJ, 'c', 'a', 'c', -1 },	/* an array */
	{ "erg", D_OBJ, 'c', 'a', 'c', -1 },
	{ "erg.perMbRoutes", D_OBJ, 'a', 'a', 'a', -1 },
	{ "erg.loadFormat", D_STR, 'a', 'a', 'a', -1 },
};

static const struct prule load_rules[] = {
	{ "spec", D_OBJ, 'a', 'a', 'a', -1 },
	{ "spec.numberOfConnections", D_CNT, 'b', 'a', 'a', LF_CONN },
	{ "spec.testType", D_STR, 'a', 'a', 'c', -1 },
	{ "spec.testDurationSeconds", D_NN, 'c', 'a', 'a', -1 },
	{ "spec.url", D_STR, 'b', 'a', 'b', LF_URL },
	{ "spec.client", D_STR, 'c', 'a', 'c', -1 },
	{ "spec.rate", D_NN, 'a', 'a', 'c', -1 },
	{ "result", D_OBJ, 'a', 'a', 'a', -1 },
	{ "result.bytesRead", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.bytesWritten", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.timeTakenSeconds", D_NN, 'b', 'a', 'a', LF_TT },
	{ "result.req1xx", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.req2xx", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.req3xx", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.req4xx", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.req5xx", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.others", D_CNT, 'a', 'a', 'a', -1 },
	{ "result.errors", D_OBJ, 'a', 'a', 'c', -1 },
	{ "result.latency", D_OBJ, 'a', 'a', 'b', LF_LAT },
	{ "result.latency.mean", D_NN, 'b', 'a', 'a', LF_LMEAN },
	{ "result.latency.stddev", D_NN, 'b', 'a', 'a', LF_LSD },
	{ "result.latency.max", D_NN, 'b', 'a', 'a', LF_LMAX },
	{ "result.latency.percentiles", D_OBJ, 'a', 'a', 'c', -1 },
	{ "result.rps", D_OBJ, 'a', 'a', 'b', LF_RPS },
	{ "result.rps.mean", D_NN, 'b', 'a', 'a', LF_RPS },
	{ "result.rps.stddev", D_NN, 'b', 'a', 'a', LF_RPSSD },
	{ "result.rps.max", D_NN, 'c', 'a', 'a', -1 },
};

static const struct prule *
prule_find(const struct prule *t, size_t n, const char *path)
{
	char gen[256];
	size_t i, k = 0;
	const char *p;

	/* caveats.3 -> caveats.#, perflevel0 -> perflevel# (not req2xx) */
	for (p = path; *p && k + 2 < sizeof(gen); p++) {
		int comp = p == path || p[-1] == '.';

		if (isdigit((unsigned char)*p) && (comp || (k >= 9 &&
		    !strncmp(gen + k - 9, "perflevel", 9)))) {
			gen[k++] = '#';
			p += strspn(p, "0123456789") - 1;
		} else {
			gen[k++] = *p;
		}
	}
	gen[k] = '\0';
	for (i = 0; i < n; i++)
		if (!strcmp(t[i].path, gen))
			return &t[i];
	return NULL;
}

struct jd {
	int n;
	int kind;		/* JD_* of the first difference */
	char path[256];
	json_t *old, *new;	/* borrowed */
};
enum { JD_CHANGED, JD_TYPE, JD_RESPELL, JD_DELETED, JD_ADDED };

static void
jd_add(struct jd *d, int kind, const char *path, json_t *a, json_t *b)
{
	if (d->n++)
		return;
	d->kind = kind;
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->old = a;
	d->new = b;
}

static void
jdiff(json_t *a, json_t *b, const char *path, struct jd *d)
{
	char sub[256];
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b)) {
		if (json_number_value(a) != json_number_value(b))
			jd_add(d, JD_CHANGED, path, a, b);
		else if (json_typeof(a) != json_typeof(b))
			jd_add(d, JD_RESPELL, path, a, b);
		return;
	}
	if (json_typeof(a) != json_typeof(b) && !(json_is_boolean(a) && json_is_boolean(b))) {
		jd_add(d, json_is_null(b) ? JD_DELETED : JD_TYPE, path, a, b);
		return;
	}
	switch (json_typeof(a)) {
	case JSON_OBJECT:
		json_object_foreach(a, k, v) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
			if (!json_object_get(b, k))
				jd_add(d, JD_DELETED, sub, v, NULL);
			else
				jdiff(v, json_object_get(b, k), sub, d);
		}
		json_object_foreach(b, k, v)
			if (!json_object_get(a, k)) {
				snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
				jd_add(d, JD_ADDED, sub, NULL, v);
			}
		break;
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b)) {
			jd_add(d, JD_CHANGED, path, a, b);
			break;
		}
		for (i = 0; i < json_array_size(a); i++) {
			snprintf(sub, sizeof(sub), "%s.%zu", path, i);
			jdiff(json_array_get(a, i), json_array_get(b, i), sub, d);
		}
		break;
	default:
		if (!json_equal(a, b))
			jd_add(d, JD_CHANGED, path, a, b);
		break;
	}
}

static int
in_domain(int dom, json_t *v)
{
	double x;

	switch (dom) {
	case D_ANY:
		return 1;
	case D_STR:
	case D_ID:
		return json_is_string(v);
	case D_BOOL:
		return json_is_boolean(v);
	case D_OBJ:
		return json_is_object(v) || json_is_array(v);
	default:
		if (!json_is_number(v))
			return 0;
		x = json_number_value(v);
		if (dom == D_NN)
			return x >= 0;
		if (dom == D_CNT)
			return x >= 0 && x == floor(x);
		if (dom == D_SMALL)
			return x >= 0 && x == floor(x) && x <= 1e6;
		return 1;
	}
}

/* Every member path of j (objects and arrays), for picking one. */
static void
jpaths(json_t *j, const char *path, char ***out, size_t *n)
{
	char sub[256];
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, k, v) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = xstrdup(sub);
			jpaths(v, sub, out, n);
		}
	} else if (json_is_array(j)) {
		for (i = 0; i < json_array_size(j); i++) {
			snprintf(sub, sizeof(sub), "%s.%zu", path, i);
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = xstrdup(sub);
			jpaths(json_array_get(j, i), sub, out, n);
		}
	}
}

/* The container of path in root and the last part of path. */
static json_t *
jparent(json_t *root, const char *path, char *last, size_t lastsz)
{
	char buf[256], *p, *dot;
	json_t *c = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf; (dot = strchr(p, '.')); p = dot + 1) {
		*dot = '\0';
		c = json_is_array(c) ? json_array_get(c, strtoul(p, NULL, 10)) :
		    json_object_get(c, p);
	}
	if (strlen(p) >= lastsz)
		die("path too long: %s", path);
	memcpy(last, p, strlen(p) + 1);
	return c;
}

static void load_patch(struct sess *S, const struct file *f, struct mut *mu,
		       const struct prule *ru, json_t *v);

/* One change of a JSON document (meta.json or a load file). */
static void
doc_mut(struct sess *S, size_t fi, struct mut *mu)
{
	struct file *f = &S->f[fi];
	const struct prule *rules = fi == S->meta ? meta_rules : load_rules, *ru;
	size_t nrules = fi == S->meta ? sizeof(meta_rules) / sizeof(meta_rules[0]) :
			sizeof(load_rules) / sizeof(load_rules[0]);
	size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);
	json_t *root = json_deep_copy(f->json), *par, *old, *v, *got;
	char **paths = NULL, last[128], *s;
	struct buf raw = BUF_INIT;
	size_t np = 0, i;
	struct jd d;
	json_error_t err;
	int op;
	char c;

	mu->file = fi;
	op = (int)rn(10);
	if (op >= 7) {
		/* a whole line: deleted, doubled, swapped with the next */
		const char *lines[4096];
		size_t nl = 0, L, len[4096];
		const char *p = f->data, *e;

		for (; p < f->data + f->len && nl < 4096; p = e + 1) {
			e = memchr(p, '\n', (size_t)(f->data + f->len - p));
			if (!e)
				e = f->data + f->len;
			lines[nl] = p;
			len[nl++] = (size_t)(e - p);
		}
		L = rn(nl > 1 ? nl - 1 : 1);
		for (i = 0; i < nl; i++) {
			size_t k = op == 9 && i == L ? L + 1 : op == 9 && i == L + 1 ? L : i;

			if (op == 7 && i == L)
				continue;
			buf_add(&mu->text, lines[k], len[k]);
			buf_addch(&mu->text, '\n');
			if (op == 8 && i == L) {
				buf_add(&mu->text, lines[k], len[k]);
				buf_addch(&mu->text, '\n');
			}
		}
		buf_addf(&mu->desc, "%s:%zu %s", f->rel, L + 1, op == 7 ? "deleted" :
			 op == 8 ? "doubled" : "swapped with the next");
	} else {
		jpaths(root, "", &paths, &np);
		s = paths[rn(np)];
		par = jparent(root, s, last, sizeof(last));
		old = json_is_array(par) ? json_array_get(par, strtoul(last, NULL, 10)) :
		      json_object_get(par, last);
		ru = prule_find(rules, nrules, s);
		buf_addf(&mu->desc, "%s '%s' ", f->rel, s);
		if (op >= 4 && (!json_is_number(old) || !json_is_object(par) ||
				(op == 4 && !json_is_integer(old))))
			op = (int)rn(4);
		v = NULL;
		switch (op) {
		case 0:		/* another value, now and then one out of range */
			v = rn(3) == 0 && ru && has_bad(ru->dom) ? bad_value(ru->dom, old) :
			    other_value(ru ? ru->dom : D_ANY, old, NULL, 0);
			break;
		case 1:		/* another type */
			v = type_value(old);
			break;
		case 2:		/* null */
			v = json_null();
			break;
		case 3:		/* deleted */
			buf_addstr(&mu->desc, "deleted");
			if (json_is_array(par))
				json_array_remove(par, strtoul(last, NULL, 10));
			else
				json_object_del(par, last);
			break;
		case 4:		/* an integer respelled as a real */
			v = json_real(json_number_value(old));
			break;
		case 5:		/* a number's text made junk */
			buf_addstr(&mu->desc, "-> (junk text)");
			buf_addstr(&raw, junk_number());
			break;
		default:	/* given twice, the second time with another value */
			buf_addstr(&mu->desc, "given twice");
			v = other_value(ru ? ru->dom : D_ANY, old, NULL, 0);
			s = json_dumps(old, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
			buf_addf(&raw, "%s, \"%s\": ", s, last);
			free(s);
			s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
			buf_addstr(&raw, s);
			free(s);
			break;
		}
		if (raw.len) {
			dump_with_raw(&mu->text, root, par, last, flags, raw.ptr);
		} else {
			if (v) {
				buf_addstr(&mu->desc, "-> ");
				jtext(&mu->desc, v);
				if (json_is_array(par))
					json_array_set(par, strtoul(last, NULL, 10), v);
				else
					json_object_set(par, last, v);
			}
			s = json_dumps(root, flags);
			buf_addstr(&mu->text, s);
			free(s);
		}
		json_decref(v);
		for (i = 0; i < np; i++)
			free(paths[i]);
		free(paths);
	}
	json_decref(root);
	buf_release(&raw);

	/* the class, from what the text now says */
	got = json_loadb(mu->text.ptr, mu->text.len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
	memset(&d, 0, sizeof(d));
	if (!got) {
		c = 'a';
	} else {
		jdiff(f->json, got, "", &d);
		if (d.n == 0) {
			c = 'c';
		} else if (d.n > 1 || d.kind == JD_ADDED || d.kind == JD_RESPELL) {
			c = 'a';
		} else {
			ru = prule_find(rules, nrules, d.path);
			if (!ru)
				c = 'c';	/* not read */
			else if (d.kind == JD_DELETED && d.new && fi != S->meta)
				c = 'a';	/* the load parsers take null as a wrong type */
			else if (d.kind == JD_DELETED)
				c = ru->del;
			else if (d.kind == JD_TYPE)
				c = ru->dom == D_ANY ? 'c' : 'a';
			else if (!in_domain(ru->dom, d.new))
				c = ru->bad;
			else if (fi != S->meta)
				c = run_time_class(S, f->m, f->j, d.path, d.new,
						   copied_class(S, f->m, f->j, d.path, 0, d.new,
								ru->other));
			else
				c = ru->other;
			if (c == 'b')
				load_patch(S, f, mu, ru, d.kind == JD_DELETED ? NULL : d.new);
		}
	}
	mu->cls = cls_of(c);
	json_decref(got);
}

/* ---- power trials --------------------------------------------------------- */

/* path "up.key" or "up.index" (up may be ""); the paths of these files are short */
static void
set_path(char *out, const char *up, const char *key, size_t index)
{
	struct buf b = BUF_INIT;

	buf_addf(&b, "%s%s", up, *up ? "." : "");
	if (key)
		buf_addstr(&b, key);
	else
		buf_addf(&b, "%zu", index);
	if (b.len >= 96)
		die("plist path too long: %s", b.ptr);
	memcpy(out, b.ptr, b.len + 1);
	buf_release(&b);
}

/*
 * The elements of one plist document, each with its path ("processor.
 * clusters.1.freq_hz").  Only what powermetrics and the test tools write
 * is understood; the intact files are nothing else.
 */
static size_t
scan_doc(const char *t, size_t n, struct item **out, size_t *alloc)
{
	struct frame {
		char path[96];
		int array;
		size_t count, item;
	} st[32];
	size_t depth = 0, ni = 0, i = 0, e;
	char key[96] = "";
	size_t key_off = 0;
	int have_key = 0;

	while (i < n) {
		const char *lt = memchr(t + i, '<', n - i), *gt;
		char name[32];
		size_t nl;
		int tag = -1, open = 0, close = 0;

		if (!lt)
			break;
		i = (size_t)(lt - t);
		gt = memchr(t + i, '>', n - i);
		if (!gt)
			break;
		e = (size_t)(gt - t) + 1;
		nl = (t[i + 1] == '/') + strcspn(t + i + 1 + (t[i + 1] == '/'), " />");
		if (nl >= sizeof(name))
			nl = sizeof(name) - 1;
		memcpy(name, t + i + 1, nl);
		name[nl] = '\0';
		if (name[0] == '?' || name[0] == '!' || !strcmp(name, "plist") ||
		    !strcmp(name, "/plist")) {
			i = e;
			continue;
		}
		if (!strcmp(name, "key")) {
			const char *ke = strstr(t + e, "</key>");

			snprintf(key, sizeof(key), "%.*s", (int)(ke - (t + e)), t + e);
			key_off = i;
			have_key = 1;
			i = (size_t)(ke - t) + 6;
			continue;
		}
		if (name[0] == '/') {
			if (depth) {
				depth--;
				if (st[depth].item != SIZE_MAX)
					(*out)[st[depth].item].el_end = e;
			}
			i = e;
			continue;
		}
		if (!strcmp(name, "dict"))
			tag = T_DICT, open = 1;
		else if (!strcmp(name, "array"))
			tag = T_ARRAY, open = 1;
		else if (!strcmp(name, "integer"))
			tag = T_INT, close = 1;
		else if (!strcmp(name, "real"))
			tag = T_REAL, close = 1;
		else if (!strcmp(name, "string"))
			tag = T_STR, close = 1;
		else if (!strcmp(name, "date"))
			tag = T_DATE, close = 1;
		else if (!strcmp(name, "data"))
			tag = T_DATA, close = 1;
		else if (!strcmp(name, "true"))
			tag = T_TRUE;
		else if (!strcmp(name, "false"))
			tag = T_FALSE;
		if (gt[-1] == '/')
			open = close = 0;	/* <dict/>, <true/> */
		if (tag < 0) {
			i = e;
			continue;
		}
		/* an element: a member of a dict or an array element */
		{
			struct item *it;
			struct frame *up = depth ? &st[depth - 1] : NULL;

			if (up || depth == 0) {
				if (ni + 1 > *alloc) {
					*alloc = *alloc * 2 + 64;
					*out = xrealloc(*out, *alloc * sizeof(**out));
				}
				it = &(*out)[ni];
				memset(it, 0, sizeof(*it));
				it->tag = tag;
				it->el_off = i;
				it->el_end = e;
				it->member = up && !up->array && have_key;
				it->key_off = it->member ? key_off : i;
				if (!up)
					it->path[0] = '\0';
				else if (up->array)
					set_path(it->path, up->path, NULL, up->count++);
				else
					set_path(it->path, up->path, key, 0);
				have_key = 0;
				if (close) {
					char ct[40];
					const char *ce;

					snprintf(ct, sizeof(ct), "</%s>", name);
					ce = strstr(t + e, ct);
					it->tx_off = e;
					it->tx_end = (size_t)(ce - t);
					it->el_end = it->tx_end + strlen(ct);
					e = it->el_end;
				}
				if (open && depth < 32) {
					snprintf(st[depth].path, sizeof(st[depth].path), "%s", it->path);
					st[depth].array = tag == T_ARRAY;
					st[depth].count = 0;
					st[depth].item = ni;
					depth++;
				}
				ni++;
			}
		}
		i = e;
	}
	return ni;
}

static const struct item *
find_path(const struct item *it, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(it[i].path, path))
			return &it[i];
	return NULL;
}

/* "YYYY-MM-DDTHH:MM:SSZ" as Unix ms; NAN if it is none. */
static double
date_ms(const char *s, size_t n)
{
	struct tm tm;
	char b[32];
	time_t t;

	if (n != 20)
		return NAN;
	memcpy(b, s, n);
	b[n] = '\0';
	memset(&tm, 0, sizeof(tm));
	if (sscanf(b, "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	t = timegm(&tm);
	return (double)t * 1000;
}

static int
thermal_level(const char *s, size_t n)
{
	static const char *const nm[] = {
		"Nominal", "Light", "Moderate", "Heavy", "Critical", "Trapping", "Sleeping"
	};
	size_t i;

	for (i = 0; i < 7; i++)
		if (strlen(nm[i]) == n && !memcmp(nm[i], s, n))
			return i < 4 ? (int)i : THERMAL_CRITICAL;
	return THERMAL_ABSENT;
}

/*
 * The sample of document d as energy-method.md §1.3 and formats.md §1.4
 * define it: joules = (cpu_energy + gpu_energy + ane_energy) / 1000 of
 * the counters present, else none; the performance clusters' mean freq_hz
 * ('S' clusters, else 'P', else 'M'), the 'E' clusters' likewise; the
 * thermal_pressure level.  For documents erg accepts, so well formed.
 */
static void
extract(const char *d, size_t n, struct xs *x)
{
	static const char *const ekey[] = {
		"processor.cpu_energy", "processor.gpu_energy", "processor.ane_energy"
	};
	struct item *it = NULL;
	size_t alloc = 0, ni = scan_doc(d, n, &it, &alloc), i, k;
	const struct item *v;
	double sum[4] = { 0 }, acc = 0;
	size_t cnt[4] = { 0 };
	int any = 0;
	char path[96];

	x->ts = x->el = x->joules = x->pcl = x->ecl = NAN;
	x->thermal = THERMAL_ABSENT;
	if ((v = find_path(it, ni, "elapsed_ns")) && v->tag == T_INT)
		x->el = (double)strtoll(d + v->tx_off, NULL, 10) / 1e6;
	if ((v = find_path(it, ni, "timestamp")) && v->tag == T_DATE)
		x->ts = date_ms(d + v->tx_off, v->tx_end - v->tx_off);
	if ((v = find_path(it, ni, "thermal_pressure")) && v->tag == T_STR)
		x->thermal = thermal_level(d + v->tx_off, v->tx_end - v->tx_off);
	for (k = 0; k < 3; k++)
		if ((v = find_path(it, ni, ekey[k])) && v->tag == T_INT) {
			acc += (double)strtoll(d + v->tx_off, NULL, 10);
			any = 1;
		}
	if (any)
		x->joules = acc / 1000;
	for (i = 0; i < ni; i++) {
		const struct item *nm, *fq;
		int cls;

		if (strncmp(it[i].path, "processor.clusters.", 19) || it[i].tag != T_DICT ||
		    strchr(it[i].path + 19, '.'))
			continue;
		set_path(path, it[i].path, "name", 0);
		nm = find_path(it, ni, path);
		set_path(path, it[i].path, "freq_hz", 0);
		fq = find_path(it, ni, path);
		if (!nm || nm->tag != T_STR || nm->tx_end == nm->tx_off)
			continue;
		switch (d[nm->tx_off]) {
		case 'S': cls = 0; break;
		case 'P': cls = 1; break;
		case 'M': cls = 2; break;
		case 'E': cls = 3; break;
		default: cls = -1; break;
		}
		if (cls < 0 || !fq || (fq->tag != T_REAL && fq->tag != T_INT))
			continue;
		sum[cls] += strtod(d + fq->tx_off, NULL);
		cnt[cls]++;
	}
	for (k = 0; k < 3; k++)
		if (cnt[k]) {
			x->pcl = sum[k] / (double)cnt[k] / 1e6;
			break;
		}
	if (cnt[3])
		x->ecl = sum[3] / (double)cnt[3] / 1e6;
	free(it);
}

/* What the elements of a document are to erg. */
enum {
	K_U,		/* not read */
	K_PW,		/* processor.*_power, combined_power: read only without counters */
	K_EL, K_TS, K_HW, K_OS, K_TH, K_PROC, K_E, K_CLS, K_CL, K_CLN, K_CLF,
};

static int
item_kind(const char *p)
{
	const char *q;

	if (!strcmp(p, "elapsed_ns"))
		return K_EL;
	if (!strcmp(p, "timestamp"))
		return K_TS;
	if (!strcmp(p, "hw_model"))
		return K_HW;
	if (!strcmp(p, "kern_osversion"))
		return K_OS;
	if (!strcmp(p, "thermal_pressure"))
		return K_TH;
	if (!strcmp(p, "processor"))
		return K_PROC;
	if (!strcmp(p, "processor.cpu_energy") || !strcmp(p, "processor.gpu_energy") ||
	    !strcmp(p, "processor.ane_energy"))
		return K_E;
	if (!strncmp(p, "processor.", 10) && !strchr(p + 10, '.') &&
	    (strstr(p, "_power") || strstr(p, "package_")))
		return K_PW;
	if (!strcmp(p, "processor.clusters"))
		return K_CLS;
	if (strncmp(p, "processor.clusters.", 19))
		return K_U;
	q = p + 19 + strspn(p + 19, "0123456789");
	if (!*q)
		return K_CL;
	if (!strcmp(q, ".name"))
		return K_CLN;
	if (!strcmp(q, ".freq_hz"))
		return K_CLF;
	return K_U;
}

/* The power file with document k replaced by text (or left out: NULL,
 * or doubled, or swapped with the next). */
enum { DOC_REPLACE, DOC_DELETE, DOC_DOUBLE, DOC_SWAP };

static void
power_text(const struct sess *S, size_t k, int how, const struct buf *text, struct buf *out)
{
	const struct file *f = &S->f[S->power];
	size_t a = S->doc[k], b = S->doc_end[k], c, d;

	buf_add(out, f->data, a);
	switch (how) {
	case DOC_REPLACE:
		buf_add(out, text->ptr, text->len);
		buf_add(out, f->data + b, f->len - b);
		break;
	case DOC_DELETE:
		/* the document and the NUL after it */
		buf_add(out, f->data + b + (b < f->len), f->len - b - (b < f->len));
		break;
	case DOC_DOUBLE:
		buf_add(out, f->data + a, b - a);
		buf_addch(out, '\0');
		buf_add(out, f->data + a, f->len - a);
		break;
	case DOC_SWAP:
		c = S->doc[k + 1];
		d = S->doc_end[k + 1];
		buf_add(out, f->data + c, d - c);
		buf_add(out, f->data + b, c - b);
		buf_add(out, f->data + a, b - a);
		buf_add(out, f->data + d, f->len - d);
		break;
	}
}

/* Another element for it's place: one of another type. */
static void
other_type(struct buf *b, const struct item *it, const char *d)
{
	const char *txt = it->tx_end > it->tx_off ? d + it->tx_off : "1";
	int len = it->tx_end > it->tx_off ? (int)(it->tx_end - it->tx_off) : 1;

	switch (rn(5)) {
	case 0:
		if (it->tag != T_STR) {
			buf_addf(b, "<string>%.*s</string>", len, txt);
			return;
		}
		/* fall through */
	case 1:
		if (it->tag != T_INT && it->tag != T_REAL) {
			buf_addstr(b, "<integer>1</integer>");
			return;
		}
		buf_addf(b, "<%s>%.*s</%s>", it->tag == T_INT ? "real" : "integer", len, txt,
			 it->tag == T_INT ? "real" : "integer");
		return;
	case 2:
		buf_addstr(b, it->tag == T_TRUE ? "<false/>" : "<true/>");
		return;
	case 3:
		buf_addstr(b, it->tag == T_DICT ? "<array/>" : "<dict/>");
		return;
	default:
		buf_addstr(b, it->tag == T_DATE ? "<string>2026-08-26T02:02:37Z</string>" :
			   "<date>2026-08-26T02:02:37Z</date>");
		return;
	}
}

/* Another valid number for a numeric element of kind k. */
static void
other_number(struct buf *b, const struct item *it, const char *d, int k, double *val)
{
	double o = strtod(d + it->tx_off, NULL), v;

	switch (k) {
	case K_EL:
		/* a few ms, or a big step (a hole, an error) */
		v = rn(3) ? o + (rn(2) ? 1 : -1) * (double)(1 + rn(5000)) * 1000 :
		    o * (rn(2) ? 0.5 : 2) + (double)rn(1000);
		break;
	case K_E:
		v = rn(4) ? (double)rn(20000) : o + 1;
		break;
	case K_CLF:
		v = rn(2) ? o * 1.5 : (double)(rn(4000) + 1) * 1e6;
		break;
	default:
		v = o + 1 + (double)rn(100);
		break;
	}
	if (v < 0 || v == o)
		v = o + 1;
	*val = v;
	if (it->tag == T_REAL)
		buf_addf(b, "%.17g", v);
	else
		buf_addf(b, "%.0f", v);
}

static void
sample_patch(struct sess *S, struct mut *mu, size_t k, const struct buf *doc)
{
	struct patch *p = add_patch(mu, P_SAMPLE, k, 0, 0, 0);
	const struct psample *o = &S->smp[k];

	extract(doc->ptr, doc->len, &p->smp);
	if (p->smp.ts != o->ts_ms || p->smp.el != o->elapsed_ms) {
		add_patch(mu, P_REFIT, 0, 0, 0, 0);
		mu->hole = 1;
		mu->hs = k;
	}
}

static void
power_mut(struct sess *S, struct mut *mu)
{
	const struct file *f = &S->f[S->power];
	size_t k = rn(S->ndoc), ni, alloc = 0;
	const char *d = f->data + S->doc[k];
	size_t dn = S->doc_end[k] - S->doc[k];
	struct item *items = NULL;
	struct buf doc = BUF_INIT, piece = BUF_INIT;
	const struct item *it;
	int op, kind;
	char c = 'c';
	double nv = 0;

	mu->file = S->power;
	if (rn(10) < 2) {
		/* a whole document */
		op = (int)rn(3);
		if (op == 2 && k + 1 >= S->ndoc)
			k--;
		if (op == 0 && S->phase_locked && k && k + 1 < S->ndoc)
			k = rn(2) ? 0 : S->ndoc - 1;
		buf_addf(&mu->desc, "power.plist document %zu %s", k + 1,
			 op == 0 ? "deleted" : op == 1 ? "doubled" : "swapped with the next");
		power_text(S, k, op == 0 ? DOC_DELETE : op == 1 ? DOC_DOUBLE : DOC_SWAP, NULL,
			   &mu->text);
		if (op == 0) {
			/* a hole, or refused where the timestamps cannot place it
			 * (gen/README.md) */
			c = 'b';
			mu->may_refuse = 1;
			add_patch(mu, P_SAMPLE_DEL, k, 0, 0, 0);
			add_patch(mu, P_REFIT, 0, 0, 0, 0);
			mu->hole = 1;
			mu->hs = k;
			mu->hole_ms = S->smp[k].elapsed_ms;
		} else if (op == 1) {
			c = 'a';
		} else if (S->smp[k].ts_ms == S->smp[k + 1].ts_ms) {
			c = 'b';
			add_patch(mu, P_SAMPLE_SWAP, k, 0, 0, 0);
			add_patch(mu, P_REFIT, 0, 0, 0, 0);
		} else {
			c = 'a';
		}
		mu->cls = cls_of(c);
		buf_release(&doc);
		return;
	}
	ni = scan_doc(d, dn, &items, &alloc);
	/* not the top-level dict; mostly what erg reads (the reference
	 * session's documents are mostly what it does not) */
	do
		it = &items[1 + rn(ni - 1)];
	while ((item_kind(it->path) == K_U && rn(10) < 8) ||
	       (item_kind(it->path) != K_E && rn(10) < 2));
	kind = item_kind(it->path);
	buf_addf(&mu->desc, "power.plist document %zu '%s' ", k + 1, it->path);
	op = (int)rn(7);
	if (!it->member && (op == 3 || op == 4))
		op = 5;		/* an array element: deleted, doubled */
	switch (op) {
	case 0:		/* another valid value */
		if (it->tag == T_INT || it->tag == T_REAL) {
			other_number(&piece, it, d, kind, &nv);
			buf_addstr(&mu->desc, "-> ");
			buf_addstr(&mu->desc, piece.ptr);
			buf_add(&doc, d, it->tx_off);
			buf_add(&doc, piece.ptr, piece.len);
			buf_add(&doc, d + it->tx_end, dn - it->tx_end);
			c = kind == K_E || kind == K_CLF || kind == K_EL ? 'b' :
			    kind == K_U || kind == K_PW ? 'c' : 'a';
			if (kind == K_EL && fabs(nv - strtod(d + it->tx_off, NULL)) > 20e6)
				mu->may_refuse = 1;
			break;
		}
		if (it->tag == T_DATE) {
			static const double shift[] = { 1, -1, 2, -2, 30, 3600, -86400 };
			double ms = date_ms(d + it->tx_off, it->tx_end - it->tx_off);
			time_t t;
			struct tm tm;
			char s[32];

			ms += shift[rn(7)] * 1000;
			t = (time_t)(ms / 1000);
			gmtime_r(&t, &tm);
			strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
			buf_addf(&mu->desc, "-> %s", s);
			buf_add(&doc, d, it->tx_off);
			buf_addstr(&doc, s);
			buf_add(&doc, d + it->tx_end, dn - it->tx_end);
			c = kind == K_TS ? 'b' : 'c';
			mu->may_refuse = 1;
			break;
		}
		if (it->tag == T_STR) {
			static const char *const th[] = {
				"Nominal", "Light", "Moderate", "Heavy", "Critical", "Sleeping",
				"Hot", "nominal"
			};
			static const char *const cl[] = {
				"S-Cluster", "P-Cluster", "P0-Cluster", "M0-Cluster", "E-Cluster",
				"X-Cluster", "GPU"
			};
			const char *s = kind == K_TH ? th[rn(8)] : kind == K_CLN ? cl[rn(7)] :
					kind == K_HW ? "Mac99,9" : "other";

			buf_addf(&mu->desc, "-> '%s'", s);
			buf_add(&doc, d, it->tx_off);
			buf_addstr(&doc, s);
			buf_add(&doc, d + it->tx_end, dn - it->tx_end);
			c = kind == K_TH || kind == K_CLN ? 'b' : kind == K_HW ? 'a' : 'c';
			break;
		}
		op = 2;
		/* fall through */
	case 1:		/* text that is no number or date */
		if (op == 1 && (it->tag == T_INT || it->tag == T_REAL || it->tag == T_DATE)) {
			static const char *const junk[] = {
				"12abc", "", "abc", "0x10", "010", " 5", "5 ", "1e999", "nan",
				"inf", "1,5", "+", "2026-02-30T00:00:00Z", "2040-01-01T00:00:00Z",
				"-5",
			};
			const char *j = junk[rn(sizeof(junk) / sizeof(junk[0]))];

			buf_addf(&mu->desc, "-> (text) '%s'", j);
			buf_add(&doc, d, it->tx_off);
			buf_addstr(&doc, j);
			buf_add(&doc, d + it->tx_end, dn - it->tx_end);
			/* '-5' is a number: a negative one, refused for what erg
			 * reads; '010' a valid <real> (10), not a valid <integer> */
			c = 'a';
			if (it->tag == T_REAL && !strcmp(j, "010"))
				c = kind == K_CLF ? 'b' : kind == K_U || kind == K_PW ? 'c' : 'a';
			break;
		}
		/* fall through */
	case 2:		/* an element of another type */
		other_type(&piece, it, d);
		buf_addf(&mu->desc, "-> %s", piece.ptr);
		buf_add(&doc, d, it->el_off);
		buf_add(&doc, piece.ptr, piece.len);
		buf_add(&doc, d + it->el_end, dn - it->el_end);
		c = 'a';
		break;
	case 3:		/* the key renamed */
	case 4:		/* the member deleted */
		buf_addstr(&mu->desc, op == 3 ? "key renamed" : "deleted");
		buf_add(&doc, d, it->key_off);
		if (op == 3) {
			const char *ke = strstr(d + it->key_off, "</key>");

			buf_add(&doc, d + it->key_off, (size_t)(ke - (d + it->key_off)));
			buf_addstr(&doc, "_x");
			buf_add(&doc, ke, dn - (size_t)(ke - d));
		} else {
			buf_add(&doc, d + it->el_end, dn - it->el_end);
		}
		switch (kind) {
		case K_TH: case K_PROC: case K_CLS: case K_CLN: case K_CLF: case K_CL:
			c = 'b';
			break;
		case K_HW: case K_OS: case K_U:
			c = 'c';
			break;
		default:
			c = 'a';
			break;
		}
		break;
	case 5:		/* doubled (a key erg reads twice is refused) */
	default:
		if (!it->member) {
			int twice = (int)rn(2);

			buf_addstr(&mu->desc, twice ? "doubled" : "deleted");
			buf_add(&doc, d, it->el_end);
			if (twice)
				buf_add(&doc, d + it->el_off, it->el_end - it->el_off);
			else
				buf_setlen(&doc, doc.len - (it->el_end - it->el_off));
			buf_add(&doc, d + it->el_end, dn - it->el_end);
			c = kind == K_CL ? 'b' : kind == K_U ? 'c' : 'a';
			break;
		}
		buf_addstr(&mu->desc, "given twice");
		buf_add(&doc, d, it->el_end);
		buf_add(&doc, d + it->key_off, it->el_end - it->key_off);
		buf_add(&doc, d + it->el_end, dn - it->el_end);
		c = kind == K_U ? 'c' : 'a';
		break;
	}
	mu->cls = cls_of(c);
	if (mu->cls == CLS_B)
		sample_patch(S, mu, k, &doc);
	if (mu->cls == CLS_B && kind == K_E && op == 0) {
		mu->echeck = 1;
		mu->es = k;
		mu->dj = mu->p[0].smp.joules - S->smp[k].joules;
	}
	power_text(S, k, DOC_REPLACE, &doc, &mu->text);
	buf_release(&doc);
	buf_release(&piece);
	free(items);
}

/* ---- the prediction --------------------------------------------------------- */

static int
apply(struct run *r, const struct mut *mu, const struct res *got)
{
	struct power_file *pf = r->npf ? &r->pf[0] : NULL;
	int k;

	for (k = 0; k < mu->np; k++) {
		const struct patch *p = &mu->p[k];
		struct measurement *m = p->op == P_ROUTE || p->op == P_MEAS || p->op == P_LOAD ||
					p->op == P_ROUTE_SWAP ? &r->m[p->i] : NULL;
		struct route_win *w = m && p->op != P_MEAS ? &m->routes[p->j] : NULL, tw;
		struct idle_win *iw = p->op == P_IDLE || p->op == P_IDLE_DEL ||
				      p->op == P_IDLE_SWAP ? &r->idle[p->i] : NULL, ti;
		struct load_result *l = w ? &w->load : NULL;
		struct psample *s = pf && (p->op == P_SAMPLE || p->op == P_SAMPLE_DEL ||
					    p->op == P_SAMPLE_SWAP) ? &pf->s[p->i] : NULL, ts;
		size_t h, i;

		switch (p->op) {
		case P_SESS:
			r->session_start_ms = p->v;
			r->session_end_ms = p->v2;
			break;
		case P_ROUTE:
			switch (p->field) {
			case RF_START: w->start_ms = p->v; break;
			case RF_END: w->end_ms = p->v; break;
			case RF_RPS: w->rps_mean = p->v; break;
			case RF_RPSSD: w->rps_sd = p->v; break;
			case RF_RPS_LOAD: w->rps_mean = l->rps_mean; break;
			case RF_RPSSD_LOAD: w->rps_sd = l->rps_sd; break;
			}
			break;
		case P_MEAS:
			switch (p->field) {
			case MF_START: m->start_ms = p->v; break;
			case MF_END: m->end_ms = p->v; break;
			case MF_STARTUP: m->startup_ms = p->v; break;
			case MF_RSSB: m->rss_before = p->v; break;
			case MF_RSSA: m->rss_after = p->v; break;
			}
			break;
		case P_IDLE:
			switch (p->field) {
			case IF_START: iw->start_ms = p->v; break;
			case IF_END: iw->end_ms = p->v; break;
			case IF_BSTART: iw->base_start_ms = p->v; break;
			case IF_BEND: iw->base_end_ms = p->v; break;
			case IF_KIND:
				free(iw->kind);
				iw->kind = p->s ? xstrdup(p->s) : NULL;
				break;
			case IF_ID:
				free(iw->id);
				iw->id = xstrdup(p->s);
				break;
			case IF_FOLLOWS:
				free(iw->follows);
				iw->follows = p->s ? xstrdup(p->s) : NULL;
				break;
			}
			break;
		case P_IDLE_DEL:
			free(iw->id);
			free(iw->kind);
			free(iw->follows);
			free(iw->precedes);
			memmove(iw, iw + 1, (r->nidle - p->i - 1) * sizeof(*iw));
			r->nidle--;
			break;
		case P_IDLE_SWAP:
			ti = iw[0];
			iw[0] = iw[1];
			iw[1] = ti;
			break;
		case P_ROUTE_SWAP:
			tw = w[0];
			w[0] = w[1];
			w[1] = tw;
			break;
		case P_LOAD:
			switch (p->field) {
			case LF_CONN: l->connections = p->v; break;
			case LF_TT: l->time_taken_s = p->v; break;
			case LF_LMEAN: l->lat_mean_us = p->v; break;
			case LF_LSD: l->lat_sd_us = p->v; break;
			case LF_LMAX: l->lat_max_us = p->v; break;
			case LF_LAT:
				l->lat_mean_us = l->lat_sd_us = l->lat_max_us = NAN;
				break;
			case LF_RPS:
				/* the timeline's rpsMean comes first */
				l->rps_mean = p->v;
				if (!G->tl_rps[p->i][p->j])
					w->rps_mean = p->v;
				if (p->v2 && !G->tl_rpssd[p->i][p->j])
					w->rps_sd = NAN;	/* the whole rps object gone */
				break;
			case LF_RPSSD:
				l->rps_sd = p->v;
				if (!G->tl_rpssd[p->i][p->j])
					w->rps_sd = p->v;
				break;
			case LF_URL:
				free(l->url);
				l->url = p->s ? xstrdup(p->s) : NULL;
				break;
			}
			break;
		case P_SAMPLE:
			s->ts_ms = p->smp.ts;
			s->elapsed_ms = p->smp.el;
			s->joules = p->smp.joules;
			s->pclust_mhz = p->smp.pcl;
			s->eclust_mhz = p->smp.ecl;
			s->thermal = (signed char)p->smp.thermal;
			break;
		case P_SAMPLE_DEL:
			memmove(s, s + 1, (pf->n - p->i - 1) * sizeof(*s));
			pf->n--;
			break;
		case P_SAMPLE_SWAP:
			ts = s[0];
			s[0] = s[1];
			s[1] = ts;
			break;
		case P_REFIT:
			/* the holes erg found (checked against the change first) */
			free(pf->holes);
			pf->holes = NULL;
			pf->nholes = got ? got->nholes : 0;
			if (pf->nholes) {
				pf->holes = xmalloc(pf->nholes * sizeof(*pf->holes));
				memcpy(pf->holes, got->holes, pf->nholes * sizeof(*pf->holes));
			}
			for (h = 0; h < pf->nholes; h++)
				for (i = pf->holes[h].at - pf->holes[h].unplaced;
				     i < pf->holes[h].at; i++) {
					pf->s[i].unplaced = 1;
					pf->s[i].joules = NAN;
				}
			power_fit(pf);
			break;
		}
	}
	return 0;
}

static void
load_patch(struct sess *S, const struct file *f, struct mut *mu, const struct prule *ru,
	   json_t *v)
{
	struct patch *p;

	(void)S;
	if (f->m == SIZE_MAX)
		BUG("load file '%s' of no route", f->rel);
	p = add_patch(mu, P_LOAD, f->m, f->j, ru->field, json_is_number(v) ?
		      json_number_value(v) : NAN);
	if (ru->field == LF_URL)
		p->s = json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
	if (ru->field == LF_RPS && !v && !strcmp(ru->path, "result.rps"))
		p->v2 = 1;
}

/* ---- one trial ------------------------------------------------------------ */

static uint64_t seed = 1;
static int verbose;
static size_t nfail_shown;

/* Failures of one kind (the change with its numbers left out) are shown once. */
static char *fail_kind[256];
static size_t nfail_kind;

static int
new_kind(const struct mut *mu)
{
	struct buf k = BUF_INIT;
	const char *p = mu->desc.ptr, *e = strstr(p, " -> ");
	size_t i;

	for (; *p && (!e || p < e); p++)
		if (!isdigit((unsigned char)*p))
			buf_addch(&k, *p);
		else if (!k.len || k.ptr[k.len - 1] != 'N')
			buf_addch(&k, 'N');
	for (i = 0; i < nfail_kind; i++)
		if (!strcmp(fail_kind[i], k.ptr)) {
			buf_release(&k);
			return 0;
		}
	if (nfail_kind < 256)
		fail_kind[nfail_kind++] = buf_detach(&k, NULL);
	else
		buf_release(&k);
	return 1;
}

static void
fail(struct sess *S, size_t t, const struct mut *mu, const char *fmt, ...)
{
	va_list ap;

	S->fail[mu->cls]++;
	if (!new_kind(mu) || nfail_shown++ >= 40)
		return;
	printf("# FAIL %s trial %zu (class %c): %s\n#   ", S->name, t, cls_name[mu->cls],
	       mu->desc.ptr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n#   again: PROP_SEED=%llu PROP_ONLY=%s:%zu %s/tests/test_prop\n",
	       (unsigned long long)seed, S->name, t,
	       getenv("BUILD") ? getenv("BUILD") : "build");
}

static double
overlap(double a0, double a1, double b0, double b1)
{
	double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* Only the windows overlapping sample es moved, each by its share. */
static int
energy_check(struct sess *S, const struct mut *mu, json_t *fig, struct buf *why)
{
	const struct psample *s = &S->smp[mu->es];
	size_t k;

	for (k = 0; k < S->nwin; k++) {
		const struct win *w = &S->win[k];
		json_t *a, *b;
		double ov = overlap(s->start_ms, s->end_ms, w->t0, w->t1), want, got;

		if (w->idle) {
			a = json_array_get(json_object_get(S->fig, "idle_windows"), w->i);
			b = json_array_get(json_object_get(fig, "idle_windows"), w->i);
		} else {
			a = json_array_get(json_object_get(json_array_get(
				json_object_get(S->fig, "measurements"), w->i), "routes"), w->j);
			b = json_array_get(json_object_get(json_array_get(
				json_object_get(fig, "measurements"), w->i), "routes"), w->j);
		}
		want = json_number_value(json_object_get(a, "energy_j")) +
		       mu->dj * ov / (s->end_ms - s->start_ms);
		got = json_number_value(json_object_get(b, "energy_j"));
		if (ov ? !(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12) : got != want) {
			buf_addf(why, "%s window %zu.%zu: energy %.17g J, the overlap integral "
				 "says %.17g (overlap %.3f ms of the sample)", w->idle ? "idle" :
				 "route", w->i, w->j, got, want, ov);
			return 1;
		}
	}
	return 0;
}

/* A hole erg found must be the change's: one sample, where it was. */
static int
hole_check(const struct mut *mu, const struct res *got, struct buf *why)
{
	const struct phole *h = got->holes;

	if (!got->nholes)
		return 0;
	if (!mu->hole || got->nholes != 1 || h->missing != 1 ||
	    mu->hs + 2 < h->at - h->unplaced || mu->hs > h->at + 2 ||
	    (mu->hole_ms > 0 && fabs(h->ms - mu->hole_ms) > 0.15 * mu->hole_ms)) {
		buf_addf(why, "%zu hole(s): the first before sample index %zu, %d missing, "
			 "%.1f ms, %zu unplaced", got->nholes, h->at, h->missing, h->ms,
			 h->unplaced);
		return 1;
	}
	return 0;
}

/* Refusals located by file only: counted, and each message shown once. */
static void
file_level(struct sess *S, const struct buf *diag)
{
	struct buf msg = BUF_INIT;
	const char *e = first_error(diag, &msg), *m = strstr(e, ": error: ");
	size_t i;

	S->file_level++;
	for (i = 0; i < S->nfl; i++)
		if (!strcmp(S->fl[i], m))
			break;
	if (i == S->nfl && S->nfl < 16) {
		S->fl[S->nfl++] = xstrdup(m);
		printf("# %s: refused with an error for a whole file: %s\n", S->name, e);
	}
	buf_release(&msg);
}

static void
trial(struct sess *S, size_t t)
{
	struct mut mu;
	struct res got, want;
	struct buf path = BUF_INIT, why = BUF_INIT, tmp = BUF_INIT, p = BUF_INIT;
	const struct file *f;
	size_t w;
	int here, loc;

	memset(&mu, 0, sizeof(mu));
	mut_clear(&mu);
	rstate = seed * 0x2545F4914F6CDD1DULL + t * 0x9E3779B97F4A7C15ULL +
		 (S->name[0] == 'r' ? 0x5bd1e995 : 0);
	rnd();
	/* the reference session for what its power file tells apart */
	w = rn(100);
	if (w < (S->phase_locked ? 40 : 20))
		tl_mut(S, &mu);
	else if (w < (S->phase_locked ? 75 : 80))
		power_mut(S, &mu);
	else if (w < 90)
		doc_mut(S, S->power + 1 + rn(S->nf - S->power - 1), &mu);
	else
		doc_mut(S, S->meta, &mu);
	f = &S->f[mu.file];
	buf_addf(&p, "%s/%s", S->dir, f->rel);
	write_file(p.ptr, mu.text.ptr, mu.text.len);
	run_dir(S->dir, NULL, NULL, &got);
	if (getenv("PROP_ONLY"))
		printf("# kept: %s\n# diagnostics:\n%s", p.ptr, got.diag.ptr);
	else
		write_file(p.ptr, f->data, f->len);
	S->trials++;
	S->n[mu.cls]++;
	if (verbose)
		printf("# %s %zu %c%s: %s -> %s\n", S->name, t, cls_name[mu.cls],
		       mu.may_refuse ? "?" : "", mu.desc.ptr, got.rc ? "refused" : "accepted");
	if (got.rc) {
		if (mu.cls == CLS_C || (mu.cls == CLS_B && !mu.may_refuse))
			fail(S, t, &mu, "refused: %s", first_error(&got.diag, &tmp));
		else if (!(loc = located(&got.diag, S->dir, f->rel, &here)))
			fail(S, t, &mu, "refused without a located error: %s",
			     first_error(&got.diag, &tmp));
		else {
			S->refused[mu.cls]++;
			S->located_here[mu.cls] += here;
			if (loc == 1)
				file_level(S, &got.diag);
		}
	} else if (mu.cls != CLS_B) {
		if (jcmp(got.fig, S->fig, &path, &why))
			fail(S, t, &mu, "accepted with other figures: %s", why.ptr);
	} else if (hole_check(&mu, &got, &why)) {
		fail(S, t, &mu, "accepted, with a hole the change does not explain: %s", why.ptr);
	} else {
		run_dir(S->pristine, &mu, &got, &want);
		if (want.rc)
			fail(S, t, &mu, "accepted, but the predicted model does not analyse: %s",
			     first_error(&want.diag, &tmp));
		else if (jcmp(got.fig, want.fig, &path, &why))
			fail(S, t, &mu, "accepted with figures other than predicted: %s", why.ptr);
		else if (mu.echeck && energy_check(S, &mu, got.fig, &why))
			fail(S, t, &mu, "%s", why.ptr);
		else if (mu.echeck)
			S->energy_checked++;
		res_free(&want);
	}
	res_free(&got);
	mut_clear(&mu);
	buf_release(&mu.desc);
	buf_release(&mu.text);
	buf_release(&path);
	buf_release(&why);
	buf_release(&tmp);
	buf_release(&p);
}

/* ---- setting up a session --------------------------------------------------- */

static int
strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
load_session(struct sess *S)
{
	struct buf p = BUF_INIT;
	struct run r;
	DIR *d;
	struct dirent *e;
	size_t i, j, k, ni, nm = 0, nr[256] = { 0 };
	char **names = NULL;
	size_t nn = 0;
	json_t *res;
	int rc;

	S->meta = S->nf;
	add_file(S, "meta.json");
	S->timeline = S->nf;
	add_file(S, "timeline.jsonl");
	S->power = S->nf;
	add_file(S, "power.plist");
	buf_addf(&p, "%s/bombardier", S->pristine);
	if (!(d = opendir(p.ptr)))
		die_errno("%s", p.ptr);
	while ((e = readdir(d)))
		if (str_endswith(e->d_name, ".json")) {
			names = xrealloc(names, (nn + 1) * sizeof(*names));
			names[nn++] = xstrdup(e->d_name);
		}
	closedir(d);
	qsort(names, nn, sizeof(*names), strcmp_p);
	for (i = 0; i < nn; i++) {
		buf_reset(&p);
		buf_addf(&p, "bombardier/%s", names[i]);
		add_file(S, p.ptr);
		free(names[i]);
	}
	free(names);
	for (i = 0; i < S->nf; i++) {
		S->f[i].m = SIZE_MAX;
		if (i == S->meta || i > S->power)
			if (!(S->f[i].json = json_loadb(S->f[i].data, S->f[i].len, 0, NULL)))
				die("%s: not JSON", S->f[i].rel);
	}

	/* the timeline, line by line, with the model's indexes */
	{
		const struct file *f = &S->f[S->timeline];
		const char *q = f->data, *nl;

		for (; q < f->data + f->len; q = nl + 1) {
			struct tline *t;
			json_t *ts;
			int ev;

			nl = memchr(q, '\n', (size_t)(f->data + f->len - q));
			if (!nl)
				nl = f->data + f->len;
			S->tl = xrealloc(S->tl, (S->ntl + 1) * sizeof(*S->tl));
			t = &S->tl[S->ntl];
			memset(t, 0, sizeof(*t));
			t->text = xstrndup(q, (size_t)(nl - q));
			if (!(t->o = json_loads(t->text, 0, NULL)))
				die("timeline line %zu: not JSON", S->ntl + 1);
			t->ev = json_string_value(json_object_get(t->o, "event"));
			t->id = json_string_value(json_object_get(t->o, "id"));
			ts = json_object_get(t->o, "ts");
			t->has_ts = json_is_number(ts) && t->ev;
			t->ts = json_number_value(ts);
			t->m = t->j = t->idle = SIZE_MAX;
			ev = ev_index(t->ev);
			if (ev < 0)
				die("timeline line %zu: event '%s'", S->ntl + 1, t->ev);
			S->by_ev[ev] = xrealloc(S->by_ev[ev], (S->nby_ev[ev] + 1) * sizeof(size_t));
			S->by_ev[ev][S->nby_ev[ev]++] = S->ntl;
			if (ev == 2) {
				t->idle = S->nidle;
				S->iid = xrealloc(S->iid, (S->nidle + 1) * sizeof(char *));
				S->iid[S->nidle++] = xstrdup(t->id);
			}
			if (ev == 3) {
				S->mid = xrealloc(S->mid, (nm + 1) * sizeof(char *));
				S->mid[nm++] = xstrdup(t->id);
			}
			if (ev >= 3 && ev <= 5)
				for (k = 0; k < nm; k++)
					if (!strcmp(S->mid[k], t->id))
						t->m = k;
			if (ev == 4)
				t->j = nr[t->m]++;
			S->ntl++;
		}
	}
	S->nm = nm;

	/* the power file's documents */
	{
		const struct file *f = &S->f[S->power];
		size_t a = 0, b;

		while (a < f->len) {
			const char *z = memchr(f->data + a, '\0', f->len - a);

			b = z ? (size_t)(z - f->data) : f->len;
			if (b > a) {
				S->doc = xrealloc(S->doc, (S->ndoc + 1) * sizeof(size_t));
				S->doc_end = xrealloc(S->doc_end, (S->ndoc + 1) * sizeof(size_t));
				S->doc[S->ndoc] = a;
				S->doc_end[S->ndoc++] = b;
			}
			a = b + 1;
		}
	}

	/* the intact model and figures */
	diag_quiet_warnings = 1;
	rc = session_read(S->pristine, "prop", &r);
	if (!rc)
		rc = analyze_run(&r);
	CHECK(rc == 0, "%s: the intact session reads and analyses", S->name);
	if (rc)
		exit(th_done());
	r.validation = checks_run(&r);
	res = results_json(&r);
	S->fig = figures(res);
	json_decref(res);
	CHECK(r.npf == 1 && r.pf[0].n == S->ndoc && !r.pf[0].dropped && !r.pf[0].nholes &&
	      r.nm == nm && r.nidle == S->nidle,
	      "%s: %zu documents, %zu samples, %zu measurements, %zu idle windows", S->name,
	      S->ndoc, r.npf ? r.pf[0].n : 0, r.nm, r.nidle);
	S->nsmp = r.pf[0].n;
	S->smp = xmalloc(S->nsmp * sizeof(*S->smp));
	memcpy(S->smp, r.pf[0].s, S->nsmp * sizeof(*S->smp));
	S->tl_rps = xcalloc(nm, sizeof(*S->tl_rps));
	S->tl_rpssd = xcalloc(nm, sizeof(*S->tl_rpssd));
	S->start_ms = r.session_start_ms;
	S->end_ms = r.session_end_ms;
	ni = 0;
	for (i = 0; i < S->ntl; i++) {
		const struct tline *t = &S->tl[i];

		if (t->j != SIZE_MAX) {
			const struct route_win *w = &r.m[t->m].routes[t->j];

			if (t->j >= 8 || strcmp(w->name, json_string_value(json_object_get(t->o,
									"route"))))
				die("timeline line %zu: not route %zu of measurement %zu", i + 1,
				    t->j, t->m);
			S->tl_rps[t->m][t->j] = json_is_number(json_object_get(t->o, "rpsMean"));
			S->tl_rpssd[t->m][t->j] = json_is_number(json_object_get(t->o,
										 "rpsStddev"));
		}
		if (t->m != SIZE_MAX && strcmp(r.m[t->m].id, t->id))
			die("timeline line %zu: not measurement %zu", i + 1, t->m);
		if (t->idle != SIZE_MAX && strcmp(r.idle[t->idle].id, t->id))
			die("timeline line %zu: not idle window %zu", i + 1, t->idle);
	}
	for (i = 0; i < r.nm; i++)
		for (j = 0; j < r.m[i].nroutes; j++) {
			const struct route_win *w = &r.m[i].routes[j];

			S->win = xrealloc(S->win, (S->nwin + 1) * sizeof(*S->win));
			S->win[S->nwin++] = (struct win){ 0, i, j, w->start_ms, w->end_ms };
			for (k = S->power + 1; w->has_load && k < S->nf; k++)
				if (!strcmp(S->f[k].rel, w->load_rel)) {
					S->f[k].m = i;
					S->f[k].j = j;
					ni++;
				}
		}
	for (i = 0; i < r.nidle; i++) {
		const struct idle_win *w = &r.idle[i];

		S->win = xrealloc(S->win, (S->nwin + 1) * sizeof(*S->win));
		S->win[S->nwin++] = (struct win){ 1, i, 0, w->base_start_ms,
						  fmin(w->base_end_ms, w->end_ms) };
	}
	CHECK(ni == S->nf - S->power - 1, "%s: %zu load files, each of one route", S->name, ni);
	run_free(&r);
	buf_release(&p);
}

/*
 * The comparison is not blind: one corruption worked by hand.  The small
 * session's sample 23 covers [22.5 s, 23.5 s], inside route 'a' of
 * r1-s1-alpha ([21 s, 26 s]) and no other window; 1000 mJ more in its
 * cpu_energy is 1 J more in that window, nothing else.
 */
static void
canary(struct sess *S)
{
	const struct file *f = &S->f[S->power];
	const char *d = f->data + S->doc[22], *k = strstr(d, "<key>cpu_energy</key>\n<integer>");
	struct buf text = BUF_INIT, doc = BUF_INIT, path = BUF_INIT, why = BUF_INIT;
	struct res got;
	json_t *a, *b;
	char *end;
	long mj;
	int differs;

	k += strlen("<key>cpu_energy</key>\n<integer>");
	mj = strtol(k, &end, 10);
	buf_add(&doc, d, (size_t)(k - d));
	buf_addf(&doc, "%ld", mj + 1000);
	buf_add(&doc, end, S->doc_end[22] - (size_t)(end - f->data));
	power_text(S, 22, DOC_REPLACE, &doc, &text);
	buf_addf(&path, "%s/power.plist", S->dir);
	write_file(path.ptr, text.ptr, text.len);
	run_dir(S->dir, NULL, NULL, &got);
	write_file(path.ptr, f->data, f->len);
	a = json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(S->fig, "measurements"), 0), "routes"), 0), "energy_j");
	b = got.fig ? json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(got.fig, "measurements"), 0), "routes"), 0), "energy_j") : NULL;
	buf_reset(&path);
	differs = got.fig && jcmp(got.fig, S->fig, &path, &why);
	CHECK(!got.rc && json_number_value(b) == json_number_value(a) + 1 && differs,
	      "%s: sample 23's cpu_energy %ld -> %ld mJ: r1-s1-alpha 'a' %g -> %g J, and the "
	      "comparison sees it (%s)", S->name, mj, mj + 1000, json_number_value(a),
	      json_number_value(b), why.ptr);
	res_free(&got);
	buf_release(&text);
	buf_release(&doc);
	buf_release(&path);
	buf_release(&why);
}

static void
sess_free(struct sess *S)
{
	size_t i;

	for (i = 0; i < S->nf; i++) {
		free(S->f[i].rel);
		free(S->f[i].data);
		json_decref(S->f[i].json);
	}
	free(S->f);
	for (i = 0; i < S->ntl; i++) {
		free(S->tl[i].text);
		json_decref(S->tl[i].o);
	}
	free(S->tl);
	for (i = 0; i < NEV; i++)
		free(S->by_ev[i]);
	for (i = 0; i < S->nm; i++)
		free(S->mid[i]);
	free(S->mid);
	for (i = 0; i < S->nidle; i++)
		free(S->iid[i]);
	free(S->iid);
	free(S->doc);
	free(S->doc_end);
	free(S->smp);
	free(S->win);
	free(S->tl_rps);
	free(S->tl_rpssd);
	json_decref(S->fig);
	for (i = 0; i < S->nfl; i++)
		free(S->fl[i]);
	if (!getenv("PROP_ONLY"))
		sh("rm -rf '%s'", S->top);
	free(S->top);
	free(S->dir);
	free(S->pristine);
}

static void
report(struct sess *S)
{
	CHECK(!S->fail[CLS_A], "%s: class a (must be refused): %zu trials, %zu refused with a "
	      "located error (%zu in the changed file, %zu of all refusals for a whole file), "
	      "%zu accepted with the intact figures; %zu failed", S->name, S->n[CLS_A],
	      S->refused[CLS_A], S->located_here[CLS_A], S->file_level,
	      S->n[CLS_A] - S->refused[CLS_A] - S->fail[CLS_A], S->fail[CLS_A]);
	CHECK(!S->fail[CLS_B], "%s: class b (a valid change): %zu trials, %zu with exactly the "
	      "predicted figures (%zu energy changes checked against the overlap integral), "
	      "%zu refused with a located error; %zu failed", S->name, S->n[CLS_B],
	      S->n[CLS_B] - S->refused[CLS_B] - S->fail[CLS_B], S->energy_checked,
	      S->refused[CLS_B], S->fail[CLS_B]);
	CHECK(!S->fail[CLS_C], "%s: class c (no figure may change): %zu trials, accepted with "
	      "the intact figures; %zu failed", S->name, S->n[CLS_C], S->fail[CLS_C]);
	CHECK(S->n[CLS_A] && S->n[CLS_B] && S->n[CLS_C], "%s: every class was tried", S->name);
}

static size_t
env_size(const char *name, size_t def)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return def;
	n = strtoull(v, &end, 10);
	if (*end)
		die("%s: not a number: '%s'", name, v);
	return (size_t)n;
}

static void
setup(struct sess *S, const char *name, const char *how)
{
	char top[] = "/tmp/erg-prop-XXXXXX";
	struct buf b = BUF_INIT;

	memset(S, 0, sizeof(*S));
	S->name = name;
	if (!mkdtemp(top))
		die_errno("mkdtemp");
	S->top = xstrdup(top);
	buf_addf(&b, "%s/p/run", top);
	S->pristine = buf_detach(&b, NULL);
	buf_addf(&b, "%s/w/run", top);
	S->dir = buf_detach(&b, NULL);
	sh("mkdir -p '%s/p' '%s/w'", top, top);
	sh(how, S->pristine);
	sh("cp -R '%s' '%s/w/'", S->pristine, top);
	load_session(S);
}

int
main(void)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	const char *src = getenv("ERG_SRC") ? getenv("ERG_SRC") : ".";
	const char *only = getenv("PROP_ONLY");
	struct buf how = BUF_INIT;
	struct sess S;
	size_t t, n, k;
	int light;

	seed = env_size("PROP_SEED", 1);
	verbose = getenv("PROP_VERBOSE") != NULL;
	for (k = 0; k < 2; k++) {
		const char *name = k ? "ref" : "small";

		if (only && strncmp(only, name, strlen(name)))
			continue;
		buf_reset(&how);
		if (!k)
			buf_addf(&how, "'%s/tools/mksmall' '%%s'", build);
		else
			buf_addf(&how, "cp -R '%s/archive/m5-energy/2026-08-26T0856-saturated' "
				 "'%%1$s' && gzip -d '%%1$s/power.plist.gz'", src);
		setup(&S, name, how.ptr);
		G = &S;
		S.phase_locked = !k;
		/* under valgrind (make valgrind sets ERG_TEST_LIGHT) a trial
		 * costs ~50 times more: a sample of each kind; the full count
		 * in make test, a quarter in make asan (PROP_ITER and
		 * PROP_REF_ITER set there) */
		light = getenv("ERG_TEST_LIGHT") != NULL;
		n = k ? env_size("PROP_REF_ITER", light ? 6 : 300) :
			env_size("PROP_ITER", light ? 200 : 8000);
		if (!k && !only)
			canary(&S);
		if (only)
			trial(&S, strtoul(strchr(only, ':') ? strchr(only, ':') + 1 : "0", NULL, 10));
		else
			for (t = 0; t < n; t++)
				trial(&S, t);
		if (!only)
			report(&S);
		sess_free(&S);
	}
	buf_release(&how);
	for (k = 0; k < nfail_kind; k++)
		free(fail_kind[k]);
	return th_done();
}
