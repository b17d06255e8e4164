/* SPDX-License-Identifier: MIT */
/* Private interface of the columnar module: the column registry (one
 * descriptor per table, table_schema.c), the Arrow builders (arrow_build.c),
 * and the generic record-batch stream every table is produced through
 * (table_stream.c).  Each table kind fills rows through a `fill` callback. */
#ifndef NXP_COLUMNAR_PRIV_H
#define NXP_COLUMNAR_PRIV_H

#include <nxp/nxp.h>
#include <nxp/table.h>

#include <stddef.h>
#include <stdint.h>

/* Arrow types a column is produced as. */
enum nxc_type {
	NXC_I64 = 0,  /* "l" */
	NXC_I32 = 1,  /* "i" */
	NXC_F64 = 2,  /* "g" */
	NXC_BOOL = 3, /* "b" */
	NXC_UTF8 = 4, /* "u" */
	NXC_DICT = 5, /* "i" indices, dictionary "u" */
};

/* Where a device-table column comes from in the cursor's record struct. */
enum nxc_src {
	NXS_NONE = 0, /* not a record field (row tables) */
	NXS_I64,
	NXS_I32,
	NXS_U32,
	NXS_F64,
	NXS_STR,
};

/* When a value of an optional column is absent (null). */
enum nxc_nullif {
	NXN_NEVER = 0,
	NXN_NEG,        /* the integer is < 0 */
	NXN_EMPTY,      /* the string is NULL or "" */
	NXN_PC_UNKNOWN, /* instruction whose pc is not in the NEFF (static fields unknown) */
	NXN_EMPTY_OR_PC_UNKNOWN,
};

typedef struct nxc_col {
	const char *name;
	uint8_t type;     /* nxc_type */
	uint8_t required; /* 1: non-nullable */
	uint8_t extension;/* 1: libnxp's column, not in the public schema */
	uint8_t src;      /* nxc_src (device tables) */
	uint8_t nullif;   /* nxc_nullif (device tables) */
	uint8_t neff;     /* 1: the value comes from the NEFF join (Instruction) */
	uint16_t off;     /* offset of the field in the record struct */
	const char *unit; /* "nanoseconds", "bytes", ... or "" */
	const char *desc;
} nxc_col;

enum nxc_kind {
	NXC_KIND_DEVICE = 1,  /* a cursor table of a profile */
	NXC_KIND_PROFILE = 2, /* computed from a profile (static, derived, Warning) */
	NXC_KIND_SCHEMA = 3,  /* SchemaFields: needs nothing */
	NXC_KIND_SYSTEM = 4,  /* from a system profile path */
};

struct nxc_stream;
typedef struct nxc_table {
	const char *name;
	int kind;          /* nxc_kind */
	int cursor_table;  /* nxp_table for device tables */
	size_t rec_size;   /* record struct size for device tables */
	const nxc_col *cols;
	int ncols;
	/* Opens the row source of profile/system tables: sets s->fill, s->ctx, s->free_ctx. */
	int (*open)(struct nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st);
} nxc_table;

/* Every table libnxp produces, in nxp_table_name() order; then NULL. */
extern const nxc_table *const nxc_tables[];
const nxc_table *nxc_find_table(const char *name);
int nxc_col_index(const nxc_table *t, const char *name);
const char *nxc_type_name(int type); /* "int64", "int32", "float64", "bool", "utf8", "dictionary<int32, utf8>" */

/* ---- growable buffers and one column's builder ---- */
typedef struct nxc_buf {
	uint8_t *p;
	size_t len, cap;
} nxc_buf;

int nxc_buf_reserve(nxc_buf *b, size_t extra);

typedef struct nxc_dict nxc_dict;
/* Buffers of released batches, handed to the next batches of the same
 * builder (arrow_build.c): shared by the builder and every column array it
 * gave out, freed with the last of them; thread-safe. */
typedef struct nxc_pool nxc_pool;

typedef struct nxc_colbuf {
	const nxc_col *col;
	int type;
	nxc_buf data;     /* values; utf8: characters; dict: int32 indices; bool: bits */
	nxc_buf offsets;  /* utf8: int32 offsets (length + 1) */
	nxc_buf validity; /* allocated at the first null */
	int64_t length, null_count;
	nxc_dict *dict;
	int stable_strings; /* strings appended keep their address and content for the batch
			       (profile strings): dictionary lookups may go by pointer */
	const char *memo_s[16]; /* dict + stable_strings: strings appended lately (by address, */
	int32_t memo_i[16];     /* direct-mapped) and their indices; reset with the dictionary */
	size_t hint[3];     /* data, offsets, validity capacity at the last batch's end (reuse) */
	nxc_pool *pool;     /* the builder's, or NULL */
} nxc_colbuf;

/* The projected columns of one batch being built. */
typedef struct nxc_builder {
	nxc_colbuf *cols; /* in output order */
	int ncols;
	int *colmap;      /* table column index -> output index, -1 when not projected */
	int64_t rows;     /* rows appended to this batch */
	int nomem;        /* an append ran out of memory */
	nxc_pool *pool;   /* recycled buffers of the released batches */
	int stale;        /* finished: nxc_builder_begin() before the next appends */
} nxc_builder;

/* Row-wise appends by table column index (ignored when not projected).
 * Each row appends to every projected column, then nxc_end_row(). */
void nxc_put_i64(nxc_builder *b, int col, int64_t v);
void nxc_put_f64(nxc_builder *b, int col, double v);
void nxc_put_bool(nxc_builder *b, int col, int v);
void nxc_put_str(nxc_builder *b, int col, const char *s);
void nxc_put_null(nxc_builder *b, int col);
void nxc_end_row(nxc_builder *b);

/* Column-wise: reserve room for `n` more rows in column `c`. */
int nxc_col_reserve(nxc_colbuf *c, int64_t n);
int nxc_col_append_i64(nxc_colbuf *c, int64_t v);
int nxc_col_append_f64(nxc_colbuf *c, double v);
int nxc_col_append_bool(nxc_colbuf *c, int v);
int nxc_col_append_str(nxc_colbuf *c, const char *s);
int nxc_col_append_null(nxc_colbuf *c);
/* Bulk appends of n rows.  `valid` NULL: every row valid; a null row appends
 * what nxc_col_append_null would (its value is ignored).  i64s: to an int64,
 * int32 (truncated) or float64 column; strs: to a utf8 or dictionary column
 * (dictionary indices as nxc_col_append_str's). */
int nxc_col_put_i64s(nxc_colbuf *c, const int64_t *v, const uint8_t *valid, size_t n);
int nxc_col_put_f64s(nxc_colbuf *c, const double *v, size_t n);
int nxc_col_put_bools(nxc_colbuf *c, const uint8_t *v, size_t n);
int nxc_col_put_strs(nxc_colbuf *c, const char *const *v, const uint8_t *valid, size_t n);
/* Dictionary columns whose strings come from a few codes: the index of `s`
 * in this batch's dictionary (added if new; >= 0, else NXP_E_NOMEM or
 * NXP_E_INVAL for a column that is not a dictionary), then the rows' indices
 * written in place (an index is looked up when its code is first met in row
 * order, so the dictionary is the one nxc_col_put_strs would build):
 * nxc_col_indices_direct is room for n indices (NULL when c is not a
 * dictionary column or out of memory; nxc_col_dict_index leaves it in place),
 * nxc_col_indices_commit appends them (`valid` as above; a null row's index
 * must be 0). */
int32_t nxc_col_dict_index(nxc_colbuf *c, const char *s);
int32_t *nxc_col_indices_direct(nxc_colbuf *c, size_t n);
int nxc_col_indices_commit(nxc_colbuf *c, const uint8_t *valid, size_t n);
/* Room for n more int64 values written in place: a pointer to them when c is
 * an int64 column without a validity bitmap (then nxc_col_commit(c, n) once
 * they are written), else NULL (use nxc_col_put_i64s).  NULL with c->nomem
 * unchanged also when out of memory: the bulk append then reports it. */
int64_t *nxc_col_i64_direct(nxc_colbuf *c, size_t n);
void nxc_col_commit(nxc_colbuf *c, size_t n);
/* Append row `row` of `src` (same type) to `dst`. */
int nxc_col_copy(nxc_colbuf *dst, const nxc_colbuf *src, int64_t row);

/* Set up / reset a builder for a new batch (fresh buffers). */
int nxc_builder_init(nxc_builder *b, const nxc_table *t, const int *proj, int nproj);
void nxc_builder_free(nxc_builder *b);
/* Move the built buffers into `out` (a struct array of the projected columns);
 * the builder is then stale.  Returns 0 or NXP_E_NOMEM. */
int nxc_builder_finish(nxc_builder *b, struct ArrowArray *out);
/* Start an empty batch after nxc_builder_finish (no-op otherwise): 0 or
 * NXP_E_NOMEM. */
int nxc_builder_begin(nxc_builder *b);
/* The struct schema of the projection. */
int nxc_schema_make(struct ArrowSchema *out, const nxc_table *t, const int *proj, int nproj);

/* ---- the generic stream ---- */
/* An export's feeds: an Instruction or DmaPacket stream read whole hands
 * its good records to the summary feed (summary_feed.h) and to the
 * ActiveTime feed (ntff_priv.h); the summary tables and ActiveTime are then
 * made from them instead of reading both tables again. */
typedef struct nxc_feeds {
	struct nxp__sum_feed *sum;
	struct ntff_at_feed *at;
} nxc_feeds;

typedef struct nxc_stream {
	const nxc_table *t;
	int *proj;
	int nproj;
	int64_t batch_rows;
	nxp_table_options opts;
	nxc_builder b;
	/* Append up to `max` rows to s->b.  Return the rows appended (> 0), 0 at
	 * the end, or a negative nxp_error with s->err set. */
	int64_t (*fill)(struct nxc_stream *s, int64_t max);
	void (*free_ctx)(void *ctx);
	void *ctx;
	int needs_neff;  /* a projected column comes from the NEFF join */
	/* The export's summary pass, shared by Summary, OpcodeSummary and
	 * ThrottleSummary (borrowed; NULL: each runs its own). */
	nxp_summary *shared_sum;
	/* The export's feeds (borrowed; NULL members: none). */
	nxc_feeds feeds;
	int done;
	char err[NXP_STATUS_MESSAGE_MAX];
} nxc_stream;

void nxc_stream_error(nxc_stream *s, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Opens a stream on table `t` (any kind) from profile `p` or system `path`. */
int nxc_open_stream(struct ArrowArrayStream *out, const nxc_table *t, nxp_profile *p, const char *path,
		    const nxp_table_options *opts, nxp_status *st);
/* The same with a summary pass already made (borrowed: it must outlive the
 * open; the summary tables copy their rows at open) and an export's feeds
 * (borrowed: they must outlive the stream); either may be NULL. */
int nxc_open_stream_sum(struct ArrowArrayStream *out, const nxc_table *t, nxp_profile *p, const char *path,
			const nxp_table_options *opts, nxp_summary *sum, const nxc_feeds *feeds, nxp_status *st);
/* 1 when table `t` is filled from the summary pass. */
int nxc_table_uses_summary(const nxc_table *t);

/* Row sources of the kinds (set s->fill/ctx). */
int nxc_device_open(nxc_stream *s, nxp_profile *p, nxp_status *st);
int nxc_schema_fields_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st);
int nxc_warning_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st);

/* Table descriptors defined by their own files. */
extern const nxc_table nxc_table_schema_fields, nxc_table_warning;
extern const nxc_table nxc_table_flow; /* flow_table.c: the dependency edges */
extern const nxc_table nxc_table_neff_header, nxc_table_tensor_info, nxc_table_dma_queues_info;
extern const nxc_table nxc_table_opcode_summary, nxc_table_throttle_summary, nxc_table_metadata;
/* Summary's columns are the summary fields, known at run time: filled once by
 * nxc_registry_init(), which every entry point calls before using nxc_tables. */
extern nxc_table nxc_table_summary;
void nxc_registry_init(void);
extern const nxc_table nxc_table_system_events, nxc_table_system_metadata, nxc_table_cpu_usage,
	nxc_table_host_mem_usage;

/* A helper for tables whose rows are computed at open: `rows` fills s->b with
 * every row; they are kept aside and handed out batch_rows at a time. */
typedef int (*nxc_rows_fn)(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st);
int nxc_rows_open(nxc_stream *s, nxc_rows_fn rows, nxp_profile *p, const char *path, nxp_status *st);

/* ---- export.c: where an export's CPU went (bench_columnar --export) ---- */
/* One entry per task: the summary tables share one task (one summary pass). */
typedef struct nxp__export_timing {
	int n;                 /* tasks */
	const char *table[64]; /* the task's first table (the summary task: the first summary table) */
	double cpu_s[64];      /* its CPU seconds (the thread's clock) */
	int thread[64];        /* 0, 1, ...: the threads it ran on, numbered in task order */
} nxp__export_timing;
/* nxp_profile_export_parquet, and each task's CPU time and thread into *timing. */
int nxp__profile_export_parquet_timed(nxp_profile *p, const char *dir, const nxp_export_options *opts,
				      nxp__export_timing *timing, nxp_status *st);

#endif
