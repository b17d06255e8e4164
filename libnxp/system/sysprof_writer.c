/* SPDX-License-Identifier: MIT */
/* Writers for the system-profile files: ntrace.pb, cpu_util.pb, host_mem.pb and
 * trace_info.pb (protobuf-c pack; one root message or a length-delimited
 * stream), and a small Chrome-trace trace.json writer.  They produce exactly
 * what the readers accept (see pbwire.h for the stream framing rule). */
#include "abi_struct.h"
#include "pbwire.h"
#include "status.h"
#include "system_priv.h"

#include "host_stats.pb-c.h"
#include "ntrace.pb-c.h"
#include "trace_info.pb-c.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define ROOT_EVENTS 1 /* repeated events / samples: field 1 in every root */
#define ROOT_PADDING 15

/* Known root tags per kind: must match the readers' tables. */
static const uint32_t ntrace_tags[] = {0x0a, 0x12, 0x1a, 0x22, 0x28, 0x30, 0x38, 0x40, 0x4a, 0x7a};
static const uint32_t host_tags[] = {0x0a, 0x12, 0x7a};
static const uint32_t info_tags[] = {0x08, 0x10, 0x18, 0x20, 0x2a, 0x32, 0x3a, 0x40,
				     0x48, 0x52, 0x5a, 0x60, 0x68, 0x70, 0x7a};

static int in_set(const uint32_t *t, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] == v)
			return 1;
	return 0;
}

/* Padding bytes to add (as field 15) to a first stream message of `len` bytes so
 * that its length is not a known root tag; 0 = none needed. */
static size_t pad_for(const uint32_t *tags, size_t n, size_t len)
{
	if (!in_set(tags, n, len))
		return 0;
	for (size_t k = 0;; k++)
		if (!in_set(tags, n, len + 2 + k))
			return 2 + k;
}

static void put_pad(sbuf *b, size_t pad)
{
	uint8_t hdr[2] = {ROOT_PADDING << 3 | PB_LEN, (uint8_t)(pad - 2)};
	sb_put(b, (const char *)hdr, 2);
	for (size_t i = 2; i < pad; i++)
		sb_put(b, "", 1);
}

struct nxp_sysprof_writer {
	int kind;
	FILE *f;
	char *path;
	nxp_status err;
	nxp_sysprof_writer_options o;
	char *arch, *instance_id;
	sbuf head;        /* root fields other than events, written before the first event */
	int head_done;
	sbuf chunk;       /* stream: current message's events */
	uint32_t in_chunk;
	int messages;     /* stream messages written */
	uint8_t *pk;
	size_t pk_cap;
};

static const uint32_t *kind_tags(int kind, size_t *n)
{
	if (kind == NXP_SYSFILE_NTRACE) {
		*n = sizeof(ntrace_tags) / sizeof(ntrace_tags[0]);
		return ntrace_tags;
	}
	*n = sizeof(host_tags) / sizeof(host_tags[0]);
	return host_tags;
}

static void put_varint_field(sbuf *b, uint32_t field, uint64_t v)
{
	uint8_t t[20];
	size_t n = pb_encode_varint(PB_TAG(field, PB_VARINT), t);
	n += pb_encode_varint(v, t + n);
	sb_put(b, (const char *)t, n);
}

static void put_len_field(sbuf *b, uint32_t field, const void *data, size_t len)
{
	uint8_t t[20];
	size_t n = pb_encode_varint(PB_TAG(field, PB_LEN), t);
	n += pb_encode_varint(len, t + n);
	sb_put(b, (const char *)t, n);
	sb_put(b, data, len);
}

static int wfail(nxp_sysprof_writer *w, int code, const char *what)
{
	return nxp__error_set(&w->err, code, -1, "%s: %s", w->path, what);
}

static int write_bytes(nxp_sysprof_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		return wfail(w, NXP_E_IO, strerror(errno));
	return NXP_OK;
}

/* Stream: write one length-delimited message from `b` (padded when first). */
static int write_message(nxp_sysprof_writer *w, sbuf *b)
{
	if (w->messages == 0) {
		size_t n;
		const uint32_t *tags = kind_tags(w->kind, &n);
		size_t pad = pad_for(tags, n, b->len);
		if (pad)
			put_pad(b, pad);
	}
	if (b->oom)
		return wfail(w, NXP_E_NOMEM, "out of memory");
	uint8_t v[10];
	size_t k = pb_encode_varint(b->len, v);
	int rc = write_bytes(w, v, k);
	if (!rc)
		rc = write_bytes(w, b->s, b->len);
	w->messages++;
	sb_reset(b);
	return rc;
}

static int flush_head(nxp_sysprof_writer *w)
{
	if (w->head_done)
		return NXP_OK;
	w->head_done = 1;
	if (w->head.oom)
		return wfail(w, NXP_E_NOMEM, "out of memory");
	if (w->o.stream)
		return w->head.len ? write_message(w, &w->head) : NXP_OK;
	return write_bytes(w, w->head.s, w->head.len);
}

int nxp_sysprof_writer_open(nxp_sysprof_writer **out, const char *path, int kind,
			    const nxp_sysprof_writer_options *opts, nxp_status *st)
{
	if (!out || !path ||
	    (kind != NXP_SYSFILE_NTRACE && kind != NXP_SYSFILE_CPU_UTIL && kind != NXP_SYSFILE_HOST_MEM) ||
	    (opts && !nxp__struct_size_ok(opts, NXP_SYSPROF_WRITER_OPTIONS_SIZE_V0_1)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_sysprof_writer_open: bad argument");
	*out = NULL;
	nxp_sysprof_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	nxp_status_init(&w->err);
	w->kind = kind;
	nxp_sysprof_writer_options_init(&w->o);
	if (opts) /* fields an older caller's header lacks keep their defaults */
		NXP__STRUCT_IN_DEFAULTS(w->o, opts, NXP_SYSPROF_WRITER_OPTIONS_SIZE_V0_1);
	if (!w->o.chunk_events)
		w->o.chunk_events = 4096;
	/* The root strings are written at the first event (after the string
	 * pool): keep copies so the caller's need not outlive this call. */
	w->arch = w->o.arch ? sys_strdup(w->o.arch) : NULL;
	w->instance_id = w->o.instance_id ? sys_strdup(w->o.instance_id) : NULL;
	int nomem = (w->o.arch && !w->arch) || (w->o.instance_id && !w->instance_id);
	w->o.arch = w->arch;
	w->o.instance_id = w->instance_id;
	if (nomem) {
		nxp_sysprof_writer_close(w);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	w->path = sys_strdup(path);
	w->f = fopen(path, "wb");
	if (!w->path || !w->f) {
		int rc = nxp__error_set(st, w->path ? NXP_E_IO : NXP_E_NOMEM, -1, "%s: %s", path, strerror(errno));
		nxp_sysprof_writer_close(w);
		return rc;
	}
	/* Root fields, in field order after the pool (added by _string). */
	if (kind == NXP_SYSFILE_NTRACE) {
		/* string pool entries (field 3) come first: appended by _string */
	} else if (w->o.instance_id) {
		put_len_field(&w->head, 2, w->o.instance_id, strlen(w->o.instance_id));
	}
	*out = w;
	return NXP_OK;
}

int nxp_sysprof_writer_string(nxp_sysprof_writer *w, const char *s)
{
	if (!w || !s || w->kind != NXP_SYSFILE_NTRACE || w->head_done)
		return NXP_E_INVAL;
	put_len_field(&w->head, 3, s, strlen(s));
	return w->head.oom ? NXP_E_NOMEM : NXP_OK;
}

static void ntrace_root_fields(nxp_sysprof_writer *w)
{
	const nxp_sysprof_writer_options *o = &w->o;
	if (o->arch)
		put_len_field(&w->head, 4, o->arch, strlen(o->arch));
	if (o->pid >= 0)
		put_varint_field(&w->head, 5, (uint64_t)o->pid);
	if (o->session_id >= 0)
		put_varint_field(&w->head, 6, (uint64_t)o->session_id);
	if (o->data_version >= 0)
		put_varint_field(&w->head, 7, (uint64_t)o->data_version);
	if (o->logical_nc_size >= 0)
		put_varint_field(&w->head, 8, (uint64_t)o->logical_nc_size);
	if (o->instance_id)
		put_len_field(&w->head, 9, o->instance_id, strlen(o->instance_id));
}

/* Append one packed element (field 1) to the output. */
static int put_element(nxp_sysprof_writer *w, const ProtobufCMessage *m)
{
	if (!w->head_done) {
		if (w->kind == NXP_SYSFILE_NTRACE)
			ntrace_root_fields(w);
		int rc = flush_head(w);
		if (rc)
			return rc;
	}
	size_t n = protobuf_c_message_get_packed_size(m);
	if (n > w->pk_cap) {
		uint8_t *p = realloc(w->pk, n);
		if (!p)
			return wfail(w, NXP_E_NOMEM, "out of memory");
		w->pk = p;
		w->pk_cap = n;
	}
	protobuf_c_message_pack(m, w->pk);
	if (w->o.stream) {
		put_len_field(&w->chunk, ROOT_EVENTS, w->pk, n);
		if (++w->in_chunk >= w->o.chunk_events) {
			w->in_chunk = 0;
			return write_message(w, &w->chunk);
		}
		return w->chunk.oom ? wfail(w, NXP_E_NOMEM, "out of memory") : NXP_OK;
	}
	uint8_t t[12];
	size_t k = pb_encode_varint(PB_TAG(ROOT_EVENTS, PB_LEN), t);
	k += pb_encode_varint(n, t + k);
	int rc = write_bytes(w, t, k);
	return rc ? rc : write_bytes(w, w->pk, n);
}

int nxp_sysprof_writer_event(nxp_sysprof_writer *w, const nxp_ntrace_event *ev)
{
	if (!w || w->kind != NXP_SYSFILE_NTRACE ||
	    !nxp__struct_size_ok(ev, offsetof(nxp_ntrace_event, n_attributes) + sizeof(ev->n_attributes)))
		return NXP_E_INVAL;
	Ntff__TraceEvent e = NTFF__TRACE_EVENT__INIT;
	e.has_timestamp = 1;
	e.timestamp = (uint64_t)ev->timestamp;
	e.hint = (char *)(ev->name ? ev->name : NULL);
	if (ev->phase) {
		e.has_phase = 1;
		e.phase = (Ntff__TraceEvent__Phase)ev->phase;
	}
#define SET(f, src)                                  \
	if (ev->src >= 0) {                          \
		e.has_##f = 1;                       \
		e.f = (__typeof__(e.f))ev->src;      \
	}
	SET(duration, duration)
	SET(nc_idx, nc_idx)
	SET(nd_idx, nd_idx)
	SET(thread_id, thread_id)
	SET(id, id)
	SET(parent_id, parent_id)
	SET(tracking_id, tracking_id)
	SET(nrta_seq_id, nrta_seq_id)
	SET(data, data)
	SET(status, status)
	SET(event_type, event_type)
#undef SET
	Ntff__TraceEvent__AttributesEntry ent[64], *ptr[64];
	if (ev->n_attributes > 64)
		return wfail(w, NXP_E_INVAL, "more than 64 attributes");
	for (size_t i = 0; i < ev->n_attributes; i++) {
		ntff__trace_event__attributes_entry__init(&ent[i]);
		ent[i].key = (char *)ev->attributes[2 * i];
		ent[i].value = (char *)ev->attributes[2 * i + 1];
		ptr[i] = &ent[i];
	}
	e.n_attributes = ev->n_attributes;
	e.attributes = ptr;
	return put_element(w, &e.base);
}

int nxp_sysprof_writer_cpu(nxp_sysprof_writer *w, const nxp_cpu_usage *s)
{
	if (!w || w->kind != NXP_SYSFILE_CPU_UTIL ||
	    !nxp__struct_size_ok(s, offsetof(nxp_cpu_usage, cpu_id) + sizeof(s->cpu_id)))
		return NXP_E_INVAL;
	Ntff__CpuUtilSample m = NTFF__CPU_UTIL_SAMPLE__INIT;
	m.has_timestamp = m.has_util_percent = 1;
	m.timestamp = (uint64_t)s->timestamp;
	m.util_percent = s->util_percent;
	m.cpu_id = (char *)s->cpu_id;
	return put_element(w, &m.base);
}

int nxp_sysprof_writer_mem(nxp_sysprof_writer *w, const nxp_host_mem_usage *s)
{
	if (!w || w->kind != NXP_SYSFILE_HOST_MEM ||
	    !nxp__struct_size_ok(s, offsetof(nxp_host_mem_usage, used_percent) + sizeof(s->used_percent)))
		return NXP_E_INVAL;
	Ntff__HostMemSample m = NTFF__HOST_MEM_SAMPLE__INIT;
	m.has_timestamp = m.has_used_bytes = m.has_used_percent = 1;
	m.timestamp = (uint64_t)s->timestamp;
	m.used_bytes = (uint64_t)s->used_bytes;
	m.used_percent = s->used_percent;
	if (nxp__struct_size_ok(s, offsetof(nxp_host_mem_usage, total_bytes) + sizeof(s->total_bytes)) &&
	    s->total_bytes >= 0) {
		m.has_total_bytes = 1;
		m.total_bytes = (uint64_t)s->total_bytes;
	}
	return put_element(w, &m.base);
}

int nxp_sysprof_writer_finish(nxp_sysprof_writer *w)
{
	if (!w || !w->f)
		return NXP_E_INVAL;
	int rc = NXP_OK;
	if (!w->head_done && w->kind == NXP_SYSFILE_NTRACE)
		ntrace_root_fields(w);
	rc = flush_head(w);
	if (!rc && w->o.stream && w->in_chunk)
		rc = write_message(w, &w->chunk);
	if (fclose(w->f) != 0 && !rc)
		rc = wfail(w, NXP_E_IO, strerror(errno));
	w->f = NULL;
	return rc;
}

void nxp_sysprof_writer_close(nxp_sysprof_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	free(w->path);
	free(w->arch);
	free(w->instance_id);
	sb_free(&w->head);
	sb_free(&w->chunk);
	free(w->pk);
	free(w);
}

int nxp_sysprof_writer_error(const nxp_sysprof_writer *w, nxp_status *st)
{
	if (!w)
		return NXP_E_INVAL;
	return nxp_status_copy(st, &w->err);
}

/* ---- trace_info.pb ---- */
static int write_file(const char *path, const void *a, size_t n, nxp_status *st)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return nxp__error_set(st, NXP_E_IO, -1, "%s: %s", path, strerror(errno));
	int ok = (n == 0 || fwrite(a, 1, n, f) == n);
	if (fclose(f) != 0)
		ok = 0;
	return ok ? NXP_OK : nxp__error_set(st, NXP_E_IO, -1, "%s: write failed", path);
}

int nxp_trace_info_write(const char *path, const nxp_system_metadata *caller_md, int stream, nxp_status *st)
{
	/* Fields an older caller's header lacks read as 0: a field appended later
	 * whose "absent" is not 0 must also check caller_md->struct_size. */
	nxp_system_metadata full;
	if (!path || NXP__STRUCT_IN(full, caller_md, NXP_SYSTEM_METADATA_SIZE_V0_1) != NXP_OK)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_trace_info_write: bad argument");
	const nxp_system_metadata *md = &full;
	/* Stream form: the numbers in a first message, the strings in a second. */
	Ntff__TraceInfo a = NTFF__TRACE_INFO__INIT, b = NTFF__TRACE_INFO__INIT;
	Ntff__TraceInfo *nums = &a, *strs = stream ? &b : &a;
#define NUM(f)                                       \
	if (md->f >= 0) {                            \
		nums->has_##f = 1;                   \
		nums->f = (__typeof__(nums->f))md->f; \
	}
	NUM(first_ts_ns)
	NUM(last_ts_ns)
	NUM(ntff_version)
	NUM(hbm_capacity_bytes)
	NUM(pid)
	NUM(session_id)
	NUM(logical_nc_size)
	NUM(num_neuron_cores)
	NUM(data_version)
#undef NUM
	strs->instance_id = (char *)md->instance_id;
	strs->instance_type = (char *)md->instance_type;
	strs->arch = (char *)md->arch;
	strs->runtime_version = (char *)md->runtime_version;
	strs->driver_version = (char *)md->driver_version;
	sbuf out = {0};
	if (!stream) {
		size_t n = ntff__trace_info__get_packed_size(&a);
		uint8_t *p = malloc(n ? n : 1);
		if (!p)
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		ntff__trace_info__pack(&a, p);
		int rc = write_file(path, p, n, st);
		free(p);
		return rc;
	}
	Ntff__TraceInfo *parts[2] = {&a, &b};
	for (int i = 0; i < 2; i++) {
		size_t n = ntff__trace_info__get_packed_size(parts[i]);
		size_t pad = i == 0 ? pad_for(info_tags, sizeof(info_tags) / sizeof(info_tags[0]), n) : 0;
		uint8_t *p = malloc(n + 1);
		if (!p) {
			sb_free(&out);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		ntff__trace_info__pack(parts[i], p);
		uint8_t v[10];
		size_t k = pb_encode_varint(n + pad, v);
		sb_put(&out, (const char *)v, k);
		sb_put(&out, (const char *)p, n);
		if (pad)
			put_pad(&out, pad);
		free(p);
	}
	int rc = out.oom ? nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory") : write_file(path, out.s, out.len, st);
	sb_free(&out);
	return rc;
}

/* ---- trace.json ---- */
static json_t *id_value(const char *s)
{
	if (!s)
		return json_string("");
	char *end;
	long long v = strtoll(s, &end, 10);
	if (*s && !*end)
		return json_integer(v);
	return json_string(s);
}

static json_t *us_value(int64_t ns)
{
	if (ns % 1000 == 0)
		return json_integer(ns / 1000);
	return json_real((double)ns / 1000.0);
}

int nxp_trace_json_write(const char *path, const nxp_system_event *events, size_t n, int64_t base_time_ns,
			 int gzip, nxp_status *st)
{
	if (!path || (n && !events))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_trace_json_write: bad argument");
	sbuf b = {0};
	sb_puts(&b, "{\"traceEvents\": [\n");
	int rc = NXP_OK;
	for (size_t i = 0; i < n && !rc; i++) {
		const nxp_system_event *e = &events[i];
		const char *ph = e->phase && e->phase[0] ? e->phase : "X";
		json_t *o = json_object();
		json_object_set_new(o, "ph", json_string(ph));
		if (e->name)
			json_object_set_new(o, "name", json_string(e->name));
		if (e->category && e->category[0])
			json_object_set_new(o, "cat", json_string(e->category));
		json_object_set_new(o, "pid", id_value(e->pid));
		json_object_set_new(o, "tid", id_value(e->tid));
		int64_t rel, dur = 0;
		if (__builtin_sub_overflow(e->start_ts, base_time_ns, &rel) ||
		    (ph[0] == 'X' && __builtin_sub_overflow(e->end_ts, e->start_ts, &dur))) {
			json_decref(o);
			rc = nxp__error_set(st, NXP_E_RANGE, (int64_t)i, "event %zu: ts or dur does not fit int64 ns",
					    i);
			break;
		}
		json_object_set_new(o, "ts", us_value(rel));
		if (ph[0] == 'X')
			json_object_set_new(o, "dur", us_value(dur));
		if (strchr("stf", ph[0]) && e->flow_id && e->flow_id[0])
			json_object_set_new(o, "id", id_value(e->flow_id));
		if (e->extra_attributes_json && e->extra_attributes_json[0]) {
			json_error_t jerr;
			json_t *a = json_loads(e->extra_attributes_json, 0, &jerr);
			if (!json_is_object(a)) {
				json_decref(a);
				json_decref(o);
				rc = nxp__error_set(st, NXP_E_JSON, (int64_t)i,
						    "event %zu: extra_attributes_json is not a JSON object",
						    i);
				break;
			}
			/* The reader keeps a flow's bp and an instant's scope with the args: put them back. */
			const char *lift = strchr("stf", ph[0]) ? "bp" : strchr("iI", ph[0]) ? "s" : NULL;
			json_t *l = lift ? json_object_get(a, lift) : NULL;
			if (l) {
				json_object_set(o, lift, l);
				json_object_del(a, lift);
			}
			if (json_object_size(a) || ph[0] == 'M' || ph[0] == 'C')
				json_object_set_new(o, "args", a);
			else
				json_decref(a);
		}
		char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(o);
		if (!txt) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		}
		sb_puts(&b, i ? ",\n  " : "  ");
		sb_puts(&b, txt);
		free(txt);
	}
	sb_puts(&b, "\n]");
	if (base_time_ns)
		sb_printf(&b, ",\n\"baseTimeNanoseconds\": %lld", (long long)base_time_ns);
	sb_puts(&b, "}\n");
	if (!rc && b.oom)
		rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	if (!rc && !gzip)
		rc = write_file(path, b.s, b.len, st);
	if (!rc && gzip) {
		gzFile g = gzopen(path, "wb");
		if (!g)
			rc = nxp__error_set(st, NXP_E_IO, -1, "%s: cannot create", path);
		else {
			int ok = gzwrite(g, b.s, (unsigned)b.len) == (int)b.len;
			if (gzclose(g) != Z_OK || !ok)
				rc = nxp__error_set(st, NXP_E_IO, -1, "%s: write failed", path);
		}
	}
	sb_free(&b);
	return rc;
}
