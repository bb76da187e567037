/*
 * record_sys.c - what erg record knows of the machine: its description
 * for meta.json, the preflight warnings a careful author wants before a
 * long run, the load generator's version, and the powercap logger.
 *
 * The powercap logger writes "powercap-log CSV v1" (energy-formats.md
 * §7): raw cumulative energy_uj per zone, one line per zone per sweep,
 * never a delta, never a float; a zone it cannot read gets no rows and a
 * "# error" comment, never a zero.  Its times are the session's clock
 * (the monotonic clock mapped once to epoch time, as the timeline's), so
 * that samples and windows are on one clock.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "cmd/record.h"

/* The first line of a small file, trimmed; NULL when unreadable. */
static char *
read_line(const char *path)
{
	char b[512];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	if (!fgets(b, sizeof(b), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	n = strlen(b);
	while (n && (b[n - 1] == '\n' || b[n - 1] == ' ' || b[n - 1] == '\r'))
		b[--n] = '\0';
	return xstrdup(b);
}

/* "key : value" from /proc/cpuinfo, /etc/os-release ("KEY=value"). */
static char *
file_field(const char *path, const char *key, char sep)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	size_t k = strlen(key);
	char *out = NULL;

	if (!f)
		return NULL;
	while (!out && fgets(line, sizeof(line), f)) {
		char *p = line, *e;

		if (strncmp(p, key, k))
			continue;
		p += k;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != sep)
			continue;
		p++;
		while (*p == ' ' || *p == '"')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\n' || e[-1] == '"' || e[-1] == ' '))
			e--;
		out = xstrndup(p, (size_t)(e - p));
	}
	fclose(f);
	return out;
}

static void
set_str(json_t *o, const char *key, char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
	free(v);
}

json_t *
rec_machine(void)
{
	json_t *m = json_object();
	struct utsname u;
	char host[256];
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	char *gov;

	set_str(m, "model", file_field("/proc/cpuinfo", "model name", ':'));
	if (!json_object_get(m, "model"))
		set_str(m, "model", read_line("/sys/firmware/devicetree/base/model"));
	json_object_set_new(m, "cores", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	if (pages > 0 && psz > 0)
		json_object_set_new(m, "memoryBytes", json_integer((json_int_t)pages * psz));
	set_str(m, "os", file_field("/etc/os-release", "PRETTY_NAME", '='));
	if (!uname(&u)) {
		json_object_set_new(m, "kernel", json_string(u.release));
		json_object_set_new(m, "arch", json_string(u.machine));
	}
	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = '\0';
		json_object_set_new(m, "hostname", json_string(host));
	}
	gov = read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	json_object_set_new(m, "governor", gov ? json_string(gov) : json_null());
	free(gov);
	return m;
}

static void
add_warn(json_t *w, const char *fmt, ...) PRINTF(2, 3);

static void
add_warn(json_t *w, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	json_array_append_new(w, json_string(b.ptr));
	buf_release(&b);
}

/* Discharging on a battery: power is then managed differently. */
static int
on_battery(void)
{
	DIR *d = opendir("/sys/class/power_supply");
	struct dirent *e;
	struct buf p = BUF_INIT;
	int bat = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *type, *status;

		if (e->d_name[0] == '.')
			continue;
		buf_reset(&p);
		buf_addf(&p, "/sys/class/power_supply/%s/type", e->d_name);
		type = read_line(p.ptr);
		buf_reset(&p);
		buf_addf(&p, "/sys/class/power_supply/%s/status", e->d_name);
		status = read_line(p.ptr);
		if (type && status && !strcmp(type, "Battery") && !strcmp(status, "Discharging"))
			bat = 1;
		free(type);
		free(status);
	}
	closedir(d);
	buf_release(&p);
	return bat;
}

void
rec_preflight(const struct rec_plan *p, json_t *w)
{
	unsigned char lm[128], tm[128];
	char *s;
	double load1;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i, k;
	FILE *f;

	if (on_battery())
		add_warn(w, "the machine runs on battery: plug it in (power management "
			 "differs on battery)");
	s = read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	if (s && strcmp(s, "performance"))
		add_warn(w, "the cpufreq governor is '%s', not 'performance': clock speed "
			 "follows load (set it with 'cpupower frequency-set -g performance')",
			 s);
	free(s);
	s = read_line("/sys/devices/system/cpu/intel_pstate/no_turbo");
	if (s && !strcmp(s, "0"))
		add_warn(w, "turbo is on (intel_pstate/no_turbo is 0): the clock varies with "
			 "temperature over the session");
	free(s);
	s = read_line("/sys/devices/system/cpu/cpufreq/boost");
	if (s && !strcmp(s, "1"))
		add_warn(w, "boost is on (cpufreq/boost is 1): the clock varies with "
			 "temperature over the session");
	free(s);
	if ((f = fopen("/proc/loadavg", "r"))) {
		if (fscanf(f, "%lf", &load1) == 1 && load1 > 0.5)
			add_warn(w, "the load average is %.2f: another process is busy, and it "
				 "will be measured too", load1);
		fclose(f);
	}
	/* generator and servers on the same cores compete for them */
	if (!p->load.cpus) {
		add_warn(w, "the load generator is not pinned ('load.cpus'): it shares the "
			 "%ld cores with the servers", ncpu);
	} else {
		rec_cpulist(p->load.cpus, lm);
		for (i = 0; i < p->nt; i++) {
			if (!p->t[i].cpus) {
				add_warn(w, "target '%s' is not pinned ('cpus'): it shares cores "
					 "with the load generator", p->t[i].name);
				continue;
			}
			rec_cpulist(p->t[i].cpus, tm);
			for (k = 0; k < 128 && !(lm[k] & tm[k]); k++)
				;
			if (k < 128)
				add_warn(w, "target '%s' (cpus %s) and the load generator (cpus "
					 "%s) share cores", p->t[i].name, p->t[i].cpus,
					 p->load.cpus);
		}
	}
}

/* ---- powercap logger ---------------------------------------------------- */

struct zone {
	char *rel;		/* "intel-rapl:0:0" */
	char *file;		/* its energy_uj */
	int fd;
};

struct rec_powercap {
	struct buf hdr;		/* the log's header */
	FILE *out;
	char *path;
	struct zone *z;
	size_t nz;
	double interval_ms;
	int64_t epoch0, mono0;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop, running;
};

static int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
cmp_zone(const void *a, const void *b)
{
	return strcmp(((const struct zone *)a)->rel, ((const struct zone *)b)->rel);
}

/* Zones: every "intel-rapl:*" entry (any depth below the root: the kernel
 * lists sub-zones both at the top and inside their parent, as links).
 * intel-rapl-mmio duplicates the package zone, so it is left out. */
static void
find_zones(const char *root, struct rec_powercap *pc, size_t *alloc)
{
	DIR *d = opendir(root);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct zone *z;
		size_t i;

		if (strncmp(e->d_name, "intel-rapl:", 11))
			continue;
		for (i = 0; i < pc->nz && strcmp(pc->z[i].rel, e->d_name); i++)
			;
		if (i < pc->nz)
			continue;
		ALLOC_GROW(pc->z, pc->nz + 1, *alloc);
		z = &pc->z[pc->nz++];
		z->rel = xstrdup(e->d_name);
		z->file = NULL;
		z->fd = -1;
	}
	closedir(d);
}

static int
read_u64_fd(int fd, unsigned long long *v)
{
	char b[32];
	ssize_t n = pread(fd, b, sizeof(b) - 1, 0);
	char *end;

	if (n <= 0)
		return -1;
	b[n] = '\0';
	errno = 0;
	*v = strtoull(b, &end, 10);
	if (end == b || errno || (*end && *end != '\n'))
		return -1;
	return 0;
}

/*
 * Find the zones and read each once: the header, and an error before
 * anything runs when no zone can be read.
 */
int
rec_powercap_open(const char *root, struct rec_powercap **ret)
{
	struct rec_powercap *pc = xcalloc(1, sizeof(*pc));
	struct buf p = BUF_INIT, err = BUF_INIT;
	size_t alloc = 0, i, ok = 0;
	char host[256] = "unknown";
	int denied = 0;

	*ret = NULL;
	find_zones(root, pc, &alloc);
	if (!pc->nz) {
		free(pc);
		return error("no powercap zone (intel-rapl:*) under '%s': this machine exposes "
			     "no RAPL counters; set the energy source to 'none'", root);
	}
	qsort(pc->z, pc->nz, sizeof(*pc->z), cmp_zone);
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	buf_addf(&pc->hdr, "# powercap-log v1 host=%s clock=CLOCK_REALTIME\n", host);
	for (i = 0; i < pc->nz; i++) {
		struct zone *z = &pc->z[i];
		unsigned long long max = 0, v;
		char *name;
		int mfd;

		buf_reset(&p);
		buf_addf(&p, "%s/%s/name", root, z->rel);
		name = read_line(p.ptr);
		buf_reset(&p);
		buf_addf(&p, "%s/%s/max_energy_range_uj", root, z->rel);
		mfd = open(p.ptr, O_RDONLY | O_CLOEXEC);
		if (mfd < 0 || read_u64_fd(mfd, &max))
			max = 0;	/* unknown: the reader cannot tell a wrap */
		if (mfd >= 0)
			close(mfd);
		buf_reset(&p);
		buf_addf(&p, "%s/%s/energy_uj", root, z->rel);
		z->file = xstrdup(p.ptr);
		errno = 0;
		z->fd = open(p.ptr, O_RDONLY | O_CLOEXEC);
		if (z->fd < 0 || read_u64_fd(z->fd, &v)) {
			int e = errno ? errno : EINVAL;

			denied |= e == EACCES || e == EPERM;
			buf_addf(&err, "# error,%s,cannot read energy_uj: %s\n", z->rel,
				 errno ? strerror(e) : "not a number");
			if (z->fd >= 0)
				close(z->fd);
			z->fd = -1;
		} else {
			/* only a zone with readings is declared: the reader
			 * wants every declared zone in every sweep */
			buf_addf(&pc->hdr, "# zone,%s,%s,%llu\n", z->rel, name ? name : "", max);
			ok++;
		}
		free(name);
	}
	buf_addf(&pc->hdr, "%st_ns,zone,energy_uj\n", err.len ? err.ptr : "");
	buf_release(&p);
	buf_release(&err);
	if (!ok) {
		if (denied)
			error("cannot read '%s': permission denied; RAPL counters are readable "
			      "by root only since Linux 5.10: run erg record as root, or grant "
			      "read access until the next boot with 'sudo chmod a+r "
			      "%s/intel-rapl:*/energy_uj' (or a udev rule), or set the energy "
			      "source to 'none'", pc->z[0].file, root);
		else
			error("no powercap zone under '%s' can be read (first: '%s'); set the "
			      "energy source to 'none'", root, pc->z[0].file);
		rec_powercap_stop(pc);
		return -1;
	}
	if (ok < pc->nz)
		warn("powercap: %zu of the %zu zones under '%s' cannot be read; the log says "
		     "which", pc->nz - ok, pc->nz, root);
	*ret = pc;
	return 0;
}

/* Open the log (a new one with its header, or one to continue). */
static int
open_log(struct rec_powercap *pc, const char *out, int append)
{
	pc->path = xstrdup(out);
	pc->out = fopen(out, append ? "ae" : "we");
	if (!pc->out)
		return error_errno("cannot write '%s'", out);
	/* the interval across the pause is no reading: the reader makes it
	 * a gap, however short */
	fputs(append ? "# resumed\n" : pc->hdr.ptr, pc->out);
	if (fflush(pc->out))
		return error_errno("cannot write '%s'", out);
	return 0;
}

/*
 * One line of readings, stamped with the middle of the time the reads
 * took.  A thread descheduled between a read and its stamp would give a
 * counter an older value than its time says (on a loaded machine tens of
 * ms: 13 % of a 0.3 s idle window once); so the reads are bracketed by
 * two clock readings and done again, up to SWEEP_TRIES times, while the
 * bracket is wider than SWEEP_SLACK_NS, keeping the narrowest.  Reading
 * a few sysfs counters takes microseconds when the thread runs.
 */
#define SWEEP_TRIES 4
#define SWEEP_SLACK_NS 1000000

static void
sweep(struct rec_powercap *pc)
{
	unsigned long long v[64], tv[64];
	int okv[64], tok[64];
	size_t i, n = pc->nz < 64 ? pc->nz : 64;
	int64_t t = 0, span = -1;
	int k;

	for (k = 0; k < SWEEP_TRIES; k++) {
		int64_t a = mono_ns(), b;

		for (i = 0; i < n; i++)
			tok[i] = pc->z[i].fd >= 0 && !read_u64_fd(pc->z[i].fd, &tv[i]);
		b = mono_ns();
		if (span < 0 || b - a < span) {
			span = b - a;
			t = a + span / 2;
			memcpy(v, tv, n * sizeof(v[0]));
			memcpy(okv, tok, n * sizeof(okv[0]));
		}
		if (span <= SWEEP_SLACK_NS)
			break;
	}
	t = pc->epoch0 + (t - pc->mono0);
	for (i = 0; i < n; i++)
		if (okv[i])
			fprintf(pc->out, "%lld,%s,%llu\n", (long long)t, pc->z[i].rel, v[i]);
	fflush(pc->out);
}

static void *
logger(void *arg)
{
	struct rec_powercap *pc = arg;
	int64_t next = mono_ns() + (int64_t)(pc->interval_ms * 1e6);
	struct timespec ts;

	pthread_mutex_lock(&pc->mu);
	while (!pc->stop) {
		int64_t now = mono_ns(), wait;

		if (now >= next) {
			sweep(pc);
			next += (int64_t)(pc->interval_ms * 1e6);
			if (next < now)
				next = now + (int64_t)(pc->interval_ms * 1e6);
			continue;
		}
		wait = next - now;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += wait / 1000000000;
		ts.tv_nsec += wait % 1000000000;
		if (ts.tv_nsec >= 1000000000)
			ts.tv_sec++, ts.tv_nsec -= 1000000000;
		pthread_cond_timedwait(&pc->cv, &pc->mu, &ts);
	}
	sweep(pc);	/* the last reading closes the last interval */
	pthread_mutex_unlock(&pc->mu);
	return NULL;
}

int
rec_powercap_start(struct rec_powercap *pc, const char *out, int append, double interval_ms,
		   int64_t epoch0_ns, int64_t mono0_ns)
{
	if (open_log(pc, out, append))
		return -1;
	pc->interval_ms = interval_ms;
	pc->epoch0 = epoch0_ns;
	pc->mono0 = mono0_ns;
	pthread_mutex_init(&pc->mu, NULL);
	pthread_cond_init(&pc->cv, NULL);
	/* the first reading before anything else is logged: the log covers
	 * the whole session */
	sweep(pc);
	if (pthread_create(&pc->th, NULL, logger, pc))
		return error("cannot start the powercap logger thread");
	pc->running = 1;
	return 0;
}

void
rec_powercap_stop(struct rec_powercap *pc)
{
	size_t i;

	if (!pc)
		return;
	if (pc->running) {
		pthread_mutex_lock(&pc->mu);
		pc->stop = 1;
		pthread_cond_signal(&pc->cv);
		pthread_mutex_unlock(&pc->mu);
		pthread_join(pc->th, NULL);
		pthread_mutex_destroy(&pc->mu);
		pthread_cond_destroy(&pc->cv);
	}
	if (pc->out)
		fclose(pc->out);
	for (i = 0; i < pc->nz; i++) {
		if (pc->z[i].fd >= 0)
			close(pc->z[i].fd);
		free(pc->z[i].rel);
		free(pc->z[i].file);
	}
	free(pc->z);
	free(pc->path);
	buf_release(&pc->hdr);
	free(pc);
}
