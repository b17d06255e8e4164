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
	int32_t gzip;              /**< Chrome JSON: 1 gzip, 0 plain, -1 = when `path` ends in ".gz".
					Perfetto (since 0.2): 1 = the packets zlib-deflated in
					TracePacket.compressed_packets bundles of 256 KiB (what
					Perfetto's own service writes with DEFLATE; read by
					trace_processor and ui.perfetto.dev): about a sixth of the
					size for more CPU; 0 or -1 = plain packets */
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
	int32_t device_flows;      /**< Perfetto device traces of a whole profile (no start_ts,
					end_ts, engine or execution filter): nonzero (the default)
					= flow arrows from each instruction or DMA transfer that
					released a semaphore to the instruction that waited on it
					(the Flow table's semaphore_signal / dma_completion edges
					joined with semaphore_wait), found by a second pass over the
					profile that runs on a thread of its own when more than one
					CPU may be used (the NXP_THREADS environment variable, else
					the online CPUs; NXP_THREADS=1: on the caller's thread) --
					the same bytes either way; 0 = none, which takes about 40 %
					less CPU time (doc/performance.md).  Since 0.2. */
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
	o->device_flows = 1;
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
	int64_t flows;        /**< flow arrows written: a device profile's semaphore arrows
				   (nxp_timeline_options.device_flows); capture export: system
				   flow_id links, and nrt_execute -> device execution in the
				   combined file */
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
 * reference tool names them:
 *  - `device_profile_<name>.pftrace` per device profile with both NEFF and
 *    NTFF (<name> = the NTFF file name without ".ntff"; content as
 *    nxp_profile_export_timeline() with `opts`, device ns);
 *  - `system_profile.pftrace`: the system events (nxp_capture_open_events) as
 *    slices in host Unix ns.  Rows are grouped like the reference tool's
 *    --system-trace-primary-group / --system-trace-secondary-group: a
 *    process-level track per distinct tuple of opts->system_primary_group
 *    (default "instance_id,process_id"), named by the values ("i-0abc pid
 *    41071"), and under it a slice track per tuple of
 *    opts->system_secondary_group (default "worker_gid,lnc_idx,thread_id"),
 *    e.g. "worker 3 thread 7" or "thread 41072".  Field names: instance_id,
 *    process_id, thread_id, nc_idx, pcore_idx, worker_gid, lnc_idx, nd_idx,
 *    trace_event_source, framework_stream_id, name; labels in the names: pid,
 *    thread, nc, pcore, worker, lnc, device, stream (none for the others).
 *    nxp_system_event has no lnc_idx column: it is read from the event's
 *    `lnc_idx` attribute when it has one.  A field a row does not carry
 *    (-1, "", no such attribute) is never invented: such rows share the group
 *    value "unknown" for that field, and the field is left out of the track
 *    name ("unknown" when no field is present; "" groups every row into one
 *    track "all events").  Rows that would break a track's nesting go to lane
 *    tracks "<name> lane k".  Rows sharing a flow_id (trace.json flow rows:
 *    the same id within the same category) are chained by Perfetto flow
 *    arrows in start order.  The host CPU usage ("CPU <id> %") and memory
 *    ("host memory used bytes") are counter tracks under the primary group of
 *    their process directory (its instance_id and pid; other fields unknown).
 *  - with opts->combined, `combined_profile.pftrace`: the system content as
 *    above plus every device profile on host time: its device times mapped
 *    with the process's clock map (nxp_clock_map semantics, built from that
 *    process's timestamp_sync_point rows; the core is the profile's
 *    neuroncore_idx), its "NeuronCore <n> pcore <p>" groups placed under the
 *    primary track of the profile's first matching nrt_execute row (else top
 *    level, named "<NTFF name>: NeuronCore <n> pcore <p>"), and an arrow from
 *    each nrt_execute (same process and core, its execution_index attribute,
 *    and its neff_name when several profiles share the core) to the
 *    "execution N" slice it launched.  A profile whose core has no sync point
 *    is left out and counted in stats->unplaced_profiles; a record whose time
 *    does not map (int64 overflow) is left out.  The device content keeps its
 *    semaphore arrows (opts->device_flows).  In ui.perfetto.dev a host
 *    process group ("i-0abc pid 41071") then shows its thread tracks and its
 *    "NeuronCore <n> pcore <p>" groups, each holding "executions", the engine
 *    tracks and the DMA queue tracks, with device times in host ns.
 * `stats` sums every file written (stats->flows: every file's arrows, the
 * combined file's included).
 * opts->format must be NXP_TIMELINE_PERFETTO.  Errors: as
 * nxp_profile_export_timeline(), NXP_E_INVAL (an unknown group field, checked
 * before anything is written), those of nxp_capture_open(), and a system file
 * that cannot be read.  Since 0.2.
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
