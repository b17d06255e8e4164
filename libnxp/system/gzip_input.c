/* SPDX-License-Identifier: MIT */
/* Buffered input for the system-profile readers, with transparent gzip. */
#include "source.h"
#include "status.h"
#include "system_priv.h"

#include <stdlib.h>
#include <string.h>

static int raw_read(sysin *in, uint8_t *dst, size_t cap, size_t *got, nxp_status *st)
{
	if (nxp_src_read(in->src, dst, cap, got) != NXP_OK)
		return nxp__error_set(st, NXP_E_IO, (int64_t)in->src->pos, "read error");
	if (*got < cap)
		in->src_eof = 1;
	return NXP_OK;
}

/* The z_stream lives on the heap: zlib keeps a pointer back to it, and a
 * sysin is moved by value into the reader that owns it. */
static int inflate_start(sysin *in, nxp_status *st)
{
	in->z = calloc(1, sizeof(*in->z));
	if (!in->z)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	if (inflateInit2(in->z, 15 + 16) != Z_OK) {
		free(in->z);
		in->z = NULL;
		return nxp__error_set(st, NXP_E_NOMEM, -1, "zlib init failed");
	}
	in->gzip = 1;
	return NXP_OK;
}

int sysin_open(sysin *in, nxp_source *src, int detect_gzip, nxp_status *st)
{
	memset(in, 0, sizeof(*in));
	in->src = src;
	in->start = src->pos;
	in->buf = malloc(SYSIN_BUF);
	if (!in->buf)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	if (!detect_gzip)
		return NXP_OK;
	/* Peek: read the first block; keep it as data or as compressed input. */
	size_t got;
	int rc = raw_read(in, in->buf, SYSIN_BUF, &got, st);
	if (rc)
		return rc;
	if (got >= 2 && in->buf[0] == 0x1f && in->buf[1] == 0x8b) {
		in->raw = in->buf;
		in->buf = malloc(SYSIN_BUF);
		if (!in->buf)
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		rc = inflate_start(in, st);
		if (rc)
			return rc;
		in->z->next_in = in->raw;
		in->z->avail_in = (uInt)got;
		return NXP_OK;
	}
	in->len = got;
	return NXP_OK;
}

void sysin_close(sysin *in)
{
	if (in->z) {
		inflateEnd(in->z);
		free(in->z);
	}
	free(in->buf);
	free(in->raw);
	memset(in, 0, sizeof(*in));
}

static int fill_gzip(sysin *in, nxp_status *st)
{
	in->z->next_out = in->buf;
	in->z->avail_out = SYSIN_BUF;
	while (in->z->avail_out == SYSIN_BUF && !in->zdone) {
		if (in->z->avail_in == 0 && !in->src_eof) {
			size_t got;
			int rc = raw_read(in, in->raw, SYSIN_BUF, &got, st);
			if (rc)
				return rc;
			in->z->next_in = in->raw;
			in->z->avail_in = (uInt)got;
		}
		if (in->z->avail_in == 0 && in->src_eof) {
			return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)in->src->pos,
					      "gzip stream ends early (at decompressed offset %llu)",
					      (unsigned long long)sysin_tell(in));
		}
		int zr = inflate(in->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			/* Another member may follow (concatenated gzip). */
			if (in->z->avail_in == 0 && !in->src_eof) {
				size_t got;
				int rc = raw_read(in, in->raw, SYSIN_BUF, &got, st);
				if (rc)
					return rc;
				in->z->next_in = in->raw;
				in->z->avail_in = (uInt)got;
			}
			if (in->z->avail_in == 0)
				in->zdone = 1;
			else if (inflateReset(in->z) != Z_OK)
				return nxp__error_set(st, NXP_E_COMPRESSION, (int64_t)sysin_tell(in),
						      "gzip reset failed");
		} else if (zr == Z_BUF_ERROR) {
			continue;
		} else if (zr != Z_OK) {
			return nxp__error_set(st, zr == Z_MEM_ERROR ? NXP_E_NOMEM : NXP_E_COMPRESSION,
					      (int64_t)(in->src->pos - in->z->avail_in), "corrupt gzip data: %s",
					      in->z->msg ? in->z->msg : "inflate error");
		}
	}
	in->len = SYSIN_BUF - in->z->avail_out;
	return NXP_OK;
}

int sysin_fill(sysin *in, nxp_status *st)
{
	if (in->pos < in->len)
		return NXP_OK;
	in->off += in->len;
	in->pos = in->len = 0;
	if (in->gzip) {
		int rc = fill_gzip(in, st);
		if (rc)
			return rc;
	} else if (!in->src_eof) {
		size_t got;
		int rc = raw_read(in, in->buf, SYSIN_BUF, &got, st);
		if (rc)
			return rc;
		in->len = got;
	}
	return in->len ? NXP_OK : NXP_END;
}

int sysin_read(sysin *in, void *dst, size_t n, nxp_status *st)
{
	uint8_t *d = dst;
	while (n) {
		int rc = sysin_fill(in, st);
		if (rc == NXP_END)
			return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)sysin_tell(in),
					      "input ends %zu bytes early", n);
		if (rc)
			return rc;
		size_t k = in->len - in->pos;
		if (k > n)
			k = n;
		memcpy(d, in->buf + in->pos, k);
		in->pos += k;
		d += k;
		n -= k;
	}
	return NXP_OK;
}

int sysin_skip(sysin *in, uint64_t n, nxp_status *st)
{
	/* Raw seekable input: jump instead of reading. */
	if (!in->gzip && n > in->len - in->pos && in->src->seekable) {
		uint64_t target = sysin_tell(in) + n;
		int64_t size = in->src->size;
		if (size >= 0 && in->start + target > (uint64_t)size)
			return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)sysin_tell(in),
					      "length %llu runs past the end of the input", (unsigned long long)n);
		if (nxp_src_seek(in->src, in->start + target) != NXP_OK)
			return nxp__error_set(st, NXP_E_IO, (int64_t)sysin_tell(in), "seek failed");
		in->off = target;
		in->pos = in->len = 0;
		in->src_eof = 0;
		return NXP_OK;
	}
	while (n) {
		int rc = sysin_fill(in, st);
		if (rc == NXP_END)
			return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)sysin_tell(in),
					      "input ends %llu bytes early", (unsigned long long)n);
		if (rc)
			return rc;
		size_t k = in->len - in->pos;
		if (k > n)
			k = (size_t)n;
		in->pos += k;
		n -= k;
	}
	return NXP_OK;
}

int sysin_rewind(sysin *in, nxp_status *st)
{
	if (!in->src->seekable)
		return nxp__error_set(st, NXP_E_UNSUPPORTED, -1, "input cannot seek");
	if (nxp_src_seek(in->src, in->start) != NXP_OK)
		return nxp__error_set(st, NXP_E_IO, -1, "seek failed");
	in->off = 0;
	in->pos = in->len = 0;
	in->src_eof = 0;
	in->zdone = 0;
	if (in->gzip) {
		if (inflateReset(in->z) != Z_OK)
			return nxp__error_set(st, NXP_E_COMPRESSION, -1, "gzip reset failed");
		in->z->avail_in = 0;
	}
	return NXP_OK;
}
