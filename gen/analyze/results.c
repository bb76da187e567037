/* results.c - struct run -> results.json (see results.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonx.h"
#include "analyze/results.h"
#include "base/util.h"

static json_t *
stat_json(const struct stat5 *s, int with_ci)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", jx_real(s->mean));
	json_object_set_new(o, "sd", jx_real(s->sd));
	json_object_set_new(o, "cv", jx_real(s->cv));
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "min", jx_real(s->min));
	json_object_set_new(o, "max", jx_real(s->max));
	if (with_ci) {
		json_t *ci = json_array();

		json_array_append_new(ci, jx_real(s->ci_lo));
		json_array_append_new(ci, jx_real(s->ci_hi));
		json_object_set_new(o, "ci95", ci);
	}
	return o;
}

static json_t *
meansd_json(const struct stat5 *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "mean", jx_real(s->mean));
	json_object_set_new(o, "sd", jx_real(s->sd));
	return o;
}

static json_t *
pick(json_t *meta, const char *key)
{
	json_t *v = json_object_get(meta, key);

	return v ? json_deep_copy(v) : json_object();
}


/* The run-wide domains: name of index g (power_file.dom_g), NULL if none. */
static const char *
dom_name(const struct run *r, size_t g, int *sum)
{
	size_t f, d;

	for (f = 0; f < r->npf; f++)
		for (d = 0; d < r->pf[f].ndom; d++)
			if (r->pf[f].dom_g[d] == g) {
				*sum = r->pf[f].dom_sum[d];
				return r->pf[f].dom[d];
			}
	return NULL;
}

/* "powermetrics", "powercap-log", "powercap-log + nvidia-smi", "none" */
static const char *
source_name(const struct run *r)
{
	static _Thread_local char b[256];
	size_t i, n = 0;

	if (!r->npf)
		return "none";
	b[0] = '\0';
	for (i = 0; i < r->npf; i++) {
		if (i && r->pf[i].group == r->pf[i - 1].group)
			continue;
		n += (size_t)snprintf(b + n, n < sizeof(b) ? sizeof(b) - n : 0, "%s%s",
				      i ? " + " : "", r->pf[i].source ? r->pf[i].source
				      : "powermetrics");
		if (n >= sizeof(b))
			break;
	}
	return b;
}

/*
 * Per domain, the headline energy of each target as published: per
 * measurement the domain's joules over the small routes x 1000 / their
 * requests, then the mean over the rounds, so that the summed domains
 * add up to the headline.  NAN (null) where a measurement lacks it.
 */
static json_t *
head_domains_json(const struct run *r, const struct target *t)
{
	json_t *o = json_object();
	size_t g, i, j, n;
	double sum, ej, req;
	const char *name;
	int counted;

	for (g = 0; g < PDOM_MAX; g++) {
		if (!(name = dom_name(r, g, &counted)))
			continue;
		sum = 0;
		n = 0;
		for (i = 0; i < r->nm; i++) {
			const struct measurement *m = &r->m[i];
			int small = 0;

			if (strcmp(m->target, t->name))
				continue;
			ej = req = 0;
			for (j = 0; j < m->nroutes; j++) {
				if (m->routes[j].per_mb)
					continue;
				small = 1;
				ej += m->routes[j].pw.dom_j[g];
				req += m->routes[j].requests;
			}
			if (small) {
				sum += ej * 1000.0 / req;
				n++;
			}
		}
		json_object_set_new(o, name, jx_real(n ? sum / (double)n : NAN));
	}
	return o;
}

/* The sources of the energy: kind, files, domains (counted or reported
 * only), and what the figures leave out. */
static json_t *
energy_json(const struct run *r)
{
	json_t *arr = json_array(), *src = NULL, *files = NULL, *doms;
	size_t i, d;

	for (i = 0; i < r->npf; i++) {
		const struct power_file *pf = &r->pf[i];
		const char *base = strrchr(pf->path, '/');

		if (!i || pf->group != r->pf[i - 1].group) {
			src = json_object();
			files = json_array();
			doms = json_array();
			json_object_set_new(src, "kind", json_string(pf->source ? pf->source
								     : "powermetrics"));
			json_object_set_new(src, "caveat", jx_string(pf->caveat));
			for (d = 0; d < pf->ndom; d++) {
				json_t *x = json_object();

				json_object_set_new(x, "name", json_string(pf->dom[d]));
				json_object_set_new(x, "counted", json_boolean(pf->dom_sum[d]));
				json_array_append_new(doms, x);
			}
			json_object_set_new(src, "domains", doms);
			json_object_set_new(src, "files", files);
			json_array_append_new(arr, src);
		}
		json_array_append_new(files, json_string(base ? base + 1 : pf->path));
	}
	return arr;
}

static json_t *
targets_json(const struct run *r)
{
	json_t *arr = json_array();
	size_t i, j;

	for (i = 0; i < r->ntargets; i++) {
		const struct target *t = &r->targets[i];
		json_t *o = json_object(), *h = json_object(), *routes = json_array();
		json_t *small = json_array();

		json_object_set_new(o, "name", json_string(t->name));
		json_object_set_new(h, "mj_per_req", stat_json(&t->head_mj, 1));
		json_object_set_new(h, "rps", jx_real(t->head_rps.mean));
		json_object_set_new(h, "watts", jx_real(t->head_watts.mean));
		json_object_set_new(h, "watts_sd", jx_real(t->head_watts.sd));
		json_object_set_new(h, "rps_sd", jx_real(t->head_rps.sd));
		json_object_set_new(h, "rank_mj_per_req", json_integer(t->rank_mj));
		json_object_set_new(h, "rank_watts", json_integer(t->rank_watts));
		for (j = 0; j < t->nroutes; j++)
			if (!t->routes[j].per_mb)
				json_array_append_new(small, json_string(t->routes[j].name));
		json_object_set_new(h, "routes", small);
		json_object_set_new(h, "weighting", json_string("request-weighted"));
		json_object_set_new(h, "energy", json_string("gross"));
		/* mj_per_req divides by every request, answered 2xx or not;
		 * mj_per_2xx by the 2xx responses alone */
		json_object_set_new(h, "denominator", json_string("requests"));
		json_object_set_new(h, "mj_per_2xx", stat_json(&t->head_mj_2xx, 1));
		json_object_set_new(h, "domains_mj_per_req", head_domains_json(r, t));
		json_object_set_new(o, "headline", h);
		for (j = 0; j < t->nroutes; j++) {
			const struct target_route *tr = &t->routes[j];
			json_t *ro = json_object();

			json_object_set_new(ro, "name", json_string(tr->name));
			json_object_set_new(ro, "per", json_string(tr->per_mb ? "MB" : "request"));
			json_object_set_new(ro, "mj_per_req", stat_json(&tr->mj_per_req, 1));
			json_object_set_new(ro, "net_mj_per_req", jx_real(tr->net_mj_per_req));
			json_object_set_new(ro, "mj_per_mb", jx_real(tr->mj_per_mb.mean));
			json_object_set_new(ro, "mj_per_mb_stat", stat_json(&tr->mj_per_mb, 1));
			json_object_set_new(ro, "rps", meansd_json(&tr->rps));
			json_object_set_new(ro, "watts", meansd_json(&tr->watts));
			json_object_set_new(ro, "idle_share", jx_real(tr->idle_share));
			json_object_set_new(ro, "mj_per_2xx", jx_real(tr->mj_per_2xx));
			json_array_append_new(routes, ro);
		}
		json_object_set_new(o, "routes", routes);
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *
load_json(const struct route_win *w)
{
	const struct load_result *l = &w->load;
	json_t *o = json_object(), *p = json_object();
	size_t i;

	json_object_set_new(o, "file", jx_string(w->load_rel));
	json_object_set_new(o, "tool", json_string(load_tool_name(l->tool)));
	json_object_set_new(o, "url", jx_string(l->url));
	json_object_set_new(o, "connections", jx_real(l->connections));
	json_object_set_new(o, "time_taken_s", jx_real(l->time_taken_s));
	json_object_set_new(o, "latency_mean_us", jx_real(l->lat_mean_us));
	json_object_set_new(o, "latency_sd_us", jx_real(l->lat_sd_us));
	json_object_set_new(o, "latency_max_us", jx_real(l->lat_max_us));
	for (i = 0; i < PCT_N; i++) {
		char key[16];

		snprintf(key, sizeof(key), "p%g", load_pct_value[i]);
		json_object_set_new(p, key, jx_real(l->lat_pct_us[i]));
	}
	json_object_set_new(o, "latency_pct_us", p);
	return o;
}

static json_t *
measurements_json(const struct run *r)
{
	json_t *arr = json_array();
	size_t i, j;

	for (i = 0; i < r->nm; i++) {
		const struct measurement *m = &r->m[i];
		json_t *o = json_object(), *routes = json_array();

		json_object_set_new(o, "id", json_string(m->id));
		json_object_set_new(o, "target", json_string(m->target));
		json_object_set_new(o, "round", m->round >= 0 ? json_integer(m->round) : json_null());
		json_object_set_new(o, "slot", m->slot >= 0 ? json_integer(m->slot) : json_null());
		json_object_set_new(o, "start_ms", jx_real(m->start_ms));
		json_object_set_new(o, "end_ms", jx_real(m->end_ms));
		json_object_set_new(o, "session_min", jx_real(m->session_min));
		json_object_set_new(o, "startup_ms", jx_real(m->startup_ms));
		json_object_set_new(o, "rss_before_bytes", jx_real(m->rss_before));
		json_object_set_new(o, "rss_after_bytes", jx_real(m->rss_after));
		json_object_set_new(o, "headline_mj_per_req", jx_real(m->head_mj_per_req));
		json_object_set_new(o, "headline_rps", jx_real(m->head_rps));
		json_object_set_new(o, "headline_watts", jx_real(m->head_watts));
		json_object_set_new(o, "headline_mj_per_2xx", jx_real(m->head_mj_per_2xx));
		for (j = 0; j < m->nroutes; j++) {
			const struct route_win *w = &m->routes[j];
			json_t *ro = json_object();

			json_object_set_new(ro, "name", json_string(w->name));
			json_object_set_new(ro, "per", json_string(w->per_mb ? "MB" : "request"));
			json_object_set_new(ro, "start_ms", jx_real(w->start_ms));
			json_object_set_new(ro, "end_ms", jx_real(w->end_ms));
			json_object_set_new(ro, "requests", jx_real(w->requests));
			json_object_set_new(ro, "bytes_read", jx_real(w->bytes_read));
			json_object_set_new(ro, "non_2xx", jx_real(w->non2xx));
			json_object_set_new(ro, "responses_2xx", jx_real(w->ok2xx));
			json_object_set_new(ro, "errors", jx_real(w->errors));
			/* the tool's own failed count (k6, JMeter, vegeta): by its
			 * rule, not the status classes, so beside non_2xx */
			json_object_set_new(ro, "failed", jx_real(w->has_load ? w->load.failed : NAN));
			json_object_set_new(ro, "rps", jx_real(w->rps_mean));
			json_object_set_new(ro, "rps_sd", jx_real(w->rps_sd));
			json_object_set_new(ro, "energy_j", jx_real(w->pw.energy_j));
			json_object_set_new(ro, "mean_watts", jx_real(w->pw.mean_watts));
			json_object_set_new(ro, "coverage", jx_real(w->pw.coverage));
			json_object_set_new(ro, "samples", json_integer((json_int_t)w->pw.samples));
			json_object_set_new(ro, "idle_window",
					    w->idle >= 0 ? json_string(r->idle[w->idle].id) : json_null());
			json_object_set_new(ro, "idle_watts", jx_real(w->idle_watts));
			json_object_set_new(ro, "net_energy_j", jx_real(w->net_energy_j));
			json_object_set_new(ro, "idle_share", jx_real(w->idle_share));
			json_object_set_new(ro, "mj_per_req", jx_real(w->mj_per_req));
			json_object_set_new(ro, "net_mj_per_req", jx_real(w->net_mj_per_req));
			json_object_set_new(ro, "mj_per_mb", jx_real(w->mj_per_mb));
			json_object_set_new(ro, "mj_per_2xx", jx_real(w->mj_per_2xx));
			json_object_set_new(ro, "cluster_mhz", jx_real(w->pw.cluster_mhz));
			json_object_set_new(ro, "thermal", jx_string(thermal_name(w->pw.thermal)));
			json_object_set_new(ro, "load", w->has_load ? load_json(w) : json_null());
			json_array_append_new(routes, ro);
		}
		json_object_set_new(o, "routes", routes);
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *
idle_json(const struct run *r)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < r->nidle; i++) {
		const struct idle_win *w = &r->idle[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", json_string(w->id));
		json_object_set_new(o, "kind", jx_string(w->kind));
		json_object_set_new(o, "start_ms", jx_real(w->start_ms));
		json_object_set_new(o, "end_ms", jx_real(w->end_ms));
		json_object_set_new(o, "baseline_start_ms", jx_real(w->base_start_ms));
		json_object_set_new(o, "baseline_end_ms", jx_real(w->base_end_ms));
		json_object_set_new(o, "session_min", jx_real(w->session_min));
		json_object_set_new(o, "mean_watts", jx_real(w->pw.mean_watts));
		json_object_set_new(o, "energy_j", jx_real(w->pw.energy_j));
		json_object_set_new(o, "samples", json_integer((json_int_t)w->pw.samples));
		json_object_set_new(o, "coverage", jx_real(w->pw.coverage));
		json_object_set_new(o, "follows", jx_string(w->follows));
		json_object_set_new(o, "precedes", jx_string(w->precedes));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* n digits at s as a number, -1 when any is not a digit */
static long long
digits(const char *s, int n)
{
	long long v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* "YYYY-MM-DD" then "THH:MM" (colon) or "THHMM" (a run id) at s, in
 * minutes since the epoch; -1 when it is not that */
static long long
iso_minutes(const char *s, int colon)
{
	long long y, mo, d, h, mi;

	if (strlen(s) < (colon ? 16u : 15u) || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    (colon && s[13] != ':'))
		return -1;
	y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
	h = digits(s + 11, 2), mi = digits(s + (colon ? 14 : 13), 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59)
		return -1;
	return days_from_civil(y, mo, d) * 1440 + h * 60 + mi;
}

/*
 * The run's local time as an ISO 8601 text with its offset, when the run
 * records it; NULL when it does not (pages then say UTC).  capturedAt with
 * an offset other than Z is that already.  A Z capturedAt beside a run id
 * that names a local minute ("2026-08-26T0856-saturated" beside
 * "2026-08-26T01:56:28.850Z") gives the offset the id implies, when that
 * is a whole quarter hour within 14 h and the id's minute is the one
 * capturedAt falls in, give or take two minutes (the runner names the run
 * as it starts; capturedAt is its preflight); an id equal to UTC says
 * nothing more than Z.
 */
static json_t *
local_time(const struct run *r, const char **from)
{
	const char *iso = json_string_value(json_object_get(r->meta, "capturedAt"));
	const char *id = r->id ? strrchr(r->id, '/') : NULL;
	long long ut, lt, off, sec, days, era, doe, yoe, doy, mp;
	char s[256];	/* nine of any long long: gcc cannot see the ranges */
	size_t n;

	*from = NULL;
	if (!iso || iso_minutes(iso, 1) < 0)
		return NULL;
	n = strlen(iso);
	if (n > 6 && (iso[n - 6] == '+' || iso[n - 6] == '-') && iso[n - 3] == ':') {
		*from = "captured_at";
		return json_string(iso);
	}
	id = id ? id + 1 : r->id;
	if (!id || iso[n - 1] != 'Z' || (lt = iso_minutes(id, 0)) < 0 ||
	    (sec = digits(iso + 17, 2)) < 0 || iso[16] != ':')
		return NULL;
	ut = iso_minutes(iso, 1);
	off = (lt - ut + (lt >= ut ? 7 : -7)) / 15 * 15;
	if (off == 0 || off > 14 * 60 || off < -14 * 60 || llabs(lt - ut - off) > 2)
		return NULL;
	/* the local time: capturedAt's minute shifted, its seconds kept */
	lt = ut + off;
	days = (lt >= 0 ? lt : lt - 1439) / 1440 + 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	snprintf(s, sizeof(s), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld%c%02lld:%02lld",
		 yoe + era * 400 + (mp >= 10), mp < 10 ? mp + 3 : mp - 9,
		 doy - (153 * mp + 2) / 5 + 1, (lt % 1440 + 1440) % 1440 / 60,
		 (lt % 60 + 60) % 60, sec, off < 0 ? '-' : '+', llabs(off) / 60, llabs(off) % 60);
	*from = "run id";
	return json_string(s);
}

json_t *
results_json(const struct run *r)
{
	json_t *o = json_object(), *cond = json_object(), *sw;
	json_t *power = json_array();
	size_t i;
	double v;

	json_object_set_new(o, "run", json_string(r->id));
	json_object_set_new(o, "kind", json_string(r->kind));
	json_object_set_new(o, "title", json_deep_copy(json_object_get(r->meta, "title")
						       ? json_object_get(r->meta, "title") : json_null()));
	json_object_set_new(o, "captured_at", json_deep_copy(json_object_get(r->meta, "capturedAt")
							     ? json_object_get(r->meta, "capturedAt")
							     : json_null()));
	{
		const char *from;
		json_t *lt = local_time(r, &from);

		json_object_set_new(o, "captured_local", lt ? lt : json_null());
		json_object_set_new(o, "captured_local_from", from ? json_string(from) : json_null());
	}
	/* the performance cluster as the samples name it, for cluster_mhz */
	for (i = 0; i < r->npf && !r->pf[i].pclust_name; i++)
		;
	json_object_set_new(o, "performance_cluster",
			    i < r->npf ? json_pack("{s:s,s:I}", "name", r->pf[i].pclust_name,
						   "count", (json_int_t)r->pf[i].pclust_count)
				       : json_null());
	json_object_set_new(o, "machine", pick(r->meta, "machine"));
	sw = pick(r->meta, "tools");
	if (json_object_get(r->meta, "upstream"))
		json_object_set(sw, "upstream", json_object_get(r->meta, "upstream"));
	json_object_set_new(o, "software", sw);
	if (jx_num(r->meta, "roomTempC", &v) > 0)
		json_object_set_new(cond, "room_temp_c", jx_real(v));
	if (json_object_get(r->meta, "power"))
		json_object_set(cond, "power", json_object_get(r->meta, "power"));
	if (json_object_get(r->meta, "load"))
		json_object_set(cond, "load", json_object_get(r->meta, "load"));
	if (json_object_get(r->meta, "methodology"))
		json_object_set(cond, "methodology", json_object_get(r->meta, "methodology"));
	if (r->session_start)
		json_object_set(cond, "session_start", r->session_start);
	json_object_set_new(cond, "session_start_ms", jx_real(r->session_start_ms));
	json_object_set_new(cond, "session_end_ms", jx_real(r->session_end_ms));
	json_object_set_new(cond, "heartbeats", json_integer((json_int_t)r->heartbeats));
	json_object_set_new(cond, "resumed", json_integer(r->resumed));
	json_object_set_new(o, "conditions", cond);
	/* json_deep_copy returns a new reference; the defaults must not be
	 * created only to be copied (they would leak). */
	json_object_set_new(o, "reconstructed", jx_path(r->meta, "erg.reconstructed")
			    ? json_deep_copy(jx_path(r->meta, "erg.reconstructed")) : json_null());
	json_object_set_new(o, "caveats", json_object_get(r->meta, "caveats")
			    ? json_deep_copy(json_object_get(r->meta, "caveats")) : json_array());
	json_object_set_new(o, "energy_source", json_string(source_name(r)));
	for (i = 0; i < r->npf; i++) {
		json_t *p = json_object();
		const char *base = strrchr(r->pf[i].path, '/');

		json_object_set_new(p, "file", json_string(base ? base + 1 : r->pf[i].path));
		json_object_set_new(p, "samples", json_integer((json_int_t)r->pf[i].n));
		json_object_set_new(p, "fit_a_ms", r->pf[i].timed ? json_null()
				    : jx_real(r->pf[i].fit_a));
		json_object_set_new(p, "fit_b", r->pf[i].timed ? json_null()
				    : jx_real(r->pf[i].fit_b));
		json_array_append_new(power, p);
	}
	json_object_set_new(o, "power_files", power);
	json_object_set_new(o, "energy", energy_json(r));
	json_object_set_new(o, "targets", targets_json(r));
	json_object_set_new(o, "measurements", measurements_json(r));
	json_object_set_new(o, "idle_windows", idle_json(r));
	if (r->validation)
		json_object_set(o, "validation", r->validation);
	json_object_set_new(o, "warnings", r->warnings ? json_deep_copy(r->warnings) : json_array());
	return o;
}
