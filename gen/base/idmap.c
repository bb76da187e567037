/* idmap.c - see idmap.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/idmap.h"
#include "base/util.h"

static size_t
hash(const char *s)
{
	uint64_t h = str_hash(s, strlen(s));

	return (size_t)(h ^ (h >> 32));
}

/* The slot of key, or the empty slot where it would go. */
static size_t
slot(const struct idmap *m, const char *key)
{
	size_t i, mask = m->cap - 1;

	for (i = hash(key) & mask; m->key[i]; i = (i + 1) & mask)
		if (!strcmp(m->key[i], key))
			break;
	return i;
}

int
idmap_get(const struct idmap *m, const char *key, size_t *val)
{
	size_t i;

	if (!m->n)
		return 0;
	i = slot(m, key);
	if (!m->key[i])
		return 0;
	*val = m->val[i];
	return 1;
}

static void
grow(struct idmap *m)
{
	struct idmap g = IDMAP_INIT;
	size_t i;

	g.cap = m->cap ? 2 * m->cap : 64;
	g.key = xcalloc(g.cap, sizeof(*g.key));
	g.val = xmalloc(g.cap * sizeof(*g.val));
	for (i = 0; i < m->cap; i++)
		if (m->key[i]) {
			size_t j = slot(&g, m->key[i]);

			g.key[j] = m->key[i];
			g.val[j] = m->val[i];
			g.n++;
		}
	free(m->key);
	free(m->val);
	*m = g;
}

void
idmap_put(struct idmap *m, const char *key, size_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	i = slot(m, key);
	if (!m->key[i]) {
		m->key[i] = key;
		m->n++;
	}
	m->val[i] = val;
}

size_t
idmap_intern(struct idmap *m, const char *key)
{
	size_t v;

	if (idmap_get(m, key, &v))
		return v;
	v = m->n;
	idmap_put(m, key, v);
	return v;
}

void
idmap_free(struct idmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}
