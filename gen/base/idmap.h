/*
 * idmap.h - names to indexes: the lookups of ingest, analysis and checks
 * (a measurement by its id, a target by its name, the idle window that
 * precedes a measurement), so that the work on one session stays linear
 * in the number of measurements.
 *
 * Open addressing with linear probing, at most half full.  Keys are
 * borrowed: the caller keeps every key string alive and unchanged while
 * it is in the map (model strings are).  { 0 } (IDMAP_INIT) is empty.
 */
#ifndef ERG_IDMAP_H
#define ERG_IDMAP_H

#include <stddef.h>

struct idmap {
	const char **key;
	size_t *val;
	size_t n, cap;
};

#define IDMAP_INIT { NULL, NULL, 0, 0 }

/* 1 and *val when key is in the map, else 0. */
int idmap_get(const struct idmap *m, const char *key, size_t *val);
/* Insert key, or give it the new value. */
void idmap_put(struct idmap *m, const char *key, size_t val);
/* The value of key; when absent, key is added with the value m->n (the
 * number of keys before it), so interning names in order numbers them
 * 0, 1, 2 ... */
size_t idmap_intern(struct idmap *m, const char *key);
void idmap_free(struct idmap *m);

#endif
