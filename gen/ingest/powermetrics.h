/*
 * ingest/powermetrics.h - macOS powermetrics streams (`powermetrics -f
 * plist`): read one file of NUL-separated XML plist documents into the
 * compact per-sample records of model/power.h.
 *
 * Only a few MB of the stream are held at a time (one document, or a few
 * 1 MiB batches of them while worker threads parse), so a multi-hour
 * capture (or its .gz) costs memory in proportion to its number of
 * samples, not its size.  Each power.plist* file of a session is read on
 * its own (a resumed session leaves a gap between files); the time fit
 * (analyze/integrate.h) is made per file too.
 */
#ifndef ERG_INGEST_POWERMETRICS_H
#define ERG_INGEST_POWERMETRICS_H

#include "model/power.h"

/*
 * Read and check one powermetrics file (plain or gzip).  pf is
 * overwritten.  Returns 0 (warnings possible: a truncated final document,
 * a sample without timestamp or elapsed time, stray text between
 * elements), or -1 after a located diagnostic, with pf emptied.  Errors:
 * unreadable or corrupt file, a broken document that is not the last
 * one, a value of the wrong type, a number or date outside the grammar of
 * plistfast.h, a negative energy, elapsed_ns <= 0, a key erg reads twice
 * in one dict, hw_model changing, no sample at all, a sample repeated,
 * elapsed_ns that disagrees with the timestamps.  Samples missing from
 * the file (found from the timestamps) are no error: pf->holes lists
 * them, and the time fit leaves their time empty.  Each kept sample is
 * counted with progress_add_samples().
 */
int power_read(const char *path, struct power_file *pf);

/*
 * How power_read parses documents.  POWER_PARSE_AUTO: the fast scanner of
 * plistfast.h, libplist for any document it does not recognise, and for a
 * file of more than one batch (1 MiB) worker threads that scan while the
 * caller reads; POWER_PARSE_SERIAL: the same on the calling thread only;
 * POWER_PARSE_LIBPLIST: libplist for every document (the reference).  All
 * three give the same power_file and the same diagnostics (but after a
 * read error past the first MiB with worker threads: see power.c).  While
 * power_parse_mode is POWER_PARSE_AUTO, the environment variable
 * ERG_POWER_PARSER ("auto", "serial", "libplist") may choose instead.
 */
enum { POWER_PARSE_AUTO = 0, POWER_PARSE_SERIAL = 1, POWER_PARSE_LIBPLIST = 2 };
extern int power_parse_mode;
/* Threads reading one file, the caller included; 0 (default): one per core. */
extern int power_threads;

#endif
