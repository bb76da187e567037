/*
 * csv.h - RFC 4180 CSV: fields separated by commas, optionally quoted with
 * double quotes ("" inside a quoted field is one quote; a quoted field may
 * hold commas and newlines), records ended by LF or CRLF.  Hand-written
 * (about 100 lines) rather than libcsv: erg needs whole small tables in
 * memory with the line of every record for diagnostics, which is simpler
 * to get from a parser of our own than from libcsv's callbacks.
 *
 * An empty line outside quotes is no record: RFC 4180 has no empty
 * records, and in a published table a blank line is layout.  (A line
 * holding only "" is a record of one empty field.)
 *
 * Memory: the text of every field lives in one block and the field
 * pointers in one array, so a table costs about its size plus 8 bytes a
 * field and 24 a record, not an allocation per cell.
 */
#ifndef ERG_CSV_H
#define ERG_CSV_H

#include <stddef.h>

struct csv_row {
	char **f;		/* fields, NUL-terminated, inside struct csv's block */
	size_t n;
	long line;		/* line where the record starts */
};

struct csv {
	struct csv_row *rows;
	size_t n, alloc;
	long next_line;		/* after CSV_MORE: line of the first record not kept */
	char *text;		/* every field, NUL-terminated, one after another */
	char **fields;		/* every field pointer; rows[i].f points in here */
};

#define CSV_MORE 1

/*
 * Parse text; 0, or -1 after "erg: path:line: error: ..." (unterminated
 * quote, text after a closing quote, a NUL byte).  At most max_records
 * records are kept (SIZE_MAX: no limit): when another starts, parsing
 * stops and CSV_MORE is returned, with out holding the first max_records
 * and next_line set; nothing is printed (the caller knows what the limit
 * is called).  Call csv_free after 0 or CSV_MORE.
 */
int csv_parse(const char *path, const char *text, size_t len, size_t max_records,
	      struct csv *out);
void csv_free(struct csv *c);

/*
 * The one number grammar of summary tables: a cell is a number when it is
 *     [+-] ( digits [ "." [digits] ] | "." digits ) [ (e|E) [+-] digits ]
 * with ASCII digits, nothing before or after, and strtod's value is finite
 * and not flushed to zero or infinity (ERANGE).  So "+5", ".5", "5.",
 * "-0" and "1e-3" are numbers; "0x10", "1,234", "1_000", "inf", "nan",
 * " 12", "12 ", "12abc" and "1e999" are not.  0 and the value in *out,
 * or -1 with *why a short reason for a message ("hexadecimal", "out of
 * range", ...; "" when nothing more specific can be said).
 */
int csv_number(const char *s, double *out, const char **why);
/* Does s[0..n) match that grammar (the text only: no range check)? */
int csv_number_syntax(const char *s, size_t n);

#endif
