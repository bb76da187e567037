/*
 * trials.h - the per-trial tables of a trials run: a run directory with
 * run.json (as a summary run's, summary.h) and trials/NAME.csv or
 * trials/NAME.jsonl, one row (or JSON object per line) per trial.
 *
 * Columns by name: the target ("target", "framework" or "server"), the
 * route ("route", "scenario" or "endpoint"), x columns (the parameters of
 * a sweep: "connections", "workers", "threads", "concurrency", "clients", "vus",
 * "rate", "delay_ms", "payload_bytes", "payload_size", "payload_kb"), the
 * repetition ("repetition", "round", "rep" or "iteration": exactly one
 * is required)
 * and an optional sequence ("sequence", "seq", "trial", "order": the
 * order the trials ran in).  Every other column is a metric when each of
 * its cells is a number (or empty: not reported), a key that names the
 * trial's cell when each is text (a runtime), and an error when it mixes
 * the two (a metric with "n/a" in it would split the cells by it).  Recognised metric names get the
 * units of summary tables; a "# units:" second line (CSV) or run.json
 * "units" gives the others.  Error columns ("errors", "failed",
 * "non_2xx", "timeouts", "*_errors", ...) are metrics that also mark a
 * trial as failed when not 0.  Resource metrics of a process,
 * PROC.cpu_pct or PROC_cpu_pct (and rss_mb, rss_kb, rss_bytes), are
 * recognised, labelled "CPU (PROC)" with their unit.  JSONL objects are flattened with dots
 * ({"latency": {"p99": 3}} is the column "latency.p99"); an array or a
 * boolean is an error.
 *
 * Every number is strict (csv_number's grammar for CSV; JSON numbers for
 * JSONL); a recognised metric, an x or a repetition that is not one is an
 * error at its line, as are an empty target, x or repetition, a
 * repetition that is not a whole number from 0 to 1000000, two columns
 * naming the repetition, and more rows than --max-rows.
 *
 * When each trial ran, for its energy (trials_power): "start_ms" and
 * "end_ms" (Unix epoch ms) or "start" and "end" (ISO 8601 with a zone),
 * kept as epoch ms; one without the other, an empty or unreadable time,
 * a time without a zone and an end not after the start are errors at
 * their line.
 *
 * The result, per file (analyze/trials.c derives the cells):
 *   { "file", "format": "csv"|"jsonl",
 *     "columns": [ {"name", "label", "unit", "recognised", "role",
 *                   "numeric", "error"} ],     role: "target", "route",
 *                   "key", "x", "repetition", "sequence", "start",
 *                   "end" or "metric"
 *     "rows": [ [cell, ...] ], "lines": [line of each row] }
 */
#ifndef ERG_TRIALS_H
#define ERG_TRIALS_H

#include <jansson.h>

#include "model/model.h"

/* Columns of one trials table. */
#define TRIALS_MAX_COLUMNS 256

/*
 * Every trials/NAME.csv and trials/NAME.jsonl of dir, in name order, with
 * units from run.json (may be NULL): an array of tables, NULL when dir
 * has no trials directory.  *bad is set after an error (located, printed).
 */
json_t *trials_read(const char *dir, json_t *units, int *bad);

/*
 * The power data of the trials run in dir into r (zeroed first; free it
 * with run_free): found as a session's is (session_read_power), or the
 * files res "power_files" (run.json "power", checked by summary_read)
 * lists.  Its warnings (files not read, gaps) go to res "warnings".  0
 * (r->npf 0: no power), or -1 after diagnostics.
 */
int trials_power(const char *dir, json_t *res, struct run *r);

#endif
