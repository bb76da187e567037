/*
 * test_json.c - the one JSON reader (base/json.h): every complaint at the
 * line of the member it is about (a missing one at its object's line),
 * named by its path; the parse options; one wording per rule.  Documents
 * and messages written out by hand.  And the writer of erg's own JSON
 * (base/jsonx.h jx_dumps): reals as their shortest round-trip text.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "base/buf.h"
#include "base/json.h"
#include "base/jsonx.h"
#include "base/util.h"

static struct buf msg = BUF_INIT;

/* The messages of what f does, one line each. */
#define CAPTURE(stmt) \
	do { \
		buf_reset(&msg); \
		diag_capture(&msg); \
		stmt; \
		diag_capture(NULL); \
	} while (0)

#define CHECK_MSG(want, what) same(want, what, __LINE__)

static void
same(const char *want, const char *what, int line)
{
	int ok = !strcmp(msg.ptr, want);

	th_check(ok, __FILE__, line, "%s", what);
	if (!ok)
		printf("# got: %s# want: %s", msg.ptr, want);
}

static const char doc_text[] =
	"\xef\xbb\xbf{\n"				/* 1, after a byte order mark */
	"  \"spec\": {\"n\": 5},\n"			/* 2 */
	"  \"result\": {\n"				/* 3 */
	"    \"errors\": [\n"				/* 4 */
	"      {\"count\": 1},\n"			/* 5 */
	"      {\"count\": -2, \"what\": 7}\n"		/* 6 */
	"    ],\n"					/* 7 */
	"    \"rps\": \"fast\",\n"			/* 8 */
	"    \"ok\": true\n"				/* 9 */
	"  }\n"						/* 10 */
	"}\n";

static void
test_located(void)
{
	struct jdoc j;
	struct jpos root, res, errs, e1, p;
	struct jd_path at;
	const struct jpos *q;
	double x = 0;
	char *s = NULL;

	CAPTURE(CHECK(jdoc_load(&j, "f.json", doc_text, sizeof(doc_text) - 1, 100, 0) == 0,
		      "a document after a BOM loads"));
	CHECK_MSG("", "silently");
	jdoc_root(&j, &root);
	CHECK(jdoc_object(&j, &root, "result", JD_REQ, &res) == 1 &&
	      jdoc_array(&j, &res, "errors", JD_REQ, &errs) == 1, "nested object and array");
	e1.up = &errs;
	e1.key = NULL;
	e1.idx = 1;
	e1.v = json_array_get(errs.v, 1);
	CAPTURE(CHECK(jdoc_count(&j, &e1, "count", JD_REQ, &x) == -1, "a negative count"));
	CHECK_MSG("erg: f.json:106: error: 'result.errors[1].count' must be a whole number from "
		  "0 to 2^53, not -2\n", "at the member's line (line0 100 + 6), named by its path");
	CAPTURE(CHECK(jdoc_string(&j, &e1, "what", 0, &s) == -1, "a number for a string"));
	CHECK_MSG("erg: f.json:106: error: 'result.errors[1].what' must be a string, not an "
		  "integer\n", "type named");
	CAPTURE(CHECK(jdoc_real(&j, &res, "rps", 0, &x) == -1, "a string for a number"));
	CHECK_MSG("erg: f.json:108: error: 'result.rps' must be a number, not a string\n",
		  "a member of an object after an array");
	CAPTURE(CHECK(jdoc_real(&j, &res, "latency", JD_REQ, &x) == -1, "missing, required"));
	CHECK_MSG("erg: f.json:103: error: missing 'result.latency'\n",
		  "a missing member at its object's line");
	CAPTURE(CHECK(jdoc_real(&j, &res, "latency", 0, &x) == 0, "missing, optional"));
	CHECK_MSG("", "an optional member may be absent");
	q = jdoc_at(&j, "result.ok", &at);
	CHECK(q && json_is_true(q->v) && jdoc_line(&j, q) == 109, "a dotted path, located");
	CHECK(!jdoc_at(&j, "result.ok.x", &at) && !jdoc_at(&j, "spec.m", &at),
	      "a path through a non-object or to nothing: none");
	p = root;
	CAPTURE(jdoc_error(&j, &p, "is odd"));
	CHECK_MSG("erg: f.json:101: error: the document is odd\n", "the root");
	free(s);
	jdoc_free(&j);
}

/* One wording per rule, whichever reader asks. */
static void
test_kinds(void)
{
	static const char text[] = "{\"a\": \"x\", \"b\": 1.5, \"c\": 2000000, \"d\": null, "
				   "\"e\": [1], \"f\": {}, \"g\": 1e300, \"h\": 9007199254740993}";
	static const struct {
		const char *key;
		enum jd_kind k;
		const char *want;
	} c[] = {
		{ "a", JD_NUMBER, "'a' must be a number, not a string" },
		{ "a", JD_COUNT, "'a' must be a whole number, not a string" },
		{ "b", JD_COUNT, "'b' must be a whole number from 0 to 2^53, not 1.5" },
		{ "c", JD_SMALL, "'c' must be a whole number from 0 to 1000000, not 2000000" },
		/* counts a double cannot hold exactly */
		{ "g", JD_COUNT, "'g' must be a whole number from 0 to 2^53, not 1e+300" },
		{ "h", JD_COUNT, "'h' must be a whole number from 0 to 2^53, not 9007199254740993" },
		{ "d", JD_STRING, "'d' must be a string, not null" },
		{ "e", JD_OBJECT, "'e' must be an object, not an array" },
		{ "f", JD_ARRAY, "'f' must be an array, not an object" },
		{ "b", JD_BOOL, "'b' must be true or false, not a real number" },
	};
	struct jdoc j;
	struct jpos root, p;
	struct buf want = BUF_INIT;
	size_t i;

	CHECK(jdoc_load(&j, "k.json", text, sizeof(text) - 1, 0, 0) == 0, "kinds: loads");
	jdoc_root(&j, &root);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		jdoc_get(&j, &root, c[i].key, 0, &p);
		buf_reset(&want);
		buf_addf(&want, "erg: k.json:1: error: %s\n", c[i].want);
		CAPTURE(CHECK(jdoc_check(&j, &p, c[i].k) == -1, "kind %zu refused", i));
		same(want.ptr, c[i].want, __LINE__);
	}
	jdoc_get(&j, &root, "c", 0, &p);
	CHECK(jdoc_check(&j, &p, JD_COUNT) == 0 && jdoc_check(&j, &p, JD_NUMBER) == 0,
	      "2000000 is a count and a number");
	jdoc_free(&j);
	buf_release(&want);
}

static void
test_options(void)
{
	static const char dup[] = "{\"a\": 1, \"a\": 2}";
	static const char nul[] = "{\"a\": \"x\\u0000y\"}";
	struct jdoc j;

	CAPTURE(CHECK(jdoc_load(&j, "d.json", dup, sizeof(dup) - 1, 0, 0) == -1,
		      "a key twice is refused"));
	CHECK(strstr(msg.ptr, "erg: d.json:1: error: a field given twice: ") == msg.ptr,
	      "as a field given twice");
	CAPTURE(CHECK(jdoc_load(&j, "n.json", nul, sizeof(nul) - 1, 0, 0) == -1,
		      "\\u0000 is refused"));
	CHECK(jdoc_load(&j, "n.json", nul, sizeof(nul) - 1, 0, JD_NUL) == 0, "JD_NUL: accepted");
	jdoc_free(&j);
	CAPTURE(CHECK(jdoc_load(&j, "r.json", "\n [1]", 5, 9, 0) == -1, "an array root"));
	CHECK_MSG("erg: r.json:11: error: not a JSON object\n", "refused at the root's line");
	CAPTURE(CHECK(jdoc_load(&j, "x.json", "{\n\"a\": }", 8, 0, 0) == -1, "broken JSON"));
	CHECK(strstr(msg.ptr, "erg: x.json:2: error: invalid JSON: ") == msg.ptr, "jansson's line");
}

/* jansson writes 17.87 as 17.870000000000001 (%.17g); jx_dumps writes
 * the digits that read back: the values below are hand-picked doubles
 * whose %.17g text is longer than their shortest one. */
static void
test_dumps(void)
{
	json_t *v = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:i,s:s,s:[f,f]}",
			      "a", 17.87, "b", 0.1, "c", 2.0, "d", -4.7, "e", 1e300, "f", 1e-7,
			      "n", 12, "s", "17.870000000000001 \" 0.10000000000000001",
			      "l", 0.508, 4213.000000000001);
	char *s = jx_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	json_t *back;

	CHECK_STR(s, "{\"a\":17.87,\"b\":0.1,\"c\":2.0,\"d\":-4.7,\"e\":1e+300,"
		  "\"f\":0.0000001,\"l\":[0.508,4213.000000000001],\"n\":12,"
		  "\"s\":\"17.870000000000001 \\\" 0.10000000000000001\"}",
		  "reals shortest, kept reals; integers and strings as they were");
	back = json_loads(s, 0, NULL);
	CHECK(back && json_equal(back, v), "reads back as the same document");
	CHECK(json_is_real(json_object_get(back, "c")), "2.0 stays a real");
	json_decref(back);
	free(s);
	json_decref(v);
}

int
main(void)
{
	test_located();
	test_kinds();
	test_options();
	test_dumps();
	buf_release(&msg);
	return th_done();
}
