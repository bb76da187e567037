/*
 * ingest/load.h - reading load-generator files (bombardier JSON or text,
 * oha JSON, autocannon JSON, wrk / wrk2 text) into model/load.h.
 */
#ifndef ERG_INGEST_LOAD_H
#define ERG_INGEST_LOAD_H

#include <stddef.h>

#include "model/load.h"

/*
 * Detect the format from the content (and the name as a hint) and parse.
 * `data` is the whole file (NUL-terminated, len bytes); `path` is used for
 * diagnostics only.  `force` overrides detection when not LOAD_UNKNOWN.
 * Returns 0, or -1 after printing "erg: path:line: error: ..." diagnostics.
 */
int load_parse(const char *path, const char *data, size_t len,
	       enum load_tool force, struct load_result *out);

/* The format load_parse() would pick for this content (or LOAD_UNKNOWN). */
enum load_tool load_detect(const char *data, size_t len);

/*
 * load_parse() of the file at path, read through ingest/input.h.  The
 * formats with a row or a point per request (k6 --out json, hey -o csv,
 * JMeter JTL) are streamed: memory follows the longest line and the
 * latency histogram, not the file, and the cap is input_max_stream; every
 * other format is read whole under input_max_small.
 */
int load_read_file(const char *path, enum load_tool force,
		   struct load_result *out);

/*
 * Every run in one file: bombardier text and wrk/wrk2 text files may hold
 * several runs (SaltyAom's results/<runtime>/<framework>.txt hold one per
 * route, each after its command line); the JSON formats always give one.
 * load_parse() is this with "exactly one run" required.  On success *out is
 * a new array of *n >= 1 results (free with load_results_free); on error
 * *out = NULL, *n = 0 and -1 is returned after diagnostics for every bad run.
 */
int load_parse_multi(const char *path, const char *data, size_t len,
		     struct load_result **out, size_t *n);
int load_parse_multi_as(const char *path, const char *data, size_t len,
			enum load_tool force, struct load_result **out,
			size_t *n);

#ifdef LOAD_INTERNAL
/*
 * Internal to gen/load*.c (they define LOAD_INTERNAL before including this
 * header); nothing else may use these.
 */
#include <stdarg.h>
#include <jansson.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/util.h"

/* A text file split into NUL-terminated lines; line[i] is file line i + 1,
 * with a trailing CR removed (progress bars keep their inner CRs). */
struct load_text {
	char *mem;
	char **line;
	size_t n;
};
void load_text_split(struct load_text *t, const char *data, size_t len);
void load_text_free(struct load_text *t);

/*
 * Token scanners for human-formatted numbers.  Each skips leading blanks,
 * reads one token at *p and advances *p past it; 0 on success, -1 (and *p
 * unchanged) when the text there is not of that shape.
 */
const char *load_skip_blanks(const char *p);
/* s past prefix, or NULL when s does not start with it. */
const char *load_after(const char *s, const char *prefix);
/* decimal with optional sign and exponent (no hex, inf, nan) */
int load_scan_num(const char **p, double *v);
int load_scan_count(const char **p, double *v);	/* unsigned integer */
/* 1.2us 3ms 4.5s 1.50m 2h, into microseconds */
int load_scan_time_us(const char **p, double *us);
/* 4.30MB 512.00 1.2K 3GB: binary multiples (x1024), into bytes */
int load_scan_binary(const char **p, double *v);
/* 4.47k 584.21 1.2M: metric multiples (x1000) */
int load_scan_metric(const char **p, double *v);
/* Go's Duration.String(): 10s 1m30s 500ms, into seconds */
int load_scan_go_duration(const char **p, double *s);
/* The token at s (up to a blank or comma, at most 40 bytes), for messages;
 * caller frees. */
char *load_token_dup(const char *s);

/* A recorded command line split into words, in place in a private copy:
 * blanks separate words and one pair of matching outer quotes is removed
 * from each word (no other shell syntax).  word[0] is the program. */
struct load_words {
	char *mem;
	char **word;
	size_t n;
};
void load_words_split(struct load_words *w, const char *line);
void load_words_free(struct load_words *w);
/* word[0]'s base name starts with prog ("bombardier", "wrk"). */
int load_words_is(const struct load_words *w, const char *prog);
/* Option `name` ("-c", "--connections") at word *i: its value (the next
 * word, or after '=' or attached to a short option), *i advanced past it.
 * NULL when word[*i] is not that option; *missing set when it has no value. */
const char *load_words_opt(const struct load_words *w, size_t *i,
			   const char *name, int *missing);

/* Parse text[0..len) (file line line0 + 1 onwards) as base/json.h does;
 * go_escapes: rewrite Go %q escapes (\a \v \xNN \UXXXXXXXX) into JSON
 * ones first. */
int load_json_parse(struct jdoc *j, const char *path, const char *text, size_t len,
		    long line0, int go_escapes);

/* Per-format parsers; each fills r (already load_result_init'ed). */
int load_bombardier_json(const char *path, const char *data, size_t len,
			 struct load_result *r);
int load_oha_json(const char *path, const char *data, size_t len,
		  struct load_result *r);
int load_autocannon_json(const char *path, const char *data, size_t len,
			 struct load_result *r);
/* Text formats may hold several runs: appended to *v (*n, *alloc). */
int load_bombardier_text(const char *path, const char *data, size_t len,
			 struct load_result **v, size_t *n, size_t *alloc);
int load_wrk_text(const char *path, const char *data, size_t len,
		  enum load_tool force, struct load_result **v, size_t *n,
		  size_t *alloc);
/* Which of the keys erg detects formats by appear at the top level of the
 * object opening at data[start]; tolerant of broken JSON (*complete = 0
 * when the object did not close properly). */
#define LK_SPEC		0x001
#define LK_RESULT	0x002
#define LK_SUMMARY	0x004
#define LK_LATPCT	0x008	/* latencyPercentiles */
#define LK_STATUSDIST	0x010	/* statusCodeDistribution */
#define LK_CONNECTIONS	0x020
#define LK_LATENCY	0x040
#define LK_REQUESTS	0x080
#define LK_THROUGHPUT	0x100
#define LK_SAMPLEINT	0x200
#define LK_METRICS	0x400	/* k6 summary */
#define LK_ROOTGROUP	0x800
#define LK_STATE	0x1000
#define LK_METRIC	0x2000	/* k6 NDJSON line */
#define LK_TYPE		0x4000
#define LK_DATA		0x8000
#define LK_LATENCIES	0x10000	/* vegeta */
#define LK_STATUSCODES	0x20000
#define LK_BYTESIN	0x40000
unsigned load_top_keys(const char *data, size_t len, size_t start, int *complete);
/* Offset of the first non-blank byte (after a UTF-8 BOM); with allow_prefix
 * the '{' where a bombardier JSON starts after progress text (len if none). */
size_t load_json_start(const char *data, size_t len, int allow_prefix);

int load_k6_json(const char *path, const char *data, size_t len,
		 struct load_result *r);
int load_vegeta_json(const char *path, const char *data, size_t len,
		     struct load_result *r);
int load_ab_text(const char *path, const char *data, size_t len,
		 struct load_result *r);
int load_hey_text(const char *path, const char *data, size_t len,
		  struct load_result *r);

/*
 * A latency histogram of bounded size for the formats that list every
 * request: values are whole multiples of the tool's resolution (`unit_us`
 * microseconds: 1000 for JMeter's ms, 100 for hey's 0.1 ms, 1 for k6);
 * below 65536 units each value has its own bucket (exact), above it a
 * bucket spans 1/32768 of its value at most and keeps its smallest and
 * largest value, so memory follows the range of the latencies, never
 * their number.  Mean, SD, min and max are kept exactly beside it.
 */
struct load_hist {
	double unit_us;
	double *count;
	double *lohi;		/* smallest and largest value of each
				 * bucket from 65536 on, in microseconds */
	size_t nbucket, alloc;
	double n, mean, m2, min, max;	/* Welford, in microseconds */
};
void load_hist_init(struct load_hist *h, double unit_us);
void load_hist_free(struct load_hist *h);
/* Add a latency in microseconds; -1 when it is negative, not finite or
 * over a day. */
int load_hist_add(struct load_hist *h, double us);
/* Fill r's latency fields (all NAN when h is empty). */
void load_hist_result(const struct load_hist *h, struct load_result *r);
/* Nearest rank: the smallest recorded value with at least ceil(p/100 n)
 * values at or below it (p in (0, 100]); NAN when empty. */
double load_hist_pct(const struct load_hist *h, double p);

/*
 * Records of a line-based file fed in chunks (a file streamed through
 * input.h, or a whole buffer): each complete line goes to the callback
 * NUL-terminated, without its LF or a CR before it, with its file line.
 * With quoted set, a line break inside double quotes does not end the
 * record (CSV).  A record is capped at LOAD_RECORD_MAX bytes.
 */
#define LOAD_RECORD_MAX (1 << 20)
struct load_feed {
	const char *path;
	int quoted;
	int (*record)(void *ctx, char *s, size_t n, long line);
	void *ctx;
	struct buf cur;
	long line, start;
	int inq, failed;
};
void load_feed_init(struct load_feed *f, const char *path, int quoted,
		    int (*record)(void *, char *, size_t, long), void *ctx);
int load_feed(struct load_feed *f, const char *p, size_t n);
int load_feed_end(struct load_feed *f);	/* the last line without a LF */
void load_feed_free(struct load_feed *f);

/* A streamed format: a state made per file, a handler per record, the
 * summary at the end (into r, already load_result_init'ed). */
struct load_stream_ops {
	int quoted;	/* CSV: quoted fields may hold line breaks */
	void *(*open)(const char *path);
	int (*record)(void *st, char *s, size_t n, long line);
	int (*end)(void *st, long lines, struct load_result *r);
	void (*close)(void *st);
};
extern const struct load_stream_ops load_k6_ndjson_ops, load_hey_csv_ops,
	load_jmeter_csv_ops;

/* The ops of a streamed format; NULL for the others. */
const struct load_stream_ops *load_stream_ops_of(enum load_tool t);
/* Parse a streamed format held whole in memory. */
int load_stream_mem(const char *path, const char *data, size_t len,
		    enum load_tool t, struct load_result *r);

/* Split one CSV record in place (fields NUL-terminated, quotes removed,
 * "" read as "); delim ',' or '\t'.  Returns the field count, or -1 with
 * *why set when a quote is misplaced.  At most max fields are stored. */
int load_csv_fields(char *s, char delim, char **f, size_t max, const char **why);

/* RFC 3339 "2024-08-21T03:13:39.74173671-03:00" or "...Z": whole Unix
 * seconds (UTC) and the fraction apart; -1 when not of that shape. */
int load_rfc3339(const char *s, long long *whole, double *frac);
#endif /* LOAD_INTERNAL */

#endif
