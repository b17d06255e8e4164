/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/table.h
 * @brief Columnar tables (since 0.2): the profile tables by the reference
 * tool's names (Instruction, DmaPacket, SemaphoreUpdate, ..., SchemaFields) as
 * Arrow C streams of record batches, and Parquet files written from any Arrow
 * stream.
 *
 * Column names, types and nullability follow the public profile schema
 * (version 7.4.0; doc/tables.md lists every table and column libnxp writes,
 * and the SchemaFields table describes them at run time).  Times are int64
 * nanoseconds.  Strings that repeat (engine, opcode, queue names, types) are
 * dictionary-encoded utf8.
 */
#ifndef NXP_TABLE_H
#define NXP_TABLE_H

#include <nxp/common.h>
#include <nxp/arrow.h>
#include <nxp/ntff.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Options of a table stream.  Filters are those of nxp_cursor_options and
 *  apply to the device tables that have the column they filter on. */
typedef struct nxp_table_options {
	size_t struct_size;          /**< sizeof(nxp_table_options) */
	const char *const *columns;  /**< NULL-terminated column names to produce, in this
					  order; NULL = every column of the table */
	int64_t start_ts;            /**< only rows with start >= start_ts (INT64_MIN = no bound) */
	int64_t end_ts;              /**< only rows with start < end_ts (INT64_MAX = no bound) */
	int32_t engine;              /**< nxp_engine, -1 = all */
	int64_t pcore_idx;           /**< -1 = all */
	const char *queue_name;      /**< DMA queue name, NULL = all */
	int64_t batch_rows;          /**< rows per record batch; 0 = 65536 */
} nxp_table_options;

static inline void nxp_table_options_init(nxp_table_options *o)
{
	o->struct_size = sizeof(*o);
	o->columns = 0;
	o->start_ts = INT64_MIN;
	o->end_ts = INT64_MAX;
	o->engine = -1;
	o->pcore_idx = -1;
	o->queue_name = 0;
	o->batch_rows = 0;
}

/**
 * Name of the `index`-th table libnxp can produce from a device profile
 * (index 0, 1, ... until NULL).  Static storage.
 */
NXP_API const char *nxp_table_name(int index);

/**
 * Open an Arrow stream of record batches over table `table` (a name such as
 * "Instruction", see nxp_table_name()) of profile `p`.  On success `*out` is a
 * stream the caller releases; batches it returns own their buffers and stay
 * valid after the stream and the profile are released.
 * Errors: NXP_E_INVAL (unknown table or column, bad options), NXP_E_NOMEM,
 * NXP_E_IO.  Errors met while reading are returned by the stream's get_next
 * (an errno value) with the message from get_last_error.
 */
NXP_API int nxp_profile_open_table(struct ArrowArrayStream *out, nxp_profile *p, const char *table,
				   const nxp_table_options *opts, nxp_status *st);

/**
 * Open an Arrow stream over a system table (SystemProfileEvents,
 * SystemProfileMetadata, CpuUsage, HostMemUsage) read from `path`: one file, or
 * a capture directory (every file of the table's kind under it, as
 * nxp_capture_open() finds them).  A single file is of the kind its name says,
 * as in a capture (ntrace.pb and *trace.json[.gz]: SystemProfileEvents;
 * trace_info.pb: SystemProfileMetadata; cpu_util.pb: CpuUsage; host_mem.pb:
 * HostMemUsage; another name is read as events, ntrace.pb or trace.json by
 * content); the tables of the other kinds have no rows from it.  Since 0.2
 *.  "SchemaFields" is accepted too.  Options as
 * nxp_profile_open_table(); the time window applies to the event start and
 * sample times, pcore_idx to SystemProfileEvents.  Since 0.2.
 * Errors: NXP_E_INVAL (unknown or device table, unknown column, bad options),
 * NXP_E_IO, NXP_E_NOT_FOUND, NXP_E_NOMEM, and the system readers' errors.
 */
NXP_API int nxp_system_open_table(struct ArrowArrayStream *out, const char *path, const char *table,
				  const nxp_table_options *opts, nxp_status *st);

/** Parquet page compression. */
typedef enum nxp_parquet_codec {
	NXP_PARQUET_ZSTD = 0, /**< ZSTD (libzstd), the default */
	NXP_PARQUET_GZIP = 1, /**< GZIP (zlib) */
	NXP_PARQUET_NONE = 2, /**< uncompressed */
} nxp_parquet_codec;

/** Options of a Parquet file. */
typedef struct nxp_parquet_options {
	size_t struct_size;             /**< sizeof(nxp_parquet_options) */
	int32_t codec;                  /**< nxp_parquet_codec */
	int32_t level;                  /**< codec level, 0 = the codec's default */
	int64_t row_group_bytes;        /**< a row group ends once its encoded data reach this, or at
					     2^20 rows; 0 = 64 MiB */
	int32_t overwrite;              /**< nonzero: replace an existing file; 0: NXP_E_INVAL if it exists */
	const char *const *key_values;  /**< NULL-terminated key, value, key, value, ... added to the
					     file's key-value metadata; NULL = none */
} nxp_parquet_options;

static inline void nxp_parquet_options_init(nxp_parquet_options *o)
{
	o->struct_size = sizeof(*o);
	o->codec = NXP_PARQUET_ZSTD;
	o->level = 0;
	o->row_group_bytes = 0;
	o->overwrite = 0;
	o->key_values = 0;
}

/**
 * Write every batch of `in` to a Parquet file at `path` and release `in`.
 * The file is written under a temporary name in the same directory and renamed
 * at the end, so a failure never leaves a partial file at `path`.
 * Supported Arrow types: int32, int64, uint32 (as INT64), float32, float64,
 * bool, utf8, and dictionary-encoded utf8; nullable or not.
 * Errors: NXP_E_INVAL (existing file without overwrite, unsupported type),
 * NXP_E_IO (with strerror text), NXP_E_NOMEM, or the stream's own error.
 */
NXP_API int nxp_parquet_write(const char *path, struct ArrowArrayStream *in, const nxp_parquet_options *opts,
			      nxp_status *st);

/** What an export wrote (an output: nxp_export_options.report points at one).
 *  The caller sets struct_size; the export fills the rest when it returns
 *  NXP_OK (on an error the values are unspecified).  Since 0.2. */
typedef struct nxp_export_report {
	size_t struct_size;       /**< sizeof(nxp_export_report), set by the caller */
	int64_t skipped_records;  /**< records that failed their checks and were skipped: the sum of
				       record_count over the Warning rows of category skipped_records
				       (every profile of a capture); -1 when Warning was not exported */
	int64_t skipped_sections; /**< the same for category skipped_sections; -1 when Warning was not
				       exported */
	int32_t tables_written;   /**< Parquet files written (a capture: every partition file) */
} nxp_export_report;

/** Options of nxp_profile_export_parquet(), nxp_system_export_parquet() and
 *  nxp_capture_export_parquet(). */
typedef struct nxp_export_options {
	size_t struct_size;            /**< sizeof(nxp_export_options) */
	/** NULL-terminated table names; NULL = the default set: every table of the
	 *  source except Flow (libnxp's own analysis table, costly: one flow
	 *  cursor over the whole trace).  Two names stand for sets: "default"
	 *  (that default set) and "all" (every table of the source, Flow
	 *  included), so {"default", "Flow", NULL} adds Flow.  A name listed twice
	 *  is written once. */
	const char *const *tables;
	int32_t codec;                 /**< nxp_parquet_codec */
	int32_t level;                 /**< codec level, 0 = the codec's default */
	int32_t overwrite;             /**< nonzero: replace existing files; 0: NXP_E_INVAL if any exists */
	/** Called before each table is written (done = tables finished so far)
	 *  and once at the end (table NULL, done == total), on the calling thread.
	 *  With threads != 1 the calls before each table come from the worker
	 *  threads, one call at a time (never two at once; serialized by a lock),
	 *  in the order the tables start.  May be NULL. */
	void (*progress)(void *user, const char *table, int done, int total);
	void *progress_user;
	/** Threads writing at once (since 0.2, appended): 0 = the NXP_THREADS
	 *  environment variable when it holds a count > 0, else one per online
	 *  CPU; 1 = serial, every table on the calling thread, in table order
	 *  (except that the tables made from what the Instruction and DmaPacket
	 *  streams fed, the summary tables and ActiveTime, come after the others,
	 *  at any count).
	 *  The files are byte for byte the same at any count.  Each table being
	 *  written holds its own row group in memory, so peak memory grows with
	 *  the count (never more threads than tables). */
	int32_t threads;
	/** Where to report what was written (nxp_export_report); NULL = nowhere.
	 *  Since 0.2, appended. */
	nxp_export_report *report;
} nxp_export_options;

static inline void nxp_export_options_init(nxp_export_options *o)
{
	o->struct_size = sizeof(*o);
	o->tables = 0;
	o->codec = NXP_PARQUET_ZSTD;
	o->level = 0;
	o->overwrite = 0;
	o->progress = 0;
	o->progress_user = 0;
	o->threads = 0;
	o->report = 0;
}

/**
 * Write `DIR/<Table>.parquet` for every table of profile `p` that
 * nxp_profile_open_table() produces (the default set: all but Flow; or those
 * of opts->tables), with the key-value metadata schema_version=7.4.0,
 * libnxp_version and table.  `dir` is created if missing.  Before anything is
 * written, every target is checked: an existing file without opts->overwrite
 * fails with NXP_E_INVAL naming it.  Each file is written under a temporary
 * name and renamed (nxp_parquet_write), so a final name never holds a partial
 * file.
 *
 * Threads (opts->threads): each table is read through its own stream and
 * written to its own file, on up to that many threads at once, the costliest
 * tables started first (DmaPacket, Instruction, ...).  The one summary pass
 * behind Summary, OpcodeSummary and ThrottleSummary is made once, by the task
 * that writes those three tables.  The profile must not be closed until the
 * call returns.  Errors: every table is attempted except those after a failed
 * one in table order (they are skipped when they have not started yet); the
 * error returned is that of the first failing table in table order (the same
 * error a serial export returns).  Other tables may have been written
 * completely by then.
 * Since 0.2.
 * Errors: NXP_E_INVAL, NXP_E_IO, NXP_E_NOMEM, and the tables' read errors.
 */
NXP_API int nxp_profile_export_parquet(nxp_profile *p, const char *dir, const nxp_export_options *opts,
				       nxp_status *st);
/** The same for the system tables of a system-profile `path` (a file or a
 *  capture directory, see nxp_system_open_table()), plus SchemaFields. */
NXP_API int nxp_system_export_parquet(const char *path, const char *dir, const nxp_export_options *opts,
				      nxp_status *st);

/**
 * Export every device profile of a capture directory (nxp_capture_open()) as
 * Hive partitions, `DIR/<Table>/profile=<NTFF name>/part-0.parquet` (the NTFF's
 * file name without ".ntff", bytes outside [A-Za-z0-9._-] as '_', a repeated
 * name suffixed "_<profile index>"), and the capture's system tables plus
 * SchemaFields as `DIR/<Table>/part-0.parquet` (a system table the capture has
 * no file for is left out).  Read a table's partitions together with Hive
 * partitioning (DuckDB: read_parquet with hive_partitioning=true, see
 * doc/tables.md): the `profile` column names the rank.  Unpaired NEFF/NTFF are skipped (they are
 * among nxp_capture_problem()).  opts as nxp_profile_export_parquet(); progress
 * is reported per profile.  Width (opts->threads, resolved as in
 * nxp_export_options: 0 = NXP_THREADS or one per online CPU): with N profiles
 * and width W, min(N, W) profiles are exported at once, one open profile per
 * worker, and each profile's tables on W / min(N, W) threads (at least 1), so
 * no more than W threads write at once (several profiles: parallel over
 * profiles, tables serial inside each).  The system tables and SchemaFields
 * are written first, on W threads.  The files are byte for byte the same at
 * any width.  With several workers, progress is called from them, one call at
 * a time, and after an error in one profile (the first failing profile's
 * error is returned) later profiles may have been written.  opts->report sums
 * every profile's counts.  Since 0.2.
 * Errors: those of nxp_capture_open(), nxp_capture_open_profile() and
 * nxp_profile_export_parquet().
 */
NXP_API int nxp_capture_export_parquet(const char *capture_dir, const char *dir, const nxp_export_options *opts,
				       nxp_status *st);

#ifdef __cplusplus
}
#endif

#endif /* NXP_TABLE_H */
