/* SPDX-License-Identifier: MIT */
/* Internal interface of the NEFF module, used by the profile (NTFF) and summary
 * modules for their joins.  Everything here is owned by the nxp_neff handle and
 * lives as long as it. */
#ifndef NXP_NEFF_INTERNAL_H
#define NXP_NEFF_INTERNAL_H

#include <nxp/nxp.h>

#include <stdint.h>

/* Static facts of one instruction, precomputed at open so that the instruction
 * cursor's join is one pointer lookup (no formatting per record). */
typedef struct nxp_static_instr {
	const char *opcode;                  /* table name or "Operation(N)" */
	const char *operands;                /* profiler-style operand text */
	const char *tensor_instruction_type; /* "MATMUL", "TRANSPOSE", "LDWEIGHTS" or "" */
	const char *scalar_activation_fn;    /* "" unless ACTIVATE */
	const char *performance_mode;        /* "" unless 2x / 4x */
	uint32_t opcode_num;
	uint8_t is_setup;     /* NOP, EVENT_SEMAPHORE, WRITE, ...: excluded from total_exec_time */
	uint8_t is_matmul;    /* counts in matmul_instruction_count */
	uint8_t is_transpose; /* its FLOPs are transpose FLOPs */
	uint8_t is_activate;  /* ACTIVATE / ACTIVATE_QUANTIZE */
	uint8_t mm_dtype;     /* dtype code of a matmul's inputs (for adjusted FLOPs), 0 otherwise */
	int64_t tensor_elements;
	int64_t raw_flops;       /* adjusted FLOPs depend on the arch: see nxp_adjusted_flops_multiplier */
	int64_t hbm_read_bytes, hbm_write_bytes;
	int64_t sbuf_read_bytes, sbuf_write_bytes;
	int64_t psum_read_bytes, psum_write_bytes, psum_read_sbuf_write_bytes;
	int64_t spill_save_bytes, spill_reload_bytes;
} nxp_static_instr;

/* BF16-equivalent multiplier for FLOPs on inputs of `dtype` on `arch` ("trn1",
 * "inf2", "trn2", "trn3"; NULL = trn1 rules): BF16/FP16/TF32 1, FP32 4, FP8 1 on
 * trn1/inf2 and 0.5 on trn2/trn3, UINT8 0.5, MXFP8/MXFP4 0.25. */
double nxp_adjusted_flops_multiplier(int dtype, const char *arch);
/* The one arch-dependent multiplier, FP8's (the arch rule lives only here;
 * hardware.c's tables and the summary pass use it). */
double nxp_fp8_flops_multiplier(const char *arch);
/* The multiplier of `dtype` given FP8's (e.g. a caller's nxp_hardware). */
double nxp_dtype_flops_multiplier(int dtype, double fp8_multiplier);

/* Static facts of instruction `pc` of `engine` in subgraph `pcore`, or NULL if
 * there is no such instruction. */
const nxp_static_instr *nxp_neff_static_instr(const nxp_neff *neff, size_t pcore, int engine, uint64_t pc);
/* All static instructions of `engine` in subgraph `pcore` (*count of them;
 * 0 and NULL if there is no such stream).  Valid as long as the handle. */
const nxp_static_instr *nxp_neff_static_stream(const nxp_neff *neff, size_t pcore, int engine, uint64_t *count);

/* A DMA queue instance (DmaQueuesInfo row) in the handle's own storage. */
typedef struct nxp_neff_queue {
	const char *name;
	const char *type;      /* DmaQueueType */
	const char *neff_type; /* as written in def.json */
	const char *owner;
	int64_t pcore_idx, idx, engine_idx, axi_port, dram_channel;
} nxp_neff_queue;

/* The queue instance named `name` with instance index `idx` on `pcore`, or NULL. */
const nxp_neff_queue *nxp_neff_find_queue(const nxp_neff *neff, int64_t pcore, const char *name, int64_t idx);

/* Totals from the tensors, for the Summary (bytes; -1 where the NEFF has no such
 * tensors' sizes). */
typedef struct nxp_neff_totals {
	int64_t weight_size_bytes;               /* type "file" tensors */
	int64_t input_size_bytes;                /* type "input" */
	int64_t output_size_bytes;               /* type "output" */
	int64_t model_flops;                     /* from hlo_stats.json when present, else -1 */
	int64_t dma_queue_count;
} nxp_neff_totals;

void nxp_neff_get_totals(const nxp_neff *neff, nxp_neff_totals *out);

#endif
