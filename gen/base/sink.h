/*
 * sink.h - where finished pages go.  The renderers write every page and
 * download through a sink and never know what is behind it: site.c gives
 * the one that writes a site's temporary tree (site_sink()), so the data
 * flows one way (render never calls the writer's own API) and a test can
 * catch pages in memory.
 */
#ifndef ERG_SINK_H
#define ERG_SINK_H

#include <stddef.h>

struct sink {
	/* Write data as rel (relative to the site root; parents made): 0, or
	 * -1 after a diagnostic. */
	int (*write)(void *ctx, const char *rel, const void *data, size_t len);
	void *ctx;
};

static inline int
sink_write(const struct sink *s, const char *rel, const void *data, size_t len)
{
	return s->write(s->ctx, rel, data, len);
}

#endif
