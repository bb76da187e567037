/*
 * targets.h - which target names are one target (issue 15).  Runs name
 * the same server "Bun" and "bun", or "node" and "Node.js"; the views
 * and erg diff treat such names as one target.
 *
 * A name's key: the name, mapped by the run's own "aliases" (run.json),
 * then by the archive's ARCHIVE/targets.txt, then folded to ASCII lower
 * case.  Two names are one target when their keys are equal.  Only ASCII
 * letters are folded: other characters compare as they are (no Unicode
 * case folding, which depends on tables and locales).
 *
 * targets.txt: one "ALIAS = CANONICAL" a line; names are trimmed and may
 * hold spaces; '#' at the start of a line or after a blank starts a
 * comment ("C#" stays a name); blank lines are fine.  Aliases and
 * canonical names compare ignoring ASCII case.  "bun = Bun" (a name that
 * folds to its own canonical) only fixes how the target is spelled.  An
 * error at its line: a line that is not "A = B", an empty name, an alias
 * given twice or naming two canonicals, a canonical that is itself an
 * alias (and so a cycle), a canonical spelled two ways.
 * run.json "aliases": { "ALIAS": "CANONICAL", ... }, the same rules, each
 * error at the member's line.
 */
#ifndef ERG_TARGETS_H
#define ERG_TARGETS_H

#include <jansson.h>
#include <stddef.h>

#define TARGETS_FILE "targets.txt"

struct buf;
struct jdoc;
struct jpos;

struct target_alias {
	char *key;		/* the alias folded */
	char *canonical;	/* as written */
	long line;
};

struct target_aliases {
	struct target_alias *v;	/* sorted by key; canonicals map to themselves */
	size_t n, alloc;
};

/* ARCHIVE/targets.txt into *out (empty when there is none).  0, or -1
 * after a located diagnostic for every bad line. */
int targets_read(const char *archive, struct target_aliases *out);
void targets_free(struct target_aliases *t);

/* run.json's "aliases" member of root, checked; *out: a copy to publish
 * in results.json (NULL when absent or null).  0 or -1 after diagnostics. */
int targets_run_aliases(const struct jdoc *doc, const struct jpos *root, json_t **out);

/*
 * The spelling name resolves to: through the run's aliases (an object
 * as results.json "aliases" holds it, or NULL), then the archive table
 * (or NULL); name itself when neither maps it.  The pointer is into name,
 * run_aliases or the table.
 */
const char *target_canonical(const struct target_aliases *archive, const json_t *run_aliases,
			     const char *name);
/* The key of name (see above) into b (reset first). */
void target_key(const struct target_aliases *archive, const json_t *run_aliases,
		const char *name, struct buf *b);
/*
 * Two targets of one run (results "targets") with one key: an error at
 * where (the run directory), since a page could show only one of them.
 * 0 or -1.
 */
int targets_check_run(const struct target_aliases *archive, const json_t *res, const char *where);

#endif
