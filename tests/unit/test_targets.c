/*
 * test_targets.c - which names are one target (gen/ingest/targets.c):
 * keys fold ASCII case only, the run's aliases apply before the
 * archive's, targets.txt's canonical spelling is the one shown, comments
 * and blanks are read as documented, and two targets of one run that
 * are one are refused.  The errors of targets.txt and run.json are the
 * hostile cases tests/hostile/targets-*.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "ingest/targets.h"
#include "harness.h"

static int
same(const struct target_aliases *t, const json_t *al, const char *a, const char *b)
{
	struct buf x = BUF_INIT, y = BUF_INIT;
	int r;

	target_key(t, al, a, &x);
	target_key(t, al, b, &y);
	r = !strcmp(x.ptr, y.ptr);
	buf_release(&x);
	buf_release(&y);
	return r;
}

static void
test_keys(void)
{
	struct buf k = BUF_INIT;

	CHECK(same(NULL, NULL, "Bun", "bun") && same(NULL, NULL, "EXPRESS", "express"),
	      "ASCII case is folded");
	/* U+00C4 and U+00E4: compared as they are */
	CHECK(!same(NULL, NULL, "\xc3\x84pfel", "\xc3\xa4pfel"), "non-ASCII letters are not folded");
	CHECK(!same(NULL, NULL, "bun", "bun "), "a trailing blank is part of a name");
	target_key(NULL, NULL, "Node.JS", &k);
	CHECK(!strcmp(k.ptr, "node.js"), "the key is the name in ASCII lower case ('%s')", k.ptr);
	buf_release(&k);
}

static void
test_table(void)
{
	char dir[] = "/tmp/erg-test-targets-XXXXXX";
	struct buf path = BUF_INIT;
	struct target_aliases t = { NULL, 0, 0 };
	json_t *al = json_pack("{s:s}", "nodejs", "node");
	FILE *f;

	if (!mkdtemp(dir))
		die_errno("mkdtemp");
	CHECK(targets_read(dir, &t) == 0 && t.n == 0, "no targets.txt: an empty table");
	buf_addf(&path, "%s/%s", dir, TARGETS_FILE);
	f = fopen(path.ptr, "w");
	if (!f)
		die_errno("fopen");
	fputs("# comment\n\n  node   =  Node.js   # the runtime\r\n"
	      "C# = C Sharp\nbun = Bun\n", f);
	fclose(f);
	CHECK(targets_read(dir, &t) == 0, "targets.txt reads");
	CHECK(!strcmp(target_canonical(&t, NULL, "NODE"), "Node.js"),
	      "an alias in another case names the canonical, trimmed, comment dropped ('%s')",
	      target_canonical(&t, NULL, "NODE"));
	CHECK(!strcmp(target_canonical(&t, NULL, "node.js"), "Node.js"),
	      "the canonical in another case is spelled as targets.txt spells it");
	CHECK(!strcmp(target_canonical(&t, NULL, "c#"), "C Sharp"),
	      "'#' inside a word is part of the name ('%s')", target_canonical(&t, NULL, "c#"));
	CHECK(!strcmp(target_canonical(&t, NULL, "BUN"), "Bun"), "'bun = Bun' fixes the spelling");
	CHECK(!strcmp(target_canonical(&t, NULL, "deno"), "deno"), "other names stay as they are");
	CHECK(same(&t, al, "nodejs", "Node.js") && !same(&t, NULL, "nodejs", "Node.js"),
	      "the run's alias applies first, then the archive's");
	{
		json_t *res = json_pack("{s:[{s:s},{s:s}]}", "targets", "name", "node", "name",
					"Node.js");
		json_t *ok = json_pack("{s:[{s:s},{s:s}]}", "targets", "name", "node", "name",
				       "deno");

		CHECK(targets_check_run(&t, res, "run") == -1,
		      "two targets of one run that are one: refused");
		CHECK(targets_check_run(&t, ok, "run") == 0 && targets_check_run(NULL, res, "run") == 0,
		      "distinct targets pass");
		json_decref(res);
		json_decref(ok);
	}
	unlink(path.ptr);
	rmdir(dir);
	targets_free(&t);
	json_decref(al);
	buf_release(&path);
}

int
main(void)
{
	test_keys();
	test_table();
	return th_done();
}
