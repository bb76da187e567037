/*
 * model/power.h - what erg keeps of a power source: per-file samples on
 * the session's clock, their holes, per-task CPU time, and what a time
 * window saw of them.  ingest/powermetrics.c fills a power_file;
 * analyze/integrate.c puts it on the wall-clock axis (power_fit) and
 * integrates windows.
 *
 * One sample model for every source: a sample is an interval [start_ms,
 * end_ms] on the session's clock with joules per named domain (a gauge in
 * watts is integrated over its interval by its reader).  powermetrics
 * gives one domain, "processor" (cpu + gpu + ane), and only timestamps
 * and elapsed times, so its interval comes from the time fit; the other
 * readers (ingest/energy_*.c) stamp each sample's interval themselves
 * (power_file.timed) and keep per-domain joules (dj).  joules is the sum
 * of the domains that count (dom_sum); the others (RAPL sub-zones such as
 * core and uncore, which the package includes) are reported only.
 *
 * Per-task CPU time (the `tasks` sampler, formats.md §1.6) is kept only
 * when a file carries it: for every task of every sample, its pid, its
 * interned name, cputime_ns and ptime_ns (performance-core time, written
 * with --show-all), 24 bytes a task.  Nothing is stored for a file without
 * tasks.
 */
#ifndef ERG_MODEL_POWER_H
#define ERG_MODEL_POWER_H

#include <stddef.h>
#include <stdint.h>

/* Thermal pressure levels (top-level "thermal_pressure" string). */
enum {
	THERMAL_ABSENT = -1,
	THERMAL_NOMINAL = 0,
	THERMAL_LIGHT = 1,
	THERMAL_MODERATE = 2,
	THERMAL_HEAVY = 3,
	THERMAL_CRITICAL = 4	/* also "Trapping" and "Sleeping" */
};

/* A reader's warning for the page: its line (0: the file) and text. */
struct pnote {
	long line;
	char *msg;
};

/* Where a sample's joules came from. */
enum psrc {
	PSRC_NONE = 0,		/* no power keys (VM, unsupported hardware) */
	PSRC_ENERGY = 1,	/* processor.{cpu,gpu,ane}_energy, mJ counters */
	PSRC_POWER = 2,		/* processor.combined_power (or cpu/gpu/ane_power) mW x elapsed */
	PSRC_PACKAGE = 3,	/* Intel processor.package_joules (or package_watts x elapsed) */
	PSRC_GPU = 4		/* no processor dict: gpu.gpu_energy, mJ (gpu_power sampler) */
};

struct psample {
	double ts_ms;		/* "timestamp", Unix ms (whole seconds) */
	double elapsed_ms;	/* elapsed_ns / 1e6; always > 0 */
	double joules;		/* energy over the sample (see enum psrc); NAN if none */
	double pclust_mhz;	/* mean freq_hz / 1e6 of the performance clusters
				 * (names 'S...', else 'P...', else 'M...'); NAN if none */
	double eclust_mhz;	/* same for the 'E...' clusters; NAN if none */
	double start_ms;	/* wall-clock window, Unix ms, set by power_fit() */
	double end_ms;
	uint64_t off;		/* byte offset of the document (inflated stream) */
	signed char thermal;	/* THERMAL_*, THERMAL_ABSENT if no key */
	signed char src;	/* enum psrc */
	signed char has_tasks;	/* the document had "tasks" or "coalitions" */
	signed char unplaced;	/* next to missing samples and placeable on
				 * either side of them: joules is NAN */
	uint32_t no;		/* 1-based document number ("sample N") */
};

/*
 * Samples missing from a file, found from the timestamps (power_read):
 * the time fit leaves ms of sampler time before sample at, so no sample
 * covers it.
 */
struct phole {
	size_t at;		/* index of the first sample after the hole */
	double ms;		/* length of the hole (sampler ms) */
	double lo_ms, hi_ms;	/* what the timestamps allow of it */
	int missing;		/* samples missing, as whole intervals */
	size_t unplaced;	/* samples before at that cannot be placed */
};

/*
 * One task of one sample: an entry of the top-level "tasks" array or, with
 * --show-all, of "coalitions[].tasks".  Not kept: ALL_TASKS (pid -2, the
 * sum of the others) and tasks with no CPU time in the sample.
 */
struct ptask {
	double cpu_ns;		/* cputime_ns over the sample */
	double p_ns;		/* ptime_ns (on performance cores); NAN if absent */
	int32_t pid;		/* -1 DEAD_TASKS (exited processes), 0 kernel_task */
	uint32_t name;		/* index into power_file.names */
};

/* Domains of one file, and of the windows of a run (pwin.dom_j). */
#define PDOM_MAX 32
/* Sources (groups of files) in one run. */
#define PGROUP_MAX 8

struct power_file {
	char *path;
	/*
	 * The source: "powermetrics" (plist), "powercap-log", "power-csv",
	 * ... (a static string), a caveat for the reader of the figures
	 * (static), and its domains.  dj holds n x ndom joules (NAN: the
	 * domain has no value in that sample), or is NULL when the one
	 * domain is joules itself (powermetrics).
	 */
	const char *source;
	const char *caveat;
	size_t ndom;
	char *dom[PDOM_MAX];
	unsigned char dom_sum[PDOM_MAX];	/* 1: counted in joules */
	unsigned char dom_g[PDOM_MAX];		/* run-wide index (power_join) */
	double *dj;
	int timed;		/* the reader set start_ms/end_ms: no time fit */
	int group;		/* index of its source in the run (power_join) */
	struct psample *s;	/* in file order; end_ms strictly increasing */
	size_t n, alloc;
	double fit_a, fit_b;	/* time fit (ms); b is 1 when it cannot be fitted */
	size_t docs;		/* documents seen, including dropped ones */
	size_t dropped;		/* documents not kept (each one warned about) */
	/* What a reader left out or set aside with the data still right,
	 * for the run's page (ingest/session.c passes them to run_warn()):
	 * a cut last line, a domain that never had a value. */
	struct pnote *notes;
	size_t nnotes, anotes;
	char *hw_model;		/* of the first sample that has one, else NULL */
	/* The performance clusters as the samples name them (pclust_mhz):
	 * the first one's name ("S-Cluster", "P0-Cluster") and how many,
	 * from the first sample that has any; NULL, 0 if none does. */
	char *pclust_name;
	size_t pclust_count;
	char *os_build;		/* kern_osversion, likewise */
	unsigned samplers;	/* powermetrics: the samplers (PF_SMP_* of
				 * ingest/plistfast.h) whose keys the documents carry */
	int gzip;		/* the file was gzip-compressed */
	/* Tasks; all zero/NULL when no kept sample has task data. */
	struct ptask *tasks;	/* every kept task, in sample order */
	size_t ntasks, atasks;
	size_t *task_off;	/* n + 1 offsets: sample i's tasks are
				 * tasks[task_off[i] .. task_off[i + 1]) */
	char **names;		/* interned task names */
	size_t nnames, anames;
	size_t fast_docs;	/* documents read by the fast path (plistfast.h) */
	struct phole *holes;	/* missing samples, in file order */
	size_t nholes;
	int fit_fallback;	/* the slope could not be fitted: b = 1 */
	/* What the timestamps allow of the file's span (Unix ms): the first
	 * sample starts before start_hi, the last one ends after end_lo. */
	double start_hi, end_lo;
	/* SHA-256 (hex) and size of the file's bytes as read: the on-disk,
	 * compressed ones for gzip (input_open_digest()), so the raw-files
	 * table needs no second read.  sha256 is "" if it could not be taken. */
	char sha256[65];
	uint64_t file_bytes;
};

#define POWER_FILE_INIT { 0 }

void power_file_free(struct power_file *pf);	/* back to POWER_FILE_INIT */

/* Give pf a domain (name copied, counted in joules when sum); its index. */
size_t power_add_domain(struct power_file *pf, const char *name, int sum);
/* Joules of domain d in sample i. */
double power_dom_joules(const struct power_file *pf, size_t i, size_t d);

/*
 * How a domain name is read when sources are combined (power_join) and
 * which domains of a RAPL source count: PDC_SYSTEM (psys, host: the whole
 * platform, which overlaps everything), PDC_CPU (processor, package-N,
 * pkg, cpu, soc, core, uncore), PDC_DRAM (dram, ram), PDC_GPU (gpuN, gpu),
 * PDC_ANE, PDC_OTHER (compared by name).  A name "a/b" is read by b.
 */
enum { PDC_OTHER = 0, PDC_SYSTEM, PDC_CPU, PDC_DRAM, PDC_GPU, PDC_ANE };
int power_dom_class(const char *name);
/* core and uncore (sub-zones of a package): reported, never summed */
int power_dom_subzone(const char *name);

/* What a time window saw, from power_integrate(). */
struct pwin {
	double energy_j;	/* sum over overlapping samples of overlap share x joules */
	double mean_watts;	/* energy_j / window seconds; NAN if t1 <= t0 */
	double coverage;	/* covered ms / window ms; samples without joules cover nothing */
	double cluster_mhz;	/* unweighted mean pclust_mhz of overlapping samples; NAN if none */
	size_t samples;		/* overlapping samples, with or without joules */
	int thermal;		/* worst THERMAL_* seen; THERMAL_ABSENT if none */
	/* joules per run-wide domain (power_file.dom_g), each the sum of
	 * overlap share x the domain's joules; NAN for none */
	double dom_j[PDOM_MAX];
};

/* CPU time of one process (pid and name) in a window. */
struct ptask_sum {
	const char *name;	/* owned by the power_file it came from */
	double cpu_ms;		/* overlap-weighted cputime */
	double pcore_ms;	/* overlap-weighted ptime, where the task had it */
	double nop_cpu_ms;	/* the part of cpu_ms whose task had no ptime_ns */
	int32_t pid;
};

/* What a window saw of the tasks, from power_tasks_integrate(). */
struct ptask_win {
	struct ptask_sum *t;	/* one per (pid, name): cpu_ms descending, then
				 * pid, then name */
	size_t n, alloc;
	size_t samples;		/* overlapping samples that carried task data */
	double coverage;	/* window share covered by such samples */
	double cpu_ms, pcore_ms, nop_cpu_ms;	/* totals over t */
};

#define PTASK_WIN_INIT { 0 }

void ptask_win_free(struct ptask_win *w);	/* back to PTASK_WIN_INIT */

#endif
