/*
 * rapltree - a synthetic powercap tree, and the check of a log of it.
 *
 * usage: rapltree [--in-place] [--busy PIDDIR BUSY_WATTS] [--stalls FILE] DIR WATTS
 *                 MAX_UJ SECONDS
 *        rapltree --check LOG WATTS
 *
 * The first form makes DIR/intel-rapl:0 (name package-0) and
 * DIR/intel-rapl:0:0 (name core), laid out flat as /sys/class/powercap
 * shows them, each with name, max_energy_range_uj (MAX_UJ) and energy_uj,
 * and for SECONDS advances energy_uj every 2 ms as the real counters do:
 * package WATTS x elapsed time, core half of it, both modulo MAX_UJ (so
 * a small MAX_UJ wraps them while a logger reads).  Each value is written
 * to a temporary file and renamed, so a reader never sees half a number.
 * With --in-place the file is rewritten instead (one pwrite, then the
 * length cut), as sysfs behaves for a reader that keeps it open and
 * reads it again from offset 0 (erg record does); a reader may then see
 * the new number followed by the rest of a longer old one after its
 * newline, which a reader of sysfs must stop at anyway.
 * With --busy the package draws BUSY_WATTS instead while PIDDIR holds a
 * file named by the pid of a running process (a wrapper writes its pid
 * there and execs the load generator; files of processes that exited are
 * removed), so load and idle windows differ by a known power; each
 * change is a line on stdout, "UNIX_SECONDS WATTS".
 * With --stalls FILE each turn that came more than 10 ms after the one
 * before (the tree starved of CPU: its counters held their value, then
 * jumped) is a line of FILE, "START_UNIX_SECONDS END_UNIX_SECONDS", so
 * that a check of a logger's energy can tell the tree's lag from the
 * logger's error.
 *
 * The second form reads LOG with erg's powercap-log reader and checks the
 * power a log of that tree must give: the counted total (package only;
 * core is inside it) at WATTS over the logged span within 3 %, core at
 * half of it, and at least one wrap on the way.  One "ok"/"not ok" line
 * per check; exit 1 if any failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* energy_uj rewritten in place through fd */
static int
put_fd(int fd, uint64_t v)
{
	char b[32];
	int n = snprintf(b, sizeof(b), "%llu\n", (unsigned long long)v);

	return pwrite(fd, b, (size_t)n, 0) == n && !ftruncate(fd, n) ? 0 : -1;
}

/* A running (not exited) process. */
static int
alive(const char *pid)
{
	char path[300], b[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(b, 1, sizeof(b) - 1, f);
	fclose(f);
	b[n] = '\0';
	p = strrchr(b, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* A file in piddir named by a running process's pid; the files of
 * processes that exited are removed (the wrapper execs the load
 * generator, so it cannot remove its own). */
static int
busy(const char *piddir)
{
	DIR *d = opendir(piddir);
	struct dirent *e;
	char path[4200], *end;
	int n = 0;

	while (d && (e = readdir(d))) {
		if (strtol(e->d_name, &end, 10) <= 0 || *end)
			continue;
		if (alive(e->d_name)) {
			n = 1;
		} else {
			snprintf(path, sizeof(path), "%s/%s", piddir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	return n;
}

static int
tree(const char *dir, double watts, uint64_t max, double seconds, int in_place,
     const char *piddir, double busy_watts, FILE *stalls)
{
	static const char *const zone[] = { "intel-rapl:0", "intel-rapl:0:0" };
	static const char *const name[] = { "package-0", "core" };
	struct timespec pause = { 0, 2000000 };
	char path[4096];
	double t0, t;
	int z, fd[2] = { -1, -1 };
	uint64_t v;
	double e = 0, prev = 0, p = watts;	/* package joules so far, at p W */

	for (z = 0; z < 2; z++) {
		snprintf(path, sizeof(path), "%s/%s", dir, zone[z]);
		if (mkdir(path, 0755) && errno != EEXIST)
			return 1;
		if (put(dir, zone[z], "name", 0, name[z]) ||
		    put(dir, zone[z], "max_energy_range_uj", max, NULL) ||
		    put(dir, zone[z], "energy_uj", 0, NULL))
			return 1;
		snprintf(path, sizeof(path), "%s/%s/energy_uj", dir, zone[z]);
		if (in_place && (fd[z] = open(path, O_WRONLY)) < 0)
			return 1;
	}
	t0 = now_s();
	do {
		t = now_s() - t0;
		if (stalls && t - prev > 0.010) {
			fprintf(stalls, "%.6f %.6f\n", t0 + prev, t0 + t);
			fflush(stalls);
		}
		e += p * (t - prev);
		prev = t;
		if (piddir && (busy(piddir) ? busy_watts : watts) != p) {
			p = p == watts ? busy_watts : watts;
			/* when the power changed, for a check of the
			 * energy a window must have */
			printf("%.6f %g\n", t0 + t, p);
			fflush(stdout);
		}
		for (z = 0; z < 2; z++) {
			v = (uint64_t)llround(e / (z + 1) * 1e6) % max;
			if (in_place ? put_fd(fd[z], v) : put(dir, zone[z], "energy_uj", v, NULL))
				return 1;
		}
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
	/*
	 * A loaded machine can stall the logging loop long enough that the
	 * reader makes the interval a gap (joules NAN): the power is checked
	 * over the covered intervals only, leaving out the one after a gap as
	 * well (a stall between reading the counters and taking the time
	 * stamps the sweep late, so the next interval holds energy from
	 * before its start).
	 */
	span = 0;
	for (i = 0; i < pf.n; i++) {
		if (isnan(pf.s[i].joules) || (i > 0 && isnan(pf.s[i - 1].joules)))
			continue;
		j += pf.s[i].joules;
		core += power_dom_joules(&pf, i, 1);
		span += (pf.s[i].end_ms - pf.s[i].start_ms) / 1000;
	}
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
	const char *piddir = NULL;
	FILE *stalls = NULL;
	double busy_watts = 0;
	int in_place = 0, i = 1;

	if (argc == 4 && !strcmp(argv[1], "--check"))
		return check(argv[2], atof(argv[3]));
	for (; i < argc && argv[i][0] == '-'; i++)
		if (!strcmp(argv[i], "--in-place")) {
			in_place = 1;
		} else if (!strcmp(argv[i], "--busy") && i + 2 < argc) {
			piddir = argv[++i];
			busy_watts = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--stalls") && i + 1 < argc) {
			if (!(stalls = fopen(argv[++i], "w"))) {
				perror(argv[i]);
				return 2;
			}
		} else {
			break;
		}
	if (argc - i == 4)
		return tree(argv[i], atof(argv[i + 1]), strtoull(argv[i + 2], NULL, 10),
			    atof(argv[i + 3]), in_place, piddir, busy_watts, stalls);
	fprintf(stderr, "usage: rapltree [--in-place] [--busy PIDDIR BUSY_WATTS] [--stalls FILE] "
		"DIR WATTS MAX_UJ SECONDS\n"
		"       rapltree --check LOG WATTS\n");
	return 2;
}
