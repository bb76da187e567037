/*
 * util.h - allocation, diagnostics and small helpers shared by every module.
 *
 * One error style for the whole program (mandoc/git shaped):
 *     erg: PATH:LINE: error: MESSAGE      (LINE when the input has lines)
 *     erg: PATH:@OFFSET: error: MESSAGE   (byte offset, for binary inputs)
 *     erg: PATH: error: MESSAGE           (whole-file problems)
 * Messages start lowercase, carry no full stop, and quote the subject with
 * single quotes.  Control characters from untrusted data (C0, DEL, C1)
 * and bidirectional controls (U+202A..U+202E, U+2066..U+2069) are shown
 * as one '?' each.
 * die() exits 1; error() counts and returns -1 so "return error(...)" reads
 * naturally; warn() counts warnings; BUG() aborts on a broken invariant.
 */
#ifndef ERG_UTIL_H
#define ERG_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define PRINTF(a, b) __attribute__((format(printf, a, b)))
#define NORETURN __attribute__((noreturn))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Grow an array p of *alloc elements so that index nr-1 fits (git's ALLOC_GROW). */
#define ALLOC_GROW(p, nr, alloc) \
	do { \
		if ((size_t)(nr) > (alloc)) { \
			size_t n_ = (alloc) + (alloc) / 2 + 16; \
			if (n_ < (size_t)(nr)) \
				n_ = (nr); \
			(p) = xrealloc((p), n_ * sizeof(*(p))); \
			(alloc) = n_; \
		} \
	} while (0)

NORETURN void die(const char *fmt, ...) PRINTF(1, 2);
NORETURN void die_errno(const char *fmt, ...) PRINTF(1, 2);
int error(const char *fmt, ...) PRINTF(1, 2);
int error_errno(const char *fmt, ...) PRINTF(1, 2);
void warn(const char *fmt, ...) PRINTF(1, 2);

/* Located diagnostics; line <= 0 omits the line part. */
int error_at(const char *path, long line, const char *fmt, ...) PRINTF(3, 4);
void warn_at(const char *path, long line, const char *fmt, ...) PRINTF(3, 4);
/* Located by byte offset, for inputs without useful lines. */
int error_off(const char *path, long long off, const char *fmt, ...) PRINTF(3, 4);
void warn_off(const char *path, long long off, const char *fmt, ...) PRINTF(3, 4);

#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
NORETURN void bug_fl(const char *file, int line, const char *fmt, ...) PRINTF(3, 4);

struct buf;
/*
 * While b is set, the calling thread's diagnostics are appended to b
 * (whole lines) instead of written to stderr, so that a caller running
 * work in parallel can print them in a deterministic order; NULL writes
 * directly again.  die() always writes directly.
 */
void diag_capture(struct buf *b);
struct buf *diag_captured(void);	/* the calling thread's b, or NULL */

/* Counters of diagnostics printed so far (for exit status and summaries);
 * atomic, as worker threads report too. */
extern _Atomic int diag_errors;
extern _Atomic int diag_warnings;
extern int diag_quiet_warnings; /* set to suppress warning output (still counted) */
/* Errors reported so far by the calling thread (compare before and after
 * a call to learn whether it reported one; never diag_errors for that). */
int diag_thread_errors(void);

/* Parse a whole string as a finite double / int64; 0 on success, -1 otherwise. */
int parse_double(const char *s, double *out);
/* Days since 1970-01-01 of a proleptic Gregorian date (y, m 1..12, d);
 * the caller checks the date is real. */
long long days_from_civil(long long y, long long m, long long d);
int parse_i64(const char *s, int64_t *out);


/* FNV-1a of s[0..n): the hash of every table of names (idmap, string
 * sets, interned task names).  Names are short and an adversary gains at
 * most a slower build from collisions (probing stays correct). */
uint64_t str_hash(const char *s, size_t n);

int str_endswith(const char *s, const char *suffix);
int str_startswith(const char *s, const char *prefix);

#endif
