/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "source.h"
#include "abi_struct.h"
#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static nxp_source *src_new(void)
{
	nxp_source *s = calloc(1, sizeof(*s));
	if (s) {
		s->fd = -1;
		s->size = -1;
		if (pthread_mutex_init(&s->lock, NULL) != 0) {
			free(s);
			return NULL;
		}
	}
	return s;
}

static void src_probe_fd(nxp_source *s)
{
	struct stat sb;
	off_t here = lseek(s->fd, 0, SEEK_CUR);
	s->seekable = here >= 0 && fstat(s->fd, &sb) == 0 && S_ISREG(sb.st_mode);
	if (s->seekable) {
		s->size = sb.st_size;
		s->pos = 0;
	}
}

int nxp_source_open_path(nxp_source **out, const char *path, nxp_status *st)
{
	if (!out || !path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_source_open_path: NULL argument");
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return nxp__error_set(st, NXP_E_IO, -1, "%s: %s", path, strerror(errno));
	nxp_source *s = src_new();
	if (!s) {
		close(fd);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	s->kind = NXP_SRC_FD;
	s->fd = fd;
	s->own_fd = 1;
	src_probe_fd(s);
	*out = s;
	return NXP_OK;
}

int nxp_source_open_fd(nxp_source **out, int fd, nxp_status *st)
{
	if (!out || fd < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_source_open_fd: bad argument");
	*out = NULL;
	nxp_source *s = src_new();
	if (!s)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	s->kind = NXP_SRC_FD;
	s->fd = fd;
	src_probe_fd(s);
	*out = s;
	return NXP_OK;
}

int nxp_source_open_memory(nxp_source **out, const void *data, size_t size, nxp_status *st)
{
	if (!out || (!data && size))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_source_open_memory: NULL argument");
	*out = NULL;
	nxp_source *s = src_new();
	if (!s)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	s->kind = NXP_SRC_MEMORY;
	s->mem = data;
	s->size = (int64_t)size;
	s->seekable = 1;
	*out = s;
	return NXP_OK;
}

/* 0.1 accepted callbacks as short as the `read` field (below NXP_SOURCE_CALLBACKS_SIZE_V0_1); still does. */
#define SOURCE_CALLBACKS_MIN_SIZE (offsetof(nxp_source_callbacks, read) + sizeof(((nxp_source_callbacks *)0)->read))

int nxp_source_open_callbacks(nxp_source **out, const nxp_source_callbacks *cb, void *user, nxp_status *st)
{
	if (!out || !nxp__struct_size_ok(cb, SOURCE_CALLBACKS_MIN_SIZE) || !cb->read)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_source_open_callbacks: missing read callback");
	*out = NULL;
	nxp_source *s = src_new();
	if (!s)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	s->kind = NXP_SRC_CALLBACKS;
	NXP__STRUCT_IN(s->cb, cb, SOURCE_CALLBACKS_MIN_SIZE);
	s->user = user;
	s->seekable = s->cb.seek != NULL;
	if (s->cb.get_size) {
		int64_t z = s->cb.get_size(user);
		s->size = z >= 0 ? z : -1;
	}
	*out = s;
	return NXP_OK;
}

int64_t nxp_source_size(const nxp_source *src)
{
	return src ? src->size : -1;
}

int nxp_source_seekable(const nxp_source *src)
{
	return src ? src->seekable : 0;
}

void nxp_source_close(nxp_source *src)
{
	if (!src)
		return;
	if (src->own_fd && src->fd >= 0)
		close(src->fd);
	if (src->kind == NXP_SRC_CALLBACKS && src->cb.close)
		src->cb.close(src->user);
	pthread_mutex_destroy(&src->lock);
	free(src);
}

static int64_t src_read_once(nxp_source *s, void *buf, size_t len)
{
	switch (s->kind) {
	case NXP_SRC_MEMORY: {
		uint64_t left = s->pos < (uint64_t)s->size ? (uint64_t)s->size - s->pos : 0;
		size_t n = len < left ? len : (size_t)left;
		if (n)
			memcpy(buf, s->mem + s->pos, n);
		return (int64_t)n;
	}
	case NXP_SRC_FD:
		for (;;) {
			ssize_t r = s->seekable ? pread(s->fd, buf, len, (off_t)s->pos) : read(s->fd, buf, len);
			if (r >= 0 || errno != EINTR)
				return r;
		}
	case NXP_SRC_CALLBACKS: {
		int64_t r = s->cb.read(s->user, buf, len);
		return r > (int64_t)len ? -1 : r;
	}
	}
	return -1;
}

int nxp_src_read(nxp_source *s, void *buf, size_t len, size_t *got)
{
	size_t done = 0;
	while (done < len) {
		int64_t r = src_read_once(s, (char *)buf + done, len - done);
		if (r < 0) {
			*got = done;
			return NXP_E_IO;
		}
		if (r == 0)
			break;
		done += (size_t)r;
		s->pos += (uint64_t)r;
	}
	*got = done;
	return NXP_OK;
}

int nxp_src_seek(nxp_source *s, uint64_t off)
{
	if (off == s->pos)
		return NXP_OK;
	if (s->kind == NXP_SRC_MEMORY || (s->kind == NXP_SRC_FD && s->seekable)) {
		s->pos = off;
		return NXP_OK;
	}
	if (s->kind == NXP_SRC_CALLBACKS && s->cb.seek) {
		if (s->cb.seek(s->user, off) != 0)
			return NXP_E_IO;
		s->pos = off;
		return NXP_OK;
	}
	if (off < s->pos)
		return NXP_E_UNSUPPORTED;
	char tmp[16384];
	while (s->pos < off) {
		uint64_t want = off - s->pos;
		size_t got;
		int rc = nxp_src_read(s, tmp, want < sizeof(tmp) ? (size_t)want : sizeof(tmp), &got);
		if (rc)
			return rc;
		if (got == 0)
			return NXP_E_TRUNCATED;
	}
	return NXP_OK;
}

int nxp_src_pread(nxp_source *s, uint64_t off, void *buf, size_t len, size_t *got)
{
	*got = 0;
	int rc = nxp_src_seek(s, off);
	return rc ? rc : nxp_src_read(s, buf, len, got);
}

int nxp_src_read_at(nxp_source *s, uint64_t off, void *buf, size_t len, size_t *got)
{
	*got = 0;
	if (s->kind == NXP_SRC_MEMORY) {
		uint64_t size = (uint64_t)s->size;
		size_t n = off < size ? (len < size - off ? len : (size_t)(size - off)) : 0;
		if (n)
			memcpy(buf, s->mem + off, n);
		*got = n;
		return NXP_OK;
	}
	if (s->kind == NXP_SRC_FD && s->seekable) {
		/* pread at the offset asked: no shared position, no lock */
		size_t done = 0;
		while (done < len) {
			if (off + done > (uint64_t)INT64_MAX) {
				*got = done;
				return NXP_E_IO;
			}
			ssize_t r = pread(s->fd, (char *)buf + done, len - done, (off_t)(off + done));
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				*got = done;
				return NXP_E_IO;
			}
			if (r == 0)
				break;
			done += (size_t)r;
		}
		*got = done;
		return NXP_OK;
	}
	pthread_mutex_lock(&s->lock);
	int rc = nxp_src_seek(s, off);
	if (!rc)
		rc = nxp_src_read(s, buf, len, got);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

const uint8_t *nxp_src_map(const nxp_source *s, uint64_t off, size_t len)
{
	if (s->kind != NXP_SRC_MEMORY || off > (uint64_t)s->size || len > (uint64_t)s->size - off)
		return NULL;
	return s->mem + off;
}

void nxp_src_will_need(const nxp_source *s, uint64_t off, uint64_t len)
{
#ifdef POSIX_FADV_WILLNEED
	if (s->kind == NXP_SRC_FD && s->seekable && off <= (uint64_t)INT64_MAX && len <= (uint64_t)INT64_MAX)
		(void)posix_fadvise(s->fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED); /* a hint: errors do not matter */
#else
	(void)s;
	(void)off;
	(void)len;
#endif
}
