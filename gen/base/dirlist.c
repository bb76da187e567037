/* dirlist.c - see dirlist.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "base/dirlist.h"
#include "base/util.h"

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
names_release(struct names *l)
{
	buf_release(&l->blk);
	free(l->at);
	free(l->v);
	*l = (struct names)NAMES_INIT;
}

static void
names_add(struct names *l, const char *name, unsigned char type, size_t *alloc)
{
	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
		return;
	ALLOC_GROW(l->at, l->n + 1, *alloc);
	buf_addch(&l->blk, (char)type);
	l->at[l->n++] = l->blk.len;
	buf_add(&l->blk, name, strlen(name) + 1);
}

/* On Linux straight from getdents64, without fdopendir()'s fstat and
 * fcntl: a no-op rebuild is this and a stat per entry. */
int
names_list_fd(int fd, struct names *l)
{
	size_t i;

	l->n = 0;
	buf_reset(&l->blk);
	if (fd < 0)
		return -1;	/* errno: the failed open's */
#if defined(__linux__) && defined(SYS_getdents64)
	{
		/* struct linux_dirent64: d_ino, d_off, d_reclen, d_type, d_name */
		_Alignas(8) char tmp[32768];
		long k;
		size_t off;

		while ((k = syscall(SYS_getdents64, fd, tmp, sizeof(tmp))) > 0)
			for (off = 0; off < (size_t)k;) {
				unsigned short len;

				memcpy(&len, tmp + off + 16, sizeof(len));
				names_add(l, tmp + off + 19, (unsigned char)tmp[off + 18], &l->nat);
				off += len;
			}
		if (k < 0) {
			l->n = 0;
			return -1;
		}
	}
#else
	{
		struct dirent *e;
		int copy = dup(fd);
		DIR *d = copy < 0 ? NULL : fdopendir(copy);

		if (!d) {
			if (copy >= 0)
				close(copy);
			return -1;
		}
		while ((e = readdir(d)))
			names_add(l, e->d_name, e->d_type, &l->nat);
		closedir(d);
	}
#endif
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	for (i = 0; i < l->n; i++)
		l->v[i] = l->blk.ptr + l->at[i];
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	return 0;
}

int
names_list_dir(const char *path, struct names *l)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc, err;

	rc = names_list_fd(fd, l);
	err = errno;
	if (fd >= 0)
		close(fd);
	errno = err;
	return rc;
}
