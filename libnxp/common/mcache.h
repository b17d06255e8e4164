/* SPDX-License-Identifier: MIT */
/* Large blocks kept between the tasks of one job on one thread (internal).
 *
 * An export writes its tables one after another on each thread; each table's
 * Parquet writer and Arrow builders grow buffers of up to a few MiB per
 * column and free them at the end.  glibc hands such blocks back to the
 * kernel (munmap, heap trim), so the next table faults the same amount of
 * memory in again; on a paravirtualised VM a fault costs microseconds, and
 * they were ~10 % of an export's CPU.  A cache installed on the thread for
 * the job keeps freed blocks of 64 KiB and more (bounded in bytes and count)
 * and hands them to the next allocation they fit:
 *
 *   nxp_mcache *c = nxp__mcache_new(limit);
 *   nxp_mcache *old = nxp__mcache_use(c);   this thread allocates through c
 *   ... tasks ...
 *   nxp__mcache_use(old);
 *   nxp__mcache_free(c);                     frees what it still holds
 *
 * Every block is a plain malloc() block, whichever path made it: one given
 * back on a thread without a cache (or to another thread's cache) is freed
 * (or kept) correctly, so buffers may still leave the thread (Arrow arrays
 * released elsewhere).  Without a cache installed the functions are
 * malloc/realloc/free.  A cache is used by one thread at a time. */
#ifndef NXP_COMMON_MCACHE_H
#define NXP_COMMON_MCACHE_H

#include <stddef.h>

typedef struct nxp_mcache nxp_mcache;

/* A cache holding at most `limit` bytes of free blocks.  NULL when out of memory. */
nxp_mcache *nxp__mcache_new(size_t limit);
/* Free the blocks it holds and the cache (NULL is fine).  Not while installed. */
void nxp__mcache_free(nxp_mcache *c);
/* Bytes of the free blocks c holds. */
size_t nxp__mcache_bytes(const nxp_mcache *c);
/* Install c (or NULL: none) on the calling thread; returns the one it replaces. */
nxp_mcache *nxp__mcache_use(nxp_mcache *c);

/* At least `want` bytes (want > 0); *cap receives the block's size.  NULL when
 * out of memory. */
void *nxp__mc_alloc(size_t want, size_t *cap);
/* Give back block p of size cap (the *cap it came with, or less; NULL is fine). */
void nxp__mc_free(void *p, size_t cap);
/* realloc: a block of at least `want` bytes holding p's first `used` bytes;
 * p (size cap) is given back.  NULL when out of memory (p is left as it was). */
void *nxp__mc_grow(void *p, size_t used, size_t cap, size_t want, size_t *newcap);

#endif
