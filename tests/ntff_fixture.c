/* SPDX-License-Identifier: MIT */
#include "ntff_fixture.h"

#include "neff_fixture.h"
#include "ntff_layout.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
	fprintf(stderr, "ntff fixture: %s\n", what);
	abort();
}

void fxn_spec_default(fxn_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->pcores = 1;
	s->rps = 64;
	s->n_instr = 300;
	s->n_dma = 200;
	s->dma_queues = 3;
	s->tpn = 2;
	for (int i = 0; i < 16; i++)
		s->uuid[i] = (uint8_t)(0xa0 + i);
	s->seed = 1;
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static fxn_rec *add(fxn_model *m, int kind, int32_t qid, uint64_t key)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->r = realloc(m->r, m->cap * sizeof(*m->r));
		if (!m->r)
			die("oom");
	}
	fxn_rec *r = &m->r[m->n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->qid = qid;
	r->key = key;
	r->pos = m->qcount[qid]++;
	return r;
}

static int32_t queue(nxp_ntff_writer *w, fxn_model *m, int kind, int engine, int pcore, const char *name, int qidx)
{
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = kind;
	q.engine = engine;
	q.pcore_idx = pcore;
	q.name = name;
	q.queue_idx = qidx;
	q.engine_idx = qidx / 16 + 1;
	int32_t id = nxp_ntff_writer_add_queue(w, &q);
	if (id < 0 || (size_t)id != m->nq || m->nq >= FXN_MAX_QUEUES)
		die("add_queue");
	m->q[m->nq++] = q;
	return id;
}

/* One generated queue stream: next record time and count left. */
typedef struct gen {
	int32_t qid;
	int kind;
	int left;
	uint64_t t;
	uint32_t i;
} gen;

void fxn_write(const char *path, const fxn_spec *spec, fxn_model *m)
{
	memset(m, 0, sizeof(*m));
	m->tpn = spec->tpn;
	m->pcores = spec->pcores;
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, spec->uuid, 16);
	for (int i = 0; i < 32; i++)
		info.neff_hash[i] = (uint8_t)i;
	info.ticks_per_nanosec = spec->tpn;
	info.num_physical_cores = spec->pcores;
	info.arch = "trn2";
	info.instance_type = "trn2.48xlarge";
	info.runtime_version = "2.99.0";
	info.collectives_version = "2.99.1";
	info.driver_version = "2.20.0";
	info.compiler_version = "2.18.0";
	info.profile_name = "fixture-profile";
	info.tensor_engine_clock_freq = 2.8;
	info.vector_engine_clock_freq = 0.96;
	info.scalar_engine_clock_freq = 1.4;
	info.gpsimd_engine_clock_freq = 1.2;
	info.neuroncore_clock_freq = 1.12;
	info.tensor_engine_num_rows = 128;
	info.tensor_engine_num_cols = 128;
	info.vector_engine_num_channels = 128;
	info.scalar_engine_num_channels = 128;
	info.gpsimd_engine_num_channels = 8;
	info.num_dma_engines_per_neuroncore = 16;
	info.dma_ddr_bandwidth = 1.5e11;
	info.hbm_ddr_bandwidth = 7.25e11;
	info.neuroncore_idx = 3;
	info.neuron_device_idx = 1;
	info.capture_time_ns = 1700000000123456789LL;
	info.is_simulation = 1;
	nxp_ntff_writer_options o;
	nxp_ntff_writer_options_init(&o);
	o.flags = spec->compress ? NXP_NTFF_WRITE_COMPRESS : 0;
	o.records_per_section = spec->rps;
	nxp_ntff_writer *w;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_ntff_writer_open_path(&w, path, &info, &o, &st))
		die(st.message);
	m->str_in = nxp_ntff_writer_string(w, "IN");
	m->str_thermal = nxp_ntff_writer_string(w, "thermal");
	m->str_desc = nxp_ntff_writer_string(w, "DMA OOB read");
	m->str_neff = nxp_ntff_writer_string(w, "fixture.neff");
	if (m->str_in <= 0 || m->str_thermal <= 0 || m->str_desc <= 0 || m->str_neff <= 0 ||
	    nxp_ntff_writer_string(w, "IN") != m->str_in)
		die("strings");

	gen g[FXN_MAX_QUEUES];
	size_t ng = 0;
	uint32_t seed = spec->seed * 2654435761u + 17;
	for (int pc = 0; pc < spec->pcores; pc++) {
		for (int e = 0; e < NXP_ENGINE_COUNT; e++)
			g[ng++] = (gen){queue(w, m, NXP_QUEUE_INSTRUCTION, e, pc, NULL, 0), NXP_QUEUE_INSTRUCTION,
					spec->n_instr, 100 + (uint64_t)e, 0};
		for (int d = 0; d < spec->dma_queues; d++)
			g[ng++] = (gen){queue(w, m, NXP_QUEUE_DMA, -1, pc, pc == 0 ? "q_pe_in_w" : "q_other", d),
					NXP_QUEUE_DMA, spec->n_dma, 50 + (uint64_t)d * 3, 0};
		g[ng++] = (gen){queue(w, m, NXP_QUEUE_SEMAPHORE, -1, pc, NULL, 0), NXP_QUEUE_SEMAPHORE, 60, 10, 0};
		g[ng++] = (gen){queue(w, m, NXP_QUEUE_THROTTLE, -1, pc, NULL, 0), NXP_QUEUE_THROTTLE, 5, 1000, 0};
		g[ng++] = (gen){queue(w, m, NXP_QUEUE_ERROR, -1, pc, NULL, 0), NXP_QUEUE_ERROR, 3, 2000, 0};
	}
	g[ng++] = (gen){queue(w, m, NXP_QUEUE_EXECUTION, -1, 0, NULL, 0), NXP_QUEUE_EXECUTION, 2, 20, 0};
	g[ng++] = (gen){queue(w, m, NXP_QUEUE_TPB, -1, 0, NULL, 0), NXP_QUEUE_TPB, 2, 5, 0};

	/* Round-robin over the queues, a random burst each turn. */
	for (int busy = 1; busy;) {
		busy = 0;
		for (size_t k = 0; k < ng; k++) {
			gen *q = &g[k];
			int burst = 1 + (int)(rnd(&seed) % 9);
			for (; burst > 0 && q->left > 0; burst--, q->left--, q->i++) {
				busy = 1;
				fxn_rec *r;
				int rc;
				uint32_t x = rnd(&seed);
				switch (q->kind) {
				case NXP_QUEUE_INSTRUCTION: {
					uint64_t start = q->t + (x % 3 == 0 ? 0 : x % 40);
					r = add(m, q->kind, q->qid, start);
					r->n.i.start_tick = start;
					r->n.i.wait_ticks = x % 5 == 0 ? (x >> 8) % 30 : 0;
					r->n.i.end_tick = start + r->n.i.wait_ticks + (x >> 12) % 90;
					r->n.i.pc = q->i % 4;
					r->n.i.execution_index = (int32_t)(q->i * 2 / (uint32_t)spec->n_instr);
					q->t = x % 4 == 0 ? r->n.i.end_tick : start + (x >> 20) % 60; /* overlap sometimes */
					rc = nxp_ntff_writer_instruction(w, q->qid, &r->n.i);
					break;
				}
				case NXP_QUEUE_DMA: {
					uint64_t start = q->t + x % 50;
					r = add(m, q->kind, q->qid, start);
					r->n.d.start_tick = start;
					r->n.d.end_tick = start + (x >> 10) % 300;
					r->n.d.packet_aggregation_id = q->i / 4;
					r->n.d.packet_idx = q->i % 4;
					r->n.d.read_bytes = 64 + (x >> 3) % 4096;
					r->n.d.write_bytes = 64 + (x >> 5) % 4096;
					r->n.d.crc = x;
					r->n.d.flags = q->i % 7 == 3 ? NXP_DMA_HARDWARE_DYNAMIC
						     : q->i % 11 == 5 ? NXP_DMA_SOFTWARE_DYNAMIC
								       : 0;
					r->n.d.source = (uint8_t)(x % 4);
					r->n.d.dest = (uint8_t)((x >> 2) % 4);
					r->n.d.execution_index = 0;
					r->n.d.variable = q->i % 2 ? (uint32_t)m->str_in : 0;
					q->t = start;
					rc = nxp_ntff_writer_dma(w, q->qid, &r->n.d);
					break;
				}
				case NXP_QUEUE_SEMAPHORE: {
					uint64_t t = q->t + x % 200;
					r = add(m, q->kind, q->qid, t);
					r->n.s.tick = t;
					r->n.s.semaphore_idx = (uint16_t)(x % 3 == 0 ? 300 + x % 5 : x % 32);
					r->n.s.update_source = (uint8_t)(x % NXP_ENGINE_COUNT);
					r->n.s.operation = (uint8_t)((x >> 4) % 4);
					r->n.s.value = (int32_t)(x % 100) - 10;
					r->n.s.trigger_complete = (uint8_t)((x >> 7) & 1);
					r->n.s.double_set_or_clear = (uint8_t)((x >> 8) & 1);
					r->n.s.update_mode = (uint8_t)((x >> 9) % 3);
					q->t = t;
					rc = nxp_ntff_writer_semaphore(w, q->qid, &r->n.s);
					break;
				}
				case NXP_QUEUE_THROTTLE: {
					uint64_t t = q->t + 500 + x % 500;
					r = add(m, q->kind, q->qid, t);
					r->n.t.tick = t;
					r->n.t.duration_ticks = 100 + x % 1000;
					r->n.t.k = (uint16_t)(1 + x % 3);
					r->n.t.n = 4;
					r->n.t.type = q->i % 2 ? (uint32_t)m->str_thermal : 0;
					q->t = t;
					rc = nxp_ntff_writer_throttle(w, q->qid, &r->n.t);
					break;
				}
				case NXP_QUEUE_ERROR: {
					uint64_t t = q->t + 700 + x % 300;
					r = add(m, q->kind, q->qid, t);
					r->n.e.tick = t;
					r->n.e.error_type_id = (int32_t)q->i + 40;
					r->n.e.type = (uint8_t)(q->i % 3);
					r->n.e.description = (uint32_t)m->str_desc;
					r->n.e.metadata = 0xdeadbeef00000000ull | q->i;
					q->t = t;
					rc = nxp_ntff_writer_error(w, q->qid, &r->n.e);
					break;
				}
				case NXP_QUEUE_EXECUTION: {
					uint64_t t = q->t + 5000 * q->i;
					r = add(m, q->kind, q->qid, t);
					r->n.x.start_tick = t;
					r->n.x.end_tick = t + 4000;
					r->n.x.execution_index = (int32_t)q->i;
					r->n.x.num_subgraphs = spec->pcores;
					r->n.x.neff_name = (uint32_t)m->str_neff;
					r->n.x.row_count = 1000 + q->i;
					q->t = t;
					rc = nxp_ntff_writer_execution(w, q->qid, &r->n.x);
					break;
				}
				default: {
					uint64_t t = q->i ? 1000000 : 5;
					r = add(m, q->kind, q->qid, t);
					r->n.b.tick = t;
					r->n.b.is_stop = (uint8_t)(q->i != 0);
					rc = nxp_ntff_writer_tpb(w, q->qid, &r->n.b);
					break;
				}
				}
				if (rc)
					die("writer append");
			}
		}
	}
	if (nxp_ntff_writer_finish(w))
		die("finish");
	nxp_ntff_writer_close(w);
}

void fxn_model_free(fxn_model *m)
{
	free(m->r);
	memset(m, 0, sizeof(*m));
}

static int cmp_rec(const void *a, const void *b)
{
	const fxn_rec *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->qid != y->qid)
		return x->qid < y->qid ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t fxn_sorted(const fxn_model *m, int kind, int (*keep)(const fxn_model *, const fxn_rec *, void *), void *arg,
		  fxn_rec **out)
{
	fxn_rec *v = malloc((m->n ? m->n : 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->r[i].kind == kind && (!keep || keep(m, &m->r[i], arg)))
			v[n++] = m->r[i];
	qsort(v, n, sizeof(*v), cmp_rec);
	*out = v;
	return n;
}

void *fxn_neff(const uint8_t uuid[16], size_t *len)
{
	const fx_member *mem;
	size_t n = fx_std_members(&mem);
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	o.name = "fixture";
	memcpy(o.uuid, uuid, 16);
	nxp_neff_writer *w;
	if (nxp_neff_writer_open(&w, &o, NULL) != NXP_OK)
		die("neff writer_open");
	for (size_t i = 0; i < n; i++) {
		size_t l = mem[i].len ? mem[i].len : (mem[i].data ? strlen(mem[i].data) : 0);
		if (nxp_neff_writer_add(w, mem[i].path, mem[i].data, l) != NXP_OK)
			die(mem[i].path);
	}
	void *data;
	if (nxp_neff_writer_save_memory(w, &data, len) != NXP_OK)
		die("neff save_memory");
	nxp_neff_writer_close(w);
	return data;
}

size_t fxn_sections(const uint8_t *img, size_t len, fxn_section *out, size_t max)
{
	size_t n = 0;
	uint64_t off = NTFF_FILE_HEADER_SIZE;
	while (off + NTFF_SECTION_HEADER_SIZE <= len && n < max) {
		if (memcmp(img + off, NTFF_FOOTER_MAGIC, 8) == 0)
			break;
		ntff_section_header h;
		if (ntff_section_header_decode(img + off, &h, off, NULL))
			break;
		out[n].offset = off;
		out[n].kind = h.kind;
		out[n].queue = h.queue;
		out[n].stored_length = h.stored_length;
		n++;
		off += NTFF_SECTION_HEADER_SIZE + h.stored_length;
	}
	return n;
}

void fxn_fix_section_crc(uint8_t *img, uint64_t off)
{
	ntff_st32(img + off + 76, ntff_crc32(img + off, 76));
}

int fxn_open(fxn_pair *o, const void *neff, size_t neff_len, const void *ntff, size_t ntff_len, int kind,
	     uint32_t flags, nxp_status *st)
{
	memset(o, 0, sizeof(*o));
	if (kind == FXN_SRC_MEMORY) {
		if (nxp_source_open_memory(&o->neff, neff, neff_len, NULL) ||
		    nxp_source_open_memory(&o->ntff, ntff, ntff_len, NULL))
			die("source");
	} else {
		o->neff = tu_chunky_source(neff, neff_len, 0);
		o->ntff = tu_chunky_source(ntff, ntff_len, kind == FXN_SRC_CHUNKY);
		if (!o->neff || !o->ntff)
			die("chunky source");
	}
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	po.flags = flags;
	int rc = nxp_profile_open(&o->p, o->neff, o->ntff, &po, st);
	if (rc)
		fxn_close(o);
	return rc;
}

void fxn_close(fxn_pair *o)
{
	nxp_profile_close(o->p);
	nxp_source_close(o->neff);
	nxp_source_close(o->ntff);
	memset(o, 0, sizeof(*o));
}
