/*
 * ingest/energy_turbostat.c - turbostat interval output, `turbostat
 * [--quiet] [--Joules] [--show ...] [--enable Time_Of_Day_Seconds]
 * --interval S` (energy-method.md §2.3, energy-formats.md §5):
 *
 *     turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>
 *     Measurement interval: 5.000 seconds
 *     ... configuration dump ...
 *     Time_Of_Day_Seconds<TAB>Core<TAB>CPU<TAB>...<TAB>PkgWatt<TAB>CorWatt
 *     1737461851.853200<TAB>-<TAB>-<TAB>...<TAB>8.45<TAB>1.60
 *     1737461851.852253<TAB>0<TAB>0<TAB>...
 *
 * Everything before the first line that names a power column is the
 * dump.  Fields are tab-separated and read by the header's names; the
 * header is repeated before every interval.  The summary row ('-' in
 * every topology column: Package, Die, Node, Core, CPU) is the one read:
 * its power is the packages' sum, so its domains are the machine's.  The
 * per-CPU rows after it are not read (the package columns appear only on
 * a package's first CPU, and rows are short, not blank, where a column
 * does not apply).  Without a topology column (--show of power columns
 * only) the first row after each header is the summary; with the header
 * printed once (--Summary) every row is.  A file without summary rows
 * (every interval or none has one) is summed over the rows that carry a
 * power column, each package (a core, for CorWatt: AMD's is per core)
 * once, and the interval ends at its rows' latest time (the summary's).
 *
 * The dump's 'RAPL: N sec. Joule Counter Range, at W Watts' is how long
 * the counter takes to wrap at W: turbostat sees one wrap per interval,
 * so a longer interval may hide one and is refused.
 *
 * PkgWatt and the other *Watt columns are the mean power over the
 * interval, the *_J columns of --Joules its energy.  Domains: Pkg
 * "package", RAM "dram", Sys "psys" (the platform: counts alone), Cor
 * "core" and GFX "gfx" (inside the package: reported only).
 *
 * Time: Time_Of_Day_Seconds (Unix seconds, taken per row; the summary's
 * is the latest) ends an interval, the summary before it starts it; the
 * first starts one 'Measurement interval' earlier (without it, at
 * erg.powerStartMs; else it is left out).  Without that column nothing
 * says when turbostat ran: the intervals are laid end to end from
 * erg.powerStartMs, each 'Measurement interval' long (turbostat's own
 * work makes them a little longer: the axis drifts).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/num.h"
#include "base/util.h"
#include "ingest/energy.h"

#define TS_FIELDS 512
#define TS_DOMS 5

struct tcol {
	const char *col, *dom;
	int joules;
};

static const struct tcol power_cols[] = {
	{ "PkgWatt", "package", 0 }, { "Pkg_J", "package", 1 },
	{ "RAMWatt", "dram", 0 }, { "RAM_J", "dram", 1 },
	{ "SysWatt", "psys", 0 }, { "Sys_J", "psys", 1 },
	{ "CorWatt", "core", 0 }, { "Cor_J", "core", 1 },
	{ "GFXWatt", "gfx", 0 }, { "GFX_J", "gfx", 1 },
};

static const struct tcol *
power_col(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(power_cols) / sizeof(power_cols[0]); i++)
		if (!strcmp(name, power_cols[i].col))
			return &power_cols[i];
	return NULL;
}

static int
topology_col(const char *name)
{
	return !strcmp(name, "Package") || !strcmp(name, "Die") || !strcmp(name, "Node") ||
	       !strcmp(name, "Core") || !strcmp(name, "CPU");
}

/* Split line at tabs into f (at most TS_FIELDS); the count, TS_FIELDS + 1
 * when there are more. */
static size_t
split_tabs(char *line, char **f)
{
	size_t n = 0;
	char *p = line, *q;

	for (;;) {
		if (n == TS_FIELDS)
			return n + 1;
		f[n++] = p;
		q = strchr(p, '\t');
		if (!q)
			return n;
		*q = '\0';
		p = q + 1;
	}
}

int
energy_turbostat_header(const char *line)
{
	size_t eol = strcspn(line, "\r\n"), k = 0, n;
	char name[32];

	while (k <= eol) {
		n = strcspn(line + k, "\t\r\n");
		if (n < sizeof(name)) {
			memcpy(name, line + k, n);
			name[n] = '\0';
			if (power_col(name))
				return 1;
		}
		k += n + 1;
	}
	return 0;
}

/* One interval: its line, its time (NAN: no time column), the power
 * columns' values (NAN: no row carried the column). */
struct trow {
	long line;
	double t_ms;
	double v[TS_DOMS];
};

/*
 * An interval without a summary row: the rows that carry a power column
 * (turbostat prints a package's value on the package's first CPU only,
 * a core's on its first thread), summed, each package (for "core": each
 * core) once.
 */
struct tblock {
	struct trow row;
	size_t n[TS_DOMS];	/* rows that carried each column */
	size_t first_n[TS_DOMS]; /* the same in the first interval */
	char **key;		/* "domain/package[/die/core]" of each carrier */
	size_t nkey, akey;
	int open, seen;		/* an interval is being summed; one was */
};

static void
block_clear(struct tblock *b)
{
	size_t i;

	for (i = 0; i < b->nkey; i++)
		free(b->key[i]);
	b->nkey = 0;
	b->open = 0;
}

/*
 * Keep the interval being summed.  Every interval is summed from as many
 * rows as the first: a package's row missing (or one more) would change
 * its figure unseen.  0, or -1 after a diagnostic.
 */
static int
block_flush(const char *path, const struct power_file *pf, struct tblock *b,
	    struct trow **rows, size_t *nrows, size_t *arows)
{
	size_t d;

	if (!b->open)
		return 0;
	for (d = 0; b->seen && d < pf->ndom; d++)
		if (b->n[d] != b->first_n[d])
			return error_at(path, b->row.line, "%s from %zu row%s in the interval "
					"starting here, from %zu in the first: no summary row, "
					"and a package's row is missing or extra", pf->dom[d],
					b->n[d], b->n[d] == 1 ? "" : "s", b->first_n[d]);
	if (!b->seen)
		memcpy(b->first_n, b->n, sizeof(b->n));
	b->seen = 1;
	ALLOC_GROW(*rows, *nrows + 1, *arows);
	(*rows)[(*nrows)++] = b->row;
	block_clear(b);
	return 0;
}

/* RAPL wrap horizon of the configuration dump: 1 if line is one, with
 * its seconds and watts; -1 after a diagnostic. */
static int
rapl_line(const char *path, long no, char *line, double *sec, double *watts)
{
	char *a, *b;

	if (strncmp(line, "RAPL: ", 6) || !strstr(line, "Joule Counter Range"))
		return 0;
	a = line + 6;
	b = strstr(a, " sec. Joule Counter Range, at ");
	if (b && str_endswith(b, " Watts")) {
		*b = '\0';
		b += strlen(" sec. Joule Counter Range, at ");
		b[strlen(b) - strlen(" Watts")] = '\0';
		if (!en_number(a, sec) && *sec > 0 && !en_number(b, watts) && *watts > 0)
			return 1;
	}
	return error_at(path, no, "not 'RAPL: N sec. Joule Counter Range, at N Watts'");
}

int
energy_read_turbostat(const char *path, const struct energy_opts *o, struct power_file *pf)
{
	char *line, *f[TS_FIELDS + 1], *header = NULL, *end;
	size_t len, nf, ncol = 0, k, d, ct = SIZE_MAX, ntopo = 0, topo[8], nrows = 0, arows = 0;
	size_t pcol[TS_DOMS], blk1 = SIZE_MAX, nheaders = 0, blockrows = 0, i;
	size_t cpkg = SIZE_MAX, cdie = SIZE_MAX, ccore = SIZE_MAX;
	int joules[TS_DOMS], bad = 0, r, rc, psys = 0, summary = -1;
	double iv_s = NAN, dj[PDOM_MAX], start, end_ms, s, v, wrap_s = INFINITY, wrap_w = 0;
	double rs, rw;
	long wrap_line = 0;
	struct trow *rows = NULL, *tr;
	struct tblock blk;
	struct buf key = BUF_INIT;
	const struct tcol *c;
	struct elines l;
	char a[NUM_TEXT_LEN], b[NUM_TEXT_LEN], w[NUM_TEXT_LEN];

	memset(&blk, 0, sizeof(blk));
	memset(pf, 0, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->source = "turbostat";
	pf->caveat = "RAPL through turbostat: processor package and DRAM as the CPU "
		     "estimates them, no PSU, board, disk or fan power; the summary row "
		     "(packages summed), printed to 10 mW or 10 mJ";
	if (el_open(&l, path)) {
		power_file_free(pf);
		return -1;
	}
	while (!bad && (r = el_next(&l, &line, &len)) > 0) {
		if (!len)
			continue;
		if (!header) {
			if (!strncmp(line, "Measurement interval: ", 22)) {
				end = strstr(line + 22, " seconds");
				if (!end || end[8])
					bad = error_at(path, l.line, "not 'Measurement interval: "
						       "N seconds'");
				else
					*end = '\0';
				if (!bad && (en_number(line + 22, &iv_s) || !(iv_s > 0)))
					bad = error_at(path, l.line, "measurement interval '%s' is "
						       "not a number of seconds", line + 22);
				continue;
			}
			/* a counter that wraps within an interval wraps unseen:
			 * the shortest horizon printed bounds them all */
			rc = rapl_line(path, l.line, line, &rs, &rw);
			if (rc < 0) {
				bad = -1;
				break;
			}
			if (rc) {
				if (rs < wrap_s) {
					wrap_s = rs;
					wrap_w = rw;
					wrap_line = l.line;
				}
				continue;
			}
			if (!energy_turbostat_header(line))
				continue;
			header = xstrdup(line);
			nheaders = 1;
			nf = split_tabs(line, f);
			if (nf > TS_FIELDS) {
				bad = error_at(path, l.line, "more than %d columns", TS_FIELDS);
				break;
			}
			ncol = nf;
			for (k = 0; k < nf; k++) {
				if (!strcmp(f[k], "Time_Of_Day_Seconds")) {
					ct = k;
				} else if (topology_col(f[k])) {
					if (ntopo == sizeof(topo) / sizeof(topo[0])) {
						bad = error_at(path, l.line, "topology column '%s' "
							       "twice", f[k]);
						break;
					}
					topo[ntopo++] = k;
					if (!strcmp(f[k], "Package"))
						cpkg = k;
					else if (!strcmp(f[k], "Die"))
						cdie = k;
					else if (!strcmp(f[k], "Core"))
						ccore = k;
				} else if ((c = power_col(f[k]))) {
					for (d = 0; d < pf->ndom && strcmp(pf->dom[d], c->dom); d++)
						;
					if (d < pf->ndom) {
						bad = error_at(path, l.line, "two columns of '%s' (%s)",
							       c->dom, f[k]);
						break;
					}
					power_add_domain(pf, c->dom, !power_dom_subzone(c->dom));
					pcol[d] = k;
					joules[d] = c->joules;
					psys |= !strcmp(c->dom, "psys");
				}
			}
			/* psys covers the packages and DRAM: it counts alone */
			for (d = 0; psys && d < pf->ndom; d++)
				pf->dom_sum[d] = !strcmp(pf->dom[d], "psys");
			continue;
		}
		if (!strcmp(line, header)) {
			/* the next interval; without topology columns, rows after
			 * the first of the first block were per-CPU ones */
			if (++nheaders == 2 && !ntopo && blk1 != SIZE_MAX)
				nrows = blk1 + 1;
			blockrows = 0;
			if (block_flush(path, pf, &blk, &rows, &nrows, &arows)) {
				bad = -1;
				break;
			}
			continue;
		}
		nf = split_tabs(line, f);
		if (nf > ncol) {
			bad = error_at(path, l.line, "%zu fields, the header has %zu", nf, ncol);
			break;
		}
		if (ntopo) {
			for (k = 0; k < ntopo && topo[k] < nf && !strcmp(f[topo[k]], "-"); k++)
				;
			if (k && k < ntopo) {
				bad = error_at(path, l.line, "'-' in some topology columns, not all");
				break;
			}
			if (!blockrows++) {
				/* a summary row in every interval, or in none */
				if (summary == 0 && k) {
					bad = error_at(path, l.line, "a summary row ('-' in the "
						       "topology columns), where the intervals before "
						       "had none");
					break;
				}
				if (summary == 1 && !k) {
					bad = error_at(path, l.line, "the first row after the header "
						       "is not the summary ('-' in the topology "
						       "columns)");
					break;
				}
				summary = k != 0;
			}
			if (!summary) {
				if (k) {
					bad = error_at(path, l.line, "a summary row ('-' in the "
						       "topology columns) inside an interval");
					break;
				}
				if (!blk.open) {
					blk.open = 1;
					blk.row.line = l.line;
					blk.row.t_ms = NAN;
					for (d = 0; d < TS_DOMS; d++) {
						blk.row.v[d] = NAN;
						blk.n[d] = 0;
					}
				}
				if (ct != SIZE_MAX) {
					if (ct >= nf || en_number(f[ct], &s) || !(s > 0)) {
						bad = error_at(path, l.line, "Time_Of_Day_Seconds '%s' "
							       "is not Unix seconds",
							       ct < nf ? f[ct] : "");
						break;
					}
					if (!(s * 1000 <= blk.row.t_ms))
						blk.row.t_ms = s * 1000;
				}
				for (d = 0; d < pf->ndom; d++) {
					if (pcol[d] >= nf)
						continue;	/* not this row's scope */
					if (en_number(f[pcol[d]], &v) || v < 0) {
						bad = error_at(path, l.line, "%s '%s' is not a number "
							       "of %s", pf->dom[d], f[pcol[d]],
							       joules[d] ? "joules" : "watts");
						break;
					}
					buf_reset(&key);
					buf_addf(&key, "%s", cpkg != SIZE_MAX ? f[cpkg] : "0");
					if (!strcmp(pf->dom[d], "core"))
						buf_addf(&key, "/%s/%s", cdie != SIZE_MAX ? f[cdie] : "",
							 ccore != SIZE_MAX ? f[ccore] : "");
					buf_addf(&key, ":%zu", d);
					for (k = 0; k < blk.nkey && strcmp(blk.key[k], key.ptr); k++)
						;
					if (k < blk.nkey) {
						bad = error_at(path, l.line, "%s of package %s again in the "
							       "interval of line %ld: no summary row, and "
							       "which row counts cannot be told",
							       pf->dom[d], cpkg != SIZE_MAX ? f[cpkg] : "0",
							       blk.row.line);
						break;
					}
					ALLOC_GROW(blk.key, blk.nkey + 1, blk.akey);
					blk.key[blk.nkey++] = xstrdup(key.ptr);
					blk.row.v[d] = blk.n[d]++ ? blk.row.v[d] + v : v;
				}
				if (bad)
					break;
				continue;
			}
			if (!k)
				continue;
		} else if (blockrows++ && nheaders > 1) {
			continue;
		}
		if (nf < ncol) {
			/* turbostat killed mid-line leaves a short last line */
			if (l.eof && l.pos == l.b.len) {
				warn_at(path, l.line, "%zu fields, the header has %zu: a cut last "
					"line, left out", nf, ncol);
				break;
			}
			bad = error_at(path, l.line, "the summary row has %zu fields, the header "
				       "%zu", nf, ncol);
			break;
		}
		ALLOC_GROW(rows, nrows + 1, arows);
		tr = &rows[nrows];
		if (nheaders == 1 && blk1 == SIZE_MAX)
			blk1 = nrows;
		nrows++;
		tr->line = l.line;
		tr->t_ms = NAN;
		if (ct != SIZE_MAX) {
			if (en_number(f[ct], &s) || !(s > 0)) {
				bad = error_at(path, l.line, "Time_Of_Day_Seconds '%s' is not Unix "
					       "seconds", f[ct]);
				break;
			}
			tr->t_ms = s * 1000;
		}
		for (d = 0; d < pf->ndom; d++) {
			if (en_number(f[pcol[d]], &v) || v < 0) {
				bad = error_at(path, l.line, "%s '%s' is not a number of %s",
					       pf->dom[d], f[pcol[d]], joules[d] ? "joules" : "watts");
				break;
			}
			tr->v[d] = v;
		}
	}
	if (!bad && r < 0)
		bad = -1;
	/* the last interval without a summary: whole, or cut short */
	if (!bad && blk.open) {
		for (d = 0; d < pf->ndom && (!blk.seen || blk.n[d] == blk.first_n[d]); d++)
			;
		if (d < pf->ndom)
			warn_at(path, blk.row.line, "the last interval has %s from %zu row%s, the "
				"first from %zu (cut short): left out", pf->dom[d], blk.n[d],
				blk.n[d] == 1 ? "" : "s", blk.first_n[d]);
		else
			bad = block_flush(path, pf, &blk, &rows, &nrows, &arows);
	}
	if (!bad && !header)
		bad = error_at(path, 0, "no turbostat header with a power column (PkgWatt, "
			       "RAMWatt, SysWatt, or their _J with --Joules)");
	if (!bad && !nrows)
		bad = error_at(path, 0, "no summary row");
	if (!bad && ct == SIZE_MAX && (!o || !o->start_set))
		bad = error_at(path, rows[0].line, "no start time: without a "
			       "Time_Of_Day_Seconds column (--enable Time_Of_Day_Seconds) give "
			       "meta.json erg.powerStartMs");
	if (!bad && ct == SIZE_MAX && isnan(iv_s))
		bad = error_at(path, rows[0].line, "no interval length: without a "
			       "Time_Of_Day_Seconds column erg needs turbostat's 'Measurement "
			       "interval' line (not printed with --quiet)");
	for (i = 0; !bad && i < nrows; i++) {
		if (ct == SIZE_MAX) {
			start = o->start_ms + (double)i * iv_s * 1000;
			end_ms = o->start_ms + (double)(i + 1) * iv_s * 1000;
		} else if (i) {
			start = rows[i - 1].t_ms;
			end_ms = rows[i].t_ms;
		} else if (!isnan(iv_s) || (o && o->start_set)) {
			end_ms = rows[0].t_ms;
			start = !isnan(iv_s) ? end_ms - iv_s * 1000 : o->start_ms;
		} else {
			warn_at(path, rows[0].line, "the first interval has no start ('Measurement "
				"interval' is not printed with --quiet): left out");
			continue;
		}
		if (end_ms - start > wrap_s * 1000) {
			bad = error_at(path, rows[i].line, "the interval ending here is %s s, longer "
				       "than the %s s in which the RAPL counter wraps at %s W "
				       "(line %ld): its energy cannot be trusted",
				       num_text(a, (end_ms - start) / 1000), num_text(b, wrap_s),
				       num_text(w, wrap_w), wrap_line);
			break;
		}
		for (d = 0; d < pf->ndom; d++)
			dj[d] = joules[d] ? rows[i].v[d] : rows[i].v[d] * (end_ms - start) / 1000;
		en_add_sample(pf, start, end_ms, rows[i].line, dj);
	}
	if (!bad && !pf->n)
		bad = error_at(path, 0, "no interval of '%s' can be placed in time",
			       strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	block_clear(&blk);
	free(blk.key);
	buf_release(&key);
	free(rows);
	free(header);
	return en_end(pf, &l, bad, NULL);
}
