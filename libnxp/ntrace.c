/* SPDX-License-Identifier: MIT */
/* ntrace.pb: walk the root message's top level, unpack one TraceEvent at a
 * time, pair START/STOP by tracking_id into SystemProfileEvents rows. */
#include "pbwire.h"
#include "status.h"
#include "system_priv.h"

#include "ntrace.pb-c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Root fields (ntrace.proto: NTrace). */
enum { F_EVENTS = 1, F_FILES = 2, F_POOL = 3, F_ARCH = 4, F_PID = 5, F_SESSION = 6, F_DATA_VERSION = 7,
       F_LNC = 8, F_INSTANCE = 9, F_PADDING = 15 };
/* An unknown varint field 16 is read as nrta_seq_id when 15 is absent (the
 * reverse-engineered write-up gives both numbers). */
#define NRTA_SEQ_ID_ALT 16

static const uint32_t ntrace_tags[] = {
	PB_TAG(F_EVENTS, PB_LEN), PB_TAG(F_FILES, PB_LEN), PB_TAG(F_POOL, PB_LEN),
	PB_TAG(F_ARCH, PB_LEN), PB_TAG(F_PID, PB_VARINT), PB_TAG(F_SESSION, PB_VARINT),
	PB_TAG(F_DATA_VERSION, PB_VARINT), PB_TAG(F_LNC, PB_VARINT), PB_TAG(F_INSTANCE, PB_LEN),
	PB_TAG(F_PADDING, PB_LEN),
};

/* Total bytes of interned strings kept. */
#define POOL_MAX_BYTES (64u << 20)

typedef struct pending {
	uint64_t key;        /* tracking_id */
	uint64_t seq;        /* arrival order */
	Ntff__TraceEvent *ev;
	uint64_t offset;
} pending;

typedef struct ntrace_reader {
	sysrd base;
	pbwalk w;
	sys_opts o;
	/* root facts */
	char **pool;
	size_t n_pool, cap_pool, pool_bytes;
	char *instance_id;
	int64_t pid;
	/* pairing */
	pending *tab;        /* open addressing, linear probing, key 0 reserved via `used` count */
	uint8_t *used;
	size_t tab_cap, n_pending;
	uint64_t seq;
	pending *drain;      /* unmatched STARTs at the end, in arrival order */
	size_t n_drain, i_drain;
	int at_end;
	/* row storage (freed on the next call) */
	Ntff__TraceEvent *cur_a, *cur_b;
	sbuf name, attrs, flow, stream, tid;
	char pidbuf[24];
	int64_t rows;
} ntrace_reader;

static void free_event(Ntff__TraceEvent *e)
{
	if (e)
		ntff__trace_event__free_unpacked(e, NULL);
}

static void release_row(ntrace_reader *r)
{
	free_event(r->cur_a);
	free_event(r->cur_b);
	r->cur_a = r->cur_b = NULL;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static int tab_grow(ntrace_reader *r)
{
	size_t cap = r->tab_cap ? r->tab_cap * 2 : 1024;
	pending *t = calloc(cap, sizeof(*t));
	uint8_t *u = calloc(cap, 1);
	if (!t || !u) {
		free(t);
		free(u);
		return NXP_E_NOMEM;
	}
	for (size_t i = 0; i < r->tab_cap; i++) {
		if (!r->used[i])
			continue;
		size_t j = hash64(r->tab[i].key) & (cap - 1);
		while (u[j])
			j = (j + 1) & (cap - 1);
		t[j] = r->tab[i];
		u[j] = 1;
	}
	free(r->tab);
	free(r->used);
	r->tab = t;
	r->used = u;
	r->tab_cap = cap;
	return NXP_OK;
}

static pending *tab_find(ntrace_reader *r, uint64_t key, size_t *slot)
{
	if (!r->tab_cap)
		return NULL;
	size_t j = hash64(key) & (r->tab_cap - 1);
	while (r->used[j]) {
		if (r->tab[j].key == key) {
			*slot = j;
			return &r->tab[j];
		}
		j = (j + 1) & (r->tab_cap - 1);
	}
	return NULL;
}

/* Remove slot j (backward-shift deletion keeps probe chains intact). */
static void tab_remove(ntrace_reader *r, size_t j)
{
	size_t mask = r->tab_cap - 1;
	r->used[j] = 0;
	r->n_pending--;
	for (size_t k = (j + 1) & mask; r->used[k]; k = (k + 1) & mask) {
		size_t h = hash64(r->tab[k].key) & mask;
		/* Move k into the hole j if its home h is not in (j, k]. */
		if ((k > j && (h <= j || h > k)) || (k < j && (h <= j && h > k))) {
			r->tab[j] = r->tab[k];
			r->used[j] = 1;
			r->used[k] = 0;
			j = k;
		}
	}
}

static int tab_insert(ntrace_reader *r, const pending *p)
{
	if ((r->n_pending + 1) * 2 > r->tab_cap && tab_grow(r))
		return NXP_E_NOMEM;
	size_t j = hash64(p->key) & (r->tab_cap - 1);
	while (r->used[j])
		j = (j + 1) & (r->tab_cap - 1);
	r->tab[j] = *p;
	r->used[j] = 1;
	r->n_pending++;
	if ((int64_t)r->n_pending > r->base.peak_pending)
		r->base.peak_pending = (int64_t)r->n_pending;
	return NXP_OK;
}

static const char *event_name(ntrace_reader *r, const Ntff__TraceEvent *e)
{
	if (e->hint && e->hint[0])
		return e->hint;
	if (e->has_event_type && e->event_type < r->n_pool)
		return r->pool[e->event_type];
	sb_reset(&r->name);
	if (e->has_event_type)
		sb_printf(&r->name, "event_type_%u", e->event_type);
	return sb_cstr(&r->name);
}

/* The row times of an event fit int64: timestamp <= INT64_MAX and, with a
 * duration, timestamp + duration too.  (Two such timestamps always have a
 * difference that fits, so a START/STOP pair needs no further check.) */
static int times_fit(const Ntff__TraceEvent *e)
{
	if (e->timestamp > (uint64_t)INT64_MAX)
		return 0;
	return !e->has_duration || e->duration <= (uint64_t)INT64_MAX - e->timestamp;
}

static int64_t seq_id(const Ntff__TraceEvent *e)
{
	if (e->has_nrta_seq_id)
		return (int64_t)e->nrta_seq_id;
	for (size_t i = 0; i < e->base.n_unknown_fields; i++) {
		const ProtobufCMessageUnknownField *u = &e->base.unknown_fields[i];
		uint64_t v;
		if (u->tag == NRTA_SEQ_ID_ALT && u->wire_type == PROTOBUF_C_WIRE_TYPE_VARINT &&
		    pb_decode_varint(u->data, u->len, &v))
			return (int64_t)v;
	}
	return -1;
}

static void add_attrs(ntrace_reader *r, const Ntff__TraceEvent *e, nxp_system_event *ev, int *first)
{
	for (size_t i = 0; i < e->n_attributes; i++) {
		const char *k = e->attributes[i]->key ? e->attributes[i]->key : "";
		const char *v = e->attributes[i]->value ? e->attributes[i]->value : "";
		sb_puts(&r->attrs, *first ? "" : ",");
		*first = 0;
		sb_json_str(&r->attrs, k, strlen(k));
		sb_puts(&r->attrs, ":");
		sb_json_str(&r->attrs, v, strlen(v));
		char *end;
		if (!strcmp(k, "pcore_idx") || !strcmp(k, "worker_gid")) {
			long long x = strtoll(v, &end, 10);
			if (*v && !*end)
				*(!strcmp(k, "pcore_idx") ? &ev->pcore_idx : &ev->worker_gid) = x;
		} else if (!strcmp(k, "flow_id")) {
			sb_reset(&r->flow);
			sb_puts(&r->flow, v);
			ev->flow_id = sb_cstr(&r->flow);
		} else if (!strcmp(k, "framework_stream_id")) {
			sb_reset(&r->stream);
			sb_puts(&r->stream, v);
			ev->framework_stream_id = sb_cstr(&r->stream);
		}
	}
}

/* Fill a row from `a` (START or single event) and optional `b` (its STOP). */
static int make_row(ntrace_reader *r, const Ntff__TraceEvent *a, const Ntff__TraceEvent *b, uint32_t flags,
		    uint64_t offset, nxp_system_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->struct_size = sizeof(*ev);
	const char *name = event_name(r, a);
	if (!name[0] && b)
		name = event_name(r, b);
	ev->name = name;
	ev->id = a->has_id ? (int64_t)a->id : r->rows;
	ev->start_ts = (int64_t)a->timestamp;
	if (b) {
		ev->end_ts = (int64_t)b->timestamp;
		ev->phase = "X";
	} else if (a->has_duration) {
		ev->end_ts = ev->start_ts + (int64_t)a->duration;
		ev->phase = "X";
	} else {
		ev->end_ts = ev->start_ts;
		ev->phase = (flags & NXP_SYSEV_UNPAIRED) ? (a->phase == NTFF__TRACE_EVENT__PHASE__STOP ? "E" : "B")
			  : (flags & NXP_SYSEV_UNMATCHED_START) ? "B"
			  : (flags & NXP_SYSEV_UNMATCHED_STOP) ? "E" : "i";
	}
	ev->duration_ns = ev->end_ts - ev->start_ts;
	uint32_t group = nxp_system_event_group(name);
	ev->flags = flags | group;
	ev->trace_event_source = group == NXP_SYSEV_HARDWARE ? "neuron_hw" : "neuron_rt";
	ev->instance_id = r->instance_id ? r->instance_id : r->o.instance_id;
	ev->process_id = r->pid;
	snprintf(r->pidbuf, sizeof(r->pidbuf), "%lld", (long long)r->pid);
	ev->pid = r->pid >= 0 ? r->pidbuf : "";
	ev->thread_id = a->has_thread_id ? (int64_t)a->thread_id : -1;
	sb_reset(&r->tid);
	if (a->has_thread_id)
		sb_printf(&r->tid, "%u", a->thread_id);
	ev->tid = sb_cstr(&r->tid);
	ev->nc_idx = a->has_nc_idx ? (int64_t)a->nc_idx : -1;
	ev->nd_idx = a->has_nd_idx ? (int64_t)a->nd_idx : -1;
	ev->pcore_idx = -1;
	ev->worker_gid = -1;
	ev->flow_id = "";
	ev->framework_stream_id = "";
	ev->category = "";
	ev->process_name = "";
	ev->thread_name = "";
	ev->tracking_id = a->has_tracking_id ? (int64_t)a->tracking_id : -1;
	ev->nrta_seq_id = seq_id(a);
	ev->file = "";
	ev->offset = (int64_t)offset;
	sb_reset(&r->attrs);
	sb_puts(&r->attrs, "{");
	int first = 1;
	add_attrs(r, a, ev, &first);
	if (b)
		add_attrs(r, b, ev, &first);
	sb_puts(&r->attrs, "}");
	if (r->attrs.oom || r->name.oom || r->tid.oom || r->flow.oom || r->stream.oom)
		return NXP_E_NOMEM;
	ev->extra_attributes_json = sb_cstr(&r->attrs);
	r->rows++;
	return NXP_OK;
}

static int cmp_seq(const void *x, const void *y)
{
	const pending *a = x, *b = y;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int start_drain(ntrace_reader *r)
{
	r->at_end = 1;
	if (!r->n_pending)
		return NXP_OK;
	r->drain = malloc(r->n_pending * sizeof(*r->drain));
	if (!r->drain)
		return NXP_E_NOMEM;
	for (size_t i = 0; i < r->tab_cap; i++)
		if (r->used[i])
			r->drain[r->n_drain++] = r->tab[i];
	qsort(r->drain, r->n_drain, sizeof(*r->drain), cmp_seq);
	memset(r->used, 0, r->tab_cap);
	r->n_pending = 0;
	return NXP_OK;
}

static int root_string(const pbfield *f, char **dst)
{
	char *s = malloc((size_t)f->v + 1);
	if (!s)
		return NXP_E_NOMEM;
	memcpy(s, f->data, (size_t)f->v);
	s[f->v] = '\0';
	free(*dst);
	*dst = s;
	return NXP_OK;
}

static int ntrace_next(sysrd *base, nxp_system_event *ev, nxp_status *st)
{
	ntrace_reader *r = (ntrace_reader *)base;
	release_row(r);
	for (;;) {
		if (r->at_end) {
			if (r->i_drain >= r->n_drain)
				return NXP_END;
			pending *p = &r->drain[r->i_drain++];
			r->cur_a = p->ev;
			p->ev = NULL;
			return make_row(r, r->cur_a, NULL, NXP_SYSEV_UNMATCHED_START, p->offset, ev);
		}
		pbfield f;
		int rc = pbwalk_next(&r->w, &f, st);
		r->base.bytes_read = (int64_t)sysin_tell(&r->w.in);
		if (rc == NXP_END) {
			if (start_drain(r))
				return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
			continue;
		}
		if (rc)
			return rc;
		switch (f.num) {
		case F_POOL:
			if (f.wire != PB_LEN)
				break;
			if (r->pool_bytes + f.v > POOL_MAX_BYTES)
				return nxp_fail(st, NXP_E_LIMIT, (int64_t)f.offset, "string pool over %u bytes",
						POOL_MAX_BYTES);
			if (r->n_pool == r->cap_pool) {
				size_t cap = r->cap_pool ? r->cap_pool * 2 : 64;
				char **p = realloc(r->pool, cap * sizeof(*p));
				if (!p)
					return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
				r->pool = p;
				r->cap_pool = cap;
			}
			r->pool[r->n_pool] = NULL;
			if (root_string(&f, &r->pool[r->n_pool]))
				return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
			r->n_pool++;
			r->pool_bytes += f.v;
			break;
		case F_INSTANCE:
			if (f.wire == PB_LEN && root_string(&f, &r->instance_id))
				return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		case F_PID:
			if (f.wire == PB_VARINT)
				r->pid = (int64_t)(uint32_t)f.v;
			break;
		case F_EVENTS: {
			if (f.wire != PB_LEN)
				break;
			Ntff__TraceEvent *e = ntff__trace_event__unpack(NULL, (size_t)f.v, f.data);
			if (!e)
				return nxp_fail(st, NXP_E_PROTOBUF, (int64_t)f.offset,
						"event at offset %llu does not unpack as ntff.TraceEvent",
						(unsigned long long)f.offset);
			if (!times_fit(e)) {
				/* Its time does not fit int64 ns: a bad event, skipped and counted. */
				free_event(e);
				r->base.skipped++;
				continue;
			}
			int pairing = !(r->o.flags & NXP_SYSTEM_NO_PAIRING) && e->has_tracking_id;
			if (e->phase == NTFF__TRACE_EVENT__PHASE__START && pairing) {
				size_t slot;
				if (tab_find(r, e->tracking_id, &slot) || r->n_pending >= r->o.max_pending) {
					/* Table full, or a second START with the same id:
					 * return it now as unmatched rather than lose it. */
					r->cur_a = e;
					return make_row(r, e, NULL, NXP_SYSEV_UNMATCHED_START, f.offset, ev);
				}
				pending p = {e->tracking_id, r->seq++, e, f.offset};
				if (tab_insert(r, &p)) {
					free_event(e);
					return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
				}
				continue;
			}
			if (e->phase == NTFF__TRACE_EVENT__PHASE__STOP && pairing) {
				size_t slot;
				pending *p = tab_find(r, e->tracking_id, &slot);
				if (!p) {
					r->cur_a = e;
					return make_row(r, e, NULL, NXP_SYSEV_UNMATCHED_STOP, f.offset, ev);
				}
				r->cur_a = p->ev;
				r->cur_b = e;
				tab_remove(r, slot);
				return make_row(r, r->cur_a, e, 0, f.offset, ev);
			}
			uint32_t fl = (e->phase == NTFF__TRACE_EVENT__PHASE__START ||
				       e->phase == NTFF__TRACE_EVENT__PHASE__STOP) ? NXP_SYSEV_UNPAIRED : 0;
			r->cur_a = e;
			return make_row(r, e, NULL, fl, f.offset, ev);
		}
		default:
			break; /* arch, session, versions, file references, unknown fields: not needed for rows */
		}
	}
}

static void ntrace_free(sysrd *base)
{
	ntrace_reader *r = (ntrace_reader *)base;
	release_row(r);
	pbwalk_close(&r->w);
	for (size_t i = 0; i < r->n_pool; i++)
		free(r->pool[i]);
	free(r->pool);
	free(r->instance_id);
	for (size_t i = 0; i < r->tab_cap; i++)
		if (r->used[i])
			free_event(r->tab[i].ev);
	free(r->tab);
	free(r->used);
	for (size_t i = r->i_drain; i < r->n_drain; i++)
		free_event(r->drain[i].ev);
	free(r->drain);
	sb_free(&r->name);
	sb_free(&r->attrs);
	sb_free(&r->flow);
	sb_free(&r->stream);
	sb_free(&r->tid);
	free(r);
}

int ntrace_reader_open(sysrd **out, sysin *in, const sys_opts *o, nxp_status *st)
{
	ntrace_reader *r = calloc(1, sizeof(*r));
	if (!r) {
		sysin_close(in);
		return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
	}
	r->base.next = ntrace_next;
	r->base.free = ntrace_free;
	r->o = *o;
	r->pid = -1;
	uint64_t load = 1u << F_EVENTS | 1u << F_POOL | 1u << F_INSTANCE;
	pbwalk_init(&r->w, in, ntrace_tags, sizeof(ntrace_tags) / sizeof(ntrace_tags[0]), load, o->max_message);
	*out = &r->base;
	return NXP_OK;
}
