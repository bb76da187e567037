/* site.c - temporary tree, checked writes, atomic swap (see site.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "base/buf.h"
#include "site/cache.h"
#include "base/path.h"
#include "site/site.h"
#include "base/util.h"

/*
 * A build holds an flock on its temporary tree until it commits or
 * aborts; the kernel drops the lock when the process dies however it
 * dies, so an unlocked tree is one nobody is writing.  The age test
 * covers the moment between another build's mkdtemp and its flock.
 */
#define STALE_SECONDS 10

static int
lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* What every site carries at its root (site.h). */
static const char marker_text[] =
	"This directory is a site written by erg.  'erg build' replaces it as a\n"
	"whole: anything put here by hand is removed by the next build.\n";

/* out without trailing slashes ("/" stays "/"), allocated. */
static char *
strip_slashes(const char *out)
{
	size_t n = strlen(out);

	while (n > 1 && out[n - 1] == '/')
		n--;
	return xstrndup(out, n);
}

/*
 * What the directory dir holds: 0 nothing, 1 the marker or an old erg's
 * .erg-cache (a site erg wrote), 2 something else; -1 if unreadable.
 */
static int
contents(const char *dir)
{
	struct dirent *e;
	struct stat st;
	int what = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d)) && what != 1) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, SITE_MARKER) &&
		    !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
			what = 1;
		else if (!strcmp(e->d_name, CACHE_DIR) &&
			 !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode))
			what = 1;
		else
			what = 2;
	}
	closedir(d);
	return what;
}

/*
 * Is the directory want the real path real itself (when self) or one of
 * its ancestors?  By device and inode, each prefix of real stat()ed.
 */
static int
on_path(const char *real, const struct stat *want, int self)
{
	char *p = xstrdup(real), *slash;
	struct stat st;
	int hit = 0;

	for (;;) {
		if (self && !stat(p, &st) && st.st_dev == want->st_dev &&
		    st.st_ino == want->st_ino) {
			hit = 1;
			break;
		}
		self = 1;
		if (!(slash = strrchr(p, '/')) || !strcmp(p, "/"))
			break;
		slash[slash == p] = '\0';
	}
	free(p);
	return hit;
}

/* Can the build swap in over o (what site_commit() checks again)? */
static int
replaceable(const char *o, const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return error_at(o, 0, "is a symbolic link; erg does not replace it (give the directory itself as --out)");
	if (!S_ISDIR(st->st_mode))
		return error_at(o, 0, "exists and is not a directory");
	switch (contents(o)) {
	case 0:
	case 1:
		return 0;
	case 2:
		return error_at(o, 0, "is not empty and is not a site erg wrote (no '%s'); erg replaces --out as a whole, so it leaves this one alone",
				SITE_MARKER);
	default:
		return error_at(o, 0, "cannot read: %s", strerror(errno));
	}
}

int
site_check_out(const char *out, const char *archive)
{
	char *o = strip_slashes(out), *real = NULL, *rarch = NULL, *slash;
	struct stat ost, ast;
	int rc = -1, have_archive = !stat(archive, &ast) && S_ISDIR(ast.st_mode);

	if (!*o) {
		error("--out is empty");
		goto out;
	}
	if (have_archive && !(rarch = realpath(archive, NULL))) {
		error_at(archive, 0, "cannot resolve: %s", strerror(errno));
		goto out;
	}
	if (lstat(o, &ost)) {
		if (errno != ENOENT) {
			error_at(o, 0, "cannot stat: %s", strerror(errno));
			goto out;
		}
		/* A new directory: where would it be? */
		if ((slash = strrchr(o, '/')))
			*slash = '\0';
		real = realpath(slash ? (*o ? o : "/") : ".", NULL);
		if (slash)
			*slash = '/';
		if (!real) {
			error_at(o, 0, "its parent directory cannot be resolved: %s", strerror(errno));
			goto out;
		}
		if (have_archive && on_path(real, &ast, 1)) {
			error_at(o, 0, "is inside the archive '%s'; a site there would be read as part of the archive (choose a directory outside it)",
				 archive);
			goto out;
		}
		rc = 0;
		goto out;
	}
	if (!S_ISLNK(ost.st_mode) && S_ISDIR(ost.st_mode) && have_archive) {
		if (ost.st_dev == ast.st_dev && ost.st_ino == ast.st_ino) {
			error_at(o, 0, "is the archive; erg replaces --out as a whole (choose a directory outside the archive)");
			goto out;
		}
		if (on_path(rarch, &ost, 0)) {
			error_at(o, 0, "holds the archive '%s'; erg replaces --out as a whole (choose a directory outside the archive)",
				 archive);
			goto out;
		}
		if ((real = realpath(o, NULL)) && on_path(real, &ast, 0)) {
			error_at(o, 0, "is inside the archive '%s'; a site there would be read as part of the archive (choose a directory outside it)",
				 archive);
			goto out;
		}
	}
	rc = replaceable(o, &ost);
out:
	free(o);
	free(real);
	free(rarch);
	return rc;
}

/* Remove OUT.tmp-XXXXXX trees (mkdtemp's six characters) left behind by
 * builds that were killed. */
void
site_remove_stale(const char *out)
{
	struct buf parent = BUF_INIT, prefix = BUF_INIT, p = BUF_INIT;
	const char *slash = strrchr(out, '/');
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (slash) {
		buf_add(&parent, out, (size_t)(slash - out) + (slash == out));
		buf_addf(&prefix, "%s.tmp-", slash + 1);
	} else {
		buf_addstr(&parent, ".");
		buf_addf(&prefix, "%s.tmp-", out);
	}
	if (!(d = opendir(parent.ptr)))
		goto out;
	while ((e = readdir(d))) {
		int fd;

		if (strncmp(e->d_name, prefix.ptr, prefix.len) ||
		    strlen(e->d_name + prefix.len) != 6)
			continue;
		buf_reset(&p);
		buf_addf(&p, "%s/%s", parent.ptr, e->d_name);
		if (lstat(p.ptr, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    st.st_mtime > time(NULL) - STALE_SECONDS)
			continue;
		if ((fd = lock_dir(p.ptr)) < 0)
			continue;	/* a build is writing it */
		/* Ours only if it carries the marker (written first thing) or
		 * is empty (killed before that): never a user's look-alike. */
		switch (contents(p.ptr)) {
		case 0:
			if (!rmdir(p.ptr))
				warn("removed '%s', left behind by an interrupted build", p.ptr);
			break;
		case 1:
			if (!path_remove_tree(p.ptr))
				warn("removed '%s', left behind by an interrupted build", p.ptr);
			break;
		}
		close(fd);
	}
	closedir(d);
out:
	buf_release(&parent);
	buf_release(&prefix);
	buf_release(&p);
}

int
site_begin(struct site *s, const char *out)
{
	struct buf b = BUF_INIT;

	s->out = strip_slashes(out);
	s->lock = -1;
	site_remove_stale(s->out);
	buf_addf(&b, "%s.tmp-XXXXXX", s->out);
	if (!mkdtemp(b.ptr)) {
		error_errno("cannot create a temporary directory beside '%s'", s->out);
		buf_release(&b);
		free(s->out);
		s->out = NULL;
		return -1;
	}
	/* mkdtemp makes 0700; a site is meant to be read by others. */
	chmod(b.ptr, 0755);
	s->lock = lock_dir(b.ptr);
	s->tmp = buf_detach(&b, NULL);
	/* First, so that a killed build's tree is known to be erg's. */
	if (site_write(s, SITE_MARKER, marker_text, sizeof(marker_text) - 1)) {
		site_abort(s);
		return -1;
	}
	return 0;
}

static void
unlock(struct site *s)
{
	if (s->tmp && s->lock >= 0)
		close(s->lock);
	s->lock = -1;
}

/*
 * A name of the tree being built may be a hard link into the previous
 * site (cache_copy_files()), which stays live until the swap and must
 * survive a failed build as it was: fopen() over it would truncate the
 * shared inode, so the name is unlinked first and the file created anew.
 */
int
site_write(struct site *s, const char *rel, const void *data, size_t len)
{
	struct buf p = BUF_INIT;
	char *slash;
	FILE *f;
	int rc = -1;

	buf_addf(&p, "%s/%s", s->tmp, rel);
	if (unlink(p.ptr) && errno != ENOENT) {
		error_errno("cannot replace '%s'", p.ptr);
		goto out;
	}
	/* The folders only when missing: path_mkdirs() tries every one of
	 * them, and a site is thousands of pages in a few folders. */
	if (!(f = fopen(p.ptr, "wb")) && errno == ENOENT) {
		slash = strrchr(p.ptr, '/');
		*slash = '\0';
		if (path_mkdirs(p.ptr))
			goto out;
		*slash = '/';
		f = fopen(p.ptr, "wb");
	}
	if (!f) {
		error_errno("cannot write '%s'", p.ptr);
		goto out;
	}
	if (len && fwrite(data, 1, len, f) != len) {
		error_errno("cannot write '%s'", p.ptr);
		fclose(f);
		goto out;
	}
	/* A full disk often shows only at flush or close time. */
	if (fflush(f) || ferror(f)) {
		error_errno("cannot write '%s'", p.ptr);
		fclose(f);
		goto out;
	}
	if (fclose(f)) {
		error_errno("cannot close '%s'", p.ptr);
		goto out;
	}
	rc = 0;
out:
	buf_release(&p);
	return rc;
}

static int
sink_site_write(void *ctx, const char *rel, const void *data, size_t len)
{
	return site_write(ctx, rel, data, len);
}

struct sink
site_sink(struct site *s)
{
	struct sink k = { sink_site_write, s };

	return k;
}

static int
exchange(const char *a, const char *b)
{
#if defined(__linux__) && defined(SYS_renameat2)
	/* RENAME_EXCHANGE = 2: both names stay valid at every instant. */
	return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2);
#else
	errno = ENOSYS;
	return -1;
#endif
}

int
site_commit(struct site *s)
{
	struct buf old = BUF_INIT;
	struct stat st;
	int rc = -1;

	if (lstat(s->out, &st)) {
		/* rename() would replace an empty directory made meanwhile,
		 * and fail on anything else. */
		if (errno != ENOENT)
			error_at(s->out, 0, "cannot stat: %s", strerror(errno));
		else if (rename(s->tmp, s->out))
			error_errno("cannot rename '%s' to '%s'", s->tmp, s->out);
		else
			rc = 0;
		goto out;
	}
	/* The build took a while: OUT may have changed since site_check_out(). */
	if (replaceable(s->out, &st))
		goto out;
	if (exchange(s->tmp, s->out) == 0) {
		/* s->tmp now holds the previous site. */
		rc = path_remove_tree(s->tmp);
		goto out;
	}
	/* No atomic exchange: two renames, with a brief moment without OUT. */
	buf_addf(&old, "%s.old-%ld", s->out, (long)getpid());
	if (!lstat(old.ptr, &st)) {
		/* rename() would replace it if it is an empty directory. */
		error_at(old.ptr, 0, "exists; cannot move the previous site aside");
		goto out;
	}
	if (rename(s->out, old.ptr)) {
		error_errno("cannot move the previous site '%s' aside", s->out);
		goto out;
	}
	if (rename(s->tmp, s->out)) {
		error_errno("cannot rename '%s' to '%s'", s->tmp, s->out);
		rename(old.ptr, s->out);
		goto out;
	}
	rc = path_remove_tree(old.ptr);
out:
	if (rc && path_exists(s->tmp))
		path_remove_tree(s->tmp);
	unlock(s);
	buf_release(&old);
	free(s->tmp);
	free(s->out);
	s->tmp = s->out = NULL;
	return rc;
}

int
site_lock_out(const char *out)
{
	char *o = strip_slashes(out);
	struct stat a, b;
	int fd = -1;

	/* A full build swaps another folder in as OUT: the lock taken on the
	 * one it replaced is then no lock on OUT, so take it again. */
	for (;;) {
		if ((fd = open(o, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			break;
		if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK)
			/* not silent: a build that seems to hang is waiting */
			fprintf(stderr, "erg: waiting for another build of '%s'\n", o);
		if (flock(fd, LOCK_EX) || fstat(fd, &a)) {
			close(fd);
			fd = -1;
			break;
		}
		if (!lstat(o, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(fd);
	}
	free(o);
	return fd;
}

void
site_unlock_out(int fd)
{
	if (fd >= 0)
		close(fd);
}

int
site_update(struct site *s, const char *hold, char *const *stale, size_t n)
{
	struct buf rec = BUF_INIT;
	struct stat st;
	int rc = -1, touched = 0;

	if (lstat(s->out, &st)) {
		error_at(s->out, 0, "cannot stat: %s", strerror(errno));
	} else if (!replaceable(s->out, &st) &&
		   !cache_merge(s->tmp, s->out, hold, stale, n, &touched)) {
		touched = 1;
		/* the folder record of the site as it now is, then the
		 * manifest: the site is erg's again */
		if (cache_folders_text(s->out, &rec))
			error_errno("cannot list the folders of '%s'", s->out);
		else if (!site_write(s, CACHE_FOLDERS, rec.ptr, rec.len) &&
			 !cache_merge_end(s->tmp, s->out, hold))
			rc = 0;
	}
	if (rc && touched)
		error_at(s->out, 0, "left partly updated; the next build rebuilds it in full");
	buf_release(&rec);
	path_remove_tree(s->tmp);
	unlock(s);
	free(s->tmp);
	free(s->out);
	s->tmp = s->out = NULL;
	return rc;
}

void
site_abort(struct site *s)
{
	if (s->tmp)
		path_remove_tree(s->tmp);
	unlock(s);
	free(s->tmp);
	free(s->out);
	s->tmp = s->out = NULL;
}

/* The first SITE_HEAD_MAX bytes of the regular file path into head. */
static int
read_head(const char *path, char *head, size_t *n)
{
	struct stat st;
	ssize_t k;
	int fd;

	/* O_NONBLOCK: should a FIFO appear after lstat(), never block on it. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return error_at(path, 0, "cannot read: %s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_at(path, 0, "is not a regular file; erg does not replace it");
	}
	*n = 0;
	while (*n < SITE_HEAD_MAX && (k = read(fd, head + *n, SITE_HEAD_MAX - *n)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return error_at(path, 0, "cannot read: %s", strerror(errno));
		}
		*n += (size_t)k;
	}
	close(fd);
	return 0;
}

/* May path be replaced?  1 yes (it is ours: *mode is its mode), 0 it
 * does not exist, -1 no (after the error). */
static int
check_file(const char *path, int (*ours)(const char *head, size_t n), mode_t *mode)
{
	char head[SITE_HEAD_MAX];
	struct stat st;
	size_t n = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : error_at(path, 0, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error_at(path, 0, "exists and is %s; erg only replaces a file it wrote",
				S_ISLNK(st.st_mode) ? "a symbolic link" :
				S_ISDIR(st.st_mode) ? "a directory" :
				S_ISFIFO(st.st_mode) ? "a FIFO" : "not a regular file");
	if (read_head(path, head, &n))
		return -1;
	if (!ours(head, n))
		return error_at(path, 0, "exists and is not a file erg wrote; erg leaves it alone (remove it, or choose another name)");
	*mode = st.st_mode & 07777;
	return 1;
}

int
site_check_file(const char *path, int (*ours)(const char *head, size_t n))
{
	mode_t mode;

	return check_file(path, ours, &mode) < 0 ? -1 : 0;
}

int
site_write_file(const char *path, const void *data, size_t len,
		int (*ours)(const char *head, size_t n))
{
	struct buf tmp = BUF_INIT;
	size_t done = 0;
	mode_t mode = 0;
	int fd = -1, i, rc = -1, keep;

	/* Again: the file may have changed since site_check_file(). */
	if ((keep = check_file(path, ours, &mode)) < 0)
		return -1;
	/* O_EXCL on a name of our own: the umask applies, as for any new file. */
	for (i = 0; fd < 0 && i < 100; i++) {
		buf_reset(&tmp);
		buf_addf(&tmp, "%s.tmp-%ld-%d", path, (long)getpid(), i);
		fd = open(tmp.ptr, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) {
			error_errno("cannot create '%s'", tmp.ptr);
			goto out;
		}
	}
	if (fd < 0) {
		error_at(path, 0, "cannot create a temporary file beside it: too many left over");
		goto out;
	}
	if (keep && fchmod(fd, mode)) {
		error_errno("cannot set the permissions of '%s'", tmp.ptr);
		goto fail;
	}
	while (done < len) {
		ssize_t k = write(fd, (const char *)data + done, len - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			error_errno("cannot write '%s'", tmp.ptr);
			goto fail;
		}
		done += (size_t)k;
	}
	if (close(fd)) {
		fd = -1;
		error_errno("cannot write '%s'", tmp.ptr);
		goto fail;
	}
	fd = -1;
	if (rename(tmp.ptr, path)) {
		error_errno("cannot rename '%s' to '%s'", tmp.ptr, path);
		goto fail;
	}
	rc = 0;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp.ptr);
out:
	buf_release(&tmp);
	return rc;
}
