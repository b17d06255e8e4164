/* SPDX-License-Identifier: MIT */
/* ntrace.pb: walk the root message's top level, unpack one TraceEvent at a
 * time, pair START/STOP by tracking_id into SystemProfileEvents rows.
 *
 * Hot path: protobuf-c unpacks into a per-event arena (its allocator hook),
 * reset before the next event; the event is reduced to an `evx` (the facts a
 * row needs) with its attributes rendered as JSON only when it has some; names
 * are interned with their group; a pending START is one allocation. */
#include "pbwire.h"
#include "status.h"
#include "system_priv.h"

#include "ntrace.pb-c.h"

#include <errno.h>
#include <jansson.h>
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

/* Total bytes of string-pool strings kept. */
#define POOL_MAX_BYTES (64u << 20)
/* Interned event names: at most this many, of at most this many bytes in all;
 * further names are used as they are (and copied with a pending START). */
#define INTERN_MAX_NAMES (1u << 16)
#define INTERN_MAX_BYTES (4u << 20)
/* Per-event arena: chunk size; larger requests get a chunk of their own,
 * freed at the next reset so one big event does not pin memory. */
#define ARENA_CHUNK (64u << 10)
#define ARENA_ALIGN 16u

/* ---- per-event arena behind protobuf-c's allocator hook ---- */
typedef struct achunk {
	struct achunk *next;
	size_t cap, used;
} achunk;
#define ACHUNK_HDR ((sizeof(achunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

typedef struct arena {
	achunk *cur;  /* bump target (ARENA_CHUNK bytes) */
	achunk *big;  /* chunks of single large requests */
} arena;

static void *arena_alloc(void *data, size_t size)
{
	arena *a = data;
	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (size > ARENA_CHUNK / 4) {
		achunk *c = malloc(ACHUNK_HDR + size);
		if (!c)
			return NULL;
		c->cap = c->used = size;
		c->next = a->big;
		a->big = c;
		return (char *)c + ACHUNK_HDR;
	}
	achunk *c = a->cur;
	if (!c || c->cap - c->used < size) {
		achunk *n = malloc(ACHUNK_HDR + ARENA_CHUNK);
		if (!n)
			return NULL;
		n->cap = ARENA_CHUNK;
		n->used = 0;
		n->next = c; /* older chunks are freed at the next reset */
		a->cur = c = n;
	}
	void *p = (char *)c + ACHUNK_HDR + c->used;
	c->used += size;
	return p;
}

static void arena_free(void *data, void *p)
{
	(void)data;
	(void)p; /* everything goes at the next reset */
}

static void free_chunks(achunk *c)
{
	while (c) {
		achunk *n = c->next;
		free(c);
		c = n;
	}
}

/* Forget everything allocated; keep one chunk for the next event. */
static void arena_reset(arena *a)
{
	free_chunks(a->big);
	a->big = NULL;
	if (a->cur) {
		free_chunks(a->cur->next);
		a->cur->next = NULL;
		a->cur->used = 0;
	}
}

static void arena_destroy(arena *a)
{
	free_chunks(a->big);
	free_chunks(a->cur);
	a->big = a->cur = NULL;
}

/* ---- interned event names (with their group, computed once) ---- */
typedef struct iname {
	uint64_t hash;
	size_t len;
	uint32_t group;
	char s[];
} iname;

typedef struct itab {
	iname **slot;
	size_t cap, n, bytes;
} itab;

static uint64_t name_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
	return h;
}

/* The interned copy of s (n bytes), or NULL when the table is full or memory
 * runs out (the caller then uses s as it is). */
static const iname *intern(itab *t, const char *s, size_t n)
{
	uint64_t h = name_hash(s, n);
	if (t->cap) {
		for (size_t j = h & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
			const iname *e = t->slot[j];
			if (e->hash == h && e->len == n && !memcmp(e->s, s, n))
				return e;
		}
	}
	if (t->n >= INTERN_MAX_NAMES || t->bytes + n > INTERN_MAX_BYTES)
		return NULL;
	if ((t->n + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		iname **ns = calloc(cap, sizeof(*ns));
		if (!ns)
			return NULL;
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->slot[i])
				continue;
			size_t j = t->slot[i]->hash & (cap - 1);
			while (ns[j])
				j = (j + 1) & (cap - 1);
			ns[j] = t->slot[i];
		}
		free(t->slot);
		t->slot = ns;
		t->cap = cap;
	}
	iname *e = malloc(sizeof(*e) + n + 1);
	if (!e)
		return NULL;
	e->hash = h;
	e->len = n;
	memcpy(e->s, s, n);
	e->s[n] = '\0';
	e->group = nxp_system_event_group(e->s);
	size_t j = h & (t->cap - 1);
	while (t->slot[j])
		j = (j + 1) & (t->cap - 1);
	t->slot[j] = e;
	t->n++;
	t->bytes += n;
	return e;
}

static void itab_free(itab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slot[i]);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- one event, reduced to what a row needs ---- */
enum { HAVE_ID = 1, HAVE_DURATION = 2, HAVE_PCORE = 4, HAVE_WORKER = 8, NAME_KEPT = 16 };

typedef struct evx {
	uint32_t have;            /* HAVE_*; NAME_KEPT: `name` outlives the event */
	int phase;
	int64_t ts, duration, id;
	int64_t thread_id, nc_idx, nd_idx, tracking_id, nrta_seq_id; /* -1 = absent */
	int64_t pcore_idx, worker_gid;                               /* from attributes */
	uint32_t group;
	const char *name;
	const char *attrs;        /* "{...}" of its attributes, NULL when none */
	size_t attrs_len;
	const char *flow, *stream; /* attribute values, NULL when absent */
} evx;

typedef struct pending {
	uint64_t key;        /* tracking_id */
	uint64_t seq;        /* arrival order */
	evx *ev;             /* one allocation holding the event and its strings */
	uint64_t offset;
} pending;

typedef struct pool_entry {
	char *s;
	uint32_t group;
} pool_entry;

typedef struct ntrace_reader {
	sysrd base;
	pbwalk w;
	sys_opts o;
	/* root facts */
	pool_entry *pool;
	size_t n_pool, cap_pool, pool_bytes;
	char *instance_id;
	int64_t pid;
	char pidbuf[24];
	const char *pidtext;
	/* pairing */
	pending *tab;        /* open addressing, linear probing */
	uint8_t *used;
	size_t tab_cap, n_pending;
	uint64_t seq;
	pending *drain;      /* unmatched STARTs at the end, in arrival order */
	size_t n_drain, i_drain;
	int at_end;
	/* decoding */
	arena mem;
	ProtobufCAllocator pba;
	itab names;
	/* row storage (valid until the next call) */
	evx xa, xb;
	evx *held;           /* a pending START returned in the current row */
	sbuf frag_a, frag_b, attrs;
	char typebuf[32], tidbuf[24];
	int64_t rows;
} ntrace_reader;

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

/* Name and group: the hint, else the string-pool entry event_type, else
 * "event_type_<n>", else "". */
static void event_name(ntrace_reader *r, const Ntff__TraceEvent *e, evx *x)
{
	if (e->hint && e->hint[0]) {
		const iname *n = intern(&r->names, e->hint, strlen(e->hint));
		if (n) {
			x->name = n->s;
			x->group = n->group;
			x->have |= NAME_KEPT;
		} else {
			x->name = e->hint;
			x->group = nxp_system_event_group(e->hint);
		}
	} else if (e->has_event_type && e->event_type < r->n_pool) {
		x->name = r->pool[e->event_type].s;
		x->group = r->pool[e->event_type].group;
		x->have |= NAME_KEPT;
	} else if (e->has_event_type) {
		char *end = r->typebuf + sizeof(r->typebuf);
		char *d = sb_u64(end, e->event_type);
		d -= 11;
		memcpy(d, "event_type_", 11);
		x->name = d;
		x->group = nxp_system_event_group(d);
	} else {
		x->name = "";
		x->group = 0;
		x->have |= NAME_KEPT;
	}
}

/* Signed decimal integer filling all of s, else 0. */
static int parse_i64(const char *s, int64_t *v)
{
	if (!*s)
		return 0;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (*end || errno == ERANGE)
		return 0;
	*v = x;
	return 1;
}

/* Reduce an unpacked event; its attributes are rendered as a JSON object
 * into `frag` (only when it has some).  Strings point into the event, the
 * pool, the name table or `frag`. */
static int decode(ntrace_reader *r, const Ntff__TraceEvent *e, evx *x, sbuf *frag)
{
	x->have = 0;
	x->phase = e->has_phase ? (int)e->phase : 0;
	x->ts = (int64_t)e->timestamp; /* times_fit() checked the range */
	x->duration = (int64_t)e->duration;
	if (e->has_duration)
		x->have |= HAVE_DURATION;
	x->id = (int64_t)e->id;
	if (e->has_id)
		x->have |= HAVE_ID;
	x->thread_id = e->has_thread_id ? (int64_t)e->thread_id : -1;
	x->nc_idx = e->has_nc_idx ? (int64_t)e->nc_idx : -1;
	x->nd_idx = e->has_nd_idx ? (int64_t)e->nd_idx : -1;
	x->tracking_id = e->has_tracking_id ? (int64_t)e->tracking_id : -1;
	x->nrta_seq_id = seq_id(e);
	x->pcore_idx = x->worker_gid = -1;
	x->flow = x->stream = NULL;
	x->attrs = NULL;
	x->attrs_len = 0;
	event_name(r, e, x);
	if (!e->n_attributes)
		return NXP_OK;
	sb_reset(frag);
	sb_put(frag, "{", 1);
	for (size_t i = 0; i < e->n_attributes; i++) {
		const char *k = e->attributes[i]->key ? e->attributes[i]->key : "";
		const char *v = e->attributes[i]->value ? e->attributes[i]->value : "";
		size_t kn = strlen(k);
		if (i)
			sb_put(frag, ",", 1);
		sb_json_str(frag, k, kn);
		sb_put(frag, ":", 1);
		sb_json_str(frag, v, strlen(v));
		/* Attributes that are also columns (by length first: most keys are none of these). */
		if (kn == 9 && !memcmp(k, "pcore_idx", 9)) {
			if (parse_i64(v, &x->pcore_idx))
				x->have |= HAVE_PCORE;
		} else if (kn == 10 && !memcmp(k, "worker_gid", 10)) {
			if (parse_i64(v, &x->worker_gid))
				x->have |= HAVE_WORKER;
		} else if (kn == 7 && !memcmp(k, "flow_id", 7)) {
			x->flow = v;
		} else if (kn == 19 && !memcmp(k, "framework_stream_id", 19)) {
			x->stream = v;
		}
	}
	sb_put(frag, "}", 1);
	if (frag->oom)
		return NXP_E_NOMEM;
	x->attrs = frag->s;
	x->attrs_len = frag->len;
	return NXP_OK;
}

/* A copy of x and its strings in one allocation (a pending START). */
static evx *keep(const evx *x)
{
	size_t nn = (x->have & NAME_KEPT) ? 0 : strlen(x->name) + 1;
	size_t an = x->attrs ? x->attrs_len + 1 : 0;
	size_t fn = x->flow ? strlen(x->flow) + 1 : 0;
	size_t sn = x->stream ? strlen(x->stream) + 1 : 0;
	evx *k = malloc(sizeof(*k) + nn + an + fn + sn);
	if (!k)
		return NULL;
	*k = *x;
	char *p = (char *)(k + 1);
	if (nn) {
		memcpy(p, x->name, nn);
		k->name = p;
		p += nn;
	}
	if (an) {
		memcpy(p, x->attrs, an);
		k->attrs = p;
		p += an;
	}
	if (fn) {
		memcpy(p, x->flow, fn);
		k->flow = p;
		p += fn;
	}
	if (sn) {
		memcpy(p, x->stream, sn);
		k->stream = p;
	}
	return k;
}

/* Fill a row from `a` (START or single event) and optional `b` (its STOP). */
static int make_row(ntrace_reader *r, const evx *a, const evx *b, uint32_t flags, uint64_t offset,
		    nxp_system_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->struct_size = sizeof(*ev);
	const evx *nm = (!a->name[0] && b) ? b : a;
	ev->name = nm->name;
	ev->id = (a->have & HAVE_ID) ? a->id : r->rows;
	ev->start_ts = a->ts;
	if (b) {
		ev->end_ts = b->ts;
		ev->phase = "X";
	} else if (a->have & HAVE_DURATION) {
		ev->end_ts = a->ts + a->duration; /* times_fit() checked the sum */
		ev->phase = "X";
	} else {
		ev->end_ts = ev->start_ts;
		ev->phase = (flags & NXP_SYSEV_UNPAIRED) ? (a->phase == NTFF__TRACE_EVENT__PHASE__STOP ? "E" : "B")
			  : (flags & NXP_SYSEV_UNMATCHED_START) ? "B"
			  : (flags & NXP_SYSEV_UNMATCHED_STOP) ? "E" : "i";
	}
	ev->duration_ns = ev->end_ts - ev->start_ts; /* both in [0, INT64_MAX] */
	ev->flags = flags | nm->group;
	ev->trace_event_source = nm->group == NXP_SYSEV_HARDWARE ? sys_src_hw : sys_src_rt;
	ev->instance_id = r->instance_id ? r->instance_id : r->o.instance_id;
	ev->process_id = r->pid;
	ev->pid = r->pidtext;
	ev->thread_id = a->thread_id;
	ev->tid = a->thread_id >= 0 ? sb_u64(r->tidbuf + sizeof(r->tidbuf), (uint64_t)a->thread_id) : "";
	ev->nc_idx = a->nc_idx;
	ev->nd_idx = a->nd_idx;
	/* attribute columns: the STOP's win over the START's */
	ev->pcore_idx = (b && (b->have & HAVE_PCORE)) ? b->pcore_idx : a->pcore_idx;
	ev->worker_gid = (b && (b->have & HAVE_WORKER)) ? b->worker_gid : a->worker_gid;
	const char *flow = (b && b->flow) ? b->flow : a->flow;
	const char *stream = (b && b->stream) ? b->stream : a->stream;
	ev->flow_id = flow ? flow : "";
	ev->framework_stream_id = stream ? stream : "";
	ev->category = "";
	ev->process_name = "";
	ev->thread_name = "";
	ev->tracking_id = a->tracking_id;
	ev->nrta_seq_id = a->nrta_seq_id;
	ev->file = "";
	ev->offset = (int64_t)offset;
	const evx *b_attrs = b && b->attrs ? b : NULL;
	if (a->attrs && b_attrs) {
		/* One object with the keys of both; a key on both sides keeps the
		 * STOP's value (as the attribute columns above do). */
		json_t *ja = json_loadb(a->attrs, a->attrs_len, 0, NULL);
		json_t *jb = json_loadb(b->attrs, b->attrs_len, 0, NULL);
		char *merged = ja && jb && json_object_update(ja, jb) == 0 ? json_dumps(ja, JSON_COMPACT) : NULL;
		json_decref(ja);
		json_decref(jb);
		if (!merged)
			return NXP_E_NOMEM; /* both fragments are our own valid JSON */
		sb_reset(&r->attrs);
		sb_puts(&r->attrs, merged);
		free(merged);
		if (r->attrs.oom)
			return NXP_E_NOMEM;
		ev->extra_attributes_json = r->attrs.s;
	} else {
		ev->extra_attributes_json = a->attrs ? a->attrs : b_attrs ? b->attrs : "{}";
	}
	r->rows++;
	return NXP_OK;
}

static void release_row(ntrace_reader *r)
{
	free(r->held);
	r->held = NULL;
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

/* An ntrace START/STOP/INSTANT event in the current field: unpack it into the
 * arena and turn it into a row (0), keep it pending (1), skip it (1), or fail. */
static int on_event(ntrace_reader *r, const pbfield *f, nxp_system_event *ev, nxp_status *st)
{
	arena_reset(&r->mem);
	Ntff__TraceEvent *e = ntff__trace_event__unpack(&r->pba, (size_t)f->v, f->data);
	if (!e)
		return nxp__error_set(st, NXP_E_PROTOBUF, (int64_t)f->offset,
				      "event at offset %llu does not unpack as ntff.TraceEvent",
				      (unsigned long long)f->offset);
	if (!times_fit(e)) {
		/* Its time does not fit int64 ns: a bad event, skipped and counted. */
		r->base.skipped++;
		return 1;
	}
	int pairing = !(r->o.flags & NXP_SYSTEM_NO_PAIRING) && e->has_tracking_id;
	size_t slot;
	if (e->phase == NTFF__TRACE_EVENT__PHASE__START && pairing) {
		if (decode(r, e, &r->xa, &r->frag_a))
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		if (tab_find(r, e->tracking_id, &slot) || r->n_pending >= r->o.max_pending)
			/* Table full, or a second START with the same id: return it
			 * now as unmatched rather than lose it. */
			return make_row(r, &r->xa, NULL, NXP_SYSEV_UNMATCHED_START, f->offset, ev) ? NXP_E_NOMEM : 0;
		pending p = {e->tracking_id, r->seq++, keep(&r->xa), f->offset};
		if (!p.ev || tab_insert(r, &p)) {
			free(p.ev);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		return 1;
	}
	if (e->phase == NTFF__TRACE_EVENT__PHASE__STOP && pairing) {
		pending *p = tab_find(r, e->tracking_id, &slot);
		if (!p) {
			if (decode(r, e, &r->xa, &r->frag_a))
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			return make_row(r, &r->xa, NULL, NXP_SYSEV_UNMATCHED_STOP, f->offset, ev) ? NXP_E_NOMEM : 0;
		}
		r->held = p->ev;
		tab_remove(r, slot);
		if (decode(r, e, &r->xb, &r->frag_b))
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		return make_row(r, r->held, &r->xb, 0, f->offset, ev) ? NXP_E_NOMEM : 0;
	}
	uint32_t fl = (e->phase == NTFF__TRACE_EVENT__PHASE__START || e->phase == NTFF__TRACE_EVENT__PHASE__STOP)
			      ? NXP_SYSEV_UNPAIRED
			      : 0;
	if (decode(r, e, &r->xa, &r->frag_a))
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	return make_row(r, &r->xa, NULL, fl, f->offset, ev) ? NXP_E_NOMEM : 0;
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
			r->held = p->ev;
			p->ev = NULL;
			if (make_row(r, r->held, NULL, NXP_SYSEV_UNMATCHED_START, p->offset, ev))
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			return NXP_OK;
		}
		pbfield f;
		int rc = pbwalk_next(&r->w, &f, st);
		r->base.bytes_read = (int64_t)sysin_tell(&r->w.in);
		if (rc == NXP_END) {
			if (start_drain(r))
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			continue;
		}
		if (rc)
			return rc;
		switch (f.num) {
		case F_POOL:
			if (f.wire != PB_LEN)
				break;
			if (r->pool_bytes + f.v > POOL_MAX_BYTES)
				return nxp__error_set(st, NXP_E_LIMIT, (int64_t)f.offset, "string pool over %u bytes",
						      POOL_MAX_BYTES);
			if (r->n_pool == r->cap_pool) {
				size_t cap = r->cap_pool ? r->cap_pool * 2 : 64;
				pool_entry *p = realloc(r->pool, cap * sizeof(*p));
				if (!p)
					return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
				r->pool = p;
				r->cap_pool = cap;
			}
			r->pool[r->n_pool].s = NULL;
			if (root_string(&f, &r->pool[r->n_pool].s))
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			r->pool[r->n_pool].group = nxp_system_event_group(r->pool[r->n_pool].s);
			r->n_pool++;
			r->pool_bytes += f.v;
			break;
		case F_INSTANCE:
			if (f.wire == PB_LEN && root_string(&f, &r->instance_id))
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		case F_PID:
			if (f.wire == PB_VARINT) {
				r->pid = (int64_t)(uint32_t)f.v;
				r->pidtext = sb_u64(r->pidbuf + sizeof(r->pidbuf), (uint64_t)r->pid);
			}
			break;
		case F_EVENTS:
			if (f.wire != PB_LEN)
				break;
			rc = on_event(r, &f, ev, st);
			if (rc == 1)
				continue;
			if (rc == NXP_E_NOMEM)
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			return rc;
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
		free(r->pool[i].s);
	free(r->pool);
	free(r->instance_id);
	for (size_t i = 0; i < r->tab_cap; i++)
		if (r->used[i])
			free(r->tab[i].ev);
	free(r->tab);
	free(r->used);
	for (size_t i = r->i_drain; i < r->n_drain; i++)
		free(r->drain[i].ev);
	free(r->drain);
	arena_destroy(&r->mem);
	itab_free(&r->names);
	sb_free(&r->frag_a);
	sb_free(&r->frag_b);
	sb_free(&r->attrs);
	free(r);
}

int ntrace_reader_open(sysrd **out, sysin *in, const sys_opts *o, nxp_status *st)
{
	ntrace_reader *r = calloc(1, sizeof(*r));
	if (!r) {
		sysin_close(in);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	r->base.next = ntrace_next;
	r->base.free = ntrace_free;
	r->o = *o;
	r->pid = -1;
	r->pidtext = "";
	r->pba.alloc = arena_alloc;
	r->pba.free = arena_free;
	r->pba.allocator_data = &r->mem;
	uint64_t load = 1u << F_EVENTS | 1u << F_POOL | 1u << F_INSTANCE;
	pbwalk_init(&r->w, in, ntrace_tags, sizeof(ntrace_tags) / sizeof(ntrace_tags[0]), load, o->max_message);
	*out = &r->base;
	return NXP_OK;
}
