/*
 * test_view.c - the helpers the three renderers share (view.c): the
 * string set, ids, run paths, build date, ISO prefixes, column decimals
 * and the Markdown/CSV text escapers.  Expected strings are written out
 * by hand; the set is also checked against a plain list on many keys.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

#include "base/buf.h"
#include "render/numfmt.h"
#include "render/view.h"

static struct buf b = BUF_INIT;

/* sset against a plain array: every key added once, every other absent,
 * through several growths of the table. */
static void
test_sset(void)
{
	struct sset s = { 0 };
	char key[32];
	size_t i, wrong = 0;
	const char *kept;

	CHECK(!sset_has(&s, "x"), "an empty set has nothing");
	kept = sset_add(&s, "alpha");
	CHECK(kept && !strcmp(kept, "alpha"), "sset_add returns its copy");
	CHECK(sset_has(&s, "alpha") && !sset_has(&s, "alph") && !sset_has(&s, "alphaa"),
	      "only the exact key is in the set");
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "k%zu", i * 7);
		sset_add(&s, key);
	}
	for (i = 0; i < 35000; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		if (sset_has(&s, key) != (i % 7 == 0 && i < 35000))
			wrong++;
	}
	CHECK(wrong == 0, "5,001 keys through table growth: %zu wrong answers of 35,000", wrong);
	CHECK(s.n == 5001 && s.cap >= 2 * s.n && (s.cap & (s.cap - 1)) == 0,
	      "at most half full, a power of two (n %zu, cap %zu)", s.n, s.cap);
	sset_free(&s);
	CHECK(s.n == 0 && s.cap == 0 && !sset_has(&s, "alpha"), "sset_free empties it");
}

static const char *
sanitised(const char *s)
{
	buf_reset(&b);
	id_sanitise(&b, s);
	return b.ptr;
}

static void
test_ids(void)
{
	static const char *const sfx[] = { "-h", "-title", NULL };
	struct sset ids = { 0 };
	const char *id;

	CHECK_STR(sanitised("Bun 1.1/ping"), "Bun_1_1_ping", "id: space, dot and slash");
	CHECK_STR(sanitised("a-b_c9"), "a-b_c9", "id: kept as it is");
	CHECK_STR(sanitised("caf\xc3\xa9"), "caf_", "id: a two-byte character counts once");
	CHECK_STR(sanitised("\xe2\x80\x93x"), "_x", "id: a three-byte character counts once");
	CHECK_STR(sanitised("<script>\"'&"), "_script____", "id: markup characters");
	CHECK_STR(sanitised(""), "_", "id: empty");
	CHECK_STR(sanitised(NULL), "_", "id: NULL");

	buf_reset(&b);
	buf_addstr(&b, "t-bun");
	id = id_unique(&ids, &b, NULL);
	CHECK_STR(id, "t-bun", "unique: the first is itself");
	buf_reset(&b);
	buf_addstr(&b, "t-bun");
	id = id_unique(&ids, &b, NULL);
	CHECK_STR(id, "t-bun-2", "unique: the second gets -2");
	CHECK_STR(b.ptr, "t-bun-2", "unique: and b holds it");
	buf_reset(&b);
	buf_addstr(&b, "t-bun");
	CHECK_STR(id_unique(&ids, &b, NULL), "t-bun-3", "unique: the third gets -3");

	/* with suffixes: "fig" is taken as "fig-h" by an earlier id */
	buf_reset(&b);
	buf_addstr(&b, "fig-h");
	id_unique(&ids, &b, NULL);
	buf_reset(&b);
	buf_addstr(&b, "fig");
	id = id_unique(&ids, &b, sfx);
	CHECK_STR(id, "fig-2", "unique: a clash of a derived id moves the base");
	CHECK(sset_has(&ids, "fig-2-h") && sset_has(&ids, "fig-2-title") &&
	      !sset_has(&ids, "fig"), "unique: the derived ids are taken too, the base is not");
	buf_reset(&b);
	buf_addstr(&b, "fig-2");
	CHECK_STR(id_unique(&ids, &b, NULL), "fig-2-2", "unique: after suffixes, the id itself");
	sset_free(&ids);
}

static void
test_paths(void)
{
	buf_reset(&b);
	url_path(&b, "m5/2026-08-26T08:56 run%1 \xc3\xa9");
	CHECK_STR(b.ptr, "m5/2026-08-26T08%3A56%20run%251%20%C3%A9",
		  "url_path: ':' '%' space and UTF-8 encoded, '/' kept");
	buf_reset(&b);
	url_path(&b, "a-b.c_d~e");
	CHECK_STR(b.ptr, "a-b.c_d~e", "url_path: unreserved kept");

	CHECK(run_depth("m5/run") == 3, "depth: runs/m5/run/ is 3 below the root");
	CHECK(run_depth("run") == 2, "depth: runs/run/ is 2");
	CHECK(run_depth("a/b/c/d") == 5, "depth: four parts");
	CHECK(run_depth("") == -1 && run_depth(NULL) == -1, "depth: empty or NULL");
	CHECK(run_depth("a/../b") == -1 && run_depth("../a") == -1 && run_depth("a/..") == -1,
	      "depth: '..' anywhere");
	CHECK(run_depth("./a") == -1 && run_depth("a/./b") == -1, "depth: '.' anywhere");
	CHECK(run_depth("/a") == -1 && run_depth("a//b") == -1,
	      "depth: empty parts (absolute, doubled '/')");
	CHECK(run_depth("a/") == run_depth("a"), "depth: a trailing '/' adds no level");
	CHECK(run_depth("..a/b..") == 3, "depth: dots inside a name are a name");
}

static const char *
built(const char *sde)
{
	static char s[64];
	json_t *d;

	if (sde)
		setenv("SOURCE_DATE_EPOCH", sde, 1);
	else
		unsetenv("SOURCE_DATE_EPOCH");
	d = build_date();
	snprintf(s, sizeof(s), "%s", json_is_string(d) ? json_string_value(d) : "(null)");
	json_decref(d);
	return s;
}

static void
test_values(void)
{
	double v1[] = { 0.0958123, 0.2, NAN };
	double v2[] = { 1234.5, 0 };
	double v3[] = { NAN, 0 };
	double v4[] = { 1e-12 };

	CHECK_STR(built("0"), "1970-01-01", "build date: the epoch");
	CHECK_STR(built("951782400"), "2000-02-29", "build date: a leap day");
	CHECK_STR(built("1787702400"), "2026-08-26", "build date: 2026-08-26");
	CHECK_STR(built("253402300799"), "9999-12-31", "build date: the last second of 9999");
	CHECK_STR(built("253402300800"), "(null)", "build date: year 10000 is none");
	CHECK_STR(built("-1"), "(null)", "build date: negative is none");
	CHECK_STR(built("12abc"), "(null)", "build date: not a number is none");
	CHECK_STR(built(NULL), "(null)", "build date: never the wall clock");

	CHECK(iso_prefix("2026-08-26T08:56:01Z") == 16, "iso: date and minutes");
	CHECK(iso_prefix("2026-08-26") == 10, "iso: a date");
	CHECK(iso_prefix("2026-08-26 08:56") == 10, "iso: a space is not 'T'");
	CHECK(iso_prefix("2026-08-26T8:56") == 10, "iso: one-digit hour");
	CHECK(iso_prefix("2026-8-26") == 0 && iso_prefix("2026/08/26") == 0 &&
	      iso_prefix("yesterday") == 0 && iso_prefix(NULL) == 0, "iso: anything else");

	CHECK(numfmt_col_decimals(v1, 3, 4, 3) == 5, "decimals: 0.0958 with 4 digits needs 5");
	CHECK(numfmt_col_decimals(v2, 2, 3, 3) == 0, "decimals: 1234.5 with 3 digits needs none");
	CHECK(numfmt_col_decimals(v3, 2, 4, 7) == 7, "decimals: nothing finite and nonzero: the fallback");
	CHECK(numfmt_col_decimals(v4, 1, 4, 3) == 8, "decimals: at most 8");
}

static void
test_text(void)
{
	buf_reset(&b);
	/* "(d)" needs nothing once the brackets cannot open a link */
	md_text(&b, "a*b_[c](d) <e> &f; |g| `h`\nnext\x01!");
	CHECK_STR(b.ptr, "a\\*b\\_\\[c\\](d) \\<e\\> \\&f; \\|g\\| \\`h\\` next\\!",
		  "markdown: markup escaped, line break a space, control dropped");
	buf_reset(&b);
	md_text(&b, NULL);
	CHECK_STR(b.ptr, "", "markdown: NULL is nothing");
	buf_reset(&b);
	md_text(&b, "evil\xe2\x80\xaegpj.exe \xe2\x81\xa6x\xe2\x81\xa9 \xc2\x85\x1b!");
	CHECK_STR(b.ptr, "evil\\[U+202E\\]gpj.exe \\[U+2066\\]x\\[U+2069\\] \\!",
		  "markdown: bidi controls visible (escaped brackets), C1 and ESC dropped");

	buf_reset(&b);
	csv_str(&b, "plain", 5);
	CHECK_STR(b.ptr, "plain", "csv: plain stays");
	buf_reset(&b);
	csv_str(&b, "a,\"b\"\r\nc", 8);
	CHECK(!strcmp(b.ptr, "\"a,\"\"b\"\"\r\nc\""), "csv: comma, quotes and CRLF quoted");
	{
		static const struct { const char *in, *want; } f[] = {
			{ "=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\"" },
			{ "@SUM(A1)", "\"'@SUM(A1)\"" },
			{ "-cmd|' /C calc'!A0", "\"'-cmd|' /C calc'!A0\"" },
			{ "+A1", "\"'+A1\"" },
			{ "\t=1", "\"'\t=1\"" },
			{ "-", "-" },
			{ "+", "+" },
			{ "+5%", "\"'+5%\"" },
			{ "-0.25e-3", "-0.25e-3" },
			{ "a=b", "a=b" },
			/* issue 14: a sign then anything but one number is a formula */
			{ "-1+2", "\"'-1+2\"" },
			{ "+3-4", "\"'+3-4\"" },
			{ "=1", "\"'=1\"" },
			{ "@x", "\"'@x\"" },
			{ "-5", "-5" },
			{ "+5", "+5" },
			{ "-1e3", "-1e3" },
			{ "-.5", "-.5" },
			{ "-0x10", "\"'-0x10\"" },
			{ "-inf", "\"'-inf\"" },
			{ "- 5", "\"'- 5\"" },
			{ "-5 ", "\"'-5 \"" },
			{ "\r=1", "\"'\r=1\"" },
			{ "\n=1", "\"'\n=1\"" },
			{ "\x01=1", "\"'=1\"" },	/* the control dropped first */
			/* controls and bidi controls neutralised */
			{ "a\x1b[31mb\x7f", "a[31mb" },
			{ "x\xc2\x9by", "xy" },
			{ "evil\xe2\x80\xaegpj.exe", "evil[U+202E]gpj.exe" },
			{ "\xe2\x81\xa7=1", "[U+2067]=1" },
			{ "caf\xc3\xa9 \xd7\x90", "caf\xc3\xa9 \xd7\x90" },
		};
		size_t i;

		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			buf_reset(&b);
			csv_str(&b, f[i].in, strlen(f[i].in));
			CHECK(!strcmp(b.ptr, f[i].want), "csv formula guard, case %zu: got [%s]", i, b.ptr);
		}
	}
	buf_reset(&b);
	csv_str(&b, "-\0x", 3);
	CHECK(!strcmp(b.ptr, "\"'-x\""), "csv: a NUL is dropped, then '-x' is a formula (quoted)");
	buf_reset(&b);
	csv_str(&b, "a\0b", 3);
	CHECK(b.len == 2 && !memcmp(b.ptr, "ab", 2), "csv: counted, a NUL does not end it (dropped)");
}

int
main(void)
{
	test_sset();
	test_ids();
	test_paths();
	test_values();
	test_text();
	buf_release(&b);
	return th_done();
}
