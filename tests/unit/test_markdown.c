/*
 * test_markdown.c - the notes are GitHub-flavoured Markdown (markdown.c,
 * cmark-gfm): each extension renders, and none of them opens a way around
 * safe mode or the link filter.  Expected HTML is written by hand from the
 * GFM specification's examples.
 */
#include <pthread.h>

#include "harness.h"
#include "render/markdown.h"

static int
has(const struct buf *b, const char *s)
{
	return b->ptr && strstr(b->ptr, s) != NULL;
}

static void
test_table(void)
{
	struct buf b = BUF_INIT;
	const char md[] = "| target | req/s |\n| :--- | ---: |\n| alpha | 2,000 |\n"
			  "| pipes \\| kept | <b>x</b> |\n";

	CHECK(markdown_to_html(md, sizeof(md) - 1, &b) == 0, "table renders");
	CHECK(has(&b, "<table>\n<thead>\n<tr>\n<th align=\"left\">target</th>\n"
		      "<th align=\"right\">req/s</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
		      "<td align=\"left\">alpha</td>\n<td align=\"right\">2,000</td>\n</tr>\n"),
	      "a GFM table is a <table> with its header row and alignments");
	CHECK(has(&b, "<td align=\"left\">pipes | kept</td>"), "an escaped pipe stays in its cell");
	CHECK(!has(&b, "<b>"), "raw HTML in a cell is omitted");
	CHECK(!has(&b, "style="), "alignment is no inline style");
	buf_release(&b);
}

static void
test_inline(void)
{
	struct buf b = BUF_INIT;
	const char md[] = "~~old~~ www.example.com https://e.example/a?b=1 a@b.example "
			  "javascript:alert(1) www.e.example/<script>";

	CHECK(markdown_to_html(md, sizeof(md) - 1, &b) == 0, "inline extensions render");
	CHECK(has(&b, "<del>old</del>"), "strikethrough is <del>");
	CHECK(has(&b, "<a href=\"http://www.example.com\">www.example.com</a>"),
	      "a www. autolink gets http://");
	CHECK(has(&b, "<a href=\"https://e.example/a?b=1\">https://e.example/a?b=1</a>"),
	      "a bare https URL is a link");
	CHECK(has(&b, "<a href=\"mailto:a@b.example\">a@b.example</a>"), "a bare e-mail is a mailto link");
	CHECK(!has(&b, "href=\"javascript") && !has(&b, "<script"),
	      "no javascript: autolink, no raw tag after an autolink");
	buf_release(&b);
}

static void
test_tasklist(void)
{
	struct buf b = BUF_INIT;
	const char md[] = "- [ ] open\n- [x] done\n";

	CHECK(markdown_to_html(md, sizeof(md) - 1, &b) == 0, "task list renders");
	CHECK(has(&b, "<li><input type=\"checkbox\" disabled=\"\" /> open</li>"),
	      "an open task is a disabled, unchecked box");
	CHECK(has(&b, "<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>"),
	      "a done task is a disabled, checked box");
	buf_release(&b);
}

/* Relative links other than the kept names are unwrapped, autolinks too. */
static void
test_links_kept(void)
{
	static const char *const keep[] = { "results.json" };
	struct md_opts o = { 0, keep, 1 };
	struct buf b = BUF_INIT;
	const char md[] = "[r](results.json) [x](other.csv) | a |\n";

	CHECK(markdown_to_html_opts(md, sizeof(md) - 1, &o, &b) == 0, "renders with options");
	CHECK(has(&b, "<a href=\"results.json\">r</a>") && !has(&b, "other.csv"),
	      "kept link stays, other relative link is unwrapped");
	buf_release(&b);
}

/* cmark-gfm registers its extensions through a plain static flag: the
 * first notes of a -j build are rendered by several threads at once. */
static void *
render_thread(void *arg)
{
	struct buf b = BUF_INIT;
	const char md[] = "| a |\n| - |\n| 1 |\n";

	*(int *)arg = markdown_to_html(md, sizeof(md) - 1, &b) == 0 && has(&b, "<td>1</td>");
	buf_release(&b);
	return NULL;
}

static void
test_threads(void)
{
	pthread_t t[4];
	int ok[4] = { 0 }, i, all = 1;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, render_thread, &ok[i]);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		all &= ok[i];
	}
	CHECK(all, "four threads render tables at once");
}

int
main(void)
{
	test_table();
	test_inline();
	test_tasklist();
	test_links_kept();
	test_threads();
	return th_done();
}
