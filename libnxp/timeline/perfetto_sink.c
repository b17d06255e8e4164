/* SPDX-License-Identifier: MIT */
/* Timeline sink: a Perfetto trace (perfetto.protos.Trace), one TracePacket at a
 * time, each written as one `packet` field (1, length-delimited) of the Trace.
 *
 * Each track's events are on a sequence of their own (ids TL_SEQ + 1, ...,
 * for the first TL_MAX_SEQS tracks; track descriptors and later tracks share
 * TL_SEQ) whose TracePacketDefaults.track_event_defaults.track_uuid is the
 * track, so its TrackEvents omit track_uuid (2 bytes a packet; the per-track
 * clock costs ~0.1 byte a packet of longer deltas).  The first packet of a
 * sequence clears its incremental state and sets it up as Perfetto's own SDK
 * does (src/shared_lib/track_event/serialization.cc):
 * TracePacketDefaults.timestamp_clock_id = TL_CLOCK, and a ClockSnapshot in
 * which the sequence-scoped clock TL_CLOCK (is_incremental, unit 1 ns) and
 * BOOTTIME both read 0.  Every later timestamp is then the delta from the
 * previous timestamped packet of the sequence; a timestamp earlier than that
 * (a writer that goes back in time) is written absolute with
 * timestamp_clock_id = BOOTTIME, which leaves the incremental clock where it
 * was -- again as the SDK does.  Timestamped packets carry
 * SEQ_NEEDS_INCREMENTAL_STATE (their time depends on the sequence's state).
 *
 * Slice ends are held back in a heap ordered by end time and written when the
 * stream's time reaches them, so the deltas stay small and never negative;
 * the heap holds only the slices still open.  Flow ids ride on the end packet
 * of their slice (trace_processor binds them to the slice being closed), so a
 * flow found after the slice began can still be attached (flow()).
 *
 * Event names, debug annotation names and string argument values are interned
 * (one iid per string for the whole file) and defined on each sequence that
 * uses them; a string's definition rides in the interned_data of the first
 * packet of that sequence that uses it.  Past the interning caps a string is written inline
 * (TrackEvent.name, DebugAnnotation.name/string_value), so memory stays
 * bounded whatever the trace.
 *
 * Optionally (nxp_timeline_options.gzip = 1) each buffer of whole packets
 * (TL_BUF, 256 KiB) is zlib-deflated into one packet whose only field is
 * TracePacket.compressed_packets (50), as Perfetto's tracing service writes
 * with compression_type DEFLATE; trace_processor inflates each bundle and reads
 * the packets inside in order (upstream asks each bundle to stay under 512 KB:
 * a deflated 256 KiB is at most a few bytes longer).  Sequence state crosses
 * bundles as it crosses packets. */
#include "timeline_priv.h"

#include "perfetto_trace.pb-c.h"
#include "status.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <zlib.h>
#ifdef NXP_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TL_SEQ 1u              /* any nonzero id; 1 is a one-byte varint */
#define TL_MAX_SEQS 1024u      /* tracks with a sequence of their own (ids 2..) */
#define TL_MAX_DEFS (1u << 20) /* (sequence, string) definitions remembered */
#define TL_CLOCK 64u           /* the sequence-scoped incremental clock */
#define TL_BOOTTIME 6u         /* BuiltinClock BOOTTIME: the trace's clock */
#define TL_MAX_ARGS 24
#define TL_FLOW_BYTES 10u /* a TrackEvent.flow_ids (47) / terminating_flow_ids (48) entry: 2-byte tag + fixed64 */
#define TL_BUF (256u * 1024u)
#define TL_SHORT 32u /* see pf_write_packet: a packet's head fits, a TrackEvent often does */
#define TL_SLACK 64u /* bytes past TL_BUF in the output buffer, for those copies */

/* A slice end held back until the stream's time reaches it (its flows wait
 * in the slot of its track, or parked; see open_slot). */
typedef struct pend_end {
	int64_t end;
	uint64_t seq; /* order of the begins: the later of two equal ends closes first */
	uint64_t track;
} pend_end;

typedef struct fl_id { uint64_t id; int term; } fl_id;

/* The flows of the slice most recently begun on a track, while its end is
 * held: one slot per track, found by hashing the track.  A slice begun on a
 * track whose open slice has flows (nesting) parks those flows by seq. */
typedef struct open_slot {
	uint64_t track; /* 0 = empty slot */
	uint64_t seq;   /* that slice's pend_end.seq, 0 = none open */
	fl_id *v;
	uint32_t n, cap;
} open_slot;

/* A track's own sequence: its id, its incremental clock (the last
 * delta-encoded timestamp on it), whether its first packet is written. */
typedef struct pf_seq {
	uint64_t track; /* 0 = empty slot */
	uint32_t id;
	int started;
	int64_t clock;
} pf_seq;

/* A string known to be interned and defined on a sequence, by its pointer:
 * the cache in front of interning and def_seen (see resolve). */
typedef struct pf_known {
	const char *ptr; /* NULL = empty */
	uint32_t iid;    /* < 2^24 (def_seen) */
	uint32_t tag;    /* sequence id << 2 | interning table */
} pf_known;

/* A sequence's annotations by position, as its last events with
 * stable_strings had them: the name's iid and the string value's iid (0 =
 * none cached), each interned and defined on the sequence.  A track's events
 * mostly repeat one argument list (a DMA queue's four, an engine's operands,
 * pc, ...), so one pointer compare stands for the hashed lookup in
 * s->known; a position that differs goes through resolve and is replaced. */
typedef struct pf_argc {
	const char *name, *val;
	uint32_t aid, sid;
} pf_argc;

#define TL_KNOWN_SETS 4096u /* sets of 4 entries (a set: its most recent first) */
#define TL_FRONT 256u       /* entries of the track fronts (see pf_sink) */

typedef struct pf_sink {
	tl_sink base;
	int fd;
	unsigned char *buf;
	size_t len;
	int64_t written;
	int deflate;        /* bundle the packets in compressed_packets (see the top) */
	unsigned char *zbuf; /* a bundle: its packet head, then the deflated bytes */
	size_t zcap;
#ifdef NXP_HAVE_LIBDEFLATE
	struct libdeflate_compressor *zc;
#endif
	pf_seq shared; /* TL_SEQ: track descriptors, and the tracks past TL_MAX_SEQS */
	int64_t now;   /* the stream's time: the latest timestamp written, on any sequence */
	pf_seq *seqs;  /* track -> its sequence (open addressing) */
	size_t nseqs, seqs_cap;
	/* (sequence, table, iid) of the interned strings defined on each
	 * sequence (open addressing, 0 = empty); past TL_MAX_DEFS a string not
	 * defined on its sequence yet is written inline. */
	uint64_t *defs;
	size_t ndefs, defs_cap;
	tl_intern names, arg_names, strings;
	unsigned char *pack; /* a packet's TrackEvent (or a protobuf-c packet) */
	size_t pack_cap;
	unsigned char *inb; /* and its InternedData */
	size_t inb_cap;
	pend_end *heap;
	size_t nheap, heap_cap;
	uint64_t seq;
	open_slot *slots;
	size_t nslots, slots_cap;
	open_slot *parked;
	size_t nparked, parked_cap;
	pf_known known[TL_KNOWN_SETS][4];
	/* pf_argc[TL_MAX_ARGS] by sequence id (TL_SEQ .. TL_SEQ + TL_MAX_SEQS),
	 * each made on first use; NULL when out of memory (resolve alone). */
	pf_argc **argc;
	/* Direct-mapped fronts of seq_of and slot_find by track (the device
	 * timeline's track ids are 1, 2, ...): every event looks up both, and
	 * the probe cost more than the rest of writing an end.  An element stays
	 * put until its table grows, which empties its front. */
	struct { uint64_t track; pf_seq *sq; } seq_front[TL_FRONT];
	struct { uint64_t track; open_slot *o; } slot_front[TL_FRONT];
} pf_sink;

static int pf_write_all(pf_sink *s, const unsigned char *b, size_t n)
{
	while (n) {
		ssize_t w = write(s->fd, b, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s", strerror(errno));
		}
		b += w;
		n -= (size_t)w;
		s->written += w;
	}
	return 0;
}

static inline unsigned char *pv(unsigned char *p, uint64_t v);
static inline size_t vlen(uint64_t v);
static inline unsigned char *ptag(unsigned char *p, unsigned f, unsigned w);

/* Whole packets b[0, n) as one compressed_packets bundle: Trace.packet (1)
 * { compressed_packets (50) = zlib(b) }, heads at most 6 + 2 + 5 bytes. */
#define PF_ZHEAD 16u
static int pf_write_deflated(pf_sink *s, const unsigned char *b, size_t n)
{
	size_t bound = compressBound((uLong)n) + PF_ZHEAD;
	if (bound > s->zcap) {
		unsigned char *z = realloc(s->zbuf, bound);
		if (!z)
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		s->zbuf = z;
		s->zcap = bound;
	}
	unsigned char *out = s->zbuf + PF_ZHEAD;
	size_t zn;
#ifdef NXP_HAVE_LIBDEFLATE
	zn = libdeflate_zlib_compress(s->zc, b, n, out, s->zcap - PF_ZHEAD);
	if (!zn)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "cannot deflate the trace");
#else
	uLongf zl = (uLongf)(s->zcap - PF_ZHEAD);
	if (compress2(out, &zl, b, (uLong)n, Z_BEST_SPEED) != Z_OK)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "cannot deflate the trace");
	zn = zl;
#endif
	unsigned char head[PF_ZHEAD], *h = head;
	h = ptag(h, 1, 2);
	h = pv(h, 2 + vlen(zn) + zn);
	h = ptag(h, 50, 2);
	h = pv(h, zn);
	size_t hn = (size_t)(h - head);
	memcpy(out - hn, head, hn);
	return pf_write_all(s, out - hn, hn + zn);
}

static int pf_flush(pf_sink *s)
{
	int rc = 0;
	if (s->len)
		rc = s->deflate ? pf_write_deflated(s, s->buf, s->len) : pf_write_all(s, s->buf, s->len);
	s->len = 0;
	return rc;
}

static int pf_put(pf_sink *s, const void *p, size_t n)
{
	if (s->len + n > TL_BUF) {
		int rc = pf_flush(s);
		if (rc)
			return rc;
	}
	if (n > TL_BUF) /* never for our packets; written (or deflated) whole */
		return s->deflate ? pf_write_deflated(s, p, n) : pf_write_all(s, p, n);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

/* ---- hand-encoded packets ----
 * The hot packets (slice begin and end, instants, counter values) and the
 * sequence set-up are written straight from the upstream field numbers into a
 * reusable buffer; protobuf-c's generic pack (a descriptor walk per field,
 * twice: size then pack) cost more than everything else together.  Track
 * descriptors, rare, still go through protobuf-c.  Field numbers
 * (protos/perfetto/trace/): TracePacket clock_snapshot 6, timestamp 8,
 * trusted_packet_sequence_id 10, track_event 11, interned_data 12,
 * sequence_flags 13, timestamp_clock_id 58, trace_packet_defaults 59;
 * TracePacketDefaults timestamp_clock_id 58; ClockSnapshot clocks 1,
 * primary_trace_clock 2; ClockSnapshot.Clock clock_id 1, timestamp 2,
 * is_incremental 3, unit_multiplier_ns 4; TrackEvent debug_annotations 4,
 * type 9, name_iid 10, track_uuid 11, name 23, counter_value 30,
 * double_counter_value 44, flow_ids 47, terminating_flow_ids 48;
 * DebugAnnotation name_iid 1, int_value 4, double_value 5, string_value 6,
 * name 10, string_value_iid 17; InternedData event_names 2,
 * debug_annotation_names 3, debug_annotation_string_values 29 (each {iid 1,
 * name/str 2}). */

static inline unsigned char *pv(unsigned char *p, uint64_t v)
{
	/* one and two bytes first: tags, lengths, iids, most deltas */
	if (v < 0x80) {
		*p = (unsigned char)v;
		return p + 1;
	}
	if (v < 0x4000) {
		p[0] = (unsigned char)(v | 0x80);
		p[1] = (unsigned char)(v >> 7);
		return p + 2;
	}
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static inline size_t vlen(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Tag of field f with wire type w (f < 2048: at most 2 bytes). */
static inline unsigned char *ptag(unsigned char *p, unsigned f, unsigned w)
{
	return pv(p, ((uint64_t)f << 3) | w);
}

static inline unsigned char *pbytes(unsigned char *p, unsigned f, const void *b, size_t n)
{
	p = ptag(p, f, 2);
	p = pv(p, n);
	memcpy(p, b, n);
	return p + n;
}

static inline unsigned char *pfixed64(unsigned char *p, unsigned f, uint64_t v)
{
	p = ptag(p, f, 1);
	for (int i = 0; i < 8; i++)
		*p++ = (unsigned char)(v >> (8 * i));
	return p;
}

static inline unsigned char *pdouble(unsigned char *p, unsigned f, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	return pfixed64(p, f, v);
}

/* An interned entry {iid 1, name 2} as field f of InternedData. */
static unsigned char *pinterned(unsigned char *p, unsigned f, uint64_t iid, const char *str, size_t n)
{
	p = ptag(p, f, 2);
	p = pv(p, 1 + vlen(iid) + 1 + vlen(n) + n);
	p = ptag(p, 1, 0);
	p = pv(p, iid);
	return pbytes(p, 2, str, n);
}

static int buf_reserve(pf_sink *s, unsigned char **b, size_t *cap, size_t n)
{
	if (n <= *cap)
		return 0;
	unsigned char *p = realloc(*b, n * 2);
	if (!p)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	*b = p;
	*cap = n * 2;
	return 0;
}

static int pf_reserve(pf_sink *s, size_t n)
{
	return buf_reserve(s, &s->pack, &s->pack_cap, n);
}

/* The first packet of the sequence: clears its incremental state, makes the
 * incremental clock TL_CLOCK the default of every packet (TracePacketDefaults)
 * and defines it (ClockSnapshot: TL_CLOCK and BOOTTIME both at 0, so a
 * packet's time is the device's own ns; BOOTTIME named as the trace's clock). */
static int pf_seq_start(pf_sink *s, pf_seq *sq)
{
	if (sq->started)
		return 0;
	sq->started = 1;
	sq->clock = 0;
	unsigned char clk[2][16], cs[64], pk[128], out[144];
	unsigned char *c0 = clk[0], *c1 = clk[1], *q, *o;
	c0 = ptag(c0, 1, 0); /* clock_id = BOOTTIME */
	c0 = pv(c0, TL_BOOTTIME);
	c0 = ptag(c0, 2, 0); /* timestamp */
	c0 = pv(c0, 0);
	c1 = ptag(c1, 1, 0); /* clock_id = TL_CLOCK */
	c1 = pv(c1, TL_CLOCK);
	c1 = ptag(c1, 2, 0); /* timestamp */
	c1 = pv(c1, 0);
	c1 = ptag(c1, 3, 0); /* is_incremental */
	c1 = pv(c1, 1);
	c1 = ptag(c1, 4, 0); /* unit_multiplier_ns */
	c1 = pv(c1, 1);
	q = pbytes(cs, 1, clk[0], (size_t)(c0 - clk[0]));
	q = pbytes(q, 1, clk[1], (size_t)(c1 - clk[1]));
	q = ptag(q, 2, 0); /* primary_trace_clock = BOOTTIME */
	q = pv(q, TL_BOOTTIME);
	o = ptag(pk, 10, 0);
	o = pv(o, sq->id);
	o = ptag(o, 13, 0);
	o = pv(o, 1); /* SEQ_INCREMENTAL_STATE_CLEARED */
	unsigned char def[40], *d = ptag(def, 58, 0);
	d = pv(d, TL_CLOCK);
	if (sq->track) { /* TrackEventDefaults.track_uuid: the sequence's track */
		unsigned char ted[16], *e = ptag(ted, 11, 0);
		e = pv(e, sq->track);
		d = pbytes(d, 11, ted, (size_t)(e - ted));
	}
	o = pbytes(o, 59, def, (size_t)(d - def));
	o = pbytes(o, 6, cs, (size_t)(q - cs));
	unsigned char *f = pbytes(out, 1, pk, (size_t)(o - pk));
	return pf_put(s, out, (size_t)(f - out));
}

/* ---- the sink's three open-addressing tables (sequences by track, defined
 * strings, open slots by track): nxp__tl_oa_* (timeline_priv.h), on the
 * high half of the key's product (PF_OA). */
_Static_assert(offsetof(pf_seq, track) == 0 && offsetof(open_slot, track) == 0, "oa_*: the key comes first");
#define PF_OA 32u

static inline size_t oa_slot(const void *tab, size_t cap, size_t esz, uint64_t key)
{
	return nxp__tl_oa_slot(tab, cap, esz, key, PF_OA);
}

static int oa_reserve(void **tab, size_t *cap, size_t n, size_t esz, size_t first)
{
	return nxp__tl_oa_reserve(tab, cap, n, esz, first, PF_OA);
}

static int pf_start(pf_sink *s)
{
	return pf_seq_start(s, &s->shared);
}

/* The sequence of `track`: its own (made on first use) while there are fewer
 * than TL_MAX_SEQS, else the shared one. */
static pf_seq *seq_find(pf_sink *s, uint64_t track)
{
	if (s->seqs_cap && track) {
		pf_seq *e = &s->seqs[oa_slot(s->seqs, s->seqs_cap, sizeof(*e), track)];
		if (e->track)
			return e;
	}
	if (!track || s->nseqs >= TL_MAX_SEQS)
		return &s->shared;
	size_t cap = s->seqs_cap;
	if (oa_reserve((void **)&s->seqs, &s->seqs_cap, s->nseqs, sizeof(pf_seq), 64))
		return NULL;
	if (cap != s->seqs_cap) /* the elements moved */
		memset(s->seq_front, 0, sizeof(s->seq_front));
	size_t j = oa_slot(s->seqs, s->seqs_cap, sizeof(pf_seq), track);
	s->seqs[j].track = track;
	s->seqs[j].id = TL_SEQ + 1 + (uint32_t)s->nseqs++;
	return &s->seqs[j];
}

static inline pf_seq *seq_of(pf_sink *s, uint64_t track)
{
	size_t f = (size_t)track & (TL_FRONT - 1);
	if (s->seq_front[f].track == track && track)
		return s->seq_front[f].sq;
	pf_seq *sq = seq_find(s, track);
	if (sq && track) {
		s->seq_front[f].track = track;
		s->seq_front[f].sq = sq;
	}
	return sq;
}

/* Whether string `iid` of interning table `table` (1 names, 2 annotation
 * names, 3 strings) is defined on sequence sq: 1 = it is, 0 = not yet (now
 * recorded: the caller defines it), -1 = cannot be recorded (the caller
 * writes the string inline). */
static int def_seen(pf_sink *s, const pf_seq *sq, unsigned table, uint64_t iid)
{
	if (!iid || iid >= (1u << 24))
		return -1;
	uint64_t key = ((uint64_t)sq->id << 26) | ((uint64_t)table << 24) | iid;
	if (s->defs_cap && s->defs[oa_slot(s->defs, s->defs_cap, sizeof(uint64_t), key)])
		return 1;
	if (s->ndefs >= TL_MAX_DEFS)
		return -1;
	if (oa_reserve((void **)&s->defs, &s->defs_cap, s->ndefs, sizeof(uint64_t), 1024))
		return -1;
	s->defs[oa_slot(s->defs, s->defs_cap, sizeof(uint64_t), key)] = key;
	s->ndefs++;
	return 0;
}

/* One Trace.packet from protobuf-c: tag (field 1, wire type 2), length, the packed packet. */
static int pf_emit(pf_sink *s, Perfetto__Protos__TracePacket *pk)
{
	int rc = pf_start(s);
	if (rc)
		return rc;
	pk->optional_trusted_packet_sequence_id_case =
		PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	pk->trusted_packet_sequence_id = TL_SEQ;
	/* Every packet after the TracePacketDefaults says it needs them
	 * (trace_packet.proto, trace_packet_defaults). */
	pk->has_sequence_flags = 1;
	pk->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	size_t n = protobuf_c_message_get_packed_size(&pk->base);
	if (n + 16 > s->pack_cap) {
		size_t cap = (n + 16) * 2;
		unsigned char *p = realloc(s->pack, cap);
		if (!p)
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		s->pack = p;
		s->pack_cap = cap;
	}
	size_t h = 0;
	s->pack[h++] = 0x0a;
	uint64_t v = n;
	while (v >= 0x80) {
		s->pack[h++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	s->pack[h++] = (unsigned char)v;
	protobuf_c_message_pack(&pk->base, s->pack + h);
	return pf_put(s, s->pack, h + n);
}

static int pf_track(tl_sink *base, const tl_track *t)
{
	pf_sink *s = (pf_sink *)base;
	Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	td.has_uuid = 1;
	td.uuid = t->uuid;
	if (t->parent_uuid) {
		td.has_parent_uuid = 1;
		td.parent_uuid = t->parent_uuid;
	}
	if (t->kind == TL_TRACK_PROCESS) {
		pd.has_pid = 1;
		pd.pid = t->pid;
		pd.process_name = (char *)t->name;
		td.process = &pd;
		td.has_child_ordering = 1;
		td.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
	} else {
		td.static_or_dynamic_name_case = PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
		td.name = (char *)t->name;
		td.has_child_ordering = 1;
		td.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
		/* Lanes and sibling tracks may share a prefix; never let the UI merge them. */
		td.has_sibling_merge_behavior = 1;
		td.sibling_merge_behavior = PERFETTO__PROTOS__TRACK_DESCRIPTOR__SIBLING_MERGE_BEHAVIOR__SIBLING_MERGE_BEHAVIOR_NONE;
	}
	td.has_sibling_order_rank = 1;
	td.sibling_order_rank = t->rank;
	if (t->kind == TL_TRACK_COUNTER) {
		if (t->unit)
			cd.unit_name = (char *)t->unit;
		td.counter = &cd;
	}
	pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pk.track_descriptor = &td;
	return pf_emit(s, &pk);
}

/* Frame and write one packet: its timestamp (a delta of the incremental clock,
 * or absolute on BOOTTIME when it goes back), sequence id and flags, the
 * TrackEvent `te` (tn bytes) and the InternedData `in` (inn bytes, 0 = none). */
static int pf_write_packet(pf_sink *s, pf_seq *sq, int64_t ts, unsigned flags, const unsigned char *te,
			   size_t tn, const unsigned char *in, size_t inn)
{
	if (!sq->started) {
		int rc = pf_seq_start(s, sq);
		if (rc)
			return rc;
	}
	unsigned char head[TL_SHORT];
	unsigned char *h = head;
	/* SEQ_NEEDS_INCREMENTAL_STATE on every packet after the defaults: "Requires
	 * that any future packet emitted on the same sequence specifies the
	 * SEQ_NEEDS_INCREMENTAL_STATE flag" (trace_packet.proto). */
	flags |= 2;
	h = ptag(h, 8, 0);
	if (ts >= s->now)
		s->now = ts;
	if (ts >= sq->clock) {
		h = pv(h, (uint64_t)(ts - sq->clock));
		sq->clock = ts;
	} else {
		h = pv(h, (uint64_t)ts);
		h = ptag(h, 58, 0);
		h = pv(h, TL_BOOTTIME);
	}
	h = ptag(h, 10, 0);
	h = pv(h, sq->id);
	if (flags) {
		h = ptag(h, 13, 0);
		h = pv(h, flags);
	}
	h = ptag(h, 11, 2);
	h = pv(h, tn);
	size_t body = (size_t)(h - head) + tn + (inn ? 1 + vlen(inn) + inn : 0);
	unsigned char frame[16];
	unsigned char *f = frame;
	*f++ = 0x0a;
	f = pv(f, body);
	size_t total = (size_t)(f - frame) + body;
	if (s->len + total > TL_BUF && total <= TL_BUF) {
		/* whole packets in each buffer: a compressed bundle never splits one */
		int rc = pf_flush(s);
		if (rc)
			return rc;
	}
	if (s->len + total <= TL_BUF) { /* the common case: straight into the output buffer */
		unsigned char *o = s->buf + s->len;
		memcpy(o, frame, (size_t)(f - frame));
		o += f - frame;
		/* Fixed-size copies (inlined moves, no call): head is at most 26
		 * bytes, a TrackEvent usually at most TL_SHORT; what they copy past
		 * the packet lands in the buffer's TL_SLACK and is overwritten. */
		memcpy(o, head, TL_SHORT);
		o += h - head;
		if (tn <= TL_SHORT)
			memcpy(o, te, TL_SHORT);
		else
			memcpy(o, te, tn);
		o += tn;
		if (inn) {
			o = ptag(o, 12, 2);
			o = pv(o, inn);
			memcpy(o, in, inn);
		}
		s->len += total;
		return 0;
	}
	/* A packet longer than the buffer (an interned string that long): the
	 * buffer is empty; plain, it goes out in pieces; deflated, in one bundle. */
	unsigned char *big = NULL, *b = NULL;
	if (s->deflate && !(big = b = malloc(total)))
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	if (big) {
		b = (unsigned char *)memcpy(b, frame, (size_t)(f - frame)) + (f - frame);
		b = (unsigned char *)memcpy(b, head, (size_t)(h - head)) + (h - head);
		b = (unsigned char *)memcpy(b, te, tn) + tn;
		if (inn) {
			b = ptag(b, 12, 2);
			b = pv(b, inn);
			memcpy(b, in, inn);
		}
		int rc = pf_write_deflated(s, big, total);
		free(big);
		return rc;
	}
	int rc = pf_put(s, frame, (size_t)(f - frame));
	if (!rc)
		rc = pf_put(s, head, (size_t)(h - head));
	if (!rc)
		rc = pf_put(s, te, tn);
	if (!rc && inn) {
		unsigned char ih[16], *q = ptag(ih, 12, 2);
		q = pv(q, inn);
		rc = pf_put(s, ih, (size_t)(q - ih));
		if (!rc)
			rc = pf_put(s, in, inn);
	}
	return rc;
}

/* TrackEvent.track_uuid, unless the sequence's TrackEventDefaults name the track. */
static inline unsigned char *ptrack(unsigned char *p, const pf_seq *sq, uint64_t track)
{
	if (sq->track == track)
		return p;
	p = ptag(p, 11, 0);
	return pv(p, track);
}

/* ---- held-back slice ends ---- */

/* a closes before b: earlier end; at the same end the later begin (inner slice) first */
static inline int end_before(const pend_end *a, const pend_end *b)
{
	return a->end < b->end || (a->end == b->end && a->seq > b->seq);
}

static void heap_pop(pf_sink *s, pend_end *top)
{
	*top = s->heap[0];
	pend_end last = s->heap[--s->nheap];
	size_t i = 0, n = s->nheap;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		const pend_end *best = &last;
		if (l < n && end_before(&s->heap[l], best)) {
			m = l;
			best = &s->heap[l];
		}
		if (l + 1 < n && end_before(&s->heap[l + 1], best))
			m = l + 1;
		if (m == i)
			break;
		s->heap[i] = s->heap[m];
		i = m;
	}
	if (n)
		s->heap[i] = last;
}

static int heap_push(pf_sink *s, const pend_end *e)
{
	if (s->nheap == s->heap_cap) {
		size_t cap = s->heap_cap ? s->heap_cap * 2 : 64;
		pend_end *n = realloc(s->heap, cap * sizeof(*n));
		if (!n)
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		s->heap = n;
		s->heap_cap = cap;
	}
	size_t i = s->nheap++;
	while (i && end_before(e, &s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = *e;
	return 0;
}

static inline open_slot *slot_find(pf_sink *s, uint64_t track)
{
	size_t f = (size_t)track & (TL_FRONT - 1);
	if (s->slot_front[f].track == track && track)
		return s->slot_front[f].o;
	if (!s->slots_cap)
		return NULL;
	open_slot *o = &s->slots[oa_slot(s->slots, s->slots_cap, sizeof(*o), track)];
	if (!o->track)
		return NULL;
	s->slot_front[f].track = track;
	s->slot_front[f].o = o;
	return o;
}

static open_slot *slot_get(pf_sink *s, uint64_t track)
{
	open_slot *o = slot_find(s, track);
	if (o)
		return o;
	size_t cap = s->slots_cap;
	if (oa_reserve((void **)&s->slots, &s->slots_cap, s->nslots, sizeof(open_slot), 64))
		return NULL;
	if (cap != s->slots_cap) /* the elements moved */
		memset(s->slot_front, 0, sizeof(s->slot_front));
	size_t j = oa_slot(s->slots, s->slots_cap, sizeof(open_slot), track);
	s->slots[j].track = track;
	s->nslots++;
	return &s->slots[j];
}

static int slot_add(pf_sink *s, open_slot *o, uint64_t id, int term)
{
	if (o->n == o->cap) {
		uint32_t nc = o->cap ? o->cap * 2 : 4;
		fl_id *v = realloc(o->v, nc * sizeof(*v));
		if (!v)
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		o->v = v;
		o->cap = nc;
	}
	o->v[o->n].id = id;
	o->v[o->n++].term = term;
	return 0;
}

/* A slice begins on the track of slot o while o holds the flows of another
 * open slice (nesting, rare): park them under that slice's seq. */
static int slot_park(pf_sink *s, open_slot *o)
{
	if (s->nparked == s->parked_cap) {
		size_t nc = s->parked_cap ? s->parked_cap * 2 : 8;
		open_slot *p = realloc(s->parked, nc * sizeof(*p));
		if (!p)
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		s->parked = p;
		s->parked_cap = nc;
	}
	s->parked[s->nparked++] = *o;
	o->v = NULL;
	o->n = o->cap = 0;
	return 0;
}

/* The flows of held end e: its track's slot (the caller empties it), or a
 * parked entry moved to *tmp (the caller frees tmp->v), or NULL. */
static open_slot *end_flows(pf_sink *s, const pend_end *e, open_slot *tmp)
{
	open_slot *o = slot_find(s, e->track);
	if (o && o->seq == e->seq) {
		o->seq = 0;
		return o->n ? o : NULL;
	}
	for (size_t i = 0; i < s->nparked; i++)
		if (s->parked[i].seq == e->seq) {
			*tmp = s->parked[i];
			s->parked[i] = s->parked[--s->nparked];
			return tmp;
		}
	return NULL;
}

static int has_term(const open_slot *o)
{
	for (uint32_t i = 0; o && i < o->n; i++)
		if (o->v[i].term)
			return 1;
	return 0;
}

/* Write held end e with the flows of `o` (NULL = none): starting ids, then
 * terminating ones; o is emptied (and its array freed when `owned`). */
static int write_end(pf_sink *s, const pend_end *e, open_slot *o, int owned)
{
	size_t nf = o ? o->n : 0;
	/* a flow id takes TL_FLOW_BYTES (its tag, 47 or 48, is two bytes); track and type fit in 32 */
	unsigned char ee[32 + TL_FLOW_BYTES * 8], *q = ee, *big = NULL;
	if (nf > 8) {
		big = malloc(32 + TL_FLOW_BYTES * nf);
		if (!big) {
			if (owned)
				free(o->v);
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		}
		q = big;
	}
	unsigned char *b0 = q;
	pf_seq *sq = seq_of(s, e->track);
	if (!sq) {
		free(big);
		if (o && owned)
			free(o->v);
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	}
	if (!nf && sq->started && e->end >= sq->clock && s->len + 64 <= TL_BUF) {
		/* Most ends: no flows, time forward on a started sequence, room in
		 * the buffer: written in place, the bytes pf_write_packet would
		 * write (timestamp delta, sequence id, SEQ_NEEDS_INCREMENTAL_STATE,
		 * the TrackEvent), at most 33 bytes: one-byte lengths, and no flush
		 * there either (the same bundles with --compress). */
		unsigned char *w = s->buf + s->len, *h = w + 2;
		if (e->end >= s->now)
			s->now = e->end;
		h = ptag(h, 8, 0);
		h = pv(h, (uint64_t)(e->end - sq->clock));
		sq->clock = e->end;
		h = ptag(h, 10, 0);
		h = pv(h, sq->id);
		h = ptag(h, 13, 0);
		*h++ = 2;
		h = ptag(h, 11, 2);
		unsigned char *tl = h++, *t0 = h;
		h = ptrack(h, sq, e->track);
		h = ptag(h, 9, 0);
		*h++ = 2; /* TYPE_SLICE_END */
		*tl = (unsigned char)(h - t0);
		w[0] = 0x0a;
		w[1] = (unsigned char)(h - w - 2);
		s->len += (size_t)(h - w);
		if (o && owned)
			free(o->v);
		return 0;
	}
	q = ptrack(q, sq, e->track);
	q = ptag(q, 9, 0);
	*q++ = 2; /* TYPE_SLICE_END */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < nf; i++)
			if (o->v[i].term == pass)
				q = pfixed64(q, pass ? 48 : 47, o->v[i].id);
	int rc = pf_write_packet(s, sq, e->end, 0, b0, (size_t)(q - b0), NULL, 0);
	free(big);
	if (o) {
		o->n = 0;
		if (owned)
			free(o->v);
	}
	return rc;
}

/* Write the held-back ends up to time t (all of them for INT64_MAX).  Ends at
 * one time go out with those that start flows before those that end flows,
 * so a flow's start is always read before its end. */
static int release(pf_sink *s, int64_t t)
{
	while (s->nheap && s->heap[0].end <= t) {
		pend_end e;
		open_slot tmp;
		heap_pop(s, &e);
		open_slot *o = end_flows(s, &e, &tmp);
		int rc;
		if (!s->nheap || s->heap[0].end != e.end || !has_term(o)) {
			rc = write_end(s, &e, o, o == &tmp);
			if (rc)
				return rc;
			continue;
		}
		/* e ends flows and others end at the same time: those that do not, first */
		pend_end later[16];
		open_slot own[16], *lo[16];
		size_t nl = 0;
		rc = 0;
		later[0] = e;
		if (o == &tmp) {
			own[0] = tmp;
			o = &own[0];
		}
		lo[nl++] = o;
		while (s->nheap && s->heap[0].end == e.end && nl < 16) {
			pend_end f;
			heap_pop(s, &f);
			open_slot *fo = end_flows(s, &f, &own[nl]);
			if (has_term(fo)) {
				later[nl] = f;
				lo[nl++] = fo;
			} else if (!rc) {
				rc = write_end(s, &f, fo, fo == &own[nl]);
			} else if (fo == &own[nl]) {
				free(own[nl].v);
			}
		}
		for (size_t i = 0; i < nl; i++) {
			if (!rc)
				rc = write_end(s, &later[i], lo[i], lo[i] == &own[i]);
			else if (lo[i] == &own[i])
				free(own[i].v);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* Before a packet at time t on `track` (0 = a counter: never has ends): the
 * ends due by then.  When t goes back in time and the track still has an open
 * slice, every held end first, so each track's packets stay in its own order
 * (the windowed counters go back in time on their own tracks, and stay cheap). */
static int advance_to(pf_sink *s, int64_t t, uint64_t track)
{
	if (!s->nheap)
		return 0;
	if (t < s->now && track) {
		for (size_t i = 0; i < s->nheap; i++)
			if (s->heap[i].track == track)
				return release(s, INT64_MAX);
	}
	return release(s, t);
}

static int pf_flow(tl_sink *base, uint64_t track, uint64_t id, int terminating)
{
	pf_sink *s = (pf_sink *)base;
	open_slot *o = slot_find(s, track);
	if (!o || !o->seq)
		return 0;
	return slot_add(s, o, id, terminating) ? -1 : 1;
}

/* ---- track events ---- */

static uint64_t intern(pf_sink *s, tl_intern *t, const char *str, int *fresh)
{
	return s->base.stable_strings ? nxp__tl_intern_stable(t, str, fresh) : nxp__tl_intern(t, str, fresh);
}

/* The iid of `str` in interning table t (`table`: 1 names, 2 annotation
 * names, 3 strings, as def_seen) on sequence sq; *def = 1 when the caller
 * defines it now (first use on sq).  0 = write it inline.  The strings of an
 * event with stable_strings are also looked up by pointer in s->known first:
 * such a pointer stays valid and unchanged for the whole export, so once
 * interned and defined on sq it needs neither the interning table nor
 * def_seen again (two hash probes per string otherwise, on every event).
 * Four ways a set: direct-mapped, colliding keys (opcodes and operand
 * strings of one engine) evicted each other on a fifth of the lookups. */
static uint64_t resolve_slow(pf_sink *s, const pf_seq *sq, tl_intern *t, unsigned table, const char *str,
			     unsigned char *def, pf_known *k, uint32_t tag);

/* (The hit in s->known inlined in pf_event: most of an event's lookups; the
 * call with the slow path's registers to save cost as much as the lookup.) */
static inline __attribute__((always_inline)) uint64_t resolve(pf_sink *s, const pf_seq *sq, tl_intern *t,
							       unsigned table, const char *str, unsigned char *def)
{
	pf_known *k = NULL;
	uint32_t tag = sq->id << 2 | table;
	*def = 0;
	if (s->base.stable_strings) {
		uint64_t h = ((uint64_t)(uintptr_t)str ^ ((uint64_t)tag << 40)) * 0x9e3779b97f4a7c15ull;
		k = s->known[h >> 52]; /* TL_KNOWN_SETS = 2^12 */
		for (int w = 0; w < 4; w++)
			if (k[w].ptr == str && k[w].tag == tag)
				return k[w].iid;
	}
	return resolve_slow(s, sq, t, table, str, def, k, tag);
}

static __attribute__((noinline)) uint64_t resolve_slow(pf_sink *s, const pf_seq *sq, tl_intern *t, unsigned table,
						     const char *str, unsigned char *def, pf_known *k, uint32_t tag)
{
	int fresh;
	uint64_t iid = intern(s, t, str, &fresh);
	int seen = def_seen(s, sq, table, iid);
	if (seen < 0)
		return 0;
	*def = (unsigned char)!seen;
	if (k) { /* the set's oldest entry goes */
		memmove(k + 1, k, 3 * sizeof(*k));
		k[0] = (pf_known){str, (uint32_t)iid, tag};
	}
	return iid;
}

/* The annotation cache of sequence sq (see pf_argc), NULL = none. */
static pf_argc *argc_of(pf_sink *s, const pf_seq *sq)
{
	if (sq->id > TL_SEQ + TL_MAX_SEQS)
		return NULL;
	if (!s->argc && !(s->argc = calloc(TL_SEQ + TL_MAX_SEQS + 1, sizeof(*s->argc))))
		return NULL;
	if (!s->argc[sq->id])
		s->argc[sq->id] = calloc(TL_MAX_ARGS, sizeof(pf_argc));
	return s->argc[sq->id];
}

/* Definition {iid, str} as field f of InternedData, appended to s->inb at *inn. */
static int pf_define(pf_sink *s, size_t *inn, unsigned f, uint64_t iid, const char *str)
{
	size_t n = strlen(str);
	if (buf_reserve(s, &s->inb, &s->inb_cap, *inn + n + 48))
		return -1;
	*inn = (size_t)(pinterned(s->inb + *inn, f, iid, str, n) - s->inb);
	return 0;
}

static int pf_event(tl_sink *base, const tl_event *e)
{
	pf_sink *s = (pf_sink *)base;
	int rc = advance_to(s, e->ts, e->track);
	if (rc)
		return rc;
	size_t nargs = e->nargs < TL_MAX_ARGS ? e->nargs : TL_MAX_ARGS;
	int uses_iid = 0;
	pf_seq *sq = seq_of(s, e->track);
	if (!sq)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	/* One pass: each string resolved (a stable event's annotations in the
	 * sequence's pf_argc first), then written.  The TrackEvent goes in
	 * s->pack within a bound reserved up front, raised (rarely) by a string
	 * written inline; the definitions go in s->inb: the event's name, the
	 * annotation names in order, then the string values (fv). */
	uint64_t niid = 0, fsid[TL_MAX_ARGS];
	unsigned char fv[TL_MAX_ARGS], nfresh = 0;
	size_t nfv = 0, inn = 0;
	size_t need = 96 + 48 * nargs + TL_FLOW_BYTES * (e->nflow_out + e->nflow_in);
	if (e->name) {
		niid = resolve(s, sq, &s->names, 1, e->name, &nfresh);
		if (!niid || nfresh)
			need += 2 * strlen(e->name);
	}
	if (pf_reserve(s, need))
		return -1;
	unsigned char *t = s->pack;

	t = ptrack(t, sq, e->track);
	t = ptag(t, 9, 0);
	*t++ = e->dur < 0 ? 3 : 1; /* TYPE_INSTANT : TYPE_SLICE_BEGIN */
	if (e->name) {
		if (niid) {
			uses_iid = 1;
			t = ptag(t, 10, 0);
			t = pv(t, niid);
			if (nfresh && pf_define(s, &inn, 2, niid, e->name))
				return -1;
		} else {
			t = pbytes(t, 23, e->name, strlen(e->name));
		}
	}
	/* Annotations: names interned (few), string values interned (capped).
	 * Each is written in place behind a one-byte length, patched after (and
	 * the body moved up in the rare case of a length of 128 or more). */
	pf_argc *pc = s->base.stable_strings && nargs ? argc_of(s, sq) : NULL;
	for (size_t i = 0; i < nargs; i++) {
		const tl_arg *a = &e->args[i];
		uint64_t aid, vid = 0;
		unsigned char afresh = 0;
		const char *sv = NULL; /* the string value, when written inline */
		size_t more = 0;
		if (pc && pc[i].aid && pc[i].name == a->name) {
			aid = pc[i].aid;
		} else {
			aid = resolve(s, sq, &s->arg_names, 2, a->name, &afresh);
			if (!aid)
				more += 2 * strlen(a->name);
			if (pc && aid) /* defined on sq by this packet if not before */
				pc[i] = (pf_argc){a->name, NULL, (uint32_t)aid, 0};
		}
		if (a->type != TL_ARG_INT && a->type != TL_ARG_DOUBLE) {
			const char *v = a->s ? a->s : "";
			if (a->type != TL_ARG_STRING) {
				vid = 0;
			} else if (pc && pc[i].sid && pc[i].val == v) {
				vid = pc[i].sid;
			} else {
				unsigned char f = 0;
				vid = resolve(s, sq, &s->strings, 3, v, &f);
				if (f) {
					fv[nfv] = (unsigned char)i;
					fsid[nfv++] = vid;
				}
				if (pc && vid) {
					pc[i].val = v;
					pc[i].sid = (uint32_t)vid;
				}
			}
			if (!vid) {
				sv = v;
				more += 2 * strlen(v);
			}
		}
		if (more) { /* the bound grows; the TrackEvent may move */
			size_t at = (size_t)(t - s->pack);
			need += more;
			if (pf_reserve(s, need))
				return -1;
			t = s->pack + at;
		}
		t = ptag(t, 4, 2);
		unsigned char *len = t++, *d = t;
		if (aid) {
			uses_iid = 1;
			d = ptag(d, 1, 0);
			d = pv(d, aid);
			if (afresh && pf_define(s, &inn, 3, aid, a->name))
				return -1;
		}
		switch (a->type) {
		case TL_ARG_INT:
			d = ptag(d, 4, 0);
			d = pv(d, (uint64_t)a->i);
			break;
		case TL_ARG_DOUBLE:
			d = pdouble(d, 5, a->d);
			break;
		default:
			if (vid) {
				uses_iid = 1;
				d = ptag(d, 17, 0);
				d = pv(d, vid);
			}
			break;
		}
		/* the name inline when not interned, then the value inline when not interned */
		if (!aid)
			d = pbytes(d, 10, a->name, strlen(a->name));
		if (sv)
			d = pbytes(d, 6, sv, strlen(sv));
		size_t dlen = (size_t)(d - t);
		if (dlen >= 0x80) {
			size_t up = vlen(dlen) - 1;
			memmove(t + up, t, dlen);
			d += up;
		}
		pv(len, dlen);
		t = d;
	}
	for (size_t k = 0; k < nfv; k++) {
		const char *v = e->args[fv[k]].s ? e->args[fv[k]].s : "";
		if (pf_define(s, &inn, 29, fsid[k], v))
			return -1;
	}
	/* Flows: on an instant itself, on the begin packet when the caller asks
	 * (flows_on_begin), else on the slice's end packet (its track's slot). */
	int on_end = e->dur >= 0 && !base->flows_on_begin;
	if (!on_end) {
		for (size_t i = 0; i < e->nflow_out; i++)
			t = pfixed64(t, 47, e->flow_out[i]);
		for (size_t i = 0; i < e->nflow_in; i++)
			t = pfixed64(t, 48, e->flow_in[i]);
	}
	rc = pf_write_packet(s, sq, e->ts, uses_iid ? 2u : 0u, s->pack, (size_t)(t - s->pack), s->inb, inn);
	if (rc || e->dur < 0)
		return rc;
	/* The end: same track, no name (Perfetto pairs it with the open slice),
	 * held back until the stream's time reaches it. */
	pend_end pe = {e->ts + e->dur, ++s->seq, e->track};
	open_slot *o = slot_get(s, e->track);
	if (!o)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	if (o->seq && o->n && slot_park(s, o))
		return -1;
	o->seq = pe.seq;
	o->n = 0;
	for (size_t i = 0; on_end && i < e->nflow_out; i++)
		if (slot_add(s, o, e->flow_out[i], 0))
			return -1;
	for (size_t i = 0; on_end && i < e->nflow_in; i++)
		if (slot_add(s, o, e->flow_in[i], 1))
			return -1;
	return heap_push(s, &pe);
}

static int pf_counter(tl_sink *base, uint64_t track, int64_t ts, double value)
{
	pf_sink *s = (pf_sink *)base;
	int rc = advance_to(s, ts, 0);
	if (rc)
		return rc;
	pf_seq *sq = seq_of(s, track);
	if (!sq)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	unsigned char te[40], *q = te;
	q = ptrack(q, sq, track);
	q = ptag(q, 9, 0);
	*q++ = 4; /* TYPE_COUNTER */
	if (value == (double)(int64_t)value && value > -9e15 && value < 9e15) {
		/* Integral values (semaphores, empty windows) as the varint counter_value. */
		q = ptag(q, 30, 0);
		q = pv(q, (uint64_t)(int64_t)value);
	} else {
		q = pdouble(q, 44, value);
	}
	return pf_write_packet(s, sq, ts, 0, te, (size_t)(q - te), NULL, 0);
}

static int pf_finish(tl_sink *base, int64_t *bytes)
{
	pf_sink *s = (pf_sink *)base;
	int rc = pf_start(s);
	if (!rc)
		rc = release(s, INT64_MAX);
	if (!rc)
		rc = pf_flush(s);
	if (rc)
		return rc;
	int fd = s->fd;
	s->fd = -1;
	if (close(fd))
		return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s", strerror(errno));
	*bytes = s->written;
	return 0;
}

static void pf_destroy(tl_sink *base)
{
	pf_sink *s = (pf_sink *)base;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	nxp__tl_intern_free(&s->names);
	nxp__tl_intern_free(&s->arg_names);
	nxp__tl_intern_free(&s->strings);
	free(s->buf);
	free(s->zbuf);
#ifdef NXP_HAVE_LIBDEFLATE
	if (s->zc)
		libdeflate_free_compressor(s->zc);
#endif
	free(s->pack);
	free(s->inb);
	free(s->heap);
	for (size_t i = 0; i < s->nparked; i++)
		free(s->parked[i].v);
	free(s->parked);
	for (size_t i = 0; i < s->slots_cap; i++)
		free(s->slots[i].v);
	free(s->slots);
	free(s->seqs);
	free(s->defs);
	for (size_t i = 0; s->argc && i <= TL_SEQ + TL_MAX_SEQS; i++)
		free(s->argc[i]);
	free(s->argc);
	free(s);
}
int nxp__perfetto_sink_open(tl_sink **out, int fd, int deflate, nxp_status *st)
{
	pf_sink *s = calloc(1, sizeof(*s));
	if (s)
		s->buf = malloc(TL_BUF + TL_SLACK);
#ifdef NXP_HAVE_LIBDEFLATE
	if (s && s->buf && deflate && !(s->zc = libdeflate_alloc_compressor(1))) {
		free(s->buf);
		s->buf = NULL;
	}
#endif
	if (!s || !s->buf) {
		free(s);
		close(fd);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	s->fd = fd;
	s->deflate = deflate;
	s->shared.id = TL_SEQ;
	s->base.track = pf_track;
	s->base.event = pf_event;
	s->base.counter = pf_counter;
	s->base.flow = pf_flow;
	s->base.finish = pf_finish;
	s->base.destroy = pf_destroy;
	s->base.st = st;
	/* Caps: opcodes, tensor names and argument names are few; operand strings
	 * can be many (one per distinct instruction), hence their larger cap. */
	nxp__tl_intern_init(&s->names, 1u << 16);
	nxp__tl_intern_init(&s->arg_names, 1u << 10);
	nxp__tl_intern_init(&s->strings, 1u << 18);
	*out = &s->base;
	return 0;
}
