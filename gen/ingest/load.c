/*
 * load.c - load-generator files: the public API of load.h, format
 * detection, and the helpers the per-format parsers share (a line
 * splitter and scanners for the human units the text formats print).
 *
 * The parsers themselves live in load_bombardier.c, load_bombardier_text.c,
 * load_oha.c, load_autocannon.c, load_wrk.c, load_k6.c, load_ab.c,
 * load_hey.c, load_vegeta.c and load_jmeter.c; JSON plumbing (jansson plus
 * a locator that turns a value's path into a file line) in load_json.c;
 * the formats with a line per request are streamed (load_stream.c, which
 * also defines their one percentile method).
 *
 * How the shared model is filled, for every tool:
 *   requests  = responses + errors (what got an outcome); oha's deadline
 *               aborts are kept out of both (see `aborted`).
 *   status[0] = requests - status[1..5]: whatever did not get a 1xx-5xx
 *               response, transport errors included (bombardier's "others").
 *               wrk/wrk2 print no status classes: status[] stays NAN and
 *               non_2xx_3xx carries its one status figure.
 *   bytes     = bytes_kind says whether they count the wire (headers and
 *               bodies: bombardier, wrk, autocannon, k6, ab, JMeter) or
 *               bodies only (oha, hey, vegeta).
 *   failed    = the tool's own verdict where it has one (k6
 *               http_req_failed, JMeter success, vegeta success ratio).
 *   k6's summary tells no status classes: its failed count is carried in
 *   non_2xx_3xx as wrk's one figure is.  Each load_<tool>.c says the rest.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "ingest/load.h"
#include "base/utf8.h"

/* ---- text helpers ---------------------------------------------------- */

void
load_text_split(struct load_text *t, const char *data, size_t len)
{
	size_t alloc = 0, i, start = 0;

	t->mem = xmalloc(len + 1);
	memcpy(t->mem, data, len);
	t->mem[len] = '\0';
	t->line = NULL;
	t->n = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && t->mem[i] != '\n')
			continue;
		if (i == len && start == len)
			break;	/* no empty line after a final newline */
		t->mem[i] = '\0';
		if (i > start && t->mem[i - 1] == '\r')
			t->mem[i - 1] = '\0';
		ALLOC_GROW(t->line, t->n + 1, alloc);
		t->line[t->n++] = t->mem + start;
		start = i + 1;
	}
}

void
load_text_free(struct load_text *t)
{
	free(t->mem);
	free(t->line);
	t->mem = NULL;
	t->line = NULL;
	t->n = 0;
}

const char *
load_skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

const char *
load_after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) ? NULL : s + n;
}

char *
load_token_dup(const char *s)
{
	size_t n = 0;

	s = load_skip_blanks(s);
	while (s[n] && s[n] != ' ' && s[n] != '\t' && (s[n] != ',' || !n) &&
	       n < 40)
		n++;
	return xstrndup(s, n);
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * A plain decimal number: [+-]digits[.digits][e[+-]digits].  Done by hand
 * so that strtod's extras (hex floats, "inf", "nan", leading blanks in the
 * middle) never pass as data.
 */
int
load_scan_num(const char **pp, double *v)
{
	const char *p = load_skip_blanks(*pp), *q = p;
	char tmp[64];
	size_t nd = 0, n;
	char *end;
	double x;

	if (*q == '+' || *q == '-')
		q++;
	while (is_digit(*q))
		q++, nd++;
	if (*q == '.') {
		q++;
		while (is_digit(*q))
			q++, nd++;
	}
	if (!nd)
		return -1;
	if (*q == 'e' || *q == 'E') {
		const char *r = q + 1;

		if (*r == '+' || *r == '-')
			r++;
		if (is_digit(*r)) {
			while (is_digit(*r))
				r++;
			q = r;
		}
	}
	n = (size_t)(q - p);
	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	x = strtod(tmp, &end);
	if (*end || !isfinite(x))
		return -1;
	*v = x;
	*pp = q;
	return 0;
}

int
load_scan_count(const char **pp, double *v)
{
	const char *p = load_skip_blanks(*pp), *q = p;

	if (!is_digit(*q))
		return -1;
	while (is_digit(*q))
		q++;
	if (*q == '.' || *q == 'e' || *q == 'E')
		return -1;
	/* past 2^53 a double no longer holds every whole number: wrk's
	 * 99999999999999999999999 requests read as 1e23 */
	if (load_scan_num(&p, v) || p != q || *v > 9007199254740992.0)
		return -1;
	*pp = q;
	return 0;
}

/* Unit suffix at *p from a table; the unit must not run on into letters. */
static int
scan_unit(const char **pp, const char *const *units, const double *mult,
	  size_t n, double *m)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t l = strlen(units[i]);

		if (!strncmp(*pp, units[i], l) && !is_alpha((*pp)[l])) {
			*pp += l;
			*m = mult[i];
			return 0;
		}
	}
	return -1;
}

int
load_scan_time_us(const char **pp, double *us)
{
	/* "\xc2\xb5s" is "µs" in UTF-8 (Go's Duration prints it). */
	static const char *const u[] = { "us", "\xc2\xb5s", "ms", "s", "m", "h" };
	static const double m[] = { 1, 1, 1e3, 1e6, 6e7, 3.6e9 };
	const char *p = *pp;
	double v, k;

	if (load_scan_num(&p, &v) || v < 0 ||
	    scan_unit(&p, u, m, sizeof(u) / sizeof(u[0]), &k))
		return -1;
	*us = v * k;
	*pp = p;
	return 0;
}

/* Binary multiples as both bombardier (KB, MB, ...) and wrk (K, M, ... +
 * "B") print them; a bare number is bytes. */
int
load_scan_binary(const char **pp, double *v)
{
	static const char prefixes[] = "KMGTP";
	const char *p = *pp, *s;
	double x, k = 1;

	if (load_scan_num(&p, &x) || x < 0)
		return -1;
	if (*p && (s = strchr(prefixes, *p)) != NULL) {
		k = pow(1024, (double)(s - prefixes) + 1);
		p++;
	}
	if (*p == 'B')
		p++;
	if (is_alpha(*p))
		return -1;
	*v = x * k;
	*pp = p;
	return 0;
}

int
load_scan_metric(const char **pp, double *v)
{
	static const char prefixes[] = "kMGTP";
	const char *p = *pp, *s;
	double x, k = 1;

	if (load_scan_num(&p, &x) || x < 0)
		return -1;
	if (*p && (s = strchr(prefixes, *p)) != NULL) {
		k = pow(1000, (double)(s - prefixes) + 1);
		p++;
	}
	if (is_alpha(*p))
		return -1;
	*v = x * k;
	*pp = p;
	return 0;
}

/* Go's time.Duration.String(): "10s", "1m30s", "1h0m0s", "500ms", "1.5µs". */
int
load_scan_go_duration(const char **pp, double *s)
{
	/* Longest unit first where one is a prefix of another ("ms", "m"). */
	static const char *const u[] = { "ns", "us", "\xc2\xb5s", "ms", "s",
					 "m", "h" };
	static const double m[] = { 1e-9, 1e-6, 1e-6, 1e-3, 1, 60, 3600 };
	const char *p = load_skip_blanks(*pp);
	double total = 0;
	int parts = 0;

	while (is_digit(*p) || *p == '.') {
		double v, k;

		/* scan_unit accepts "1m30s": after "m" comes a digit */
		if (load_scan_num(&p, &v) || v < 0 ||
		    scan_unit(&p, u, m, sizeof(u) / sizeof(u[0]), &k))
			return -1;
		total += v * k;
		parts++;
	}
	if (!parts || is_alpha(*p))
		return -1;
	*s = total;
	*pp = p;
	return 0;
}

void
load_words_split(struct load_words *w, const char *line)
{
	size_t alloc = 0;
	char *p;

	w->mem = xstrdup(line);
	w->word = NULL;
	w->n = 0;
	for (p = w->mem; *p;) {
		char *start;
		size_t l;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		l = strlen(start);
		if (l >= 2 && (start[0] == '\'' || start[0] == '"') &&
		    start[l - 1] == start[0]) {
			start[l - 1] = '\0';
			start++;
		}
		ALLOC_GROW(w->word, w->n + 1, alloc);
		w->word[w->n++] = start;
	}
}

void
load_words_free(struct load_words *w)
{
	free(w->mem);
	free(w->word);
	w->mem = NULL;
	w->word = NULL;
	w->n = 0;
}

int
load_words_is(const struct load_words *w, const char *prog)
{
	const char *base;

	if (!w->n)
		return 0;
	base = strrchr(w->word[0], '/');
	base = base ? base + 1 : w->word[0];
	return str_startswith(base, prog);
}

const char *
load_words_opt(const struct load_words *w, size_t *i, const char *name,
	       int *missing)
{
	const char *s = w->word[*i];
	size_t n = strlen(name);

	*missing = 0;
	if (strncmp(s, name, n))
		return NULL;
	if (!s[n]) {
		if (*i + 1 >= w->n) {
			*missing = 1;
			return NULL;
		}
		*i += 1;
		return w->word[*i];
	}
	if (s[n] == '=')
		return s + n + 1;
	if (name[1] != '-' && n == 2)	/* short option, value attached: -c500 */
		return s + n;
	return NULL;
}

/* ---- detection ------------------------------------------------------- */

/* needle occurs in data[0..len) (memmem is not in POSIX). */
static int
has(const char *data, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; n <= len && i <= len - n; i++) {
		const char *p = memchr(data + i, needle[0], len - n + 1 - i);

		if (!p)
			return 0;
		i = (size_t)(p - data);
		if (!memcmp(p, needle, n))
			return 1;
	}
	return 0;
}

/* Some line starts (after blanks) with prefix. */
static int
has_line(const char *data, size_t len, const char *prefix)
{
	size_t i = 0, n = strlen(prefix);

	while (i < len) {
		const char *nl = memchr(data + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - data) : len, j = i;

		while (j < end && (data[j] == ' ' || data[j] == '\t'))
			j++;
		if (end - j >= n && !memcmp(data + j, prefix, n))
			return 1;
		i = end + 1;
	}
	return 0;
}

size_t
load_json_start(const char *data, size_t len, int allow_prefix)
{
	size_t i = 0, first, k;
	int complete, tries;

	i = utf8_bom(data, len);
	while (i < len && (data[i] == ' ' || data[i] == '\t' ||
			   data[i] == '\n' || data[i] == '\r'))
		i++;
	if (!allow_prefix || (i < len && data[i] == '{'))
		return i;
	/*
	 * bombardier's progress output comes first: the JSON starts at the
	 * first '{' (as the energy runner reads it).  Should that brace sit
	 * inside the progress text, the first '{' opening a line is the
	 * next guess.
	 */
	for (first = i; first < len && data[first] != '{'; first++)
		;
	if (first >= len)
		return len;
	if (load_top_keys(data, len, first, &complete) & (LK_SPEC | LK_RESULT))
		return first;
	for (k = first + 1, tries = 0; k < len && tries < 16; k++) {
		if (data[k] != '{' || data[k - 1] != '\n')
			continue;
		tries++;	/* bounded: each try may scan to the end */
		if (load_top_keys(data, len, k, &complete) &
		    (LK_SPEC | LK_RESULT))
			return k;
	}
	return first;
}

#define HEY_CSV_HEADER "response-time,DNS+dialup,DNS,Request-write," \
	"Response-delay,Response-read,status-code,offset"

/* The first line (after a byte order mark) is line, CR or not. */
static int
first_line_is(const char *data, size_t len, const char *line)
{
	size_t i = utf8_bom(data, len), n = strlen(line);

	if (len - i < n || memcmp(data + i, line, n))
		return 0;
	i += n;
	return i == len || data[i] == '\n' || (data[i] == '\r' &&
					       (i + 1 == len || data[i + 1] == '\n'));
}

/* A JTL CSV header: its first line names the fields timeStamp and
 * elapsed, separated by commas or tabs. */
static int
jmeter_header(const char *data, size_t len)
{
	size_t i = utf8_bom(data, len), e;
	const char *nl = memchr(data + i, '\n', len - i);
	char line[512];

	e = nl ? (size_t)(nl - data) : len;
	if (e - i >= sizeof(line) - 2)
		e = i + sizeof(line) - 3;
	line[0] = ',';
	memcpy(line + 1, data + i, e - i);
	line[e - i + 1] = ',';
	line[e - i + 2] = '\0';
	for (e = 0; line[e]; e++)
		if (line[e] == '\t' || line[e] == '\r')
			line[e] = ',';
	return strstr(line, ",timeStamp,") && strstr(line, ",elapsed,");
}

enum {
	DET_AUTOCANNON_TEXT = 100,	/* recognised, not supported */
	DET_JSON_UNKNOWN,		/* a JSON object of no known tool */
};

static int
detect(const char *data, size_t len)
{
	size_t s = load_json_start(data, len, 0);
	unsigned k;
	int complete = 0;

	if (s < len && data[s] == '{') {
		k = load_top_keys(data, len, s, &complete);
		if ((k & LK_METRIC) && (k & LK_TYPE) && (k & LK_DATA))
			return LOAD_K6_NDJSON;
		if ((k & LK_METRICS) && (k & (LK_ROOTGROUP | LK_STATE)))
			return LOAD_K6_JSON;
		if ((k & LK_LATENCIES) && (k & (LK_STATUSCODES | LK_BYTESIN)))
			return LOAD_VEGETA_JSON;
		if ((k & LK_SPEC) && (k & LK_RESULT))
			return LOAD_BOMBARDIER_JSON;
		if ((k & LK_SUMMARY) && (k & (LK_LATPCT | LK_STATUSDIST)))
			return LOAD_OHA_JSON;
		if ((k & LK_CONNECTIONS) && (k & LK_LATENCY) &&
		    (k & LK_REQUESTS) && (k & LK_THROUGHPUT))
			return LOAD_AUTOCANNON_JSON;
		/*
		 * Truncated, broken or incomplete: a telling key is enough, so
		 * that the parser can say what is missing and where.  (A
		 * truncated document may hold only its first keys.)
		 */
		if (k & (LK_SPEC | LK_RESULT))
			return LOAD_BOMBARDIER_JSON;
		if (k & (LK_SUMMARY | LK_LATPCT | LK_STATUSDIST))
			return LOAD_OHA_JSON;
		if (k & (LK_METRICS | LK_ROOTGROUP))
			return LOAD_K6_JSON;
		if (k & (LK_LATENCIES | LK_STATUSCODES))
			return LOAD_VEGETA_JSON;
		if ((k & LK_SAMPLEINT) ||
		    ((k & LK_CONNECTIONS) &&
		     (!complete || (k & (LK_LATENCY | LK_REQUESTS | LK_THROUGHPUT)))))
			return LOAD_AUTOCANNON_JSON;
		return DET_JSON_UNKNOWN;
	}
	s = load_json_start(data, len, 1);
	if (s < len && (load_top_keys(data, len, s, &complete) &
			(LK_SPEC | LK_RESULT)))
		return LOAD_BOMBARDIER_JSON;
	if (has(data, len, "Req/Bytes counts sampled") ||
	    (has_line(data, len, "\xe2\x94\x82 Stat") &&
	     has_line(data, len, "\xe2\x94\x82 Latency")))
		return DET_AUTOCANNON_TEXT;
	if (first_line_is(data, len, HEY_CSV_HEADER))
		return LOAD_HEY_CSV;
	if (jmeter_header(data, len))
		return LOAD_JMETER_CSV;
	if (has_line(data, len, "This is ApacheBench") ||
	    (has_line(data, len, "Concurrency Level:") &&
	     has_line(data, len, "Time taken for tests:")))
		return LOAD_AB_TEXT;
	if (has_line(data, len, "Summary:") &&
	    has_line(data, len, "Requests/sec:"))
		return LOAD_HEY_TEXT;
	if (has_line(data, len, "Running ") && has(data, len, " threads and ")) {
		if (has(data, len, "Thread calibration:") ||
		    has(data, len, "HdrHistogram") ||
		    has(data, len, "Detailed Percentile spectrum"))
			return LOAD_WRK2_TEXT;
		return LOAD_WRK_TEXT;
	}
	if ((has_line(data, len, "Statistics") && has(data, len, "Avg")) ||
	    has_line(data, len, "Reqs/sec"))
		return LOAD_BOMBARDIER_TEXT;
	return LOAD_UNKNOWN;
}

enum load_tool
load_detect(const char *data, size_t len)
{
	int d = detect(data, len);

	return d >= DET_AUTOCANNON_TEXT ? LOAD_UNKNOWN : (enum load_tool)d;
}

/* ---- entry points ---------------------------------------------------- */

/* One run of a single-run format (every format but the text ones of
 * bombardier and wrk). */
static int
parse_json_one(const char *path, const char *data, size_t len,
	       enum load_tool tool, struct load_result **v, size_t *n,
	       size_t *alloc)
{
	struct load_result r;
	int rc;

	load_result_init(&r);
	switch (tool) {
	case LOAD_BOMBARDIER_JSON:
		rc = load_bombardier_json(path, data, len, &r);
		break;
	case LOAD_OHA_JSON:
		rc = load_oha_json(path, data, len, &r);
		break;
	case LOAD_K6_JSON:
		rc = load_k6_json(path, data, len, &r);
		break;
	case LOAD_VEGETA_JSON:
		rc = load_vegeta_json(path, data, len, &r);
		break;
	case LOAD_AB_TEXT:
		rc = load_ab_text(path, data, len, &r);
		break;
	case LOAD_HEY_TEXT:
		rc = load_hey_text(path, data, len, &r);
		break;
	case LOAD_K6_NDJSON:
	case LOAD_HEY_CSV:
	case LOAD_JMETER_CSV:
		rc = load_stream_mem(path, data, len, tool, &r);
		break;
	default:
		rc = load_autocannon_json(path, data, len, &r);
		break;
	}
	if (rc) {
		load_result_free(&r);
		return -1;
	}
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = r;
	return 0;
}

int
load_parse_multi_as(const char *path, const char *data, size_t len,
		    enum load_tool force, struct load_result **out, size_t *n)
{
	struct load_result *v = NULL;
	size_t nv = 0, alloc = 0;
	int tool = force, rc;

	*out = NULL;
	*n = 0;
	/* a UTF-8 byte order mark (Excel's "CSV UTF-8", a Windows editor)
	 * is no part of a first field or line, for any reader; line numbers
	 * are unchanged */
	{
		size_t bom = utf8_bom(data, len);

		data += bom;
		len -= bom;
	}
	if (tool == LOAD_UNKNOWN)
		tool = detect(data, len);
	switch (tool) {
	case LOAD_BOMBARDIER_JSON:
	case LOAD_OHA_JSON:
	case LOAD_AUTOCANNON_JSON:
	case LOAD_K6_JSON:
	case LOAD_K6_NDJSON:
	case LOAD_AB_TEXT:
	case LOAD_HEY_TEXT:
	case LOAD_HEY_CSV:
	case LOAD_VEGETA_JSON:
	case LOAD_JMETER_CSV:
		rc = parse_json_one(path, data, len, (enum load_tool)tool, &v,
				    &nv, &alloc);
		break;
	case LOAD_BOMBARDIER_TEXT:
		rc = load_bombardier_text(path, data, len, &v, &nv, &alloc);
		break;
	case LOAD_WRK_TEXT:
	case LOAD_WRK2_TEXT:
		rc = load_wrk_text(path, data, len, force, &v, &nv, &alloc);
		break;
	case DET_AUTOCANNON_TEXT:
		return error_at(path, 0, "autocannon text output is not "
				"supported; use -j");
	case DET_JSON_UNKNOWN: {
		/* Say what is wrong with broken JSON before giving up. */
		struct jdoc j;
		size_t s = load_json_start(data, len, 0);
		long line0 = 0;
		size_t i;

		for (i = 0; i < s; i++)
			line0 += data[i] == '\n';
		if (load_json_parse(&j, path, data + s, len - s, line0, 0))
			return -1;
		jdoc_free(&j);
		return error_at(path, 0, "cannot tell the load-generator "
				"format of this JSON; name it with 'loadFormat' on "
				"its routeComplete or 'erg.loadFormat' in meta.json "
				"(%s)", load_tool_names);
	}
	default:
		if (load_json_start(data, len, 0) >= len)
			return error_at(path, 0, "empty file");
		return error_at(path, 0, "cannot tell the load-generator "
				"format; name it with 'loadFormat' on its "
				"routeComplete or 'erg.loadFormat' in meta.json "
				"(%s)", load_tool_names);
	}
	if (rc) {
		load_results_free(v, nv);
		return -1;
	}
	if (!nv)
		BUG("load parser for %s returned no run",
		    load_tool_name((enum load_tool)tool));
	*out = v;
	*n = nv;
	return 0;
}

int
load_parse_multi(const char *path, const char *data, size_t len,
		 struct load_result **out, size_t *n)
{
	return load_parse_multi_as(path, data, len, LOAD_UNKNOWN, out, n);
}

int
load_parse(const char *path, const char *data, size_t len,
	   enum load_tool force, struct load_result *out)
{
	struct load_result *v;
	size_t n;

	load_result_init(out);
	if (load_parse_multi_as(path, data, len, force, &v, &n))
		return -1;
	if (n != 1) {
		enum load_tool t = v[0].tool;

		load_results_free(v, n);
		return error_at(path, 0, "holds %zu %s runs where one was "
				"expected", n, load_tool_name(t));
	}
	*out = v[0];
	free(v);
	return 0;
}
