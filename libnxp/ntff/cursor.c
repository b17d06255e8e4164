/* SPDX-License-Identifier: MIT */
/* The public cursors: a table's descriptor (records.c) and either the
 * internal iteration (merge.c: readers + k-way merge, time order, ties by
 * queue id) with the descriptor's fill, or a derived table's own body
 * (ActiveTime); time windows, seek through the index, typed and batched next. */
#include "abi_struct.h"
#include "ntff_priv.h"
#include "status.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct nxp_cursor {
	const ntff_table *t;
	nxp_cursor_options opts;
	char *queue_name;
	ntff_iter it;       /* it.s for every table; it.m only for tables read by merge */
	void *derived;      /* a derived table's state */
	nxp_status misuse;  /* the last call refused for its arguments (the scan's own error wins) */
};

static int selected(const ntff_queue *q, const void *arg)
{
	const nxp_cursor *c = arg;
	return ntff_table_selects(c->t, q, &c->opts);
}

/* Position at `tick` (>= the window's start). */
static int reposition(nxp_cursor *c, uint64_t tick)
{
	if (!c->t->derived)
		return ntff_iter_seek(&c->it, tick);
	int rc = ntff_scan_seek(&c->it.s, tick);
	if (rc >= 0)
		c->t->derived->reset(c->derived, &c->it.s);
	return rc;
}

int nxp_cursor_open(nxp_cursor **out, nxp_profile *p, int table, const nxp_cursor_options *opts, nxp_status *st)
{
	if (!out || !p)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_cursor_open: NULL argument");
	*out = NULL;
	const ntff_table *t = ntff_table_get(table);
	if (!t)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_cursor_open: unknown table %d", table);
	nxp_cursor_options o;
	nxp_cursor_options_init(&o);
	if (opts && nxp__struct_in_defaults(&o, sizeof(o), opts, NXP_CURSOR_OPTIONS_SIZE_V0_1))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_cursor_open: short options struct");
	if (o.engine < -1 || o.engine >= NXP_ENGINE_COUNT || o.pcore_idx < -1)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_cursor_open: engine %d or pcore_idx %lld out of range",
				o.engine, (long long)o.pcore_idx);
	nxp_cursor *c = calloc(1, sizeof(*c));
	if (!c)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	c->t = t;
	c->opts = o;
	nxp_status_init(&c->misuse);
	int rc = NXP_OK;
	if (o.queue_name && !(c->queue_name = strdup(o.queue_name)))
		rc = NXP_E_NOMEM;
	c->opts.queue_name = c->queue_name;
	uint64_t from = o.start_ts == INT64_MIN ? 0 : ntff_tick_of(p, o.start_ts);
	uint64_t to = o.end_ts == INT64_MAX ? UINT64_MAX : ntff_tick_of(p, o.end_ts);
	if (!rc && !t->derived)
		rc = ntff_iter_open(&c->it, p, t, &c->opts, from, to);
	else if (!rc && !(rc = ntff_scan_open(&c->it.s, p, selected, c, from, to)))
		rc = t->derived->open(&c->derived, &c->it.s);
	if (rc) {
		nxp_cursor_close(c);
		return nxp__error_set(st, rc, -1, "out of memory");
	}
	if ((rc = reposition(c, from)) < 0) {
		nxp_status_copy(st, &c->it.s.err);
		nxp_cursor_close(c);
		return rc;
	}
	*out = c;
	return NXP_OK;
}

void nxp_cursor_close(nxp_cursor *c)
{
	if (!c)
		return;
	if (c->t->derived && c->derived)
		c->t->derived->close(c->derived);
	ntff_iter_close(&c->it);
	free(c->queue_name);
	free(c);
}

int nxp_cursor_error(const nxp_cursor *c, nxp_status *st)
{
	if (!c)
		return NXP_E_INVAL;
	return nxp_status_copy(st, c->it.s.failed || !c->misuse.code ? &c->it.s.err : &c->misuse);
}

int nxp_cursor_table(const nxp_cursor *c)
{
	return c ? c->t->table : NXP_E_INVAL;
}

int nxp_cursor_seek(nxp_cursor *c, int64_t ts)
{
	if (!c)
		return NXP_E_INVAL;
	if (c->it.s.failed)
		return c->it.s.err.code;
	uint64_t t = ntff_tick_of(c->it.s.p, ts);
	if (t < c->it.s.from_tick)
		t = c->it.s.from_tick;
	int rc = reposition(c, t);
	return rc < 0 ? rc : NXP_OK;
}

int64_t nxp_cursor_position(nxp_cursor *c)
{
	if (!c || c->it.s.failed)
		return INT64_MAX;
	if (c->t->derived)
		return c->t->derived->position(c->derived, &c->it.s);
	ntff_qreader *qr = ntff_iter_peek(&c->it);
	if (!qr)
		return INT64_MAX;
	return (int64_t)(qr->key / (uint64_t)c->it.s.p->hdr.ticks_per_nanosec);
}

int nxp_cursor_get_stats(const nxp_cursor *c, nxp_cursor_stats *out)
{
	if (!c)
		return NXP_E_INVAL;
	return NXP__STRUCT_OUT(out, c->it.s.stats, sizeof(size_t) + sizeof(int64_t));
}

/* Next record into `rec`, a full-size struct of the cursor's table.  An
 * error while moving past a returned record is kept (the scan failed) and
 * returned by the next call. */
static int next_full(nxp_cursor *c, void *rec)
{
	ntff_scan *s = &c->it.s;
	if (s->failed) /* e.g. a read error while moving past the last record returned */
		return s->err.code;
	if (c->t->derived)
		return c->t->derived->next(c->derived, s, rec);
	return c->t->next(&c->it, rec);
}

/* Typed next: fill the caller's struct directly when it is at least as large
 * as ours, else through a full-size temporary. */
static int next_typed(nxp_cursor *c, int table, void *rec)
{
	if (!c)
		return NXP_E_INVAL;
	if (!rec)
		return nxp__error_set(&c->misuse, NXP_E_INVAL, -1, "nxp_cursor_next_*: NULL record");
	if (c->t->table != table)
		return nxp__error_set(&c->misuse, NXP_E_INVAL, -1, "nxp_cursor_next_*: the cursor reads another table");
	if (!nxp__struct_size_ok(rec, sizeof(size_t) + sizeof(int64_t)))
		return nxp__error_set(&c->misuse, NXP_E_INVAL, -1,
				      "nxp_cursor_next_*: record struct_size %zu is below the first published size",
				      *(size_t *)rec);
	size_t ours = c->t->struct_size, theirs = *(size_t *)rec;
	union {
		nxp_instruction i;
		nxp_dma_packet d;
		nxp_semaphore_update s;
		nxp_throttle t;
		nxp_error_record e;
		nxp_execution x;
		nxp_active_time a;
	} tmp;
	void *dst = theirs >= ours ? rec : &tmp;
	int rc = next_full(c, dst);
	if (rc != NXP_OK)
		return rc;
	if (dst == rec) {
		*(size_t *)rec = theirs;
		if (theirs > ours)
			memset((char *)rec + ours, 0, theirs - ours);
	} else {
		(void)nxp__struct_out(rec, &tmp, ours, sizeof(size_t)); /* checked above */
	}
	c->it.s.stats.records++;
	return NXP_OK;
}

int nxp_cursor_next_instruction(nxp_cursor *c, nxp_instruction *rec)
{
	return next_typed(c, NXP_TABLE_INSTRUCTION, rec);
}

int nxp_cursor_next_dma_packet(nxp_cursor *c, nxp_dma_packet *rec)
{
	return next_typed(c, NXP_TABLE_DMA_PACKET, rec);
}

int nxp_cursor_next_semaphore_update(nxp_cursor *c, nxp_semaphore_update *rec)
{
	return next_typed(c, NXP_TABLE_SEMAPHORE_UPDATE, rec);
}

int nxp_cursor_next_throttle(nxp_cursor *c, nxp_throttle *rec)
{
	return next_typed(c, NXP_TABLE_THROTTLE, rec);
}

int nxp_cursor_next_error(nxp_cursor *c, nxp_error_record *rec)
{
	return next_typed(c, NXP_TABLE_ERROR, rec);
}

int nxp_cursor_next_execution(nxp_cursor *c, nxp_execution *rec)
{
	return next_typed(c, NXP_TABLE_EXECUTION, rec);
}

int nxp_cursor_next_active_time(nxp_cursor *c, nxp_active_time *rec)
{
	return next_typed(c, NXP_TABLE_ACTIVE_TIME, rec);
}

int nxp_cursor_next_batch(nxp_cursor *c, void *records, size_t record_size, size_t max, size_t *count)
{
	if (count)
		*count = 0;
	if (!c)
		return NXP_E_INVAL;
	if (!records || !count || record_size < sizeof(size_t) + sizeof(int64_t))
		return nxp__error_set(&c->misuse, NXP_E_INVAL, -1,
				      "nxp_cursor_next_batch: NULL records or count, or record_size %zu too small",
				      record_size);
	if (c->it.s.failed)
		return c->it.s.err.code;
	if (!max)
		return NXP_END;
	/* The checks of next_typed, done once for the whole batch. */
	size_t ours = c->t->struct_size, i = 0;
	int rc = NXP_OK;
	for (; i < max; i++) {
		char *slot = (char *)records + i * record_size;
		if (record_size >= ours) {
			rc = next_full(c, slot);
			if (rc != NXP_OK)
				break;
			*(size_t *)slot = record_size;
			if (record_size > ours)
				memset(slot + ours, 0, record_size - ours);
		} else {
			*(size_t *)slot = record_size;
			rc = next_typed(c, c->t->table, slot);
			if (rc != NXP_OK)
				break;
		}
	}
	if (record_size >= ours) /* next_typed counts its own */
		c->it.s.stats.records += (int64_t)i;
	*count = i;
	return i > 0 && rc == NXP_END ? NXP_OK : rc;
}
