/*
 * cache.h - what an incremental build needs to know about the site it
 * replaces: OUT/.erg-cache/manifest, written into every site erg builds.
 *
 * A run is keyed by a SHA-256 over its id and, for every file and
 * directory under its run directory (recursively, symbolic links not
 * followed), the relative path, type, mode, size, inode, device, mtime and
 * ctime in nanoseconds.  Any write, rename, touch, chmod, added or removed
 * file changes the key; ctime cannot be set back by a user, so restoring
 * an mtime does not hide a change.  The whole build is keyed by erg's
 * version, the erg executable's bytes (not its times, which a link to
 * it changes), the contents of every template file, SOURCE_DATE_EPOCH
 * and --no-digest; a different global key makes every run stale.  The size limits
 * (--max-file, --max-inflated, --max-rows) are not in it: they decide only
 * whether a run is refused, never what a run that passes gives, so a run
 * built under limits the current ones cover (none lower) is reused, and
 * raising a limit (or --max-runs, which no key holds) keeps the cache;
 * lowering one rebuilds every run, so the lower limit is enforced.  The files of the archive
 * outside the runs' directories (diffs.txt, read by the cross-run views)
 * have a key of their own, which decides only whether the whole build
 * can be skipped: what the views take from them is in the keys of the
 * dependency record below.
 *
 * The manifest holds only hashes and the site's own file names (no
 * archive paths), one record a line:
 *     erg-cache 3
 *     global <hex>
 *     archive <hex>
 *     limits <max-inflated> <max-file> <max-rows>   the build's
 *     site <n>                 then n lines: files outside runs' folders
 *     run <hex> <n> <id>       then n lines: files under runs/<id>/
 * It is a pure function of the archive's file identities, the templates
 * and the binary, so two builds of the same archive state write the same
 * bytes.  The manifest is swapped in with the site, or moved in last by an
 * update in place (which sets the old one aside first), so a manifest
 * always describes the site beside it.  Deleting OUT/.erg-cache forces a
 * full build.
 */
#ifndef ERG_CACHE_H
#define ERG_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define CACHE_DIR ".erg-cache"
#define CACHE_MANIFEST ".erg-cache/manifest"

struct cache_run {
	char *id;		/* this and files[]: in the manifest's text */
	unsigned char key[32];
	char **files;		/* relative to runs/<id>/, sorted */
	size_t nfiles;
};

struct cache_manifest {
	unsigned char global[32];
	unsigned char archive[32];
	unsigned long long limits[3];	/* --max-inflated, --max-file, --max-rows */
	char **site;		/* files outside every run's folder, sorted */
	size_t nsite;
	struct cache_run *runs;	/* sorted by id (strcmp) */
	size_t nruns, aruns;
	char *text;		/* the manifest, which the names point into */
};

/* Key of everything else every page depends on. */
void cache_global_key(const char *tmpl_dir, const char *version,
		      unsigned char key[32]);
/* Key of the archive's files outside the runs' directories (diffs.txt,
 * targets.txt): it only decides whether a build can be skipped; what the
 * views take from them is in the keys of the dependency record. */
void cache_archive_key(const char *archive, char *const *run_ids, size_t nruns,
		       unsigned char key[32]);

/* Read OUT's manifest; -1 (silently) when there is none or it is invalid. */
int cache_load(const char *out, struct cache_manifest *m);
/* Do the current limits cover the ones m's site was built under (none
 * lower)?  Else no run of it may be reused. */
int cache_limits_cover(const struct cache_manifest *m);
/* Were they the same?  Else the manifest is written again (no run read). */
int cache_limits_equal(const struct cache_manifest *m);
const struct cache_run *cache_find(const struct cache_manifest *m, const char *id);
void cache_free(struct cache_manifest *m);

/* The manifest in text (taken: text is left empty) parsed into m; 0 or
 * -1 (silently), as cache_load(). */
int cache_parse(struct buf *text, struct cache_manifest *m);

/*
 * Describe the finished temporary tree root: every regular file is listed
 * under the run whose runs/<id>/ folder holds it, the rest as site files.
 * ids/keys: the runs of the build, in any order.  Appends the manifest
 * text to out, and the folder record (below) to folders, when not NULL.
 * An update in place (below) writes only what changed into root: kept[i]
 * marks a run kept in place, whose files are the ones old lists, and
 * keep[] names the other files kept (relative to the site's root).
 */
int cache_describe(const char *root, const unsigned char global[32],
		   const unsigned char archive[32], char *const *ids,
		   const unsigned char (*keys)[32], size_t n,
		   const struct cache_manifest *old, const unsigned char *kept,
		   char *const *keep, size_t nkeep, struct buf *out, struct buf *folders);

/*
 * An update in place (issue 19): a rebuild writes only the pages that
 * changed into its temporary tree, the stage, and then moves them into
 * the site.  cache_stale(): the files old lists that cur does not (paths
 * from the site's root) and the ids of old's runs that cur has not, all
 * allocated.  cache_merge(): first sets out/hold (the manifest) aside as
 * hold.old (a build interrupted from here on finds no manifest and starts
 * afresh; a site without one is refused: it is not the site the build
 * read), then renames every file of the stage but hold into out, each
 * folder of its path opened without following a link and made where
 * missing (a run's pages first, index.html after the views, erg's records
 * last), then removes the stale files (never a folder) and the folders
 * they leave empty.  Every path is checked before anything is touched.
 * 0, or -1 after a located error; *touched: whether a page of out was
 * replaced or removed by then (else out is as it was but for hold).
 * cache_merge_end(): the rest of the stage (hold last), and hold.old
 * removed.
 */
void cache_stale(const struct cache_manifest *old, const struct cache_manifest *cur,
		 char ***files, size_t *nfiles, char ***gone, size_t *ngone);
int cache_merge(const char *stage, const char *out, const char *hold, char *const *stale,
		size_t nstale, int *touched);
int cache_merge_end(const char *stage, const char *out, const char *hold);
/* The folder record of the site at root, appended to folders; 0 or -1. */
int cache_folders_text(const char *root, struct buf *folders);

/*
 * The folder record, OUT/.erg-cache/folders: how a no-op rebuild knows
 * that the site is still the one erg wrote without a stat of each of its
 * files.  Every folder of the site but .erg-cache, one a line below
 *     erg-folders 1 <hex>
 * where hex is a SHA-256 over the root's and each listed folder's type,
 * inode, device, mtime and (not the root's, which the swap changes)
 * ctime.  A name added to a folder, removed or replaced (a page deleted,
 * a link or a FIFO put in its place, a file renamed over it) changes its
 * folder's times, and setting the mtime back changes the ctime.  A file
 * written in place is not seen, as it was not before: its folder does not
 * change.  The record is not a pure function of the archive (inodes,
 * times), so it is kept out of the manifest; the tests that compare two
 * sites leave it out.
 */
#define CACHE_FOLDERS ".erg-cache/folders"
/* Does the site at root match its folder record?  0 (silently) when not,
 * or when the record is missing or does not parse. */
int cache_folders_same(const char *root);

/*
 * The site being replaced is read as untrusted (a link or a FIFO may have
 * been planted in it): every function below that reads it opens each path
 * component without following symbolic links, reads only regular files,
 * and treats a name with an empty, "." or ".." component as missing, as
 * cache_load() refuses a manifest that holds one.
 */

/* Do all of these files exist under root (prefix/ + each name), as
 * regular files reached through no symbolic link? */
int cache_files_exist(const char *root, const char *prefix, char *const *files,
		      size_t n);
/*
 * Carry from/prefix/f to to/prefix/f for each file; parents are created.
 * A hard link to the very inode that was checked to be a regular file
 * (linkat() never follows a link; the new name is compared by device and
 * inode), else, where the file system refuses (another device,
 * protected_hardlinks, no links), a copy (copy_file_range: a reflink
 * where the file system shares extents).  The old site stays intact
 * because nothing in the new tree is written in place: site_write()
 * gives a name a new inode.  0, or -1 (silently: the caller then renders
 * afresh) when a source is missing or cannot be read.
 */
int cache_copy_files(const char *from, const char *to, const char *prefix,
		     char *const *files, size_t n);
/* root/rel appended to b (at most max bytes, no diagnostic): 0, or -1. */
int cache_read_file(const char *root, const char *rel, size_t max, struct buf *b);

/*
 * The views' dependency record, OUT/.erg-cache/deps: per unit of cross-run
 * pages (render/page_views.h, views_deps: a machine's pages, a target's,
 * a compare page, a diff page), the key over everything its pages show,
 * the files it wrote, the runs it lists and the archive's files outside
 * the runs it reads; a unit whose key is unchanged has its files copied
 * from the previous site instead of being rendered.  Runs are numbers:
 * their places in the manifest's run list (sorted by id), so the record
 * grows with the number of times runs are listed, not runs x pages.
 *     erg-deps 1
 *     unit <hex or -> <c0> <c1> <c2> <nfiles> <name>   then nfiles lines
 *     runs <i> <j> ...         ("runs *": every run)
 *     inputs [targets.txt] [diffs.txt]
 * c0-c2: a diff's counts (untested, rows, significant), else 0.  The
 * unit "*" holds the pages rendered on every build (index.html, the
 * lists, the search).  A unit's files start with its name (a folder
 * "machines/x/" or the page itself); cache_deps_load() refuses anything
 * else, as it refuses a record that does not parse (silently: no unit
 * is then carried over).
 */
#define CACHE_DEPS ".erg-cache/deps"
#define DEPS_IN_TARGETS 1u
#define DEPS_IN_DIFFS 2u

struct cache_unit {
	char *name;
	unsigned char key[32];
	int keyed, all;		/* all: depends on every run */
	long long counts[3];
	char **files;
	size_t nfiles, afiles;
	size_t *runs, nruns;	/* places in the manifest's run list, sorted */
	unsigned inputs;	/* DEPS_IN_* */
	int carried;		/* this build copied its files (not recorded) */
};

struct cache_deps {
	struct cache_unit *v;	/* sorted by name once loaded or written */
	size_t n, alloc;
};

int cache_deps_load(const char *out, struct cache_deps *d);
const struct cache_unit *cache_deps_find(const struct cache_deps *d, const char *name);
/* Sort d by name and append the record's text to out. */
void cache_deps_text(struct cache_deps *d, struct buf *out);
void cache_deps_free(struct cache_deps *d);

#endif
