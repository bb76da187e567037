/*
 * summary.h - summary runs: figures as published elsewhere, with no raw
 * files.  A run directory holding run.json and tables/NAME.csv:
 *
 *   run.json  { "title", "date", "machine": {id, model, chip, cores, memory,
 *               os}, "software": {...}, "load": {tool, connections,
 *               duration, ...}, "conditions": {...}, "source": {title, url,
 *               published, note}, "notes": "notes.md", "caveats": [...],
 *               "units": {column: unit}, "tables": [{file, title, caption}] }
 *   tables/X.csv  a header row naming columns; an optional second line
 *               "# units: u1,u2,..." giving one unit per column; then one
 *               row per record.  Number cells follow csv_number() (csv.h);
 *               an empty cell is "not reported".
 *
 * Recognised columns (target, route, runtime, connections, workers,
 * delay_ms, rps, p50_ms, p99_ms, rss_mb, startup_ms, cpu_ms_per_1k,
 * mj_per_req, mj_per_req_sd, cv, watts, mj_per_mb, average_rps) get units,
 * formatting and charts; others are shown as given.  The result is a
 * results JSON of kind "summary" (see summary.c for its layout).
 */
#ifndef ERG_SUMMARY_H
#define ERG_SUMMARY_H

#include <stddef.h>

#include <jansson.h>

/*
 * Rows of one table (after the header and units lines), --max-rows: a
 * table over it is refused before it is turned into JSON, having parsed
 * no further.  100,000 rows of five columns are ~3 MB of CSV, a 21 MB
 * page and ~120 MB at the peak of a build (2.4 s here): still a page a
 * browser opens.  Published tables have tens of rows.
 */
#define SUMMARY_MAX_ROWS 100000
extern size_t summary_max_rows;
/*
 * A table of more rows is shown as a table only: no charts, and no
 * figures for the cross-run views (a note says so), which compare targets
 * and routes side by side; the largest published table has ~100 rows.
 */
#define SUMMARY_VIEW_MAX_ROWS 1000

/* A column summary tables recognise: 1 with its label, unit and role
 * ("key", "x" or "metric"), else 0 (trials.c reads the same names). */
int summary_column(const char *name, const char **label, const char **unit, const char **role);

/* Read dir (run id id); the results JSON, or NULL after diagnostics. */
json_t *summary_read(const char *dir, const char *id);

#endif
