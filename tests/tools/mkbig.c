/*
 * mkbig - write a large synthetic energy session, to time erg's
 * per-session work (analysis, checks, results, pages) as the number of
 * measurements grows.  Not part of make test: the suite has no timed test.
 *
 * usage: mkbig DIR [MEASUREMENTS [TARGETS]]     (defaults 40000 and 5)
 *
 * Layout, period k = 0, 1, ... of 8 s starting at S + 8 k s:
 *   idle window   [0, 3] s, baseline [0.5, 2.5] s, preceding measurement k
 *   measurement k starts at 3.5 s: route "ping" [3.5, 5.5] s, route
 *                 "query" [6, 7.5] s; round k / TARGETS + 1, slot
 *                 k % TARGETS + 1, targets rotated by one each round
 *   power         two samples of 4 s per period (2 W, then 15 W), ending on
 *                 half seconds so that the published time fit is exact
 * No load-generator files: every routeComplete carries its counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define S 1700000000000LL

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

int
main(int argc, char **argv)
{
	const char *dir;
	long n = 40000, nt = 5, k, i;
	FILE *f;
	char p[4096];

	if (argc < 2) {
		fprintf(stderr, "usage: mkbig DIR [MEASUREMENTS [TARGETS]]\n");
		return 2;
	}
	dir = argv[1];
	if (argc > 2)
		n = strtol(argv[2], NULL, 10);
	if (argc > 3)
		nt = strtol(argv[3], NULL, 10);
	if (n < 1 || nt < 1 || nt > 1000) {
		fprintf(stderr, "mkbig: bad counts\n");
		return 2;
	}
	snprintf(p, sizeof(p), "%s", dir);
	for (char *q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0777);
			*q = '/';
		}
	mkdir(dir, 0777);

	f = xopen(dir, "meta.json");
	fprintf(f, "{\"title\": \"Large synthetic session\", \"capturedAt\": "
		"\"2023-11-14T22:13:19Z\", \"machine\": {\"model\": \"Test1,1\", "
		"\"id\": \"big-machine\"}}\n");
	fclose(f);

	f = xopen(dir, "timeline.jsonl");
	fprintf(f, "{\"ts\":%lld,\"event\":\"sessionStart\",\"arm\":\"big\",\"rps\":0,"
		"\"rounds\":%ld,\"cooldownSec\":3,\"gapSec\":0.5}\n",
		S, (n + nt - 1) / nt);
	for (k = 0; k < n; k++) {
		long long t = S + 8000LL * k;
		long round = k / nt + 1, slot = k % nt + 1;
		char id[64], fw[32];

		snprintf(fw, sizeof(fw), "fw%ld", (slot - 1 + round - 1) % nt);
		snprintf(id, sizeof(id), "r%ld-s%ld-%s", round, slot, fw);
		fprintf(f, "{\"ts\":%lld,\"event\":\"idleWindow\",\"id\":\"idle-%ld\",\"index\":%ld,"
			"\"kind\":\"%s\",\"startedAtMs\":%lld,\"endedAtMs\":%lld,"
			"\"baselineStartMs\":%lld,\"baselineEndMs\":%lld,"
			"\"precedesMeasurementId\":\"%s\"}\n",
			t + 3000, k, k, k ? "cooldown" : "preroll", t, t + 3000, t + 500, t + 2500, id);
		fprintf(f, "{\"ts\":%lld,\"event\":\"measurementStart\",\"id\":\"%s\",\"round\":%ld,"
			"\"slot\":%ld,\"framework\":\"%s\",\"target\":\"test/%s\",\"serverPid\":100,"
			"\"startupMs\":10,\"startedAtMs\":%lld}\n",
			t + 3500, id, round, slot, fw, fw, t + 3500);
		for (i = 0; i < 2; i++) {
			long long a = t + (i ? 6000 : 3500), b = t + (i ? 7500 : 5500);
			long req = i ? 3000 : 4000;

			fprintf(f, "{\"ts\":%lld,\"event\":\"routeComplete\",\"id\":\"%s\",\"round\":%ld,"
				"\"slot\":%ld,\"framework\":\"%s\",\"route\":\"%s\",\"startedAtMs\":%lld,"
				"\"endedAtMs\":%lld,\"requests\":%ld,\"req2xx\":%ld,\"others\":0,"
				"\"rpsMean\":%ld,\"bytesRead\":%ld}\n",
				b, id, round, slot, fw, i ? "query" : "ping", a, b, req, req,
				(long)(req * 1000 / (b - a)), req * 100);
		}
		fprintf(f, "{\"ts\":%lld,\"event\":\"measurementComplete\",\"id\":\"%s\","
			"\"endedAtMs\":%lld}\n", t + 7600, id, t + 7600);
	}
	fprintf(f, "{\"ts\":%lld,\"event\":\"sessionEnd\",\"ok\":true}\n", S + 8000LL * n);
	fclose(f);

	f = xopen(dir, "power.plist");
	for (k = 1; k <= 2 * n; k++) {
		time_t ts = (time_t)(S / 1000 + 4 * k);
		struct tm tm;
		char date[32];

		gmtime_r(&ts, &tm);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
			"<dict>\n<key>elapsed_ns</key><integer>4000000000</integer>\n"
			"<key>timestamp</key><date>%s</date>\n<key>processor</key>\n<dict>\n"
			"<key>cpu_energy</key><integer>%d</integer>\n</dict>\n</dict>\n</plist>\n",
			date, k % 2 ? 8000 : 60000);
		fputc('\0', f);
	}
	fclose(f);
	return 0;
}
