/* SPDX-License-Identifier: MIT */
/* NXP_TABLE_ACTIVE_TIME: merged busy intervals per (engine, pcore) and per
 * (DMA, pcore), emitted in start order.
 *
 * An instruction is busy over [start + evt_wait, end] (semaphore waits
 * excluded); a DMA packet over [start, end].  Each source merges the records
 * of its queues in start order (for DMA, a k-way merge over the pcore's DMA
 * queues).  Records arrive in start order but busy starts (start + wait) may
 * not: an interval waits in a small per-source heap until the merged stream's
 * next start passes its busy start (no later record can begin before it), so
 * intervals are merged exactly in busy-start order.  Each source keeps one
 * interval in progress and one finished; the cursor emits the finished
 * interval with the smallest start.  Memory: O(sources + instructions that
 * overlap the current time), never O(trace). */
#include "ntff_priv.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

typedef struct ival {
	uint64_t b, e;
} ival;

typedef struct at_source {
	ntff_merge m;
	ival *ih; /* busy intervals read but not yet merged, a min-heap by start */
	size_t ni, capi;
	int32_t engine; /* nxp_engine, -1 = DMA */
	int64_t pcore;
	int has_cur, has_pend, done;
	uint64_t cs, ce; /* interval in progress (ticks) */
	uint64_t ps, pe; /* finished interval */
} at_source;

struct ntff_active_time {
	at_source *src;
	size_t n;
};

static at_source *source_for(struct ntff_active_time *at, int32_t engine, int64_t pcore)
{
	for (size_t i = 0; i < at->n; i++)
		if (at->src[i].engine == engine && at->src[i].pcore == pcore)
			return &at->src[i];
	return NULL;
}

int ntff_at_open(nxp_cursor *c)
{
	struct ntff_active_time *at = calloc(1, sizeof(*at));
	if (!at)
		return NXP_E_NOMEM;
	c->at = at;
	at->src = calloc(c->nqr ? c->nqr : 1, sizeof(*at->src));
	if (!at->src)
		return NXP_E_NOMEM;
	/* one source per (engine, pcore); sources sorted by pcore then engine (DMA last) */
	for (size_t i = 0; i < c->nqr; i++) {
		const ntff_queue *q = c->qr[i].q;
		int32_t e = q->kind == NXP_QUEUE_DMA ? -1 : q->engine;
		if (!source_for(at, e, q->pcore)) {
			at_source *s = &at->src[at->n++];
			s->engine = e;
			s->pcore = q->pcore;
		}
	}
	for (size_t i = 1; i < at->n; i++) { /* insertion sort: few sources */
		at_source s = at->src[i];
		size_t j = i;
		uint32_t ks = (uint32_t)s.engine; /* -1 sorts last */
		while (j > 0 && (at->src[j - 1].pcore > s.pcore ||
				 (at->src[j - 1].pcore == s.pcore && (uint32_t)at->src[j - 1].engine > ks))) {
			at->src[j] = at->src[j - 1];
			j--;
		}
		at->src[j] = s;
	}
	for (size_t i = 0; i < at->n; i++) {
		size_t k = 0;
		for (size_t j = 0; j < c->nqr; j++) {
			const ntff_queue *q = c->qr[j].q;
			k += (q->kind == NXP_QUEUE_DMA ? -1 : q->engine) == at->src[i].engine && q->pcore == at->src[i].pcore;
		}
		if (ntff_merge_init(&at->src[i].m, k))
			return NXP_E_NOMEM;
	}
	return NXP_OK;
}

void ntff_at_reset(nxp_cursor *c)
{
	struct ntff_active_time *at = c->at;
	for (size_t i = 0; i < at->n; i++) {
		at_source *s = &at->src[i];
		s->m.n = 0;
		s->ni = 0;
		s->has_cur = s->has_pend = s->done = 0;
	}
	for (size_t j = 0; j < c->nqr; j++) {
		ntff_qreader *qr = &c->qr[j];
		if (qr->done)
			continue;
		at_source *s = source_for(at, qr->q->kind == NXP_QUEUE_DMA ? -1 : qr->q->engine, qr->q->pcore);
		ntff_merge_push(&s->m, qr);
	}
	c->m.n = 0; /* the cursor's own merge is unused for this table */
}

static int ih_push(at_source *s, uint64_t b, uint64_t e)
{
	if (s->ni == s->capi) {
		size_t cap = s->capi ? s->capi * 2 : 16;
		ival *p = realloc(s->ih, cap * sizeof(*p));
		if (!p)
			return NXP_E_NOMEM;
		s->ih = p;
		s->capi = cap;
	}
	size_t i = s->ni++;
	while (i > 0 && s->ih[(i - 1) / 2].b > b) {
		s->ih[i] = s->ih[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->ih[i] = (ival){b, e};
	return NXP_OK;
}

static ival ih_pop(at_source *s)
{
	ival top = s->ih[0], x = s->ih[--s->ni];
	size_t i = 0, n = s->ni;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		size_t c = (l + 1 < n && s->ih[l + 1].b < s->ih[l].b) ? l + 1 : l;
		if (s->ih[c].b >= x.b)
			break;
		s->ih[i] = s->ih[c];
		i = c;
	}
	if (n)
		s->ih[i] = x;
	return top;
}

/* Merge one interval (in busy-start order) into the one in progress. */
static void merge_step(at_source *s, ival v)
{
	if (!s->has_cur) {
		s->cs = v.b;
		s->ce = v.e;
		s->has_cur = 1;
	} else if (v.b <= s->ce) { /* overlapping or touching */
		if (v.e > s->ce)
			s->ce = v.e;
	} else {
		s->ps = s->cs;
		s->pe = s->ce;
		s->has_pend = 1;
		s->cs = v.b;
		s->ce = v.e;
	}
}

/* Produce the source's next finished interval (s->has_pend), or mark it done. */
static int pull(nxp_cursor *c, at_source *s)
{
	while (!s->has_pend && !s->done) {
		ntff_qreader *qr = ntff_merge_top(&s->m);
		int eos = !qr || qr->key >= c->to_tick;
		uint64_t limit = eos ? UINT64_MAX : qr->key; /* every later busy start is >= limit */
		while (s->ni && s->ih[0].b <= limit && !s->has_pend)
			merge_step(s, ih_pop(s));
		if (s->has_pend)
			break;
		if (eos) {
			if (s->has_cur) {
				s->ps = s->cs;
				s->pe = s->ce;
				s->has_pend = 1;
				s->has_cur = 0;
			}
			s->done = 1;
			break;
		}
		uint64_t b, e;
		int ok;
		if (s->engine >= 0) {
			nxp_ntff_instruction_note n;
			ntff_decode_instruction(qr->rec, &n);
			ok = n.end_tick >= n.start_tick && n.end_tick <= (uint64_t)INT64_MAX;
			b = n.start_tick + n.wait_ticks;
			e = n.end_tick;
		} else {
			nxp_ntff_dma_note n;
			ntff_decode_dma(qr->rec, &n);
			ok = n.end_tick >= n.start_tick && n.end_tick <= (uint64_t)INT64_MAX;
			b = n.start_tick;
			e = n.end_tick;
		}
		if (!ok)
			ntff_cursor_bad(c, 0, qr->payload_off);
		else if (b < e && ih_push(s, b, e)) /* an all-wait instruction is not busy at all */
			return ntff_cursor_fail(c, NXP_E_NOMEM);
		int rc = ntff_merge_advance_top(c, &s->m);
		if (rc < 0)
			return rc;
	}
	return NXP_OK;
}

/* The source with the earliest finished interval, or NULL. */
static at_source *earliest(nxp_cursor *c, int *rc)
{
	struct ntff_active_time *at = c->at;
	at_source *best = NULL;
	*rc = NXP_OK;
	for (size_t i = 0; i < at->n; i++) {
		at_source *s = &at->src[i];
		if ((*rc = pull(c, s)) < 0)
			return NULL;
		if (s->has_pend && (!best || s->ps < best->ps))
			best = s;
	}
	return best;
}

int ntff_at_next(nxp_cursor *c, nxp_active_time *r)
{
	int rc;
	at_source *s;
	/* A time window clips the intervals (a busy interval can start after the
	 * window that holds its instruction's start, once the wait is excluded);
	 * what the clip leaves empty is not returned. */
	uint64_t b, e;
	for (;;) {
		s = earliest(c, &rc);
		if (rc < 0)
			return rc;
		if (!s)
			return NXP_END;
		b = s->ps > c->from_tick ? s->ps : c->from_tick;
		e = s->pe < c->to_tick ? s->pe : c->to_tick;
		if (b < e)
			break;
		s->has_pend = 0;
	}
	uint64_t tpn = (uint64_t)c->p->hdr.ticks_per_nanosec;
	r->struct_size = sizeof(*r);
	r->start_ts = (int64_t)(b / tpn);
	r->end_ts = (int64_t)(e / tpn);
	r->duration_ns = r->end_ts - r->start_ts;
	r->engine_id = s->engine;
	r->engine = s->engine >= 0 ? nxp_engine_name(s->engine) : "dma";
	if (!r->engine)
		r->engine = "unknown";
	r->pcore_idx = s->pcore;
	s->has_pend = 0;
	return NXP_OK;
}

int64_t ntff_at_position(nxp_cursor *c)
{
	int rc;
	at_source *s = earliest(c, &rc);
	if (rc < 0 || !s)
		return INT64_MAX;
	uint64_t b = s->ps > c->from_tick ? s->ps : c->from_tick; /* the clip of ntff_at_next */
	return (int64_t)(b / (uint64_t)c->p->hdr.ticks_per_nanosec);
}

void ntff_at_free(nxp_cursor *c)
{
	struct ntff_active_time *at = c->at;
	if (!at)
		return;
	for (size_t i = 0; i < at->n; i++) {
		ntff_merge_free(&at->src[i].m);
		free(at->src[i].ih);
	}
	free(at->src);
	free(at);
	c->at = NULL;
}
