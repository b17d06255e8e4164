/* SPDX-License-Identifier: MIT */
/* cli_heap_setup (examples/nxp/heap.c): NXP_HUGEPAGES=0 changes nothing;
 * otherwise, on glibc's brk heap, the heap is advised MADV_HUGEPAGE (the
 * kernel shows "hg" in the range's VmFlags) and a 4 MiB block then comes from
 * the heap (not a mapping of its own) and ends in that range.  Under an allocator that does not
 * use brk (ASan, valgrind's memcheck) the setup reports that it did nothing.
 * Exit 0 when every check holds, 1 with a message otherwise. */
#define _GNU_SOURCE
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failed = 1;
	}
}

/* Whether address a lies in a mapping whose VmFlags include "hg": 1, 0, or
 * -1 when /proc/self/smaps cannot be read. */
static int in_hugepage_range(const void *a)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	int inside = 0, found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			inside = (uintptr_t)a >= lo && (uintptr_t)a < hi;
		else if (inside && !strncmp(line, "VmFlags:", 8))
			found = strstr(line, " hg") != NULL;
	}
	fclose(f);
	return found;
}

int main(void)
{
	/* glibc's heap: a small block lies below the program break */
	void *small = malloc(64);
	int brk_heap = small && (uintptr_t)small < (uintptr_t)sbrk(0);
	free(small);

	setenv("NXP_HUGEPAGES", "0", 1);
	check(cli_heap_setup() == 0, "NXP_HUGEPAGES=0: the heap was advised");
	void *q = malloc((size_t)4 << 20);
	check(q != NULL, "malloc 4 MiB");
	check(in_hugepage_range(q) == 0, "NXP_HUGEPAGES=0: a block lies in a huge-page range");
	free(q);

	unsetenv("NXP_HUGEPAGES");
	int r = cli_heap_setup();
	if (!brk_heap) {
		check(r == 0, "not a brk heap, yet cli_heap_setup says it advised one");
		printf("not glibc's brk heap (a sanitizer or valgrind): setup did nothing, as it should\n");
		return failed;
	}
	check(r == 1, "glibc's brk heap was not advised");
	q = malloc((size_t)4 << 20);
	check(q != NULL, "malloc 4 MiB after the setup");
	check((uintptr_t)q < (uintptr_t)sbrk(0), "a 4 MiB block was mapped on its own, not taken from the heap");
	/* (the advised range starts at the first 2 MiB boundary of the heap's
	 * new step: the block's end is in it, its start need not be) */
	check(in_hugepage_range((char *)q + ((size_t)4 << 20) - 1) == 1,
	      "a 4 MiB block after the setup does not end in a MADV_HUGEPAGE range");
	free(q);
	if (!failed)
		printf("heap advised MADV_HUGEPAGE; a 4 MiB block came from it\n");
	return failed;
}
