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

#include "buf.h"
#include "path.h"
#include "site.h"
#include "util.h"

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
		if (lstat(p.ptr, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_mtime > time(NULL) - STALE_SECONDS)
			continue;
		if ((fd = lock_dir(p.ptr)) < 0)
			continue;	/* a build is writing it */
		if (!path_remove_tree(p.ptr))
			warn("removed '%s', left behind by an interrupted build", p.ptr);
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
	size_t n = strlen(out);

	while (n > 1 && out[n - 1] == '/')
		n--;
	s->out = xstrndup(out, n);
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
	return 0;
}

static void
unlock(struct site *s)
{
	if (s->tmp && s->lock >= 0)
		close(s->lock);
	s->lock = -1;
}

int
site_write(struct site *s, const char *rel, const void *data, size_t len)
{
	struct buf p = BUF_INIT;
	char *slash;
	FILE *f;
	int rc = -1;

	buf_addf(&p, "%s/%s", s->tmp, rel);
	slash = strrchr(p.ptr, '/');
	*slash = '\0';
	if (path_mkdirs(p.ptr))
		goto out;
	*slash = '/';
	if (!(f = fopen(p.ptr, "wb"))) {
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
	int rc = -1;

	if (!path_exists(s->out)) {
		if (rename(s->tmp, s->out)) {
			error_errno("cannot rename '%s' to '%s'", s->tmp, s->out);
			goto out;
		}
		rc = 0;
		goto out;
	}
	if (!path_is_dir(s->out)) {
		error("'%s' exists and is not a directory", s->out);
		goto out;
	}
	if (exchange(s->tmp, s->out) == 0) {
		/* s->tmp now holds the previous site. */
		rc = path_remove_tree(s->tmp);
		goto out;
	}
	/* No atomic exchange: two renames, with a brief moment without OUT. */
	buf_addf(&old, "%s.old-%ld", s->out, (long)getpid());
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
