/*
 * archive.c - see archive.h.
 *
 * A run must never vanish from the site without a word: every directory
 * that looks like a run (it holds a file named meta.json, timeline.jsonl or
 * run.json, whatever its type) is either taken as a run, and then read,
 * so that whatever is wrong with it is reported where it is read, or
 * refused here with a message naming it.  Nothing below a run is a run.
 * Symbolic links to directories are not followed (they could lead out of
 * the archive, or list a run twice): a link to a run is an error, a link
 * to any other directory a warning.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/archive.h"
#include "base/buf.h"
#include "base/dirlist.h"
#include "base/path.h"
#include "base/sha256.h"
#include "base/util.h"
#include "base/utf8.h"

size_t archive_max_runs = 1000000;

#define MAX_DEPTH 16
#define KEY_DEPTH 32		/* folders below a run's own */

/* The files whose names make a directory a run. */
enum { MARK_META = 1, MARK_TIMELINE = 2, MARK_RUNJSON = 4 };

static const struct {
	const char *name;
	int bit;
} marks[] = {
	{ "meta.json", MARK_META },
	{ "timeline.jsonl", MARK_TIMELINE },
	{ "run.json", MARK_RUNJSON },
};

struct scan {
	const char *root;
	struct run_list *out;
	atomic_size_t *count;	/* runs found by every thread */
	atomic_int *full;	/* more runs than archive_max_runs: stop */
	int jobs;		/* threads for the root's folders */
};

/* One directory's entries that matter: run markers and subdirectories. */
struct listing {
	int mark;		/* MARK_* present, of any type */
	int link;		/* MARK_* that are symbolic links */
	char **dirs;		/* real subdirectories */
	size_t ndirs, adirs;
	char **links;		/* symbolic links to directories */
	size_t nlinks, alinks;
};

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

static void
listing_free(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->ndirs; i++)
		free(l->dirs[i]);
	for (i = 0; i < l->nlinks; i++)
		free(l->links[i]);
	free(l->dirs);
	free(l->links);
	memset(l, 0, sizeof(*l));
}

/*
 * The folder dir, open as fd: all its names into names (a run's walk
 * takes them on, so that a run's folder is listed once), and what
 * matters to the scan into l.  Names starting with '.' are skipped (erg
 * record's partial runs among them).  0, or -1 after a diagnostic.
 */
static int
list(int fd, const char *dir, struct names *names, struct listing *l)
{
	struct stat st;
	size_t i, k;

	memset(l, 0, sizeof(*l));
	if (names_list_fd(fd, names))
		return error_errno("cannot open directory '%s'", dir);
	for (k = 0; k < names->n; k++) {
		const char *name = names->v[k];
		int type = names_type(names, k);

		if (name[0] == '.') {
			/* erg record's run in the making: never read, but said */
			if (!strncmp(name, ".erg-record-", 12) &&
			    (type == DT_DIR || type == DT_UNKNOWN))
				warn_at(dir, 0, "'%s' is an unfinished 'erg record' run, not read "
					"(continue it with 'erg record PLAN --resume')", name);
			continue;
		}
		for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			if (!strcmp(name, marks[i].name))
				break;
		if (i == sizeof(marks) / sizeof(marks[0]) && type != DT_DIR &&
		    type != DT_LNK && type != DT_UNKNOWN)
			continue;	/* a plain file: nothing to know */
		/* The type the listing gives is the entry's own (a link is
		 * DT_LNK): a stat only where it gives none, or to see where a
		 * link leads (a no-op rebuild is the scan and the run keys). */
		if (type != DT_UNKNOWN && type != DT_LNK)
			st.st_mode = type == DT_DIR ? S_IFDIR : S_IFREG;
		else if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW))
			continue;	/* gone since the listing */
		if (i < sizeof(marks) / sizeof(marks[0])) {
			l->mark |= marks[i].bit;
			if (S_ISLNK(st.st_mode))
				l->link |= marks[i].bit;
		}
		if (S_ISDIR(st.st_mode)) {
			ALLOC_GROW(l->dirs, l->ndirs + 1, l->adirs);
			l->dirs[l->ndirs++] = xstrdup(name);
		} else if (S_ISLNK(st.st_mode) && !fstatat(fd, name, &st, 0) &&
			   S_ISDIR(st.st_mode)) {
			ALLOC_GROW(l->links, l->nlinks + 1, l->alinks);
			l->links[l->nlinks++] = xstrdup(name);
		}
	}
	/* (names are sorted: so are dirs and links) */
	return 0;
}

/* Does dir (reached through a link) hold a run marker of any type? */
static int
looks_like_run(const char *dir)
{
	struct buf p = BUF_INIT;
	struct stat st;
	size_t i;
	int yes = 0;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]) && !yes; i++) {
		buf_reset(&p);
		buf_addf(&p, "%s/%s", dir, marks[i].name);
		yes = !lstat(p.ptr, &st);
	}
	buf_release(&p);
	return yes;
}

/*
 * dir is a run by its markers: is it one erg can read?  The markers must
 * make one kind of run, whole, and a marker that is a symbolic link must
 * stay inside the run (as loadFile and notes must, path.h).
 */
static int
check_run(const char *dir, const struct listing *l)
{
	struct buf full = BUF_INIT;
	const char *why;
	size_t i;
	int rc = 0;

	if ((l->mark & MARK_RUNJSON) && (l->mark & (MARK_META | MARK_TIMELINE)))
		return error_at(dir, 0, "holds both 'run.json' (a summary run) and '%s' (an energy session); keep one run per directory",
				l->mark & MARK_META ? "meta.json" : "timeline.jsonl");
	if (!(l->mark & MARK_RUNJSON) && (l->mark & (MARK_META | MARK_TIMELINE)) !=
	    (MARK_META | MARK_TIMELINE))
		return error_at(dir, 0, "holds '%s' but no '%s': an energy session needs both",
				l->mark & MARK_META ? "meta.json" : "timeline.jsonl",
				l->mark & MARK_META ? "timeline.jsonl" : "meta.json");
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]) && !rc; i++) {
		if (!(l->link & marks[i].bit))
			continue;
		switch (path_inside(dir, marks[i].name, &full, &why)) {
		case 0:
			break;
		case -2:
			rc = error_at(full.ptr, 0, "symbolic link to a file that does not exist");
			break;
		default:
			buf_reset(&full);
			buf_addf(&full, "%s/%s", dir, marks[i].name);
			rc = error_at(full.ptr, 0, "%s", why);
		}
	}
	buf_release(&full);
	return rc;
}

void
archive_key_stat(struct sha256 *c, const char *rel, const struct stat *st)
{
	/* fixed-width fields, not text: formatting them was a tenth of a
	 * no-op rebuild, which is this for every entry of the archive */
	uint64_t rec[8] = {
		(uint64_t)st->st_mode, (uint64_t)st->st_size, (uint64_t)st->st_ino,
		(uint64_t)st->st_dev, (uint64_t)st->st_mtim.tv_sec, (uint64_t)st->st_mtim.tv_nsec,
		(uint64_t)st->st_ctim.tv_sec, (uint64_t)st->st_ctim.tv_nsec,
	};

	sha256_add(c, rel, strlen(rel) + 1);
	sha256_add(c, rec, sizeof(rec));
}

/* A run's walk: its key, and the runs inside it. */
struct walk {
	struct run_ref *r;
	struct sha256 c;
	struct buf rel;		/* the folder, relative to the run */
	struct buf where;	/* r->dir/rel, for a message */
	int unkeyed;
	int rc;			/* -1 after an error */
	struct names lv[KEY_DEPTH + 1];	/* each level's names, reused */
};

static const char *
walk_where(struct walk *w)
{
	buf_reset(&w->where);
	buf_addstr(&w->where, w->r->dir);
	if (w->rel.len)
		buf_addf(&w->where, "/%s", w->rel.ptr);
	return w->where.ptr;
}

/*
 * Every entry below the folder fd (taken; w->rel names it), each stat'ed
 * by its name in its open folder (the lookups of whole paths were a fifth
 * of a no-op rebuild).  What the scan said of folders below a run it says
 * here, where it lists them: a run inside the run, an unreadable folder,
 * an unfinished 'erg record' run; folders whose names start with '.' are
 * keyed, but as in the scan nothing in them is a run.
 */
static void
walk_folder(struct walk *w, int fd, int depth, int hidden, int listed)
{
	struct names *l;
	size_t i, j, rlen = w->rel.len;
	struct stat st;

	if (depth > KEY_DEPTH) {
		w->unkeyed = 1;
		if (fd >= 0)
			close(fd);
		return;
	}
	l = &w->lv[depth];
	/* (errno: the open's, when fd is -1) */
	if (!listed && names_list_fd(fd, l)) {
		int err = errno;

		w->unkeyed = 1;
		if (fd >= 0)
			close(fd);
		if (depth && !hidden) {
			errno = err;
			w->rc = error_errno("cannot open directory '%s'", walk_where(w));
		}
		return;
	}
	/* as the scan said them: a folder's unfinished records first, then
	 * whether it is a run, then what is below it */
	for (i = 0; depth && !hidden && i < l->n; i++)
		if (!strncmp(l->v[i], ".erg-record-", 12) &&
		    !fstatat(fd, l->v[i], &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode))
			warn_at(walk_where(w), 0, "'%s' is an unfinished 'erg record' run, not read "
				"(continue it with 'erg record PLAN --resume')", l->v[i]);
	if (depth && !hidden)
		for (j = 0; j < sizeof(marks) / sizeof(marks[0]); j++)
			if (bsearch(&marks[j].name, l->v, l->n, sizeof(*l->v), cmp_str)) {
				w->rc = error_at(walk_where(w), 0, "a run inside the run '%s'; a run directory cannot hold another run",
						 w->r->id);
				break;
			}
	for (i = 0; i < l->n; i++) {
		const char *name = l->v[i];

		if (w->rel.len)
			buf_addch(&w->rel, '/');
		buf_addstr(&w->rel, name);
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			w->unkeyed = 1;
			/* gone since the listing is a race; anything else (a
			 * folder that can be listed but not searched) hides
			 * what is below it */
			if (errno != ENOENT && !hidden)
				w->rc = error_errno("cannot stat '%s'", walk_where(w));
		} else {
			archive_key_stat(&w->c, w->rel.ptr, &st);
			if (S_ISREG(st.st_mode))
				w->r->bytes += (uint64_t)st.st_size;
			else if (S_ISDIR(st.st_mode))
				walk_folder(w, openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
					    depth + 1, hidden || name[0] == '.', 0);
		}
		buf_setlen(&w->rel, rlen);
	}
	close(fd);
}

/* Walk the run r, its folder open as fd (taken) and listed by the scan
 * into top (taken too: its memory is the walk's first level's): its key
 * into r, and every run inside it an error.  0, or -1 after
 * diagnostics. */
static int
walk_run(struct run_ref *r, int fd, struct names *top)
{
	struct walk *w = xcalloc(1, sizeof(*w));
	int i, rc;

	buf_init(&w->rel, 0);
	buf_init(&w->where, 0);
	for (i = 0; i <= KEY_DEPTH; i++)
		w->lv[i] = (struct names)NAMES_INIT;
	w->r = r;
	r->bytes = 0;
	sha256_begin(&w->c);
	sha256_add(&w->c, "run\0", 4);
	sha256_add(&w->c, r->id, strlen(r->id) + 1);
	w->lv[0] = *top;
	*top = (struct names)NAMES_INIT;
	walk_folder(w, fd, 0, 0, 1);
	sha256_end(&w->c, r->key);
	r->keyed = !w->unkeyed;
	rc = w->rc;
	for (i = 0; i <= KEY_DEPTH; i++)
		names_release(&w->lv[i]);
	buf_release(&w->rel);
	buf_release(&w->where);
	free(w);
	return rc;
}

static int scan_subtrees(struct scan *sc, const struct listing *l);

/*
 * Scan rel (relative to the root) and below, down to the runs: below a
 * run its walk goes on (walk_run).  0, or -1 after diagnostics; the scan
 * goes on after an error so that every problem is reported, unless the
 * archive has too many runs.
 */
static int
scan(struct scan *sc, const char *rel, int depth)
{
	struct buf dir = BUF_INIT, sub = BUF_INIT;
	struct names names = NAMES_INIT;
	struct listing l;
	size_t i;
	int fd, rc = 0;

	if (*rel)
		buf_addf(&dir, "%s/%s", sc->root, rel);
	else
		buf_addstr(&dir, sc->root);
	/* below the root only real folders are scanned: one replaced by a
	 * link since its parent's listing is not followed */
	fd = open(dir.ptr, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (*rel ? O_NOFOLLOW : 0));
	if (list(fd, dir.ptr, &names, &l)) {
		if (fd >= 0)
			close(fd);
		names_release(&names);
		buf_release(&dir);
		return -1;
	}
	if (l.mark && !*rel) {
		rc = error_at(dir.ptr, 0, "the archive is itself a run; --archive names the directory that holds the runs");
	} else if (l.mark) {
		/* a run refused is walked too: what is inside it is still said */
		struct run_ref refused = { 0 }, *r = &refused;

		if (!printable_name(rel)) {
			rc = error_at(dir.ptr, 0, "run directory name is not printable UTF-8 (control characters, backslashes or invalid UTF-8)");
		} else if (check_run(dir.ptr, &l)) {
			rc = -1;
		} else if (atomic_fetch_add(sc->count, 1) >= archive_max_runs) {
			/* said once, by whichever thread got there */
			rc = atomic_exchange(sc->full, 1) ? -1 :
			     error_at(sc->root, 0, "more than %zu runs in the archive (raise with --max-runs)",
				      archive_max_runs);
			goto out;
		} else {
			ALLOC_GROW(sc->out->v, sc->out->n + 1, sc->out->alloc);
			r = &sc->out->v[sc->out->n++];
			memset(r, 0, sizeof(*r));
			r->id = xstrdup(rel);
			r->dir = xstrdup(dir.ptr);
			r->kind = l.mark & MARK_RUNJSON ? RUN_SUMMARY : RUN_ENERGY_SESSION;
		}
		if (r == &refused) {
			refused.id = (char *)rel;	/* read only */
			refused.dir = dir.ptr;
		}
		if (walk_run(r, fd, &names))
			rc = -1;
		fd = -1;
		goto out;
	}
	close(fd);
	fd = -1;
	names_release(&names);
	for (i = 0; i < l.nlinks; i++) {
		buf_reset(&sub);
		buf_addf(&sub, "%s/%s", dir.ptr, l.links[i]);
		if (looks_like_run(sub.ptr))
			rc = error_at(sub.ptr, 0, "symbolic link to a run directory; erg does not follow links in the archive (move the run here, or remove the link)");
		else
			warn_at(sub.ptr, 0, "symbolic link to a directory, not followed (runs under it are not read)");
	}
	if (l.ndirs && depth >= MAX_DEPTH) {
		rc = error_at(dir.ptr, 0, "directories nested more than %d levels below the archive; runs there would not be read",
			      MAX_DEPTH);
		goto out;
	}
	if (!depth) {
		/* the root: its folders are the threads' */
		if (scan_subtrees(sc, &l))
			rc = -1;
		goto out;
	}
	for (i = 0; i < l.ndirs && !atomic_load(sc->full); i++) {
		buf_reset(&sub);
		if (*rel)
			buf_addf(&sub, "%s/%s", rel, l.dirs[i]);
		else
			buf_addstr(&sub, l.dirs[i]);
		if (scan(sc, sub.ptr, depth + 1))
			rc = -1;
	}
out:
	if (fd >= 0)
		close(fd);
	names_release(&names);
	listing_free(&l);
	buf_release(&dir);
	buf_release(&sub);
	return rc;
}

/*
 * The root's folders, each a task on up to jobs threads (a no-op rebuild
 * is this scan and the run keys: at 20,000 runs the scan alone, on one
 * thread, was half a second).  Each task has its own list of runs and
 * its own diagnostics, passed on in the root's (sorted) order, so the
 * runs and every message come out as one thread would give them.
 */
struct subtree {
	struct scan sc;
	const char *name;
	struct run_list runs;
	struct buf diag;
	int rc;
};

struct subtrees {
	struct subtree *t;
	size_t n;
	atomic_size_t next;
};

static void *
subtree_worker(void *arg)
{
	struct subtrees *w = arg;
	struct buf *was = diag_captured();
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n) {
		struct subtree *t = &w->t[i];

		if (atomic_load(t->sc.full))
			continue;
		diag_capture(&t->diag);
		t->rc = scan(&t->sc, t->name, 1);
		diag_capture(was);
	}
	return NULL;
}

static int
scan_subtrees(struct scan *sc, const struct listing *l)
{
	struct subtrees w;
	pthread_t th[64];
	struct buf *sink = diag_captured();
	size_t i, k, started = 0, jobs = sc->jobs < 1 ? 1 : sc->jobs > 64 ? 64 : (size_t)sc->jobs;
	int rc = 0;

	w.n = l->ndirs;
	w.t = xcalloc(w.n + 1, sizeof(*w.t));
	atomic_init(&w.next, 0);
	for (i = 0; i < w.n; i++) {
		w.t[i].sc = *sc;
		w.t[i].sc.out = &w.t[i].runs;
		w.t[i].name = l->dirs[i];
		buf_init(&w.t[i].diag, 0);
	}
	for (k = 1; k < jobs && k < w.n; k++)
		if (!pthread_create(&th[started], NULL, subtree_worker, &w))
			started++;
	subtree_worker(&w);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	for (i = 0; i < w.n; i++) {
		struct subtree *t = &w.t[i];

		if (sink)
			buf_add(sink, t->diag.ptr, t->diag.len);
		else
			fputs(t->diag.ptr, stderr);
		buf_release(&t->diag);
		if (t->rc)
			rc = -1;
		for (k = 0; k < t->runs.n; k++) {
			ALLOC_GROW(sc->out->v, sc->out->n + 1, sc->out->alloc);
			sc->out->v[sc->out->n++] = t->runs.v[k];
		}
		free(t->runs.v);
	}
	free(w.t);
	return rc;
}

int
archive_scan(const char *root, int jobs, struct run_list *out)
{
	atomic_size_t count;
	atomic_int full;
	struct scan sc = { root, out, &count, &full, jobs };

	atomic_init(&count, 0);
	atomic_init(&full, 0);
	memset(out, 0, sizeof(*out));
	if (!path_is_dir(root))
		return error("archive '%s' is not a directory", root);
	if (scan(&sc, "", 0)) {
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
