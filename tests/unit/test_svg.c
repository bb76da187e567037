/*
 * test_svg.c - svg_ticks worked out by hand, and every chart type fed
 * hostile labels, NAN values and a long trace: the output must escape
 * every label, be well-formed (a small tag-stack checker below), carry
 * its accessibility hooks, skip NAN, stay bounded, and be byte-identical
 * when rendered twice.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

#include "base/buf.h"
#include "render/svg.h"
#include "base/util.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))

#define HOSTILE1 "<script>alert(1)</script>"
#define HOSTILE1_ESC "&lt;script&gt;alert(1)&lt;/script&gt;"
#define HOSTILE2 "\"><svg onload=alert(1)>"
#define HOSTILE2_ESC "&quot;&gt;&lt;svg onload=alert(1)&gt;"
#define HOSTILE3 "&amp;"
#define HOSTILE3_ESC "&amp;amp;"

/* ---- helpers ----------------------------------------------------------- */

static size_t
count_of(const char *hay, const char *needle)
{
	size_t n = 0, k = strlen(needle);

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += k;
	}
	return n;
}

static int
is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == ':' || c == '_';
}

/*
 * Well-formedness, as far as this output needs: every tag closes, end
 * tags match the open ones, "/>" self-closes, attribute values are
 * double-quoted and hold no '<', and every '&' starts an entity
 * (&name; or &#digits;).  The root is one <svg>.  Returns NULL or a
 * description of the first problem.
 */
static const char *
check_xml(const char *s)
{
	static char msg[160];
	const char *stack[64];
	size_t len[64], depth = 0, roots = 0;
	const char *p = s;

	while (*p) {
		if (*p == '&') {
			const char *q = p + 1;

			if (*q == '#') {
				q++;
				if (*q < '0' || *q > '9')
					return "bad numeric entity";
				while (*q >= '0' && *q <= '9')
					q++;
			} else {
				if (!is_name_char(*q))
					return "bare '&'";
				while (is_name_char(*q))
					q++;
			}
			if (*q != ';')
				return "entity without ';'";
			p = q + 1;
			continue;
		}
		if (*p == '>')
			return "bare '>' in text";
		if (*p != '<') {
			p++;
			continue;
		}
		if (p[1] == '/') {
			const char *n = p + 2, *e = n;

			while (is_name_char(*e))
				e++;
			if (*e != '>')
				return "junk in end tag";
			if (!depth)
				return "end tag without start tag";
			depth--;
			if ((size_t)(e - n) != len[depth] || strncmp(n, stack[depth], len[depth])) {
				snprintf(msg, sizeof(msg), "</%.*s> closes <%.*s>", (int)(e - n), n,
					 (int)len[depth], stack[depth]);
				return msg;
			}
			p = e + 1;
			continue;
		}
		{
			const char *n = p + 1, *e = n;
			int self = 0;

			while (is_name_char(*e))
				e++;
			if (e == n)
				return "'<' without a tag name";
			if (depth == 0) {
				roots++;
				if (strncmp(n, "svg", 3) || e - n != 3)
					return "root is not <svg>";
			}
			p = e;
			for (;;) {
				while (*p == ' ')
					p++;
				if (*p == '>')
					break;
				if (p[0] == '/' && p[1] == '>') {
					self = 1;
					p++;
					break;
				}
				if (!is_name_char(*p))
					return "bad attribute name";
				while (is_name_char(*p))
					p++;
				if (p[0] != '=' || p[1] != '"')
					return "attribute value not double-quoted";
				p += 2;
				while (*p && *p != '"') {
					if (*p == '<')
						return "'<' inside an attribute value";
					p++;
				}
				if (!*p)
					return "unterminated attribute value";
				p++;
			}
			p++;
			if (!self) {
				if (depth == N_(stack))
					return "nested too deep";
				stack[depth] = n;
				len[depth++] = (size_t)(e - n);
			}
		}
	}
	if (depth)
		return "unclosed element";
	if (roots != 1)
		return "not exactly one root";
	return NULL;
}

/* The accessibility hooks and the escaping of hostile labels. */
static void
check_common(const char *what, const char *svg, const char *id)
{
	char want[200];
	const char *err = check_xml(svg);

	CHECK(!err, "%s: well-formed (%s)", what, err ? err : "ok");
	CHECK(!strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39),
	      "%s: starts with <svg xmlns=...>, no XML declaration", what);
	CHECK(strstr(svg, " role=\"img\""), "%s: role=\"img\"", what);
	snprintf(want, sizeof(want), "<title id=\"%s-title\">", id);
	CHECK(strstr(svg, want), "%s: %s", what, want);
	snprintf(want, sizeof(want), "<desc id=\"%s-desc\">", id);
	CHECK(strstr(svg, want), "%s: %s", what, want);
	snprintf(want, sizeof(want), " aria-labelledby=\"%s-title %s-desc\"", id, id);
	CHECK(strstr(svg, want), "%s: %s", what, want);
	CHECK(strstr(svg, " width=\"100%\""), "%s: width=\"100%%\"", what);
	CHECK(!strstr(svg, "style="), "%s: no style attribute", what);
	CHECK(!strstr(svg, "NaN") && !strstr(svg, "nan") && !strstr(svg, "inf"),
	      "%s: no NaN/inf printed", what);
	CHECK(!strstr(svg, "<script") && !strstr(svg, "<SCRIPT"), "%s: no raw <script", what);
	CHECK(count_of(svg, "<svg") == 1, "%s: exactly one <svg (no injected one)", what);
	CHECK(strstr(svg, HOSTILE1_ESC), "%s: contains %s", what, HOSTILE1_ESC);
	CHECK(strstr(svg, HOSTILE2_ESC), "%s: contains %s", what, HOSTILE2_ESC);
	CHECK(strstr(svg, HOSTILE3_ESC), "%s: contains %s", what, HOSTILE3_ESC);
}

/* ---- svg_ticks --------------------------------------------------------- */

static void
check_ticks(double lo, double hi, size_t max, size_t want_n, double want_step,
	    const double *want, int line)
{
	double t[32], step = -1;
	size_t n = svg_ticks(lo, hi, max, t, &step), i;
	int ok = n == want_n && fabs(step - want_step) <= 1e-12 * fabs(want_step);

	for (i = 0; ok && i < n; i++)
		ok = fabs(t[i] - want[i]) <= 1e-9 * (fabs(want_step) + 1e-300);
	th_check(ok, __FILE__, line, "svg_ticks(%g, %g, %zu): got %zu ticks step %g "
		 "[%g .. %g], want %zu step %g", lo, hi, max, n, step,
		 n ? t[0] : 0.0, n ? t[n - 1] : 0.0, want_n, want_step);
}

#define TICKS(lo, hi, max, step, ...) \
	do { \
		static const double w_[] = { __VA_ARGS__ }; \
		check_ticks((lo), (hi), (max), N_(w_), (step), w_, __LINE__); \
	} while (0)

/* 24 pseudo-random bits (the high ones of an LCG: its low bits cycle). */
static uint32_t
rnd(uint32_t *r)
{
	*r = *r * 1103515245u + 12345u;
	return *r >> 8;
}

static void
test_ticks(void)
{
	double t[32], step;
	uint32_t r = 12345;
	int i, bad = 0, max2 = 0;

	/*
	 * Rule: the smallest step in {1, 2, 5} x 10^k whose ticks
	 * floor(lo/step)..ceil(hi/step) number at most max, starting at
	 * 10^floor(log10((hi - lo) / (max - 1))).
	 */
	/* [0, 0.173] max 6: span/5 = 0.0346, k = -2.  0.01 -> 0..0.18, 19
	 * ticks; 0.02 -> 0..0.18, 10; 0.05 -> 0..0.2, 5. */
	TICKS(0, 0.173, 6, 0.05, 0, 0.05, 0.1, 0.15, 0.2);
	/* [0, 100] max 6: span/5 = 20 -> 20 gives exactly 6. */
	TICKS(0, 100, 6, 20, 0, 20, 40, 60, 80, 100);
	/* [0, 100] max 11: 10 gives 11. */
	TICKS(0, 100, 11, 10, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100);
	/* [3, 97] max 5: 23.5 -> k = 1: 10 (0..100, 11), 20 (0..100, 6),
	 * 50 (0..100, 3). */
	TICKS(3, 97, 5, 50, 0, 50, 100);
	/* [-1.3, 2.7] max 8: 0.571 -> k = -1: 0.1 (41), 0.2 (-1.4..2.8, 22),
	 * 0.5 (-1.5..3, 10), 1 (-2..3, 6). */
	TICKS(-1.3, 2.7, 8, 1, -2, -1, 0, 1, 2, 3);
	/* Reversed bounds are the same range. */
	TICKS(2.7, -1.3, 8, 1, -2, -1, 0, 1, 2, 3);
	/* [0, 184915] max 6: 36983 -> k = 4: 10000 (20), 20000 (11),
	 * 50000 (0..200000, 5). */
	TICKS(0, 184915, 6, 50000, 0, 50000, 100000, 150000, 200000);
	/* [0.0951, 0.0965] max 6: 0.00028 -> k = -4: 0.0001 (951..965, 15),
	 * 0.0002 (475..483, 9), 0.0005 (190..193, 4). */
	TICKS(0.0951, 0.0965, 6, 0.0005, 0.095, 0.0955, 0.096, 0.0965);
	/* Ticks already on the bounds stay there: [0.1, 0.3] max 3 -> 0.1. */
	TICKS(0.1, 0.3, 3, 0.1, 0.1, 0.2, 0.3);
	/* Degenerate: 5 == 5 becomes [4.5, 5.5] (+-10 %): 0.25 -> k = -1:
	 * 0.1 (11), 0.2 (4.4..5.6, 7), 0.5 (4.5..5.5, 3). */
	TICKS(5, 5, 6, 0.5, 4.5, 5, 5.5);
	/* 0 == 0 becomes [-1, 1]: 0.4 -> 0.1 (21), 0.2 (11), 0.5 (5). */
	TICKS(0, 0, 6, 0.5, -1, -0.5, 0, 0.5, 1);
	/* Negative degenerate: -20 -> [-22, -18]: 0.8 -> k = -1: 0.1, 0.2,
	 * 0.5 (9), then 1 (5). */
	TICKS(-20, -20, 6, 1, -22, -21, -20, -19, -18);
	/* max 2: [0, 7] -> 7 -> k = 0: 1, 2, 5 (0..10, 3), 10 (0..10, 2). */
	TICKS(0, 7, 2, 10, 0, 10);

	step = 99;
	CHECK(svg_ticks(NAN, 1, 6, t, &step) == 0 && step == 0, "NAN lo: no ticks, step 0");
	CHECK(svg_ticks(0, INFINITY, 6, t, &step) == 0, "infinite hi: no ticks");
	CHECK(svg_ticks(-INFINITY, INFINITY, 6, t, &step) == 0, "infinite range: no ticks");
	CHECK(svg_ticks(0, 1, 1, t, &step) == 0, "max 1: no ticks");
	CHECK(svg_ticks(0, 1, 0, t, &step) == 0, "max 0: no ticks");
	/* 0 strictly inside needs -s, 0, s: impossible with 2 (and must
	 * not loop through every power of ten). */
	CHECK(svg_ticks(-1, 1, 2, t, &step) == 0, "max 2 around 0: no ticks");
	/* max 3 around 0: 2/2 = 1 -> 1 (-1..1, 3 ticks). */
	TICKS(-1, 1, 3, 1, -1, 0, 1);
	CHECK(svg_ticks(-1.7e308, 1.7e308, 6, t, &step) > 0 && step > 0,
	      "huge finite range does not overflow: %g", step);
	for (i = 0; i < (int)N_(t); i++)
		t[i] = 0;

	/* Property check on pseudo-random ranges: covers [lo, hi], at most
	 * max ticks, step 1, 2 or 5 x 10^k, ticks evenly spaced. */
	for (i = 0; i < 20000; i++) {
		double lo, hi, m;
		size_t n, max, j;

		lo = ((double)rnd(&r) / (1 << 24) - 0.5) * pow(10, (int)(rnd(&r) % 13) - 6);
		hi = lo + (double)rnd(&r) / (1 << 24) * pow(10, (int)(rnd(&r) % 11) - 5);
		max = 2 + rnd(&r) % 14;
		n = svg_ticks(lo, hi, max, t, &step);
		if (n == 0 && max == 2) {
			if (!(lo < 0 && hi > 0) && !bad++)
				CHECK(0, "property: [%g, %g] max 2 -> no ticks", lo, hi);
			continue;
		}
		m = n ? step / pow(10, floor(log10(step) + 1e-9)) : 0;
		if (n < 2 || n > max || t[0] > lo + step * 1e-9 || t[n - 1] < hi - step * 1e-9 ||
		    !(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9)) {
			if (!bad++)
				CHECK(0, "property: [%g, %g] max %zu -> %zu ticks step %g", lo, hi,
				      max, n, step);
			continue;
		}
		for (j = 1; j < n; j++)
			if (fabs(t[j] - t[j - 1] - step) > step * 1e-6 + fabs(t[j]) * 1e-14 &&
			    !bad++)
				CHECK(0, "property: uneven ticks for [%g, %g]", lo, hi);
		if (max == 2)
			max2++;
	}
	CHECK(!bad, "svg_ticks property over 20000 ranges (%d bad, %d with max 2)", bad, max2);
}

/* ---- charts ------------------------------------------------------------ */

/* Renders with fn twice, checks determinism, returns the first output. */
typedef void (*render_fn)(struct buf *, const void *);

static char *
render_twice(const char *what, render_fn fn, const void *arg)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	fn(&a, arg);
	fn(&b, arg);
	CHECK(a.len == b.len && !memcmp(a.ptr, b.ptr, a.len),
	      "%s: same input gives byte-identical output (%zu bytes)", what, a.len);
	buf_release(&b);
	return buf_detach(&a, NULL);
}

static const struct svg_frame hostile_frame = {
	"chart-x", HOSTILE1, HOSTILE2, HOSTILE3, HOSTILE1 " per request", 0, 0, NULL,
};

static const double bar_v[] = { 0.09581, NAN, 0.173, 0.02 };
static const double bar_e[] = { 0.00062, 0.01, NAN, 0.001 };
static const double dots0[] = { 0.095, 0.0962, NAN, 0.0961, 0.0954 };
static const double *const bar_dots[] = { dots0, NULL, NULL, NULL };
static const size_t bar_nd[] = { 5, 0, 0, 0 };

static void
r_bars(struct buf *b, const void *arg)
{
	const int *horiz = arg;
	struct svg_bars s = { 4, NULL, bar_v, bar_e, bar_dots, bar_nd, *horiz, 0, 0 };
	static const char *const labels[] = { HOSTILE1, HOSTILE2, HOSTILE3, "elysia" };

	s.labels = labels;
	svg_bar_chart(b, &hostile_frame, &s);
}

static void
test_bar_chart(void)
{
	int horiz;

	for (horiz = 0; horiz <= 1; horiz++) {
		const char *what = horiz ? "bars (horizontal)" : "bars";
		char *svg = render_twice(what, r_bars, &horiz);

		check_common(what, svg, "chart-x");
		CHECK(count_of(svg, "<rect class=\"bar") == 3,
		      "%s: one bar per non-NAN value (3), got %zu", what,
		      count_of(svg, "<rect class=\"bar"));
		CHECK(count_of(svg, "<circle class=\"dot\"") == 4,
		      "%s: one dot per non-NAN round value (4)", what);
		CHECK(count_of(svg, "<path class=\"err\"") == 2,
		      "%s: whiskers only where value and err are finite (2)", what);
		CHECK(count_of(svg, "><title>not reported</title>\xe2\x80\x93</text>") == 1 &&
		      !strstr(svg, "n/a"), "%s: the NAN bar shows the missing value, titled", what);
		CHECK(strstr(svg, "<title>" HOSTILE1_ESC ": 0.09581 " HOSTILE1_ESC
			     " per request \xc2\xb1 0.00062 (n=5)</title>"),
		      "%s: tooltip with label, value, axis title, err and n", what);
		free(svg);
	}
}

/* More than SVG_BARS_MAX bars: one path through every value (M after a
 * gap, L otherwise), one path of whiskers, nothing per value; the
 * description names the count and the first and last values. */
#define PATH_N 450

static double path_v[PATH_N], path_e[PATH_N];
static const char *path_l[PATH_N];
static char path_lb[PATH_N][16];

static void
r_path(struct buf *b, const void *arg)
{
	const size_t *n = arg;
	struct svg_bars s = { *n, path_l, path_v, path_e, NULL, NULL, 0, 0, 0 };

	svg_bar_chart(b, &hostile_frame, &s);
}

static void
test_bar_path(void)
{
	size_t i, n = PATH_N, nfin = 0, nseg = 0, npt = 0, nm = 0, nl = 0, bad = 0, nwh = 0;
	char *svg, *d, *end;
	double px = -1, py = 1e9;

	for (i = 0; i < PATH_N; i++) {
		/* every 7th value missing: the line has gaps */
		path_v[i] = i % 7 == 3 ? NAN : 100 + (double)i;
		path_e[i] = 5;
		snprintf(path_lb[i], sizeof(path_lb[i]), "r%zu", i);
		path_l[i] = path_lb[i];
		if (isfinite(path_v[i])) {
			nfin++;
			nseg += i == 0 || !isfinite(path_v[i - 1]);
		}
	}
	path_l[0] = HOSTILE1;
	path_l[PATH_N - 1] = HOSTILE2;	/* 449 % 7 == 1: a value */
	svg = render_twice("bar path", r_path, &n);
	check_common("bar path", svg, "chart-x");
	CHECK(!strstr(svg, "<rect class=\"bar") && !strstr(svg, "<circle") &&
	      !strstr(svg, "<path class=\"dot"), "bar path: no element per value");
	CHECK(count_of(svg, "<path class=\"line s0\" d=\"") == 1, "bar path: one line path");
	CHECK(count_of(svg, "<path class=\"err\"") == 1, "bar path: one whisker path");
	d = strstr(svg, "<path class=\"line s0\" d=\"");
	if (d) {
		d += strlen("<path class=\"line s0\" d=\"");
		end = strchr(d, '"');
		/* every point: a command, x, comma, y; x rises, y falls (the
		 * values rise) */
		while (d && d < end) {
			char c = *d++;
			double x = strtod(d, &d), y;

			if (*d != ',') {
				bad++;
				break;
			}
			y = strtod(d + 1, &d);
			nm += c == 'M';
			nl += c == 'L';
			bad += (c != 'M' && c != 'L') || !(x > px) || !(y < py);
			px = x;
			py = y;
			npt++;
		}
	}
	CHECK(npt == nfin && nm == nseg && nl == nfin - nseg && !bad,
	      "bar path: the line holds every value: %zu points of %zu, %zu M for %zu runs of "
	      "values, %zu out of order", npt, nfin, nm, nseg, bad);
	d = strstr(svg, "<path class=\"err\" d=\"");
	if (d) {
		end = strchr(d + 21, '"');
		for (; (d = strchr(d + 1, 'M')) && d < end;)
			nwh++;
	}
	CHECK(nwh == nfin, "bar path: a whisker per value (%zu of %zu)", nwh, nfin);
	{
		char want[200];

		snprintf(want, sizeof(want), "One line through the %zu values in order", nfin);
		CHECK(strstr(svg, want), "bar path: the description gives the count");
	}
	CHECK(strstr(svg, "first " HOSTILE1_ESC ", 100; last " HOSTILE2_ESC ", 549 " HOSTILE1_ESC
		     " per request."), "bar path: first and last values, labels escaped");
	free(svg);
	/* at the threshold: still a bar each */
	n = SVG_BARS_MAX;
	for (i = 0; i < n; i++)
		path_v[i] = 1 + (double)i;
	svg = render_twice("bar path at the threshold", r_path, &n);
	CHECK(count_of(svg, "<rect class=\"bar") == SVG_BARS_MAX && !strstr(svg, "class=\"line"),
	      "%d bars: a bar each, no line", SVG_BARS_MAX);
	free(svg);
}

/*
 * A value alone between two gaps in the one-line chart: "M x,y" alone
 * draws nothing, so it gets a zero-length segment ("h0") that the path's
 * round caps draw as a dot; a value beside another does not.
 */
static void
test_bar_lone(void)
{
	size_t i, n = PATH_N, lone = 0;
	char *svg, *d, *end;
	int caps;

	for (i = 0; i < PATH_N; i++) {
		/* every 6: a lone value, a gap, a pair, two gaps */
		path_v[i] = i % 6 == 0 || i % 6 == 2 || i % 6 == 3 ? 50 + (double)(i % 11) : NAN;
		path_e[i] = 1;
		snprintf(path_lb[i], sizeof(path_lb[i]), "r%zu", i);
		path_l[i] = path_lb[i];
		lone += i % 6 == 0;
	}
	svg = render_twice("lone values", r_path, &n);
	d = strstr(svg, "<path class=\"line s0\" d=\"");
	end = d ? strchr(d + 27, '"') : NULL;
	caps = end && !strncmp(end, "\" stroke-linecap=\"round\">", 24);
	if (end)
		*end = '\0';
	CHECK(d && end && count_of(d, "h0") == lone && count_of(d, "M") == 2 * lone && caps,
	      "lone values: each of %zu a zero-length segment, round caps (%zu h0, %zu M)", lone,
	      d ? count_of(d, "h0") : 0, d ? count_of(d, "M") : 0);
	free(svg);
}

/*
 * A series of bars with many dots (190 nights of the reference session:
 * 26 idle windows a night drew a 626 KB chart): past SVG_MARKS_MAX bars
 * and dots together it is a line, or, when it has SVG_SERIES_FEW bars or
 * fewer, bars without dots (a line through a handful of points says
 * little).  At the budget, or when the bars are no series (a run's
 * targets), a bar and its dots each.
 */
#define MARKS_DOTS 20
static double marks_d[PATH_N][MARKS_DOTS];
static const double *marks_dp[PATH_N];
static size_t marks_nd[PATH_N];

struct marks_arg {
	size_t n, nd;
	int series;
	size_t max;	/* the chart's budget: 0, the default */
};

static void
r_marks(struct buf *b, const void *arg)
{
	const struct marks_arg *a = arg;
	struct svg_bars s = { a->n, path_l, path_v, path_e, marks_dp, marks_nd, 0, a->series,
			      a->max };
	size_t i;

	for (i = 0; i < PATH_N; i++)
		marks_nd[i] = a->nd;
	svg_bar_chart(b, &hostile_frame, &s);
}

static void
test_bar_marks(void)
{
	/* n bars of 4 dots: 5 n marks */
	size_t at = SVG_MARKS_MAX / 5, i, j;
	struct marks_arg a;
	char *svg, want[64];

	for (i = 0; i < PATH_N; i++) {
		path_v[i] = 10 + (double)(i % 13);
		path_e[i] = 1;
		snprintf(path_lb[i], sizeof(path_lb[i]), "r%zu", i);
		path_l[i] = path_lb[i];
		for (j = 0; j < MARKS_DOTS; j++)
			marks_d[i][j] = path_v[i] - 1 + (double)j * 0.1;
		marks_dp[i] = marks_d[i];
	}
	CHECK(at == 80 && at > SVG_SERIES_FEW, "the budget as this test counts it");
	a.n = at;
	a.nd = 4;
	a.series = 1;
	a.max = 0;
	svg = render_twice("marks at the budget", r_marks, &a);
	CHECK(count_of(svg, "<rect class=\"bar") == at &&
	      count_of(svg, "<circle class=\"dot") == at * 4 && !strstr(svg, "class=\"line"),
	      "a series of %zu bars and %zu dots (%d marks): a bar and dots each", at, at * 4,
	      SVG_MARKS_MAX);
	free(svg);
	a.n = at + 1;
	svg = render_twice("marks over the budget", r_marks, &a);
	CHECK(!strstr(svg, "<rect class=\"bar") && !strstr(svg, "<circle") &&
	      count_of(svg, "<path class=\"line s0\" d=\"") == 1 &&
	      strstr(svg, "One line through the 81 values in order (with their dots more than 400 marks"),
	      "a series of %zu bars and %zu dots: one line, said so", at + 1, (at + 1) * 4);
	free(svg);
	a.series = 0;
	svg = render_twice("marks, no series", r_marks, &a);
	CHECK(count_of(svg, "<rect class=\"bar") == at + 1 &&
	      count_of(svg, "<circle class=\"dot") == (at + 1) * 4 && !strstr(svg, "class=\"line"),
	      "%zu bars that are no series: a bar and dots each", at + 1);
	free(svg);
	/* few bars, many dots: the bars stay, the dots go, each bar's n stays */
	a.n = SVG_SERIES_FEW;
	a.nd = MARKS_DOTS;
	a.series = 1;
	svg = render_twice("few bars, many dots", r_marks, &a);
	snprintf(want, sizeof(want), "(n=%d)", MARKS_DOTS);
	CHECK(count_of(svg, "<rect class=\"bar") == SVG_SERIES_FEW && !strstr(svg, "<circle") &&
	      !strstr(svg, "class=\"line") && count_of(svg, want) == SVG_SERIES_FEW,
	      "a series of %d bars and %d dots: a bar each, no dots, each tooltip with %s",
	      SVG_SERIES_FEW, SVG_SERIES_FEW * MARKS_DOTS, want);
	free(svg);
	a.series = 0;
	svg = render_twice("few bars, many dots, no series", r_marks, &a);
	CHECK(count_of(svg, "<circle class=\"dot") == SVG_SERIES_FEW * MARKS_DOTS,
	      "the same bars as no series: every dot");
	free(svg);
	/* a chart's own budget (one of many on a page): 45 bars of 1 dot,
	 * 90 marks, are within 400 but past a budget of 89, not of 90 */
	a.n = SVG_SERIES_FEW + 5;
	a.nd = 1;
	a.series = 1;
	a.max = 90;
	svg = render_twice("marks at a chart's budget", r_marks, &a);
	CHECK(count_of(svg, "<rect class=\"bar") == a.n && count_of(svg, "<circle class=\"dot") == a.n,
	      "a budget of 90: %zu bars and %zu dots drawn", a.n, a.n);
	free(svg);
	a.max = 89;
	svg = render_twice("marks past a chart's budget", r_marks, &a);
	CHECK(!strstr(svg, "<rect class=\"bar") && !strstr(svg, "<circle") &&
	      strstr(svg, "(with their dots more than 89 marks"),
	      "a budget of 89: one line, the budget said");
	free(svg);
	a.n = SVG_SERIES_FEW;
	a.nd = 2;
	svg = render_twice("few bars past a chart's budget", r_marks, &a);
	CHECK(count_of(svg, "<rect class=\"bar") == SVG_SERIES_FEW && !strstr(svg, "<circle"),
	      "a budget of 89 and %d bars of 2 dots: the bars, no dots", SVG_SERIES_FEW);
	free(svg);
	/* a budget below SVG_SERIES_FEW (a page of over 100 targets): more
	 * bars than it is a line, as many are bars */
	a.n = 20;
	a.nd = 0;
	a.max = 19;
	svg = render_twice("bars past a small budget", r_marks, &a);
	CHECK(!strstr(svg, "<rect class=\"bar") && count_of(svg, "<path class=\"line s0\" d=\"") == 1,
	      "a budget of 19 and 20 bars: one line");
	free(svg);
	a.max = 20;
	svg = render_twice("bars at a small budget", r_marks, &a);
	CHECK(count_of(svg, "<rect class=\"bar") == 20 && !strstr(svg, "class=\"line"),
	      "a budget of 20 and 20 bars: the bars");
	free(svg);
}

/*
 * A line over far more values than the plot has columns (issue 19: a
 * chart over every run of a 100,000-run archive): points that share a
 * column (x as written, to 0.1) are drawn as its first, lowest, highest
 * and last, whiskers of a column merged where they overlap, so the chart
 * stops growing with the values while drawing the same ink.  Values
 * alternate between two levels, each ±1 (two disjoint whiskers a
 * column), with a spike to a third level every 50 and a gap every 997.
 */
static double *cols_v, *cols_e;

static void
r_cols(struct buf *b, const void *arg)
{
	const size_t *n = arg;
	struct svg_bars s = { *n, NULL, cols_v, cols_e, NULL, NULL, 0, 0, 0 };

	svg_bar_chart(b, &hostile_frame, &s);
}

struct drawn {
	size_t nm, nl, nv, nx;	/* M, L and V commands; distinct x */
	double y[8];		/* distinct y values seen (up to eight) */
	size_t ny;
	int order;		/* x went backwards */
	size_t both;		/* columns that reach both levels */
	size_t spiked;		/* columns that reach y <= the spike's */
};

/* Parse the d attribute of the path opened by prefix: M/L x,y and V y. */
static void
parse_drawn(const char *svg, const char *prefix, double spike, struct drawn *r)
{
	const char *d = strstr(svg, prefix), *end;
	double x = -1, px = -1, cy;
	double clo = 1e9, chi = -1e9;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (!d)
		return;
	d += strlen(prefix);
	end = strchr(d, '"');
	while (d && d < end) {
		char c = *d++, *e;

		if (c == 'V') {
			cy = strtod(d, &e);
			r->nv++;
		} else {
			x = strtod(d, &e);
			if (*e != ',')
				break;
			cy = strtod(e + 1, &e);
			r->nm += c == 'M';
			r->nl += c == 'L';
			if (x != px) {
				if (r->nx && chi - clo > 50)
					r->both++;
				r->spiked += r->nx && clo <= spike + 0.05;
				r->order |= x < px;
				r->nx++;
				clo = 1e9;
				chi = -1e9;
			}
			px = x;
		}
		d = e;
		clo = cy < clo ? cy : clo;
		chi = cy > chi ? cy : chi;
		for (i = 0; i < r->ny && r->y[i] != cy; i++)
			;
		if (i == r->ny && r->ny < 8)
			r->y[r->ny++] = cy;
	}
	if (r->nx && chi - clo > 50)
		r->both++;
	r->spiked += r->nx && clo <= spike + 0.05;
}

static double
min_of(const double *y, size_t n)
{
	double m = 1e9;

	while (n--)
		m = y[n] < m ? y[n] : m;
	return m;
}

static void
test_bar_path_columns(void)
{
	size_t sizes[2], ns[2] = { 20000, 200000 }, k, i;

	for (k = 0; k < 2; k++) {
		size_t n = ns[k], nseg = 0, nspike = 0;
		struct drawn line, err;
		char *svg, what[64];

		cols_v = xcalloc(n, sizeof(*cols_v));
		cols_e = xcalloc(n, sizeof(*cols_e));
		for (i = 0; i < n; i++) {
			/* a spike every 50 values: fewer than a column holds
			 * (3.5 and 35), so one column has one spike at most */
			cols_v[i] = i % 997 == 500 ? NAN : i % 50 == 25 ? 300 : i % 2 ? 100 : 200;
			cols_e[i] = 1;
			nspike += isfinite(cols_v[i]) && cols_v[i] == 300;
			nseg += isfinite(cols_v[i]) && (i == 0 || !isfinite(cols_v[i - 1]));
		}
		snprintf(what, sizeof(what), "%zu values", n);
		svg = render_twice(what, r_cols, &n);
		check_common(what, svg, "chart-x");
		sizes[k] = strlen(svg);
		parse_drawn(svg, "<path class=\"line s0\" d=\"", -1, &line);
		parse_drawn(svg, "<path class=\"line s0\" d=\"", min_of(line.y, line.ny), &line);
		CHECK(line.nm == nseg, "%s: the line starts again after each of its %zu gaps "
		      "(%zu M)", what, nseg - 1, line.nm);
		CHECK(!line.order && line.nx > 5000, "%s: x only rises, over %zu columns", what,
		      line.nx);
		CHECK(line.ny == 3, "%s: the line's points are the values' three levels, nothing "
		      "between (%zu distinct y)", what, line.ny);
		CHECK(line.spiked == nspike, "%s: every spike drawn, wherever it falls in its "
		      "column (%zu columns reach it, %zu spikes)", what, line.spiked, nspike);
		CHECK(line.both + 2 * nseg >= line.nx, "%s: each column reaches both levels "
		      "(%zu of %zu)", what, line.both, line.nx);
		CHECK(line.nm + line.nl + line.nv <= 4 * line.nx + 2 * nseg,
		      "%s: at most four points a column (%zu for %zu columns)", what,
		      line.nm + line.nl + line.nv, line.nx);
		parse_drawn(svg, "<path class=\"err\" d=\"", -1, &err);
		/* a whisker is "Mx,yVy": two disjoint ones a column */
		CHECK(err.nm <= 2 * err.nx + nspike && err.nm + 2 * nseg >= 2 * err.nx &&
		      err.nv == err.nm && err.ny == 6,
		      "%s: two whiskers a column and the spike's (one beside a gap), "
		      "overlapping ones merged, each from one level's -1 to +1: %zu for %zu "
		      "columns, %zu distinct y", what, err.nm, err.nx, err.ny);
		free(svg);
		free(cols_v);
		free(cols_e);
	}
	/* a value each would be ~28 bytes: 5.6 MB for 200,000 */
	CHECK(sizes[1] < 600000 && sizes[1] < 2 * sizes[0], "ten times the values, under "
	      "twice the size and 600 KB: %zu and %zu bytes", sizes[0], sizes[1]);
}

/* Tick labels: decimals from the step, thousands with commas. */
static void
r_plain_bars(struct buf *b, const void *arg)
{
	const struct svg_bars *s = arg;
	struct svg_frame f = { "t", "T", "D", "target", "unit", 0, 0, NULL };

	svg_bar_chart(b, &f, s);
}

static void
test_bar_ticks(void)
{
	static const char *const l3[] = { "a", "b", "c" };
	static const double small[] = { 0.03, 0.07, 0.09 };
	static const double big[] = { 184915 };
	struct svg_bars s = { 3, l3, small, NULL, NULL, NULL, 0, 0, 0 };
	char *svg;

	/* Plot 257 px high -> at most 8 ticks; [0, 0.09]: 0.0129 -> 0.02
	 * gives 0..0.1 (6 ticks), two decimals each. */
	svg = render_twice("bar ticks", r_plain_bars, &s);
	CHECK(strstr(svg, ">0.00</text>") && strstr(svg, ">0.02</text>") &&
	      strstr(svg, ">0.10</text>") && !strstr(svg, ">0.12</text>"),
	      "ticks 0.00, 0.02 .. 0.10 with 2 decimals");
	CHECK(!strstr(svg, ">0.1</text>"), "no tick label with fewer decimals");
	free(svg);

	/* [0, 184915], 8 ticks: 26416 -> 50000 (0..200000, 5 ticks). */
	s.n = 1;
	s.value = big;
	svg = render_twice("bar ticks big", r_plain_bars, &s);
	CHECK(strstr(svg, ">50,000</text>") && strstr(svg, ">200,000</text>") &&
	      !strstr(svg, ">250,000</text>"), "ticks 0 .. 200,000 in thousands");
	CHECK(strstr(svg, "<title>a: 184,915 unit</title>"), "tooltip 184,915 unit");
	free(svg);
}

/* Labels that do not fit under the bars turn the chart horizontal; a
 * horizontal chart grows to give each category a row; long labels are
 * cut with an ellipsis and keep the whole text in a <title>. */
static void
test_bar_layout(void)
{
	static const char *labels[40];
	static double v[40];
	static const char *const longl[] = {
		"a", "a target with a name far too long to be shown as it is in a chart "
		     "column, really",
	};
	static const double v2[] = { 1, 2 };
	struct svg_bars s = { 40, labels, v, NULL, NULL, NULL, 1, 0, 0 };
	char *svg;
	int h = 0;
	size_t i;
	const char *p;
	double x0, x1;

	for (i = 0; i < 40; i++) {
		labels[i] = "target";
		v[i] = (double)i;
	}
	svg = render_twice("bars 40", r_plain_bars, &s);
	p = strstr(svg, "viewBox=\"0 0 640 ");
	CHECK(p && sscanf(p, "viewBox=\"0 0 640 %d\"", &h) == 1 && h >= 40 * 22,
	      "40 horizontal bars: viewBox grows to %d (>= 880)", h);
	free(svg);

	s.n = 2;
	s.labels = longl;
	s.value = v2;
	s.horizontal = 0;
	svg = render_twice("bars long label", r_plain_bars, &s);
	p = strstr(svg, "<rect class=\"bar s0\" x=\"");
	CHECK(p && sscanf(p, "<rect class=\"bar s0\" x=\"%lf\"", &x0) == 1 &&
	      (p = strstr(p + 1, "<rect class=\"bar s0\" x=\"")) &&
	      sscanf(p, "<rect class=\"bar s0\" x=\"%lf\"", &x1) == 1 && x0 == x1,
	      "long labels: horizontal on its own (bars start at the same x)");
	CHECK(strstr(svg, "<title>a target with a name far too long to be shown as it is in a "
			  "chart column, really</title>a target with"),
	      "cut label keeps the whole text in its <title>");
	CHECK(strstr(svg, "\xe2\x80\xa6</text>"), "cut label ends in an ellipsis");
	CHECK(!check_xml(svg), "long label chart well-formed");
	free(svg);
}

static void
r_grouped(struct buf *b, const void *arg)
{
	static const double v[] = { 1, NAN, 3, 4, 5, NAN };
	static const double e[] = { 0.1, 0.1, NAN, 0.2, 0, 0.3 };
	static const char *const groups[] = { HOSTILE1, HOSTILE3 };
	static const char *const series[] = { HOSTILE2, "b", HOSTILE3 };
	struct svg_groups g = { 2, 3, groups, series, v, e };

	(void)arg;
	svg_grouped_bars(b, &hostile_frame, &g);
}

static void
test_grouped(void)
{
	char *svg = render_twice("grouped", r_grouped, NULL);

	check_common("grouped", svg, "chart-x");
	CHECK(count_of(svg, "<rect class=\"bar") == 4, "grouped: 4 bars for 4 non-NAN values");
	CHECK(count_of(svg, "<rect class=\"key") == 3, "grouped: legend of 3 series");
	CHECK(count_of(svg, "<pattern id=\"chart-x-h") == 2,
	      "grouped: hatch patterns for series 1 and 2");
	CHECK(strstr(svg, "fill=\"url(#chart-x-h2)\""), "grouped: series 2 hatched");
	CHECK(count_of(svg, "<path class=\"err\"") == 2, "grouped: 2 whiskers (finite, > 0)");
	CHECK(strstr(svg, "<title>" HOSTILE1_ESC ", " HOSTILE2_ESC ": 1 " HOSTILE1_ESC
			  " per request \xc2\xb1 0.1</title>"), "grouped: tooltip");
	free(svg);
}

/* Styles given by the page (svg_frame.style): series 0 and 2 of the
 * grouped chart drawn as style 9 (colour 1, pattern shape(9) = 2) and 0,
 * series 1 as style 3; the bars of a bar chart and the points of a
 * scatter each their own. */
static void
r_styled(struct buf *b, const void *arg)
{
	static const double v[] = { 1, 2, 3, 4, 5, 6 };
	static const char *const groups[] = { "g1", "g2" };
	static const char *const series[] = { "s-a", "s-b", "s-c" };
	static const size_t st[] = { 9, 3, 0 };
	struct svg_groups g = { 2, 3, groups, series, v, NULL };
	struct svg_bars bars = { 3, series, v, NULL, NULL, NULL, 0, 0, 0 };
	struct svg_points p = { 3, v, v + 3, NULL, NULL, series, 0, 0, 0, NULL, 0 };
	struct svg_frame f = { "st", "T", "D", "x", "y", 0, 0, st };

	(void)arg;
	svg_grouped_bars(b, &f, &g);
	svg_bar_chart(b, &f, &bars);
	svg_scatter(b, &f, &p);
}

static void
test_styled(void)
{
	char *all = render_twice("styled", r_styled, NULL), *svg, *bar, *pts, *e;

	/* the three charts apart: svg, bar, pts */
	e = strstr(all, "</svg>") + 6;
	svg = strndup(all, (size_t)(e - all));
	pts = strstr(e, "</svg>") + 6;
	bar = strndup(e, (size_t)(pts - e));
	pts = strdup(pts);
	/* grouped: one bar per group in each series' style */
	CHECK(count_of(svg, "<rect class=\"bar s1\"") == 2 &&
	      count_of(svg, "<rect class=\"bar s3\"") == 2 &&
	      count_of(svg, "<rect class=\"bar s0\"") == 2, "grouped: bars by the given styles");
	CHECK(count_of(svg, "<rect class=\"key s1\"") == 1 &&
	      count_of(svg, "<rect class=\"key s3\"") == 1, "grouped: legend keys by style");
	CHECK(count_of(svg, "fill=\"url(#st-h2)\"") == 3 && count_of(svg, "fill=\"url(#st-h3)\"") == 3,
	      "grouped: style 9 hatched as 2, style 3 as 3 (2 bars and a key each)");
	CHECK(count_of(svg, "<pattern id=\"st-h") == 2 && strstr(svg, "<pattern id=\"st-h2\"") &&
	      strstr(svg, "<pattern id=\"st-h3\""), "grouped: exactly the patterns used");
	/* bar chart: each bar its style, hatched */
	CHECK(strstr(bar, "<rect class=\"bar s1\"") && strstr(bar, "<rect class=\"bar s3\"") &&
	      strstr(bar, "<rect class=\"bar s0\""), "bars: each bar its style");
	CHECK(count_of(bar, "fill=\"url(#st-h") == 2 && count_of(bar, "<pattern id=\"st-h") == 2,
	      "bars: two hatched (styles 9 and 3), style 0 plain");
	/* scatter: markers of the style's shape instead of plain circles */
	CHECK(!strstr(pts, "<circle class=\"dot\""), "scatter: no unstyled circle");
	CHECK(strstr(pts, "<path class=\"dot s1\" d=\"M") && strstr(pts, "m0,-4.2l4,6.8h-8z\"><title>s-a: "),
	      "scatter: style 9 is colour 1 with the triangle of shape 2");
	CHECK(strstr(pts, "<path class=\"dot s3\"") && strstr(pts, "<path class=\"dot s0\""),
	      "scatter: the other points their styles");
	free(svg);
	free(bar);
	free(pts);
	free(all);
}

static void
r_stacked(struct buf *b, const void *arg)
{
	static const double share[] = { 0.5, 0.3, 0.2, NAN, 0.6, 0.4 };
	static const char *const bars[] = { HOSTILE1, HOSTILE2 };
	static const char *const parts[] = { HOSTILE3, "sys", "idle" };
	struct svg_stack s = { 2, 3, bars, parts, share };

	(void)arg;
	svg_stacked_bars(b, &hostile_frame, &s);
}

static void
test_stacked(void)
{
	char *svg = render_twice("stacked", r_stacked, NULL);

	check_common("stacked", svg, "chart-x");
	CHECK(count_of(svg, "<rect class=\"bar") == 5, "stacked: 5 parts for 5 non-NAN shares");
	CHECK(strstr(svg, ">100%</text>") && strstr(svg, ">0%</text>"),
	      "stacked: percent ticks 0%% .. 100%%");
	CHECK(strstr(svg, "<title>" HOSTILE1_ESC ", sys: 30.0%</title>"), "stacked: tooltip");
	free(svg);
}

static void
r_steps(struct buf *b, const void *arg)
{
	static const double t0[] = { 0, 1, 2, 3, 4 }, t1[] = { 1, 2, 3, 4, 5 };
	static const double y[] = { 10, NAN, 12, 11, 30 };
	static const double u0[] = { 0.5, 2.5 }, u1[] = { 2.5, 4.5 }, w[] = { 5, 6 };
	static const double marks[] = { 1.5, 3.5, 99 };
	static const char *const ml[] = { HOSTILE1, HOSTILE2, HOSTILE3 };
	static const char *const series[] = { HOSTILE3, HOSTILE1 };
	struct svg_steps s[2] = {
		{ 5, t0, t1, y, 3, marks, ml },
		{ 2, u0, u1, w, 0, NULL, NULL },
	};

	(void)arg;
	svg_step_chart(b, &hostile_frame, 2, series, s);
}

/* d="..." of the last element starting with prefix. */
static char *
path_d(const char *svg, const char *prefix)
{
	const char *p = NULL, *q, *e;
	char *d;

	for (q = svg; (q = strstr(q, prefix)); q++)
		p = q;	/* the last one: legend swatches come first */

	if (!p || !(q = strstr(p, " d=\"")) || !(e = strchr(q + 4, '"')))
		return NULL;
	d = malloc((size_t)(e - q - 4) + 1);
	memcpy(d, q + 4, (size_t)(e - q - 4));
	d[e - q - 4] = '\0';
	return d;
}

static void
test_steps(void)
{
	char *svg = render_twice("steps", r_steps, NULL), *d;

	check_common("steps", svg, "chart-x");
	d = path_d(svg, "<path class=\"line s0\"");
	/* Samples 0 | NAN | 2 3 4: two runs, so two moveto's. */
	CHECK(d && count_of(d, "M") == 2, "steps: NAN sample breaks the trace (d=%s)",
	      d ? d : "(none)");
	free(d);
	CHECK(count_of(svg, "<path class=\"mark") == 2, "steps: marks inside the x range (2)");
	CHECK(strstr(svg, "stroke-dasharray="), "steps: series 1 dashed");
	CHECK(!strstr(svg, "pixel column"), "steps: short traces are not reduced");
	free(svg);
}

#define LONG_N 100000

static void
r_long(struct buf *b, const void *arg)
{
	static double t0[LONG_N], t1[LONG_N], y[LONG_N];
	struct svg_steps s = { LONG_N, t0, t1, y, 0, NULL, NULL };
	struct svg_frame f = { "long", "Power", "Watts over time", "s", "W", 0, 0, NULL };
	size_t i;

	(void)arg;
	for (i = 0; i < LONG_N; i++) {
		t0[i] = (double)i * 0.01;
		t1[i] = t0[i] + 0.01;
		y[i] = 10 + (double)(i % 17) * 0.5;
	}
	y[54321] = 100;	/* one spike must survive the reduction */
	y[77777] = NAN;
	svg_step_chart(b, &f, 1, NULL, &s);
}

static void
test_long_trace(void)
{
	char *svg = render_twice("long trace", r_long, NULL), *d;
	const char *err = check_xml(svg);

	CHECK(!err, "long trace: well-formed (%s)", err ? err : "ok");
	CHECK(strlen(svg) < 40000, "long trace: %zu bytes for %d samples (< 40000)",
	      strlen(svg), LONG_N);
	CHECK(strstr(svg, "min to max) of the samples in each pixel column"),
	      "long trace: <desc> says it is reduced");
	d = path_d(svg, "<path class=\"line s0\"");
	/* y axis 0..100 (ticks 0, 20, .. 100); the plot's top edge is
	 * y = 12 (no legend, no mark labels): the spike reaches it. */
	CHECK(d && strstr(d, "V12.0"), "long trace: the spike at 100 is drawn (V12.0)");
	free(d);
	free(svg);
}

/* ---- point labels: the crowded hostile case ------------------------------ */

struct lbox {
	double x0, y0, x1, y1;
};

/* Characters a <text> shows: its content without a <title>, an entity
 * one character, UTF-8 by lead bytes (as svg.c counts them). */
static size_t
shown_chars(const char *s, const char *end)
{
	size_t n = 0;

	if (!strncmp(s, "<title>", 7) && strstr(s, "</title>"))
		s = strstr(s, "</title>") + 8;
	for (; s < end; s++) {
		if (*s == '&') {
			while (s < end && *s != ';')
				s++;
			n++;
		} else if (((unsigned char)*s & 0xc0) != 0x80) {
			n++;
		}
	}
	return n;
}

/* The label boxes of the chart's point labels, sized as svg.c sizes text
 * (6.6 px a character, 12 px high, baseline 9 px below the top); the
 * leader lines into lead (4 numbers each). */
static size_t
label_boxes(const char *svg, struct lbox *b, size_t max, double *lead, size_t *nlead)
{
	const char *g = strstr(svg, "<g class=\"point-labels\">"), *end, *t;
	size_t n = 0;
	double x, y;

	*nlead = 0;
	if (!g)
		return 0;
	end = strstr(g, "</g>");
	for (t = g; (t = strstr(t, "<path class=\"leader\" d=\"M")) && t < end && *nlead < max; t++)
		if (sscanf(t, "<path class=\"leader\" d=\"M%lf,%lfL%lf,%lf", &lead[4 * *nlead],
			   &lead[4 * *nlead + 1], &lead[4 * *nlead + 2], &lead[4 * *nlead + 3]) == 4)
			++*nlead;
	for (t = g; (t = strstr(t, "<text class=\"tick\" x=\"")) && t < end && n < max; t++) {
		const char *c, *ce;

		if (sscanf(t, "<text class=\"tick\" x=\"%lf\" y=\"%lf\"", &x, &y) != 2)
			continue;
		c = strchr(t, '>') + 1;
		ce = strstr(c, "</text>");
		b[n].x0 = x;
		b[n].x1 = x + (double)shown_chars(c, ce) * 6.6;
		b[n].y0 = y - 9;
		b[n].y1 = y + 3;
		n++;
	}
	return n;
}

/* The centres of the chart's points (circles and markers). */
static size_t
point_centres(const char *svg, double *x, double *y, size_t max)
{
	const char *t;
	size_t n = 0;

	for (t = svg; (t = strstr(t, "<circle class=\"dot")) && n < max; t++)
		if (sscanf(strstr(t, " cx="), " cx=\"%lf\" cy=\"%lf\"", &x[n], &y[n]) == 2)
			n++;
	for (t = svg; (t = strstr(t, "<path class=\"dot s")) && n < max; t++)
		if (sscanf(strstr(t, " d=\"M"), " d=\"M%lf,%lf", &x[n], &y[n]) == 2)
			n++;
	return n;
}

static int
lbox_hit(const struct lbox *a, const struct lbox *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* 40 points (the most that get labels): 16 in a knot a few pixels wide,
 * 4 on one spot, a row, a column, points at the plot's corners, one NAN;
 * labels hostile, long (cut), multibyte, empty and missing. */
#define CROWD 40
static void
r_crowd(struct buf *b, const void *arg)
{
	static double x[CROWD], y[CROWD];
	static const char *lab[CROWD];
	static const char *const names[] = {
		HOSTILE1, HOSTILE2, HOSTILE3, "a label far longer than sixteen characters",
		"\xc3\xa9l\xc3\xa9phant \xe2\x80\x93 \xe6\xbc\xa2\xe5\xad\x97", "", "bun", "elysia",
	};
	struct svg_points p = { CROWD, x, y, NULL, NULL, lab, 0, 0, 0, NULL, 0 };
	const struct svg_frame *f = arg;
	size_t i;

	for (i = 0; i < CROWD; i++) {
		if (i < 16) {			/* the knot */
			x[i] = 50 + 0.02 * (double)(i % 4);
			y[i] = 50 + 0.03 * (double)(i / 4);
		} else if (i < 20) {		/* one spot */
			x[i] = 20;
			y[i] = 80;
		} else if (i < 28) {		/* a row */
			x[i] = 10 + 2 * (double)(i - 20);
			y[i] = 30;
		} else if (i < 35) {		/* a column */
			x[i] = 80;
			y[i] = 10 + 3 * (double)(i - 28);
		} else if (i < 39) {		/* corners */
			x[i] = i % 2 ? 0 : 100;
			y[i] = i < 37 ? 0 : 100;
		} else {
			x[i] = NAN;
			y[i] = 5;
		}
		lab[i] = i % 9 == 8 ? NULL : names[i % 8];
	}
	svg_scatter(b, f, &p);
}

static void
check_crowd(const char *what, const struct svg_frame *f)
{
	char *svg = render_twice(what, r_crowd, f);
	const char *err = check_xml(svg);
	struct lbox b[CROWD + 1];
	double px[CROWD + 1], py[CROWD + 1], lead[4 * (CROWD + 1)];
	size_t nb, np, nl, i, j, overlap = 0, covers = 0, far = 0;

	CHECK(!err, "%s: well-formed (%s)", what, err ? err : "ok");
	nb = label_boxes(svg, b, CROWD, lead, &nl);
	np = point_centres(svg, px, py, CROWD);
	CHECK(np == CROWD - 1, "%s: %zu points drawn (39 finite)", what, np);
	CHECK(nb >= 10 && nb < CROWD, "%s: %zu labels placed, the rest left to tooltips", what, nb);
	CHECK(nl >= 1, "%s: %zu labels placed further out with a leader line", what, nl);
	for (i = 0; i < nb; i++) {
		int near = 0;

		for (j = i + 1; j < nb; j++)
			overlap += lbox_hit(&b[i], &b[j]);
		for (j = 0; j < np; j++) {
			struct lbox pb = { px[j] - 4.5, py[j] - 4.5, px[j] + 4.5, py[j] + 4.5 };
			double dx = fmax(fmax(b[i].x0 - px[j], 0), px[j] - b[i].x1);
			double dy = fmax(fmax(b[i].y0 - py[j], 0), py[j] - b[i].y1);

			covers += lbox_hit(&b[i], &pb);
			near |= sqrt(dx * dx + dy * dy) <= 4.5 + 2 + 0.2;
		}
		/* or a leader ends on this box */
		for (j = 0; !near && j < nl; j++)
			near = lead[4 * j + 2] >= b[i].x0 - 0.1 && lead[4 * j + 2] <= b[i].x1 + 0.1 &&
			       lead[4 * j + 3] >= b[i].y0 - 0.1 && lead[4 * j + 3] <= b[i].y1 + 0.1;
		far += !near;
	}
	CHECK(!overlap, "%s: no two label boxes overlap (%zu pairs do)", what, overlap);
	CHECK(!covers, "%s: no label box covers a point (%zu do)", what, covers);
	CHECK(!far, "%s: every label next to a point or led to one (%zu are not)", what, far);
	CHECK(!strstr(svg, "<script") && strstr(svg, HOSTILE1_ESC), "%s: labels escaped", what);
	free(svg);
}

static void
test_point_labels(void)
{
	static const struct svg_frame big = { "crowd", "T", "D", "x", "y", 0, 0, NULL };
	static const struct svg_frame small = { "crowd-s", "T", "D", "x", "y", 300, 180, NULL };

	check_crowd("crowded scatter", &big);
	check_crowd("crowded small scatter", &small);
}

static void
r_scatter(struct buf *b, const void *arg)
{
	static const double x[] = { 0, 1, 2, NAN, 4, 5 };
	static const double y[] = { 2400, 2410, NAN, 2405, 2420, 2415 };
	static const double ye[] = { 5, 4, 6, 3, NAN, 2 };
	static const char *const labels[] = { HOSTILE1, HOSTILE2, HOSTILE3, "d", "e", "f" };
	struct svg_points p = { 6, x, y, NULL, ye, labels, 1, 2400, 3, HOSTILE2, 1 };

	(void)arg;
	svg_scatter(b, &hostile_frame, &p);
}

static void
test_scatter(void)
{
	char *svg = render_twice("scatter", r_scatter, NULL), *d;

	check_common("scatter", svg, "chart-x");
	CHECK(count_of(svg, "<circle class=\"dot\"") == 4, "scatter: 4 points with finite x, y");
	CHECK(count_of(svg, "<path class=\"fit\"") == 1, "scatter: fitted line");
	CHECK(strstr(svg, "<text class=\"note\"") && strstr(svg, ">" HOSTILE2_ESC "</text>"),
	      "scatter: note printed");
	d = path_d(svg, "<path class=\"line s0\"");
	/* points 0 1 | 2 NAN, 3 NAN | 4 5: two runs */
	CHECK(d && count_of(d, "M") == 2 && count_of(d, "L") == 2,
	      "scatter: connect line broken at NAN (d=%s)", d ? d : "(none)");
	free(d);
	CHECK(count_of(svg, "<path class=\"err\"") == 3, "scatter: y error bars where finite");
	free(svg);
}

/* Lines with min-max bands (trials runs): a band per series where lo and
 * hi are finite, hostile labels escaped, well-formed, no NaN printed. */
static void
test_band_lines(void)
{
	static const double x[] = { 1, 4, 16 }, y[] = { 10, 20, 30 };
	static const double lo[] = { 8, 18, 25 }, hi[] = { 12, 22, 35 };
	static const double nan3[] = { NAN, NAN, NAN }, y2[] = { 5, NAN, 7 };
	struct svg_band s[2] = { { "<script>a&b</script>", 3, x, y, lo, hi },
				 { "second", 3, x, y2, nan3, nan3 } };
	struct svg_frame f = { "chart-band", "T", "D", "Connections", "Throughput (req/s)", 0, 0, NULL };
	struct buf out = BUF_INIT;
	const char *err;

	svg_band_lines(&out, &f, 2, s);
	CHECK(count_of(out.ptr, "<path class=\"band ") == 1,
	      "band lines: one band (the second series has no finite range)");
	CHECK(count_of(out.ptr, "<path class=\"line s") >= 2, "band lines: a line per series");
	CHECK(!strstr(out.ptr, "<script>") && strstr(out.ptr, "&lt;script&gt;a&amp;b"),
	      "band lines: labels escaped");
	CHECK(!strstr(out.ptr, "NaN") && !strstr(out.ptr, "nan"), "band lines: no NaN printed");
	err = check_xml(out.ptr);
	CHECK(!err, "band lines well-formed (%s)", err ? err : "ok");
	buf_release(&out);
}

/* Empty and degenerate input still gives a well-formed chart. */
static void
test_empty(void)
{
	struct svg_frame f = { NULL, NULL, NULL, NULL, NULL, -5, 0, NULL };
	struct svg_bars b = { 0, NULL, NULL, NULL, NULL, NULL, 0, 0, 0 };
	struct svg_groups g = { 0, 0, NULL, NULL, NULL, NULL };
	struct svg_stack st = { 0, 0, NULL, NULL, NULL };
	struct svg_points p = { 0, NULL, NULL, NULL, NULL, NULL, 1, NAN, NAN, NULL, 1 };
	static const double one = 7, nan1 = NAN;
	struct svg_bars b1 = { 1, NULL, &nan1, NULL, NULL, NULL, 0, 0, 0 };
	struct svg_points p1 = { 1, &one, &one, NULL, NULL, NULL, 0, 0, 0, NULL, 0 };
	struct buf out = BUF_INIT;
	const char *err;

	svg_bar_chart(&out, &f, &b);
	svg_grouped_bars(&out, &f, &g);
	svg_stacked_bars(&out, &f, &st);
	svg_step_chart(&out, &f, 0, NULL, NULL);
	svg_scatter(&out, &f, &p);
	svg_bar_chart(&out, &f, &b1);
	svg_scatter(&out, &f, &p1);
	CHECK(count_of(out.ptr, "<svg ") == 7 && count_of(out.ptr, "</svg>") == 7,
	      "empty input: 7 charts");
	CHECK(count_of(out.ptr, ">no data</text>") == 5, "empty input: 5 say no data");
	CHECK(strstr(out.ptr, "id=\"chart\" class=\"chart\" viewBox=\"0 0 640 320\""),
	      "no id, bad width: id \"chart\", default size");
	CHECK(!strstr(out.ptr, "NaN") && !strstr(out.ptr, "inf"), "empty input: no NaN/inf");
	/* check_xml wants one root: check the first chart only. */
	out.ptr[strstr(out.ptr, "</svg>") - out.ptr + 6] = '\0';
	err = check_xml(out.ptr);
	CHECK(!err, "empty bar chart well-formed (%s)", err ? err : "ok");
	buf_release(&out);
}

/*
 * Under a decimal-comma LC_NUMERIC (when the system has one; often none
 * is installed and nothing is checked) the output is byte-identical.
 */
static void
test_locale(void)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	if (!th_comma_locale())
		return;
	r_scatter(&a, NULL);
	setlocale(LC_NUMERIC, "C");
	r_scatter(&b, NULL);
	CHECK(a.len == b.len && !memcmp(a.ptr, b.ptr, a.len),
	      "scatter under a decimal-comma locale is byte-identical");
	buf_release(&a);
	buf_release(&b);
}

/* The checker itself must catch what it is there to catch. */
static void
test_checker(void)
{
	CHECK(!check_xml("<svg a=\"1\"><g><rect/></g><text>a &amp; b</text></svg>"), "checker: ok");
	CHECK(check_xml("<svg><g></svg>"), "checker: mismatched end tag");
	CHECK(check_xml("<svg><rect></svg>"), "checker: unclosed rect");
	CHECK(check_xml("<svg><text>a & b</text></svg>"), "checker: bare &");
	CHECK(check_xml("<svg a=\"<\"></svg>"), "checker: < in attribute");
	CHECK(check_xml("<svg></svg><svg></svg>"), "checker: two roots");
	CHECK(check_xml("<svg><g>"), "checker: unclosed");
}

int
main(void)
{
	test_checker();
	test_ticks();
	test_bar_chart();
	test_bar_path();
	test_bar_lone();
	test_bar_marks();
	test_bar_path_columns();
	test_bar_ticks();
	test_bar_layout();
	test_grouped();
	test_styled();
	test_stacked();
	test_steps();
	test_long_trace();
	test_scatter();
	test_point_labels();
	test_band_lines();
	test_empty();
	test_locale();
	return th_done();
}
