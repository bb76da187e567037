/*
 * load_bombardier_text.c - bombardier's plain-text output (the default
 * format), formats.md §2.2 and §6.
 *
 * A file may hold several runs: SaltyAom's results/<runtime>/<framework>.txt
 * write, per route, the command line, bombardier's intro line, its progress
 * bar, "Done!" and the statistics block.  A run is the statistics block from
 * "Statistics  Avg  Stdev  Max" to "Throughput:"; the command line and the
 * intro line before it (if any) describe it.  Anything else outside a block
 * (Bundle:, Memory before:, progress bars) is skipped.
 *
 * Also read: the pre-2026 results of that benchmark (commit bd3a322), where
 * each route is the command line followed by "Reqs/sec    N,N" (the
 * regular-expression match array of bench.ts, stringified).  Such a run has
 * only rps_mean and what the command line says.
 *
 * Mapping as for bombardier JSON (load_bombardier.c), except: times and
 * rates are rounded as printed (2 decimals in the printed unit); there is
 * no byte count, only "Throughput" = (bytes read + written) / time taken,
 * kept in throughput_bps (bytes_read stays NAN: the time taken is not
 * printed, and read and written cannot be told apart); time_taken_s is not
 * printed.  url, connections and duration come from the intro line, else
 * the command line; the mode is known only from a command line (-r/--rate
 * gives LOAD_RATE, its absence LOAD_CLOSED): the intro does not mention a
 * rate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"

/* What the lines before a statistics block said about it. */
struct pending {
	char *command, *url, *client;
	double connections, duration_s, rate;
	enum load_mode mode;
};

static void
pending_clear(struct pending *p)
{
	free(p->command);
	free(p->url);
	free(p->client);
	p->command = p->url = p->client = NULL;
	p->connections = p->duration_s = p->rate = NAN;
	p->mode = LOAD_MODE_UNKNOWN;
}

/* Move what is known into r (intro and command values already merged). */
static void
pending_apply(struct pending *p, struct load_result *r)
{
	r->command = p->command;
	r->url = p->url;
	r->client = p->client;
	p->command = p->url = p->client = NULL;
	r->connections = p->connections;
	r->duration_s = p->duration_s;
	r->rate = p->rate;
	r->mode = p->mode;
	pending_clear(p);
}

static int
is_command(const char *s)
{
	struct load_words w;
	int yes;

	load_words_split(&w, s);
	yes = load_words_is(&w, "bombardier");
	load_words_free(&w);
	return yes;
}

static int
bad_value(const char *path, long no, const char *opt, const char *val)
{
	return error_at(path, no, "cannot read the value '%s' of '%s' in the "
			"bombardier command line", val, opt);
}

/* The options that take a value, besides the ones read below. */
static const char *const value_opts[] = {
	"-m", "--method", "-H", "--header", "-b", "--body", "-f",
	"--body-file", "-t", "--timeout", "-o", "--format", "-p", "--print",
	"--cert", "--key",
};

/* Option short/long at word *i: 1 with *v set, 0 if not that option, -1
 * (and *missing) when it lacks its value. */
static int
opt(const struct load_words *w, size_t *i, const char *shrt,
    const char *lng, const char **v)
{
	int missing = 0;

	*v = load_words_opt(w, i, shrt, &missing);
	if (!*v && !missing && lng)
		*v = load_words_opt(w, i, lng, &missing);
	return *v ? 1 : missing ? -1 : 0;
}

static int
whole_count(const char *v, double *x)
{
	return load_scan_count(&v, x) || *v;
}

static int
whole_duration(const char *v, double *x)
{
	return load_scan_go_duration(&v, x) || *v;
}

static int
parse_command(const char *path, long no, const char *line, struct pending *p)
{
	struct load_words w;
	size_t i, k;
	int ret = 0;

	pending_clear(p);
	p->command = xstrdup(line);
	p->mode = LOAD_CLOSED;
	load_words_split(&w, line);
	for (i = 1; i < w.n && !ret; i++) {
		const char *s = w.word[i], *v;
		int rc;

		if (!strcmp(s, "--fasthttp") || !strcmp(s, "--http1") ||
		    !strcmp(s, "--http2")) {
			free(p->client);
			p->client = xstrdup(!strcmp(s, "--fasthttp") ? "fasthttp" :
					    !strcmp(s, "--http1") ? "net/http.v1" :
					    "net/http.v2");
			continue;
		}
		if ((rc = opt(&w, &i, "-c", "--connections", &v)) == 1) {
			if (whole_count(v, &p->connections))
				ret = bad_value(path, no, s, v);
		} else if (!rc && (rc = opt(&w, &i, "-d", "--duration", &v)) == 1) {
			if (whole_duration(v, &p->duration_s))
				ret = bad_value(path, no, s, v);
		} else if (!rc && (rc = opt(&w, &i, "-r", "--rate", &v)) == 1) {
			if (whole_count(v, &p->rate))
				ret = bad_value(path, no, s, v);
			p->mode = LOAD_RATE;
		} else if (!rc) {
			for (k = 0; !rc && k < sizeof(value_opts) /
						  sizeof(value_opts[0]); k++)
				rc = opt(&w, &i, value_opts[k], NULL, &v);
			if (!rc && s[0] != '-') {
				free(p->url);
				p->url = xstrdup(s);	/* the last positional word */
			}
		}
		if (rc < 0)
			ret = error_at(path, no, "option '%s' has no value in "
				       "the bombardier command line", s);
	}
	load_words_free(&w);
	return ret;
}

/*
 * "Bombarding URL for 10s using 500 connection(s)"
 * "Bombarding URL with 500000 request(s) using 3000 connection(s)"
 * (older releases: "connections", "requests")
 */
static int
parse_intro(const char *path, long no, const char *line, struct pending *p)
{
	struct load_words w;
	const char *q;
	double x, c;
	size_t k;
	int ok = 0;

	load_words_split(&w, line);
	if (w.n >= 7 && !strcmp(w.word[2], "for")) {
		q = w.word[3];
		k = 4;
		ok = !load_scan_go_duration(&q, &x) && !*q;
		if (ok)
			p->duration_s = x;
	} else if (w.n >= 8 && !strcmp(w.word[2], "with")) {
		q = w.word[3];
		k = 5;
		ok = !load_scan_count(&q, &x) && !*q &&
		     str_startswith(w.word[4], "request");
	} else {
		k = 0;
	}
	if (ok) {
		q = w.word[k + 1];
		ok = !strcmp(w.word[k], "using") && !load_scan_count(&q, &c) &&
		     !*q && str_startswith(w.word[k + 2], "connection");
	}
	if (ok) {
		free(p->url);
		p->url = xstrdup(w.word[1]);
		p->connections = c;
	}
	load_words_free(&w);
	return ok ? 0 : error_at(path, no, "cannot read the bombardier intro "
				 "line (expected 'Bombarding URL for TIME using "
				 "N connection(s)')");
}

struct run {
	struct load_result r;
	long start;			/* line of the "Statistics" header */
	int have_rps, have_lat, have_codes, have_others, in_errors, bad;
};

static int
expect_end(const char *path, long no, const char *q, const char *what)
{
	q = load_skip_blanks(q);
	if (*q)
		return error_at(path, no, "unexpected '%s' after %s", q, what);
	return 0;
}

/* "  Reqs/sec    402997.65   47126.67  448409.79" */
static int
parse_reqs(const char *path, long no, const char *q, struct run *run)
{
	double v[3];
	int i;

	for (i = 0; i < 3; i++) {
		const char *t = q;

		if (load_scan_num(&q, &v[i]) || v[i] < 0) {
			char *tok = load_token_dup(t);

			error_at(path, no, "expected a non-negative number in "
				 "'Reqs/sec', got '%s'", tok);
			free(tok);
			return -1;
		}
	}
	if (expect_end(path, no, q, "the 'Reqs/sec' figures"))
		return -1;
	run->r.rps_mean = v[0];
	run->r.rps_sd = v[1];
	run->r.rps_max = v[2];
	run->have_rps = 1;
	return 0;
}

static int
scan_time_or_error(const char *path, long no, const char **q, double *us,
		   const char *what)
{
	const char *t = *q;

	if (!load_scan_time_us(q, us))
		return 0;
	t = load_skip_blanks(t);
	{
		char *tok = load_token_dup(t);

		error_at(path, no, "expected a time such as '1.24ms' in %s, "
			 "got '%s'", what, *tok ? tok : "nothing");
		free(tok);
	}
	return -1;
}

/* "  Latency        1.24ms   495.38us    86.85ms" */
static int
parse_latency(const char *path, long no, const char *q, struct run *run)
{
	if (scan_time_or_error(path, no, &q, &run->r.lat_mean_us, "'Latency'") ||
	    scan_time_or_error(path, no, &q, &run->r.lat_sd_us, "'Latency'") ||
	    scan_time_or_error(path, no, &q, &run->r.lat_max_us, "'Latency'") ||
	    expect_end(path, no, q, "the 'Latency' figures"))
		return -1;
	run->have_lat = 1;
	return 0;
}

/* "     50%    40.72ms"; 1 if the line is of that shape, -1 on error. */
static int
parse_pct(const char *path, long no, const char *s, struct run *run)
{
	const char *q = s;
	double p, us;
	size_t i;

	if (load_scan_num(&q, &p) || *q != '%')
		return 0;
	q++;
	if (scan_time_or_error(path, no, &q, &us, "a latency percentile") ||
	    expect_end(path, no, q, "the percentile"))
		return -1;
	for (i = 0; i < PCT_N; i++)
		if (fabs(p - load_pct_value[i]) < 1e-9)
			run->r.lat_pct_us[i] = us;
	return 1;
}

/* "    1xx - 0, 2xx - 4025543, 3xx - 0, 4xx - 0, 5xx - 0" */
static int
parse_codes(const char *path, long no, const char *q, struct run *run)
{
	static const char *const labels[] = { NULL, "1xx - ", "2xx - ",
					      "3xx - ", "4xx - ", "5xx - " };
	int k;

	for (k = 1; k <= 5; k++) {
		const char *label = labels[k], *t;
		double v;

		q = load_skip_blanks(q);
		if (k > 1) {
			if (*q != ',')
				return error_at(path, no, "expected ', %s' in "
						"the HTTP codes", label);
			q = load_skip_blanks(q + 1);
		}
		if (!(t = load_after(q, label)))
			return error_at(path, no, "expected '%s' in the HTTP "
					"codes", label);
		q = t;
		if (load_scan_count(&q, &v)) {
			char *tok = load_token_dup(t);

			error_at(path, no, "expected a count after '%s', got "
				 "'%s'", label, tok);
			free(tok);
			return -1;
		}
		run->r.status[k] = v;
	}
	if (expect_end(path, no, q, "the HTTP codes"))
		return -1;
	run->have_codes = 1;
	return 0;
}

/* "    <description> - <count>": the count follows the last " - ".
 * 1 = read, 0 = not of that shape (a continuation line), -1 = error. */
static int
parse_error_line(const char *path, long no, const char *s, double *sum)
{
	const char *dash = NULL, *q;
	double v;

	for (q = strstr(s, " - "); q; q = strstr(q + 1, " - "))
		dash = q;
	if (!dash)
		return 0;
	q = dash + 3;
	if (!((*q >= '0' && *q <= '9') || (*q == '-' && q[1] >= '0' &&
					   q[1] <= '9')))
		return 0;
	if (load_scan_count(&q, &v) || *load_skip_blanks(q)) {
		char *tok = load_token_dup(dash + 3);

		error_at(path, no, "expected a non-negative error count, got "
			 "'%s'", tok);
		free(tok);
		return -1;
	}
	*sum += v;
	return 1;
}

static void
run_start(struct run *run, long no, struct pending *p)
{
	load_result_init(&run->r);
	run->r.tool = LOAD_BOMBARDIER_TEXT;
	run->r.bytes_kind = LOAD_BYTES_WIRE;
	run->r.errors = 0;
	pending_apply(p, &run->r);
	run->start = no;
	run->have_rps = run->have_lat = run->have_codes = 0;
	run->have_others = run->in_errors = run->bad = 0;
}

/* At "Throughput:": check and complete the run. */
static int
run_finish(const char *path, struct run *run)
{
	const char *miss = !run->have_rps ? "'Reqs/sec'" :
			   !run->have_lat ? "'Latency'" :
			   !run->have_codes ? "'1xx - N, 2xx - N, ...'" :
			   !run->have_others ? "'others - N'" : NULL;
	int k;

	if (miss)
		return error_at(path, run->start, "bombardier statistics "
				"without a %s line", miss);
	run->r.responses = 0;
	for (k = 1; k <= 5; k++)
		run->r.responses += run->r.status[k];
	run->r.requests = run->r.responses + run->r.status[0];
	if (run->r.errors > run->r.status[0]) {
		char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN];

		warn_at(path, run->start, "errors add up to %s, more than "
			"'others' (%s), which should include them",
			num_text(a, run->r.errors), num_text(b, run->r.status[0]));
	}
	return 0;
}

static void
push(struct load_result **v, size_t *n, size_t *alloc, struct load_result *r)
{
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = *r;
	load_result_init(r);
}

/* "Reqs/sec    130011.67,130011.67" outside a block (pre-2026 bench.ts). */
static int
parse_legacy(const char *path, long no, const char *q, struct pending *p,
	     struct load_result **v, size_t *n, size_t *alloc)
{
	struct load_result r;
	double a, b;

	if (load_scan_num(&q, &a) || *q != ',' || (q++, load_scan_num(&q, &b)) ||
	    a < 0 || b < 0)
		return error_at(path, no, "expected 'Reqs/sec N' (with three "
				"figures after a 'Statistics' header, or "
				"'N,N' as bench.ts wrote it)");
	if (expect_end(path, no, q, "'Reqs/sec N,N'"))
		return -1;
	if (a != b)
		warn_at(path, no, "the two 'Reqs/sec' figures differ; "
			"using the second");
	load_result_init(&r);
	r.tool = LOAD_BOMBARDIER_TEXT;
	pending_apply(p, &r);
	r.rps_mean = b;
	push(v, n, alloc, &r);
	return 0;
}

static int
truncated(const char *path, const struct run *run, long no)
{
	return error_at(path, no, "truncated bombardier output: the statistics "
			"from line %ld end without a 'Throughput:' line",
			run->start);
}

int
load_bombardier_text(const char *path, const char *data, size_t len,
		     struct load_result **v, size_t *n, size_t *alloc)
{
	struct load_text t;
	struct pending p = { NULL, NULL, NULL, NAN, NAN, NAN, LOAD_MODE_UNKNOWN };
	struct run run;
	int in_run = 0, bad = 0;
	size_t i, before = *n;

	load_result_init(&run.r);
	load_text_split(&t, data, len);
	for (i = 0; i < t.n; i++) {
		const char *s = load_skip_blanks(t.line[i]), *q;
		long no = (long)i + 1;
		int starts_run = (load_after(s, "Statistics") && strstr(s, "Avg")) ||
				 load_after(s, "Bombarding ") || is_command(s);
		int rc = 0;

		if (in_run && starts_run) {
			bad |= truncated(path, &run, no);
			load_result_free(&run.r);
			in_run = 0;
		}
		if (!in_run) {
			if (is_command(s))
				bad |= parse_command(path, no, s, &p);
			else if (load_after(s, "Bombarding "))
				bad |= parse_intro(path, no, s, &p);
			else if (load_after(s, "Statistics") && strstr(s, "Avg")) {
				run_start(&run, no, &p);
				in_run = 1;
			} else if ((q = load_after(s, "Reqs/sec")))
				bad |= parse_legacy(path, no, q, &p, v, n, alloc);
			continue;
		}
		if ((q = load_after(s, "Throughput:"))) {
			if (load_scan_binary(&q, &run.r.throughput_bps) ||
			    strncmp(q, "/s", 2))
				rc = error_at(path, no, "expected a rate such as "
					      "'78.69MB/s' after 'Throughput:'");
			else
				rc = expect_end(path, no, q + 2, "'Throughput:'");
			if (!rc && !run.bad)
				rc = run_finish(path, &run);
			if (rc || run.bad)
				load_result_free(&run.r);
			else
				push(v, n, alloc, &run.r);
			bad |= rc;
			in_run = 0;
			continue;
		}
		if (run.in_errors) {
			rc = parse_error_line(path, no, s, &run.r.errors);
			run.bad |= rc < 0;
			bad |= rc < 0;
			continue;	/* 0: a description's continuation */
		}
		if ((q = load_after(s, "Reqs/sec")))
			rc = parse_reqs(path, no, q, &run);
		else if (load_after(s, "There wasn't enough data to compute "
					"statistics for requests"))
			run.have_rps = 1;
		else if (load_after(s, "There wasn't enough data to compute "
					"statistics for latencies"))
			run.have_lat = 1;
		else if (load_after(s, "Latency Distribution"))
			;
		else if ((q = load_after(s, "Latency")))
			rc = parse_latency(path, no, q, &run);
		else if (load_after(s, "HTTP codes:"))
			;
		else if (load_after(s, "1xx - "))
			rc = parse_codes(path, no, s, &run);
		else if ((q = load_after(s, "others - "))) {
			if (load_scan_count(&q, &run.r.status[0]) ||
			    expect_end(path, no, q, "'others - N'"))
				rc = error_at(path, no, "expected 'others - N' "
					      "with a non-negative count");
			else
				run.have_others = 1;
		} else if (load_after(s, "Errors:"))
			run.in_errors = 1;
		else if ((rc = parse_pct(path, no, s, &run)) == 1)
			rc = 0;
		else if (rc == 0)
			warn_at(path, no, "ignoring an unrecognised line in "
				"bombardier statistics");
		if (rc) {
			run.bad = 1;
			bad = 1;
		}
	}
	if (in_run) {
		bad |= truncated(path, &run, (long)t.n);
		load_result_free(&run.r);
	}
	pending_clear(&p);
	load_text_free(&t);
	if (!bad && *n == before)
		return error_at(path, 0, "no bombardier statistics found "
				"(no 'Statistics  Avg  Stdev  Max' block)");
	return bad ? -1 : 0;
}
