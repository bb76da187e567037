/*
 * fuzz_timeline.c - timeline.jsonl of an energy session (session.c), and
 * everything erg does with an accepted run: analysis, design checks,
 * results.json, the escapers over every string in it, and the run's pages
 * when the templates are found.
 *
 * The input replaces timeline.jsonl of the small session of
 * tests/tools/mksmall.c (meta.json, power.plist and the bombardier files
 * stay), so seeds derived from mksmall's timeline reach the analysis.
 * load/wrk.txt and the link load/escape.json (to /etc/hostname) are there
 * for loadFile to name.
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
	fuzz_write(dir, "timeline.jsonl", data, size);
	fuzz_begin();
	fuzz_build_run(dir, 0);
	fuzz_end();
	return 0;
}
