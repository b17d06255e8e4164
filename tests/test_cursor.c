/* SPDX-License-Identifier: MIT */
/* Cursors over writer-made NTFFs: every table read back equals the notes the
 * writer was given (time order, NEFF joins filled), through memory and chunky
 * seekable sources; filters, seek, batch and active time against naive
 * computations. */
#define _GNU_SOURCE
#include <check.h>
#include <nxp/nxp.h>

#include "neff_internal.h"
#include "ntff_priv.h"
#include "ntff_fixture.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct world {
	char *dir, *path;
	uint8_t *ntff, *neff;
	size_t ntff_len, neff_len;
	fxn_spec spec;
	fxn_model m;
} world;

static void world_build(world *w, const fxn_spec *spec)
{
	memset(w, 0, sizeof(*w));
	w->spec = *spec;
	w->dir = tu_tmpdir();
	w->path = tu_path(w->dir, "t.ntff");
	fxn_write(w->path, spec, &w->m);
	w->ntff = tu_read_file(w->path, &w->ntff_len);
	w->neff = fxn_neff(spec->uuid, &w->neff_len);
}

static void world_free(world *w)
{
	remove(w->path);
	remove(w->dir);
	free(w->path);
	free(w->dir);
	free(w->ntff);
	free(w->neff);
	fxn_model_free(&w->m);
}

static void open_ok(fxn_pair *o, const world *w, int kind)
{
	nxp_status st;
	nxp_status_init(&st);
	int rc = fxn_open(o, w->neff, w->neff_len, w->ntff, w->ntff_len, kind, 0, &st);
	ck_assert_msg(rc == NXP_OK, "open: %d %s", rc, st.message);
}

static int64_t ns(const world *w, uint64_t tick)
{
	return (int64_t)(tick / (uint64_t)w->spec.tpn);
}

/* ---- per-table comparisons ---- */

static void check_instruction(const world *w, const nxp_neff *neff, const fxn_rec *e, const nxp_instruction *r,
			      int64_t id)
{
	const nxp_ntff_queue *q = &w->m.q[e->qid];
	ck_assert_int_eq(r->struct_size, sizeof(*r));
	ck_assert_int_eq(r->start_ts, ns(w, e->n.i.start_tick));
	ck_assert_int_eq(r->end_ts, ns(w, e->n.i.end_tick));
	ck_assert_int_eq(r->duration_ns, r->end_ts - r->start_ts);
	ck_assert_str_eq(r->engine, nxp_engine_name(q->engine));
	ck_assert_int_eq(r->engine_id, q->engine);
	ck_assert_int_eq(r->pcore_idx, q->pcore_idx);
	ck_assert_int_eq(r->pc, e->n.i.pc);
	ck_assert_int_eq(r->id, id);
	ck_assert_int_eq(r->evt_wait_time_ns, ns(w, e->n.i.wait_ticks));
	ck_assert_int_eq(r->execution_index, e->n.i.execution_index);
	const nxp_static_instr *si = nxp_neff_static_instr(neff, (size_t)q->pcore_idx, q->engine, e->n.i.pc);
	if (!si) {
		ck_assert_uint_eq(r->flags, NXP_INSTRUCTION_PC_UNKNOWN);
		ck_assert_str_eq(r->opcode, "unknown");
		ck_assert_int_eq(r->raw_flops, 0);
		return;
	}
	ck_assert_uint_eq(r->flags, 0);
	ck_assert_str_eq(r->opcode, si->opcode);
	ck_assert_ptr_eq(r->operands, si->operands);
	ck_assert_uint_eq(r->opcode_num, si->opcode_num);
	ck_assert_int_eq(r->hbm_read_bytes, si->hbm_read_bytes);
	ck_assert_int_eq(r->sbuf_write_bytes, si->sbuf_write_bytes);
	ck_assert_int_eq(r->psum_write_bytes, si->psum_write_bytes);
	int64_t adj = (int64_t)((double)si->raw_flops * nxp_adjusted_flops_multiplier(si->mm_dtype, "trn2"));
	if (si->is_transpose) {
		ck_assert_int_eq(r->flops_transpose, si->raw_flops);
		ck_assert_int_eq(r->adjusted_flops_transpose, adj);
		ck_assert_int_eq(r->tensor_elements_transpose, si->tensor_elements);
		ck_assert_int_eq(r->raw_flops, 0);
	} else {
		ck_assert_int_eq(r->raw_flops, si->raw_flops);
		ck_assert_int_eq(r->adjusted_flops, adj);
		ck_assert_int_eq(r->tensor_elements, si->tensor_elements);
		ck_assert_int_eq(r->flops_transpose, 0);
	}
}

static void check_dma(const world *w, const nxp_neff *neff, const fxn_rec *e, const nxp_dma_packet *r, int64_t id)
{
	const nxp_ntff_queue *q = &w->m.q[e->qid];
	const nxp_ntff_dma_note *n = &e->n.d;
	static const char *const mem[] = {"", "sbuf", "psum", "hbm"};
	ck_assert_int_eq(r->start_ts, ns(w, n->start_tick));
	ck_assert_int_eq(r->end_ts, ns(w, n->end_tick));
	ck_assert_int_eq(r->duration_ns, r->end_ts - r->start_ts);
	ck_assert_int_eq(r->pcore_idx, q->pcore_idx);
	ck_assert_int_eq(r->id, id);
	ck_assert_int_eq(r->packet_idx, n->packet_idx);
	ck_assert_int_eq(r->packet_aggregation_id, n->packet_aggregation_id);
	ck_assert_int_eq(r->engine_idx, q->engine_idx);
	ck_assert_int_eq(r->read_bytes, n->read_bytes);
	ck_assert_int_eq(r->write_bytes, n->write_bytes);
	int64_t tb = n->read_bytes > n->write_bytes ? n->read_bytes : n->write_bytes;
	ck_assert_int_eq(r->transfer_bytes, tb);
	if (r->duration_ns > 0)
		ck_assert_double_eq_tol(r->throughput, (double)tb / ((double)r->duration_ns / 1e9), 1e-3);
	else
		ck_assert_double_eq(r->throughput, 0.0);
	const nxp_neff_queue *nq = nxp_neff_find_queue(neff, q->pcore_idx, q->name, q->queue_idx);
	const char *qt = (n->flags & NXP_DMA_HARDWARE_DYNAMIC)   ? "hardware_dynamic"
			 : (n->flags & NXP_DMA_SOFTWARE_DYNAMIC) ? "software_dynamic"
			 : nq                                    ? nq->type
								 : "unknown";
	ck_assert_str_eq(r->queue_type, qt);
	if (q->pcore_idx == 0 && !n->flags)
		ck_assert_str_eq(r->queue_type, "data"); /* q_pe_in_w is a "data" queue in the NEFF */
	ck_assert_str_eq(r->variable, n->variable ? "IN" : "unknown");
	ck_assert_str_eq(r->queue_name, q->name);
	ck_assert_int_eq(r->queue_idx, q->queue_idx);
	ck_assert_int_eq(r->crc, n->crc);
	ck_assert_str_eq(r->source, mem[n->source]);
	ck_assert_str_eq(r->dest, mem[n->dest]);
}

static void check_semaphore(const world *w, const fxn_rec *e, const nxp_semaphore_update *r)
{
	static const char *const ops[] = {"set", "increment", "decrement", "clear"};
	char id[16];
	snprintf(id, sizeof(id), "S[%u]", e->n.s.semaphore_idx);
	ck_assert_int_eq(r->timestamp, ns(w, e->n.s.tick));
	ck_assert_str_eq(r->id, id);
	ck_assert_int_eq(r->semaphore_idx, e->n.s.semaphore_idx);
	ck_assert_int_eq(r->value, e->n.s.value);
	ck_assert_str_eq(r->update_source, nxp_engine_name(e->n.s.update_source));
	ck_assert_int_eq(r->double_set_or_clear, e->n.s.double_set_or_clear);
	ck_assert_int_eq(r->update_mode, e->n.s.update_mode);
	ck_assert_str_eq(r->update_operation_type, ops[e->n.s.operation]);
	ck_assert_str_eq(r->update_trigger_timing, e->n.s.trigger_complete ? "complete" : "start");
	ck_assert_int_eq(r->pcore_idx, w->m.q[e->qid].pcore_idx);
}

static void check_throttle(const world *w, const fxn_rec *e, const nxp_throttle *r)
{
	ck_assert_int_eq(r->timestamp, ns(w, e->n.t.tick));
	ck_assert_int_eq(r->duration, ns(w, e->n.t.duration_ticks));
	ck_assert_int_eq(r->k, e->n.t.k);
	ck_assert_int_eq(r->n, e->n.t.n);
	ck_assert_str_eq(r->type, e->n.t.type ? "thermal" : "unknown");
	ck_assert_int_eq(r->pcore_idx, w->m.q[e->qid].pcore_idx);
}

static void check_error(const world *w, const fxn_rec *e, const nxp_error_record *r)
{
	static const char *const types[] = {"Custom Notification", "Errors", "Warnings"};
	char hex[32];
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)e->n.e.metadata);
	ck_assert_int_eq(r->timestamp, ns(w, e->n.e.tick));
	ck_assert_str_eq(r->type, types[e->n.e.type]);
	ck_assert_int_eq(r->error_type_id, e->n.e.error_type_id);
	ck_assert_str_eq(r->description, "DMA OOB read");
	ck_assert_str_eq(r->metadata_hex, hex);
	ck_assert_int_eq(r->pcore_idx, w->m.q[e->qid].pcore_idx);
}

static void check_execution(const world *w, const fxn_rec *e, const nxp_execution *r)
{
	ck_assert_int_eq(r->execution_index, e->n.x.execution_index);
	ck_assert_str_eq(r->neff_name, "fixture.neff");
	ck_assert_int_eq(r->execution_start_ts, ns(w, e->n.x.start_tick));
	ck_assert_int_eq(r->execution_end_ts, ns(w, e->n.x.end_tick));
	ck_assert_int_eq(r->num_subgraphs, e->n.x.num_subgraphs);
	ck_assert_int_eq(r->row_count, e->n.x.row_count);
}

static const int tables[] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE,
			     NXP_TABLE_THROTTLE,    NXP_TABLE_ERROR,      NXP_TABLE_EXECUTION};
static const int kinds[] = {NXP_QUEUE_INSTRUCTION, NXP_QUEUE_DMA, NXP_QUEUE_SEMAPHORE,
			    NXP_QUEUE_THROTTLE,    NXP_QUEUE_ERROR, NXP_QUEUE_EXECUTION};

typedef union anyrec {
	nxp_instruction i;
	nxp_dma_packet d;
	nxp_semaphore_update s;
	nxp_throttle t;
	nxp_error_record e;
	nxp_execution x;
	nxp_active_time a;
} anyrec;

static int next_of(nxp_cursor *c, int table, anyrec *r)
{
	switch (table) {
	case NXP_TABLE_INSTRUCTION: r->i.struct_size = sizeof(r->i); return nxp_cursor_next_instruction(c, &r->i);
	case NXP_TABLE_DMA_PACKET: r->d.struct_size = sizeof(r->d); return nxp_cursor_next_dma_packet(c, &r->d);
	case NXP_TABLE_SEMAPHORE_UPDATE:
		r->s.struct_size = sizeof(r->s);
		return nxp_cursor_next_semaphore_update(c, &r->s);
	case NXP_TABLE_THROTTLE: r->t.struct_size = sizeof(r->t); return nxp_cursor_next_throttle(c, &r->t);
	case NXP_TABLE_ERROR: r->e.struct_size = sizeof(r->e); return nxp_cursor_next_error(c, &r->e);
	case NXP_TABLE_EXECUTION: r->x.struct_size = sizeof(r->x); return nxp_cursor_next_execution(c, &r->x);
	default: r->a.struct_size = sizeof(r->a); return nxp_cursor_next_active_time(c, &r->a);
	}
}

static void check_any(const world *w, const nxp_neff *neff, int table, const fxn_rec *e, const anyrec *r, int64_t id)
{
	switch (table) {
	case NXP_TABLE_INSTRUCTION: check_instruction(w, neff, e, &r->i, id); break;
	case NXP_TABLE_DMA_PACKET: check_dma(w, neff, e, &r->d, id); break;
	case NXP_TABLE_SEMAPHORE_UPDATE: check_semaphore(w, e, &r->s); break;
	case NXP_TABLE_THROTTLE: check_throttle(w, e, &r->t); break;
	case NXP_TABLE_ERROR: check_error(w, e, &r->e); break;
	default: check_execution(w, e, &r->x); break;
	}
}

/* Read a whole table and compare with the model. */
static void roundtrip(const world *w, int kind_src)
{
	fxn_pair o;
	open_ok(&o, w, kind_src);
	const nxp_neff *neff = nxp_profile_neff(o.p);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		fxn_rec *exp;
		size_t n = fxn_sorted(&w->m, kinds[t], NULL, NULL, &exp);
		ck_assert_uint_gt(n, 0);
		nxp_cursor *c;
		ck_assert_int_eq(nxp_cursor_open(&c, o.p, tables[t], NULL, NULL), NXP_OK);
		ck_assert_int_eq(nxp_cursor_table(c), tables[t]);
		anyrec r;
		size_t i = 0;
		int rc;
		while ((rc = next_of(c, tables[t], &r)) == NXP_OK) {
			ck_assert_uint_lt(i, n);
			check_any(w, neff, tables[t], &exp[i], &r, (int64_t)i);
			i++;
		}
		ck_assert_int_eq(rc, NXP_END);
		ck_assert_uint_eq(i, n);
		ck_assert_int_eq(next_of(c, tables[t], &r), NXP_END);
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		ck_assert_int_eq(nxp_cursor_get_stats(c, &cs), NXP_OK);
		ck_assert_int_eq(cs.records, (int64_t)n);
		ck_assert_int_eq(cs.bad_records, 0);
		ck_assert_int_eq(cs.skipped_sections, 0);
		ck_assert_int_eq(cs.last_bad_offset, -1);
		ck_assert_int_gt(cs.bytes_read, 0);
		if (tables[t] == NXP_TABLE_INSTRUCTION)
			ck_assert_int_gt(cs.unknown_pcs, 0); /* the fixture uses pcs the NEFF lacks */
		nxp_cursor_close(c);
		free(exp);
	}
	fxn_close(&o);
}

static void roundtrip_spec(int compress, int pcores, uint32_t rps)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.compress = compress;
	s.pcores = pcores;
	s.rps = rps;
	world w;
	world_build(&w, &s);
	roundtrip(&w, FXN_SRC_MEMORY);
	roundtrip(&w, FXN_SRC_CHUNKY);
	/* and from a path */
	char *neff_path = tu_path(w.dir, "t.neff");
	ck_assert_int_eq(tu_write_file(neff_path, w.neff, w.neff_len), 0);
	nxp_profile *p;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, neff_path, w.path, NULL, &st) == NXP_OK, "%s", st.message);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
	nxp_dma_packet d;
	d.struct_size = sizeof(d);
	size_t n = 0;
	while (nxp_cursor_next_dma_packet(c, &d) == NXP_OK)
		n++;
	ck_assert_uint_eq(n, (size_t)(s.n_dma * s.dma_queues * pcores));
	nxp_cursor_close(c);
	nxp_profile_close(p);
	remove(neff_path);
	free(neff_path);
	world_free(&w);
}

START_TEST(test_roundtrip_plain)
{
	roundtrip_spec(0, 1, 64);
}
END_TEST

START_TEST(test_roundtrip_compressed)
{
	roundtrip_spec(1, 1, 50);
}
END_TEST

START_TEST(test_roundtrip_lnc2)
{
	roundtrip_spec(0, 2, 37);
	roundtrip_spec(1, 2, 1000);
}
END_TEST

START_TEST(test_metadata)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.pcores = 2;
	world w;
	world_build(&w, &s);
	fxn_pair o;
	open_ok(&o, &w, FXN_SRC_CHUNKY);
	nxp_metadata md;
	md.struct_size = sizeof(md);
	ck_assert_int_eq(nxp_profile_get_metadata(o.p, &md), NXP_OK);
	ck_assert_str_eq(md.profile_schema_version, "7.4.0");
	ck_assert_int_eq(md.ntff_version, 6);
	ck_assert_int_eq(md.layout_version, 1);
	ck_assert_int_eq(md.num_physical_cores, 2);
	ck_assert_int_eq(md.vnc_enabled, 1);
	ck_assert_int_eq(md.ticks_per_nanosec, 2);
	ck_assert_str_eq(md.arch, "trn2");
	ck_assert_str_eq(md.instance_type, "trn2.48xlarge");
	ck_assert_str_eq(md.runtime_version, "2.99.0");
	ck_assert_str_eq(md.collectives_version, "2.99.1");
	ck_assert_str_eq(md.driver_version, "2.20.0");
	ck_assert_str_eq(md.compiler_version, "2.18.0");
	ck_assert_str_eq(md.profile_name, "fixture-profile");
	ck_assert_double_eq(md.tensor_engine_clock_freq, 2.8);
	ck_assert_double_eq(md.vector_engine_clock_freq, 0.96);
	ck_assert_double_eq(md.scalar_engine_clock_freq, 1.4);
	ck_assert_double_eq(md.gpsimd_engine_clock_freq, 1.2);
	ck_assert_double_eq(md.neuroncore_clock_freq, 1.12);
	ck_assert_int_eq(md.tensor_engine_num_rows, 128);
	ck_assert_int_eq(md.tensor_engine_num_cols, 128);
	ck_assert_int_eq(md.gpsimd_engine_num_channels, 8);
	ck_assert_int_eq(md.num_dma_engines_per_neuroncore, 16);
	ck_assert_double_eq(md.dma_ddr_bandwidth, 1.5e11);
	ck_assert_double_eq(md.hbm_ddr_bandwidth, 7.25e11);
	ck_assert_int_eq(md.neuroncore_idx, 3);
	ck_assert_int_eq(md.neuron_device_idx, 1);
	ck_assert_int_eq(md.capture_time_ns, 1700000000123456789LL);
	ck_assert_int_eq(md.is_simulation, 1);
	ck_assert_mem_eq(md.neff_uuid, s.uuid, 16);
	ck_assert_int_eq(md.neff_hash[31], 31);
	size_t ninstr = 0;
	uint64_t first = UINT64_MAX, last = 0;
	for (size_t i = 0; i < w.m.n; i++) {
		const fxn_rec *r = &w.m.r[i];
		ninstr += r->kind == NXP_QUEUE_INSTRUCTION;
		uint64_t end = r->kind == NXP_QUEUE_INSTRUCTION ? r->n.i.end_tick
			       : r->kind == NXP_QUEUE_DMA       ? r->n.d.end_tick
			       : r->kind == NXP_QUEUE_EXECUTION ? r->n.x.end_tick
			       : r->kind == NXP_QUEUE_THROTTLE  ? r->n.t.tick + r->n.t.duration_ticks
								: r->key;
		if (r->key < first)
			first = r->key;
		if (end > last)
			last = end;
	}
	ck_assert_int_eq(md.trace_count, (int64_t)w.m.n);
	ck_assert_int_eq(md.event_count, (int64_t)(w.m.n - ninstr));
	ck_assert_int_eq(md.first_hw_timestamp, ns(&w, first));
	ck_assert_int_eq(md.last_hw_timestamp, ns(&w, last));
	ck_assert_int_eq(md.tpb_start_ts, ns(&w, 5));
	ck_assert_int_eq(md.tpb_stop_ts, ns(&w, 1000000));
	ck_assert_int_eq(md.unknown_sections, 0);
	/* an older, shorter struct gets only its part */
	nxp_metadata small;
	memset(&small, 0x5a, sizeof(small));
	small.struct_size = offsetof(nxp_metadata, layout_version);
	ck_assert_int_eq(nxp_profile_get_metadata(o.p, &small), NXP_OK);
	ck_assert_int_eq(small.ntff_version, 6);
	ck_assert_int_eq(small.layout_version, 0x5a5a5a5a);
	ck_assert_int_eq(nxp_profile_get_metadata(NULL, &md), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_get_metadata(o.p, NULL), NXP_E_INVAL);
	fxn_close(&o);
	world_free(&w);
}
END_TEST

/* ---- filters and seek ---- */

typedef struct filt {
	int engine;
	int64_t pcore;
	const char *queue;
} filt;

static int keep_filt(const fxn_model *m, const fxn_rec *r, void *arg)
{
	const filt *f = arg;
	const nxp_ntff_queue *q = &m->q[r->qid];
	if (f->pcore >= 0 && q->pcore_idx != f->pcore)
		return 0;
	if (f->engine >= 0 && r->kind == NXP_QUEUE_INSTRUCTION && q->engine != f->engine)
		return 0;
	if (f->queue && r->kind == NXP_QUEUE_DMA && strcmp(q->name, f->queue) != 0)
		return 0;
	return 1;
}

/* Expected rows: queue-filtered model with ids = position, then the window. */
static void check_filtered(const world *w, nxp_profile *p, int table, int kind, filt f, int64_t from, int64_t to,
			   int64_t seek)
{
	fxn_rec *exp;
	size_t n = fxn_sorted(&w->m, kind, keep_filt, &f, &exp);
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.engine = f.engine;
	co.pcore_idx = f.pcore;
	co.queue_name = f.queue;
	co.start_ts = from;
	co.end_ts = to;
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, table, &co, NULL), NXP_OK);
	if (seek != INT64_MIN)
		ck_assert_int_eq(nxp_cursor_seek(c, seek), NXP_OK);
	int64_t lo = from > seek ? from : seek;
	size_t i = 0;
	while (i < n && ns(w, exp[i].key) < lo)
		i++;
	size_t got = 0;
	anyrec r;
	int64_t pos = nxp_cursor_position(c);
	while (next_of(c, table, &r) == NXP_OK) {
		ck_assert_uint_lt(i, n);
		ck_assert_int_lt(ns(w, exp[i].key), to);
		ck_assert_int_eq(pos, ns(w, exp[i].key));
		check_any(w, nxp_profile_neff(p), table, &exp[i], &r, (int64_t)i);
		i++;
		got++;
		pos = nxp_cursor_position(c);
	}
	ck_assert_int_eq(pos, INT64_MAX);
	ck_assert(i == n || ns(w, exp[i].key) >= to);
	(void)got;
	nxp_cursor_close(c);
	free(exp);
}

START_TEST(test_filters)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.pcores = 2;
	world w;
	world_build(&w, &s);
	int src = _i;
	fxn_pair o;
	open_ok(&o, &w, src);
	filt all = {-1, -1, NULL};
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		check_filtered(&w, o.p, NXP_TABLE_INSTRUCTION, NXP_QUEUE_INSTRUCTION, (filt){e, -1, NULL}, INT64_MIN,
			       INT64_MAX, INT64_MIN);
	check_filtered(&w, o.p, NXP_TABLE_INSTRUCTION, NXP_QUEUE_INSTRUCTION, (filt){2, 1, NULL}, INT64_MIN,
		       INT64_MAX, INT64_MIN);
	check_filtered(&w, o.p, NXP_TABLE_DMA_PACKET, NXP_QUEUE_DMA, (filt){-1, -1, "q_other"}, INT64_MIN, INT64_MAX,
		       INT64_MIN);
	check_filtered(&w, o.p, NXP_TABLE_DMA_PACKET, NXP_QUEUE_DMA, (filt){-1, -1, "nope"}, INT64_MIN, INT64_MAX,
		       INT64_MIN);
	check_filtered(&w, o.p, NXP_TABLE_SEMAPHORE_UPDATE, NXP_QUEUE_SEMAPHORE, (filt){-1, 0, NULL}, INT64_MIN,
		       INT64_MAX, INT64_MIN);
	/* time windows */
	int64_t last = 0;
	for (size_t i = 0; i < w.m.n; i++)
		if (w.m.r[i].kind == NXP_QUEUE_INSTRUCTION && ns(&w, w.m.r[i].key) > last)
			last = ns(&w, w.m.r[i].key);
	int64_t cuts[] = {0, 1, 77, last / 3, last / 2 + 1, last, last + 1};
	for (size_t a = 0; a < sizeof(cuts) / sizeof(cuts[0]); a++)
		for (size_t b = a; b < sizeof(cuts) / sizeof(cuts[0]); b++) {
			check_filtered(&w, o.p, NXP_TABLE_INSTRUCTION, NXP_QUEUE_INSTRUCTION, all, cuts[a], cuts[b],
				       INT64_MIN);
			check_filtered(&w, o.p, NXP_TABLE_DMA_PACKET, NXP_QUEUE_DMA, (filt){-1, 0, NULL}, cuts[a],
				       cuts[b], INT64_MIN);
		}
	/* bad options */
	nxp_cursor *c;
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.engine = 9;
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, &co, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, 42, NULL, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_cursor_open(&c, NULL, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_E_INVAL);
	co.struct_size = 4;
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, &co, NULL), NXP_E_INVAL);
	fxn_close(&o);
	world_free(&w);
}
END_TEST

START_TEST(test_seek)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.pcores = 2;
	s.compress = _i == 1;
	s.rps = 16;
	world w;
	world_build(&w, &s);
	fxn_pair o;
	open_ok(&o, &w, _i == 1 ? FXN_SRC_CHUNKY : FXN_SRC_MEMORY);
	filt all = {-1, -1, NULL};
	int64_t last = 0;
	for (size_t i = 0; i < w.m.n; i++)
		if (w.m.r[i].kind != NXP_QUEUE_TPB && ns(&w, w.m.r[i].key) > last)
			last = ns(&w, w.m.r[i].key);
	for (int64_t ts = -5; ts <= last + 3; ts += last / 17 + 1) {
		check_filtered(&w, o.p, NXP_TABLE_INSTRUCTION, NXP_QUEUE_INSTRUCTION, all, INT64_MIN, INT64_MAX, ts);
		check_filtered(&w, o.p, NXP_TABLE_DMA_PACKET, NXP_QUEUE_DMA, all, INT64_MIN, INT64_MAX, ts);
		check_filtered(&w, o.p, NXP_TABLE_SEMAPHORE_UPDATE, NXP_QUEUE_SEMAPHORE, all, INT64_MIN, INT64_MAX, ts);
		check_filtered(&w, o.p, NXP_TABLE_INSTRUCTION, NXP_QUEUE_INSTRUCTION, (filt){0, 1, NULL}, INT64_MIN,
			       INT64_MAX, ts);
	}
	/* seek back and forth on one cursor */
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction a, b;
	a.struct_size = b.struct_size = sizeof(a);
	ck_assert_int_eq(nxp_cursor_seek(c, last / 2), NXP_OK);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &a), NXP_OK);
	ck_assert_int_ge(a.start_ts, last / 2);
	ck_assert_int_eq(nxp_cursor_seek(c, 0), NXP_OK);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &b), NXP_OK);
	ck_assert_int_eq(b.id, 0);
	ck_assert_int_eq(nxp_cursor_seek(c, last / 2), NXP_OK);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &b), NXP_OK);
	ck_assert_int_eq(b.id, a.id);
	ck_assert_int_eq(b.start_ts, a.start_ts);
	ck_assert_int_eq(nxp_cursor_seek(c, INT64_MAX), NXP_OK);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &b), NXP_END);
	ck_assert_int_eq(nxp_cursor_position(c), INT64_MAX);
	nxp_cursor_close(c);
	fxn_close(&o);
	world_free(&w);
}
END_TEST

START_TEST(test_batch)
{
	fxn_spec s;
	fxn_spec_default(&s);
	world w;
	world_build(&w, &s);
	fxn_pair o;
	open_ok(&o, &w, FXN_SRC_CHUNKY);
	fxn_rec *exp;
	size_t n = fxn_sorted(&w.m, NXP_QUEUE_DMA, NULL, NULL, &exp);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
	nxp_dma_packet buf[7];
	size_t got, i = 0;
	int rc;
	const char *first_var = NULL;
	while ((rc = nxp_cursor_next_batch(c, buf, sizeof(buf[0]), 7, &got)) == NXP_OK) {
		ck_assert_uint_ge(got, 1);
		ck_assert_uint_le(got, 7);
		for (size_t k = 0; k < got; k++, i++) {
			ck_assert_int_eq(buf[k].struct_size, sizeof(buf[0]));
			check_dma(&w, nxp_profile_neff(o.p), &exp[i], &buf[k], (int64_t)i);
		}
		if (!first_var)
			first_var = buf[1].variable;
	}
	ck_assert_int_eq(rc, NXP_END);
	ck_assert_int_eq(got, 0);
	ck_assert_uint_eq(i, n);
	nxp_cursor_stats cs;
	cs.struct_size = sizeof(cs);
	ck_assert_int_eq(nxp_cursor_get_stats(c, &cs), NXP_OK);
	ck_assert_int_eq(cs.records, (int64_t)n); /* counted once per record on the batch path too */
	ck_assert_str_eq(first_var, exp[1].n.d.variable ? "IN" : "unknown"); /* strings outlive the batch */
	/* a shorter (older) and a longer (newer) record struct */
	ck_assert_int_eq(nxp_cursor_seek(c, 0), NXP_OK);
	size_t small = offsetof(nxp_dma_packet, throughput);
	uint8_t raw[5][sizeof(nxp_dma_packet) + 16];
	memset(raw, 0x77, sizeof(raw));
	ck_assert_int_eq(nxp_cursor_next_batch(c, raw, small, 5, &got), NXP_OK);
	ck_assert_uint_eq(got, 5);
	for (size_t k = 0; k < 5; k++) {
		nxp_dma_packet *d = (nxp_dma_packet *)((uint8_t *)raw + k * small);
		ck_assert_uint_eq(d->struct_size, small);
		ck_assert_int_eq(d->id, (int64_t)k);
	}
	ck_assert_uint_eq(((uint8_t *)raw)[5 * small], 0x77); /* nothing written past 5 records */
	ck_assert_int_eq(nxp_cursor_get_stats(c, &cs), NXP_OK);
	ck_assert_int_eq(cs.records, (int64_t)n + 5); /* short structs go through the copying path */
	ck_assert_int_eq(nxp_cursor_seek(c, 0), NXP_OK);
	size_t big = sizeof(raw[0]);
	ck_assert_int_eq(nxp_cursor_next_batch(c, raw, big, 5, &got), NXP_OK);
	nxp_dma_packet *d = (nxp_dma_packet *)raw[2];
	ck_assert_uint_eq(d->struct_size, big);
	check_dma(&w, nxp_profile_neff(o.p), &exp[2], d, 2);
	ck_assert_uint_eq(raw[2][sizeof(nxp_dma_packet)], 0); /* unknown tail zeroed */
	/* misuse */
	ck_assert_int_eq(nxp_cursor_next_batch(c, raw, 4, 5, &got), NXP_E_INVAL);
	ck_assert_int_eq(nxp_cursor_next_batch(NULL, raw, big, 5, &got), NXP_E_INVAL);
	ck_assert_int_eq(nxp_cursor_next_batch(c, raw, big, 0, &got), NXP_END);
	nxp_instruction ins;
	ins.struct_size = sizeof(ins);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &ins), NXP_E_INVAL); /* wrong table */
	nxp_cursor_close(c);
	free(exp);
	fxn_close(&o);
	world_free(&w);
}
END_TEST

/* ---- active time vs a naive union of intervals ---- */

typedef struct iv {
	uint64_t b, e;
	int64_t pcore;
	int order; /* engine, DMA = NXP_ENGINE_COUNT */
} iv;

static int cmp_iv(const void *a, const void *b)
{
	const iv *x = a, *y = b;
	if (x->pcore != y->pcore)
		return x->pcore < y->pcore ? -1 : 1;
	if (x->order != y->order)
		return x->order - y->order;
	return x->b < y->b ? -1 : x->b > y->b;
}

static int cmp_out(const void *a, const void *b)
{
	const iv *x = a, *y = b;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->pcore != y->pcore)
		return x->pcore < y->pcore ? -1 : 1;
	return x->order - y->order;
}

static size_t naive_active(const world *w, int engine_filter, iv **out)
{
	iv *v = malloc(w->m.n * sizeof(*v)), *o = malloc(w->m.n * sizeof(*o));
	size_t n = 0, k = 0;
	for (size_t i = 0; i < w->m.n; i++) {
		const fxn_rec *r = &w->m.r[i];
		const nxp_ntff_queue *q = &w->m.q[r->qid];
		if (r->kind == NXP_QUEUE_INSTRUCTION && (engine_filter < 0 || q->engine == engine_filter)) {
			uint64_t b = r->n.i.start_tick + r->n.i.wait_ticks;
			if (b < r->n.i.end_tick)
				v[n++] = (iv){b, r->n.i.end_tick, q->pcore_idx, q->engine};
		} else if (r->kind == NXP_QUEUE_DMA && engine_filter < 0 && r->n.d.start_tick < r->n.d.end_tick) {
			v[n++] = (iv){r->n.d.start_tick, r->n.d.end_tick, q->pcore_idx, NXP_ENGINE_COUNT};
		}
	}
	qsort(v, n, sizeof(*v), cmp_iv);
	for (size_t i = 0; i < n; i++) {
		if (k && o[k - 1].pcore == v[i].pcore && o[k - 1].order == v[i].order && v[i].b <= o[k - 1].e) {
			if (v[i].e > o[k - 1].e)
				o[k - 1].e = v[i].e;
		} else {
			o[k++] = v[i];
		}
	}
	free(v);
	qsort(o, k, sizeof(*o), cmp_out);
	*out = o;
	return k;
}

/* A call refused for its arguments is the cursor's last error (api.md: every
 * handle keeps its last error); a failed scan's error would win over it. */
START_TEST(test_misuse_error)
{
	fxn_spec s;
	fxn_spec_default(&s);
	world w;
	world_build(&w, &s);
	fxn_pair o;
	open_ok(&o, &w, FXN_SRC_MEMORY);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_cursor_error(c, &st), NXP_OK);
	ck_assert_int_eq(st.code, 0);
	nxp_instruction r;
	r.struct_size = 4;
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &r), NXP_E_INVAL);
	ck_assert_int_eq(nxp_cursor_error(c, &st), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(st.message, "struct_size 4"));
	nxp_dma_packet d;
	d.struct_size = sizeof(d);
	ck_assert_int_eq(nxp_cursor_next_dma_packet(c, &d), NXP_E_INVAL); /* the wrong table */
	ck_assert_int_eq(nxp_cursor_error(c, &st), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(st.message, "another table"));
	size_t got;
	ck_assert_int_eq(nxp_cursor_next_batch(c, &r, 4, 1, &got), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr((nxp_cursor_error(c, &st), st.message), "record_size 4"));
	r.struct_size = sizeof(r);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &r), NXP_OK); /* the cursor still reads */
	nxp_cursor_close(c);
	fxn_close(&o);
	world_free(&w);
}
END_TEST

START_TEST(test_active_time)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.pcores = 2;
	s.rps = 20;
	s.tpn = 1;
	world w;
	world_build(&w, &s);
	fxn_pair o;
	open_ok(&o, &w, _i ? FXN_SRC_CHUNKY : FXN_SRC_MEMORY);
	for (int ef = -1; ef < NXP_ENGINE_COUNT; ef += 3) {
		iv *exp;
		size_t n = naive_active(&w, ef, &exp);
		ck_assert_uint_gt(n, 10);
		nxp_cursor_options co;
		nxp_cursor_options_init(&co);
		co.engine = ef;
		nxp_cursor *c;
		ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_ACTIVE_TIME, &co, NULL), NXP_OK);
		nxp_active_time a;
		a.struct_size = sizeof(a);
		size_t i = 0;
		int64_t total = 0, naive_total = 0;
		while (nxp_cursor_next_active_time(c, &a) == NXP_OK) {
			ck_assert_uint_lt(i, n);
			ck_assert_int_eq(a.start_ts, (int64_t)exp[i].b);
			ck_assert_int_eq(a.end_ts, (int64_t)exp[i].e);
			ck_assert_int_eq(a.duration_ns, a.end_ts - a.start_ts);
			ck_assert_int_eq(a.pcore_idx, exp[i].pcore);
			if (exp[i].order == NXP_ENGINE_COUNT) {
				ck_assert_str_eq(a.engine, "dma");
				ck_assert_int_eq(a.engine_id, -1);
			} else {
				ck_assert_str_eq(a.engine, nxp_engine_name(exp[i].order));
				ck_assert_int_eq(a.engine_id, exp[i].order);
			}
			total += a.duration_ns;
			naive_total += (int64_t)(exp[i].e - exp[i].b);
			i++;
		}
		ck_assert_uint_eq(i, n);
		ck_assert_int_eq(total, naive_total);
		nxp_cursor_close(c);
		free(exp);
	}
	fxn_close(&o);
	world_free(&w);
}
END_TEST

/* The internal iteration (ntff_priv.h) a columnar reader builds on: record by
 * record and run by run, it yields every table's records in the cursor's
 * order with the cursor's ids, from raw bytes. */
static void iter_matches_cursor(nxp_profile *p, int table, int by_run)
{
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, table, NULL, NULL), NXP_OK);
	nxp_cursor_options o;
	nxp_cursor_options_init(&o);
	ntff_iter it;
	ck_assert_int_eq(ntff_iter_open(&it, p, ntff_table_get(table), &o, 0, UINT64_MAX), NXP_OK);
	ck_assert_int_eq(ntff_iter_seek(&it, 0), NXP_OK);
	ntff_rec r;
	size_t n = 0, runs = 0, longest = 0;
	int rc;
	anyrec a;
	while ((rc = by_run ? ntff_iter_run(&it, &r) : ntff_iter_next(&it, &r)) == NXP_OK) {
		ck_assert_uint_ge(r.n, 1);
		runs++;
		if (r.n > longest)
			longest = r.n;
		for (size_t i = 0; i < r.n; i++) {
			const uint8_t *rec = r.rec + i * r.rsize;
			ck_assert(it.t->check(p, rec)); /* the fixture has no bad records */
			ck_assert_int_eq(next_of(c, table, &a), NXP_OK);
			int64_t start, id;
			switch (table) {
			case NXP_TABLE_INSTRUCTION: start = a.i.start_ts; id = a.i.id; break;
			case NXP_TABLE_DMA_PACKET: start = a.d.start_ts; id = a.d.id; break;
			default: start = a.s.timestamp; id = r.id + (int64_t)i; break;
			}
			ck_assert_int_eq(id, r.id + (int64_t)i);
			nxp_metadata md;
			md.struct_size = sizeof(md);
			nxp_profile_get_metadata(p, &md);
			ck_assert_int_eq(start, (int64_t)(ntff_record_key(rec) / (uint64_t)md.ticks_per_nanosec));
			n++;
		}
	}
	ck_assert_int_eq(rc, NXP_END);
	ck_assert_int_eq(next_of(c, table, &a), NXP_END);
	ck_assert_uint_gt(n, 0);
	if (by_run)
		ck_assert_uint_gt(longest, 1); /* queues of the fixture do run ahead of the others */
	else
		ck_assert_uint_eq(runs, n);
	ck_assert_int_eq(it.s.stats.bad_records, 0);
	ntff_iter_close(&it);
	nxp_cursor_close(c);
}

START_TEST(test_internal_iteration)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.pcores = 2;
	s.compress = _i;
	world w;
	world_build(&w, &s);
	fxn_pair o;
	open_ok(&o, &w, FXN_SRC_CHUNKY);
	static const int t[] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE};
	for (size_t k = 0; k < 3; k++) {
		iter_matches_cursor(o.p, t[k], 0);
		iter_matches_cursor(o.p, t[k], 1);
	}
	/* a derived table has no raw records to iterate */
	ntff_iter it;
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	ck_assert_int_eq(ntff_iter_open(&it, o.p, ntff_table_get(NXP_TABLE_ACTIVE_TIME), &co, 0, UINT64_MAX),
			 NXP_E_INVAL);
	ck_assert_ptr_null(ntff_table_get(100));
	fxn_close(&o);
	world_free(&w);
}
END_TEST

START_TEST(test_sequential_refused)
{
	fxn_spec s;
	fxn_spec_default(&s);
	s.n_instr = 10;
	world w;
	world_build(&w, &s);
	fxn_pair o;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(fxn_open(&o, w.neff, w.neff_len, w.ntff, w.ntff_len, FXN_SRC_SEQUENTIAL, 0, &st),
			 NXP_E_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(st.message, "seekable"));
	ck_assert_ptr_null(o.p);
	world_free(&w);
}
END_TEST

/* `nxp dump` streams the same rows (CSV header of public field names, JSONL). */
static size_t run_lines(const char *cmd, char *first, size_t first_len)
{
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	char line[8192];
	size_t n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (n == 0 && first)
			snprintf(first, first_len, "%s", line);
		n++;
	}
	ck_assert_int_eq(pclose(f), 0);
	return n;
}

START_TEST(test_cli_dump)
{
	const char *cli = getenv("NXP_CLI");
	if (!cli)
		return;
	fxn_spec s;
	fxn_spec_default(&s);
	s.pcores = 2;
	world w;
	world_build(&w, &s);
	char *neff_path = tu_path(w.dir, "t.neff");
	ck_assert_int_eq(tu_write_file(neff_path, w.neff, w.neff_len), 0);
	char cmd[4096], first[8192];
	snprintf(cmd, sizeof(cmd), "%s dump %s %s --table dma", cli, neff_path, w.path);
	size_t n = run_lines(cmd, first, sizeof(first));
	ck_assert_uint_eq(n, (size_t)(s.n_dma * s.dma_queues * 2) + 1);
	ck_assert_str_eq(first, "start_ts,end_ts,duration_ns,pcore_idx,id,packet_idx,packet_aggregation_id,engine_idx,"
				"read_bytes,write_bytes,transfer_bytes,throughput,queue_type,variable,queue_name,"
				"queue_idx,crc,source,dest\n");
	snprintf(cmd, sizeof(cmd), "%s dump %s %s --table instruction --format jsonl --engine pe --pcore 1", cli,
		 neff_path, w.path);
	n = run_lines(cmd, first, sizeof(first));
	ck_assert_uint_eq(n, (size_t)s.n_instr);
	ck_assert_ptr_nonnull(strstr(first, "\"engine\":\"tensor\""));
	ck_assert_ptr_nonnull(strstr(first, "\"pcore_idx\":1"));
	snprintf(cmd, sizeof(cmd), "%s dump %s %s --table active_time --format csv --from 100 --to 2000 | head -1", cli,
		 neff_path, w.path);
	run_lines(cmd, first, sizeof(first));
	ck_assert_str_eq(first, "start_ts,end_ts,engine,pcore_idx,duration_ns\n");
	snprintf(cmd, sizeof(cmd), "%s dump %s %s --table nope 2>/dev/null; test $? -eq 2", cli, neff_path, w.path);
	run_lines(cmd, NULL, 0);
	remove(neff_path);
	free(neff_path);
	world_free(&w);
}
END_TEST

Suite *cursor_suite(void);
Suite *cursor_suite(void)
{
	Suite *s = suite_create("cursor");
	TCase *t = tcase_create("cursor");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, test_roundtrip_plain);
	tcase_add_test(t, test_roundtrip_compressed);
	tcase_add_test(t, test_roundtrip_lnc2);
	tcase_add_test(t, test_metadata);
	tcase_add_loop_test(t, test_filters, 0, 2);
	tcase_add_loop_test(t, test_seek, 0, 2);
	tcase_add_test(t, test_batch);
	tcase_add_loop_test(t, test_active_time, 0, 2);
	tcase_add_test(t, test_misuse_error);
	tcase_add_loop_test(t, test_internal_iteration, 0, 2);
	tcase_add_test(t, test_sequential_refused);
	tcase_add_test(t, test_cli_dump);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(cursor_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
