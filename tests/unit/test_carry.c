/*
 * test_carry.c - files carried from the previous site into the tree being
 * built (cache_copy_files()): hard links to the checked regular file, and
 * the previous site unchanged by whatever the build writes afterwards
 * (site_write() gives a name a new inode) or by a build that is aborted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "base/buf.h"
#include "base/path.h"
#include "site/cache.h"
#include "site/site.h"

static char base[] = "/tmp/erg-carry-XXXXXX";

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	if (!f || fputs(text, f) == EOF || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* The whole content of path, or "" (static). */
static const char *
get(const char *path)
{
	static char b[256];
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	b[0] = '\0';
	if (f) {
		n = fread(b, 1, sizeof(b) - 1, f);
		fclose(f);
	}
	b[n] = '\0';
	return b;
}

static struct stat
st_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		memset(&st, 0, sizeof(st));
	return st;
}

int
main(void)
{
	struct buf old = BUF_INIT, f = BUF_INIT, g = BUF_INIT;
	struct site s;
	static char n_index[] = "index.html", n_data[] = "data.csv", n_link[] = "link.html",
		    n_fifo[] = "fifo.html";
	char *const files[] = { n_data, n_index };
	char *const link_only[] = { n_link };
	char *const fifo_only[] = { n_fifo };
	struct stat a, b;

	if (!mkdtemp(base)) {
		perror(base);
		return 1;
	}
	buf_addf(&old, "%s/site", base);
	buf_addf(&f, "%s/runs/r1", old.ptr);
	if (path_mkdirs(f.ptr))
		return 1;
	buf_addf(&f, "/index.html");
	put(f.ptr, "old page");
	buf_reset(&f);
	buf_addf(&f, "%s/runs/r1/data.csv", old.ptr);
	put(f.ptr, "a,b;1,2");
	buf_reset(&f);
	buf_addf(&f, "%s/%s", old.ptr, SITE_MARKER);
	put(f.ptr, "marker\n");

	/* A carried file is the previous site's inode, not a copy. */
	CHECK(!site_begin(&s, old.ptr), "site_begin beside '%s'", old.ptr);
	CHECK(!cache_copy_files(old.ptr, s.tmp, "runs/r1/", files, 2), "two files carried");
	buf_reset(&f);
	buf_addf(&f, "%s/runs/r1/index.html", old.ptr);
	buf_reset(&g);
	buf_addf(&g, "%s/runs/r1/index.html", s.tmp);
	a = st_of(f.ptr);
	b = st_of(g.ptr);
	CHECK(S_ISREG(b.st_mode) && a.st_ino == b.st_ino && a.st_dev == b.st_dev &&
	      a.st_nlink == 2, "carried by a hard link (inode %llu and %llu, %lu links)",
	      (unsigned long long)a.st_ino, (unsigned long long)b.st_ino,
	      (unsigned long)a.st_nlink);
	CHECK_STR(get(g.ptr), "old page", "carried content");

	/* Written again in the same build: a new inode; the old page stays. */
	CHECK(!site_write(&s, "runs/r1/index.html", "new page", 8), "page written again");
	CHECK_STR(get(g.ptr), "new page", "the new tree has the new page");
	CHECK_STR(get(f.ptr), "old page", "the previous site still has the old page");
	b = st_of(g.ptr);
	CHECK(b.st_ino != a.st_ino, "the new page is a new inode");
	a = st_of(f.ptr);
	CHECK(a.st_nlink == 1, "the old page is linked once again (%lu)",
	      (unsigned long)a.st_nlink);

	/* A link in the previous site is neither followed nor carried. */
	buf_reset(&f);
	buf_addf(&f, "%s/runs/r1/link.html", old.ptr);
	if (symlink("data.csv", f.ptr))
		perror(f.ptr);
	CHECK(cache_copy_files(old.ptr, s.tmp, "runs/r1/", link_only, 1) == -1,
	      "a symbolic link is refused");
	buf_reset(&g);
	buf_addf(&g, "%s/runs/r1/link.html", s.tmp);
	CHECK(lstat(g.ptr, &b) && errno == ENOENT, "nothing carried for the link");
	/* A FIFO: refused without blocking. */
	buf_reset(&f);
	buf_addf(&f, "%s/runs/r1/fifo.html", old.ptr);
	if (mkfifo(f.ptr, 0644))
		perror(f.ptr);
	CHECK(cache_copy_files(old.ptr, s.tmp, "runs/r1/", fifo_only, 1) == -1,
	      "a FIFO is refused");

	/* An aborted build leaves the previous site as it was. */
	buf_reset(&f);
	buf_addf(&f, "%s/runs/r1/data.csv", old.ptr);
	a = st_of(f.ptr);
	site_abort(&s);
	b = st_of(f.ptr);
	CHECK(a.st_nlink == 2 && b.st_nlink == 1 && a.st_ino == b.st_ino,
	      "after the abort the carried file is the previous site's alone (%lu, then %lu links)",
	      (unsigned long)a.st_nlink, (unsigned long)b.st_nlink);
	CHECK_STR(get(f.ptr), "a,b;1,2", "the previous site's data unchanged");

	path_remove_tree(base);
	buf_release(&old);
	buf_release(&f);
	buf_release(&g);
	return th_done();
}
