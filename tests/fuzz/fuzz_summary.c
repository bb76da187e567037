/*
 * fuzz_summary.c - run.json of a summary run (summary.c summary_read),
 * then results and pages as erg build makes them.  The input replaces
 * run.json of fuzz_summary_fixture(), whose tables/t.csv, tables/u.csv,
 * notes.md and the link tables/escape.csv (to /etc/hostname) are there
 * for it to name.
 */
#include "fuzz.h"

static const char *dir;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	dir = fuzz_summary_fixture();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(dir, "run.json", data, size);
	fuzz_begin();
	fuzz_build_run(dir, 1);
	fuzz_end();
	return 0;
}
