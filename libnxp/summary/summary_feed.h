/* SPDX-License-Identifier: MIT */
/* A summary fed by the export's table streams (internal; summarize.c).
 *
 * An export reads the Instruction and DmaPacket tables whole to write them,
 * and its summary pass would read both again.  Instead each stream hands its
 * good records, in its time order, to one share of a split summary pass (the
 * parallel pass's instruction and DMA groups, one of each); the summary
 * tables then combine the shares with a read of the other tables.  Whatever
 * keeps a share from giving the one-thread pass's figures — a stream not
 * read to its end, a read error, records out of start order, a negative
 * term, more busy runs than it keeps — makes nxp__sum_feed_summarize run
 * the one-thread pass instead: the summary is the same either way.
 *
 *   nxp__sum_feed_new(&f, p, st);
 *   stream of Instruction:  if (nxp__sum_feed_begin(f, NXP_TABLE_INSTRUCTION)) the good records
 *                           in runs, nxp__sum_feed_instrs(f, qs, notes, n); at its end
 *                           nxp__sum_feed_end(f, table, ok)
 *   stream of DmaPacket:    the same with nxp__sum_feed_dmas (runs of records)
 *   nxp__sum_feed_summarize(f, &sum, st);      after both streams
 *   nxp__sum_feed_free(f);
 *
 * Each share is used by one thread at a time; the two may be fed on two
 * threads; the summary is asked for once both are done. */
#ifndef NXP_SUMMARY_FEED_H
#define NXP_SUMMARY_FEED_H

#include "ntff_priv.h"

typedef struct nxp__sum_feed nxp__sum_feed;

/* A feed for profile p (the whole profile: no window, the arch's hardware). */
int nxp__sum_feed_new(nxp__sum_feed **out, nxp_profile *p, nxp_status *st);
void nxp__sum_feed_free(nxp__sum_feed *f);
/* A stream that reads `table` (NXP_TABLE_INSTRUCTION or NXP_TABLE_DMA_PACKET)
 * whole asks to feed its share: 1 = it does (the first to ask), else 0. */
int nxp__sum_feed_begin(nxp__sum_feed *f, int table);
/* Good records of the share, in the stream's (time) order: count
 * Instruction records (decoded) of queues q[0..count-1], or n DmaPacket
 * records (raw, stride bytes apart) of queues qid[0..n-1]. */
void nxp__sum_feed_instrs(nxp__sum_feed *f, const ntff_queue *const *q, const nxp_ntff_instruction_note *n,
			  size_t count);
void nxp__sum_feed_dmas(nxp__sum_feed *f, const uint32_t *qid, const uint8_t *recs, size_t stride, size_t n);
/* The share's stream ended: ok = 1 at the table's end, 0 on an error or
 * when released before its end. */
void nxp__sum_feed_end(nxp__sum_feed *f, int table, int ok);
/* 1 when both shares ended whole with their records in start order (the
 * summary will be combined from them unless a term was negative or the
 * reorder buffers grew too large), else 0. */
int nxp__sum_feed_ready(const nxp__sum_feed *f);
/* The profile's summary (nxp_profile_summarize's): combined from the shares
 * when both ended whole, else made by the one-thread pass. */
int nxp__sum_feed_summarize(nxp__sum_feed *f, nxp_summary **out, nxp_status *st);

#endif
