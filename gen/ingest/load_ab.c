/*
 * load_ab.c - ApacheBench's report on stdout (load-formats-2.md §2).
 *
 * The report is "Label:<padding>value" lines; every value erg reads must
 * be the number ab prints followed by exactly its unit text, each label
 * at most once.  Lines erg does not know (other builds add some) are
 * passed over; what erg needs and does not find is an error, and so is a
 * run that ab aborted before its report (a socket error: "apr_socket_recv:
 * Connection refused (111)").
 *
 * Mapping: requests = "Complete requests"; errors = Receive of the
 * "Failed requests" breakdown plus "Write errors": as ab.c counts, a
 * receive error (kept going with -r) and a failed write close their
 * connection as a completed request, while a connect error or an
 * exception (a poll error) starts the connection again without one, so
 * those two are attempts outside "Complete requests" (said in a warning;
 * an exception while connecting is followed by its receive error, so
 * they cannot be added up).  ab counts "Length" failures too, which are
 * answered requests whose body length differs from the first one's: not
 * errors.  (A reset under -r counts in Receive, Exceptions and Length at
 * once: 400 complete, 192 of each, 208 answered.)  status[2] = requests
 * - "Non-2xx responses" - errors, the only class ab tells apart (the rest
 * of status[] is not reported).  "Non-2xx responses" and "Write errors"
 * are printed only when not zero, so their absence reads as 0; likewise a
 * "Failed requests: 0" has no breakdown.  Latency from the "Total:" row of
 * "Connection Times (ms)" (whole ms: min, mean, sd, max) and the
 * percentile table (50, 75, 90, 95, 99 %; no 99.9).  bytes_read = "Total
 * transferred" (headers and bodies); bytes written are not reported (ab
 * prints only request bodies).  rps_mean = "Requests per second"; one
 * thread, -c connections, closed loop.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"

enum { L_HOST, L_PORT, L_PATH, L_CONC, L_TIME, L_COMPLETE, L_FAILED,
       L_WRITE, L_NON2XX, L_TRANSFERRED, L_RPS, L_N };

static const struct {
	const char *label;
	const char *unit;	/* after the number; NULL: a string value */
	int count;		/* a whole number */
} labels[L_N] = {
	[L_HOST] = { "Server Hostname", NULL, 0 },
	[L_PORT] = { "Server Port", "", 1 },
	[L_PATH] = { "Document Path", NULL, 0 },
	[L_CONC] = { "Concurrency Level", "", 1 },
	[L_TIME] = { "Time taken for tests", " seconds", 0 },
	[L_COMPLETE] = { "Complete requests", "", 1 },
	[L_FAILED] = { "Failed requests", "", 1 },
	[L_WRITE] = { "Write errors", "", 1 },
	[L_NON2XX] = { "Non-2xx responses", "", 1 },
	[L_TRANSFERRED] = { "Total transferred", " bytes", 1 },
	[L_RPS] = { "Requests per second", " [#/sec] (mean)", 0 },
};

struct ab {
	const char *path;
	double v[L_N];
	const char *s[L_N];
	long line[L_N];
	double conn, recv, except;	/* the breakdown of Failed requests */
	long breakdown_line;
	double total[5];		/* min mean sd median max, ms */
	int ntotal;
	long total_line;
	double pct[101];
	int https;
};

/* A value: the number and exactly its unit text. */
static int
value(struct ab *a, int k, const char *v, long no)
{
	const char *p = v;
	int rc;

	if (a->line[k])
		return error_at(a->path, no, "'%s' given twice (first on line "
				"%ld)", labels[k].label, a->line[k]);
	a->line[k] = no;
	if (!labels[k].unit) {
		a->s[k] = v;
		return 0;
	}
	rc = labels[k].count ? load_scan_count(&p, &a->v[k]) :
			       load_scan_num(&p, &a->v[k]);
	if (rc || a->v[k] < 0 || strcmp(p, labels[k].unit))
		return error_at(a->path, no, "cannot read '%s': expected %s%s%s, "
				"got '%s'", labels[k].label, labels[k].count ?
				"a whole number" : "a number", *labels[k].unit ?
				" and" : "", labels[k].unit, v);
	return 0;
}

/* "   (Connect: 0, Receive: 0, Length: 292, Exceptions: 0)"; ab before
 * 2.3's Receive counter printed no Receive. */
static int
breakdown(struct ab *a, const char *s, long no)
{
	const char *p = load_after(load_skip_blanks(s), "(Connect:");
	double len;

	a->recv = 0;
	if (!p || load_scan_count(&p, &a->conn))
		goto bad;
	if ((s = load_after(p, ", Receive:")) != NULL) {
		p = s;
		if (load_scan_count(&p, &a->recv))
			goto bad;
	}
	if (!(p = load_after(p, ", Length:")) || load_scan_count(&p, &len) ||
	    !(p = load_after(p, ", Exceptions:")) ||
	    load_scan_count(&p, &a->except) || strcmp(p, ")"))
		goto bad;
	if (a->breakdown_line)
		return error_at(a->path, no, "a second breakdown of the failed "
				"requests (first on line %ld)", a->breakdown_line);
	a->breakdown_line = no;
	return 0;
bad:
	return error_at(a->path, no, "cannot read the breakdown of the failed "
			"requests: expected '(Connect: N, Receive: N, Length: N, "
			"Exceptions: N)'");
}

/* "Total:          1    8   4.1      7      27" (or "min avg max" with -S) */
static int
total_row(struct ab *a, const char *p, long no)
{
	int n = 0;

	if (a->total_line)
		return error_at(a->path, no, "a second 'Total:' row (first on "
				"line %ld)", a->total_line);
	a->total_line = no;
	while (*(p = load_skip_blanks(p)) && n < 5)
		if (load_scan_num(&p, &a->total[n++]) || a->total[n - 1] < 0)
			goto bad;
	if (*p || (n != 5 && n != 3))
		goto bad;
	if (n == 3) {	/* min avg max: no sd, no median */
		a->total[4] = a->total[2];
		a->total[2] = a->total[3] = NAN;
	}
	a->ntotal = n;
	return 0;
bad:
	return error_at(a->path, no, "cannot read the 'Total:' row: expected "
			"min, mean, sd, median and max in ms");
}

/* "  50%      7" or " 100%     27 (longest request)" */
static int
pct_row(struct ab *a, const char *s, long no)
{
	const char *p = s;
	double pc, v;

	if (load_scan_count(&p, &pc) || *p++ != '%' || pc > 100 ||
	    load_scan_count(&p, &v))
		return error_at(a->path, no, "cannot read the percentile row "
				"'%s': expected 'N%%  MS'", s);
	p = load_skip_blanks(p);
	if (*p && strcmp(p, "(longest request)"))
		return error_at(a->path, no, "unexpected '%s' after the "
				"percentile row", p);
	if (!isnan(a->pct[(int)pc]))
		return error_at(a->path, no, "percentile %d%% given twice",
				(int)pc);
	a->pct[(int)pc] = v;
	return 0;
}

static int
fill(struct ab *a, struct load_result *r)
{
	static const int want[] = { L_CONC, L_TIME, L_COMPLETE, L_FAILED,
				    L_TRANSFERRED, L_RPS };
	static const int pc[PCT_N] = { 50, 75, 90, 95, 99, -1 };
	char x[NUM_TEXT_LEN], y[NUM_TEXT_LEN];
	double non2xx, write, ok;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!a->line[want[i]])
			return error_at(a->path, 0, "no '%s' line in the ab "
					"report", labels[want[i]].label);
	if (a->v[L_FAILED] > 0 && !a->breakdown_line)
		return error_at(a->path, a->line[L_FAILED], "no breakdown of "
				"the failed requests after this line");
	if (!a->breakdown_line)
		a->conn = a->recv = a->except = 0;
	non2xx = a->line[L_NON2XX] ? a->v[L_NON2XX] : 0;
	write = a->line[L_WRITE] ? a->v[L_WRITE] : 0;
	r->requests = a->v[L_COMPLETE];
	r->errors = a->recv + write;
	ok = r->requests - non2xx - r->errors;
	if (ok < 0)
		return error_at(a->path, a->line[L_COMPLETE], "%s complete "
				"requests are fewer than the non-2xx responses and "
				"errors together (%s)", num_text(x, r->requests),
				num_text(y, non2xx + r->errors));
	if (a->conn + a->except > 0)
		warn_at(a->path, a->breakdown_line, "%s connect errors and %s exceptions: attempts "
			"ab started again, not among its complete requests", num_text(x, a->conn),
			num_text(y, a->except));
	r->responses = r->requests - r->errors;
	r->status[2] = ok;
	r->connections = a->v[L_CONC];
	r->threads = 1;
	r->mode = LOAD_CLOSED;
	r->time_taken_s = a->v[L_TIME];
	r->rps_mean = a->v[L_RPS];
	r->bytes_read = a->v[L_TRANSFERRED];
	r->bytes_kind = LOAD_BYTES_WIRE;
	if (a->ntotal) {
		r->lat_min_us = a->total[0] * 1e3;
		r->lat_mean_us = a->total[1] * 1e3;
		r->lat_sd_us = a->total[2] * 1e3;
		r->lat_max_us = a->total[4] * 1e3;
		r->lat_pct_us[PCT_50] = a->total[3] * 1e3;
	}
	for (i = 0; i < PCT_N; i++)
		if (pc[i] >= 0 && !isnan(a->pct[pc[i]]))
			r->lat_pct_us[i] = a->pct[pc[i]] * 1e3;
	if (a->s[L_HOST] && a->line[L_PORT] && a->s[L_PATH]) {
		struct buf u = BUF_INIT;
		char port[NUM_TEXT_LEN];

		buf_addf(&u, "%s://%s:%s%s", a->https ? "https" : "http",
			 a->s[L_HOST], num_text(port, a->v[L_PORT]), a->s[L_PATH]);
		r->url = buf_detach(&u, NULL);
	}
	return 0;
}

int
load_ab_text(const char *path, const char *data, size_t len,
	     struct load_result *r)
{
	struct load_text t;
	struct ab a;
	size_t i, k;
	int bad = 0, in_pct = 0;
	long patient = 0;

	memset(&a, 0, sizeof(a));
	a.path = path;
	for (i = 0; i <= 100; i++)
		a.pct[i] = NAN;
	r->tool = LOAD_AB_TEXT;
	load_text_split(&t, data, len);
	for (i = 0; i < t.n && !bad; i++) {
		const char *s = t.line[i], *v, *c;
		long no = (long)i + 1;

		if ((v = load_after(s, "This is ApacheBench, Version ")) != NULL) {
			free(r->tool_version);
			r->tool_version = load_token_dup(v);
			continue;
		}
		if (strstr(s, "(be patient)")) {
			patient = no;
			/* "(be patient).....done" for small runs; an
			 * error message there means ab gave up */
			for (c = strstr(s, "(be patient)") + 12; *c == '.'; c++)
				;
			if (*c && strcmp(c, "done"))
				bad = error_at(path, no, "ab stopped before its "
					       "report: '%s'", c);
			continue;
		}
		if (load_after(s, "Percentage of the requests served")) {
			in_pct = 1;
			continue;
		}
		if (in_pct && *s) {
			bad = pct_row(&a, s, no);
			continue;
		}
		in_pct = 0;
		if (load_after(load_skip_blanks(s), "(Connect:")) {
			bad = breakdown(&a, s, no);
			continue;
		}
		if ((v = load_after(s, "Total:")) != NULL) {
			bad = total_row(&a, v, no);
			continue;
		}
		if (load_after(s, "SSL/TLS Protocol:"))
			a.https = 1;
		c = strchr(s, ':');
		if (!c || s[0] == ' ')
			continue;
		for (k = 0; k < L_N; k++)
			if ((size_t)(c - s) == strlen(labels[k].label) &&
			    !strncmp(s, labels[k].label, (size_t)(c - s)))
				break;
		if (k < L_N)
			bad = value(&a, (int)k, load_skip_blanks(c + 1), no);
	}
	if (!bad && !a.line[L_COMPLETE] && patient && patient == (long)t.n)
		bad = error_at(path, patient, "ab stopped before its report");
	if (!bad)
		bad = fill(&a, r);
	load_text_free(&t);
	return bad ? -1 : 0;
}
