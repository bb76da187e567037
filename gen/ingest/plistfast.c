/*
 * plistfast.c - the fast path of the powermetrics reader (plistfast.h).
 *
 * A tokenizer over one document: it walks the tags in order, keeps a stack
 * of the open dicts and arrays with, for each, what it is (the top-level
 * dict, "processor", its "clusters", one cluster, "tasks", one task ...;
 * everything else is "other" and only checked), and takes the values of
 * the keys power.c reads.  No tree, no copies: strings are offsets into
 * the document.
 *
 * It accepts a strict subset of what libplist 2.2.0 accepts: its parser
 * (src/xplist.c) was read for this, each rule below was tried on the
 * installed 2.2.0, and tests/unit/test_plistfast.c compares the two on
 * every real document and on thousands of mutated ones.  What libplist
 * does with the accepted subset, and so what this file must do:
 *
 *   - Between tags it skips ' ', '\t', '\r', '\n' only; any other text
 *     fails the parse (power.c then blanks it and retries): PF_TEXT.
 *   - Comments between tags, processing instructions and a DOCTYPE
 *     without internal subset are skipped; quoted strings inside the
 *     latter two are skipped as libplist's find_str()/find_next() do.
 *   - Parsing ends when the top-level container closes: whatever follows
 *     (normally "</plist>") is never looked at, by libplist or here.
 *   - <integer>: optional sign, then strtoull(text, NULL, 0), so "010" is
 *     8 and "0x10" 16; the text ends at the first non-digit.  erg's
 *     grammar (int_literal(), both paths) is [+-]?(0|[1-9][0-9]*) in
 *     int64 range; the libplist path reads the same text (pf_walk()).
 *   - <real>: atof(text).  Here strtod() on the same bytes, which is what
 *     atof() is, accepted only when it consumes all of them and they are
 *     a decimal literal (real_literal(), both paths).
 *   - <date>: strptime("%Y-%m-%dT%H:%M:%SZ") + timegm, kept as a double of
 *     seconds since 2001 that plist_get_date_val() truncates to int32
 *     (dates before 1932-12-13 or after 2069-01-19 overflow it), and
 *     impossible days (February 30) normalised.  Accepted here: exactly
 *     YYYY-MM-DDTHH:MM:SSZ with a real calendar day, 1970..2037 (no
 *     century rule to apply), seconds 0..59.
 *   - <key>/<string>: entities decoded (an unknown one fails the parse):
 *     any '&' is PF_ENTITY here.
 *   - Duplicate keys: the last value wins (plist_dict_set_item replaces).
 *     A duplicate of a key this file extracts is PF_DUP, and an error of
 *     the libplist path (pf_walk() finds it).
 *   - A key with no value before </dict> is dropped, a key right after a
 *     key becomes the first one's string value, a key in an array is a
 *     string: all PF_STRUCT here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/plistfast.h"
#include "model/power.h"
#include "base/util.h"

/* What an open container is. */
enum {
	C_OTHER, C_ROOT, C_PROC, C_CLUSTERS, C_CLUSTER, C_TASKS, C_CTASKS,
	C_TASK, C_COALS, C_COAL, C_GPU
};

/* The keys (and array elements) whose values are taken; K_SKIP: others. */
enum {
	K_SKIP = 0,
	K_ROOT,				/* the top-level value */
	K_ELAPSED, K_TIMESTAMP, K_PROCESSOR, K_THERMAL, K_HW, K_OS, K_TASKS, K_COALS,
	K_NUM0,				/* processor numbers: K_NUM0 + enum pf_proc */
	K_CLUSTERS = K_NUM0 + PF_NPROC,
	K_CNAME, K_FREQ,		/* in a cluster */
	K_PID, K_TNAME, K_CPU, K_PTIME,	/* in a task */
	K_CTASKS,			/* a coalition's "tasks" */
	K_E_CLUSTER, K_E_TASK, K_E_COAL, /* elements of clusters, tasks, coalitions */
	K_GPU, K_GPU_ENERGY,		/* "gpu", its "gpu_energy" */
	K_N
};

/* The type each key wants. */
enum { T_ANY, T_NUM, T_INT, T_DATE, T_STR, T_DICT, T_ARRAY };

static const unsigned char want[K_N] = {
	[K_SKIP] = T_ANY, [K_ROOT] = T_DICT,
	[K_ELAPSED] = T_NUM, [K_TIMESTAMP] = T_DATE, [K_PROCESSOR] = T_DICT,
	[K_THERMAL] = T_STR, [K_HW] = T_STR, [K_OS] = T_STR, [K_TASKS] = T_ARRAY,
	[K_COALS] = T_ARRAY,
	[K_NUM0 + PF_CPU_ENERGY] = T_NUM, [K_NUM0 + PF_GPU_ENERGY] = T_NUM,
	[K_NUM0 + PF_ANE_ENERGY] = T_NUM, [K_NUM0 + PF_COMBINED_POWER] = T_NUM,
	[K_NUM0 + PF_CPU_POWER] = T_NUM, [K_NUM0 + PF_GPU_POWER] = T_NUM,
	[K_NUM0 + PF_ANE_POWER] = T_NUM, [K_NUM0 + PF_PACKAGE_JOULES] = T_NUM,
	[K_NUM0 + PF_PACKAGE_WATTS] = T_NUM,
	[K_CLUSTERS] = T_ARRAY, [K_CNAME] = T_STR, [K_FREQ] = T_NUM,
	[K_PID] = T_INT, [K_TNAME] = T_STR, [K_CPU] = T_NUM, [K_PTIME] = T_NUM,
	[K_CTASKS] = T_ARRAY,
	[K_E_CLUSTER] = T_DICT, [K_E_TASK] = T_DICT, [K_E_COAL] = T_DICT,
	[K_GPU] = T_DICT, [K_GPU_ENERGY] = T_NUM,
};

/* The container a key's dict or array value opens. */
static const unsigned char opens[K_N] = {
	[K_ROOT] = C_ROOT, [K_PROCESSOR] = C_PROC, [K_TASKS] = C_TASKS,
	[K_COALS] = C_COALS, [K_CLUSTERS] = C_CLUSTERS, [K_CTASKS] = C_CTASKS,
	[K_E_CLUSTER] = C_CLUSTER, [K_E_TASK] = C_TASK, [K_E_COAL] = C_COAL,
	[K_GPU] = C_GPU,
};

/* What the elements of an array are. */
static const unsigned char element[] = {
	[C_OTHER] = K_SKIP, [C_CLUSTERS] = K_E_CLUSTER, [C_TASKS] = K_E_TASK,
	[C_CTASKS] = K_E_TASK, [C_COALS] = K_E_COAL,
};

_Static_assert(K_N <= 32, "struct lvl.seen has a bit per key");

struct lvl {
	unsigned char dict;	/* dict, else array */
	unsigned char ctx;	/* C_* */
	unsigned char haskey;	/* a key waits for its value */
	unsigned char key;	/* that key's K_* */
	uint32_t seen;		/* extracted keys seen in this dict (1 << K_*) */
};

/* The scan of one document. */
struct scan {
	struct pfast *out;
	const char *doc;
	/* the open cluster */
	int cl_name, cl_freq;
	char cl_first;
	size_t cl_off;		/* its name: doc offset, length */
	uint32_t cl_len;
	double cl_hz;
	/* the open task */
	int t_pid, t_coal;
	int32_t pid;
	double cpu, p;
	size_t name_off;
	uint32_t name_len;
	/* top-level "tasks" and "coalitions" seen */
	int top_tasks, coals;
};

static const char *const status_names[PF_NSTATUS] = {
	[PF_OK] = "recognised",
	[PF_END] = "document ends early",
	[PF_TEXT] = "text between elements",
	[PF_MARKUP] = "markup outside the subset",
	[PF_STRUCT] = "unusual structure",
	[PF_ENTITY] = "entity in a key or string",
	[PF_TYPE] = "extracted key of another type",
	[PF_VALUE] = "extracted value outside the plain form",
	[PF_DUP] = "extracted key twice",
};

const char *
pf_status_name(int status)
{
	return status >= 0 && status < PF_NSTATUS ? status_names[status] : "?";
}

int
pf_thermal_level(const char *s, size_t len)
{
	static const struct { const char *name; signed char level; } lv[] = {
		{ "Nominal", THERMAL_NOMINAL }, { "Light", THERMAL_LIGHT },
		{ "Moderate", THERMAL_MODERATE }, { "Heavy", THERMAL_HEAVY },
		{ "Critical", THERMAL_CRITICAL },
		/* The kernel's names for the levels past Heavy. */
		{ "Trapping", THERMAL_CRITICAL }, { "Sleeping", THERMAL_CRITICAL },
	};
	size_t i;

	for (i = 0; i < sizeof(lv) / sizeof(lv[0]); i++)
		if (strlen(lv[i].name) == len && !memcmp(lv[i].name, s, len))
			return lv[i].level;
	return -2;
}

#define EQ(k, n, lit) ((n) == sizeof(lit) - 1 && !memcmp((k), (lit), sizeof(lit) - 1))

unsigned
pf_sampler_bit(const char *k, size_t n)
{
	/* (formats.md §1.3: which sampler writes which top-level key) */
	if (EQ(k, n, "processor")) return PF_SMP_CPU_POWER;
	if (EQ(k, n, "gpu") || EQ(k, n, "GPU")) return PF_SMP_GPU_POWER;
	if (EQ(k, n, "thermal_pressure")) return PF_SMP_THERMAL;
	if (EQ(k, n, "tasks") || EQ(k, n, "all_tasks") || EQ(k, n, "coalitions"))
		return PF_SMP_TASKS;
	if (EQ(k, n, "battery")) return PF_SMP_BATTERY;
	if (EQ(k, n, "network")) return PF_SMP_NETWORK;
	if (EQ(k, n, "disk")) return PF_SMP_DISK;
	if (EQ(k, n, "interrupts")) return PF_SMP_INTERRUPTS;
	if (EQ(k, n, "sfi")) return PF_SMP_SFI;
	return 0;
}

const char *
pf_sampler_name(int i)
{
	static const char *const name[PF_NSMP] = {
		"cpu_power", "gpu_power", "thermal", "tasks", "battery", "network", "disk",
		"interrupts", "sfi",
	};

	return i >= 0 && i < PF_NSMP ? name[i] : "?";
}

void
pfast_free(struct pfast *f)
{
	free(f->tasks);
	free(f->coal);
	memset(f, 0, sizeof(*f));
}

/* pf_scan()'s hot path, also called by pf_walk(): keep it inlined there. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

/* K_* of key k[0..n) in a container of kind ctx. */
static HOT_INLINE int
key_id(int ctx, const char *k, size_t n)
{
	switch (ctx) {
	case C_ROOT:
		if (EQ(k, n, "elapsed_ns")) return K_ELAPSED;
		if (EQ(k, n, "timestamp")) return K_TIMESTAMP;
		if (EQ(k, n, "processor")) return K_PROCESSOR;
		if (EQ(k, n, "thermal_pressure")) return K_THERMAL;
		if (EQ(k, n, "hw_model")) return K_HW;
		if (EQ(k, n, "kern_osversion")) return K_OS;
		if (EQ(k, n, "tasks")) return K_TASKS;
		if (EQ(k, n, "coalitions")) return K_COALS;
		if (EQ(k, n, "gpu")) return K_GPU;
		return K_SKIP;
	case C_GPU:
		if (EQ(k, n, "gpu_energy")) return K_GPU_ENERGY;
		return K_SKIP;
	case C_PROC:
		if (EQ(k, n, "clusters")) return K_CLUSTERS;
		if (EQ(k, n, "cpu_energy")) return K_NUM0 + PF_CPU_ENERGY;
		if (EQ(k, n, "gpu_energy")) return K_NUM0 + PF_GPU_ENERGY;
		if (EQ(k, n, "ane_energy")) return K_NUM0 + PF_ANE_ENERGY;
		if (EQ(k, n, "combined_power")) return K_NUM0 + PF_COMBINED_POWER;
		if (EQ(k, n, "cpu_power")) return K_NUM0 + PF_CPU_POWER;
		if (EQ(k, n, "gpu_power")) return K_NUM0 + PF_GPU_POWER;
		if (EQ(k, n, "ane_power")) return K_NUM0 + PF_ANE_POWER;
		if (EQ(k, n, "package_joules")) return K_NUM0 + PF_PACKAGE_JOULES;
		if (EQ(k, n, "package_watts")) return K_NUM0 + PF_PACKAGE_WATTS;
		return K_SKIP;
	case C_CLUSTER:
		if (EQ(k, n, "name")) return K_CNAME;
		if (EQ(k, n, "freq_hz")) return K_FREQ;
		return K_SKIP;
	case C_TASK:
		if (EQ(k, n, "pid")) return K_PID;
		if (EQ(k, n, "name")) return K_TNAME;
		if (EQ(k, n, "cputime_ns")) return K_CPU;
		if (EQ(k, n, "ptime_ns")) return K_PTIME;
		return K_SKIP;
	case C_COAL:
		if (EQ(k, n, "tasks")) return K_CTASKS;
		return K_SKIP;
	default:
		return K_SKIP;
	}
}

/*
 * The one integer grammar of both paths: an optional sign and decimal
 * digits without a leading zero, [+-]?(0|[1-9][0-9]*), in int64 range.
 * libplist reads "010" as 8 and "0x10" as 16 (strtoull base 0), skips
 * leading space and stops at the first non-digit, so "12abc" is 12 and
 * "" or "abc" 0: all of that is "not a number" here.  Returns 0 with
 * *out, -1 for not a number, 1 for 2^63 or more, 2 for less than -2^63.
 */
static inline int
int_literal(const char *p, size_t n, int64_t *out)
{
	uint64_t v = 0;
	int neg = 0;
	size_t i;

	if (n && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		p++;
		n--;
	}
	if (!n || (p[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if ((unsigned)(p[i] - '0') > 9)
			return -1;
		v = v * 10 + (uint64_t)(p[i] - '0');	/* exact up to 19 digits */
	}
	if (n > 19)
		return neg ? 2 : 1;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return 2;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
		return 0;
	}
	if (v > (uint64_t)INT64_MAX)
		return 1;
	*out = (int64_t)v;
	return 0;
}

/*
 * The one real grammar: a decimal literal, with exponent or not, that
 * strtod() reads whole (libplist reads atof() of the same text, so the
 * value is bit-identical) and that is finite.  Besides decimal literals
 * strtod takes leading space, "inf", "infinity", "nan" and hex floats (C
 * locale): a first byte that is a digit, '.' or a sign rules out the
 * space and, but for the sign, the words, whose values are not finite;
 * "0x" after the sign is left.  p[n] must not continue a number (it is
 * the '<' of the closing tag).  Returns 0 with *out, -1 for not a
 * number, 1 for a literal beyond the range of a double.
 */
static inline int
real_literal(const char *p, size_t n, double *out)
{
	const char *q = p;
	char *e;

	if (!n || !((unsigned)(p[0] - '0') <= 9 || p[0] == '.' || p[0] == '+' || p[0] == '-'))
		return -1;
	*out = strtod(p, &e);
	if (e != p + n)
		return -1;
	if (*q == '+' || *q == '-')
		q++;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		return -1;
	if (isfinite(*out))
		return 0;
	return (unsigned)(q[0] - '0') <= 9 || q[0] == '.' ? 1 : -1;
}

int
pf_int_literal(const char *p, size_t n, int64_t *out)
{
	return int_literal(p, n, out);
}

int
pf_real_literal(const char *p, size_t n, double *out)
{
	return real_literal(p, n, out);
}

static int
digits(const char *p, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* YYYY-MM-DDTHH:MM:SSZ, 1970..2037, as seconds since 2001-01-01. */
static inline int
date_literal(const char *p, size_t n, int32_t *sec)
{
	static const int before[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, s, leap;
	int64_t days;

	if (n != 20 || p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' ||
	    p[16] != ':' || p[19] != 'Z')
		return -1;
	y = digits(p, 4);
	mo = digits(p + 5, 2);
	d = digits(p + 8, 2);
	h = digits(p + 11, 2);
	mi = digits(p + 14, 2);
	s = digits(p + 17, 2);
	if (y < 1970 || y > 2037 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || s < 0 || s > 59)
		return -1;
	/* No century rule applies between 1970 and 2037 (2000 is a leap year). */
	leap = y % 4 == 0;
	if (d > mdays[mo - 1] + (mo == 2 && leap))
		return -1;
	days = (int64_t)365 * (y - 1970) + (y - 1969) / 4 + before[mo - 1] +
	       (mo > 2 && leap) + d - 1;
	*sec = (int32_t)(days * 86400 + h * 3600 + mi * 60 + s - 978307200);
	return 0;
}

int
pf_date_literal(const char *p, size_t n, int32_t *sec)
{
	return date_literal(p, n, sec);
}

static int
add_task(struct scan *sc)
{
	struct pfast *o = sc->out;
	struct pf_task *t;

	ALLOC_GROW(o->tasks, o->ntasks + 1, o->atasks);
	if (o->acoal < o->atasks) {
		o->coal = xrealloc(o->coal, o->atasks);
		o->acoal = o->atasks;
	}
	t = &o->tasks[o->ntasks];
	t->cpu_ns = sc->cpu;
	t->p_ns = sc->p;
	t->pid = sc->pid;
	t->name_off = sc->name_off;
	t->name_len = sc->name_len;
	o->coal[o->ntasks++] = (unsigned char)sc->t_coal;
	return 0;
}

/* A number for key k. */
static int
put_num(struct scan *sc, int k, double v, int is_int, int64_t iv)
{
	struct pfast *o = sc->out;

	if (!isfinite(v) || v < 0) {
		/* pids are the only negative values taken */
		if (k != K_PID || !is_int)
			return PF_VALUE;
	}
	switch (k) {
	case K_ELAPSED:
		if (!(v > 0))
			return PF_VALUE;
		o->elapsed_ns = v;
		o->has |= PF_HAS_ELAPSED;
		return PF_OK;
	case K_FREQ:
		sc->cl_hz = v;
		sc->cl_freq = 1;
		return PF_OK;
	case K_PID:
		if (!is_int || iv < INT32_MIN || iv > INT32_MAX)
			return PF_VALUE;
		sc->pid = (int32_t)iv;
		sc->t_pid = 1;
		return PF_OK;
	case K_CPU:
		sc->cpu = v;
		return PF_OK;
	case K_PTIME:
		sc->p = v;
		return PF_OK;
	case K_GPU_ENERGY:
		o->gpu_energy = v;
		o->has |= PF_HAS_GPU_ENERGY;
		return PF_OK;
	default:
		if (k >= K_NUM0 && k < K_NUM0 + PF_NPROC) {
			o->num[k - K_NUM0] = v;
			o->has |= PF_HAS_NUM(k - K_NUM0);
			return PF_OK;
		}
		return PF_TYPE;	/* not reached: want[] says T_NUM */
	}
}

/* A string doc[off..+n) for key k. */
static int
put_str(struct scan *sc, int k, size_t off, size_t n)
{
	struct pfast *o = sc->out;
	const char *s = sc->doc + off;
	int lv;

	if (n > UINT32_MAX)
		return PF_VALUE;
	switch (k) {
	case K_THERMAL:
		lv = pf_thermal_level(s, n);
		if (lv == -2)
			return PF_VALUE;	/* power.c warns about it */
		o->thermal = (signed char)lv;
		return PF_OK;
	case K_HW:
		o->hw_off = off;
		o->hw_len = (uint32_t)n;
		o->has |= PF_HAS_HW;
		return PF_OK;
	case K_OS:
		o->os_off = off;
		o->os_len = (uint32_t)n;
		o->has |= PF_HAS_OS;
		return PF_OK;
	case K_CNAME:
		sc->cl_name = 1;
		sc->cl_first = n ? s[0] : '\0';
		sc->cl_off = off;
		sc->cl_len = (uint32_t)n;
		return PF_OK;
	case K_TNAME:
		sc->name_off = off;
		sc->name_len = (uint32_t)n;
		return PF_OK;
	default:
		return PF_TYPE;
	}
}

/* Entering a container of kind ctx. */
static void
enter(struct scan *sc, int ctx, int parent)
{
	switch (ctx) {
	case C_PROC:
		sc->out->has |= PF_HAS_PROC;
		break;
	case C_GPU:
		sc->out->has |= PF_HAS_GPU;
		break;
	case C_TASKS:
		sc->top_tasks = 1;
		break;
	case C_COALS:
		sc->coals = 1;
		break;
	case C_CLUSTER:
		sc->cl_name = sc->cl_freq = 0;
		sc->cl_first = '\0';
		sc->cl_hz = 0;
		break;
	case C_TASK:
		sc->t_pid = 0;
		sc->t_coal = parent == C_CTASKS;
		sc->pid = 0;
		sc->cpu = 0;
		sc->p = NAN;
		sc->name_off = 0;
		sc->name_len = 0;
		break;
	default:
		break;
	}
}

/* Leaving a dict of kind ctx. */
static int
leave_dict(struct scan *sc, int ctx)
{
	struct pfast *o = sc->out;
	size_t i, j;
	int k;

	switch (ctx) {
	case C_CLUSTER:
		if (!sc->cl_name || !sc->cl_freq)
			return PF_OK;
		switch (sc->cl_first) {
		case 'S': k = 0; break;
		case 'P': k = 1; break;
		case 'M': k = 2; break;
		case 'E': k = 3; break;
		default: return PF_OK;
		}
		if (!o->ccnt[k]) {
			o->cname_off[k] = sc->cl_off;
			o->cname_len[k] = sc->cl_len;
		}
		o->csum[k] += sc->cl_hz;
		o->ccnt[k]++;
		return PF_OK;
	case C_TASK:
		if (!sc->t_pid)
			return PF_VALUE;	/* power.c: "has no 'pid'" */
		return add_task(sc);
	case C_ROOT:
		/* The top-level tasks win over the coalitions'. */
		if (sc->top_tasks) {
			for (i = j = 0; i < o->ntasks; i++)
				if (!o->coal[i])
					o->tasks[j++] = o->tasks[i];
			o->ntasks = j;
		}
		if (sc->top_tasks || sc->coals)
			o->has |= PF_HAS_TASKS;
		return PF_OK;
	default:
		return PF_OK;
	}
}

#define WS(c) ((c) == ' ' || (c) == '\n' || (c) == '\t' || (c) == '\r')
/* p starts with the string literal s (bounds checked). */
#define AT(p, s) ((size_t)(end - (p)) >= sizeof(s) - 1 && !memcmp((p), (s), sizeof(s) - 1))

/*
 * Texts are scanned 8 bytes at a time where the byte order allows (keys
 * and values are short, so this is most of the work): a byte equal to c
 * is a zero byte of x ^ (c * 0x01...); the lowest set bit of
 * (v - 0x01...) & ~v & 0x80... is at the first zero byte of v (borrows
 * only make bits above it wrong).
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
	(defined(__GNUC__) || defined(__clang__))
#define SWAR 1
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)
#define ZERO_BYTES(v) (((v) - ONES) & ~(v) & HIGHS)

static inline uint64_t
load8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}
#else
#define SWAR 0
#endif

/* The end of a leaf's text: the next '<' (end if none). */
static inline const char *
text_end(const char *p, const char *end)
{
#if SWAR
	uint64_t m;

	for (; end - p >= 8; p += 8) {
		m = ZERO_BYTES(load8(p) ^ (ONES * '<'));
		if (m)
			return p + (__builtin_ctzll(m) >> 3);
	}
#endif
	while (p < end && *p != '<')
		p++;
	return p;
}

/* The same for keys and strings, where '&' starts an entity: NULL. */
static inline const char *
str_end(const char *p, const char *end)
{
#if SWAR
	uint64_t x, m;

	for (; end - p >= 8; p += 8) {
		x = load8(p);
		m = ZERO_BYTES(x ^ (ONES * '<')) | ZERO_BYTES(x ^ (ONES * '&'));
		if (m) {
			p += __builtin_ctzll(m) >> 3;
			return *p == '<' ? p : NULL;
		}
	}
#endif
	for (; p < end; p++) {
		if (*p == '<')
			return p;
		if (*p == '&')
			return NULL;
	}
	return p;
}

/* Past the "-->" of a comment whose text starts at p; NULL if none. */
static const char *
comment_end(const char *p, const char *end)
{
	while (p < end && (p = memchr(p, '-', (size_t)(end - p))) != NULL) {
		if (end - p >= 3 && p[1] == '-' && p[2] == '>')
			return p + 3;
		p++;
	}
	return NULL;
}

/*
 * Past a DOCTYPE or processing instruction starting at p, as libplist
 * finds its end: the first stop character outside double quotes.  For a
 * DOCTYPE (pi = 0), '[' (an internal subset) returns NULL; for a
 * processing instruction the end is "?>".
 */
static const char *
skip_decl(const char *p, const char *end, int pi)
{
	for (; p < end; p++) {
		if (*p == '"') {
			p = memchr(p + 1, '"', (size_t)(end - p - 1));
			if (!p)
				return NULL;
		} else if (pi) {
			if (*p == '?' && end - p >= 2 && p[1] == '>')
				return p + 2;
		} else if (*p == '>') {
			return p + 1;
		} else if (*p == '[') {
			return NULL;
		}
	}
	return NULL;
}

int
pf_scan(const char *doc, size_t len, struct pfast *out)
{
	struct lvl st[PF_MAX_DEPTH], *top = NULL;
	const char *p = doc, *end = doc + len, *q, *t;
	struct scan sc;
	int depth = 0, plist = 0, slot, rc, ctx, k;
	int64_t iv;
	double v;

	out->has = 0;
	out->elapsed_ns = 0;
	out->ts_sec = out->ts_usec = 0;
	memset(out->num, 0, sizeof(out->num));
	memset(out->csum, 0, sizeof(out->csum));
	memset(out->ccnt, 0, sizeof(out->ccnt));
	memset(out->cname_off, 0, sizeof(out->cname_off));
	memset(out->cname_len, 0, sizeof(out->cname_len));
	out->thermal = THERMAL_ABSENT;
	out->hw_off = out->os_off = 0;
	out->hw_len = out->os_len = 0;
	out->gpu_energy = 0;
	out->samplers = 0;
	out->ntasks = 0;
	memset(&sc, 0, sizeof(sc));
	sc.out = out;
	sc.doc = doc;

/* The key (or array element) the value at p belongs to, into slot. */
#define SLOT() \
	do { \
		if (!depth) { \
			slot = K_ROOT; \
		} else if (top->dict) { \
			if (!top->haskey) \
				return PF_STRUCT; \
			top->haskey = 0; \
			slot = top->key; \
		} else { \
			slot = element[top->ctx]; \
		} \
	} while (0)

	for (;;) {
		while (p < end && WS(*p))
			p++;
		if (end - p < 2)
			return p == end || *p == '<' ? PF_END : PF_TEXT;
		if (*p != '<')
			return PF_TEXT;
		switch (p[1]) {
		case 'k':
			if (!AT(p, "<key>"))
				return PF_MARKUP;
			q = p + 5;
			t = str_end(q, end);
			if (!t)
				return PF_ENTITY;
			if (!AT(t, "</key>"))
				return t == end ? PF_END : PF_MARKUP;
			if (!depth || !top->dict || top->haskey)
				return PF_STRUCT;
			top->haskey = 1;
			top->key = K_SKIP;
			if (top->ctx == C_ROOT)
				out->samplers |= pf_sampler_bit(q, (size_t)(t - q));
			if (top->ctx != C_OTHER) {
				k = key_id(top->ctx, q, (size_t)(t - q));
				if (k) {
					if (top->seen & (UINT32_C(1) << k))
						return PF_DUP;
					top->seen |= UINT32_C(1) << k;
					top->key = (unsigned char)k;
				}
			}
			p = t + 6;
			/*
			 * A value nearly always follows: dispatch it here, a
			 * branch of its own, which predicts better than going
			 * through the switch again.
			 */
			while (p < end && WS(*p))
				p++;
			if (end - p < 2 || *p != '<')
				continue;
			if (p[1] == 'i')
				goto integer;
			if (p[1] == 'r')
				goto real;
			if (p[1] == 'd')
				goto d;
			if (p[1] == 's')
				goto string;
			continue;
		case 'i':
		integer:
			if (!AT(p, "<integer>"))
				return PF_MARKUP;
			q = p + 9;
			t = text_end(q, end);
			if (!AT(t, "</integer>"))
				return t == end ? PF_END : PF_MARKUP;
			SLOT();
			if (slot) {
				if (want[slot] != T_NUM && want[slot] != T_INT)
					return PF_TYPE;
				if (int_literal(q, (size_t)(t - q), &iv))
					return PF_VALUE;
				rc = put_num(&sc, slot, (double)iv, 1, iv);
				if (rc)
					return rc;
			}
			p = t + 10;
			continue;
		case 'r':
		real:
			if (!AT(p, "<real>"))
				return PF_MARKUP;
			q = p + 6;
			t = text_end(q, end);
			if (!AT(t, "</real>"))
				return t == end ? PF_END : PF_MARKUP;
			SLOT();
			if (slot) {
				if (want[slot] != T_NUM)
					return PF_TYPE;
				if (real_literal(q, (size_t)(t - q), &v))
					return PF_VALUE;
				rc = put_num(&sc, slot, v, 0, 0);
				if (rc)
					return rc;
			}
			p = t + 7;
			continue;
		case 's':
		string:
			if (!AT(p, "<string>"))
				return PF_MARKUP;
			q = p + 8;
			t = str_end(q, end);
			if (!t)
				return PF_ENTITY;
			if (!AT(t, "</string>"))
				return t == end ? PF_END : PF_MARKUP;
			SLOT();
			if (slot) {
				if (want[slot] != T_STR)
					return PF_TYPE;
				rc = put_str(&sc, slot, (size_t)(q - doc), (size_t)(t - q));
				if (rc)
					return rc;
			}
			p = t + 9;
			continue;
		case 'd':
		d:
			if (AT(p, "<dict>")) {
				p += 6;
				SLOT();
				goto open_dict;
			}
			if (AT(p, "<dict/>")) {
				p += 7;
				SLOT();
				goto open_dict;
			}
			if (!AT(p, "<date>"))
				return PF_MARKUP;	/* <data> among them */
			q = p + 6;
			t = text_end(q, end);
			if (!AT(t, "</date>"))
				return t == end ? PF_END : PF_MARKUP;
			SLOT();
			if (slot) {
				if (want[slot] != T_DATE)
					return PF_TYPE;
				if (date_literal(q, (size_t)(t - q), &out->ts_sec))
					return PF_VALUE;
				out->ts_usec = 0;
				out->has |= PF_HAS_TS;
			}
			p = t + 7;
			continue;
		case 'a':
			if (AT(p, "<array>"))
				p += 7;
			else if (AT(p, "<array/>"))
				p += 8;
			else
				return PF_MARKUP;
			SLOT();
			if (slot && want[slot] != T_ARRAY)
				return PF_TYPE;
			if (depth == PF_MAX_DEPTH)
				return PF_STRUCT;
			ctx = slot ? opens[slot] : C_OTHER;
			enter(&sc, ctx, top ? top->ctx : C_OTHER);
			if (p[-2] == '/')
				continue;	/* <array/>: opened and closed */
			top = &st[depth++];
			top->dict = 0;
			top->ctx = (unsigned char)ctx;
			top->haskey = 0;
			top->key = 0;
			top->seen = 0;
			continue;
		case 't':
			if (!AT(p, "<true/>"))
				return PF_MARKUP;
			p += 7;
			goto boolean;
		case 'f':
			if (!AT(p, "<false/>"))
				return PF_MARKUP;
			p += 8;
		boolean:
			SLOT();
			if (slot)
				return PF_TYPE;
			continue;
		case '/':
			if (AT(p, "</dict>")) {
				if (!depth || !top->dict || top->haskey)
					return PF_STRUCT;
				p += 7;
				goto close_dict;
			}
			if (AT(p, "</array>")) {
				if (!depth || top->dict)
					return PF_STRUCT;
				p += 8;
				depth--;
				top = depth ? &st[depth - 1] : NULL;
				continue;
			}
			return PF_MARKUP;
		case '!':
			if (AT(p, "<!--")) {
				p = comment_end(p + 4, end);
				if (!p)
					return PF_END;
				continue;
			}
			if (AT(p, "<!DOCTYPE") && !depth) {
				p = skip_decl(p + 9, end, 0);
				if (!p)
					return PF_MARKUP;
				continue;
			}
			return PF_MARKUP;	/* CDATA, a DOCTYPE inside ... */
		case '?':
			p = skip_decl(p + 1, end, 1);
			if (!p)
				return PF_END;
			continue;
		case 'p':
			if (depth || plist)
				return PF_MARKUP;
			if (AT(p, "<plist>"))
				p += 7;
			else if (AT(p, "<plist version=\"1.0\">"))
				p += 21;
			else
				return PF_MARKUP;
			plist = 1;
			continue;
		default:
			return PF_MARKUP;
		}

	open_dict:
		if (slot && want[slot] != T_DICT)
			return PF_TYPE;
		/* libplist would add what follows a top-level <dict/> to it */
		if (slot == K_ROOT && p[-2] == '/')
			return PF_STRUCT;
		if (depth == PF_MAX_DEPTH)
			return PF_STRUCT;
		ctx = slot ? opens[slot] : C_OTHER;
		enter(&sc, ctx, top ? top->ctx : C_OTHER);
		top = &st[depth++];
		top->dict = 1;
		top->ctx = (unsigned char)ctx;
		top->haskey = 0;
		top->key = 0;
		top->seen = 0;
		if (p[-2] != '/')
			continue;
		/* <dict/>: opened and closed */
	close_dict:
		rc = leave_dict(&sc, top->ctx);
		if (rc)
			return rc;
		depth--;
		if (!depth)
			return PF_OK;	/* libplist stops here too */
		top = &st[depth - 1];
	}
#undef SLOT
}

/* ---- the walker of the libplist path ---------------------------------- */

/*
 * libplist gives power.c converted values only, and keeps the last of
 * duplicate keys; the strict grammar needs each number's own text and
 * duplicates must be found.  pf_walk() follows the document as libplist
 * 2.2.0's xplist.c does (the rules below were read there and tried on the
 * installed library), for documents libplist accepted, and notes where
 * the values erg reads are and which of them occur twice:
 *
 *   - tags: the name runs to the first space, '<' or '>'; attributes are
 *     skipped to the '>' outside double quotes; a '/' before the '>' makes
 *     the element empty;
 *   - leaf text: leading space skipped (not for key and string), comments
 *     and CDATA sections inside it, then "</" and the tag name, space, '>';
 *   - a key in a dict with no key waiting is that dict's next key; any
 *     other key is a string value; a waiting key is dropped by the next
 *     tag that is neither a comment nor a processing instruction;
 *   - a value is appended to the innermost open container; an empty
 *     container is not entered, except as the top level (libplist then
 *     adds what follows to it);
 *   - parsing ends when the top-level container closes, or at a second
 *     top-level <plist>.
 */

enum { W_PLIST, W_DICT, W_ARRAY };

/* One container libplist would have made (or an open <plist>). */
struct pf_wnode {
	unsigned char type;	/* W_* */
	unsigned char ctx;	/* C_* */
	unsigned char haskey;	/* a key waits for its value */
	unsigned char key;	/* its K_* (K_SKIP for others) */
	uint32_t seen;		/* extracted keys seen (1 << K_*) */
	uint32_t count;		/* elements so far (arrays) */
	uint32_t coal, idx;	/* for C_CLUSTER/C_TASK/C_COAL/C_CTASKS */
	size_t key_off;		/* the waiting key's '<' */
	size_t parent;		/* index of the parent container + 1, 0 for none */
};

static const char *
walk_name(int k)
{
	static const char *const proc[PF_NPROC] = {
		"processor.cpu_energy", "processor.gpu_energy", "processor.ane_energy",
		"processor.combined_power", "processor.cpu_power", "processor.gpu_power",
		"processor.ane_power", "processor.package_joules", "processor.package_watts",
	};

	if (k >= K_NUM0 && k < K_NUM0 + PF_NPROC)
		return proc[k - K_NUM0];
	switch (k) {
	case K_ELAPSED: return "elapsed_ns";
	case K_TIMESTAMP: return "timestamp";
	case K_PROCESSOR: return "processor";
	case K_THERMAL: return "thermal_pressure";
	case K_HW: return "hw_model";
	case K_OS: return "kern_osversion";
	case K_TASKS: return "tasks";
	case K_COALS: return "coalitions";
	case K_CLUSTERS: return "processor.clusters";
	case K_CNAME: return "processor.clusters[].name";
	case K_FREQ: return "processor.clusters[].freq_hz";
	case K_PID: return "tasks[].pid";
	case K_TNAME: return "tasks[].name";
	case K_CPU: return "tasks[].cputime_ns";
	case K_PTIME: return "tasks[].ptime_ns";
	case K_CTASKS: return "coalitions[].tasks";
	case K_GPU: return "gpu";
	case K_GPU_ENERGY: return "gpu.gpu_energy";
	default: return "?";
	}
}

/* As libplist's find_next(): to the first of stop[] (past double-quoted
 * runs when quotes), or end. */
static const char *
w_find_next(const char *p, const char *end, const char *stop, int quotes)
{
	while (p < end) {
		if (quotes && *p == '"') {
			p = memchr(p + 1, '"', (size_t)(end - p - 1));
			if (!p)
				return end;
		}
		if (strchr(stop, *p) && *p)
			return p;
		p++;
	}
	return end;
}

/* As libplist's find_str(): the first s not inside double quotes (when
 * quotes), or NULL. */
static const char *
w_find_str(const char *p, const char *end, const char *s, int quotes)
{
	size_t n = strlen(s);

	while (p + n <= end) {
		if (!memcmp(p, s, n))
			return p;
		if (quotes && *p == '"') {
			p = memchr(p + 1, '"', (size_t)(end - p - 1));
			if (!p)
				return NULL;
		}
		p++;
	}
	return NULL;
}

/*
 * Past the text of a leaf element whose content starts at p, its closing
 * tag included (libplist's get_text_parts()): *text is where the content
 * starts and *tend where it ends (the '<' of the closing tag); *markup is
 * set if it holds a comment or CDATA.  NULL if libplist would reject it.
 */
static const char *
w_leaf(const char *p, const char *end, const char *name, size_t nlen, int skip_ws,
       const char **tend, int *markup)
{
	const char *q;

	if (skip_ws)
		while (p < end && WS(*p))
			p++;
	for (;;) {
		q = memchr(p, '<', (size_t)(end - p));
		if (!q || end - q < 2)
			return NULL;
		if (q[1] == '/')
			break;
		if (q[1] != '!')
			return NULL;
		*markup = 1;
		if (end - q >= 4 && q[2] == '-' && q[3] == '-') {
			p = w_find_str(q + 4, end, "-->", 0);
			if (!p)
				return NULL;
			p += 3;
		} else if (end - q >= 9 && !memcmp(q + 2, "[CDATA[", 7)) {
			p = w_find_str(q + 9, end, "]]>", 0);
			if (!p)
				return NULL;
			p += 3;
		} else {
			return NULL;
		}
	}
	*tend = q;
	q += 2;
	if ((size_t)(end - q) <= nlen || memcmp(q, name, nlen))
		return NULL;
	q += nlen;
	while (q < end && WS(*q))
		q++;
	if (q >= end || *q != '>')
		return NULL;
	return q + 1;
}

/*
 * The key p[0..n) (content with libplist's entities, comments and CDATA)
 * decoded into k[0..cap); its length, or -1 if it is longer or holds
 * something this decoder does not know (then it is not a key erg reads).
 */
static int
w_key(const char *p, size_t n, char *k, size_t cap)
{
	static const struct { const char *e; char c; } ent[] = {
		{ "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' }, { "quot;", '"' }, { "apos;", '\'' },
	};
	const char *end = p + n, *q;
	size_t o = 0, i;
	unsigned long c;
	char *e;

	while (p < end) {
		if (*p == '<') {
			if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
				q = w_find_str(p + 4, end, "-->", 0);
				if (!q)
					return -1;
				p = q + 3;
				continue;
			}
			if (end - p >= 9 && !memcmp(p, "<![CDATA[", 9)) {
				q = w_find_str(p + 9, end, "]]>", 0);
				if (!q || (size_t)(q - p - 9) > cap - o)
					return -1;
				memcpy(k + o, p + 9, (size_t)(q - p - 9));
				o += (size_t)(q - p - 9);
				p = q + 3;
				continue;
			}
			return -1;
		}
		if (o >= cap)
			return -1;
		if (*p != '&') {
			k[o++] = *p++;
			continue;
		}
		for (i = 0; i < sizeof(ent) / sizeof(ent[0]); i++)
			if ((size_t)(end - p - 1) >= strlen(ent[i].e) &&
			    !memcmp(p + 1, ent[i].e, strlen(ent[i].e)))
				break;
		if (i < sizeof(ent) / sizeof(ent[0])) {
			k[o++] = ent[i].c;
			p += 1 + strlen(ent[i].e);
			continue;
		}
		if (end - p < 4 || p[1] != '#')
			return -1;
		q = memchr(p, ';', (size_t)(end - p));
		if (!q || q - p > 10)
			return -1;
		if (p[2] == 'x' || p[2] == 'X')
			c = strtoul(p + 3, &e, 16);
		else
			c = strtoul(p + 2, &e, 10);
		if (e != q || c == 0 || c > 0x7f)
			return -1;	/* only ASCII can spell a key erg reads */
		k[o++] = (char)c;
		p = q + 1;
	}
	return (int)o;
}

static void
w_item(struct pf_walk *w, int field, uint32_t coal, uint32_t idx, int tag, int plain,
       size_t key_off, size_t text_off, size_t text_len)
{
	struct pf_item *it;

	ALLOC_GROW(w->it, w->n + 1, w->alloc);
	it = &w->it[w->n++];
	it->field = (uint32_t)field;
	it->coal = coal;
	it->idx = idx;
	it->tag = (unsigned char)tag;
	it->plain = (unsigned char)plain;
	it->key_off = key_off;
	it->text_off = text_off;
	it->text_len = text_len;
}

/* The pf_field of key k, or -1 for keys whose text is not needed. */
static int
w_field(int k)
{
	if (k >= K_NUM0 && k < K_NUM0 + PF_NPROC)
		return PFF_PROC + (k - K_NUM0);
	switch (k) {
	case K_ELAPSED: return PFF_ELAPSED;
	case K_TIMESTAMP: return PFF_TIMESTAMP;
	case K_FREQ: return PFF_FREQ;
	case K_PID: return PFF_PID;
	case K_CPU: return PFF_CPU;
	case K_PTIME: return PFF_PTIME;
	case K_GPU_ENERGY: return PFF_GPU_ENERGY;
	default: return -1;
	}
}

static int
cmp_item(const void *pa, const void *pb)
{
	const struct pf_item *a = pa, *b = pb;

	if (a->field != b->field)
		return a->field < b->field ? -1 : 1;
	if (a->coal != b->coal)
		return a->coal < b->coal ? -1 : 1;
	if (a->idx != b->idx)
		return a->idx < b->idx ? -1 : 1;
	return 0;
}

#define WTAG(s, n, lit) ((n) == sizeof(lit) - 1 && !memcmp((s), (lit), sizeof(lit) - 1))

int
pf_walk(const char *doc, size_t len, struct pf_walk *w)
{
	const char *p = doc, *end = doc + len, *name, *text, *tend;
	size_t nlen, parent = 0, npath = 0, tag_off, i;
	struct pf_wnode *pn;
	int empty, type, markup, has_root = 0, has_content = 0, slot, field, ctx, kl;
	char kbuf[32];
	uint32_t coal, idx;
	/* node_path of libplist: the open <plist>, <dict> and <array> tags,
	 * as indices into w->nodes (+ 1) or 0 for a <plist> */
	size_t *path = NULL, apath = 0;

	w->n = 0;
	w->nnodes = 0;
	w->dup = NULL;
	w->dup_off = 0;
	w->dup_gpu = NULL;
	w->dup_gpu_off = 0;
#define FAIL() do { free(path); return -1; } while (0)
#define PUSH_PATH(v) do { ALLOC_GROW(path, npath + 1, apath); path[npath++] = (v); } while (0)
	for (;;) {
		while (p < end && WS(*p))
			p++;
		if (p >= end)
			break;
		if (*p != '<' || end - p < 2)
			FAIL();
		tag_off = (size_t)(p - doc);
		p++;
		if (*p == '?') {
			p = w_find_str(p, end, "?>", 1);
			if (!p)
				FAIL();
			p += 2;
			continue;
		}
		if (*p == '!') {
			if (end - p > 3 && !memcmp(p, "!--", 3)) {
				p = w_find_str(p + 3, end, "-->", 0);
				if (!p)
					FAIL();
				p += 3;
				continue;
			}
			if (end - p > 8 && !memcmp(p, "!DOCTYPE", 8)) {
				p += 8;
				for (;;) {
					p = w_find_next(p, end, " \t\r\n[>", 1);
					if (p >= end)
						FAIL();
					if (*p == '[') {
						p = w_find_str(p, end, "]>", 1);
						if (!p)
							FAIL();
						p += 2;
						break;
					}
					if (*p == '>') {
						p++;
						break;
					}
					while (p < end && WS(*p))
						p++;
				}
				continue;
			}
			FAIL();
		}
		name = p;
		p = w_find_next(p, end, " \r\n\t<>", 0);
		if (p >= end)
			FAIL();
		nlen = (size_t)(p - name);
		if (*p != '>')
			p = w_find_next(p, end, "<>", 1);
		if (p >= end || *p != '>')
			FAIL();
		empty = p[-1] == '/';
		if (empty && (size_t)(p - name - 1) < nlen)
			nlen = (size_t)(p - name - 1);
		p++;

		if (WTAG(name, nlen, "plist")) {
			has_content = 0;
			if (!npath && has_root)
				break;
			if (empty)
				FAIL();
			PUSH_PATH(0);
			continue;
		}
		if (WTAG(name, nlen, "/plist")) {
			if (!has_content || !npath || path[npath - 1] != 0)
				FAIL();
			npath--;
			continue;
		}
		if (nlen && name[0] == '/') {
			/* closing a dict or array */
			if (!npath || !path[npath - 1])
				FAIL();
			pn = &w->nodes[path[npath - 1] - 1];
			if (!(pn->type == W_DICT ? WTAG(name + 1, nlen - 1, "dict") :
			      WTAG(name + 1, nlen - 1, "array")))
				FAIL();
			npath--;
			if (parent) {
				w->nodes[parent - 1].haskey = 0;
				parent = w->nodes[parent - 1].parent;
			}
			if (!parent)
				break;	/* the top level closed: libplist stops */
			w->nodes[parent - 1].haskey = 0;
			continue;
		}

		/* A node: which type, and its text for leaves. */
		text = tend = NULL;
		markup = 0;
		if (WTAG(name, nlen, "dict")) {
			type = T_DICT;
		} else if (WTAG(name, nlen, "array")) {
			type = T_ARRAY;
		} else if (WTAG(name, nlen, "integer") || WTAG(name, nlen, "real") ||
			   WTAG(name, nlen, "date") || WTAG(name, nlen, "data") ||
			   WTAG(name, nlen, "true") || WTAG(name, nlen, "false") ||
			   WTAG(name, nlen, "string") || WTAG(name, nlen, "key")) {
			type = name[0] == 'i' ? T_INT : name[0] == 'r' ? T_NUM :
			       name[1] == 'a' && name[2] == 't' && name[3] == 'e' ? T_DATE :
			       name[0] == 's' || name[0] == 'k' ? T_STR : T_ANY;
			if (!empty) {
				text = p;
				p = w_leaf(p, end, name, nlen, !(name[0] == 's' || name[0] == 'k'),
					   &tend, &markup);
				if (!p)
					FAIL();
			} else {
				text = tend = p;
			}
		} else {
			FAIL();
		}
		has_content = 1;

		/* A key waiting in a dict. */
		if (name[0] == 'k' && parent && w->nodes[parent - 1].type == W_DICT &&
		    !w->nodes[parent - 1].haskey) {
			pn = &w->nodes[parent - 1];
			pn->haskey = 1;
			pn->key = K_SKIP;
			pn->key_off = tag_off;
			if (pn->ctx != C_OTHER) {
				kl = w_key(text, (size_t)(tend - text), kbuf, sizeof(kbuf));
				if (kl >= 0)
					pn->key = (unsigned char)key_id(pn->ctx, kbuf, (size_t)kl);
			}
			continue;
		}

		/* Where the node goes: its slot, container context and indices. */
		slot = K_SKIP;
		ctx = C_OTHER;
		coal = idx = 0;
		if (!has_root) {
			slot = K_ROOT;
		} else if (!parent) {
			FAIL();	/* libplist: a second top-level value is not added */
		} else if (w->nodes[parent - 1].type == W_DICT) {
			pn = &w->nodes[parent - 1];
			if (!pn->haskey)
				FAIL();	/* libplist: "missing key name" */
			slot = pn->key;
			if (slot) {
				if ((pn->seen & (UINT32_C(1) << slot)) &&
				    (slot == K_GPU || slot == K_GPU_ENERGY) && !w->dup_gpu) {
					w->dup_gpu = walk_name(slot);
					w->dup_gpu_off = pn->key_off;
				} else if ((pn->seen & (UINT32_C(1) << slot)) && !w->dup &&
					   slot != K_GPU && slot != K_GPU_ENERGY) {
					w->dup = walk_name(slot);
					w->dup_off = pn->key_off;
				}
				pn->seen |= UINT32_C(1) << slot;
			}
			coal = pn->coal;
			idx = pn->idx;
			field = slot ? w_field(slot) : -1;
			if (field >= 0 && text && (type == T_INT || type == T_NUM || type == T_DATE))
				w_item(w, field, coal, idx, type == T_INT ? PF_TAG_INTEGER :
				       type == T_NUM ? PF_TAG_REAL : PF_TAG_DATE,
				       !markup, pn->key_off, (size_t)(text - doc),
				       (size_t)(tend - text));
			pn->haskey = 0;
		} else {
			pn = &w->nodes[parent - 1];
			idx = pn->count++;
			coal = pn->coal;
			slot = element[pn->ctx];
		}
		if (type != T_DICT && type != T_ARRAY) {
			if (!has_root)
				break;	/* a top level that is not a container */
			continue;
		}
		if (slot && want[slot] == type)
			ctx = opens[slot];
		/* the coalition a "tasks" array belongs to */
		if (ctx == C_CTASKS)
			coal = w->nodes[parent - 1].idx + 1;
		ALLOC_GROW(w->nodes, w->nnodes + 1, w->anodes);
		pn = &w->nodes[w->nnodes++];
		memset(pn, 0, sizeof(*pn));
		pn->type = type == T_DICT ? W_DICT : W_ARRAY;
		pn->ctx = (unsigned char)ctx;
		pn->coal = coal;
		pn->idx = idx;
		pn->parent = parent;
		if (!has_root) {
			has_root = 1;
			parent = w->nnodes;	/* libplist enters even an empty top level */
			if (!empty)
				PUSH_PATH(w->nnodes);
			continue;
		}
		if (!empty) {
			PUSH_PATH(w->nnodes);
			parent = w->nnodes;
		}
	}
	free(path);
#undef FAIL
#undef PUSH_PATH
	for (i = 1; i < w->n; i++)
		if (cmp_item(&w->it[i - 1], &w->it[i]) > 0) {
			qsort(w->it, w->n, sizeof(w->it[0]), cmp_item);
			break;
		}
	return 0;
}

const struct pf_item *
pf_walk_find(const struct pf_walk *w, int field, uint32_t coal, uint32_t idx)
{
	struct pf_item key;

	if (!w->n)
		return NULL;
	key.field = (uint32_t)field;
	key.coal = coal;
	key.idx = idx;
	return bsearch(&key, w->it, w->n, sizeof(w->it[0]), cmp_item);
}

void
pf_walk_free(struct pf_walk *w)
{
	free(w->it);
	free(w->nodes);
	memset(w, 0, sizeof(*w));
}
