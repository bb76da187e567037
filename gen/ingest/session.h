/*
 * session.h - ingest of one energy session in the energy runner's layout:
 * meta.json, timeline.jsonl, power.plist[.N][.gz] and the load generator's
 * files (bombardier/r{round}-s{slot}-{framework}-{route}.json or loadFile).
 * Fills the input half of struct run; analyze.c does the rest.
 */
#ifndef ERG_SESSION_H
#define ERG_SESSION_H

#include "model/model.h"

/* Is dir an energy session: does it hold meta.json or timeline.jsonl, of
 * whatever type (as archive.h tells runs)?  session_read() says what is
 * wrong with them: a FIFO or a dangling link is no "not a run". */
int session_detect(const char *dir);
/* Read everything; 0, or -1 after diagnostics (r is then freed by caller). */
int session_read(const char *dir, const char *id, struct run *r);
/*
 * The power files of dir into r->pf, found as a session's are (the plist
 * stream and the logs named in README.md "Power sources"), or those
 * r->meta erg.power lists; sources joined and checked.  0 (r->npf may be
 * 0: no power), or -1 after diagnostics.  A trials run reads its power
 * through this too (ingest/trials.c).
 */
int session_read_power(struct run *r, const char *dir);

#endif
