/* SPDX-License-Identifier: MIT */
/* Critical path: the records of the interval as nodes, the Flow edges and
 * each engine's / DMA queue's own order as predecessors, a backward walk
 * that charges every nanosecond of the interval to exactly one resource.
 * doc/analysis.md describes the rules. */
#include "analysis_priv.h"

#include "abi_struct.h"
#include "neff_internal.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
	int64_t start, ready, end, id;
	int64_t pred_res, pred_dep; /* node indices, -1 = none */
	const char *label;          /* profile-lifetime string */
	int32_t res;                /* resource row of its own time */
	int16_t dep_kind;           /* nxp_flow_kind of pred_dep */
	uint8_t table;
	uint8_t setup;
	int32_t pcore, qidx;        /* resource order is per pcore (and DMA queue instance) */
} node;

typedef struct res_row {
	char *name;
	int64_t ns, busy_ns, covered_until;
	int is_unit; /* an engine or a DMA queue */
} res_row;

typedef struct step {
	int64_t node, ns;
	const char *via;
	char *label;
	const char *resource;
} step;

struct nxp_critical_path {
	int64_t lo, hi;
	res_row *res;
	size_t nres;
	step *steps;
	size_t nsteps;
	char **labels; /* interned step labels */
	size_t nlabels;
	node *nodes;   /* freed after the walk */
	size_t nnodes, cap;
};

#define RES_SEM 0
#define RES_IDLE 1

static int add_res(nxp_critical_path *cp, const char *name, int unit)
{
	for (size_t i = 0; i < cp->nres; i++)
		if (!strcmp(cp->res[i].name, name))
			return (int)i;
	res_row *v = realloc(cp->res, (cp->nres + 1) * sizeof(*v));
	if (!v)
		return NXP_E_NOMEM;
	cp->res = v;
	memset(&v[cp->nres], 0, sizeof(v[0]));
	v[cp->nres].name = strdup(name);
	if (!v[cp->nres].name)
		return NXP_E_NOMEM;
	v[cp->nres].is_unit = unit;
	v[cp->nres].covered_until = INT64_MIN;
	return (int)cp->nres++;
}

static node *push(nxp_critical_path *cp)
{
	if (cp->nnodes == cp->cap) {
		size_t nc = cp->cap ? cp->cap * 2 : 1024;
		node *v = realloc(cp->nodes, nc * sizeof(*v));
		if (!v)
			return NULL;
		cp->nodes = v;
		cp->cap = nc;
	}
	node *n = &cp->nodes[cp->nnodes++];
	memset(n, 0, sizeof(*n));
	n->pred_res = n->pred_dep = -1;
	return n;
}

static int64_t bsearch_id(const node *v, size_t lo, size_t hi, int64_t id)
{
	size_t a = lo, b = hi;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (v[m].id < id)
			a = m + 1;
		else
			b = m;
	}
	return (a < hi && v[a].id == id) ? (int64_t)a : -1;
}

static const char *intern(nxp_critical_path *cp, const char *s)
{
	if (!s)
		s = "";
	for (size_t i = 0; i < cp->nlabels; i++)
		if (!strcmp(cp->labels[i], s))
			return cp->labels[i];
	char **v = realloc(cp->labels, (cp->nlabels + 1) * sizeof(*v));
	if (!v)
		return NULL;
	cp->labels = v;
	if (!(v[cp->nlabels] = strdup(s)))
		return NULL;
	return v[cp->nlabels++];
}

NXP_API void nxp_critical_path_close(nxp_critical_path *cp)
{
	if (!cp)
		return;
	for (size_t i = 0; i < cp->nres; i++)
		free(cp->res[i].name);
	for (size_t i = 0; i < cp->nlabels; i++)
		free(cp->labels[i]);
	free(cp->res);
	free(cp->labels);
	free(cp->steps);
	free(cp->nodes);
	free(cp);
}

static int cur_fail(nxp_cursor *c, int rc, nxp_status *st)
{
	nxp_status tmp;
	nxp_status_init(&tmp);
	nxp_cursor_error(c, &tmp);
	if (!tmp.code)
		return nxp__error_set(st, rc, -1, "critical path: cursor failed");
	nxp_status_copy(st, &tmp);
	return tmp.code;
}

static int collect(nxp_critical_path *cp, nxp_profile *p, const nxp_critical_path_options *o, size_t *ni_end,
		   size_t *nd_end, nxp_status *st)
{
	const nxp_neff *neff = nxp_profile_neff(p);
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.pcore_idx = o->pcore_idx;
	nxp_cursor *c;
	int rc;
	char name[128];
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	if ((rc = nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, &co, st)) < 0)
		return rc;
	nxp_instruction in = {.struct_size = sizeof(in)};
	while ((rc = nxp_cursor_next_instruction(c, &in)) == NXP_OK) {
		if (o->execution_index >= 0 && in.execution_index != o->execution_index)
			continue;
		const nxp_static_instr *si = NULL;
		if (!(in.flags & NXP_INSTRUCTION_PC_UNKNOWN) && in.pcore_idx >= 0 && in.pc >= 0)
			si = nxp_neff_static_instr(neff, (size_t)in.pcore_idx, in.engine_id, (uint64_t)in.pc);
		node *n = push(cp);
		if (!n) {
			nxp_cursor_close(c);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
		}
		n->start = in.start_ts;
		n->end = in.end_ts;
		n->ready = nxp__ts_add(in.start_ts, in.evt_wait_time_ns);
		if (n->ready > n->end)
			n->ready = n->end;
		n->id = in.id;
		n->label = in.opcode;
		n->table = NXP_TABLE_INSTRUCTION;
		n->setup = si && si->is_setup;
		n->pcore = (int32_t)in.pcore_idx;
		snprintf(name, sizeof name, "engine:%s", in.engine ? in.engine : "?");
		if ((n->res = add_res(cp, name, 1)) < 0) {
			nxp_cursor_close(c);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
		}
		if (!n->setup) {
			if (in.start_ts < lo)
				lo = in.start_ts;
			if (in.end_ts > hi)
				hi = in.end_ts;
		}
	}
	if (rc < 0) {
		rc = cur_fail(c, rc, st);
		nxp_cursor_close(c);
		return rc;
	}
	nxp_cursor_close(c);
	*ni_end = cp->nnodes;

	if ((rc = nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, &co, st)) < 0)
		return rc;
	nxp_dma_packet d = {.struct_size = sizeof(d)};
	while ((rc = nxp_cursor_next_dma_packet(c, &d)) == NXP_OK) {
		if (o->execution_index >= 0 && d.execution_index != o->execution_index)
			continue;
		node *n = push(cp);
		if (!n) {
			nxp_cursor_close(c);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
		}
		n->start = n->ready = d.start_ts;
		n->end = d.end_ts;
		n->id = d.id;
		n->label = d.queue_name;
		n->table = NXP_TABLE_DMA_PACKET;
		n->pcore = (int32_t)d.pcore_idx;
		n->qidx = (int32_t)d.queue_idx;
		snprintf(name, sizeof name, "dma:%s", d.queue_name ? d.queue_name : "?");
		if ((n->res = add_res(cp, name, 1)) < 0) {
			nxp_cursor_close(c);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
		}
		if (d.start_ts < lo)
			lo = d.start_ts;
		if (d.end_ts > hi)
			hi = d.end_ts;
	}
	if (rc < 0) {
		rc = cur_fail(c, rc, st);
		nxp_cursor_close(c);
		return rc;
	}
	nxp_cursor_close(c);
	*nd_end = cp->nnodes;
	if (lo > hi)
		return nxp__error_set(st, NXP_E_NOT_FOUND, -1,
				o->execution_index >= 0 ? "critical path: no work in execution %d"
							: "critical path: no work in the trace%.0d",
				o->execution_index);
	cp->lo = lo;
	cp->hi = hi;

	/* semaphore updates: row numbers over the whole table (see nxp_flow) */
	if ((rc = nxp_cursor_open(&c, p, NXP_TABLE_SEMAPHORE_UPDATE, NULL, st)) < 0)
		return rc;
	nxp_semaphore_update u = {.struct_size = sizeof(u)};
	int64_t row = 0;
	while ((rc = nxp_cursor_next_semaphore_update(c, &u)) == NXP_OK) {
		int64_t r = row++;
		if (u.timestamp < lo || u.timestamp > hi || (o->pcore_idx >= 0 && u.pcore_idx != o->pcore_idx))
			continue;
		node *n = push(cp);
		if (!n) {
			nxp_cursor_close(c);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
		}
		n->start = n->ready = n->end = u.timestamp;
		n->id = r;
		n->label = u.id;
		n->table = NXP_TABLE_SEMAPHORE_UPDATE;
		n->res = RES_SEM;
	}
	if (rc < 0) {
		rc = cur_fail(c, rc, st);
		nxp_cursor_close(c);
		return rc;
	}
	nxp_cursor_close(c);
	return 0;
}

/* Each engine's and DMA queue's previous record (same pcore for engines) and its busy time. */
static int resource_order(nxp_critical_path *cp, size_t ni_end, size_t nd_end)
{
	/* instructions: per resource row (engine name) and pcore; pcores are few,
	 * keyed by resource row only when one pcore, else a small table */
	size_t nk = cp->nres;
	int64_t *last = malloc(nk * 64 * sizeof(*last));
	if (!last)
		return NXP_E_NOMEM;
	for (size_t i = 0; i < nk * 64; i++)
		last[i] = -1;
	(void)ni_end;
	for (size_t i = 0; i < nd_end; i++) {
		node *n = &cp->nodes[i];
		size_t k = (size_t)n->res * 64;
		/* the latest earlier record of the same engine / queue instance
		 * (same resource name, pcore and instance) that ended by the time
		 * this one ended: a packet that started before it and is still
		 * running when it ends (packets overlap) is not what it waited for */
		for (size_t j = 0; j < 64 && last[k + j] >= 0; j++) {
			node *m = &cp->nodes[last[k + j]];
			if (m->pcore == n->pcore && m->qidx == n->qidx && m->table == n->table && m->end <= n->end) {
				n->pred_res = last[k + j];
				break;
			}
		}
		/* keep the 64 latest records of the resource (parallel queues / pcores) */
		memmove(&last[k + 1], &last[k], 63 * sizeof(*last));
		last[k] = (int64_t)i;
		/* busy time inside the interval: records of a table come in start order */
		res_row *r = &cp->res[n->res];
		int64_t a = n->table == NXP_TABLE_INSTRUCTION ? n->ready : n->start;
		int64_t b = n->end > cp->hi ? cp->hi : n->end;
		if (a < cp->lo)
			a = cp->lo;
		if (a < r->covered_until)
			a = r->covered_until;
		if (b > a)
			r->busy_ns += b - a;
		if (n->end > r->covered_until)
			r->covered_until = n->end;
	}
	free(last);
	return 0;
}

static int link_flows(nxp_critical_path *cp, nxp_profile *p, size_t ni_end, size_t nd_end, int64_t pcore,
		      nxp_status *st)
{
	nxp_flow_options fo;
	nxp_flow_options_init(&fo);
	fo.start_ts = cp->lo;
	fo.end_ts = nxp__ts_add(cp->hi, 1);
	fo.pcore_idx = pcore;
	nxp_flow_cursor *fc;
	int rc = nxp_flow_cursor_open(&fc, p, &fo, st);
	if (rc < 0)
		return rc;
	nxp_flow f = {.struct_size = sizeof(f)};
	while ((rc = nxp_flow_cursor_next(fc, &f)) == NXP_OK) {
		int64_t out = -1, in = -1;
		size_t ranges[4][2] = {{0, 0}, {0, ni_end}, {ni_end, nd_end}, {nd_end, cp->nnodes}};
		if (f.out_table_id >= 1 && f.out_table_id <= 3)
			out = bsearch_id(cp->nodes, ranges[f.out_table_id][0], ranges[f.out_table_id][1], f.out_id);
		if (f.in_table_id >= 1 && f.in_table_id <= 3)
			in = bsearch_id(cp->nodes, ranges[f.in_table_id][0], ranges[f.in_table_id][1], f.in_id);
		if (out < 0 || in < 0 || in == out)
			continue;
		node *o = &cp->nodes[out];
		/* A dependency ends by the time its dependent ends.  Damaged times
		 * (a wait far longer than its instruction) can match an update
		 * after the instruction: no edge, so that the path's steps stay
		 * in order of their ends. */
		if (cp->nodes[in].end > o->end)
			continue;
		if (o->pred_dep < 0 || cp->nodes[in].end > cp->nodes[o->pred_dep].end) {
			o->pred_dep = in;
			o->dep_kind = (int16_t)f.kind;
		}
	}
	if (rc < 0)
		nxp_flow_cursor_error(fc, st);
	nxp_flow_cursor_close(fc);
	return rc < 0 ? rc : 0;
}

typedef struct walker {
	nxp_critical_path *cp;
	int64_t t;
	step *cur;
} walker;

static void charge(walker *w, int res, int64_t new_t)
{
	if (new_t < w->cp->lo)
		new_t = w->cp->lo;
	if (new_t >= w->t)
		return;
	w->cp->res[res].ns += w->t - new_t;
	if (w->cur)
		w->cur->ns += w->t - new_t;
	w->t = new_t;
}

static int walk(nxp_critical_path *cp)
{
	/* the last record: the one ending at hi (work, not set-up, first) */
	int64_t cur = -1;
	for (size_t i = 0; i < cp->nnodes; i++) {
		node *n = &cp->nodes[i];
		if (n->table == NXP_TABLE_SEMAPHORE_UPDATE || n->setup)
			continue;
		if (cur < 0 || n->end > cp->nodes[cur].end)
			cur = (int64_t)i;
	}
	walker w = {cp, cp->hi, NULL};
	size_t cap = 0, guard = 0;
	const char *pending_via = "";
	while (cur >= 0 && w.t > cp->lo && guard++ <= cp->nnodes) {
		node *n = &cp->nodes[cur];
		if (cp->nsteps == cap) {
			size_t nc = cap ? cap * 2 : 64;
			step *v = realloc(cp->steps, nc * sizeof(*v));
			if (!v)
				return NXP_E_NOMEM;
			cp->steps = v;
			cap = nc;
		}
		w.cur = &cp->steps[cp->nsteps++];
		*w.cur = (step){cur, 0, pending_via, NULL, cp->res[n->res].name};
		if (n->end < w.t)
			charge(&w, RES_IDLE, n->end); /* defensive: a predecessor ends where the gap was charged */
		charge(&w, n->res, n->ready);  /* its own work (an instruction's wait excluded) */
		int64_t pr = n->pred_res, pd = n->pred_dep;
		int use_dep = pd >= 0 && (pr < 0 || cp->nodes[pd].end >= cp->nodes[pr].end);
		int64_t pred = use_dep ? pd : pr;
		if (use_dep) {
			pending_via = nxp__flow_kind_name(n->dep_kind);
			/* the gap after a DMA trigger is the queue's latency; after a
			 * semaphore event, the time to observe it */
			charge(&w, n->dep_kind == NXP_FLOW_DMA_TRIGGER ? n->res : RES_SEM, cp->nodes[pd].end);
		} else {
			if (n->ready > n->start)
				charge(&w, RES_SEM, n->start); /* waited on a semaphore no edge explains */
			if (pred >= 0) {
				pending_via = "resource_order";
				charge(&w, RES_IDLE, cp->nodes[pred].end);
			}
		}
		if (pred < 0)
			break;
		cur = pred;
	}
	w.cur = cp->nsteps ? &cp->steps[cp->nsteps - 1] : NULL;
	charge(&w, RES_IDLE, cp->lo);
	/* reverse into time order; a step's via is how the next one depended on it */
	for (size_t i = 0; i < cp->nsteps / 2; i++) {
		step t = cp->steps[i];
		cp->steps[i] = cp->steps[cp->nsteps - 1 - i];
		cp->steps[cp->nsteps - 1 - i] = t;
	}
	return 0;
}

NXP_API int nxp_profile_critical_path(nxp_profile *p, const nxp_critical_path_options *opts,
				      nxp_critical_path **out, nxp_status *st)
{
	if (!p || !out)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_critical_path: NULL argument");
	*out = NULL;
	nxp_critical_path_options o;
	nxp_critical_path_options_init(&o);
	if (opts && NXP__STRUCT_IN_DEFAULTS(o, opts, sizeof(o)) < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_critical_path: options struct too short");
	nxp_critical_path *cp = calloc(1, sizeof(*cp));
	if (!cp)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
	int rc;
	size_t ni_end = 0, nd_end = 0;
	if (add_res(cp, "semaphore_wait", 0) != RES_SEM || add_res(cp, "idle", 0) != RES_IDLE) {
		rc = nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
		goto fail;
	}
	if ((rc = collect(cp, p, &o, &ni_end, &nd_end, st)) < 0)
		goto fail;
	if ((rc = resource_order(cp, ni_end, nd_end)) < 0 ||
	    (rc = link_flows(cp, p, ni_end, nd_end, o.pcore_idx, st)) < 0 || (rc = walk(cp)) < 0) {
		if (rc == NXP_E_NOMEM)
			nxp__error_set(st, rc, -1, "critical path: out of memory");
		goto fail;
	}
	/* labels into the result's own storage; nodes are not kept */
	for (size_t i = 0; i < cp->nsteps; i++) {
		const char *l = intern(cp, cp->nodes[cp->steps[i].node].label);
		if (!l) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
			goto fail;
		}
		cp->steps[i].label = (char *)(uintptr_t)l;
	}
	{
		/* keep only the nodes on the path */
		node *keep = malloc((cp->nsteps ? cp->nsteps : 1) * sizeof(*keep));
		if (!keep) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "critical path: out of memory");
			goto fail;
		}
		for (size_t i = 0; i < cp->nsteps; i++) {
			keep[i] = cp->nodes[cp->steps[i].node];
			cp->steps[i].node = (int64_t)i;
		}
		free(cp->nodes);
		cp->nodes = keep;
		cp->nnodes = cp->cap = cp->nsteps;
	}
	/* breakdown: largest first (stable by name for ties) */
	for (size_t i = 1; i < cp->nres; i++)
		for (size_t j = i; j > 0; j--) {
			res_row *a = &cp->res[j - 1], *b = &cp->res[j];
			if (a->ns > b->ns || (a->ns == b->ns && strcmp(a->name, b->name) <= 0))
				break;
			res_row t = *a;
			*a = *b;
			*b = t;
		}
	*out = cp;
	return NXP_OK;
fail:
	nxp_critical_path_close(cp);
	return rc;
}

NXP_API int nxp_critical_path_interval(const nxp_critical_path *cp, int64_t *start_ts, int64_t *end_ts,
				       int64_t *total_ns)
{
	if (!cp)
		return NXP_E_INVAL;
	if (start_ts)
		*start_ts = cp->lo;
	if (end_ts)
		*end_ts = cp->hi;
	if (total_ns)
		*total_ns = cp->hi - cp->lo;
	return NXP_OK;
}

NXP_API size_t nxp_critical_path_step_count(const nxp_critical_path *cp)
{
	return cp ? cp->nsteps : 0;
}

NXP_API int nxp_critical_path_get_step(const nxp_critical_path *cp, size_t index, nxp_critical_step *out)
{
	if (!cp || !nxp__struct_size_ok(out, sizeof(nxp_critical_step)))
		return NXP_E_INVAL;
	if (index >= cp->nsteps)
		return NXP_E_RANGE;
	const step *s = &cp->steps[index];
	const node *n = &cp->nodes[s->node];
	nxp_critical_step r;
	memset(&r, 0, sizeof(r));
	r.struct_size = sizeof(r);
	r.table = n->table;
	r.id = n->id;
	r.start_ts = n->start;
	r.end_ts = n->end;
	r.resource = s->resource;
	r.label = s->label;
	r.via = s->via ? s->via : "";
	r.ns = s->ns;
	return NXP__STRUCT_OUT(out, r, sizeof(r));
}

NXP_API size_t nxp_critical_path_resource_count(const nxp_critical_path *cp)
{
	return cp ? cp->nres : 0;
}

NXP_API int nxp_critical_path_get_resource(const nxp_critical_path *cp, size_t index, nxp_critical_resource *out)
{
	if (!cp || !nxp__struct_size_ok(out, sizeof(nxp_critical_resource)))
		return NXP_E_INVAL;
	if (index >= cp->nres)
		return NXP_E_RANGE;
	const res_row *rr = &cp->res[index];
	nxp_critical_resource r;
	memset(&r, 0, sizeof(r));
	r.struct_size = sizeof(r);
	r.resource = rr->name;
	r.ns = rr->ns;
	if (rr->is_unit) {
		r.busy_ns = rr->busy_ns;
		r.slack_ns = (cp->hi - cp->lo) - rr->busy_ns;
	}
	return NXP__STRUCT_OUT(out, r, sizeof(r));
}
