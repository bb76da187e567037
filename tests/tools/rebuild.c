/*
 * rebuild - write a raw energy session directory from the published
 * per-window dataset.
 *
 * The published dataset (iceman951/blog src/data/energy-benchmark-m5.json)
 * holds one record per load window and per idle window, not the raw files.
 * This tool writes the files the energy runner would have left behind
 * (meta.json, timeline.jsonl, bombardier/<window>.json, power.plist[.gz])
 * such that the published method, applied to them, gives back the
 * published figures: per-window energy, idle floors, coverage and mean
 * performance cluster frequency.  What happens inside a window (sample-level power,
 * sampling jitter, the fields the dataset does not carry) is synthetic, but
 * for the windows the dataset's powerTrace publishes sample by sample: there
 * the samples are the published ones (see Plan).
 *
 * Output is a pure function of the dataset, the seed and the options.
 *
 * With --attribution it writes the dataset's other session instead: the
 * CPU-time attribution pass (its "attribution" block), whose power samples
 * carry the powermetrics tasks array; see make_attribution() and
 * assign_tasks().
 *
 * Usage: rebuild [options] DATASET.json OUTDIR   (see usage() below)
 */

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>
#include <zlib.h>

#define NROUTES 4
#define MAXMEAS 64
#define NBUCKET 7	/* attribution buckets, see BUCKET[] */
#define NPROC 11	/* processes of a load window in the attribution session */
#define MAXIDLE 80
#define MAXPERTURB 16

/* Margin (ms) around every window edge inside which power is flat. */
#define EDGE_MARGIN 600.0

/* Length (ms of elapsed time) of the stretch before a traced window over
 * which the sampling phase is moved onto the published sample starts. */
#define TRACE_ZONE 60000.0

static const char *progname = "rebuild";

/* ---------------------------------------------------------------- util */

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

typedef struct {
	char *p;
	size_t len, cap;
} sbuf;

static void sb_reserve(sbuf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	char *np = realloc(b->p, cap);
	if (!np)
		die("out of memory");
	b->p = np;
	b->cap = cap;
}

static void sb_putn(sbuf *b, const char *s, size_t n)
{
	sb_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

static void sb_putc(sbuf *b, char c)
{
	sb_putn(b, &c, 1);
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("vsnprintf failed");
	sb_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void sb_free(sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* JSON string literal (the dataset's strings are plain ASCII/UTF-8). */
static void sb_jstr(sbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"': sb_puts(b, "\\\""); break;
		case '\\': sb_puts(b, "\\\\"); break;
		case '\n': sb_puts(b, "\\n"); break;
		case '\r': sb_puts(b, "\\r"); break;
		case '\t': sb_puts(b, "\\t"); break;
		default:
			if (c < 0x20)
				sb_printf(b, "\\u%04x", c);
			else
				sb_putc(b, (char)c);
		}
	}
	sb_putc(b, '"');
}

/* XML text (plist <string>). */
static void sb_xml(sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sb_puts(b, "&amp;"); break;
		case '<': sb_puts(b, "&lt;"); break;
		case '>': sb_puts(b, "&gt;"); break;
		default: sb_putc(b, *s);
		}
	}
}

/* ---------------------------------------------------------------- PRNG */

typedef struct {
	uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* An independent stream per purpose, so that one option does not shift
 * the jitter of unrelated output. */
static rng rng_make(uint64_t seed, const char *label, uint64_t sub)
{
	uint64_t h = 1469598103934665603ULL;
	rng r;

	for (const char *p = label; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	r.s = seed * 0xD1B54A32D192ED03ULL ^ h ^ (sub * 0x9E3779B97F4A7C15ULL);
	rng_next(&r);
	rng_next(&r);
	return r;
}

static double rng_unif(rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_sym(rng *r)
{
	return 2.0 * rng_unif(r) - 1.0;
}

/* Roughly standard normal (Irwin-Hall, no libm). */
static double rng_gauss(rng *r)
{
	double s = 0;

	for (int i = 0; i < 12; i++)
		s += rng_unif(r);
	return s - 6.0;
}

static long rng_range(rng *r, long lo, long hi)
{
	return lo + (long)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* ---------------------------------------------------------- numbers */

/* Shortest decimal digits that round-trip v (> 0, finite).  Returns the
 * digit count; *e10 is the decimal exponent of the first digit. */
static int shortest_digits(double v, char *dig, int *e10)
{
	char buf[40];
	int p;

	for (p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	int n = 0;
	char *q = buf;
	for (; *q && *q != 'e'; q++)
		if (*q >= '0' && *q <= '9')
			dig[n++] = *q;
	*e10 = atoi(q + 1);
	while (n > 1 && dig[n - 1] == '0')
		n--;
	dig[n] = '\0';
	return n;
}

/* Decimal form of digits with exponent e10 (no exponent notation). */
static void put_plain(sbuf *b, const char *dig, int n, int e10)
{
	if (e10 < 0) {
		sb_puts(b, "0.");
		for (int i = 0; i < -e10 - 1; i++)
			sb_putc(b, '0');
		sb_putn(b, dig, (size_t)n);
	} else if (n <= e10 + 1) {
		sb_putn(b, dig, (size_t)n);
		for (int i = n; i < e10 + 1; i++)
			sb_putc(b, '0');
	} else {
		sb_putn(b, dig, (size_t)e10 + 1);
		sb_putc(b, '.');
		sb_putn(b, dig + e10 + 1, (size_t)(n - e10 - 1));
	}
}

/* JavaScript Number#toString (what JSON.stringify writes). */
static void sb_js(sbuf *b, double v)
{
	char dig[40];
	int e10, n;

	if (!isfinite(v)) {
		sb_puts(b, "null");
		return;
	}
	if (v == 0) {
		sb_putc(b, '0');
		return;
	}
	if (v < 0) {
		sb_putc(b, '-');
		v = -v;
	}
	n = shortest_digits(v, dig, &e10);
	if (e10 >= -7 && e10 < 21) {
		put_plain(b, dig, n, e10);
		return;
	}
	sb_putc(b, dig[0]);
	if (n > 1) {
		sb_putc(b, '.');
		sb_putn(b, dig + 1, (size_t)n - 1);
	}
	sb_printf(b, "e%c%d", e10 < 0 ? '-' : '+', abs(e10));
}

/* Go fmt %v of a float64 (what bombardier's text/template writes). */
static void sb_go(sbuf *b, double v)
{
	char dig[40];
	int e10, n;

	if (v == 0) {
		sb_putc(b, '0');
		return;
	}
	if (v < 0) {
		sb_putc(b, '-');
		v = -v;
	}
	n = shortest_digits(v, dig, &e10);
	if (e10 >= -4 && e10 < 6) {
		put_plain(b, dig, n, e10);
		return;
	}
	sb_putc(b, dig[0]);
	if (n > 1) {
		sb_putc(b, '.');
		sb_putn(b, dig + 1, (size_t)n - 1);
	}
	sb_printf(b, "e%c%02d", e10 < 0 ? '-' : '+', abs(e10));
}

/* A value with exactly six decimals (bombardier's %f percentiles),
 * held as an integer count of millionths. */
static void sb_micro(sbuf *b, int64_t micro, int go)
{
	int64_t ip = micro / 1000000, fp = micro % 1000000;
	char frac[8];

	snprintf(frac, sizeof frac, "%06lld", (long long)fp);
	if (go) {
		sb_printf(b, "%lld.%s", (long long)ip, frac);
		return;
	}
	int n = 6;
	while (n > 0 && frac[n - 1] == '0')
		n--;
	sb_printf(b, "%lld", (long long)ip);
	if (n) {
		sb_putc(b, '.');
		sb_putn(b, frac, (size_t)n);
	}
}

static double round_to(double v, double unit)
{
	return floor(v / unit + 0.5) * unit;
}

/* Real as powermetrics prints it: %g, six significant digits. */
static void sb_real(sbuf *b, double v)
{
	if (v == 0)
		v = 0; /* no "-0" */
	sb_printf(b, "%g", v);
}

/* ------------------------------------------------------------ dataset */

static const char *const ROUTE[NROUTES] = { "ping", "query", "body", "video" };
static const char *const ROUTE_PATH[NROUTES] = {
	"/", "/id/1?name=bun", "/json", "/video"
};
/* Bytes of one request as fasthttp writes it. */
static const int ROUTE_REQ_BYTES[NROUTES] = { 62, 75, 136, 140 };

typedef struct {
	int64_t start, end; /* epoch ms */
	int64_t pid, requests, req2xx, others, bytes_read;
	double time_taken, rps_mean, rps_sd, lat_mean, lat_max;
	double energy, watts, mj_req, net_j, net_mj, idle_w, idle_share, mj_mb;
	double pmhz;
	/* synthesised */
	double target_mj;   /* energy the time axis must give back, mJ */
	double tol_mj;      /* how far the recovered energy may stray, mJ */
	double rps_mean_x, rps_sd_x, rps_max_x, lat_mean_x, lat_sd_x;
	int64_t rps_pct[5]; /* millionths */
	int64_t bytes_written;
	/* generation */
	double level;       /* W at the edges */
	double lvl_in, lvl_out; /* W just before and just after the window */
	int trace;          /* index into powerTrace series, -1 none */
	int exact;          /* its published samples are placed exactly */
	double slope;       /* interior trend */
	double recovered_j; /* for --verbose */
	/* attribution session: published bucket totals (ms) and, per
	 * process, the CPU-time level and the P-core fraction */
	double bk_cpu[NBUCKET], bk_p[NBUCKET];
	double tlvl[NPROC], tpfrac[NPROC];
} Route;

typedef struct {
	char *id, *framework, *target, *arm;
	int round, slot;
	int64_t server_pid, rss_before, rss_after, start, end;
	double startup_ms;
	Route r[NROUTES];
} Meas;

typedef struct {
	char *id, *kind, *follows, *precedes;
	int index;
	int64_t start, end, bstart, bend;
	double mean_w;
	double target_mj;
	double level;
	double recovered_w;
} Idle;

typedef struct {
	double t_ms, w;
} TracePt;

typedef struct {
	char *framework;
	TracePt *pt;
	size_t n;
} Trace;

typedef struct {
	json_t *root;
	Meas m[MAXMEAS];
	int nm;
	Idle id[MAXIDLE];
	int ni;
	Trace tr[8];
	int ntr;
	int trace_round;
} Dataset;

static json_t *jget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!v)
		die("dataset: missing key '%s'", k);
	return v;
}

static double jnum(json_t *o, const char *k)
{
	json_t *v = jget(o, k);

	if (!json_is_number(v))
		die("dataset: '%s' is not a number", k);
	return json_number_value(v);
}

static double jnum_or(json_t *o, const char *k, double dflt)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static int64_t jint(json_t *o, const char *k)
{
	json_t *v = jget(o, k);

	if (json_is_integer(v))
		return (int64_t)json_integer_value(v);
	if (json_is_real(v))
		return (int64_t)llround(json_real_value(v));
	die("dataset: '%s' is not an integer", k);
	return 0;
}

static const char *jstr(json_t *o, const char *k)
{
	json_t *v = jget(o, k);

	if (!json_is_string(v))
		die("dataset: '%s' is not a string", k);
	return json_string_value(v);
}

static char *jstr_or_null(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static void load_dataset(Dataset *d, const char *path)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);

	if (!root)
		die("%s:%d: %s", path, err.line, err.text);
	d->root = root;

	json_t *ms = jget(root, "measurements");
	if (!json_is_array(ms) || json_array_size(ms) == 0 ||
	    json_array_size(ms) > MAXMEAS)
		die("dataset: bad 'measurements'");
	d->nm = (int)json_array_size(ms);
	for (int i = 0; i < d->nm; i++) {
		json_t *mo = json_array_get(ms, (size_t)i);
		Meas *m = &d->m[i];
		m->id = xstrdup(jstr(mo, "id"));
		m->framework = xstrdup(jstr(mo, "framework"));
		m->target = xstrdup(jstr(mo, "target"));
		m->arm = json_is_string(json_object_get(mo, "arm")) ?
			 xstrdup(jstr(mo, "arm")) : xstrdup("saturated");
		m->round = (int)jint(mo, "round");
		m->slot = (int)jint(mo, "slot");
		m->server_pid = jint(mo, "serverPid");
		m->startup_ms = jnum(mo, "startupMs");
		m->rss_before = jint(mo, "rssBeforeBytes");
		m->rss_after = jint(mo, "rssAfterBytes");
		m->start = jint(mo, "startedAtMs");
		m->end = jint(mo, "endedAtMs");
		json_t *ro = jget(mo, "routes");
		for (int k = 0; k < NROUTES; k++) {
			json_t *x = jget(ro, ROUTE[k]);
			Route *r = &m->r[k];
			r->start = jint(x, "startedAtMs");
			r->end = jint(x, "endedAtMs");
			r->pid = jint(x, "bombardierPid");
			r->requests = jint(x, "requests");
			r->req2xx = json_object_get(x, "req2xx") ?
				    jint(x, "req2xx") : r->requests;
			r->others = json_object_get(x, "others") ?
				    jint(x, "others") : 0;
			r->bytes_read = jint(x, "bytesRead");
			r->time_taken = jnum(x, "timeTakenSeconds");
			r->rps_mean = jnum(x, "rpsMean");
			r->rps_sd = jnum(x, "rpsStddev");
			r->lat_mean = jnum(x, "latencyMeanUs");
			r->lat_max = jnum(x, "latencyMaxUs");
			r->energy = jnum(x, "energyJ");
			r->watts = jnum_or(x, "meanWatts", NAN);
			r->mj_req = jnum_or(x, "mjPerReq", NAN);
			r->net_j = jnum_or(x, "netEnergyJ", NAN);
			r->net_mj = jnum_or(x, "netMjPerReq", NAN);
			r->idle_w = jnum_or(x, "idleWatts", NAN);
			r->idle_share = jnum_or(x, "idleShare", NAN);
			r->mj_mb = jnum_or(x, "mjPerMB", NAN);
			r->pmhz = jnum(x, "pClusterMHz");
			r->trace = -1;
			if (r->end <= r->start || r->requests <= 0)
				die("dataset: bad window %s/%s", m->id, ROUTE[k]);
		}
	}

	json_t *is = jget(root, "idleWindows");
	if (!json_is_array(is) || json_array_size(is) == 0 ||
	    json_array_size(is) > MAXIDLE)
		die("dataset: bad 'idleWindows'");
	d->ni = (int)json_array_size(is);
	for (int i = 0; i < d->ni; i++) {
		json_t *io = json_array_get(is, (size_t)i);
		Idle *w = &d->id[i];
		w->id = xstrdup(jstr(io, "id"));
		w->kind = xstrdup(jstr(io, "kind"));
		w->index = (int)jint(io, "index");
		w->start = jint(io, "startedAtMs");
		w->end = jint(io, "endedAtMs");
		w->mean_w = jnum(io, "meanWatts");
		w->follows = jstr_or_null(io, "followsMeasurementId");
		w->precedes = jstr_or_null(io, "precedesMeasurementId");
		int64_t len = w->end - w->start;
		int64_t off = (int64_t)llround(0.52 * (double)len);
		w->bstart = w->start + (off > 2000 ? off : 2000);
		w->bend = w->start + len - 2000;
		if (w->bend <= w->bstart)
			die("dataset: idle window %s too short", w->id);
	}

	json_t *pt = json_object_get(root, "powerTrace");
	if (json_is_object(pt)) {
		json_t *ser = json_object_get(pt, "series");
		const char *fw;
		json_t *arr;
		d->trace_round = (int)jnum_or(pt, "round", 0);
		const char *rt = json_is_string(json_object_get(pt, "route")) ?
				 jstr(pt, "route") : "ping";
		if (strcmp(rt, "ping") == 0 && json_is_object(ser)) {
			json_object_foreach(ser, fw, arr) {
				if (!json_is_array(arr) || d->ntr >= 8)
					continue;
				Trace *t = &d->tr[d->ntr++];
				t->framework = xstrdup(fw);
				t->n = json_array_size(arr);
				t->pt = xcalloc(t->n, sizeof *t->pt);
				for (size_t j = 0; j < t->n; j++) {
					json_t *p = json_array_get(arr, j);
					t->pt[j].t_ms = jnum(p, "tMs");
					t->pt[j].w = jnum(p, "watts");
				}
			}
		}
	}
}

/* ---------------------------------------------------- attribution */

/*
 * The attribution session (dataset block "attribution", session
 * 2026-08-26T1023-attrib) is published as 8 load windows -- framework,
 * route, window energy, mean power and per-bucket CPU and P-core time --
 * and nothing else.  make_attribution() turns it into a Dataset the
 * generator above can write: one single-round measurement per framework,
 * its four routes the published windows, framed by a preroll, cooldowns
 * and a postroll like the main session.  What the block does not publish
 * is borrowed or synthetic, and notes.md says which:
 *
 *   borrowed from the main session's round-1 measurement of the same
 *   framework: target, startup and RSS, and per route the request and
 *   byte counts, bombardier's statistics and the P-cluster frequency;
 *   from its idle windows: their lengths and mean power;
 *   from its timing: the gaps between routes and windows;
 *
 *   derived: each window's length, the whole milliseconds for which
 *   windowJ / length rounds to the published meanWatts (one value for
 *   every window);
 *
 *   synthetic: the start time (03:23 UTC+7 preflight, 10 minutes after
 *   the main session ended), all process ids, and how CPU time is spread
 *   over samples and over the processes of the "other" bucket.
 */

static const char *const BUCKET[NBUCKET] = {
	"server", "bombardier", "kernel_task", "DEAD_TASKS", "powermetrics",
	"WindowServer", "other"
};

/* Synthetic process ids (the pass ran after the main session's 19xxx). */
#define ATTR_SERVER_PID0 24163
#define ATTR_PM_PID 24090
#define ATTR_WS_PID 412
/* preroll start: 2026-08-26T03:29:28.756Z, preflight 03:23:17.342Z */
#define ATTR_BASE_MS INT64_C(1787714968756)

/* The "other" bucket as a few background processes, fixed fractions. */
static const struct {
	const char *name;
	int pid;
	double frac;
} OTHER_PROC[NPROC - 6] = {
	{ "Terminal", 2241, 0.40 }, { "logd", 318, 0.21 },
	{ "mds_stores", 1187, 0.17 }, { "runningboardd", 371, 0.13 },
	{ "launchd", 1, 0.09 },
};

static int route_index(const char *name)
{
	for (int k = 0; k < NROUTES; k++)
		if (strcmp(ROUTE[k], name) == 0)
			return k;
	return -1;
}

/* Whole ms of a window whose energy J averages to W rounded to 3 dp. */
static int64_t window_ms(double j, double w)
{
	int64_t d0 = (int64_t)llround(j / w * 1000.0);

	for (int64_t dd = 0; dd <= 5; dd++)
		for (int sgn = 1; sgn >= -1; sgn -= 2) {
			int64_t d = d0 + sgn * dd;
			if (d > 0 && fabs(round_to(j / ((double)d / 1000.0), 0.001) - w) < 1e-9)
				return d;
		}
	die("dataset: no window length gives %.3f J at %.3f W", j, w);
	return 0;
}

static void make_attribution(Dataset *d)
{
	json_t *root = d->root, *at = jget(root, "attribution");
	json_t *wins = jget(at, "windows");
	size_t nw = json_array_size(wins);
	Meas *old = xcalloc((size_t)d->nm, sizeof *old);
	Idle *oid = xcalloc((size_t)d->ni, sizeof *oid);
	int onm = d->nm, oni = d->ni;

	if (!json_is_array(wins) || nw == 0 || nw % NROUTES || nw / NROUTES > MAXMEAS ||
	    nw / NROUTES + 1 > MAXIDLE)
		die("dataset: attribution.windows must hold %d routes per framework", NROUTES);
	memcpy(old, d->m, (size_t)onm * sizeof *old);
	memcpy(oid, d->id, (size_t)oni * sizeof *oid);
	memset(d->m, 0, sizeof d->m);
	memset(d->id, 0, sizeof d->id);
	d->nm = (int)(nw / NROUTES);
	d->ni = d->nm + 1;
	d->ntr = 0;
	d->trace_round = 0;

	int64_t t = ATTR_BASE_MS;
	for (int i = 0; i <= d->nm; i++) {
		/* idle window i: preroll, cooldowns, postroll */
		Idle *w = &d->id[i];
		const Idle *src = i == 0 ? &oid[0] : i == d->nm ? &oid[oni - 1] :
				  &oid[i < oni - 1 ? i : oni - 2];
		char id[32];
		snprintf(id, sizeof id, "idle-%02d", i);
		w->id = xstrdup(id);
		w->kind = xstrdup(i == 0 ? "preroll" : i == d->nm ? "postroll" : "cooldown");
		w->index = i;
		w->start = t;
		w->end = t + (src->end - src->start);
		w->mean_w = src->mean_w;
		int64_t len = w->end - w->start;
		int64_t off = (int64_t)llround(0.52 * (double)len);
		w->bstart = w->start + (off > 2000 ? off : 2000);
		w->bend = w->start + len - 2000;
		t = w->end;
		if (i == d->nm)
			break;

		/* measurement i: the published windows 4i .. 4i+3 */
		Meas *m = &d->m[i];
		json_t *w0 = json_array_get(wins, (size_t)i * NROUTES);
		const char *fw = jstr(w0, "framework");
		const Meas *bm = NULL;
		for (int j = 0; j < onm; j++)
			if (strcmp(old[j].framework, fw) == 0 &&
			    (!bm || old[j].round < bm->round))
				bm = &old[j];
		if (!bm)
			die("dataset: attribution framework '%s' is not in the measurements", fw);
		char mid[160];
		snprintf(mid, sizeof mid, "r1-s%d-%s", i + 1, fw);
		m->id = xstrdup(mid);
		m->framework = xstrdup(fw);
		m->target = xstrdup(bm->target);
		m->arm = xstrdup(bm->arm);
		m->round = 1;
		m->slot = i + 1;
		m->server_pid = ATTR_SERVER_PID0 + 13 * i;
		m->startup_ms = bm->startup_ms;
		m->rss_before = bm->rss_before;
		m->rss_after = bm->rss_after;
		/* the main session's gap from its cooldown to the measurement */
		int64_t gap = 75;
		for (int j = 0; j < oni; j++)
			if (oid[j].precedes && strcmp(oid[j].precedes, bm->id) == 0 &&
			    bm->start - oid[j].end >= 0 && bm->start - oid[j].end < 1000)
				gap = bm->start - oid[j].end;
		m->start = t + gap;
		int64_t rs = m->start;
		static const int pid_step[NROUTES] = { 2, 4, 5, 6 };
		for (int k = 0; k < NROUTES; k++) {
			json_t *x = json_array_get(wins, (size_t)i * NROUTES + (size_t)k);
			Route *r = &m->r[k];
			const Route *br = &bm->r[k];
			if (strcmp(jstr(x, "framework"), fw) || route_index(jstr(x, "route")) != k)
				die("dataset: attribution window %d is not %s/%s", i * NROUTES + k,
				    fw, ROUTE[k]);
			*r = *br;	/* borrowed counts and statistics */
			r->energy = jnum(x, "windowJ");
			r->watts = jnum(x, "meanWatts");
			r->mj_req = r->net_j = r->net_mj = r->idle_w = NAN;
			r->idle_share = r->mj_mb = NAN;
			r->trace = -1;
			r->pid = m->server_pid + pid_step[k];
			r->start = rs;
			r->end = rs + window_ms(r->energy, r->watts);
			rs = r->end + (k + 1 < NROUTES ? br[1].start - br->end : 0);
			json_t *bk = jget(x, "buckets"), *b;
			size_t bi;
			int seen[NBUCKET] = { 0 };
			json_array_foreach(bk, bi, b) {
				const char *bn = jstr(b, "name");
				int q = 0;
				while (q < NBUCKET && strcmp(BUCKET[q], bn))
					q++;
				if (q == NBUCKET || seen[q]++)
					die("dataset: unexpected attribution bucket '%s'", bn);
				r->bk_cpu[q] = jnum(b, "cpuMs");
				r->bk_p[q] = jnum(b, "pCoreMs");
				if (r->bk_cpu[q] < 0 || r->bk_p[q] < 0 || r->bk_p[q] > r->bk_cpu[q])
					die("dataset: bad bucket '%s' in attribution window %d", bn,
					    i * NROUTES + k);
			}
			for (int q = 0; q < NBUCKET; q++)
				if (!seen[q])
					die("dataset: attribution window %d lacks bucket '%s'",
					    i * NROUTES + k, BUCKET[q]);
		}
		m->end = m->r[NROUTES - 1].end +
			 (bm->end - bm->r[NROUTES - 1].end >= 0 ? bm->end - bm->r[NROUTES - 1].end : 2);
		t = m->end + 1;
	}
	for (int i = 0; i <= d->nm; i++) {
		d->id[i].follows = i ? xstrdup(d->m[i - 1].id) : NULL;
		d->id[i].precedes = i < d->nm ? xstrdup(d->m[i].id) : NULL;
	}

	/* what sessionStart and meta.json say about the design */
	json_t *meth = json_deep_copy(jget(root, "methodology"));
	json_object_set_new(meth, "rounds", json_integer(1));
	json_object_set_new(meth, "totalMeasurements", json_integer(d->nm));
	json_object_set_new(meth, "orderingScheme", json_string("single round"));
	json_t *iwm = json_object_get(meth, "idleWindow");
	if (json_is_object(iwm))
		json_object_set_new(iwm, "count", json_integer(d->ni));
	json_object_set_new(meth, "attributionMetric", json_deep_copy(jget(at, "metric")));
	json_object_set_new(root, "methodology", meth);
	json_t *cav = json_array();
	json_array_append_new(cav, json_deep_copy(jget(at, "unattributable")));
	json_array_append_new(cav, json_deep_copy(jget(at, "whyNotJoules")));
	json_array_append(cav, json_array_get(jget(root, "caveats"), 0));
	json_object_set_new(root, "caveats", cav);
	for (int j = 0; j < onm; j++) {
		free(old[j].id);
		free(old[j].framework);
		free(old[j].target);
		free(old[j].arm);
	}
	for (int j = 0; j < oni; j++) {
		free(oid[j].id);
		free(oid[j].kind);
		free(oid[j].follows);
		free(oid[j].precedes);
	}
	free(old);
	free(oid);
}

/* --------------------------------------------------------- options */

typedef struct {
	char *fw;
	double factor;
} Perturb;

typedef struct {
	uint64_t seed;
	int plain, split, progress, full, verbose, attrib;
	const char *pcluster;
	Perturb pert[MAXPERTURB];
	int npert;
	const char *dataset, *outdir;
} Opts;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [options] DATASET.json OUTDIR\n"
		"  --seed N            PRNG seed for sample-level jitter (default 1)\n"
		"  --plain             write power.plist instead of power.plist.gz\n"
		"  --split             split the power stream into power.plist and\n"
		"                      power.plist.1 (resumed session)\n"
		"  --pcluster NAME     performance cluster name (default S-Cluster)\n"
		"  --progress-prefix   bombardier files carry the progress output\n"
		"  --perturb FW=F      multiply energy of framework FW's windows by F\n"
		"  --full-fidelity     per-CPU detail in every sample (~24 KB each)\n"
		"  --attribution       write the CPU-time attribution session instead\n"
		"                      (tasks sampler), from the dataset's attribution block\n"
		"  -v, --verbose       report the recovered figures on stderr\n",
		progname);
}

static void parse_opts(Opts *o, int argc, char **argv)
{
	int npos = 0;

	o->seed = 1;
	o->pcluster = "S-Cluster";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--seed") == 0 && i + 1 < argc) {
			char *end;
			errno = 0;
			o->seed = strtoull(argv[++i], &end, 0);
			if (errno || *end)
				die("--seed: not a number: %s", argv[i]);
		} else if (strcmp(a, "--plain") == 0) {
			o->plain = 1;
		} else if (strcmp(a, "--split") == 0) {
			o->split = 1;
		} else if (strcmp(a, "--pcluster") == 0 && i + 1 < argc) {
			o->pcluster = argv[++i];
			if (!*o->pcluster)
				die("--pcluster: empty name");
		} else if (strcmp(a, "--progress-prefix") == 0) {
			o->progress = 1;
		} else if (strcmp(a, "--full-fidelity") == 0) {
			o->full = 1;
		} else if (strcmp(a, "--attribution") == 0) {
			o->attrib = 1;
		} else if (strcmp(a, "--perturb") == 0 && i + 1 < argc) {
			const char *s = argv[++i];
			const char *eq = strchr(s, '=');
			char *end;
			if (!eq || eq == s)
				die("--perturb: expected FW=FACTOR, got '%s'", s);
			if (o->npert >= MAXPERTURB)
				die("--perturb: too many");
			Perturb *p = &o->pert[o->npert++];
			p->fw = xmalloc((size_t)(eq - s) + 1);
			memcpy(p->fw, s, (size_t)(eq - s));
			p->fw[eq - s] = '\0';
			errno = 0;
			p->factor = strtod(eq + 1, &end);
			if (errno || *end || !(p->factor > 0) || !isfinite(p->factor))
				die("--perturb: bad factor in '%s'", s);
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			o->verbose = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(0);
		} else if (a[0] == '-' && a[1]) {
			usage(stderr);
			die("unknown or incomplete option: %s", a);
		} else if (npos == 0) {
			o->dataset = a;
			npos++;
		} else if (npos == 1) {
			o->outdir = a;
			npos++;
		} else {
			usage(stderr);
			die("too many arguments");
		}
	}
	if (npos != 2) {
		usage(stderr);
		exit(2);
	}
}

/* ------------------------------------------------------ targets */

/* Narrow [*lo,*hi] to [a,b]. */
static void narrow(double *lo, double *hi, double a, double b)
{
	if (a > *lo)
		*lo = a;
	if (b < *hi)
		*hi = b;
}

/* Midpoint of the J values that reproduce every rounded figure the
 * dataset derives from a route's energy. */
static double route_target_j(const Route *r, double *tol_mj)
{
	double s = (double)(r->end - r->start) / 1000.0;
	double req = (double)r->requests;
	double lo = r->energy - 0.0005, hi = r->energy + 0.0005;

	if (isfinite(r->watts))
		narrow(&lo, &hi, (r->watts - 0.0005) * s, (r->watts + 0.0005) * s);
	if (isfinite(r->mj_req))
		narrow(&lo, &hi, (r->mj_req - 5e-6) * req / 1000,
		       (r->mj_req + 5e-6) * req / 1000);
	if (isfinite(r->mj_mb))
		narrow(&lo, &hi, (r->mj_mb - 0.0005) * (double)r->bytes_read / 1e9,
		       (r->mj_mb + 0.0005) * (double)r->bytes_read / 1e9);
	if (isfinite(r->idle_w)) {
		double iw = r->idle_w * s;
		if (isfinite(r->net_j))
			narrow(&lo, &hi, r->net_j - 0.0005 + iw, r->net_j + 0.0005 + iw);
		if (isfinite(r->net_mj))
			narrow(&lo, &hi, (r->net_mj - 5e-6) * req / 1000 + iw,
			       (r->net_mj + 5e-6) * req / 1000 + iw);
		if (isfinite(r->idle_share) && r->idle_share > 5e-5 && iw > 0)
			narrow(&lo, &hi, iw / (r->idle_share + 5e-5),
			       iw / (r->idle_share - 5e-5));
	}
	*tol_mj = 0.02;
	if (hi - lo <= 1e-9)
		return r->energy; /* published figures disagree in rounding */
	/* as close to the published energy as the other figures allow */
	double m = (hi - lo) / 4 < 2e-4 ? (hi - lo) / 4 : 2e-4;
	double t = r->energy;
	if (t < lo + m)
		t = lo + m;
	if (t > hi - m)
		t = hi - m;
	/* the recovered value may stray by a third of the room left */
	double room = (t - lo < hi - t ? t - lo : hi - t) * 1000.0 / 3.0;
	if (room < *tol_mj)
		*tol_mj = room;
	return t;
}

/* ------------------------------------------------------- samples */

enum { OWN_NONE, OWN_ROUTE, OWN_IDLE };

typedef struct {
	int file;
	int64_t elapsed_ns;
	double t0, t1;    /* true wall interval, ms relative to base */
	int64_t ts_ms;    /* timestamp: true end floored to 1 s, epoch ms */
	double r0, r1;    /* interval as the published method recovers it */
	int own, oi, ok;  /* owner kind, measurement/idle index, route */
	int interior;
	double shape;
	int fixed;        /* a traced window's sample: whole mJ given */
	int64_t fixed_mj;
	int has_pfix;     /* power given, not from level and shape */
	double pfix;
	double p;         /* W */
	double gfrac;     /* gpu share */
	int64_t cpu, gpu, ane;
	double sfreq, efreq, sidle, eidle, gfreq, gidle;
} Sample;

typedef struct {
	Sample *s;
	size_t n, cap;
	int nfiles;
	double a[2], b[2];
	size_t file_first[2], file_n[2];
	double split_at;      /* relative ms of the resume point, or NAN */
	int split_idle;
	double drift;
} Stream;

/*
 * A traced window: the dataset's powerTrace gives, for one ping window
 * per framework, every sample that starts inside it -- its start relative
 * to the window start on the fitted time base (tMs, whole ms) and its mean
 * power (W, 3 dp).  One sample more overlaps the window: the head, which
 * straddles its start and is not published.  The rebuild writes those
 * samples so that the published method gives the points back:
 *
 *   - u[j], the fitted start of published sample j relative to the window
 *     start, lies within 0.1 ms of tMs[j], and its whole mJ make both mean
 *     powers round to the published W: erg's (mJ over the fitted length,
 *     elapsed x b) and the plist's own (mJ over elapsed_ns); a sample's
 *     length is the step between published starts, so its mJ and the next
 *     start are chosen together (one mJ moves the start by ~0.06 ms);
 *   - the head carries the rest of the published window energy: the
 *     published samples fix all of it but the head's part, u[0] x its
 *     mean power (the last sample's part outside the window does not
 *     count, so it cannot take any), and its length is chosen so that its
 *     whole mJ give that part exactly;
 *   - the samples of the minute before the head are spaced evenly (plus
 *     the usual jitter) so that the head starts where it must.
 *
 * The fitted base depends on every sample, these included, so the grid
 * is built again with targets from the last fit until the fit no longer
 * moves.
 */
typedef struct {
	Route *r;
	const Trace *tr;
	int file;            /* power file holding the window */
	double S, L;         /* window start (ms rel. base), length */
	size_t n;            /* published samples */
	double *u;           /* n+1 fitted bounds rel. to S; u[n] ends the last */
	int64_t *mj;         /* whole mJ of each published sample */
	double lenh;         /* head: fitted length (ms) and whole mJ */
	int64_t mjh;
	double a, b;         /* the fit the targets x[] were computed from */
	double *x;           /* cumulative elapsed ms at u[0..n] */
	double xh;           /* ... at the head's start */
	/* build_grid state */
	int state, zm, zk;
	double zs;
	double zone;         /* length of the approach (elapsed ms) */
	size_t zidx;         /* first sample of the approach, once chosen */
	double xpost;        /* where the sample after the last one ends */
	size_t head;         /* index of the head sample */
} Plan;

#define MAXPLAN 8

static Sample *push_sample(Stream *st)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16384;
		Sample *ns = realloc(st->s, st->cap * sizeof *ns);
		if (!ns)
			die("out of memory");
		st->s = ns;
	}
	Sample *x = &st->s[st->n++];
	memset(x, 0, sizeof *x);
	return x;
}

typedef struct {
	Dataset *d;
	Opts *o;
	int64_t base;         /* epoch ms of relative 0 (preroll start) */
	int64_t session_start, session_end, captured_at;
	double max_bump;      /* largest edge correction, mJ */
	Stream st;
	/* attribution session: the tasks of sample i are tk[toff[i]..toff[i+1]) */
	struct TaskRec *tk;
	size_t ntk, atk;
	size_t *toff;
	double max_task_dev;  /* for --verbose: largest |recovered - published| ms */
	Plan plan[MAXPLAN];   /* traced windows, in time order */
	int nplan, fit_tries, fit_rounds;
} Ctx;

static double rel(const Ctx *c, int64_t ms)
{
	return (double)(ms - c->base);
}

/* Is relative time t inside a measurement's load period? */
static int under_load(const Ctx *c, double t)
{
	for (int i = 0; i < c->d->nm; i++) {
		const Meas *m = &c->d->m[i];
		if (t >= rel(c, m->r[0].start) - 700 &&
		    t <= rel(c, m->r[NROUTES - 1].end) + 200)
			return 1;
	}
	return 0;
}

/* Elapsed ns of the next sample while the grid approaches or crosses
 * traced window p (see Plan), or -1 where the grid is free.  cum is the
 * elapsed time so far in the sample's file, dflt and jit_ns the sample's
 * free elapsed time and its jitter, t0 its true start (epoch ms) and rate
 * true ms per elapsed ms. */
static int64_t plan_elapsed(Plan *p, double cum, int64_t dflt, double jit_ns, size_t idx,
			    double t0, double rate)
{
	double bnd, end, fr;

	switch (p->state) {
	case 0:
		/* where the approach starts and its number of steps are
		 * chosen once: from one grid to the next only the
		 * targets move */
		if (p->zidx == SIZE_MAX) {
			if (cum < p->xh - p->zone)
				return -1;
			p->zidx = idx;
			p->zm = (int)lround((p->xh - cum) / 512.0);
			if (p->zm < 2)
				die("internal: no room before the traced window at %.0f ms", p->S);
		} else if (idx != p->zidx) {
			return -1;
		}
		p->zs = cum;
		p->zk = 0;
		p->state = 1;
		/* fall through */
	case 1:
		/* even steps to the head's start; the jitter moves the
		 * boundaries, not the phase */
		p->zk++;
		bnd = p->zs + (p->xh - p->zs) * p->zk / p->zm;
		if (p->zk == p->zm) {
			p->state = 2;
			return llround((bnd - cum) * 1e6);
		}
		bnd += fmax(-1.5, fmin(1.5, jit_ns / 1e6));
		/* an end within 3 ms of a whole second would make its
		 * truncated timestamp, and with it the fit, flip from one
		 * grid to the next */
		end = t0 + (bnd - cum) * rate;
		fr = end - 1000.0 * floor(end / 1000.0);
		if (fr < 3.0)
			bnd += (3.0 - fr) / rate;
		else if (fr > 997.0)
			bnd -= (fr - 997.0) / rate;
		return llround((bnd - cum) * 1e6);
	case 2:
		p->head = idx;
		p->zk = 0;
		p->state = 3;
		return llround((p->x[0] - cum) * 1e6);
	case 3:
		bnd = p->x[++p->zk];
		if ((size_t)p->zk == p->n)
			p->state = 4;
		return llround((bnd - cum) * 1e6);
	case 4:
		/* the sample after ends where it ended the first time, so
		 * that the rest of the stream, and the whole-second
		 * timestamps the fit reads, do not move with the targets */
		p->state = 5;
		if (isnan(p->xpost)) {
			p->xpost = cum + (double)dflt / 1e6;
			return -1;
		}
		return llround((p->xpost - cum) * 1e6);
	}
	return -1;
}

static void build_grid(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;
	rng g = rng_make(c->o->seed, "grid", 0);
	double t, tend, cum = 0;
	int file = 0, ip = 0;

	st->n = 0;
	for (int i = 0; i < c->nplan; i++)
		c->plan[i].state = 0;
	st->drift = (22.0 + 30.0 * rng_unif(&g)) * 1e-6;
	st->split_at = NAN;
	st->split_idle = -1;
	if (c->o->split) {
		/* middle idle window, well after its decay, before baseline */
		int k = d->ni / 2;
		Idle *w = &d->id[k];
		double lo = rel(c, w->start) + 28000, hi = rel(c, w->bstart) - 6000;
		if (hi <= lo)
			die("--split: idle window %s too short", w->id);
		st->split_at = lo + (hi - lo) * (0.3 + 0.2 * rng_unif(&g));
		st->split_idle = k;
	}

	t = -(3000.0 + 600.0 * rng_unif(&g));
	tend = rel(c, d->id[d->ni - 1].end) + 3000.0 + 600.0 * rng_unif(&g);
	st->file_first[0] = 0;
	while (t < tend) {
		Sample *x = push_sample(st);
		int load = under_load(c, t);
		double base = load ? 505e6 : 512e6;
		double jit = (load ? 0.9e6 : 0.6e6) * rng_gauss(&g);
		if (jit > 3e6) jit = 3e6;
		if (jit < -3e6) jit = -3e6;
		x->file = file;
		x->elapsed_ns = (int64_t)llround(base + jit);
		while (ip < c->nplan && c->plan[ip].x && c->plan[ip].state == 5)
			ip++;
		if (ip < c->nplan && c->plan[ip].x && c->plan[ip].file == file) {
			int64_t el = plan_elapsed(&c->plan[ip], cum, x->elapsed_ns, jit,
						  st->n - 1, (double)c->base + t,
						  1.0 + st->drift);
			if (el == 0 || el < -1)
				die("internal: traced window at %.0f ms cannot be placed",
				    c->plan[ip].S);
			if (el > 0)
				x->elapsed_ns = el;
		}
		cum += (double)x->elapsed_ns / 1e6;
		x->t0 = t;
		x->t1 = t + (double)x->elapsed_ns / 1e6 * (1.0 + st->drift);
		t = x->t1;
		if (file == 0 && isfinite(st->split_at) && t >= st->split_at) {
			/* resumed session: ~1 s without samples */
			st->file_n[0] = st->n - st->file_first[0];
			if (ip < c->nplan && c->plan[ip].x && c->plan[ip].file == 0 &&
			    c->plan[ip].state != 0)
				die("internal: the resume point falls in a traced window's approach");
			file = 1;
			cum = 0;
			st->file_first[1] = st->n;
			t += 950.0 + 150.0 * rng_unif(&g);
		}
	}
	st->nfiles = file + 1;
	st->file_n[file] = st->n - st->file_first[file];
	for (size_t i = 0; i < st->n; i++) {
		Sample *x = &st->s[i];
		double end_abs = (double)c->base + x->t1;
		x->ts_ms = (int64_t)floor(end_abs / 1000.0) * 1000;
	}
}

/* The published time axis: per file, OLS of timestamp+500 on cumulative
 * elapsed; sample = [end - elapsed*b, end].  Computed in base-relative
 * coordinates (same line, better conditioned). */
static void fit_axis(Ctx *c)
{
	Stream *st = &c->st;

	for (int f = 0; f < st->nfiles; f++) {
		size_t i0 = st->file_first[f], n = st->file_n[f];
		double *x = xcalloc(n, sizeof *x);
		double cum = 0, sx = 0, sy = 0;
		for (size_t i = 0; i < n; i++) {
			cum += (double)st->s[i0 + i].elapsed_ns / 1e6;
			x[i] = cum;
			sx += cum;
			sy += (double)(st->s[i0 + i].ts_ms - c->base) + 500.0;
		}
		double mx = sx / (double)n, my = sy / (double)n, sxx = 0, sxy = 0;
		for (size_t i = 0; i < n; i++) {
			double dx = x[i] - mx;
			double dy = (double)(st->s[i0 + i].ts_ms - c->base) + 500.0 - my;
			sxx += dx * dx;
			sxy += dx * dy;
		}
		double b = sxx > 0 ? sxy / sxx : 1.0, a = my - b * mx;
		st->a[f] = a;
		st->b[f] = b;
		for (size_t i = 0; i < n; i++) {
			Sample *s = &st->s[i0 + i];
			s->r1 = a + b * x[i];
			s->r0 = s->r1 - (double)s->elapsed_ns / 1e6 * b;
		}
		free(x);
	}
}

/* ------------------------------------------------- traced windows */

/* The mean powers (fitted, W) a published sample of power w may have:
 * erg's, mJ over the fitted length, and the plist's, mJ over elapsed =
 * that times b, both round to w, with a margin for the floating point
 * of whoever reads them. */
static void trace_band(double w, double b, double *lo, double *hi)
{
	double l = w - 0.0005 + 2e-6, h = w + 0.0005 - 2e-6;

	*lo = fmax(l, l / b);
	*hi = fmin(h, h / b);
	if (!(*hi > *lo))
		die("internal: no mean power rounds to %.3f W at b = %.9f", w, b);
}

/* One plan per traced window of the exact kind, in time order. */
static void plan_setup(Ctx *c)
{
	Dataset *d = c->d;

	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &d->m[mi].r[k];
			if (!r->exact)
				continue;
			if (c->nplan == MAXPLAN)
				die("dataset: too many traced windows");
			Plan *p = &c->plan[c->nplan++];
			memset(p, 0, sizeof *p);
			p->r = r;
			p->tr = &d->tr[r->trace];
			p->S = rel(c, r->start);
			p->L = (double)(r->end - r->start);
			p->n = p->tr->n;
			if (p->n < 2)
				die("dataset: powerTrace '%s' has fewer than 2 points",
				    p->tr->framework);
			for (size_t j = 0; j < p->n; j++) {
				double tj = p->tr->pt[j].t_ms;
				if (tj != floor(tj) || !(p->tr->pt[j].w > 0) ||
				    (j ? !(tj > p->tr->pt[j - 1].t_ms + 300 &&
					   tj < p->tr->pt[j - 1].t_ms + 700) :
					 !(tj > 0 && tj < 700)))
					die("dataset: powerTrace '%s' point %zu is not a sample "
					    "start ~500 ms after the last", p->tr->framework, j);
			}
			if (!(p->tr->pt[p->n - 1].t_ms < p->L &&
			      p->tr->pt[p->n - 1].t_ms + 600 > p->L))
				die("dataset: powerTrace '%s' does not end with the sample that "
				    "straddles the window end", p->tr->framework);
		}
	for (int i = 1; i < c->nplan; i++)
		for (int j = i; j > 0 && c->plan[j - 1].S > c->plan[j].S; j--) {
			Plan tmp = c->plan[j];
			c->plan[j] = c->plan[j - 1];
			c->plan[j - 1] = tmp;
		}
}

/* Published starts and whole mJ of every sample, and the head, for slope
 * b of the window's file (the first fit's: b moves by parts in 1e12 from
 * one grid to the next, far inside the margins of trace_band()). */
static void plan_solve(Ctx *c, Plan *p)
{
	Stream *st = &c->st;
	size_t n = p->n;
	double lo, hi, wm, e_in = 0, h;

	p->file = -1;
	for (size_t i = 0; i < st->n; i++)
		if (st->s[i].r0 <= p->S && st->s[i].r1 > p->S)
			p->file = st->s[i].file;
	if (p->file < 0)
		die("internal: no sample at the start of a traced window");
	double b = st->b[p->file];
	p->u = xcalloc(n + 1, sizeof *p->u);
	p->mj = xcalloc(n, sizeof *p->mj);
	p->x = NULL;
	p->u[0] = p->tr->pt[0].t_ms;
	for (size_t j = 0; j < n; j++) {
		trace_band(p->tr->pt[j].w, b, &lo, &hi);
		wm = (lo + hi) / 2;
		/* the last one's length is free: a nominal sample */
		double want = j + 1 < n ? p->tr->pt[j + 1].t_ms : p->u[j] + 505.0;
		int64_t q = llround((want - p->u[j]) * wm), best = 0;
		double dev = INFINITY;
		for (int64_t k = q - 2; k <= q + 2; k++)
			if (fabs(p->u[j] + (double)k / wm - want) < dev) {
				dev = fabs(p->u[j] + (double)k / wm - want);
				best = k;
			}
		if (!(dev <= 0.1))
			die("internal: powerTrace '%s' point %zu cannot be placed (%.3f ms off)",
			    p->tr->framework, j + 1, dev);
		p->mj[j] = best;
		p->u[j + 1] = p->u[j] + (double)best / wm;
		e_in += j + 1 < n ? (double)best :
			(double)best * (p->L - p->u[j]) / (p->u[j + 1] - p->u[j]);
	}
	/* the head's part of the window: what the published energy leaves */
	h = p->r->target_mj - e_in;
	if (!(h > 0))
		die("dataset: powerTrace '%s' holds more than its window's energy",
		    p->tr->framework);
	p->mjh = llround(h / p->u[0] * 505.0);
	p->lenh = (double)p->mjh * p->u[0] / h;
	if (p->mjh <= 0 || !(p->lenh > 450 && p->lenh < 560))
		die("internal: no head sample for powerTrace '%s'", p->tr->framework);
}

/* Cumulative elapsed times of the plan's bounds under the file's fit. */
static void plan_targets(Ctx *c, Plan *p)
{
	Stream *st = &c->st;

	p->a = st->a[p->file];
	p->b = st->b[p->file];
	if (!p->x)
		p->x = xcalloc(p->n + 1, sizeof *p->x);
	for (size_t j = 0; j <= p->n; j++)
		p->x[j] = (p->S + p->u[j] - p->a) / p->b;
	p->xh = p->x[0] - (double)llround(p->lenh / p->b * 1e6) / 1e6;
}

/* Build the grid until the fit it gives is the fit its traced windows
 * were placed with.  A sample the placement moves can still end right at
 * a whole second (the head, a published one): its timestamp then flips
 * with the fit, and the fit with it, from one grid to the next.  Another
 * approach (a few samples shorter) moves the fit's offset; a handful of
 * them is tried, in a fixed order. */
static void place_traces(Ctx *c)
{
	Stream *st = &c->st;

	for (int i = 0; i < c->nplan; i++)
		plan_solve(c, &c->plan[i]);
	for (c->fit_tries = 1; c->fit_tries <= 8; c->fit_tries++) {
		for (int i = 0; i < c->nplan; i++) {
			c->plan[i].zone = TRACE_ZONE - 2600.0 * (c->fit_tries - 1);
			c->plan[i].zidx = SIZE_MAX;
			c->plan[i].xpost = NAN;
		}
		for (c->fit_rounds = 1; c->fit_rounds <= 25; c->fit_rounds++) {
			int same = 1;
			for (int i = 0; i < c->nplan; i++)
				plan_targets(c, &c->plan[i]);
			build_grid(c);
			fit_axis(c);
			for (int i = 0; i < c->nplan; i++) {
				Plan *p = &c->plan[i];
				if (p->state != 5)
					die("internal: traced window at %.0f ms not reached", p->S);
				same &= st->a[p->file] == p->a && st->b[p->file] == p->b;
			}
			if (same)
				return;
		}
	}
	die("internal: the placement of the traced windows does not settle");
}

/* Fractional-overlap weight of sample s in [t0,t1] (recovered axis). */
static double overlap_w(const Sample *s, double t0, double t1)
{
	double lo = s->r0 > t0 ? s->r0 : t0;
	double hi = s->r1 < t1 ? s->r1 : t1;

	if (hi <= lo)
		return 0;
	return (hi - lo) / (s->r1 - s->r0);
}

static double true_len(const Sample *s)
{
	return s->t1 - s->t0;
}

/* Interpolated trace value at offset t (ms) from the window start: the
 * shape of a traced window whose energy --perturb changed. */
static double trace_at(const Trace *tr, double t)
{
	if (t <= tr->pt[0].t_ms)
		return tr->pt[0].w;
	for (size_t j = 1; j < tr->n; j++) {
		if (t <= tr->pt[j].t_ms) {
			double u = (t - tr->pt[j - 1].t_ms) /
				   (tr->pt[j].t_ms - tr->pt[j - 1].t_ms);
			return tr->pt[j - 1].w + u * (tr->pt[j].w - tr->pt[j - 1].w);
		}
	}
	return tr->pt[tr->n - 1].w;
}

static double perturb_factor(const Opts *o, const char *fw)
{
	double f = 1.0;

	for (int i = 0; i < o->npert; i++)
		if (strcmp(o->pert[i].fw, fw) == 0)
			f *= o->pert[i].factor;
	return f;
}

/* Give every sample owned by a window its shape; other samples later. */
static void assign_owners(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;
	rng g = rng_make(c->o->seed, "shape", 0);

	for (size_t i = 0; i < st->n; i++)
		st->s[i].own = OWN_NONE;

	for (int mi = 0; mi < d->nm; mi++) {
		Meas *m = &d->m[mi];
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &m->r[k];
			double t0 = rel(c, r->start), t1 = rel(c, r->end);
			double len = t1 - t0;
			const Trace *tr = r->trace >= 0 ? &d->tr[r->trace] : NULL;
			double tmean = 0;
			if (tr) {
				int cnt = 0;
				for (size_t j = 0; j < tr->n; j++)
					if (tr->pt[j].t_ms >= EDGE_MARGIN &&
					    tr->pt[j].t_ms <= len - EDGE_MARGIN) {
						tmean += tr->pt[j].w;
						cnt++;
					}
				tmean = cnt ? tmean / cnt : 1.0;
			}
			r->slope = 0.02 + 0.05 * rng_unif(&g);
			for (size_t i = 0; i < st->n; i++) {
				Sample *s = &st->s[i];
				if (s->t1 <= t0 - EDGE_MARGIN || s->t0 >= t1 + EDGE_MARGIN)
					continue;
				if (s->own != OWN_NONE)
					die("internal: windows too close at %s/%s",
					    m->id, ROUTE[k]);
				s->own = OWN_ROUTE;
				s->oi = mi;
				s->ok = k;
				s->interior = s->t0 >= t0 + EDGE_MARGIN &&
					      s->t1 <= t1 - EDGE_MARGIN;
				s->shape = 1.0;
				if (s->interior) {
					double mid = (s->t0 + s->t1) / 2 - t0;
					if (tr)
						s->shape = trace_at(tr, mid) / tmean;
					else
						s->shape = 1.0 + r->slope * (mid / len - 0.5) +
							   0.004 * rng_gauss(&g);
				}
			}
		}
	}
	for (int wi = 0; wi < d->ni; wi++) {
		Idle *w = &d->id[wi];
		double b0 = rel(c, w->bstart);
		double b1 = rel(c, w->bend < w->end ? w->bend : w->end);
		for (size_t i = 0; i < st->n; i++) {
			Sample *s = &st->s[i];
			if (s->t1 <= b0 - EDGE_MARGIN || s->t0 >= b1 + EDGE_MARGIN)
				continue;
			if (s->own != OWN_NONE)
				die("internal: idle window %s overlaps a load window",
				    w->id);
			s->own = OWN_IDLE;
			s->oi = wi;
			s->shape = 1.0;
			s->interior = s->t0 >= b0 + EDGE_MARGIN &&
				      s->t1 <= b1 - EDGE_MARGIN;
		}
	}
	/* traced windows: the head and the published samples have their
	 * whole mJ; the window's other samples (within the edge margin)
	 * stay at the head's power before it and the last sample's after */
	for (int pi = 0; pi < c->nplan; pi++) {
		Plan *p = &c->plan[pi];
		Route *r = p->r;
		double wh = (double)p->mjh / p->lenh;
		double wl = p->tr->pt[p->n - 1].w;
		for (size_t i = 0; i < st->n; i++) {
			Sample *s = &st->s[i];
			if (s->own != OWN_ROUTE || &d->m[s->oi].r[s->ok] != r)
				continue;
			s->has_pfix = 1;
			s->pfix = i <= p->head ? wh : wl;
		}
		for (size_t j = 0; j <= p->n; j++) {
			if (p->head + j >= st->n)
				die("internal: traced sample %zu is past the stream", j);
			Sample *s = &st->s[p->head + j];
			if (s->own != OWN_ROUTE || &d->m[s->oi].r[s->ok] != r)
				die("internal: traced sample %zu is not its window's", j);
			s->fixed = 1;
			s->fixed_mj = j ? p->mj[j - 1] : p->mjh;
			s->pfix = (double)s->fixed_mj / true_len(s);
		}
		r->lvl_in = wh;
		r->lvl_out = r->level = wl;
	}
}

/* Solve each window's level so that the recovered integral is exact. */
static void solve_levels(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;

	for (int mi = 0; mi < d->nm; mi++) {
		Meas *m = &d->m[mi];
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &m->r[k];
			double t0 = rel(c, r->start), t1 = rel(c, r->end);
			double den = 0;
			for (size_t i = 0; i < st->n; i++) {
				Sample *s = &st->s[i];
				double w = overlap_w(s, t0, t1);
				if (w <= 0)
					continue;
				if (s->own != OWN_ROUTE || s->oi != mi || s->ok != k)
					die("internal: sample %zu overlaps %s/%s but is not owned",
					    i, m->id, ROUTE[k]);
				den += w * s->shape * true_len(s);
			}
			if (den <= 0)
				die("internal: no samples in %s/%s", m->id, ROUTE[k]);
			if (r->exact)
				continue;	/* given by its plan */
			r->level = r->target_mj / den;
			r->lvl_in = r->lvl_out = r->level;
		}
	}
	for (int wi = 0; wi < d->ni; wi++) {
		Idle *w = &d->id[wi];
		double b0 = rel(c, w->bstart);
		double b1 = rel(c, w->bend < w->end ? w->bend : w->end);
		double den = 0;
		w->target_mj = w->mean_w * (b1 - b0);
		for (size_t i = 0; i < st->n; i++) {
			Sample *s = &st->s[i];
			double ow = overlap_w(s, b0, b1);
			if (ow <= 0)
				continue;
			if (s->own != OWN_IDLE || s->oi != wi)
				die("internal: idle sample %zu not owned", i);
			den += ow * true_len(s);
		}
		if (den <= 0)
			die("internal: no samples in %s", w->id);
		w->level = w->target_mj / den;
	}
}

/* Time span (true axis) of an owned zone and its level. */
typedef struct {
	double zs, ze, level;
	int kind, index, route;
	double lin, lout;	/* level seen from before / after the zone */
} Zone;

static int zone_cmp(const void *a, const void *b)
{
	const Zone *x = a, *y = b;

	return (x->zs > y->zs) - (x->zs < y->zs);
}

/* Power of every sample: owned ones from their window's level and shape,
 * the others from the neighbouring zones. */
static void assign_power(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;
	int nz = d->nm * NROUTES + d->ni;
	Zone *z = xcalloc((size_t)nz, sizeof *z);
	int n = 0;
	rng g = rng_make(c->o->seed, "power", 0);

	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &d->m[mi].r[k];
			z[n++] = (Zone){ rel(c, r->start) - EDGE_MARGIN,
					 rel(c, r->end) + EDGE_MARGIN,
					 r->level, OWN_ROUTE, mi, k, r->lvl_in, r->lvl_out };
		}
	for (int wi = 0; wi < d->ni; wi++) {
		Idle *w = &d->id[wi];
		z[n++] = (Zone){ rel(c, w->bstart) - EDGE_MARGIN,
				 rel(c, w->bend < w->end ? w->bend : w->end) + EDGE_MARGIN,
				 w->level, OWN_IDLE, wi, 0, w->level, w->level };
	}
	qsort(z, (size_t)n, sizeof *z, zone_cmp);

	double first_t = st->s[0].t0;
	for (size_t i = 0; i < st->n; i++) {
		Sample *s = &st->s[i];
		if (s->has_pfix) {
			s->p = s->pfix;
			continue;
		}
		if (s->own == OWN_ROUTE) {
			s->p = d->m[s->oi].r[s->ok].level * s->shape;
			continue;
		}
		if (s->own == OWN_IDLE) {
			s->p = d->id[s->oi].level;
			continue;
		}
		double mid = (s->t0 + s->t1) / 2;
		const Zone *prev = NULL, *next = NULL;
		for (int j = 0; j < n; j++) {
			if (z[j].ze <= mid)
				prev = &z[j];
			else if (z[j].zs >= mid && !next)
				next = &z[j];
		}
		if (!prev && next) {
			/* before the preroll baseline: settling after setup */
			double dt = (mid - first_t) / 9000.0;
			s->p = next->lin + 0.35 / (1.0 + dt * dt * dt);
			if (mid - first_t > 45000)
				s->p = next->lin;
		} else if (prev && !next) {
			s->p = prev->lout;
		} else if (!prev || !next) {
			s->p = 0.02;
		} else if (prev->kind == OWN_ROUTE && next->kind == OWN_IDLE) {
			/* cooldown: drop, then settle to the idle level */
			double dt = (mid - prev->ze) / 2500.0;
			s->p = next->lin + 0.12 * prev->lout / (1.0 + dt * dt * dt);
			if (mid - prev->ze > 30000)
				s->p = next->lin;
		} else {
			/* gap between two zones: switch at a sample boundary */
			double gap_mid = (prev->ze + next->zs) / 2;
			s->p = mid < gap_mid ? prev->lout : next->lin;
		}
	}

	/* domain split: cpu gets almost everything, gpu a little, ane none */
	for (size_t i = 0; i < st->n; i++) {
		Sample *s = &st->s[i];
		if (s->p > 1.0)
			s->gfrac = 0.012 + 0.002 * rng_sym(&g);
		else
			s->gfrac = 0.06 + 0.02 * rng_sym(&g);
	}
	free(z);
}

/* Integer mJ per domain with the rounding remainder carried, so the
 * cumulative energy stays exact. */
static void quantise(Ctx *c)
{
	Stream *st = &c->st;
	double ccpu = 0, cgpu = 0;
	int64_t rcpu = 0, rgpu = 0;

	for (size_t i = 0; i < st->n; i++) {
		Sample *s = &st->s[i];
		if (s->fixed) {
			/* the published whole mJ, outside the carry */
			s->gpu = llround((double)s->fixed_mj * s->gfrac);
			s->cpu = s->fixed_mj - s->gpu;
			s->ane = 0;
			continue;
		}
		double e = s->p * true_len(s); /* W * ms = mJ */
		double eg = e * s->gfrac;
		ccpu += e - eg;
		cgpu += eg;
		int64_t nc = (int64_t)llround(ccpu), ng = (int64_t)llround(cgpu);
		s->cpu = nc - rcpu;
		s->gpu = ng - rgpu;
		s->ane = 0;
		rcpu = nc;
		rgpu = ng;
		if (s->cpu < 0 || s->gpu < 0)
			die("internal: negative energy");
	}
}

static double sample_mj(const Sample *s)
{
	return (double)(s->cpu + s->gpu + s->ane);
}

/* Recovered energy (mJ) in [t0,t1]; also the first/last partial and one
 * full sample, for the correction below. */
static double recover(const Stream *st, double t0, double t1, long *first,
		      long *last, long *full, double *wf, double *wl)
{
	double j = 0;

	*first = *last = *full = -1;
	*wf = *wl = 0;
	for (size_t i = 0; i < st->n; i++) {
		const Sample *s = &st->s[i];
		double w = overlap_w(s, t0, t1);
		if (w <= 0)
			continue;
		j += w * sample_mj(s);
		if (*first < 0) {
			*first = (long)i;
			*wf = w;
		}
		*last = (long)i;
		*wl = w;
	}
	if (*first >= 0 && *last - *first >= 2)
		*full = (*first + *last) / 2;
	return j;
}

typedef struct {
	long n1, n2, n3, cost;
	double res;
} Bump;

/* Best (n1, n2 = n1 - k, n3) for a rounding error err: the cheapest one
 * leaving less than good mJ, else the one leaving the least. */
static void bump_search(Bump *best, double err, double wf, double wl,
			double good, int64_t lo_cpu, long nmax, long kmax)
{
	for (long n2 = -nmax; n2 <= nmax; n2++) {
		for (long k = -kmax; k <= kmax; k++) {
			long n1 = n2 + k;
			double part = err + (double)n1 * wf + (double)n2 * wl;
			long n3 = (long)llround(-part);
			double res = fabs(part + (double)n3);
			long m = labs(n1) > labs(n2) ? labs(n1) : labs(n2);
			if (lo_cpu - m - labs(n3 - n1 - n2) < 0)
				continue;
			long cost = labs(n1) + labs(n2) + 8 * labs(k) + labs(n3);
			int better;
			if (res < good && best->res < good)
				better = cost < best->cost ||
					 (cost == best->cost && res < best->res);
			else
				better = res < best->res;
			if (better)
				*best = (Bump){ n1, n2, n3, cost, res };
		}
	}
}

/* Remove the integer rounding error of one window.  Only the two
 * partial edge samples (weights wf, wl) carry fractional weight, so whole
 * mJ are added around each edge: n1 to the first partial sample and its
 * two neighbours, n2 likewise at the end, with n1 ~ n2 so that both edges
 * keep the same power (a slightly different time fit then gains at one
 * edge what it loses at the other); the inside neighbours' share and the
 * integer remainder go to one full sample in the middle.  Returns the
 * largest bump (mJ). */
static double correct_window(Stream *st, double t0, double t1, double target,
			     double good)
{
	long f, l, full;
	double wf, wl;
	double err = recover(st, t0, t1, &f, &l, &full, &wf, &wl) - target;

	if (f < 1 || full < 0 || l - f < 6 || (size_t)l + 1 >= st->n)
		return 0;
	int64_t lo_cpu = INT64_MAX;
	for (long i = f - 1; i <= l + 1; i++)
		if (st->s[i].cpu < lo_cpu)
			lo_cpu = st->s[i].cpu;
	Bump b = { 0, 0, 0, 0, fabs(err) };
	if (!(b.res < good))
		bump_search(&b, err, wf, wl, good, lo_cpu, 60, 4);
	if (!(b.res < good)) /* rare: allow larger, less symmetric bumps */
		bump_search(&b, err, wf, wl, good, lo_cpu, 150, 40);
	for (long i = f - 1; i <= l + 1; i++)
		if (st->s[i].fixed && ((i <= f + 1 && b.n1) || (i >= l - 1 && b.n2) ||
				       (i == full && b.n3 - b.n1 - b.n2)))
			die("internal: an edge correction would change a traced sample");
	for (long i = f - 1; i <= f + 1; i++)
		st->s[i].cpu += b.n1;
	for (long i = l - 1; i <= l + 1; i++)
		st->s[i].cpu += b.n2;
	st->s[full].cpu += b.n3 - b.n1 - b.n2;
	return (double)(labs(b.n1) > labs(b.n2) ? labs(b.n1) : labs(b.n2));
}

static void correct_all(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;

	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &d->m[mi].r[k];
			if (r->exact)
				continue;	/* exact by its plan */
			double bump = correct_window(st, rel(c, r->start),
						     rel(c, r->end), r->target_mj,
						     r->tol_mj);
			if (bump > c->max_bump)
				c->max_bump = bump;
		}
	for (int wi = 0; wi < d->ni; wi++) {
		Idle *w = &d->id[wi];
		double b0 = rel(c, w->bstart);
		double b1 = rel(c, w->bend < w->end ? w->bend : w->end);
		correct_window(st, b0, b1, w->target_mj, 0.5);
	}
	/* record what the published method will give back */
	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &d->m[mi].r[k];
			long f, l, full;
			double wf, wl;
			r->recovered_j = recover(st, rel(c, r->start), rel(c, r->end),
						 &f, &l, &full, &wf, &wl) / 1000.0;
		}
	for (int wi = 0; wi < d->ni; wi++) {
		Idle *w = &d->id[wi];
		double b0 = rel(c, w->bstart);
		double b1 = rel(c, w->bend < w->end ? w->bend : w->end);
		long f, l, full;
		double wf, wl;
		w->recovered_w = recover(st, b0, b1, &f, &l, &full, &wf, &wl) /
				 (b1 - b0);
	}
}

/* The traced windows as the published method will read them: the
 * samples start at the published points and their mean powers round to
 * the published ones, the window holds the head and those samples, and
 * its energy is the target. */
static void check_traces(Ctx *c)
{
	Stream *st = &c->st;

	for (int pi = 0; pi < c->nplan; pi++) {
		const Plan *p = &c->plan[pi];
		const Route *r = p->r;
		size_t over = 0;
		for (size_t i = 0; i < st->n; i++)
			over += overlap_w(&st->s[i], p->S, p->S + p->L) > 0;
		if (over != p->n + 1 || !(st->s[p->head].r0 < p->S && st->s[p->head].r1 > p->S))
			die("internal: traced window '%s' covers %zu samples", p->tr->framework, over);
		for (size_t j = 0; j < p->n; j++) {
			const Sample *s = &st->s[p->head + 1 + j];
			double w = p->tr->pt[j].w, mj = (double)sample_mj(s);
			double wf = mj / (s->r1 - s->r0), we = mj / ((double)s->elapsed_ns / 1e6);
			if (!(fabs(s->r0 - p->S - p->tr->pt[j].t_ms) < 0.2) ||
			    !(fabs(wf - w) < 0.0005) || !(fabs(we - w) < 0.0005))
				die("internal: traced sample '%s' %zu lands at %.4f ms, %.6f W "
				    "(%.6f W over elapsed)", p->tr->framework, j, s->r0 - p->S, wf, we);
		}
		if (!(fabs(r->recovered_j * 1000.0 - r->target_mj) <= r->tol_mj))
			die("internal: traced window '%s' gives %.6f J, not %.6f J",
			    p->tr->framework, r->recovered_j, r->target_mj / 1000.0);
	}
}

/* Cluster frequencies and residencies.  Every sample owned by a route
 * window gets the published mean P-cluster frequency; interior samples
 * carry a zero-sum jitter (in 10 kHz steps, exact at six digits). */
static void assign_freqs(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;
	rng g = rng_make(c->o->seed, "freq", 0);

	for (size_t i = 0; i < st->n; i++) {
		Sample *s = &st->s[i];
		if (s->p > 1.0) {
			const Route *r = NULL;
			if (s->own == OWN_ROUTE)
				r = &d->m[s->oi].r[s->ok];
			double pm = r ? r->pmhz : 4100.0;
			if (!r) {
				/* between routes: follow the nearer window */
				for (int mi = 0; mi < d->nm && !r; mi++)
					for (int k = 0; k < NROUTES; k++)
						if (d->m[mi].r[k].lvl_in == s->p ||
						    d->m[mi].r[k].lvl_out == s->p) {
							r = &d->m[mi].r[k];
							break;
						}
				pm = r ? r->pmhz - 20.0 : 4100.0;
			}
			s->sfreq = pm * 1e6;
			s->efreq = round_to(2.47e9 + 2.5e7 * rng_sym(&g), 1e4);
			s->sidle = 0.015 + 0.02 * rng_unif(&g);
			s->eidle = 0.06 + 0.05 * rng_unif(&g);
			s->gfreq = 338;
			s->gidle = 0.90 + 0.05 * rng_unif(&g);
		} else {
			s->sfreq = round_to(1.04e9 + 3e7 * rng_sym(&g), 1e4);
			s->efreq = round_to(1.10e9 + 4e7 * rng_sym(&g), 1e4);
			s->sidle = 0.985 + 0.012 * rng_unif(&g);
			s->eidle = 0.93 + 0.05 * rng_unif(&g);
			s->gfreq = 338;
			s->gidle = 0.985 + 0.012 * rng_unif(&g);
		}
	}
	/* zero-sum jitter over each window's interior samples */
	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			size_t idx[64];
			size_t cnt = 0;
			for (size_t i = 0; i < st->n && cnt < 64; i++) {
				Sample *s = &st->s[i];
				if (s->own == OWN_ROUTE && s->oi == mi && s->ok == k &&
				    s->interior)
					idx[cnt++] = i;
			}
			for (size_t j = 0; j < cnt / 2; j++) {
				double jit = 1e4 * (double)rng_range(&g, -2500, 2500);
				st->s[idx[j]].sfreq += jit;
				st->s[idx[cnt - 1 - j]].sfreq -= jit;
			}
		}
}

/* Epoch seconds of the kern_boottime every sample carries. */
static int64_t boot_time(const Ctx *c)
{
	return c->base / 1000 - 86400 * 2 -
	       (int64_t)(rng_next(&(rng){ c->o->seed }) % 40000);
}

/* ------------------------------------------------------------ tasks */

/* One task of one sample of the attribution session. */
struct TaskRec {
	int64_t pid;
	const char *name;
	int64_t started_ms;   /* epoch ms the process started; 0 for DEAD_TASKS */
	int64_t cpu, p;       /* cputime_ns, ptime_ns */
};

typedef struct {
	int64_t pid;
	const char *name;
	int bucket;
	double frac;          /* of the bucket */
} Proc;

/* Runtime process of a target: "bun" of "bun/elysia". */
static void runtime_name(const Meas *m, char *buf, size_t n)
{
	const char *sl = strchr(m->target, '/');
	size_t l = sl ? (size_t)(sl - m->target) : strlen(m->target);

	if (l >= n)
		l = n - 1;
	memcpy(buf, m->target, l);
	buf[l] = '\0';
}

/* The processes of route window (m, k): one per published bucket, the
 * "other" bucket spread over OTHER_PROC. */
static void window_procs(const Meas *m, const Route *r, const char *rt, Proc *p)
{
	p[0] = (Proc){ m->server_pid, rt, 0, 1.0 };
	p[1] = (Proc){ r->pid, "bombardier", 1, 1.0 };
	p[2] = (Proc){ 0, "kernel_task", 2, 1.0 };
	p[3] = (Proc){ -1, "DEAD_TASKS", 3, 1.0 };
	p[4] = (Proc){ ATTR_PM_PID, "powermetrics", 4, 1.0 };
	p[5] = (Proc){ ATTR_WS_PID, "WindowServer", 5, 1.0 };
	double rest = 1.0;
	for (int j = 0; j < NPROC - 6; j++) {
		double f = j + 1 < NPROC - 6 ? OTHER_PROC[j].frac : rest;
		p[6 + j] = (Proc){ OTHER_PROC[j].pid, OTHER_PROC[j].name, 6, f };
		rest -= f;
	}
}

/* Spread of a process's CPU time over the interior samples of a window. */
static double task_shape(const Ctx *c, size_t i, int j)
{
	const Sample *s = &c->st.s[i];
	rng g;

	if (!s->interior)
		return 1.0;
	g = rng_make(c->o->seed, "taskshape", (uint64_t)i * 16 + (uint64_t)j);
	return 1.0 + 0.06 * rng_sym(&g);
}

static void push_task(Ctx *c, int64_t pid, const char *name, int64_t started,
		      double cpu_ns, double pfrac)
{
	int64_t cpu = (int64_t)llround(cpu_ns);
	int64_t p = (int64_t)llround(cpu_ns * pfrac);

	if (cpu <= 0)
		return;
	if (p > cpu)
		p = cpu;
	if (c->ntk == c->atk) {
		c->atk = c->atk ? 2 * c->atk : 4096;
		struct TaskRec *nt = realloc(c->tk, c->atk * sizeof *nt);
		if (!nt)
			die("out of memory");
		c->tk = nt;
	}
	c->tk[c->ntk++] = (struct TaskRec){ pid, name, started, cpu, p };
}

static int task_cmp(const void *a, const void *b)
{
	const struct TaskRec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu > y->cpu ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Background processes outside the load windows: ms of CPU per s, share
 * on P-cores. */
static const struct {
	int64_t pid;
	const char *name;
	double ms_per_s, pfrac;
} IDLE_PROC[] = {
	{ ATTR_PM_PID, "powermetrics", 14.0, 0.30 }, { 0, "kernel_task", 5.5, 0.25 },
	{ ATTR_WS_PID, "WindowServer", 4.0, 0.05 }, { -1, "DEAD_TASKS", 2.0, 0.20 },
	{ 318, "logd", 0.8, 0.10 }, { 1, "launchd", 0.5, 0.10 },
	{ 1187, "mds_stores", 0.3, 0.0 },
};

/*
 * The tasks array of every sample.  In a load window each process's CPU
 * time is level x shape x sample length, the level solved (like the
 * energy's) so that the overlap-weighted sum over the samples the
 * published method puts in the window equals the published bucket share
 * of that process; P-core time is the bucket's published P-core fraction
 * of it.  Samples outside the load windows carry a small background.
 */
static void assign_tasks(Ctx *c)
{
	Dataset *d = c->d;
	Stream *st = &c->st;
	rng g = rng_make(c->o->seed, "tasks", 0);
	static char rt[MAXMEAS][32];	/* the tasks point here */
	Proc pr[NPROC];

	for (int mi = 0; mi < d->nm; mi++) {
		Meas *m = &d->m[mi];
		runtime_name(m, rt[mi], sizeof rt[mi]);
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &m->r[k];
			double t0 = rel(c, r->start), t1 = rel(c, r->end);
			window_procs(m, r, rt[mi], pr);
			for (int j = 0; j < NPROC; j++) {
				double tc = r->bk_cpu[pr[j].bucket] * pr[j].frac;
				double den = 0;
				for (size_t i = 0; i < st->n; i++) {
					double w = overlap_w(&st->s[i], t0, t1);
					if (w > 0)
						den += w * task_shape(c, i, j) * true_len(&st->s[i]);
				}
				r->tlvl[j] = den > 0 ? tc / den : 0;
				r->tpfrac[j] = r->bk_cpu[pr[j].bucket] > 0 ?
					       r->bk_p[pr[j].bucket] / r->bk_cpu[pr[j].bucket] : 0;
			}
		}
	}

	c->toff = xcalloc(st->n + 1, sizeof *c->toff);
	for (size_t i = 0; i < st->n; i++) {
		Sample *s = &st->s[i];
		double len = true_len(s), mid = (s->t0 + s->t1) / 2;

		c->toff[i] = c->ntk;
		if (s->own == OWN_ROUTE) {
			Meas *m = &d->m[s->oi];
			Route *r = &m->r[s->ok];
			window_procs(m, r, rt[s->oi], pr);
			for (int j = 0; j < NPROC; j++) {
				int64_t started = j == 0 ? m->start - (int64_t)m->startup_ms :
						  j == 1 ? r->start : j == 3 ? 0 :
						  c->base - 86400000;
				push_task(c, pr[j].pid, pr[j].name, started,
					  r->tlvl[j] * task_shape(c, i, j) * len * 1e6,
					  r->tpfrac[j]);
			}
		} else {
			for (size_t j = 0; j < sizeof(IDLE_PROC) / sizeof(IDLE_PROC[0]); j++) {
				double v = IDLE_PROC[j].ms_per_s * len / 1000 *
					   (1.0 + 0.2 * rng_sym(&g));
				push_task(c, IDLE_PROC[j].pid, IDLE_PROC[j].name,
					  IDLE_PROC[j].pid == -1 ? 0 : c->base - 86400000,
					  v * 1e6, IDLE_PROC[j].pfrac);
			}
			/* the server idles between routes */
			for (int mi = 0; mi < d->nm; mi++) {
				Meas *m = &d->m[mi];
				if (mid >= rel(c, m->start) && mid <= rel(c, m->end))
					push_task(c, m->server_pid, rt[mi],
						  m->start - (int64_t)m->startup_ms,
						  1.5 * len * 1e3 * (1.0 + 0.2 * rng_sym(&g)), 0.4);
			}
		}
		qsort(c->tk + c->toff[i], c->ntk - c->toff[i], sizeof *c->tk, task_cmp);
	}
	c->toff[st->n] = c->ntk;

	/* what the published method will give back, for --verbose */
	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &d->m[mi].r[k];
			double t0 = rel(c, r->start), t1 = rel(c, r->end);
			double cpu[NBUCKET] = { 0 }, p[NBUCKET] = { 0 };
			window_procs(&d->m[mi], r, rt[mi], pr);
			for (size_t i = 0; i < st->n; i++) {
				double w = overlap_w(&st->s[i], t0, t1);
				if (w <= 0)
					continue;
				for (size_t q = c->toff[i]; q < c->toff[i + 1]; q++)
					for (int j = 0; j < NPROC; j++)
						if (c->tk[q].pid == pr[j].pid &&
						    strcmp(c->tk[q].name, pr[j].name) == 0) {
							cpu[pr[j].bucket] += w * (double)c->tk[q].cpu / 1e6;
							p[pr[j].bucket] += w * (double)c->tk[q].p / 1e6;
							break;
						}
			}
			for (int q = 0; q < NBUCKET; q++) {
				double e = fmax(fabs(cpu[q] - r->bk_cpu[q]), fabs(p[q] - r->bk_p[q]));
				if (e > c->max_task_dev)
					c->max_task_dev = e;
			}
		}
}

/* The tasks array of sample idx (formats.md §1.6 keys, --show-all style
 * ptime_*). */
static void put_tasks(sbuf *b, const Ctx *c, const Sample *s, size_t idx,
		      int64_t boottime)
{
	int64_t el = s->elapsed_ns;
	int64_t interval = el + 38000 + (int64_t)(idx % 7) * 1013;

	sb_puts(b, "<key>tasks</key>\n<array>\n");
	for (size_t q = c->toff[idx]; q < c->toff[idx + 1]; q++) {
		const struct TaskRec *t = &c->tk[q];
		int64_t started = t->started_ms ?
				  (t->started_ms - boottime * 1000) * 1000000 : 0;
		if (started < 0)
			started = 0;
		sb_printf(b, "<dict>\n<key>pid</key><integer>%lld</integer>\n"
			  "<key>name</key><string>", (long long)t->pid);
		sb_xml(b, t->name);
		sb_printf(b, "</string>\n<key>started_abstime_ns</key><integer>%lld</integer>\n"
			  "<key>interval_ns</key><integer>%lld</integer>\n"
			  "<key>cputime_ns</key><integer>%lld</integer>\n"
			  "<key>cputime_ms_per_s</key><real>",
			  (long long)started, (long long)interval, (long long)t->cpu);
		sb_real(b, (double)t->cpu / 1e6 / ((double)interval / 1e9));
		sb_puts(b, "</real>\n<key>cputime_sample_ms_per_s</key><real>");
		sb_real(b, (double)t->cpu / 1e6 / ((double)el / 1e9));
		sb_printf(b, "</real>\n<key>ptime_ns</key><integer>%lld</integer>\n"
			  "<key>ptime_ms_per_s</key><real>", (long long)t->p);
		sb_real(b, (double)t->p / 1e6 / ((double)interval / 1e9));
		sb_puts(b, "</real>\n<key>ptime_ratio</key><real>");
		sb_real(b, (double)t->p / (double)t->cpu);
		sb_puts(b, "</real>\n</dict>\n");
	}
	sb_puts(b, "</array>\n");
}

/* ------------------------------------------------------- output sinks */

typedef struct {
	FILE *f;
	gzFile gz;
	char *path;
} Sink;

static void sink_open(Sink *k, const char *path, int gz)
{
	k->path = xstrdup(path);
	k->f = NULL;
	k->gz = NULL;
	if (gz) {
		k->gz = gzopen(path, "wb9");
		if (!k->gz)
			die("%s: cannot create: %s", path, strerror(errno));
		gzbuffer(k->gz, 1 << 17);
	} else {
		k->f = fopen(path, "wb");
		if (!k->f)
			die("%s: cannot create: %s", path, strerror(errno));
	}
}

static void sink_write(Sink *k, const char *p, size_t n)
{
	if (k->gz) {
		while (n) {
			unsigned chunk = n > (1u << 30) ? (1u << 30) : (unsigned)n;
			if (gzwrite(k->gz, p, chunk) != (int)chunk)
				die("%s: write error", k->path);
			p += chunk;
			n -= chunk;
		}
	} else if (fwrite(p, 1, n, k->f) != n) {
		die("%s: write error: %s", k->path, strerror(errno));
	}
}

static void sink_close(Sink *k)
{
	if (k->gz) {
		if (gzclose(k->gz) != Z_OK)
			die("%s: close error", k->path);
	} else if (fclose(k->f) != 0) {
		die("%s: close error: %s", k->path, strerror(errno));
	}
	free(k->path);
}

static void write_file(const char *path, const char *p, size_t n)
{
	Sink k;

	sink_open(&k, path, 0);
	sink_write(&k, p, n);
	sink_close(&k);
}

static char *path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = xmalloc(a + b + 2);

	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

/* ------------------------------------------------------------- plist */

static const int E_DVFM[] = { 1020, 1308, 1572, 1836, 2100, 2352, 2592, 2808, 3000 };
static const int S_DVFM[] = { 972, 1260, 1584, 1896, 2208, 2496, 2784, 3048, 3300,
			      3528, 3744, 3924, 4056, 4152, 4212, 4308, 4416,
			      4512 };
static const int G_DVFM[] = { 338, 618, 796, 924, 952, 1056, 1062, 1182, 1312, 1470 };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void put_iso_s(sbuf *b, int64_t epoch_ms)
{
	time_t t = (time_t)(epoch_ms / 1000);
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	sb_puts(b, buf);
}

/* dvfm_states: active time split between the two states around freq
 * (MHz); full = every state of the table, else only the used ones. */
static void put_dvfm(sbuf *b, const int *tab, size_t nt, double mhz,
		     int64_t active_ns, int64_t elapsed_ns, int full)
{
	size_t j = 0;
	double r = 0;

	if (mhz <= tab[0]) {
		j = 0;
		r = 0;
	} else if (mhz >= tab[nt - 1]) {
		j = nt - 2;
		r = 1;
	} else {
		while (j + 1 < nt && tab[j + 1] < mhz)
			j++;
		r = (mhz - tab[j]) / (tab[j + 1] - tab[j]);
	}
	int64_t hi = (int64_t)llround((double)active_ns * r);
	int64_t lo = active_ns - hi;

	sb_puts(b, "<key>dvfm_states</key>\n<array>\n");
	for (size_t i = 0; i < nt; i++) {
		int64_t used = i == j ? lo : i == j + 1 ? hi : 0;
		if (!full && used == 0)
			continue;
		sb_printf(b, "<dict>\n<key>freq</key><integer>%d</integer>\n"
			  "<key>used_ns</key><integer>%lld</integer>\n"
			  "<key>used_ratio</key><real>", tab[i], (long long)used);
		sb_real(b, (double)used / (double)elapsed_ns);
		sb_puts(b, "</real>\n</dict>\n");
	}
	sb_puts(b, "</array>\n");
}

static void put_cluster(sbuf *b, const char *name, double hz, double idle,
			const int *tab, size_t nt, int64_t el, int full,
			int cpu0, int ncpu, rng *g)
{
	int64_t idle_ns = (int64_t)llround(idle * (double)el);

	sb_puts(b, "<dict>\n<key>name</key><string>");
	sb_xml(b, name);
	sb_puts(b, "</string>\n<key>hw_resid_counters</key><true/>\n"
		"<key>freq_hz</key><real>");
	sb_real(b, hz);
	sb_printf(b, "</real>\n<key>idle_ns</key><integer>%lld</integer>\n"
		  "<key>idle_ratio</key><real>", (long long)idle_ns);
	sb_real(b, (double)idle_ns / (double)el);
	sb_puts(b, "</real>\n<key>down_ns</key><integer>0</integer>\n"
		"<key>down_ratio</key><real>0</real>\n");
	put_dvfm(b, tab, nt, hz / 1e6, el - idle_ns, el, full);
	sb_puts(b, "<key>online_ratio</key><real>1</real>\n");
	if (full) {
		sb_puts(b, "<key>cpus</key>\n<array>\n");
		for (int k = 0; k < ncpu; k++) {
			double cidle = idle + 0.02 * rng_sym(g);
			if (cidle < 0.001) cidle = 0.001 + 0.002 * rng_unif(g);
			if (cidle > 0.999) cidle = 0.999;
			double chz = hz * (1.0 + 0.004 * rng_sym(g));
			int64_t cin = (int64_t)llround(cidle * (double)el);
			sb_printf(b, "<dict>\n<key>cpu</key><integer>%d</integer>\n"
				  "<key>freq_hz</key><real>", cpu0 + k);
			sb_real(b, chz);
			sb_printf(b, "</real>\n<key>idle_ns</key><integer>%lld</integer>\n"
				  "<key>idle_ratio</key><real>", (long long)cin);
			sb_real(b, (double)cin / (double)el);
			sb_puts(b, "</real>\n<key>down_ns</key><integer>0</integer>\n"
				"<key>down_ratio</key><real>0</real>\n");
			put_dvfm(b, tab, nt, chz / 1e6, el - cin, el, 1);
			sb_puts(b, "</dict>\n");
		}
		sb_puts(b, "</array>\n");
	}
	sb_puts(b, "</dict>\n");
}

static void put_sample(sbuf *b, const Ctx *c, const Sample *s, size_t idx,
		       int64_t boottime)
{
	int64_t el = s->elapsed_ns;
	double els = (double)el / 1e9;
	int full = c->o->full;
	rng g = rng_make(c->o->seed, "cpus", (uint64_t)idx);

	sb_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
		"\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
		"<plist version=\"1.0\">\n<dict>\n"
		"<key>is_delta</key><true/>\n");
	sb_printf(b, "<key>elapsed_ns</key><integer>%lld</integer>\n",
		  (long long)el);
	sb_puts(b, "<key>hw_model</key><string>Mac17,3</string>\n"
		"<key>kern_osversion</key><string>25G83</string>\n"
		"<key>kern_bootargs</key><string></string>\n");
	sb_printf(b, "<key>kern_boottime</key><integer>%lld</integer>\n",
		  (long long)boottime);
	sb_puts(b, "<key>timestamp</key><date>");
	put_iso_s(b, s->ts_ms);
	sb_puts(b, "</date>\n");
	if (c->o->attrib)
		put_tasks(b, c, s, idx, boottime);
	sb_puts(b, "<key>processor</key>\n<dict>\n"
		"<key>clusters</key>\n<array>\n");
	put_cluster(b, "E-Cluster", s->efreq, s->eidle, E_DVFM, NELEM(E_DVFM),
		    el, full, 0, 6, &g);
	put_cluster(b, c->o->pcluster, s->sfreq, s->sidle, S_DVFM,
		    NELEM(S_DVFM), el, full, 6, 4, &g);
	double cp = (double)s->cpu / els, gp = (double)s->gpu / els;
	double ap = (double)s->ane / els;
	sb_printf(b, "</array>\n<key>cpu_energy</key>\n<integer>%lld</integer>\n"
		  "<key>cpu_power</key>\n<real>", (long long)s->cpu);
	sb_real(b, cp);
	sb_printf(b, "</real>\n<key>gpu_energy</key>\n<integer>%lld</integer>\n"
		  "<key>gpu_power</key>\n<real>", (long long)s->gpu);
	sb_real(b, gp);
	sb_printf(b, "</real>\n<key>ane_energy</key>\n<integer>%lld</integer>\n"
		  "<key>ane_power</key>\n<real>", (long long)s->ane);
	sb_real(b, ap);
	sb_puts(b, "</real>\n<key>combined_power</key>\n<real>");
	sb_real(b, cp + gp + ap);
	sb_puts(b, "</real>\n</dict>\n"
		"<key>thermal_pressure</key><string>Nominal</string>\n"
		"<key>gpu</key>\n<dict>\n<key>freq_hz</key><real>");
	int64_t gidle_ns = (int64_t)llround(s->gidle * (double)el);
	sb_real(b, s->gfreq);
	sb_printf(b, "</real>\n<key>idle_ns</key><integer>%lld</integer>\n"
		  "<key>idle_ratio</key><real>", (long long)gidle_ns);
	sb_real(b, (double)gidle_ns / (double)el);
	sb_puts(b, "</real>\n");
	put_dvfm(b, G_DVFM, NELEM(G_DVFM), s->gfreq, el - gidle_ns, el, full);
	sb_printf(b, "<key>gpu_energy</key><integer>%lld</integer>\n</dict>\n"
		  "</dict>\n</plist>\n", (long long)s->gpu);
	sb_putc(b, '\0');
}

static void write_power(Ctx *c)
{
	Stream *st = &c->st;
	int64_t boottime = boot_time(c);
	sbuf b = { 0 };

	for (int f = 0; f < st->nfiles; f++) {
		char name[64];
		snprintf(name, sizeof name, "power.plist%s%s", f ? ".1" : "",
			 c->o->plain ? "" : ".gz");
		char *path = path_join(c->o->outdir, name);
		Sink k;
		sink_open(&k, path, !c->o->plain);
		for (size_t i = 0; i < st->file_n[f]; i++) {
			size_t idx = st->file_first[f] + i;
			b.len = 0;
			put_sample(&b, c, &st->s[idx], idx, boottime);
			sink_write(&k, b.p, b.len);
		}
		sink_close(&k);
		free(path);
	}
	sb_free(&b);
}

/* --------------------------------------------------------- bombardier */

static void synth_route(Ctx *c, Route *r, int k, uint64_t sub)
{
	rng g = rng_make(c->o->seed, "bombardier", sub);
	int conns = k == 3 ? 10 : 500;

	/* full-precision values that round to the published ones */
	r->rps_mean_x = r->rps_mean + 0.04 * rng_sym(&g);
	r->rps_sd_x = r->rps_sd + 0.04 * rng_sym(&g);
	r->lat_mean_x = r->lat_mean + 0.04 * rng_sym(&g);
	if (r->rps_mean_x <= 0)
		r->rps_mean_x = r->rps_mean;
	/* fasthttp's latency spread at saturation is about half the mean */
	r->lat_sd_x = r->lat_mean_x * (0.42 + 0.16 * rng_unif(&g)) +
		      rng_unif(&g);
	double sd = r->rps_sd_x > 0 ? r->rps_sd_x : r->rps_mean_x * 0.05;
	r->rps_max_x = r->rps_mean_x + sd * (2.8 + 0.5 * rng_unif(&g)) +
		       rng_unif(&g);
	double z[5] = { 0.05, 0.66, 1.25, 1.6, 2.3 };
	int64_t prev = 0;
	for (int i = 0; i < 5; i++) {
		double v = r->rps_mean_x + sd * (z[i] + 0.08 * rng_sym(&g));
		if (v > r->rps_max_x)
			v = r->rps_max_x;
		int64_t micro = (int64_t)llround(v * 1e6);
		if (micro <= prev)
			micro = prev + 1;
		r->rps_pct[i] = prev = micro;
	}
	/* requests still in flight when the clock stopped were written */
	int64_t inflight = rng_range(&g, 0, conns - 1);
	r->bytes_written = (r->requests + inflight) * ROUTE_REQ_BYTES[k];
}

static void put_cmd(sbuf *b, int k)
{
	sb_printf(b, "bombardier -p r -o json --fasthttp -c %d -d 10s ",
		  k == 3 ? 10 : 500);
	if (k == 2)
		sb_puts(b, "-m POST -H Content-Type:application/json "
			"-f ./scripts/body.json ");
	if (k == 3)
		sb_puts(b, "-H Cache-Control:no-store "
			"-H If-None-Match:\"benchmark-force-full-response\" ");
	sb_printf(b, "http://127.0.0.1:3000%s", ROUTE_PATH[k]);
}

/* The runner's re-serialised JSON (JSON.stringify(x, null, '\t')), or,
 * with go != 0, bombardier's own one-line template output. */
static void put_bombardier_json(sbuf *b, const Route *r, int k, int go)
{
	const char *nl = go ? "" : "\n";
	const char *sep = go ? ":" : ": ";
	char t[8][8];

	for (int i = 0; i < 8; i++) {
		int n = go ? 0 : i;
		memset(t[i], '\t', (size_t)n);
		t[i][n] = '\0';
	}
#define NUM(v) (go ? sb_go(b, (v)) : sb_js(b, (v)))
#define KEY(d, name) sb_printf(b, "%s%s\"%s\"%s", nl, t[d], name, sep)
	sb_puts(b, "{");
	KEY(1, "spec");
	sb_puts(b, "{");
	KEY(2, "numberOfConnections");
	sb_printf(b, "%d,", k == 3 ? 10 : 500);
	KEY(2, "testType");
	sb_puts(b, "\"timed\",");
	KEY(2, "testDurationSeconds");
	sb_puts(b, "10,");
	KEY(2, "method");
	sb_puts(b, k == 2 ? "\"POST\"," : "\"GET\",");
	KEY(2, "url");
	sb_printf(b, "\"http://127.0.0.1:3000%s\",", ROUTE_PATH[k]);
	if (k == 2 || k == 3) {
		static const char *const hk[2][2] = {
			{ "Content-Type", "application/json" },
			{ "Cache-Control", "no-store" },
		};
		KEY(2, "headers");
		sb_puts(b, "[");
		int nh = k == 2 ? 1 : 2;
		for (int h = 0; h < nh; h++) {
			const char *key = k == 2 ? hk[0][0] : h == 0 ? hk[1][0] : "If-None-Match";
			const char *val = k == 2 ? hk[0][1] : h == 0 ? hk[1][1] :
					  "\"benchmark-force-full-response\"";
			sb_printf(b, "%s%s{", nl, t[3]);
			KEY(4, "key");
			sb_jstr(b, key);
			sb_putc(b, ',');
			KEY(4, "value");
			sb_jstr(b, val);
			sb_printf(b, "%s%s}%s", nl, t[3], h + 1 < nh ? "," : "");
		}
		sb_printf(b, "%s%s],", nl, t[2]);
	}
	if (k == 2) {
		KEY(2, "bodyFilePath");
		sb_puts(b, "\"./scripts/body.json\",");
	} else {
		KEY(2, "body");
		sb_puts(b, "\"\",");
	}
	KEY(2, "stream");
	sb_puts(b, "false,");
	KEY(2, "timeoutSeconds");
	sb_puts(b, "2,");
	KEY(2, "client");
	sb_puts(b, "\"fasthttp\"");
	sb_printf(b, "%s%s},", nl, t[1]);
	KEY(1, "result");
	sb_puts(b, "{");
	KEY(2, "bytesRead");
	sb_printf(b, "%lld,", (long long)r->bytes_read);
	KEY(2, "bytesWritten");
	sb_printf(b, "%lld,", (long long)r->bytes_written);
	KEY(2, "timeTakenSeconds");
	NUM(r->time_taken);
	sb_putc(b, ',');
	KEY(2, "req1xx");
	sb_puts(b, "0,");
	KEY(2, "req2xx");
	sb_printf(b, "%lld,", (long long)r->req2xx);
	KEY(2, "req3xx");
	sb_puts(b, "0,");
	KEY(2, "req4xx");
	sb_puts(b, "0,");
	KEY(2, "req5xx");
	sb_printf(b, "%lld,", (long long)(r->requests - r->req2xx - r->others));
	KEY(2, "others");
	sb_printf(b, "%lld,", (long long)r->others);
	KEY(2, "latency");
	sb_puts(b, "{");
	KEY(3, "mean");
	NUM(r->lat_mean_x);
	sb_putc(b, ',');
	KEY(3, "stddev");
	NUM(r->lat_sd_x);
	sb_putc(b, ',');
	KEY(3, "max");
	NUM(r->lat_max);
	sb_printf(b, "%s%s},", nl, t[2]);
	KEY(2, "rps");
	sb_puts(b, "{");
	KEY(3, "mean");
	NUM(r->rps_mean_x);
	sb_putc(b, ',');
	KEY(3, "stddev");
	NUM(r->rps_sd_x);
	sb_putc(b, ',');
	KEY(3, "max");
	NUM(r->rps_max_x);
	sb_putc(b, ',');
	KEY(3, "percentiles");
	sb_puts(b, "{");
	static const char *const pk[5] = { "50", "75", "90", "95", "99" };
	for (int i = 0; i < 5; i++) {
		KEY(4, pk[i]);
		sb_micro(b, r->rps_pct[i], go);
		if (i < 4)
			sb_putc(b, ',');
	}
	sb_printf(b, "%s%s}", nl, t[3]);
	sb_printf(b, "%s%s}", nl, t[2]);
	sb_printf(b, "%s%s}", nl, t[1]);
	sb_printf(b, "%s}", nl);
#undef NUM
#undef KEY
}

static void write_bombardier(Ctx *c)
{
	Dataset *d = c->d;
	char *dir = path_join(c->o->outdir, "bombardier");
	sbuf b = { 0 };

	if (mkdir(dir, 0777) != 0)
		die("%s: %s", dir, strerror(errno));
	for (int mi = 0; mi < d->nm; mi++) {
		Meas *m = &d->m[mi];
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &m->r[k];
			char name[256];
			b.len = 0;
			if (c->o->progress) {
				int conns = k == 3 ? 10 : 500;
				sb_printf(&b, "Bombarding http://127.0.0.1:3000%s for 10s "
					  "using %d connection(s)\n", ROUTE_PATH[k], conns);
				for (int s = 1; s <= 10; s++) {
					int w = 7 * s;
					sb_putc(&b, '\r');
					sb_puts(&b, "[");
					for (int q = 0; q < 70; q++)
						sb_putc(&b, q < w ? '=' : q == w ? '>' : '-');
					sb_printf(&b, "] %ds", s);
				}
				sb_puts(&b, "\nDone!\n");
				put_bombardier_json(&b, r, k, 1);
			} else {
				put_bombardier_json(&b, r, k, 0);
			}
			snprintf(name, sizeof name, "r%d-s%d-%s-%s.json", m->round,
				 m->slot, m->framework, ROUTE[k]);
			char *path = path_join(dir, name);
			write_file(path, b.p, b.len);
			free(path);
		}
	}
	sb_free(&b);
	free(dir);
}

/* ----------------------------------------------------------- timeline */

typedef struct {
	int64_t ts;
	long seq;
	char *line;
} Event;

typedef struct {
	Event *e;
	size_t n, cap;
} Events;

static void ev_add(Events *ev, int64_t ts, sbuf *body)
{
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? ev->cap * 2 : 256;
		Event *ne = realloc(ev->e, ev->cap * sizeof *ne);
		if (!ne)
			die("out of memory");
		ev->e = ne;
	}
	ev->e[ev->n].ts = ts;
	ev->e[ev->n].seq = (long)ev->n;
	ev->e[ev->n].line = xstrdup(body->p ? body->p : "");
	ev->n++;
	body->len = 0;
	if (body->p)
		body->p[0] = '\0';
}

static int ev_cmp(const void *a, const void *b)
{
	const Event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void ev_head(sbuf *b, int64_t ts, const char *event)
{
	sb_printf(b, "{\"ts\":%lld,\"event\":", (long long)ts);
	sb_jstr(b, event);
}

static void kv_s(sbuf *b, const char *k, const char *v)
{
	sb_printf(b, ",\"%s\":", k);
	if (v)
		sb_jstr(b, v);
	else
		sb_puts(b, "null");
}

static void kv_i(sbuf *b, const char *k, int64_t v)
{
	sb_printf(b, ",\"%s\":%lld", k, (long long)v);
}

static void kv_n(sbuf *b, const char *k, double v)
{
	sb_printf(b, ",\"%s\":", k);
	sb_js(b, v);
}

/* routeComplete body fields after route (shared with measurementComplete). */
static void put_route_fields(sbuf *b, const Route *r, int k)
{
	sbuf cmd = { 0 };

	kv_s(b, "route", ROUTE[k]);
	put_cmd(&cmd, k);
	kv_s(b, "cmd", cmd.p);
	sb_free(&cmd);
	kv_i(b, "bombardierPid", r->pid);
	kv_i(b, "startedAtMs", r->start);
	kv_i(b, "endedAtMs", r->end);
	kv_i(b, "requests", r->requests);
	kv_i(b, "req1xx", 0);
	kv_i(b, "req2xx", r->req2xx);
	kv_i(b, "req3xx", 0);
	kv_i(b, "req4xx", 0);
	kv_i(b, "req5xx", r->requests - r->req2xx - r->others);
	kv_i(b, "others", r->others);
	kv_n(b, "timeTakenSeconds", r->time_taken);
	kv_n(b, "rpsMean", r->rps_mean_x);
	kv_n(b, "rpsStddev", r->rps_sd_x);
	kv_n(b, "rpsMax", r->rps_max_x);
	kv_n(b, "latencyMeanUs", r->lat_mean_x);
	kv_n(b, "latencyStddevUs", r->lat_sd_x);
	kv_n(b, "latencyMaxUs", r->lat_max);
	kv_n(b, "rpsP50", (double)r->rps_pct[0] / 1e6);
	kv_n(b, "rpsP99", (double)r->rps_pct[4] / 1e6);
	kv_i(b, "bytesRead", r->bytes_read);
	kv_i(b, "bytesWritten", r->bytes_written);
}

static void write_timeline(Ctx *c)
{
	Dataset *d = c->d;
	Events ev = { 0 };
	sbuf b = { 0 };
	rng g = rng_make(c->o->seed, "timeline", 0);

	ev_head(&b, c->session_start, "sessionStart");
	kv_s(&b, "arm", d->m[0].arm);
	kv_i(&b, "rps", 0);
	kv_i(&b, "rounds", (int64_t)jnum_or(jget(d->root, "methodology"), "rounds", 5));
	kv_i(&b, "cooldownSec",
	     (int64_t)jnum_or(jget(d->root, "methodology"), "cooldownSec", 120));
	kv_i(&b, "gapSec",
	     (int64_t)jnum_or(jget(d->root, "methodology"), "interRouteGapSec", 2));
	sb_putc(&b, '}');
	ev_add(&ev, c->session_start, &b);

	/* idle windows and measurements in time order */
	int ii = 0, mi = 0;
	while (ii < d->ni || mi < d->nm) {
		int take_idle = mi >= d->nm ||
				(ii < d->ni && d->id[ii].start <= d->m[mi].start);
		if (take_idle) {
			Idle *w = &d->id[ii++];
			ev_head(&b, w->start, "idleWindowStart");
			kv_s(&b, "id", w->id);
			kv_i(&b, "index", w->index);
			kv_s(&b, "kind", w->kind);
			kv_i(&b, "startedAtMs", w->start);
			kv_s(&b, "followsMeasurementId", w->follows);
			sb_putc(&b, '}');
			ev_add(&ev, w->start, &b);
			if (c->st.split_idle >= 0 && &d->id[c->st.split_idle] == w) {
				int64_t ts = c->base + (int64_t)llround(c->st.split_at) + 420;
				ev_head(&b, ts, "sessionResumed");
				sb_puts(&b, ",\"completed\":[");
				int first = 1;
				for (int j = 0; j < d->nm; j++)
					if (d->m[j].end <= w->start) {
						if (!first)
							sb_putc(&b, ',');
						sb_jstr(&b, d->m[j].id);
						first = 0;
					}
				sb_puts(&b, "]}");
				ev_add(&ev, ts, &b);
			}
			ev_head(&b, w->end, "idleWindow");
			kv_s(&b, "id", w->id);
			kv_i(&b, "index", w->index);
			kv_s(&b, "kind", w->kind);
			kv_i(&b, "startedAtMs", w->start);
			kv_i(&b, "endedAtMs", w->end);
			kv_i(&b, "baselineStartMs", w->bstart);
			kv_i(&b, "baselineEndMs", w->bend);
			kv_s(&b, "followsMeasurementId", w->follows);
			kv_s(&b, "precedesMeasurementId", w->precedes);
			sb_putc(&b, '}');
			ev_add(&ev, w->end, &b);
		} else {
			Meas *m = &d->m[mi++];
			ev_head(&b, m->start, "measurementStart");
			kv_s(&b, "id", m->id);
			kv_i(&b, "round", m->round);
			kv_i(&b, "slot", m->slot);
			kv_s(&b, "framework", m->framework);
			kv_s(&b, "target", m->target);
			kv_i(&b, "serverPid", m->server_pid);
			kv_n(&b, "startupMs", m->startup_ms);
			kv_i(&b, "startedAtMs", m->start);
			sb_putc(&b, '}');
			ev_add(&ev, m->start, &b);
			for (int k = 0; k < NROUTES; k++) {
				Route *r = &m->r[k];
				ev_head(&b, r->end, "routeComplete");
				kv_s(&b, "id", m->id);
				kv_i(&b, "round", m->round);
				kv_i(&b, "slot", m->slot);
				kv_s(&b, "framework", m->framework);
				put_route_fields(&b, r, k);
				sb_putc(&b, '}');
				ev_add(&ev, r->end, &b);
			}
			ev_head(&b, m->end, "measurementComplete");
			kv_s(&b, "id", m->id);
			kv_s(&b, "arm", m->arm);
			kv_i(&b, "round", m->round);
			kv_i(&b, "slot", m->slot);
			kv_s(&b, "framework", m->framework);
			kv_s(&b, "target", m->target);
			kv_i(&b, "serverPid", m->server_pid);
			kv_n(&b, "startupMs", m->startup_ms);
			kv_i(&b, "rssBeforeBytes", m->rss_before);
			kv_i(&b, "rssAfterBytes", m->rss_after);
			kv_i(&b, "startedAtMs", m->start);
			kv_i(&b, "endedAtMs", m->end);
			sb_puts(&b, ",\"routes\":{");
			for (int k = 0; k < NROUTES; k++) {
				sbuf rb = { 0 };
				put_route_fields(&rb, &m->r[k], k);
				/* drop the leading comma */
				sb_printf(&b, "%s\"%s\":{%s}", k ? "," : "", ROUTE[k],
					  rb.p + 1);
				sb_free(&rb);
			}
			sb_puts(&b, "}}");
			ev_add(&ev, m->end, &b);
		}
	}

	for (int64_t t = c->session_start + 10000; t < c->session_end; t += 10000) {
		int64_t ts = t + rng_range(&g, 0, 3);
		ev_head(&b, ts, "heartbeat");
		sb_putc(&b, '}');
		ev_add(&ev, ts, &b);
	}
	ev_head(&b, c->session_end, "sessionEnd");
	sb_puts(&b, ",\"ok\":true}");
	ev_add(&ev, c->session_end, &b);

	qsort(ev.e, ev.n, sizeof *ev.e, ev_cmp);
	sbuf out = { 0 };
	for (size_t i = 0; i < ev.n; i++) {
		sb_puts(&out, ev.e[i].line);
		sb_putc(&out, '\n');
		free(ev.e[i].line);
	}
	char *path = path_join(c->o->outdir, "timeline.jsonl");
	write_file(path, out.p, out.len);
	free(path);
	free(ev.e);
	sb_free(&out);
	sb_free(&b);
}

/* --------------------------------------------------------- meta, notes */

static void put_iso_ms(char *buf, size_t n, int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char s[32];

	gmtime_r(&t, &tm);
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, n, "%s.%03dZ", s, (int)(ms % 1000));
}

static json_t *copy_or_null(json_t *o, const char *k)
{
	json_t *v = o ? json_object_get(o, k) : NULL;

	return v ? json_deep_copy(v) : json_null();
}

static void write_meta(Ctx *c)
{
	json_t *root = c->d->root;
	json_t *mach = jget(root, "machine"), *tools = jget(root, "tools");
	json_t *integ = json_object_get(root, "integrity");
	json_t *sess = json_array_get(json_object_get(root, "sessions"), 0);
	json_t *meta = json_object();
	char iso[40];

	put_iso_ms(iso, sizeof iso, c->captured_at);
	if (c->o->attrib) {
		sbuf t = { 0 };
		sb_puts(&t, "CPU-time attribution pass: ");
		for (int i = 0; i < c->d->nm; i++)
			sb_printf(&t, "%s%s", i == 0 ? "" : i + 1 == c->d->nm ? " and " : ", ",
				  c->d->m[i].framework);
		sb_puts(&t, " on an Apple M5 (reconstructed)");
		json_object_set_new(meta, "title", json_string(t.p));
		sb_free(&t);
	} else {
		json_object_set_new(meta, "title", json_string(
			"Energy per request: five Bun HTTP frameworks on an Apple M5 (reconstructed)"));
	}
	json_object_set_new(meta, "notes", json_string("notes.md"));
	json_object_set_new(meta, "capturedAt", json_string(iso));
	json_object_set_new(meta, "roomTempC",
			    json_integer(sess ? (json_int_t)jnum_or(sess, "roomTempC", 22) : 22));

	json_t *m = json_object();
	json_object_set_new(m, "id", json_string("apple-m5-mac17-3"));
	const char *mk[] = { "model", "chip", "memoryBytes", "perflevel0",
			     "perflevel1", "os", "darwin" };
	for (size_t i = 0; i < NELEM(mk); i++)
		json_object_set_new(m, mk[i], copy_or_null(mach, mk[i]));
	json_object_set_new(meta, "machine", m);

	json_t *t = json_object();
	json_object_set_new(t, "bun", copy_or_null(tools, "bun"));
	json_object_set_new(t, "bombardier", copy_or_null(tools, "bombardier"));
	json_object_set_new(meta, "tools", t);
	json_object_set_new(meta, "upstream", copy_or_null(tools, "upstream"));
	json_t *pw = json_object();
	json_object_set_new(pw, "source", json_string("AC"));
	json_object_set_new(pw, "lowPowerMode", json_false());
	json_object_set_new(meta, "power", pw);
	json_t *pmx = copy_or_null(tools, "powermetrics");
	if (c->o->attrib && json_is_object(pmx)) {
		json_t *smp = json_object_get(pmx, "samplers");
		if (json_is_array(smp))
			json_array_append_new(smp, json_string("tasks"));
		json_object_set_new(pmx, "tasksLayout", json_string(
			"top-level tasks array; each task carries ptime_ns (performance-core time) "
			"as --show-all writes it"));
	}
	json_object_set_new(meta, "powermetrics", pmx);
	json_object_set_new(meta, "pmsetThermBefore",
			    copy_or_null(integ, "pmsetThermBefore"));
	json_object_set_new(meta, "allChecksPassed", json_true());

	json_t *load = json_object();
	json_object_set_new(load, "tool", json_string("bombardier"));
	json_object_set_new(load, "connections", json_integer(500));
	json_object_set_new(load, "duration", json_string("10s"));
	json_object_set_new(load, "client", json_string("fasthttp"));
	json_object_set_new(load, "videoConnections", json_integer(10));
	json_object_set_new(meta, "load", load);
	json_object_set_new(meta, "methodology", copy_or_null(root, "methodology"));
	json_object_set_new(meta, "caveats", copy_or_null(root, "caveats"));

	json_t *erg = json_object();
	json_object_set_new(erg, "reconstructed", json_string(c->o->attrib ?
		"Rebuilt by tests/tools/rebuild --attribution from the published attribution "
		"figures (the 'attribution' block of iceman951/blog "
		"src/data/energy-benchmark-m5.json @709b877: per load window its energy, mean "
		"power and per-bucket CPU and P-core time). Request counts and load-generator "
		"statistics are borrowed from the main session's round-1 windows; idle "
		"windows, process ids and all sample-level detail are synthetic." :
		"Rebuilt by tests/tools/rebuild from the published per-window dataset "
		"iceman951/blog src/data/energy-benchmark-m5.json @709b877; sample-level "
		"detail is synthetic, except in the windows whose samples the dataset's "
		"powerTrace publishes (round 3, ping: elysia and express)."));
	json_t *src = json_object();
	json_object_set_new(src, "repo", json_string("iceman951/blog"));
	json_object_set_new(src, "path", json_string("src/data/energy-benchmark-m5.json"));
	json_object_set_new(src, "commit",
			    json_string("709b877ee42a8e68eaf00ac59405264fb2f4a87a"));
	if (c->o->attrib) {
		json_object_set_new(src, "block", json_string("attribution"));
		json_object_set_new(src, "sessionId", copy_or_null(
			json_object_get(c->d->root, "attribution"), "sessionId"));
	}
	json_object_set_new(erg, "source", src);
	if (c->o->npert) {
		json_t *pa = json_array();
		for (int i = 0; i < c->o->npert; i++) {
			json_t *p = json_object();
			json_object_set_new(p, "framework", json_string(c->o->pert[i].fw));
			json_object_set_new(p, "energyFactor",
					    json_real(c->o->pert[i].factor));
			json_array_append_new(pa, p);
		}
		json_object_set_new(erg, "perturbed", pa);
	}
	json_object_set_new(meta, "erg", erg);

	char *s = json_dumps(meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				   JSON_REAL_PRECISION(15));
	if (!s)
		die("meta.json: cannot serialise");
	sbuf b = { 0 };
	sb_puts(&b, s);
	sb_putc(&b, '\n');
	char *path = path_join(c->o->outdir, "meta.json");
	write_file(path, b.p, b.len);
	free(path);
	free(s);
	sb_free(&b);
	json_decref(meta);
}

static void write_attrib_notes(Ctx *c, sbuf *b)
{
	const Dataset *d = c->d;
	double pmax = 0;
	int nover = 0;
	double pcores = jnum_or(json_object_get(jget(d->root, "machine"), "perflevel0"),
				"count", NAN);

	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			const Route *r = &d->m[mi].r[k];
			double ps = 0;
			for (int q = 0; q < NBUCKET; q++)
				ps += r->bk_p[q];
			ps /= (double)(r->end - r->start);
			if (ps > pmax)
				pmax = ps;
			if (ps > pcores)
				nover++;
		}
	sb_puts(b,
		"# CPU-time attribution pass on an Apple M5\n"
		"\n"
		"> **Reconstructed from the published attribution figures — not a raw\n"
		"> capture.** Every file in this directory was written by\n"
		"> `tests/tools/rebuild --attribution` from the `attribution` block of the\n"
		"> published dataset (iceman951/blog, `src/data/energy-benchmark-m5.json` at\n"
		"> 709b877), which gives, for each of the 8 load windows below, only its\n"
		"> energy, its mean power and the CPU and P-core milliseconds of each process\n"
		"> group. The power samples and their `tasks` arrays are built so that the\n"
		"> published method gives exactly those figures back; everything else is\n"
		"> borrowed or made up, as listed below.\n"
		"\n"
		"## What was measured\n"
		"\n");
	sb_printf(b, "A second, shorter session (`%s`) ran ",
		  jstr(jget(d->root, "attribution"), "sessionId"));
	for (int i = 0; i < d->nm; i++)
		sb_printf(b, "%s%s", i == 0 ? "" : i + 1 == d->nm ? " and " : ", ",
			  d->m[i].framework);
	sb_puts(b,
		"\nonce each through the four routes with `powermetrics`' `tasks` sampler on,\n"
		"to see where the CPU time of a\n"
		"saturated load window goes: the server, bombardier, the kernel, powermetrics\n"
		"itself, WindowServer and everything else.\n"
		"\n"
		"`DEAD_TASKS` is CPU time of processes that exited during a sample; it cannot\n"
		"be attributed to any surviving process, so every share is a bound. Joules per\n"
		"process are not reported: a least-squares fit of window energy on P-core and\n"
		"E-core seconds gives a negative E-core coefficient.\n"
		"\n"
		"## What is published, borrowed and synthetic\n"
		"\n"
		"- Published (reproduced by the reconstruction): each window's framework, route,\n"
		"  energy (J) and mean power (W), and per bucket its CPU and P-core\n"
		"  milliseconds.\n"
		"- Derived: each window's length, the whole milliseconds for which energy /\n"
		"  length rounds to the published mean power.\n"
		"- Borrowed from the main session (`2026-08-26T0856-saturated`), round-1\n"
		"  measurement of the same framework: request and byte counts, bombardier's\n"
		"  statistics, server startup time and memory, P-cluster frequency, the gaps\n"
		"  between routes; the idle windows' lengths and mean power come from its\n"
		"  preroll, first cooldowns and postroll. The attribution pass itself\n"
		"  published none of these.\n"
		"- Synthetic: the start time, every process id, the split of the `other`\n"
		"  bucket over a few background processes, the background CPU time outside\n"
		"  the load windows, and how power and CPU time move from sample to sample.\n");
	if (nover)
		sb_printf(b,
			  "\n"
			  "Note: in %d of the windows the published P-core time adds up to more\n"
			  "than the %.0f performance cores can run (up to %.2f core-seconds per\n"
			  "second), so `ptime_ns` cannot be performance-core time alone here. The\n"
			  "reconstruction keeps the published figures as they are.\n",
			  nover, pcores, pmax);
}

static void write_notes(Ctx *c)
{
	sbuf b = { 0 };

	if (c->o->attrib) {
		write_attrib_notes(c, &b);
		goto out;
	}
	sb_puts(&b,
		"# Energy per request: five Bun HTTP frameworks on an Apple M5\n"
		"\n"
		"> **Reconstructed session.** The raw files in this directory were rebuilt by\n"
		"> `tests/tools/rebuild` from the published per-window figures\n"
		"> (iceman951/blog, `src/data/energy-benchmark-m5.json` at 709b877). The energy,\n"
		"> request counts, bytes and start/end times of every window are the published\n"
		"> ones; the sample-level detail inside a window (how power moves from one\n"
		"> 500 ms sample to the next, sampling jitter, cluster residencies) and the\n"
		"> bombardier fields the dataset does not carry are synthetic.\n");
	if (c->nplan) {
		/* what the powerTrace block made exact */
		sb_printf(&b, ">\n> The exception: the %s window%s of round %d that the dataset publishes\n"
			  "> sample by sample (`powerTrace`: ", ROUTE[0], c->nplan > 1 ? "s" : "",
			  c->d->trace_round);
		for (int i = 0; i < c->nplan; i++)
			sb_printf(&b, "%s%s", i == 0 ? "" : i + 1 < c->nplan ? ", " : " and ",
				  c->plan[i].tr->framework);
		sb_puts(&b, "). Every sample that starts inside\n"
			"> such a window is a published one: its start on the fitted time base to the\n"
			"> millisecond, its mean power to the milliwatt. The sample straddling the\n"
			"> window start, which the trace leaves out, carries the rest of the published\n"
			"> window energy.\n");
	}
	sb_puts(&b,
		"\n"
		"## What was measured\n"
		"\n"
		"Five HTTP frameworks running on Bun (elysia, hono, bun, effect, express) served\n"
		"four routes each on a MacBook Air with an Apple M5 (macOS 26.6.2): a plain\n"
		"`GET /`, a route with a path parameter and a query string, a JSON `POST`, and a\n"
		"large video response. Every route was driven by bombardier for 10 s with 500\n"
		"connections (10 for video), with a 2 s pause between routes.\n"
		"\n"
		"The 25 measurements (5 frameworks × 5 rounds) followed a cyclic 5×5 Latin\n"
		"square, so each framework took each position in a round exactly once. Every\n"
		"measurement was preceded by a 120 s cooldown; the quiet part of each cooldown\n"
		"(from 52 % of its length to 2 s before its end) gives the idle floor. A\n"
		"preroll and a postroll idle window frame the session.\n"
		"\n"
		"Power came from `powermetrics` (`cpu_power` and `thermal` samplers, 500 ms\n"
		"interval, plist output): energy is the sum of the CPU, GPU and Neural Engine\n"
		"counters, i.e. SoC compute only, not the whole machine. Load generator and\n"
		"server shared the same cores.\n"
		"\n"
		"## Method\n"
		"\n"
		"Each `power.plist*` file gets its own time axis: a least-squares line of the\n"
		"sample timestamps (+0.5 s) against cumulative `elapsed_ns`; a window's energy\n"
		"is the fractional-overlap sum of the samples it covers. The headline is\n"
		"request-weighted mJ per request over the three small routes; video is\n"
		"reported as mJ per MB read by the client.\n");
out:
	if (c->o->npert) {
		sb_puts(&b, "\n## Perturbation\n\nThis copy was altered for testing: ");
		for (int i = 0; i < c->o->npert; i++)
			sb_printf(&b, "%s`%s` window energies × %g", i ? "; " : "",
				  c->o->pert[i].fw, c->o->pert[i].factor);
		sb_puts(&b, ". Its figures are not the published ones.\n");
	}
	if (c->o->split)
		sb_puts(&b, "\nThis copy also simulates a resumed session: the power stream\n"
			"is split into `power.plist` and `power.plist.1` with a short gap.\n");
	char *path = path_join(c->o->outdir, "notes.md");
	write_file(path, b.p, b.len);
	free(path);
	sb_free(&b);
}

/* ------------------------------------------------------------- main */

static void make_outdir(const char *dir)
{
	struct stat sb;

	if (stat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode))
			die("%s: exists and is not a directory", dir);
		DIR *dp = opendir(dir);
		struct dirent *de;
		if (!dp)
			die("%s: %s", dir, strerror(errno));
		while ((de = readdir(dp)) != NULL) {
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
				closedir(dp);
				die("%s: exists and is not empty; refusing to write into it",
				    dir);
			}
		}
		closedir(dp);
		return;
	}
	/* create parents as needed */
	char *p = xstrdup(dir);
	for (char *q = p + 1; *q; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			die("%s: %s", p, strerror(errno));
		*q = '/';
	}
	if (mkdir(p, 0777) != 0)
		die("%s: %s", p, strerror(errno));
	free(p);
}

static void setup_targets(Ctx *c)
{
	Dataset *d = c->d;

	for (int mi = 0; mi < d->nm; mi++) {
		Meas *m = &d->m[mi];
		double f = perturb_factor(c->o, m->framework);
		for (int k = 0; k < NROUTES; k++) {
			Route *r = &m->r[k];
			r->tol_mj = 0.02;
			r->target_mj = (f == 1.0 ? route_target_j(r, &r->tol_mj) :
					r->energy * f) * 1000.0;
			synth_route(c, r, k, (uint64_t)(mi * NROUTES + k));
			if (k == 0 && m->round == d->trace_round)
				for (int t = 0; t < d->ntr; t++)
					if (strcmp(d->tr[t].framework, m->framework) == 0) {
						r->trace = t;
						/* a perturbed window keeps only the
						 * trace's shape */
						r->exact = f == 1.0;
					}
		}
	}
}

static void report(const Ctx *c)
{
	const Dataset *d = c->d;
	double me = 0, mw = 0;

	for (int mi = 0; mi < d->nm; mi++)
		for (int k = 0; k < NROUTES; k++) {
			const Route *r = &d->m[mi].r[k];
			double e = fabs(r->recovered_j - r->target_mj / 1000.0);
			if (e > me)
				me = e;
		}
	for (int wi = 0; wi < d->ni; wi++) {
		const Idle *w = &d->id[wi];
		double e = fabs(w->recovered_w - w->mean_w);
		if (e > mw)
			mw = e;
	}
	fprintf(stderr, "%s: %zu samples in %d file(s), drift %.1f ppm, b =",
		progname, c->st.n, c->st.nfiles, c->st.drift * 1e6);
	for (int f = 0; f < c->st.nfiles; f++)
		fprintf(stderr, " %.9f", c->st.b[f]);
	fprintf(stderr, "\n%s: max |window J - target| %.6f J, max |idle W - published| %.7f W, "
		"largest edge correction %.0f mJ\n", progname, me, mw, c->max_bump);
	if (c->o->attrib)
		fprintf(stderr, "%s: %zu tasks; max |bucket ms - published| %.6f ms\n", progname,
			c->ntk, c->max_task_dev);
	for (int pi = 0; pi < c->nplan; pi++) {
		const Plan *p = &c->plan[pi];
		double du = 0;
		for (size_t j = 0; j < p->n; j++) {
			const Sample *s = &c->st.s[p->head + 1 + j];
			du = fmax(du, fabs(s->r0 - p->S - p->tr->pt[j].t_ms));
		}
		fprintf(stderr, "%s: trace %s: %zu samples placed (max |start - tMs| %.4f ms), "
			"head %lld mJ over %.3f ms = %.3f W, window %.6f J (target %.6f), "
			"%d fit round(s), approach %d\n", progname, p->tr->framework, p->n, du,
			(long long)p->mjh, p->lenh, (double)p->mjh / p->lenh, p->r->recovered_j,
			p->r->target_mj / 1000.0, c->fit_rounds, c->fit_tries);
	}
}

int main(int argc, char **argv)
{
	static Dataset d;
	Opts o = { 0 };
	Ctx c = { 0 };

	parse_opts(&o, argc, argv);
	load_dataset(&d, o.dataset);
	if (o.attrib)
		make_attribution(&d);
	for (int i = 0; i < o.npert; i++) {
		int found = 0;
		for (int mi = 0; mi < d.nm; mi++)
			found |= strcmp(d.m[mi].framework, o.pert[i].fw) == 0;
		if (!found)
			die("--perturb: no framework '%s' in the dataset", o.pert[i].fw);
	}
	c.d = &d;
	c.o = &o;
	c.base = d.id[0].start;
	c.session_start = d.id[0].start - 6;
	c.session_end = d.id[d.ni - 1].end + 2;
	c.captured_at = c.session_start - 371408;

	make_outdir(o.outdir);
	setup_targets(&c);
	plan_setup(&c);
	build_grid(&c);
	fit_axis(&c);
	if (c.nplan)
		place_traces(&c);
	assign_owners(&c);
	solve_levels(&c);
	assign_power(&c);
	quantise(&c);
	correct_all(&c);
	check_traces(&c);
	assign_freqs(&c);
	if (o.attrib)
		assign_tasks(&c);

	write_meta(&c);
	write_notes(&c);
	write_timeline(&c);
	write_bombardier(&c);
	write_power(&c);
	if (o.verbose)
		report(&c);
	free(c.st.s);
	for (int i = 0; i < c.nplan; i++) {
		free(c.plan[i].u);
		free(c.plan[i].mj);
		free(c.plan[i].x);
	}
	free(c.tk);
	free(c.toff);
	for (int i = 0; i < o.npert; i++)
		free(o.pert[i].fw);
	return 0;
}
