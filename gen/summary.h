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
 *               "# units: u1,u2,..." giving units; then one row per record.
 *
 * Recognised columns (target, route, runtime, connections, workers,
 * delay_ms, rps, p50_ms, p99_ms, rss_mb, startup_ms, cpu_ms_per_1k,
 * mj_per_req, mj_per_req_sd, cv, watts, mj_per_mb, average_rps) get units,
 * formatting and charts; others are shown as given.  The result is a
 * results JSON of kind "summary" (see summary.c for its layout).
 */
#ifndef ERG_SUMMARY_H
#define ERG_SUMMARY_H

#include <jansson.h>

/* Read dir (run id id); the results JSON, or NULL after diagnostics. */
json_t *summary_read(const char *dir, const char *id);

#endif
