/* model/power.c - freeing what model/power.h describes. */
#include <stdlib.h>
#include <string.h>

#include "model/power.h"

void
power_file_free(struct power_file *pf)
{
	size_t i;

	free(pf->path);
	free(pf->s);
	free(pf->holes);
	free(pf->hw_model);
	free(pf->os_build);
	free(pf->tasks);
	free(pf->task_off);
	for (i = 0; i < pf->nnames; i++)
		free(pf->names[i]);
	free(pf->names);
	memset(pf, 0, sizeof(*pf));
}

void
ptask_win_free(struct ptask_win *w)
{
	free(w->t);
	memset(w, 0, sizeof(*w));
}
