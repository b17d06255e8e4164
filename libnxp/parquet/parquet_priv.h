/* SPDX-License-Identifier: MIT */
/* Internal: the Parquet writer's byte buffers, Thrift compact protocol
 * encoder, level/value encoders and page codecs (libnxp/parquet/). */
#ifndef NXP_PARQUET_PRIV_H
#define NXP_PARQUET_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "varint.h"

/* Four uint32 or two uint64 lanes (GCC/Clang vector extension: SSE2 or
 * NEON, or plain words where there are no vector registers). */
typedef uint32_t pq_v4u __attribute__((vector_size(16)));
typedef uint64_t pq_v2u __attribute__((vector_size(16)));

/* ---- growable byte buffer ---------------------------------------------- */

typedef struct pq_buf {
	uint8_t *p;
	size_t n, cap;
} pq_buf;

/* Make room for `extra` more bytes.  0, or -1 when out of memory. */
int pq_buf_grow(pq_buf *b, size_t extra);
static inline int pq_buf_reserve(pq_buf *b, size_t extra)
{
	return b->cap - b->n >= extra ? 0 : pq_buf_grow(b, extra);
}
static inline int pq_buf_put(pq_buf *b, const void *p, size_t n)
{
	if (pq_buf_reserve(b, n))
		return -1;
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}
void pq_buf_free(pq_buf *b);

/* ---- Thrift compact protocol (thrift_compact.c) ------------------------ */

enum {
	TC_TRUE = 1, TC_FALSE = 2, TC_BYTE = 3, TC_I16 = 4, TC_I32 = 5, TC_I64 = 6,
	TC_DOUBLE = 7, TC_BINARY = 8, TC_LIST = 9, TC_SET = 10, TC_MAP = 11, TC_STRUCT = 12,
};

#define TC_MAX_DEPTH 16
/* Writes into `b`; the first allocation failure sets `oom` and later calls
 * do nothing, so a whole structure is written and checked once. */
typedef struct tc_writer {
	pq_buf *b;
	int oom;
	int depth;
	int16_t last[TC_MAX_DEPTH]; /* last field id of each open struct */
} tc_writer;

void tc_init(tc_writer *w, pq_buf *b);
void tc_i32(tc_writer *w, int16_t id, int32_t v);
void tc_i64(tc_writer *w, int16_t id, int64_t v);
void tc_bool(tc_writer *w, int16_t id, int v);
void tc_binary(tc_writer *w, int16_t id, const void *p, size_t n);
void tc_string(tc_writer *w, int16_t id, const char *s);
/* A struct (or union) field: tc_struct_begin(w, id) ... tc_struct_end(w). */
void tc_struct_begin(tc_writer *w, int16_t id);
void tc_struct_end(tc_writer *w);
/* A list field of n elements of type `elem`; then n elements: */
void tc_list_begin(tc_writer *w, int16_t id, int elem, uint32_t n);
void tc_elem_i32(tc_writer *w, int32_t v);
void tc_elem_binary(tc_writer *w, const void *p, size_t n);
/* A struct element of a list (or the top-level struct): begin ... tc_struct_end. */
void tc_elem_struct_begin(tc_writer *w);
/* Raw bytes already in compact form (pre-serialized list elements). */
void tc_raw(tc_writer *w, const void *p, size_t n);

/* ---- encodings (parquet_encode.c) -------------------------------------- */

/* Bits needed for values 0..max_value (at least 1). */
int pq_bit_width(uint32_t max_value);
/* RLE/bit-packed hybrid of n values of `bw` bits (1..32), appended to out
 * (no length prefix).  -1 when out of memory. */
int pq_rle_hybrid(pq_buf *out, const uint32_t *v, size_t n, int bw);
/* Definition levels (max level 1) from the LSB-first bitmap `bits` of n rows
 * of which `nulls` are 0: RLE/bit-packed hybrid appended to out. */
int pq_def_levels(pq_buf *out, const uint8_t *bits, size_t n, size_t nulls);
/* Copy n bits from src at bit spos to dst at bit dpos (dst's bytes past dpos
 * are zero); returns the number of set bits copied. */
int64_t pq_bits_copy(uint8_t *dst, int64_t dpos, const uint8_t *src, int64_t spos, int64_t n);
/* Set n bits in dst from bit dpos (dst's bytes past dpos are zero). */
void pq_bits_set(uint8_t *dst, int64_t dpos, int64_t n);
/* DELTA_BINARY_PACKED (Encodings.md) of n values, appended to out: blocks of
 * 128 values in 4 miniblocks of 32, deltas wrapping in the physical type's
 * width (so INT32 never needs more than 32 bits).  -1 when out of memory. */
int pq_delta_i64(pq_buf *out, const int64_t *v, size_t n);
int pq_delta_i32(pq_buf *out, const int32_t *v, size_t n);

/* ---- codecs (parquet_codec.c) ------------------------------------------ */

typedef struct pq_codec pq_codec;
/* codec: nxp_parquet_codec; level 0 = default.  NULL when out of memory. */
pq_codec *pq_codec_new(int codec, int level);
void pq_codec_free(pq_codec *c);
/* Parquet CompressionCodec enum value of the codec. */
int pq_codec_thrift_id(const pq_codec *c);
/* Compress src into out (replacing its contents), or, for NONE, return src
 * in *res without copying.  0, NXP_E_NOMEM, or NXP_E_COMPRESSION. */
int pq_codec_compress(pq_codec *c, const uint8_t *src, size_t n, pq_buf *out, const uint8_t **res,
		      size_t *res_n);
/* The same without compressing, for data known not to compress: for ZSTD a
 * frame of raw blocks (no CPU spent looking for matches); other codecs
 * compress as pq_codec_compress. */
int pq_codec_store(pq_codec *c, const uint8_t *src, size_t n, pq_buf *out, const uint8_t **res, size_t *res_n);

#endif
