/*
 * load_stream.c - the formats with a line per request (k6 --out json,
 * hey -o csv, JMeter JTL): records fed in chunks, a latency histogram of
 * bounded size, and load_read_file(), which streams them from the file
 * (every other format is read whole, as before).
 *
 * Percentiles of these formats are computed here, by one method for all:
 * the nearest rank (the smallest value with at least ceil(p/100 n) values
 * at or below it, no interpolation; JMeter's Aggregate Report and hey
 * itself take a sample value the same way).  They are exact for values
 * below 65536 units of the tool's printed resolution (65.5 s of JMeter's
 * whole ms, 6.5 s of hey's 0.1 ms, 65 ms of k6's values rounded to 1 us),
 * above that whenever the value of that rank is the smallest or the
 * largest in its bucket (a bucket spans 1/32768 of its values), else the
 * smallest value of the bucket: a sample within 1/32768 below it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/utf8.h"
#include "ingest/input.h"
#include "ingest/load.h"
#include "base/util.h"

#define EXACT 65536u
#define HALF 32768u
#define MAX_UNITS 1099511627776.0	/* 2^40 */
#define MAX_US 86400e6			/* one day */

/* ---- histogram ------------------------------------------------------- */

void
load_hist_init(struct load_hist *h, double unit_us)
{
	memset(h, 0, sizeof(*h));
	h->unit_us = unit_us;
	h->min = h->max = NAN;
}

void
load_hist_free(struct load_hist *h)
{
	free(h->count);
	free(h->lohi);
	h->count = NULL;
	h->lohi = NULL;
	h->nbucket = h->alloc = 0;
}

static size_t
bucket_of(unsigned long long v)
{
	unsigned e = 0;

	if (v < EXACT)
		return (size_t)v;
	while ((v >> e) >= EXACT)
		e++;
	/* v >> e in [HALF, EXACT): HALF buckets per power of two */
	return EXACT + (size_t)(e - 1) * HALF + (size_t)((v >> e) - HALF);
}

static double
bucket_low(size_t i)
{
	size_t e, m;

	if (i < EXACT)
		return (double)i;
	e = (i - EXACT) / HALF + 1;
	m = (i - EXACT) % HALF + HALF;
	return ldexp((double)m, (int)e);
}

int
load_hist_add(struct load_hist *h, double us)
{
	double u = floor(us / h->unit_us + 0.5), d;
	size_t b, old;

	/* a latency over a day is a corrupt figure, not a slow request; the
	 * cap also bounds the histogram (about 18 MB at 1 us resolution) */
	if (!(us >= 0) || !(us <= MAX_US) || !(u < MAX_UNITS))
		return -1;
	b = bucket_of((unsigned long long)u);
	if (b >= h->nbucket) {
		old = h->nbucket;
		ALLOC_GROW(h->count, b + 1, h->alloc);
		memset(h->count + old, 0, (b + 1 - old) * sizeof(*h->count));
		if (b >= EXACT) {
			h->lohi = xrealloc(h->lohi, 2 * (b + 1 - EXACT) *
					   sizeof(*h->lohi));
		}
		h->nbucket = b + 1;
	}
	if (b >= EXACT) {
		double *lh = h->lohi + 2 * (b - EXACT);

		if (h->count[b] == 0 || us < lh[0])
			lh[0] = us;
		if (h->count[b] == 0 || us > lh[1])
			lh[1] = us;
	}
	h->count[b]++;
	h->n++;
	d = us - h->mean;
	h->mean += d / h->n;
	h->m2 += d * (us - h->mean);
	if (isnan(h->min) || us < h->min)
		h->min = us;
	if (isnan(h->max) || us > h->max)
		h->max = us;
	return 0;
}

double
load_hist_pct(const struct load_hist *h, double p)
{
	double rank, cum = 0, v;
	size_t i;

	if (!(h->n > 0))
		return NAN;
	rank = ceil(p / 100 * h->n - 1e-9);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < h->nbucket; i++) {
		cum += h->count[i];
		if (cum >= rank)
			break;
	}
	if (i >= h->nbucket)
		return h->max;
	if (i >= EXACT) {
		/* the smallest and largest value of the bucket are known:
		 * exact when the rank is the first or last in it, else the
		 * smallest, a sample within 1/32768 below */
		const double *lh = h->lohi + 2 * (i - EXACT);

		return cum == rank ? lh[1] : lh[0];
	}
	v = bucket_low(i) * h->unit_us;
	/* the rounding to units must not move a percentile out of the data */
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

void
load_hist_result(const struct load_hist *h, struct load_result *r)
{
	size_t i;

	if (!(h->n > 0))
		return;
	r->lat_mean_us = h->mean;
	r->lat_sd_us = h->n > 1 ? sqrt(h->m2 / (h->n - 1)) : NAN;
	r->lat_min_us = h->min;
	r->lat_max_us = h->max;
	for (i = 0; i < PCT_N; i++)
		r->lat_pct_us[i] = load_hist_pct(h, load_pct_value[i]);
}

/* ---- records ---------------------------------------------------------- */

void
load_feed_init(struct load_feed *f, const char *path, int quoted,
	       int (*record)(void *, char *, size_t, long), void *ctx)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->quoted = quoted;
	f->record = record;
	f->ctx = ctx;
	buf_init(&f->cur, 0);
	f->line = f->start = 1;
}

void
load_feed_free(struct load_feed *f)
{
	buf_release(&f->cur);
}

static int
emit(struct load_feed *f)
{
	size_t n = f->cur.len;
	int rc;

	if (n && f->cur.ptr[n - 1] == '\r')
		n--;
	buf_setlen(&f->cur, n);
	rc = f->record(f->ctx, f->cur.ptr, n, f->start);
	buf_reset(&f->cur);
	if (rc)
		f->failed = 1;
	return rc;
}

int
load_feed(struct load_feed *f, const char *p, size_t n)
{
	size_t i = 0, j;

	if (f->failed)
		return -1;
	while (i < n) {
		for (j = i; j < n && p[j] != '\n' && !(f->quoted && p[j] == '"'); j++)
			;
		if (f->cur.len + (j - i) > LOAD_RECORD_MAX) {
			f->failed = 1;
			return error_at(f->path, f->start, "line longer than %d bytes",
					LOAD_RECORD_MAX);
		}
		buf_add(&f->cur, p + i, j - i);
		if (j >= n)
			break;
		if (p[j] == '"') {
			f->inq = !f->inq;
			buf_addch(&f->cur, '"');
		} else if (f->inq) {
			buf_addch(&f->cur, '\n');
			f->line++;
		} else {
			if (emit(f))
				return -1;
			f->line++;
			f->start = f->line;
		}
		i = j + 1;
	}
	return 0;
}

int
load_feed_end(struct load_feed *f)
{
	if (f->failed)
		return -1;
	if (f->inq) {
		f->failed = 1;
		return error_at(f->path, f->start, "unterminated quoted field");
	}
	if (f->cur.len)
		return emit(f);
	return 0;
}

int
load_csv_fields(char *s, char delim, char **f, size_t max, const char **why)
{
	size_t n = 0;
	char *w;

	for (;;) {
		if (n < max)
			f[n] = s;
		w = s;
		if (*s == '"') {
			for (s++;;) {
				if (!*s) {
					*why = "unterminated quoted field";
					return -1;
				}
				if (*s == '"' && s[1] == '"') {
					*w++ = '"';
					s += 2;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					*w++ = *s++;
				}
			}
			if (*s && *s != delim) {
				*why = "text after a closing quote";
				return -1;
			}
		} else {
			while (*s && *s != delim) {
				if (*s == '"') {
					*why = "a quote inside an unquoted field";
					return -1;
				}
				w++, s++;
			}
		}
		n++;
		if (!*s) {
			*w = '\0';
			return (int)n;
		}
		*w = '\0';
		s++;
	}
}

/* ---- times ------------------------------------------------------------ */

static int
digits(const char **p, int n, long *v)
{
	*v = 0;
	while (n--) {
		if (**p < '0' || **p > '9')
			return -1;
		*v = *v * 10 + (**p - '0');
		(*p)++;
	}
	return 0;
}

int
load_rfc3339(const char *s, long long *whole, double *frac)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	long y, mo, d, h, mi, se, oh = 0, om = 0;
	double scale = 0.1;
	int sign = 0;

	*frac = 0;
	if (digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) ||
	    *s++ != '-' || digits(&s, 2, &d) || *s++ != 'T' ||
	    digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi) ||
	    *s++ != ':' || digits(&s, 2, &se))
		return -1;
	if (*s == '.') {
		if (s[1] < '0' || s[1] > '9')
			return -1;
		for (s++; *s >= '0' && *s <= '9'; s++, scale /= 10)
			*frac += (*s - '0') * scale;
	}
	if (*s == 'Z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if (digits(&s, 2, &oh) || *s++ != ':' || digits(&s, 2, &om) ||
		    oh > 23 || om > 59)
			return -1;
	} else {
		return -1;
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 ||
	    mi > 59 || se > 60)
		return -1;
	*whole = (long long)days_from_civil(y, mo, d) * 86400 + h * 3600 +
		 mi * 60 + se - sign * (oh * 3600 + om * 60);
	return 0;
}

/* ---- streaming -------------------------------------------------------- */

static int
load_tool_streamed(enum load_tool t)
{
	return load_stream_ops_of(t) != NULL;
}

const struct load_stream_ops *
load_stream_ops_of(enum load_tool t)
{
	switch (t) {
	case LOAD_K6_NDJSON:
		return &load_k6_ndjson_ops;
	case LOAD_HEY_CSV:
		return &load_hey_csv_ops;
	case LOAD_JMETER_CSV:
		return &load_jmeter_csv_ops;
	default:
		return NULL;
	}
}

struct stream {
	const struct load_stream_ops *ops;
	void *st;
	struct load_feed feed;
};

static void
stream_open(struct stream *s, const char *path, enum load_tool t)
{
	s->ops = load_stream_ops_of(t);
	if (!s->ops)
		BUG("%s is not a streamed format", load_tool_name(t));
	s->st = s->ops->open(path);
	load_feed_init(&s->feed, path, s->ops->quoted, s->ops->record, s->st);
}

static int
stream_close(struct stream *s, int ok, struct load_result *r)
{
	int rc = -1;

	if (ok && !load_feed_end(&s->feed))
		rc = s->ops->end(s->st, s->feed.line, r);
	s->ops->close(s->st);
	load_feed_free(&s->feed);
	return rc;
}

int
load_stream_mem(const char *path, const char *data, size_t len,
		enum load_tool t, struct load_result *r)
{
	struct stream s;

	stream_open(&s, path, t);
	return stream_close(&s, !load_feed(&s.feed, data, len), r);
}

#define HEAD (64 * 1024)


int
load_read_file(const char *path, enum load_tool force, struct load_result *out)
{
	struct input *in;
	char *chunk;
	size_t have = 0;
	long got = 0;
	enum load_tool t = force;
	struct stream s;
	int ok;

	load_result_init(out);
	in = input_open(path, input_max_stream);
	if (!in)
		return -1;
	chunk = xmalloc(HEAD);
	while (have < HEAD && (got = input_read(in, chunk + have, HEAD - have)) > 0)
		have += (size_t)got;
	if (got < 0) {
		free(chunk);
		input_close(in);
		return -1;
	}
	if (t == LOAD_UNKNOWN)
		t = load_detect(chunk, have);
	if (!load_tool_streamed(t)) {
		/* whole-file formats: read under the small cap, as before */
		struct buf b = BUF_INIT;
		int rc;

		free(chunk);
		input_close(in);
		if (input_read_all(path, input_max_small, &b))
			return -1;
		rc = load_parse(path, b.ptr, b.len, force, out);
		buf_release(&b);
		return rc;
	}
	stream_open(&s, path, t);
	{
		/* a byte order mark is no part of the first field (the
		 * whole-file formats drop it in load_parse_multi_as()) */
		size_t bom = utf8_bom(chunk, have);

		ok = !load_feed(&s.feed, chunk + bom, have - bom);
	}
	while (ok && (got = input_read(in, chunk, HEAD)) > 0)
		ok = !load_feed(&s.feed, chunk, (size_t)got);
	if (got < 0)
		ok = 0;
	free(chunk);
	input_close(in);
	if (stream_close(&s, ok, out)) {
		load_result_free(out);
		return -1;
	}
	return 0;
}
