/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/ntff.h
 * @brief NTFF device traces: open a NEFF/NTFF pair, read its Metadata, iterate
 *        its records with streaming time-ordered cursors; write NTFFs.
 *        Include <nxp/nxp.h>, not this file.
 *
 * The NTFF on-disk layout is not public.  libnxp reads and writes its own layout,
 * specified in doc/formats/ntff.md; all layout knowledge lives in
 * libnxp/ntff_layout.h and libnxp/ntff_layout.c.
 */
#ifndef NXP_PROFILE_H
#define NXP_PROFILE_H

#include <nxp/common.h>
#include <nxp/neff.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A NEFF/NTFF pair.  Read-only after open: shared by threads (see Cursors). */
typedef struct nxp_profile nxp_profile;
/** One table walk: one thread at a time; different cursors on different threads. */
typedef struct nxp_cursor nxp_cursor;

/** Flags for nxp_profile_options.flags. */
#define NXP_PROFILE_ALLOW_MISMATCH 0x1u /**< open even if the NEFF and NTFF UUIDs differ */
#define NXP_PROFILE_SKIP_CRC 0x2u       /**< do not verify section CRCs (faster, less safe) */

typedef struct nxp_profile_options {
	size_t struct_size;
	uint32_t flags;                     /**< NXP_PROFILE_* */
	const nxp_neff_options *neff;       /**< options for the NEFF, NULL = defaults */
	uint64_t max_section_size;          /**< largest NTFF section accepted (default 64 MiB) */
} nxp_profile_options;

static inline void nxp_profile_options_init(nxp_profile_options *o)
{
	o->struct_size = sizeof(*o);
	o->flags = 0;
	o->neff = 0;
	o->max_section_size = 0;
}

/**
 * Open a profile from two sources.  The NEFF source may be sequential; the NTFF
 * source must be seekable (NXP_E_UNSUPPORTED otherwise).  Both must outlive the
 * profile.
 * Errors: any of nxp_neff_open(); NXP_E_FORMAT (not an NTFF: bad magic, bad
 * section table), NXP_E_VERSION (layout version outside the supported range;
 * the message names the range), NXP_E_MISMATCH (UUIDs differ; the message names
 * both), NXP_E_TRUNCATED, NXP_E_CRC, NXP_E_IO, NXP_E_NOMEM.
 */
NXP_API int nxp_profile_open(nxp_profile **out, nxp_source *neff, nxp_source *ntff,
			     const nxp_profile_options *opts, nxp_status *st);
/** nxp_profile_open() on two files; the handle owns them. */
NXP_API int nxp_profile_open_path(nxp_profile **out, const char *neff_path, const char *ntff_path,
				  const nxp_profile_options *opts, nxp_status *st);
NXP_API void nxp_profile_close(nxp_profile *p);
NXP_API int nxp_profile_error(const nxp_profile *p, nxp_status *st);
/** The NEFF the profile was opened with (owned by the profile). */
NXP_API const nxp_neff *nxp_profile_neff(const nxp_profile *p);

/** Metadata table fields (and libnxp's layout facts).  Strings live as long as the profile. */
typedef struct nxp_metadata {
	size_t struct_size;
	const char *profile_schema_version; /**< the public schema version libnxp mirrors ("7.4.0") */
	int32_t ntff_version;               /**< public NTFF model version the file represents */
	int32_t layout_version;             /**< libnxp layout version of the file */
	int32_t num_physical_cores;
	int32_t vnc_enabled;                /**< 1 when LNC > 1 */
	int64_t first_hw_timestamp;         /**< ns */
	int64_t last_hw_timestamp;          /**< ns */
	double dma_ddr_bandwidth;           /**< bytes/s, 0 if unknown */
	int32_t num_dma_engines_per_neuroncore;
	double hbm_ddr_bandwidth;           /**< bytes/s */
	int64_t tensor_engine_num_rows;
	int64_t tensor_engine_num_cols;
	double tensor_engine_clock_freq;    /**< GHz */
	double vector_engine_clock_freq;
	int64_t vector_engine_num_channels;
	double scalar_engine_clock_freq;
	int64_t scalar_engine_num_channels;
	double gpsimd_engine_clock_freq;
	int64_t gpsimd_engine_num_channels;
	double neuroncore_clock_freq;
	int64_t ticks_per_nanosec;
	const char *arch;                   /**< "trn1", "inf2", "trn2", "trn3" */
	const char *instance_type;
	const char *runtime_version;
	const char *collectives_version;
	const char *driver_version;
	const char *compiler_version;
	const char *profile_name;
	int64_t neuroncore_idx;
	int64_t neuron_device_idx;
	int64_t capture_time_ns;            /**< Unix ns when captured, 0 if unknown */
	int32_t is_simulation;
	uint8_t neff_uuid[16];
	uint8_t neff_hash[32];
	int64_t trace_count;                /**< all notifications */
	int64_t event_count;                /**< all but instruction notifications */
	int64_t tpb_start_ts;               /**< first TPB start (ns), or INT64_MIN if none */
	int64_t tpb_stop_ts;                /**< last TPB stop (ns), or INT64_MIN if none */
	int64_t unknown_sections;           /**< sections of kinds this libnxp does not know (skipped) */
	/** TPB start/stop records and sections that failed their checks at open
	 *  and were skipped; when non-zero, tpb_start_ts / tpb_stop_ts may come
	 *  from the surviving records or be INT64_MIN. */
	int64_t tpb_damaged;
} nxp_metadata;

/** Errors: NXP_E_INVAL. */
NXP_API int nxp_profile_get_metadata(const nxp_profile *p, nxp_metadata *out);

/* ------------------------------------------------------------------------ */
/** @name Records (public table field names; times are int64 ns) */
/**@{*/

/** Tables a cursor can walk (numbers are ABI). */
typedef enum nxp_table {
	NXP_TABLE_INSTRUCTION = 1,
	NXP_TABLE_DMA_PACKET = 2,
	NXP_TABLE_SEMAPHORE_UPDATE = 3,
	NXP_TABLE_THROTTLE = 4,
	NXP_TABLE_ERROR = 5,
	NXP_TABLE_EXECUTION = 6,
	NXP_TABLE_ACTIVE_TIME = 7, /**< merged busy intervals per engine (see summary.h) */
} nxp_table;

/** Instruction table row.  Strings live as long as the profile. */
typedef struct nxp_instruction {
	size_t struct_size;
	int64_t start_ts, end_ts, duration_ns;
	const char *engine;       /**< "tensor", "vector", "scalar", "gpsimd", "sync" */
	int32_t engine_id;        /**< nxp_engine */
	int64_t pcore_idx;
	const char *opcode;
	uint32_t opcode_num;
	const char *operands;
	int64_t id;               /**< row number in the instruction table (time order; see nxp_cursor_open) */
	int64_t pc;
	int64_t evt_wait_time_ns; /**< time waiting on semaphores before issue */
	int32_t execution_index;  /**< -1 if the trace has no executions */
	int64_t hbm_read_bytes, hbm_write_bytes;
	int64_t sbuf_read_bytes, sbuf_write_bytes;
	int64_t spill_save_bytes, spill_reload_bytes;
	int64_t psum_read_bytes, psum_write_bytes, psum_read_sbuf_write_bytes;
	const char *tensor_instruction_type; /**< "MATMUL", "TRANSPOSE", "LDWEIGHTS" or "" */
	/* A transpose (tensor_instruction_type "TRANSPOSE") reports its elements and
	 * FLOPs only in the *_transpose fields (tensor_elements, raw_flops and
	 * adjusted_flops are 0), so sums over the table never count them twice.
	 * adjusted = raw × the BF16-equivalent multiplier of the input dtype on the
	 * profile's arch. */
	int64_t tensor_elements;
	int64_t raw_flops, adjusted_flops;
	int64_t tensor_elements_transpose, flops_transpose, adjusted_flops_transpose;
	const char *scalar_activation_fn;
	const char *performance_mode; /**< "" unless 2x/4x */
	uint32_t flags;               /**< NXP_INSTRUCTION_* */
} nxp_instruction;

#define NXP_INSTRUCTION_PC_UNKNOWN 0x1u /**< pc is not in the NEFF: static fields are empty */

/** DmaPacket table row. */
typedef struct nxp_dma_packet {
	size_t struct_size;
	int64_t start_ts, end_ts, duration_ns;
	int64_t pcore_idx;
	int64_t id;                    /**< row number in the DMA table (time order) */
	int32_t packet_idx;
	int64_t packet_aggregation_id;
	int64_t engine_idx;
	int64_t read_bytes, write_bytes, transfer_bytes;
	double throughput;             /**< bytes per second */
	const char *queue_type;        /**< DmaQueueType */
	const char *variable;          /**< tensor name or "unknown" */
	const char *queue_name;
	int64_t queue_idx;
	int64_t crc;
	int32_t execution_index;
	const char *source;            /**< memory read: "hbm", "sbuf", "psum" or "" */
	const char *dest;              /**< memory written */
} nxp_dma_packet;

/** SemaphoreUpdate table row. */
typedef struct nxp_semaphore_update {
	size_t struct_size;
	int64_t timestamp;
	const char *id;                   /**< "S[15]" */
	int32_t semaphore_idx;            /**< 15 */
	int32_t value;                    /**< value after the update */
	const char *update_source;        /**< engine name that updated it */
	int32_t double_set_or_clear;
	int32_t update_mode;
	const char *update_operation_type; /**< "set", "increment", "decrement", "clear" */
	const char *update_trigger_timing; /**< "start" or "complete" */
	int64_t pcore_idx;
} nxp_semaphore_update;

/** Throttle table row. */
typedef struct nxp_throttle {
	size_t struct_size;
	int64_t timestamp;
	int64_t duration; /**< ns */
	int32_t k, n;     /**< utilisation limited to k/n */
	const char *type; /**< e.g. "power", "thermal" */
	int64_t pcore_idx;
} nxp_throttle;

/** Error table row. */
typedef struct nxp_error_record {
	size_t struct_size;
	int64_t timestamp;
	const char *type;        /**< ErrorType: "Custom Notification", "Errors", "Warnings" */
	int32_t error_type_id;
	const char *description;
	const char *metadata;
	const char *metadata_hex;
	int64_t pcore_idx;
} nxp_error_record;

/** ExecutionInfo table row. */
typedef struct nxp_execution {
	size_t struct_size;
	int32_t execution_index;
	const char *neff_name;
	int64_t execution_start_ts, execution_end_ts;
	int32_t num_subgraphs;
	int64_t row_count;   /**< notifications inside the execution, -1 if unknown */
	int64_t pcore_idx;
} nxp_execution;

/** ActiveTime table row. */
typedef struct nxp_active_time {
	size_t struct_size;
	int64_t start_ts, end_ts, duration_ns;
	const char *engine;  /**< engine name, or "dma" */
	int32_t engine_id;   /**< nxp_engine, or -1 for DMA */
	int64_t pcore_idx;
} nxp_active_time;
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name Cursors
 * A cursor walks one table in time order across all notification queues
 * (k-way merge: memory is bounded by the number of queues, never by the trace).
 * Several cursors may be open on one profile at once.
 *
 * Threads (since 0.2): an open profile is read-only.  Cursors, Arrow streams
 * (nxp_profile_open_table), nxp_profile_summarize and the exports may run on
 * different threads over ONE profile at the same time, each with its own
 * cursor/stream: the NTFF is read with positioned reads (pread; a callback
 * source is serialised by a lock inside its nxp_source), and every cursor has
 * its own buffers, counters and error.  One cursor is used by one thread at a
 * time.  nxp_profile_close only after every cursor and stream of the profile
 * is closed and no call on it is running.  Record strings stay valid for the
 * profile's lifetime whichever thread read them.
 */
/**@{*/
typedef struct nxp_cursor_options {
	size_t struct_size;
	int64_t start_ts;       /**< only records with start >= start_ts (INT64_MIN = no bound) */
	int64_t end_ts;         /**< only records with start < end_ts (INT64_MAX = no bound).
				     ActiveTime intervals are clipped to [start_ts, end_ts). */
	int32_t engine;         /**< nxp_engine, -1 = all (instruction, active time) */
	int64_t pcore_idx;      /**< -1 = all */
	const char *queue_name; /**< DMA queue name, NULL = all */
} nxp_cursor_options;

static inline void nxp_cursor_options_init(nxp_cursor_options *o)
{
	o->struct_size = sizeof(*o);
	o->start_ts = INT64_MIN;
	o->end_ts = INT64_MAX;
	o->engine = -1;
	o->pcore_idx = -1;
	o->queue_name = 0;
}

/** Counters of one cursor. */
typedef struct nxp_cursor_stats {
	size_t struct_size;
	int64_t records;          /**< records returned */
	int64_t bad_records;      /**< records that failed their checks and were skipped */
	int64_t skipped_sections; /**< sections skipped (bad CRC, unknown kind) */
	int64_t bytes_read;       /**< NTFF bytes read by this cursor */
	int64_t last_bad_offset;  /**< byte offset of the last bad record/section, -1 if none */
	int64_t unknown_pcs;      /**< instruction records whose pc is not in the NEFF (returned with
				       NXP_INSTRUCTION_PC_UNKNOWN) */
} nxp_cursor_stats;

/**
 * Open a cursor on `table`.  Errors: NXP_E_INVAL (unknown table, bad options),
 * NXP_E_NOMEM, NXP_E_IO.
 */
NXP_API int nxp_cursor_open(nxp_cursor **out, nxp_profile *p, int table, const nxp_cursor_options *opts,
			    nxp_status *st);
NXP_API void nxp_cursor_close(nxp_cursor *c);
NXP_API int nxp_cursor_error(const nxp_cursor *c, nxp_status *st);
/** The table the cursor walks. */
NXP_API int nxp_cursor_table(const nxp_cursor *c);

/**
 * Next record.  The typed functions require a cursor of the matching table
 * (NXP_E_INVAL otherwise).  Return 0 with `rec` filled, NXP_END at the end, or a
 * negative error (NXP_E_CRC, NXP_E_TRUNCATED, NXP_E_FORMAT, NXP_E_IO) after
 * which the cursor stays in error.  A record that fails its checks is skipped
 * and counted (nxp_cursor_get_stats) — not returned, not fatal.
 */
NXP_API int nxp_cursor_next_instruction(nxp_cursor *c, nxp_instruction *rec);
NXP_API int nxp_cursor_next_dma_packet(nxp_cursor *c, nxp_dma_packet *rec);
NXP_API int nxp_cursor_next_semaphore_update(nxp_cursor *c, nxp_semaphore_update *rec);
NXP_API int nxp_cursor_next_throttle(nxp_cursor *c, nxp_throttle *rec);
NXP_API int nxp_cursor_next_error(nxp_cursor *c, nxp_error_record *rec);
NXP_API int nxp_cursor_next_execution(nxp_cursor *c, nxp_execution *rec);
NXP_API int nxp_cursor_next_active_time(nxp_cursor *c, nxp_active_time *rec);

/**
 * Fill up to `max` records of the cursor's table into `records`, an array of
 * structs of `record_size` bytes each (the struct_size of each is set).  Sets
 * `*count`.  Returns 0 if at least one record was stored, NXP_END when none
 * were, or a negative error (records stored before it are kept in *count).
 * The fastest way to read a table: the argument checks of the typed functions
 * are done once per call rather than once per record (bench/bench_ntff uses 64).
 */
NXP_API int nxp_cursor_next_batch(nxp_cursor *c, void *records, size_t record_size, size_t max, size_t *count);

/** Position the cursor at the first record with start time >= ts, without
 *  decoding the records before it (the section index is used).
 *  Errors: NXP_E_IO, NXP_E_FORMAT. */
NXP_API int nxp_cursor_seek(nxp_cursor *c, int64_t ts);
/** Start time (ns) of the next record in the merge, or INT64_MAX at the end.
 *  It is the start of the record the next call returns unless that record then
 *  fails its checks and is skipped (see nxp_cursor_get_stats): a lower bound. */
NXP_API int64_t nxp_cursor_position(nxp_cursor *c);
NXP_API int nxp_cursor_get_stats(const nxp_cursor *c, nxp_cursor_stats *out);
/**@}*/

/* ------------------------------------------------------------------------ */
/** @name NTFF writer (since 0.1)
 * Custom profilers and simulators emit traces with it; it produces exactly what
 * the reader accepts.  Notifications are given in device ticks.  Records of one
 * queue must be appended in non-decreasing start time (NXP_E_RANGE otherwise);
 * queues may be interleaved freely.  Memory: one chunk buffer per queue.
 */
/**@{*/
typedef struct nxp_ntff_writer nxp_ntff_writer;

/** Kinds of notification queue (numbers are part of the file format). */
typedef enum nxp_queue_kind {
	NXP_QUEUE_INSTRUCTION = 1, /**< one per engine per physical core */
	NXP_QUEUE_DMA = 2,         /**< one per DMA queue instance */
	NXP_QUEUE_SEMAPHORE = 3,   /**< one per physical core */
	NXP_QUEUE_THROTTLE = 4,
	NXP_QUEUE_ERROR = 5,
	NXP_QUEUE_EXECUTION = 6,
	NXP_QUEUE_TPB = 7,         /**< TPB start/stop */
} nxp_queue_kind;

#define NXP_NTFF_WRITE_COMPRESS 0x1u /**< zlib-compress each section */

typedef struct nxp_ntff_writer_options {
	size_t struct_size;
	uint32_t flags;               /**< NXP_NTFF_WRITE_* */
	uint32_t records_per_section; /**< 0 = default (8192) */
	int32_t compression_level;    /**< zlib level, -1 = default */
} nxp_ntff_writer_options;

static inline void nxp_ntff_writer_options_init(nxp_ntff_writer_options *o)
{
	o->struct_size = sizeof(*o);
	o->flags = 0;
	o->records_per_section = 0;
	o->compression_level = -1;
}

/** Profile-wide facts written into the file.  Strings are copied. */
typedef struct nxp_ntff_info {
	size_t struct_size;
	uint8_t neff_uuid[16];
	uint8_t neff_hash[32];
	int32_t ntff_version;   /**< public model version represented (default 6) */
	int64_t ticks_per_nanosec;
	int32_t num_physical_cores;
	const char *arch, *instance_type, *runtime_version, *collectives_version, *driver_version,
		*compiler_version, *profile_name;
	double tensor_engine_clock_freq, vector_engine_clock_freq, scalar_engine_clock_freq,
		gpsimd_engine_clock_freq, neuroncore_clock_freq; /**< GHz */
	int64_t tensor_engine_num_rows, tensor_engine_num_cols;
	int64_t vector_engine_num_channels, scalar_engine_num_channels, gpsimd_engine_num_channels;
	int32_t num_dma_engines_per_neuroncore;
	double dma_ddr_bandwidth, hbm_ddr_bandwidth; /**< bytes/s */
	int64_t neuroncore_idx, neuron_device_idx;
	int64_t capture_time_ns;
	int32_t is_simulation;
} nxp_ntff_info;

static inline void nxp_ntff_info_init(nxp_ntff_info *i)
{
	size_t k;
	unsigned char *p = (unsigned char *)i;
	for (k = 0; k < sizeof(*i); k++)
		p[k] = 0;
	i->struct_size = sizeof(*i);
	i->ntff_version = 6;
	i->ticks_per_nanosec = 1;
	i->num_physical_cores = 1;
}

/** A notification queue. */
typedef struct nxp_ntff_queue {
	size_t struct_size;
	int32_t kind;           /**< nxp_queue_kind */
	int32_t engine;         /**< nxp_engine for instruction queues, else -1 */
	int32_t pcore_idx;
	const char *name;       /**< DMA queue name (as in the NEFF's def.json), else NULL */
	int32_t queue_idx;      /**< DMA queue instance index */
	int32_t engine_idx;     /**< DMA engine index */
} nxp_ntff_queue;

static inline void nxp_ntff_queue_init(nxp_ntff_queue *q)
{
	q->struct_size = sizeof(*q);
	q->kind = 0;
	q->engine = -1;
	q->pcore_idx = 0;
	q->name = 0;
	q->queue_idx = 0;
	q->engine_idx = 0;
}

/** Raw notifications, in device ticks.
 *
 *  Frozen layouts: the nxp_ntff_*_note structs have no struct_size (the writer
 *  takes millions of them per trace) and never change.  A note that needs a new
 *  field gets a new struct and a new nxp_ntff_writer_* function; the old pair
 *  stays.
 *
 *  String ids: a string id is a uint32_t (the byte offset in the file's string
 *  table, 0 = the empty string), which is what the notes store.
 *  nxp_ntff_writer_string() returns it as an int64_t only so that a negative
 *  error can be told apart; a non-negative result is always <= UINT32_MAX (the
 *  writer refuses a string table over 4 GiB with NXP_E_LIMIT), so storing it in
 *  a note's uint32_t field never truncates. */
typedef struct nxp_ntff_instruction_note {
	uint64_t start_tick, end_tick;
	uint32_t pc;
	uint32_t wait_ticks;      /**< semaphore wait before issue */
	int32_t execution_index;  /**< -1 if none */
} nxp_ntff_instruction_note;

typedef struct nxp_ntff_dma_note {
	uint64_t start_tick, end_tick;
	uint32_t packet_aggregation_id; /**< DMA transfer (descriptor set) this packet belongs to */
	uint32_t packet_idx;
	uint32_t read_bytes, write_bytes;
	uint32_t crc;
	uint16_t flags;                 /**< NXP_DMA_* */
	uint8_t source, dest;           /**< nxp_memory */
	int32_t execution_index;
	uint32_t variable;              /**< string id from nxp_ntff_writer_string(), 0 = unknown */
} nxp_ntff_dma_note;

#define NXP_DMA_SOFTWARE_DYNAMIC 0x1u /**< GPSIMD-generated */
#define NXP_DMA_HARDWARE_DYNAMIC 0x2u /**< DGE-generated */

typedef struct nxp_ntff_semaphore_note {
	uint64_t tick;
	uint16_t semaphore_idx;
	uint8_t update_source;    /**< nxp_engine */
	uint8_t operation;        /**< 0 set, 1 increment, 2 decrement, 3 clear */
	int32_t value;
	uint8_t trigger_complete; /**< 1 = on completion, 0 = at start */
	uint8_t double_set_or_clear;
	uint8_t update_mode;
} nxp_ntff_semaphore_note;

typedef struct nxp_ntff_throttle_note {
	uint64_t tick, duration_ticks;
	uint16_t k, n;
	uint32_t type; /**< string id */
} nxp_ntff_throttle_note;

typedef struct nxp_ntff_error_note {
	uint64_t tick;
	int32_t error_type_id;
	uint8_t type;            /**< 0 Custom Notification, 1 Errors, 2 Warnings */
	uint32_t description;    /**< string id */
	uint64_t metadata;       /**< raw metadata word */
} nxp_ntff_error_note;

typedef struct nxp_ntff_execution_note {
	uint64_t start_tick, end_tick;
	int32_t execution_index;
	int32_t num_subgraphs;
	uint32_t neff_name;      /**< string id */
	int64_t row_count;
} nxp_ntff_execution_note;

typedef struct nxp_ntff_tpb_note {
	uint64_t tick;
	uint8_t is_stop;         /**< 0 start, 1 stop */
} nxp_ntff_tpb_note;

/** Create a writer to a file.  Errors: NXP_E_INVAL, NXP_E_IO, NXP_E_NOMEM. */
NXP_API int nxp_ntff_writer_open_path(nxp_ntff_writer **out, const char *path, const nxp_ntff_info *info,
				      const nxp_ntff_writer_options *opts, nxp_status *st);
/** Intern a string; returns its id (> 0) or a negative error. */
NXP_API int64_t nxp_ntff_writer_string(nxp_ntff_writer *w, const char *s);
/** Declare a queue; returns its id (>= 0) or a negative error. */
NXP_API int32_t nxp_ntff_writer_add_queue(nxp_ntff_writer *w, const nxp_ntff_queue *q);
/** Append one notification to a queue of the matching kind.
 *  Errors: NXP_E_INVAL (wrong queue kind), NXP_E_RANGE (time goes backwards), NXP_E_IO. */
NXP_API int nxp_ntff_writer_instruction(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_instruction_note *n);
NXP_API int nxp_ntff_writer_dma(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_dma_note *n);
NXP_API int nxp_ntff_writer_semaphore(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_semaphore_note *n);
NXP_API int nxp_ntff_writer_throttle(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_throttle_note *n);
NXP_API int nxp_ntff_writer_error(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_error_note *n);
NXP_API int nxp_ntff_writer_execution(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_execution_note *n);
NXP_API int nxp_ntff_writer_tpb(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_tpb_note *n);
/** Flush all queues and write the index and footer.  Errors: NXP_E_IO. */
NXP_API int nxp_ntff_writer_finish(nxp_ntff_writer *w);
/** Close (a writer not finished leaves an incomplete file the reader refuses). */
NXP_API void nxp_ntff_writer_close(nxp_ntff_writer *w);
NXP_API int nxp_ntff_writer_error_status(const nxp_ntff_writer *w, nxp_status *st);
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
#define NXP_PROFILE_OPTIONS_SIZE_V0_1 (offsetof(nxp_profile_options, max_section_size) + sizeof(((nxp_profile_options *)0)->max_section_size)) /**< 32 on LP64 */
#define NXP_METADATA_SIZE_V0_1 (offsetof(nxp_metadata, tpb_damaged) + sizeof(((nxp_metadata *)0)->tpb_damaged)) /**< 344 on LP64 */
#define NXP_INSTRUCTION_SIZE_V0_1 (offsetof(nxp_instruction, flags) + sizeof(((nxp_instruction *)0)->flags)) /**< 260 on LP64 */
#define NXP_DMA_PACKET_SIZE_V0_1 (offsetof(nxp_dma_packet, dest) + sizeof(((nxp_dma_packet *)0)->dest)) /**< 168 on LP64 */
#define NXP_SEMAPHORE_UPDATE_SIZE_V0_1 (offsetof(nxp_semaphore_update, pcore_idx) + sizeof(((nxp_semaphore_update *)0)->pcore_idx)) /**< 72 on LP64 */
#define NXP_THROTTLE_SIZE_V0_1 (offsetof(nxp_throttle, pcore_idx) + sizeof(((nxp_throttle *)0)->pcore_idx)) /**< 48 on LP64 */
#define NXP_ERROR_RECORD_SIZE_V0_1 (offsetof(nxp_error_record, pcore_idx) + sizeof(((nxp_error_record *)0)->pcore_idx)) /**< 64 on LP64 */
#define NXP_EXECUTION_SIZE_V0_1 (offsetof(nxp_execution, pcore_idx) + sizeof(((nxp_execution *)0)->pcore_idx)) /**< 64 on LP64 */
#define NXP_ACTIVE_TIME_SIZE_V0_1 (offsetof(nxp_active_time, pcore_idx) + sizeof(((nxp_active_time *)0)->pcore_idx)) /**< 56 on LP64 */
#define NXP_CURSOR_OPTIONS_SIZE_V0_1 (offsetof(nxp_cursor_options, queue_name) + sizeof(((nxp_cursor_options *)0)->queue_name)) /**< 48 on LP64 */
#define NXP_CURSOR_STATS_SIZE_V0_1 (offsetof(nxp_cursor_stats, unknown_pcs) + sizeof(((nxp_cursor_stats *)0)->unknown_pcs)) /**< 56 on LP64 */
#define NXP_NTFF_WRITER_OPTIONS_SIZE_V0_1 (offsetof(nxp_ntff_writer_options, compression_level) + sizeof(((nxp_ntff_writer_options *)0)->compression_level)) /**< 20 on LP64 */
#define NXP_NTFF_INFO_SIZE_V0_1 (offsetof(nxp_ntff_info, is_simulation) + sizeof(((nxp_ntff_info *)0)->is_simulation)) /**< 268 on LP64 */
#define NXP_NTFF_QUEUE_SIZE_V0_1 (offsetof(nxp_ntff_queue, engine_idx) + sizeof(((nxp_ntff_queue *)0)->engine_idx)) /**< 40 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_PROFILE_H */
