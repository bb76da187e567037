/*
 * plistfast.h - the fast path of the powermetrics reader: one pass over
 * the bytes of one XML plist document that takes only what power.c needs,
 * or says "not recognised" so that power.c parses the document with
 * libplist (the reference) instead.
 *
 * pf_scan() accepts a strict subset of what libplist 2.2.0 reads, and for
 * every document it accepts, its values are exactly those power.c's
 * libplist path takes from the same bytes: both read the numbers and the
 * date of the element's text with the one grammar below (libplist's own
 * reading is looser), and a duplicate of a key erg reads is refused by
 * both (here: not recognised; libplist keeps the last one, pf_walk()
 * finds it).  Anything unusual is not recognised, never guessed at; see
 * enum pf_status for what, and plistfast.c for why.
 *
 * The scanner allocates nothing per element (tasks grow one array, reused
 * from document to document), holds no global state and may run on many
 * threads at once, each with its own struct pfast.
 */
#ifndef ERG_PLISTFAST_H
#define ERG_PLISTFAST_H

#include <stddef.h>
#include <stdint.h>

/* Why a document was not recognised (PF_OK: it was). */
enum pf_status {
	PF_OK = 0,
	PF_END,		/* the document ends before its top-level dict closes */
	PF_TEXT,	/* text between elements (libplist rejects it; power.c's
			 * stray-text retry handles it) */
	PF_MARKUP,	/* markup outside the subset: an element other than dict,
			 * array, key, string, integer, real, date, true/, false/
			 * (data included), attributes or spaces inside a tag, a
			 * self-closing leaf, CDATA, a comment inside a value, a
			 * DOCTYPE with an internal subset, <plist> twice ... */
	PF_STRUCT,	/* a dict entry without key, a key without value, a key
			 * in an array, a top level that is not one dict,
			 * nesting deeper than PF_MAX_DEPTH */
	PF_ENTITY,	/* '&' in a key or string (an entity: libplist decodes
			 * or rejects it) */
	PF_TYPE,	/* an extracted key with a value of another type */
	PF_VALUE,	/* an extracted value outside the grammar or range: an
			 * integer not in pf_int_literal() form (octal, hex,
			 * spaces, beyond int64), a real not in pf_real_literal()
			 * form, a negative quantity, elapsed_ns <= 0, a date not
			 * YYYY-MM-DDTHH:MM:SSZ in 1970..2037, an unknown
			 * thermal_pressure, a pid out of int32, a task without
			 * pid */
	PF_DUP,		/* an extracted key twice in one dict */
	PF_NSTATUS
};

/* Numbers of the "processor" dict, in power.c's order of preference. */
enum pf_proc {
	PF_CPU_ENERGY, PF_GPU_ENERGY, PF_ANE_ENERGY,
	PF_COMBINED_POWER, PF_CPU_POWER, PF_GPU_POWER, PF_ANE_POWER,
	PF_PACKAGE_JOULES, PF_PACKAGE_WATTS,
	PF_NPROC
};

/* pfast.has bits */
#define PF_HAS_ELAPSED	(1u << 0)
#define PF_HAS_TS	(1u << 1)
#define PF_HAS_PROC	(1u << 2)	/* a "processor" dict */
#define PF_HAS_TASKS	(1u << 3)	/* a top-level "tasks" or "coalitions" */
#define PF_HAS_HW	(1u << 4)
#define PF_HAS_OS	(1u << 5)
#define PF_HAS_GPU	(1u << 6)	/* a "gpu" dict (the gpu_power sampler) */
#define PF_HAS_GPU_ENERGY (1u << 7)	/* gpu.gpu_energy */
#define PF_HAS_NUM(k)	(1u << (8 + (k)))	/* processor number k (enum pf_proc) */

/* A task, every one (power.c decides which to keep). */
struct pf_task {
	double cpu_ns;		/* 0 if absent */
	double p_ns;		/* NAN if absent */
	int32_t pid;
	uint32_t name_len;	/* name: doc[name_off .. +name_len); "" if absent */
	size_t name_off;
};

struct pfast {
	unsigned has;		/* PF_HAS_* */
	double elapsed_ns;
	int32_t ts_sec;		/* timestamp, seconds since 2001-01-01 (plist_get_date_val) */
	int32_t ts_usec;	/* always 0: dates have whole seconds */
	double num[PF_NPROC];	/* processor numbers, where PF_HAS_NUM */
	/* processor.clusters[]: freq_hz sums and counts of the named clusters
	 * with a freq_hz, by class 0 'S', 1 'P', 2 'M', 3 'E', in array order */
	double csum[4];
	size_t ccnt[4];
	/* the first counted cluster's name of each class: doc offset, length */
	size_t cname_off[4];
	uint32_t cname_len[4];
	signed char thermal;	/* THERMAL_* of power.h, THERMAL_ABSENT if no key */
	size_t hw_off, os_off;	/* hw_model, kern_osversion: doc offsets ... */
	uint32_t hw_len, os_len; /* ... and lengths, where PF_HAS_HW / PF_HAS_OS */
	double gpu_energy;	/* gpu.gpu_energy (mJ), where PF_HAS_GPU_ENERGY */
	unsigned samplers;	/* PF_SMP_* of the top-level keys present */
	/* The tasks of the top-level "tasks", else of every coalition's
	 * "tasks", in document order.  The array is reused by the next scan. */
	struct pf_task *tasks;
	size_t ntasks, atasks;
	/* scratch */
	unsigned char *coal;	/* per task: came from a coalition */
	size_t acoal;
};

#define PFAST_INIT { 0 }

/*
 * The grammar of the values erg reads, the same for both paths (see
 * plistfast.c): pf_int_literal() [+-]?(0|[1-9][0-9]*) in int64 range (0;
 * -1 not a number; 1 at least 2^63; 2 below -2^63), pf_real_literal() a
 * decimal literal strtod() reads whole, p[n] not part of it (0; -1 not a
 * number; 1 beyond a double), pf_date_literal() YYYY-MM-DDTHH:MM:SSZ from
 * 1970 to 2037 as seconds since 2001 (0, or -1).  The text is the whole
 * content of the element: no space, comment or CDATA around the literal.
 */
int pf_int_literal(const char *p, size_t n, int64_t *out);
int pf_real_literal(const char *p, size_t n, double *out);
int pf_date_literal(const char *p, size_t n, int32_t *sec);

/* The values pf_walk() locates: a pf_item's field. */
enum pf_field {
	PFF_ELAPSED, PFF_TIMESTAMP,
	PFF_PROC,				/* + enum pf_proc */
	PFF_FREQ = PFF_PROC + PF_NPROC,		/* processor.clusters[idx].freq_hz */
	PFF_GPU_ENERGY,				/* gpu.gpu_energy */
	PFF_PID, PFF_CPU, PFF_PTIME,		/* tasks[idx] (coal 0) or
						 * coalitions[coal - 1].tasks[idx] */
	PFF_N
};

enum { PF_TAG_INTEGER = 1, PF_TAG_REAL, PF_TAG_DATE };

/* Where one such value is in the document. */
struct pf_item {
	uint32_t field, coal, idx;	/* enum pf_field and indices, as above */
	unsigned char tag;		/* PF_TAG_*: its element */
	unsigned char plain;		/* no comment or CDATA inside the element */
	size_t key_off;			/* '<' of its <key> */
	size_t text_off, text_len;	/* the element's content */
};

struct pf_wnode;

struct pf_walk {
	struct pf_item *it;	/* sorted by field, coal, idx */
	size_t n, alloc;
	const char *dup;	/* the first key erg reads that occurs twice in
				 * one dict ("processor.cpu_energy"), or NULL */
	size_t dup_off;		/* '<' of its second <key> */
	const char *dup_gpu;	/* the same for "gpu" and "gpu.gpu_energy", read
				 * only without a processor dict */
	size_t dup_gpu_off;
	struct pf_wnode *nodes;	/* scratch */
	size_t nnodes, anodes;
};

#define PF_WALK_INIT { 0 }

/*
 * For power.c's libplist path: walk doc[0..len), a document libplist
 * accepted, as libplist does, and find the elements of the numbers and
 * the date erg reads (libplist has converted them) and the first
 * duplicate of a key erg reads (libplist keeps the last silently).
 * Returns 0, or -1 if the bytes do not follow libplist's rules (which
 * libplist's acceptance excludes).  Allocates; not for the fast path.
 */
int pf_walk(const char *doc, size_t len, struct pf_walk *w);
/* The item of field at (coal, idx), or NULL. */
const struct pf_item *pf_walk_find(const struct pf_walk *w, int field, uint32_t coal,
				   uint32_t idx);
void pf_walk_free(struct pf_walk *w);	/* back to PF_WALK_INIT */
#define PF_MAX_DEPTH 64

/*
 * Scan doc[0..len) (one trimmed document of the stream).  The bytes need
 * no terminator.  Returns PF_OK with *out filled, or the reason it was not
 * recognised (out is then unspecified, but stays valid to free or reuse).
 */
int pf_scan(const char *doc, size_t len, struct pfast *out);
void pfast_free(struct pfast *f);	/* back to PFAST_INIT */

/*
 * The samplers a document's top-level keys show (powermetrics -s): one
 * bit each, in the order pf_sampler_name() names them.  Keys of no known
 * sampler set none.
 */
enum {
	PF_SMP_CPU_POWER = 1 << 0,	/* processor */
	PF_SMP_GPU_POWER = 1 << 1,	/* gpu (Apple silicon), GPU (Intel) */
	PF_SMP_THERMAL = 1 << 2,	/* thermal_pressure */
	PF_SMP_TASKS = 1 << 3,		/* tasks, all_tasks, coalitions */
	PF_SMP_BATTERY = 1 << 4,
	PF_SMP_NETWORK = 1 << 5,
	PF_SMP_DISK = 1 << 6,
	PF_SMP_INTERRUPTS = 1 << 7,
	PF_SMP_SFI = 1 << 8,
	PF_NSMP = 9
};
unsigned pf_sampler_bit(const char *key, size_t n);
const char *pf_sampler_name(int i);	/* of bit 1 << i: "cpu_power" ... */

/* A short name of a status ("text between elements"). */
const char *pf_status_name(int status);

/*
 * THERMAL_* level of a thermal_pressure string s[0..len), or -2 if
 * unknown (power.c warns; the fast path does not recognise it).
 */
int pf_thermal_level(const char *s, size_t len);

#endif
