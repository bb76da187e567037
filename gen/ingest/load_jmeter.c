/*
 * load_jmeter.c - JMeter's JTL results in CSV (load-formats-2.md §5),
 * summarised while streamed: one row per sample, columns found by the
 * header's names (their set and order follow jmeter.properties; a file
 * without the header line cannot be read), comma or tab separated, fields
 * quoted as RFC 4180.
 *
 * Mapping, as JMeter's Aggregate Report does it: requests = the rows,
 * less transaction-controller parents (responseMessage "Number of samples
 * in transaction ...", which repeat their children's time; counted in
 * none of the figures); failed = rows with success "false" (JMeter's own
 * verdict: assertions included, so a 200 can fail); status classes from a
 * numeric responseCode, and a non-numeric one ("Non HTTP response code:
 * java.net.ConnectException") is a transport error (errors, status[0]);
 * without a responseCode column neither is reported.  Latency from
 * "elapsed" (whole ms: mean, SD, min, max, and 50 ... 99.9 % by the
 * nearest-rank method of load_stream.c, exact below 65.5 s).
 * time_taken_s = latest timeStamp + elapsed - earliest timeStamp, with
 * timeStamp the start of the sample (JMeter's shipped default,
 * sampleresult.timestamp.start=true) in epoch ms; a formatted timeStamp
 * (timestamp_format) is an error.  rps_mean = requests / time_taken_s;
 * connections = the largest allThreads (JMeter threads, each with its own
 * connection); bytes = sums of bytes (received, headers included) and
 * sentBytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "ingest/load.h"

#define MAX_COLS 256

enum { C_TS, C_ELAPSED, C_SUCCESS, C_CODE, C_MESSAGE, C_BYTES, C_SENT,
       C_THREADS, C_N };
static const char *const cnames[C_N] = { "timeStamp", "elapsed", "success",
	"responseCode", "responseMessage", "bytes", "sentBytes", "allThreads" };

struct jtl {
	const char *path;
	char delim;
	int col[C_N];		/* index in the row, -1 when absent */
	int ncols;
	struct load_hist h;
	double rows, failed, errors, status[6], parents;
	double bytes, sent, threads;
	double start, end;	/* ms */
};

static void *
jtl_open(const char *path)
{
	struct jtl *x = xmalloc(sizeof(*x));
	size_t i;

	memset(x, 0, sizeof(*x));
	x->path = path;
	for (i = 0; i < C_N; i++)
		x->col[i] = -1;
	load_hist_init(&x->h, 1000);
	x->threads = x->start = x->end = NAN;
	return x;
}

static void
jtl_close(void *st)
{
	struct jtl *x = st;

	load_hist_free(&x->h);
	free(x);
}

static int
header(struct jtl *x, char *s, long line)
{
	char *f[MAX_COLS + 1];
	const char *why = "";
	int n, i, k;

	x->delim = strchr(s, '\t') && !strchr(s, ',') ? '\t' : ',';
	n = load_csv_fields(s, x->delim, f, MAX_COLS + 1, &why);
	if (n < 0)
		return error_at(x->path, line, "%s", why);
	if (n > MAX_COLS)
		return error_at(x->path, line, "more than %d columns", MAX_COLS);
	for (i = 0; i < n; i++)
		for (k = 0; k < C_N; k++)
			if (!strcmp(f[i], cnames[k])) {
				if (x->col[k] >= 0)
					return error_at(x->path, line, "column '%s' "
							"given twice", cnames[k]);
				x->col[k] = i;
			}
	for (k = 0; k <= C_SUCCESS; k++)
		if (x->col[k] < 0)
			return error_at(x->path, line, "no '%s' column: not the "
					"header line of a JTL CSV (JMeter writes it "
					"with jmeter.save.saveservice.print_field_names"
					"=true)", cnames[k]);
	x->ncols = n;
	return 0;
}

static int
count(struct jtl *x, char **f, int k, double *v, long line)
{
	const char *p = f[x->col[k]];

	if (load_scan_count(&p, v) || *p || p == f[x->col[k]] ||
	    f[x->col[k]][0] == ' ')
		return error_at(x->path, line, "'%s' must be a whole number%s, "
				"not '%s'", cnames[k], k == C_TS ? " of epoch "
				"milliseconds (timestamp_format=ms)" : "",
				f[x->col[k]]);
	return 0;
}

static int
jtl_record(void *st, char *s, size_t n, long line)
{
	struct jtl *x = st;
	char *f[MAX_COLS + 1];
	const char *why = "", *code;
	double ts, el, v;
	int nf;

	if (strlen(s) != n)
		return error_at(x->path, line, "NUL byte in the JTL file");
	if (!x->ncols)
		return header(x, s, line);
	if (!n)
		return error_at(x->path, line, "empty line in the JTL file");
	nf = load_csv_fields(s, x->delim, f, MAX_COLS + 1, &why);
	if (nf < 0)
		return error_at(x->path, line, "%s", why);
	if (nf != x->ncols)
		return error_at(x->path, line, "%d fields where the header has %d",
				nf, x->ncols);
	if (x->col[C_MESSAGE] >= 0 &&
	    str_startswith(f[x->col[C_MESSAGE]], "Number of samples in transaction")) {
		x->parents++;
		return 0;
	}
	if (count(x, f, C_TS, &ts, line) || count(x, f, C_ELAPSED, &el, line))
		return -1;
	if (!strcmp(f[x->col[C_SUCCESS]], "false"))
		x->failed++;
	else if (strcmp(f[x->col[C_SUCCESS]], "true"))
		return error_at(x->path, line, "'success' must be 'true' or "
				"'false', not '%s'", f[x->col[C_SUCCESS]]);
	if (x->col[C_CODE] >= 0) {
		int c = 0, len = 0;

		for (code = f[x->col[C_CODE]]; *code >= '0' && *code <= '9' &&
		     len < 4; code++, len++)
			c = c * 10 + (*code - '0');
		if (*code || len != 3 || c < 100) {
			x->errors++;	/* "Non HTTP response code: ..." */
			x->status[0]++;
		} else {
			x->status[c < 600 ? c / 100 : 0]++;
		}
	}
	if (x->col[C_BYTES] >= 0) {
		if (count(x, f, C_BYTES, &v, line))
			return -1;
		x->bytes += v;
	}
	if (x->col[C_SENT] >= 0) {
		if (count(x, f, C_SENT, &v, line))
			return -1;
		x->sent += v;
	}
	if (x->col[C_THREADS] >= 0) {
		if (count(x, f, C_THREADS, &v, line))
			return -1;
		if (isnan(x->threads) || v > x->threads)
			x->threads = v;
	}
	if (load_hist_add(&x->h, el * 1e3))
		return error_at(x->path, line, "'elapsed' is not a plausible "
				"time: '%s'", f[x->col[C_ELAPSED]]);
	x->rows++;
	if (isnan(x->start) || ts < x->start)
		x->start = ts;
	if (isnan(x->end) || ts + el > x->end)
		x->end = ts + el;
	return 0;
}

static int
jtl_end(void *st, long lines, struct load_result *r)
{
	struct jtl *x = st;
	size_t i;

	(void)lines;
	r->tool = LOAD_JMETER_CSV;
	r->bytes_kind = LOAD_BYTES_WIRE;
	if (!x->ncols)
		return error_at(x->path, 0, "empty file");
	if (!x->rows)
		return error_at(x->path, 0, "no samples after the JTL header");
	r->requests = x->rows;
	r->failed = x->failed;
	if (x->col[C_CODE] >= 0) {
		r->errors = x->errors;
		r->responses = x->rows - x->errors;
		for (i = 0; i < 6; i++)
			r->status[i] = x->status[i];
	}
	if (x->col[C_BYTES] >= 0)
		r->bytes_read = x->bytes;
	if (x->col[C_SENT] >= 0)
		r->bytes_written = x->sent;
	r->connections = x->threads;
	r->time_taken_s = (x->end - x->start) / 1e3;
	if (r->time_taken_s > 0)
		r->rps_mean = r->requests / r->time_taken_s;
	load_hist_result(&x->h, r);
	return 0;
}

const struct load_stream_ops load_jmeter_csv_ops = {
	1, jtl_open, jtl_record, jtl_end, jtl_close
};
