/*
 * fuzz.h - what erg's fuzz targets share (tests/fuzz/common.c).
 *
 * Every target is one fuzz_<name>.c defining LLVMFuzzerInitialize() and
 * LLVMFuzzerTestOneInput().  Built with clang -fsanitize=fuzzer it is a
 * libFuzzer binary (make fuzz); built with the project's compiler and
 * linked with replay.c it runs each corpus file once (make test).
 *
 * Beyond the sanitizers, the helpers here are oracles: a failed check
 * calls fuzz_fail(), which prints what broke and aborts, so libFuzzer
 * records the input as a crash.
 *   - diagnostics: while fuzz_begin()..fuzz_end() runs, stderr goes to
 *     memory; every line must be one erg diagnostic ("erg: ...: error: "
 *     or "warning: ") without control characters (util.h promises that
 *     untrusted bytes are shown as '?').  ERG_FUZZ_VERBOSE=1 in the
 *     environment leaves stderr alone (for reading a crash).
 *   - escapers: fuzz_escape() sends a string through html_text,
 *     html_attr and html_url and checks what html.h promises.
 */
#ifndef ERG_FUZZ_H
#define ERG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/buf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "fuzz: oracle failed: ..." on the real stderr and abort. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Is oracle TAG switched off by ERG_FUZZ_RELAX (a comma-separated list)?
 * Only for long runs while a known bug is open, so it does not stop every
 * input; never set in make test.  Tags: md-controls (fuzz_md.c).
 */
int fuzz_relaxed(const char *tag);

/* Set quiet warnings and the stderr policy; call once from Initialize. */
void fuzz_init(void);
/* Capture diagnostics of one input; fuzz_end() checks and drops them. */
void fuzz_begin(void);
void fuzz_end(void);
/* fuzz_end(), appending the captured diagnostics to text first (nothing
 * when ERG_FUZZ_VERBOSE leaves stderr alone). */
void fuzz_end_into(struct buf *text);

/* A scratch file in memory (memfd; a file in /dev/shm where there is no
 * memfd).  path names it for open(2). */
struct fuzz_file {
	int fd;
	char path[256];
};
void fuzz_file_open(struct fuzz_file *f, const char *name);
void fuzz_file_set(struct fuzz_file *f, const void *data, size_t len);

/* A private directory in $ERG_FUZZ_TMP, else /dev/shm, $TMPDIR or /tmp,
 * removed at exit (not after a crash: tests/fuzz/run.sh gives each run a
 * parent directory of its own and removes that). */
const char *fuzz_tmpdir(void);
/* Write dir/rel (parents created). */
void fuzz_write(const char *dir, const char *rel, const void *data, size_t len);

/* Escapers: s[0..n) through html_text, html_attr and html_url, checked. */
void fuzz_escape(const char *s, size_t n);
/* fuzz_escape() every string (and key) of a JSON value. */
void fuzz_escape_json(const json_t *v);
/* Is p[0..n) well-formed UTF-8 with only the characters html.h lets out? */
int fuzz_html_chars_ok(const char *p, size_t n);

struct power_file;
/*
 * What erg does with a power file it accepted (escape its strings, format
 * its numbers, integrate windows), checking power.h's contract: kept
 * samples have a positive, finite length and a timestamp, energies are
 * not negative, and end times do not go back in file order.
 */
void fuzz_power_use(struct power_file *pf);

/*
 * The small energy session of tests/tools/mksmall.c (same names, times
 * and figures), written into a fresh directory under fuzz_tmpdir():
 * meta.json, notes.md, timeline.jsonl, power.plist, the bombardier files,
 * and extra load files in the other formats under load/, plus a symbolic
 * link load/escape.json to /etc/hostname.  Returns the run directory.
 */
const char *fuzz_session_fixture(void);

/*
 * A summary run (summary.h) under fuzz_tmpdir(): run.json naming
 * tables/t.csv and tables/u.csv (units line, quoting, CRLF), notes.md, and
 * a link tables/escape.csv to /etc/hostname.  Returns the run directory.
 */
const char *fuzz_summary_fixture(void);

/*
 * Read, check and analyse the run in dir exactly as erg build does
 * (build_process; an energy session, or a summary run when summary is
 * set), escape every string of its results, and, when the templates can
 * be found ($ERG_TEMPLATES, else ./templates), render its pages into a
 * scratch site.  Returns 0 if the run was accepted.
 */
int fuzz_build_run(const char *dir, int summary);

#endif
