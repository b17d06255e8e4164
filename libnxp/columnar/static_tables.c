/* SPDX-License-Identifier: MIT */
/* The NEFF's static tables: NeffHeader (one row), TensorInfo, DmaQueuesInfo.
 * Public columns the NEFF reader has no value for (cc_participant_count,
 * logical_neuroncore_count, the load_to_sbuf_* statistics) are left out. */
#include "columnar_priv.h"

#include <stdio.h>
#include <string.h>

#include "status.h"

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- NeffHeader ---- */
enum { H_NAME, H_UUID, H_HASH, H_FEAT, H_HSIZE, H_DSIZE, H_MAJ, H_MIN, H_PKG, H_BUILD, H_NC, H_LNC, H_VERIFIED, H_GZIP };
static const nxc_col h_cols[] = {
	{ "network_name", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "network name" },
	{ "uuid", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "compilation UUID, 32 hex digits" },
	{ "hash", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "payload digest as stored, hex" },
	{ "enabled_features", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "feature bits, hex (their official names are not public)" },
	{ "header_size", NXC_I64, 0, 0, 0, 0, 0, 0, "bytes", "header size" },
	{ "data_size", NXC_I64, 0, 0, 0, 0, 0, 0, "bytes", "payload size" },
	{ "major_version", NXC_I64, 0, 0, 0, 0, 0, 0, "", "NEFF major version" },
	{ "minor_version", NXC_I64, 0, 0, 0, 0, 0, 0, "", "NEFF minor version" },
	{ "package_version", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "package version (2: gzip'd tar + MD5, 1: SHA-256)" },
	{ "build_version", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "compiler build version" },
	{ "neuroncore_count", NXC_I64, 0, 0, 0, 0, 0, 0, "", "NeuronCores the NEFF uses" },
	{ "pcore_count_per_lnc", NXC_I64, 0, 0, 0, 0, 0, 0, "", "logical NeuronCore size" },
	{ "hash_verified", NXC_BOOL, 1, 1, 0, 0, 0, 0, "", "libnxp: the payload digest was checked and matched" },
	{ "payload_gzip", NXC_BOOL, 1, 1, 0, 0, 0, 0, "", "libnxp: the payload is a gzip'd tar" },
};

static int h_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxc_builder *b = &s->b;
	nxp_neff_header h;
	memset(&h, 0, sizeof(h));
	h.struct_size = sizeof(h);
	int rc = nxp_neff_get_header(nxp_profile_neff(p), &h);
	if (rc)
		return nxp__error_set(st, rc, -1, "cannot read the NEFF header");
	char hex[65], tmp[32];
	nxc_put_str(b, H_NAME, h.name);
	nxp_hex(h.uuid, 16, hex);
	nxc_put_str(b, H_UUID, hex);
	nxp_hex(h.hash, 32, hex);
	nxc_put_str(b, H_HASH, hex);
	snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)h.feature_bits);
	nxc_put_str(b, H_FEAT, tmp);
	nxc_put_i64(b, H_HSIZE, (int64_t)h.header_size);
	nxc_put_i64(b, H_DSIZE, (int64_t)h.data_size);
	nxc_put_i64(b, H_MAJ, (int64_t)h.neff_version_major);
	nxc_put_i64(b, H_MIN, (int64_t)h.neff_version_minor);
	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)h.pkg_version);
	nxc_put_str(b, H_PKG, tmp);
	nxc_put_str(b, H_BUILD, h.build_version);
	nxc_put_i64(b, H_NC, h.num_tpb);
	nxc_put_i64(b, H_LNC, h.lnc_size);
	nxc_put_bool(b, H_VERIFIED, h.hash_verified);
	nxc_put_bool(b, H_GZIP, h.payload_gzip);
	nxc_end_row(b);
	return 0;
}

/* ---- TensorInfo ---- */
enum { T_NAME, T_TYPE, T_FORMAT, T_SHAPE, T_SIZE, T_NODE, T_PCORE, T_FILE };
static const nxc_col t_cols[] = {
	{ "variable_name", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "tensor name" },
	{ "type", NXC_DICT, 0, 0, 0, 0, 0, 0, "", "input, output, state-buffer, file, tmp-buf, virtual, pointer, dge-table, ..." },
	{ "format", NXC_DICT, 0, 0, 0, 0, 0, 0, "", "element type (bf16, ...); null if unknown" },
	{ "shape", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "[d0,d1,...]; null if unknown" },
	{ "size", NXC_I64, 0, 0, 0, 0, 0, 0, "bytes", "size; null if unknown" },
	{ "node", NXC_I64, 0, 0, 0, 0, 0, 0, "", "var_id; null if absent" },
	{ "pcore_idx", NXC_I64, 0, 0, 0, 0, 0, 0, "", "physical core of the subgraph" },
	{ "file_name", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: weights file of a tensor of type file; null otherwise" },
};

static void put_opt_str(nxc_builder *b, int col, const char *s)
{
	if (s && *s)
		nxc_put_str(b, col, s);
	else
		nxc_put_null(b, col);
}

static void put_opt_i64(nxc_builder *b, int col, int64_t v)
{
	if (v >= 0)
		nxc_put_i64(b, col, v);
	else
		nxc_put_null(b, col);
}

static int t_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxc_builder *b = &s->b;
	const nxp_neff *n = nxp_profile_neff(p);
	size_t cnt = nxp_neff_tensor_count(n);
	for (size_t i = 0; i < cnt; i++) {
		nxp_tensor_info t;
		memset(&t, 0, sizeof(t));
		t.struct_size = sizeof(t);
		int rc = nxp_neff_get_tensor(n, i, &t);
		if (rc)
			return nxp__error_set(st, rc, -1, "cannot read tensor %zu", i);
		put_opt_str(b, T_NAME, t.variable_name);
		put_opt_str(b, T_TYPE, t.type);
		put_opt_str(b, T_FORMAT, t.format);
		put_opt_str(b, T_SHAPE, t.shape);
		put_opt_i64(b, T_SIZE, t.size);
		put_opt_i64(b, T_NODE, t.node);
		put_opt_i64(b, T_PCORE, t.pcore_idx);
		put_opt_str(b, T_FILE, t.file_name);
		nxc_end_row(b);
	}
	return 0;
}

/* ---- DmaQueuesInfo ---- */
enum { Q_NAME, Q_TYPE, Q_PCORE, Q_IDX, Q_ENGINE, Q_AXI, Q_DRAM, Q_NEFF_TYPE, Q_OWNER };
static const nxc_col q_cols[] = {
	{ "name", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "queue-set name from def.json" },
	{ "type", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "DmaQueueType" },
	{ "pcore_idx", NXC_I64, 1, 0, 0, 0, 0, 0, "", "physical core" },
	{ "idx", NXC_I64, 1, 0, 0, 0, 0, 0, "", "instance index inside the set" },
	{ "engine_idx", NXC_I64, 1, 0, 0, 0, 0, 0, "", "DMA engine (16 queues per engine in libnxp's model)" },
	{ "axi_port", NXC_I64, 0, 0, 0, 0, 0, 0, "", "AXI port; null when the NEFF does not give it (required in the public schema)" },
	{ "dram_channel", NXC_I64, 0, 0, 0, 0, 0, 0, "", "DRAM channel; null when the NEFF does not give it (required in the public schema)" },
	{ "neff_type", NXC_DICT, 1, 1, 0, 0, 0, 0, "", "libnxp: the type as written in def.json" },
	{ "owner", NXC_DICT, 0, 1, 0, 0, 0, 0, "", "libnxp: owning engine short name; null if none" },
};

static int q_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxc_builder *b = &s->b;
	const nxp_neff *n = nxp_profile_neff(p);
	size_t cnt = nxp_neff_dma_queue_count(n);
	for (size_t i = 0; i < cnt; i++) {
		nxp_dma_queue_info q;
		memset(&q, 0, sizeof(q));
		q.struct_size = sizeof(q);
		int rc = nxp_neff_get_dma_queue(n, i, &q);
		if (rc)
			return nxp__error_set(st, rc, -1, "cannot read DMA queue %zu", i);
		nxc_put_str(b, Q_NAME, q.name);
		nxc_put_str(b, Q_TYPE, q.type);
		nxc_put_i64(b, Q_PCORE, q.pcore_idx);
		nxc_put_i64(b, Q_IDX, q.idx);
		nxc_put_i64(b, Q_ENGINE, q.engine_idx);
		put_opt_i64(b, Q_AXI, q.axi_port);
		put_opt_i64(b, Q_DRAM, q.dram_channel);
		nxc_put_str(b, Q_NEFF_TYPE, q.neff_type);
		put_opt_str(b, Q_OWNER, q.owner);
		nxc_end_row(b);
	}
	return 0;
}

static int h_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, h_rows, p, path, st);
}
static int t_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, t_rows, p, path, st);
}
static int q_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, q_rows, p, path, st);
}

const nxc_table nxc_table_neff_header = { "NeffHeader", NXC_KIND_PROFILE, 0, 0, h_cols, NCOLS(h_cols), h_open };
const nxc_table nxc_table_tensor_info = { "TensorInfo", NXC_KIND_PROFILE, 0, 0, t_cols, NCOLS(t_cols), t_open };
const nxc_table nxc_table_dma_queues_info = { "DmaQueuesInfo", NXC_KIND_PROFILE, 0, 0, q_cols, NCOLS(q_cols),
					      q_open };
