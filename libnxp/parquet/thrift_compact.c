/* SPDX-License-Identifier: MIT */
/* Thrift compact protocol, write side only: the subset Parquet's page headers
 * and footer use (i32, i64, bool, binary, struct, union, list). */
#include "mcache.h"
#include "parquet_priv.h"

#include <stdlib.h>

int pq_buf_grow(pq_buf *b, size_t extra)
{
	if (extra > SIZE_MAX / 2 - b->n)
		return -1;
	size_t need = b->n + extra;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	uint8_t *p = nxp__mc_grow(b->p, b->n, b->cap, cap, &cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

void pq_buf_free(pq_buf *b)
{
	nxp__mc_free(b->p, b->cap);
	b->p = NULL;
	b->n = b->cap = 0;
}

void tc_init(tc_writer *w, pq_buf *b)
{
	w->b = b;
	w->oom = 0;
	w->depth = 0;
	w->last[0] = 0;
}

static void put(tc_writer *w, const void *p, size_t n)
{
	if (!w->oom && pq_buf_put(w->b, p, n))
		w->oom = 1;
}

static void put_uvarint(tc_writer *w, uint64_t v)
{
	uint8_t b[10];
	put(w, b, nxp_uvarint_put(b, v));
}

static void field(tc_writer *w, int16_t id, int type)
{
	int16_t *last = &w->last[w->depth];
	int delta = id - *last;
	if (delta > 0 && delta <= 15) {
		uint8_t b = (uint8_t)(delta << 4 | type);
		put(w, &b, 1);
	} else {
		uint8_t b = (uint8_t)type;
		put(w, &b, 1);
		put_uvarint(w, nxp_zigzag64(id));
	}
	*last = id;
}

void tc_i32(tc_writer *w, int16_t id, int32_t v)
{
	field(w, id, TC_I32);
	put_uvarint(w, nxp_zigzag64(v));
}

void tc_i64(tc_writer *w, int16_t id, int64_t v)
{
	field(w, id, TC_I64);
	put_uvarint(w, nxp_zigzag64(v));
}

void tc_bool(tc_writer *w, int16_t id, int v)
{
	field(w, id, v ? TC_TRUE : TC_FALSE);
}

void tc_binary(tc_writer *w, int16_t id, const void *p, size_t n)
{
	field(w, id, TC_BINARY);
	tc_elem_binary(w, p, n);
}

void tc_string(tc_writer *w, int16_t id, const char *s)
{
	tc_binary(w, id, s, strlen(s));
}

static void push(tc_writer *w)
{
	if (w->depth + 1 >= TC_MAX_DEPTH) { /* a programming error: nesting is fixed by the format */
		w->oom = 1;
		return;
	}
	w->last[++w->depth] = 0;
}

void tc_struct_begin(tc_writer *w, int16_t id)
{
	field(w, id, TC_STRUCT);
	push(w);
}

void tc_elem_struct_begin(tc_writer *w)
{
	push(w);
}

void tc_struct_end(tc_writer *w)
{
	uint8_t stop = 0;
	put(w, &stop, 1);
	if (w->depth > 0)
		w->depth--;
}

void tc_list_begin(tc_writer *w, int16_t id, int elem, uint32_t n)
{
	field(w, id, TC_LIST);
	if (n < 15) {
		uint8_t b = (uint8_t)(n << 4 | (unsigned)elem);
		put(w, &b, 1);
	} else {
		uint8_t b = (uint8_t)(0xf0 | elem);
		put(w, &b, 1);
		put_uvarint(w, n);
	}
}

void tc_elem_i32(tc_writer *w, int32_t v)
{
	put_uvarint(w, nxp_zigzag64(v));
}

void tc_elem_binary(tc_writer *w, const void *p, size_t n)
{
	put_uvarint(w, n);
	put(w, p, n);
}

void tc_raw(tc_writer *w, const void *p, size_t n)
{
	put(w, p, n);
}
