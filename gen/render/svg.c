/*
 * svg.c - charts as inline SVG (the contract is in svg.h).
 *
 * Output is one <svg> element, no XML declaration, meant to be inlined in
 * a page.  Every piece of text goes through html.h (html_printf %H/%A, or
 * html_text); numbers are printed by html.h too, so they never depend on
 * the locale, and coordinates always carry one decimal, so the same input
 * gives byte-identical output.
 *
 * Styling is by CSS class only (no style attributes): the page stylesheet
 * gives the colours for light, dark and print.  Classes used:
 *   chart          the <svg> root
 *   s0 .. s7       series colour; sets a CSS variable (--c) that the
 *                  classes below read, so one class serves fill and stroke
 *   bar, key       filled rectangles (bars, legend swatches): fill var(--c)
 *   line           a trace or polyline: stroke var(--c), no fill
 *   dot            a point or an individual value: fill var(--c, ink)
 *   hatch          the strokes inside the hatch patterns (grey-print aid)
 *   err            error whiskers
 *   fit            a fitted line
 *   mark           vertical marker lines (window edges)
 *   axis grid      axis lines with tick marks; grid lines
 *   tick           small text: tick labels, category and point labels
 *   label          axis titles
 *   legend         legend text
 *   note           notes on the chart ("no data", "–", a fit's slope)
 *   leader         a line from a point to its label placed further out
 *   point-labels   the group of a scatter's point labels
 * Layout assumes the stylesheet gives .tick, .legend and .note 11px and
 * .label 12px, and estimates a character as 0.6 em.
 *
 * Grey-scale printing: series differ by colour and also by a hatch
 * pattern (bars: series 1..7 get an overlay of "/", "\", "-", "|", "+",
 * "x", rings), a dash pattern and a marker shape (traces).  Series 8 and
 * up reuse the colours with the patterns shifted by one per round of 8,
 * so no two of the first 64 series look alike.  A series' style is its
 * position unless the frame gives one per series (svg_frame.style): the
 * pages give each target its slot on the page, so a target looks the same
 * in every chart; a bar chart's bars and a scatter's points then take
 * their target's colour, hatch or marker shape too.
 *
 * Numbers: ticks are 1-2-5 steps (svg_ticks); tick labels carry the
 * decimals the step needs (step 0.02: "0.04", "0.10") and group thousands
 * with commas ("200,000"), as do tooltips (4 significant digits).  Value
 * axes of bar charts start at 0 and end on a tick; x-y charts pad the
 * data by 5 % (step charts: y from 0, x the data's time range) and show
 * the ticks inside.  NAN values are skipped, never drawn as 0: a bar
 * without a value shows the missing value ("–", titled "not reported",
 * as in the tables) at its baseline, a NAN sample or point
 * breaks a trace or polyline.
 *
 * Long traces: a step-chart series with more samples than the plot has
 * pixel columns is reduced to the min and max of each column (see
 * steps_reduced()), and the <desc> says so.  The output then grows with
 * the width, not with the number of samples.
 *
 * Axis titles: in the three bar charts ylabel always titles the value
 * axis and xlabel the category axis, whatever the orientation, because a
 * bar chart turns horizontal by itself when its category labels would not
 * fit under the bars (svg_bars.horizontal forces it).  A horizontal chart
 * grows taller than f->height when needed, so each category keeps a row.
 * Tooltips (<title> of each bar or point) read "<label>: <value> <value
 * axis title>", with "± <err>" and "(n=<dots>)" where known.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "render/html.h"
#include "render/numfmt.h"
#include "render/svg.h"
#include "base/util.h"

#define DEF_W 640
#define DEF_H 320
#define MIN_W 240
#define MIN_H 160
#define MAX_DIM 20000

#define CW_SMALL 6.6		/* advance of a character of .tick/.legend/.note */
#define CW_LABEL 7.2		/* advance of a character of .label */
#define NSTYLE 8
#define MAXTICKS 16
#define LEGEND_MAXC 28		/* legend entries are cut to this many characters */
#define LEGEND_ROW 16.0
#define LEGEND_MAX 48		/* more series than this: the rest in tooltips only */
#define POINT_LABELS_MAX 40	/* more points than this: labels in tooltips only */
#define PLABEL_MAXC 16		/* point labels are cut to this many characters */
#define PLABEL_H 12.0		/* a point label's box: 11px text, 9 above the baseline */
#define PLABEL_ASC 9.0
#define POINT_R 4.5		/* what a point covers: circle or marker, with stroke */
#define MARK_LABELS_MAX 64	/* mark labels remembered to say each once */

#define ELLIPSIS "\xe2\x80\xa6"
#define PLUSMINUS "\xc2\xb1"

/* Dash pattern per series (NULL: solid). */
static const char *const dash_pat[NSTYLE] = {
	NULL, "7 3", "2 2", "9 3 2 3", "14 4", "4 2 1 2", "1 3", "10 2 2 2 2 2",
};

/* Marker shape per series, relative to its centre. */
static const char *const marker_d[NSTYLE] = {
	"m-3.5,0a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0z",		/* circle */
	"m-3,-3h6v6h-6z",						/* square */
	"m0,-4.2l4,6.8h-8z",						/* triangle */
	"m0,-4.4l4.4,4.4l-4.4,4.4l-4.4,-4.4z",				/* diamond */
	"m0,4.2l4,-6.8h-8z",						/* triangle down */
	"m-1.3,-4h2.6v2.7h2.7v2.6h-2.7v2.7h-2.6v-2.7h-2.7v-2.6h2.7z",	/* plus */
	"m4.2,0l-6.8,4v-8z",						/* triangle right */
	"m-3.5,-3.5h7l-7,7h7z",						/* hourglass */
};

/* Hatch pattern per series in a 6x6 tile (series 0 stays plain). */
static const char *const hatch_d[NSTYLE] = {
	NULL,
	"M-1,1L1,-1M0,6L6,0M5,7L7,5",
	"M-1,5L1,7M0,0L6,6M5,-1L7,1",
	"M0,3H6",
	"M3,0V6",
	"M0,3H6M3,0V6",
	"M0,0L6,6M6,0L0,6",
	"M1.5,3a1.5,1.5 0 1,0 3,0a1.5,1.5 0 1,0 -3,0",
};

/* ---- small helpers ---------------------------------------------------- */

static double
dmin(double a, double b)
{
	return a < b ? a : b;
}

static double
dmax(double a, double b)
{
	return a > b ? a : b;
}

static const char *
frame_id(const struct svg_frame *f)
{
	return f->id && *f->id ? f->id : "chart";
}

static int
has_text(const char *s)
{
	return s && *s;
}

static void
frame_size(const struct svg_frame *f, int *w, int *h)
{
	*w = f->width > 0 ? f->width : DEF_W;
	*h = f->height > 0 ? f->height : DEF_H;
	*w = *w < MIN_W ? MIN_W : *w > MAX_DIM ? MAX_DIM : *w;
	*h = *h < MIN_H ? MIN_H : *h > MAX_DIM ? MAX_DIM : *h;
}

/* Code points in s (continuation bytes not counted; close enough for
 * invalid UTF-8, which html.c turns into one U+FFFD per bad byte run). */
static size_t
u8_chars(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Bytes of the first max code points of s: never cuts a sequence. */
static size_t
u8_prefix(const char *s, size_t max)
{
	size_t i, n = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (n == max)
				break;
			n++;
		}
	}
	return i;
}

/* Characters of advance cw that fit in px (0 for a negative px). */
static size_t
fit_chars(double px, double cw)
{
	return px > 0 ? (size_t)(px / cw) : 0;
}

/* labels[i], or "#<i+1>" when there is none (written into tmp). */
static const char *
label_at(const char *const *labels, size_t i, char *tmp, size_t cap)
{
	if (labels && labels[i])
		return labels[i];
	snprintf(tmp, cap, "#%zu", i + 1);
	return tmp;
}

/*
 * Untrusted text cut to at most max characters.  A cut text ends in an
 * ellipsis and is preceded by a <title> with the whole text (the tooltip),
 * so this is meant as the content of a <text> element.
 */
static void
put_cut(struct buf *b, const char *s, size_t max)
{
	size_t n = u8_chars(s);

	if (max < 2)
		max = 2;
	if (n <= max) {
		html_printf(b, "%H", s);
		return;
	}
	html_printf(b, "<title>%H</title>", s);
	html_text(b, s, u8_prefix(s, max - 1));
	buf_addstr(b, ELLIPSIS);
}

/* A <text> element of class cls; anchor NULL is "start"; rot turns it
 * by -90 degrees around (x, y). */
static void
text_el(struct buf *b, const char *cls, double x, double y, const char *anchor,
	int rot, const char *s, size_t max)
{
	html_printf(b, "<text class=\"%A\" x=\"%.1f\" y=\"%.1f\"", cls, x, y);
	if (anchor)
		html_printf(b, " text-anchor=\"%A\"", anchor);
	if (rot)
		html_printf(b, " transform=\"rotate(-90 %.1f %.1f)\"", x, y);
	buf_addch(b, '>');
	put_cut(b, s ? s : "", max);
	buf_addstr(b, "</text>");
}

/* A number in a tooltip: 4 significant digits without trailing zeros,
 * grouped in thousands from 1000 up ("184,915", "0.09581"). */
static void
put_num(struct buf *b, double v)
{
	static const struct numfmt sig4 = { NUM_SIG, 4, 0, 1 };

	numfmt_add(b, v, fabs(v) >= 1000 ? NF_THOUS(0) : sig4);
}

/* "<who>[, <who2>]: <value>[ <unit>][ ± <err>][ (n=<n>)]" as a <title>. */
static void
tip(struct buf *b, const char *who, const char *who2, double v, const char *unit,
    double err, size_t n)
{
	html_printf(b, "<title>%H", who);
	if (who2)
		html_printf(b, ", %H", who2);
	buf_addstr(b, ": ");
	put_num(b, v);
	if (has_text(unit))
		html_printf(b, " %H", unit);
	if (isfinite(err) && err > 0) {
		buf_addstr(b, " " PLUSMINUS " ");
		put_num(b, err);
	}
	if (n)
		html_printf(b, " (n=%zu)", n);
	buf_addstr(b, "</title>");
}

/* ---- frame ------------------------------------------------------------ */

static void
svg_open(struct buf *b, const struct svg_frame *f, int w, int h, const char *desc_extra)
{
	const char *id = frame_id(f);

	html_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%A\" class=\"chart\""
		    " viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\""
		    " aria-labelledby=\"%A-title %A-desc\">",
		    id, w, h, id, id);
	html_printf(b, "<title id=\"%A-title\">%H</title>", id, f->title);
	html_printf(b, "<desc id=\"%A-desc\">%H", id, f->desc);
	if (desc_extra)
		html_printf(b, "%H%H", has_text(f->desc) ? " " : "", desc_extra);
	buf_addstr(b, "</desc>");
}

static void
svg_close(struct buf *b)
{
	buf_addstr(b, "</svg>");
}

static size_t shape(size_t k);

/* Style of series (or bar, or point) k: the frame's, else its position. */
static size_t
sty(const struct svg_frame *f, size_t k)
{
	return f->style ? f->style[k] : k;
}

/* Hatch patterns of the styles of series 0 .. n-1 that have one. */
static void
hatch_defs(struct buf *b, const struct svg_frame *f, size_t n)
{
	char used[NSTYLE] = { 0 };
	size_t k, any = 0;

	for (k = 0; k < n; k++)
		if (hatch_d[shape(sty(f, k))] && !used[shape(sty(f, k))]) {
			used[shape(sty(f, k))] = 1;
			any++;
		}
	if (!any)
		return;
	buf_addstr(b, "<defs>");
	for (k = 1; k < NSTYLE; k++)
		if (used[k])
			html_printf(b, "<pattern id=\"%A-h%zu\" width=\"6\" height=\"6\""
				    " patternUnits=\"userSpaceOnUse\"><path class=\"hatch\""
				    " d=\"%R\"/></pattern>", frame_id(f), k, hatch_d[k]);
	buf_addstr(b, "</defs>");
}

/* The hatch of series k laid over a rectangle already written. */
/*
 * Series k has colour k % 8 and pattern (hatch, dash, marker) shape(k):
 * the same index for the first 8, shifted by one per round after that,
 * so series 8 (colour 0, pattern 1) differs from both 0 and 1.
 */
static size_t
shape(size_t k)
{
	return (k + k / NSTYLE) % NSTYLE;
}

static void
hatch_over(struct buf *b, const char *id, size_t k, double x, double y, double w, double h)
{
	if (!hatch_d[shape(k)])
		return;
	html_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		    " fill=\"url(#%A-h%zu)\" pointer-events=\"none\"/>",
		    x, y, w, h, id, shape(k));
}

static void
dash_attr(struct buf *b, size_t k)
{
	if (dash_pat[shape(k)])
		html_printf(b, " stroke-dasharray=\"%A\"", dash_pat[shape(k)]);
}

/* The marker of style k at (x, y), left open (for a <title>) when open. */
static void
marker_el(struct buf *b, size_t k, double x, double y, int open)
{
	html_printf(b, "<path class=\"dot s%zu\" d=\"M%.1f,%.1f%R\"%R", k % NSTYLE, x, y,
		    marker_d[shape(k)], open ? ">" : "/>");
}

static void
marker(struct buf *b, size_t k, double x, double y)
{
	marker_el(b, k, x, y, 0);
}

enum { KEY_BAR, KEY_LINE };

/*
 * Legend entries in rows from (x0, y0) to xmax; returns the number of
 * rows.  With draw == 0 only counts, so a layout can reserve the space.
 */
static int
legend(struct buf *b, const struct svg_frame *f, int draw, int kind, size_t n,
       const char *const *labels, double x0, double y0, double xmax)
{
	const char *id = f ? frame_id(f) : NULL;

	double x = x0, y = y0;
	int rows = 1;
	size_t i;
	char tmp[32];

	if (draw)
		buf_addstr(b, "<g class=\"legend\">");
	for (i = 0; i < n && i <= LEGEND_MAX; i++) {
		const char *s = label_at(labels, i, tmp, sizeof(tmp));
		size_t c;
		double w;

		if (i == LEGEND_MAX) {
			snprintf(tmp, sizeof(tmp), "(%zu more)", n - i);
			s = tmp;
		}
		c = u8_chars(s);
		w = 26 + (double)(c < LEGEND_MAXC ? c : LEGEND_MAXC) * CW_SMALL + 14;
		if (x > x0 && x + w > xmax) {
			rows++;
			x = x0;
			y += LEGEND_ROW;
		}
		if (draw && i == LEGEND_MAX) {
			text_el(b, "legend", x, y, NULL, 0, s, LEGEND_MAXC);
		} else if (draw) {
			size_t k = sty(f, i);

			if (kind == KEY_BAR) {
				html_printf(b, "<rect class=\"key s%zu\" x=\"%.1f\" y=\"%.1f\""
					    " width=\"18\" height=\"11\"/>",
					    k % NSTYLE, x, y - 9);
				hatch_over(b, id, k, x, y - 9, 18, 11);
			} else {
				html_printf(b, "<path class=\"line s%zu\" d=\"M%.1f,%.1fH%.1f\"",
					    k % NSTYLE, x, y - 4, x + 22);
				dash_attr(b, k);
				buf_addstr(b, "/>");
				marker(b, k, x + 11, y - 4);
			}
			text_el(b, "legend", x + 26, y, NULL, 0, s, LEGEND_MAXC);
		}
		x += w;
	}
	if (draw)
		buf_addstr(b, "</g>");
	return rows;
}

static void
no_data(struct buf *b, double cx, double cy)
{
	text_el(b, "note", cx, cy, "middle", 0, "no data", 20);
}

/* ---- ticks and axes --------------------------------------------------- */

/*
 * The rule: the smallest step in {1, 2, 5} x 10^k, trying upwards from
 * 10^floor(log10((hi - lo) / (max - 1))), whose ticks floor(lo / step) ..
 * ceil(hi / step) (times step) number at most max.  So the ticks cover
 * [lo, hi], start and end on a multiple of the step, and a label needs
 * exactly -k decimals.  lo == hi is widened by 10 % of |lo| each side
 * (by 1 around 0); bounds given high-low are swapped.  No ticks for
 * non-finite bounds, max < 2, or max 2 with 0 strictly inside the range
 * (-step, 0, step is the fewest possible there).
 */
size_t
svg_ticks(double lo, double hi, size_t max, double *t, double *step)
{
	double span, s, p10;
	double i0, i1;
	int k, m;
	static const double mant[] = { 1, 2, 5 };

	if (step)
		*step = 0;
	if (!isfinite(lo) || !isfinite(hi) || max < 2 || !t)
		return 0;
	if (lo > hi) {
		double x = lo;

		lo = hi;
		hi = x;
	}
	if (lo == hi) {
		double d = lo == 0 ? 1 : fabs(lo) * 0.1;

		lo -= d;
		hi += d;
	}
	/* Divide before subtracting, so [-DBL_MAX, DBL_MAX] cannot overflow. */
	span = hi / (double)(max - 1) - lo / (double)(max - 1);
	if (!(span > 0) || !isfinite(span))
		return 0;
	k = (int)floor(log10(span));
	for (;; k++) {
		p10 = pow(10, k);
		if (!isfinite(p10))
			return 0;
		for (m = 0; m < 3; m++) {
			size_t n, i;

			s = mant[m] * p10;
			i0 = floor(lo / s + 1e-9);
			i1 = ceil(hi / s - 1e-9);
			if (i1 - i0 + 1 > (double)max) {
				/* Past this, -s 0 s (or 0 s) stays the answer: only
				 * max 2 with 0 strictly inside gets here. */
				if (s > 2 * dmax(fabs(lo), fabs(hi)))
					return 0;
				continue;
			}
			n = (size_t)(i1 - i0) + 1;
			for (i = 0; i < n; i++) {
				t[i] = (i0 + (double)i) * s;
				if (t[i] == 0)
					t[i] = 0;	/* no -0 */
			}
			if (step)
				*step = s;
			return n;
		}
	}
}

/* Decimals a label needs for a 1-2-5 step: 0.5 -> 1, 0.05 -> 2. */
static int
step_decimals(double step)
{
	if (!(step > 0) || !isfinite(step) || step >= 1)
		return 0;
	return (int)ceil(-log10(step) - 1e-9);
}

struct axis {
	double lo, hi;		/* value range mapped onto the plot, lo < hi */
	double t[MAXTICKS];	/* ticks shown */
	size_t nt;
	double step;
	int dec;		/* decimals of the tick labels */
	int pct;		/* shares 0..1, labelled as percent */
	size_t wide;		/* characters of the longest tick label */
};

/* Tick label: fixed decimals, thousands separated by commas. */
static void
tick_text(struct buf *b, const struct axis *a, double v)
{
	numfmt_add(b, v, a->pct ? (struct numfmt){ NUM_PCT, a->dec, 4, 0 } : NF_THOUS(a->dec));
	if (a->pct)
		buf_addch(b, '%');
}

/*
 * Ticks for [lo, hi].  extend: the axis becomes the ticks' range (value
 * axes of bar charts end on a tick); otherwise it stays [lo, hi] and only
 * the ticks inside are shown.
 */
static void
axis_make(struct axis *a, double lo, double hi, size_t maxt, int extend, int pct)
{
	double t[MAXTICKS], step;
	size_t n, i;
	struct buf tmp = BUF_INIT;

	memset(a, 0, sizeof(*a));
	a->pct = pct;
	if (maxt > MAXTICKS)
		maxt = MAXTICKS;
	if (maxt < 2)
		maxt = 2;
	n = svg_ticks(lo, hi, maxt, t, &step);
	if (!n) {
		lo = 0;
		hi = 1;
		n = svg_ticks(lo, hi, maxt, t, &step);
	}
	if (lo > hi) {
		double x = lo;

		lo = hi;
		hi = x;
	}
	if (extend || !(lo < hi)) {
		a->lo = t[0];
		a->hi = t[n - 1];
		memcpy(a->t, t, n * sizeof(*t));
		a->nt = n;
	} else {
		double eps = step * 1e-6;

		a->lo = lo;
		a->hi = hi;
		for (i = 0; i < n; i++)
			if (t[i] >= lo - eps && t[i] <= hi + eps)
				a->t[a->nt++] = t[i];
	}
	a->step = step;
	a->dec = step_decimals(pct ? step * 100 : step);
	for (i = 0; i < a->nt; i++) {
		buf_reset(&tmp);
		tick_text(&tmp, a, a->t[i]);
		if (tmp.len > a->wide)
			a->wide = tmp.len;
	}
	buf_release(&tmp);
}

/*
 * An axis of len pixels whose labels must not collide: as many ticks as
 * fit (about one per 64 px across, 36 px up), fewer when labels are wide.
 */
static void
axis_fit(struct axis *a, double lo, double hi, double len, int across, int extend, int pct)
{
	size_t maxt = fit_chars(len, across ? 64 : 36) + 1;

	if (maxt > 11)
		maxt = 11;
	if (maxt < 3)
		maxt = 3;
	for (;;) {
		double gap;

		axis_make(a, lo, hi, maxt, extend, pct);
		gap = len / (a->hi - a->lo) * a->step;
		if (maxt <= 3 || gap >= (across ? (double)a->wide * CW_SMALL + 10 : 16))
			return;
		maxt--;
	}
}

struct plot {
	int w, h;			/* viewBox */
	double x0, x1, y0, y1;		/* plot area: left, right, top, bottom */
};

static double
map_x(const struct plot *p, const struct axis *a, double v)
{
	return p->x0 + (v - a->lo) / (a->hi - a->lo) * (p->x1 - p->x0);
}

static double
map_y(const struct plot *p, const struct axis *a, double v)
{
	return p->y1 - (v - a->lo) / (a->hi - a->lo) * (p->y1 - p->y0);
}

/* Tick label centred under x, kept inside the viewBox. */
static void
xtick_label(struct buf *b, const struct plot *p, const struct axis *a, double x, double v)
{
	struct buf t = BUF_INIT;
	double half;
	const char *anchor = "middle";

	tick_text(&t, a, v);
	half = (double)t.len * CW_SMALL / 2;
	if (x + half > p->w - 2) {
		x = p->w - 2;
		anchor = "end";
	} else if (x - half < 2) {
		x = 2;
		anchor = NULL;
	}
	text_el(b, "tick", x, p->y1 + 17, anchor, 0, t.ptr, 40);
	buf_release(&t);
}

static void
ytick_label(struct buf *b, const struct plot *p, const struct axis *a, double y, double v)
{
	struct buf t = BUF_INIT;

	tick_text(&t, a, v);
	text_el(b, "tick", p->x0 - 8, y + 3.8, "end", 0, t.ptr, 40);
	buf_release(&t);
}

/* x axis title under the tick labels, y axis title turned at the left. */
static void
axis_titles(struct buf *b, const struct plot *p, const char *xlabel, const char *ylabel)
{
	if (has_text(xlabel))
		text_el(b, "label", (p->x0 + p->x1) / 2, p->y1 + 37, "middle", 0, xlabel,
			fit_chars(p->x1 - p->x0, CW_LABEL));
	if (has_text(ylabel))
		text_el(b, "label", 15, (p->y0 + p->y1) / 2, "middle", 1, ylabel,
			fit_chars(p->y1 - p->y0, CW_LABEL));
}

/* Grid, axes, ticks and titles of an x-y chart. */
static void
xy_axes(struct buf *b, const struct svg_frame *f, const struct plot *p,
	const struct axis *ax, const struct axis *ay)
{
	size_t i;

	buf_addstr(b, "<path class=\"grid\" d=\"");
	for (i = 0; i < ay->nt; i++)
		html_printf(b, "M%.1f,%.1fH%.1f", p->x0, map_y(p, ay, ay->t[i]), p->x1);
	for (i = 0; i < ax->nt; i++)
		html_printf(b, "M%.1f,%.1fV%.1f", map_x(p, ax, ax->t[i]), p->y0, p->y1);
	buf_addstr(b, "\"/>");
	html_printf(b, "<path class=\"axis\" d=\"M%.1f,%.1fV%.1fH%.1f", p->x0, p->y0, p->y1, p->x1);
	for (i = 0; i < ay->nt; i++)
		html_printf(b, "M%.1f,%.1fH%.1f", p->x0 - 5, map_y(p, ay, ay->t[i]), p->x0);
	for (i = 0; i < ax->nt; i++)
		html_printf(b, "M%.1f,%.1fV%.1f", map_x(p, ax, ax->t[i]), p->y1, p->y1 + 5);
	buf_addstr(b, "\"/>");
	for (i = 0; i < ay->nt; i++)
		ytick_label(b, p, ay, map_y(p, ay, ay->t[i]), ay->t[i]);
	for (i = 0; i < ax->nt; i++)
		xtick_label(b, p, ax, map_x(p, ax, ax->t[i]), ax->t[i]);
	axis_titles(b, p, f->xlabel, f->ylabel);
}

/* Left margin for y tick labels (and the turned y title). */
static double
left_margin(const struct axis *ay, const char *ylabel)
{
	return 10 + (has_text(ylabel) ? 20 : 0) + (double)ay->wide * CW_SMALL + 8;
}

/* A legend of many rows must not squash the plot: grow the viewBox. */
static void
grow_for_plot(int *h, double top, double bottom)
{
	if (*h < top + bottom + 100)
		*h = (int)dmin(ceil(top + bottom + 100), MAX_DIM);
}

static double
bottom_margin(const char *xlabel)
{
	return 6 + 17 + (has_text(xlabel) ? 20 : 0) + 6;
}

/* ---- bar charts: categories along one axis, values along the other ---- */

struct cat {
	struct plot p;
	struct axis a;		/* value axis */
	int horiz;		/* categories on the y axis */
	size_t n;		/* categories */
	size_t maxc;		/* characters a category label may use */
	double legend_y;	/* baseline of the first legend row */
};

/* Start of band i along the category axis, in pixels. */
static double
band0(const struct cat *c, size_t i)
{
	if (c->horiz)
		return c->p.y0 + (c->p.y1 - c->p.y0) * (double)i / (double)c->n;
	return c->p.x0 + (c->p.x1 - c->p.x0) * (double)i / (double)c->n;
}

static double
bandw(const struct cat *c)
{
	return (c->horiz ? c->p.y1 - c->p.y0 : c->p.x1 - c->p.x0) / (double)c->n;
}

/* Pixel position of value v along the value axis. */
static double
vpos(const struct cat *c, double v)
{
	if (v < c->a.lo)
		v = c->a.lo;
	if (v > c->a.hi)
		v = c->a.hi;
	return c->horiz ? map_x(&c->p, &c->a, v) : map_y(&c->p, &c->a, v);
}

/* (category pixel, value pixel) to (x, y). */
static void
cpt(const struct cat *c, double cp, double vp, double *x, double *y)
{
	*x = c->horiz ? vp : cp;
	*y = c->horiz ? cp : vp;
}

/* Geometry of the rectangle spanning [ca, cb] x [va, vb] (pixels). */
static void
crect(const struct cat *c, double ca, double cb, double va, double vb,
      double *x, double *y, double *w, double *h)
{
	double v0 = dmin(va, vb), v1 = dmax(va, vb);

	if (c->horiz) {
		*x = v0;
		*w = v1 - v0;
		*y = ca;
		*h = cb - ca;
	} else {
		*x = ca;
		*w = cb - ca;
		*y = v0;
		*h = v1 - v0;
	}
}

/* Opens <rect class="bar sK" ...> (the caller adds children and closes). */
static void
bar_open(struct buf *b, const struct cat *c, size_t k, double ca, double cb,
	 double va, double vb, double *x, double *y, double *w, double *h)
{
	crect(c, ca, cb, va, vb, x, y, w, h);
	html_printf(b, "<rect class=\"bar s%zu\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
		    " height=\"%.1f\">", k % NSTYLE, *x, *y, *w, *h);
}

/* Whisker from v-err to v+err at category pixel cp, caps cap px wide. */
static void
whisker(struct buf *b, const struct cat *c, double cp, double v, double err, double cap)
{
	double pa, pb;

	if (!isfinite(v) || !isfinite(err) || err <= 0)
		return;
	pa = vpos(c, v - err);
	pb = vpos(c, v + err);
	if (c->horiz)
		html_printf(b, "<path class=\"err\" d=\"M%.1f,%.1fH%.1fM%.1f,%.1fV%.1fM%.1f,%.1fV%.1f\"/>",
			    pa, cp, pb, pa, cp - cap, cp + cap, pb, cp - cap, cp + cap);
	else
		html_printf(b, "<path class=\"err\" d=\"M%.1f,%.1fV%.1fM%.1f,%.1fH%.1fM%.1f,%.1fH%.1f\"/>",
			    cp, pa, pb, cp - cap, pa, cp + cap, cp - cap, pb, cp + cap);
}

/*
 * Lays out a bar chart of n categories with values in [lo, hi] (0 is
 * always included) and a legend of nlegend entries above the plot.
 * Vertical if every label fits under its bar and not force_horiz;
 * otherwise horizontal with at least row px per category, the viewBox
 * growing taller when needed.
 */
static void
cat_layout(struct cat *c, const struct svg_frame *f, size_t n, const char *const *labels,
	   double lo, double hi, int pct, int force_horiz, double row,
	   size_t nlegend, const char *const *legend_labels, int legend_kind)
{
	size_t i, longest = 0;
	double legend_h = 0, top, bottom, left, right;
	char tmp[32];

	memset(c, 0, sizeof(*c));
	frame_size(f, &c->p.w, &c->p.h);
	c->n = n;
	for (i = 0; i < n; i++) {
		size_t k = u8_chars(label_at(labels, i, tmp, sizeof(tmp)));

		if (k > longest)
			longest = k;
	}
	lo = dmin(lo, 0);
	hi = dmax(hi, 0);
	if (!(lo < hi))
		hi = lo + 1;
	if (nlegend > 1)
		legend_h = legend(NULL, NULL, 0, legend_kind, nlegend, legend_labels,
				  10, 0, c->p.w - 10) * LEGEND_ROW + 8;
	c->legend_y = 10 + 11;

	/* Vertical, if the labels fit. */
	top = 14 + legend_h;
	bottom = bottom_margin(f->xlabel);
	c->p.y0 = top;
	grow_for_plot(&c->p.h, top, bottom);
	c->p.y1 = c->p.h - bottom;
	axis_fit(&c->a, lo, hi, c->p.y1 - c->p.y0, 0, 1, pct);
	left = dmin(left_margin(&c->a, f->ylabel), c->p.w * 0.5);
	c->p.x0 = left;
	c->p.x1 = c->p.w - 12;
	if (!force_horiz && (n == 0 || (double)longest * CW_SMALL <= bandw(c) - 6)) {
		c->maxc = longest;
		return;
	}

	/* Horizontal. */
	c->horiz = 1;
	c->maxc = fit_chars(c->p.w * 0.4, CW_SMALL);
	if (c->maxc > longest)
		c->maxc = longest;
	if (c->maxc < 4)
		c->maxc = 4;
	top = 12 + legend_h + (has_text(f->xlabel) ? 18 : 0);
	bottom = bottom_margin(f->ylabel);
	if (c->p.h < top + bottom + (double)n * row)
		c->p.h = (int)dmin(ceil(top + bottom + (double)n * row), MAX_DIM);
	c->p.y0 = top;
	c->p.y1 = c->p.h - bottom;
	c->p.x0 = 10 + (double)c->maxc * CW_SMALL + 8;
	right = 16;
	for (i = 0; i < 2; i++) {
		double need;

		c->p.x1 = c->p.w - right;
		axis_fit(&c->a, lo, hi, c->p.x1 - c->p.x0, 1, 1, pct);
		need = (double)c->a.wide * CW_SMALL / 2 + 4;
		if (need <= right)
			break;
		right = need;
	}
}

/* Grid, value ticks, category labels and titles (before the bars). */
static void
cat_axes(struct buf *b, const struct svg_frame *f, const struct cat *c,
	 const char *const *labels)
{
	const struct plot *p = &c->p;
	size_t i;
	char tmp[32];

	buf_addstr(b, "<path class=\"grid\" d=\"");
	for (i = 0; i < c->a.nt; i++) {
		double v = vpos(c, c->a.t[i]);

		if (c->horiz)
			html_printf(b, "M%.1f,%.1fV%.1f", v, p->y0, p->y1);
		else
			html_printf(b, "M%.1f,%.1fH%.1f", p->x0, v, p->x1);
	}
	buf_addstr(b, "\"/>");
	for (i = 0; i < c->a.nt; i++) {
		if (c->horiz)
			xtick_label(b, p, &c->a, vpos(c, c->a.t[i]), c->a.t[i]);
		else
			ytick_label(b, p, &c->a, vpos(c, c->a.t[i]), c->a.t[i]);
	}
	for (i = 0; i < c->n; i++) {
		const char *s = label_at(labels, i, tmp, sizeof(tmp));
		double mid = band0(c, i) + bandw(c) / 2;

		if (c->horiz)
			text_el(b, "tick", p->x0 - 8, mid + 3.8, "end", 0, s, c->maxc);
		else
			text_el(b, "tick", mid, p->y1 + 17, "middle", 0, s, c->maxc);
	}
	if (c->horiz) {
		/* value title under the ticks, category title above the labels */
		if (has_text(f->ylabel))
			text_el(b, "label", (p->x0 + p->x1) / 2, p->y1 + 37, "middle", 0,
				f->ylabel, fit_chars(p->x1 - p->x0, CW_LABEL));
		if (has_text(f->xlabel))
			text_el(b, "label", p->x0 - 8, p->y0 - 8, "end", 0, f->xlabel,
				fit_chars(p->x0 - 10, CW_LABEL));
	} else {
		axis_titles(b, p, f->xlabel, f->ylabel);
	}
	if (c->n == 0)
		no_data(b, (p->x0 + p->x1) / 2, (p->y0 + p->y1) / 2);
}

/* Value axis with tick marks and the zero baseline (after the bars). */
static void
cat_lines(struct buf *b, const struct cat *c)
{
	const struct plot *p = &c->p;
	double z = vpos(c, 0);
	size_t i;

	if (c->horiz) {
		html_printf(b, "<path class=\"axis\" d=\"M%.1f,%.1fH%.1fM%.1f,%.1fV%.1f",
			    p->x0, p->y1, p->x1, z, p->y0, p->y1);
		for (i = 0; i < c->a.nt; i++)
			html_printf(b, "M%.1f,%.1fV%.1f", vpos(c, c->a.t[i]), p->y1, p->y1 + 5);
	} else {
		html_printf(b, "<path class=\"axis\" d=\"M%.1f,%.1fV%.1fM%.1f,%.1fH%.1f",
			    p->x0, p->y0, p->y1, p->x0, z, p->x1);
		for (i = 0; i < c->a.nt; i++)
			html_printf(b, "M%.1f,%.1fH%.1f", p->x0 - 5, vpos(c, c->a.t[i]), p->x0);
	}
	buf_addstr(b, "\"/>");
}

/* The missing value at the baseline of a bar that has no value (not a
 * zero bar), titled as in the tables. */
static void
not_reported(struct buf *b, const struct cat *c, double cp)
{
	double x, y;

	cpt(c, cp, vpos(c, 0), &x, &y);
	if (c->horiz)
		html_printf(b, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">", x + 4, y + 3.8);
	else
		html_printf(b, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			    x, y - 4);
	buf_addstr(b, "<title>" NUM_MISSING_TITLE "</title>" NUM_MISSING "</text>");
}

/*
 * A path through many points, at the 0.1 unit the coordinates are written
 * in (issue 19: a chart over every run of a large archive must not grow
 * with it).  Points that share a column (the same x as written) are drawn
 * as the first, the lowest, the highest and the last of them: within a
 * column a continuous path covers every y between its extremes, and the
 * segments between columns are the original ones, so the ink is the
 * same; a chart has at most four points per column (~5,500 columns
 * across a plot 553 units wide), whatever the number of runs.
 */
struct colpath {
	struct buf *out;
	int have;		/* a column is open */
	int pen;		/* the line goes on (L), else it starts (M) */
	int lone;		/* the line so far is one point: no ink */
	long x, first, lo, hi, last;	/* tenths */
};

/* v as "%.1f" writes it, in tenths: its digits, whatever character the
 * locale puts between them (no allocation: three calls a point). */
static long
tenths(double v)
{
	char tmp[512];
	const char *p;
	long t = 0;
	int neg;

	snprintf(tmp, sizeof(tmp), "%.1f", v);
	neg = tmp[0] == '-';
	for (p = tmp + neg; *p; p++)
		if (*p >= '0' && *p <= '9')
			t = t * 10 + (*p - '0');
	return neg ? -t : t;
}

static void
put_tenths(struct buf *b, long t)
{
	if (t < 0)
		buf_addch(b, '-');
	t = t < 0 ? -t : t;
	buf_addf(b, "%ld.%ld", t / 10, t % 10);
}

/* Move the pen to y in the open column (V), unless it is there. */
static void
col_to(struct colpath *c, long *at, long y)
{
	if (*at == y)
		return;
	buf_addch(c->out, 'V');
	put_tenths(c->out, y);
	*at = y;
}

static void
col_flush(struct colpath *c)
{
	long at;

	if (!c->have)
		return;
	buf_addch(c->out, c->pen ? 'L' : 'M');
	put_tenths(c->out, c->x);
	buf_addch(c->out, ',');
	put_tenths(c->out, c->first);
	c->lone = !c->pen && c->lo == c->hi;
	at = c->first;
	/* the nearer extreme first: fewer reversals */
	if (c->first - c->lo <= c->hi - c->first) {
		col_to(c, &at, c->lo);
		col_to(c, &at, c->hi);
	} else {
		col_to(c, &at, c->hi);
		col_to(c, &at, c->lo);
	}
	col_to(c, &at, c->last);
	c->have = 0;
	c->pen = 1;
}

static void
col_point(struct colpath *c, double x, double y)
{
	long tx = tenths(x), ty = tenths(y);

	if (c->have && tx == c->x) {
		c->lo = ty < c->lo ? ty : c->lo;
		c->hi = ty > c->hi ? ty : c->hi;
		c->last = ty;
		return;
	}
	col_flush(c);
	c->have = 1;
	c->x = tx;
	c->first = c->lo = c->hi = c->last = ty;
}

/* A gap in the line, or its end: the next point starts it again.  A
 * value alone between two gaps would draw nothing: a zero-length
 * segment, which the path's round caps draw as a dot. */
static void
col_break(struct colpath *c)
{
	col_flush(c);
	if (c->lone)
		buf_addstr(c->out, "h0");
	c->lone = 0;
	c->pen = 0;
}

/*
 * Whiskers, vertical segments: those of one column merged where they
 * overlap or touch (any order: alternating runs interleave them), each
 * left drawn from its bottom (hi, in SVG's y) up.
 */
struct colwhiskers {
	struct buf *out;
	int have;
	long x;
	long (*iv)[2];		/* disjoint [lo, hi], tenths */
	size_t n, alloc;
};

static int
cmp_iv(const void *pa, const void *pb)
{
	const long *a = pa, *b = pb;

	return a[0] < b[0] ? -1 : a[0] > b[0];
}

static void
colw_flush(struct colwhiskers *w)
{
	size_t i;

	if (!w->have)
		return;
	if (w->n > 1)
		qsort(w->iv, w->n, sizeof(*w->iv), cmp_iv);
	for (i = 0; i < w->n; i++) {
		buf_addch(w->out, 'M');
		put_tenths(w->out, w->x);
		buf_addch(w->out, ',');
		put_tenths(w->out, w->iv[i][1]);
		buf_addch(w->out, 'V');
		put_tenths(w->out, w->iv[i][0]);
	}
	w->n = 0;
	w->have = 0;
}

static void
colw_add(struct colwhiskers *w, double x, double y0, double y1)
{
	long tx = tenths(x), a = tenths(y0), b = tenths(y1), lo = a < b ? a : b,
	     hi = a < b ? b : a;
	size_t i;

	if (!w->have || tx != w->x) {
		colw_flush(w);
		w->have = 1;
		w->x = tx;
	}
	/* absorb every interval it meets; what is left stays disjoint */
	for (i = 0; i < w->n;) {
		if (w->iv[i][0] <= hi && w->iv[i][1] >= lo) {
			lo = w->iv[i][0] < lo ? w->iv[i][0] : lo;
			hi = w->iv[i][1] > hi ? w->iv[i][1] : hi;
			w->iv[i][0] = w->iv[w->n - 1][0];
			w->iv[i][1] = w->iv[w->n - 1][1];
			w->n--;
		} else {
			i++;
		}
	}
	ALLOC_GROW(w->iv, w->n + 1, w->alloc);
	w->iv[w->n][0] = lo;
	w->iv[w->n][1] = hi;
	w->n++;
}

size_t
svg_bars_marks_max(const struct svg_bars *b)
{
	return b->marks_max ? b->marks_max : SVG_MARKS_MAX;
}

/* Bars and dots of a series, counted up to just past its budget. */
static size_t
series_marks(const struct svg_bars *b)
{
	size_t i, marks = b->n, max = svg_bars_marks_max(b);

	for (i = 0; b->series && b->dots && b->ndots && i < b->n && marks <= max; i++)
		if (b->dots[i])
			marks += b->ndots[i];
	return b->series ? marks : 0;
}

int
svg_bars_as_line(const struct svg_bars *b)
{
	if (b->horizontal || !b->value)
		return 0;
	size_t max = svg_bars_marks_max(b), few = max < SVG_SERIES_FEW ? max : SVG_SERIES_FEW;

	/* a few bars stay bars, but not past a budget smaller than them */
	return b->n > SVG_BARS_MAX || (b->n > few && series_marks(b) > max);
}

int
svg_bars_dots_dropped(const struct svg_bars *b)
{
	return b->value && !svg_bars_as_line(b) && series_marks(b) > svg_bars_marks_max(b);
}

/*
 * More than SVG_BARS_MAX bars: one line through every mean, in order, as
 * one path, and the ±err whiskers as one more (a bar, a tooltip and a
 * dot per round each would make the page grow with the archive: 1.4 MB
 * of charts for 520 runs, issue 19).  What a tooltip per bar told is
 * summed up in the description: the count, the first and last values.
 */
static void
bar_path_chart(struct buf *out, const struct svg_frame *f, const struct svg_bars *bars)
{
	struct plot p;
	struct axis ax, ay;
	struct buf d = BUF_INIT;
	double lo = 0, hi = 0;
	size_t i, n = bars->n, any = 0, first = n, last = n, k = f->style ? f->style[0] : 0;
	int errs = 0;
	char tmp[32];

	for (i = 0; i < n; i++) {
		double v = bars->value[i], e = bars->err ? bars->err[i] : NAN;

		if (!isfinite(v))
			continue;
		if (isfinite(e) && e > 0) {
			lo = dmin(lo, v - e);
			hi = dmax(hi, v + e);
			errs = 1;
		}
		lo = dmin(lo, v);
		hi = dmax(hi, v);
		if (first == n)
			first = i;
		last = i;
		any++;
	}
	if (hi <= lo)
		hi = lo + 1;
	if (n > SVG_BARS_MAX)
		buf_addf(&d, "One line through the %zu values in order (more than %d: no bar, "
			    "tooltip or dot each", any, SVG_BARS_MAX);
	else
		buf_addf(&d, "One line through the %zu values in order (with their dots more "
			    "than %zu marks: no bar, tooltip or dot each", any,
			    svg_bars_marks_max(bars));
	buf_addstr(&d, errs ? "; whiskers " PLUSMINUS " the error)" : ")");
	if (any) {
		buf_addf(&d, ": first %s, ", label_at(bars->labels, first, tmp, sizeof(tmp)));
		put_num(&d, bars->value[first]);
		buf_addf(&d, "; last %s, ", label_at(bars->labels, last, tmp, sizeof(tmp)));
		put_num(&d, bars->value[last]);
		if (has_text(f->ylabel))
			buf_addf(&d, " %s", f->ylabel);
	}
	buf_addstr(&d, ".");
	frame_size(f, &p.w, &p.h);
	p.y0 = 12;
	p.y1 = p.h - bottom_margin(f->xlabel);
	axis_fit(&ay, lo, hi, p.y1 - p.y0, 0, 0, 0);
	p.x0 = dmin(left_margin(&ay, f->ylabel), p.w * 0.5);
	p.x1 = p.w - 16;
	axis_fit(&ax, 1, (double)(n > 1 ? n : 2), p.x1 - p.x0, 1, 0, 0);
	svg_open(out, f, p.w, p.h, d.ptr);
	xy_axes(out, f, &p, &ax, &ay);
	if (!any)
		no_data(out, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2);
	if (errs) {
		struct colwhiskers w = { out, 0, 0, NULL, 0, 0 };

		buf_addstr(out, "<path class=\"err\" d=\"");
		for (i = 0; i < n; i++) {
			double v = bars->value[i], e = bars->err ? bars->err[i] : NAN;

			if (isfinite(v) && isfinite(e) && e > 0)
				colw_add(&w, map_x(&p, &ax, (double)(i + 1)),
					 map_y(&p, &ay, v - e), map_y(&p, &ay, v + e));
		}
		colw_flush(&w);
		free(w.iv);
		buf_addstr(out, "\"/>");
	}
	if (any) {
		struct colpath c = { out, 0, 0, 0, 0, 0, 0, 0, 0 };

		html_printf(out, "<path class=\"line s%zu\" d=\"", k % NSTYLE);
		for (i = 0; i < n; i++) {
			if (!isfinite(bars->value[i]))
				col_break(&c);
			else
				col_point(&c, map_x(&p, &ax, (double)(i + 1)),
					  map_y(&p, &ay, bars->value[i]));
		}
		col_break(&c);
		html_printf(out, "\" stroke-linecap=\"round\"><title>%H</title></path>", d.ptr);
	}
	svg_close(out);
	buf_release(&d);
}

void
svg_bar_chart(struct buf *out, const struct svg_frame *f, const struct svg_bars *bars)
{
	struct cat c;
	double lo = 0, hi = 0;
	size_t i, j, n = bars->value ? bars->n : 0;
	int dots = !svg_bars_dots_dropped(bars);
	char tmp[32];

	if (svg_bars_as_line(bars)) {
		bar_path_chart(out, f, bars);
		return;
	}

	for (i = 0; i < n; i++) {
		double v = bars->value[i], e = bars->err ? bars->err[i] : NAN;

		if (isfinite(v)) {
			if (isfinite(e) && e > 0) {
				lo = dmin(lo, v - e);
				hi = dmax(hi, v + e);
			}
			lo = dmin(lo, v);
			hi = dmax(hi, v);
		}
		if (dots && bars->dots && bars->dots[i] && bars->ndots)
			for (j = 0; j < bars->ndots[i]; j++)
				if (isfinite(bars->dots[i][j])) {
					lo = dmin(lo, bars->dots[i][j]);
					hi = dmax(hi, bars->dots[i][j]);
				}
	}
	cat_layout(&c, f, n, bars->labels, lo, hi, 0, bars->horizontal, 22, 0, NULL, KEY_BAR);
	svg_open(out, f, c.p.w, c.p.h, NULL);
	if (f->style)
		hatch_defs(out, f, n);
	cat_axes(out, f, &c, bars->labels);
	for (i = 0; i < n; i++) {
		const char *s = label_at(bars->labels, i, tmp, sizeof(tmp));
		double v = bars->value[i], e = bars->err ? bars->err[i] : NAN;
		double bw = bandw(&c), mid = band0(&c, i) + bw / 2, half = bw * 0.3;
		size_t nd = bars->dots && bars->dots[i] && bars->ndots ? bars->ndots[i] : 0;
		double x, y, w, h;

		if (isfinite(v)) {
			size_t k = f->style ? f->style[i] : 0;

			bar_open(out, &c, k, mid - half, mid + half, vpos(&c, 0), vpos(&c, v),
				 &x, &y, &w, &h);
			tip(out, s, NULL, v, f->ylabel, e, nd);
			buf_addstr(out, "</rect>");
			if (f->style)
				hatch_over(out, frame_id(f), k, x, y, w, h);
			whisker(out, &c, mid, v, e, dmin(6, half * 0.5));
		} else {
			not_reported(out, &c, mid);
		}
		for (j = 0; dots && j < nd; j++) {
			double d = bars->dots[i][j];
			double cp = mid + ((double)j + 0.5 - (double)nd / 2) / (double)nd * half;

			if (!isfinite(d))
				continue;
			cpt(&c, cp, vpos(&c, d), &x, &y);
			html_printf(out, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\">"
				    "<title>%H, #%zu: ", x, y, s, j + 1);
			put_num(out, d);
			if (has_text(f->ylabel))
				html_printf(out, " %H", f->ylabel);
			buf_addstr(out, "</title></circle>");
		}
	}
	cat_lines(out, &c);
	svg_close(out);
}

void
svg_grouped_bars(struct buf *out, const struct svg_frame *f, const struct svg_groups *g)
{
	struct cat c;
	const char *id = frame_id(f);
	double lo = 0, hi = 0;
	size_t i, k, ng = g->value ? g->ngroups : 0, ns = g->value ? g->nseries : 0;
	char tmp[32], tmp2[32];

	if (!ns)
		ng = 0;
	for (i = 0; i < ng * ns; i++) {
		double v = g->value[i], e = g->err ? g->err[i] : NAN;

		if (!isfinite(v))
			continue;
		if (isfinite(e) && e > 0) {
			lo = dmin(lo, v - e);
			hi = dmax(hi, v + e);
		}
		lo = dmin(lo, v);
		hi = dmax(hi, v);
	}
	cat_layout(&c, f, ng, g->group_labels, lo, hi, 0, 0, dmax(22, (double)ns * 10 + 8),
		   ns, g->series_labels, KEY_BAR);
	svg_open(out, f, c.p.w, c.p.h, NULL);
	hatch_defs(out, f, ns);
	if (ns > 1)
		legend(out, f, 1, KEY_BAR, ns, g->series_labels, 10, c.legend_y, c.p.w - 10);
	cat_axes(out, f, &c, g->group_labels);
	for (i = 0; i < ng; i++) {
		const char *gs = label_at(g->group_labels, i, tmp, sizeof(tmp));
		double bw = bandw(&c) * 0.8 / (double)ns;
		double start = band0(&c, i) + bandw(&c) * 0.1;

		for (k = 0; k < ns; k++) {
			const char *ss = label_at(g->series_labels, k, tmp2, sizeof(tmp2));
			double v = g->value[i * ns + k];
			double e = g->err ? g->err[i * ns + k] : NAN;
			double ca = start + bw * (double)k, x, y, w, h;

			if (!isfinite(v)) {
				if (ns == 1)
					not_reported(out, &c, ca + bw / 2);
				continue;
			}
			bar_open(out, &c, sty(f, k), ca, ca + bw, vpos(&c, 0), vpos(&c, v),
				 &x, &y, &w, &h);
			tip(out, gs, ss, v, f->ylabel, e, 0);
			buf_addstr(out, "</rect>");
			hatch_over(out, id, sty(f, k), x, y, w, h);
			whisker(out, &c, ca + bw / 2, v, e, dmin(5, bw * 0.3));
		}
	}
	cat_lines(out, &c);
	svg_close(out);
}

void
svg_stacked_bars(struct buf *out, const struct svg_frame *f, const struct svg_stack *s)
{
	struct cat c;
	const char *id = frame_id(f);
	double hi = 1;
	size_t i, k, nb = s->share ? s->nbars : 0, np = s->share ? s->nparts : 0;
	char tmp[32], tmp2[32];

	if (!np)
		nb = 0;
	for (i = 0; i < nb; i++) {
		double sum = 0;

		for (k = 0; k < np; k++)
			if (isfinite(s->share[i * np + k]) && s->share[i * np + k] > 0)
				sum += s->share[i * np + k];
		hi = dmax(hi, sum);
	}
	cat_layout(&c, f, nb, s->bar_labels, 0, hi, 1, 0, 22, np, s->part_labels, KEY_BAR);
	svg_open(out, f, c.p.w, c.p.h, NULL);
	hatch_defs(out, f, np);
	if (np > 1)
		legend(out, f, 1, KEY_BAR, np, s->part_labels, 10, c.legend_y, c.p.w - 10);
	cat_axes(out, f, &c, s->bar_labels);
	for (i = 0; i < nb; i++) {
		const char *bs = label_at(s->bar_labels, i, tmp, sizeof(tmp));
		double mid = band0(&c, i) + bandw(&c) / 2, half = bandw(&c) * 0.3, acc = 0;
		int any = 0;

		for (k = 0; k < np; k++) {
			const char *ps = label_at(s->part_labels, k, tmp2, sizeof(tmp2));
			double v = s->share[i * np + k], x, y, w, h;

			if (!isfinite(v) || v <= 0)
				continue;
			any = 1;
			bar_open(out, &c, sty(f, k), mid - half, mid + half, vpos(&c, acc),
				 vpos(&c, acc + v), &x, &y, &w, &h);
			html_printf(out, "<title>%H, %H: ", bs, ps);
			numfmt_add(out, v, NF_PCT(1));
			buf_addstr(out, "%</title></rect>");
			hatch_over(out, id, sty(f, k), x, y, w, h);
			acc += v;
		}
		if (!any)
			not_reported(out, &c, mid);
	}
	cat_lines(out, &c);
	svg_close(out);
}

/* ---- step chart ------------------------------------------------------- */

struct col {
	double mn, mx, last;	/* pixel y: extremes and the latest sample */
	int has;
};

static int
sample_ok(const struct svg_steps *s, size_t i)
{
	return isfinite(s->t0[i]) && isfinite(s->t1[i]) && isfinite(s->y[i]) &&
	       s->t1[i] >= s->t0[i];
}

static size_t
series_n(const struct svg_steps *s)
{
	return s->t0 && s->t1 && s->y ? s->n : 0;
}

/* The value drawn at time t: the first sample covering it. */
static int
value_at(const struct svg_steps *s, double t, double *y)
{
	size_t i, n = series_n(s);

	for (i = 0; i < n; i++)
		if (sample_ok(s, i) && s->t0[i] <= t && t <= s->t1[i]) {
			*y = s->y[i];
			return 1;
		}
	return 0;
}

/*
 * Reduced trace: each pixel column gets the min and max (and last) of the
 * samples overlapping it, and the path runs down each column through that
 * range, then across at the last value.  The shape of a trace with more
 * samples than columns is kept (no spike disappears, which decimation
 * would allow) and the output grows with the plot width, not with n.
 */
static void
steps_reduced(struct buf *b, const struct plot *p, const struct axis *ax,
	      const struct axis *ay, const struct svg_steps *s, struct col *col, size_t ncol)
{
	size_t i, c, n = series_n(s);
	int pen = 0;
	double cury = 0;

	memset(col, 0, ncol * sizeof(*col));
	for (i = 0; i < n; i++) {
		double xa, xb, y;
		long ca, cb, k;

		if (!sample_ok(s, i))
			continue;
		xa = map_x(p, ax, s->t0[i]) - p->x0;
		xb = map_x(p, ax, s->t1[i]) - p->x0;
		y = map_y(p, ay, s->y[i]);
		ca = (long)floor(dmax(0, dmin(xa, (double)ncol - 1)));
		cb = (long)floor(dmax(0, dmin(xb, (double)ncol - 1)));
		if (cb > ca && xb == floor(xb))
			cb--;	/* ending on a column's left edge does not cover it */
		for (k = ca; k <= cb; k++) {
			struct col *q = &col[k];

			if (!q->has) {
				q->has = 1;
				q->mn = q->mx = y;
			}
			q->mn = dmin(q->mn, y);
			q->mx = dmax(q->mx, y);
			q->last = y;
		}
	}
	for (c = 0; c < ncol; c++) {
		const struct col *q = &col[c];
		double xl = p->x0 + (double)c, xr = dmin(xl + 1, p->x1);
		double v[3];
		int j;

		if (!q->has) {
			pen = 0;
			continue;
		}
		/* From the current height, to the nearer extreme first. */
		if (!pen || fabs(cury - q->mn) <= fabs(cury - q->mx)) {
			v[0] = q->mn;
			v[1] = q->mx;
		} else {
			v[0] = q->mx;
			v[1] = q->mn;
		}
		v[2] = q->last;
		if (!pen) {
			html_printf(b, "M%.1f,%.1f", xl, v[0]);
			cury = v[0];
			pen = 1;
		}
		for (j = 0; j < 3; j++)
			if (fabs(v[j] - cury) >= 0.05) {
				html_printf(b, "V%.1f", v[j]);
				cury = v[j];
			}
		html_printf(b, "H%.1f", xr);
	}
}

/* Exact trace: a horizontal step per sample, joined where contiguous. */
static void
steps_exact(struct buf *b, const struct plot *p, const struct axis *ax,
	    const struct axis *ay, const struct svg_steps *s)
{
	size_t i, n = series_n(s);
	int pen = 0;
	double curx = 0, cury = 0;

	for (i = 0; i < n; i++) {
		double xa, xb, y;

		if (!sample_ok(s, i)) {
			pen = 0;
			continue;
		}
		xa = map_x(p, ax, s->t0[i]);
		xb = map_x(p, ax, s->t1[i]);
		y = map_y(p, ay, s->y[i]);
		if (!pen || fabs(xa - curx) >= 0.5)
			html_printf(b, "M%.1f,%.1f", xa, y);
		else if (fabs(y - cury) >= 0.05)
			html_printf(b, "V%.1f", y);
		html_printf(b, "H%.1f", xb);
		pen = 1;
		curx = xb;
		cury = y;
	}
}

void
svg_step_chart(struct buf *out, const struct svg_frame *f, size_t nseries,
	       const char *const *series_labels, const struct svg_steps *s)
{
	struct plot p;
	struct axis ax, ay;
	double xlo = INFINITY, xhi = -INFINITY, ylo = 0, yhi = 0;
	double legend_h = 0, top, rowend[2];
	size_t k, i, j, ncol, any = 0, reduced = 0, haslabels = 0, ndrawn = 0;
	struct { double x; const char *s; } drawn[MARK_LABELS_MAX];
	struct col *col;
	char tmp[32];

	if (!s)
		nseries = 0;
	for (k = 0; k < nseries; k++) {
		size_t n = series_n(&s[k]);

		for (i = 0; i < n; i++) {
			if (!sample_ok(&s[k], i))
				continue;
			any++;
			xlo = dmin(xlo, s[k].t0[i]);
			xhi = dmax(xhi, s[k].t1[i]);
			ylo = dmin(ylo, s[k].y[i]);
			yhi = dmax(yhi, s[k].y[i]);
		}
		if (s[k].mark_labels && s[k].marks)
			for (i = 0; i < s[k].nmarks; i++)
				if (has_text(s[k].mark_labels[i]))
					haslabels = 1;
	}
	if (!any) {
		xlo = 0;
		xhi = 1;
	} else if (xlo == xhi) {
		xlo -= 0.5;
		xhi += 0.5;
	}
	frame_size(f, &p.w, &p.h);
	if (nseries > 1)
		legend_h = legend(NULL, NULL, 0, KEY_LINE, nseries, series_labels, 10, 0,
				  p.w - 10) * LEGEND_ROW + 8;
	top = 12 + legend_h + (haslabels ? 28 : 0);
	p.y0 = top;
	grow_for_plot(&p.h, top, bottom_margin(f->xlabel));
	p.y1 = p.h - bottom_margin(f->xlabel);
	axis_fit(&ay, ylo, yhi > ylo ? yhi : ylo + 1, p.y1 - p.y0, 0, 1, 0);
	p.x0 = dmin(left_margin(&ay, f->ylabel), p.w * 0.5);
	p.x1 = p.w - 16;
	axis_fit(&ax, xlo, xhi, p.x1 - p.x0, 1, 0, 0);

	ncol = (size_t)ceil(p.x1 - p.x0);
	for (k = 0; k < nseries; k++)
		if (series_n(&s[k]) > ncol)
			reduced = 1;
	svg_open(out, f, p.w, p.h, reduced ?
		 "Traces with more samples than pixel columns are drawn as the"
		 " range (min to max) of the samples in each pixel column." : NULL);
	if (nseries > 1)
		legend(out, f, 1, KEY_LINE, nseries, series_labels, 10, 10 + 11, p.w - 10);
	xy_axes(out, f, &p, &ax, &ay);
	if (!any)
		no_data(out, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2);

	/* Window marks, labels staggered over two rows above the plot (the
	 * lower row first). */
	rowend[0] = rowend[1] = -INFINITY;
	for (k = 0; k < nseries; k++) {
		if (!s[k].marks)
			continue;
		for (i = 0; i < s[k].nmarks; i++) {
			double m = s[k].marks[i], x;
			const char *ml = s[k].mark_labels ? s[k].mark_labels[i] : NULL;

			if (!isfinite(m) || m < ax.lo || m > ax.hi)
				continue;
			x = map_x(&p, &ax, m);
			html_printf(out, "<path class=\"mark s%zu\" d=\"M%.1f,%.1fV%.1f\">",
				    sty(f, k) % NSTYLE, x, p.y0 - (has_text(ml) ? 4 : 0), p.y1);
			buf_addstr(out, "<title>");
			if (has_text(ml))
				html_printf(out, "%H: ", ml);
			put_num(out, m);
			if (has_text(f->xlabel))
				html_printf(out, " %H", f->xlabel);
			buf_addstr(out, "</title></path>");
			if (has_text(ml)) {
				size_t nc = u8_chars(ml) < 20 ? u8_chars(ml) : 20;
				double half = (double)nc * CW_SMALL / 2, lx = x;
				int r;

				if (lx - half < 2)
					lx = 2 + half;
				if (lx + half > p.w - 2)
					lx = p.w - 2 - half;
				/* The same label close by (another target's window
				 * edge) is said once. */
				for (j = 0; j < ndrawn; j++)
					if (fabs(drawn[j].x - lx) < 2 * half + 8 &&
					    !strcmp(drawn[j].s, ml))
						break;
				if (j < ndrawn)
					continue;
				for (r = 0; r < 2; r++)
					if (lx - half > rowend[r] + 4)
						break;
				if (r == 2)
					continue;	/* no room: the line's tooltip has it */
				rowend[r] = lx + half;
				if (ndrawn < MARK_LABELS_MAX) {
					drawn[ndrawn].x = lx;
					drawn[ndrawn++].s = ml;
				}
				text_el(out, "note", lx, p.y0 - 8 - 14 * r, "middle", 0, ml, 20);
			}
		}
	}

	col = xcalloc(ncol ? ncol : 1, sizeof(*col));
	for (k = 0; k < nseries; k++) {
		html_printf(out, "<path class=\"line s%zu\"", sty(f, k) % NSTYLE);
		dash_attr(out, sty(f, k));
		buf_addstr(out, " d=\"");
		if (series_n(&s[k]) > ncol)
			steps_reduced(out, &p, &ax, &ay, &s[k], col, ncol);
		else
			steps_exact(out, &p, &ax, &ay, &s[k]);
		html_printf(out, "\"><title>%H</title></path>",
			    label_at(series_labels, k, tmp, sizeof(tmp)));
	}
	free(col);
	/* A few markers per trace (shape per series) for grey-scale print. */
	if (nseries > 1 && any)
		for (k = 0; k < nseries; k++)
			for (i = 0; i < 5; i++) {
				double t = ax.lo + (ax.hi - ax.lo) *
					((double)i + ((double)(sty(f, k) % NSTYLE) + 0.5) / NSTYLE) / 5;
				double y;

				if (value_at(&s[k], t, &y))
					marker(out, sty(f, k), map_x(&p, &ax, t), map_y(&p, &ay, y));
			}
	svg_close(out);
}

/* ---- scatter ---------------------------------------------------------- */

struct box {
	double x0, y0, x1, y1;
};

static int
box_hit(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Where a label may go around its point: a direction (unit steps) for
 * each of 8 sides, right and left first (text reads along a line), then
 * above, below and the diagonals. */
static const signed char label_dir[8][2] = {
	{ 1, 0 }, { -1, 0 }, { 0, -1 }, { 0, 1 }, { 1, -1 }, { -1, -1 }, { 1, 1 }, { -1, 1 },
};
/* Gaps from the point's edge: the first ring touches it, the others
 * need a leader line back to the point. */
static const double label_gap[] = { 2, 14, 26, 40, 56 };

/* The box of a w-wide label at gap g from the point (x, y) in direction d. */
static struct box
label_box(double x, double y, double w, const signed char d[2], double g)
{
	struct box b;
	double r = POINT_R + g;

	if (d[0] > 0)
		b.x0 = x + (d[1] ? r * 0.7 : r);
	else if (d[0] < 0)
		b.x0 = x - (d[1] ? r * 0.7 : r) - w;
	else
		b.x0 = x - w / 2;
	if (d[1] < 0)
		b.y0 = y - (d[0] ? r * 0.7 : r) - PLABEL_H;
	else if (d[1] > 0)
		b.y0 = y + (d[0] ? r * 0.7 : r);
	else
		b.y0 = y - PLABEL_H / 2;
	b.x1 = b.x0 + w;
	b.y1 = b.y0 + PLABEL_H;
	return b;
}

/*
 * Point labels, placed so that none covers a point or another label: for
 * each point in order, the first free place of label_box() (8 sides, then
 * rings further out with a leader line from the point's edge to the
 * label), inside the plot.  A label with no free place is left out (the
 * point's tooltip has it).  Deterministic: the same points give the same
 * places.  A label's box is its characters (at most PLABEL_MAXC) times
 * CW_SMALL wide and PLABEL_H high, as for every text here.
 */
static void
point_labels(struct buf *out, const struct plot *p, const double *px, const double *py,
	     const char *const *labels, size_t n)
{
	struct box *placed = xmalloc((n + 1) * sizeof(*placed)), pb, b;
	size_t i, j, k, g, np = 0;

	buf_addstr(out, "<g class=\"point-labels\">");
	for (i = 0; i < n; i++) {
		size_t nc;
		double w;
		int found = 0;

		if (!labels[i] || !*labels[i] || !isfinite(px[i]) || !isfinite(py[i]))
			continue;
		nc = u8_chars(labels[i]) < PLABEL_MAXC ? u8_chars(labels[i]) : PLABEL_MAXC;
		w = (double)nc * CW_SMALL;
		for (g = 0; !found && g < sizeof(label_gap) / sizeof(label_gap[0]); g++)
			for (k = 0; !found && k < 8; k++) {
				b = label_box(px[i], py[i], w, label_dir[k], label_gap[g]);
				if (b.x0 < p->x0 + 1 || b.x1 > p->x1 - 1 || b.y0 < p->y0 ||
				    b.y1 > p->y1 - 1)
					continue;
				for (j = 0; j < n; j++) {
					if (!isfinite(px[j]) || !isfinite(py[j]))
						continue;
					pb = (struct box){ px[j] - POINT_R, py[j] - POINT_R,
							   px[j] + POINT_R, py[j] + POINT_R };
					if (box_hit(&b, &pb))
						break;
				}
				if (j < n)
					continue;
				for (j = 0; j < np && !box_hit(&b, &placed[j]); j++)
					;
				if (j < np)
					continue;
				found = 1;
				placed[np++] = b;
				if (g) {
					/* from the point's edge to the nearest point of the box */
					double cx = dmax(b.x0, dmin(px[i], b.x1));
					double cy = dmax(b.y0, dmin(py[i], b.y1));
					double dx = cx - px[i], dy = cy - py[i];
					double d = sqrt(dx * dx + dy * dy);

					html_printf(out, "<path class=\"leader\" d=\"M%.1f,%.1fL%.1f,%.1f\"/>",
						    px[i] + dx / d * POINT_R, py[i] + dy / d * POINT_R,
						    cx, cy);
				}
				text_el(out, "tick", b.x0, b.y0 + PLABEL_ASC, NULL, 0, labels[i],
					PLABEL_MAXC);
			}
	}
	buf_addstr(out, "</g>");
	free(placed);
}

static double
err_at(const double *e, size_t i)
{
	return e && isfinite(e[i]) && e[i] > 0 ? e[i] : 0;
}

/* Pad [*lo, *hi] by 5 % of its span (or around a single value). */
static void
pad_range(double *lo, double *hi)
{
	double span = *hi - *lo;

	if (!(span > 0) || !isfinite(span))
		span = *lo == 0 ? 1 : fabs(*lo) * 0.2;
	*lo -= span * 0.05;
	*hi += span * 0.05;
}

/* Clips y = a + b x over [ax->lo, ax->hi] to the y range; 0 if nothing
 * is left. */
static int
clip_line(const struct axis *ax, const struct axis *ay, double a, double bb,
	  double *x0, double *y0, double *x1, double *y1)
{
	double lo = ax->lo, hi = ax->hi;

	if (!isfinite(a) || !isfinite(bb))
		return 0;
	if (bb != 0) {
		double xa = (ay->lo - a) / bb, xb = (ay->hi - a) / bb;

		lo = dmax(lo, dmin(xa, xb));
		hi = dmin(hi, dmax(xa, xb));
	} else if (a < ay->lo || a > ay->hi) {
		return 0;
	}
	if (!(lo < hi))
		return 0;
	*x0 = lo;
	*x1 = hi;
	*y0 = dmax(ay->lo, dmin(ay->hi, a + bb * lo));
	*y1 = dmax(ay->lo, dmin(ay->hi, a + bb * hi));
	return 1;
}

void
svg_scatter(struct buf *out, const struct svg_frame *f, const struct svg_points *pt)
{
	struct plot p;
	struct axis ax, ay;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	size_t i, n = pt->x && pt->y ? pt->n : 0, any = 0;
	int pen;
	double *px = xmalloc((n + 1) * sizeof(double)), *py = xmalloc((n + 1) * sizeof(double));
	char tmp[32];

	for (i = 0; i < n; i++) {
		double ex = err_at(pt->xerr, i), ey = err_at(pt->yerr, i);

		if (!isfinite(pt->x[i]) || !isfinite(pt->y[i]))
			continue;
		any++;
		xlo = dmin(xlo, pt->x[i] - ex);
		xhi = dmax(xhi, pt->x[i] + ex);
		ylo = dmin(ylo, pt->y[i] - ey);
		yhi = dmax(yhi, pt->y[i] + ey);
	}
	if (!any) {
		xlo = ylo = 0;
		xhi = yhi = 1;
	}
	pad_range(&xlo, &xhi);
	pad_range(&ylo, &yhi);
	frame_size(f, &p.w, &p.h);
	p.y0 = 12 + (has_text(pt->note) ? 16 : 0);
	p.y1 = p.h - bottom_margin(f->xlabel);
	axis_fit(&ay, ylo, yhi, p.y1 - p.y0, 0, 0, 0);
	p.x0 = dmin(left_margin(&ay, f->ylabel), p.w * 0.5);
	p.x1 = p.w - 16;
	axis_fit(&ax, xlo, xhi, p.x1 - p.x0, 1, 0, 0);

	svg_open(out, f, p.w, p.h, NULL);
	xy_axes(out, f, &p, &ax, &ay);
	if (!any)
		no_data(out, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2);
	if (pt->has_line) {
		double x0, y0, x1, y1;

		if (clip_line(&ax, &ay, pt->line_a, pt->line_b, &x0, &y0, &x1, &y1)) {
			html_printf(out, "<path class=\"fit\" d=\"M%.1f,%.1fL%.1f,%.1f\">",
				    map_x(&p, &ax, x0), map_y(&p, &ay, y0),
				    map_x(&p, &ax, x1), map_y(&p, &ay, y1));
			buf_addstr(out, "<title>y = ");
			put_num(out, pt->line_a);
			buf_addstr(out, pt->line_b < 0 ? " \xe2\x88\x92 " : " + ");
			put_num(out, fabs(pt->line_b));
			buf_addstr(out, " x</title></path>");
		}
	}
	if (has_text(pt->note))
		text_el(out, "note", p.x0, p.y0 - 8, NULL, 0, pt->note,
			fit_chars(p.x1 - p.x0, CW_SMALL));
	if (pt->connect && any > 1) {
		buf_addstr(out, "<path class=\"line s0\" d=\"");
		pen = 0;
		for (i = 0; i < n; i++) {
			if (!isfinite(pt->x[i]) || !isfinite(pt->y[i])) {
				pen = 0;
				continue;
			}
			html_printf(out, "%R%.1f,%.1f", pen ? "L" : "M",
				    map_x(&p, &ax, pt->x[i]), map_y(&p, &ay, pt->y[i]));
			pen = 1;
		}
		buf_addstr(out, "\"/>");
	}
	for (i = 0; i < n; i++) {
		double x, y, ex = err_at(pt->xerr, i), ey = err_at(pt->yerr, i);
		const char *s = label_at(pt->labels, i, tmp, sizeof(tmp));

		if (!isfinite(pt->x[i]) || !isfinite(pt->y[i]))
			continue;
		x = map_x(&p, &ax, pt->x[i]);
		y = map_y(&p, &ay, pt->y[i]);
		if (ex > 0 || ey > 0) {
			buf_addstr(out, "<path class=\"err\" d=\"");
			if (ex > 0) {
				double a = map_x(&p, &ax, pt->x[i] - ex), b = map_x(&p, &ax, pt->x[i] + ex);

				html_printf(out, "M%.1f,%.1fH%.1fM%.1f,%.1fV%.1fM%.1f,%.1fV%.1f",
					    a, y, b, a, y - 3, y + 3, b, y - 3, y + 3);
			}
			if (ey > 0) {
				double a = map_y(&p, &ay, pt->y[i] - ey), b = map_y(&p, &ay, pt->y[i] + ey);

				html_printf(out, "M%.1f,%.1fV%.1fM%.1f,%.1fH%.1fM%.1f,%.1fH%.1f",
					    x, a, b, x - 3, a, x + 3, x - 3, b, x + 3);
			}
			buf_addstr(out, "\"/>");
		}
		/* A styled point is its series' marker (colour and shape). */
		if (f->style)
			marker_el(out, f->style[i], x, y, 1);
		else
			html_printf(out, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"%R\">",
				    x, y, any > 60 ? "2" : "3.5");
		html_printf(out, "<title>%H: ", s);
		put_num(out, pt->x[i]);
		if (ex > 0) {
			buf_addstr(out, " " PLUSMINUS " ");
			put_num(out, ex);
		}
		if (has_text(f->xlabel))
			html_printf(out, " %H", f->xlabel);
		buf_addstr(out, ", ");
		put_num(out, pt->y[i]);
		if (ey > 0) {
			buf_addstr(out, " " PLUSMINUS " ");
			put_num(out, ey);
		}
		if (has_text(f->ylabel))
			html_printf(out, " %H", f->ylabel);
		buf_addstr(out, f->style ? "</title></path>" : "</title></circle>");
	}
	for (i = 0; i < n; i++) {
		int ok = isfinite(pt->x[i]) && isfinite(pt->y[i]);

		px[i] = ok ? map_x(&p, &ax, pt->x[i]) : NAN;
		py[i] = ok ? map_y(&p, &ay, pt->y[i]) : NAN;
	}
	if (pt->labels && any <= POINT_LABELS_MAX)
		point_labels(out, &p, px, py, pt->labels, n);
	free(px);
	free(py);
	svg_close(out);
}

/* ---- lines with bands --------------------------------------------------- */

void
svg_band_lines(struct buf *out, const struct svg_frame *f, size_t nseries,
	       const struct svg_band *s)
{
	struct plot p;
	struct axis ax, ay;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, legend_h = 0;
	const char **labels = xcalloc(nseries + 1, sizeof(char *));
	size_t k, i, any = 0;
	int pen;

	for (k = 0; k < nseries; k++) {
		labels[k] = s[k].label;
		for (i = 0; i < s[k].n; i++) {
			if (!isfinite(s[k].x[i]) || !isfinite(s[k].y[i]))
				continue;
			any++;
			xlo = dmin(xlo, s[k].x[i]);
			xhi = dmax(xhi, s[k].x[i]);
			ylo = dmin(ylo, isfinite(s[k].lo[i]) ? dmin(s[k].lo[i], s[k].y[i]) : s[k].y[i]);
			yhi = dmax(yhi, isfinite(s[k].hi[i]) ? dmax(s[k].hi[i], s[k].y[i]) : s[k].y[i]);
		}
	}
	if (!any) {
		xlo = ylo = 0;
		xhi = yhi = 1;
	}
	pad_range(&xlo, &xhi);
	if (ylo > 0)
		ylo = 0;	/* a band reads against zero */
	pad_range(&ylo, &yhi);
	frame_size(f, &p.w, &p.h);
	if (nseries > 1)
		legend_h = legend(NULL, NULL, 0, KEY_LINE, nseries, labels, 10, 0, p.w - 10) *
			   LEGEND_ROW + 8;
	p.y0 = 12 + legend_h;
	grow_for_plot(&p.h, p.y0, bottom_margin(f->xlabel));
	p.y1 = p.h - bottom_margin(f->xlabel);
	axis_fit(&ay, ylo, yhi, p.y1 - p.y0, 0, 0, 0);
	p.x0 = dmin(left_margin(&ay, f->ylabel), p.w * 0.5);
	p.x1 = p.w - 16;
	axis_fit(&ax, xlo, xhi, p.x1 - p.x0, 1, 0, 0);

	svg_open(out, f, p.w, p.h, NULL);
	if (nseries > 1)
		legend(out, f, 1, KEY_LINE, nseries, labels, 10, 10 + 11, p.w - 10);
	xy_axes(out, f, &p, &ax, &ay);
	if (!any)
		no_data(out, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2);
	for (k = 0; k < nseries; k++) {
		const struct svg_band *b = &s[k];
		size_t nb = 0;

		/* the band: upper edge forward, lower edge back */
		for (i = 0; i < b->n; i++)
			nb += isfinite(b->x[i]) && isfinite(b->lo[i]) && isfinite(b->hi[i]);
		if (nb > 1) {
			html_printf(out, "<path class=\"band s%zu\" d=\"", sty(f, k) % NSTYLE);
			pen = 0;
			for (i = 0; i < b->n; i++)
				if (isfinite(b->x[i]) && isfinite(b->lo[i]) && isfinite(b->hi[i])) {
					html_printf(out, "%R%.1f,%.1f", pen ? "L" : "M",
						    map_x(&p, &ax, b->x[i]), map_y(&p, &ay, b->hi[i]));
					pen = 1;
				}
			for (i = b->n; i-- > 0;)
				if (isfinite(b->x[i]) && isfinite(b->lo[i]) && isfinite(b->hi[i]))
					html_printf(out, "L%.1f,%.1f", map_x(&p, &ax, b->x[i]),
						    map_y(&p, &ay, b->lo[i]));
			buf_addstr(out, "Z\"/>");
		}
		html_printf(out, "<path class=\"line s%zu\"", sty(f, k) % NSTYLE);
		dash_attr(out, sty(f, k));
		buf_addstr(out, " d=\"");
		pen = 0;
		for (i = 0; i < b->n; i++) {
			if (!isfinite(b->x[i]) || !isfinite(b->y[i]))
				continue;
			html_printf(out, "%R%.1f,%.1f", pen ? "L" : "M", map_x(&p, &ax, b->x[i]),
				    map_y(&p, &ay, b->y[i]));
			pen = 1;
		}
		html_printf(out, "\"><title>%H</title></path>", b->label ? b->label : "");
		for (i = 0; i < b->n; i++) {
			double x, y;

			if (!isfinite(b->x[i]) || !isfinite(b->y[i]))
				continue;
			x = map_x(&p, &ax, b->x[i]);
			y = map_y(&p, &ay, b->y[i]);
			html_printf(out, "<g><title>%H: ", b->label ? b->label : "");
			put_num(out, b->x[i]);
			if (has_text(f->xlabel))
				html_printf(out, " %H", f->xlabel);
			buf_addstr(out, ", ");
			put_num(out, b->y[i]);
			if (isfinite(b->lo[i]) && isfinite(b->hi[i])) {
				buf_addstr(out, " (");
				put_num(out, b->lo[i]);
				buf_addstr(out, " \xe2\x80\x93 ");
				put_num(out, b->hi[i]);
				buf_addch(out, ')');
			}
			if (has_text(f->ylabel))
				html_printf(out, " %H", f->ylabel);
			buf_addstr(out, "</title>");
			marker(out, sty(f, k), x, y);
			buf_addstr(out, "</g>");
		}
	}
	svg_close(out);
	free(labels);
}
