/*
 * render.c - the pages of the site, from results JSON only (see render.h).
 *
 * Page code builds a "view" (a JSON tree of ready-to-print strings: numbers
 * are formatted here, never in templates) and hands it to a template from
 * the template directory; tmpl.c escapes every string for where it lands.
 * The only raw markup handed over is what erg itself produced: charts
 * (svg.c) and the author's notes (markdown.c, cmark in safe mode).
 *
 * Per run, into runs/<id>/ beside results.json (written by build.c):
 *   index.html    the run page
 *   headline.csv routes.csv per-mb.csv windows.csv    full precision
 *   tables.md     the tables, rounded as on the page, for a README
 * and at the root index.html (every run, grouped by machine) and erg.css.
 *
 * Conventions of the view: a missing figure (JSON null, non-finite)
 * prints as the missing value (render/numfmt.h), never 0.
 * Every table row and chart has an id unique in its page, derived from
 * names sanitised to [A-Za-z0-9_-] with "-2", "-3", ... on collisions.
 * Links are relative and name index.html explicitly (file:// has no
 * directory index); nothing refers outside the site except links the
 * author wrote in the notes.  Output depends on the results only (and on
 * SOURCE_DATE_EPOCH when set), so the same archive gives the same bytes.
 *
 * render_run() is called from build.c's worker threads, several at once:
 * it keeps no state outside its arguments and the page being built, and
 * only reads the templates loaded by render_begin().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "render/html.h"
#include "base/idmap.h"
#include "ingest/input.h"
#include "render/markdown.h"
#include "render/numfmt.h"
#include "render/page_run.h"
#include "render/page_views.h"
#include "render/page_summary.h"
#include "render/page_trials.h"
#include "analyze/stats.h"
#include "render/svg.h"
#include "render/table.h"
#include "render/tmpl.h"
#include "base/util.h"
#include "render/view.h"

#define CSS_NAME "erg.css"
#define CSS_MAX (1u << 20)

struct cache {
	struct tmpl *run, *index, *rows;
};

/* ------------------------------------------------------------------ */
/* ids: unique in a page, [A-Za-z0-9_-] */

/* prefix + sanitised a [+ "-" + sanitised b], made unique; owned by ids. */
static const char *
ids_make(struct sset *ids, const char *prefix, const char *a, const char *b)
{
	struct buf s = BUF_INIT;
	const char *id;

	buf_addstr(&s, prefix);
	if (a)
		id_sanitise(&s, a);
	if (b) {
		buf_addch(&s, '-');
		id_sanitise(&s, b);
	}
	id = id_unique(ids, &s, NULL);
	buf_release(&s);
	return id;
}

/* ------------------------------------------------------------------ */
/* tables (render/table.h): HTML (p-table.html) and Markdown (tables.md)
 * from the same cells, so the two always agree */

/* A count from the results. */
static void
cell_int(struct table *t, const json_t *v)
{
	table_num(t, num_of(v), NF_THOUS(0));
}

/* ------------------------------------------------------------------ */
/* CSV exports */

/* A field from a C string; NULL is an empty field. */
static void
csv_text(struct buf *b, const char *s)
{
	if (s)
		csv_str(b, s, strlen(s));
}

static void
csv_num(struct buf *b, double v)
{
	numfmt_csv(b, v);	/* empty when null */
}

static void
csv_jnum(struct buf *b, const json_t *v)
{
	csv_num(b, num_of(v));
}

#define CSV_SEP(b) buf_addch((b), ',')
#define CSV_EOL(b) buf_addstr((b), "\r\n")

/* ------------------------------------------------------------------ */
/* the run model the pages need */

struct tgt {
	const json_t *o, *head, *mj;	/* target, its headline, headline.mj_per_req */
	const char *name;
	const char *id;			/* t-... */
	double *rounds;			/* headline mJ/req per measurement, by round */
	double *rwatts;			/* headline W per measurement */
	size_t nrounds;
	size_t pos;			/* position in the results' targets */
};

struct rv {			/* one run being rendered */
	struct render_ctx *c;
	const json_t *res;
	const char *id;
	int energy;		/* energy_source != "none" */
	size_t depth;		/* directory levels below the site root */
	struct tgt *t;		/* in rank order (by mJ/req when there is energy) */
	size_t nt;
	char **small, **large;	/* route names: headline (per request), per MB */
	size_t nsmall, nlarge;
	int dec_mj, dec_mb;	/* decimals of mJ/req and mJ/MB columns */
	size_t nfailed;		/* load windows with requests not answered 2xx */
	struct sset ids;
	json_t *view;
	struct buf md;		/* tables.md */
	int err;		/* a table's rows did not render */
};

static int
cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static void
names_add(char ***v, size_t *n, const char *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (char *)s;	/* borrowed from the results */
}

static int
in_names(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static const json_t *
route_of(const json_t *target, const char *name)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(target, "routes"), i, r)
		if (jstr(r, "name") && !strcmp(jstr(r, "name"), name))
			return r;
	return NULL;
}

static int
cmp_rank(const void *pa, const void *pb)
{
	const struct tgt *a = pa, *b = pb;
	double ra = jnum(a->head, "rank_mj_per_req"), rb = jnum(b->head, "rank_mj_per_req");

	if (isnan(ra) != isnan(rb))
		return isnan(ra) ? 1 : -1;
	if (!isnan(ra) && ra != rb)
		return (ra > rb) - (ra < rb);
	return 0;
}

/* A measurement's headline figures, ordered by round (then by position). */
struct mrow {
	double round, mj, watts;
	size_t i;
};

static int
cmp_mrow(const void *pa, const void *pb)
{
	const struct mrow *a = pa, *b = pb;
	int c = cmp_double(&a->round, &b->round);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

static int
cmp_tgt_rank(const void *pa, const void *pb)
{
	const struct tgt *a = pa, *b = pb;
	int c = cmp_rank(a, b);

	/* stable: equal ranks keep the results' order */
	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

static void
rv_load(struct rv *v)
{
	const json_t *targets = json_object_get(v->res, "targets"), *t, *m, *r;
	const json_t *ms = json_object_get(v->res, "measurements");
	size_t nms = json_array_size(ms);
	struct idmap tmap = IDMAP_INIT;
	struct mrow *rows = xmalloc((nms + 1) * sizeof(*rows));
	size_t *start, *next;
	double *mj, *mb;
	size_t i, j, k, nmj = 0, nmb = 0;

	v->nt = json_array_size(targets);
	v->t = xcalloc(v->nt + 1, sizeof(*v->t));
	json_array_foreach(targets, i, t) {
		v->t[i].name = jstr(t, "name") ? jstr(t, "name") : "";
		if (!idmap_get(&tmap, v->t[i].name, &k))
			idmap_put(&tmap, v->t[i].name, i);
	}
	/* The measurements of each target (the first of its name), in order:
	 * a counting sort by target. */
	start = xcalloc(v->nt + 2, sizeof(*start));
	next = xmalloc((nms + 1) * sizeof(*next));
	json_array_foreach(ms, j, m) {
		next[j] = jstr(m, "target") && idmap_get(&tmap, jstr(m, "target"), &k) ? k : v->nt;
		start[next[j] + 1]++;
	}
	for (k = 0; k <= v->nt; k++)
		start[k + 1] += start[k];
	json_array_foreach(ms, j, m) {
		struct mrow *x = &rows[start[next[j]]++];

		x->round = jnum(m, "round");
		x->mj = jnum(m, "headline_mj_per_req");
		x->watts = jnum(m, "headline_watts");
		x->i = j;
	}
	json_array_foreach(targets, i, t) {
		struct tgt *g = &v->t[i];
		size_t lo, n, a;

		/* After the fill start[k] is the end of target k's rows; a
		 * target sharing an earlier one's name shares its rows. */
		idmap_get(&tmap, g->name, &k);
		lo = k ? start[k - 1] : 0;
		n = start[k] - lo;

		g->o = t;
		g->pos = i;
		g->head = json_object_get(t, "headline");
		g->mj = json_object_get(g->head, "mj_per_req");
		g->rounds = xmalloc((n + 1) * sizeof(double));
		g->rwatts = xmalloc((n + 1) * sizeof(double));
		qsort(rows + lo, n, sizeof(*rows), cmp_mrow);
		for (a = 0; a < n; a++) {
			g->rounds[a] = rows[lo + a].mj;
			g->rwatts[a] = rows[lo + a].watts;
		}
		g->nrounds = n;
		json_array_foreach(json_object_get(g->head, "routes"), j, r)
			names_add(&v->small, &v->nsmall, json_string_value(r));
		json_array_foreach(json_object_get(t, "routes"), j, r) {
			const char *per = jstr(r, "per");

			if (per && !strcmp(per, "MB"))
				names_add(&v->large, &v->nlarge, jstr(r, "name"));
			else if (!json_object_get(g->head, "routes"))
				names_add(&v->small, &v->nsmall, jstr(r, "name"));
		}
	}
	idmap_free(&tmap);
	free(start);
	free(next);
	free(rows);
	json_array_foreach(ms, j, m)
		json_array_foreach(json_object_get(m, "routes"), k, r)
			if (jnum(r, "non_2xx") > 0 || jnum(r, "errors") > 0)
				v->nfailed++;
	if (v->energy)
		qsort(v->t, v->nt, sizeof(*v->t), cmp_tgt_rank);
	for (i = 0; i < v->nt; i++)
		v->t[i].id = ids_make(&v->ids, "t-", v->t[i].name, NULL);

	/* One precision per quantity across the page. */
	mj = xmalloc((v->nt * (json_array_size(ms) + 8) + 1) * sizeof(double));
	mb = xmalloc((v->nt * (json_array_size(ms) + 8) + 1) * sizeof(double));
	for (i = 0; i < v->nt; i++) {
		mj[nmj++] = jnum(v->t[i].mj, "mean");
		json_array_foreach(json_object_get(v->t[i].o, "routes"), j, r) {
			if (nmj < v->nt * (json_array_size(ms) + 8))
				mj[nmj++] = jnum(json_object_get(r, "mj_per_req"), "mean");
			if (nmb < v->nt * (json_array_size(ms) + 8))
				mb[nmb++] = jnum(r, "mj_per_mb");
		}
	}
	v->dec_mj = numfmt_col_decimals(mj, nmj, 4, 3);
	v->dec_mb = numfmt_col_decimals(mb, nmb, 4, 3);
	free(mj);
	free(mb);
}

static void
rv_free(struct rv *v)
{
	size_t i;

	for (i = 0; i < v->nt; i++) {
		free(v->t[i].rounds);
		free(v->t[i].rwatts);
	}
	free(v->t);
	free(v->small);
	free(v->large);
	sset_free(&v->ids);
	buf_release(&v->md);
}

static void
join_names(struct buf *b, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			buf_addstr(b, i + 1 == n ? " and " : ", ");
		buf_addstr(b, v[i]);
	}
}

/* "n = 5" or "n = 3–5" over the targets' headline n. */
static void
n_range(struct buf *b, const struct rv *v)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < v->nt; i++) {
		double n = jnum(v->t[i].mj, "n");

		if (isfinite(n)) {
			lo = n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
	}
	if (!isfinite(lo))
		buf_addstr(b, "n not reported");
	else if (lo == hi)
		buf_addf(b, "n = %.0f rounds", lo);
	else
		buf_addf(b, "n = %.0f" EN_DASH "%.0f rounds", lo, hi);
}

/* ------------------------------------------------------------------ */
/* setup: definition lists */

static void
kv_add(json_t *rows, const char *k, json_t *v)
{
	json_t *r = json_object();

	set_s(r, "k", k);
	json_object_set_new(r, "v", v ? v : json_null());
	json_array_append_new(rows, r);
}

static void
kv_addf(json_t *rows, const char *k, struct buf *b)
{
	kv_add(rows, k, b->len ? json_string_nocheck(b->ptr) : json_null());
	buf_reset(b);
}

/* A metadata key as a label: "intervalMs" -> "interval ms", "gap_sec" ->
 * "gap sec", "room_temp_c" -> "room temp (°C)", "os" -> "OS". */
static void
humanise(struct buf *b, const char *key)
{
	size_t n = strlen(key), start = b->len;

	if (!strcmp(key, "os") || !strcmp(key, "id") || !strcmp(key, "url")) {
		for (; *key; key++)
			buf_addch(b, (char)(*key - 'a' + 'A'));
		return;
	}
	if (n > 2 && (!strcmp(key + n - 2, "_c") || !strcmp(key + n - 2, "_C")))
		n -= 2;
	for (; n--; key++) {
		if (*key >= 'A' && *key <= 'Z' && b->len > start && b->ptr[b->len - 1] != ' ') {
			buf_addch(b, ' ');
			buf_addch(b, (char)(*key - 'A' + 'a'));
		} else {
			buf_addch(b, *key == '_' ? ' ' : *key);
		}
	}
	if (*key)
		buf_addstr(b, " (\xc2\xb0" "C)");
}

/* A JSON value as one line of text (archive metadata of any shape). */
static void
value_text(struct buf *b, const json_t *x)
{
	const json_t *e;
	const char *k;
	size_t i;

	if (!x)
		return;
	switch (json_typeof(x)) {
	case JSON_STRING:
		buf_add(b, json_string_value(x), json_string_length(x));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		numfmt_add(b, json_number_value(x), NF_SHORT);
		break;
	case JSON_TRUE:
		buf_addstr(b, "yes");
		break;
	case JSON_FALSE:
		buf_addstr(b, "no");
		break;
	case JSON_NULL:
		break;
	case JSON_ARRAY:
		json_array_foreach(x, i, e) {
			if (i)
				buf_addstr(b, "; ");
			value_text(b, e);
		}
		break;
	case JSON_OBJECT:
		i = 0;
		json_object_foreach((json_t *)x, k, e) {
			if (i++)
				buf_addstr(b, "; ");
			humanise(b, k);
			buf_addstr(b, ": ");
			value_text(b, e);
		}
		break;
	}
}

/* Every member of obj as a row ("key: value"), nested objects flattened
 * one level ("upstream commit"); cap capitalises the label (not for
 * software, whose names keep their case). */
static void
kv_flatten(json_t *rows, const json_t *obj, const char *const *skip, int cap)
{
	const char *k, *k2;
	json_t *x, *y;
	struct buf kb = BUF_INIT, vb = BUF_INIT;
	const char *const *s;

	json_object_foreach((json_t *)obj, k, x) {
		for (s = skip; s && *s; s++)
			if (!strcmp(*s, k))
				break;
		if (s && *s)
			continue;
		if (json_is_object(x)) {
			json_object_foreach(x, k2, y) {
				humanise(&kb, k);
				buf_addch(&kb, ' ');
				humanise(&kb, k2);
				value_text(&vb, y);
				if (cap && kb.ptr[0] >= 'a' && kb.ptr[0] <= 'z')
					kb.ptr[0] = (char)(kb.ptr[0] - 'a' + 'A');
				kv_add(rows, kb.ptr, vb.len ? json_string_nocheck(vb.ptr) : json_null());
				buf_reset(&kb);
				buf_reset(&vb);
			}
			continue;
		}
		humanise(&kb, k);
		value_text(&vb, x);
		if (cap && kb.ptr[0] >= 'a' && kb.ptr[0] <= 'z')
			kb.ptr[0] = (char)(kb.ptr[0] - 'a' + 'A');	/* "Connections" */
		kv_add(rows, kb.ptr, vb.len ? json_string_nocheck(vb.ptr) : json_null());
		buf_reset(&kb);
		buf_reset(&vb);
	}
	buf_release(&kb);
	buf_release(&vb);
}

static int
is_local_url(const char *u)
{
	const char *h;

	if (!u || !(h = strstr(u, "://")))
		return 0;
	h += 3;
	return !strncmp(h, "127.", 4) || !strncmp(h, "localhost", 9) ||
	       !strncmp(h, "[::1]", 5) || !strncmp(h, "0.0.0.0", 7);
}

/* The URL the load generator hit, when the results carry one. */
static const char *
load_url(const json_t *res)
{
	const json_t *m, *r;
	const char *u;
	size_t i, j;

	if ((u = jpath_str(res, "conditions.load.url")))
		return u;
	json_array_foreach(json_object_get(res, "measurements"), i, m)
		json_array_foreach(json_object_get(m, "routes"), j, r)
			if ((u = jpath_str(r, "load.url")))
				return u;
	return NULL;
}

/* min..max of a per-window figure over every measurement route window. */
static void
window_range(const json_t *res, const char *what, double *lo, double *hi)
{
	const json_t *m, *r;
	size_t i, j;

	*lo = INFINITY;
	*hi = -INFINITY;
	json_array_foreach(json_object_get(res, "measurements"), i, m)
		json_array_foreach(json_object_get(m, "routes"), j, r) {
			double x;

			if (!strcmp(what, "seconds"))
				x = (jnum(r, "end_ms") - jnum(r, "start_ms")) / 1000.0;
			else
				x = num_of(jpath(r, what));
			if (!isfinite(x))
				continue;
			*lo = x < *lo ? x : *lo;
			*hi = x > *hi ? x : *hi;
		}
}

static void
add_range(struct buf *b, double lo, double hi, int dec, const char *unit)
{
	if (!isfinite(lo))
		return;
	numfmt_add(b, lo, NF_THOUS(dec));
	if (hi != lo) {
		buf_addstr(b, EN_DASH);
		numfmt_add(b, hi, NF_THOUS(dec));
	}
	buf_addstr(b, unit);
}

/*
 * The sources of the energy (results.json "energy"): what each is, its
 * files, domains and caveat, and with more than one domain the headline
 * of each target split by domain.  A run of the powermetrics plist alone
 * keeps its one line.
 */
static void
energy_source_rows(struct rv *v, json_t *rows, struct buf *b)
{
	const json_t *src = json_object_get(v->res, "energy"), *s, *x, *t;
	const char *kind, *key;
	size_t i, k, ndom = 0;
	json_t *val;

	json_array_foreach(src, i, s)
		ndom += json_array_size(json_object_get(s, "domains"));
	kind = json_array_size(src) == 1 ? jstr(json_array_get(src, 0), "kind") : NULL;
	/* (a plist of the gpu block alone, no cpu_power sampler, has its own
	 * domain and caveat: the rows below) */
	x = json_array_get(json_object_get(json_array_get(src, 0), "domains"), 0);
	if (kind && !strcmp(kind, "powermetrics") && x && jstr(x, "name") &&
	    strcmp(jstr(x, "name"), "processor"))
		kind = NULL;
	if (!json_array_size(src) || (kind && !strcmp(kind, "powermetrics"))) {
		buf_addstr(b, "powermetrics ");
		buf_addstr(b, jpath_str(v->res, "software.powermetrics.energyField")
			   ? jpath_str(v->res, "software.powermetrics.energyField")
			   : "cpu + gpu + ane energy");
		buf_addstr(b, ": SoC compute only (no DRAM, display, SSD, radios, "
			   "VRM or charger losses)");
		kv_addf(rows, "Energy source", b);
		return;
	}
	json_array_foreach(src, i, s) {
		if (i)
			buf_addstr(b, "; ");
		buf_addstr(b, jstr(s, "kind") ? jstr(s, "kind") : "?");
		buf_addstr(b, " (");
		json_array_foreach(json_object_get(s, "files"), k, x) {
			if (k)
				buf_addstr(b, ", ");
			buf_addstr(b, json_is_string(x) ? json_string_value(x) : "?");
		}
		buf_addstr(b, ")");
		if (jstr(s, "caveat")) {
			buf_addstr(b, ": ");
			buf_addstr(b, jstr(s, "caveat"));
		}
	}
	kv_addf(rows, "Energy source", b);
	json_array_foreach(src, i, s)
		json_array_foreach(json_object_get(s, "domains"), k, x) {
			if (b->len)
				buf_addstr(b, ", ");
			buf_addstr(b, jstr(x, "name") ? jstr(x, "name") : "?");
			if (!json_is_true(json_object_get(x, "counted")))
				buf_addstr(b, " (reported only: inside a counted domain)");
		}
	kv_addf(rows, "Energy domains", b);
	if (ndom < 2)
		return;
	/* headline mJ/request by domain, per target */
	json_array_foreach(json_object_get(v->res, "targets"), i, t) {
		const json_t *d = jpath(t, "headline.domains_mj_per_req");

		if (i)
			buf_addstr(b, "; ");
		buf_addstr(b, jstr(t, "name") ? jstr(t, "name") : "?");
		buf_addstr(b, ":");
		json_object_foreach((json_t *)d, key, val) {
			buf_addf(b, " %s ", key);
			numfmt_add(b, json_is_number(val) ? json_number_value(val) : NAN,
				   NF_SIG(4));
		}
	}
	buf_addstr(b, " (mJ per request, headline routes)");
	kv_addf(rows, "Headline by domain", b);
}

static void
setup_view(struct rv *v)
{
	const json_t *res = v->res, *mach = json_object_get(res, "machine");
	const json_t *cond = json_object_get(res, "conditions");
	const json_t *meth = json_object_get(cond, "methodology");
	const json_t *ss = json_object_get(cond, "session_start");
	const json_t *load = json_object_get(cond, "load");
	const json_t *ord = jpath(res, "validation.ordering");
	json_t *groups = json_array(), *rows;
	struct buf b = BUF_INIT;
	double x, y, lo, hi;
	int i;
	static const char *const mskip[] = {
		"model", "chip", "id", "memoryBytes", "perflevel0", "perflevel1",
		"os", "darwin", NULL,
	};

	/* machine */
	rows = kv_group(groups, "setup-machine", "Machine");
	kv_add(rows, "Model", S(jstr(mach, "model")));
	kv_add(rows, "Chip", S(jstr(mach, "chip")));
	x = 0;
	for (i = 0; i < 8; i++) {
		char key[32];
		const json_t *pl;

		snprintf(key, sizeof(key), "perflevel%d", i);
		if (!(pl = json_object_get(mach, key)) || !isfinite(jnum(pl, "count")))
			continue;
		if (b.len)
			buf_addstr(&b, " + ");
		buf_addf(&b, "%.0f", jnum(pl, "count"));
		if (jstr(pl, "name"))
			buf_addf(&b, " %s", jstr(pl, "name"));
		x += jnum(pl, "count");
	}
	if (b.len)
		buf_addf(&b, " (%.0f cores)", x);
	kv_addf(rows, "Cores", &b);
	x = jnum(mach, "memoryBytes");
	if (isfinite(x)) {
		y = x / 1073741824.0;
		numfmt_add(&b, y, NF_FIXED(y == floor(y) ? 0 : 1));
		buf_addstr(&b, " GiB");
	}
	kv_addf(rows, "Memory", &b);
	buf_addstr(&b, jstr(mach, "os") ? jstr(mach, "os") : "");
	if (b.len && jstr(mach, "darwin"))
		buf_addf(&b, " (Darwin %s)", jstr(mach, "darwin"));
	kv_addf(rows, "OS", &b);
	if (jstr(mach, "id"))
		kv_add(rows, "Machine id", S(jstr(mach, "id")));
	kv_flatten(rows, mach, mskip, 1);

	/* software */
	rows = kv_group(groups, "setup-software", "Software");
	kv_flatten(rows, json_object_get(res, "software"), NULL, 0);

	/* load */
	rows = kv_group(groups, "setup-load", "Load");
	if (load)
		kv_flatten(rows, load, NULL, 1);
	if (!load || !json_object_get(load, "connections")) {
		window_range(res, "load.connections", &lo, &hi);
		add_range(&b, lo, hi, 0, "");
		kv_addf(rows, "Connections", &b);
	}
	window_range(res, "seconds", &lo, &hi);
	add_range(&b, lo, hi, 1, " s");
	kv_addf(rows, "Load window length", &b);
	if (isfinite(x = jnum(ss, "rps"))) {
		if (x == 0)
			buf_addstr(&b, "unlimited (saturating)");
		else
			numfmt_add(&b, x, NF_THOUS(0)), buf_addstr(&b, " req/s");
	}
	kv_addf(rows, "Request rate", &b);
	if (jstr(ss, "arm"))
		kv_add(rows, "Arm", S(jstr(ss, "arm")));

	/* conditions */
	rows = kv_group(groups, "setup-conditions", "Conditions");
	if (isfinite(x = jnum(cond, "room_temp_c"))) {
		numfmt_add(&b, x, NF_FIXED(x == floor(x) ? 0 : 1));
		buf_addstr(&b, " \xc2\xb0" "C");
	}
	kv_addf(rows, "Room temperature", &b);
	if (json_object_get(cond, "power")) {
		value_text(&b, json_object_get(cond, "power"));
		kv_addf(rows, "Power", &b);
	}
	x = jnum(cond, "session_start_ms");
	y = jnum(cond, "session_end_ms");
	if (isfinite(x) && isfinite(y)) {
		numfmt_add(&b, (y - x) / 60000.0, NF_FIXED(1));
		buf_addstr(&b, " min");
	}
	kv_addf(rows, "Session length", &b);
	if (isfinite(x = jnum(cond, "resumed")) && x > 0) {
		buf_addf(&b, "%.0f time%s", x, x == 1 ? "" : "s");
		kv_addf(rows, "Resumed", &b);
	}

	/* method */
	rows = kv_group(groups, "setup-method", "Method");
	json_object_set_new(json_array_get(groups, json_array_size(groups) - 1), "wide", json_true());
	x = jnum(meth, "rounds");
	if (!isfinite(x))
		x = jnum(ss, "rounds");
	if (!isfinite(x))
		x = jnum(ord, "rounds");
	kv_add(rows, "Rounds", numfmt_json(x, NF_THOUS(0)));
	kv_add(rows, "Targets", numfmt_json((double)v->nt, NF_THOUS(0)));
	kv_add(rows, "Measurements",
	       numfmt_json((double)json_array_size(json_object_get(res, "measurements")), NF_THOUS(0)));
	if (jstr(ord, "scheme")) {
		buf_addstr(&b, jstr(ord, "scheme"));
		if (json_is_true(json_object_get(ord, "latin_square")))
			buf_addstr(&b, " (Latin square)");
	} else if (jstr(meth, "orderingScheme")) {
		buf_addstr(&b, jstr(meth, "orderingScheme"));
	}
	kv_addf(rows, "Ordering", &b);
	x = jnum(meth, "cooldownSec");
	if (!isfinite(x))
		x = jnum(ss, "cooldownSec");
	if (isfinite(x)) {
		numfmt_add(&b, x, NF_THOUS(0));
		buf_addstr(&b, " s between measurements");
	}
	kv_addf(rows, "Cooldown", &b);
	x = jnum(meth, "interRouteGapSec");
	if (!isfinite(x))
		x = jnum(ss, "gapSec");
	if (isfinite(x)) {
		numfmt_add(&b, x, NF_THOUS(0));
		buf_addstr(&b, " s between routes");
		kv_addf(rows, "Gap", &b);
	}
	if (v->energy) {
		const json_t *iw = json_object_get(meth, "idleWindow");
		const json_t *first = NULL, *w;
		size_t k;

		if (iw && isfinite(jnum(iw, "offsetSec")) && isfinite(jnum(iw, "endOffsetSec"))) {
			buf_addf(&b, "mean power over seconds %.0f" EN_DASH "%.0f of the %s "
				 "window before each measurement",
				 jnum(iw, "offsetSec"), jnum(iw, "endOffsetSec"),
				 jstr(iw, "source") ? jstr(iw, "source") : "idle");
		} else {
			json_array_foreach(json_object_get(res, "idle_windows"), k, w)
				if (jstr(w, "kind") && !strcmp(jstr(w, "kind"), "cooldown")) {
					first = w;
					break;
				}
			if (first && isfinite(jnum(first, "baseline_start_ms"))) {
				buf_addstr(&b, "mean power over seconds ");
				numfmt_add(&b, (jnum(first, "baseline_start_ms") -
						jnum(first, "start_ms")) / 1000.0, NF_FIXED(0));
				buf_addstr(&b, EN_DASH);
				numfmt_add(&b, (jnum(first, "baseline_end_ms") -
						jnum(first, "start_ms")) / 1000.0, NF_FIXED(0));
				buf_addstr(&b, " of the idle window before each measurement");
			}
		}
		if (b.len)
			buf_addf(&b, " (%zu idle windows); subtracted only in the net columns",
				 json_array_size(json_object_get(res, "idle_windows")));
		kv_addf(rows, "Idle floor", &b);
		energy_source_rows(v, rows, &b);
		x = 0;
		json_array_foreach(json_object_get(res, "power_files"), k, w)
			x += isfinite(jnum(w, "samples")) ? jnum(w, "samples") : 0;
		buf_addf(&b, "%zu file%s, ", json_array_size(json_object_get(res, "power_files")),
			 json_array_size(json_object_get(res, "power_files")) == 1 ? "" : "s");
		numfmt_add(&b, x, NF_THOUS(0));
		buf_addstr(&b, " samples");
		kv_addf(rows, "Power samples", &b);
	} else {
		kv_add(rows, "Energy source", S("none: throughput only"));
	}
	if (jstr(meth, "integration"))
		kv_add(rows, "Integration", S(jstr(meth, "integration")));
	if (jstr(meth, "headlineMetric"))
		kv_add(rows, "Headline metric (as recorded)", S(jstr(meth, "headlineMetric")));

	json_object_set_new(v->view, "setup", groups);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* tables */

static void
run_table(struct rv *v, struct table *t, const char *id, const char *caption)
{
	table_init(t, render_rows(v->c), ids_make(&v->ids, id, NULL, NULL), caption);
}

/*
 * Finish t and put it into the view as key: [t], or [] when it is left
 * out (!keep); lead is the line the page shows above it.  A table with
 * table_md() goes to tables.md too: "### caption", the table, note.
 */
static void
run_table_put(struct rv *v, struct table *t, const char *key, int keep, const char *caption,
	const char *lead, const char *note)
{
	json_t *o;

	if (table_end(t))
		v->err = -1;
	if (!keep) {
		json_object_set_new(v->view, key, json_array());
		table_free(t);
		return;
	}
	o = table_view(t);
	json_object_set_new(o, "lead", S(lead));
	json_object_set_new(v->view, key, one(o));
	if (t->md_on) {
		buf_addstr(&v->md, "### ");
		md_text(&v->md, caption);
		buf_addstr(&v->md, "\n\n");
		buf_add(&v->md, table_md_text(t)->ptr, table_md_text(t)->len);
		if (note) {
			buf_addch(&v->md, '\n');
			md_text(&v->md, note);
			buf_addch(&v->md, '\n');
		}
		buf_addch(&v->md, '\n');
	}
	table_free(t);
}

static void
headline_view(struct rv *v)
{
	static const char *const cap_e = "Headline per target, ranked by energy per request";
	static const char *const cap = "Headline per target";
	struct table t;
	struct buf b = BUF_INIT;
	size_t i;
	/* One round per target (an attribution pass): single values, so no
	 * "mean ± SD" headers, no "± –", no CV and no CI of n = 1. */
	int spread = 0;

	for (i = 0; i < v->nt; i++)
		spread |= jnum(v->t[i].mj, "n") >= 2 ||
			  (!v->energy && isfinite(jnum(v->t[i].head, "rps_sd")));
	run_table(v, &t, "tbl-headline", v->energy ? cap_e : cap);
	table_md(&t);
	table_col(&t, "Target", NULL, 0);
	if (v->energy) {
		table_col(&t, "Energy per request", spread ? "mJ/req, mean \xc2\xb1 SD" : "mJ/req", 1);
		table_col(&t, "n", "rounds", 1);
		if (spread) {
			table_col(&t, "CV", NF_RATIO_UNIT " (SD/mean)", 1);
			table_col(&t, "95 % CI of the mean", "mJ/req", 1);
		}
	}
	table_col(&t, "Throughput", spread ? "req/s, mean \xc2\xb1 SD" : "req/s", 1);
	if (v->energy) {
		table_col(&t, "SoC power", spread ? "W, mean \xc2\xb1 SD" : "W", 1);
		table_col(&t, "Rank", "1 = least mJ/req", 1);
		if (v->nfailed)
			table_col(&t, "Energy per 2xx response", spread ? "mJ, mean \xc2\xb1 SD" : "mJ", 1);
	}
	for (i = 0; i < v->nt; i++) {
		const struct tgt *g = &v->t[i];
		const json_t *ci = json_object_get(g->mj, "ci95");

		table_row(&t, g->id, g->name);
		if (v->energy) {
			if (spread)
				table_pm(&t, jnum(g->mj, "mean"), jnum(g->mj, "sd"), NF_FIXED(v->dec_mj));
			else
				table_num(&t, jnum(g->mj, "mean"), NF_FIXED(v->dec_mj));
			cell_int(&t, json_object_get(g->mj, "n"));
			if (spread) {
				table_num(&t, jnum(g->mj, "cv"), NF_RATIO);
				table_range(&t, num_of(json_array_get(ci, 0)),
					    num_of(json_array_get(ci, 1)), NF_FIXED(v->dec_mj));
			}
		}
		if (spread)
			table_pm(&t, jnum(g->head, "rps"), jnum(g->head, "rps_sd"), NF_THOUS(1));
		else
			table_num(&t, jnum(g->head, "rps"), NF_THOUS(1));
		if (v->energy) {
			const json_t *ok = json_object_get(g->head, "mj_per_2xx");

			if (spread)
				table_pm(&t, jnum(g->head, "watts"), jnum(g->head, "watts_sd"),
					 NF_FIXED(3));
			else
				table_num(&t, jnum(g->head, "watts"), NF_FIXED(3));
			cell_int(&t, json_object_get(g->head, "rank_mj_per_req"));
			if (v->nfailed && spread)
				table_pm(&t, jnum(ok, "mean"), jnum(ok, "sd"), NF_FIXED(v->dec_mj));
			else if (v->nfailed)
				table_num(&t, jnum(ok, "mean"), NF_FIXED(v->dec_mj));
		}
	}
	if (v->energy) {
		buf_addstr(&b, "Energy per request is request-weighted over the routes ");
		join_names(&b, v->small, v->nsmall);
		buf_addstr(&b, ": for each measurement, the energy of those route windows "
			   "divided by their requests; then the mean over the rounds. It is "
			   "gross SoC energy (the idle floor is included), not net. ");
		if (spread) {
			buf_addstr(&b, "\xc2\xb1 is 1 SD over the rounds (");
			n_range(&b, v);
			buf_addstr(&b, "); the 95 % CI is Student's t interval of the mean. ");
		} else {
			buf_addstr(&b, "One round per target: single values, with no spread, "
				   "CV or confidence interval. ");
		}
		buf_addstr(&b, "The requests it divides by are all the load generator "
			   "counted, answered 2xx or not.");
		if (v->nfailed)
			buf_addf(&b, " %zu load window%s had requests without a 2xx response "
				 "(see Read this first): the last column divides the same "
				 "energy by the 2xx responses alone.", v->nfailed,
				 v->nfailed == 1 ? "" : "s");
	} else {
		buf_addstr(&b, "No energy was recorded in this session (energy source "
			   "\"none\"): throughput only. \xc2\xb1 is 1 SD over the rounds (");
		n_range(&b, v);
		buf_addstr(&b, ").");
	}
	set_s(v->view, "headline_note", b.ptr);
	run_table_put(v, &t, "tbl_headline", 1, v->energy ? cap_e : cap, NULL, b.ptr);
	buf_release(&b);
}

static void
routes_view(struct rv *v)
{
	static const char *const cap = "Energy, throughput and power per target and route";
	static const char *const cap_mb = "Large-payload routes, per megabyte";
	struct table t, m;
	size_t i, j, k;
	int any_mb = 0;
	const char *note;

	run_table(v, &t, "tbl-routes", cap);
	table_md(&t);
	table_col(&t, "Target", NULL, 0);
	table_col(&t, "Route", NULL, 0);
	if (v->energy) {
		table_col(&t, "Energy per request", "mJ/req, mean \xc2\xb1 SD", 1);
		table_col(&t, "n", "rounds", 1);
		table_col(&t, "Net energy per request", "mJ/req above the idle floor", 1);
	}
	table_col(&t, "Throughput", "req/s, mean \xc2\xb1 SD", 1);
	if (v->energy) {
		table_col(&t, "SoC power", "W, mean \xc2\xb1 SD", 1);
		table_col(&t, "Idle share", NF_RATIO_UNIT " of gross energy", 1);
	}
	run_table(v, &m, "tbl-per-mb", cap_mb);
	table_md(&m);
	table_col(&m, "Target", NULL, 0);
	table_col(&m, "Route", NULL, 0);
	table_col(&m, "Energy per MB", "mJ/MB, mean \xc2\xb1 SD", 1);
	table_col(&m, "n", "rounds", 1);
	table_col(&m, "CV", NF_RATIO_UNIT " (SD/mean)", 1);
	table_col(&m, "95 % CI of the mean", "mJ/MB", 1);
	table_col(&m, "Throughput", "req/s, mean \xc2\xb1 SD", 1);
	table_col(&m, "SoC power", "W, mean \xc2\xb1 SD", 1);
	for (i = 0; i < v->nt; i++) {
		const struct tgt *g = &v->t[i];
		const json_t *r;

		/* headline routes first, then the others as the results list them */
		for (k = 0; k < 2; k++)
			json_array_foreach(json_object_get(g->o, "routes"), j, r) {
				const char *name = jstr(r, "name");
				const json_t *mj = json_object_get(r, "mj_per_req");
				int large = jstr(r, "per") && !strcmp(jstr(r, "per"), "MB");

				if ((k == 0) != (in_names(v->small, v->nsmall, name) && !large))
					continue;
				table_row(&t, ids_make(&v->ids, "r-", g->name, name), g->name);
				table_text(&t, name);
				if (v->energy) {
					table_pm(&t, jnum(mj, "mean"), jnum(mj, "sd"), NF_FIXED(v->dec_mj));
					cell_int(&t, json_object_get(mj, "n"));
					table_num(&t, jnum(r, "net_mj_per_req"), NF_FIXED(v->dec_mj));
				}
				table_pm(&t, num_of(jpath(r, "rps.mean")), num_of(jpath(r, "rps.sd")),
					 NF_THOUS(1));
				if (v->energy) {
					table_pm(&t, num_of(jpath(r, "watts.mean")),
						 num_of(jpath(r, "watts.sd")), NF_FIXED(3));
					table_num(&t, jnum(r, "idle_share"), NF_RATIO);
				}
				if (large && v->energy) {
					const json_t *s = json_object_get(r, "mj_per_mb_stat");
					const json_t *ci = json_object_get(s, "ci95");
					double mean = jnum(s, "mean");

					if (!isfinite(mean))
						mean = jnum(r, "mj_per_mb");
					any_mb = 1;
					table_row(&m, ids_make(&v->ids, "m-", g->name, name), g->name);
					table_text(&m, name);
					table_pm(&m, mean, jnum(s, "sd"), NF_FIXED(v->dec_mb));
					cell_int(&m, json_object_get(s, "n"));
					table_num(&m, jnum(s, "cv"), NF_RATIO);
					table_range(&m, num_of(json_array_get(ci, 0)),
						    num_of(json_array_get(ci, 1)), NF_FIXED(v->dec_mb));
					table_pm(&m, num_of(jpath(r, "rps.mean")),
						 num_of(jpath(r, "rps.sd")), NF_THOUS(1));
					table_pm(&m, num_of(jpath(r, "watts.mean")),
						 num_of(jpath(r, "watts.sd")), NF_FIXED(3));
				}
			}
	}
	note = v->energy
	       ? "Gross energy per request of each route window, mean \xc2\xb1 1 SD over "
		 "the rounds. Net subtracts the idle floor (the mean power of the idle "
		 "window before the measurement) times the window length; idle share is "
		 "that floor's part of the gross energy."
	       : "Mean \xc2\xb1 1 SD over the rounds.";
	run_table_put(v, &t, "tbl_routes", 1, cap, note, note);
	note = "Routes with large responses, reported per megabyte (10^6 bytes read by the "
	       "client, headers included): mean \xc2\xb1 1 SD over the rounds. They are not "
	       "part of the headline.";
	run_table_put(v, &m, "tbl_per_mb", any_mb, cap_mb, note, note);
}

/* The performance cluster as the samples name it ("S-Cluster" on macOS
 * 26, "P-Cluster", "P0-Cluster and 1 more"), else a description. */
static void
pclust_label(struct buf *b, const json_t *res)
{
	const json_t *pc = json_object_get(res, "performance_cluster");
	const char *name = jstr(pc, "name");
	double n = jnum(pc, "count");

	buf_reset(b);
	if (!name || !*name)
		buf_addstr(b, "Performance cluster");
	else if (n > 1)
		buf_addf(b, "%s and %.0f more", name, n - 1);
	else
		buf_addstr(b, name);
}

static void
windows_view(struct rv *v)
{
	struct table t, it;
	const json_t *m, *r, *w;
	size_t i, j;
	int tool_failed = 0;

	run_table(v, &t, "tbl-windows", "Every load window (measurement \xc3\x97 route)");
	table_col(&t, "Measurement", NULL, 0);
	table_col(&t, "Target", NULL, 0);
	table_col(&t, "Round", NULL, 1);
	table_col(&t, "Slot", NULL, 1);
	table_col(&t, "Route", NULL, 0);
	table_col(&t, "Length", "s", 1);
	table_col(&t, "Requests", "count", 1);
	table_col(&t, "Throughput", "req/s", 1);
	if (v->energy) {
		struct buf pc = BUF_INIT;

		table_col(&t, "Energy", "J", 1);
		table_col(&t, "SoC power", "W", 1);
		table_col(&t, "Energy per request", "mJ/req", 1);
		table_col(&t, "Net", "mJ/req", 1);
		table_col(&t, "Idle floor", "W", 1);
		table_col(&t, "Coverage", "%", 1);
		pclust_label(&pc, v->res);
		table_col(&t, pc.ptr, "MHz", 1);
		buf_release(&pc);
		table_col(&t, "Thermal", NULL, 0);
	}
	table_col(&t, "Non-2xx", "requests", 1);
	/* the load generator's own failed count (k6 http_req_failed, JMeter
	 * success=false, vegeta): its column only where a window has one */
	json_array_foreach(json_object_get(v->res, "measurements"), i, m)
		json_array_foreach(json_object_get(m, "routes"), j, r)
			if (json_is_number(json_object_get(r, "failed")))
				tool_failed = 1;
	if (tool_failed)
		table_col(&t, "Failed (tool)", "requests", 1);
	if (v->energy && v->nfailed)
		table_col(&t, "Per 2xx response", "mJ", 1);
	json_array_foreach(json_object_get(v->res, "measurements"), i, m)
		json_array_foreach(json_object_get(m, "routes"), j, r) {
			table_row(&t, ids_make(&v->ids, "w-", jstr(m, "id"), jstr(r, "name")),
				  jstr(m, "id"));
			table_text(&t, jstr(m, "target"));
			cell_int(&t, json_object_get(m, "round"));
			cell_int(&t, json_object_get(m, "slot"));
			table_text(&t, jstr(r, "name"));
			table_num(&t, (jnum(r, "end_ms") - jnum(r, "start_ms")) / 1000.0, NF_FIXED(3));
			cell_int(&t, json_object_get(r, "requests"));
			table_num(&t, jnum(r, "rps"), NF_THOUS(1));
			if (v->energy) {
				table_num(&t, jnum(r, "energy_j"), NF_FIXED(3));
				table_num(&t, jnum(r, "mean_watts"), NF_FIXED(3));
				table_num(&t, jnum(r, "mj_per_req"), NF_FIXED(v->dec_mj));
				table_num(&t, jnum(r, "net_mj_per_req"), NF_FIXED(v->dec_mj));
				table_num(&t, jnum(r, "idle_watts"), NF_FIXED(3));
				table_num(&t, jnum(r, "coverage"), NF_PCT(1));
				table_num(&t, jnum(r, "cluster_mhz"), NF_THOUS(0));
				table_text(&t, jstr(r, "thermal"));
			}
			cell_int(&t, json_object_get(r, "non_2xx"));
			if (tool_failed)
				cell_int(&t, json_object_get(r, "failed"));
			if (v->energy && v->nfailed)
				table_num(&t, jnum(r, "mj_per_2xx"), NF_FIXED(v->dec_mj));
		}
	run_table_put(v, &t, "tbl_windows", 1, NULL, NULL, NULL);

	if (!v->energy) {
		json_object_set_new(v->view, "tbl_idle", json_array());
		return;
	}
	run_table(v, &it, "tbl-idle", "Idle windows");
	table_col(&it, "Idle window", NULL, 0);
	table_col(&it, "Kind", NULL, 0);
	table_col(&it, "Session minute", "min", 1);
	table_col(&it, "Baseline", "s", 1);
	table_col(&it, "Idle power", "W", 1);
	table_col(&it, "Coverage", "%", 1);
	table_col(&it, "After", NULL, 0);
	table_col(&it, "Before", NULL, 0);
	json_array_foreach(json_object_get(v->res, "idle_windows"), i, w) {
		table_row(&it, ids_make(&v->ids, "i-", jstr(w, "id"), NULL), jstr(w, "id"));
		table_text(&it, jstr(w, "kind"));
		table_num(&it, jnum(w, "session_min"), NF_FIXED(2));
		table_num(&it, (jnum(w, "baseline_end_ms") - jnum(w, "baseline_start_ms")) / 1000.0,
			  NF_FIXED(1));
		table_num(&it, jnum(w, "mean_watts"), NF_FIXED(3));
		table_num(&it, jnum(w, "coverage"), NF_PCT(1));
		/* null here is "nothing", not "not reported" */
		table_text(&it, jstr(w, "follows") ? jstr(w, "follows") : "(session start)");
		table_text(&it, jstr(w, "precedes") ? jstr(w, "precedes") : "(session end)");
	}
	run_table_put(v, &it, "tbl_idle", 1, NULL, NULL, NULL);
}

static void
files_view(struct rv *v)
{
	struct table t;
	const json_t *f;
	size_t i, undigested = 0;

	run_table(v, &t, "tbl-files", "Raw files of the run (in the archive)");
	table_col(&t, "File", NULL, 0);
	table_col(&t, "Size", "bytes", 1);
	table_col(&t, "SHA-256", NULL, 0);
	json_array_foreach(json_object_get(v->res, "files"), i, f) {
		struct tcell hash = { jstr(f, "sha256"), 0, "hash", NULL, NULL, NULL };

		table_row(&t, ids_make(&v->ids, "f-", jstr(f, "name"), NULL), jstr(f, "name"));
		cell_int(&t, json_object_get(f, "bytes"));
		if (hash.text) {
			table_cell(&t, &hash);
		} else {
			table_text(&t, "not computed");
			undigested++;
		}
	}
	/* erg build --no-digest: say so above the table, not only in cells. */
	json_object_set_new(v->view, "files_undigested", json_boolean(undigested));
	run_table_put(v, &t, "tbl_files", 1, NULL, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* validation */

static const struct {
	const char *key, *label;
} check_labels[] = {
	{ "ordering", "Order of the measurements" },
	{ "position_bias", "Position (slot) bias" },
	{ "session_drift", "Drift over the session" },
	{ "idle_drift", "Idle floor drift" },
	{ "restatement", "Energy vs throughput" },
	{ "throttling", "Throttling" },
	{ "coverage", "Power-sample coverage" },
	{ "responses", "Load-generator responses" },
	{ "attribution", "Per-process attribution" },
};

static const char *
status_class(const char *st)
{
	if (!st)
		return "na";
	if (!strcmp(st, "ok") || !strcmp(st, "warn") || !strcmp(st, "fail"))
		return st;
	return "na";
}

static void
checks_view(struct rv *v)
{
	const json_t *val = json_object_get(v->res, "validation");
	const json_t *x, *grid, *row, *cellv;
	json_t *checks = json_array(), *pit = json_array(), *warns = json_array();
	const char *k;
	size_t i, j;

	json_array_foreach(json_object_get(val, "pitfalls"), i, x)
		if (json_is_string(x))
			json_array_append_new(pit, S(json_string_value(x)));
	json_object_foreach((json_t *)val, k, x) {
		json_t *c;
		const char *label = k;

		if (!json_is_object(x) || !json_object_get(x, "verdict"))
			continue;
		for (i = 0; i < sizeof(check_labels) / sizeof(check_labels[0]); i++)
			if (!strcmp(check_labels[i].key, k))
				label = check_labels[i].label;
		c = json_object();
		set_s(c, "id", ids_make(&v->ids, "check-", k, NULL));
		set_s(c, "name", label);
		set_s(c, "status", jstr(x, "status") ? jstr(x, "status") : "n/a");
		set_s(c, "cls", status_class(jstr(x, "status")));
		set_s(c, "verdict", jstr(x, "verdict"));
		json_array_append_new(checks, c);
	}
	json_array_foreach(json_object_get(v->res, "warnings"), i, x) {
		json_t *w = json_object();
		struct buf where = BUF_INIT;

		if (jstr(x, "file"))
			buf_addstr(&where, jstr(x, "file"));
		if (json_is_integer(json_object_get(x, "line")))
			buf_addf(&where, ":%lld",
				 (long long)json_integer_value(json_object_get(x, "line")));
		set_s(w, "where", where.len ? where.ptr : NULL);
		set_s(w, "message", jstr(x, "message"));
		json_array_append_new(warns, w);
		buf_release(&where);
	}
	json_object_set_new(v->view, "read_first",
			    json_boolean(json_array_size(pit) || json_array_size(warns)));
	json_object_set_new(v->view, "pitfalls", pit);
	json_object_set_new(v->view, "input_warnings", warns);
	json_object_set_new(v->view, "checks", checks);
	set_s(v->view, "val_status", jstr(val, "status") ? jstr(val, "status") : "n/a");
	set_s(v->view, "val_cls", status_class(jstr(val, "status")));

	/* The order grid: rounds x slots. */
	grid = jpath(val, "ordering.grid");
	if (json_array_size(grid)) {
		struct table t;
		size_t ns = 0;
		char h[32];

		json_array_foreach(grid, i, row)
			ns = json_array_size(row) > ns ? json_array_size(row) : ns;
		run_table(v, &t, "tbl-order", "Order: the target in each slot of each round");
		table_col(&t, "Round", NULL, 0);
		for (j = 0; j < ns; j++) {
			snprintf(h, sizeof(h), "Slot %zu", j + 1);
			table_col(&t, h, NULL, 0);
		}
		json_array_foreach(grid, i, row) {
			snprintf(h, sizeof(h), "%zu", i + 1);
			table_row(&t, ids_make(&v->ids, "o-", h, NULL), h);
			for (j = 0; j < ns; j++) {
				cellv = json_array_get(row, j);
				table_text(&t, json_string_value(cellv));
			}
		}
		run_table_put(v, &t, "tbl_order", 1, NULL, NULL, NULL);
	} else {
		json_object_set_new(v->view, "tbl_order", json_array());
	}
}

static void
caveats_view(struct rv *v)
{
	json_t *cav = json_array(), *own = json_array();
	const json_t *x;
	const char *url = load_url(v->res);
	struct buf b = BUF_INIT;
	size_t i;

	if (v->energy) {
		json_array_append_new(cav, S(
			"The energy is the SoC's compute energy as powermetrics reports it "
			"(CPU + GPU + Neural Engine). It excludes DRAM, the display, the SSD, "
			"the radios and VRM and charger losses: it is not what the machine "
			"draws from the wall."));
		json_array_append_new(cav, S(
			"powermetrics energy is Apple's estimate; by its own documentation it "
			"should not be used to compare different devices. Compare targets "
			"within one session, not sessions across machines."));
		json_array_append_new(cav, S(
			"Energy per request and the power figures are gross: the idle floor is "
			"included. Net figures subtract an idle floor measured between "
			"measurements; they are not \"the framework's energy\" either."));
	}
	if (is_local_url(url)) {
		buf_addstr(&b, "The load generator ran on the same machine as the server (");
		buf_addstr(&b, url);
		buf_addstr(&b, "): it competes with the server for the CPU");
		buf_addstr(&b, v->energy ? ", and its own energy is included in every figure."
				       : ".");
		json_array_append_new(cav, S(b.ptr));
		buf_reset(&b);
	}
	buf_addstr(&b, "\xc2\xb1 figures and error bars are \xc2\xb1" "1 standard deviation over "
		   "the rounds (descriptive spread), not confidence intervals; ");
	n_range(&b, v);
	buf_addstr(&b, ".");
	json_array_append_new(cav, S(b.ptr));
	json_array_foreach(json_object_get(v->res, "caveats"), i, x) {
		buf_reset(&b);
		value_text(&b, x);
		if (b.len)
			json_array_append_new(own, S(b.ptr));
	}
	json_object_set_new(v->view, "caveats", cav);
	json_object_set_new(v->view, "run_caveats", own);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* charts */

/* The chart style of each of n target names (one per page: view.h). */
static size_t *
name_styles(const struct rv *v, const char *const *names, size_t n)
{
	size_t *st = xcalloc(n + 1, sizeof(*st)), i;

	for (i = 0; i < n; i++)
		st[i] = target_slot(json_object_get(v->res, "targets"), names[i]);
	return st;
}

static void
charts_headline(struct rv *v, json_t *list)
{
	const char **labels = xcalloc(v->nt + 1, sizeof(*labels));
	double *val = xcalloc(v->nt + 1, sizeof(double)), *err = xcalloc(v->nt + 1, sizeof(double));
	double *x = xcalloc(v->nt + 1, sizeof(double)), *xe = xcalloc(v->nt + 1, sizeof(double));
	const double **dots = xcalloc(v->nt + 1, sizeof(*dots));
	size_t *nd = xcalloc(v->nt + 1, sizeof(size_t)), i;
	struct buf svg = BUF_INIT, cap = BUF_INIT, nb = BUF_INIT;
	struct svg_frame f = { 0 };
	struct svg_bars bars = { 0 };
	struct svg_points pts = { 0 };
	size_t *style;

	n_range(&nb, v);
	for (i = 0; i < v->nt; i++) {
		labels[i] = v->t[i].name;
		val[i] = jnum(v->t[i].mj, "mean");
		err[i] = jnum(v->t[i].mj, "sd");
		dots[i] = v->t[i].rounds;
		nd[i] = v->t[i].nrounds;
	}
	bars.n = v->nt;
	bars.labels = labels;
	bars.value = val;
	bars.err = err;
	bars.dots = dots;
	bars.ndots = nd;
	bars.horizontal = 1;
	style = name_styles(v, labels, v->nt);
	f.style = style;
	f.id = ids_make(&v->ids, "chart-headline", NULL, NULL);
	f.title = "Energy per request by target";
	buf_addstr(&cap, "Request-weighted energy per request (gross SoC energy), mJ/req. "
		   "Bars: mean; whiskers: \xc2\xb1" "1 SD over the rounds; dots: each round (");
	buf_addstr(&cap, nb.ptr);
	buf_addstr(&cap, ").");
	f.desc = cap.ptr;
	/* Bar charts: ylabel titles the values, xlabel the categories; the
	 * target names say what they are, and svg.c fits a category title
	 * of a horizontal chart into the label margin, cutting it. */
	f.xlabel = NULL;
	f.ylabel = "mJ per request";
	svg_bar_chart(&svg, &f, &bars);
	figure(list, &svg, cap.ptr);

	buf_reset(&cap);
	for (i = 0; i < v->nt; i++) {
		val[i] = jnum(v->t[i].head, "watts");
		err[i] = jnum(v->t[i].head, "watts_sd");
		dots[i] = v->t[i].rwatts;
	}
	f.id = ids_make(&v->ids, "chart-power", NULL, NULL);
	f.title = "Mean SoC power by target";
	buf_addstr(&cap, "Mean SoC power over the headline routes, W. Bars: mean; whiskers: "
		   "\xc2\xb1" "1 SD of the same quantity over the rounds; dots: each round (");
	buf_addstr(&cap, nb.ptr);
	buf_addstr(&cap, ").");
	f.desc = cap.ptr;
	f.ylabel = "watts";
	svg_bar_chart(&svg, &f, &bars);
	figure(list, &svg, cap.ptr);

	buf_reset(&cap);
	for (i = 0; i < v->nt; i++) {
		x[i] = jnum(v->t[i].head, "rps");
		xe[i] = jnum(v->t[i].head, "rps_sd");
		val[i] = jnum(v->t[i].mj, "mean");
		err[i] = jnum(v->t[i].mj, "sd");
	}
	pts.n = v->nt;
	pts.x = x;
	pts.y = val;
	pts.xerr = xe;
	pts.yerr = err;
	pts.labels = labels;
	f.id = ids_make(&v->ids, "chart-efficiency", NULL, NULL);
	f.title = "Throughput and energy per request";
	buf_addstr(&cap, "One point per target: throughput (req/s) against energy per "
		   "request (mJ/req). Error bars: \xc2\xb1" "1 SD over the rounds in each "
		   "direction (");
	buf_addstr(&cap, nb.ptr);
	buf_addstr(&cap, ").");
	f.desc = cap.ptr;
	f.xlabel = "requests per second";
	f.ylabel = "mJ per request";
	svg_scatter(&svg, &f, &pts);
	figure(list, &svg, cap.ptr);

	free(labels);
	free(style);
	free(val);
	free(err);
	free(x);
	free(xe);
	free(dots);
	free(nd);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&nb);
}

/* Grouped bars of routes x targets; per_mb picks the large routes. */
static void
chart_routes(struct rv *v, json_t *list, int per_mb)
{
	char *const *routes = per_mb ? v->large : v->small;
	size_t nr = per_mb ? v->nlarge : v->nsmall, i, j;
	const char **tl = xcalloc(v->nt + 1, sizeof(*tl));
	double *val = xcalloc(nr * v->nt + 1, sizeof(double));
	double *err = xcalloc(nr * v->nt + 1, sizeof(double));
	struct buf svg = BUF_INIT, cap = BUF_INIT;
	struct svg_frame f = { 0 };
	struct svg_groups g = { 0 };
	size_t *style;

	if (!nr || !v->nt) {
		free(tl);
		free(val);
		free(err);
		return;
	}
	for (j = 0; j < v->nt; j++)
		tl[j] = v->t[j].name;
	style = name_styles(v, tl, v->nt);
	f.style = style;
	for (i = 0; i < nr; i++)
		for (j = 0; j < v->nt; j++) {
			const json_t *r = route_of(v->t[j].o, routes[i]);
			const json_t *s = json_object_get(r, per_mb ? "mj_per_mb_stat" : "mj_per_req");

			val[i * v->nt + j] = r ? jnum(s, "mean") : NAN;
			err[i * v->nt + j] = r ? jnum(s, "sd") : NAN;
			if (per_mb && r && !isfinite(val[i * v->nt + j]))
				val[i * v->nt + j] = jnum(r, "mj_per_mb");
		}
	g.ngroups = nr;
	g.nseries = v->nt;
	g.group_labels = (const char *const *)routes;
	g.series_labels = tl;
	g.value = val;
	g.err = err;
	if (per_mb) {
		f.id = ids_make(&v->ids, "chart-per-mb", NULL, NULL);
		f.title = "Energy per megabyte, large-payload routes";
		buf_addstr(&cap, "Energy per megabyte read by the client (mJ/MB) by route and "
			   "target. Bars: mean; whiskers: \xc2\xb1" "1 SD over the rounds.");
		f.ylabel = "mJ per MB";
	} else {
		f.id = ids_make(&v->ids, "chart-routes", NULL, NULL);
		f.title = "Energy per request by route";
		buf_addstr(&cap, "Gross energy per request (mJ/req) by route and target. "
			   "Bars: mean; whiskers: \xc2\xb1" "1 SD over the rounds.");
		f.ylabel = "mJ per request";
	}
	f.desc = cap.ptr;
	f.xlabel = "route";
	svg_grouped_bars(&svg, &f, &g);
	figure(list, &svg, cap.ptr);
	free(style);
	free(tl);
	free(val);
	free(err);
	buf_release(&svg);
	buf_release(&cap);
}

/* Position of the target named name in v->t, v->nt when absent. */
static size_t
target_index(const struct rv *v, const char *name)
{
	size_t i;

	for (i = 0; name && i < v->nt; i++)
		if (!strcmp(v->t[i].name, name))
			return i;
	return v->nt;
}

static void
chart_trace(struct rv *v, json_t *list)
{
	const json_t *tr = json_object_get(v->res, "power_trace"), *o, *s;
	size_t n = json_array_size(tr), i, j, k = 0, nm = 1, t;
	char *used;
	struct svg_steps *st;
	const char **labels;
	double marks[2] = { 0, NAN }, wl = NAN;
	const char *mlab[2] = { "window start", "window end" };
	struct buf svg = BUF_INIT, cap = BUF_INIT;
	struct svg_frame f = { 0 };
	size_t *style;

	if (!n)
		return;
	st = xcalloc(n, sizeof(*st));
	labels = xcalloc(n, sizeof(*labels));
	used = xcalloc(n, 1);
	/* Series in the order of the other charts (targets by rank), so a
	 * target keeps its colour and pattern across the page. */
	for (t = 0; t <= v->nt; t++)
	json_array_foreach(tr, i, o) {
		const json_t *smp;
		size_t ns, m = 0;
		double *t0, *t1, *y;

		if (used[i] || (t < v->nt ? !jstr(o, "target") ||
					    strcmp(jstr(o, "target"), v->t[t].name)
					  : target_index(v, jstr(o, "target")) < v->nt))
			continue;
		used[i] = 1;
		smp = json_object_get(o, "samples");
		ns = json_array_size(smp);
		t0 = xmalloc((ns + 1) * sizeof(double));
		t1 = xmalloc((ns + 1) * sizeof(double));
		y = xmalloc((ns + 1) * sizeof(double));
		json_array_foreach(smp, j, s) {
			t0[m] = num_of(json_array_get(s, 0)) / 1000.0;
			t1[m] = num_of(json_array_get(s, 1)) / 1000.0;
			y[m] = num_of(json_array_get(s, 2));
			if (isfinite(t0[m]) && isfinite(t1[m]))
				m++;
		}
		st[k].n = m;
		st[k].t0 = t0;
		st[k].t1 = t1;
		st[k].y = y;
		labels[k] = jstr(o, "target") ? jstr(o, "target") : "";
		if (isfinite(jnum(o, "window_ms")) && !(jnum(o, "window_ms") / 1000.0 <= wl))
			wl = jnum(o, "window_ms") / 1000.0;
		k++;
	}
	if (isfinite(wl)) {
		marks[1] = wl;
		nm = 2;
	}
	for (i = 0; i < k; i++) {
		st[i].nmarks = i == 0 ? nm : 0;
		st[i].marks = marks;
		st[i].mark_labels = mlab;
	}
	style = name_styles(v, labels, k);
	f.style = style;
	f.id = ids_make(&v->ids, "chart-trace", NULL, NULL);
	f.title = "SoC power around one load window per target";
	buf_addstr(&cap, "SoC power of each powermetrics sample (steps, W) around one "
		   "representative load window per target: the first route (");
	buf_addstr(&cap, jstr(json_array_get(tr, 0), "route") ? jstr(json_array_get(tr, 0), "route")
							       : "?");
	buf_addstr(&cap, ") of the middle round. Time in seconds from the window start; "
		   "dashed lines: window start (0 s) and end. One window each: no error bars.");
	f.desc = cap.ptr;
	f.xlabel = "seconds from window start";
	f.ylabel = "watts";
	svg_step_chart(&svg, &f, k, labels, st);
	figure(list, &svg, cap.ptr);
	for (i = 0; i < k; i++) {
		free((void *)st[i].t0);
		free((void *)st[i].t1);
		free((void *)st[i].y);
	}
	free(st);
	free(style);
	free(labels);
	free(used);
	buf_release(&svg);
	buf_release(&cap);
}

static void
chart_idle(struct rv *v, json_t *list)
{
	const json_t *iw = json_object_get(v->res, "idle_windows"), *w;
	size_t n = json_array_size(iw), i, m = 0;
	double *x = xmalloc((n + 1) * sizeof(double)), *y = xmalloc((n + 1) * sizeof(double));
	double a, b, slope;
	struct buf svg = BUF_INIT, cap = BUF_INIT, note = BUF_INIT;
	struct svg_frame f = { 0 };
	struct svg_points p = { 0 };

	json_array_foreach(iw, i, w) {
		x[m] = jnum(w, "session_min");
		y[m] = jnum(w, "mean_watts");
		if (isfinite(x[m]) && isfinite(y[m]))
			m++;
	}
	if (!m)
		goto out;
	p.n = m;
	p.x = x;
	p.y = y;
	/* No line where the drift check gave no verdict (too few windows
	 * of a reconstructed run): a slope drawn would be one anyway. */
	if (m >= 2 && !stats_ols(x, y, m, &a, &b, NULL) &&
	    !(jpath_str(v->res, "validation.idle_drift.status") &&
	      !strcmp(jpath_str(v->res, "validation.idle_drift.status"), "n/a"))) {
		p.has_line = 1;
		p.line_a = a;
		p.line_b = b;
		slope = num_of(jpath(v->res, "validation.idle_drift.slope_w_per_h"));
		if (!isfinite(slope))
			slope = b * 60.0;
		buf_addstr(&note, "slope ");
		if (slope > 0)
			buf_addch(&note, '+');
		numfmt_add(&note, slope, NF_SIG(3));
		buf_addstr(&note, " W/h");
		p.note = note.ptr;
	}
	f.id = ids_make(&v->ids, "chart-idle", NULL, NULL);
	f.title = "Idle power across the session";
	buf_addstr(&cap, "Mean SoC power of each idle window (W) at its minute in the "
		   "session, with the least-squares line; the slope is written in W per "
		   "hour. Each point is one window: no error bars.");
	f.desc = cap.ptr;
	f.xlabel = "session minute";
	f.ylabel = "watts";
	svg_scatter(&svg, &f, &p);
	figure(list, &svg, cap.ptr);
out:
	free(x);
	free(y);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&note);
}

static void
chart_mhz(struct rv *v, json_t *list)
{
	const json_t *ser = jpath(v->res, "validation.throttling.series"), *w;
	size_t n = json_array_size(ser), i, m = 0;
	double *x = xmalloc((n + 1) * sizeof(double)), *y = xmalloc((n + 1) * sizeof(double));
	struct buf svg = BUF_INIT;
	struct svg_frame f = { 0 };
	struct svg_points p = { 0 };
	struct buf cap = BUF_INIT, title = BUF_INIT, name = BUF_INIT;

	pclust_label(&name, v->res);
	buf_addf(&cap, "Mean frequency (MHz) of the performance cluster (%s) of each load window "
		 "at its minute in the session; a drop would show throttling. "
		 "Each point is one window: no error bars.", name.ptr);
	buf_addf(&title, "%s frequency across the session", name.ptr);

	json_array_foreach(ser, i, w) {
		x[m] = jnum(w, "session_min");
		y[m] = jnum(w, "mhz");
		if (isfinite(x[m]) && isfinite(y[m]))
			m++;
	}
	if (m) {
		p.n = m;
		p.x = x;
		p.y = y;
		f.id = ids_make(&v->ids, "chart-mhz", NULL, NULL);
		f.title = title.ptr;
		f.desc = cap.ptr;
		f.xlabel = "session minute";
		f.ylabel = "MHz";
		svg_scatter(&svg, &f, &p);
		figure(list, &svg, cap.ptr);
	}
	free(x);
	free(y);
	buf_release(&svg);
	buf_release(&cap);
	buf_release(&title);
	buf_release(&name);
}


/* CPU-time shares per load window from the tasks sampler (checks.c):
 * shares only, never joules per process; DEAD_TASKS is its own bucket so
 * the reader sees how much could not be attributed. */
static void
chart_attribution(struct rv *v, json_t *list)
{
	const json_t *wins = jpath(v->res, "validation.attribution.windows"), *w, *b;
	size_t nw = json_array_size(wins), nparts = 0, i, j, k;
	const char **parts = NULL, **bars;
	struct buf *labels;
	double *share;
	struct buf svg = BUF_INIT;
	struct svg_frame f = { 0 };
	struct svg_stack st = { 0 };
	const char *cap = "Share of CPU time in each load window by process group, from the "
			  "powermetrics tasks sampler. DEAD_TASKS is CPU time of processes that "
			  "exited within a sample and cannot be attributed, so every other share "
			  "is a lower bound. Shares of CPU time, not of energy: no per-process "
			  "joules are derived.";

	if (!nw)
		return;
	/* bucket names in order of first appearance */
	json_array_foreach(wins, i, w)
		json_array_foreach(json_object_get(w, "buckets"), j, b) {
			const char *name = jstr(b, "name");

			for (k = 0; name && k < nparts; k++)
				if (!strcmp(parts[k], name))
					break;
			if (name && k == nparts) {
				parts = xrealloc(parts, (nparts + 1) * sizeof(*parts));
				parts[nparts++] = name;
			}
		}
	if (!nparts) {
		free(parts);
		return;
	}
	bars = xcalloc(nw, sizeof(*bars));
	labels = xcalloc(nw, sizeof(*labels));
	share = xcalloc(nw * nparts, sizeof(double));
	json_array_foreach(wins, i, w) {
		buf_init(&labels[i], 0);
		buf_addf(&labels[i], "%s %s", jstr(w, "measurement") ? jstr(w, "measurement") : "?",
			 jstr(w, "route") ? jstr(w, "route") : "");
		bars[i] = labels[i].ptr;
		json_array_foreach(json_object_get(w, "buckets"), j, b)
			for (k = 0; k < nparts; k++)
				if (jstr(b, "name") && !strcmp(parts[k], jstr(b, "name")))
					share[i * nparts + k] = jnum(b, "cpu_share");
	}
	st.nbars = nw;
	st.nparts = nparts;
	st.bar_labels = bars;
	st.part_labels = parts;
	st.share = share;
	f.id = ids_make(&v->ids, "chart-attribution", NULL, NULL);
	f.title = "CPU-time shares per load window";
	f.desc = cap;
	f.xlabel = "load window";
	f.ylabel = "share of CPU time";
	svg_stacked_bars(&svg, &f, &st);
	figure(list, &svg, cap);
	for (i = 0; i < nw; i++)
		buf_release(&labels[i]);
	free(labels);
	free(bars);
	free(share);
	free(parts);
	buf_release(&svg);
}

/* Every caption of list ends with note (NULL: left as it is). */
static void
captions_note(json_t *list, const char *note)
{
	struct buf b = BUF_INIT;
	json_t *f;
	size_t i;

	json_array_foreach(list, i, f) {
		if (!note)
			break;
		buf_reset(&b);
		buf_addstr(&b, jstr(f, "caption") ? jstr(f, "caption") : "");
		buf_addstr(&b, b.len ? " " : "");
		buf_addstr(&b, note);
		set_s(f, "caption", b.ptr);
	}
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* pages */

/*
 * captured_at for display: "2023-11-14T22:13:19Z" gives date "2023-11-14"
 * (index) and when "2023-11-14 22:13 UTC" (run page); datetime is the
 * value itself, for <time>, when it starts as an ISO 8601 date.  Anything
 * else is shown as given.  When results know the run's local time
 * (captured_local, "2026-08-26T08:56:28+07:00"), that is shown with its
 * offset, the UTC time and what gave the offset in the title: a run id
 * that names 08:56 never stands beside "01:56 UTC".
 */
static void
date_view(json_t *o, const json_t *res, const char *iso)
{
	const char *local = jstr(res, "captured_local"), *from = jstr(res, "captured_local_from");
	const char *tz;
	char d[11], w[48], t[96];
	size_t n;
	int ok, hm;

	if (local && iso_prefix(local) == 16 && strlen(local) >= 22) {
		tz = local + strlen(local) - 6;
		snprintf(w, sizeof(w), "%.10s %.5s %.6s", local, local + 11, tz);
		snprintf(t, sizeof(t), "%.10s %.5s UTC%s%s", iso, iso + 11,
			 from ? "; offset from the " : "", from && !strcmp(from, "run id") ? "run id" : from ? "capture time" : "");
		memcpy(d, local, 10);
		d[10] = '\0';
		set_s(o, "date", d);
		set_s(o, "when", w);
		set_s(o, "when_title", iso_prefix(iso) == 16 && iso[strlen(iso) - 1] == 'Z' ? t : NULL);
		set_s(o, "datetime", local);
		set_s(o, "captured_at", iso);
		return;
	}
	n = iso_prefix(iso);
	ok = n >= 10, hm = n == 16;
	if (ok) {
		memcpy(d, iso, 10);
		d[10] = '\0';
	}
	if (hm)
		snprintf(w, sizeof(w), "%.10s %.5s%s", iso, iso + 11,
			 iso[strlen(iso) - 1] == 'Z' ? " UTC" : "");
	set_s(o, "date", ok ? d : iso);
	set_s(o, "when", hm ? w : ok ? d : iso);
	set_s(o, "when_title", NULL);
	set_s(o, "datetime", ok ? iso : NULL);
	set_s(o, "captured_at", iso);
}

static int
write_buf(struct render_ctx *c, const char *dir, const char *name, const struct buf *b)
{
	struct buf rel = BUF_INIT;
	int rc;

	buf_addf(&rel, "%s%s", dir, name);
	rc = sink_write(&c->out, rel.ptr, b->ptr, b->len);
	buf_release(&rel);
	return rc;
}

static void
csv_headline(struct rv *v, struct buf *b)
{
	size_t i, j;

	buf_addstr(b, "target");
	if (v->energy)
		buf_addstr(b, ",mj_per_req_mean,mj_per_req_sd,n,mj_per_req_cv,"
			   "mj_per_req_ci95_lo,mj_per_req_ci95_hi");
	buf_addstr(b, ",rps_mean,rps_sd");
	if (v->energy)
		buf_addstr(b, ",watts_mean,watts_sd,rank_mj_per_req,rank_watts,weighting,energy");
	buf_addstr(b, ",routes");
	CSV_EOL(b);
	for (i = 0; i < v->nt; i++) {
		const struct tgt *g = &v->t[i];
		const json_t *ci = json_object_get(g->mj, "ci95"), *r;
		struct buf rs = BUF_INIT;

		csv_text(b, g->name);
		if (v->energy) {
			CSV_SEP(b), csv_num(b, jnum(g->mj, "mean"));
			CSV_SEP(b), csv_num(b, jnum(g->mj, "sd"));
			CSV_SEP(b), csv_num(b, jnum(g->mj, "n"));
			CSV_SEP(b), csv_num(b, jnum(g->mj, "cv"));
			CSV_SEP(b), csv_jnum(b, json_array_get(ci, 0));
			CSV_SEP(b), csv_jnum(b, json_array_get(ci, 1));
		}
		CSV_SEP(b), csv_num(b, jnum(g->head, "rps"));
		CSV_SEP(b), csv_num(b, jnum(g->head, "rps_sd"));
		if (v->energy) {
			CSV_SEP(b), csv_num(b, jnum(g->head, "watts"));
			CSV_SEP(b), csv_num(b, jnum(g->head, "watts_sd"));
			CSV_SEP(b), csv_num(b, jnum(g->head, "rank_mj_per_req"));
			CSV_SEP(b), csv_num(b, jnum(g->head, "rank_watts"));
			CSV_SEP(b), csv_text(b, jstr(g->head, "weighting"));
			CSV_SEP(b), csv_text(b, jstr(g->head, "energy"));
		}
		json_array_foreach(json_object_get(g->head, "routes"), j, r) {
			if (j)
				buf_addch(&rs, ' ');
			buf_addstr(&rs, json_string_value(r) ? json_string_value(r) : "");
		}
		CSV_SEP(b), csv_text(b, rs.ptr);
		buf_release(&rs);
		CSV_EOL(b);
	}
}

static void
csv_routes(struct rv *v, struct buf *b, int per_mb)
{
	size_t i, j;
	const json_t *r;

	if (per_mb)
		buf_addstr(b, "target,route,n,mj_per_mb_mean,mj_per_mb_sd,mj_per_mb_cv,"
			   "mj_per_mb_ci95_lo,mj_per_mb_ci95_hi,rps_mean,rps_sd,watts_mean,watts_sd");
	else if (v->energy)
		buf_addstr(b, "target,route,per,n,mj_per_req_mean,mj_per_req_sd,mj_per_req_cv,"
			   "mj_per_req_ci95_lo,mj_per_req_ci95_hi,net_mj_per_req,mj_per_mb,"
			   "rps_mean,rps_sd,watts_mean,watts_sd,idle_share");
	else
		buf_addstr(b, "target,route,per,rps_mean,rps_sd");
	CSV_EOL(b);
	for (i = 0; i < v->nt; i++)
		json_array_foreach(json_object_get(v->t[i].o, "routes"), j, r) {
			int large = jstr(r, "per") && !strcmp(jstr(r, "per"), "MB");
			const json_t *s = json_object_get(r, per_mb ? "mj_per_mb_stat" : "mj_per_req");
			const json_t *ci = json_object_get(s, "ci95");

			if (per_mb && !large)
				continue;
			csv_text(b, v->t[i].name);
			CSV_SEP(b), csv_text(b, jstr(r, "name"));
			if (!per_mb)
				CSV_SEP(b), csv_text(b, jstr(r, "per"));
			if (per_mb || v->energy) {
				CSV_SEP(b), csv_num(b, jnum(s, "n"));
				CSV_SEP(b), csv_num(b, jnum(s, "mean"));
				CSV_SEP(b), csv_num(b, jnum(s, "sd"));
				CSV_SEP(b), csv_num(b, jnum(s, "cv"));
				CSV_SEP(b), csv_jnum(b, json_array_get(ci, 0));
				CSV_SEP(b), csv_jnum(b, json_array_get(ci, 1));
			}
			if (!per_mb && v->energy) {
				CSV_SEP(b), csv_num(b, jnum(r, "net_mj_per_req"));
				CSV_SEP(b), csv_num(b, jnum(r, "mj_per_mb"));
			}
			CSV_SEP(b), csv_num(b, num_of(jpath(r, "rps.mean")));
			CSV_SEP(b), csv_num(b, num_of(jpath(r, "rps.sd")));
			if (per_mb || v->energy) {
				CSV_SEP(b), csv_num(b, num_of(jpath(r, "watts.mean")));
				CSV_SEP(b), csv_num(b, num_of(jpath(r, "watts.sd")));
			}
			if (!per_mb && v->energy)
				CSV_SEP(b), csv_num(b, jnum(r, "idle_share"));
			CSV_EOL(b);
		}
}

static void
csv_windows(struct rv *v, struct buf *b)
{
	static const char *const nums_e[] = {
		"start_ms", "end_ms", "requests", "bytes_read", "non_2xx", "rps", "rps_sd",
		"energy_j", "mean_watts", "coverage", "samples", NULL,
	};
	static const char *const nums_e2[] = {
		"idle_watts", "net_energy_j", "idle_share", "mj_per_req", "net_mj_per_req",
		"mj_per_mb", "cluster_mhz", NULL,
	};
	static const char *const nums_t[] = {
		"start_ms", "end_ms", "requests", "bytes_read", "non_2xx", "rps", "rps_sd", NULL,
	};
	const char *const *k;
	const json_t *m, *r;
	size_t i, j;

	buf_addstr(b, "measurement,target,round,slot,route,per");
	for (k = v->energy ? nums_e : nums_t; *k; k++)
		buf_addf(b, ",%s", *k);
	if (v->energy) {
		buf_addstr(b, ",idle_window");
		for (k = nums_e2; *k; k++)
			buf_addf(b, ",%s", *k);
		buf_addstr(b, ",thermal");
	}
	CSV_EOL(b);
	json_array_foreach(json_object_get(v->res, "measurements"), i, m)
		json_array_foreach(json_object_get(m, "routes"), j, r) {
			csv_text(b, jstr(m, "id"));
			CSV_SEP(b), csv_text(b, jstr(m, "target"));
			CSV_SEP(b), csv_num(b, jnum(m, "round"));
			CSV_SEP(b), csv_num(b, jnum(m, "slot"));
			CSV_SEP(b), csv_text(b, jstr(r, "name"));
			CSV_SEP(b), csv_text(b, jstr(r, "per"));
			for (k = v->energy ? nums_e : nums_t; *k; k++)
				CSV_SEP(b), csv_num(b, jnum(r, *k));
			if (v->energy) {
				CSV_SEP(b), csv_text(b, jstr(r, "idle_window"));
				for (k = nums_e2; *k; k++)
					CSV_SEP(b), csv_num(b, jnum(r, *k));
				CSV_SEP(b), csv_text(b, jstr(r, "thermal"));
			}
			CSV_EOL(b);
		}
}

static int
exports(struct rv *v, const char *dir)
{
	struct buf b = BUF_INIT, md = BUF_INIT;
	int rc = 0;

	csv_headline(v, &b);
	rc |= write_buf(v->c, dir, "headline.csv", &b);
	buf_reset(&b);
	csv_routes(v, &b, 0);
	rc |= write_buf(v->c, dir, "routes.csv", &b);
	if (v->nlarge && v->energy) {
		buf_reset(&b);
		csv_routes(v, &b, 1);
		rc |= write_buf(v->c, dir, "per-mb.csv", &b);
	}
	buf_reset(&b);
	csv_windows(v, &b);
	rc |= write_buf(v->c, dir, "windows.csv", &b);

	/* tables.md: a heading and the scope, then the tables as on the page */
	buf_addstr(&md, "## ");
	md_text(&md, jstr(v->res, "title") ? jstr(v->res, "title") : v->id);
	buf_addstr(&md, "\n\nRun ");
	md_text(&md, v->id);
	if (jstr(v->res, "captured_at")) {
		buf_addstr(&md, ", captured ");
		md_text(&md, jstr(v->res, "captured_at"));
	}
	buf_addstr(&md, ". ");
	if (v->energy)
		buf_addstr(&md, "Energy: gross SoC energy (CPU + GPU + ANE) from powermetrics, "
			   "which excludes DRAM, display, SSD, radios and power-supply losses. ");
	buf_addstr(&md, "Mean \xc2\xb1 1 SD over n rounds; CI: 95 % Student-t interval "
		   "of the mean.\n\n");
	buf_add(&md, v->md.ptr, v->md.len);
	rc |= write_buf(v->c, dir, "tables.md", &md);
	buf_release(&b);
	buf_release(&md);
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* the common top of every run page */

/* The common top of a run page: titles, dates, badges, build date. */
static void
page_top(json_t *view, const json_t *res, const char *id, size_t depth)
{
	json_t *r = json_object_get(res, "reconstructed");

	json_object_set_new(view, "up", up_list(depth));
	set_s(view, "title", jstr(res, "title") ? jstr(res, "title") : id);
	set_s(view, "run", id);
	set_s(view, "kind", jstr(res, "kind"));
	date_view(view, res, jstr(res, "captured_at"));
	if (!r || json_is_null(r)) {
		json_object_set_new(view, "reconstructed", json_false());
		json_object_set_new(view, "reconstructed_text", json_null());
	} else {
		struct buf b = BUF_INIT;

		value_text(&b, r);
		json_object_set_new(view, "reconstructed", json_true());
		set_s(view, "reconstructed_text", b.len ? b.ptr : NULL);
		buf_release(&b);
	}
	json_object_set_new(view, "built", build_date());
}


int
render_run(struct render_ctx *c, json_t *res)
{
	struct cache *k = c->cache;
	struct rv v = { 0 };
	struct buf dir = BUF_INIT, page = BUF_INIT, notes = BUF_INIT;
	const char *src = jstr(res, "energy_source"), *md;
	json_t *list, *dl;
	long depth;
	int rc = -1;
	static const char *const keep[] = {
		"results.json", "headline.csv", "routes.csv", "per-mb.csv",
		"windows.csv", "tables.md", "index.html",
	};

	v.c = c;
	v.res = res;
	v.id = jstr(res, "run");
	if (!v.id)
		return error("results without a run id ('run' missing or not a string)");
	if ((depth = run_depth(v.id)) < 0)
		return error("run id '%s' is not a relative path", v.id);
	if (jstr(res, "kind") && !strcmp(jstr(res, "kind"), "summary"))
		return render_summary_run(c, res);
	if (jstr(res, "kind") && !strcmp(jstr(res, "kind"), "trials"))
		return render_trials_run(c, res);
	v.depth = (size_t)depth;
	v.energy = !src || strcmp(src, "none");
	v.view = json_object();
	rv_load(&v);

	page_top(v.view, res, v.id, v.depth);
	json_object_set_new(v.view, "energy", json_boolean(v.energy));

	setup_view(&v);
	checks_view(&v);
	headline_view(&v);
	routes_view(&v);
	caveats_view(&v);

	list = json_array();
	if (v.energy && v.nt)
		charts_headline(&v, list);
	captions_note(list, synthetic_note(res));
	json_object_set_new(v.view, "charts_headline", list);
	list = json_array();
	if (v.energy) {
		chart_routes(&v, list, 0);
		chart_routes(&v, list, 1);
	}
	captions_note(list, synthetic_note(res));
	json_object_set_new(v.view, "charts_routes", list);
	{
		/* latency percentiles, when the load generator reported them */
		struct buf lat = BUF_INIT;

		if (render_latency_charts(res, &lat) > 0)
			json_object_set_new(v.view, "latency_charts", tmpl_rawn(lat.ptr, lat.len));
		else
			json_object_set_new(v.view, "latency_charts", json_false());
		buf_release(&lat);
	}
	list = json_array();
	if (v.energy) {
		chart_idle(&v, list);
		chart_mhz(&v, list);
		chart_trace(&v, list);
		chart_attribution(&v, list);
	}
	captions_note(list, synthetic_note(res));
	json_object_set_new(v.view, "charts_session", list);

	windows_view(&v);
	files_view(&v);

	/* notes */
	md = jpath_str(res, "notes.markdown");
	if (md) {
		struct md_opts o = { 2, keep, sizeof(keep) / sizeof(keep[0]) };

		if (markdown_to_html_opts(md, strlen(md), &o, &notes))
			goto out;
	}
	json_object_set_new(v.view, "notes", notes.len ? tmpl_rawn(notes.ptr, notes.len)
						       : json_null());
	set_s(v.view, "notes_file", jpath_str(res, "notes.file"));

	/* downloads */
	dl = json_object();
	json_object_set_new(dl, "per_mb", json_boolean(v.nlarge && v.energy));
	json_object_set_new(v.view, "downloads", dl);

	buf_addstr(&dir, "runs/");
	buf_addstr(&dir, v.id);
	buf_addch(&dir, '/');
	if (v.err || exports(&v, dir.ptr))
		goto out;
	if (tmpl_render(k->run, v.view, &page, 1))
		goto out;
	if (write_buf(c, dir.ptr, "index.html", &page))
		goto out;
	rc = 0;
out:
	json_decref(v.view);
	rv_free(&v);
	buf_release(&dir);
	buf_release(&page);
	buf_release(&notes);
	return rc;
}

/* ------------------------------------------------------------------ */
/* the index */

struct ientry {
	size_t i;		/* in the runs */
	const char *id;
	const char *key;	/* machine grouping key */
	const char *label;
	const char *date;	/* captured_at or NULL */
	size_t pos;		/* rank, newest first */
	size_t group;		/* pos of the newest run of its machine */
};

static int
cmp_key_pos(const void *pa, const void *pb)
{
	const struct ientry *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

static int
cmp_group_pos(const void *pa, const void *pb)
{
	const struct ientry *a = pa, *b = pb;

	if (a->group != b->group)
		return (a->group > b->group) - (a->group < b->group);
	return (a->pos > b->pos) - (a->pos < b->pos);
}

static int
cmp_newest(const void *pa, const void *pb)
{
	const struct ientry *a = pa, *b = pb;
	int c;

	if (!a->date != !b->date)
		return a->date ? -1 : 1;
	if (a->date && (c = strcmp(a->date, b->date)))
		return -c;
	return strcmp(a->id, b->id);
}

/* v in format f, or a summary run's published text of it ("0.0958",
 * "231,097": never digits the source did not give); null when missing. */
static json_t *
pub_json(double v, const char *text, struct numfmt f)
{
	struct numval x = { v, text };
	struct numfmt g = NF_SHORT;
	struct buf b = BUF_INIT;
	json_t *s;

	if (!text)
		return numfmt_json(v, f);
	g.group = 4;
	numfmt_val(&b, x, g);
	s = json_string(b.ptr);
	buf_release(&b);
	return s;
}

/* Best and worst target of a run: by mJ/req when there is energy, else by
 * throughput.  Returns a {name, mj, rps, na_mj} object or null. */
static json_t *
pick_target(const json_t *res, int energy, int best, int dec)
{
	const json_t *t, *h, *pick = NULL;
	double pv = NAN;
	size_t i;
	json_t *o;

	json_array_foreach(json_object_get(res, "targets"), i, t) {
		double x;

		h = json_object_get(t, "headline");
		x = energy ? num_of(jpath(h, "mj_per_req.mean")) : -jnum(h, "rps");
		if (!isfinite(x))
			continue;
		if (!pick || (best ? x < pv : x > pv)) {
			pick = t;
			pv = x;
		}
	}
	if (!pick)
		return json_null();
	h = json_object_get(pick, "headline");
	o = json_object();
	set_s(o, "name", jstr(pick, "name"));
	json_object_set_new(o, "mj", energy ? pub_json(num_of(jpath(h, "mj_per_req.mean")),
						       jstr(json_object_get(h, "mj_per_req"),
							    "published"), NF_FIXED(dec))
					    : json_null());
	json_object_set_new(o, "rps", pub_json(jnum(h, "rps"), jstr(h, "rps_published"),
					       NF_THOUS(1)));
	return o;
}

static const json_t *
index_get_all(void *ctx, size_t i)
{
	return json_array_get(ctx, i);
}

int
render_index(struct render_ctx *c, json_t *all)
{
	size_t n = json_array_size(all), i;
	struct index_run *runs = xcalloc(n + 1, sizeof(*runs));
	char **labels = xcalloc(n + 1, sizeof(*labels));
	struct buf b = BUF_INIT;
	json_t *res, *lists;
	int rc;

	json_array_foreach(all, i, res) {
		const json_t *m = json_object_get(res, "machine");

		buf_reset(&b);
		machine_label(&b, m);
		labels[i] = xstrdup(b.ptr);
		runs[i].id = jstr(res, "run");
		runs[i].label = labels[i];
		runs[i].key = jstr(m, "id") ? jstr(m, "id") : labels[i];
		runs[i].date = jstr(res, "captured_at");
	}
	lists = n > VIEWS_INDEX_RUNS ? views_index_lists(all) : NULL;
	rc = render_index_runs(c, runs, n, index_get_all, all, lists);
	json_decref(lists);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(runs);
	buf_release(&b);
	return rc;
}

int
render_index_runs(struct render_ctx *c, const struct index_run *rl, size_t n,
		  const json_t *(*get)(void *ctx, size_t i), void *ctx, json_t *lists)
{
	struct cache *k = c->cache;
	size_t i, j;
	struct ientry *e = xcalloc(n + 1, sizeof(*e));
	struct sset ids = { 0 };
	json_t *view = json_object(), *groups = json_array();
	struct buf b = BUF_INIT, page = BUF_INIT;
	int rc = -1;

	for (i = 0; i < n; i++) {
		e[i].i = i;
		e[i].id = rl[i].id;
		e[i].label = rl[i].label;
		e[i].key = rl[i].key;
		e[i].date = rl[i].date;
	}
	/*
	 * Groups in order of their newest run, runs newest first inside:
	 * rank the runs, find each machine's newest by sorting on (machine,
	 * rank), then sort on (that, rank).  n log n, for large archives.
	 */
	qsort(e, n, sizeof(*e), cmp_newest);
	for (i = 0; i < n; i++)
		e[i].pos = i;
	qsort(e, n, sizeof(*e), cmp_key_pos);
	for (i = 0; i < n; i++)
		e[i].group = i && !strcmp(e[i].key, e[i - 1].key) ? e[i - 1].group : e[i].pos;
	qsort(e, n, sizeof(*e), cmp_group_pos);
	for (i = 0; i < n; i = j) {
		json_t *g, *runs;

		if (e[i].group >= VIEWS_INDEX_RUNS)
			break;	/* the groups of the newest runs only (below) */
		g = json_object();
		runs = json_array();
		set_s(g, "id", ids_make(&ids, "machine-", e[i].key, NULL));
		set_s(g, "machine", e[i].label);
		for (j = i; j < n && e[j].group == e[i].group; j++) {
			const json_t *r;
			json_t *o;

			if (e[j].pos >= VIEWS_INDEX_RUNS)
				continue;
			/* the summaries of the newest runs only (issue 19) */
			if (!(r = get(ctx, e[j].i))) {
				json_decref(runs);
				json_decref(g);
				goto out;
			}
			const char *src = jstr(r, "energy_source");
			int energy = !src || strcmp(src, "none");
			double mj[256];
			size_t nmj = 0, q;
			int dec;
			const json_t *t;

			o = json_object();
			set_s(o, "id", ids_make(&ids, "run-", jstr(r, "run"), NULL));
			buf_reset(&b);
			url_path(&b, jstr(r, "run") ? jstr(r, "run") : "");
			set_s(o, "path", b.ptr);
			set_s(o, "run", jstr(r, "run"));
			set_s(o, "title", jstr(r, "title") ? jstr(r, "title") : jstr(r, "run"));
			set_s(o, "kind", jstr(r, "kind"));
			date_view(o, r, e[j].date);
			json_object_set_new(o, "energy", json_boolean(energy));
			json_object_set_new(o, "published",
					    json_boolean(jstr(r, "kind") && !strcmp(jstr(r, "kind"), "summary")));
			json_object_set_new(o, "reconstructed",
					    json_boolean(json_object_get(r, "reconstructed") &&
							 !json_is_null(json_object_get(r, "reconstructed"))));
			json_array_foreach(json_object_get(r, "targets"), q, t)
				if (nmj < 256)
					mj[nmj++] = num_of(jpath(t, "headline.mj_per_req.mean"));
			dec = numfmt_col_decimals(mj, nmj, 4, 3);
			json_object_set_new(o, "best", pick_target(r, energy, 1, dec));
			json_object_set_new(o, "worst", pick_target(r, energy, 0, dec));
			/* a summary without targets lists its figures in tables only */
			json_object_set_new(o, "ntargets", json_array_size(json_object_get(r, "targets"))
					    ? json_integer((json_int_t)json_array_size(json_object_get(r, "targets")))
					    : json_null());
			set_s(o, "status", jpath_str(r, "validation.status"));
			set_s(o, "status_cls", status_class(jpath_str(r, "validation.status")));
			json_array_append_new(runs, o);
		}
		json_object_set_new(g, "runs", runs);
		json_array_append_new(groups, g);
	}
	set_s(view, "title", "Benchmark runs");
	json_object_set_new(view, "up", up_list(0));
	json_object_set_new(view, "groups", groups);
	buf_reset(&b);
	buf_addf(&b, "%zu run%s", n, n == 1 ? "" : "s");
	set_s(view, "nruns_text", b.ptr);
	/* a large archive: the newest runs here, every run in the lists of
	 * its machine and its year (issue 19) */
	json_object_set_new(view, "latest", json_null());
	if (n > VIEWS_INDEX_RUNS) {
		buf_reset(&b);
		buf_addf(&b, "The newest %d of %zu runs, grouped by machine; every run is in the "
			 "list of its machine and of its year below.", VIEWS_INDEX_RUNS, n);
		set_s(view, "latest", b.ptr);
		json_object_set(view, "machines", json_object_get(lists, "machines"));
		json_object_set(view, "years", json_object_get(lists, "years"));
	}
	json_object_set_new(view, "built", build_date());
	if (tmpl_render(k->index, view, &page, 1))
		goto out;
	if (sink_write(&c->out, "index.html", page.ptr, page.len))
		goto out;
	rc = 0;
out:
	free(e);
	sset_free(&ids);
	json_decref(view);
	buf_release(&b);
	buf_release(&page);
	return rc;
}

/* ------------------------------------------------------------------ */

int
render_begin(struct render_ctx *c, const char *tmpl_dir, struct sink out)
{
	struct cache *k = xcalloc(1, sizeof(*k));
	struct buf path = BUF_INIT, css = BUF_INIT;
	int rc = -1;

	c->tmpl_dir = tmpl_dir;
	c->out = out;
	c->cache = k;
	if (!(k->run = tmpl_load(tmpl_dir, "run")) ||
	    !(k->index = tmpl_load(tmpl_dir, "index")) ||
	    !(k->rows = tmpl_load(tmpl_dir, "p-rows")))
		goto out;
	buf_addf(&path, "%s/%s", tmpl_dir, CSS_NAME);
	if (input_read_all(path.ptr, CSS_MAX, &css))
		goto out;
	if (sink_write(&out, CSS_NAME, css.ptr, css.len))
		goto out;
	rc = 0;
out:
	buf_release(&path);
	buf_release(&css);
	if (rc) {
		render_end(c);
	}
	return rc;
}

const struct tmpl *
render_rows(const struct render_ctx *c)
{
	return ((const struct cache *)c->cache)->rows;
}

void
render_end(struct render_ctx *c)
{
	struct cache *k = c->cache;

	if (!k)
		return;
	tmpl_free(k->run);
	tmpl_free(k->index);
	tmpl_free(k->rows);
	free(k);
	c->cache = NULL;
}
