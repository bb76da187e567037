/*
 * buf.h - the one growable byte buffer of erg.
 *
 * Invariants (as git's strbuf): ptr is never NULL and ptr[len] == '\0', so
 * a buf can always be handed to code that wants a C string.  A buf starts
 * as BUF_INIT (pointing at a shared empty byte) and owns its memory once
 * anything is added; buf_release() returns it to BUF_INIT.  Allocation
 * failure is fatal (die), as for every allocation in erg.
 */
#ifndef ERG_BUF_H
#define ERG_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *ptr;
	size_t len;
	size_t cap; /* 0 while ptr points at the shared empty byte */
};

extern char buf_empty_[];
#define BUF_INIT { buf_empty_, 0, 0 }

void buf_init(struct buf *b, size_t hint);
void buf_release(struct buf *b);
void buf_reset(struct buf *b);             /* len = 0, keeps memory */
char *buf_detach(struct buf *b, size_t *len); /* caller frees */
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *p, size_t n);
void buf_addstr(struct buf *b, const char *s);
void buf_addch(struct buf *b, int c);
void buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void buf_consume(struct buf *b, size_t n); /* drop the first n bytes */
void buf_setlen(struct buf *b, size_t len);

#endif
