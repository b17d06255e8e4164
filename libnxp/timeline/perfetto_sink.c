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
			return nxp_fail(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s", strerror(errno));
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
				return nxp_fail(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s",
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
			return nxp_fail(s->base.st, NXP_E_NOMEM, -1, "out of memory");
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

typedef struct pf_interned {
	Perfetto__Protos__InternedData id;
	Perfetto__Protos__EventName en[1], *enp[1];
	Perfetto__Protos__DebugAnnotationName an[TL_MAX_ARGS], *anp[TL_MAX_ARGS];
	Perfetto__Protos__InternedString is[TL_MAX_ARGS], *isp[TL_MAX_ARGS];
} pf_interned;

static int pf_event_common(pf_sink *s, Perfetto__Protos__TracePacket *pk, Perfetto__Protos__TrackEvent *te,
			   pf_interned *in, const char *name)
{
	int fresh;
	pk->data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pk->track_event = te;
	if (!name)
		return 0;
	uint64_t iid = nxp__tl_intern(&s->names, name, &fresh);
	if (iid) {
		te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
		te->name_iid = iid;
		if (fresh) {
			perfetto__protos__event_name__init(&in->en[0]);
			in->en[0].has_iid = 1;
			in->en[0].iid = iid;
			in->en[0].name = (char *)name;
			in->enp[0] = &in->en[0];
			in->id.event_names = in->enp;
			in->id.n_event_names = 1;
			pk->interned_data = &in->id;
		}
	} else {
		te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
		te->name = (char *)name;
	}
	return 0;
}

static int pf_event(tl_sink *base, const tl_event *e)
{
	pf_sink *s = (pf_sink *)base;
	Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation da[TL_MAX_ARGS], *dap[TL_MAX_ARGS];
	pf_interned in;
	perfetto__protos__interned_data__init(&in.id);
	size_t nargs = e->nargs < TL_MAX_ARGS ? e->nargs : TL_MAX_ARGS;
	int fresh;

	pf_event_common(s, &pk, &te, &in, e->name);
	for (size_t i = 0; i < nargs; i++) {
		const tl_arg *a = &e->args[i];
		perfetto__protos__debug_annotation__init(&da[i]);
		dap[i] = &da[i];
		uint64_t iid = nxp__tl_intern(&s->arg_names, a->name, &fresh);
		if (iid) {
			da[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
			da[i].name_iid = iid;
			if (fresh) {
				Perfetto__Protos__DebugAnnotationName *dn = &in.an[in.id.n_debug_annotation_names];
				perfetto__protos__debug_annotation_name__init(dn);
				dn->has_iid = 1;
				dn->iid = iid;
				dn->name = (char *)a->name;
				in.anp[in.id.n_debug_annotation_names++] = dn;
			}
		} else {
			da[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
			da[i].name = (char *)a->name;
		}
		switch (a->type) {
		case TL_ARG_INT:
			da[i].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
			da[i].int_value = a->i;
			break;
		case TL_ARG_DOUBLE:
			da[i].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE;
			da[i].double_value = a->d;
			break;
		default: {
			const char *v = a->s ? a->s : "";
			uint64_t sid = nxp__tl_intern(&s->strings, v, &fresh);
			if (sid) {
				da[i].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
				da[i].string_value_iid = sid;
				if (fresh) {
					Perfetto__Protos__InternedString *is =
						&in.is[in.id.n_debug_annotation_string_values];
					perfetto__protos__interned_string__init(is);
					is->has_iid = 1;
					is->iid = sid;
					is->has_str = 1;
					is->str.data = (uint8_t *)v;
					is->str.len = strlen(v);
					in.isp[in.id.n_debug_annotation_string_values++] = is;
				}
			} else {
				da[i].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
				da[i].string_value = (char *)v;
			}
			break;
		}
		}
	}
	if (in.id.n_debug_annotation_names) {
		in.id.debug_annotation_names = in.anp;
		pk.interned_data = &in.id;
	}
	if (in.id.n_debug_annotation_string_values) {
		in.id.debug_annotation_string_values = in.isp;
		pk.interned_data = &in.id;
	}
	te.n_debug_annotations = nargs;
	te.debug_annotations = nargs ? dap : NULL;
	te.n_flow_ids = e->nflow_out;
	te.flow_ids = (uint64_t *)e->flow_out;
	te.n_terminating_flow_ids = e->nflow_in;
	te.terminating_flow_ids = (uint64_t *)e->flow_in;
	te.has_type = 1;
	te.type = e->dur < 0 ? PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT
			     : PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	te.has_track_uuid = 1;
	te.track_uuid = e->track;
	pk.has_timestamp = 1;
	pk.timestamp = (uint64_t)e->ts;
	int rc = pf_emit(s, &pk);
	if (rc || e->dur < 0)
		return rc;

	/* The end: same track, no name (Perfetto pairs it with the open slice). */
	Perfetto__Protos__TracePacket pe = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent ee = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	pe.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pe.track_event = &ee;
	ee.has_type = 1;
	ee.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	ee.has_track_uuid = 1;
	ee.track_uuid = e->track;
	pe.has_timestamp = 1;
	pe.timestamp = (uint64_t)(e->ts + e->dur);
	return pf_emit(s, &pe);
}

static int pf_counter(tl_sink *base, uint64_t track, int64_t ts, double value)
{
	pf_sink *s = (pf_sink *)base;
	Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pk.track_event = &te;
	te.has_type = 1;
	te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
	te.has_track_uuid = 1;
	te.track_uuid = track;
	te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
	te.double_counter_value = value;
	pk.has_timestamp = 1;
	pk.timestamp = (uint64_t)ts;
	return pf_emit(s, &pk);
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
		return nxp_fail(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s", strerror(errno));
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
		return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
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
