/* SPDX-License-Identifier: MIT */
/* Private interface of the NTFF module (libnxp/ntff/): the profile, the read
 * path (described below, where it begins) and the writer's test hook. */
#ifndef NXP_PROFILE_PRIV_H
#define NXP_PROFILE_PRIV_H

#include <nxp/nxp.h>

#include "neff_internal.h"
#include "ntff_layout.h"

#include <pthread.h>
#include <stdint.h>

/* A DATA section as listed by the index (or found by a linear walk). */
typedef struct ntff_sec {
	uint64_t offset; /* of the section header */
	uint64_t stored_length;
	uint64_t count;
	uint64_t first_ts, last_ts, max_end_ts;
} ntff_sec;

/* A notification queue: its table entry, resolved strings and sections. */
typedef struct ntff_queue {
	uint16_t kind;        /* nxp_queue_kind */
	int32_t engine;       /* nxp_engine or -1 */
	int64_t pcore;
	const char *name;     /* "" when none */
	const char *engine_name;
	int32_t queue_idx, engine_idx;
	const nxp_neff_queue *neff_queue; /* DMA queues: the NEFF's queue instance, or NULL */
	const nxp_static_instr *si;       /* instruction queues: the NEFF's stream for (pcore, engine) */
	uint64_t nsi;                     /* its length (0: no such stream) */
	ntff_sec *secs;       /* in file order = time order */
	size_t nsecs;
	uint64_t records;
	uint64_t max_stored;  /* largest stored_length among secs within the profile's max_section */
} ntff_queue;

struct ntff_arena;

struct nxp_profile {
	nxp_neff *neff;
	nxp_source *src;                      /* the NTFF */
	nxp_source *own_neff_src, *own_ntff_src; /* open_path */
	uint64_t file_size;
	uint32_t flags;
	uint64_t max_section;
	ntff_file_header hdr;
	char *strtab;
	size_t strtab_len;
	ntff_queue *queues;
	size_t nqueues;
	ntff_sec *secs; /* all DATA sections, grouped by queue */
	size_t nsecs;
	/* Per section of secs: 1 once its CRC matched.  An export reads each
	 * section once per table and again for the summary; the file does not
	 * change under an open profile, so only the first read pays the CRC. */
	_Atomic unsigned char *crc_ok;
	int used_index;           /* 1 = footer + INDEX, 0 = linear walk */
	nxp_metadata meta;
	double flops_mult[256];   /* adjusted FLOPs multiplier per dtype for meta.arch */
	/* The only state filled after open (by cursors, on any thread): */
	char *_Atomic sem_names[256]; /* lazily built "S[n]" names, 256 per chunk */
	/* Per record table (NXP_TABLE_INSTRUCTION .. NXP_TABLE_EXECUTION): 0 =
	 * not known, else 1 + its records whose pc is not in the NEFF, once a
	 * reader that checks every record read the table whole (every queue, no
	 * window) and met nothing wrong (ntff_table_note_clean). */
	_Atomic int64_t clean[8];
	struct ntff_arena *arena;     /* profile-lifetime strings made while reading */
	pthread_mutex_t lock;         /* guards building a sem_names chunk and arena */
	nxp_status err;               /* written at open only */
};

/* Strings owned by the profile. NULL when out of memory. */
const char *ntff_semaphore_name(nxp_profile *p, unsigned idx);
const char *ntff_hex_string(nxp_profile *p, uint64_t v);
/* A semaphore update's operation name ("set", "increment", "decrement",
 * "clear"; "" past them), as the SemaphoreUpdate table writes it. */
const char *ntff_semaphore_op(unsigned op);
/* String `ref` of the string table, or NULL if out of range. */
static inline const char *ntff_str(const nxp_profile *p, uint64_t ref)
{
	return ref < p->strtab_len ? p->strtab + ref : NULL;
}

/* A record table read whole with every record checked and nothing wrong
 * met — no bad record, no skipped section, no read error — and
 * `unknown_pcs` records whose pc is not in the NEFF (Instruction; 0 for the
 * others).  The file does not change under an open profile, so a later walk
 * that looks for problems (the Warning table) can take this instead of
 * reading the table again. */
static inline void ntff_table_note_clean(nxp_profile *p, int table, int64_t unknown_pcs)
{
	if (table >= 0 && table < (int)(sizeof(p->clean) / sizeof(p->clean[0])) && unknown_pcs >= 0)
		p->clean[table] = 1 + unknown_pcs;
}
/* 1 (and *unknown_pcs) when ntff_table_note_clean was called for the table. */
static inline int ntff_table_known_clean(nxp_profile *p, int table, int64_t *unknown_pcs)
{
	if (table < 0 || table >= (int)(sizeof(p->clean) / sizeof(p->clean[0])))
		return 0;
	int64_t v = p->clean[table];
	if (v <= 0)
		return 0;
	*unknown_pcs = v - 1;
	return 1;
}

/* ticks -> ns as the records' fills convert them; most traces tick once per
 * ns, and a 64-bit division costs more than the rest of a record's decode. */
static inline int64_t ntff_tick_ns(const nxp_profile *p, uint64_t tick)
{
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	return (int64_t)(tpn == 1 ? tick : tick / tpn);
}

/* ns -> ticks as nxp_cursor_open converts a window bound: 0 for ns <= 0,
 * 2^63 (beyond every valid key) when the product overflows. */
static inline uint64_t ntff_tick_of(const nxp_profile *p, int64_t ns)
{
	if (ns <= 0)
		return 0;
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	if ((uint64_t)ns > ((uint64_t)INT64_MAX + 1) / tpn)
		return (uint64_t)INT64_MAX + 1;
	return (uint64_t)ns * tpn;
}

/* ==== The read path ========================================================
 *
 *   profile_open.c  nxp_profile: index (or a walk), STRTAB, QUEUES, META, the
 *                   Metadata; its TPB fields come from an ntff_scan + ntff_merge
 *                   over the TPB queues (no cursor).
 *   queue_reader.c  ntff_scan, ntff_qreader: the selected queues' DATA sections,
 *                   one loaded per queue (mapped, or read into one arena),
 *                   checked, inflated; a queue's keys must not go back; seek
 *                   through the index.  Counts bad sections and records.
 *   merge.c         ntff_merge: k-way merge (loser tree) of readers by (key, queue id);
 *                   ntff_iter: scan + merge + a table = that table's records in
 *                   time order, raw (the internal iteration, see below).
 *   records.c       ntff_table: one descriptor per public table — the queue
 *                   kind it reads, which queues the options select, the record
 *                   check, the fill of the public struct.  A new table is one
 *                   descriptor (and, for a table derived from others, its body).
 *   cursor.c        the public nxp_cursor_*: an ntff_iter and the descriptor's
 *                   fill, or a derived table's body (ntff_derived_ops).
 *   active_time.c   ActiveTime, a derived table: a scan, one merge per (engine,
 *                   pcore) and the busy-interval engine (common/intervals.h).
 *
 * Uses (functions; no circle): cursor.c -> records.c (the descriptor),
 * merge.c; records.c -> merge.c (its per-table loops step an ntff_iter),
 * active_time.c (the descriptor points at its body); active_time.c ->
 * merge.c, queue_reader.c, the record checks; profile_open.c -> merge.c,
 * queue_reader.c; merge.c -> queue_reader.c (and reads descriptors, which
 * are data); queue_reader.c -> the layout.  Nothing outside cursor.c sees
 * its struct, and nothing here includes the summary.
 * ========================================================================== */

typedef struct ntff_scan ntff_scan;
typedef struct ntff_iter ntff_iter;

/* One queue's reader: the current record of its loaded section. */
typedef struct ntff_qreader {
	const ntff_queue *q;
	uint32_t qid;          /* queue id (index in the profile's queue table) */
	size_t sec;            /* current section index in q->secs */
	const uint8_t *rec;    /* current record (raw bytes, layout version 1) */
	const uint8_t *end;    /* end of the current section's records */
	const uint8_t *base;   /* first record of the current section */
	size_t rsize;          /* record size declared by the section (>= the layout's) */
	uint64_t key;          /* key (start tick) of *rec */
	uint64_t last_key;     /* last key accepted on this queue */
	uint64_t payload_off;  /* file offset of the section payload */
	int done;
	uint8_t *buf, *raw;   /* buf points into the scan's arena unless own_buf */
	size_t cap, rawcap;
	int own_buf;
} ntff_qreader;

/* The readers of the queues one consumer selected, its time window, and the
 * counters reading updates.  Consumers: the cursor, ActiveTime, profile open,
 * a columnar reader. */
struct ntff_scan {
	nxp_profile *p;
	ntff_qreader *qr;
	size_t nqr;
	uint8_t *arena;           /* the readers' section buffers, one allocation (file sources) */
	uint64_t from_tick, to_tick; /* [from, to): records at or after to_tick end the scan */
	int64_t next_id;          /* row number of the current record in merged order (bad ones count) */
	nxp_cursor_stats stats;   /* records, bad_records, skipped_sections, bytes_read, last_bad_offset, unknown_pcs */
	nxp_status err;
	int failed;               /* err holds an error that ends the scan */
};

typedef int (*ntff_queue_filter)(const ntff_queue *q, const void *arg);

/* Readers for every queue `want` accepts, window [from, to); not positioned
 * (call ntff_scan_seek).  NXP_E_NOMEM (nothing to close on failure). */
int ntff_scan_open(ntff_scan *s, nxp_profile *p, ntff_queue_filter want, const void *arg, uint64_t from_tick,
		   uint64_t to_tick);
void ntff_scan_close(ntff_scan *s);
/* Position every reader at its first in-order record with key >= tick;
 * next_id = the number of records before them.  0 or a negative error. */
int ntff_scan_seek(ntff_scan *s, uint64_t tick);
/* Count a bad record (section = 0) or section at `offset`. */
void ntff_scan_bad(ntff_scan *s, int section, uint64_t offset);
/* End the scan with `code` (the message is nxp_strerror's). Returns code. */
int ntff_scan_fail(ntff_scan *s, int code);

/* Move to the queue's next in-order record (loading sections): 0 or a
 * negative error; qr->done at the end of the queue. */
int ntff_qreader_advance(ntff_scan *s, ntff_qreader *qr);
/* Byte offset of the reader's current record (its section's header offset
 * inside a compressed section), for last_bad_offset. */
static inline uint64_t ntff_qreader_offset(const ntff_qreader *qr)
{
	return qr->payload_off == qr->q->secs[qr->sec].offset ? qr->payload_off
							      : qr->payload_off + (uint64_t)(qr->rec - qr->base);
}
/* A queue's next key is accepted when it does not go back in time and is a
 * valid int64 time. */
static inline int ntff_key_in_order(const ntff_qreader *qr, uint64_t k)
{
	return k >= qr->last_key && k <= (uint64_t)INT64_MAX;
}

/* ---- merge (merge.c) ---- */
/* A loser tree over queue readers, ordered by (key, qid): leaf i is reader
 * rd[i], each inner node t[1 .. size-1] holds the loser of the match played
 * there (its key and queue id inline), t[0] the overall winner, the top.
 * After the top moved on, one pass from its leaf to the root — a compare per
 * level, a swap where the stored loser now wins — restores the order without
 * touching a reader.  A done reader plays as NTFF_MERGE_NONE, after every
 * valid key (<= INT64_MAX).  Only the top's key may change that way; any
 * other change is a rebuild from the readers (ntff_merge_build). */
typedef struct ntff_merge_node {
	uint64_t key;
	uint32_t qid;
	uint32_t leaf;
} ntff_merge_node;

#define NTFF_MERGE_NONE UINT64_MAX

typedef struct ntff_merge {
	ntff_merge_node *t;  /* t[0] the winner, t[1 .. size-1] the losers */
	ntff_merge_node *w;  /* the build's winners, 2 * size */
	ntff_qreader **rd;   /* leaf i's reader */
	ntff_qreader *top;   /* the winner's reader; NULL when n == 0 */
	size_t n;            /* readers not done */
	size_t nleaf, size;  /* leaves in use; leaves (a power of two >= cap) */
} ntff_merge;

/* Room for cap readers, empty.  NXP_E_NOMEM. */
int ntff_merge_init(ntff_merge *m, size_t cap);
void ntff_merge_free(ntff_merge *m);
/* Empty the merge (no readers; the room is kept). */
void ntff_merge_clear(ntff_merge *m);
/* Add a reader that is not done (at most cap since the last clear); then
 * ntff_merge_build before the merge is used. */
static inline void ntff_merge_add(ntff_merge *m, ntff_qreader *qr)
{
	m->rd[m->nleaf++] = qr;
	m->n++;
}
/* Play every match again from the readers' keys (done readers last). */
void ntff_merge_build(ntff_merge *m);
/* Add and build. */
void ntff_merge_push(ntff_merge *m, ntff_qreader *qr);
static inline ntff_qreader *ntff_merge_top(const ntff_merge *m)
{
	return m->top;
}
static inline int ntff_merge_before(const ntff_qreader *a, const ntff_qreader *b)
{
	return a->key < b->key || (a->key == b->key && a->qid < b->qid);
}
static inline int ntff_merge_node_before(const ntff_merge_node *a, const ntff_merge_node *b)
{
	return a->key < b->key || (a->key == b->key && a->qid < b->qid);
}
/* The top now plays as (key, qid): replay its leaf's path to the root
 * (inline: once per record in every reader of the merge). */
static inline void ntff_merge_replay(ntff_merge *m, uint64_t key, uint32_t qid)
{
	ntff_merge_node *t = m->t, x = {key, qid, t[0].leaf};
	for (size_t i = (m->size + x.leaf) / 2; i > 0; i /= 2)
		if (ntff_merge_node_before(&t[i], &x)) { /* the loser stored here wins now */
			ntff_merge_node y = t[i];
			t[i] = x;
			x = y;
		}
	t[0] = x;
	m->top = m->n ? m->rd[x.leaf] : NULL;
}
/* Restore the order after the top's key changed (its reader's key). */
static inline void ntff_merge_sift_top(ntff_merge *m)
{
	if (m->size > 1) /* one reader: it stays the top */
		ntff_merge_replay(m, m->top->key, m->top->qid);
}
/* The top reader's next record through its reader (sections, bad keys). */
int ntff_merge_advance_slow(ntff_scan *s, ntff_merge *m);
/* The common case of ntff_qreader_advance: the next record of the loaded
 * section, in order.  1 when the reader moved there; 0 (reader unchanged)
 * when it takes ntff_qreader_advance (a section's end, a key out of order). */
static inline int ntff_qreader_step_in_section(ntff_qreader *qr)
{
	const uint8_t *next = qr->rec + qr->rsize;
	uint64_t k;
	if (next < qr->end && ntff_key_in_order(qr, k = ntff_record_key(next))) {
		qr->rec = next;
		qr->key = qr->last_key = k;
		return 1;
	}
	return 0;
}
/* ntff_qreader_advance, the common case inlined: 0 or a negative error. */
static inline int ntff_qreader_next(ntff_scan *s, ntff_qreader *qr)
{
	return ntff_qreader_step_in_section(qr) ? NXP_OK : ntff_qreader_advance(s, qr);
}
/* Advance the top reader and restore the order: 0 or a negative error. */
static inline int ntff_merge_advance_top(ntff_scan *s, ntff_merge *m)
{
	if (ntff_qreader_step_in_section(m->top)) {
		ntff_merge_sift_top(m);
		return NXP_OK;
	}
	return ntff_merge_advance_slow(s, m);
}

/* ---- record checks: the one place -------------------------------------------
 * What makes a decoded record bad (skipped and counted).  Every reader of a
 * record — its table's fill, ActiveTime, a columnar reader — uses these. */
static inline int ntff_span_ok(uint64_t start, uint64_t end)
{
	return end >= start && end <= (uint64_t)INT64_MAX;
}
static inline int ntff_instruction_ok(const nxp_ntff_instruction_note *n)
{
	return ntff_span_ok(n->start_tick, n->end_tick);
}
static inline int ntff_dma_ok(const nxp_profile *p, const nxp_ntff_dma_note *n)
{
	return ntff_span_ok(n->start_tick, n->end_tick) && ntff_str(p, n->variable) && n->source <= NXP_MEMORY_HBM &&
	       n->dest <= NXP_MEMORY_HBM;
}
/* The same on raw records, for readers that need no field of a good one
 * (a table's check, the summary pass's block feed). */
static inline int ntff_instruction_rec_ok(const uint8_t *rec)
{
	nxp_ntff_instruction_note n;
	ntff_decode_instruction(rec, &n);
	return ntff_instruction_ok(&n);
}
static inline int ntff_dma_rec_ok(const nxp_profile *p, const uint8_t *rec)
{
	nxp_ntff_dma_note n;
	ntff_decode_dma(rec, &n);
	return ntff_dma_ok(p, &n);
}
static inline int ntff_semaphore_ok(const nxp_ntff_semaphore_note *n)
{
	return n->update_source < NXP_ENGINE_COUNT && n->operation <= 3 && n->trigger_complete <= 1;
}
static inline int ntff_throttle_ok(const nxp_profile *p, const nxp_ntff_throttle_note *n)
{
	return ntff_str(p, n->type) && n->duration_ticks <= (uint64_t)INT64_MAX;
}
static inline int ntff_error_ok(const nxp_profile *p, const nxp_ntff_error_note *n)
{
	return ntff_str(p, n->description) && n->type <= 2;
}
static inline int ntff_execution_ok(const nxp_profile *p, const nxp_ntff_execution_note *n)
{
	return ntff_str(p, n->neff_name) && ntff_span_ok(n->start_tick, n->end_tick);
}

/* ---- tables (records.c) ---- */
/* A fill's result when the record failed its checks: NXP__BAD_RECORD (status.h). */

/* The body of a table derived from other queues' records (ActiveTime). */
typedef struct ntff_derived_ops {
	int (*open)(void **state, ntff_scan *s);     /* after ntff_scan_open: NXP_E_NOMEM */
	void (*reset)(void *state, ntff_scan *s);    /* after every ntff_scan_seek */
	int (*next)(void *state, ntff_scan *s, void *out);  /* 0, NXP_END, or a negative error */
	int64_t (*position)(void *state, ntff_scan *s); /* ns, INT64_MAX at the end */
	void (*close)(void *state);
} ntff_derived_ops;

typedef struct ntff_table {
	int table;           /* NXP_TABLE_* */
	unsigned queue_kind; /* the nxp_queue_kind it reads; 0 for a derived table */
	size_t struct_size;  /* sizeof its public record */
	/* Whether the cursor options select queue q (the pcore filter is common). */
	int (*selects)(const ntff_queue *q, const nxp_cursor_options *o);
	/* 1 when the record passes its checks (the ntff_*_ok function above). */
	int (*check)(const nxp_profile *p, const uint8_t *rec);
	/* Decode, check and fill the public struct, every field (id = s->next_id):
	 * NXP_OK, NXP__BAD_RECORD, or a negative error already recorded by ntff_scan_fail. */
	int (*fill)(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out);
	/* The cursor's next over an ntff_iter: fill the next good record (bad
	 * ones counted and stepped over), step past it.  NXP_OK, NXP_END or a
	 * negative error.  (The fill inlined: the hottest loop of the library.) */
	int (*next)(ntff_iter *it, void *out);
	const ntff_derived_ops *derived; /* derived tables: their body; else NULL */
} ntff_table;

/* The descriptor of a public table, NULL for an unknown table number. */
const ntff_table *ntff_table_get(int table);
/* Whether the options select q for table t (pcore, queue kind, then t->selects). */
static inline int ntff_table_selects(const ntff_table *t, const ntff_queue *q, const nxp_cursor_options *o)
{
	if (o->pcore_idx >= 0 && q->pcore != o->pcore_idx)
		return 0;
	if (t->queue_kind && q->kind != t->queue_kind)
		return 0;
	return t->selects(q, o);
}

/* ActiveTime's body (active_time.c). */
extern const ntff_derived_ops ntff_active_time_ops;

/* ActiveTime fed by an export's streams (active_time.c).  An export reads
 * the Instruction and DmaPacket tables whole; ActiveTime would read both
 * again.  Instead each stream hands the feed its good records, in its
 * (start) order, and the ActiveTime table is then read from the runs the
 * feed kept: the derived table's rows, in its order.  A stream that does not
 * end whole (ok = 0), records out of start order, or more runs than the feed
 * keeps (AT_KEPT_MAX) leave it not ready: ActiveTime is then read as a table.
 *
 *   ntff_at_feed_new(&f, p);
 *   stream of Instruction: if (ntff_at_feed_begin(f, NXP_TABLE_INSTRUCTION)) the good records
 *                          in runs, ntff_at_feed_instrs(f, qids, notes, n); at its end
 *                          ntff_at_feed_end(f, table, ok)
 *   stream of DmaPacket:   the same with ntff_at_feed_dmas (runs of raw records)
 *   if (ntff_at_feed_ready(f)) ntff_at_feed_next_batch(...) until NXP_END
 *   ntff_at_feed_free(f);
 *
 * The two shares may be fed on two threads, each by one at a time; the rows
 * are asked for once both ended. */
typedef struct ntff_at_feed ntff_at_feed;
/* The share an export's stream of `table` feeds (here and in the summary
 * feed): 0 Instruction, 1 DmaPacket, else -1. */
static inline int ntff_feed_share(int table)
{
	return table == NXP_TABLE_INSTRUCTION ? 0 : table == NXP_TABLE_DMA_PACKET ? 1 : -1;
}
int ntff_at_feed_new(ntff_at_feed **out, const nxp_profile *p);
void ntff_at_feed_free(ntff_at_feed *f);
/* A stream reading `table` whole (every queue, no window) asks to feed its
 * share: 1 = it does (the first to ask), else 0. */
int ntff_at_feed_begin(ntff_at_feed *f, int table);
/* Good records of the share, in the stream's (time) order: decoded
 * Instruction records, raw DmaPacket ones (stride bytes apart), of queues
 * qid[0..]. */
void ntff_at_feed_instrs(ntff_at_feed *f, const uint32_t *qid, const nxp_ntff_instruction_note *n, size_t count);
void ntff_at_feed_dmas(ntff_at_feed *f, const uint32_t *qid, const uint8_t *recs, size_t stride, size_t n);
void ntff_at_feed_end(ntff_at_feed *f, int table, int ok);
int ntff_at_feed_ready(const ntff_at_feed *f);
/* Up to n rows (public nxp_active_time structs, stride rsize) into recs,
 * *got of them: NXP_OK, NXP_END once none is left, NXP_E_INVAL when the feed
 * is not ready. */
int ntff_at_feed_next_batch(ntff_at_feed *f, void *recs, size_t rsize, size_t n, size_t *got);

/* ---- the internal iteration (merge.c) -----------------------------------------
 * A table's records in time order (key, then queue id), as (queue, raw record)
 * pairs, without filling the public struct and without the NEFF join — the
 * cursor's core, and what a columnar reader builds record batches from:
 *
 *     ntff_iter it;
 *     nxp_cursor_options o; nxp_cursor_options_init(&o);   // selection
 *     rc = ntff_iter_open(&it, p, ntff_table_get(NXP_TABLE_DMA_PACKET), &o, 0, UINT64_MAX);
 *     rc = ntff_iter_seek(&it, 0);
 *     ntff_rec r;
 *     while ((rc = ntff_iter_next(&it, &r)) == NXP_OK)
 *             ... r.q (queue: pcore, engine, names, NEFF queue/stream if wanted),
 *                 r.rec (decode with ntff_decode_*), r.id ...
 *     // rc == NXP_END, or a negative error (it.s.err); it.s.stats has the counts
 *     ntff_iter_close(&it);
 *
 * ntff_iter_next checks each record (t->check) and skips and counts bad ones.
 * Faster, per run: ntff_iter_run gives the top queue's next records that come
 * before every other queue's (contiguous raw bytes, n records of r.rsize
 * bytes, ids r.id ..); the caller checks them itself (t->check, counting a bad
 * one with ntff_scan_bad(&it.s, 0, ntff_iter_run_offset(&it, i))) and then
 * calls ntff_iter_skip(&it, n) — or simply calls ntff_iter_run again, which
 * moves past the whole previous run first.  ntff_iter_run finds a run's end by
 * moving the merge along it, so until that skip the merge's top is not the
 * run's record: between the two, use the run (r, ntff_iter_run_offset), not
 * ntff_iter_peek or ntff_iter_step.  Derived tables (t->derived) are not iterated.
 * Raw records stay valid until the next call that moves the iteration. */
struct ntff_iter {
	ntff_scan s;
	ntff_merge m;
	const ntff_table *t;
	size_t pending; /* records ntff_iter_next or ntff_iter_run returned, not yet moved past */
	/* Those records: run_qr's, from run_rec (all in its loaded section).
	 * run_past: ntff_iter_run already moved the merge past all of them (the
	 * run ended where another queue's record came first, or at a record
	 * outside the window); else run_qr is still the top, at the run's last
	 * record (ntff_iter_next: its only one). */
	ntff_qreader *run_qr;
	const uint8_t *run_rec;
	int run_past;
	int stale; /* ntff_iter_block moved the readers; the merge is built on the next other use */
};

typedef struct ntff_rec {
	const ntff_queue *q;
	uint32_t qid;
	const uint8_t *rec; /* first record */
	size_t rsize;       /* bytes from one record to the next */
	size_t n;           /* records (ntff_iter_run; 1 for ntff_iter_next) */
	int64_t id;         /* row id of the first */
} ntff_rec;

/* NXP_E_INVAL for a derived table, NXP_E_NOMEM; nothing to close on failure. */
int ntff_iter_open(ntff_iter *it, nxp_profile *p, const ntff_table *t, const nxp_cursor_options *o, uint64_t from_tick,
		   uint64_t to_tick);
void ntff_iter_close(ntff_iter *it);
/* Position at the first record with key >= tick (and >= the window's start). */
int ntff_iter_seek(ntff_iter *it, uint64_t tick);
/* The reader holding the next record (checks not applied), NULL at the end. */
static inline ntff_qreader *ntff_iter_peek(const ntff_iter *it)
{
	ntff_qreader *qr = ntff_merge_top(&it->m);
	return qr && qr->key < it->s.to_tick ? qr : NULL;
}
/* Move past the peeked record (counted in next_id whatever it was). */
static inline int ntff_iter_step(ntff_iter *it)
{
	it->s.next_id++;
	return ntff_merge_advance_top(&it->s, &it->m);
}
/* The next record that passes its checks: NXP_OK, NXP_END or a negative error. */
int ntff_iter_next(ntff_iter *it, ntff_rec *out);
/* The next run (see above; checks not applied): NXP_OK, NXP_END. */
int ntff_iter_run(ntff_iter *it, ntff_rec *out);
/* Offset of record i of the current run, for ntff_scan_bad. */
uint64_t ntff_iter_run_offset(const ntff_iter *it, size_t i);
int ntff_iter_skip_slow(ntff_iter *it, size_t n);
/* Move past the first n records of the current run (n <= its length). */
static inline int ntff_iter_skip(ntff_iter *it, size_t n)
{
	if (it->run_past && n == it->pending) { /* the whole run, and the merge is already past it */
		it->s.next_id += (int64_t)n;
		it->pending = 0;
		it->run_qr = NULL;
		it->run_past = 0;
		return NXP_OK;
	}
	return ntff_iter_skip_slow(it, n);
}

/* ---- blocks: the merge of interleaved queues, many records at a time ----
 * Where queues interleave record by record, runs are ~1 record and each one
 * costs a replay of the tree (a mispredicted branch or two per level).
 * ntff_iter_block takes instead, from every reader's loaded section, its
 * in-order records below a horizon — the least last key in view among the
 * readers, the window's end — which no record still unseen can come before,
 * and merges those sorted runs as packed 64-bit keys (key - the top's key,
 * then the reader's index: the order of (key, qid)) with branch-free 2-way
 * merges; the readers are then where per-record steps would have put them,
 * and the tree is rebuilt when something but another block needs it (it->stale:
 * ntff_iter_run, _next, _block returning no record; not ntff_iter_peek or
 * _step, which a block's caller must not use).  b->n == 0 (NXP_OK): nothing
 * below the horizon (a reader at its section's end or before a key out of
 * order, or too many readers) — take a run (ntff_iter_run) instead.  Bad
 * records are the caller's to check and count (ntff_blk_offset), ids b->id ..
 * in order, as for a run. */
#define NTFF_BLK_MAX 256     /* records per block at most */
#define NTFF_BLK_READERS 64  /* readers a block merges at most (more: runs only) */

typedef struct ntff_blk {
	size_t n;
	int64_t id;                         /* row id of rec[0] */
	ntff_qreader *qr[NTFF_BLK_MAX];     /* each record's reader (->q, ->qid) */
	const uint8_t *rec[NTFF_BLK_MAX];   /* raw, in the reader's loaded section */
} ntff_blk;

/* Up to max (<= NTFF_BLK_MAX) records in merged order, moved past (see
 * above): NXP_OK, NXP_END or a negative error. */
int ntff_iter_block(ntff_iter *it, ntff_blk *b, size_t max);
/* Offset of block record i, for ntff_scan_bad (valid until the iteration moves). */
static inline uint64_t ntff_blk_offset(const ntff_blk *b, size_t i)
{
	const ntff_qreader *qr = b->qr[i];
	return qr->payload_off == qr->q->secs[qr->sec].offset ? qr->payload_off
							      : qr->payload_off + (uint64_t)(b->rec[i] - qr->base);
}

/* Writer test hook: accept out-of-order and invalid notes (to make bad files). */
void ntff_writer_set_unchecked(nxp_ntff_writer *w, int on);

#endif
