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
