/* pairs.c - the archive's diffs.txt (see pairs.h). */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/path.h"
#include "base/util.h"
#include "ingest/input.h"
#include "ingest/pairs.h"

static int
cmp_id(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

int
pairs_read(const char *archive, const char *const *ids, size_t nids, struct pair_list *out)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	const char **sorted = NULL;
	char *p, *eol;
	long line = 0;
	int rc = 0;

	buf_addf(&path, "%s/%s", archive, PAIRS_FILE);
	if (!path_exists(path.ptr))
		goto out;
	if (input_read_all(path.ptr, input_max_small, &text)) {
		rc = -1;
		goto out;
	}
	sorted = xcalloc(nids + 1, sizeof(*sorted));
	if (nids)
		memcpy(sorted, ids, nids * sizeof(*sorted));
	qsort(sorted, nids, sizeof(*sorted), cmp_id);
	for (p = text.ptr; p < text.ptr + text.len; p = eol + 1) {
		char *tok[3] = { NULL, NULL, NULL }, *q, *hash;
		const char *run[2] = { NULL, NULL };
		size_t ntok = 0, k;
		int bad = 0;

		line++;
		eol = memchr(p, '\n', (size_t)(text.ptr + text.len - p));
		if (!eol)
			eol = text.ptr + text.len;
		*eol = '\0';
		if ((hash = strchr(p, '#')))
			*hash = '\0';
		for (q = p; *q;) {
			while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\f' || *q == '\v')
				*q++ = '\0';
			if (!*q)
				break;
			if (ntok < 3)
				tok[ntok] = q;
			ntok++;
			while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\f' && *q != '\v')
				q++;
		}
		if (!ntok)
			continue;
		if (ntok != 2) {
			rc = error_at(path.ptr, line, "expected two run ids 'A B', found %zu word%s",
				      ntok, ntok == 1 ? "" : "s");
			continue;
		}
		for (k = 0; k < 2; k++) {
			const char *key = tok[k], **hit;
			size_t n = strlen(tok[k]);

			while (n > 1 && tok[k][n - 1] == '/')
				tok[k][--n] = '\0';
			hit = bsearch(&key, sorted, nids, sizeof(*sorted), cmp_id);
			if (!hit) {
				rc = error_at(path.ptr, line, "unknown run '%s'", tok[k]);
				bad = 1;
			} else {
				run[k] = *hit;
			}
		}
		if (bad)
			continue;
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n].a = run[0];
		out->v[out->n].b = run[1];
		out->v[out->n].line = line;
		out->n++;
	}
out:
	free(sorted);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

void
pair_list_free(struct pair_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}
