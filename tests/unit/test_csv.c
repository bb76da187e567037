/*
 * test_csv.c - the RFC 4180 parser (gen/ingest/csv.c) on small inputs worked out
 * by hand: quoting, escaped quotes, newlines inside quotes and the line
 * numbers that follow them, CRLF, a byte-order mark, empty fields, the last
 * record with and without a newline, each error with its location, the
 * record cap; and the number grammar of summary tables (csv_number), cell
 * by cell.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "ingest/csv.h"
#include "base/util.h"
#include "harness.h"

/* stderr capture, to check the wording and location of diagnostics. */
static int saved_fd = -1;
static FILE *cap_file;

static void
cap_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	saved_fd = dup(2);
	if (!cap_file || saved_fd < 0 || dup2(fileno(cap_file), 2) < 0)
		die_errno("cannot capture stderr");
}

static void
cap_end(struct buf *out)
{
	char tmp[4096];
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	buf_reset(out);
	rewind(cap_file);
	while ((n = fread(tmp, 1, sizeof(tmp), cap_file)) > 0)
		buf_add(out, tmp, n);
	fclose(cap_file);
}

/* Captured text fit for one TAP line: newlines shown as '|'. */
static const char *
one_line(struct buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (b->ptr[i] == '\n')
			b->ptr[i] = '|';
	return b->ptr;
}

/* Parse len bytes of text as "t.csv"; stderr goes to err. */
static int
parse_n(const char *text, size_t len, struct csv *c, struct buf *err)
{
	int rc;

	cap_begin();
	rc = csv_parse("t.csv", text, len, SIZE_MAX, c);
	cap_end(err);
	return rc;
}

static int
parse(const char *text, struct csv *c, struct buf *err)
{
	return parse_n(text, strlen(text), c, err);
}

/* Field f of row r, or NULL when out of range. */
static const char *
fld(const struct csv *c, size_t r, size_t f)
{
	if (r >= c->n || f >= c->rows[r].n)
		return NULL;
	return c->rows[r].f[f];
}

/* s with CR, LF and quotes escaped, for one-line TAP output (static buffer n). */
static const char *
esc(const char *s, int n)
{
	static char b[2][256];
	size_t o = 0;

	if (!s)
		return "(null)";
	for (; *s && o + 3 < sizeof(b[n]); s++) {
		if (*s == '\n' || *s == '\r' || *s == '"') {
			b[n][o++] = '\\';
			b[n][o++] = *s == '\n' ? 'n' : *s == '\r' ? 'r' : '"';
		} else {
			b[n][o++] = *s;
		}
	}
	b[n][o] = '\0';
	return b[n];
}

/* Field f of row r equals want. */
#define CHECK_FLD(c, r, f, want, what) \
	do { \
		const char *g_ = fld((c), (r), (f)), *w_ = (want); \
		th_check(g_ && !strcmp(g_, w_), __FILE__, __LINE__, "%s: got \"%s\" want \"%s\"", \
			 (what), esc(g_, 0), esc(w_, 1)); \
	} while (0)

/* Row r has exactly n fields and starts on line line. */
static void
check_row(const struct csv *c, size_t r, size_t n, long line, const char *what)
{
	if (r >= c->n) {
		CHECK(0, "%s: row %zu exists (only %zu rows)", what, r, c->n);
		return;
	}
	CHECK(c->rows[r].n == n, "%s: row %zu has %zu fields (got %zu)", what, r, n,
	      c->rows[r].n);
	CHECK(c->rows[r].line == line, "%s: row %zu starts on line %ld (got %ld)", what, r,
	      line, c->rows[r].line);
}

static void
test_plain(void)
{
	struct buf err = BUF_INIT;
	struct csv c;

	CHECK(parse("target,rps,p99_ms\nelysia,362395.4,1.5\nhono,330017.53,2\n", &c, &err) == 0,
	      "plain table parses");
	CHECK(c.n == 3, "plain: 3 records (got %zu)", c.n);
	check_row(&c, 0, 3, 1, "plain");
	check_row(&c, 1, 3, 2, "plain");
	check_row(&c, 2, 3, 3, "plain");
	CHECK_FLD(&c, 0, 2, "p99_ms", "plain: header field 3");
	CHECK_FLD(&c, 1, 1, "362395.4", "plain: fields are kept as text");
	CHECK_FLD(&c, 2, 0, "hono", "plain: row 3 field 1");
	CHECK(err.len == 0, "plain: no diagnostics ('%s')", one_line(&err));
	csv_free(&c);
	CHECK(c.n == 0 && c.rows == NULL, "csv_free leaves an empty table");
	csv_free(&c);	/* a second free of the emptied table is harmless */

	/* Spaces belong to the field: nothing is trimmed. */
	CHECK(parse(" a , b \n", &c, &err) == 0, "spaces parse");
	CHECK_FLD(&c, 0, 0, " a ", "leading and trailing spaces kept (1)");
	CHECK_FLD(&c, 0, 1, " b ", "leading and trailing spaces kept (2)");
	csv_free(&c);
	buf_release(&err);
}

static void
test_quoting(void)
{
	struct buf err = BUF_INIT;
	struct csv c;

	/* A comma inside quotes is data; the quotes themselves are not. */
	CHECK(parse("target,route\nelysia,\"params, query & header\"\n", &c, &err) == 0,
	      "quoted comma parses");
	check_row(&c, 1, 2, 2, "quoted comma");
	CHECK_FLD(&c, 1, 1, "params, query & header", "quoted comma kept, quotes dropped");
	csv_free(&c);

	/* Quoted numbers with a thousands separator stay one field. */
	CHECK(parse("\"1,024 connections\",218320\n", &c, &err) == 0, "quoted label parses");
	check_row(&c, 0, 2, 1, "quoted label");
	CHECK_FLD(&c, 0, 0, "1,024 connections", "quoted label");
	csv_free(&c);

	/* "" inside quotes is one quote: "say ""hi""" -> say "hi". */
	CHECK(parse("\"say \"\"hi\"\"\",x\n", &c, &err) == 0, "doubled quotes parse");
	CHECK_FLD(&c, 0, 0, "say \"hi\"", "doubled quotes become one");
	CHECK_FLD(&c, 0, 1, "x", "field after the escaped one");
	csv_free(&c);

	/* """" is a field holding one quote; "" is an empty field; """a""" is "a". */
	CHECK(parse("\"\"\"\",\"\",\"\"\"a\"\"\"\n", &c, &err) == 0, "quote-only fields parse");
	check_row(&c, 0, 3, 1, "quote-only fields");
	CHECK_FLD(&c, 0, 0, "\"", "\"\"\"\" is one quote");
	CHECK_FLD(&c, 0, 1, "", "\"\" is empty");
	CHECK_FLD(&c, 0, 2, "\"a\"", "\"\"\"a\"\"\" is \"a\"");
	csv_free(&c);

	/* Quoted and unquoted fields mix freely within a record. */
	CHECK(parse("a,\"b\",c,\"d,e\"\n", &c, &err) == 0, "mixed quoting parses");
	check_row(&c, 0, 4, 1, "mixed quoting");
	CHECK_FLD(&c, 0, 3, "d,e", "mixed quoting: last field");
	CHECK(err.len == 0, "quoting: no diagnostics ('%s')", one_line(&err));
	csv_free(&c);
	buf_release(&err);
}

static void
test_newlines_in_quotes(void)
{
	struct buf err = BUF_INIT;
	struct csv c;

	/*
	 * line 1: a,b
	 * line 2: "line one
	 * line 3: line two",2
	 * line 4: next,3
	 * The second record starts on line 2; the third on line 4.
	 */
	CHECK(parse("a,b\n\"line one\nline two\",2\nnext,3\n", &c, &err) == 0,
	      "newline in quotes parses");
	CHECK(c.n == 3, "newline in quotes: 3 records (got %zu)", c.n);
	check_row(&c, 0, 2, 1, "newline in quotes");
	check_row(&c, 1, 2, 2, "newline in quotes");
	check_row(&c, 2, 2, 4, "newline in quotes");
	CHECK_FLD(&c, 1, 0, "line one\nline two", "newline kept inside the field");
	CHECK_FLD(&c, 2, 0, "next", "record after the multi-line field");
	csv_free(&c);

	/* Two newlines (one blank line) inside quotes: the next record is on
	 * line 4 (lines 1-3 are the quoted field). */
	CHECK(parse("\"x\n\ny\"\nz\n", &c, &err) == 0, "blank line in quotes parses");
	check_row(&c, 0, 1, 1, "blank line in quotes");
	check_row(&c, 1, 1, 4, "blank line in quotes");
	CHECK_FLD(&c, 0, 0, "x\n\ny", "blank line kept inside the field");
	csv_free(&c);

	/* A multi-line field in the middle of a record, then more fields. */
	CHECK(parse("k,\"1\n2\n3\",v\nlast\n", &c, &err) == 0, "mid-record multi-line parses");
	check_row(&c, 0, 3, 1, "mid-record multi-line");
	check_row(&c, 1, 1, 4, "mid-record multi-line");
	CHECK_FLD(&c, 0, 2, "v", "field after a multi-line one");
	CHECK(err.len == 0, "newlines: no diagnostics ('%s')", one_line(&err));
	csv_free(&c);
	buf_release(&err);
}

static void
test_crlf_bom(void)
{
	struct buf err = BUF_INIT;
	struct csv c;

	CHECK(parse("a,b\r\n1,2\r\n", &c, &err) == 0, "CRLF parses");
	CHECK(c.n == 2, "CRLF: 2 records (got %zu)", c.n);
	check_row(&c, 0, 2, 1, "CRLF");
	check_row(&c, 1, 2, 2, "CRLF");
	CHECK_FLD(&c, 0, 1, "b", "CRLF: no CR left at the end of a record");
	CHECK_FLD(&c, 1, 1, "2", "CRLF: last field clean");
	csv_free(&c);

	/* A closing quote followed by CRLF. */
	CHECK(parse("\"a\"\r\n\"b\"\r\n", &c, &err) == 0, "quoted field then CRLF parses");
	check_row(&c, 1, 1, 2, "quoted then CRLF");
	CHECK_FLD(&c, 1, 0, "b", "quoted then CRLF: field");
	csv_free(&c);

	/* CRLF inside quotes is data, and still counts as a line. */
	CHECK(parse("\"x\r\ny\",1\r\n2\r\n", &c, &err) == 0, "CRLF in quotes parses");
	CHECK_FLD(&c, 0, 0, "x\r\ny", "CRLF kept inside the quoted field");
	check_row(&c, 1, 1, 3, "CRLF in quotes");
	csv_free(&c);

	/* A leading UTF-8 byte-order mark is skipped... */
	CHECK(parse("\xef\xbb\xbftarget,rps\nx,1\n", &c, &err) == 0, "BOM parses");
	CHECK_FLD(&c, 0, 0, "target", "BOM is not part of the first field");
	check_row(&c, 1, 2, 2, "BOM");
	csv_free(&c);
	/* ...also before a quoted field... */
	CHECK(parse("\xef\xbb\xbf\"target\",rps\n", &c, &err) == 0, "BOM then quote parses");
	CHECK_FLD(&c, 0, 0, "target", "BOM then quote: first field");
	csv_free(&c);
	/* ...but only at the very start. */
	CHECK(parse("a\n\xef\xbb\xbf" "b\n", &c, &err) == 0, "BOM later parses");
	CHECK_FLD(&c, 1, 0, "\xef\xbb\xbf" "b", "a BOM after the start is data");
	csv_free(&c);
	CHECK(parse("\xef\xbb\xbf", &c, &err) == 0 && c.n == 0, "a BOM alone is an empty table");
	csv_free(&c);
	CHECK(err.len == 0, "CRLF/BOM: no diagnostics ('%s')", one_line(&err));
	buf_release(&err);
}

static void
test_empty_fields(void)
{
	struct buf err = BUF_INIT;
	struct csv c;

	CHECK(parse(",,\n", &c, &err) == 0, "all-empty record parses");
	check_row(&c, 0, 3, 1, "',,' is three empty fields");
	CHECK(fld(&c, 0, 0) && !*fld(&c, 0, 0) && fld(&c, 0, 2) && !*fld(&c, 0, 2),
	      "',,': fields are empty strings");
	csv_free(&c);

	CHECK(parse("a,,c\n", &c, &err) == 0, "empty middle field parses");
	check_row(&c, 0, 3, 1, "empty middle field");
	CHECK_FLD(&c, 0, 1, "", "middle field empty");
	csv_free(&c);

	/* A trailing comma ends with an empty field, with or without a newline. */
	CHECK(parse("a,\n", &c, &err) == 0, "trailing comma parses");
	check_row(&c, 0, 2, 1, "trailing comma");
	CHECK_FLD(&c, 0, 1, "", "trailing comma: empty last field");
	csv_free(&c);
	CHECK(parse("a,", &c, &err) == 0, "trailing comma at end of input parses");
	check_row(&c, 0, 2, 1, "trailing comma at end of input");
	csv_free(&c);

	/* A blank line is no record; the next keeps its line number. */
	CHECK(parse("a\n\nb\n", &c, &err) == 0, "blank line parses");
	CHECK(c.n == 2, "blank line: 2 records (got %zu)", c.n);
	check_row(&c, 1, 1, 3, "record after a blank line");
	CHECK_FLD(&c, 1, 0, "b", "record after a blank line");
	csv_free(&c);
	CHECK(parse("a\r\n\r\n\r\r\nb\n", &c, &err) == 0 && c.n == 2, "blank CRLF and CR lines parse");
	check_row(&c, 1, 1, 5, "record after blank CRLF, CR and CRLF lines");
	csv_free(&c);
	/* "" alone is a record of one empty field, not a blank line. */
	CHECK(parse("a\n\"\"\nb\n", &c, &err) == 0 && c.n == 3, "'\"\"' line parses");
	check_row(&c, 1, 1, 2, "'\"\"' line");
	CHECK_FLD(&c, 1, 0, "", "'\"\"' line: one empty field");
	CHECK(err.len == 0, "empty fields: no diagnostics ('%s')", one_line(&err));
	csv_free(&c);
	buf_release(&err);
}

static void
test_last_record(void)
{
	struct buf err = BUF_INIT;
	struct csv c;

	CHECK(parse("", &c, &err) == 0 && c.n == 0, "empty input: no records");
	csv_free(&c);
	CHECK(parse("a", &c, &err) == 0 && c.n == 1, "'a': one record without a newline");
	CHECK_FLD(&c, 0, 0, "a", "'a': field");
	csv_free(&c);
	CHECK(parse("a\n", &c, &err) == 0 && c.n == 1, "'a\\n': the final newline adds no record");
	csv_free(&c);
	CHECK(parse("a\r\n", &c, &err) == 0 && c.n == 1, "'a\\r\\n': likewise");
	CHECK_FLD(&c, 0, 0, "a", "'a\\r\\n': field");
	csv_free(&c);
	CHECK(parse("a\n\n", &c, &err) == 0 && c.n == 1, "'a\\n\\n': a blank last line is no record");
	csv_free(&c);
	/* A quoted last field with no newline after it. */
	CHECK(parse("x,\"y, z\"", &c, &err) == 0, "quoted last field at end of input parses");
	check_row(&c, 0, 2, 1, "quoted last field");
	CHECK_FLD(&c, 0, 1, "y, z", "quoted last field");
	csv_free(&c);
	CHECK(err.len == 0, "last record: no diagnostics ('%s')", one_line(&err));
	buf_release(&err);
}

/* text (len bytes, or strlen when 0) must fail with exactly the message
 * want (one diagnostic). */
static void
check_error(const char *text, size_t len, const char *want, const char *what)
{
	struct buf err = BUF_INIT;
	struct csv c;
	int errors0 = diag_errors, rc;

	if (len == 0)
		len = strlen(text);
	memset(&c, 0xa5, sizeof(c));
	rc = parse_n(text, len, &c, &err);
	CHECK(rc == -1, "%s: rejected", what);
	CHECK(diag_errors == errors0 + 1, "%s: one error counted (got %d)", what,
	      diag_errors - errors0);
	CHECK(c.n == 0 && c.rows == NULL, "%s: nothing left allocated", what);
	CHECK_STR(one_line(&err), want, what);
	buf_release(&err);
}

static void
test_errors(void)
{
	static const char nul1[] = "a,b\n1,\0\n";
	static const char nul2[] = "a\n\"x\0y\"\n";

	/* The quote opens on line 2 and is never closed: the error points at
	 * the line where the field began, not at the end of the input. */
	check_error("a,b\nc,\"d\ne\nf\n", 0,
		    "erg: t.csv:2: error: unterminated quoted field|", "unterminated quote");
	check_error("\"", 0, "erg: t.csv:1: error: unterminated quoted field|",
		    "lone quote");
	/* "a""" is a, quote, then the field is still open. */
	check_error("\"a\"\"", 0, "erg: t.csv:1: error: unterminated quoted field|",
		    "escaped quote at end of input");

	check_error("\"a\"b,c\n", 0, "erg: t.csv:1: error: text after a closing quote|",
		    "text after closing quote");
	check_error("\"a\" ,c\n", 0, "erg: t.csv:1: error: text after a closing quote|",
		    "space after closing quote");
	/* After a quoted field spanning lines 2-3 the stray text is on line 3. */
	check_error("x\n\"a\nb\"c\n", 0, "erg: t.csv:3: error: text after a closing quote|",
		    "text after a multi-line quoted field");

	check_error("a,b\nab\"c,d\n", 0,
		    "erg: t.csv:2: error: quote inside an unquoted field|",
		    "quote inside unquoted field");
	check_error(" \"a\",b\n", 0, "erg: t.csv:1: error: quote inside an unquoted field|",
		    "space before an opening quote");
	check_error("a,b\r\nc,d\r\n5\"\r\n", 0,
		    "erg: t.csv:3: error: quote inside an unquoted field|",
		    "quote inside unquoted field after CRLF lines");

	check_error(nul1, sizeof(nul1) - 1, "erg: t.csv:2: error: NUL byte in CSV|",
		    "NUL byte in unquoted field");
	check_error(nul2, sizeof(nul2) - 1, "erg: t.csv:2: error: NUL byte in CSV|",
		    "NUL byte in quoted field");
}

/* A wide record and many records: counts and lines stay right. */
static void
test_size(void)
{
	struct buf in = BUF_INIT, err = BUF_INIT;
	struct csv c;
	size_t i;
	int ok = 1;

	for (i = 0; i < 300; i++)
		buf_addf(&in, "%s%zu", i ? "," : "", i);
	buf_addch(&in, '\n');
	for (i = 0; i < 1000; i++)
		buf_addf(&in, "r%zu,\"q\n%zu\"\n", i, i);
	CHECK(parse_n(in.ptr, in.len, &c, &err) == 0, "large input parses");
	CHECK(c.n == 1001, "1001 records (got %zu)", c.n);
	check_row(&c, 0, 300, 1, "wide record");
	CHECK_FLD(&c, 0, 299, "299", "wide record: last field");
	/* record k (k >= 1) starts on line 2k: each data record spans 2 lines */
	for (i = 1; i < c.n && ok; i++)
		if (c.rows[i].line != (long)(2 * i) || c.rows[i].n != 2)
			ok = 0;
	CHECK(ok, "every two-line record starts on the right line (stopped at %zu)", i);
	CHECK_FLD(&c, 1000, 1, "q\n999", "last record's quoted field");
	csv_free(&c);
	buf_release(&in);
	buf_release(&err);
}

/* At most max records kept; where the next one starts. */
static void
test_cap(void)
{
	struct buf err = BUF_INIT;
	struct csv c;
	int rc;

	cap_begin();
	rc = csv_parse("t.csv", "h\n1\n\n2\n3\n", 9, 2, &c);
	cap_end(&err);
	CHECK(rc == CSV_MORE, "cap 2 of 4 records: CSV_MORE (got %d)", rc);
	CHECK(c.n == 2, "cap: the first two records kept (got %zu)", c.n);
	CHECK_FLD(&c, 1, 0, "1", "cap: second record");
	CHECK(c.next_line == 4, "cap: the next record is on line 4, after a blank line (got %ld)",
	      c.next_line);
	CHECK(err.len == 0, "cap: nothing printed ('%s')", one_line(&err));
	csv_free(&c);
	cap_begin();
	rc = csv_parse("t.csv", "h\n1\n\n", 5, 2, &c);
	cap_end(&err);
	CHECK(rc == 0 && c.n == 2, "cap: exactly two records and a blank line fit (rc %d, n %zu)",
	      rc, c.n);
	csv_free(&c);
	cap_begin();
	rc = csv_parse("t.csv", "h\n\"1\n", 5, 1, &c);
	cap_end(&err);
	CHECK(rc == CSV_MORE && c.n == 1 && c.next_line == 2,
	      "cap: stops before a record that would be an error (rc %d)", rc);
	csv_free(&c);
	buf_release(&err);
}

/*
 * The number grammar, cell by cell: accepted cells give exactly the
 * value of the decimal literal; refused ones a reason.
 */
static void
test_numbers(void)
{
	static const struct { const char *in; double v; } ok[] = {
		{ "+5", 5 }, { ".5", 0.5 }, { "5.", 5 }, { "1e-3", 0.001 }, { "-5", -5 },
		{ "-1e3", -1000 }, { "184915", 184915 }, { "0.0958", 0.0958 },
		{ "1E+2", 100 }, { "007", 7 }, { "-.25e-1", -0.025 },
		{ "1e308", 1e308 }, { "2.2250738585072014e-308", 2.2250738585072014e-308 },
	};
	static const struct { const char *in, *why; } bad[] = {
		{ "0x10", "hexadecimal" }, { "-0X1p3", "hexadecimal" },
		{ "1,234", "a digit separator" }, { "1_000", "a digit separator" },
		{ "1'000", "a digit separator" }, { "1 000", "a digit separator" },
		{ "inf", "not a finite number" }, { "-Infinity", "not a finite number" },
		{ "nan", "not a finite number" }, { "NaN", "not a finite number" },
		{ " 12", "spaces around it" }, { "12 ", "spaces around it" },
		{ "\t12", "spaces around it" },
		{ "1e999", "out of range" }, { "-1e999", "out of range" },
		{ "1e-400", "out of range" },
		{ "12abc", "" }, { "", "" }, { "+", "" }, { "-", "" }, { ".", "" },
		{ "+.", "" }, { "e5", "" }, { "1e", "" }, { "1e+", "" }, { "--1", "" },
		{ "1.2.3", "" }, { "5%", "" }, { "1.2 ms", "" }, { "\xd9\xa1", "" },
		{ "\xef\xbc\x91", "" },	/* U+FF11 FULLWIDTH DIGIT ONE */
	};
	size_t i;
	double v;
	const char *why;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = NAN;
		why = NULL;
		CHECK(csv_number(ok[i].in, &v, &why) == 0 && v == ok[i].v,
		      "number '%s' is %.17g (got %.17g)", ok[i].in, ok[i].v, v);
		CHECK(csv_number_syntax(ok[i].in, strlen(ok[i].in)), "syntax: '%s' is a number",
		      ok[i].in);
	}
	v = NAN;
	CHECK(csv_number("-0", &v, &why) == 0 && v == 0 && signbit(v), "'-0' is minus zero");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 42;
		why = NULL;
		CHECK(csv_number(bad[i].in, &v, &why) == -1 && why && !strcmp(why, bad[i].why) &&
		      v == 42, "'%s' refused, why '%s' (got '%s')", bad[i].in, bad[i].why,
		      why ? why : "(none)");
	}
	/* counted: what follows n does not count, a NUL inside does */
	CHECK(csv_number_syntax("12abc", 2), "syntax: the first 2 bytes of '12abc'");
	CHECK(!csv_number_syntax("1\0002", 3), "syntax: a NUL inside is not a number");
}

int
main(void)
{
	test_plain();
	test_quoting();
	test_newlines_in_quotes();
	test_crlf_bom();
	test_empty_fields();
	test_last_record();
	test_errors();
	test_size();
	test_cap();
	test_numbers();
	return th_done();
}
