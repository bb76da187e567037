/*
 * checks.h - design checks and diagnostics of a session ("can these
 * numbers be trusted?"): ordering design, position bias, session drift,
 * idle drift, restatement, throttling, coverage (energy-method.md §1.3
 * validation block, §1.5, §4.4, §5.8-5.11).  Returns the "validation"
 * object of results.json.
 */
#ifndef ERG_CHECKS_H
#define ERG_CHECKS_H

#include <jansson.h>

#include "model/model.h"

json_t *checks_run(const struct run *r);

#endif
