/* SPDX-License-Identifier: MIT */
/* Dependency edges (the Flow table) in one streaming pass over the
 * Instruction, DmaPacket and SemaphoreUpdate records in time order.  The
 * records come from the NTFF module's internal iteration (ntff_iter runs of
 * raw records, checked as the cursors check them), and only the few fields
 * the edges need are decoded: filling the public records cost as much as the
 * rest of the pass.  Which edges are exact and which inferred, and why:
 * doc/analysis.md. */
#include "analysis_priv.h"

#include "abi_struct.h"
#include "neff_internal.h"
#include "ntff_priv.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

#define NSEM 256          /* semaphore indices the 8-bit static fields can name */
#define HIST_CAP 64       /* updates of one semaphore remembered (plus the window); a power of two */
#define OPEN_TRANSFERS 8  /* DMA transfers per queue awaiting their completion update */
#define MAX_QUEUES 4096   /* distinct DMA queue instances followed */
#define QHASH_CAP 8192    /* queue lookup slots (power of two, > 2 * MAX_QUEUES) */

typedef struct sinfo {
	uint8_t wait_mode, wait_idx, update_mode, update_idx;
	uint32_t value;
	uint8_t dma_trigger;
} sinfo;

typedef struct hist_ent {
	int64_t ts, row;
	int32_t value;
} hist_ent;

typedef struct sem_hist { /* a ring: update j (0 = oldest) is at e[(head + j) % HIST_CAP] */
	hist_ent e[HIST_CAP];
	int head, n;
	int evicted; /* an older update was forgotten: a transition at e[0] is not certain */
} sem_hist;

static inline hist_ent *hist_at(sem_hist *h, int j)
{
	return &h->e[(h->head + j) & (HIST_CAP - 1)];
}

typedef struct pend_wait {
	int64_t id, exec_start, pcore;
	uint8_t mode, idx;
	uint32_t value;
} pend_wait;

typedef struct pend_instr { /* a signalling or DMA-triggering instruction */
	int64_t id, end_ts;
	uint8_t update_idx;
} pend_instr;

typedef struct fifo {
	pend_instr *v;
	size_t n, cap;
} fifo;

typedef struct transfer {
	int64_t agg, first_id, last_id, last_end;
	int used;
} transfer;

/* The queues of one (pcore, owner engine), in creation order. */
typedef struct qlist {
	uint32_t *v;
	size_t n, cap;
} qlist;

/* A queue lookup slot: the queue found for (pcore, idx, name address). */
typedef struct qslot {
	const char *name;
	int64_t pcore, idx;
	int32_t q; /* index in queues + 1; 0 = empty */
} qslot;

typedef struct qstate {
	const char *name; /* profile-lifetime string */
	int64_t pcore, idx;
	int owner;        /* nxp_engine, -1 unknown */
	transfer t[OPEN_TRANSFERS];
	int next;         /* slot replaced next */
	int64_t cur_agg;
	int have_cur;
	/* The slots of t that are used and hold cur_agg (bit i = t[i]): what a
	 * packet continuing the current transfer updates, without a search of
	 * all eight per packet.  Kept when a slot is replaced, cur_agg changes
	 * or a completion frees a slot. */
	unsigned cur_mask;
} qstate;

/* The fields of the records the edges use (as in the public records). */
typedef struct f_instr {
	int64_t id, start_ts, end_ts, evt_wait_time_ns, pcore_idx, pc;
	int32_t engine_id;
	int pc_unknown; /* NXP_INSTRUCTION_PC_UNKNOWN */
} f_instr;

typedef struct f_dma {
	int64_t id, start_ts, end_ts, pcore_idx, queue_idx, packet_aggregation_id;
	const char *queue_name; /* profile-lifetime string */
	uint32_t qid;           /* the profile's queue id (index in its queue table) */
} f_dma;

typedef struct f_sem {
	int64_t timestamp, pcore_idx;
	int32_t semaphore_idx, value;
	int engine; /* of update_source, -1 unknown */
} f_sem;

/* One table's records in time order: its ntff_iter. */
typedef struct f_src {
	ntff_iter it;
	int open;
} f_src;

struct nxp_flow_cursor {
	nxp_profile *p;
	const nxp_neff *neff;
	nxp_flow_options o;
	nxp_status err;
	f_src si, sd, ss;
	f_instr ri;
	f_dma rd;
	f_sem rs;
	int src_engine[NXP_ENGINE_COUNT]; /* nxp_engine_from_name of the update_source name */
	int hi, hd, hs; /* 1 = record held, 0 = need next, -1 = ended */
	int64_t sem_row;
	int64_t now;
	int64_t lim;      /* o.end_ts + window: records from here on are not processed */
	int64_t sem_from; /* o.start_ts - window: updates before it are counted, not processed */
	/* static facts per pcore and engine */
	size_t npcore;
	sinfo **st;        /* [pcore * NXP_ENGINE_COUNT + engine] */
	uint64_t *stn;
	sem_hist **hist;   /* [pcore * NSEM + idx], lazily */
	pend_wait *waits;
	size_t nwaits, waits_cap;
	int64_t waits_min; /* a lower bound of the waits' exec_start (INT64_MAX: none) */
	fifo *signal, *trigger; /* [pcore * NXP_ENGINE_COUNT + engine] */
	qstate *queues;
	size_t nqueues;
	qslot *qhash;      /* [QHASH_CAP] */
	size_t nqslots;
	/* [profile queue id]: the queue found for that NTFF queue + 1 (0: not
	 * yet looked up).  A queue's key (pcore, idx, name) is fixed, and the
	 * queue a key finds stays its first match (see queue_of), so a packet's
	 * queue is an index per packet and a lookup per NTFF queue. */
	uint32_t *qmap;
	size_t nqmap;
	qlist *owned;      /* [pcore * NXP_ENGINE_COUNT + owner] */
	nxp_flow *out;
	size_t out_head, out_n, out_cap;
	int failed;
	int done;
};

static inline const char *kind_name(int kind)
{
	switch (kind) {
	case NXP_FLOW_SEMAPHORE_WAIT: return "semaphore_wait";
	case NXP_FLOW_DMA_TRIGGER: return "dma_trigger";
	case NXP_FLOW_DMA_COMPLETION: return "dma_completion";
	case NXP_FLOW_SEMAPHORE_SIGNAL: return "semaphore_signal";
	default: return "";
	}
}

const char *nxp__flow_kind_name(int kind)
{
	return kind_name(kind);
}

static const char *table_name(int t)
{
	return t == NXP_TABLE_INSTRUCTION ? "Instruction" : t == NXP_TABLE_DMA_PACKET ? "DmaPacket" : "SemaphoreUpdate";
}

static int fc_fail(nxp_flow_cursor *c, int code, const char *msg)
{
	c->failed = 1;
	nxp__error_set(&c->err, code, -1, "%s", msg);
	return code;
}

/* Make room for one more edge in out (a ring; out_cap a power of two). */
static int out_grow(nxp_flow_cursor *c)
{
	size_t nc = c->out_cap ? c->out_cap * 2 : 64;
	nxp_flow *v = malloc(nc * sizeof(*v));
	if (!v)
		return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
	for (size_t i = 0; i < c->out_n; i++)
		v[i] = c->out[(c->out_head + i) & (c->out_cap - 1)];
	free(c->out);
	c->out = v;
	c->out_head = 0;
	c->out_cap = nc;
	return 0;
}

/* Inline: its callers pass constant kinds and tables, so the names fold. */
static inline int emit(nxp_flow_cursor *c, int kind, int in_t, int64_t in_id, int64_t in_ts, int out_t,
		       int64_t out_id, int64_t out_ts, int exact, int64_t pcore)
{
	if (out_ts < c->o.start_ts || out_ts >= c->o.end_ts)
		return 0;
	if (c->o.pcore_idx >= 0 && pcore != c->o.pcore_idx)
		return 0;
	if (c->out_n == c->out_cap && out_grow(c) < 0)
		return c->err.code;
	nxp_flow *f = &c->out[(c->out_head + c->out_n++) & (c->out_cap - 1)];
	*f = (nxp_flow){.struct_size = sizeof(*f),
			.in_id = in_id,
			.out_id = out_id,
			.in_table = table_name(in_t),
			.out_table = table_name(out_t),
			.dependency_type = kind_name(kind),
			.gap_time = out_ts - in_ts,
			.kind = kind,
			.in_table_id = in_t,
			.out_table_id = out_t,
			.exact = exact,
			.in_ts = in_ts,
			.out_ts = out_ts,
			.pcore_idx = pcore};
	return 0;
}

static int fifo_push(nxp_flow_cursor *c, fifo *q, int64_t id, int64_t end_ts, uint8_t uidx)
{
	if (q->n == q->cap) {
		size_t nc = q->cap ? q->cap * 2 : 16;
		pend_instr *v = realloc(q->v, nc * sizeof(*v));
		if (!v)
			return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
		q->v = v;
		q->cap = nc;
	}
	q->v[q->n++] = (pend_instr){id, end_ts, uidx};
	return 0;
}

static void fifo_remove(fifo *q, size_t i)
{
	memmove(&q->v[i], &q->v[i + 1], (q->n - i - 1) * sizeof(q->v[0]));
	q->n--;
}

/* Forget entries that ended more than a window before `now`. */
static void fifo_expire(nxp_flow_cursor *c, fifo *q)
{
	int64_t lim = nxp__ts_sub(c->now, c->o.window_ns);
	size_t k = 0;
	while (k < q->n && q->v[k].end_ts < lim)
		k++;
	if (k) {
		memmove(q->v, q->v + k, (q->n - k) * sizeof(q->v[0]));
		q->n -= k;
	}
}

static const sinfo *static_of(const nxp_flow_cursor *c, int64_t pcore, int engine, int64_t pc)
{
	if (pcore < 0 || (size_t)pcore >= c->npcore || engine < 0 || engine >= NXP_ENGINE_COUNT || pc < 0)
		return NULL;
	size_t k = (size_t)pcore * NXP_ENGINE_COUNT + (size_t)engine;
	if ((uint64_t)pc >= c->stn[k])
		return NULL;
	return &c->st[k][pc];
}

static int satisfies(uint8_t mode, int32_t v, uint32_t want)
{
	return mode == 2 ? (int64_t)v == (int64_t)want : (int64_t)v >= (int64_t)want;
}

/* Resolve the waits whose execution start is before `t` (every update that
 * could have satisfied them has been read). */
static int resolve_waits(nxp_flow_cursor *c, int64_t t)
{
	if (c->waits_min >= t)
		return 0; /* none starts before t */
	size_t k = 0;
	int64_t min = INT64_MAX;
	for (size_t i = 0; i < c->nwaits; i++) {
		pend_wait *w = &c->waits[i];
		if (w->exec_start >= t) {
			if (w->exec_start < min)
				min = w->exec_start;
			if (k != i)
				c->waits[k] = *w;
			k++;
			continue;
		}
		sem_hist *h = c->hist[(size_t)w->pcore * NSEM + w->idx];
		if (!h)
			continue;
		int j = h->n - 1;
		while (j >= 0 && hist_at(h, j)->ts > w->exec_start)
			j--;
		if (j < 0 || !satisfies(w->mode, hist_at(h, j)->value, w->value))
			continue; /* satisfied before anything remembered, or never: no edge */
		while (j > 0 && satisfies(w->mode, hist_at(h, j - 1)->value, w->value))
			j--;
		int exact = j > 0 || !h->evicted;
		const hist_ent *e = hist_at(h, j);
		int rc = emit(c, NXP_FLOW_SEMAPHORE_WAIT, NXP_TABLE_SEMAPHORE_UPDATE, e->row, e->ts,
			      NXP_TABLE_INSTRUCTION, w->id, w->exec_start, exact, w->pcore);
		if (rc < 0)
			return rc; /* the cursor has failed: not stepped again */
	}
	c->nwaits = k;
	c->waits_min = min;
	return 0;
}

static int on_instruction(nxp_flow_cursor *c, const f_instr *in)
{
	if (in->pc_unknown)
		return 0;
	const sinfo *s = static_of(c, in->pcore_idx, in->engine_id, in->pc);
	if (!s)
		return 0;
	size_t k = (size_t)in->pcore_idx * NXP_ENGINE_COUNT + (size_t)in->engine_id;
	if (s->wait_mode == 1 || s->wait_mode == 2) {
		if (c->nwaits == c->waits_cap) {
			size_t nc = c->waits_cap ? c->waits_cap * 2 : 32;
			pend_wait *v = realloc(c->waits, nc * sizeof(*v));
			if (!v)
				return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
			c->waits = v;
			c->waits_cap = nc;
		}
		pend_wait *w = &c->waits[c->nwaits++];
		*w = (pend_wait){in->id, nxp__ts_add(in->start_ts, in->evt_wait_time_ns), in->pcore_idx, s->wait_mode,
				 s->wait_idx, s->value};
		if (w->exec_start < c->waits_min)
			c->waits_min = w->exec_start;
	}
	if (s->dma_trigger) {
		fifo_expire(c, &c->trigger[k]);
		return fifo_push(c, &c->trigger[k], in->id, in->end_ts, s->update_idx);
	}
	if (s->update_mode) {
		fifo_expire(c, &c->signal[k]);
		return fifo_push(c, &c->signal[k], in->id, in->end_ts, s->update_idx);
	}
	return 0;
}

static size_t qhash_slot(int64_t pcore, int64_t idx, const char *name)
{
	uint64_t h = (uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ull;
	h ^= ((uint64_t)pcore * 0xC2B2AE3D27D4EB4Full) ^ ((uint64_t)idx * 0x165667B19E3779F9ull);
	h ^= h >> 29;
	return (size_t)(h & (QHASH_CAP - 1));
}

/* A new queue (the list has room), listed under its (pcore, owner) when both
 * are known.  NULL on NOMEM (recorded). */
static qstate *new_queue(nxp_flow_cursor *c, const f_dma *d)
{
	qstate *q = &c->queues[c->nqueues];
	memset(q, 0, sizeof(*q));
	q->name = d->queue_name;
	q->pcore = d->pcore_idx;
	q->idx = d->queue_idx;
	q->owner = -1;
	const nxp_neff_queue *nq = nxp_neff_find_queue(c->neff, d->pcore_idx, d->queue_name, d->queue_idx);
	if (nq && nq->owner && *nq->owner)
		q->owner = nxp_engine_from_name(nq->owner);
	if (q->owner >= 0 && q->pcore >= 0 && (size_t)q->pcore < c->npcore) {
		qlist *l = &c->owned[(size_t)q->pcore * NXP_ENGINE_COUNT + (size_t)q->owner];
		if (l->n == l->cap) {
			size_t nc = l->cap ? l->cap * 2 : 8;
			uint32_t *v = realloc(l->v, nc * sizeof(*v));
			if (!v) {
				fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
				return NULL;
			}
			l->v = v;
			l->cap = nc;
		}
		l->v[l->n++] = (uint32_t)c->nqueues;
	}
	c->nqueues++;
	return q;
}

/* The queue of a packet: a hash on (pcore, idx, name address) in front of
 * the search in creation order (where names equal by content match too and
 * the first such queue wins).  The list only grows, so the queue a key found
 * stays its first match.  NULL when the list is full (or on NOMEM: c->failed). */
static qstate *queue_of(nxp_flow_cursor *c, const f_dma *d)
{
	size_t hk = qhash_slot(d->pcore_idx, d->queue_idx, d->queue_name);
	while (c->qhash[hk].q) {
		const qslot *sl = &c->qhash[hk];
		if (sl->name == d->queue_name && sl->pcore == d->pcore_idx && sl->idx == d->queue_idx)
			return &c->queues[sl->q - 1];
		hk = (hk + 1) & (QHASH_CAP - 1);
	}
	qstate *q = NULL;
	for (size_t i = 0; i < c->nqueues && !q; i++) {
		qstate *e = &c->queues[i];
		if (e->pcore == d->pcore_idx && e->idx == d->queue_idx &&
		    (e->name == d->queue_name || (e->name && d->queue_name && !strcmp(e->name, d->queue_name))))
			q = e;
	}
	if (!q) {
		if (c->nqueues >= MAX_QUEUES)
			return NULL;
		if (!(q = new_queue(c, d)))
			return NULL;
	}
	if (c->nqslots < QHASH_CAP / 2) { /* else the search alone (many name addresses) */
		c->qhash[hk] = (qslot){d->queue_name, d->pcore_idx, d->queue_idx, (int32_t)(q - c->queues) + 1};
		c->nqslots++;
	}
	return q;
}

static int on_dma(nxp_flow_cursor *c, const f_dma *d)
{
	qstate *q;
	if (d->qid < c->nqmap && c->qmap[d->qid]) {
		q = &c->queues[c->qmap[d->qid] - 1];
	} else {
		if (!(q = queue_of(c, d)))
			return c->failed ? c->err.code : 0; /* not remembered: looked up again, as before */
		if (d->qid < c->nqmap)
			c->qmap[d->qid] = (uint32_t)(q - c->queues) + 1;
	}
	if (!q->have_cur || q->cur_agg != d->packet_aggregation_id) {
		/* a new transfer: started by the oldest pending trigger of the owner
		 * engine that ended before it (inferred: the trace does not say) */
		q->have_cur = 1;
		q->cur_agg = d->packet_aggregation_id;
		transfer *t = &q->t[q->next];
		q->next = (q->next + 1) % OPEN_TRANSFERS;
		*t = (transfer){d->packet_aggregation_id, d->id, d->id, d->end_ts, 1};
		q->cur_mask = 0;
		for (int i = 0; i < OPEN_TRANSFERS; i++)
			if (q->t[i].used && q->t[i].agg == q->cur_agg)
				q->cur_mask |= 1u << i;
		if (q->owner >= 0 && d->pcore_idx >= 0 && (size_t)d->pcore_idx < c->npcore) {
			fifo *f = &c->trigger[(size_t)d->pcore_idx * NXP_ENGINE_COUNT + (size_t)q->owner];
			fifo_expire(c, f);
			for (size_t i = 0; i < f->n; i++)
				if (f->v[i].end_ts <= d->start_ts) {
					int rc = emit(c, NXP_FLOW_DMA_TRIGGER, NXP_TABLE_INSTRUCTION, f->v[i].id,
						      f->v[i].end_ts, NXP_TABLE_DMA_PACKET, d->id, d->start_ts, 0,
						      d->pcore_idx);
					fifo_remove(f, i);
					return rc;
				}
		}
		return 0;
	}
	for (unsigned m = q->cur_mask; m; m &= m - 1) { /* the used slots holding this transfer */
		transfer *t = &q->t[__builtin_ctz(m)];
		t->last_id = d->id;
		if (d->end_ts > t->last_end)
			t->last_end = d->end_ts;
	}
	return 0;
}

static int on_semaphore(nxp_flow_cursor *c, const f_sem *u, int64_t row)
{
	int64_t pc = u->pcore_idx;
	if (pc < 0 || (size_t)pc >= c->npcore || u->semaphore_idx < 0 || u->semaphore_idx >= NSEM)
		return 0;
	size_t hk = (size_t)pc * NSEM + (size_t)u->semaphore_idx;
	sem_hist *h = c->hist[hk];
	if (!h) {
		h = c->hist[hk] = calloc(1, sizeof(*h));
		if (!h)
			return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
	}
	/* forget updates older than the window (keeping the latest), or the oldest when full */
	int64_t lim = nxp__ts_sub(u->timestamp, c->o.window_ns);
	int drop = 0;
	while (drop < h->n - 1 && hist_at(h, drop)->ts < lim)
		drop++;
	if (h->n - drop == HIST_CAP)
		drop++;
	if (drop) {
		h->head = (h->head + drop) & (HIST_CAP - 1);
		h->n -= drop;
		h->evicted = 1;
	}
	*hist_at(h, h->n++) = (hist_ent){u->timestamp, row, u->value};

	int eng = u->engine;
	if (eng < 0)
		return 0;
	fifo *sig = &c->signal[(size_t)pc * NXP_ENGINE_COUNT + (size_t)eng];
	fifo_expire(c, sig);
	/* a) the instruction of that engine whose static update names this
	 *    semaphore and which ended at this very timestamp (exact) */
	for (size_t i = 0; i < sig->n; i++)
		if (sig->v[i].update_idx == u->semaphore_idx && sig->v[i].end_ts == u->timestamp) {
			int rc = emit(c, NXP_FLOW_SEMAPHORE_SIGNAL, NXP_TABLE_INSTRUCTION, sig->v[i].id, sig->v[i].end_ts,
				      NXP_TABLE_SEMAPHORE_UPDATE, row, u->timestamp, 1, pc);
			fifo_remove(sig, i);
			return rc;
		}
	/* b) a DMA transfer on a queue the engine owns whose last packet ended
	 *    at this timestamp: exact when it is the only one */
	transfer *hit = NULL;
	qstate *hitq = NULL;
	int hits = 0, hitj = 0;
	const qlist *own = &c->owned[(size_t)pc * NXP_ENGINE_COUNT + (size_t)eng];
	for (size_t i = 0; i < own->n; i++) { /* the queues of (pc, eng) in creation order */
		qstate *q = &c->queues[own->v[i]];
		for (int j = 0; j < OPEN_TRANSFERS; j++)
			if (q->t[j].used && q->t[j].last_end == u->timestamp) {
				if (!hit) {
					hit = &q->t[j];
					hitq = q;
					hitj = j;
				}
				hits++;
			}
	}
	if (hit) {
		hit->used = 0;
		hitq->cur_mask &= ~(1u << hitj);
		return emit(c, NXP_FLOW_DMA_COMPLETION, NXP_TABLE_DMA_PACKET, hit->last_id, hit->last_end,
			    NXP_TABLE_SEMAPHORE_UPDATE, row, u->timestamp, hits == 1, pc);
	}
	/* c) the oldest instruction of that engine with this static update that
	 *    ended before it (inferred) */
	for (size_t i = 0; i < sig->n; i++)
		if (sig->v[i].update_idx == u->semaphore_idx && sig->v[i].end_ts <= u->timestamp) {
			int rc = emit(c, NXP_FLOW_SEMAPHORE_SIGNAL, NXP_TABLE_INSTRUCTION, sig->v[i].id, sig->v[i].end_ts,
				      NXP_TABLE_SEMAPHORE_UPDATE, row, u->timestamp, 0, pc);
			fifo_remove(sig, i);
			return rc;
		}
	return 0;
}

static int src_fail(nxp_flow_cursor *c, f_src *src, int rc)
{
	c->failed = 1;
	nxp_status_copy(&c->err, &src->it.s.err);
	if (!c->err.code)
		nxp__error_set(&c->err, rc, -1, "flows: cursor failed");
	return c->err.code;
}

/* The next raw record of a source (checks not applied), as the cursor steps:
 * the record is decoded from qr, then ntff_iter_step moves past it (an error
 * doing so is kept in it.s and returned by the following call, as the
 * cursor's next does).  1 with *qr set, 0 at the end, or a negative error. */
static inline int src_peek(f_src *src, ntff_qreader **qr)
{
	if (src->it.s.failed)
		return src->it.s.err.code;
	*qr = ntff_iter_peek(&src->it);
	return *qr != NULL;
}

/* Move past a good record (an error is kept for the next src_peek) or a bad
 * one (counted as the cursor counts it; an error returned). */
static inline int src_step(f_src *src, ntff_qreader *qr, int good)
{
	if (good) {
		(void)ntff_iter_step(&src->it);
		return 0;
	}
	ntff_scan_bad(&src->it.s, 0, ntff_qreader_offset(qr));
	int rc = ntff_iter_step(&src->it);
	return rc < 0 ? rc : 0;
}

/* The next good Instruction record (as nxp_cursor_next_instruction's): 1, 0 at the end, or an error. */
static int next_instr(nxp_flow_cursor *c)
{
	ntff_qreader *qr = NULL;
	int rc;
	while ((rc = src_peek(&c->si, &qr)) == 1) {
		const ntff_queue *q = qr->q;
		nxp_ntff_instruction_note n;
		ntff_decode_instruction(qr->rec, &n);
		if (!ntff_instruction_ok(&n)) {
			if ((rc = src_step(&c->si, qr, 0)) < 0)
				break;
			continue;
		}
		f_instr *r = &c->ri;
		r->id = c->si.it.s.next_id;
		r->start_ts = ntff_tick_ns(c->p, n.start_tick);
		r->end_ts = ntff_tick_ns(c->p, n.end_tick);
		r->evt_wait_time_ns = ntff_tick_ns(c->p, n.wait_ticks);
		r->pcore_idx = q->pcore;
		r->engine_id = q->engine;
		r->pc = n.pc;
		r->pc_unknown = n.pc >= q->nsi;
		src_step(&c->si, qr, 1);
		return 1;
	}
	return rc == 0 ? 0 : src_fail(c, &c->si, rc);
}

static inline __attribute__((always_inline)) int next_dma(nxp_flow_cursor *c)
{
	ntff_qreader *qr = NULL;
	int rc;
	while ((rc = src_peek(&c->sd, &qr)) == 1) {
		const ntff_queue *q = qr->q;
		nxp_ntff_dma_note n;
		ntff_decode_dma(qr->rec, &n);
		if (!ntff_dma_ok(c->p, &n)) {
			if ((rc = src_step(&c->sd, qr, 0)) < 0)
				break;
			continue;
		}
		f_dma *r = &c->rd;
		r->id = c->sd.it.s.next_id;
		r->start_ts = ntff_tick_ns(c->p, n.start_tick);
		r->end_ts = ntff_tick_ns(c->p, n.end_tick);
		r->pcore_idx = q->pcore;
		r->queue_idx = q->queue_idx;
		r->queue_name = q->name;
		r->qid = qr->qid;
		r->packet_aggregation_id = n.packet_aggregation_id;
		src_step(&c->sd, qr, 1);
		return 1;
	}
	return rc == 0 ? 0 : src_fail(c, &c->sd, rc);
}

static int next_sem(nxp_flow_cursor *c)
{
	ntff_qreader *qr = NULL;
	int rc;
	while ((rc = src_peek(&c->ss, &qr)) == 1) {
		const ntff_queue *q = qr->q;
		nxp_ntff_semaphore_note n;
		ntff_decode_semaphore(qr->rec, &n);
		if (!ntff_semaphore_ok(&n)) {
			if ((rc = src_step(&c->ss, qr, 0)) < 0)
				break;
			continue;
		}
		f_sem *r = &c->rs;
		r->timestamp = (int64_t)(n.tick / (uint64_t)c->p->hdr.ticks_per_nanosec);
		r->pcore_idx = q->pcore;
		r->semaphore_idx = n.semaphore_idx;
		r->value = n.value;
		r->engine = c->src_engine[n.update_source]; /* < NXP_ENGINE_COUNT: checked */
		src_step(&c->ss, qr, 1);
		return 1;
	}
	return rc == 0 ? 0 : src_fail(c, &c->ss, rc);
}

/* The next SemaphoreUpdate to process (hs 0 -> 1, or -1 at the end): every
 * good one counts a row. */
static int fetch_sem(nxp_flow_cursor *c)
{
	int rc;
	while ((rc = next_sem(c)) == 1) {
		c->sem_row++;
		/* updates long before the range cannot be the in record of an edge in it */
		if (c->rs.timestamp < c->sem_from)
			continue;
		c->hs = 1;
		return 0;
	}
	if (rc < 0)
		return rc;
	c->hs = -1;
	return 0;
}

static int fill(nxp_flow_cursor *c)
{
	int rc;
	if (c->hi == 0) {
		if ((rc = next_instr(c)) < 0)
			return rc;
		c->hi = rc ? 1 : -1;
	}
	if (c->hd == 0) {
		if ((rc = next_dma(c)) < 0)
			return rc;
		c->hd = rc ? 1 : -1;
	}
	if (c->hs == 0)
		return fetch_sem(c);
	return 0;
}

/* Process the earliest of the three heads; 1 when all ended.  While that
 * emitted nothing, the next step would refill only the source just used and
 * compare again with the same two other heads: so each branch goes on with
 * its source's next record while it stays first (and out is empty), with the
 * same reads, order and errors as one step per record. */
static int step(nxp_flow_cursor *c)
{
	int rc = fill(c);
	if (rc < 0)
		return rc;
	int64_t ti = c->hi == 1 ? c->ri.start_ts : INT64_MAX;
	int64_t td = c->hd == 1 ? c->rd.start_ts : INT64_MAX;
	int64_t ts = c->hs == 1 ? c->rs.timestamp : INT64_MAX;
	const int64_t lim = c->lim;
	if (c->hi != 1 && c->hd != 1 && c->hs != 1) {
		if ((rc = resolve_waits(c, INT64_MAX)) < 0)
			return rc;
		return 1;
	}
	/* ties: semaphore updates, then instructions, then packets */
	if (ts <= ti && ts <= td) {
		for (;;) {
			if (ts >= lim) {
				c->hs = -1;
				return 0;
			}
			c->now = ts;
			if ((rc = resolve_waits(c, ts)) < 0)
				return rc;
			c->hs = 0;
			if ((rc = on_semaphore(c, &c->rs, c->sem_row - 1)) < 0 || c->out_n)
				return rc;
			if ((rc = fetch_sem(c)) < 0)
				return rc;
			if (c->hs != 1)
				return 0;
			ts = c->rs.timestamp;
			if (!(ts <= ti && ts <= td))
				return 0;
		}
	}
	if (ti <= td) {
		for (;;) {
			if (ti >= lim) {
				c->hi = -1;
				return 0;
			}
			c->now = ti;
			c->hi = 0;
			if ((rc = on_instruction(c, &c->ri)) < 0 || c->out_n)
				return rc;
			if ((rc = next_instr(c)) < 0)
				return rc;
			if (!rc) {
				c->hi = -1;
				return 0;
			}
			c->hi = 1;
			ti = c->ri.start_ts;
			if (!(ti < ts && ti <= td))
				return 0;
		}
	}
	for (;;) {
		if (td >= lim) {
			c->hd = -1;
			return 0;
		}
		c->now = td;
		c->hd = 0;
		if ((rc = on_dma(c, &c->rd)) < 0 || c->out_n)
			return rc;
		if ((rc = next_dma(c)) < 0)
			return rc;
		if (!rc) {
			c->hd = -1;
			return 0;
		}
		c->hd = 1;
		td = c->rd.start_ts;
		if (!(td < ts && td < ti))
			return 0;
	}
}

static int load_static(nxp_flow_cursor *c)
{
	size_t n = nxp_neff_subgraph_count(c->neff);
	c->npcore = n ? n : 1;
	size_t k = c->npcore * NXP_ENGINE_COUNT;
	c->st = calloc(k, sizeof(*c->st));
	c->stn = calloc(k, sizeof(*c->stn));
	c->signal = calloc(k, sizeof(*c->signal));
	c->trigger = calloc(k, sizeof(*c->trigger));
	c->hist = calloc(c->npcore * NSEM, sizeof(*c->hist));
	c->queues = calloc(MAX_QUEUES, sizeof(*c->queues));
	c->qhash = calloc(QHASH_CAP, sizeof(*c->qhash));
	c->owned = calloc(k, sizeof(*c->owned));
	c->nqmap = c->p->nqueues;
	c->qmap = calloc(c->nqmap ? c->nqmap : 1, sizeof(*c->qmap));
	if (!c->st || !c->stn || !c->signal || !c->trigger || !c->hist || !c->queues || !c->qhash || !c->owned ||
	    !c->qmap)
		return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
	for (size_t sg = 0; sg < n; sg++)
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			int64_t cnt = nxp_neff_instruction_count(c->neff, sg, e);
			if (cnt <= 0)
				continue;
			sinfo *v = calloc((size_t)cnt, sizeof(*v));
			if (!v)
				return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
			c->st[sg * NXP_ENGINE_COUNT + (size_t)e] = v;
			c->stn[sg * NXP_ENGINE_COUNT + (size_t)e] = (uint64_t)cnt;
			nxp_neff_instruction ni;
			for (int64_t pc = 0; pc < cnt; pc++) {
				ni.struct_size = sizeof(ni);
				if (nxp_neff_get_instruction(c->neff, sg, e, (uint64_t)pc, &ni) != NXP_OK)
					continue;
				v[pc] = (sinfo){ni.wait_mode, ni.wait_idx, ni.update_mode, ni.update_idx,
						ni.semaphore_value, (uint8_t)nxp__is_dma_trigger_opcode(ni.opcode_num)};
			}
		}
	return 0;
}

/* A source of `table`'s records from start_ts on (the queues a default
 * nxp_cursor_options selects), positioned as nxp_cursor_open positions. */
static int src_open(f_src *src, nxp_profile *p, int table, int64_t start_ts, nxp_status *st)
{
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = start_ts;
	uint64_t from = start_ts == INT64_MIN ? 0 : ntff_tick_of(p, start_ts);
	int rc = ntff_iter_open(&src->it, p, ntff_table_get(table), &co, from, UINT64_MAX);
	if (rc)
		return nxp__error_set(st, rc, -1, "out of memory");
	src->open = 1;
	if ((rc = ntff_iter_seek(&src->it, from)) < 0) {
		nxp_status_copy(st, &src->it.s.err);
		return rc;
	}
	return NXP_OK;
}

NXP_API int nxp_flow_cursor_open(nxp_flow_cursor **out, nxp_profile *p, const nxp_flow_options *opts,
				 nxp_status *st)
{
	if (!out || !p)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_flow_cursor_open: NULL argument");
	*out = NULL;
	nxp_flow_options o;
	nxp_flow_options_init(&o);
	if (opts && NXP__STRUCT_IN_DEFAULTS(o, opts, sizeof(o)) < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_flow_cursor_open: options struct too short");
	o.struct_size = sizeof(o);
	if (o.start_ts >= o.end_ts || o.window_ns < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_flow_cursor_open: start_ts >= end_ts or negative window");
	if (!o.window_ns)
		o.window_ns = NXP_FLOW_DEFAULT_WINDOW_NS;
	nxp_flow_cursor *c = calloc(1, sizeof(*c));
	if (!c)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "nxp_flow_cursor_open: out of memory");
	c->p = p;
	c->neff = nxp_profile_neff(p);
	c->o = o;
	c->lim = nxp__ts_add(o.end_ts, o.window_ns);
	c->sem_from = nxp__ts_sub(o.start_ts, o.window_ns);
	c->waits_min = INT64_MAX;
	nxp_status_init(&c->err);
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		const char *name = nxp_engine_name(e);
		c->src_engine[e] = nxp_engine_from_name(name ? name : "unknown");
	}
	int rc = load_static(c);
	if (rc < 0) {
		nxp_status_copy(st, &c->err);
		nxp_flow_cursor_close(c);
		return rc;
	}
	/* as the cursors would read them: Instruction and DmaPacket from a window
	 * before the range, SemaphoreUpdate from the start (its row numbers) */
	int64_t from_ts = nxp__ts_sub(o.start_ts, o.window_ns);
	if ((rc = src_open(&c->si, p, NXP_TABLE_INSTRUCTION, from_ts, st)) < 0 ||
	    (rc = src_open(&c->sd, p, NXP_TABLE_DMA_PACKET, from_ts, st)) < 0 ||
	    (rc = src_open(&c->ss, p, NXP_TABLE_SEMAPHORE_UPDATE, INT64_MIN, st)) < 0) {
		nxp_flow_cursor_close(c);
		return rc;
	}
	*out = c;
	return NXP_OK;
}

/* Step until an edge is waiting in out: 0, NXP_END, or a negative error. */
static int refill(nxp_flow_cursor *c)
{
	while (!c->out_n) {
		if (c->done)
			return NXP_END;
		int rc = step(c);
		if (rc < 0)
			return rc;
		if (rc == 1)
			c->done = 1; /* the last waits may just have been resolved */
	}
	return 0;
}

/* Most calls only hand out an edge already found: that path is kept short,
 * the stepping is in refill. */
NXP_API int nxp_flow_cursor_next(nxp_flow_cursor *c, nxp_flow *f)
{
	if (!c)
		return NXP_E_INVAL;
	if (!f || f->struct_size < sizeof(nxp_flow)) /* nxp__struct_size_ok(f, sizeof(nxp_flow)) */
		return fc_fail(c, NXP_E_INVAL, "nxp_flow_cursor_next: NULL or short record");
	if (c->failed)
		return c->err.code;
	if (!c->out_n) {
		int rc = refill(c);
		if (rc)
			return rc;
	}
	nxp_flow *e = &c->out[c->out_head];
	c->out_head = (c->out_head + 1) & (c->out_cap - 1);
	c->out_n--;
	if (f->struct_size == sizeof(*e)) { /* the caller's struct is ours: what nxp__struct_out copies, inline */
		*f = *e;
		return NXP_OK;
	}
	return NXP__STRUCT_OUT(f, *e, sizeof(nxp_flow));
}

NXP_API int nxp_flow_cursor_error(const nxp_flow_cursor *c, nxp_status *st)
{
	if (!c)
		return NXP_E_INVAL;
	nxp_status_copy(st, &c->err);
	return c->err.code;
}

NXP_API void nxp_flow_cursor_close(nxp_flow_cursor *c)
{
	if (!c)
		return;
	if (c->si.open)
		ntff_iter_close(&c->si.it);
	if (c->sd.open)
		ntff_iter_close(&c->sd.it);
	if (c->ss.open)
		ntff_iter_close(&c->ss.it);
	size_t k = c->npcore * NXP_ENGINE_COUNT;
	for (size_t i = 0; c->st && i < k; i++)
		free(c->st[i]);
	for (size_t i = 0; c->signal && i < k; i++)
		free(c->signal[i].v);
	for (size_t i = 0; c->trigger && i < k; i++)
		free(c->trigger[i].v);
	for (size_t i = 0; c->owned && i < k; i++)
		free(c->owned[i].v);
	for (size_t i = 0; c->hist && i < c->npcore * NSEM; i++)
		free(c->hist[i]);
	free(c->st);
	free(c->stn);
	free(c->signal);
	free(c->trigger);
	free(c->hist);
	free(c->queues);
	free(c->qhash);
	free(c->owned);
	free(c->qmap);
	free(c->waits);
	free(c->out);
	free(c);
}

NXP_API int nxp_profile_flows_of(nxp_profile *p, int table, int64_t id, int direction, void *flows,
				 size_t flow_size, size_t max, size_t *count, nxp_status *st)
{
	if (!p || !count || (max && !flows) || (max && flow_size < sizeof(size_t) + 5 * sizeof(int64_t)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_flows_of: NULL argument or short flow_size");
	if (table != NXP_TABLE_INSTRUCTION && table != NXP_TABLE_DMA_PACKET && table != NXP_TABLE_SEMAPHORE_UPDATE)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_flows_of: table must be Instruction, DmaPacket or SemaphoreUpdate");
	if (direction != NXP_FLOW_WAITED_ON && direction != NXP_FLOW_UNBLOCKED)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_flows_of: bad direction");
	if (max && flow_size < offsetof(nxp_flow, pcore_idx) + sizeof(int64_t))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_flows_of: flow_size shorter than nxp_flow");
	*count = 0;
	nxp_flow_cursor *c;
	int rc = nxp_flow_cursor_open(&c, p, NULL, st);
	if (rc < 0)
		return rc;
	nxp_flow f;
	f.struct_size = sizeof(f);
	int64_t seen_ts = INT64_MIN; /* out_ts of an edge touching the record */
	int seen_record = 0;
	while ((rc = nxp_flow_cursor_next(c, &f)) == NXP_OK) {
		int hit = direction == NXP_FLOW_WAITED_ON ? (f.out_table_id == table && f.out_id == id)
							   : (f.in_table_id == table && f.in_id == id);
		if ((f.out_table_id == table && f.out_id == id) || (f.in_table_id == table && f.in_id == id)) {
			seen_record = 1;
			if (f.out_ts > seen_ts)
				seen_ts = f.out_ts;
		}
		if (hit) {
			if (*count < max) {
				unsigned char *dst = (unsigned char *)flows + *count * flow_size;
				memset(dst, 0, flow_size);
				*(size_t *)(void *)dst = flow_size;
				nxp__struct_out(dst, &f, sizeof(f), offsetof(nxp_flow, pcore_idx) + sizeof(int64_t));
			}
			(*count)++;
		}
		/* edges come in time order up to the window: past it nothing more can touch the record */
		if (seen_record && f.out_ts > nxp__ts_add(seen_ts, 2 * c->o.window_ns))
			break;
	}
	if (rc < 0) {
		nxp_flow_cursor_error(c, st);
		nxp_flow_cursor_close(c);
		return rc;
	}
	nxp_flow_cursor_close(c);
	if (!seen_record && !*count) {
		/* the record may exist without edges: look it up */
		nxp_cursor *cur;
		if ((rc = nxp_cursor_open(&cur, p, table, NULL, st)) < 0)
			return rc;
		int64_t n = 0;
		int found = 0;
		if (table == NXP_TABLE_SEMAPHORE_UPDATE) {
			nxp_semaphore_update u = {.struct_size = sizeof(u)};
			while (!found && (rc = nxp_cursor_next_semaphore_update(cur, &u)) == NXP_OK)
				found = n++ == id;
		} else if (table == NXP_TABLE_INSTRUCTION) {
			nxp_instruction in = {.struct_size = sizeof(in)};
			while (!found && (rc = nxp_cursor_next_instruction(cur, &in)) == NXP_OK)
				found = in.id == id;
		} else {
			nxp_dma_packet d = {.struct_size = sizeof(d)};
			while (!found && (rc = nxp_cursor_next_dma_packet(cur, &d)) == NXP_OK)
				found = d.id == id;
		}
		nxp_cursor_close(cur);
		if (!found)
			return nxp__error_set(st, NXP_E_NOT_FOUND, -1, "nxp_profile_flows_of: no %s record with id %lld",
					table_name(table), (long long)id);
	}
	return NXP_OK;
}
