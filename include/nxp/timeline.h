/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/timeline.h
 * @brief Timeline export (since 0.2): a device profile as a Perfetto trace
 *        (native protobuf, for ui.perfetto.dev and trace_processor) or as
 *        Chrome JSON (chrome://tracing, Perfetto's legacy importer).
 *
 * What the file holds (doc/timeline.md shows it as a user sees it):
 *  - one process-level group per physical core, named
 *    "NeuronCore <nc> pcore <p>";
 *  - under it an "executions" track (one slice per execution), one track per
 *    engine ("tensor", "vector", ...) with one slice per instruction named by
 *    its opcode, exact start and duration in ns, and arguments (operands, pc,
 *    FLOPs, bytes, semaphore wait, execution);
 *  - one track per DMA queue, named by the queue name, with one slice per packet
 *    named by its variable (tensor); packets that overlap in time go to lane
 *    tracks under the queue ("<queue> lane 1", ...), so no slices are ever
 *    improperly nested (the same holds for overlapping instructions);
 *  - semaphores as counter tracks ("S[15]", one value per update), errors as
 *    instants on an "errors" track, throttle windows as slices on "throttle";
 *  - counters sampled over windows: per-engine utilisation ("tensor util %") and
 *    DMA throughput ("DMA GB/s").
 * Times are the profile's own (device) nanoseconds.
 *
 * The file is written under a temporary name in the same directory and renamed
 * at the end: a failure never leaves a partial file at `path`.  Memory does not
 * grow with the trace: records are streamed from the cursors one at a time.
 */
#ifndef NXP_TIMELINE_H
#define NXP_TIMELINE_H

#include <nxp/common.h>
#include <nxp/ntff.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Output formats (numbers are ABI). */
typedef enum nxp_timeline_format {
	NXP_TIMELINE_PERFETTO = 0,   /**< Perfetto protobuf trace (.pftrace) */
	NXP_TIMELINE_CHROME_JSON = 1 /**< Chrome JSON trace-event format (.json; gzip'd when asked) */
} nxp_timeline_format;

/** Options of nxp_profile_export_timeline(). */
typedef struct nxp_timeline_options {
	size_t struct_size;        /**< sizeof(nxp_timeline_options) */
	int32_t format;            /**< nxp_timeline_format */
	int64_t start_ts;          /**< only records starting at or after (INT64_MIN = no bound) */
	int64_t end_ts;            /**< only records starting before (INT64_MAX = no bound) */
	int32_t engine;            /**< nxp_engine: only this engine's instructions and
					utilisation (other tracks are kept); -1 = all */
	int32_t execution;         /**< only the time of execution N (its start to its end,
					intersected with start_ts/end_ts); -1 = all */
	int64_t max_events;        /**< stop after this many events (slices, instants and counter
					values), leaving a note in the trace; 0 = no limit */
	int64_t counter_window_ns; /**< sampling window of the utilisation and throughput
					counters; 0 = the trace span / 500, at least 1000 ns */
	int32_t gzip;              /**< Chrome JSON: 1 gzip, 0 plain, -1 = when `path` ends in ".gz" */
	int32_t overwrite;         /**< nonzero: replace an existing file; 0: NXP_E_INVAL if it exists */
	/* since 0.2, capture export only (nxp_capture_export_timeline; ignored by
	 * nxp_profile_export_timeline): */
	const char *system_primary_group;   /**< comma-separated SystemProfileEvents field names: one
						 process-level track per distinct tuple; NULL =
						 "instance_id,process_id"; "" = one group for every row */
	const char *system_secondary_group; /**< the same for the slice tracks under a primary group;
						 NULL = "worker_gid,lnc_idx,thread_id" */
	int32_t combined;          /**< nonzero: also write combined_profile.pftrace (device
					activity on host time, see nxp_capture_export_timeline) */
} nxp_timeline_options;

static inline void nxp_timeline_options_init(nxp_timeline_options *o)
{
	o->struct_size = sizeof(*o);
	o->format = NXP_TIMELINE_PERFETTO;
	o->start_ts = INT64_MIN;
	o->end_ts = INT64_MAX;
	o->engine = -1;
	o->execution = -1;
	o->max_events = 0;
	o->counter_window_ns = 0;
	o->gzip = -1;
	o->overwrite = 0;
	o->system_primary_group = 0;
	o->system_secondary_group = 0;
	o->combined = 0;
}

/** What an export wrote. */
typedef struct nxp_timeline_stats {
	size_t struct_size;   /**< sizeof(nxp_timeline_stats) */
	int64_t events;       /**< slices, instants and counter values written */
	int64_t tracks;       /**< tracks declared */
	int64_t bytes;        /**< bytes of the file (compressed size when gzip'd) */
	int32_t truncated;    /**< 1 when max_events stopped the export early */
	int32_t read_errors;  /**< tables whose cursor stopped on an error (the file holds
				   what was read before it, and a note) */
	int64_t bad_records;  /**< records the cursors skipped as damaged */
	int64_t input_bytes;  /**< NTFF bytes read by the cursors */
	int64_t skipped_sections; /**< NTFF sections the cursors skipped (bad CRC, unknown kind) */
	int64_t flows;        /**< capture export: flow arrows written (system flow_id links, and
				   nrt_execute -> device execution in the combined file) */
	int64_t unplaced_profiles; /**< capture export with `combined`: device profiles left out of
					the combined file (no timestamp_sync_point for their core) */
} nxp_timeline_stats;

/**
 * Write the timeline of profile `p` to `path` in `opts->format` (NULL options =
 * nxp_timeline_options_init() defaults).  A damaged trace is exported as far as
 * the cursors read it: a table whose cursor fails stops there, the file says so
 * with an instant on a "notes" track, and stats->read_errors counts it; the
 * call still succeeds.  `stats` may be NULL.  Since 0.2.
 * Errors: NXP_E_INVAL (NULL profile or path, unknown format, struct_size too
 * small, an existing file without opts->overwrite, execution N not in the
 * trace), NXP_E_IO (cannot create, write or rename; the message has strerror's
 * text), NXP_E_NOMEM.
 */
NXP_API int nxp_profile_export_timeline(nxp_profile *p, const char *path, const nxp_timeline_options *opts,
					nxp_timeline_stats *stats, nxp_status *st);

/**
 * Export a whole capture directory `dir` (as nxp_capture_open() reads it) to
 * the directory `out_dir` (created if missing) as Perfetto traces named as the
 * reference tool names them: `device_profile_<name>.pftrace` per device
 * profile with both NEFF and NTFF (<name> = the NTFF file name without
 * ".ntff"; content as nxp_profile_export_timeline() with `opts`), and
 * `system_profile.pftrace`: the system events as slices, a process-level
 * track per (instance_id, process_id) and under it a slice track per
 * (worker_gid, thread_id) -- the reference tool's default grouping, without
 * lnc_idx, which nxp_system_event does not have -- and the host's CPU usage
 * ("CPU <id> %") and memory ("host memory used bytes") as counter tracks under
 * their process when the capture has cpu_util.pb / host_mem.pb.  System times
 * are host Unix ns.  `stats` sums every file written.  opts->format must be
 * NXP_TIMELINE_PERFETTO.  Errors: as nxp_profile_export_timeline(), those of
 * nxp_capture_open(), and a system file that cannot be read.  Since 0.2.
 */
NXP_API int nxp_capture_export_timeline(const char *dir, const char *out_dir, const nxp_timeline_options *opts,
					nxp_timeline_stats *stats, nxp_status *st);

/** @name First published sizes (ABI), see doc/api.md "ABI rules" (since 0.2) */
/**@{*/
#define NXP_TIMELINE_OPTIONS_SIZE_V0_2 (offsetof(nxp_timeline_options, overwrite) + sizeof(((nxp_timeline_options *)0)->overwrite)) /**< 72 on LP64 */
#define NXP_TIMELINE_STATS_SIZE_V0_2 (offsetof(nxp_timeline_stats, skipped_sections) + sizeof(((nxp_timeline_stats *)0)->skipped_sections)) /**< 72 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_TIMELINE_H */
