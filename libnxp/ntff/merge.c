/* SPDX-License-Identifier: MIT */
/* The k-way merge of queue readers (a binary heap by key, ties by queue id)
 * and the internal iteration built on it: a table's records in time order,
 * raw, record by record or run by run (ntff_priv.h). */
#include "ntff_priv.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

#define before ntff_merge_before

int ntff_merge_init(ntff_merge *m, size_t cap)
{
	m->n = 0;
	m->heap = calloc(cap ? cap : 1, sizeof(*m->heap));
	return m->heap ? NXP_OK : NXP_E_NOMEM;
}

void ntff_merge_free(ntff_merge *m)
{
	free(m->heap);
	m->heap = NULL;
	m->n = 0;
}

void ntff_merge_sift_top(ntff_merge *m)
{
	ntff_qreader **h = m->heap, *x = h[0];
	size_t n = m->n, i = 0;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		size_t r = l + 1, s = (r < n && before(h[r], h[l])) ? r : l;
		if (!before(h[s], x))
			break;
		h[i] = h[s];
		i = s;
	}
	h[i] = x;
}

void ntff_merge_push(ntff_merge *m, ntff_qreader *qr)
{
	size_t i = m->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!before(qr, m->heap[parent]))
			break;
		m->heap[i] = m->heap[parent];
		i = parent;
	}
	m->heap[i] = qr;
}

int ntff_merge_advance_slow(ntff_scan *s, ntff_merge *m)
{
	ntff_qreader *qr = m->heap[0];
	int rc = ntff_qreader_advance(s, qr);
	if (rc < 0)
		return rc;
	if (qr->done) {
		m->heap[0] = m->heap[--m->n];
		if (!m->n)
			return NXP_OK;
	}
	ntff_merge_sift_top(m);
	return NXP_OK;
}

/* ---- the internal iteration ------------------------------------------------ */

typedef struct selection {
	const ntff_table *t;
	const nxp_cursor_options *o;
} selection;

static int selected(const ntff_queue *q, const void *arg)
{
	const selection *sel = arg;
	return ntff_table_selects(sel->t, q, sel->o);
}

int ntff_iter_open(ntff_iter *it, nxp_profile *p, const ntff_table *t, const nxp_cursor_options *o, uint64_t from_tick,
		   uint64_t to_tick)
{
	memset(it, 0, sizeof(*it));
	if (!t || t->derived)
		return NXP_E_INVAL;
	it->t = t;
	selection sel = {t, o};
	int rc = ntff_scan_open(&it->s, p, selected, &sel, from_tick, to_tick);
	if (!rc)
		rc = ntff_merge_init(&it->m, it->s.nqr);
	if (rc)
		ntff_iter_close(it);
	return rc;
}

void ntff_iter_close(ntff_iter *it)
{
	ntff_scan_close(&it->s);
	ntff_merge_free(&it->m);
}

int ntff_iter_seek(ntff_iter *it, uint64_t tick)
{
	if (tick < it->s.from_tick)
		tick = it->s.from_tick;
	it->m.n = 0;
	it->pending = 0;
	it->after_run = NULL;
	int rc = ntff_scan_seek(&it->s, tick);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < it->s.nqr; i++)
		if (!it->s.qr[i].done)
			ntff_merge_push(&it->m, &it->s.qr[i]);
	return NXP_OK;
}

/* The record ntff_iter_next or ntff_iter_run last returned is still the
 * merge's top (its bytes live in its reader's section): move past it now. */
static int settle_pending(ntff_iter *it)
{
	if (it->s.failed)
		return it->s.err.code;
	return it->pending ? ntff_iter_skip(it, it->pending) : NXP_OK;
}

int ntff_iter_next(ntff_iter *it, ntff_rec *out)
{
	int rc = settle_pending(it);
	for (;;) {
		if (rc < 0 || it->s.failed)
			return it->s.failed ? it->s.err.code : rc;
		ntff_qreader *qr = ntff_iter_peek(it);
		if (!qr)
			return NXP_END;
		if (it->t->check(it->s.p, qr->rec)) {
			out->q = qr->q;
			out->qid = qr->qid;
			out->rec = qr->rec;
			out->rsize = qr->rsize;
			out->n = 1;
			out->id = it->s.next_id;
			it->pending = 1;
			return NXP_OK;
		}
		ntff_scan_bad(&it->s, 0, ntff_qreader_offset(qr));
		rc = ntff_iter_step(it);
	}
}

int ntff_iter_run(ntff_iter *it, ntff_rec *out)
{
	int rc = settle_pending(it);
	if (rc < 0 || it->s.failed)
		return it->s.failed ? it->s.err.code : rc;
	ntff_qreader *qr = ntff_iter_peek(it);
	if (!qr)
		return NXP_END;
	/* The other readers' earliest next record bounds the run. */
	const ntff_qreader *b = NULL;
	if (it->m.n > 1)
		b = it->m.heap[1];
	if (it->m.n > 2 && before(it->m.heap[2], b))
		b = it->m.heap[2];
	uint64_t prev = qr->key;
	size_t n = 1;
	const uint8_t *r = qr->rec + qr->rsize;
	for (; r < qr->end; r += qr->rsize, n++) {
		uint64_t k = ntff_record_key(r);
		if (k < prev || k > (uint64_t)INT64_MAX || k >= it->s.to_tick)
			break;
		if (b && (k > b->key || (k == b->key && qr->qid > b->qid))) {
			it->after_run = r; /* the common end of a run: another queue is next */
			it->after_key = k;
			break;
		}
		prev = k;
	}
	out->q = qr->q;
	out->qid = qr->qid;
	out->rec = qr->rec;
	out->rsize = qr->rsize;
	out->n = n;
	out->id = it->s.next_id;
	it->pending = n;
	return NXP_OK;
}

uint64_t ntff_iter_run_offset(const ntff_iter *it, size_t i)
{
	const ntff_qreader *qr = ntff_merge_top(&it->m);
	uint64_t off = ntff_qreader_offset(qr);
	return qr->payload_off == qr->q->secs[qr->sec].offset ? off : off + (uint64_t)i * qr->rsize;
}

int ntff_iter_skip(ntff_iter *it, size_t n)
{
	ntff_qreader *qr = ntff_merge_top(&it->m);
	const uint8_t *after = it->after_run;
	size_t run = it->pending;
	it->pending = 0;
	it->after_run = NULL;
	if (!n || !qr)
		return NXP_OK;
	if (after && n == run) { /* the whole run, and ntff_iter_run saw what follows it */
		qr->rec = after;
		qr->key = qr->last_key = it->after_key;
		it->s.next_id += (int64_t)n;
		ntff_merge_sift_top(&it->m);
		return NXP_OK;
	}
	if (n > 1) { /* inside the run: in order and before every other reader, the heap stays valid */
		qr->rec += (n - 1) * qr->rsize;
		qr->key = qr->last_key = ntff_record_key(qr->rec);
		it->s.next_id += (int64_t)(n - 1);
	}
	return ntff_iter_step(it);
}
