/*
 * test_carry.c - files carried from the previous site into the tree being
 * built (cache_copy_files()): hard links to the checked regular file, and
 * the previous site unchanged by whatever the build writes afterwards
 * (site_write() gives a name a new inode) or by a build that is aborted;
 * and the two halves of an update in place: what it moves into the site
 * and removes (cache_merge()), and what it counts as stale (cache_stale()).
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

/* base/rel, its folders made, holding text */
static void
put_at(const char *rel, const char *text)
{
	struct buf p = BUF_INIT;
	char *slash;

	buf_addf(&p, "%s/%s", base, rel);
	slash = strrchr(p.ptr, '/');
	*slash = '\0';
	if (path_mkdirs(p.ptr))
		exit(1);
	*slash = '/';
	put(p.ptr, text);
	buf_release(&p);
}

static const char *
get_at(const char *rel)
{
	struct buf p = BUF_INIT;
	static char b[256];

	buf_addf(&p, "%s/%s", base, rel);
	snprintf(b, sizeof(b), "%s", get(p.ptr));
	buf_release(&p);
	return b;
}

static int
exists_at(const char *rel)
{
	struct buf p = BUF_INIT;
	struct stat st;
	int k;

	buf_addf(&p, "%s/%s", base, rel);
	k = !lstat(p.ptr, &st);
	buf_release(&p);
	return k;
}

/*
 * An update in place (cache_merge()): the stage's files replace the
 * site's, the manifest last and the site's own first removed; stale
 * files go with the folders they leave empty, never a folder with
 * someone's file in it nor a folder where a page was; and a link on a
 * path of the site stops the merge before anything is touched.
 */
static void
merge_checks(void)
{
	static char s1[] = "runs/gone/index.html", s2[] = "runs/g2/index.html",
		    s3[] = "dirpage.html";
	char *const stale[] = { s1, s2, s3 };
	struct buf site = BUF_INIT, stage = BUF_INIT, p = BUF_INIT, q = BUF_INIT, r = BUF_INIT;
	struct stat a, b;
	int touched = 1;

	buf_addf(&site, "%s/m/site", base);
	buf_addf(&stage, "%s/m/stage", base);
	put_at("m/site/.erg-cache/manifest", "m1");
	put_at("m/site/runs/a/index.html", "old a");
	put_at("m/site/runs/gone/index.html", "gone");
	put_at("m/site/runs/gone/mine.txt", "someone's");
	put_at("m/site/runs/g2/index.html", "gone too");
	put_at("m/site/keep.html", "keep");
	put_at("m/site/dirpage.html/x", "a folder");
	put_at("m/stage/runs/a/index.html", "new a");
	put_at("m/stage/runs/new/x/index.html", "new");
	put_at("m/stage/.erg-cache/manifest", "m2");
	put_at("m/outside/.keep", "");
	buf_addf(&p, "%s/m/outside", base);
	buf_addf(&q, "%s/runs/new", site.ptr);
	if (symlink(p.ptr, q.ptr))
		perror(q.ptr);
	buf_reset(&p);
	buf_addf(&p, "%s/runs/a/index.html", site.ptr);
	a = st_of(p.ptr);

	CHECK(cache_merge(stage.ptr, site.ptr, CACHE_MANIFEST, stale, 3, &touched) == -1 &&
	      !touched, "a link on the path of a page: refused, nothing touched");
	CHECK_STR(get_at("m/site/.erg-cache/manifest"), "m1", "refused: the manifest is still there");
	CHECK_STR(get_at("m/site/runs/a/index.html"), "old a", "refused: no page moved");
	CHECK(!exists_at("m/outside/x") && exists_at("m/stage/runs/a/index.html") &&
	      exists_at("m/site/runs/gone/index.html"),
	      "refused: nothing written through the link, nothing moved or removed");

	unlink(q.ptr);
	/* A site without its manifest is not the one the build read. */
	buf_reset(&q);
	buf_addf(&q, "%s/.erg-cache/manifest", site.ptr);
	buf_reset(&r);
	buf_addf(&r, "%s/m/manifest.away", base);
	if (rename(q.ptr, r.ptr))
		perror(q.ptr);
	CHECK(cache_merge(stage.ptr, site.ptr, CACHE_MANIFEST, stale, 3, &touched) == -1 &&
	      !touched, "no manifest in the site: refused, nothing touched");
	CHECK_STR(get_at("m/site/runs/a/index.html"), "old a", "no manifest: no page moved");
	if (rename(r.ptr, q.ptr))
		perror(r.ptr);
	CHECK(!cache_merge(stage.ptr, site.ptr, CACHE_MANIFEST, stale, 3, &touched) && touched,
	      "merged");
	CHECK_STR(get_at("m/site/runs/a/index.html"), "new a", "merged: the page replaced");
	b = st_of(p.ptr);
	CHECK(b.st_ino != a.st_ino, "merged: the page is a new inode (never written in place)");
	CHECK_STR(get_at("m/site/runs/new/x/index.html"), "new", "merged: a new page, its folders made");
	CHECK(!exists_at("m/site/.erg-cache/manifest") && exists_at("m/stage/.erg-cache/manifest"),
	      "merged: the site's manifest set aside, the new one held back");
	CHECK_STR(get_at("m/site/.erg-cache/manifest.old"), "m1", "merged: set aside as manifest.old");
	CHECK(!exists_at("m/site/runs/gone/index.html") && !exists_at("m/site/runs/g2"),
	      "merged: stale pages removed, a folder left empty removed");
	CHECK_STR(get_at("m/site/runs/gone/mine.txt"), "someone's",
		  "merged: a folder with someone's file stays, the file too");
	CHECK(exists_at("m/site/dirpage.html/x") && exists_at("m/site/keep.html"),
	      "merged: a folder where a page was stays, a page not named stays");
	CHECK(!cache_merge_end(stage.ptr, site.ptr, CACHE_MANIFEST), "the rest merged");
	CHECK_STR(get_at("m/site/.erg-cache/manifest"), "m2", "the new manifest in place last");
	CHECK(!exists_at("m/site/.erg-cache/manifest.old"), "the one set aside removed");
	buf_release(&site);
	buf_release(&stage);
	buf_release(&p);
	buf_release(&q);
	buf_release(&r);
}

/* A manifest's text: the head, then body. */
static void
manifest(struct buf *b, const char *body)
{
	static const char z[] = "0000000000000000000000000000000000000000000000000000000000000000";

	buf_reset(b);
	buf_addf(b, "erg-cache 3\nglobal %s\narchive %s\nlimits 1 2 3\n%s", z, z, body);
}

/*
 * What an update removes (cache_stale()): the old manifest's files the
 * new one has not, as paths, whoever owned them; and the runs gone.
 */
static void
stale_checks(void)
{
	static const char k1[] = "1111111111111111111111111111111111111111111111111111111111111111",
			  k2[] = "2222222222222222222222222222222222222222222222222222222222222222";
	struct buf t = BUF_INIT, body = BUF_INIT;
	struct cache_manifest old, cur;
	char **files = NULL, **gone = NULL;
	size_t nfiles = 0, ngone = 0, i;
	struct buf all = BUF_INIT;

	buf_addf(&body, "site 3\nindex.html\nmachines/m/page-2.html\nruns/b/x.html\n"
		 "run %s 2 a\nindex.html\nold.csv\nrun %s 1 gone/r\nindex.html\n", k1, k1);
	manifest(&t, body.ptr);
	CHECK(!cache_parse(&t, &old), "old manifest parsed");
	buf_reset(&body);
	/* runs/b/x.html: a site file before, run b's now (not stale) */
	buf_addf(&body, "site 1\nindex.html\n"
		 "run %s 1 a\nindex.html\nrun %s 1 b\nx.html\n", k2, k2);
	manifest(&t, body.ptr);
	CHECK(!cache_parse(&t, &cur), "new manifest parsed");
	cache_stale(&old, &cur, &files, &nfiles, &gone, &ngone);
	for (i = 0; i < nfiles; i++)
		buf_addf(&all, "%s;", files[i]);
	CHECK_STR(all.ptr, "machines/m/page-2.html;runs/a/old.csv;runs/gone/r/index.html;",
		  "stale: a site page, a run's file it no longer has, a gone run's files");
	CHECK(ngone == 1 && !strcmp(gone[0], "gone/r"), "gone: the run no longer there");
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	for (i = 0; i < ngone; i++)
		free(gone[i]);
	free(files);
	free(gone);
	cache_free(&old);
	cache_free(&cur);
	buf_release(&t);
	buf_release(&body);
	buf_release(&all);
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

	merge_checks();
	stale_checks();
	path_remove_tree(base);
	buf_release(&old);
	buf_release(&f);
	buf_release(&g);
	return th_done();
}
