/*
 * test_tmpl.c - the template language: every feature, every parse and
 * render error with its line:col, and the golden pairs in tests/tmpl/
 * (<case>.html + <case>.json -> <case>.out, byte for byte; found through
 * $ERG_SRC, default ".").  Expected strings are written by hand.
 *
 * JSON in the checks below is written with ' for " to stay readable; a
 * real single quote in data is \\u0027.
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#include "base/buf.h"
#include "render/tmpl.h"
#include "base/util.h"

/* ---- helpers ------------------------------------------------------------ */

/* got/want shown C-escaped, so a check stays on one output line. */
static const char *
repr(const char *s, struct buf *b)
{
	buf_reset(b);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			buf_addf(b, "\\x%02x", c);
		else
			buf_addch(b, c);
	}
	return b->ptr;
}

static void
check_str(const char *got, const char *want, const char *what, int line)
{
	struct buf g = BUF_INIT, w = BUF_INIT, h = BUF_INIT;

	th_check(!strcmp(got, want), __FILE__, line, "%s: got '%s' want '%s'",
		 repr(what, &h), repr(got, &g), repr(want, &w));
	buf_release(&g);
	buf_release(&w);
	buf_release(&h);
}

#undef CHECK_STR
#define CHECK_STR(got, want, what) check_str((got), (want), (what), __LINE__)

/* stderr captured into a temporary file while the code under test runs. */
static FILE *cap_file;
static int cap_saved = -1;
static char cap_text[8192];

static void
cap_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	cap_saved = dup(2);
	if (!cap_file || cap_saved < 0 || dup2(fileno(cap_file), 2) < 0)
		die_errno("cannot capture stderr");
}

/* The captured text, without its final newline. */
static const char *
cap_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(cap_saved, 2);
	close(cap_saved);
	rewind(cap_file);
	n = fread(cap_text, 1, sizeof(cap_text) - 1, cap_file);
	fclose(cap_file);
	cap_text[n] = '\0';
	if (n && cap_text[n - 1] == '\n')
		cap_text[n - 1] = '\0';
	return cap_text;
}

static json_t *
json_q(const char *q)
{
	char *s = xstrdup(q), *p;
	json_error_t je;
	json_t *j;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	j = json_loads(s, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (!j)
		BUG("bad test JSON %s: %s", q, je.text);
	free(s);
	return j;
}

static struct buf res = BUF_INIT;

/*
 * Parse src[0..len) as "t.html" (partials from dir), render data: the
 * output, or the diagnostics when parsing or rendering fails.
 */
static const char *
render_data(const char *src, size_t len, const char *dir, json_t *data, int strict)
{
	struct tmpl *t;
	const char *err;
	int rc = -1;

	buf_reset(&res);
	cap_begin();
	t = tmpl_parse_string("t.html", src, len, dir);
	if (t)
		rc = tmpl_render(t, data, &res, strict);
	err = cap_end();
	if (rc < 0) {
		buf_reset(&res);
		buf_addstr(&res, err);
	}
	tmpl_free(t);
	return res.ptr;
}

static const char *
render(const char *src, const char *json, int strict)
{
	json_t *data = json_q(json);
	const char *r = render_data(src, strlen(src), NULL, data, strict);

	json_decref(data);
	return r;
}

/* Render non-strict / strict, or the parse error of src. */
#define R(src, json, want) CHECK_STR(render(src, json, 0), want, src)
#define RS(src, json, want) CHECK_STR(render(src, json, 1), want, "strict " src)
#define E(src, want) CHECK_STR(render(src, "{}", 0), "erg: t.html:" want, src)

static const char *src_dir;
static char tmpl_dir[4096];

/* ---- values and lookup ------------------------------------------------- */

static void
test_values(void)
{
	R("plain text, no tags", "{}", "plain text, no tags");
	R("{{name}}", "{'name':'<b>&'}", "&lt;b&gt;&amp;");
	R("[{{ name }}]", "{'name':'x'}", "[x]");
	R("{{a.b.c}}", "{'a':{'b':{'c':'deep'}}}", "deep");
	R("[{{a.b.c}}]", "{'a':{'b':'str'}}", "[]");
	R("{{xs.1}}|{{xs.9}}|{{xs.0.k}}", "{'xs':[{'k':'K'},'b']}", "b||K");
	R("{{i}} {{n}} {{r}} {{w}} {{e}} {{t}} {{f}} [{{z}}]",
	  "{'i':42,'n':-7,'r':0.25,'w':3.0,'e':1e-7,'t':true,'f':false,'z':null}",
	  "42 -7 0.25 3 1e-07 true false []");
	R("{{i}}", "{'i':9223372036854775807}", "9223372036854775807");
	R("{{r}}", "{'r':0.30000000000000004}", "0.30000000000000004");
	R("{{.}}", "'top <1>'", "top &lt;1&gt;");
	R("[{{nope}}]", "{}", "[]");
	RS("[{{nope}}]", "{}", "erg: t.html:1:2: error: 'nope' is not defined");
	RS("x\n {{a.b}}", "{'a':{}}", "erg: t.html:2:2: error: 'a.b' is not defined");
	RS("[{{n}}]", "{'n':null}", "[]");
	R("{{@open}}x}}", "{}", "{{x}}");
	R("a{{! x }}b{{!}}c{{!-- {x} --}}d", "{}", "abcd");
	R("{{ #if t }}y{{ / if }}", "{'t':1}", "y");
	R("{{#each  xs }}{{ . }}{{/each}}", "{'xs':[1,2]}", "12");
	R("x}}y{z}", "{}", "x}}y{z}");
	R("caf\xc3\xa9 {{x}}", "{'x':'\xc3\xa9'}", "caf\xc3\xa9 \xc3\xa9");
	R("{{s}}", "{'s':'a\\u0000b\\u0001c'}", "abc");
}

static void
test_blocks(void)
{
	R("{{#each xs}}{{@index}}:{{.}}/{{@number}} {{/each}}", "{'xs':['a','b']}",
	  "0:a/1 1:b/2 ");
	R("{{#each xs}}x{{else}}none{{/each}}", "{'xs':[]}", "none");
	R("{{#each xs}}x{{else}}none{{/each}}", "{'xs':null}", "none");
	R("{{#each xs}}x{{else}}none{{/each}}", "{'xs':false}", "none");
	R("{{#each xs}}x{{else}}none{{/each}}", "{}", "none");
	R("{{#each xs}}x{{/each}}", "{}", "");
	R("{{#each xs}}x{{/each}}", "{'xs':'str'}",
	  "erg: t.html:1:1: error: 'xs' in '{{#each}}' is a string, not an array");
	R("\n  {{#each xs}}x{{/each}}", "{'xs':{'a':1}}",
	  "erg: t.html:2:3: error: 'xs' in '{{#each}}' is an object, not an array");
	RS("{{#each xs}}x{{/each}}", "{}", "erg: t.html:1:1: error: 'xs' is not defined");
	/* lookup: current item, then outward, then the root */
	R("{{#each rows}}{{n}}-{{title}};{{/each}}",
	  "{'title':'T','rows':[{'n':'a'},{'n':'b','title':'own'}]}", "a-T;b-own;");
	R("{{#each a}}{{#each b}}{{x}}{{y}}{{z}}{{/each}}{{/each}}",
	  "{'z':'Z','a':[{'y':'Y','b':[{'x':'X'}]}]}", "XYZ");
	R("{{#each a}}[{{z}}]{{/each}}", "{'z':'Z','a':[{'z':null}]}", "[]");
	R("{{#each a}}{{#each .}}{{@index}}{{/each}}|{{@index}};{{/each}}",
	  "{'a':[[1,2],[3]]}", "01|0;0|1;");
	R("{{#each xs}}{{#if @index}},{{/if}}{{.}}{{/each}}", "{'xs':['a','b','c']}",
	  "a,b,c");
	R("{{#each .}}{{.}}{{/each}}", "[1,2,3]", "123");
	/* if / unless */
	R("{{#if a}}A{{else}}B{{/if}}{{#unless a}}U{{else}}V{{/unless}}", "{'a':1}", "AV");
	R("{{#if a}}A{{else}}B{{/if}}{{#unless a}}U{{else}}V{{/unless}}", "{'a':0}", "BU");
	R("{{#if a}}A{{else}}B{{/if}}{{#unless a}}U{{else}}V{{/unless}}", "{}", "BU");
	R("{{#if a.b}}deep{{/if}}", "{'a':{'b':'x'}}", "deep");
	RS("{{#if nope}}x{{/if}}", "{}", "erg: t.html:1:1: error: 'nope' is not defined");
	RS("{{#if n}}x{{else}}y{{/if}}", "{'n':null}", "y");
	/* standalone lines vanish with their newline; CRLF too; at EOF too */
	R("<ul>\n  {{#each xs}}\n  <li>{{.}}</li>\n  {{/each}}\n</ul>\n", "{'xs':['a','b']}",
	  "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n");
	R("a\r\n{{#if t}}\r\nb\r\n{{/if}}\r\nc", "{'t':true}", "a\r\nb\r\nc");
	R("x\n{{#if t}}y{{/if}}\n  {{! c }}", "{'t':true}", "x\ny\n");
	R("{{#if t}}\n{{/if}}\nz", "{'t':true}", "z");
	R("a {{#if t}}\nb", "{}", "erg: t.html:1:3: error: unclosed '{{#if}}'");
}

/* ---- escaping by context ----------------------------------------------- */

static void
test_context(void)
{
	R("<p>{{x}}</p>", "{'x':'<script>alert(1)</script>'}",
	  "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
	R("<p title=\"{{x}}\">", "{'x':'\\\"><svg onload=alert(1)>'}",
	  "<p title=\"&quot;&gt;&lt;svg onload=alert(1)&gt;\">");
	R("<p title='{{x}}'>", "{'x':'it\\u0027s\\n'}", "<p title='it&#39;s '>");
	R("<a href=\"{{u}}\">", "{'u':'javascript:alert(1)'}", "<a href=\"#\">");
	R("<a HREF='{{u}}'>", "{'u':' JaVa\\tScRiPt:x'}", "<a HREF='#'>");
	R("<a href=\"{{u}}\">", "{'u':'data:text/html,<script>'}", "<a href=\"#\">");
	R("<a href=\"runs/{{id}}.html\">", "{'id':'a b/javascript:x'}",
	  "<a href=\"runs/a%20b/javascript:x.html\">");
	R("<a href=\"{{a}}/x/{{b}}\">", "{'a':'javascript:y','b':'c d'}",
	  "<a href=\"#/x/c%20d\">");
	R("<a href=\"{{a}}/x/{{b}}\">", "{'a':'http://h','b':'c d'}",
	  "<a href=\"http://h/x/c%20d\">");
	R("<a href=\"https:{{p}}\">", "{'p':'//example.com/a b'}",
	  "<a href=\"https://example.com/a%20b\">");
	R("<img src=\"{{u}}\">", "{'u':'data:image/png;base64,AA=='}",
	  "<img src=\"data:image/png;base64,AA==\">");
	R("<div data-src=\"{{u}}\" data-x=\"{{u}}\">", "{'u':'javascript:x'}",
	  "<div data-src=\"#\" data-x=\"javascript:x\">");
	R("<svg><a xlink:href=\"{{u}}\"/></svg>", "{'u':'javascript:x'}",
	  "<svg><a xlink:href=\"#\"/></svg>");
	R("<form action=\"{{u}}\"><button formaction=\"{{u}}\">", "{'u':'javascript:x'}",
	  "<form action=\"#\"><button formaction=\"#\">");
	R("<a href=\"{{n}}\">", "{'n':12}", "<a href=\"12\">");
	R("<script>if (a < b && c<=d) x();</script>{{x}}", "{'x':'<'}",
	  "<script>if (a < b && c<=d) x();</script>&lt;");
	R("<SCRIPT type=\"text/javascript\">s = 1;</SCRIPT >{{x}}", "{'x':'&'}",
	  "<SCRIPT type=\"text/javascript\">s = 1;</SCRIPT >&amp;");
	R("<svg><title>a &lt; b: {{x}}</title></svg>", "{'x':'<'}",
	  "<svg><title>a &lt; b: &lt;</title></svg>");
	R("<svg><![CDATA[ a ] b ]]>{{x}}</svg>", "{'x':'<'}",
	  "<svg><![CDATA[ a ] b ]]>&lt;</svg>");
	R("<title>{{x}}</title>", "{'x':'</title><script>'}",
	  "<title>&lt;/title&gt;&lt;script&gt;</title>");
	R("<textarea>{{x}}</textarea>{{x}}", "{'x':'</textarea>'}",
	  "<textarea>&lt;/textarea&gt;</textarea>&lt;/textarea&gt;");
	R("<!-- <p title=\" -->{{x}}", "{'x':'<'}", "<!-- <p title=\" -->&lt;");
	R("<!----><!-->{{x}}", "{'x':'<'}", "<!----><!-->&lt;");
	R("<a title=\"x\"{{#if c}} class=\"on\"{{/if}}>", "{'c':true}",
	  "<a title=\"x\" class=\"on\">");
	/* blocks inside tags and values */
	R("<a {{#if c}}class=\"on\" {{/if}}href=\"/\">", "{'c':true}",
	  "<a class=\"on\" href=\"/\">");
	R("<a {{#if c}}class=\"on\" {{/if}}href=\"/\">", "{'c':false}", "<a href=\"/\">");
	R("<input {{#if c}}checked=\"\"{{/if}}>", "{'c':1}", "<input checked=\"\">");
	R("<p class=\"a{{#if c}} b{{/if}}\">", "{'c':1}", "<p class=\"a b\">");
	R("<a href=\"/r/{{#if c}}{{x}}{{else}}none{{/if}}\">", "{'c':1,'x':'a b'}",
	  "<a href=\"/r/a%20b\">");
	R("<a href=\"/?{{#each q}}{{.}}&amp;{{/each}}\">", "{'q':['a b','c']}",
	  "<a href=\"/?a%20b&amp;c&amp;\">");
	R("<a href=\"{{#if c}}{{u}}{{/if}}\">", "{'c':1,'u':'javascript:x'}",
	  "<a href=\"#\">");
	R("<a href=\"mailto:{{e}}\">", "{'e':'a b@x'}", "<a href=\"mailto:a%20b@x\">");
	R("<a href=\"{{#if c}}https:{{/if}}{{x}}\">", "{'c':1,'x':'//e.example/a b'}",
	  "<a href=\"https://e.example/a%20b\">");
	R("<a href=\"{{#if c}}https:{{/if}}{{x}}\">", "{'c':1,'x':'javascript:y'}",
	  "<a href=\"https:#\">");
	R("<script>var open = '{{@open}}';</script>", "{}",
	  "<script>var open = '{{';</script>");
}

/* ---- parse errors ------------------------------------------------------ */

static void
test_parse_errors(void)
{
	/* variables in forbidden contexts */
	E("<script>\nvar x = {{x}};\n</script>",
	  "2:9: error: variable 'x' not allowed inside <script>");
	E("<style>p{}{{x}}</style>", "1:11: error: variable 'x' not allowed inside <style>");
	E("<Script type=module>{{x}}", "1:21: error: variable 'x' not allowed inside <script>");
	E("<noscript>{{x}}", "1:11: error: variable 'x' not allowed inside <noscript>");
	E("<plaintext>{{x}}", "1:12: error: variable 'x' not allowed inside <plaintext>");
	E("<title></ti{{x}}tle>", "1:12: error: variable 'x' not allowed in an end tag");
	E("<p><{{x}}>", "1:5: error: variable 'x' not allowed in a tag name");
	E("</{{x}}>", "1:3: error: variable 'x' not allowed in a tag name");
	E("<a {{x}}>", "1:4: error: variable 'x' not allowed inside <a> between attributes");
	E("<a b=\"1\"{{x}}>", "1:9: error: variable 'x' not allowed inside <a> between attributes");
	E("<a b{{x}}>", "1:5: error: variable 'x' not allowed in attribute name 'b'");
	E("<a href={{x}}>",
	  "1:9: error: variable 'x' not allowed in the unquoted value of attribute 'href'");
	E("<a class=x{{y}}>",
	  "1:11: error: variable 'y' not allowed in the unquoted value of attribute 'class'");
	E("<a onclick=\"f('{{x}}')\">",
	  "1:16: error: variable 'x' not allowed in the value of attribute 'onclick' "
	  "of <a>: an event handler is JavaScript");
	E("<body ONLOAD='{{x}}'>",
	  "1:15: error: variable 'x' not allowed in the value of attribute 'onload' "
	  "of <body>: an event handler is JavaScript");
	E("<p style=\"color: {{c}}\">",
	  "1:18: error: variable 'c' not allowed in the value of attribute 'style' "
	  "of <p>: CSS is not escaped here");
	E("<iframe srcdoc=\"{{h}}\">",
	  "1:17: error: variable 'h' not allowed in the value of attribute 'srcdoc' "
	  "of <iframe>: it holds a whole HTML document");
	E("<img srcset=\"{{s}} 2x\">",
	  "1:14: error: variable 's' not allowed in the value of attribute 'srcset' "
	  "of <img>: it holds a list of URLs");
	E("<script src=\"{{u}}\"></script>",
	  "1:14: error: variable 'u' not allowed in the value of attribute 'src' "
	  "of <script>: it loads active content");
	E("<link rel=\"stylesheet\" href=\"{{u}}\">",
	  "1:30: error: variable 'u' not allowed in the value of attribute 'href' "
	  "of <link>: it loads active content");
	E("<svg><animate attributeName=\"href\" to=\"{{u}}\"/></svg>",
	  "1:40: error: variable 'u' not allowed in the value of attribute 'to' "
	  "of <animate>: SVG animation can rewrite other attributes");
	E("<!-- {{x}} -->", "1:6: error: variable 'x' not allowed inside an HTML comment");
	E("<svg><![CDATA[ ] {{x}}]]></svg>",
	  "1:18: error: variable 'x' not allowed inside a CDATA section");
	E("<!DOCTYPE {{x}}>",
	  "1:11: error: variable 'x' not allowed inside a <!...> or <?...> declaration");
	E("<?xml {{x}}?>",
	  "1:7: error: variable 'x' not allowed inside a <!...> or <?...> declaration");
	/* URL values whose scheme data could choose */
	E("<a href=\"java{{x}}\">",
	  "1:14: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL scheme would depend on data; start the value with the variable or "
	  "with literal text holding '/', '?', '#' or ':'");
	E("<a href=\"{{a}}{{b}}\">",
	  "1:15: error: variable 'b' not allowed in the value of attribute 'href' of <a>: "
	  "the URL scheme would depend on data; start the value with the variable or "
	  "with literal text holding '/', '?', '#' or ':'");
	E("<a href=\"&#47;{{x}}\">",
	  "1:15: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL scheme would depend on data; start the value with the variable or "
	  "with literal text holding '/', '?', '#' or ':'");
	E("<a href=\"{{a}}:x\">",
	  "1:15: error: ':' after a variable in a URL attribute would let data choose "
	  "the scheme");
	E("<a href=\"{{#each xs}}{{.}}{{/each}}\">",
	  "1:22: error: variable '.' not allowed in the value of attribute 'href' of <a>: "
	  "the URL scheme would depend on data; start the value with the variable or "
	  "with literal text holding '/', '?', '#' or ':'");
	/* a literal dangerous scheme, on every path */
	E("<a href=\"javascript:{{x}}\">",
	  "1:21: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL's literal scheme runs code or holds a document");
	E("<a href=\" Java\tScript:{{x}}\">",
	  "1:23: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL's literal scheme runs code or holds a document");
	E("<img src=\"data:image/png;base64,{{b}}\">",
	  "1:33: error: variable 'b' not allowed in the value of attribute 'src' of <img>: "
	  "the URL's literal scheme runs code or holds a document");
	E("<a href=\"{{#if c}}javascript:{{/if}}{{x}}\">",
	  "1:37: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL's literal scheme runs code or holds a document");
	E("<a href=\"{{#if c}}vbscript:{{else}}/{{/if}}{{x}}\">",
	  "1:44: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL's literal scheme runs code or holds a document");
	E("<a href=\"{{#if c}}ab{{else}}cd{{/if}}:{{x}}\">",
	  "1:39: error: variable 'x' not allowed in the value of attribute 'href' of <a>: "
	  "the URL scheme would depend on data; start the value with the variable or "
	  "with literal text holding '/', '?', '#' or ':'");
	/* text-only elements must read the same as text and as markup */
	E("<script>a<!-- b",
	  "1:10: error: markup inside <script>: only text and '</script>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<script>if (a<b) x();</script>",
	  "1:14: error: markup inside <script>: only text and '</script>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<SCRIPT>s = '</scriptx>';</SCRIPT>",
	  "1:14: error: markup inside <script>: only text and '</script>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<svg><script><a b=\"</script>\" href=\"{{u}}\">",
	  "1:14: error: markup inside <script>: only text and '</script>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<svg><title src=''>{{u}}<svg formaction=\"{{u}}\"></title>",
	  "1:25: error: markup inside <title>: only text and '</title>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<textarea>\n</b></textarea>",
	  "2:1: error: markup inside <textarea>: only text and '</textarea>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<noscript><p>enable JS</p></noscript>",
	  "1:11: error: markup inside <noscript>: only text and '</noscript>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<style><?x?></style>",
	  "1:8: error: markup inside <style>: only text and '</style>' are allowed "
	  "here (inside <svg> a '<' could start a tag); write '&lt;', or '\\x3c' in a script");
	E("<![CDATA[ > <a b=\"]]>\" href=\"{{u}}\">",
	  "1:11: error: '>' inside a CDATA section ends it outside <svg>");
	/* raw */
	E("<p title=\"{{{x}}}\">",
	  "1:11: error: raw '{{{x}}}' not allowed in the value of attribute 'title': only in text");
	E("<title>{{{x}}}</title>",
	  "1:8: error: raw '{{{x}}}' not allowed inside <title>: only in text");
	E("{{{@open}}}", "1:1: error: '@open' is not raw markup");
	/* tag syntax */
	E("ab{{x", "1:3: error: unclosed '{{'");
	E("{{x {{y}}", "1:1: error: unclosed '{{'");
	E("\xc3\xa9\xc3\xa9{{x", "1:3: error: unclosed '{{'");
	E("{{{x}}", "1:1: error: '{{{' closed by '}}' instead of '}}}'");
	E("a{{ }}", "1:2: error: empty tag");
	E("{{a b}}",
	  "1:1: error: bad name 'a b': parts are letters, digits, '_' or '-', joined by '.'");
	E("{{a..b}}",
	  "1:1: error: bad name 'a..b': parts are letters, digits, '_' or '-', joined by '.'");
	E("{{.a}}",
	  "1:1: error: bad name '.a': parts are letters, digits, '_' or '-', joined by '.'");
	E("{{a.}}",
	  "1:1: error: bad name 'a.': parts are letters, digits, '_' or '-', joined by '.'");
	E("{{$raw}}",
	  "1:1: error: bad name '$raw': parts are letters, digits, '_' or '-', joined by '.'");
	E("{{@foo}}", "1:1: error: unknown special name '@foo'");
	E("x{{@index}}", "1:2: error: '@index' outside {{#each}}");
	E("{{#each xs}}{{/each}}{{@number}}", "1:22: error: '@number' outside {{#each}}");
	E("{{#each xs}}{{else}}{{@index}}{{/each}}", "1:21: error: '@index' outside {{#each}}");
	/* blocks */
	E("{{#if x}}\nabc", "1:1: error: unclosed '{{#if}}'");
	E("{{#each xs}}\n{{/if}}",
	  "2:1: error: '{{/if}}' does not match '{{#each}}' opened at 1:1");
	E("x\n {{/each}}", "2:2: error: '{{/each}}' without a matching '{{#each}}'");
	E("{{else}}", "1:1: error: '{{else}}' outside a block");
	E("{{#if a}}1{{else}}2{{else}}3{{/if}}",
	  "1:20: error: second '{{else}}' in '{{#if}}' opened at 1:1");
	E("{{#with x}}{{/with}}", "1:1: error: unknown block '#with'");
	E("{{#if}}", "1:1: error: '{{#if}}' needs a name");
	E("{{#if x}}{{/foo}}", "1:10: error: unknown block end '{{/foo}}'");
	E("{{#if x}}{{/each extra}}", "1:10: error: unknown block end '{{/each extra}}'");
	E("{{#each xs}}{{#each @index}}{{/each}}{{/each}}",
	  "1:13: error: '@index' is not a list or condition");
	E("<a{{#if x}} class=\"y\"{{/if}}>",
	  "1:3: error: '{{#if}}' not allowed in a tag name: inside a tag, a block must "
	  "hold whole attributes with quoted values");
	E("<input {{#if c}}checked{{/if}}>",
	  "1:24: error: '{{/if}}' not allowed in attribute name 'checked': inside a tag, "
	  "a block must hold whole attributes with quoted values");
	E("<a href={{#if c}}x{{/if}}>",
	  "1:9: error: '{{#if}}' not allowed in the unquoted value of attribute 'href': "
	  "inside a tag, a block must hold whole attributes with quoted values");
	E("{{#if x}}<a href=\"{{/if}}\">",
	  "1:19: error: '{{/if}}' ends a block whose paths leave different HTML contexts "
	  "(an unclosed tag, quote or element inside '{{#if}}' at 1:1?)");
	E("{{#each xs}}<script>{{/each}}",
	  "1:21: error: '{{/each}}' ends a block whose paths leave different HTML contexts "
	  "(an unclosed tag, quote or element inside '{{#each}}' at 1:1?)");
	E("{{#if x}}<b title=\"{{else}}<i title=\"{{/if}}\">",
	  "1:38: error: '{{/if}}' ends a block whose paths leave different HTML contexts "
	  "(an unclosed tag, quote or element inside '{{#if}}' at 1:1?)");
	E("{{>x}}", "1:1: error: partial 'x' without a template directory");
	E("{{>../x}}", "1:1: error: bad partial name '../x': use letters, digits, '_' or '-'");
	E("{{>}}", "1:1: error: bad partial name '': use letters, digits, '_' or '-'");
	CHECK_STR(render_data("a\0b", 3, NULL, NULL, 0),
		  "erg: t.html:1:2: error: NUL byte in template", "NUL byte");
	{
		struct buf deep = BUF_INIT;
		int i;

		for (i = 0; i < 101; i++)
			buf_addstr(&deep, "{{#if a}}");
		CHECK_STR(render_data(deep.ptr, deep.len, NULL, NULL, 0),
			  "erg: t.html:1:901: error: blocks and partials nested too deeply",
			  "101 nested blocks");
		buf_release(&deep);
	}
}

/* ---- render errors and raw fragments ------------------------------------ */

static void
test_raw(void)
{
	json_t *data = json_object();
	json_error_t je;

	R("{{{x}}}", "{'x':'<b>'}",
	  "erg: t.html:1:1: error: '{{{x}}}' needs a fragment made by tmpl_raw(), not a string");
	R("{{{x}}}", "{'x':{'$raw':'<b>'}}",
	  "erg: t.html:1:1: error: '{{{x}}}' needs a fragment made by tmpl_raw(), not an object");
	R("{{{x}}}", "{'x':1}",
	  "erg: t.html:1:1: error: '{{{x}}}' needs a fragment made by tmpl_raw(), not a number");
	R("{{#each xs}}{{{@index}}}{{/each}}", "{'xs':[1]}",
	  "erg: t.html:1:13: error: '{{{@index}}}' needs a fragment made by tmpl_raw(), not a number");
	R("[{{{x}}}]", "{'x':null}", "[]");
	R("[{{{x}}}]", "{}", "[]");
	RS("[{{{x}}}]", "{}", "erg: t.html:1:2: error: 'x' is not defined");
	R("{{x}}", "{'x':{}}", "erg: t.html:1:1: error: 'x' is an object, not a value");
	R("a\n{{x}}", "{'x':[]}", "erg: t.html:2:1: error: 'x' is an array, not a value");

	json_object_set_new(data, "c", tmpl_raw("<svg><rect/></svg>"));
	json_object_set_new(data, "e", tmpl_raw(""));
	json_object_set_new(data, "n", tmpl_rawn("<b>\0</b>", 8));
	CHECK_STR(render_data("<div>{{{c}}}</div>", 18, NULL, data, 1),
		  "<div><svg><rect/></svg></div>", "tmpl_raw in a raw slot");
	CHECK_STR(render_data("{{c}}", 5, NULL, data, 1),
		  "erg: t.html:1:1: error: 'c' is a raw fragment: use '{{{c}}}'",
		  "tmpl_raw in an escaped slot");
	CHECK_STR(render_data("{{#if c}}C{{/if}}{{#if e}}E{{else}}!E{{/if}}", 44, NULL,
			      data, 1), "C!E", "raw fragments are truthy when not empty");
	buf_reset(&res);
	CHECK(render_data("{{{n}}}", 7, NULL, data, 1) && res.len == 8 &&
	      !memcmp(res.ptr, "<b>\0</b>", 8), "tmpl_rawn keeps its bytes");
	json_decref(data);
	/* archive JSON cannot forge the marker: jansson refuses NUL in keys */
	data = json_loads("{\"\\u0000erg-raw\": true, \"$raw\": \"<b>\"}", JSON_ALLOW_NUL, &je);
	CHECK(data == NULL, "jansson refuses a NUL byte in a key");
	json_decref(data);
}

static void
test_reuse(void)
{
	struct tmpl *t = tmpl_parse_string("t.html", "<b>{{x}}</b>", 12, NULL);
	json_t *a = json_q("{'x':'1<'}"), *b = json_q("{'x':2}");
	struct buf o = BUF_INIT;

	CHECK(t != NULL, "parse once");
	CHECK(t && tmpl_render(t, a, &o, 1) == 0 && tmpl_render(t, b, &o, 1) == 0,
	      "render twice");
	CHECK_STR(o.ptr, "<b>1&lt;</b><b>2</b>", "renders append");
	tmpl_free(t);
	tmpl_free(NULL);
	json_decref(a);
	json_decref(b);
	buf_release(&o);
}

/* ---- partials and files ------------------------------------------------ */

static void
test_partials(void)
{
	struct buf want = BUF_INIT;
	json_t *data = json_q("{'url':'javascript:x','title':'<T>'}");
	struct tmpl *t;
	const char *err;

	CHECK_STR(render_data("<a href=\"{{>p_url}}\">x</a>", 26, tmpl_dir, data, 1),
		  "<a href=\"#\">x</a>", "partial parsed in the includer's URL context");
	CHECK_STR(render_data("<p title=\"{{>p_url}}\">", 22, tmpl_dir, data, 1),
		  "<p title=\"javascript:x\">", "partial parsed in an attribute context");
	CHECK_STR(render_data("  {{>p_head}}\nz", 15, tmpl_dir, data, 1),
		  "<h1>&lt;T&gt;</h1>\nz", "standalone partial");

	buf_addf(&want, "erg: %s/p_url.html:1:1: error: variable 'url' not allowed "
		 "inside <script>", tmpl_dir);
	CHECK_STR(render_data("<script>{{>p_url}}</script>", 27, tmpl_dir, data, 1),
		  want.ptr, "an error inside a partial is located in the partial");

	buf_reset(&want);
	buf_addf(&want, "erg: %s/nonexistent.html: error: cannot open: No such file or "
		 "directory\nerg: t.html:2:1: error: cannot read partial "
		 "'%s/nonexistent.html'", tmpl_dir, tmpl_dir);
	CHECK_STR(render_data("x\n{{>nonexistent}}", 18, tmpl_dir, data, 1), want.ptr,
		  "missing partial");

	cap_begin();
	t = tmpl_load(tmpl_dir, "rec_a");
	err = cap_end();
	buf_reset(&want);
	buf_addf(&want, "erg: %s/rec_b.html:2:1: error: partial 'rec_a' includes itself",
		 tmpl_dir);
	CHECK(t == NULL, "recursive partials rejected");
	CHECK_STR(err, want.ptr, "recursion through another partial");

	cap_begin();
	t = tmpl_load(tmpl_dir, "rec_self.html");
	err = cap_end();
	buf_reset(&want);
	buf_addf(&want, "erg: %s/rec_self.html:1:1: error: partial 'rec_self' "
		 "includes itself", tmpl_dir);
	CHECK(t == NULL, "self-including partial rejected");
	CHECK_STR(err, want.ptr, "recursion into itself");

	cap_begin();
	t = tmpl_load(tmpl_dir, "nope");
	err = cap_end();
	buf_reset(&want);
	buf_addf(&want, "erg: %s/nope.html: error: cannot open: No such file or directory",
		 tmpl_dir);
	CHECK(t == NULL, "missing template");
	CHECK_STR(err, want.ptr, "missing template message");

	/* A FIFO in place of a template or a partial is refused, never opened
	 * for a read that would wait for a writer for ever. */
	{
		char fdir[] = "/tmp/erg-test-tmpl-XXXXXX";
		struct buf fp = BUF_INIT;

		CHECK(mkdtemp(fdir) != NULL, "temporary template directory");
		buf_addf(&fp, "%s/fifo.html", fdir);
		CHECK(!mkfifo(fp.ptr, 0600), "fifo.html made a FIFO");
		cap_begin();
		t = tmpl_load(fdir, "fifo");
		err = cap_end();
		buf_reset(&want);
		buf_addf(&want, "erg: %s: error: not a regular file (a FIFO)", fp.ptr);
		CHECK(t == NULL, "a FIFO template: refused");
		CHECK_STR(err, want.ptr, "a FIFO template: the message");
		buf_reset(&want);
		buf_addf(&want, "erg: %s: error: not a regular file (a FIFO)\nerg: t.html:1:1: "
			 "error: cannot read partial '%s'", fp.ptr, fp.ptr);
		CHECK_STR(render_data("{{>fifo}}", 9, fdir, data, 1), want.ptr,
			  "a FIFO partial: refused");
		unlink(fp.ptr);
		rmdir(fdir);
		buf_release(&fp);
	}

	t = tmpl_load(tmpl_dir, "basic.html");
	CHECK(t != NULL, "tmpl_load accepts a name with .html");
	tmpl_free(t);
	json_decref(data);
	buf_release(&want);
}

/* ---- golden pairs ------------------------------------------------------- */

/* Test-only: turn {"$raw": "..."} objects of a golden's JSON into
 * tmpl_raw() fragments, the way page code makes them. */
static void
make_raw(json_t *v)
{
	const char *key;
	json_t *val;
	size_t i;

	if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++) {
			val = json_array_get(v, i);
			if (json_is_object(val) && json_object_size(val) == 1 &&
			    json_is_string(json_object_get(val, "$raw")))
				json_array_set_new(v, i, tmpl_raw(json_string_value(
					json_object_get(val, "$raw"))));
			else
				make_raw(val);
		}
	} else if (json_is_object(v)) {
		json_object_foreach(v, key, val) {
			if (json_is_object(val) && json_object_size(val) == 1 &&
			    json_is_string(json_object_get(val, "$raw")))
				json_object_set_new(v, key, tmpl_raw(json_string_value(
					json_object_get(val, "$raw"))));
			else
				make_raw(val);
		}
	}
}

static int
read_all(const char *path, struct buf *b)
{
	char chunk[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(b, chunk, n);
	fclose(f);
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
golden_case(const char *name)
{
	struct buf path = BUF_INIT, want = BUF_INIT, got = BUF_INIT;
	json_error_t je;
	json_t *data;
	struct tmpl *t = tmpl_load(tmpl_dir, name);
	size_t i;

	buf_addf(&path, "%s/%s.json", tmpl_dir, name);
	data = json_load_file(path.ptr, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (!data)
		printf("# %s: %s\n", path.ptr, je.text);
	make_raw(data);
	buf_reset(&path);
	buf_addf(&path, "%s/%s.out", tmpl_dir, name);
	if (read_all(path.ptr, &want) < 0)
		printf("# cannot read %s\n", path.ptr);
	if (t && data && tmpl_render(t, data, &got, 0) == 0 &&
	    got.len == want.len && !memcmp(got.ptr, want.ptr, got.len)) {
		CHECK(1, "golden %s", name);
	} else {
		for (i = 0; i < got.len && i < want.len && got.ptr[i] == want.ptr[i]; i++)
			;
		CHECK(0, "golden %s: differs at byte %zu of %zu (want %zu)", name, i,
		      got.len, want.len);
		{
			struct buf g = BUF_INIT, w = BUF_INIT;

			buf_setlen(&got, i + 60 < got.len ? i + 60 : got.len);
			buf_setlen(&want, i + 60 < want.len ? i + 60 : want.len);
			printf("# got:  %s\n# want: %s\n", repr(got.ptr + i, &g),
			       repr(want.ptr + i, &w));
			buf_release(&g);
			buf_release(&w);
		}
	}
	tmpl_free(t);
	json_decref(data);
	buf_release(&path);
	buf_release(&want);
	buf_release(&got);
}

static void
test_goldens(void)
{
	DIR *d = opendir(tmpl_dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;

	if (!d) {
		CHECK(0, "cannot open %s (set ERG_SRC)", tmpl_dir);
		return;
	}
	while ((e = readdir(d))) {
		if (!str_endswith(e->d_name, ".json"))
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrndup(e->d_name, strlen(e->d_name) - 5);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	CHECK(n >= 8, "found %zu golden cases in %s", n, tmpl_dir);
	for (i = 0; i < n; i++) {
		golden_case(names[i]);
		free(names[i]);
	}
	free(names);
}

int
main(void)
{
	src_dir = getenv("ERG_SRC");
	if (!src_dir || !*src_dir)
		src_dir = ".";
	snprintf(tmpl_dir, sizeof(tmpl_dir), "%s/tests/tmpl", src_dir);

	test_values();
	test_blocks();
	test_context();
	test_parse_errors();
	test_raw();
	test_reuse();
	test_partials();
	test_goldens();
	buf_release(&res);
	return th_done();
}
