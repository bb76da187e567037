/*
 * common.c - helpers and oracles shared by the fuzz targets (fuzz.h).
 *
 * Nothing here may hide a failure of the code under test: a check that
 * fails aborts (fuzz_fail), and setup failures (no scratch directory)
 * abort too, so a broken environment is never mistaken for a clean run.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest/archive.h"
#include "cmd/build.h"
#include "fuzz.h"
#include "render/html.h"
#include "render/numfmt.h"
#include "base/path.h"
#include "analyze/integrate.h"
#include "ingest/powermetrics.h"
#include "render/page_run.h"
#include "site/site.h"
#include "render/tmpl.h"
#include "base/util.h"

static int verbose;		/* ERG_FUZZ_VERBOSE: leave stderr alone */
static FILE *real_stderr;
static FILE *cap;
static char *cap_text;
static size_t cap_len;

void
fuzz_fail(const char *fmt, ...)
{
	FILE *f = real_stderr ? real_stderr : stderr;
	va_list ap;

	fputs("fuzz: oracle failed: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	if (cap_text && cap) {
		fflush(cap);
		fprintf(f, "fuzz: diagnostics so far:\n%.*s", (int)(cap_len > 4000 ? 4000 : cap_len),
			cap_text);
	}
	fflush(f);
	abort();
}

int
fuzz_relaxed(const char *tag)
{
	const char *r = getenv("ERG_FUZZ_RELAX"), *p;
	size_t n = strlen(tag);

	for (p = r; p && (p = strstr(p, tag)); p += n)
		if ((p == r || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

void
fuzz_init(void)
{
	const char *v = getenv("ERG_FUZZ_VERBOSE");

	verbose = v && *v && strcmp(v, "0");
	diag_quiet_warnings = !verbose;
	real_stderr = stderr;
}

void
fuzz_begin(void)
{
	if (verbose)
		return;
	fflush(stderr);
	cap = open_memstream(&cap_text, &cap_len);
	if (!cap)
		fuzz_fail("open_memstream: %s", strerror(errno));
	/* glibc's stderr is an ordinary variable; util.c reads it per call. */
	stderr = cap;
}

/* One captured line: "erg: " ... ("error: " | "warning: ") ..., printable. */
static void
check_diag_line(const char *p, size_t n)
{
	size_t i;

	if (n < 5 || memcmp(p, "erg: ", 5))
		fuzz_fail("stderr line is not an erg diagnostic: '%.*s'", (int)(n > 200 ? 200 : n), p);
	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			fuzz_fail("control byte 0x%02x in a diagnostic: '%.*s'",
				  (unsigned char)p[i], (int)(n > 200 ? 200 : n), p);
	if (!memmem(p, n, "error: ", 7) && !memmem(p, n, "warning: ", 9))
		fuzz_fail("diagnostic without a severity: '%.*s'", (int)(n > 200 ? 200 : n), p);
}

void
fuzz_end(void)
{
	fuzz_end_into(NULL);
}

void
fuzz_end_into(struct buf *text)
{
	const char *p, *end, *nl;

	if (!cap)
		return;
	fflush(cap);
	stderr = real_stderr;
	if (text)
		buf_add(text, cap_text, cap_len);
	for (p = cap_text, end = cap_text + cap_len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			fuzz_fail("diagnostic output does not end with a newline");
		check_diag_line(p, (size_t)(nl - p));
	}
	fclose(cap);
	free(cap_text);
	cap = NULL;
	cap_text = NULL;
	cap_len = 0;
}

/* ---- scratch files ----------------------------------------------------- */

static char *tmpdir;

static void
remove_tmpdir(void)
{
	if (tmpdir) {
		if (cap)
			stderr = real_stderr;
		path_remove_tree(tmpdir);
		free(tmpdir);
		tmpdir = NULL;
	}
}

const char *
fuzz_tmpdir(void)
{
	const char *bases[] = { getenv("ERG_FUZZ_TMP"), "/dev/shm", getenv("TMPDIR"), "/tmp" };
	char p[4096];
	size_t i;

	if (tmpdir)
		return tmpdir;
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!bases[i] || !*bases[i])
			continue;
		snprintf(p, sizeof(p), "%s/erg-fuzz-XXXXXX", bases[i]);
		if (mkdtemp(p)) {
			tmpdir = xstrdup(p);
			atexit(remove_tmpdir);
			return tmpdir;
		}
	}
	fuzz_fail("cannot create a scratch directory: %s", strerror(errno));
}

static void
write_all(int fd, const void *data, size_t len, const char *what)
{
	const char *p = data;
	ssize_t w;

	while (len) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fuzz_fail("cannot write %s: %s", what, strerror(errno));
		p += w;
		len -= (size_t)w;
	}
}

void
fuzz_file_open(struct fuzz_file *f, const char *name)
{
#ifdef MFD_CLOEXEC
	f->fd = memfd_create(name, MFD_CLOEXEC);
	if (f->fd >= 0) {
		snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
		if (access(f->path, R_OK) == 0)
			return;
		close(f->fd);
	}
#endif
	snprintf(f->path, sizeof(f->path), "%s/%s", fuzz_tmpdir(), name);
	f->fd = open(f->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (f->fd < 0)
		fuzz_fail("cannot create '%s': %s", f->path, strerror(errno));
}

void
fuzz_file_set(struct fuzz_file *f, const void *data, size_t len)
{
	if (ftruncate(f->fd, 0) || lseek(f->fd, 0, SEEK_SET) < 0)
		fuzz_fail("cannot truncate '%s': %s", f->path, strerror(errno));
	write_all(f->fd, data, len, f->path);
}

void
fuzz_write(const char *dir, const char *rel, const void *data, size_t len)
{
	char p[4096], *slash;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	slash = strrchr(p, '/');
	*slash = '\0';
	if (path_mkdirs(p))
		fuzz_fail("cannot create '%s'", p);
	*slash = '/';
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fuzz_fail("cannot create '%s': %s", p, strerror(errno));
	write_all(fd, data, len, p);
	close(fd);
}

/* ---- escaper oracles ----------------------------------------------------- */

/*
 * html.h: output is well-formed UTF-8 without C0 controls other than
 * TAB/LF/CR, without DEL, C1 controls, U+FFFE or U+FFFF.
 */
int
fuzz_html_chars_ok(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k, need;
	uint32_t cp, min;

	while (i < n) {
		unsigned char c = p[i];

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
				return 0;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			need = 1, cp = c & 0x1f, min = 0x80;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2, cp = c & 0x0f, min = 0x800;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3, cp = c & 0x07, min = 0x10000;
		else
			return 0;
		if (n - i <= need)
			return 0;
		for (k = 1; k <= need; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
		    (cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe || cp == 0xffff ||
		    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
			return 0;	/* the last two: bidirectional controls (html.h) */
		i += need + 1;
	}
	return 1;
}

/* '&' only as one of the five entities html.c writes. */
static int
entities_ok(const char *p, size_t n)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (p[i] != '&')
			continue;
		for (k = 0; k < sizeof(ent) / sizeof(ent[0]); k++)
			if (n - i >= strlen(ent[k]) && !memcmp(p + i, ent[k], strlen(ent[k])))
				break;
		if (k == sizeof(ent) / sizeof(ent[0]))
			return 0;
	}
	return 1;
}

static void
check_markup_free(const char *what, const char *in, size_t inlen, const struct buf *b,
		  int attr)
{
	size_t i;

	if (!fuzz_html_chars_ok(b->ptr, b->len))
		fuzz_fail("%s: output is not clean UTF-8 (input '%.*s')", what,
			  (int)(inlen > 100 ? 100 : inlen), in);
	if (!entities_ok(b->ptr, b->len))
		fuzz_fail("%s: '&' that starts no entity in '%.200s'", what, b->ptr);
	for (i = 0; i < b->len; i++) {
		char c = b->ptr[i];

		if (c == '<' || c == '>' || c == '"' || c == '\'')
			fuzz_fail("%s: raw '%c' in output '%.200s'", what, c, b->ptr);
		if (attr && (c == '\t' || c == '\n' || c == '\r'))
			fuzz_fail("%s: line break or tab in an attribute value", what);
	}
}

/*
 * What a browser would run from href="OUT": decode the entities html.c
 * writes, drop TAB/LF/CR anywhere and leading C0/space (the URL parser
 * does), then read the scheme.
 */
static void
check_url(const char *in, size_t inlen, const struct buf *b)
{
	char dec[64], scheme[32];
	size_t i, k = 0, j;

	for (i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->ptr[i];

		if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '"')
			fuzz_fail("html_url: byte 0x%02x in output '%.200s' (input '%.*s')",
				  c, b->ptr, (int)(inlen > 100 ? 100 : inlen), in);
	}
	if (!entities_ok(b->ptr, b->len))
		fuzz_fail("html_url: '&' that starts no entity in '%.200s'", b->ptr);
	/* The first 63 decoded bytes are enough to see any scheme. */
	for (i = 0; i < b->len && k + 1 < sizeof(dec);) {
		if (!strncmp(b->ptr + i, "&amp;", 5))
			dec[k++] = '&', i += 5;
		else if (!strncmp(b->ptr + i, "&#39;", 5))
			dec[k++] = '\'', i += 5;
		else if (!strncmp(b->ptr + i, "&lt;", 4) || !strncmp(b->ptr + i, "&gt;", 4))
			dec[k++] = '?', i += 4;
		else if (!strncmp(b->ptr + i, "&quot;", 6))
			dec[k++] = '?', i += 6;
		else
			dec[k++] = b->ptr[i++];
	}
	dec[k] = '\0';
	for (i = 0, j = 0; dec[i] && j + 1 < sizeof(scheme); i++) {
		char c = dec[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
		      c == '-' || c == '.'))
			break;
		scheme[j++] = c;
	}
	scheme[j] = '\0';
	if (dec[i] != ':' || !j || !(scheme[0] >= 'a' && scheme[0] <= 'z'))
		return;	/* relative */
	if (!strcmp(scheme, "javascript") || !strcmp(scheme, "vbscript") ||
	    !strcmp(scheme, "livescript"))
		fuzz_fail("html_url let a '%s:' URL through: '%.200s'", scheme, b->ptr);
	if (!strcmp(scheme, "data")) {
		const char *t = dec + i + 1;

		if (strncasecmp(t, "image/png", 9) && strncasecmp(t, "image/gif", 9) &&
		    strncasecmp(t, "image/jpeg", 10) && strncasecmp(t, "image/webp", 10) &&
		    (strcasestr(t, "html") || strcasestr(t, "svg") || strcasestr(t, "xml") ||
		     strcasestr(t, "script")))
			fuzz_fail("html_url let an active data: URL through: '%.200s'", b->ptr);
	}
}

void
fuzz_escape(const char *s, size_t n)
{
	struct buf b = BUF_INIT;

	html_text(&b, s, n);
	check_markup_free("html_text", s, n, &b, 0);
	buf_reset(&b);
	html_attr(&b, s, n);
	check_markup_free("html_attr", s, n, &b, 1);
	buf_reset(&b);
	html_url(&b, s, n);
	check_url(s, n, &b);
	buf_reset(&b);
	html_printf(&b, "<a href=\"%U\" title=\"%A\">%H</a>", s, s, s);
	buf_release(&b);
}

static void
escape_json(const json_t *v, int depth)
{
	const char *key;
	json_t *x;
	size_t i;

	if (depth > 64)
		return;
	switch (json_typeof(v)) {
	case JSON_STRING:
		fuzz_escape(json_string_value(v), json_string_length(v));
		break;
	case JSON_OBJECT:
		json_object_foreach((json_t *)v, key, x) {
			fuzz_escape(key, strlen(key));
			escape_json(x, depth + 1);
		}
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, x)
			escape_json(x, depth + 1);
		break;
	default:
		break;
	}
}

void
fuzz_escape_json(const json_t *v)
{
	if (v)
		escape_json(v, 0);
}

/* ---- power files ---------------------------------------------------------- */

void
fuzz_power_use(struct power_file *pf)
{
	struct buf b = BUF_INIT;
	struct pwin w;
	size_t i;
	double t0, t1;

	power_fit(pf);	/* what analyze_run() does first */

	if (pf->hw_model)
		fuzz_escape(pf->hw_model, strlen(pf->hw_model));
	if (pf->os_build)
		fuzz_escape(pf->os_build, strlen(pf->os_build));
	if (pf->dropped > pf->docs || pf->n > pf->docs)
		fuzz_fail("power: %zu kept and %zu dropped of %zu documents", pf->n,
			  pf->dropped, pf->docs);
	for (i = 0; i < pf->n; i++) {
		const struct psample *s = &pf->s[i];

		if (!(s->elapsed_ms > 0) || !isfinite(s->elapsed_ms) || !isfinite(s->ts_ms))
			fuzz_fail("power: sample %zu kept with elapsed %g ms, timestamp %g",
				  i, s->elapsed_ms, s->ts_ms);
		if (!isnan(s->joules) && !(s->joules >= 0))
			fuzz_fail("power: sample %zu has %g J", i, s->joules);
		if (i && s->end_ms < pf->s[i - 1].end_ms)
			fuzz_fail("power: sample %zu ends at %.17g, before sample %zu (%.17g)",
				  i, s->end_ms, i - 1, pf->s[i - 1].end_ms);
		numfmt_add(&b, s->joules, NF_FIXED(3));
		numfmt_add(&b, s->pclust_mhz, NF_SIG(4));
		numfmt_add(&b, s->eclust_mhz, NF_THOUS(1));
		numfmt_add(&b, s->start_ms, NF_REAL);
		if (isfinite(s->end_ms) && isfinite(s->start_ms))
			html_printf(&b, "<rect x=\"%.3f\" width=\"%.3f\"/>", s->start_ms,
				    s->end_ms - s->start_ms);
	}
	if (!fuzz_html_chars_ok(b.ptr, b.len))
		fuzz_fail("power: formatted numbers are not clean text");
	buf_release(&b);
	if (!pf->n)
		return;
	t0 = pf->s[0].start_ms;
	t1 = pf->s[pf->n - 1].end_ms;
	power_integrate(pf, 1, t0, t1, &w);
	power_integrate(pf, 1, t0 + (t1 - t0) / 3, t1 - (t1 - t0) / 3, &w);
	power_integrate(pf, 1, t1, t0, &w);
	power_integrate(pf, 1, t0 - 1e6, t0 + 250, &w);
	if (w.samples > pf->n)
		fuzz_fail("power: a window saw %zu of %zu samples", w.samples, pf->n);
}

/* ---- the session fixture (tests/tools/mksmall.c, default variant) -------- */

#define S 1700000000000LL

struct fwin {
	const char *id, *target, *route;
	int round, slot, t0, t1;
	double watts;
	long requests, bytes;
	double rps;
};

static const struct fwin wins[] = {
	{ "r1-s1-alpha", "alpha", "a", 1, 1, 21, 26, 10, 10000, 1000000, 2000 },
	{ "r1-s1-alpha", "alpha", "b", 1, 1, 27, 30, 20, 6000, 600000, 2000 },
	{ "r1-s2-beta", "beta", "a", 1, 2, 42, 47, 12, 10000, 1000000, 1800 },
	{ "r1-s2-beta", "beta", "b", 1, 2, 48, 51, 16, 6000, 600000, 1900 },
	{ "r2-s1-beta", "beta", "a", 2, 1, 63, 68, 12, 10000, 1000000, 1850 },
	{ "r2-s1-beta", "beta", "b", 2, 1, 69, 72, 18, 6000, 600000, 1950 },
	{ "r2-s2-alpha", "alpha", "a", 2, 2, 84, 89, 11, 10000, 1000000, 2100 },
	{ "r2-s2-alpha", "alpha", "b", 2, 2, 90, 93, 22, 6000, 600000, 2050 },
};
#define NW (sizeof(wins) / sizeof(wins[0]))

struct fidle {
	const char *id, *kind, *follows, *precedes;
	double t0, t1, b0, b1, watts;
};

static const struct fidle idles[] = {
	{ "idle-00", "preroll", NULL, "r1-s1-alpha", 1, 20, 5.5, 15.5, 2 },
	{ "idle-01", "cooldown", "r1-s1-alpha", "r1-s2-beta", 31, 41, 33.5, 39.5, 1 },
	{ "idle-02", "cooldown", "r1-s2-beta", "r2-s1-beta", 52, 62, 54.5, 60.5, 3 },
	{ "idle-03", "cooldown", "r2-s1-beta", "r2-s2-alpha", 73, 83, 75.5, 81.5, 2 },
	{ "idle-04", "postroll", "r2-s2-alpha", NULL, 94, 104, 96.5, 102.5, 2 },
};
#define NI (sizeof(idles) / sizeof(idles[0]))

static double
power_of(int k)
{
	double mid = k;
	size_t i;

	for (i = 0; i < NW; i++)
		if (mid - 0.5 >= wins[i].t0 - 1 && mid + 0.5 <= wins[i].t1 + 1)
			return wins[i].watts;
	for (i = 0; i < NI; i++)
		if (mid >= idles[i].t0 && mid <= idles[i].t1)
			return idles[i].watts;
	return 5;
}

static void
fixture_power(struct buf *b)
{
	int k;

	for (k = 1; k <= 106; k++) {
		time_t t = (time_t)(S / 1000 + k);
		struct tm tm;
		char date[32];

		gmtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
		buf_addf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
			 "<key>elapsed_ns</key><integer>1000000000</integer>\n"
			 "<key>hw_model</key><string>Test1,1</string>\n"
			 "<key>timestamp</key><date>%s</date>\n"
			 "<key>processor</key><dict><key>clusters</key><array>"
			 "<dict><key>name</key><string>P-Cluster</string><key>freq_hz</key><real>%g</real></dict>"
			 "</array><key>cpu_energy</key><integer>%ld</integer></dict>\n"
			 "<key>thermal_pressure</key><string>Nominal</string>\n</dict>\n</plist>\n",
			 date, power_of(k) >= 10 ? 3.0e9 : 1.0e9, (long)(power_of(k) * 1000));
		buf_addch(b, '\0');
	}
}

static void
fixture_timeline(struct buf *tl)
{
	size_t i = 0, j = 0;

	buf_addf(tl, "{\"ts\":%lld,\"event\":\"sessionStart\",\"arm\":\"test\",\"rounds\":2}\n", S + 1000);
	while (i < NW || j < NI) {
		if (j < NI && (i >= NW || idles[j].t0 < wins[i].t0)) {
			const struct fidle *d = &idles[j++];

			buf_addf(tl, "{\"ts\":%lld,\"event\":\"idleWindow\",\"id\":\"%s\",\"index\":%zu,"
				 "\"kind\":\"%s\",\"startedAtMs\":%lld,\"endedAtMs\":%lld,"
				 "\"baselineStartMs\":%lld,\"baselineEndMs\":%lld,"
				 "\"followsMeasurementId\":%s%s%s,\"precedesMeasurementId\":%s%s%s}\n",
				 S + (long long)(d->t1 * 1000), d->id, j - 1, d->kind,
				 S + (long long)(d->t0 * 1000), S + (long long)(d->t1 * 1000),
				 S + (long long)(d->b0 * 1000), S + (long long)(d->b1 * 1000),
				 d->follows ? "\"" : "", d->follows ? d->follows : "null",
				 d->follows ? "\"" : "", d->precedes ? "\"" : "",
				 d->precedes ? d->precedes : "null", d->precedes ? "\"" : "");
			continue;
		}
		{
			const struct fwin *w = &wins[i++];
			long long t0 = S + w->t0 * 1000LL, t1 = S + w->t1 * 1000LL;

			if (!strcmp(w->route, "a"))
				buf_addf(tl, "{\"ts\":%lld,\"event\":\"measurementStart\",\"id\":\"%s\","
					 "\"round\":%d,\"slot\":%d,\"framework\":\"%s\",\"target\":\"test/%s\","
					 "\"startedAtMs\":%lld}\n",
					 t0, w->id, w->round, w->slot, w->target, w->target, t0);
			buf_addf(tl, "{\"ts\":%lld,\"event\":\"routeComplete\",\"id\":\"%s\",\"round\":%d,"
				 "\"slot\":%d,\"framework\":\"%s\",\"route\":\"%s\",\"startedAtMs\":%lld,"
				 "\"endedAtMs\":%lld,\"requests\":%ld,\"req2xx\":%ld,\"others\":0,"
				 "\"rpsMean\":%g,\"bytesRead\":%ld}\n",
				 t1, w->id, w->round, w->slot, w->target, w->route, t0, t1,
				 w->requests, w->requests, w->rps, w->bytes);
			if (!strcmp(w->route, "b"))
				buf_addf(tl, "{\"ts\":%lld,\"event\":\"measurementComplete\",\"id\":\"%s\","
					 "\"round\":%d,\"slot\":%d,\"framework\":\"%s\",\"endedAtMs\":%lld}\n",
					 t1 + 1, w->id, w->round, w->slot, w->target, t1 + 1);
		}
	}
	buf_addf(tl, "{\"ts\":%lld,\"event\":\"sessionEnd\",\"ok\":true}\n", S + 104500);
}

static void
fixture_load(struct buf *b, const struct fwin *w)
{
	buf_addf(b, "{\n\t\"spec\": {\"numberOfConnections\": 50, \"testType\": \"timed\", "
		 "\"testDurationSeconds\": %d, \"method\": \"GET\", "
		 "\"url\": \"http://127.0.0.1:3000/%s\", \"client\": \"fasthttp\"},\n"
		 "\t\"result\": {\"bytesRead\": %ld, \"bytesWritten\": %ld, \"timeTakenSeconds\": %d, "
		 "\"req1xx\": 0, \"req2xx\": %ld, \"req3xx\": 0, \"req4xx\": 0, \"req5xx\": 0, "
		 "\"others\": 0, \"latency\": {\"mean\": 250.5, \"stddev\": 20, \"max\": 900}, "
		 "\"rps\": {\"mean\": %g, \"stddev\": 10, \"max\": %g, "
		 "\"percentiles\": {\"50\": %g, \"99\": 0}}}\n}\n",
		 w->t1 - w->t0, w->route, w->bytes, w->requests * 100, w->t1 - w->t0,
		 w->requests, w->rps, w->rps + 50, w->rps);
}

static const char fixture_meta[] =
	"{\n \"capturedAt\": \"2023-11-14T22:13:19Z\",\n"
	" \"title\": \"Fixture <b>session</b> & \\\"quotes\\\"\",\n"
	" \"roomTempC\": 21,\n"
	" \"machine\": {\"model\": \"Test1,1\", \"chip\": \"Test chip\", \"id\": \"test-machine\","
	" \"os\": \"TestOS 1\"},\n"
	" \"tools\": {\"bombardier\": \"bombardier version 2.0.2\"},\n"
	" \"caveats\": [\"fixture caveat\"]\n}\n";

static const char fixture_wrk[] =
	"Running 3s test @ http://127.0.0.1:3998/\n"
	"  2 threads and 20 connections\n"
	"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
	"    Latency     1.21ms    3.29ms  67.15ms   97.13%\n"
	"    Req/Sec    12.78k     3.75k   16.36k    86.67%\n"
	"  76345 requests in 3.01s, 12.34MB read\n"
	"Requests/sec:  25378.91\n"
	"Transfer/sec:      4.10MB\n";

static char *fixture_dir;

const char *
fuzz_session_fixture(void)
{
	struct buf b = BUF_INIT, p = BUF_INIT;
	size_t i;

	if (fixture_dir)
		return fixture_dir;
	buf_addf(&p, "%s/archive/run", fuzz_tmpdir());
	fixture_dir = buf_detach(&p, NULL);
	fuzz_write(fixture_dir, "meta.json", fixture_meta, strlen(fixture_meta));
	fuzz_write(fixture_dir, "notes.md", "# Notes\n\nA *small* session.\n", 29);
	fixture_timeline(&b);
	fuzz_write(fixture_dir, "timeline.jsonl", b.ptr, b.len);
	buf_reset(&b);
	fixture_power(&b);
	fuzz_write(fixture_dir, "power.plist", b.ptr, b.len);
	for (i = 0; i < NW; i++) {
		buf_reset(&b);
		fixture_load(&b, &wins[i]);
		buf_reset(&p);
		buf_addf(&p, "bombardier/r%d-s%d-%s-%s.json", wins[i].round, wins[i].slot,
			 wins[i].target, wins[i].route);
		fuzz_write(fixture_dir, p.ptr, b.ptr, b.len);
	}
	fuzz_write(fixture_dir, "load/wrk.txt", fixture_wrk, strlen(fixture_wrk));
	buf_reset(&p);
	buf_addf(&p, "%s/load/escape.json", fixture_dir);
	if (symlink("/etc/hostname", p.ptr) && errno != EEXIST)
		fuzz_fail("symlink '%s': %s", p.ptr, strerror(errno));
	buf_release(&b);
	buf_release(&p);
	return fixture_dir;
}

/* ---- the summary-run fixture -------------------------------------------- */

static const char summary_run_json[] =
	"{\n \"title\": \"Threads <i>summary</i>\",\n \"date\": \"2026-11-05\",\n"
	" \"machine\": {\"id\": \"apple-m4\", \"model\": null, \"chip\": \"Apple M4\","
	" \"cores\": 10, \"memory\": null, \"os\": \"macOS 15.5\"},\n"
	" \"software\": {\"xisto\": null, \"oha\": \"1.16.0\"},\n"
	" \"load\": {\"tool\": \"oha\", \"connections\": 256, \"duration\": \"10s\"},\n"
	" \"conditions\": {\"route\": \"/ping\"},\n"
	" \"source\": {\"title\": \"published\", \"url\": \"https://example.com/x\","
	" \"published\": null, \"note\": \"as published\"},\n"
	" \"notes\": \"notes.md\",\n \"caveats\": [\"one value per cell\"],\n"
	" \"units\": {\"extra\": \"widgets\"},\n"
	" \"tables\": [{\"file\": \"tables/t.csv\", \"title\": \"Throughput\","
	" \"caption\": \"by workers\"},\n"
	"  {\"file\": \"tables/u.csv\", \"title\": \"Energy\", \"caption\": \"per request\"}]\n}\n";

static const char summary_t_csv[] =
	"target,workers,rps,p99_ms,cpu_ms_per_1k,rss_mb\n"
	"# units: ,,req/s,ms,ms per 1k requests,MB\n"
	"xisto,1,229275,2.324,0.432,6.0\n"
	"xisto,2,217932,2.585,0.894,6.1\n"
	"bun,1,180000,3.1,0.5,40.5\n";

static const char summary_u_csv[] =
	"target,route,mj_per_req,mj_per_req_sd,cv,watts,mj_per_mb,average_rps,extra\r\n"
	"\"a, \"\"quoted\"\"\",ping,0.0958,0.001,0.01,15.2,,184915,x\r\n"
	"b,body,0.12,,0.02,16.1,1.229,150000,\"multi\nline\"\r\n";

static char *summary_dir;

const char *
fuzz_summary_fixture(void)
{
	struct buf p = BUF_INIT;

	if (summary_dir)
		return summary_dir;
	buf_addf(&p, "%s/archive/summary", fuzz_tmpdir());
	summary_dir = buf_detach(&p, NULL);
	fuzz_write(summary_dir, "run.json", summary_run_json, strlen(summary_run_json));
	fuzz_write(summary_dir, "notes.md", "# Notes\n\nPublished *figures*.\n", 31);
	fuzz_write(summary_dir, "tables/t.csv", summary_t_csv, strlen(summary_t_csv));
	fuzz_write(summary_dir, "tables/u.csv", summary_u_csv, strlen(summary_u_csv));
	buf_reset(&p);
	buf_addf(&p, "%s/tables/escape.csv", summary_dir);
	if (symlink("/etc/hostname", p.ptr) && errno != EEXIST)
		fuzz_fail("symlink '%s': %s", p.ptr, strerror(errno));
	buf_release(&p);
	return summary_dir;
}

/* ---- build and render one run ------------------------------------------- */

static struct site site;
static struct render_ctx rctx;
static int render_state;	/* 0 untried, 1 ready, -1 no templates */

static void
end_render(void)
{
	if (render_state == 1) {
		if (cap)
			stderr = real_stderr;
		render_end(&rctx);
		site_abort(&site);
		render_state = 0;
	}
}

static int
render_ready(void)
{
	const char *t = getenv("ERG_TEMPLATES");
	char out[4096];

	if (render_state)
		return render_state > 0;
	render_state = -1;
	if (!t || !*t)
		t = "templates";
	if (!path_is_dir(t))
		return 0;
	snprintf(out, sizeof(out), "%s/site", fuzz_tmpdir());
	if (site_begin(&site, out))
		fuzz_fail("site_begin('%s') failed", out);
	if (render_begin(&rctx, t, site_sink(&site))) {
		/* Templates being edited, or absent: fuzz ingest and analysis only. */
		site_abort(&site);
		return 0;
	}
	render_state = 1;
	atexit(end_render);
	return 1;
}

int
fuzz_build_run(const char *dir, int summary)
{
	struct run_ref ref;
	json_t *res, *all;
	char *text;
	int rc;

	ref.id = (char *)"2023/run";
	ref.dir = (char *)dir;
	ref.kind = summary ? RUN_SUMMARY : RUN_ENERGY_SESSION;
	res = build_process(&ref);
	if (verbose)
		fprintf(stderr, "fuzz: run %s\n", res ? "accepted" : "rejected");
	if (!res)
		return -1;
	/* results.json as build.c writes it; every string through the escapers. */
	text = json_dumps(res, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	if (!text)
		fuzz_fail("json_dumps of the results failed");
	free(text);
	fuzz_escape_json(res);
	if (render_ready()) {
		all = json_array();
		json_array_append(all, res);
		rc = render_run(&rctx, res);
		rc |= render_index(&rctx, all);
		if (verbose)
			fprintf(stderr, "fuzz: pages %s\n", rc ? "failed" : "rendered");
		json_decref(all);
	}
	json_decref(res);
	return 0;
}
