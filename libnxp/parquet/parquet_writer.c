/* SPDX-License-Identifier: MIT */
/* nxp_parquet_write: any Arrow C stream of record batches to a Parquet file.
 *
 * Layout (doc/formats/parquet.md): "PAR1", row groups of column chunks
 * ([dictionary page] data pages v1...), the Thrift compact FileMetaData, its
 * length, "PAR1".  One row group is buffered at a time (compressed pages of
 * every column plus one open page per column), bounded by row_group_bytes.
 * The encoding loops are per type, with no per-value dispatch. */
#include "abi_struct.h"
#include "cpu.h"
#include "mcache.h"
#include "parquet_priv.h"
#include "status.h"

#include <nxp/nxp.h>

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the Parquet writer copies values in host order, which must be little-endian"
#endif

enum pq_kind { K_INT32, K_INT64, K_UINT32, K_FLOAT, K_DOUBLE, K_BOOL, K_UTF8, K_DICT };
/* Parquet Type, Encoding, PageType, FieldRepetitionType, ConvertedType values */
enum { T_BOOLEAN = 0, T_INT32 = 1, T_INT64 = 2, T_FLOAT = 4, T_DOUBLE = 5, T_BYTE_ARRAY = 6 };
enum { E_PLAIN = 0, E_RLE = 3, E_DELTA_BINARY_PACKED = 5, E_RLE_DICTIONARY = 8, E_COUNT = 9 };
enum { PAGE_DATA = 0, PAGE_DICTIONARY = 2 };
enum { REP_REQUIRED = 0, REP_OPTIONAL = 1 };
enum { CT_UTF8 = 0 };

#define PAGE_BYTES (1 << 18)        /* a data page closes once its values reach this: 256 KiB, not the
				     * usual 1 MiB, keeps each column's open page small (an export of a
				     * 259 MB trace: ~10 % less CPU, half the page faults, files 2 % larger) */
#define PAGE_ROWS (1 << 20)         /* ... or this many rows */
#define SLICE_ROWS 4096             /* rows between row-group size checks */
#define ROW_GROUP_ROWS (1 << 20)    /* a row group also closes at this many rows: with dictionary and
				     * delta pages 64 MiB would hold the whole table in one group, which
				     * readers cannot split between threads */
#define DICT_BYTES (1 << 20)        /* a column chunk's dictionary stops growing here: PLAIN after */
#define IDICT_DIRECT (DICT_BYTES / 16) /* number dictionaries: keys 0..IDICT_DIRECT-1 (indices, small
				     * sizes and times) are found in a table indexed by the key, of
				     * at most DICT_BYTES / 4 bytes a column, the others hashed */
#define IDICT_FIRST_DIV 8           /* numbers: a first page with more than 1/8 distinct values is not
				     * tried as a dictionary */
#define PLAIN_SAMPLE 32768          /* values of a first page compressed both PLAIN and DELTA */
#define STORE_PCT 90                /* a page ZSTD keeps at this % of its size or more "does not
				     * compress": the column's next pages are stored */
#define STORE_RETRY 16              /* pages stored raw (not compressing) between two tries */
#define CARRY_CHUNKS 8              /* a column's row groups that reuse what its first one found: its
				     * pages do not compress (stored), PLAIN beats DELTA (int_plain) */
#define STAT_STRING_MAX 1024        /* longer string min/max are left out of the statistics */
#define DEFAULT_ROW_GROUP_BYTES ((int64_t)64 << 20)
/* the append functions' "out of memory" (the others return an nxp error code, already set) */
#define PQ_OOM INT64_MIN

typedef struct pq_dict {
	pq_buf plain;     /* the dictionary page: PLAIN entries (4-byte length + bytes) */
	uint32_t *off;    /* entry -> offset of its bytes in plain */
	uint32_t *len;
	uint32_t *hash;
	uint32_t count, cap;
	int32_t *slots;   /* open addressing: entry id or -1 */
	uint32_t mask;
} pq_dict;

/* A column chunk's dictionary of numbers (INT32, INT64, FLOAT, DOUBLE), keyed
 * by their bits (so -0.0 and 0.0, and NaNs, stay distinct and exact). */
typedef struct pq_islot {
	int64_t key;      /* the value's bits */
	int32_t id;       /* entry id, or -1: free */
} pq_islot;

typedef struct pq_idict {
	pq_buf plain;     /* the dictionary page: PLAIN values */
	uint32_t count;
	int32_t *direct;  /* keys 0..ndirect-1 -> entry id or -1; direct[ndirect], the sentinel, is -1 */
	uint32_t ndirect; /* a power of 2 up to IDICT_DIRECT (0 before the first use) */
	pq_islot *slots;  /* keys past IDICT_DIRECT (and negative ones): open addressing, key and
			   * id side by side (one cache line a probe) */
	uint32_t mask, hcount;
	int w4;           /* the entries are 4 bytes (else 8) */
} pq_idict;

/* How a chunk's number pages are encoded, decided on its first page:
 * RLE_DICTIONARY, or the other encoding (DELTA_BINARY_PACKED for integers,
 * PLAIN for FLOAT/DOUBLE). */
enum { IM_UNDECIDED, IM_DICT, IM_OTHER };

typedef struct pq_col {
	const char *name;  /* the schema's (alive until the schema is released) */
	int kind, ptype, nullable, width;
	/* the open page */
	pq_buf vals;       /* PLAIN values (numbers in their physical type, encoded
			    * at flush_page), or uint32 dictionary ids when pdict or pids */
	pq_buf defs;       /* validity bits of the page's rows */
	int64_t prow, pnull, pbits;
	int pdict;
	int pids;          /* integers of an IM_DICT chunk: vals holds the ids, mapped as appended */
	int pover;         /* ... until the dictionary filled up: vals went back to values */
	size_t idict_base; /* idict.plain.n when the page opened (what rg_bytes counts) */
	/* the column chunk of the open row group */
	pq_buf chunk;      /* compressed data pages with their headers */
	int64_t c_rows, c_nulls, c_unc, c_comp;
	int32_t n_pages[E_COUNT]; /* data pages of the chunk by encoding */
	pq_dict dict;
	int fallback;      /* dictionary full: PLAIN pages for the rest of the chunk */
	pq_idict idict;    /* number columns */
	int imode;         /* IM_*: number pages' encoding */
	int stored;        /* pages stored since one did not compress (0: compress) */
	int int_plain;     /* integers: PLAIN, not DELTA_BINARY_PACKED */
	int plain_tried;   /* choose_int_plain compared the two */
	unsigned chunks;   /* chunks written: stored, int_plain and plain_tried carry over to
			    * the next chunk, and start again every CARRY_CHUNKS */
	/* statistics of the chunk */
	int has_mm;
	int64_t imin, imax;
	double dmin, dmax;
	int64_t nan;
	pq_buf smin, smax;
	/* the current batch's Arrow dictionary index -> chunk dictionary id */
	int32_t *remap;
	int64_t remap_n, remap_cap;
} pq_col;

typedef struct pq_writer {
	nxp_status *st;
	const char *path;
	int fd;
	char *tmp;
	int64_t pos;
	pq_codec *codec;
	int ncols;
	pq_col *cols;
	const uint8_t **valid; /* per column: the current batch's validity bitmap or NULL */
	pq_buf body, comp, hdr, rg;
	pq_buf ids, alt;   /* an integer page's dictionary ids and its other encoding */
	uint32_t n_rg;
	int64_t rows_total, rg_rows, rg_limit;
} pq_writer;

/* ---- output ------------------------------------------------------------- */

static int write_all(pq_writer *w, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		ssize_t k = write(w->fd, b, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return nxp__error_set(w->st, NXP_E_IO, w->pos, "write %s: %s", w->tmp, strerror(errno));
		}
		b += k;
		n -= (size_t)k;
		w->pos += k;
	}
	return NXP_OK;
}

static int nomem(pq_writer *w)
{
	return nxp__error_set(w->st, NXP_E_NOMEM, -1, "out of memory writing %s", w->path);
}

/* A utf8 array's bytes.  An array whose strings are all empty may have no
 * data buffer (check_offsets allows no other): its strings then point at
 * an empty byte here, never at NULL (pointer arithmetic on NULL, and
 * memcmp or memcpy given NULL even for 0 bytes, are undefined). */
static const uint8_t *str_data(const struct ArrowArray *a)
{
	static const uint8_t none[1];
	return a->buffers[2] ? (const uint8_t *)a->buffers[2] : none;
}

/* ---- dictionary ----------------------------------------------------------- */

static uint32_t str_hash(const uint8_t *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	const uint8_t *end = s + n;
	int whole = n >= 8;
	while (n >= 8) {
		uint64_t x;
		memcpy(&x, s, 8);
		h = (h ^ x) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	/* the last n (< 8) bytes as a little-endian word, read with fixed-size
	 * loads (a variable-length memcpy is a libc call a string) */
	uint64_t x = 0;
	if (n && whole) { /* the 8 bytes ending at `end` are the string's */
		memcpy(&x, end - 8, 8);
		x >>= 64 - 8 * n;
	} else if (n >= 4) { /* two loads of 4 that overlap on equal bytes */
		uint32_t lo, hi;
		memcpy(&lo, s, 4);
		memcpy(&hi, end - 4, 4);
		x = lo | (uint64_t)hi << (8 * (n - 4));
	} else if (n) {
		x = (uint64_t)s[0] | (uint64_t)s[n / 2] << (8 * (n / 2)) | (uint64_t)s[n - 1] << (8 * (n - 1));
	}
	h = (h ^ x) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

static void dict_clear(pq_dict *d)
{
	if (d->count && d->slots) /* every filled slot was counted */
		memset(d->slots, 0xff, ((size_t)d->mask + 1) * sizeof(*d->slots));
	d->plain.n = 0;
	d->count = 0;
}

static void dict_free(pq_dict *d)
{
	pq_buf_free(&d->plain);
	free(d->off);
	free(d->len);
	free(d->hash);
	free(d->slots);
}

static int dict_rehash(pq_dict *d, uint32_t nslots)
{
	int32_t *s = malloc((size_t)nslots * sizeof(*s));
	if (!s)
		return -1;
	memset(s, 0xff, (size_t)nslots * sizeof(*s));
	for (uint32_t e = 0; e < d->count; e++) {
		uint32_t i = d->hash[e] & (nslots - 1);
		while (s[i] >= 0)
			i = (i + 1) & (nslots - 1);
		s[i] = (int32_t)e;
	}
	free(d->slots);
	d->slots = s;
	d->mask = nslots - 1;
	return 0;
}

/* Id of string (p, n), added if new; -1 when out of memory, -2 when it is
 * new and would take the dictionary's PLAIN bytes past `limit` (a first
 * entry is always added). */
static int32_t dict_id(pq_dict *d, const uint8_t *p, uint32_t n, size_t limit)
{
	if (!d->slots && dict_rehash(d, 1024))
		return -1;
	uint32_t h = str_hash(p, n);
	uint32_t i = h & d->mask;
	for (int32_t e; (e = d->slots[i]) >= 0; i = (i + 1) & d->mask)
		if (d->hash[e] == h && d->len[e] == n && memcmp(d->plain.p + d->off[e], p, n) == 0)
			return e;
	if (d->count > 0 && d->plain.n + 4 + (size_t)n > limit)
		return -2;
	if (d->count == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 256;
		uint32_t *o = realloc(d->off, cap * sizeof(*o));
		if (o)
			d->off = o;
		uint32_t *l = realloc(d->len, cap * sizeof(*l));
		if (l)
			d->len = l;
		uint32_t *hh = realloc(d->hash, cap * sizeof(*hh));
		if (hh)
			d->hash = hh;
		if (!o || !l || !hh)
			return -1;
		d->cap = cap;
	}
	if (pq_buf_reserve(&d->plain, 4 + (size_t)n))
		return -1;
	memcpy(d->plain.p + d->plain.n, &n, 4);
	if (n)
		memcpy(d->plain.p + d->plain.n + 4, p, n);
	uint32_t e = d->count++;
	d->off[e] = (uint32_t)d->plain.n + 4;
	d->len[e] = n;
	d->hash[e] = h;
	d->plain.n += 4 + (size_t)n;
	d->slots[i] = (int32_t)e;
	if ((uint64_t)d->count * 2 > (uint64_t)d->mask + 1 && dict_rehash(d, (d->mask + 1) * 2))
		return -1;
	return (int32_t)e;
}

static inline int bit_at(const uint8_t *b, int64_t i)
{
	return (b[i >> 3] >> (i & 7)) & 1;
}

/* ---- number dictionary --------------------------------------------------------- */

static void idict_clear(pq_idict *d)
{
	/* every filled slot was counted (count, hcount): an empty table has
	 * nothing to clear (chunks of columns that never try a dictionary, and
	 * cleared twice); a large direct table with few entries clears theirs */
	if (d->count && (uint64_t)d->count * 16 < d->ndirect) {
		for (uint32_t e = 0; e < d->count; e++) {
			int64_t x;
			if (d->w4) {
				int32_t y;
				memcpy(&y, d->plain.p + 4 * (size_t)e, 4);
				x = y;
			} else {
				memcpy(&x, d->plain.p + 8 * (size_t)e, 8);
			}
			if ((uint64_t)x < d->ndirect)
				d->direct[x] = -1;
		}
	} else if (d->count) {
		memset(d->direct, 0xff, (size_t)d->ndirect * sizeof(*d->direct));
	}
	if (d->hcount)
		for (uint32_t i = 0; i <= d->mask; i++)
			d->slots[i].id = -1;
	d->plain.n = 0;
	d->count = d->hcount = 0;
}

static inline uint32_t int_hash(int64_t x, uint32_t mask)
{
	uint64_t h = (uint64_t)x * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32) & mask;
}

static void idict_free(pq_idict *d)
{
	pq_buf_free(&d->plain);
	nxp__mc_free(d->direct, d->direct ? ((size_t)d->ndirect + 1) * sizeof(*d->direct) : 0);
	nxp__mc_free(d->slots, d->slots ? ((size_t)d->mask + 1) * sizeof(*d->slots) : 0);
}

/* The direct table made to hold keys 0..nd-1 (nd a power of 2 above its
 * size), the new ones absent; its sentinel moves to direct[nd]. */
static int idict_grow_direct(pq_idict *d, uint32_t nd)
{
	size_t cap, used = d->direct ? ((size_t)d->ndirect + 1) * sizeof(*d->direct) : 0;
	int32_t *t = nxp__mc_grow(d->direct, used, used, ((size_t)nd + 1) * sizeof(*t), &cap);
	if (!t)
		return -1;
	size_t from = d->direct ? d->ndirect : 0; /* the old sentinel too */
	memset(t + from, 0xff, ((size_t)nd + 1 - from) * sizeof(*t));
	d->direct = t;
	d->ndirect = nd;
	return 0;
}

static int idict_rehash(pq_idict *d, uint32_t nslots)
{
	size_t cap;
	pq_islot *s = nxp__mc_alloc((size_t)nslots * sizeof(*s), &cap);
	if (!s)
		return -1;
	for (uint32_t i = 0; i < nslots; i++)
		s[i] = (pq_islot){0, -1};
	for (uint32_t i = 0; d->slots && i <= d->mask; i++) {
		if (d->slots[i].id < 0)
			continue;
		uint32_t j = int_hash(d->slots[i].key, nslots - 1);
		while (s[j].id >= 0)
			j = (j + 1) & (nslots - 1);
		s[j] = d->slots[i];
	}
	nxp__mc_free(d->slots, d->slots ? ((size_t)d->mask + 1) * sizeof(*d->slots) : 0);
	d->slots = s;
	d->mask = nslots - 1;
	return 0;
}

/* Slot of value x (its bits) in the hash table: its entry's, or the free
 * one where it goes. */
static inline uint32_t idict_slot(const pq_islot *slots, uint32_t mask, int64_t x)
{
	uint32_t j = int_hash(x, mask);
	while (slots[j].id >= 0 && slots[j].key != x)
		j = (j + 1) & mask;
	return j;
}

/* Add x (4 bytes when w4), not in the dictionary, as a new entry: its id,
 * or -1 when out of memory.  Keys below IDICT_DIRECT go to the direct
 * table (grown to take x), the others to the hash table (rehashed when half
 * full): either may move. */
static int32_t idict_add(pq_idict *d, int64_t x, int w4)
{
	if (pq_buf_reserve(&d->plain, 8))
		return -1;
	if ((uint64_t)x < IDICT_DIRECT) {
		if ((uint64_t)x >= d->ndirect) {
			uint32_t nd = d->ndirect;
			while (nd <= (uint64_t)x)
				nd *= 2;
			if (idict_grow_direct(d, nd))
				return -1;
		}
		d->direct[x] = (int32_t)d->count;
	} else {
		if (!d->slots && idict_rehash(d, 1024))
			return -1;
		d->slots[idict_slot(d->slots, d->mask, x)] = (pq_islot){x, (int32_t)d->count};
		if ((uint64_t)++d->hcount * 2 > (uint64_t)d->mask + 1 && idict_rehash(d, (d->mask + 1) * 2))
			return -1;
	}
	d->w4 = w4;
	if (w4) {
		int32_t y = (int32_t)x;
		memcpy(d->plain.p + d->plain.n, &y, 4);
		d->plain.n += 4;
	} else {
		memcpy(d->plain.p + d->plain.n, &x, 8);
		d->plain.n += 8;
	}
	return (int32_t)d->count++;
}

typedef struct pq_minmax {
	int64_t mn, mx;
	int has;
} pq_minmax;

/* x, not in the dictionary, added as a new entry, its key folded into
 * *mm: its id; -2 when the dictionary has max_entries already; -1 when out
 * of memory.  Out of line: the loops that map values keep their registers. */
static __attribute__((noinline)) int32_t idict_new(pq_idict *d, int64_t x, int w4, uint32_t max_entries,
						   pq_minmax *mm)
{
	if (d->count >= max_entries)
		return -2;
	mm->mn = !mm->has || x < mm->mn ? x : mm->mn;
	mm->mx = !mm->has || x > mm->mx ? x : mm->mx;
	mm->has = 1;
	return idict_add(d, x, w4);
}

/* Value (key) at row i of an array of `kind`: INT32 values (or FLOAT bits)
 * sign-extended, UINT32 zero-extended, INT64 (or DOUBLE bits) as they are. */
static inline int64_t idict_key(const void *src, int64_t i, const int kind)
{
	if (kind == K_INT32)
		return ((const int32_t *)src)[i];
	if (kind == K_UINT32)
		return (int64_t)((const uint32_t *)src)[i];
	int64_t x; /* memcpy: the page may hold doubles */
	memcpy(&x, (const uint8_t *)src + 8 * i, 8);
	return x;
}

/* Whether the 8 values from row i are all x, a key of the same array (so
 * its low 32 bits are the value of a 4-byte kind): two or four vectors
 * XORed with x, one branch. */
static inline int idict_run8(const void *src, int64_t i, int64_t x, const int kind)
{
	pq_v2u t;
	if (kind == K_INT64) {
		const uint8_t *p = (const uint8_t *)src + 8 * i;
		const pq_v2u xv = {(uint64_t)x, (uint64_t)x};
		pq_v2u a, b, c, e;
		memcpy(&a, p, 16), memcpy(&b, p + 16, 16), memcpy(&c, p + 32, 16), memcpy(&e, p + 48, 16);
		t = (a ^ xv) | (b ^ xv) | (c ^ xv) | (e ^ xv);
	} else {
		const uint8_t *p = (const uint8_t *)src + 4 * i;
		uint32_t y = (uint32_t)x;
		const pq_v4u xv = {y, y, y, y};
		pq_v4u a, b;
		memcpy(&a, p, 16), memcpy(&b, p + 16, 16);
		t = (pq_v2u)((a ^ xv) | (b ^ xv));
	}
	return (t[0] | t[1]) == 0;
}

/* The state of a pass mapping values to ids (in registers: a local that
 * idict_one and idict_ids work on, inlined). */
typedef struct pq_imap {
	pq_idict *d;
	const int32_t *direct;  /* d's tables as of the last add (an empty hash table: a slot
				 * that is free, which no add writes to) */
	uint64_t nd;
	const pq_islot *slots;
	uint32_t mask;
	int64_t last, prev;     /* two values of the dictionary: the last one, and (mostly) the
				 * one before it that differed ... */
	int32_t last_id, prev_id; /* ... and their ids */
	uint32_t max_entries;
	pq_minmax *mm;
} pq_imap;

static void imap_tables(pq_imap *m)
{
	static const pq_islot none = {0, -1};
	m->direct = m->d->direct;
	m->nd = m->d->ndirect;
	m->slots = m->d->slots ? m->d->slots : &none;
	m->mask = m->d->slots ? m->d->mask : 0;
}

/* Id of x: the last value's or the one before's (runs, and two values in
 * turn, are common), else the direct table's (a key past it lands on its
 * sentinel, -1), else the hash table's (keys past IDICT_DIRECT), else a new
 * entry's.  -2 when x is new and the dictionary full; -1 when out of
 * memory. */
static inline __attribute__((always_inline)) int32_t idict_one(pq_imap *m, int64_t x, const int w4)
{
	if (x == m->last)
		return m->last_id;
	int32_t e = m->prev_id;
	if (x != m->prev) {
		uint64_t u = (uint64_t)x;
		e = m->direct[u < m->nd ? u : m->nd];
		if (e < 0 && u >= IDICT_DIRECT)
			e = m->slots[idict_slot(m->slots, m->mask, x)].id;
		if (e < 0) {
			e = idict_new(m->d, x, w4, m->max_entries, m->mm);
			if (e < 0)
				return e;
			imap_tables(m);
		}
	}
	m->prev = m->last;
	m->prev_id = m->last_id;
	m->last = x;
	m->last_id = e;
	return e;
}

#define IDICT_RETRY 16 /* groups looked up in the hash table too after one the direct table did not map */

/* The 8 values from row i of src mapped to their ids in out[i..i+7], each
 * by the direct table (a key past it lands on its sentinel, -1) and, when
 * `hashed` and the direct table has no entry, by the hash table (its keys
 * are not in the direct table): 1 when every one was there (the ids' OR is
 * not negative), with `last` and `prev` moved to the group's last two;
 * else 0 (out holds some -1s, which the caller overwrites). */
static inline __attribute__((always_inline)) int idict_group8(pq_imap *m, const void *src, int64_t i, const int kind,
								  uint32_t *out, const int hashed)
{
	int32_t bad = 0;
	for (int j = 0; j < 8; j++) {
		int64_t x = idict_key(src, i + j, kind);
		uint64_t u = (uint64_t)x;
		int32_t g = m->direct[u < m->nd ? u : m->nd];
		if (hashed && g < 0)
			g = m->slots[idict_slot(m->slots, m->mask, x)].id;
		out[i + j] = (uint32_t)g;
		bad |= g;
	}
	if (bad < 0)
		return 0;
	m->prev = idict_key(src, i + 6, kind);
	m->prev_id = (int32_t)out[i + 6];
	m->last = idict_key(src, i + 7, kind);
	m->last_id = (int32_t)out[i + 7];
	return 1;
}

/* Dictionary ids of the non-null values of rows i0..i0+n of src (of
 * `kind`, see idict_key) appended to out (*nids of them), the min/max of
 * the keys of new entries folded into *mm.  Returns the rows done: n, or
 * fewer when the next value would be entry max_entries (the entries added
 * so far stay: ids of earlier pages keep their meaning); -1 when out of
 * memory.
 *
 * Without nulls, 8 values at a time: a group that continues the last
 * value's run is its id 8 times (one vector compare, idict_run8); else the
 * group is looked up in the direct table without a branch a value
 * (idict_group8).  After a group that table did not map (a key past it, or
 * new), the group and the next IDICT_RETRY ones are looked up in the hash
 * table too (keys past the direct table usually stay: the Instruction
 * table's byte and FLOP counts); a group with a new key goes one value at
 * a time (idict_one), as do the rows with nulls and the last rows. */
static inline __attribute__((always_inline)) int64_t idict_ids(pq_idict *d, const void *src, const uint8_t *valid,
							       int64_t i0, int64_t n, const int kind,
							       const int has_valid, uint32_t max_entries,
							       uint32_t *out, int64_t *nids, pq_minmax *mm)
{
	const int w4 = kind == K_INT32;
	if (!d->direct && idict_grow_direct(d, 64)) /* (its sentinel, at least, is read below) */
		return -1;
	src = (const uint8_t *)src + i0 * (kind == K_INT64 ? 8 : 4);
	pq_imap m = {.d = d, .max_entries = max_entries, .mm = mm};
	imap_tables(&m);
	int64_t i = 0, k = 0; /* k: ids written (i itself without nulls) */
	if (d->count == 0) { /* the first value is entry 0 */
		while (has_valid && i < n && !bit_at(valid, i0 + i))
			i++;
		if (i == n) {
			*nids = 0;
			return n;
		}
		if (idict_new(d, idict_key(src, i, kind), w4, max_entries, mm) < 0)
			return -1;
		imap_tables(&m);
	}
	/* `last` and `prev` start as entry 0's value (its bits as keyed: 4-byte
	 * plain values sign-extended): each of them is always a value of the
	 * dictionary and its id, whatever the values that come. */
	if (w4) {
		int32_t y;
		memcpy(&y, d->plain.p, 4);
		m.last = y;
	} else {
		memcpy(&m.last, d->plain.p, 8);
	}
	m.prev = m.last;
	int skip = 0; /* groups left to map one value at a time */
	int32_t e = 0; /* the last id: -2 (the dictionary is full) or -1 (out of memory) stop */
	while (!has_valid && n - i >= 8 && e >= 0) {
		if (idict_key(src, i, kind) == m.last && idict_run8(src, i, m.last, kind)) {
			for (int j = 0; j < 8; j++)
				out[i + j] = (uint32_t)m.last_id;
			i += 8;
			continue;
		}
		if (skip == 0) {
			if (idict_group8(&m, src, i, kind, out, 0)) {
				i += 8;
				continue;
			}
			skip = IDICT_RETRY;
		}
		skip--;
		if (idict_group8(&m, src, i, kind, out, 1)) {
			i += 8;
			continue;
		}
		for (int64_t end = i + 8; i < end; i++) {
			if ((e = idict_one(&m, idict_key(src, i, kind), w4)) < 0)
				break;
			out[i] = (uint32_t)e;
		}
	}
	for (; i < n && e >= 0; i++) {
		if (has_valid && !bit_at(valid, i0 + i))
			continue;
		if ((e = idict_one(&m, idict_key(src, i, kind), w4)) < 0)
			break;
		out[has_valid ? k++ : i] = (uint32_t)e;
	}
	*nids = has_valid ? k : i;
	return e == -1 ? -1 : i;
}

/* Dictionary ids of the n values of a page (4-byte when w4, else 8-byte)
 * into ids.  0; 1 when an entry past `max_entries` would be needed (the
 * entries added so far stay); -1 when out of memory.  One loop a width. */
static int idict_map(pq_idict *d, const void *vals, size_t n, int w4, uint32_t max_entries, uint32_t *ids)
{
	pq_minmax mm = {0, 0, 0}; /* the page's statistics were taken as it was appended */
	int64_t nids, r = w4 ? idict_ids(d, vals, NULL, 0, (int64_t)n, K_INT32, 0, max_entries, ids, &nids, &mm)
			     : idict_ids(d, vals, NULL, 0, (int64_t)n, K_INT64, 0, max_entries, ids, &nids, &mm);
	return r < 0 ? -1 : r < (int64_t)n;
}

/* ---- statistics ------------------------------------------------------------ */

static int str_less(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	/* (an empty string may have no bytes behind it: a NULL pointer, which
	 * memcmp must not be given even for 0 bytes) */
	size_t m = an < bn ? an : bn;
	int r = m ? memcmp(a, b, m) : 0;
	return r < 0 || (r == 0 && an < bn);
}

static int stat_string(pq_col *c, const uint8_t *s, size_t n)
{
	if (!c->has_mm) {
		c->smin.n = c->smax.n = 0;
		if (pq_buf_put(&c->smin, s, n) || pq_buf_put(&c->smax, s, n))
			return -1;
		c->has_mm = 1;
		return 0;
	}
	if (str_less(s, n, c->smin.p, c->smin.n)) {
		c->smin.n = 0;
		return pq_buf_put(&c->smin, s, n);
	}
	if (str_less(c->smax.p, c->smax.n, s, n)) {
		c->smax.n = 0;
		return pq_buf_put(&c->smax, s, n);
	}
	return 0;
}

static void stat_int(pq_col *c, int64_t mn, int64_t mx)
{
	if (!c->has_mm) {
		c->imin = mn;
		c->imax = mx;
		c->has_mm = 1;
		return;
	}
	if (mn < c->imin)
		c->imin = mn;
	if (mx > c->imax)
		c->imax = mx;
}

/* ---- appending rows to the open page ---------------------------------------- */

/* The open page's values in bytes: its PLAIN size even while vals holds ids
 * (pids), so that pages and row groups close where they did before pids. */
static inline size_t page_bytes(const pq_col *c)
{
	return c->pids ? c->vals.n / 4 * (size_t)c->width : c->vals.n;
}

/* Validity bits of rows i0..i0+n (valid NULL: all valid) appended to the page. */
static int defs_append(pq_col *c, const uint8_t *valid, int64_t i0, int64_t n)
{
	if (c->nullable) {
		size_t need = (size_t)((c->prow + n + 7) >> 3);
		if (need > c->defs.n) {
			if (pq_buf_reserve(&c->defs, need - c->defs.n + 1))
				return -1;
			memset(c->defs.p + c->defs.n, 0, need - c->defs.n + 1);
			c->defs.n = need;
		}
		if (!valid) {
			pq_bits_set(c->defs.p, c->prow, n);
		} else {
			int64_t nulls = n - pq_bits_copy(c->defs.p, c->prow, valid, i0, n);
			c->pnull += nulls;
			c->c_nulls += nulls;
		}
	}
	c->prow += n;
	c->c_rows += n;
	return 0;
}

/* Fixed-width numbers: non-null values copied (converted) to the page, with
 * min/max in the same loop (one pass over the values; locals, which the
 * stores to the page cannot alias). */
#define DEFINE_APPEND_INT(NAME, TIN, TOUT)                                                        \
	NXP_HOT_LOOP                                                                                 \
	static int64_t NAME(pq_col *c, const struct ArrowArray *a, const uint8_t *valid, int64_t i0, \
			    int64_t n)                                                               \
	{                                                                                            \
		const TIN *src = (const TIN *)a->buffers[1] + i0;                                    \
		if (pq_buf_reserve(&c->vals, (size_t)n * sizeof(TOUT)))                              \
			return PQ_OOM;                                                                   \
		TOUT *out = (TOUT *)(void *)(c->vals.p + c->vals.n);                                 \
		int64_t k = 0;                                                                       \
		TOUT mn = 0, mx = 0;                                                                 \
		if (!valid) {                                                                        \
			if (n) {                                                                     \
				mn = mx = (TOUT)src[0];                                              \
				/* unrolled: one loop test for 4 values */                           \
				_Pragma("GCC unroll 4") for (int64_t i = 0; i < n; i++) {            \
					TOUT x = (TOUT)src[i];                                       \
					out[i] = x;                                                  \
					mn = x < mn ? x : mn;                                        \
					mx = x > mx ? x : mx;                                        \
				}                                                                    \
			}                                                                            \
			k = n;                                                                       \
		} else {                                                                             \
			for (int64_t i = 0; i < n; i++) {                                            \
				out[k] = (TOUT)src[i];                                               \
				k += bit_at(valid, i0 + i);                                          \
			}                                                                            \
			if (k)                                                                       \
				mn = mx = out[0];                                                    \
			for (int64_t i = 1; i < k; i++) {                                            \
				mn = out[i] < mn ? out[i] : mn;                                      \
				mx = out[i] > mx ? out[i] : mx;                                      \
			}                                                                            \
		}                                                                                    \
		if (k)                                                                               \
			stat_int(c, mn, mx);                                                         \
		c->vals.n += (size_t)k * sizeof(TOUT);                                               \
		return n;                                                                            \
	}
DEFINE_APPEND_INT(append_int32, int32_t, int32_t)
DEFINE_APPEND_INT(append_int64, int64_t, int64_t)
DEFINE_APPEND_INT(append_uint32, uint32_t, int64_t)

/* The open page's dictionary ids turned back into values (each id's value
 * is its dictionary entry), for a page whose dictionary filled up.
 * Backwards and in place: a value is at least as wide as an id, so the ids
 * it overwrites were read before. */
static int ids_to_values(pq_col *c)
{
	size_t n = c->vals.n / 4, w = (size_t)c->width;
	if (pq_buf_reserve(&c->vals, n * w - c->vals.n))
		return -1;
	uint8_t *p = c->vals.p;
	const uint8_t *plain = c->idict.plain.p;
	for (size_t i = n; i-- > 0;) {
		uint32_t e;
		memcpy(&e, p + 4 * i, 4);
		memcpy(p + w * i, plain + (size_t)e * w, w);
	}
	c->vals.n = n * w;
	c->pids = 0;
	c->pover = 1;
	return 0;
}

/* Integers of a chunk whose pages are RLE_DICTIONARY (pids): each non-null
 * value goes straight to its dictionary id, in one pass, instead of a copy
 * here and the lookup (idict_map) at flush_page.  min/max follow the new
 * entries only: every value of the chunk is an entry.  The value that
 * would take the dictionary past its limit turns the page back into values
 * (ids_to_values) and the rest of the rows is appended as values; the
 * entries added so far stay, as idict_map leaves them. */
static inline __attribute__((always_inline)) int64_t append_ids_k(pq_col *c, const struct ArrowArray *a,
								   const uint8_t *valid, int64_t i0, int64_t n,
								   const int kind, const int has_valid)
{
	if (pq_buf_reserve(&c->vals, (size_t)n * 4))
		return PQ_OOM;
	const uint32_t max_entries = DICT_BYTES / (kind == K_INT32 ? 4 : 8);
	pq_minmax mm = {c->imin, c->imax, c->has_mm};
	int64_t k, i = idict_ids(&c->idict, a->buffers[1], valid, i0, n, kind, has_valid, max_entries,
				 (uint32_t *)(void *)(c->vals.p + c->vals.n), &k, &mm);
	if (i < 0)
		return PQ_OOM;
	c->vals.n += (size_t)k * 4;
	c->imin = mm.mn, c->imax = mm.mx, c->has_mm = mm.has;
	if (i == n)
		return n;
	if (ids_to_values(c))
		return PQ_OOM;
	int64_t got = kind == K_INT32    ? append_int32(c, a, valid, i0 + i, n - i)
		      : kind == K_UINT32 ? append_uint32(c, a, valid, i0 + i, n - i)
					 : append_int64(c, a, valid, i0 + i, n - i);
	return got == PQ_OOM ? PQ_OOM : n;
}

/* One loop a type and with or without validity bitmap (no test per value). */
NXP_HOT_LOOP
static int64_t append_ids(pq_col *c, const struct ArrowArray *a, const uint8_t *valid, int64_t i0, int64_t n)
{
	switch (c->kind) {
	case K_INT32:
		return valid ? append_ids_k(c, a, valid, i0, n, K_INT32, 1) : append_ids_k(c, a, NULL, i0, n, K_INT32, 0);
	case K_UINT32:
		return valid ? append_ids_k(c, a, valid, i0, n, K_UINT32, 1) : append_ids_k(c, a, NULL, i0, n, K_UINT32, 0);
	default:
		return valid ? append_ids_k(c, a, valid, i0, n, K_INT64, 1) : append_ids_k(c, a, NULL, i0, n, K_INT64, 0);
	}
}

/* min/max of the chunk kept in locals over the batch (the page stores
 * cannot alias them); NaNs counted, not compared. */
#define DEFINE_APPEND_REAL(NAME, T)                                                                \
	NXP_HOT_LOOP                                                                                 \
	static int64_t NAME(pq_col *c, const struct ArrowArray *a, const uint8_t *valid, int64_t i0, \
			    int64_t n)                                                               \
	{                                                                                            \
		const T *src = (const T *)a->buffers[1] + i0;                                        \
		if (pq_buf_reserve(&c->vals, (size_t)n * sizeof(T)))                                 \
			return PQ_OOM;                                                                   \
		T *out = (T *)(void *)(c->vals.p + c->vals.n);                                       \
		int64_t k = 0;                                                                       \
		if (!valid) {                                                                        \
			memcpy(out, src, (size_t)n * sizeof(T));                                     \
			k = n;                                                                       \
		} else {                                                                             \
			for (int64_t i = 0; i < n; i++) {                                            \
				out[k] = src[i];                                                     \
				k += bit_at(valid, i0 + i);                                          \
			}                                                                            \
		}                                                                                    \
		int has = c->has_mm;                                                                 \
		double mn = c->dmin, mx = c->dmax;                                                   \
		int64_t nan = 0;                                                                     \
		for (int64_t i = 0; i < k; i++) {                                                    \
			double x = out[i];                                                           \
			if (x != x) {                                                                \
				nan++;                                                               \
			} else if (!has) {                                                           \
				mn = mx = x;                                                         \
				has = 1;                                                             \
			} else {                                                                     \
				mn = x < mn ? x : mn;                                                \
				mx = x > mx ? x : mx;                                                \
			}                                                                            \
		}                                                                                    \
		c->nan += nan;                                                                       \
		if (has) {                                                                           \
			c->dmin = mn;                                                                \
			c->dmax = mx;                                                                \
			c->has_mm = 1;                                                               \
		}                                                                                    \
		c->vals.n += (size_t)k * sizeof(T);                                                  \
		return n;                                                                            \
	}
DEFINE_APPEND_REAL(append_float, float)
DEFINE_APPEND_REAL(append_double, double)

static int64_t append_bool(pq_col *c, const struct ArrowArray *a, const uint8_t *valid, int64_t i0, int64_t n)
{
	const uint8_t *src = a->buffers[1];
	size_t need = (size_t)((c->pbits + n + 7) >> 3);
	if (need > c->vals.n) {
		if (pq_buf_reserve(&c->vals, need - c->vals.n + 1))
			return PQ_OOM;
		memset(c->vals.p + c->vals.n, 0, need - c->vals.n + 1);
	}
	int64_t k, ones;
	if (!valid) {
		ones = pq_bits_copy(c->vals.p, c->pbits, src, i0, n);
		k = n;
	} else {
		k = ones = 0;
		for (int64_t i = 0; i < n; i++) {
			if (!bit_at(valid, i0 + i))
				continue;
			int b = bit_at(src, i0 + i);
			c->vals.p[(c->pbits + k) >> 3] |= (uint8_t)(b << ((c->pbits + k) & 7));
			ones += b;
			k++;
		}
	}
	c->pbits += k;
	c->vals.n = (size_t)((c->pbits + 7) >> 3);
	if (k)
		stat_int(c, ones == k ? 1 : 0, ones ? 1 : 0);
	return n;
}

/* PLAIN byte arrays from utf8 offsets/data; stops early once the page is full.
 * `idx` (dictionary fallback): row -> entry of the Arrow dictionary `a`. */
static int64_t append_strings(pq_writer *w, pq_col *c, const struct ArrowArray *a, const int32_t *idx,
			      const uint8_t *valid, int64_t i0, int64_t n)
{
	const int32_t *off = (const int32_t *)a->buffers[1] + (idx ? a->offset : 0);
	const uint8_t *data = str_data(a);
	int64_t i = 0;
	while (i < n) {
		int64_t row = i0 + i++;
		if (valid && !bit_at(valid, row))
			continue;
		int64_t e = row;
		if (idx) {
			e = idx[row];
			if (e < 0 || e >= a->length)
				return nxp__error_set(w->st, NXP_E_INVAL, -1, "column %s: dictionary index %lld out of range",
						c->name, (long long)e);
		}
		uint32_t len = (uint32_t)(off[e + 1] - off[e]);
		const uint8_t *s = data + off[e];
		if (pq_buf_reserve(&c->vals, 4 + (size_t)len))
			return nomem(w);
		memcpy(c->vals.p + c->vals.n, &len, 4);
		if (len)
			memcpy(c->vals.p + c->vals.n + 4, s, len);
		c->vals.n += 4 + (size_t)len;
		if (stat_string(c, s, len))
			return nomem(w);
		if (c->vals.n >= PAGE_BYTES)
			break;
	}
	return i;
}

/* Chunk dictionary id of Arrow dictionary entry x, not mapped yet: added
 * and remembered in remap; -2 when the dictionary is full, -1 when out of
 * memory.  Out of line: the loop below keeps its registers. */
static __attribute__((noinline)) int32_t dict_miss(pq_col *c, const int32_t *off, const uint8_t *data, int32_t x)
{
	uint32_t len = (uint32_t)(off[x + 1] - off[x]);
	if (c->dict.count > 0 && c->dict.plain.n + 4 + len > DICT_BYTES)
		return -2;
	int32_t id = dict_id(&c->dict, data + off[x], len, SIZE_MAX);
	if (id >= 0)
		c->remap[x] = id;
	return id;
}

/* Whether the n indices are all below dlen (one test for the slice: a
 * loop the compiler turns into vector compares). */
static int indices_in_range(const int32_t *idx, int64_t n, int64_t dlen)
{
	uint32_t over = 0;
	for (int64_t i = 0; i < n; i++)
		over |= (uint32_t)idx[i] >= (uint32_t)dlen;
	return !over;
}

/* Dictionary ids of rows of a dictionary<int32, utf8> array; stops early
 * (returns fewer rows) when the chunk's dictionary is full.  Without nulls
 * and with every index in range, 8 rows at a time: their remapped ids
 * without a branch a row, kept when none is negative (all 8 entries were
 * mapped); a group with one that was not goes one row at a time, as do
 * the rows with nulls (whose indices may be anything), the last rows, and
 * all of them when an index is out of range (reported where it is). */
static inline __attribute__((always_inline)) int64_t append_dict_ids_v(pq_writer *w, pq_col *c,
									const struct ArrowArray *a,
									const uint8_t *valid, int64_t i0,
									int64_t n, const int has_valid)
{
	const int32_t *idx = (const int32_t *)a->buffers[1];
	const struct ArrowArray *d = a->dictionary;
	const int32_t *off = (const int32_t *)d->buffers[1] + d->offset;
	const uint8_t *data = str_data(d);
	if (pq_buf_reserve(&c->vals, (size_t)n * 4))
		return nomem(w);
	uint32_t *out = (uint32_t *)(void *)(c->vals.p + c->vals.n);
	int32_t *remap = c->remap; /* locals: the ids stores cannot alias them */
	const int64_t dlen = d->length;
	int fast = !has_valid && indices_in_range(idx + i0, n, dlen);
	int64_t k = 0, i = 0;
	int full = 0;
	while (i < n && !full) {
		int64_t end = n;
		if (fast && n - i >= 8) {
			int32_t bad = 0;
			for (int j = 0; j < 8; j++) {
				int32_t id = remap[idx[i0 + i + j]];
				out[i + j] = (uint32_t)id;
				bad |= id;
			}
			if (bad >= 0) {
				i += 8;
				continue;
			}
			end = i + 8;
		}
		for (; i < end; i++) {
			int64_t row = i0 + i;
			if (has_valid && !bit_at(valid, row))
				continue;
			int32_t x = idx[row];
			if ((uint32_t)x >= (uint32_t)dlen) /* negative too (dlen <= INT32_MAX) */
				return nxp__error_set(w->st, NXP_E_INVAL, -1, "column %s: dictionary index %d out of range",
						c->name, x);
			int32_t id = remap[x];
			if (id < 0) {
				id = dict_miss(c, off, data, x);
				if (id == -2) {
					c->fallback = full = 1;
					break;
				}
				if (id < 0)
					return nomem(w);
			}
			if (has_valid) /* without nulls k is i: one counter, not two */
				out[k++] = (uint32_t)id;
			else
				out[i] = (uint32_t)id;
		}
	}
	if (!has_valid)
		k = i;
	c->vals.n += (size_t)k * 4;
	return i;
}

/* One loop with and one without validity bitmap (no test per row). */
NXP_HOT_LOOP
static int64_t append_dict_ids(pq_writer *w, pq_col *c, const struct ArrowArray *a, const uint8_t *valid,
			       int64_t i0, int64_t n)
{
	return valid ? append_dict_ids_v(w, c, a, valid, i0, n, 1) : append_dict_ids_v(w, c, a, NULL, i0, n, 0);
}

/* Dictionary ids of rows of a utf8 array: the chunk's dictionary is built
 * from the values (hashed); stops early (returns fewer rows) when it is full. */
static int64_t append_str_ids(pq_writer *w, pq_col *c, const struct ArrowArray *a, const uint8_t *valid,
			      int64_t i0, int64_t n)
{
	const int32_t *off = (const int32_t *)a->buffers[1];
	const uint8_t *data = str_data(a);
	if (pq_buf_reserve(&c->vals, (size_t)n * 4))
		return nomem(w);
	uint32_t *out = (uint32_t *)(void *)(c->vals.p + c->vals.n);
	int64_t k = 0, i = 0;
	for (; i < n; i++) {
		int64_t row = i0 + i;
		if (valid && !bit_at(valid, row))
			continue;
		int32_t id = dict_id(&c->dict, data + off[row], (uint32_t)(off[row + 1] - off[row]), DICT_BYTES);
		if (id == -2) {
			c->fallback = 1;
			break;
		}
		if (id < 0)
			return nomem(w);
		out[k++] = (uint32_t)id;
	}
	c->vals.n += (size_t)k * 4;
	return i;
}

/* ---- pages ---------------------------------------------------------------------- */

static int page_header(pq_writer *w, int type, size_t unc, size_t comp, int64_t num_values, int enc)
{
	if (unc > INT32_MAX || comp > INT32_MAX || num_values > INT32_MAX)
		return nxp__error_set(w->st, NXP_E_LIMIT, -1, "a Parquet page of %zu bytes is too large", unc);
	tc_writer t;
	w->hdr.n = 0;
	tc_init(&t, &w->hdr);
	tc_i32(&t, 1, type);
	tc_i32(&t, 2, (int32_t)unc);
	tc_i32(&t, 3, (int32_t)comp);
	if (type == PAGE_DATA) {
		tc_struct_begin(&t, 5);
		tc_i32(&t, 1, (int32_t)num_values);
		tc_i32(&t, 2, enc);
		tc_i32(&t, 3, E_RLE);
		tc_i32(&t, 4, E_RLE);
		tc_struct_end(&t);
	} else {
		tc_struct_begin(&t, 7);
		tc_i32(&t, 1, (int32_t)num_values);
		tc_i32(&t, 2, E_PLAIN);
		tc_struct_end(&t);
	}
	tc_struct_end(&t);
	return t.oom ? nomem(w) : NXP_OK;
}

static int compress(pq_writer *w, const uint8_t *src, size_t n, const uint8_t **res, size_t *res_n, int store)
{
	int rc = store ? pq_codec_store(w->codec, src, n, &w->comp, res, res_n)
		       : pq_codec_compress(w->codec, src, n, &w->comp, res, res_n);
	if (rc == NXP_E_NOMEM)
		return nomem(w);
	if (rc)
		return nxp__error_set(w->st, rc, -1, "compressing a page of %s failed", w->path);
	return NXP_OK;
}

static void page_reset(pq_col *c)
{
	c->vals.n = c->defs.n = 0;
	c->prow = c->pnull = c->pbits = 0;
	c->pdict = (c->kind == K_DICT || c->kind == K_UTF8) && !c->fallback;
	/* floats stay values: their NaNs are counted a value, not an entry */
	c->pids = c->imode == IM_DICT && (c->kind == K_INT32 || c->kind == K_INT64 || c->kind == K_UINT32);
	c->pover = 0;
	c->idict_base = c->idict.plain.n;
}

/* The page's values in the chunk's other encoding: DELTA_BINARY_PACKED for
 * integers, PLAIN for FLOAT/DOUBLE. */
static int other_page(pq_col *c, pq_buf *b, int *enc)
{
	*enc = E_DELTA_BINARY_PACKED;
	if (c->kind == K_INT32 && !c->int_plain)
		return pq_delta_i32(b, (const int32_t *)(void *)c->vals.p, c->vals.n / 4);
	if ((c->kind == K_INT64 || c->kind == K_UINT32) && !c->int_plain)
		return pq_delta_i64(b, (const int64_t *)(void *)c->vals.p, c->vals.n / 8);
	*enc = E_PLAIN;
	return pq_buf_put(b, c->vals.p, c->vals.n);
}

/* DELTA_BINARY_PACKED wins when values follow each other closely (times,
 * counters, addresses that step).  When the deltas of the chunk's first page
 * take half or more of the bits the values' own range needs, their order
 * carries little DELTA can use, but the compressor may still find repeats in
 * PLAIN values (ids that come back, as in the Flow table): the first
 * PLAIN_SAMPLE values are compressed both ways and PLAIN is kept for the
 * chunk when it is more than 10 % smaller.  Random values (checksums) stay
 * DELTA: as small, and their pages are then stored without compressing.
 * The comparison is made once per CARRY_CHUNKS chunks of the column (its
 * outcome kept for the others). */
static int choose_int_plain(pq_writer *w, pq_col *c, size_t delta_bytes)
{
	int w4 = c->kind == K_INT32;
	size_t n = c->vals.n / (w4 ? 4 : 8);
	if (pq_codec_thrift_id(w->codec) == 0 || n < 1024)
		return NXP_OK;
	const int32_t *v32 = (const int32_t *)(void *)c->vals.p;
	const int64_t *v64 = (const int64_t *)(void *)c->vals.p;
	int64_t mn = w4 ? v32[0] : v64[0], mx = mn;
	for (size_t i = 1; i < n; i++) {
		int64_t x = w4 ? v32[i] : v64[i];
		mn = x < mn ? x : mn;
		mx = x > mx ? x : mx;
	}
	uint64_t range = (uint64_t)mx - (uint64_t)mn;
	int rw = range ? 64 - __builtin_clzll(range) : 0;
	if ((uint64_t)delta_bytes * 8 * 2 < (uint64_t)n * (uint64_t)rw || c->plain_tried)
		return NXP_OK;
	c->plain_tried = 1;
	size_t m = n < PLAIN_SAMPLE ? n : PLAIN_SAMPLE;
	w->alt.n = 0;
	if (w4 ? pq_delta_i32(&w->alt, v32, m) : pq_delta_i64(&w->alt, v64, m))
		return nomem(w);
	const uint8_t *z;
	size_t dz, pz;
	int rc = compress(w, w->alt.p, w->alt.n, &z, &dz, 0);
	if (!rc)
		rc = compress(w, c->vals.p, m * (w4 ? 4 : 8), &z, &pz, 0);
	if (!rc && (uint64_t)pz * 10 < (uint64_t)dz * 9)
		c->int_plain = 1;
	return rc;
}

/* The values of a number page appended to b: RLE_DICTIONARY while the
 * chunk's dictionary holds, else the other encoding (other_page).  The
 * chunk's first page decides: it is encoded both ways (the dictionary only
 * tried with at most 1/IDICT_FIRST_DIV distinct values) and the smaller wins
 * for the chunk; a dictionary that later reaches DICT_BYTES leaves the other
 * encoding for the rest of the chunk. */
static int encode_numbers(pq_writer *w, pq_col *c, pq_buf *b, int *enc)
{
	int w4 = c->width == 4;
	size_t n = c->pids ? c->vals.n / 4 : c->vals.n / (w4 ? 4 : 8);
	if (c->imode == IM_OTHER || n == 0)
		return other_page(c, b, enc) ? nomem(w) : NXP_OK;
	uint32_t max_entries = DICT_BYTES / (w4 ? 4 : 8);
	if (c->imode == IM_UNDECIDED && n / IDICT_FIRST_DIV + 1 < max_entries)
		max_entries = (uint32_t)(n / IDICT_FIRST_DIV + 1);
	/* pids: the ids are there; pover: the dictionary filled up in the page */
	const uint32_t *ids = (const uint32_t *)(void *)c->vals.p;
	int r = c->pover;
	if (!c->pids && !c->pover) {
		if (pq_buf_reserve(&w->ids, n * 4))
			return nomem(w);
		uint32_t *m = (uint32_t *)(void *)w->ids.p;
		ids = m;
		r = idict_map(&c->idict, c->vals.p, n, w4, max_entries, m);
	}
	if (r < 0)
		return nomem(w);
	size_t base = b->n;
	if (r == 0) {
		int bw = pq_bit_width(c->idict.count - 1);
		uint8_t bwb = (uint8_t)bw;
		if (pq_buf_put(b, &bwb, 1) || pq_rle_hybrid(b, ids, n, bw))
			return nomem(w);
		*enc = E_RLE_DICTIONARY;
		if (c->imode == IM_DICT)
			return NXP_OK;
		/* first page: against the other encoding, counting the dictionary page too */
		w->alt.n = 0;
		if (other_page(c, &w->alt, enc))
			return nomem(w);
		if (b->n - base + c->idict.plain.n <= w->alt.n) {
			*enc = E_RLE_DICTIONARY;
			c->imode = IM_DICT;
			return NXP_OK;
		}
		b->n = base;
		if (pq_buf_put(b, w->alt.p, w->alt.n))
			return nomem(w);
	} else if (other_page(c, b, enc)) {
		return nomem(w);
	}
	if (c->imode == IM_UNDECIDED && *enc == E_DELTA_BINARY_PACKED) {
		int rc = choose_int_plain(w, c, b->n - base);
		if (rc)
			return rc;
		if (c->int_plain) {
			b->n = base;
			if (other_page(c, b, enc))
				return nomem(w);
		}
	}
	/* the other encoding from now on; a dictionary no page uses is dropped */
	if (c->n_pages[E_RLE_DICTIONARY] == 0)
		idict_clear(&c->idict);
	c->imode = IM_OTHER;
	return NXP_OK;
}

static int flush_page(pq_writer *w, pq_col *c)
{
	if (c->prow == 0)
		return NXP_OK;
	pq_buf *b = &w->body;
	b->n = 0;
	if (c->nullable) {
		if (pq_buf_reserve(b, 4))
			return nomem(w);
		b->n = 4;
		if (pq_def_levels(b, c->defs.p, (size_t)c->prow, (size_t)c->pnull))
			return nomem(w);
		uint32_t len = (uint32_t)(b->n - 4);
		memcpy(b->p, &len, 4);
	}
	int enc = E_PLAIN, oom = 0;
	if (c->pdict && c->dict.count > 0) {
		enc = E_RLE_DICTIONARY;
		int bw = pq_bit_width(c->dict.count - 1);
		uint8_t bwb = (uint8_t)bw;
		oom = pq_buf_put(b, &bwb, 1) || pq_rle_hybrid(b, (const uint32_t *)(void *)c->vals.p, c->vals.n / 4, bw);
	} else if (c->kind != K_BOOL && c->kind != K_UTF8 && c->kind != K_DICT) {
		int rc = encode_numbers(w, c, b, &enc);
		if (rc)
			return rc;
	} else {
		oom = pq_buf_put(b, c->vals.p, c->vals.n);
	}
	if (oom)
		return nomem(w);
	/* A page that did not compress (by less than 10 %, STORE_PCT: random
	 * bits such as checksums, DELTA-packed times) makes the column's next
	 * pages stored in raw ZSTD blocks without trying, in this chunk and the
	 * next ones (col_chunk_reset); every STORE_RETRY-th page is compressed
	 * again to see whether the data changed.  (Measured on the 714 MB
	 * export: ZSTD takes about as long a byte for a 10 % gain as for 60 %.) */
	const uint8_t *z;
	size_t zn;
	int store = c->stored > 0 && c->stored % STORE_RETRY != 0;
	int rc = compress(w, b->p, b->n, &z, &zn, store);
	if (!store)
		c->stored = (uint64_t)zn * 100 >= (uint64_t)b->n * STORE_PCT && b->n >= 4096;
	else
		c->stored++;
	if (!rc)
		rc = page_header(w, PAGE_DATA, b->n, zn, c->prow, enc);
	if (rc)
		return rc;
	if (pq_buf_put(&c->chunk, w->hdr.p, w->hdr.n) || pq_buf_put(&c->chunk, z, zn))
		return nomem(w);
	c->c_unc += (int64_t)(w->hdr.n + b->n);
	c->c_comp += (int64_t)(w->hdr.n + zn);
	c->n_pages[enc]++;
	page_reset(c);
	return NXP_OK;
}

/* Append rows i0..i0+n of column array `a` (offsets already applied). */
static int col_append(pq_writer *w, pq_col *c, const struct ArrowArray *a, const uint8_t *valid, int64_t i0,
		      int64_t n)
{
	while (n > 0) {
		int64_t k = n;
		if (k > PAGE_ROWS - c->prow)
			k = PAGE_ROWS - c->prow;
		if (c->width > 0) {
			int64_t room = (PAGE_BYTES - (int64_t)page_bytes(c)) / c->width;
			if (k > room)
				k = room > 0 ? room : 1;
		}
		int64_t got;
		switch (c->kind) {
		case K_INT32: got = c->pids ? append_ids(c, a, valid, i0, k) : append_int32(c, a, valid, i0, k); break;
		case K_INT64: got = c->pids ? append_ids(c, a, valid, i0, k) : append_int64(c, a, valid, i0, k); break;
		case K_UINT32: got = c->pids ? append_ids(c, a, valid, i0, k) : append_uint32(c, a, valid, i0, k); break;
		case K_FLOAT: got = append_float(c, a, valid, i0, k); break;
		case K_DOUBLE: got = append_double(c, a, valid, i0, k); break;
		case K_BOOL: got = append_bool(c, a, valid, i0, k); break;
		case K_UTF8:
			got = c->fallback ? append_strings(w, c, a, NULL, valid, i0, k) : append_str_ids(w, c, a, valid, i0, k);
			break;
		default:
			got = c->fallback ? append_strings(w, c, a->dictionary, a->buffers[1], valid, i0, k)
					  : append_dict_ids(w, c, a, valid, i0, k);
			break;
		}
		if (got == PQ_OOM)
			return nomem(w);
		if (got < 0)
			return (int)got;
		if (defs_append(c, valid, i0, got))
			return nomem(w);
		i0 += got;
		n -= got;
		int full = page_bytes(c) >= PAGE_BYTES || c->prow >= PAGE_ROWS;
		if ((c->kind == K_DICT || c->kind == K_UTF8) && c->fallback && c->pdict) {
			/* The dictionary just filled up: the open page (ids) closes and
			 * the rest of the chunk is PLAIN. */
			int rc = c->prow ? flush_page(w, c) : NXP_OK;
			c->pdict = 0;
			if (rc)
				return rc;
		} else if (full) {
			int rc = flush_page(w, c);
			if (rc)
				return rc;
		}
	}
	return NXP_OK;
}

/* ---- row groups and footer ----------------------------------------------------------- */

static void put_le(uint8_t *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void put_stats(tc_writer *t, const pq_col *c)
{
	uint8_t mn[8], mx[8];
	const uint8_t *pmn = mn, *pmx = mx;
	size_t nmn = 0, nmx = 0;
	int has = c->has_mm, legacy = 1;
	switch (c->kind) {
	case K_INT32:
		put_le(mn, (uint64_t)c->imin, 4), put_le(mx, (uint64_t)c->imax, 4), nmn = nmx = 4;
		break;
	case K_INT64:
	case K_UINT32:
		put_le(mn, (uint64_t)c->imin, 8), put_le(mx, (uint64_t)c->imax, 8), nmn = nmx = 8;
		break;
	case K_BOOL:
		mn[0] = (uint8_t)c->imin, mx[0] = (uint8_t)c->imax, nmn = nmx = 1;
		break;
	case K_FLOAT: {
		/* zero bounds widened to -0.0 / +0.0 (parquet.thrift, ColumnOrder) */
		float a = c->dmin == 0 ? -0.0f : (float)c->dmin, b = c->dmax == 0 ? 0.0f : (float)c->dmax;
		memcpy(mn, &a, 4), memcpy(mx, &b, 4), nmn = nmx = 4;
		break;
	}
	case K_DOUBLE: {
		double a = c->dmin == 0 ? -0.0 : c->dmin, b = c->dmax == 0 ? 0.0 : c->dmax;
		memcpy(mn, &a, 8), memcpy(mx, &b, 8), nmn = nmx = 8;
		break;
	}
	default: /* strings: unsigned byte order, only in min_value/max_value */
		legacy = 0;
		pmn = c->smin.p, nmn = c->smin.n, pmx = c->smax.p, nmx = c->smax.n;
		if (nmn > STAT_STRING_MAX || nmx > STAT_STRING_MAX)
			has = 0;
		break;
	}
	tc_struct_begin(t, 12);
	if (has && legacy) {
		tc_binary(t, 1, pmx, nmx);
		tc_binary(t, 2, pmn, nmn);
	}
	tc_i64(t, 3, c->c_nulls);
	if (has) {
		tc_binary(t, 5, pmx, nmx);
		tc_binary(t, 6, pmn, nmn);
		tc_bool(t, 7, 1);
		tc_bool(t, 8, 1);
	}
	if (c->kind == K_FLOAT || c->kind == K_DOUBLE)
		tc_i64(t, 9, c->nan);
	tc_struct_end(t);
}

static void col_chunk_reset(pq_col *c)
{
	c->chunk.n = 0;
	c->c_rows = c->c_nulls = c->c_unc = c->c_comp = 0;
	memset(c->n_pages, 0, sizeof(c->n_pages));
	dict_clear(&c->dict);
	idict_clear(&c->idict);
	c->imode = IM_UNDECIDED;
	if (++c->chunks % CARRY_CHUNKS == 0)
		c->stored = c->int_plain = c->plain_tried = 0;
	c->fallback = 0;
	c->has_mm = 0;
	c->nan = 0;
	if (c->remap_n)
		memset(c->remap, 0xff, (size_t)c->remap_n * sizeof(*c->remap));
	page_reset(c);
}

static int flush_row_group(pq_writer *w)
{
	if (w->rg_rows == 0)
		return NXP_OK;
	tc_writer t;
	tc_init(&t, &w->rg);
	tc_elem_struct_begin(&t);
	tc_list_begin(&t, 1, TC_STRUCT, (uint32_t)w->ncols);
	int64_t rg_start = w->pos, unc = 0, comp = 0;
	for (int j = 0; j < w->ncols; j++) {
		pq_col *c = &w->cols[j];
		int rc = flush_page(w, c);
		if (rc)
			return rc;
		int64_t dict_off = -1;
		const pq_buf *dplain = c->kind == K_DICT || c->kind == K_UTF8 ? &c->dict.plain : &c->idict.plain;
		uint32_t dcount = c->kind == K_DICT || c->kind == K_UTF8 ? c->dict.count : c->idict.count;
		if (dcount > 0) {
			const uint8_t *z;
			size_t zn;
			rc = compress(w, dplain->p, dplain->n, &z, &zn, 0);
			if (!rc)
				rc = page_header(w, PAGE_DICTIONARY, dplain->n, zn, dcount, E_PLAIN);
			dict_off = w->pos;
			if (!rc)
				rc = write_all(w, w->hdr.p, w->hdr.n);
			if (!rc)
				rc = write_all(w, z, zn);
			if (rc)
				return rc;
			c->c_unc += (int64_t)(w->hdr.n + dplain->n);
			c->c_comp += (int64_t)(w->hdr.n + zn);
			for (uint32_t e = 0; e < c->dict.count && dplain == &c->dict.plain; e++)
				if (stat_string(c, c->dict.plain.p + c->dict.off[e], c->dict.len[e]))
					return nomem(w);
		}
		int64_t data_off = w->pos;
		rc = write_all(w, c->chunk.p, c->chunk.n);
		if (rc)
			return rc;
		unc += c->c_unc;
		comp += c->c_comp;

		tc_elem_struct_begin(&t); /* ColumnChunk */
		tc_i64(&t, 2, 0);
		tc_struct_begin(&t, 3); /* ColumnMetaData */
		tc_i32(&t, 1, c->ptype);
		/* every encoding of the chunk: its pages', the dictionary page's
		 * (PLAIN) and the definition levels' (RLE) */
		int used[E_COUNT] = {0}, nused = 0;
		for (int e = 0; e < E_COUNT; e++)
			used[e] = c->n_pages[e] > 0;
		used[E_PLAIN] |= dict_off >= 0;
		used[E_RLE] = 1;
		for (int e = 0; e < E_COUNT; e++)
			nused += used[e];
		tc_list_begin(&t, 2, TC_I32, (uint32_t)nused);
		for (int e = 0; e < E_COUNT; e++)
			if (used[e])
				tc_elem_i32(&t, e);
		tc_list_begin(&t, 3, TC_BINARY, 1);
		tc_elem_binary(&t, c->name, strlen(c->name));
		tc_i32(&t, 4, pq_codec_thrift_id(w->codec));
		tc_i64(&t, 5, c->c_rows);
		tc_i64(&t, 6, c->c_unc);
		tc_i64(&t, 7, c->c_comp);
		tc_i64(&t, 9, data_off);
		if (dict_off >= 0)
			tc_i64(&t, 11, dict_off);
		put_stats(&t, c);
		int nstats = dict_off >= 0;
		for (int e = 0; e < E_COUNT; e++)
			nstats += c->n_pages[e] > 0;
		tc_list_begin(&t, 13, TC_STRUCT, (uint32_t)nstats);
		if (dict_off >= 0) {
			tc_elem_struct_begin(&t);
			tc_i32(&t, 1, PAGE_DICTIONARY), tc_i32(&t, 2, E_PLAIN), tc_i32(&t, 3, 1);
			tc_struct_end(&t);
		}
		for (int e = 0; e < E_COUNT; e++) {
			if (c->n_pages[e] == 0)
				continue;
			tc_elem_struct_begin(&t);
			tc_i32(&t, 1, PAGE_DATA), tc_i32(&t, 2, e), tc_i32(&t, 3, c->n_pages[e]);
			tc_struct_end(&t);
		}
		tc_struct_end(&t); /* ColumnMetaData */
		tc_struct_end(&t); /* ColumnChunk */
		col_chunk_reset(c);
	}
	tc_i64(&t, 2, unc);
	tc_i64(&t, 3, w->rg_rows);
	tc_i64(&t, 5, rg_start);
	tc_i64(&t, 6, comp);
	tc_struct_end(&t);
	if (t.oom)
		return nomem(w);
	w->n_rg++;
	w->rows_total += w->rg_rows;
	w->rg_rows = 0;
	return NXP_OK;
}

static int write_footer(pq_writer *w, const char *const *kv)
{
	pq_buf f = {0};
	tc_writer t;
	tc_init(&t, &f);
	tc_i32(&t, 1, 1);
	tc_list_begin(&t, 2, TC_STRUCT, (uint32_t)w->ncols + 1);
	tc_elem_struct_begin(&t);
	tc_string(&t, 4, "schema");
	tc_i32(&t, 5, w->ncols);
	tc_struct_end(&t);
	for (int j = 0; j < w->ncols; j++) {
		const pq_col *c = &w->cols[j];
		tc_elem_struct_begin(&t);
		tc_i32(&t, 1, c->ptype);
		tc_i32(&t, 3, c->nullable ? REP_OPTIONAL : REP_REQUIRED);
		tc_string(&t, 4, c->name);
		if (c->ptype == T_BYTE_ARRAY) {
			tc_i32(&t, 6, CT_UTF8);
			tc_struct_begin(&t, 10); /* LogicalType */
			tc_struct_begin(&t, 1);  /* STRING */
			tc_struct_end(&t);
			tc_struct_end(&t);
		}
		tc_struct_end(&t);
	}
	tc_i64(&t, 3, w->rows_total);
	tc_list_begin(&t, 4, TC_STRUCT, w->n_rg);
	tc_raw(&t, w->rg.p, w->rg.n);
	uint32_t nkv = 1;
	for (const char *const *p = kv; p && *p; p += 2)
		nkv++;
	tc_list_begin(&t, 5, TC_STRUCT, nkv);
	tc_elem_struct_begin(&t);
	tc_string(&t, 1, "nxp.version");
	tc_string(&t, 2, nxp_version_string());
	tc_struct_end(&t);
	for (const char *const *p = kv; p && *p; p += 2) {
		tc_elem_struct_begin(&t);
		tc_string(&t, 1, p[0]);
		tc_string(&t, 2, p[1]);
		tc_struct_end(&t);
	}
	char created[64];
	snprintf(created, sizeof(created), "libnxp version %s", nxp_version_string());
	tc_string(&t, 6, created);
	tc_list_begin(&t, 7, TC_STRUCT, (uint32_t)w->ncols);
	for (int j = 0; j < w->ncols; j++) {
		tc_elem_struct_begin(&t);
		tc_struct_begin(&t, 1); /* TYPE_ORDER */
		tc_struct_end(&t);
		tc_struct_end(&t);
	}
	tc_struct_end(&t);
	int rc = t.oom ? nomem(w) : NXP_OK;
	uint8_t tail[8];
	put_le(tail, f.n, 4);
	memcpy(tail + 4, "PAR1", 4);
	if (!rc && f.n > UINT32_MAX)
		rc = nxp__error_set(w->st, NXP_E_LIMIT, -1, "Parquet footer too large");
	if (!rc)
		rc = write_all(w, f.p, f.n);
	if (!rc)
		rc = write_all(w, tail, 8);
	pq_buf_free(&f);
	return rc;
}

/* ---- input validation ----------------------------------------------------------------- */

static int bad(pq_writer *w, const char *col, const char *what)
{
	return nxp__error_set(w->st, NXP_E_INVAL, -1, "Arrow input, column %s: %s", col ? col : "(batch)", what);
}

static int setup_columns(pq_writer *w, const struct ArrowSchema *s)
{
	if (!s->format || strcmp(s->format, "+s") != 0)
		return nxp__error_set(w->st, NXP_E_INVAL, -1, "Arrow input: the stream's schema is not a struct (format %s)",
				s->format ? s->format : "NULL");
	if (s->n_children < 1 || s->n_children > 32767 || !s->children)
		return nxp__error_set(w->st, NXP_E_INVAL, -1, "Arrow input: %lld columns (1..32767 supported)",
				(long long)s->n_children);
	w->ncols = (int)s->n_children;
	w->cols = calloc((size_t)w->ncols, sizeof(*w->cols));
	w->valid = calloc((size_t)w->ncols, sizeof(*w->valid));
	if (!w->cols || !w->valid)
		return nomem(w);
	for (int j = 0; j < w->ncols; j++) {
		const struct ArrowSchema *f = s->children[j];
		pq_col *c = &w->cols[j];
		if (!f || !f->format)
			return bad(w, NULL, "a column without a schema");
		if (!f->name || !*f->name)
			return bad(w, NULL, "a column without a name");
		c->name = f->name;
		c->nullable = (f->flags & ARROW_FLAG_NULLABLE) != 0;
		const char *fmt = f->format;
		if (f->dictionary) {
			if (strcmp(fmt, "i") != 0 || !f->dictionary->format || strcmp(f->dictionary->format, "u") != 0)
				return nxp__error_set(w->st, NXP_E_INVAL, -1,
						"column %s: unsupported dictionary type (only dictionary<int32, utf8>)",
						c->name);
			c->kind = K_DICT, c->ptype = T_BYTE_ARRAY, c->width = 4;
		} else if (!strcmp(fmt, "i")) {
			c->kind = K_INT32, c->ptype = T_INT32, c->width = 4;
		} else if (!strcmp(fmt, "l")) {
			c->kind = K_INT64, c->ptype = T_INT64, c->width = 8;
		} else if (!strcmp(fmt, "I")) {
			c->kind = K_UINT32, c->ptype = T_INT64, c->width = 8;
		} else if (!strcmp(fmt, "f")) {
			c->kind = K_FLOAT, c->ptype = T_FLOAT, c->width = 4;
		} else if (!strcmp(fmt, "g")) {
			c->kind = K_DOUBLE, c->ptype = T_DOUBLE, c->width = 8;
		} else if (!strcmp(fmt, "b")) {
			c->kind = K_BOOL, c->ptype = T_BOOLEAN, c->width = 0;
		} else if (!strcmp(fmt, "u")) {
			c->kind = K_UTF8, c->ptype = T_BYTE_ARRAY, c->width = 0;
		} else {
			return nxp__error_set(w->st, NXP_E_INVAL, -1, "column %s: unsupported Arrow type '%s'", c->name, fmt);
		}
		page_reset(c);
	}
	return NXP_OK;
}

/* Offsets [off..off+n] monotonic, starting >= 0, and a data buffer if any byte is used. */
static int check_offsets(pq_writer *w, const pq_col *c, const struct ArrowArray *a, int64_t off, int64_t n)
{
	const int32_t *o = a->buffers[1];
	if (!o)
		return n > 0 ? bad(w, c->name, "no offsets buffer") : NXP_OK;
	if (o[off] < 0)
		return bad(w, c->name, "negative string offset");
	int32_t bad_step = 0;
	for (int64_t i = off; i < off + n; i++)
		bad_step |= o[i + 1] - o[i] < 0;
	if (bad_step)
		return bad(w, c->name, "string offsets are not monotonic");
	if (o[off + n] > o[off] && !a->buffers[2])
		return bad(w, c->name, "no string data buffer");
	return NXP_OK;
}

/* Validate column j of a batch, for rows base..base+n of its child array. */
static int check_column(pq_writer *w, pq_col *c, const struct ArrowArray *a, int64_t rows_needed,
			const uint8_t **valid)
{
	if (!a || !a->release)
		return bad(w, c->name, "missing or released child array");
	if (a->length < 0 || a->offset < 0 || a->length < rows_needed || a->offset > INT64_MAX / 2 - a->length)
		return bad(w, c->name, "child array shorter than the batch, or a negative length/offset");
	int64_t want = c->kind == K_UTF8 ? 3 : 2;
	if (a->n_buffers != want || !a->buffers)
		return bad(w, c->name, "wrong number of buffers for its type");
	if (rows_needed > 0 && !a->buffers[1])
		return bad(w, c->name, "no values buffer");
	*valid = a->null_count != 0 ? a->buffers[0] : NULL;
	if (a->null_count > 0 && !*valid)
		return bad(w, c->name, "nulls without a validity bitmap");
	if (*valid && !c->nullable)
		for (int64_t i = 0; i < rows_needed; i++)
			if (!bit_at(*valid, a->offset + i))
				return bad(w, c->name, "null in a non-nullable column");
	if (c->kind == K_UTF8)
		return check_offsets(w, c, a, a->offset, rows_needed);
	if (c->kind == K_DICT) {
		const struct ArrowArray *d = a->dictionary;
		if (!d || !d->release || d->n_buffers != 3 || !d->buffers || d->length < 0 || d->offset < 0 ||
		    d->length > INT32_MAX)
			return bad(w, c->name, "missing or malformed dictionary");
		if (d->null_count != 0 && d->buffers[0])
			return bad(w, c->name, "nulls in the dictionary");
		int rc = check_offsets(w, c, d, d->offset, d->length);
		if (rc)
			return rc;
		if (d->length > c->remap_cap) {
			int32_t *r = realloc(c->remap, (size_t)d->length * sizeof(*r));
			if (!r)
				return nomem(w);
			c->remap = r;
			c->remap_cap = d->length;
		}
		c->remap_n = d->length;
		if (c->remap_n)
			memset(c->remap, 0xff, (size_t)c->remap_n * sizeof(*c->remap));
	}
	return NXP_OK;
}

static int64_t rg_bytes(const pq_writer *w)
{
	int64_t n = 0;
	for (int j = 0; j < w->ncols; j++) {
		const pq_col *c = &w->cols[j];
		n += c->c_unc + (int64_t)(page_bytes(c) + c->defs.n + c->dict.plain.n + c->idict_base);
	}
	return n;
}

static int write_batch(pq_writer *w, const struct ArrowArray *b)
{
	if (b->length < 0 || b->offset < 0 || b->n_children != w->ncols || !b->children)
		return bad(w, NULL, "record batch does not match the schema (length, offset or columns)");
	if (b->null_count != 0 && b->n_buffers >= 1 && b->buffers && b->buffers[0])
		return bad(w, NULL, "null rows in a record batch");
	const uint8_t **valid = w->valid;
	for (int j = 0; j < w->ncols; j++) {
		int rc = check_column(w, &w->cols[j], b->children[j], b->offset + b->length, &valid[j]);
		if (rc)
			return rc;
	}
	for (int64_t r = 0; r < b->length; r += SLICE_ROWS) {
		int64_t n = b->length - r < SLICE_ROWS ? b->length - r : SLICE_ROWS;
		for (int j = 0; j < w->ncols; j++) {
			const struct ArrowArray *a = b->children[j];
			int rc = col_append(w, &w->cols[j], a, valid[j], a->offset + b->offset + r, n);
			if (rc)
				return rc;
		}
		w->rg_rows += n;
		if (rg_bytes(w) >= w->rg_limit || w->rg_rows >= ROW_GROUP_ROWS) {
			int rc = flush_row_group(w);
			if (rc)
				return rc;
		}
	}
	return NXP_OK;
}

/* ---- files ---------------------------------------------------------------------------- */

static int open_tmp(pq_writer *w)
{
	size_t n = strlen(w->path) + 16;
	w->tmp = malloc(n);
	if (!w->tmp)
		return nomem(w);
	static unsigned counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)w;
	static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	for (int attempt = 0; attempt < 100; attempt++) {
		uint64_t x = (seed + __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED)) * 0x9e3779b97f4a7c15ull;
		char sfx[7];
		for (int i = 0; i < 6; i++, x >>= 6)
			sfx[i] = al[x % 36];
		sfx[6] = '\0';
		snprintf(w->tmp, n, "%s.tmp-%s", w->path, sfx);
		w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (w->fd >= 0)
			return NXP_OK;
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	free(w->tmp);
	w->tmp = NULL;
	return nxp__error_set(w->st, NXP_E_IO, -1, "cannot create %s.tmp-*: %s", w->path, strerror(e));
}

/* Move the finished temporary file to its name (refusing an existing one
 * unless overwrite). */
static int publish(pq_writer *w, int overwrite)
{
	if (!overwrite) {
		if (link(w->tmp, w->path) == 0) {
			unlink(w->tmp);
			return NXP_OK;
		}
		if (errno == EEXIST)
			return nxp__error_set(w->st, NXP_E_INVAL, -1, "%s exists (not overwritten)", w->path);
		struct stat sb;
		if (lstat(w->path, &sb) == 0) /* a file system without hard links */
			return nxp__error_set(w->st, NXP_E_INVAL, -1, "%s exists (not overwritten)", w->path);
	}
	if (rename(w->tmp, w->path) != 0)
		return nxp__error_set(w->st, NXP_E_IO, -1, "rename %s to %s: %s", w->tmp, w->path, strerror(errno));
	return NXP_OK;
}

static int stream_error(pq_writer *w, struct ArrowArrayStream *in, int e)
{
	const char *m = in->get_last_error ? in->get_last_error(in) : NULL;
	int code = e == ENOMEM ? NXP_E_NOMEM : e == EINVAL ? NXP_E_INVAL : NXP_E_IO;
	return nxp__error_set(w->st, code, -1, "reading the Arrow stream for %s: %s", w->path, m && *m ? m : strerror(e));
}

static int check_options(nxp_parquet_options *o, const nxp_parquet_options *opts, nxp_status *st)
{
	nxp_parquet_options_init(o);
	if (opts) {
		/* the first published size is the whole 0.2 struct */
		if (NXP__STRUCT_IN_DEFAULTS(*o, opts, offsetof(nxp_parquet_options, key_values) + sizeof(void *)))
			return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_parquet_options: struct_size too small");
	}
	if (o->codec < NXP_PARQUET_ZSTD || o->codec > NXP_PARQUET_NONE)
		return nxp__error_set(st, NXP_E_INVAL, -1, "unknown Parquet codec %d", (int)o->codec);
	if (o->codec == NXP_PARQUET_ZSTD && o->level && (o->level < -7 || o->level > 22))
		return nxp__error_set(st, NXP_E_INVAL, -1, "zstd level %d out of range (-7..22)", (int)o->level);
	if (o->codec == NXP_PARQUET_GZIP && (o->level < 0 || o->level > 9))
		return nxp__error_set(st, NXP_E_INVAL, -1, "gzip level %d out of range (1..9)", (int)o->level);
	if (o->row_group_bytes < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "negative row_group_bytes");
	for (const char *const *p = o->key_values; p && *p; p += 2)
		if (!p[1])
			return nxp__error_set(st, NXP_E_INVAL, -1, "key_values: key '%s' has no value", p[0]);
	return NXP_OK;
}

static void writer_free(pq_writer *w)
{
	for (int j = 0; w->cols && j < w->ncols; j++) {
		pq_col *c = &w->cols[j];
		pq_buf_free(&c->vals);
		pq_buf_free(&c->defs);
		pq_buf_free(&c->chunk);
		pq_buf_free(&c->smin);
		pq_buf_free(&c->smax);
		dict_free(&c->dict);
		idict_free(&c->idict);
		free(c->remap);
	}
	free(w->cols);
	free(w->valid);
	pq_buf_free(&w->body);
	pq_buf_free(&w->ids);
	pq_buf_free(&w->alt);
	pq_buf_free(&w->comp);
	pq_buf_free(&w->hdr);
	pq_buf_free(&w->rg);
	pq_codec_free(w->codec);
	free(w->tmp);
}

int nxp_parquet_write(const char *path, struct ArrowArrayStream *in, const nxp_parquet_options *opts,
		      nxp_status *st)
{
	nxp_status_clear(st);
	if (!in || !in->release || !in->get_schema || !in->get_next)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_parquet_write: no input stream");
	nxp_parquet_options o;
	int rc = NXP_OK;
	if (!path || !*path)
		rc = nxp__error_set(st, NXP_E_INVAL, -1, "nxp_parquet_write: no path");
	if (!rc)
		rc = check_options(&o, opts, st);
	struct stat sb;
	if (!rc && !o.overwrite && lstat(path, &sb) == 0)
		rc = nxp__error_set(st, NXP_E_INVAL, -1, "%s exists (not overwritten)", path);
	if (rc) {
		in->release(in);
		return rc;
	}

	pq_writer w = {.st = st, .path = path, .fd = -1};
	w.rg_limit = o.row_group_bytes ? o.row_group_bytes : DEFAULT_ROW_GROUP_BYTES;
	struct ArrowSchema schema = {0};
	int e = in->get_schema(in, &schema);
	if (e) {
		rc = stream_error(&w, in, e);
		schema.release = NULL;
	}
	if (!rc)
		rc = setup_columns(&w, &schema);
	if (!rc && !(w.codec = pq_codec_new(o.codec, o.level)))
		rc = nomem(&w);
	if (!rc)
		rc = open_tmp(&w);
	if (!rc)
		rc = write_all(&w, "PAR1", 4);
	while (!rc) {
		struct ArrowArray batch = {0};
		e = in->get_next(in, &batch);
		if (e) {
			rc = stream_error(&w, in, e);
			break;
		}
		if (!batch.release)
			break;
		rc = write_batch(&w, &batch);
		batch.release(&batch);
	}
	if (!rc)
		rc = flush_row_group(&w);
	if (!rc)
		rc = write_footer(&w, o.key_values);
	if (w.fd >= 0) {
		if (close(w.fd) != 0 && !rc)
			rc = nxp__error_set(st, NXP_E_IO, -1, "close %s: %s", w.tmp, strerror(errno));
		w.fd = -1;
	}
	if (!rc)
		rc = publish(&w, o.overwrite);
	if (rc && w.tmp)
		unlink(w.tmp);
	if (schema.release)
		schema.release(&schema);
	in->release(in);
	writer_free(&w);
	return rc;
}
