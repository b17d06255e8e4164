/* SPDX-License-Identifier: MIT */
/* Private interface of the profile module (profile.c, cursor.c,
 * active_time.c, ntff_writer.c). */
#ifndef NXP_PROFILE_PRIV_H
#define NXP_PROFILE_PRIV_H

#include <nxp/nxp.h>

#include "neff_internal.h"
#include "ntff_layout.h"

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
	int used_index;           /* 1 = footer + INDEX, 0 = linear walk */
	nxp_metadata meta;
	double flops_mult[256];   /* adjusted FLOPs multiplier per dtype for meta.arch */
	char *sem_names[256];     /* lazily built "S[n]" names, 256 per chunk */
	struct ntff_arena *arena; /* profile-lifetime strings made while reading */
	nxp_status err;
};

/* Strings owned by the profile. NULL when out of memory. */
const char *ntff_semaphore_name(nxp_profile *p, unsigned idx);
const char *ntff_hex_string(nxp_profile *p, uint64_t v);
/* String `ref` of the string table, or NULL if out of range. */
static inline const char *ntff_str(const nxp_profile *p, uint64_t ref)
{
	return ref < p->strtab_len ? p->strtab + ref : NULL;
}

/* Reads one queue's sections one at a time into reusable buffers. */
typedef struct ntff_qreader {
	const ntff_queue *q;
	uint32_t qid;
	size_t sec;            /* current section index in q->secs */
	const uint8_t *rec;    /* current record */
	const uint8_t *end;    /* end of the current section's records */
	const uint8_t *base;   /* first record of the current section */
	size_t rsize;
	uint64_t key;          /* key (start tick) of *rec */
	uint64_t last_key;     /* last key accepted on this queue */
	uint64_t payload_off;  /* file offset of the section payload */
	int done;
	uint8_t *buf, *raw;   /* buf points into the cursor's arena unless own_buf */
	size_t cap, rawcap;
	int own_buf;
} ntff_qreader;

/* Binary heap over queue readers, ordered by (key, qid). */
typedef struct ntff_merge {
	ntff_qreader **heap;
	size_t n;
} ntff_merge;

struct ntff_active_time;

/* Internal table of the TPB queue (profile open reads it for Metadata). */
#define NTFF_TABLE_TPB 100

struct nxp_cursor {
	nxp_profile *p;
	int table;
	nxp_cursor_options opts;
	char *queue_name;
	uint64_t from_tick, to_tick; /* [from, to) */
	ntff_qreader *qr;
	size_t nqr;
	ntff_merge m;
	int64_t next_id;
	nxp_cursor_stats stats;
	nxp_status err;
	int failed;
	struct ntff_active_time *at;
	uint8_t *arena;   /* the readers' section buffers, one allocation (file sources) */
};

/* Queue readers and merges (cursor.c). */
int ntff_qreader_seek(nxp_cursor *c, ntff_qreader *qr, uint64_t tick, int64_t *before);
int ntff_qreader_advance(nxp_cursor *c, ntff_qreader *qr);
int ntff_merge_init(ntff_merge *m, size_t cap);
void ntff_merge_free(ntff_merge *m);
void ntff_merge_push(ntff_merge *m, ntff_qreader *qr);
static inline ntff_qreader *ntff_merge_top(const ntff_merge *m)
{
	return m->n ? m->heap[0] : NULL;
}
/* Advance the top reader and restore heap order. */
int ntff_merge_advance_top(nxp_cursor *c, ntff_merge *m);
/* Count a bad record/section at `offset`. */
void ntff_cursor_bad(nxp_cursor *c, int section, uint64_t offset);
int ntff_cursor_fail(nxp_cursor *c, int code);

/* Active time (active_time.c). */
int ntff_at_open(nxp_cursor *c);
void ntff_at_reset(nxp_cursor *c);
int ntff_at_next(nxp_cursor *c, nxp_active_time *out);
int64_t ntff_at_position(nxp_cursor *c);
void ntff_at_free(nxp_cursor *c);

/* Writer test hook: accept out-of-order and invalid notes (to make bad files). */
void ntff_writer_set_unchecked(nxp_ntff_writer *w, int on);

#endif
