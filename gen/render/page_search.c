/* page_search.c - the site-wide search and its sharded index (see page_search.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "base/util.h"
#include "render/page_run.h"
#include "render/page_search.h"
#include "render/tmpl.h"
#include "render/view.h"

/*
 * s as a JSON string that is ASCII only and holds no '<', '>' or '&', so
 * that no archive text can close the script or read as markup wherever
 * the file ends up.  Controls are dropped and bidirectional controls made
 * visible first (utf8_clean(), as the pages write them); an ill-formed
 * sequence becomes U+FFFD.
 */
static void
js_string(struct buf *out, struct buf *tmp, const char *s)
{
	size_t i, k;
	uint32_t cp;

	buf_reset(tmp);
	utf8_clean(tmp, s ? s : "", s ? strlen(s) : 0);
	buf_addch(out, '"');
	for (i = 0; i < tmp->len; i += k) {
		k = utf8_decode(tmp->ptr + i, tmp->len - i, &cp);
		if (cp == UTF8_BAD)
			cp = 0xfffd;
		if (cp == '"' || cp == '\\')
			buf_addf(out, "\\%c", (char)cp);
		else if (cp >= 0x20 && cp < 0x7f && cp != '<' && cp != '>' && cp != '&')
			buf_addch(out, (char)cp);
		else if (cp < 0x10000)
			buf_addf(out, "\\u%04x", (unsigned)cp);
		else	/* a surrogate pair, as JSON spells what is past U+FFFF */
			buf_addf(out, "\\u%04x\\u%04x", (unsigned)(0xd800 + ((cp - 0x10000) >> 10)),
				 (unsigned)(0xdc00 + ((cp - 0x10000) & 0x3ff)));
	}
	buf_addch(out, '"');
}

/* Where the head collects its counts while the shards are written. */
struct head {
	struct buf shards;		/* [file, year, runs], ... */
	char (*yname)[16];		/* the years seen, in order */
	size_t *ycount, ny;
	size_t nshards;
	struct buf tmp;
};

static void
count_year(struct head *h, const char *year, size_t n, size_t cap)
{
	size_t i;

	for (i = 0; i < h->ny && strcmp(h->yname[i], year); i++)
		;
	if (i == h->ny) {
		if (h->ny == cap)
			BUG("count_year: more years than runs");
		snprintf(h->yname[h->ny], sizeof(h->yname[0]), "%s", year);
		h->ycount[h->ny++] = 0;
	}
	h->ycount[i] += n;
}

/* Shard K: runs[first .. end). */
static int
shard_write(struct render_ctx *c, struct head *h, const struct search_src *s, size_t first,
	    size_t end, struct buf *text)
{
	char name[48];

	snprintf(name, sizeof(name), "runs-%zu.js", ++h->nshards);
	buf_addstr(text, "];\n");
	buf_addf(&h->shards, "%s[\"%s\",", h->nshards > 1 ? "," : "", name);
	js_string(&h->shards, &h->tmp, s->runs[first].year);
	buf_addf(&h->shards, ",%zu]", end - first);
	count_year(h, s->runs[first].year, end - first, s->nruns);
	buf_reset(&h->tmp);
	buf_addf(&h->tmp, "search/%s", name);
	return sink_write(&c->out, h->tmp.ptr, text->ptr, text->len);
}

static void
shard_start(struct buf *text, size_t k)
{
	buf_reset(text);
	buf_addf(text, "/* erg: runs of the search index, part %zu (data only) */\n"
		 "ERG_SEARCH_SHARDS[%zu] = [", k + 1, k);
}

/*
 * The shards, newest run first: a new one at each change of year, and
 * before a run that would take one past s->shard_runs runs or
 * SEARCH_SHARD_BYTES (a run longer than that alone has a shard of its
 * own).  Each is written as soon as it is full: what is held is one shard.
 */
static int
shards_write(struct render_ctx *c, struct head *h, const struct search_src *s)
{
	struct buf text = BUF_INIT, row = BUF_INIT;
	size_t i, j, k, nt, first = 0;
	int rc = 0;

	shard_start(&text, 0);
	for (i = 0; i < s->nruns && !rc; i++) {
		const struct search_run *r = &s->runs[i];

		if (r->machine >= s->nmachines)
			BUG("shards_write: run '%s' of machine %zu of %zu", r->id, r->machine,
			    s->nmachines);
		buf_reset(&row);
		buf_addch(&row, '[');
		js_string(&row, &h->tmp, r->id);
		buf_addch(&row, ',');
		js_string(&row, &h->tmp, r->title ? r->title : r->id);
		buf_addf(&row, ",%zu,", r->machine);
		js_string(&row, &h->tmp, r->date);
		buf_addch(&row, ',');
		js_string(&row, &h->tmp, r->href);
		buf_addstr(&row, ",[");
		for (j = 0, nt = 0; j < r->ntg; j++) {
			/* each target once, a run may name it in two spellings */
			for (k = 0; k < j && r->tg[k] != r->tg[j]; k++)
				;
			if (r->tg[j] < s->ntargets && k == j)
				buf_addf(&row, "%s%zu", nt++ ? "," : "", r->tg[j]);
		}
		buf_addstr(&row, "]]");
		if (i > first && (strcmp(r->year, s->runs[first].year) ||
				  i - first == s->shard_runs ||
				  text.len + row.len + 4 > SEARCH_SHARD_BYTES)) {
			rc = shard_write(c, h, s, first, i, &text);
			first = i;
			shard_start(&text, h->nshards);
		}
		if (i > first)
			buf_addch(&text, ',');
		buf_add(&text, row.ptr, row.len);
	}
	if (!rc && s->nruns)
		rc = shard_write(c, h, s, first, s->nruns, &text);
	buf_release(&text);
	buf_release(&row);
	return rc;
}

static void
head_text(struct buf *out, struct head *h, const struct search_src *s)
{
	size_t i;

	buf_addf(out, "/* erg: the search index of search/index.html (data only) */\n"
		 "var ERG_SEARCH = {\"runs\":%zu,\"machines\":[", s->nruns);
	for (i = 0; i < s->nmachines; i++) {
		const struct search_machine *m = &s->machines[i];

		buf_addstr(out, i ? ",[" : "[");
		js_string(out, &h->tmp, m->key);
		buf_addch(out, ',');
		js_string(out, &h->tmp, m->label);
		buf_addstr(out, ",\"machines/");
		/* a slug is [A-Za-z0-9._-] (page_views.h): nothing to escape */
		buf_addf(out, "%s/index.html\",%zu]", m->slug, m->nruns);
	}
	buf_addstr(out, "],\"targets\":[");
	for (i = 0; i < s->ntargets; i++) {
		buf_addstr(out, i ? ",[" : "[");
		js_string(out, &h->tmp, s->targets[i].name);
		buf_addf(out, ",\"targets/%s/index.html\"]", s->targets[i].slug);
	}
	buf_addstr(out, "],\"years\":[");
	for (i = 0; i < h->ny; i++) {
		buf_addstr(out, i ? ",[" : "[");
		js_string(out, &h->tmp, h->yname[i]);
		buf_addf(out, ",%zu]", h->ycount[i]);
	}
	buf_addstr(out, "],\"shards\":[");
	buf_add(out, h->shards.ptr, h->shards.len);
	buf_addstr(out, "]};\nvar ERG_SEARCH_SHARDS = [];\n");
}

int
search_write(struct render_ctx *c, const struct tmpl *t, const struct search_src *s)
{
	struct head h = { .shards = BUF_INIT, .tmp = BUF_INIT };
	struct buf out = BUF_INIT, b = BUF_INIT;
	json_t *view;
	size_t i;
	int rc;

	if (!s->shard_runs)
		BUG("search_write: shards of 0 runs");
	for (i = 0; i < s->nmachines; i++)
		if (!s->machines[i].slug || strpbrk(s->machines[i].slug, "\"\\<>&"))
			BUG("search_write: machine slug '%s'", s->machines[i].slug);
	for (i = 0; i < s->ntargets; i++)
		if (!s->targets[i].slug || strpbrk(s->targets[i].slug, "\"\\<>&"))
			BUG("search_write: target slug '%s'", s->targets[i].slug);
	h.yname = xcalloc(s->nruns + 1, sizeof(*h.yname));
	h.ycount = xcalloc(s->nruns + 1, sizeof(*h.ycount));
	rc = shards_write(c, &h, s);
	if (!rc) {
		head_text(&out, &h, s);
		rc = sink_write(&c->out, "search/index.js", out.ptr, out.len);
	}
	if (!rc) {
		view = json_object();
		set_s(view, "title", "Search");
		json_object_set_new(view, "up", up_list(1));
		json_object_set_new(view, "built", build_date());
		buf_addf(&b, "%zu run%s, %zu machine%s and %zu target%s, searched in the "
			 "browser: nothing leaves the page.", s->nruns, s->nruns == 1 ? "" : "s",
			 s->nmachines, s->nmachines == 1 ? "" : "s", s->ntargets,
			 s->ntargets == 1 ? "" : "s");
		set_s(view, "sub", b.ptr);
		set_s(view, "noscript", "The search needs JavaScript; the lists of machines and "
					"targets link to every page without it.");
		buf_reset(&out);
		rc = tmpl_render(t, view, &out, 1) ||
		     sink_write(&c->out, "search/index.html", out.ptr, out.len) ? -1 : 0;
		json_decref(view);
	}
	buf_release(&out);
	buf_release(&b);
	buf_release(&h.shards);
	buf_release(&h.tmp);
	free(h.yname);
	free(h.ycount);
	return rc;
}
