/* model/power.c - freeing what model/power.h describes; its domains. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "model/power.h"

void
power_file_free(struct power_file *pf)
{
	size_t i;

	free(pf->path);
	free(pf->s);
	free(pf->holes);
	free(pf->hw_model);
	free(pf->pclust_name);
	free(pf->os_build);
	free(pf->tasks);
	free(pf->task_off);
	for (i = 0; i < pf->nnames; i++)
		free(pf->names[i]);
	free(pf->names);
	for (i = 0; i < pf->ndom; i++)
		free(pf->dom[i]);
	free(pf->dj);
	for (i = 0; i < pf->nnotes; i++)
		free(pf->notes[i].msg);
	free(pf->notes);
	memset(pf, 0, sizeof(*pf));
}

size_t
power_add_domain(struct power_file *pf, const char *name, int sum)
{
	if (pf->ndom >= PDOM_MAX)
		BUG("more than %d domains", PDOM_MAX);
	pf->dom[pf->ndom] = xstrdup(name);
	pf->dom_sum[pf->ndom] = sum != 0;
	return pf->ndom++;
}

double
power_dom_joules(const struct power_file *pf, size_t i, size_t d)
{
	return pf->dj ? pf->dj[i * pf->ndom + d] : pf->s[i].joules;
}

static int
prefix_digits(const char *s, const char *p)
{
	size_t n = strlen(p);

	if (strncmp(s, p, n))
		return 0;
	s += n;
	if (*s == '-' || *s == '_')
		s++;
	return !*s || strspn(s, "0123456789") == strlen(s);
}

int
power_dom_class(const char *name)
{
	const char *b = strrchr(name, '/');

	b = b ? b + 1 : name;
	if (!strcmp(b, "psys") || !strcmp(b, "host") || !strcmp(b, "system") ||
	    !strcmp(b, "platform"))
		return PDC_SYSTEM;
	if (!strcmp(b, "processor") || prefix_digits(b, "package") || prefix_digits(b, "pkg") ||
	    prefix_digits(b, "cpu") || !strcmp(b, "soc") || !strcmp(b, "core") ||
	    !strcmp(b, "cores") || !strcmp(b, "uncore") || !strcmp(b, "combined"))
		return PDC_CPU;
	if (prefix_digits(b, "dram") || prefix_digits(b, "ram"))
		return PDC_DRAM;
	if (prefix_digits(b, "gpu") || !strcmp(b, "gfx"))
		return PDC_GPU;
	if (!strcmp(b, "ane"))
		return PDC_ANE;
	return PDC_OTHER;
}

int
power_dom_subzone(const char *name)
{
	const char *b = strrchr(name, '/');

	b = b ? b + 1 : name;
	return !strcmp(b, "core") || !strcmp(b, "cores") || !strcmp(b, "uncore") ||
	       !strcmp(b, "gfx");
}

void
ptask_win_free(struct ptask_win *w)
{
	free(w->t);
	memset(w, 0, sizeof(*w));
}
