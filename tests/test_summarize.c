/* SPDX-License-Identifier: MIT */
/* nxp_profile_summarize(): profiles built here with the NEFF and NTFF writers,
 * summarised, and checked field by field against an independent computation
 * from the cursors (every record in memory, intervals sorted and merged
 * naively).  LNC=1 and LNC=2, trn1 and trn2, with and without TPB and HLO
 * statistics, byte sources in tiny chunks, misuse and corrupt input. */
#include "neff_internal.h"
#include "summary_priv.h"
#include "summary_feed.h"
#include "columnar/columnar_priv.h"
#include "testutil.h"

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ck_assert_near(a, b)                                                                               \
	do {                                                                                               \
		double a_ = (a), b_ = (b);                                                                 \
		ck_assert_msg(fabs(a_ - b_) <= 1e-9 * fmax(1e-9, fabs(b_)), "%s = %.17g, expected %.17g", #a, \
			      a_, b_);                                                                     \
	} while (0)

/* ------------------------------------------------------------------------ */
/* Profile builder */

typedef struct spec {
	const char *arch;
	int pcores;
	unsigned seed;
	int n_instr;   /* notes per instruction queue */
	int n_xfer;    /* transfers per DMA queue */
	int tpb;       /* write TPB start/stop */
	int hlo;       /* write hlo_stats.json */
	int64_t tpn;   /* ticks per ns */
	int compress;
	int one_class; /* 0: DMA packets of every class; 1 + c: all of class c (0 static, 1 software, 2 hardware dynamic) */
} spec;

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

#define SBUF 0x1000u
#define PSUM 0x2000000u
#define HBM 0x10000000u

static void enc(uint8_t *out, unsigned opcode, uint16_t parts, uint16_t cols, uint8_t flags, uint32_t src,
		const char *sdt, uint32_t dst, const char *ddt)
{
	nxp_neff_instruction in;
	memset(&in, 0, sizeof(in));
	in.struct_size = sizeof(in);
	in.opcode_num = opcode;
	in.partitions = parts;
	in.active_cols = cols;
	in.flags = flags;
	in.src.address = src;
	in.src.dtype = (uint8_t)nxp_dtype_from_name(sdt);
	in.src.step_elem[0] = 1;
	in.src.num_elem[0] = 256;
	in.src.num_elem[1] = 1;
	in.src.num_elem[2] = 1;
	in.dst.address = dst;
	in.dst.dtype = (uint8_t)nxp_dtype_from_name(ddt);
	in.dst.step_elem[0] = 1;
	in.dst.num_elem[0] = 128;
	in.dst.num_elem[1] = 1;
	in.dst.num_elem[2] = 1;
	ck_assert_int_eq(nxp_instruction_encode(&in, out), NXP_OK);
}

#define PROG_LEN 6
static const char *const engine_bin[NXP_ENGINE_COUNT] = {"pe.bin", "dve.bin", "act.bin", "pool.bin", "sp.bin"};

/* Six instructions per engine: compute, set-up, DMA-trigger, unknown opcodes. */
static void program(int engine, uint8_t out[PROG_LEN * 64])
{
	uint8_t *p = out;
	switch (engine) {
	case NXP_ENGINE_TENSOR:
		enc(p, 0x01, 128, 0, 0, SBUF, "bf16", PSUM, "fp32");
		enc(p + 64, 0x02, 128, 128, 0, SBUF, "bf16", PSUM, "fp32");
		enc(p + 128, 0x02, 64, 32, 0, SBUF, "fp8_e4m3", PSUM, "fp32");
		enc(p + 192, 0x02, 128, 128, 0x2, SBUF, "bf16", PSUM, "bf16"); /* transpose */
		enc(p + 256, 0x02, 128, 64, 0, SBUF, "fp32", PSUM, "fp32");
		enc(p + 320, 0xA4, 0, 0, 0, SBUF, "none", SBUF, "none"); /* NOP: set-up */
		break;
	case NXP_ENGINE_SCALAR:
		enc(p, 0x21, 128, 0, 0, PSUM, "fp32", SBUF, "bf16"); /* ACTIVATE: PSUM -> SBUF */
		enc(p + 64, 0xA4, 0, 0, 0, SBUF, "none", SBUF, "none");
		enc(p + 128, 0xB8, 128, 0, 0, HBM, "bf16", SBUF, "bf16"); /* DMA trigger */
		enc(p + 192, 0x21, 64, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 256, 0x23, 1, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 320, 0x21, 128, 0, 0, PSUM, "fp32", SBUF, "bf16");
		break;
	case NXP_ENGINE_VECTOR:
		enc(p, 0x41, 128, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 64, 0x46, 128, 0, 0, PSUM, "fp32", SBUF, "fp32");
		enc(p + 128, 0x43, 128, 0, 0, SBUF, "bf16", HBM + 0x100, "bf16"); /* compute writing HBM */
		enc(p + 192, 0x41, 64, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 256, 0x49, 128, 0, 0, SBUF, "none", SBUF, "bf16");
		enc(p + 320, 0xA5, 1, 0, 0, SBUF, "none", SBUF, "none"); /* WRITE: set-up */
		break;
	case NXP_ENGINE_GPSIMD:
		enc(p, 0x77, 1, 0, 0, SBUF, "bf16", SBUF, "bf16"); /* unknown opcode */
		enc(p + 64, 0x43, 128, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 128, 0x45, 128, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 192, 0x77, 1, 0, 0, SBUF, "bf16", SBUF, "bf16");
		enc(p + 256, 0xC1, 1, 0, 0, HBM, "bf16", SBUF, "bf16"); /* DMA trigger */
		enc(p + 320, 0x42, 128, 0, 0, SBUF, "bf16", SBUF, "bf16");
		break;
	default:
		enc(p, 0xA0, 1, 0, 0, SBUF, "none", SBUF, "none"); /* EVENT_SEMAPHORE */
		enc(p + 64, 0xB8, 128, 0, 0, SBUF, "bf16", HBM, "bf16");
		enc(p + 128, 0xA5, 1, 0, 0, SBUF, "none", SBUF, "none");
		enc(p + 192, 0xB8, 128, 0, 0, HBM, "bf16", SBUF, "bf16");
		enc(p + 256, 0xA4, 0, 0, 0, SBUF, "none", SBUF, "none");
		enc(p + 320, 0x46, 128, 0, 0, SBUF, "bf16", SBUF, "bf16");
		break;
	}
}

static void make_neff(const spec *sp, const uint8_t uuid[16], const char *path)
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	memcpy(o.uuid, uuid, 16);
	o.name = "summary-test";
	o.lnc_size = (uint32_t)sp->pcores;
	nxp_neff_writer *w;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &o, NULL), NXP_OK);
	char kelf[512] = "{\"graphs\":[", buf[2048], name[64];
	for (int c = 0; c < sp->pcores; c++) {
		snprintf(buf, sizeof(buf), "%s{\"definition\":\"sg%02d/def.json\",\"name\":\"sg%02d\"}", c ? "," : "", c,
			 c);
		strcat(kelf, buf);
	}
	strcat(kelf, "],\"version\":\"0.5\",\"target\":\"*\"}");
	ck_assert_int_eq(nxp_neff_writer_add(w, "kelf-0.json", kelf, strlen(kelf)), NXP_OK);
	if (sp->hlo) {
		static const char hlo[] = "{\"model_flops\": 123456789}";
		ck_assert_int_eq(nxp_neff_writer_add(w, "hlo_stats.json", hlo, strlen(hlo)), NXP_OK);
	}
	static uint8_t weights[4096];
	for (int c = 0; c < sp->pcores; c++) {
		snprintf(buf, sizeof(buf),
			 "{\"name\":\"sg%02d\",\"var\":{"
			 "\"IN\":{\"type\":\"input\",\"var_id\":0,\"size\":%d},"
			 "\"W0\":{\"type\":\"file\",\"var_id\":1,\"size\":4096,\"file_name\":\"w0.bin\"},"
			 "\"OUT\":{\"type\":\"output\",\"var_id\":2,\"size\":2048}},"
			 "\"dma_queue\":{\"q_in\":{\"type\":\"in\",\"num_queues\":2},"
			 "\"q_w\":{\"type\":\"data\",\"num_queues\":1},\"q_out\":{\"type\":\"out\",\"num_queues\":1}},"
			 "\"pe_instr\":\"pe.bin\",\"dve_instr\":\"dve.bin\",\"act_instr\":\"act.bin\","
			 "\"pool_instr\":\"pool.bin\",\"sp_instr\":\"sp.bin\"}",
			 c, 1000 + c);
		snprintf(name, sizeof(name), "sg%02d/def.json", c);
		ck_assert_int_eq(nxp_neff_writer_add(w, name, buf, strlen(buf)), NXP_OK);
		snprintf(name, sizeof(name), "sg%02d/w0.bin", c);
		ck_assert_int_eq(nxp_neff_writer_add(w, name, weights, sizeof(weights)), NXP_OK);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			uint8_t prog[PROG_LEN * 64];
			program(e, prog);
			snprintf(name, sizeof(name), "sg%02d/%s", c, engine_bin[e]);
			ck_assert_int_eq(nxp_neff_writer_add(w, name, prog, sizeof(prog)), NXP_OK);
		}
	}
	ck_assert_int_eq(nxp_neff_writer_save(w, path), NXP_OK);
	nxp_neff_writer_close(w);
}

static void make_ntff(const spec *sp, const uint8_t uuid[16], const char *path)
{
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, uuid, 16);
	info.arch = sp->arch;
	info.ticks_per_nanosec = sp->tpn;
	info.num_physical_cores = sp->pcores;
	info.tensor_engine_clock_freq = 9.9; /* informational only: must not be used */
	info.neuroncore_clock_freq = 9.9;
	nxp_ntff_writer_options o;
	nxp_ntff_writer_options_init(&o);
	o.records_per_section = 7; /* many sections */
	if (sp->compress)
		o.flags |= NXP_NTFF_WRITE_COMPRESS;
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, &o, NULL), NXP_OK);
	uint32_t r = sp->seed * 2654435761u + 1;
	int64_t thermal = nxp_ntff_writer_string(w, "thermal"), power = nxp_ntff_writer_string(w, "power");
	ck_assert_int_gt(thermal, 0);
	uint64_t last = 0;
	nxp_ntff_queue q;
	for (int c = 0; c < sp->pcores; c++) {
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			nxp_ntff_queue_init(&q);
			q.kind = NXP_QUEUE_INSTRUCTION;
			q.engine = e;
			q.pcore_idx = c;
			int32_t id = nxp_ntff_writer_add_queue(w, &q);
			ck_assert_int_ge(id, 0);
			uint64_t t = 1000 + rnd(&r) % 500;
			for (int i = 0; i < sp->n_instr; i++) {
				nxp_ntff_instruction_note n = {0};
				uint32_t dur = 1 + rnd(&r) % 400;
				n.start_tick = t;
				n.end_tick = t + dur;
				n.pc = (uint32_t)(rnd(&r) % 11 == 0 ? PROG_LEN + 3 : (unsigned)i % PROG_LEN);
				n.wait_ticks = rnd(&r) % 3 == 0 ? rnd(&r) % (dur + 60) : 0;
				n.execution_index = 0;
				ck_assert_int_eq(nxp_ntff_writer_instruction(w, id, &n), NXP_OK);
				if (n.end_tick > last)
					last = n.end_tick;
				t += rnd(&r) % (dur + 120); /* overlaps and gaps */
			}
		}
		static const struct {
			const char *name;
			int idx;
			uint16_t flags;
			uint8_t src, dst;
		} qs[] = {
			{"q_in", 0, 0, NXP_MEMORY_HBM, NXP_MEMORY_SBUF},
			{"q_in", 1, NXP_DMA_SOFTWARE_DYNAMIC, NXP_MEMORY_HBM, NXP_MEMORY_SBUF},
			{"q_w", 0, NXP_DMA_HARDWARE_DYNAMIC, NXP_MEMORY_HBM, NXP_MEMORY_SBUF},
			{"q_out", 0, 0, NXP_MEMORY_SBUF, NXP_MEMORY_HBM},
		};
		uint32_t agg = 1;
		for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
			nxp_ntff_queue_init(&q);
			q.kind = NXP_QUEUE_DMA;
			q.pcore_idx = c;
			q.name = qs[k].name;
			q.queue_idx = qs[k].idx;
			q.engine_idx = (int32_t)k / 2;
			int32_t id = nxp_ntff_writer_add_queue(w, &q);
			ck_assert_int_ge(id, 0);
			uint64_t t = 900 + rnd(&r) % 700;
			for (int x = 0; x < sp->n_xfer; x++, agg++) {
				int packets = 1 + (int)(rnd(&r) % 4);
				for (int pk = 0; pk < packets; pk++) {
					nxp_ntff_dma_note n = {0};
					uint32_t dur = 10 + rnd(&r) % 300;
					n.start_tick = t;
					n.end_tick = t + dur;
					/* Ids restart per queue: a transfer is (queue, id). */
					n.packet_aggregation_id = agg;
					n.packet_idx = (uint32_t)pk;
					n.read_bytes = 512u * (1 + rnd(&r) % 64);
					n.write_bytes = rnd(&r) % 5 == 0 ? n.read_bytes / 2 : n.read_bytes;
					/* Only some packets of the dynamic queues are flagged dynamic. */
					n.flags = rnd(&r) % 4 ? qs[k].flags : 0;
					if (sp->one_class) /* (the queue types are static) */
						n.flags = (uint16_t[]){0, NXP_DMA_SOFTWARE_DYNAMIC,
								       NXP_DMA_HARDWARE_DYNAMIC}[sp->one_class - 1];
					n.source = qs[k].src;
					n.dest = qs[k].dst;
					n.execution_index = 0;
					ck_assert_int_eq(nxp_ntff_writer_dma(w, id, &n), NXP_OK);
					if (n.end_tick > last)
						last = n.end_tick;
					t += rnd(&r) % (dur + 40);
				}
				t += rnd(&r) % 200;
			}
		}
		/* Semaphores. */
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_SEMAPHORE;
		q.pcore_idx = c;
		int32_t sid = nxp_ntff_writer_add_queue(w, &q);
		for (int i = 0; i < 9; i++) {
			nxp_ntff_semaphore_note n = {0};
			n.tick = 950 + (uint64_t)i * 300;
			n.semaphore_idx = (uint16_t)i;
			n.operation = 1;
			n.value = i;
			ck_assert_int_eq(nxp_ntff_writer_semaphore(w, sid, &n), NXP_OK);
		}
		/* Throttle windows: overlapping, two types. */
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_THROTTLE;
		q.pcore_idx = c;
		int32_t tid = nxp_ntff_writer_add_queue(w, &q);
		uint64_t tt = 1200;
		for (int i = 0; i < 6; i++) {
			nxp_ntff_throttle_note n = {0};
			n.tick = tt;
			n.duration_ticks = 100 + rnd(&r) % 900;
			if (i == 5) /* runs past the end of the trace (and its TPB stop) */
				n.duration_ticks += 1000000;
			n.k = (uint16_t)(1 + i % 3);
			n.n = 4;
			n.type = (uint32_t)(i % 2 ? power : thermal);
			ck_assert_int_eq(nxp_ntff_writer_throttle(w, tid, &n), NXP_OK);
			tt += rnd(&r) % 600;
		}
	}
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_ERROR;
	int32_t eid = nxp_ntff_writer_add_queue(w, &q);
	nxp_ntff_error_note en = {0};
	en.tick = 700; /* before every other record: widens the span */
	en.type = 2;
	ck_assert_int_eq(nxp_ntff_writer_error(w, eid, &en), NXP_OK);
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_EXECUTION;
	int32_t xid = nxp_ntff_writer_add_queue(w, &q);
	nxp_ntff_execution_note xn = {0};
	xn.start_tick = 800;
	xn.end_tick = (last > 900 ? last : 900) + 10;
	xn.num_subgraphs = sp->pcores;
	xn.row_count = -1;
	ck_assert_int_eq(nxp_ntff_writer_execution(w, xid, &xn), NXP_OK);
	if (sp->tpb) {
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_TPB;
		int32_t bid = nxp_ntff_writer_add_queue(w, &q);
		nxp_ntff_tpb_note b = {0};
		b.tick = 820;
		ck_assert_int_eq(nxp_ntff_writer_tpb(w, bid, &b), NXP_OK);
		b.tick = (last > 900 ? last : 900) + 5;
		b.is_stop = 1;
		ck_assert_int_eq(nxp_ntff_writer_tpb(w, bid, &b), NXP_OK);
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
}

typedef struct fixture {
	char *dir, *neff, *ntff;
} fixture;

static fixture build(const spec *sp)
{
	fixture f;
	f.dir = tu_tmpdir();
	f.neff = tu_path(f.dir, "p.neff");
	f.ntff = tu_path(f.dir, "p.ntff");
	uint8_t uuid[16];
	for (int i = 0; i < 16; i++)
		uuid[i] = (uint8_t)(sp->seed * 31 + (unsigned)i);
	make_neff(sp, uuid, f.neff);
	make_ntff(sp, uuid, f.ntff);
	return f;
}

static void fixture_free(fixture *f)
{
	unlink(f->neff);
	unlink(f->ntff);
	rmdir(f->dir);
	free(f->neff);
	free(f->ntff);
	free(f->dir);
}

static nxp_profile *open_profile(const fixture *f)
{
	nxp_profile *p;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_open_path(&p, f->neff, f->ntff, NULL, &st);
	ck_assert_msg(rc == NXP_OK, "open: %s", st.message);
	return p;
}

/* ------------------------------------------------------------------------ */
/* The independent computation */

typedef struct iv {
	int64_t lo, hi;
} iv;

typedef struct ivs {
	iv *v;
	size_t n, cap;
} ivs;

static void ivs_add(ivs *s, int64_t lo, int64_t hi)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		ck_assert_ptr_nonnull(s->v);
	}
	s->v[s->n++] = (iv){lo, hi};
}

static int iv_cmp(const void *a, const void *b)
{
	const iv *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sort everything, then merge. */
static int64_t union_len(ivs *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), iv_cmp);
	int64_t total = 0, lo = 0, hi = 0;
	int open = 0;
	for (size_t k = 0; k < s->n; k++) {
		if (s->v[k].hi <= s->v[k].lo)
			continue;
		if (open && s->v[k].lo <= hi) {
			if (s->v[k].hi > hi)
				hi = s->v[k].hi;
			continue;
		}
		if (open)
			total += hi - lo;
		lo = s->v[k].lo;
		hi = s->v[k].hi;
		open = 1;
	}
	return total + (open ? hi - lo : 0);
}

typedef struct expect {
	int64_t total_ns, rows;
	int64_t eng_count[NXP_ENGINE_COUNT], eng_time[NXP_ENGINE_COUNT], eng_active[NXP_ENGINE_COUNT];
	int64_t matmul, activate, activate_time;
	int64_t hw_flops, tr_flops, adj_hw, adj_tr;
	int64_t hbm_read, hbm_write, sbuf_read, sbuf_write, psum_read, psum_write, prsw, prsw_count;
	int64_t pk_count, pk_time, pk_bytes, xfer_count, xfer_time;
	int64_t cls_count[3], cls_bytes[3], cls_active[3], dyn_active, dma_active;
	int64_t in_q, out_q, w_q;
	int64_t exec_ns, total_active;
	/* opcode rows: [engine][opcode] */
	int64_t op_count[NXP_ENGINE_COUNT][257], op_time[NXP_ENGINE_COUNT][257], op_active[NXP_ENGINE_COUNT][257];
	/* throttle: pcore x {power, thermal} */
	int64_t thr_active[2][2];
	double thr_loss[2][2];
	int thr_present[2][2];
} expect;

typedef struct pkt {
	int64_t pcore, eidx, qidx, agg, lo, hi;
	const char *name;
} pkt;

static int pkt_cmp(const void *a, const void *b)
{
	const pkt *x = a, *y = b;
	if (x->pcore != y->pcore)
		return x->pcore < y->pcore ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->qidx != y->qidx)
		return x->qidx < y->qidx ? -1 : 1;
	if (x->agg != y->agg)
		return x->agg < y->agg ? -1 : 1;
	return 0;
}

static void compute(nxp_profile *p, expect *x)
{
	memset(x, 0, sizeof(*x));
	const nxp_neff *neff = nxp_profile_neff(p);
	nxp_metadata md = {.struct_size = sizeof(md)};
	ck_assert_int_eq(nxp_profile_get_metadata(p, &md), NXP_OK);
	int64_t span_lo = INT64_MAX, span_hi = INT64_MIN, ex_lo = INT64_MAX, ex_hi = INT64_MIN;
	ivs all = {0}, eng[NXP_ENGINE_COUNT] = {{0}}, dma = {0}, cls[3] = {{0}}, dyn = {0};
	ivs *ops = calloc(NXP_ENGINE_COUNT * 257, sizeof(*ops)); /* 256: pc not in the NEFF */
	nxp_cursor *c;
	int rc;

	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction in = {.struct_size = sizeof(in)};
	while ((rc = nxp_cursor_next_instruction(c, &in)) == NXP_OK) {
		x->rows++;
		span_lo = in.start_ts < span_lo ? in.start_ts : span_lo;
		span_hi = in.end_ts > span_hi ? in.end_ts : span_hi;
		int e = in.engine_id;
		x->eng_count[e]++;
		x->eng_time[e] += in.duration_ns;
		int64_t lo = in.start_ts + in.evt_wait_time_ns;
		if (lo > in.end_ts)
			lo = in.end_ts;
		ivs_add(&eng[e], lo, in.end_ts);
		ivs_add(&all, lo, in.end_ts);
		int op = (in.flags & NXP_INSTRUCTION_PC_UNKNOWN) ? 256 : (int)in.opcode_num;
		ivs_add(&ops[e * 257 + op], lo, in.end_ts);
		x->op_count[e][op]++;
		x->op_time[e][op] += in.duration_ns;
		const nxp_static_instr *si = (in.flags & NXP_INSTRUCTION_PC_UNKNOWN)
						     ? NULL
						     : nxp_neff_static_instr(neff, (size_t)in.pcore_idx, e, (uint64_t)in.pc);
		if (!si || !si->is_setup) {
			ex_lo = in.start_ts < ex_lo ? in.start_ts : ex_lo;
			ex_hi = in.end_ts > ex_hi ? in.end_ts : ex_hi;
		}
		if (si && si->is_matmul)
			x->matmul++;
		if (si && si->is_activate) {
			x->activate++;
			x->activate_time += in.duration_ns;
		}
		x->hw_flops += in.raw_flops + in.flops_transpose;
		x->tr_flops += in.flops_transpose;
		x->adj_hw += in.adjusted_flops + in.adjusted_flops_transpose;
		x->adj_tr += in.adjusted_flops_transpose;
		const char *on = nxp_opcode_name(in.opcode_num);
		if (!(on && strstr(on, "DMA"))) { /* DMA-trigger bytes are the packets' */
			x->hbm_read += in.hbm_read_bytes;
			x->hbm_write += in.hbm_write_bytes;
		}
		x->sbuf_read += in.sbuf_read_bytes;
		x->sbuf_write += in.sbuf_write_bytes;
		x->psum_read += in.psum_read_bytes;
		x->psum_write += in.psum_write_bytes;
		x->prsw += in.psum_read_sbuf_write_bytes;
		x->prsw_count += in.psum_read_sbuf_write_bytes > 0;
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);

	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
	nxp_dma_packet d = {.struct_size = sizeof(d)};
	pkt *pk = NULL;
	size_t npk = 0;
	while ((rc = nxp_cursor_next_dma_packet(c, &d)) == NXP_OK) {
		x->rows++;
		span_lo = d.start_ts < span_lo ? d.start_ts : span_lo;
		span_hi = d.end_ts > span_hi ? d.end_ts : span_hi;
		ex_lo = d.start_ts < ex_lo ? d.start_ts : ex_lo;
		ex_hi = d.end_ts > ex_hi ? d.end_ts : ex_hi;
		int k = !strcmp(d.queue_type, "software_dynamic") ? 1 : !strcmp(d.queue_type, "hardware_dynamic") ? 2 : 0;
		x->pk_count++;
		x->pk_time += d.duration_ns;
		x->pk_bytes += d.transfer_bytes;
		x->cls_count[k]++;
		x->cls_bytes[k] += d.transfer_bytes;
		ivs_add(&cls[k], d.start_ts, d.end_ts);
		if (k)
			ivs_add(&dyn, d.start_ts, d.end_ts);
		ivs_add(&dma, d.start_ts, d.end_ts);
		ivs_add(&all, d.start_ts, d.end_ts);
		if (!strcmp(d.queue_type, "input"))
			x->in_q += d.transfer_bytes;
		if (!strcmp(d.queue_type, "output"))
			x->out_q += d.transfer_bytes;
		if (!strcmp(d.queue_type, "data"))
			x->w_q += d.transfer_bytes;
		if (!strcmp(d.source, "hbm"))
			x->hbm_read += d.read_bytes;
		if (!strcmp(d.dest, "hbm"))
			x->hbm_write += d.write_bytes;
		pk = realloc(pk, (npk + 1) * sizeof(*pk));
		pk[npk++] = (pkt){d.pcore_idx, d.engine_idx, d.queue_idx, d.packet_aggregation_id, d.start_ts, d.end_ts,
				  d.queue_name};
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);
	/* Transfers: distinct (queue, aggregation id), by sorting. */
	if (npk)
		qsort(pk, npk, sizeof(*pk), pkt_cmp);
	for (size_t k = 0; k < npk;) {
		size_t j = k;
		int64_t lo = pk[k].lo, hi = pk[k].hi;
		while (j < npk && !pkt_cmp(&pk[j], &pk[k])) {
			lo = pk[j].lo < lo ? pk[j].lo : lo;
			hi = pk[j].hi > hi ? pk[j].hi : hi;
			j++;
		}
		x->xfer_count++;
		x->xfer_time += hi - lo;
		k = j;
	}
	free(pk);

	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_SEMAPHORE_UPDATE, NULL, NULL), NXP_OK);
	nxp_semaphore_update su = {.struct_size = sizeof(su)};
	while ((rc = nxp_cursor_next_semaphore_update(c, &su)) == NXP_OK) {
		x->rows++;
		span_lo = su.timestamp < span_lo ? su.timestamp : span_lo;
		span_hi = su.timestamp > span_hi ? su.timestamp : span_hi;
	}
	nxp_cursor_close(c);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_THROTTLE, NULL, NULL), NXP_OK);
	nxp_throttle th = {.struct_size = sizeof(th)};
	ivs thr[2][2] = {{{0}}};
	while ((rc = nxp_cursor_next_throttle(c, &th)) == NXP_OK) {
		x->rows++;
		span_lo = th.timestamp < span_lo ? th.timestamp : span_lo;
		span_hi = th.timestamp > span_hi ? th.timestamp : span_hi;
		int t = !strcmp(th.type, "thermal");
		int64_t lo = th.timestamp, hi = th.timestamp + th.duration;
		if (md.tpb_start_ts != INT64_MIN && md.tpb_stop_ts != INT64_MIN) { /* clipped to the TPB range */
			lo = lo < md.tpb_start_ts ? md.tpb_start_ts : lo;
			hi = hi > md.tpb_stop_ts ? md.tpb_stop_ts : hi;
		}
		if (hi > lo) {
			ivs_add(&thr[th.pcore_idx][t], lo, hi);
			x->thr_loss[th.pcore_idx][t] += (double)(hi - lo) * (1.0 - (double)th.k / th.n);
		}
		x->thr_present[th.pcore_idx][t] = 1;
	}
	nxp_cursor_close(c);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_ERROR, NULL, NULL), NXP_OK);
	nxp_error_record er = {.struct_size = sizeof(er)};
	while ((rc = nxp_cursor_next_error(c, &er)) == NXP_OK) {
		x->rows++;
		span_lo = er.timestamp < span_lo ? er.timestamp : span_lo;
		span_hi = er.timestamp > span_hi ? er.timestamp : span_hi;
	}
	nxp_cursor_close(c);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_EXECUTION, NULL, NULL), NXP_OK);
	nxp_execution xr = {.struct_size = sizeof(xr)};
	while ((rc = nxp_cursor_next_execution(c, &xr)) == NXP_OK) {
		x->rows++;
		span_lo = xr.execution_start_ts < span_lo ? xr.execution_start_ts : span_lo;
		span_hi = xr.execution_end_ts > span_hi ? xr.execution_end_ts : span_hi;
	}
	nxp_cursor_close(c);

	if (md.tpb_start_ts != INT64_MIN && md.tpb_stop_ts != INT64_MIN)
		x->total_ns = md.tpb_stop_ts - md.tpb_start_ts;
	else
		x->total_ns = span_hi - span_lo;
	x->exec_ns = ex_hi - ex_lo;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		x->eng_active[e] = union_len(&eng[e]);
		free(eng[e].v);
		for (int o = 0; o < 257; o++) {
			x->op_active[e][o] = union_len(&ops[e * 257 + o]);
			free(ops[e * 257 + o].v);
		}
	}
	free(ops);
	for (int k = 0; k < 3; k++) {
		x->cls_active[k] = union_len(&cls[k]);
		free(cls[k].v);
	}
	x->dyn_active = union_len(&dyn);
	x->dma_active = union_len(&dma);
	x->total_active = union_len(&all);
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++) {
			x->thr_active[a][b] = union_len(&thr[a][b]);
			free(thr[a][b].v);
		}
	free(dyn.v);
	free(dma.v);
	free(all.v);
}

/* ------------------------------------------------------------------------ */

static nxp_summary_field F(const nxp_summary *s, const char *name)
{
	nxp_summary_field f = {.struct_size = sizeof(f)};
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	ck_assert_msg(f.present, "%s absent", name);
	return f;
}
#define I(name) (F(s, name).i)
#define D(name) (F(s, name).f)
#define SEC(ns) ((double)(ns) / 1e9)

static int is_present(const nxp_summary *s, const char *name)
{
	nxp_summary_field f = {.struct_size = sizeof(f)};
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	return f.present;
}

static void check(const nxp_summary *s, const expect *x, const spec *sp, nxp_profile *p)
{
	static const char *const en[NXP_ENGINE_COUNT] = {"tensor", "vector", "scalar", "gpsimd", "sync"};
	char name[96];
	ck_assert_near(D("total_time"), SEC(x->total_ns));
	ck_assert_int_eq(I("total_row_count"), x->rows);
	nxp_metadata md = {.struct_size = sizeof(md)};
	ck_assert_int_eq(nxp_profile_get_metadata(p, &md), NXP_OK);
	ck_assert_int_eq(I("trace_count"), md.trace_count);
	ck_assert_int_eq(I("event_count"), md.event_count);
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		ck_assert_int_gt(x->eng_count[e], 0);
		snprintf(name, sizeof(name), "%s_engine_instruction_count", en[e]);
		ck_assert_int_eq(I(name), x->eng_count[e]);
		snprintf(name, sizeof(name), "%s_engine_instruction_time", en[e]);
		ck_assert_near(D(name), SEC(x->eng_time[e]));
		snprintf(name, sizeof(name), "%s_engine_active_time", en[e]);
		ck_assert_near(D(name), SEC(x->eng_active[e]));
		ck_assert(x->eng_active[e] < x->eng_time[e]); /* the fixture overlaps and waits */
		snprintf(name, sizeof(name), "%s_engine_active_time_percent", en[e]);
		ck_assert_near(D(name), (double)x->eng_active[e] / (double)x->total_ns);
	}
	ck_assert_int_eq(I("matmul_instruction_count"), x->matmul);
	ck_assert_int_gt(x->matmul, 0);
	ck_assert_int_eq(I("activate_instruction_count"), x->activate);
	ck_assert_near(D("activate_instruction_time"), SEC(x->activate_time));
	ck_assert_int_eq(I("hardware_flops"), x->hw_flops);
	ck_assert_int_eq(I("transpose_flops"), x->tr_flops);
	ck_assert_int_gt(x->tr_flops, 0);
	ck_assert_int_eq(I("adjusted_hardware_flops"), x->adj_hw);
	ck_assert_int_eq(I("adjusted_transpose_flops"), x->adj_tr);
	ck_assert_int_eq(I("hbm_read_bytes"), x->hbm_read);
	ck_assert_int_eq(I("hbm_write_bytes"), x->hbm_write);
	ck_assert_int_eq(I("sbuf_read_bytes"), x->sbuf_read);
	ck_assert_int_eq(I("sbuf_write_bytes"), x->sbuf_write);
	ck_assert_int_eq(I("psum_read_bytes"), x->psum_read);
	ck_assert_int_eq(I("psum_write_bytes"), x->psum_write);
	ck_assert_int_eq(I("psum_read_sbuf_write_bytes"), x->prsw);
	ck_assert_int_eq(I("psum_read_sbuf_write_count"), x->prsw_count);
	ck_assert_int_gt(x->prsw_count, 0);

	ck_assert_int_eq(I("dma_packet_count"), x->pk_count);
	ck_assert_near(D("dma_packet_time"), SEC(x->pk_time));
	ck_assert_int_eq(I("dma_transfer_total_bytes"), x->pk_bytes);
	ck_assert_int_eq(I("dma_transfer_count"), x->xfer_count);
	ck_assert_int_eq(x->xfer_count, (int64_t)sp->pcores * 4 * sp->n_xfer);
	ck_assert_near(D("dma_transfer_time"), SEC(x->xfer_time));
	ck_assert_near(D("dma_transfer_average_bytes"), (double)x->pk_bytes / (double)x->xfer_count);
	ck_assert_near(D("dma_active_time"), SEC(x->dma_active));
	ck_assert(x->dma_active < x->pk_time);
	ck_assert_near(D("dma_active_time_percent"), (double)x->dma_active / (double)x->total_ns);
	ck_assert_int_eq(I("static_dma_packet_count"), x->cls_count[0]);
	ck_assert_int_eq(I("software_dynamic_dma_packet_count"), x->cls_count[1]);
	ck_assert_int_eq(I("hardware_dynamic_dma_packet_count"), x->cls_count[2]);
	if (sp->one_class)
		ck_assert_int_eq(x->cls_count[sp->one_class - 1], x->pk_count);
	else {
		ck_assert_int_gt(x->cls_count[1], 0);
		ck_assert_int_gt(x->cls_count[2], 0);
	}
	ck_assert_int_eq(I("static_dma_size"), x->cls_bytes[0]);
	ck_assert_int_eq(I("software_dynamic_dma_size"), x->cls_bytes[1]);
	ck_assert_int_eq(I("hardware_dynamic_dma_size"), x->cls_bytes[2]);
	ck_assert_near(D("static_dma_active_time"), SEC(x->cls_active[0]));
	ck_assert_near(D("software_dynamic_dma_active_time"), SEC(x->cls_active[1]));
	ck_assert_near(D("hardware_dynamic_dma_active_time"), SEC(x->cls_active[2]));
	ck_assert_near(D("dynamic_dma_active_time"), SEC(x->dyn_active));
	ck_assert_near(D("dynamic_dma_active_time_percent"), (double)x->dyn_active / (double)x->total_ns);
	ck_assert_near(D("static_dma_packet_percent"), (double)x->cls_count[0] / (double)x->pk_count);
	ck_assert_near(D("dynamic_dma_packet_percent"), (double)(x->cls_count[1] + x->cls_count[2]) / (double)x->pk_count);
	ck_assert_near(D("software_dynamic_dma_size_percent"), (double)x->cls_bytes[1] / (double)x->pk_bytes);
	ck_assert_int_eq(I("input_queue_bytes"), x->in_q);
	ck_assert_int_eq(I("output_queue_bytes"), x->out_q);
	ck_assert_int_eq(I("weight_queue_bytes"), x->w_q);
	if (sp->one_class <= 1) { /* (a flagged packet has no queue bytes) */
		ck_assert_int_gt(x->in_q, 0);
		ck_assert_int_gt(x->w_q, 0);
	}
	ck_assert_int_eq(I("dma_queue_count"), 4 * sp->pcores);

	ck_assert_int_eq(I("weight_size_bytes"), 4096 * sp->pcores);
	int64_t inputs = sp->pcores == 1 ? 1000 : 2001;
	ck_assert_int_eq(I("inputs_and_weights_size_bytes"), inputs + 4096 * sp->pcores);
	ck_assert_int_eq(I("inputs_outputs_weights_size_bytes"), inputs + (4096 + 2048) * sp->pcores);
	if (sp->hlo)
		ck_assert_int_eq(I("model_flops"), 123456789);
	else
		ck_assert_int_eq(is_present(s, "model_flops"), 0);

	ck_assert_near(D("total_exec_time"), SEC(x->exec_ns));
	ck_assert_near(D("total_active_time"), SEC(x->total_active));
	ck_assert_near(D("total_active_time_percent"), (double)x->total_active / (double)x->total_ns);
	ck_assert(x->total_active <= x->total_ns);

	/* Hardware-dependent metrics with the arch table (metadata clocks ignored). */
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	ck_assert_int_eq(nxp_hardware_for_arch(sp->arch, &hw), NXP_OK);
	/* the peak counts the Tensor engine of every physical core of the LNC */
	double max_ops = 2.0 * 128 * 128 * hw.tensor_engine_clock_freq * 1e9 * sp->pcores;
	double t = SEC(x->total_ns);
	ck_assert_near(D("hfu_estimated_percent"), (double)x->hw_flops / (max_ops * t));
	ck_assert_near(D("mfu_inst_estimated_percent"), (double)(x->hw_flops - x->tr_flops) / (max_ops * t));
	ck_assert_near(D("mfu_estimated_percent"),
		       (sp->hlo ? 123456789.0 : (double)(x->hw_flops - x->tr_flops)) / (max_ops * t));
	double hbm = (double)(x->hbm_read + x->hbm_write);
	ck_assert_near(D("mbu_estimated_percent"), hbm / t / hw.hbm_bandwidth);
	ck_assert_near(D("mm_arithmetic_intensity"), (double)(x->hw_flops - x->tr_flops) / hbm);
	ck_assert_int_eq(I("neuroncore_cycle_count"), (int64_t)(t * hw.neuroncore_clock_freq * 1e9 + 0.5));
	for (const char *const *c = (const char *const[]){"cc_op_time", "cc_op_count", "cc_op_active_time_percent",
							   "cc_cores_instruction_count", NULL};
	     *c; c++)
		ck_assert_msg(!is_present(s, *c), "%s must be absent", *c);

	/* OpcodeSummary. */
	size_t rows = 0;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		for (int o = 0; o < 257; o++)
			rows += x->op_count[e][o] > 0;
	ck_assert_uint_eq(nxp_summary_opcode_count(s), rows);
	int64_t prev = -1;
	for (size_t k = 0; k < rows; k++) {
		nxp_opcode_summary r = {.struct_size = sizeof(r)};
		ck_assert_int_eq(nxp_summary_get_opcode(s, k, &r), NXP_OK);
		int e = nxp_engine_from_name(r.engine);
		int o = nxp_opcode_from_name(r.opcode);
		if (o < 0) { /* pc not in the NEFF: the cursor's name, last in its engine */
			ck_assert_str_eq(r.opcode, "unknown");
			o = 256;
		}
		ck_assert_int_ge(e, 0);
		ck_assert_int_gt(e * 257 + o, prev); /* engine then opcode order */
		prev = e * 257 + o;
		ck_assert_int_eq(r.instruction_count, x->op_count[e][o]);
		ck_assert_int_eq(r.instruction_time_ns, x->op_time[e][o]);
		ck_assert_int_eq(r.active_time_ns, x->op_active[e][o]);
		ck_assert_near(r.active_time_percent, (double)x->op_active[e][o] / (double)x->total_ns);
	}

	/* ThrottleSummary: (pcore, type) in order; "power" < "thermal". */
	size_t nt = 0;
	for (int c = 0; c < sp->pcores; c++)
		for (int ty = 0; ty < 2; ty++) {
			if (!x->thr_present[c][ty])
				continue;
			nxp_throttle_summary r = {.struct_size = sizeof(r)};
			ck_assert_int_eq(nxp_summary_get_throttle(s, nt++, &r), NXP_OK);
			ck_assert_int_eq(r.nc_idx, c);
			ck_assert_str_eq(r.throttle_type, ty ? "thermal" : "power");
			ck_assert_int_eq(r.throttle_active_time_ns, x->thr_active[c][ty]);
			ck_assert_near(r.throttle_active_time_percent, (double)x->thr_active[c][ty] / (double)x->total_ns);
			double u = 1.0 - x->thr_loss[c][ty] / (double)x->total_ns;
			ck_assert_near(r.max_achievable_util_with_throttling_percent, u < 0 ? 0 : u);
			if (sp->tpb) /* windows clipped to the TPB range: never more than the whole */
				ck_assert(r.throttle_active_time_percent <= 1.0);
		}
	ck_assert_uint_eq(nxp_summary_throttle_count(s), nt);
	ck_assert_uint_gt(nt, 0);
}

static void run_spec(const spec *sp)
{
	fixture f = build(sp);
	nxp_profile *p = open_profile(&f);
	expect *x = malloc(sizeof(*x));
	compute(p, x);
	nxp_summary *s = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &s, &st), NXP_OK);
	nxp_hardware used = {.struct_size = sizeof(used)};
	ck_assert_int_eq(nxp_summary_get_hardware(s, &used), NXP_OK);
	ck_assert_str_eq(used.arch, sp->arch);
	nxp_profile_close(p); /* the summary outlives the profile */
	p = open_profile(&f);
	check(s, x, sp, p);
	nxp_summary_close(s);
	nxp_profile_close(p);
	free(x);
	fixture_free(&f);
}

START_TEST(test_lnc1_trn1_tpb)
{
	spec sp = {"trn1", 1, 1, 400, 60, 1, 1, 1, 0, 0};
	run_spec(&sp);
}
END_TEST

START_TEST(test_lnc2_trn2_span)
{
	spec sp = {"trn2", 2, 2, 300, 40, 0, 0, 2, 1, 0};
	run_spec(&sp);
}
END_TEST

START_TEST(test_lnc2_inf2_tpb)
{
	spec sp = {"inf2", 2, 3, 250, 30, 1, 1, 1, 0, 0};
	run_spec(&sp);
}
END_TEST

/* The parallel pass (2 threads) and the export's fed pass (summary_feed.h:
 * the Instruction and DmaPacket streams drained in turn) give p's
 * one-thread summary bit for bit. */
static void same_passes(nxp_profile *p, const char *label)
{
	nxp_summary *ref = NULL, *s = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &ref, &st), NXP_OK);
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	o.threads = 2;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, &st), NXP_OK);
	char what[96];
	snprintf(what, sizeof(what), "%s, 2 threads", label);
	tu_summary_same(ref, s, what);
	nxp_summary_close(s);

	nxc_registry_init();
	nxp__sum_feed *f = NULL;
	ck_assert_int_eq(nxp__sum_feed_new(&f, p, &st), NXP_OK);
	nxp_table_options to;
	nxp_table_options_init(&to);
	static const char *const tables[] = {"Instruction", "DmaPacket"};
	const nxc_feeds feeds = {f, NULL};
	for (int k = 0; k < 2; k++) {
		struct ArrowArrayStream as;
		struct ArrowArray a;
		ck_assert_int_eq(nxc_open_stream_sum(&as, nxc_find_table(tables[k]), p, NULL, &to, NULL, &feeds, &st),
				 NXP_OK);
		while (as.get_next(&as, &a) == 0 && a.release)
			a.release(&a);
		as.release(&as);
	}
	ck_assert(nxp__sum_feed_ready(f));
	ck_assert_int_eq(nxp__sum_feed_summarize(f, &s, &st), NXP_OK);
	snprintf(what, sizeof(what), "%s, fed", label);
	tu_summary_same(ref, s, what);
	nxp_summary_close(s);
	nxp__sum_feed_free(f);
	nxp_summary_close(ref);
}

/* Every DMA packet of one class: its union is the DMA union (which the
 * pass keeps once while there is one class, summarize.c), also for a
 * dynamic class (the dynamic union); against the independent computation,
 * and every pass against the one-thread pass; then a profile of every class. */
START_TEST(test_one_dma_class)
{
	for (int c = 1; c <= 4; c++) {
		spec sp = {"trn2", 2, 30u + (unsigned)c, 150, 25, 1, 0, 1, 0, c % 4};
		run_spec(&sp);
		fixture f = build(&sp);
		nxp_profile *p = open_profile(&f);
		char label[32];
		snprintf(label, sizeof(label), "one_class %d", sp.one_class);
		same_passes(p, label);
		nxp_profile_close(p);
		fixture_free(&f);
	}
}
END_TEST

/* Engine active time equals the ActiveTime table (LNC=1: one pcore). */
START_TEST(test_matches_active_time_table)
{
	spec sp = {"trn1", 1, 4, 300, 30, 1, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	nxp_summary *s;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &s, NULL), NXP_OK);
	int64_t at[NXP_ENGINE_COUNT] = {0}, dma = 0;
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_ACTIVE_TIME, NULL, NULL), NXP_OK);
	nxp_active_time a = {.struct_size = sizeof(a)};
	int rc;
	while ((rc = nxp_cursor_next_active_time(c, &a)) == NXP_OK) {
		if (a.engine_id < 0)
			dma += a.duration_ns;
		else
			at[a.engine_id] += a.duration_ns;
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);
	static const char *const en[NXP_ENGINE_COUNT] = {"tensor", "vector", "scalar", "gpsimd", "sync"};
	char name[64];
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		snprintf(name, sizeof(name), "%s_engine_active_time", en[e]);
		ck_assert_near(D(name), SEC(at[e]));
	}
	ck_assert_near(D("dma_active_time"), SEC(dma));
	nxp_summary_close(s);
	nxp_profile_close(p);
	fixture_free(&f);
}
END_TEST

/* Same results when both files arrive in tiny uneven chunks. */
START_TEST(test_chunky_sources)
{
	spec sp = {"trn2", 2, 5, 120, 20, 1, 1, 1, 1, 0};
	fixture f = build(&sp);
	size_t nl, tl;
	void *nb = tu_read_file(f.neff, &nl), *tb = tu_read_file(f.ntff, &tl);
	nxp_source *ns = tu_chunky_source(nb, nl, 0), *ts = tu_chunky_source(tb, tl, 1);
	nxp_profile *p;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open(&p, ns, ts, NULL, &st) == NXP_OK, "%s", st.message);
	nxp_summary *a, *b;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &a, &st), NXP_OK);
	nxp_profile_close(p);
	nxp_source_close(ns);
	nxp_source_close(ts);
	p = open_profile(&f);
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &b, &st), NXP_OK);
	for (size_t k = 0; k < nxp_summary_field_count(a); k++) {
		nxp_summary_field x = {.struct_size = sizeof(x)}, y = {.struct_size = sizeof(y)};
		ck_assert_int_eq(nxp_summary_get_field(a, k, &x), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_field(b, k, &y), NXP_OK);
		ck_assert_int_eq(x.present, y.present);
		ck_assert_msg(x.i == y.i && x.f == y.f, "%s differs", x.name);
	}
	ck_assert_uint_eq(nxp_summary_opcode_count(a), nxp_summary_opcode_count(b));
	ck_assert_uint_gt(nxp_summary_opcode_count(a), 10);
	nxp_summary_close(a);
	nxp_summary_close(b);
	nxp_profile_close(p);
	free(nb);
	free(tb);
	fixture_free(&f);
}
END_TEST

/* The caller's hardware wins over the arch table and the metadata. */
START_TEST(test_hardware_override)
{
	spec sp = {"trn2", 1, 6, 200, 20, 1, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	nxp_summary *s, *s2;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &s, NULL), NXP_OK);
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	ck_assert_int_eq(nxp_hardware_for_arch("trn2", &hw), NXP_OK);
	hw.tensor_engine_clock_freq = 1.2; /* half the table's */
	hw.fp8_flops_multiplier = 2.0;     /* FP8 matmuls count double */
	ck_assert_int_eq(nxp_profile_summarize(p, &hw, &s2, NULL), NXP_OK);
	nxp_summary *t = s2;
	{
		const nxp_summary *s_ = s;
		nxp_summary_field a = {.struct_size = sizeof(a)}, b = {.struct_size = sizeof(b)};
		ck_assert_int_eq(nxp_summary_find(s_, "hfu_estimated_percent", &a), NXP_OK);
		ck_assert_int_eq(nxp_summary_find(t, "hfu_estimated_percent", &b), NXP_OK);
		ck_assert_near(b.f, 2.0 * a.f);
	}
	/* Independent adjusted FLOPs with the override: raw x multiplier per dtype. */
	const nxp_neff *neff = nxp_profile_neff(p);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction in = {.struct_size = sizeof(in)};
	int64_t adj = 0, fp8 = 0;
	while (nxp_cursor_next_instruction(c, &in) == NXP_OK) {
		const nxp_static_instr *si = (in.flags & NXP_INSTRUCTION_PC_UNKNOWN)
						     ? NULL
						     : nxp_neff_static_instr(neff, 0, in.engine_id, (uint64_t)in.pc);
		const char *dn = si ? nxp_dtype_name(si->mm_dtype) : NULL;
		double m = !si ? 1.0 : (dn && !strncmp(dn, "fp8", 3)) ? 2.0 : nxp_adjusted_flops_multiplier(si->mm_dtype, "trn2");
		fp8 += dn && !strncmp(dn, "fp8", 3) && in.raw_flops > 0;
		adj += (int64_t)((double)(in.raw_flops + in.flops_transpose) * m + 0.5);
	}
	nxp_cursor_close(c);
	ck_assert_int_gt(fp8, 0);
	ck_assert_int_eq(F(t, "adjusted_hardware_flops").i, adj);
	ck_assert_int_gt(F(t, "adjusted_hardware_flops").i, F(s, "adjusted_hardware_flops").i);
	/* Without hardware (unknown arch name in an override): hardware metrics absent. */
	nxp_hardware none = {.struct_size = sizeof(none)};
	memset(&none, 0, sizeof(none));
	none.struct_size = sizeof(none);
	nxp_summary *s3;
	ck_assert_int_eq(nxp_profile_summarize(p, &none, &s3, NULL), NXP_OK);
	ck_assert_int_eq(is_present(s3, "hfu_estimated_percent"), 0);
	ck_assert_int_eq(is_present(s3, "neuroncore_cycle_count"), 0);
	ck_assert_int_eq(is_present(s3, "dma_active_time_percent"), 1);
	nxp_summary_close(s3);
	nxp_summary_close(s);
	nxp_summary_close(s2);
	nxp_profile_close(p);
	fixture_free(&f);
}
END_TEST

/* Saturating sum as the pass's (sadd). */
static void sat_add(int64_t *acc, int64_t v)
{
	if (__builtin_add_overflow(*acc, v, acc))
		*acc = v > 0 ? INT64_MAX : INT64_MIN;
}

/* adjusted_hardware_flops of the one-thread pass with the caller's FP8
 * multiplier m, against the instruction records' terms summed in record order
 * (the pass's order for this table): the one-thread pass sums the terms of
 * each static instruction once per pc (times its count) when every term is
 * non-negative, and per record otherwise; both are the record-order sum. */
static void adj_flops_case(nxp_profile *p, double m, int64_t *got, int64_t *want)
{
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	ck_assert_int_eq(nxp_hardware_for_arch("trn2", &hw), NXP_OK);
	hw.fp8_flops_multiplier = m;
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	o.hw = &hw;
	o.threads = 1;
	nxp_summary *s;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, NULL), NXP_OK);
	*got = F(s, "adjusted_hardware_flops").i;
	nxp_summary_close(s);
	const nxp_neff *neff = nxp_profile_neff(p);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction in = {.struct_size = sizeof(in)};
	*want = 0;
	while (nxp_cursor_next_instruction(c, &in) == NXP_OK) {
		const nxp_static_instr *si = (in.flags & NXP_INSTRUCTION_PC_UNKNOWN)
						     ? NULL
						     : nxp_neff_static_instr(neff, 0, in.engine_id, (uint64_t)in.pc);
		const char *dn = si ? nxp_dtype_name(si->mm_dtype) : NULL;
		double k = !si ? 1.0 : (dn && !strncmp(dn, "fp8", 3)) ? m : nxp_adjusted_flops_multiplier(si->mm_dtype, "trn2");
		sat_add(want, (int64_t)((double)(in.raw_flops + in.flops_transpose) * k + 0.5));
	}
	nxp_cursor_close(c);
}

/* Saturated sums: counted per static instruction (large positive FP8 terms)
 * and per record (large negative ones, where the order of the sum matters). */
START_TEST(test_adjusted_flops_saturate)
{
	spec sp = {"trn2", 1, 6, 200, 20, 1, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	const nxp_neff *neff = nxp_profile_neff(p);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction in = {.struct_size = sizeof(in)};
	int64_t rmax = 0, n8 = 0;
	while (nxp_cursor_next_instruction(c, &in) == NXP_OK) {
		const nxp_static_instr *si = (in.flags & NXP_INSTRUCTION_PC_UNKNOWN)
						     ? NULL
						     : nxp_neff_static_instr(neff, 0, in.engine_id, (uint64_t)in.pc);
		const char *dn = si ? nxp_dtype_name(si->mm_dtype) : NULL;
		if (dn && !strncmp(dn, "fp8", 3) && in.raw_flops > 0) {
			n8++;
			if (in.raw_flops > rmax)
				rmax = in.raw_flops;
		}
	}
	nxp_cursor_close(c);
	ck_assert_int_gt(n8, 2);
	const double big = 4e18 / (double)rmax; /* every FP8 term <= 4e18: three pass INT64_MAX */
	int64_t got, want;
	adj_flops_case(p, big, &got, &want);
	ck_assert_int_eq(want, INT64_MAX);
	ck_assert_int_eq(got, want);
	adj_flops_case(p, -big, &got, &want);
	ck_assert_int_eq(got, want);
	adj_flops_case(p, 2.0, &got, &want);
	ck_assert_int_eq(got, want);
	nxp_profile_close(p);
	fixture_free(&f);
}
END_TEST

START_TEST(test_misuse)
{
	spec sp = {"trn1", 1, 7, 20, 5, 1, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	nxp_summary *s = (nxp_summary *)&s; /* must be reset to NULL on failure */
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_profile_summarize(NULL, NULL, &s, &st), NXP_E_INVAL);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(st.code, NXP_E_INVAL);
	ck_assert(strlen(st.message) > 0);
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, NULL, NULL), NXP_E_INVAL);
	nxp_hardware hw = {.struct_size = 4};
	ck_assert_int_eq(nxp_profile_summarize(p, &hw, &s, &st), NXP_E_INVAL);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(st.message, "hardware"));
	nxp_profile_close(p);
	fixture_free(&f);
}
END_TEST

/* A damaged data section: no crash, no leak, and either a clean error or a
 * summary of the records that survived (the cursor skips and counts them). */
START_TEST(test_corrupt_section)
{
	spec sp = {"trn1", 1, 8, 200, 20, 1, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	nxp_summary *good;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &good, NULL), NXP_OK);
	nxp_profile_close(p);
	size_t len;
	uint8_t *img = tu_read_file(f.ntff, &len);
	for (size_t k = len / 2; k < len / 2 + 16; k++)
		img[k] ^= 0x5A;
	ck_assert_int_eq(tu_write_file(f.ntff, img, len), 0);
	free(img);
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_open_path(&p, f.neff, f.ntff, NULL, &st);
	if (rc == NXP_OK) {
		nxp_summary *bad = NULL;
		rc = nxp_profile_summarize(p, NULL, &bad, &st);
		if (rc == NXP_OK) {
			ck_assert_int_lt(F(bad, "total_row_count").i, F(good, "total_row_count").i);
			nxp_summary_close(bad);
		} else {
			ck_assert_int_lt(rc, 0);
			ck_assert_ptr_null(bad);
			ck_assert_int_eq(st.code, rc);
			ck_assert(strlen(st.message) > 0);
		}
		nxp_profile_close(p);
	} else {
		ck_assert_int_lt(rc, 0);
		ck_assert(strlen(st.message) > 0);
	}
	nxp_summary_close(good);
	fixture_free(&f);
}
END_TEST

/* An empty trace: times absent or zero, never invented. */
START_TEST(test_empty_trace)
{
	spec sp = {"trn1", 1, 9, 0, 0, 0, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	nxp_summary *s;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &s, NULL), NXP_OK);
	ck_assert_int_eq(I("tensor_engine_instruction_count"), 0);
	ck_assert_int_eq(I("dma_transfer_count"), 0);
	ck_assert_int_eq(is_present(s, "dma_transfer_average_bytes"), 0); /* 0 / 0 */
	ck_assert_int_eq(is_present(s, "total_exec_time"), 0);           /* no instruction, no packet */
	ck_assert_int_eq(I("hardware_flops"), 0);
	ck_assert_uint_eq(nxp_summary_opcode_count(s), 0);
	nxp_summary_close(s);
	nxp_profile_close(p);
	fixture_free(&f);
}
END_TEST

/* `nxp summary --json` (the CLI on the shared library) agrees with the API:
 * every present field with its value, absent fields omitted, opcode rows. */
static char *run_cli(const char *args)
{
	const char *cli = getenv("NXP_CLI");
	if (!cli)
		return NULL;
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", cli, args);
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	size_t n;
	while ((n = fread(out + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap)
			out = realloc(out, cap *= 2);
	}
	out[len] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	return out;
}

START_TEST(test_cli_json_and_text)
{
	if (!getenv("NXP_CLI"))
		return; /* run by meson, which sets it */
	spec sp = {"trn2", 2, 10, 100, 10, 1, 0, 1, 0, 0};
	fixture f = build(&sp);
	nxp_profile *p = open_profile(&f);
	nxp_summary *s;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &s, NULL), NXP_OK);
	nxp_profile_close(p);
	char args[4096];
	snprintf(args, sizeof(args), "summary '%s' '%s' --json", f.neff, f.ntff);
	char *out = run_cli(args);
	json_error_t err;
	json_t *j = json_loads(out, 0, &err);
	ck_assert_msg(j != NULL, "bad JSON: %s", err.text);
	size_t present = 0;
	for (size_t k = 0; k < nxp_summary_field_count(s); k++) {
		nxp_summary_field x = {.struct_size = sizeof(x)};
		ck_assert_int_eq(nxp_summary_get_field(s, k, &x), NXP_OK);
		json_t *v = json_object_get(j, x.name);
		if (!x.present) {
			ck_assert_msg(v == NULL, "%s should be omitted", x.name);
			continue;
		}
		present++;
		ck_assert_msg(v != NULL, "%s missing", x.name);
		if (x.kind == NXP_VALUE_INT)
			ck_assert_int_eq(json_integer_value(v), x.i);
		else
			ck_assert(json_number_value(v) == x.f);
	}
	ck_assert_uint_gt(present, 80);
	ck_assert_ptr_null(json_object_get(j, "cc_op_count"));
	json_t *ops = json_object_get(j, "opcode_summary");
	ck_assert(json_is_array(ops));
	ck_assert_uint_eq(json_array_size(ops), nxp_summary_opcode_count(s));
	nxp_opcode_summary o = {.struct_size = sizeof(o)};
	ck_assert_int_eq(nxp_summary_get_opcode(s, 0, &o), NXP_OK);
	json_t *o0 = json_array_get(ops, 0);
	ck_assert_str_eq(json_string_value(json_object_get(o0, "engine")), o.engine);
	ck_assert_str_eq(json_string_value(json_object_get(o0, "opcode")), o.opcode);
	ck_assert_int_eq(json_integer_value(json_object_get(o0, "active_time_ns")), o.active_time_ns);
	ck_assert(json_is_array(json_object_get(j, "throttle_summary")));
	json_decref(j);
	free(out);

	/* Text: groups, percent x 100, n/a for absent. */
	snprintf(args, sizeof(args), "summary '%s' '%s'", f.neff, f.ntff);
	out = run_cli(args);
	ck_assert_ptr_nonnull(strstr(out, "hardware: trn2"));
	ck_assert_ptr_nonnull(strstr(out, "\ndata movement\n"));
	ck_assert_ptr_nonnull(strstr(out, "\ncollectives\n"));
	char line[128];
	nxp_summary_field t = F(s, "tensor_engine_active_time_percent");
	snprintf(line, sizeof(line), "%.2f %%", t.f * 100.0);
	ck_assert_ptr_nonnull(strstr(strstr(out, "tensor_engine_active_time_percent"), line));
	ck_assert_ptr_nonnull(strstr(strstr(out, "cc_op_count"), "n/a"));
	free(out);

	/* --arch overrides the profile's arch. */
	snprintf(args, sizeof(args), "summary '%s' '%s' --arch trn1", f.neff, f.ntff);
	out = run_cli(args);
	ck_assert_ptr_nonnull(strstr(out, "hardware: trn1"));
	free(out);
	nxp_summary_close(s);
	fixture_free(&f);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("summarize");
	TCase *tc = tcase_create("profiles");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_lnc1_trn1_tpb);
	tcase_add_test(tc, test_lnc2_trn2_span);
	tcase_add_test(tc, test_lnc2_inf2_tpb);
	tcase_add_test(tc, test_matches_active_time_table);
	tcase_add_test(tc, test_one_dma_class);
	tcase_add_test(tc, test_chunky_sources);
	tcase_add_test(tc, test_hardware_override);
	tcase_add_test(tc, test_misuse);
	tcase_add_test(tc, test_corrupt_section);
	tcase_add_test(tc, test_empty_trace);
	tcase_add_test(tc, test_cli_json_and_text);
	tcase_add_test(tc, test_adjusted_flops_saturate);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
