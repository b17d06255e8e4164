/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/neff.h
 * @brief NEFF reader: header, subgraphs, tensors, DMA queues, instruction streams;
 *        and a NEFF writer.  Include <nxp/nxp.h>, not this file.
 *
 * Public facts (AWS documentation): the 1024-byte header and the archive members.
 * libnxp's model (provisional, unofficial): the 64-byte instruction encoding and
 * the opcode table — see doc/formats/neff.md.  All of that knowledge lives in
 * libnxp/neff_instr.c so a correction is a one-line change.
 */
#ifndef NXP_NEFF_H
#define NXP_NEFF_H

#include <nxp/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An open NEFF.  Read-only after open: its queries may be called from several
 *  threads at once (only misuse — a NULL argument, a short struct — records
 *  the handle's last error, read by nxp_neff_error(): do not misuse it from
 *  two threads at once). */
typedef struct nxp_neff nxp_neff;

/** Size of the fixed NEFF header. */
#define NXP_NEFF_HEADER_SIZE 1024
/** Size of one encoded instruction. */
#define NXP_NEFF_INSTRUCTION_SIZE 64

/** Engines of a NeuronCore (numbers are ABI). */
typedef enum nxp_engine {
	NXP_ENGINE_TENSOR = 0, /**< "tensor", NEFF short name "pe" (PE) */
	NXP_ENGINE_VECTOR = 1, /**< "vector", "dve" (DVE) */
	NXP_ENGINE_SCALAR = 2, /**< "scalar", "act" (Activation) */
	NXP_ENGINE_GPSIMD = 3, /**< "gpsimd", "pool" (Pool) */
	NXP_ENGINE_SYNC = 4,   /**< "sync", "sp" (SP) */
	NXP_ENGINE_COUNT = 5
} nxp_engine;

/** "tensor", "vector", "scalar", "gpsimd", "sync"; NULL when out of range. */
NXP_API const char *nxp_engine_name(int engine);
/** NEFF short name: "pe", "dve", "act", "pool", "sp"; NULL when out of range. */
NXP_API const char *nxp_engine_short_name(int engine);
/** Engine from either name (case-insensitive); -1 when unknown. */
NXP_API int nxp_engine_from_name(const char *name);

/** Flags for nxp_neff_options.flags. */
#define NXP_NEFF_VERIFY_HASH 0x1u /**< verify the payload digest while reading (NXP_E_HASH on mismatch) */

/** Open options and safety limits.  0 in a limit means "use the default". */
typedef struct nxp_neff_options {
	size_t struct_size;
	uint32_t flags;               /**< NXP_NEFF_* flags */
	uint64_t max_member_size;     /**< largest archive member read into memory (default 256 MiB) */
	uint64_t max_total_inflated;  /**< total bytes inflated from a gzip'd payload (default 4 GiB) */
	uint32_t max_inflation_ratio; /**< inflated / compressed bytes, checked once past 1 MiB (default 1000) */
	uint64_t max_json_size;       /**< largest JSON member (default 64 MiB) */
	uint32_t max_json_depth;      /**< deepest JSON nesting (default 64) */
	uint32_t max_members;         /**< archive members (default 1,000,000) */
} nxp_neff_options;

static inline void nxp_neff_options_init(nxp_neff_options *o)
{
	o->struct_size = sizeof(*o);
	o->flags = 0;
	o->max_member_size = 0;
	o->max_total_inflated = 0;
	o->max_inflation_ratio = 0;
	o->max_json_size = 0;
	o->max_json_depth = 0;
	o->max_members = 0;
}

/** The 1024-byte header, every field (NeffHeader table names in comments). */
typedef struct nxp_neff_header {
	size_t struct_size;
	uint64_t pkg_version;          /**< 2 = gzip'd tar + MD5, 1 = SHA-256 */
	uint64_t header_size;          /**< always 1024 */
	uint64_t data_size;            /**< payload bytes after the header */
	uint64_t neff_version_major;   /**< major_version */
	uint64_t neff_version_minor;   /**< minor_version */
	char build_version[129];       /**< NUL-terminated copy of the 128-byte field */
	uint32_t num_tpb;              /**< neuroncore_count */
	uint8_t hash[32];              /**< payload digest as stored */
	uint8_t uuid[16];              /**< compilation UUID */
	char name[257];                /**< network_name, NUL-terminated */
	uint32_t requested_tpb_count;
	uint8_t tpb_per_node[64];
	uint64_t feature_bits;         /**< enabled_features (raw bits; official names not public) */
	uint32_t lnc_size;             /**< logical NeuronCore size (pcore_count_per_lnc) */
	int32_t hash_verified;         /**< 1 = digest checked and matched, 0 = not checked */
	int32_t payload_gzip;          /**< 1 = payload is gzip'd tar, 0 = plain tar */
} nxp_neff_header;

/**
 * Parse and validate a header from `len` bytes (at least 1024).  `file_size` is
 * the whole file's size, or -1 if unknown (then data_size is not checked
 * against it).  Pure: no handle needed.
 * Errors: NXP_E_INVAL, NXP_E_TRUNCATED (len < 1024), NXP_E_FORMAT (header_size
 * not 1024, data_size past end of file or 0), NXP_E_VERSION (major > 2 or
 * pkg_version not 1 or 2).
 */
NXP_API int nxp_neff_parse_header(const void *buf, size_t len, int64_t file_size, nxp_neff_header *out,
				  nxp_status *st);

/**
 * Open a NEFF: read and validate the header, walk the archive once as a stream
 * (gzip'd or plain tar, via libarchive) and load the manifests and instruction
 * streams.  Weight files are skipped, not read into memory.  `src` must outlive
 * the handle; it may be sequential.
 * `opts` may be NULL (defaults); a shorter (older) options struct is accepted.
 * Errors: NXP_E_INVAL (NULL out/src, options struct_size too short); as
 * nxp_neff_parse_header; NXP_E_TRUNCATED (payload shorter than data_size),
 * NXP_E_COMPRESSION (bad gzip), NXP_E_FORMAT (bad tar; an instruction binary
 * whose size is not a multiple of 64), NXP_E_UNSAFE_PATH (absolute or ".."
 * member name, or such a path in a manifest), NXP_E_LIMIT (a limit of
 * nxp_neff_options), NXP_E_JSON (syntax or shape; the message names the member
 * and the key), NXP_E_NOT_FOUND (no kelf-*.json, or a file it or def.json names
 * is missing), NXP_E_HASH (with NXP_NEFF_VERIFY_HASH), NXP_E_UNSUPPORTED (a
 * sequential source already read past offset 0), NXP_E_IO, NXP_E_NOMEM.  The
 * status offset is the byte offset in the file (see doc/formats/neff.md).
 */
NXP_API int nxp_neff_open(nxp_neff **out, nxp_source *src, const nxp_neff_options *opts, nxp_status *st);
/** nxp_neff_open() on a file; the handle owns the file.  Errors: as
 *  nxp_neff_open, plus NXP_E_IO when the file cannot be opened. */
NXP_API int nxp_neff_open_path(nxp_neff **out, const char *path, const nxp_neff_options *opts, nxp_status *st);
/** Close a handle (NULL is fine); also closes the source of nxp_neff_open_path. */
NXP_API void nxp_neff_close(nxp_neff *neff);
/** Copy the handle's last error (from a failed query) into `st`; returns its
 *  code, NXP_E_INVAL for a NULL handle. */
NXP_API int nxp_neff_error(const nxp_neff *neff, nxp_status *st);

/** Copy the header.  Errors: NXP_E_INVAL. */
NXP_API int nxp_neff_get_header(const nxp_neff *neff, nxp_neff_header *out);

/** One subgraph (`sgNN`), one per physical core. */
typedef struct nxp_neff_subgraph {
	size_t struct_size;
	const char *name;       /**< e.g. "sg00" */
	const char *definition; /**< member path of its def.json, e.g. "sg00/def.json" */
	int64_t pcore_idx;      /**< index of the subgraph = physical core */
	uint64_t tensor_count;
	uint64_t dma_queue_count;
	uint64_t instruction_count[NXP_ENGINE_COUNT]; /**< per nxp_engine */
} nxp_neff_subgraph;

/** Subgraphs, in kelf-*.json order (0 for NULL). */
NXP_API size_t nxp_neff_subgraph_count(const nxp_neff *neff);
/** Errors: NXP_E_INVAL, NXP_E_RANGE.  Strings live as long as the handle. */
NXP_API int nxp_neff_get_subgraph(const nxp_neff *neff, size_t index, nxp_neff_subgraph *out);

/** A tensor / buffer of a subgraph (TensorInfo names). */
typedef struct nxp_tensor_info {
	size_t struct_size;
	const char *variable_name;
	const char *type;   /**< input, output, state-buffer, file, tmp-buf, virtual, pointer, dge-table, ... */
	const char *format; /**< element type if known ("bf16", ...), else "" */
	const char *shape;  /**< "[d0,d1,...]" if known, else "" */
	int64_t size;       /**< bytes, -1 if unknown */
	int64_t node;       /**< var_id, -1 if absent */
	int64_t pcore_idx;
	const char *file_name; /**< weights file for type "file", else "" */
} nxp_tensor_info;

/** All tensors of all subgraphs, in subgraph then name order (0 for NULL). */
NXP_API size_t nxp_neff_tensor_count(const nxp_neff *neff);
/** Errors: NXP_E_INVAL, NXP_E_RANGE.  Strings live as long as the handle. */
NXP_API int nxp_neff_get_tensor(const nxp_neff *neff, size_t index, nxp_tensor_info *out);

/** A DMA queue (DmaQueuesInfo names).  One row per queue instance. */
typedef struct nxp_dma_queue_info {
	size_t struct_size;
	const char *name;       /**< queue-set name from def.json */
	const char *type;       /**< DmaQueueType: input, output, data, software_dynamic, hardware_dynamic, instruction, unknown */
	const char *neff_type;  /**< the type as written in def.json: in, out, data, embedding_update, dynamic, ... */
	const char *owner;      /**< owning engine short name, "" if none */
	int64_t pcore_idx;
	int64_t idx;            /**< instance index inside the set */
	int64_t engine_idx;     /**< DMA engine (16 queues per engine in libnxp's model) */
	int64_t axi_port;       /**< -1: not in the NEFF */
	int64_t dram_channel;   /**< -1: not in the NEFF */
} nxp_dma_queue_info;

/** DMA queue instances of all subgraphs, in subgraph then def.json order (0 for NULL). */
NXP_API size_t nxp_neff_dma_queue_count(const nxp_neff *neff);
/** Errors: NXP_E_INVAL, NXP_E_RANGE.  Strings live as long as the handle. */
NXP_API int nxp_neff_get_dma_queue(const nxp_neff *neff, size_t index, nxp_dma_queue_info *out);

/** 0.2 names with the module prefix; the 0.1 names stay (same struct, no ABI
 *  change: a typedef is not a symbol).  Since 0.2. */
typedef nxp_tensor_info nxp_neff_tensor_info;
typedef nxp_dma_queue_info nxp_neff_dma_queue_info;

/** Kinds of memory an access pattern addresses (libnxp's model). */
typedef enum nxp_memory {
	NXP_MEMORY_NONE = 0,
	NXP_MEMORY_SBUF = 1,
	NXP_MEMORY_PSUM = 2,
	NXP_MEMORY_HBM = 3,
} nxp_memory;

/** A tensor access pattern: start address, up to 3 dims of steps and counts. */
typedef struct nxp_access_pattern {
	uint64_t address;   /**< address without the mode byte */
	uint8_t addr_mode;  /**< 0 immediate, 1 register, 2 indirect */
	uint8_t memory;     /**< nxp_memory */
	uint8_t dtype;      /**< libnxp dtype code, see nxp_dtype_name() */
	uint8_t pad;
	int16_t step_elem[3];
	uint16_t num_elem[3];
} nxp_access_pattern;

/** "none" (0), "fp32", "bf16", ... (libnxp's dtype codes, see doc/formats/neff.md);
 *  "dtype(N)" names are never returned: NULL when unknown. */
NXP_API const char *nxp_dtype_name(int dtype);

/** One statically decoded 64-byte instruction. */
typedef struct nxp_neff_instruction {
	size_t struct_size;
	int64_t pc;              /**< index in its engine's stream */
	int32_t engine;          /**< nxp_engine */
	int64_t pcore_idx;       /**< subgraph index */
	uint32_t opcode_num;     /**< raw opcode byte */
	const char *opcode;      /**< name from the opcode table, or "Operation(N)" */
	const char *operands;    /**< profiler-style operand text */
	uint8_t wait_mode, wait_idx, update_mode, update_idx;
	uint32_t semaphore_value;
	nxp_access_pattern src, dst;
	/* Static costs (libnxp's model, see doc/formats/neff.md). */
	const char *tensor_instruction_type; /**< "MATMUL", "TRANSPOSE", "LDWEIGHTS" or "" */
	int64_t tensor_elements;
	int64_t raw_flops;
	int64_t adjusted_flops;
	int64_t hbm_read_bytes, hbm_write_bytes;
	int64_t sbuf_read_bytes, sbuf_write_bytes;
	int64_t psum_read_bytes, psum_write_bytes;
	const char *scalar_activation_fn; /**< ACTIVATE function name, else "" */
	uint8_t raw[NXP_NEFF_INSTRUCTION_SIZE];
	/* The remaining fields of the 64-byte word (libnxp's model).  Appended: a
	 * caller whose struct_size ends at `raw` still works (encode then takes
	 * them as 0). */
	uint8_t inst_word_len;   /**< 32-bit words per instruction (16); encode writes 16 when 0 */
	uint8_t debug_cmd, debug_hint;
	uint8_t flags;           /**< bit0 psum_zero, bit1 transpose, bit2 perf mode 2x, bit3 4x */
	uint8_t func;            /**< ACTIVATE: activation function id; vector ops: ALU op id */
	uint16_t partitions;     /**< active rows / partitions used (0..128) */
	uint16_t active_cols;    /**< MATMUL: PE columns in use */
	uint32_t aux;
	float immediate;
	const char *performance_mode;       /**< "", "2x" or "4x" (from flags) */
	int64_t psum_read_sbuf_write_bytes; /**< dst bytes when src is PSUM and dst is SBUF */
} nxp_neff_instruction;

/** Minimum struct_size accepted for nxp_neff_instruction (the fields up to `raw`). */
#define NXP_NEFF_INSTRUCTION_MIN_SIZE (offsetof(nxp_neff_instruction, raw) + NXP_NEFF_INSTRUCTION_SIZE)

/** Instructions of one engine of one subgraph; -1 if out of range. */
NXP_API int64_t nxp_neff_instruction_count(const nxp_neff *neff, size_t subgraph, int engine);
/** Decoded instruction `pc`.  Strings live as long as the handle.  `out` may
 *  be as short as NXP_NEFF_INSTRUCTION_MIN_SIZE.
 *  Errors: NXP_E_INVAL (NULL, short struct), NXP_E_RANGE (subgraph, engine or pc). */
NXP_API int nxp_neff_get_instruction(const nxp_neff *neff, size_t subgraph, int engine, uint64_t pc,
				     nxp_neff_instruction *out);
/**
 * Pure static decode of one 64-byte instruction (no NEFF needed).  Text fields
 * (`operands`) are written into `text`/`text_len` (256 bytes is always enough;
 * NULL text gives ""), and point there; other strings are static.  `engine` is
 * an nxp_engine or -1 (unknown); pc and pcore_idx are -1.  Unknown opcodes
 * decode as "Operation(N)".  Errors: NXP_E_INVAL (NULL, short struct, engine out
 * of range), NXP_E_TRUNCATED (len < 64), NXP_E_FORMAT (inst_word_len is not 16).
 */
NXP_API int nxp_instruction_decode(const void *raw, size_t len, int engine, nxp_neff_instruction *out,
				   char *text, size_t text_len);
/** Name of an opcode number, or NULL if the table does not know it.  This is the
 *  profiler's display name (TENSOR_TENSOR for 0x41, SCALAR for 0x43, ...). */
NXP_API const char *nxp_opcode_name(unsigned opcode);
/** ISA name of an opcode number (TENSOR_TENSOR_ARITH_OP for 0x41, ...), or NULL. */
NXP_API const char *nxp_opcode_isa_name(unsigned opcode);
/** Opcode number from a display or ISA name (case-insensitive), or from
 *  "Operation(N)"; -1 when unknown. */
NXP_API int nxp_opcode_from_name(const char *name);
/** dtype code from its name ("bf16", ...; case-insensitive); -1 when unknown. */
NXP_API int nxp_dtype_from_name(const char *name);
/** Bytes per element of a dtype code (mxfp4 counts as 1); 0 for "none" or unknown. */
NXP_API unsigned nxp_dtype_size(int dtype);

/** Warnings counted while opening (records decoded despite a defect, e.g. an
 *  instruction whose inst_word_len is not 16).  0 for NULL. */
NXP_API uint64_t nxp_neff_warning_count(const nxp_neff *neff);

/** 1 if the archive holds kernel_debug_info.json (NKI source linking). */
NXP_API int nxp_neff_has_kernel_debug_info(const nxp_neff *neff);

/* ------------------------------------------------------------------------ */
/** @name NEFF writer (since 0.1)
 * Builds a NEFF from in-memory members: header + tar (gzip'd by default) via
 * libarchive.  Produces exactly what nxp_neff_open() reads.  Used by tests,
 * `nxp synth` and fuzz seeds; simulators can use it too.
 */
/**@{*/
typedef struct nxp_neff_writer nxp_neff_writer;

#define NXP_NEFF_WRITE_PLAIN_TAR 0x1u /**< store an uncompressed tar payload */
#define NXP_NEFF_WRITE_DOT_SLASH 0x2u /**< prefix member names with "./" */

typedef struct nxp_neff_writer_options {
	size_t struct_size;
	uint32_t flags;            /**< NXP_NEFF_WRITE_* */
	uint64_t pkg_version;      /**< 0 = 2 (MD5); 1 = SHA-256 */
	uint64_t neff_version_major, neff_version_minor;
	const char *build_version; /**< NULL = libnxp's own string */
	const char *name;          /**< network name */
	uint8_t uuid[16];
	uint32_t num_tpb;          /**< 0 = number of subgraphs */
	uint32_t lnc_size;         /**< 0 = 1 */
	uint64_t feature_bits;
} nxp_neff_writer_options;

static inline void nxp_neff_writer_options_init(nxp_neff_writer_options *o)
{
	unsigned i;
	o->struct_size = sizeof(*o);
	o->flags = 0;
	o->pkg_version = 0;
	o->neff_version_major = 2;
	o->neff_version_minor = 0;
	o->build_version = 0;
	o->name = 0;
	for (i = 0; i < 16; i++)
		o->uuid[i] = 0;
	o->num_tpb = 0;
	o->lnc_size = 0;
	o->feature_bits = 0;
}

/** Start a NEFF.  `opts` may be NULL (defaults).  Errors: NXP_E_INVAL (short
 *  options struct, pkg_version not 0/1/2, build_version over 128 or name over
 *  256 bytes), NXP_E_NOMEM. */
NXP_API int nxp_neff_writer_open(nxp_neff_writer **out, const nxp_neff_writer_options *opts, nxp_status *st);
/** Add an archive member (path inside the archive, e.g. "sg00/def.json"; a
 *  leading "./" is dropped).  Data is copied.  Errors: NXP_E_INVAL (NULL, empty
 *  path), NXP_E_UNSAFE_PATH (absolute or ".."), NXP_E_NOMEM. */
NXP_API int nxp_neff_writer_add(nxp_neff_writer *w, const char *path, const void *data, size_t len);
/** Write the finished NEFF to a file.  May be called more than once.
 *  Errors: NXP_E_IO, NXP_E_NOMEM, NXP_E_FORMAT (archive writer failure). */
NXP_API int nxp_neff_writer_save(nxp_neff_writer *w, const char *path);
/** Write the finished NEFF into a malloc'ed buffer the caller frees with free().
 *  Errors: NXP_E_INVAL, NXP_E_NOMEM, NXP_E_FORMAT (archive writer failure). */
NXP_API int nxp_neff_writer_save_memory(nxp_neff_writer *w, void **data, size_t *len);
/** Free a writer (NULL is fine). */
NXP_API void nxp_neff_writer_close(nxp_neff_writer *w);
/** Copy the writer's last error (message and code of the last failed
 *  nxp_neff_writer_add / _save / _save_memory; "no error" before any) into
 *  `st`; returns its code.  Errors: NXP_E_INVAL (NULL handle, short `st`).
 *  Since 0.2. */
NXP_API int nxp_neff_writer_error(const nxp_neff_writer *w, nxp_status *st);
/** Encode one instruction (the inverse of nxp_instruction_decode for the fields
 *  the model defines; `memory` is derived, not encoded; inst_word_len 0 encodes
 *  as 16).  `in` may be as short as NXP_NEFF_INSTRUCTION_MIN_SIZE (the appended
 *  fields then encode as 0).  Errors: NXP_E_INVAL (NULL, short struct, opcode
 *  over 255, address over 30 bits, addr_mode over 3). */
NXP_API int nxp_instruction_encode(const nxp_neff_instruction *in, uint8_t out[NXP_NEFF_INSTRUCTION_SIZE]);
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
#define NXP_NEFF_OPTIONS_SIZE_V0_1 (offsetof(nxp_neff_options, max_members) + sizeof(((nxp_neff_options *)0)->max_members)) /**< 56 on LP64 */
#define NXP_NEFF_HEADER_SIZE_V0_1 (offsetof(nxp_neff_header, payload_gzip) + sizeof(((nxp_neff_header *)0)->payload_gzip)) /**< 580 on LP64 */
#define NXP_NEFF_SUBGRAPH_SIZE_V0_1 (offsetof(nxp_neff_subgraph, instruction_count) + sizeof(((nxp_neff_subgraph *)0)->instruction_count)) /**< 88 on LP64 */
#define NXP_TENSOR_INFO_SIZE_V0_1 (offsetof(nxp_tensor_info, file_name) + sizeof(((nxp_tensor_info *)0)->file_name)) /**< 72 on LP64 */
#define NXP_DMA_QUEUE_INFO_SIZE_V0_1 (offsetof(nxp_dma_queue_info, dram_channel) + sizeof(((nxp_dma_queue_info *)0)->dram_channel)) /**< 80 on LP64 */
/** 0.1 already accepted an nxp_neff_instruction as short as NXP_NEFF_INSTRUCTION_MIN_SIZE and still does. */
#define NXP_NEFF_INSTRUCTION_SIZE_V0_1 (offsetof(nxp_neff_instruction, psum_read_sbuf_write_bytes) + sizeof(((nxp_neff_instruction *)0)->psum_read_sbuf_write_bytes)) /**< 304 on LP64 */
#define NXP_NEFF_WRITER_OPTIONS_SIZE_V0_1 (offsetof(nxp_neff_writer_options, feature_bits) + sizeof(((nxp_neff_writer_options *)0)->feature_bits)) /**< 88 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_NEFF_H */
