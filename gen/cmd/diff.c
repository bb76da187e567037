/*
 * diff.c - `erg diff A B` (see diff.h): the arguments, the two runs, and
 * where the output goes.  The comparison is analyze/compare.c's, the
 * formats render/diff_text.c's and diff_html.c's; a file given with --out
 * is written by site.c, which replaces only a file erg wrote.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "base/buf.h"
#include "base/path.h"
#include "base/util.h"
#include "cmd/build.h"
#include "cmd/diff.h"
#include "cmd/templates.h"
#include "ingest/archive.h"
#include "ingest/session.h"
#include "ingest/targets.h"
#include "render/diff_html.h"
#include "render/diff_text.h"
#include "site/site.h"

const char diff_usage[] =
	"usage: erg diff [--archive DIR] [--format text|markdown|json|html] [--out FILE]\n"
	"                [--templates DIR] A B\n"
	"\n"
	"Compares run B against run A.  A and B are run ids under the archive\n"
	"(default 'archive') or run directories: energy sessions (meta.json and\n"
	"timeline.jsonl) or summary runs (run.json).  Lists every difference of\n"
	"environment (machine, software, load settings, room temperature, energy\n"
	"source, rounds), then per target and route: mean +- SD over rounds in A\n"
	"and in B, delta % = (B/A - 1) * 100, the 95 % bootstrap CI of the ratio\n"
	"of means, the exact two-sided Mann-Whitney p over rounds, and the\n"
	"verdict: '~' when p > 0.05, else the delta; '?' when the rounds are too\n"
	"few for any difference to reach p <= 0.05.\n"
	"\n"
	"With a summary run (figures as published) on either side there is one\n"
	"value per cell and no test: cells are matched by metric, target, route\n"
	"and x column (a sweep such as connections); each shows its value (a\n"
	"session's mean +- SD (n)), delta % and B/A; the verdict is 'n/a (one\n"
	"value per cell)'.  Cells whose units differ are listed, not compared.\n"
	"Target names match ignoring ASCII case, and through each run's\n"
	"\"aliases\" and the archive's targets.txt ('alias = canonical name').\n"
	"\n"
	"  --format F     text (default), markdown, json, or html (a self-contained\n"
	"                 page; needs --out)\n"
	"  --out FILE     write to FILE instead of standard output; FILE is replaced\n"
	"                 only when it is missing or an output of erg diff\n"
	"  --templates D  where diff.html, erg.css and diff.css for --format html\n"
	"                 are (default: as for 'erg build')\n";

struct loaded {
	struct run_ref ref;
	struct buf id, dir;
	json_t *res;
};

/*
 * A run id under the archive, or a run directory: an energy session
 * (meta.json and timeline.jsonl) or a summary run (run.json), in that
 * order, as archive.c tells them apart.
 */
static int
resolve(const char *archive, const char *arg, struct loaded *l)
{
	struct buf cand = BUF_INIT, rj = BUF_INIT;
	size_t n = strlen(arg);
	enum run_kind kind = RUN_ENERGY_SESSION;
	int found = 0;

	while (n > 1 && arg[n - 1] == '/')
		n--;
	buf_add(&l->id, arg, n);
	if (arg[0] != '/') {
		buf_addf(&cand, "%s/%s", archive, l->id.ptr);
		if (session_detect(cand.ptr)) {
			buf_addstr(&l->dir, cand.ptr);
			found = 1;
		}
	}
	if (!found && session_detect(l->id.ptr)) {
		buf_addstr(&l->dir, l->id.ptr);
		found = 1;
	}
	if (!found && cand.len) {
		buf_addf(&rj, "%s/run.json", cand.ptr);
		if (path_exists(rj.ptr)) {
			buf_addstr(&l->dir, cand.ptr);
			found = 1;
			kind = RUN_SUMMARY;
		}
	}
	if (!found) {
		buf_reset(&rj);
		buf_addf(&rj, "%s/run.json", l->id.ptr);
		if (path_exists(rj.ptr)) {
			buf_addstr(&l->dir, l->id.ptr);
			found = 1;
			kind = RUN_SUMMARY;
		}
	}
	if (!found) {
		if (cand.len)
			error("'%s' is not a run: neither '%s' nor '%s' holds meta.json and "
			      "timeline.jsonl, or run.json", arg, cand.ptr, l->id.ptr);
		else
			error("'%s' is not a run directory (no meta.json and timeline.jsonl, "
			      "no run.json)", arg);
	}
	buf_release(&cand);
	buf_release(&rj);
	if (!found)
		return -1;
	l->ref.id = l->id.ptr;
	l->ref.dir = l->dir.ptr;
	l->ref.kind = kind;
	return 0;
}

/* A file that an earlier `erg diff --out` wrote, in any format. */
static int
ours(const char *head, size_t n)
{
	return diff_text_is_ours(head, n) || diff_html_is_ours(head, n);
}

static int
write_out(const char *path, const struct buf *b)
{
	if (path)
		return site_write_file(path, b->ptr, b->len, ours);
	if (fwrite(b->ptr, 1, b->len, stdout) != b->len || fflush(stdout))
		return error_errno("cannot write to standard output");
	return 0;
}

static int PRINTF(1, 2)
usage_error(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	error("%s (see 'erg diff --help')", b.ptr);
	buf_release(&b);
	return 2;
}

int
diff_main(int argc, char **argv)
{
	const char *archive = "archive", *format = "text", *outpath = NULL;
	const char *tgiven = NULL, *pos[2];
	struct loaded l[2];
	struct buf out = BUF_INIT, tdir = BUF_INIT;
	struct diff_html *html = NULL;
	struct target_aliases aliases = { NULL, 0, 0 };
	char *ra = NULL, *rb = NULL;
	const char *same = NULL;
	json_t *d, *w;
	int i, npos = 0, rc = 0, opts = 1;
	size_t k;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			fputs(diff_usage, stdout);
			return 0;
		} else if (opts && !strcmp(a, "--")) {
			opts = 0;
		} else if (opts && a[0] == '-' && a[1]) {
			if (strcmp(a, "--archive") && strcmp(a, "--format") && strcmp(a, "--out") &&
			    strcmp(a, "--templates"))
				return usage_error("unknown option '%s'", a);
			if (i + 1 >= argc)
				return usage_error("option '%s' needs a value", a);
			if (!strcmp(a, "--archive"))
				archive = argv[++i];
			else if (!strcmp(a, "--format"))
				format = argv[++i];
			else if (!strcmp(a, "--out"))
				outpath = argv[++i];
			else
				tgiven = argv[++i];
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			return usage_error("too many arguments: '%s' (want two runs)", a);
		}
	}
	if (npos < 2)
		return usage_error("want two runs, A and B");
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
	    strcmp(format, "html"))
		return usage_error("unknown format '%s' (text, markdown, json or html)", format);
	if (!strcmp(format, "html") && !outpath)
		return usage_error("--format html needs --out FILE");

	memset(l, 0, sizeof(l));
	for (i = 0; i < 2; i++) {
		buf_init(&l[i].id, 0);
		buf_init(&l[i].dir, 0);
	}
	/* The page's templates before the runs: a missing one is found at once. */
	if (!strcmp(format, "html")) {
		if (templates_find(tgiven, &tdir)) {
			error("template directory '%s' not found (use --templates)", tdir.ptr);
			rc = 1;
			goto done;
		}
		if (!(html = diff_html_load(tdir.ptr, 1))) {
			rc = 1;
			goto done;
		}
	}
	/* Before the runs, so that a file erg may not replace costs no work. */
	if (outpath && site_check_file(outpath, ours)) {
		rc = 1;
		goto done;
	}
	if (resolve(archive, pos[0], &l[0]) || resolve(archive, pos[1], &l[1]) ||
	    targets_read(archive, &aliases)) {
		rc = 1;
		goto done;
	}
	ra = realpath(l[0].dir.ptr, NULL);
	rb = realpath(l[1].dir.ptr, NULL);
	if (ra && rb && !strcmp(ra, rb))
		same = "same run directory";
	l[0].res = build_process(&l[0].ref);
	if (l[0].res)
		l[1].res = same ? json_incref(l[0].res) : build_process(&l[1].ref);
	if (!l[0].res || !l[1].res) {
		rc = 1;
		goto done;
	}
	d = compare_runs_in(l[0].res, l[0].id.ptr, l[0].dir.ptr, l[1].res, l[1].id.ptr,
			    l[1].dir.ptr, same, &aliases);
	w = json_object_get(d, "warnings");
	for (k = 0; k < json_array_size(w); k++)
		warn("%s", json_string_value(json_array_get(w, k)));
	if (!strcmp(format, "text"))
		diff_render_text(d, &out);
	else if (!strcmp(format, "markdown"))
		diff_render_markdown(d, &out);
	else if (!strcmp(format, "json"))
		diff_render_json(d, &out);
	else if (diff_render_html(html, d, NULL, &out))
		rc = 1;
	json_decref(d);
	if (!rc && write_out(outpath, &out))
		rc = 1;
done:
	for (i = 0; i < 2; i++) {
		json_decref(l[i].res);
		buf_release(&l[i].id);
		buf_release(&l[i].dir);
	}
	free(ra);
	free(rb);
	diff_html_free(html);
	targets_free(&aliases);
	buf_release(&tdir);
	buf_release(&out);
	return rc;
}
