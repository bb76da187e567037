/*
 * replay.c - a main() for fuzz targets built without libFuzzer: runs the
 * target once on each file named (a directory: each regular file in it,
 * in name order, dot files skipped).  make test runs every checked-in
 * corpus this way, so the targets keep compiling with the project's
 * compiler and flags, and every past crash stays fixed.
 *
 * usage: replay_<target> FILE|DIR...
 * Writes "replay: FILE" on stderr before each input (the last such line
 * names the culprit of a crash) and "N inputs" on stdout at the end.
 * Each input is copied into a buffer of exactly its size, so an ASan
 * build (make asan) sees any read past its end.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "base/util.h"

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
run_file(const char *path, size_t *count)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("replay: cannot read '%s': %s", path, strerror(errno));
	data = xmalloc(n ? (size_t)n : 1);
	if (n && fread(data, 1, (size_t)n, f) != (size_t)n)
		die("replay: cannot read '%s'", path);
	fclose(f);
	fprintf(stderr, "replay: %s\n", path);
	fflush(stderr);
	LLVMFuzzerTestOneInput(data, (size_t)n);
	free(data);
	(*count)++;
}

static void
run_dir(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, p[4096];
	size_t n = 0, alloc = 0, i;
	struct stat st;

	if (!d)
		die("replay: cannot open '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (!stat(p, &st) && S_ISREG(st.st_mode))
			run_file(p, count);
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	size_t count = 0;
	struct stat st;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st))
			die("replay: cannot read '%s': %s", argv[i], strerror(errno));
		if (S_ISDIR(st.st_mode))
			run_dir(argv[i], &count);
		else
			run_file(argv[i], &count);
	}
	printf("%zu inputs\n", count);
	return 0;
}
