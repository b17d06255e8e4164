/* SPDX-License-Identifier: MIT */
/* trace_info.pb: SystemProfileMetadata.  The file is small; it is read whole
 * (up to max_message_size) and unpacked once.  A stream of length-delimited
 * messages is merged in order, as protobuf concatenation does. */
#include "abi_struct.h"
#include "pbwire.h"
#include "status.h"
#include "system_priv.h"

#include "trace_info.pb-c.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t info_tags[] = {
	PB_TAG(1, PB_VARINT), PB_TAG(2, PB_VARINT), PB_TAG(3, PB_VARINT), PB_TAG(4, PB_VARINT),
	PB_TAG(5, PB_LEN),    PB_TAG(6, PB_LEN),    PB_TAG(7, PB_LEN),    PB_TAG(8, PB_VARINT),
	PB_TAG(9, PB_VARINT), PB_TAG(10, PB_LEN),   PB_TAG(11, PB_LEN),   PB_TAG(12, PB_VARINT),
	PB_TAG(13, PB_VARINT), PB_TAG(14, PB_VARINT), PB_TAG(15, PB_LEN),
};

struct nxp_trace_info {
	Ntff__TraceInfo *msg;
	char first_ts[48], last_ts[48];
};

static int is_known(uint64_t v)
{
	for (size_t i = 0; i < sizeof(info_tags) / sizeof(info_tags[0]); i++)
		if (info_tags[i] == v)
			return 1;
	return 0;
}

/* Read the whole input (at most cap bytes). */
static int slurp(nxp_source *src, uint64_t cap, uint8_t **out, size_t *len, nxp_status *st)
{
	sysin in;
	int rc = sysin_open(&in, src, 1, st);
	sbuf b = {0};
	while (!rc) {
		rc = sysin_fill(&in, st);
		if (rc == NXP_END) {
			rc = NXP_OK;
			break;
		}
		if (rc)
			break;
		size_t n = in.len - in.pos;
		if (b.len + n > cap) {
			rc = nxp__error_set(st, NXP_E_LIMIT, (int64_t)sysin_tell(&in),
					    "trace_info.pb is larger than %llu bytes", (unsigned long long)cap);
			break;
		}
		sb_put(&b, (const char *)in.buf + in.pos, n);
		in.pos += n;
		if (b.oom)
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	sysin_close(&in);
	if (rc) {
		sb_free(&b);
		return rc;
	}
	*out = (uint8_t *)b.s;
	*len = b.len;
	return NXP_OK;
}

int nxp_trace_info_open(nxp_trace_info **out, nxp_source *src, const nxp_system_options *opts, nxp_status *st)
{
	if (!out || !src)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_trace_info_open: NULL argument");
	*out = NULL;
	sys_opts o;
	int rc = sys_opts_resolve(&o, opts);
	if (rc)
		return rc == NXP_E_NOMEM ? nxp__error_set(st, rc, -1, "out of memory")
					 : nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_options: bad struct_size");
	uint64_t max_message = o.max_message;
	sys_opts_free(&o); /* only the size limit is used */
	uint8_t *data = NULL;
	size_t len = 0;
	rc = slurp(src, max_message, &data, &len, st);
	if (rc)
		return rc;
	uint64_t first = 0;
	size_t k = len ? pb_decode_varint(data, len, &first) : 0;
	if (len && !k) {
		free(data);
		return nxp__error_set(st, NXP_E_PROTOBUF, 0, "malformed varint at offset 0");
	}
	if (len && !is_known(first)) {
		/* Stream: move every message's bytes together (concatenation = merge). */
		size_t pos = 0, w = 0;
		while (pos < len) {
			uint64_t n;
			size_t h = pb_decode_varint(data + pos, len - pos, &n);
			if (!h) {
				free(data);
				return nxp__error_set(st, len - pos < 10 ? NXP_E_TRUNCATED : NXP_E_PROTOBUF,
						      (int64_t)pos,
						      "bad message length at offset %zu", pos);
			}
			if (n > len - pos - h) {
				free(data);
				return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)pos,
						      "message length %llu at offset %zu runs past the end of the input",
						      (unsigned long long)n, pos);
			}
			memmove(data + w, data + pos + h, (size_t)n);
			w += (size_t)n;
			pos += h + (size_t)n;
		}
		len = w;
	}
	nxp_trace_info *ti = calloc(1, sizeof(*ti));
	if (!ti) {
		free(data);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	ti->msg = ntff__trace_info__unpack(NULL, len, data);
	free(data);
	if (!ti->msg) {
		free(ti);
		return nxp__error_set(st, NXP_E_PROTOBUF, 0, "trace_info.pb does not unpack as ntff.TraceInfo");
	}
	if (ti->msg->has_first_ts_ns)
		sys_iso_time((int64_t)ti->msg->first_ts_ns, ti->first_ts, sizeof(ti->first_ts));
	if (ti->msg->has_last_ts_ns)
		sys_iso_time((int64_t)ti->msg->last_ts_ns, ti->last_ts, sizeof(ti->last_ts));
	*out = ti;
	return NXP_OK;
}

int nxp_trace_info_get(const nxp_trace_info *ti, nxp_system_metadata *out)
{
	if (!ti || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	const Ntff__TraceInfo *m = ti->msg;
	nxp_system_metadata md;
	md.struct_size = sizeof(md);
	md.first_ts = ti->first_ts;
	md.last_ts = ti->last_ts;
#define OPT(f) (m->has_##f ? (int64_t)m->f : -1)
	md.first_ts_ns = OPT(first_ts_ns);
	md.last_ts_ns = OPT(last_ts_ns);
	md.ntff_version = OPT(ntff_version);
	md.hbm_capacity_bytes = OPT(hbm_capacity_bytes);
	md.pid = OPT(pid);
	md.session_id = OPT(session_id);
	md.logical_nc_size = OPT(logical_nc_size);
	md.num_neuron_cores = OPT(num_neuron_cores);
	md.data_version = OPT(data_version);
#undef OPT
	md.instance_id = m->instance_id ? m->instance_id : "";
	md.instance_type = m->instance_type ? m->instance_type : "";
	md.arch = m->arch ? m->arch : "";
	md.runtime_version = m->runtime_version ? m->runtime_version : "";
	md.driver_version = m->driver_version ? m->driver_version : "";
	NXP__STRUCT_OUT(out, md, sizeof(size_t));
	return NXP_OK;
}

void nxp_trace_info_close(nxp_trace_info *ti)
{
	if (!ti)
		return;
	if (ti->msg)
		ntff__trace_info__free_unpacked(ti->msg, NULL);
	free(ti);
}

/* Nothing on an open nxp_trace_info records an error (nxp_trace_info_get's only
 * failure is NXP_E_INVAL for its own arguments, and it takes a const handle
 * that several threads may share): the accessor exists so that every handle
 * has one, and reports "no error". */
int nxp_trace_info_error(const nxp_trace_info *ti, nxp_status *st)
{
	if (!ti)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_trace_info_error: NULL handle");
	nxp_status none;
	nxp_status_init(&none);
	return nxp_status_copy(st, &none);
}
