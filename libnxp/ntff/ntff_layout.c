/* SPDX-License-Identifier: MIT */
/* libnxp's NTFF layout version 1: encode/decode of the fixed structures,
 * CRC and compression (doc/formats/ntff.md). */
#include "ntff_layout.h"
#include "status.h"

#include <limits.h>
#include <stdlib.h>
#include <zlib.h>
#ifdef NXP_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

/* CRC-32 (the zlib/gzip polynomial) of every checked structure.  libdeflate
 * computes the same values several times faster (carry-less multiply), which
 * matters for section payloads; zlib is the fallback. */
uint32_t ntff_crc32(const void *data, size_t len)
{
#ifdef NXP_HAVE_LIBDEFLATE
	return libdeflate_crc32(0, data, len);
#else
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *p = data;
	while (len > 0) { /* zlib takes uInt lengths */
		uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;
		c = crc32(c, p, n);
		p += n;
		len -= n;
	}
	return (uint32_t)c;
#endif
}

int ntff_meta_key_type(unsigned key)
{
	switch (key) {
	case NTFF_META_ARCH:
	case NTFF_META_INSTANCE_TYPE:
	case NTFF_META_RUNTIME_VERSION:
	case NTFF_META_COLLECTIVES_VERSION:
	case NTFF_META_DRIVER_VERSION:
	case NTFF_META_COMPILER_VERSION:
	case NTFF_META_PROFILE_NAME:
		return NTFF_META_STR;
	case NTFF_META_TENSOR_CLOCK:
	case NTFF_META_VECTOR_CLOCK:
	case NTFF_META_SCALAR_CLOCK:
	case NTFF_META_GPSIMD_CLOCK:
	case NTFF_META_NEURONCORE_CLOCK:
	case NTFF_META_DMA_DDR_BW:
	case NTFF_META_HBM_DDR_BW:
		return NTFF_META_F64;
	case NTFF_META_TE_ROWS:
	case NTFF_META_TE_COLS:
	case NTFF_META_VECTOR_CHANNELS:
	case NTFF_META_SCALAR_CHANNELS:
	case NTFF_META_GPSIMD_CHANNELS:
	case NTFF_META_DMA_ENGINES:
	case NTFF_META_NEURONCORE_IDX:
	case NTFF_META_DEVICE_IDX:
	case NTFF_META_CAPTURE_TIME:
	case NTFF_META_IS_SIMULATION:
		return NTFF_META_I64;
	default:
		return 0;
	}
}

/* File header, 128 bytes:
 *   0 magic[8]  8 layout_version u32  12 header_size u32  16 flags u32
 *  20 ntff_version i32  24 ticks_per_nanosec i64  32 num_physical_cores i32
 *  36 reserved u32  40 neff_uuid[16]  56 neff_hash[32]  88 reserved[36]
 * 124 header_crc u32 (crc32 of bytes 0..123) */
void ntff_file_header_encode(const ntff_file_header *h, uint8_t out[NTFF_FILE_HEADER_SIZE])
{
	memset(out, 0, NTFF_FILE_HEADER_SIZE);
	memcpy(out, NTFF_MAGIC, 8);
	ntff_st32(out + NTFF_FH_LAYOUT_VERSION, h->layout_version);
	ntff_st32(out + NTFF_FH_HEADER_SIZE, NTFF_FILE_HEADER_SIZE);
	ntff_st32(out + NTFF_FH_FLAGS, h->flags);
	ntff_st32(out + NTFF_FH_NTFF_VERSION, (uint32_t)h->ntff_version);
	ntff_st64(out + NTFF_FH_TICKS_PER_NANOSEC, (uint64_t)h->ticks_per_nanosec);
	ntff_st32(out + NTFF_FH_NUM_PHYSICAL_CORES, (uint32_t)h->num_physical_cores);
	memcpy(out + NTFF_FH_NEFF_UUID, h->neff_uuid, 16);
	memcpy(out + NTFF_FH_NEFF_HASH, h->neff_hash, 32);
	ntff_st32(out + NTFF_FH_HEADER_CRC, ntff_crc32(out, NTFF_FH_HEADER_CRC));
}

int ntff_file_header_decode(const uint8_t *p, size_t len, ntff_file_header *h, nxp_status *st)
{
	if (len < NTFF_FH_LAYOUT_VERSION + 4 || memcmp(p, NTFF_MAGIC, 8) != 0) {
		if (len < 8 || memcmp(p, NTFF_MAGIC, len < 8 ? len : 8) == 0)
			return nxp__error_set(st, len < 8 ? NXP_E_TRUNCATED : NXP_E_FORMAT, 0,
					      "NTFF: file too short for a header (%zu bytes)", len);
		return nxp__error_set(st, NXP_E_FORMAT, 0, "not an NTFF in libnxp layout (bad magic)");
	}
	h->layout_version = ntff_ld32(p + NTFF_FH_LAYOUT_VERSION);
	if (h->layout_version < NTFF_LAYOUT_VERSION_MIN || h->layout_version > NTFF_LAYOUT_VERSION_MAX)
		return nxp__error_set(st, NXP_E_VERSION, NTFF_FH_LAYOUT_VERSION,
				      "NTFF layout version %u is not supported by this version of libnxp "
				      "(supported: %u - %u)",
				      h->layout_version, NTFF_LAYOUT_VERSION_MIN, NTFF_LAYOUT_VERSION_MAX);
	if (len < NTFF_FILE_HEADER_SIZE)
		return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)len,
				      "NTFF: file header truncated (%zu of %u bytes)",
				      len, NTFF_FILE_HEADER_SIZE);
	h->header_size = ntff_ld32(p + NTFF_FH_HEADER_SIZE);
	if (h->header_size != NTFF_FILE_HEADER_SIZE)
		return nxp__error_set(st, NXP_E_FORMAT, NTFF_FH_HEADER_SIZE, "NTFF: header size %u, expected %u",
				      h->header_size, NTFF_FILE_HEADER_SIZE);
	uint32_t want = ntff_ld32(p + NTFF_FH_HEADER_CRC), got = ntff_crc32(p, NTFF_FH_HEADER_CRC);
	if (want != got)
		return nxp__error_set(st, NXP_E_CRC, NTFF_FH_HEADER_CRC,
				      "NTFF: file header CRC mismatch (stored %08x, computed %08x)", want, got);
	h->flags = ntff_ld32(p + NTFF_FH_FLAGS);
	h->ntff_version = (int32_t)ntff_ld32(p + NTFF_FH_NTFF_VERSION);
	h->ticks_per_nanosec = (int64_t)ntff_ld64(p + NTFF_FH_TICKS_PER_NANOSEC);
	h->num_physical_cores = (int32_t)ntff_ld32(p + NTFF_FH_NUM_PHYSICAL_CORES);
	memcpy(h->neff_uuid, p + NTFF_FH_NEFF_UUID, 16);
	memcpy(h->neff_hash, p + NTFF_FH_NEFF_HASH, 32);
	if (h->ticks_per_nanosec <= 0)
		return nxp__error_set(st, NXP_E_FORMAT, NTFF_FH_TICKS_PER_NANOSEC,
				      "NTFF: ticks_per_nanosec %lld must be positive",
				      (long long)h->ticks_per_nanosec);
	if (h->num_physical_cores <= 0 || h->num_physical_cores > 64)
		return nxp__error_set(st, NXP_E_FORMAT, NTFF_FH_NUM_PHYSICAL_CORES,
				      "NTFF: num_physical_cores %d out of range 1..64",
				      h->num_physical_cores);
	return NXP_OK;
}

/* Section header, 80 bytes:
 *   0 magic u32 "NXPS"  4 kind u16  6 flags u16  8 queue u32  12 record_kind u16
 *  14 record_size u16  16 record_count u64  24 stored_length u64  32 raw_length u64
 *  40 first_ts u64  48 last_ts u64  56 max_end_ts u64  64 data_crc u32
 *  68 reserved[8]  76 header_crc u32 (crc32 of bytes 0..75) */
void ntff_section_header_encode(const ntff_section_header *h, uint8_t out[NTFF_SECTION_HEADER_SIZE])
{
	memset(out, 0, NTFF_SECTION_HEADER_SIZE);
	ntff_st32(out, NTFF_SECTION_MAGIC);
	ntff_st16(out + NTFF_SH_KIND, h->kind);
	ntff_st16(out + NTFF_SH_FLAGS, h->flags);
	ntff_st32(out + NTFF_SH_QUEUE, h->queue);
	ntff_st16(out + NTFF_SH_RECORD_KIND, h->record_kind);
	ntff_st16(out + NTFF_SH_RECORD_SIZE, h->record_size);
	ntff_st64(out + NTFF_SH_RECORD_COUNT, h->record_count);
	ntff_st64(out + NTFF_SH_STORED_LENGTH, h->stored_length);
	ntff_st64(out + NTFF_SH_RAW_LENGTH, h->raw_length);
	ntff_st64(out + NTFF_SH_FIRST_TS, h->first_ts);
	ntff_st64(out + NTFF_SH_LAST_TS, h->last_ts);
	ntff_st64(out + NTFF_SH_MAX_END_TS, h->max_end_ts);
	ntff_st32(out + NTFF_SH_DATA_CRC, h->data_crc);
	ntff_st32(out + NTFF_SH_HEADER_CRC, ntff_crc32(out, NTFF_SH_HEADER_CRC));
}

int ntff_section_header_decode(const uint8_t *p, ntff_section_header *h, uint64_t offset, nxp_status *st)
{
	if (ntff_ld32(p) != NTFF_SECTION_MAGIC)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)offset, "NTFF: no section header at offset %llu",
				      (unsigned long long)offset);
	uint32_t want = ntff_ld32(p + NTFF_SH_HEADER_CRC), got = ntff_crc32(p, NTFF_SH_HEADER_CRC);
	if (want != got)
		return nxp__error_set(st, NXP_E_CRC, (int64_t)offset,
				      "NTFF: section header CRC mismatch at offset %llu (stored %08x, computed %08x)",
				      (unsigned long long)offset, want, got);
	h->kind = ntff_ld16(p + NTFF_SH_KIND);
	h->flags = ntff_ld16(p + NTFF_SH_FLAGS);
	h->queue = ntff_ld32(p + NTFF_SH_QUEUE);
	h->record_kind = ntff_ld16(p + NTFF_SH_RECORD_KIND);
	h->record_size = ntff_ld16(p + NTFF_SH_RECORD_SIZE);
	h->record_count = ntff_ld64(p + NTFF_SH_RECORD_COUNT);
	h->stored_length = ntff_ld64(p + NTFF_SH_STORED_LENGTH);
	h->raw_length = ntff_ld64(p + NTFF_SH_RAW_LENGTH);
	h->first_ts = ntff_ld64(p + NTFF_SH_FIRST_TS);
	h->last_ts = ntff_ld64(p + NTFF_SH_LAST_TS);
	h->max_end_ts = ntff_ld64(p + NTFF_SH_MAX_END_TS);
	h->data_crc = ntff_ld32(p + NTFF_SH_DATA_CRC);
	return NXP_OK;
}

/* Footer, 32 bytes: 0 magic[8] "NXPNTEND"  8 index_offset u64  16 file_length u64
 *  24 reserved u32  28 crc u32 (crc32 of bytes 0..27) */
void ntff_footer_encode(const ntff_footer *f, uint8_t out[NTFF_FOOTER_SIZE])
{
	memset(out, 0, NTFF_FOOTER_SIZE);
	memcpy(out, NTFF_FOOTER_MAGIC, 8);
	ntff_st64(out + NTFF_FT_INDEX_OFFSET, f->index_offset);
	ntff_st64(out + NTFF_FT_FILE_LENGTH, f->file_length);
	ntff_st32(out + NTFF_FT_CRC, ntff_crc32(out, NTFF_FT_CRC));
}

int ntff_footer_decode(const uint8_t *p, ntff_footer *f)
{
	if (memcmp(p, NTFF_FOOTER_MAGIC, 8) != 0)
		return NXP_E_FORMAT;
	if (ntff_ld32(p + NTFF_FT_CRC) != ntff_crc32(p, NTFF_FT_CRC))
		return NXP_E_CRC;
	f->index_offset = ntff_ld64(p + NTFF_FT_INDEX_OFFSET);
	f->file_length = ntff_ld64(p + NTFF_FT_FILE_LENGTH);
	return NXP_OK;
}

/* Index entry, 56 bytes: 0 offset u64  8 kind u16  10 flags u16  12 queue u32
 *  16 count u64  24 stored_length u64  32 first_ts u64  40 last_ts u64  48 max_end_ts u64 */
void ntff_index_entry_encode(const ntff_index_entry *e, uint8_t *out)
{
	ntff_st64(out, e->offset);
	ntff_st16(out + 8, e->kind);
	ntff_st16(out + 10, e->flags);
	ntff_st32(out + 12, e->queue);
	ntff_st64(out + 16, e->count);
	ntff_st64(out + 24, e->stored_length);
	ntff_st64(out + 32, e->first_ts);
	ntff_st64(out + 40, e->last_ts);
	ntff_st64(out + 48, e->max_end_ts);
}

void ntff_index_entry_decode(const uint8_t *p, ntff_index_entry *e)
{
	e->offset = ntff_ld64(p);
	e->kind = ntff_ld16(p + 8);
	e->flags = ntff_ld16(p + 10);
	e->queue = ntff_ld32(p + 12);
	e->count = ntff_ld64(p + 16);
	e->stored_length = ntff_ld64(p + 24);
	e->first_ts = ntff_ld64(p + 32);
	e->last_ts = ntff_ld64(p + 40);
	e->max_end_ts = ntff_ld64(p + 48);
}

/* Queue entry, 24 bytes: 0 kind u16  2 engine i16 (-1 none)  4 pcore u32  8 name strref u32
 *  12 queue_idx i32  16 engine_idx i32  20 reserved u32 */
void ntff_queue_entry_encode(const ntff_queue_entry *q, uint8_t *out)
{
	ntff_st16(out, q->kind);
	ntff_st16(out + 2, (uint16_t)q->engine);
	ntff_st32(out + 4, q->pcore);
	ntff_st32(out + 8, q->name);
	ntff_st32(out + 12, (uint32_t)q->queue_idx);
	ntff_st32(out + 16, (uint32_t)q->engine_idx);
	ntff_st32(out + 20, 0);
}

void ntff_queue_entry_decode(const uint8_t *p, ntff_queue_entry *q)
{
	q->kind = ntff_ld16(p);
	q->engine = (int16_t)ntff_ld16(p + 2);
	q->pcore = ntff_ld32(p + 4);
	q->name = ntff_ld32(p + 8);
	q->queue_idx = (int32_t)ntff_ld32(p + 12);
	q->engine_idx = (int32_t)ntff_ld32(p + 16);
}

/* META entry, 16 bytes: 0 key u16  2 type u16  4 reserved u32  8 value u64 */
void ntff_meta_entry_encode(const ntff_meta_entry *m, uint8_t *out)
{
	ntff_st16(out, m->key);
	ntff_st16(out + 2, m->type);
	ntff_st32(out + 4, 0);
	ntff_st64(out + 8, m->value);
}

void ntff_meta_entry_decode(const uint8_t *p, ntff_meta_entry *m)
{
	m->key = ntff_ld16(p);
	m->type = ntff_ld16(p + 2);
	m->value = ntff_ld64(p + 8);
}

size_t ntff_record_size(unsigned kind)
{
	switch (kind) {
	case NXP_QUEUE_INSTRUCTION: return NTFF_REC_INSTRUCTION_SIZE;
	case NXP_QUEUE_DMA: return NTFF_REC_DMA_SIZE;
	case NXP_QUEUE_SEMAPHORE: return NTFF_REC_SEMAPHORE_SIZE;
	case NXP_QUEUE_THROTTLE: return NTFF_REC_THROTTLE_SIZE;
	case NXP_QUEUE_ERROR: return NTFF_REC_ERROR_SIZE;
	case NXP_QUEUE_EXECUTION: return NTFF_REC_EXECUTION_SIZE;
	case NXP_QUEUE_TPB: return NTFF_REC_TPB_SIZE;
	default: return 0;
	}
}

uint64_t ntff_record_end(unsigned kind, const uint8_t *p)
{
	switch (kind) {
	case NXP_QUEUE_INSTRUCTION:
	case NXP_QUEUE_DMA:
	case NXP_QUEUE_EXECUTION:
		return ntff_ld64(p + 8);
	case NXP_QUEUE_THROTTLE: {
		uint64_t t = ntff_ld64(p), d = ntff_ld64(p + 8);
		return t + d < t ? UINT64_MAX : t + d;
	}
	default:
		return ntff_ld64(p);
	}
}

int ntff_deflate(const uint8_t *in, size_t len, int level, uint8_t **out, size_t *out_len)
{
	uLong bound = compressBound((uLong)len);
	uint8_t *buf = malloc(bound ? bound : 1);
	if (!buf)
		return NXP_E_NOMEM;
	uLongf n = bound;
	if (compress2(buf, &n, in, (uLong)len, level < 0 ? Z_DEFAULT_COMPRESSION : level) != Z_OK) {
		free(buf);
		return NXP_E_COMPRESSION;
	}
	*out = buf;
	*out_len = n;
	return NXP_OK;
}

int ntff_inflate(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return NXP_E_NOMEM;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.next_out = out;
	int rc = Z_OK;
	size_t in_left = in_len, out_left = out_len;
	while (rc == Z_OK) {
		if (z.avail_in == 0 && in_left) {
			z.avail_in = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
			in_left -= z.avail_in;
		}
		if (z.avail_out == 0 && out_left) {
			z.avail_out = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
			out_left -= z.avail_out;
		}
		uInt ai = z.avail_in, ao = z.avail_out;
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_BUF_ERROR && ai == z.avail_in && ao == z.avail_out)
			break; /* no progress: input ended early or output full */
		if (rc == Z_BUF_ERROR)
			rc = Z_OK;
	}
	int ok = rc == Z_STREAM_END && z.total_out == out_len && z.avail_in == 0 && in_left == 0;
	inflateEnd(&z);
	return ok ? NXP_OK : NXP_E_COMPRESSION;
}
