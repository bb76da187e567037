/*
 * results.h - the machine-readable result of one run (results.json): the
 * contract that pages, exports, `erg diff` and users rely on.  Names are
 * stable; fields are only ever added.  Numbers are full precision; a
 * figure that is not known is null (never 0).
 */
#ifndef ERG_RESULTS_H
#define ERG_RESULTS_H

#include <jansson.h>

#include "model/model.h"

json_t *results_json(const struct run *r);

#endif
