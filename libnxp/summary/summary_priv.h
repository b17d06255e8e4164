/* SPDX-License-Identifier: MIT */
/* Private interface of the summary module: the field registry (one list, from
 * which the field enum and the registry table are both generated), the
 * summary object's storage, and the internal setters used by the streaming
 * pass (summarize.c). */
#ifndef NXP_SUMMARY_PRIV_H
#define NXP_SUMMARY_PRIV_H

#include <nxp/nxp.h>

#include <stdint.h>

/* Field flags. */
#define NXP_SF_DERIVED 0x1u /* recomputed by nxp_summary_derive() */
#define NXP_SF_EXT 0x2u     /* libnxp addition, not a public Summary column */

/* X(name, kind, unit, group, flags): every field, in the public schema's order
 * (schema.md, Summary), then libnxp's additions.  I = int64, F = double. */
#define NXP_SUMMARY_FIELDS(X) \
	X(total_time, F, "seconds", "overall", 0) \
	X(neuroncore_cycle_count, I, "cycles", "overall", NXP_SF_DERIVED) \
	X(model_flops, I, "flops", "tensor", 0) \
	X(hardware_flops, I, "flops", "tensor", 0) \
	X(transpose_flops, I, "flops", "tensor", 0) \
	X(adjusted_hardware_flops, I, "flops", "tensor", 0) \
	X(adjusted_transpose_flops, I, "flops", "tensor", 0) \
	X(mm_arithmetic_intensity, F, "", "tensor", NXP_SF_DERIVED) \
	X(peak_flops_bandwidth_ratio, F, "", "tensor", NXP_SF_DERIVED) \
	X(trace_count, I, "", "overall", 0) \
	X(event_count, I, "", "overall", 0) \
	X(total_row_count, I, "", "overall", 0) \
	X(dma_active_cycles, I, "cycles", "data movement", NXP_SF_DERIVED) \
	X(dma_active_time, F, "seconds", "data movement", 0) \
	X(dma_active_time_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(static_dma_active_time, F, "seconds", "data movement", 0) \
	X(dynamic_dma_active_time_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(static_dma_active_time_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(dma_transfer_average_bytes, F, "bytes", "data movement", NXP_SF_DERIVED) \
	X(dma_packet_time, F, "seconds", "data movement", 0) \
	X(dma_transfer_time, F, "seconds", "data movement", 0) \
	X(dma_transfer_count, I, "", "data movement", 0) \
	X(dma_transfer_total_bytes, I, "bytes", "data movement", 0) \
	X(dma_queue_count, I, "", "data movement", 0) \
	X(inputs_and_weights_size_bytes, I, "bytes", "data movement", 0) \
	X(inputs_outputs_weights_size_bytes, I, "bytes", "data movement", 0) \
	X(weight_size_bytes, I, "bytes", "data movement", 0) \
	X(static_dma_packet_count, I, "", "data movement", 0) \
	X(static_dma_size, I, "bytes", "data movement", 0) \
	X(dynamic_dma_packet_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(static_dma_packet_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(dynamic_dma_size_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(static_dma_size_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(mbu_estimated_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(mbu_min_read_util_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(hbm_write_bytes, I, "bytes", "data movement", 0) \
	X(hbm_read_bytes, I, "bytes", "data movement", 0) \
	X(sbuf_write_bytes, I, "bytes", "data movement", 0) \
	X(sbuf_read_bytes, I, "bytes", "data movement", 0) \
	X(spill_save_bytes, I, "bytes", "data movement", 0) \
	X(spill_reload_bytes, I, "bytes", "data movement", 0) \
	X(psum_write_bytes, I, "bytes", "data movement", 0) \
	X(psum_read_bytes, I, "bytes", "data movement", 0) \
	X(psum_read_sbuf_write_count, I, "", "data movement", 0) \
	X(psum_read_sbuf_write_bytes, I, "bytes", "data movement", 0) \
	X(input_queue_bytes, I, "bytes", "data movement", 0) \
	X(output_queue_bytes, I, "bytes", "data movement", 0) \
	X(weight_queue_bytes, I, "bytes", "data movement", 0) \
	X(software_dynamic_dma_active_time, F, "seconds", "data movement", 0) \
	X(software_dynamic_dma_active_time_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(software_dynamic_dma_packet_count, I, "", "data movement", 0) \
	X(software_dynamic_dma_size, I, "bytes", "data movement", 0) \
	X(software_dynamic_dma_packet_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(software_dynamic_dma_size_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(hardware_dynamic_dma_active_time, F, "seconds", "data movement", 0) \
	X(hardware_dynamic_dma_active_time_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(hardware_dynamic_dma_packet_count, I, "", "data movement", 0) \
	X(hardware_dynamic_dma_size, I, "bytes", "data movement", 0) \
	X(hardware_dynamic_dma_packet_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(hardware_dynamic_dma_size_percent, F, "percent", "data movement", NXP_SF_DERIVED) \
	X(tensor_engine_instruction_time, F, "seconds", "tensor", 0) \
	X(tensor_engine_active_time, F, "seconds", "tensor", 0) \
	X(tensor_engine_active_time_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(tensor_engine_instruction_count, I, "", "tensor", 0) \
	X(matmul_instruction_count, I, "", "tensor", 0) \
	X(mfu_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(mfu_max_achievable_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(mfu_hlo_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(mfu_hlo_max_achievable_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(mfu_inst_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(mfu_inst_max_achievable_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(hfu_estimated_percent, F, "percent", "tensor", NXP_SF_DERIVED) \
	X(vector_engine_instruction_time, F, "seconds", "vector", 0) \
	X(vector_engine_active_time, F, "seconds", "vector", 0) \
	X(vector_engine_active_time_percent, F, "percent", "vector", NXP_SF_DERIVED) \
	X(vector_engine_instruction_count, I, "", "vector", 0) \
	X(scalar_engine_instruction_time, F, "seconds", "scalar", 0) \
	X(scalar_engine_active_time, F, "seconds", "scalar", 0) \
	X(scalar_engine_active_time_percent, F, "percent", "scalar", NXP_SF_DERIVED) \
	X(scalar_engine_instruction_count, I, "", "scalar", 0) \
	X(activate_instruction_time, F, "seconds", "scalar", 0) \
	X(activate_instruction_count, I, "", "scalar", 0) \
	X(sync_engine_instruction_time, F, "seconds", "sync", 0) \
	X(sync_engine_active_time, F, "seconds", "sync", 0) \
	X(sync_engine_active_time_percent, F, "percent", "sync", NXP_SF_DERIVED) \
	X(sync_engine_instruction_count, I, "", "sync", 0) \
	X(gpsimd_engine_instruction_time, F, "seconds", "gpsimd", 0) \
	X(gpsimd_engine_active_time, F, "seconds", "gpsimd", 0) \
	X(gpsimd_engine_active_time_percent, F, "percent", "gpsimd", NXP_SF_DERIVED) \
	X(gpsimd_engine_instruction_count, I, "", "gpsimd", 0) \
	X(cc_op_time, F, "seconds", "collectives", 0) \
	X(cc_op_active_time, F, "seconds", "collectives", 0) \
	X(cc_op_active_time_percent, F, "percent", "collectives", NXP_SF_DERIVED) \
	X(cc_op_count, I, "", "collectives", 0) \
	X(cc_cores_instruction_time, F, "seconds", "collectives", 0) \
	X(cc_cores_instruction_active_time, F, "seconds", "collectives", 0) \
	X(cc_cores_instruction_active_time_percent, F, "percent", "collectives", NXP_SF_DERIVED) \
	X(cc_cores_instruction_count, I, "", "collectives", 0) \
	X(total_exec_time, F, "seconds", "overall", 0) \
	X(total_active_time, F, "seconds", "overall", 0) \
	X(total_active_time_percent, F, "percent", "overall", NXP_SF_DERIVED) \
	/* libnxp additions */ \
	X(dynamic_dma_active_time, F, "seconds", "data movement", NXP_SF_EXT) \
	X(dma_packet_count, I, "", "data movement", NXP_SF_EXT)

#define NXP_SF_ENUM(name, kind, unit, group, flags) NXP_SF_##name,
enum nxp_summary_field_id { NXP_SUMMARY_FIELDS(NXP_SF_ENUM) NXP_SF_COUNT };
#undef NXP_SF_ENUM

/* The opcode table is keyed by (engine, opcode byte). */
#define NXP_SUMMARY_OPCODES 256

typedef struct nxp_summary_opcode_row {
	int32_t engine;
	const char *engine_name; /* static (nxp_engine_name) */
	uint32_t opcode_num; /* NXP_SUMMARY_OPCODES: instructions whose pc is not in the NEFF */
	char *opcode;        /* owned */
	int64_t instruction_count, instruction_time_ns, active_time_ns;
	double active_time_percent;
} nxp_summary_opcode_row;

typedef struct nxp_summary_throttle_row {
	int32_t nc_idx;
	char *throttle_type; /* owned */
	int64_t throttle_active_time_ns;
	double throttle_active_time_percent;
	double max_achievable_util_with_throttling_percent;
} nxp_summary_throttle_row;

struct nxp_summary {
	uint8_t present[NXP_SF_COUNT];
	int64_t i[NXP_SF_COUNT];
	double f[NXP_SF_COUNT];
	int has_hw;
	nxp_hardware hw;
	nxp_summary_opcode_row *opcodes;
	size_t n_opcodes;
	nxp_summary_throttle_row *throttles;
	size_t n_throttles;
};

/* Internal setters/getters by id (no name lookup, exact int64). */
void nxp_summary_set_int(nxp_summary *s, int id, int64_t v);
void nxp_summary_set_float(nxp_summary *s, int id, double v);
void nxp_summary_clear(nxp_summary *s, int id);
int nxp_summary_has(const nxp_summary *s, int id);
/* Value as a double (ints converted); 0 when absent. */
double nxp_summary_value(const nxp_summary *s, int id);

/* Import a caller's hardware description (struct_size >= NXP_HARDWARE_MIN_SIZE)
 * into a full-size struct; fields past the caller's size come from the table of
 * the caller's arch (zeros if unknown).  NXP_E_INVAL on a short struct. */
int nxp_hardware_import(nxp_hardware *dst, const nxp_hardware *src);

/* Per-part CPU time of the last parallel summary pass (internal, for
 * bench/bench_summary): each part's thread CPU time (CLOCK_THREAD_CPUTIME_ID,
 * seconds) and the calling thread's (merging the parts' busy runs).  n = 0
 * after a one-thread pass. */
#define NXP_SUMMARY_PARTS_MAX 16
typedef struct nxp__summary_parts {
	int n;
	char name[NXP_SUMMARY_PARTS_MAX][24];
	double cpu[NXP_SUMMARY_PARTS_MAX];
	double merge_cpu;
	int fallback; /* the parallel pass ran, then the one-thread pass had to redo it */
} nxp__summary_parts;

/* nxp_profile_summarize_opts() that also reports the parts' CPU (parts may be NULL). */
int nxp__profile_summarize_parts(nxp_profile *p, const nxp_summary_options *o, nxp_summary **out, nxp_status *st,
				 nxp__summary_parts *parts);

/* The summary's interval unions (nxp_union) belong to the busy-interval
 * engine, shared with the ActiveTime table. */
#include "intervals.h"

#endif
