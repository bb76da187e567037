/*
 * test_diag.c - diagnostics from several threads: each thread's capture
 * buffer gets its own lines, and a reader's "did I report an error?"
 * (diag_thread_errors) is not disturbed by errors other threads report.
 *
 * The second property is what `erg check -j N` relies on: before it held,
 * a run that read its timeline while another run reported an error gave
 * up early and never reported its own mismatch (6 of 40 runs of
 * tests/sh/jobs.sh's archive lost a line).
 *
 * And the sanitising of every message: controls and bidirectional
 * controls from untrusted names are one '?' each.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "harness.h"

struct job {
	struct buf out;
	const char *path;
	int n;			/* errors to report */
	int counted;		/* diag_thread_errors() afterwards */
	pthread_barrier_t *go;
};

static void *
reporter(void *arg)
{
	struct job *j = arg;
	int i;

	diag_capture(&j->out);
	pthread_barrier_wait(j->go);
	for (i = 0; i < j->n; i++)
		error_at(j->path, i + 1, "problem %d", i + 1);
	warn_at(j->path, 0, "a warning is not an error");
	j->counted = diag_thread_errors();
	diag_capture(NULL);
	return NULL;
}

static void
test_threads(void)
{
	pthread_barrier_t go;
	pthread_t t[2];
	struct job j[2] = {
		{ BUF_INIT, "a/timeline.jsonl", 3, -1, &go },
		{ BUF_INIT, "b/timeline.jsonl", 5, -1, &go },
	};
	int mine0 = diag_thread_errors(), all0 = diag_errors, i, ok;

	diag_quiet_warnings = 0;
	pthread_barrier_init(&go, NULL, 3);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, reporter, &j[i]))
			abort();
	pthread_barrier_wait(&go);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&go);

	CHECK(j[0].counted == 3, "thread a counts its own 3 errors (got %d)", j[0].counted);
	CHECK(j[1].counted == 5, "thread b counts its own 5 errors (got %d)", j[1].counted);
	CHECK(diag_thread_errors() == mine0,
	      "the main thread's count is untouched by the workers' errors (%d -> %d)",
	      mine0, diag_thread_errors());
	CHECK(diag_errors - all0 == 8, "the global count has all 8 (got %d)", diag_errors - all0);
	ok = j[0].out.len && !strcmp(j[0].out.ptr,
		"erg: a/timeline.jsonl:1: error: problem 1\n"
		"erg: a/timeline.jsonl:2: error: problem 2\n"
		"erg: a/timeline.jsonl:3: error: problem 3\n"
		"erg: a/timeline.jsonl: warning: a warning is not an error\n");
	CHECK(ok, "thread a's buffer holds exactly its own lines%s%s",
	      ok ? "" : ", got: ", ok ? "" : j[0].out.ptr);
	CHECK(j[1].out.len && strstr(j[1].out.ptr, "b/timeline.jsonl:5: error: problem 5\n") &&
	      !strstr(j[1].out.ptr, "a/timeline"),
	      "thread b's buffer holds its own lines and none of a's");
	for (i = 0; i < 2; i++)
		buf_release(&j[i].out);
}

static void
test_same_thread(void)
{
	struct buf b = BUF_INIT;
	int e0 = diag_thread_errors(), ok;

	diag_capture(&b);
	error_off("p.plist", 1234, "bad");
	error("plain");
	diag_capture(NULL);
	CHECK(diag_thread_errors() == e0 + 2, "errors on this thread are counted on it");
	ok = b.len && !strcmp(b.ptr, "erg: p.plist:@1234: error: bad\nerg: error: plain\n");
	CHECK(ok, "the capture holds both lines, located%s%s", ok ? "" : ", got: ",
	      ok ? "" : b.ptr);
	buf_release(&b);
}

/* Each line the printer would write for a message holding s. */
static void
check_sanitised(const char *s, const char *want, const char *what)
{
	struct buf b = BUF_INIT, w = BUF_INIT;

	diag_capture(&b);
	error_at(s, 7, "name '%s'", s);
	diag_capture(NULL);
	buf_addf(&w, "erg: %s:7: error: name '%s'\n", want, want);
	CHECK(!strcmp(b.ptr, w.ptr), "%s: got [%s]", what, b.ptr);
	buf_release(&b);
	buf_release(&w);
}

static void
test_sanitise(void)
{
	check_sanitised("a\tb\nc\x1b[31m\x7f", "a?b?c?[31m?", "C0 controls and DEL, one '?' each");
	check_sanitised("x\xc2\x85y\xc2\x9bz\xc2\xa0", "x?y?z\xc2\xa0",
			"C1 controls (NEL, CSI) one '?' each; U+00A0 stays");
	check_sanitised("evil\xe2\x80\xaegpj.exe", "evil?gpj.exe", "U+202E RLO is a '?'");
	check_sanitised("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x81\xa6"
			"\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", "????????",
			"U+202A..U+202D and U+2066..U+2069: one '?' each");
	check_sanitised("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80\x8f\xd7\x90",
			"\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xe2\x80\x8f\xd7\x90",
			"neighbours stay: U+2029, U+202F, U+2065, U+206A, RLM, Hebrew alef");
	check_sanitised("\xe2\x80", "\xe2\x80", "a truncated sequence at the end stays");
	check_sanitised("caf\xc3\xa9 \xe6\x97\xa5", "caf\xc3\xa9 \xe6\x97\xa5", "UTF-8 text stays");
}

int
main(void)
{
	test_sanitise();
	test_same_thread();
	test_threads();
	return th_done();
}
