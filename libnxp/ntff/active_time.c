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
#include "cpu.h"
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

/* A source: (engine, pcore).  Sources are kept in the table's order, which
 * is the rows' order among equal starts: by pcore, then engine, DMA (-1)
 * last. */
typedef struct at_key {
	int64_t pcore;
	int32_t engine;
} at_key;

/* Add queue q's source to the n keys in that order unless it is there:
 * the new count. */
static size_t key_add(at_key *k, size_t n, const ntff_queue *q)
{
	at_key x = {q->pcore, engine_of(q)};
	size_t j = n;
	while (j > 0 && (k[j - 1].pcore > x.pcore ||
			 (k[j - 1].pcore == x.pcore && (uint32_t)k[j - 1].engine > (uint32_t)x.engine)))
		j--;
	if (j > 0 && k[j - 1].pcore == x.pcore && k[j - 1].engine == x.engine)
		return n;
	memmove(k + j + 1, k + j, (n - j) * sizeof(*k));
	k[j] = x;
	return n + 1;
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
	at_key *keys = malloc((s->nqr ? s->nqr : 1) * sizeof(*keys));
	if (!at->src || !keys) {
		free(keys);
		return NXP_E_NOMEM;
	}
	/* one source per (engine, pcore), in the table's order */
	for (size_t i = 0; i < s->nqr; i++)
		at->n = key_add(keys, at->n, s->qr[i].q);
	for (size_t i = 0; i < at->n; i++) {
		at->src[i].engine = keys[i].engine;
		at->src[i].pcore = keys[i].pcore;
		nxp_reorder_init(&at->src[i].reorder, 0);
	}
	free(keys);
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

/* The row of a run [b, e) (ticks) of source (engine, pcore). */
static void at_row(nxp_active_time *r, uint64_t b, uint64_t e, uint64_t tpn, int32_t engine, int64_t pcore)
{
	r->struct_size = sizeof(*r);
	r->start_ts = (int64_t)(b / tpn);
	r->end_ts = (int64_t)(e / tpn);
	r->duration_ns = r->end_ts - r->start_ts;
	r->engine_id = engine;
	r->engine = engine >= 0 ? nxp_engine_name(engine) : "dma";
	if (!r->engine)
		r->engine = "unknown";
	r->pcore_idx = pcore;
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
	at_row(r, b, e, (uint64_t)s->p->hdr.ticks_per_nanosec, src->engine, src->pcore);
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

/* ---- ActiveTime fed by the export's streams (ntff_at_feed, ntff_priv.h) ----
 * The same runs as the derived table's, from the good records the Instruction
 * and DmaPacket streams decode anyway.  Runs are the union of busy spans with
 * touching ones merged, which does not depend on the order spans arrive in
 * as long as they arrive by start: a stream in start order (checked, else
 * the feed is spoiled) gives each source its records in start order.  An
 * engine source keeps the table's reorder buffer (busy starts come after
 * starts by the wait); a DMA source joins its packets in start order, which
 * gives the union the table builds from per-queue runs.  Finished runs are
 * kept per source (nxp_runlog, common/intervals.h) and handed out merged by
 * start, ties to the earlier source in the table's order (pcore, then
 * engine, DMA last): at_next's order. */

/* Kept runs a share may hold (~6 bytes a run: a 2 GiB trace keeps ~3 M
 * runs); past it the share is spoiled and ActiveTime is read as a table. */
#define AT_KEPT_MAX ((size_t)32 << 20)

enum { ATF_IDLE, ATF_ON, ATF_DONE, ATF_SPOILED };

typedef struct atf_source {
	int32_t engine; /* nxp_engine, -1 = DMA */
	int64_t pcore;
	nxp_reorder reorder; /* engine sources: busy spans not yet in `runs` */
	nxp_runs runs;
	nxp_runlog kept;
	/* handing out */
	nxp_runlog_rd rd;
	int has;
	nxp_span cur;
} atf_source;

struct ntff_at_feed {
	const nxp_profile *p;
	atf_source *src; /* in the table's order */
	size_t n;
	int32_t *qsrc;   /* per queue id: its source, -1 = none */
	int state[2];    /* Instruction's share (engine sources), DmaPacket's (DMA ones) */
	uint64_t last[2]; /* the share's last start tick */
	size_t budget[2]; /* bytes the share's sources may still keep (AT_KEPT_MAX) */
};

int ntff_at_feed_new(ntff_at_feed **out, const nxp_profile *p)
{
	*out = NULL;
	ntff_at_feed *f = calloc(1, sizeof(*f));
	if (!f)
		return NXP_E_NOMEM;
	f->p = p;
	f->budget[0] = f->budget[1] = AT_KEPT_MAX;
	if (!(f->qsrc = malloc((p->nqueues ? p->nqueues : 1) * sizeof(*f->qsrc))) ||
	    !(f->src = calloc(p->nqueues ? p->nqueues : 1, sizeof(*f->src)))) {
		ntff_at_feed_free(f);
		return NXP_E_NOMEM;
	}
	at_key *keys = malloc((p->nqueues ? p->nqueues : 1) * sizeof(*keys));
	if (!keys) {
		ntff_at_feed_free(f);
		return NXP_E_NOMEM;
	}
	/* the sources of the queues the table reads whole: at_open's, in its order */
	const ntff_table *t = ntff_table_get(NXP_TABLE_ACTIVE_TIME);
	nxp_cursor_options o;
	nxp_cursor_options_init(&o);
	for (size_t i = 0; i < p->nqueues; i++)
		if (ntff_table_selects(t, &p->queues[i], &o))
			f->n = key_add(keys, f->n, &p->queues[i]);
	for (size_t j = 0; j < f->n; j++) {
		f->src[j] = (atf_source){.engine = keys[j].engine, .pcore = keys[j].pcore};
		nxp_reorder_init(&f->src[j].reorder, 0);
	}
	for (size_t i = 0; i < p->nqueues; i++) {
		const ntff_queue *q = &p->queues[i];
		f->qsrc[i] = -1;
		for (size_t j = 0; ntff_table_selects(t, q, &o) && j < f->n; j++)
			if (f->src[j].engine == engine_of(q) && f->src[j].pcore == q->pcore)
				f->qsrc[i] = (int32_t)j;
	}
	free(keys);
	*out = f;
	return NXP_OK;
}

void ntff_at_feed_free(ntff_at_feed *f)
{
	if (!f)
		return;
	for (size_t i = 0; f->src && i < f->n; i++) {
		nxp_reorder_free(&f->src[i].reorder);
		free(f->src[i].kept.p);
	}
	free(f->src);
	free(f->qsrc);
	free(f);
}

int ntff_at_feed_begin(ntff_at_feed *f, int table)
{
	int k = ntff_feed_share(table);
	if (!f || k < 0 || f->state[k] != ATF_IDLE)
		return 0;
	f->state[k] = ATF_ON;
	return 1;
}

/* Keep a finished run of a source of share k. */
static void atf_keep(ntff_at_feed *f, int k, atf_source *s, const nxp_span *r)
{
	if (nxp_runlog_put(&s->kept, r, &f->budget[k]) < 0)
		f->state[k] = ATF_SPOILED; /* too many (or no memory): read as a table */
}

/* A record of share k starting at `start`: 0 when the share is not fed,
 * spoiled, or the record comes before the previous one (spoiling it). */
static inline int atf_take(ntff_at_feed *f, int k, uint64_t start)
{
	if (f->state[k] != ATF_ON)
		return 0;
	if (start < f->last[k]) {
		f->state[k] = ATF_SPOILED;
		return 0;
	}
	f->last[k] = start;
	return 1;
}

static inline void at_feed_instr(ntff_at_feed *f, uint32_t qid, const nxp_ntff_instruction_note *n)
{
	if (!atf_take(f, 0, n->start_tick))
		return;
	if (f->qsrc[qid] < 0) { /* (not an ActiveTime queue: never, the tables read the same kinds) */
		f->state[0] = ATF_SPOILED;
		return;
	}
	atf_source *s = &f->src[f->qsrc[qid]];
	const int64_t start = (int64_t)n->start_tick; /* checked good: start <= end <= INT64_MAX */
	nxp_span v, done;
	/* pull()'s steps: buffered spans up to this start join the runs, then
	 * this record's span, straight when it starts here (no wait) */
	while (nxp_reorder_pop(&s->reorder, start, &v))
		if (nxp_runs_add(&s->runs, v.lo, v.hi, &done))
			atf_keep(f, 0, s, &done);
	int64_t lo;
	if (!nxp_busy_span(start, (int64_t)n->wait_ticks, (int64_t)n->end_tick, &lo))
		return;
	if (lo <= start) {
		if (nxp_runs_add(&s->runs, lo, (int64_t)n->end_tick, &done))
			atf_keep(f, 0, s, &done);
	} else {
		nxp_span sp = {lo, (int64_t)n->end_tick, {0, 0}};
		if (nxp_reorder_push(&s->reorder, &sp, &v) < 0)
			f->state[0] = ATF_SPOILED; /* no memory */
	}
}

void ntff_at_feed_instrs(ntff_at_feed *f, const uint32_t *qid, const nxp_ntff_instruction_note *n, size_t count)
{
	for (size_t i = 0; i < count && f->state[0] == ATF_ON; i++)
		at_feed_instr(f, qid[i], &n[i]);
}

void ntff_at_feed_dmas(ntff_at_feed *f, const uint32_t *qid, const uint8_t *recs, size_t stride, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		nxp_ntff_dma_note note; /* (inlined: only the two ticks are decoded) */
		ntff_decode_dma(recs + i * stride, &note);
		const uint64_t start = note.start_tick, end = note.end_tick;
		if (!atf_take(f, 1, start))
			return;
		if (end <= start) /* no duration: not busy */
			continue;
		if (f->qsrc[qid[i]] < 0) {
			f->state[1] = ATF_SPOILED;
			return;
		}
		atf_source *s = &f->src[f->qsrc[qid[i]]];
		nxp_span done;
		if (nxp_runs_add(&s->runs, (int64_t)start, (int64_t)end, &done))
			atf_keep(f, 1, s, &done);
	}
}

/* A source's next kept run into s->cur (s->has). */
static void atf_read(atf_source *s)
{
	s->has = nxp_runlog_next(&s->rd, &s->cur.lo, &s->cur.hi);
}

void ntff_at_feed_end(ntff_at_feed *f, int table, int ok)
{
	int k = ntff_feed_share(table);
	if (!f || k < 0 || f->state[k] != ATF_ON)
		return;
	f->state[k] = ok ? ATF_DONE : ATF_SPOILED;
	for (size_t i = 0; ok && i < f->n; i++) {
		atf_source *s = &f->src[i];
		if ((s->engine < 0) != k)
			continue;
		nxp_span v, done;
		while (nxp_reorder_pop(&s->reorder, INT64_MAX, &v))
			if (nxp_runs_add(&s->runs, v.lo, v.hi, &done))
				atf_keep(f, k, s, &done);
		if (nxp_runs_flush(&s->runs, &done))
			atf_keep(f, k, s, &done);
		s->rd = nxp_runlog_read(&s->kept); /* handing out starts at the first run */
		atf_read(s);
	}
}

int ntff_at_feed_ready(const ntff_at_feed *f)
{
	return f && f->state[0] == ATF_DONE && f->state[1] == ATF_DONE;
}

NXP_HOT_LOOP static int ntff_at_feed_next_batch_k(ntff_at_feed *f, void *recs, size_t rsize, size_t n, size_t *got)
{
	*got = 0;
	if (!ntff_at_feed_ready(f))
		return NXP_E_INVAL;
	const uint64_t tpn = (uint64_t)f->p->hdr.ticks_per_nanosec;
	while (*got < n) {
		atf_source *best = NULL;
		for (size_t i = 0; i < f->n; i++)
			if (f->src[i].has && (!best || f->src[i].cur.lo < best->cur.lo))
				best = &f->src[i];
		if (!best)
			return NXP_END;
		/* at_next's row (no window: nothing to clip) */
		at_row((nxp_active_time *)(void *)((uint8_t *)recs + *got * rsize), (uint64_t)best->cur.lo,
		       (uint64_t)best->cur.hi, tpn, best->engine, best->pcore);
		(*got)++;
		atf_read(best);
	}
	return NXP_OK;
}

int ntff_at_feed_next_batch(ntff_at_feed *f, void *recs, size_t rsize, size_t n, size_t *got)
{
	return ntff_at_feed_next_batch_k(f, recs, rsize, n, got);
}
