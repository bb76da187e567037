/*
 * ingest/energy.h - power sources other than the powermetrics plist
 * stream, read into the one sample model of model/power.h: each reader
 * (energy_<source>.c) stamps every sample's interval on the Unix epoch
 * (power_file.timed) and keeps joules per domain.  The formats are in
 * README.md ("Power sources") and ../shared/notes/energy-formats.md.
 *
 * The readers share what is here: a line reader over input.h (plain or
 * gzip, capped, digested as read, one line in memory at a time), strict
 * numbers and ISO 8601 times, and the checks every source gets (one
 * sample after the other, gaps, plausible power, some energy at all).
 */
#ifndef ERG_INGEST_ENERGY_H
#define ERG_INGEST_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/util.h"
#include "model/power.h"

enum energy_kind {
	EK_UNKNOWN = 0,
	EK_PLIST,		/* powermetrics -f plist (ingest/powermetrics.c) */
	EK_PM_TEXT,		/* powermetrics text (the default format) */
	EK_POWERCAP,		/* powercap-log v1 */
	EK_CSV,			/* power.csv */
	EK_NVSMI,		/* nvidia-smi --query-gpu=timestamp,...,power.draw --format=csv */
	EK_PERF,		/* perf stat -a -I MS -x, -e power/energy-... */
	EK_TURBOSTAT,		/* turbostat interval output (tab-separated) */
	EK_POWERSTAT,		/* powerstat -D (RAPL domain columns) */
	EK_SCAPHANDRE		/* scaphandre json (host power, µW) */
};

/* What a run says about its power logs (meta.json). */
struct energy_opts {
	int tz_set;		/* erg.powerTimezone given */
	double tz_ms;		/* its offset from UTC (+02:00: 7200000) */
	int start_set;		/* erg.powerStartMs given */
	double start_ms;	/* Unix ms at which perf stat started counting */
};

/* The kind of path's content (its first bytes, inflated); -1 after a
 * diagnostic (unreadable). */
int energy_sniff(const char *path, int *kind);
const char *energy_kind_name(int kind);

/* Read path as kind (not EK_PLIST) into pf (overwritten); 0, or -1 after
 * a located diagnostic with pf emptied.  o may be NULL (no options). */
int energy_read(const char *path, int kind, const struct energy_opts *o,
		struct power_file *pf);

int energy_read_powercap(const char *path, struct power_file *pf);
int energy_read_csv(const char *path, struct power_file *pf);
int energy_read_nvsmi(const char *path, const struct energy_opts *o, struct power_file *pf);
int energy_read_perf(const char *path, const struct energy_opts *o, struct power_file *pf);
int energy_read_pmtext(const char *path, const struct energy_opts *o, struct power_file *pf);
int energy_read_powerstat(const char *path, const struct energy_opts *o, struct power_file *pf);
int energy_read_scaphandre(const char *path, struct power_file *pf);
int energy_read_turbostat(const char *path, const struct energy_opts *o, struct power_file *pf);
/* 1 if line is a turbostat header: tab-separated, naming a power column */
int energy_turbostat_header(const char *line);
/* "Z", "+HH:MM", "-HH:MM": the offset in ms; -1 if not such a zone. */
int energy_tz(const char *s, double *ms);

/* ---- shared by the readers ---- */

struct input;
struct elines {
	struct input *in;
	const char *path;
	struct buf b;		/* bytes read, not yet consumed */
	size_t pos;
	long line;		/* of the line last returned */
	int eof;
	long cut;		/* a last line without its end, left out, or 0 */
	char chunk[65536];
};

int el_open(struct elines *l, const char *path);
/* The next line (no "\n" or "\r\n"), NUL-terminated in place: 1, 0 at
 * the end, -1 after a diagnostic (a NUL byte, a line over 64 KiB).  A
 * last line that is not ended is a logger stopped mid-write ("1.54"
 * cut to "1"): not returned, its number in l->cut (en_end() makes it a
 * note of pf, which the run's page shows). */
int el_next(struct elines *l, char **line, size_t *len);
/* Close; the digest into pf when the file was read to its end. */
void el_close(struct elines *l, struct power_file *pf);

/* Whole unsigned decimal integer, no sign, no leading zero: 0 or -1. */
int en_uint(const char *s, uint64_t *out);
/* A number of ingest/csv.h's one grammar (csv_number): 0 or -1. */
int en_number(const char *s, double *out);
/*
 * ISO 8601 date and time, YYYY-MM-DD(T| )HH:MM:SS[.fraction] and a zone
 * Z, +HH:MM, +HHMM or +HH: Unix ms in *ms.  0; -1 not such a time; -2 a
 * time without a zone (which erg cannot place on the Unix epoch).
 */
int en_iso_time(const char *s, double *ms);

/* Append a sample [start_ms, end_ms] with dj[0..pf->ndom) joules (NAN:
 * none); joules is the sum of the counted domains (NAN if one is NAN). */
void en_add_sample(struct power_file *pf, double start_ms, double end_ms, long line,
		   const double *dj);
/*
 * After a reader: every sample after the one before, a sample over 5x
 * the median interval (the logger stopped) made a gap (holes, no joules),
 * no domain above 100 kW, the file's span.  0, or -1 after a diagnostic.
 */
int en_finish(struct power_file *pf);
/*
 * The end of every reader: unless bad, some sample must have energy (else
 * "no sample in 'NAME' has energy", with " (why)" when why is given), then
 * en_finish(); l is closed (its digest kept in pf only when all is well),
 * and pf emptied when anything failed.  0, or -1 after a diagnostic.
 */
int en_end(struct power_file *pf, struct elines *l, int bad, const char *why);
/* A warning for the run's page (pf->notes), at line (0: the file). */
void en_note(struct power_file *pf, long line, const char *fmt, ...) PRINTF(3, 4);
/* The interval above which en_finish() makes a sample a gap (5x the
 * median; INFINITY under 4 samples): a reader's checks of a counter
 * across the interval do not apply there (its energy is not counted). */
double en_gap_ms(const struct power_file *pf);

/*
 * A sample dated to the second (powermetrics text, powerstat): the
 * second (Unix ms) in which it ends, its length, its joules per domain of
 * pf (NAN: none).
 */
#define EN_DATED_DOMS 8
struct en_dated {
	long line;
	double sec_ms, len_ms;
	double j[EN_DATED_DOMS];
	signed char thermal;
};
/*
 * Add v to pf, end to end by their lengths, each ending within its
 * second: a run of samples starts in the middle of what all their seconds
 * allow.  A sample whose second does not fit the lengths before it
 * (missing samples, a clock step) starts a new run after the one before,
 * the time between a hole (listed on the page); an error when it must lie
 * before the end of the one before.  0, or -1 after a diagnostic.
 */
int en_place_dated(struct power_file *pf, const struct en_dated *v, size_t n);

#define EN_MAX_WATTS 1e5

#endif
