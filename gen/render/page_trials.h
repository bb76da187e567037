/*
 * page_trials.h - the run page of a trials run (results "kind":
 * "trials": ingest/trials.c, analyze/trials.c): per trials table the
 * cells with the author's centre (run.json "centre": median with the
 * min-max of the repetitions, or mean +- SD), every statistic per cell
 * (n, mean, SD, CV, median, min, max, 95 % CI), the design checks
 * (repetitions per cell, failed trials, drift with trial order), and
 * charts: the centre against each x column, one line per target with a
 * min-max band, or grouped bars when there is no x column.
 *
 * Writes runs/<id>/index.html (templates/trials.html), per table
 * trials-NAME.csv (the trials as read) and cells-NAME.csv (the
 * statistics), and tables.md.  0, or -1 after a diagnostic.
 */
#ifndef ERG_PAGE_TRIALS_H
#define ERG_PAGE_TRIALS_H

#include <jansson.h>

#include "render/page_run.h"

int render_trials_run(struct render_ctx *c, json_t *res);

#endif
