/*
 * compare.h - the comparison of two runs behind `erg diff` and the site's
 * diff pages: a JSON document computed from two results documents, with
 * no I/O and no formatting (render/diff_*.c format it).
 *
 * First the environment (machine, software, load settings, room
 * temperature, energy source, rounds): every difference is listed, with a
 * warning when the machines differ and energy is compared.  Then, per
 * target present in both runs (names matched by their keys, ingest/
 * targets.h: ignoring ASCII case, through the aliases; a row names the
 * target as A spells it) (headline and per route) and per metric,
 * over the per-round values of results.measurements:
 *     A and B mean +- SD (n)       sample SD (n - 1)
 *     delta % = (mean B / mean A - 1) * 100
 *     95 % CI of mean B / mean A   percentile bootstrap over rounds,
 *                                  COMPARE_RESAMPLES resamples, seed
 *                                  COMPARE_SEED
 *     p                            two-sided Mann-Whitney U (exact, see
 *                                  stats_mann_whitney)
 *     verdict                      "~" when p > COMPARE_ALPHA, else
 *                                  "%+.2f%%" of delta; "?" when even
 *                                  complete separation could not reach
 *                                  COMPARE_ALPHA (stats_mw_min_p) or
 *                                  mean A is 0
 * and a geometric-mean row over the targets of each metric.  When A and B
 * are the same data (same run directory, or identical measurements) no
 * statistics are run: delta 0, CI exactly [1, 1], verdict "~", and the
 * document says so.
 *
 * With a summary run (results "kind": "summary", figures as published) on
 * either side there is one value per cell and nothing to test.  Each
 * side becomes cells: a summary run's every number of every measuring
 * column of its tables (mj_per_req with the SD of mj_per_req_sd), an
 * energy session's per-round values as above.  Cells are matched by
 * (metric, target, route, x value): the target is the "target" column, or
 * "column: value" of the first other key or text column (a phase), or ""
 * when a table has neither; other key columns (runtime) join the target
 * only where rows would otherwise collide; x is the table's x column (a
 * sweep over connections or workers).  p50_ms/p99_ms and
 * latency_p50_us/latency_p99_us are the same metrics in other units, so
 * they meet and are listed as not comparable.  A row gives each side's
 * value (published: as given, with its published SD; session: mean +- SD
 * (n)), delta % and B/A; no CI, no p; verdict COMPARE_NO_TEST_VERDICT;
 * "rounded_twice" when the published figure is the recomputed one rounded
 * via an intermediate rounding (compare_rounded_twice()), else null.
 * Cells whose units differ are not compared but listed; a cell given
 * twice on one side is not compared (a note says so).  Identical tables
 * of two summary runs are the same data.  The document then carries the
 * sentence in "no_significance".
 *
 * The document (the --format json output of `erg diff`):
 *
 *   { "format": "erg-diff/1",
 *     "a": { "run", "dir", "kind", "title", "captured_at", "machine",
 *            "rounds" (null: a summary run) },
 *     "b": { ... },
 *     "same_data": bool, "same_data_reason": string or null,
 *     "method": { "alpha", "summary", "delta", "ratio_ci": { "level",
 *                 "method", "resamples", "seed" }, "test" }
 *               (summary runs: alpha, ratio_ci and test null, "ratio"),
 *     "environment": { "compared": [group...], "differences": [ { "group",
 *                      "field", "a", "b" } ], "machines_differ": bool },
 *     "no_significance": string (a summary run on either side) or null,
 *     "warnings": [string], "notes": [string],
 *     "only_in_a": { "targets": [name], "routes": [ { "target", "route" } ],
 *                    "metrics": [ { "metric", "unit" } ] },
 *     "only_in_b": { ... },
 *     "not_comparable": [ { "metric", "metric_b", "target", "route", "x",
 *                           "unit_a", "unit_b" } ],
 *     "rows": [ { "metric", "unit", "target", "route" (null: headline),
 *                 "a": { "mean", "sd", "n", "values": [...] }, "b": { ... },
 *                 "delta_pct", "ratio_ci95": [lo, hi], "p", "verdict" } ],
 *     "geomeans": [ { "metric", "unit", "route", "targets", "a", "b",
 *                     "delta_pct" } ],
 *     "summary": { "rows", "significant", "not_significant", "undecided",
 *                  "not_tested" } }
 * Rows of a comparison with a summary run also have "label", "x" (null,
 * or { "column", "label", "unit", "value" }), "ratio", "metric_b" (when
 * B names the metric otherwise), and sides with "published" and "table";
 * their "ratio_ci95" and "p" are null.  Rows come grouped by table
 * (metric, route, x column and unit, in output order); each table has one
 * geomeans entry.  Numbers that are not known are null.
 */
#ifndef ERG_COMPARE_H
#define ERG_COMPARE_H

#include <jansson.h>

#define COMPARE_ALPHA 0.05
#define COMPARE_RESAMPLES 10000u
#define COMPARE_SEED 1u
#define COMPARE_NO_TEST_VERDICT "n/a (one value per cell)"

/*
 * Compare two results documents (borrowed; as cmd/build.c's
 * build_process() makes them).  same_reason: non-NULL when the caller
 * knows A and B are the same run ("same run directory"); identical
 * measurements are detected here.  id_a/dir_a, id_b/dir_b are the runs'
 * names as shown (dir may be NULL; invalid UTF-8 and controls become
 * '?').  Returns the document (new reference); never NULL.
 */
json_t *compare_runs(json_t *a, const char *id_a, const char *dir_a, json_t *b,
		     const char *id_b, const char *dir_b, const char *same_reason);
/*
 * The same, matching targets by their keys (ingest/targets.h): names
 * equal but for ASCII case, or made one by each run's "aliases" and by
 * the archive's table ta (NULL: none), are one target.  compare_runs()
 * uses no archive table; the run's own aliases and case still apply.  A
 * row names the target as A spells it.
 */
struct target_aliases;
json_t *compare_runs_in(json_t *a, const char *id_a, const char *dir_a, json_t *b,
			const char *id_b, const char *dir_b, const char *same_reason,
			const struct target_aliases *ta);

/*
 * "Published value rounded twice": published is a figure's text with d
 * decimals ("0.1241"), v the value recomputed from the raw data
 * (0.124046).  v rounded to d decimals in one step is once ("0.1240");
 * v rounded first to d + k decimals (k = 1, 2, 3; "0.12405") and that
 * decimal text then to d decimals, half away from zero, is twice
 * ("0.1241").  Returns the smallest k for which twice equals published
 * while once does not, with the intermediate text in via[0..cap) and
 * the one-step text in once[0..cap); 0 when once equals published, when
 * no such k exists, or when published is not a plain decimal (digits,
 * an optional sign and point, ',' grouping).  A row whose published
 * side and recomputed side differ only so gets "rounded_twice" {via,
 * once, published} in the document.
 */
int compare_rounded_twice(const char *published, double v, char *via, char *once, size_t cap);

/* The heading of a metric compare_runs() knows ("energy per request"),
 * of the headline or of a route; NULL for any other name. */
const char *compare_metric_label(const char *name, int headline);

#endif
