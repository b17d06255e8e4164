/* SPDX-License-Identifier: MIT */
/* Page compression: ZSTD (libzstd), GZIP (zlib, gzip wrapper as Parquet's
 * Compression.md requires), or none. */
#include "parquet_priv.h"

#include <nxp/nxp.h>
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

/* Parquet CompressionCodec values */
enum { PQ_UNCOMPRESSED = 0, PQ_GZIP = 2, PQ_ZSTD = 6 };

struct pq_codec {
	int codec; /* nxp_parquet_codec */
	int level;
	ZSTD_CCtx *zc;
	z_stream zs;
	int zs_ready;
};

pq_codec *pq_codec_new(int codec, int level)
{
	pq_codec *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->codec = codec;
	if (codec == NXP_PARQUET_ZSTD) {
		/* Level 1: measured with bench_parquet, it keeps the writer above
		 * the export target; higher levels trade speed for size. */
		c->level = level ? level : 1;
		c->zc = ZSTD_createCCtx();
		if (!c->zc || ZSTD_isError(ZSTD_CCtx_setParameter(c->zc, ZSTD_c_compressionLevel, c->level))) {
			pq_codec_free(c);
			return NULL;
		}
	} else if (codec == NXP_PARQUET_GZIP) {
		c->level = level ? level : Z_DEFAULT_COMPRESSION;
		if (deflateInit2(&c->zs, c->level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(c);
			return NULL;
		}
		c->zs_ready = 1;
	}
	return c;
}

void pq_codec_free(pq_codec *c)
{
	if (!c)
		return;
	if (c->zc)
		ZSTD_freeCCtx(c->zc);
	if (c->zs_ready)
		deflateEnd(&c->zs);
	free(c);
}

int pq_codec_thrift_id(const pq_codec *c)
{
	return c->codec == NXP_PARQUET_ZSTD ? PQ_ZSTD : c->codec == NXP_PARQUET_GZIP ? PQ_GZIP : PQ_UNCOMPRESSED;
}

int pq_codec_compress(pq_codec *c, const uint8_t *src, size_t n, pq_buf *out, const uint8_t **res,
		      size_t *res_n)
{
	out->n = 0;
	if (c->codec == NXP_PARQUET_ZSTD) {
		size_t bound = ZSTD_compressBound(n);
		if (pq_buf_reserve(out, bound))
			return NXP_E_NOMEM;
		size_t r = ZSTD_compress2(c->zc, out->p, bound, src, n);
		if (ZSTD_isError(r))
			return NXP_E_COMPRESSION;
		out->n = r;
	} else if (c->codec == NXP_PARQUET_GZIP) {
		if (deflateReset(&c->zs) != Z_OK)
			return NXP_E_COMPRESSION;
		size_t bound = deflateBound(&c->zs, (uLong)n) + 32;
		if (n > UINT32_MAX || pq_buf_reserve(out, bound))
			return NXP_E_NOMEM;
		c->zs.next_in = (Bytef *)(uintptr_t)src;
		c->zs.avail_in = (uInt)n;
		c->zs.next_out = out->p;
		c->zs.avail_out = (uInt)bound;
		if (deflate(&c->zs, Z_FINISH) != Z_STREAM_END)
			return NXP_E_COMPRESSION;
		out->n = bound - c->zs.avail_out;
	} else {
		*res = src;
		*res_n = n;
		return 0;
	}
	*res = out->p;
	*res_n = out->n;
	return 0;
}

/* A ZSTD frame of raw blocks (RFC 8878): magic, a frame header with
 * Single_Segment and a 4-byte Frame_Content_Size, blocks of at most 128 KiB
 * each with a 3-byte header (Last_Block, Block_Type 0 = Raw, Block_Size). */
#define ZSTD_RAW_BLOCK (128u << 10)

int pq_codec_store(pq_codec *c, const uint8_t *src, size_t n, pq_buf *out, const uint8_t **res, size_t *res_n)
{
	if (c->codec != NXP_PARQUET_ZSTD || n > UINT32_MAX)
		return pq_codec_compress(c, src, n, out, res, res_n);
	size_t blocks = n ? (n + ZSTD_RAW_BLOCK - 1) / ZSTD_RAW_BLOCK : 1;
	out->n = 0;
	if (pq_buf_reserve(out, 9 + 3 * blocks + n))
		return NXP_E_NOMEM;
	uint8_t *o = out->p;
	static const uint8_t magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
	memcpy(o, magic, 4);
	o[4] = 2 << 6 | 1 << 5; /* FCS_Field_Size 4, Single_Segment, no checksum, no dictionary */
	for (int i = 0; i < 4; i++)
		o[5 + i] = (uint8_t)(n >> (8 * i));
	o += 9;
	size_t off = 0;
	do {
		size_t k = n - off < ZSTD_RAW_BLOCK ? n - off : ZSTD_RAW_BLOCK;
		uint32_t h = (uint32_t)k << 3 | (off + k == n);
		o[0] = (uint8_t)h, o[1] = (uint8_t)(h >> 8), o[2] = (uint8_t)(h >> 16);
		if (k)
			memcpy(o + 3, src + off, k);
		o += 3 + k;
		off += k;
	} while (off < n);
	out->n = (size_t)(o - out->p);
	*res = out->p;
	*res_n = out->n;
	return 0;
}
