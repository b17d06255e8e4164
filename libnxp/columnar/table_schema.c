/* SPDX-License-Identifier: MIT */
/* The column registry of the device tables (the cursor tables): name, Arrow
 * type, required, unit, description, and where the value sits in the cursor's
 * record struct.  Other tables declare their columns in their own files; the
 * list of every table is here, in one place (nxp_table_name() order).
 * Public-schema columns libnxp has no source for are not listed (doc/tables.md
 * names them). */
#include "columnar_priv.h"

#include <stddef.h>
#include <string.h>

#define NS "nanoseconds"
#define B "bytes"

/* C(name, type, required, ext, src, nullif, neff, struct, field, unit, desc) */
#define C(n, ty, req, ext, src, nul, neff, S, f, unit, d) \
	{ n, ty, req, ext, src, nul, neff, (uint16_t)offsetof(S, f), unit, d }

#define I nxp_instruction
static const nxc_col instruction_cols[] = {
	C("start_ts", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, I, start_ts, NS, "instruction start"),
	C("end_ts", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, I, end_ts, NS, "instruction end"),
	C("duration_ns", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, I, duration_ns, NS, "end_ts - start_ts"),
	C("engine", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, I, engine, "", "engine name: tensor, vector, scalar, gpsimd, sync"),
	C("pcore_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, I, pcore_idx, "", "physical core inside the logical core"),
	C("opcode", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 1, I, opcode, "", "opcode name from the NEFF (\"unknown\" when the pc is not in the NEFF)"),
	C("operands", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 1, I, operands, "", "operand text from the NEFF (\"\" when the pc is not in the NEFF)"),
	C("id", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, I, id, "", "row number in the instruction table (time order)"),
	C("pc", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, I, pc, "", "index of the instruction in its engine's stream"),
	C("evt_wait_time_ns", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, I, evt_wait_time_ns, NS, "time waiting on semaphores before issue"),
	C("hbm_read_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, hbm_read_bytes, B, "HBM bytes read (from the NEFF's access patterns)"),
	C("hbm_write_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, hbm_write_bytes, B, "HBM bytes written"),
	C("sbuf_read_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, sbuf_read_bytes, B, "SBUF bytes read"),
	C("sbuf_write_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, sbuf_write_bytes, B, "SBUF bytes written"),
	C("spill_save_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, spill_save_bytes, B, "bytes spilled to HBM"),
	C("spill_reload_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, spill_reload_bytes, B, "spilled bytes reloaded"),
	C("psum_read_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, psum_read_bytes, B, "PSUM bytes read"),
	C("psum_write_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, psum_write_bytes, B, "PSUM bytes written"),
	C("psum_read_sbuf_write_bytes", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, psum_read_sbuf_write_bytes, B, "bytes read from PSUM and written to SBUF"),
	C("performance_mode", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY_OR_PC_UNKNOWN, 1, I, performance_mode, "", "2x or 4x; null otherwise"),
	C("tensor_instruction_type", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY_OR_PC_UNKNOWN, 1, I, tensor_instruction_type, "", "MATMUL, TRANSPOSE, LDWEIGHTS; null for other instructions"),
	C("tensor_elements", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, tensor_elements, "", "Tensor-engine elements (0 for a transpose)"),
	C("raw_flops", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, raw_flops, "flops", "FLOPs (0 for a transpose)"),
	C("adjusted_flops", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, adjusted_flops, "flops", "raw_flops x the BF16-equivalent multiplier of the input dtype"),
	C("tensor_elements_transpose", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, tensor_elements_transpose, "", "elements of a transpose"),
	C("flops_transpose", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, flops_transpose, "flops", "FLOPs of a transpose"),
	C("adjusted_flops_transpose", NXC_I64, 0, 0, NXS_I64, NXN_PC_UNKNOWN, 1, I, adjusted_flops_transpose, "flops", "adjusted FLOPs of a transpose"),
	C("scalar_activation_fn", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY_OR_PC_UNKNOWN, 1, I, scalar_activation_fn, "", "activation function of a scalar-engine instruction"),
	C("engine_id", NXC_I32, 1, 1, NXS_I32, NXN_NEVER, 0, I, engine_id, "", "libnxp: nxp_engine number (0 tensor .. 4 sync)"),
	C("opcode_num", NXC_I64, 1, 1, NXS_U32, NXN_NEVER, 1, I, opcode_num, "", "libnxp: opcode number from the NEFF (0 when the pc is not in the NEFF)"),
	C("execution_index", NXC_I32, 0, 1, NXS_I32, NXN_NEG, 0, I, execution_index, "", "libnxp: execution the instruction belongs to; null when the trace has none"),
	C("pc_in_neff", NXC_BOOL, 1, 1, NXS_NONE, NXN_NEVER, 0, I, flags, "", "libnxp: false when the pc is not in the NEFF (static columns then null or placeholder)"),
};
#undef I

#define D nxp_dma_packet
static const nxc_col dma_cols[] = {
	C("start_ts", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, start_ts, NS, "packet start"),
	C("end_ts", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, end_ts, NS, "packet end"),
	C("duration_ns", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, duration_ns, NS, "end_ts - start_ts"),
	C("pcore_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, D, pcore_idx, "", "physical core inside the logical core"),
	C("id", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, id, "", "row number in the DMA table (time order)"),
	C("packet_idx", NXC_I32, 1, 0, NXS_I32, NXN_NEVER, 0, D, packet_idx, "", "packet index inside its transfer"),
	C("packet_aggregation_id", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, packet_aggregation_id, "", "the transfer (descriptor set) this packet belongs to"),
	C("engine_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, D, engine_idx, "", "DMA engine"),
	C("read_bytes", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, read_bytes, B, "bytes read"),
	C("write_bytes", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, write_bytes, B, "bytes written"),
	C("transfer_bytes", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, transfer_bytes, B, "bytes transferred"),
	C("throughput", NXC_F64, 1, 0, NXS_F64, NXN_NEVER, 0, D, throughput, "bytes_per_second", "transfer_bytes / duration"),
	C("queue_type", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, D, queue_type, "", "DmaQueueType"),
	C("variable", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY, 0, D, variable, "", "tensor name or \"unknown\""),
	C("queue_name", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY, 0, D, queue_name, "", "DMA queue name"),
	C("queue_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, D, queue_idx, "", "DMA queue instance index"),
	C("crc", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, D, crc, "", "packet CRC"),
	C("execution_index", NXC_I32, 0, 1, NXS_I32, NXN_NEG, 0, D, execution_index, "", "libnxp: execution the packet belongs to; null when none"),
	C("source", NXC_DICT, 0, 1, NXS_STR, NXN_EMPTY, 0, D, source, "", "libnxp: memory read (hbm, sbuf, psum)"),
	C("dest", NXC_DICT, 0, 1, NXS_STR, NXN_EMPTY, 0, D, dest, "", "libnxp: memory written"),
};
#undef D

#define S nxp_semaphore_update
static const nxc_col semaphore_cols[] = {
	C("timestamp", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, S, timestamp, NS, "time of the update"),
	C("id", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, S, id, "", "semaphore name, S[n]"),
	C("value", NXC_I32, 1, 0, NXS_I32, NXN_NEVER, 0, S, value, "", "value after the update"),
	C("update_source", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY, 0, S, update_source, "", "engine that updated it"),
	C("double_set_or_clear", NXC_BOOL, 0, 0, NXS_I32, NXN_NEVER, 0, S, double_set_or_clear, "", "set while set, or clear while clear"),
	C("update_mode", NXC_I32, 0, 0, NXS_I32, NXN_NEVER, 0, S, update_mode, "", "update mode"),
	C("update_operation_type", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY, 0, S, update_operation_type, "", "set, increment, decrement, clear"),
	C("update_trigger_timing", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY, 0, S, update_trigger_timing, "", "start or complete"),
	C("pcore_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, S, pcore_idx, "", "physical core inside the logical core"),
	C("semaphore_idx", NXC_I32, 1, 1, NXS_I32, NXN_NEVER, 0, S, semaphore_idx, "", "libnxp: semaphore number (n of S[n])"),
};
#undef S

#define T nxp_throttle
static const nxc_col throttle_cols[] = {
	C("duration", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, T, duration, NS, "length of the throttling window"),
	C("k", NXC_I32, 1, 0, NXS_I32, NXN_NEVER, 0, T, k, "", "utilisation limited to k/n"),
	C("n", NXC_I32, 1, 0, NXS_I32, NXN_NEVER, 0, T, n, "", "utilisation limited to k/n"),
	C("timestamp", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, T, timestamp, NS, "window start"),
	C("type", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, T, type, "", "throttle type (power, thermal, ...)"),
	C("pcore_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, T, pcore_idx, "", "physical core inside the logical core"),
};
#undef T

#define E nxp_error_record
static const nxc_col error_cols[] = {
	C("description", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, E, description, "", "notification text"),
	C("error_type_id", NXC_I32, 1, 0, NXS_I32, NXN_NEVER, 0, E, error_type_id, "", "error type number"),
	C("metadata", NXC_UTF8, 0, 0, NXS_STR, NXN_EMPTY, 0, E, metadata, "", "metadata word, decimal"),
	C("metadata_hex", NXC_UTF8, 0, 0, NXS_STR, NXN_EMPTY, 0, E, metadata_hex, "", "metadata word, hexadecimal"),
	C("pcore_idx", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, E, pcore_idx, "", "physical core inside the logical core"),
	C("timestamp", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, E, timestamp, NS, "time of the notification"),
	C("type", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, E, type, "", "ErrorType: Custom Notification, Errors, Warnings"),
};
#undef E

#define X nxp_execution
static const nxc_col execution_cols[] = {
	C("execution_index", NXC_I32, 1, 0, NXS_I32, NXN_NEVER, 0, X, execution_index, "", "execution number"),
	C("neff_name", NXC_DICT, 0, 0, NXS_STR, NXN_EMPTY, 0, X, neff_name, "", "NEFF executed"),
	C("execution_start_ts", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, X, execution_start_ts, NS, "execution start"),
	C("execution_end_ts", NXC_I64, 0, 0, NXS_I64, NXN_NEVER, 0, X, execution_end_ts, NS, "execution end"),
	C("num_subgraphs", NXC_I32, 0, 0, NXS_I32, NXN_NEVER, 0, X, num_subgraphs, "", "subgraphs executed"),
	C("row_count", NXC_I64, 0, 0, NXS_I64, NXN_NEG, 0, X, row_count, "", "notifications inside the execution; null if unknown"),
	C("pcore_idx", NXC_I64, 0, 1, NXS_I64, NXN_NEVER, 0, X, pcore_idx, "", "libnxp: physical core of the execution queue"),
};
#undef X

#define A nxp_active_time
static const nxc_col active_cols[] = {
	C("start_ts", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, A, start_ts, NS, "busy interval start"),
	C("end_ts", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, A, end_ts, NS, "busy interval end"),
	C("engine", NXC_DICT, 1, 0, NXS_STR, NXN_NEVER, 0, A, engine, "", "engine name, or dma"),
	C("pcore_idx", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, A, pcore_idx, "", "physical core inside the logical core"),
	C("duration_ns", NXC_I64, 1, 0, NXS_I64, NXN_NEVER, 0, A, duration_ns, NS, "end_ts - start_ts"),
	C("engine_id", NXC_I32, 0, 1, NXS_I32, NXN_NEG, 0, A, engine_id, "", "libnxp: nxp_engine number; null for DMA"),
};
#undef A

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define DEV(var, nm, tab, rec, cols) \
	static const nxc_table var = { nm, NXC_KIND_DEVICE, tab, sizeof(rec), cols, NCOLS(cols), NULL }

DEV(t_instruction, "Instruction", NXP_TABLE_INSTRUCTION, nxp_instruction, instruction_cols);
DEV(t_dma, "DmaPacket", NXP_TABLE_DMA_PACKET, nxp_dma_packet, dma_cols);
DEV(t_semaphore, "SemaphoreUpdate", NXP_TABLE_SEMAPHORE_UPDATE, nxp_semaphore_update, semaphore_cols);
DEV(t_throttle, "Throttle", NXP_TABLE_THROTTLE, nxp_throttle, throttle_cols);
DEV(t_error, "Error", NXP_TABLE_ERROR, nxp_error_record, error_cols);
DEV(t_execution, "ExecutionInfo", NXP_TABLE_EXECUTION, nxp_execution, execution_cols);
DEV(t_active, "ActiveTime", NXP_TABLE_ACTIVE_TIME, nxp_active_time, active_cols);

const nxc_table *const nxc_tables[] = {
	&t_instruction,
	&t_dma,
	&t_semaphore,
	&t_throttle,
	&t_error,
	&t_execution,
	&t_active,
	&nxc_table_opcode_summary,
	&nxc_table_throttle_summary,
	&nxc_table_summary,
	&nxc_table_metadata,
	&nxc_table_neff_header,
	&nxc_table_tensor_info,
	&nxc_table_dma_queues_info,
	&nxc_table_warning,
	&nxc_table_flow,
	&nxc_table_schema_fields,
	&nxc_table_system_events,
	&nxc_table_system_metadata,
	&nxc_table_cpu_usage,
	&nxc_table_host_mem_usage,
	NULL,
};

const nxc_table *nxc_find_table(const char *name)
{
	if (!name)
		return NULL;
	nxc_registry_init();
	for (int i = 0; nxc_tables[i]; i++)
		if (strcmp(nxc_tables[i]->name, name) == 0)
			return nxc_tables[i];
	return NULL;
}

int nxc_col_index(const nxc_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return i;
	return -1;
}

const char *nxc_type_name(int type)
{
	switch (type) {
	case NXC_I64:
		return "int64";
	case NXC_I32:
		return "int32";
	case NXC_F64:
		return "float64";
	case NXC_BOOL:
		return "bool";
	case NXC_UTF8:
		return "utf8";
	default:
		return "dictionary<int32, utf8>";
	}
}
