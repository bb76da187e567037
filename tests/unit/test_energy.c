/*
 * test_energy.c - the power readers of ingest/energy*.c: powercap-log v1
 * and power.csv, with energies worked out by hand in the comments, and
 * each error class with its exact message.
 *
 * No real powercap-log or power.csv exists to test against (energy-
 * formats.md §7: "Real powercap CSV logs: none found"); the logs here are
 * written to the documented layout, with the max_energy_range_uj of a
 * real Intel part (262143328850, energy-method.md §2.1).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "ingest/csv.h"
#include "ingest/energy.h"
#include "harness.h"

static char dir[64] = "/tmp/erg-energy-XXXXXX";
static struct buf diag = BUF_INIT;
static struct energy_opts opts;

/* Write text to dir/name; read it as kind (sniffed when 0) into pf.
 * Returns the reader's result; the diagnostics are in diag. */
static int
read_text(const char *name, const char *text, struct power_file *pf)
{
	char path[256];
	FILE *f;
	int kind, rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		return -2;
	buf_reset(&diag);
	diag_capture(&diag);
	rc = energy_sniff(path, &kind);
	if (!rc)
		rc = energy_read(path, kind, &opts, pf);
	diag_capture(NULL);
	return rc;
}

/* The diagnostic without "erg: DIR/" */
static const char *
msg(void)
{
	const char *p = strstr(diag.ptr, dir);

	if (diag.len && diag.ptr[diag.len - 1] == '\n')
		buf_setlen(&diag, diag.len - 1);
	return p ? p + strlen(dir) + 1 : diag.ptr;
}

#define CHECK_MSG(want, what) CHECK_STR(msg(), want, what)

static int
dom(const struct power_file *pf, const char *name)
{
	size_t d;

	for (d = 0; d < pf->ndom; d++)
		if (!strcmp(pf->dom[d], name))
			return (int)d;
	return -1;
}

#define T0 "1733170000000000000"

static void
test_powercap(void)
{
	struct power_file pf;
	int d;

	/*
	 * Sweeps at 0, 1 s and 2.5 s.  package-0: 1 -> 11 -> 31 J (10 J,
	 * 20 J); dram: 0.5 -> 2.5 -> 4.5 J (2 J, 2 J); core 0 -> 5 -> 15 J
	 * (inside the package: reported only); the mmio copy of the package
	 * is reported only.  Samples: 12 J over [0, 1 s], 22 J over [1, 2.5 s].
	 */
	CHECK(read_text("a.powercap-log",
			"# powercap-log v1 host=box clock=CLOCK_REALTIME\n"
			"# zone,intel-rapl:0,package-0,262143328850\n"
			"# zone,intel-rapl:0:0,core,262143328850\n"
			"# zone,intel-rapl:0:1,dram,262143328850\n"
			"# zone,intel-rapl-mmio:0,package-0,262143328850\n"
			"t_ns,zone,energy_uj\n"
			T0 ",intel-rapl:0,1000000\n"
			T0 ",intel-rapl:0:0,0\n"
			T0 ",intel-rapl:0:1,500000\n"
			T0 ",intel-rapl-mmio:0,1000000\n"
			"1733170001000000000,intel-rapl:0,11000000\n"
			"1733170001000000000,intel-rapl:0:0,5000000\n"
			"1733170001000000000,intel-rapl:0:1,2500000\n"
			"1733170001000000000,intel-rapl-mmio:0,11000000\n"
			"1733170002500000000,intel-rapl:0,31000000\n"
			"1733170002500000000,intel-rapl:0:0,15000000\n"
			"1733170002500000000,intel-rapl:0:1,4500000\n"
			"1733170002500000000,intel-rapl-mmio:0,31000000\n", &pf) == 0,
	      "powercap: reads (%s)", diag.ptr);
	CHECK(pf.n == 2 && pf.ndom == 4 && pf.timed, "powercap: 2 samples, 4 domains");
	if (pf.n == 2 && pf.ndom == 4) {
		CHECK_NEAR(pf.s[0].start_ms, 1733170000000.0, 0, "sample 1 start");
		CHECK_NEAR(pf.s[0].end_ms, 1733170001000.0, 0, "sample 1 end");
		CHECK_NEAR(pf.s[1].end_ms, 1733170002500.0, 0, "sample 2 end");
		CHECK_NEAR(pf.s[0].joules, 12, 1e-12, "sample 1: package 10 J + dram 2 J");
		CHECK_NEAR(pf.s[1].joules, 22, 1e-12, "sample 2: package 20 J + dram 2 J");
		d = dom(&pf, "package-0/core");
		CHECK(d >= 0 && !pf.dom_sum[d], "core is reported, not counted");
		if (d >= 0)
			CHECK_NEAR(power_dom_joules(&pf, 1, (size_t)d), 10, 1e-12, "core 10 J");
		d = dom(&pf, "package-0 (mmio)");
		CHECK(d >= 0 && !pf.dom_sum[d], "the mmio package is reported, not counted");
		d = dom(&pf, "package-0/dram");
		CHECK(d >= 0 && pf.dom_sum[d], "dram counts");
		CHECK(pf.sha256[0] != '\0', "powercap: digested while read");
	}
	power_file_free(&pf);

	/*
	 * A wrap: max 262143328850 uJ; 262143328850 - 4 J -> 6 J is
	 * 4 + 6 = 10 J over 1 s, plausible beside the 8 J/s of the interval
	 * before (no more than twice its peak).
	 */
	CHECK(read_text("wrap.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,262143328850\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,262131328850\n"
			"1733170001000000000,intel-rapl:0,262139328850\n"
			"1733170002000000000,intel-rapl:0,6000000\n", &pf) == 0,
	      "wrap: reads (%s)", diag.ptr);
	if (pf.n == 2) {
		CHECK_NEAR(pf.s[0].joules, 8, 1e-9, "wrap: 8 J before");
		CHECK_NEAR(pf.s[1].joules, 10, 1e-9, "wrap: 4 J to the top + 6 J after it");
	}
	power_file_free(&pf);

	/*
	 * A reading stamped late (the counter updated after a hold-up):
	 * 10 W into a 100 J range; at 3 s the counter still shows 81 J (1 J
	 * in the second), at 4 s it has wrapped to 10 J (19 + 10 = 29 J, 29 W,
	 * over twice the 10 W peak alone).  Over the pair [2 s, 4 s], 30 J in
	 * 2 s = 15 W: a wrap read late, kept.  A jump to 50 J instead (19 + 50
	 * = 69 J; the pair 35 W) stays an error.
	 */
	CHECK(read_text("late.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,100000000\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,60000000\n"
			"1733170001000000000,intel-rapl:0,70000000\n"
			"1733170002000000000,intel-rapl:0,80000000\n"
			"1733170003000000000,intel-rapl:0,81000000\n"
			"1733170004000000000,intel-rapl:0,10000000\n"
			"1733170005000000000,intel-rapl:0,20000000\n", &pf) == 0,
	      "late reading across a wrap: reads (%s)", diag.ptr);
	CHECK(pf.n == 5, "late reading: 5 samples");
	if (pf.n == 5) {
		CHECK_NEAR(pf.s[2].joules, 1, 1e-9, "late reading: 1 J in the held-up second");
		CHECK_NEAR(pf.s[3].joules, 29, 1e-9, "late reading: 19 J to the top + 10 J after");
	}
	power_file_free(&pf);
	CHECK(read_text("late-reset.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,100000000\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,60000000\n"
			"1733170001000000000,intel-rapl:0,70000000\n"
			"1733170002000000000,intel-rapl:0,80000000\n"
			"1733170003000000000,intel-rapl:0,81000000\n"
			"1733170004000000000,intel-rapl:0,50000000\n"
			"1733170005000000000,intel-rapl:0,60000000\n", &pf) == -1,
	      "late reading, then a jump no pair explains: refused");
	CHECK_MSG("late-reset.powercap-log:8: error: counter of zone 'intel-rapl:0' goes backwards "
		  "(from 81000000 to 50000000 uJ): a wrap at max_energy_range_uj 100000000 would "
		  "mean 69 W, more than twice its peak of 10 W; was it reset?",
		  "late reading, then a jump: message");

	/* A reset to 0 looks like a wrap of ~262 kJ in a second. */
	CHECK(read_text("reset.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,262143328850\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,40000000\n"
			"1733170001000000000,intel-rapl:0,50000000\n"
			"1733170002000000000,intel-rapl:0,1000\n", &pf) == -1, "reset: refused");
	CHECK_MSG("reset.powercap-log:6: error: counter of zone 'intel-rapl:0' goes backwards "
		  "(from 50000000 to 1000 uJ): a wrap at max_energy_range_uj 262143328850 would "
		  "mean 262093.32985 W, more than twice its peak of 10 W; was it reset?",
		  "reset: message");

	/* Backwards without a known range: no wrap can be told. */
	CHECK(read_text("nomax.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,40000000\n"
			"1733170001000000000,intel-rapl:0,1000\n", &pf) == -1, "no max: refused");
	CHECK_MSG("nomax.powercap-log:5: error: counter of zone 'intel-rapl:0' goes backwards "
		  "(from 40000000 to 1000 uJ) and its max_energy_range_uj is not known: no wrap "
		  "can be told", "no max: message");

	/*
	 * Readings too far apart: a 100 J range at twice the 10 W peak wraps
	 * every 5 s; the third sweep is 10 s after the second.
	 */
	CHECK(read_text("far.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,100000000\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,0\n"
			"1733170001000000000,intel-rapl:0,10000000\n"
			"1733170011000000000,intel-rapl:0,20000000\n", &pf) == -1, "far: refused");
	CHECK_MSG("far.powercap-log:6: error: readings 10 s apart: at twice the peak power of "
		  "zone 'intel-rapl:0' (10 W) its counter wraps every 5 s, so a wrap could hide "
		  "between them", "far: message");

	/*
	 * The logger stopped (a resumed `erg record`): sweeps 1 s apart at
	 * 10 W, then one 30 s later, further apart than the 5 s horizon,
	 * and later the counter reset (a reboot) with no range known.  Each
	 * long interval is a gap (over 5 times the 1 s median), not an
	 * error: no energy is counted in it, so no wrap or reset in it can
	 * make a figure wrong.
	 */
	CHECK(read_text("resume.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,100000000\n"
			"# zone,intel-rapl:1,package-1,\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,0\n1733170000000000000,intel-rapl:1,50000000\n"
			"1733170001000000000,intel-rapl:0,10000000\n1733170001000000000,intel-rapl:1,51000000\n"
			"1733170002000000000,intel-rapl:0,20000000\n1733170002000000000,intel-rapl:1,52000000\n"
			"1733170003000000000,intel-rapl:0,30000000\n1733170003000000000,intel-rapl:1,53000000\n"
			"1733170033000000000,intel-rapl:0,50000000\n1733170033000000000,intel-rapl:1,54000000\n"
			"1733170034000000000,intel-rapl:0,60000000\n1733170034000000000,intel-rapl:1,55000000\n"
			"1733170035000000000,intel-rapl:0,70000000\n1733170035000000000,intel-rapl:1,56000000\n"
			"1733170095000000000,intel-rapl:0,5000000\n1733170095000000000,intel-rapl:1,1000\n"
			"1733170096000000000,intel-rapl:0,15000000\n1733170096000000000,intel-rapl:1,1001000\n",
			&pf) == 0, "resume gap: reads (%s)", diag.ptr);
	CHECK(pf.n == 8 && pf.nholes == 2 && pf.holes[0].at == 3 && pf.holes[0].ms == 30000 &&
	      pf.holes[1].at == 6 && pf.holes[1].ms == 60000 && isnan(pf.s[3].joules) &&
	      isnan(pf.s[6].joules), "resume gap: the 30 s and 60 s intervals are gaps");
	if (pf.n == 8) {
		size_t i;
		int good = 1;

		for (i = 0; i < pf.n; i++)
			if (i != 3 && i != 6)
				good &= pf.s[i].joules == 11;
		CHECK(good, "resume gap: 10 J + 1 J in every other 1 s interval");
	}
	power_file_free(&pf);
	/*
	 * The last reading 1 ms after the one before (the logger stopped
	 * right after a sweep), when a 1 J step of the counter landed: 1000 W
	 * over that interval, but counted over half the 1 s median, 2 W.  So
	 * the peak stays 10 W and the 100 J range wraps every 5 s at twice
	 * it: the 1 s readings are close enough.
	 */
	CHECK(read_text("short.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,100000000\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,0\n"
			"1733170001000000000,intel-rapl:0,10000000\n"
			"1733170002000000000,intel-rapl:0,20000000\n"
			"1733170003000000000,intel-rapl:0,30000000\n"
			"1733170003001000000,intel-rapl:0,31000000\n", &pf) == 0,
	      "short last interval: reads (%s)", diag.ptr);
	CHECK(pf.n == 4 && pf.s[3].joules == 1, "short last interval: its 1 J counted");
	power_file_free(&pf);

	/* the same reset with sweeps 1 s apart throughout is no gap */
	CHECK(read_text("nogap.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,0\n"
			"1733170001000000000,intel-rapl:0,10000000\n"
			"1733170002000000000,intel-rapl:0,20000000\n"
			"1733170003000000000,intel-rapl:0,30000000\n"
			"1733170004000000000,intel-rapl:0,1000\n"
			"1733170005000000000,intel-rapl:0,10001000\n", &pf) == -1,
	      "reset without a gap: refused");
	CHECK_MSG("nogap.powercap-log:8: error: counter of zone 'intel-rapl:0' goes backwards "
		  "(from 30000000 to 1000 uJ) and its max_energy_range_uj is not known: no wrap "
		  "can be told", "reset without a gap: message");

	/* Permission denied: the logger wrote no rows and said why. */
	CHECK(read_text("denied.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,262143328850\n"
			"# error: intel-rapl:0/energy_uj: Permission denied\n"
			"t_ns,zone,energy_uj\n", &pf) == -1, "denied: refused");
	CHECK_MSG("denied.powercap-log: error: no sample in 'denied.powercap-log' has energy "
		  "(# error: intel-rapl:0/energy_uj: Permission denied)", "denied: message");

	CHECK(read_text("v2.powercap-log", "# powercap-log v2\n", &pf) == -1, "v2: refused");
	CHECK_MSG("v2.powercap-log:1: error: powercap-log version 'v2' is not one erg reads (v1)",
		  "v2: message");
	CHECK(read_text("mono.powercap-log", "# powercap-log v1 clock=CLOCK_MONOTONIC\n", &pf)
	      == -1, "monotonic: refused");
	CHECK_MSG("mono.powercap-log:1: error: clock 'CLOCK_MONOTONIC' is not the wall clock: "
		  "erg needs CLOCK_REALTIME to place the samples", "monotonic: message");
	CHECK(read_text("num.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,262143328850\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,1.5e6\n", &pf) == -1, "float uJ: refused");
	CHECK_MSG("num.powercap-log:4: error: energy_uj '1.5e6' is not a whole number",
		  "float uJ: message");
	CHECK(read_text("miss.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,262143328850\n"
			"# zone,intel-rapl:1,package-1,262143328850\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,1\n"
			"1733170000000000000,intel-rapl:1,1\n"
			"1733170001000000000,intel-rapl:0,2\n"
			"1733170002000000000,intel-rapl:0,3\n"
			"1733170002000000000,intel-rapl:1,3\n", &pf) == -1, "missing zone: refused");
	CHECK_MSG("miss.powercap-log:7: error: the sweep at t_ns 1733170001000000000 has no "
		  "reading of zone 'intel-rapl:1'", "missing zone: message");
	CHECK(read_text("over.powercap-log",
			"# powercap-log v1\n"
			"# zone,intel-rapl:0,package-0,1000\n"
			"t_ns,zone,energy_uj\n"
			"1733170000000000000,intel-rapl:0,1001\n", &pf) == -1, "above max: refused");
	CHECK_MSG("over.powercap-log:4: error: energy_uj 1001 of zone 'intel-rapl:0' is above its "
		  "max_energy_range_uj 1000", "above max: message");
}

static void
test_csv(void)
{
	struct power_file pf;
	double ms;
	int rc;

	/*
	 * Counters: package-0 100 -> 110 -> 130 J and dram 5 -> 6 -> 8 J at
	 * 0, 2 s, 4 s (ISO times, +02:00): 11 J, then 22 J.
	 */
	CHECK(read_text("power.csv",
			"# any comment\n"
			"time,package-0_J,dram_J\n"
			"2026-08-26T08:56:00+02:00,100,5\n"
			"2026-08-26T08:56:02.000+02:00,110,6\n"
			"2026-08-26T06:56:04Z,130,8\n", &pf) == 0, "csv J: reads (%s)", diag.ptr);
	CHECK(pf.n == 2 && pf.ndom == 2, "csv J: 2 samples, 2 domains");
	if (pf.n == 2) {
		/* 2026-08-26T06:56:00Z = 1787727360 s */
		CHECK_NEAR(pf.s[0].start_ms, 1787727360000.0, 0, "csv J: first row's time");
		CHECK_NEAR(pf.s[1].end_ms, 1787727364000.0, 0, "csv J: Z time");
		CHECK_NEAR(pf.s[0].joules, 11, 1e-12, "csv J: 10 + 1 J");
		CHECK_NEAR(pf.s[1].joules, 22, 1e-12, "csv J: 20 + 2 J");
	}
	power_file_free(&pf);

	/* Watts over the interval before: 10 W over 0.5 s, 20 W over 1.5 s
	 * (epoch ms) = 5 J and 30 J; core reported only. */
	CHECK(read_text("w.csv",
			"time,pkg_W,core_W\n"
			"1700000000000,,\n"
			"1700000000500,10,4\n"
			"1700000002000.0,20,8\n", &pf) == 0, "csv W: reads (%s)", diag.ptr);
	if (pf.n == 2) {
		CHECK_NEAR(pf.s[0].joules, 5, 1e-12, "csv W: 10 W x 0.5 s");
		CHECK_NEAR(pf.s[1].joules, 30, 1e-12, "csv W: 20 W x 1.5 s");
		CHECK(!pf.dom_sum[1], "csv W: core reported only");
		CHECK_NEAR(power_dom_joules(&pf, 1, 1), 12, 1e-12, "csv W: core 8 W x 1.5 s");
	}
	power_file_free(&pf);

	/* The logger stopped: rows 1 s apart, then 16 s (over 5 times the
	 * median): that interval is a hole with no energy, the rest 1 W. */
	CHECK(read_text("gap.csv",
			"time,pkg_W\n1700000000000,\n1700000001000,1\n1700000002000,1\n"
			"1700000003000,1\n1700000004000,1\n1700000020000,1\n", &pf) == 0,
	      "gap: reads (%s)", diag.ptr);
	CHECK(pf.n == 5 && pf.nholes == 1 && pf.holes[0].at == 4 && isnan(pf.s[4].joules) &&
	      pf.holes[0].ms == 16000 && pf.s[3].joules == 1, "gap: the 16 s interval is a hole");
	power_file_free(&pf);

	CHECK(read_text("tz.csv", "time,pkg_W\n2026-08-26T08:56:00,\n", &pf) == -1,
	      "no timezone: refused");
	CHECK_MSG("tz.csv:2: error: time '2026-08-26T08:56:00' has no timezone: erg places the "
		  "samples on the Unix epoch; add Z or +HH:MM", "no timezone: message");
	CHECK(read_text("first.csv", "time,pkg_W\n1700000000000,5\n", &pf) == -1,
	      "first-row watts: refused");
	CHECK_MSG("first.csv:2: error: 'pkg_W' on the first row: watts are the mean over the "
		  "interval since the row before, and there is none; leave it empty",
		  "first-row watts: message");
	CHECK(read_text("back.csv", "time,pkg_J\n1700000000000,5\n1700000001000,4.5\n", &pf) == -1,
	      "backwards counter: refused");
	CHECK_MSG("back.csv:3: error: counter 'pkg_J' goes backwards (from 5 to 4.5 J): power.csv "
		  "counters never wrap, write them unwrapped", "backwards counter: message");
	CHECK(read_text("big.csv", "time,gpu0_W\n1700000000000,\n1700000001000,100001\n", &pf)
	      == -1, "gauge above 100 kW: refused");
	CHECK_MSG("big.csv:3: error: 'gpu0_W' is 100001 W: more than 100 kW is no plausible "
		  "reading", "gauge above 100 kW: message");
	CHECK(read_text("hex.csv", "time,pkg_W\n1700000000000,\n1700000001000,0x10\n", &pf) == -1,
	      "hex: refused");
	CHECK_MSG("hex.csv:3: error: '0x10' of 'pkg' is not a number", "hex: message");
	CHECK(read_text("unit.csv", "time,pkg_kW\n", &pf) == -1, "unit: refused");
	CHECK_MSG("unit.csv:1: error: column 'pkg_kW' is not '<domain>_J' (joules, cumulative) "
		  "or '<domain>_W' (watts)", "unit: message");
	CHECK(read_text("none.csv", "time,pkg_W\n1700000000000,\n1700000001000,\n", &pf) == -1,
	      "no energy: refused");
	CHECK_MSG("none.csv: error: no sample in 'none.csv' has energy (2 rows)",
		  "no energy: message");

	/* the call first: a CHECK's arguments are evaluated in no set order,
	 * so ms among them could be read before the call writes it */
	rc = en_iso_time("2026-08-26T08:56:01.250+02:00", &ms);
	CHECK(rc == 0 && ms == 1787727361250.0, "ISO 8601 with offset and fraction: %.17g", ms);
	CHECK(en_iso_time("2026-02-29T00:00:00Z", &ms) == -1, "no 29 February in 2026");
	CHECK(en_iso_time("2024-02-29 00:00:00+0000", &ms) == 0 && ms == 1709164800000.0,
	      "a space and +HHMM");

	/* The logs' numbers are csv.h's grammar: what one reads, so does the
	 * other, and what one refuses, so does the other. */
	{
		static const char *const yes[] = { "0", "-0", "+5", "19.63", ".5", "5.", "1e-3",
						   "1737461851.853200", "2.5E+2" };
		static const char *const no[] = { "", " 12", "12 ", "12abc", "0x10", "1,234",
						  "1_000", "inf", "nan", "1e999", "1e-400", ".",
						  "e5", "5e" };
		const char *why;
		double a, b;
		size_t i;
		int same = 1;

		for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
			same &= en_number(yes[i], &a) == 0 && csv_number(yes[i], &b, &why) == 0 &&
				a == b && a == strtod(yes[i], NULL);
		CHECK(same, "en_number reads what csv_number reads, as strtod does");
		for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
			CHECK(en_number(no[i], &a) == -1 && csv_number(no[i], &b, &why) == -1,
			      "'%s' is no number to either", no[i]);
		}
	}
}

/* Sum of joules of pf's samples, and the count of those without. */
static double
total_j(const struct power_file *pf, size_t *none)
{
	double j = 0;
	size_t i;

	*none = 0;
	for (i = 0; i < pf->n; i++) {
		if (isnan(pf->s[i].joules))
			(*none)++;
		else
			j += pf->s[i].joules;
	}
	return j;
}

static void
test_nvsmi(void)
{
	struct power_file pf;
	struct buf path = BUF_INIT;
	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	size_t none;
	int kind;

	opts.tz_set = 1;
	opts.tz_ms = 0;
	/*
	 * The first 4 rows of the real -lms 50 sample (PranavDani/Flame,
	 * samples/energy/nvidia-smi/lms50_timestamp_power-draw.csv), times
	 * read as UTC: trapezoids (22.89 + 22.73)/2 x 0.050 = 1.1405 J,
	 * (22.73 + 22.73)/2 x 0.051 = 1.15923 J, (22.73 + 23.00)/2 x 0.050
	 * = 1.14325 J.
	 */
	CHECK(read_text("nvidia-smi.csv",
			"timestamp, power.draw [W]\n"
			"2024/10/30 18:42:33.189, 22.89 W\n"
			"2024/10/30 18:42:33.239, 22.73 W\n"
			"2024/10/30 18:42:33.290, 22.73 W\n"
			"2024/10/30 18:42:33.340, 23.00 W\n", &pf) == 0, "nvsmi: reads (%s)", diag.ptr);
	CHECK(pf.n == 3 && pf.ndom == 1 && !strcmp(pf.dom[0], "gpu0"), "nvsmi: 3 samples of gpu0");
	if (pf.n == 3) {
		/* 2024-10-30T18:42:33.189Z = 1730313753189 ms */
		CHECK_NEAR(pf.s[0].start_ms, 1730313753189.0, 0, "nvsmi: first time");
		CHECK_NEAR(pf.s[0].joules, 1.1405, 1e-9, "nvsmi: trapezoid 1");
		CHECK_NEAR(pf.s[1].joules, 1.15923, 1e-9, "nvsmi: trapezoid 2");
		CHECK_NEAR(pf.s[2].joules, 1.14325, 1e-9, "nvsmi: trapezoid 3");
	}
	power_file_free(&pf);

	/*
	 * The whole real files: totals by the trapezoid over consecutive
	 * rows, computed apart with awk (-F', ': seconds of the day from the
	 * time, watts from the last field): 72 intervals, 79.820330 J; the
	 * GTX 1650 file (12 columns, -lms 10): 79 intervals, 18.169350 J.
	 */
	buf_addf(&path, "%s/samples/energy/nvidia-smi/lms50_timestamp_power-draw.csv", shared);
	CHECK(energy_sniff(path.ptr, &kind) == 0 && kind == EK_NVSMI, "nvsmi: sniffed");
	CHECK(energy_read(path.ptr, EK_NVSMI, &opts, &pf) == 0, "nvsmi lms50: reads");
	CHECK(pf.n == 72, "nvsmi lms50: 72 samples (%zu)", pf.n);
	CHECK_NEAR(total_j(&pf, &none), 79.820330, 5e-6, "nvsmi lms50: total J");
	CHECK(none == 0, "nvsmi lms50: no gap");
	power_file_free(&pf);
	buf_reset(&path);
	buf_addf(&path, "%s/samples/energy/nvidia-smi/gtx1650_lms10_csv_12cols.csv", shared);
	CHECK(energy_read(path.ptr, EK_NVSMI, &opts, &pf) == 0, "nvsmi gtx1650: reads");
	CHECK(pf.n == 79, "nvsmi gtx1650: 79 samples (%zu)", pf.n);
	CHECK_NEAR(total_j(&pf, &none), 18.169350, 5e-6, "nvsmi gtx1650: total J");
	power_file_free(&pf);
	buf_release(&path);

	/* Two GPUs by index; GPU 1's first value missing: the trapezoid
	 * touching it has no energy, nor has the first sample's total.
	 * GPU 0: (100 + 110)/2 x 0.5 = 52.5 J, (110 + 120)/2 x 0.5 = 57.5 J;
	 * GPU 1: (50 + 60)/2 x 0.5 = 27.5 J; second total 85 J. */
	CHECK(read_text("two.csv",
			"timestamp, index, power.draw [W]\n"
			"2026/09/02 00:00:00.000, 0, 100.00 W\n"
			"2026/09/02 00:00:00.002, 1, [N/A]\n"
			"2026/09/02 00:00:00.500, 0, 110.00 W\n"
			"2026/09/02 00:00:00.502, 1, 50.00 W\n"
			"2026/09/02 00:00:01.000, 0, 120.00 W\n"
			"2026/09/02 00:00:01.002, 1, 60.00 W\n", &pf) == 0, "nvsmi 2 GPUs: reads (%s)",
	      diag.ptr);
	CHECK(pf.n == 2 && pf.ndom == 2, "nvsmi 2 GPUs: 2 samples, 2 domains");
	if (pf.n == 2 && pf.ndom == 2) {
		CHECK_NEAR(power_dom_joules(&pf, 0, 0), 52.5, 1e-9, "nvsmi: gpu0 first");
		CHECK_NEAR(power_dom_joules(&pf, 1, 0), 57.5, 1e-9, "nvsmi: gpu0 second");
		CHECK(isnan(power_dom_joules(&pf, 0, 1)) && isnan(pf.s[0].joules),
		      "nvsmi: no gpu1 energy next to [N/A], so no total");
		CHECK_NEAR(power_dom_joules(&pf, 1, 1), 27.5, 1e-9, "nvsmi: gpu1 second");
		CHECK_NEAR(pf.s[1].joules, 85, 1e-9, "nvsmi: second total");
		CHECK_NEAR(pf.s[1].end_ms - pf.s[1].start_ms, 500, 1e-6, "nvsmi: tick to tick");
	}
	power_file_free(&pf);

	CHECK(read_text("big-gpu.csv",
			"timestamp, power.draw [W]\n"
			"2026/09/02 00:00:00.000, 100.00 W\n"
			"2026/09/02 00:00:00.500, 2500.00 W\n", &pf) == -1, "nvsmi 2.5 kW: refused");
	CHECK_MSG("big-gpu.csv:3: error: power.draw of GPU 0 is 2500.00 W: more than 2 kW is no "
		  "plausible reading for one board", "nvsmi 2.5 kW: message");
	opts.tz_set = 0;
	CHECK(read_text("notz.csv",
			"timestamp, power.draw [W]\n"
			"2026/09/02 00:00:00.000, 100.00 W\n", &pf) == -1, "nvsmi without a zone: refused");
	CHECK_MSG("notz.csv:2: error: timestamp '2026/09/02 00:00:00.000' has no timezone "
		  "(nvidia-smi writes local time): give the logging machine's offset as meta.json "
		  "erg.powerTimezone, e.g. \"+02:00\"", "nvsmi without a zone: message");
}

static void
test_perf(void)
{
	struct power_file pf;
	struct buf path = BUF_INIT, text = BUF_INIT, line = BUF_INIT;
	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	size_t none;
	FILE *f;
	char l[512];
	int ok;

	opts.tz_set = 1;
	opts.tz_ms = 0;
	opts.start_set = 0;
	/*
	 * The first two lines of the real 2-socket CloudLab capture
	 * (samples/energy/perf-stat/peakler_...README.md, lines 29-30) under
	 * a '# started on' line read as UTC (2026-12-03T07:08:18Z =
	 * 1796281698000 ms): 19.63 J over [0, 1.001048308 s], 19.41 J over
	 * [1.001048308, 2.002369058 s].
	 */
	CHECK(read_text("perf-stat.csv",
			"# started on Thu Dec  3 07:08:18 2026\n\n"
			"     1.001048308,19.63,Joules,power/energy-pkg/,2002406532,100.00,,\n"
			"     2.002369058,19.41,Joules,power/energy-pkg/,2002617705,100.00,,\n", &pf) == 0,
	      "perf: reads (%s)", diag.ptr);
	CHECK(pf.n == 2 && pf.ndom == 1 && !strcmp(pf.dom[0], "package"), "perf: 2 samples of package");
	if (pf.n == 2) {
		CHECK_NEAR(pf.s[0].start_ms, 1796281698000.0, 0, "perf: start at '# started on'");
		CHECK_NEAR(pf.s[0].end_ms, 1796281698000.0 + 1001.048308, 1e-6, "perf: first end");
		CHECK_NEAR(pf.s[1].start_ms, 1796281698000.0 + 1001.048308, 1e-6, "perf: second start");
		CHECK_NEAR(pf.s[0].joules, 19.63, 1e-12, "perf: 19.63 J");
		CHECK_NEAR(pf.s[1].joules, 19.41, 1e-12, "perf: 19.41 J");
	}
	power_file_free(&pf);

	/* The whole real capture (its 30 interval lines taken out of the
	 * Markdown), started at erg.powerStartMs: 595.11 J in 30 intervals
	 * (awk sum of the value column), the last one short (0.967 s). */
	buf_addf(&path, "%s/samples/energy/perf-stat/peakler_c220g1_2socket_perf-stat-I1000-x_README.md",
		 shared);
	f = fopen(path.ptr, "r");
	while (f && fgets(l, sizeof(l), f))
		if (strstr(l, ",Joules,"))
			buf_addstr(&text, l);
	if (f)
		fclose(f);
	opts.start_set = 1;
	opts.start_ms = 1700000000000.0;
	ok = read_text("real.csv", text.ptr, &pf) == 0;	/* before diag.ptr is read */
	CHECK(ok, "perf real: reads (%s)", diag.ptr ? diag.ptr : "");
	CHECK(pf.n == 30, "perf real: 30 intervals (%zu)", pf.n);
	CHECK_NEAR(total_j(&pf, &none), 595.11, 1e-9, "perf real: total J");
	if (pf.n == 30)
		/* (to the 0.24 us of a double of Unix ms) */
		CHECK_NEAR(pf.s[29].end_ms - pf.s[29].start_ms, 30001.688646 - 29034.832776, 1e-3,
			   "perf real: the short last interval");
	power_file_free(&pf);

	/* --per-socket: package-0, package-1, dram-0; core reported only:
	 * 10 + 11 + 2 = 23 J. */
	CHECK(read_text("sock.csv",
			"     0.500000000,S0,8,10.00,Joules,power/energy-pkg/,1,100.00,,\n"
			"     0.500000000,S1,8,11.00,Joules,power/energy-pkg/,1,100.00,,\n"
			"     0.500000000,S0,8,2.00,Joules,power/energy-ram/,1,100.00,,\n"
			"     0.500000000,S0,8,6.00,Joules,power/energy-cores/,1,100.00,,\n", &pf) == 0,
	      "perf per socket: reads (%s)", diag.ptr);
	CHECK(pf.n == 1 && pf.ndom == 4, "perf per socket: 1 sample, 4 domains");
	if (pf.n == 1)
		CHECK_NEAR(pf.s[0].joules, 23, 1e-12, "perf per socket: core not counted");
	power_file_free(&pf);

	opts.start_set = 0;
	CHECK(read_text("nostart.csv",
			"     1.001048308,19.63,Joules,power/energy-pkg/,2002406532,100.00,,\n", &pf) == -1,
	      "perf without a start: refused");
	CHECK_MSG("nostart.csv:1: error: no start time: perf stat writes '# started on' only with "
		  "-o; give meta.json erg.powerStartMs", "perf without a start: message");
	buf_release(&path);
	buf_release(&text);
	buf_release(&line);
}

/* The turbostat header of the real Broadwell sample, shortened to the
 * columns the rows below keep (Core, CPU, Busy%, then the power ones). */
#define TS_HDR "Time_Of_Day_Seconds\tCore\tCPU\tBusy%\tPkgWatt\tCorWatt\tGFXWatt\n"

static void
test_turbostat(void)
{
	struct power_file pf;
	struct buf path = BUF_INIT;
	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	size_t none;
	int kind, d;

	opts.tz_set = 0;
	opts.start_set = 0;
	/*
	 * The first two intervals of the real Broadwell sample
	 * (samples/energy/turbostat/intel-bdw_..., lines 64-83), each row
	 * cut after Busy% and the power columns kept: the summary rows say
	 * 8.45 W then 6.97 W for the package, 1.60 W then 0.68 W for the
	 * cores.  The first interval is the 5.000 s 'Measurement interval'
	 * before 1737461851.853200: 8.45 x 5 = 42.25 J (core 8 J); the
	 * second runs to 1737461856.859837, 5.006637 s: 6.97 x 5.006637 =
	 * 34.89625989 J (core 0.68 x 5.006637 = 3.40451316 J).  Per-CPU
	 * rows (short ones too) are not read.
	 */
	CHECK(read_text("turbostat.txt",
			"turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n"
			"Measurement interval: 5.000 seconds\n"
			"RAPL: 4033 sec. Joule Counter Range, at 65 Watts\n"
			TS_HDR
			"1737461851.853200\t-\t-\t0.79\t8.45\t1.60\t0.00\n"
			"1737461851.852253\t0\t0\t1.20\t8.42\t1.59\t0.00\n"
			"1737461851.852368\t0\t4\t0.06\n"
			TS_HDR
			"1737461856.859837\t-\t-\t0.80\t6.97\t0.68\t0.00\n"
			"1737461856.858641\t0\t0\t0.05\t6.97\t0.68\t0.00\n", &pf) == 0,
	      "turbostat: reads (%s)", diag.ptr);
	CHECK(energy_sniff(pf.path ? pf.path : "", &kind) == 0 && kind == EK_TURBOSTAT,
	      "turbostat: sniffed");
	CHECK(pf.n == 2 && pf.ndom == 3, "turbostat: 2 samples, 3 domains");
	d = dom(&pf, "core");
	if (pf.n == 2 && d >= 0) {
		CHECK_NEAR(pf.s[0].start_ms, 1737461846853.2, 1e-3, "turbostat: first start");
		CHECK_NEAR(pf.s[0].end_ms, 1737461851853.2, 1e-3, "turbostat: first end");
		CHECK_NEAR(pf.s[1].end_ms, 1737461856859.837, 1e-3, "turbostat: second end");
		CHECK_NEAR(pf.s[0].joules, 42.25, 1e-9, "turbostat: 8.45 W x 5 s");
		/* (to the 0.24 us of a double of Unix ms, x 7 W) */
		CHECK_NEAR(pf.s[1].joules, 34.89625989, 5e-6, "turbostat: 6.97 W x 5.006637 s");
		CHECK_NEAR(power_dom_joules(&pf, 1, (size_t)d), 3.40451316, 1e-6,
			   "turbostat: core joules");
		CHECK(!pf.dom_sum[d] && !pf.dom_sum[dom(&pf, "gfx")] && pf.dom_sum[dom(&pf, "package")],
		      "turbostat: core and gfx reported only");
	}
	power_file_free(&pf);

	/*
	 * The whole real files: 23 summary rows each; energies summed apart
	 * with awk (PkgWatt x the time since the summary before, the first
	 * x 5 s): Broadwell 770.253746 J, Genoa (2 packages, Package and
	 * Die columns, rows of 17-19 fields) 22820.267590 J.
	 */
	buf_addf(&path, "%s/samples/energy/turbostat/intel-bdw_1pkg_turbostat-2024.12.03_tod_5s.raw.txt",
		 shared);
	CHECK(energy_sniff(path.ptr, &kind) == 0 && kind == EK_TURBOSTAT, "turbostat bdw: sniffed");
	CHECK(energy_read(path.ptr, EK_TURBOSTAT, &opts, &pf) == 0, "turbostat bdw: reads");
	CHECK(pf.n == 23, "turbostat bdw: 23 intervals (%zu)", pf.n);
	CHECK_NEAR(total_j(&pf, &none), 770.253746, 5e-6, "turbostat bdw: total J");
	CHECK(none == 0, "turbostat bdw: no gap");
	power_file_free(&pf);
	buf_reset(&path);
	buf_addf(&path, "%s/samples/energy/turbostat/amd-genoa_2pkg_turbostat-2024.12.03_tod_5s.raw.txt",
		 shared);
	CHECK(energy_read(path.ptr, EK_TURBOSTAT, &opts, &pf) == 0, "turbostat genoa: reads");
	CHECK(pf.n == 23, "turbostat genoa: 23 intervals (%zu)", pf.n);
	/* (0.24 us of a double of Unix ms at 200 W is 5e-5 J an interval) */
	CHECK_NEAR(total_j(&pf, &none), 22820.267590, 1e-4, "turbostat genoa: total J");
	CHECK(pf.ndom == 2 && dom(&pf, "package") >= 0 && dom(&pf, "core") >= 0,
	      "turbostat genoa: package and core");
	power_file_free(&pf);

	/*
	 * The Genoa file without its summary rows (every row whose Package
	 * is '-' taken out here: built from the real file, not captured):
	 * each interval is summed from the rows that carry the columns,
	 * PkgWatt on each package's first CPU (2 rows), CorWatt on each
	 * core's first thread, and ends at the latest Time_Of_Day_Seconds of
	 * its rows (the summary's, in this file).  By awk apart: PkgWatt of
	 * the 19-field rows x the time since the interval before (the first
	 * 5 s) = 22819.519069 J (the summary rows said 22820.267590 J: the
	 * packages are read at different instants); CorWatt of the 18- and
	 * 19-field rows likewise 51.274688 J.
	 */
	{
		struct buf text = BUF_INIT;
		FILE *f = fopen(path.ptr, "r");
		char l[4096], *t;
		int ok, dc;

		while (f && fgets(l, sizeof(l), f)) {
			t = strchr(l, '\t');
			if (!t || strncmp(t, "\t-\t", 3) || !isdigit((unsigned char)l[0]))
				buf_addstr(&text, l);
		}
		if (f)
			fclose(f);
		ok = read_text("genoa-nosum.txt", text.ptr, &pf) == 0;
		CHECK(ok, "turbostat genoa without summary: reads (%s)", diag.ptr);
		CHECK(pf.n == 23, "turbostat genoa without summary: 23 intervals (%zu)", pf.n);
		CHECK_NEAR(total_j(&pf, &none), 22819.519069, 1e-4,
			   "turbostat genoa without summary: packages summed");
		dc = dom(&pf, "core");
		if (dc >= 0) {
			double cj = 0;
			size_t i;

			for (i = 0; i < pf.n; i++)
				cj += power_dom_joules(&pf, i, (size_t)dc);
			CHECK_NEAR(cj, 51.274688, 1e-5, "turbostat genoa without summary: cores summed");
		}
		power_file_free(&pf);
		buf_release(&text);
	}
	buf_release(&path);

	/*
	 * Two packages, no summary row (written to the layout of the real
	 * Genoa rows): package 0's first CPU carries PkgWatt and CorWatt,
	 * its second core's row CorWatt only, package 1's first CPU both.
	 * The first interval is the 5 s before its latest row (100.2 s):
	 * packages (10 + 20) W x 5 s = 150 J, cores (1 + 2 + 3) W x 5 s =
	 * 30 J (reported only); the second 100.2 to 105.2 s: (12 + 22) x 5 =
	 * 170 J.
	 */
#define TS_PKG_HDR "Time_Of_Day_Seconds\tPackage\tCore\tCPU\tCorWatt\tPkgWatt\n"
#define TS_PKG_DUMP "turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n" \
		    "Measurement interval: 5.000 seconds\n" \
		    "RAPL: 234 sec. Joule Counter Range, at 280 Watts\n"
	CHECK(read_text("pkg.txt",
			TS_PKG_DUMP TS_PKG_HDR
			"100.000000\t0\t0\t0\t1.00\t10.00\n"
			"100.100000\t0\t1\t1\t2.00\n"
			"100.200000\t1\t0\t2\t3.00\t20.00\n"
			TS_PKG_HDR
			"105.000000\t0\t0\t0\t1.00\t12.00\n"
			"105.100000\t0\t1\t1\t2.00\n"
			"105.200000\t1\t0\t2\t3.00\t22.00\n", &pf) == 0,
	      "turbostat per package: reads (%s)", diag.ptr);
	CHECK(pf.n == 2, "turbostat per package: 2 intervals (%zu)", pf.n);
	d = dom(&pf, "core");
	if (pf.n == 2 && d >= 0) {
		CHECK_NEAR(pf.s[0].start_ms, 95200, 1e-6, "turbostat per package: first start");
		CHECK_NEAR(pf.s[0].end_ms, 100200, 1e-6, "turbostat per package: latest row ends it");
		CHECK_NEAR(pf.s[0].joules, 150, 1e-9, "turbostat per package: (10 + 20) W x 5 s");
		CHECK_NEAR(pf.s[1].joules, 170, 1e-9, "turbostat per package: (12 + 22) W x 5 s");
		CHECK_NEAR(power_dom_joules(&pf, 0, (size_t)d), 30, 1e-9,
			   "turbostat per package: each core once");
	}
	power_file_free(&pf);
	/* package 0's PkgWatt twice in one interval: which counts? */
	CHECK(read_text("pkg2.txt",
			TS_PKG_DUMP TS_PKG_HDR
			"100.000000\t0\t0\t0\t1.00\t10.00\n"
			"100.100000\t0\t1\t1\t2.00\t10.00\n", &pf) == -1,
	      "turbostat package twice: refused");
	CHECK_MSG("pkg2.txt:6: error: package of package 0 again in the interval of line 5: no "
		  "summary row, and which row counts cannot be told",
		  "turbostat package twice: message");
	/* package 1's row missing from the second of three intervals */
	CHECK(read_text("pkg3.txt",
			TS_PKG_DUMP TS_PKG_HDR
			"100.000000\t0\t0\t0\t1.00\t10.00\n"
			"100.200000\t1\t0\t2\t3.00\t20.00\n"
			TS_PKG_HDR
			"105.000000\t0\t0\t0\t1.00\t12.00\n"
			TS_PKG_HDR
			"110.000000\t0\t0\t0\t1.00\t12.00\n"
			"110.200000\t1\t0\t2\t3.00\t20.00\n", &pf) == -1,
	      "turbostat package row missing: refused");
	CHECK_MSG("pkg3.txt:8: error: core from 1 row in the interval starting here, from 2 in "
		  "the first: no summary row, and a package's row is missing or extra",
		  "turbostat package row missing: message");
	/* ... from the last one (turbostat stopped): that one left out */
	CHECK(read_text("pkg4.txt",
			TS_PKG_DUMP TS_PKG_HDR
			"100.000000\t0\t0\t0\t1.00\t10.00\n"
			"100.200000\t1\t0\t2\t3.00\t20.00\n"
			TS_PKG_HDR
			"105.000000\t0\t0\t0\t1.00\t12.00\n", &pf) == 0,
	      "turbostat last interval cut: reads (%s)", diag.ptr);
	CHECK(pf.n == 1 && strstr(diag.ptr, "pkg4.txt:8: warning: the last interval has core "
				  "from 1 row, the first from 2 (cut short): left out"),
	      "turbostat last interval cut: left out, said so (%s)", diag.ptr);
	power_file_free(&pf);
	/* summary rows in some intervals only */
	CHECK(read_text("pkg5.txt",
			TS_PKG_DUMP TS_PKG_HDR
			"100.000000\t0\t0\t0\t1.00\t10.00\n"
			TS_PKG_HDR
			"105.000000\t-\t-\t-\t1.00\t12.00\n", &pf) == -1,
	      "turbostat summary appearing: refused");
	CHECK_MSG("pkg5.txt:7: error: a summary row ('-' in the topology columns), where the "
		  "intervals before had none", "turbostat summary appearing: message");

	/*
	 * The RAPL wrap horizon of the dump (the real Genoa line: 234 s at
	 * 280 W): an interval of 300 s may hide a wrap, so its energy cannot
	 * be trusted.
	 */
	CHECK(read_text("wrap.txt",
			TS_PKG_DUMP
			"Time_Of_Day_Seconds\tCore\tCPU\tPkgWatt\n"
			"1737461851.000000\t-\t-\t100.00\n"
			"Time_Of_Day_Seconds\tCore\tCPU\tPkgWatt\n"
			"1737461856.000000\t-\t-\t100.00\n"
			"Time_Of_Day_Seconds\tCore\tCPU\tPkgWatt\n"
			"1737462156.000000\t-\t-\t100.00\n", &pf) == -1,
	      "turbostat interval past the wrap horizon: refused");
	CHECK_MSG("wrap.txt:9: error: the interval ending here is 300 s, longer than the 234 s in "
		  "which the RAPL counter wraps at 280 W (line 3): its energy cannot be trusted",
		  "turbostat interval past the wrap horizon: message");
	CHECK(read_text("wrap2.txt",
			"turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n"
			"RAPL: 234 sec. Joule Counter Range, at 280Watts\n"
			"Time_Of_Day_Seconds\tCore\tCPU\tPkgWatt\n", &pf) == -1,
	      "turbostat RAPL line malformed: refused");
	CHECK_MSG("wrap2.txt:2: error: not 'RAPL: N sec. Joule Counter Range, at N Watts'",
		  "turbostat RAPL line malformed: message");

	/*
	 * --quiet --Summary --Joules --show Time_Of_Day_Seconds,Pkg_J,RAM_J
	 * (written to the man page's columns: no real --Joules output is
	 * known): the header once, every row a summary; the joules are the
	 * interval's.  --quiet drops 'Measurement interval', so the first
	 * row only starts the second interval (a warning).  10.5 + 1.25 J,
	 * then 9.75 + 1.5 J.
	 */
	CHECK(read_text("joules.txt",
			"Time_Of_Day_Seconds\tPkg_J\tRAM_J\n"
			"1737461851.000000\t10.00\t1.00\n"
			"1737461852.000000\t10.50\t1.25\n"
			"1737461853.000000\t9.75\t1.50\n", &pf) == 0, "turbostat joules: reads (%s)",
	      diag.ptr);
	CHECK(strstr(diag.ptr, "joules.txt:2: warning: the first interval has no start") != NULL,
	      "turbostat joules: first interval left out, said so");
	CHECK(pf.n == 2 && pf.ndom == 2, "turbostat joules: 2 samples, 2 domains");
	if (pf.n == 2) {
		CHECK_NEAR(pf.s[0].joules, 11.75, 1e-12, "turbostat joules: first");
		CHECK_NEAR(pf.s[1].joules, 11.25, 1e-12, "turbostat joules: second");
		CHECK_NEAR(pf.s[1].start_ms, 1737461852000.0, 1e-3, "turbostat joules: from the row before");
	}
	power_file_free(&pf);

	/*
	 * No Time_Of_Day_Seconds: intervals laid end to end from
	 * erg.powerStartMs, 'Measurement interval' (2 s) each: 10 W and
	 * 3 W of DRAM over 2 s = 26 J, then 12 W + 3 W = 30 J.
	 */
	opts.start_set = 1;
	opts.start_ms = 1700000000000.0;
	CHECK(read_text("notime.txt",
			"turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n"
			"Measurement interval: 2.000 seconds\n"
			"Core\tCPU\tPkgWatt\tRAMWatt\n"
			"-\t-\t10.00\t3.00\n"
			"0\t0\t10.00\t3.00\n"
			"Core\tCPU\tPkgWatt\tRAMWatt\n"
			"-\t-\t12.00\t3.00\n"
			"0\t0\t12.00\t3.00\n", &pf) == 0, "turbostat no time: reads (%s)", diag.ptr);
	CHECK(pf.n == 2, "turbostat no time: 2 samples");
	if (pf.n == 2) {
		CHECK_NEAR(pf.s[0].start_ms, 1700000000000.0, 0, "turbostat no time: start");
		CHECK_NEAR(pf.s[1].end_ms, 1700000004000.0, 0, "turbostat no time: end");
		CHECK_NEAR(pf.s[0].joules, 26, 1e-12, "turbostat no time: first");
		CHECK_NEAR(pf.s[1].joules, 30, 1e-12, "turbostat no time: second");
	}
	power_file_free(&pf);
	/* --show PkgWatt alone (no topology column), the header repeated:
	 * the first row after each header is the summary, the package rows
	 * after it are not read: 10 W x 1 s, then 12 W x 1 s. */
	CHECK(read_text("pkgonly.txt",
			"turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n"
			"Measurement interval: 1.000 seconds\n"
			"PkgWatt\n10.00\n9.00\nPkgWatt\n12.00\n11.00\n", &pf) == 0,
	      "turbostat PkgWatt only: reads (%s)", diag.ptr);
	CHECK(pf.n == 2, "turbostat PkgWatt only: 2 samples (%zu)", pf.n);
	if (pf.n == 2) {
		CHECK_NEAR(pf.s[0].joules, 10, 1e-12, "turbostat PkgWatt only: first");
		CHECK_NEAR(pf.s[1].joules, 12, 1e-12, "turbostat PkgWatt only: second");
		CHECK_NEAR(pf.s[1].start_ms, 1700000001000.0, 0, "turbostat PkgWatt only: laid end to end");
	}
	power_file_free(&pf);
	opts.start_set = 0;
	CHECK(read_text("nostart.txt",
			"turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n"
			"Measurement interval: 2.000 seconds\n"
			"Core\tCPU\tPkgWatt\n"
			"-\t-\t10.00\n", &pf) == -1, "turbostat without a start: refused");
	CHECK_MSG("nostart.txt:4: error: no start time: without a Time_Of_Day_Seconds column "
		  "(--enable Time_Of_Day_Seconds) give meta.json erg.powerStartMs",
		  "turbostat without a start: message");

	/* A watt figure that does not parse whole, a block that starts with
	 * a CPU row (the summary lost) */
	CHECK(read_text("junk.txt",
			TS_HDR "1737461851.853200\t-\t-\t0.79\t8.45W\t1.60\t0.00\n", &pf) == -1,
	      "turbostat junk watts: refused");
	CHECK_MSG("junk.txt:2: error: package '8.45W' is not a number of watts",
		  "turbostat junk watts: message");
	CHECK(read_text("nosum.txt",
			TS_HDR "1737461851.853200\t-\t-\t0.79\t8.45\t1.60\t0.00\n"
			TS_HDR "1737461856.858641\t0\t0\t0.05\t6.97\t0.68\t0.00\n", &pf) == -1,
	      "turbostat block without summary: refused");
	CHECK_MSG("nosum.txt:4: error: the first row after the header is not the summary ('-' in "
		  "the topology columns)", "turbostat block without summary: message");
}

static void
test_pmtext(void)
{
	struct power_file pf;
	struct buf path = BUF_INIT;
	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	const char *dirp = "samples/energy/powermetrics-text";
	size_t none;
	int kind, d;

	opts.tz_set = 0;
	opts.start_set = 0;
	/*
	 * The real M4 Max sample (one sample of 5021.96 ms, 'Sat Nov  8
	 * 15:54:21 2025 +0900' = 1762584861 s): Combined 983 mW counts,
	 * 983 x 5.02196 = 4.93658668 J; CPU 954 mW (4.79094984 J) and the
	 * twice-printed GPU 28 mW are reported only.  Its end lies in the
	 * header's second, in the middle: 1762584861500 ms.
	 */
	buf_addf(&path, "%s/%s/m4max_Mac16-6_macos15.5_24F74_default_1sample.log", shared, dirp);
	CHECK(energy_sniff(path.ptr, &kind) == 0 && kind == EK_PM_TEXT, "pmtext m4: sniffed");
	CHECK(energy_read(path.ptr, EK_PM_TEXT, &opts, &pf) == 0, "pmtext m4: reads");
	CHECK(pf.n == 1 && pf.ndom == 4, "pmtext m4: 1 sample, 4 domains (%zu, %zu)", pf.n, pf.ndom);
	d = dom(&pf, "cpu");
	if (pf.n == 1 && d >= 0 && dom(&pf, "combined") >= 0) {
		CHECK_NEAR(pf.s[0].joules, 4.93658668, 1e-9, "pmtext m4: combined joules");
		CHECK_NEAR(power_dom_joules(&pf, 0, (size_t)d), 4.79094984, 1e-9, "pmtext m4: cpu joules");
		CHECK(!pf.dom_sum[d] && pf.dom_sum[dom(&pf, "combined")], "pmtext m4: combined alone counts");
		CHECK_NEAR(pf.s[0].end_ms, 1762584861500.0, 1e-6, "pmtext m4: end");
		CHECK_NEAR(pf.s[0].start_ms, 1762584861500.0 - 5021.96, 1e-6, "pmtext m4: start");
		CHECK_STR(pf.hw_model, "Mac16,6", "pmtext m4: machine model");
	}
	power_file_free(&pf);

	/*
	 * The macOS 13 M1 Pro file: 21 samples over three header seconds
	 * (18:34:49 to :51 -0500), 2436.71 ms of elapsed time in all.  By
	 * perl apart: the Combined energies sum to 3.906105670 J; every
	 * header allows the first sample to start 303.79 to 404.53 ms into
	 * 18:34:49 (= 1706139289 s), so it starts at 354.16: one run, no
	 * hole.
	 */
	buf_reset(&path);
	buf_addf(&path, "%s/%s/m1pro_MacBookPro18-1_macos13_22G91_default_21samples.txt", shared, dirp);
	CHECK(energy_read(path.ptr, EK_PM_TEXT, &opts, &pf) == 0, "pmtext m1 13: reads");
	CHECK(pf.n == 21, "pmtext m1 13: 21 samples (%zu)", pf.n);
	CHECK_NEAR(total_j(&pf, &none), 3.906105670, 1e-9, "pmtext m1 13: total J");
	CHECK(pf.nholes == 0 && none == 0, "pmtext m1 13: one run");
	if (pf.n == 21) {
		CHECK_NEAR(pf.s[0].start_ms, 1706139289354.16, 1e-3, "pmtext m1 13: start");
		/* (to the 0.24 us of a double of Unix ms) */
		CHECK_NEAR(pf.s[20].end_ms - pf.s[0].start_ms, 2436.71, 1e-3, "pmtext m1 13: span");
	}
	CHECK(pf.os_build && !strcmp(pf.os_build, "22G91"), "pmtext m1 13: OS build");
	power_file_free(&pf);

	/*
	 * The macOS 12 file: no Combined line, so cpu + gpu + ane count,
	 * 14.921627410 J over 47 samples (perl apart); Package Power
	 * (28.535453090 J) is reported only.  The GPU section's GPU Power
	 * differs from the processor section's in two samples (9 and 18 mW):
	 * the processor section's is read.
	 */
	buf_reset(&path);
	buf_addf(&path, "%s/%s/m1pro_MacBookPro18-1_macos12_21G83_tasks-default_47samples.txt",
		 shared, dirp);
	CHECK(energy_read(path.ptr, EK_PM_TEXT, &opts, &pf) == 0, "pmtext m1 12: reads");
	CHECK(pf.n == 47, "pmtext m1 12: 47 samples (%zu)", pf.n);
	CHECK_NEAR(total_j(&pf, &none), 14.921627410, 1e-9, "pmtext m1 12: cpu + gpu + ane");
	d = dom(&pf, "package");
	CHECK(d >= 0 && !pf.dom_sum[d] && dom(&pf, "combined") < 0, "pmtext m1 12: package reported only");
	power_file_free(&pf);
	buf_release(&path);

	/*
	 * Two samples of 500 ms whose headers disagree: the second names a
	 * second 3 s after the first's, so it starts a new run.  The first
	 * ends at 00:00:00.500 (the middle of its second), the second at
	 * 00:00:03.500: 2.5 s between them no sample covers.  1000 mW x
	 * 0.5 s = 0.5 J each (cpu + gpu + ane without Combined; the GPU
	 * section's 300 mW is not read).
	 */
	CHECK(read_text("powermetrics.txt",
			"Machine model: Mac14,2\n"
			"*** Sampled system activity (Tue Sep  1 00:00:00 2026 +0000) (500.00ms elapsed) ***\n"
			"CPU Power: 900 mW\nGPU Power: 100 mW\nANE Power: 0 mW\n**** GPU usage ****\nGPU Power: 300 mW\n"
			"*** Sampled system activity (Tue Sep  1 00:00:03 2026 +0000) (500.00ms elapsed) ***\n"
			"CPU Power: 900 mW\nGPU Power: 100 mW\nANE Power: 0 mW\n", &pf) == 0,
	      "pmtext gap: reads (%s)", diag.ptr);
	CHECK(pf.n == 2 && pf.nholes == 1, "pmtext gap: 2 samples, 1 hole");
	if (pf.n == 2 && pf.nholes == 1) {
		CHECK_NEAR(pf.s[0].joules, 0.5, 1e-12, "pmtext gap: first");
		CHECK_NEAR(pf.s[1].joules, 0.5, 1e-12, "pmtext gap: second");
		CHECK_NEAR(pf.holes[0].ms, 2500, 1e-6, "pmtext gap: 2.5 s uncovered");
		CHECK(pf.holes[0].at == 1, "pmtext gap: before the second sample");
	}
	power_file_free(&pf);

	/* -s gpu_power alone: GPU Power only in the GPU section, read there,
	 * and the only domain: 300 mW x 0.5 s = 0.15 J */
	CHECK(read_text("gpuonly.txt",
			"*** Sampled system activity (Tue Sep  1 00:00:00 2026 +0000) (500.00ms elapsed) ***\n"
			"**** GPU usage ****\nGPU HW active frequency: 338 MHz\nGPU Power: 300 mW\n", &pf) == 0,
	      "pmtext GPU only: reads (%s)", diag.ptr);
	CHECK(pf.n == 1 && pf.ndom == 1 && !strcmp(pf.dom[0], "gpu") && pf.dom_sum[0],
	      "pmtext GPU only: gpu counts");
	if (pf.n == 1)
		CHECK_NEAR(pf.s[0].joules, 0.15, 1e-12, "pmtext GPU only: joules");
	power_file_free(&pf);

	/* No UTC offset and no erg.powerTimezone; GPU Power twice in the
	 * processor section; a power without its unit */
	CHECK(read_text("notz.txt",
			"*** Sampled system activity (Tue Sep  1 00:00:00 2026) (500.00ms elapsed) ***\n"
			"CPU Power: 900 mW\n", &pf) == -1, "pmtext without a zone: refused");
	CHECK_MSG("notz.txt:1: error: the date 'Tue Sep  1 00:00:00 2026' has no UTC offset: give "
		  "the recording machine's as meta.json erg.powerTimezone, e.g. \"-05:00\"",
		  "pmtext without a zone: message");
	opts.tz_set = 1;
	opts.tz_ms = 7200000;
	CHECK(read_text("tz.txt",
			"*** Sampled system activity (Tue Sep  1 02:00:00 2026) (500.00ms elapsed) ***\n"
			"CPU Power: 900 mW\n", &pf) == 0, "pmtext with erg.powerTimezone: reads (%s)",
	      diag.ptr);
	/* 2026-09-01T00:00:00Z = 1788220800 s */
	CHECK(pf.n == 1 && pf.s[0].end_ms == 1788220800500.0, "pmtext with erg.powerTimezone: placed");
	power_file_free(&pf);
	opts.tz_set = 0;
	CHECK(read_text("gpu2.txt",
			"*** Sampled system activity (Tue Sep  1 00:00:00 2026 +0000) (500.00ms elapsed) ***\n"
			"**** Processor usage ****\n"
			"GPU Power: 100 mW\nGPU Power: 120 mW\n", &pf) == -1, "pmtext GPU twice: refused");
	CHECK_MSG("gpu2.txt:4: error: 'GPU Power' twice in the sample of line 1",
		  "pmtext GPU twice: message");
	CHECK(read_text("unit.txt",
			"*** Sampled system activity (Tue Sep  1 00:00:00 2026 +0000) (500.00ms elapsed) ***\n"
			"CPU Power: 900\n", &pf) == -1, "pmtext no unit: refused");
	CHECK_MSG("unit.txt:2: error: '900' is not a power in mW or W", "pmtext no unit: message");
}

static void
test_powerstat(void)
{
	struct power_file pf;
	struct buf path = BUF_INIT, text = BUF_INIT;
	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	size_t none;
	int in = 0, d;
	FILE *f;
	char l[512];

	/*
	 * The real `powerstat -cDHRf 2` run of powerstat's README (samples/
	 * energy/powerstat/README_...md): the fenced block without its first
	 * line (the command as typed, not output), summary, C-states and
	 * histograms included.  30 rows 2 s apart from 10:00:09, read at
	 * +00:00 from erg.powerStartMs 10:00:07 (2026-09-01, 1788256807 s):
	 * every row's second allows the first to start 807000 to 808000 ms
	 * into it, so it starts at 1788256807500.  By awk apart, pkg-0 x 2 s
	 * sums to 453.78 J (counted); core 272.08 J and uncore 42.80 J are
	 * reported only.
	 */
	buf_addf(&path, "%s/samples/energy/powerstat/README_powerstat-cDHRf-2_example.md", shared);
	f = fopen(path.ptr, "r");
	while (f && fgets(l, sizeof(l), f)) {
		if (!strncmp(l, "```", 3)) {
			if (in)
				break;
			in = 1;
			if (fgets(l, sizeof(l), f))
				continue;	/* "powerstat -cDHRf 2" */
		}
		if (in)
			buf_addstr(&text, l);
	}
	if (f)
		fclose(f);
	opts.tz_set = 1;
	opts.tz_ms = 0;
	opts.start_set = 1;
	opts.start_ms = 1788256807000.0;
	CHECK(read_text("powerstat.txt", text.ptr, &pf) == 0, "powerstat real: reads (%s)", diag.ptr);
	CHECK(pf.n == 30 && pf.ndom == 3, "powerstat real: 30 rows, 3 domains (%zu, %zu)", pf.n, pf.ndom);
	CHECK_NEAR(total_j(&pf, &none), 453.78, 1e-9, "powerstat real: pkg-0 joules");
	d = dom(&pf, "core");
	CHECK(d >= 0 && !pf.dom_sum[d] && dom(&pf, "package-0") >= 0 &&
	      pf.dom_sum[dom(&pf, "package-0")], "powerstat real: package-0 counts, core does not");
	if (pf.n == 30) {
		CHECK_NEAR(pf.s[0].start_ms, 1788256807500.0, 1e-6, "powerstat real: start");
		CHECK_NEAR(pf.s[29].end_ms, 1788256807500.0 + 60000, 1e-6, "powerstat real: end");
		CHECK(pf.nholes == 0, "powerstat real: one run");
	}
	power_file_free(&pf);

	/* The 'E' flag (an inaccurate reading): no energy in that row; the
	 * next day after midnight: 23:59:59 then 00:00:01, 1 s rows */
	opts.start_ms = 1788307198000.0;	/* 2026-09-01T23:59:58Z */
	CHECK(read_text("flag.txt",
			"Running for 3.0 seconds (3 samples at 1.0 second intervals).\n"
			"  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts  pkg-0   dram\n"
			"23:59:59   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.28E  5.00   0.28\n"
			"00:00:00   2.5   0.0   2.5  94.8   0.1    1   6171   1134   5.10   4.80   0.30\n"
			"00:00:01   2.5   0.0   2.5  94.8   0.1    1   6171   1134   5.10   4.90   0.20\n"
			"-------- ----- ----- ----- ----- ----- ---- ------ ------ ------ ------ ------\n"
			" Average   2.5   0.0   2.5  94.8   0.1    1   6171   1134   5.10   4.90   0.20\n",
			&pf) == 0, "powerstat flag: reads (%s)", diag.ptr);
	CHECK(pf.n == 3, "powerstat flag: 3 rows, the summary not read");
	if (pf.n == 3) {
		CHECK(isnan(pf.s[0].joules), "powerstat flag: 'E' row has no energy");
		CHECK_NEAR(pf.s[1].joules, 5.1, 1e-12, "powerstat flag: 4.80 + 0.30 W x 1 s");
		CHECK_NEAR(pf.s[2].end_ms, 1788307201500.0, 1e-6, "powerstat flag: over midnight");
	}
	power_file_free(&pf);

	/* powerstat -d 0 at its shortest delay, 0.5 s: two rows end within
	 * one second (it was "time again"); at 1 s a second twice is an error */
	opts.start_ms = 1788307198000.0;
	CHECK(read_text("half.txt",
			"Running for 2.0 seconds (4 samples at 0.5 second intervals).\n"
			"  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts  pkg-0\n"
			"23:59:59   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.00   5.00\n"
			"23:59:59   2.5   0.0   2.5  94.8   0.1    1   6171   1134   6.00   6.00\n"
			"00:00:00   2.5   0.0   2.5  94.8   0.1    1   6171   1134   7.00   7.00\n"
			"00:00:00   2.5   0.0   2.5  94.8   0.1    1   6171   1134   8.00   8.00\n",
			&pf) == 0, "powerstat at 0.5 s: reads (%s)", diag.ptr);
	CHECK(pf.n == 4 && pf.nholes == 0, "powerstat at 0.5 s: 4 rows end to end, no hole");
	if (pf.n == 4) {
		CHECK_NEAR(pf.s[1].joules, 3.0, 1e-12, "powerstat at 0.5 s: 6 W x 0.5 s");
		CHECK_NEAR(pf.s[1].end_ms - pf.s[0].end_ms, 500, 1e-6, "powerstat at 0.5 s: 0.5 s apart");
		CHECK(pf.s[3].end_ms <= 1788307201000.0 && pf.s[3].end_ms > 1788307200000.0,
		      "powerstat at 0.5 s: the last row ends within its second");
	}
	power_file_free(&pf);
	CHECK(read_text("again.txt",
			"Running for 2.0 seconds (2 samples at 1.0 second intervals).\n"
			"  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts  pkg-0\n"
			"23:59:59   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.00   5.00\n"
			"23:59:59   2.5   0.0   2.5  94.8   0.1    1   6171   1134   6.00   6.00\n",
			&pf) == -1, "powerstat at 1 s, a second twice: refused");
	CHECK_MSG("again.txt:4: error: time '23:59:59' again", "powerstat at 1 s, a second twice: message");

	opts.tz_set = 0;
	CHECK(read_text("notz.txt",
			"Running for 3.0 seconds (3 samples at 1.0 second intervals).\n"
			"  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts  pkg-0\n"
			"10:00:09   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.28   5.28\n", &pf) == -1,
	      "powerstat without a zone: refused");
	CHECK_MSG("notz.txt:3: error: time '10:00:09' has no date and no zone (powerstat writes local "
		  "time of day): give meta.json erg.powerTimezone and erg.powerStartMs",
		  "powerstat without a zone: message");
	opts.tz_set = 1;
	CHECK(read_text("junk.txt",
			"Running for 3.0 seconds (3 samples at 1.0 second intervals).\n"
			"  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts  pkg-0\n"
			"10:00:09   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.28   5,28\n", &pf) == -1,
	      "powerstat junk watts: refused");
	CHECK_MSG("junk.txt:3: error: package-0 '5,28' is not a number of watts",
		  "powerstat junk watts: message");
	CHECK(read_text("nod.txt",
			"Running for 3.0 seconds (3 samples at 1.0 second intervals).\n"
			"  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts\n"
			"10:00:09   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.28\n", &pf) == -1,
	      "powerstat without -D: refused");
	CHECK_MSG("nod.txt:2: error: no RAPL domain columns: record with -D (Watts alone may count "
		  "core and uncore inside the package again)", "powerstat without -D: message");
	opts.tz_set = 0;
	opts.start_set = 0;
	buf_release(&path);
	buf_release(&text);
}

/*
 * A Scaphandre report in the documented shape (energy-method.md §2.4:
 * serde's compact JSON of hubblo-org/scaphandre's json exporter), written
 * here, not captured: no real output is known (energy-formats.md §3).
 * The consumer's cmdline holds braces and an escaped quote, which must
 * not end the report.
 */
static const char *
scaph_report(struct buf *b, double uw, double ts)
{
	buf_reset(b);
	buf_addf(b, "{\"host\":{\"consumption\":%.1f,\"timestamp\":%.3f,\"components\":"
		 "{\"disks\":[]}},\"consumers\":[{\"exe\":\"/usr/sbin/nginx\",\"cmdline\":"
		 "\"nginx: worker {\\\"}\\\" process\",\"pid\":1234,\"resources_usage\":null,"
		 "\"consumption\":%.1f,\"timestamp\":%.3f,\"container\":null}],\"sockets\":"
		 "[{\"id\":0,\"consumption\":%.1f,\"domains\":[{\"name\":\"dram\",\"consumption\":"
		 "1000000.0,\"timestamp\":%.3f}],\"timestamp\":%.3f}]}", uw, ts, uw / 4, ts,
		 uw * 0.9, ts, ts);
	return b->ptr;
}

static void
test_scaphandre(void)
{
	struct power_file pf;
	struct buf t = BUF_INIT, r = BUF_INIT;
	size_t none;
	int ok;

	/*
	 * 1.0.1 and later: '[', reports separated by ',', ']'.  Reports at
	 * 0, 2, 4.5, 6.5 and 8.5 s past 1700000000 s; each one's power is
	 * the mean since the one before: 12 W x 2 s = 24 J, 8 W x 2.5 s =
	 * 20 J, then a 0.0 placeholder (the interval ending at it has no
	 * energy), then 20 W x 2 s = 40 J: 84 J in all, over 8.5 s, 2 s of
	 * them uncovered.
	 */
	buf_addstr(&t, "[");
	buf_addstr(&t, scaph_report(&r, 10000000.0, 1700000000.0));
	buf_addstr(&t, ",");
	buf_addstr(&t, scaph_report(&r, 12000000.0, 1700000002.0));
	buf_addstr(&t, ",");
	buf_addstr(&t, scaph_report(&r, 8000000.0, 1700000004.5));
	buf_addstr(&t, ",{\"host\":{\"consumption\":0.0,\"timestamp\":1700000006.5,\"components\":"
		   "{\"disks\":null}},\"consumers\":[],\"sockets\":[]},");
	buf_addstr(&t, scaph_report(&r, 20000000.0, 1700000008.5));
	buf_addstr(&t, "]");
	ok = read_text("scaphandre.json", t.ptr, &pf) == 0;
	CHECK(ok, "scaphandre array: reads (%s)", diag.ptr);
	CHECK(pf.n == 4 && pf.ndom == 1 && !strcmp(pf.dom[0], "host") && pf.dom_sum[0] &&
	      !strcmp(pf.source, "scaphandre"), "scaphandre array: 4 intervals of host");
	if (pf.n == 4) {
		CHECK_NEAR(pf.s[0].start_ms, 1700000000000.0, 0, "scaphandre: first report starts");
		CHECK_NEAR(pf.s[0].joules, 24, 1e-9, "scaphandre: 12 W x 2 s");
		CHECK_NEAR(pf.s[1].joules, 20, 1e-9, "scaphandre: 8 W x 2.5 s");
		CHECK(isnan(pf.s[2].joules), "scaphandre: no energy up to the placeholder");
		CHECK_NEAR(pf.s[3].joules, 40, 1e-9, "scaphandre: 20 W x 2 s after it");
		CHECK_NEAR(pf.s[3].end_ms, 1700000008500.0, 1e-3, "scaphandre: last report ends");
		CHECK_NEAR(total_j(&pf, &none), 84, 1e-9, "scaphandre: 84 J");
	}
	power_file_free(&pf);

	/* 1.0.0: reports back to back, no separator, no newline; the last
	 * one cut short (the exporter killed): left out, said so. */
	buf_reset(&t);
	buf_addstr(&t, scaph_report(&r, 10000000.0, 1700000000.0));
	buf_addstr(&t, scaph_report(&r, 12000000.0, 1700000002.0));
	buf_addstr(&t, scaph_report(&r, 8000000.0, 1700000004.5));
	buf_add(&t, scaph_report(&r, 9000000.0, 1700000006.5), 60);
	ok = read_text("concat.json", t.ptr, &pf) == 0;
	CHECK(ok, "scaphandre 1.0.0: reads (%s)", diag.ptr);
	CHECK(pf.n == 2 && strstr(diag.ptr, "concat.json:1: warning: the last report is cut short "
				  "(the exporter stopped while writing it): left out"),
	      "scaphandre 1.0.0: 2 intervals, the cut report left out (%s)", diag.ptr);
	CHECK_NEAR(total_j(&pf, &none), 44, 1e-9, "scaphandre 1.0.0: 24 + 20 J");
	power_file_free(&pf);

	/* 0.5 on stdout: a report a line, and the exporter's own message;
	 * a placeholder without a time: no energy until the next report
	 * (4 W x 2 s would be 8 J: not counted) */
	buf_reset(&t);
	buf_addf(&t, "%s\n", scaph_report(&r, 10000000.0, 1700000000.0));
	buf_addstr(&t, "{\"host\":{\"consumption\":0.0,\"components\":{\"disks\":null}},"
		   "\"consumers\":[],\"sockets\":[]}\n");
	buf_addf(&t, "%s\n", scaph_report(&r, 4000000.0, 1700000002.0));
	buf_addf(&t, "%s\n", scaph_report(&r, 6000000.0, 1700000004.0));
	buf_addstr(&t, "received Ctrl+C!\n");
	ok = read_text("lines.json", t.ptr, &pf) == 0;
	CHECK(ok, "scaphandre lines: reads (%s)", diag.ptr);
	CHECK(pf.n == 2 && isnan(pf.s[0].joules) && strstr(diag.ptr, "lines.json:5: warning: "
			"'received Ctrl+C!' (the exporter's message on stdout) skipped"),
	      "scaphandre lines: the interval over the placeholder has no energy");
	if (pf.n == 2)
		CHECK_NEAR(pf.s[1].joules, 12, 1e-9, "scaphandre lines: 6 W x 2 s");
	power_file_free(&pf);

	/* Malformed: each refused at its line, with what is wrong. */
	buf_reset(&t);
	buf_addf(&t, "[%s,\n", scaph_report(&r, 10000000.0, 1700000000.0));
	buf_addstr(&t, "{\"host\":{\"consumption\":\"12000000.0\",\"timestamp\":1700000002.0,"
		   "\"components\":{}},\"consumers\":[],\"sockets\":[]}]\n");
	CHECK(read_text("str.json", t.ptr, &pf) == -1, "scaphandre string power: refused");
	CHECK_MSG("str.json:2: error: 'host.consumption' must be a number, not a string",
		  "scaphandre string power: message");
	CHECK(read_text("neg.json", "{\"host\":{\"consumption\":-5.0,\"timestamp\":1700000000.0}}",
			&pf) == -1, "scaphandre negative power: refused");
	CHECK_MSG("neg.json:1: error: 'host.consumption' must not be negative (-5)",
		  "scaphandre negative power: message");
	CHECK(read_text("big.json", "{\"host\":{\"consumption\":1e999,\"timestamp\":1700000000.0}}",
			&pf) == -1, "scaphandre 1e999: refused");
	CHECK(strstr(diag.ptr, "big.json:1: error: invalid JSON: ") != NULL,
	      "scaphandre 1e999: invalid JSON (%s)", diag.ptr);
	CHECK(read_text("nots.json", "{\"host\":{\"consumption\":5.0,\"components\":{}}}", &pf) == -1,
	      "scaphandre without a time: refused");
	CHECK_MSG("nots.json:1: error: 'host' has no 'timestamp' (very old Scaphandre builds wrote "
		  "none): erg cannot place the report in time", "scaphandre without a time: message");
	buf_reset(&t);
	buf_addf(&t, "%s\nhello\n", scaph_report(&r, 10000000.0, 1700000000.0));
	CHECK(read_text("junk.json", t.ptr, &pf) == -1, "scaphandre text between reports: refused");
	CHECK_MSG("junk.json:2: error: 'hello' between reports: not Scaphandre's JSON",
		  "scaphandre text between reports: message");
	buf_reset(&t);
	buf_addf(&t, "[%s,\n", scaph_report(&r, 10000000.0, 1700000002.0));
	buf_addf(&t, "%s]", scaph_report(&r, 10000000.0, 1700000001.0));
	CHECK(read_text("back.json", t.ptr, &pf) == -1, "scaphandre time backwards: refused");
	CHECK_MSG("back.json:2: error: the interval ending here does not move forward in time",
		  "scaphandre time backwards: message");
	buf_reset(&t);
	buf_addf(&t, "[%s,\n", scaph_report(&r, 10000000.0, 1700000000.0));
	buf_addf(&t, "%s]", scaph_report(&r, 2e11, 1700000001.0));
	CHECK(read_text("huge.json", t.ptr, &pf) == -1, "scaphandre 200 kW: refused");
	CHECK_MSG("huge.json:2: error: 'host' draws 200000 W over the interval ending here: more "
		  "than 100 kW is no plausible reading", "scaphandre 200 kW: message");
	buf_reset(&t);
	buf_addf(&t, "[%s]]", scaph_report(&r, 10000000.0, 1700000000.0));
	CHECK(read_text("close.json", t.ptr, &pf) == -1, "scaphandre ']' twice: refused");
	CHECK_MSG("close.json:1: error: ']' that no '[' opened", "scaphandre ']' twice: message");
	/*
	 * Truncated and byte-flipped copies of the array sample above: each
	 * reads, with only finite, non-negative energies (or none), or is
	 * refused with a located error; never anything in between (and under
	 * make asan, no memory error).
	 */
	{
		static const unsigned char flip[] = { '{', '}', '"', '\\', '[', ']', ',', '\n',
						      '0', 'e', '-', 0x80 };
		struct buf a = BUF_INIT, m = BUF_INIT;
		size_t i, k, bad = 0, runs = 0;
		int rc;

		buf_addstr(&a, "[");
		buf_addstr(&a, scaph_report(&r, 10000000.0, 1700000000.0));
		buf_addstr(&a, ",");
		buf_addstr(&a, scaph_report(&r, 12000000.0, 1700000002.0));
		buf_addstr(&a, ",");
		buf_addstr(&a, scaph_report(&r, 8000000.0, 1700000004.5));
		buf_addstr(&a, "]");
		for (i = 1; i < a.len; i += 3) {
			buf_reset(&m);
			if (i % 2) {
				buf_add(&m, a.ptr, i);
			} else {
				buf_add(&m, a.ptr, a.len);
				m.ptr[i] = (char)flip[(i / 2) % sizeof(flip)];
			}
			rc = read_text("mut.json", m.ptr, &pf);
			runs++;
			if (rc == 0) {
				for (k = 0; k < pf.n; k++)
					bad += !isnan(pf.s[k].joules) &&
					       !(isfinite(pf.s[k].joules) && pf.s[k].joules >= 0);
			} else if (rc != -1 || !strstr(diag.ptr, "mut.json") ||
				   !strstr(diag.ptr, "error: ")) {
				bad++;
			}
			power_file_free(&pf);
		}
		CHECK(!bad, "scaphandre: %zu mutated copies read whole or refused at a place (%zu not)",
		      runs, bad);
		buf_release(&a);
		buf_release(&m);
	}
	CHECK(read_text("one.json", scaph_report(&r, 10000000.0, 1700000000.0), &pf) == -1,
	      "scaphandre one report: refused");
	CHECK_MSG("one.json: error: no sample in 'one.json' has energy (1 report: power needs two)",
		  "scaphandre one report: message");
	buf_release(&t);
	buf_release(&r);
}

int
main(void)
{
	char cmd[128];

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return th_done();
	}
	test_powercap();
	test_csv();
	test_nvsmi();
	test_perf();
	test_turbostat();
	test_pmtext();
	test_powerstat();
	test_scaphandre();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# cleanup failed\n");
	buf_release(&diag);
	return th_done();
}
