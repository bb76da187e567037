/*
 * fuzz_tmpl.c - the template language (tmpl.c): the input is a template,
 * parsed with tmpl_parse_string() as render.c's templates are, and
 * rendered (lenient, then strict) with one fixed, hostile data set.
 *
 * Oracle: every data string that holds '<', '>', '"' or '\'' has a 'Q'
 * right before it, and no other 'Q' is in the data.  When the template
 * itself holds no 'Q', a 'Q' in the output came from data, so "Q<",
 * "Q>", "Q\"" or "Q'" there is data markup that escaped no escaper.
 */
#include <string.h>

#include "fuzz.h"
#include "render/tmpl.h"
#include "base/util.h"

static json_t *data;

static const char data_json[] =
	"{\"a\": \"Q<script>alert(1)</script>\","
	" \"b\": \"Q\\\"Q><svg onload=alert(1)Q>\","
	" \"c\": \"javascript:alert(1)\","
	" \"d\": \" JaVa\\tScRiPt:alert(1)\","
	" \"e\": \"Q'-alert(1)-Q'\","
	" \"f\": \"data:text/html,Q<b>xQ</b>\","
	" \"g\": \"\\u0000\\u0001nulQ<\\u0085\\u2028\","
	" \"h\": \"&lt;already&gt; &amp;\","
	" \"i\": \"\\ud83d\\ude00 caf\\u00e9\","
	" \"u\": \"https://example.com/a b?q=Q<x>&y=Q\\\"1#f\","
	" \"rel\": \"runs/x y/index.html\","
	" \"n\": 42, \"r\": 0.1, \"big\": 1e300, \"neg\": -0.0, \"m\": -7,"
	" \"t\": true, \"no\": false, \"z\": null, \"empty\": \"\","
	" \"list\": [\"Q<1\", \"Q\\\"2\", {\"x\": \"Q'3\", \"y\": [1, 2, [\"Q>4\"]]}, null, 5],"
	" \"none\": [],"
	" \"obj\": {\"a\": \"Q<inner\", \"list\": [{\"a\": \"Q<x\"}, {\"b\": 1}], \"t\": false},"
	" \"deep\": {\"a\": {\"b\": {\"c\": \"Q<deep\"}}},"
	" \"rows\": [{\"id\": \"r-1\", \"th\": \"Q<th\", \"cells\": [{\"t\": \"1.0\", \"na\": false},"
	"            {\"t\": null, \"na\": true}]}]}";

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	json_error_t je;

	(void)argc;
	(void)argv;
	fuzz_init();
	data = json_loads(data_json, JSON_ALLOW_NUL, &je);
	if (!data)
		fuzz_fail("tmpl: fixed data does not parse: %s", je.text);
	json_object_set_new(data, "raw", tmpl_raw("<em class=\"x\">raw</em>"));
	json_object_set_new(data, "rawempty", tmpl_raw(""));
	json_array_append_new(json_object_get(data, "list"), tmpl_raw("<i>r</i>"));
	return 0;
}

static void
check(const struct buf *out, int template_has_q)
{
	size_t i;

	if (template_has_q)
		return;
	for (i = 0; i + 1 < out->len; i++)
		if (out->ptr[i] == 'Q' && strchr("<>\"'", out->ptr[i + 1]) && out->ptr[i + 1])
			fuzz_fail("tmpl: data markup 'Q%c' reached the output: '%.*s'",
				  out->ptr[i + 1], (int)(out->len - i > 80 ? 80 : out->len - i),
				  out->ptr + i);
}

int
LLVMFuzzerTestOneInput(const uint8_t *text, size_t size)
{
	struct tmpl *t;
	struct buf out = BUF_INIT;
	int q = memchr(text, 'Q', size) != NULL;

	fuzz_begin();
	t = tmpl_parse_string("fuzz.html", (const char *)text, size, NULL);
	if (t) {
		tmpl_render(t, data, &out, 0);
		check(&out, q);
		buf_reset(&out);
		tmpl_render(t, data, &out, 1);
		check(&out, q);
		buf_reset(&out);
		/* Any JSON value may be the root. */
		tmpl_render(t, json_object_get(data, "list"), &out, 0);
		check(&out, q);
		tmpl_free(t);
	}
	fuzz_end();
	buf_release(&out);
	return 0;
}
