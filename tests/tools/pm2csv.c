/*
 * pm2csv - re-express a powermetrics plist stream as power.csv.
 *
 * usage: pm2csv POWER.PLIST[.gz]... > power.csv
 *
 * Each file is read and fitted as erg does (power_read, power_fit), and
 * every sample becomes one row: its end time in Unix ms and its mean
 * power over [start, end] as 'processor_W'.  A row at the start of the
 * first sample (watts empty) opens the log, as does one at the start of
 * each later file (the time between files has no power).  The watts are
 * the sample's joules over the very doubles erg will subtract, so erg
 * reads back each sample's joules to within an ulp or two, and the
 * interval of sample i starts where sample i-1 ends (the fit's own start
 * differs from that by rounding only).  Times and watts are printed with
 * 17 significant digits, which read back as the same doubles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/integrate.h"
#include "base/util.h"
#include "ingest/powermetrics.h"

int
main(int argc, char **argv)
{
	struct power_file pf;
	double prev = NAN, w;
	size_t i;
	int f;

	if (argc < 2) {
		fprintf(stderr, "usage: pm2csv POWER.PLIST... > power.csv\n");
		return 2;
	}
	printf("time,processor_W\n");
	for (f = 1; f < argc; f++) {
		if (power_read(argv[f], &pf))
			return 1;
		power_fit(&pf);
		for (i = 0; i < pf.n; i++) {
			if (pf.s[i].unplaced)
				continue;
			if (isnan(prev) || pf.s[i].start_ms > prev + 1) {
				/* the first sample, or after a gap: open */
				printf("%.17g,\n", pf.s[i].start_ms);
				prev = pf.s[i].start_ms;
			}
			if (isnan(pf.s[i].joules)) {
				printf("%.17g,\n", pf.s[i].end_ms);
			} else {
				w = pf.s[i].joules / ((pf.s[i].end_ms - prev) / 1000);
				printf("%.17g,%.17g\n", pf.s[i].end_ms, w);
			}
			prev = pf.s[i].end_ms;
		}
		power_file_free(&pf);
	}
	return fflush(stdout) ? 1 : 0;
}
