/*
 * load_hey.c - hey's text report and its -o csv rows (load-formats-2.md
 * §3).  All times are seconds in both.
 *
 * Text mapping: responses = sum of "Status code distribution", errors =
 * sum of "Error distribution" (transport errors, each line a count and a
 * Go error string), requests = both; status classes from the codes,
 * status[0] = errors plus codes outside 100-599.  Latency: Average,
 * Fastest, Slowest and the 50/75/90/95/99 % rows of "Latency
 * distribution" (a "0% in 0.0000 secs" row is a percentile hey dropped,
 * and is left out); no SD, no 99.9 %.  When no request got a response hey
 * prints "Average: NaN" and zeros for Fastest and Slowest: all latencies
 * are then not reported (a NaN beside responses is an error).  time_taken
 * = Total, rps_mean = Requests/sec (errors included, as hey >= 0.1.1
 * counts them); bytes_read = "Total data", the sum of Content-Length
 * headers (bodies only; the line is missing when that sum is 0, as with
 * chunked responses, and bytes_read is then not reported).  hey prints no
 * connection count; the mode is closed unless -q limited it, which the
 * report does not say (mode unknown).
 *
 * CSV mapping: one row per request that got a response (hey drops the
 * others): responses and status classes from the rows; requests, errors
 * and status[0] are not reported.  Latency from response-time by the
 * nearest-rank method of load_stream.c (at hey's 0.1 ms resolution, with
 * SD and 99.9 %); time_taken_s = the end of the last request (offset +
 * response-time, offset counting from the start of the run); rps_mean =
 * responses / time_taken_s.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/num.h"
#include "ingest/load.h"

/* ---- text ------------------------------------------------------------- */

enum { H_TOTAL, H_SLOWEST, H_FASTEST, H_AVERAGE, H_RPS, H_DATA, H_N };
static const char *const hnames[H_N] = { "Total", "Slowest", "Fastest",
					 "Average", "Requests/sec",
					 "Total data" };

enum section { S_NONE, S_SUMMARY, S_LATENCY, S_STATUS, S_ERRORS, S_OTHER };

struct hey {
	const char *path;
	double v[H_N];
	long line[H_N];
	int nan[H_N];
	double pct[PCT_N];
	double status[6], responses, errors;
	long status_line;
};

/* "0.0147 secs", " NaN secs" (a NaN only where allowed) */
static int
secs(const char **pp, double *v, int *nan)
{
	const char *p = load_skip_blanks(*pp);

	*nan = 0;
	if (!strncmp(p, "NaN", 3)) {
		*nan = 1;
		*v = NAN;
		p += 3;
	} else if (load_scan_num(&p, v) || *v < 0) {
		return -1;
	}
	if (strcmp(p, " secs"))
		return -1;
	*pp = p + 5;
	return 0;
}

static int
summary_line(struct hey *h, const char *s, long no)
{
	const char *c = strchr(s, ':'), *p;
	size_t k, n;
	int rc;

	if (!c)
		return error_at(h->path, no, "unexpected '%s' in hey's summary", s);
	n = (size_t)(c - s);
	if ((n == 12 && !strncmp(s, "Size/request", n)))
		return 0;	/* Total data / requests: nothing new */
	for (k = 0; k < H_N; k++)
		if (strlen(hnames[k]) == n && !strncmp(s, hnames[k], n))
			break;
	if (k == H_N)
		return error_at(h->path, no, "unexpected '%.*s' in hey's "
				"summary", (int)n, s);
	if (h->line[k])
		return error_at(h->path, no, "'%s' given twice (first on line "
				"%ld)", hnames[k], h->line[k]);
	h->line[k] = no;
	p = c + 1;
	if (k == H_RPS) {
		rc = load_scan_num(&p, &h->v[k]) || h->v[k] < 0 || *p;
	} else if (k == H_DATA) {
		rc = load_scan_count(&p, &h->v[k]) || strcmp(p, " bytes");
	} else {
		rc = secs(&p, &h->v[k], &h->nan[k]);
		if (!rc && h->nan[k] && k == H_TOTAL)
			rc = -1;
	}
	if (rc)
		return error_at(h->path, no, "cannot read '%s': '%s'", hnames[k],
				load_skip_blanks(c + 1));
	return 0;
}

/* "  50% in 0.0468 secs" */
static int
latency_line(struct hey *h, const char *s, long no)
{
	static const int pc[PCT_N] = { 50, 75, 90, 95, 99, -1 };
	const char *p = s;
	double pct, v;
	int nan, i;

	if (load_scan_count(&p, &pct) || *p != '%' ||
	    !(p = load_after(p, "% in")) || secs(&p, &v, &nan) || nan)
		return error_at(h->path, no, "cannot read the latency row '%s': "
				"expected 'N%% in S secs'", s);
	if (pct == 0)
		return 0;	/* a percentile hey dropped */
	for (i = 0; i < PCT_N; i++)
		if (pc[i] == pct) {
			if (!isnan(h->pct[i]))
				return error_at(h->path, no, "the %d%% row given "
						"twice", pc[i]);
			h->pct[i] = v;
		}
	return 0;
}

/* "  [200]\t241 responses" or, for errors, "  [20]\tGet ...: refused" */
static int
bracket_line(struct hey *h, const char *s, long no, int errors)
{
	const char *p = s + 1;
	double a, b;

	if (*s != '[' || load_scan_count(&p, &a) || *p++ != ']')
		goto bad;
	if (errors) {
		if (*p != '\t' && *p != ' ')
			goto bad;
		h->errors += a;
		return 0;
	}
	if (load_scan_count(&p, &b) || strcmp(p, " responses") || a > 999)
		goto bad;
	h->responses += b;
	h->status[a >= 100 && a < 600 ? (int)a / 100 : 0] += b;
	return 0;
bad:
	return error_at(h->path, no, errors ? "cannot read the error row '%s': "
			"expected '[COUNT]\tMESSAGE'" : "cannot read the status "
			"row '%s': expected '[CODE]\tN responses'", s);
}

int
load_hey_text(const char *path, const char *data, size_t len,
	      struct load_result *r)
{
	static const int need[] = { H_TOTAL, H_SLOWEST, H_FASTEST, H_AVERAGE,
				    H_RPS };
	struct load_text t;
	struct hey h;
	enum section sec = S_NONE;
	char nb[NUM_TEXT_LEN];
	size_t i;
	int bad = 0;

	memset(&h, 0, sizeof(h));
	h.path = path;
	for (i = 0; i < PCT_N; i++)
		h.pct[i] = NAN;
	r->tool = LOAD_HEY_TEXT;
	load_text_split(&t, data, len);
	for (i = 0; i < t.n && !bad; i++) {
		const char *s = t.line[i], *b = load_skip_blanks(s);
		long no = (long)i + 1;

		if (!*b)
			continue;
		if (b == s) {	/* a section heading */
			size_t n = strlen(s);

			if (n < 2 || s[n - 1] != ':') {
				bad = error_at(path, no, "unexpected '%s' in "
					       "hey's report", s);
				break;
			}
			sec = !strcmp(s, "Summary:") ? S_SUMMARY :
			      !strcmp(s, "Latency distribution:") ? S_LATENCY :
			      !strcmp(s, "Status code distribution:") ? S_STATUS :
			      !strcmp(s, "Error distribution:") ? S_ERRORS :
			      S_OTHER;
			if (sec == S_STATUS) {
				if (h.status_line)
					bad = error_at(path, no, "a second status "
						       "code distribution");
				h.status_line = no;
			}
			continue;
		}
		switch (sec) {
		case S_SUMMARY:
			bad = summary_line(&h, b, no);
			break;
		case S_LATENCY:
			bad = latency_line(&h, b, no);
			break;
		case S_STATUS:
		case S_ERRORS:
			bad = bracket_line(&h, b, no, sec == S_ERRORS);
			break;
		case S_NONE:
			bad = error_at(path, no, "unexpected '%s' before hey's "
				       "summary", b);
			break;
		default:
			break;
		}
	}
	load_text_free(&t);
	if (bad)
		return -1;
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!h.line[need[i]])
			return error_at(path, 0, "no '%s' line in hey's summary",
					hnames[need[i]]);
	if (!h.status_line)
		return error_at(path, 0, "no status code distribution in "
				"hey's report");
	if (h.responses > 0 && h.nan[H_AVERAGE])
		return error_at(path, h.line[H_AVERAGE], "'Average' is NaN "
				"while %s requests got a response",
				num_text(nb, h.responses));
	/*
	 * hey's Requests/sec is its results (errors too; successes only
	 * before 2018) over Total, both printed to 4 decimals: the rows must
	 * add up to it, else the report was cut short or lost rows (a cut
	 * after "[200] 241 responses" read 241 of 296 requests, none of the
	 * 55 non-2xx).  Past 1,000,000 results hey's distributions stop.
	 */
	if (h.responses + h.errors < 1e6 && h.v[H_TOTAL] > 0) {
		double want = h.v[H_RPS] * h.v[H_TOTAL];
		double tol = 0.5 + 0.00005 * (h.v[H_RPS] + h.v[H_TOTAL]);

		if (fabs(h.responses + h.errors - want) > tol && fabs(h.responses - want) > tol)
			return error_at(path, h.status_line, "the status codes and errors "
					"count %s requests, but Requests/sec x Total is %.1f: "
					"a report cut short, or rows missing",
					num_text(nb, h.responses + h.errors), want);
	}
	r->responses = h.responses;
	r->errors = h.errors;
	r->requests = h.responses + h.errors;
	for (i = 0; i < 6; i++)
		r->status[i] = h.status[i];
	r->status[0] += h.errors;
	r->time_taken_s = h.v[H_TOTAL];
	r->rps_mean = h.v[H_RPS];
	if (h.line[H_DATA]) {
		r->bytes_read = h.v[H_DATA];
		r->bytes_kind = LOAD_BYTES_BODY;
	}
	if (h.responses > 0) {
		r->lat_mean_us = h.v[H_AVERAGE] * 1e6;
		r->lat_min_us = h.v[H_FASTEST] * 1e6;
		r->lat_max_us = h.v[H_SLOWEST] * 1e6;
		for (i = 0; i < PCT_N; i++)
			r->lat_pct_us[i] = h.pct[i] * 1e6;
	}
	return 0;
}

/* ---- CSV -------------------------------------------------------------- */

#define HEY_CSV_FIELDS 8
static const char *const csv_names[HEY_CSV_FIELDS] = {
	"response-time", "DNS+dialup", "DNS", "Request-write",
	"Response-delay", "Response-read", "status-code", "offset"
};

struct rows {
	const char *path;
	struct load_hist h;
	double status[6], responses, end;
	int header;
};

static void *
rows_open(const char *path)
{
	struct rows *x = xmalloc(sizeof(*x));

	memset(x, 0, sizeof(*x));
	x->path = path;
	load_hist_init(&x->h, 100);
	return x;
}

static void
rows_close(void *st)
{
	struct rows *x = st;

	load_hist_free(&x->h);
	free(x);
}

static int
rows_record(void *st, char *s, size_t n, long line)
{
	struct rows *x = st;
	char *f[HEY_CSV_FIELDS + 1];
	double v[HEY_CSV_FIELDS];
	const char *why = "";
	int nf, i;

	if (strlen(s) != n)
		return error_at(x->path, line, "NUL byte in hey's CSV");
	nf = load_csv_fields(s, ',', f, HEY_CSV_FIELDS + 1, &why);
	if (nf < 0)
		return error_at(x->path, line, "%s", why);
	if (nf != HEY_CSV_FIELDS)
		return error_at(x->path, line, "%d fields where hey's CSV has %d",
				nf, HEY_CSV_FIELDS);
	if (!x->header) {
		for (i = 0; i < HEY_CSV_FIELDS; i++)
			if (strcmp(f[i], csv_names[i]))
				return error_at(x->path, line, "not hey's CSV "
						"header: field %d is '%s', not '%s'",
						i + 1, f[i], csv_names[i]);
		x->header = 1;
		return 0;
	}
	for (i = 0; i < HEY_CSV_FIELDS; i++) {
		const char *p = f[i];
		int rc = i == 6 ? load_scan_count(&p, &v[i]) :
				  load_scan_num(&p, &v[i]);

		if (rc || *p || p == f[i] || v[i] < 0 || f[i][0] == ' ')
			return error_at(x->path, line, "'%s' must be %s, not "
					"'%s'", csv_names[i], i == 6 ?
					"an HTTP status code" :
					"a non-negative number of seconds", f[i]);
	}
	if (v[6] < 100 || v[6] > 599)
		return error_at(x->path, line, "'status-code' must be an HTTP "
				"status code, not '%s'", f[6]);
	if (load_hist_add(&x->h, v[0] * 1e6))
		return error_at(x->path, line, "'response-time' is not a "
				"plausible latency: '%s'", f[0]);
	x->responses++;
	x->status[(int)v[6] / 100]++;
	if (v[7] + v[0] > x->end)
		x->end = v[7] + v[0];
	return 0;
}

static int
rows_end(void *st, long lines, struct load_result *r)
{
	struct rows *x = st;
	size_t i;

	(void)lines;
	r->tool = LOAD_HEY_CSV;
	if (!x->header)
		return error_at(x->path, 0, "empty file");
	if (!x->responses)
		return error_at(x->path, 0, "no rows after hey's CSV header");
	r->responses = x->responses;
	for (i = 1; i < 6; i++)
		r->status[i] = x->status[i];
	r->time_taken_s = x->end;
	if (x->end > 0)
		r->rps_mean = x->responses / x->end;
	load_hist_result(&x->h, r);
	return 0;
}

const struct load_stream_ops load_hey_csv_ops = {
	1, rows_open, rows_record, rows_end, rows_close
};
