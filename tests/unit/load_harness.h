/*
 * load_harness.h - what the load-reader tests share (test_load.c,
 * test_loadgen.c): EQ/ISNAN, capturing erg's diagnostics, and reading a
 * sample from ../shared/samples through one reader.  Included once per
 * test program, after harness.h.
 */
#ifndef ERG_LOAD_HARNESS_H
#define ERG_LOAD_HARNESS_H

#define EQ(got, want) \
	CHECK_NEAR((got), (want), 1e-9 * fabs((double)(want)) + 1e-9, #got)
#define ISNAN(got) \
	CHECK(isnan(got), "%s is NAN (not reported): got %g", #got, (got))

/* ---- capturing diagnostics ------------------------------------------ */

static char captured[16384];
static int saved_fd = -1;
static FILE *cap_file;

static void
cap_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	if (!cap_file) {
		perror("tmpfile");
		exit(2);
	}
	saved_fd = dup(2);
	dup2(fileno(cap_file), 2);
}

static const char *
cap_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(cap_file);
	n = fread(captured, 1, sizeof(captured) - 1, cap_file);
	captured[n] = '\0';
	fclose(cap_file);
	return captured;
}

static void
show_captured(void)
{
	const char *p = captured, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		printf("#   %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* ---- samples --------------------------------------------------------- */

static const char *
shared_dir(void)
{
	const char *s = getenv("SHARED");

	return s && *s ? s : "../shared";
}

static int
read_sample(const char *rel, struct buf *b, struct buf *path)
{
	char tmp[65536];
	size_t k;
	FILE *f;

	buf_reset(path);
	buf_addf(path, "%s/samples/%s", shared_dir(), rel);
	f = fopen(path->ptr, "rb");
	CHECK(f != NULL, "sample %s is readable", path->ptr);
	if (!f)
		return -1;
	while ((k = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(b, tmp, k);
	fclose(f);
	return 0;
}

/* Parse one sample with load_parse; it must give no diagnostic at all. */
static int
sample(const char *rel, struct load_result *r)
{
	struct buf b = BUF_INIT, path = BUF_INIT;
	int rc = -1;

	load_result_init(r);
	if (!read_sample(rel, &b, &path)) {
		cap_begin();
		rc = load_parse(path.ptr, b.ptr, b.len, LOAD_UNKNOWN, r);
		cap_end();
		CHECK(rc == 0 && !captured[0], "%s parses without diagnostics",
		      rel);
		if (rc || captured[0])
			show_captured();
	}
	buf_release(&b);
	buf_release(&path);
	return rc;

#endif
