/* SPDX-License-Identifier: MIT */
/* Cursors: per-queue readers holding one decoded section each, a binary-heap
 * k-way merge over them (time order, ties by queue id), filters, seek through
 * the section index, and record fill with the NEFF joins. */
#include "ntff_priv.h"
#include "source.h"
#include "status.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { SKIP = 1 }; /* load_section: the section was bad and skipped */

void ntff_cursor_bad(nxp_cursor *c, int section, uint64_t offset)
{
	if (section)
		c->stats.skipped_sections++;
	else
		c->stats.bad_records++;
	c->stats.last_bad_offset = (int64_t)offset;
}

int ntff_cursor_fail(nxp_cursor *c, int code)
{
	c->failed = 1;
	if (!c->err.code)
		nxp_fail(&c->err, code, -1, "%s", nxp_strerror(code));
	return code;
}

static int cfail(nxp_cursor *c, int code, uint64_t off, const char *what)
{
	nxp_fail(&c->err, code, (int64_t)off, "NTFF: %s at offset %llu", what, (unsigned long long)off);
	c->failed = 1;
	return code;
}

/* Make *buf hold `need` bytes; its contents are not kept.  *owned says
 * whether *buf is ours to free (else it lies in the cursor's arena). */
static int grow(uint8_t **buf, size_t *cap, int *owned, size_t need)
{
	if (need <= *cap)
		return NXP_OK;
	size_t n = *cap ? *cap : 4096;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	uint8_t *b = malloc(n);
	if (!b)
		return NXP_E_NOMEM;
	if (*owned)
		free(*buf);
	*buf = b;
	*cap = n;
	*owned = 1;
	return NXP_OK;
}

/* File sources: one allocation holding every reader's section buffer, sized
 * by the largest section of each queue, so that opening a cursor costs one
 * allocation (and, with transparent huge pages, a handful of page faults)
 * instead of a buffer and hundreds of faults per queue.  Best effort: a
 * reader without an arena slot allocates its own buffer on first use. */
static size_t arena_slot(const ntff_queue *q)
{
	return q->nsecs ? ((size_t)q->max_stored + NTFF_SECTION_HEADER_SIZE + 63) & ~(size_t)63 : 0;
}

static void arena_open(nxp_cursor *c)
{
	const nxp_profile *p = c->p;
	if (nxp_src_map(p->src, 0, 1))
		return; /* memory source: sections are used in place */
	size_t total = 0;
	for (size_t i = 0; i < c->nqr; i++) {
		size_t need = arena_slot(c->qr[i].q); /* ≤ max_section + header: no overflow */
		if (total > SIZE_MAX - need)
			return;
		total += need;
	}
	if (!total || total > SIZE_MAX / 2)
		return;
	size_t huge = (size_t)2 << 20, len = total >= huge ? (total + huge - 1) & ~(huge - 1) : total;
	uint8_t *a = len >= huge ? aligned_alloc(huge, len) : malloc(len);
	if (!a)
		return;
#ifdef MADV_HUGEPAGE
	if (len >= huge)
		(void)madvise(a, len, MADV_HUGEPAGE); /* a hint */
#endif
	c->arena = a;
	for (size_t i = 0, off = 0; i < c->nqr; i++) {
		c->qr[i].buf = a + off;
		c->qr[i].cap = arena_slot(c->qr[i].q);
		off += c->qr[i].cap;
	}
}

/* Load section qr->sec of the queue: 0, SKIP (bad section, counted), or a
 * negative error (I/O, truncation, memory) that ends the cursor. */
static int load_section(nxp_cursor *c, ntff_qreader *qr)
{
	const nxp_profile *p = c->p;
	const ntff_queue *q = qr->q;
	const ntff_sec *s = &q->secs[qr->sec];
	uint64_t total = NTFF_SECTION_HEADER_SIZE + s->stored_length; /* bounded by the file size at open */
	if (s->stored_length > p->max_section) {
		ntff_cursor_bad(c, 1, s->offset);
		return SKIP;
	}
	const uint8_t *bytes = nxp_src_map(p->src, s->offset, (size_t)total);
	if (!bytes) {
		size_t got;
		if (grow(&qr->buf, &qr->cap, &qr->own_buf, (size_t)total))
			return cfail(c, NXP_E_NOMEM, s->offset, "out of memory reading the section");
		int rc = nxp_src_pread(p->src, s->offset, qr->buf, (size_t)total, &got);
		if (rc)
			return cfail(c, rc == NXP_E_UNSUPPORTED ? NXP_E_IO : rc, s->offset, "read error in the section");
		if (got < total)
			return cfail(c, NXP_E_TRUNCATED, s->offset + got, "file ends inside the section");
		bytes = qr->buf;
	}
	c->stats.bytes_read += (int64_t)total;
	if (qr->sec + 1 < q->nsecs) { /* this queue's next section: read ahead while this one is decoded */
		const ntff_sec *nx = &q->secs[qr->sec + 1];
		nxp_src_will_need(p->src, nx->offset, NTFF_SECTION_HEADER_SIZE + nx->stored_length);
	}
	ntff_section_header h;
	if (ntff_section_header_decode(bytes, &h, s->offset, NULL) != 0 || h.kind != NTFF_SEC_DATA ||
	    h.queue != qr->qid || h.record_kind != q->kind || h.record_size < ntff_record_size(q->kind) ||
	    h.record_count != s->count || h.stored_length != s->stored_length || h.raw_length > p->max_section ||
	    h.record_count > UINT64_MAX / h.record_size || h.record_count * h.record_size != h.raw_length ||
	    (!(h.flags & NTFF_SEC_ZLIB) && h.raw_length != h.stored_length)) {
		ntff_cursor_bad(c, 1, s->offset);
		return SKIP;
	}
	const uint8_t *payload = bytes + NTFF_SECTION_HEADER_SIZE;
	if (!(p->flags & NXP_PROFILE_SKIP_CRC) && ntff_crc32(payload, (size_t)h.stored_length) != h.data_crc) {
		ntff_cursor_bad(c, 1, s->offset);
		return SKIP;
	}
	if (h.flags & NTFF_SEC_ZLIB) {
		int own_raw = 1;
		if (grow(&qr->raw, &qr->rawcap, &own_raw, (size_t)h.raw_length))
			return cfail(c, NXP_E_NOMEM, s->offset, "out of memory inflating the section");
		if (ntff_inflate(payload, (size_t)h.stored_length, qr->raw, (size_t)h.raw_length)) {
			ntff_cursor_bad(c, 1, s->offset);
			return SKIP;
		}
		payload = qr->raw;
	}
	qr->rsize = h.record_size;
	qr->base = payload;
	qr->rec = payload;
	qr->end = payload + h.raw_length;
	qr->payload_off = (h.flags & NTFF_SEC_ZLIB) ? s->offset : s->offset + NTFF_SECTION_HEADER_SIZE;
	return NXP_OK;
}

static uint64_t rec_offset(const ntff_qreader *qr)
{
	return qr->payload_off == qr->q->secs[qr->sec].offset ? qr->payload_off
							      : qr->payload_off + (uint64_t)(qr->rec - qr->base);
}

/* A queue's next key is accepted when it does not go back in time and is a
 * valid int64 time. */
static inline int key_in_order(const ntff_qreader *qr, uint64_t k)
{
	return k >= qr->last_key && k <= (uint64_t)INT64_MAX;
}

/* From qr->rec (possibly at the end of a section), move to the first record
 * whose key is in order; load further sections as needed. */
static int settle(nxp_cursor *c, ntff_qreader *qr)
{
	for (;;) {
		while (qr->rec < qr->end) {
			uint64_t k = ntff_record_key(qr->rec);
			if (key_in_order(qr, k)) {
				qr->key = k;
				qr->last_key = k;
				return NXP_OK;
			}
			ntff_cursor_bad(c, 0, rec_offset(qr)); /* goes back in time */
			c->next_id++;
			qr->rec += qr->rsize;
		}
		qr->sec++;
		for (;;) {
			if (qr->sec >= qr->q->nsecs) {
				qr->done = 1;
				qr->rec = qr->end = NULL;
				return NXP_OK;
			}
			int rc = load_section(c, qr);
			if (rc < 0)
				return rc;
			if (rc == 0)
				break;
			c->next_id += (int64_t)qr->q->secs[qr->sec].count;
			qr->sec++;
		}
	}
}

int ntff_qreader_advance(nxp_cursor *c, ntff_qreader *qr)
{
	qr->rec += qr->rsize;
	return settle(c, qr);
}

int ntff_qreader_seek(nxp_cursor *c, ntff_qreader *qr, uint64_t tick, int64_t *before)
{
	const ntff_queue *q = qr->q;
	size_t lo = 0, hi = q->nsecs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (q->secs[mid].last_ts < tick)
			lo = mid + 1;
		else
			hi = mid;
	}
	int64_t n = 0;
	for (size_t i = 0; i < lo; i++)
		n += (int64_t)q->secs[i].count;
	qr->done = 0;
	qr->last_key = 0;
	for (qr->sec = lo;; qr->sec++) {
		if (qr->sec >= q->nsecs) {
			qr->done = 1;
			qr->rec = qr->end = NULL;
			*before = n;
			return NXP_OK;
		}
		int rc = load_section(c, qr);
		if (rc < 0)
			return rc;
		if (rc == SKIP) {
			n += (int64_t)q->secs[qr->sec].count;
			continue;
		}
		size_t cnt = (size_t)((qr->end - qr->base) / qr->rsize), a = 0, b = cnt;
		while (a < b) {
			size_t mid = a + (b - a) / 2;
			if (ntff_record_key(qr->base + mid * qr->rsize) < tick)
				a = mid + 1;
			else
				b = mid;
		}
		n += (int64_t)a;
		qr->rec = qr->base + a * qr->rsize;
		if (a > 0)
			qr->last_key = ntff_record_key(qr->rec - qr->rsize);
		if (a < cnt)
			break;
	}
	*before = n;
	int64_t id0 = c->next_id;
	int rc = settle(c, qr);
	/* The binary search assumes sorted keys; in a damaged section (a bad key
	 * among good ones) it can land early, and records that are in order but
	 * before the seek point follow.  Step over them: a seek promises start >= tick. */
	while (rc == NXP_OK && !qr->done && qr->key < tick) {
		c->next_id++;
		rc = ntff_qreader_advance(c, qr);
	}
	*before += c->next_id - id0; /* records skipped while settling and stepping */
	c->next_id = id0;
	return rc;
}

/* ---- merge ------------------------------------------------------------------ */

static inline int before(const ntff_qreader *a, const ntff_qreader *b)
{
	return a->key < b->key || (a->key == b->key && a->qid < b->qid);
}

int ntff_merge_init(ntff_merge *m, size_t cap)
{
	m->n = 0;
	m->heap = calloc(cap ? cap : 1, sizeof(*m->heap));
	return m->heap ? NXP_OK : NXP_E_NOMEM;
}

void ntff_merge_free(ntff_merge *m)
{
	free(m->heap);
	m->heap = NULL;
	m->n = 0;
}

static void sift_down(ntff_merge *m, size_t i)
{
	ntff_qreader **h = m->heap, *x = h[i];
	size_t n = m->n;
	for (;;) {
		size_t l = 2 * i + 1;
		if (l >= n)
			break;
		size_t r = l + 1, s = (r < n && before(h[r], h[l])) ? r : l;
		if (!before(h[s], x))
			break;
		h[i] = h[s];
		i = s;
	}
	h[i] = x;
}

void ntff_merge_push(ntff_merge *m, ntff_qreader *qr)
{
	size_t i = m->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!before(qr, m->heap[parent]))
			break;
		m->heap[i] = m->heap[parent];
		i = parent;
	}
	m->heap[i] = qr;
}

int ntff_merge_advance_top(nxp_cursor *c, ntff_merge *m)
{
	ntff_qreader *qr = m->heap[0];
	const uint8_t *next = qr->rec + qr->rsize;
	uint64_t k;
	if (next < qr->end && key_in_order(qr, k = ntff_record_key(next))) {
		/* the common case: the next record of the loaded section, in order */
		qr->rec = next;
		qr->key = qr->last_key = k;
		sift_down(m, 0);
		return NXP_OK;
	}
	int rc = ntff_qreader_advance(c, qr);
	if (rc < 0)
		return rc;
	if (qr->done) {
		m->heap[0] = m->heap[--m->n];
		if (!m->n)
			return NXP_OK;
	}
	sift_down(m, 0);
	return NXP_OK;
}

/* ---- open / seek ---------------------------------------------------------------- */

static int queue_kind_of_table(int table)
{
	switch (table) {
	case NXP_TABLE_INSTRUCTION: return NXP_QUEUE_INSTRUCTION;
	case NXP_TABLE_DMA_PACKET: return NXP_QUEUE_DMA;
	case NXP_TABLE_SEMAPHORE_UPDATE: return NXP_QUEUE_SEMAPHORE;
	case NXP_TABLE_THROTTLE: return NXP_QUEUE_THROTTLE;
	case NXP_TABLE_ERROR: return NXP_QUEUE_ERROR;
	case NXP_TABLE_EXECUTION: return NXP_QUEUE_EXECUTION;
	case NTFF_TABLE_TPB: return NXP_QUEUE_TPB;
	default: return 0;
	}
}

static int selected(const nxp_cursor *c, const ntff_queue *q)
{
	const nxp_cursor_options *o = &c->opts;
	if (o->pcore_idx >= 0 && q->pcore != o->pcore_idx)
		return 0;
	if (c->table == NXP_TABLE_ACTIVE_TIME) {
		if (q->kind == NXP_QUEUE_INSTRUCTION)
			return !c->queue_name && (o->engine < 0 || q->engine == o->engine);
		if (q->kind == NXP_QUEUE_DMA)
			return o->engine < 0 && (!c->queue_name || strcmp(q->name, c->queue_name) == 0);
		return 0;
	}
	if ((int)q->kind != queue_kind_of_table(c->table))
		return 0;
	if (c->table == NXP_TABLE_INSTRUCTION && o->engine >= 0 && q->engine != o->engine)
		return 0;
	if (c->table == NXP_TABLE_DMA_PACKET && c->queue_name && strcmp(q->name, c->queue_name) != 0)
		return 0;
	return 1;
}

static uint64_t tick_of(const nxp_profile *p, int64_t ns)
{
	if (ns <= 0)
		return 0;
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	if ((uint64_t)ns > ((uint64_t)INT64_MAX + 1) / tpn)
		return (uint64_t)INT64_MAX + 1; /* beyond every valid key */
	return (uint64_t)ns * tpn;
}

/* Position every reader at `tick` and rebuild the heap. */
static int reposition(nxp_cursor *c, uint64_t tick)
{
	int64_t id = 0;
	c->m.n = 0;
	c->next_id = 0;
	for (size_t i = 0; i < c->nqr; i++) {
		int64_t n;
		int rc = ntff_qreader_seek(c, &c->qr[i], tick, &n);
		if (rc < 0)
			return rc;
		id += n;
		if (!c->qr[i].done)
			ntff_merge_push(&c->m, &c->qr[i]);
	}
	c->next_id = id;
	if (c->at)
		ntff_at_reset(c);
	return NXP_OK;
}

int nxp_cursor_open(nxp_cursor **out, nxp_profile *p, int table, const nxp_cursor_options *opts, nxp_status *st)
{
	if (!out || !p)
		return nxp_fail(st, NXP_E_INVAL, -1, "nxp_cursor_open: NULL argument");
	*out = NULL;
	if (table != NXP_TABLE_ACTIVE_TIME && !queue_kind_of_table(table))
		return nxp_fail(st, NXP_E_INVAL, -1, "nxp_cursor_open: unknown table %d", table);
	if (opts && !nxp_struct_ok(opts, offsetof(nxp_cursor_options, queue_name) + sizeof(char *)))
		return nxp_fail(st, NXP_E_INVAL, -1, "nxp_cursor_open: short options struct");
	nxp_cursor_options o;
	nxp_cursor_options_init(&o);
	if (opts)
		memcpy((char *)&o + sizeof(size_t), (const char *)opts + sizeof(size_t),
		       (opts->struct_size < sizeof(o) ? opts->struct_size : sizeof(o)) - sizeof(size_t));
	if (o.engine < -1 || o.engine >= NXP_ENGINE_COUNT || o.pcore_idx < -1)
		return nxp_fail(st, NXP_E_INVAL, -1, "nxp_cursor_open: engine %d or pcore_idx %lld out of range",
				o.engine, (long long)o.pcore_idx);
	nxp_cursor *c = calloc(1, sizeof(*c));
	if (!c)
		return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
	c->p = p;
	c->table = table;
	c->opts = o;
	nxp_status_init(&c->err);
	c->stats.struct_size = sizeof(c->stats);
	c->stats.last_bad_offset = -1;
	int rc = NXP_OK;
	if (o.queue_name && !(c->queue_name = strdup(o.queue_name)))
		rc = NXP_E_NOMEM;
	c->opts.queue_name = c->queue_name;
	c->from_tick = o.start_ts == INT64_MIN ? 0 : tick_of(p, o.start_ts);
	c->to_tick = o.end_ts == INT64_MAX ? UINT64_MAX : tick_of(p, o.end_ts);
	size_t n = 0;
	for (size_t i = 0; i < p->nqueues; i++)
		n += selected(c, &p->queues[i]);
	if (!rc && (!(c->qr = calloc(n ? n : 1, sizeof(*c->qr))) || ntff_merge_init(&c->m, n)))
		rc = NXP_E_NOMEM;
	for (size_t i = 0; !rc && i < p->nqueues; i++)
		if (selected(c, &p->queues[i])) {
			c->qr[c->nqr].q = &p->queues[i];
			c->qr[c->nqr].qid = (uint32_t)i;
			c->nqr++;
		}
	if (!rc)
		arena_open(c);
	if (!rc && table == NXP_TABLE_ACTIVE_TIME)
		rc = ntff_at_open(c);
	if (rc) {
		nxp_cursor_close(c);
		return nxp_fail(st, rc, -1, "out of memory");
	}
	if ((rc = reposition(c, c->from_tick)) < 0) {
		nxp_status_copy(st, &c->err);
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
	for (size_t i = 0; i < c->nqr; i++) {
		if (c->qr[i].own_buf)
			free(c->qr[i].buf);
		free(c->qr[i].raw);
	}
	ntff_at_free(c);
	free(c->qr);
	free(c->arena);
	ntff_merge_free(&c->m);
	free(c->queue_name);
	free(c);
}

int nxp_cursor_error(const nxp_cursor *c, nxp_status *st)
{
	if (!c)
		return NXP_E_INVAL;
	return nxp_status_copy(st, &c->err);
}

int nxp_cursor_table(const nxp_cursor *c)
{
	return c ? c->table : NXP_E_INVAL;
}

int nxp_cursor_seek(nxp_cursor *c, int64_t ts)
{
	if (!c)
		return NXP_E_INVAL;
	if (c->failed)
		return c->err.code;
	uint64_t t = tick_of(c->p, ts);
	if (t < c->from_tick)
		t = c->from_tick;
	int rc = reposition(c, t);
	return rc < 0 ? rc : NXP_OK;
}

int64_t nxp_cursor_position(nxp_cursor *c)
{
	if (!c || c->failed)
		return INT64_MAX;
	if (c->table == NXP_TABLE_ACTIVE_TIME)
		return ntff_at_position(c);
	ntff_qreader *qr = ntff_merge_top(&c->m);
	if (!qr || qr->key >= c->to_tick)
		return INT64_MAX;
	return (int64_t)(qr->key / (uint64_t)c->p->hdr.ticks_per_nanosec);
}

int nxp_cursor_get_stats(const nxp_cursor *c, nxp_cursor_stats *out)
{
	if (!c || !nxp_struct_ok(out, sizeof(size_t) + sizeof(int64_t)))
		return NXP_E_INVAL;
	nxp_struct_out(out, &c->stats, sizeof(c->stats));
	return NXP_OK;
}

/* ---- record fill ------------------------------------------------------------------ */

enum { BAD = 1 };

static const char *const memory_names[] = {"", "sbuf", "psum", "hbm"};
static const char *const sem_ops[] = {"set", "increment", "decrement", "clear"};
static const char *const error_types[] = {"Custom Notification", "Errors", "Warnings"};

/* ticks → ns; most traces tick once per ns, and a 64-bit division costs more
 * than the rest of a record's decode. */
static inline int64_t to_ns(const nxp_profile *p, uint64_t tick)
{
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	return (int64_t)(tpn == 1 ? tick : tick / tpn);
}

/* Every field is assigned (no memset: this is the hottest loop of the library). */
static int fill_instruction(nxp_cursor *c, const ntff_qreader *qr, nxp_instruction *r)
{
	const nxp_profile *p = c->p;
	const ntff_queue *q = qr->q;
	nxp_ntff_instruction_note n;
	ntff_decode_instruction(qr->rec, &n);
	if (n.end_tick < n.start_tick || n.end_tick > (uint64_t)INT64_MAX)
		return BAD;
	r->struct_size = sizeof(*r);
	r->start_ts = to_ns(p, n.start_tick);
	r->end_ts = to_ns(p, n.end_tick);
	r->duration_ns = r->end_ts - r->start_ts;
	r->engine = q->engine_name;
	r->engine_id = q->engine;
	r->pcore_idx = q->pcore;
	r->id = c->next_id;
	r->pc = n.pc;
	r->evt_wait_time_ns = to_ns(p, n.wait_ticks);
	r->execution_index = n.execution_index;
	const nxp_static_instr *si = n.pc < q->nsi ? &q->si[n.pc] : NULL;
	if (!si) {
		r->opcode = "unknown";
		r->opcode_num = 0;
		r->operands = "";
		r->hbm_read_bytes = r->hbm_write_bytes = r->sbuf_read_bytes = r->sbuf_write_bytes = 0;
		r->spill_save_bytes = r->spill_reload_bytes = 0;
		r->psum_read_bytes = r->psum_write_bytes = r->psum_read_sbuf_write_bytes = 0;
		r->tensor_instruction_type = "";
		r->tensor_elements = r->raw_flops = r->adjusted_flops = 0;
		r->tensor_elements_transpose = r->flops_transpose = r->adjusted_flops_transpose = 0;
		r->scalar_activation_fn = "";
		r->performance_mode = "";
		r->flags = NXP_INSTRUCTION_PC_UNKNOWN;
		c->stats.unknown_pcs++;
		return NXP_OK;
	}
	r->opcode = si->opcode;
	r->opcode_num = si->opcode_num;
	r->operands = si->operands;
	r->hbm_read_bytes = si->hbm_read_bytes;
	r->hbm_write_bytes = si->hbm_write_bytes;
	r->sbuf_read_bytes = si->sbuf_read_bytes;
	r->sbuf_write_bytes = si->sbuf_write_bytes;
	r->spill_save_bytes = si->spill_save_bytes;
	r->spill_reload_bytes = si->spill_reload_bytes;
	r->psum_read_bytes = si->psum_read_bytes;
	r->psum_write_bytes = si->psum_write_bytes;
	r->psum_read_sbuf_write_bytes = si->psum_read_sbuf_write_bytes;
	r->tensor_instruction_type = si->tensor_instruction_type;
	r->scalar_activation_fn = si->scalar_activation_fn;
	r->performance_mode = si->performance_mode;
	r->flags = 0;
	int64_t adj = si->raw_flops ? (int64_t)((double)si->raw_flops * p->flops_mult[si->mm_dtype]) : 0;
	if (si->is_transpose) {
		r->tensor_elements = r->raw_flops = r->adjusted_flops = 0;
		r->tensor_elements_transpose = si->tensor_elements;
		r->flops_transpose = si->raw_flops;
		r->adjusted_flops_transpose = adj;
	} else {
		r->tensor_elements = si->tensor_elements;
		r->raw_flops = si->raw_flops;
		r->adjusted_flops = adj;
		r->tensor_elements_transpose = r->flops_transpose = r->adjusted_flops_transpose = 0;
	}
	return NXP_OK;
}

static int fill_dma(nxp_cursor *c, const ntff_qreader *qr, nxp_dma_packet *r)
{
	const nxp_profile *p = c->p;
	const ntff_queue *q = qr->q;
	nxp_ntff_dma_note n;
	ntff_decode_dma(qr->rec, &n);
	const char *var = ntff_str(p, n.variable);
	if (n.end_tick < n.start_tick || n.end_tick > (uint64_t)INT64_MAX || !var || n.source > NXP_MEMORY_HBM ||
	    n.dest > NXP_MEMORY_HBM)
		return BAD;
	r->struct_size = sizeof(*r);
	r->start_ts = to_ns(p, n.start_tick);
	r->end_ts = to_ns(p, n.end_tick);
	r->duration_ns = r->end_ts - r->start_ts;
	r->pcore_idx = q->pcore;
	r->id = c->next_id;
	r->packet_idx = (int32_t)n.packet_idx;
	r->packet_aggregation_id = n.packet_aggregation_id;
	r->engine_idx = q->engine_idx;
	r->read_bytes = n.read_bytes;
	r->write_bytes = n.write_bytes;
	r->transfer_bytes = n.read_bytes > n.write_bytes ? n.read_bytes : n.write_bytes;
	r->throughput = r->duration_ns > 0 ? (double)r->transfer_bytes / ((double)r->duration_ns * 1e-9) : 0.0;
	if (n.flags & NXP_DMA_HARDWARE_DYNAMIC)
		r->queue_type = "hardware_dynamic";
	else if (n.flags & NXP_DMA_SOFTWARE_DYNAMIC)
		r->queue_type = "software_dynamic";
	else
		r->queue_type = q->neff_queue && q->neff_queue->type ? q->neff_queue->type : "unknown";
	r->variable = n.variable ? var : "unknown";
	r->queue_name = q->name;
	r->queue_idx = q->queue_idx;
	r->crc = n.crc;
	r->execution_index = n.execution_index;
	r->source = memory_names[n.source];
	r->dest = memory_names[n.dest];
	return NXP_OK;
}

static int fill_semaphore(nxp_cursor *c, const ntff_qreader *qr, nxp_semaphore_update *r)
{
	nxp_ntff_semaphore_note n;
	ntff_decode_semaphore(qr->rec, &n);
	if (n.update_source >= NXP_ENGINE_COUNT || n.operation > 3 || n.trigger_complete > 1)
		return BAD;
	const char *id = ntff_semaphore_name(c->p, n.semaphore_idx);
	if (!id)
		return ntff_cursor_fail(c, NXP_E_NOMEM);
	r->struct_size = sizeof(*r);
	r->timestamp = (int64_t)(n.tick / (uint64_t)c->p->hdr.ticks_per_nanosec);
	r->id = id;
	r->semaphore_idx = n.semaphore_idx;
	r->value = n.value;
	r->update_source = nxp_engine_name(n.update_source);
	if (!r->update_source)
		r->update_source = "unknown";
	r->double_set_or_clear = n.double_set_or_clear != 0;
	r->update_mode = n.update_mode;
	r->update_operation_type = sem_ops[n.operation];
	r->update_trigger_timing = n.trigger_complete ? "complete" : "start";
	r->pcore_idx = qr->q->pcore;
	return NXP_OK;
}

static int fill_throttle(nxp_cursor *c, const ntff_qreader *qr, nxp_throttle *r)
{
	nxp_ntff_throttle_note n;
	ntff_decode_throttle(qr->rec, &n);
	const char *type = ntff_str(c->p, n.type);
	if (!type || n.duration_ticks > (uint64_t)INT64_MAX)
		return BAD;
	uint64_t tpn = (uint64_t)c->p->hdr.ticks_per_nanosec;
	r->struct_size = sizeof(*r);
	r->timestamp = (int64_t)(n.tick / tpn);
	r->duration = (int64_t)(n.duration_ticks / tpn);
	r->k = n.k;
	r->n = n.n;
	r->type = n.type ? type : "unknown";
	r->pcore_idx = qr->q->pcore;
	return NXP_OK;
}

static int fill_error(nxp_cursor *c, const ntff_qreader *qr, nxp_error_record *r)
{
	nxp_ntff_error_note n;
	ntff_decode_error(qr->rec, &n);
	const char *desc = ntff_str(c->p, n.description);
	if (!desc || n.type > 2)
		return BAD;
	const char *h = ntff_hex_string(c->p, n.metadata);
	if (!h)
		return ntff_cursor_fail(c, NXP_E_NOMEM);
	r->struct_size = sizeof(*r);
	r->timestamp = (int64_t)(n.tick / (uint64_t)c->p->hdr.ticks_per_nanosec);
	r->type = error_types[n.type];
	r->error_type_id = n.error_type_id;
	r->description = desc;
	r->metadata = "";
	r->metadata_hex = h;
	r->pcore_idx = qr->q->pcore;
	return NXP_OK;
}

static int fill_execution(nxp_cursor *c, const ntff_qreader *qr, nxp_execution *r)
{
	nxp_ntff_execution_note n;
	ntff_decode_execution(qr->rec, &n);
	const char *name = ntff_str(c->p, n.neff_name);
	if (!name || n.end_tick < n.start_tick || n.end_tick > (uint64_t)INT64_MAX)
		return BAD;
	uint64_t tpn = (uint64_t)c->p->hdr.ticks_per_nanosec;
	r->struct_size = sizeof(*r);
	r->execution_index = n.execution_index;
	r->neff_name = name;
	r->execution_start_ts = (int64_t)(n.start_tick / tpn);
	r->execution_end_ts = (int64_t)(n.end_tick / tpn);
	r->num_subgraphs = n.num_subgraphs;
	r->row_count = n.row_count;
	r->pcore_idx = qr->q->pcore;
	return NXP_OK;
}

static size_t record_struct_size(int table)
{
	switch (table) {
	case NXP_TABLE_INSTRUCTION: return sizeof(nxp_instruction);
	case NXP_TABLE_DMA_PACKET: return sizeof(nxp_dma_packet);
	case NXP_TABLE_SEMAPHORE_UPDATE: return sizeof(nxp_semaphore_update);
	case NXP_TABLE_THROTTLE: return sizeof(nxp_throttle);
	case NXP_TABLE_ERROR: return sizeof(nxp_error_record);
	case NXP_TABLE_EXECUTION: return sizeof(nxp_execution);
	case NXP_TABLE_ACTIVE_TIME: return sizeof(nxp_active_time);
	default: return 0;
	}
}

static int fill(nxp_cursor *c, const ntff_qreader *qr, void *rec)
{
	switch (c->table) {
	case NXP_TABLE_INSTRUCTION: return fill_instruction(c, qr, rec);
	case NXP_TABLE_DMA_PACKET: return fill_dma(c, qr, rec);
	case NXP_TABLE_SEMAPHORE_UPDATE: return fill_semaphore(c, qr, rec);
	case NXP_TABLE_THROTTLE: return fill_throttle(c, qr, rec);
	case NXP_TABLE_ERROR: return fill_error(c, qr, rec);
	case NXP_TABLE_EXECUTION: return fill_execution(c, qr, rec);
	default: return NXP_E_INVAL;
	}
}

/* Next record into `rec`, a full-size struct of the cursor's table.  An
 * error while moving past a returned record is kept (c->failed) and returned
 * by the next call. */
static int next_full(nxp_cursor *c, void *rec)
{
	if (c->failed) /* e.g. a read error while moving past the last record returned */
		return c->err.code;
	if (c->table == NXP_TABLE_ACTIVE_TIME)
		return ntff_at_next(c, rec);
	for (;;) {
		ntff_qreader *qr = ntff_merge_top(&c->m);
		if (!qr || qr->key >= c->to_tick)
			return NXP_END;
		int rc = fill(c, qr, rec);
		if (rc < 0)
			return rc;
		if (rc == BAD)
			ntff_cursor_bad(c, 0, rec_offset(qr));
		c->next_id++;
		int arc = ntff_merge_advance_top(c, &c->m);
		if (rc == NXP_OK)
			return NXP_OK;
		if (arc < 0)
			return arc;
	}
}

/* Typed next: fill the caller's struct directly when it is at least as large
 * as ours, else through a full-size temporary. */
static int next_typed(nxp_cursor *c, int table, void *rec)
{
	if (!c || !rec || c->table != table || !nxp_struct_ok(rec, sizeof(size_t) + sizeof(int64_t)))
		return NXP_E_INVAL;
	size_t ours = record_struct_size(table), theirs = *(size_t *)rec;
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
		nxp_struct_out(rec, &tmp, ours);
	}
	c->stats.records++;
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
	if (!c || !records || !count || record_size < sizeof(size_t) + sizeof(int64_t))
		return NXP_E_INVAL;
	if (c->failed)
		return c->err.code;
	if (!max)
		return NXP_END;
	/* The checks of next_typed, done once for the whole batch. */
	size_t ours = record_struct_size(c->table), i = 0;
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
			rc = next_typed(c, c->table, slot);
			if (rc != NXP_OK)
				break;
		}
	}
	if (record_size >= ours) /* next_typed counts its own */
		c->stats.records += (int64_t)i;
	*count = i;
	return i > 0 && rc == NXP_END ? NXP_OK : rc;
}
