/*
 * input.c - plain or gzip archive files, streamed, with a cap on the
 * delivered size.  See input.h for the contract.
 *
 * Gzip is recognised by its magic bytes (1f 8b), never by the file name.
 * Every member of a multi-member gzip file (as "cat a.gz b.gz" makes) is
 * inflated in turn; zero bytes after the last member are ignored, as
 * gzip(1) does; anything else there is reported by zlib as a bad header.
 * Offsets in diagnostics count delivered bytes, i.e. inflated bytes for
 * gzip, because that is what the caller's parser sees and reports.
 *
 * Digests (input_open_digest): every read(2) goes through read_raw(),
 * which hashes what it read, so the digest is of exactly the bytes that
 * were parsed, read once.  For a big file the hashing is handed to a
 * helper thread: SHA-256 (nettle) runs at 1.7 GB/s here with SHA-NI, slower
 * than the power-file parser, and would otherwise be added to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ingest/input.h"
#include "base/progress.h"
#include "base/sha256.h"
#include "base/util.h"

uint64_t input_max_stream = (uint64_t)8 << 30;
uint64_t input_max_small = (uint64_t)64 << 20;
uint64_t input_hash_async_min = (uint64_t)8 << 20;
int input_digests = 1;

/* Size of the raw read buffer, and of each read of input_read_all. */
#define INPUT_CHUNK (256 * 1024)
/* Chunks read and not yet hashed by the helper thread, at most. */
#define HASH_SLOTS 4

/*
 * The helper thread of a digest: read_raw() copies what it read into the
 * next free slot (a copy of bytes still in the cache costs a fraction of
 * reading the file again), the helper hashes the slots in order.  When
 * all slots are full the reader waits: the digest is the slower of the
 * two, so nothing is gained by reading further ahead.
 */
struct hasher {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a slot was filled or hashed, or stop */
	unsigned char *slot[HASH_SLOTS];
	size_t len[HASH_SLOTS];
	uint64_t filled, hashed; /* slots so far; the next is [count % HASH_SLOTS] */
	enum { H_RUN, H_FINISH, H_DISCARD } stop;
	struct sha256 c;
};

struct input {
	char *path;
	int fd;
	int gzip;
	int raw_eof;		/* read(2) returned 0 */
	int failed;		/* a diagnostic was printed; reads keep failing */
	int member_end;		/* inflate ended a member; no new one begun */
	int zinit;		/* zs needs inflateEnd */
	z_stream zs;
	unsigned char *raw;	/* raw_cap bytes of file data */
	size_t raw_cap;		/* INPUT_CHUNK, less for a smaller file */
	size_t raw_pos, raw_len; /* plain files: sniffed bytes not yet delivered */
	uint64_t delivered;
	uint64_t max;
	uint64_t size_hint;
	int digest;		/* hash what is read: into sha, or by h */
	struct sha256 sha;
	struct hasher *h;
};

static void *
hasher_main(void *arg)
{
	struct hasher *h = arg;
	size_t i;

	pthread_mutex_lock(&h->mu);
	for (;;) {
		while (h->hashed == h->filled && h->stop == H_RUN)
			pthread_cond_wait(&h->cv, &h->mu);
		if (h->stop == H_DISCARD || h->hashed == h->filled)
			break;
		i = (size_t)(h->hashed % HASH_SLOTS);
		pthread_mutex_unlock(&h->mu);
		sha256_add(&h->c, h->slot[i], h->len[i]);
		pthread_mutex_lock(&h->mu);
		h->hashed++;
		pthread_cond_signal(&h->cv);
	}
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

/* Start the helper thread; NULL if it cannot be started (hash inline). */
static struct hasher *
hasher_start(void)
{
	struct hasher *h = xcalloc(1, sizeof(*h));

	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	sha256_begin(&h->c);
	if (pthread_create(&h->thread, NULL, hasher_main, h)) {
		pthread_mutex_destroy(&h->mu);
		pthread_cond_destroy(&h->cv);
		free(h);
		return NULL;
	}
	return h;
}

static void
hasher_feed(struct hasher *h, const unsigned char *p, size_t n)
{
	size_t i, k;

	for (; n; p += k, n -= k) {
		k = n < INPUT_CHUNK ? n : INPUT_CHUNK;
		pthread_mutex_lock(&h->mu);
		while (h->filled - h->hashed == HASH_SLOTS)
			pthread_cond_wait(&h->cv, &h->mu);
		pthread_mutex_unlock(&h->mu);
		/* Slot filled % HASH_SLOTS is free: only this thread moves filled. */
		i = (size_t)(h->filled % HASH_SLOTS);
		if (!h->slot[i])
			h->slot[i] = xmalloc(INPUT_CHUNK);
		memcpy(h->slot[i], p, k);
		h->len[i] = k;
		pthread_mutex_lock(&h->mu);
		h->filled++;
		pthread_cond_signal(&h->cv);
		pthread_mutex_unlock(&h->mu);
	}
}

/* Stop the helper (after it hashed every slot, unless discarding), free it. */
static void
hasher_stop(struct hasher *h, int finish, struct sha256 *out)
{
	size_t i;

	pthread_mutex_lock(&h->mu);
	h->stop = finish ? H_FINISH : H_DISCARD;
	pthread_cond_signal(&h->cv);
	pthread_mutex_unlock(&h->mu);
	pthread_join(h->thread, NULL);
	if (out)
		*out = h->c;
	for (i = 0; i < HASH_SLOTS; i++)
		free(h->slot[i]);
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	free(h);
}

/* read(2) that retries on EINTR; -1 after a diagnostic. */
static long
read_raw(struct input *in, void *p, size_t n)
{
	ssize_t r;

	do
		r = read(in->fd, p, n);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		in->failed = 1;
		return error_off(in->path, (long long)in->delivered,
				 "read error: %s", strerror(errno));
	}
	if (r == 0)
		in->raw_eof = 1;
	if (in->h && r > 0)
		hasher_feed(in->h, p, (size_t)r);
	else if (in->digest)
		sha256_add(&in->sha, p, (size_t)r);
	progress_add_bytes((uint64_t)r);
	return (long)r;
}

/* What a file that is not a regular one is, for the diagnostic. */
static const char *
file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" : "of an unknown type";
}

int
input_open_fd(const char *path)
{
	struct stat st;
	int fd, fl;

	/*
	 * O_NONBLOCK: opening a FIFO for reading blocks until a writer comes,
	 * which for a FIFO planted in an archive is never.  Whatever was
	 * opened is then refused unless it is a regular file, and reads block
	 * again as usual.
	 */
	do
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return error_at(path, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		error_at(path, 0, "cannot stat: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		error_at(path, 0, "not a regular file (%s)", file_kind(st.st_mode));
		close(fd);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		error_at(path, 0, "cannot open: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static struct input *
open_common(const char *path, uint64_t max_bytes, int digest)
{
	struct input *in;
	struct stat st;
	long r;
	int fd;

	if ((fd = input_open_fd(path)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		error_at(path, 0, "cannot stat: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	in = xcalloc(1, sizeof(*in));
	in->path = xstrdup(path);
	in->fd = fd;
	in->max = max_bytes;
	in->size_hint = (uint64_t)st.st_size;
	/* most files of a run are a few KB: a chunk each was most of what a
	 * build allocated (a file that grows is read in more pieces) */
	in->raw_cap = (uint64_t)st.st_size < INPUT_CHUNK - 4096 ? (size_t)st.st_size + 4096 : INPUT_CHUNK;
	in->raw = xmalloc(in->raw_cap);
	if (digest) {
		in->digest = 1;
		sha256_begin(&in->sha);
		if (in->size_hint >= input_hash_async_min)
			in->h = hasher_start();
	}

	/* Sniff the magic; whatever was read is either inflated or delivered. */
	r = read_raw(in, in->raw, in->raw_cap);
	if (r < 0) {
		input_close(in);
		return NULL;
	}
	in->raw_len = (size_t)r;
	if (r == 1 && !in->raw_eof) {
		/* A one-byte read of a longer file (one still being written): get the second byte. */
		long r2 = read_raw(in, in->raw + 1, in->raw_cap - 1);

		if (r2 < 0) {
			input_close(in);
			return NULL;
		}
		in->raw_len += (size_t)r2;
	}
	if (in->raw_len >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
		in->gzip = 1;
		/* 16 + 15: gzip wrapper only, largest window. */
		if (inflateInit2(&in->zs, 16 + MAX_WBITS) != Z_OK) {
			error_at(path, 0, "cannot initialise zlib: %s",
				 in->zs.msg ? in->zs.msg : "out of memory");
			input_close(in);
			return NULL;
		}
		in->zinit = 1;
		in->zs.next_in = in->raw;
		in->zs.avail_in = (uInt)in->raw_len;
		in->raw_len = 0;
	} else if ((uint64_t)st.st_size > max_bytes) {
		/* Fail before reading a plain file that cannot fit. */
		error_off(path, (long long)max_bytes,
			  "file size exceeds the limit of %llu bytes",
			  (unsigned long long)max_bytes);
		input_close(in);
		return NULL;
	}
	return in;
}

struct input *
input_open(const char *path, uint64_t max_bytes)
{
	return open_common(path, max_bytes, 0);
}

struct input *
input_open_digest(const char *path, uint64_t max_bytes)
{
	return open_common(path, max_bytes, input_digests);
}

static long
cap_exceeded(struct input *in)
{
	in->failed = 1;
	return error_off(in->path, (long long)in->max,
			 in->gzip ? "inflated size exceeds the limit of %llu bytes"
				  : "file size exceeds the limit of %llu bytes",
			 (unsigned long long)in->max);
}

/*
 * How much to ask for: at most one byte beyond the cap, so a stream that is
 * exactly max bytes long is accepted and the first byte over is noticed.
 */
static size_t
want(const struct input *in, size_t n)
{
	uint64_t room = in->max - in->delivered;

	return (uint64_t)n > room ? (size_t)room + 1 : n;
}

static long
read_plain(struct input *in, unsigned char *p, size_t n)
{
	size_t got = 0;
	long r;

	n = want(in, n);
	if (in->raw_pos < in->raw_len) {
		got = in->raw_len - in->raw_pos;
		if (got > n)
			got = n;
		memcpy(p, in->raw + in->raw_pos, got);
		in->raw_pos += got;
	} else if (!in->raw_eof) {
		r = read_raw(in, p, n);
		if (r < 0)
			return -1;
		got = (size_t)r;
	}
	if (in->delivered + got > in->max)
		return cap_exceeded(in);
	in->delivered += got;
	return (long)got;
}

/* Refill zs from the file when it has no input left; -1 after a diagnostic. */
static int
refill(struct input *in)
{
	long r;

	if (in->zs.avail_in || in->raw_eof)
		return 0;
	r = read_raw(in, in->raw, in->raw_cap);
	if (r < 0)
		return -1;
	in->zs.next_in = in->raw;
	in->zs.avail_in = (uInt)r;
	return 0;
}

static long
read_gzip(struct input *in, unsigned char *p, size_t n)
{
	size_t got = 0;
	int ret;

	n = want(in, n);
	/* zlib counts in uInt; a short read is fine for the caller. */
	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	in->zs.next_out = p;
	in->zs.avail_out = (uInt)n;
	while (!got) {
		if (refill(in) < 0)
			return -1;
		if (in->member_end) {
			/* Between members: skip zero padding, then start the next. */
			while (in->zs.avail_in && *in->zs.next_in == 0) {
				in->zs.next_in++;
				in->zs.avail_in--;
			}
			if (!in->zs.avail_in) {
				if (in->raw_eof)
					return 0;
				continue;
			}
			if (inflateReset(&in->zs) != Z_OK)
				BUG("inflateReset failed");
			in->member_end = 0;
		}
		if (!in->zs.avail_in && in->raw_eof) {
			in->failed = 1;
			return error_off(in->path, (long long)in->delivered,
					 "truncated gzip stream");
		}
		ret = inflate(&in->zs, Z_NO_FLUSH);
		got = n - in->zs.avail_out;
		switch (ret) {
		case Z_STREAM_END:
			in->member_end = 1;
			break;
		case Z_OK:
			break;
		case Z_BUF_ERROR:
			/* No progress possible: needs more input (refilled above). */
			if (in->zs.avail_in)
				BUG("inflate made no progress with input");
			break;
		case Z_MEM_ERROR:
			die("out of memory inflating '%s'", in->path);
		default:
			in->failed = 1;
			return error_off(in->path, (long long)(in->delivered + got),
					 "corrupt gzip stream: %s",
					 in->zs.msg ? in->zs.msg : "unknown error");
		}
	}
	if (in->delivered + got > in->max)
		return cap_exceeded(in);
	in->delivered += got;
	return (long)got;
}

long
input_read(struct input *in, void *p, size_t n)
{
	if (in->failed)
		return -1;
	if (!n)
		return 0;
	/* The return type is long: keep one read within its range. */
	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	return in->gzip ? read_gzip(in, p, n) : read_plain(in, p, n);
}

uint64_t
input_offset(const struct input *in)
{
	return in->delivered;
}

uint64_t
input_size_hint(const struct input *in)
{
	return in->size_hint;
}

int
input_is_gzip(const struct input *in)
{
	return in->gzip;
}

int
input_digest(struct input *in, char hex[65], uint64_t *size)
{
	unsigned char d[32];
	/* raw_eof: read(2) said end of file, so every byte was hashed. */
	int whole = in->digest && !in->failed && in->raw_eof;

	if (!in->digest)
		return -1;
	in->digest = 0;
	if (in->h) {
		hasher_stop(in->h, whole, whole ? &in->sha : NULL);
		in->h = NULL;
	}
	if (!whole)
		return -1;
	*size = in->sha.len;
	sha256_end(&in->sha, d);
	sha256_hex(d, hex);
	return 0;
}

int
input_digest_thread(const struct input *in)
{
	return in->h != NULL;
}

void
input_close(struct input *in)
{
	if (!in)
		return;
	if (in->h)
		hasher_stop(in->h, 0, NULL);
	if (in->zinit)
		inflateEnd(&in->zs);
	close(in->fd);
	free(in->raw);
	free(in->path);
	free(in);
}

int
input_read_all(const char *path, uint64_t max_bytes, struct buf *b)
{
	size_t start = b->len;
	uint64_t hint;
	struct input *in;
	long r;

	in = input_open(path, max_bytes);
	if (!in)
		return -1;
	/*
	 * A plain file in one buffer of its size (the read that finds its
	 * end fits in the byte left over); a gzip one, or a file that grew,
	 * by half again each time it fills.  A chunk more for every read
	 * made a build of many small runs copy 256 KB per file.
	 */
	hint = input_is_gzip(in) ? INPUT_CHUNK : input_size_hint(in);
	buf_grow(b, (size_t)(hint < max_bytes ? hint : max_bytes) + 1);
	do {
		if (b->cap - b->len - 1 == 0)
			buf_grow(b, INPUT_CHUNK);
		r = input_read(in, b->ptr + b->len, b->cap - b->len - 1);
		if (r > 0)
			b->len += (size_t)r;
	} while (r > 0);
	input_close(in);
	if (r < 0) {
		buf_setlen(b, start);
		return -1;
	}
	b->ptr[b->len] = '\0';
	return 0;
}

int
input_file_sha256(const char *path, char hex[65], uint64_t *size)
{
	unsigned char buf[65536], d[32];
	struct sha256 c;
	ssize_t k;
	int fd = input_open_fd(path);

	if (fd < 0)
		return -1;
	sha256_begin(&c);
	for (;;) {
		k = read(fd, buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		sha256_add(&c, buf, (size_t)k);
	}
	if (k < 0) {
		error_off(path, (long long)c.len, "read error: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	*size = c.len;	/* before sha256_end resets it */
	sha256_end(&c, d);
	sha256_hex(d, hex);
	return 0;
}
