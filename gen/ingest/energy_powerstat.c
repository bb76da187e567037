/*
 * ingest/energy_powerstat.c - `powerstat -D [-R] [-c] [-f] [delay
 * [count]]` (energy-formats.md §2):
 *
 *     Running for 60.0 seconds (30 samples at 2.0 second intervals).
 *     Power measurements will start in 0 seconds time.
 *
 *       Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts uncore   core  pkg-0  CPU Freq
 *     10:00:09   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.28   0.21   2.86   5.28  2.27 GHz
 *     -------- ----- ----- ----- ----- ----- ---- ------ ------ ------ ------ ------ ------ ---------
 *      Average  12.1 ...
 *
 * Columns are split at spaces and read by the header's names; the header
 * repeats (every ~23 rows when stdout is not a tty).  The rows end at the
 * first '--------' line (the summary follows).  -D prints a column per
 * RAPL domain after Watts: pkg-N is "package-N" and dram "dram" (they
 * count), core and uncore are inside a package (reported only), psys
 * counts alone.  Watts itself is not read: depending on the version it is
 * the package alone or every zone summed, core and uncore too; without
 * -D columns the file is an error.  A row whose Watts carries the 'E'
 * flag (an inaccurate reading, such as the first) has no energy.
 *
 * Time: HH:MM:SS, local wall-clock time at the row's end, no date and no
 * zone: erg.powerTimezone gives the zone and erg.powerStartMs the start,
 * so the first row is the first such time after it (a time that goes
 * back is the next day).  Each row is a mean power over the 'second
 * intervals' of the 'Running for' line; the rows lie end to end by it,
 * each ending within its second (en_place_dated()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ingest/energy.h"

#define PS_FIELDS 64

/* Split line at runs of spaces into f (at most PS_FIELDS); the count,
 * PS_FIELDS + 1 when there are more. */
static size_t
split_spaces(char *line, char **f)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			return n;
		if (n == PS_FIELDS)
			return n + 1;
		f[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
}

/* "10:00:09": seconds of the day; -1 if not such */
static long
hms(const char *s)
{
	long h, m, sec;
	int i;

	if (strlen(s) != 8 || s[2] != ':' || s[5] != ':')
		return -1;
	for (i = 0; i < 8; i++)
		if (i != 2 && i != 5 && (s[i] < '0' || s[i] > '9'))
			return -1;
	h = (s[0] - '0') * 10 + s[1] - '0';
	m = (s[3] - '0') * 10 + s[4] - '0';
	sec = (s[6] - '0') * 10 + s[7] - '0';
	if (h > 23 || m > 59 || sec > 59)
		return -1;
	return h * 3600 + m * 60 + sec;
}

/* A -D column's domain (into name); 0 if the column is no RAPL domain */
static int
domain_col(const char *col, char *name, size_t size)
{
	if (!strncmp(col, "pkg-", 4) && col[4] >= '0' && col[4] <= '9') {
		snprintf(name, size, "package-%s", col + 4);
		return 1;
	}
	if (!strcmp(col, "dram") || !strcmp(col, "core") || !strcmp(col, "uncore") ||
	    !strcmp(col, "psys")) {
		snprintf(name, size, "%s", col);
		return 1;
	}
	return 0;
}

int
energy_read_powerstat(const char *path, const struct energy_opts *o, struct power_file *pf)
{
	char *line, *f[PS_FIELDS + 1], *header = NULL, *p, name[32];
	size_t len, nf, ncol = 0, k, d, nv = 0, av = 0, cw = SIZE_MAX, dcol[EN_DATED_DOMS];
	struct en_dated *v = NULL, *cur;
	double iv_s = NAN, w, day_ms = 0, prev_ms = NAN;
	long sec, prev_sec = -1;
	int bad = 0, r, flag, psys = 0;
	struct elines l;

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "powerstat";
	pf->caveat = "RAPL through powerstat: processor package and DRAM as the CPU "
		     "estimates them, no PSU, board, disk or fan power; rows dated to the "
		     "second and printed to 10 mW";
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (!header && !strncmp(line, "Running for ", 12)) {
			/* "Running for 60.0 seconds (30 samples at 2.0 second intervals)." */
			p = strstr(line, " samples at ");
			if (p) {
				char num[32];
				size_t n = strcspn(p + 12, " ");

				if (n < sizeof(num) && !strcmp(p + 12 + n, " second intervals).")) {
					memcpy(num, p + 12, n);
					num[n] = '\0';
					if (en_number(num, &iv_s) || !(iv_s > 0))
						iv_s = NAN;
				}
			}
			if (isnan(iv_s)) {
				bad = error_at(path, l.line, "not 'Running for N seconds (N samples "
					       "at N second intervals).'");
				break;
			}
			continue;
		}
		if (!strncmp(line, "--------", 8) && header)
			break;	/* the summary follows */
		p = line + strspn(line, " ");
		if (!strncmp(p, "Time ", 5)) {
			if (header) {
				if (strcmp(line, header)) {
					bad = error_at(path, l.line, "a header unlike the first");
					break;
				}
				continue;
			}
			header = xstrdup(line);
			nf = split_spaces(line, f);
			if (nf > PS_FIELDS) {
				bad = error_at(path, l.line, "more than %d columns", PS_FIELDS);
				break;
			}
			ncol = nf;
			for (k = 0; k < nf; k++) {
				if (!strcmp(f[k], "Watts")) {
					cw = k;
					continue;
				}
				if (cw == SIZE_MAX || !domain_col(f[k], name, sizeof(name)))
					continue;
				for (d = 0; d < pf->ndom && strcmp(pf->dom[d], name); d++)
					;
				if (d < pf->ndom || d == EN_DATED_DOMS) {
					bad = error_at(path, l.line, d < pf->ndom ? "column '%s' twice" :
						       "more than 8 domain columns", f[k]);
					break;
				}
				power_add_domain(pf, name, !power_dom_subzone(name));
				psys |= !strcmp(name, "psys");
				dcol[d] = k;
			}
			if (!bad && cw == SIZE_MAX)
				bad = error_at(path, l.line, "no 'Watts' column: record with -R or -D");
			else if (!bad && !pf->ndom)
				bad = error_at(path, l.line, "no RAPL domain columns: record with -D "
					       "(Watts alone may count core and uncore inside the "
					       "package again)");
			for (d = 0; psys && d < pf->ndom; d++)
				pf->dom_sum[d] = !strcmp(pf->dom[d], "psys");
			continue;
		}
		if (!header || !*p)
			continue;	/* the preamble, blank lines */
		nf = split_spaces(line, f);
		if (nf != ncol) {
			/* powerstat killed mid-line leaves a short last line */
			if (nf < ncol && l.eof && l.pos == l.b.len) {
				warn_at(path, l.line, "%zu fields, the header has %zu: a cut last "
					"line, left out", nf, ncol);
				break;
			}
			bad = error_at(path, l.line, "%zu fields, the header has %zu", nf, ncol);
			break;
		}
		if ((sec = hms(f[0])) < 0) {
			bad = error_at(path, l.line, "time '%s' is not HH:MM:SS", f[0]);
			break;
		}
		if (!o || !o->tz_set || !o->start_set) {
			bad = error_at(path, l.line, "time '%s' has no date and no zone (powerstat "
				       "writes local time of day): give meta.json "
				       "erg.powerTimezone and erg.powerStartMs", f[0]);
			break;
		}
		if (isnan(iv_s)) {
			bad = error_at(path, l.line, "no interval length: erg needs powerstat's "
				       "'Running for' line");
			break;
		}
		if (isnan(prev_ms)) {
			/* the first HH:MM:SS at or after the start, local day
			 * boundaries by the zone */
			double local = o->start_ms + o->tz_ms;

			day_ms = floor(local / 86400000.0) * 86400000.0 - o->tz_ms;
			prev_ms = day_ms + sec * 1000.0;
			if (prev_ms < o->start_ms - 1000)
				prev_ms += 86400000.0;
		} else {
			prev_ms += (double)((sec - prev_sec + 86400) % 86400) * 1000.0;
			/* (at powerstat's shortest delay, 0.5 s, two rows end
			 * within one second) */
			if (sec == prev_sec && iv_s >= 1) {
				bad = error_at(path, l.line, "time '%s' again", f[0]);
				break;
			}
		}
		prev_sec = sec;
		ALLOC_GROW(v, nv + 1, av);
		cur = &v[nv++];
		cur->line = l.line;
		cur->sec_ms = prev_ms;
		cur->len_ms = iv_s * 1000;
		cur->thermal = THERMAL_ABSENT;
		len = strlen(f[cw]);
		flag = len && f[cw][len - 1] == 'E';
		if (flag)
			f[cw][len - 1] = '\0';
		if (en_number(f[cw], &w) || w < 0) {
			bad = error_at(path, l.line, "Watts '%s' is not a number", f[cw]);
			break;
		}
		for (d = 0; d < pf->ndom; d++) {
			if (en_number(f[dcol[d]], &w) || w < 0) {
				bad = error_at(path, l.line, "%s '%s' is not a number of watts",
					       pf->dom[d], f[dcol[d]]);
				break;
			}
			cur->j[d] = flag ? NAN : w * iv_s;
		}
	}
	if (!bad && r < 0)
		bad = -1;
	if (!bad && !header)
		bad = error_at(path, 0, "no powerstat header ('Time User Nice ...')");
	if (!bad && !nv)
		bad = error_at(path, 0, "no powerstat row");
	if (!bad)
		bad = en_place_dated(pf, v, nv);
	free(v);
	free(header);
	return en_end(pf, &l, bad, NULL);
}
