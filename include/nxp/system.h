/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/system.h
 * @brief System profiles (.pb), framework traces (trace.json) and capture
 *        directories.  Include <nxp/nxp.h>, not this file.
 *
 * A system profile is a directory written by the Neuron runtime: `ntrace.pb`
 * (runtime and hardware events), `trace_info.pb` (profile-wide facts),
 * optionally `cpu_util.pb`, `host_mem.pb`, a framework `trace.json[.gz]`, and
 * for device profiles NEFF/NTFF pairs.  AWS publishes no .proto for the .pb
 * files: libnxp reads them with its own message definitions, documented in
 * doc/formats/system-profile.md together with which parts are observed facts
 * and which are libnxp's choices.
 *
 * Every reader here streams: a .pb file is walked one top-level field at a
 * time and one event is unpacked at a time; a trace.json is tokenised one
 * event object at a time.  Memory is bounded by the options' limits, never by
 * the file size.  All readers accept sequential sources.
 *
 * Error offsets (nxp_status.offset) are byte positions in the file, except for
 * gzip'd input, where a fault in the decompressed content is reported at its
 * position in the decompressed stream (what `zcat FILE | tail -c +N` shows) and
 * a fault in the gzip layer itself at its position in the file.
 *
 * Records follow the public tables SystemProfileEvents, CpuUsage, HostMemUsage
 * and SystemProfileMetadata (field names as in the schema; times are int64 Unix
 * nanoseconds on the host clock).
 */
#ifndef NXP_SYSTEM_H
#define NXP_SYSTEM_H

#include <nxp/common.h>
#include <nxp/ntff.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** @name Options (since 0.1) */
/**@{*/

/** Kinds of system-profile file (numbers are ABI). */
typedef enum nxp_sysfile_kind {
	NXP_SYSFILE_AUTO = 0,       /**< decide from the content (gzip or JSON text = trace.json, else ntrace.pb) */
	NXP_SYSFILE_NTRACE = 1,     /**< ntrace.pb */
	NXP_SYSFILE_TRACE_INFO = 2, /**< trace_info.pb */
	NXP_SYSFILE_CPU_UTIL = 3,   /**< cpu_util.pb */
	NXP_SYSFILE_HOST_MEM = 4,   /**< host_mem.pb */
	NXP_SYSFILE_TRACE_JSON = 5, /**< Chrome-trace trace.json, plain or gzip'd */
	NXP_SYSFILE_NEFF = 6,       /**< a .neff (only in capture listings) */
	NXP_SYSFILE_NTFF = 7,       /**< a .ntff (only in capture listings) */
} nxp_sysfile_kind;

/** Flags for nxp_system_options.flags. */
#define NXP_SYSTEM_NO_PAIRING 0x1u /**< return ntrace START/STOP events as they are (no pairing) */
#define NXP_SYSTEM_NO_PRESCAN 0x2u /**< trace.json: never pre-scan for baseTimeNanoseconds */

/** Options and safety limits.  0 in a limit means "use the default". */
typedef struct nxp_system_options {
	size_t struct_size;
	uint32_t flags;            /**< NXP_SYSTEM_* */
	uint64_t max_message_size; /**< largest .pb event, sample or trace_info message (default 16 MiB) */
	uint64_t max_json_event;   /**< largest trace.json event object in bytes (default 16 MiB) */
	uint32_t max_json_depth;   /**< deepest nesting inside one trace.json event (default 64) */
	uint32_t max_pending;      /**< unmatched START events / open B slices kept (default 1,048,576) */
	const char *instance_id;   /**< instance_id for records whose file has none (NULL = "");
	                                copied at open: it need not outlive the open call */
} nxp_system_options;

static inline void nxp_system_options_init(nxp_system_options *o)
{
	o->struct_size = sizeof(*o);
	o->flags = 0;
	o->max_message_size = 0;
	o->max_json_event = 0;
	o->max_json_depth = 0;
	o->max_pending = 0;
	o->instance_id = 0;
}
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name System events (SystemProfileEvents rows)
 * One cursor reads ntrace.pb, trace.json or trace.json.gz, or every such file
 * of a capture directory, and returns SystemProfileEvents rows.
 *
 * ntrace.pb: START and STOP events with the same tracking_id are paired into
 * one row (start_ts = START's timestamp, end_ts = STOP's); the row is returned
 * when its STOP is read.  A STOP without START is returned alone with
 * NXP_SYSEV_UNMATCHED_STOP, and STARTs still open at the end of the file are
 * returned at the end with NXP_SYSEV_UNMATCHED_START (both with duration 0):
 * nothing is dropped.  Events with a `duration` or INSTANT phase are returned
 * as they come.
 *
 * trace.json: `X` rows as they come, `B`/`E` paired per (pid, tid) stack, `i`/`I`
 * instants, `C` counters, `M` metadata (name in `name`, value in
 * extra_attributes_json) and flow `s`/`t`/`f` (flow id in flow_id).
 * Timestamps: absolute ns = baseTimeNanoseconds + ts × 1000 (Kineto).  On a
 * seekable source the reader first scans the top-level keys for
 * baseTimeNanoseconds wherever it is (before or after traceEvents); on a
 * sequential source only a base seen before traceEvents applies, and rows
 * without a base carry NXP_SYSEV_NO_BASE_TIME (so do B slices still open at the
 * end whose ts was read before a late base).
 *
 * Times that do not fit: an event whose start, end or duration in int64 ns
 * cannot be represented (trace.json ts × 1000 + base, ts + dur, E − B; ntrace
 * timestamp above INT64_MAX or timestamp + duration) is not returned: it is
 * skipped and counted in nxp_system_stats.skipped, like other malformed
 * events.  A skipped E leaves its B open; a skipped START leaves its STOP
 * unmatched.
 *
 * Rows come in file order, not sorted by time (neither file kind is sorted).
 */
/**@{*/
/** A streaming reader: one thread at a time (different readers, including
 *  readers of one file, on different threads are fine). */
typedef struct nxp_system_events nxp_system_events;

/** Flags of a system event row. */
#define NXP_SYSEV_UNMATCHED_START 0x1u /**< START (or B) never closed: end_ts = start_ts */
#define NXP_SYSEV_UNMATCHED_STOP 0x2u  /**< STOP (or E) with no open START */
#define NXP_SYSEV_HARDWARE 0x4u        /**< name in the "hardware" group (nc_exec_running, cc_running, ...) */
#define NXP_SYSEV_SOFTWARE 0x8u        /**< name in the "software" group (nrt_execute, kbl_exec_pre, ...) */
#define NXP_SYSEV_NO_BASE_TIME 0x10u   /**< framework row: no baseTimeNanoseconds known, ts×1000 only */
#define NXP_SYSEV_UNPAIRED 0x20u       /**< a START/STOP returned alone because of NXP_SYSTEM_NO_PAIRING */

/** SystemProfileEvents row (plus libnxp's extras after `flags`).  Strings are
 *  owned by the cursor and valid until the next call on it. */
typedef struct nxp_system_event {
	size_t struct_size;
	int64_t id;                        /**< ntrace: the event id field; trace.json: row number */
	const char *name;
	int64_t start_ts, end_ts, duration_ns; /**< Unix ns */
	const char *trace_event_source;    /**< "neuron_rt", "neuron_hw" or "framework" */
	const char *instance_id;
	int64_t process_id;                /**< -1 when the pid is a string (see pid) */
	int64_t thread_id;                 /**< -1 when the tid is a string (see tid) */
	int64_t nc_idx;                    /**< -1 = absent */
	int64_t pcore_idx;                 /**< -1 = absent */
	int64_t worker_gid;                /**< -1 = absent */
	const char *flow_id;               /**< flow id ("" = none); the schema's array holds this one element */
	const char *framework_stream_id;   /**< "" = none */
	const char *extra_attributes_json; /**< JSON object text ("{}" when none) */
	uint32_t flags;                    /**< NXP_SYSEV_* */
	const char *phase;                 /**< trace.json `ph` ("X", "i", ...); ntrace: "X" paired, "i" instant, "B"/"E" unpaired */
	const char *category;              /**< trace.json `cat`, "" otherwise */
	const char *pid;                   /**< pid as text (numbers formatted, strings as given, e.g. "Spans") */
	const char *tid;                   /**< tid as text */
	const char *process_name;          /**< from an earlier `M` process_name row, else "" */
	const char *thread_name;           /**< from an earlier `M` thread_name row, else "" */
	int64_t tracking_id;               /**< ntrace tracking_id, -1 = absent */
	int64_t nrta_seq_id;               /**< ntrace nrta_seq_id, -1 = absent */
	int64_t nd_idx;                    /**< ntrace Neuron device index, -1 = absent */
	const char *file;                  /**< path of the file the row came from ("" for a source) */
	int64_t offset;                    /**< byte offset of the row's (last) event in its file (decompressed for .gz) */
} nxp_system_event;

/** Counters of one cursor. */
typedef struct nxp_system_stats {
	size_t struct_size;
	int64_t events;            /**< rows returned */
	int64_t neuron_rt;         /**< rows by trace_event_source */
	int64_t neuron_hw;
	int64_t framework;
	int64_t unmatched_starts;  /**< rows returned with NXP_SYSEV_UNMATCHED_START */
	int64_t unmatched_stops;   /**< rows returned with NXP_SYSEV_UNMATCHED_STOP */
	int64_t skipped;           /**< input events ignored: a trace.json element that is not an object or has
	                                an unknown ph; an event whose time (ts + base, ts + dur, E − B, ntrace
	                                timestamp or timestamp + duration) does not fit int64 ns */
	int64_t files;             /**< files read so far */
	int64_t bytes_read;        /**< input bytes consumed (decompressed for .gz) */
	int64_t base_time_ns;      /**< trace.json baseTimeNanoseconds in use, 0 if none */
	int64_t peak_pending;      /**< most START/B events open at once */
} nxp_system_stats;

/**
 * Open a cursor on one file read from `src` (`kind` = NXP_SYSFILE_AUTO,
 * NXP_SYSFILE_NTRACE or NXP_SYSFILE_TRACE_JSON; gzip is detected from the
 * content).  `src` may be sequential and must outlive the cursor.  Nothing is
 * read before the first next() except the trace.json prescan.
 * Errors: NXP_E_INVAL (NULL, bad kind, short options), NXP_E_NOMEM, NXP_E_IO.
 */
NXP_API int nxp_system_events_open(nxp_system_events **out, nxp_source *src, int kind,
				   const nxp_system_options *opts, nxp_status *st);
/**
 * Open a cursor on a path: an ntrace.pb, a trace.json[.gz] (by content), or a
 * directory, in which case every ntrace.pb and trace.json[.gz] found under it
 * (as nxp_capture_open() finds them) is read in turn, with instance_id taken
 * from the process directory name (`i-..._pid_N`) when the file has none.
 * Errors: as nxp_system_events_open(), NXP_E_IO (cannot open/read the path),
 * NXP_E_NOT_FOUND (a directory without event files).
 */
NXP_API int nxp_system_events_open_path(nxp_system_events **out, const char *path, const nxp_system_options *opts,
					nxp_status *st);
/**
 * Next row.  Returns 0 with `ev` filled, NXP_END, or a negative error after
 * which the cursor stays in error: NXP_E_PROTOBUF (bad varint, bad wire type,
 * event that does not unpack), NXP_E_TRUNCATED (input ends inside a field or
 * object), NXP_E_LIMIT (a message, JSON event or pending table over its limit),
 * NXP_E_JSON (malformed trace.json), NXP_E_COMPRESSION (bad gzip), NXP_E_IO,
 * NXP_E_NOMEM, NXP_E_INVAL (NULL or short struct).  The cursor's error (see
 * nxp_system_events_error) has the byte offset of the fault.
 */
NXP_API int nxp_system_events_next(nxp_system_events *c, nxp_system_event *ev);
NXP_API int nxp_system_events_get_stats(const nxp_system_events *c, nxp_system_stats *out);
/** Copy the cursor's last error into `st`; returns its code. */
NXP_API int nxp_system_events_error(const nxp_system_events *c, nxp_status *st);
NXP_API void nxp_system_events_close(nxp_system_events *c);

/** Group of an event name: NXP_SYSEV_HARDWARE, NXP_SYSEV_SOFTWARE or 0 (unknown). */
NXP_API uint32_t nxp_system_event_group(const char *name);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Host statistics (CpuUsage, HostMemUsage rows) */
/**@{*/
typedef struct nxp_host_stats nxp_host_stats;

/** CpuUsage row.  Strings valid until the next call on the cursor. */
typedef struct nxp_cpu_usage {
	size_t struct_size;
	int64_t timestamp;      /**< Unix ns */
	double util_percent;    /**< as stored in the file */
	const char *cpu_id;     /**< a core number ("0", "1", ...) or "average" */
	const char *instance_id;
} nxp_cpu_usage;

/** HostMemUsage row. */
typedef struct nxp_host_mem_usage {
	size_t struct_size;
	int64_t timestamp;      /**< Unix ns */
	int64_t used_bytes;
	double used_percent;    /**< as stored in the file */
	const char *instance_id;
	int64_t total_bytes;    /**< -1 if the sample has none (libnxp extra) */
} nxp_host_mem_usage;

/**
 * Open a cursor on a cpu_util.pb (`kind` NXP_SYSFILE_CPU_UTIL) or host_mem.pb
 * (NXP_SYSFILE_HOST_MEM), single message or length-delimited stream.
 * Errors: NXP_E_INVAL, NXP_E_NOMEM.
 */
NXP_API int nxp_host_stats_open(nxp_host_stats **out, nxp_source *src, int kind, const nxp_system_options *opts,
				nxp_status *st);
/** Next sample; the function must match the cursor's kind (NXP_E_INVAL otherwise).
 *  Returns 0, NXP_END, or NXP_E_PROTOBUF / NXP_E_TRUNCATED / NXP_E_LIMIT /
 *  NXP_E_IO / NXP_E_NOMEM (sticky, with offset in nxp_host_stats_error). */
NXP_API int nxp_host_stats_next_cpu(nxp_host_stats *h, nxp_cpu_usage *out);
NXP_API int nxp_host_stats_next_mem(nxp_host_stats *h, nxp_host_mem_usage *out);
NXP_API int nxp_host_stats_error(const nxp_host_stats *h, nxp_status *st);
NXP_API void nxp_host_stats_close(nxp_host_stats *h);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name trace_info.pb (SystemProfileMetadata) */
/**@{*/
typedef struct nxp_trace_info nxp_trace_info;

/** SystemProfileMetadata fields plus the other facts libnxp keeps in
 *  trace_info.pb.  Strings live as long as the handle.  Absent integers are -1. */
typedef struct nxp_system_metadata {
	size_t struct_size;
	const char *first_ts;       /**< ISO-8601 UTC, e.g. "2025-06-01T12:00:00.000000000Z" ("" if absent) */
	const char *last_ts;
	int64_t first_ts_ns;        /**< Unix ns */
	int64_t last_ts_ns;
	int64_t ntff_version;
	int64_t hbm_capacity_bytes;
	const char *instance_id;
	const char *instance_type;
	const char *arch;
	const char *runtime_version;
	const char *driver_version;
	int64_t pid;
	int64_t session_id;
	int64_t logical_nc_size;
	int64_t num_neuron_cores;
	int64_t data_version;
} nxp_system_metadata;

/**
 * Read a whole trace_info.pb (single message, or a stream whose messages are
 * merged in order as protobuf concatenation does).
 * Errors: NXP_E_INVAL, NXP_E_PROTOBUF, NXP_E_TRUNCATED, NXP_E_LIMIT (over
 * max_message_size), NXP_E_IO, NXP_E_NOMEM.
 */
NXP_API int nxp_trace_info_open(nxp_trace_info **out, nxp_source *src, const nxp_system_options *opts,
				nxp_status *st);
/** Errors: NXP_E_INVAL. */
NXP_API int nxp_trace_info_get(const nxp_trace_info *ti, nxp_system_metadata *out);
NXP_API void nxp_trace_info_close(nxp_trace_info *ti);
/** The handle's last error, as every handle has one.  No call on an open
 *  trace_info records one (nxp_trace_info_get fails only with NXP_E_INVAL for
 *  its own arguments), so this reports "no error" (returns 0).  Errors:
 *  NXP_E_INVAL (NULL handle, short `st`).  Since 0.2. */
NXP_API int nxp_trace_info_error(const nxp_trace_info *ti, nxp_status *st);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Clock alignment (device → host time)
 * Built from the `timestamp_sync_point` events of a system-event cursor: each
 * carries `cpu_timestamp_ns` and `nc_timestamp_ns` attributes taken after an
 * execution on core nc_idx.  A device timestamp t on core n maps to
 * `sync_cpu + (t − sync_dev)` using the sync point of the same execution: the
 * first sync point of core n with sync_dev >= t (the one taken right after the
 * execution t belongs to), or the last one of core n when t is after all.
 */
/**@{*/
typedef struct nxp_clock_map nxp_clock_map;

/**
 * Read `events` to its end and keep every timestamp_sync_point (at most
 * `max_points`, 0 = default 1,048,576).  Sync points without both attributes
 * are counted, not kept.  Errors: any cursor error, NXP_E_LIMIT, NXP_E_NOMEM,
 * NXP_E_INVAL.
 */
NXP_API int nxp_clock_map_build(nxp_clock_map **out, nxp_system_events *events, uint32_t max_points,
				nxp_status *st);
/** nxp_clock_map_build() under the 0.2 name (a handle made by reading input is
 *  `_open`ed); nxp_clock_map_build stays as an alias.  Since 0.2. */
NXP_API int nxp_clock_map_open(nxp_clock_map **out, nxp_system_events *events, uint32_t max_points,
			       nxp_status *st);
/** An empty map to fill with nxp_clock_map_add() (tests, custom captures). */
NXP_API int nxp_clock_map_new(nxp_clock_map **out);
/** Add one sync point.  Errors: NXP_E_INVAL, NXP_E_NOMEM. */
NXP_API int nxp_clock_map_add(nxp_clock_map *m, int64_t nc_idx, int64_t device_ts, int64_t host_ts);
/** Sync points kept. */
NXP_API size_t nxp_clock_map_count(const nxp_clock_map *m);
/**
 * Map device time `device_ts` of core `nc_idx` to host Unix ns.
 * Errors: NXP_E_INVAL, NXP_E_NOT_FOUND (no sync point for that core),
 * NXP_E_RANGE (the mapped time does not fit int64; `*host_ts` is unchanged).
 */
NXP_API int nxp_clock_map_to_host(const nxp_clock_map *m, int64_t nc_idx, int64_t device_ts, int64_t *host_ts);
NXP_API void nxp_clock_map_close(nxp_clock_map *m);
/** Copy the map's last error (of nxp_clock_map_add: out of memory) into `st`;
 *  returns its code.  nxp_clock_map_to_host records nothing (its codes say it
 *  all, and lookups stay safe from several threads).  Errors: NXP_E_INVAL (NULL
 *  handle, short `st`).  Since 0.2. */
NXP_API int nxp_clock_map_error(const nxp_clock_map *m, nxp_status *st);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Capture directories */
/**@{*/
/** A capture directory's inventory.  Read-only after open: its getters and
 *  nxp_capture_open_profile / _open_events may be called from several threads
 *  (each call opens a new, independent handle). */
typedef struct nxp_capture nxp_capture;

/** One file found under the capture directory. */
typedef struct nxp_capture_file {
	size_t struct_size;
	const char *path;          /**< full path */
	int32_t kind;              /**< nxp_sysfile_kind */
	int64_t size;              /**< bytes */
	int64_t process_index;     /**< the process directory it belongs to, -1 if none */
	const char *name_hash;     /**< NEFF/NTFF: hash from the file name ("" if none) */
	int64_t nc_idx;            /**< NTFF: from profile_nc_<n>_..., -1 if not in the name */
	int64_t vnc;               /**< NEFF/NTFF: _vnc_<v>, -1 if not in the name */
	int64_t session;           /**< NTFF: _session_<s>, -1 */
	int64_t instid;            /**< NTFF: _instid_<i>, -1 */
	int32_t has_uuid;          /**< 1 when uuid was read from the file */
	uint8_t uuid[16];          /**< NEFF compilation UUID (from its header) */
} nxp_capture_file;

/** One process directory (`<instance>_pid_<pid>[/<timestamp>]`). */
typedef struct nxp_capture_process {
	size_t struct_size;
	const char *dir;
	const char *instance_id;   /**< "i-..." from the directory name, "" if none */
	int64_t pid;               /**< -1 if not in the name */
	const char *timestamp;     /**< timestamp sub-directory name, "" if none */
	int64_t ntrace, trace_info, cpu_util, host_mem, trace_json; /**< file indices, -1 = missing */
	int32_t complete;          /**< 1 when both required files (ntrace.pb, trace_info.pb) exist */
} nxp_capture_process;

/** How a device profile's NEFF and NTFF were paired. */
typedef enum nxp_pairing {
	NXP_PAIRED_NONE = 0,       /**< one side is missing */
	NXP_PAIRED_BY_UUID = 1,    /**< NTFF's UUID equals the NEFF header's */
	NXP_PAIRED_BY_NAME = 2,    /**< same hash in the file names (UUID not readable) */
	NXP_PAIRED_SOLE = 3,       /**< only NEFF in its directory (session captures) */
} nxp_pairing;

/** One device profile (NEFF/NTFF pair). */
typedef struct nxp_capture_profile {
	size_t struct_size;
	int64_t neff;              /**< file index, -1 = missing */
	int64_t ntff;              /**< file index, -1 = missing */
	int64_t process_index;     /**< -1 if none */
	int32_t pairing;           /**< nxp_pairing */
	int64_t nc_idx;            /**< from the NTFF name (profile_nc_<n>, else _vnc_<v>), -1 unknown */
} nxp_capture_profile;

/**
 * Discover a capture directory recursively (both known layouts, see
 * doc/formats/system-profile.md): classify files by name, group them by process
 * directory, and pair every NTFF with a NEFF (by UUID where the NTFF's can be
 * read, else by the hash in the file names, else the only NEFF of the
 * directory).  Nothing but NEFF headers (1024 bytes) is read.  Problems (missing
 * required files, unpaired NEFF/NTFF, 0-byte NTFF) are listed, not fatal.
 * Errors: NXP_E_INVAL, NXP_E_IO (cannot read the directory), NXP_E_NOT_FOUND
 * (nothing of a capture under it), NXP_E_LIMIT (more than 100,000 files),
 * NXP_E_NOMEM.
 */
NXP_API int nxp_capture_open(nxp_capture **out, const char *dir, nxp_status *st);
NXP_API void nxp_capture_close(nxp_capture *c);
NXP_API size_t nxp_capture_file_count(const nxp_capture *c);
/** Errors: NXP_E_INVAL, NXP_E_RANGE. */
NXP_API int nxp_capture_get_file(const nxp_capture *c, size_t index, nxp_capture_file *out);
NXP_API size_t nxp_capture_process_count(const nxp_capture *c);
NXP_API int nxp_capture_get_process(const nxp_capture *c, size_t index, nxp_capture_process *out);
NXP_API size_t nxp_capture_profile_count(const nxp_capture *c);
NXP_API int nxp_capture_get_profile(const nxp_capture *c, size_t index, nxp_capture_profile *out);
/** Problems found, as English sentences naming the file (owned by the handle). */
NXP_API size_t nxp_capture_problem_count(const nxp_capture *c);
NXP_API const char *nxp_capture_problem(const nxp_capture *c, size_t index);
/**
 * Open device profile `index` with nxp_profile_open_path().
 * Errors: NXP_E_RANGE, NXP_E_NOT_FOUND (NEFF or NTFF missing), and any of
 * nxp_profile_open_path().
 */
NXP_API int nxp_capture_open_profile(const nxp_capture *c, size_t index, const nxp_profile_options *opts,
				     nxp_profile **out, nxp_status *st);
/**
 * A system-event cursor over the ntrace.pb and trace.json of process
 * `process_index` (or of every process when it is -1), instance_id filled from
 * the process directory name.  Errors: as nxp_system_events_open_path(),
 * NXP_E_RANGE.
 */
NXP_API int nxp_capture_open_events(const nxp_capture *c, int64_t process_index, const nxp_system_options *opts,
				    nxp_system_events **out, nxp_status *st);
/** The handle's last error, as every handle has one.  An open capture is
 *  read-only: its getters record nothing, and open_profile / open_events report
 *  into their own `st`; so this reports "no error" (returns 0).  Errors:
 *  NXP_E_INVAL (NULL handle, short `st`).  Since 0.2. */
NXP_API int nxp_capture_error(const nxp_capture *c, nxp_status *st);
/** nxp_capture_open_profile() under the 0.2 naming rule (the created handle's
 *  prefix, out parameter first); the 0.1 name stays as an alias.  Since 0.2. */
NXP_API int nxp_profile_open_capture(nxp_profile **out, const nxp_capture *c, size_t index,
				     const nxp_profile_options *opts, nxp_status *st);
/** nxp_capture_open_events() under the 0.2 naming rule; the 0.1 name stays as an
 *  alias.  Since 0.2. */
NXP_API int nxp_system_events_open_capture(nxp_system_events **out, const nxp_capture *c, int64_t process_index,
					   const nxp_system_options *opts, nxp_status *st);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Writers (tests, `nxp synth`, custom tools)
 * Produce exactly what the readers accept.  `stream` = 0 writes one root
 * message; 1 writes a stream of length-delimited root messages (one per
 * `chunk_events` events, with a leading metadata message).  Output goes to a
 * file; events are packed one at a time, so a writer's memory does not grow
 * with the file.
 */
/**@{*/
typedef struct nxp_sysprof_writer nxp_sysprof_writer;

/** Root fields of an ntrace.pb / cpu_util.pb / host_mem.pb / trace_info.pb. */
typedef struct nxp_sysprof_writer_options {
	size_t struct_size;
	int32_t stream;            /**< 0 = one root message, 1 = length-delimited stream */
	uint32_t chunk_events;     /**< stream: events per message (default 4096) */
	const char *arch;          /**< ntrace root / trace_info ("" = absent) */
	int64_t pid;               /**< -1 = absent */
	int64_t session_id;        /**< -1 = absent */
	int64_t data_version;      /**< -1 = absent */
	int64_t logical_nc_size;   /**< -1 = absent */
	const char *instance_id;   /**< NULL = absent */
} nxp_sysprof_writer_options;

static inline void nxp_sysprof_writer_options_init(nxp_sysprof_writer_options *o)
{
	o->struct_size = sizeof(*o);
	o->stream = 0;
	o->chunk_events = 0;
	o->arch = 0;
	o->pid = -1;
	o->session_id = -1;
	o->data_version = -1;
	o->logical_nc_size = -1;
	o->instance_id = 0;
}

/** Phases of an ntrace event (numbers as in the observed enum). */
typedef enum nxp_ntrace_phase {
	NXP_NTRACE_PHASE_NONE = 0,
	NXP_NTRACE_PHASE_START = 1,
	NXP_NTRACE_PHASE_STOP = 2,
	NXP_NTRACE_PHASE_INSTANT = 3,
} nxp_ntrace_phase;

/** One raw ntrace.pb event.  Negative integers = absent. */
typedef struct nxp_ntrace_event {
	size_t struct_size;
	int64_t timestamp;         /**< Unix ns */
	const char *name;          /**< written as `hint` */
	int32_t phase;             /**< nxp_ntrace_phase */
	int64_t duration;          /**< ns, -1 = absent */
	int64_t nc_idx, nd_idx, thread_id, id, parent_id, tracking_id, nrta_seq_id;
	int64_t data, status, event_type;
	const char *const *attributes; /**< key, value, key, value ... */
	size_t n_attributes;       /**< number of key/value pairs */
} nxp_ntrace_event;

static inline void nxp_ntrace_event_init(nxp_ntrace_event *e)
{
	e->struct_size = sizeof(*e);
	e->timestamp = 0;
	e->name = 0;
	e->phase = 0;
	e->duration = -1;
	e->nc_idx = e->nd_idx = e->thread_id = e->id = e->parent_id = e->tracking_id = e->nrta_seq_id = -1;
	e->data = e->status = e->event_type = -1;
	e->attributes = 0;
	e->n_attributes = 0;
}

/**
 * Start writing a .pb file of `kind` (NXP_SYSFILE_NTRACE, NXP_SYSFILE_CPU_UTIL
 * or NXP_SYSFILE_HOST_MEM).  `opts` and its strings (arch, instance_id) are
 * copied: they need not outlive this call.  Errors: NXP_E_INVAL, NXP_E_IO,
 * NXP_E_NOMEM.
 */
NXP_API int nxp_sysprof_writer_open(nxp_sysprof_writer **out, const char *path, int kind,
				    const nxp_sysprof_writer_options *opts, nxp_status *st);
/** Append a string to the ntrace string pool (names for event_type); written
 *  before any event.  Errors: NXP_E_INVAL (after the first event), NXP_E_IO. */
NXP_API int nxp_sysprof_writer_string(nxp_sysprof_writer *w, const char *s);
/** Append an ntrace event.  Errors: NXP_E_INVAL (wrong kind), NXP_E_IO, NXP_E_NOMEM. */
NXP_API int nxp_sysprof_writer_event(nxp_sysprof_writer *w, const nxp_ntrace_event *ev);
/** Append a CpuUsage sample (instance_id ignored: it is the root's). */
NXP_API int nxp_sysprof_writer_cpu(nxp_sysprof_writer *w, const nxp_cpu_usage *s);
/** Append a HostMemUsage sample (total_bytes < 0 = absent). */
NXP_API int nxp_sysprof_writer_mem(nxp_sysprof_writer *w, const nxp_host_mem_usage *s);
/** Flush and close the file.  Errors: NXP_E_IO. */
NXP_API int nxp_sysprof_writer_finish(nxp_sysprof_writer *w);
/** Free (an unfinished writer leaves a partial file). */
NXP_API void nxp_sysprof_writer_close(nxp_sysprof_writer *w);
NXP_API int nxp_sysprof_writer_error(const nxp_sysprof_writer *w, nxp_status *st);

/**
 * Write a trace_info.pb from `md` (fields < 0 or NULL are left out;
 * first_ts/last_ts strings are ignored: they derive from the _ns fields).
 * Errors: NXP_E_INVAL, NXP_E_IO, NXP_E_NOMEM.
 */
NXP_API int nxp_trace_info_write(const char *path, const nxp_system_metadata *md, int stream, nxp_status *st);

/**
 * Write a small Chrome-trace trace.json: an object with `traceEvents` holding
 * `n` events (`phase` "X", "B", "E", "i", "C", "s", "t", "f" or "M"; ts and dur
 * written in microseconds relative to `base_time_ns`, which is written as
 * Kineto's `baseTimeNanoseconds` after traceEvents when non-zero).  `pid` and
 * `tid` of each event are written as given (a decimal text becomes a number),
 * `extra_attributes_json` as `args`, flow_id as `id`.  `gzip` = 1 writes gzip.
 * Errors: NXP_E_INVAL, NXP_E_IO, NXP_E_JSON (bad extra_attributes_json),
 * NXP_E_RANGE (start_ts − base_time_ns or end_ts − start_ts overflows int64).
 */
NXP_API int nxp_trace_json_write(const char *path, const nxp_system_event *events, size_t n, int64_t base_time_ns,
				 int gzip, nxp_status *st);
/**@}*/

/** @name First published sizes (ABI)
 * The smallest `struct_size` the library accepts for each size-versioned struct
 * of this header: the end of its last field as published in 0.1, the first
 * release.  A program built against the 0.1 header passes at least this; a
 * smaller struct_size is NXP_E_INVAL.  The values are computed by the compiler
 * for the platform's ABI; the numbers noted are those of LP64 (x86_64, aarch64),
 * checked against the frozen 0.1 headers in abi/include-0.1/ by tests/test_abi.c.
 * See doc/api.md, "ABI rules". (since 0.2) */
/**@{*/
#define NXP_SYSTEM_OPTIONS_SIZE_V0_1 (offsetof(nxp_system_options, instance_id) + sizeof(((nxp_system_options *)0)->instance_id)) /**< 48 on LP64 */
#define NXP_SYSTEM_EVENT_SIZE_V0_1 (offsetof(nxp_system_event, offset) + sizeof(((nxp_system_event *)0)->offset)) /**< 224 on LP64 */
#define NXP_SYSTEM_STATS_SIZE_V0_1 (offsetof(nxp_system_stats, peak_pending) + sizeof(((nxp_system_stats *)0)->peak_pending)) /**< 96 on LP64 */
#define NXP_CPU_USAGE_SIZE_V0_1 (offsetof(nxp_cpu_usage, instance_id) + sizeof(((nxp_cpu_usage *)0)->instance_id)) /**< 40 on LP64 */
#define NXP_HOST_MEM_USAGE_SIZE_V0_1 (offsetof(nxp_host_mem_usage, total_bytes) + sizeof(((nxp_host_mem_usage *)0)->total_bytes)) /**< 48 on LP64 */
#define NXP_SYSTEM_METADATA_SIZE_V0_1 (offsetof(nxp_system_metadata, data_version) + sizeof(((nxp_system_metadata *)0)->data_version)) /**< 136 on LP64 */
#define NXP_CAPTURE_FILE_SIZE_V0_1 (offsetof(nxp_capture_file, uuid) + sizeof(((nxp_capture_file *)0)->uuid)) /**< 100 on LP64 */
#define NXP_CAPTURE_PROCESS_SIZE_V0_1 (offsetof(nxp_capture_process, complete) + sizeof(((nxp_capture_process *)0)->complete)) /**< 84 on LP64 */
#define NXP_CAPTURE_PROFILE_SIZE_V0_1 (offsetof(nxp_capture_profile, nc_idx) + sizeof(((nxp_capture_profile *)0)->nc_idx)) /**< 48 on LP64 */
#define NXP_SYSPROF_WRITER_OPTIONS_SIZE_V0_1 (offsetof(nxp_sysprof_writer_options, instance_id) + sizeof(((nxp_sysprof_writer_options *)0)->instance_id)) /**< 64 on LP64 */
#define NXP_NTRACE_EVENT_SIZE_V0_1 (offsetof(nxp_ntrace_event, n_attributes) + sizeof(((nxp_ntrace_event *)0)->n_attributes)) /**< 136 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_SYSTEM_H */
