/* util.c - allocation wrappers and the single diagnostic printer. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "base/util.h"

_Atomic int diag_errors;
_Atomic int diag_warnings;
int diag_quiet_warnings;

/* Where this thread's diagnostics go instead of stderr (diag_capture). */
static _Thread_local struct buf *diag_sink;

/*
 * Errors reported by this thread.  Readers that ask "did anything below
 * me report an error?" must not look at the global counter: under -j
 * another run's error would make an intact run give up early, before it
 * reports its own problems.
 */
static _Thread_local int thread_errors;

static void
count_error(void)
{
	diag_errors++;
	thread_errors++;
}

int
diag_thread_errors(void)
{
	return thread_errors;
}

void
diag_capture(struct buf *b)
{
	diag_sink = b;
}

struct buf *
diag_captured(void)
{
	return diag_sink;
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (allocating %zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (allocating %zu x %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory (allocating %zu bytes)", n);
	return q;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/*
 * One '?' for each character of a message that could move the terminal
 * cursor, forge a line or reorder the text around it: C0 controls, DEL,
 * C1 controls (U+0080..U+009F, which some terminals obey as ESC
 * sequences) and the bidirectional embedding, override and isolate
 * controls U+202A..U+202E and U+2066..U+2069 (see html.h).  Invalid UTF-8
 * stays as it is: names are shown byte for byte, and a byte that starts
 * no valid sequence moves nothing.
 */
static void
sanitise(struct buf *b)
{
	size_t i, o = 0, len;
	uint32_t cp;

	for (i = 0; i < b->len; i += len) {
		len = utf8_decode(b->ptr + i, b->len - i, &cp);
		if (utf8_is_control(cp) || utf8_is_bidi(cp)) {
			b->ptr[o++] = '?';
		} else {
			memmove(b->ptr + o, b->ptr + i, len);
			o += len;
		}
	}
	buf_setlen(b, o);
}

/*
 * Every diagnostic goes through here.  The message is built in memory and
 * written with one fputs so lines from parallel workers do not interleave
 * mid-line, and control bytes (from untrusted names) cannot move the
 * terminal cursor or forge extra lines.
 */
static void PRINTF(4, 0)
vreport(const char *where, const char *level, int with_errno, const char *fmt,
	va_list ap)
{
	struct buf b = BUF_INIT;
	int err = errno;

	buf_addstr(&b, "erg: ");
	if (where) {
		buf_addstr(&b, where);
		buf_addstr(&b, ": ");
	}
	buf_addstr(&b, level);
	buf_addstr(&b, ": ");
	buf_vaddf(&b, fmt, ap);
	if (with_errno) {
		buf_addstr(&b, ": ");
		buf_addstr(&b, strerror(err));
	}
	sanitise(&b);
	buf_addch(&b, '\n');
	if (diag_sink)
		buf_add(diag_sink, b.ptr, b.len);
	else
		fputs(b.ptr, stderr);
	buf_release(&b);
}

static void
where_line(struct buf *w, const char *path, long line)
{
	buf_addstr(w, path);
	if (line > 0)
		buf_addf(w, ":%ld", line);
}

NORETURN void
die(const char *fmt, ...)
{
	va_list ap;

	diag_sink = NULL;	/* a fatal message is never held back */
	va_start(ap, fmt);
	vreport(NULL, "error", 0, fmt, ap);
	va_end(ap);
	exit(1);
}

NORETURN void
die_errno(const char *fmt, ...)
{
	va_list ap;

	diag_sink = NULL;
	va_start(ap, fmt);
	vreport(NULL, "error", 1, fmt, ap);
	va_end(ap);
	exit(1);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	count_error();
	va_start(ap, fmt);
	vreport(NULL, "error", 0, fmt, ap);
	va_end(ap);
	return -1;
}

int
error_errno(const char *fmt, ...)
{
	va_list ap;

	count_error();
	va_start(ap, fmt);
	vreport(NULL, "error", 1, fmt, ap);
	va_end(ap);
	return -1;
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	diag_warnings++;
	if (diag_quiet_warnings)
		return;
	va_start(ap, fmt);
	vreport(NULL, "warning", 0, fmt, ap);
	va_end(ap);
}

int
error_at(const char *path, long line, const char *fmt, ...)
{
	struct buf w = BUF_INIT;
	va_list ap;

	count_error();
	where_line(&w, path, line);
	va_start(ap, fmt);
	vreport(w.ptr, "error", 0, fmt, ap);
	va_end(ap);
	buf_release(&w);
	return -1;
}

void
warn_at(const char *path, long line, const char *fmt, ...)
{
	struct buf w = BUF_INIT;
	va_list ap;

	diag_warnings++;
	if (diag_quiet_warnings)
		return;
	where_line(&w, path, line);
	va_start(ap, fmt);
	vreport(w.ptr, "warning", 0, fmt, ap);
	va_end(ap);
	buf_release(&w);
}

int
error_off(const char *path, long long off, const char *fmt, ...)
{
	struct buf w = BUF_INIT;
	va_list ap;

	count_error();
	buf_addf(&w, "%s:@%lld", path, off);
	va_start(ap, fmt);
	vreport(w.ptr, "error", 0, fmt, ap);
	va_end(ap);
	buf_release(&w);
	return -1;
}

void
warn_off(const char *path, long long off, const char *fmt, ...)
{
	struct buf w = BUF_INIT;
	va_list ap;

	diag_warnings++;
	if (diag_quiet_warnings)
		return;
	buf_addf(&w, "%s:@%lld", path, off);
	va_start(ap, fmt);
	vreport(w.ptr, "warning", 0, fmt, ap);
	va_end(ap);
	buf_release(&w);
}

NORETURN void
bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "erg: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

int
parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int
parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

int
str_endswith(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

int
str_startswith(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

uint64_t
str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* 400-year eras starting in March, so the leap day ends an era's year
 * (H. Hinnant's days_from_civil); exact for every year a long long holds
 * in days. */
long long
days_from_civil(long long y, long long m, long long d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}
