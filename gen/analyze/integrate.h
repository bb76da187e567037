/*
 * analyze/integrate.h - the time axis of power samples and what a time
 * window saw of them (energy-method.md §1.3).
 *
 * Timestamps have whole-second resolution but elapsed_ns is precise, so
 * each file gets an OLS fit
 *     ts_i + 500 = a + b * cum_i,   cum_i = sum of elapsed_ms up to i
 * and sample i covers [a + b*cum_{i-1}, a + b*cum_i].  Each power file is
 * fitted on its own; power_integrate() then takes all of them together.
 */
#ifndef ERG_ANALYZE_INTEGRATE_H
#define ERG_ANALYZE_INTEGRATE_H

#include <stddef.h>

#include "model/power.h"

/*
 * Fit pf's time axis from ts_ms, elapsed_ms and pf->holes and set every
 * start_ms and end_ms (power_read does this; exposed for tests and
 * synthetic inputs).  A slope that is not within 10 % of 1 can only come
 * from too few whole-second timestamps on a file power_read found in
 * agreement with its elapsed_ns (clock drift is ppm-sized); then the fit
 * keeps b = 1 and sets fit_fallback for the caller to tell.
 */
void power_fit(struct power_file *pf);

/*
 * Integrate [t0_ms, t1_ms] (Unix ms) over the fitted samples of all files
 * (files are expected not to overlap in time; each is searched on its
 * own): each sample overlapping the window adds overlap/(end-start) of its
 * joules.  Unplaced samples are left out.  O(log n) per file to find the
 * first sample, then linear in the overlap.
 */
void power_integrate(const struct power_file *files, size_t nfiles,
		     double t0_ms, double t1_ms, struct pwin *out);

/* Samples carrying task data, over all files (0: no tasks sampler). */
size_t power_task_samples(const struct power_file *files, size_t nfiles);

/*
 * Per-process CPU time in [t0_ms, t1_ms], apportioned like energy: a
 * sample overlapping the window adds overlap/(end-start) of each task's
 * cputime_ns (and ptime_ns) to that task, i.e. CPU time is taken to be
 * spread evenly over the sample, as joules are.  Tasks are grouped by pid
 * and name over samples and files (pids are reused; a pid with another
 * name is another process).  out must be PTASK_WIN_INIT or an earlier
 * result, whose array is reused (so a loop over windows allocates once);
 * free it with ptask_win_free().
 */
void power_tasks_integrate(const struct power_file *files, size_t nfiles,
			   double t0_ms, double t1_ms, struct ptask_win *out);

#endif
