/* path.c - safe joins inside the archive, and small filesystem helpers. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path.h"
#include "base/util.h"

int
path_inside(const char *dir, const char *rel, struct buf *out, const char **why)
{
	char *rdir = NULL, *rfile = NULL;
	const char *p;
	size_t n;
	int rc = -1;

	*why = NULL;
	if (!*rel) {
		*why = "empty path";
		return -1;
	}
	if (rel[0] == '/') {
		*why = "absolute path not allowed";
		return -1;
	}
	for (p = rel; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*why = "control character in path";
			return -1;
		}
	/* Reject ".." as a whole component; "a..b" is an ordinary name. */
	for (p = rel; *p;) {
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			*why = "path escapes the run directory ('..')";
			return -1;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	buf_reset(out);
	buf_addf(out, "%s/%s", dir, rel);

	/* A link inside the run may still point out of it: compare real paths. */
	rdir = realpath(dir, NULL);
	rfile = realpath(out->ptr, NULL);
	if (!rfile) {
		rc = errno == ENOENT ? -2 : -1;
		if (rc == -1)
			*why = strerror(errno);
		else
			*why = "no such file";
		goto done;
	}
	if (!rdir) {
		*why = "cannot resolve run directory";
		goto done;
	}
	n = strlen(rdir);
	if (strncmp(rfile, rdir, n) || (rfile[n] != '/' && rfile[n] != '\0')) {
		*why = "path leaves the run directory (symbolic link)";
		goto done;
	}
	rc = 0;
done:
	free(rdir);
	free(rfile);
	return rc;
}

int
path_is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

int
path_is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

int
path_exists(const char *p)
{
	struct stat st;

	return !lstat(p, &st);
}

/*
 * The folder itself first, its parents only when it has none: a build
 * asks for the folder of every file it writes, and that folder or its
 * parent nearly always exists already, so this is one mkdir() where
 * trying every component from the root was one per level.
 */
int
path_mkdirs(const char *path)
{
	char *p, *s;
	int rc;

	if (!mkdir(path, 0777) || errno == EEXIST)
		return 0;
	if (errno != ENOENT || !(s = strrchr(path, '/')) || s == path)
		return error_errno("cannot create directory '%s'", path);
	p = xstrdup(path);
	p[s - path] = '\0';
	rc = path_mkdirs(p);
	free(p);
	if (rc)
		return -1;
	if (mkdir(path, 0777) && errno != EEXIST)
		return error_errno("cannot create directory '%s'", path);
	return 0;
}

int
path_remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	struct buf b = BUF_INIT;
	int rc = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : error_errno("cannot stat '%s'", path);
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path))
			return error_errno("cannot remove '%s'", path);
		return 0;
	}
	if (!(d = opendir(path)))
		return error_errno("cannot open directory '%s'", path);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_reset(&b);
		buf_addf(&b, "%s/%s", path, e->d_name);
		if (path_remove_tree(b.ptr))
			rc = -1;
	}
	closedir(d);
	buf_release(&b);
	if (!rc && rmdir(path))
		rc = error_errno("cannot remove directory '%s'", path);
	return rc;
}
