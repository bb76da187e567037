/*
 * templates.h - where the template directory is, for every command that
 * renders (build, diff --format html).
 */
#ifndef ERG_TEMPLATES_H
#define ERG_TEMPLATES_H

#include "base/buf.h"

/*
 * The directory given (--templates), else $ERG_TEMPLATES, else beside the
 * binary (build/erg -> templates/, bin/erg -> share/erg/templates), else
 * ./templates, into out.  0 when it is a directory, else -1 (out names
 * the last one tried).
 */
int templates_find(const char *given, struct buf *out);

#endif
