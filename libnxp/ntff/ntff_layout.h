/* SPDX-License-Identifier: MIT */
/* libnxp's NTFF layout, version 1 — ALL on-disk knowledge of the trace file
 * lives here and in ntff_layout.c (specified in doc/formats/ntff.md).
 *
 * The real NTFF layout is not public; this is libnxp's own.  A verified real
 * layout would be added beside it as another set of encode/decode functions.
 *
 * Everything is little-endian and decoded with explicit byte loads (never a
 * cast of file bytes to a struct).  Decoders of fixed-size records are static
 * inline so the cursor's inner loop is a bounds check and a few loads. */
#ifndef NXP_NTFF_LAYOUT_H
#define NXP_NTFF_LAYOUT_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- sizes and magic numbers ---------------------------------------------- */
#define NTFF_MAGIC "NXPNTFF\0"        /* 8 bytes; not a Neuron magic */
#define NTFF_FOOTER_MAGIC "NXPNTEND"  /* 8 bytes */
#define NTFF_SECTION_MAGIC 0x5350584eu /* "NXPS" */
#define NTFF_LAYOUT_VERSION 1u
#define NTFF_LAYOUT_VERSION_MIN 1u
#define NTFF_LAYOUT_VERSION_MAX 1u

#define NTFF_FILE_HEADER_SIZE 128u
#define NTFF_SECTION_HEADER_SIZE 80u
#define NTFF_FOOTER_SIZE 32u
#define NTFF_INDEX_ENTRY_SIZE 56u
#define NTFF_QUEUE_ENTRY_SIZE 24u
#define NTFF_META_ENTRY_SIZE 16u

#define NTFF_DEFAULT_MAX_SECTION (64u * 1024u * 1024u)
#define NTFF_NO_QUEUE 0xffffffffu

/* Section kinds. */
enum ntff_section_kind {
	NTFF_SEC_STRTAB = 1,
	NTFF_SEC_QUEUES = 2,
	NTFF_SEC_META = 3,
	NTFF_SEC_DATA = 4,
	NTFF_SEC_INDEX = 5,
};

/* Section flags. */
#define NTFF_SEC_ZLIB 0x1u

/* Record sizes of layout version 1 (record kinds = nxp_queue_kind numbers).
 * A section may declare a larger record size (a newer writer): the reader
 * reads the fields it knows and skips the rest. */
#define NTFF_REC_INSTRUCTION_SIZE 32u
#define NTFF_REC_DMA_SIZE 48u
#define NTFF_REC_SEMAPHORE_SIZE 24u
#define NTFF_REC_THROTTLE_SIZE 24u
#define NTFF_REC_ERROR_SIZE 32u
#define NTFF_REC_EXECUTION_SIZE 40u
#define NTFF_REC_TPB_SIZE 16u

/* META keys (value types: NTFF_META_I64 / F64 / STR). */
enum ntff_meta_type { NTFF_META_I64 = 1, NTFF_META_F64 = 2, NTFF_META_STR = 3 };
enum ntff_meta_key {
	NTFF_META_ARCH = 1,
	NTFF_META_INSTANCE_TYPE = 2,
	NTFF_META_RUNTIME_VERSION = 3,
	NTFF_META_COLLECTIVES_VERSION = 4,
	NTFF_META_DRIVER_VERSION = 5,
	NTFF_META_COMPILER_VERSION = 6,
	NTFF_META_PROFILE_NAME = 7,
	NTFF_META_TENSOR_CLOCK = 8,
	NTFF_META_VECTOR_CLOCK = 9,
	NTFF_META_SCALAR_CLOCK = 10,
	NTFF_META_GPSIMD_CLOCK = 11,
	NTFF_META_NEURONCORE_CLOCK = 12,
	NTFF_META_TE_ROWS = 13,
	NTFF_META_TE_COLS = 14,
	NTFF_META_VECTOR_CHANNELS = 15,
	NTFF_META_SCALAR_CHANNELS = 16,
	NTFF_META_GPSIMD_CHANNELS = 17,
	NTFF_META_DMA_ENGINES = 18,
	NTFF_META_DMA_DDR_BW = 19,
	NTFF_META_HBM_DDR_BW = 20,
	NTFF_META_NEURONCORE_IDX = 21,
	NTFF_META_DEVICE_IDX = 22,
	NTFF_META_CAPTURE_TIME = 23,
	NTFF_META_IS_SIMULATION = 24,
	NTFF_META_KEY_COUNT = 25
};
/* The value type of a known key, 0 for unknown keys. */
int ntff_meta_key_type(unsigned key);

/* ---- little-endian loads and stores ----------------------------------------- */
static inline uint16_t ntff_ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t ntff_ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t ntff_ld64(const uint8_t *p)
{
	return (uint64_t)ntff_ld32(p) | ((uint64_t)ntff_ld32(p + 4) << 32);
}
static inline void ntff_st16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static inline void ntff_st32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline void ntff_st64(uint8_t *p, uint64_t v)
{
	ntff_st32(p, (uint32_t)v);
	ntff_st32(p + 4, (uint32_t)(v >> 32));
}

/* ---- byte offsets of the fixed headers (layout version 1) ------------------
 * Named so that a message's fault offset, an encoder and a decoder cannot
 * disagree; the tables in ntff_layout.c and doc/formats/ntff.md show the same
 * layout. */
enum ntff_file_header_offset {
	NTFF_FH_MAGIC = 0,               /* magic[8] */
	NTFF_FH_LAYOUT_VERSION = 8,      /* u32 */
	NTFF_FH_HEADER_SIZE = 12,        /* u32 */
	NTFF_FH_FLAGS = 16,              /* u32 */
	NTFF_FH_NTFF_VERSION = 20,       /* i32 */
	NTFF_FH_TICKS_PER_NANOSEC = 24,  /* i64 */
	NTFF_FH_NUM_PHYSICAL_CORES = 32, /* i32; 36 reserved u32 */
	NTFF_FH_NEFF_UUID = 40,          /* uint8_t[16] */
	NTFF_FH_NEFF_HASH = 56,          /* uint8_t[32]; 88 reserved[36] */
	NTFF_FH_HEADER_CRC = 124,        /* u32: crc32 of bytes 0..123 */
};

enum ntff_section_header_offset {
	NTFF_SH_MAGIC = 0,         /* u32 "NXPS" */
	NTFF_SH_KIND = 4,          /* u16 */
	NTFF_SH_FLAGS = 6,         /* u16 */
	NTFF_SH_QUEUE = 8,         /* u32 */
	NTFF_SH_RECORD_KIND = 12,  /* u16 */
	NTFF_SH_RECORD_SIZE = 14,  /* u16 */
	NTFF_SH_RECORD_COUNT = 16, /* u64 */
	NTFF_SH_STORED_LENGTH = 24,/* u64 */
	NTFF_SH_RAW_LENGTH = 32,   /* u64 */
	NTFF_SH_FIRST_TS = 40,     /* u64 */
	NTFF_SH_LAST_TS = 48,      /* u64 */
	NTFF_SH_MAX_END_TS = 56,   /* u64 */
	NTFF_SH_DATA_CRC = 64,     /* u32; 68 reserved[8] */
	NTFF_SH_HEADER_CRC = 76,   /* u32: crc32 of bytes 0..75 */
};

enum ntff_footer_offset {
	NTFF_FT_MAGIC = 0,        /* magic[8] "NXPNTEND" */
	NTFF_FT_INDEX_OFFSET = 8, /* u64 */
	NTFF_FT_FILE_LENGTH = 16, /* u64; 24 reserved u32 */
	NTFF_FT_CRC = 28,         /* u32: crc32 of bytes 0..27 */
};

_Static_assert(NTFF_FH_HEADER_CRC + 4 == NTFF_FILE_HEADER_SIZE, "file header CRC is its last field");
_Static_assert(NTFF_SH_HEADER_CRC + 4 == NTFF_SECTION_HEADER_SIZE, "section header CRC is its last field");
_Static_assert(NTFF_FT_CRC + 4 == NTFF_FOOTER_SIZE, "footer CRC is its last field");

/* ---- fixed structures ---------------------------------------------------- */
typedef struct ntff_file_header {
	uint32_t layout_version;
	uint32_t header_size;
	uint32_t flags;
	int32_t ntff_version;
	int64_t ticks_per_nanosec;
	int32_t num_physical_cores;
	uint8_t neff_uuid[16];
	uint8_t neff_hash[32];
} ntff_file_header;

typedef struct ntff_section_header {
	uint16_t kind;
	uint16_t flags;
	uint32_t queue;
	uint16_t record_kind;
	uint16_t record_size;
	uint64_t record_count;
	uint64_t stored_length;
	uint64_t raw_length;
	uint64_t first_ts, last_ts; /* keys (start ticks) of the first and last record */
	uint64_t max_end_ts;        /* largest end tick of any record */
	uint32_t data_crc;          /* zlib crc32 of the stored bytes */
} ntff_section_header;

typedef struct ntff_footer {
	uint64_t index_offset;
	uint64_t file_length;
} ntff_footer;

typedef struct ntff_index_entry {
	uint64_t offset; /* of the section header */
	uint16_t kind;
	uint16_t flags;
	uint32_t queue;
	uint64_t count;
	uint64_t stored_length;
	uint64_t first_ts, last_ts, max_end_ts;
} ntff_index_entry;

typedef struct ntff_queue_entry {
	uint16_t kind;
	int16_t engine;
	uint32_t pcore;
	uint32_t name; /* strref */
	int32_t queue_idx;
	int32_t engine_idx;
} ntff_queue_entry;

typedef struct ntff_meta_entry {
	uint16_t key;
	uint16_t type;
	uint64_t value; /* i64, f64 bits or strref */
} ntff_meta_entry;

uint32_t ntff_crc32(const void *data, size_t len);

void ntff_file_header_encode(const ntff_file_header *h, uint8_t out[NTFF_FILE_HEADER_SIZE]);
/* `p` holds `len` bytes from offset 0.  Checks magic (NXP_E_FORMAT), layout
 * version (NXP_E_VERSION, naming the supported range), header size and CRC
 * (NXP_E_CRC). */
int ntff_file_header_decode(const uint8_t *p, size_t len, ntff_file_header *h, nxp_status *st);

void ntff_section_header_encode(const ntff_section_header *h, uint8_t out[NTFF_SECTION_HEADER_SIZE]);
/* Checks the section magic (NXP_E_FORMAT) and header CRC (NXP_E_CRC); `offset`
 * is the header's file offset, for messages. */
int ntff_section_header_decode(const uint8_t *p, ntff_section_header *h, uint64_t offset, nxp_status *st);

void ntff_footer_encode(const ntff_footer *f, uint8_t out[NTFF_FOOTER_SIZE]);
/* 0, or NXP_E_FORMAT (no footer magic) / NXP_E_CRC. */
int ntff_footer_decode(const uint8_t *p, ntff_footer *f);

void ntff_index_entry_encode(const ntff_index_entry *e, uint8_t *out);
void ntff_index_entry_decode(const uint8_t *p, ntff_index_entry *e);
void ntff_queue_entry_encode(const ntff_queue_entry *q, uint8_t *out);
void ntff_queue_entry_decode(const uint8_t *p, ntff_queue_entry *q);
void ntff_meta_entry_encode(const ntff_meta_entry *m, uint8_t *out);
void ntff_meta_entry_decode(const uint8_t *p, ntff_meta_entry *m);

/* Size of a record of `kind` in this layout version; 0 for unknown kinds. */
size_t ntff_record_size(unsigned kind);

/* zlib helpers.  ntff_deflate: *out is malloc'ed (NXP_E_NOMEM, NXP_E_COMPRESSION).
 * ntff_inflate: must yield exactly out_len bytes (NXP_E_COMPRESSION otherwise). */
int ntff_deflate(const uint8_t *in, size_t len, int level, uint8_t **out, size_t *out_len);
int ntff_inflate(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);

/* ---- records (writer input notes from ntff.h) ------------------------- */
/* Every record begins with its key: the u64 start tick (timestamp). */
static inline uint64_t ntff_record_key(const uint8_t *p)
{
	return ntff_ld64(p);
}
/* The end tick of a record (== key for point records). */
uint64_t ntff_record_end(unsigned kind, const uint8_t *p);

static inline void ntff_encode_instruction(uint8_t *p, const nxp_ntff_instruction_note *n)
{
	ntff_st64(p, n->start_tick);
	ntff_st64(p + 8, n->end_tick);
	ntff_st32(p + 16, n->pc);
	ntff_st32(p + 20, n->wait_ticks);
	ntff_st32(p + 24, (uint32_t)n->execution_index);
	ntff_st32(p + 28, 0);
}
static inline void ntff_decode_instruction(const uint8_t *p, nxp_ntff_instruction_note *n)
{
	n->start_tick = ntff_ld64(p);
	n->end_tick = ntff_ld64(p + 8);
	n->pc = ntff_ld32(p + 16);
	n->wait_ticks = ntff_ld32(p + 20);
	n->execution_index = (int32_t)ntff_ld32(p + 24);
}

static inline void ntff_encode_dma(uint8_t *p, const nxp_ntff_dma_note *n)
{
	ntff_st64(p, n->start_tick);
	ntff_st64(p + 8, n->end_tick);
	ntff_st32(p + 16, n->packet_aggregation_id);
	ntff_st32(p + 20, n->packet_idx);
	ntff_st32(p + 24, n->read_bytes);
	ntff_st32(p + 28, n->write_bytes);
	ntff_st32(p + 32, n->crc);
	ntff_st16(p + 36, n->flags);
	p[38] = n->source;
	p[39] = n->dest;
	ntff_st32(p + 40, (uint32_t)n->execution_index);
	ntff_st32(p + 44, n->variable);
}
static inline void ntff_decode_dma(const uint8_t *p, nxp_ntff_dma_note *n)
{
	n->start_tick = ntff_ld64(p);
	n->end_tick = ntff_ld64(p + 8);
	n->packet_aggregation_id = ntff_ld32(p + 16);
	n->packet_idx = ntff_ld32(p + 20);
	n->read_bytes = ntff_ld32(p + 24);
	n->write_bytes = ntff_ld32(p + 28);
	n->crc = ntff_ld32(p + 32);
	n->flags = ntff_ld16(p + 36);
	n->source = p[38];
	n->dest = p[39];
	n->execution_index = (int32_t)ntff_ld32(p + 40);
	n->variable = ntff_ld32(p + 44);
}

static inline void ntff_encode_semaphore(uint8_t *p, const nxp_ntff_semaphore_note *n)
{
	ntff_st64(p, n->tick);
	ntff_st16(p + 8, n->semaphore_idx);
	p[10] = n->update_source;
	p[11] = n->operation;
	ntff_st32(p + 12, (uint32_t)n->value);
	p[16] = n->trigger_complete;
	p[17] = n->double_set_or_clear;
	p[18] = n->update_mode;
	p[19] = 0;
	ntff_st32(p + 20, 0);
}
static inline void ntff_decode_semaphore(const uint8_t *p, nxp_ntff_semaphore_note *n)
{
	n->tick = ntff_ld64(p);
	n->semaphore_idx = ntff_ld16(p + 8);
	n->update_source = p[10];
	n->operation = p[11];
	n->value = (int32_t)ntff_ld32(p + 12);
	n->trigger_complete = p[16];
	n->double_set_or_clear = p[17];
	n->update_mode = p[18];
}

static inline void ntff_encode_throttle(uint8_t *p, const nxp_ntff_throttle_note *n)
{
	ntff_st64(p, n->tick);
	ntff_st64(p + 8, n->duration_ticks);
	ntff_st16(p + 16, n->k);
	ntff_st16(p + 18, n->n);
	ntff_st32(p + 20, n->type);
}
static inline void ntff_decode_throttle(const uint8_t *p, nxp_ntff_throttle_note *n)
{
	n->tick = ntff_ld64(p);
	n->duration_ticks = ntff_ld64(p + 8);
	n->k = ntff_ld16(p + 16);
	n->n = ntff_ld16(p + 18);
	n->type = ntff_ld32(p + 20);
}

static inline void ntff_encode_error(uint8_t *p, const nxp_ntff_error_note *n)
{
	ntff_st64(p, n->tick);
	ntff_st32(p + 8, (uint32_t)n->error_type_id);
	p[12] = n->type;
	p[13] = p[14] = p[15] = 0;
	ntff_st32(p + 16, n->description);
	ntff_st32(p + 20, 0);
	ntff_st64(p + 24, n->metadata);
}
static inline void ntff_decode_error(const uint8_t *p, nxp_ntff_error_note *n)
{
	n->tick = ntff_ld64(p);
	n->error_type_id = (int32_t)ntff_ld32(p + 8);
	n->type = p[12];
	n->description = ntff_ld32(p + 16);
	n->metadata = ntff_ld64(p + 24);
}

static inline void ntff_encode_execution(uint8_t *p, const nxp_ntff_execution_note *n)
{
	ntff_st64(p, n->start_tick);
	ntff_st64(p + 8, n->end_tick);
	ntff_st32(p + 16, (uint32_t)n->execution_index);
	ntff_st32(p + 20, (uint32_t)n->num_subgraphs);
	ntff_st32(p + 24, n->neff_name);
	ntff_st32(p + 28, 0);
	ntff_st64(p + 32, (uint64_t)n->row_count);
}
static inline void ntff_decode_execution(const uint8_t *p, nxp_ntff_execution_note *n)
{
	n->start_tick = ntff_ld64(p);
	n->end_tick = ntff_ld64(p + 8);
	n->execution_index = (int32_t)ntff_ld32(p + 16);
	n->num_subgraphs = (int32_t)ntff_ld32(p + 20);
	n->neff_name = ntff_ld32(p + 24);
	n->row_count = (int64_t)ntff_ld64(p + 32);
}

static inline void ntff_encode_tpb(uint8_t *p, const nxp_ntff_tpb_note *n)
{
	ntff_st64(p, n->tick);
	memset(p + 8, 0, 8);
	p[8] = n->is_stop;
}
static inline void ntff_decode_tpb(const uint8_t *p, nxp_ntff_tpb_note *n)
{
	n->tick = ntff_ld64(p);
	n->is_stop = p[8];
}

#endif
