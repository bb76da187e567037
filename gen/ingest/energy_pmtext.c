/*
 * ingest/energy_pmtext.c - macOS `powermetrics` text output, the default
 * format (energy-formats.md §1):
 *
 *     Machine model: MacBookPro18,1
 *     OS version: 22G91
 *     *** Sampled system activity (Wed Jan 24 18:34:49 2024 -0500) (111.75ms elapsed) ***
 *     ...
 *     CPU Power: 143 mW
 *     GPU Power: 0 mW
 *     ANE Power: 0 mW
 *     Combined Power (CPU + GPU + ANE): 143 mW
 *     ...
 *     GPU Power: 0 mW
 *
 * A sample runs from its header to the next one.  Its power lines are
 * gauges over its elapsed time (mW, or W on Intel Macs: "Intel energy
 * model derived package power (CPUs+GT+SA): 0.58W").  GPU Power is
 * printed twice, in the processor section (read) and the GPU section
 * (read only without the other, as with -s gpu_power: it can differ).
 * Domains: cpu, gpu, ane; Combined is computed before rounding (954 + 28
 * + 0 printed as 983), so when it is there "combined" alone counts and
 * the three are reported only; without it (macOS 12) cpu + gpu + ane
 * count.  macOS 12's Package and DRAM Power ("package", "dram") cover
 * more of the SoC than the three and are reported only; an Intel Mac's
 * package power counts alone.
 *
 * Time: the header's date has whole seconds (and a UTC offset; without
 * one, erg.powerTimezone), shared by several samples at short intervals.
 * Samples lie end to end by their elapsed times, each ending within the
 * second its header names (as the plist's timestamp is the end):
 * en_place_dated().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "ingest/energy.h"

enum { PM_CPU, PM_GPU, PM_ANE, PM_COMBINED, PM_PACKAGE, PM_DRAM, PM_INTEL, PM_NDOM };

static const struct {
	const char *prefix, *dom;
} pm_lines[PM_NDOM] = {
	{ "CPU Power: ", "cpu" }, { "GPU Power: ", "gpu" }, { "ANE Power: ", "ane" },
	{ "Combined Power (CPU + GPU + ANE): ", "combined" },
	{ "Package Power: ", "package" }, { "DRAM Power: ", "dram" },
	{ "Intel energy model derived package power (CPUs+GT+SA): ", "package" },
};

struct pmsample {
	long line;
	double ts_ms;		/* the header's second, Unix ms */
	double elapsed_ms;
	double mw[PM_NDOM];	/* NAN: no line */
	signed char thermal;
};

/* "143 mW", "0.58W", "1.2 W": milliwatts; -1 if not such */
static int
pm_power(char *s, double *mw)
{
	size_t n = strlen(s);
	double scale;

	if (n > 3 && !strcmp(s + n - 3, " mW")) {
		s[n - 3] = '\0';
		scale = 1;
	} else if (n > 2 && !strcmp(s + n - 2, " W")) {
		s[n - 2] = '\0';
		scale = 1000;
	} else if (n > 1 && s[n - 1] == 'W' && s[n - 2] >= '0' && s[n - 2] <= '9') {
		s[n - 1] = '\0';
		scale = 1000;
	} else {
		return -1;
	}
	if (en_number(s, mw) || *mw < 0)
		return -1;
	*mw *= scale;
	return 0;
}

/* "Wed Jan 24 18:34:49 2024 -0500" (the zone optional, then *has_tz 0):
 * Unix ms, the zone's or tz_ms; -1 if not such a date */
static int
pm_date(const char *s, double tz_ms, int *has_tz, double *ms)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char mon[4], wd[4], iso[96];
	int d, h, mi, se, y, n = 0, zh, zm;
	const char *m, *z;

	if (sscanf(s, "%3s %3s %d %d:%d:%d %d%n", wd, mon, &d, &h, &mi, &se, &y, &n) != 7 ||
	    !(m = strstr(months, mon)) || (m - months) % 3 || y < 1970 || y > 9999 || d < 1 ||
	    d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59)
		return -1;
	snprintf(iso, sizeof(iso), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, (int)(m - months) / 3 + 1,
		 d, h, mi, se);
	if (en_iso_time(iso, ms))
		return -1;
	z = s + n;
	if (!*z) {
		*has_tz = 0;
		*ms -= tz_ms;
		return 0;
	}
	if (z[0] != ' ' || (z[1] != '+' && z[1] != '-') || strlen(z) != 6 ||
	    sscanf(z + 2, "%2d%2d", &zh, &zm) != 2 || zh > 14 || zm > 59 ||
	    z[2] < '0' || z[2] > '9' || z[3] < '0' || z[3] > '9' || z[4] < '0' || z[4] > '9' ||
	    z[5] < '0' || z[5] > '9')
		return -1;
	*has_tz = 1;
	*ms -= (z[1] == '-' ? -1 : 1) * (zh * 3600000.0 + zm * 60000.0);
	return 0;
}

static int
pm_thermal(const char *s)
{
	static const struct {
		const char *name;
		int level;
	} map[] = {
		{ "Nominal", THERMAL_NOMINAL }, { "Light", THERMAL_LIGHT },
		{ "Moderate", THERMAL_MODERATE }, { "Heavy", THERMAL_HEAVY },
		{ "Trapping", THERMAL_CRITICAL }, { "Sleeping", THERMAL_CRITICAL },
		{ "Critical", THERMAL_CRITICAL },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(s, map[i].name))
			return map[i].level;
	return THERMAL_ABSENT;
}

static int
has_power(const struct pmsample *s)
{
	int k;

	for (k = 0; k < PM_NDOM; k++)
		if (!isnan(s->mw[k]))
			return 1;
	return 0;
}

int
energy_read_pmtext(const char *path, const struct energy_opts *o, struct power_file *pf)
{
	struct pmsample *v = NULL, *cur = NULL;
	struct en_dated *dv;
	size_t nv = 0, av = 0, len, k;
	struct elines l;
	char *line, *p, *q;
	int bad = 0, r, has_tz, dom[PDOM_MAX], d, counted[PM_NDOM] = { 0 }, present[PM_NDOM] = { 0 };
	int gpu_section = 0;	/* in the sample's '**** GPU usage ****': 1 + copies seen */
	double mw;

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "powermetrics text";
	pf->caveat = "powermetrics: Apple's estimate of CPU, GPU and ANE power, printed to "
		     "the mW (the dates to the second)";
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (!strncmp(line, "*** Sampled system activity (", 29)) {
			p = line + 29;
			q = strstr(p, ") (");
			if (!q || len < 15 || strcmp(line + len - 15, "ms elapsed) ***") ||
			    strstr(q + 3, ") (")) {
				bad = error_at(path, l.line, "not '*** Sampled system activity "
					       "(DATE) (N ms elapsed) ***'");
				break;
			}
			*q = '\0';
			line[len - 15] = '\0';
			ALLOC_GROW(v, nv + 1, av);
			cur = &v[nv++];
			cur->line = l.line;
			cur->thermal = THERMAL_ABSENT;
			for (k = 0; k < PM_NDOM; k++)
				cur->mw[k] = NAN;
			gpu_section = 0;
			if (pm_date(p, o && o->tz_set ? o->tz_ms : 0, &has_tz, &cur->ts_ms)) {
				bad = error_at(path, l.line, "'%s' is not a date such as 'Wed Jan 24 "
					       "18:34:49 2024 -0500'", p);
				break;
			}
			if (!has_tz && (!o || !o->tz_set)) {
				bad = error_at(path, l.line, "the date '%s' has no UTC offset: give "
					       "the recording machine's as meta.json "
					       "erg.powerTimezone, e.g. \"-05:00\"", p);
				break;
			}
			if (en_number(q + 3, &cur->elapsed_ms) || !(cur->elapsed_ms > 0)) {
				bad = error_at(path, l.line, "elapsed '%s' is not a number of ms",
					       q + 3);
				break;
			}
			continue;
		}
		if (!cur) {
			if (!strncmp(line, "Machine model: ", 15) && !pf->hw_model && line[15])
				pf->hw_model = xstrdup(line + 15);
			else if (!strncmp(line, "OS version: ", 12) && !pf->os_build && line[12])
				pf->os_build = xstrdup(line + 12);
			continue;
		}
		if (line[0] == '*' && strstr(line, "GPU usage")) {
			gpu_section = 1;
			continue;
		}
		if (line[0] == '*' && strstr(line, " ****"))
			gpu_section = 0;	/* another section */
		if (!strncmp(line, "Current pressure level: ", 24)) {
			cur->thermal = (signed char)pm_thermal(line + 24);
			if (cur->thermal == THERMAL_ABSENT) {
				bad = error_at(path, l.line, "pressure level '%s' is none powermetrics "
					       "writes", line + 24);
				break;
			}
			continue;
		}
		for (k = 0; k < PM_NDOM && strncmp(line, pm_lines[k].prefix,
						   strlen(pm_lines[k].prefix)); k++)
			;
		if (k == PM_NDOM)
			continue;
		p = line + strlen(pm_lines[k].prefix);
		if (pm_power(p, &mw)) {
			bad = error_at(path, l.line, "'%s' is not a power in mW or W", p);
			break;
		}
		if (k == PM_GPU && gpu_section) {
			/* the GPU section's copy, not always the same figure (macOS
			 * 12: 9 and 18 mW in one sample): the processor section's
			 * is the one Combined sums; read only without it (-s
			 * gpu_power alone) */
			if (gpu_section++ > 1) {
				bad = error_at(path, l.line, "'GPU Power' twice in the GPU section "
					       "of the sample of line %ld", cur->line);
				break;
			}
			if (!isnan(cur->mw[k]))
				continue;
		}
		if (!isnan(cur->mw[k])) {
			bad = error_at(path, l.line, "'%.*s' twice in the sample of line %ld",
				       (int)strlen(pm_lines[k].prefix) - 2, pm_lines[k].prefix,
				       cur->line);
			break;
		}
		cur->mw[k] = mw;
	}
	if (!bad && r < 0)
		bad = -1;
	/* a killed powermetrics leaves a last sample without its power lines */
	if (!bad && nv > 1 && !has_power(&v[nv - 1])) {
		warn_at(path, v[nv - 1].line, "the last sample has no power line (cut short): "
			"left out");
		nv--;
	}
	for (k = 0; !bad && k < nv; k++)
		for (d = 0; d < PM_NDOM; d++)
			present[d] |= !isnan(v[k].mw[d]);
	if (!bad && !present[PM_CPU] && !present[PM_GPU] && !present[PM_ANE] &&
	    !present[PM_COMBINED] && !present[PM_INTEL])
		bad = error_at(path, 0, "no sample in '%s' has energy (no CPU, GPU, ANE or "
			       "Combined Power line: was the cpu_power sampler on?)",
			       strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	if (!bad) {
		if (present[PM_COMBINED])
			counted[PM_COMBINED] = 1;
		else if (present[PM_CPU] || present[PM_GPU] || present[PM_ANE])
			counted[PM_CPU] = counted[PM_GPU] = counted[PM_ANE] = 1;
		else
			counted[PM_INTEL] = 1;
		if (present[PM_INTEL] && present[PM_PACKAGE])
			bad = error_at(path, 0, "both 'Package Power' and Intel's package power");
	}
	for (d = 0; !bad && d < PM_NDOM; d++)
		if (present[d]) {
			dom[pf->ndom] = d;
			power_add_domain(pf, pm_lines[d].dom, counted[d]);
		}
	if (!bad) {
		dv = xmalloc((nv ? nv : 1) * sizeof(*dv));
		for (k = 0; k < nv; k++) {
			dv[k].line = v[k].line;
			dv[k].sec_ms = v[k].ts_ms;
			dv[k].len_ms = v[k].elapsed_ms;
			dv[k].thermal = v[k].thermal;
			for (d = 0; d < (int)pf->ndom; d++)
				dv[k].j[d] = v[k].mw[dom[d]] * v[k].elapsed_ms / 1e6;
		}
		bad = en_place_dated(pf, dv, nv);
		free(dv);
	}
	free(v);
	return en_end(pf, &l, bad, NULL);
}
