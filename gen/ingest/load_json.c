/*
 * load_json.c - JSON plumbing of the load parsers on top of base/json.h
 * (which locates every value they complain about): finding the keys a
 * format is told by, and rewriting Go's %q escapes before parsing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_INTERNAL
#include "base/json.h"
#include "ingest/load.h"

unsigned
load_top_keys(const char *t, size_t n, size_t i, int *complete)
{
	static const struct {
		const char *key;
		unsigned bit;
	} known[] = {
		{ "spec", LK_SPEC }, { "result", LK_RESULT },
		{ "summary", LK_SUMMARY }, { "latencyPercentiles", LK_LATPCT },
		{ "statusCodeDistribution", LK_STATUSDIST },
		{ "connections", LK_CONNECTIONS }, { "latency", LK_LATENCY },
		{ "requests", LK_REQUESTS }, { "throughput", LK_THROUGHPUT },
		{ "sampleInt", LK_SAMPLEINT }, { "metrics", LK_METRICS },
		{ "root_group", LK_ROOTGROUP }, { "state", LK_STATE },
		{ "metric", LK_METRIC }, { "type", LK_TYPE }, { "data", LK_DATA },
		{ "latencies", LK_LATENCIES },
		{ "status_codes", LK_STATUSCODES }, { "bytes_in", LK_BYTESIN },
	};
	struct buf key = BUF_INIT;
	unsigned bits = 0;
	size_t k;

	*complete = 0;
	if (i >= n || t[i] != '{')
		return 0;
	for (i++;;) {
		i = jtext_skip_ws(t, n, i);
		if (i < n && t[i] == '}') {
			*complete = 1;
			break;
		}
		if (i >= n || t[i] != '"')
			break;
		i = jtext_skip_ws(t, n, jtext_string(t, n, i, &key));
		if (i >= n || t[i] != ':')
			break;
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (!strcmp(key.ptr, known[k].key))
				bits |= known[k].bit;
		i = jtext_skip_ws(t, n, jtext_skip_value(t, n, jtext_skip_ws(t, n, i + 1)));
		if (i < n && t[i] == ',') {
			i++;
			continue;
		}
		if (i < n && t[i] == '}')
			*complete = 1;
		break;
	}
	buf_release(&key);
	return bits;
}

/* ---- Go %q escapes --------------------------------------------------- */

/*
 * bombardier writes strings with Go's %q, whose escapes JSON lacks: \a, \v,
 * \xNN (a control byte, or a byte of invalid UTF-8) and \UXXXXXXXX.  They
 * are rewritten inside strings as \u escapes before jansson sees the text;
 * \xNN >= 0x80 becomes U+00NN (the byte read as Latin-1: the original bytes
 * were not UTF-8, so nothing better exists).  No newline is added or
 * removed, so jansson's line numbers stay file lines.  Returns NULL when
 * nothing needed rewriting.
 */
static char *
go_unescape(const char *t, size_t n, size_t *outlen)
{
	struct buf b = BUF_INIT;
	size_t i, done = 0;
	int in_str = 0, changed = 0;

	for (i = 0; i < n; i++) {
		long v;
		char e;

		if (!in_str) {
			in_str = t[i] == '"';
			continue;
		}
		if (t[i] == '"') {
			in_str = 0;
			continue;
		}
		if (t[i] != '\\' || i + 1 >= n)
			continue;
		e = t[i + 1];
		if (e == 'a' || e == 'v') {
			v = e == 'a' ? 7 : 11;
			buf_add(&b, t + done, i - done);
			buf_addf(&b, "\\u%04lx", v);
			done = i + 2;
			changed = 1;
		} else if (e == 'x' && (v = jtext_hex(t, n, i + 2, 2)) >= 0) {
			buf_add(&b, t + done, i - done);
			buf_addf(&b, "\\u%04lx", v);
			done = i + 4;
			changed = 1;
		} else if (e == 'U' && (v = jtext_hex(t, n, i + 2, 8)) >= 0 &&
			   v <= 0x10ffff) {
			buf_add(&b, t + done, i - done);
			if (v < 0x10000) {
				buf_addf(&b, "\\u%04lx", v);
			} else {
				v -= 0x10000;
				buf_addf(&b, "\\u%04lx\\u%04lx", 0xd800 + (v >> 10),
					 0xdc00 + (v & 0x3ff));
			}
			done = i + 10;
			changed = 1;
		}
		i++;	/* skip the escaped character (or the escape letter) */
	}
	if (!changed) {
		buf_release(&b);
		return NULL;
	}
	buf_add(&b, t + done, n - done);
	return buf_detach(&b, outlen);
}

/* ---- documents ------------------------------------------------------- */

int
load_json_parse(struct jdoc *j, const char *path, const char *text, size_t len, long line0,
		int go_escapes)
{
	size_t flen = 0;
	char *fixed = go_escapes ? go_unescape(text, len, &flen) : NULL;

	/* NUL is allowed inside strings because Go's \x00 becomes \u0000
	 * above; duplicate keys are refused (no tool writes them, so they
	 * mean a damaged file) */
	if (fixed)
		return jdoc_take(j, path, fixed, flen, line0, JD_NUL);
	return jdoc_load(j, path, text, len, line0, JD_NUL);
}
