/* csv.c - see csv.h. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "csv.h"
#include "util.h"

static void
push_field(struct csv_row *r, struct buf *f, size_t *alloc)
{
	ALLOC_GROW(r->f, r->n + 1, *alloc);
	r->f[r->n++] = xstrndup(f->ptr, f->len);
	buf_reset(f);
}

int
csv_parse(const char *path, const char *s, size_t len, struct csv *out)
{
	struct buf f = BUF_INIT;
	struct csv_row *r = NULL;
	size_t i = 0, falloc = 0;
	long line = 1;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	i = utf8_bom(s, len);
	while (i < len) {
		/* start of a record */
		ALLOC_GROW(out->rows, out->n + 1, out->alloc);
		r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		r->line = line;
		falloc = 0;
		for (;;) {
			/* start of a field */
			if (i < len && s[i] == '"') {
				long qline = line;

				i++;
				for (;;) {
					if (i >= len) {
						rc = error_at(path, qline, "unterminated quoted field");
						goto out;
					}
					if (s[i] == '"') {
						if (i + 1 < len && s[i + 1] == '"') {
							buf_addch(&f, '"');
							i += 2;
							continue;
						}
						i++;
						break;
					}
					if (s[i] == '\0') {
						rc = error_at(path, line, "NUL byte in CSV");
						goto out;
					}
					if (s[i] == '\n')
						line++;
					buf_addch(&f, s[i++]);
				}
				if (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
					rc = error_at(path, line, "text after a closing quote");
					goto out;
				}
			} else {
				while (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
					if (s[i] == '\0') {
						rc = error_at(path, line, "NUL byte in CSV");
						goto out;
					}
					if (s[i] == '"') {
						rc = error_at(path, line, "quote inside an unquoted field");
						goto out;
					}
					buf_addch(&f, s[i++]);
				}
			}
			push_field(r, &f, &falloc);
			if (i < len && s[i] == ',') {
				i++;
				continue;
			}
			if (i < len && s[i] == '\r') {
				i++;
				if (i >= len || s[i] != '\n')
					line++;	/* a lone CR ends a line too */
			}
			if (i < len && s[i] == '\n') {
				i++;
				line++;
			}
			break;
		}
	}
out:
	buf_release(&f);
	if (rc)
		csv_free(out);
	return rc;
}

void
csv_free(struct csv *c)
{
	size_t i, j;

	for (i = 0; i < c->n; i++) {
		for (j = 0; j < c->rows[i].n; j++)
			free(c->rows[i].f[j]);
		free(c->rows[i].f);
	}
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
