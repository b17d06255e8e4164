/* SPDX-License-Identifier: MIT */
/* nxp_profile_summarize(): one streaming pass over a profile.
 *
 * The instruction and DMA cursors are merged by start time, so every busy
 * interval reaches the interval unions in start order and each union is a
 * running merge (O(1) memory).  An instruction's busy interval starts after its
 * semaphore wait ([start + evt_wait_time_ns, end]), which can break start order;
 * such intervals wait in the reorder buffer of the busy-interval engine
 * (common/intervals.h, shared with the ActiveTime table) until the merge has
 * passed their start, so it holds only intervals still in flight — bounded by
 * concurrency, not by trace length.
 * Everything else is a counter.  Formulas for ratios live in summary.c
 * (nxp_summary_derive); what is summed is documented in doc/metrics.md. */
#include "intervals.h"
#include "pool.h"
#include "neff_internal.h"
#include "ntff_priv.h"
#include "status.h"
#include "summary_feed.h"
#include "varint.h"
#include "summary_priv.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REORDER_MAX 65536  /* pending instruction intervals (then merged early, approximately) */
#define QUEUES_MAX 65536   /* distinct DMA queue instances */
#define THROTTLE_GROUPS_MAX 4096
/* One slot per opcode byte, plus one for instructions whose pc is not in the NEFF. */
#define OP_SLOTS (NXP_SUMMARY_OPCODES + 1)
#define OP_UNKNOWN_PC NXP_SUMMARY_OPCODES

enum { CLS_STATIC, CLS_SW, CLS_HW, CLS_N };

/* Current transfer (packet_aggregation_id group) of one DMA queue. */
typedef struct qslot {
	int used;
	int64_t pcore, engine_idx, queue_idx;
	const char *name;
	uint64_t hash;
	int64_t agg;
	int64_t lo, hi;
} qslot;

/* What the pass keeps of one NTFF DMA queue, filled at its first packet:
 * its slot (found by its identity: hashing names per packet was most of a
 * packet's cost) and the class and queue-bytes kind of its NEFF queue type;
 * and the count and bytes of its packets of that class and kind (those
 * without a dynamic flag), added into the pass's sums by dma_close: one
 * count and one sum a packet instead of five. */
typedef struct qmemo {
	qslot *slot; /* NULL: not looked up yet, or the slot table grew since */
	uint8_t typed; /* cls and kind set */
	int8_t cls, kind;
	int64_t count, bytes;
} qmemo;

typedef struct tgroup {
	int64_t pcore;
	const char *type; /* profile-owned while the pass runs */
	nxp_union u;
	double loss_ns; /* sum of window x (1 - k/n) */
} tgroup;

typedef struct opacc {
	int64_t count, time_ns;
	nxp_union u;
	const char *name;
} opacc;

/* A bounded single-producer single-consumer channel of busy runs (sorted,
 * disjoint), in batches: the parallel pass's instruction and DMA threads send
 * the runs of their share of total_active_time to the merging caller.  64
 * slots of 1024 spans (1 MiB a channel) let a thread run ahead of the others
 * in trace time: with 8 slots the threads advanced in lock-step and blocked
 * each other (256 MiB trace, idle 2-core VM, threads=2: 1.61x -> 2.03x). */
#define CH_BATCH 1024
#define CH_SLOTS 64
typedef struct chan {
	pthread_mutex_t m;
	pthread_cond_t c;
	nxp_span buf[CH_SLOTS][CH_BATCH];
	size_t len[CH_SLOTS];
	unsigned head, count;
	int closed;
} chan;

/* The region a summary covers: records starting in [lo, hi) of one physical
 * core (pcore -1 = all); `on` when any bound is set (total_time is then the
 * window clipped to the trace). */
typedef struct region {
	int64_t lo, hi, pcore;
	int on;
} region;

typedef struct pass {
	nxp_profile *p;
	region rg;
	const nxp_neff *neff;
	nxp_status *st;
	double mult[256]; /* adjusted-FLOPs multiplier per dtype */
	uint8_t dma_op[NXP_SUMMARY_OPCODES]; /* opcode triggers a DMA (its bytes are the packets') */

	/* busy intervals waiting for the merge to pass their start */
	nxp_reorder reorder;

	/* unions */
	nxp_union total_u, eng_u[NXP_ENGINE_COUNT], dma_u, cls_u[CLS_N], dyn_u;
	opacc *ops; /* [NXP_ENGINE_COUNT][OP_SLOTS] */

	/* spans */
	int64_t span_lo, span_hi;
	int64_t tpb_lo, tpb_hi; /* TPB start..stop when the trace has both, else INT64_MIN..INT64_MAX */
	int64_t exec_lo, exec_hi;

	/* instruction counters */
	int64_t eng_count[NXP_ENGINE_COUNT], eng_time[NXP_ENGINE_COUNT]; /* records without an opcode slot: eng_figures */
	int64_t matmul_count, activate_count, activate_time;
	int64_t hw_flops, tr_flops, adj_hw_flops, adj_tr_flops;
	int64_t hbm_read, hbm_write, sbuf_read, sbuf_write, psum_read, psum_write;
	int64_t spill_save, spill_reload, prsw_bytes, prsw_count;
	int64_t dma_instr_hbm_read, dma_instr_hbm_write; /* HBM bytes of DMA-trigger instructions */

	/* DMA counters */
	int64_t pk_count, pk_time, pk_bytes;
	int64_t cls_count[CLS_N], cls_bytes[CLS_N];
	int64_t qbytes[4]; /* by the NEFF queue type's kind: [1] input, [2] output, [3] data; [0] the rest (unused) */
	int64_t xfer_count, xfer_time;
	/* The class of every busy span of the DMA unions so far (-1 before the
	 * first, CLS_N once two differ): while there is one, that class's union
	 * (and dyn_u, for a dynamic one) is dma_u, fed once a span, and takes
	 * its state where the classes part (dma_classes) or the pass ends. */
	int dma_cls;
	qslot *q;
	size_t nq, capq;
	qmemo *qmemo; /* per NTFF queue id */

	/* The one-thread pass's static-instruction counts (NULL: not used): per
	 * NTFF instruction queue id, how many records ran each pc of its NEFF
	 * stream.  A static instruction's terms (FLOPs, memory bytes, flags) are
	 * then summed once per pc, times its count, after the pass (si_counts_apply)
	 * instead of per record: the same sums, as every term is non-negative
	 * (si_counts_init checks), so a saturating sum does not depend on how it
	 * is grouped. */
	uint64_t **sicnt;
	uint64_t *sicnt_base;

	/* other tables */
	int64_t rows;
	int64_t executions; /* ExecutionInfo rows (v6-style traces) */
	tgroup *tg;
	size_t ntg;

	/* parallel pass: total_u is not fed; its spans go, merged into runs, to `out` */
	chan *out;
	nxp_runs runs;
	nxp_span batch[CH_BATCH];
	size_t nbatch;
	int64_t last_start; /* records must come in start order ... */
	int unordered;      /* ... and the reorder bound never hit, else the pass is redone on one thread */
	nxp_span pend;      /* a DMA group's span not sent yet (tag[0] -1: none), span_send */
	int negative;       /* a negative term was summed (sums then depend on the order): redo on one thread */
	size_t reorder_peak; /* most spans the reorder buffer held */
	/* fed pass (nxp__sum_feed): total_u is not fed; its runs are kept whole
	 * in `kept` (keep_run: at most KEPT_MAX bytes, else `unordered`: the
	 * export's summary is then made by the one-thread pass) */
	int fed;
	nxp_runlog kept;
	size_t kept_budget; /* bytes it may still grow by */
} pass;

/* Counters saturate instead of overflowing on hostile input. */
static inline void sadd(int64_t *acc, int64_t v)
{
	if (__builtin_add_overflow(*acc, v, acc))
		*acc = v > 0 ? INT64_MAX : INT64_MIN;
}

/* Clip [*lo, *hi] to the region's window; 0 when nothing is left (an
 * interval that starts at or after the window's end).  Without a window the
 * interval is unchanged. */
static inline int clip(const pass *ps, int64_t *lo, int64_t *hi)
{
	if (ps->rg.lo == INT64_MIN && ps->rg.hi == INT64_MAX)
		return 1; /* no window: the whole-trace pass, as before regions */
	if (*hi > ps->rg.hi)
		*hi = ps->rg.hi;
	if (*lo < ps->rg.lo)
		*lo = ps->rg.lo;
	return *hi >= *lo && *lo < ps->rg.hi;
}

/* The per-record functions below take two constants, so that each loop is
 * compiled once per case without re-testing them per record:
 *  win: 0 only when the pass has no window (clip() is then the identity);
 *  mode: which pass calls them (PM_*). */
enum {
	PM_ONE, /* the one-thread pass: every union fed here, ps->out NULL */
	PM_PAR, /* a part of the parallel pass: runs and a DMA group's spans go to ps->out */
	PM_FED  /* a share of the fed pass: runs kept (ps->fed), its DMA unions merged here */
};
static inline __attribute__((always_inline)) int clip_w(const pass *ps, int64_t *lo, int64_t *hi, const int win)
{
	return win ? clip(ps, lo, hi) : 1;
}

/* ------------------------------------------------------------------------ */

static void span_add(pass *ps, int64_t lo, int64_t hi)
{
	if (lo < ps->span_lo)
		ps->span_lo = lo;
	if (hi > ps->span_hi)
		ps->span_hi = hi;
}

static void chan_put(chan *c, const nxp_span *v, size_t n)
{
	pthread_mutex_lock(&c->m);
	while (c->count == CH_SLOTS)
		pthread_cond_wait(&c->c, &c->m);
	unsigned k = (c->head + c->count) % CH_SLOTS;
	memcpy(c->buf[k], v, n * sizeof(*v));
	c->len[k] = n;
	c->count++;
	pthread_cond_broadcast(&c->c);
	pthread_mutex_unlock(&c->m);
}

static void chan_close(chan *c)
{
	pthread_mutex_lock(&c->m);
	c->closed = 1;
	pthread_cond_broadcast(&c->c);
	pthread_mutex_unlock(&c->m);
}

/* The next batch into v: its length, 0 once the channel is closed and empty. */
static size_t chan_get(chan *c, nxp_span *v)
{
	pthread_mutex_lock(&c->m);
	while (!c->count && !c->closed)
		pthread_cond_wait(&c->c, &c->m);
	size_t n = 0;
	if (c->count) {
		n = c->len[c->head];
		memcpy(v, c->buf[c->head], n * sizeof(*v));
		c->head = (c->head + 1) % CH_SLOTS;
		c->count--;
		pthread_cond_broadcast(&c->c);
	}
	pthread_mutex_unlock(&c->m);
	return n;
}

/* A fed pass keeps its runs (nxp_runlog, ~5 bytes a run).  A 714 MB trace
 * keeps ~90 k runs a share, a 2 GiB one ~270 k; past KEPT_MAX bytes (~3 M
 * runs), the export's summary is made by its own pass instead. */
#define KEPT_MAX ((size_t)16 << 20)

static void keep_run(pass *ps, const nxp_span *r)
{
	if (nxp_runlog_put(&ps->kept, r, &ps->kept_budget) < 0)
		ps->unordered = 1; /* too many (or no memory): not a fed summary */
}

/* A run (or a DMA group's span) to the caller: kept by a fed share, else
 * batched into the channel. */
static inline __attribute__((always_inline)) void emit_run(pass *ps, const nxp_span *r, const int fed)
{
	if (fed) {
		keep_run(ps, r);
		return;
	}
	ps->batch[ps->nbatch++] = *r;
	if (ps->nbatch == CH_BATCH) {
		chan_put(ps->out, ps->batch, ps->nbatch);
		ps->nbatch = 0;
	}
}

/* nxp_union_add for a union whose spans come with non-decreasing lo >= 0,
 * opened by pass_init with hi = INT64_MIN: the same state, fewer tests (the
 * DMA unions: packets in start order, clipped).  runs (a constant): PM_ONE,
 * or the pass (PM_PAR: A, PM_FED: the DMA share) whose share of
 * total_active_time is this union's spans, all of them: each run it
 * finishes goes out as one (they are the runs nxp_runs would make). */
static inline __attribute__((always_inline)) void union_add_sorted(pass *ps, nxp_union *u, int64_t lo, int64_t hi,
								     const int runs)
{
	if (hi <= lo)
		return;
	if (lo > u->hi) { /* a new run (always the first: hi starts at INT64_MIN) */
		if (u->open) {
			nxp_union_acc(&u->total, u->lo, u->hi);
			if (runs != PM_ONE)
				emit_run(ps, &(nxp_span){u->lo, u->hi, {0, 0}}, runs == PM_FED);
		}
		u->lo = lo;
		u->hi = hi;
		u->open = 1;
	} else if (hi > u->hi) {
		u->hi = hi;
	}
}

/* A span, in start order, to a union of the pass: union_add_sorted, unless
 * the one-thread pass's reorder bound was hit (ps->unordered: an early span
 * may come out of order, which nxp_union_add places as it always did; a
 * part or share that hits it is redone on one thread, its figures unused). */
static inline __attribute__((always_inline)) void union_add_ordered(pass *ps, nxp_union *u, int64_t lo, int64_t hi,
								      const int mode)
{
	if (mode == PM_ONE && __builtin_expect(ps->unordered, 0))
		nxp_union_add(u, lo, hi);
	else
		union_add_sorted(ps, u, lo, hi, PM_ONE);
}

/* A span of total_active_time, in start order. */
static inline __attribute__((always_inline)) void total_add(pass *ps, int64_t lo, int64_t hi, const int mode)
{
	if (mode == PM_ONE) {
		union_add_ordered(ps, &ps->total_u, lo, hi, mode);
		return;
	}
	if (hi <= lo)
		return; /* as nxp_union_add */
	nxp_span done;
	if (nxp_runs_add(&ps->runs, lo, hi, &done))
		emit_run(ps, &done, mode == PM_FED);
}

/* A DMA group's busy span (tag[0] = class), in start order, to the
 * accumulator: it joins the pending span when of its class and overlapping
 * or touching it (the same unions, from fewer spans; their starts are
 * still in order), else the pending span goes (total_end sends the last). */
static inline __attribute__((always_inline)) void span_send(pass *ps, int64_t lo, int64_t hi, int cls)
{
	if (hi <= lo)
		return; /* nothing for a union */
	nxp_span *p = &ps->pend;
	if (cls == p->tag[0] && lo <= p->hi) {
		if (hi > p->hi)
			p->hi = hi;
		return;
	}
	if (p->tag[0] >= 0)
		emit_run(ps, p, 0);
	*p = (nxp_span){lo, hi, {cls, 0}};
}

/* Flush the open run (or a DMA group's pending span) and the batch, then
 * close the channel (also on failure). */
static void total_end(pass *ps)
{
	nxp_span done;
	if (nxp_runs_flush(&ps->runs, &done))
		emit_run(ps, &done, ps->fed);
	if (ps->pend.tag[0] >= 0)
		emit_run(ps, &ps->pend, 0);
	if (ps->fed)
		return;
	if (ps->nbatch)
		chan_put(ps->out, ps->batch, ps->nbatch);
	ps->nbatch = 0;
	chan_close(ps->out);
}

/* Feed one instruction busy interval, in start order, to its unions
 * (tag[0] = engine, tag[1] = opcode slot or -1). */
static inline __attribute__((always_inline)) void feed_instr(pass *ps, const nxp_span *e, const int mode)
{
	total_add(ps, e->lo, e->hi, mode);
	union_add_ordered(ps, &ps->eng_u[e->tag[0]], e->lo, e->hi, mode);
	if (e->tag[1] >= 0)
		union_add_ordered(ps, &ps->ops[e->tag[0] * OP_SLOTS + e->tag[1]].u, e->lo, e->hi, mode);
}

/* Release every buffered interval that starts at or before `upto`. */
static inline __attribute__((always_inline)) void release(pass *ps, int64_t upto, const int mode)
{
	nxp_span e;
	while (nxp_reorder_pop(&ps->reorder, upto, &e))
		feed_instr(ps, &e, mode);
}

/* A record starting at `start` was read: intervals it passed are released. */
static inline __attribute__((always_inline)) void advance(pass *ps, int64_t start, const int mode)
{
	nxp_reorder_advance(&ps->reorder, start);
	release(ps, ps->reorder.watermark, mode);
}

/* ------------------------------------------------------------------------ */

/* What the pass uses of a good Instruction record: the fields the cursor's
 * fill would compute from it (records.c), without the rest of
 * nxp_instruction (strings, NEFF operands, the other FLOPs columns). */
typedef struct irec {
	int64_t start_ts, end_ts, evt_wait_time_ns;
	int32_t engine;
	const nxp_static_instr *si; /* NULL: the pc is not in the NEFF (NXP_INSTRUCTION_PC_UNKNOWN) */
	uint64_t *count;            /* the pc's count (ps->sicnt), when si and the pass counts */
} irec;

/* The fields of an instruction whose pc is not in the NEFF: all 0. */
static const nxp_static_instr si_unknown;

/* Saturating c * v for v >= 0. */
static inline int64_t smul(uint64_t c, int64_t v)
{
	if (!c || v <= 0)
		return 0;
	return c > (uint64_t)(INT64_MAX / v) ? INT64_MAX : (int64_t)c * v;
}

/* The terms of `c` records of static instruction x (known: in the NEFF,
 * else x is si_unknown) that depend on x alone: once per record (c = 1, any
 * sign), or once per pc after the pass (c >= 1, terms checked non-negative). */
static inline __attribute__((always_inline)) void instr_terms(pass *ps, const nxp_static_instr *x, int known,
							       uint64_t c)
{
	/* A transpose reports its FLOPs only in flops_transpose (ntff.h). */
	const int64_t raw_flops = x->is_transpose ? 0 : x->raw_flops;
	const int64_t flops_transpose = x->is_transpose ? x->raw_flops : 0;
	double m = 1.0;
	if (known) {
		sadd(&ps->matmul_count, c == 1 ? x->is_matmul : smul(c, x->is_matmul));
		if (x->is_activate)
			ps->activate_count += (int64_t)c;
		m = ps->mult[x->mm_dtype];
		ps->negative |= m < 0.0; /* a caller's hardware description with a negative multiplier */
	}
#define TERM(v) (c == 1 ? (v) : smul(c, (v)))
	sadd(&ps->hw_flops, TERM(raw_flops + flops_transpose));
	sadd(&ps->tr_flops, TERM(flops_transpose));
	sadd(&ps->adj_hw_flops, TERM((int64_t)((double)(raw_flops + flops_transpose) * m + 0.5)));
	sadd(&ps->adj_tr_flops, TERM((int64_t)((double)flops_transpose * m + 0.5)));
	if (x->opcode_num < NXP_SUMMARY_OPCODES && ps->dma_op[x->opcode_num]) {
		sadd(&ps->dma_instr_hbm_read, TERM(x->hbm_read_bytes));
		sadd(&ps->dma_instr_hbm_write, TERM(x->hbm_write_bytes));
	} else {
		sadd(&ps->hbm_read, TERM(x->hbm_read_bytes));
		sadd(&ps->hbm_write, TERM(x->hbm_write_bytes));
	}
	sadd(&ps->sbuf_read, TERM(x->sbuf_read_bytes));
	sadd(&ps->sbuf_write, TERM(x->sbuf_write_bytes));
	sadd(&ps->psum_read, TERM(x->psum_read_bytes));
	sadd(&ps->psum_write, TERM(x->psum_write_bytes));
	sadd(&ps->spill_save, TERM(x->spill_save_bytes));
	sadd(&ps->spill_reload, TERM(x->spill_reload_bytes));
	if (x->psum_read_sbuf_write_bytes > 0) {
		ps->prsw_count += (int64_t)c;
		sadd(&ps->prsw_bytes, TERM(x->psum_read_sbuf_write_bytes));
	}
#undef TERM
}

/* cnt: 1 when the pass counts static instructions (ps->sicnt; in->count set). */
static inline __attribute__((always_inline)) int do_instruction(pass *ps, const irec *in, const int win,
								 const int mode, const int cnt)
{
	ps->rows++;
	span_add(ps, in->start_ts, in->end_ts);
	advance(ps, in->start_ts, mode);
	int e = in->engine;
	if (e < 0 || e >= NXP_ENGINE_COUNT)
		return NXP_OK; /* the cursor only returns known engines; be defensive */

	const nxp_static_instr *si = in->si, *x = si ? si : &si_unknown;
	const int64_t duration_ns = in->end_ts - in->start_ts;
	/* A transpose reports its FLOPs only in flops_transpose (ntff.h). */
	const int64_t raw_flops = x->is_transpose ? 0 : x->raw_flops;
	const int64_t flops_transpose = x->is_transpose ? x->raw_flops : 0;

	if (!cnt)
		ps->negative |= (duration_ns | raw_flops | flops_transpose | x->hbm_read_bytes | x->hbm_write_bytes |
				 x->sbuf_read_bytes | x->sbuf_write_bytes | x->psum_read_bytes | x->psum_write_bytes |
				 x->spill_save_bytes | x->spill_reload_bytes) < 0;
	if (!si || !si->is_setup) {
		int64_t xlo = in->start_ts, xhi = in->end_ts;
		if (clip_w(ps, &xlo, &xhi, win)) {
			if (xlo < ps->exec_lo)
				ps->exec_lo = xlo;
			if (xhi > ps->exec_hi)
				ps->exec_hi = xhi;
		}
	}
	if (cnt) {
		if (si)
			++*in->count;
	} else {
		instr_terms(ps, x, si != NULL, 1);
	}
	if (si && si->is_activate)
		sadd(&ps->activate_time, duration_ns);

	int32_t op = -1;
	if (!si)
		op = OP_UNKNOWN_PC;
	else if (si->opcode_num < NXP_SUMMARY_OPCODES)
		op = (int32_t)si->opcode_num;
	if (op >= 0) { /* (the engine's count and time are its opcodes', eng_figures) */
		opacc *a = &ps->ops[e * OP_SLOTS + op];
		a->count++;
		sadd(&a->time_ns, duration_ns);
		if (!a->name)
			a->name = si ? si->opcode : "unknown";
	} else {
		ps->eng_count[e]++;
		sadd(&ps->eng_time[e], duration_ns);
	}

	/* Busy interval: semaphore wait excluded. */
	int64_t lo, hi = in->end_ts;
	if (!nxp_busy_span(in->start_ts, in->evt_wait_time_ns, in->end_ts, &lo))
		return NXP_OK; /* all wait: not busy */
	if (!clip_w(ps, &lo, &hi, win))
		return NXP_OK; /* busy only after the window */
	nxp_span sp = {lo, hi, {e, op}}, early;
	if (lo <= ps->reorder.watermark) {
		feed_instr(ps, &sp, mode);
		return NXP_OK;
	}
	int rc = nxp_reorder_push(&ps->reorder, &sp, &early);
	if (ps->reorder.n > ps->reorder_peak)
		ps->reorder_peak = ps->reorder.n;
	if (rc == 1) { /* bound reached: the earliest is merged now (may slightly misplace it) */
		ps->unordered = 1;
		feed_instr(ps, &early, mode);
	}
	else if (rc < 0)
		return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (summary reorder window)");
	return NXP_OK;
}

/* Engine e's instruction count and time: its opcodes' and those of its
 * records without an opcode slot (each record is counted in one; durations
 * are non-negative, so the saturating sum does not depend on the grouping). */
static void eng_figures(const pass *ps, int e, int64_t *count, int64_t *time)
{
	*count = ps->eng_count[e];
	*time = ps->eng_time[e];
	for (int k = 0; k < OP_SLOTS; k++) {
		*count += ps->ops[e * OP_SLOTS + k].count;
		sadd(time, ps->ops[e * OP_SLOTS + k].time_ns);
	}
}

static uint64_t hash_queue(int64_t pcore, int64_t engine_idx, int64_t queue_idx, const char *name)
{
	uint64_t h = 1469598103934665603ull;
	for (const unsigned char *c = (const unsigned char *)(name ? name : ""); *c; c++)
		h = (h ^ *c) * 1099511628211ull;
	h ^= (uint64_t)pcore * 0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)engine_idx * 0xC2B2AE3D27D4EB4Full;
	h ^= (uint64_t)queue_idx * 0x165667B19E3779F9ull;
	return h ^ (h >> 29);
}

static void close_transfer(pass *ps, qslot *q)
{
	ps->xfer_count++;
	sadd(&ps->xfer_time, q->hi > q->lo ? q->hi - q->lo : 0);
}

static int grow_queues(pass *ps)
{
	size_t cap = ps->capq ? ps->capq * 2 : 256;
	qslot *nq = calloc(cap, sizeof(*nq));
	if (!nq)
		return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (summary DMA queue table)");
	for (size_t k = 0; k < ps->capq; k++) {
		if (!ps->q[k].used)
			continue;
		size_t j = ps->q[k].hash & (cap - 1);
		while (nq[j].used)
			j = (j + 1) & (cap - 1);
		nq[j] = ps->q[k];
	}
	free(ps->q);
	ps->q = nq;
	ps->capq = cap;
	for (size_t i = 0; i < ps->p->nqueues; i++)
		ps->qmemo[i].slot = NULL;
	return NXP_OK;
}

/* The slot of the DMA queue instance (pcore, engine_idx, queue_idx, name)
 * that NTFF queue `qid` is: two NTFF queues with the same identity share one,
 * as their packets did when the pass read nxp_dma_packet records. */
static int find_queue(pass *ps, uint32_t qid, qslot **out)
{
	qmemo *mq = &ps->qmemo[qid];
	if (mq->slot) {
		*out = mq->slot;
		return NXP_OK;
	}
	const ntff_queue *q = &ps->p->queues[qid];
	const char *name = q->name ? q->name : "";
	const int64_t pcore = q->pcore, engine_idx = q->engine_idx, queue_idx = q->queue_idx;
	if ((ps->nq + 1) * 2 > ps->capq) {
		if (ps->nq >= QUEUES_MAX)
			return nxp__error_set(ps->st, NXP_E_LIMIT, -1, "more than %d distinct DMA queues", QUEUES_MAX);
		int rc = grow_queues(ps);
		if (rc)
			return rc;
	}
	uint64_t h = hash_queue(pcore, engine_idx, queue_idx, name);
	size_t j = h & (ps->capq - 1);
	while (ps->q[j].used) {
		qslot *x = &ps->q[j];
		if (x->hash == h && x->pcore == pcore && x->engine_idx == engine_idx && x->queue_idx == queue_idx &&
		    (x->name == name || !strcmp(x->name, name))) {
			x->name = name;
			*out = mq->slot = x;
			return NXP_OK;
		}
		j = (j + 1) & (ps->capq - 1);
	}
	qslot *x = &ps->q[j];
	x->used = 1;
	x->pcore = pcore;
	x->engine_idx = engine_idx;
	x->queue_idx = queue_idx;
	x->name = name;
	x->hash = h;
	x->agg = INT64_MIN;
	ps->nq++;
	*out = mq->slot = x;
	return NXP_OK;
}

static int qtype_is(const char *t, const char *want)
{
	return t && t[0] == want[0] && !strcmp(t, want);
}

/* The class and queue-bytes kind of a queue's NEFF queue type (its packets
 * without a dynamic flag have that queue_type, records.c). */
static void queue_type_of(qmemo *mq, const ntff_queue *q)
{
	const char *t = q->neff_queue && q->neff_queue->type ? q->neff_queue->type : "unknown";
	mq->cls = (int8_t)(qtype_is(t, "software_dynamic")   ? CLS_SW
			   : qtype_is(t, "hardware_dynamic") ? CLS_HW
							     : CLS_STATIC);
	mq->kind = (int8_t)(qtype_is(t, "input") ? 1 : qtype_is(t, "output") ? 2 : qtype_is(t, "data") ? 3 : 0);
	mq->typed = 1;
}

/* What the pass uses of a good DmaPacket record (as the cursor's fill
 * computes it, records.c). */
typedef struct drec {
	int64_t start_ts, end_ts;
	int64_t read_bytes, write_bytes, packet_aggregation_id;
	unsigned flags; /* the NXP_DMA_*_DYNAMIC flags (the queue_type when set) */
	int source_hbm, dest_hbm;
	uint32_t qid;   /* its NTFF queue */
} drec;

/* The memo of NTFF queue `qid` with its type and slot filled (at the queue's
 * first packet, and again after the slot table grew). */
static __attribute__((noinline)) int queue_memo_fill(pass *ps, uint32_t qid)
{
	qmemo *mq = &ps->qmemo[qid];
	if (!mq->typed)
		queue_type_of(mq, &ps->p->queues[qid]);
	qslot *q;
	return find_queue(ps, qid, &q);
}

/* The class unions while ps->dma_cls is the only class: dma_u's state. */
static void dma_class_union(pass *ps)
{
	if (ps->dma_cls >= 0 && ps->dma_cls < CLS_N) {
		ps->cls_u[ps->dma_cls] = ps->dma_u;
		if (ps->dma_cls != CLS_STATIC)
			ps->dyn_u = ps->dma_u;
	}
}

/* A busy span of class cls, not ps->dma_cls (< CLS_N), before it reaches
 * dma_u: 1 when the class unions are to be fed with it (the classes differ
 * from now on), 0 when it is the first. */
static __attribute__((noinline)) int dma_classes(pass *ps, int cls)
{
	if (ps->dma_cls < 0) {
		ps->dma_cls = cls;
		return 0;
	}
	dma_class_union(ps);
	ps->dma_cls = CLS_N;
	return 1;
}

/* A busy DMA span of class cls, in start order, to the DMA unions: of the
 * one-thread pass (and to total_active_time), of the fed DMA share, or of A
 * merging the DMA groups' spans (PM_PAR); these two send their share of
 * total_active_time, the spans of dma_u, as dma_u's runs (dma_runs_end). */
static inline __attribute__((always_inline)) void dma_span(pass *ps, int64_t lo, int64_t hi, int cls, const int mode)
{
	if (mode == PM_ONE)
		total_add(ps, lo, hi, mode);
	if (cls != ps->dma_cls && (ps->dma_cls == CLS_N || dma_classes(ps, cls))) {
		union_add_sorted(ps, &ps->cls_u[cls], lo, hi, PM_ONE);
		if (cls != CLS_STATIC)
			union_add_sorted(ps, &ps->dyn_u, lo, hi, PM_ONE);
	}
	union_add_sorted(ps, &ps->dma_u, lo, hi, mode);
}

/* The last run of a pass whose runs are dma_u's (dma_span): its open one.
 * The fed DMA share's execution span is then its records' span (do_dma). */
static void dma_runs_end(pass *ps)
{
	if (ps->dma_u.open)
		emit_run(ps, &(nxp_span){ps->dma_u.lo, ps->dma_u.hi, {0, 0}}, ps->fed);
	if (ps->fed) {
		ps->exec_lo = ps->span_lo;
		ps->exec_hi = ps->span_hi;
	}
}

static inline __attribute__((always_inline)) int do_dma(pass *ps, const drec *d, const int win, const int mode)
{
	/* The queue first: its class, kind and transfer slot in one memo (a
	 * failure here fails the pass, whatever was summed before). */
	qmemo *mq = &ps->qmemo[d->qid];
	if (__builtin_expect(!mq->slot, 0)) {
		int rc = queue_memo_fill(ps, d->qid);
		if (rc)
			return rc;
	}
	ps->rows++;
	span_add(ps, d->start_ts, d->end_ts);
	if (mode == PM_ONE) /* (only instructions wait in the buffer: a DMA group's or share's stays empty) */
		advance(ps, d->start_ts, mode);
	int64_t lo = d->start_ts, hi = d->end_ts; /* the busy interval, clipped to the window */
	const int busy = clip_w(ps, &lo, &hi, win);
	if (mode != PM_FED) { /* (the fed DMA share's, no window and only packets: its span, dma_runs_end) */
		if (busy && lo < ps->exec_lo)
			ps->exec_lo = lo;
		if (busy && hi > ps->exec_hi)
			ps->exec_hi = hi;
	}

	/* No term here can be negative (ps->negative stays as it is): the byte
	 * counts are u32 and a good record ends at or after its start; so the
	 * sums do not depend on how they are grouped (the queue's, dma_close). */
	const int64_t duration_ns = d->end_ts - d->start_ts;
	const int64_t transfer_bytes = d->read_bytes > d->write_bytes ? d->read_bytes : d->write_bytes;
	sadd(&ps->pk_time, duration_ns);
	/* The packet's queue_type: the dynamic flags', else its NEFF queue's. */
	int cls = mq->cls;
	if (__builtin_expect(d->flags != 0, 0)) {
		cls = d->flags & NXP_DMA_HARDWARE_DYNAMIC ? CLS_HW : CLS_SW;
		ps->pk_count++;
		sadd(&ps->pk_bytes, transfer_bytes);
		ps->cls_count[cls]++;
		sadd(&ps->cls_bytes[cls], transfer_bytes);
	} else {
		mq->count++;
		sadd(&mq->bytes, transfer_bytes);
	}
	if (d->source_hbm)
		sadd(&ps->hbm_read, d->read_bytes);
	if (d->dest_hbm)
		sadd(&ps->hbm_write, d->write_bytes);

	if (!busy) {
		lo = hi = ps->rg.hi; /* a transfer's share past the window is nothing */
	} else if (mode == PM_PAR) {
		span_send(ps, lo, hi, cls); /* A merges the DMA groups' spans into the unions */
	} else { /* the one-thread pass and the fed DMA share: packets in start order */
		dma_span(ps, lo, hi, cls, mode);
	}

	/* Aggregated transfers: a transfer's packets are contiguous in its queue. */
	qslot *q = mq->slot;
	if (q->agg != d->packet_aggregation_id) {
		if (q->agg != INT64_MIN)
			close_transfer(ps, q);
		q->agg = d->packet_aggregation_id;
		q->lo = lo;
		q->hi = hi;
	} else {
		if (lo < q->lo)
			q->lo = lo;
		if (hi > q->hi)
			q->hi = hi;
	}
	return NXP_OK;
}

/* A DMA pass's figures once its packets are read (where fill and combine
 * read them): the class unions that were dma_u take its state, the
 * transfers still open end with its trace, and each queue's packets
 * without a dynamic flag go into the sums of its class and kind. */
static void dma_close(pass *ps)
{
	dma_class_union(ps);
	ps->dma_cls = CLS_N;
	for (size_t k = 0; k < ps->capq; k++)
		if (ps->q[k].used && ps->q[k].agg != INT64_MIN) {
			close_transfer(ps, &ps->q[k]);
			ps->q[k].agg = INT64_MIN;
		}
	for (size_t i = 0; i < ps->p->nqueues; i++) {
		qmemo *mq = &ps->qmemo[i];
		if (!mq->count)
			continue;
		ps->pk_count += mq->count;
		sadd(&ps->pk_bytes, mq->bytes);
		ps->cls_count[mq->cls] += mq->count;
		sadd(&ps->cls_bytes[mq->cls], mq->bytes);
		if (mq->kind)
			sadd(&ps->qbytes[mq->kind], mq->bytes);
		mq->count = mq->bytes = 0;
	}
}

static int do_throttle(pass *ps, const nxp_throttle *t)
{
	ps->rows++;
	span_add(ps, t->timestamp, t->timestamp);
	const char *type = t->type ? t->type : "";
	tgroup *g = NULL;
	for (size_t k = 0; k < ps->ntg; k++)
		if (ps->tg[k].pcore == t->pcore_idx && !strcmp(ps->tg[k].type, type)) {
			g = &ps->tg[k];
			break;
		}
	if (!g) {
		if (ps->ntg >= THROTTLE_GROUPS_MAX)
			return nxp__error_set(ps->st, NXP_E_LIMIT, -1, "more than %d throttle (core, type) groups",
					THROTTLE_GROUPS_MAX);
		tgroup *ng = realloc(ps->tg, (ps->ntg + 1) * sizeof(*ng));
		if (!ng)
			return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (throttle groups)");
		ps->tg = ng;
		g = &ps->tg[ps->ntg++];
		memset(g, 0, sizeof(*g));
		g->pcore = t->pcore_idx;
		g->type = type;
	}
	/* The window, clipped to the TPB range (the profiled span total_time measures). */
	int64_t dur = t->duration > 0 ? t->duration : 0, lo = t->timestamp, hi;
	if (__builtin_add_overflow(lo, dur, &hi))
		hi = INT64_MAX;
	if (lo < ps->tpb_lo)
		lo = ps->tpb_lo;
	if (hi > ps->tpb_hi)
		hi = ps->tpb_hi;
	if (!clip(ps, &lo, &hi) || hi <= lo)
		return NXP_OK;
	nxp_union_add(&g->u, lo, hi);
	if (t->n > 0 && t->k >= 0 && t->k <= t->n)
		g->loss_ns += (double)(hi - lo) * (1.0 - (double)t->k / (double)t->n);
	return NXP_OK;
}

/* ---- reading -----------------------------------------------------------------
 * The pass reads each table through the NTFF module's internal iteration
 * (ntff_iter, ntff_priv.h) as the table's cursor does — the same queues,
 * window, time order, record checks, bad-record counts and errors — but
 * decodes only the fields it sums: filling the public records (strings, the
 * NEFF join of every column) cost more than the summing. */

/* The cursor options and the window in ticks that select the region. */
static void region_selection(const nxp_profile *p, const region *rg, nxp_cursor_options *o, uint64_t *from,
			     uint64_t *to)
{
	nxp_cursor_options_init(o);
	o->start_ts = rg->lo;
	o->end_ts = rg->hi;
	o->pcore_idx = rg->pcore;
	*from = rg->lo == INT64_MIN ? 0 : ntff_tick_of(p, rg->lo);
	*to = rg->hi == INT64_MAX ? UINT64_MAX : ntff_tick_of(p, rg->hi);
}

/* Open `table`'s iteration over the region, positioned at its start, as
 * nxp_cursor_open does (the status filled on failure). */
static int open_iter(pass *ps, int table, ntff_iter *it)
{
	nxp_cursor_options o;
	uint64_t from, to;
	region_selection(ps->p, &ps->rg, &o, &from, &to);
	int rc = ntff_iter_open(it, ps->p, ntff_table_get(table), &o, from, to);
	if (rc)
		return nxp__error_set(ps->st, rc, -1, "out of memory");
	if ((rc = ntff_iter_seek(it, from)) < 0) {
		nxp_status_copy(ps->st, &it->s.err);
		ntff_iter_close(it);
		return rc;
	}
	return NXP_OK;
}

/* A read error into the pass's status, as a cursor's error was reported. */
static int iter_fail(pass *ps, const ntff_iter *it, int rc)
{
	if (it->s.err.code < 0)
		nxp_status_copy(ps->st, &it->s.err);
	else
		nxp__error_set(ps->st, rc, -1, "summary: cursor failed: %s", nxp_strerror(rc));
	return rc;
}

/* Reading a table as nxp_cursor_next_* steps it: bad records counted and
 * stepped over; a good one stepped past once used (an error doing so is kept
 * in it->s and returned by the next call).  peek() stops at the next good
 * record without stepping past it (NXP_OK and its reader in *out, NXP_END or
 * a negative error), *_fill decode what the pass uses of a record, next_* do
 * both and step (the parallel pass's groups); the one-thread pass reads
 * blocks (feed_next, below).  (All inlined in the loops: per record.) */

/* Whether a raw record passes its table's checks (ntff_priv.h). */
static inline __attribute__((always_inline)) int rec_ok(const ntff_scan *s, const uint8_t *rec, const int dma)
{
	return dma ? ntff_dma_rec_ok(s->p, rec) : ntff_instruction_rec_ok(rec);
}

static inline __attribute__((always_inline)) int peek(ntff_iter *it, ntff_qreader **out, const int dma)
{
	ntff_scan *s = &it->s;
	if (s->failed)
		return s->err.code;
	ntff_qreader *qr;
	while ((qr = ntff_iter_peek(it))) {
		if (rec_ok(s, qr->rec, dma)) {
			*out = qr;
			return NXP_OK;
		}
		ntff_scan_bad(s, 0, ntff_qreader_offset(qr));
		int rc = ntff_iter_step(it);
		if (rc < 0)
			return rc;
	}
	return NXP_END;
}

/* counts: the queue's static-instruction counts (ps->sicnt), or NULL when
 * the pass does not count. */
static inline __attribute__((always_inline)) void instr_of_note(const nxp_profile *p, const ntff_queue *q,
								  uint64_t *counts, const nxp_ntff_instruction_note *n,
								  irec *r)
{
	r->start_ts = ntff_tick_ns(p, n->start_tick);
	r->end_ts = ntff_tick_ns(p, n->end_tick);
	r->evt_wait_time_ns = ntff_tick_ns(p, n->wait_ticks);
	r->engine = q->engine;
	r->si = n->pc < q->nsi ? &q->si[n->pc] : NULL;
	r->count = counts && r->si ? &counts[n->pc] : NULL;
}

static inline __attribute__((always_inline)) void instr_fill(ntff_scan *s, const ntff_queue *q, uint64_t *counts,
							     const uint8_t *rec, irec *r)
{
	nxp_ntff_instruction_note n;
	ntff_decode_instruction(rec, &n);
	instr_of_note(s->p, q, counts, &n, r);
	s->stats.unknown_pcs += !r->si;
}

static inline __attribute__((always_inline)) int next_instr(ntff_iter *it, irec *r)
{
	ntff_qreader *qr = NULL; /* (set when rc is NXP_OK) */
	int rc = peek(it, &qr, 0);
	if (rc)
		return rc;
	instr_fill(&it->s, qr->q, NULL, qr->rec, r);
	(void)ntff_iter_step(it);
	return NXP_OK;
}

static inline __attribute__((always_inline)) void dma_of_note(const nxp_profile *p, uint32_t qid,
								const nxp_ntff_dma_note *n, drec *r)
{
	r->start_ts = ntff_tick_ns(p, n->start_tick);
	r->end_ts = ntff_tick_ns(p, n->end_tick);
	r->read_bytes = n->read_bytes;
	r->write_bytes = n->write_bytes;
	r->packet_aggregation_id = n->packet_aggregation_id;
	r->flags = n->flags & (NXP_DMA_HARDWARE_DYNAMIC | NXP_DMA_SOFTWARE_DYNAMIC);
	r->source_hbm = n->source == NXP_MEMORY_HBM;
	r->dest_hbm = n->dest == NXP_MEMORY_HBM;
	r->qid = qid;
}

static inline __attribute__((always_inline)) void dma_fill(const ntff_scan *s, uint32_t qid, const uint8_t *rec, drec *r)
{
	nxp_ntff_dma_note n;
	ntff_decode_dma(rec, &n);
	dma_of_note(s->p, qid, &n, r);
}

/* The one-thread pass reads each table a block at a time (ntff_iter_block:
 * where queues interleave record by record, merged in bulk instead of one
 * tree replay a record), or a run where no block can be taken; the records
 * and their order are those of peek() and ntff_iter_step. */
typedef struct feed {
	ntff_iter *it;
	ntff_blk *b;
	ntff_rec r;
	int run;              /* the records are the run r, else the block b */
	size_t i, n;          /* the next record of the block or run, and their count */
	const uint8_t *rec;   /* the current good record: */
	const ntff_queue *q;
	uint32_t qid;
	uint64_t key;
} feed;

/* The next good record into f->rec (bad ones counted): NXP_OK, NXP_END or a
 * negative error. */
static inline __attribute__((always_inline)) int feed_next(feed *f, const int dma)
{
	ntff_scan *s = &f->it->s;
	for (;;) {
		while (f->i < f->n) {
			size_t i = f->i++;
			const uint8_t *rec = f->run ? f->r.rec + i * f->r.rsize : f->b->rec[i];
			if (rec_ok(s, rec, dma)) {
				f->rec = rec;
				f->q = f->run ? f->r.q : f->b->qr[i]->q;
				f->qid = f->run ? f->r.qid : f->b->qr[i]->qid;
				f->key = ntff_record_key(rec);
				return NXP_OK;
			}
			ntff_scan_bad(s, 0, f->run ? ntff_iter_run_offset(f->it, i) : ntff_blk_offset(f->b, i));
		}
		if (f->run)
			(void)ntff_iter_skip(f->it, f->n); /* an error is kept in s */
		f->run = 0;
		f->i = f->n = 0;
		if (s->failed)
			return s->err.code;
		int rc = ntff_iter_block(f->it, f->b, NTFF_BLK_MAX);
		if (rc != NXP_OK)
			return rc;
		if (f->b->n) {
			f->n = f->b->n;
			continue;
		}
		if ((rc = ntff_iter_run(f->it, &f->r)) != NXP_OK)
			return rc;
		f->run = 1;
		f->n = f->r.n;
	}
}

static inline __attribute__((always_inline)) int next_dma(ntff_iter *it, drec *r)
{
	ntff_qreader *qr = NULL; /* (set when rc is NXP_OK) */
	int rc = peek(it, &qr, 1);
	if (rc)
		return rc;
	dma_fill(&it->s, qr->qid, qr->rec, r);
	(void)ntff_iter_step(it);
	return NXP_OK;
}

/* The Instruction and DmaPacket records merged by start time (an
 * instruction first on a tie). */
static inline __attribute__((always_inline)) int main_loop_w(pass *ps, const int win, const int cnt)
{
	ntff_iter ii, id;
	int rc = open_iter(ps, NXP_TABLE_INSTRUCTION, &ii);
	if (rc)
		return rc;
	if ((rc = open_iter(ps, NXP_TABLE_DMA_PACKET, &id)) != NXP_OK) {
		ntff_iter_close(&ii);
		return rc;
	}
	const nxp_profile *p = ps->p;
	ntff_blk *bi = malloc(sizeof(*bi)), *bd = malloc(sizeof(*bd));
	if (!bi || !bd) {
		rc = nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory");
		goto out;
	}
	feed fi = {.it = &ii, .b = bi}, fd = {.it = &id, .b = bd};
	int hi = feed_next(&fi, 0);
	int hd = feed_next(&fd, 1);
	for (;;) {
		if (hi < 0) {
			rc = iter_fail(ps, &ii, hi);
			goto out;
		}
		if (hd < 0) {
			rc = iter_fail(ps, &id, hd);
			goto out;
		}
		if (hi == NXP_END && hd == NXP_END)
			break;
		/* a record's key is its start tick */
		if (hd == NXP_END || (hi == NXP_OK && ntff_tick_ns(p, fi.key) <= ntff_tick_ns(p, fd.key))) {
			irec in;
			instr_fill(&ii.s, fi.q, cnt ? ps->sicnt[fi.qid] : NULL, fi.rec, &in);
			rc = do_instruction(ps, &in, win, PM_ONE, cnt);
			if (rc)
				goto out;
			hi = feed_next(&fi, 0);
		} else {
			drec dp;
			dma_fill(&id.s, fd.qid, fd.rec, &dp);
			rc = do_dma(ps, &dp, win, PM_ONE);
			if (rc)
				goto out;
			hd = feed_next(&fd, 1);
		}
	}
	release(ps, INT64_MAX, PM_ONE);
	rc = NXP_OK;
out:
	free(bi);
	free(bd);
	ntff_iter_close(&ii);
	ntff_iter_close(&id);
	return rc;
}

/* Counting static instructions (pass.sicnt): at most this many counters. */
#define SICNT_MAX ((size_t)1 << 22)

/* Set up ps->sicnt when every term of every static instruction of the
 * profile's instruction queues is non-negative (and not too many of them):
 * 1, else 0 (the pass sums per record, as the parallel pass does). */
static int si_counts_init(pass *ps)
{
	const nxp_profile *p = ps->p;
	size_t total = 0;
	for (size_t i = 0; i < p->nqueues; i++) {
		const ntff_queue *q = &p->queues[i];
		if (q->kind != NXP_QUEUE_INSTRUCTION || !q->si || !q->nsi)
			continue;
		if (q->nsi > SICNT_MAX - total)
			return 0;
		total += (size_t)q->nsi;
		for (uint64_t k = 0; k < q->nsi; k++) {
			const nxp_static_instr *x = &q->si[k];
			const double m = ps->mult[x->mm_dtype];
			/* the terms instr_terms sums (raw_flops is either term) */
			if ((x->raw_flops | x->hbm_read_bytes | x->hbm_write_bytes | x->sbuf_read_bytes |
			     x->sbuf_write_bytes | x->psum_read_bytes | x->psum_write_bytes | x->spill_save_bytes |
			     x->spill_reload_bytes) < 0 || !(m >= 0.0) ||
			    (int64_t)((double)x->raw_flops * m + 0.5) < 0)
				return 0;
		}
	}
	if (!total)
		return 0;
	ps->sicnt = calloc(p->nqueues, sizeof(*ps->sicnt));
	ps->sicnt_base = calloc(total, sizeof(*ps->sicnt_base));
	if (!ps->sicnt || !ps->sicnt_base) {
		free(ps->sicnt);
		free(ps->sicnt_base);
		ps->sicnt = NULL;
		ps->sicnt_base = NULL;
		return 0; /* the per-record sums need no memory */
	}
	size_t off = 0;
	for (size_t i = 0; i < p->nqueues; i++) {
		const ntff_queue *q = &p->queues[i];
		if (q->kind != NXP_QUEUE_INSTRUCTION || !q->si || !q->nsi)
			continue;
		ps->sicnt[i] = ps->sicnt_base + off;
		off += (size_t)q->nsi;
	}
	return 1;
}

/* Sum the counted static instructions' terms (after the pass). */
static void si_counts_apply(pass *ps)
{
	const nxp_profile *p = ps->p;
	for (size_t i = 0; i < p->nqueues; i++) {
		const uint64_t *c = ps->sicnt[i];
		if (!c)
			continue;
		const ntff_queue *q = &p->queues[i];
		for (uint64_t k = 0; k < q->nsi; k++)
			if (c[k])
				instr_terms(ps, &q->si[k], 1, c[k]);
	}
}

/* flatten: the loop's every helper inlined (GCC's size limits otherwise leave
 * the record decode and union adds out of line in so large a function). */
static __attribute__((flatten)) int main_loop(pass *ps)
{
	if (!si_counts_init(ps))
		return main_loop_w(ps, 1, 0); /* (clip() is exact without a window too) */
	int rc;
	if (ps->rg.lo == INT64_MIN && ps->rg.hi == INT64_MAX)
		rc = main_loop_w(ps, 0, 1); /* no window: the whole trace (a pcore selection is the iterators') */
	else
		rc = main_loop_w(ps, 1, 1);
	if (!rc)
		si_counts_apply(ps);
	return rc;
}

/* One good record of a side table: rows, the span, throttle groups. */
static int side_record(pass *ps, int table, const ntff_queue *q, const uint8_t *rec)
{
	const uint64_t tpn = (uint64_t)ps->p->hdr.ticks_per_nanosec;
	switch (table) {
	case NXP_TABLE_SEMAPHORE_UPDATE: {
		nxp_ntff_semaphore_note n;
		ntff_decode_semaphore(rec, &n);
		const int64_t ts = (int64_t)(n.tick / tpn);
		ps->rows++;
		span_add(ps, ts, ts);
		return NXP_OK;
	}
	case NXP_TABLE_THROTTLE: {
		nxp_ntff_throttle_note n;
		ntff_decode_throttle(rec, &n);
		nxp_throttle t;
		t.timestamp = (int64_t)(n.tick / tpn);
		t.duration = (int64_t)(n.duration_ticks / tpn);
		t.k = n.k;
		t.n = n.n;
		t.type = n.type ? ntff_str(ps->p, n.type) : "unknown";
		t.pcore_idx = q->pcore;
		return do_throttle(ps, &t);
	}
	case NXP_TABLE_ERROR: {
		nxp_ntff_error_note n;
		ntff_decode_error(rec, &n);
		const int64_t ts = (int64_t)(n.tick / tpn);
		ps->rows++;
		span_add(ps, ts, ts);
		return NXP_OK;
	}
	default: {
		nxp_ntff_execution_note n;
		ntff_decode_execution(rec, &n);
		ps->rows++;
		ps->executions++;
		span_add(ps, (int64_t)(n.start_tick / tpn), (int64_t)(n.end_tick / tpn));
		return NXP_OK;
	}
	}
}

/* Semaphore, throttle, error and execution tables: rows and the span. */
static int side_tables(pass *ps)
{
	static const int tables[] = {NXP_TABLE_SEMAPHORE_UPDATE, NXP_TABLE_THROTTLE, NXP_TABLE_ERROR,
				     NXP_TABLE_EXECUTION};
	for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++) {
		ntff_iter it;
		int rc = open_iter(ps, tables[k], &it);
		if (rc)
			return rc;
		ntff_scan *s = &it.s;
		ntff_qreader *qr;
		/* the cursor's next: bad records counted and stepped over; an
		 * error moving past a good one is reported by the next call */
		while (!(rc = s->failed ? s->err.code : 0) && (qr = ntff_iter_peek(&it))) {
			if (!it.t->check(s->p, qr->rec)) {
				ntff_scan_bad(s, 0, ntff_qreader_offset(qr));
				if ((rc = ntff_iter_step(&it)) < 0)
					break;
				continue;
			}
			if ((rc = side_record(ps, tables[k], qr->q, qr->rec)) != NXP_OK) {
				ntff_iter_close(&it);
				return rc; /* the pass's own failure, status filled */
			}
			(void)ntff_iter_step(&it);
		}
		if (rc < 0)
			iter_fail(ps, &it, rc);
		ntff_iter_close(&it);
		if (rc < 0)
			return rc;
	}
	return NXP_OK;
}

static char *dupstr(const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s ? s : "", n);
	return d;
}

/* The TPB start..stop range when the trace has both, in order: sets *lo and
 * *hi and returns 1; else leaves them and returns 0. */
static int tpb_range(const nxp_metadata *md, int64_t *lo, int64_t *hi)
{
	if (md->tpb_start_ts == INT64_MIN || md->tpb_stop_ts == INT64_MIN || md->tpb_stop_ts < md->tpb_start_ts)
		return 0;
	*lo = md->tpb_start_ts;
	*hi = md->tpb_stop_ts;
	return 1;
}

static double sec(int64_t ns)
{
	return (double)ns / 1e9;
}

static int fill(pass *ps, nxp_summary *s, const nxp_metadata *md, const nxp_hardware *hw)
{
	dma_close(ps); /* (a combined pass's parts were closed by combine) */
	/* total_time: TPB start -> stop when the trace has both, else the span. */
	int64_t t0 = 0, t1 = -1;
	if (ps->rg.on) {
		/* A region: the window clipped to the trace (TPB range, else the
		 * trace's first..last timestamps and the selected records' span). */
		if (!tpb_range(md, &t0, &t1)) {
			if (md->first_hw_timestamp <= md->last_hw_timestamp) {
				span_add(ps, md->first_hw_timestamp, md->last_hw_timestamp);
			}
			if (md->tpb_start_ts != INT64_MIN)
				span_add(ps, md->tpb_start_ts, md->tpb_start_ts);
			if (md->tpb_stop_ts != INT64_MIN)
				span_add(ps, md->tpb_stop_ts, md->tpb_stop_ts);
			t0 = ps->span_lo;
			t1 = ps->span_hi;
		}
		if (t0 <= t1) {
			if (t0 < ps->rg.lo)
				t0 = ps->rg.lo;
			if (t1 > ps->rg.hi)
				t1 = ps->rg.hi;
			if (t1 < t0)
				t1 = t0; /* the window misses the trace: 0 s */
		}
	} else if (!tpb_range(md, &t0, &t1)) {
		if (md->tpb_start_ts != INT64_MIN)
			span_add(ps, md->tpb_start_ts, md->tpb_start_ts);
		if (md->tpb_stop_ts != INT64_MIN)
			span_add(ps, md->tpb_stop_ts, md->tpb_stop_ts);
		if (ps->span_lo <= ps->span_hi) {
			t0 = ps->span_lo;
			t1 = ps->span_hi;
		}
	}
	const int64_t total_ns = t1 >= t0 ? t1 - t0 : -1;
	if (total_ns >= 0)
		nxp_summary_set_float(s, NXP_SF_total_time, sec(total_ns));

	if (md->trace_count >= 0)
		nxp_summary_set_int(s, NXP_SF_trace_count, md->trace_count);
	if (md->event_count >= 0)
		nxp_summary_set_int(s, NXP_SF_event_count, md->event_count);
	nxp_summary_set_int(s, NXP_SF_total_row_count, ps->rows);

	/* Engines. */
	static const int eng_fields[NXP_ENGINE_COUNT][3] = {
		[NXP_ENGINE_TENSOR] = {NXP_SF_tensor_engine_instruction_time, NXP_SF_tensor_engine_active_time,
				       NXP_SF_tensor_engine_instruction_count},
		[NXP_ENGINE_VECTOR] = {NXP_SF_vector_engine_instruction_time, NXP_SF_vector_engine_active_time,
				       NXP_SF_vector_engine_instruction_count},
		[NXP_ENGINE_SCALAR] = {NXP_SF_scalar_engine_instruction_time, NXP_SF_scalar_engine_active_time,
				       NXP_SF_scalar_engine_instruction_count},
		[NXP_ENGINE_GPSIMD] = {NXP_SF_gpsimd_engine_instruction_time, NXP_SF_gpsimd_engine_active_time,
				       NXP_SF_gpsimd_engine_instruction_count},
		[NXP_ENGINE_SYNC] = {NXP_SF_sync_engine_instruction_time, NXP_SF_sync_engine_active_time,
				     NXP_SF_sync_engine_instruction_count},
	};
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		int64_t count, time;
		eng_figures(ps, e, &count, &time);
		nxp_summary_set_float(s, eng_fields[e][0], sec(time));
		nxp_summary_set_float(s, eng_fields[e][1], sec(nxp_union_length(&ps->eng_u[e])));
		nxp_summary_set_int(s, eng_fields[e][2], count);
	}
	nxp_summary_set_int(s, NXP_SF_matmul_instruction_count, ps->matmul_count);
	nxp_summary_set_int(s, NXP_SF_activate_instruction_count, ps->activate_count);
	nxp_summary_set_float(s, NXP_SF_activate_instruction_time, sec(ps->activate_time));

	/* FLOPs and memory traffic. */
	nxp_summary_set_int(s, NXP_SF_hardware_flops, ps->hw_flops);
	nxp_summary_set_int(s, NXP_SF_transpose_flops, ps->tr_flops);
	nxp_summary_set_int(s, NXP_SF_adjusted_hardware_flops, ps->adj_hw_flops);
	nxp_summary_set_int(s, NXP_SF_adjusted_transpose_flops, ps->adj_tr_flops);
	/* HBM traffic: DMA packets that read/write HBM, plus compute instructions
	 * that address HBM themselves.  A DMA-trigger instruction describes the
	 * same bytes as its packets, so it counts only when the trace has no DMA
	 * packets at all (captured without DMA notifications). */
	if (ps->pk_count == 0) {
		sadd(&ps->hbm_read, ps->dma_instr_hbm_read);
		sadd(&ps->hbm_write, ps->dma_instr_hbm_write);
	}
	nxp_summary_set_int(s, NXP_SF_hbm_read_bytes, ps->hbm_read);
	nxp_summary_set_int(s, NXP_SF_hbm_write_bytes, ps->hbm_write);
	nxp_summary_set_int(s, NXP_SF_sbuf_read_bytes, ps->sbuf_read);
	nxp_summary_set_int(s, NXP_SF_sbuf_write_bytes, ps->sbuf_write);
	nxp_summary_set_int(s, NXP_SF_psum_read_bytes, ps->psum_read);
	nxp_summary_set_int(s, NXP_SF_psum_write_bytes, ps->psum_write);
	nxp_summary_set_int(s, NXP_SF_spill_save_bytes, ps->spill_save);
	nxp_summary_set_int(s, NXP_SF_spill_reload_bytes, ps->spill_reload);
	nxp_summary_set_int(s, NXP_SF_psum_read_sbuf_write_count, ps->prsw_count);
	nxp_summary_set_int(s, NXP_SF_psum_read_sbuf_write_bytes, ps->prsw_bytes);

	/* The NEFF's static totals. */
	nxp_neff_totals tot;
	nxp_neff_get_totals(ps->neff, &tot);
	/* The compiler's model FLOPs describe one execution of the NEFF; a trace
	 * that records several executions did that work once per execution. */
	if (tot.model_flops >= 0)
		nxp_summary_set_int(s, NXP_SF_model_flops,
				    ps->executions <= 1 ? tot.model_flops
				    : tot.model_flops <= INT64_MAX / ps->executions ? tot.model_flops * ps->executions
										     : INT64_MAX);
	if (tot.weight_size_bytes >= 0)
		nxp_summary_set_int(s, NXP_SF_weight_size_bytes, tot.weight_size_bytes);
	if (tot.weight_size_bytes >= 0 && tot.input_size_bytes >= 0)
		nxp_summary_set_int(s, NXP_SF_inputs_and_weights_size_bytes,
				    tot.input_size_bytes + tot.weight_size_bytes);
	if (tot.weight_size_bytes >= 0 && tot.input_size_bytes >= 0 && tot.output_size_bytes >= 0)
		nxp_summary_set_int(s, NXP_SF_inputs_outputs_weights_size_bytes,
				    tot.input_size_bytes + tot.output_size_bytes + tot.weight_size_bytes);
	if (tot.dma_queue_count >= 0)
		nxp_summary_set_int(s, NXP_SF_dma_queue_count, tot.dma_queue_count);

	/* DMA. */
	nxp_summary_set_int(s, NXP_SF_dma_packet_count, ps->pk_count);
	nxp_summary_set_float(s, NXP_SF_dma_packet_time, sec(ps->pk_time));
	nxp_summary_set_float(s, NXP_SF_dma_active_time, sec(nxp_union_length(&ps->dma_u)));
	nxp_summary_set_int(s, NXP_SF_dma_transfer_count, ps->xfer_count);
	nxp_summary_set_float(s, NXP_SF_dma_transfer_time, sec(ps->xfer_time));
	nxp_summary_set_int(s, NXP_SF_dma_transfer_total_bytes, ps->pk_bytes);
	nxp_summary_set_int(s, NXP_SF_static_dma_packet_count, ps->cls_count[CLS_STATIC]);
	nxp_summary_set_int(s, NXP_SF_static_dma_size, ps->cls_bytes[CLS_STATIC]);
	nxp_summary_set_float(s, NXP_SF_static_dma_active_time, sec(nxp_union_length(&ps->cls_u[CLS_STATIC])));
	nxp_summary_set_int(s, NXP_SF_software_dynamic_dma_packet_count, ps->cls_count[CLS_SW]);
	nxp_summary_set_int(s, NXP_SF_software_dynamic_dma_size, ps->cls_bytes[CLS_SW]);
	nxp_summary_set_float(s, NXP_SF_software_dynamic_dma_active_time, sec(nxp_union_length(&ps->cls_u[CLS_SW])));
	nxp_summary_set_int(s, NXP_SF_hardware_dynamic_dma_packet_count, ps->cls_count[CLS_HW]);
	nxp_summary_set_int(s, NXP_SF_hardware_dynamic_dma_size, ps->cls_bytes[CLS_HW]);
	nxp_summary_set_float(s, NXP_SF_hardware_dynamic_dma_active_time, sec(nxp_union_length(&ps->cls_u[CLS_HW])));
	nxp_summary_set_float(s, NXP_SF_dynamic_dma_active_time, sec(nxp_union_length(&ps->dyn_u)));
	nxp_summary_set_int(s, NXP_SF_input_queue_bytes, ps->qbytes[1]);
	nxp_summary_set_int(s, NXP_SF_output_queue_bytes, ps->qbytes[2]);
	nxp_summary_set_int(s, NXP_SF_weight_queue_bytes, ps->qbytes[3]);

	/* Overall. */
	if (ps->exec_lo <= ps->exec_hi)
		nxp_summary_set_float(s, NXP_SF_total_exec_time, sec(ps->exec_hi - ps->exec_lo));
	nxp_summary_set_float(s, NXP_SF_total_active_time, sec(nxp_union_length(&ps->total_u)));

	/* OpcodeSummary rows, engine then opcode number order. */
	size_t nrows = 0;
	for (size_t k = 0; k < (size_t)NXP_ENGINE_COUNT * OP_SLOTS; k++)
		nrows += ps->ops[k].count > 0;
	if (nrows) {
		s->opcodes = calloc(nrows, sizeof(*s->opcodes));
		if (!s->opcodes)
			return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (opcode summary)");
		for (size_t k = 0; k < (size_t)NXP_ENGINE_COUNT * OP_SLOTS; k++) {
			const opacc *a = &ps->ops[k];
			if (!a->count)
				continue;
			nxp_summary_opcode_row *r = &s->opcodes[s->n_opcodes];
			r->engine = (int32_t)(k / OP_SLOTS);
			r->engine_name = nxp_engine_name(r->engine);
			r->opcode_num = (uint32_t)(k % OP_SLOTS);
			r->opcode = dupstr(a->name);
			if (!r->opcode)
				return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (opcode summary)");
			s->n_opcodes++;
			r->instruction_count = a->count;
			r->instruction_time_ns = a->time_ns;
			r->active_time_ns = nxp_union_length(&a->u);
			r->active_time_percent = total_ns > 0 ? (double)r->active_time_ns / (double)total_ns : 0.0;
		}
	}

	/* ThrottleSummary rows, core then type order. */
	if (ps->ntg) {
		s->throttles = calloc(ps->ntg, sizeof(*s->throttles));
		if (!s->throttles)
			return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (throttle summary)");
		for (size_t k = 1; k < ps->ntg; k++) { /* insertion sort: a handful of groups */
			tgroup g = ps->tg[k];
			size_t j = k;
			while (j && (ps->tg[j - 1].pcore > g.pcore ||
				     (ps->tg[j - 1].pcore == g.pcore && strcmp(ps->tg[j - 1].type, g.type) > 0))) {
				ps->tg[j] = ps->tg[j - 1];
				j--;
			}
			ps->tg[j] = g;
		}
		for (size_t k = 0; k < ps->ntg; k++) {
			const tgroup *g = &ps->tg[k];
			nxp_summary_throttle_row *r = &s->throttles[s->n_throttles];
			r->throttle_type = dupstr(g->type);
			if (!r->throttle_type)
				return nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (throttle summary)");
			s->n_throttles++;
			r->nc_idx = (int32_t)g->pcore;
			r->throttle_active_time_ns = nxp_union_length(&g->u);
			if (total_ns > 0) {
				double u = 1.0 - g->loss_ns / (double)total_ns;
				r->throttle_active_time_percent = (double)r->throttle_active_time_ns / (double)total_ns;
				r->max_achievable_util_with_throttling_percent = u < 0.0 ? 0.0 : u;
			} else {
				r->throttle_active_time_percent = 0.0;
				r->max_achievable_util_with_throttling_percent = 1.0;
			}
		}
	}

	return nxp_summary_derive(s, hw);
}

static void pass_free(pass *ps)
{
	nxp_reorder_free(&ps->reorder);
	free(ps->q);
	free(ps->tg);
	free(ps->ops);
	free(ps->qmemo);
	free(ps->sicnt);
	free(ps->sicnt_base);
	free(ps->kept.p);
	ps->kept = (nxp_runlog){0};
	ps->sicnt = NULL;
	ps->sicnt_base = NULL;
	ps->qmemo = NULL;
	ps->q = NULL;
	ps->tg = NULL;
	ps->ops = NULL;
}

/* A pass's state before the first record. */
static int pass_init(pass *ps, nxp_profile *p, const region *rg, const nxp_metadata *md, const nxp_hardware *hwp,
		     nxp_status *st)
{
	memset(ps, 0, sizeof(*ps));
	ps->rg = *rg;
	ps->ops = calloc((size_t)NXP_ENGINE_COUNT * OP_SLOTS, sizeof(*ps->ops));
	ps->qmemo = calloc(p->nqueues ? p->nqueues : 1, sizeof(*ps->qmemo));
	if (!ps->ops || !ps->qmemo) {
		pass_free(ps);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory (summary pass)");
	}
	ps->p = p;
	ps->neff = nxp_profile_neff(p);
	ps->st = st;
	nxp_reorder_init(&ps->reorder, REORDER_MAX);
	ps->span_lo = ps->exec_lo = INT64_MAX;
	ps->span_hi = ps->exec_hi = INT64_MIN;
	/* union_add_sorted's first span opens them */
	ps->total_u.hi = ps->dma_u.hi = ps->dyn_u.hi = INT64_MIN;
	for (int c = 0; c < CLS_N; c++)
		ps->cls_u[c].hi = INT64_MIN;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		ps->eng_u[e].hi = INT64_MIN;
	for (int k = 0; k < NXP_ENGINE_COUNT * OP_SLOTS; k++)
		ps->ops[k].u.hi = INT64_MIN;
	ps->tpb_lo = INT64_MIN;
	ps->tpb_hi = INT64_MAX;
	ps->last_start = INT64_MIN;
	ps->pend.tag[0] = -1;
	ps->dma_cls = -1;
	tpb_range(md, &ps->tpb_lo, &ps->tpb_hi); /* throttle windows are clipped to it */
	/* Adjusted FLOPs follow the hardware in use: the FP8 multiplier is the
	 * description's (the only arch-dependent one), the rest are fixed. */
	const double fp8 = hwp ? hwp->fp8_flops_multiplier : nxp_fp8_flops_multiplier(md->arch);
	for (int d = 0; d < 256; d++)
		ps->mult[d] = nxp_dtype_flops_multiplier(d, fp8);
	/* DMA-trigger opcodes by name (DMAMEMCPY, DMA_INDIRECT, DMA_TRANSPOSE,
	 * PSEUDO_DMATRIGGER): the opcode table is the NEFF module's. */
	for (unsigned o = 0; o < NXP_SUMMARY_OPCODES; o++) {
		const char *name = nxp_opcode_name(o);
		ps->dma_op[o] = name && strstr(name, "DMA") != NULL;
	}
	return NXP_OK;
}

/* ---- the parallel pass ---------------------------------------------------
 * Reading a table (sections, CRC, decoding, the NEFF join, the time-order
 * merge of its queues) costs more than summing its records, and a table's
 * queues are read independently, so the parallel pass splits both big tables
 * by queue:
 *  - the Instruction table into groups of engines (every core's queues of an
 *    engine in one group), the DmaPacket table into groups of queues, groups
 *    balanced by record count; each group is read by its own thread through
 *    its own merge of its queues (the cursor's: a queue's records, bad records
 *    and bad keys are its own business, whatever group it is in) into its own
 *    pass, so every per-engine and per-queue figure is computed whole by one
 *    thread;
 *  - the DMA groups send the busy spans of their packets (overlapping ones
 *    of a class joined), in start order, to one accumulator (A), which
 *    merges them by start into the DMA unions;
 *  - thread S reads the other tables; the caller merges the busy runs of the
 *    instruction groups and of A into total_active_time.
 * Why the figures are those of the one-thread merge, bit for bit:
 *  - every counter is an integer sum of non-negative terms (a negative term is
 *    flagged and the pass redone on one thread) or a min/max: saturating sums
 *    of non-negative terms do not depend on the order;
 *  - an instruction group's reorder buffer releases its spans in busy-start
 *    order, as the one-thread pass's does (a span leaves when the latest
 *    record start passes it; one starting at the latest start goes straight
 *    through), and every union of an engine and of its opcodes belongs to one
 *    group, so it sees the same spans in start order: the same integer length;
 *  - the DMA unions and total_active_time are lengths of unions of spans that
 *    the one-thread pass receives in start order; merging the groups' sorted
 *    spans (runs) by start gives the same unions, so the same integer lengths;
 *  - a transfer is a run of one queue's packets: one group has all of them.
 * Where an argument needs records in start order and the reorder bound never
 * reached (hostile or enormous traces; the groups' buffers together stay
 * under the bound), a side that sees otherwise flags it and the summary is
 * recomputed by the one-thread pass. */
enum { PT_INSTR, PT_DMA, PT_ACC, PT_SIDE };

#define GROUPS_MAX 16 /* groups per table */

/* One group of a table's queues, read in time order (the cursor's merge and
 * fill, over the group's queues only). */
typedef struct qgroup {
	nxp_profile *p;
	const ntff_table *t;
	nxp_cursor_options o;  /* the region's selection (pcore) */
	uint64_t from, to;     /* the region's window in ticks, as the cursor converts it */
	const uint8_t *member; /* group of each queue of the profile */
	int group;
} qgroup;

static int group_wants(const ntff_queue *q, const void *arg)
{
	const qgroup *g = arg;
	return ntff_table_selects(g->t, q, &g->o) && g->member[q - g->p->queues] == g->group;
}

typedef struct ptask {
	pass ps;
	nxp_status st;
	chan ch;        /* I: total runs to the caller; D: busy spans to A; A: total runs to the caller */
	int which, rc;
	qgroup g;       /* I and D */
	struct ptask *src; /* A: the D tasks */
	int nsrc;
	double cpu;     /* the task's thread CPU time, seconds */
} ptask;

static double thread_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Read group g into ps (do_instruction or do_dma per record). */
static int group_loop(pass *ps, const qgroup *g, int dma)
{
	union {
		irec in;
		drec dp;
	} r;
	ntff_iter it;
	memset(&it, 0, sizeof(it));
	memset(&r, 0, sizeof(r)); /* (set before any use; GCC cannot tell once do_dma is inlined) */
	it.t = g->t;
	int rc = ntff_scan_open(&it.s, g->p, group_wants, g, g->from, g->to);
	if (!rc)
		rc = ntff_merge_init(&it.m, it.s.nqr);
	if (!rc)
		rc = ntff_iter_seek(&it, g->from);
	if (rc) { /* cannot start: the one-thread pass reports it */
		ps->unordered = 1;
		rc = NXP_OK;
	}
	int nr;
	while (!ps->unordered && (nr = dma ? next_dma(&it, &r.dp) : next_instr(&it, &r.in)) == NXP_OK) {
		const int64_t start = dma ? r.dp.start_ts : r.in.start_ts;
		if (start < ps->last_start)
			ps->unordered = 1;
		ps->last_start = start;
		if ((rc = dma ? do_dma(ps, &r.dp, 1, PM_PAR) : do_instruction(ps, &r.in, 1, PM_PAR, 0)) != NXP_OK)
			break;
	}
	if (!ps->unordered && !rc && nr < 0)
		ps->unordered = 1; /* a read error: the one-thread pass reports it, as it always does */
	if (!rc && !dma)
		release(ps, INT64_MAX, PM_PAR);
	ntff_iter_close(&it);
	return rc;
}

/* A: merge the D groups' span streams by start into the DMA unions; its
 * total runs go to the caller. */
static void acc_loop(ptask *a)
{
	pass *ps = &a->ps;
	const int n = a->nsrc;
	nxp_span *buf = malloc((size_t)(n ? n : 1) * CH_BATCH * sizeof(*buf));
	size_t len[GROUPS_MAX], pos[GROUPS_MAX];
	if (!buf) {
		a->rc = nxp__error_set(ps->st, NXP_E_NOMEM, -1, "out of memory (parallel summary)");
		for (int j = 0; j < n; j++) /* drain so that the groups finish */
			while (chan_get(&a->src[j].ch, ps->batch))
				;
		return;
	}
	for (int j = 0; j < n; j++) {
		len[j] = chan_get(&a->src[j].ch, buf + (size_t)j * CH_BATCH);
		pos[j] = 0;
	}
	int64_t last = INT64_MIN;
	for (;;) {
		int best = -1;
		for (int j = 0; j < n; j++)
			if (pos[j] < len[j] &&
			    (best < 0 || buf[(size_t)j * CH_BATCH + pos[j]].lo < buf[(size_t)best * CH_BATCH + pos[best]].lo))
				best = j;
		if (best < 0)
			break;
		const nxp_span *x = &buf[(size_t)best * CH_BATCH + pos[best]];
		if (x->lo < last)
			ps->unordered = 1;
		last = x->lo;
		dma_span(ps, x->lo, x->hi, x->tag[0], PM_PAR); /* (out of order: redone on one thread) */
		if (++pos[best] == len[best]) {
			len[best] = chan_get(&a->src[best].ch, buf + (size_t)best * CH_BATCH);
			pos[best] = 0;
		}
	}
	free(buf);
}

static void run_task(void *v)
{
	ptask *t = v;
	const double c0 = thread_cpu();
	if (t->which == PT_INSTR || t->which == PT_DMA) {
		t->rc = group_loop(&t->ps, &t->g, t->which == PT_DMA);
		total_end(&t->ps); /* closes the channel (also on failure) */
	} else if (t->which == PT_ACC) {
		acc_loop(t);
		dma_runs_end(&t->ps);
		total_end(&t->ps);
	} else {
		t->rc = side_tables(&t->ps);
	}
	t->cpu = thread_cpu() - c0;
}

static int cmp_load(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b; /* {records, key} */
	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Split `table`'s selected queues into at most `want` groups balanced by
 * record count (largest first, to the least loaded group); instruction queues
 * go by engine (an engine's queues on every core in one group).  Fills
 * member[] (UINT8_MAX: not selected) and g[0..n-1]; returns n >= 1 or
 * NXP_E_NOMEM. */
static int groups_init(qgroup *g, uint8_t *member, nxp_profile *p, int table, const region *rg, unsigned want)
{
	const ntff_table *t = ntff_table_get(table);
	const int by_engine = table == NXP_TABLE_INSTRUCTION;
	nxp_cursor_options o;
	uint64_t from, to;
	region_selection(p, rg, &o, &from, &to);
	const size_t nunits = by_engine ? NXP_ENGINE_COUNT : p->nqueues;
	uint64_t *load = calloc(nunits ? nunits : 1, 2 * sizeof(*load));
	if (!load)
		return NXP_E_NOMEM;
	for (size_t u = 0; u < nunits; u++)
		load[2 * u + 1] = u;
	for (size_t i = 0; i < p->nqueues; i++) {
		const ntff_queue *q = &p->queues[i];
		if (!ntff_table_selects(t, q, &o))
			continue;
		size_t u = i;
		if (by_engine) {
			if (q->engine < 0 || q->engine >= NXP_ENGINE_COUNT)
				continue; /* the cursor returns only known engines */
			u = (size_t)q->engine;
		}
		load[2 * u] += q->records + 1; /* + 1: a selected unit is never empty */
	}
	size_t used = 0;
	for (size_t u = 0; u < nunits; u++)
		used += load[2 * u] > 0;
	if (want > GROUPS_MAX)
		want = GROUPS_MAX;
	if (want > used)
		want = used ? (unsigned)used : 1;
	qsort(load, nunits, 2 * sizeof(*load), cmp_load);
	uint8_t unit_group[NXP_ENGINE_COUNT];
	uint64_t sum[GROUPS_MAX] = {0};
	for (size_t i = 0; i < p->nqueues; i++)
		member[i] = UINT8_MAX;
	for (size_t k = 0; k < used; k++) {
		unsigned best = 0;
		for (unsigned j = 1; j < want; j++)
			if (sum[j] < sum[best])
				best = j;
		sum[best] += load[2 * k];
		if (by_engine)
			unit_group[load[2 * k + 1]] = (uint8_t)best;
		else
			member[load[2 * k + 1]] = (uint8_t)best;
	}
	free(load);
	if (by_engine)
		for (size_t i = 0; i < p->nqueues; i++) {
			const ntff_queue *q = &p->queues[i];
			if (ntff_table_selects(t, q, &o) && q->engine >= 0 && q->engine < NXP_ENGINE_COUNT)
				member[i] = unit_group[q->engine];
		}
	for (unsigned j = 0; j < want; j++) {
		g[j].p = p;
		g[j].t = t;
		g[j].o = o;
		g[j].from = from;
		g[j].to = to;
		g[j].member = member;
		g[j].group = (int)j;
	}
	return (int)want;
}

/* Merge n sorted run streams by start into u (drains every channel). */
static void merge_runs(chan *const *c, int n, nxp_union *u, nxp_span *buf)
{
	size_t len[GROUPS_MAX + 1], pos[GROUPS_MAX + 1];
	for (int j = 0; j < n; j++) {
		len[j] = chan_get(c[j], buf + (size_t)j * CH_BATCH);
		pos[j] = 0;
	}
	for (;;) {
		int best = -1;
		for (int j = 0; j < n; j++)
			if (pos[j] < len[j] &&
			    (best < 0 || buf[(size_t)j * CH_BATCH + pos[j]].lo < buf[(size_t)best * CH_BATCH + pos[best]].lo))
				best = j;
		if (best < 0)
			break;
		const nxp_span *x = &buf[(size_t)best * CH_BATCH + pos[best]];
		nxp_union_add(u, x->lo, x->hi);
		if (++pos[best] == len[best]) {
			len[best] = chan_get(c[best], buf + (size_t)best * CH_BATCH);
			pos[best] = 0;
		}
	}
}

static void lo_min(int64_t *a, int64_t b)
{
	if (b < *a)
		*a = b;
}

static void hi_max(int64_t *a, int64_t b)
{
	if (b > *a)
		*a = b;
}

/* Whether the passes of a split pass give the one-thread pass's figures
 * (see above): records in start order, no negative term, and the reorder
 * buffers together under the one-thread bound. */
static int split_ok(pass *const *g, int n)
{
	size_t peak = 0;
	for (int k = 0; k < n; k++) {
		if (g[k]->unordered || g[k]->negative)
			return 0;
		peak += g[k]->reorder_peak;
	}
	return peak + 1 < REORDER_MAX; /* else the one-thread buffer might have hit its bound */
}

/* The passes of a split pass, each with its role (PT_*), added into x:
 * sums, minima and maxima, each engine's and opcode's unions from the
 * instruction pass that read them, the DMA unions from the pass that merged
 * them (PT_ACC), the other tables' from PT_SIDE.  total_u is the caller's. */
static void combine(pass *x, pass *const *parts, const int *role, int n)
{
	for (int k = 0; k < n; k++) {
		pass *g = parts[k];
		x->rows += g->rows;
		lo_min(&x->span_lo, g->span_lo);
		hi_max(&x->span_hi, g->span_hi);
		lo_min(&x->exec_lo, g->exec_lo);
		hi_max(&x->exec_hi, g->exec_hi);
		sadd(&x->hbm_read, g->hbm_read);
		sadd(&x->hbm_write, g->hbm_write);
		if (role[k] == PT_INSTR) {
			for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
				int64_t count, time;
				eng_figures(g, e, &count, &time);
				sadd(&x->eng_count[e], g->eng_count[e]);
				sadd(&x->eng_time[e], g->eng_time[e]);
				if (count) { /* the engine's group: its unions and opcodes */
					x->eng_u[e] = g->eng_u[e];
					memcpy(&x->ops[e * OP_SLOTS], &g->ops[e * OP_SLOTS], OP_SLOTS * sizeof(*x->ops));
				}
			}
			sadd(&x->matmul_count, g->matmul_count);
			sadd(&x->activate_count, g->activate_count);
			sadd(&x->activate_time, g->activate_time);
			sadd(&x->hw_flops, g->hw_flops);
			sadd(&x->tr_flops, g->tr_flops);
			sadd(&x->adj_hw_flops, g->adj_hw_flops);
			sadd(&x->adj_tr_flops, g->adj_tr_flops);
			sadd(&x->sbuf_read, g->sbuf_read);
			sadd(&x->sbuf_write, g->sbuf_write);
			sadd(&x->psum_read, g->psum_read);
			sadd(&x->psum_write, g->psum_write);
			sadd(&x->spill_save, g->spill_save);
			sadd(&x->spill_reload, g->spill_reload);
			sadd(&x->prsw_bytes, g->prsw_bytes);
			sadd(&x->prsw_count, g->prsw_count);
			sadd(&x->dma_instr_hbm_read, g->dma_instr_hbm_read);
			sadd(&x->dma_instr_hbm_write, g->dma_instr_hbm_write);
		} else if (role[k] == PT_DMA) {
			dma_close(g);
			sadd(&x->pk_count, g->pk_count);
			sadd(&x->pk_time, g->pk_time);
			sadd(&x->pk_bytes, g->pk_bytes);
			for (int c = 0; c < CLS_N; c++) {
				sadd(&x->cls_count[c], g->cls_count[c]);
				sadd(&x->cls_bytes[c], g->cls_bytes[c]);
			}
			for (int k2 = 1; k2 < 4; k2++)
				sadd(&x->qbytes[k2], g->qbytes[k2]);
			sadd(&x->xfer_count, g->xfer_count);
			sadd(&x->xfer_time, g->xfer_time);
		} else if (role[k] == PT_ACC) {
			dma_close(g);
			x->dma_u = g->dma_u;
			memcpy(x->cls_u, g->cls_u, sizeof(x->cls_u));
			x->dyn_u = g->dyn_u;
		} else {
			x->tg = g->tg;
			x->ntg = g->ntg;
			g->tg = NULL;
			x->executions = g->executions;
		}
	}
}

/* Run the groups, A and S on their own threads and combine them into *into
 * (an initialised pass).  NXP_OK, an error (status filled), or 1: redo on one
 * thread. */
static int parallel_pass(pass *into, const nxp_metadata *md, const nxp_hardware *hwp, unsigned threads,
			 nxp__summary_parts *parts)
{
	nxp_profile *p = into->p;
	const size_t nq = p->nqueues ? p->nqueues : 1;
	if (p->nqueues > QUEUES_MAX)
		return 1; /* the one-thread pass's limit on DMA queues must be hit as it hits it */
	ptask *t = calloc(2 * GROUPS_MAX + 2, sizeof(*t));
	uint8_t *member = malloc(2 * nq);
	nxp_span *bufs = malloc((GROUPS_MAX + 1) * CH_BATCH * sizeof(*bufs));
	qgroup gi[GROUPS_MAX], gd[GROUPS_MAX];
	nxp_pool *pool = NULL;
	int rc = NXP_OK, inited = 0, ni = 0, nd = 0, ntasks = 0;
	if (!t || !member || !bufs) {
		rc = nxp__error_set(into->st, NXP_E_NOMEM, -1, "out of memory (parallel summary)");
		goto out;
	}
	/* `threads` groups per table (at most one per engine / queue). */
	ni = groups_init(gi, member, p, NXP_TABLE_INSTRUCTION, &into->rg, threads);
	nd = ni < 0 ? ni : groups_init(gd, member + nq, p, NXP_TABLE_DMA_PACKET, &into->rg, threads);
	if (ni < 0 || nd < 0) {
		rc = nxp__error_set(into->st, NXP_E_NOMEM, -1, "out of memory (parallel summary)");
		goto out;
	}
	/* Tasks: ni instruction groups, nd DMA groups, A, S. */
	ntasks = ni + nd + 2;
	ptask *acc = &t[ni + nd];
	for (; inited < ntasks; inited++) {
		ptask *k = &t[inited];
		nxp_status_init(&k->st);
		k->which = inited < ni ? PT_INSTR : inited < ni + nd ? PT_DMA : inited == ni + nd ? PT_ACC : PT_SIDE;
		if ((rc = pass_init(&k->ps, p, &into->rg, md, hwp, &k->st)) != NXP_OK) {
			nxp_status_copy(into->st, &k->st);
			goto out;
		}
		pthread_mutex_init(&k->ch.m, NULL);
		pthread_cond_init(&k->ch.c, NULL);
		if (k->which != PT_SIDE)
			k->ps.out = &k->ch;
		if (k->which == PT_INSTR)
			k->g = gi[inited];
		if (k->which == PT_DMA)
			k->g = gd[inited - ni];
	}
	acc->src = &t[ni];
	acc->nsrc = nd;
	/* Every task runs at once (A waits on the DMA groups, the caller's merge
	 * on A and the instruction groups): one worker per task. */
	rc = nxp_pool_new(&pool, (unsigned)ntasks, (unsigned)ntasks);
	if (rc) {
		rc = nxp__error_set(into->st, rc, -1, "cannot start the summary threads");
		goto out;
	}
	for (int k = 0; k < ntasks; k++)
		nxp_pool_submit(pool, run_task, &t[k]);
	nxp_union total = {0};
	chan *runs[GROUPS_MAX + 1];
	for (int k = 0; k < ni; k++)
		runs[k] = &t[k].ch;
	runs[ni] = &acc->ch;
	const double m0 = thread_cpu();
	merge_runs(runs, ni + 1, &total, bufs);
	const double m1 = thread_cpu();
	nxp_pool_wait(pool);
	if (parts) {
		parts->n = 0;
		for (int k = 0; k < ntasks && parts->n < NXP_SUMMARY_PARTS_MAX; k++) {
			const int w = t[k].which;
			if (w == PT_INSTR || w == PT_DMA)
				snprintf(parts->name[parts->n], sizeof(parts->name[0]), "%s %d", w == PT_INSTR ? "instr" : "dma",
					 w == PT_INSTR ? k : k - ni);
			else
				snprintf(parts->name[parts->n], sizeof(parts->name[0]), "%s", w == PT_ACC ? "dma unions" : "other tables");
			parts->cpu[parts->n++] = t[k].cpu;
		}
		parts->merge_cpu = m1 - m0;
	}

	for (int k = 0; k < ntasks; k++)
		if (t[k].rc) {
			rc = t[k].rc;
			nxp_status_copy(into->st, &t[k].st);
			goto out;
		}
	pass *parts_ps[2 * GROUPS_MAX + 2];
	int roles[2 * GROUPS_MAX + 2];
	for (int k = 0; k < ntasks; k++) {
		parts_ps[k] = &t[k].ps;
		roles[k] = t[k].which;
	}
	if (!split_ok(parts_ps, ntasks)) {
		rc = 1;
		goto out;
	}
	combine(into, parts_ps, roles, ntasks);
	into->total_u = total;
	rc = NXP_OK;
out:
	nxp_pool_free(pool);
	if (t)
		for (int k = 0; k < inited; k++) {
			pass_free(&t[k].ps);
			pthread_mutex_destroy(&t[k].ch.m);
			pthread_cond_destroy(&t[k].ch.c);
		}
	free(t);
	free(bufs);
	free(member);
	return rc;
}

/* Execution `index`'s window from the ExecutionInfo table (its rows on every
 * core: an execution spans the logical core): earliest start .. latest end,
 * intersected with rg's window. */
static int execution_window(nxp_profile *p, int32_t index, region *rg, nxp_status *st)
{
	nxp_cursor_options o;
	nxp_cursor_options_init(&o);
	nxp_cursor *c = NULL;
	int rc = nxp_cursor_open(&c, p, NXP_TABLE_EXECUTION, &o, st);
	if (rc)
		return rc;
	nxp_execution x;
	x.struct_size = sizeof(x);
	int64_t lo = INT64_MAX, hi = INT64_MIN, rows = 0;
	int32_t max_index = -1;
	while ((rc = nxp_cursor_next_execution(c, &x)) == NXP_OK) {
		rows++;
		if (x.execution_index > max_index)
			max_index = x.execution_index;
		if (x.execution_index != index)
			continue;
		if (x.execution_start_ts < lo)
			lo = x.execution_start_ts;
		if (x.execution_end_ts > hi)
			hi = x.execution_end_ts;
	}
	if (rc < 0) {
		nxp_status tmp;
		nxp_status_init(&tmp);
		if (nxp_cursor_error(c, &tmp) < 0)
			nxp_status_copy(st, &tmp);
		else
			nxp__error_set(st, rc, -1, "summary: ExecutionInfo cursor failed: %s", nxp_strerror(rc));
		nxp_cursor_close(c);
		return rc;
	}
	nxp_cursor_close(c);
	if (lo > hi) {
		if (!rows)
			return nxp__error_set(st, NXP_E_RANGE, -1, "execution %d: the profile has no ExecutionInfo rows", index);
		return nxp__error_set(st, NXP_E_RANGE, -1, "execution %d: the profile's executions are 0..%d", index,
				max_index);
	}
	if (lo > rg->lo)
		rg->lo = lo;
	if (hi < rg->hi)
		rg->hi = hi;
	if (rg->hi < rg->lo)
		rg->hi = rg->lo; /* the window and the execution do not meet: an empty region */
	return NXP_OK;
}

/* The profile's Metadata and the hardware description in use: hw_in's,
 * else the profile's arch's (*hwp = hw), else none (*hwp = NULL). */
static int summary_setup(nxp_profile *p, const nxp_hardware *hw_in, nxp_metadata *md, nxp_hardware *hw,
			 const nxp_hardware **hwp, nxp_status *st)
{
	*hwp = NULL;
	memset(md, 0, sizeof(*md));
	md->struct_size = sizeof(*md);
	int rc = nxp_profile_get_metadata(p, md);
	if (rc)
		return nxp__error_set(st, rc, -1, "nxp_profile_summarize: cannot read the profile's metadata");
	if (hw_in) {
		if (nxp_hardware_import(hw, hw_in) != NXP_OK)
			return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_summarize: hardware struct_size too small");
		*hwp = hw;
	} else {
		hw->struct_size = sizeof(*hw);
		if (md->arch && nxp_hardware_for_arch(md->arch, hw) == NXP_OK)
			*hwp = hw;
	}
	if (*hwp && hw->num_physical_cores <= 0)
		hw->num_physical_cores = md->num_physical_cores > 0 ? md->num_physical_cores : 1;
	return NXP_OK;
}

static int fed_pass(pass *into, nxp__sum_feed *f);

/* feed: the export's fed shares (summary_feed.h), or NULL. */
static int summarize(nxp_profile *p, const nxp_hardware *hw_in, int32_t threads, const nxp_summary_options *o,
		     nxp_summary **out, nxp_status *st, nxp__summary_parts *parts, nxp__sum_feed *feed)
{
	if (parts)
		memset(parts, 0, sizeof(*parts));
	if (out)
		*out = NULL;
	if (!p || !out)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_summarize: NULL argument");
	if (threads < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_summarize: negative thread count");
	region rg = {INT64_MIN, INT64_MAX, -1, 0};
	if (o) {
		if (o->start_ts >= o->end_ts)
			return nxp__error_set(st, NXP_E_INVAL, -1,
					"nxp_profile_summarize_opts: empty window (start_ts %lld is not before end_ts %lld)",
					(long long)o->start_ts, (long long)o->end_ts);
		if (o->pcore_idx < -1 || o->execution_index < -1)
			return nxp__error_set(st, NXP_E_INVAL, -1,
					"nxp_profile_summarize_opts: pcore_idx and execution_index are -1 (all) or an index");
		rg.lo = o->start_ts;
		rg.hi = o->end_ts;
		rg.pcore = o->pcore_idx;
	}
	nxp_hardware hw;
	const nxp_hardware *hwp = NULL;
	nxp_metadata md;
	int rc = summary_setup(p, hw_in, &md, &hw, &hwp, st);
	if (rc)
		return rc;
	if (rg.pcore >= 0 && rg.pcore >= (md.num_physical_cores > 0 ? md.num_physical_cores : 1))
		return nxp__error_set(st, NXP_E_RANGE, -1, "pcore_idx %lld: the profile's physical cores are 0..%d",
				(long long)rg.pcore, (md.num_physical_cores > 0 ? md.num_physical_cores : 1) - 1);
	if (o && o->execution_index >= 0 && (rc = execution_window(p, o->execution_index, &rg, st)) != NXP_OK)
		return rc;
	rg.on = rg.lo != INT64_MIN || rg.hi != INT64_MAX || rg.pcore >= 0;
	unsigned nth = threads ? (unsigned)threads : nxp_cpu_count();

	pass *ps = calloc(1, sizeof(*ps));
	nxp_summary *s = NULL;
	if (!ps)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory (summary pass)");
	rc = pass_init(ps, p, &rg, &md, hwp, st);
	if (!rc && nxp_summary_new(&s) != NXP_OK)
		rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory (summary pass)");
	if (rc)
		goto out;

	rc = feed ? fed_pass(ps, feed) : nth > 1 ? parallel_pass(ps, &md, hwp, nth, parts) : 1;
	if (!feed && nth > 1 && rc == 1 && parts)
		parts->fallback = 1;
	ps->st = st;
	if (rc == 1) { /* the one-thread pass */
		rc = main_loop(ps);
		if (!rc)
			rc = side_tables(ps);
	}
	if (!rc)
		rc = fill(ps, s, &md, hwp);
out:
	pass_free(ps);
	free(ps);
	if (rc) {
		nxp_summary_close(s);
		return rc;
	}
	*out = s;
	return NXP_OK;
}

/* ---- the fed pass (summary_feed.h) ----------------------------------------
 * The parallel pass with one instruction group and one DMA group, each fed
 * by the export's stream of its table instead of a read of its own (the
 * DMA group merges its own unions: as the only group, its spans are already
 * in start order, which is what A is for); the other tables (S) are read
 * when the summary is asked for, and the two groups' busy runs, kept whole,
 * are merged into total_active_time.  The same figures as the one-thread
 * pass for the reasons the parallel pass gives; where one does not hold, the
 * one-thread pass runs instead. */
enum { FEED_IDLE, FEED_ON, FEED_DONE, FEED_SPOILED };

struct nxp__sum_feed {
	nxp_profile *p;
	int cnt;        /* the instruction share counts static instructions (pass.sicnt) */
	nxp_metadata md;
	nxp_hardware hw;
	const nxp_hardware *hwp;
	region rg;
	pass ps[2];     /* the Instruction stream's share, the DmaPacket stream's */
	int state[2];
	nxp_status st[2];
};

int nxp__sum_feed_new(nxp__sum_feed **out, nxp_profile *p, nxp_status *st)
{
	*out = NULL;
	nxp__sum_feed *f = calloc(1, sizeof(*f));
	if (!f)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory (summary pass)");
	f->p = p;
	f->rg = (region){INT64_MIN, INT64_MAX, -1, 0};
	int rc = summary_setup(p, NULL, &f->md, &f->hw, &f->hwp, st); /* (f->hwp: &f->hw or NULL) */
	for (int k = 0; k < 2 && !rc; k++) {
		nxp_status_init(&f->st[k]);
		if ((rc = pass_init(&f->ps[k], p, &f->rg, &f->md, f->hwp, &f->st[k])) != NXP_OK)
			nxp_status_copy(st, &f->st[k]);
		f->ps[k].fed = 1;
		f->ps[k].kept_budget = KEPT_MAX;
	}
	if (rc) {
		nxp__sum_feed_free(f);
		return rc;
	}
	if (p->nqueues > QUEUES_MAX)
		f->state[0] = f->state[1] = FEED_SPOILED; /* the one-thread pass's limit must be hit as it hits it */
	f->cnt = si_counts_init(&f->ps[0]);
	*out = f;
	return NXP_OK;
}

void nxp__sum_feed_free(nxp__sum_feed *f)
{
	if (!f)
		return;
	for (int k = 0; k < 2; k++)
		pass_free(&f->ps[k]);
	free(f);
}


int nxp__sum_feed_begin(nxp__sum_feed *f, int table)
{
	int k = ntff_feed_share(table);
	if (!f || k < 0 || f->state[k] != FEED_IDLE)
		return 0;
	f->state[k] = FEED_ON;
	return 1;
}

/* cnt: f->cnt, a constant. */
static inline __attribute__((always_inline)) void fed_instr(nxp__sum_feed *f, const ntff_queue *q,
							    const nxp_ntff_instruction_note *n, const int cnt)
{
	pass *ps = &f->ps[0];
	irec in;
	instr_of_note(f->p, q, cnt ? ps->sicnt[q - f->p->queues] : NULL, n, &in);
	if (in.start_ts < ps->last_start) {
		f->state[0] = FEED_SPOILED; /* records out of start order */
		return;
	}
	ps->last_start = in.start_ts;
	/* (no window: clip() is exact without the window test, as in main_loop) */
	if (do_instruction(ps, &in, 0, PM_FED, cnt) != NXP_OK)
		f->state[0] = FEED_SPOILED;
}

void nxp__sum_feed_instrs(nxp__sum_feed *f, const ntff_queue *const *q, const nxp_ntff_instruction_note *n,
			  size_t count)
{
	/* (a share its pass found unordered goes on: its figures will not be used) */
	if (f->cnt)
		for (size_t i = 0; i < count && f->state[0] == FEED_ON; i++)
			fed_instr(f, q[i], &n[i], 1);
	else
		for (size_t i = 0; i < count && f->state[0] == FEED_ON; i++)
			fed_instr(f, q[i], &n[i], 0);
}

void nxp__sum_feed_dmas(nxp__sum_feed *f, const uint32_t *qid, const uint8_t *recs, size_t stride, size_t n)
{
	pass *ps = &f->ps[1];
	for (size_t i = 0; i < n && f->state[1] == FEED_ON; i++) { /* (as above) */
		nxp_ntff_dma_note note;
		ntff_decode_dma(recs + i * stride, &note);
		drec dp;
		dma_of_note(f->p, qid[i], &note, &dp);
		if (dp.start_ts < ps->last_start) {
			f->state[1] = FEED_SPOILED;
			return;
		}
		ps->last_start = dp.start_ts;
		if (do_dma(ps, &dp, 0, PM_FED) != NXP_OK)
			f->state[1] = FEED_SPOILED;
	}
}

void nxp__sum_feed_end(nxp__sum_feed *f, int table, int ok)
{
	int k = ntff_feed_share(table);
	if (!f || k < 0 || f->state[k] != FEED_ON)
		return;
	if (!ok) {
		f->state[k] = FEED_SPOILED;
		return;
	}
	pass *ps = &f->ps[k];
	if (k == 0) {
		release(ps, INT64_MAX, PM_FED);
		if (f->cnt)
			si_counts_apply(ps);
	} else {
		dma_runs_end(ps);
	}
	total_end(ps); /* the open run to the kept ones */
	f->state[k] = FEED_DONE;
}

/* total_active_time: the two shares' kept runs merged by start into u. */
static void merge_kept(nxp_union *u, const pass *a, const pass *b)
{
	nxp_runlog_rd ka = nxp_runlog_read(&a->kept), kb = nxp_runlog_read(&b->kept);
	int64_t alo = 0, ahi = 0, blo = 0, bhi = 0;
	int ha = nxp_runlog_next(&ka, &alo, &ahi), hb = nxp_runlog_next(&kb, &blo, &bhi);
	while (ha || hb) {
		if (ha && (!hb || alo <= blo)) {
			nxp_union_add(u, alo, ahi);
			ha = nxp_runlog_next(&ka, &alo, &ahi);
		} else {
			nxp_union_add(u, blo, bhi);
			hb = nxp_runlog_next(&kb, &blo, &bhi);
		}
	}
}

/* The two shares and S (read now) combined into *into (an initialised
 * pass), as parallel_pass combines its parts: NXP_OK, an error (status
 * filled), or 1: redo on one thread (a share not ended whole, or a reason
 * of split_ok). */
static int fed_pass(pass *into, nxp__sum_feed *f)
{
	if (!nxp__sum_feed_ready(f))
		return 1;
	pass *side = calloc(1, sizeof(*side));
	if (!side)
		return nxp__error_set(into->st, NXP_E_NOMEM, -1, "out of memory (summary pass)");
	int rc = pass_init(side, f->p, &into->rg, &f->md, f->hwp, into->st);
	if (!rc)
		rc = side_tables(side);
	pass *parts[3] = {&f->ps[0], &f->ps[1], side};
	static const int roles[3] = {PT_INSTR, PT_DMA, PT_SIDE};
	if (!rc && !split_ok(parts, 3))
		rc = 1;
	if (!rc) {
		combine(into, parts, roles, 3);
		/* the DMA share merged its unions itself (the parallel pass's A) */
		into->dma_u = f->ps[1].dma_u;
		memcpy(into->cls_u, f->ps[1].cls_u, sizeof(into->cls_u));
		into->dyn_u = f->ps[1].dyn_u;
		merge_kept(&into->total_u, &f->ps[0], &f->ps[1]);
	}
	pass_free(side);
	free(side);
	return rc;
}

int nxp__sum_feed_ready(const nxp__sum_feed *f)
{
	return f->state[0] == FEED_DONE && f->state[1] == FEED_DONE && !f->ps[0].unordered && !f->ps[1].unordered;
}

int nxp__sum_feed_summarize(nxp__sum_feed *f, nxp_summary **out, nxp_status *st)
{
	return summarize(f->p, NULL, 1, NULL, out, st, NULL, f);
}

int nxp_profile_summarize(nxp_profile *p, const nxp_hardware *hw_in, nxp_summary **out, nxp_status *st)
{
	return summarize(p, hw_in, 1, NULL, out, st, NULL, NULL);
}

int nxp__profile_summarize_parts(nxp_profile *p, const nxp_summary_options *o, nxp_summary **out, nxp_status *st,
				 nxp__summary_parts *parts)
{
	if (o && (o->struct_size < NXP_SUMMARY_OPTIONS_SIZE_V0_2)) {
		if (out)
			*out = NULL;
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_summarize_opts: options struct_size too small");
	}
	return summarize(p, o ? o->hw : NULL, o ? o->threads : 0, o, out, st, parts, NULL);
}

int nxp_profile_summarize_opts(nxp_profile *p, const nxp_summary_options *o, nxp_summary **out, nxp_status *st)
{
	return nxp__profile_summarize_parts(p, o, out, st, NULL);
}
