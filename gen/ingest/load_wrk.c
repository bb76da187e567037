/*
 * load_wrk.c - wrk 4.x and wrk2 text output, formats.md §5.
 *
 * A run goes from "Running 3s test @ URL" to "Transfer/sec:"; a file may
 * hold several (a shell log), and a command line "wrk ..." / "wrk2 ..."
 * right before a run is kept in `command`.  Lines outside runs (Lua
 * script output, prompts) are skipped.
 *
 * Mapping:
 *   url, duration_s (as "Running" rounds it), threads, connections;
 *   latency avg/stdev/max from "Thread Stats  Latency" (wrk2: the more
 *   precise "#[Mean = , StdDeviation = ]" of the recorded histogram, in ms,
 *   wins); percentiles 50/75/90/99 (wrk --latency) and 99.9 (wrk2); wrk2's
 *   "Uncorrected Latency" block (-U) and the detailed spectrum rows are
 *   skipped.  The "Req/Sec" row is per THREAD and is not used: rps_mean is
 *   the "Requests/sec:" line (responses / measured time); rps_sd, rps_max
 *   are not reported.
 *   responses = "N requests in T" (wrk counts completed responses);
 *   errors = socket errors connect + read + write; requests = responses +
 *   errors.  The "timeout" socket-error counter goes to `timeouts` only:
 *   in wrk it counts responses slower than --timeout (already among the
 *   responses), in wrk2 periodic checks of waiting connections - neither
 *   is a count of lost requests.
 *   wrk reports no status classes: status[] stays NAN; "Non-2xx or 3xx
 *   responses" (status > 399; printed only when non-zero) goes to
 *   non_2xx_3xx.
 *   bytes_read = "... 4.30MB read": wire bytes, but only 3 significant
 *   digits survive wrk's formatting (bytes_read_tol: half a unit of the
 *   last digit printed, 0.005 MiB there); throughput_bps = "Transfer/sec:".
 *   A run without a single response gets NAN latencies (wrk prints 0.00us).
 *   Mode: wrk closed loop; wrk2 LOAD_RATE, the rate known only from a
 *   recorded command line (-R).  wrk2 is told from wrk by its "Thread
 *   calibration" lines, its HdrHistogram block or a wrk2 command line.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "ingest/load.h"

struct cmd {
	char *command;
	double rate;
	int wrk2;
};

static void
cmd_clear(struct cmd *c)
{
	free(c->command);
	c->command = NULL;
	c->rate = NAN;
	c->wrk2 = 0;
}

static int
is_command(const char *s)
{
	struct load_words w;
	int yes;

	load_words_split(&w, s);
	yes = load_words_is(&w, "wrk");
	load_words_free(&w);
	return yes;
}

static int
parse_command(const char *path, long no, const char *line, struct cmd *c)
{
	struct load_words w;
	size_t i;
	int ret = 0;

	cmd_clear(c);
	c->command = xstrdup(line);
	load_words_split(&w, line);
	c->wrk2 = load_words_is(&w, "wrk2");
	for (i = 1; i < w.n; i++) {
		const char *v;
		int missing;

		if ((v = load_words_opt(&w, &i, "-R", &missing)) ||
		    (!missing && (v = load_words_opt(&w, &i, "--rate",
						     &missing)))) {
			const char *q = v;
			double x;

			c->wrk2 = 1;
			if (load_scan_metric(&q, &x) || *q)
				ret = error_at(path, no, "cannot read the rate "
					       "'%s' in the wrk2 command line",
					       v);
			else
				c->rate = x;
		} else if (missing) {
			ret = error_at(path, no, "option '%s' has no value in "
				       "the wrk2 command line", w.word[i]);
		}
	}
	load_words_free(&w);
	return ret;
}

enum block { B_NONE, B_PCT, B_SKIP, B_SPECTRUM, B_SKIP_SPECTRUM };

struct run {
	struct load_result r;
	long start;
	int wrk2, have_threads, have_lat, have_total, have_rps, bad;
	int lat_empty;		/* "+/- Stdev" is nan: no latency recorded */
	long non2xx_line;	/* of "Non-2xx or 3xx responses:", or 0 */
	enum block block;
	double hdr_mean_ms, hdr_sd_ms;
};

static int
fail(const char *path, long no, const char *what, const char *at)
{
	char *tok = load_token_dup(at);

	error_at(path, no, "expected %s, got '%s'", what,
		 *tok ? tok : "nothing");
	free(tok);
	return -1;
}

static int
expect_end(const char *path, long no, const char *q, const char *what)
{
	q = load_skip_blanks(q);
	if (*q)
		return error_at(path, no, "unexpected '%s' after %s", q, what);
	return 0;
}

/* wrk prints "nan"/"-nan" for statistics of nothing. */
static int
scan_nan(const char **q)
{
	const char *p = load_skip_blanks(*q);

	if (*p == '-')
		p++;
	if (strncmp(p, "nan", 3) && strncmp(p, "inf", 3))
		return -1;
	p += 3;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	*q = p;
	return 0;
}

/* "Running 3s test @ http://127.0.0.1:3997/" */
static int
parse_running(const char *path, long no, const char *q, struct run *run)
{
	const char *at;
	double us;

	if (load_scan_time_us(&q, &us))
		return fail(path, no, "a duration such as '3s' after "
			    "'Running'", q);
	q = load_skip_blanks(q);
	if (!(at = load_after(q, "test @ ")))
		return fail(path, no, "'test @ URL'", q);
	at = load_skip_blanks(at);
	if (!*at)
		return error_at(path, no, "no URL after 'test @'");
	run->r.duration_s = us / 1e6;
	run->r.url = xstrndup(at, strcspn(at, " \t"));
	return 0;
}

/* "2 threads and 50 connections" */
static int
parse_threads(const char *path, long no, const char *s, struct run *run)
{
	const char *q = s, *t;

	if (load_scan_count(&q, &run->r.threads))
		return fail(path, no, "a thread count", s);
	q = load_skip_blanks(q);
	if (!(t = load_after(q, "threads and")))
		return fail(path, no, "'threads and'", q);
	q = t;
	if (load_scan_count(&q, &run->r.connections))
		return fail(path, no, "a connection count", q);
	q = load_skip_blanks(q);
	if (!(t = load_after(q, "connections")))
		return fail(path, no, "'connections'", q);
	if (expect_end(path, no, t, "the connection count"))
		return -1;
	run->have_threads = 1;
	return 0;
}

/* "Latency     5.73ms    3.24ms  47.71ms   75.53%" (avg, stdev, max, +/-) */
static int
parse_lat_stats(const char *path, long no, const char *q, struct run *run)
{
	double *dst[3] = { &run->r.lat_mean_us, &run->r.lat_sd_us,
			   &run->r.lat_max_us };
	int i;

	for (i = 0; i < 3; i++) {
		const char *t = q;

		if (!load_scan_time_us(&q, dst[i]))
			continue;
		if (!scan_nan(&q)) {
			*dst[i] = NAN;
			continue;
		}
		return fail(path, no, "a latency such as '5.73ms'", t);
	}
	run->have_lat = 1;
	/* the "+/- Stdev" column is not kept, but a nan there is a histogram
	 * with nothing in it: every response took longer than --timeout
	 * (counted as a timeout), and the 0.00us around it are no latency */
	run->lat_empty = !scan_nan(&q);
	return 0;
}

/* "Req/Sec     4.47k   584.21     5.08k    86.67%": per thread; checked,
 * not kept. */
static int
parse_req_stats(const char *path, long no, const char *q)
{
	int i;

	for (i = 0; i < 3; i++) {
		const char *t = q;
		double v;

		if (load_scan_metric(&q, &v) && scan_nan(&q))
			return fail(path, no, "a rate such as '4.47k'", t);
	}
	return 0;
}

/* " 50.000%    1.37ms" / "     50%    5.63ms"; 0 if not of that shape. */
static int
parse_pct(const char *path, long no, const char *s, struct run *run)
{
	const char *q = s;
	double p, us;
	size_t i;

	if (load_scan_num(&q, &p) || *q != '%')
		return 0;
	q++;
	if (load_scan_time_us(&q, &us))
		return fail(path, no, "a latency such as '5.63ms'", q);
	if (expect_end(path, no, q, "the percentile"))
		return -1;
	if (run->block != B_PCT)
		return 1;	/* the uncorrected block of wrk2 -U */
	for (i = 0; i < PCT_N; i++)
		if (fabs(p - load_pct_value[i]) < 1e-9)
			run->r.lat_pct_us[i] = us;
	return 1;
}

/* "#[Mean    =        1.437, StdDeviation   =        0.706]" (ms) */
static int
parse_hdr_mean(const char *path, long no, const char *q, struct run *run)
{
	const char *t;
	double m, sd;

	q = load_skip_blanks(q);
	if (*q != '=' || (q++, load_scan_num(&q, &m)) || m < 0)
		return fail(path, no, "'= MEAN' in '#[Mean'", q);
	q = load_skip_blanks(q);
	if (*q != ',' || !(t = load_after(load_skip_blanks(q + 1),
					    "StdDeviation")))
		return fail(path, no, "', StdDeviation'", q);
	q = load_skip_blanks(t);
	if (*q != '=' || (q++, load_scan_num(&q, &sd)) || sd < 0)
		return fail(path, no, "'= SD' after 'StdDeviation'", q);
	if (run->block == B_SPECTRUM) {
		run->hdr_mean_ms = m;
		run->hdr_sd_ms = sd;
	}
	return 0;
}

/*
 * Half a unit in the last digit wrk printed of a size ("4.30MB": 0.005 MiB),
 * in bytes: the most the true count can differ from what erg reads.
 */
static double
printed_tolerance(const char *s)
{
	static const char prefixes[] = "KMGTP";
	const char *p = load_skip_blanks(s), *u;
	double k = 1;
	int dec = 0;

	while ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-')
		p++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			dec++;
	if (*p && (u = strchr(prefixes, *p)) != NULL)
		k = pow(1024, (double)(u - prefixes) + 1);
	return 0.5 * pow(10, -dec) * k;
}

/* "26695 requests in 3.01s, 4.30MB read" */
static int
parse_total(const char *path, long no, const char *s, struct run *run)
{
	const char *q = s, *t;
	double us;

	if (load_scan_count(&q, &run->r.responses))
		return fail(path, no, "a request count", s);
	q = load_skip_blanks(q);
	if (!(t = load_after(q, "requests in")))
		return fail(path, no, "'requests in'", q);
	q = t;
	if (load_scan_time_us(&q, &us))
		return fail(path, no, "a time such as '3.01s'", q);
	if (*q != ',')
		return fail(path, no, "', BYTES read'", q);
	q++;
	t = q;
	if (load_scan_binary(&q, &run->r.bytes_read))
		return fail(path, no, "a size such as '4.30MB'", t);
	run->r.bytes_read_tol = printed_tolerance(t);
	q = load_skip_blanks(q);
	if (!(t = load_after(q, "read")) || expect_end(path, no, t, "'read'"))
		return t ? -1 : fail(path, no, "'read'", q);
	run->r.time_taken_s = us / 1e6;
	run->have_total = 1;
	return 0;
}

/* "Socket errors: connect 0, read 75, write 0, timeout 0" */
static int
parse_socket_errors(const char *path, long no, const char *q, struct run *run)
{
	static const char *const names[] = { "connect", "read", "write",
					     "timeout" };
	double v[4];
	int k;

	for (k = 0; k < 4; k++) {
		const char *t;

		q = load_skip_blanks(q);
		if (k) {
			if (*q != ',')
				return fail(path, no, "','", q);
			q = load_skip_blanks(q + 1);
		}
		if (!(t = load_after(q, names[k])))
			return fail(path, no, names[k], q);
		q = t;
		if (load_scan_count(&q, &v[k]))
			return fail(path, no, "a non-negative count", t);
	}
	if (expect_end(path, no, q, "the socket errors"))
		return -1;
	run->r.errors = v[0] + v[1] + v[2];
	run->r.timeouts = v[3];
	return 0;
}

static int
parse_count_line(const char *path, long no, const char *q, double *v,
		 const char *what)
{
	const char *t = q;

	if (load_scan_count(&q, v))
		return fail(path, no, "a non-negative count", t);
	return expect_end(path, no, q, what);
}

static void
run_start(struct run *run, long no, struct cmd *c)
{
	load_result_init(&run->r);
	run->r.tool = LOAD_WRK_TEXT;
	run->r.mode = LOAD_CLOSED;
	run->r.bytes_kind = LOAD_BYTES_WIRE;
	run->r.errors = run->r.timeouts = run->r.non_2xx_3xx = 0;
	run->start = no;
	run->wrk2 = c->wrk2;
	run->r.rate = c->rate;
	run->r.command = c->command;
	c->command = NULL;
	cmd_clear(c);
	run->have_threads = run->have_lat = run->have_total = 0;
	run->have_rps = run->bad = run->lat_empty = 0;
	run->non2xx_line = 0;
	run->block = B_NONE;
	run->hdr_mean_ms = run->hdr_sd_ms = NAN;
}

static int
run_finish(const char *path, long no, struct run *run, enum load_tool force)
{
	const char *miss = !run->have_threads ? "'N threads and M connections'" :
			   !run->have_lat ? "'Latency' statistics" :
			   !run->have_total ? "'N requests in T, B read'" :
			   !run->have_rps ? "'Requests/sec:'" : NULL;
	size_t i;

	if (miss)
		return error_at(path, no, "the wrk run from line %ld has no %s "
				"line", run->start, miss);
	if (run->wrk2 || force == LOAD_WRK2_TEXT) {
		run->r.tool = LOAD_WRK2_TEXT;
		run->r.mode = LOAD_RATE;
	} else {
		run->r.rate = NAN;
	}
	/* a subset of the responses: more of them is no wrk output (and
	 * would publish a negative count of 2xx) */
	if (run->r.non_2xx_3xx > run->r.responses)
		return error_at(path, run->non2xx_line, "%.0f non-2xx or 3xx responses, more than "
				"the %.0f requests of the run", run->r.non_2xx_3xx,
				run->r.responses);
	if (isfinite(run->hdr_mean_ms)) {
		run->r.lat_mean_us = run->hdr_mean_ms * 1e3;
		run->r.lat_sd_us = run->hdr_sd_ms * 1e3;
	}
	if (run->r.responses == 0 || run->lat_empty) {
		run->r.lat_mean_us = run->r.lat_sd_us = run->r.lat_max_us = NAN;
		for (i = 0; i < PCT_N; i++)
			run->r.lat_pct_us[i] = NAN;
	}
	run->r.requests = run->r.responses + run->r.errors;
	return 0;
}

/* One line inside a run; 1 when it was "Transfer/sec:" (end of run). */
static int
run_line(const char *path, long no, const char *s, struct run *run,
	 int *rc)
{
	const char *q;

	*rc = 0;
	if (run->block == B_SPECTRUM || run->block == B_SKIP_SPECTRUM) {
		if ((q = load_after(s, "#[Mean")))
			*rc = parse_hdr_mean(path, no, q, run);
		else if (load_after(s, "----------"))
			run->block = B_NONE;
		/* the table header, rows, #[Max ...], #[Buckets ...] */
		return 0;
	}
	if ((q = load_after(s, "Transfer/sec:"))) {
		const char *t = q;

		if (load_scan_binary(&q, &run->r.throughput_bps))
			*rc = fail(path, no, "a size such as '1.43MB'", t);
		else
			*rc = expect_end(path, no, q, "'Transfer/sec:'");
		return 1;
	}
	if ((q = load_after(s, "Requests/sec:"))) {
		const char *t = q;

		if (load_scan_num(&q, &run->r.rps_mean) || run->r.rps_mean < 0)
			*rc = fail(path, no, "a non-negative number", t);
		else
			*rc = expect_end(path, no, q, "'Requests/sec:'");
		run->have_rps = 1;
	} else if (strstr(s, "threads and")) {
		*rc = parse_threads(path, no, s, run);
	} else if (load_after(s, "Thread calibration:")) {
		run->wrk2 = 1;
	} else if (load_after(s, "Thread Stats")) {
		;
	} else if ((q = load_after(s, "Latency Distribution"))) {
		if (strstr(q, "HdrHistogram"))
			run->wrk2 = 1;
		run->block = strstr(q, "Uncorrected") ? B_SKIP : B_PCT;
	} else if (load_after(s, "Detailed Percentile spectrum")) {
		run->block = run->block == B_PCT ? B_SPECTRUM : B_SKIP_SPECTRUM;
		run->wrk2 = 1;
	} else if ((q = load_after(s, "Latency"))) {
		*rc = parse_lat_stats(path, no, q, run);
	} else if ((q = load_after(s, "Req/Sec"))) {
		*rc = parse_req_stats(path, no, q);
	} else if (strstr(s, "requests in")) {
		*rc = parse_total(path, no, s, run);
	} else if ((q = load_after(s, "Socket errors:"))) {
		*rc = parse_socket_errors(path, no, q, run);
	} else if ((q = load_after(s, "Non-2xx or 3xx responses:"))) {
		*rc = parse_count_line(path, no, q, &run->r.non_2xx_3xx,
				       "the non-2xx/3xx count");
		run->non2xx_line = no;
	} else if (!*s) {
		;
	} else {
		int p = parse_pct(path, no, s, run);

		if (p < 0)
			*rc = -1;
		else if (!p)
			warn_at(path, no, "ignoring an unrecognised line in "
				"wrk output");
	}
	return 0;
}

int
load_wrk_text(const char *path, const char *data, size_t len,
	      enum load_tool force, struct load_result **v, size_t *n,
	      size_t *alloc)
{
	struct load_text t;
	struct cmd c = { NULL, NAN, 0 };
	struct run run;
	int in_run = 0, bad = 0;
	size_t i, before = *n;

	load_result_init(&run.r);
	load_text_split(&t, data, len);
	for (i = 0; i < t.n; i++) {
		const char *s = load_skip_blanks(t.line[i]), *q;
		long no = (long)i + 1;
		int rc;

		q = load_after(s, "Running ");
		if (in_run && (q || is_command(s))) {
			bad |= error_at(path, no, "truncated wrk output: the run "
					"from line %ld ends without "
					"'Transfer/sec:'", run.start);
			load_result_free(&run.r);
			in_run = 0;
		}
		if (!in_run) {
			if (q) {
				run_start(&run, no, &c);
				in_run = 1;
				rc = parse_running(path, no, q, &run);
				run.bad |= rc != 0;
				bad |= rc;
			} else if (is_command(s)) {
				bad |= parse_command(path, no, s, &c);
			}
			continue;
		}
		if (run_line(path, no, s, &run, &rc)) {
			if (!rc && !run.bad)
				rc = run_finish(path, no, &run, force);
			if (rc || run.bad) {
				load_result_free(&run.r);
			} else {
				ALLOC_GROW(*v, *n + 1, *alloc);
				(*v)[(*n)++] = run.r;
				load_result_init(&run.r);
			}
			bad |= rc;
			in_run = 0;
			continue;
		}
		if (rc) {
			run.bad = 1;
			bad = 1;
		}
	}
	if (in_run) {
		bad |= error_at(path, (long)t.n, "truncated wrk output: the run "
				"from line %ld ends without 'Transfer/sec:'",
				run.start);
		load_result_free(&run.r);
	}
	cmd_clear(&c);
	load_text_free(&t);
	if (!bad && *n == before)
		return error_at(path, 0, "no wrk run found (no 'Running ... "
				"test @ URL' line)");
	return bad ? -1 : 0;
}
