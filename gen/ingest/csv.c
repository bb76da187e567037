/* csv.c - see csv.h. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "ingest/csv.h"
#include "base/util.h"
#include "base/utf8.h"

/*
 * Field texts go to one buffer, NUL after each; while it grows they are
 * known by offset (the buffer moves), and become pointers at the end.
 */
struct acc {
	struct buf text;
	size_t *off, noff, aoff;
};

static void
push_field(struct acc *a, struct csv_row *r, size_t start)
{
	buf_addch(&a->text, '\0');
	ALLOC_GROW(a->off, a->noff + 1, a->aoff);
	a->off[a->noff++] = start;
	r->n++;
}

static void
finish(struct acc *a, struct csv *out)
{
	size_t i, k = 0;

	out->text = buf_detach(&a->text, NULL);
	out->fields = xmalloc((a->noff + 1) * sizeof(char *));
	for (i = 0; i < a->noff; i++)
		out->fields[i] = out->text + a->off[i];
	for (i = 0; i < out->n; i++) {
		out->rows[i].f = out->fields + k;
		k += out->rows[i].n;
	}
}

int
csv_parse(const char *path, const char *s, size_t len, size_t max_records, struct csv *out)
{
	struct acc a = { BUF_INIT, NULL, 0, 0 };
	struct csv_row *r = NULL;
	size_t i = 0, start;
	long line = 1;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	i = utf8_bom(s, len);
	while (i < len) {
		/* an empty line is no record */
		if (s[i] == '\n' || s[i] == '\r') {
			if (s[i++] == '\r' && i < len && s[i] == '\n')
				i++;
			line++;
			continue;
		}
		if (out->n >= max_records) {
			out->next_line = line;
			rc = CSV_MORE;
			break;
		}
		/* start of a record */
		ALLOC_GROW(out->rows, out->n + 1, out->alloc);
		r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		r->line = line;
		for (;;) {
			/* start of a field */
			start = a.text.len;
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
							buf_addch(&a.text, '"');
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
					buf_addch(&a.text, s[i++]);
				}
				if (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
					rc = error_at(path, line, "text after a closing quote");
					goto out;
				}
			} else {
				size_t from = i;

				while (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
					if (s[i] == '\0') {
						rc = error_at(path, line, "NUL byte in CSV");
						goto out;
					}
					if (s[i] == '"') {
						rc = error_at(path, line, "quote inside an unquoted field");
						goto out;
					}
					i++;
				}
				buf_add(&a.text, s + from, i - from);
			}
			push_field(&a, r, start);
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
	if (rc < 0) {
		out->n = 0;
		free(out->rows);
		memset(out, 0, sizeof(*out));
		buf_release(&a.text);
	} else {
		finish(&a, out);
	}
	free(a.off);
	return rc;
}

void
csv_free(struct csv *c)
{
	free(c->rows);
	free(c->fields);
	free(c->text);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------------------ */
/* numbers */

static size_t
digits(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

int
csv_number_syntax(const char *s, size_t n)
{
	size_t i = 0, d;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	d = digits(s, n, i);
	if (d < n && s[d] == '.') {
		size_t e = digits(s, n, d + 1);

		if (d == i && e == d + 1)
			return 0;	/* "." alone */
		i = e;
	} else if (d == i) {
		return 0;		/* no digit */
	} else {
		i = d;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		d = digits(s, n, i);
		if (d == i)
			return 0;
		i = d;
	}
	return i == n;
}

/* Why s is not a number, as far as a reader can be told more than that. */
static const char *
not_number(const char *s)
{
	const char *p = s, *q;
	size_t n = strlen(s);

	if (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		return "spaces around it";
	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return "hexadecimal";
	if (!strncasecmp(p, "inf", 3) || !strncasecmp(p, "nan", 3))
		return "not a finite number";
	/* digits grouped by ',', '_', ''' or ' ': 1,234  1_000  1'000  1 000 */
	for (q = p; *q; q++)
		if (strchr(",_' ", *q) && q > p && q[-1] >= '0' && q[-1] <= '9' &&
		    q[1] >= '0' && q[1] <= '9')
			return "a digit separator";
	return "";
}

int
csv_number(const char *s, double *out, const char **why)
{
	char *end;
	double v;

	if (!csv_number_syntax(s, strlen(s))) {
		*why = not_number(s);
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v)) {
		*why = "out of range";
		return -1;
	}
	*out = v;
	return 0;
}
