/*
 * rapltree - a synthetic powercap tree, and the check of a log of it.
 *
 * usage: rapltree DIR WATTS MAX_UJ SECONDS
 *        rapltree --check LOG WATTS
 *
 * The first form makes DIR/intel-rapl:0 (name package-0) and
 * DIR/intel-rapl:0:0 (name core), laid out flat as /sys/class/powercap
 * shows them, each with name, max_energy_range_uj (MAX_UJ) and energy_uj,
 * and for SECONDS advances energy_uj every 2 ms as the real counters do:
 * package WATTS x elapsed time, core half of it, both modulo MAX_UJ (so
 * a small MAX_UJ wraps them while a logger reads).  Each value is written
 * to a temporary file and renamed, so a reader never sees half a number.
 *
 * The second form reads LOG with erg's powercap-log reader and checks the
 * power a log of that tree must give: the counted total (package only;
 * core is inside it) at WATTS over the logged span within 3 %, core at
 * half of it, and at least one wrap on the way.  One "ok"/"not ok" line
 * per check; exit 1 if any failed.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/util.h"
#include "ingest/energy.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
put(const char *dir, const char *zone, const char *file, uint64_t v, const char *s)
{
	char tmp[4200], path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, zone, file);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	if (s)
		fprintf(f, "%s\n", s);
	else
		fprintf(f, "%llu\n", (unsigned long long)v);
	if (fclose(f) || rename(tmp, path))
		return -1;
	return 0;
}

static int
tree(const char *dir, double watts, uint64_t max, double seconds)
{
	static const char *const zone[] = { "intel-rapl:0", "intel-rapl:0:0" };
	static const char *const name[] = { "package-0", "core" };
	struct timespec pause = { 0, 2000000 };
	char path[4096];
	double t0, t;
	int z;

	for (z = 0; z < 2; z++) {
		snprintf(path, sizeof(path), "%s/%s", dir, zone[z]);
		if (mkdir(path, 0755) && errno != EEXIST)
			return 1;
		if (put(dir, zone[z], "name", 0, name[z]) ||
		    put(dir, zone[z], "max_energy_range_uj", max, NULL) ||
		    put(dir, zone[z], "energy_uj", 0, NULL))
			return 1;
	}
	t0 = now_s();
	do {
		t = now_s() - t0;
		for (z = 0; z < 2; z++)
			if (put(dir, zone[z], "energy_uj",
				(uint64_t)llround(watts / (z + 1) * t * 1e6) % max, NULL))
				return 1;
		nanosleep(&pause, NULL);
	} while (t < seconds);
	return 0;
}

static int
check(const char *log, double watts)
{
	struct power_file pf;
	double j = 0, core = 0, span;
	size_t i;
	int bad = 0, wraps = 0;
	FILE *f;
	char line[256];
	unsigned long long t, v, prev = 0;

	if (energy_read_powercap(log, &pf)) {
		printf("not ok - rapltree: the log reads\n");
		return 1;
	}
	/* wraps, from the log itself: the package counter going down */
	f = fopen(log, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu,intel-rapl:0,%llu", &t, &v) == 2) {
			wraps += v < prev;
			prev = v;
		}
	if (f)
		fclose(f);
	for (i = 0; i < pf.n; i++) {
		j += pf.s[i].joules;
		core += power_dom_joules(&pf, i, 1);
	}
	span = (pf.s[pf.n - 1].end_ms - pf.s[0].start_ms) / 1000;
#define OK(c, ...) do { int c_ = (c); bad |= !c_; printf("%s - rapltree: ", c_ ? "ok" : "not ok"); \
		printf(__VA_ARGS__); putchar('\n'); } while (0)
	OK(pf.n >= 10, "%zu samples over %.2f s", pf.n, span);
	OK(wraps >= 1, "the package counter wrapped %d times in the log", wraps);
	OK(pf.ndom == 2 && pf.dom_sum[0] && !pf.dom_sum[1], "package counted, core reported only");
	OK(fabs(j / span / watts - 1) < 0.03, "package %.3f W over the log, set %.3f W", j / span,
	   watts);
	OK(fabs(core / span / (watts / 2) - 1) < 0.03, "core %.3f W, set %.3f W", core / span,
	   watts / 2);
	power_file_free(&pf);
	return bad;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--check"))
		return check(argv[2], atof(argv[3]));
	if (argc == 5)
		return tree(argv[1], atof(argv[2]), strtoull(argv[3], NULL, 10), atof(argv[4]));
	fprintf(stderr, "usage: rapltree DIR WATTS MAX_UJ SECONDS\n"
		"       rapltree --check LOG WATTS\n");
	return 2;
}
