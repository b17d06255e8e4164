/* SPDX-License-Identifier: MIT */
/* Queue readers: each selected queue's DATA sections, one loaded at a time
 * (mapped for memory sources, else read into the scan's arena), checked
 * against the index, CRC-checked and inflated; a queue's keys must not go
 * back in time; seek by the index's per-section key ranges.  Bad sections
 * and out-of-order records are skipped and counted here; record contents are
 * checked by their readers (ntff_priv.h, "record checks"). */
#include "ntff_priv.h"
#include "source.h"
#include "status.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void ntff_scan_bad(ntff_scan *s, int section, uint64_t offset)
{
	if (section)
		s->stats.skipped_sections++;
	else
		s->stats.bad_records++;
	s->stats.last_bad_offset = (int64_t)offset;
}

int ntff_scan_fail(ntff_scan *s, int code)
{
	s->failed = 1;
	if (!s->err.code)
		nxp__error_set(&s->err, code, -1, "%s", nxp_strerror(code));
	return code;
}

static int sfail(ntff_scan *s, int code, uint64_t off, const char *what)
{
	nxp__error_set(&s->err, code, (int64_t)off, "NTFF: %s at offset %llu", what, (unsigned long long)off);
	s->failed = 1;
	return code;
}

/* Make *buf hold `need` bytes; its contents are not kept.  *owned says
 * whether *buf is ours to free (else it lies in the scan's arena). */
static int grow(uint8_t **buf, size_t *cap, int *owned, size_t need)
{
	if (need <= *cap)
		return NXP_OK;
	size_t n = *cap ? *cap : 4096;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	uint8_t *b = malloc(n);
	if (!b)
		return NXP_E_NOMEM;
	if (*owned)
		free(*buf);
	*buf = b;
	*cap = n;
	*owned = 1;
	return NXP_OK;
}

/* File sources: one allocation holding every reader's section buffer, sized
 * by the largest section of each queue, so that opening a scan costs one
 * allocation (and, with transparent huge pages, a handful of page faults)
 * instead of a buffer and hundreds of faults per queue.  Best effort: a
 * reader without an arena slot allocates its own buffer on first use. */
static size_t arena_slot(const ntff_queue *q)
{
	return q->nsecs ? ((size_t)q->max_stored + NTFF_SECTION_HEADER_SIZE + 63) & ~(size_t)63 : 0;
}

static void arena_open(ntff_scan *s)
{
	const nxp_profile *p = s->p;
	if (nxp_src_map(p->src, 0, 1))
		return; /* memory source: sections are used in place */
	size_t total = 0;
	for (size_t i = 0; i < s->nqr; i++) {
		size_t need = arena_slot(s->qr[i].q); /* ≤ max_section + header: no overflow */
		if (total > SIZE_MAX - need)
			return;
		total += need;
	}
	if (!total || total > SIZE_MAX / 2)
		return;
	size_t huge = (size_t)2 << 20, len = total >= huge ? (total + huge - 1) & ~(huge - 1) : total;
	uint8_t *a = len >= huge ? aligned_alloc(huge, len) : malloc(len);
	if (!a)
		return;
#ifdef MADV_HUGEPAGE
	if (len >= huge)
		(void)madvise(a, len, MADV_HUGEPAGE); /* a hint */
#endif
	s->arena = a;
	for (size_t i = 0, off = 0; i < s->nqr; i++) {
		s->qr[i].buf = a + off;
		s->qr[i].cap = arena_slot(s->qr[i].q);
		off += s->qr[i].cap;
	}
}

int ntff_scan_open(ntff_scan *s, nxp_profile *p, ntff_queue_filter want, const void *arg, uint64_t from_tick,
		   uint64_t to_tick)
{
	memset(s, 0, sizeof(*s));
	s->p = p;
	s->from_tick = from_tick;
	s->to_tick = to_tick;
	nxp_status_init(&s->err);
	s->stats.struct_size = sizeof(s->stats);
	s->stats.last_bad_offset = -1;
	size_t n = 0;
	for (size_t i = 0; i < p->nqueues; i++)
		n += want(&p->queues[i], arg) != 0;
	if (!(s->qr = calloc(n ? n : 1, sizeof(*s->qr))))
		return NXP_E_NOMEM;
	for (size_t i = 0; i < p->nqueues; i++)
		if (want(&p->queues[i], arg)) {
			s->qr[s->nqr].q = &p->queues[i];
			s->qr[s->nqr].qid = (uint32_t)i;
			s->nqr++;
		}
	arena_open(s);
	return NXP_OK;
}

void ntff_scan_close(ntff_scan *s)
{
	for (size_t i = 0; i < s->nqr; i++) {
		if (s->qr[i].own_buf)
			free(s->qr[i].buf);
		free(s->qr[i].raw);
	}
	free(s->qr);
	free(s->arena);
	s->qr = NULL;
	s->arena = NULL;
	s->nqr = 0;
}

/* Whether the section's payload matches its CRC, computed on its first read
 * only (p->crc_ok: cursors on other threads may set it too, with the same
 * value).  A mismatch is not remembered: it is counted on every read. */
static int crc_checked(const nxp_profile *p, const ntff_sec *sec, const uint8_t *payload, const ntff_section_header *h)
{
	_Atomic unsigned char *ok = &p->crc_ok[sec - p->secs];
	if (atomic_load_explicit(ok, memory_order_relaxed))
		return 1;
	if (ntff_crc32(payload, (size_t)h->stored_length) != h->data_crc)
		return 0;
	atomic_store_explicit(ok, 1, memory_order_relaxed);
	return 1;
}

/* Load section qr->sec of the queue: 0, NXP__SKIPPED (bad section, counted), or a
 * negative error (I/O, truncation, memory) that ends the scan. */
static int load_section(ntff_scan *s, ntff_qreader *qr)
{
	const nxp_profile *p = s->p;
	const ntff_queue *q = qr->q;
	const ntff_sec *sec = &q->secs[qr->sec];
	uint64_t total = NTFF_SECTION_HEADER_SIZE + sec->stored_length; /* bounded by the file size at open */
	if (sec->stored_length > p->max_section) {
		ntff_scan_bad(s, 1, sec->offset);
		return NXP__SKIPPED;
	}
	const uint8_t *bytes = nxp_src_map(p->src, sec->offset, (size_t)total);
	if (!bytes) {
		size_t got;
		if (grow(&qr->buf, &qr->cap, &qr->own_buf, (size_t)total))
			return sfail(s, NXP_E_NOMEM, sec->offset, "out of memory reading the section");
		int rc = nxp_src_read_at(p->src, sec->offset, qr->buf, (size_t)total, &got);
		if (rc)
			return sfail(s, rc == NXP_E_UNSUPPORTED ? NXP_E_IO : rc, sec->offset, "read error in the section");
		if (got < total)
			return sfail(s, NXP_E_TRUNCATED, sec->offset + got, "file ends inside the section");
		bytes = qr->buf;
	}
	s->stats.bytes_read += (int64_t)total;
	if (qr->sec + 1 < q->nsecs) { /* this queue's next section: read ahead while this one is decoded */
		const ntff_sec *nx = &q->secs[qr->sec + 1];
		nxp_src_will_need(p->src, nx->offset, NTFF_SECTION_HEADER_SIZE + nx->stored_length);
	}
	ntff_section_header h;
	if (ntff_section_header_decode(bytes, &h, sec->offset, NULL) != 0 || h.kind != NTFF_SEC_DATA ||
	    h.queue != qr->qid || h.record_kind != q->kind || h.record_size < ntff_record_size(q->kind) ||
	    h.record_count != sec->count || h.stored_length != sec->stored_length || h.raw_length > p->max_section ||
	    h.record_count > UINT64_MAX / h.record_size || h.record_count * h.record_size != h.raw_length ||
	    (!(h.flags & NTFF_SEC_ZLIB) && h.raw_length != h.stored_length)) {
		ntff_scan_bad(s, 1, sec->offset);
		return NXP__SKIPPED;
	}
	const uint8_t *payload = bytes + NTFF_SECTION_HEADER_SIZE;
	if (!(p->flags & NXP_PROFILE_SKIP_CRC) && !crc_checked(p, sec, payload, &h)) {
		ntff_scan_bad(s, 1, sec->offset);
		return NXP__SKIPPED;
	}
	if (h.flags & NTFF_SEC_ZLIB) {
		int own_raw = 1;
		if (grow(&qr->raw, &qr->rawcap, &own_raw, (size_t)h.raw_length))
			return sfail(s, NXP_E_NOMEM, sec->offset, "out of memory inflating the section");
		if (ntff_inflate(payload, (size_t)h.stored_length, qr->raw, (size_t)h.raw_length)) {
			ntff_scan_bad(s, 1, sec->offset);
			return NXP__SKIPPED;
		}
		payload = qr->raw;
	}
	qr->rsize = h.record_size;
	qr->base = payload;
	qr->rec = payload;
	qr->end = payload + h.raw_length;
	qr->payload_off = (h.flags & NTFF_SEC_ZLIB) ? sec->offset : sec->offset + NTFF_SECTION_HEADER_SIZE;
	return NXP_OK;
}

/* From qr->rec (possibly at the end of a section), move to the first record
 * whose key is in order; load further sections as needed. */
static int settle(ntff_scan *s, ntff_qreader *qr)
{
	for (;;) {
		while (qr->rec < qr->end) {
			uint64_t k = ntff_record_key(qr->rec);
			if (ntff_key_in_order(qr, k)) {
				qr->key = k;
				qr->last_key = k;
				return NXP_OK;
			}
			ntff_scan_bad(s, 0, ntff_qreader_offset(qr)); /* goes back in time */
			s->next_id++;
			qr->rec += qr->rsize;
		}
		qr->sec++;
		for (;;) {
			if (qr->sec >= qr->q->nsecs) {
				qr->done = 1;
				qr->rec = qr->end = NULL;
				return NXP_OK;
			}
			int rc = load_section(s, qr);
			if (rc < 0)
				return rc;
			if (rc == 0)
				break;
			s->next_id += (int64_t)qr->q->secs[qr->sec].count;
			qr->sec++;
		}
	}
}

int ntff_qreader_advance(ntff_scan *s, ntff_qreader *qr)
{
	qr->rec += qr->rsize;
	return settle(s, qr);
}

static int qreader_seek(ntff_scan *s, ntff_qreader *qr, uint64_t tick, int64_t *before)
{
	const ntff_queue *q = qr->q;
	size_t lo = 0, hi = q->nsecs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (q->secs[mid].last_ts < tick)
			lo = mid + 1;
		else
			hi = mid;
	}
	int64_t n = 0;
	for (size_t i = 0; i < lo; i++)
		n += (int64_t)q->secs[i].count;
	qr->done = 0;
	qr->last_key = 0;
	for (qr->sec = lo;; qr->sec++) {
		if (qr->sec >= q->nsecs) {
			qr->done = 1;
			qr->rec = qr->end = NULL;
			*before = n;
			return NXP_OK;
		}
		int rc = load_section(s, qr);
		if (rc < 0)
			return rc;
		if (rc == NXP__SKIPPED) {
			n += (int64_t)q->secs[qr->sec].count;
			continue;
		}
		size_t cnt = (size_t)((qr->end - qr->base) / qr->rsize), a = 0, b = cnt;
		while (a < b) {
			size_t mid = a + (b - a) / 2;
			if (ntff_record_key(qr->base + mid * qr->rsize) < tick)
				a = mid + 1;
			else
				b = mid;
		}
		n += (int64_t)a;
		qr->rec = qr->base + a * qr->rsize;
		if (a > 0)
			qr->last_key = ntff_record_key(qr->rec - qr->rsize);
		if (a < cnt)
			break;
	}
	*before = n;
	int64_t id0 = s->next_id;
	int rc = settle(s, qr);
	/* The binary search assumes sorted keys; in a damaged section (a bad key
	 * among good ones) it can land early, and records that are in order but
	 * before the seek point follow.  Step over them: a seek promises start >= tick. */
	while (rc == NXP_OK && !qr->done && qr->key < tick) {
		s->next_id++;
		rc = ntff_qreader_advance(s, qr);
	}
	*before += s->next_id - id0; /* records skipped while settling and stepping */
	s->next_id = id0;
	return rc;
}

int ntff_scan_seek(ntff_scan *s, uint64_t tick)
{
	int64_t id = 0;
	s->next_id = 0;
	for (size_t i = 0; i < s->nqr; i++) {
		int64_t n;
		int rc = qreader_seek(s, &s->qr[i], tick, &n);
		if (rc < 0)
			return rc;
		id += n;
	}
	s->next_id = id;
	return NXP_OK;
}
