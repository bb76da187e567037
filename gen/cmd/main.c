/*
 * main.c - the erg command line: parses arguments and runs one command.
 * The only file that knows every stage.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/archive.h"
#include "base/buf.h"
#include "cmd/build.h"
#include "cmd/diff.h"
#include "cmd/record.h"
#include "cmd/templates.h"
#include "ingest/input.h"
#include "base/path.h"
#include "ingest/summary.h"
#include "base/util.h"
#include "render/markdown.h"

#define ERG_VERSION "0.1.0"

static const char usage_main[] =
	"usage: erg <command> [options]\n"
	"\n"
	"commands:\n"
	"  build   analyse every run in an archive and write the static site\n"
	"  check   validate every run in an archive; write nothing\n"
	"  diff    compare two runs round by round, with significance\n"
	"  record  run a benchmark plan carefully and archive it as a run\n"
	"  help    show help for a command\n"
	"\n"
	"options: --help, --version\n";

static const char usage_build[] =
	"usage: erg build [--archive DIR] [--out DIR] [--templates DIR] [-j N] [--quiet]\n"
	"                 [--explain] [--no-digest] [--max-runs N] [--max-inflated BYTES]\n"
	"                 [--max-file BYTES] [--max-rows N]\n"
	"\n"
	"Reads every run under the archive (default 'archive'), writes the site\n"
	"into a temporary directory and swaps it in as DIR (default 'site') only\n"
	"when every run was read without error.  DIR is replaced as a whole: it\n"
	"must be missing, empty, or a site erg wrote (it holds '.erg-site'), and\n"
	"neither the archive nor inside or above it.\n"
	"\n"
	"  -j N, --jobs N  read and render N runs at a time (default: one per core);\n"
	"                  the site is the same whatever N is\n"
	"  -q, --quiet     no summary line and no progress line (the progress line\n"
	"                  is only drawn when stderr is a terminal)\n"
	"  --no-digest     list raw files with their sizes but no SHA-256 (the pages\n"
	"                  say so); the digest of a big plain power file takes longer\n"
	"                  than parsing it\n"
	"\n"
	"  --explain       list what the build rendered: 'erg: rendered runs/ID/' for\n"
	"                  each run read again, 'erg: rendered PAGE' for each\n"
	"                  cross-run page written afresh (the others were copied)\n"
	"\n"
	"A rebuild reads again only the runs whose files changed since DIR was\n"
	"built (DIR/.erg-cache) and renders again only the cross-run pages that\n"
	"list one of them or whose other inputs changed; when nothing changed it\n"
	"writes nothing.\n";

static const char usage_check[] =
	"usage: erg check [--archive DIR] [-j N] [--max-runs N] [--max-inflated BYTES]\n"
	"                 [--max-file BYTES] [--max-rows N] [--no-digest]\n"
	"\n"
	"Validates every run as 'erg build' would, prints each problem with its\n"
	"location, and writes nothing.  Exit status 0 only if there was no error.\n"
	"It computes no digests; --no-digest is accepted for scripts that pass\n"
	"build's options on.\n";

static int
parse_size(const char *opt, const char *s, uint64_t *out)
{
	int64_t v;

	if (parse_i64(s, &v) || v <= 0)
		return error("%s wants a positive whole number, not '%s'", opt, s);
	*out = (uint64_t)v;
	return 0;
}

/* Runs at a time: 1 to 1024 (threads beyond the number of runs are not started). */
static int
parse_jobs(const char *opt, const char *s, int *out)
{
	uint64_t v = 0;

	if (parse_size(opt, s, &v))
		return -1;
	if (v > 1024)
		return error("%s wants at most 1024, not '%s'", opt, s);
	*out = (int)v;
	return 0;
}

static int
is_value_option(const char *a, int check_only)
{
	static const char *const both[] = { "--archive", "-j", "--jobs", "--max-runs",
					    "--max-inflated", "--max-file", "--max-rows" };
	size_t i;

	for (i = 0; i < sizeof(both) / sizeof(both[0]); i++)
		if (!strcmp(a, both[i]))
			return 1;
	return !check_only && (!strcmp(a, "--out") || !strcmp(a, "--templates"));
}

/* The exit status: 0, 1 (a run or the site failed), 2 (a usage error). */
static int
cmd_build(int argc, char **argv, int check_only)
{
	struct build_opts o = { "archive", "site", NULL, 0, 0, ERG_VERSION, 0 };
	const char *tmpl = NULL;
	struct buf tdir = BUF_INIT;
	uint64_t v;
	int i, rc;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(check_only ? usage_check : usage_build, stdout);
			return 0;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o.quiet = 1;
		} else if (!check_only && !strcmp(a, "--explain")) {
			o.explain = 1;
		} else if (!strcmp(a, "--no-digest")) {
			input_digests = 0;	/* check: what it always does */
		} else if (!strncmp(a, "-j", 2) && a[2]) {
			/* -jN, as make has it */
			if (parse_jobs("-j", a + 2, &o.jobs))
				return 2;
		} else if (!is_value_option(a, check_only)) {
			error(a[0] == '-' ? "unknown option '%s' (see 'erg help %s')" :
					    "unexpected argument '%s' (see 'erg help %s')",
			      a, check_only ? "check" : "build");
			return 2;
		} else if (!val) {
			error("option '%s' needs a value (see 'erg help %s')", a,
			      check_only ? "check" : "build");
			return 2;
		} else if (!strcmp(a, "--archive")) {
			o.archive = argv[++i];
		} else if (!strcmp(a, "--out") && !check_only) {
			o.out = argv[++i];
		} else if (!strcmp(a, "--templates") && !check_only) {
			tmpl = argv[++i];
		} else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
			if (parse_jobs(a, argv[++i], &o.jobs))
				return 2;
		} else if (!strcmp(a, "--max-runs")) {
			if (parse_size(a, argv[++i], &v))
				return 2;
			archive_max_runs = (size_t)v;
		} else if (!strcmp(a, "--max-inflated")) {
			if (parse_size(a, argv[++i], &input_max_stream))
				return 2;
		} else if (!strcmp(a, "--max-file")) {
			if (parse_size(a, argv[++i], &input_max_small))
				return 2;
		} else if (!strcmp(a, "--max-rows")) {
			if (parse_size(a, argv[++i], &v))
				return 2;
			summary_max_rows = (size_t)v;
		} else {
			error("unknown option '%s' (see 'erg help %s')", a,
			      check_only ? "check" : "build");
			return 2;
		}
	}
	if (check_only) {
		/* A check publishes no raw-files table: nothing to digest. */
		input_digests = 0;
		o.out = NULL;
	} else {
		if (templates_find(tmpl, &tdir)) {
			error("template directory '%s' not found (use --templates)", tdir.ptr);
			buf_release(&tdir);
			return 1;
		}
		o.tmpl_dir = tdir.ptr;
	}
	rc = build_run_all(&o) ? 1 : 0;
	buf_release(&tdir);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		fputs(usage_main, stderr);
		return 2;
	}
	/*
	 * jansson seeds its hash function when the first object is made; two
	 * worker threads making their first objects at once both write the
	 * seed.  Seeding here, before any thread, is what jansson's manual
	 * asks of threaded programs (and keeps helgrind quiet).
	 */
	json_object_seed(0);
	markdown_init();	/* the same for cmark-gfm's extension registry */
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("erg %s\n", ERG_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help")) {
		const char *what = argc > 2 ? argv[2] : "";

		if (!strcmp(what, "build"))
			fputs(usage_build, stdout);
		else if (!strcmp(what, "check"))
			fputs(usage_check, stdout);
		else if (!strcmp(what, "diff"))
			fputs(diff_usage, stdout);
		else if (!strcmp(what, "record"))
			fputs(record_usage, stdout);
		else if (!*what)
			fputs(usage_main, stdout);
		else
			return error("no help for '%s'", what), 2;
		return 0;
	}
	if (!strcmp(cmd, "build"))
		return cmd_build(argc - 1, argv + 1, 0);
	if (!strcmp(cmd, "check"))
		return cmd_build(argc - 1, argv + 1, 1);
	if (!strcmp(cmd, "diff")) {
		/* A diff shows no raw-files table: nothing to digest. */
		input_digests = 0;
		return diff_main(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "record"))
		return record_main(argc - 1, argv + 1, ERG_VERSION);
	error("unknown command '%s' (see 'erg --help')", cmd);
	return 2;
}
