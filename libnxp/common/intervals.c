/* SPDX-License-Identifier: MIT */
/* The reorder buffer of the busy-interval engine (intervals.h). */
#include "intervals.h"

#include <nxp/nxp.h>

#include <stdlib.h>

void nxp_reorder_init(nxp_reorder *r, size_t max)
{
	r->h = NULL;
	r->n = r->cap = 0;
	r->max = max;
	r->watermark = INT64_MIN;
}

void nxp_reorder_free(nxp_reorder *r)
{
	free(r->h);
	r->h = NULL;
	r->n = r->cap = 0;
}

void nxp_reorder_clear(nxp_reorder *r)
{
	r->n = 0;
	r->watermark = INT64_MIN;
}

void nxp__reorder_take(nxp_reorder *r, nxp_span *out)
{
	nxp_span *h = r->h, x = h[--r->n];
	size_t i = 0, n = r->n;
	*out = h[0];
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		size_t c = (l + 1 < n && h[l + 1].lo < h[l].lo) ? l + 1 : l;
		if (h[c].lo >= x.lo)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = x;
}

/* The buffer is full: make room (or, at the bound, let the earliest leave). */
int nxp__reorder_push_grow(nxp_reorder *r, const nxp_span *s, nxp_span *evicted)
{
	int ev = 0;
	if (r->max && r->cap >= r->max) {
		nxp__reorder_take(r, evicted);
		ev = 1;
	} else {
		size_t cap = r->cap ? r->cap * 2 : 64;
		nxp_span *h = realloc(r->h, cap * sizeof(*h));
		if (!h)
			return NXP_E_NOMEM;
		r->h = h;
		r->cap = cap;
	}
	int rc = nxp_reorder_push(r, s, evicted); /* now there is room */
	return rc < 0 ? rc : ev;
}
