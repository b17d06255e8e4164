/* SPDX-License-Identifier: MIT */
/* Top-level protobuf wire-format walker (see pbwire.h). */
#include "pbwire.h"

#include "source.h"
#include "status.h"
#include "varint.h"

#include <stdlib.h>
#include <string.h>

size_t pb_decode_varint(const uint8_t *p, size_t n, uint64_t *v)
{
	uint64_t r = 0;
	for (size_t i = 0; i < n && i < 10; i++) {
		r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			if (i == 9 && p[i] > 1)
				return 0; /* more than 64 bits */
			*v = r;
			return i + 1;
		}
	}
	return 0;
}

size_t pb_encode_varint(uint64_t v, uint8_t *out)
{
	return nxp_uvarint_put(out, v);
}

void pbwalk_init(pbwalk *w, sysin *in, const uint32_t *known_tags, size_t n_known, uint64_t load_mask,
		 uint64_t max_len)
{
	memset(w, 0, sizeof(*w));
	w->in = *in;
	memset(in, 0, sizeof(*in));
	w->known_tags = known_tags;
	w->n_known = n_known;
	w->load_mask = load_mask;
	w->max_len = max_len;
}

int pbwalk_open(pbwalk *w, nxp_source *src, const uint32_t *known_tags, size_t n_known, uint64_t load_mask,
		uint64_t max_len, nxp_status *st)
{
	sysin in;
	int rc = sysin_open(&in, src, 1, st);
	pbwalk_init(w, &in, known_tags, n_known, load_mask, max_len);
	return rc;
}

void pbwalk_close(pbwalk *w)
{
	sysin_close(&w->in);
	free(w->fbuf);
	w->fbuf = NULL;
}

/* Read a varint.  NXP_END only when `end_ok` and the input ends before its
 * first byte. */
static int read_varint(pbwalk *w, uint64_t *v, int end_ok, nxp_status *st)
{
	sysin *in = &w->in;
	uint64_t at = sysin_tell(in);
	int rc = sysin_fill(in, st);
	if (rc == NXP_END && end_ok)
		return NXP_END;
	if (in->len - in->pos >= 10) { /* fast path: the whole varint is buffered */
		size_t k = pb_decode_varint(in->buf + in->pos, 10, v);
		if (!k)
			return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)at, "malformed varint at offset %llu",
					      (unsigned long long)at);
		in->pos += k;
		return NXP_OK;
	}
	uint64_t r = 0;
	for (int i = 0;; i++) {
		rc = sysin_fill(in, st);
		if (rc == NXP_END)
			return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)at,
					      "input ends inside a varint at offset %llu",
					      (unsigned long long)at);
		if (rc)
			return rc;
		uint8_t b = in->buf[in->pos++];
		if (i == 9 && b > 1)
			return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)at, "malformed varint at offset %llu",
					      (unsigned long long)at);
		r |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	*v = r;
	return NXP_OK;
}

/* Bytes left in the input after the current position (UINT64_MAX if unknown). */
static uint64_t remaining(const pbwalk *w)
{
	int64_t size = w->in.src->size;
	uint64_t used = w->in.start + sysin_tell(&w->in);
	if (size < 0)
		return UINT64_MAX;
	return (uint64_t)size > used ? (uint64_t)size - used : 0;
}

static int is_known_tag(const pbwalk *w, uint64_t v)
{
	for (size_t i = 0; i < w->n_known; i++)
		if (w->known_tags[i] == v)
			return 1;
	return 0;
}

/* Start the next message of a stream: NXP_END at a clean end of input. */
static int next_message(pbwalk *w, nxp_status *st)
{
	uint64_t at = sysin_tell(&w->in), len;
	int rc = read_varint(w, &len, 1, st);
	if (rc)
		return rc;
	if (len > remaining(w))
		return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)at,
				      "message length %llu at offset %llu runs past the end of the input",
				      (unsigned long long)len, (unsigned long long)at);
	w->msg_end = sysin_tell(&w->in) + len;
	w->in_msg = 1;
	w->msg_count++;
	return NXP_OK;
}

int pbwalk_next(pbwalk *w, pbfield *f, nxp_status *st)
{
	sysin *in = &w->in;
	uint64_t tag;
	int rc;
	if (w->mode == 0) {
		uint64_t first;
		rc = read_varint(w, &first, 1, st);
		if (rc == NXP_END) {
			w->mode = 1;
			return NXP_END;
		}
		if (rc)
			return rc;
		if (is_known_tag(w, first)) {
			w->mode = 1;
			w->msg_count = 1;
			tag = first;
			f->offset = 0;
			goto have_tag;
		}
		w->mode = 2;
		if (first > remaining(w))
			return nxp__error_set(st, NXP_E_TRUNCATED, 0,
					      "first message length %llu runs past the end of the input",
					      (unsigned long long)first);
		w->msg_end = sysin_tell(in) + first;
		w->in_msg = 1;
		w->msg_count = 1;
	}
	if (w->mode == 2) {
		while (!w->in_msg || sysin_tell(in) == w->msg_end) {
			w->in_msg = 0;
			rc = next_message(w, st);
			if (rc)
				return rc;
		}
	}
	f->offset = sysin_tell(in);
	rc = read_varint(w, &tag, w->mode == 1, st);
	if (rc)
		return rc;
have_tag:
	f->num = (uint32_t)(tag >> 3);
	f->wire = (int)(tag & 7);
	f->data = NULL;
	f->v = 0;
	if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff)
		return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)f->offset, "bad field number %llu at offset %llu",
				      (unsigned long long)(tag >> 3), (unsigned long long)f->offset);
	switch (f->wire) {
	case PB_VARINT:
		rc = read_varint(w, &f->v, 0, st);
		break;
	case PB_I64: {
		uint8_t b[8];
		rc = sysin_read(in, b, 8, st);
		for (int i = 7; i >= 0 && !rc; i--)
			f->v = f->v << 8 | b[i];
		break;
	}
	case PB_I32: {
		uint8_t b[4];
		rc = sysin_read(in, b, 4, st);
		for (int i = 3; i >= 0 && !rc; i--)
			f->v = f->v << 8 | b[i];
		break;
	}
	case PB_LEN: {
		uint64_t at = sysin_tell(in);
		rc = read_varint(w, &f->v, 0, st);
		if (rc)
			break;
		uint64_t here = sysin_tell(in);
		if (w->mode == 2 && f->v > w->msg_end - here)
			return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)at,
					      "field %u length %llu at offset %llu runs past the end of its message",
					      f->num,
					      (unsigned long long)f->v, (unsigned long long)at);
		if (f->v > remaining(w))
			return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)at,
					      "field %u length %llu at offset %llu runs past the end of the input",
					      f->num,
					      (unsigned long long)f->v, (unsigned long long)at);
		int load = f->num < 64 && (w->load_mask >> f->num & 1);
		if (!load) {
			rc = sysin_skip(in, f->v, st);
			break;
		}
		if (f->v > w->max_len)
			return nxp__error_set(st, NXP_E_LIMIT, (int64_t)at,
					      "field %u at offset %llu is %llu bytes (limit %llu)", f->num,
					      (unsigned long long)at, (unsigned long long)f->v,
					      (unsigned long long)w->max_len);
		size_t n = (size_t)f->v;
		if (in->len - in->pos >= n) { /* zero-copy from the window */
			f->data = in->buf + in->pos;
			in->pos += n;
			break;
		}
		if (n > w->fcap) {
			size_t cap = w->fcap ? w->fcap : 4096;
			while (cap < n)
				cap *= 2;
			uint8_t *nb = realloc(w->fbuf, cap);
			if (!nb)
				return nxp__error_set(st, NXP_E_NOMEM, (int64_t)at, "out of memory");
			w->fbuf = nb;
			w->fcap = cap;
		}
		rc = sysin_read(in, w->fbuf, n, st);
		f->data = w->fbuf;
		break;
	}
	default:
		return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)f->offset, "unsupported wire type %d at offset %llu",
				      f->wire, (unsigned long long)f->offset);
	}
	if (rc)
		return rc;
	if (w->mode == 2 && sysin_tell(in) > w->msg_end)
		return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)f->offset,
				      "field at offset %llu crosses the end of its message (offset %llu)",
				      (unsigned long long)f->offset, (unsigned long long)w->msg_end);
	return NXP_OK;
}
