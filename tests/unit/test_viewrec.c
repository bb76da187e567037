/*
 * test_viewrec.c - the views' record of a run as bytes (views_run_encode(),
 * views_run_decode(); page_views.h), as the build keeps it in
 * OUT/.erg-cache/runs/<h>.rec for an unchanged run.
 *
 * A record survives its bytes: decoding and encoding again gives the same
 * bytes, for published texts with odd bytes (controls, markup, UTF-8, an
 * empty text), values not reported (NaN), infinities, routes with and
 * without names and a trials sweep's "at", a run without targets.  That
 * the decoded record renders the pages the results do is
 * tests/unit/test_viewcache.c.  Bytes that are not such a record are a
 * located error (path:@offset), never a record with a default in it:
 * every truncation, a wrong magic, a byte too many, counts that do not
 * add up, a string offset outside the strings, strings without their
 * NULs, a round of no target, unknown flags, an idle power that is not
 * finite.  Another format version or another tag is not an error: the
 * caller makes the record again (1).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/util.h"
#include "harness.h"
#include "render/page_views.h"

/* Offsets of the format (page_views.c): magic, version, tag, counts. */
#define O_VERSION 8
#define O_TAG 12
#define O_NENT 44
#define O_NROUND 48
#define O_NROUTE 52
#define O_NIDLE 56
#define O_NSTR 60
#define O_ID 64
#define O_FLAGS 92
#define O_ENT 96

static const unsigned char tag[VIEWS_REC_TAG] = { 1, 2, 3 };

static json_t *
odd_run(void)
{
	json_t *res = json_object(), *ts = json_array(), *ms = json_array(), *iw = json_array();

	json_object_set_new(res, "run", json_string("m\xc3\xa9/r\x01<&>\"'"));
	json_object_set_new(res, "kind", json_string("summary"));
	json_object_set_new(res, "title", json_string(""));
	json_object_set_new(res, "captured_at", json_string("2026-01-02T03:04:05+02:00"));
	json_object_set_new(res, "machine", json_pack("{s:s}", "id", "mac\t\xe2\x80\x8b"));
	json_object_set_new(res, "energy_source", json_string("none"));
	json_object_set_new(res, "aliases", json_pack("{s:s}", "BUN", "Bun"));
	/* published texts as a summary run gives them, odd ones included */
	json_array_append_new(ts, json_pack(
		"{s:s, s:{s:{s:f, s:s, s:f, s:s}, s:{s:f, s:s}}, s:[{s:s, s:{s:f, s:s}}, "
		"{s:{s:f, s:f, s:i, s:{s:i, s:f}}}, {s:s}, i]}",
		"name", "BUN", "headline",
		"rps", "mean", 1234.5, "published", "1,234.5\x7f<b>", "sd", 0.25, "sd_published", "",
		"mj_per_req", "mean", 0.001, "published", "1e-3",
		"routes", "name", "/\xf0\x9f\x98\x80?a=1&b=2", "rps", "mean", 5.0, "published", "5",
		"rps", "mean", 7.0, "sd", 0.5, "n", 3, "at", "connections", 64, "rate", 0.5,
		"name", "no figure", 3));
	/* not reported: a NaN-free record would be a default */
	json_array_append_new(ts, json_pack("{s:s, s:{}}", "name", "hono", "headline"));
	json_array_append_new(ts, json_pack("{s:n}", "name"));	/* no name: no target */
	json_array_append_new(ms, json_pack("{s:s, s:i, s:f, s:f}", "target", "Bun", "round", 1,
					    "headline_mj_per_req", 0.5, "headline_rps", 1e300));
	json_array_append_new(ms, json_pack("{s:s, s:i}", "target", "hono", "round", 2));
	json_array_append_new(ms, json_pack("{s:s}", "target", "nobody"));
	json_array_append_new(iw, json_pack("{s:f}", "mean_watts", 0.125));
	json_array_append_new(iw, json_pack("{s:s}", "mean_watts", "high"));
	json_object_set_new(res, "targets", ts);
	json_object_set_new(res, "measurements", ms);
	json_object_set_new(res, "idle_windows", iw);
	return res;
}

static uint32_t
rd32(const struct buf *b, size_t o)
{
	const unsigned char *p = (const unsigned char *)b->ptr + o;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void
wr32(struct buf *b, size_t o, uint32_t x)
{
	unsigned char *p = (unsigned char *)b->ptr + o;

	p[0] = (unsigned char)x;
	p[1] = (unsigned char)(x >> 8);
	p[2] = (unsigned char)(x >> 16);
	p[3] = (unsigned char)(x >> 24);
}

/* Decode bytes; the diagnostics it printed in *diag. */
static int
decode(const struct buf *b, size_t len, struct buf *diag, struct views_run **out)
{
	int rc;

	buf_reset(diag);
	diag_capture(diag);
	rc = views_run_decode(b->ptr, len, "cache/x.rec", tag, out);
	diag_capture(NULL);
	return rc;
}

/* The record of res survives its bytes; *bytes: them. */
static void
round_trip(const json_t *res, const char *what, struct buf *bytes)
{
	struct views_run *r = views_run_make(res, NULL), *d = NULL;
	struct buf again = BUF_INIT, diag = BUF_INIT;
	int rc;

	buf_reset(bytes);
	views_run_encode(r, tag, bytes);
	rc = decode(bytes, bytes->len, &diag, &d);
	CHECK(rc == 0 && d && !diag.len, "%s: %zu bytes decode (%d)", what, bytes->len, rc);
	if (d)
		views_run_encode(d, tag, &again);
	CHECK(again.len == bytes->len && !memcmp(again.ptr, bytes->ptr, again.len),
	      "%s: encoded again, the same %zu bytes", what, again.len);
	CHECK(d && !strcmp(views_run_id(d), json_string_value(json_object_get(res, "run"))),
	      "%s: its id", what);
	views_run_free(r);
	views_run_free(d);
	buf_release(&again);
	buf_release(&diag);
}

/* bytes b (len) are refused with an error at path:@off naming what. */
static void
refused(const struct buf *b, size_t len, long long off, const char *msg, const char *what)
{
	struct buf diag = BUF_INIT, want = BUF_INIT;
	struct views_run *d = NULL;
	int rc = decode(b, len, &diag, &d);

	buf_addf(&want, "erg: cache/x.rec:@%lld: error: ", off);
	CHECK(rc == -1 && !d && diag.ptr && !strncmp(diag.ptr, want.ptr, want.len) &&
	      strstr(diag.ptr, msg), "%s: refused at @%lld: %s", what, off,
	      diag.ptr ? diag.ptr : "(nothing)");
	buf_release(&diag);
	buf_release(&want);
}

static void
test_round_trip(void)
{
	struct buf b = BUF_INIT;
	json_t *res = odd_run(), *empty;

	round_trip(res, "odd texts, values not reported, routes", &b);
	/* the numbers are there, not defaults: NaN where not reported */
	CHECK(rd32(&b, O_NENT) == 3 && rd32(&b, O_NROUTE) == 4 && rd32(&b, O_NROUND) == 2 &&
	      rd32(&b, O_NIDLE) == 1, "3 targets, 4 routes, 2 rounds of a target, 1 idle power "
	      "(%u %u %u %u)", rd32(&b, O_NENT), rd32(&b, O_NROUTE), rd32(&b, O_NROUND),
	      rd32(&b, O_NIDLE));
	{
		double mean;
		uint64_t x;
		size_t o = O_ENT + 128 + 6 * 4 + 8;	/* hono's rps mean */

		x = (uint64_t)rd32(&b, o) | (uint64_t)rd32(&b, o + 4) << 32;
		memcpy(&mean, &x, 8);
		CHECK(isnan(mean), "a headline not reported is NaN, not 0 (%g)", mean);
	}
	empty = json_pack("{s:s, s:{s:s}}", "run", "a/b", "machine", "id", "m");
	round_trip(empty, "a run without targets, rounds or idle windows", &b);
	json_decref(empty);
	json_decref(res);
	buf_release(&b);
}

static void
test_refused(void)
{
	struct buf b = BUF_INIT, m = BUF_INIT, diag = BUF_INIT;
	json_t *res = odd_run();
	struct views_run *d = NULL;
	size_t len, n, bad = 0, nstr;
	uint32_t nent;

	round_trip(res, "odd run", &b);
	len = b.len;
	nstr = rd32(&b, O_NSTR);
	nent = rd32(&b, O_NENT);

	/* every truncation: an error, none a record */
	for (n = 0; n < len; n++) {
		int rc = decode(&b, n, &diag, &d);

		if (rc != -1 || d || !diag.ptr || strncmp(diag.ptr, "erg: cache/x.rec:@", 18))
			bad++;
		views_run_free(d);
		d = NULL;
	}
	CHECK(bad == 0, "each of the %zu truncations is a located error (%zu are not)", len, bad);
	refused(&b, 20, 20, "truncated", "cut inside the header");
	refused(&b, len - 1, O_NENT, "counts take", "cut inside the strings");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	m.ptr[0] = 'E';
	refused(&m, len, 0, "not a run record", "wrong magic");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	buf_addch(&m, '\0');
	refused(&m, m.len, O_NENT, "counts take", "a byte too many");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_NENT, nent + 1);
	refused(&m, len, O_NENT, "counts take", "one target more than the bytes hold");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_NIDLE, 0xffffffffu);
	refused(&m, len, O_NENT, "counts take", "a count near 2^32");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_ID, (uint32_t)nstr);
	refused(&m, len, O_ID, "string offset", "the id's offset past the strings");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	m.ptr[len - 1] = 'x';
	refused(&m, len, (long long)(len - nstr), "NUL", "strings without their last NUL");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_FLAGS, 4);
	refused(&m, len, O_FLAGS, "unknown flags", "unknown flags");

	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_ID, 0);
	refused(&m, len, O_ID, "without a run id", "no id");

	/* the rounds follow the 3 entries (128 bytes each) */
	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_ENT + 3 * 128, 2);	/* the unnamed entry */
	refused(&m, len, O_ENT + 3 * 128, "not a named one", "a round of no target");

	/* the first entry's routes: 0+3, the next ones start at 3 */
	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_ENT + 16, 5);
	refused(&m, len, O_ENT + 12, "are not the next", "routes past the record's");

	/* the idle power: the last 8 bytes before the strings */
	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, len - nstr - 8, 0);
	wr32(&m, len - nstr - 4, 0x7ff80000u);
	refused(&m, len, (long long)(len - nstr - 8), "not a finite number", "an idle power NaN");

	/* another version, another tag: made again, no diagnostic */
	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	wr32(&m, O_VERSION, 2);
	CHECK(decode(&m, len, &diag, &d) == 1 && !d && !diag.len,
	      "another format version: 1, no diagnostic");
	buf_reset(&m);
	buf_add(&m, b.ptr, len);
	m.ptr[O_TAG] ^= 1;
	CHECK(decode(&m, len, &diag, &d) == 1 && !d && !diag.len,
	      "another tag (other aliases): 1, no diagnostic");

	json_decref(res);
	buf_release(&b);
	buf_release(&m);
	buf_release(&diag);
}

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_round_trip();
	test_refused();
	return th_done();
}
