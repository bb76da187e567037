/*
 * mkarchive - write a large synthetic archive for the scale benchmark
 * (tests/bench/bench.sh, issue 19).
 *
 * usage: mkarchive OUT N FULL SMALL SUMMARY [MACHINES]
 *        mkarchive --one KIND TEMPLATE DIR MACHINE DATE TITLE
 *
 * OUT (absent or empty) gets N runs over MACHINES machines (default 200)
 * and five years (2022-2026), as a nightly archive grows: about 15 % full
 * energy sessions (FULL: the reference M5 session), 25 % summary runs
 * (SUMMARY: a run.json with its tables) and 60 % small sessions (SMALL:
 * tests/tools/mksmall).  Each run is OUT/<machine>/<date>-<kind>-<n>: its
 * meta.json or run.json is written with its own title, machine id and
 * date; every other file is a hard link to a private copy of the
 * template's in OUT.tmpl/ (the archive costs a few KB a run, erg still
 * reads every byte of each).  Private: a link changes the ctime of the
 * file it links, which is part of every run key (cache.h), so linking to
 * files that anything else links too (the repository's archive, another
 * generated archive) would make every run sharing them "changed".
 *
 * The output is a pure function of the arguments (own splitmix64, no
 * clock, sorted directory walks).  --one writes the single run DIR of KIND
 * (energy, small or published) from TEMPLATE, copying its files (the
 * bench's "add one": links would change the other runs' keys).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void
die(const char *what, const char *path)
{
	fprintf(stderr, "mkarchive: %s '%s': %s\n", what, path, strerror(errno));
	exit(1);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("cannot read", path);
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		die("cannot read", path);
	b[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return b;
}

/*
 * text with the string value of the first "key" member after anchor (NULL:
 * from the start) replaced by val (plain ASCII, nothing to escape).
 */
static char *
set_member(char *text, const char *anchor, const char *key, const char *val)
{
	char pat[64], *p = text, *q, *e, *out;
	size_t n;

	if (anchor && !(p = strstr(text, anchor)))
		goto missing;
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (!(p = strstr(p, pat)) || !(q = strchr(p + strlen(pat), '"')) ||
	    !(e = strchr(q + 1, '"')))
		goto missing;
	n = strlen(text) - (size_t)(e - text) + (size_t)(q + 1 - text) + strlen(val) + 1;
	out = malloc(n);
	if (!out)
		exit(1);
	snprintf(out, n, "%.*s%s%s", (int)(q + 1 - text), text, val, e);
	free(text);
	return out;
missing:
	fprintf(stderr, "mkarchive: the template has no '%s' member\n", key);
	exit(1);
}

static void
mkdirs(const char *path)
{
	char p[4096];
	size_t i;

	snprintf(p, sizeof(p), "%s", path);
	for (i = 1; p[i]; i++)
		if (p[i] == '/') {
			p[i] = '\0';
			if (mkdir(p, 0777) && errno != EEXIST)
				die("cannot create", p);
			p[i] = '/';
		}
	if (mkdir(p, 0777) && errno != EEXIST)
		die("cannot create", p);
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
copy_file(const char *from, const char *to)
{
	char buf[65536];
	size_t k;
	FILE *in = fopen(from, "rb"), *out;

	if (!in)
		die("cannot read", from);
	if (!(out = fopen(to, "wbx")))
		die("cannot write", to);
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, k, out) != k)
			die("cannot write", to);
	if (ferror(in))
		die("cannot read", from);
	fclose(in);
	if (fclose(out))
		die("cannot write", to);
}

/* Hard links (copies when copy) of every file under from in to, but skip
 * (meta.json or run.json at the top, written by the caller). */
static void
link_tree(const char *from, const char *to, const char *skip, int copy)
{
	char **names = NULL, a[4096], b[4096];
	size_t n = 0, i;
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(from);

	if (!d)
		die("cannot list", from);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (skip && !strcmp(e->d_name, skip)))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "%s/%s", from, names[i]);
		snprintf(b, sizeof(b), "%s/%s", to, names[i]);
		if (lstat(a, &st))
			die("cannot stat", a);
		if (S_ISDIR(st.st_mode)) {
			mkdirs(b);
			link_tree(a, b, NULL, copy);
		} else if (copy) {
			copy_file(a, b);
		} else if (link(a, b)) {
			die("cannot link", b);
		}
		free(names[i]);
	}
	free(names);
}

/* One run: dir from the template tmpl of kind 'f'ull, 's'mall or 'p'ublished. */
static void
write_run(const char *dir, const char *tmpl, int kind, const char *machine,
	  const char *iso, const char *title, int copy)
{
	const char *name = kind == 'p' ? "run.json" : "meta.json";
	char path[4096], *text;
	size_t len;
	FILE *f;

	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/%s", tmpl, name);
	text = slurp(path, &len);
	text = set_member(text, NULL, "title", title);
	text = set_member(text, "\"machine\"", "id", machine);
	if (kind == 'p') {
		char day[11];

		snprintf(day, sizeof(day), "%.10s", iso);
		text = set_member(text, NULL, "date", day);
	} else {
		text = set_member(text, NULL, "capturedAt", iso);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f))
		die("cannot write", path);
	free(text);
	link_tree(tmpl, dir, name, copy);
}

static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

/* ISO 8601 of second s after 2022-01-01T00:00:00Z (no leap years to
 * 2027 but 2024). */
static void
iso_of(uint64_t s, char out[32])
{
	int y = 2022, m = 0, d;
	uint64_t day = s / 86400, sec = s % 86400;

	for (;;) {
		int yd = (y % 4 == 0) ? 366 : 365;

		if (day < (uint64_t)yd)
			break;
		day -= (uint64_t)yd;
		y++;
	}
	for (;; m++) {
		int md = mdays[m] + (m == 1 && y % 4 == 0);

		if (day < (uint64_t)md)
			break;
		day -= (uint64_t)md;
	}
	d = (int)day + 1;
	snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02dZ", y % 10000, (m + 1) % 100, d % 100,
		 (int)(sec / 3600), (int)(sec / 60 % 60), (int)(sec % 60));
}

int
main(int argc, char **argv)
{
	const char *out, *tm[3];
	static char *xtmpl[3];
	unsigned long n, nm = 200, i;
	const uint64_t span = (uint64_t)(5 * 365 + 1) * 86400;

	if (argc == 8 && !strcmp(argv[1], "--one")) {
		/* KIND: energy, small (both meta.json) or published (run.json) */
		write_run(argv[4], argv[3], !strcmp(argv[2], "published") ? 'p' : 'f', argv[5],
			  argv[6], argv[7], 1);
		return 0;
	}
	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: mkarchive OUT N FULL SMALL SUMMARY [MACHINES]\n"
			"       mkarchive --one KIND TEMPLATE DIR MACHINE DATE TITLE\n");
		return 2;
	}
	out = argv[1];
	n = strtoul(argv[2], NULL, 10);
	for (i = 0; i < 3; i++) {
		static const char *const kn[] = { "full", "small", "summary" };
		char d[4096];

		snprintf(d, sizeof(d), "%s.tmpl/%s", out, kn[i]);
		mkdirs(d);
		link_tree(argv[3 + i], d, NULL, 1);
		tm[i] = xtmpl[i] = strdup(d);
	}
	if (argc == 7)
		nm = strtoul(argv[6], NULL, 10);
	if (!n || !nm) {
		fprintf(stderr, "mkarchive: N and MACHINES must be positive\n");
		return 2;
	}
	mkdirs(out);
	for (i = 0; i < n; i++) {
		uint64_t h = mix(i * 2 + 1), t;
		unsigned long m = (unsigned long)(mix(i * 2 + 2) % nm);
		int pct = (int)(h % 100), kind = pct < 15 ? 'f' : pct < 40 ? 'p' : 's';
		const char *kname = kind == 'f' ? "energy" : kind == 'p' ? "published" : "small";
		char iso[32], dir[4096], machine[32], title[128];

		/* in archive order over five years, a few hours apart at random */
		t = (uint64_t)((double)i / (double)n * (double)(span - 86400)) + (h >> 40) % 14400;
		iso_of(t, iso);
		snprintf(machine, sizeof(machine), "host-%03lu", m);
		snprintf(title, sizeof(title), "Nightly %s run %lu on %s", kname, i, machine);
		snprintf(dir, sizeof(dir), "%s/%s/%.10s-%s-%06lu", out, machine, iso, kname, i);
		write_run(dir, tm[kind == 'f' ? 0 : kind == 's' ? 1 : 2], kind, machine, iso, title, 0);
	}
	for (i = 0; i < 3; i++)
		free(xtmpl[i]);
	return 0;
}
