/*
 * inject.c - an LD_PRELOAD shim that makes output fail on purpose, so the
 * tests can check what erg does when the disk fills up or a device
 * errs: the message, the exit status, the previous site left intact and
 * no temporary tree left behind (tests/sh/inject.sh).
 *
 * Controlled by environment variables; with none set it changes nothing.
 *
 *   ERG_INJECT_PATH=GLOB[|GLOB...]  which files count (fnmatch(3) on the
 *                             path as erg passes it to fopen/open, '*'
 *                             matching '/'; any of the globs; default "*").  Only files opened for writing
 *                             count; stdout and stderr never do.
 *   ERG_INJECT_AFTER=N        writes to counted files succeed for N bytes in
 *                             total, then fail (0: the first byte fails)
 *   ERG_INJECT_WHEN=write|flush|close
 *                             where the failure shows: a short fwrite/write
 *                             (default), or an fflush or an fclose that fails
 *                             once more than N bytes were written (a full
 *                             disk often shows only there)
 *   ERG_INJECT_ERRNO=NAME     ENOSPC (default), EIO, EDQUOT, EFBIG, EROFS
 *
 *   ERG_INJECT_RENAME=all|K[,K...]
 *                             make rename-family calls fail: all of them,
 *                             or only the K-th ones (1-based, counting
 *                             rename, renameat, renameat2 and the renameat2
 *                             system call made through syscall(2))
 *   ERG_INJECT_RENAME_ERRNO=NAME   default EIO
 *
 *   ERG_INJECT_MKDIR=NAME     mkdir(2) and mkdtemp(3) of paths matching
 *                             ERG_INJECT_MKDIR_PATH (default "*") fail
 *                             with errno NAME
 *
 *   ERG_INJECT_LINK=NAME      link(2) and linkat(2) fail with errno NAME
 *                             (erg then copies)
 *
 *   ERG_INJECT_LOG=FILE       append one line per injected failure, so a
 *                             test can tell that the failure did happen
 *
 * Counted writes are fwrite, fputs, fputc, fprintf and vfprintf on
 * streams, write(2) on descriptors, and copy_file_range(2) made through
 * syscall(2) (erg copies files that way).
 *
 * The stdio failure is made the way glibc would report it: a short count
 * or EOF, errno set, and the stream's error indicator set, so ferror()
 * sees it.  glibc's stdio writes through an internal write(2) that no
 * preload can reach, which is why fwrite, fputs, fputc, fprintf, vfprintf,
 * fflush and fclose are interposed themselves (putc and the unlocked
 * variants are macros or inlines and are not).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_TRACK 1024

/* Streams and fds of counted files. */
static FILE *streams[MAX_TRACK];
static int fds[MAX_TRACK];
static size_t nstreams, nfds;

static const char *path_glob;
static long long budget = -1;		/* bytes left; -1: never fail */
static enum { W_WRITE, W_FLUSH, W_CLOSE } when;
static int werr = ENOSPC;
static const char *rename_spec;
static int rerr = EIO;
static long rename_calls;
static int mkdir_err;
static int link_err;
static const char *mkdir_glob;
static const char *log_path;
static int overrun;			/* a counted write went past the budget */
/* erg writes from several threads (-j): one lock around all of the above. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
#define LOCK() pthread_mutex_lock(&mu)
#define UNLOCK() pthread_mutex_unlock(&mu)

static int
errno_by_name(const char *s, int dflt)
{
	static const struct { const char *name; int v; } t[] = {
		{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EDQUOT", EDQUOT },
		{ "EFBIG", EFBIG }, { "EROFS", EROFS }, { "EACCES", EACCES },
		{ "EPERM", EPERM }, { "ENOSYS", ENOSYS }, { "EXDEV", EXDEV },
	};
	size_t i;

	if (!s || !*s)
		return dflt;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name))
			return t[i].v;
	return atoi(s) > 0 ? atoi(s) : dflt;
}

static void
load_once(void)
{
	const char *s;

	path_glob = getenv("ERG_INJECT_PATH");
	if (!path_glob || !*path_glob)
		path_glob = "*";
	if ((s = getenv("ERG_INJECT_AFTER")) && *s)
		budget = atoll(s);
	s = getenv("ERG_INJECT_WHEN");
	when = s && !strcmp(s, "flush") ? W_FLUSH : s && !strcmp(s, "close") ? W_CLOSE : W_WRITE;
	werr = errno_by_name(getenv("ERG_INJECT_ERRNO"), ENOSPC);
	rename_spec = getenv("ERG_INJECT_RENAME");
	if (rename_spec && !*rename_spec)
		rename_spec = NULL;
	rerr = errno_by_name(getenv("ERG_INJECT_RENAME_ERRNO"), EIO);
	mkdir_err = errno_by_name(getenv("ERG_INJECT_MKDIR"), 0);
	mkdir_glob = getenv("ERG_INJECT_MKDIR_PATH");
	if (!mkdir_glob || !*mkdir_glob)
		mkdir_glob = "*";
	log_path = getenv("ERG_INJECT_LOG");
	link_err = errno_by_name(getenv("ERG_INJECT_LINK"), 0);
}

static void
load(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load_once);
}

static void *
real(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		static const char msg[] = "inject: symbol not found\n";

		(void)!write(2, msg, sizeof(msg) - 1);
		abort();
	}
	return p;
}

/* dlsym gives an object pointer; copy it into the function pointer (ISO C
 * has no cast between the two). */
#define REAL(ret, name, args) \
	static ret(*real_##name) args; \
	if (!real_##name) { \
		void *p_ = real(#name); \
		memcpy(&real_##name, &p_, sizeof(p_)); \
	}

/* One line in ERG_INJECT_LOG; written with the real calls only. */
static void
note(const char *what, const char *path, int e)
{
	char line[4200];
	int fd, n;
	REAL(int, open, (const char *, int, ...));
	REAL(ssize_t, write, (int, const void *, size_t));
	REAL(int, close, (int));

	if (!log_path)
		return;
	n = snprintf(line, sizeof(line), "%s %s %s\n", what, path ? path : "-", strerror(e));
	fd = real_open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)!real_write(fd, line, (size_t)(n > 0 && (size_t)n < sizeof(line) ? n : 0));
	real_close(fd);
}

static int
counted(const char *path)
{
	const char *g, *bar;
	char one[512];

	load();
	if (!path)
		return 0;
	/* '|' separates globs: '*' matches '/', so one glob cannot name a
	 * page below the site root without also naming a temporary root
	 * whose random name happens to end the same way */
	for (g = path_glob; g; g = bar ? bar + 1 : NULL) {
		size_t n;

		bar = strchr(g, '|');
		n = bar ? (size_t)(bar - g) : strlen(g);
		if (n >= sizeof(one))
			n = sizeof(one) - 1;
		memcpy(one, g, n);
		one[n] = 0;
		if (!fnmatch(one, path, 0))
			return 1;
	}
	return 0;
}

static void
track_stream(FILE *f)
{
	LOCK();
	if (f && nstreams < MAX_TRACK)
		streams[nstreams++] = f;
	UNLOCK();
}

static int
is_tracked_stream(FILE *f)
{
	size_t i;
	int yes = 0;

	LOCK();
	for (i = 0; i < nstreams && !yes; i++)
		yes = streams[i] == f;
	UNLOCK();
	return yes;
}

static void
untrack_stream(FILE *f)
{
	size_t i;

	LOCK();
	for (i = 0; i < nstreams; i++)
		if (streams[i] == f) {
			streams[i] = streams[--nstreams];
			break;
		}
	UNLOCK();
}

static void
track_fd(int fd)
{
	LOCK();
	if (fd >= 0 && nfds < MAX_TRACK)
		fds[nfds++] = fd;
	UNLOCK();
}

static int
is_tracked_fd(int fd)
{
	size_t i;
	int yes = 0;

	LOCK();
	for (i = 0; i < nfds && !yes; i++)
		yes = fds[i] == fd;
	UNLOCK();
	return yes;
}

static void
untrack_fd(int fd)
{
	size_t i;

	LOCK();
	for (i = 0; i < nfds; i++)
		if (fds[i] == fd) {
			fds[i] = fds[--nfds];
			break;
		}
	UNLOCK();
}

/* How many of n bytes may go through (all when no failure is due); sets
 * overrun when not all. */
static size_t
allow(size_t n)
{
	LOCK();
	if (budget < 0) {
		UNLOCK();
		return n;
	}
	if ((unsigned long long)budget >= n) {
		budget -= (long long)n;
		UNLOCK();
		return n;
	}
	n = (size_t)budget;
	budget = 0;
	overrun = 1;
	UNLOCK();
	return n;
}

static int
writes_mode(const char *mode)
{
	return mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'));
}

/* ---- opening ------------------------------------------------------------ */

FILE *
fopen(const char *path, const char *mode)
{
	REAL(FILE *, fopen, (const char *, const char *));
	FILE *f = real_fopen(path, mode);

	if (f && writes_mode(mode) && counted(path))
		track_stream(f);
	return f;
}

FILE *
fopen64(const char *path, const char *mode)
{
	REAL(FILE *, fopen64, (const char *, const char *));
	FILE *f = real_fopen64(path, mode);

	if (f && writes_mode(mode) && counted(path))
		track_stream(f);
	return f;
}

static int
writes_flags(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY;
}

int
open(const char *path, int flags, ...)
{
	REAL(int, open, (const char *, int, ...));
	mode_t m = 0;
	va_list ap;
	int fd;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		m = (mode_t)va_arg(ap, int);
	va_end(ap);
	fd = real_open(path, flags, m);
	if (fd >= 0 && writes_flags(flags) && counted(path))
		track_fd(fd);
	return fd;
}

int
open64(const char *path, int flags, ...)
{
	REAL(int, open64, (const char *, int, ...));
	mode_t m = 0;
	va_list ap;
	int fd;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		m = (mode_t)va_arg(ap, int);
	va_end(ap);
	fd = real_open64(path, flags, m);
	if (fd >= 0 && writes_flags(flags) && counted(path))
		track_fd(fd);
	return fd;
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	REAL(int, openat, (int, const char *, int, ...));
	mode_t m = 0;
	va_list ap;
	int fd;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		m = (mode_t)va_arg(ap, int);
	va_end(ap);
	fd = real_openat(dirfd, path, flags, m);
	if (fd >= 0 && writes_flags(flags) && counted(path))
		track_fd(fd);
	return fd;
}

int
creat(const char *path, mode_t m)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, m);
}

int
close(int fd)
{
	REAL(int, close, (int));

	untrack_fd(fd);
	return real_close(fd);
}

/* ---- writing -------------------------------------------------------------- */

static void
stream_fail(FILE *f, const char *what)
{
	f->_flags |= _IO_ERR_SEEN;
	note(what, "(stream)", werr);
	errno = werr;
}

size_t
fwrite(const void *p, size_t size, size_t nmemb, FILE *f)
{
	REAL(size_t, fwrite, (const void *, size_t, size_t, FILE *));
	size_t bytes, ok, items;

	if (!is_tracked_stream(f) || !size || !nmemb)
		return real_fwrite(p, size, nmemb, f);
	bytes = size * nmemb;
	ok = allow(bytes);
	if (ok == bytes)
		return real_fwrite(p, size, nmemb, f);
	if (when != W_WRITE)	/* accepted into the buffer; fails later */
		return real_fwrite(p, size, nmemb, f);
	items = ok / size;
	if (items)
		real_fwrite(p, size, items, f);
	stream_fail(f, "fwrite");
	return items;
}

int
fputs(const char *s, FILE *f)
{
	size_t n = strlen(s);

	if (!is_tracked_stream(f)) {
		REAL(int, fputs, (const char *, FILE *));
		return real_fputs(s, f);
	}
	return fwrite(s, 1, n, f) == n ? 1 : EOF;
}

int
fputc(int c, FILE *f)
{
	unsigned char ch = (unsigned char)c;

	if (!is_tracked_stream(f)) {
		REAL(int, fputc, (int, FILE *));
		return real_fputc(c, f);
	}
	return fwrite(&ch, 1, 1, f) == 1 ? ch : EOF;
}

int
fflush(FILE *f)
{
	REAL(int, fflush, (FILE *));
	int r = real_fflush(f);

	if (f && r == 0 && when == W_FLUSH && overrun && is_tracked_stream(f)) {
		stream_fail(f, "fflush");
		return EOF;
	}
	return r;
}

int
fclose(FILE *f)
{
	REAL(int, fclose, (FILE *));
	int tracked = is_tracked_stream(f), r;

	untrack_stream(f);
	r = real_fclose(f);
	if (tracked && r == 0 && overrun && when != W_WRITE) {
		note("fclose", "(stream)", werr);
		errno = werr;
		return EOF;
	}
	return r;
}

int
vfprintf(FILE *f, const char *fmt, va_list ap)
{
	REAL(int, vfprintf, (FILE *, const char *, va_list));
	char small[1024], *p = small;
	va_list aq;
	int n;

	if (!is_tracked_stream(f))
		return real_vfprintf(f, fmt, ap);
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(small)) {
		p = malloc((size_t)n + 1);
		if (!p)
			return -1;
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	}
	if (fwrite(p, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	if (p != small)
		free(p);
	return n;
}

int
fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

ssize_t
write(int fd, const void *p, size_t n)
{
	REAL(ssize_t, write, (int, const void *, size_t));
	size_t ok;

	if (!is_tracked_fd(fd) || !n)
		return real_write(fd, p, n);
	ok = allow(n);
	if (ok == n)
		return real_write(fd, p, n);
	if (ok)
		return real_write(fd, p, ok);
	note("write", "(fd)", werr);
	errno = werr;
	return -1;
}

/* ---- renaming and directories ------------------------------------------- */

static int
rename_fails(const char *a, const char *b)
{
	char num[32];
	const char *p;
	size_t n;
	long call;

	load();
	LOCK();
	call = ++rename_calls;
	UNLOCK();
	if (!rename_spec)
		return 0;
	if (!strcmp(rename_spec, "all"))
		goto fail;
	for (p = rename_spec; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		if (n < sizeof(num)) {
			memcpy(num, p, n);
			num[n] = '\0';
			if (atol(num) == call)
				goto fail;
		}
		if (!p[n])
			break;
	}
	return 0;
fail:
	note("rename", a, rerr);
	(void)b;
	errno = rerr;
	return 1;
}

int
rename(const char *a, const char *b)
{
	REAL(int, rename, (const char *, const char *));

	if (rename_fails(a, b))
		return -1;
	return real_rename(a, b);
}

int
renameat(int da, const char *a, int db, const char *b)
{
	REAL(int, renameat, (int, const char *, int, const char *));

	if (rename_fails(a, b))
		return -1;
	return real_renameat(da, a, db, b);
}

int
renameat2(int da, const char *a, int db, const char *b, unsigned int flags)
{
	REAL(int, renameat2, (int, const char *, int, const char *, unsigned int));

	if (rename_fails(a, b))
		return -1;
	return real_renameat2(da, a, db, b, flags);
}

/* site.c calls the renameat2 system call directly (RENAME_EXCHANGE). */
long
syscall(long nr, ...)
{
	REAL(long, syscall, (long, ...));
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
#ifdef SYS_renameat2
	if (nr == SYS_renameat2 && rename_fails((const char *)a[1], (const char *)a[3]))
		return -1;
#endif
#ifdef SYS_rename
	if (nr == SYS_rename && rename_fails((const char *)a[0], (const char *)a[1]))
		return -1;
#endif
#ifdef SYS_copy_file_range
	/* cache.c copies an unchanged run's files this way: a write too. */
	if (nr == SYS_copy_file_range && is_tracked_fd((int)a[2]) && a[4] > 0) {
		size_t want = (size_t)a[4], ok = allow(want);

		if (ok < want) {
			if (!ok) {
				note("copy_file_range", "(fd)", werr);
				errno = werr;
				return -1;
			}
			a[4] = (long)ok;
		}
	}
#endif
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int
mkdir(const char *path, mode_t m)
{
	REAL(int, mkdir, (const char *, mode_t));

	load();
	if (mkdir_err && !fnmatch(mkdir_glob, path, 0)) {
		note("mkdir", path, mkdir_err);
		errno = mkdir_err;
		return -1;
	}
	return real_mkdir(path, m);
}

char *
mkdtemp(char *tmpl)
{
	REAL(char *, mkdtemp, (char *));

	load();
	if (mkdir_err && !fnmatch(mkdir_glob, tmpl, 0)) {
		note("mkdtemp", tmpl, mkdir_err);
		errno = mkdir_err;
		return NULL;
	}
	return real_mkdtemp(tmpl);
}

int
link(const char *a, const char *b)
{
	REAL(int, link, (const char *, const char *));

	load();
	if (link_err) {
		note("link", b, link_err);
		errno = link_err;
		return -1;
	}
	return real_link(a, b);
}

int
linkat(int da, const char *a, int db, const char *b, int flags)
{
	REAL(int, linkat, (int, const char *, int, const char *, int));

	load();
	if (link_err) {
		note("linkat", b, link_err);
		errno = link_err;
		return -1;
	}
	return real_linkat(da, a, db, b, flags);
}
