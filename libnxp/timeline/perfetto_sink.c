/* SPDX-License-Identifier: MIT */
/* Timeline sink: a Perfetto trace (perfetto.protos.Trace), one TracePacket at a
 * time.  Each packet is packed with protobuf-c and written as one `packet`
 * field (1, length-delimited) of the Trace, so the file is the concatenation of
 * packets and nothing is held back.
 *
 * All packets are on one sequence (trusted_packet_sequence_id TL_SEQ).  Event
 * names, debug annotation names and string argument values are interned per
 * sequence: the first packet carries SEQ_INCREMENTAL_STATE_CLEARED, every track
 * event after it SEQ_NEEDS_INCREMENTAL_STATE, and a string's definition rides in
 * the interned_data of the first packet that uses it.  Past the interning caps a
 * string is written inline (TrackEvent.name, DebugAnnotation.name/string_value),
 * so memory stays bounded whatever the trace. */
#include "timeline_priv.h"

#include "perfetto_trace.pb-c.h"
#include "status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TL_SEQ 0x4e58u        /* 'NX' */
#define TL_MAX_ARGS 24
#define TL_BUF (256u * 1024u)

typedef struct pf_sink {
	tl_sink base;
	int fd;
	unsigned char *buf;
	size_t len;
	int64_t written;
	int first_done;
	tl_intern names, arg_names, strings;
	unsigned char *pack;
	size_t pack_cap;
} pf_sink;

static int pf_flush(pf_sink *s)
{
	size_t off = 0;
	while (off < s->len) {
		ssize_t n = write(s->fd, s->buf + off, s->len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s", strerror(errno));
		}
		off += (size_t)n;
	}
	s->written += (int64_t)s->len;
	s->len = 0;
	return 0;
}

static int pf_put(pf_sink *s, const void *p, size_t n)
{
	if (s->len + n > TL_BUF) {
		int rc = pf_flush(s);
		if (rc)
			return rc;
	}
	if (n > TL_BUF) { /* never for our packets; write straight through */
		s->len = 0;
		const unsigned char *b = p;
		while (n) {
			ssize_t w = write(s->fd, b, n);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s",
						strerror(errno));
			}
			b += w;
			n -= (size_t)w;
			s->written += w;
		}
		return 0;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

/* One Trace.packet: tag (field 1, wire type 2), length, the packed packet. */
static int pf_emit(pf_sink *s, Perfetto__Protos__TracePacket *pk)
{
	pk->optional_trusted_packet_sequence_id_case =
		PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	pk->trusted_packet_sequence_id = TL_SEQ;
	pk->has_sequence_flags = 1;
	if (!s->first_done) {
		pk->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
		s->first_done = 1;
	} else if (pk->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT &&
		   (pk->interned_data || pk->track_event->name_field_case ==
						 PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID ||
		    pk->track_event->n_debug_annotations)) {
		/* Uses interned names or strings (annotations always have an interned
		 * or inline name; flagging them all is simpler and still exact). */
		pk->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	} else {
		pk->has_sequence_flags = 0;
	}
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

/* ---- hand-encoded track events ----
 * The hot packets (slice begin and end, instants, counter values) are written
 * straight from the upstream field numbers into a reusable buffer; protobuf-c's
 * generic pack (a descriptor walk per field, twice: size then pack) cost more
 * than everything else together.  Track descriptors, rare, still go through
 * protobuf-c above.  Field numbers (protos/perfetto/trace/): TracePacket
 * timestamp 8, trusted_packet_sequence_id 10, track_event 11, interned_data 12,
 * sequence_flags 13; TrackEvent debug_annotations 4, type 9, name_iid 10,
 * track_uuid 11, name 23, counter_value 30, double_counter_value 44, flow_ids 47,
 * terminating_flow_ids 48; DebugAnnotation name_iid 1, int_value 4,
 * double_value 5, string_value 6, name 10, string_value_iid 17; InternedData
 * event_names 2, debug_annotation_names 3, debug_annotation_string_values 29
 * (each {iid 1, name/str 2}). */

static inline unsigned char *pv(unsigned char *p, uint64_t v)
{
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

static int pf_reserve(pf_sink *s, size_t n)
{
	if (n <= s->pack_cap)
		return 0;
	size_t cap = n * 2;
	unsigned char *p = realloc(s->pack, cap);
	if (!p)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	s->pack = p;
	s->pack_cap = cap;
	return 0;
}

/* Frame and write one packet whose body (without the track event) is
 * timestamp + sequence id + flags, followed by the TrackEvent `te` (tn bytes)
 * and the InternedData `in` (inn bytes, 0 = none). */
static int pf_write_packet(pf_sink *s, int64_t ts, unsigned flags, const unsigned char *te, size_t tn,
			   const unsigned char *in, size_t inn)
{
	unsigned char head[64];
	unsigned char *h = head;
	h = ptag(h, 8, 0);
	h = pv(h, (uint64_t)ts);
	h = ptag(h, 10, 0);
	h = pv(h, TL_SEQ);
	if (!s->first_done) {
		flags = 1; /* SEQ_INCREMENTAL_STATE_CLEARED */
		s->first_done = 1;
	}
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
	if (s->len + total <= TL_BUF) { /* the common case: straight into the output buffer */
		unsigned char *o = s->buf + s->len;
		memcpy(o, frame, (size_t)(f - frame));
		o += f - frame;
		memcpy(o, head, (size_t)(h - head));
		o += h - head;
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

static int pf_event(tl_sink *base, const tl_event *e)
{
	pf_sink *s = (pf_sink *)base;
	size_t nargs = e->nargs < TL_MAX_ARGS ? e->nargs : TL_MAX_ARGS;
	/* Bound of both messages: fixed overhead per field plus the strings. */
	size_t need = 64 + strlen(e->name ? e->name : "") * 2 + 24 * (e->nflow_out + e->nflow_in);
	for (size_t i = 0; i < nargs; i++) {
		need += 64 + strlen(e->args[i].name) * 2;
		if (e->args[i].type == TL_ARG_STRING && e->args[i].s)
			need += strlen(e->args[i].s) * 2;
	}
	if (pf_reserve(s, need * 2))
		return -1;
	unsigned char *te0 = s->pack, *t = te0;
	unsigned char *in0 = s->pack + need, *in = in0;
	int fresh, uses_iid = 0;

	t = ptag(t, 11, 0);
	t = pv(t, e->track);
	t = ptag(t, 9, 0);
	*t++ = e->dur < 0 ? 3 : 1; /* TYPE_INSTANT : TYPE_SLICE_BEGIN */
	if (e->name) {
		uint64_t iid = nxp__tl_intern(&s->names, e->name, &fresh);
		if (iid) {
			uses_iid = 1;
			t = ptag(t, 10, 0);
			t = pv(t, iid);
			if (fresh)
				in = pinterned(in, 2, iid, e->name, strlen(e->name));
		} else {
			t = pbytes(t, 23, e->name, strlen(e->name));
		}
	}
	/* Annotations: names interned (few), string values interned (capped). */
	unsigned char astr[TL_MAX_ARGS];
	uint64_t asid[TL_MAX_ARGS];
	for (size_t i = 0; i < nargs; i++) {
		const tl_arg *a = &e->args[i];
		unsigned char da[64 + 16], *d = da;
		const char *sv = NULL;
		size_t svn = 0;
		astr[i] = 0;
		uint64_t aid = nxp__tl_intern(&s->arg_names, a->name, &fresh);
		if (aid) {
			uses_iid = 1;
			d = ptag(d, 1, 0);
			d = pv(d, aid);
			if (fresh)
				in = pinterned(in, 3, aid, a->name, strlen(a->name));
		}
		switch (a->type) {
		case TL_ARG_INT:
			d = ptag(d, 4, 0);
			d = pv(d, (uint64_t)a->i);
			break;
		case TL_ARG_DOUBLE:
			d = pdouble(d, 5, a->d);
			break;
		default: {
			const char *v = a->s ? a->s : "";
			uint64_t sid = nxp__tl_intern(&s->strings, v, &fresh);
			if (sid) {
				uses_iid = 1;
				d = ptag(d, 17, 0);
				d = pv(d, sid);
				if (fresh) {
					astr[i] = 1;
					asid[i] = sid;
				}
			} else {
				sv = v;
				svn = strlen(v);
			}
			break;
		}
		}
		/* The annotation: its name inline when not interned, the value inline
		 * when not interned (both can be long: written straight into t). */
		size_t nn = aid ? 0 : strlen(a->name);
		size_t dlen = (size_t)(d - da) + (aid ? 0 : 1 + vlen(nn) + nn) + (sv ? 1 + vlen(svn) + svn : 0);
		t = ptag(t, 4, 2);
		t = pv(t, dlen);
		memcpy(t, da, (size_t)(d - da));
		t += d - da;
		if (!aid)
			t = pbytes(t, 10, a->name, nn);
		if (sv)
			t = pbytes(t, 6, sv, svn);
	}
	for (size_t i = 0; i < nargs; i++)
		if (astr[i]) {
			const char *v = e->args[i].s ? e->args[i].s : "";
			in = pinterned(in, 29, asid[i], v, strlen(v));
		}
	for (size_t i = 0; i < e->nflow_out; i++)
		t = pfixed64(t, 47, e->flow_out[i]);
	for (size_t i = 0; i < e->nflow_in; i++)
		t = pfixed64(t, 48, e->flow_in[i]);
	int rc = pf_write_packet(s, e->ts, uses_iid ? 2u : 0u, te0, (size_t)(t - te0), in0, (size_t)(in - in0));
	if (rc || e->dur < 0)
		return rc;

	/* The end: same track, no name (Perfetto pairs it with the open slice). */
	unsigned char ee[24], *q = ee;
	q = ptag(q, 11, 0);
	q = pv(q, e->track);
	q = ptag(q, 9, 0);
	*q++ = 2; /* TYPE_SLICE_END */
	return pf_write_packet(s, e->ts + e->dur, 0, ee, (size_t)(q - ee), NULL, 0);
}

static int pf_counter(tl_sink *base, uint64_t track, int64_t ts, double value)
{
	pf_sink *s = (pf_sink *)base;
	unsigned char te[40], *q = te;
	q = ptag(q, 11, 0);
	q = pv(q, track);
	q = ptag(q, 9, 0);
	*q++ = 4; /* TYPE_COUNTER */
	if (value == (double)(int64_t)value && value > -9e15 && value < 9e15) {
		/* Integral values (semaphores, empty windows) as the varint counter_value. */
		q = ptag(q, 30, 0);
		q = pv(q, (uint64_t)(int64_t)value);
	} else {
		q = pdouble(q, 44, value);
	}
	return pf_write_packet(s, ts, 0, te, (size_t)(q - te), NULL, 0);
}

static int pf_finish(tl_sink *base, int64_t *bytes)
{
	pf_sink *s = (pf_sink *)base;
	int rc = pf_flush(s);
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
	free(s->pack);
	free(s);
}

int nxp__perfetto_sink_open(tl_sink **out, int fd, nxp_status *st)
{
	pf_sink *s = calloc(1, sizeof(*s));
	if (s)
		s->buf = malloc(TL_BUF);
	if (!s || !s->buf) {
		free(s);
		close(fd);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	s->fd = fd;
	s->base.track = pf_track;
	s->base.event = pf_event;
	s->base.counter = pf_counter;
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
