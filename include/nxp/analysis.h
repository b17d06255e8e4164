/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/analysis.h
 * @brief Analysis of a device profile: dependencies between records (the
 *        public Flow table), the critical path of an execution, rule-based
 *        insights, and the comparison of the device profiles of a capture.
 *        Include <nxp/nxp.h>, not this file.  (since 0.2)
 *
 * What is exact and what is inferred is specified in doc/analysis.md; the
 * insight rules and their thresholds in doc/insights.md.
 */
#ifndef NXP_ANALYSIS_H
#define NXP_ANALYSIS_H

#include <nxp/common.h>
#include <nxp/neff.h>
#include <nxp/ntff.h>
#include <nxp/summary.h>
#include <nxp/system.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** @name Dependencies (the Flow table)
 * Edges between records of the Instruction, DmaPacket and SemaphoreUpdate
 * tables, derived from the NEFF's static semaphore wait/update fields and the
 * trace's semaphore updates.  Record ids are the `id` of the Instruction and
 * DmaPacket rows, and for SemaphoreUpdate the row number (from 0) in that
 * table's cursor order (nxp_cursor_open with default options).
 */
/**@{*/

/** Kinds of edge (numbers are ABI). */
typedef enum nxp_flow_kind {
	/** SemaphoreUpdate -> Instruction: the update that satisfied the
	 *  instruction's static semaphore wait ($S[i]>=v or ==v), i.e. what its
	 *  evt_wait_time_ns was spent waiting for.  dependency_type "semaphore_wait". */
	NXP_FLOW_SEMAPHORE_WAIT = 1,
	/** Instruction -> DmaPacket: the first packet of the DMA transfer a
	 *  DMA-triggering instruction started.  dependency_type "dma_trigger". */
	NXP_FLOW_DMA_TRIGGER = 2,
	/** DmaPacket -> SemaphoreUpdate: the last packet of a transfer and the
	 *  semaphore increment signalling its completion.  "dma_completion". */
	NXP_FLOW_DMA_COMPLETION = 3,
	/** Instruction -> SemaphoreUpdate: an instruction's static semaphore
	 *  update (update_mode != 0) seen in the trace on its completion.
	 *  "semaphore_signal". */
	NXP_FLOW_SEMAPHORE_SIGNAL = 4,
} nxp_flow_kind;

/** A Flow row (public names first, libnxp's extras after gap_time).
 *  Strings are static. */
typedef struct nxp_flow {
	size_t struct_size;
	int64_t in_id;               /**< id of the record the dependency comes from */
	int64_t out_id;              /**< id of the record that depends on it */
	const char *in_table;        /**< "SemaphoreUpdate", "Instruction" or "DmaPacket" */
	const char *out_table;
	const char *dependency_type; /**< "semaphore_wait", "dma_trigger", "dma_completion", "semaphore_signal" */
	int64_t gap_time;            /**< ns from in_ts to out_ts (may be negative only for inferred edges) */
	int32_t kind;                /**< nxp_flow_kind */
	int32_t in_table_id;         /**< nxp_table of in_table */
	int32_t out_table_id;        /**< nxp_table of out_table */
	int32_t exact;               /**< 1: implied by the NEFF and the trace; 0: inferred (doc/analysis.md) */
	int64_t in_ts;               /**< when the in record released the dependency (its end / timestamp) */
	int64_t out_ts;              /**< when the out record could proceed (an instruction's start_ts +
					  evt_wait_time_ns, a packet's start_ts, an update's timestamp) */
	int64_t pcore_idx;
} nxp_flow;

/** Options of a flow cursor. */
typedef struct nxp_flow_options {
	size_t struct_size;
	int64_t start_ts;  /**< only edges with out_ts >= start_ts (INT64_MIN = no bound) */
	int64_t end_ts;    /**< only edges with out_ts < end_ts (INT64_MAX = no bound) */
	int64_t pcore_idx; /**< -1 = all */
	/** How far back (ns) an edge may reach: an in record older than this
	 *  before the out record is forgotten, which bounds memory.  0 = default
	 *  (NXP_FLOW_DEFAULT_WINDOW_NS). */
	int64_t window_ns;
} nxp_flow_options;

/** Default nxp_flow_options.window_ns: 100 ms. */
#define NXP_FLOW_DEFAULT_WINDOW_NS 100000000LL

static inline void nxp_flow_options_init(nxp_flow_options *o)
{
	o->struct_size = sizeof(*o);
	o->start_ts = INT64_MIN;
	o->end_ts = INT64_MAX;
	o->pcore_idx = -1;
	o->window_ns = 0;
}

typedef struct nxp_flow_cursor nxp_flow_cursor;

/**
 * Open a cursor over the profile's dependency edges.  An edge is returned
 * as soon as both its records have been read, so edges come in time order
 * up to the window (not sorted by out_ts).  One streaming pass over the Instruction,
 * DmaPacket and SemaphoreUpdate tables; memory is bounded by the window and
 * the number of queues and semaphores, not by the trace.
 * Errors: NXP_E_INVAL (NULL, short options, start_ts >= end_ts, negative
 * window), NXP_E_NOMEM, and the cursor errors of nxp_cursor_open().
 */
NXP_API int nxp_flow_cursor_open(nxp_flow_cursor **out, nxp_profile *p, const nxp_flow_options *opts,
				 nxp_status *st);
/** Next edge: 0 with `f` filled, NXP_END at the end, or a negative error
 *  (NXP_E_INVAL for a NULL or short `f`; NXP_E_NOMEM; a cursor error: NXP_E_IO,
 *  NXP_E_CRC, NXP_E_TRUNCATED, NXP_E_FORMAT), after which the cursor stays in error. */
NXP_API int nxp_flow_cursor_next(nxp_flow_cursor *c, nxp_flow *f);
/** The cursor's last error.  Returns its code (0 if none); NXP_E_INVAL for NULL. */
NXP_API int nxp_flow_cursor_error(const nxp_flow_cursor *c, nxp_status *st);
NXP_API void nxp_flow_cursor_close(nxp_flow_cursor *c);

/** Directions for nxp_profile_flows_of(). */
#define NXP_FLOW_WAITED_ON 1 /**< edges whose out record is the given one: what it waited on */
#define NXP_FLOW_UNBLOCKED 2 /**< edges whose in record is the given one: what it unblocked */

/**
 * "What did this record wait on / what did it unblock": the edges into
 * (NXP_FLOW_WAITED_ON) or out of (NXP_FLOW_UNBLOCKED) record `id` of `table`
 * (NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET or NXP_TABLE_SEMAPHORE_UPDATE).
 * Stores up to `max` edges (each of struct_size `flow_size`, set on each) and
 * sets `*count` to the number found (which may exceed max).  Reads the trace up
 * to the record and one window past it.
 * Errors: NXP_E_INVAL (NULL, other table, bad direction, short flow_size),
 * NXP_E_NOT_FOUND (no such record), and those of nxp_flow_cursor_next().
 */
NXP_API int nxp_profile_flows_of(nxp_profile *p, int table, int64_t id, int direction, void *flows,
				 size_t flow_size, size_t max, size_t *count, nxp_status *st);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Critical path */
/**@{*/
typedef struct nxp_critical_path nxp_critical_path;

typedef struct nxp_critical_path_options {
	size_t struct_size;
	/** Execution to cover, or -1: the interval of the summary's
	 *  total_exec_time (earliest start to latest end of the non-set-up
	 *  instructions and the DMA packets), so total_ns equals it. */
	int32_t execution_index;
	int64_t pcore_idx; /**< -1 = all physical cores */
} nxp_critical_path_options;

static inline void nxp_critical_path_options_init(nxp_critical_path_options *o)
{
	o->struct_size = sizeof(*o);
	o->execution_index = -1;
	o->pcore_idx = -1;
}

/** One record on the path, in path order: each step is what the next one
 *  waited for, and ends no later than it (end_ts never decreases along the
 *  path).  start_ts may decrease: an instruction that started before the
 *  semaphore update it waited for comes after that update. */
typedef struct nxp_critical_step {
	size_t struct_size;
	int32_t table;        /**< NXP_TABLE_INSTRUCTION, _DMA_PACKET or _SEMAPHORE_UPDATE */
	int64_t id;           /**< the record's id (see the Flow section) */
	int64_t start_ts, end_ts;
	const char *resource; /**< what the step's own time is charged to (see nxp_critical_resource) */
	const char *label;    /**< opcode, DMA queue name or semaphore id ("S[3]") */
	const char *via;      /**< how the next step depended on this one: a dependency_type,
				   "resource_order" (next record on the same engine / queue) or "" (last) */
	int64_t ns;           /**< time charged to this step (own time plus the gap before the next) */
} nxp_critical_step;

/** Time on the path per resource. */
typedef struct nxp_critical_resource {
	size_t struct_size;
	/** "engine:<name>" (e.g. "engine:tensor"), "dma:<queue name>",
	 *  "semaphore_wait", "idle" (nothing on the path ran: host or idle gaps). */
	const char *resource;
	int64_t ns;      /**< time of the path charged to it; the rows sum exactly to total_ns */
	int64_t busy_ns; /**< engines and DMA queues: its busy time inside the interval, on or off the
			      path (union of its records); 0 for the other rows */
	int64_t slack_ns; /**< engines and DMA queues: total_ns - busy_ns, how much longer it could have
			       worked without lengthening the interval; 0 for the other rows */
} nxp_critical_resource;

/**
 * Compute the critical path: walk the dependency graph (the Flow edges plus
 * each engine's and DMA queue's own order) backwards from the record that
 * ends last in the interval, each time to the predecessor that finished last.
 * Every nanosecond of [start_ts, end_ts] is charged to exactly one resource.
 * Memory: 48 bytes per record inside the interval (use execution_index to
 * bound it on a long trace).
 * Errors: NXP_E_INVAL (NULL, short options), NXP_E_NOT_FOUND (no execution
 * with that index, or no work in the interval), NXP_E_NOMEM, cursor errors.
 */
NXP_API int nxp_profile_critical_path(nxp_profile *p, const nxp_critical_path_options *opts,
				      nxp_critical_path **out, nxp_status *st);
NXP_API void nxp_critical_path_close(nxp_critical_path *cp);
/** Interval covered: start, end (ns) and total_ns = end - start.  Any pointer may be NULL.
 *  Errors: NXP_E_INVAL. */
NXP_API int nxp_critical_path_interval(const nxp_critical_path *cp, int64_t *start_ts, int64_t *end_ts,
				       int64_t *total_ns);
/** Steps of the path (0 for NULL). */
NXP_API size_t nxp_critical_path_step_count(const nxp_critical_path *cp);
/** Step `index` (0 = earliest).  Strings live as long as `cp`.  Errors: NXP_E_INVAL, NXP_E_RANGE. */
NXP_API int nxp_critical_path_get_step(const nxp_critical_path *cp, size_t index, nxp_critical_step *out);
/** Rows of the per-resource breakdown, largest ns first (0 for NULL). */
NXP_API size_t nxp_critical_path_resource_count(const nxp_critical_path *cp);
/** Breakdown row `index`.  Strings live as long as `cp`.  Errors: NXP_E_INVAL, NXP_E_RANGE. */
NXP_API int nxp_critical_path_get_resource(const nxp_critical_path *cp, size_t index,
					   nxp_critical_resource *out);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Insights
 * Rule-based findings as data.  The rules and every threshold with its reason
 * are listed in doc/insights.md. */
/**@{*/
typedef struct nxp_insights nxp_insights;

/** Severities (numbers are ABI). */
typedef enum nxp_severity {
	NXP_SEVERITY_INFO = 1,
	NXP_SEVERITY_WARNING = 2,
	NXP_SEVERITY_CRITICAL = 3,
} nxp_severity;

/** One figure supporting an insight.  Frozen layout (no struct_size). */
typedef struct nxp_insight_evidence {
	const char *name;  /**< e.g. "dma_active_time_ns" */
	double value;
	const char *unit;  /**< "ns", "bytes", "fraction", "count", "" */
} nxp_insight_evidence;

/** One finding.  Strings and the evidence array live as long as the list. */
typedef struct nxp_insight {
	size_t struct_size;
	const char *rule;           /**< snake_case id: "dma_bound", "straggler", ... */
	int32_t severity_level;     /**< nxp_severity */
	const char *severity;       /**< "info", "warning" or "critical" */
	const char *message;        /**< what was found, with the figures */
	const char *recommendation; /**< what to try */
	int64_t start_ts, end_ts;   /**< time range the finding is about (ns; INT64_MIN when none) */
	const nxp_insight_evidence *evidence;
	size_t evidence_count;
} nxp_insight;

/**
 * Run every single-profile rule over a profile: one summary pass
 * (nxp_profile_summarize with `hw`, NULL = the profile's arch), the critical
 * path of the total_exec_time interval and the executions.  Insights come in
 * decreasing severity, then rule order.
 * Errors: those of nxp_profile_summarize() and nxp_profile_critical_path(),
 * NXP_E_NOMEM.
 */
NXP_API int nxp_profile_insights(nxp_profile *p, const nxp_hardware *hw, nxp_insights **out, nxp_status *st);
NXP_API void nxp_insights_close(nxp_insights *in);
/** Number of insights (0 for NULL). */
NXP_API size_t nxp_insights_count(const nxp_insights *in);
/** Insight `index`.  Errors: NXP_E_INVAL, NXP_E_RANGE. */
NXP_API int nxp_insights_get(const nxp_insights *in, size_t index, nxp_insight *out);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Rank comparison over a capture */
/**@{*/
typedef struct nxp_comparison nxp_comparison;

/** One device profile of a capture. */
typedef struct nxp_comparison_row {
	size_t struct_size;
	int64_t profile_index;     /**< nxp_capture_get_profile index */
	const char *ntff_path;
	const char *instance_id;   /**< of its process directory, "" if none */
	int64_t process_id;        /**< -1 if unknown */
	int64_t nc_idx;            /**< -1 if unknown */
	int64_t total_ns;          /**< summary total_time */
	int64_t gap_ns;            /**< total_ns - the fastest profile's */
	int32_t mfu_present;
	double mfu;                /**< mfu_estimated_percent (fraction), when present */
	int64_t engine_active_ns[NXP_ENGINE_COUNT]; /**< *_active_time per nxp_engine */
	int64_t dma_active_ns;
	int64_t dma_bytes;         /**< dma_transfer_total_bytes */
	int64_t throttle_ns;       /**< sum of ThrottleSummary throttle_active_time_ns */
	int64_t host_execute_count; /**< nrt_execute events of its process on its nc_idx (0: none found) */
	int64_t host_execute_total_ns;
	int64_t host_execute_max_ns;
	int64_t host_start_skew_ns; /**< its first nrt_execute start - the earliest first start over all
					 rows; -1 when it has none */
	/** The figure that explains the gap to the fastest profile: the
	 *  engine/DMA/throttle/host figure whose difference to the fastest is the
	 *  largest share of gap_ns ("" for the fastest). */
	const char *explaining_figure;
	int64_t explaining_delta_ns;
	int32_t status;            /**< 0, or the error opening/summarizing it (row figures then 0) */
} nxp_comparison_row;

/**
 * Open and summarize every device profile of a capture (`hw` NULL = each
 * profile's arch), read the host nrt_execute events, and sort the rows
 * slowest first.  A profile that fails to open keeps a row with its status.
 * The profiles are processed on worker threads, one open profile per worker;
 * the width is the NXP_THREADS environment variable (unset or 0 = one per
 * online CPU, 1 = serial); the rows are the same at any width.
 * Errors: NXP_E_INVAL, NXP_E_NOT_FOUND (no device profile), NXP_E_NOMEM.
 */
NXP_API int nxp_capture_compare(const nxp_capture *c, const nxp_hardware *hw, nxp_comparison **out,
				nxp_status *st);
NXP_API void nxp_comparison_close(nxp_comparison *cmp);
NXP_API size_t nxp_comparison_count(const nxp_comparison *cmp);
/** Row `index` (0 = slowest).  Strings live as long as `cmp`.  Errors: NXP_E_INVAL, NXP_E_RANGE. */
NXP_API int nxp_comparison_get(const nxp_comparison *cmp, size_t index, nxp_comparison_row *out);
/** Capture-level insights (the "straggler" rule), owned by `cmp` (never NULL for a valid cmp). */
NXP_API const nxp_insights *nxp_comparison_insights(const nxp_comparison *cmp);
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_ANALYSIS_H */
