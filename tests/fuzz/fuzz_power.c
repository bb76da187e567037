/*
 * fuzz_power.c - powermetrics plist streams (power.c power_read), plain.
 *
 * The input is the whole file.  power_read() wants a path, so the bytes go
 * to an in-memory file first.  A stream that is accepted is then put to
 * the uses erg makes of it (fuzz_power_use: escapers, formatters, window
 * integration, power.h's contract).
 *
 * Differential oracle: power.c reads each document with its own fast
 * scanner (plistfast.c) and falls back to libplist for what the scanner
 * does not recognise; power.h promises that both give the same
 * power_file and the same diagnostics.  So every input is read twice,
 * with power_parse_mode serial (fast path) and libplist-only, and the
 * results are compared field by field.  power_parse_mode is declared weak
 * here: without it (an erg before the fast path) the target reads once.
 */
#include <math.h>
#include <string.h>

#include "base/buf.h"
#include "fuzz.h"
#include "analyze/integrate.h"
#include "ingest/powermetrics.h"

/* power.h: POWER_PARSE_SERIAL and POWER_PARSE_LIBPLIST. */
#define PARSE_SERIAL 1
#define PARSE_LIBPLIST 2
extern int power_parse_mode __attribute__((weak));

static struct fuzz_file file;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	fuzz_file_open(&file, "power.plist");
	return 0;
}

static int
same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

static int
same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

#define DIFF(what, ...) fuzz_fail("power: fast and libplist paths differ: " what, __VA_ARGS__)

static void
compare(const struct power_file *f, const struct power_file *l)
{
	size_t i;

	if (f->n != l->n || f->docs != l->docs || f->dropped != l->dropped)
		DIFF("%zu/%zu/%zu samples/docs/dropped against %zu/%zu/%zu",
		     f->n, f->docs, f->dropped, l->n, l->docs, l->dropped);
	if (!same_str(f->hw_model, l->hw_model) || !same_str(f->os_build, l->os_build))
		DIFF("hw_model '%s' os '%s' against '%s' '%s'",
		     f->hw_model ? f->hw_model : "(null)", f->os_build ? f->os_build : "(null)",
		     l->hw_model ? l->hw_model : "(null)", l->os_build ? l->os_build : "(null)");
	if (!same_num(f->fit_a, l->fit_a) || !same_num(f->fit_b, l->fit_b))
		DIFF("fit %.17g + %.17g x against %.17g + %.17g x", f->fit_a, f->fit_b,
		     l->fit_a, l->fit_b);
	for (i = 0; i < f->n; i++) {
		const struct psample *a = &f->s[i], *b = &l->s[i];

		if (!same_num(a->ts_ms, b->ts_ms) || !same_num(a->elapsed_ms, b->elapsed_ms) ||
		    !same_num(a->joules, b->joules) || !same_num(a->pclust_mhz, b->pclust_mhz) ||
		    !same_num(a->eclust_mhz, b->eclust_mhz) || !same_num(a->start_ms, b->start_ms) ||
		    !same_num(a->end_ms, b->end_ms) || a->off != b->off ||
		    a->thermal != b->thermal || a->src != b->src || a->has_tasks != b->has_tasks ||
		    a->no != b->no || a->unplaced != b->unplaced)
			DIFF("sample %zu: ts %.17g/%.17g elapsed %.17g/%.17g J %.17g/%.17g "
			     "P %.17g/%.17g E %.17g/%.17g off %llu/%llu thermal %d/%d src %d/%d",
			     i, a->ts_ms, b->ts_ms, a->elapsed_ms, b->elapsed_ms, a->joules,
			     b->joules, a->pclust_mhz, b->pclust_mhz, a->eclust_mhz, b->eclust_mhz,
			     (unsigned long long)a->off, (unsigned long long)b->off, a->thermal,
			     b->thermal, a->src, b->src);
	}
	if (f->nholes != l->nholes || f->fit_fallback != l->fit_fallback ||
	    !same_num(f->start_hi, l->start_hi) || !same_num(f->end_lo, l->end_lo))
		DIFF("%zu/%zu holes, fit fallback %d/%d, span %.17g..%.17g/%.17g..%.17g",
		     f->nholes, l->nholes, f->fit_fallback, l->fit_fallback, f->start_hi,
		     f->end_lo, l->start_hi, l->end_lo);
	for (i = 0; i < f->nholes; i++)
		if (f->holes[i].at != l->holes[i].at || !same_num(f->holes[i].ms, l->holes[i].ms) ||
		    f->holes[i].missing != l->holes[i].missing ||
		    f->holes[i].unplaced != l->holes[i].unplaced)
			DIFF("hole %zu: before sample %zu/%zu, %.17g/%.17g ms", i, f->holes[i].at,
			     l->holes[i].at, f->holes[i].ms, l->holes[i].ms);
	if (f->ntasks != l->ntasks || f->nnames != l->nnames)
		DIFF("%zu tasks %zu names against %zu %zu", f->ntasks, f->nnames, l->ntasks,
		     l->nnames);
	for (i = 0; i < f->ntasks; i++) {
		const struct ptask *a = &f->tasks[i], *b = &l->tasks[i];

		if (!same_num(a->cpu_ns, b->cpu_ns) || !same_num(a->p_ns, b->p_ns) ||
		    a->pid != b->pid || !same_str(f->names[a->name], l->names[b->name]))
			DIFF("task %zu: pid %d/%d cpu %.17g/%.17g p %.17g/%.17g name '%s'/'%s'", i,
			     (int)a->pid, (int)b->pid, a->cpu_ns, b->cpu_ns, a->p_ns, b->p_ns,
			     f->names[a->name], l->names[b->name]);
	}
	if (f->task_off && l->task_off)
		for (i = 0; i <= f->n; i++)
			if (f->task_off[i] != l->task_off[i])
				DIFF("sample %zu: tasks from %zu against %zu", i, f->task_off[i],
				     l->task_off[i]);
	if (!f->task_off != !l->task_off)
		DIFF("task offsets %s against %s", f->task_off ? "set" : "NULL",
		     l->task_off ? "set" : "NULL");
}

/* One read in the given parse mode (-1: power.c's default). */
static int
read_as(int mode, struct power_file *pf, struct buf *diag)
{
	int rc;

	if (mode >= 0)
		power_parse_mode = mode;
	fuzz_begin();
	rc = power_read(file.path, pf);
	fuzz_end_into(diag);
	if (mode >= 0)
		power_parse_mode = 0;
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct power_file pf = POWER_FILE_INIT, ref = POWER_FILE_INIT;
	struct buf d1 = BUF_INIT, d2 = BUF_INIT;
	int rc, rc2;

	fuzz_file_set(&file, data, size);
	if (!&power_parse_mode) {
		rc = read_as(-1, &pf, &d1);
	} else {
		rc = read_as(PARSE_SERIAL, &pf, &d1);
		rc2 = read_as(PARSE_LIBPLIST, &ref, &d2);
		if (rc != rc2)
			DIFF("power_read returned %d against %d", rc, rc2);
		if (d1.len != d2.len || memcmp(d1.ptr, d2.ptr, d1.len))
			DIFF("diagnostics '%.300s' against '%.300s'", d1.ptr, d2.ptr);
		if (!rc)
			compare(&pf, &ref);
		power_file_free(&ref);
	}
	if (rc == 0) {
		fuzz_begin();
		fuzz_power_use(&pf);
		fuzz_end();
		power_file_free(&pf);
	}
	buf_release(&d1);
	buf_release(&d2);
	return 0;
}
