/* SPDX-License-Identifier: MIT */
/*
 * libnxp's provisional model of the 64-byte NEFF instruction: the opcode table,
 * the dtype table, activation function names, the memory map, static decode,
 * encode, operand text and the static FLOPs/bytes model.  None of this is an
 * official fact (see doc/formats/neff.md, "libnxp's instruction model"): every
 * piece of that knowledge lives in this file, in tables, so that a correction
 * is a one-line change.
 */
#include "neff_priv.h"

#include "abi_struct.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Layout of the 64-byte word (little-endian) ---- */
enum {
	IW_OPCODE = 0,
	IW_WORD_LEN = 1,
	IW_DEBUG_CMD = 2,
	IW_DEBUG_HINT = 3,
	IW_WAIT_MODE = 4,
	IW_WAIT_IDX = 5,
	IW_UPDATE_MODE = 6,
	IW_UPDATE_IDX = 7,
	IW_SEM_VALUE = 8, /* u32 */
	IW_SRC_DTYPE = 12,
	IW_DST_DTYPE = 13,
	IW_FLAGS = 14,
	IW_FUNC = 15,
	IW_SRC_AP = 16, /* 16 bytes */
	IW_DST_AP = 32, /* 16 bytes */
	IW_PARTITIONS = 48, /* u16 */
	IW_ACTIVE_COLS = 50, /* u16 */
	IW_AUX = 52, /* u32 */
	IW_IMMEDIATE = 56, /* f32 */
	IW_RESERVED = 60, /* u32 */
};
#define IW_WORDS 16u /* inst_word_len of every known instruction */

/* Access pattern: u32 address word, int16 step_elem[3], uint16 num_elem[3]. */
#define AP_ADDR_BITS 0x3FFFFFFFu
#define AP_MODE_SHIFT 30

enum { FLAG_PSUM_ZERO = 0x1, FLAG_TRANSPOSE = 0x2, FLAG_PERF_2X = 0x4, FLAG_PERF_4X = 0x8 };

/* ---- Opcodes ---- */
enum { OPC_OTHER, OPC_MATMUL, OPC_LDWEIGHTS, OPC_ACTIVATE, OPC_SETUP };

typedef struct opcode_def {
	uint8_t num;
	uint8_t cls;
	const char *isa;     /* name in the instruction set write-ups */
	const char *display; /* name the profiler shows */
} opcode_def;

static const opcode_def opcodes[] = {
	{0x01, OPC_LDWEIGHTS, "LDWEIGHTS", "LDWEIGHTS"},
	{0x02, OPC_MATMUL, "MATMUL", "MATMUL"},
	{0x07, OPC_MATMUL, "MATMUL_SPARSE", "MATMUL_SPARSE"},
	{0x21, OPC_ACTIVATE, "ACTIVATE", "ACTIVATE"},
	{0x23, OPC_OTHER, "ACTIVATION_TABLE_LOAD", "ACTIVATION_TABLE_LOAD"},
	{0x41, OPC_OTHER, "TENSOR_TENSOR_ARITH_OP", "TENSOR_TENSOR"},
	{0x42, OPC_OTHER, "TENSOR_REDUCE_ARITH", "REDUCE"},
	{0x43, OPC_OTHER, "TENSOR_SCALAR_ARITH", "SCALAR"},
	{0x45, OPC_OTHER, "POOL", "POOL"},
	{0x46, OPC_OTHER, "COPY", "COPY"},
	{0x47, OPC_OTHER, "CAST", "CAST"},
	{0x49, OPC_OTHER, "MEMSET", "MEMSET"},
	{0xA0, OPC_SETUP, "EVENT_SEMAPHORE", "EVENT_SEMAPHORE"},
	{0xA1, OPC_SETUP, "HALT", "HALT"},
	{0xA4, OPC_SETUP, "NOP", "NOP"},
	{0xA5, OPC_SETUP, "WRITE", "WRITE"},
	{0xB8, OPC_OTHER, "DMAMEMCPY", "DMAMEMCPY"},
	{0xBB, OPC_OTHER, "DMA_INDIRECT", "DMA_INDIRECT"},
	{0xBD, OPC_OTHER, "DMA_TRANSPOSE", "DMA_TRANSPOSE"},
	{0xC1, OPC_OTHER, "PSEUDO_DMATRIGGER", "PSEUDO_DMATRIGGER"},
	{0xC8, OPC_OTHER, "PSEUDO_TRIGGER_COLLECTIVE", "PSEUDO_TRIGGER_COLLECTIVE"},
	{0xC9, OPC_OTHER, "PSEUDO_READ_VAR_ADDR", "PSEUDO_READ_VAR_ADDR"},
	{0xD8, OPC_OTHER, "PSEUDO_CORE_BARRIER", "PSEUDO_CORE_BARRIER"},
	{0xFF, OPC_OTHER, "INVALID", "INVALID"},
};

/* 256 literals F(0), F(1), ..., F(255), decimal without leading zeros (F(n)
 * stringifies n), for the "Operation(N)" / "func(N)" tables below. */
#define NUM_10(F, p) F(p##0), F(p##1), F(p##2), F(p##3), F(p##4), F(p##5), F(p##6), F(p##7), F(p##8), F(p##9)
#define NUM_100(F, p)                                                                                       \
	NUM_10(F, p##0), NUM_10(F, p##1), NUM_10(F, p##2), NUM_10(F, p##3), NUM_10(F, p##4), NUM_10(F, p##5), \
		NUM_10(F, p##6), NUM_10(F, p##7), NUM_10(F, p##8), NUM_10(F, p##9)
#define NUM_256(F)                                                                                          \
	NUM_10(F, ), NUM_10(F, 1), NUM_10(F, 2), NUM_10(F, 3), NUM_10(F, 4), NUM_10(F, 5), NUM_10(F, 6),        \
		NUM_10(F, 7), NUM_10(F, 8), NUM_10(F, 9), NUM_100(F, 1), NUM_10(F, 20), NUM_10(F, 21),          \
		NUM_10(F, 22), NUM_10(F, 23), NUM_10(F, 24), F(250), F(251), F(252), F(253), F(254), F(255)

/* Unknown opcodes are shown as the profiler shows them: "Operation(N)". */
#define OPERATION_N(n) "Operation(" #n ")"
static const char *const unknown_opcode[256] = {NUM_256(OPERATION_N)};

static const opcode_def *opcode_find(unsigned num)
{
	for (size_t i = 0; i < sizeof(opcodes) / sizeof(opcodes[0]); i++)
		if (opcodes[i].num == num)
			return &opcodes[i];
	return NULL;
}

const char *nxp_opcode_name(unsigned opcode)
{
	const opcode_def *d = opcode_find(opcode);
	return d ? d->display : NULL;
}

const char *nxp_opcode_isa_name(unsigned opcode)
{
	const opcode_def *d = opcode_find(opcode);
	return d ? d->isa : NULL;
}

int nxp_opcode_from_name(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < sizeof(opcodes) / sizeof(opcodes[0]); i++)
		if (!strcasecmp(name, opcodes[i].display) || !strcasecmp(name, opcodes[i].isa))
			return opcodes[i].num;
	for (unsigned i = 0; i < 256; i++)
		if (!strcasecmp(name, unknown_opcode[i]))
			return (int)i;
	return -1;
}

/* ---- Data types (codes are libnxp's model) ---- */
enum {
	DT_NONE = 0, DT_FP32 = 1, DT_BF16 = 2, DT_FP16 = 3, DT_TF32 = 4, DT_FP8_E4M3 = 5, DT_FP8_E5M2 = 6,
	DT_INT8 = 7, DT_UINT8 = 8, DT_INT32 = 9, DT_UINT32 = 10, DT_INT16 = 11, DT_MXFP8 = 12, DT_MXFP4 = 13,
	DT_COUNT
};

static const struct {
	const char *name;
	uint8_t size; /* bytes per element; mxfp4 counted as 1 (libnxp's simplification) */
} dtypes[DT_COUNT] = {
	[DT_NONE] = {"none", 0},      [DT_FP32] = {"fp32", 4},   [DT_BF16] = {"bf16", 2},
	[DT_FP16] = {"fp16", 2},      [DT_TF32] = {"tf32", 4},   [DT_FP8_E4M3] = {"fp8_e4m3", 1},
	[DT_FP8_E5M2] = {"fp8_e5m2", 1}, [DT_INT8] = {"int8", 1}, [DT_UINT8] = {"uint8", 1},
	[DT_INT32] = {"int32", 4},    [DT_UINT32] = {"uint32", 4}, [DT_INT16] = {"int16", 2},
	[DT_MXFP8] = {"mxfp8", 1},    [DT_MXFP4] = {"mxfp4", 1},
};

const char *nxp_dtype_name(int dtype)
{
	return dtype >= 0 && dtype < DT_COUNT ? dtypes[dtype].name : NULL;
}

int nxp_dtype_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < DT_COUNT; i++)
		if (!strcasecmp(name, dtypes[i].name))
			return i;
	return -1;
}

unsigned nxp_dtype_size(int dtype)
{
	return dtype >= 0 && dtype < DT_COUNT ? dtypes[dtype].size : 0;
}

/* The one arch rule of the FLOPs multipliers: FP8 runs at twice the BF16 rate
 * on trn2 and trn3 (hardware.c's tables take it from here). */
double nxp_fp8_flops_multiplier(const char *arch)
{
	return arch && (!strcasecmp(arch, "trn2") || !strcasecmp(arch, "trn3")) ? 0.5 : 1.0;
}

double nxp_dtype_flops_multiplier(int dtype, double fp8_multiplier)
{
	switch (dtype) {
	case DT_FP32:
		return 4.0;
	case DT_FP8_E4M3:
	case DT_FP8_E5M2:
		return fp8_multiplier;
	case DT_UINT8:
		return 0.5;
	case DT_MXFP8:
	case DT_MXFP4:
		return 0.25;
	default: /* bf16, fp16, tf32 and everything the metrics do not single out */
		return 1.0;
	}
}

double nxp_adjusted_flops_multiplier(int dtype, const char *arch)
{
	return nxp_dtype_flops_multiplier(dtype, nxp_fp8_flops_multiplier(arch));
}

/* ---- ACTIVATE function ids ---- */
static const char *const activation_fn[] = {
	"identity", "relu", "gelu", "silu", "exp", "tanh", "sigmoid", "rsqrt", "square", "copy",
};
#define FUNC_N(n) "func(" #n ")"
static const char *const unknown_fn[256] = {NUM_256(FUNC_N)};

/* ---- Memory map (libnxp's model) ---- */
#define SBUF_END 0x01800000u
#define PSUM_BEGIN 0x02000000u
#define PSUM_END 0x02200000u
#define HBM_BEGIN 0x10000000u

static uint8_t memory_of(unsigned mode, uint32_t address)
{
	if (mode == 1) /* register: the address field names a register, not memory */
		return NXP_MEMORY_NONE;
	if (address < SBUF_END)
		return NXP_MEMORY_SBUF;
	if (address >= PSUM_BEGIN && address < PSUM_END)
		return NXP_MEMORY_PSUM;
	if (address >= HBM_BEGIN)
		return NXP_MEMORY_HBM;
	return NXP_MEMORY_NONE;
}

/* ---- Little-endian helpers ---- */
static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Saturating arithmetic: hostile counts must not overflow. */
static int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int ap_present(const nxp_access_pattern *ap)
{
	return ap->num_elem[0] || ap->num_elem[1] || ap->num_elem[2];
}

static int64_t ap_elements(const nxp_access_pattern *ap)
{
	if (!ap_present(ap))
		return 0;
	return (int64_t)ap->num_elem[0] * ap->num_elem[1] * ap->num_elem[2];
}

static void ap_decode(const uint8_t *p, uint8_t dtype, nxp_access_pattern *ap)
{
	uint32_t w = rd32(p);
	memset(ap, 0, sizeof(*ap));
	ap->address = w & AP_ADDR_BITS;
	ap->addr_mode = (uint8_t)(w >> AP_MODE_SHIFT);
	ap->dtype = dtype;
	for (int i = 0; i < 3; i++) {
		ap->step_elem[i] = (int16_t)rd16(p + 4 + 2 * i);
		ap->num_elem[i] = rd16(p + 10 + 2 * i);
	}
	ap->memory = ap_present(ap) ? memory_of(ap->addr_mode, (uint32_t)ap->address) : NXP_MEMORY_NONE;
}

static void ap_encode(uint8_t *p, const nxp_access_pattern *ap)
{
	wr32(p, (uint32_t)(ap->address & AP_ADDR_BITS) | (uint32_t)ap->addr_mode << AP_MODE_SHIFT);
	for (int i = 0; i < 3; i++) {
		wr16(p + 4 + 2 * i, (uint16_t)ap->step_elem[i]);
		wr16(p + 10 + 2 * i, ap->num_elem[i]);
	}
}

/* Bytes one operand moves: partitions x elements x element size.  An operand
 * without a dtype borrows the other operand's. */
static int64_t ap_bytes(const nxp_access_pattern *ap, const nxp_access_pattern *other, int64_t parts)
{
	unsigned esz = nxp_dtype_size(ap->dtype);
	if (!esz)
		esz = nxp_dtype_size(other->dtype);
	return sat_mul(sat_mul(parts, ap_elements(ap)), (int64_t)esz);
}

static void add_bytes(nxp_static_instr *si, uint8_t memory, int64_t n, int write)
{
	int64_t *slot = NULL;
	switch (memory) {
	case NXP_MEMORY_SBUF: slot = write ? &si->sbuf_write_bytes : &si->sbuf_read_bytes; break;
	case NXP_MEMORY_PSUM: slot = write ? &si->psum_write_bytes : &si->psum_read_bytes; break;
	case NXP_MEMORY_HBM: slot = write ? &si->hbm_write_bytes : &si->hbm_read_bytes; break;
	default: return;
	}
	*slot = sat_add(*slot, n);
}

/* ---- Operand text (profiler style) ---- */
typedef struct textbuf {
	char *p;
	size_t len, used;
} textbuf;

static void tb_printf(textbuf *tb, const char *fmt, ...) NXP_PRINTF(2, 3);
static void tb_printf(textbuf *tb, const char *fmt, ...)
{
	if (tb->used + 1 >= tb->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tb->p + tb->used, tb->len - tb->used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	tb->used += (size_t)n;
	if (tb->used >= tb->len)
		tb->used = tb->len - 1;
}

static void tb_sep(textbuf *tb)
{
	if (tb->used)
		tb_printf(tb, " ");
}

static void ap_text(textbuf *tb, const char *role, const nxp_access_pattern *ap)
{
	if (!ap_present(ap))
		return;
	tb_sep(tb);
	tb_printf(tb, "%s=", role);
	if (ap->dtype != DT_NONE && nxp_dtype_name(ap->dtype))
		tb_printf(tb, "%s@", nxp_dtype_name(ap->dtype));
	unsigned long long a = (unsigned long long)ap->address;
	switch (ap->addr_mode) {
	case 0: tb_printf(tb, "0x%llx", a); break;
	case 1: tb_printf(tb, "reg(%llu)", a); break;
	case 2: tb_printf(tb, "ind(0x%llx)", a); break;
	default: tb_printf(tb, "mode%u(0x%llx)", ap->addr_mode, a); break;
	}
	tb_printf(tb, "[%d,%d,%d][%u,%u,%u]", ap->step_elem[0], ap->step_elem[1], ap->step_elem[2],
		  ap->num_elem[0], ap->num_elem[1], ap->num_elem[2]);
}

static void sem_text(textbuf *tb, const nxp_neff_instruction *in)
{
	static const char *const wait_op[] = {NULL, ">=", "=="};
	if (in->wait_mode >= 1 && in->wait_mode <= 2) {
		tb_sep(tb);
		tb_printf(tb, "$S[%u]%s%u", in->wait_idx, wait_op[in->wait_mode], in->semaphore_value);
	}
	switch (in->update_mode) {
	case 1: tb_sep(tb); tb_printf(tb, "$S[%u]++@complete", in->update_idx); break;
	case 2: tb_sep(tb); tb_printf(tb, "$S[%u]--@complete", in->update_idx); break;
	case 3: tb_sep(tb); tb_printf(tb, "$S[%u]=%u@complete", in->update_idx, in->semaphore_value); break;
	default: break;
	}
}

static void operand_text(const nxp_neff_instruction *in, char *text, size_t text_len)
{
	textbuf tb = {text, text_len, 0};
	text[0] = '\0';
	ap_text(&tb, "src", &in->src);
	ap_text(&tb, "dst", &in->dst);
	const nxp_access_pattern *main = ap_present(&in->src) ? &in->src : ap_present(&in->dst) ? &in->dst : NULL;
	if (main) {
		tb_sep(&tb);
		tb_printf(&tb, "%lld*%u", (long long)ap_elements(main), in->partitions ? in->partitions : 1u);
	}
	sem_text(&tb, in);
}

/* ---- Decode ---- */
void neff_instr_decode(const uint8_t raw[NXP_NEFF_INSTRUCTION_SIZE], int engine, nxp_neff_instruction *out,
		       nxp_static_instr *si_out, char *text, size_t text_len)
{
	nxp_static_instr local;
	nxp_static_instr *si = si_out ? si_out : &local;
	memset(out, 0, sizeof(*out));
	memset(si, 0, sizeof(*si));
	out->struct_size = sizeof(*out);
	out->pc = -1;
	out->pcore_idx = -1;
	out->engine = engine;
	memcpy(out->raw, raw, NXP_NEFF_INSTRUCTION_SIZE);

	unsigned op = raw[IW_OPCODE];
	out->opcode_num = op;
	out->inst_word_len = raw[IW_WORD_LEN];
	out->debug_cmd = raw[IW_DEBUG_CMD];
	out->debug_hint = raw[IW_DEBUG_HINT];
	out->wait_mode = raw[IW_WAIT_MODE];
	out->wait_idx = raw[IW_WAIT_IDX];
	out->update_mode = raw[IW_UPDATE_MODE];
	out->update_idx = raw[IW_UPDATE_IDX];
	out->semaphore_value = rd32(raw + IW_SEM_VALUE);
	out->flags = raw[IW_FLAGS];
	out->func = raw[IW_FUNC];
	ap_decode(raw + IW_SRC_AP, raw[IW_SRC_DTYPE], &out->src);
	ap_decode(raw + IW_DST_AP, raw[IW_DST_DTYPE], &out->dst);
	out->partitions = rd16(raw + IW_PARTITIONS);
	out->active_cols = rd16(raw + IW_ACTIVE_COLS);
	out->aux = rd32(raw + IW_AUX);
	uint32_t imm = rd32(raw + IW_IMMEDIATE);
	memcpy(&out->immediate, &imm, sizeof(imm));

	const opcode_def *d = opcode_find(op);
	si->opcode_num = op;
	si->opcode = d ? d->display : unknown_opcode[op];
	si->tensor_instruction_type = "";
	si->scalar_activation_fn = "";
	si->performance_mode = (out->flags & FLAG_PERF_4X) ? "4x" : (out->flags & FLAG_PERF_2X) ? "2x" : "";

	int64_t parts = out->partitions ? out->partitions : 1;
	int64_t src_elems = ap_elements(&out->src);
	int64_t src_bytes = ap_bytes(&out->src, &out->dst, parts);
	int64_t dst_bytes = ap_bytes(&out->dst, &out->src, parts);
	add_bytes(si, out->src.memory, src_bytes, 0);
	add_bytes(si, out->dst.memory, dst_bytes, 1);
	if (out->src.memory == NXP_MEMORY_PSUM && out->dst.memory == NXP_MEMORY_SBUF)
		si->psum_read_sbuf_write_bytes = dst_bytes;

	switch (d ? d->cls : OPC_OTHER) {
	case OPC_MATMUL:
		si->is_matmul = 1;
		si->is_transpose = (out->flags & FLAG_TRANSPOSE) != 0;
		si->tensor_instruction_type = si->is_transpose ? "TRANSPOSE" : "MATMUL";
		si->mm_dtype = out->src.dtype;
		si->tensor_elements = sat_mul(src_elems, parts);
		si->raw_flops = sat_mul(sat_mul(2 * parts, out->active_cols), src_elems);
		break;
	case OPC_LDWEIGHTS:
		si->tensor_instruction_type = "LDWEIGHTS";
		si->tensor_elements = sat_mul(src_elems, parts);
		break;
	case OPC_ACTIVATE:
		si->is_activate = 1;
		si->scalar_activation_fn = out->func < sizeof(activation_fn) / sizeof(activation_fn[0])
						   ? activation_fn[out->func]
						   : unknown_fn[out->func];
		break;
	case OPC_SETUP:
		si->is_setup = 1;
		break;
	default:
		break;
	}

	out->opcode = si->opcode;
	out->tensor_instruction_type = si->tensor_instruction_type;
	out->scalar_activation_fn = si->scalar_activation_fn;
	out->performance_mode = si->performance_mode;
	out->tensor_elements = si->tensor_elements;
	out->raw_flops = si->raw_flops;
	double adj = (double)si->raw_flops * nxp_adjusted_flops_multiplier(si->mm_dtype, NULL);
	out->adjusted_flops = adj >= 9.2e18 ? INT64_MAX : (int64_t)(adj + 0.5);
	out->hbm_read_bytes = si->hbm_read_bytes;
	out->hbm_write_bytes = si->hbm_write_bytes;
	out->sbuf_read_bytes = si->sbuf_read_bytes;
	out->sbuf_write_bytes = si->sbuf_write_bytes;
	out->psum_read_bytes = si->psum_read_bytes;
	out->psum_write_bytes = si->psum_write_bytes;
	out->psum_read_sbuf_write_bytes = si->psum_read_sbuf_write_bytes;
	if (text && text_len) {
		operand_text(out, text, text_len);
		out->operands = text;
	} else {
		out->operands = "";
	}
	si->operands = out->operands;
}

int nxp_instruction_decode(const void *raw, size_t len, int engine, nxp_neff_instruction *out, char *text,
			   size_t text_len)
{
	if (!raw || !nxp__struct_size_ok(out, NXP_NEFF_INSTRUCTION_MIN_SIZE) || engine < -1 || engine >= NXP_ENGINE_COUNT)
		return NXP_E_INVAL;
	if (len < NXP_NEFF_INSTRUCTION_SIZE)
		return NXP_E_TRUNCATED;
	const uint8_t *b = raw;
	if (b[IW_WORD_LEN] != IW_WORDS)
		return NXP_E_FORMAT;
	nxp_neff_instruction full;
	neff_instr_decode(b, engine, &full, NULL, text, text_len);
	NXP__STRUCT_OUT(out, full, NXP_NEFF_INSTRUCTION_MIN_SIZE);
	return NXP_OK;
}

int nxp_instruction_encode(const nxp_neff_instruction *in, uint8_t out[NXP_NEFF_INSTRUCTION_SIZE])
{
	nxp_neff_instruction x;
	if (!out || NXP__STRUCT_IN(x, in, NXP_NEFF_INSTRUCTION_MIN_SIZE) != NXP_OK)
		return NXP_E_INVAL;
	if (x.opcode_num > 0xFF)
		return NXP_E_INVAL;
	const nxp_access_pattern *aps[2] = {&x.src, &x.dst};
	for (int i = 0; i < 2; i++)
		if (aps[i]->address > AP_ADDR_BITS || aps[i]->addr_mode > 3)
			return NXP_E_INVAL;
	memset(out, 0, NXP_NEFF_INSTRUCTION_SIZE);
	out[IW_OPCODE] = (uint8_t)x.opcode_num;
	out[IW_WORD_LEN] = x.inst_word_len ? x.inst_word_len : IW_WORDS;
	out[IW_DEBUG_CMD] = x.debug_cmd;
	out[IW_DEBUG_HINT] = x.debug_hint;
	out[IW_WAIT_MODE] = x.wait_mode;
	out[IW_WAIT_IDX] = x.wait_idx;
	out[IW_UPDATE_MODE] = x.update_mode;
	out[IW_UPDATE_IDX] = x.update_idx;
	wr32(out + IW_SEM_VALUE, x.semaphore_value);
	out[IW_SRC_DTYPE] = x.src.dtype;
	out[IW_DST_DTYPE] = x.dst.dtype;
	out[IW_FLAGS] = x.flags;
	out[IW_FUNC] = x.func;
	ap_encode(out + IW_SRC_AP, &x.src);
	ap_encode(out + IW_DST_AP, &x.dst);
	wr16(out + IW_PARTITIONS, x.partitions);
	wr16(out + IW_ACTIVE_COLS, x.active_cols);
	wr32(out + IW_AUX, x.aux);
	uint32_t imm;
	memcpy(&imm, &x.immediate, sizeof(imm));
	wr32(out + IW_IMMEDIATE, imm);
	wr32(out + IW_RESERVED, 0);
	return NXP_OK;
}

/* ---- Precomputed streams ---- */
int neff_stream_build(nxp_neff *n, neff_stream *s, int engine)
{
	if (!s->count)
		return NXP_OK;
	s->si = calloc((size_t)s->count, sizeof(*s->si));
	size_t *offs = malloc((size_t)s->count * sizeof(*offs));
	size_t cap = (size_t)s->count * 48 + 64, used = 0;
	s->text = malloc(cap);
	if (!s->si || !offs || !s->text) {
		free(offs);
		return neff_fail(n, NXP_E_NOMEM, -1, "out of memory for %llu instructions of %s",
				 (unsigned long long)s->count, s->bin_path);
	}
	char line[256];
	nxp_neff_instruction tmp;
	for (uint64_t i = 0; i < s->count; i++) {
		const uint8_t *raw = s->raw + i * NXP_NEFF_INSTRUCTION_SIZE;
		if (raw[IW_WORD_LEN] != IW_WORDS)
			n->warnings++; /* decoded anyway: the model is provisional */
		neff_instr_decode(raw, engine, &tmp, &s->si[i], line, sizeof(line));
		size_t l = strlen(line) + 1;
		if (used + l > cap) {
			size_t ncap = cap * 2 > used + l ? cap * 2 : used + l;
			char *t = realloc(s->text, ncap);
			if (!t) {
				free(offs);
				return neff_fail(n, NXP_E_NOMEM, -1, "out of memory for operand text of %s", s->bin_path);
			}
			s->text = t;
			cap = ncap;
		}
		memcpy(s->text + used, line, l);
		offs[i] = used;
		used += l;
	}
	for (uint64_t i = 0; i < s->count; i++)
		s->si[i].operands = s->text + offs[i];
	free(offs);
	return NXP_OK;
}
