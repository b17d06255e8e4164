/* SPDX-License-Identifier: MIT */
/* Timeline helpers shared by the sinks and the content: string interning. */
#include "timeline_priv.h"

#include <stdlib.h>
#include <string.h>

uint64_t nxp__tl_hash(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

int nxp__tl_oa_reserve(void **tab, size_t *cap, size_t n, size_t esz, size_t first, unsigned shift)
{
	if ((n + 1) * 2 <= *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : first;
	unsigned char *t = calloc(nc, esz), *o = *tab;
	if (!t)
		return -1;
	/* in the old table's order: the same layout as inserting them again */
	for (size_t i = 0; i < *cap; i++)
		if (nxp__tl_oa_key(o + i * esz))
			memcpy(t + nxp__tl_oa_slot(t, nc, esz, nxp__tl_oa_key(o + i * esz), shift) * esz, o + i * esz,
			       esz);
	free(o);
	*tab = t;
	*cap = nc;
	return 0;
}

void nxp__tl_intern_init(tl_intern *t, size_t max)
{
	memset(t, 0, sizeof(*t));
	t->next_id = 1;
	t->max = max;
}

void nxp__tl_intern_free(tl_intern *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->keys[i]);
	free(t->keys);
	free(t->hashes);
	free(t->ids);
	free(t->sptr);
	free(t->sid);
	memset(t, 0, sizeof(*t));
}

static int intern_grow(tl_intern *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 64;
	char **k = calloc(ncap, sizeof(*k));
	uint64_t *h = calloc(ncap, sizeof(*h));
	uint64_t *id = calloc(ncap, sizeof(*id));
	if (!k || !h || !id) {
		free(k);
		free(h);
		free(id);
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->keys[i])
			continue;
		size_t j = (size_t)t->hashes[i] & (ncap - 1);
		while (k[j])
			j = (j + 1) & (ncap - 1);
		k[j] = t->keys[i];
		h[j] = t->hashes[i];
		id[j] = t->ids[i];
	}
	free(t->keys);
	free(t->hashes);
	free(t->ids);
	t->keys = k;
	t->hashes = h;
	t->ids = id;
	t->cap = ncap;
	return 0;
}

static uint64_t intern_slow(tl_intern *t, const char *s, int *fresh, const char **key);

uint64_t nxp__tl_intern(tl_intern *t, const char *s, int *fresh)
{
	size_t f = (size_t)(((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ull >> 56);
	if (t->front[f].ptr == s && !strcmp(t->front[f].key, s)) {
		*fresh = 0;
		return t->front[f].id;
	}
	const char *key = NULL;
	uint64_t id = intern_slow(t, s, fresh, &key);
	if (id) {
		t->front[f].ptr = s;
		t->front[f].key = key;
		t->front[f].id = id;
	}
	return id;
}

static uint64_t intern_slow(tl_intern *t, const char *s, int *fresh, const char **key)
{
	*fresh = 0;
	size_t n = strlen(s);
	uint64_t h = nxp__tl_hash(s, n, TL_FNV_OFFSET);
	if (t->cap) {
		size_t j = (size_t)h & (t->cap - 1);
		while (t->keys[j]) {
			if (t->hashes[j] == h && !strcmp(t->keys[j], s)) {
				*key = t->keys[j];
				return t->ids[j];
			}
			j = (j + 1) & (t->cap - 1);
		}
	}
	if (t->count >= t->max)
		return 0;
	if ((t->count + 1) * 2 > t->cap && intern_grow(t))
		return 0;
	char *copy = malloc(n + 1);
	if (!copy)
		return 0;
	memcpy(copy, s, n + 1);
	size_t j = (size_t)h & (t->cap - 1);
	while (t->keys[j])
		j = (j + 1) & (t->cap - 1);
	t->keys[j] = copy;
	t->hashes[j] = h;
	t->ids[j] = t->next_id++;
	t->count++;
	*fresh = 1;
	*key = copy;
	return t->ids[j];
}

/* ---- interning by pointer (strings that stay put) ---- */

static uint64_t intern_stable_slow(tl_intern *t, const char *s, int *fresh);

static size_t ptr_slot(const char *p, size_t cap)
{
	return (size_t)(((uintptr_t)p >> 3) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

uint64_t nxp__tl_intern_stable(tl_intern *t, const char *s, int *fresh)
{
	size_t f = (size_t)((uintptr_t)s >> 3) & 127;
	if (t->sfront[f].ptr == s) {
		*fresh = 0;
		return t->sfront[f].id;
	}
	uint64_t id = intern_stable_slow(t, s, fresh);
	if (id) {
		t->sfront[f].ptr = s;
		t->sfront[f].id = id;
	}
	return id;
}

static uint64_t intern_stable_slow(tl_intern *t, const char *s, int *fresh)
{
	if (t->scap) {
		size_t j = ptr_slot(s, t->scap);
		while (t->sptr[j]) {
			if (t->sptr[j] == s) {
				*fresh = 0;
				return t->sid[j];
			}
			j = (j + 1) & (t->scap - 1);
		}
	}
	/* A pointer not seen yet: by content (another pointer may hold the same
	 * text), then remembered by pointer. */
	uint64_t id = nxp__tl_intern(t, s, fresh);
	if (!id || t->scount >= t->max)
		return id;
	if ((t->scount + 1) * 2 > t->scap) {
		size_t ncap = t->scap ? t->scap * 2 : 64;
		const char **np = calloc(ncap, sizeof(*np));
		uint64_t *ni = calloc(ncap, sizeof(*ni));
		if (!np || !ni) {
			free(np);
			free(ni);
			return id; /* still a valid id, just not remembered by pointer */
		}
		for (size_t i = 0; i < t->scap; i++) {
			if (!t->sptr[i])
				continue;
			size_t j = ptr_slot(t->sptr[i], ncap);
			while (np[j])
				j = (j + 1) & (ncap - 1);
			np[j] = t->sptr[i];
			ni[j] = t->sid[i];
		}
		free(t->sptr);
		free(t->sid);
		t->sptr = np;
		t->sid = ni;
		t->scap = ncap;
	}
	size_t j = ptr_slot(s, t->scap);
	while (t->sptr[j])
		j = (j + 1) & (t->scap - 1);
	t->sptr[j] = s;
	t->sid[j] = id;
	t->scount++;
	return id;
}
