/* archive.c - see archive.h. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive.h"
#include "buf.h"
#include "path.h"
#include "session.h"
#include "util.h"

size_t archive_max_runs = 20000;

#define MAX_DEPTH 16

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run ids become URLs, file names and JSON strings: keep them to
 * printable UTF-8 (no control characters, no backslash). */
static int
printable_name(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			return 0;
	return utf8_valid(s, strlen(s));
}

static int
summary_detect(const char *dir)
{
	struct buf b = BUF_INIT;
	int yes;

	buf_addf(&b, "%s/run.json", dir);
	yes = path_is_file(b.ptr);
	buf_release(&b);
	return yes;
}

static int
scan(const char *root, const char *rel, int depth, struct run_list *out)
{
	struct buf dir = BUF_INIT, sub = BUF_INIT, subrel = BUF_INIT;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (*rel)
		buf_addf(&dir, "%s/%s", root, rel);
	else
		buf_addstr(&dir, root);
	if (*rel && (session_detect(dir.ptr) || summary_detect(dir.ptr))) {
		struct run_ref *r;

		if (!printable_name(rel)) {
			rc = error_at(dir.ptr, 0, "run directory name is not printable UTF-8 (control characters, backslashes or invalid UTF-8)");
			goto out;
		}
		if (out->n >= archive_max_runs) {
			rc = error_at(root, 0, "more than %zu runs in the archive (raise with --max-runs)",
				      archive_max_runs);
			goto out;
		}
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		r = &out->v[out->n++];
		r->id = xstrdup(rel);
		r->dir = xstrdup(dir.ptr);
		r->kind = session_detect(dir.ptr) ? RUN_ENERGY_SESSION : RUN_SUMMARY;
		goto out;
	}
	if (depth > MAX_DEPTH)
		goto out;
	if (!(d = opendir(dir.ptr))) {
		rc = error_errno("cannot open directory '%s'", dir.ptr);
		goto out;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		buf_reset(&sub);
		buf_addf(&sub, "%s/%s", dir.ptr, e->d_name);
		/* lstat: a linked directory could lead out of the archive. */
		if (lstat(sub.ptr, &st) || !S_ISDIR(st.st_mode))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n && !rc; i++) {
		buf_reset(&subrel);
		if (*rel)
			buf_addf(&subrel, "%s/%s", rel, names[i]);
		else
			buf_addstr(&subrel, names[i]);
		if (scan(root, subrel.ptr, depth + 1, out))
			rc = -1;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
out:
	buf_release(&dir);
	buf_release(&sub);
	buf_release(&subrel);
	return rc;
}

int
archive_scan(const char *root, struct run_list *out)
{
	memset(out, 0, sizeof(*out));
	if (!path_is_dir(root))
		return error("archive '%s' is not a directory", root);
	if (scan(root, "", 0, out)) {
		run_list_free(out);
		return -1;
	}
	return 0;
}

void
run_list_free(struct run_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].dir);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
