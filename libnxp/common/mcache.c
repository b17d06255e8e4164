/* SPDX-License-Identifier: MIT */
/* Large blocks kept between the tasks of one job on one thread: see mcache.h. */
#include "mcache.h"

#include <stdlib.h>
#include <string.h>

#define MC_MIN ((size_t)64 << 10) /* smaller blocks: malloc's own bins reuse them */
#define MC_SLOTS 128
#define MC_FIT 2                  /* a kept block serves requests down to 1/MC_FIT of its size */

struct nxp_mcache {
	size_t limit, bytes;
	int n;
	void *p[MC_SLOTS];
	size_t cap[MC_SLOTS];
};

static _Thread_local nxp_mcache *mc_cur;

nxp_mcache *nxp__mcache_new(size_t limit)
{
	nxp_mcache *c = calloc(1, sizeof(*c));
	if (c)
		c->limit = limit;
	return c;
}

void nxp__mcache_free(nxp_mcache *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++)
		free(c->p[i]);
	free(c);
}

size_t nxp__mcache_bytes(const nxp_mcache *c)
{
	return c ? c->bytes : 0;
}

nxp_mcache *nxp__mcache_use(nxp_mcache *c)
{
	nxp_mcache *old = mc_cur;
	mc_cur = c;
	return old;
}

/* Take block i out of the cache. */
static void drop(nxp_mcache *c, int i)
{
	c->bytes -= c->cap[i];
	c->n--;
	c->p[i] = c->p[c->n];
	c->cap[i] = c->cap[c->n];
}

/* The smallest kept block that serves `want` bytes, taken out (*cap: its
 * size), or NULL. */
static void *take(nxp_mcache *c, size_t want, size_t *cap)
{
	int best = -1;
	if (c && want >= MC_MIN)
		for (int i = 0; i < c->n; i++)
			if (c->cap[i] >= want && c->cap[i] / MC_FIT <= want && (best < 0 || c->cap[i] < c->cap[best]))
				best = i;
	if (best < 0)
		return NULL;
	void *p = c->p[best];
	*cap = c->cap[best];
	drop(c, best);
	return p;
}

void *nxp__mc_alloc(size_t want, size_t *cap)
{
	void *p = take(mc_cur, want, cap);
	if (!p && (p = malloc(want)))
		*cap = want;
	return p;
}

void nxp__mc_free(void *p, size_t cap)
{
	nxp_mcache *c = mc_cur;
	if (!p || !c || cap < MC_MIN || cap > c->limit) {
		free(p);
		return;
	}
	/* full: the smallest blocks make room for a larger one */
	while (c->n == MC_SLOTS || cap > c->limit - c->bytes) {
		int s = 0;
		for (int i = 1; i < c->n; i++)
			if (c->cap[i] < c->cap[s])
				s = i;
		if (c->cap[s] >= cap) {
			free(p);
			return;
		}
		free(c->p[s]);
		drop(c, s);
	}
	c->p[c->n] = p;
	c->cap[c->n++] = cap;
	c->bytes += cap;
}

void *nxp__mc_grow(void *p, size_t used, size_t cap, size_t want, size_t *newcap)
{
	if (!p)
		return nxp__mc_alloc(want, newcap);
	void *q = take(mc_cur, want, newcap);
	if (!q) { /* realloc: a large block grows in place or by mremap, without copying */
		if ((q = realloc(p, want)))
			*newcap = want;
		return q;
	}
	memcpy(q, p, used < want ? used : want);
	nxp__mc_free(p, cap);
	return q;
}
