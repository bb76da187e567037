/*
 * fuzz_csv.c - CSV tables of summary runs (csv.c csv_parse, summary.c).
 *
 * The input is first parsed on its own with csv_parse() (every field then
 * goes through the escapers), then it replaces tables/t.csv of a summary
 * run (fuzz_summary_fixture) that is read, turned into results and
 * rendered as erg build does.
 */
#include <stdint.h>
#include <string.h>

#include "ingest/csv.h"
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
	struct csv c;
	size_t i, j;

	fuzz_begin();
	memset(&c, 0, sizeof(c));
	if (csv_parse("fuzz/t.csv", (const char *)data, size, SIZE_MAX, &c) == 0) {
		for (i = 0; i < c.n; i++) {
			if (c.rows[i].line < 1)
				fuzz_fail("csv: row %zu at line %ld", i, c.rows[i].line);
			if (i && c.rows[i].line <= c.rows[i - 1].line)
				fuzz_fail("csv: row %zu at line %ld, after line %ld", i,
					  c.rows[i].line, c.rows[i - 1].line);
			for (j = 0; j < c.rows[i].n; j++)
				fuzz_escape(c.rows[i].f[j], strlen(c.rows[i].f[j]));
		}
		csv_free(&c);
	}
	fuzz_end();
	fuzz_write(dir, "tables/t.csv", data, size);
	fuzz_begin();
	fuzz_build_run(dir, 1);
	fuzz_end();
	return 0;
}
