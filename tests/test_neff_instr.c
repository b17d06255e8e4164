/* SPDX-License-Identifier: MIT */
/* libnxp's instruction model: tables, static decode, operand text, costs, encode. */
#define _GNU_SOURCE
#include "neff_internal.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A 64-byte word written byte by byte (independent of the encoder). */
static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
static void put_ap(uint8_t *p, uint32_t addr, unsigned mode, int16_t s0, int16_t s1, int16_t s2, uint16_t n0,
		   uint16_t n1, uint16_t n2)
{
	put32(p, addr | (uint32_t)mode << 30);
	put16(p + 4, (uint16_t)s0);
	put16(p + 6, (uint16_t)s1);
	put16(p + 8, (uint16_t)s2);
	put16(p + 10, n0);
	put16(p + 12, n1);
	put16(p + 14, n2);
}

START_TEST(test_tables)
{
	ck_assert_str_eq(nxp_opcode_name(0x41), "TENSOR_TENSOR");
	ck_assert_str_eq(nxp_opcode_isa_name(0x41), "TENSOR_TENSOR_ARITH_OP");
	ck_assert_str_eq(nxp_opcode_name(0x42), "REDUCE");
	ck_assert_str_eq(nxp_opcode_isa_name(0x42), "TENSOR_REDUCE_ARITH");
	ck_assert_str_eq(nxp_opcode_name(0x43), "SCALAR");
	ck_assert_str_eq(nxp_opcode_name(0x02), "MATMUL");
	ck_assert_str_eq(nxp_opcode_name(0xD8), "PSEUDO_CORE_BARRIER");
	ck_assert_str_eq(nxp_opcode_name(0xFF), "INVALID");
	ck_assert_ptr_null(nxp_opcode_name(0x77));
	ck_assert_ptr_null(nxp_opcode_name(0x100));
	ck_assert_ptr_null(nxp_opcode_isa_name(0x00));
	ck_assert_int_eq(nxp_opcode_from_name("tensor_tensor"), 0x41);
	ck_assert_int_eq(nxp_opcode_from_name("TENSOR_TENSOR_ARITH_OP"), 0x41);
	ck_assert_int_eq(nxp_opcode_from_name("Operation(119)"), 119);
	ck_assert_int_eq(nxp_opcode_from_name("Operation(256)"), -1);
	ck_assert_int_eq(nxp_opcode_from_name("FROB"), -1);
	ck_assert_int_eq(nxp_opcode_from_name(NULL), -1);
	/* Every table opcode round-trips through both names. */
	for (unsigned op = 0; op < 256; op++)
		if (nxp_opcode_name(op)) {
			ck_assert_int_eq(nxp_opcode_from_name(nxp_opcode_name(op)), (int)op);
			ck_assert_int_eq(nxp_opcode_from_name(nxp_opcode_isa_name(op)), (int)op);
		}

	static const char *const dt[] = {"none", "fp32", "bf16", "fp16", "tf32", "fp8_e4m3", "fp8_e5m2",
					  "int8", "uint8", "int32", "uint32", "int16", "mxfp8", "mxfp4"};
	static const unsigned sz[] = {0, 4, 2, 2, 4, 1, 1, 1, 1, 4, 4, 2, 1, 1};
	for (int i = 0; i < 14; i++) {
		ck_assert_str_eq(nxp_dtype_name(i), dt[i]);
		ck_assert_uint_eq(nxp_dtype_size(i), sz[i]);
		ck_assert_int_eq(nxp_dtype_from_name(dt[i]), i);
	}
	ck_assert_ptr_null(nxp_dtype_name(14));
	ck_assert_ptr_null(nxp_dtype_name(-1));
	ck_assert_uint_eq(nxp_dtype_size(99), 0);
	ck_assert_int_eq(nxp_dtype_from_name("BF16"), 2);
	ck_assert_int_eq(nxp_dtype_from_name("fp64"), -1);

	static const char *const en[] = {"tensor", "vector", "scalar", "gpsimd", "sync"};
	static const char *const es[] = {"pe", "dve", "act", "pool", "sp"};
	for (int i = 0; i < NXP_ENGINE_COUNT; i++) {
		ck_assert_str_eq(nxp_engine_name(i), en[i]);
		ck_assert_str_eq(nxp_engine_short_name(i), es[i]);
		ck_assert_int_eq(nxp_engine_from_name(en[i]), i);
		ck_assert_int_eq(nxp_engine_from_name(es[i]), i);
	}
	ck_assert_int_eq(nxp_engine_from_name("PE"), NXP_ENGINE_TENSOR);
	ck_assert_int_eq(nxp_engine_from_name("Activation"), NXP_ENGINE_SCALAR);
	ck_assert_int_eq(nxp_engine_from_name("gpu"), -1);
	ck_assert_int_eq(nxp_engine_from_name(NULL), -1);
	ck_assert_ptr_null(nxp_engine_name(5));
	ck_assert_ptr_null(nxp_engine_short_name(-1));

	ck_assert(nxp_adjusted_flops_multiplier(2, NULL) == 1.0);
	ck_assert(nxp_adjusted_flops_multiplier(3, "trn2") == 1.0);
	ck_assert(nxp_adjusted_flops_multiplier(4, "trn1") == 1.0);
	ck_assert(nxp_adjusted_flops_multiplier(1, "trn2") == 4.0);
	ck_assert(nxp_adjusted_flops_multiplier(5, "trn1") == 1.0);
	ck_assert(nxp_adjusted_flops_multiplier(5, "inf2") == 1.0);
	ck_assert(nxp_adjusted_flops_multiplier(6, "trn2") == 0.5);
	ck_assert(nxp_adjusted_flops_multiplier(5, "trn3") == 0.5);
	ck_assert(nxp_adjusted_flops_multiplier(8, NULL) == 0.5);
	ck_assert(nxp_adjusted_flops_multiplier(12, "trn3") == 0.25);
	ck_assert(nxp_adjusted_flops_multiplier(13, "trn3") == 0.25);
}
END_TEST

START_TEST(test_decode_fields_and_text)
{
	/* The profiler's example: src=bf16@0x5600[1,0,0][3,1,1] dst=0x2000000[1,0,0][3,1,1] 3*128,
	 * waiting on $S[15]>=1 and incrementing $S[15] on completion. */
	uint8_t raw[64] = {0};
	raw[0] = 0x43;
	raw[1] = 16;
	raw[2] = 9;
	raw[3] = 10;
	raw[4] = 1;
	raw[5] = 15;
	raw[6] = 1;
	raw[7] = 15;
	put32(raw + 8, 1);
	raw[12] = 2;
	raw[13] = 0;
	raw[14] = 0x8;
	raw[15] = 3;
	put_ap(raw + 16, 0x5600, 0, 1, 0, 0, 3, 1, 1);
	put_ap(raw + 32, 0x2000000, 0, 1, 0, 0, 3, 1, 1);
	put16(raw + 48, 128);
	put16(raw + 50, 7);
	put32(raw + 52, 0xDEADBEEF);
	float f = 1.5f;
	memcpy(raw + 56, &f, 4);
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	char text[256];
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), NXP_ENGINE_VECTOR, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.operands, "src=bf16@0x5600[1,0,0][3,1,1] dst=0x2000000[1,0,0][3,1,1] 3*128 "
				      "$S[15]>=1 $S[15]++@complete");
	ck_assert_ptr_eq(in.operands, text);
	ck_assert_str_eq(in.opcode, "SCALAR");
	ck_assert_uint_eq(in.opcode_num, 0x43);
	ck_assert_int_eq(in.engine, NXP_ENGINE_VECTOR);
	ck_assert_int_eq(in.pc, -1);
	ck_assert_uint_eq(in.inst_word_len, 16);
	ck_assert_uint_eq(in.debug_cmd, 9);
	ck_assert_uint_eq(in.debug_hint, 10);
	ck_assert_uint_eq(in.wait_mode, 1);
	ck_assert_uint_eq(in.wait_idx, 15);
	ck_assert_uint_eq(in.update_mode, 1);
	ck_assert_uint_eq(in.update_idx, 15);
	ck_assert_uint_eq(in.semaphore_value, 1);
	ck_assert_uint_eq(in.src.address, 0x5600);
	ck_assert_uint_eq(in.src.addr_mode, 0);
	ck_assert_uint_eq(in.src.memory, NXP_MEMORY_SBUF);
	ck_assert_uint_eq(in.src.dtype, 2);
	ck_assert_int_eq(in.src.step_elem[0], 1);
	ck_assert_uint_eq(in.src.num_elem[0], 3);
	ck_assert_uint_eq(in.dst.memory, NXP_MEMORY_PSUM);
	ck_assert_uint_eq(in.flags, 0x8);
	ck_assert_str_eq(in.performance_mode, "4x");
	ck_assert_uint_eq(in.func, 3);
	ck_assert_uint_eq(in.partitions, 128);
	ck_assert_uint_eq(in.active_cols, 7);
	ck_assert_uint_eq(in.aux, 0xDEADBEEF);
	ck_assert(in.immediate == 1.5f);
	ck_assert_int_eq(memcmp(in.raw, raw, 64), 0);
	ck_assert_str_eq(in.tensor_instruction_type, "");
	ck_assert_str_eq(in.scalar_activation_fn, "");
	ck_assert_int_eq(in.raw_flops, 0);
	/* Bytes: src SBUF 128 x 3 x bf16; dst PSUM borrows bf16 (no dtype of its own). */
	ck_assert_int_eq(in.sbuf_read_bytes, 128 * 3 * 2);
	ck_assert_int_eq(in.psum_write_bytes, 128 * 3 * 2);
	ck_assert_int_eq(in.hbm_read_bytes + in.hbm_write_bytes + in.psum_read_bytes + in.sbuf_write_bytes, 0);

	/* Other semaphore forms; register / indirect / HBM operands. */
	raw[4] = 2;
	raw[6] = 3;
	put32(raw + 8, 42);
	put_ap(raw + 16, 5, 1, -1, 2, 3, 4, 5, 6);
	put_ap(raw + 32, 0x10000040, 2, 1, 0, 0, 8, 0, 0);
	raw[13] = 1;
	put16(raw + 48, 0);
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), -1, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.operands, "src=bf16@reg(5)[-1,2,3][4,5,6] dst=fp32@ind(0x10000040)[1,0,0][8,0,0] 120*1 "
				      "$S[15]==42 $S[15]=42@complete");
	ck_assert_uint_eq(in.src.memory, NXP_MEMORY_NONE);
	ck_assert_uint_eq(in.dst.memory, NXP_MEMORY_HBM);
	ck_assert_int_eq(in.hbm_write_bytes, 0); /* [8,0,0] has 0 elements */
	raw[6] = 2;
	put_ap(raw + 32, 0x10000040, 0, 1, 0, 0, 8, 1, 1);
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), -1, &in, text, sizeof(text)), NXP_OK);
	ck_assert_ptr_nonnull(strstr(in.operands, " $S[15]--@complete"));
	ck_assert_int_eq(in.hbm_write_bytes, 8 * 4); /* partitions 0 counts as 1 */

	/* An absent source: only dst, counted by dst. Without text: operands "". */
	memset(raw + 16, 0, 16);
	raw[4] = raw[6] = 0;
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), -1, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.operands, "dst=fp32@0x10000040[1,0,0][8,1,1] 8*1");
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), -1, &in, NULL, 0), NXP_OK);
	ck_assert_str_eq(in.operands, "");
	/* A short text buffer is truncated, still terminated. */
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), -1, &in, text, 6), NXP_OK);
	ck_assert_str_eq(in.operands, "dst=f");
	/* Nothing at all. */
	memset(raw + 16, 0, 32);
	ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), -1, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.operands, "");
}
END_TEST

START_TEST(test_costs)
{
	uint8_t raw[64] = {0};
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	char text[256];
	/* MATMUL: 96 rows x 32 columns x 200 moving elements, fp32 inputs. */
	raw[0] = 0x02;
	raw[1] = 16;
	raw[12] = 1;
	raw[13] = 1;
	put_ap(raw + 16, 0x100, 0, 1, 0, 0, 100, 2, 1);
	put_ap(raw + 32, 0x2000100, 0, 1, 0, 0, 32, 1, 1);
	put16(raw + 48, 96);
	put16(raw + 50, 32);
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, NXP_ENGINE_TENSOR, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.tensor_instruction_type, "MATMUL");
	ck_assert_int_eq(in.tensor_elements, 200 * 96);
	ck_assert_int_eq(in.raw_flops, 2LL * 96 * 32 * 200);
	ck_assert_int_eq(in.adjusted_flops, 4 * 2LL * 96 * 32 * 200); /* fp32 x4 (trn1 rules) */
	ck_assert_int_eq(in.sbuf_read_bytes, 96 * 200 * 4);
	ck_assert_int_eq(in.psum_write_bytes, 96 * 32 * 4);
	ck_assert_int_eq(in.psum_read_sbuf_write_bytes, 0);
	/* Sparse matmul, transposing. */
	raw[0] = 0x07;
	raw[14] = 0x2 | 0x4;
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, NXP_ENGINE_TENSOR, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.opcode, "MATMUL_SPARSE");
	ck_assert_str_eq(in.tensor_instruction_type, "TRANSPOSE");
	ck_assert_str_eq(in.performance_mode, "2x");
	ck_assert_int_eq(in.raw_flops, 2LL * 96 * 32 * 200);
	/* LDWEIGHTS: no FLOPs. */
	raw[0] = 0x01;
	raw[14] = 0;
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, NXP_ENGINE_TENSOR, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.tensor_instruction_type, "LDWEIGHTS");
	ck_assert_int_eq(in.raw_flops, 0);
	ck_assert_int_eq(in.adjusted_flops, 0);
	/* ACTIVATE from PSUM into SBUF. */
	raw[0] = 0x21;
	raw[12] = 1;
	raw[13] = 2;
	raw[15] = 6;
	put_ap(raw + 16, 0x2000000, 0, 1, 0, 0, 64, 1, 1);
	put_ap(raw + 32, 0x800, 0, 1, 0, 0, 64, 1, 1);
	put16(raw + 48, 128);
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, NXP_ENGINE_SCALAR, &in, text, sizeof(text)), NXP_OK);
	ck_assert_str_eq(in.opcode, "ACTIVATE");
	ck_assert_str_eq(in.scalar_activation_fn, "sigmoid");
	ck_assert_int_eq(in.psum_read_bytes, 128 * 64 * 4);
	ck_assert_int_eq(in.sbuf_write_bytes, 128 * 64 * 2);
	ck_assert_int_eq(in.psum_read_sbuf_write_bytes, 128 * 64 * 2);
	ck_assert_int_eq(in.raw_flops, 0);
	static const char *const fns[] = {"identity", "relu", "gelu", "silu", "exp", "tanh", "sigmoid", "rsqrt",
					  "square", "copy"};
	for (int i = 0; i < 10; i++) {
		raw[15] = (uint8_t)i;
		nxp_instruction_decode(raw, 64, NXP_ENGINE_SCALAR, &in, NULL, 0);
		ck_assert_str_eq(in.scalar_activation_fn, fns[i]);
	}
	raw[15] = 200;
	nxp_instruction_decode(raw, 64, NXP_ENGINE_SCALAR, &in, NULL, 0);
	ck_assert_str_eq(in.scalar_activation_fn, "func(200)");
	/* Unknown opcode: named, never an error. */
	for (unsigned op = 0; op < 256; op++) {
		raw[0] = (uint8_t)op;
		ck_assert_int_eq(nxp_instruction_decode(raw, 64, 0, &in, text, sizeof(text)), NXP_OK);
		if (!nxp_opcode_name(op)) {
			char want[32];
			snprintf(want, sizeof(want), "Operation(%u)", op);
			ck_assert_str_eq(in.opcode, want);
		}
	}
	/* Hostile counts saturate instead of overflowing. */
	raw[0] = 0x02;
	raw[12] = 1;
	put_ap(raw + 16, 0x10000000, 0, 1, 1, 1, 65535, 65535, 65535);
	put_ap(raw + 32, 0x10000000, 0, 1, 1, 1, 65535, 65535, 65535);
	put16(raw + 48, 65535);
	put16(raw + 50, 65535);
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, 0, &in, text, sizeof(text)), NXP_OK);
	ck_assert_int_eq(in.raw_flops, INT64_MAX);
	ck_assert_int_eq(in.adjusted_flops, INT64_MAX);
	ck_assert_int_eq(in.hbm_read_bytes, INT64_MAX);
	ck_assert_uint_lt(strlen(text), 255);
}
END_TEST

START_TEST(test_decode_errors)
{
	uint8_t raw[64] = {0};
	raw[1] = 16;
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	char text[256];
	ck_assert_int_eq(nxp_instruction_decode(raw, 63, 0, &in, text, sizeof(text)), NXP_E_TRUNCATED);
	ck_assert_int_eq(nxp_instruction_decode(NULL, 64, 0, &in, text, sizeof(text)), NXP_E_INVAL);
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, 0, NULL, text, sizeof(text)), NXP_E_INVAL);
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, 5, &in, text, sizeof(text)), NXP_E_INVAL);
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, -2, &in, text, sizeof(text)), NXP_E_INVAL);
	in.struct_size = NXP_NEFF_INSTRUCTION_MIN_SIZE - 1;
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, 0, &in, text, sizeof(text)), NXP_E_INVAL);
	in.struct_size = sizeof(in);
	raw[1] = 8;
	ck_assert_int_eq(nxp_instruction_decode(raw, 64, 0, &in, text, sizeof(text)), NXP_E_FORMAT);
	raw[1] = 16;
	/* Longer input is fine: only the first 64 bytes are read. */
	uint8_t two[128] = {0};
	two[1] = 16;
	ck_assert_int_eq(nxp_instruction_decode(two, sizeof(two), 0, &in, text, sizeof(text)), NXP_OK);

	uint8_t out[64];
	ck_assert_int_eq(nxp_instruction_encode(NULL, out), NXP_E_INVAL);
	ck_assert_int_eq(nxp_instruction_encode(&in, NULL), NXP_E_INVAL);
	in.opcode_num = 256;
	ck_assert_int_eq(nxp_instruction_encode(&in, out), NXP_E_INVAL);
	in.opcode_num = 1;
	in.src.address = 0x40000000;
	ck_assert_int_eq(nxp_instruction_encode(&in, out), NXP_E_INVAL);
	in.src.address = 0;
	in.dst.addr_mode = 4;
	ck_assert_int_eq(nxp_instruction_encode(&in, out), NXP_E_INVAL);
	in.dst.addr_mode = 0;
	in.struct_size = 16;
	ck_assert_int_eq(nxp_instruction_encode(&in, out), NXP_E_INVAL);
}
END_TEST

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

START_TEST(test_encode_round_trip)
{
	uint32_t seed = 12345;
	for (int iter = 0; iter < 2000; iter++) {
		nxp_neff_instruction x;
		memset(&x, 0, sizeof(x));
		x.struct_size = sizeof(x);
		x.opcode_num = lcg(&seed) & 0xFF;
		x.debug_cmd = (uint8_t)lcg(&seed);
		x.debug_hint = (uint8_t)lcg(&seed);
		x.wait_mode = (uint8_t)(lcg(&seed) % 3);
		x.wait_idx = (uint8_t)lcg(&seed);
		x.update_mode = (uint8_t)(lcg(&seed) % 4);
		x.update_idx = (uint8_t)lcg(&seed);
		x.semaphore_value = lcg(&seed) * 7u;
		x.flags = (uint8_t)lcg(&seed);
		x.func = (uint8_t)lcg(&seed);
		x.partitions = (uint16_t)(lcg(&seed) % 129);
		x.active_cols = (uint16_t)(lcg(&seed) % 129);
		x.aux = lcg(&seed);
		x.immediate = (float)(lcg(&seed) % 1000) / 8.0f;
		nxp_access_pattern *aps[2] = {&x.src, &x.dst};
		for (int k = 0; k < 2; k++) {
			aps[k]->address = lcg(&seed) & 0x3FFFFFFF;
			aps[k]->addr_mode = (uint8_t)(lcg(&seed) % 3);
			aps[k]->dtype = (uint8_t)(lcg(&seed) % 14);
			for (int d = 0; d < 3; d++) {
				aps[k]->step_elem[d] = (int16_t)lcg(&seed);
				aps[k]->num_elem[d] = (uint16_t)lcg(&seed);
			}
		}
		uint8_t raw[64];
		ck_assert_int_eq(nxp_instruction_encode(&x, raw), NXP_OK);
		nxp_neff_instruction y = {.struct_size = sizeof(y)};
		ck_assert_int_eq(nxp_instruction_decode(raw, 64, 0, &y, NULL, 0), NXP_OK);
		ck_assert_uint_eq(y.opcode_num, x.opcode_num);
		ck_assert_uint_eq(y.inst_word_len, 16);
		ck_assert_uint_eq(y.debug_cmd, x.debug_cmd);
		ck_assert_uint_eq(y.debug_hint, x.debug_hint);
		ck_assert_uint_eq(y.wait_mode, x.wait_mode);
		ck_assert_uint_eq(y.wait_idx, x.wait_idx);
		ck_assert_uint_eq(y.update_mode, x.update_mode);
		ck_assert_uint_eq(y.update_idx, x.update_idx);
		ck_assert_uint_eq(y.semaphore_value, x.semaphore_value);
		ck_assert_uint_eq(y.flags, x.flags);
		ck_assert_uint_eq(y.func, x.func);
		ck_assert_uint_eq(y.partitions, x.partitions);
		ck_assert_uint_eq(y.active_cols, x.active_cols);
		ck_assert_uint_eq(y.aux, x.aux);
		ck_assert(y.immediate == x.immediate);
		const nxp_access_pattern *bps[2] = {&y.src, &y.dst};
		for (int k = 0; k < 2; k++) {
			ck_assert_uint_eq(bps[k]->address, aps[k]->address);
			ck_assert_uint_eq(bps[k]->addr_mode, aps[k]->addr_mode);
			ck_assert_uint_eq(bps[k]->dtype, aps[k]->dtype);
			for (int d = 0; d < 3; d++) {
				ck_assert_int_eq(bps[k]->step_elem[d], aps[k]->step_elem[d]);
				ck_assert_uint_eq(bps[k]->num_elem[d], aps[k]->num_elem[d]);
			}
		}
		/* And the other way: encode(decode(raw)) == raw. */
		uint8_t again[64];
		ck_assert_int_eq(nxp_instruction_encode(&y, again), NXP_OK);
		ck_assert_int_eq(memcmp(raw, again, 64), 0);
	}
	/* An older caller's struct (ends at raw): the appended fields encode as 0 / defaults. */
	nxp_neff_instruction old;
	memset(&old, 0x5A, sizeof(old));
	old.struct_size = NXP_NEFF_INSTRUCTION_MIN_SIZE;
	old.opcode_num = 0x21;
	old.src.address = 0x100;
	old.src.addr_mode = 0;
	old.dst.address = 0x200;
	old.dst.addr_mode = 0;
	uint8_t raw[64];
	ck_assert_int_eq(nxp_instruction_encode(&old, raw), NXP_OK);
	ck_assert_uint_eq(raw[0], 0x21);
	ck_assert_uint_eq(raw[1], 16);
	for (int i = 48; i < 64; i++)
		ck_assert_uint_eq(raw[i], 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("neff_instr");
	TCase *tc = tcase_create("neff_instr");
	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_decode_fields_and_text);
	tcase_add_test(tc, test_costs);
	tcase_add_test(tc, test_decode_errors);
	tcase_add_test(tc, test_encode_round_trip);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
