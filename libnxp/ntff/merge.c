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
	if (it->stale) {
		it->stale = 0;
		ntff_merge_build(&it->m);
	}
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

/* Settle the pending records, then the top reader into *top: NXP_OK, NXP_END
 * or the scan's error. */
static int settle_peek(ntff_iter *it, ntff_qreader **top)
{
	*top = NULL;
	int rc = settle_pending(it);
	if (rc < 0 || it->s.failed)
		return it->s.failed ? it->s.err.code : rc;
	*top = ntff_iter_peek(it);
	return *top ? NXP_OK : NXP_END;
}

int ntff_iter_run(ntff_iter *it, ntff_rec *out)
{
	ntff_qreader *qr = NULL;
	int rc = settle_peek(it, &qr);
	if (rc != NXP_OK)
		return rc;
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

/* ---- blocks (ntff_priv.h) --------------------------------------------------- */

/* out = sorted runs a (na keys) and b (nb) merged.  Each run has an end mark
 * on both sides: 0 before, UINT64_MAX after (packed keys lie between).  Two
 * independent chains, from the front and from the back, each a compare and
 * conditional moves per key, no branch but the loop's: a chain waits on its
 * last load, so two of them take the time of one. */
static void merge2(uint64_t *restrict out, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t n = na + nb, h = (n + 1) / 2;
	const uint64_t *fa = a, *fb = b, *ba = a + na - 1, *bb = b + nb - 1;
	uint64_t *fo = out, *bo = out + n - 1;
	for (size_t k = 0; k < n - h; k++) {
		uint64_t x = *fa, y = *fb, u = *ba, v = *bb;
		int t = y < x, s = u > v; /* front: b's is less; back: a's is greater */
		*fo++ = t ? y : x;
		fa += !t;
		fb += t;
		*bo-- = s ? u : v;
		ba -= s;
		bb -= !s;
	}
	if (h > n - h) { /* n odd: the middle one */
		uint64_t x = *fa, y = *fb;
		*fo = y < x ? y : x;
	}
	out[-1] = 0;
	out[n] = UINT64_MAX;
}

typedef struct blk_run {
	uint64_t *p;
	size_t n;
} blk_run;

/* Room for the runs: at most max(2 * NTFF_BLK_MAX, 2 per reader) keys, and two end marks per run. */
#define BLK_ROOM (2 * NTFF_BLK_MAX + 4 * NTFF_BLK_READERS)

int ntff_iter_block(ntff_iter *it, ntff_blk *b, size_t max)
{
	b->n = 0;
	ntff_qreader *qrs = it->s.qr;
	size_t nqr = it->s.nqr, nact = it->m.n;
	if (max > NTFF_BLK_MAX)
		max = NTFF_BLK_MAX;
	uint64_t base = UINT64_MAX;
	if (it->stale && !it->pending && !it->s.failed) {
		for (size_t i = 0; i < nqr; i++)
			if (!qrs[i].done && qrs[i].key < base)
				base = qrs[i].key;
		if (base >= it->s.to_tick || nact < 2 || max < 2)
			base = UINT64_MAX;
	}
	if (base == UINT64_MAX) {
		ntff_qreader *top = NULL;
		int rc = settle_peek(it, &top);
		if (rc != NXP_OK)
			return rc;
		base = top->key;
	}
	b->id = it->s.next_id;
	if (nqr > NTFF_BLK_READERS || nact < 2 || max < 2)
		return NXP_OK; /* one reader: its runs are long already */
	/* Packed key: (key - base) << bits | reader index; the readers are in
	 * queue order (ntff_scan_open), so this orders as (key, qid). */
	unsigned bits = 1;
	while (((size_t)1 << bits) < nqr)
		bits++;
	uint64_t h = it->s.to_tick;
	if (h - base > (UINT64_MAX >> bits) - 1) /* keys below h pack into 1 .. UINT64_MAX - 1 */
		h = base + (UINT64_MAX >> bits) - 1;
	/* Each reader's next in-order keys (at most lim) while below h.  Where its
	 * view ends — the section's end, a key out of order, lim records — its
	 * keys to come are no less than the last one seen (the next one, at lim),
	 * so h comes down to it.  lim is twice the even share of max: queues are
	 * not equally dense and the densest sets h (with the even share a block
	 * held ~18 records and cost more than per-record replays); the merge is
	 * then cut at max. */
	size_t lim = 2 * max / nact < 2 ? 2 : 2 * max / nact;
	uint64_t buf[2][BLK_ROOM];
	blk_run r[NTFF_BLK_READERS];
	size_t nr = 0, at = 0;
	for (size_t i = 0; i < nqr; i++) {
		ntff_qreader *qr = &qrs[i];
		if (qr->done)
			continue;
		const uint8_t *p = qr->rec;
		uint64_t k = qr->key, *o = buf[0] + at + 1; /* after the run's leading end mark */
		size_t c = 0;
		while (k < h) {
			o[c++] = ((k - base) << bits | i) + 1;
			p += qr->rsize;
			uint64_t nk;
			if (p >= qr->end || (nk = ntff_record_key(p)) < k || nk > (uint64_t)INT64_MAX) {
				/* the section's end, or a key out of order (ntff_key_in_order) */
				h = k; /* k < h */
				break;
			}
			if (c == lim) {
				if (nk < h)
					h = nk;
				break;
			}
			k = nk;
		}
		if (c) {
			r[nr++] = (blk_run){o, c};
			at += c + 2;
		}
	}
	/* Only keys below the final h: drop the tails (the keys are sorted). */
	const uint64_t hp = ((h - base) << bits) + 1;
	size_t total = 0, o = 0;
	for (size_t j = 0; j < nr; j++) {
		size_t c = r[j].n;
		while (c && r[j].p[c - 1] >= hp)
			c--;
		if (c) {
			r[j].p[-1] = 0;
			r[j].p[c] = UINT64_MAX;
			r[o++] = (blk_run){r[j].p, c};
			total += c;
		}
	}
	nr = o;
	if (!total) {
		if (it->stale) {
			it->stale = 0;
			ntff_merge_build(&it->m);
		}
		return NXP_OK;
	}
	/* Merge in rounds of pairs, whole (the room above), keep the first max. */
	int cur = 0;
	while (nr > 1) {
		uint64_t *dst = buf[!cur];
		size_t j = 0;
		at = o = 0;
		for (; j + 1 < nr; j += 2) {
			merge2(dst + at + 1, r[j].p, r[j].n, r[j + 1].p, r[j + 1].n);
			r[o++] = (blk_run){dst + at + 1, r[j].n + r[j + 1].n};
			at += r[j].n + r[j + 1].n + 2;
		}
		if (j < nr) {
			memcpy(dst + at, r[j].p - 1, (r[j].n + 2) * sizeof(*dst));
			r[o++] = (blk_run){dst + at + 1, r[j].n};
		}
		nr = o;
		cur = !cur;
	}
	size_t n = r[0].n < max ? r[0].n : max;
	/* Each packed key names its reader; its records come in order. */
	const uint64_t mask = ((uint64_t)1 << bits) - 1;
	const uint8_t *next[NTFF_BLK_READERS];
	for (size_t i = 0; i < nqr; i++)
		next[i] = qrs[i].rec;
	for (size_t j = 0; j < n; j++) {
		size_t i = (size_t)((r[0].p[j] - 1) & mask);
		b->qr[j] = &qrs[i];
		b->rec[j] = next[i];
		next[i] += qrs[i].rsize;
	}
	/* Every reader on its first record not taken (in order, in its section:
	 * its last key in view was not taken), as ntff_merge_advance_top leaves it. */
	for (size_t i = 0; i < nqr; i++) {
		ntff_qreader *qr = &qrs[i];
		if (!qr->done && next[i] != qr->rec) {
			qr->rec = next[i];
			qr->key = qr->last_key = ntff_record_key(next[i]);
		}
	}
	it->s.next_id += (int64_t)n;
	it->stale = 1;
	b->n = n;
	return NXP_OK;
}
