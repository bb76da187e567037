/*
 * fuzz_meta.c - meta.json of an energy session (session.c read_meta,
 * base/json.c), then everything erg does with an accepted run, as
 * fuzz_timeline.c: analysis, checks, results.json, the escapers over
 * every string, and the pages when the templates are found.
 *
 * The input replaces meta.json of the small session of tests/tools/
 * mksmall.c; notes.md is there for "notes" to name (and "notes" may name
 * load/escape.json, a link to /etc/hostname).
 */
#include "fuzz.h"

static const char *dir;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	dir = fuzz_session_fixture();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(dir, "meta.json", data, size);
	fuzz_begin();
	fuzz_build_run(dir, 0);
	fuzz_end();
	return 0;
}
