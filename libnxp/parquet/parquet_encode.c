/* SPDX-License-Identifier: MIT */
/* Parquet encodings (apache/parquet-format Encodings.md): the RLE/bit-packed
 * hybrid for definition levels and dictionary indices, and bit copies for
 * validity bitmaps and PLAIN booleans (both LSB-first, as in Arrow). */
#include "cpu.h"
#include "parquet_priv.h"

int pq_bit_width(uint32_t max_value)
{
	int bw = 1;
	while (bw < 32 && (max_value >> bw))
		bw++;
	return bw;
}

/* Whether the 8 values from v[0] are equal (one branch, not eight; two
 * vectors XORed with v[0]). */
static inline __attribute__((always_inline)) int group_equal(const uint32_t *v)
{
	uint32_t x = v[0];
	const pq_v4u xv = {x, x, x, x};
	pq_v4u a, b;
	memcpy(&a, v, 16);
	memcpy(&b, v + 4, 16);
	pq_v2u t = (pq_v2u)((a ^ xv) | (b ^ xv));
	return (t[0] | t[1]) == 0;
}

/* Length of the run of equal values starting at v[0] (at most n): 16 values
 * a step (the OR of their XORs with x, in vectors of 4), then 8, then one at
 * a time. */
static inline __attribute__((always_inline)) size_t run_length(const uint32_t *v, size_t n)
{
	size_t j = 1;
	uint32_t x = v[0];
	const pq_v4u xv = {x, x, x, x};
	while (j + 16 <= n) {
		pq_v4u a, b, c, d;
		memcpy(&a, v + j, 16);
		memcpy(&b, v + j + 4, 16);
		memcpy(&c, v + j + 8, 16);
		memcpy(&d, v + j + 12, 16);
		pq_v2u t = (pq_v2u)((a ^ xv) | (b ^ xv) | (c ^ xv) | (d ^ xv));
		if (t[0] | t[1])
			break;
		j += 16;
	}
	if (j + 8 <= n && group_equal(v + j - 1) && v[j + 7] == x)
		j += 8;
	while (j < n && v[j] == x)
		j++;
	return j;
}

static inline __attribute__((always_inline)) int put_rle_run(pq_buf *out, uint32_t value, size_t count, int bw)
{
	if (pq_buf_reserve(out, 10 + 4))
		return -1;
	out->n += nxp_uvarint_put(out->p + out->n, (uint64_t)count << 1);
	for (int i = 0; i < (bw + 7) / 8; i++)
		out->p[out->n++] = (uint8_t)(value >> (8 * i));
	return 0;
}

/* Bit-pack `groups` groups of 8 values (the tail past n padded with 0).
 * Widths up to 8 (dictionary ids, mostly): a group is 8 * bw <= 64 bits,
 * put together in one word and stored whole (the bytes past the group are
 * overwritten by the next one; out has 8 bytes of slack).  Wider: 32 bits
 * stored at a time. */
static inline __attribute__((always_inline)) int put_packed(pq_buf *out, const uint32_t *v, size_t n, size_t groups,
							  int bw)
{
	size_t bytes = groups * (size_t)bw;
	if (pq_buf_reserve(out, 10 + bytes + 8))
		return -1;
	out->n += nxp_uvarint_put(out->p + out->n, (uint64_t)groups << 1 | 1);
	uint8_t *o = out->p + out->n;
	size_t total = groups * 8;
	if (bw <= 8) {
		size_t full = n < total ? n / 8 : groups;
		unsigned s = (unsigned)bw;
		for (size_t g = 0; g < full; g++, v += 8) {
			/* two values a 64-bit load, lo | hi << 32: hi moved down to bit
			 * s by one shift, which leaves nothing of lo (< 2^s, and
			 * 32 - s >= 24 > s) */
			uint64_t p[4];
			for (int k = 0; k < 4; k++) {
				uint64_t x;
				memcpy(&x, v + 2 * k, 8);
				p[k] = (x & 0xffffffffu) | x >> (32 - s);
			}
			uint64_t acc = p[0] | p[1] << 2 * s | p[2] << 4 * s | p[3] << 6 * s;
			memcpy(o, &acc, 8);
			o += bw;
		}
		for (size_t i = full * 8; i < total; i += 8) { /* the last group, padded with 0 */
			uint64_t acc = 0;
			for (size_t j = 0; j < 8 && i + j < n; j++)
				acc |= (uint64_t)v[i - full * 8 + j] << (j * s);
			memcpy(o, &acc, 8);
			o += bw;
		}
		out->n += bytes;
		return 0;
	}
	uint64_t acc = 0; /* have < 32 bits before a value is added: at most 63 after */
	int have = 0;
	for (size_t i = 0; i < total; i++) {
		acc |= (uint64_t)(i < n ? v[i] : 0) << have;
		have += bw;
		if (have >= 32) {
			uint32_t lo = (uint32_t)acc;
			memcpy(o, &lo, 4);
			o += 4;
			acc >>= 32;
			have -= 32;
		}
	}
	for (; have > 0; have -= 8) { /* 8 * bw bits a group: whole bytes are left */
		*o++ = (uint8_t)acc;
		acc >>= 8;
	}
	out->n += bytes;
	return 0;
}

NXP_HOT_LOOP static int pq_rle_hybrid_k(pq_buf *out, const uint32_t *v, size_t n, int bw)
{
	size_t i = 0;
	while (i < n) {
		size_t run = run_length(v + i, n - i);
		if (run >= 8) {
			if (put_rle_run(out, v[i], run, bw))
				return -1;
			i += run;
			continue;
		}
		/* Bit-pack groups of 8 (at most 2^20, the last one padded when the
		 * values end) until a whole group of equal values, a run of >= 8,
		 * starts at a group boundary: the first group always, the next
		 * whole ones while not equal, then the part of a group left at the
		 * end of the values if nothing stopped before it. */
		size_t rest = n - i, groups = 1;
		size_t all = (rest + 7) / 8, whole = rest / 8;
		if (all > 1u << 20)
			all = whole = 1u << 20;
		while (groups < whole && !group_equal(v + i + 8 * groups))
			groups++;
		if (groups == whole)
			groups = all;
		size_t in = 8 * groups < rest ? 8 * groups : rest;
		if (put_packed(out, v + i, in, groups, bw))
			return -1;
		i += in;
	}
	return 0;
}

int pq_rle_hybrid(pq_buf *out, const uint32_t *v, size_t n, int bw)
{
	return pq_rle_hybrid_k(out, v, n, bw);
}

int pq_def_levels(pq_buf *out, const uint8_t *bits, size_t n, size_t nulls)
{
	if (n == 0)
		return 0;
	if (nulls == 0 || nulls == n) { /* one RLE run of 1s or 0s */
		if (pq_buf_reserve(out, 11))
			return -1;
		out->n += nxp_uvarint_put(out->p + out->n, (uint64_t)n << 1);
		out->p[out->n++] = nulls == 0;
		return 0;
	}
	/* One bit-packed run: width-1 packing is the bitmap itself. */
	size_t groups = (n + 7) / 8;
	if (pq_buf_reserve(out, 10 + groups))
		return -1;
	out->n += nxp_uvarint_put(out->p + out->n, (uint64_t)groups << 1 | 1);
	memcpy(out->p + out->n, bits, groups);
	if (n & 7) /* padding bits past the last row are 0 */
		out->p[out->n + groups - 1] &= (uint8_t)((1u << (n & 7)) - 1);
	out->n += groups;
	return 0;
}

static inline unsigned popcount8(unsigned x)
{
	return (unsigned)__builtin_popcount(x);
}

NXP_HOT_LOOP static int64_t pq_bits_copy_k(uint8_t *dst, int64_t dpos, const uint8_t *src, int64_t spos, int64_t n)
{
	int64_t ones = 0;
	if (n <= 0)
		return 0;
	if (((dpos | spos) & 7) == 0) {
		size_t whole = (size_t)(n >> 3);
		const uint8_t *s = src + (spos >> 3);
		uint8_t *d = dst + (dpos >> 3);
		memcpy(d, s, whole);
		for (size_t i = 0; i < whole; i++)
			ones += popcount8(s[i]);
		int rem = (int)(n & 7);
		if (rem) {
			uint8_t last = (uint8_t)(s[whole] & ((1u << rem) - 1));
			d[whole] = last;
			ones += popcount8(last);
		}
		return ones;
	}
	while (n > 0) {
		int take = n < 8 ? (int)n : 8;
		int64_t sb = spos >> 3;
		int so = (int)(spos & 7);
		unsigned x = src[sb] >> so;
		if (so + take > 8)
			x |= (unsigned)src[sb + 1] << (8 - so);
		x &= (1u << take) - 1;
		ones += popcount8(x);
		int64_t db = dpos >> 3;
		int doff = (int)(dpos & 7);
		dst[db] |= (uint8_t)(x << doff);
		if (doff + take > 8)
			dst[db + 1] |= (uint8_t)(x >> (8 - doff));
		spos += take;
		dpos += take;
		n -= take;
	}
	return ones;
}

int64_t pq_bits_copy(uint8_t *dst, int64_t dpos, const uint8_t *src, int64_t spos, int64_t n)
{
	return pq_bits_copy_k(dst, dpos, src, spos, n);
}

void pq_bits_set(uint8_t *dst, int64_t dpos, int64_t n)
{
	while (n > 0 && (dpos & 7)) {
		dst[dpos >> 3] |= (uint8_t)(1u << (dpos & 7));
		dpos++;
		n--;
	}
	if (n >= 8) {
		memset(dst + (dpos >> 3), 0xff, (size_t)(n >> 3));
		dpos += n & ~(int64_t)7;
		n &= 7;
	}
	while (n > 0) {
		dst[dpos >> 3] |= (uint8_t)(1u << (dpos & 7));
		dpos++;
		n--;
	}
}

/* ---- DELTA_BINARY_PACKED ------------------------------------------------- */

#define DELTA_BLOCK 128
#define DELTA_MINIBLOCKS 4
#define DELTA_MINI (DELTA_BLOCK / DELTA_MINIBLOCKS)

static inline int width64(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* 32 values x[i] - base of `bw` bits (0..64, each < 2^bw), LSB first:
 * 4 * bw bytes.  Instantiated once per width (pack32 below): with bw a
 * constant the unrolled loop's word boundaries are known, so no branch is
 * left. */
static inline __attribute__((always_inline)) uint8_t *pack32_w(uint8_t *o, const uint64_t *x, uint64_t base,
							       const int bw)
{
	if (bw == 0)
		return o;
	uint64_t acc = 0;
	int have = 0;
#pragma GCC unroll 32
	for (int i = 0; i < DELTA_MINI; i++) {
		uint64_t r = x[i] - base;
		acc |= r << have;
		have += bw;
		if (have >= 64) {
			memcpy(o, &acc, 8);
			o += 8;
			have -= 64;
			/* the bits of r that did not fit (none when it ended exactly on the word) */
			acc = have ? r >> (bw - have) : 0;
		}
	}
	if (have) /* 32 * bw bits: a half word is left when bw is odd */
		memcpy(o, &acc, 4), o += 4;
	return o;
}

#define PACK_CASE(W) \
	case W: return pack32_w(o, x, base, W);
#define PACK_CASES8(W) PACK_CASE(W) PACK_CASE(W + 1) PACK_CASE(W + 2) PACK_CASE(W + 3) \
	PACK_CASE(W + 4) PACK_CASE(W + 5) PACK_CASE(W + 6) PACK_CASE(W + 7)

static inline __attribute__((always_inline)) uint8_t *pack32(uint8_t *o, const uint64_t *x, uint64_t base, int bw)
{
	switch (bw) {
	PACK_CASES8(1) PACK_CASES8(9) PACK_CASES8(17) PACK_CASES8(25)
	PACK_CASES8(33) PACK_CASES8(41) PACK_CASES8(49) PACK_CASES8(57)
	default: return o; /* 0: no bits */
	}
}

/* One block of m (1..128) deltas in d[] (room for 128) with its min delta:
 * the relative deltas d - min_delta are taken as they are packed (no pass
 * of their own); the padding to the miniblock is min_delta (relative 0). */
NXP_HOT_LOOP static uint8_t *put_block(uint8_t *o, uint64_t *d, size_t m, int64_t min_delta)
{
	o += nxp_uvarint_put(o, nxp_zigzag64(min_delta));
	uint64_t base = (uint64_t)min_delta;
	for (size_t j = m; j < DELTA_BLOCK; j++)
		d[j] = base;
	size_t used = (m + DELTA_MINI - 1) / DELTA_MINI;
	int bw[DELTA_MINIBLOCKS];
	for (size_t b = 0; b < DELTA_MINIBLOCKS; b++) {
		uint64_t any = 0;
		if (b < used)
			for (size_t j = 0; j < DELTA_MINI; j++)
				any |= d[b * DELTA_MINI + j] - base;
		bw[b] = width64(any);
		*o++ = (uint8_t)bw[b]; /* 0 for the miniblocks past the last value */
	}
	for (size_t b = 0; b < used; b++)
		o = pack32(o, d + b * DELTA_MINI, base, bw[b]);
	return o;
}

/* Room for the header and every block of n values of `bytes` bytes each. */
static int delta_reserve(pq_buf *out, size_t n, size_t bytes)
{
	size_t blocks = n ? (n - 1 + DELTA_BLOCK - 1) / DELTA_BLOCK : 0;
	return pq_buf_reserve(out, 4 * 10 + blocks * (10 + DELTA_MINIBLOCKS + DELTA_BLOCK * bytes));
}

static uint8_t *delta_header(uint8_t *o, size_t n, int64_t first)
{
	o += nxp_uvarint_put(o, DELTA_BLOCK);
	o += nxp_uvarint_put(o, DELTA_MINIBLOCKS);
	o += nxp_uvarint_put(o, n);
	o += nxp_uvarint_put(o, nxp_zigzag64(first));
	return o;
}

NXP_HOT_LOOP static int pq_delta_i64_k(pq_buf *out, const int64_t *v, size_t n)
{
	if (delta_reserve(out, n, 8))
		return -1;
	uint8_t *o = delta_header(out->p + out->n, n, n ? v[0] : 0);
	uint64_t rel[DELTA_BLOCK];
	for (size_t i = 1; i < n; i += DELTA_BLOCK) {
		size_t m = n - i < DELTA_BLOCK ? n - i : DELTA_BLOCK;
		const int64_t *p = v + i;
		/* deltas wrap in two's complement (uint64 arithmetic), as the spec allows */
		int64_t mn = (int64_t)((uint64_t)p[0] - (uint64_t)p[-1]);
		for (size_t j = 0; j < m; j++) {
			int64_t d = (int64_t)((uint64_t)p[j] - (uint64_t)p[(ptrdiff_t)j - 1]);
			rel[j] = (uint64_t)d;
			mn = d < mn ? d : mn;
		}
		o = put_block(o, rel, m, mn);
	}
	out->n = (size_t)(o - out->p);
	return 0;
}

int pq_delta_i64(pq_buf *out, const int64_t *v, size_t n)
{
	return pq_delta_i64_k(out, v, n);
}

NXP_HOT_LOOP static int pq_delta_i32_k(pq_buf *out, const int32_t *v, size_t n)
{
	if (delta_reserve(out, n, 4))
		return -1;
	uint8_t *o = delta_header(out->p + out->n, n, n ? v[0] : 0);
	uint64_t rel[DELTA_BLOCK];
	for (size_t i = 1; i < n; i += DELTA_BLOCK) {
		size_t m = n - i < DELTA_BLOCK ? n - i : DELTA_BLOCK;
		const int32_t *p = v + i;
		/* 32-bit wrapping deltas, kept sign-extended: d - mn (d >= mn) is then
		 * the 32-bit relative delta, never more than 32 bits */
		int32_t mn = (int32_t)((uint32_t)p[0] - (uint32_t)p[-1]);
		for (size_t j = 0; j < m; j++) {
			int32_t d = (int32_t)((uint32_t)p[j] - (uint32_t)p[(ptrdiff_t)j - 1]);
			rel[j] = (uint64_t)(int64_t)d;
			mn = d < mn ? d : mn;
		}
		o = put_block(o, rel, m, mn);
	}
	out->n = (size_t)(o - out->p);
	return 0;
}

int pq_delta_i32(pq_buf *out, const int32_t *v, size_t n)
{
	return pq_delta_i32_k(out, v, n);
}
