/*
 * powermetrics.c - powermetrics plist streams: framing and per-document
 * extraction.  See powermetrics.h for the contract and formats.md §1 for
 * the format; the time fit and window integration are analyze/integrate.c.
 *
 * Framing (formats.md §1.1): the stream is cut at every NUL byte and before
 * every "<?xml" (an XML declaration can only start a document: '<' cannot
 * occur unescaped in text), each piece is trimmed of ASCII whitespace and
 * empty pieces are dropped.  Cutting at "<?xml" while streaming, rather than
 * after collecting a NUL-delimited chunk, keeps memory bounded even for a
 * stream without NULs.  A piece that does not parse is an error, unless
 * nothing but whitespace and NULs follows it: powermetrics may be stopped
 * mid-write, so a truncated last document is dropped with a warning.
 *
 * Parsing: every document first goes through the fast scanner of
 * plistfast.c, which takes only the values below and recognises a strict
 * subset of XML plist; a document it does not recognise is parsed with
 * libplist, the reference (sample_extract()), with every diagnostic.
 * libplist converts numbers loosely and keeps the last of two keys, so
 * that path also walks the document (pf_walk()) to read each number and
 * date erg takes from its own text, with the grammar the fast path uses,
 * and to refuse duplicates.  Both paths end in the same code
 * (compute_energy(), cluster_means(), keep_task(), check_hw(),
 * sample_finish()), so they give identical samples;
 * tests/unit/test_plistfast.c checks that on every real document.
 * After the last document, check_time() holds the elapsed_ns of the
 * samples against their timestamps (holes of missing samples, errors).
 *
 * Pipeline: the first BATCH_BYTES of a stream (so all of a small file),
 * and all of it without worker threads, is consumed piece by piece as it
 * is framed, on the calling thread.  Past that, pieces are collected into
 * batches of about BATCH_BYTES, which worker threads scan while this
 * thread reads (and inflates) the next ones; batches are then consumed
 * strictly in order on this thread (framing decisions, libplist fallback,
 * diagnostics, task names), so the result and every diagnostic are the
 * same whatever the threads.  At most MAX_INFLIGHT batches exist at once,
 * so memory stays at a few MB whatever the file size.  One difference
 * from a serial reader: after a read error (a corrupt gzip) past the
 * first batch, the batches read before it are dropped unconsumed, so
 * warnings about their documents are not printed (the file is an error
 * either way).
 *
 * Tasks (formats.md §1.6): of each task only pid, name, cputime_ns and
 * ptime_ns are kept, names interned per file, tasks without CPU time
 * dropped, so a sample of 100 tasks of which 40 ran costs about 1 KB.
 * A sample without a "tasks" array or "coalitions" costs nothing.
 *
 * libplist reads <real> with atof(), and the fast path with strtod(), so
 * the program must keep the "C" numeric locale (never
 * setlocale(LC_NUMERIC, "")).
 */
#include <math.h>
#include <plist/plist.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "ingest/input.h"
#include "ingest/plistfast.h"
#include "ingest/powermetrics.h"
#include "base/progress.h"
#include "base/util.h"

#define READ_CHUNK (256 * 1024)
/* One sample is 20 KB to 500 KB; anything this big is not a sample. */
#define MAX_DOC ((size_t)64 << 20)
/* plist dates count seconds from 2001-01-01T00:00:00Z. */
#define APPLE_EPOCH_UNIX_S 978307200.0
/* A batch is handed on once its pieces hold this many bytes. */
#define BATCH_BYTES ((size_t)1 << 20)
/* Batches read and not yet consumed, at most (per worker, plus two). */
#define MAX_INFLIGHT(workers) (2 * (workers) + 2)

int power_parse_mode = POWER_PARSE_AUTO;
int power_threads = 0;

/* One document being extracted, for located diagnostics. */
struct doc {
	const char *path;
	const char *text;	/* the document's bytes (trimmed) */
	size_t len;
	uint64_t off;		/* stream offset of text[0] */
	size_t no;		/* 1-based document number in the file */
	const struct pf_walk *walk;	/* libplist path: where its values are */
};

/* A piece of the stream, data[a..b) of its batch, trimmed. */
struct piece {
	size_t a, b;
	int status;		/* pf_scan()'s, or -1: not scanned */
	struct pfast v;		/* its values (v.tasks unused) when PF_OK */
	size_t t0, nt;		/* its tasks: batch tasks[t0 .. t0 + nt) */
};

struct batch {
	struct buf data;	/* stream bytes from offset base on */
	uint64_t base;
	struct piece *pc;
	size_t npc, apc;
	struct pf_task *tasks;	/* tasks of the recognised pieces */
	size_t ntasks, atasks;
	enum { B_QUEUED, B_CLAIMED, B_DONE } state;
	struct batch *next;
};

/* Worker threads and the queue of batches they scan. */
struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t work;	/* a batch was queued, or quit */
	pthread_cond_t done;	/* a batch was scanned */
	struct batch *head, *tail;	/* in stream order, oldest first */
	struct batch *unclaimed;	/* first batch nobody scans yet */
	size_t inflight;
	int quit;
	pthread_t *t;
	size_t nt;
};

struct reader {
	const char *path;
	struct power_file *pf;
	struct input *in;
	int scan;		/* run the fast scanner */
	int workers;		/* worker threads to start for a big file */
	struct batch *cur;	/* being filled: cur->data is the read buffer */
	struct batch *spare;	/* consumed batches, for reuse */
	struct pipe *pp;	/* NULL until a second batch shows the file is big */
	struct pfast scratch;	/* for scanning on this thread */
	size_t dstart;		/* start of the current piece in cur->data */
	size_t nscan;		/* data[dstart..nscan) holds no NUL */
	size_t xscan;		/* data[dstart+1..xscan) holds no "<?xml" */
	struct buf stray;	/* scratch: stray text for a warning */
	/* A piece that failed to parse: an error unless it was the last. */
	int pend;
	int pend_complete;	/* it ended with </plist>, so it is not truncated */
	uint64_t pend_off;
	size_t pend_no;
	int thermal_warned;
	size_t hw_no;		/* the document hw_model was first seen in */
	int proc_dict;		/* a sample had a processor dict */
	int gpu_only;		/* a sample had gpu.gpu_energy alone */
	int emask;		/* energy counters of the first sample with any */
	size_t emask_no;	/* that sample */
	/* The first sample dropped after a kept one (0: none), an error once
	 * a later one is kept. */
	size_t drop_no;
	uint64_t drop_off;
	int drop_ts;		/* it lacked the timestamp, else elapsed_ns */
	struct pf_walk walk;	/* for the libplist path */
	size_t stray_docs;	/* documents with stray text (one warning each file) */
	/* tasks */
	size_t *toff;		/* task offset of every kept sample */
	size_t atoff;
	int any_tasks;		/* a kept sample carried task data */
	uint32_t *nhash;	/* name interning: open addressing, index + 1 */
	size_t nhash_cap;
};

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static const char *
type_name(plist_t node)
{
	switch (plist_get_node_type(node)) {
	case PLIST_BOOLEAN: return "a boolean";
	case PLIST_UINT: return "an integer";
	case PLIST_REAL: return "a real";
	case PLIST_STRING: return "a string";
	case PLIST_ARRAY: return "an array";
	case PLIST_DICT: return "a dict";
	case PLIST_DATE: return "a date";
	case PLIST_DATA: return "data";
	case PLIST_KEY: return "a key";
	case PLIST_UID: return "a UID";
	default: return "an unknown node";
	}
}

/*
 * Offset of "<key>KEY</key>" in the document, to point a diagnostic at the
 * value's line rather than at the document; the document start if the key
 * is not found verbatim.  Only used on error paths.
 */
static long long
key_off(const struct doc *d, const char *key)
{
	size_t kl = strlen(key), i;

	for (i = 0; i + kl + 11 <= d->len; i++) {
		const char *p = d->text + i;

		if (p[0] == '<' && !memcmp(p, "<key>", 5) &&
		    !memcmp(p + 5, key, kl) && !memcmp(p + 5 + kl, "</key>", 6))
			return (long long)(d->off + i);
	}
	return (long long)d->off;
}

static int PRINTF(3, 0)
doc_verror(const struct doc *d, long long off, const char *fmt, va_list ap)
{
	struct buf m = BUF_INIT;
	int ret;

	buf_vaddf(&m, fmt, ap);
	ret = error_off(d->path, off, "sample %zu: %s", d->no, m.ptr);
	buf_release(&m);
	return ret;
}

static int PRINTF(3, 4)
doc_error(const struct doc *d, const char *key, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = doc_verror(d, key ? key_off(d, key) : (long long)d->off, fmt, ap);
	va_end(ap);
	return ret;
}

/* doc_error() at the <key> of item it. */
static int PRINTF(3, 4)
item_error(const struct doc *d, const struct pf_item *it, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = doc_verror(d, (long long)(d->off + it->key_off), fmt, ap);
	va_end(ap);
	return ret;
}

/* The text of item it for a message: at most 40 bytes, then "...". */
static const char *
item_text(const struct doc *d, const struct pf_item *it, struct buf *b)
{
	size_t n = it->text_len;

	buf_reset(b);
	buf_add(b, d->text + it->text_off, n > 40 ? 40 : n);
	if (n > 40)
		buf_addstr(b, "...");
	return b->ptr;
}

/*
 * The element of the value (field, coal, idx) that libplist read under
 * key, found by pf_walk(): NULL after a diagnostic if it is not there
 * with the same type (the walk and libplist disagree; never seen).
 */
static const struct pf_item *
find_item(const struct doc *d, const char *key, const char *what, int field, uint32_t coal,
	  uint32_t idx, int tag)
{
	const struct pf_item *it = d->walk ? pf_walk_find(d->walk, field, coal, idx) : NULL;

	if (it && it->tag == tag)
		return it;
	doc_error(d, key, "'%s': its element was not found where libplist read it", what);
	return NULL;
}

/*
 * A number under dict[key] (an <integer> or a <real>) with the strict
 * grammar of plistfast.h, from the element's text: libplist has already
 * read it with strtoull(base 0) or atof(), which take "010" as 8, "12abc"
 * as 12 and "nan" as NaN.  Returns 1 with *out set, 0 if the key is
 * absent, -1 after a diagnostic for another type, a text that is not a
 * number, an integer out of int64 range or a real beyond a double.  what
 * names the key in messages ("processor.cpu_energy"); (field, coal, idx)
 * locate it for pf_walk_find().
 */
static int
get_num(const struct doc *d, plist_t dict, const char *key, const char *what, int field,
	uint32_t coal, uint32_t idx, double *out)
{
	plist_t v = plist_dict_get_item(dict, key);
	const struct pf_item *it;
	struct buf t = BUF_INIT;
	uint64_t u;
	int64_t iv;
	double lv;
	int rc, type;

	*out = 0;
	if (!v)
		return 0;
	type = plist_get_node_type(v);
	if (type != PLIST_UINT && type != PLIST_REAL)
		return doc_error(d, key, "'%s' is %s, expected a number", what, type_name(v));
	it = find_item(d, key, what, field, coal, idx,
		       type == PLIST_UINT ? PF_TAG_INTEGER : PF_TAG_REAL);
	if (!it)
		return -1;
	if (!it->plain)
		rc = -1;
	else if (type == PLIST_UINT)
		rc = pf_int_literal(d->text + it->text_off, it->text_len, &iv);
	else
		rc = pf_real_literal(d->text + it->text_off, it->text_len, out);
	if (rc < 0)
		rc = item_error(d, it, "'%s' is not a number ('%s')", what, item_text(d, it, &t));
	else if (rc && type == PLIST_REAL)
		rc = item_error(d, it, "'%s' is beyond the range of a double ('%s')", what,
				item_text(d, it, &t));
	else if (rc == 1)
		rc = item_error(d, it, "'%s' is 2^63 or more: integer out of range", what);
	else if (rc == 2)
		rc = item_error(d, it, "'%s' is less than -2^63: integer out of range", what);
	buf_release(&t);
	if (rc)
		return -1;
	/* The same text gives libplist the same value: else the walk is off. */
	if (type == PLIST_UINT) {
		plist_get_uint_val(v, &u);
		if (u != (uint64_t)iv)
			return doc_error(d, key, "'%s': its element was not found where libplist "
					 "read it", what);
		*out = (double)iv;
	} else {
		plist_get_real_val(v, &lv);
		if (memcmp(&lv, out, sizeof(lv)))
			return doc_error(d, key, "'%s': its element was not found where libplist "
					 "read it", what);
	}
	return 1;
}

/* get_num() for quantities that cannot be negative. */
static int
get_nonneg(const struct doc *d, plist_t dict, const char *key, const char *what,
	   int field, uint32_t coal, uint32_t idx, double *out)
{
	int r = get_num(d, dict, key, what, field, coal, idx, out);

	if (r > 0 && *out < 0)
		return doc_error(d, key, "'%s' is negative (%g)", what, *out);
	return r;
}

/* dict[key] if it is a string (NULL if absent); -1 after a diagnostic. */
static int
get_str(const struct doc *d, plist_t dict, const char *key, const char *what,
	const char **out)
{
	plist_t v = plist_dict_get_item(dict, key);
	uint64_t len;

	*out = NULL;
	if (!v)
		return 0;
	if (plist_get_node_type(v) != PLIST_STRING)
		return doc_error(d, key, "'%s' is %s, expected a string", what,
				 type_name(v));
	*out = plist_get_string_ptr(v, &len);
	return *out ? 1 : 0;
}

/* ---- what both paths share -------------------------------------------- */

/* processor keys by enum pf_proc */
static const char *const proc_key[PF_NPROC] = {
	"cpu_energy", "gpu_energy", "ane_energy",
	"combined_power", "cpu_power", "gpu_power", "ane_power",
	"package_joules", "package_watts",
};

/* A processor number (enum pf_proc): 1 with *out, 0 if absent, -1 after a
 * diagnostic. */
typedef int proc_get_fn(const void *ctx, int k, double *out);

static double
ts_ms_of(int32_t sec, int32_t usec)
{
	return ((double)sec + APPLE_EPOCH_UNIX_S) * 1000 + (double)usec / 1000;
}

/*
 * The joules of one sample and where they came from (enum psrc), reading
 * only the keys it needs, in this order: a key it does not reach is never
 * checked.  *mask: the energy counters present (bit k for PF_CPU_ENERGY + k).
 */
static int
compute_energy(proc_get_fn *get, const void *ctx, double elapsed_ms,
	       struct psample *s, int *mask)
{
	double v, sum = 0;
	int i, r, any = 0;

	s->joules = NAN;
	s->src = PSRC_NONE;
	/* Apple silicon: integer mJ counters; a missing one counts 0. */
	for (i = PF_CPU_ENERGY; i <= PF_ANE_ENERGY; i++) {
		r = get(ctx, i, &v);
		if (r < 0)
			return -1;
		if (r) {
			sum += v;
			any = 1;
			*mask |= 1 << (i - PF_CPU_ENERGY);
		}
	}
	if (any) {
		s->joules = sum / 1000;
		s->src = PSRC_ENERGY;
		return 0;
	}
	/* Mean mW over the window: combined_power, else its parts. */
	r = get(ctx, PF_COMBINED_POWER, &v);
	if (r < 0)
		return -1;
	if (r) {
		sum = v;
		any = 1;
	} else {
		for (i = PF_CPU_POWER; i <= PF_ANE_POWER; i++) {
			r = get(ctx, i, &v);
			if (r < 0)
				return -1;
			if (r) {
				sum += v;
				any = 1;
			}
		}
	}
	if (any) {
		s->joules = sum / 1000 * (elapsed_ms / 1000);
		s->src = PSRC_POWER;
		return 0;
	}
	/* Intel: joules, else watts. */
	r = get(ctx, PF_PACKAGE_JOULES, &v);
	if (r < 0)
		return -1;
	if (r) {
		s->joules = v;
		s->src = PSRC_PACKAGE;
		return 0;
	}
	r = get(ctx, PF_PACKAGE_WATTS, &v);
	if (r < 0)
		return -1;
	if (r) {
		s->joules = v * (elapsed_ms / 1000);
		s->src = PSRC_PACKAGE;
	}
	/*
	 * NEEDSWORK: macOS 12 reportedly wrote processor.package_energy where
	 * later releases write combined_power (formats.md §1.4, unverified);
	 * without a sample its unit is unknown, so it is not read.
	 */
	return 0;
}

/*
 * Without the cpu_power sampler a sample has no processor dict; the
 * gpu_power sampler's gpu.gpu_energy (mJ over the sample) is then its
 * energy, a domain of its own, when no sample of the file has a processor
 * dict (power_read() takes it back otherwise: such a sample has no
 * energy, as it always had, rather than the GPU's alone under the
 * processor's name).  With both, the processor's is read, as the method
 * does (it matches combined_power), and the gpu dict is not read at all:
 * the two are not held against each other, since they differ in real
 * samples of macOS 14 and 26 (formats.md §1.4: 72607 vs 73491 and 276 vs
 * 284 mJ; equal on 13 and 15), by more than rounding.
 */
static void
gpu_energy(struct reader *r, struct psample *s, int has_proc, int has_gpu, double mj)
{
	r->proc_dict |= has_proc;
	if (has_proc || !has_gpu || s->src != PSRC_NONE)
		return;
	s->joules = mj / 1000;
	s->src = PSRC_GPU;
	r->gpu_only = 1;
}

/* Cluster class of a name: 0 'S', 1 'P', 2 'M', 3 'E', -1 others. */
static int
cluster_class(char first)
{
	switch (first) {
	case 'S': return 0;
	case 'P': return 1;
	case 'M': return 2;
	case 'E': return 3;
	default: return -1;
	}
}

/* Mean cluster frequencies from freq_hz sums and counts by class:
 * performance ('S', else 'P', else 'M') and 'E'. */
static void
cluster_means(const double sum[4], const size_t cnt[4], struct psample *s)
{
	int k;

	s->pclust_mhz = s->eclust_mhz = NAN;
	for (k = 0; k < 3; k++)
		if (cnt[k]) {
			s->pclust_mhz = sum[k] / (double)cnt[k] / 1e6;
			break;
		}
	if (cnt[3])
		s->eclust_mhz = sum[3] / (double)cnt[3] / 1e6;
}

/* The file's performance-cluster name, from the first sample with one:
 * the class cluster_means() takes (S, else P, else M), its first name. */
static void
note_pclust(struct power_file *pf, const size_t cnt[4], const char *const name[4],
	    const size_t len[4])
{
	int k;

	if (pf->pclust_name)
		return;
	for (k = 0; k < 3; k++)
		if (cnt[k]) {
			pf->pclust_name = xstrndup(name[k], len[k]);
			pf->pclust_count = cnt[k];
			return;
		}
}

/* Index of name[0..n) in pf->names, adding it if new. */
static uint32_t
intern_name(struct reader *r, const char *name, size_t n)
{
	struct power_file *pf = r->pf;
	size_t mask, i, k;

	if (2 * (pf->nnames + 1) > r->nhash_cap) {
		size_t cap = r->nhash_cap ? 2 * r->nhash_cap : 256;
		uint32_t *t = xcalloc(cap, sizeof(*t));

		for (k = 0; k < pf->nnames; k++) {
			for (i = str_hash(pf->names[k], strlen(pf->names[k])) & (cap - 1); t[i];
			     i = (i + 1) & (cap - 1))
				;
			t[i] = (uint32_t)k + 1;
		}
		free(r->nhash);
		r->nhash = t;
		r->nhash_cap = cap;
	}
	mask = r->nhash_cap - 1;
	for (i = str_hash(name, n) & mask; r->nhash[i]; i = (i + 1) & mask) {
		const char *e = pf->names[r->nhash[i] - 1];

		if (!strncmp(e, name, n) && e[n] == '\0')
			return r->nhash[i] - 1;
	}
	if (pf->nnames >= UINT32_MAX - 1)
		BUG("too many task names");
	ALLOC_GROW(pf->names, pf->nnames + 1, pf->anames);
	pf->names[pf->nnames] = xstrndup(name, n);
	r->nhash[i] = (uint32_t)pf->nnames + 1;
	return (uint32_t)pf->nnames++;
}

/* One task as read: kept unless it is ALL_TASKS or had no CPU time. */
static void
keep_task(struct reader *r, int32_t pid, const char *name, size_t n, double cpu,
	  double p)
{
	struct power_file *pf = r->pf;
	struct ptask *k;

	/* ALL_TASKS is the sum of the others; idle tasks add nothing. */
	if (pid == -2 || (cpu == 0 && !(p > 0)))
		return;
	ALLOC_GROW(pf->tasks, pf->ntasks + 1, pf->atasks);
	k = &pf->tasks[pf->ntasks++];
	k->cpu_ns = cpu;
	k->p_ns = p;
	k->pid = pid;
	k->name = intern_name(r, name, n);
}

/*
 * The checks every sample ends with.  Returns 1 to keep the sample, 0 to
 * drop it (after a warning).
 */
static int
sample_finish(const struct doc *d, const struct psample *s)
{
	/* energy-method.md §1.3: such samples cannot be placed in time. */
	if (!isfinite(s->ts_ms) || !isfinite(s->elapsed_ms)) {
		warn_off(d->path, (long long)d->off, "sample %zu: no %s; sample dropped",
			 d->no, !isfinite(s->ts_ms) ? "'timestamp'" : "'elapsed_ns'");
		return 0;
	}
	return 1;
}

/*
 * Every sample of a file with energy counters has the same ones: the
 * method counts a missing one as 0 (right for a file without it), which
 * in one sample of a file that has it would silently drop that energy.
 */
static int
check_counters(struct reader *r, const struct doc *d, int mask)
{
	static const char *const name[] = { "cpu_energy", "gpu_energy", "ane_energy" };
	int k, diff = mask ^ r->emask;

	if (!mask || !diff)
		return 0;
	if (!r->emask) {
		r->emask = mask;
		r->emask_no = d->no;
		return 0;
	}
	for (k = 0; !(diff & (1 << k)); k++)
		;
	if (mask & (1 << k))
		return doc_error(d, "processor", "'processor.%s', which sample %zu lacks: "
				 "a counter missing from some samples would count 0 in them",
				 name[k], r->emask_no);
	return doc_error(d, "processor", "no 'processor.%s', which sample %zu has: a "
			 "counter missing from some samples would count 0 in them", name[k],
			 r->emask_no);
}

/*
 * hw_model of one sample, s[0..n): every sample of a file must name the
 * same machine (a file that switches machines contradicts itself).
 */
static int
check_hw(struct reader *r, const struct doc *d, const char *s, size_t n)
{
	struct power_file *pf = r->pf;

	if (!pf->hw_model) {
		pf->hw_model = xstrndup(s, n);
		r->hw_no = d->no;
		return 0;
	}
	if (strlen(pf->hw_model) == n && !memcmp(pf->hw_model, s, n))
		return 0;
	return doc_error(d, "hw_model", "'hw_model' is '%.*s' but '%s' in sample %zu: "
			 "one file cannot hold two machines", (int)(n > 80 ? 80 : n), s,
			 pf->hw_model, r->hw_no);
}

/* ---- the libplist path ------------------------------------------------ */

struct plist_proc {
	const struct doc *d;
	plist_t proc;
};

static int
plist_proc_get(const void *ctx, int k, double *out)
{
	const struct plist_proc *c = ctx;
	char what[48];

	snprintf(what, sizeof(what), "processor.%s", proc_key[k]);
	return get_nonneg(c->d, c->proc, proc_key[k], what, PFF_PROC + k, 0, 0, out);
}

/* The joules of one sample and where they came from (enum psrc). */
static int
extract_energy(struct reader *r, const struct doc *d, plist_t proc, double elapsed_ms,
	       struct psample *s)
{
	struct plist_proc c = { d, proc };
	int mask = 0;

	s->joules = NAN;
	s->src = PSRC_NONE;
	if (!proc)
		return 0;
	if (compute_energy(plist_proc_get, &c, elapsed_ms, s, &mask) < 0)
		return -1;
	return check_counters(r, d, mask);
}

/* Mean cluster frequencies: performance ('S', else 'P', else 'M') and 'E'. */
static int
extract_clusters(struct reader *rd, const struct doc *d, plist_t proc, struct psample *s)
{
	/* Sums and counts by class: 0 S, 1 P, 2 M, 3 E; the first names */
	double sum[4] = { 0 }, hz;
	size_t cnt[4] = { 0 }, len[4] = { 0 };
	const char *first[4] = { 0 };
	plist_t cl, c;
	uint32_t i, n;
	const char *name;
	int k, r;

	cluster_means(sum, cnt, s);
	if (!proc)
		return 0;
	cl = plist_dict_get_item(proc, "clusters");
	if (!cl)
		return 0;
	if (plist_get_node_type(cl) != PLIST_ARRAY)
		return doc_error(d, "clusters", "'processor.clusters' is %s, expected an array",
				 type_name(cl));
	n = plist_array_get_size(cl);
	for (i = 0; i < n; i++) {
		c = plist_array_get_item(cl, i);
		if (plist_get_node_type(c) != PLIST_DICT)
			return doc_error(d, "clusters", "'processor.clusters[%u]' is %s, expected a dict",
					 i, type_name(c));
		if (get_str(d, c, "name", "processor.clusters[].name", &name) < 0)
			return -1;
		if (!name)
			continue;
		k = cluster_class(name[0]);
		if (k < 0)
			continue;
		r = get_nonneg(d, c, "freq_hz", "processor.clusters[].freq_hz", PFF_FREQ, 0, i,
			       &hz);
		if (r < 0)
			return -1;
		if (r) {
			if (!cnt[k]) {
				first[k] = name;
				len[k] = strlen(name);
			}
			sum[k] += hz;
			cnt[k]++;
		}
	}
	cluster_means(sum, cnt, s);
	note_pclust(rd->pf, cnt, first, len);
	return 0;
}

static int
extract_thermal(const struct doc *d, plist_t root, struct reader *r,
		struct psample *s)
{
	const char *t;
	int lv;

	s->thermal = THERMAL_ABSENT;
	if (get_str(d, root, "thermal_pressure", "thermal_pressure", &t) < 0)
		return -1;
	if (!t)
		return 0;
	lv = pf_thermal_level(t, strlen(t));
	if (lv != -2) {
		s->thermal = (signed char)lv;
		return 0;
	}
	if (!r->thermal_warned) {
		r->thermal_warned = 1;
		warn_off(d->path, key_off(d, "thermal_pressure"),
			 "sample %zu: unknown thermal_pressure '%.40s' ignored",
			 d->no, t);
	}
	return 0;
}

/* One entry of a tasks array; what names it in messages ("tasks[3]"). */
static int
extract_task(struct reader *r, const struct doc *d, plist_t t, const char *arr,
	     const char *what, uint32_t coal, uint32_t idx)
{
	const char *name;
	double pid, cpu, p;
	plist_t v;
	int rc;

	if (plist_get_node_type(t) != PLIST_DICT)
		return doc_error(d, arr, "'%s' is %s, expected a dict", what, type_name(t));
	v = plist_dict_get_item(t, "pid");
	if (v && plist_get_node_type(v) != PLIST_UINT)
		return doc_error(d, "pid", "'tasks[].pid' is %s, expected an integer",
				 type_name(v));
	rc = get_num(d, t, "pid", "tasks[].pid", PFF_PID, coal, idx, &pid);
	if (rc < 0)
		return -1;
	if (!rc)
		return doc_error(d, arr, "'%s' has no 'pid'", what);
	if (pid != floor(pid) || pid < INT32_MIN || pid > INT32_MAX)
		return doc_error(d, "pid", "'%s.pid' is %g, expected a process id", what, pid);
	if (get_str(d, t, "name", "tasks[].name", &name) < 0)
		return -1;
	rc = get_nonneg(d, t, "cputime_ns", "tasks[].cputime_ns", PFF_CPU, coal, idx, &cpu);
	if (rc < 0)
		return -1;
	rc = get_nonneg(d, t, "ptime_ns", "tasks[].ptime_ns", PFF_PTIME, coal, idx, &p);
	if (rc < 0)
		return -1;
	if (!rc)
		p = NAN;
	if (!name)
		name = "";
	keep_task(r, (int32_t)pid, name, strlen(name), cpu, p);
	return 0;
}

static int
extract_task_array(struct reader *r, const struct doc *d, plist_t a,
		   const char *key, const char *what, uint32_t coal)
{
	uint32_t i, n;
	char w[64];

	if (plist_get_node_type(a) != PLIST_ARRAY)
		return doc_error(d, key, "'%s' is %s, expected an array", what, type_name(a));
	n = plist_array_get_size(a);
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s[%u]", what, i);
		if (extract_task(r, d, plist_array_get_item(a, i), key, w, coal, i) < 0)
			return -1;
	}
	return 0;
}

/*
 * The tasks of one sample: the top-level "tasks" array, else (--show-all)
 * the "tasks" of every coalition; both hold the same processes, so the
 * top-level array wins when a document has both.
 */
static int
extract_tasks(struct reader *r, const struct doc *d, plist_t root,
	      struct psample *s)
{
	plist_t a = plist_dict_get_item(root, "tasks"), co, c, ct;
	uint32_t i, n;
	char w[64];

	s->has_tasks = 0;
	if (a) {
		s->has_tasks = 1;
		return extract_task_array(r, d, a, "tasks", "tasks", 0);
	}
	co = plist_dict_get_item(root, "coalitions");
	if (!co)
		return 0;
	if (plist_get_node_type(co) != PLIST_ARRAY)
		return doc_error(d, "coalitions", "'coalitions' is %s, expected an array",
				 type_name(co));
	s->has_tasks = 1;
	n = plist_array_get_size(co);
	for (i = 0; i < n; i++) {
		c = plist_array_get_item(co, i);
		if (plist_get_node_type(c) != PLIST_DICT)
			return doc_error(d, "coalitions", "'coalitions[%u]' is %s, expected a dict",
					 i, type_name(c));
		ct = plist_dict_get_item(c, "tasks");
		if (!ct)
			continue;
		snprintf(w, sizeof(w), "coalitions[%u].tasks", i);
		if (extract_task_array(r, d, ct, "coalitions", w, i + 1) < 0)
			return -1;
	}
	return 0;
}

/*
 * Everything erg takes from one parsed document.  Returns 1 to keep the
 * sample, 0 to drop it (after a warning), -1 after an error.
 */
static int
sample_extract(struct reader *r, const struct doc *d, plist_t root,
	       struct psample *s)
{
	struct power_file *pf = r->pf;
	plist_t v, proc, gpu;
	plist_dict_iter it = NULL;
	char *key = NULL;
	double ns, gmj = 0;
	int32_t sec = 0, usec = 0;
	const char *str;
	int k;

	memset(s, 0, sizeof(*s));
	s->off = d->off;
	if (plist_get_node_type(root) != PLIST_DICT)
		return doc_error(d, NULL, "top level is %s, expected a dict",
				 type_name(root));

	k = get_num(d, root, "elapsed_ns", "elapsed_ns", PFF_ELAPSED, 0, 0, &ns);
	if (k < 0)
		return -1;
	if (k && !(ns > 0))
		return doc_error(d, "elapsed_ns", "'elapsed_ns' is %.0f, expected > 0", ns);
	s->elapsed_ms = k ? ns / 1e6 : NAN;

	v = plist_dict_get_item(root, "timestamp");
	s->ts_ms = NAN;
	if (v) {
		const struct pf_item *it;
		struct buf t = BUF_INIT;
		int32_t mine = 0;

		if (plist_get_node_type(v) != PLIST_DATE)
			return doc_error(d, "timestamp", "'timestamp' is %s, expected a date",
					 type_name(v));
		it = find_item(d, "timestamp", "timestamp", PFF_TIMESTAMP, 0, 0, PF_TAG_DATE);
		if (!it)
			return -1;
		/* libplist reads "garbage" as 1970 and "...:01.5Z" as ":01Z". */
		if (!it->plain || pf_date_literal(d->text + it->text_off, it->text_len, &mine)) {
			item_error(d, it, "'timestamp' is not a date YYYY-MM-DDTHH:MM:SSZ of "
				   "1970 to 2037 ('%s')", item_text(d, it, &t));
			buf_release(&t);
			return -1;
		}
		plist_get_date_val(v, &sec, &usec);
		if (sec != mine || usec)
			return doc_error(d, "timestamp", "'timestamp': its element was not found "
					 "where libplist read it");
		s->ts_ms = ts_ms_of(sec, usec);
	}

	plist_dict_new_iter(root, &it);
	for (plist_dict_next_item(root, it, &key, &v); key;
	     plist_dict_next_item(root, it, &key, &v)) {
		pf->samplers |= pf_sampler_bit(key, strlen(key));
		free(key);
		key = NULL;
	}
	free(it);

	proc = plist_dict_get_item(root, "processor");
	if (proc && plist_get_node_type(proc) != PLIST_DICT)
		return doc_error(d, "processor", "'processor' is %s, expected a dict",
				 type_name(proc));
	gpu = proc ? NULL : plist_dict_get_item(root, "gpu");
	if (gpu && plist_get_node_type(gpu) != PLIST_DICT)
		return doc_error(d, "gpu", "'gpu' is %s, expected a dict", type_name(gpu));
	if (gpu && d->walk->dup_gpu)
		return error_off(d->path, (long long)(d->off + d->walk->dup_gpu_off),
				 "sample %zu: key '%s' occurs twice", d->no, d->walk->dup_gpu);
	k = gpu ? get_nonneg(d, gpu, "gpu_energy", "gpu.gpu_energy", PFF_GPU_ENERGY, 0, 0,
			     &gmj) : 0;
	if (k < 0 || extract_energy(r, d, proc, s->elapsed_ms, s) < 0)
		return -1;
	gpu_energy(r, s, proc != NULL, k > 0, gmj);
	if (extract_clusters(r, d, proc, s) < 0 ||
	    extract_thermal(d, root, r, s) < 0 || extract_tasks(r, d, root, s) < 0)
		return -1;

	if (get_str(d, root, "hw_model", "hw_model", &str) < 0 ||
	    (str && check_hw(r, d, str, strlen(str)) < 0))
		return -1;
	if (!pf->os_build) {
		if (get_str(d, root, "kern_osversion", "kern_osversion", &str) < 0)
			return -1;
		if (str)
			pf->os_build = xstrdup(str);
	}
	return sample_finish(d, s);
}

/* ---- the fast path ---------------------------------------------------- */

static int
fast_proc_get(const void *ctx, int k, double *out)
{
	const struct pfast *f = ctx;

	if (!(f->has & PF_HAS_NUM(k))) {
		*out = 0;
		return 0;
	}
	*out = f->num[k];
	return 1;
}

/*
 * sample_extract() from the fast scanner's values: pf_scan() recognised
 * the document only if every value it took passes the checks of
 * sample_extract(), so only what compares samples (check_counters(),
 * check_hw()) can fail.
 */
static int
sample_fast(struct reader *r, const struct doc *d, const struct pfast *f,
	    const struct pf_task *t, size_t nt, struct psample *s)
{
	struct power_file *pf = r->pf;
	size_t i;
	int mask = 0;

	memset(s, 0, sizeof(*s));
	s->off = d->off;
	s->elapsed_ms = f->has & PF_HAS_ELAPSED ? f->elapsed_ns / 1e6 : NAN;
	s->ts_ms = f->has & PF_HAS_TS ? ts_ms_of(f->ts_sec, f->ts_usec) : NAN;
	pf->samplers |= f->samplers;
	if (compute_energy(fast_proc_get, f, s->elapsed_ms, s, &mask) < 0)
		BUG("fast path energy failed");
	if (check_counters(r, d, mask) < 0)
		return -1;
	gpu_energy(r, s, (f->has & PF_HAS_PROC) != 0, (f->has & PF_HAS_GPU_ENERGY) != 0,
		   f->gpu_energy);
	cluster_means(f->csum, f->ccnt, s);
	{
		const char *nm[4];
		size_t ln[4];

		for (i = 0; i < 4; i++) {
			nm[i] = d->text + f->cname_off[i];
			ln[i] = f->cname_len[i];
		}
		note_pclust(pf, f->ccnt, nm, ln);
	}
	s->thermal = f->thermal;
	s->has_tasks = (f->has & PF_HAS_TASKS) != 0;
	for (i = 0; i < nt; i++)
		keep_task(r, t[i].pid, d->text + t[i].name_off, t[i].name_len, t[i].cpu_ns,
			  t[i].p_ns);
	if ((f->has & PF_HAS_HW) && check_hw(r, d, d->text + f->hw_off, f->hw_len) < 0)
		return -1;
	if (!pf->os_build && (f->has & PF_HAS_OS))
		pf->os_build = xstrndup(d->text + f->os_off, f->os_len);
	return sample_finish(d, s);
}

/* ---- consuming pieces, in stream order -------------------------------- */

/*
 * libplist 2.2.0 rejects character data that is not inside a leaf element
 * (its xplist.c parser skips whitespace between tags and fails on anything
 * else: "Expected: opening tag").  XML allows such text and Apple's and
 * Python's plist readers ignore it, and powermetrics does produce it: the
 * VMware sample in samples/powermetrics has its own diagnostic
 *     warning: time went backwards by 1418132621000000000 ns
 * on a line of its own between <key>all_tasks</key> and the <dict> it
 * names (the tool's warning went into the same stream as its output).
 *
 * Blank such text in place with spaces, so offsets stay valid, and copy
 * the first run (for the warning) to *first_text.  Text inside leaf
 * elements, comments, processing instructions and the DOCTYPE is kept.
 * Returns the number of bytes blanked; *first is the offset of the first.
 */
static size_t
blank_stray_text(char *p, size_t n, size_t *first, struct buf *first_text)
{
	static const char *const leaf[] = { "key", "string", "integer", "real",
					    "date", "data" };
	size_t i = 0, j, k, blanked = 0, tl;
	int in_leaf = 0;
	const char *end;

	while (i < n) {
		if (p[i] != '<') {
			end = memchr(p + i, '<', n - i);
			j = end ? (size_t)(end - p) : n;
			if (!in_leaf) {
				for (k = i; k < j && is_ws(p[k]); k++)
					;
				if (k < j) {
					if (!blanked) {
						*first = k;
						tl = j - k;
						while (tl && is_ws(p[k + tl - 1]))
							tl--;
						buf_add(first_text, p + k, tl > 80 ? 80 : tl);
					}
					for (; k < j; k++)
						if (!is_ws(p[k])) {
							p[k] = ' ';
							blanked++;
						}
				}
			}
			i = j;
			continue;
		}
		/* Markup: find its end; stop at the first unterminated one. */
		if (n - i >= 4 && !memcmp(p + i, "<!--", 4)) {
			for (j = i + 4; j + 3 <= n && memcmp(p + j, "-->", 3); j++)
				;
			if (j + 3 > n)
				break;
			i = j + 3;
			continue;
		}
		if (n - i >= 2 && p[i + 1] == '!') {
			/* DOCTYPE, possibly with an internal subset. */
			end = memchr(p + i, '>', n - i);
			j = end ? (size_t)(end - p) : n;
			if (memchr(p + i, '[', j - i)) {
				for (j = i; j + 2 <= n && memcmp(p + j, "]>", 2); j++)
					;
				j++;
			}
			if (j >= n)
				break;
			i = j + 1;
			continue;
		}
		end = memchr(p + i, '>', n - i);
		if (!end)
			break;
		j = (size_t)(end - p);
		if (p[i + 1] == '/' || p[i + 1] == '?' || p[j - 1] == '/') {
			in_leaf = 0;
		} else {
			in_leaf = 0;
			for (k = 0; k < sizeof(leaf) / sizeof(leaf[0]); k++) {
				tl = strlen(leaf[k]);
				if (j - i - 1 >= tl && !memcmp(p + i + 1, leaf[k], tl) &&
				    (j - i - 1 == tl || is_ws(p[i + 1 + tl]))) {
					in_leaf = 1;
					break;
				}
			}
		}
		i = j + 1;
	}
	return blanked;
}

static int
ends_with_plist_close(const char *p, size_t n)
{
	return n >= 8 && !memcmp(p + n - 8, "</plist>", 8);
}

static void
add_sample(struct power_file *pf, const struct psample *s)
{
	ALLOC_GROW(pf->s, pf->n + 1, pf->alloc);
	pf->s[pf->n++] = *s;
}

/* Parse document pc of batch b with libplist (pc->b is NUL-terminated). */
static int
parse_libplist(struct reader *r, struct doc *d, char *p, struct psample *s)
{
	size_t n = d->len, first = 0;
	plist_t root = NULL;
	int k;

	plist_from_xml(p, (uint32_t)n, &root);
	if (!root) {
		buf_reset(&r->stray);
		if (blank_stray_text(p, n, &first, &r->stray)) {
			plist_from_xml(p, (uint32_t)n, &root);
			if (root && !r->stray_docs++)
				warn_off(r->path, (long long)(d->off + first),
					 "sample %zu: ignored stray text between elements: '%s'",
					 d->no, r->stray.ptr);
		}
	}
	if (!root) {
		r->pend = 1;
		r->pend_complete = ends_with_plist_close(p, n);
		r->pend_off = d->off;
		r->pend_no = d->no;
		return 2;
	}
	/* libplist keeps the last of two keys and converts numbers loosely:
	 * find the elements themselves. */
	if (pf_walk(p, n, &r->walk) < 0)
		k = doc_error(d, NULL, "the document does not follow libplist's rules as read");
	else if (r->walk.dup)
		k = error_off(d->path, (long long)(d->off + r->walk.dup_off),
			      "sample %zu: key '%s' occurs twice", d->no, r->walk.dup);
	else {
		d->walk = &r->walk;
		k = sample_extract(r, d, root, s);
		d->walk = NULL;
	}
	plist_free(root);
	return k;
}

/* One document: piece pc of batch b. */
static int
parse_doc(struct reader *r, struct batch *b, struct piece *pc)
{
	char *p = b->data.ptr + pc->a;
	struct doc d;
	struct psample s;
	size_t t0;
	char save;
	int k;

	d.path = r->path;
	d.text = p;
	d.len = pc->b - pc->a;
	d.off = b->base + pc->a;
	d.no = ++r->pf->docs;
	d.walk = NULL;
	if (d.no > UINT32_MAX)
		return error_off(r->path, (long long)d.off, "more than %u documents",
				 (unsigned)UINT32_MAX);

	t0 = r->pf->ntasks;
	if (pc->status == PF_OK) {
		k = sample_fast(r, &d, &pc->v, (pc->nt ? b->tasks + pc->t0 : NULL), pc->nt, &s);
		r->pf->fast_docs++;
	} else {
		save = p[d.len];
		p[d.len] = '\0';	/* libplist may read up to a NUL */
		k = parse_libplist(r, &d, p, &s);
		b->data.ptr[pc->b] = save;
		if (k == 2)
			return 0;	/* broken: pending */
	}
	if (k <= 0)
		r->pf->ntasks = t0;	/* the sample's tasks go with it */
	if (k < 0)
		return -1;
	/* No computer draws more than 100 kW: a finite, non-negative energy
	 * beyond that is a corrupt counter, not a measurement, and must not
	 * be published as one. */
	if (k > 0 && isfinite(s.joules) && s.joules / (s.elapsed_ms / 1000) > 1e5) {
		static const char *const key[] = { "", "processor.cpu_energy",
						   "processor.combined_power",
						   "processor.package_joules", "gpu.gpu_energy" };
		const char *kn = s.src > 0 && s.src < 5 ? key[(int)s.src] : "processor";

		r->pf->ntasks = t0;
		return doc_error(&d, s.src > 0 && s.src < 5 ? strchr(kn, '.') + 1 : NULL,
				 "'%s' gives an implausible %g W (over 100 kW)", kn,
				 s.joules / (s.elapsed_ms / 1000));
	}
	/*
	 * A sample dropped at either end of the file only shortens it; between
	 * kept ones its time is lost from the chain of elapsed_ns, and every
	 * later sample would be placed that much too early (by less than the
	 * timestamps can always show).
	 */
	if (k && r->drop_no)
		return error_off(r->path, (long long)r->drop_off, "sample %zu: no '%s': the "
				 "samples after it cannot be placed in time without it",
				 r->drop_no, r->drop_ts ? "timestamp" : "elapsed_ns");
	if (!k && r->pf->n && !r->drop_no) {
		r->drop_no = d.no;
		r->drop_off = d.off;
		r->drop_ts = !isfinite(s.ts_ms);
	}
	if (k) {
		s.no = (uint32_t)d.no;
		ALLOC_GROW(r->toff, r->pf->n + 2, r->atoff);
		r->toff[r->pf->n] = t0;
		r->any_tasks |= s.has_tasks;
		add_sample(r->pf, &s);
		progress_add_samples(1);
	} else {
		r->pf->dropped++;
	}
	return 0;
}

static int
pending_error(struct reader *r)
{
	return error_off(r->path, (long long)r->pend_off,
			 "sample %zu: broken XML plist", r->pend_no);
}

/* One piece of the framed stream, in order. */
static int
consume_piece(struct reader *r, struct batch *b, struct piece *pc)
{
	const char *p = b->data.ptr + pc->a;
	size_t n = pc->b - pc->a;

	/* Something follows the failed document, so it was not truncated. */
	if (r->pend)
		return pending_error(r);
	if (!memchr(p, '<', n)) {
		/* Not a document at all: a stray line between documents. */
		warn_off(r->path, (long long)(b->base + pc->a),
			 "ignored text between documents: '%.*s'",
			 (int)(n > 80 ? 80 : n), p);
		return 0;
	}
	return parse_doc(r, b, pc);
}

static int
consume_batch(struct reader *r, struct batch *b)
{
	size_t i;

	for (i = 0; i < b->npc; i++)
		if (consume_piece(r, b, &b->pc[i]) < 0)
			return -1;
	return 0;
}

/* ---- scanning batches (any thread) ------------------------------------ */

static void
scan_batch(struct batch *b, struct pfast *f)
{
	struct piece *pc;
	size_t i;

	b->ntasks = 0;
	for (i = 0; i < b->npc; i++) {
		pc = &b->pc[i];
		pc->status = pf_scan(b->data.ptr + pc->a, pc->b - pc->a, f);
		pc->t0 = b->ntasks;
		pc->nt = 0;
		if (pc->status != PF_OK)
			continue;
		pc->v = *f;
		pc->v.tasks = NULL;
		pc->v.coal = NULL;
		pc->v.ntasks = pc->v.atasks = pc->v.acoal = 0;
		if (f->ntasks) {
			ALLOC_GROW(b->tasks, b->ntasks + f->ntasks, b->atasks);
			memcpy(b->tasks + b->ntasks, f->tasks, f->ntasks * sizeof(*f->tasks));
			b->ntasks += f->ntasks;
			pc->nt = f->ntasks;
		}
	}
}

static void
unscanned(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->npc; i++)
		b->pc[i].status = -1;
	b->ntasks = 0;
}

static void *
worker_main(void *arg)
{
	struct pipe *pp = arg;
	struct pfast f = PFAST_INIT;
	struct batch *b;

	pthread_mutex_lock(&pp->mu);
	for (;;) {
		while (!pp->quit && !pp->unclaimed)
			pthread_cond_wait(&pp->work, &pp->mu);
		if (pp->quit)
			break;
		b = pp->unclaimed;
		pp->unclaimed = b->next;
		b->state = B_CLAIMED;
		pthread_mutex_unlock(&pp->mu);
		scan_batch(b, &f);
		pthread_mutex_lock(&pp->mu);
		b->state = B_DONE;
		pthread_cond_broadcast(&pp->done);
	}
	pthread_mutex_unlock(&pp->mu);
	pfast_free(&f);
	return NULL;
}

/* ---- batches and the pipeline (the reading thread) -------------------- */

static struct batch *
batch_new(struct reader *r)
{
	struct batch *b = r->spare;

	if (b) {
		r->spare = b->next;
		buf_reset(&b->data);
	} else {
		b = xcalloc(1, sizeof(*b));
		buf_init(&b->data, 0);
	}
	b->npc = b->ntasks = 0;
	b->base = 0;
	b->state = B_QUEUED;
	b->next = NULL;
	return b;
}

static void
batch_free(struct batch *b)
{
	buf_release(&b->data);
	free(b->pc);
	free(b->tasks);
	free(b);
}

static void
batch_recycle(struct reader *r, struct batch *b)
{
	/* Keep two for reuse; a batch grown by a huge document goes. */
	size_t n = 0;
	struct batch *s;

	for (s = r->spare; s; s = s->next)
		n++;
	if (n >= 2 || b->data.cap > 4 * BATCH_BYTES) {
		batch_free(b);
		return;
	}
	b->next = r->spare;
	r->spare = b;
}

static int
online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* Start the workers; 0, or -1 if none could be started (serial then). */
static int
pipe_start(struct reader *r)
{
	struct pipe *pp = xcalloc(1, sizeof(*pp));
	int i;

	pthread_mutex_init(&pp->mu, NULL);
	pthread_cond_init(&pp->work, NULL);
	pthread_cond_init(&pp->done, NULL);
	pp->t = xcalloc((size_t)r->workers, sizeof(*pp->t));
	for (i = 0; i < r->workers; i++)
		if (!pthread_create(&pp->t[pp->nt], NULL, worker_main, pp))
			pp->nt++;
	if (!pp->nt) {
		pthread_mutex_destroy(&pp->mu);
		pthread_cond_destroy(&pp->work);
		pthread_cond_destroy(&pp->done);
		free(pp->t);
		free(pp);
		r->workers = 0;
		return -1;
	}
	r->pp = pp;
	return 0;
}

/* Stop the workers and drop every batch still queued. */
static void
pipe_stop(struct reader *r)
{
	struct pipe *pp = r->pp;
	struct batch *b;
	size_t i;

	if (!pp)
		return;
	pthread_mutex_lock(&pp->mu);
	pp->quit = 1;
	pthread_cond_broadcast(&pp->work);
	pthread_mutex_unlock(&pp->mu);
	for (i = 0; i < pp->nt; i++)
		pthread_join(pp->t[i], NULL);
	while ((b = pp->head)) {
		pp->head = b->next;
		batch_free(b);
	}
	pthread_mutex_destroy(&pp->mu);
	pthread_cond_destroy(&pp->work);
	pthread_cond_destroy(&pp->done);
	free(pp->t);
	free(pp);
	r->pp = NULL;
}

/* Wait for the oldest batch (scanning batches meanwhile), consume it. */
static int
consume_oldest(struct reader *r)
{
	struct pipe *pp = r->pp;
	struct batch *b, *x;
	int ret;

	pthread_mutex_lock(&pp->mu);
	b = pp->head;
	while (b->state != B_DONE) {
		if ((x = pp->unclaimed) != NULL) {
			/* Help rather than wait. */
			pp->unclaimed = x->next;
			x->state = B_CLAIMED;
			pthread_mutex_unlock(&pp->mu);
			scan_batch(x, &r->scratch);
			pthread_mutex_lock(&pp->mu);
			x->state = B_DONE;
			pthread_cond_broadcast(&pp->done);
			continue;
		}
		pthread_cond_wait(&pp->done, &pp->mu);
	}
	pp->head = b->next;
	if (!pp->head)
		pp->tail = NULL;
	pp->inflight--;
	pthread_mutex_unlock(&pp->mu);
	ret = consume_batch(r, b);
	batch_recycle(r, b);
	return ret;
}

/* Consume every batch handed on. */
static int
drain(struct reader *r)
{
	while (r->pp && r->pp->head)
		if (consume_oldest(r) < 0)
			return -1;
	return 0;
}

/* Scan (unless libplist does it all) and consume batch b here. */
static int
consume_here(struct reader *r, struct batch *b)
{
	if (r->scan)
		scan_batch(b, &r->scratch);
	else
		unscanned(b);
	return consume_batch(r, b);
}

/* Drop the bytes of the current batch before the current piece. */
static void
drop_consumed(struct reader *r)
{
	struct batch *c = r->cur;

	if (!r->dstart)
		return;
	memmove(c->data.ptr, c->data.ptr + r->dstart, c->data.len - r->dstart);
	buf_setlen(&c->data, c->data.len - r->dstart);
	c->base += r->dstart;
	r->nscan -= r->dstart;
	r->xscan -= r->dstart;
	r->dstart = 0;
}

/*
 * Hand batch b on: to the workers (started with the first batch that has
 * more after it), or, without them, scan and consume it here.
 */
static int
hand_on(struct reader *r, struct batch *b, int more)
{
	struct pipe *pp;
	int ret;

	if (!r->pp && more && r->workers > 0 && r->scan)
		pipe_start(r);
	pp = r->pp;
	if (!pp) {
		ret = consume_here(r, b);
		batch_recycle(r, b);
		return ret;
	}
	pthread_mutex_lock(&pp->mu);
	b->state = B_QUEUED;
	b->next = NULL;
	if (pp->tail)
		pp->tail->next = b;
	else
		pp->head = b;
	pp->tail = b;
	if (!pp->unclaimed)
		pp->unclaimed = b;
	pp->inflight++;
	pthread_cond_signal(&pp->work);
	pthread_mutex_unlock(&pp->mu);
	while (pp->inflight >= (size_t)MAX_INFLIGHT(pp->nt))
		if (consume_oldest(r) < 0)
			return -1;
	return 0;
}

/* A piece cur->data[a..b) of the framed stream: trimmed, kept if not empty. */
static void
add_piece(struct reader *r, size_t a, size_t b)
{
	struct batch *c = r->cur;
	const char *p = c->data.ptr;
	struct piece *pc;

	while (a < b && is_ws(p[a]))
		a++;
	while (b > a && is_ws(p[b - 1]))
		b--;
	if (a == b)
		return;
	if (b - a > UINT32_MAX)
		BUG("document larger than MAX_DOC");
	ALLOC_GROW(c->pc, c->npc + 1, c->apc);
	pc = &c->pc[c->npc++];
	pc->a = a;
	pc->b = b;
	pc->status = -1;
}

/* The first "<?xml" wholly in p[from..n), or NULL.  '?' is rare: find it. */
static const char *
find_xmldecl(const char *p, size_t n, size_t from)
{
	const char *q;
	size_t i = from + 1;

	while (i < n) {
		q = memchr(p + i, '?', n - i);
		if (!q)
			return NULL;
		i = (size_t)(q - p) + 1;
		if (q[-1] == '<' && n - i >= 3 && !memcmp(q + 1, "xml", 3))
			return q - 1;
	}
	return NULL;
}

static int
read_stream(struct reader *r)
{
	int eof = 0;
	long got;

	/*
	 * Each byte is searched once for NUL and once for "<?xml" (bar the
	 * 4 bytes a declaration may straddle a read with), however many
	 * documents a read brings: no quadratic rescans.
	 */
	for (;;) {
		struct batch *c = r->cur, *nb;
		char *p = c->data.ptr;
		size_t len = c->data.len, lim, xs;
		const char *nul, *x;

		nul = memchr(p + r->nscan, '\0', len - r->nscan);
		lim = r->nscan = nul ? (size_t)(nul - p) : len;
		xs = r->xscan > 4 ? r->xscan - 4 : 0;
		if (xs < r->dstart + 1)
			xs = r->dstart + 1;
		x = xs < lim ? find_xmldecl(p, lim, xs) : NULL;
		if (x) {
			add_piece(r, r->dstart, (size_t)(x - p));
			r->dstart = r->xscan = (size_t)(x - p);
			continue;
		}
		if (nul) {
			add_piece(r, r->dstart, lim);
			r->dstart = r->nscan = r->xscan = lim + 1;
			continue;
		}
		r->xscan = len;
		if (eof) {
			add_piece(r, r->dstart, len);
			r->cur = NULL;
			if (hand_on(r, c, 0) < 0)
				return -1;
			return drain(r);
		}

		if (!r->pp && (r->workers <= 0 || !r->scan ||
			       c->base + c->data.len < BATCH_BYTES)) {
			/*
			 * Serially (a small file, or its first MiB): consume
			 * what is framed before reading on, as the reader
			 * always did, so a read error comes after every
			 * diagnostic about the documents before it.
			 */
			if (c->npc) {
				if (consume_here(r, c) < 0)
					return -1;
				c->npc = 0;
			}
			drop_consumed(r);
		} else if (r->dstart >= BATCH_BYTES && c->npc) {
			/* Hand the batch on; the current piece moves to a new one. */
			nb = batch_new(r);
			nb->base = c->base + r->dstart;
			buf_add(&nb->data, p + r->dstart, len - r->dstart);
			r->nscan -= r->dstart;
			r->xscan -= r->dstart;
			r->dstart = 0;
			r->cur = nb;
			if (hand_on(r, c, 1) < 0)
				return -1;
			c = nb;
		} else if (!c->npc) {
			drop_consumed(r);	/* nothing kept before dstart */
		}
		if (c->data.len - r->dstart > MAX_DOC) {
			/* Report it after what came before, as a serial reader would. */
			if (drain(r) < 0 || consume_here(r, c) < 0)
				return -1;
			return error_off(r->path, (long long)(c->base + r->dstart),
					 "sample %zu: document larger than %zu MiB",
					 r->pf->docs + 1, MAX_DOC >> 20);
		}
		buf_grow(&c->data, READ_CHUNK);
		got = input_read(r->in, c->data.ptr + c->data.len, READ_CHUNK);
		if (got < 0)
			return -1;
		if (!got)
			eof = 1;
		c->data.len += (size_t)got;
		c->data.ptr[c->data.len] = '\0';
	}
}

/* ---- time: what the timestamps allow --------------------------------- */

/*
 * Timestamps have whole seconds: a sample's end E lies in [ts, ts + 1 s)
 * (formats.md §1.3), give or take TS_TOL for where in the sampling the
 * timestamp was taken.  The sampler's clock may drift against the wall
 * clock by DRIFT (crystals ~100 ppm, NTP slews at most 500 ppm).  So for
 * any two samples i < k on one chain of elapsed times C (cumulative ms),
 *     ts_k - ts_i  <  (1 + DRIFT) (C_k - C_i) + TS_RES + TS_TOL     (1)
 *     ts_k - ts_i  >  (1 - DRIFT) (C_k - C_i) - TS_RES - TS_TOL     (2)
 * With u = ts - (1 + DRIFT) C and v = ts - (1 - DRIFT) C these are
 * u_k < min u_i + TS_RES + TS_TOL and v_k > max v_i - TS_RES - TS_TOL,
 * one running minimum and maximum: every pair checked in O(n).
 *
 * (2) broken: elapsed_ns adds up to more time than passed (a sample too
 * long, a repeated one, a clock step back): an error.  (1) broken: time
 * passed that no sample covers: samples are missing (a hole), or
 * elapsed_ns is too short.  A hole is accepted when it is a whole number
 * of sampling intervals (each within GAP_VAR of its neighbours'), when
 * the timestamps place it within MAX_UNPLACED (a gradual disagreement
 * leaves a long stretch that fits either side), and when samples are
 * missing seldom (at most MAX_MISSING); else elapsed_ns and the
 * timestamps disagree: an error.  See gen/README.md.
 */
#define TS_RES 1000.0
#define TS_TOL 50.0
#define DRIFT 1e-3
#define GAP_VAR 0.1
#define MAX_MISSING(n) (1 + (n) / 20)
/* samples that fit either side of a hole span at most this (ms) */
#define MAX_UNPLACED 5000.0

/* Running extremes of u and v over a run of samples. */
struct span {
	double umin, umax, vmin, vmax;
	size_t vmax_at;		/* sample of vmax */
	double vmax_cum;	/* its C */
};

static void
span_start(struct span *sp, double u, double v, size_t i, double cum)
{
	sp->umin = sp->umax = u;
	sp->vmin = sp->vmax = v;
	sp->vmax_at = i;
	sp->vmax_cum = cum;
}

static void
span_add(struct span *sp, double u, double v, size_t i, double cum)
{
	if (u < sp->umin)
		sp->umin = u;
	if (u > sp->umax)
		sp->umax = u;
	if (v < sp->vmin)
		sp->vmin = v;
	if (v > sp->vmax) {
		sp->vmax = v;
		sp->vmax_at = i;
		sp->vmax_cum = cum;
	}
}

/* The extremes over samples [a, b] of pf; c[i] is C of sample i. */
static void
span_of(const struct power_file *pf, const double *c, size_t a, size_t b, struct span *sp)
{
	size_t i;

	span_start(sp, pf->s[a].ts_ms - (1 + DRIFT) * c[a], pf->s[a].ts_ms - (1 - DRIFT) * c[a],
		   a, c[a]);
	for (i = a + 1; i <= b; i++)
		span_add(sp, pf->s[i].ts_ms - (1 + DRIFT) * c[i],
			 pf->s[i].ts_ms - (1 - DRIFT) * c[i], i, c[i]);
}

static int
same_joules(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/*
 * The checks of the time axis (above), the holes of missing samples
 * (pf->holes, the samples next to them that could lie on either side
 * marked unplaced), and what the timestamps allow of the file's span
 * (start_hi, end_lo).  0, or -1 after a located diagnostic.
 */
static int
check_time(struct power_file *pf)
{
	struct psample *s = pf->s;
	size_t n = pf->n, i, m, nf = 0, nb = 0, af = 0, ab = 0, *fb = NULL, *bb = NULL;
	size_t missing = 0, lo, hi, ah = 0;
	double cum, u, v, total, umax, lo_ms, hi_ms, e, ms, kd, *c = NULL;
	struct span sp, before, after;
	int ret = -1, k;

	/* A document twice in a row. */
	for (i = 1; i < n; i++)
		if (s[i].ts_ms == s[i - 1].ts_ms && s[i].elapsed_ms == s[i - 1].elapsed_ms &&
		    same_joules(s[i].joules, s[i - 1].joules))
			return error_off(pf->path, (long long)s[i].off,
					 "sample %u repeats sample %u (the same timestamp, "
					 "elapsed_ns and energy)", s[i].no, s[i - 1].no);

	/* Forward: (2) on every pair within a run; a run ends where (1)
	 * breaks (fb: the first sample that must follow a hole). */
	cum = 0;
	for (i = 0; i < n; i++) {
		cum += s[i].elapsed_ms;
		u = s[i].ts_ms - (1 + DRIFT) * cum;
		v = s[i].ts_ms - (1 - DRIFT) * cum;
		if (i == 0) {
			span_start(&sp, u, v, i, cum);
			continue;
		}
		if (v <= sp.vmax - TS_RES - TS_TOL) {
			error_off(pf->path, (long long)s[i].off,
				  "sample %u: elapsed_ns disagrees with the timestamps: %.3f s of "
				  "samples since sample %u, but the timestamp moves %+.0f s",
				  s[i].no, (cum - sp.vmax_cum) / 1000, s[sp.vmax_at].no,
				  (s[i].ts_ms - s[sp.vmax_at].ts_ms) / 1000);
			goto out;
		}
		if (u >= sp.umin + TS_RES + TS_TOL) {
			ALLOC_GROW(fb, nf + 1, af);
			fb[nf++] = i;
			span_start(&sp, u, v, i, cum);
			continue;
		}
		span_add(&sp, u, v, i, cum);
	}
	total = cum;

	/* Backward: where (1) breaks seen from the end (bb: the last sample
	 * that must precede a hole). */
	cum = total;
	umax = 0;
	for (i = n; i-- > 0;) {
		u = s[i].ts_ms - (1 + DRIFT) * cum;
		cum -= s[i].elapsed_ms;
		if (i == n - 1) {
			umax = u;
		} else if (u <= umax - TS_RES - TS_TOL) {
			ALLOC_GROW(bb, nb + 1, ab);
			bb[nb++] = i;
			umax = u;
		} else if (u > umax) {
			umax = u;
		}
	}
	for (i = 0; i < nb / 2; i++) {
		m = bb[i];
		bb[i] = bb[nb - 1 - i];
		bb[nb - 1 - i] = m;
	}
	if (!nf && !nb) {
		/* one run: the forward pass saw it all */
		pf->start_hi = sp.vmin + TS_RES + TS_TOL;
		pf->end_lo = sp.vmax + (1 - DRIFT) * total - TS_TOL;
		ret = 0;
		goto out;
	}
	/* C of every sample, for the runs next to the holes and at the ends
	 * (so each sample is visited a bounded number of times) */
	c = xmalloc(n * sizeof(*c));
	for (i = 0, cum = 0; i < n; i++)
		c[i] = cum += s[i].elapsed_ms;
	if (nf > MAX_MISSING(n)) {
		error_off(pf->path, (long long)s[fb[0]].off,
			  "sample %u: elapsed_ns disagrees with the timestamps: they run ahead "
			  "of it in %zu places, at least %zu samples of %zu would be missing "
			  "(the timestamps advance %.3g s per s of elapsed_ns)", s[fb[0]].no,
			  nf, nf, n, (s[n - 1].ts_ms - s[0].ts_ms) / (total - s[0].elapsed_ms));
		goto out;
	}

	/* Each hole: the last sample surely before it, the first surely after. */
	for (m = 0; m < nf || m < nb; m++) {
		if (m >= nf || m >= nb || bb[m] >= fb[m] || (m && bb[m] < fb[m - 1])) {
			i = m < nf ? fb[m] : bb[m] + 1 < n ? bb[m] + 1 : bb[m];
			error_off(pf->path, (long long)s[i].off,
				  "sample %u: elapsed_ns disagrees with the timestamps: they run "
				  "ahead of it in a way missing samples do not explain", s[i].no);
			goto out;
		}
		lo = m ? fb[m - 1] : 0;
		hi = m + 1 < nb ? bb[m + 1] : n - 1;
		span_of(pf, c, lo, bb[m], &before);
		span_of(pf, c, fb[m], hi, &after);
		/* what the pairs across the hole allow of its length */
		lo_ms = after.umax - before.umin - TS_RES - TS_TOL;
		hi_ms = after.vmin - before.vmax + TS_RES + TS_TOL;
		e = (s[bb[m]].elapsed_ms + s[fb[m]].elapsed_ms) / 2;
		kd = fmax(1, ceil(lo_ms / ((1 + GAP_VAR) * e)));
		k = kd <= 1e6 ? (int)kd : 0;
		if (!(hi_ms > lo_ms) || !k || !(k * e * (1 - GAP_VAR) < hi_ms)) {
			error_off(pf->path, (long long)s[fb[m]].off,
				  "sample %u: elapsed_ns disagrees with the timestamps: after "
				  "sample %u they run %.2f to %.2f s ahead of it, not a whole "
				  "number of %.3f s samples", s[fb[m]].no, s[bb[m]].no,
				  lo_ms / 1000, hi_ms / 1000, e / 1000);
			goto out;
		}
		for (i = bb[m] + 1, ms = 0; i < fb[m]; i++)
			ms += s[i].elapsed_ms;
		if (ms > MAX_UNPLACED) {
			error_off(pf->path, (long long)s[fb[m]].off,
				  "sample %u: elapsed_ns disagrees with the timestamps: they run "
				  "ahead of it from sample %u on, over %.1f s, not at one place "
				  "where samples could be missing", s[fb[m]].no, s[bb[m]].no,
				  (ms + s[bb[m]].elapsed_ms) / 1000);
			goto out;
		}
		missing += (size_t)k;
		/* k intervals if the timestamps allow, else what they allow of it */
		ms = k * e;
		if (!(ms > lo_ms && ms < hi_ms)) {
			double a = fmax(lo_ms, k * e * (1 - GAP_VAR)),
			       b = fmin(hi_ms, k * e * (1 + GAP_VAR));

			ms = (a + b) / 2;
		}
		ALLOC_GROW(pf->holes, pf->nholes + 1, ah);
		pf->holes[pf->nholes].at = fb[m];
		pf->holes[pf->nholes].ms = ms;
		pf->holes[pf->nholes].lo_ms = lo_ms;
		pf->holes[pf->nholes].hi_ms = hi_ms;
		pf->holes[pf->nholes].missing = k;
		pf->holes[pf->nholes].unplaced = fb[m] - bb[m] - 1;
		pf->nholes++;
		for (i = bb[m] + 1; i < fb[m]; i++) {
			s[i].unplaced = 1;
			s[i].joules = NAN;
		}
	}
	if (missing > MAX_MISSING(n)) {
		error_off(pf->path, (long long)s[fb[0]].off,
			  "sample %u: elapsed_ns disagrees with the timestamps: they run ahead "
			  "of it in %zu places, at least %zu samples of %zu would be missing "
			  "(the timestamps advance %.3g s per s of elapsed_ns)", s[fb[0]].no,
			  nf, missing, n, (s[n - 1].ts_ms - s[0].ts_ms) / (total - s[0].elapsed_ms));
		goto out;
	}

	/* The span: the first sample starts before start_hi, the last ends
	 * after end_lo (the runs at the ends, by (1) and (2)). */
	span_of(pf, c, 0, nf ? fb[0] - 1 : n - 1, &sp);
	pf->start_hi = sp.vmin + TS_RES + TS_TOL;
	span_of(pf, c, nb ? bb[nb - 1] + 1 : 0, n - 1, &sp);
	pf->end_lo = sp.vmax + (1 - DRIFT) * total - TS_TOL;
	ret = 0;
out:
	free(fb);
	free(bb);
	free(c);
	if (ret < 0) {
		free(pf->holes);
		pf->holes = NULL;
		pf->nholes = 0;
	}
	return ret;
}

/* POWER_PARSE_* from power_parse_mode, else from $ERG_POWER_PARSER. */
static int
parse_mode(void)
{
	const char *e;

	if (power_parse_mode != POWER_PARSE_AUTO)
		return power_parse_mode;
	e = getenv("ERG_POWER_PARSER");
	if (!e || !*e || !strcmp(e, "auto"))
		return POWER_PARSE_AUTO;
	if (!strcmp(e, "serial"))
		return POWER_PARSE_SERIAL;
	if (!strcmp(e, "libplist"))
		return POWER_PARSE_LIBPLIST;
	return POWER_PARSE_AUTO;
}

int
power_read(const char *path, struct power_file *pf)
{
	struct reader r;
	struct batch *b;
	size_t i;
	int ret, mode = parse_mode();

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->fit_b = 1;
	memset(&r, 0, sizeof(r));
	r.path = path;
	r.pf = pf;
	r.scan = mode != POWER_PARSE_LIBPLIST;
	buf_init(&r.stray, 0);
	r.in = input_open_digest(path, input_max_stream);
	if (!r.in) {
		power_file_free(pf);
		return -1;
	}
	pf->gzip = input_is_gzip(r.in);
	/*
	 * The digest of a big plain file, on input.c's helper thread, is as
	 * much work as parsing it and cannot be split: leave it a core.  With
	 * one worker too many, three threads share two cores and the digest
	 * gets two thirds of one (0.21 s instead of 0.17 s for 221 MB on two
	 * cores).  For gzip it is a fraction of inflating: not counted.
	 */
	r.workers = mode == POWER_PARSE_AUTO ?
		(power_threads > 0 ? power_threads :
		 online_cpus() - (input_digest_thread(r.in) && !pf->gzip)) - 1 : 0;
	if (r.workers < 0)
		r.workers = 0;
	r.cur = batch_new(&r);

	ret = read_stream(&r);
	pipe_stop(&r);
	if (!ret && r.pend) {
		if (r.pend_complete) {
			ret = pending_error(&r);
		} else {
			warn_off(path, (long long)r.pend_off,
				 "sample %zu: truncated document at the end of the file dropped",
				 r.pend_no);
			pf->dropped++;
		}
	}
	if (!ret && r.stray_docs > 1)
		warn_at(path, 0, "ignored stray text in %zu other sample%s too",
			r.stray_docs - 1, r.stray_docs == 2 ? "" : "s");
	/* The stream was read to its end, so this cannot fail; if it did,
	 * sha256 stays "" and the caller digests the file itself. */
	if (!ret && input_digest(r.in, pf->sha256, &pf->file_bytes))
		pf->sha256[0] = '\0';
	input_close(r.in);
	if (r.cur)
		batch_free(r.cur);
	while ((b = r.spare)) {
		r.spare = b->next;
		batch_free(b);
	}
	pfast_free(&r.scratch);
	pf_walk_free(&r.walk);
	buf_release(&r.stray);
	free(r.nhash);
	if (!ret && !pf->n)
		ret = error_at(path, 0, "no powermetrics samples in the file%s",
			       pf->docs ? " (every document was dropped)" : "");
	if (!ret)
		ret = check_time(pf);
	if (ret < 0) {
		free(r.toff);
		power_file_free(pf);
		return -1;
	}
	/* One domain: the processor block's energy (cpu + gpu + ane, or
	 * what stands in for it, enum psrc), joules itself; or without the
	 * cpu_power sampler the GPU's alone. */
	pf->source = "powermetrics";
	if (r.gpu_only && r.proc_dict) {
		for (i = 0; i < pf->n; i++)
			if (pf->s[i].src == PSRC_GPU) {
				pf->s[i].joules = NAN;
				pf->s[i].src = PSRC_NONE;
			}
		r.gpu_only = 0;
	}
	if (r.gpu_only) {
		pf->caveat = "Apple's estimate of GPU energy alone (no cpu_power sampler): no "
			     "CPU, ANE, DRAM, display, SSD, radios, VRM or charger losses";
		power_add_domain(pf, "gpu", 1);
	} else {
		pf->caveat = "Apple's estimate of SoC compute energy (CPU, GPU, ANE): no DRAM, "
			     "display, SSD, radios, VRM or charger losses";
		power_add_domain(pf, "processor", 1);
	}
	if (r.any_tasks) {
		ALLOC_GROW(r.toff, pf->n + 1, r.atoff);
		r.toff[pf->n] = pf->ntasks;
		pf->task_off = r.toff;
	} else {
		free(r.toff);
		free(pf->tasks);
		pf->tasks = NULL;
		pf->ntasks = pf->atasks = 0;
	}
	return 0;
}

