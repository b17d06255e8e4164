/* SPDX-License-Identifier: MIT */
/* Unsigned LEB128 varints and zigzag coding (internal), written once for
 * their users: the Thrift compact protocol and DELTA_BINARY_PACKED
 * (parquet/), protobuf (system/pbwire.c), the summary feed's kept runs
 * (summary/summarize.c).  Readers of untrusted bytes bound their own
 * decoding (pbwire.c); nxp_uvarint_get reads bytes this process wrote. */
#ifndef NXP_COMMON_VARINT_H
#define NXP_COMMON_VARINT_H

#include <stddef.h>
#include <stdint.h>

/* v as a varint into b (room for 10 bytes); the bytes written. */
static inline size_t nxp_uvarint_put(uint8_t *b, uint64_t v)
{
	size_t i = 0;
	while (v >= 0x80) {
		b[i++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[i++] = (uint8_t)v;
	return i;
}

/* The varint at *p, which moves past it (a buffer nxp_uvarint_put filled). */
static inline uint64_t nxp_uvarint_get(const uint8_t **p)
{
	uint64_t v = 0;
	for (int sh = 0; sh < 64; sh += 7) {
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* Signed values small in magnitude to small unsigned ones: 0, -1, 1, -2 ... */
static inline uint64_t nxp_zigzag64(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t nxp_unzigzag64(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
