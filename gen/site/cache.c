/* cache.c - keys and the manifest of incremental builds (see cache.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "site/cache.h"
#include "base/dirlist.h"
#include "ingest/archive.h"
#include "ingest/input.h"
#include "base/path.h"
#include "base/sha256.h"
#include "ingest/summary.h"
#include "base/util.h"

#define MAX_DEPTH 32
#define MANIFEST_MAX ((size_t)256 << 20)

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The site being replaced is trusted no more than the archive: whoever can
 * write there could plant a symbolic link (runs/x/index.html -> a private
 * file, or runs/x -> elsewhere) that a copy would follow and publish, or a
 * FIFO that a read would wait on forever, or a manifest naming
 * "../../file".  So its files are opened one path component at a time,
 * never through a link, never "." or "..", and only regular files are
 * read.  Files are checked in sorted order, so the directory of the last
 * one is kept open for the next.
 */
struct below {
	int root;		/* the old site */
	int dfd;		/* the directory dir names (root, or fd[depth - 1]) */
	int depth;		/* directories open below the root */
	int fd[MAX_DEPTH];	/* fd[i]: dir up to end[i] */
	size_t end[MAX_DEPTH];
	struct buf dir;		/* relative to root, "" for root itself */
};

static int
below_init(struct below *b, const char *root)
{
	b->depth = 0;
	buf_init(&b->dir, 0);
	b->root = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	b->dfd = b->root;
	return b->root < 0 ? -1 : 0;
}

static void
below_pop(struct below *b, int depth)
{
	while (b->depth > depth)
		close(b->fd[--b->depth]);
	buf_setlen(&b->dir, depth ? b->end[depth - 1] : 0);
	b->dfd = depth ? b->fd[depth - 1] : b->root;
}

static void
below_release(struct below *b)
{
	below_pop(b, 0);
	if (b->root >= 0)
		close(b->root);
	buf_release(&b->dir);
}

/* A path the old site may name: relative, no empty, "." or ".." part. */
static int
plain_rel(const char *rel)
{
	const char *p = rel;
	size_t n;

	if (!*p)
		return 0;
	for (;;) {
		n = strcspn(p, "/");
		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

/*
 * The directory holding rel, opened one component at a time without
 * following links; -1 if none.  *base: rel's last component.  The
 * directories of the last path stay open, so the files of one folder, and
 * the folders of one parent (runs/<machine>/...), cost one openat() each,
 * not one per component: a rebuild checks every file it carries.
 */
static int
below_dir_at(struct below *b, const char *rel, const char **base, int make)
{
	const char *slash = strrchr(rel, '/'), *p, *e;
	size_t n = slash ? (size_t)(slash - rel) : 0;
	int k, next;

	*base = slash ? slash + 1 : rel;
	if (b->root < 0 || !plain_rel(rel))
		return -1;
	if (b->dir.len == n && !memcmp(b->dir.ptr, rel, n))
		return b->dfd;
	/* the levels of the open path that are a prefix of rel's folder */
	for (k = 0; k < b->depth; k++) {
		size_t x = b->end[k];

		if (x > n || memcmp(b->dir.ptr, rel, x) || (x < n && rel[x] != '/'))
			break;
	}
	below_pop(b, k);
	for (p = rel + (k ? b->end[k - 1] + 1 : 0); p < rel + n; p = e + 1) {
		char name[NAME_MAX + 1];

		e = memchr(p, '/', (size_t)(rel + n - p));
		if (!e)
			e = rel + n;
		if ((size_t)(e - p) > NAME_MAX || b->depth == MAX_DEPTH)
			next = -1;
		else {
			memcpy(name, p, (size_t)(e - p));
			name[e - p] = '\0';
			next = openat(b->dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			/* mkdirat() never follows a link in its last part */
			if (next < 0 && errno == ENOENT && make &&
			    (!mkdirat(b->dfd, name, 0777) || errno == EEXIST))
				next = openat(b->dfd, name,
					      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			below_pop(b, 0);
			return -1;
		}
		b->fd[b->depth] = next;
		b->end[b->depth++] = (size_t)(e - rel);
		b->dfd = next;
	}
	buf_setlen(&b->dir, 0);
	buf_add(&b->dir, rel, n);
	return b->dfd;
}

static int
below_dir(struct below *b, const char *rel, const char **base)
{
	return below_dir_at(b, rel, base, 0);
}

/* Is rel a regular file (not a link) below the root? */
static int
below_is_file(struct below *b, const char *rel)
{
	const char *base;
	struct stat st;
	int dfd = below_dir(b, rel, &base);

	return dfd >= 0 && !fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISREG(st.st_mode);
}

/* rel opened for reading if it is a regular file (no link); else -1. */
static int
below_open(struct below *b, const char *rel)
{
	const char *base;
	struct stat st;
	int dfd = below_dir(b, rel, &base), fd, fl;

	if (dfd < 0)
		return -1;
	fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Names and contents of every file under path. */
static void
walk_content(struct sha256 *c, struct buf *path, const char *rel, int depth)
{
	struct names l = NAMES_INIT;
	size_t i, plen = path->len;
	struct stat st;

	if (depth > MAX_DEPTH || names_list_dir(path->ptr, &l)) {
		sha256_add(c, "?", 1);
		names_release(&l);
		return;
	}
	for (i = 0; i < l.n; i++) {
		struct buf r = BUF_INIT;

		buf_addf(path, "/%s", l.v[i]);
		buf_addf(&r, "%s/%s", rel, l.v[i]);
		sha256_add(c, r.ptr, r.len + 1);
		if (stat(path->ptr, &st)) {
			sha256_add(c, "?", 1);
		} else if (S_ISDIR(st.st_mode)) {
			walk_content(c, path, r.ptr, depth + 1);
		} else {
			char buf[16384];
			/* Not input_open_fd(): the render reports a bad template. */
			int fd = S_ISREG(st.st_mode) ?
				 open(path->ptr, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
			ssize_t k = -1;

			if (fd >= 0) {
				while ((k = read(fd, buf, sizeof(buf))) > 0)
					sha256_add(c, buf, (size_t)k);
				close(fd);
			}
			if (k < 0)
				sha256_add(c, "?", 1);
		}
		buf_setlen(path, plen);
		buf_release(&r);
	}
	names_release(&l);
}

/* Everything under the archive that belongs to no run (diffs.txt, ...). */
static int
walk_archive(struct sha256 *c, struct buf *path, struct buf *rel, int depth,
	     char *const *ids, size_t n)
{
	struct names l = NAMES_INIT;
	size_t i, plen = path->len, rlen = rel->len;
	struct stat st;
	int rc = 0;

	if (depth > MAX_DEPTH || names_list_dir(path->ptr, &l)) {
		names_release(&l);
		return -1;
	}
	for (i = 0; i < l.n && !rc; i++) {
		const char *r;

		buf_addch(path, '/');
		buf_addstr(path, l.v[i]);
		if (rel->len)
			buf_addch(rel, '/');
		buf_addstr(rel, l.v[i]);
		r = rel->ptr;
		/* A run is keyed on its own (no stat of it here: a no-op
		 * rebuild is stats); a folder's own times change with the runs
		 * added or removed, which the run list shows. */
		if (n && bsearch(&r, ids, n, sizeof(*ids), cmp_str)) {
			;
		} else if (lstat(path->ptr, &st)) {
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = walk_archive(c, path, rel, depth + 1, ids, n);
		} else {
			archive_key_stat(c, rel->ptr, &st);
		}
		buf_setlen(path, plen);
		buf_setlen(rel, rlen);
	}
	names_release(&l);
	return rc;
}

void
cache_archive_key(const char *archive, char *const *run_ids, size_t nruns,
		  unsigned char key[32])
{
	struct buf path = BUF_INIT, rel = BUF_INIT;
	char **ids = xcalloc(nruns + 1, sizeof(*ids));
	struct sha256 c;

	memcpy(ids, run_ids, nruns * sizeof(*ids));
	if (nruns)
		qsort(ids, nruns, sizeof(*ids), cmp_str);
	sha256_begin(&c);
	sha256_add(&c, "archive\0", 8);
	buf_addstr(&path, archive);
	if (walk_archive(&c, &path, &rel, 0, ids, nruns))
		sha256_add(&c, "?", 1);
	sha256_end(&c, key);
	free(ids);
	buf_release(&path);
	buf_release(&rel);
}

void
cache_global_key(const char *tmpl_dir, const char *version, unsigned char key[32])
{
	struct sha256 c;
	struct stat st;
	struct buf b = BUF_INIT, path = BUF_INIT;
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	/* the tests' page size (page_views.c): it splits the lists */
	const char *rows = getenv("ERG_PAGE_ROWS");

	sha256_begin(&c);
	/* --no-digest changes every run's results (files[].sha256).  The
	 * size limits are not here: they only refuse, so they are kept in the
	 * manifest's own line (cache_limits_cover()). */
	buf_addf(&b, "erg-cache 3\nversion %s\nsde %s%s\ndigests %d\npagerows %s%s\n",
		 version ? version : "", sde ? "=" : "", sde ? sde : "", input_digests,
		 rows ? "=" : "", rows ? rows : "");
	sha256_add(&c, b.ptr, b.len);
	/* The program itself: a rebuilt erg may render differently.  Its
	 * bytes (3.4 MB: ~2 ms), not its inode's times: a link to the binary
	 * changes its ctime, and `perf record` links every binary it samples
	 * into ~/.debug, which made the next build rebuild every run. */
	{
		char blk[65536];
		ssize_t k = -1;
		int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

		if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
			sha256_add(&c, "exe", 4);
			while ((k = read(fd, blk, sizeof(blk))) > 0)
				sha256_add(&c, blk, (size_t)k);
		}
		if (fd >= 0)
			close(fd);
		if (k < 0)
			sha256_add(&c, "noexe", 5);
	}
	if (tmpl_dir) {
		buf_addstr(&path, tmpl_dir);
		walk_content(&c, &path, "", 0);
	}
	sha256_end(&c, key);
	buf_release(&b);
	buf_release(&path);
}

/* ------------------------------------------------------------------ */
/* the manifest */

static int
nibble(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int
unhex(const char *s, unsigned char out[32])
{
	size_t i;
	int hi, lo;

	for (i = 0; i < 32; i++) {
		if ((hi = nibble(s[2 * i])) < 0 || (lo = nibble(s[2 * i + 1])) < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return s[64] == '\0' || s[64] == ' ' ? 0 : -1;
}

static int
valid_hex(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int
cmp_run(const void *a, const void *b)
{
	return strcmp(((const struct cache_run *)a)->id, ((const struct cache_run *)b)->id);
}

/* n following lines into a new array: copies, or with in_place the
 * lines themselves, ended where their newlines were (the manifest, 144,000
 * lines at 20,000 runs, is read by every no-op rebuild); NULL on a short
 * file. */
static char **
take_lines(char **p, char *end, size_t n, int in_place)
{
	char **v = xcalloc(n + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++) {
		char *nl = memchr(*p, '\n', (size_t)(end - *p));

		if (!nl || nl == *p) {
			if (!in_place)
				free_names(v, i);
			else
				free(v);
			return NULL;
		}
		if (in_place) {
			*nl = '\0';
			v[i] = *p;
		} else {
			v[i] = xstrndup(*p, (size_t)(nl - *p));
		}
		*p = nl + 1;
	}
	return v;
}

static char *
next_line(char **p, char *end)
{
	char *s = *p, *nl;

	if (s >= end || !(nl = memchr(s, '\n', (size_t)(end - s))))
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return s;
}

int
cache_read_file(const char *root, const char *rel, size_t max, struct buf *b)
{
	struct below w;
	struct stat st;
	char tmp[65536];
	ssize_t k = -1;
	int fd;

	if (below_init(&w, root) || (fd = below_open(&w, rel)) < 0) {
		below_release(&w);
		return -1;
	}
	/* room for the whole file at once (it may still change size) */
	if (!fstat(fd, &st) && st.st_size > 0 && (uint64_t)st.st_size <= max)
		buf_grow(b, (size_t)st.st_size + 1);
	while ((k = read(fd, tmp, sizeof(tmp))) > 0 || (k < 0 && errno == EINTR)) {
		if (k < 0)
			continue;
		if (b->len + (size_t)k > max) {
			k = -1;
			break;
		}
		buf_add(b, tmp, (size_t)k);
	}
	close(fd);
	below_release(&w);
	return k < 0 ? -1 : 0;
}

int
cache_load(const char *out, struct cache_manifest *m)
{
	struct buf data = BUF_INIT;

	memset(m, 0, sizeof(*m));
	if (cache_read_file(out, CACHE_MANIFEST, MANIFEST_MAX, &data)) {
		buf_release(&data);
		return -1;
	}
	return cache_parse(&data, m);
}

int
cache_parse(struct buf *text, struct cache_manifest *m)
{
	struct buf data = *text;
	char *p, *end, *line;
	unsigned long long n;
	size_t i;
	int rc = -1, k;

	buf_init(text, 0);
	memset(m, 0, sizeof(*m));
	p = data.ptr;
	end = data.ptr + data.len;
	if (!(line = next_line(&p, end)) || strcmp(line, "erg-cache 3"))
		goto out;
	if (!(line = next_line(&p, end)) || strncmp(line, "global ", 7) ||
	    !valid_hex(line + 7) || unhex(line + 7, m->global))
		goto out;
	if (!(line = next_line(&p, end)) || strncmp(line, "archive ", 8) ||
	    !valid_hex(line + 8) || unhex(line + 8, m->archive))
		goto out;
	if (!(line = next_line(&p, end)) ||
	    sscanf(line, "limits %llu %llu %llu%n", &m->limits[0], &m->limits[1], &m->limits[2],
		   &k) != 3 || line[k])
		goto out;
	if (!(line = next_line(&p, end)) || sscanf(line, "site %llu%n", &n, &k) != 1 ||
	    line[k] || n > data.len)
		goto out;
	m->nsite = (size_t)n;
	if (!(m->site = take_lines(&p, end, m->nsite, 1)))
		goto out;
	for (i = 0; i < m->nsite; i++)
		if (!plain_rel(m->site[i]))
			goto out;
	while ((line = next_line(&p, end))) {
		struct cache_run *r;

		if (strncmp(line, "run ", 4) || strlen(line) < 4 + 64 + 3 ||
		    !valid_hex(line + 4) || unhex(line + 4, (unsigned char[32]){ 0 }) ||
		    sscanf(line + 4 + 64, " %llu %n", &n, &k) != 1 || n > data.len ||
		    !line[4 + 64 + k])
			goto out;
		ALLOC_GROW(m->runs, m->nruns + 1, m->aruns);
		r = &m->runs[m->nruns];
		memset(r, 0, sizeof(*r));
		unhex(line + 4, r->key);
		r->id = line + 4 + 64 + k;
		m->nruns++;
		r->nfiles = (size_t)n;
		if (!(r->files = take_lines(&p, end, r->nfiles, 1)))
			goto out;
		for (i = 0; i < r->nfiles; i++)
			if (!plain_rel(r->files[i]) || !plain_rel(r->id))
				goto out;
	}
	if (p != end)
		goto out;
	/* sorted as erg writes them; a merge of two lists relies on it */
	if (m->nsite)
		qsort(m->site, m->nsite, sizeof(*m->site), cmp_str);
	for (i = 0; i < m->nruns; i++)
		if (m->runs[i].nfiles)
			qsort(m->runs[i].files, m->runs[i].nfiles, sizeof(char *), cmp_str);
	if (m->nruns)
		qsort(m->runs, m->nruns, sizeof(*m->runs), cmp_run);
	rc = 0;
out:
	m->text = buf_detach(&data, NULL);
	if (rc)
		cache_free(m);
	return rc;
}

int
cache_limits_cover(const struct cache_manifest *m)
{
	return input_max_stream >= m->limits[0] && input_max_small >= m->limits[1] &&
	       summary_max_rows >= m->limits[2];
}

int
cache_limits_equal(const struct cache_manifest *m)
{
	return input_max_stream == m->limits[0] && input_max_small == m->limits[1] &&
	       summary_max_rows == m->limits[2];
}

const struct cache_run *
cache_find(const struct cache_manifest *m, const char *id)
{
	struct cache_run k;

	if (!m->nruns)
		return NULL;
	k.id = (char *)id;
	return bsearch(&k, m->runs, m->nruns, sizeof(*m->runs), cmp_run);
}

void
cache_free(struct cache_manifest *m)
{
	size_t i;

	free(m->site);
	for (i = 0; i < m->nruns; i++)
		free(m->runs[i].files);
	free(m->runs);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

/*
 * The identity of a folder of the site for the folder record: any name
 * added to it, removed or replaced changes its mtime and ctime, and
 * setting the mtime back changes the ctime.  The root's ctime is left out:
 * the swap that makes the tree the site changes it.
 */
static void
folder_id(struct sha256 *c, const char *rel, const struct stat *st)
{
	int root = !*rel;
	uint64_t rec[7] = {
		(uint64_t)st->st_mode, (uint64_t)st->st_ino, (uint64_t)st->st_dev,
		(uint64_t)st->st_mtim.tv_sec, (uint64_t)st->st_mtim.tv_nsec,
		root ? 0 : (uint64_t)st->st_ctim.tv_sec, root ? 0 : (uint64_t)st->st_ctim.tv_nsec,
	};

	sha256_add(c, rel, strlen(rel) + 1);
	sha256_add(c, rec, sizeof(rec));
}

/*
 * Every file under the open directory fd (taken) of the tree being
 * built, as paths relative to its root (rel: fd's), and every folder
 * into the folder record (fl: one a line, h: their identities).  The
 * tree is erg's own: the type readdir() gives is trusted, and a stat is
 * made only where it gives none (a rebuild of 5,000 runs describes
 * ~40,000 files).
 */
static int
walk_files(int fd, struct buf *rel, int depth, char ***v, size_t *n, size_t *alloc,
	   struct buf *fl, struct sha256 *h, int with_cache)
{
	struct dirent *e;
	struct stat st;
	size_t rlen = rel->len;
	int rc = 0, dir;
	DIR *d;

	if (fd < 0)
		return -1;
	if (depth > MAX_DEPTH || fstat(fd, &st) || !(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	if (h)
		folder_id(h, rel->ptr, &st);
	if (depth && fl) {
		buf_add(fl, rel->ptr, rel->len);
		buf_addch(fl, '\n');
	}
	while (!rc && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (depth == 0 && !with_cache && !strcmp(e->d_name, CACHE_DIR)))
			continue;
		if (e->d_type != DT_UNKNOWN)
			dir = e->d_type == DT_DIR;
		else if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			rc = -1, dir = 0;
		else
			dir = S_ISDIR(st.st_mode);
		if (rel->len)
			buf_addch(rel, '/');
		buf_addstr(rel, e->d_name);
		if (rc) {
			;
		} else if (dir) {
			rc = walk_files(openat(dirfd(d), e->d_name,
					       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
					rel, depth + 1, v, n, alloc, fl, h, with_cache);
		} else if (v) {
			ALLOC_GROW(*v, *n + 1, *alloc);
			(*v)[(*n)++] = xstrdup(rel->ptr);
		}
		buf_setlen(rel, rlen);
	}
	closedir(d);
	return rc;
}

struct owner {
	const char *id;
	const unsigned char *key;
	const struct cache_run *old;	/* kept in place: its files */
};

static int
cmp_owner(const void *a, const void *b)
{
	return strcmp(((const struct owner *)a)->id, ((const struct owner *)b)->id);
}

static void
hex(struct buf *b, const unsigned char d[32])
{
	char h[65];

	sha256_hex(d, h);
	buf_addstr(b, h);
}

/* The folder record of the tree fd (taken) appended to folders, and its
 * files into v (when not NULL) in the same walk. */
static int
folder_record(int fd, char ***v, size_t *n, size_t *alloc, struct buf *folders)
{
	struct buf rel = BUF_INIT, fl = BUF_INIT;
	struct sha256 h;
	unsigned char key[32];
	int rc;

	sha256_begin(&h);
	sha256_add(&h, "folders\0", 8);
	rc = walk_files(fd, &rel, 0, v, n, alloc, &fl, &h, 0);
	sha256_end(&h, key);
	if (!rc) {
		buf_addstr(folders, "erg-folders 1 ");
		hex(folders, key);
		buf_addch(folders, '\n');
		buf_add(folders, fl.ptr, fl.len);
	}
	buf_release(&rel);
	buf_release(&fl);
	return rc;
}

int
cache_folders_text(const char *root, struct buf *folders)
{
	return folder_record(open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), NULL,
			     NULL, NULL, folders);
}

int
cache_describe(const char *root, const unsigned char global[32],
	       const unsigned char archive[32], char *const *ids,
	       const unsigned char (*keys)[32], size_t n, const struct cache_manifest *old,
	       const unsigned char *kept, char *const *keep, size_t nkeep, struct buf *out,
	       struct buf *folders)
{
	struct buf path = BUF_INIT;
	char **files = NULL, **site = NULL;
	size_t nfiles = 0, afiles = 0, nsite = 0, i, j, k;
	size_t *who = NULL;	/* owner index + 1 of each file, 0: the site's */
	size_t *first = NULL, *order = NULL;	/* files grouped by owner */
	struct owner *o = xcalloc(n + 1, sizeof(*o));
	int rc = -1, fd;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* one walk for both when the tree is the whole site */
	if (folders ? folder_record(fd, &files, &nfiles, &afiles, folders) :
		      walk_files(fd, &path, 0, &files, &nfiles, &afiles, NULL, NULL, 0))
		goto out;
	for (i = 0; i < nkeep; i++) {
		ALLOC_GROW(files, nfiles + 1, afiles);
		files[nfiles++] = xstrdup(keep[i]);
	}
	if (nfiles)
		qsort(files, nfiles, sizeof(*files), cmp_str);
	/* a kept page the build also wrote is one file */
	for (i = j = 0; i < nfiles; i++) {
		if (j && !strcmp(files[j - 1], files[i])) {
			free(files[i]);
			continue;
		}
		files[j++] = files[i];
	}
	nfiles = j;
	for (i = 0; i < n; i++) {
		o[i].id = ids[i];
		o[i].key = keys[i];
		o[i].old = kept && kept[i] && old ? cache_find(old, ids[i]) : NULL;
	}
	if (n)
		qsort(o, n, sizeof(*o), cmp_owner);
	who = xcalloc(nfiles + 1, sizeof(*who));
	site = xcalloc(nfiles + 1, sizeof(*site));
	for (i = 0; i < nfiles; i++) {
		const char *f = files[i], *s;

		if (strchr(f, '\n'))
			goto out;
		if (strncmp(f, "runs/", 5)) {
			site[nsite++] = files[i];
			continue;
		}
		/* The run whose folder holds f: no run folder is inside another. */
		for (s = f + 5; (s = strchr(s, '/')); s++) {
			struct owner key, *hit;
			char *prefix = xstrndup(f + 5, (size_t)(s - f - 5));

			key.id = prefix;
			hit = n ? bsearch(&key, o, n, sizeof(*o), cmp_owner) : NULL;
			free(prefix);
			if (hit) {
				who[i] = (size_t)(hit - o) + 1;
				break;
			}
		}
		if (!who[i])
			site[nsite++] = files[i];
	}
	/* Each owner's files in sorted order by one counting sort: a loop over
	 * every file for every run was 6.8 s of a 20,000-run build. */
	first = xcalloc(n + 2, sizeof(*first));
	order = xcalloc(nfiles + 1, sizeof(*order));
	for (i = 0; i < nfiles; i++)
		if (who[i])
			first[who[i]]++;
	for (j = 1; j <= n; j++)
		first[j] += first[j - 1];
	first[n + 1] = first[n];
	/* first[k]: the end of owner k's files (1-based); after the loop that
	 * places them backwards, their start; first[n + 1]: the end of all */
	for (i = nfiles; i-- > 0;)
		if (who[i])
			order[--first[who[i]]] = i;
	buf_addstr(out, "erg-cache 3\nglobal ");
	hex(out, global);
	buf_addstr(out, "\narchive ");
	hex(out, archive);
	buf_addf(out, "\nlimits %llu %llu %zu\nsite %zu\n", (unsigned long long)input_max_stream,
		 (unsigned long long)input_max_small, summary_max_rows, nsite);
	for (i = 0; i < nsite; i++)
		buf_addf(out, "%s\n", site[i]);
	for (j = 0; j < n; j++) {
		size_t skip = 5 + strlen(o[j].id) + 1, from = first[j + 1], to = first[j + 2];

		buf_addstr(out, "run ");
		hex(out, o[j].key);
		if (o[j].old) {
			/* a run the build kept in place: the files it had */
			buf_addf(out, " %zu %s\n", o[j].old->nfiles, o[j].id);
			for (k = 0; k < o[j].old->nfiles; k++)
				buf_addf(out, "%s\n", o[j].old->files[k]);
			continue;
		}
		buf_addf(out, " %zu %s\n", to - from, o[j].id);
		for (i = from; i < to; i++)
			buf_addf(out, "%s\n", files[order[i]] + skip);
	}
	rc = 0;
out:
	free(who);
	free(first);
	free(order);
	free(site);
	free_names(files, nfiles);
	free(o);
	buf_release(&path);
	return rc;
}

#define FOLDERS_MAX MANIFEST_MAX

int
cache_folders_same(const char *root)
{
	struct buf data = BUF_INIT;
	unsigned char want[32], got[32];
	struct sha256 h;
	struct stat st;
	char *p, *end, *line;
	int fd = -1, same = 0;

	if (cache_read_file(root, CACHE_FOLDERS, FOLDERS_MAX, &data))
		goto out;
	p = data.ptr;
	end = data.ptr + data.len;
	if (!(line = next_line(&p, end)) || strncmp(line, "erg-folders 1 ", 14) ||
	    !valid_hex(line + 14) || unhex(line + 14, want) || line[14 + 64])
		goto out;
	if ((fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    fstat(fd, &st))
		goto out;
	sha256_begin(&h);
	sha256_add(&h, "folders\0", 8);
	folder_id(&h, "", &st);
	/* A link in place of a folder changes its parent, which is listed
	 * before it, so resolving the whole path is safe here. */
	while ((line = next_line(&p, end))) {
		if (!plain_rel(line) || fstatat(fd, line, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			goto out;
		folder_id(&h, line, &st);
	}
	sha256_end(&h, got);
	same = p == end && !memcmp(want, got, 32);
out:
	if (fd >= 0)
		close(fd);
	buf_release(&data);
	return same;
}

int
cache_files_exist(const char *root, const char *prefix, char *const *files, size_t n)
{
	struct buf p = BUF_INIT;
	struct below w;
	size_t i;
	int ok = !below_init(&w, root);

	for (i = 0; i < n && ok; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s%s", prefix, files[i]);
		ok = below_is_file(&w, p.ptr);
	}
	below_release(&w);
	buf_release(&p);
	return ok;
}

/* Copy the regular file in (no link) to a new file dst: in the kernel
 * where it can (a reflink on file systems that share extents), else
 * through a buffer. */
static int
copy_file(int in, const struct stat *st, const char *dst)
{
	char tmp[65536];
	ssize_t k, w;
	off_t left;
	int out, rc = 0;

	if ((out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666)) < 0)
		return -1;
#if defined(__linux__) && defined(SYS_copy_file_range)
	/* copy_file_range(2) through syscall(), as site.c does renameat2. */
	for (left = st->st_size; left > 0; left -= k) {
		k = (ssize_t)syscall(SYS_copy_file_range, in, NULL, out, NULL, (size_t)left, 0u);
		if (k <= 0)
			break;
	}
#else
	(void)left;
	(void)st;
#endif
	/* Not supported here, or the file changed size: copy what is left. */
	while (!rc && (k = read(in, tmp, sizeof(tmp))) != 0) {
		if (k < 0) {
			rc = -1;
			break;
		}
		for (w = 0; w < k && !rc;) {
			ssize_t d = write(out, tmp + w, (size_t)(k - w));

			if (d <= 0)
				rc = -1;
			else
				w += d;
		}
	}
	if (close(out))
		rc = -1;
	return rc;
}

/*
 * dst (ddfd/dbase) becomes the regular file rel of the old site, which
 * is dfd/base and was stat'ed there as *st without following a link: a
 * hard link where the file system allows one, else a copy.  linkat()
 * without AT_SYMLINK_FOLLOW links the name itself, never what a link
 * names; the name may have been replaced since it was checked, so the
 * new link counts only when it is the very inode checked (the type of an
 * inode never changes).  Copying every unchanged run's files was most of
 * a rebuild that changed one run (system time; no reflinks on ext4); a
 * link is three system calls on names relative to open folders, where
 * opening the file and walking both absolute paths took eight (issue 19:
 * 150,000 files carried at 20,000 runs).  Sharing the inode is safe
 * because nothing writes into a file of the tree being built: site_write()
 * replaces a name with a new inode (site.h).
 */
static int
carry_file(struct below *w, const char *rel, int dfd, const char *base,
	   const struct stat *st, int ddfd, const char *dbase, const char *dst)
{
	struct stat ln;
	int in, rc;

	if (!linkat(dfd, base, ddfd, dbase, 0)) {
		if (!fstatat(ddfd, dbase, &ln, AT_SYMLINK_NOFOLLOW) && ln.st_dev == st->st_dev &&
		    ln.st_ino == st->st_ino)
			return 0;
		/* Another file than the one checked: copy a checked one. */
		if (unlinkat(ddfd, dbase, 0))
			return -1;
	}
	/* EXDEV (another file system), EPERM (protected_hardlinks, a file
	 * system without links), EMLINK, ENOTSUP ...: a copy does, of the
	 * file opened and checked again (below_open(): regular, no link). */
	if ((in = below_open(w, rel)) < 0)
		return -1;
	if (fstat(in, &ln)) {
		close(in);
		return -1;
	}
	rc = copy_file(in, &ln, dst);
	close(in);
	return rc;
}

int
cache_copy_files(const char *from, const char *to, const char *prefix,
		 char *const *files, size_t n)
{
	struct buf rel = BUF_INIT, dst = BUF_INIT, made = BUF_INIT;
	struct below w;
	struct stat st;
	size_t i;
	int rc = below_init(&w, from), dfd, ddfd = -1;
	char *slash;

	for (i = 0; i < n && !rc; i++) {
		const char *base;

		buf_reset(&rel);
		buf_reset(&dst);
		buf_addf(&rel, "%s%s", prefix, files[i]);
		buf_addf(&dst, "%s/%s", to, rel.ptr);
		if ((dfd = below_dir(&w, rel.ptr, &base)) < 0 ||
		    fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode)) {
			rc = -1;
			break;
		}
		slash = strrchr(dst.ptr, '/');
		*slash = '\0';
		/* files come folder by folder: make and open each folder once */
		if (ddfd < 0 || strcmp(made.ptr, dst.ptr)) {
			if (ddfd >= 0)
				close(ddfd);
			if (path_mkdirs(dst.ptr) ||
			    (ddfd = open(dst.ptr, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
				ddfd = -1;
				rc = -1;
				break;
			}
			buf_reset(&made);
			buf_addstr(&made, dst.ptr);
		}
		*slash = '/';
		if (carry_file(&w, rel.ptr, dfd, base, &st, ddfd, slash + 1, dst.ptr))
			rc = -1;
	}
	if (ddfd >= 0)
		close(ddfd);
	below_release(&w);
	buf_release(&rel);
	buf_release(&dst);
	buf_release(&made);
	return rc;
}

/* ------------------------------------------------------------------ */
/* an update in place */

/* Does m list path (from the site's root), as a site file or a run's? */
static int
in_manifest(const struct cache_manifest *m, const char *path, struct buf *tmp)
{
	const char *s;
	const char *key = path;

	if (m->nsite && bsearch(&key, m->site, m->nsite, sizeof(*m->site), cmp_str))
		return 1;
	if (strncmp(path, "runs/", 5))
		return 0;
	for (s = path + 5; (s = strchr(s, '/')); s++) {
		const struct cache_run *r;

		buf_reset(tmp);
		buf_add(tmp, path + 5, (size_t)(s - path - 5));
		if ((r = cache_find(m, tmp->ptr))) {
			key = s + 1;
			return r->nfiles &&
			       bsearch(&key, r->files, r->nfiles, sizeof(*r->files), cmp_str) != NULL;
		}
	}
	return 0;
}

/*
 * Sets of paths, without a copy of either manifest's list: an update at
 * 100,000 runs holds both, ~750,000 names each.  A run in both lists its
 * files in the same order, so one merge finds the few that differ, and
 * each of those (and each site file old has that cur does not) is looked
 * up in the whole of cur: a name that moved from one owner to another
 * is a file of the new site all the same.
 */
void
cache_stale(const struct cache_manifest *old, const struct cache_manifest *cur,
	    char ***files, size_t *nfiles, char ***gone, size_t *ngone)
{
	struct buf path = BUF_INIT, tmp = BUF_INIT;
	size_t i, j, k, n = 0, alloc = 0, ng = 0;
	char **v = NULL;

	for (i = 0; i < old->nsite; i++)
		if (!in_manifest(cur, old->site[i], &tmp)) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n++] = xstrdup(old->site[i]);
		}
	*gone = xcalloc(old->nruns + 1, sizeof(**gone));
	for (i = 0; i < old->nruns; i++) {
		const struct cache_run *o = &old->runs[i], *c = cache_find(cur, o->id);

		if (!c)
			(*gone)[ng++] = xstrdup(o->id);
		for (j = k = 0; j < o->nfiles; j++) {
			int d = 1;

			while (c && k < c->nfiles && (d = strcmp(c->files[k], o->files[j])) < 0)
				k++;
			if (!d)
				continue;
			buf_reset(&path);
			buf_addf(&path, "runs/%s/%s", o->id, o->files[j]);
			if (!in_manifest(cur, path.ptr, &tmp)) {
				ALLOC_GROW(v, n + 1, alloc);
				v[n++] = buf_detach(&path, NULL);
			}
		}
	}
	*files = v;
	*nfiles = n;
	*ngone = ng;
	buf_release(&path);
	buf_release(&tmp);
}

/*
 * The order files of the stage go into the site: a run's pages before the
 * views that link to them, the index after the views, erg's own records
 * after the pages they describe and the manifest last of all (its absence
 * is what makes a build interrupted here start afresh).
 */
static int
merge_rank(const char *f)
{
	if (!strcmp(f, CACHE_MANIFEST))
		return 5;
	if (!strncmp(f, CACHE_DIR "/", sizeof(CACHE_DIR)))
		return 4;
	if (!strcmp(f, "index.html"))
		return 3;
	if (!strncmp(f, "runs/", 5) || !strcmp(f, ".erg-site"))
		return 0;
	return 1;
}

static int
cmp_merge(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int rx = merge_rank(x), ry = merge_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

/* Folders from deepest to shallowest: a folder is empty only after its
 * own folders went. */
static int
cmp_depth(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t dx = 0, dy = 0;
	const char *p;

	for (p = x; (p = strchr(p, '/')); p++)
		dx++;
	for (p = y; (p = strchr(p, '/')); p++)
		dy++;
	return dx != dy ? (dx > dy ? -1 : 1) : strcmp(x, y);
}

/* The name hold is set aside under while the pages move. */
static void
aside_name(struct buf *b, const char *base)
{
	buf_reset(b);
	buf_addf(b, "%s.old", base);
}

/* The stage and the site, open for a merge, and the stage's files in the
 * order they go in. */
struct merge {
	const char *stage, *out;
	struct below sw, ow;
	char **files;
	size_t n;
	struct buf where, rel;
};

static int
merge_open(struct merge *m, const char *stage, const char *out)
{
	size_t alloc = 0;
	int a, b;

	memset(m, 0, sizeof(*m));
	m->stage = stage;
	m->out = out;
	buf_init(&m->where, 0);
	buf_init(&m->rel, 0);
	a = below_init(&m->ow, out);
	b = below_init(&m->sw, stage);
	if (a || b)
		return error_errno("cannot open '%s'", a ? out : stage);
	if (walk_files(open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), &m->rel, 0,
		       &m->files, &m->n, &alloc, NULL, NULL, 1))
		return error_errno("cannot list '%s'", stage);
	if (m->n)
		qsort(m->files, m->n, sizeof(*m->files), cmp_merge);
	return 0;
}

/* Stage file f into the site: each folder of its path opened without
 * following a link and made where missing; rename() replaces a name with
 * the page atomically and never follows a link it replaces. */
static int
merge_move(struct merge *m, const char *f)
{
	const char *sb, *ob;
	int sdfd, odfd;

	buf_reset(&m->where);
	buf_addf(&m->where, "%s/%s", m->out, f);
	if ((sdfd = below_dir(&m->sw, f, &sb)) < 0)
		return error_errno("cannot open the folder of '%s/%s'", m->stage, f);
	if ((odfd = below_dir_at(&m->ow, f, &ob, 1)) < 0)
		return error_at(m->where.ptr, 0, "a folder on this path is not one erg made "
				"(a link or a file in its place)");
	if (renameat(sdfd, sb, odfd, ob))
		return error_at(m->where.ptr, 0, "cannot replace: %s", strerror(errno));
	return 0;
}

static void
merge_close(struct merge *m)
{
	below_release(&m->sw);
	below_release(&m->ow);
	free_names(m->files, m->n);
	buf_release(&m->where);
	buf_release(&m->rel);
}

int
cache_merge(const char *stage, const char *out, const char *hold, char *const *stale,
	    size_t nstale, int *touched)
{
	struct merge m;
	char **dirs = NULL;
	size_t ndirs = 0, adirs = 0, i;
	const char *ob;
	int odfd, rc, aside = 0;
	struct stat st;

	*touched = 0;
	rc = merge_open(&m, stage, out);
	/* Before anything is touched: every path's folders are folders or
	 * missing, so that nothing but the disk can stop the moves below. */
	for (i = 0; i < m.n && !rc; i++)
		if (below_dir(&m.ow, m.files[i], &ob) < 0 && errno != ENOENT)
			rc = error_at(out, 0, "a folder on the path of '%s' is not one erg made "
				      "(a link or a file in its place)", m.files[i]);
	if (!rc) {
		/* set aside, not removed: until a page moves, a failure puts
		 * it back and leaves the site as it was.  The build read it:
		 * without it OUT is no longer the site the build updates (a
		 * folder put in its place meanwhile). */
		if ((odfd = below_dir(&m.ow, hold, &ob)) < 0)
			rc = error_at(out, 0, "cannot open the folder of '%s': %s", hold,
				      strerror(errno));
		else if (aside_name(&m.rel, ob), !renameat(odfd, ob, odfd, m.rel.ptr))
			aside = 1;
		else if (errno == ENOENT)
			rc = error_at(out, 0, "has no '%s' any more: it changed during the build; "
				      "left as it is", hold);
		else
			rc = error_at(out, 0, "cannot set '%s' aside: %s", hold, strerror(errno));
	}
	for (i = 0; i < m.n && !rc; i++)
		if (strcmp(m.files[i], hold) && !(rc = merge_move(&m, m.files[i])))
			*touched = 1;
	for (i = 0; i < nstale && !rc; i++) {
		char *slash;

		buf_reset(&m.where);
		buf_addf(&m.where, "%s/%s", out, stale[i]);
		if ((odfd = below_dir(&m.ow, stale[i], &ob)) < 0 ||
		    fstatat(odfd, ob, &st, AT_SYMLINK_NOFOLLOW))
			continue;	/* gone already */
		if (S_ISDIR(st.st_mode)) {
			warn_at(m.where.ptr, 0, "a folder where erg's page was: left as it is");
			continue;
		}
		if (unlinkat(odfd, ob, 0) && errno != ENOENT) {
			rc = error_at(m.where.ptr, 0, "cannot remove: %s", strerror(errno));
			break;
		}
		*touched = 1;
		/* its folders, to remove those left empty */
		for (slash = stale[i] + strlen(stale[i]); slash > stale[i]; slash--)
			if (*slash == '/') {
				ALLOC_GROW(dirs, ndirs + 1, adirs);
				dirs[ndirs++] = xstrndup(stale[i], (size_t)(slash - stale[i]));
			}
	}
	if (rc && aside && !*touched && (odfd = below_dir(&m.ow, hold, &ob)) >= 0) {
		aside_name(&m.rel, ob);
		renameat(odfd, m.rel.ptr, odfd, ob);
	}
	if (ndirs)
		qsort(dirs, ndirs, sizeof(*dirs), cmp_depth);
	for (i = 0; i < ndirs && !rc; i++) {
		if ((i && !strcmp(dirs[i], dirs[i - 1])) ||
		    !strncmp(dirs[i], CACHE_DIR, sizeof(CACHE_DIR) - 1))
			continue;
		/* only an empty folder goes (ENOTEMPTY: someone's file in it) */
		if ((odfd = below_dir(&m.ow, dirs[i], &ob)) >= 0)
			unlinkat(odfd, ob, AT_REMOVEDIR);
	}
	merge_close(&m);
	free_names(dirs, ndirs);
	return rc;
}

int
cache_merge_end(const char *stage, const char *out, const char *hold)
{
	struct merge m;
	const char *ob;
	size_t i;
	int odfd, rc = merge_open(&m, stage, out);

	/* hold (the manifest) ranks last */
	for (i = 0; i < m.n && !rc; i++)
		rc = merge_move(&m, m.files[i]);
	if (!rc && (odfd = below_dir(&m.ow, hold, &ob)) >= 0) {
		aside_name(&m.rel, ob);
		unlinkat(odfd, m.rel.ptr, 0);
	}
	merge_close(&m);
	return rc;
}

/* ------------------------------------------------------------------ */
/* the views' dependency record */

#define DEPS_MAX ((size_t)256 << 20)

static int
cmp_unit(const void *a, const void *b)
{
	return strcmp(((const struct cache_unit *)a)->name, ((const struct cache_unit *)b)->name);
}

/* Is f one of unit name's files: below its folder, or the page itself? */
static int
unit_file(const char *name, const char *f)
{
	size_t n = strlen(name);

	if (!plain_rel(f))
		return 0;
	if (!strcmp(name, "*"))
		return 1;
	return n && name[n - 1] == '/' ? !strncmp(f, name, n) && f[n] : !strcmp(f, name);
}

int
cache_deps_load(const char *out, struct cache_deps *d)
{
	struct buf data = BUF_INIT;
	char *p, *end, *line;
	unsigned long long n;
	size_t i;
	int rc = -1, k;

	memset(d, 0, sizeof(*d));
	if (cache_read_file(out, CACHE_DEPS, DEPS_MAX, &data))
		goto out;
	p = data.ptr;
	end = data.ptr + data.len;
	if (!(line = next_line(&p, end)) || strcmp(line, "erg-deps 1"))
		goto out;
	while ((line = next_line(&p, end))) {
		struct cache_unit *u;
		long long c[3];

		if (strncmp(line, "unit ", 5))
			goto out;
		line += 5;
		ALLOC_GROW(d->v, d->n + 1, d->alloc);
		u = &d->v[d->n];
		memset(u, 0, sizeof(*u));
		if (line[0] == '-' && line[1] == ' ') {
			line += 2;
		} else if (valid_hex(line) && !unhex(line, u->key)) {
			u->keyed = 1;
			line += 65;
		} else {
			goto out;
		}
		if (sscanf(line, "%lld %lld %lld %llu %n", &c[0], &c[1], &c[2], &n, &k) != 4 ||
		    c[0] < 0 || c[1] < 0 || c[2] < 0 || n > data.len || !line[k])
			goto out;
		memcpy(u->counts, c, sizeof(c));
		u->name = xstrdup(line + k);
		d->n++;
		if (!(u->files = take_lines(&p, end, (size_t)n, 0)))
			goto out;
		u->nfiles = (size_t)n;
		for (i = 0; i < u->nfiles; i++)
			if (!unit_file(u->name, u->files[i]))
				goto out;
		/* runs and inputs: for readers; a build needs only the key */
		if (!(line = next_line(&p, end)) || strncmp(line, "runs", 4) ||
		    !(line = next_line(&p, end)) || strncmp(line, "inputs", 6))
			goto out;
	}
	if (p != end)
		goto out;
	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), cmp_unit);
	for (i = 1; i < d->n; i++)
		if (!strcmp(d->v[i - 1].name, d->v[i].name))
			goto out;
	rc = 0;
out:
	if (rc)
		cache_deps_free(d);
	buf_release(&data);
	return rc;
}

const struct cache_unit *
cache_deps_find(const struct cache_deps *d, const char *name)
{
	struct cache_unit k;

	if (!d->n)
		return NULL;
	k.name = (char *)name;
	return bsearch(&k, d->v, d->n, sizeof(*d->v), cmp_unit);
}

void
cache_deps_text(struct cache_deps *d, struct buf *out)
{
	size_t i, j;

	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), cmp_unit);
	buf_addstr(out, "erg-deps 1\n");
	for (i = 0; i < d->n; i++) {
		struct cache_unit *u = &d->v[i];

		if (u->nfiles)
			qsort(u->files, u->nfiles, sizeof(*u->files), cmp_str);
		buf_addstr(out, "unit ");
		if (u->keyed)
			hex(out, u->key);
		else
			buf_addch(out, '-');
		buf_addf(out, " %lld %lld %lld %zu %s\n", u->counts[0], u->counts[1], u->counts[2],
			 u->nfiles, u->name);
		for (j = 0; j < u->nfiles; j++)
			buf_addf(out, "%s\n", u->files[j]);
		buf_addstr(out, u->all ? "runs *" : "runs");
		for (j = 0; j < u->nruns; j++)
			buf_addf(out, " %zu", u->runs[j]);
		buf_addf(out, "\ninputs%s%s\n", u->inputs & DEPS_IN_TARGETS ? " targets.txt" : "",
			 u->inputs & DEPS_IN_DIFFS ? " diffs.txt" : "");
	}
}

void
cache_deps_free(struct cache_deps *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].name);
		free_names(d->v[i].files, d->v[i].files ? d->v[i].nfiles : 0);
		free(d->v[i].runs);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
