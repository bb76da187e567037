/*
 * record_plan.c - the plan of erg record, and its schedule (record.h).
 *
 * The plan is read as every input is: through base/json.c, so a member of
 * the wrong type, a missing one or one erg does not know (a typo would
 * silently keep a default) is an error at its line.  Nothing here runs.
 */
#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/num.h"
#include "base/sha256.h"
#include "base/util.h"
#include "cmd/record.h"
#include "ingest/input.h"
#include "model/load.h"

/* ---- the schedule ------------------------------------------------------ */

/* splitmix64: a fixed generator, so a seed gives the same order anywhere. */
static uint64_t
next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
shuffle(size_t *v, size_t n, uint64_t *s)
{
	size_t i, j, t;

	for (i = n; i > 1; i--) {
		j = (size_t)(next_rand(s) % i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

size_t *
rec_schedule(enum rec_order o, uint64_t seed, size_t nt, int rounds)
{
	size_t *v = xmalloc(((size_t)rounds * nt + 1) * sizeof(*v));
	size_t *row = xmalloc((nt + 1) * sizeof(*row));
	size_t *col = xmalloc((nt + 1) * sizeof(*col));
	size_t *sym = xmalloc((nt + 1) * sizeof(*sym));
	size_t r, s, i;
	uint64_t st = seed;

	for (i = 0; i < nt; i++)
		row[i] = col[i] = sym[i] = i;
	for (r = 0; r < (size_t)rounds; r++) {
		/* a new square every nt rounds (rows, columns and targets
		 * shuffled again), so that no round repeats within one */
		if (o == ORDER_RANDOM && r % nt == 0) {
			shuffle(row, nt, &st);
			shuffle(col, nt, &st);
			shuffle(sym, nt, &st);
		}
		for (s = 0; s < nt; s++) {
			size_t k;

			if (o == ORDER_SEQUENTIAL)
				k = s;
			else if (o == ORDER_CYCLIC)
				k = (s + r) % nt;
			else
				k = sym[(col[s] + row[r % nt]) % nt];
			v[r * nt + s] = k;
		}
	}
	free(row);
	free(col);
	free(sym);
	return v;
}

double
rec_measurement_s(const struct rec_plan *p)
{
	return p->cooldown_s + (double)p->nr * (p->warmup_s + p->window_s) +
	       (p->nr ? (double)(p->nr - 1) * p->gap_s : 0);
}

int
rec_cpulist(const char *s, unsigned char mask[128])
{
	const char *p = s;
	char *end;
	long a, b;

	memset(mask, 0, 128);
	if (!*p)
		return -1;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -1;
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		if (a < 0 || b < a || b >= 1024)
			return -1;
		for (; a <= b; a++)
			mask[a / 8] |= (unsigned char)(1u << (a % 8));
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

/* ---- reading the plan ---------------------------------------------------- */

struct pr {
	struct jdoc *doc;
	struct rec_plan *p;
	int bad;
};

/* Every member of o must be one of names (NULL-terminated). */
static void
known_keys(struct pr *c, const struct jpos *o, const char *const *names)
{
	const char *key;
	json_t *v;
	size_t i;

	json_object_foreach(o->v, key, v) {
		struct jpos k = { o, key, 0, v };

		for (i = 0; names[i] && strcmp(names[i], key); i++)
			;
		if (!names[i])
			c->bad = jdoc_error(c->doc, &k, "is not a member erg record knows here");
	}
}

const char *
rec_energy_name(enum rec_energy e)
{
	static const char *const names[] = { "none", "powercap", "perf", "turbostat",
					     "nvidia-smi", "powermetrics" };

	return names[e];
}

/* perf events erg build reads (ingest/energy_perf.c), comma-separated. */
static int
perf_events_ok(const char *s)
{
	static const char *const ev[] = { "power/energy-pkg/", "power/energy-ram/",
					  "power/energy-psys/", "power/energy-cores/",
					  "power/energy-gpu/", NULL };
	size_t i, n;

	for (;;) {
		n = strcspn(s, ",");
		for (i = 0; ev[i] && (strlen(ev[i]) != n || strncmp(ev[i], s, n)); i++)
			;
		if (!ev[i])
			return 0;
		if (!s[n])
			return 1;
		s += n + 1;
	}
}

/* A name that becomes part of file names and measurement ids. */
static int
good_name(const char *s)
{
	size_t i;

	if (!*s || strlen(s) > 64 || s[0] == '.' || s[0] == '-')
		return 0;
	for (i = 0; s[i]; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._", s[i]))
			return 0;
	return 1;
}

static void
get_name(struct pr *c, const struct jpos *o, char **out)
{
	struct jpos v;

	if (jdoc_string(c->doc, o, "name", JD_REQ, out) < 0) {
		c->bad = -1;
		return;
	}
	jdoc_get(c->doc, o, "name", 0, &v);
	if (!good_name(*out))
		c->bad = jdoc_error(c->doc, &v, "must be letters, digits, '.' and '_' (at most "
				    "64, not starting with '.'), as it names files and "
				    "measurements: '%s'", *out);
}

/* A duration in seconds: a number, at least lo. */
static void
get_secs(struct pr *c, const struct jpos *o, const char *key, int flags, double lo,
	 double *out)
{
	char b[NUM_TEXT_LEN];
	struct jpos v;
	int rc = jdoc_real(c->doc, o, key, flags | JD_NONNEG, out);

	if (rc < 0) {
		c->bad = -1;
	} else if (rc > 0 && *out < lo) {
		jdoc_get(c->doc, o, key, 0, &v);
		c->bad = jdoc_error(c->doc, &v, "must be at least %s", num_text(b, lo));
	}
}

static void
get_str(struct pr *c, const struct jpos *o, const char *key, int flags, char **out)
{
	if (jdoc_string(c->doc, o, key, flags, out) < 0)
		c->bad = -1;
}

static void
get_cpus(struct pr *c, const struct jpos *o, char **out)
{
	unsigned char m[128];
	struct jpos v;

	get_str(c, o, "cpus", 0, out);
	if (*out && rec_cpulist(*out, m)) {
		jdoc_get(c->doc, o, "cpus", 0, &v);
		c->bad = jdoc_error(c->doc, &v, "is not a cpu list such as '0' or '0,2-3': '%s'",
				    *out);
	}
}

/* An object of strings into "K=V" or "K: V" entries. */
static char **
get_pairs(struct pr *c, const struct jpos *o, const char *key, const char *sep)
{
	struct jpos m;
	const char *k;
	json_t *v;
	char **out;
	size_t n = 0;
	int rc = jdoc_object(c->doc, o, key, 0, &m);

	if (rc < 0)
		c->bad = -1;
	if (rc <= 0)
		return NULL;
	out = xcalloc(json_object_size(m.v) + 1, sizeof(*out));
	json_object_foreach(m.v, k, v) {
		struct jpos e = { &m, k, 0, v };
		struct buf b = BUF_INIT;

		if (jdoc_check(c->doc, &e, JD_STRING)) {
			c->bad = -1;
			continue;
		}
		if (!*k || strpbrk(k, sep[0] == '=' ? "=" : ":\r\n") ||
		    strpbrk(json_string_value(v), "\r\n")) {
			c->bad = jdoc_error(c->doc, &e, "is not a usable %s",
					    sep[0] == '=' ? "environment variable" : "header");
			continue;
		}
		buf_addf(&b, "%s%s%s", k, sep, json_string_value(v));
		out[n++] = buf_detach(&b, NULL);
	}
	return out;
}

/* A setting the load generator has no way to honour: an error at it,
 * never dropped. */
static void
unsupported(struct pr *c, const struct jpos *o, const char *key, const char *why)
{
	struct jpos e;

	jdoc_get(c->doc, o, key, 0, &e);
	c->bad = jdoc_error(c->doc, &e, "cannot be honoured: '%s' %s", c->p->tool, why);
}

/* The load settings of the plan (c->p->tool is read first) or a route. */
static void
get_load(struct pr *c, const struct jpos *o, struct rec_load *l)
{
	static const char *const keys[] = { "tool", "connections", "threads", "timeoutSec",
					    "requests", "rate", "cpus", NULL };
	const struct rec_tool *lt = c->p->lt;
	double v;
	struct jpos e;
	int rc;

	known_keys(c, o, keys);
	if ((rc = jdoc_count(c->doc, o, "connections", 0, &v)) < 0)
		c->bad = -1;
	else if (rc > 0 && (v < 1 || v > 100000))
		jdoc_get(c->doc, o, "connections", 0, &e),
		c->bad = jdoc_error(c->doc, &e, "must be from 1 to 100000");
	else if (rc > 0)
		l->connections = v;
	if ((rc = jdoc_count(c->doc, o, "threads", 0, &v)) < 0)
		c->bad = -1;
	else if (rc > 0 && (v < 1 || v > 1024))
		jdoc_get(c->doc, o, "threads", 0, &e),
		c->bad = jdoc_error(c->doc, &e, "must be from 1 to 1024");
	else if (rc > 0 && lt && !lt->has_threads)
		unsupported(c, o, "threads", "has no setting for threads");
	else if (rc > 0)
		l->threads = v;
	if ((rc = jdoc_count(c->doc, o, "requests", 0, &v)) < 0)
		c->bad = -1;
	else if (rc > 0 && (v < 1 || v > 1e9))
		jdoc_get(c->doc, o, "requests", 0, &e),
		c->bad = jdoc_error(c->doc, &e, "must be from 1 to 1000000000");
	else if (rc > 0 && lt && strcmp(lt->name, "ab"))
		unsupported(c, o, "requests", "runs for the window, not for a number of "
			    "requests ('requests' is ab's cap on requests in a window)");
	else if (rc > 0)
		l->requests = v;
	if ((rc = jdoc_count(c->doc, o, "rate", 0, &v)) < 0)
		c->bad = -1;
	else if (rc > 0 && (v < 1 || v > 10000000))
		jdoc_get(c->doc, o, "rate", 0, &e),
		c->bad = jdoc_error(c->doc, &e, "must be from 1 to 10000000 (requests per "
				    "second)");
	else if (rc > 0 && lt && !lt->rate_opt)
		unsupported(c, o, "rate", !strcmp(lt->name, "wrk") ?
			    "cannot hold a request rate (wrk2 can)" : !strcmp(lt->name, "k6") ?
			    "takes a rate only in an arrival-rate scenario, which erg record "
			    "does not write" : "has no setting for a request rate");
	else if (rc > 0)
		l->rate = v;
	get_secs(c, o, "timeoutSec", 0, 1, &l->timeout_s);
	get_cpus(c, o, &l->cpus);
}

static const struct {
	const char *name;
	int sig;
} signals[] = {
	{ "TERM", SIGTERM }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "HUP", SIGHUP },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
};

/* http://host[:port][/path]: the only scheme the readiness check and the
 * load generators share without TLS settings. */
static int
split_url(struct rec_target *t)
{
	const char *p = t->url, *h, *e;

	if (strncmp(p, "http://", 7))
		return -1;
	h = p + 7;
	e = h + strcspn(h, "/?#");
	if (e == h)
		return -1;
	if (*h == '[') {
		const char *rb = memchr(h, ']', (size_t)(e - h));

		if (!rb)
			return -1;
		t->host = xstrndup(h + 1, (size_t)(rb - h - 1));
		h = rb + 1;
	} else {
		const char *colon = memchr(h, ':', (size_t)(e - h));

		t->host = xstrndup(h, (size_t)((colon ? colon : e) - h));
		h = colon ? colon : e;
	}
	if (*h == ':') {
		size_t n = (size_t)(e - h - 1);

		if (!n || n > 5 || strspn(h + 1, "0123456789") < n)
			return -1;
		t->port = xstrndup(h + 1, n);
	} else if (h != e) {
		return -1;
	} else {
		t->port = xstrdup("80");
	}
	if (*e && *e != '/')
		return -1;
	t->base_path = xstrdup(*e ? e : "/");
	/* the routes' paths are appended: no trailing slash */
	if (strlen(t->base_path) > 1 && t->base_path[strlen(t->base_path) - 1] == '/')
		t->base_path[strlen(t->base_path) - 1] = '\0';
	return *t->host ? 0 : -1;
}

static void
get_target(struct pr *c, const struct jpos *o, struct rec_target *t)
{
	static const char *const keys[] = { "name", "command", "cwd", "env", "url", "ready",
					    "stopSignal", "cpus", "version", NULL };
	static const char *const rkeys[] = { "path", "timeoutSec", NULL };
	struct jpos e, rd;
	char *sig = NULL;
	size_t i;
	int rc;

	if (jdoc_check(c->doc, o, JD_OBJECT)) {
		c->bad = -1;
		return;
	}
	known_keys(c, o, keys);
	get_name(c, o, &t->name);
	get_str(c, o, "command", JD_REQ, &t->command);
	get_str(c, o, "cwd", 0, &t->cwd);
	get_str(c, o, "version", 0, &t->version_cmd);
	get_str(c, o, "url", JD_REQ, &t->url);
	t->env = get_pairs(c, o, "env", "=");
	get_cpus(c, o, &t->cpus);
	t->ready_timeout_s = 30;
	t->stop_signal = SIGTERM;
	if ((rc = jdoc_object(c->doc, o, "ready", 0, &rd)) < 0)
		c->bad = -1;
	if (rc > 0) {
		known_keys(c, &rd, rkeys);
		get_str(c, &rd, "path", 0, &t->ready_path);
		get_secs(c, &rd, "timeoutSec", 0, 0.1, &t->ready_timeout_s);
		if (t->ready_path && t->ready_path[0] != '/') {
			jdoc_get(c->doc, &rd, "path", 0, &e);
			c->bad = jdoc_error(c->doc, &e, "must start with '/'");
		}
	}
	get_str(c, o, "stopSignal", 0, &sig);
	if (sig) {
		const char *s = strncmp(sig, "SIG", 3) ? sig : sig + 3;

		for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
			if (!strcmp(s, signals[i].name))
				break;
		jdoc_get(c->doc, o, "stopSignal", 0, &e);
		if (i == sizeof(signals) / sizeof(signals[0]))
			c->bad = jdoc_error(c->doc, &e, "is '%s', not one of TERM, INT, QUIT, "
					    "HUP, KILL, USR1, USR2", sig);
		else
			t->stop_signal = signals[i].sig;
		free(sig);
	}
	if (t->url && split_url(t)) {
		jdoc_get(c->doc, o, "url", 0, &e);
		c->bad = jdoc_error(c->doc, &e, "is not an http://host[:port][/path] URL: '%s'",
				    t->url);
	}
	if (!t->ready_path)
		t->ready_path = xstrdup(t->base_path ? t->base_path : "/");
}

static void
get_route(struct pr *c, const struct jpos *o, struct rec_route *r)
{
	static const char *const keys[] = { "name", "method", "path", "headers", "bodyFile",
					    "load", NULL };
	struct jpos e, l;
	int rc;

	if (jdoc_check(c->doc, o, JD_OBJECT)) {
		c->bad = -1;
		return;
	}
	known_keys(c, o, keys);
	get_name(c, o, &r->name);
	get_str(c, o, "method", 0, &r->method);
	get_str(c, o, "path", JD_REQ, &r->path);
	get_str(c, o, "bodyFile", 0, &r->body_file);
	r->headers = get_pairs(c, o, "headers", ": ");
	if (!r->method)
		r->method = xstrdup(r->body_file ? "POST" : "GET");
	if (strspn(r->method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(r->method) ||
	    !*r->method) {
		jdoc_get(c->doc, o, "method", 0, &e);
		c->bad = jdoc_error(c->doc, &e, "is not an HTTP method such as 'GET': '%s'",
				    r->method);
	}
	if (r->path && r->path[0] != '/') {
		jdoc_get(c->doc, o, "path", 0, &e);
		c->bad = jdoc_error(c->doc, &e, "must start with '/'");
	}
	r->load.connections = r->load.threads = r->load.timeout_s = r->load.requests = NAN;
	r->load.rate = NAN;
	if (c->p->lt && !strcmp(c->p->lt->name, "ab") && r->body_file &&
	    strcmp(r->method, "POST") && strcmp(r->method, "PUT"))
		unsupported(c, o, json_object_get(o->v, "method") ? "method" : "bodyFile",
			    "sends a body with POST (-p) or PUT (-u) only");
	if (c->p->lt && !strcmp(c->p->lt->name, "hey") && r->method &&
	    !strstr(" GET POST PUT DELETE HEAD OPTIONS ", r->method))
		unsupported(c, o, "method", "sends GET, POST, PUT, DELETE, HEAD or OPTIONS only");
	if ((rc = jdoc_object(c->doc, o, "load", 0, &l)) < 0)
		c->bad = -1;
	else if (rc > 0)
		get_load(c, &l, &r->load);
	if (rc > 0 && json_object_get(l.v, "tool")) {
		jdoc_get(c->doc, &l, "tool", 0, &e);
		c->bad = jdoc_error(c->doc, &e, "cannot differ per route (one load generator "
				    "per session)");
	}
}

/* The load generators erg record drives, each stored as erg build reads
 * it back.  A rate is given only where the tool's own option holds the
 * total: hey's -q is per worker (the rate must divide by connections);
 * autocannon's -R is --overallRate (its -r is per connection); k6 takes
 * one only in an arrival-rate scenario, which erg record does not write. */
static const char *const tools_known[] = { "wrk", "wrk2", "hey", "ab", "autocannon", "oha",
					   "bombardier", "k6", NULL };
static const struct rec_tool tools_driven[] = {
	{ "wrk", "wrk", LOAD_WRK_TEXT, "txt", "-v", 1, NULL },
	{ "wrk2", "wrk2", LOAD_WRK2_TEXT, "txt", "-v", 1, "-R" },
	{ "hey", "hey", LOAD_HEY_TEXT, "txt", NULL, 1, "-q" },
	{ "ab", "ab", LOAD_AB_TEXT, "txt", "-V", 0, NULL },
	{ "oha", "oha", LOAD_OHA_JSON, "json", "--version", 0, "-q" },
	{ "bombardier", "bombardier", LOAD_BOMBARDIER_JSON, "json", "--version", 0, "-r" },
	{ "autocannon", "autocannon", LOAD_AUTOCANNON_JSON, "json", "--version", 1,
	  "--overallRate" },
	{ "k6", "k6", LOAD_K6_JSON, "json", "version", 0, NULL },
};

const struct rec_tool *
rec_tool_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tools_driven) / sizeof(tools_driven[0]); i++)
		if (!strcmp(tools_driven[i].name, name))
			return &tools_driven[i];
	return NULL;
}

static void
check_names(struct pr *c, const struct jpos *arr, size_t n, int targets)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++) {
			const char *a = targets ? c->p->t[i].name : c->p->r[i].name;
			const char *b = targets ? c->p->t[j].name : c->p->r[j].name;

			if (a && b && !strcmp(a, b)) {
				struct jpos e = { arr, NULL, i, json_array_get(arr->v, i) };

				c->bad = jdoc_error(c->doc, &e, "has the name '%s', as does "
						    "'%s[%zu]'", a, targets ? "targets" :
						    "routes", j);
			}
		}
}

double
rec_route_rate(const struct rec_plan *p, const struct rec_route *r)
{
	return isnan(r->load.rate) ? p->load.rate : r->load.rate;
}

/*
 * What a rate needs once every route is read: wrk2 a rate for every route
 * (at 'load.tool' when none is given anywhere); hey a rate that divides by
 * the connections, as its -q throttles each worker (rate / connections
 * each, exactly; a rounded -q would offer another rate than planned).
 */
static void
check_rates(struct pr *c, const struct jpos *root, const struct jpos *routes)
{
	const struct rec_plan *p = c->p;
	struct jpos lo, rl, e;
	size_t i, nown = 0;
	int global_bad = 0, refused;

	if (!p->lt || jdoc_object(c->doc, root, "load", 0, &lo) <= 0)
		return;
	/* a rate given but refused was said at its line already */
	refused = json_object_get(lo.v, "rate") && isnan(p->load.rate);
	for (i = 0; i < p->nr; i++) {
		const json_t *rt = json_array_get(routes->v, i);

		nown += !isnan(p->r[i].load.rate);
		refused |= json_is_object(rt) && isnan(p->r[i].load.rate) &&
			   json_object_get(json_object_get(rt, "load"), "rate");
	}
	if (!strcmp(p->lt->name, "wrk2") && isnan(p->load.rate) && nown < p->nr &&
	    !refused) {
		if (!nown) {
			jdoc_get(c->doc, &lo, "tool", 0, &e);
			c->bad = jdoc_error(c->doc, &e, "is 'wrk2', which needs a request rate "
					    "(its -R): give 'load.rate' in requests per second");
			return;
		}
		for (i = 0; i < p->nr; i++)
			if (isnan(p->r[i].load.rate)) {
				struct jpos el = { routes, NULL, i, json_array_get(routes->v, i) };

				c->bad = jdoc_error(c->doc, &el, "has no request rate, which "
						    "'wrk2' needs: give 'load.rate' or a 'rate' in "
						    "this route's 'load'");
			}
	}
	if (strcmp(p->lt->name, "hey"))
		return;
	for (i = 0; i < p->nr; i++) {
		const struct rec_route *r = &p->r[i];
		double rate = rec_route_rate(p, r);
		double conn = isnan(r->load.connections) ? p->load.connections :
			      r->load.connections;
		struct jpos el = { routes, NULL, i, json_array_get(routes->v, i) };

		if (isnan(rate) || fmod(rate, conn) == 0)
			continue;
		if (!isnan(r->load.rate) && jdoc_object(c->doc, &el, "load", 0, &rl) > 0)
			jdoc_get(c->doc, &rl, "rate", 0, &e);
		else if (global_bad++)
			continue;	/* said once, at 'load.rate' */
		else
			jdoc_get(c->doc, &lo, "rate", 0, &e);
		c->bad = jdoc_error(c->doc, &e, "is %.0f, not a multiple of the %.0f "
				    "connections of route '%s': hey's -q is a rate per worker",
				    rate, conn, r->name ? r->name : "?");
	}
}

int
rec_plan_read(const char *path, struct rec_plan *p)
{
	static const char *const keys[] = { "title", "arm", "rounds", "ordering", "seed",
					    "warmupSec", "windowSec", "gapSec", "cooldownSec",
					    "idleBaseline", "roomTempC", "energy", "load",
					    "targets", "routes", NULL };
	static const char *const bkeys[] = { "offsetSec", "endOffsetSec", NULL };
	static const char *const ekeys[] = { "source", "root", "intervalMs", "events", NULL };
	struct buf data = BUF_INIT;
	struct jdoc doc;
	struct jpos root, e, a, o;
	struct pr c = { &doc, p, 0 };
	struct sha256 h;
	unsigned char d[32];
	char *s = NULL;
	const char *slash;
	double v;
	size_t i;
	int rc;

	memset(p, 0, sizeof(*p));
	p->path = xstrdup(path);
	slash = strrchr(path, '/');
	p->dir = slash ? xstrndup(path, (size_t)(slash - path + (slash == path))) : xstrdup(".");
	if (input_read_all(path, input_max_small, &data)) {
		buf_release(&data);
		return -1;
	}
	p->text = buf_detach(&data, &p->len);
	sha256_begin(&h);
	sha256_add(&h, p->text, p->len);
	sha256_end(&h, d);
	sha256_hex(d, p->sha256);
	if (jdoc_load(&doc, path, p->text, p->len, 0, 0))
		return -1;
	p->json = json_incref(doc.root);
	jdoc_root(&doc, &root);
	known_keys(&c, &root, keys);
	get_str(&c, &root, "title", 0, &p->title);
	get_str(&c, &root, "arm", 0, &p->arm);
	if (!p->arm)
		p->arm = xstrdup("default");
	p->rounds = 0;
	if ((rc = jdoc_count(&doc, &root, "rounds", JD_REQ, &v)) < 0) {
		c.bad = -1;
	} else if (v < 1 || v > 1000) {
		jdoc_get(&doc, &root, "rounds", 0, &e);
		c.bad = jdoc_error(&doc, &e, "must be from 1 to 1000");
	} else {
		p->rounds = (int)v;
	}
	p->order = ORDER_CYCLIC;
	get_str(&c, &root, "ordering", 0, &s);
	if (s) {
		jdoc_get(&doc, &root, "ordering", 0, &e);
		if (!strcmp(s, "cyclic"))
			p->order = ORDER_CYCLIC;
		else if (!strcmp(s, "random"))
			p->order = ORDER_RANDOM;
		else if (!strcmp(s, "sequential"))
			p->order = ORDER_SEQUENTIAL;
		else
			c.bad = jdoc_error(&doc, &e, "is '%s', not 'cyclic', 'random' or "
					   "'sequential'", s);
		free(s);
		s = NULL;
	}
	if ((rc = jdoc_count(&doc, &root, "seed", 0, &v)) < 0)
		c.bad = -1;
	else if (rc > 0)
		p->seed = (uint64_t)v;
	if (rc > 0 && p->order != ORDER_RANDOM) {
		jdoc_get(&doc, &root, "seed", 0, &e);
		c.bad = jdoc_error(&doc, &e, "is given, but the ordering is not 'random'");
	} else if (!rc && p->order == ORDER_RANDOM) {
		c.bad = error_at(path, jdoc_line(&doc, &root), "ordering 'random' needs a "
				 "'seed' (so that the order can be told and repeated)");
	}
	p->warmup_s = 0;
	p->gap_s = 2;
	p->cooldown_s = 120;
	p->room_temp_c = NAN;
	get_secs(&c, &root, "warmupSec", 0, 0, &p->warmup_s);
	get_secs(&c, &root, "windowSec", JD_REQ, 1, &p->window_s);
	get_secs(&c, &root, "gapSec", 0, 0, &p->gap_s);
	get_secs(&c, &root, "cooldownSec", 0, 0, &p->cooldown_s);
	if ((rc = jdoc_real(&doc, &root, "roomTempC", 0, &p->room_temp_c)) < 0)
		c.bad = -1;
	/* wrk takes whole seconds */
	if (p->window_s != floor(p->window_s) || p->warmup_s != floor(p->warmup_s)) {
		jdoc_get(&doc, &root, p->window_s != floor(p->window_s) ? "windowSec" :
			 "warmupSec", 0, &e);
		c.bad = jdoc_error(&doc, &e, "must be whole seconds (the load generator "
				   "takes whole seconds)");
	}
	/* the published runner's baseline: [start + max(2 s, 0.52 len), end - 2 s] */
	p->base_off_s = fmax(2, 0.52 * p->cooldown_s);
	p->base_end_s = p->cooldown_s - 2;
	if ((rc = jdoc_object(&doc, &root, "idleBaseline", 0, &o)) < 0) {
		c.bad = -1;
	} else if (rc > 0) {
		known_keys(&c, &o, bkeys);
		get_secs(&c, &o, "offsetSec", JD_REQ, 0, &p->base_off_s);
		get_secs(&c, &o, "endOffsetSec", JD_REQ, 0, &p->base_end_s);
	}
	if (!c.bad && p->cooldown_s > 0 &&
	    !(p->base_off_s < p->base_end_s && p->base_end_s <= p->cooldown_s)) {
		if (rc > 0)
			c.bad = jdoc_error(&doc, &o, "must lie inside the cooldown (0 <= "
					   "offsetSec < endOffsetSec <= cooldownSec)");
		else
			c.bad = error_at(path, jdoc_line(&doc, &root), "a cooldown of %g s is too "
					 "short for the default idle baseline [max(2 s, 52 %%), "
					 "end - 2 s]: give 'idleBaseline' {offsetSec, endOffsetSec}",
					 p->cooldown_s);
	}

	/* load */
	p->load.connections = 50;
	p->load.threads = p->load.timeout_s = p->load.requests = NAN;	/* the tool's own */
	p->load.rate = NAN;	/* none: as fast as the tool goes */
	if ((rc = jdoc_object(&doc, &root, "load", JD_REQ, &o)) < 0) {
		c.bad = -1;
	} else {
		get_str(&c, &o, "tool", JD_REQ, &p->tool);
		if (p->tool) {
			int known = 0;

			for (i = 0; tools_known[i]; i++)
				known |= !strcmp(tools_known[i], p->tool);
			p->lt = rec_tool_find(p->tool);
			jdoc_get(&doc, &o, "tool", 0, &e);
			if (!known)
				c.bad = jdoc_error(&doc, &e, "is '%s', not a load generator erg "
						   "knows", p->tool);
			else if (!p->lt)
				c.bad = jdoc_error(&doc, &e, "is '%s': erg record drives wrk, hey, "
						   "ab, oha, bombardier, autocannon and k6 (wrk2 "
						   "needs a rate)", p->tool);
		}
		get_load(&c, &o, &p->load);
	}

	/* energy */
	p->energy = ENERGY_NONE;
	p->energy_interval_ms = 500;
	if ((rc = jdoc_object(&doc, &root, "energy", 0, &o)) < 0) {
		c.bad = -1;
	} else if (rc > 0) {
		known_keys(&c, &o, ekeys);
		get_str(&c, &o, "source", JD_REQ, &s);
		for (i = ENERGY_NONE; s && i <= ENERGY_POWERMETRICS; i++)
			if (!strcmp(s, rec_energy_name((enum rec_energy)i)))
				break;
		if (s && i <= ENERGY_POWERMETRICS) {
			p->energy = (enum rec_energy)i;
		} else if (s) {
			jdoc_get(&doc, &o, "source", 0, &e);
			c.bad = jdoc_error(&doc, &e, "is '%s', not 'powercap', 'perf', 'turbostat', "
					   "'nvidia-smi', 'powermetrics' or 'none'", s);
		}
		free(s);
		s = NULL;
		get_str(&c, &o, "root", 0, &p->energy_root);
		get_str(&c, &o, "events", 0, &p->energy_events);
		get_secs(&c, &o, "intervalMs", 0, 10, &p->energy_interval_ms);
		/* what only one source reads is an error with another */
		if (p->energy_root && p->energy != ENERGY_POWERCAP) {
			jdoc_get(&doc, &o, "root", 0, &e);
			c.bad = jdoc_error(&doc, &e, "is read by the 'powercap' source only");
		}
		if (p->energy_events && p->energy != ENERGY_PERF) {
			jdoc_get(&doc, &o, "events", 0, &e);
			c.bad = jdoc_error(&doc, &e, "is read by the 'perf' source only");
		} else if (p->energy_events && !perf_events_ok(p->energy_events)) {
			jdoc_get(&doc, &o, "events", 0, &e);
			c.bad = jdoc_error(&doc, &e, "is '%s', not a comma-separated list of "
					   "power/energy-pkg/, power/energy-ram/, "
					   "power/energy-psys/, power/energy-cores/, "
					   "power/energy-gpu/", p->energy_events);
		}
		/* perf -I, nvidia-smi -lms and powermetrics -i take whole ms */
		if (p->energy > ENERGY_POWERCAP &&
		    p->energy_interval_ms != floor(p->energy_interval_ms)) {
			jdoc_get(&doc, &o, "intervalMs", 0, &e);
			c.bad = jdoc_error(&doc, &e, "must be whole milliseconds for '%s'",
					   rec_energy_name(p->energy));
		}
	}
	if (p->energy == ENERGY_PERF && !p->energy_events)
		p->energy_events = xstrdup("power/energy-pkg/");
	if (!p->energy_root)
		p->energy_root = xstrdup("/sys/class/powercap");
	else if (p->energy_root[0] != '/') {
		struct buf b = BUF_INIT;

		buf_addf(&b, "%s/%s", p->dir, p->energy_root);
		free(p->energy_root);
		p->energy_root = buf_detach(&b, NULL);
	}

	/* targets and routes */
	if (jdoc_array(&doc, &root, "targets", JD_REQ, &a) < 0) {
		c.bad = -1;
	} else if (!json_array_size(a.v) || json_array_size(a.v) > 64) {
		c.bad = jdoc_error(&doc, &a, "must hold 1 to 64 targets");
	} else {
		p->nt = json_array_size(a.v);
		p->t = xcalloc(p->nt, sizeof(*p->t));
		for (i = 0; i < p->nt; i++) {
			struct jpos el = { &a, NULL, i, json_array_get(a.v, i) };

			get_target(&c, &el, &p->t[i]);
		}
		check_names(&c, &a, p->nt, 1);
	}
	if (jdoc_array(&doc, &root, "routes", JD_REQ, &a) < 0) {
		c.bad = -1;
	} else if (!json_array_size(a.v) || json_array_size(a.v) > 64) {
		c.bad = jdoc_error(&doc, &a, "must hold 1 to 64 routes");
	} else {
		p->nr = json_array_size(a.v);
		p->r = xcalloc(p->nr, sizeof(*p->r));
		for (i = 0; i < p->nr; i++) {
			struct jpos el = { &a, NULL, i, json_array_get(a.v, i) };

			get_route(&c, &el, &p->r[i]);
		}
		check_names(&c, &a, p->nr, 0);
		check_rates(&c, &root, &a);
	}
	jdoc_free(&doc);
	return c.bad ? -1 : 0;
}

static void
free_list(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void
rec_plan_free(struct rec_plan *p)
{
	size_t i;

	for (i = 0; i < p->nt; i++) {
		struct rec_target *t = &p->t[i];

		free(t->name);
		free(t->command);
		free(t->version_cmd);
		free(t->cwd);
		free(t->url);
		free(t->ready_path);
		free(t->cpus);
		free(t->host);
		free(t->port);
		free(t->base_path);
		free_list(t->env);
	}
	for (i = 0; i < p->nr; i++) {
		struct rec_route *r = &p->r[i];

		free(r->name);
		free(r->method);
		free(r->path);
		free(r->body_file);
		free(r->load.cpus);
		free_list(r->headers);
	}
	free(p->t);
	free(p->r);
	free(p->path);
	free(p->dir);
	free(p->text);
	free(p->title);
	free(p->arm);
	free(p->tool);
	free(p->load.cpus);
	free(p->energy_root);
	free(p->energy_events);
	json_decref(p->json);
	memset(p, 0, sizeof(*p));
}
