/* templates.c - find the template directory (see templates.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/path.h"
#include "cmd/templates.h"

int
templates_find(const char *given, struct buf *out)
{
	char exe[PATH_MAX], *slash;
	const char *env = getenv("ERG_TEMPLATES");
	ssize_t k;

	buf_reset(out);
	if (given || (env && *env)) {
		buf_addstr(out, given ? given : env);
		return path_is_dir(out->ptr) ? 0 : -1;
	}
	/* Beside the binary: build/erg -> templates/, bin/erg -> share/erg/templates. */
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k > 0) {
		exe[k] = '\0';
		if ((slash = strrchr(exe, '/'))) {
			*slash = '\0';
			buf_addf(out, "%s/../templates", exe);
			if (path_is_dir(out->ptr))
				return 0;
			buf_reset(out);
			buf_addf(out, "%s/../share/erg/templates", exe);
			if (path_is_dir(out->ptr))
				return 0;
		}
	}
	buf_reset(out);
	buf_addstr(out, "templates");
	return path_is_dir(out->ptr) ? 0 : -1;
}
