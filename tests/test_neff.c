/* SPDX-License-Identifier: MIT */
/* NEFF reader and writer: header, archive, manifests, limits, hostile input, misuse. */
#define _GNU_SOURCE
#include "neff_fixture.h"
#include "neff_internal.h"
#include "source.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* ---- Helpers ---- */
#define ANY_OFFSET INT64_MIN        /* do not check the offset */
#define PAYLOAD_OFFSET (INT64_MIN + 1) /* any offset inside the payload */

enum { WAY_MEMORY, WAY_CHUNKY_SEQ, WAY_CHUNKY_SEEK, WAY_COUNT };

static nxp_source *open_way(int way, const void *data, size_t len)
{
	nxp_source *src = NULL;
	if (way == WAY_MEMORY)
		ck_assert_int_eq(nxp_source_open_memory(&src, data, len, NULL), NXP_OK);
	else
		src = tu_chunky_source(data, len, way == WAY_CHUNKY_SEEK);
	ck_assert_ptr_nonnull(src);
	return src;
}

typedef void (*check_fn)(nxp_neff *n, int way);

/* Open through memory, a sequential chunky source and a seekable one, and run `fn` on each. */
static void open_all_ways(const void *data, size_t len, const nxp_neff_options *o, check_fn fn)
{
	for (int way = 0; way < WAY_COUNT; way++) {
		nxp_source *src = open_way(way, data, len);
		nxp_status st;
		nxp_status_init(&st);
		nxp_neff *n = NULL;
		int rc = nxp_neff_open(&n, src, o, &st);
		ck_assert_msg(rc == NXP_OK, "way %d: %d %s @%lld", way, rc, st.message, (long long)st.offset);
		ck_assert_int_eq(st.code, 0);
		fn(n, way);
		nxp_neff_close(n);
		nxp_source_close(src);
	}
}

/* Every way must fail with `code`, a message containing `needle`, and `offset`. */
static void fail_all_ways(const void *data, size_t len, const nxp_neff_options *o, int code, const char *needle,
			  int64_t offset)
{
	for (int way = 0; way < WAY_COUNT; way++) {
		nxp_source *src = open_way(way, data, len);
		nxp_status st;
		nxp_status_init(&st);
		nxp_neff *n = (nxp_neff *)&st; /* must be reset to NULL */
		int rc = nxp_neff_open(&n, src, o, &st);
		ck_assert_msg(rc == code, "way %d: expected %d, got %d (%s)", way, code, rc, st.message);
		ck_assert_ptr_null(n);
		ck_assert_int_eq(st.code, code);
		ck_assert_msg(strstr(st.message, needle), "way %d: \"%s\" lacks \"%s\"", way, st.message, needle);
		if (offset == PAYLOAD_OFFSET)
			ck_assert_msg(st.offset >= 1024 && st.offset <= (int64_t)len, "way %d: offset %lld", way,
				      (long long)st.offset);
		else if (offset != ANY_OFFSET)
			ck_assert_msg(st.offset == offset, "way %d: offset %lld, expected %lld", way,
				      (long long)st.offset, (long long)offset);
		nxp_source_close(src);
	}
}

static void *std_neff(uint32_t wflags, uint64_t pkg, size_t *len)
{
	const fx_member *m;
	size_t count = fx_std_members(&m);
	return fx_neff(m, count, wflags, pkg, len);
}

/* Standard members with one replaced (path match) or added. */
static void *std_neff_with(const char *path, const void *data, size_t dlen, uint32_t wflags, size_t *len)
{
	const fx_member *m;
	size_t count = fx_std_members(&m);
	fx_member *mm = calloc(count + 1, sizeof(*mm));
	size_t k = 0;
	int replaced = 0;
	for (size_t i = 0; i < count; i++) {
		if (!strcmp(m[i].path, path)) {
			if (data)
				mm[k++] = (fx_member){path, data, dlen ? dlen : strlen(data)};
			replaced = 1;
		} else {
			mm[k++] = m[i];
		}
	}
	if (!replaced && data)
		mm[k++] = (fx_member){path, data, dlen ? dlen : strlen(data)};
	void *out = fx_neff(mm, k, wflags, 2, len);
	free(mm);
	return out;
}

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- The standard NEFF, checked field by field ---- */
static int expect_gzip;

static void check_std(nxp_neff *n, int way)
{
	(void)way;
	nxp_neff_header h = {.struct_size = sizeof(h)};
	ck_assert_int_eq(nxp_neff_get_header(n, &h), NXP_OK);
	ck_assert_uint_eq(h.pkg_version, 2);
	ck_assert_uint_eq(h.header_size, 1024);
	ck_assert_int_eq(h.payload_gzip, expect_gzip);
	ck_assert_int_eq(h.hash_verified, 0);
	ck_assert_str_eq(h.name, "fixture");
	ck_assert_uint_eq(h.num_tpb, 2); /* writer default: sg00 and sg01 */

	ck_assert_uint_eq(nxp_neff_subgraph_count(n), 2);
	nxp_neff_subgraph sg = {.struct_size = sizeof(sg)};
	ck_assert_int_eq(nxp_neff_get_subgraph(n, 0, &sg), NXP_OK);
	ck_assert_str_eq(sg.name, "sg00");
	ck_assert_str_eq(sg.definition, "sg00/def.json");
	ck_assert_int_eq(sg.pcore_idx, 0);
	ck_assert_uint_eq(sg.tensor_count, 4);
	ck_assert_uint_eq(sg.dma_queue_count, 22);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_TENSOR], 3);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_SCALAR], 2);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_VECTOR], 0);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_GPSIMD], 1);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_SYNC], 1);
	ck_assert_int_eq(nxp_neff_get_subgraph(n, 1, &sg), NXP_OK);
	ck_assert_str_eq(sg.name, "sg01"); /* no "name" in kelf: the folder */
	ck_assert_str_eq(sg.definition, "sg01/def.json");
	ck_assert_uint_eq(sg.tensor_count, 2);
	ck_assert_uint_eq(sg.dma_queue_count, 0);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_TENSOR], 1);
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_SCALAR], 0);

	/* Tensors: subgraph then name order; comment keys ignored. */
	ck_assert_uint_eq(nxp_neff_tensor_count(n), 6);
	static const char *const names[] = {"IN", "OUT", "SB", "W0", "IN", "W1"};
	static const int64_t sizes[] = {301056, 4096, -1, 65536, 1000, 100};
	static const int64_t nodes[] = {0, 2, 3, 1, -1, -1};
	for (size_t i = 0; i < 6; i++) {
		nxp_tensor_info t = {.struct_size = sizeof(t)};
		ck_assert_int_eq(nxp_neff_get_tensor(n, i, &t), NXP_OK);
		ck_assert_str_eq(t.variable_name, names[i]);
		ck_assert_int_eq(t.size, sizes[i]);
		ck_assert_int_eq(t.node, nodes[i]);
		ck_assert_int_eq(t.pcore_idx, i < 4 ? 0 : 1);
	}
	nxp_tensor_info t = {.struct_size = sizeof(t)};
	ck_assert_int_eq(nxp_neff_get_tensor(n, 0, &t), NXP_OK);
	ck_assert_str_eq(t.type, "input");
	ck_assert_str_eq(t.format, "bf16");
	ck_assert_str_eq(t.shape, "[1,3,224,224]");
	ck_assert_str_eq(t.file_name, "");
	ck_assert_int_eq(nxp_neff_get_tensor(n, 3, &t), NXP_OK);
	ck_assert_str_eq(t.type, "file");
	ck_assert_str_eq(t.file_name, "w0.npy");
	ck_assert_str_eq(t.format, "");

	/* DMA queues: one row per instance, engine_idx = index in subgraph / 16. */
	ck_assert_uint_eq(nxp_neff_dma_queue_count(n), 22);
	nxp_dma_queue_info q = {.struct_size = sizeof(q)};
	ck_assert_int_eq(nxp_neff_get_dma_queue(n, 0, &q), NXP_OK);
	ck_assert_str_eq(q.name, "IN_QUE");
	ck_assert_str_eq(q.type, "input");
	ck_assert_str_eq(q.neff_type, "in");
	ck_assert_str_eq(q.owner, "");
	ck_assert_int_eq(q.idx, 0);
	ck_assert_int_eq(q.engine_idx, 0);
	ck_assert_int_eq(q.axi_port, -1);
	ck_assert_int_eq(q.dram_channel, -1);
	ck_assert_int_eq(nxp_neff_get_dma_queue(n, 16, &q), NXP_OK);
	ck_assert_str_eq(q.name, "q_pe_in_w");
	ck_assert_str_eq(q.type, "data");
	ck_assert_str_eq(q.owner, "pe");
	ck_assert_int_eq(q.idx, 15);
	ck_assert_int_eq(q.engine_idx, 1);
	ck_assert_int_eq(nxp_neff_get_dma_queue(n, 18, &q), NXP_OK);
	ck_assert_str_eq(q.name, "q_act_out");
	ck_assert_str_eq(q.type, "output");
	ck_assert_int_eq(q.idx, 1);
	ck_assert_int_eq(q.axi_port, 1);
	ck_assert_int_eq(q.dram_channel, 0);
	static const char *const tail_types[] = {"software_dynamic", "data", "unknown"};
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(nxp_neff_get_dma_queue(n, 19 + (size_t)i, &q), NXP_OK);
		ck_assert_str_eq(q.type, tail_types[i]);
	}
	ck_assert_str_eq(q.neff_type, "teleport");

	const nxp_neff_queue *iq = nxp_neff_find_queue(n, 0, "q_pe_in_w", 3);
	ck_assert_ptr_nonnull(iq);
	ck_assert_int_eq(iq->idx, 3);
	ck_assert_int_eq(iq->engine_idx, 0);
	ck_assert_ptr_null(nxp_neff_find_queue(n, 0, "q_pe_in_w", 16));
	ck_assert_ptr_null(nxp_neff_find_queue(n, 1, "IN_QUE", 0));
	ck_assert_ptr_null(nxp_neff_find_queue(n, 7, "IN_QUE", 0));

	/* Instructions. */
	ck_assert_int_eq(nxp_neff_instruction_count(n, 0, NXP_ENGINE_TENSOR), 3);
	ck_assert_int_eq(nxp_neff_instruction_count(n, 1, NXP_ENGINE_TENSOR), 1);
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, NXP_ENGINE_TENSOR, 1, &in), NXP_OK);
	ck_assert_int_eq(in.pc, 1);
	ck_assert_int_eq(in.pcore_idx, 0);
	ck_assert_int_eq(in.engine, NXP_ENGINE_TENSOR);
	ck_assert_str_eq(in.opcode, "MATMUL");
	ck_assert_str_eq(in.tensor_instruction_type, "MATMUL");
	ck_assert_int_eq(in.raw_flops, 2LL * 128 * 64 * 512);
	ck_assert_str_eq(in.operands, "src=bf16@0x5600[1,0,0][512,1,1] dst=fp32@0x2000000[1,0,0][64,1,1] 512*128");
	const nxp_static_instr *si = nxp_neff_static_instr(n, 0, NXP_ENGINE_TENSOR, 1);
	ck_assert_ptr_nonnull(si);
	ck_assert_ptr_eq(si->operands, in.operands);
	ck_assert_int_eq(si->is_matmul, 1);
	ck_assert_int_eq(si->is_transpose, 0);
	ck_assert_int_eq(si->mm_dtype, 2);
	ck_assert_int_eq(si->sbuf_read_bytes, 128LL * 512 * 2);
	ck_assert_int_eq(si->psum_write_bytes, 128LL * 64 * 4);
	si = nxp_neff_static_instr(n, 0, NXP_ENGINE_TENSOR, 2);
	ck_assert_str_eq(si->tensor_instruction_type, "TRANSPOSE");
	ck_assert_int_eq(si->is_transpose, 1);
	si = nxp_neff_static_instr(n, 0, NXP_ENGINE_TENSOR, 0);
	ck_assert_str_eq(si->tensor_instruction_type, "LDWEIGHTS");
	ck_assert_int_eq(si->raw_flops, 0);
	si = nxp_neff_static_instr(n, 0, NXP_ENGINE_SCALAR, 0);
	ck_assert_str_eq(si->opcode, "ACTIVATE");
	ck_assert_str_eq(si->scalar_activation_fn, "relu");
	ck_assert_str_eq(si->performance_mode, "2x");
	ck_assert_int_eq(si->is_activate, 1);
	si = nxp_neff_static_instr(n, 0, NXP_ENGINE_SCALAR, 1);
	ck_assert_str_eq(si->opcode, "NOP");
	ck_assert_int_eq(si->is_setup, 1);
	si = nxp_neff_static_instr(n, 0, NXP_ENGINE_GPSIMD, 0);
	ck_assert_str_eq(si->opcode, "Operation(119)");
	si = nxp_neff_static_instr(n, 0, NXP_ENGINE_SYNC, 0);
	ck_assert_str_eq(si->opcode, "EVENT_SEMAPHORE");
	ck_assert_ptr_nonnull(strstr(si->operands, " $S[15]>=1 $S[15]++@complete"));
	ck_assert_ptr_null(nxp_neff_static_instr(n, 0, NXP_ENGINE_SYNC, 1));
	ck_assert_ptr_null(nxp_neff_static_instr(n, 0, NXP_ENGINE_VECTOR, 0));
	ck_assert_ptr_null(nxp_neff_static_instr(n, 2, NXP_ENGINE_SYNC, 0));
	ck_assert_uint_eq(nxp_neff_warning_count(n), 0);

	ck_assert_int_eq(nxp_neff_has_kernel_debug_info(n), 1);
	nxp_neff_totals tot;
	nxp_neff_get_totals(n, &tot);
	ck_assert_int_eq(tot.weight_size_bytes, 65536 + 100);
	ck_assert_int_eq(tot.input_size_bytes, 301056 + 1000);
	ck_assert_int_eq(tot.output_size_bytes, 4096);
	ck_assert_int_eq(tot.model_flops, 123456789);
	ck_assert_int_eq(tot.dma_queue_count, 22);
}

START_TEST(test_open_gzip)
{
	size_t len;
	void *neff = std_neff(0, 2, &len);
	expect_gzip = 1;
	open_all_ways(neff, len, NULL, check_std);
	free(neff);
}
END_TEST

START_TEST(test_open_plain_dot_slash)
{
	size_t len;
	void *neff = std_neff(NXP_NEFF_WRITE_PLAIN_TAR | NXP_NEFF_WRITE_DOT_SLASH, 2, &len);
	/* The names really carry "./" in the tar. */
	ck_assert_ptr_nonnull(memmem(neff, len, "./sg00/def.json", 15));
	expect_gzip = 0;
	open_all_ways(neff, len, NULL, check_std);
	free(neff);
}
END_TEST

START_TEST(test_open_path)
{
	size_t len;
	void *neff = std_neff(0, 2, &len);
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "std.neff");
	ck_assert_int_eq(tu_write_file(path, neff, len), 0);
	nxp_neff *n;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_neff_open_path(&n, path, NULL, &st), NXP_OK);
	expect_gzip = 1;
	check_std(n, 0);
	nxp_neff_close(n); /* closes the source it owns (ASan would report the leak) */
	char *missing = tu_path(dir, "missing.neff");
	ck_assert_int_eq(nxp_neff_open_path(&n, missing, NULL, &st), NXP_E_IO);
	ck_assert_ptr_null(n);
	remove(path);
	remove(dir);
	free(missing);
	free(path);
	free(dir);
	free(neff);
}
END_TEST

/* ---- Header ---- */
START_TEST(test_header_fields)
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	o.pkg_version = 1;
	o.neff_version_major = 1;
	o.neff_version_minor = 7;
	o.build_version = "2.0.21884.0%kaena-tools/develop@6c66f4b";
	o.name = "/tmp/compiler/out/network-name";
	for (int i = 0; i < 16; i++)
		o.uuid[i] = (uint8_t)(0xA0 + i);
	o.num_tpb = 3;
	o.lnc_size = 2;
	o.feature_bits = 0x100;
	nxp_neff_writer *w;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &o, NULL), NXP_OK);
	const fx_member *m;
	size_t count = fx_std_members(&m);
	for (size_t i = 0; i < count; i++)
		ck_assert_int_eq(nxp_neff_writer_add(w, m[i].path, m[i].data, m[i].len ? m[i].len : strlen(m[i].data)),
				 NXP_OK);
	uint8_t *neff;
	size_t len;
	ck_assert_int_eq(nxp_neff_writer_save_memory(w, (void **)&neff, &len), NXP_OK);
	nxp_neff_writer_close(w);
	/* Fields the writer has no option for. */
	neff[0x1DC] = 7;
	for (int i = 0; i < 64; i++)
		neff[0x1E0 + i] = (uint8_t)i;

	nxp_neff_header h;
	memset(&h, 0xEE, sizeof(h));
	h.struct_size = sizeof(h);
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_neff_parse_header(neff, len, (int64_t)len, &h, &st), NXP_OK);
	ck_assert_uint_eq(h.struct_size, sizeof(h));
	ck_assert_uint_eq(h.pkg_version, 1);
	ck_assert_uint_eq(h.header_size, 1024);
	ck_assert_uint_eq(h.data_size, len - 1024);
	ck_assert_uint_eq(h.neff_version_major, 1);
	ck_assert_uint_eq(h.neff_version_minor, 7);
	ck_assert_str_eq(h.build_version, "2.0.21884.0%kaena-tools/develop@6c66f4b");
	ck_assert_uint_eq(h.num_tpb, 3);
	ck_assert_int_eq(memcmp(h.hash, neff + 0xAC, 32), 0);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(h.uuid[i], 0xA0 + i);
	ck_assert_str_eq(h.name, "/tmp/compiler/out/network-name");
	ck_assert_uint_eq(h.requested_tpb_count, 7);
	for (int i = 0; i < 64; i++)
		ck_assert_uint_eq(h.tpb_per_node[i], i);
	ck_assert_uint_eq(h.feature_bits, 0x100);
	ck_assert_uint_eq(h.lnc_size, 2);
	ck_assert_int_eq(h.hash_verified, 0);
	ck_assert_int_eq(h.payload_gzip, 0);

	/* Full-width text fields keep all 128 / 256 bytes and stay terminated. */
	memset(neff + 0x28, 'b', 128);
	memset(neff + 0xDC, 'n', 256);
	ck_assert_int_eq(nxp_neff_parse_header(neff, len, -1, &h, &st), NXP_OK);
	ck_assert_uint_eq(strlen(h.build_version), 128);
	ck_assert_uint_eq(strlen(h.name), 256);

	/* Through a handle, with the digest verified (SHA-256 for pkg 1). */
	nxp_neff_options opts;
	nxp_neff_options_init(&opts);
	opts.flags = NXP_NEFF_VERIFY_HASH;
	nxp_source *src;
	ck_assert_int_eq(nxp_source_open_memory(&src, neff, len, NULL), NXP_OK);
	nxp_neff *n;
	ck_assert_int_eq(nxp_neff_open(&n, src, &opts, &st), NXP_OK);
	ck_assert_int_eq(nxp_neff_get_header(n, &h), NXP_OK);
	ck_assert_int_eq(h.hash_verified, 1);
	ck_assert_int_eq(h.payload_gzip, 1);
	ck_assert_uint_eq(h.lnc_size, 2);
	nxp_neff_close(n);
	nxp_source_close(src);
	free(neff);
}
END_TEST

START_TEST(test_header_errors)
{
	size_t len;
	uint8_t *neff = std_neff(0, 2, &len);
	uint8_t *bad = malloc(len);
	nxp_neff_header h = {.struct_size = sizeof(h)};
	nxp_status st;
	nxp_status_init(&st);

	/* Truncated header. */
	ck_assert_int_eq(nxp_neff_parse_header(neff, 1000, -1, &h, &st), NXP_E_TRUNCATED);
	ck_assert_int_eq(st.offset, 1000);
	fail_all_ways(neff, 1000, NULL, NXP_E_TRUNCATED, "truncated", 1000);
	fail_all_ways(neff, 0, NULL, NXP_E_TRUNCATED, "truncated", 0);

	struct {
		size_t off;
		uint64_t value;
		int code;
		const char *needle;
	} cases[] = {
		{0x00, 3, NXP_E_VERSION, "supported: 1 and 2"},
		{0x00, 0, NXP_E_VERSION, "package version 0"},
		{0x08, 512, NXP_E_FORMAT, "header_size is 512"},
		{0x18, 3, NXP_E_VERSION, "supported: major 0 to 2"},
		{0x10, 0, NXP_E_FORMAT, "data_size is 0"},
		{0x10, len - 1024 + 1, NXP_E_FORMAT, "invalid NEFF data_size"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bad, neff, len);
		le64(bad + cases[i].off, cases[i].value);
		ck_assert_int_eq(nxp_neff_parse_header(bad, len, (int64_t)len, &h, &st), cases[i].code);
		ck_assert_ptr_nonnull(strstr(st.message, cases[i].needle));
		ck_assert_int_eq(st.offset, (int64_t)cases[i].off);
		fail_all_ways(bad, len, NULL, cases[i].code, cases[i].needle, (int64_t)cases[i].off);
	}
	/* data_size unchecked without a file size. */
	le64(bad + 0x10, len);
	ck_assert_int_eq(nxp_neff_parse_header(bad, len, -1, &h, &st), NXP_OK);
	/* A file size below 1024 contradicts a full header. */
	ck_assert_int_eq(nxp_neff_parse_header(neff, len, 100, &h, &st), NXP_E_TRUNCATED);

	/* Misuse. */
	ck_assert_int_eq(nxp_neff_parse_header(NULL, len, -1, &h, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_parse_header(neff, len, -1, NULL, &st), NXP_E_INVAL);
	h.struct_size = 8;
	ck_assert_int_eq(nxp_neff_parse_header(neff, len, -1, &h, &st), NXP_E_INVAL);
	ck_assert_int_eq(st.code, NXP_E_INVAL);
	free(bad);
	free(neff);
}
END_TEST

/* A source with no size and no seek: payload truncation is only found while reading. */
struct nosize {
	const uint8_t *p;
	size_t len, pos;
};
static int64_t nosize_read(void *user, void *buf, size_t len)
{
	struct nosize *s = user;
	size_t n = s->len - s->pos < len ? s->len - s->pos : len;
	if (n > 4096)
		n = 4096;
	memcpy(buf, s->p + s->pos, n);
	s->pos += n;
	return (int64_t)n;
}

/* A payload of zeros (a tar of nothing): said so, at the payload's start. */
START_TEST(test_zeroed_payload)
{
	size_t len;
	uint8_t *neff = std_neff(NXP_NEFF_WRITE_PLAIN_TAR, 2, &len);
	memset(neff + 1024, 0, len - 1024);
	fail_all_ways(neff, len, NULL, NXP_E_FORMAT, "holds none of a NEFF's files", 1024);
	free(neff);
}
END_TEST

START_TEST(test_truncated_payload_unknown_size)
{
	size_t len;
	uint8_t *neff = std_neff(NXP_NEFF_WRITE_PLAIN_TAR, 2, &len);
	for (int verify = 0; verify < 2; verify++) {
		struct nosize ns = {neff, len - 3000, 0};
		nxp_source_callbacks cb;
		nxp_source_callbacks_init(&cb);
		cb.read = nosize_read;
		nxp_source *src;
		ck_assert_int_eq(nxp_source_open_callbacks(&src, &cb, &ns, NULL), NXP_OK);
		ck_assert_int_eq(nxp_source_size(src), -1);
		nxp_neff_options o;
		nxp_neff_options_init(&o);
		o.flags = verify ? NXP_NEFF_VERIFY_HASH : 0;
		nxp_status st;
		nxp_status_init(&st);
		nxp_neff *n;
		ck_assert_int_eq(nxp_neff_open(&n, src, &o, &st), NXP_E_TRUNCATED);
		ck_assert_ptr_nonnull(strstr(st.message, "truncated"));
		ck_assert_int_ge(st.offset, 1024);
		ck_assert_int_le(st.offset, (int64_t)len - 3000);
		nxp_source_close(src);
	}
	free(neff);
}
END_TEST

/* ---- Hash ---- */
START_TEST(test_verify_hash)
{
	nxp_neff_options o;
	nxp_neff_options_init(&o);
	o.flags = NXP_NEFF_VERIFY_HASH;
	for (uint64_t pkg = 1; pkg <= 2; pkg++) {
		for (int plain = 0; plain < 2; plain++) {
			size_t len;
			uint8_t *neff = std_neff(plain ? NXP_NEFF_WRITE_PLAIN_TAR : 0, pkg, &len);
			for (int way = 0; way < WAY_COUNT; way++) {
				nxp_source *src = open_way(way, neff, len);
				nxp_neff *n;
				nxp_status st;
				nxp_status_init(&st);
				ck_assert_int_eq(nxp_neff_open(&n, src, &o, &st), NXP_OK);
				nxp_neff_header h = {.struct_size = sizeof(h)};
				nxp_neff_get_header(n, &h);
				ck_assert_int_eq(h.hash_verified, 1);
				nxp_neff_close(n);
				nxp_source_close(src);
			}
			/* A wrong digest in the header. */
			neff[0xAC + (pkg == 1 ? 31 : 15)] ^= 1;
			fail_all_ways(neff, len, &o, NXP_E_HASH, pkg == 1 ? "SHA-256 mismatch" : "MD5 mismatch", 0xAC);
			neff[0xAC + (pkg == 1 ? 31 : 15)] ^= 1;
			if (plain) {
				/* Flip a byte inside the skipped weights: the tar is still fine, the
				 * hash is not. */
				size_t at = 0;
				for (size_t i = 1024; i + 512 < len; i += 512)
					if (!memcmp(neff + i, "sg00/w0.npy", 11)) {
						at = i + 512 + 1000;
						break;
					}
				ck_assert_uint_gt(at, 0);
				neff[at] ^= 0x55;
				fail_all_ways(neff, len, &o, NXP_E_HASH, "mismatch", 0xAC);
				/* Without verification the corruption goes unnoticed (documented). */
				nxp_neff_options plain_o;
				nxp_neff_options_init(&plain_o);
				nxp_source *src = open_way(WAY_MEMORY, neff, len);
				nxp_neff *n;
				ck_assert_int_eq(nxp_neff_open(&n, src, &plain_o, NULL), NXP_OK);
				nxp_neff_close(n);
				nxp_source_close(src);
			}
			free(neff);
		}
	}
}
END_TEST

/* ---- Archives written by other tools ---- */
#define LONG_DIR "sg00/a_directory_name_that_is_long_enough_to_need_a_long_name_extension_in_every_tar_dialect_0123456789"

static void check_long(nxp_neff *n, int way)
{
	(void)way;
	ck_assert_uint_eq(nxp_neff_subgraph_count(n), 1);
	nxp_neff_subgraph sg = {.struct_size = sizeof(sg)};
	ck_assert_int_eq(nxp_neff_get_subgraph(n, 0, &sg), NXP_OK);
	ck_assert_str_eq(sg.definition, LONG_DIR "/def.json");
	ck_assert_uint_eq(sg.instruction_count[NXP_ENGINE_TENSOR], 2);
	ck_assert_uint_eq(sg.tensor_count, 1);
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, NXP_ENGINE_TENSOR, 1, &in), NXP_OK);
	ck_assert_str_eq(in.opcode, "MATMUL");
}

START_TEST(test_foreign_tar_long_names)
{
	static const char kelf[] = "{\"graphs\":[{\"definition\":\"" LONG_DIR "/def.json\"}]}";
	static const char def[] = "{\"var\":{\"X\":{\"type\":\"input\",\"size\":8}},\"pe_instr\":\"pe_instructions.bin\"}";
	uint8_t bin[128];
	fx_instr(bin, 0x01, 1, 0, 0, 0);
	fx_instr(bin + 64, 0x02, 1, 1, 0, 0);
	const fx_member m[] = {
		{"./kelf-0.json", kelf, 0},
		{"./" LONG_DIR "/def.json", def, 0},
		{LONG_DIR "/pe_instructions.bin", bin, sizeof(bin)},
	};
	ck_assert_int_gt(strlen(LONG_DIR "/pe_instructions.bin"), 100);
	static const int formats[] = {FX_GNUTAR, FX_PAX};
	nxp_neff_options o;
	nxp_neff_options_init(&o);
	o.flags = NXP_NEFF_VERIFY_HASH;
	for (int f = 0; f < 2; f++)
		for (int gz = 0; gz < 2; gz++) {
			size_t len;
			void *neff = fx_tar_neff(m, 3, formats[f], gz, &len);
			open_all_ways(neff, len, &o, check_long);
			free(neff);
		}
}
END_TEST

START_TEST(test_unsafe_names)
{
	static const char *const bad[] = {"/etc/passwd", "sg00/../../evil.json", "../up.bin", "./../x.json", ".."};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const fx_member m[] = {{"kelf-0.json", "{\"graphs\":[]}", 0}, {bad[i], "{}", 0}};
		for (int gz = 0; gz < 2; gz++) {
			size_t len;
			void *neff = fx_tar_neff(m, 2, FX_PAX, gz, &len);
			fail_all_ways(neff, len, NULL, NXP_E_UNSAFE_PATH, bad[i], PAYLOAD_OFFSET);
			free(neff);
		}
	}
	/* The plain-tar offset is the member's header position. */
	const fx_member m[] = {{"kelf-0.json", "{\"graphs\":[]}", 0}, {"/abs.json", "{}", 0}};
	size_t len;
	void *neff = fx_tar_neff(m, 2, FX_USTAR, 0, &len);
	fail_all_ways(neff, len, NULL, NXP_E_UNSAFE_PATH, "/abs.json", 1024 + 1024);
	free(neff);
}
END_TEST

/* ---- Corrupt payloads ---- */
START_TEST(test_bad_gzip)
{
	size_t len;
	uint8_t *neff = std_neff(0, 2, &len);
	/* Garbage inside the deflate stream. */
	uint8_t *bad = malloc(len);
	memcpy(bad, neff, len);
	for (size_t i = 1024 + 20; i < 1024 + 84; i++)
		bad[i] = 0xFF;
	fail_all_ways(bad, len, NULL, NXP_E_COMPRESSION, "gzip", PAYLOAD_OFFSET);
	/* A gzip magic with a broken header. */
	memcpy(bad, neff, len);
	for (size_t i = 1024 + 2; i < 1024 + 32; i++)
		bad[i] = 0x77;
	fail_all_ways(bad, len, NULL, NXP_E_COMPRESSION, "gzip", PAYLOAD_OFFSET);
	/* Not a tar at all (plain). */
	memcpy(bad, neff, len);
	memset(bad + 1024, 'x', len - 1024);
	fail_all_ways(bad, len, NULL, NXP_E_FORMAT, "tar", PAYLOAD_OFFSET);
	free(bad);
	free(neff);
}
END_TEST

/* A gzip'd tar: kelf-0.json, then one member of `size` zero bytes (a multiple
 * of 16 MiB).  The zeros are never in memory at once: one 16 MiB chunk is
 * deflated after a full flush (so it references nothing before it) and its
 * compressed bytes are repeated; the gzip trailer is then fixed up. */
#define BOMB_CHUNK (16u << 20)

static void ustar_header(uint8_t *h, const char *name, uint64_t size)
{
	memset(h, 0, 512);
	snprintf((char *)h, 100, "%s", name);
	snprintf((char *)h + 100, 8, "%07o", 0644);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)size);
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

static void deflate_into(z_stream *z, const uint8_t *in, size_t len, int flush, uint8_t **out, size_t *used,
			 size_t *cap)
{
	z->next_in = (uint8_t *)in;
	z->avail_in = (uInt)len;
	int r;
	do {
		if (*cap - *used < 65536) {
			*cap *= 2;
			*out = realloc(*out, *cap);
		}
		z->next_out = *out + *used;
		z->avail_out = (uInt)(*cap - *used);
		r = deflate(z, flush);
		*used = *cap - z->avail_out;
	} while (z->avail_in || z->avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
}

static uint8_t *make_bomb(const char *member, uint64_t size, size_t *len)
{
	static const char kelf[] = "{\"graphs\":[]}";
	uint8_t hdr[512 * 3];
	memset(hdr, 0, sizeof(hdr));
	ustar_header(hdr, "kelf-0.json", strlen(kelf));
	memcpy(hdr + 512, kelf, strlen(kelf));
	ustar_header(hdr + 1024, member, size);
	size_t cap = 4 << 20, used = 1024;
	uint8_t *out = malloc(cap);
	static uint8_t zeros[1 << 20];
	z_stream z;
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY), Z_OK);
	deflate_into(&z, hdr, sizeof(hdr), Z_FULL_FLUSH, &out, &used, &cap);
	size_t chunk_at = used;
	for (unsigned i = 0; i < BOMB_CHUNK / sizeof(zeros); i++)
		deflate_into(&z, zeros, sizeof(zeros), i + 1 < BOMB_CHUNK / sizeof(zeros) ? Z_NO_FLUSH : Z_FULL_FLUSH,
			     &out, &used, &cap);
	size_t chunk_len = used - chunk_at;
	uLong crc_chunk = crc32(0, NULL, 0);
	for (unsigned i = 0; i < BOMB_CHUNK / sizeof(zeros); i++)
		crc_chunk = crc32(crc_chunk, zeros, sizeof(zeros));
	uLong crc = crc32_combine(crc32(0, hdr, sizeof(hdr)), crc_chunk, BOMB_CHUNK);
	for (uint64_t done = BOMB_CHUNK; done < size; done += BOMB_CHUNK) {
		if (cap - used < chunk_len + 65536) {
			cap = (used + chunk_len) * 2;
			out = realloc(out, cap);
		}
		memcpy(out + used, out + chunk_at, chunk_len);
		used += chunk_len;
		crc = crc32_combine(crc, crc_chunk, BOMB_CHUNK);
	}
	deflate_into(&z, zeros, 1024, Z_FINISH, &out, &used, &cap); /* the two end-of-archive blocks */
	deflateEnd(&z);
	crc = crc32_combine(crc, crc32(0, zeros, 1024), 1024);
	uint64_t total = sizeof(hdr) + size + 1024;
	for (int i = 0; i < 4; i++) {
		out[used - 8 + i] = (uint8_t)(crc >> (8 * i));
		out[used - 4 + i] = (uint8_t)(total >> (8 * i));
	}
	fx_header(out, 2, out + 1024, used - 1024);
	*len = used;
	return out;
}

START_TEST(test_gzip_bomb)
{
	size_t len;
	uint8_t *bomb = make_bomb("sg00/w0.npy", 1ull << 30, &len);
	ck_assert_uint_lt(len, 2u << 20); /* 1 GiB in about 1 MB */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Refused after a few MiB of compressed input, long before 1 GiB is inflated. */
	fail_all_ways(bomb, len, NULL, NXP_E_LIMIT, "max_inflation_ratio", ANY_OFFSET);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_msg(secs < 20.0, "bomb took %.1f s", secs);
	nxp_source *src = open_way(WAY_MEMORY, bomb, len);
	nxp_status st;
	nxp_status_init(&st);
	nxp_neff *n;
	ck_assert_int_eq(nxp_neff_open(&n, src, NULL, &st), NXP_E_LIMIT);
	ck_assert_int_lt(st.offset, 1024 + (256 << 10));
	nxp_source_close(src);

	/* With the ratio allowed, the total limit stops it. */
	nxp_neff_options o;
	nxp_neff_options_init(&o);
	o.max_inflation_ratio = 100000;
	o.max_total_inflated = 8 << 20;
	fail_all_ways(bomb, len, &o, NXP_E_LIMIT, "max_total_inflated", PAYLOAD_OFFSET);
	/* The bomb is a real 1 GiB archive: with both limits lifted it opens. */
	o.max_total_inflated = 2ull << 30;
	o.flags = NXP_NEFF_VERIFY_HASH;
	src = open_way(WAY_MEMORY, bomb, len);
	ck_assert_msg(nxp_neff_open(&n, src, &o, &st) == NXP_OK, "%s", st.message);
	ck_assert_uint_eq(nxp_neff_subgraph_count(n), 0);
	nxp_neff_close(n);
	nxp_source_close(src);
	free(bomb);

	/* A member that would be read into memory is refused by its declared size. */
	bomb = make_bomb("sg00/PE0.bin", 1ull << 30, &len);
	fail_all_ways(bomb, len, NULL, NXP_E_LIMIT, "sg00/PE0.bin is 1073741824 bytes, over max_member_size",
		      PAYLOAD_OFFSET);
	free(bomb);
}
END_TEST

/* ---- Limits ---- */
START_TEST(test_limits)
{
	size_t len;
	void *neff = std_neff(0, 2, &len);
	nxp_neff_options o;
	nxp_neff_options_init(&o);
	o.max_json_size = 100;
	fail_all_ways(neff, len, &o, NXP_E_LIMIT, "over max_json_size (100)", PAYLOAD_OFFSET);
	nxp_neff_options_init(&o);
	o.max_member_size = 100;
	fail_all_ways(neff, len, &o, NXP_E_LIMIT, "over max_member_size (100)", PAYLOAD_OFFSET);
	nxp_neff_options_init(&o);
	o.max_members = 5;
	fail_all_ways(neff, len, &o, NXP_E_LIMIT, "max_members (5)", PAYLOAD_OFFSET);
	nxp_neff_options_init(&o);
	o.max_json_depth = 2; /* neff.json nests 4 deep */
	fail_all_ways(neff, len, &o, NXP_E_LIMIT, "deeper than max_json_depth (2)", PAYLOAD_OFFSET);
	/* An older caller's options struct (flags only) gets the defaults. */
	struct {
		size_t struct_size;
		uint32_t flags;
	} old = {sizeof(old), NXP_NEFF_VERIFY_HASH};
	expect_gzip = 1;
	nxp_source *src = open_way(WAY_MEMORY, neff, len);
	nxp_neff *n;
	ck_assert_int_eq(nxp_neff_open(&n, src, (const nxp_neff_options *)&old, NULL), NXP_OK);
	nxp_neff_header h = {.struct_size = sizeof(h)};
	nxp_neff_get_header(n, &h);
	ck_assert_int_eq(h.hash_verified, 1);
	nxp_neff_close(n);
	nxp_source_close(src);
	free(neff);
}
END_TEST

/* ---- Manifests ---- */
START_TEST(test_json_errors)
{
	struct {
		const char *path, *data;
		int code;
		const char *needle;
	} cases[] = {
		{"kelf-0.json", "{\"graphs\": [", NXP_E_JSON, "kelf-0.json: JSON syntax error"},
		{"kelf-0.json", "[1, 2]", NXP_E_JSON, "kelf-0.json: top level is not a JSON object"},
		{"kelf-0.json", "{\"graphs\": {}}", NXP_E_JSON, "kelf-0.json: key \"graphs\" is not an array"},
		{"kelf-0.json", "{\"version\": \"0.5\"}", NXP_E_JSON, "kelf-0.json: key \"graphs\" is missing"},
		{"kelf-0.json", "{\"graphs\": [7]}", NXP_E_JSON, "key \"graphs[0]\" is not an object"},
		{"kelf-0.json", "{\"graphs\": [{\"definition\": 5}]}", NXP_E_JSON, "key \"graphs[0].definition\" is not a string"},
		{"kelf-0.json", "{\"graphs\": [{\"name\": \"sg00\"}]}", NXP_E_JSON, "key \"graphs[0].definition\" is missing"},
		{"kelf-0.json", "{\"graphs\": [{\"definition\": \"sg05/def.json\"}]}", NXP_E_NOT_FOUND,
		 "definition file sg05/def.json named by kelf-0.json is missing"},
		{"kelf-0.json", "{\"graphs\": [{\"definition\": \"../def.json\"}]}", NXP_E_UNSAFE_PATH, "../def.json"},
		{"kelf-0.json", NULL, NXP_E_NOT_FOUND, "no kelf-*.json"},
		{"sg00/def.json", "{\"var\": []}", NXP_E_JSON, "sg00/def.json: key \"var\" is not an object"},
		{"sg00/def.json", "{\"var\": {\"A\": 1}}", NXP_E_JSON, "sg00/def.json: key \"var.A\" is not an object"},
		{"sg00/def.json", "{\"var\": {\"A\": {\"type\": 3}}}", NXP_E_JSON, "key \"var.A.type\" is not a string"},
		{"sg00/def.json", "{\"var\": {\"A\": {\"size\": \"big\"}}}", NXP_E_JSON, "key \"var.A.size\" is not an integer"},
		{"sg00/def.json", "{\"var\": {\"A\": {\"shape\": [1, \"x\"]}}}", NXP_E_JSON, "var.A.shape\" has a non-integer"},
		{"sg00/def.json", "{\"var\": {\"A\": {\"size\": 1e300}}}", NXP_E_JSON, "key \"var.A.size\" is not an integer"},
		{"sg00/def.json", "{\"var\": {\"A\": {\"size\": 2.5}}}", NXP_E_JSON, "key \"var.A.size\" is not an integer"},
		{"sg00/def.json", "{\"dma_queue\": {\"Q\": {\"num_queues\": \"2\"}}}", NXP_E_JSON,
		 "key \"dma_queue.Q.num_queues\" is not an integer"},
		{"sg00/def.json", "{\"dma_queue\": {\"Q\": {\"num_queues\": 17}}}", NXP_E_JSON, "outside 0..16"},
		{"sg00/def.json", "{\"dma_queue\": 3}", NXP_E_JSON, "key \"dma_queue\" is not an object"},
		{"sg00/def.json", "{\"pe_instr\": 12}", NXP_E_JSON, "key \"pe_instr\" is not a string"},
		{"sg00/def.json", "{\"pe_instr\": \"nope.bin\"}", NXP_E_NOT_FOUND,
		 "instruction file sg00/nope.bin named by sg00/def.json (pe_instr) is missing"},
		{"sg00/def.json", "{\"pe_instr\": \"../../PE0.bin\"}", NXP_E_UNSAFE_PATH, "pe_instr"},
		{"sg00/def.json", "{\"var\": {}} trailing", NXP_E_JSON, "sg00/def.json: JSON syntax error"},
		{"sg00/def.json", NULL, NXP_E_NOT_FOUND, "sg00/def.json"},
		{"sg00/PE0.bin", "0123456789012345678901234567890123456789012345678901234567890123X", NXP_E_FORMAT,
		 "sg00/PE0.bin is 65 bytes, not a multiple of the 64-byte instruction"},
		{"neff.json", "{\"nodes\": [}", NXP_E_JSON, "neff.json: JSON syntax error"},
		{"hlo_stats.json", "\"just a string\"", NXP_E_JSON, "hlo_stats.json: top level is not a JSON object"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		void *neff = std_neff_with(cases[i].path, cases[i].data, 0, i & 1 ? NXP_NEFF_WRITE_PLAIN_TAR : 0, &len);
		fail_all_ways(neff, len, NULL, cases[i].code, cases[i].needle,
			      !strcmp(cases[i].needle, "no kelf-*.json") ? -1 : PAYLOAD_OFFSET);
		free(neff);
	}
	/* Too deep for the default limit (64). */
	char deep[400];
	size_t k = 0;
	k += (size_t)sprintf(deep, "{\"a\":");
	for (int i = 0; i < 100; i++)
		deep[k++] = '[';
	for (int i = 0; i < 100; i++)
		deep[k++] = ']';
	deep[k++] = '}';
	deep[k] = '\0';
	size_t len;
	void *neff = std_neff_with("hlo_stats.json", deep, 0, 0, &len);
	fail_all_ways(neff, len, NULL, NXP_E_LIMIT, "hlo_stats.json nests JSON deeper than max_json_depth (64)",
		      PAYLOAD_OFFSET);
	free(neff);
	/* Brackets inside strings do not count. */
	char strdeep[400];
	k = (size_t)sprintf(strdeep, "{\"model_flops\": 5, \"s\": \"");
	for (int i = 0; i < 100; i++)
		strdeep[k++] = '[';
	k += (size_t)sprintf(strdeep + k, "\\\"{\"}");
	neff = std_neff_with("hlo_stats.json", strdeep, 0, 0, &len);
	nxp_source *src = open_way(WAY_MEMORY, neff, len);
	nxp_neff *n;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_neff_open(&n, src, NULL, &st) == NXP_OK, "%s", st.message);
	nxp_neff_totals tot;
	nxp_neff_get_totals(n, &tot);
	ck_assert_int_eq(tot.model_flops, 5);
	nxp_neff_close(n);
	nxp_source_close(src);
	free(neff);
}
END_TEST

static void check_minimal(nxp_neff *n, int way)
{
	(void)way;
	ck_assert_uint_eq(nxp_neff_subgraph_count(n), 1);
	ck_assert_uint_eq(nxp_neff_tensor_count(n), 2);
	ck_assert_uint_eq(nxp_neff_dma_queue_count(n), 0);
	nxp_tensor_info t = {.struct_size = sizeof(t)};
	ck_assert_int_eq(nxp_neff_get_tensor(n, 0, &t), NXP_OK);
	ck_assert_str_eq(t.variable_name, "IN");
	ck_assert_int_eq(t.node, -1);
	ck_assert_str_eq(t.shape, "");
	ck_assert_str_eq(t.type, "input");
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		ck_assert_int_eq(nxp_neff_instruction_count(n, 0, e), 0);
	ck_assert_int_eq(nxp_neff_has_kernel_debug_info(n), 0);
	nxp_neff_totals tot;
	nxp_neff_get_totals(n, &tot);
	ck_assert_int_eq(tot.model_flops, -1);
	ck_assert_int_eq(tot.weight_size_bytes, 100);
	ck_assert_int_eq(tot.output_size_bytes, -1);
	ck_assert_int_eq(tot.dma_queue_count, 0);
}

START_TEST(test_old_style_manifests)
{
	/* Oldest shape: "name": "definition", no var_id, no dma_queue, no engines,
	 * comment keys everywhere, kelf-a.json, no neff.json / hlo_stats.json. */
	static const char def[] = "{\"name\": \"definition\", \"#note\": \"x\", \"var\": {\"#c\": {}, "
				  "\"W\": {\"type\": \"file\", \"size\": 100, \"#transfer-type\": \"weight\"}, "
				  "\"IN\": {\"type\": \"input\"}}}";
	const fx_member m[] = {
		{"kelf-a.json", "{\"graphs\": [{\"definition\": \"sg00/def.json\", \"name\": \"sg00\"}]}", 0},
		{"sg00/def.json", def, 0},
		{"sg00/weights.npy", "\x93NUMPY", 6},
	};
	size_t len;
	void *neff = fx_neff(m, 3, 0, 2, &len);
	open_all_ways(neff, len, NULL, check_minimal);
	free(neff);
}
END_TEST

static void check_warned(nxp_neff *n, int way)
{
	(void)way;
	ck_assert_uint_eq(nxp_neff_warning_count(n), 1);
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, NXP_ENGINE_TENSOR, 0, &in), NXP_OK);
	ck_assert_str_eq(in.opcode, "LDWEIGHTS"); /* decoded anyway */
	ck_assert_uint_eq(in.inst_word_len, 8);
}

START_TEST(test_word_len_warning)
{
	uint8_t pe[3 * 64];
	fx_instr(pe, 0x01, 128, 0, 0, 0);
	fx_instr(pe + 64, 0x02, 128, 64, 0, 0);
	fx_instr(pe + 128, 0x02, 128, 128, 0x2, 0);
	pe[1] = 8;
	size_t len;
	void *neff = std_neff_with("sg00/PE0.bin", pe, sizeof(pe), 0, &len);
	open_all_ways(neff, len, NULL, check_warned);
	free(neff);
}
END_TEST

/* ---- Misuse ---- */
START_TEST(test_misuse)
{
	size_t len;
	void *neff = std_neff(0, 2, &len);
	nxp_status st;
	nxp_status_init(&st);
	nxp_source *src = open_way(WAY_MEMORY, neff, len);
	nxp_neff *n = NULL;
	ck_assert_int_eq(nxp_neff_open(NULL, src, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_open(&n, NULL, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(st.code, NXP_E_INVAL);
	nxp_neff_options o;
	nxp_neff_options_init(&o);
	o.struct_size = 4;
	ck_assert_int_eq(nxp_neff_open(&n, src, &o, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_open_path(NULL, "x", NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_open_path(&n, NULL, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_open(&n, src, NULL, NULL), NXP_OK); /* st is optional */

	/* Null handle. */
	nxp_neff_header h = {.struct_size = sizeof(h)};
	nxp_neff_subgraph sg = {.struct_size = sizeof(sg)};
	nxp_tensor_info t = {.struct_size = sizeof(t)};
	nxp_dma_queue_info q = {.struct_size = sizeof(q)};
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	ck_assert_int_eq(nxp_neff_get_header(NULL, &h), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_get_subgraph(NULL, 0, &sg), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_get_tensor(NULL, 0, &t), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_get_dma_queue(NULL, 0, &q), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_get_instruction(NULL, 0, 0, 0, &in), NXP_E_INVAL);
	ck_assert_uint_eq(nxp_neff_subgraph_count(NULL), 0);
	ck_assert_uint_eq(nxp_neff_tensor_count(NULL), 0);
	ck_assert_uint_eq(nxp_neff_dma_queue_count(NULL), 0);
	ck_assert_int_eq(nxp_neff_instruction_count(NULL, 0, 0), -1);
	ck_assert_int_eq(nxp_neff_has_kernel_debug_info(NULL), 0);
	ck_assert_uint_eq(nxp_neff_warning_count(NULL), 0);
	ck_assert_int_eq(nxp_neff_error(NULL, &st), NXP_E_INVAL);
	ck_assert_ptr_null(nxp_neff_static_instr(NULL, 0, 0, 0));
	ck_assert_ptr_null(nxp_neff_find_queue(NULL, 0, "IN_QUE", 0));
	nxp_neff_totals tot;
	nxp_neff_get_totals(NULL, &tot);
	ck_assert_int_eq(tot.weight_size_bytes, -1);
	ck_assert_int_eq(tot.model_flops, -1);
	nxp_neff_close(NULL);

	/* NULL out, short struct. */
	ck_assert_int_eq(nxp_neff_get_header(n, NULL), NXP_E_INVAL);
	h.struct_size = NXP_NEFF_HEADER_SIZE_V0_1 - 1; /* below the first published size */
	ck_assert_int_eq(nxp_neff_get_header(n, &h), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_error(n, &st), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(st.message, "nxp_neff_get_header"));
	sg.struct_size = 8;
	ck_assert_int_eq(nxp_neff_get_subgraph(n, 0, &sg), NXP_E_INVAL);
	t.struct_size = 8;
	ck_assert_int_eq(nxp_neff_get_tensor(n, 0, &t), NXP_E_INVAL);
	q.struct_size = 8;
	ck_assert_int_eq(nxp_neff_get_dma_queue(n, 0, &q), NXP_E_INVAL);
	in.struct_size = NXP_NEFF_INSTRUCTION_MIN_SIZE - 1;
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, 0, 0, &in), NXP_E_INVAL);
	sg.struct_size = sizeof(sg);
	t.struct_size = sizeof(t);
	q.struct_size = sizeof(q);

	/* Out of range. */
	ck_assert_int_eq(nxp_neff_get_subgraph(n, 2, &sg), NXP_E_RANGE);
	ck_assert_int_eq(nxp_neff_error(n, &st), NXP_E_RANGE);
	ck_assert_ptr_nonnull(strstr(st.message, "subgraph 2 out of range"));
	ck_assert_int_eq(nxp_neff_get_tensor(n, 6, &t), NXP_E_RANGE);
	ck_assert_int_eq(nxp_neff_get_dma_queue(n, 22, &q), NXP_E_RANGE);
	in.struct_size = sizeof(in);
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, NXP_ENGINE_TENSOR, 3, &in), NXP_E_RANGE);
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, NXP_ENGINE_COUNT, 0, &in), NXP_E_RANGE);
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, -1, 0, &in), NXP_E_RANGE);
	ck_assert_int_eq(nxp_neff_get_instruction(n, 5, 0, 0, &in), NXP_E_RANGE);
	ck_assert_int_eq(nxp_neff_instruction_count(n, 2, 0), -1);
	ck_assert_int_eq(nxp_neff_instruction_count(n, 0, 5), -1);
	ck_assert_ptr_null(nxp_neff_find_queue(n, -1, "IN_QUE", 0));
	ck_assert_ptr_null(nxp_neff_find_queue(n, 0, NULL, 0));

	/* An instruction struct that ends at `raw` (an older caller) is filled up to there. */
	union {
		nxp_neff_instruction in;
		uint8_t bytes[sizeof(nxp_neff_instruction)];
	} u;
	memset(&u, 0xAB, sizeof(u));
	u.in.struct_size = NXP_NEFF_INSTRUCTION_MIN_SIZE;
	ck_assert_int_eq(nxp_neff_get_instruction(n, 0, NXP_ENGINE_TENSOR, 1, &u.in), NXP_OK);
	ck_assert_str_eq(u.in.opcode, "MATMUL");
	for (size_t i = NXP_NEFF_INSTRUCTION_MIN_SIZE; i < sizeof(u); i++)
		ck_assert_uint_eq(u.bytes[i], 0xAB);
	/* A larger struct from a newer header gets its unknown tail zeroed. */
	struct {
		nxp_neff_subgraph sg;
		uint64_t future;
	} big;
	memset(&big, 0xCD, sizeof(big));
	big.sg.struct_size = sizeof(big);
	ck_assert_int_eq(nxp_neff_get_subgraph(n, 0, &big.sg), NXP_OK);
	ck_assert_uint_eq(big.future, 0);
	ck_assert_uint_eq(big.sg.struct_size, sizeof(big));
	nxp_neff_close(n);

	/* A sequential source already past the header. */
	nxp_source *seq = tu_chunky_source(neff, len, 0);
	char tmp[10];
	size_t got;
	nxp_src_read(seq, tmp, sizeof(tmp), &got);
	ck_assert_int_eq(nxp_neff_open(&n, seq, NULL, &st), NXP_E_UNSUPPORTED);
	nxp_source_close(seq);
	nxp_source_close(src);
	free(neff);
}
END_TEST

/* ---- Writer ---- */
START_TEST(test_writer)
{
	size_t a_len, b_len;
	void *a = std_neff(0, 2, &a_len);
	void *b = std_neff(0, 2, &b_len);
	/* Deterministic: the same input gives the same bytes. */
	ck_assert_uint_eq(a_len, b_len);
	ck_assert_int_eq(memcmp(a, b, a_len), 0);
	const uint8_t *p = (const uint8_t *)a + 1024;
	ck_assert_uint_eq(p[0], 0x1f);
	ck_assert_uint_eq(p[1], 0x8b);
	ck_assert_uint_eq(p[4] | p[5] | p[6] | p[7], 0); /* no gzip timestamp */
	free(b);
	b = std_neff(NXP_NEFF_WRITE_PLAIN_TAR, 1, &b_len);
	ck_assert_int_ne(memcmp((const uint8_t *)b + 1024, "\x1f\x8b", 2), 0);
	ck_assert_uint_eq((b_len - 1024) % 512, 0);
	free(b);

	nxp_neff_writer *w;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_neff_writer_open(&w, NULL, &st), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_error(w, &st), NXP_OK); /* no error yet */
	ck_assert_str_eq(st.message, "");
	ck_assert_int_eq(nxp_neff_writer_add(w, "/abs", "x", 1), NXP_E_UNSAFE_PATH);
	ck_assert_int_eq(nxp_neff_writer_error(w, &st), NXP_E_UNSAFE_PATH);
	ck_assert_ptr_nonnull(strstr(st.message, "\"/abs\""));
	ck_assert_int_eq(nxp_neff_writer_add(w, "a/../b", "x", 1), NXP_E_UNSAFE_PATH);
	ck_assert_int_eq(nxp_neff_writer_add(w, "./", "x", 1), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_add(w, NULL, "x", 1), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_add(w, "a", NULL, 1), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_add(NULL, "a", "x", 1), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_add(w, "kelf-0.json", "{\"graphs\":[]}", 13), NXP_OK);
	void *data;
	size_t len;
	ck_assert_int_eq(nxp_neff_writer_save_memory(w, NULL, &len), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_save_memory(NULL, &data, &len), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_save(w, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_save(w, "/nonexistent-dir/x/y.neff"), NXP_E_IO);
	ck_assert_int_eq(nxp_neff_writer_error(w, &st), NXP_E_IO);
	ck_assert_ptr_nonnull(strstr(st.message, "/nonexistent-dir/x/y.neff: "));
	ck_assert_int_eq(nxp_neff_writer_error(NULL, &st), NXP_E_INVAL);
	struct { size_t struct_size; int code; } tiny = {sizeof(tiny), 0};
	ck_assert_int_eq(nxp_neff_writer_error(w, (nxp_status *)&tiny), NXP_E_INVAL); /* no room for a message */
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "w.neff");
	ck_assert_int_eq(nxp_neff_writer_save(w, path), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_save(w, path), NXP_OK); /* more than once */
	size_t flen;
	void *file = tu_read_file(path, &flen);
	ck_assert_int_eq(nxp_neff_writer_save_memory(w, &data, &len), NXP_OK);
	ck_assert_uint_eq(flen, len);
	ck_assert_int_eq(memcmp(file, data, len), 0);
	nxp_neff_header h = {.struct_size = sizeof(h)};
	ck_assert_int_eq(nxp_neff_parse_header(data, len, (int64_t)len, &h, NULL), NXP_OK);
	ck_assert_uint_eq(h.num_tpb, 1);
	ck_assert_uint_eq(h.lnc_size, 1);
	ck_assert_uint_eq(h.neff_version_major, 2);
	ck_assert_str_eq(h.build_version, "libnxp " NXP_VERSION_STRING);
	nxp_neff *n;
	nxp_neff_options o;
	nxp_neff_options_init(&o);
	o.flags = NXP_NEFF_VERIFY_HASH;
	ck_assert_int_eq(nxp_neff_open_path(&n, path, &o, &st), NXP_OK);
	ck_assert_uint_eq(nxp_neff_subgraph_count(n), 0);
	nxp_neff_close(n);
	free(file);
	free(data);
	nxp_neff_writer_close(w);
	nxp_neff_writer_close(NULL);
	remove(path);
	remove(dir);
	free(path);
	free(dir);

	nxp_neff_writer_options wo;
	nxp_neff_writer_options_init(&wo);
	wo.pkg_version = 3;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &wo, &st), NXP_E_INVAL);
	ck_assert_ptr_null(w);
	nxp_neff_writer_options_init(&wo);
	char longname[300];
	memset(longname, 'x', sizeof(longname) - 1);
	longname[299] = '\0';
	wo.name = longname;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &wo, &st), NXP_E_INVAL);
	wo.name = NULL;
	wo.struct_size = 8;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &wo, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_neff_writer_open(NULL, NULL, &st), NXP_E_INVAL);
	free(a);
}
END_TEST

/* ---- CLI ---- */
static char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t cap = 1 << 16, used = 0;
	char *out = malloc(cap);
	size_t r;
	while ((r = fread(out + used, 1, cap - used - 1, p)) > 0) {
		used += r;
		if (cap - used < 2) {
			cap *= 2;
			out = realloc(out, cap);
		}
	}
	out[used] = '\0';
	*status = pclose(p);
	return out;
}

START_TEST(test_cli_info)
{
	const char *cli = getenv("NXP_CLI");
	if (!cli)
		return; /* only when run by meson */
	size_t len;
	uint8_t *neff = std_neff(0, 2, &len);
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "cli.neff");
	ck_assert_int_eq(tu_write_file(path, neff, len), 0);
	char cmd[2048];
	int status;
	snprintf(cmd, sizeof(cmd), "'%s' info '%s' --json --verify", cli, path);
	char *out = run(cmd, &status);
	ck_assert_int_eq(status, 0);
	static const char *const keys[] = {
		"{\"header\":{\"pkg_version\":2,\"header_size\":1024,", "\"neff_version_major\":2,",
		"\"neff_version_minor\":0,", "\"num_tpb\":2,", "\"name\":\"fixture\",", "\"requested_tpb_count\":2,",
		"\"feature_bits\":0,", "\"lnc_size\":1,", "\"hash_verified\":true", "\"subgraphs\":[{\"name\":\"sg00\"",
		"\"tensors\":[{\"variable_name\":\"IN\"", "\"dma_queues\":[{\"name\":\"IN_QUE\",\"type\":\"input\"",
		"\"engines\":[{\"name\":\"tensor\",\"instruction_count\":4}", "{\"name\":\"sync\",\"instruction_count\":1}]}",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_msg(strstr(out, keys[i]), "missing %s in %s", keys[i], out);
	char hash[80];
	snprintf(hash, sizeof(hash), "\"hash\":\"");
	for (int i = 0; i < 32; i++)
		snprintf(hash + strlen(hash), 3, "%02x", neff[0xAC + i]);
	ck_assert_ptr_nonnull(strstr(out, hash));
	free(out);

	snprintf(cmd, sizeof(cmd), "'%s' info '%s'", cli, path);
	out = run(cmd, &status);
	ck_assert_int_eq(status, 0);
	ck_assert_ptr_nonnull(strstr(out, "Subgraphs (2)"));
	ck_assert_ptr_nonnull(strstr(out, "DMA queues (22)"));
	free(out);

	/* Corrupt digest: non-zero exit, one line naming the problem and the offset. */
	neff[0xAC] ^= 1;
	ck_assert_int_eq(tu_write_file(path, neff, len), 0);
	snprintf(cmd, sizeof(cmd), "'%s' info '%s' --verify 2>&1", cli, path);
	out = run(cmd, &status);
	ck_assert_int_ne(status, 0);
	ck_assert_ptr_nonnull(strstr(out, "MD5 mismatch"));
	ck_assert_ptr_nonnull(strstr(out, "byte offset 172"));
	ck_assert_ptr_eq(strchr(out, '\n'), out + strlen(out) - 1);
	free(out);
	snprintf(cmd, sizeof(cmd), "'%s' info 2>&1", cli);
	out = run(cmd, &status);
	ck_assert_int_ne(status, 0);
	free(out);
	remove(path);
	remove(dir);
	free(path);
	free(dir);
	free(neff);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("neff");
	TCase *tc = tcase_create("neff");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_open_gzip);
	tcase_add_test(tc, test_open_plain_dot_slash);
	tcase_add_test(tc, test_open_path);
	tcase_add_test(tc, test_header_fields);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_truncated_payload_unknown_size);
	tcase_add_test(tc, test_zeroed_payload);
	tcase_add_test(tc, test_verify_hash);
	tcase_add_test(tc, test_foreign_tar_long_names);
	tcase_add_test(tc, test_unsafe_names);
	tcase_add_test(tc, test_bad_gzip);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_json_errors);
	tcase_add_test(tc, test_old_style_manifests);
	tcase_add_test(tc, test_word_len_warning);
	tcase_add_test(tc, test_misuse);
	tcase_add_test(tc, test_writer);
	tcase_add_test(tc, test_cli_info);
	suite_add_tcase(s, tc);
	TCase *bomb = tcase_create("neff_bomb");
	tcase_set_timeout(bomb, 300);
	tcase_add_test(bomb, test_gzip_bomb);
	suite_add_tcase(s, bomb);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
