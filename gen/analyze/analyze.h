/*
 * analyze.h - the published energy-per-request method (energy-method.md
 * §1.3 and §5) applied to an ingested run: window energies, idle floors,
 * per-route figures, request-weighted headlines and summaries across
 * rounds.  Pure computation over the model; diagnostics only for windows
 * the power data cannot cover.
 */
#ifndef ERG_ANALYZE_H
#define ERG_ANALYZE_H

#include "model/model.h"

/* Mean bytes read per request at or above which a route is large-payload. */
#define PER_MB_BYTES_PER_REQ 65536.0

int analyze_run(struct run *r);

#endif
