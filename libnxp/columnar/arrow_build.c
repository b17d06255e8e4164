/* SPDX-License-Identifier: MIT */
/* Arrow builders: growable buffers, validity bitmaps, per-batch dictionaries
 * (looked up by pointer first, then by content), and the release callbacks.
 * Every finished array owns its buffers through its private_data, so a batch
 * stays valid after the stream and the profile are gone, and each node (the
 * batch, a column, a dictionary) can be moved out and released on its own, in
 * any order, from any thread.
 *
 * Buffer reuse: a column array's buffers go, when it is released, to its
 * builder's pool (nxc_pool: a mutex, a reference count held by the builder
 * and by every column array not yet released, and a few free buffers); the
 * builder's next batches take their buffers from it, so a stream whose
 * batches are released as they come stops asking the kernel for fresh pages
 * (page faults were ~15-25 % of the Instruction and DmaPacket passes).  The
 * last holder frees the pool; a released buffer that does not fit (pool full
 * or too small to be worth keeping) is freed. */
#include "columnar_priv.h"
#include "cpu.h"
#include "mcache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int nxc_buf_reserve(nxc_buf *b, size_t extra)
{
	if (b->cap - b->len >= extra && b->p)
		return 0;
	size_t want = b->len + extra, cap = b->cap ? b->cap : 64;
	if (want < b->len)
		return NXP_E_NOMEM;
	while (cap < want) {
		if (cap > SIZE_MAX / 2)
			return NXP_E_NOMEM;
		cap *= 2;
	}
	uint8_t *p = nxp__mc_grow(b->p, b->len, b->cap, cap, &cap);
	if (!p)
		return NXP_E_NOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void buf_free(nxc_buf *b)
{
	nxp__mc_free(b->p, b->cap);
	b->p = NULL;
	b->len = b->cap = 0;
}


/* ---- the buffer pool ---- */
#define POOL_SLOTS 64
#define POOL_MIN ((size_t)4096)            /* smaller buffers come from malloc's bins */
#define POOL_MAX_BYTES ((size_t)256 << 20) /* held at most */

struct nxc_pool {
	pthread_mutex_t mu;
	int refs;
	int n;
	size_t bytes;
	void *p[POOL_SLOTS];
	size_t cap[POOL_SLOTS];
};

static nxc_pool *pool_new(void)
{
	nxc_pool *pl = calloc(1, sizeof(*pl));
	if (!pl)
		return NULL;
	if (pthread_mutex_init(&pl->mu, NULL)) {
		free(pl);
		return NULL;
	}
	pl->refs = 1;
	return pl;
}

static void pool_ref(nxc_pool *pl)
{
	pthread_mutex_lock(&pl->mu);
	pl->refs++;
	pthread_mutex_unlock(&pl->mu);
}

static void pool_unref(nxc_pool *pl)
{
	if (!pl)
		return;
	pthread_mutex_lock(&pl->mu);
	int left = --pl->refs;
	pthread_mutex_unlock(&pl->mu);
	if (left)
		return;
	for (int i = 0; i < pl->n; i++)
		nxp__mc_free(pl->p[i], pl->cap[i]);
	pthread_mutex_destroy(&pl->mu);
	free(pl);
}

/* Give buffer p (capacity cap) back: kept or freed. */
static void pool_put(nxc_pool *pl, void *p, size_t cap)
{
	if (!p)
		return;
	if (pl && cap >= POOL_MIN) {
		pthread_mutex_lock(&pl->mu);
		if (pl->n < POOL_SLOTS && pl->bytes + cap <= POOL_MAX_BYTES) {
			pl->p[pl->n] = p;
			pl->cap[pl->n] = cap;
			pl->n++;
			pl->bytes += cap;
			p = NULL;
		}
		pthread_mutex_unlock(&pl->mu);
	}
	nxp__mc_free(p, cap);
}

/* A buffer of at least `want` bytes into the empty b: the pool's smallest
 * that fits, else a new one.  NXP_E_NOMEM. */
static int pool_get(nxc_pool *pl, nxc_buf *b, size_t want)
{
	if (pl && want >= POOL_MIN) {
		pthread_mutex_lock(&pl->mu);
		int best = -1;
		for (int i = 0; i < pl->n; i++)
			if (pl->cap[i] >= want && (best < 0 || pl->cap[i] < pl->cap[best]))
				best = i;
		if (best >= 0) {
			b->p = pl->p[best];
			b->cap = pl->cap[best];
			pl->bytes -= b->cap;
			pl->n--;
			pl->p[best] = pl->p[pl->n];
			pl->cap[best] = pl->cap[pl->n];
		}
		pthread_mutex_unlock(&pl->mu);
		if (best >= 0) {
			b->len = 0;
			return 0;
		}
	}
	b->len = 0;
	return nxc_buf_reserve(b, want);
}

/* ---- dictionaries ---- */
struct nxc_dict {
	nxc_buf chars, offsets; /* the utf8 dictionary being built */
	int32_t n;
	const char **pkeys;     /* pointer cache: open addressing */
	int32_t *pvals;
	size_t pcap, pn;
	int32_t *hslots;        /* content hash: index + 1, 0 = empty */
	size_t hcap;
};

static uint64_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static void dict_free(nxc_dict *d)
{
	if (!d)
		return;
	buf_free(&d->chars);
	buf_free(&d->offsets);
	free(d->pkeys);
	free(d->pvals);
	free(d->hslots);
	free(d);
}

static int dict_reset(nxc_dict *d)
{
	d->n = 0;
	d->chars.len = 0;
	d->offsets.len = 0;
	if (nxc_buf_reserve(&d->offsets, 4))
		return NXP_E_NOMEM;
	memset(d->offsets.p, 0, 4);
	d->offsets.len = 4;
	if (d->pkeys)
		memset(d->pkeys, 0, d->pcap * sizeof(*d->pkeys));
	d->pn = 0;
	if (d->hslots)
		memset(d->hslots, 0, d->hcap * sizeof(*d->hslots));
	return 0;
}

static const char *dict_str(const nxc_dict *d, int32_t i, size_t *len)
{
	const int32_t *o = (const int32_t *)d->offsets.p;
	*len = (size_t)(o[i + 1] - o[i]);
	return (const char *)d->chars.p + o[i];
}

static int dict_grow_hash(nxc_dict *d)
{
	size_t cap = d->hcap ? d->hcap * 2 : 64;
	int32_t *h = calloc(cap, sizeof(*h));
	if (!h)
		return NXP_E_NOMEM;
	for (int32_t i = 0; i < d->n; i++) {
		size_t len;
		const char *s = dict_str(d, i, &len);
		size_t k = (size_t)hash_str(s, len) & (cap - 1);
		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(d->hslots);
	d->hslots = h;
	d->hcap = cap;
	return 0;
}

static int dict_grow_ptr(nxc_dict *d)
{
	size_t cap = d->pcap ? d->pcap * 2 : 64;
	const char **k = calloc(cap, sizeof(*k));
	int32_t *v = calloc(cap, sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return NXP_E_NOMEM;
	}
	for (size_t i = 0; i < d->pcap; i++) {
		if (!d->pkeys[i])
			continue;
		size_t j = (size_t)hash_ptr(d->pkeys[i]) & (cap - 1);
		while (k[j])
			j = (j + 1) & (cap - 1);
		k[j] = d->pkeys[i];
		v[j] = d->pvals[i];
	}
	free(d->pkeys);
	free(d->pvals);
	d->pkeys = k;
	d->pvals = v;
	d->pcap = cap;
	return 0;
}

/* Index of `s` in the dictionary, adding it if new; negative on NOMEM.
 * `stable`: s stays at its address with the same content for the whole batch
 * (profile strings), so the pointer cache may remember it. */
static int32_t dict_index(nxc_dict *d, const char *s, int stable)
{
	if (!s)
		s = "";
	size_t pk = 0;
	if (stable) {
		if (d->pn * 2 >= d->pcap && dict_grow_ptr(d))
			return NXP_E_NOMEM;
		size_t pm = d->pcap - 1;
		pk = (size_t)hash_ptr(s) & pm;
		while (d->pkeys[pk]) {
			if (d->pkeys[pk] == s)
				return d->pvals[pk];
			pk = (pk + 1) & pm;
		}
	}
	/* a new pointer: look the content up */
	if ((size_t)d->n * 2 >= d->hcap && dict_grow_hash(d))
		return NXP_E_NOMEM;
	size_t len = strlen(s);
	size_t hm = d->hcap - 1, hk = (size_t)hash_str(s, len) & hm;
	int32_t idx = -1;
	while (d->hslots[hk]) {
		size_t l2;
		const char *s2 = dict_str(d, d->hslots[hk] - 1, &l2);
		if (l2 == len && memcmp(s2, s, len) == 0) {
			idx = d->hslots[hk] - 1;
			break;
		}
		hk = (hk + 1) & hm;
	}
	if (idx < 0) {
		if (len > (size_t)INT32_MAX - d->chars.len || nxc_buf_reserve(&d->chars, len) ||
		    nxc_buf_reserve(&d->offsets, 4))
			return NXP_E_NOMEM;
		memcpy(d->chars.p + d->chars.len, s, len);
		d->chars.len += len;
		int32_t end = (int32_t)d->chars.len;
		memcpy(d->offsets.p + d->offsets.len, &end, 4);
		d->offsets.len += 4;
		idx = d->n++;
		d->hslots[hk] = idx + 1;
	}
	if (stable) {
		d->pkeys[pk] = s;
		d->pvals[pk] = idx;
		d->pn++;
	}
	return idx;
}

/* ---- one column ---- */
static size_t elem_size(int type)
{
	switch (type) {
	case NXC_I64:
	case NXC_F64:
		return 8;
	case NXC_I32:
	case NXC_DICT:
		return 4;
	default:
		return 0;
	}
}

static int col_begin(nxc_colbuf *c)
{
	c->length = c->null_count = 0;
	c->data.len = c->offsets.len = c->validity.len = 0;
	/* a batch after the first starts with the room the last one ended with */
	if (!c->data.p && c->hint[0] > 8 ? pool_get(c->pool, &c->data, c->hint[0]) : nxc_buf_reserve(&c->data, 8))
		return NXP_E_NOMEM;
	if (c->type == NXC_UTF8) {
		if (!c->offsets.p && c->hint[1] > 4 ? pool_get(c->pool, &c->offsets, c->hint[1])
						    : nxc_buf_reserve(&c->offsets, 4))
			return NXP_E_NOMEM;
		memset(c->offsets.p, 0, 4);
		c->offsets.len = 4;
	}
	if (c->type == NXC_DICT) {
		if (!c->dict && !(c->dict = calloc(1, sizeof(*c->dict))))
			return NXP_E_NOMEM;
		if (dict_reset(c->dict))
			return NXP_E_NOMEM;
		memset(c->memo_s, 0, sizeof(c->memo_s));
	}
	return 0;
}

int nxc_col_reserve(nxc_colbuf *c, int64_t n)
{
	size_t es = elem_size(c->type);
	if (es) {
		if (nxc_buf_reserve(&c->data, (size_t)n * es))
			return NXP_E_NOMEM;
	} else if (c->type == NXC_BOOL) {
		if (nxc_buf_reserve(&c->data, (size_t)(n + 8) / 8 + 1))
			return NXP_E_NOMEM;
	} else if (c->type == NXC_UTF8) {
		if (nxc_buf_reserve(&c->offsets, (size_t)n * 4))
			return NXP_E_NOMEM;
	}
	if (c->validity.p && nxc_buf_reserve(&c->validity, (size_t)(n + 8) / 8 + 1))
		return NXP_E_NOMEM;
	return 0;
}

/* ---- bitmaps (validity, bool values) ----
 * Bits of the rows not appended yet are kept 0 in every byte below b->len,
 * so a bulk append only ORs its bits in. */

/* Bytes for `nbits` bits in b, the new ones zeroed.  NXP_E_NOMEM. */
static int bits_room(nxc_buf *b, int64_t nbits)
{
	size_t need = (size_t)(nbits + 7) / 8;
	if (need <= b->len)
		return 0;
	if (nxc_buf_reserve(b, need - b->len + 64))
		return NXP_E_NOMEM;
	memset(b->p + b->len, 0, need - b->len + 64);
	b->len = need + 64;
	return 0;
}

/* Eight flag bytes (0: clear, anything else: set) as eight bytes 0 or 1,
 * the first flag in the lowest byte. */
static inline uint64_t flags8(const uint8_t *v)
{
	uint64_t x;
	memcpy(&x, v, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
	return ((((x & lo7) + lo7) | x) >> 7) & 0x0101010101010101ULL; /* each byte: 1 if non-zero */
}

/* OR the flags v[0..n) (NULL: all set) into bitmap `bits` from bit `at`
 * (bits from `at` on are 0); the count of clear flags. */
static size_t pack_bits(uint8_t *bits, int64_t at, const uint8_t *v, size_t n)
{
	size_t i = 0, clear = 0;
	for (; i < n && (at + (int64_t)i) % 8; i++) {
		int64_t k = at + (int64_t)i;
		int on = !v || v[i];
		bits[k / 8] |= (uint8_t)(on << (k % 8));
		clear += !on;
	}
	uint8_t *o = bits + (at + (int64_t)i) / 8;
	for (; i + 8 <= n; i += 8) {
		if (!v) {
			*o++ = 0xff;
			continue;
		}
		uint64_t x = flags8(v + i);
		*o++ = (uint8_t)((x * 0x0102040810204080ULL) >> 56);
		clear += 8 - (size_t)((x * 0x0101010101010101ULL) >> 56); /* the sum of the bytes */
	}
	for (uint8_t sh = 0; i < n; i++, sh++) {
		int on = !v || v[i];
		*o |= (uint8_t)(on << sh);
		clear += !on;
	}
	return clear;
}

/* The validity bitmap made at the first null: rows [0, length) valid. */
static int validity_start(nxc_colbuf *c)
{
	int64_t i = c->length;
	size_t full = (size_t)(i / 8), bytes = full + 1;
	size_t want = c->hint[2] > bytes + 64 ? c->hint[2] : bytes + 64;
	if (pool_get(c->pool, &c->validity, want))
		return NXP_E_NOMEM;
	memset(c->validity.p, 0xff, full);
	c->validity.p[full] = (uint8_t)((1u << (i % 8)) - 1);
	c->validity.len = bytes;
	return 0;
}

/* Record validity of row c->length (before it is counted). */
static int set_valid(nxc_colbuf *c, int valid)
{
	if (!valid && !c->validity.p && validity_start(c))
		return NXP_E_NOMEM;
	if (!c->validity.p)
		return 0;
	int64_t i = c->length;
	if (bits_room(&c->validity, i + 1))
		return NXP_E_NOMEM;
	if (valid)
		c->validity.p[i / 8] |= (uint8_t)(1u << (i % 8));
	return 0;
}

/* Validity of rows c->length .. + n (ok NULL: all valid; ok[i] == 0: row i
 * null), before they are counted: null_count grows by the nulls.  No bitmap
 * is made while there is no null. */
static int put_validity(nxc_colbuf *c, const uint8_t *ok, size_t n)
{
	if (!c->validity.p) {
		if (!ok || !memchr(ok, 0, n))
			return 0;
		if (validity_start(c))
			return NXP_E_NOMEM;
	}
	if (bits_room(&c->validity, c->length + (int64_t)n))
		return NXP_E_NOMEM;
	c->null_count += (int64_t)pack_bits(c->validity.p, c->length, ok, n);
	return 0;
}

static int put_fixed(nxc_colbuf *c, const void *v, size_t n)
{
	if (nxc_buf_reserve(&c->data, n))
		return NXP_E_NOMEM;
	memcpy(c->data.p + c->data.len, v, n);
	c->data.len += n;
	return 0;
}

static int put_bit(nxc_colbuf *c, int v)
{
	if (bits_room(&c->data, c->length + 1))
		return NXP_E_NOMEM;
	if (v)
		c->data.p[c->length / 8] |= (uint8_t)(1u << (c->length % 8));
	return 0;
}

static int put_chars(nxc_colbuf *c, const char *s, size_t len)
{
	if (len > (size_t)INT32_MAX - c->data.len || nxc_buf_reserve(&c->data, len) ||
	    nxc_buf_reserve(&c->offsets, 4))
		return NXP_E_NOMEM;
	memcpy(c->data.p + c->data.len, s, len);
	c->data.len += len;
	int32_t end = (int32_t)c->data.len;
	memcpy(c->offsets.p + c->offsets.len, &end, 4);
	c->offsets.len += 4;
	return 0;
}

int nxc_col_append_null(nxc_colbuf *c)
{
	if (set_valid(c, 0))
		return NXP_E_NOMEM;
	int rc = 0;
	int64_t zero = 0;
	switch (c->type) {
	case NXC_I64:
	case NXC_F64:
		rc = put_fixed(c, &zero, 8);
		break;
	case NXC_I32:
	case NXC_DICT:
		rc = put_fixed(c, &zero, 4);
		break;
	case NXC_BOOL:
		rc = put_bit(c, 0);
		break;
	case NXC_UTF8:
		rc = put_chars(c, "", 0);
		break;
	}
	if (rc)
		return rc;
	c->null_count++;
	c->length++;
	return 0;
}

int nxc_col_append_i64(nxc_colbuf *c, int64_t v)
{
	int rc;
	if (set_valid(c, 1))
		return NXP_E_NOMEM;
	switch (c->type) {
	case NXC_I64:
		rc = put_fixed(c, &v, 8);
		break;
	case NXC_I32: {
		int32_t x = (int32_t)v;
		rc = put_fixed(c, &x, 4);
		break;
	}
	case NXC_F64: {
		double x = (double)v;
		rc = put_fixed(c, &x, 8);
		break;
	}
	case NXC_BOOL:
		rc = put_bit(c, v != 0);
		break;
	default:
		return NXP_E_INVAL;
	}
	if (rc)
		return rc;
	c->length++;
	return 0;
}

int nxc_col_append_f64(nxc_colbuf *c, double v)
{
	if (c->type != NXC_F64)
		return nxc_col_append_i64(c, (int64_t)v);
	if (set_valid(c, 1) || put_fixed(c, &v, 8))
		return NXP_E_NOMEM;
	c->length++;
	return 0;
}

int nxc_col_append_bool(nxc_colbuf *c, int v)
{
	return nxc_col_append_i64(c, v != 0);
}

int nxc_col_append_str(nxc_colbuf *c, const char *s)
{
	if (set_valid(c, 1))
		return NXP_E_NOMEM;
	if (c->type == NXC_DICT) {
		int32_t idx = dict_index(c->dict, s, c->stable_strings);
		if (idx < 0 || put_fixed(c, &idx, 4))
			return NXP_E_NOMEM;
	} else if (c->type == NXC_UTF8) {
		if (!s)
			s = "";
		if (put_chars(c, s, strlen(s)))
			return NXP_E_NOMEM;
	} else {
		return NXP_E_INVAL;
	}
	c->length++;
	return 0;
}

/* ---- bulk appends ---- */
NXP_HOT_LOOP static int nxc_col_put_i64s_k(nxc_colbuf *c, const int64_t *v, const uint8_t *valid, size_t n)
{
	if (c->type != NXC_I64 && c->type != NXC_I32 && c->type != NXC_F64) {
		for (size_t i = 0; i < n; i++)
			if ((valid && !valid[i]) ? nxc_col_append_null(c) : nxc_col_append_i64(c, v[i]))
				return NXP_E_NOMEM;
		return 0;
	}
	size_t es = c->type == NXC_I32 ? 4 : 8;
	if (nxc_col_reserve(c, (int64_t)n) || put_validity(c, valid, n))
		return NXP_E_NOMEM;
	c->length += (int64_t)n;
	uint8_t *dst = c->data.p + c->data.len;
	if (c->type == NXC_I64 && !valid) {
		memcpy(dst, v, 8 * n);
	} else if (c->type == NXC_I64) {
		for (size_t i = 0; i < n; i++) {
			int64_t x = valid[i] ? v[i] : 0;
			memcpy(dst + 8 * i, &x, 8);
		}
	} else if (c->type == NXC_I32) {
		for (size_t i = 0; i < n; i++) {
			int32_t x = (!valid || valid[i]) ? (int32_t)v[i] : 0;
			memcpy(dst + 4 * i, &x, 4);
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			double x = (!valid || valid[i]) ? (double)v[i] : 0.0;
			memcpy(dst + 8 * i, &x, 8);
		}
	}
	c->data.len += es * n;
	return 0;
}

int nxc_col_put_i64s(nxc_colbuf *c, const int64_t *v, const uint8_t *valid, size_t n)
{
	return nxc_col_put_i64s_k(c, v, valid, n);
}

int64_t *nxc_col_i64_direct(nxc_colbuf *c, size_t n)
{
	if (c->type != NXC_I64 || c->validity.p || nxc_col_reserve(c, (int64_t)n))
		return NULL;
	return (int64_t *)(void *)(c->data.p + c->data.len); /* malloc'd, 8-byte steps: aligned */
}

void nxc_col_commit(nxc_colbuf *c, size_t n)
{
	c->data.len += 8 * n;
	c->length += (int64_t)n;
}

int nxc_col_put_f64s(nxc_colbuf *c, const double *v, size_t n)
{
	if (c->type != NXC_F64 || c->validity.p) {
		for (size_t i = 0; i < n; i++)
			if (nxc_col_append_f64(c, v[i]))
				return NXP_E_NOMEM;
		return 0;
	}
	if (nxc_col_reserve(c, (int64_t)n))
		return NXP_E_NOMEM;
	memcpy(c->data.p + c->data.len, v, 8 * n);
	c->data.len += 8 * n;
	c->length += (int64_t)n;
	return 0;
}

int nxc_col_put_bools(nxc_colbuf *c, const uint8_t *v, size_t n)
{
	if (c->type != NXC_BOOL) {
		for (size_t i = 0; i < n; i++)
			if (nxc_col_append_bool(c, v[i]))
				return NXP_E_NOMEM;
		return 0;
	}
	if (put_validity(c, NULL, n) || bits_room(&c->data, c->length + (int64_t)n))
		return NXP_E_NOMEM;
	pack_bits(c->data.p, c->length, v, n);
	c->length += (int64_t)n;
	return 0;
}

/* Plain utf8: the characters of each valid row ("" for NULL), none for a
 * null row. */
static int put_utf8s(nxc_colbuf *c, const char *const *v, const uint8_t *valid, size_t n)
{
	if (nxc_col_reserve(c, (int64_t)n) || put_validity(c, valid, n))
		return NXP_E_NOMEM;
	uint8_t *off = c->offsets.p + c->offsets.len;
	for (size_t i = 0; i < n; i++) {
		const char *s = (valid && !valid[i]) || !v[i] ? "" : v[i];
		size_t len = strlen(s);
		if (len > (size_t)INT32_MAX - c->data.len || nxc_buf_reserve(&c->data, len))
			return NXP_E_NOMEM;
		memcpy(c->data.p + c->data.len, s, len);
		c->data.len += len;
		int32_t end = (int32_t)c->data.len;
		memcpy(off + 4 * i, &end, 4);
	}
	c->offsets.len += 4 * n;
	c->length += (int64_t)n;
	return 0;
}

int nxc_col_put_strs(nxc_colbuf *c, const char *const *v, const uint8_t *valid, size_t n)
{
	if (c->type == NXC_UTF8)
		return put_utf8s(c, v, valid, n);
	if (c->type != NXC_DICT)
		return NXP_E_INVAL;
	if (nxc_col_reserve(c, (int64_t)n) || put_validity(c, valid, n))
		return NXP_E_NOMEM;
	/* a small direct-mapped cache by address in front of the dictionary (the
	 * few strings of a run: its queue's, the memories, a variable); strings
	 * that do not stay put go to the dictionary every time */
	int stable = c->stable_strings;
	int32_t *dst = (int32_t *)(void *)(c->data.p + c->data.len);
	for (size_t i = 0; i < n; i++) {
		int32_t idx = 0;
		if (!valid || valid[i]) {
			const char *s = v[i] ? v[i] : "";
			uintptr_t a = (uintptr_t)s;
			size_t slot = (size_t)((a ^ (a >> 4) ^ (a >> 9)) & 15);
			if (stable && c->memo_s[slot] == s) {
				idx = c->memo_i[slot];
			} else {
				idx = dict_index(c->dict, s, stable);
				if (idx < 0)
					return NXP_E_NOMEM;
				if (stable) {
					c->memo_s[slot] = s;
					c->memo_i[slot] = idx;
				}
			}
		}
		memcpy(dst + i, &idx, 4);
	}
	c->data.len += 4 * n;
	c->length += (int64_t)n;
	return 0;
}

int32_t nxc_col_dict_index(nxc_colbuf *c, const char *s)
{
	return c->type == NXC_DICT ? dict_index(c->dict, s, c->stable_strings) : NXP_E_INVAL;
}

int32_t *nxc_col_indices_direct(nxc_colbuf *c, size_t n)
{
	if (c->type != NXC_DICT || nxc_col_reserve(c, (int64_t)n))
		return NULL;
	return (int32_t *)(void *)(c->data.p + c->data.len); /* malloc'd, 4-byte steps: aligned */
}

int nxc_col_indices_commit(nxc_colbuf *c, const uint8_t *valid, size_t n)
{
	if (put_validity(c, valid, n)) /* (before the length moves: it packs at c->length) */
		return NXP_E_NOMEM;
	c->data.len += 4 * n;
	c->length += (int64_t)n;
	return 0;
}

/* ---- row-wise appends through the builder ---- */
static nxc_colbuf *bcol(nxc_builder *b, int col)
{
	if (col < 0 || !b->colmap)
		return NULL;
	int o = b->colmap[col];
	return o < 0 ? NULL : &b->cols[o];
}

void nxc_put_i64(nxc_builder *b, int col, int64_t v)
{
	nxc_colbuf *c = bcol(b, col);
	if (c && nxc_col_append_i64(c, v))
		b->nomem = 1;
}

void nxc_put_f64(nxc_builder *b, int col, double v)
{
	nxc_colbuf *c = bcol(b, col);
	if (c && nxc_col_append_f64(c, v))
		b->nomem = 1;
}

void nxc_put_bool(nxc_builder *b, int col, int v)
{
	nxc_colbuf *c = bcol(b, col);
	if (c && nxc_col_append_bool(c, v))
		b->nomem = 1;
}

void nxc_put_str(nxc_builder *b, int col, const char *s)
{
	nxc_colbuf *c = bcol(b, col);
	if (c && nxc_col_append_str(c, s))
		b->nomem = 1;
}

void nxc_put_null(nxc_builder *b, int col)
{
	nxc_colbuf *c = bcol(b, col);
	if (c && nxc_col_append_null(c))
		b->nomem = 1;
}

void nxc_end_row(nxc_builder *b)
{
	b->rows++;
}

int nxc_builder_init(nxc_builder *b, const nxc_table *t, const int *proj, int nproj)
{
	memset(b, 0, sizeof(*b));
	b->cols = calloc((size_t)(nproj ? nproj : 1), sizeof(*b->cols));
	b->colmap = malloc((size_t)t->ncols * sizeof(*b->colmap));
	if (!b->cols || !b->colmap) {
		nxc_builder_free(b);
		return NXP_E_NOMEM;
	}
	b->ncols = nproj;
	b->pool = pool_new(); /* NULL: no reuse */
	for (int i = 0; i < t->ncols; i++)
		b->colmap[i] = -1;
	for (int i = 0; i < nproj; i++) {
		b->colmap[proj[i]] = i;
		b->cols[i].col = &t->cols[proj[i]];
		b->cols[i].type = t->cols[proj[i]].type;
		b->cols[i].pool = b->pool;
		if (col_begin(&b->cols[i])) {
			nxc_builder_free(b);
			return NXP_E_NOMEM;
		}
	}
	return 0;
}

void nxc_builder_free(nxc_builder *b)
{
	if (b->cols) {
		for (int i = 0; i < b->ncols; i++) {
			buf_free(&b->cols[i].data);
			buf_free(&b->cols[i].offsets);
			buf_free(&b->cols[i].validity);
			dict_free(b->cols[i].dict);
		}
	}
	free(b->cols);
	free(b->colmap);
	pool_unref(b->pool);
	memset(b, 0, sizeof(*b));
}

/* ---- arrays and their release ---- */
typedef struct node {
	struct ArrowArray arr;    /* the dictionary node of a dict column uses this */
	const void *bufs[3];
	void *own[3];
	size_t cap[3];            /* of own[i], for the pool */
	nxc_pool *pool;           /* own[] go back there (a reference held), or NULL */
	struct ArrowArray **child_ptrs;
	struct ArrowArray *child_store;
	struct node *dict_node;
} node;

static void node_release(struct ArrowArray *a)
{
	if (!a || !a->release)
		return;
	node *n = a->private_data;
	for (int64_t i = 0; i < a->n_children; i++) {
		struct ArrowArray *c = a->children[i];
		if (c && c->release)
			c->release(c);
	}
	if (a->dictionary && a->dictionary->release)
		a->dictionary->release(a->dictionary);
	for (int i = 0; i < 3; i++)
		pool_put(n->pool, n->own[i], n->cap[i]);
	pool_unref(n->pool);
	free(n->child_ptrs);
	free(n->child_store);
	free(n->dict_node);
	free(n);
	a->release = NULL;
	a->private_data = NULL;
}

static node *node_new(void)
{
	return calloc(1, sizeof(node));
}

/* Fill `a` as a node owning `n`. */
static void node_bind(struct ArrowArray *a, node *n, int64_t length, int64_t nulls, int64_t nbuf)
{
	memset(a, 0, sizeof(*a));
	a->length = length;
	a->null_count = nulls;
	a->offset = 0;
	a->n_buffers = nbuf;
	a->buffers = n->bufs;
	a->release = node_release;
	a->private_data = n;
}

/* Take ownership of a buffer (never NULL for data/offsets buffers); *cap:
 * its capacity. */
static void *take(nxc_buf *b, size_t *cap)
{
	void *p = b->p;
	*cap = b->cap;
	if (!p) {
		p = calloc(1, 8);
		*cap = 8;
	}
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

static int column_array(nxc_colbuf *c, struct ArrowArray *a)
{
	node *n = node_new();
	if (!n)
		return NXP_E_NOMEM;
	if (c->pool) {
		pool_ref(c->pool);
		n->pool = c->pool;
	}
	c->hint[0] = c->data.cap;
	c->hint[1] = c->offsets.cap;
	if (c->validity.p)
		c->hint[2] = c->validity.cap;
	void *validity = NULL;
	if (c->null_count > 0) {
		validity = take(&c->validity, &n->cap[0]);
	} else if (c->validity.p) { /* allocated, no null (nxc_col_reserve never allocates it) */
		pool_put(c->pool, c->validity.p, c->validity.cap);
		c->validity.p = NULL;
		c->validity.len = c->validity.cap = 0;
	}
	n->own[0] = validity;
	n->bufs[0] = validity;
	if (c->type == NXC_UTF8) {
		n->own[1] = take(&c->offsets, &n->cap[1]);
		n->own[2] = take(&c->data, &n->cap[2]);
		n->bufs[1] = n->own[1];
		n->bufs[2] = n->own[2];
		node_bind(a, n, c->length, c->null_count, 3);
	} else {
		n->own[1] = take(&c->data, &n->cap[1]);
		n->bufs[1] = n->own[1];
		node_bind(a, n, c->length, c->null_count, 2);
	}
	if (!n->bufs[1] || (c->type == NXC_UTF8 && !n->bufs[2])) {
		node_release(a);
		return NXP_E_NOMEM;
	}
	if (c->type == NXC_DICT) {
		node *d = node_new();
		if (!d) {
			node_release(a);
			return NXP_E_NOMEM;
		}
		d->own[1] = take(&c->dict->offsets, &d->cap[1]);
		d->own[2] = take(&c->dict->chars, &d->cap[2]);
		d->bufs[1] = d->own[1];
		d->bufs[2] = d->own[2];
		n->dict_node = calloc(1, sizeof(node));
		if (!n->dict_node || !d->bufs[1] || !d->bufs[2]) {
			free(d->own[1]);
			free(d->own[2]);
			free(d);
			node_release(a);
			return NXP_E_NOMEM;
		}
		/* the dictionary ArrowArray lives in the column node (n->dict_node->arr);
		 * its own node `d` owns the buffers */
		node_bind(&n->dict_node->arr, d, c->dict->n, 0, 3);
		a->dictionary = &n->dict_node->arr;
	}
	return 0;
}

int nxc_builder_finish(nxc_builder *b, struct ArrowArray *out)
{
	node *top = node_new();
	if (!top)
		return NXP_E_NOMEM;
	top->child_store = calloc((size_t)(b->ncols ? b->ncols : 1), sizeof(struct ArrowArray));
	top->child_ptrs = calloc((size_t)(b->ncols ? b->ncols : 1), sizeof(struct ArrowArray *));
	node_bind(out, top, b->rows, 0, 1);
	out->n_children = 0;
	out->children = top->child_ptrs;
	if (!top->child_store || !top->child_ptrs) {
		node_release(out);
		return NXP_E_NOMEM;
	}
	for (int i = 0; i < b->ncols; i++) {
		top->child_ptrs[i] = &top->child_store[i];
		int rc = column_array(&b->cols[i], &top->child_store[i]);
		if (rc) {
			node_release(out);
			return rc;
		}
		out->n_children = i + 1;
	}
	/* the next batch's buffers are taken when it starts (nxc_builder_begin):
	 * by then a consumer that releases each batch before asking for the next
	 * has given this one's back to the pool */
	b->rows = 0;
	b->stale = 1;
	return 0;
}

int nxc_builder_begin(nxc_builder *b)
{
	if (!b->stale)
		return 0;
	for (int i = 0; i < b->ncols; i++)
		if (col_begin(&b->cols[i]))
			return NXP_E_NOMEM;
	b->stale = 0;
	return 0;
}

/* ---- schemas ---- */
typedef struct snode {
	struct ArrowSchema **child_ptrs;
	struct ArrowSchema *child_store;
	struct ArrowSchema *dict;
} snode;

static void schema_release(struct ArrowSchema *s)
{
	if (!s || !s->release)
		return;
	snode *n = s->private_data;
	for (int64_t i = 0; i < s->n_children; i++)
		if (s->children[i] && s->children[i]->release)
			s->children[i]->release(s->children[i]);
	if (s->dictionary && s->dictionary->release)
		s->dictionary->release(s->dictionary);
	if (n) {
		free(n->child_ptrs);
		free(n->child_store);
		free(n->dict);
		free(n);
	}
	s->release = NULL;
	s->private_data = NULL;
}

static snode *schema_bind(struct ArrowSchema *s, const char *format, const char *name, int64_t flags)
{
	memset(s, 0, sizeof(*s));
	snode *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	s->format = format;
	s->name = name;
	s->flags = flags;
	s->release = schema_release;
	s->private_data = n;
	return n;
}

static const char *type_format(int type)
{
	switch (type) {
	case NXC_I64:
		return "l";
	case NXC_I32:
	case NXC_DICT:
		return "i";
	case NXC_F64:
		return "g";
	case NXC_BOOL:
		return "b";
	default:
		return "u";
	}
}

int nxc_schema_make(struct ArrowSchema *out, const nxc_table *t, const int *proj, int nproj)
{
	snode *top = schema_bind(out, "+s", "", 0);
	if (!top)
		return NXP_E_NOMEM;
	top->child_store = calloc((size_t)(nproj ? nproj : 1), sizeof(struct ArrowSchema));
	top->child_ptrs = calloc((size_t)(nproj ? nproj : 1), sizeof(struct ArrowSchema *));
	out->children = top->child_ptrs;
	if (!top->child_store || !top->child_ptrs) {
		schema_release(out);
		return NXP_E_NOMEM;
	}
	for (int i = 0; i < nproj; i++) {
		const nxc_col *c = &t->cols[proj[i]];
		struct ArrowSchema *cs = &top->child_store[i];
		top->child_ptrs[i] = cs;
		snode *cn = schema_bind(cs, type_format(c->type), c->name, c->required ? 0 : ARROW_FLAG_NULLABLE);
		if (!cn) {
			schema_release(out);
			return NXP_E_NOMEM;
		}
		out->n_children = i + 1;
		if (c->type == NXC_DICT) {
			cn->dict = calloc(1, sizeof(struct ArrowSchema));
			if (!cn->dict || !schema_bind(cn->dict, "u", NULL, 0)) {
				schema_release(out);
				return NXP_E_NOMEM;
			}
			cs->dictionary = cn->dict;
		}
	}
	return 0;
}

int nxc_col_copy(nxc_colbuf *dst, const nxc_colbuf *src, int64_t row)
{
	if (src->validity.p && !((src->validity.p[row / 8] >> (row % 8)) & 1))
		return nxc_col_append_null(dst);
	switch (src->type) {
	case NXC_I64: {
		int64_t v;
		memcpy(&v, src->data.p + 8 * row, 8);
		return nxc_col_append_i64(dst, v);
	}
	case NXC_F64: {
		double v;
		memcpy(&v, src->data.p + 8 * row, 8);
		return nxc_col_append_f64(dst, v);
	}
	case NXC_I32: {
		int32_t v;
		memcpy(&v, src->data.p + 4 * row, 4);
		return nxc_col_append_i64(dst, v);
	}
	case NXC_BOOL:
		return nxc_col_append_bool(dst, (src->data.p[row / 8] >> (row % 8)) & 1);
	default: {
		const uint8_t *chars;
		int32_t a, b;
		if (src->type == NXC_DICT) {
			int32_t idx;
			memcpy(&idx, src->data.p + 4 * row, 4);
			memcpy(&a, src->dict->offsets.p + 4 * idx, 4);
			memcpy(&b, src->dict->offsets.p + 4 * (idx + 1), 4);
			chars = src->dict->chars.p;
		} else {
			memcpy(&a, src->offsets.p + 4 * row, 4);
			memcpy(&b, src->offsets.p + 4 * (row + 1), 4);
			chars = src->data.p;
		}
		char small[256];
		size_t n = (size_t)(b - a);
		char *s = n < sizeof(small) ? small : malloc(n + 1);
		if (!s)
			return NXP_E_NOMEM;
		memcpy(s, chars + a, n);
		s[n] = 0;
		int rc = nxc_col_append_str(dst, s);
		if (s != small)
			free(s);
		return rc;
	}
	}
}
