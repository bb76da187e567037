/*
 * test_power.c - the powermetrics reader, time fit and window integration.
 * Every reader test runs twice: with the fast path (plistfast.c) and with
 * libplist alone (POWER_PARSE_LIBPLIST), the reference.
 *
 * Real samples come from $SHARED/samples/powermetrics (SHARED defaults to
 * "../shared").  Every expected figure for them was read by hand from the
 * file; the comment beside it quotes the line(s) it comes from.  Synthetic
 * streams are built here and written to mkstemp files under /tmp.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"
#include "harness.h"
#include "ingest/input.h"
#include "analyze/integrate.h"
#include "ingest/powermetrics.h"
#include "base/progress.h"
#include "base/sha256.h"
#include "base/util.h"

/* ---- helpers ---------------------------------------------------------- */

/* power_read() and the time fit analyze_run() makes: what every window
 * test below integrates over. */
static int
read_fitted(const char *path, struct power_file *pf)
{
	int rc = power_read(path, pf);

	if (!rc)
		power_fit(pf);
	return rc;
}

static char *tmp_paths[128];
static int ntmp;

static const char *
tmp_write(const void *p, size_t n)
{
	char tmpl[] = "/tmp/erg-test-power-XXXXXX";
	int fd = mkstemp(tmpl);

	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n) || close(fd) < 0)
		die_errno("cannot write temporary file");
	if (ntmp == (int)(sizeof(tmp_paths) / sizeof(tmp_paths[0])))
		die("too many temporary files");
	tmp_paths[ntmp] = xstrdup(tmpl);
	return tmp_paths[ntmp++];
}

static void
tmp_cleanup(void)
{
	while (ntmp > 0) {
		unlink(tmp_paths[--ntmp]);
		free(tmp_paths[ntmp]);
	}
}

static void
gz_member(struct buf *out, const void *p, size_t n)
{
	unsigned char chunk[16384];
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2 failed");
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		ret = deflate(&z, Z_FINISH);
		buf_add(out, chunk, sizeof(chunk) - z.avail_out);
	} while (ret == Z_OK || ret == Z_BUF_ERROR);
	if (ret != Z_STREAM_END)
		die("deflate failed");
	deflateEnd(&z);
}

static int saved_fd = -1;
static FILE *cap_file;

static void
cap_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	saved_fd = dup(2);
	if (!cap_file || saved_fd < 0 || dup2(fileno(cap_file), 2) < 0)
		die_errno("cannot capture stderr");
}

static void
cap_end(struct buf *out)
{
	char tmp[4096];
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	buf_reset(out);
	rewind(cap_file);
	while ((n = fread(tmp, 1, sizeof(tmp), cap_file)) > 0)
		buf_add(out, tmp, n);
	fclose(cap_file);
}

static const char *
one_line(struct buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (b->ptr[i] == '\n')
			b->ptr[i] = '|';
	return b->ptr;
}

static const char *
sample_path(struct buf *b, const char *name)
{
	const char *shared = getenv("SHARED");

	buf_reset(b);
	buf_addf(b, "%s/samples/powermetrics/%s", shared ? shared : "../shared", name);
	return b->ptr;
}

/*
 * Read path with stderr captured into err; returns power_read's result and
 * sets *nwarn / *nerr to the diagnostics it counted.
 */
static int
read_captured(const char *path, struct power_file *pf, struct buf *err,
	      int *nwarn, int *nerr)
{
	int w0 = diag_warnings, e0 = diag_errors, r;

	cap_begin();
	r = read_fitted(path, pf);
	cap_end(err);
	*nwarn = diag_warnings - w0;
	*nerr = diag_errors - e0;
	return r;
}

/* Documents for synthetic streams, laid out as powermetrics writes them. */
static void
doc_begin(struct buf *b)
{
	buf_addstr(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
		   "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
		   "<plist version=\"1.0\">\n<dict>\n");
}

static void
doc_end(struct buf *b)
{
	buf_addstr(b, "</dict>\n</plist>\n");
}

/* A whole document whose top-level dict holds body. */
static void
custom_doc(struct buf *b, const char *body)
{
	doc_begin(b);
	buf_addstr(b, body);
	doc_end(b);
}

/*
 * An Apple-silicon sample (M5 style: E-, P- and S-clusters).  Its
 * combined_power is deliberately inconsistent, to show that the mJ counters
 * are preferred when present.
 */
static void
apple_doc(struct buf *b, const char *ts, long long elapsed_ns, int cpu_mj,
	  int gpu_mj, int ane_mj, const char *thermal)
{
	doc_begin(b);
	buf_addf(b, "<key>is_delta</key><true/>\n"
		 "<key>elapsed_ns</key><integer>%lld</integer>\n"
		 "<key>hw_model</key><string>Mac17,3</string>\n"
		 "<key>kern_osversion</key><string>25G5</string>\n"
		 "<key>timestamp</key><date>%s</date>\n", elapsed_ns, ts);
	buf_addstr(b, "<key>processor</key>\n<dict>\n<key>clusters</key>\n<array>\n"
		   "<dict>\n<key>name</key><string>E-Cluster</string>\n"
		   "<key>freq_hz</key><real>1.2e+09</real>\n</dict>\n"
		   "<dict>\n<key>name</key><string>P0-Cluster</string>\n"
		   "<key>freq_hz</key><real>3e+09</real>\n</dict>\n"
		   "<dict>\n<key>name</key><string>S-Cluster</string>\n"
		   "<key>freq_hz</key><real>4e+09</real>\n</dict>\n"
		   "</array>\n");
	buf_addf(b, "<key>cpu_energy</key>\n<integer>%d</integer>\n"
		 "<key>gpu_energy</key>\n<integer>%d</integer>\n"
		 "<key>ane_energy</key>\n<integer>%d</integer>\n"
		 "<key>combined_power</key>\n<real>99999</real>\n</dict>\n",
		 cpu_mj, gpu_mj, ane_mj);
	buf_addf(b, "<key>thermal_pressure</key><string>%s</string>\n", thermal);
	doc_end(b);
}

/* The other two counters of apple_doc(), for documents of the same file. */
#define ZERO_GPU_ANE "<key>gpu_energy</key>\n<integer>0</integer>\n" \
	"<key>ane_energy</key>\n<integer>0</integer>\n"

/* Unix seconds of 2026-08-26T08:56:00Z (date -u -d 2026-08-26T08:56:00Z +%s). */
#define T0_S 1787734560.0
#define T0 (T0_S * 1000)

/* ---- real samples ----------------------------------------------------- */

static void
test_real_samples(void)
{
	int ok;
	struct buf path = BUF_INIT, err = BUF_INIT, raw = BUF_INIT, want = BUF_INIT;
	struct power_file pf;
	int r, nw, ne;
	const char *nul;
	size_t i;

	/* m1pro: 5 samples, NUL between documents, --show-all (coalitions). */
	r = read_captured(sample_path(&path, "m1pro_MacBookPro18-3_macos15.3_24D81_show-all_5samples.plist"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 5 && pf.docs == 5 && pf.dropped == 0 && nw == 0 && ne == 0,
	      "m1pro: 5 samples, no diagnostics (n=%zu, %s)", pf.n, one_line(&err));
	if (pf.n == 5) {
		/* 11611 <integer>465</integer> (cpu), 11615 <integer>27</integer> (gpu), 11619 <integer>0</integer> (ane) */
		CHECK_NEAR(pf.s[0].joules, 0.492, 1e-12, "m1pro sample 1 joules");
		CHECK(pf.s[0].src == PSRC_ENERGY, "m1pro joules from the mJ counters");
		/* 6: <key>elapsed_ns</key><integer>1026042166</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 1026.042166, 1e-9, "m1pro sample 1 elapsed");
		/* 11: <key>timestamp</key><date>2025-03-24T16:57:20Z</date>  (= 1742835440 s) */
		CHECK_NEAR(pf.s[0].ts_ms, 1742835440000.0, 0, "m1pro sample 1 timestamp");
		/* 10925 P0-Cluster <real>2.45394e+09</real>, 11268 P1-Cluster <real>7.27361e+08</real> */
		CHECK_NEAR(pf.s[0].pclust_mhz, (2453.94 + 727.361) / 2, 1e-9, "m1pro sample 1 P-clusters");
		/* 10816 E-Cluster <key>freq_hz</key><real>1.2533e+09</real> */
		CHECK_NEAR(pf.s[0].eclust_mhz, 1253.3, 1e-9, "m1pro sample 1 E-cluster");
		/* 11625 <key>thermal_pressure</key><string>Nominal</string> */
		CHECK(pf.s[0].thermal == THERMAL_NOMINAL, "m1pro thermal Nominal");
		/* 22706 <integer>337</integer>, 22710 <integer>23</integer>, 22714 <integer>0</integer> */
		CHECK_NEAR(pf.s[1].joules, 0.360, 1e-12, "m1pro sample 2 joules");
		/* 55672 <integer>294</integer>, 55676 <integer>26</integer>, 55680 <integer>0</integer> */
		CHECK_NEAR(pf.s[4].joules, 0.320, 1e-12, "m1pro sample 5 joules");
		/* 45066 <key>elapsed_ns</key><integer>1031831541</integer> */
		CHECK_NEAR(pf.s[4].elapsed_ms, 1031.831541, 1e-9, "m1pro sample 5 elapsed");
		/* 45071 <date>2025-03-24T16:57:24Z</date> */
		CHECK_NEAR(pf.s[4].ts_ms, 1742835444000.0, 0, "m1pro sample 5 timestamp");
		/* 54986 P0 <real>2.44802e+09</real>, 55329 P1 <real>6.30926e+08</real>, 54877 E <real>1.26209e+09</real> */
		CHECK_NEAR(pf.s[4].pclust_mhz, (2448.02 + 630.926) / 2, 1e-9, "m1pro sample 5 P-clusters");
		CHECK_NEAR(pf.s[4].eclust_mhz, 1262.09, 1e-9, "m1pro sample 5 E-cluster");
		/* 7: <key>hw_model</key><string>MacBookPro18,3</string>, 8: 24D81 */
		CHECK_STR(pf.hw_model, "MacBookPro18,3", "m1pro hw_model");
		/* the performance clusters as named: P0-Cluster (10925) first of 2 */
		CHECK_STR(pf.pclust_name, "P0-Cluster", "m1pro performance cluster name");
		CHECK(pf.pclust_count == 2, "m1pro: 2 performance clusters (%zu)", pf.pclust_count);
		CHECK_STR(pf.os_build, "24D81", "m1pro kern_osversion");
		/* Document offsets: each one starts right after a NUL of the file. */
		if (input_read_all(path.ptr, input_max_stream, &raw) == 0) {
			nul = raw.ptr;
			for (i = 1; i < 5; i++) {
				nul = memchr(nul, '\0', raw.len - (size_t)(nul - raw.ptr));
				if (!nul)
					break;
				nul++;
				CHECK(pf.s[i].off == (uint64_t)(nul - raw.ptr),
				      "m1pro sample %zu starts after NUL %zu (off %llu)", i + 1, i,
				      (unsigned long long)pf.s[i].off);
			}
		}
		/* The fitted windows tile: each starts where the previous ended. */
		for (i = 1; i < 5; i++)
			CHECK_NEAR(pf.s[i].start_ms, pf.s[i - 1].end_ms, 1e-3, "m1pro windows tile");
		CHECK(pf.fit_b > 0.9 && pf.fit_b < 1.1, "m1pro fit slope %g", pf.fit_b);
	}
	power_file_free(&pf);

	/* m4max: one sample, no NUL at all, tasks sampler. */
	r = read_captured(sample_path(&path, "m4max_Mac16-5_macos26.2_25C56_tasks_1sample.plist"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 1 && nw == 0 && ne == 0, "m4max: 1 sample (%s)", one_line(&err));
	if (pf.n == 1) {
		/* 6793 <integer>3049</integer>, 6797 <integer>276</integer>, 6801 <integer>0</integer> */
		CHECK_NEAR(pf.s[0].joules, 3.325, 1e-12, "m4max joules (processor gpu_energy, not gpu's 284)");
		/* 6: <key>elapsed_ns</key><integer>1023685416</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 1023.685416, 1e-9, "m4max elapsed");
		/* 11: <key>timestamp</key><date>2026-01-22T21:07:07Z</date> (= 1769116027 s) */
		CHECK_NEAR(pf.s[0].ts_ms, 1769116027000.0, 0, "m4max timestamp");
		/* 5231 P0-Cluster <real>3.56087e+09</real>, 6013 P1-Cluster <real>1.26002e+09</real> */
		CHECK_NEAR(pf.s[0].pclust_mhz, 2410.445, 1e-9, "m4max P-clusters");
		/* 4996 E-Cluster <real>1.15444e+09</real> */
		CHECK_NEAR(pf.s[0].eclust_mhz, 1154.44, 1e-9, "m4max E-cluster");
		CHECK_STR(pf.pclust_name, "P0-Cluster", "m4max performance cluster name");
		CHECK(pf.pclust_count == 2, "m4max: 2 performance clusters (%zu)", pf.pclust_count);
		CHECK(pf.s[0].thermal == THERMAL_NOMINAL, "m4max thermal (6807 Nominal)");
		/* One sample: b = 1 and the window ends at ts + 500 ms. */
		CHECK(pf.fit_b == 1, "m4max single-sample slope 1");
		CHECK_NEAR(pf.s[0].end_ms, 1769116027500.0, 1e-6, "m4max end");
		CHECK_NEAR(pf.s[0].start_ms, 1769116027500.0 - 1023.685416, 1e-6, "m4max start");
	}
	power_file_free(&pf);

	/* m2ultra: six clusters E0 P0 P1 E1 P2 P3, commented-out duplicate key. */
	r = read_captured(sample_path(&path, "m2ultra_Mac14-14_macos14.4_23E224_1sample_EDITED.xml"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 1 && nw == 0 && ne == 0, "m2ultra: 1 sample (%s)", one_line(&err));
	if (pf.n == 1) {
		/* 2318 <integer>855</integer>, 2322 <integer>72607</integer>, 2326 <integer>0</integer> */
		CHECK_NEAR(pf.s[0].joules, 73.462, 1e-9, "m2ultra joules");
		/* 219 P0 <real>2.77502e+09</real>, 694 P1 <real>3.48197e+09</real>,
		 * 1369 P2 <real>7.02001e+08</real>, 1844 P3 <real>3.27921e+09</real> */
		CHECK_NEAR(pf.s[0].pclust_mhz, (2775.02 + 3481.97 + 702.001 + 3279.21) / 4, 1e-9,
			   "m2ultra P-clusters");
		/* 19 E0 <real>9.90818e+08</real>, 1169 E1 <real>9.122e+08</real> */
		CHECK_NEAR(pf.s[0].eclust_mhz, (990.818 + 912.2) / 2, 1e-9, "m2ultra E-clusters");
		/* 6: <key>elapsed_ns</key><integer>1023721416</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 1023.721416, 1e-9, "m2ultra elapsed");
		/* 11: <date>2024-04-12T22:42:39Z</date> (= 1712961759 s) */
		CHECK_NEAR(pf.s[0].ts_ms, 1712961759000.0, 0, "m2ultra timestamp");
	}
	power_file_free(&pf);

	/* m1: re-indented, E-Cluster/P-Cluster, duplicate gpu idle_ns. */
	r = read_captured(sample_path(&path, "m1_MacBookPro17-1_macos13.3_22E252_1sample_REINDENTED.xml"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 1 && nw == 0 && ne == 0, "m1: 1 sample (%s)", one_line(&err));
	if (pf.n == 1) {
		/* 622 <integer>89</integer>, 626 <integer>31</integer>, 630 <integer>0</integer> */
		CHECK_NEAR(pf.s[0].joules, 0.120, 1e-12, "m1 joules");
		/* 195 P-Cluster <real>6.18173e+08</real>; 19 E-Cluster <real>1.02287e+09</real> */
		CHECK_NEAR(pf.s[0].pclust_mhz, 618.173, 1e-9, "m1 P-cluster");
		CHECK_NEAR(pf.s[0].eclust_mhz, 1022.87, 1e-9, "m1 E-cluster");
		CHECK_STR(pf.pclust_name, "P-Cluster", "m1 performance cluster name (195)");
		CHECK(pf.pclust_count == 1, "m1: 1 performance cluster (%zu)", pf.pclust_count);
		/* 6: <key>elapsed_ns</key><integer>2019178750</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 2019.17875, 1e-9, "m1 elapsed");
	}
	power_file_free(&pf);

	/* Intel, OS X 10.9: 9 samples, NUL after every one, XML comments. */
	r = read_captured(sample_path(&path, "intel_MacBookPro10-1_osx10.9_13B42_9samples.output"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 9 && pf.docs == 9 && nw == 0 && ne == 0,
	      "intel 10-1: 9 samples (n=%zu, %s)", pf.n, one_line(&err));
	if (pf.n == 9) {
		/* 2252 <key>package_joules</key><real>27.5028</real> */
		CHECK_NEAR(pf.s[0].joules, 27.5028, 1e-12, "intel sample 1 package_joules");
		CHECK(pf.s[0].src == PSRC_PACKAGE, "intel joules from package_joules");
		/* 6: <key>elapsed_ns</key><integer>5004803923</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 5004.803923, 1e-9, "intel sample 1 elapsed");
		/* 9: <key>timestamp</key><date>2014-01-21T23:14:36Z</date> (= 1390346076 s) */
		CHECK_NEAR(pf.s[0].ts_ms, 1390346076000.0, 0, "intel sample 1 timestamp");
		/* 13271 <key>package_joules</key><real>33.7629</real> (5th sample) */
		CHECK_NEAR(pf.s[4].joules, 33.7629, 1e-12, "intel sample 5 package_joules");
		/* 25673 <key>package_joules</key><real>21.4203</real>; 23892 elapsed 5005983051 */
		CHECK_NEAR(pf.s[8].joules, 21.4203, 1e-12, "intel sample 9 package_joules");
		CHECK_NEAR(pf.s[8].elapsed_ms, 5005.983051, 1e-9, "intel sample 9 elapsed");
		CHECK(isnan(pf.s[0].pclust_mhz) && pf.s[0].thermal == THERMAL_ABSENT,
		      "intel: no clusters, no thermal_pressure");
		CHECK(!pf.pclust_name && !pf.pclust_count, "intel: no performance cluster named");
		CHECK_STR(pf.hw_model, "MacBookPro10,1", "intel hw_model (line 7)");
	}
	power_file_free(&pf);

	/* Intel, re-serialised with tabs, values on their own lines. */
	r = read_captured(sample_path(&path, "intel_MacBookPro11-3_osx10.9.2_13D65_1sample_RESERIALIZED.output"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 1 && nw == 0 && ne == 0, "intel 11-3: 1 sample (%s)", one_line(&err));
	if (pf.n == 1) {
		/* 1901-1902: <key>package_joules</key> / <real>13.0469</real> */
		CHECK_NEAR(pf.s[0].joules, 13.0469, 1e-12, "intel 11-3 package_joules");
		/* 3370-3371: <key>elapsed_ns</key> / <integer>4295788088</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 4295.788088, 1e-9, "intel 11-3 elapsed");
		/* 235-236: <date>2014-06-13T17:07:20Z</date> (= 1402679240 s) */
		CHECK_NEAR(pf.s[0].ts_ms, 1402679240000.0, 0, "intel 11-3 timestamp");
	}
	power_file_free(&pf);

	/*
	 * VMware: no power keys, and line 1661 is powermetrics' own stray
	 * "warning: time went backwards by 1418132621000000000 ns" between
	 * <key>all_tasks</key> and its <dict>, which libplist 2.2.0 rejects.
	 */
	r = read_captured(sample_path(&path, "intel_VMware7-1_no-power_1sample.output"),
			  &pf, &err, &nw, &ne);
	buf_reset(&raw);
	buf_reset(&want);
	if (input_read_all(path.ptr, input_max_stream, &raw) == 0 &&
	    (nul = strstr(raw.ptr, "warning: time went")) != NULL)
		buf_addf(&want, "erg: %s:@%zu: warning: sample 1: ignored stray text between elements: "
			 "'warning: time went backwards by 1418132621000000000 ns'\n",
			 path.ptr, (size_t)(nul - raw.ptr));
	CHECK(r == 0 && pf.n == 1 && nw == 1 && ne == 0, "VMware: the sample is not lost");
	ok = !strcmp(err.ptr, want.ptr);
	CHECK(ok, "VMware: one warning at the stray text: %s", one_line(&err));
	if (pf.n == 1) {
		CHECK(isnan(pf.s[0].joules) && pf.s[0].src == PSRC_NONE, "VMware: no joules");
		/* 6: <key>elapsed_ns</key><integer>2791294949</integer> */
		CHECK_NEAR(pf.s[0].elapsed_ms, 2791.294949, 1e-9, "VMware elapsed");
		/* 9: <key>timestamp</key><date>2014-12-09T13:48:10Z</date> (= 1418132890 s) */
		CHECK_NEAR(pf.s[0].ts_ms, 1418132890000.0, 0, "VMware timestamp");
		CHECK_STR(pf.hw_model, "VMware7,1", "VMware hw_model (line 7)");
	}
	power_file_free(&pf);

	buf_release(&path);
	buf_release(&err);
	buf_release(&raw);
	buf_release(&want);
}

static int
same_samples(const struct power_file *a, const struct power_file *b)
{
	size_t i;

	if (a->n != b->n || a->fit_a != b->fit_a || a->fit_b != b->fit_b)
		return 0;
	for (i = 0; i < a->n; i++) {
		const struct psample *x = &a->s[i], *y = &b->s[i];

#define SAME(f) (x->f == y->f || (isnan((double)x->f) && isnan((double)y->f)))
		if (!(SAME(ts_ms) && SAME(elapsed_ms) && SAME(joules) && SAME(pclust_mhz) &&
		      SAME(eclust_mhz) && SAME(start_ms) && SAME(end_ms) && SAME(off) &&
		      SAME(thermal) && SAME(src)))
			return 0;
#undef SAME
	}
	return 1;
}

static void
test_gzip_identical(void)
{
	static const char *const names[] = {
		"m1pro_MacBookPro18-3_macos15.3_24D81_show-all_5samples.plist",
		"intel_MacBookPro10-1_osx10.9_13B42_9samples.output",
	};
	struct buf path = BUF_INIT, raw = BUF_INIT, gz = BUF_INIT, err = BUF_INIT;
	struct power_file a, b;
	size_t i;
	int ra, rb, r, nw, ne, ok;

	for (i = 0; i < 2; i++) {
		buf_reset(&raw);
		buf_reset(&gz);
		ra = read_fitted(sample_path(&path, names[i]), &a);
		if (input_read_all(path.ptr, input_max_stream, &raw) < 0)
			die("cannot read %s", path.ptr);
		gz_member(&gz, raw.ptr, raw.len);
		rb = read_fitted(tmp_write(gz.ptr, gz.len), &b);
		CHECK(ra == 0 && rb == 0 && !a.gzip && b.gzip && a.n > 0 && same_samples(&a, &b),
		      "%s: gzip copy gives identical samples (%zu, %zu)", names[i], a.n, b.n);
		power_file_free(&a);
		power_file_free(&b);
	}

	/* A truncated gzip file is an input error, not a truncated sample. */
	r = read_captured(tmp_write(gz.ptr, gz.len / 2), &b, &err, &nw, &ne);
	ok = r == -1 && ne == 1 && b.n == 0 && strstr(err.ptr, ": error: truncated gzip stream\n");
	CHECK(ok, "half a gzip power file: %s", one_line(&err));
	buf_release(&err);
	buf_release(&path);
	buf_release(&raw);
	buf_release(&gz);
}

/* ---- time fit and integration, worked by hand ------------------------- */

static void
test_fit(void)
{
	int ok;
	struct power_file pf = POWER_FILE_INIT;
	struct psample s[3];
	struct buf err = BUF_INIT;
	int w0;

	/*
	 * Three samples of e = 1020 ms with timestamps T, T+1 s, T+2 s: the
	 * sampler's clock runs 2 % slow against the wall clock.
	 *   x = cum = 1020, 2040, 3060            mean 2040
	 *   y = ts - T + 500 = 500, 1500, 2500     mean 1500
	 *   Sxy = (-1020)(-1000) + 0 + (1020)(1000) = 2 040 000
	 *   Sxx = 1020^2 * 2                         = 2 080 800
	 *   b = 2040000 / 2080800 = 1000/1020 = 0.98039215686...
	 *   a = T + 1500 - b * 2040 = T + 1500 - 2000 = T - 500
	 *   end_i = a + b cum_i = T + 500, T + 1500, T + 2500
	 *   start_i = end_i - e_i b = end_i - 1000 = T - 500, T + 500, T + 1500
	 */
	memset(s, 0, sizeof(s));
	s[0].ts_ms = T0;
	s[1].ts_ms = T0 + 1000;
	s[2].ts_ms = T0 + 2000;
	s[0].elapsed_ms = s[1].elapsed_ms = s[2].elapsed_ms = 1020;
	pf.s = s;
	pf.n = 3;
	power_fit(&pf);
	CHECK_NEAR(pf.fit_b, 1000.0 / 1020.0, 1e-12, "fit slope 1000/1020");
	CHECK_NEAR(pf.fit_a, T0 - 500, 1e-6, "fit intercept T - 500");
	CHECK_NEAR(s[0].end_ms, T0 + 500, 1e-6, "sample 1 ends at T + 500");
	CHECK_NEAR(s[1].end_ms, T0 + 1500, 1e-6, "sample 2 ends at T + 1500");
	CHECK_NEAR(s[2].end_ms, T0 + 2500, 1e-6, "sample 3 ends at T + 2500");
	CHECK_NEAR(s[0].start_ms, T0 - 500, 1e-6, "sample 1 starts at T - 500");
	CHECK_NEAR(s[2].start_ms, T0 + 1500, 1e-6, "sample 3 starts at T + 1500");

	/*
	 * One sample: den = 0, so b = 1 and a = T + 500 - 700 = T - 200:
	 * the window is [T - 200, T + 500].
	 */
	s[0].elapsed_ms = 700;
	pf.n = 1;
	power_fit(&pf);
	CHECK(pf.fit_b == 1, "one sample: slope 1");
	CHECK_NEAR(pf.fit_a, T0 - 200, 1e-6, "one sample: intercept T - 200");
	CHECK_NEAR(s[0].start_ms, T0 - 200, 1e-6, "one sample: start T - 200");
	CHECK_NEAR(s[0].end_ms, T0 + 500, 1e-6, "one sample: end T + 500");

	/*
	 * Two 500 ms samples in the same whole second: OLS gives b = 0 (all
	 * windows would collapse to one instant).  The fit keeps b = 1 with
	 * the mean offset: a = mean(y) - mean(x) = T + 500 - 750 = T - 250,
	 * so the windows are [T - 250, T + 250] and [T + 250, T + 750].
	 */
	s[0].ts_ms = s[1].ts_ms = T0;
	s[0].elapsed_ms = s[1].elapsed_ms = 500;
	pf.n = 2;
	pf.path = (char *)(uintptr_t)"two-samples.plist";
	w0 = diag_warnings;
	cap_begin();
	power_fit(&pf);
	cap_end(&err);
	/* no stderr warning: session.c lists it on the run's page */
	ok = diag_warnings == w0 && !err.len && pf.fit_fallback;
	CHECK(ok, "degenerate slope flagged for the caller: %s", one_line(&err));
	CHECK(pf.fit_b == 1, "degenerate slope replaced by 1");
	CHECK_NEAR(s[0].start_ms, T0 - 250, 1e-6, "degenerate: start 1");
	CHECK_NEAR(s[0].end_ms, T0 + 250, 1e-6, "degenerate: end 1");
	CHECK_NEAR(s[1].end_ms, T0 + 750, 1e-6, "degenerate: end 2");
	buf_release(&err);
}

static void
set_sample(struct psample *s, double start, double end, double j, double mhz, int thermal)
{
	memset(s, 0, sizeof(*s));
	s->start_ms = T0 + start;
	s->end_ms = T0 + end;
	s->elapsed_ms = end - start;
	s->joules = j;
	s->pclust_mhz = mhz;
	s->eclust_mhz = NAN;
	s->thermal = (signed char)thermal;
}

static void
test_integrate(void)
{
	struct psample sa[4], sb[1];
	struct power_file f[2];
	struct pwin w;

	/*
	 * File A (ms after T):  [0,1000) 2 J 1000 MHz Nominal
	 *                       [1000,2000) 4 J 2000 MHz Moderate
	 *                       [2000,3000) no joules, no clusters, no thermal
	 *                       [3000,4000) 1 J 3000 MHz Nominal
	 * File B:               [4000,5000) 3 J, no clusters, Heavy
	 */
	set_sample(&sa[0], 0, 1000, 2, 1000, THERMAL_NOMINAL);
	set_sample(&sa[1], 1000, 2000, 4, 2000, THERMAL_MODERATE);
	set_sample(&sa[2], 2000, 3000, NAN, NAN, THERMAL_ABSENT);
	set_sample(&sa[3], 3000, 4000, 1, 3000, THERMAL_NOMINAL);
	set_sample(&sb[0], 4000, 5000, 3, NAN, THERMAL_HEAVY);
	memset(f, 0, sizeof(f));
	f[0].s = sa;
	f[0].n = 4;
	f[1].s = sb;
	f[1].n = 1;

	/*
	 * [500, 2500]: half of sample 1 (500/1000 x 2 J = 1 J), all of
	 * sample 2 (4 J), half of sample 3 (no joules: no energy, no
	 * coverage).  J = 5; covered 1500 of 2000 ms; W = 5 J / 2 s = 2.5;
	 * MHz = (1000 + 2000) / 2 (sample 3 has none); worst = Moderate.
	 */
	power_integrate(f, 2, T0 + 500, T0 + 2500, &w);
	CHECK_NEAR(w.energy_j, 5, 1e-9, "[500,2500] energy");
	CHECK_NEAR(w.mean_watts, 2.5, 1e-9, "[500,2500] watts");
	CHECK_NEAR(w.coverage, 0.75, 1e-12, "[500,2500] coverage");
	CHECK_NEAR(w.cluster_mhz, 1500, 1e-9, "[500,2500] cluster MHz");
	CHECK(w.samples == 3 && w.thermal == THERMAL_MODERATE, "[500,2500] 3 samples, Moderate");

	/* [3250, 3500]: a quarter of sample 4: 0.25 J in 0.25 s = 1 W. */
	power_integrate(f, 2, T0 + 3250, T0 + 3500, &w);
	CHECK_NEAR(w.energy_j, 0.25, 1e-9, "[3250,3500] energy");
	CHECK_NEAR(w.mean_watts, 1, 1e-9, "[3250,3500] watts");
	CHECK_NEAR(w.coverage, 1, 1e-12, "[3250,3500] coverage");
	CHECK(w.samples == 1, "[3250,3500] one sample");

	/* [1000, 2000] exactly: touching neighbours overlap by 0 and are out. */
	power_integrate(f, 2, T0 + 1000, T0 + 2000, &w);
	CHECK_NEAR(w.energy_j, 4, 1e-9, "[1000,2000] energy");
	CHECK(w.samples == 1 && w.thermal == THERMAL_MODERATE, "[1000,2000] only sample 2");

	/*
	 * [3500, 4600] across the two files: half of A's last (0.5 J) and
	 * 600/1000 of B's (1.8 J) = 2.3 J in 1.1 s; MHz only from A (3000);
	 * worst thermal Heavy (from B).
	 */
	power_integrate(f, 2, T0 + 3500, T0 + 4600, &w);
	CHECK_NEAR(w.energy_j, 2.3, 1e-9, "[3500,4600] energy over two files");
	CHECK_NEAR(w.mean_watts, 2.3 / 1.1, 1e-9, "[3500,4600] watts");
	CHECK_NEAR(w.coverage, 1, 1e-12, "[3500,4600] coverage");
	CHECK_NEAR(w.cluster_mhz, 3000, 1e-9, "[3500,4600] cluster MHz");
	CHECK(w.samples == 2 && w.thermal == THERMAL_HEAVY, "[3500,4600] Heavy");

	/* [4500, 6000]: half of B's (1.5 J); 500 of 1500 ms covered. */
	power_integrate(f, 2, T0 + 4500, T0 + 6000, &w);
	CHECK_NEAR(w.energy_j, 1.5, 1e-9, "[4500,6000] energy");
	CHECK_NEAR(w.coverage, 1.0 / 3, 1e-12, "[4500,6000] coverage");
	CHECK(isnan(w.cluster_mhz), "[4500,6000] no cluster MHz");

	/* Before everything, and an empty window. */
	power_integrate(f, 2, T0 - 5000, T0 - 1000, &w);
	CHECK(w.energy_j == 0 && w.coverage == 0 && w.samples == 0 && w.mean_watts == 0 &&
	      w.thermal == THERMAL_ABSENT && isnan(w.cluster_mhz), "window before all samples");
	power_integrate(f, 2, T0 + 10, T0 + 10, &w);
	CHECK(w.samples == 0 && isnan(w.mean_watts), "zero-length window");
	power_integrate(f, 0, T0, T0 + 1000, &w);
	CHECK(w.samples == 0 && w.energy_j == 0, "no files");
}

/* ---- synthetic streams ------------------------------------------------ */

static void
test_synthetic_end_to_end(void)
{
	struct buf s = BUF_INIT, err = BUF_INIT;
	struct power_file pf;
	struct pwin w;
	int r, nw, ne;

	/* Three 1020 ms samples at T, T+1 s, T+2 s of 1, 2, 3 J (as test_fit). */
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 900, 100, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:01Z", 1020000000, 1500, 400, 100, "Moderate");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:02Z", 1020000000, 3000, 0, 0, "Nominal");
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 3 && nw == 0 && ne == 0, "synthetic: 3 samples (%s)", one_line(&err));
	if (pf.n == 3) {
		/* 900 + 100 + 0 mJ; combined_power 99999 mW is not used. */
		CHECK_NEAR(pf.s[0].joules, 1, 1e-12, "counters preferred to combined_power");
		CHECK_NEAR(pf.s[1].joules, 2, 1e-12, "cpu + gpu + ane");
		CHECK_NEAR(pf.s[0].pclust_mhz, 4000, 1e-9, "S-Cluster preferred to P0-Cluster");
		CHECK_STR(pf.pclust_name, "S-Cluster", "named S-Cluster, not P0-Cluster");
		CHECK(pf.pclust_count == 1, "one S-Cluster (%zu)", pf.pclust_count);
		CHECK_NEAR(pf.s[0].eclust_mhz, 1200, 1e-9, "E-Cluster");
		CHECK(pf.s[1].thermal == THERMAL_MODERATE, "Moderate");
		/* Same series as test_fit: a = T - 500, b = 1000/1020. */
		CHECK_NEAR(pf.fit_a, T0 - 500, 1e-6, "synthetic fit intercept");
		CHECK_NEAR(pf.fit_b, 1000.0 / 1020.0, 1e-12, "synthetic fit slope");
		/*
		 * Windows [T-500,T+500], [T+500,T+1500], [T+1500,T+2500] of
		 * 1, 2, 3 J.  [T, T+1000]: half of each of the first two:
		 * 0.5 + 1 = 1.5 J in 1 s; Moderate seen; S-Cluster 4000 MHz.
		 */
		power_integrate(&pf, 1, T0, T0 + 1000, &w);
		CHECK_NEAR(w.energy_j, 1.5, 1e-9, "synthetic [T, T+1000] energy");
		CHECK_NEAR(w.mean_watts, 1.5, 1e-9, "synthetic [T, T+1000] watts");
		CHECK_NEAR(w.coverage, 1, 1e-9, "synthetic [T, T+1000] coverage");
		CHECK(w.thermal == THERMAL_MODERATE && w.samples == 2, "synthetic thermal and samples");
		CHECK_NEAR(w.cluster_mhz, 4000, 1e-9, "synthetic cluster MHz");
		/* The whole span holds all 6 J. */
		power_integrate(&pf, 1, T0 - 500, T0 + 2500, &w);
		CHECK_NEAR(w.energy_j, 6, 1e-9, "synthetic whole span 6 J");
	}
	CHECK_STR(pf.hw_model, "Mac17,3", "synthetic hw_model");
	power_file_free(&pf);
	buf_release(&s);
	buf_release(&err);
}

static void
test_framing(void)
{
	int ok;
	struct buf s = BUF_INIT, err = BUF_INIT, want = BUF_INIT;
	struct power_file pf;
	int r, nw, ne;
	const char *p;
	size_t off;

	/* Whitespace (and extra NULs) around the separators. */
	buf_addstr(&s, "  \n");
	buf_addch(&s, '\0');
	buf_addstr(&s, "\n \t");
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addstr(&s, " \r\n");
	buf_addch(&s, '\0');
	buf_addch(&s, '\0');
	buf_addstr(&s, "\r\n\t ");
	apple_doc(&s, "2026-08-26T08:56:01Z", 1020000000, 2000, 0, 0, "Nominal");
	buf_addstr(&s, "\n ");
	buf_addch(&s, '\0');
	buf_addstr(&s, " \n\n");
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 2 && pf.docs == 2 && nw == 0 && ne == 0,
	      "whitespace around NULs: 2 samples (%s)", one_line(&err));
	/* "  \n" NUL "\n \t": 7 bytes before the first "<?xml". */
	CHECK(pf.n == 2 && pf.s[0].off == 7 && pf.s[1].joules == 2,
	      "first document located after the leading whitespace (off %llu)",
	      pf.n ? (unsigned long long)pf.s[0].off : 0ULL);
	power_file_free(&pf);

	/* Two documents in one NUL-delimited chunk, then a third after a NUL. */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	off = s.len;
	apple_doc(&s, "2026-08-26T08:56:01Z", 1020000000, 2000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:02Z", 1020000000, 3000, 0, 0, "Nominal");
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 3 && nw == 0 && ne == 0, "two <?xml in one chunk: 3 samples (%s)",
	      one_line(&err));
	CHECK(pf.n == 3 && pf.s[1].off == off && pf.s[1].joules == 2 && pf.s[2].joules == 3,
	      "second document starts at its <?xml");
	power_file_free(&pf);

	/*
	 * A "<?xml" cut by the 256 KiB read boundary, no NULs at all: pad the
	 * first document with whitespace so the second starts 2 bytes before.
	 */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	while (s.len < 256 * 1024 - 2)
		buf_addch(&s, s.len % 64 ? ' ' : '\n');
	off = s.len;
	apple_doc(&s, "2026-08-26T08:56:01Z", 1020000000, 2000, 0, 0, "Nominal");
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 2 && nw == 0 && ne == 0 && pf.s[1].off == off,
	      "<?xml across a read boundary (%s)", one_line(&err));
	power_file_free(&pf);

	/*
	 * 3000 small documents without any NUL, over several 256 KiB reads:
	 * every one is found, wherever a read ends.  Sample k has k mJ, so
	 * they hold 0 + 1 + ... + 2999 = 2999 * 3000 / 2 = 4498500 mJ.
	 */
	buf_reset(&s);
	for (r = 0; r < 3000; r++) {
		buf_addf(&s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
			 "<key>elapsed_ns</key><integer>500000000</integer>\n"
			 "<key>timestamp</key><date>2026-08-26T%02d:%02d:%02dZ</date>\n"
			 "<key>processor</key><dict><key>cpu_energy</key><integer>%d</integer></dict>\n"
			 "</dict>\n</plist>\n%s", 8 + r / 7200, r / 2 / 60 % 60, r / 2 % 60, r,
			 r % 3 ? "" : "\n\n");
	}
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	ok = r == 0 && pf.n == 3000 && nw == 0 && ne == 0 && s.len > 3 * 256 * 1024;
	CHECK(ok, "3000 documents without NULs in %zu bytes: %zu samples (%s)", s.len, pf.n,
	      one_line(&err));
	if (ok) {
		struct pwin w;

		power_integrate(&pf, 1, pf.s[0].start_ms, pf.s[2999].end_ms, &w);
		CHECK_NEAR(w.energy_j, 4498.5, 1e-6, "all of their energy");
		/* Two 500 ms samples per whole second: a staircase of slope ~1. */
		CHECK_NEAR(pf.fit_b, 1, 1e-6, "two 500 ms samples a second: slope 1");
	}
	power_file_free(&pf);

	/* A stray line between documents: warned, no sample lost. */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off = s.len;
	buf_addstr(&s, "powermetrics: warning: something\n");
	apple_doc(&s, "2026-08-26T08:56:01Z", 1020000000, 2000, 0, 0, "Nominal");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: warning: ignored text between documents: 'powermetrics: warning: something'\n",
		 p, off);
	ok = r == 0 && pf.n == 2 && pf.docs == 2 && nw == 1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok,
	      "text between documents warned: %s", one_line(&err));
	power_file_free(&pf);

	/* Stray text inside a document, as in the VMware sample. */
	buf_reset(&s);
	buf_reset(&want);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off = s.len;
	custom_doc(&s, "<key>elapsed_ns</key><integer>1000000000</integer>\n"
		   "<key>timestamp</key><date>2026-08-26T08:56:01Z</date>\n"
		   "<key>processor</key>\nwarning: time went backwards by 5 ns\n<dict>\n"
		   "<key>cpu_energy</key>\n<integer>2500</integer>\n" ZERO_GPU_ANE "</dict>\n");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: warning: sample 2: ignored stray text between elements: "
		 "'warning: time went backwards by 5 ns'\n", p,
		 (size_t)(strstr(s.ptr + off, "warning:") - s.ptr));
	ok = r == 0 && pf.n == 2 && nw == 1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok,
	      "stray text inside a document: %s", one_line(&err));
	CHECK(pf.n == 2 && pf.s[1].joules == 2.5, "and its values are read");
	power_file_free(&pf);

	/* Stray text in every document: one warning, then a count. */
	buf_reset(&s);
	for (r = 0; r < 3; r++) {
		doc_begin(&s);
		buf_addf(&s, "<key>elapsed_ns</key><integer>1000000000</integer>\n"
			 "<key>timestamp</key>junk<date>2026-08-26T08:56:0%dZ</date>\n", r);
		doc_end(&s);
		buf_addch(&s, '\0');
	}
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	ok = r == 0 && pf.n == 3 && nw == 2 &&
	     strstr(err.ptr, "warning: sample 1: ignored stray text between elements: 'junk'\n") &&
	     strstr(err.ptr, "warning: ignored stray text in 2 other samples too\n");
	CHECK(ok, "stray text in every document warned once: %s", one_line(&err));
	power_file_free(&pf);

	/*
	 * An empty file, a file of separators, a file whose only document is
	 * dropped: no samples, an error at the file (not "window lies outside
	 * the power data" later, at the timeline).
	 */
	p = tmp_write("", 0);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_reset(&want);
	buf_addf(&want, "erg: %s: error: no powermetrics samples in the file\n", p);
	ok = r == -1 && pf.n == 0 && nw == 0 && ne == 1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "empty file: an error: %s", one_line(&err));
	power_file_free(&pf);
	p = tmp_write("\0\n\0 ", 4);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_reset(&want);
	buf_addf(&want, "erg: %s: error: no powermetrics samples in the file\n", p);
	CHECK(r == -1 && pf.n == 0 && nw == 0 && ne == 1 && !strcmp(err.ptr, want.ptr),
	      "only NULs and whitespace: an error");
	power_file_free(&pf);
	buf_reset(&s);
	custom_doc(&s, "<key>elapsed_ns</key><integer>1000000000</integer>\n");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_reset(&want);
	buf_addf(&want, "erg: %s:@0: warning: sample 1: no 'timestamp'; sample dropped\n"
		 "erg: %s: error: no powermetrics samples in the file (every document was "
		 "dropped)\n", p, p);
	ok = r == -1 && pf.n == 0 && nw == 1 && ne == 1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "every document dropped: an error: %s", one_line(&err));
	power_file_free(&pf);

	r = read_captured("/nonexistent/power.plist", &pf, &err, &nw, &ne);
	CHECK(r == -1 && ne == 1 && pf.n == 0 && !pf.path, "missing file: %s", one_line(&err));

	buf_release(&s);
	buf_release(&err);
	buf_release(&want);
}

static void
test_truncated_and_broken(void)
{
	int ok;
	struct buf s = BUF_INIT, err = BUF_INIT, want = BUF_INIT, d3 = BUF_INIT;
	struct power_file pf;
	int r, nw, ne;
	const char *p;
	size_t off;

	/* Truncated last document (powermetrics stopped mid-write). */
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:01Z", 1020000000, 2000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off = s.len;
	apple_doc(&d3, "2026-08-26T08:56:02Z", 1020000000, 3000, 0, 0, "Nominal");
	buf_add(&s, d3.ptr, d3.len / 2);
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: warning: sample 3: truncated document at the end of the file dropped\n",
		 p, off);
	CHECK(r == 0 && pf.n == 2 && pf.docs == 3 && pf.dropped == 1 && nw == 1 && ne == 0,
	      "truncated final document dropped (n=%zu dropped=%zu)", pf.n, pf.dropped);
	ok = !strcmp(err.ptr, want.ptr);
	CHECK(ok, "truncation warning: %s", one_line(&err));
	power_file_free(&pf);

	/* The same with a NUL and whitespace after it: still the last. */
	buf_addstr(&s, "\n");
	buf_addch(&s, '\0');
	buf_addstr(&s, "\n");
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 2 && pf.dropped == 1 && nw == 1 && ne == 0,
	      "truncated document followed by a NUL is still the last");
	power_file_free(&pf);

	/* Broken document in the middle: an error located at its start. */
	buf_reset(&s);
	buf_reset(&want);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off = s.len;
	custom_doc(&s, "<key>elapsed_ns</key><integer>1000000000</integer>\n"
		   "<key>timestamp</key><date>2026-08-26T08:56:01Z</date>\n"
		   "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n<integer>2500</integer>\n");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:02Z", 1020000000, 3000, 0, 0, "Nominal");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: error: sample 2: broken XML plist\n", p, off);
	CHECK(r == -1 && ne == 1 && pf.n == 0 && !pf.s, "broken middle document is an error");
	ok = !strcmp(err.ptr, want.ptr);
	CHECK(ok, "located at the document: %s", one_line(&err));

	/* A complete (</plist>-terminated) but broken last document is no truncation. */
	buf_reset(&s);
	buf_reset(&want);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off = s.len;
	custom_doc(&s, "<key>elapsed_ns</key><integer>1000000000</real>\n");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: error: sample 2: broken XML plist\n", p, off);
	ok = r == -1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "complete but broken last document: %s",
	      one_line(&err));

	buf_release(&s);
	buf_release(&err);
	buf_release(&want);
	buf_release(&d3);
}

/*
 * One document with body as its top-level dict, after one good document;
 * expects power_read to fail with a message containing what, located at
 * the first "<key>KEY</key>" of the second document.
 */
static void
expect_error(const char *body, const char *key, const char *what)
{
	int ok;
	struct buf s = BUF_INIT, err = BUF_INIT, want = BUF_INIT, kk = BUF_INIT;
	struct power_file pf;
	int r, nw, ne;
	const char *p;
	size_t off;

	apple_doc(&s, "2026-08-26T08:56:00Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off = s.len;
	custom_doc(&s, body);
	buf_addf(&kk, "<key>%s</key>", key);
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: error: sample 2: %s\n", p,
		 (size_t)(strstr(s.ptr + off, kk.ptr) - s.ptr), what);
	ok = r == -1 && ne == 1 && pf.n == 0 && !strcmp(err.ptr, want.ptr);
	CHECK(ok,
	      "%s: %s", what, one_line(&err));
	buf_release(&s);
	buf_release(&err);
	buf_release(&want);
	buf_release(&kk);
}

#define TS "<key>timestamp</key><date>2026-08-26T08:56:01Z</date>\n"
#define EL "<key>elapsed_ns</key><integer>1000000000</integer>\n"

static void
test_wrong_values(void)
{
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n<string>3049</string>\n</dict>\n",
		     "cpu_energy", "'processor.cpu_energy' is a string, expected a number");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n<integer>10</integer>\n"
		     "<key>gpu_energy</key>\n<integer>-5</integer>\n</dict>\n",
		     "gpu_energy", "'processor.gpu_energy' is negative (-5)");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>ane_energy</key>\n<real>nan</real>\n</dict>\n",
		     "ane_energy", "'processor.ane_energy' is not a number ('nan')");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>combined_power</key>\n<real>inf</real>\n</dict>\n",
		     "combined_power", "'processor.combined_power' is not a number ('inf')");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>package_joules</key>\n<true/>\n</dict>\n",
		     "package_joules", "'processor.package_joules' is a boolean, expected a number");
	expect_error("<key>elapsed_ns</key><integer>0</integer>\n" TS,
		     "elapsed_ns", "'elapsed_ns' is 0, expected > 0");
	expect_error("<key>elapsed_ns</key><integer>-1000</integer>\n" TS,
		     "elapsed_ns", "'elapsed_ns' is -1000, expected > 0");
	expect_error("<key>elapsed_ns</key><string>1000000000</string>\n" TS,
		     "elapsed_ns", "'elapsed_ns' is a string, expected a number");
	expect_error(EL "<key>timestamp</key><string>2026-08-26T08:56:01Z</string>\n",
		     "timestamp", "'timestamp' is a string, expected a date");
	expect_error(EL TS "<key>processor</key>\n<array>\n</array>\n",
		     "processor", "'processor' is an array, expected a dict");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>clusters</key>\n<dict>\n</dict>\n</dict>\n",
		     "clusters", "'processor.clusters' is a dict, expected an array");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>clusters</key>\n<array>\n<dict>\n"
		     "<key>name</key><string>P-Cluster</string>\n<key>freq_hz</key><string>fast</string>\n"
		     "</dict>\n</array>\n</dict>\n",
		     "freq_hz", "'processor.clusters[].freq_hz' is a string, expected a number");
	expect_error(EL TS "<key>thermal_pressure</key><integer>0</integer>\n",
		     "thermal_pressure", "'thermal_pressure' is an integer, expected a string");

	/*
	 * Integers of 2^63 or more: libplist keeps them as uint64_t, the same
	 * bits as a negative number, which they used to be reported as
	 * ("negative (-1)").  Beyond 2^64 - 1 strtoull saturates, and below
	 * -2^63 libplist 2.2 wraps: erg reads the element's text itself.
	 */
	expect_error("<key>elapsed_ns</key><integer>9223372036854775808</integer>\n" TS,
		     "elapsed_ns", "'elapsed_ns' is 2^63 or more: integer out of range");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n"
		     "<integer>18446744073709551615</integer>\n</dict>\n",
		     "cpu_energy", "'processor.cpu_energy' is 2^63 or more: integer out of range");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>gpu_energy</key>\n"
		     "<integer>99999999999999999999</integer>\n</dict>\n",
		     "gpu_energy", "'processor.gpu_energy' is 2^63 or more: integer out of range");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>package_joules</key>\n"
		     "<integer>0x8000000000000000</integer>\n</dict>\n",
		     "package_joules",
		     "'processor.package_joules' is not a number ('0x8000000000000000')");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key>"
		     "<integer>-9223372036854775809</integer>\n</dict>\n</array>\n",
		     "pid", "'tasks[].pid' is less than -2^63: integer out of range");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key>"
		     "<integer>9223372036854775809</integer>\n</dict>\n</array>\n",
		     "pid", "'tasks[].pid' is 2^63 or more: integer out of range");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><integer>5</integer>\n"
		     "<key>cputime_ns</key><integer>12345678901234567890</integer>\n</dict>\n</array>\n",
		     "cputime_ns", "'tasks[].cputime_ns' is 2^63 or more: integer out of range");
	/* Negative ones of the same bits stay negative numbers. */
	expect_error("<key>elapsed_ns</key><integer>-9223372036854775808</integer>\n" TS,
		     "elapsed_ns", "'elapsed_ns' is -9223372036854775808, expected > 0");
	expect_error(EL TS "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n"
		     "<integer>-1</integer>\n</dict>\n",
		     "cpu_energy", "'processor.cpu_energy' is negative (-1)");
}


/*
 * The number grammar, one for both paths (plistfast.h): every literal
 * that libplist reads loosely is refused, in every place erg reads a
 * number, and the figure with it: power_read fails, no sample is kept.
 * libplist alone read "nan" as NaN, "12abc" as 12, "", "abc" and "0x10"
 * as reals as 0, "010" as 8, "0x10" as 16, " 12 " as 12, "1e999" as inf.
 * Accepted: a sign ("+5", "-0") and, in a <real>, leading zeros ("010"
 * is 10 to every reader).
 */
static void
test_strict_numbers(void)
{
	static const struct {
		const char *lit;
		int int_ok, real_ok;	/* accepted in an <integer>, a <real> */
		double value;
	} lits[] = {
		{ "nan", 0, 0, 0 }, { "12abc", 0, 0, 0 }, { "", 0, 0, 0 }, { "abc", 0, 0, 0 },
		{ "010", 0, 1, 10 }, { "0x10", 0, 0, 0 }, { " 12 ", 0, 0, 0 },
		{ "1e999", 0, 0, 0 }, { "+5", 1, 1, 5 }, { "-0", 1, 1, 0 },
		{ "12 ", 0, 0, 0 }, { "inf", 0, 0, 0 }, { "0x1p3", 0, 0, 0 },
		{ "1<!-- x -->2", 0, 0, 0 }, { "<![CDATA[12]]>", 0, 0, 0 },
	};
	static const struct {
		const char *what;	/* as named in messages */
		const char *pre, *post;	/* around <integer>L</integer> */
	} places[] = {
		{ "processor.cpu_energy", EL TS "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n",
		  "\n<key>gpu_energy</key>\n<integer>0</integer>\n<key>ane_energy</key>\n"
		  "<integer>0</integer>\n</dict>\n" },
		{ "processor.combined_power", EL TS "<key>processor</key>\n<dict>\n<key>combined_power</key>\n", "\n</dict>\n" },
		{ "processor.clusters[].freq_hz", EL TS "<key>processor</key>\n<dict>\n<key>clusters</key>\n<array>\n"
		  "<dict>\n<key>name</key><string>P-Cluster</string>\n<key>freq_hz</key>", "\n</dict>\n</array>\n</dict>\n" },
		{ "tasks[].cputime_ns", EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><integer>7</integer>\n"
		  "<key>name</key><string>x</string>\n<key>cputime_ns</key>", "\n</dict>\n</array>\n" },
		{ "elapsed_ns", TS "<key>elapsed_ns</key>", "\n" },
	};
	struct buf s = BUF_INIT, err = BUF_INIT, body = BUF_INIT, want = BUF_INIT;
	struct power_file pf;
	size_t l, k, t, nref = 0, nok = 0;
	int r, nw, ne, ok, accept;
	double got, v;

	for (l = 0; l < sizeof(lits) / sizeof(lits[0]); l++)
		for (k = 0; k < sizeof(places) / sizeof(places[0]); k++)
			for (t = 0; t < 2; t++) {
				const char *tag = t ? "real" : "integer";

				accept = t ? lits[l].real_ok : lits[l].int_ok;
				v = lits[l].value;
				/* an elapsed_ns of 0 is refused for that */
				if (k == 4 && accept && v == 0)
					continue;
				buf_reset(&body);
				buf_addf(&body, "%s<%s>%s</%s>%s", places[k].pre, tag, lits[l].lit, tag,
					 places[k].post);
				buf_reset(&s);
				apple_doc(&s, "2026-08-26T08:56:00Z", 1000000000, 1000, 0, 0, "Nominal");
				buf_addch(&s, '\0');
				custom_doc(&s, body.ptr);
				r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
				if (!accept) {
					buf_reset(&want);
					if (t && !strcmp(lits[l].lit, "1e999"))
						buf_addf(&want, "error: sample 2: '%s' is beyond the range of "
							 "a double ('1e999')\n", places[k].what);
					else
						buf_addf(&want, "error: sample 2: '%s' is not a number ('%s')\n",
							 places[k].what, lits[l].lit);
					ok = r == -1 && pf.n == 0 && ne == 1 && strstr(err.ptr, want.ptr);
					CHECK(ok, "<%s>%s</%s> as %s: refused, no figure: %s", tag,
					      lits[l].lit, tag, places[k].what, one_line(&err));
					nref++;
				} else {
					got = NAN;
					if (r == 0 && pf.n == 2) {
						const struct psample *x = &pf.s[1];

						/* mJ, or mW over 1 s; a task without CPU
						 * time is not kept */
						got = k <= 1 ? x->joules * 1000 : k == 2 ? x->pclust_mhz * 1e6 :
						      k == 3 ? (pf.ntasks ? pf.tasks[pf.task_off[1]].cpu_ns : 0) :
						      x->elapsed_ms * 1e6;
					}
					ok = r == 0 && ne == 0 && got == v;
					CHECK(ok, "<%s>%s</%s> as %s: read as %g (%g)", tag, lits[l].lit,
					      tag, places[k].what, v, got);
					nok++;
				}
				power_file_free(&pf);
				tmp_cleanup();
			}
	printf("# %zu number texts refused, %zu read\n", nref, nok);
	buf_release(&s);
	buf_release(&err);
	buf_release(&body);
	buf_release(&want);
}

/*
 * Duplicate keys erg reads are errors in both paths: libplist keeps the
 * last one silently, the fast path used to fall back to it.  Duplicates
 * erg does not read (the gpu dict's idle_ns of macOS 13-15) stay fine.
 */
static void
test_duplicate_keys(void)
{
	static const struct {
		const char *body, *key, *msg;
	} dups[] = {
		{ EL EL TS, "elapsed_ns", "key 'elapsed_ns' occurs twice" },
		{ EL TS "<key>processor</key><dict><key>cpu_energy</key><integer>1</integer></dict>\n"
		  "<key>processor</key><dict><key>cpu_energy</key><integer>9</integer></dict>\n",
		  "processor", "key 'processor' occurs twice" },
		{ EL TS "<key>processor</key><dict><key>cpu_energy</key><integer>1</integer>\n"
		  "<key>gpu_energy</key><integer>0</integer>\n<key>cpu_energy</key><integer>1</integer></dict>\n",
		  "cpu_energy", "key 'processor.cpu_energy' occurs twice" },
		{ EL TS "<key>tasks</key><array><dict><key>pid</key><integer>1</integer>"
		  "<key>cputime_ns</key><integer>5</integer><key>cputime_ns</key><integer>6</integer>"
		  "</dict></array>\n", "cputime_ns", "key 'tasks[].cputime_ns' occurs twice" },
		{ EL TS "<key>hw_model</key><string>A</string><key>hw_model</key><string>B</string>\n",
		  "hw_model", "key 'hw_model' occurs twice" },
	};
	struct buf s = BUF_INIT, err = BUF_INIT, want = BUF_INIT, kk = BUF_INIT;
	struct power_file pf;
	size_t i, off;
	const char *p, *second;
	int r, nw, ne, ok;

	for (i = 0; i < sizeof(dups) / sizeof(dups[0]); i++) {
		buf_reset(&s);
		apple_doc(&s, "2026-08-26T08:56:00Z", 1000000000, 1000, 0, 0, "Nominal");
		buf_addch(&s, '\0');
		off = s.len;
		custom_doc(&s, dups[i].body);
		p = tmp_write(s.ptr, s.len);
		r = read_captured(p, &pf, &err, &nw, &ne);
		/* located at the second occurrence */
		buf_reset(&kk);
		buf_addf(&kk, "<key>%s</key>", dups[i].key);
		second = strstr(strstr(s.ptr + off, kk.ptr) + 1, kk.ptr);
		buf_reset(&want);
		buf_addf(&want, "erg: %s:@%zu: error: sample 2: %s\n", p, (size_t)(second - s.ptr),
			 dups[i].msg);
		ok = r == -1 && pf.n == 0 && ne == 1 && !strcmp(err.ptr, want.ptr);
		CHECK(ok, "duplicate %s: refused: %s", dups[i].key, one_line(&err));
		power_file_free(&pf);
		tmp_cleanup();
	}
	buf_release(&s);
	buf_release(&err);
	buf_release(&want);
	buf_release(&kk);
}

/* ---- the time axis against the timestamps ---------------------------- */

/*
 * A realistic stream: SN samples of 505 ms +- ~1 ms (powermetrics -i 500
 * under load), a sampler clock 30 ppm fast, true ends from T0 + 0.3 s,
 * timestamps the true end truncated to the second (rebuild.c's model).
 * Sample i draws 10 + (i % 17) W, so windows differ from each other.
 */
#define SN 400

struct synth {
	long long e_ns[SN];
	double end_ms[SN];	/* true end, Unix ms */
	int mj[SN];
};

static void
synth_make(struct synth *y)
{
	uint64_t g = 12345;
	double t = T0 + 300;
	size_t i;

	for (i = 0; i < SN; i++) {
		g = g * 6364136223846793005ULL + 1442695040888963407ULL;
		y->e_ns[i] = 505000000LL + (long long)((g >> 33) % 1800001) - 900000;
		t += (double)y->e_ns[i] / 1e6 * (1 + 30e-6);
		y->end_ms[i] = t;
		y->mj[i] = (int)llround((10 + (double)(i % 17)) * (double)y->e_ns[i] / 1e6);
	}
}

/* The stream of y without the samples in skip[] (-1 ends it), with
 * sample edit's elapsed_ns times scale (edit -1: none). */
static const char *
synth_write(const struct synth *y, const int *skip, int edit, double scale, double ts_rate)
{
	struct buf s = BUF_INIT;
	char ts[32];
	const char *p;
	size_t i, k;
	time_t sec;
	struct tm tm;
	long long e;

	for (i = 0; i < SN; i++) {
		for (k = 0; skip && skip[k] >= 0 && (size_t)skip[k] != i; k++)
			;
		if (skip && skip[k] >= 0)
			continue;
		/* ts_rate: timestamps that run that many times as fast */
		sec = (time_t)floor((T0 + (y->end_ms[i] - T0) * ts_rate) / 1000);
		gmtime_r(&sec, &tm);
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
		e = (int)i == edit ? llround((double)y->e_ns[i] * scale) : y->e_ns[i];
		apple_doc(&s, ts, e, y->mj[i], 0, 0, "Nominal");
		buf_addch(&s, '\0');
	}
	p = tmp_write(s.ptr, s.len);
	buf_release(&s);
	return p;
}

/*
 * A sample lost from the middle of a file (a document cut out): its
 * 0.5 s has no sample, and every later sample's elapsed_ns chain is one
 * interval short of the timestamps.  The fit used to smear that over
 * the file, moving every window; now the hole is found from the
 * timestamps and kept empty in the time axis.
 */
static void
test_dropped_sample(void)
{
	static struct synth y;
	static const int skip[] = { 200, -1 };
	struct power_file whole, holed, blind;
	struct buf err = BUF_INIT;
	struct pwin a, b, c;
	double t, worst = 0, blind_worst = 0, hole0, hole1;
	int r, nw, ne, ok;
	size_t i, nwin = 0, nover = 0;

	synth_make(&y);
	r = read_captured(synth_write(&y, NULL, -1, 1, 1), &whole, &err, &nw, &ne);
	CHECK(r == 0 && whole.n == SN && !whole.nholes && nw == 0,
	      "intact stream: %d samples, no hole (%s)", SN, one_line(&err));
	r = read_captured(synth_write(&y, skip, -1, 1, 1), &holed, &err, &nw, &ne);
	ok = r == 0 && holed.n == SN - 1 && holed.nholes == 1 && nw == 0 && ne == 0;
	CHECK(ok, "sample 201 cut out: one hole (%s)", one_line(&err));
	if (!ok)
		goto out;
	/*
	 * Documents 1..200 then 202..400: the hole is between sample indices
	 * 199 and 200.  The timestamps (whole seconds) place it after the
	 * last sample that must precede it and before the first that must
	 * follow it; samples between those two could be on either side.
	 */
	CHECK(holed.holes[0].missing == 1 && holed.holes[0].at >= 200 &&
	      holed.holes[0].at - holed.holes[0].unplaced - 1 <= 199 &&
	      holed.holes[0].unplaced <= 2,
	      "one sample missing, before sample index %zu (%zu before it unplaced)",
	      holed.holes[0].at, holed.holes[0].unplaced);
	CHECK(holed.holes[0].lo_ms < 505 && holed.holes[0].hi_ms > 505 &&
	      fabs(holed.holes[0].ms - (double)y.e_ns[200] / 1e6) < 5,
	      "the hole is one interval: %.1f ms, the timestamps allow %.1f..%.1f",
	      holed.holes[0].ms, holed.holes[0].lo_ms, holed.holes[0].hi_ms);
	/* The empty stretch on the holed axis. */
	i = holed.holes[0].at;
	hole0 = holed.s[i - 1 - holed.holes[0].unplaced].end_ms;
	hole1 = holed.s[i].start_ms;
	CHECK(hole1 - hole0 > 500 && hole1 - hole0 < 1100,
	      "no sample from %.0f to %.0f ms after T", hole0 - T0, hole1 - T0);

	/* The same samples fitted without the hole: the old reading. */
	memset(&blind, 0, sizeof(blind));
	blind.s = xmalloc(holed.n * sizeof(*blind.s));
	memcpy(blind.s, holed.s, holed.n * sizeof(*blind.s));
	blind.n = holed.n;
	for (i = 0; i < blind.n; i++)
		blind.s[i].unplaced = 0;
	power_fit(&blind);

	/*
	 * 5 s windows over the whole stream: away from the hole, the figures
	 * of the intact file within 0.01 % (what one sample less in the fit
	 * and a hole 1 ms off its true length move); over the hole, the
	 * coverage falls by the share of the window the hole takes.
	 */
	for (t = T0 + 2000; t + 5000 < whole.s[SN - 1].end_ms - 1000; t += 5000) {
		power_integrate(&whole, 1, t, t + 5000, &a);
		power_integrate(&holed, 1, t, t + 5000, &b);
		power_integrate(&blind, 1, t, t + 5000, &c);
		nwin++;
		if (t + 5000 > hole0 - 1 && t < hole1 + 1) {
			nover++;
			CHECK(b.coverage < 0.95 && b.coverage > 0.65 && a.coverage > 1 - 1e-6,
			      "window at %.0f s over the hole: coverage %.4f (intact %.4f)",
			      (t - T0) / 1000, b.coverage, a.coverage);
			continue;
		}
		worst = fmax(worst, fabs(b.energy_j / a.energy_j - 1));
		blind_worst = fmax(blind_worst, fabs(c.energy_j / a.energy_j - 1));
		/* 1 within the rounding of Unix ms (ulp 2.4e-4 ms) */
		CHECK(b.coverage > 1 - 1e-6, "window at %.0f s: coverage 1", (t - T0) / 1000);
	}
	CHECK(nover >= 1 && nover <= 2 && worst < 1e-4,
	      "%zu windows: %zu over the hole, the other %zu within %.2g of the intact figures",
	      nwin, nover, nwin - nover, worst);
	CHECK(blind_worst > 1e-2, "without the hole, windows moved up to %.1f %%",
	      100 * blind_worst);
	free(blind.s);
out:
	power_file_free(&whole);
	power_file_free(&holed);
	tmp_cleanup();
	buf_release(&err);
}

/*
 * What the timestamps allow of a file's span (start_hi, end_lo), which
 * session.c compares between continuation files: a continuation that
 * repeats one 0.5 s sample overlaps for sure; one that resumes after a
 * second without samples (a resumed session) does not, nor one that
 * follows right after.
 */
static void
test_span_bounds(void)
{
	static struct synth y;
	static int first[SN + 1], second[SN + 1];
	struct power_file a, b;
	struct buf err = BUF_INIT;
	int r, nw, ne, i, n;
	const struct { int from; const char *what; int overlap; } cont[] = {
		{ 199, "repeats the last sample", 1 },
		{ 200, "follows right after", 0 },
		{ 202, "resumes after a missing second", 0 },
	};
	size_t c;

	synth_make(&y);
	for (i = 200, n = 0; i < SN; i++)
		first[n++] = i;
	first[n] = -1;
	r = read_captured(synth_write(&y, first, -1, 1, 1), &a, &err, &nw, &ne);
	CHECK(r == 0 && a.n == 200, "first file: 200 samples (%s)", one_line(&err));
	CHECK(a.start_hi > a.s[0].start_ms && a.end_lo < a.s[199].end_ms &&
	      a.s[199].end_ms - a.end_lo < 300 && a.start_hi - a.s[0].start_ms < 300,
	      "the span bounds hold the fitted span, within 0.3 s");
	for (c = 0; c < sizeof(cont) / sizeof(cont[0]); c++) {
		for (i = 0, n = 0; i < cont[c].from; i++)
			second[n++] = i;
		second[n] = -1;
		r = read_captured(synth_write(&y, second, -1, 1, 1), &b, &err, &nw, &ne);
		CHECK(r == 0 && (b.start_hi <= a.end_lo) == cont[c].overlap,
		      "a continuation that %s: %s (starts before %.3f s, A ends after %.3f s)",
		      cont[c].what, cont[c].overlap ? "overlaps" : "no overlap",
		      (b.start_hi - T0) / 1000, (a.end_lo - T0) / 1000);
		power_file_free(&b);
	}
	power_file_free(&a);
	tmp_cleanup();
	buf_release(&err);
}

/* power_read's error on path: its message, after "error: ". */
static int
read_error(const char *path, struct buf *err, const char *want)
{
	struct power_file pf;
	int r, nw, ne, ok;
	const char *e;

	r = read_captured(path, &pf, err, &nw, &ne);
	e = strstr(err->ptr, "error: ");
	ok = r == -1 && pf.n == 0 && ne == 1 && e && !strncmp(e + 7, want, strlen(want));
	power_file_free(&pf);
	return ok;
}

static void
test_time_contradictions(void)
{
	static struct synth y;
	static const int skip5[] = { 100, 101, 102, 103, 104, -1 };
	struct buf s = BUF_INIT, err = BUF_INIT;
	struct power_file pf;
	int r, nw, ne, ok;

	synth_make(&y);

	/* elapsed_ns of sample 201 30 % long: 150 ms more than passed */
	ok = read_error(synth_write(&y, NULL, 200, 1.3, 1), &err, "sample 2");
	CHECK(ok && strstr(err.ptr, ": elapsed_ns disagrees with the timestamps: ") &&
	      strstr(err.ptr, "s of samples since sample 1"),
	      "elapsed_ns 30 %% long in one sample: %s", one_line(&err));
	/* 30 % short: 150 ms no sample covers, not a whole interval */
	ok = read_error(synth_write(&y, NULL, 200, 0.7, 1), &err, "sample 2");
	CHECK(ok && strstr(err.ptr, "not a whole number of 0.50"),
	      "elapsed_ns 30 %% short in one sample: %s", one_line(&err));
	/* five samples cut out: a hole of five */
	r = read_captured(synth_write(&y, skip5, -1, 1, 1), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.nholes == 1 && pf.holes[0].missing == 5,
	      "five samples missing: one hole of 5 (%s)", one_line(&err));
	power_file_free(&pf);

	/* Timestamps running twice as fast as elapsed_ns: a slope of 2 is
	 * no clock drift, nor half the samples lost. */
	ok = read_error(synth_write(&y, NULL, -1, 1, 2), &err, "sample ");
	CHECK(ok && strstr(err.ptr, "elapsed_ns disagrees with the timestamps"),
	      "timestamps at twice the rate: %s", one_line(&err));
	/* ... and half as fast */
	ok = read_error(synth_write(&y, NULL, -1, 1, 0.5), &err, "sample ");
	CHECK(ok && strstr(err.ptr, "elapsed_ns disagrees with the timestamps: ") &&
	      strstr(err.ptr, "s of samples since sample"),
	      "timestamps at half the rate: %s", one_line(&err));
	/* 1 % fast: each pair stays within a second for a minute or so, and
	 * the timestamps run ahead gradually, not where samples are missing */
	ok = read_error(synth_write(&y, NULL, -1, 1, 1.01), &err, "sample ");
	CHECK(ok && strstr(err.ptr, "not at one place where samples could be missing"),
	      "timestamps 1 %% fast: %s", one_line(&err));
	/* 500 ppm (NTP slewing at its fastest) is a clock, not an error */
	r = read_captured(synth_write(&y, NULL, -1, 1, 1.0005), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == SN && !pf.nholes && fabs(pf.fit_b - 1.0005) < 1e-3,
	      "timestamps 500 ppm fast: read, slope %.6f (%s)", pf.fit_b, one_line(&err));
	power_file_free(&pf);

	/* A sample twice in a row. */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1000000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:01Z", 1000000000, 1200, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:01Z", 1000000000, 1200, 0, 0, "Nominal");
	ok = read_error(tmp_write(s.ptr, s.len), &err, "sample 3 repeats sample 2 (the same "
			"timestamp, elapsed_ns and energy)");
	CHECK(ok, "a repeated sample: %s", one_line(&err));
	/* Two 500 ms samples in one second with the same energy are not one. */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00Z", 500000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:00Z", 500000001, 1000, 0, 0, "Nominal");
	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 2 && pf.fit_fallback && pf.fit_b == 1,
	      "two samples in one second: read, slope left at 1 (%s)", one_line(&err));
	power_file_free(&pf);

	/* hw_model switching mid-file */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00Z", 1000000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	custom_doc(&s, "<key>elapsed_ns</key><integer>1000000000</integer>\n"
		   "<key>hw_model</key><string>Mac16,5</string>\n"
		   "<key>timestamp</key><date>2026-08-26T08:56:01Z</date>\n");
	ok = read_error(tmp_write(s.ptr, s.len), &err, "sample 2: 'hw_model' is 'Mac16,5' but "
			"'Mac17,3' in sample 1: one file cannot hold two machines");
	CHECK(ok, "hw_model switching: %s", one_line(&err));

	/* Dates libplist reads as something else. */
	buf_reset(&s);
	apple_doc(&s, "garbage", 1000000000, 1000, 0, 0, "Nominal");
	ok = read_error(tmp_write(s.ptr, s.len), &err, "sample 1: 'timestamp' is not a date "
			"YYYY-MM-DDTHH:MM:SSZ of 1970 to 2037 ('garbage')");
	CHECK(ok, "a date of garbage (libplist: 2001-01-01): %s", one_line(&err));
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:00.5Z", 1000000000, 1000, 0, 0, "Nominal");
	ok = read_error(tmp_write(s.ptr, s.len), &err, "sample 1: 'timestamp' is not a date ");
	CHECK(ok, "fractional seconds (libplist drops them): %s", one_line(&err));
	buf_reset(&s);
	apple_doc(&s, "", 1000000000, 1000, 0, 0, "Nominal");
	ok = read_error(tmp_write(s.ptr, s.len), &err, "sample 1: 'timestamp' is not a date ");
	CHECK(ok, "an empty date (libplist: 1970): %s", one_line(&err));
	tmp_cleanup();
	buf_release(&s);
	buf_release(&err);
}

/* ---- tasks ------------------------------------------------------------ */

/* The task of sample i of pf with this pid and name, or NULL. */
static const struct ptask *
find_task(const struct power_file *pf, size_t i, int32_t pid, const char *name)
{
	size_t k;

	if (!pf->task_off || i >= pf->n)
		return NULL;
	for (k = pf->task_off[i]; k < pf->task_off[i + 1]; k++)
		if (pf->tasks[k].pid == pid && !strcmp(pf->names[pf->tasks[k].name], name))
			return &pf->tasks[k];
	return NULL;
}

static const struct ptask_sum *
find_sum(const struct ptask_win *w, int32_t pid, const char *name)
{
	size_t k;

	for (k = 0; k < w->n; k++)
		if (w->t[k].pid == pid && !strcmp(w->t[k].name, name))
			return &w->t[k];
	return NULL;
}

static void
test_tasks_real(void)
{
	struct buf path = BUF_INIT, err = BUF_INIT;
	struct power_file pf;
	struct ptask_win w = PTASK_WIN_INIT;
	const struct ptask *t;
	int r, nw, ne;

	/*
	 * m4max: the tasks sampler without --show-all, top-level "tasks";
	 * 106 "<key>pid</key>" lines = 105 tasks + ALL_TASKS (line 4932,
	 * pid -2, not kept); none has zero cputime_ns, none has ptime_ns.
	 */
	r = read_captured(sample_path(&path, "m4max_Mac16-5_macos26.2_25C56_tasks_1sample.plist"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 1 && nw == 0 && ne == 0, "m4max tasks: read (%s)", one_line(&err));
	if (pf.n == 1) {
		CHECK(pf.task_off && pf.s[0].has_tasks && pf.ntasks == 105 &&
		      pf.task_off[0] == 0 && pf.task_off[1] == 105,
		      "m4max: 105 tasks kept (ntasks %zu)", pf.ntasks);
		CHECK(power_task_samples(&pf, 1) == 1, "m4max: one sample with tasks");
		/* 15 <key>pid</key><integer>55249</integer>
		 * 16 <key>name</key><string>2.1.15</string>
		 * 19 <key>cputime_ns</key><integer>645636291</integer> */
		t = &pf.tasks[0];
		CHECK(t->pid == 55249 && !strcmp(pf.names[t->name], "2.1.15") &&
		      t->cpu_ns == 645636291 && isnan(t->p_ns),
		      "m4max: first task 2.1.15, 645636291 ns, no ptime");
		/* 203 pid -1, 204 DEAD_TASKS, 207 <integer>12298958</integer> */
		t = find_task(&pf, 0, -1, "DEAD_TASKS");
		CHECK(t && t->cpu_ns == 12298958, "m4max: DEAD_TASKS 12298958 ns");
		/* 371 pid 0, 372 kernel_task, 375 <integer>120642375</integer> */
		t = find_task(&pf, 0, 0, "kernel_task");
		CHECK(t && t->cpu_ns == 120642375, "m4max: kernel_task 120642375 ns");
		/* 156 pid 68954, 157 powermetrics, 160 <integer>22811666</integer> */
		t = find_task(&pf, 0, 68954, "powermetrics");
		CHECK(t && t->cpu_ns == 22811666, "m4max: powermetrics 22811666 ns");
		/* 62 pid 409, 63 WindowServer, 66 <integer>83712833</integer> */
		t = find_task(&pf, 0, 409, "WindowServer");
		CHECK(t && t->cpu_ns == 83712833, "m4max: WindowServer 83712833 ns");
		/*
		 * Names are interned: 98 distinct among the 105 tasks
		 * ("Google Chrome Helper (Renderer)" and four more repeat), so
		 * grouping is by pid and name: 105 groups.  The 105 cputime_ns
		 * lines sum to 1578744549 ns (grep | awk); ALL_TASKS, line 4936,
		 * says 1578744583.  The window is the whole sample.
		 */
		CHECK(pf.nnames == 98, "m4max: 98 distinct names (%zu)", pf.nnames);
		power_tasks_integrate(&pf, 1, pf.s[0].start_ms, pf.s[0].end_ms, &w);
		CHECK(w.n == 105 && w.samples == 1, "m4max: 105 (pid, name) groups (%zu)", w.n);
		CHECK_NEAR(w.cpu_ms, 1578.744549, 1e-9, "m4max: all tasks' CPU ms");
		CHECK_NEAR(w.nop_cpu_ms, 1578.744549, 1e-9, "m4max: none has ptime");
		CHECK(w.pcore_ms == 0 && w.coverage == 1, "m4max: no P-core ms, coverage 1");
		CHECK(w.t[0].pid == 55249 && fabs(w.t[0].cpu_ms - 645.636291) < 1e-9,
		      "m4max: largest first (%d %s)", w.n ? w.t[0].pid : 0, w.n ? w.t[0].name : "");
		/*
		 * The first half of the sample: half of each task.  Unix ms
		 * near 1.77e12 carry about 2.4e-4 ms of rounding, so the weight
		 * is 0.5 to within 5e-7.
		 */
		power_tasks_integrate(&pf, 1, pf.s[0].start_ms,
				      pf.s[0].start_ms + pf.s[0].elapsed_ms / 2, &w);
		CHECK_NEAR(find_sum(&w, 55249, "2.1.15") ? find_sum(&w, 55249, "2.1.15")->cpu_ms : NAN,
			   645.636291 / 2, 645.636291 * 5e-7, "m4max: half a sample, half the time");
		CHECK_NEAR(w.coverage, 1, 1e-12, "m4max: half window fully covered");
	}
	power_file_free(&pf);

	/*
	 * m1pro --show-all: no top-level tasks; every coalition's "tasks"
	 * (coalitions at line 12).  5 samples of 112, 108, 95, 114, 104 tasks,
	 * none without CPU time, every one with ptime_ns.
	 */
	r = read_captured(sample_path(&path, "m1pro_MacBookPro18-3_macos15.3_24D81_show-all_5samples.plist"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 5 && nw == 0 && ne == 0, "m1pro tasks: read (%s)", one_line(&err));
	if (pf.n == 5) {
		CHECK(pf.ntasks == 533 && pf.task_off[1] == 112 && pf.task_off[2] == 220 &&
		      pf.task_off[5] == 533, "m1pro: 112 + 108 + 95 + 114 + 104 tasks (%zu)",
		      pf.ntasks);
		/* 39 pid 36601, 40 Code Helper (Renderer), 43 cputime_ns
		 * 125080541, 93 ptime_ns 56491833: first coalition, first task */
		t = &pf.tasks[0];
		CHECK(t->pid == 36601 && !strcmp(pf.names[t->name], "Code Helper (Renderer)") &&
		      t->cpu_ns == 125080541 && t->p_ns == 56491833,
		      "m1pro: first task Code Helper (Renderer)");
		/* 614 pid 67989 powermetrics, 618 cputime 33526124, 668 ptime 26063416 */
		t = find_task(&pf, 0, 67989, "powermetrics");
		CHECK(t && t->cpu_ns == 33526124 && t->p_ns == 26063416, "m1pro: powermetrics");
		/* 887 pid 83667 AppleSpell, 891 cputime 176534000, 941 ptime 0 */
		t = find_task(&pf, 0, 83667, "AppleSpell");
		CHECK(t && t->cpu_ns == 176534000 && t->p_ns == 0, "m1pro: AppleSpell, ptime 0");
		/* 1061 pid 0 kernel_task, 1065 cputime 104361291, 1115 ptime 398458 */
		t = find_task(&pf, 0, 0, "kernel_task");
		CHECK(t && t->cpu_ns == 104361291 && t->p_ns == 398458, "m1pro: kernel_task");
		/* 1713 DEAD_TASKS_COALITION (no id); 1734 pid -1, 1735 DEAD_TASKS,
		 * 1738 cputime 30348916, 1768 ptime 30348916 */
		t = find_task(&pf, 0, -1, "DEAD_TASKS");
		CHECK(t && t->cpu_ns == 30348916 && t->p_ns == 30348916, "m1pro: DEAD_TASKS");
		/*
		 * The 533 cputime_ns and ptime_ns lines of the coalitions' tasks
		 * sum to 6202451396 and 963962447 ns (grep | awk); over a window
		 * holding every sample, all of it.
		 */
		power_tasks_integrate(&pf, 1, pf.s[0].start_ms - 1000, pf.s[4].end_ms + 1000, &w);
		CHECK(w.samples == 5, "m1pro: 5 samples");
		CHECK_NEAR(w.cpu_ms, 6202.451396, 1e-8, "m1pro: CPU ms of all samples");
		CHECK_NEAR(w.pcore_ms, 963.962447, 1e-8, "m1pro: P-core ms of all samples");
		CHECK(w.nop_cpu_ms == 0, "m1pro: every task has ptime");
		/* Sample 1 alone: the DEAD_TASKS of line 1738. */
		power_tasks_integrate(&pf, 1, pf.s[0].start_ms, pf.s[0].end_ms, &w);
		CHECK_NEAR(find_sum(&w, -1, "DEAD_TASKS") ? find_sum(&w, -1, "DEAD_TASKS")->pcore_ms :
			   NAN, 30.348916, 1e-9, "m1pro: DEAD_TASKS P-core ms of sample 1");
	}
	power_file_free(&pf);

	/* A sampler without tasks: nothing stored. */
	r = read_captured(sample_path(&path, "m2ultra_Mac14-14_macos14.4_23E224_1sample_EDITED.xml"),
			  &pf, &err, &nw, &ne);
	CHECK(r == 0 && !pf.task_off && !pf.tasks && pf.ntasks == 0 && !pf.s[0].has_tasks &&
	      power_task_samples(&pf, 1) == 0, "m2ultra: no tasks, nothing kept");
	power_tasks_integrate(&pf, 1, pf.s[0].start_ms, pf.s[0].end_ms, &w);
	CHECK(w.n == 0 && w.samples == 0 && w.coverage == 0, "m2ultra: empty task window");
	power_file_free(&pf);
	ptask_win_free(&w);
	buf_release(&path);
	buf_release(&err);
}

/* <dict> of one task; p < 0 leaves out ptime_ns. */
static void
task_xml(struct buf *b, int pid, const char *name, long long cpu, long long p)
{
	buf_addf(b, "<dict>\n<key>pid</key><integer>%d</integer>\n"
		 "<key>name</key><string>%s</string>\n"
		 "<key>cputime_ns</key><integer>%lld</integer>\n", pid, name, cpu);
	if (p >= 0)
		buf_addf(b, "<key>ptime_ns</key><integer>%lld</integer>\n", p);
	buf_addstr(b, "</dict>\n");
}

static void
test_tasks_synthetic(void)
{
	struct buf s = BUF_INIT, err = BUF_INIT;
	struct power_file pf, two[2];
	struct ptask_win w = PTASK_WIN_INIT;
	const struct ptask_sum *x;
	struct psample sa[1], sb[1];
	struct ptask ta[1], tb[2];
	size_t oa[2] = { 0, 1 }, ob[2] = { 0, 2 };
	char *na[1], *nb[2], s_bun[] = "bun", s_x[] = "x";
	int r, nw, ne;

	/*
	 * Four 1000 ms samples at T .. T+3 s: the fit is a = T - 500, b = 1,
	 * so they cover [T-500, T+500], [T+500, T+1500], [T+1500, T+2500],
	 * [T+2500, T+3500].  A fifth document without timestamp, after
	 * them, is dropped with its tasks.
	 */
	doc_begin(&s);
	buf_addstr(&s, EL "<key>timestamp</key><date>2026-08-26T08:56:00Z</date>\n"
		   "<key>tasks</key>\n<array>\n");
	task_xml(&s, 10, "bun", 400000000, 300000000);
	task_xml(&s, -1, "DEAD_TASKS", 100000000, 50000000);
	task_xml(&s, 0, "kernel_task", 0, 0);		/* no CPU time: not kept */
	task_xml(&s, -2, "ALL_TASKS", 500000000, 350000000);	/* the sum: not kept */
	buf_addstr(&s, "</array>\n");
	doc_end(&s);
	buf_addch(&s, '\0');
	/* --show-all: coalitions, one without tasks, one without id */
	doc_begin(&s);
	buf_addstr(&s, EL "<key>timestamp</key><date>2026-08-26T08:56:01Z</date>\n"
		   "<key>coalitions</key>\n<array>\n<dict>\n<key>id</key><integer>5</integer>\n"
		   "<key>name</key><string>sh.bun</string>\n<key>tasks</key>\n<array>\n");
	task_xml(&s, 10, "bun", 200000000, 100000000);
	task_xml(&s, 10, "node", 50000000, -1);	/* pid reused, other process */
	buf_addstr(&s, "</array>\n</dict>\n<dict>\n<key>id</key><integer>6</integer>\n</dict>\n"
		   "<dict>\n<key>name</key><string>DEAD_TASKS_COALITION</string>\n"
		   "<key>tasks</key>\n<array>\n");
	task_xml(&s, -1, "DEAD_TASKS", 20000000, 20000000);
	buf_addstr(&s, "</array>\n</dict>\n</array>\n");
	doc_end(&s);
	buf_addch(&s, '\0');
	/* both: the top-level tasks win */
	doc_begin(&s);
	buf_addstr(&s, EL "<key>timestamp</key><date>2026-08-26T08:56:02Z</date>\n"
		   "<key>tasks</key>\n<array>\n");
	task_xml(&s, 7, "x", 10000000, -1);
	buf_addstr(&s, "</array>\n<key>coalitions</key>\n<array>\n<dict>\n<key>tasks</key>\n<array>\n");
	task_xml(&s, 8, "y", 99000000, -1);
	buf_addstr(&s, "</array>\n</dict>\n</array>\n");
	doc_end(&s);
	buf_addch(&s, '\0');
	/* none */
	custom_doc(&s, EL "<key>timestamp</key><date>2026-08-26T08:56:03Z</date>\n");
	buf_addch(&s, '\0');
	/* without timestamp, last (between two kept ones it is an error) */
	doc_begin(&s);
	buf_addstr(&s, EL "<key>tasks</key>\n<array>\n");
	task_xml(&s, 99, "lost", 1000000, -1);
	buf_addstr(&s, "</array>\n");
	doc_end(&s);
	buf_addch(&s, '\0');

	r = read_captured(tmp_write(s.ptr, s.len), &pf, &err, &nw, &ne);
	CHECK(r == 0 && pf.n == 4 && pf.dropped == 1 && nw == 1 && ne == 0,
	      "tasks stream: 4 samples, 1 dropped (%s)", one_line(&err));
	if (pf.n == 4) {
		CHECK(pf.ntasks == 6 && pf.task_off[0] == 0 && pf.task_off[1] == 2 &&
		      pf.task_off[2] == 5 && pf.task_off[3] == 6 && pf.task_off[4] == 6,
		      "tasks per sample 2, 3, 1, 0 (ntasks %zu)", pf.ntasks);
		CHECK(pf.s[0].has_tasks && pf.s[1].has_tasks && pf.s[2].has_tasks &&
		      !pf.s[3].has_tasks && power_task_samples(&pf, 1) == 3,
		      "three samples carry task data");
		CHECK(!find_task(&pf, 0, -2, "ALL_TASKS") && !find_task(&pf, 0, 0, "kernel_task") &&
		      !find_task(&pf, 2, 8, "y") && find_task(&pf, 2, 7, "x"),
		      "ALL_TASKS, idle tasks and the coalitions beside tasks are not kept");
		CHECK(isnan(find_task(&pf, 1, 10, "node")->p_ns), "a task without ptime_ns: NAN");
		/* y is never read; lost was read before its sample was dropped */
		CHECK(pf.nnames == 5, "names interned: bun, DEAD_TASKS, lost, node, x (%zu)",
		      pf.nnames);

		/*
		 * [T, T+1000]: half of samples 1 and 2.  bun (pid 10):
		 * 0.5 x 400 + 0.5 x 200 = 300 ms, P-core 150 + 50 = 200;
		 * DEAD_TASKS 50 + 10 = 60, P-core 25 + 10 = 35; node (pid 10
		 * too, another name): 25 ms without ptime.  Totals 385, 235, 25.
		 */
		power_tasks_integrate(&pf, 1, T0, T0 + 1000, &w);
		CHECK(w.n == 3 && w.samples == 2, "[T, T+1000]: 3 groups from 2 samples (%zu)", w.n);
		if (w.n == 3) {
			CHECK(w.t[0].pid == 10 && !strcmp(w.t[0].name, "bun") &&
			      w.t[1].pid == -1 && !strcmp(w.t[2].name, "node"),
			      "ordered by CPU time: bun, DEAD_TASKS, node");
			CHECK_NEAR(w.t[0].cpu_ms, 300, 1e-9, "bun CPU ms");
			CHECK_NEAR(w.t[0].pcore_ms, 200, 1e-9, "bun P-core ms");
			CHECK_NEAR(w.t[1].cpu_ms, 60, 1e-9, "DEAD_TASKS CPU ms");
			CHECK_NEAR(w.t[1].pcore_ms, 35, 1e-9, "DEAD_TASKS P-core ms");
			CHECK(w.t[2].cpu_ms == 25 && w.t[2].nop_cpu_ms == 25 && w.t[2].pcore_ms == 0,
			      "node: 25 ms, none of it with ptime");
		}
		CHECK_NEAR(w.cpu_ms, 385, 1e-9, "[T, T+1000] CPU ms");
		CHECK_NEAR(w.pcore_ms, 235, 1e-9, "[T, T+1000] P-core ms");
		CHECK_NEAR(w.nop_cpu_ms, 25, 1e-9, "[T, T+1000] CPU ms without ptime");
		CHECK_NEAR(w.coverage, 1, 1e-12, "[T, T+1000] covered");

		/* [T+2000, T+3000]: half of sample 3 (x: 5 ms), half of a
		 * sample without task data: covered half. */
		power_tasks_integrate(&pf, 1, T0 + 2000, T0 + 3000, &w);
		CHECK(w.n == 1 && w.samples == 1 && w.cpu_ms == 5, "[T+2000, T+3000]: x, 5 ms");
		CHECK_NEAR(w.coverage, 0.5, 1e-12, "[T+2000, T+3000] half covered");
		power_tasks_integrate(&pf, 1, T0 + 10, T0 + 10, &w);
		CHECK(w.n == 0 && w.samples == 0 && w.coverage == 0, "empty window");
	}
	power_file_free(&pf);
	buf_release(&s);

	/*
	 * Two files are grouped by pid and name, not by their own name
	 * tables: A [0,1000) bun (10) 100 ms; B [1000,2000) x (10) 40 ms and
	 * bun (10) 60 ms, P-core 30.  [500, 1500]: bun 50 + 30 = 80 ms,
	 * P-core 15 (A's bun had none: 50 ms without ptime); x 20 ms.
	 */
	memset(two, 0, sizeof(two));
	set_sample(&sa[0], 0, 1000, 1, NAN, THERMAL_ABSENT);
	set_sample(&sb[0], 1000, 2000, 1, NAN, THERMAL_ABSENT);
	sa[0].has_tasks = sb[0].has_tasks = 1;
	na[0] = s_bun;
	nb[0] = s_x;
	nb[1] = s_bun;
	ta[0] = (struct ptask){ 100e6, NAN, 10, 0 };
	tb[0] = (struct ptask){ 40e6, 0, 10, 0 };
	tb[1] = (struct ptask){ 60e6, 30e6, 10, 1 };
	two[0].s = sa;
	two[0].n = 1;
	two[0].tasks = ta;
	two[0].ntasks = 1;
	two[0].task_off = oa;
	two[0].names = na;
	two[0].nnames = 1;
	two[1].s = sb;
	two[1].n = 1;
	two[1].tasks = tb;
	two[1].ntasks = 2;
	two[1].task_off = ob;
	two[1].names = nb;
	two[1].nnames = 2;
	power_tasks_integrate(two, 2, T0 + 500, T0 + 1500, &w);
	x = find_sum(&w, 10, "bun");
	CHECK(w.n == 2 && x && x->cpu_ms == 80 && x->pcore_ms == 15 && x->nop_cpu_ms == 50,
	      "two files: one bun group of 80 ms");
	x = find_sum(&w, 10, "x");
	CHECK(x && x->cpu_ms == 20 && x->pcore_ms == 0 && x->nop_cpu_ms == 0, "two files: x 20 ms");
	CHECK(w.samples == 2 && w.coverage == 1, "two files: 2 samples");
	CHECK(power_task_samples(two, 2) == 2, "two files: 2 samples with tasks");
	ptask_win_free(&w);
	CHECK(w.t == NULL && w.n == 0, "ptask_win_free resets");
	buf_release(&err);
}

static void
test_tasks_wrong(void)
{
	expect_error(EL TS "<key>tasks</key>\n<dict>\n</dict>\n",
		     "tasks", "'tasks' is a dict, expected an array");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<string>bun</string>\n</array>\n",
		     "tasks", "'tasks[0]' is a string, expected a dict");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>name</key><string>bun</string>\n"
		     "</dict>\n</array>\n",
		     "tasks", "'tasks[0]' has no 'pid'");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><real>1.5</real>\n"
		     "</dict>\n</array>\n",
		     "pid", "'tasks[].pid' is a real, expected an integer");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><integer>2147483648</integer>\n"
		     "</dict>\n</array>\n",
		     "pid", "'tasks[0].pid' is 2.14748e+09, expected a process id");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><string>7</string>\n"
		     "</dict>\n</array>\n",
		     "pid", "'tasks[].pid' is a string, expected an integer");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><integer>7</integer>\n"
		     "<key>name</key><integer>7</integer>\n</dict>\n</array>\n",
		     "name", "'tasks[].name' is an integer, expected a string");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><integer>7</integer>\n"
		     "<key>cputime_ns</key><integer>-5</integer>\n</dict>\n</array>\n",
		     "cputime_ns", "'tasks[].cputime_ns' is negative (-5)");
	expect_error(EL TS "<key>tasks</key>\n<array>\n<dict>\n<key>pid</key><integer>7</integer>\n"
		     "<key>cputime_ns</key><integer>5</integer>\n"
		     "<key>ptime_ns</key><string>3</string>\n</dict>\n</array>\n",
		     "ptime_ns", "'tasks[].ptime_ns' is a string, expected a number");
	expect_error(EL TS "<key>coalitions</key>\n<dict>\n</dict>\n",
		     "coalitions", "'coalitions' is a dict, expected an array");
	expect_error(EL TS "<key>coalitions</key>\n<array>\n<string>x</string>\n</array>\n",
		     "coalitions", "'coalitions[0]' is a string, expected a dict");
	expect_error(EL TS "<key>coalitions</key>\n<array>\n<dict>\n<key>tasks</key>\n<dict>\n"
		     "</dict>\n</dict>\n</array>\n",
		     "coalitions", "'coalitions[0].tasks' is a dict, expected an array");
	expect_error(EL TS "<key>coalitions</key>\n<array>\n<dict>\n<key>tasks</key>\n<array>\n"
		     "<dict>\n<key>pid</key><integer>3</integer>\n</dict>\n<integer>4</integer>\n"
		     "</array>\n</dict>\n</array>\n",
		     "coalitions", "'coalitions[0].tasks[1]' is an integer, expected a dict");
}

/* Read one synthetic single-document stream; the sample or NULL. */
static const struct psample *
read_one(const char *body, struct power_file *pf, int *nw)
{
	struct buf s = BUF_INIT, err = BUF_INIT;
	int r, ne;

	custom_doc(&s, body);
	r = read_captured(tmp_write(s.ptr, s.len), pf, &err, nw, &ne);
	buf_release(&s);
	buf_release(&err);
	return r == 0 && pf->n == 1 ? &pf->s[0] : NULL;
}

static void
test_value_paths(void)
{
	struct power_file pf;
	const struct psample *s;
	int nw;

	/* combined_power only: 2000 mW over 0.5 s = 1 J. */
	s = read_one("<key>elapsed_ns</key><integer>500000000</integer>\n" TS
		     "<key>processor</key>\n<dict>\n<key>combined_power</key>\n<real>2000</real>\n"
		     "<key>cpu_power</key>\n<real>1</real>\n</dict>\n", &pf, &nw);
	CHECK(s && fabs(s->joules - 1) < 1e-12 && s->src == PSRC_POWER, "combined_power x elapsed");
	power_file_free(&pf);

	/* cpu_power + gpu_power when combined_power is missing: 1.5 W x 2 s = 3 J. */
	s = read_one("<key>elapsed_ns</key><integer>2000000000</integer>\n" TS
		     "<key>processor</key>\n<dict>\n<key>cpu_power</key>\n<real>1000</real>\n"
		     "<key>gpu_power</key>\n<real>500</real>\n</dict>\n", &pf, &nw);
	CHECK(s && fabs(s->joules - 3) < 1e-12 && s->src == PSRC_POWER, "cpu_power + gpu_power");
	power_file_free(&pf);

	/* Intel package_watts without package_joules: 5 W x 2 s = 10 J. */
	s = read_one("<key>elapsed_ns</key><integer>2000000000</integer>\n" TS
		     "<key>processor</key>\n<dict>\n<key>package_watts</key><real>5</real>\n</dict>\n",
		     &pf, &nw);
	CHECK(s && fabs(s->joules - 10) < 1e-12 && s->src == PSRC_PACKAGE, "package_watts x elapsed");
	power_file_free(&pf);

	/* Only cpu_energy: the missing gpu/ane count 0. */
	s = read_one(EL TS "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n<integer>1234</integer>\n</dict>\n",
		     &pf, &nw);
	CHECK(s && fabs(s->joules - 1.234) < 1e-12, "cpu_energy alone");
	power_file_free(&pf);

	/* No processor at all. */
	s = read_one(EL TS, &pf, &nw);
	CHECK(s && isnan(s->joules) && s->src == PSRC_NONE && isnan(s->pclust_mhz) &&
	      s->thermal == THERMAL_ABSENT && nw == 0, "no power keys: NAN joules, no warning");
	power_file_free(&pf);

	/* Only an M-cluster (M5 Max), and P-clusters without an S. */
	s = read_one(EL TS "<key>processor</key>\n<dict>\n<key>clusters</key>\n<array>\n"
		     "<dict><key>name</key><string>M0-Cluster</string><key>freq_hz</key><real>3.5e+09</real></dict>\n"
		     "</array>\n</dict>\n", &pf, &nw);
	CHECK(s && fabs(s->pclust_mhz - 3500) < 1e-9 && isnan(s->eclust_mhz), "M0-Cluster alone");
	power_file_free(&pf);
	s = read_one(EL TS "<key>processor</key>\n<dict>\n<key>clusters</key>\n<array>\n"
		     "<dict><key>name</key><string>E0-Cluster</string><key>freq_hz</key><real>1e+09</real></dict>\n"
		     "<dict><key>name</key><string>P0-Cluster</string><key>freq_hz</key><real>3e+09</real></dict>\n"
		     "<dict><key>name</key><string>M0-Cluster</string><key>freq_hz</key><real>9e+09</real></dict>\n"
		     "<dict><key>name</key><string>P1-Cluster</string><key>freq_hz</key><real>2e+09</real></dict>\n"
		     "</array>\n</dict>\n", &pf, &nw);
	CHECK(s && fabs(s->pclust_mhz - 2500) < 1e-9 && fabs(s->eclust_mhz - 1000) < 1e-9,
	      "P-clusters preferred to M, E separate");
	power_file_free(&pf);

	/* Comments, duplicate keys erg does not read (gpu idle_ns), odd thermal. */
	s = read_one("<!-- start -->\n" EL TS
		     "<key>processor</key>\n<dict>\n<!-- start GPU -->\n"
		     "<key>cpu_energy</key>\n<integer>7</integer>\n<!-- end GPU -->\n</dict>\n"
		     "<key>gpu</key><dict><key>idle_ns</key><integer>1</integer>\n"
		     "<key>idle_ns</key><integer>2</integer></dict>\n"
		     "<key>thermal_pressure</key><string>Heavy</string>\n", &pf, &nw);
	CHECK(s && fabs(s->joules - 0.007) < 1e-12 && s->thermal == THERMAL_HEAVY && nw == 0,
	      "comments, duplicate key erg does not read, Heavy");
	power_file_free(&pf);
	s = read_one(EL TS "<key>thermal_pressure</key><string>Trapping</string>\n", &pf, &nw);
	CHECK(s && s->thermal == THERMAL_CRITICAL, "Trapping counts as critical");
	power_file_free(&pf);
	s = read_one(EL TS "<key>thermal_pressure</key><string>Balmy</string>\n", &pf, &nw);
	CHECK(s && s->thermal == THERMAL_ABSENT && nw == 1, "unknown thermal level warned");
	power_file_free(&pf);

	/* Integers beyond 32 bits and negative ones elsewhere are fine. */
	s = read_one("<key>elapsed_ns</key><integer>5004803923</integer>\n" TS
		     "<key>all_tasks</key><dict><key>pid</key><integer>-2</integer></dict>\n", &pf, &nw);
	CHECK(s && fabs(s->elapsed_ms - 5004.803923) < 1e-9, "64-bit elapsed_ns, negative pid");
	power_file_free(&pf);
	/* 2^63 - 1 is still in range (and -1 a negative pid, not a huge one). */
	s = read_one("<key>elapsed_ns</key><integer>9223372036854775807</integer>\n" TS
		     "<key>tasks</key><array><dict><key>pid</key><integer>-1</integer>"
		     "<key>name</key><string>DEAD_TASKS</string>"
		     "<key>cputime_ns</key><integer>7</integer></dict></array>\n", &pf, &nw);
	CHECK(s && s->elapsed_ms == 9223372036854775807.0 / 1e6 && pf.ntasks == 1 &&
	      pf.tasks[0].pid == -1, "elapsed_ns 2^63 - 1 is read, pid -1 too");
	power_file_free(&pf);
}

static void
test_missing_time(void)
{
	int ok;
	struct buf s = BUF_INIT, err = BUF_INIT, want = BUF_INIT;
	struct power_file pf;
	int r, nw, ne;
	const char *p;
	size_t off2, off3, off4;

	/* 2: no timestamp; 3: no elapsed_ns; 4: 2 s after sample 1. */
	apple_doc(&s, "2026-08-26T08:56:05Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off2 = s.len;
	custom_doc(&s, EL "<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n<integer>5</integer>\n"
		   ZERO_GPU_ANE "</dict>\n");
	buf_addch(&s, '\0');
	off3 = s.len;
	custom_doc(&s, TS);
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:07Z", 1020000000, 1000, 0, 0, "Nominal");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_addf(&want, "erg: %s:@%zu: warning: sample 2: no 'timestamp'; sample dropped\n", p, off2);
	buf_addf(&want, "erg: %s:@%zu: warning: sample 3: no 'elapsed_ns'; sample dropped\n", p, off3);
	buf_addf(&want, "erg: %s:@%zu: error: sample 2: no 'timestamp': the samples after it "
		 "cannot be placed in time without it\n", p, off2);
	ok = r == -1 && pf.n == 0 && nw == 2 && ne == 1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "samples without time between kept ones: an error: %s", one_line(&err));
	power_file_free(&pf);

	/* Without time first and last: dropped, the file only shorter. */
	buf_reset(&s);
	custom_doc(&s, EL);
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:05Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	apple_doc(&s, "2026-08-26T08:56:06Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off3 = s.len;
	custom_doc(&s, TS);
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_reset(&want);
	buf_addf(&want, "erg: %s:@0: warning: sample 1: no 'timestamp'; sample dropped\n", p);
	buf_addf(&want, "erg: %s:@%zu: warning: sample 4: no 'elapsed_ns'; sample dropped\n", p, off3);
	CHECK(r == 0 && pf.n == 2 && pf.docs == 4 && pf.dropped == 2 && nw == 2 && ne == 0,
	      "samples without time first and last dropped (n=%zu)", pf.n);
	ok = !strcmp(err.ptr, want.ptr);
	CHECK(ok, "their warnings: %s", one_line(&err));
	CHECK(pf.n == 2 && pf.s[0].no == 2 && pf.s[1].no == 3, "samples keep their numbers");
	power_file_free(&pf);

	/*
	 * Sample 2 stamped 2 s before sample 1: 1.02 s of samples went by,
	 * the timestamp went back 2 s.  It used to be a warning, and the two
	 * samples a "fit" of slope -1.961.
	 */
	buf_reset(&s);
	apple_doc(&s, "2026-08-26T08:56:05Z", 1020000000, 1000, 0, 0, "Nominal");
	buf_addch(&s, '\0');
	off4 = s.len;
	apple_doc(&s, "2026-08-26T08:56:03Z", 1020000000, 1000, 0, 0, "Nominal");
	p = tmp_write(s.ptr, s.len);
	r = read_captured(p, &pf, &err, &nw, &ne);
	buf_reset(&want);
	buf_addf(&want, "erg: %s:@%zu: error: sample 2: elapsed_ns disagrees with the timestamps: "
		 "1.020 s of samples since sample 1, but the timestamp moves -2 s\n", p, off4);
	ok = r == -1 && pf.n == 0 && ne == 1 && !strcmp(err.ptr, want.ptr);
	CHECK(ok, "timestamp going back: an error: %s", one_line(&err));
	power_file_free(&pf);
	buf_release(&s);
	buf_release(&err);
	buf_release(&want);
}

/*
 * The parser switches: power_parse_mode, and $ERG_POWER_PARSER while the
 * mode is POWER_PARSE_AUTO.  fast_docs tells which path read a document.
 */
static void
test_parser_switch(void)
{
	struct buf path = BUF_INIT;
	struct power_file pf;
	const char *m4 = sample_path(&path, "m4max_Mac16-5_macos26.2_25C56_tasks_1sample.plist");
	int save = power_parse_mode, r;

	power_parse_mode = POWER_PARSE_AUTO;
	unsetenv("ERG_POWER_PARSER");
	r = read_fitted(m4, &pf);
	CHECK(r == 0 && pf.n == 1 && pf.fast_docs == 1, "default: the fast path reads m4max");
	power_file_free(&pf);
	setenv("ERG_POWER_PARSER", "libplist", 1);
	r = read_fitted(m4, &pf);
	CHECK(r == 0 && pf.n == 1 && pf.fast_docs == 0, "ERG_POWER_PARSER=libplist");
	power_file_free(&pf);
	power_parse_mode = POWER_PARSE_SERIAL;
	r = read_fitted(m4, &pf);
	CHECK(r == 0 && pf.n == 1 && pf.fast_docs == 1, "power_parse_mode wins over the environment");
	power_file_free(&pf);
	unsetenv("ERG_POWER_PARSER");
	power_parse_mode = POWER_PARSE_LIBPLIST;
	r = read_fitted(m4, &pf);
	CHECK(r == 0 && pf.n == 1 && pf.fast_docs == 0, "POWER_PARSE_LIBPLIST");
	power_file_free(&pf);
	/* VMware's stray text: libplist (after blanking), whatever the mode */
	power_parse_mode = POWER_PARSE_SERIAL;
	diag_quiet_warnings++;
	r = read_fitted(sample_path(&path, "intel_VMware7-1_no-power_1sample.output"), &pf);
	diag_quiet_warnings--;
	CHECK(r == 0 && pf.n == 1 && pf.fast_docs == 0, "VMware: stray text falls back to libplist");
	power_file_free(&pf);
	power_parse_mode = save;
	buf_release(&path);
}

/* ---- digest and progress ---------------------------------------------- */

/* A stream of n Apple documents into b. */
static void
many_docs(struct buf *b, size_t n)
{
	char ts[32];
	size_t i;

	if (n > 10 * 3600)
		BUG("many_docs: at most 10 hours of samples");
	for (i = 0; i < n; i++) {
		snprintf(ts, sizeof(ts), "2026-08-26T%02d:%02d:%02dZ", (int)(9 + i / 3600 % 10),
			 (int)(i / 60 % 60), (int)(i % 60));
		apple_doc(b, ts, 1000000000, 1000 + (int)(i % 7), 5, 0, "Nominal");
		buf_addch(b, '\0');
	}
}

/*
 * read_fitted() digests the file as it reads it (pf.sha256, file_bytes:
 * the on-disk bytes, compressed for gzip), inline or on input.c's helper
 * thread, with or without worker threads; the digest is input_file_sha256()'s.
 */
static void
test_digest(void)
{
	struct buf s = BUF_INIT, gz = BUF_INIT;
	struct power_file pf;
	const char *paths[2];
	char want[65];
	uint64_t size, saved = input_hash_async_min;
	size_t i, k;
	int r;

	many_docs(&s, 1500);	/* ~2 MB: past the first batch, so threads */
	gz_member(&gz, s.ptr, s.len);
	paths[0] = tmp_write(s.ptr, s.len);
	paths[1] = tmp_write(gz.ptr, gz.len);
	for (k = 0; k < 2; k++) {
		input_hash_async_min = k ? UINT64_MAX : 0;
		for (i = 0; i < 2; i++) {
			r = read_fitted(paths[i], &pf);
			CHECK(r == 0 && pf.n == 1500 && input_file_sha256(paths[i], want, &size) == 0 &&
			      !strcmp(pf.sha256, want) && pf.file_bytes == (i ? gz.len : s.len),
			      "%s file digested while read, %s: %s", i ? "gzip" : "plain",
			      k ? "inline" : "helper thread", pf.sha256);
			power_file_free(&pf);
		}
	}
	input_hash_async_min = saved;
	buf_release(&s);
	buf_release(&gz);
}

struct reading {
	const char *path;
	size_t n;
	int rc;
};

static void *
read_thread(void *arg)
{
	struct reading *rd = arg;
	struct power_file pf;

	progress_run_begin();
	rd->rc = read_fitted(rd->path, &pf);
	progress_run_end(0);
	rd->n = pf.n;
	power_file_free(&pf);
	return NULL;
}

/*
 * Every kept sample is counted for the progress line, and every byte
 * read, also when files are read at once on several threads (erg build
 * -j) each with its own worker threads; dropped samples are not.
 */
static void
test_progress(void)
{
	struct buf s = BUF_INIT, t = BUF_INIT;
	struct reading rd[3];
	pthread_t th[3];
	uint64_t bytes, samples;
	size_t runs, i;

	many_docs(&s, 1200);
	rd[0].path = rd[1].path = tmp_write(s.ptr, s.len);
	many_docs(&t, 30);
	custom_doc(&t, EL);	/* no timestamp: dropped with a warning */
	rd[2].path = tmp_write(t.ptr, t.len);
	progress_start(1, 3, 2 * s.len + t.len);
	diag_quiet_warnings++;
	for (i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, read_thread, &rd[i]))
			die("cannot start a thread");
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	diag_quiet_warnings--;
	progress_counts(&bytes, &samples, &runs);
	progress_stop();
	CHECK(rd[0].rc == 0 && rd[1].rc == 0 && rd[2].rc == 0 && rd[2].n == 30 &&
	      samples == 1200 + 1200 + 30 && bytes == 2 * s.len + t.len && runs == 3,
	      "progress: %llu samples of 2430 kept, %llu bytes of %zu read, on 3 threads",
	      (unsigned long long)samples, (unsigned long long)bytes, 2 * s.len + t.len);
	/* Off: nothing counted. */
	progress_start(0, 1, s.len);
	read_thread(&rd[0]);
	progress_counts(&bytes, &samples, &runs);
	progress_stop();
	CHECK(rd[0].rc == 0 && samples == 0 && bytes == 0, "progress off: nothing counted");
	buf_release(&s);
	buf_release(&t);
}

int
main(void)
{
	/*
	 * Everything twice: with the fast path (libplist for what it does
	 * not recognise), then with libplist alone, the reference.  Both
	 * must meet every expectation.
	 */
	static const struct { int mode; const char *name; } modes[] = {
		{ POWER_PARSE_AUTO, "fast path" }, { POWER_PARSE_LIBPLIST, "libplist only" },
	};
	size_t m;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		printf("# parser: %s\n", modes[m].name);
		power_parse_mode = modes[m].mode;
		test_real_samples();
		test_gzip_identical();
		test_fit();
		test_integrate();
		test_synthetic_end_to_end();
		test_framing();
		test_truncated_and_broken();
		test_wrong_values();
		test_strict_numbers();
		test_duplicate_keys();
		test_dropped_sample();
		test_span_bounds();
		test_time_contradictions();
		test_value_paths();
		test_missing_time();
		test_tasks_real();
		test_tasks_synthetic();
		test_tasks_wrong();
		tmp_cleanup();
	}
	power_parse_mode = POWER_PARSE_AUTO;
	test_parser_switch();
	test_digest();
	test_progress();
	tmp_cleanup();
	return th_done();
}
