/*
 * record.c - erg record: run a plan and archive it (record.h).
 *
 * Safe by construction:
 *   - the run is written into ARCHIVE/.erg-record-ID (a name starting with
 *     '.', which erg build never reads) and renamed to ARCHIVE/ID only when
 *     its sessionEnd is written, so a build sees no run or a whole one;
 *   - every record is one write() of one line, appended; a measurement is
 *     done when its measurementComplete is on disk, and --resume goes on
 *     after the last such one (sessionResumed), dropping a trailing line
 *     cut by a crash;
 *   - servers run in their own process group, die with erg (a parent-death
 *     signal) and are always stopped and reaped, as are load generators;
 *   - a server that is not ready in time, or exits while it is measured,
 *     fails its measurement: a measurementFailed record and a sessionEnd
 *     with the reason, and the partial run is kept for --resume.
 * Times: one monotonic clock, mapped once to epoch milliseconds, for the
 * timeline and the energy log alike.
 */
#define _GNU_SOURCE	/* sched_setaffinity, cpu_set_t */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/path.h"
#include "base/util.h"
#include "cmd/record.h"
#include "ingest/input.h"
#include "ingest/load.h"

extern char **environ;

const char record_usage[] =
	"usage: erg record PLAN [--archive DIR] [--id RUN-ID] [--dry-run] [--resume]\n"
	"\n"
	"Runs the benchmark PLAN (JSON: targets, routes, load generator, rounds,\n"
	"ordering, warm-up, window, gap, cooldown and idle baseline, energy\n"
	"source) and archives it as an energy session under DIR (default\n"
	"'archive'), in 'DIR/.erg-record-ID' until it is complete, then as\n"
	"'DIR/ID' (default: the UTC start time and the plan's arm).\n"
	"\n"
	"  --dry-run   print the schedule and the time it takes; run nothing\n"
	"  --resume    continue an interrupted run after its last complete\n"
	"              measurement (the plan must be the one it started with)\n";

#define STATE_PREFIX ".erg-record-"

static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	interrupted = sig;
}

struct rec {
	struct rec_plan p;
	const char *version;
	char *dir;		/* the partial run */
	char *final;		/* where it goes when complete */
	char *id;
	int lockfd, tlfd;
	int64_t epoch0, mono0;	/* ns */
	pthread_mutex_t mu;	/* the timeline */
	pthread_t hb;
	int hb_stop, hb_running;
	pthread_cond_t hb_cv;
	struct rec_powercap *pc;
	char **done;		/* completed measurements (resume) */
	size_t ndone, adone;
	int idle_next;		/* index of the next idle window */
	char *prev;		/* the last completed measurement */
	size_t total, count;	/* measurements to run now, run so far */
	long nlines;		/* records of the partial timeline */
	int64_t started_ms;
	/* an energy sampler run as a child (perf, turbostat, ...) */
	pid_t smp;
	int smp_reaped, smp_status;
	int64_t power_start_ms;	/* epoch ms just before it started; 0: none */
	char power_tz[16];	/* the local UTC offset then ("+02:00") */
	char **versions;	/* per target: what its version command printed */
};

/* ---- clock and timeline ------------------------------------------------ */

static int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t
now_ms(const struct rec *R)
{
	return (R->epoch0 + (mono_ns() - R->mono0)) / 1000000;
}

/* Append one record: {"ts", "event", fields...} as one line, one write. */
static int
emit(struct rec *R, const char *event, json_t *fields)
{
	json_t *o = json_object();
	const char *k;
	json_t *v;
	char *s;
	size_t n;
	ssize_t w;
	int rc = 0;

	pthread_mutex_lock(&R->mu);
	json_object_set_new(o, "ts", json_integer(now_ms(R)));
	json_object_set_new(o, "event", json_string(event));
	json_object_foreach(fields, k, v)
		json_object_set(o, k, v);
	/* 15 digits give back the decimal a plan was written with */
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
		       JSON_REAL_PRECISION(15));
	n = strlen(s);
	s = xrealloc(s, n + 2);
	s[n++] = '\n';
	w = write(R->tlfd, s, n);
	if (w != (ssize_t)n)
		rc = error_errno("cannot append to '%s/timeline.jsonl'", R->dir);
	free(s);
	json_decref(o);
	json_decref(fields);
	pthread_mutex_unlock(&R->mu);
	return rc;
}

static void *
heartbeat(void *arg)
{
	struct rec *R = arg;
	struct timespec ts;

	pthread_mutex_lock(&R->mu);
	while (!R->hb_stop) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 10;
		if (pthread_cond_timedwait(&R->hb_cv, &R->mu, &ts) == ETIMEDOUT && !R->hb_stop) {
			pthread_mutex_unlock(&R->mu);
			emit(R, "heartbeat", json_object());
			pthread_mutex_lock(&R->mu);
		}
	}
	pthread_mutex_unlock(&R->mu);
	return NULL;
}

/* Sleep s seconds; 1 when interrupted. */
static int
nap(double s)
{
	int64_t end = mono_ns() + (int64_t)(s * 1e9);

	while (!interrupted) {
		int64_t left = end - mono_ns();
		struct timespec ts;

		if (left <= 0)
			return 0;
		if (left > 50000000)
			left = 50000000;
		ts.tv_sec = 0;
		ts.tv_nsec = left;
		nanosleep(&ts, NULL);
	}
	return 1;
}

/* ---- children -------------------------------------------------------------- */

struct spawn {
	char *const *argv;
	const char *cwd;
	char **env;		/* added to the environment */
	const char *cpus;
	int own_group;		/* a server or sampler: its own group, a guardian */
	int out, err;		/* fds for stdout and stderr */
};

static void
pin(const char *cpus)
{
	unsigned char m[128];
	cpu_set_t set;
	int i;

	if (!cpus || rec_cpulist(cpus, m))
		return;
	CPU_ZERO(&set);
	for (i = 0; i < 1024 && i < CPU_SETSIZE; i++)
		if (m[i / 8] & (1u << (i % 8)))
			CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static const int stop_signals[] = { SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2 };

/*
 * Close every fd from lo on, in a child after fork: what erg has open (the
 * run's lock, its timeline, the powercap log, fds its own caller passed
 * on) is none of a child's business, and a server that daemonizes would
 * keep it open past erg.
 */
static void
close_from(int lo)
{
	struct rlimit rl;
	long fd, hi = 65536;

	if (!syscall(SYS_close_range, (unsigned)lo, ~0U, 0))
		return;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)hi)
		hi = (long)rl.rlim_cur;
	for (fd = lo; fd < hi; fd++)
		close((int)fd);
}

/*
 * What a child needs that would allocate, made before the fork: after
 * it, in a process with threads (the powercap logger, the heartbeat),
 * only async-signal-safe calls are sure not to meet a lock another
 * thread held (putenv's, stdio's).
 */
struct prep {
	char **envp;			/* environ with s->env added */
	struct buf cd_msg, run_msg;	/* "erg record: cannot ...: " */
};

extern char **environ;

static void
prep_make(struct prep *p, const struct spawn *s)
{
	size_t n = 0, m = 0, i, j, k = 0;

	while (environ[n])
		n++;
	while (s->env && s->env[m])
		m++;
	p->envp = xcalloc(n + m + 1, sizeof(*p->envp));
	/* the plan's variables replace those of the same name */
	for (i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");

		for (j = 0; j < m; j++)
			if (!strncmp(s->env[j], environ[i], len) && s->env[j][len] == '=')
				break;
		if (j == m)
			p->envp[k++] = environ[i];
	}
	for (j = 0; j < m; j++)
		p->envp[k++] = s->env[j];
	buf_init(&p->cd_msg, 0);
	buf_init(&p->run_msg, 0);
	if (s->cwd)
		buf_addf(&p->cd_msg, "erg record: cannot enter '%s': ", s->cwd);
	buf_addf(&p->run_msg, "erg record: cannot run '%s': ", s->argv[0]);
}

static void
prep_free(struct prep *p)
{
	free(p->envp);
	buf_release(&p->cd_msg);
	buf_release(&p->run_msg);
}

/* msg, errno's text and a newline on stderr, with write(2) only. */
static void
child_say(const struct buf *msg, int e)
{
	const char *d = strerrordesc_np(e);

	if (!d)
		d = "unknown error";
	if (write(2, msg->ptr, msg->len) < 0 || write(2, d, strlen(d)) < 0 || write(2, "\n", 1) < 0)
		return;	/* nowhere left to say it */
}

/* In a new child: stdio, directory, environment, cpus, then exec. */
static void NORETURN
exec_child(const struct spawn *s, const struct prep *p)
{
	sigset_t none;
	size_t i;
	int null;

	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		signal(stop_signals[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* a child forked while erg blocks its stop signals (a sampler is
	 * started so) would inherit the mask through exec and never see
	 * its stop signal nor the parent-death one */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	if (s->out >= 0)
		dup2(s->out, 1);
	if (s->err >= 0)
		dup2(s->err, 2);
	close_from(3);
	if (s->cwd && chdir(s->cwd)) {
		child_say(&p->cd_msg, errno);
		_exit(127);
	}
	pin(s->cpus);
	execvpe(s->argv[0], s->argv, p->envp);
	child_say(&p->run_msg, errno);
	_exit(127);
}

/*
 * A server or a sampler runs under a guardian: a child of erg that leads
 * its process group, waits for it and exits as it did.  When erg dies
 * (even by SIGKILL) the guardian sees it and stops the whole group, which
 * a parent-death signal alone cannot do: it reaches the shell that runs
 * a server's command, not the server the shell started, and exec clears
 * it for a program with file capabilities (a turbostat or perf given
 * cap_sys_rawio or cap_perfmon instead of root).  The guardian ignores
 * the stop signals that erg sends the group, and only calls functions
 * that are safe after fork in a threaded program.
 */
static void NORETURN
guardian(const struct spawn *s, const struct prep *p, pid_t erg)
{
	struct spawn c = *s;
	struct rlimit nocore = { 0, 0 };
	sigset_t none;
	pid_t child;
	size_t i;
	int st, k;

	setpgid(0, 0);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		signal(stop_signals[i], SIG_IGN);
	/* (forked while erg blocks them: the death it passes on below must
	 * not stay pending) */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (getppid() != erg)
		_exit(127);
	/* it keeps only the child's stdout and stderr, never erg's lock or
	 * logs: those must close when erg dies */
	if (s->out >= 0 && dup2(s->out, 1) >= 0)
		c.out = 1;
	if (s->err >= 0 && dup2(s->err, 2) >= 0)
		c.err = 2;
	close_from(3);
	child = fork();
	if (child < 0)
		_exit(127);
	if (!child)
		exec_child(&c, p);
	for (;;) {
		struct timespec ts = { 0, 50000000 };
		pid_t w = waitpid(child, &st, WNOHANG);

		if (w == child)
			break;
		if (w < 0 && errno != EINTR)
			_exit(127);
		if (getppid() != erg) {
			/* erg is gone: the group goes too */
			kill(0, SIGTERM);
			for (k = 0; k < 100 && waitpid(child, &st, WNOHANG) != child; k++)
				nanosleep(&ts, NULL);
			kill(0, SIGKILL);
		}
		nanosleep(&ts, NULL);
	}
	if (WIFSIGNALED(st)) {
		/* the same death, without a core of erg's image in its
		 * directory (the child's own core is the child's) */
		setrlimit(RLIMIT_CORE, &nocore);
		signal(WTERMSIG(st), SIG_DFL);
		kill(getpid(), WTERMSIG(st));
		_exit(128 + WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 127);
}

static pid_t
spawn(const struct spawn *s)
{
	struct prep p;
	pid_t erg = getpid(), pid;

	prep_make(&p, s);
	pid = fork();
	if (pid) {
		int e = errno;

		/* as the child does: a signal to the group may come first */
		if (pid > 0 && s->own_group)
			setpgid(pid, pid);
		prep_free(&p);
		errno = e;
		return pid;
	}
	/* a guardian watches erg itself (it must outlive erg long enough to
	 * stop the group); a load generator dies with erg, whatever signals
	 * it handles (k6 takes SIGTERM as a graceful stop) */
	if (s->own_group)
		guardian(s, &p, erg);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != erg)
		_exit(127);
	exec_child(s, &p);
}

static void
describe_status(struct buf *b, int st)
{
	if (WIFEXITED(st))
		buf_addf(b, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		buf_addf(b, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		buf_addstr(b, "stopped");
}

/* Stop a server's process group: its stop signal, then SIGKILL after
 * 10 s; always reaped.  The exit status, or -1 when already reaped. */
static void
stop_group(pid_t pid, int sig, int reaped)
{
	int64_t end;
	int st;

	if (pid <= 0)
		return;
	kill(-pid, sig);
	if (reaped) {
		kill(-pid, SIGKILL);
		return;
	}
	end = mono_ns() + 10000000000LL;
	while (mono_ns() < end) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		usleep(20000);
	}
	/* workers the leader left behind, or a leader that ignored sig */
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/* Resident memory of a process group (the server and its workers). */
static double
group_rss(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], b[512];
	long psz = sysconf(_SC_PAGESIZE);
	double sum = 0;
	int any = 0;

	if (!d)
		return NAN;
	while ((e = readdir(d))) {
		FILE *f;
		char *rp;
		long pg = 0, rss = 0, size;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (!fgets(b, sizeof(b), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		/* after the command name: state ppid pgrp */
		/* the guardian leads the group but is not the server */
		if (!(rp = strrchr(b, ')')) || sscanf(rp + 1, " %*c %*d %ld", &pg) != 1 ||
		    pg != pgid || atol(e->d_name) == (long)pgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/statm", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fscanf(f, "%ld %ld", &size, &rss) == 2) {
			sum += (double)rss * (double)psz;
			any = 1;
		}
		fclose(f);
	}
	closedir(d);
	return any ? sum : NAN;
}

/* ---- readiness ----------------------------------------------------------- */

/* GET url once: its HTTP status, or -1 with *why set. */
static int
http_status(const char *host, const char *port, const char *path, const char **why)
{
	struct addrinfo hints = { 0 }, *ai = NULL, *a;
	char req[1024], resp[64];
	int fd = -1, code = -1, rc;
	size_t n = 0;

	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host, port, &hints, &ai))) {
		*why = gai_strerror(rc);
		return -1;
	}
	*why = "connection refused";
	for (a = ai; a && fd < 0; a = a->ai_next) {
		struct pollfd pf;

		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK, a->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS) {
			close(fd);
			fd = -1;
			continue;
		}
		pf.fd = fd;
		pf.events = POLLOUT;
		if (poll(&pf, 1, 1000) != 1 || (pf.revents & (POLLERR | POLLHUP))) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return -1;
	snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: %s%s%s:%s\r\nConnection: "
		 "close\r\n\r\n", path, strchr(host, ':') ? "[" : "", host,
		 strchr(host, ':') ? "]" : "", port);
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req)) {
		*why = "the request could not be sent";
		close(fd);
		return -1;
	}
	while (n < 12) {
		struct pollfd pf = { fd, POLLIN, 0 };
		ssize_t r;

		if (poll(&pf, 1, 2000) != 1)
			break;
		r = recv(fd, resp + n, sizeof(resp) - 1 - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	resp[n] = '\0';
	if (n >= 12 && !strncmp(resp, "HTTP/1.", 7) && resp[8] == ' ')
		code = atoi(resp + 9);
	else
		*why = "no HTTP response";
	return code;
}

/* ---- the run directory ------------------------------------------------- */

/* Through a temporary name and a rename: a crash leaves the old file or
 * the new one, never half of one. */
static int
write_file(const char *path, const char *data, size_t len)
{
	struct buf tmp = BUF_INIT;
	ssize_t w;
	int fd, rc = 0;

	buf_addf(&tmp, "%s.tmp", path);
	fd = open(tmp.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = error_errno("cannot write '%s'", tmp.ptr);
	} else {
		w = write(fd, data, len);
		if (w != (ssize_t)len || fsync(fd))
			rc = error_errno("cannot write '%s'", tmp.ptr);
		if (close(fd) && !rc)
			rc = error_errno("cannot write '%s'", tmp.ptr);
		if (!rc && rename(tmp.ptr, path))
			rc = error_errno("cannot rename '%s' to '%s'", tmp.ptr, path);
		if (rc)
			unlink(tmp.ptr);
	}
	buf_release(&tmp);
	return rc;
}

/* Is tool an executable on PATH (or a path)? */
static int
on_path(const char *tool)
{
	const char *path = getenv("PATH"), *p, *e;
	struct buf b = BUF_INIT;
	int ok = 0;

	if (strchr(tool, '/'))
		return !access(tool, X_OK);
	for (p = path ? path : "/usr/bin:/bin"; !ok; p = e + 1) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		buf_reset(&b);
		buf_addf(&b, "%.*s/%s", (int)(e - p), e == p ? "." : p, tool);
		ok = !access(b.ptr, X_OK) && path_is_file(b.ptr);
		if (!*e)
			break;
	}
	buf_release(&b);
	return ok;
}

static char *
plan_rel(const struct rec_plan *p, const char *rel)
{
	struct buf b = BUF_INIT;

	if (rel[0] == '/')
		buf_addstr(&b, rel);
	else
		buf_addf(&b, "%s/%s", p->dir, rel);
	return buf_detach(&b, NULL);
}

/* A Lua string literal for wrk, every byte but letters and digits escaped. */
static void
lua_string(struct buf *b, const char *s, size_t n)
{
	size_t i;

	buf_addch(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			buf_addch(b, c);
		else
			buf_addf(b, "\\%03u", c);
	}
	buf_addch(b, '"');
}

/* The route's body file (NULL for none) as an absolute path: k6 opens it
 * relative to its script, the others relative to where they run. */
static char *
body_path(struct rec *R, const struct rec_route *rt)
{
	char *rel, *abs;

	if (!rt->body_file)
		return NULL;
	rel = plan_rel(&R->p, rt->body_file);
	abs = realpath(rel, NULL);
	if (!abs)
		error_errno("cannot resolve the body file '%s'", rel);
	free(rel);
	return abs;
}

/* The route's URL on a target. */
static void
route_url(struct buf *b, const struct rec_target *t, const struct rec_route *rt)
{
	int v6 = strchr(t->host, ':') != NULL;

	buf_addf(b, "http://%s%s%s:%s%s%s", v6 ? "[" : "", t->host, v6 ? "]" : "", t->port,
		 strcmp(t->base_path, "/") ? t->base_path : "", rt->path);
}

/* A JavaScript (and JSON) string literal. */
static void
js_string(struct buf *b, const char *s)
{
	json_t *j = json_string(s);
	char *d = j ? json_dumps(j, JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;

	buf_addstr(b, d ? d : "\"\"");
	free(d);
	json_decref(j);
}

/*
 * The script a route needs: wrk's Lua for a route that is not a plain GET,
 * k6's JavaScript for every route; *out NULL when none.  Written once per
 * route under load/ (the same for every target: the URL is an argument of
 * wrk; k6's is per target, so its script is named after both).
 */
static int
route_script(struct rec *R, const struct rec_target *t, const struct rec_route *rt,
	     char **out)
{
	struct buf s = BUF_INIT, body = BUF_INIT, path = BUF_INIT;
	char *bf;
	size_t i;
	int rc;

	*out = NULL;
	if (!strcmp(R->p.lt->name, "k6")) {
		double to = isnan(rt->load.timeout_s) ? R->p.load.timeout_s : rt->load.timeout_s;

		buf_addstr(&s, "// written by erg record\nimport http from 'k6/http';\n");
		bf = body_path(R, rt);
		if (rt->body_file && !bf) {
			buf_release(&s);
			return -1;
		}
		if (bf) {
			buf_addstr(&s, "const body = open(");
			js_string(&s, bf);
			buf_addstr(&s, ", 'b');\n");
			free(bf);
		}
		buf_addstr(&s, "const params = { headers: {");
		for (i = 0; rt->headers && rt->headers[i]; i++) {
			const char *colon = strchr(rt->headers[i], ':');
			char *k = xstrndup(rt->headers[i], (size_t)(colon - rt->headers[i]));

			buf_addstr(&s, i ? ", " : " ");
			js_string(&s, k);
			buf_addstr(&s, ": ");
			js_string(&s, colon + 2);
			free(k);
		}
		buf_addstr(&s, " }");
		if (!isnan(to))
			buf_addf(&s, ", timeout: '%.0fs'", to);
		buf_addstr(&s, " };\nexport default function () {\n\thttp.request(");
		js_string(&s, rt->method);
		buf_addstr(&s, ", ");
		buf_reset(&path);
		route_url(&path, t, rt);
		js_string(&s, path.ptr);
		buf_addf(&s, ", %s, params);\n}\n", rt->body_file ? "body" : "null");
		buf_reset(&path);
		buf_addf(&path, "%s/load/%s-%s.k6.js", R->dir, t->name, rt->name);
	} else if (!strncmp(R->p.lt->name, "wrk", 3) &&
		   (strcmp(rt->method, "GET") || rt->body_file)) {
		buf_addstr(&s, "-- written by erg record\nwrk.method = ");
		lua_string(&s, rt->method, strlen(rt->method));
		buf_addch(&s, '\n');
		if (rt->body_file) {
			bf = plan_rel(&R->p, rt->body_file);
			rc = input_read_all(bf, 16 << 20, &body);
			free(bf);
			if (rc) {
				buf_release(&s);
				buf_release(&body);
				return -1;
			}
			buf_addstr(&s, "wrk.body = ");
			lua_string(&s, body.ptr ? body.ptr : "", body.len);
			buf_addch(&s, '\n');
		}
		buf_addf(&path, "%s/load/%s.lua", R->dir, rt->name);
	} else {
		return 0;
	}
	rc = write_file(path.ptr, s.ptr, s.len);
	buf_release(&s);
	buf_release(&body);
	if (rc) {
		buf_release(&path);
		return -1;
	}
	*out = buf_detach(&path, NULL);
	return 0;
}

/* The header named name (case-insensitive) among the route's, or NULL. */
static const char *
route_header(const struct rec_route *rt, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; rt->headers && rt->headers[i]; i++)
		if (!strncasecmp(rt->headers[i], name, n) && rt->headers[i][n] == ':')
			return rt->headers[i] + n + 2;
	return NULL;
}

/*
 * The load generator's argv for a route of a target, over dur seconds,
 * its output on stdout (k6: into out).  Settings a tool cannot honour
 * were refused with the plan (record_plan.c); the others are given
 * explicitly, so that the command in the timeline says what ran.
 */
static char **
load_argv(struct rec *R, const struct rec_target *t, const struct rec_route *rt, double dur,
	  const char *script, const char *out)
{
	const struct rec_load *d = &R->p.load, *o = &rt->load;
	const char *tool = R->p.lt->name, *ct;
	double c = isnan(o->connections) ? d->connections : o->connections;
	double th = isnan(o->threads) ? d->threads : o->threads;
	double to = isnan(o->timeout_s) ? d->timeout_s : o->timeout_s;
	double nreq = isnan(o->requests) ? d->requests : o->requests;
	double rate = rec_route_rate(&R->p, rt);
	char **v = xcalloc(40 + 2 * 64, sizeof(*v)), *bf = NULL;
	struct buf b = BUF_INIT;
	size_t n = 0, i;

	if (rt->body_file && strncmp(tool, "wrk", 3) && strcmp(tool, "k6")) {
		bf = body_path(R, rt);
		if (!bf) {
			free(v);
			return NULL;
		}
	}
#define ADD(...) (buf_reset(&b), buf_addf(&b, __VA_ARGS__), v[n++] = xstrdup(b.ptr))
/* the route's headers, each after flag (at most 64: argv's room) */
#define ADD_HEADERS(flag) \
	for (i = 0; rt->headers && rt->headers[i] && i < 64; i++) \
		ADD(flag), ADD("%s", rt->headers[i])
	ADD("%s", tool);
	if (!strncmp(tool, "wrk", 3)) {	/* wrk, wrk2 */
		if (isnan(th))
			th = 2;
		if (th > c)
			th = c;	/* wrk refuses more threads than connections */
		ADD("-t%.0f", th);
		ADD("-c%.0f", c);
		ADD("-d%.0fs", dur);
		if (!isnan(rate))
			ADD("-R%.0f", rate);
		ADD("--latency");
		if (!isnan(to))
			ADD("--timeout"), ADD("%.0fs", to);
		ADD_HEADERS("-H");
		if (script)
			ADD("-s"), ADD("%s", script);
	} else if (!strcmp(tool, "hey")) {
		ADD("-z"), ADD("%.0fs", dur);
		ADD("-c"), ADD("%.0f", c);
		if (!isnan(rate))	/* per worker: the plan made it divide */
			ADD("-q"), ADD("%.0f", rate / c);
		if (!isnan(th))
			ADD("-cpus"), ADD("%.0f", th);
		if (!isnan(to))
			ADD("-t"), ADD("%.0f", to);
		ADD("-m"), ADD("%s", rt->method);
		ADD_HEADERS("-H");
		if (bf)
			ADD("-D"), ADD("%s", bf);
	} else if (!strcmp(tool, "ab")) {
		/* -t implies at most 50000 requests: -n after it says how
		 * many (a run that ends early is a failure, see measure) */
		ADD("-t"), ADD("%.0f", dur);
		ADD("-n"), ADD("%.0f", isnan(nreq) ? 50000 : nreq);
		ADD("-c"), ADD("%.0f", c);
		ADD("-k");
		if (!isnan(to))
			ADD("-s"), ADD("%.0f", to);
		/* -p and -u set the method (and refuse -m) */
		if (!bf)
			ADD("-m"), ADD("%s", rt->method);
		/* ab sends its own Content-Type with a body: -T sets it */
		ct = route_header(rt, "Content-Type");
		for (i = 0; rt->headers && rt->headers[i] && i < 64; i++)
			if (!bf || !ct || strncasecmp(rt->headers[i], "Content-Type:", 13))
				ADD("-H"), ADD("%s", rt->headers[i]);
		if (bf) {
			ADD(strcmp(rt->method, "PUT") ? "-p" : "-u"), ADD("%s", bf);
			ADD("-T"), ADD("%s", ct ? ct : "application/octet-stream");
		}
	} else if (!strcmp(tool, "oha")) {
		ADD("--no-tui");
		ADD("--output-format"), ADD("json");
		ADD("-z"), ADD("%.0fs", dur);
		ADD("-c"), ADD("%.0f", c);
		if (!isnan(rate))
			ADD("-q"), ADD("%.0f", rate);
		if (!isnan(to))
			ADD("-t"), ADD("%.0fs", to);
		ADD("-m"), ADD("%s", rt->method);
		ADD_HEADERS("-H");
		if (bf)
			ADD("-D"), ADD("%s", bf);
	} else if (!strcmp(tool, "bombardier")) {
		ADD("-c"), ADD("%.0f", c);
		ADD("-d"), ADD("%.0fs", dur);
		if (!isnan(rate))
			ADD("-r"), ADD("%.0f", rate);
		if (!isnan(to))
			ADD("-t"), ADD("%.0fs", to);
		ADD("-m"), ADD("%s", rt->method);
		ADD_HEADERS("-H");
		if (bf)
			ADD("-f"), ADD("%s", bf);
		ADD("-l");
		ADD("-o"), ADD("json");
		ADD("-p"), ADD("r");
	} else if (!strcmp(tool, "autocannon")) {
		ADD("-c"), ADD("%.0f", c);
		ADD("-d"), ADD("%.0f", dur);
		if (!isnan(th))
			ADD("-w"), ADD("%.0f", th);
		if (!isnan(rate))
			ADD("--overallRate"), ADD("%.0f", rate);
		if (!isnan(to))
			ADD("-t"), ADD("%.0f", to);
		ADD("-m"), ADD("%s", rt->method);
		/* autocannon takes a header as K=V */
		for (i = 0; rt->headers && rt->headers[i] && i < 64; i++) {
			const char *colon = strchr(rt->headers[i], ':');

			ADD("-H"), ADD("%.*s=%s", (int)(colon - rt->headers[i]), rt->headers[i],
				       colon + 2);
		}
		if (bf)
			ADD("-i"), ADD("%s", bf);
		ADD("-j");
	} else {	/* k6: the route is its script */
		ADD("run");
		ADD("--quiet");
		ADD("--no-color");
		ADD("--vus"), ADD("%.0f", c);
		ADD("--duration"), ADD("%.0fs", dur);
		ADD("--summary-export"), ADD("%s", out);
		ADD("%s", script);
	}
	if (strcmp(tool, "k6"))
		buf_reset(&b), route_url(&b, t, rt), v[n++] = buf_detach(&b, NULL);
	v[n] = NULL;
#undef ADD_HEADERS
#undef ADD
	buf_release(&b);
	free(bf);
	return v;
}

static void
free_argv(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static const char *
load_cpus(const struct rec *R, const struct rec_route *rt)
{
	return rt->load.cpus ? rt->load.cpus : R->p.load.cpus;
}

static double
route_timeout(const struct rec *R, const struct rec_route *rt)
{
	return isnan(rt->load.timeout_s) ? R->p.load.timeout_s : rt->load.timeout_s;
}

/* ---- one measurement ----------------------------------------------------- */

struct meas {
	const struct rec_target *t;
	char id[160];
	int round, slot;
	pid_t server;
	int reaped, status;
	struct buf why;		/* the failure */
	const char *route;	/* the route being driven at a failure */
};

/* Has the server exited?  1 (why is set), else 0. */
static int
server_gone(struct meas *m)
{
	pid_t w;

	if (m->reaped)
		return 1;
	w = waitpid(m->server, &m->status, WNOHANG);
	if (w != m->server)
		return 0;
	m->reaped = 1;
	buf_reset(&m->why);
	buf_addf(&m->why, "target '%s' ", m->t->name);
	describe_status(&m->why, m->status);
	return 1;
}

/* The same, given up to ms to be reaped: a server started through
 * "sh -c" whose command died is gone only once the shell has run. */
static int
server_gone_within(struct meas *m, int ms)
{
	for (; ms > 0; ms -= 20) {
		if (server_gone(m))
			return 1;
		usleep(20000);
	}
	return server_gone(m);
}

/* Stop a load generator: SIGTERM, SIGKILL 5 s later (one that takes
 * SIGTERM as a graceful stop may take longer); always reaped. */
static void
stop_load(pid_t pid)
{
	int64_t end = mono_ns() + 5000000000LL;
	int st;

	kill(pid, SIGTERM);
	while (mono_ns() < end) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			return;
		usleep(20000);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/*
 * Run argv, asked to load for secs with a request timeout of to (NAN:
 * the tool's), to its end while watching the server; the child's exit
 * status, or -1 when the server died, erg was interrupted, or it is still
 * running secs + max(secs, 30 s) + to after its start (m->why says so; it
 * is then stopped).
 */
static int
drive(struct meas *m, const struct spawn *s, double secs, double to, pid_t *pid_out)
{
	double grace = (secs > 30 ? secs : 30) + (isnan(to) ? 0 : to);
	int64_t end = mono_ns() + (int64_t)((secs + grace) * 1e9);
	pid_t pid = spawn(s);
	int st = 0;

	*pid_out = pid;
	if (pid < 0) {
		buf_addf(&m->why, "cannot start '%s': %s", s->argv[0], strerror(errno));
		return -1;
	}
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		/* Ctrl-C reaches the load generator too: an interruption,
		 * not its failure */
		if (w == pid)
			return interrupted ? -1 : st;
		if (interrupted || server_gone(m)) {
			stop_load(pid);
			return -1;
		}
		if (mono_ns() > end) {
			buf_reset(&m->why);
			buf_addf(&m->why, "the load generator '%s' was still running %.0f s after it "
				 "was started to load for %g s (stopped)", s->argv[0], secs + grace,
				 secs);
			stop_load(pid);
			return -1;
		}
		usleep(20000);
	}
}

static json_t *
ident(const struct meas *m)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(m->id));
	json_object_set_new(o, "round", json_integer(m->round));
	json_object_set_new(o, "slot", json_integer(m->slot));
	json_object_set_new(o, "framework", json_string(m->t->name));
	json_object_set_new(o, "target", json_string(m->t->name));
	return o;
}

/* Whole values as integers: the timeline reads as it was planned. */
static json_t *
jnum(double v)
{
	return v == floor(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v) : json_real(v);
}

static json_t *
num_or_null(double v)
{
	return isnan(v) ? json_null() : json_integer((json_int_t)v);
}

static int
idle_window(struct rec *R, const char *precedes, const char *kind)
{
	char id[32];
	int64_t start;
	json_t *o;

	snprintf(id, sizeof(id), "idle-%02d", R->idle_next);
	start = now_ms(R);
	o = json_object();
	json_object_set_new(o, "id", json_string(id));
	json_object_set_new(o, "index", json_integer(R->idle_next));
	json_object_set_new(o, "kind", json_string(kind));
	json_object_set_new(o, "startedAtMs", json_integer(start));
	json_object_set_new(o, "followsMeasurementId", R->prev ? json_string(R->prev) : json_null());
	if (emit(R, "idleWindowStart", json_deep_copy(o)))
		return json_decref(o), -1;
	if (nap(R->p.cooldown_s))
		return json_decref(o), 1;
	json_object_set_new(o, "endedAtMs", json_integer(now_ms(R)));
	json_object_set_new(o, "baselineStartMs",
			    json_integer(start + (json_int_t)llround(R->p.base_off_s * 1000)));
	json_object_set_new(o, "baselineEndMs",
			    json_integer(start + (json_int_t)llround(R->p.base_end_s * 1000)));
	json_object_set_new(o, "precedesMeasurementId", precedes ? json_string(precedes) :
			    json_null());
	R->idle_next++;
	return emit(R, "idleWindow", o);
}

static void
progress(struct rec *R, const struct meas *m)
{
	double left = (double)(R->total - R->count) * rec_measurement_s(&R->p);
	int l = (int)left;

	fprintf(stderr, "erg record: measurement %zu/%zu '%s' (round %d, slot %d), about "
		"%dm%02ds left\n", R->count + 1, R->total, m->id, m->round, m->slot, l / 60,
		l % 60);
}

/*
 * One measurement.  0 done, -1 failed (m->why says why; the caller logs
 * it), 1 interrupted.
 */
static int
measure(struct rec *R, struct meas *m)
{
	const struct rec_target *t = m->t;
	struct buf path = BUF_INIT, err = BUF_INIT, data = BUF_INIT;
	char sh[] = "/bin/sh", dash_c[] = "-c";
	char *argv[4] = { sh, dash_c, NULL, NULL };
	char *cwd = t->cwd ? plan_rel(&R->p, t->cwd) : xstrdup(R->p.dir);
	struct spawn s = { argv, cwd, t->env, t->cpus, 1, -1, -1 };
	int64_t t0, start_ms, end_ms = 0;
	double rss0, rss1;
	const char *why = "";
	size_t i;
	int rc = -1, code, logfd;
	json_t *o;

	m->server = 0;
	m->reaped = 0;
	argv[2] = t->command;
	buf_addf(&path, "%s/logs/%s.log", R->dir, m->id);
	logfd = open(path.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	s.out = s.err = logfd;
	t0 = mono_ns();
	m->server = spawn(&s);
	if (logfd >= 0)
		close(logfd);
	free(cwd);
	if (m->server < 0) {
		buf_addf(&m->why, "cannot start target '%s': %s", t->name, strerror(errno));
		m->server = 0;
		goto out;
	}
	/* readiness */
	for (;;) {
		if (interrupted) {
			rc = 1;
			goto out;
		}
		if (server_gone(m)) {
			buf_addf(&m->why, " before it was ready (its output: 'logs/%s.log')", m->id);
			goto out;
		}
		code = http_status(t->host, t->port, t->ready_path, &why);
		if (code >= 200 && code < 400)
			break;
		if ((double)(mono_ns() - t0) / 1e9 > t->ready_timeout_s) {
			buf_addf(&m->why, "target '%s' was not ready after %g s (GET http://%s:%s%s: ",
				 t->name, t->ready_timeout_s, t->host, t->port, t->ready_path);
			if (code >= 0)
				buf_addf(&m->why, "status %d)", code);
			else
				buf_addf(&m->why, "%s)", why);
			goto out;
		}
		usleep(50000);
	}
	rss0 = group_rss(m->server);
	o = ident(m);
	json_object_set_new(o, "serverPid", json_integer(m->server));
	json_object_set_new(o, "startupMs", json_real(round((double)(mono_ns() - t0) / 1e5) / 10));
	start_ms = now_ms(R);
	json_object_set_new(o, "startedAtMs", json_integer(start_ms));
	if (emit(R, "measurementStart", o))
		goto out;
	/* warm-up: every route, its output not kept */
	for (i = 0; i < R->p.nr && R->p.warmup_s > 0; i++) {
		const struct rec_route *rt = &R->p.r[i];
		char *script = NULL, **av;
		pid_t lp;
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC), st;
		struct spawn ls = { NULL, NULL, NULL, load_cpus(R, rt), 0, null, null };

		if (route_script(R, t, rt, &script) ||
		    !(av = load_argv(R, t, rt, R->p.warmup_s, script, "/dev/null"))) {
			free(script);
			close(null);
			buf_addf(&m->why, "route '%s': its request cannot be written", rt->name);
			goto out;
		}
		ls.argv = av;
		m->route = rt->name;
		st = drive(m, &ls, R->p.warmup_s, route_timeout(R, rt), &lp);
		free_argv(av);
		free(script);
		if (null >= 0)
			close(null);
		if (st < 0) {
			rc = interrupted && !m->reaped ? 1 : -1;
			if (rc < 0)
				buf_addf(&m->why, " during the warm-up of route '%s'", rt->name);
			goto out;
		}
	}
	for (i = 0; i < R->p.nr; i++) {
		const struct rec_route *rt = &R->p.r[i];
		struct load_result lr;
		char *script = NULL, **av;
		struct buf rel = BUF_INIT, cmd = BUF_INIT;
		int fd, efd, st, bad;
		pid_t lp;
		size_t k;
		int64_t a, b;

		if (i && nap(R->p.gap_s)) {
			rc = 1;
			goto out;
		}
		if (server_gone(m)) {
			buf_addf(&m->why, " before route '%s'", rt->name);
			goto out;
		}
		buf_addf(&rel, "load/%s-%s.%s", m->id, rt->name, R->p.lt->ext);
		buf_reset(&path);
		buf_addf(&path, "%s/%s", R->dir, rel.ptr);
		if (route_script(R, t, rt, &script) ||
		    !(av = load_argv(R, t, rt, R->p.window_s, script, path.ptr))) {
			free(script);
			buf_release(&rel);
			buf_addf(&m->why, "route '%s': its request cannot be written", rt->name);
			goto out;
		}
		buf_reset(&err);
		buf_addf(&err, "%s/logs/%s-%s.stderr", R->dir, m->id, rt->name);
		efd = open(err.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		/* k6 writes its summary itself (its stdout goes with its
		 * messages); the others print their output */
		if (!strcmp(R->p.lt->name, "k6")) {
			unlink(path.ptr);	/* (a resumed measurement's) */
			fd = efd >= 0 ? fcntl(efd, F_DUPFD_CLOEXEC, 0) : -1;
		} else {
			fd = open(path.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		}
		for (k = 0; av[k]; k++)
			buf_addf(&cmd, "%s%s", k ? " " : "", av[k]);
		{
			struct spawn ls = { av, NULL, NULL, load_cpus(R, rt), 0, fd, efd };

			m->route = rt->name;
			a = now_ms(R);
			st = drive(m, &ls, R->p.window_s, route_timeout(R, rt), &lp);
			b = now_ms(R);
		}
		if (fd >= 0)
			close(fd);
		if (efd >= 0)
			close(efd);
		free_argv(av);
		free(script);
		if (st < 0) {
			rc = interrupted && !m->reaped ? 1 : -1;
			if (rc < 0)
				buf_addf(&m->why, " while route '%s' was driven", rt->name);
			buf_release(&rel);
			buf_release(&cmd);
			goto out;
		}
		/* a server that died as the window ended is why the load
		 * generator failed or got nothing, if it did: said first */
		if (server_gone(m) ||
		    ((!WIFEXITED(st) || WEXITSTATUS(st)) && server_gone_within(m, 200))) {
			buf_addf(&m->why, " during route '%s'", rt->name);
			buf_release(&rel);
			buf_release(&cmd);
			goto out;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			buf_addf(&m->why, "the load generator for route '%s' ", rt->name);
			describe_status(&m->why, st);
			buf_addf(&m->why, " (its messages: 'logs/%s-%s.stderr')", m->id, rt->name);
			buf_release(&rel);
			buf_release(&cmd);
			goto out;
		}
		/* what erg build will read: read it now, with the same reader */
		buf_reset(&data);
		load_result_init(&lr);
		bad = input_read_all(path.ptr, input_max_small, &data) ||
		      load_parse(path.ptr, data.ptr, data.len, (enum load_tool)R->p.lt->kind,
				 &lr);
		if ((bad || !(lr.requests > 0)) && server_gone_within(m, 200))
			buf_addf(&m->why, " during route '%s'", rt->name);
		else if (!bad && !(lr.requests > 0))
			buf_addf(&m->why, "route '%s': the load generator got no response", rt->name);
		if (bad && !m->why.len)
			buf_addf(&m->why, "route '%s': the load generator's output is not readable",
				 rt->name);
		/* ab stops at its -n requests even within -t seconds: a
		 * window cut short is not the window planned */
		if (!bad && !m->why.len && !strcmp(R->p.lt->name, "ab") &&
		    (double)(b - a) < R->p.window_s * 1000 - 500)
			buf_addf(&m->why, "route '%s': ab stopped after %.0f requests in %.1f s, "
				 "before the %g s window ended: raise 'load.requests'", rt->name,
				 lr.requests, (double)(b - a) / 1000, R->p.window_s);
		if (m->why.len) {
			load_result_free(&lr);
			buf_release(&rel);
			buf_release(&cmd);
			goto out;
		}
		/* an empty stderr file says nothing: ours, so remove it */
		{
			struct stat es;

			if (!stat(err.ptr, &es) && es.st_size == 0)
				unlink(err.ptr);
		}
		o = ident(m);
		json_object_set_new(o, "route", json_string(rt->name));
		json_object_set_new(o, "cmd", json_string(cmd.ptr));
		json_object_set_new(o, "loadPid", json_integer(lp));
		json_object_set_new(o, "startedAtMs", json_integer(a));
		json_object_set_new(o, "endedAtMs", json_integer(b));
		json_object_set_new(o, "requests", num_or_null(lr.requests));
		json_object_set_new(o, "loadFile", json_string(rel.ptr));
		json_object_set_new(o, "loadFormat", json_string(R->p.lt->format));
		/* the rate asked for: the run was held to it, not saturating */
		if (!isnan(rec_route_rate(&R->p, rt)))
			json_object_set_new(o, "rate", jnum(rec_route_rate(&R->p, rt)));
		end_ms = b;
		load_result_free(&lr);
		buf_release(&rel);
		buf_release(&cmd);
		if (emit(R, "routeComplete", o))
			goto out;
	}
	rss1 = group_rss(m->server);
	if (server_gone(m)) {
		buf_addf(&m->why, " after its last route");
		goto out;
	}
	stop_group(m->server, t->stop_signal, 0);
	m->server = 0;
	o = ident(m);
	json_object_set_new(o, "arm", json_string(R->p.arm));
	json_object_set_new(o, "rssBeforeBytes", num_or_null(rss0));
	json_object_set_new(o, "rssAfterBytes", num_or_null(rss1));
	json_object_set_new(o, "startedAtMs", json_integer(start_ms));
	json_object_set_new(o, "endedAtMs", json_integer(end_ms));
	rc = emit(R, "measurementComplete", o);
out:
	if (m->server > 0)
		stop_group(m->server, t->stop_signal, m->reaped);
	m->server = 0;
	buf_release(&path);
	buf_release(&err);
	buf_release(&data);
	return rc;
}

/* ---- versions ------------------------------------------------------------ */

/*
 * Run s (its own group, under a guardian) with stdout and stderr into a
 * pipe for at most 10 s: the first line it printed (blanks before it
 * skipped; at most 4 KB read) in *line, its status in *st; 0, or -1 when
 * it was still running at 10 s (its whole group is then killed: a
 * pipeline in a version command, a tool waiting on a wedged driver) or
 * could not start (errno).
 */
static int
first_line(struct spawn *s, struct buf *line, int *st)
{
	int fd[2], done = 0;
	int64_t end = mono_ns() + 10000000000LL;
	char chunk[512], *p, *nl;
	pid_t pid;
	ssize_t n;

	buf_reset(line);
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	s->out = s->err = fd[1];
	s->own_group = 1;
	pid = spawn(s);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	for (;;) {
		struct pollfd pf = { fd[0], POLLIN, 0 };
		int64_t left = (end - mono_ns()) / 1000000;

		if (left <= 0 || poll(&pf, 1, (int)left) <= 0)
			break;
		n = read(fd[0], chunk, sizeof(chunk));
		if (n <= 0) {
			done = 1;
			break;
		}
		if (line->len < 4096)
			buf_add(line, chunk, (size_t)n);
	}
	close(fd[0]);
	if (!done)
		kill(-pid, SIGKILL);
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
	if (line->len) {
		for (p = line->ptr; *p == '\n' || *p == '\r' || *p == ' '; p++)
			;
		if ((nl = strpbrk(p, "\r\n")))
			*nl = '\0';
		memmove(line->ptr, p, strlen(p) + 1);
		line->len = strlen(line->ptr);
		/* text for meta.json: control bytes and bytes of another
		 * encoding than ASCII shown as '?' rather than dropped with
		 * the version */
		for (p = line->ptr; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
	}
	if (!done)
		errno = ETIMEDOUT;
	return done ? 0 : -1;
}

/*
 * A tool's version, `tool arg` (wrk prints its version for -v, and exits
 * 1: the status is not looked at): its first line, or NULL, said, when
 * it printed nothing, could not run or took over 10 s.  NULL without a
 * word when the tool has no version option (powermetrics).
 */
static char *
tool_version(const char *tool, const char *arg)
{
	char *argv[3] = { (char *)tool, (char *)arg, NULL };
	struct spawn s = { argv, NULL, NULL, NULL, 1, -1, -1 };
	struct buf b = BUF_INIT;
	char *v = NULL, *cr;
	int st = 0;

	if (!arg)
		return NULL;
	if (first_line(&s, &b, &st))
		warn("'%s %s' %s: its version is not recorded", tool, arg,
		     errno == ETIMEDOUT ? "took over 10 s" : strerror(errno));
	else if (!b.len)
		warn("'%s %s' printed nothing: its version is not recorded", tool, arg);
	else
		v = buf_detach(&b, NULL);
	if (v && (cr = strstr(v, " Copyright")))
		*cr = '\0';	/* wrk's banner */
	buf_release(&b);
	return v;
}

/*
 * A target's "version" command (`nginx -v`), run as its server would be
 * (directory, environment), before anything is measured: the first line
 * it prints, on stdout or stderr.  A command that fails, prints nothing
 * or takes over 10 s is an error: a version the plan asks for is never
 * silently missing.
 */
static int
target_version(struct rec *R, const struct rec_target *t, char **out)
{
	char sh[] = "/bin/sh", dash_c[] = "-c";
	char *argv[4] = { sh, dash_c, t->version_cmd, NULL };
	char *cwd = t->cwd ? plan_rel(&R->p, t->cwd) : xstrdup(R->p.dir);
	struct spawn s = { argv, cwd, t->env, NULL, 1, -1, -1 };
	struct buf b = BUF_INIT, why = BUF_INIT;
	int st = 0, rc;

	*out = NULL;
	rc = first_line(&s, &b, &st);
	free(cwd);
	if (rc && errno != ETIMEDOUT) {
		buf_release(&b);
		return error_errno("cannot run the version command of target '%s'", t->name);
	}
	if (rc)
		buf_addstr(&why, "took over 10 s");
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		describe_status(&why, st);
	else if (!b.len)
		buf_addstr(&why, "printed nothing");
	if (why.len)
		error("target '%s': its version command '%s' %s", t->name, t->version_cmd,
		      why.ptr);
	else
		*out = buf_detach(&b, NULL);
	buf_release(&b);
	buf_release(&why);
	return *out ? 0 : -1;
}

/* ---- energy samplers ------------------------------------------------------ */

/*
 * A sampler runs for the whole session as a child of erg, its output in
 * the file and layout erg build's reader for it detects by name and
 * content (ingest/energy_*.c, ingest/powermetrics.c):
 *   perf        perf stat -a -I MS -x, -o perf-stat.csv -e EVENTS: times
 *               count from its start, recorded as erg.powerStartMs;
 *   turbostat   turbostat --quiet --Summary --show Time_Of_Day_Seconds,
 *               PkgWatt,CorWatt,RAMWatt --interval S: it prints on stderr,
 *               which goes to turbostat.txt (its messages with it);
 *   nvidia-smi  nvidia-smi --query-gpu=timestamp,index,power.draw
 *               --format=csv -lms MS > nvidia-smi.csv: local time without
 *               a zone, so the offset is recorded as erg.powerTimezone;
 *   powermetrics  powermetrics -f plist -i MS --samplers cpu_power >
 *               power.plist (dated samples, its own time fit).
 * It is started before the first idle window, must give a first sample
 * before anything is measured, is watched between measurements (a sampler
 * that dies fails the session), and is stopped and reaped after the last.
 */
struct sampler_kind {
	const char *tool, *file, *debian, *hint;
	int data_fd;	/* 1 or 2: the fd that is the file; 0: it writes it (-o) */
	int stop;	/* signal that makes it print its last interval and exit */
};

static const struct sampler_kind *
sampler_kind(enum rec_energy e)
{
	static const struct sampler_kind k[] = {
		{ "perf", "perf-stat.csv", "linux-perf",
		  "perf counts the power/energy-* events system-wide only with "
		  "kernel.perf_event_paranoid at most 0 ('sudo sysctl "
		  "kernel.perf_event_paranoid=0') or as root, and only on a processor with "
		  "RAPL (Intel, AMD)", 0, SIGINT },
		{ "turbostat", "turbostat.txt", "linux-cpupower",
		  "turbostat reads the processor's MSRs: run erg record as root (and 'modprobe "
		  "msr'), or give turbostat cap_sys_admin and cap_sys_rawio", 2, SIGINT },
		{ "nvidia-smi", "nvidia-smi.csv", "nvidia-smi",
		  "nvidia-smi needs the NVIDIA driver and an NVIDIA GPU", 1, SIGTERM },
		{ "powermetrics", "power.plist", NULL,
		  "powermetrics (macOS) runs as root only: run erg record with sudo", 1, SIGINT },
	};

	return e >= ENERGY_PERF ? &k[e - ENERGY_PERF] : NULL;
}

static char **
sampler_argv(const struct rec *R, const char *file)
{
	char **v = xcalloc(24, sizeof(*v));
	struct buf b = BUF_INIT;
	double ms = R->p.energy_interval_ms;
	size_t n = 0;

#define ADD(...) (buf_reset(&b), buf_addf(&b, __VA_ARGS__), v[n++] = xstrdup(b.ptr))
	switch (R->p.energy) {
	case ENERGY_PERF:
		ADD("perf"), ADD("stat"), ADD("-a"), ADD("-I"), ADD("%.0f", ms);
		ADD("-x"), ADD(","), ADD("-o"), ADD("%s", file);
		ADD("-e"), ADD("%s", R->p.energy_events);
		break;
	case ENERGY_TURBOSTAT:
		ADD("turbostat"), ADD("--quiet"), ADD("--Summary");
		ADD("--show"), ADD("Time_Of_Day_Seconds,PkgWatt,CorWatt,RAMWatt");
		ADD("--interval"), ADD("%g", ms / 1000);
		break;
	case ENERGY_NVSMI:
		ADD("nvidia-smi"), ADD("--query-gpu=timestamp,index,power.draw");
		ADD("--format=csv"), ADD("-lms"), ADD("%.0f", ms);
		break;
	case ENERGY_POWERMETRICS:
		ADD("powermetrics"), ADD("-f"), ADD("plist"), ADD("-i"), ADD("%.0f", ms);
		ADD("--samplers"), ADD("cpu_power");
		break;
	default:
		BUG("no sampler for energy source %d", (int)R->p.energy);
	}
#undef ADD
	buf_release(&b);
	return v;
}

/* Has the file a sample yet: a data line (one starting with a digit,
 * after blanks), or a whole plist? */
static int
has_sample(const char *path, int plist)
{
	char b[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), found = 0;
	ssize_t n = fd >= 0 ? read(fd, b, sizeof(b) - 1) : -1;
	size_t keep;
	char *p;

	/* a powermetrics sample can be larger than one read: the end of the
	 * first may lie further on (the file is small at this point) */
	while (plist && n > 0 && !found) {
		b[n] = '\0';
		found = strstr(b, "</plist>") != NULL;
		keep = (size_t)n < 7 ? (size_t)n : 7;
		memmove(b, b + n - keep, keep);
		n = read(fd, b + keep, sizeof(b) - 1 - keep);
		n = n > 0 ? n + (ssize_t)keep : n;
	}
	if (fd >= 0)
		close(fd);
	if (plist || n <= 0)
		return found;
	b[n] = '\0';
	for (p = b; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		while (*p == ' ')
			p++;
		if (*p >= '0' && *p <= '9' && strchr(p, '\n'))
			return 1;
	}
	return 0;
}

/* The first line of what a sampler said, for a message. */
static void
first_words(struct buf *why, const char *path)
{
	char b[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = fd >= 0 ? read(fd, b, sizeof(b) - 1) : -1;
	char *p = b;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	b[n] = '\0';
	while (*p == '\n' || *p == ' ')
		p++;
	p[strcspn(p, "\n")] = '\0';
	if (*p)
		buf_addf(why, ": '%s'", p);
}

/* Has the sampler exited?  1 with why set, else 0. */
static int
sampler_gone(struct rec *R, struct buf *why)
{
	const struct sampler_kind *k = sampler_kind(R->p.energy);
	struct buf msg = BUF_INIT;

	if (R->smp <= 0)
		return 0;
	if (!R->smp_reaped && waitpid(R->smp, &R->smp_status, WNOHANG) != R->smp)
		return 0;
	R->smp_reaped = 1;
	buf_addf(why, "energy sampler '%s' ", k->tool);
	describe_status(why, R->smp_status);
	buf_addf(&msg, "%s/%s", R->dir, k->data_fd == 2 ? k->file : "logs/sampler.stderr");
	/* (turbostat's messages share its output: words only before data) */
	if (k->data_fd != 2 || !has_sample(msg.ptr, 0))
		first_words(why, msg.ptr);
	buf_release(&msg);
	return 1;
}

/*
 * Start the sampler and wait for its first sample: 0, or -1 with why set
 * (it exited, or gave nothing in time).
 */
static int
sampler_start(struct rec *R, struct buf *why)
{
	const struct sampler_kind *k = sampler_kind(R->p.energy);
	struct buf file = BUF_INIT, log = BUF_INIT;
	char *env[] = { NULL, NULL };
	char lc_all[] = "LC_ALL=C";	/* perf's numbers, never "0,05" */
	char **av;
	int fd, lfd, rc = -1;
	int64_t end, t;
	struct tm tm;
	time_t now;

	buf_addf(&file, "%s/%s", R->dir, k->file);
	buf_addf(&log, "%s/logs/sampler.stderr", R->dir);
	av = sampler_argv(R, file.ptr);
	fd = k->data_fd ? open(file.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	lfd = open(log.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	env[0] = lc_all;
	{
		struct spawn sp = { av, NULL, env, NULL, 1, k->data_fd == 1 ? fd : lfd,
				    k->data_fd == 2 ? fd : lfd };

		now = time(NULL);
		localtime_r(&now, &tm);
		/* the start on the session's clock, just before it */
		R->power_start_ms = now_ms(R);
		R->smp = spawn(&sp);
	}
	if (fd >= 0)
		close(fd);
	if (lfd >= 0)
		close(lfd);
	{
		int off = (int)(labs(tm.tm_gmtoff) / 60 % (24 * 60));

		snprintf(R->power_tz, sizeof(R->power_tz), "%c%02d:%02d",
			 tm.tm_gmtoff < 0 ? '-' : '+', off / 60, off % 60);
	}
	free_argv(av);
	if (R->smp < 0) {
		buf_addf(why, "cannot start energy sampler '%s': %s", k->tool, strerror(errno));
		R->smp = 0;
		goto out;
	}
	t = (int64_t)(R->p.energy_interval_ms * 3) + 3000;
	end = mono_ns() + t * 1000000;
	for (;;) {
		if (sampler_gone(R, why))
			break;
		if (has_sample(file.ptr, R->p.energy == ENERGY_POWERMETRICS)) {
			rc = 0;
			break;
		}
		if (interrupted || mono_ns() > end) {
			if (!interrupted)
				buf_addf(why, "energy sampler '%s' gave no sample in %.1f s "
					 "(its output: '%s')", k->tool, (double)t / 1000, k->file);
			break;
		}
		usleep(20000);
	}
	if (rc && !interrupted)
		buf_addf(why, "; %s", k->hint);
out:
	buf_release(&file);
	buf_release(&log);
	return rc;
}

/* Stop the sampler with its signal (its last interval is then written),
 * SIGKILL after 5 s, said: what it had not written yet is lost; always
 * reaped.  The signal goes to its group, past the guardian. */
static void
sampler_stop(struct rec *R)
{
	const struct sampler_kind *k = sampler_kind(R->p.energy);
	int64_t end;

	if (R->smp <= 0)
		return;
	if (!R->smp_reaped) {
		int done = 0;

		kill(-R->smp, k->stop);
		end = mono_ns() + 5000000000LL;
		while (!done && mono_ns() < end)
			if (!(done = waitpid(R->smp, &R->smp_status, WNOHANG) == R->smp))
				usleep(20000);
		if (!done) {
			kill(-R->smp, SIGKILL);
			while (waitpid(R->smp, &R->smp_status, 0) < 0 && errno == EINTR)
				;
			warn("energy sampler '%s' did not stop within 5 s of signal %d (%s) "
				"and was killed: the end of its '%s' may be missing", k->tool,
				k->stop, strsignal(k->stop), k->file);
		}
	}
	R->smp = 0;
}

/* ---- resume ------------------------------------------------------------------ */

/* Cut a line a crash left unfinished at the end of a file. */
static int
cut_partial_line(const char *path)
{
	struct buf b = BUF_INIT;
	size_t n;
	int rc = 0;

	if (!path_exists(path))
		return 0;
	if (input_read_all(path, (uint64_t)1 << 30, &b))
		return -1;
	n = b.len;
	while (n && b.ptr[n - 1] != '\n')
		n--;
	if (n != b.len && truncate(path, (off_t)n))
		rc = error_errno("cannot cut the unfinished last line of '%s'", path);
	buf_release(&b);
	return rc;
}

/* What the partial timeline says: completed measurements, idle windows. */
static int
read_state(struct rec *R)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	char *p, *nl;
	long line = 0;
	int rc = 0;

	buf_addf(&path, "%s/timeline.jsonl", R->dir);
	if (cut_partial_line(path.ptr) || input_read_all(path.ptr, (uint64_t)1 << 30, &data)) {
		buf_release(&path);
		return -1;
	}
	for (p = data.ptr; p && p < data.ptr + data.len; p = nl + 1) {
		json_error_t je;
		json_t *o;
		const char *ev, *id;

		line++;
		nl = memchr(p, '\n', (size_t)(data.ptr + data.len - p));
		if (!nl)
			break;
		o = json_loadb(p, (size_t)(nl - p), 0, &je);
		if (!o) {
			rc = error_at(path.ptr, line, "not a record erg record wrote: %s", je.text);
			break;
		}
		ev = json_string_value(json_object_get(o, "event"));
		id = json_string_value(json_object_get(o, "id"));
		if (ev && id && !strcmp(ev, "measurementComplete")) {
			ALLOC_GROW(R->done, R->ndone + 1, R->adone);
			R->done[R->ndone++] = xstrdup(id);
			free(R->prev);
			R->prev = xstrdup(id);
		} else if (ev && !strcmp(ev, "idleWindow")) {
			R->idle_next++;
		}
		json_decref(o);
	}
	R->nlines = line;
	buf_release(&path);
	buf_release(&data);
	return rc;
}

static int
is_done(const struct rec *R, const char *id)
{
	size_t i;

	for (i = 0; i < R->ndone; i++)
		if (!strcmp(R->done[i], id))
			return 1;
	return 0;
}

/* ---- meta.json ---------------------------------------------------------- */

/* The request rate every route is held to (sessionStart's "rps", which
 * the page shows as the session's rate); NAN when none is given or the
 * routes' rates differ (each routeComplete still says its own). */
static double
session_rate(const struct rec_plan *p)
{
	double r = p->nr ? rec_route_rate(p, &p->r[0]) : NAN;
	size_t i;

	for (i = 1; i < p->nr; i++)
		if (rec_route_rate(p, &p->r[i]) != r)
			return NAN;
	return r;
}

static const char *
order_name(enum rec_order o)
{
	return o == ORDER_CYCLIC ? "cyclic Latin square" :
	       o == ORDER_RANDOM ? "random Latin square (seeded)" : "sequential";
}

static int
write_meta(struct rec *R, json_t *warnings)
{
	json_t *m = json_object(), *tools = json_object(), *meth = json_object();
	json_t *idle = json_object(), *power = json_object(), *pre = json_object();
	json_t *erg = json_object(), *load = json_object();
	struct buf path = BUF_INIT;
	char when[32], *v, *s;
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(m, "title", json_string(R->p.title ? R->p.title : R->id));
	json_object_set_new(m, "capturedAt", json_string(when));
	if (!isnan(R->p.room_temp_c))
		json_object_set_new(m, "roomTempC", jnum(R->p.room_temp_c));
	json_object_set_new(m, "machine", rec_machine());
	v = tool_version(R->p.tool, R->p.lt->version_arg);
	json_object_set_new(tools, R->p.tool, v ? json_string(v) : json_null());
	free(v);
	s = xmalloc(strlen(R->version) + 16);
	sprintf(s, "erg %s", R->version);
	json_object_set_new(tools, "erg", json_string(s));
	free(s);
	json_object_set_new(m, "tools", tools);
	{
		json_t *tg = json_object();
		size_t k;

		for (k = 0; k < R->p.nt; k++) {
			json_t *o = json_object();

			json_object_set_new(o, "command", json_string(R->p.t[k].command));
			json_object_set_new(o, "url", json_string(R->p.t[k].url));
			if (R->versions && R->versions[k]) {
				json_object_set_new(o, "version", json_string(R->versions[k]));
				json_object_set_new(o, "versionCommand",
						    json_string(R->p.t[k].version_cmd));
			}
			json_object_set_new(tg, R->p.t[k].name, o);
		}
		json_object_set_new(m, "targets", tg);
	}
	json_object_set_new(load, "tool", json_string(R->p.tool));
	json_object_set_new(load, "connections", json_integer((json_int_t)R->p.load.connections));
	if (!isnan(R->p.load.threads))
		json_object_set_new(load, "threads", json_integer((json_int_t)R->p.load.threads));
	else if (!strncmp(R->p.tool, "wrk", 3))
		json_object_set_new(load, "threads", json_integer(2));
	json_object_set_new(m, "load", load);
	json_object_set_new(power, "source", json_string(rec_energy_name(R->p.energy)));
	if (R->p.energy >= ENERGY_PERF) {
		char **av = sampler_argv(R, sampler_kind(R->p.energy)->file);
		struct buf cmd = BUF_INIT;
		size_t k;

		for (k = 0; av[k]; k++)
			buf_addf(&cmd, "%s%s", k ? " " : "", av[k]);
		free_argv(av);
		json_object_set_new(power, "file", json_string(sampler_kind(R->p.energy)->file));
		json_object_set_new(power, "command", json_string(cmd.ptr));
		json_object_set_new(power, "intervalMs", jnum(R->p.energy_interval_ms));
		buf_release(&cmd);
		v = tool_version(sampler_kind(R->p.energy)->tool,
				     R->p.energy == ENERGY_POWERMETRICS ? NULL : "--version");
		json_object_set_new(tools, sampler_kind(R->p.energy)->tool,
				    v ? json_string(v) : json_null());
		free(v);
	}
	if (R->p.energy == ENERGY_POWERCAP) {
		json_object_set_new(power, "file", json_string("powercap.csv"));
		json_object_set_new(power, "format", json_string("powercap-log v1"));
		json_object_set_new(power, "root", json_string(R->p.energy_root));
		json_object_set_new(power, "intervalMs", jnum(R->p.energy_interval_ms));
	}
	json_object_set_new(m, "power", power);
	json_object_set_new(meth, "rounds", json_integer(R->p.rounds));
	json_object_set_new(meth, "cooldownSec", jnum(R->p.cooldown_s));
	json_object_set_new(meth, "interRouteGapSec", jnum(R->p.gap_s));
	json_object_set_new(meth, "warmupSec", jnum(R->p.warmup_s));
	json_object_set_new(meth, "windowSec", jnum(R->p.window_s));
	json_object_set_new(meth, "orderingScheme", json_string(order_name(R->p.order)));
	if (R->p.cooldown_s > 0) {
		json_object_set_new(idle, "offsetSec", jnum(R->p.base_off_s));
		json_object_set_new(idle, "endOffsetSec", jnum(R->p.base_end_s));
		json_object_set_new(idle, "source", json_string("the cooldown before each "
								 "measurement, servers stopped"));
		json_object_set_new(meth, "idleWindow", idle);
	} else {
		json_decref(idle);
	}
	json_object_set_new(m, "methodology", meth);
	json_object_set_new(pre, "warnings", json_incref(warnings));
	json_object_set_new(m, "allChecksPassed", json_boolean(!json_array_size(warnings)));
	json_object_set_new(m, "preflight", pre);
	json_object_set_new(m, "plan", json_incref(R->p.json));
	json_object_set_new(m, "planSha256", json_string(R->p.sha256));
	json_object_set_new(erg, "loadFormat", json_string(R->p.lt->format));
	/* where the sampler's reader needs them: perf's times count from its
	 * start, nvidia-smi's are local time without a zone (turbostat's
	 * first interval starts when it does, not when erg started it: its
	 * reader leaves that one out without a start) */
	if (R->power_start_ms && R->p.energy == ENERGY_PERF)
		json_object_set_new(erg, "powerStartMs", json_integer(R->power_start_ms));
	if (R->power_start_ms && R->p.energy == ENERGY_NVSMI)
		json_object_set_new(erg, "powerTimezone", json_string(R->power_tz));
	/* the rate every route was held to (the plan holds each route's; the
	 * page shows sessionStart's rps, so not under "load": one row) */
	if (!isnan(session_rate(&R->p)))
		json_object_set_new(erg, "requestRate", jnum(session_rate(&R->p)));
	json_object_set_new(erg, "recordedBy", json_string("erg record"));
	json_object_set_new(m, "erg", erg);
	s = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(m);
	buf_addf(&path, "%s/meta.json", R->dir);
	{
		struct buf b = BUF_INIT;

		buf_addstr(&b, s);
		buf_addch(&b, '\n');
		rc = write_file(path.ptr, b.ptr, b.len);
		buf_release(&b);
	}
	free(s);
	buf_release(&path);
	return rc;
}

/* ---- dry run --------------------------------------------------------------- */

static void
print_schedule(const struct rec_plan *p, const size_t *order, FILE *f)
{
	double each = rec_measurement_s(p), total;
	size_t r, s, n = (size_t)p->rounds * p->nt;
	long tt;

	fprintf(f, "plan '%s': %zu target%s, %zu route%s, %d round%s, %s order\n", p->path,
		p->nt, p->nt == 1 ? "" : "s", p->nr, p->nr == 1 ? "" : "s", p->rounds,
		p->rounds == 1 ? "" : "s", order_name(p->order));
	for (r = 0; r < (size_t)p->rounds; r++) {
		fprintf(f, "  round %zu:", r + 1);
		for (s = 0; s < p->nt; s++)
			fprintf(f, " %zu:%s", s + 1, p->t[order[r * p->nt + s]].name);
		fputc('\n', f);
	}
	fprintf(f, "each measurement: cooldown %g s, then %zu route%s x (warm-up %g s + "
		"window %g s), %g s between routes = %g s, plus the server's start\n",
		p->cooldown_s, p->nr, p->nr == 1 ? "" : "s", p->warmup_s, p->window_s, p->gap_s,
		each);
	total = each * (double)n;
	tt = lround(total);
	fprintf(f, "total: %zu measurements, about %ldh%02ldm%02lds plus server starts\n", n,
		tt / 3600, tt / 60 % 60, tt % 60);
}

/* ---- the command ------------------------------------------------------------ */

static int
good_id(const char *id)
{
	const char *p;

	if (!*id || strlen(id) > 200 || id[0] == '/' || strstr(id, "//") ||
	    id[strlen(id) - 1] == '/')
		return 0;
	for (p = id; *p; p++) {
		if ((p == id || p[-1] == '/') && *p == '.')
			return 0;
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-/", *p)))
			return 0;
	}
	return 1;
}

/* ARCHIVE/a/b/ID -> ARCHIVE/a/b/.erg-record-ID */
static char *
partial_dir(const char *archive, const char *id)
{
	struct buf b = BUF_INIT;
	const char *slash = strrchr(id, '/');

	if (slash)
		buf_addf(&b, "%s/%.*s/%s%s", archive, (int)(slash - id), id, STATE_PREFIX,
			 slash + 1);
	else
		buf_addf(&b, "%s/%s%s", archive, STATE_PREFIX, id);
	return buf_detach(&b, NULL);
}

/* The only partial run at the top of the archive (resume without --id). */
static char *
find_partial(const char *archive)
{
	DIR *d = opendir(archive);
	struct dirent *e;
	char *id = NULL;
	int n = 0;

	if (!d) {
		error_errno("cannot open the archive '%s'", archive);
		return NULL;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, STATE_PREFIX, strlen(STATE_PREFIX))) {
			if (!n++)
				id = xstrdup(e->d_name + strlen(STATE_PREFIX));
			else
				error("'%s' holds more than one unfinished run ('%s%s', '%s'); "
				      "name one with --id", archive, STATE_PREFIX, id, e->d_name);
		}
	closedir(d);
	if (n == 1)
		return id;
	free(id);
	if (!n)
		error("no unfinished run in '%s' to resume", archive);
	return NULL;
}

static void
block_signals(int how)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	pthread_sigmask(how, &s, NULL);
}

static int
run(struct rec *R, const size_t *order, int resume, json_t *warnings)
{
	struct buf b = BUF_INIT;
	struct sigaction sa;
	size_t k, i;
	int rc = 0, first = 1;
	json_t *o;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (resume && read_state(R))
		return -1;
	if (resume && !R->nlines)
		resume = 0;	/* killed before its sessionStart: start afresh */
	buf_addf(&b, "%s/timeline.jsonl", R->dir);
	R->tlfd = open(b.ptr, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (R->tlfd < 0) {
		rc = error_errno("cannot write '%s'", b.ptr);
		buf_release(&b);
		return rc;
	}
	pthread_mutex_init(&R->mu, NULL);
	pthread_cond_init(&R->hb_cv, NULL);
	if (R->pc) {
		buf_reset(&b);
		buf_addf(&b, "%s/powercap.csv", R->dir);
		if (resume && cut_partial_line(b.ptr)) {
			buf_release(&b);
			return -1;
		}
	}
	/* the helper threads take no signals: the main loop sees them */
	block_signals(SIG_BLOCK);
	if (R->pc && rec_powercap_start(R->pc, b.ptr, resume && path_exists(b.ptr),
					R->p.energy_interval_ms, R->epoch0, R->mono0)) {
		block_signals(SIG_UNBLOCK);
		buf_release(&b);
		return -1;
	}
	buf_release(&b);
	if (R->p.energy >= ENERGY_PERF) {
		struct buf why = BUF_INIT;

		/* its times cannot tell a pause from a long interval */
		if (resume) {
			block_signals(SIG_UNBLOCK);
			return error("this run is sampled by '%s', whose log cannot be "
				     "continued across a pause: it cannot be resumed (record it "
				     "again)", rec_energy_name(R->p.energy));
		}
		if (sampler_start(R, &why) || write_meta(R, warnings)) {
			if (why.len)
				error("%s", why.ptr);
			buf_release(&why);
			block_signals(SIG_UNBLOCK);
			sampler_stop(R);
			return -1;
		}
		buf_release(&why);
	}
	R->hb_running = !pthread_create(&R->hb, NULL, heartbeat, R);
	block_signals(SIG_UNBLOCK);

	R->total = (size_t)R->p.rounds * R->p.nt;
	if (resume) {
		json_t *a = json_array();

		o = json_object();
		for (i = 0; i < R->ndone; i++)
			json_array_append_new(a, json_string(R->done[i]));
		json_object_set_new(o, "completed", a);
		rc = emit(R, "sessionResumed", o);
		R->total -= R->ndone < R->total ? R->ndone : R->total;
	} else {
		json_t *tn = json_array(), *rn = json_array();

		for (i = 0; i < R->p.nt; i++)
			json_array_append_new(tn, json_string(R->p.t[i].name));
		for (i = 0; i < R->p.nr; i++)
			json_array_append_new(rn, json_string(R->p.r[i].name));
		o = json_object();
		json_object_set_new(o, "arm", json_string(R->p.arm));
		json_object_set_new(o, "rounds", json_integer(R->p.rounds));
		json_object_set_new(o, "cooldownSec", jnum(R->p.cooldown_s));
		json_object_set_new(o, "gapSec", jnum(R->p.gap_s));
		json_object_set_new(o, "warmupSec", jnum(R->p.warmup_s));
		json_object_set_new(o, "windowSec", jnum(R->p.window_s));
		json_object_set_new(o, "ordering", json_string(order_name(R->p.order)));
		json_object_set_new(o, "tool", json_string(R->p.tool));
		if (!isnan(session_rate(&R->p)))
			json_object_set_new(o, "rps", jnum(session_rate(&R->p)));
		json_object_set_new(o, "targets", tn);
		json_object_set_new(o, "routes", rn);
		json_object_set_new(o, "preflightWarnings", json_incref(warnings));
		rc = emit(R, "sessionStart", o);
	}
	for (k = 0; !rc && k < (size_t)R->p.rounds * R->p.nt; k++) {
		struct meas m;

		memset(&m, 0, sizeof(m));
		m.t = &R->p.t[order[k]];
		m.round = (int)(k / R->p.nt) + 1;
		m.slot = (int)(k % R->p.nt) + 1;
		snprintf(m.id, sizeof(m.id), "r%d-s%d-%s", m.round, m.slot, m.t->name);
		if (is_done(R, m.id))
			continue;
		if (sampler_gone(R, &m.why)) {
			o = json_object();
			buf_reset(&b);
			buf_addf(&b, "%s during the session, before measurement '%s'", m.why.ptr,
				 m.id);
			json_object_set_new(o, "ok", json_false());
			json_object_set_new(o, "error", json_string(b.ptr));
			emit(R, "sessionEnd", o);
			error("%s", b.ptr);
			buf_release(&m.why);
			rc = -1;
			break;
		}
		progress(R, &m);
		if (R->p.cooldown_s > 0) {
			rc = idle_window(R, m.id, first ? "preroll" : "cooldown");
			if (rc)
				break;
		}
		first = 0;
		rc = interrupted ? 1 : measure(R, &m);
		if (rc < 0 && m.why.len) {
			o = ident(&m);
			json_object_set_new(o, "route", m.route ? json_string(m.route) : json_null());
			json_object_set_new(o, "error", json_string(m.why.ptr));
			emit(R, "measurementFailed", o);
			error("measurement '%s' failed: %s", m.id, m.why.ptr);
			o = json_object();
			buf_reset(&b);
			buf_addf(&b, "measurement '%s' failed: %s", m.id, m.why.ptr);
			json_object_set_new(o, "ok", json_false());
			json_object_set_new(o, "error", json_string(b.ptr));
			emit(R, "sessionEnd", o);
		}
		buf_release(&m.why);
		if (!rc) {
			free(R->prev);
			R->prev = xstrdup(m.id);
			R->count++;
		}
	}
	/* the idle floor after the last measurement, for the drift check */
	if (!rc && !interrupted && R->p.cooldown_s > 0 && R->prev)
		rc = idle_window(R, NULL, "postroll");
	/* a sampler that stopped before the end left the end unmeasured */
	if (!rc && !interrupted) {
		struct buf why = BUF_INIT;

		if (sampler_gone(R, &why)) {
			o = json_object();
			buf_reset(&b);
			buf_addf(&b, "%s during the session, before its end", why.ptr);
			json_object_set_new(o, "ok", json_false());
			json_object_set_new(o, "error", json_string(b.ptr));
			emit(R, "sessionEnd", o);
			error("%s", b.ptr);
			rc = -1;
		}
		buf_release(&why);
	}
	if (rc > 0 || (!rc && interrupted)) {
		o = json_object();
		buf_reset(&b);
		buf_addf(&b, "interrupted by signal %d (%s)", (int)interrupted,
			 strsignal((int)interrupted));
		json_object_set_new(o, "ok", json_false());
		json_object_set_new(o, "error", json_string(b.ptr));
		emit(R, "sessionEnd", o);
		error("%s", b.ptr);
		rc = 1;
	} else if (!rc) {
		o = json_object();
		json_object_set_new(o, "ok", json_true());
		rc = emit(R, "sessionEnd", o);
	}
	buf_release(&b);
	if (R->hb_running) {
		pthread_mutex_lock(&R->mu);
		R->hb_stop = 1;
		pthread_cond_signal(&R->hb_cv);
		pthread_mutex_unlock(&R->mu);
		pthread_join(R->hb, NULL);
	}
	rec_powercap_stop(R->pc);
	R->pc = NULL;	/* stopped: its last reading closes the log */
	sampler_stop(R);
	if (fsync(R->tlfd) || close(R->tlfd))
		rc = rc ? rc : error_errno("cannot write '%s/timeline.jsonl'", R->dir);
	R->tlfd = -1;
	return rc;
}

static int
finish(struct rec *R)
{
	int fd, rc;

	/* RENAME_NOREPLACE: a run that appeared meanwhile is not replaced */
	rc = (int)syscall(SYS_renameat2, AT_FDCWD, R->dir, AT_FDCWD, R->final, 1 /* RENAME_NOREPLACE */);
	if (rc)
		return error_errno("cannot move the finished run '%s' to '%s' (it stays where it "
				   "is)", R->dir, R->final);
	{
		char *parent = xstrdup(R->final), *slash = strrchr(parent, '/');

		if (slash)
			*slash = '\0';
		fd = open(slash ? parent : ".", O_RDONLY | O_DIRECTORY);
		if (fd >= 0) {
			fsync(fd);
			close(fd);
		}
		free(parent);
	}
	return 0;
}

int
record_main(int argc, char **argv, const char *version)
{
	const char *plan = NULL, *archive = "archive", *id = NULL;
	int dry = 0, resume = 0, fresh = 0, rc = 1, i;
	struct rec R;
	size_t *order = NULL, k;
	json_t *warnings = NULL;
	struct buf b = BUF_INIT;
	char *auto_id = NULL;

	memset(&R, 0, sizeof(R));
	R.lockfd = R.tlfd = -1;
	R.version = version;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(record_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) {
			dry = 1;
		} else if (!strcmp(a, "--resume")) {
			resume = 1;
		} else if (!strcmp(a, "--archive") || !strcmp(a, "--id")) {
			if (i + 1 == argc) {
				error("option '%s' needs a value (see 'erg help record')", a);
				return 2;
			}
			if (!strcmp(a, "--id"))
				id = argv[++i];
			else
				archive = argv[++i];
		} else if (a[0] == '-') {
			error("unknown option '%s' (see 'erg help record')", a);
			return 2;
		} else if (plan) {
			error("unexpected argument '%s' (see 'erg help record')", a);
			return 2;
		} else {
			plan = a;
		}
	}
	if (!plan) {
		error("no plan given (see 'erg help record')");
		return 2;
	}
	if (id && !good_id(id)) {
		error("run id '%s' must be letters, digits, '.', '_', '-', with '/' between "
		      "directories, no part starting with '.'", id);
		return 2;
	}
	if (rec_plan_read(plan, &R.p))
		goto out;
	if (R.p.order == ORDER_SEQUENTIAL)
		warn("ordering 'sequential': every round runs the targets in the same order, "
		     "so slot position (warm-up, heat, drift) is confounded with the target");
	order = rec_schedule(R.p.order, R.p.seed, R.p.nt, R.p.rounds);
	if (dry) {
		print_schedule(&R.p, order, stdout);
		rc = 0;
		goto out;
	}
	/* everything that can be checked before anything runs */
	if (!on_path(R.p.tool)) {
		error("load generator '%s' is not installed (not found on PATH); on Debian: "
		      "'apt-get install %s'", R.p.tool, R.p.tool);
		goto out;
	}
	if (R.p.energy >= ENERGY_PERF && !on_path(sampler_kind(R.p.energy)->tool)) {
		const struct sampler_kind *sk = sampler_kind(R.p.energy);

		if (sk->debian)
			error("energy sampler '%s' is not installed (not found on PATH); on "
			      "Debian: 'apt-get install %s'", sk->tool, sk->debian);
		else
			error("energy sampler '%s' is not installed (not found on PATH; it is "
			      "part of macOS)", sk->tool);
		goto out;
	}
	for (k = 0; k < R.p.nt; k++) {
		char *cwd = R.p.t[k].cwd ? plan_rel(&R.p, R.p.t[k].cwd) : NULL;

		if (cwd && !path_is_dir(cwd))
			error("target '%s': working directory '%s' does not exist", R.p.t[k].name,
			      cwd);
		free(cwd);
	}
	for (k = 0; k < R.p.nr; k++) {
		char *bf = R.p.r[k].body_file ? plan_rel(&R.p, R.p.r[k].body_file) : NULL;

		if (bf && !path_is_file(bf))
			error("route '%s': body file '%s' is not a readable file", R.p.r[k].name, bf);
		free(bf);
	}
	if (!diag_errors && R.p.energy == ENERGY_POWERCAP &&
	    rec_powercap_open(R.p.energy_root, &R.pc))
		goto out;
	if (diag_errors)
		goto out;
	R.versions = xcalloc(R.p.nt + 1, sizeof(*R.versions));
	for (k = 0; k < R.p.nt; k++)
		if (R.p.t[k].version_cmd && target_version(&R, &R.p.t[k], &R.versions[k]))
			goto out;
	if (!path_is_dir(archive)) {
		error("archive '%s' is not a directory", archive);
		goto out;
	}
	if (resume && !id && !(id = auto_id = find_partial(archive)))
		goto out;
	if (!id) {
		char when[32];
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H%M%S", &tm);
		buf_addf(&b, "%s-%s", when, R.p.arm);
		id = auto_id = buf_detach(&b, NULL);
		if (!good_id(id)) {
			error("run id '%s' (from the arm) is not usable; give --id", id);
			goto out;
		}
	}
	R.id = xstrdup(id);
	R.dir = partial_dir(archive, id);
	buf_reset(&b);
	buf_addf(&b, "%s/%s", archive, id);
	R.final = buf_detach(&b, NULL);
	if (path_exists(R.final)) {
		error("'%s' exists already: give another --id", R.final);
		goto out;
	}
	if (resume) {
		struct buf pp = BUF_INIT, old = BUF_INIT;

		if (!path_is_dir(R.dir)) {
			error("no unfinished run '%s' to resume", R.dir);
			goto out;
		}
		buf_addf(&pp, "%s/plan.json", R.dir);
		/* killed before its plan was written: nothing ran yet */
		if (!path_exists(pp.ptr))
			fresh = 1;
		else if (input_read_all(pp.ptr, input_max_small, &old)) {
			buf_release(&pp);
			goto out;
		}
		if (!fresh && (old.len != R.p.len || memcmp(old.ptr, R.p.text, old.len))) {
			error("'%s' is not the plan the run in '%s' started with (its copy is "
			      "'%s'): resume with that one", plan, R.dir, pp.ptr);
			buf_release(&pp);
			buf_release(&old);
			goto out;
		}
		buf_release(&pp);
		buf_release(&old);
	} else {
		if (path_exists(R.dir)) {
			error("an unfinished run '%s' exists: continue it with --resume, or give "
			      "another --id", R.dir);
			goto out;
		}
		if (path_mkdirs(R.dir))
			goto out;
	}
	R.lockfd = open(R.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (R.lockfd < 0 || flock(R.lockfd, LOCK_EX | LOCK_NB)) {
		error("'%s' is being written by another erg record", R.dir);
		goto out;
	}
	buf_reset(&b);
	buf_addf(&b, "%s/load", R.dir);
	if (path_mkdirs(b.ptr))
		goto out;
	buf_reset(&b);
	buf_addf(&b, "%s/logs", R.dir);
	if (path_mkdirs(b.ptr))
		goto out;
	warnings = json_array();
	rec_preflight(&R.p, warnings);
	for (k = 0; k < json_array_size(warnings); k++)
		warn("preflight: %s", json_string_value(json_array_get(warnings, k)));
	buf_reset(&b);
	buf_addf(&b, "%s/timeline.jsonl", R.dir);
	if (resume && !fresh && !path_exists(b.ptr))
		fresh = 1;	/* killed before its first record */
	buf_reset(&b);
	buf_addf(&b, "%s/meta.json", R.dir);
	if (!resume || fresh || !path_exists(b.ptr)) {
		if (write_meta(&R, warnings))
			goto out;
	}
	buf_reset(&b);
	buf_addf(&b, "%s/plan.json", R.dir);
	if ((!resume || fresh) && write_file(b.ptr, R.p.text, R.p.len))
		goto out;
	{
		struct timespec rt;

		clock_gettime(CLOCK_REALTIME, &rt);
		R.mono0 = mono_ns();
		R.epoch0 = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec;
	}
	fprintf(stderr, "erg record: writing '%s'\n", R.dir);
	rc = run(&R, order, resume && !fresh, warnings);
	if (rc) {
		fprintf(stderr, "erg record: the unfinished run stays in '%s'; continue it with "
			"'erg record %s --archive %s --id %s --resume'\n", R.dir, plan, archive,
			R.id);
		rc = 1;
		goto out;
	}
	if (finish(&R))
		goto out;
	fprintf(stderr, "erg record: done: '%s'\n", R.final);
	rc = 0;
out:
	if (R.lockfd >= 0)
		close(R.lockfd);
	if (R.tlfd >= 0)
		close(R.tlfd);
	rec_powercap_stop(R.pc);
	sampler_stop(&R);
	json_decref(warnings);
	free(order);
	free(auto_id);
	for (k = 0; k < R.ndone; k++)
		free(R.done[k]);
	free(R.done);
	for (k = 0; R.versions && k < R.p.nt; k++)
		free(R.versions[k]);
	free(R.versions);
	free(R.prev);
	free(R.id);
	free(R.dir);
	free(R.final);
	rec_plan_free(&R.p);
	buf_release(&b);
	return rc ? 1 : 0;
}
