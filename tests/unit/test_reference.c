/*
 * test_reference.c - erg, reading only raw files, must arrive at the
 * published figures of the M5 energy study.
 *
 * Expected values are the published ones: ../shared/reference/
 * energy-benchmark-m5.json (iceman951/blog, src/data/energy-benchmark-m5.json
 * @709b877ee42a8e68eaf00ac59405264fb2f4a87a), read here as data.  The raw
 * session is the committed archive (rebuilt from that dataset by
 * tests/tools/rebuild.c) and variants rebuilt on the fly: plain power file,
 * split into two continuation files, the performance cluster named
 * P-Cluster, bombardier files preceded by their progress output.
 * Tolerances are those of the reference-session issue.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze/analyze.h"
#include "ingest/session.h"
#include "base/util.h"
#include "harness.h"

static json_t *pub;
static const char *shared, *build;

/* Largest deviation per quantity over every variant, for the closing note. */
static double dev_head_mean, dev_head_sd, dev_head_cv, dev_head_rps, dev_head_w;
static double dev_r_mean, dev_r_sd, dev_r_rps, dev_r_w, dev_r_mb_video, dev_r_mb_small;
static double dev_win_j, dev_win_cov, dev_idle_w;

static double
num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void
track(double *max, double got, double want)
{
	if (fabs(got - want) > *max)
		*max = fabs(got - want);
}

static const struct target *
find_target(const struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ntargets; i++)
		if (!strcmp(r->targets[i].name, name))
			return &r->targets[i];
	return NULL;
}

static const struct target_route *
find_troute(const struct target *t, const char *name)
{
	size_t i;

	for (i = 0; t && i < t->nroutes; i++)
		if (!strcmp(t->routes[i].name, name))
			return &t->routes[i];
	return NULL;
}

static void
check_run(const char *label, struct run *r)
{
	json_t *byfw = json_object_get(json_object_get(pub, "aggregates"), "byFramework");
	json_t *fw, *ms, *m, *idles, *iw;
	const char *name;
	size_t i, j, bad_win = 0, bad_cov = 0, nwin = 0, bad_idle = 0;

	CHECK(r->ntargets == json_object_size(byfw), "%s: %zu targets", label, r->ntargets);
	json_object_foreach(byfw, name, fw) {
		const struct target *t = find_target(r, name);
		json_t *h = json_object_get(fw, "weightedSmallRoutes");
		json_t *routes = json_object_get(fw, "byRoute"), *pr;
		const char *rname;

		CHECK(t != NULL, "%s: target %s present", label, name);
		if (!t)
			continue;
		CHECK_NEAR(t->head_mj.mean, num(h, "meanMjPerReq"), 1e-5, name);
		CHECK_NEAR(t->head_mj.sd, num(h, "sdMjPerReq"), 2e-5, name);
		CHECK_NEAR(t->head_mj.cv, num(h, "cv"), 3e-4, name);
		CHECK_NEAR(t->head_rps.mean, num(h, "meanRps"), 0.5, name);
		CHECK_NEAR(t->head_watts.mean, num(h, "meanWatts"), 0.002, name);
		track(&dev_head_mean, t->head_mj.mean, num(h, "meanMjPerReq"));
		track(&dev_head_sd, t->head_mj.sd, num(h, "sdMjPerReq"));
		track(&dev_head_cv, t->head_mj.cv, num(h, "cv"));
		track(&dev_head_rps, t->head_rps.mean, num(h, "meanRps"));
		track(&dev_head_w, t->head_watts.mean, num(h, "meanWatts"));
		json_object_foreach(routes, rname, pr) {
			const struct target_route *tr = find_troute(t, rname);
			int video = !strcmp(rname, "video");
			char what[128];

			snprintf(what, sizeof(what), "%s %s %s", label, name, rname);
			CHECK(tr != NULL, "%s present", what);
			if (!tr)
				continue;
			CHECK(tr->per_mb == video, "%s: per-MB detection", what);
			CHECK_NEAR(tr->mj_per_req.mean, num(pr, "meanMjPerReq"), 2e-5, what);
			CHECK_NEAR(tr->mj_per_req.sd, num(pr, "sdMjPerReq"), 2e-5, what);
			CHECK_NEAR(tr->rps.mean, num(pr, "meanRps"), 0.5, what);
			CHECK_NEAR(tr->watts.mean, num(pr, "meanWatts"), 0.002, what);
			CHECK_NEAR(tr->mj_per_mb.mean, num(pr, "meanMjPerMB"), video ? 0.002 : 0.5, what);
			track(&dev_r_mean, tr->mj_per_req.mean, num(pr, "meanMjPerReq"));
			track(&dev_r_sd, tr->mj_per_req.sd, num(pr, "sdMjPerReq"));
			track(&dev_r_rps, tr->rps.mean, num(pr, "meanRps"));
			track(&dev_r_w, tr->watts.mean, num(pr, "meanWatts"));
			track(video ? &dev_r_mb_video : &dev_r_mb_small, tr->mj_per_mb.mean,
			      num(pr, "meanMjPerMB"));
		}
	}
	/* Every window: one check per kind, listing the failures. */
	ms = json_object_get(pub, "measurements");
	json_array_foreach(ms, i, m) {
		const char *id = json_string_value(json_object_get(m, "id"));
		json_t *routes = json_object_get(m, "routes"), *pr;
		const char *rname;
		const struct measurement *mm = NULL;

		for (j = 0; j < r->nm; j++)
			if (!strcmp(r->m[j].id, id))
				mm = &r->m[j];
		json_object_foreach(routes, rname, pr) {
			const struct route_win *w = NULL;

			for (j = 0; mm && j < mm->nroutes; j++)
				if (!strcmp(mm->routes[j].name, rname))
					w = &mm->routes[j];
			nwin++;
			if (!w || !(fabs(w->pw.energy_j - num(pr, "energyJ")) <= 0.002)) {
				if (bad_win++ < 5)
					printf("# %s %s %s: energy %.6f want %.3f\n", label, id, rname,
					       w ? w->pw.energy_j : NAN, num(pr, "energyJ"));
			}
			if (!w || !(fabs(w->pw.coverage - 1.0) < 0.0005))
				bad_cov++;
			if (w) {
				track(&dev_win_j, w->pw.energy_j, num(pr, "energyJ"));
				track(&dev_win_cov, w->pw.coverage, 1.0);
			}
		}
	}
	CHECK(nwin == 100 && bad_win == 0, "%s: %zu of %zu route windows within 0.002 J",
	      label, nwin - bad_win, nwin);
	CHECK(bad_cov == 0, "%s: coverage 1.000 in every route window (%zu off)", label, bad_cov);
	idles = json_object_get(pub, "idleWindows");
	CHECK(r->nidle == json_array_size(idles), "%s: %zu idle windows", label, r->nidle);
	json_array_foreach(idles, i, iw) {
		const char *id = json_string_value(json_object_get(iw, "id"));
		const struct idle_win *w = NULL;

		for (j = 0; j < r->nidle; j++)
			if (!strcmp(r->idle[j].id, id))
				w = &r->idle[j];
		if (!w || !(fabs(w->pw.mean_watts - num(iw, "meanWatts")) <= 0.0006) ||
		    !(fabs(w->pw.coverage - 1.0) < 0.0005)) {
			if (bad_idle++ < 5)
				printf("# %s %s: idle %.6f W want %.3f\n", label, id,
				       w ? w->pw.mean_watts : NAN, num(iw, "meanWatts"));
		}
		if (w)
			track(&dev_idle_w, w->pw.mean_watts, num(iw, "meanWatts"));
	}
	CHECK(bad_idle == 0, "%s: every idle window within 0.0006 W, coverage 1.000", label);
}

static void
check_dir(const char *label, const char *dir)
{
	struct run r;
	int rc = session_read(dir, label, &r);

	CHECK(rc == 0, "%s: session reads", label);
	if (!rc) {
		rc = analyze_run(&r);
		CHECK(rc == 0, "%s: session analyses", label);
	}
	if (!rc)
		check_run(label, &r);
	run_free(&r);
}

static void
variant(const char *label, const char *opts)
{
	char dir[64] = "/tmp/erg-ref-XXXXXX", cmd[2048];

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s/tools/rebuild %s %s/reference/energy-benchmark-m5.json %s/s",
		 build, opts, shared, dir);
	CHECK(system(cmd) == 0, "%s: rebuild %s", label, opts);
	strcat(dir, "/s");
	check_dir(label, dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)strlen(dir) - 2, dir);
	if (system(cmd))
		printf("# cleanup failed\n");
}

/*
 * The archived session with its power stream re-expressed as power.csv
 * (tests/tools/pm2csv: the fitted samples as rows of watts): the sample
 * model is then proven independent of the source when the published
 * figures come out as from the plist, and every window's energy within
 * 1e-7 relative of the plist run's: a row's interval starts where the
 * sample before ends, which differs from the fit's own start of the
 * sample (end - elapsed x b) by the rounding of Unix ms (~1e-4 ms, of a
 * 500 ms sample at a window's edges: 4.1e-8 measured).
 */
static void
variant_csv(const char *src)
{
	char dir[64] = "/tmp/erg-ref-XXXXXX", cmd[4096];
	struct run a, b;
	size_t i, j, n = 0, off = 0;
	double dev = 0, d;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(cmd, sizeof(cmd), "cp -r '%s' %s/s && %s/tools/pm2csv %s/s/power.plist* > "
		 "%s/s/power.csv && rm %s/s/power.plist*", src, dir, build, dir, dir, dir);
	CHECK(system(cmd) == 0, "power-csv: %s", cmd);
	strcat(dir, "/s");
	check_dir("power-csv", dir);
	if (session_read(src, "plist", &a) == 0 && analyze_run(&a) == 0 &&
	    session_read(dir, "csv", &b) == 0 && analyze_run(&b) == 0) {
		CHECK(b.npf == 1 && b.pf[0].timed && !strcmp(b.pf[0].source, "power-csv"),
		      "power-csv: read as power.csv (%zu samples)", b.npf ? b.pf[0].n : 0);
		for (i = 0; i < a.nm && i < b.nm; i++)
			for (j = 0; j < a.m[i].nroutes && j < b.m[i].nroutes; j++) {
				d = fabs(b.m[i].routes[j].pw.energy_j / a.m[i].routes[j].pw.energy_j - 1);
				if (d > dev)
					dev = d;
				off += !(d < 1e-7);
				n++;
			}
		CHECK(n == 100 && off == 0, "power-csv: %zu of %zu windows within 1e-7 of the "
		      "plist run's energy (largest relative deviation %.3g)", n - off, n, dev);
		printf("# power-csv: largest relative deviation of a window's energy %.3g\n", dev);
	} else {
		CHECK(0, "power-csv: both runs read");
	}
	run_free(&a);
	run_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)strlen(dir) - 2, dir);
	if (system(cmd))
		printf("# cleanup failed\n");
}

int
main(void)
{
	char path[1024];
	json_error_t err;
	const char *src = getenv("ERG_SRC") ? getenv("ERG_SRC") : ".";

	shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	build = getenv("BUILD") ? getenv("BUILD") : "build";
	snprintf(path, sizeof(path), "%s/reference/energy-benchmark-m5.json", shared);
	pub = json_load_file(path, 0, &err);
	CHECK(pub != NULL, "published dataset loads: %s", pub ? path : err.text);
	if (!pub)
		return th_done();
	diag_quiet_warnings = 1;

	snprintf(path, sizeof(path), "%s/archive/m5-energy/2026-08-26T0856-saturated", src);
	check_dir("archive", path);
	variant("plain", "--plain");
	variant("split", "--split");
	variant("p-cluster", "--pcluster P-Cluster");
	variant("progress", "--progress-prefix");
	variant_csv(path);

	printf("# largest deviations from the published figures over all variants:\n");
	printf("# headline mean %.3g, SD %.3g, CV %.3g, rps %.3g, W %.3g\n", dev_head_mean,
	       dev_head_sd, dev_head_cv, dev_head_rps, dev_head_w);
	printf("# route mean %.3g, SD %.3g, rps %.3g, W %.3g, mJ/MB video %.3g small %.3g\n",
	       dev_r_mean, dev_r_sd, dev_r_rps, dev_r_w, dev_r_mb_video, dev_r_mb_small);
	printf("# window energy %.3g J, coverage %.3g, idle W %.3g\n", dev_win_j, dev_win_cov,
	       dev_idle_w);
	json_decref(pub);
	return th_done();
}
