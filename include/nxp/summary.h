/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/summary.h
 * @brief Summary metrics (the public Summary, OpcodeSummary and ThrottleSummary
 *        tables), hardware descriptions, and the pure ratio derivation.
 *        Include <nxp/nxp.h>, not this file.
 *
 * Field names are the public Summary table's.  `*_percent` values are fractions
 * (0.1806 = 18.06 %).  Times are seconds unless the name ends in `_ns`.
 * A field the inputs cannot support is *absent*, never 0.
 */
#ifndef NXP_SUMMARY_H
#define NXP_SUMMARY_H

#include <nxp/common.h>
#include <nxp/ntff.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Per physical NeuronCore hardware constants used by the metrics. */
typedef struct nxp_hardware {
	size_t struct_size;
	char arch[16];                     /**< "trn1", "inf2", "trn2", "trn3" */
	int64_t tensor_engine_num_rows;    /**< 128 */
	int64_t tensor_engine_num_cols;    /**< 128 */
	double tensor_engine_clock_freq;   /**< GHz */
	double vector_engine_clock_freq;   /**< GHz */
	double scalar_engine_clock_freq;   /**< GHz */
	double gpsimd_engine_clock_freq;   /**< GHz */
	double neuroncore_clock_freq;      /**< GHz (base clock, for *_cycles) */
	double hbm_bandwidth;              /**< bytes/s of one HBM stack, as used by MBU */
	double dma_ddr_bandwidth;          /**< bytes/s, 0 if not public */
	double fp8_flops_multiplier;       /**< adjusted-FLOPs multiplier for FP8 (1 or 0.5) */
	/** Physical NeuronCores the logical core spans (the LNC size).  The
	 *  Tensor-engine peak counts each one's engine (libnxp's reading of
	 *  metrics.md: the FLOPs of both cores of an LNC=2 core are summed, the
	 *  HBM stack bandwidth is not scaled).  0 = take it from the profile's
	 *  Metadata (num_physical_cores), 1 outside a profile.  Since 0.1. */
	int32_t num_physical_cores;
} nxp_hardware;

/** Smallest struct_size of nxp_hardware accepted (the 0.1 layout). */
#define NXP_HARDWARE_MIN_SIZE (offsetof(nxp_hardware, fp8_flops_multiplier) + sizeof(double))

/**
 * Fill `out` with libnxp's table for an architecture ("trn1", "inf2", "trn2",
 * "trn3"; case-insensitive).  Every field may then be overridden by the caller.
 * Values that are not public (Trn3 base clock, Trn3 HBM stack bandwidth, the
 * DMA bandwidth of Trn1/Inf2/Trn3) are libnxp's stated assumptions or 0
 * (doc/metrics.md).  `out->struct_size` must be set by the caller.
 * Errors: NXP_E_INVAL (NULL, short struct), NXP_E_NOT_FOUND (unknown arch).
 */
NXP_API int nxp_hardware_for_arch(const char *arch, nxp_hardware *out);
/** Peak FLOP/s of the logical core's Tensor engines: 2 × rows × cols × clock
 *  (GHz × 1e9) × num_physical_cores (0 counts as 1).
 *  0 for NULL or a short struct. */
NXP_API double nxp_hardware_max_ops(const nxp_hardware *hw);

/* ------------------------------------------------------------------------ */
/** @name Summary objects (by-name access survives ABI growth) */
/**@{*/
/** A summary.  Its getters may be called from several threads; nxp_summary_set,
 *  _unset and _derive modify it (one thread, no concurrent reader). */
typedef struct nxp_summary nxp_summary;

/** Value kinds. */
typedef enum nxp_value_kind {
	NXP_VALUE_INT = 1,
	NXP_VALUE_FLOAT = 2,
} nxp_value_kind;

/** One Summary field. */
typedef struct nxp_summary_field {
	size_t struct_size;
	const char *name;  /**< public field name */
	const char *unit;  /**< "seconds", "flops", "bytes", "cycles", "percent", "" */
	const char *group; /**< "overall", "data movement", "tensor", "vector", "scalar", "sync", "gpsimd", "collectives", "throttling" */
	int32_t kind;      /**< nxp_value_kind */
	int32_t present;   /**< 0 = absent (cannot be computed from the inputs) */
	int64_t i;         /**< value when kind == NXP_VALUE_INT */
	double f;          /**< value when kind == NXP_VALUE_FLOAT (also set for ints) */
	int32_t extension; /**< 1 = libnxp addition, not a column of the public Summary table */
	int32_t derived;   /**< 1 = computed by nxp_summary_derive() from other fields */
} nxp_summary_field;

/** An empty summary: every field absent.  Errors: NXP_E_INVAL, NXP_E_NOMEM. */
NXP_API int nxp_summary_new(nxp_summary **out);
/** Free a summary (NULL is fine). */
NXP_API void nxp_summary_close(nxp_summary *s);
/** Number of known fields (fixed per library version; grows over versions;
 *  the same for every summary, also for NULL). */
NXP_API size_t nxp_summary_field_count(const nxp_summary *s);
/** Field by index.  Strings are static.  Errors: NXP_E_INVAL, NXP_E_RANGE. */
NXP_API int nxp_summary_get_field(const nxp_summary *s, size_t index, nxp_summary_field *out);
/** Field by public name.  Errors: NXP_E_INVAL, NXP_E_NOT_FOUND. */
NXP_API int nxp_summary_find(const nxp_summary *s, const char *name, nxp_summary_field *out);
/** Set a field (marks it present).  Ints are rounded from `value`.
 *  Errors: NXP_E_INVAL, NXP_E_NOT_FOUND. */
NXP_API int nxp_summary_set(nxp_summary *s, const char *name, double value);
/** Mark a field absent.  Errors: NXP_E_INVAL, NXP_E_NOT_FOUND. */
NXP_API int nxp_summary_unset(nxp_summary *s, const char *name);
/** The hardware description the summary was last derived with.
 *  Errors: NXP_E_INVAL, NXP_E_NOT_FOUND (never derived with hardware). */
NXP_API int nxp_summary_get_hardware(const nxp_summary *s, nxp_hardware *out);

/**
 * The pure derivation: from the raw counters present in `s` (total_time,
 * model_flops, hardware_flops, transpose_flops, hbm_read_bytes,
 * hbm_write_bytes, inputs_and_weights_size_bytes, dma_transfer_total_bytes,
 * dma_transfer_count, dma_active_time, the engine times, ...) compute every
 * ratio metric the inputs support with the formulas of doc/metrics.md
 * (mfu_*, hfu_estimated_percent, mbu_*, mm_arithmetic_intensity,
 * peak_flops_bandwidth_ratio, neuroncore_cycle_count,
 * dma_transfer_average_bytes, *_percent, dma_active_cycles, ...).  Metrics
 * whose inputs are absent, or whose denominator is 0, stay absent.
 * Every derived field (nxp_summary_field.derived) is recomputed: set when its
 * inputs allow, made absent otherwise, so deriving twice gives the same result.
 * `hw` may be NULL: the metrics that need hardware constants (cycles, MFU, HFU,
 * MBU, peak ratio) are then absent; a constant that is 0 has the same effect.
 * nxp_profile_summarize() uses this same function.
 * Errors: NXP_E_INVAL (s NULL, hw with a short struct_size).
 */
NXP_API int nxp_summary_derive(nxp_summary *s, const nxp_hardware *hw);

/** OpcodeSummary row. */
typedef struct nxp_opcode_summary {
	size_t struct_size;
	const char *engine;
	const char *opcode;
	int64_t instruction_count;
	int64_t instruction_time_ns;
	int64_t active_time_ns;
	double active_time_percent; /**< fraction of total_time */
} nxp_opcode_summary;

/** ThrottleSummary row. */
typedef struct nxp_throttle_summary {
	size_t struct_size;
	int32_t nc_idx;
	const char *throttle_type;
	int64_t throttle_active_time_ns;
	double throttle_active_time_percent;
	double max_achievable_util_with_throttling_percent;
} nxp_throttle_summary;

/** OpcodeSummary rows filled by nxp_profile_summarize(), in engine then opcode
 *  number order (0 for a summary made by nxp_summary_new, or NULL). */
NXP_API size_t nxp_summary_opcode_count(const nxp_summary *s);
/** OpcodeSummary row `index`; strings live as long as the summary.
 *  Errors: NXP_E_INVAL (NULL, short struct), NXP_E_RANGE. */
NXP_API int nxp_summary_get_opcode(const nxp_summary *s, size_t index, nxp_opcode_summary *out);
/** ThrottleSummary rows (one per physical core and throttle type, in that order). */
NXP_API size_t nxp_summary_throttle_count(const nxp_summary *s);
/** ThrottleSummary row `index`; strings live as long as the summary.
 *  Errors: NXP_E_INVAL (NULL, short struct), NXP_E_RANGE. */
NXP_API int nxp_summary_get_throttle(const nxp_summary *s, size_t index, nxp_throttle_summary *out);
/**@}*/

/**
 * One streaming pass over a profile (constant memory) that fills every Summary
 * field a NEFF + NTFF can support, plus OpcodeSummary and ThrottleSummary.
 * `hw` overrides the hardware description (NULL = nxp_hardware_for_arch() of
 * the profile's Metadata arch; the Metadata clocks are informational and not
 * used).  With no `hw` and an unknown arch the hardware-dependent metrics are
 * absent.  The summary outlives the profile; its strings are its own.
 * Exactly what is summed is specified in doc/metrics.md.
 * Errors: NXP_E_INVAL (NULL argument, short hw struct), NXP_E_NOMEM, NXP_E_LIMIT
 * (more distinct DMA queues or throttle groups than the bounded tables hold),
 * and any cursor error (NXP_E_IO, NXP_E_CRC, NXP_E_TRUNCATED, NXP_E_FORMAT).
 */
NXP_API int nxp_profile_summarize(nxp_profile *p, const nxp_hardware *hw, nxp_summary **out, nxp_status *st);

/** Options of nxp_profile_summarize_opts().  Since 0.2. */
typedef struct nxp_summary_options {
	size_t struct_size;
	const nxp_hardware *hw; /**< as nxp_profile_summarize()'s `hw` (NULL = from the profile's arch) */
	/** Threads: 0 = one per online CPU, 1 = the single-threaded pass, N >= 2 =
	 *  the Instruction table is read in up to N groups of engines and the DMA
	 *  table in up to N groups of queues (balanced by record count), each
	 *  group on its own thread, plus one thread merging the DMA busy spans and
	 *  one reading the remaining tables: up to 2N + 2 threads, of which the
	 *  2N group readers carry most of the work (they may use more than N
	 *  cores when more are free).  Every figure is identical, bit for bit, to
	 *  one thread's. */
	int32_t threads;
	/** Region (a window, an execution, a physical core).  Records are selected
	 *  by their start as the cursors select them (start_ts <= start < end_ts;
	 *  a throttle by its timestamp); busy intervals (the *_active_time unions,
	 *  DMA transfers, total_exec_time, throttle windows) are clipped to the
	 *  window, so no active time exceeds it; per-record sums (instruction_time,
	 *  dma_packet_time, FLOPs, bytes) are those of the selected records.
	 *  total_time is the window clipped to the trace (the TPB range, else the
	 *  trace's first..last timestamps and the selected records' span).
	 *  INT64_MIN / INT64_MAX = no bound; start_ts >= end_ts is NXP_E_INVAL. */
	int64_t start_ts;
	int64_t end_ts;
	/** -1 = all; N = the window is execution N's execution_start_ts ..
	 *  execution_end_ts from the ExecutionInfo table (intersected with
	 *  start_ts/end_ts); an index the table does not have is NXP_E_RANGE. */
	int32_t execution_index;
	/** -1 = all; else only that physical core's records (0 .. cores-1, else NXP_E_RANGE). */
	int64_t pcore_idx;
} nxp_summary_options;

/** Defaults: hw NULL, threads 0 (all cores), the whole trace (no window, every
 *  execution, every physical core). */
static inline void nxp_summary_options_init(nxp_summary_options *o)
{
	o->struct_size = sizeof(*o);
	o->hw = 0;
	o->threads = 0;
	o->start_ts = INT64_MIN;
	o->end_ts = INT64_MAX;
	o->execution_index = -1;
	o->pcore_idx = -1;
}

/** nxp_profile_summarize() with options (`o` NULL = defaults, so all cores);
 *  nxp_profile_summarize() itself is the one-thread pass.  Results are the same
 *  for every thread count.  Errors: those of nxp_profile_summarize(),
 *  NXP_E_INVAL for a short struct_size, a negative thread count, an empty
 *  window or a pcore_idx/execution_index below -1, and NXP_E_RANGE for a
 *  pcore_idx or execution_index the profile does not have. */
NXP_API int nxp_profile_summarize_opts(nxp_profile *p, const nxp_summary_options *o, nxp_summary **out,
				       nxp_status *st);

/** @name First published sizes (ABI)
 * The smallest `struct_size` the library accepts for each size-versioned struct
 * of this header: the end of its last field as published in 0.1, the first
 * release.  A program built against the 0.1 header passes at least this; a
 * smaller struct_size is NXP_E_INVAL.  The values are computed by the compiler
 * for the platform's ABI; the numbers noted are those of LP64 (x86_64, aarch64),
 * checked against the frozen 0.1 headers in abi/include-0.1/ by tests/test_abi.c.
 * See doc/api.md, "ABI rules". (since 0.2) */
/**@{*/
/** 0.1 already accepted an nxp_hardware as short as NXP_HARDWARE_MIN_SIZE and still does. */
#define NXP_HARDWARE_SIZE_V0_1 (offsetof(nxp_hardware, num_physical_cores) + sizeof(((nxp_hardware *)0)->num_physical_cores)) /**< 108 on LP64 */
#define NXP_SUMMARY_FIELD_SIZE_V0_1 (offsetof(nxp_summary_field, derived) + sizeof(((nxp_summary_field *)0)->derived)) /**< 64 on LP64 */
#define NXP_OPCODE_SUMMARY_SIZE_V0_1 (offsetof(nxp_opcode_summary, active_time_percent) + sizeof(((nxp_opcode_summary *)0)->active_time_percent)) /**< 56 on LP64 */
#define NXP_THROTTLE_SUMMARY_SIZE_V0_1 (offsetof(nxp_throttle_summary, max_achievable_util_with_throttling_percent) + sizeof(((nxp_throttle_summary *)0)->max_achievable_util_with_throttling_percent)) /**< 48 on LP64 */
/** The first published nxp_summary_options (0.2): every field above. */
#define NXP_SUMMARY_OPTIONS_SIZE_V0_2 (offsetof(nxp_summary_options, pcore_idx) + sizeof(((nxp_summary_options *)0)->pcore_idx)) /**< 56 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_SUMMARY_H */
