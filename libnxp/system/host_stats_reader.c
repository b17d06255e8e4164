/* SPDX-License-Identifier: MIT */
/* cpu_util.pb and host_mem.pb: CpuUsage / HostMemUsage sample cursors.  The
 * root is walked one field at a time and each sample unpacked alone. */
#include "abi_struct.h"
#include "pbwire.h"
#include "status.h"
#include "system_priv.h"

#include "host_stats.pb-c.h"

#include <stdlib.h>
#include <string.h>

/* Root fields of CpuUtil and HostMem (host_stats.proto). */
enum { F_SAMPLES = 1, F_INSTANCE = 2, F_PADDING = 15 };

static const uint32_t host_tags[] = {
	PB_TAG(F_SAMPLES, PB_LEN), PB_TAG(F_INSTANCE, PB_LEN), PB_TAG(F_PADDING, PB_LEN),
};

struct nxp_host_stats {
	int kind;
	sys_opts o;
	pbwalk w;
	nxp_status err;
	int failed;
	char *instance_id;
	Ntff__CpuUtilSample *cpu;
	Ntff__HostMemSample *mem;
};

static void release(nxp_host_stats *h)
{
	if (h->cpu)
		ntff__cpu_util_sample__free_unpacked(h->cpu, NULL);
	if (h->mem)
		ntff__host_mem_sample__free_unpacked(h->mem, NULL);
	h->cpu = NULL;
	h->mem = NULL;
}

int nxp_host_stats_open(nxp_host_stats **out, nxp_source *src, int kind, const nxp_system_options *opts,
			nxp_status *st)
{
	if (!out || !src || (kind != NXP_SYSFILE_CPU_UTIL && kind != NXP_SYSFILE_HOST_MEM))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_host_stats_open: bad argument");
	*out = NULL;
	nxp_host_stats *h = calloc(1, sizeof(*h));
	if (!h)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	nxp_status_init(&h->err);
	h->kind = kind;
	int rc = sys_opts_resolve(&h->o, opts);
	if (rc) {
		free(h);
		return rc == NXP_E_NOMEM ? nxp__error_set(st, rc, -1, "out of memory")
					 : nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_options: bad struct_size");
	}
	rc = pbwalk_open(&h->w, src, host_tags, sizeof(host_tags) / sizeof(host_tags[0]),
			     1u << F_SAMPLES | 1u << F_INSTANCE, h->o.max_message, st);
	if (rc) {
		nxp_host_stats_close(h);
		return rc;
	}
	*out = h;
	return NXP_OK;
}

/* Next sample's bytes: 0 with *f, NXP_END, or an error (sticky). */
static int next_sample(nxp_host_stats *h, pbfield *f)
{
	if (h->failed)
		return h->err.code;
	release(h);
	for (;;) {
		int rc = pbwalk_next(&h->w, f, &h->err);
		if (rc == NXP_END)
			return NXP_END;
		if (rc) {
			h->failed = 1;
			return rc;
		}
		if (f->wire != PB_LEN)
			continue;
		if (f->num == F_SAMPLES)
			return NXP_OK;
		if (f->num == F_INSTANCE) {
			char *s = malloc((size_t)f->v + 1);
			if (!s) {
				h->failed = 1;
				return nxp__error_set(&h->err, NXP_E_NOMEM, -1, "out of memory");
			}
			memcpy(s, f->data, (size_t)f->v);
			s[f->v] = '\0';
			free(h->instance_id);
			h->instance_id = s;
		}
	}
}

static const char *inst(const nxp_host_stats *h)
{
	return h->instance_id ? h->instance_id : h->o.instance_id;
}

static int bad_sample(nxp_host_stats *h, const pbfield *f, const char *type)
{
	h->failed = 1;
	return nxp__error_set(&h->err, NXP_E_PROTOBUF, (int64_t)f->offset,
			      "sample at offset %llu does not unpack as %s",
			      (unsigned long long)f->offset, type);
}

int nxp_host_stats_next_cpu(nxp_host_stats *h, nxp_cpu_usage *out)
{
	if (!h || h->kind != NXP_SYSFILE_CPU_UTIL || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	pbfield f;
	int rc = next_sample(h, &f);
	if (rc)
		return rc;
	h->cpu = ntff__cpu_util_sample__unpack(NULL, (size_t)f.v, f.data);
	if (!h->cpu)
		return bad_sample(h, &f, "ntff.CpuUtilSample");
	nxp_cpu_usage u;
	u.struct_size = sizeof(u);
	u.timestamp = (int64_t)h->cpu->timestamp;
	u.util_percent = h->cpu->util_percent;
	u.cpu_id = h->cpu->cpu_id ? h->cpu->cpu_id : "";
	u.instance_id = inst(h);
	NXP__STRUCT_OUT(out, u, sizeof(size_t));
	return NXP_OK;
}

int nxp_host_stats_next_mem(nxp_host_stats *h, nxp_host_mem_usage *out)
{
	if (!h || h->kind != NXP_SYSFILE_HOST_MEM || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	pbfield f;
	int rc = next_sample(h, &f);
	if (rc)
		return rc;
	h->mem = ntff__host_mem_sample__unpack(NULL, (size_t)f.v, f.data);
	if (!h->mem)
		return bad_sample(h, &f, "ntff.HostMemSample");
	nxp_host_mem_usage u;
	u.struct_size = sizeof(u);
	u.timestamp = (int64_t)h->mem->timestamp;
	u.used_bytes = (int64_t)h->mem->used_bytes;
	u.used_percent = h->mem->used_percent;
	u.instance_id = inst(h);
	u.total_bytes = h->mem->has_total_bytes ? (int64_t)h->mem->total_bytes : -1;
	NXP__STRUCT_OUT(out, u, sizeof(size_t));
	return NXP_OK;
}

int nxp_host_stats_error(const nxp_host_stats *h, nxp_status *st)
{
	if (!h)
		return NXP_E_INVAL;
	return nxp_status_copy(st, &h->err);
}

void nxp_host_stats_close(nxp_host_stats *h)
{
	if (!h)
		return;
	release(h);
	pbwalk_close(&h->w);
	free(h->instance_id);
	sys_opts_free(&h->o);
	free(h);
}
