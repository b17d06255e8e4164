/* SPDX-License-Identifier: MIT */
/* The tables: one descriptor per public table (ntff_table in ntff_priv.h) —
 * the queue kind it reads, the queues the cursor options select, the record
 * check, and the fill of the public struct with the NEFF joins.  The checks
 * themselves are written once, in ntff_priv.h ("record checks"); every fill
 * here starts with its table's. */
#include "ntff_priv.h"
#include "status.h"

#include <string.h>

/* ---- fills -------------------------------------------------------------------- */

static const char *const memory_names[] = {"", "sbuf", "psum", "hbm"};
static const char *const sem_ops[] = {"set", "increment", "decrement", "clear"};

const char *ntff_semaphore_op(unsigned op)
{
	return op < 4 ? sem_ops[op] : "";
}
static const char *const error_types[] = {"Custom Notification", "Errors", "Warnings"};

/* Every field is assigned (no memset: this is the hottest loop of the library). */
static int fill_instruction(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out)
{
	nxp_instruction *r = out;
	const nxp_profile *p = s->p;
	nxp_ntff_instruction_note n;
	ntff_decode_instruction(rec, &n);
	if (!ntff_instruction_ok(&n))
		return NXP__BAD_RECORD;
	r->struct_size = sizeof(*r);
	r->start_ts = ntff_tick_ns(p, n.start_tick);
	r->end_ts = ntff_tick_ns(p, n.end_tick);
	r->duration_ns = r->end_ts - r->start_ts;
	r->engine = q->engine_name;
	r->engine_id = q->engine;
	r->pcore_idx = q->pcore;
	r->id = s->next_id;
	r->pc = n.pc;
	r->evt_wait_time_ns = ntff_tick_ns(p, n.wait_ticks);
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
		s->stats.unknown_pcs++;
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

static int fill_dma(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out)
{
	nxp_dma_packet *r = out;
	const nxp_profile *p = s->p;
	nxp_ntff_dma_note n;
	ntff_decode_dma(rec, &n);
	if (!ntff_dma_ok(p, &n))
		return NXP__BAD_RECORD;
	const char *var = ntff_str(p, n.variable);
	r->struct_size = sizeof(*r);
	r->start_ts = ntff_tick_ns(p, n.start_tick);
	r->end_ts = ntff_tick_ns(p, n.end_tick);
	r->duration_ns = r->end_ts - r->start_ts;
	r->pcore_idx = q->pcore;
	r->id = s->next_id;
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

static int fill_semaphore(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out)
{
	nxp_semaphore_update *r = out;
	nxp_ntff_semaphore_note n;
	ntff_decode_semaphore(rec, &n);
	if (!ntff_semaphore_ok(&n))
		return NXP__BAD_RECORD;
	const char *id = ntff_semaphore_name(s->p, n.semaphore_idx);
	if (!id)
		return ntff_scan_fail(s, NXP_E_NOMEM);
	r->struct_size = sizeof(*r);
	r->timestamp = (int64_t)(n.tick / (uint64_t)s->p->hdr.ticks_per_nanosec);
	r->id = id;
	r->semaphore_idx = n.semaphore_idx;
	r->value = n.value;
	r->update_source = nxp_engine_name(n.update_source);
	if (!r->update_source)
		r->update_source = "unknown";
	r->double_set_or_clear = n.double_set_or_clear != 0;
	r->update_mode = n.update_mode;
	r->update_operation_type = ntff_semaphore_op(n.operation);
	r->update_trigger_timing = n.trigger_complete ? "complete" : "start";
	r->pcore_idx = q->pcore;
	return NXP_OK;
}

static int fill_throttle(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out)
{
	nxp_throttle *r = out;
	nxp_ntff_throttle_note n;
	ntff_decode_throttle(rec, &n);
	if (!ntff_throttle_ok(s->p, &n))
		return NXP__BAD_RECORD;
	const char *type = ntff_str(s->p, n.type);
	uint64_t tpn = (uint64_t)s->p->hdr.ticks_per_nanosec;
	r->struct_size = sizeof(*r);
	r->timestamp = (int64_t)(n.tick / tpn);
	r->duration = (int64_t)(n.duration_ticks / tpn);
	r->k = n.k;
	r->n = n.n;
	r->type = n.type ? type : "unknown";
	r->pcore_idx = q->pcore;
	return NXP_OK;
}

static int fill_error(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out)
{
	nxp_error_record *r = out;
	nxp_ntff_error_note n;
	ntff_decode_error(rec, &n);
	if (!ntff_error_ok(s->p, &n))
		return NXP__BAD_RECORD;
	const char *desc = ntff_str(s->p, n.description);
	const char *h = ntff_hex_string(s->p, n.metadata);
	if (!h)
		return ntff_scan_fail(s, NXP_E_NOMEM);
	r->struct_size = sizeof(*r);
	r->timestamp = (int64_t)(n.tick / (uint64_t)s->p->hdr.ticks_per_nanosec);
	r->type = error_types[n.type];
	r->error_type_id = n.error_type_id;
	r->description = desc;
	r->metadata = "";
	r->metadata_hex = h;
	r->pcore_idx = q->pcore;
	return NXP_OK;
}

static int fill_execution(ntff_scan *s, const ntff_queue *q, const uint8_t *rec, void *out)
{
	nxp_execution *r = out;
	nxp_ntff_execution_note n;
	ntff_decode_execution(rec, &n);
	if (!ntff_execution_ok(s->p, &n))
		return NXP__BAD_RECORD;
	const char *name = ntff_str(s->p, n.neff_name);
	uint64_t tpn = (uint64_t)s->p->hdr.ticks_per_nanosec;
	r->struct_size = sizeof(*r);
	r->execution_index = n.execution_index;
	r->neff_name = name;
	r->execution_start_ts = (int64_t)(n.start_tick / tpn);
	r->execution_end_ts = (int64_t)(n.end_tick / tpn);
	r->num_subgraphs = n.num_subgraphs;
	r->row_count = n.row_count;
	r->pcore_idx = q->pcore;
	return NXP_OK;
}


/* ---- each table's next: the cursor's loop with its fill inlined ------------ */

typedef int (*fill_fn)(ntff_scan *, const ntff_queue *, const uint8_t *, void *);

/* Fill the peeked record, count it if bad, step past it; until a good one. */
static inline __attribute__((always_inline)) int next_with(ntff_iter *it, void *out, fill_fn fill)
{
	ntff_scan *s = &it->s;
	for (;;) {
		ntff_qreader *qr = ntff_iter_peek(it);
		if (!qr)
			return NXP_END;
		int rc = fill(s, qr->q, qr->rec, out);
		if (rc < 0)
			return rc;
		if (rc == NXP__BAD_RECORD)
			ntff_scan_bad(s, 0, ntff_qreader_offset(qr));
		int arc = ntff_iter_step(it);
		if (rc == NXP_OK)
			return NXP_OK; /* an error moving past it is kept (s->failed) for the next call */
		if (arc < 0)
			return arc;
	}
}

#define NEXT_OF(name)                                    \
	static int next_##name(ntff_iter *it, void *out) \
	{                                                \
		return next_with(it, out, fill_##name);  \
	}
NEXT_OF(instruction)
NEXT_OF(dma)
NEXT_OF(semaphore)
NEXT_OF(throttle)
NEXT_OF(error)
NEXT_OF(execution)

/* ---- checks on raw records ------------------------------------------------ */

static int check_instruction(const nxp_profile *p, const uint8_t *rec)
{
	(void)p;
	return ntff_instruction_rec_ok(rec);
}

static int check_dma(const nxp_profile *p, const uint8_t *rec)
{
	return ntff_dma_rec_ok(p, rec);
}

static int check_semaphore(const nxp_profile *p, const uint8_t *rec)
{
	(void)p;
	nxp_ntff_semaphore_note n;
	ntff_decode_semaphore(rec, &n);
	return ntff_semaphore_ok(&n);
}

static int check_throttle(const nxp_profile *p, const uint8_t *rec)
{
	nxp_ntff_throttle_note n;
	ntff_decode_throttle(rec, &n);
	return ntff_throttle_ok(p, &n);
}

static int check_error(const nxp_profile *p, const uint8_t *rec)
{
	nxp_ntff_error_note n;
	ntff_decode_error(rec, &n);
	return ntff_error_ok(p, &n);
}

static int check_execution(const nxp_profile *p, const uint8_t *rec)
{
	nxp_ntff_execution_note n;
	ntff_decode_execution(rec, &n);
	return ntff_execution_ok(p, &n);
}

/* ---- queue selection -------------------------------------------------------- */

static int selects_instruction(const ntff_queue *q, const nxp_cursor_options *o)
{
	return o->engine < 0 || q->engine == o->engine;
}

static int selects_dma(const ntff_queue *q, const nxp_cursor_options *o)
{
	return !o->queue_name || strcmp(q->name, o->queue_name) == 0;
}

static int selects_any(const ntff_queue *q, const nxp_cursor_options *o)
{
	(void)q;
	(void)o;
	return 1;
}

/* ActiveTime: instruction queues (engine filter; none with a queue name) and
 * DMA queues (none with an engine filter; queue name filter). */
static int selects_active_time(const ntff_queue *q, const nxp_cursor_options *o)
{
	if (q->kind == NXP_QUEUE_INSTRUCTION)
		return !o->queue_name && (o->engine < 0 || q->engine == o->engine);
	if (q->kind == NXP_QUEUE_DMA)
		return o->engine < 0 && (!o->queue_name || strcmp(q->name, o->queue_name) == 0);
	return 0;
}

/* ---- the descriptors ---------------------------------------------------------- */

static const ntff_table tables[] = {
	{NXP_TABLE_INSTRUCTION, NXP_QUEUE_INSTRUCTION, sizeof(nxp_instruction), selects_instruction,
	 check_instruction, fill_instruction, next_instruction, NULL},
	{NXP_TABLE_DMA_PACKET, NXP_QUEUE_DMA, sizeof(nxp_dma_packet), selects_dma, check_dma, fill_dma, next_dma, NULL},
	{NXP_TABLE_SEMAPHORE_UPDATE, NXP_QUEUE_SEMAPHORE, sizeof(nxp_semaphore_update), selects_any, check_semaphore,
	 fill_semaphore, next_semaphore, NULL},
	{NXP_TABLE_THROTTLE, NXP_QUEUE_THROTTLE, sizeof(nxp_throttle), selects_any, check_throttle, fill_throttle,
	 next_throttle, NULL},
	{NXP_TABLE_ERROR, NXP_QUEUE_ERROR, sizeof(nxp_error_record), selects_any, check_error, fill_error, next_error, NULL},
	{NXP_TABLE_EXECUTION, NXP_QUEUE_EXECUTION, sizeof(nxp_execution), selects_any, check_execution,
	 fill_execution, next_execution, NULL},
	{NXP_TABLE_ACTIVE_TIME, 0, sizeof(nxp_active_time), selects_active_time, NULL, NULL, NULL,
	 &ntff_active_time_ops},
};

const ntff_table *ntff_table_get(int table)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (tables[i].table == table)
			return &tables[i];
	return NULL;
}
