/*
 * mksmall - write the small hand-made energy session used by the tests.
 *
 * usage: mksmall DIR [variant]
 *
 * Everything is chosen so that the expected figures can be worked out by
 * hand (tests/unit/test_session.c does so in its comments):
 *   - S = 1700000000000 ms (a whole second).  Sample k = 1..106 is exactly
 *     1000 ms long and covers [S + (k-1)*1000 + 500, S + k*1000 + 500]; its
 *     timestamp is the whole second S + k*1000, so ts + 500 is the true end
 *     and the time fit is exact (a = S + 500, b = 1).
 *   - Each sample has a constant power P_k watts, so cpu_energy = 1000*P_k mJ.
 *   - Window edges fall on whole seconds, sample edges on half seconds, and
 *     no sample straddles two windows.
 * Variants (for error tests) change one thing: see usage in tests/sh/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define S 1700000000000LL

static const char *variant = "";

struct win {
	const char *id, *target, *route;
	int round, slot;
	int t0, t1;		/* seconds after S */
	double watts;
	long requests, bytes;
	double rps;
};

/* Route windows, in time order (see the header comment). */
static const struct win wins[] = {
	{ "r1-s1-alpha", "alpha", "a", 1, 1, 21, 26, 10, 10000, 1000000, 2000 },
	{ "r1-s1-alpha", "alpha", "b", 1, 1, 27, 30, 20, 6000, 600000, 2000 },
	{ "r1-s2-beta", "beta", "a", 1, 2, 42, 47, 12, 10000, 1000000, 1800 },
	{ "r1-s2-beta", "beta", "b", 1, 2, 48, 51, 16, 6000, 600000, 1900 },
	{ "r2-s1-beta", "beta", "a", 2, 1, 63, 68, 12, 10000, 1000000, 1850 },
	{ "r2-s1-beta", "beta", "b", 2, 1, 69, 72, 18, 6000, 600000, 1950 },
	{ "r2-s2-alpha", "alpha", "a", 2, 2, 84, 89, 11, 10000, 1000000, 2100 },
	{ "r2-s2-alpha", "alpha", "b", 2, 2, 90, 93, 22, 6000, 600000, 2050 },
};
#define NW (sizeof(wins) / sizeof(wins[0]))

/* Idle windows: start, end, baseline start/end (seconds after S, .5 allowed), watts. */
struct idle {
	const char *id, *kind, *follows, *precedes;
	double t0, t1, b0, b1, watts;
};
static const struct idle idles[] = {
	{ "idle-00", "preroll", NULL, "r1-s1-alpha", 1, 20, 5.5, 15.5, 2 },
	{ "idle-01", "cooldown", "r1-s1-alpha", "r1-s2-beta", 31, 41, 33.5, 39.5, 1 },
	{ "idle-02", "cooldown", "r1-s2-beta", "r2-s1-beta", 52, 62, 54.5, 60.5, 3 },
	{ "idle-03", "cooldown", "r2-s1-beta", "r2-s2-alpha", 73, 83, 75.5, 81.5, 2 },
	{ "idle-04", "postroll", "r2-s2-alpha", NULL, 94, 104, 96.5, 102.5, 2 },
};
#define NI (sizeof(idles) / sizeof(idles[0]))

static FILE *
xopen(const char *dir, const char *name)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!(f = fopen(p, "w"))) {
		perror(p);
		exit(1);
	}
	return f;
}

/* Power of sample k: the window or idle window containing its midpoint. */
static double
power_of(int k)
{
	double mid = (k - 1) + 1.0;	/* sample k covers [k-0.5, k+0.5] s */
	size_t i;

	for (i = 0; i < NW; i++)
		if (mid - 0.5 >= wins[i].t0 - 1 && mid + 0.5 <= wins[i].t1 + 1)
			return wins[i].watts;
	for (i = 0; i < NI; i++)
		if (mid >= idles[i].t0 && mid <= idles[i].t1)
			return idles[i].watts;
	return 5;	/* between windows: ignored by every window */
}

static void
write_power(const char *dir)
{
	FILE *f = xopen(dir, "power.plist");
	int k;

	for (k = 1; k <= 106; k++) {
		long long ts = S / 1000 + k;	/* whole seconds */
		time_t t = (time_t)ts;
		struct tm tm;
		char date[32];
		long e = (long)(power_of(k) * 1000);

		gmtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (!strcmp(variant, "broken-xml") && k == 40)
			fprintf(f, "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict><key>elapsed_ns<integer>1</dict>\n</plist>\n");
		else if (!strcmp(variant, "bad-energy") && k == 40)
			fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
				"<key>is_delta</key><true/>\n<key>elapsed_ns</key><integer>1000000000</integer>\n"
				"<key>timestamp</key><date>%s</date>\n<key>processor</key><dict>\n"
				"<key>cpu_energy</key>\n<string>lots</string>\n</dict>\n</dict>\n</plist>\n", date);
		else
			fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				"<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
				"<plist version=\"1.0\">\n<dict>\n"
				"<key>is_delta</key><true/>\n"
				"<key>elapsed_ns</key><integer>1000000000</integer>\n"
				"<key>hw_model</key><string>Test1,1</string>\n"
				"<key>timestamp</key><date>%s</date>\n"
				"<key>processor</key>\n<dict>\n"
				"<key>clusters</key>\n<array>\n"
				"<dict><key>name</key><string>E-Cluster</string><key>freq_hz</key><real>1e+09</real></dict>\n"
				"<dict><key>name</key><string>P-Cluster</string><key>freq_hz</key><real>%g</real></dict>\n"
				"</array>\n"
				"<key>cpu_energy</key>\n<integer>%ld</integer>\n"
				"<key>gpu_energy</key>\n<integer>0</integer>\n"
				"<key>ane_energy</key>\n<integer>0</integer>\n"
				"</dict>\n"
				"<key>thermal_pressure</key><string>%s</string>\n"
				"</dict>\n</plist>\n",
				date, power_of(k) >= 10 ? 3.0e9 : 1.0e9, e,
				!strcmp(variant, "moderate") && k == 44 ? "Moderate" : "Nominal");
		fputc('\0', f);
	}
	fclose(f);
}

static void
write_load(const char *dir, const struct win *w)
{
	char name[256];
	FILE *f;

	snprintf(name, sizeof(name), "bombardier/r%d-s%d-%s-%s.json", w->round, w->slot,
		 w->target, w->route);
	f = xopen(dir, name);
	fprintf(f, "{\n\t\"spec\": {\"numberOfConnections\": 50, \"testType\": \"timed\", "
		"\"testDurationSeconds\": %d, \"method\": \"GET\", \"url\": \"http://127.0.0.1:3000/%s\", "
		"\"stream\": false, \"timeoutSeconds\": 2, \"client\": \"fasthttp\"},\n"
		"\t\"result\": {\"bytesRead\": %ld, \"bytesWritten\": %ld, \"timeTakenSeconds\": %d, "
		"\"req1xx\": 0, \"req2xx\": %ld, \"req3xx\": 0, \"req4xx\": 0, \"req5xx\": 0, \"others\": 0, "
		"\"latency\": {\"mean\": 250.5, \"stddev\": 20, \"max\": 900}, "
		"\"rps\": {\"mean\": %g, \"stddev\": 10, \"max\": %g, \"percentiles\": {\"50\": %g, \"75\": 0, \"90\": 0, \"95\": 0, \"99\": 0}}}\n}\n",
		w->t1 - w->t0, w->route, w->bytes, w->requests * 100, w->t1 - w->t0,
		w->requests, w->rps, w->rps + 50, w->rps);
	fclose(f);
}

int
main(int argc, char **argv)
{
	const char *dir;
	char p[4096];
	FILE *tl, *f;
	size_t i, j;

	if (argc < 2) {
		fprintf(stderr, "usage: mksmall DIR [variant]\n");
		return 2;
	}
	dir = argv[1];
	if (argc > 2)
		variant = argv[2];
	/* mkdir -p: the tests place runs at some depth inside an archive */
	snprintf(p, sizeof(p), "%s", dir);
	for (char *q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0777);
			*q = '/';
		}
	mkdir(dir, 0777);
	snprintf(p, sizeof(p), "%s/bombardier", dir);
	mkdir(p, 0777);

	f = xopen(dir, "meta.json");
	fprintf(f, "{\n \"capturedAt\": \"2023-11-14T22:13:19Z\",\n \"title\": \"Small hand-made session\",\n"
		" \"roomTempC\": 21,\n \"machine\": {\"model\": \"Test1,1\", \"chip\": \"Test chip\", \"id\": \"test-machine\","
		" \"memoryBytes\": 8589934592, \"os\": \"TestOS 1\"},\n"
		" \"tools\": {\"bombardier\": \"bombardier version 2.0.2\"}%s\n}\n",
		!strcmp(variant, "notes-escape") ? ",\n \"notes\": \"../../etc/passwd\"" : "");
	fclose(f);
	f = xopen(dir, "notes.md");
	fprintf(f, "# Notes\n\nA *small* session.\n");
	fclose(f);

	tl = xopen(dir, "timeline.jsonl");
	fprintf(tl, "{\"ts\":%lld,\"event\":\"sessionStart\",\"arm\":\"test\",\"rps\":0,\"rounds\":2,\"cooldownSec\":10,\"gapSec\":1}\n", S + 1000);
	for (i = 0, j = 0; i < NW || j < NI;) {
		/* interleave idle windows and measurements by time */
		if (j < NI && (i >= NW || idles[j].t0 < wins[i].t0)) {
			const struct idle *d = &idles[j++];

			fprintf(tl, "{\"ts\":%lld,\"event\":\"idleWindow\",\"id\":\"%s\",\"index\":%zu,\"kind\":\"%s\","
				"\"startedAtMs\":%lld,\"endedAtMs\":%lld,\"baselineStartMs\":%lld,\"baselineEndMs\":%lld,"
				"\"followsMeasurementId\":%s%s%s,\"precedesMeasurementId\":%s%s%s}\n",
				S + (long long)(d->t1 * 1000), d->id, j - 1, d->kind,
				S + (long long)(d->t0 * 1000), S + (long long)(d->t1 * 1000),
				S + (long long)(d->b0 * 1000), S + (long long)(d->b1 * 1000),
				d->follows ? "\"" : "", d->follows ? d->follows : "null", d->follows ? "\"" : "",
				d->precedes ? "\"" : "", d->precedes ? d->precedes : "null", d->precedes ? "\"" : "");
			continue;
		}
		{
			const struct win *w = &wins[i++];
			long long t0 = S + w->t0 * 1000LL, t1 = S + w->t1 * 1000LL;
			const char *lf = "";

			if (!strcmp(variant, "missing-load") && i == 3)
				lf = ",\"loadFile\":\"bombardier/nope.json\"";
			if (!strcmp(variant, "escape-load") && i == 3)
				lf = ",\"loadFile\":\"../../../etc/passwd\"";
			if (!strcmp(w->route, "a"))
				fprintf(tl, "{\"ts\":%lld,\"event\":\"measurementStart\",\"id\":\"%s\",\"round\":%d,\"slot\":%d,"
					"\"framework\":\"%s\",\"target\":\"test/%s\",\"serverPid\":100,\"startupMs\":12.5,\"startedAtMs\":%lld}\n",
					t0, w->id, w->round, w->slot, w->target, w->target, t0);
			if (!strcmp(variant, "window-outside") && i == 8)
				t0 += 200000, t1 += 200000;
			fprintf(tl, "{\"ts\":%lld,\"event\":\"routeComplete\",\"id\":\"%s\",\"round\":%d,\"slot\":%d,"
				"\"framework\":\"%s\",\"route\":\"%s\",\"startedAtMs\":%lld,\"endedAtMs\":%lld,"
				"\"requests\":%ld,\"req2xx\":%ld,\"others\":0,\"rpsMean\":%g,\"bytesRead\":%ld%s}\n",
				t1, w->id, w->round, w->slot, w->target, w->route, t0, t1,
				w->requests + (!strcmp(variant, "mismatch") && i == 2 ? 1 : 0),
				w->requests, w->rps, w->bytes, lf);
			if (!strcmp(variant, "bad-json-line") && i == 4)
				fprintf(tl, "{\"ts\":1,\"event\":\"heartbeat\"\n");
			if (!strcmp(w->route, "b"))
				fprintf(tl, "{\"ts\":%lld,\"event\":\"measurementComplete\",\"id\":\"%s\",\"round\":%d,\"slot\":%d,"
					"\"framework\":\"%s\",\"startedAtMs\":%lld,\"endedAtMs\":%lld}\n",
					t1 + 1, w->id, w->round, w->slot, w->target, t1 - 9000, t1 + 1);
			write_load(dir, w);
		}
	}
	fprintf(tl, "{\"ts\":%lld,\"event\":\"sessionEnd\",\"ok\":true}\n", S + 104500);
	fclose(tl);
	write_power(dir);
	return 0;
}
