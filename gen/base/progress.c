/* progress.c - the status line on stderr (see progress.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/progress.h"

#define SHOW_AFTER_S 1.0
#define REDRAW_S 0.25

static atomic_int on;
static atomic_uint_fast64_t done_bytes, done_samples;
static atomic_size_t done_runs;
static uint64_t total_bytes;
static size_t total_runs;
static double t_start, t_drawn;
static size_t drawn_len;	/* characters of the line on screen, 0: none */

/* Bytes the readers reported for the run this thread is working on. */
static _Thread_local uint64_t run_reported;
static _Thread_local int in_run;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
progress_start(int enabled, size_t runs, uint64_t bytes)
{
	atomic_store(&done_bytes, 0);
	atomic_store(&done_samples, 0);
	atomic_store(&done_runs, 0);
	total_bytes = bytes;
	total_runs = runs;
	t_start = now_s();
	t_drawn = 0;
	drawn_len = 0;
	atomic_store(&on, enabled);
}

void
progress_add_bytes(uint64_t n)
{
	if (!atomic_load_explicit(&on, memory_order_relaxed) || !in_run)
		return;
	run_reported += n;
	atomic_fetch_add_explicit(&done_bytes, n, memory_order_relaxed);
}

void
progress_add_samples(uint64_t n)
{
	if (atomic_load_explicit(&on, memory_order_relaxed))
		atomic_fetch_add_explicit(&done_samples, n, memory_order_relaxed);
}

void
progress_run_begin(void)
{
	run_reported = 0;
	in_run = 1;
}

void
progress_run_end(uint64_t run_bytes)
{
	in_run = 0;
	if (!atomic_load_explicit(&on, memory_order_relaxed))
		return;
	/* What the readers did not report (all of it, when none reports). */
	if (run_bytes > run_reported)
		atomic_fetch_add_explicit(&done_bytes, run_bytes - run_reported,
					  memory_order_relaxed);
	atomic_fetch_add_explicit(&done_runs, 1, memory_order_relaxed);
}

void
progress_counts(uint64_t *bytes, uint64_t *samples, size_t *runs_done)
{
	*bytes = atomic_load(&done_bytes);
	*samples = atomic_load(&done_samples);
	*runs_done = atomic_load(&done_runs);
}

/* 1234567 -> "1,234,567" */
static void
thousands(char *out, size_t n, uint64_t v)
{
	char d[32];
	size_t len, i, o = 0;

	snprintf(d, sizeof(d), "%llu", (unsigned long long)v);
	len = strlen(d);
	for (i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = d[i];
	}
	out[o] = '\0';
}

void
progress_format(char *out, size_t n, double elapsed_s, uint64_t bytes,
		uint64_t total, uint64_t samples, size_t runs_done, size_t runs)
{
	struct buf b = BUF_INIT;
	double left = -1;
	char num[32];

	if (!n)
		return;
	buf_addstr(&b, "erg:");
	if (total) {
		if (bytes > total)
			bytes = total;
		buf_addf(&b, " %.1f of %.1f MB (%.0f %%)", (double)bytes / 1e6,
			 (double)total / 1e6, 100.0 * (double)bytes / (double)total);
		if (bytes && bytes < total && elapsed_s > 0)
			left = elapsed_s * (double)(total - bytes) / (double)bytes;
	}
	if (samples) {
		thousands(num, sizeof(num), samples);
		buf_addf(&b, "%s %s samples", total ? "," : "", num);
	}
	if (runs > 1)
		buf_addf(&b, "%s %zu of %zu runs", total || samples ? "," : "",
			 runs_done, runs);
	if (left < 0 && runs_done && runs_done < runs && elapsed_s > 0)
		left = elapsed_s * (double)(runs - runs_done) / (double)runs_done;
	if (left >= 0 && left < 90)
		buf_addf(&b, ", about %.0f s left", left < 1 ? 1 : left);
	else if (left >= 90)
		buf_addf(&b, ", about %.0f min left", left / 60);
	snprintf(out, n, "%s", b.ptr);
	buf_release(&b);
}

static void
draw(double t)
{
	char line[200];
	size_t len, pad;

	progress_format(line, sizeof(line) - 1, t - t_start,
			atomic_load(&done_bytes), total_bytes,
			atomic_load(&done_samples), atomic_load(&done_runs),
			total_runs);
	len = strlen(line);
	/* Overwrite a longer previous line with spaces, no escapes needed. */
	pad = drawn_len > len ? drawn_len - len : 0;
	fprintf(stderr, "\r%s%*s", line, (int)pad, "");
	fflush(stderr);
	drawn_len = len;
	t_drawn = t;
}

void
progress_tick(void)
{
	double t;

	if (!atomic_load(&on))
		return;
	t = now_s();
	if (t - t_start < SHOW_AFTER_S || t - t_drawn < REDRAW_S)
		return;
	draw(t);
}

void
progress_clear(void)
{
	if (!drawn_len)
		return;
	fprintf(stderr, "\r%*s\r", (int)drawn_len, "");
	fflush(stderr);
	drawn_len = 0;
	t_drawn = 0;
}

void
progress_stop(void)
{
	progress_clear();
	atomic_store(&on, 0);
}
