/* SPDX-License-Identifier: MIT */
/* The nxp process's heap on transparent huge pages (cli.h, cli_heap_setup).
 *
 * Every first touch of a fresh 4 KiB page is a page fault.  On the
 * paravirtualised machines libnxp is measured on, one costs 13-19 us
 * (doc/performance.md), and `nxp export` of a 714 MB trace touched ~9.5 k
 * fresh pages: ~7 % of its CPU time.  Here the main arena grows in steps of
 * HEAP_STEP, blocks up to MMAP_MIN stay in it (not one mapping each), the
 * heap is not trimmed, and its range is advised MADV_HUGEPAGE: the kernel
 * backs it with 2 MiB pages where it can.  That export then takes ~800
 * faults, ~8 % less CPU, and its peak RSS is ~10 MB higher (flat from 259 MB
 * to 2 GB traces: 52-69 MB).
 *
 * Only the main thread's arena is advised (the export's worker threads
 * allocate from their own), and only what the first step reserves.  This is
 * the program's choice, not the library's: libnxp never touches the
 * allocator's settings.  NXP_HUGEPAGES=0 in the environment leaves them as
 * the C library sets them; with another C library than glibc, or an
 * allocator that does not take its memory from brk (sanitizers, valgrind's
 * memcheck), nothing changes. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE and sbrk under -std=c11 (the build defines it) */
#endif
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#define HEAP_STEP ((size_t)64 << 20)
#define MMAP_MIN (32 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

int cli_heap_setup(void)
{
	const char *e = getenv("NXP_HUGEPAGES");
	if (e && !strcmp(e, "0"))
		return 0;
	int advised = 0;
#if defined(__GLIBC__) && defined(__linux__) && defined(MADV_HUGEPAGE)
	if (!mallopt(M_MMAP_THRESHOLD, MMAP_MIN) || !mallopt(M_TOP_PAD, (int)HEAP_STEP) ||
	    !mallopt(M_TRIM_THRESHOLD, (int)(4 * HEAP_STEP)))
		return 0;
	/* A block the heap has no room for makes it grow by one step; the range
	 * from the block to the new top is what is advised. */
	char *p = malloc((size_t)1 << 20), *top = sbrk(0);
	if (!p)
		return 0;
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), hi = (uintptr_t)top & ~(HUGE_PAGE - 1);
	/* the block is in the brk heap, just below its top (else: not glibc's brk heap) */
	if (top != (char *)-1 && (uintptr_t)p < (uintptr_t)top && (uintptr_t)top - (uintptr_t)p <= 2 * HEAP_STEP &&
	    hi > lo)
		advised = madvise((void *)lo, hi - lo, MADV_HUGEPAGE) == 0; /* advice: a refusal changes nothing */
	free(p);
#endif
	return advised;
}
