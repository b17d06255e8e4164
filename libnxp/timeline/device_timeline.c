/* SPDX-License-Identifier: MIT */
/* The content of a device-profile timeline, written once for every sink.
 *
 * Six cursors (executions, instructions, DMA packets, semaphore updates,
 * errors, throttles) are merged by start time, so the events go out in time
 * order and a --max-events cut leaves a trace complete up to a point in time.
 * Memory is bounded by the profile's structure (tracks, lanes, interning), not
 * by the number of records.
 *
 * Lanes: Perfetto pairs slice begin/end on a track by time, so two slices of one
 * track must never partly overlap.  Every slice track keeps the end time of each
 * of its lanes; a slice goes to the first lane that is free at its start (lane
 * 0 is the track itself, lane k a child track "<name> lane k").  Records come
 * in start order, so a lane once free stays usable. */
#include "timeline_priv.h"

#include "abi_struct.h"
#include "ntff_priv.h"
#include "status.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

enum { T_EXEC, T_INSTR, T_DMA, T_SEM, T_ERR, T_THR, T_COUNT };
static const int table_ids[T_COUNT] = {NXP_TABLE_EXECUTION, NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET,
				       NXP_TABLE_SEMAPHORE_UPDATE, NXP_TABLE_ERROR, NXP_TABLE_THROTTLE};
static const char *const table_names[T_COUNT] = {"execution", "instruction", "DMA packet",
						  "semaphore update", "error", "throttle"};

/* Per-track state: lanes of a slice track, or a windowed counter. */
typedef struct tstate {
	uint64_t uuid; /* key (a hash of what the track is); 0 = empty slot */
	uint64_t id;   /* the track's uuid in the file: 1, 2, ... (small varints) */
	int32_t pid;
	char *name;
	int64_t *lane_end;
	uint64_t *lane_id; /* track id of lane k (k >= 1), 0 = not declared yet */
	size_t nlanes, cap;
	/* windowed counter */
	int64_t bucket;   /* current window index, INT64_MIN = none yet */
	double acc;       /* busy ns or bytes in the current window */
	int64_t busy_end; /* utilisation: end of the union of busy time so far */
} tstate;

/* Memo of uuid_of(tag, pcore, name) by the name's pointer (every name outlives
 * the export): the hot records name their engine / queue / semaphore with the
 * same few strings, and hashing them per record cost more than encoding. */
#define TL_MEMO 1024
#define TL_MEMO_NAME 48
typedef struct memo {
	const char *ptr;
	int64_t pcore;
	uint64_t key;
	char tag;
	char name[TL_MEMO_NAME];
} memo;

/* Flow arrows (see "flow arrows" below). */
typedef struct fl_done { int64_t id; uint64_t track; int64_t end; } fl_done;
typedef struct fl_setter { int64_t row; int tb; int64_t id, end; } fl_setter;
/* Flows waiting for their record, by record id: a ring of slots, slot
 * id & (nslots - 1), holding only ids in (last id written, last + nslots]
 * (grown when a flow's record is farther ahead), so each slot holds one
 * record's flows, in the order they were found: the first in the slot, the
 * others in a list of nodes.  A flow is stored as id << 1 | terminating (ids
 * count the flows: far below 2^63).  Node links are index + 1, 0 = none. */
typedef struct fl_node { uint64_t flow; int32_t next; } fl_node;
typedef struct fl_slot { uint64_t first; int32_t more, last; } fl_slot; /* first 0 = empty */
typedef struct fl_pends {
	fl_slot *slot;
	size_t nslots;     /* a power of two, 0 = none yet */
	fl_node *v;        /* nodes; free ones chained from free_head */
	size_t n, cap;
	int32_t free_head;
	size_t count;      /* flows waiting */
} fl_pends;
typedef struct fl_state {
	int on, held;           /* the cursor is live; e holds an edge not yet used */
	tl_flow_feed *fc;       /* the flow cursor, maybe on a thread of its own */
	nxp_flow e;
	fl_done *ring[2];       /* [0] instructions, [1] DMA packets */
	fl_setter *setter;
	fl_pends pend[2];       /* flows waiting for their record, by id */
	int64_t last_id[2];
	int64_t flows, lost, orphans;
} fl_state;

typedef struct dt {
	nxp_profile *p;
	tl_sink *sink;
	nxp_status *st;
	nxp_timeline_options o;
	nxp_timeline_stats stats;
	int64_t nc_idx;
	int64_t window, origin;
	int stopped;
	int64_t last_ts;
	tstate *ts;
	size_t cap, count;
	uint64_t ts_gen; /* bumped whenever ts moves (grows): a tstate pointer of an older one is stale */
	/* The tracks of each queue of the profile (by queue id): an instruction
	 * queue's engine slice track and utilisation counter, a DMA queue's slice
	 * track and GB/s counter; each with the ts_gen it was found in.  Found
	 * by key_of + ts_get on every record otherwise. */
	struct qtracks { tstate *slice, *counter; uint64_t sgen, cgen; } *qt;
	uint64_t notes_track;
	uint64_t next_id;
	memo *memo;
	uint64_t proc_id[64]; /* process track id of pcore 0..63, 0 = not yet */
	/* DMA "route" argument values by (source, dest) name pointers (static
	 * strings): built once, so every DMA event's strings stay put. */
	struct { const char *a, *b; char *route; } route[32];
	size_t nroute;
	fl_state fl;
} dt;

/* The two hot tables are decoded only as far as their events need (see "the
 * merge" below); the others into the fields of their public record that are
 * used.  Field names as in the public records. */
typedef struct ins_rec {
	int64_t id, start_ts, end_ts, evt_wait_time_ns;
	const ntff_queue *q;
	const nxp_static_instr *si; /* NULL: pc not in the NEFF */
	uint32_t pc;
	int32_t execution_index;
} ins_rec;

typedef struct dma_rec {
	int64_t id, start_ts, end_ts;
	const ntff_queue *q;
	const char *variable;
	uint32_t read_bytes, write_bytes, packet_aggregation_id;
	uint8_t source, dest;
	int32_t execution_index;
} dma_rec;

typedef union rec {
	nxp_execution e;
	ins_rec i;
	dma_rec d;
	nxp_semaphore_update s;
	nxp_error_record r;
	nxp_throttle t;
} rec;

static uint64_t uuid_of(char tag, int64_t pcore, const char *name, int64_t k)
{
	uint64_t h = nxp__tl_hash(&tag, 1, TL_FNV_OFFSET);
	h = nxp__tl_hash(&pcore, sizeof(pcore), h);
	if (name)
		h = nxp__tl_hash(name, strlen(name), h);
	h = nxp__tl_hash(&k, sizeof(k), h);
	h ^= h >> 29;
	return h ? h : 1;
}

static uint64_t key_of(dt *d, char tag, int64_t pcore, const char *name)
{
	if (!d->memo)
		return uuid_of(tag, pcore, name, 0);
	size_t j = (size_t)((((uintptr_t)name >> 3) ^ (uint64_t)pcore * 0x9e3779b97f4a7c15ull ^ (uint64_t)(unsigned char)tag) *
			    0x9e3779b97f4a7c15ull >> 54) & (TL_MEMO - 1);
	memo *m = &d->memo[j];
	/* Every name given here outlives the export (literals, the profile's
	 * engine, queue and semaphore names), so the pointer is the name. */
	if (m->ptr == name && m->pcore == pcore && m->tag == tag)
		return m->key;
	uint64_t k = uuid_of(tag, pcore, name, 0);
	size_t n = strlen(name);
	if (n < TL_MEMO_NAME) {
		m->ptr = name;
		m->pcore = pcore;
		m->tag = tag;
		m->key = k;
		memcpy(m->name, name, n + 1);
	}
	return k;
}

/* d->ts: an nxp__tl_oa_* table (timeline_priv.h) on the low bits of the
 * key's product (the closing loop walks it in slot order). */
_Static_assert(offsetof(tstate, uuid) == 0, "nxp__tl_oa_*: the key comes first");
#define TS_OA 0u

/* The state of an already declared track, or NULL. */
static tstate *ts_get(dt *d, uint64_t uuid)
{
	if (!d->cap)
		return NULL;
	tstate *t = &d->ts[nxp__tl_oa_slot(d->ts, d->cap, sizeof(tstate), uuid, TS_OA)];
	return t->uuid ? t : NULL;
}

static tstate *ts_find(dt *d, uint64_t uuid, int *isnew)
{
	*isnew = 0;
	tstate *known = ts_get(d, uuid);
	if (known)
		return known;
	/* Growing moves the entries: callers hold no tstate pointer across a
	 * declare() of a new track. */
	size_t cap = d->cap;
	if (nxp__tl_oa_reserve((void **)&d->ts, &d->cap, d->count, sizeof(tstate), 64, TS_OA))
		return NULL;
	if (cap != d->cap)
		d->ts_gen++;
	tstate *t = &d->ts[nxp__tl_oa_slot(d->ts, d->cap, sizeof(tstate), uuid, TS_OA)];
	t->uuid = uuid;
	t->bucket = INT64_MIN;
	t->busy_end = INT64_MIN;
	d->count++;
	*isnew = 1;
	return t;
}

/* Declare the track of key `uuid` once (parent: the parent's id, 0 = none);
 * returns its state (NULL with d->st set on failure). */
static tstate *declare(dt *d, uint64_t uuid, uint64_t parent, int kind, const char *name, int32_t pid,
		       int32_t rank, const char *unit)
{
	int isnew;
	tstate *t = ts_find(d, uuid, &isnew);
	if (!t) {
		nxp__error_set(d->st, NXP_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	if (!isnew)
		return t;
	t->pid = pid;
	t->name = strdup(name);
	if (!t->name) {
		nxp__error_set(d->st, NXP_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	t->id = ++d->next_id;
	tl_track tr = {t->id, parent, kind, name, pid, (int32_t)t->id, rank, unit};
	if (kind == TL_TRACK_PROCESS)
		tr.tid = 0;
	if (d->sink->track(d->sink, &tr))
		return NULL;
	d->stats.tracks++;
	return t;
}

static int32_t pid_of(int64_t pcore)
{
	return pcore >= 0 && pcore < 1000000 ? (int32_t)pcore + 1 : 1000000;
}

static uint64_t process_track(dt *d, int64_t pcore)
{
	if (pcore >= 0 && pcore < 64 && d->proc_id[pcore])
		return d->proc_id[pcore];
	uint64_t u = uuid_of('P', pcore, NULL, 0);
	char name[96];
	snprintf(name, sizeof(name), "NeuronCore %lld pcore %lld", (long long)d->nc_idx, (long long)pcore);
	tstate *t = declare(d, u, 0, TL_TRACK_PROCESS, name, pid_of(pcore), (int32_t)(pcore & 0x7fffffff), NULL);
	if (t && pcore >= 0 && pcore < 64)
		d->proc_id[pcore] = t->id;
	return t ? t->id : 0;
}

/* A slice track under pcore's group. */
static tstate *slice_track(dt *d, char tag, int64_t pcore, const char *name, int32_t rank)
{
	uint64_t key = key_of(d, tag, pcore, name);
	tstate *known = ts_get(d, key);
	if (known)
		return known;
	uint64_t parent = process_track(d, pcore);
	if (!parent)
		return NULL;
	return declare(d, key, parent, TL_TRACK_SLICE, name, pid_of(pcore), rank, NULL);
}

/* The uuid of the lane of track `t` free at `start`; the lane is then busy until `end`. */
static uint64_t lane_for(dt *d, tstate *t, int64_t start, int64_t end)
{
	size_t k = 0;
	while (k < t->nlanes && t->lane_end[k] > start)
		k++;
	if (k == t->nlanes) {
		if (t->nlanes == t->cap) {
			size_t ncap = t->cap ? t->cap * 2 : 4;
			int64_t *n = realloc(t->lane_end, ncap * sizeof(*n));
			if (n)
				t->lane_end = n;
			uint64_t *ni = n ? realloc(t->lane_id, ncap * sizeof(*ni)) : NULL;
			if (!ni) {
				nxp__error_set(d->st, NXP_E_NOMEM, -1, "out of memory");
				return 0;
			}
			t->lane_id = ni;
			for (size_t i = t->cap; i < ncap; i++)
				ni[i] = 0;
			t->cap = ncap;
		}
		t->nlanes++;
	}
	t->lane_end[k] = end;
	if (k == 0)
		return t->id;
	if (t->lane_id[k])
		return t->lane_id[k];
	uint64_t tkey = t->uuid;
	uint64_t u = uuid_of('L', (int64_t)t->uuid, NULL, (int64_t)k);
	char name[160];
	snprintf(name, sizeof(name), "%s lane %zu", t->name, k);
	uint64_t parent = t->id;
	int32_t pid = t->pid;
	/* declare() may move the table: t is not used after it. */
	tstate *l = declare(d, u, parent, TL_TRACK_SLICE, name, pid, (int32_t)k, NULL);
	if (!l)
		return 0;
	uint64_t id = l->id;
	t = ts_get(d, tkey); /* declare() may have moved the table */
	if (t)
		t->lane_id[k] = id;
	return id;
}

/* Counts one event against max_events; 1 when the export must stop now. */
static int budget(dt *d)
{
	if (d->o.max_events > 0 && d->stats.events >= d->o.max_events) {
		d->stats.truncated = 1;
		d->stopped = 1;
		return 1;
	}
	d->stats.events++;
	return 0;
}

static int note(dt *d, int64_t ts, const char *text)
{
	if (!d->notes_track) {
		tstate *t = declare(d, uuid_of('N', -1, NULL, 0), 0, TL_TRACK_SLICE, "notes", 0, -1, NULL);
		if (!t)
			return -1;
		d->notes_track = t->id;
	}
	tl_arg a = {"note", TL_ARG_STRING, 0, 0, text};
	tl_event e = {d->notes_track, ts, -1, text, &a, 1, NULL, 0, NULL, 0};
	return d->sink->event(d->sink, &e);
}

static int slice(dt *d, uint64_t track, int64_t ts, int64_t dur, const char *name, const tl_arg *args,
		 size_t nargs)
{
	if (!track)
		return -1;
	tl_event e = {track, ts, dur < 0 ? 0 : dur, name, args, nargs, NULL, 0, NULL, 0};
	return d->sink->event(d->sink, &e);
}

/* A slice whose strings all outlive the export (literals, NEFF and NTFF
 * string tables, the route cache): the sink interns them by pointer. */
static int stable_slice(dt *d, uint64_t track, int64_t ts, int64_t dur, const char *name, const tl_arg *args,
			size_t nargs)
{
	d->sink->stable_strings = 1;
	int rc = slice(d, track, ts, dur, name, args, nargs);
	d->sink->stable_strings = 0;
	return rc;
}

/* "source->dest" (each cut at 30 bytes), cached by the two name pointers
 * (nxp_dma_packet's source/dest are static strings); NULL on no memory. */
static const char *route_of(dt *d, const char *a, const char *b, char *tmp)
{
	for (size_t i = 0; i < d->nroute; i++)
		if (d->route[i].a == a && d->route[i].b == b)
			return d->route[i].route;
	size_t na = strlen(a), nb = strlen(b);
	if (na > 30)
		na = 30;
	if (nb > 30)
		nb = 30;
	memcpy(tmp, a, na);
	memcpy(tmp + na, "->", 2);
	memcpy(tmp + na + 2, b, nb);
	tmp[na + 2 + nb] = 0;
	if (d->nroute == sizeof(d->route) / sizeof(d->route[0]))
		return NULL; /* not cached: the caller writes tmp as an unstable string */
	char *r = strdup(tmp);
	if (!r)
		return NULL;
	d->route[d->nroute].a = a;
	d->route[d->nroute].b = b;
	d->route[d->nroute++].route = r;
	return r;
}

/* ---- windowed counters ---- */

static int64_t floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Emit the current window's value and, when windows were skipped, a 0 after it. */
static int counter_flush(dt *d, tstate *c, int64_t next_bucket, double scale)
{
	if (c->bucket == INT64_MIN)
		return 0;
	int64_t t0 = d->origin + c->bucket * d->window;
	if (budget(d))
		return 0;
	if (d->sink->counter(d->sink, c->id, t0, c->acc * scale))
		return -1;
	if (next_bucket > c->bucket + 1) {
		if (budget(d))
			return 0;
		if (d->sink->counter(d->sink, c->id, t0 + d->window, 0))
			return -1;
	}
	c->acc = 0;
	c->bucket = next_bucket;
	return 0;
}

/* Add busy time [a, b) (a >= every earlier b) to a utilisation counter. */
static int util_add(dt *d, tstate *c, int64_t a, int64_t b)
{
	double scale = 100.0 / (double)d->window;
	while (a < b && !d->stopped) {
		int64_t k = floordiv(a - d->origin, d->window);
		if (c->bucket == INT64_MIN)
			c->bucket = k;
		else if (k != c->bucket && counter_flush(d, c, k, scale))
			return -1;
		int64_t bend = d->origin + (k + 1) * d->window;
		int64_t e = b < bend ? b : bend;
		c->acc += (double)(e - a);
		a = e;
	}
	return 0;
}

static int bytes_add(dt *d, tstate *c, int64_t ts, double bytes)
{
	int64_t k = floordiv(ts - d->origin, d->window);
	if (c->bucket == INT64_MIN)
		c->bucket = k;
	else if (k != c->bucket && counter_flush(d, c, k, 1.0 / (double)d->window))
		return -1;
	c->acc += bytes;
	return 0;
}

/* A counter track under pcore's group, keyed by (tag, pcore, key_name); its
 * display name is fmt with key_name ("%s util %%"), formatted only when new. */
static tstate *counter_track(dt *d, char tag, int64_t pcore, const char *key_name, const char *fmt, int32_t rank,
			     const char *unit)
{
	uint64_t key = key_of(d, tag, pcore, key_name);
	tstate *known = ts_get(d, key);
	if (known)
		return known;
	uint64_t parent = process_track(d, pcore);
	if (!parent)
		return NULL;
	char name[128];
	snprintf(name, sizeof(name), fmt, key_name);
	return declare(d, key, parent, TL_TRACK_COUNTER, name, pid_of(pcore), rank, unit);
}

/* ---- flow arrows ----
 * Dependencies from the analysis module's flow cursor (nxp_flow_cursor_open:
 * its own streaming pass over the instruction, DMA and semaphore tables),
 * drawn as Perfetto flows from the slice that released a semaphore to the
 * instruction that waited on it: an instruction's semaphore update
 * (semaphore_signal) or a DMA transfer's completion (dma_completion) composed
 * with the wait it satisfied (semaphore_wait).  Semaphore values are counters,
 * which flows cannot attach to, hence the composition.
 *
 * Both ends ride on the slices' end packets (trace_processor binds a flow id
 * on an end packet to the slice it closes; the source's end is never later than
 * the waiter's, so the start is read first), which the sink holds back until
 * the stream's time reaches them; a flow found while both ends are still open
 * or not yet written is attached, one found later is left out (flows_lost).
 * The flow cursor runs TL_FLOW_AHEAD_NS ahead of the merge, so most edges are
 * known before their source slice closes.  Record ids are the cursors' own
 * (increasing in table order), which is how a flow's record is known to be
 * written already (id <= the last id written) or still to come (kept in a ring
 * by id until it is: fl_pends; a record that far ahead is written in id order,
 * so its slot is found directly, where a heap by id cost 15 % of the export in
 * cache misses).  Memory: the ring of recent slices, the setter cache and the
 * flows waiting for their record, all bounded by the look-ahead (the ring of
 * waiting flows by the records in it, at most TL_FLOW_PEND_SPAN). */
#define TL_FLOW_AHEAD_NS 1000000 /* 1 ms */
#define TL_FLOW_RING 32768       /* recent slices per table, by id */
#define TL_FLOW_SETTERS 16384    /* semaphore update row -> what released it */
#define TL_FLOW_PEND_SPAN (1u << 22) /* records a waiting flow's record may be ahead */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static int flows_init(dt *d)
{
	d->fl.ring[0] = calloc(TL_FLOW_RING, sizeof(fl_done));
	d->fl.ring[1] = calloc(TL_FLOW_RING, sizeof(fl_done));
	d->fl.setter = calloc(TL_FLOW_SETTERS, sizeof(fl_setter));
	if (!d->fl.ring[0] || !d->fl.ring[1] || !d->fl.setter)
		return nxp__error_set(d->st, NXP_E_NOMEM, -1, "out of memory");
	for (size_t i = 0; i < TL_FLOW_RING; i++)
		d->fl.ring[0][i].id = d->fl.ring[1][i].id = -1;
	for (size_t i = 0; i < TL_FLOW_SETTERS; i++)
		d->fl.setter[i].row = -1;
	d->fl.last_id[0] = d->fl.last_id[1] = -1;
	nxp_status fst;
	nxp_status_init(&fst);
	int rc = nxp__tl_flow_feed_open(&d->fl.fc, d->p, &fst);
	if (rc == NXP_E_NOMEM)
		return nxp__error_set(d->st, rc, -1, "%s", fst.message);
	if (rc) { /* no flows, the export goes on (a table the cursors cannot read is noted anyway) */
		d->fl.fc = NULL;
		return 0;
	}
	d->fl.on = 1;
	return 0;
}

static void flows_free(dt *d)
{
	nxp__tl_flow_feed_close(d->fl.fc);
	free(d->fl.ring[0]);
	free(d->fl.ring[1]);
	free(d->fl.setter);
	for (int tb = 0; tb < 2; tb++) {
		free(d->fl.pend[tb].v);
		free(d->fl.pend[tb].slot);
	}
	memset(&d->fl, 0, sizeof(d->fl));
}

/* Whether a flow of record (tb, id), not written yet, can wait for it: its
 * slot in the ring would be past TL_FLOW_PEND_SPAN records ahead otherwise
 * (only a table the merge stopped reading gets that far behind). */
static int pend_room(const dt *d, int tb, int64_t id)
{
	return (uint64_t)id - (uint64_t)d->fl.last_id[tb] <= TL_FLOW_PEND_SPAN;
}

/* Grow the ring of h to cover ids up to last + span: slot k holds the one id
 * of (last, last + nslots] that is k modulo nslots. */
static int pend_grow(dt *d, fl_pends *h, int64_t last, uint64_t span)
{
	size_t nn = h->nslots ? h->nslots : 256;
	while (nn < span)
		nn *= 2;
	fl_slot *ns = calloc(nn, sizeof(*ns));
	if (!ns)
		return nxp__error_set(d->st, NXP_E_NOMEM, -1, "out of memory");
	uint64_t first = (uint64_t)last + 1;
	for (size_t k = 0; k < h->nslots; k++) {
		if (!h->slot[k].first)
			continue;
		uint64_t id = first + ((k - first) & (h->nslots - 1));
		ns[id & (nn - 1)] = h->slot[k];
	}
	free(h->slot);
	h->slot = ns;
	h->nslots = nn;
	return 0;
}

/* Flow `flow` waits for record (tb, id) (id > the last id written, room checked). */
static int pend_push(dt *d, int tb, int64_t id, uint64_t flow, int term)
{
	fl_pends *h = &d->fl.pend[tb];
	int64_t last = d->fl.last_id[tb];
	uint64_t span = (uint64_t)id - (uint64_t)last;
	if (span > h->nslots && pend_grow(d, h, last, span))
		return -1;
	uint64_t v = flow << 1 | (uint64_t)(term != 0);
	fl_slot *s = &h->slot[(uint64_t)id & (h->nslots - 1)];
	h->count++;
	if (!s->first) {
		s->first = v;
		return 0;
	}
	int32_t i = h->free_head;
	if (i) {
		h->free_head = h->v[i - 1].next;
	} else {
		if (h->n == h->cap) {
			size_t nc = h->cap ? h->cap * 2 : 256;
			fl_node *nv = nc < INT32_MAX ? realloc(h->v, nc * sizeof(*nv)) : NULL;
			if (!nv)
				return nxp__error_set(d->st, NXP_E_NOMEM, -1, "out of memory");
			h->v = nv;
			h->cap = nc;
		}
		i = (int32_t)++h->n;
	}
	h->v[i - 1] = (fl_node){v, 0};
	if (s->more)
		h->v[s->last - 1].next = i;
	else
		s->more = i;
	s->last = i;
	return 0;
}

/* The slice of record (tb, id) if it is written and its end still held. */
static const fl_done *written(const dt *d, int tb, int64_t id)
{
	const fl_done *e = &d->fl.ring[tb][(uint64_t)id % TL_FLOW_RING];
	return e->id == id && e->end > d->last_ts ? e : NULL;
}

/* A flow from record (st, sid), whose release was at send, to record (wt, wid). */
static int link_flow(dt *d, int st, int64_t sid, int64_t send, int wt, int64_t wid)
{
	const fl_done *se = NULL, *we = NULL;
	if (sid <= d->fl.last_id[st] ? !(se = written(d, st, sid)) : !pend_room(d, st, sid))
		goto lost; /* its slice is closed already (or too far ahead) */
	if (wid <= d->fl.last_id[wt] ? (!(we = written(d, wt, wid)) || we->end < send) : !pend_room(d, wt, wid))
		goto lost;
	uint64_t id = ++d->sink->next_flow_id;
	int rc = se ? d->sink->flow(d->sink, se->track, id, 0) : pend_push(d, st, sid, id, 0);
	if (rc < 0)
		return -1;
	if (se && rc == 0)
		goto lost;
	rc = we ? d->sink->flow(d->sink, we->track, id, 1) : pend_push(d, wt, wid, id, 1);
	if (rc < 0)
		return -1;
	d->fl.flows++;
	return 0;
lost:
	d->fl.lost++;
	return 0;
}

static int on_edge(dt *d, const nxp_flow *f)
{
	fl_setter *s;
	switch (f->kind) {
	case NXP_FLOW_SEMAPHORE_SIGNAL:
	case NXP_FLOW_DMA_COMPLETION:
		s = &d->fl.setter[mix64((uint64_t)f->out_id) % TL_FLOW_SETTERS];
		s->row = f->out_id;
		s->tb = f->in_table_id == NXP_TABLE_DMA_PACKET;
		s->id = f->in_id;
		s->end = f->in_ts;
		return 0;
	case NXP_FLOW_SEMAPHORE_WAIT:
		s = &d->fl.setter[mix64((uint64_t)f->in_id) % TL_FLOW_SETTERS];
		if (s->row != f->in_id || f->out_table_id != NXP_TABLE_INSTRUCTION)
			return 0; /* what released that update is not known */
		return link_flow(d, s->tb, s->id, s->end, 0, f->out_id);
	default:
		return 0;
	}
}

/* Before the record at time t: every edge up to t + TL_FLOW_AHEAD_NS.  A flow
 * cursor error ends the flows (noted), not the export. */
static int flows_pull(dt *d, int64_t t)
{
	int64_t lim = t < INT64_MAX - TL_FLOW_AHEAD_NS ? t + TL_FLOW_AHEAD_NS : INT64_MAX;
	while (d->fl.on) {
		if (!d->fl.held) {
			d->fl.e.struct_size = sizeof(d->fl.e);
			int rc = nxp__tl_flow_feed_next(d->fl.fc, &d->fl.e);
			if (rc == NXP_END) {
				d->fl.on = 0;
				break;
			}
			if (rc < 0) {
				if (rc == NXP_E_NOMEM)
					return nxp__error_set(d->st, rc, -1, "out of memory");
				d->fl.on = 0; /* the table cursors report the damage themselves */
				break;
			}
			d->fl.held = 1;
		}
		if (d->fl.e.out_ts >= lim)
			break;
		d->fl.held = 0;
		if (on_edge(d, &d->fl.e))
			return -1;
	}
	return 0;
}

/* Empty the slot of id k: its flows are attached to `track` in the order
 * they were found (attach), or counted as orphans. */
static int pend_take(dt *d, fl_pends *h, uint64_t k, int attach, uint64_t track)
{
	fl_slot *s = &h->slot[k & (h->nslots - 1)];
	if (!s->first)
		return 0;
	uint64_t v = s->first;
	int32_t i = s->more;
	*s = (fl_slot){0, 0, 0};
	for (;;) {
		h->count--;
		if (!attach)
			d->fl.orphans++; /* a record the table cursor skipped */
		else if (d->sink->flow(d->sink, track, v >> 1, (int)(v & 1)) < 0)
			return -1;
		if (!i)
			return 0;
		fl_node *n = &h->v[i - 1];
		int32_t next = n->next;
		v = n->flow;
		n->next = h->free_head;
		h->free_head = i;
		i = next;
	}
}

/* Record (tb, id) was just written as a slice on `track` ending at `end`:
 * remember it, attach the flows that were waiting for it. */
static int flows_written(dt *d, int tb, int64_t id, uint64_t track, int64_t end)
{
	if (!d->fl.ring[0])
		return 0;
	fl_done *e = &d->fl.ring[tb][(uint64_t)id % TL_FLOW_RING];
	e->id = id;
	e->track = track;
	e->end = end;
	int64_t last = d->fl.last_id[tb];
	if (id <= last)
		return 0; /* every waiting flow's record is later */
	d->fl.last_id[tb] = id;
	fl_pends *h = &d->fl.pend[tb];
	if (!h->count)
		return 0;
	/* Records between the last one written and this one were skipped by the
	 * table cursor: their flows are orphans (every slot when it is that far). */
	uint64_t skip = (uint64_t)id - (uint64_t)last - 1;
	if (skip > h->nslots)
		skip = h->nslots;
	for (uint64_t k = 1; k <= skip && h->count; k++)
		if (pend_take(d, h, (uint64_t)last + k, 0, 0))
			return -1;
	return h->count ? pend_take(d, h, (uint64_t)id, 1, track) : 0;
}

/* ---- one record of each table ---- */

#define ARG_I(n, v) args[na++] = (tl_arg){(n), TL_ARG_INT, (v), 0, NULL}
#define ARG_D(n, v) args[na++] = (tl_arg){(n), TL_ARG_DOUBLE, 0, (v), NULL}
#define ARG_S(n, v) args[na++] = (tl_arg){(n), TL_ARG_STRING, 0, 0, (v)}

static int do_execution(dt *d, const nxp_execution *r)
{
	tstate *t = slice_track(d, 'X', r->pcore_idx, "executions", 0);
	if (!t)
		return -1;
	int64_t dur = r->execution_end_ts - r->execution_start_ts;
	uint64_t lane = lane_for(d, t, r->execution_start_ts, r->execution_start_ts + (dur < 0 ? 0 : dur));
	char name[48];
	snprintf(name, sizeof(name), "execution %d", (int)r->execution_index);
	tl_arg args[4];
	size_t na = 0;
	ARG_I("execution_index", r->execution_index);
	ARG_S("neff_name", r->neff_name);
	ARG_I("num_subgraphs", r->num_subgraphs);
	ARG_I("row_count", r->row_count);
	return slice(d, lane, r->execution_start_ts, dur, name, args, na);
}

/* The cache of queue q's tracks (NULL: none). */
static inline struct qtracks *qtracks_of(const dt *d, const ntff_queue *q)
{
	return d->qt ? &d->qt[q - d->p->queues] : NULL;
}

/* Track states from the queue cache: the cached one while ts has not moved. */
static inline tstate *cached(const dt *d, tstate *t, uint64_t gen)
{
	return t && gen == d->ts_gen ? t : NULL;
}

static int do_instruction(dt *d, const ins_rec *r)
{
	const ntff_queue *q = r->q;
	const nxp_static_instr *si = r->si;
	const char *tname = q->engine_name && *q->engine_name ? q->engine_name : "engine";
	int32_t eng = q->engine >= 0 && q->engine < 64 ? q->engine : 63;
	struct qtracks *qc = qtracks_of(d, q);
	tstate *t = qc ? cached(d, qc->slice, qc->sgen) : NULL;
	if (!t) {
		t = slice_track(d, 'E', q->pcore, tname, 10 + eng);
		if (!t)
			return -1;
		if (qc) {
			qc->slice = t;
			qc->sgen = d->ts_gen;
		}
	}
	int64_t dur = r->end_ts - r->start_ts;
	if (dur < 0)
		dur = 0;
	uint64_t lane = lane_for(d, t, r->start_ts, r->start_ts + dur);
	tl_arg args[20];
	size_t na = 0;
	/* The columns of the public record's NEFF join (records.c, fill_instruction),
	 * read from the NEFF's static instruction; a pc it lacks has none. */
	ARG_S("operands", si ? si->operands : "");
	ARG_I("pc", (int64_t)r->pc);
	if (r->execution_index >= 0)
		ARG_I("execution", r->execution_index);
	if (r->evt_wait_time_ns)
		ARG_I("semaphore_wait_ns", r->evt_wait_time_ns);
	if (si) {
		if (si->is_transpose) {
			if (si->raw_flops)
				ARG_I("flops_transpose", si->raw_flops);
		} else if (si->raw_flops) {
			int64_t adj = (int64_t)((double)si->raw_flops * d->p->flops_mult[si->mm_dtype]);
			ARG_I("flops", si->raw_flops);
			if (adj && adj != si->raw_flops)
				ARG_I("adjusted_flops", adj);
		}
		if (si->hbm_read_bytes)
			ARG_I("hbm_read_bytes", si->hbm_read_bytes);
		if (si->hbm_write_bytes)
			ARG_I("hbm_write_bytes", si->hbm_write_bytes);
		if (si->sbuf_read_bytes)
			ARG_I("sbuf_read_bytes", si->sbuf_read_bytes);
		if (si->sbuf_write_bytes)
			ARG_I("sbuf_write_bytes", si->sbuf_write_bytes);
		if (si->psum_read_bytes)
			ARG_I("psum_read_bytes", si->psum_read_bytes);
		if (si->psum_write_bytes)
			ARG_I("psum_write_bytes", si->psum_write_bytes);
		if (si->spill_save_bytes)
			ARG_I("spill_save_bytes", si->spill_save_bytes);
		if (si->spill_reload_bytes)
			ARG_I("spill_reload_bytes", si->spill_reload_bytes);
		if (si->scalar_activation_fn && *si->scalar_activation_fn)
			ARG_S("activation", si->scalar_activation_fn);
		if (si->performance_mode && *si->performance_mode)
			ARG_S("performance_mode", si->performance_mode);
	}
	/* opcode, operands, activation, performance mode: NEFF strings or literals */
	const char *opcode = si && si->opcode && *si->opcode ? si->opcode : "unknown";
	if (stable_slice(d, lane, r->start_ts, dur, opcode, args, na) ||
	    flows_written(d, 0, r->id, lane, r->start_ts + dur))
		return -1;

	/* Utilisation of the engine over windows: the union of its busy time. */
	tstate *c = qc ? cached(d, qc->counter, qc->cgen) : NULL;
	if (!c) {
		c = counter_track(d, 'U', q->pcore, tname, "%s util %%", 200 + eng, "%");
		if (!c)
			return -1;
		if (qc) {
			qc->counter = c;
			qc->cgen = d->ts_gen;
		}
	}
	int64_t a = r->start_ts > c->busy_end ? r->start_ts : c->busy_end;
	int64_t b = r->start_ts + dur;
	if (b > c->busy_end)
		c->busy_end = b;
	return a < b ? util_add(d, c, a, b) : 0;
}

/* nxp_dma_packet's source / dest names, with "" (none) as the timeline writes it. */
static const char *const dma_memory[] = {"?", "sbuf", "psum", "hbm"};

static int do_dma(dt *d, const dma_rec *r)
{
	const char *q = r->q->name && *r->q->name ? r->q->name : "dma";
	struct qtracks *qc = qtracks_of(d, r->q);
	tstate *t = qc ? cached(d, qc->slice, qc->sgen) : NULL;
	if (!t) {
		t = slice_track(d, 'Q', r->q->pcore, q, 100);
		if (!t)
			return -1;
		if (qc) {
			qc->slice = t;
			qc->sgen = d->ts_gen;
		}
	}
	int64_t duration = r->end_ts - r->start_ts;
	int64_t dur = duration < 0 ? 0 : duration;
	int64_t transfer = r->read_bytes > r->write_bytes ? r->read_bytes : r->write_bytes;
	/* as nxp_dma_packet.throughput (records.c, fill_dma) */
	double throughput = duration > 0 ? (double)transfer / ((double)duration * 1e-9) : 0.0;
	uint64_t lane = lane_for(d, t, r->start_ts, r->start_ts + dur);
	/* Few arguments: DMA packets are most of a trace's events. */
	tl_arg args[4];
	size_t na = 0;
	char tmp[64];
	const char *route = route_of(d, dma_memory[r->source], dma_memory[r->dest], tmp);
	int stable = route != NULL;
	if (!route)
		route = tmp;
	ARG_I("bytes", transfer);
	/* The DmaPacket table's throughput (bytes per second) in whole MB/s: the
	 * issue asks for it on the slice, and MB/s is a 2-3 byte varint where
	 * bytes per second would take 5-6 on most of a trace's events. */
	ARG_I("throughput_mbps", (int64_t)(throughput / 1e6 + 0.5));
	ARG_S("route", route);
	ARG_I("transfer", r->packet_aggregation_id);
	/* variable and queue name: the NTFF's string table, kept by the profile */
	const char *name = r->variable && *r->variable ? r->variable : q;
	if ((stable ? stable_slice : slice)(d, lane, r->start_ts, dur, name, args, na) ||
	    flows_written(d, 1, r->id, lane, r->start_ts + dur))
		return -1;
	tstate *c = qc ? cached(d, qc->counter, qc->cgen) : NULL;
	if (!c) {
		c = counter_track(d, 'B', r->q->pcore, "DMA GB/s", "%s", 250, "GB/s");
		if (!c)
			return -1;
		if (qc) {
			qc->counter = c;
			qc->cgen = d->ts_gen;
		}
	}
	return bytes_add(d, c, r->start_ts, (double)transfer);
}

static int do_semaphore(dt *d, const nxp_semaphore_update *r)
{
	const char *id = r->id && *r->id ? r->id : "S[?]";
	uint64_t key = key_of(d, 'S', r->pcore_idx, id);
	tstate *known = ts_get(d, key);
	if (known)
		return d->sink->counter(d->sink, known->id, r->timestamp, (double)r->value);
	uint64_t proc = process_track(d, r->pcore_idx);
	if (!proc)
		return -1;
	tstate *g = declare(d, uuid_of('G', r->pcore_idx, "semaphores", 0), proc, TL_TRACK_SLICE, "semaphores",
			    pid_of(r->pcore_idx), 300, NULL);
	if (!g)
		return -1;
	uint64_t group = g->id;
	tstate *c = declare(d, key, group, TL_TRACK_COUNTER, id, pid_of(r->pcore_idx),
			    r->semaphore_idx, NULL);
	return c ? d->sink->counter(d->sink, c->id, r->timestamp, (double)r->value) : -1;
}

static int do_error(dt *d, const nxp_error_record *r)
{
	tstate *t = slice_track(d, 'R', r->pcore_idx, "errors", 1);
	if (!t)
		return -1;
	tl_arg args[4];
	size_t na = 0;
	ARG_S("description", r->description);
	ARG_I("error_type_id", r->error_type_id);
	ARG_S("metadata_hex", r->metadata_hex);
	tl_event e = {t->id, r->timestamp, -1, r->type && *r->type ? r->type : "error", args, na, NULL, 0, NULL, 0};
	return d->sink->event(d->sink, &e);
}

static int do_throttle(dt *d, const nxp_throttle *r)
{
	tstate *t = slice_track(d, 'T', r->pcore_idx, "throttle", 2);
	if (!t)
		return -1;
	int64_t dur = r->duration < 0 ? 0 : r->duration;
	uint64_t lane = lane_for(d, t, r->timestamp, r->timestamp + dur);
	tl_arg args[3];
	size_t na = 0;
	ARG_I("k", r->k);
	ARG_I("n", r->n);
	ARG_S("type", r->type);
	return slice(d, lane, r->timestamp, dur, r->type && *r->type ? r->type : "throttle", args, na);
}

/* ---- the merge ----
 * Each table is read through the NTFF module's internal iteration (ntff_iter,
 * ntff_priv.h) exactly as its public cursor reads it -- the same queues,
 * window and engine filter, time order, record checks, bad-record counts,
 * stats and errors (cursor.c, records.c's next_with) -- but each record is
 * decoded only into what its events use: filling the public records (~280
 * bytes each, every column of the NEFF join) cost a sixth of the export. */

static const char *const error_types[] = {"Custom Notification", "Errors", "Warnings"};

typedef struct src {
	ntff_iter it;
	int open; /* it is open (its stats are counted, it is closed) */
	rec r;
	int64_t ts;
	int live;
} src;

static int64_t rec_ts(int t, const rec *r)
{
	switch (t) {
	case T_EXEC: return r->e.execution_start_ts;
	case T_INSTR: return r->i.start_ts;
	case T_DMA: return r->d.start_ts;
	case T_SEM: return r->s.timestamp;
	case T_ERR: return r->r.timestamp;
	default: return r->t.timestamp;
	}
}

/* Whether the record passes the execution filter (tables with the field). */
static int keep(const dt *d, int t, const rec *r)
{
	if (d->o.execution < 0)
		return 1;
	switch (t) {
	case T_EXEC: return r->e.execution_index == d->o.execution;
	case T_INSTR: return r->i.execution_index < 0 || r->i.execution_index == d->o.execution;
	case T_DMA: return r->d.execution_index < 0 || r->d.execution_index == d->o.execution;
	default: return 1;
	}
}

/* Decode the raw record of table t into *r as its table's fill would (the
 * same checks, the same values): NXP_OK, NXP__BAD_RECORD, or a negative error
 * recorded by ntff_scan_fail. */
static inline __attribute__((always_inline)) int decode(ntff_scan *sc, int t, const ntff_qreader *qr, rec *r)
{
	const nxp_profile *p = sc->p;
	const ntff_queue *q = qr->q;
	const uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	switch (t) {
	case T_INSTR: {
		nxp_ntff_instruction_note n;
		ntff_decode_instruction(qr->rec, &n);
		if (!ntff_instruction_ok(&n))
			return NXP__BAD_RECORD;
		ins_rec *i = &r->i;
		i->id = sc->next_id;
		i->start_ts = ntff_tick_ns(p, n.start_tick);
		i->end_ts = ntff_tick_ns(p, n.end_tick);
		i->evt_wait_time_ns = ntff_tick_ns(p, n.wait_ticks);
		i->q = q;
		i->si = n.pc < q->nsi ? &q->si[n.pc] : NULL;
		i->pc = n.pc;
		i->execution_index = n.execution_index;
		sc->stats.unknown_pcs += !i->si;
		return NXP_OK;
	}
	case T_DMA: {
		nxp_ntff_dma_note n;
		ntff_decode_dma(qr->rec, &n);
		if (!ntff_dma_ok(p, &n))
			return NXP__BAD_RECORD;
		dma_rec *m = &r->d;
		m->id = sc->next_id;
		m->start_ts = ntff_tick_ns(p, n.start_tick);
		m->end_ts = ntff_tick_ns(p, n.end_tick);
		m->q = q;
		m->variable = n.variable ? ntff_str(p, n.variable) : "unknown";
		m->read_bytes = n.read_bytes;
		m->write_bytes = n.write_bytes;
		m->packet_aggregation_id = n.packet_aggregation_id;
		m->source = n.source;
		m->dest = n.dest;
		m->execution_index = n.execution_index;
		return NXP_OK;
	}
	case T_SEM: {
		nxp_ntff_semaphore_note n;
		ntff_decode_semaphore(qr->rec, &n);
		if (!ntff_semaphore_ok(&n))
			return NXP__BAD_RECORD;
		const char *id = ntff_semaphore_name(sc->p, n.semaphore_idx);
		if (!id)
			return ntff_scan_fail(sc, NXP_E_NOMEM);
		r->s.timestamp = (int64_t)(n.tick / tpn);
		r->s.id = id;
		r->s.semaphore_idx = n.semaphore_idx;
		r->s.value = n.value;
		r->s.pcore_idx = q->pcore;
		return NXP_OK;
	}
	case T_ERR: {
		nxp_ntff_error_note n;
		ntff_decode_error(qr->rec, &n);
		if (!ntff_error_ok(p, &n))
			return NXP__BAD_RECORD;
		const char *h = ntff_hex_string(sc->p, n.metadata);
		if (!h)
			return ntff_scan_fail(sc, NXP_E_NOMEM);
		r->r.timestamp = (int64_t)(n.tick / tpn);
		r->r.type = error_types[n.type];
		r->r.error_type_id = n.error_type_id;
		r->r.description = ntff_str(p, n.description);
		r->r.metadata_hex = h;
		r->r.pcore_idx = q->pcore;
		return NXP_OK;
	}
	case T_THR: {
		nxp_ntff_throttle_note n;
		ntff_decode_throttle(qr->rec, &n);
		if (!ntff_throttle_ok(p, &n))
			return NXP__BAD_RECORD;
		r->t.timestamp = (int64_t)(n.tick / tpn);
		r->t.duration = (int64_t)(n.duration_ticks / tpn);
		r->t.k = n.k;
		r->t.n = n.n;
		r->t.type = n.type ? ntff_str(p, n.type) : "unknown";
		r->t.pcore_idx = q->pcore;
		return NXP_OK;
	}
	default: {
		nxp_ntff_execution_note n;
		ntff_decode_execution(qr->rec, &n);
		if (!ntff_execution_ok(p, &n))
			return NXP__BAD_RECORD;
		r->e.execution_index = n.execution_index;
		r->e.neff_name = ntff_str(p, n.neff_name);
		r->e.execution_start_ts = (int64_t)(n.start_tick / tpn);
		r->e.execution_end_ts = (int64_t)(n.end_tick / tpn);
		r->e.num_subgraphs = n.num_subgraphs;
		r->e.row_count = n.row_count;
		r->e.pcore_idx = q->pcore;
		return NXP_OK;
	}
	}
}

/* The next good record of source t into s->r, as the cursor's next: bad ones
 * counted and stepped over; an error moving past the good one is kept (the
 * scan failed) and returned by the next call.  NXP_OK, NXP_END or a negative
 * error. */
static inline __attribute__((always_inline)) int fetch(src *s, int t)
{
	ntff_iter *it = &s->it;
	ntff_scan *sc = &it->s;
	if (sc->failed)
		return sc->err.code;
	ntff_qreader *qr;
	while ((qr = ntff_iter_peek(it))) {
		int rc = decode(sc, t, qr, &s->r);
		if (rc < 0)
			return rc;
		if (rc == NXP__BAD_RECORD)
			ntff_scan_bad(sc, 0, ntff_qreader_offset(qr));
		int arc = ntff_iter_step(it);
		if (rc == NXP_OK) {
			sc->stats.records++;
			return NXP_OK;
		}
		if (arc < 0)
			return arc;
	}
	return NXP_END;
}

/* Fetch the next kept record of source t.  A read error ends the table with a note. */
static int advance(dt *d, src *s, int t)
{
	for (;;) {
		int rc;
		switch (t) { /* one fetch per table: decode's switch folds away */
		case T_INSTR: rc = fetch(s, T_INSTR); break;
		case T_DMA: rc = fetch(s, T_DMA); break;
		default: rc = fetch(s, t); break;
		}
		if (rc == NXP_END) {
			s->live = 0;
			return 0;
		}
		if (rc < 0) {
			const nxp_status *cst = &s->it.s.err;
			char text[NXP_STATUS_MESSAGE_MAX + 96];
			snprintf(text, sizeof(text), "reading the %s table stopped: %s", table_names[t],
				 cst->message[0] ? cst->message : nxp_strerror(rc));
			d->stats.read_errors++;
			s->live = 0;
			return note(d, d->last_ts, text);
		}
		if (keep(d, t, &s->r)) {
			s->ts = rec_ts(t, &s->r);
			s->live = 1;
			return 0;
		}
	}
}

/* Open source t's iteration over the window of co, positioned at its start,
 * as nxp_cursor_open does (the status filled on failure, as its). */
static int src_open(dt *d, src *s, int t, const nxp_cursor_options *co)
{
	if (co->engine < -1 || co->engine >= NXP_ENGINE_COUNT || co->pcore_idx < -1)
		return nxp__error_set(d->st, NXP_E_INVAL, -1, "nxp_cursor_open: engine %d or pcore_idx %lld out of range",
				co->engine, (long long)co->pcore_idx);
	uint64_t from = co->start_ts == INT64_MIN ? 0 : ntff_tick_of(d->p, co->start_ts);
	uint64_t to = co->end_ts == INT64_MAX ? UINT64_MAX : ntff_tick_of(d->p, co->end_ts);
	int rc = ntff_iter_open(&s->it, d->p, ntff_table_get(table_ids[t]), co, from, to);
	if (rc)
		return nxp__error_set(d->st, rc, -1, "out of memory");
	if ((rc = ntff_iter_seek(&s->it, from)) < 0) {
		nxp_status_copy(d->st, &s->it.s.err);
		ntff_iter_close(&s->it);
		return rc;
	}
	s->open = 1;
	return 0;
}

static int dispatch(dt *d, int t, const rec *r)
{
	switch (t) {
	case T_EXEC: return do_execution(d, &r->e);
	case T_INSTR: return do_instruction(d, &r->i);
	case T_DMA: return do_dma(d, &r->d);
	case T_SEM: return do_semaphore(d, &r->s);
	case T_ERR: return do_error(d, &r->r);
	default: return do_throttle(d, &r->t);
	}
}

/* The time of execution N: [min start, max end] over its records. */
static int execution_window(dt *d, int64_t *from, int64_t *to)
{
	nxp_cursor *c = NULL;
	int rc = nxp_cursor_open(&c, d->p, NXP_TABLE_EXECUTION, NULL, d->st);
	if (rc == NXP_E_NOMEM || rc == NXP_E_INVAL)
		return rc;
	if (rc) {
		/* An unreadable execution table holds no execution N. */
		char why[NXP_STATUS_MESSAGE_MAX];
		snprintf(why, sizeof(why), "%s", d->st && d->st->message[0] ? d->st->message : nxp_strerror(rc));
		return nxp__error_set(d->st, NXP_E_INVAL, -1, "execution %d is not in the trace (the execution table cannot be read: %s)",
				(int)d->o.execution, why);
	}
	nxp_execution e;
	e.struct_size = sizeof(e);
	int found = 0;
	while ((rc = nxp_cursor_next_execution(c, &e)) == 0) {
		if (e.execution_index != d->o.execution)
			continue;
		if (!found || e.execution_start_ts < *from)
			*from = e.execution_start_ts;
		if (!found || e.execution_end_ts > *to)
			*to = e.execution_end_ts;
		found = 1;
	}
	nxp_cursor_close(c);
	if (!found)
		return nxp__error_set(d->st, NXP_E_INVAL, -1, "execution %d is not in the trace", (int)d->o.execution);
	return 0;
}

static int run(dt *d)
{
	nxp_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	int rc = nxp_profile_get_metadata(d->p, &md);
	if (rc)
		return nxp__error_set(d->st, rc, -1, "cannot read the profile's metadata");
	d->nc_idx = md.neuroncore_idx;

	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = d->o.start_ts;
	co.end_ts = d->o.end_ts;
	if (d->o.execution >= 0) {
		int64_t from = 0, to = 0;
		rc = execution_window(d, &from, &to);
		if (rc)
			return rc;
		if (from > co.start_ts)
			co.start_ts = from;
		if (to < INT64_MAX && to + 1 < co.end_ts)
			co.end_ts = to + 1;
	}
	int64_t lo = co.start_ts != INT64_MIN ? co.start_ts : md.first_hw_timestamp;
	int64_t hi = co.end_ts != INT64_MAX ? co.end_ts : md.last_hw_timestamp;
	if (hi < lo)
		hi = lo;
	d->origin = lo;
	d->window = d->o.counter_window_ns > 0 ? d->o.counter_window_ns : (hi - lo) / 500;
	if (d->window < 1000)
		d->window = 1000;
	d->last_ts = lo;

	/* NULL (no memory): the tracks are found by key each time, the same ones */
	d->qt = d->p->nqueues ? calloc(d->p->nqueues, sizeof(*d->qt)) : NULL;
	src s[T_COUNT];
	memset(s, 0, sizeof(s));
	for (int t = 0; t < T_COUNT; t++) {
		nxp_cursor_options to = co;
		to.engine = t == T_INSTR ? d->o.engine : -1;
		rc = src_open(d, &s[t], t, &to);
		if (rc == NXP_E_NOMEM || rc == NXP_E_INVAL)
			goto out;
		if (rc) {
			/* The table cannot be read at all (a read error in the first
			 * section its cursor loads): like a read error later on, the
			 * table is noted and the export goes on (timeline.h). */
			char text[NXP_STATUS_MESSAGE_MAX + 96];
			snprintf(text, sizeof(text), "reading the %s table failed at open: %s", table_names[t],
				 d->st && d->st->message[0] ? d->st->message : nxp_strerror(rc));
			s[t].live = 0;
			d->stats.read_errors++;
			if (d->st)
				nxp_status_clear(d->st);
			rc = note(d, d->last_ts, text);
			if (rc)
				goto fail;
			continue;
		}
		rc = advance(d, &s[t], t);
		if (rc)
			goto fail;
	}
	/* Flows: for the whole profile only (a filter would leave out one end of
	 * some), and in a sink that attaches them to open slices. */
	if (d->o.device_flows && d->sink->flow && d->o.start_ts == INT64_MIN && d->o.end_ts == INT64_MAX && d->o.engine < 0 &&
	    d->o.execution < 0 && flows_init(d))
		goto fail;
	for (;;) {
		int best = -1;
		for (int t = 0; t < T_COUNT; t++)
			if (s[t].live && (best < 0 || s[t].ts < s[best].ts))
				best = t;
		if (best < 0)
			break;
		/* Semaphore values, slices and instants count against max_events
		 * here; windowed counter values count when they are emitted. */
		if (budget(d))
			break;
		if (d->fl.on && flows_pull(d, s[best].ts))
			goto fail;
		d->last_ts = s[best].ts;
		if (dispatch(d, best, &s[best].r) || advance(d, &s[best], best))
			goto fail;
		if (d->stopped)
			break;
	}
	/* Close the windowed counters: the last window's value, then 0. */
	for (size_t i = 0; i < d->cap && !d->stopped; i++) {
		tstate *c = &d->ts[i];
		if (!c->uuid || c->bucket == INT64_MIN)
			continue;
		int util = c->lane_end == NULL && c->busy_end != INT64_MIN;
		if (counter_flush(d, c, c->bucket + 2, util ? 100.0 / (double)d->window : 1.0 / (double)d->window))
			goto fail;
	}
	if (d->stats.truncated) {
		char text[160];
		snprintf(text, sizeof(text),
			 "max events reached: %lld events written, the trace stops at %lld ns (more records follow)",
			 (long long)d->stats.events, (long long)d->last_ts);
		if (note(d, d->last_ts, text))
			goto fail;
	}
	rc = 0;
	goto out;
fail:
	rc = d->st && d->st->code ? d->st->code : NXP_E_IO;
out:
	for (int t = 0; t < T_COUNT; t++) {
		if (!s[t].open)
			continue;
		d->stats.bad_records += s[t].it.s.stats.bad_records;
		d->stats.input_bytes += s[t].it.s.stats.bytes_read;
		d->stats.skipped_sections += s[t].it.s.stats.skipped_sections;
		ntff_iter_close(&s[t].it);
	}
	d->stats.flows += d->fl.flows;
	flows_free(d);
	free(d->qt);
	d->qt = NULL;
	return rc;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

NXP_API int nxp_profile_export_timeline(nxp_profile *p, const char *path, const nxp_timeline_options *opts,
					nxp_timeline_stats *stats, nxp_status *st)
{
	nxp_status local;
	nxp_status_init(&local);
	if (!st)
		st = &local;
	nxp_status_clear(st);
	dt d;
	memset(&d, 0, sizeof(d));
	nxp_timeline_options_init(&d.o);
	if (!p || !path || !*path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_export_timeline: NULL profile or path");
	if (opts && NXP__STRUCT_IN_DEFAULTS(d.o, opts, NXP_TIMELINE_OPTIONS_SIZE_V0_2))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_export_timeline: options struct_size too small");
	if (stats && !nxp__struct_size_ok(stats, NXP_TIMELINE_STATS_SIZE_V0_2))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_export_timeline: stats struct_size too small");
	if (d.o.format != NXP_TIMELINE_PERFETTO && d.o.format != NXP_TIMELINE_CHROME_JSON)
		return nxp__error_set(st, NXP_E_INVAL, -1, "unknown timeline format %d", (int)d.o.format);
	if (d.o.start_ts > d.o.end_ts || d.o.max_events < 0 || d.o.counter_window_ns < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "bad timeline options (time window, max_events or window)");
	struct stat sb;
	if (!d.o.overwrite && stat(path, &sb) == 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s exists (overwrite not allowed)", path);

	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return nxp__error_set(st, NXP_E_IO, -1, "cannot create %s: %s", path, strerror(e));
	}
	(void)fchmod(fd, 0644);
	int gz = d.o.gzip < 0 ? ends_with(path, ".gz") : d.o.gzip != 0;
	int rc = d.o.format == NXP_TIMELINE_PERFETTO ? nxp__perfetto_sink_open(&d.sink, fd, d.o.gzip > 0, st)
						     : nxp__chrome_json_sink_open(&d.sink, fd, gz, st);
	if (rc) {
		unlink(tmp);
		free(tmp);
		return rc;
	}
	d.p = p;
	d.st = st;
	d.memo = calloc(TL_MEMO, sizeof(memo)); /* NULL: no memo, same keys */
	d.stats.struct_size = sizeof(d.stats);
	rc = run(&d);
	int64_t bytes = 0;
	if (!rc)
		rc = d.sink->finish(d.sink, &bytes);
	d.sink->destroy(d.sink);
	for (size_t i = 0; i < d.cap; i++) {
		free(d.ts[i].name);
		free(d.ts[i].lane_end);
		free(d.ts[i].lane_id);
	}
	free(d.ts);
	free(d.memo);
	for (size_t i = 0; i < d.nroute; i++)
		free(d.route[i].route);
	if (!rc && bytes < 0)
		bytes = stat(tmp, &sb) == 0 ? (int64_t)sb.st_size : -1;
	if (!rc && rename(tmp, path)) {
		int e = errno;
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot rename %s to %s: %s", tmp, path, strerror(e));
	}
	if (rc) {
		unlink(tmp);
		if (st && !st->code)
			nxp__error_set(st, rc, -1, "%s", nxp_strerror(rc));
	}
	free(tmp);
	d.stats.bytes = bytes;
	if (!rc && stats)
		NXP__STRUCT_OUT(stats, d.stats, NXP_TIMELINE_STATS_SIZE_V0_2);
	return rc;
}

/* ---- for capture_timeline.c (combined file): added for issue 14 ----
 * The content of profile `p` written into a sink the caller opened and will
 * finish (so several profiles can share one file); `o` is a full library-size
 * options struct.  stats->events/tracks/truncated/read_errors/bad_records/
 * input_bytes/skipped_sections are added to. */
int nxp__device_timeline_write(nxp_profile *p, tl_sink *sink, const nxp_timeline_options *o,
			       nxp_timeline_stats *stats, nxp_status *st)
{
	dt d;
	memset(&d, 0, sizeof(d));
	d.o = *o;
	d.p = p;
	d.sink = sink;
	d.st = st;
	d.memo = calloc(TL_MEMO, sizeof(memo)); /* NULL: no memo, same keys */
	d.stats.struct_size = sizeof(d.stats);
	int rc = run(&d);
	for (size_t i = 0; i < d.cap; i++) {
		free(d.ts[i].name);
		free(d.ts[i].lane_end);
		free(d.ts[i].lane_id);
	}
	free(d.ts);
	free(d.memo);
	for (size_t i = 0; i < d.nroute; i++)
		free(d.route[i].route);
	stats->events += d.stats.events;
	stats->tracks += d.stats.tracks;
	stats->truncated |= d.stats.truncated;
	stats->read_errors += d.stats.read_errors;
	stats->bad_records += d.stats.bad_records;
	stats->input_bytes += d.stats.input_bytes;
	stats->skipped_sections += d.stats.skipped_sections;
	stats->flows += d.stats.flows;
	return rc;
}
