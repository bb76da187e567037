/*
 * trials.h - the statistics of a trials run (results "kind": "trials",
 * tables read by ingest/trials.c): the trials of each cell (target,
 * route, other key columns, x values) over its repetitions, and the
 * design checks that apply.  Adds to each table of res "trials":
 *
 *   "groups": [ { "target", "route" (null), "keys": {col: text},
 *                 "x": {col: value}, "trials", "label" } ]
 *   "cells":  [ { "group", "metric", "label", "unit", "values" (in
 *                 repetition order), "repetitions", "n", "mean", "sd",
 *                 "cv", "median", "min", "max", "ci95": [lo, hi] } ]
 *   "x_columns": [name], "metrics": [name], "primary": name
 *   "checks": { "repetitions": { "ok", "min", "max", "unequal": [label] },
 *               "failed": { "applies", "ok", "trials", "of", "columns",
 *                           "lines" },
 *               "drift": { "applies", "ok", "column", "metric", "rho",
 *                          "n", "threshold" } }
 *   "energy" (with power data and start/end columns): { "source",
 *             "requests": "column" | "rps" | "none", "net": false,
 *             "coverage": [per row], "min_coverage", "threshold", "low",
 *             "low_lines": [line] }, and the metrics "energy_j",
 *             "mean_w" and "mj_per_req" appended to "columns" and to
 *             every row (so their cells get the statistics above)
 *
 * and to res "rounds" (the most repetitions of a cell) and "targets"
 * (names, and per route the throughput of tables without x or key
 * columns, for the cross-run views).  SD is the sample SD (n - 1), the
 * CI the 95 % Student-t interval of the mean (stats.h).
 */
#ifndef ERG_ANALYZE_TRIALS_H
#define ERG_ANALYZE_TRIALS_H

#include <jansson.h>

#include "model/power.h"

/* |Spearman rho| of trial order against a trial's value relative to its
 * cell's mean at or above which drift is flagged (with at least
 * TRIALS_DRIFT_MIN_N trials). */
#define TRIALS_DRIFT_RHO 0.5
#define TRIALS_DRIFT_MIN_N 6

/* Derive the above in res (dir: the run directory, for messages).  0, or
 * -1 after a located error (a repetition of a cell given twice). */
int trials_analyze(json_t *res, const char *dir);

/* A trial's energy coverage below this is flagged on the page. */
#define TRIALS_MIN_COVERAGE 0.95

/*
 * The same with the run's power data (ingest/trials.h trials_power): each
 * trial's window energy, mean power and mJ/req, gross.  -1 also after a
 * located error at a trial outside the power data, or a table without
 * start/end columns in a run with power.
 */
int trials_analyze_power(json_t *res, const char *dir, const struct power_file *pf,
			 size_t npf);

#endif
