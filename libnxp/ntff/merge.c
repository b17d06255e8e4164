/* SPDX-License-Identifier: MIT */
/* The k-way merge of queue readers (a tournament tree by key, ties by queue
 * id) and the internal iteration built on it: a table's records in time order,
 * raw, record by record or run by run (ntff_priv.h). */
#include "ntff_priv.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

int ntff_merge_init(ntff_merge *m, size_t cap)
{
	memset(m, 0, sizeof(*m));
	size_t size = 1;
	while (size < cap)
		size *= 2;
	m->t = malloc(size * sizeof(*m->t));
	m->w = malloc(2 * size * sizeof(*m->w));
	m->rd = calloc(size, sizeof(*m->rd));
	if (!m->t || !m->w || !m->rd) {
		ntff_merge_free(m);
		return NXP_E_NOMEM;
	}
	m->size = size;
	return NXP_OK;
}

void ntff_merge_free(ntff_merge *m)
{
	free(m->t);
	free(m->w);
	free(m->rd);
	memset(m, 0, sizeof(*m));
}

void ntff_merge_clear(ntff_merge *m)
{
	m->n = m->nleaf = 0;
	m->top = NULL;
}

void ntff_merge_build(ntff_merge *m)
{
	ntff_merge_node *w = m->w;
	for (size_t i = 0; i < m->size; i++) {
		const ntff_qreader *qr = i < m->nleaf ? m->rd[i] : NULL;
		w[m->size + i] = qr && !qr->done ? (ntff_merge_node){qr->key, qr->qid, (uint32_t)i}
						 : (ntff_merge_node){NTFF_MERGE_NONE, UINT32_MAX, (uint32_t)i};
	}
	for (size_t i = m->size; i-- > 1;) {
		int r = ntff_merge_node_before(&w[2 * i + 1], &w[2 * i]);
		w[i] = w[2 * i + r];
		m->t[i] = w[2 * i + !r];
	}
	m->t[0] = w[1];
	m->top = m->n ? m->rd[w[1].leaf] : NULL;
}

void ntff_merge_push(ntff_merge *m, ntff_qreader *qr)
{
	ntff_merge_add(m, qr);
	ntff_merge_build(m);
}

int ntff_merge_advance_slow(ntff_scan *s, ntff_merge *m)
{
	ntff_qreader *qr = m->top;
	int rc = ntff_qreader_advance(s, qr);
	if (rc < 0)
		return rc;
	if (qr->done) {
		m->n--;
		ntff_merge_replay(m, NTFF_MERGE_NONE, UINT32_MAX);
	} else {
		ntff_merge_sift_top(m);
	}
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
	ntff_merge_clear(&it->m);
	it->pending = 0;
	it->run_qr = NULL;
	it->run_past = 0;
	int rc = ntff_scan_seek(&it->s, tick);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < it->s.nqr; i++)
		if (!it->s.qr[i].done)
			ntff_merge_add(&it->m, &it->s.qr[i]);
	ntff_merge_build(&it->m);
	return NXP_OK;
}

/* The records ntff_iter_next or ntff_iter_run last returned: move past them now. */
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
			it->run_qr = qr;
			it->run_rec = qr->rec;
			it->run_past = 0;
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
	/* Walk the merge along the queue's next records of the loaded section
	 * that are in order: each one's key replaces the queue's in the tree.
	 * The run ends when another queue's record comes first, or at a record
	 * outside the window — the merge is then already past the run (where
	 * queues interleave, nearly every run ends so: its one replay is all the
	 * merge costs per record) — or at the section's end or a key out of
	 * order (the reader's slow path: ntff_iter_skip steps onto it). */
	ntff_merge *m = &it->m;
	const uint8_t *first = qr->rec;
	size_t n = 1;
	int past = 0;
	for (const uint8_t *r = first + qr->rsize; r < qr->end; r += qr->rsize) {
		uint64_t k = ntff_record_key(r);
		if (!ntff_key_in_order(qr, k))
			break;
		qr->rec = r;
		qr->key = qr->last_key = k;
		ntff_merge_sift_top(m);
		if (m->top != qr || k >= it->s.to_tick) {
			past = 1;
			break;
		}
		n++;
	}
	out->q = qr->q;
	out->qid = qr->qid;
	out->rec = first;
	out->rsize = qr->rsize;
	out->n = n;
	out->id = it->s.next_id;
	it->pending = n;
	it->run_qr = qr;
	it->run_rec = first;
	it->run_past = past;
	return NXP_OK;
}

uint64_t ntff_iter_run_offset(const ntff_iter *it, size_t i)
{
	const ntff_qreader *qr = it->run_qr; /* the run stays in its loaded section */
	if (qr->payload_off == qr->q->secs[qr->sec].offset)
		return qr->payload_off; /* compressed: the section's offset */
	return qr->payload_off + (uint64_t)(it->run_rec - qr->base) + (uint64_t)i * qr->rsize;
}

/* ntff_iter_skip but for the whole of a run the merge is already past. */
int ntff_iter_skip_slow(ntff_iter *it, size_t n)
{
	ntff_qreader *qr = it->run_qr;
	int past = it->run_past;
	it->pending = 0;
	it->run_qr = NULL;
	it->run_past = 0;
	if (!qr)
		return NXP_OK;
	/* Put the reader back on the run's record n - 1 (n == 0: its first, which
	 * is not moved past): each record of the run came before every other
	 * reader's, so that record is the top again.  Then step past it.  While
	 * the reader is still the top, its key only went down: a replay; past the
	 * run, another reader is the top: a rebuild (rare: part of a run). */
	const uint8_t *at = it->run_rec + (n ? n - 1 : 0) * qr->rsize;
	if (qr->rec != at) {
		qr->rec = at;
		qr->key = qr->last_key = ntff_record_key(at);
		if (past)
			ntff_merge_build(&it->m);
		else
			ntff_merge_sift_top(&it->m);
	}
	if (!n)
		return NXP_OK;
	it->s.next_id += (int64_t)(n - 1);
	return ntff_iter_step(it);
}
