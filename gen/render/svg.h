/*
 * svg.h - charts as inline SVG, written through html.h's escapers (every
 * label is untrusted text) with numbers printed locale-independently.
 *
 * Every chart gets: axes with units and readable ("nice") ticks, a legend
 * where there is more than one series, <title> and <desc> plus role="img"
 * and aria-labelledby for screen readers, colours from CSS classes
 * (.s0 .. .s7 defined in the stylesheet, so dark mode and print can
 * restyle them) and dash/marker patterns that survive grey-scale printing.
 * The id is used as the element id (stable anchor) and prefix of inner ids.
 * Long series are reduced for drawing (min/max per pixel column); the
 * caller computes every number from the full data.
 *
 * All functions append to out.  Values that are NAN are skipped (a bar or
 * point "not reported" is not drawn as 0).
 */
#ifndef ERG_SVG_H
#define ERG_SVG_H

#include <stddef.h>

#include "base/buf.h"

struct svg_frame {
	const char *id;		/* element id, e.g. "chart-headline" */
	const char *title;	/* <title> */
	const char *desc;	/* <desc>: what is plotted, units, what bars mean */
	const char *xlabel;	/* axis titles with units, e.g. "mJ per request" */
	const char *ylabel;
	int width, height;	/* viewBox size; 0 = defaults (640 x 320) */
	/* Style (colour class and pattern) of each series, or of each bar
	 * of svg_bar_chart and point of svg_scatter; NULL: by position (a
	 * bar chart's bars and a scatter's points one plain style).  Pages
	 * give a target the same style in every chart (view.h
	 * target_slot()). */
	const size_t *style;
};

/* Bars per category with +-err whiskers and the individual values as dots
 * (one per round).  err may be NULL; dots[i] may be NULL (ndots[i] = 0). */
struct svg_bars {
	size_t n;
	const char *const *labels;
	const double *value;
	const double *err;
	const double *const *dots;
	const size_t *ndots;
	int horizontal;		/* category labels on the y axis */
	int series;		/* the bars are one series in order (runs by
				 * date): too many dots are left out */
	size_t marks_max;	/* its budget of bars and dots: 0, SVG_MARKS_MAX
				 * (a page of many charts shares one) */
};
/* More than SVG_BARS_MAX vertical bars, or a series of more than
 * SVG_SERIES_FEW (or than its budget, when that is less) whose bars and
 * dots together pass its budget of marks (svg_bars_marks_max():
 * marks_max, else SVG_MARKS_MAX), are
 * drawn as one line through the values (one path, each point in it: "M"
 * for the first point after a gap, "L" for the others) and one path of
 * whiskers, without dots or a tooltip per value; the description gives
 * the count and the first and last values.  The category axis is then
 * the position, 1 to n (f->xlabel should say so).  A series of fewer bars
 * past its budget keeps its bars, whiskers and tooltips but not its
 * dots (svg_bars_dots_dropped(); the caption should say so).  So a chart
 * stays near 150 KB at most, where 190 nights of the reference session
 * (5 rounds, 26 idle windows each) drew 180-630 KB a chart, 3.5 MB for
 * one machine's page. */
#define SVG_BARS_MAX 200
#define SVG_MARKS_MAX 400
#define SVG_SERIES_FEW 40
size_t svg_bars_marks_max(const struct svg_bars *b);
int svg_bars_as_line(const struct svg_bars *b);
int svg_bars_dots_dropped(const struct svg_bars *b);
void svg_bar_chart(struct buf *out, const struct svg_frame *f, const struct svg_bars *b);

/* Grouped bars: ngroups categories (e.g. routes) x nseries (e.g. targets);
 * value[g * nseries + s], err likewise (may be NULL). */
struct svg_groups {
	size_t ngroups, nseries;
	const char *const *group_labels;
	const char *const *series_labels;
	const double *value;
	const double *err;
};
void svg_grouped_bars(struct buf *out, const struct svg_frame *f, const struct svg_groups *g);

/* Step trace: samples as horizontal steps [t0[i], t1[i]] at y[i] (e.g.
 * watts over seconds), with vertical markers (window edges) at marks[]. */
struct svg_steps {
	size_t n;
	const double *t0, *t1, *y;
	size_t nmarks;
	const double *marks;
	const char *const *mark_labels;	/* may be NULL */
};
/* Several traces in one chart (one per target), each a series. */
void svg_step_chart(struct buf *out, const struct svg_frame *f, size_t nseries,
		    const char *const *series_labels, const struct svg_steps *s);

/* Points (x, y) with optional error bars in x and y, optional labels per
 * point, and an optional fitted line y = a + b x with a note printed on
 * the chart (e.g. "slope +0.0002 W/h").  Labels (up to 40 points) go
 * where they cover no point and no other label: beside their point, else
 * further out with a leader line, else only in the point's tooltip. */
struct svg_points {
	size_t n;
	const double *x, *y;
	const double *xerr, *yerr;	/* may be NULL */
	const char *const *labels;	/* may be NULL */
	int has_line;
	double line_a, line_b;
	const char *note;		/* may be NULL */
	int connect;			/* draw a polyline through the points */
};
void svg_scatter(struct buf *out, const struct svg_frame *f, const struct svg_points *p);

/* Stacked bars: nbars bars of nparts parts, share[b * nparts + p] in 0..1. */
struct svg_stack {
	size_t nbars, nparts;
	const char *const *bar_labels;
	const char *const *part_labels;
	const double *share;
};
void svg_stacked_bars(struct buf *out, const struct svg_frame *f, const struct svg_stack *s);

/* Lines with bands: per series (one per target) the centre y at each x
 * (sorted by x) and a band from lo to hi around it (min to max of the
 * repetitions); NAN leaves a point or its band out.  CSS class "band". */
struct svg_band {
	const char *label;
	size_t n;
	const double *x, *y, *lo, *hi;
};
void svg_band_lines(struct buf *out, const struct svg_frame *f, size_t nseries,
		    const struct svg_band *s);

/* "Nice" axis ticks covering [lo, hi]: writes up to max ticks into t,
 * returns how many; *step gets the tick step.  Exposed for tests. */
size_t svg_ticks(double lo, double hi, size_t max, double *t, double *step);

/*
 * Appended with svg.c (details in its header comment):
 *  - Bar charts (all three kinds): ylabel titles the value axis and xlabel
 *    the category axis in either orientation.  A chart whose category
 *    labels do not fit under its bars turns horizontal by itself
 *    (svg_bars.horizontal forces it) and then grows taller than height
 *    so every category keeps a row.
 *  - Tooltips: "<label>: <value> <value axis title> +- <err> (n=<dots>)"
 *    (the sign printed is U+00B1).
 *  - CSS classes the page stylesheet must define: chart, s0 .. s7 (set
 *    --c), bar, key, line, band, dot, hatch, err, fit, mark, axis, grid, tick,
 *    label, legend, note, leader.
 */

#endif
