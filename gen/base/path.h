/*
 * path.h - joining archive paths safely.  Every path named by archive data
 * (loadFile, notes) goes through path_inside() so that nothing outside the
 * run directory can be read, whether by "..", an absolute path or a
 * symbolic link that leaves the directory.
 */
#ifndef ERG_PATH_H
#define ERG_PATH_H

#include "base/buf.h"

/*
 * Resolve rel (relative, from untrusted data) inside dir.  On success
 * writes "dir/rel" into out and returns 0.  Returns -1 with *why set to a
 * static explanation when rel is absolute, empty, contains "..", a NUL or
 * control character, or resolves (through links) outside dir; returns -2
 * when the file does not exist.
 */
int path_inside(const char *dir, const char *rel, struct buf *out,
		const char **why);
int path_is_dir(const char *p);
int path_is_file(const char *p);
int path_exists(const char *p);
/* mkdir -p; 0 or -1 after a diagnostic */
int path_mkdirs(const char *p);
/* rm -rf; 0 or -1 after a diagnostic */
int path_remove_tree(const char *p);

#endif
