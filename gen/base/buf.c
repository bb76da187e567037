/* buf.c - growable byte buffer; see buf.h for the invariants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

char buf_empty_[1];

void
buf_init(struct buf *b, size_t hint)
{
	b->ptr = buf_empty_;
	b->len = b->cap = 0;
	if (hint)
		buf_grow(b, hint);
}

void
buf_release(struct buf *b)
{
	if (b->cap)
		free(b->ptr);
	buf_init(b, 0);
}

void
buf_reset(struct buf *b)
{
	buf_setlen(b, 0);
}

char *
buf_detach(struct buf *b, size_t *len)
{
	char *p;

	if (!b->cap)
		buf_grow(b, 1);
	p = b->ptr;
	if (len)
		*len = b->len;
	buf_init(b, 0);
	return p;
}

void
buf_grow(struct buf *b, size_t extra)
{
	size_t need, cap;

	if (extra > SIZE_MAX - b->len - 1)
		die("buffer size overflow");
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	/* Grow by half again so appending byte by byte stays linear. */
	cap = b->cap + b->cap / 2;
	if (cap < need)
		cap = need;
	if (cap < 64)
		cap = 64;
	if (b->cap) {
		b->ptr = xrealloc(b->ptr, cap);
	} else {
		b->ptr = xmalloc(cap);
		b->ptr[0] = '\0';
	}
	b->cap = cap;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	buf_grow(b, n);
	memcpy(b->ptr + b->len, p, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void
buf_addstr(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addch(struct buf *b, int c)
{
	buf_grow(b, 1);
	b->ptr[b->len++] = (char)c;
	b->ptr[b->len] = '\0';
}

void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->ptr + b->len, b->cap ? b->cap - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("formatting failed");
	if ((size_t)n >= (b->cap ? b->cap - b->len : 0)) {
		buf_grow(b, (size_t)n);
		n = vsnprintf(b->ptr + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void
buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		buf_reset(b);
		return;
	}
	memmove(b->ptr, b->ptr + n, b->len - n);
	buf_setlen(b, b->len - n);
}

void
buf_setlen(struct buf *b, size_t len)
{
	if (len > b->len)
		BUG("buf_setlen beyond length");
	b->len = len;
	if (b->cap)
		b->ptr[len] = '\0';
}
