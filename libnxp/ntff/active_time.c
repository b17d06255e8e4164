/* SPDX-License-Identifier: MIT */
/* NXP_TABLE_ACTIVE_TIME, a derived table: merged busy intervals per (engine,
 * pcore) and per (DMA, pcore), emitted in start order.
 *
 * An instruction is busy over [start + evt_wait, end] (semaphore waits
 * excluded); a DMA packet over [start, end].  Records that fail their table's
 * checks (ntff_priv.h, the same as the Instruction and DmaPacket cursors) are
 * not busy and are counted as bad at their own offset.  An engine's source
 * merges the records of its queues in start order (a k-way merge over the
 * pcore's queues of the engine); the busy-interval engine
 * (common/intervals.h) holds a busy span until the merged stream's next start
 * passes its busy start (no later record can begin before it) and merges the
 * spans into runs.  A DMA source first joins each queue's packets into that
 * queue's runs (packets come in start order on a queue; a queue's run ends
 * at a packet that starts after every earlier one has ended), then merges the
 * queues' runs by start: the union is the same as that of the packets merged
 * one by one, for a k-way step per queue run instead of per packet.  Each
 * source keeps one finished run; the cursor emits the finished run with the
 * smallest start.  Memory: O(sources + queues + instructions that overlap the
 * current time), never O(trace). */
#include "intervals.h"
#include "ntff_priv.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

/* A DMA queue's runs (ticks), read ahead on its reader: the run in progress
 * and the next finished one. */
typedef struct at_qrun {
	ntff_qreader *qr;
	nxp_runs runs;
	int has;         /* `run` holds the queue's next finished run */
	nxp_span run;
} at_qrun;

typedef struct at_source {
	ntff_merge m;        /* an engine's queues */
	at_qrun *qrun;       /* DMA: its queues and their runs */
	size_t nqrun;
	nxp_reorder reorder; /* busy spans read but not yet merged */
	nxp_runs runs;       /* the run in progress */
	int32_t engine;      /* nxp_engine, -1 = DMA */
	int64_t pcore;
	int has_pend, done;
	nxp_span pend;       /* finished run (ticks) */
} at_source;

typedef struct active_time {
	at_source *src;
	size_t n;
} active_time;

static int32_t engine_of(const ntff_queue *q)
{
	return q->kind == NXP_QUEUE_DMA ? -1 : q->engine;
}

static at_source *source_for(active_time *at, int32_t engine, int64_t pcore)
{
	for (size_t i = 0; i < at->n; i++)
		if (at->src[i].engine == engine && at->src[i].pcore == pcore)
			return &at->src[i];
	return NULL;
}

static void at_close(void *state)
{
	active_time *at = state;
	if (!at)
		return;
	for (size_t i = 0; i < at->n; i++) {
		ntff_merge_free(&at->src[i].m);
		nxp_reorder_free(&at->src[i].reorder);
		free(at->src[i].qrun);
	}
	free(at->src);
	free(at);
}

static int at_open(void **state, ntff_scan *s)
{
	active_time *at = calloc(1, sizeof(*at));
	if (!at)
		return NXP_E_NOMEM;
	*state = at;
	at->src = calloc(s->nqr ? s->nqr : 1, sizeof(*at->src));
	if (!at->src)
		return NXP_E_NOMEM;
	/* one source per (engine, pcore); sources sorted by pcore then engine (DMA last) */
	for (size_t i = 0; i < s->nqr; i++) {
		const ntff_queue *q = s->qr[i].q;
		if (!source_for(at, engine_of(q), q->pcore)) {
			at_source *src = &at->src[at->n++];
			src->engine = engine_of(q);
			src->pcore = q->pcore;
			nxp_reorder_init(&src->reorder, 0);
		}
	}
	for (size_t i = 1; i < at->n; i++) { /* insertion sort: few sources */
		at_source x = at->src[i];
		size_t j = i;
		uint32_t kx = (uint32_t)x.engine; /* -1 sorts last */
		while (j > 0 && (at->src[j - 1].pcore > x.pcore ||
				 (at->src[j - 1].pcore == x.pcore && (uint32_t)at->src[j - 1].engine > kx))) {
			at->src[j] = at->src[j - 1];
			j--;
		}
		at->src[j] = x;
	}
	for (size_t i = 0; i < at->n; i++) {
		size_t k = 0;
		for (size_t j = 0; j < s->nqr; j++) {
			const ntff_queue *q = s->qr[j].q;
			k += engine_of(q) == at->src[i].engine && q->pcore == at->src[i].pcore;
		}
		if (at->src[i].engine < 0 ? !(at->src[i].qrun = calloc(k ? k : 1, sizeof(at_qrun)))
					  : ntff_merge_init(&at->src[i].m, k) != NXP_OK)
			return NXP_E_NOMEM;
	}
	return NXP_OK;
}

static void at_reset(void *state, ntff_scan *s)
{
	active_time *at = state;
	for (size_t i = 0; i < at->n; i++) {
		at_source *src = &at->src[i];
		ntff_merge_clear(&src->m);
		src->nqrun = 0;
		nxp_reorder_clear(&src->reorder);
		src->runs.open = 0;
		src->has_pend = src->done = 0;
	}
	for (size_t j = 0; j < s->nqr; j++) {
		ntff_qreader *qr = &s->qr[j];
		if (qr->done)
			continue;
		at_source *src = source_for(at, engine_of(qr->q), qr->q->pcore);
		if (src->engine < 0)
			src->qrun[src->nqrun++] = (at_qrun){.qr = qr};
		else
			ntff_merge_add(&src->m, qr);
	}
	for (size_t i = 0; i < at->n; i++)
		if (at->src[i].engine >= 0)
			ntff_merge_build(&at->src[i].m);
}

/* The busy span of an engine source's next instruction: 1 and [*lo, *hi)
 * when it is busy; 0 when it is all wait or bad (counted). */
static int busy_of(ntff_scan *s, const ntff_qreader *qr, int64_t *lo, int64_t *hi)
{
	nxp_ntff_instruction_note n;
	ntff_decode_instruction(qr->rec, &n);
	if (!ntff_instruction_ok(&n)) {
		ntff_scan_bad(s, 0, ntff_qreader_offset(qr));
		return 0;
	}
	/* checked: start <= end <= INT64_MAX */
	*hi = (int64_t)n.end_tick;
	return nxp_busy_span((int64_t)n.start_tick, (int64_t)n.wait_ticks, (int64_t)n.end_tick, lo);
}

/* The queue's next finished run into r->run (r->has), its packets joined
 * by nxp_runs on the queue's reader, up to the window's end or the queue's
 * end (then the open run is flushed; r->has stays 0 when none is left).
 * Packets with no duration are not busy; bad ones are counted. */
static int qrun_fill(ntff_scan *s, at_qrun *r)
{
	ntff_qreader *qr = r->qr;
	const nxp_profile *p = s->p;
	while (!r->has && !qr->done && qr->key < s->to_tick) {
		nxp_ntff_dma_note n;
		ntff_decode_dma(qr->rec, &n);
		if (!ntff_dma_ok(p, &n))
			ntff_scan_bad(s, 0, ntff_qreader_offset(qr));
		else if (n.end_tick > n.start_tick) /* checked: start < end <= INT64_MAX */
			r->has = nxp_runs_add(&r->runs, (int64_t)n.start_tick, (int64_t)n.end_tick, &r->run);
		int rc = ntff_qreader_next(s, qr);
		if (rc < 0)
			return rc;
	}
	if (!r->has)
		r->has = nxp_runs_flush(&r->runs, &r->run);
	return NXP_OK;
}

/* pull for DMA: the queues' runs, smallest start first, joined into the
 * source's runs (a queue's run starts after its previous one ended, so the
 * runs come in start order). */
static int pull_dma(ntff_scan *s, at_source *src)
{
	while (!src->has_pend) {
		at_qrun *best = NULL;
		for (size_t j = 0; j < src->nqrun; j++) {
			at_qrun *r = &src->qrun[j];
			if (!r->has) {
				int rc = qrun_fill(s, r);
				if (rc < 0)
					return rc;
			}
			if (r->has && (!best || r->run.lo < best->run.lo))
				best = r;
		}
		if (!best) {
			src->has_pend = nxp_runs_flush(&src->runs, &src->pend);
			src->done = 1;
			break;
		}
		src->has_pend = nxp_runs_add(&src->runs, best->run.lo, best->run.hi, &src->pend);
		best->has = 0;
	}
	return NXP_OK;
}

/* Produce the source's next finished run (src->has_pend), or mark it done. */
static int pull(ntff_scan *s, at_source *src)
{
	nxp_span v;
	if (src->engine < 0)
		return pull_dma(s, src);
	while (!src->has_pend && !src->done) {
		ntff_qreader *qr = ntff_merge_top(&src->m);
		int eos = !qr || qr->key >= s->to_tick;
		int64_t limit = eos ? INT64_MAX : (int64_t)qr->key; /* every later busy start is >= limit */
		while (!src->has_pend && nxp_reorder_pop(&src->reorder, limit, &v))
			src->has_pend = nxp_runs_add(&src->runs, v.lo, v.hi, &src->pend);
		if (src->has_pend)
			break;
		if (eos) {
			src->has_pend = nxp_runs_flush(&src->runs, &src->pend);
			src->done = 1;
			break;
		}
		int64_t lo, hi;
		if (busy_of(s, qr, &lo, &hi)) {
			nxp_span sp = {lo, hi, {0, 0}};
			/* Every buffered span starts after `limit` (the pops above
			 * stopped there); a span starting at or before it (no wait)
			 * would be the next pop: it joins the run now, without the
			 * trip through the buffer. */
			if (lo <= limit)
				src->has_pend = nxp_runs_add(&src->runs, lo, hi, &src->pend);
			else if (nxp_reorder_push(&src->reorder, &sp, &v) < 0)
				return ntff_scan_fail(s, NXP_E_NOMEM);
		}
		int rc = ntff_merge_advance_top(s, &src->m);
		if (rc < 0)
			return rc;
	}
	return NXP_OK;
}

/* The source with the earliest finished run, or NULL. */
static at_source *earliest(active_time *at, ntff_scan *s, int *rc)
{
	at_source *best = NULL;
	*rc = NXP_OK;
	for (size_t i = 0; i < at->n; i++) {
		at_source *src = &at->src[i];
		if (!src->has_pend && !src->done && (*rc = pull(s, src)) < 0)
			return NULL; /* (a source with a finished run, or done, has nothing to pull) */
		if (src->has_pend && (!best || src->pend.lo < best->pend.lo))
			best = src;
	}
	return best;
}

static int at_next(void *state, ntff_scan *s, void *out)
{
	active_time *at = state;
	nxp_active_time *r = out;
	int rc;
	at_source *src;
	/* A time window clips the runs (a busy interval can start after the
	 * window that holds its instruction's start, once the wait is excluded);
	 * what the clip leaves empty is not returned. */
	uint64_t b, e;
	for (;;) {
		src = earliest(at, s, &rc);
		if (rc < 0)
			return rc;
		if (!src)
			return NXP_END;
		b = (uint64_t)src->pend.lo > s->from_tick ? (uint64_t)src->pend.lo : s->from_tick;
		e = (uint64_t)src->pend.hi < s->to_tick ? (uint64_t)src->pend.hi : s->to_tick;
		if (b < e)
			break;
		src->has_pend = 0;
	}
	uint64_t tpn = (uint64_t)s->p->hdr.ticks_per_nanosec;
	r->struct_size = sizeof(*r);
	r->start_ts = (int64_t)(b / tpn);
	r->end_ts = (int64_t)(e / tpn);
	r->duration_ns = r->end_ts - r->start_ts;
	r->engine_id = src->engine;
	r->engine = src->engine >= 0 ? nxp_engine_name(src->engine) : "dma";
	if (!r->engine)
		r->engine = "unknown";
	r->pcore_idx = src->pcore;
	src->has_pend = 0;
	return NXP_OK;
}

static int64_t at_position(void *state, ntff_scan *s)
{
	int rc;
	at_source *src = earliest(state, s, &rc);
	if (rc < 0 || !src)
		return INT64_MAX;
	uint64_t b = (uint64_t)src->pend.lo > s->from_tick ? (uint64_t)src->pend.lo : s->from_tick; /* at_next's clip */
	return (int64_t)(b / (uint64_t)s->p->hdr.ticks_per_nanosec);
}

const ntff_derived_ops ntff_active_time_ops = {at_open, at_reset, at_next, at_position, at_close};
