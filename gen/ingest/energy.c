/* ingest/energy.c - what the energy readers share (see energy.h). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/util.h"
#include "ingest/csv.h"
#include "ingest/energy.h"
#include "ingest/input.h"

#define EL_MAX_LINE (64 * 1024)

const char *
energy_kind_name(int kind)
{
	switch (kind) {
	case EK_PLIST: return "powermetrics";
	case EK_PM_TEXT: return "powermetrics text";
	case EK_POWERCAP: return "powercap-log";
	case EK_CSV: return "power-csv";
	case EK_NVSMI: return "nvidia-smi";
	case EK_PERF: return "perf-stat";
	case EK_TURBOSTAT: return "turbostat";
	case EK_POWERSTAT: return "powerstat";
	case EK_SCAPHANDRE: return "scaphandre";
	default: return "unknown";
	}
}

/* A Scaphandre report first: ['[' space] '{' space "host" */
static int
scaphandre_start(const char *p)
{
	if (*p == '[')
		for (p++; *p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'; p++)
			;
	if (*p++ != '{')
		return 0;
	while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
		p++;
	return !strncmp(p, "\"host\"", 6);
}

int
energy_sniff(const char *path, int *kind)
{
	struct input *in = input_open(path, input_max_stream);
	char b[512];
	long n = 0, r;
	size_t i;

	*kind = EK_UNKNOWN;
	if (!in)
		return -1;
	while (n < (long)sizeof(b) - 1 && (r = input_read(in, b + n, sizeof(b) - 1 - (size_t)n)) > 0)
		n += r;
	input_close(in);
	if (r < 0)
		return -1;
	b[n] = '\0';
	for (i = 0; i < (size_t)n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' ||
				      b[i] == '\t' || b[i] == '\0'); i++)
		;
	if (!strncmp(b + i, "<?xml", 5) || !strncmp(b + i, "<plist", 6) ||
	    !strncmp(b + i, "bplist", 6))
		*kind = EK_PLIST;
	else if (!strncmp(b + i, "# powercap-log ", 15))
		*kind = EK_POWERCAP;
	else if (!strncmp(b + i, "Machine model:", 14) ||
		 !strncmp(b + i, "*** Sampled system activity", 27))
		*kind = EK_PM_TEXT;
	else if (!strncmp(b + i, "time,", 5) || (b[i] == '#' && strstr(b + i, "\ntime,")))
		*kind = EK_CSV;
	else if (!strncmp(b + i, "timestamp, ", 11))
		*kind = EK_NVSMI;
	else if (!strncmp(b + i, "# started on ", 13) ||
		 (b[i] >= '0' && b[i] <= '9' && strstr(b + i, ",Joules,power")))
		*kind = EK_PERF;
	else if (!strncmp(b + i, "turbostat version ", 18) || energy_turbostat_header(b + i))
		*kind = EK_TURBOSTAT;
	else if (scaphandre_start(b + i))
		*kind = EK_SCAPHANDRE;
	else if ((!strncmp(b + i, "Running for ", 12) && strstr(b + i, " second intervals).")) ||
		 (!strncmp(b + i, "Time ", 5) && strstr(b + i, " Watts ")))
		*kind = EK_POWERSTAT;
	return 0;
}

int
energy_read(const char *path, int kind, const struct energy_opts *o, struct power_file *pf)
{
	switch (kind) {
	case EK_NVSMI:
		return energy_read_nvsmi(path, o, pf);
	case EK_PERF:
		return energy_read_perf(path, o, pf);
	case EK_POWERCAP:
		return energy_read_powercap(path, pf);
	case EK_CSV:
		return energy_read_csv(path, pf);
	case EK_TURBOSTAT:
		return energy_read_turbostat(path, o, pf);
	case EK_POWERSTAT:
		return energy_read_powerstat(path, o, pf);
	case EK_PM_TEXT:
		return energy_read_pmtext(path, o, pf);
	case EK_SCAPHANDRE:
		return energy_read_scaphandre(path, pf);
	default:
		return error_at(path, 1, "not a power log erg reads (powermetrics plist, "
				"powercap-log v1, power.csv, nvidia-smi csv, perf stat -x, turbostat, powermetrics text, powerstat, scaphandre json)");
	}
}

int
energy_tz(const char *s, double *ms)
{
	int h, m;

	if (!strcmp(s, "Z")) {
		*ms = 0;
		return 0;
	}
	if (strlen(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' ||
	    s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9' ||
	    s[4] < '0' || s[4] > '9' || s[5] < '0' || s[5] > '9')
		return -1;
	h = (s[1] - '0') * 10 + s[2] - '0';
	m = (s[4] - '0') * 10 + s[5] - '0';
	if (h > 14 || m > 59)
		return -1;
	*ms = (s[0] == '-' ? -1 : 1) * (h * 3600000.0 + m * 60000.0);
	return 0;
}

/* ---- lines ---- */

int
el_open(struct elines *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->b = (struct buf)BUF_INIT;
	l->path = path;
	l->in = input_open_digest(path, input_max_stream);
	return l->in ? 0 : -1;
}

int
el_next(struct elines *l, char **line, size_t *len)
{
	char *nl;
	long r;

	for (;;) {
		nl = memchr(l->b.ptr + l->pos, '\n', l->b.len - l->pos);
		if (nl || l->eof)
			break;
		if (l->pos) {
			buf_consume(&l->b, l->pos);
			l->pos = 0;
		}
		if (l->b.len > EL_MAX_LINE)
			return error_at(l->path, l->line + 1, "line longer than %d bytes",
					EL_MAX_LINE);
		r = input_read(l->in, l->chunk, sizeof(l->chunk));
		if (r < 0)
			return -1;
		if (!r)
			l->eof = 1;
		else
			buf_add(&l->b, l->chunk, (size_t)r);
	}
	if (!nl && l->pos == l->b.len)
		return 0;
	if (!nl) {
		size_t i;

		for (i = l->pos; i < l->b.len && strchr(" \t\r", l->b.ptr[i]); i++)
			;
		if (i < l->b.len)
			l->cut = l->line + 1;
		l->pos = l->b.len;
		return 0;
	}
	*line = l->b.ptr + l->pos;
	*len = (size_t)(nl - *line);
	l->pos += *len + 1;
	l->line++;
	if (*len > EL_MAX_LINE)
		return error_at(l->path, l->line, "line longer than %d bytes", EL_MAX_LINE);
	if (memchr(*line, '\0', *len))
		return error_at(l->path, l->line, "a NUL byte: not a text log");
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	(*line)[*len] = '\0';
	return 1;
}

void
el_close(struct elines *l, struct power_file *pf)
{
	if (l->in) {
		if (!pf || !l->eof || input_digest(l->in, pf->sha256, &pf->file_bytes))
			if (pf)
				pf->sha256[0] = '\0';
		if (pf)
			pf->gzip = input_is_gzip(l->in);
		input_close(l->in);
	}
	buf_release(&l->b);
	l->in = NULL;
}

/* ---- numbers and times ---- */

int
en_uint(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = strlen(s), i;

	if (!n || n > 20 || (s[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/*
 * The logs' numbers are the summary tables' (csv.h): one grammar for
 * every number erg reads from text, so that "1,5", " 12", "0x10", "inf"
 * and "1e999" are refused alike everywhere.
 */
int
en_number(const char *s, double *out)
{
	const char *why;

	return csv_number(s, out, &why);
}

static int
digits(const char *s, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int
en_iso_time(const char *s, double *ms)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, se, zh = 0, zm = 0, sign = 0, leap;
	double frac = 0, scale = 0.1;
	const char *p;

	if (strlen(s) < 19 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) ||
	    s[7] != '-' || digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
	    digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
	    digits(s + 17, 2, &se))
		return -1;
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && !leap) || h > 23 || mi > 59 || se > 59)
		return -1;
	p = s + 19;
	if (*p == '.' || *p == ',') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	if (!*p)
		return -2;
	if (!strcmp(p, "Z")) {
		sign = 0;
	} else if ((*p == '+' || *p == '-') && !digits(p + 1, 2, &zh)) {
		sign = *p == '+' ? 1 : -1;
		p += 3;
		if (*p == ':')
			p++;
		if (*p && (digits(p, 2, &zm) || p[2]))
			return -1;
		if (zh > 23 || zm > 59)
			return -1;
	} else {
		return -1;
	}
	*ms = ((double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + se -
	       sign * (zh * 3600.0 + zm * 60.0)) * 1000.0 + frac * 1000.0;
	return 0;
}

/* ---- samples ---- */

void
en_add_sample(struct power_file *pf, double start_ms, double end_ms, long line,
	      const double *dj)
{
	static const struct psample zero;
	size_t alloc = pf->alloc, d;
	struct psample *s;
	double sum = 0;

	ALLOC_GROW(pf->s, pf->n + 1, pf->alloc);
	if (pf->alloc != alloc)
		pf->dj = xrealloc(pf->dj, pf->alloc * pf->ndom * sizeof(double) + 1);
	s = &pf->s[pf->n];
	*s = zero;
	s->start_ms = start_ms;
	s->end_ms = end_ms;
	s->ts_ms = end_ms;
	s->elapsed_ms = end_ms - start_ms;
	s->pclust_mhz = s->eclust_mhz = NAN;
	s->thermal = THERMAL_ABSENT;
	s->src = PSRC_ENERGY;
	s->no = (uint32_t)line;
	for (d = 0; d < pf->ndom; d++) {
		pf->dj[pf->n * pf->ndom + d] = dj[d];
		if (pf->dom_sum[d])
			sum += dj[d];
	}
	s->joules = sum;
	pf->n++;
	pf->docs++;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median sample interval; INFINITY under 4 samples (no gaps told). */
static double
median_ms(const struct power_file *pf)
{
	double *len, med;
	size_t i;

	if (pf->n < 4)
		return INFINITY;
	len = xmalloc(pf->n * sizeof(*len));
	for (i = 0; i < pf->n; i++)
		len[i] = pf->s[i].elapsed_ms;
	qsort(len, pf->n, sizeof(*len), cmp_double);
	med = len[pf->n / 2];
	free(len);
	return med;
}

double
en_gap_ms(const struct power_file *pf)
{
	return 5 * median_ms(pf);
}

int
en_finish(struct power_file *pf)
{
	struct psample *s = pf->s;
	double med, w;
	char a[NUM_TEXT_LEN];
	size_t i, d, ah = pf->nholes;

	pf->timed = 1;
	pf->fit_a = 0;
	pf->fit_b = 1;
	/* (a gap's energy is not counted: no reading of it is held to be
	 * plausible, so a counter reset while the logger was stopped is
	 * no error) */
	med = median_ms(pf);
	for (i = 0; i < pf->n; i++) {
		if (!(s[i].end_ms > s[i].start_ms))
			return error_at(pf->path, s[i].no, "the interval ending here does not "
					"move forward in time");
		if (i && s[i].start_ms < s[i - 1].end_ms)
			return error_at(pf->path, s[i].no, "time goes backwards: this reading "
					"is before the one at line %u", s[i - 1].no);
		for (d = 0; d < pf->ndom && !(s[i].elapsed_ms > 5 * med); d++) {
			w = power_dom_joules(pf, i, d) / (s[i].elapsed_ms / 1000);
			if (w > EN_MAX_WATTS)
				return error_at(pf->path, s[i].no, "'%s' draws %s W over the "
						"interval ending here: more than 100 kW is no "
						"plausible reading", pf->dom[d], num_text(a, w));
			if (w < 0)
				return error_at(pf->path, s[i].no, "'%s' has negative energy over "
						"the interval ending here", pf->dom[d]);
		}
	}
	/* A logger that stopped leaves one long interval whose energy
	 * (a counter's) or power (a gauge's) cannot be placed in it:
	 * no energy is counted there, and the page says so. */
	if (isfinite(med)) {
		for (i = 0; i < pf->n; i++)
			if (s[i].elapsed_ms > 5 * med) {
				ALLOC_GROW(pf->holes, pf->nholes + 1, ah);
				memset(&pf->holes[pf->nholes], 0, sizeof(pf->holes[0]));
				pf->holes[pf->nholes].at = i;
				pf->holes[pf->nholes].ms = s[i].elapsed_ms;
				pf->holes[pf->nholes].lo_ms = s[i].start_ms;
				pf->holes[pf->nholes].hi_ms = s[i].end_ms;
				pf->holes[pf->nholes].missing =
					(int)floor(s[i].elapsed_ms / med + 0.5) - 1;
				pf->nholes++;
				s[i].joules = NAN;
				for (d = 0; d < pf->ndom; d++)
					pf->dj[i * pf->ndom + d] = NAN;
			}
	}
	/* en_place_dated()'s holes came first: all of them into file order */
	for (i = 1; i < pf->nholes; i++)
		for (d = i; d > 0 && pf->holes[d - 1].at > pf->holes[d].at; d--) {
			struct phole t = pf->holes[d];

			pf->holes[d] = pf->holes[d - 1];
			pf->holes[d - 1] = t;
		}
	if (pf->n) {
		pf->start_hi = s[0].start_ms;
		pf->end_lo = s[pf->n - 1].end_ms;
	}
	return 0;
}

void
en_note(struct power_file *pf, long line, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ALLOC_GROW(pf->notes, pf->nnotes + 1, pf->anotes);
	pf->notes[pf->nnotes].line = line;
	pf->notes[pf->nnotes++].msg = buf_detach(&b, NULL);
}

/*
 * A counted domain without a value in any sample (perf's energy-ram
 * '<not supported>' on every line, an nvidia GPU '[N/A]' throughout)
 * made every sample's joules NAN, and the file "no energy" although the
 * others were read: it is left out of the sum, with a note, when another
 * counted domain has values.
 */
static void
drop_empty_domains(struct power_file *pf)
{
	size_t d, i, nempty = 0, nvalued = 0;
	unsigned char empty[PDOM_MAX] = { 0 };

	if (!pf->dj || !pf->n)
		return;
	for (d = 0; d < pf->ndom; d++) {
		if (!pf->dom_sum[d])
			continue;
		for (i = 0; i < pf->n && isnan(pf->dj[i * pf->ndom + d]); i++)
			;
		empty[d] = i == pf->n;
		nempty += empty[d];
		nvalued += !empty[d];
	}
	if (!nempty || !nvalued)
		return;
	for (d = 0; d < pf->ndom; d++)
		if (empty[d]) {
			pf->dom_sum[d] = 0;
			en_note(pf, 0, "domain '%s' has no value in any sample: left out of "
				"the energy, which is that of the other domains", pf->dom[d]);
		}
	for (i = 0; i < pf->n; i++) {
		double sum = 0;

		for (d = 0; d < pf->ndom; d++)
			if (pf->dom_sum[d])
				sum += pf->dj[i * pf->ndom + d];
		pf->s[i].joules = sum;
	}
}

int
en_end(struct power_file *pf, struct elines *l, int bad, const char *why)
{
	const char *base = strrchr(pf->path, '/') ? strrchr(pf->path, '/') + 1 : pf->path;
	size_t i;

	if (!bad)
		drop_empty_domains(pf);
	if (!bad) {
		for (i = 0; i < pf->n && isnan(pf->s[i].joules); i++)
			;
		if (i == pf->n)
			bad = error_at(pf->path, 0, "no sample in '%s' has energy%s%s%s", base,
				       why ? " (" : "", why ? why : "", why ? ")" : "");
	}
	if (!bad)
		bad = en_finish(pf);
	if (l->cut)
		en_note(pf, l->cut, "the last line has no end (no newline: the logger was "
			"stopped while writing it): left out, not read as the shorter number "
			"it would make");
	el_close(l, bad ? NULL : pf);
	if (bad) {
		power_file_free(pf);
		return -1;
	}
	return 0;
}

int
en_place_dated(struct power_file *pf, const struct en_dated *v, size_t n)
{
	size_t i, k, d, k0 = 0, ah = pf->nholes;
	double lo, hi, c, c2, l2, h2, t, prev_end = NAN, dj[PDOM_MAX];

	while (k0 < n) {
		/* the longest run from k0 whose seconds agree on its start */
		lo = -INFINITY;
		hi = INFINITY;
		c = 0;
		for (i = k0; i < n; i++) {
			c2 = c + v[i].len_ms;
			l2 = fmax(lo, v[i].sec_ms - c2);
			h2 = fmin(hi, v[i].sec_ms + 1000 - c2);
			if (i > k0 && !(l2 < h2))
				break;
			lo = l2;
			hi = h2;
			c = c2;
		}
		t = (lo + hi) / 2;
		if (!isnan(prev_end) && t < prev_end) {
			if (hi <= prev_end)
				return error_at(pf->path, v[k0].line, "this sample's date lies before "
						"the end of the sample before it, by the elapsed "
						"times: the clock stepped back");
			t = prev_end;
		}
		if (!isnan(prev_end) && t > prev_end) {
			ALLOC_GROW(pf->holes, pf->nholes + 1, ah);
			memset(&pf->holes[pf->nholes], 0, sizeof(pf->holes[0]));
			pf->holes[pf->nholes].at = pf->n;
			pf->holes[pf->nholes].ms = t - prev_end;
			pf->holes[pf->nholes].lo_ms = prev_end;
			pf->holes[pf->nholes].hi_ms = t;
			pf->nholes++;
		}
		/* offsets summed apart: Unix ms has 0.24 us steps */
		for (k = k0, c = 0; k < i; k++) {
			for (d = 0; d < pf->ndom; d++)
				dj[d] = v[k].j[d];
			en_add_sample(pf, t + c, t + (c + v[k].len_ms), v[k].line, dj);
			pf->s[pf->n - 1].thermal = v[k].thermal;
			c += v[k].len_ms;
		}
		prev_end = t + c;
		k0 = i;
	}
	return 0;
}
