/*
 * progress.h - one status line on stderr while a build reads its inputs:
 *     erg: 57.3 of 221.1 MB (26 %), 2,340 samples, run 1 of 1, about 4 s left
 * drawn only when stderr is a terminal, not before the build has run for a
 * second, and never with --quiet.  It is redrawn in place ("\r") at most
 * four times a second and erased before anything else is written to
 * stderr and at the end.
 *
 * Counting is cheap and thread-safe (relaxed atomics), so readers can
 * report as they go: progress_add_bytes() for bytes read from an archive
 * file (on-disk bytes: compressed bytes for gzip: input.c), and
 * progress_add_samples() for power samples kept (power.c, on the thread
 * that reads the file, whatever its worker threads).  Both are no-ops
 * when the line is off.
 * build.c brackets each run with progress_run_begin()/progress_run_end(),
 * which tops up whatever part of the run's input size the readers did not
 * report, so the total is right whether or not a reader reports.
 *
 * Only the thread that called progress_start() draws (progress_tick).
 */
#ifndef ERG_PROGRESS_H
#define ERG_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* enabled: the caller decided (not quiet, stderr is a terminal). */
void progress_start(int enabled, size_t runs, uint64_t bytes);
void progress_add_bytes(uint64_t n);
void progress_add_samples(uint64_t n);
void progress_run_begin(void);
void progress_run_end(uint64_t run_bytes);
void progress_tick(void);	/* redraw if due */
void progress_clear(void);	/* erase the line (before other output) */
void progress_stop(void);	/* erase and turn off */

/* The counters so far (bytes, samples, runs done), for tests. */
void progress_counts(uint64_t *bytes, uint64_t *samples, size_t *runs_done);

/* The line itself, for tests: elapsed seconds and the counters. */
void progress_format(char *out, size_t n, double elapsed_s, uint64_t bytes,
		     uint64_t total, uint64_t samples, size_t runs_done,
		     size_t runs);

#endif
