/*
 * ingest/energy_scaphandre.c - Scaphandre's JSON exporter, `scaphandre
 * json -f FILE` (or its stdout), energy-method.md §2.4, energy-formats.md
 * §3.  Each report is
 *
 *     {"host":{"consumption":12345678.0,"timestamp":1700000000.123,
 *      "components":{...}},"consumers":[...],"sockets":[...]}
 *
 * host.consumption is the host's power in µW (a f32: about 7 digits),
 * host.timestamp Unix seconds.  The framing changed between versions: one
 * report a line (0.5 on stdout), the whole array rewritten every step
 * (0.5 with -f), reports back to back with nothing between them (1.0.0),
 * or '[', reports separated by ',' and ']' at the end, missing when the
 * exporter was killed (1.0.1 and later).  So the file is read as a
 * stream of top-level objects, split by brace depth outside strings, one
 * report in memory at a time (the file grows with the run), each parsed
 * by the one JSON reader (base/json.h: strict numbers, duplicate members
 * refused, errors at the member's line).  Between reports only space, one
 * leading '[', ',' and one closing ']' may stand, and the exporter's own
 * "received Ctrl+C!" (printed to stdout, so into the stream without -f),
 * which is skipped with a warning.  A report cut short at the end of the
 * file (the exporter killed mid-write) is left out with a warning.
 *
 * The power is a gauge: Scaphandre computes it from the last two readings
 * of the RAPL counters, so a report's power is the mean since the report
 * before, and the first report only starts the first interval.  A report
 * with host.consumption 0.0 is a placeholder (no power yet, or a counter
 * wrap): the interval ending at it has no energy, nor has the one after
 * it when the placeholder has no time.  Only host power is read: sockets
 * and their domains come and go with the placeholders, and consumers are
 * shares of the host's power, not measurements.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"
#include "base/util.h"
#include "ingest/energy.h"
#include "ingest/input.h"

/* A report is a few KB (10 consumers by default); a consumers list of
 * thousands is still far below this. */
#define SC_MAX_REPORT ((size_t)16 << 20)
#define SC_CTRL_C "received Ctrl+C!"

struct scaph {
	struct power_file *pf;
	const char *path;
	struct buf obj;		/* the report being read */
	struct buf junk;	/* text between reports */
	long line, obj_line, junk_line;
	int depth, instr, esc;
	int bracket, closed, reports;
	int has_prev, gap;	/* a report placed the time before; a
				 * placeholder without time since it */
	double prev_ms;
};

/* One whole report: a sample from the report before to it. */
static int
report(struct scaph *c)
{
	struct jdoc j;
	struct jpos root, host;
	double uw, ts = 0, dj[1];
	int rc, bad = 0;

	if (jdoc_load(&j, c->path, c->obj.ptr, c->obj.len, c->obj_line - 1, 0))
		return -1;
	jdoc_root(&j, &root);
	c->reports++;
	if (jdoc_object(&j, &root, "host", JD_REQ, &host) < 0 ||
	    jdoc_real(&j, &host, "consumption", JD_REQ | JD_NONNEG, &uw) < 0 ||
	    (rc = jdoc_real(&j, &host, "timestamp", JD_NONNEG, &ts)) < 0) {
		jdoc_free(&j);
		return -1;
	}
	if (uw > 0 && !(rc && ts > 0))
		bad = jdoc_error(&j, &host, "has no 'timestamp' (very old Scaphandre builds "
				 "wrote none): erg cannot place the report in time");
	jdoc_free(&j);
	if (bad)
		return -1;
	/* (a placeholder that has a time ends an interval without energy) */
	if (uw == 0 && !(rc && ts > 0)) {
		c->gap = 1;
		return 0;
	}
	dj[0] = uw > 0 && !c->gap ? uw / 1e6 * (ts * 1000 - c->prev_ms) / 1000 : NAN;
	if (c->has_prev)
		en_add_sample(c->pf, c->prev_ms, ts * 1000, c->obj_line, dj);
	c->prev_ms = ts * 1000;
	c->has_prev = 1;
	c->gap = 0;
	return 0;
}

/* The text between reports, ended by a newline, a report or a bracket. */
static int
junk_end(struct scaph *c)
{
	while (c->junk.len && (c->junk.ptr[c->junk.len - 1] == ' ' ||
			       c->junk.ptr[c->junk.len - 1] == '\r' ||
			       c->junk.ptr[c->junk.len - 1] == '\t'))
		buf_setlen(&c->junk, c->junk.len - 1);
	if (!c->junk.len)
		return 0;
	if (!strcmp(c->junk.ptr, SC_CTRL_C)) {
		warn_at(c->path, c->junk_line, "'" SC_CTRL_C "' (the exporter's message on "
			"stdout) skipped");
		buf_reset(&c->junk);
		return 0;
	}
	return error_at(c->path, c->junk_line, "'%.40s%s' between reports: not Scaphandre's "
			"JSON", c->junk.ptr, c->junk.len > 40 ? "..." : "");
}

/* Bytes p[0..n) of the stream. */
static int
feed(struct scaph *c, const char *p, size_t n)
{
	size_t i, s;
	char ch;

	for (i = 0; i < n; i++) {
		ch = p[i];
		if (c->depth) {
			/* inside a report: copy it whole, up to its closing brace */
			for (s = i; i < n; i++) {
				ch = p[i];
				if (ch == '\n')
					c->line++;
				if (c->instr) {
					if (c->esc)
						c->esc = 0;
					else if (ch == '\\')
						c->esc = 1;
					else if (ch == '"')
						c->instr = 0;
				} else if (ch == '"') {
					c->instr = 1;
				} else if (ch == '{') {
					c->depth++;
				} else if (ch == '}' && !--c->depth) {
					break;
				}
			}
			buf_add(&c->obj, p + s, i - s + (i < n));
			if (c->obj.len > SC_MAX_REPORT)
				return error_at(c->path, c->obj_line, "a report of more than %zu "
						"MiB", SC_MAX_REPORT >> 20);
			if (i == n)
				return 0;
			if (report(c))
				return -1;
			buf_reset(&c->obj);
			continue;
		}
		if (c->junk.len && ch != '\n' && ch != '{' && ch != '[' && ch != ']' &&
		    ch != ',') {
			if (c->junk.len < 200)
				buf_add(&c->junk, &ch, 1);
			continue;
		}
		if (c->junk.len && junk_end(c))
			return -1;
		switch (ch) {
		case '\n':
			c->line++;
			/* fall through */
		case ' ':
		case '\t':
		case '\r':
			break;
		case '[':
			if (c->bracket || c->reports)
				return error_at(c->path, c->line, "'[' after the start: not "
						"Scaphandre's JSON");
			c->bracket = 1;
			break;
		case ',':
			if (!c->reports || c->closed)
				return error_at(c->path, c->line, "',' where no report precedes it");
			break;
		case ']':
			if (!c->bracket || c->closed)
				return error_at(c->path, c->line, "']' that no '[' opened");
			c->closed = 1;
			break;
		case '{':
			if (c->closed)
				return error_at(c->path, c->line, "a report after the closing ']'");
			c->depth = 1;
			c->instr = c->esc = 0;
			c->obj_line = c->line;
			buf_add(&c->obj, "{", 1);
			break;
		default:
			c->junk_line = c->line;
			buf_add(&c->junk, &ch, 1);
			break;
		}
	}
	return 0;
}

int
energy_read_scaphandre(const char *path, struct power_file *pf)
{
	struct scaph c;
	struct elines l;
	char why[64];
	long r;
	int bad = 0;

	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "scaphandre";
	pf->caveat = "Scaphandre's host power: derived from the CPU's RAPL energy counters, "
		     "not measured at the wall (no PSU, board, disk or fan losses); each "
		     "report's power is the mean since the report before";
	power_add_domain(pf, "host", 1);
	/* (the lines of elines are not used: 1.0.0 writes one line) */
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.pf = pf;
	c.path = path;
	c.line = 1;
	c.obj = (struct buf)BUF_INIT;
	c.junk = (struct buf)BUF_INIT;
	while ((r = input_read(l.in, l.chunk, sizeof(l.chunk))) > 0)
		if ((bad = feed(&c, l.chunk, (size_t)r)))
			break;
	if (!bad && r < 0)
		bad = -1;
	if (!bad) {
		l.eof = 1;
		if (c.junk.len)
			bad = junk_end(&c);
	}
	if (!bad && c.depth)
		warn_at(path, c.obj_line, "the last report is cut short (the exporter stopped "
			"while writing it): left out");
	buf_release(&c.obj);
	buf_release(&c.junk);
	snprintf(why, sizeof(why), "%d report%s%s", c.reports, c.reports == 1 ? "" : "s",
		 c.reports == 1 ? ": power needs two" : "");
	return en_end(pf, &l, bad, why);
}
