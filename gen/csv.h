/*
 * csv.h - RFC 4180 CSV: fields separated by commas, optionally quoted with
 * double quotes ("" inside a quoted field is one quote; a quoted field may
 * hold commas and newlines), records ended by LF or CRLF.  Hand-written
 * (about 100 lines) rather than libcsv: erg needs whole small tables in
 * memory with the line of every record for diagnostics, which is simpler
 * to get from a parser of our own than from libcsv's callbacks.
 */
#ifndef ERG_CSV_H
#define ERG_CSV_H

#include <stddef.h>

struct csv_row {
	char **f;		/* fields, NUL-terminated copies */
	size_t n;
	long line;		/* line where the record starts */
};

struct csv {
	struct csv_row *rows;
	size_t n, alloc;
};

/* Parse text; 0, or -1 after "erg: path:line: error: ..." (unterminated
 * quote, text after a closing quote, a NUL byte). */
int csv_parse(const char *path, const char *text, size_t len, struct csv *out);
void csv_free(struct csv *c);

#endif
