/* SPDX-License-Identifier: MIT */
/* The busy-interval engine, one for the library: the summary pass
 * (summary/summarize.c) and the ActiveTime table (ntff/active_time.c) both
 * use it.
 *
 *  1. A record's busy span is [start + wait, end): an instruction's semaphore
 *     wait is not busy time (nxp_busy_span).
 *  2. Records arrive in start order but busy starts (start + wait) may not.
 *     A span waits in a reorder buffer (a min-heap by busy start) until the
 *     watermark — the start of the latest record, before which no later
 *     record can begin — reaches its start; spans leave in busy-start order
 *     (nxp_reorder).  The buffer holds only spans still in flight: bounded by
 *     concurrency, not by trace length; a bound can be set (the earliest span
 *     then leaves early).
 *  3. Spans in start order merge into runs (touching spans merge): nxp_runs
 *     hands each finished run back (ActiveTime rows); nxp_union adds up the
 *     runs' lengths (the summary's unions).
 *
 * Times are int64 (ns or ticks: the engine does not care). */
#ifndef NXP_COMMON_INTERVALS_H
#define NXP_COMMON_INTERVALS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "varint.h"

/* A busy span and two tags its user gives it (engine, opcode, ...). */
typedef struct nxp_span {
	int64_t lo, hi;
	int32_t tag[2];
} nxp_span;

/* The busy part [start + wait, end) of a record that runs [start, end) after
 * waiting `wait` (negative = 0): 1 and *lo when it is not empty, 0 when the
 * record is all wait (or ends before it starts, or the sum overflows). */
static inline int nxp_busy_span(int64_t start, int64_t wait, int64_t end, int64_t *lo)
{
	if (wait < 0)
		wait = 0;
	return end > start && !__builtin_add_overflow(start, wait, lo) && *lo < end;
}

/* ---- reorder buffer ---------------------------------------------------- */
typedef struct nxp_reorder {
	nxp_span *h; /* min-heap by lo */
	size_t n, cap;
	size_t max;        /* bound on buffered spans, 0 = none */
	int64_t watermark; /* INT64_MIN until the first record */
} nxp_reorder;

void nxp_reorder_init(nxp_reorder *r, size_t max);
void nxp_reorder_free(nxp_reorder *r);
/* Empty the buffer (memory kept) and reset the watermark. */
void nxp_reorder_clear(nxp_reorder *r);

/* A record starting at `start` was read: no later record starts earlier. */
static inline void nxp_reorder_advance(nxp_reorder *r, int64_t start)
{
	if (start > r->watermark)
		r->watermark = start;
}

/* Out-of-line parts of push and pop (intervals.c). */
int nxp__reorder_push_grow(nxp_reorder *r, const nxp_span *s, nxp_span *evicted);
void nxp__reorder_take(nxp_reorder *r, nxp_span *out);

/* Buffer `s`.  0; 1 when the bound was reached and the earliest buffered span
 * had to leave first, into *evicted (possibly slightly out of order for the
 * union); NXP_E_NOMEM. */
static inline int nxp_reorder_push(nxp_reorder *r, const nxp_span *s, nxp_span *evicted)
{
	if (r->n == r->cap)
		return nxp__reorder_push_grow(r, s, evicted);
	size_t i = r->n++;
	while (i > 0 && r->h[(i - 1) / 2].lo > s->lo) {
		r->h[i] = r->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	r->h[i] = *s;
	return 0;
}

/* The earliest buffered span when it starts at or before `upto`: 1 and *out;
 * else 0. */
static inline int nxp_reorder_pop(nxp_reorder *r, int64_t upto, nxp_span *out)
{
	if (!r->n || r->h[0].lo > upto)
		return 0;
	nxp__reorder_take(r, out);
	return 1;
}

/* ---- runs ---------------------------------------------------------------- */
/* The union of spans given in start order, one run at a time. */
typedef struct nxp_runs {
	int64_t lo, hi;
	int open;
} nxp_runs;

/* Add [lo, hi) (lo >= every earlier lo).  Returns 1 and the finished run in
 * *done when the span starts a new run, else 0 (it extended the open run). */
static inline int nxp_runs_add(nxp_runs *u, int64_t lo, int64_t hi, nxp_span *done)
{
	if (!u->open) {
		u->lo = lo;
		u->hi = hi;
		u->open = 1;
		return 0;
	}
	if (lo <= u->hi) { /* overlapping or touching */
		if (hi > u->hi)
			u->hi = hi;
		return 0;
	}
	done->lo = u->lo;
	done->hi = u->hi;
	u->lo = lo;
	u->hi = hi;
	return 1;
}

/* Close the open run: 1 and *done when there was one. */
static inline int nxp_runs_flush(nxp_runs *u, nxp_span *done)
{
	if (!u->open)
		return 0;
	done->lo = u->lo;
	done->hi = u->hi;
	u->open = 0;
	return 1;
}

/* ---- kept runs ----------------------------------------------------------- */
/* Finished runs kept in memory (the export's feeds: the summary's
 * total_active_time, ActiveTime's rows), each as two zigzag varints: the gap
 * from the previous run's end, then the length (~5 bytes a run instead of
 * 16; wrapping differences, exact for any int64 pair once decoded). */
typedef struct nxp_runlog {
	uint8_t *p;
	size_t n, cap; /* bytes */
	int64_t hi;    /* the last run's end (0 before the first) */
} nxp_runlog;

/* Keep r.  The log's growth is taken from *budget (bytes): 0, or -1 when
 * the budget is spent or memory is out (r is then not kept). */
static inline int nxp_runlog_put(nxp_runlog *l, const nxp_span *r, size_t *budget)
{
	if (l->cap - l->n < 20) { /* two varints of at most 10 bytes */
		size_t grow = l->cap ? l->cap : 4096;
		uint8_t *b = grow <= *budget ? (uint8_t *)realloc(l->p, l->cap + grow) : NULL;
		if (!b)
			return -1;
		l->p = b;
		l->cap += grow;
		*budget -= grow;
	}
	l->n += nxp_uvarint_put(l->p + l->n, nxp_zigzag64((int64_t)((uint64_t)r->lo - (uint64_t)l->hi)));
	l->n += nxp_uvarint_put(l->p + l->n, nxp_zigzag64((int64_t)((uint64_t)r->hi - (uint64_t)r->lo)));
	l->hi = r->hi;
	return 0;
}

/* A reader of a log, from its first run. */
typedef struct nxp_runlog_rd {
	const uint8_t *p, *end;
	int64_t hi;
} nxp_runlog_rd;

static inline nxp_runlog_rd nxp_runlog_read(const nxp_runlog *l)
{
	nxp_runlog_rd k = {l->p, l->p + l->n, 0};
	return k;
}

/* The next run: 1 and *lo, *hi, or 0 past the last. */
static inline int nxp_runlog_next(nxp_runlog_rd *k, int64_t *lo, int64_t *hi)
{
	if (k->p >= k->end)
		return 0;
	*lo = (int64_t)((uint64_t)k->hi + (uint64_t)nxp_unzigzag64(nxp_uvarint_get(&k->p)));
	*hi = (int64_t)((uint64_t)*lo + (uint64_t)nxp_unzigzag64(nxp_uvarint_get(&k->p)));
	k->hi = *hi;
	return 1;
}

/* ---- union length -------------------------------------------------------- */
/* Bounded-memory union of intervals that arrive sorted by start: the length of
 * the union is accumulated as runs are closed.  An interval that arrives out of
 * order (only possible after the reorder window overflowed) is merged when it
 * touches the open run and otherwise counted on its own. */
typedef struct nxp_union {
	int64_t lo, hi;
	int64_t total;
	int open;
} nxp_union;

/* total += hi - lo, saturating (hostile timestamps must not overflow). */
static inline void nxp_union_acc(int64_t *total, int64_t lo, int64_t hi)
{
	int64_t d;
	if (__builtin_sub_overflow(hi, lo, &d) || __builtin_add_overflow(*total, d, total))
		*total = INT64_MAX;
}

static inline void nxp_union_add(nxp_union *u, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return;
	if (!u->open) {
		u->lo = lo;
		u->hi = hi;
		u->open = 1;
	} else if (lo > u->hi) {
		nxp_union_acc(&u->total, u->lo, u->hi);
		u->lo = lo;
		u->hi = hi;
	} else if (hi >= u->lo) {
		if (hi > u->hi)
			u->hi = hi;
		if (lo < u->lo)
			u->lo = lo;
	} else {
		nxp_union_acc(&u->total, lo, hi); /* entirely before the open run: out of order */
	}
}

/* Length of the union so far, including the open run. */
static inline int64_t nxp_union_length(const nxp_union *u)
{
	int64_t t = u->total;
	if (u->open)
		nxp_union_acc(&t, u->lo, u->hi);
	return t;
}

#endif
