/* SPDX-License-Identifier: MIT */
/* The fixed 1024-byte NEFF header: parse, validate, encode. */
#include "neff_priv.h"

#include "abi_struct.h"

#include <string.h>

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A NUL-padded text field into a NUL-terminated string of capacity len + 1. */
static void text_field(char *dst, const uint8_t *src, size_t len)
{
	size_t n = strnlen((const char *)src, len);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int nxp_neff_parse_header(const void *buf, size_t len, int64_t file_size, nxp_neff_header *out, nxp_status *st)
{
	if (!buf || !nxp__struct_size_ok(out, NXP_NEFF_HEADER_SIZE_V0_1))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_neff_parse_header: NULL argument or short struct_size");
	if (len < NXP_NEFF_HEADER_SIZE)
		return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)len,
				      "NEFF header truncated: %zu of %d bytes", len, NXP_NEFF_HEADER_SIZE);
	const uint8_t *b = buf;
	nxp_neff_header h;
	memset(&h, 0, sizeof(h));
	h.struct_size = sizeof(h);
	h.pkg_version = rd64(b + NEFF_OFF_PKG_VERSION);
	h.header_size = rd64(b + NEFF_OFF_HEADER_SIZE);
	h.data_size = rd64(b + NEFF_OFF_DATA_SIZE);
	h.neff_version_major = rd64(b + NEFF_OFF_VERSION_MAJOR);
	h.neff_version_minor = rd64(b + NEFF_OFF_VERSION_MINOR);
	text_field(h.build_version, b + NEFF_OFF_BUILD_VERSION, 128);
	h.num_tpb = rd32(b + NEFF_OFF_NUM_TPB);
	memcpy(h.hash, b + NEFF_OFF_HASH, sizeof(h.hash));
	memcpy(h.uuid, b + NEFF_OFF_UUID, sizeof(h.uuid));
	text_field(h.name, b + NEFF_OFF_NAME, 256);
	h.requested_tpb_count = rd32(b + NEFF_OFF_REQUESTED_TPB);
	memcpy(h.tpb_per_node, b + NEFF_OFF_TPB_PER_NODE, sizeof(h.tpb_per_node));
	h.feature_bits = rd64(b + NEFF_OFF_FEATURE_BITS);
	h.lnc_size = rd32(b + NEFF_OFF_LNC_SIZE);

	if (h.pkg_version != 1 && h.pkg_version != 2)
		return nxp__error_set(st, NXP_E_VERSION, NEFF_OFF_PKG_VERSION,
				      "unsupported NEFF package version %llu (supported: 1 and 2)",
				      (unsigned long long)h.pkg_version);
	if (h.header_size != NXP_NEFF_HEADER_SIZE)
		return nxp__error_set(st, NXP_E_FORMAT, NEFF_OFF_HEADER_SIZE, "NEFF header_size is %llu, expected %d",
				      (unsigned long long)h.header_size, NXP_NEFF_HEADER_SIZE);
	if (h.neff_version_major > NEFF_MAX_VERSION_MAJOR)
		return nxp__error_set(st, NXP_E_VERSION, NEFF_OFF_VERSION_MAJOR,
				      "unsupported NEFF version %llu.%llu (supported: major 0 to %d)",
				      (unsigned long long)h.neff_version_major,
				      (unsigned long long)h.neff_version_minor,
				      NEFF_MAX_VERSION_MAJOR);
	if (h.data_size == 0)
		return nxp__error_set(st, NXP_E_FORMAT, NEFF_OFF_DATA_SIZE, "NEFF data_size is 0 (no payload)");
	if (file_size >= 0) {
		if (file_size < NXP_NEFF_HEADER_SIZE)
			return nxp__error_set(st, NXP_E_TRUNCATED, file_size,
					      "file of %lld bytes is shorter than the NEFF header",
					      (long long)file_size);
		uint64_t room = (uint64_t)file_size - NXP_NEFF_HEADER_SIZE;
		if (h.data_size > room)
			return nxp__error_set(st, NXP_E_FORMAT, NEFF_OFF_DATA_SIZE,
					      "invalid NEFF data_size %llu: only %llu bytes follow the header",
					      (unsigned long long)h.data_size, (unsigned long long)room);
	}
	NXP__STRUCT_OUT(out, h, NXP_NEFF_HEADER_SIZE_V0_1);
	return NXP_OK;
}

void neff_header_encode(const nxp_neff_header *h, uint8_t out[NXP_NEFF_HEADER_SIZE])
{
	memset(out, 0, NXP_NEFF_HEADER_SIZE);
	wr64(out + NEFF_OFF_PKG_VERSION, h->pkg_version);
	wr64(out + NEFF_OFF_HEADER_SIZE, h->header_size);
	wr64(out + NEFF_OFF_DATA_SIZE, h->data_size);
	wr64(out + NEFF_OFF_VERSION_MAJOR, h->neff_version_major);
	wr64(out + NEFF_OFF_VERSION_MINOR, h->neff_version_minor);
	memcpy(out + NEFF_OFF_BUILD_VERSION, h->build_version, strnlen(h->build_version, 128));
	wr32(out + NEFF_OFF_NUM_TPB, h->num_tpb);
	memcpy(out + NEFF_OFF_HASH, h->hash, sizeof(h->hash));
	memcpy(out + NEFF_OFF_UUID, h->uuid, sizeof(h->uuid));
	memcpy(out + NEFF_OFF_NAME, h->name, strnlen(h->name, 256));
	wr32(out + NEFF_OFF_REQUESTED_TPB, h->requested_tpb_count);
	memcpy(out + NEFF_OFF_TPB_PER_NODE, h->tpb_per_node, sizeof(h->tpb_per_node));
	wr64(out + NEFF_OFF_FEATURE_BITS, h->feature_bits);
	wr32(out + NEFF_OFF_LNC_SIZE, h->lnc_size);
}
