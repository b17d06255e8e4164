/* SPDX-License-Identifier: MIT */
/* Dependency edges (the Flow table) in one streaming pass over the
 * Instruction, DmaPacket and SemaphoreUpdate cursors.  Which edges are exact
 * and which inferred, and why: doc/analysis.md. */
#include "analysis_priv.h"

#include "abi_struct.h"
#include "neff_internal.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

#define NSEM 256          /* semaphore indices the 8-bit static fields can name */
#define HIST_CAP 64       /* updates of one semaphore remembered (plus the window) */
#define OPEN_TRANSFERS 8  /* DMA transfers per queue awaiting their completion update */
#define MAX_QUEUES 4096   /* distinct DMA queue instances followed */

typedef struct sinfo {
	uint8_t wait_mode, wait_idx, update_mode, update_idx;
	uint32_t value;
	uint8_t dma_trigger;
} sinfo;

typedef struct hist_ent {
	int64_t ts, row;
	int32_t value;
} hist_ent;

typedef struct sem_hist {
	hist_ent e[HIST_CAP];
	int n;
	int evicted; /* an older update was forgotten: a transition at e[0] is not certain */
} sem_hist;

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

typedef struct qstate {
	const char *name; /* profile-lifetime string */
	int64_t pcore, idx;
	int owner;        /* nxp_engine, -1 unknown */
	transfer t[OPEN_TRANSFERS];
	int next;         /* slot replaced next */
	int64_t cur_agg;
	int have_cur;
} qstate;

struct nxp_flow_cursor {
	nxp_profile *p;
	const nxp_neff *neff;
	nxp_flow_options o;
	nxp_status err;
	nxp_cursor *ci, *cd, *cs;
	nxp_instruction ri;
	nxp_dma_packet rd;
	nxp_semaphore_update rs;
	int hi, hd, hs; /* 1 = record held, 0 = need next, -1 = ended */
	int64_t sem_row;
	int64_t now;
	/* static facts per pcore and engine */
	size_t npcore;
	sinfo **st;        /* [pcore * NXP_ENGINE_COUNT + engine] */
	uint64_t *stn;
	sem_hist **hist;   /* [pcore * NSEM + idx], lazily */
	pend_wait *waits;
	size_t nwaits, waits_cap;
	fifo *signal, *trigger; /* [pcore * NXP_ENGINE_COUNT + engine] */
	qstate *queues;
	size_t nqueues;
	nxp_flow *out;
	size_t out_head, out_n, out_cap;
	int failed;
	int done;
};

const char *nxp__flow_kind_name(int kind)
{
	switch (kind) {
	case NXP_FLOW_SEMAPHORE_WAIT: return "semaphore_wait";
	case NXP_FLOW_DMA_TRIGGER: return "dma_trigger";
	case NXP_FLOW_DMA_COMPLETION: return "dma_completion";
	case NXP_FLOW_SEMAPHORE_SIGNAL: return "semaphore_signal";
	default: return "";
	}
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

static int emit(nxp_flow_cursor *c, int kind, int in_t, int64_t in_id, int64_t in_ts, int out_t, int64_t out_id,
		int64_t out_ts, int exact, int64_t pcore)
{
	if (out_ts < c->o.start_ts || out_ts >= c->o.end_ts)
		return 0;
	if (c->o.pcore_idx >= 0 && pcore != c->o.pcore_idx)
		return 0;
	if (c->out_n == c->out_cap) {
		size_t nc = c->out_cap ? c->out_cap * 2 : 64;
		nxp_flow *v = malloc(nc * sizeof(*v));
		if (!v)
			return fc_fail(c, NXP_E_NOMEM, "flows: out of memory");
		for (size_t i = 0; i < c->out_n; i++)
			v[i] = c->out[(c->out_head + i) % c->out_cap];
		free(c->out);
		c->out = v;
		c->out_head = 0;
		c->out_cap = nc;
	}
	nxp_flow *f = &c->out[(c->out_head + c->out_n++) % c->out_cap];
	memset(f, 0, sizeof(*f));
	f->struct_size = sizeof(*f);
	f->kind = kind;
	f->dependency_type = nxp__flow_kind_name(kind);
	f->in_table_id = in_t;
	f->out_table_id = out_t;
	f->in_table = table_name(in_t);
	f->out_table = table_name(out_t);
	f->in_id = in_id;
	f->out_id = out_id;
	f->in_ts = in_ts;
	f->out_ts = out_ts;
	f->gap_time = out_ts - in_ts;
	f->exact = exact;
	f->pcore_idx = pcore;
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
	size_t k = 0;
	for (size_t i = 0; i < c->nwaits; i++) {
		pend_wait *w = &c->waits[i];
		if (w->exec_start >= t) {
			c->waits[k++] = *w;
			continue;
		}
		sem_hist *h = c->hist[(size_t)w->pcore * NSEM + w->idx];
		if (!h)
			continue;
		int j = h->n - 1;
		while (j >= 0 && h->e[j].ts > w->exec_start)
			j--;
		if (j < 0 || !satisfies(w->mode, h->e[j].value, w->value))
			continue; /* satisfied before anything remembered, or never: no edge */
		while (j > 0 && satisfies(w->mode, h->e[j - 1].value, w->value))
			j--;
		int exact = j > 0 || !h->evicted;
		int rc = emit(c, NXP_FLOW_SEMAPHORE_WAIT, NXP_TABLE_SEMAPHORE_UPDATE, h->e[j].row, h->e[j].ts,
			      NXP_TABLE_INSTRUCTION, w->id, w->exec_start, exact, w->pcore);
		if (rc < 0)
			return rc;
	}
	c->nwaits = k;
	return 0;
}

static int on_instruction(nxp_flow_cursor *c, const nxp_instruction *in)
{
	if (in->flags & NXP_INSTRUCTION_PC_UNKNOWN)
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
		c->waits[c->nwaits++] = (pend_wait){in->id, nxp__ts_add(in->start_ts, in->evt_wait_time_ns),
						    in->pcore_idx, s->wait_mode, s->wait_idx, s->value};
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

static qstate *queue_of(nxp_flow_cursor *c, const nxp_dma_packet *d)
{
	for (size_t i = 0; i < c->nqueues; i++) {
		qstate *q = &c->queues[i];
		if (q->pcore == d->pcore_idx && q->idx == d->queue_idx &&
		    (q->name == d->queue_name || (q->name && d->queue_name && !strcmp(q->name, d->queue_name))))
			return q;
	}
	if (c->nqueues >= MAX_QUEUES)
		return NULL;
	qstate *q = &c->queues[c->nqueues++];
	memset(q, 0, sizeof(*q));
	q->name = d->queue_name;
	q->pcore = d->pcore_idx;
	q->idx = d->queue_idx;
	q->owner = -1;
	const nxp_neff_queue *nq = nxp_neff_find_queue(c->neff, d->pcore_idx, d->queue_name, d->queue_idx);
	if (nq && nq->owner && *nq->owner)
		q->owner = nxp_engine_from_name(nq->owner);
	return q;
}

static int on_dma(nxp_flow_cursor *c, const nxp_dma_packet *d)
{
	qstate *q = queue_of(c, d);
	if (!q)
		return 0;
	if (!q->have_cur || q->cur_agg != d->packet_aggregation_id) {
		/* a new transfer: started by the oldest pending trigger of the owner
		 * engine that ended before it (inferred: the trace does not say) */
		q->have_cur = 1;
		q->cur_agg = d->packet_aggregation_id;
		transfer *t = &q->t[q->next];
		q->next = (q->next + 1) % OPEN_TRANSFERS;
		*t = (transfer){d->packet_aggregation_id, d->id, d->id, d->end_ts, 1};
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
	for (int i = 0; i < OPEN_TRANSFERS; i++)
		if (q->t[i].used && q->t[i].agg == d->packet_aggregation_id) {
			q->t[i].last_id = d->id;
			if (d->end_ts > q->t[i].last_end)
				q->t[i].last_end = d->end_ts;
		}
	return 0;
}

static int on_semaphore(nxp_flow_cursor *c, const nxp_semaphore_update *u, int64_t row)
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
	while (drop < h->n - 1 && h->e[drop].ts < lim)
		drop++;
	if (h->n - drop == HIST_CAP)
		drop++;
	if (drop) {
		memmove(h->e, h->e + drop, (size_t)(h->n - drop) * sizeof(h->e[0]));
		h->n -= drop;
		h->evicted = 1;
	}
	h->e[h->n++] = (hist_ent){u->timestamp, row, u->value};

	int eng = nxp_engine_from_name(u->update_source);
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
	int hits = 0;
	for (size_t i = 0; i < c->nqueues; i++) {
		qstate *q = &c->queues[i];
		if (q->pcore != pc || q->owner != eng)
			continue;
		for (int j = 0; j < OPEN_TRANSFERS; j++)
			if (q->t[j].used && q->t[j].last_end == u->timestamp) {
				if (!hit)
					hit = &q->t[j];
				hits++;
			}
	}
	if (hit) {
		hit->used = 0;
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

static int cursor_fail(nxp_flow_cursor *c, nxp_cursor *cur, int rc)
{
	c->failed = 1;
	nxp_cursor_error(cur, &c->err);
	if (!c->err.code)
		nxp__error_set(&c->err, rc, -1, "flows: cursor failed");
	return c->err.code;
}

static int fill(nxp_flow_cursor *c)
{
	int rc;
	if (c->hi == 0) {
		rc = nxp_cursor_next_instruction(c->ci, &c->ri);
		if (rc < 0)
			return cursor_fail(c, c->ci, rc);
		c->hi = rc == NXP_END ? -1 : 1;
	}
	if (c->hd == 0) {
		rc = nxp_cursor_next_dma_packet(c->cd, &c->rd);
		if (rc < 0)
			return cursor_fail(c, c->cd, rc);
		c->hd = rc == NXP_END ? -1 : 1;
	}
	while (c->hs == 0) {
		rc = nxp_cursor_next_semaphore_update(c->cs, &c->rs);
		if (rc < 0)
			return cursor_fail(c, c->cs, rc);
		if (rc == NXP_END) {
			c->hs = -1;
			break;
		}
		int64_t row = c->sem_row++;
		/* updates long before the range cannot be the in record of an edge in it */
		if (c->rs.timestamp < nxp__ts_sub(c->o.start_ts, c->o.window_ns))
			continue;
		c->hs = 1;
		(void)row;
	}
	return 0;
}

/* Process one record (the earliest of the three heads); 1 when all ended. */
static int step(nxp_flow_cursor *c)
{
	int rc = fill(c);
	if (rc < 0)
		return rc;
	int64_t ti = c->hi == 1 ? c->ri.start_ts : INT64_MAX;
	int64_t td = c->hd == 1 ? c->rd.start_ts : INT64_MAX;
	int64_t ts = c->hs == 1 ? c->rs.timestamp : INT64_MAX;
	int64_t lim = nxp__ts_add(c->o.end_ts, c->o.window_ns);
	if (c->hi != 1 && c->hd != 1 && c->hs != 1) {
		if ((rc = resolve_waits(c, INT64_MAX)) < 0)
			return rc;
		return 1;
	}
	/* ties: semaphore updates, then instructions, then packets */
	if (ts <= ti && ts <= td) {
		if (ts >= lim) {
			c->hs = -1;
			return 0;
		}
		c->now = ts;
		if ((rc = resolve_waits(c, ts)) < 0)
			return rc;
		c->hs = 0;
		return on_semaphore(c, &c->rs, c->sem_row - 1);
	}
	if (ti <= td) {
		if (ti >= lim) {
			c->hi = -1;
			return 0;
		}
		c->now = ti;
		c->hi = 0;
		return on_instruction(c, &c->ri);
	}
	if (td >= lim) {
		c->hd = -1;
		return 0;
	}
	c->now = td;
	c->hd = 0;
	return on_dma(c, &c->rd);
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
	if (!c->st || !c->stn || !c->signal || !c->trigger || !c->hist || !c->queues)
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
	nxp_status_init(&c->err);
	c->ri.struct_size = sizeof(c->ri);
	c->rd.struct_size = sizeof(c->rd);
	c->rs.struct_size = sizeof(c->rs);
	int rc = load_static(c);
	if (rc < 0) {
		nxp_status_copy(st, &c->err);
		nxp_flow_cursor_close(c);
		return rc;
	}
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = nxp__ts_sub(o.start_ts, o.window_ns);
	if ((rc = nxp_cursor_open(&c->ci, p, NXP_TABLE_INSTRUCTION, &co, st)) < 0 ||
	    (rc = nxp_cursor_open(&c->cd, p, NXP_TABLE_DMA_PACKET, &co, st)) < 0 ||
	    (rc = nxp_cursor_open(&c->cs, p, NXP_TABLE_SEMAPHORE_UPDATE, NULL, st)) < 0) {
		nxp_flow_cursor_close(c);
		return rc;
	}
	*out = c;
	return NXP_OK;
}

NXP_API int nxp_flow_cursor_next(nxp_flow_cursor *c, nxp_flow *f)
{
	if (!c)
		return NXP_E_INVAL;
	if (!nxp__struct_size_ok(f, sizeof(nxp_flow)))
		return fc_fail(c, NXP_E_INVAL, "nxp_flow_cursor_next: NULL or short record");
	if (c->failed)
		return c->err.code;
	while (!c->out_n) {
		if (c->done)
			return NXP_END;
		int rc = step(c);
		if (rc < 0)
			return rc;
		if (rc == 1)
			c->done = 1; /* the last waits may just have been resolved */
	}
	nxp_flow *e = &c->out[c->out_head];
	c->out_head = (c->out_head + 1) % c->out_cap;
	c->out_n--;
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
	nxp_cursor_close(c->ci);
	nxp_cursor_close(c->cd);
	nxp_cursor_close(c->cs);
	size_t k = c->npcore * NXP_ENGINE_COUNT;
	for (size_t i = 0; c->st && i < k; i++)
		free(c->st[i]);
	for (size_t i = 0; c->signal && i < k; i++)
		free(c->signal[i].v);
	for (size_t i = 0; c->trigger && i < k; i++)
		free(c->trigger[i].v);
	for (size_t i = 0; c->hist && i < c->npcore * NSEM; i++)
		free(c->hist[i]);
	free(c->st);
	free(c->stn);
	free(c->signal);
	free(c->trigger);
	free(c->hist);
	free(c->queues);
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
