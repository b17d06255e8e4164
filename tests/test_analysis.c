/* SPDX-License-Identifier: MIT */
/* Analysis (nxp/analysis.h): profiles built here with the NEFF and NTFF
 * writers where the answer is known by construction.
 *
 * The semaphore chain (1 pcore, times in ns, 1 tick = 1 ns):
 *   sync   DMAMEMCPY  [0,100]     starts the q_in transfer, its update S[1]++
 *   q_in   packet 0   [150,400]   packet 1 [400,600]  (transfer 0)
 *   S[1] = 1 at 600 (source sync: the DMA completion)
 *   tensor MATMUL     [0,1000] waiting 600 on S[1]>=1, then S[2]++ at 1000
 *   scalar ACTIVATE   [0,1300] waiting 1000 on S[2]>=1
 *   vector TENSOR_TENSOR [10,200], no semaphores (off the path)
 * Critical path: DMAMEMCPY -> packet 0 -> packet 1 -> S[1] -> MATMUL -> S[2]
 * -> ACTIVATE; sync 100, dma:q_in 250+200 + 50 latency, tensor 400, scalar 300
 * = 1300 = total_exec_time. */
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SBUF 0x1000u
#define PSUM 0x2000000u
#define HBM 0x10000000u

static void enc(uint8_t *out, unsigned opcode, uint32_t src, uint32_t dst, int wait_idx, uint32_t wait_value,
		int update_idx)
{
	nxp_neff_instruction in;
	memset(&in, 0, sizeof(in));
	in.struct_size = sizeof(in);
	in.opcode_num = opcode;
	in.partitions = 128;
	in.active_cols = 128;
	in.src.address = src;
	in.src.dtype = (uint8_t)nxp_dtype_from_name("bf16");
	in.src.step_elem[0] = 1;
	in.src.num_elem[0] = 128;
	in.src.num_elem[1] = 1;
	in.src.num_elem[2] = 1;
	in.dst = in.src;
	in.dst.address = dst;
	if (wait_idx >= 0) {
		in.wait_mode = 1;
		in.wait_idx = (uint8_t)wait_idx;
		in.semaphore_value = wait_value;
	}
	if (update_idx >= 0) {
		in.update_mode = 1;
		in.update_idx = (uint8_t)update_idx;
	}
	ck_assert_int_eq(nxp_instruction_encode(&in, out), NXP_OK);
}

static const uint8_t UUID[16] = {0xa1, 0x5e, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static void make_neff(const char *path)
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	memcpy(o.uuid, UUID, 16);
	o.name = "analysis-test";
	nxp_neff_writer *w;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &o, NULL), NXP_OK);
	const char *kelf = "{\"graphs\":[{\"definition\":\"sg00/def.json\",\"name\":\"sg00\"}],\"version\":\"0.5\"}";
	ck_assert_int_eq(nxp_neff_writer_add(w, "kelf-0.json", kelf, strlen(kelf)), NXP_OK);
	const char *def = "{\"name\":\"sg00\",\"var\":{\"IN\":{\"type\":\"input\",\"var_id\":0,\"size\":65536}},"
			  "\"dma_queue\":{\"q_in\":{\"type\":\"in\",\"num_queues\":1,\"owner\":\"sp\"}},"
			  "\"pe_instr\":\"pe.bin\",\"dve_instr\":\"dve.bin\",\"act_instr\":\"act.bin\","
			  "\"pool_instr\":\"pool.bin\",\"sp_instr\":\"sp.bin\"}";
	ck_assert_int_eq(nxp_neff_writer_add(w, "sg00/def.json", def, strlen(def)), NXP_OK);
	uint8_t pe[64], dve[64], act[64], pool[64], sp[64];
	enc(pe, 0x02, SBUF, PSUM, 1, 1, 2);        /* MATMUL: wait S[1]>=1, S[2]++ */
	enc(act, 0x21, PSUM, SBUF, 2, 1, -1);      /* ACTIVATE: wait S[2]>=1 */
	enc(dve, 0x41, SBUF, SBUF + 0x800, -1, 0, -1);
	enc(pool, 0x43, SBUF, SBUF + 0x800, -1, 0, -1);
	enc(sp, 0xB8, HBM, SBUF, -1, 0, 1);        /* DMAMEMCPY, completion S[1]++ */
	ck_assert_int_eq(nxp_neff_writer_add(w, "sg00/pe.bin", pe, 64), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_add(w, "sg00/dve.bin", dve, 64), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_add(w, "sg00/act.bin", act, 64), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_add(w, "sg00/pool.bin", pool, 64), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_add(w, "sg00/sp.bin", sp, 64), NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_save(w, path), NXP_OK);
	nxp_neff_writer_close(w);
}

static int32_t add_q(nxp_ntff_writer *w, int kind, int engine, const char *name)
{
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = kind;
	q.engine = engine;
	q.name = name;
	int32_t id = nxp_ntff_writer_add_queue(w, &q);
	ck_assert_int_ge(id, 0);
	return id;
}

static void instr(nxp_ntff_writer *w, int32_t q, uint64_t s, uint64_t e, uint32_t wait)
{
	nxp_ntff_instruction_note n = {s, e, 0, wait, 0};
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, q, &n), NXP_OK);
}

static void packet(nxp_ntff_writer *w, int32_t q, uint64_t s, uint64_t e, uint32_t agg, uint32_t idx)
{
	nxp_ntff_dma_note d;
	memset(&d, 0, sizeof(d));
	d.start_tick = s;
	d.end_tick = e;
	d.packet_aggregation_id = agg;
	d.packet_idx = idx;
	d.read_bytes = d.write_bytes = 8192;
	d.source = NXP_MEMORY_HBM;
	d.dest = NXP_MEMORY_SBUF;
	ck_assert_int_eq(nxp_ntff_writer_dma(w, q, &d), NXP_OK);
}

static void sem(nxp_ntff_writer *w, int32_t q, uint64_t t, int idx, int source, int32_t value)
{
	nxp_ntff_semaphore_note n;
	memset(&n, 0, sizeof(n));
	n.tick = t;
	n.semaphore_idx = (uint16_t)idx;
	n.update_source = (uint8_t)source;
	n.operation = 1;
	n.value = value;
	n.trigger_complete = 1;
	n.update_mode = 1;
	ck_assert_int_eq(nxp_ntff_writer_semaphore(w, q, &n), NXP_OK);
}

/* chain_pre_n > 0: that many earlier updates of S[1] (value chain_pre_value)
 * at 500, 501, ... from the sync engine, before the one at 600 + x. */
static int chain_pre_n, chain_pre_value;

/* x > 0 stretches the DMA by x ns (a DMA-bound kernel); thr > 0 adds a power
 * throttle window of thr ns at [200, 200 + thr). */
static void make_chain_ntff_thr(const char *path, uint64_t x, uint64_t thr)
{
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, UUID, 16);
	info.arch = "trn2";
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, NULL), NXP_OK);
	int32_t qi[NXP_ENGINE_COUNT];
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		qi[e] = add_q(w, NXP_QUEUE_INSTRUCTION, e, NULL);
	int32_t qd = add_q(w, NXP_QUEUE_DMA, -1, "q_in");
	int32_t qs = add_q(w, NXP_QUEUE_SEMAPHORE, -1, NULL);
	instr(w, qi[NXP_ENGINE_SYNC], 0, 100, 0);
	/* x > 0 stretches the DMA by x ns (a DMA-bound kernel) */
	instr(w, qi[NXP_ENGINE_TENSOR], 0, 1000 + x, 600 + (uint32_t)x);
	instr(w, qi[NXP_ENGINE_SCALAR], 0, 1300 + x, 1000 + (uint32_t)x);
	instr(w, qi[NXP_ENGINE_VECTOR], 10, 200, 0);
	packet(w, qd, 150, 400, 0, 0);
	packet(w, qd, 400, 600 + x, 0, 1);
	for (int i = 0; i < chain_pre_n; i++)
		sem(w, qs, 500 + (uint64_t)i, 1, NXP_ENGINE_SYNC, chain_pre_value);
	sem(w, qs, 600 + x, 1, NXP_ENGINE_SYNC, 1);
	sem(w, qs, 1000 + x, 2, NXP_ENGINE_TENSOR, 1);
	if (thr) {
		int32_t qt = add_q(w, NXP_QUEUE_THROTTLE, -1, NULL);
		int64_t type = nxp_ntff_writer_string(w, "power");
		ck_assert_int_gt(type, 0);
		nxp_ntff_throttle_note tn = {200, thr, 3, 4, (uint32_t)type};
		ck_assert_int_eq(nxp_ntff_writer_throttle(w, qt, &tn), NXP_OK);
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
}

static void make_chain_ntff(const char *path, uint64_t x)
{
	make_chain_ntff_thr(path, x, 0);
}

static char *dir, *neff_path, *ntff_path;

static nxp_profile *open_chain_x(uint64_t x)
{
	dir = tu_tmpdir();
	neff_path = tu_path(dir, "chain.neff");
	ntff_path = tu_path(dir, "chain.ntff");
	make_neff(neff_path);
	make_chain_ntff(ntff_path, x);
	nxp_profile *p;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, neff_path, ntff_path, NULL, &st) == NXP_OK, "%s", st.message);
	return p;
}

static nxp_profile *open_chain(void)
{
	return open_chain_x(0);
}

static void close_chain(nxp_profile *p)
{
	nxp_profile_close(p);
	if (!getenv("KEEP")) unlink(neff_path);
	if (!getenv("KEEP")) unlink(ntff_path);
	rmdir(dir);
	free(neff_path);
	free(ntff_path);
	free(dir);
}

/* Instruction id of the record of `engine` (one per engine here). */
static int64_t instr_id(nxp_profile *p, int engine)
{
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction in = {.struct_size = sizeof(in)};
	int64_t id = -1;
	while (nxp_cursor_next_instruction(c, &in) == NXP_OK)
		if (in.engine_id == engine)
			id = in.id;
	nxp_cursor_close(c);
	ck_assert_int_ge(id, 0);
	return id;
}

START_TEST(chain_flows)
{
	nxp_profile *p = open_chain();
	int64_t mm = instr_id(p, NXP_ENGINE_TENSOR), act = instr_id(p, NXP_ENGINE_SCALAR),
		dma = instr_id(p, NXP_ENGINE_SYNC);
	nxp_flow_cursor *c;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_flow_cursor_open(&c, p, NULL, &st), NXP_OK);
	nxp_flow f = {.struct_size = sizeof(f)};
	int seen[5] = {0};
	int n = 0;
	while (nxp_flow_cursor_next(c, &f) == NXP_OK) {
		n++;
		ck_assert_int_eq(f.gap_time, f.out_ts - f.in_ts);
		ck_assert_str_eq(f.dependency_type, f.kind == NXP_FLOW_SEMAPHORE_WAIT ? "semaphore_wait"
						    : f.kind == NXP_FLOW_DMA_TRIGGER  ? "dma_trigger"
						    : f.kind == NXP_FLOW_DMA_COMPLETION ? "dma_completion"
											  : "semaphore_signal");
		switch (f.kind) {
		case NXP_FLOW_SEMAPHORE_WAIT:
			ck_assert_str_eq(f.in_table, "SemaphoreUpdate");
			ck_assert_str_eq(f.out_table, "Instruction");
			ck_assert_int_eq(f.exact, 1);
			ck_assert_int_eq(f.gap_time, 0);
			if (f.out_id == mm) {
				ck_assert_int_eq(f.in_id, 0); /* S[1] at 600, row 0 */
				ck_assert_int_eq(f.out_ts, 600);
			} else {
				ck_assert_int_eq(f.out_id, act);
				ck_assert_int_eq(f.in_id, 1); /* S[2] at 1000 */
				ck_assert_int_eq(f.out_ts, 1000);
			}
			seen[0]++;
			break;
		case NXP_FLOW_DMA_TRIGGER:
			ck_assert_int_eq(f.in_id, dma);
			ck_assert_str_eq(f.out_table, "DmaPacket");
			ck_assert_int_eq(f.gap_time, 50);
			ck_assert_int_eq(f.exact, 0);
			seen[1]++;
			break;
		case NXP_FLOW_DMA_COMPLETION:
			ck_assert_str_eq(f.in_table, "DmaPacket");
			ck_assert_int_eq(f.in_ts, 600);
			ck_assert_int_eq(f.out_id, 0);
			ck_assert_int_eq(f.exact, 1);
			seen[2]++;
			break;
		case NXP_FLOW_SEMAPHORE_SIGNAL:
			ck_assert_int_eq(f.in_id, mm);
			ck_assert_int_eq(f.out_id, 1);
			ck_assert_int_eq(f.exact, 1);
			seen[3]++;
			break;
		default:
			ck_abort_msg("unknown kind %d", f.kind);
		}
	}
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(seen[0], 2);
	ck_assert_int_eq(seen[1], 1);
	ck_assert_int_eq(seen[2], 1);
	ck_assert_int_eq(seen[3], 1);
	nxp_flow_cursor_close(c);

	/* what did MATMUL wait on / unblock */
	nxp_flow got[4];
	size_t cnt = 99;
	ck_assert_int_eq(nxp_profile_flows_of(p, NXP_TABLE_INSTRUCTION, mm, NXP_FLOW_WAITED_ON, got, sizeof(got[0]), 4,
					      &cnt, &st),
			 NXP_OK);
	ck_assert_uint_eq(cnt, 1);
	ck_assert_int_eq(got[0].kind, NXP_FLOW_SEMAPHORE_WAIT);
	ck_assert_int_eq(got[0].in_id, 0);
	ck_assert_int_eq(nxp_profile_flows_of(p, NXP_TABLE_INSTRUCTION, mm, NXP_FLOW_UNBLOCKED, got, sizeof(got[0]), 4,
					      &cnt, &st),
			 NXP_OK);
	ck_assert_uint_eq(cnt, 1);
	ck_assert_int_eq(got[0].kind, NXP_FLOW_SEMAPHORE_SIGNAL);
	/* the vector instruction has no edges; an id that does not exist is refused */
	ck_assert_int_eq(nxp_profile_flows_of(p, NXP_TABLE_INSTRUCTION, instr_id(p, NXP_ENGINE_VECTOR),
					      NXP_FLOW_WAITED_ON, got, sizeof(got[0]), 4, &cnt, &st),
			 NXP_OK);
	ck_assert_uint_eq(cnt, 0);
	ck_assert_int_eq(nxp_profile_flows_of(p, NXP_TABLE_INSTRUCTION, 999, NXP_FLOW_WAITED_ON, got, sizeof(got[0]), 4,
					      &cnt, &st),
			 NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_profile_flows_of(p, NXP_TABLE_THROTTLE, 0, NXP_FLOW_WAITED_ON, got, sizeof(got[0]), 4,
					      &cnt, &st),
			 NXP_E_INVAL);
	/* a range that excludes every out record gives nothing */
	nxp_flow_options fo;
	nxp_flow_options_init(&fo);
	fo.start_ts = 2000;
	ck_assert_int_eq(nxp_flow_cursor_open(&c, p, &fo, &st), NXP_OK);
	ck_assert_int_eq(nxp_flow_cursor_next(c, &f), NXP_END);
	nxp_flow_cursor_close(c);
	fo.start_ts = 5;
	fo.end_ts = 5;
	ck_assert_int_eq(nxp_flow_cursor_open(&c, p, &fo, &st), NXP_E_INVAL);
	close_chain(p);
}
END_TEST

/* The semaphore_wait edge into instruction `out_id`: 1 found (into *e), 0 not. */
static int wait_edge(nxp_profile *p, int64_t out_id, nxp_flow *e)
{
	nxp_flow_cursor *c;
	ck_assert_int_eq(nxp_flow_cursor_open(&c, p, NULL, NULL), NXP_OK);
	nxp_flow f = {.struct_size = sizeof(f)};
	int found = 0;
	int rc;
	while ((rc = nxp_flow_cursor_next(c, &f)) == NXP_OK)
		if (f.kind == NXP_FLOW_SEMAPHORE_WAIT && f.out_id == out_id) {
			*e = f;
			found++;
		}
	ck_assert_int_eq(rc, NXP_END);
	nxp_flow_cursor_close(c);
	ck_assert_int_le(found, 1);
	return found;
}

/* The chain with `n` earlier updates of S[1] to `value`: the tensor wait's
 * edge must come from row want_id at want_ts, exact or not. */
static void history_case(int n, int value, int64_t want_id, int64_t want_ts, int want_exact)
{
	chain_pre_n = n;
	chain_pre_value = value;
	nxp_profile *p = open_chain();
	nxp_flow e;
	ck_assert_int_eq(wait_edge(p, instr_id(p, NXP_ENGINE_TENSOR), &e), 1);
	ck_assert_int_eq(e.in_id, want_id);
	ck_assert_int_eq(e.in_ts, want_ts);
	ck_assert_int_eq(e.out_ts, 600); /* the wait (S[1] >= 1) can proceed at 600 */
	ck_assert_int_eq(e.exact, want_exact);
	close_chain(p);
	chain_pre_n = 0;
}

/* More updates of one semaphore than its history keeps (64): the wait still
 * finds its update through the ring, and says when it cannot be sure. */
START_TEST(flow_semaphore_history)
{
	/* 100 updates to 0, then 1 at 600: released by row 100, the first to satisfy it */
	history_case(100, 0, 100, 600, 1);
	/* 100 updates to 1 before it: the earliest remembered (of the last 64,
	 * ticks 537..600 = rows 37..100) satisfied it; older ones were forgotten,
	 * so the edge is not exact */
	history_case(100, 1, 37, 537, 0);
	/* 30 updates to 1: all remembered, the first (row 0 at 500) is exact */
	history_case(30, 1, 0, 500, 1);
}
END_TEST

/* One DMA queue whose packet_aggregation_id comes back (0, 1, 0): the second
 * transfer 0 opens beside the first, and a packet continuing it extends every
 * open transfer 0.  The completion at 500 then sees two transfers ending
 * there (inferred, the first one freed); the one at 600 only the second. */
START_TEST(flow_agg_reused)
{
	dir = tu_tmpdir();
	neff_path = tu_path(dir, "chain.neff");
	ntff_path = tu_path(dir, "agg.ntff");
	make_neff(neff_path);
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, UUID, 16);
	info.arch = "trn2";
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, ntff_path, &info, NULL, NULL), NXP_OK);
	int32_t qsync = add_q(w, NXP_QUEUE_INSTRUCTION, NXP_ENGINE_SYNC, NULL);
	int32_t qd = add_q(w, NXP_QUEUE_DMA, -1, "q_in");
	int32_t qs = add_q(w, NXP_QUEUE_SEMAPHORE, -1, NULL);
	instr(w, qsync, 0, 100, 0);     /* DMAMEMCPY: triggers the first transfer */
	packet(w, qd, 150, 200, 0, 0);  /* id 0: transfer 0 */
	packet(w, qd, 210, 300, 1, 0);  /* id 1: transfer 1 */
	packet(w, qd, 310, 400, 0, 0);  /* id 2: transfer 0 again, a second open one */
	packet(w, qd, 410, 500, 0, 1);  /* id 3: extends both transfers 0 to 500 */
	packet(w, qd, 510, 600, 0, 2);  /* id 4: extends the one still open to 600 */
	sem(w, qs, 500, 1, NXP_ENGINE_SYNC, 1);
	sem(w, qs, 600, 1, NXP_ENGINE_SYNC, 2);
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	nxp_profile *p;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, neff_path, ntff_path, NULL, &st) == NXP_OK, "%s", st.message);

	nxp_flow_cursor *c;
	ck_assert_int_eq(nxp_flow_cursor_open(&c, p, NULL, &st), NXP_OK);
	nxp_flow f = {.struct_size = sizeof(f)};
	int n = 0, completions = 0;
	int rc;
	while ((rc = nxp_flow_cursor_next(c, &f)) == NXP_OK) {
		n++;
		if (f.kind == NXP_FLOW_DMA_TRIGGER) {
			ck_assert_int_eq(f.out_id, 0);
			ck_assert_int_eq(f.in_ts, 100);
			continue;
		}
		ck_assert_int_eq(f.kind, NXP_FLOW_DMA_COMPLETION);
		ck_assert_int_eq(f.out_id, completions);
		if (completions++ == 0) {
			ck_assert_int_eq(f.in_id, 3);
			ck_assert_int_eq(f.in_ts, 500);
			ck_assert_int_eq(f.exact, 0); /* two transfers ended at 500 */
		} else {
			ck_assert_int_eq(f.in_id, 4);
			ck_assert_int_eq(f.in_ts, 600);
			ck_assert_int_eq(f.exact, 1);
		}
	}
	ck_assert_int_eq(rc, NXP_END);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(completions, 2);
	nxp_flow_cursor_close(c);

	/* a caller struct larger than ours: the same edges, the unknown tail zeroed */
	struct {
		nxp_flow f;
		int64_t more;
	} big;
	ck_assert_int_eq(nxp_flow_cursor_open(&c, p, NULL, &st), NXP_OK);
	memset(&big, 0xab, sizeof(big));
	big.f.struct_size = sizeof(big);
	ck_assert_int_eq(nxp_flow_cursor_next(c, (nxp_flow *)&big), NXP_OK);
	ck_assert_uint_eq(big.f.struct_size, sizeof(big));
	ck_assert_int_eq(big.f.kind, NXP_FLOW_DMA_TRIGGER);
	ck_assert_int_eq(big.f.in_ts, 100);
	ck_assert_int_eq(big.more, 0);
	nxp_flow_cursor_close(c);
	close_chain(p);
}
END_TEST

static int64_t breakdown(const nxp_critical_path *cp, const char *name, int64_t *sum)
{
	int64_t v = -1;
	*sum = 0;
	for (size_t i = 0; i < nxp_critical_path_resource_count(cp); i++) {
		nxp_critical_resource r = {.struct_size = sizeof(r)};
		ck_assert_int_eq(nxp_critical_path_get_resource(cp, i, &r), NXP_OK);
		*sum += r.ns;
		if (!strcmp(r.resource, name))
			v = r.ns;
	}
	return v;
}

START_TEST(chain_critical_path)
{
	nxp_profile *p = open_chain();
	nxp_status st;
	nxp_status_init(&st);
	nxp_critical_path *cp;
	ck_assert_msg(nxp_profile_critical_path(p, NULL, &cp, &st) == NXP_OK, "%s", st.message);
	int64_t lo, hi, total, sum;
	ck_assert_int_eq(nxp_critical_path_interval(cp, &lo, &hi, &total), NXP_OK);
	ck_assert_int_eq(lo, 0);
	ck_assert_int_eq(hi, 1300);
	ck_assert_int_eq(total, 1300);
	/* total_ns is the summary's total_exec_time */
	nxp_summary *s;
	ck_assert_int_eq(nxp_profile_summarize(p, NULL, &s, &st), NXP_OK);
	nxp_summary_field fld = {.struct_size = sizeof(fld)};
	ck_assert_int_eq(nxp_summary_find(s, "total_exec_time", &fld), NXP_OK);
	ck_assert_int_eq((int64_t)(fld.f * 1e9 + 0.5), total);
	nxp_summary_close(s);

	ck_assert_int_eq(breakdown(cp, "engine:sync", &sum), 100);
	ck_assert_int_eq(breakdown(cp, "dma:q_in", &sum), 500);
	ck_assert_int_eq(breakdown(cp, "engine:tensor", &sum), 400);
	ck_assert_int_eq(breakdown(cp, "engine:scalar", &sum), 300);
	ck_assert_int_eq(breakdown(cp, "engine:vector", &sum), 0);
	ck_assert_int_eq(sum, total);
	/* vector's slack: busy 190 of 1300 */
	for (size_t i = 0; i < nxp_critical_path_resource_count(cp); i++) {
		nxp_critical_resource r = {.struct_size = sizeof(r)};
		ck_assert_int_eq(nxp_critical_path_get_resource(cp, i, &r), NXP_OK);
		if (!strcmp(r.resource, "engine:vector")) {
			ck_assert_int_eq(r.busy_ns, 190);
			ck_assert_int_eq(r.slack_ns, 1110);
		}
	}
	const char *want[][2] = {{"DMAMEMCPY", "dma_trigger"}, {"q_in", "resource_order"}, {"q_in", "dma_completion"},
				 {"S[1]", "semaphore_wait"}, {"MATMUL", "semaphore_signal"}, {"S[2]", "semaphore_wait"},
				 {"ACTIVATE", ""}};
	ck_assert_uint_eq(nxp_critical_path_step_count(cp), 7);
	int64_t steps = 0;
	for (size_t i = 0; i < 7; i++) {
		nxp_critical_step k = {.struct_size = sizeof(k)};
		ck_assert_int_eq(nxp_critical_path_get_step(cp, i, &k), NXP_OK);
		ck_assert_str_eq(k.label, want[i][0]);
		ck_assert_str_eq(k.via, want[i][1]);
		steps += k.ns;
	}
	ck_assert_int_eq(steps, total);
	nxp_critical_step k = {.struct_size = sizeof(k)};
	ck_assert_int_eq(nxp_critical_path_get_step(cp, 7, &k), NXP_E_RANGE);
	nxp_critical_path_close(cp);

	/* an execution that does not exist */
	nxp_critical_path_options o;
	nxp_critical_path_options_init(&o);
	o.execution_index = 5;
	ck_assert_int_eq(nxp_profile_critical_path(p, &o, &cp, &st), NXP_E_NOT_FOUND);
	o.execution_index = 0;
	ck_assert_int_eq(nxp_profile_critical_path(p, &o, &cp, &st), NXP_OK);
	ck_assert_int_eq(nxp_critical_path_interval(cp, NULL, NULL, &total), NXP_OK);
	ck_assert_int_eq(total, 1300);
	nxp_critical_path_close(cp);
	close_chain(p);
}
END_TEST

static int fired(nxp_insights *in, const char *rule, const char **severity)
{
	for (size_t i = 0; i < nxp_insights_count(in); i++) {
		nxp_insight x = {.struct_size = sizeof(x)};
		ck_assert_int_eq(nxp_insights_get(in, i, &x), NXP_OK);
		ck_assert(x.message && *x.message && x.recommendation && *x.recommendation);
		ck_assert_uint_gt(x.evidence_count, 0);
		if (!strcmp(x.rule, rule)) {
			if (severity)
				*severity = x.severity;
			return 1;
		}
	}
	return 0;
}

/* The chain: DMA 450 ns vs Tensor 400 ns, no throttling, one execution: no
 * dma_bound, no throttling, no idle gaps, no resource over 60 % of the path.
 * Stretched by 20 us of DMA: dma_bound (critical: > 3x the Tensor engine) and
 * dma:q_in dominating the critical path. */
START_TEST(insights_fire_and_not)
{
	nxp_status st;
	nxp_status_init(&st);
	nxp_profile *p = open_chain();
	nxp_insights *in;
	ck_assert_msg(nxp_profile_insights(p, NULL, &in, &st) == NXP_OK, "%s", st.message);
	ck_assert(!fired(in, "dma_bound", NULL));
	ck_assert(!fired(in, "throttling", NULL));
	ck_assert(!fired(in, "idle_gaps_between_executions", NULL));
	ck_assert(!fired(in, "critical_path_dominated", NULL));
	ck_assert(!fired(in, "small_dma_transfers", NULL));
	nxp_insights_close(in);
	close_chain(p);

	p = open_chain_x(20000);
	ck_assert_int_eq(nxp_profile_insights(p, NULL, &in, &st), NXP_OK);
	const char *sev = NULL;
	ck_assert(fired(in, "dma_bound", &sev));
	ck_assert_str_eq(sev, "critical");
	ck_assert(fired(in, "critical_path_dominated", NULL));
	ck_assert(!fired(in, "throttling", NULL));
	/* decreasing severity */
	for (size_t i = 1; i < nxp_insights_count(in); i++) {
		nxp_insight a = {.struct_size = sizeof(a)}, b = {.struct_size = sizeof(b)};
		nxp_insights_get(in, i - 1, &a);
		nxp_insights_get(in, i, &b);
		ck_assert_int_ge(a.severity_level, b.severity_level);
	}
	nxp_insight x = {.struct_size = sizeof(x)};
	ck_assert_int_eq(nxp_insights_get(in, 99, &x), NXP_E_RANGE);
	nxp_insights_close(in);
	/* the critical path still sums exactly */
	nxp_critical_path *cp;
	ck_assert_int_eq(nxp_profile_critical_path(p, NULL, &cp, &st), NXP_OK);
	int64_t total, sum;
	nxp_critical_path_interval(cp, NULL, NULL, &total);
	ck_assert_int_eq(total, 21300);
	ck_assert_int_eq(breakdown(cp, "dma:q_in", &sum), 20500);
	ck_assert_int_eq(sum, total);
	nxp_critical_path_close(cp);
	close_chain(p);
}
END_TEST

/* The chain with a 500 ns power throttle window: the throttling insight fires
 * (warning, 500 ns of evidence, over the exec interval) and nothing else
 * changes; the same chain without the window does not (insights_fire_and_not). */
START_TEST(insights_throttled_window)
{
	nxp_status st;
	nxp_status_init(&st);
	dir = tu_tmpdir();
	neff_path = tu_path(dir, "chain.neff");
	ntff_path = tu_path(dir, "chain.ntff");
	make_neff(neff_path);
	make_chain_ntff_thr(ntff_path, 0, 500);
	nxp_profile *p;
	ck_assert_msg(nxp_profile_open_path(&p, neff_path, ntff_path, NULL, &st) == NXP_OK, "%s", st.message);
	nxp_insights *in;
	ck_assert_msg(nxp_profile_insights(p, NULL, &in, &st) == NXP_OK, "%s", st.message);
	const char *sev = NULL;
	ck_assert(fired(in, "throttling", &sev));
	ck_assert_str_eq(sev, "warning");
	int found = 0;
	for (size_t i = 0; i < nxp_insights_count(in); i++) {
		nxp_insight x = {.struct_size = sizeof(x)};
		ck_assert_int_eq(nxp_insights_get(in, i, &x), NXP_OK);
		if (strcmp(x.rule, "throttling"))
			continue;
		found = 1;
		ck_assert_str_eq(x.evidence[0].name, "throttle_active_time_ns");
		ck_assert(x.evidence[0].value == 500.0);
		ck_assert_ptr_nonnull(strstr(x.message, "500 ns"));
	}
	ck_assert(found);
	ck_assert(!fired(in, "dma_bound", NULL));
	ck_assert(!fired(in, "critical_path_dominated", NULL));
	nxp_insights_close(in);
	/* the throttle window does not change the critical path */
	nxp_critical_path *cp;
	ck_assert_int_eq(nxp_profile_critical_path(p, NULL, &cp, &st), NXP_OK);
	int64_t total, sum;
	nxp_critical_path_interval(cp, NULL, NULL, &total);
	ck_assert_int_eq(total, 1300);
	breakdown(cp, "idle", &sum);
	ck_assert_int_eq(sum, total);
	nxp_critical_path_close(cp);
	close_chain(p);
}
END_TEST

/* A capture of three ranks (one process directory each, NEFF + NTFF named as
 * the runtime names them), rank `slow` (or none: -1) with the DMA stretched by
 * 20 us, the others by 10 ns per rank index.  Returns the directory; `files`
 * collects what to remove. */
static char *make_capture(int slow, char **files, int *nfiles)
{
	char *top = tu_tmpdir();
	*nfiles = 0;
	for (int r = 0; r < 3; r++) {
		char name[128];
		snprintf(name, sizeof(name), "i-0123456789abcdef0_pid_%d", 100 + r);
		char *pd = tu_path(top, name);
		ck_assert_int_eq(mkdir(pd, 0700), 0);
		snprintf(name, sizeof(name), "neff_11%d.neff", r);
		char *ne = tu_path(pd, name);
		snprintf(name, sizeof(name), "11%d_instid_0_vnc_%d.ntff", r, r);
		char *nt = tu_path(pd, name);
		make_neff(ne);
		make_chain_ntff(nt, r == slow ? 20000 : (uint64_t)r * 10);
		files[(*nfiles)++] = ne;
		files[(*nfiles)++] = nt;
		files[(*nfiles)++] = pd;
	}
	return top;
}

static void remove_capture(char *top, char **files, int nfiles)
{
	for (int i = 0; i < nfiles; i++) {
		if (remove(files[i]))
			rmdir(files[i]);
		free(files[i]);
	}
	rmdir(top);
	free(top);
}

START_TEST(compare_straggler)
{
	nxp_status st;
	nxp_status_init(&st);
	for (int slow = -1; slow < 3; slow += 2) { /* no straggler, then rank 1 */
		char *files[9];
		int nfiles;
		char *top = make_capture(slow, files, &nfiles);
		nxp_capture *cap;
		ck_assert_msg(nxp_capture_open(&cap, top, &st) == NXP_OK, "%s", st.message);
		ck_assert_uint_eq(nxp_capture_profile_count(cap), 3);
		nxp_comparison *cmp;
		ck_assert_msg(nxp_capture_compare(cap, NULL, &cmp, &st) == NXP_OK, "%s", st.message);
		ck_assert_uint_eq(nxp_comparison_count(cmp), 3);
		nxp_comparison_row r[3];
		for (int i = 0; i < 3; i++) {
			r[i].struct_size = sizeof(r[i]);
			ck_assert_int_eq(nxp_comparison_get(cmp, (size_t)i, &r[i]), NXP_OK);
			ck_assert_int_eq(r[i].status, 0);
			ck_assert(r[i].nc_idx >= 0 && r[i].nc_idx <= 2); /* from _vnc_<r> */
			ck_assert_int_eq(r[i].process_id, 100 + r[i].nc_idx);
		}
		nxp_comparison_row bad = {.struct_size = sizeof(bad)};
		ck_assert_int_eq(nxp_comparison_get(cmp, 3, &bad), NXP_E_RANGE);
		/* slowest first, gaps to the fastest */
		ck_assert_int_ge(r[0].total_ns, r[1].total_ns);
		ck_assert_int_ge(r[1].total_ns, r[2].total_ns);
		for (int i = 0; i < 3; i++)
			ck_assert_int_eq(r[i].gap_ns, r[i].total_ns - r[2].total_ns);
		ck_assert_int_eq(r[2].gap_ns, 0);
		ck_assert_str_eq(r[2].explaining_figure, "");
		const nxp_insights *in = nxp_comparison_insights(cmp);
		ck_assert_ptr_nonnull(in);
		int straggler = 0;
		for (size_t i = 0; i < nxp_insights_count(in); i++) {
			nxp_insight x = {.struct_size = sizeof(x)};
			ck_assert_int_eq(nxp_insights_get(in, i, &x), NXP_OK);
			if (!strcmp(x.rule, "straggler")) {
				straggler = 1;
				ck_assert_str_eq(x.severity, "critical"); /* 21300 vs 1300 ns: far over 20 % */
			}
		}
		if (slow < 0) {
			/* ranks differ by 10 and 20 ns of DMA: under 5 %, no straggler */
			ck_assert_int_eq(r[0].total_ns, 1320);
			ck_assert_int_eq(r[2].total_ns, 1300);
			ck_assert(!straggler);
		} else {
			ck_assert(straggler);
			ck_assert_int_eq(r[0].nc_idx, 1);
			ck_assert_int_eq(r[0].total_ns, 21300);
			ck_assert_int_eq(r[0].gap_ns, 20000);
			ck_assert_int_eq(r[0].dma_bytes, r[2].dma_bytes);
			ck_assert_int_gt(r[0].dma_active_ns, r[2].dma_active_ns + 19000);
			/* the DMA explains the gap */
			ck_assert_msg(strstr(r[0].explaining_figure, "dma") != NULL, "%s", r[0].explaining_figure);
			ck_assert_int_gt(r[0].explaining_delta_ns, 19000);
		}
		nxp_comparison_close(cmp);
		nxp_capture_close(cap);
		remove_capture(top, files, nfiles);
	}
}
END_TEST

/* ---- the Flow table (columnar registry) ---- */

/* Column `name`'s index in the stream schema. */
static int schema_col(const struct ArrowSchema *sc, const char *name)
{
	for (int64_t i = 0; i < sc->n_children; i++)
		if (!strcmp(sc->children[i]->name, name))
			return (int)i;
	ck_abort_msg("Flow has no column %s", name);
	return -1;
}

static int64_t a_i64(const struct ArrowArray *a, int64_t r)
{
	ck_assert_int_eq(a->null_count, 0);
	return ((const int64_t *)a->buffers[1])[a->offset + r];
}

static int a_bool(const struct ArrowArray *a, int64_t r)
{
	int64_t i = a->offset + r;
	return (((const uint8_t *)a->buffers[1])[i / 8] >> (i % 8)) & 1;
}

/* A dictionary<int32, utf8> value, copied into out. */
static void a_dict(const struct ArrowArray *a, int64_t r, char *out, size_t n)
{
	ck_assert_ptr_nonnull(a->dictionary);
	int32_t k = ((const int32_t *)a->buffers[1])[a->offset + r];
	const struct ArrowArray *d = a->dictionary;
	const int32_t *off = (const int32_t *)d->buffers[1] + d->offset;
	const char *chars = d->buffers[2];
	size_t len = (size_t)(off[k + 1] - off[k]);
	ck_assert_uint_lt(len, n);
	memcpy(out, chars + off[k], len);
	out[len] = 0;
}

/* Every row of the Flow table (batch_rows rows per batch, window [lo, hi))
 * equals the flow cursor's edge at the same position; returns the rows. */
static int64_t check_flow_table(nxp_profile *p, int64_t batch_rows, int64_t lo, int64_t hi)
{
	nxp_status st;
	nxp_status_init(&st);
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.batch_rows = batch_rows;
	o.start_ts = lo;
	o.end_ts = hi;
	struct ArrowArrayStream as;
	ck_assert_msg(nxp_profile_open_table(&as, p, "Flow", &o, &st) == NXP_OK, "%s", st.message);
	struct ArrowSchema sc;
	ck_assert_int_eq(as.get_schema(&as, &sc), 0);
	ck_assert_int_eq(sc.n_children, 10);
	const char *names[] = {"in_id", "out_id", "in_table", "out_table", "dependency_type", "gap_time",
			       "exact", "in_ts", "out_ts", "pcore_idx"};
	for (int i = 0; i < 10; i++)
		ck_assert_str_eq(sc.children[i]->name, names[i]); /* public columns first, in schema order */
	int c_in = schema_col(&sc, "in_id"), c_out = schema_col(&sc, "out_id"), c_it = schema_col(&sc, "in_table"),
	    c_ot = schema_col(&sc, "out_table"), c_ty = schema_col(&sc, "dependency_type"),
	    c_gap = schema_col(&sc, "gap_time"), c_ex = schema_col(&sc, "exact"), c_its = schema_col(&sc, "in_ts"),
	    c_ots = schema_col(&sc, "out_ts"), c_pc = schema_col(&sc, "pcore_idx");
	nxp_flow_options fo;
	nxp_flow_options_init(&fo);
	fo.start_ts = lo;
	fo.end_ts = hi;
	nxp_flow_cursor *fc;
	ck_assert_int_eq(nxp_flow_cursor_open(&fc, p, &fo, &st), NXP_OK);
	int64_t rows = 0;
	for (;;) {
		struct ArrowArray b;
		ck_assert_int_eq(as.get_next(&as, &b), 0);
		if (!b.release)
			break;
		ck_assert_int_gt(b.length, 0);
		ck_assert_int_le(b.length, batch_rows);
		for (int64_t r = 0; r < b.length; r++) {
			nxp_flow e = {.struct_size = sizeof(e)};
			ck_assert_int_eq(nxp_flow_cursor_next(fc, &e), NXP_OK);
			char t[64];
			ck_assert_int_eq(a_i64(b.children[c_in], r), e.in_id);
			ck_assert_int_eq(a_i64(b.children[c_out], r), e.out_id);
			a_dict(b.children[c_it], r, t, sizeof(t));
			ck_assert_str_eq(t, e.in_table);
			a_dict(b.children[c_ot], r, t, sizeof(t));
			ck_assert_str_eq(t, e.out_table);
			a_dict(b.children[c_ty], r, t, sizeof(t));
			ck_assert_str_eq(t, e.dependency_type);
			ck_assert_int_eq(a_i64(b.children[c_gap], r), e.gap_time);
			ck_assert_int_eq(a_i64(b.children[c_gap], r), e.out_ts - e.in_ts);
			ck_assert_int_eq(a_bool(b.children[c_ex], r), e.exact != 0);
			ck_assert_int_eq(a_i64(b.children[c_its], r), e.in_ts);
			ck_assert_int_eq(a_i64(b.children[c_ots], r), e.out_ts);
			ck_assert(e.out_ts >= lo && e.out_ts < hi);
			ck_assert_int_eq(a_i64(b.children[c_pc], r), e.pcore_idx);
			rows++;
		}
		b.release(&b);
	}
	nxp_flow e = {.struct_size = sizeof(e)};
	ck_assert_int_eq(nxp_flow_cursor_next(fc, &e), NXP_END); /* no edge left out */
	nxp_flow_cursor_close(fc);
	sc.release(&sc);
	as.release(&as);
	return rows;
}

START_TEST(flow_table)
{
	/* the chain: 5 edges known by construction (chain_flows), 2 per batch */
	nxp_profile *p = open_chain();
	ck_assert_int_eq(check_flow_table(p, 2, INT64_MIN, INT64_MAX), 5);
	ck_assert_int_eq(check_flow_table(p, 1000, INT64_MIN, INT64_MAX), 5);
	/* window on out_ts: [0, 700) keeps the DMA trigger, completion and the MATMUL's wait */
	ck_assert_int_eq(check_flow_table(p, 1000, 0, 700), 3);
	ck_assert_int_eq(check_flow_table(p, 1000, 700, INT64_MAX), 2); /* S[2] signal and wait at 1000 */
	/* Flow is listed, and its SchemaFields rows mark the libnxp extras */
	int listed = 0;
	for (int i = 0; nxp_table_name(i); i++)
		listed += !strcmp(nxp_table_name(i), "Flow");
	ck_assert_int_eq(listed, 1);
	close_chain(p);

	/* the demo pair: thousands of edges over several batches */
	const char *sd = getenv("NXP_SAMPLES_DIR");
	if (!sd)
		return;
	char *ne = tu_path(sd, "demo.neff"), *nt = tu_path(sd, "demo.ntff");
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, ne, nt, NULL, &st) == NXP_OK, "%s", st.message);
	int64_t all = check_flow_table(p, 1000, INT64_MIN, INT64_MAX);
	ck_assert_int_gt(all, 1000);
	nxp_profile_close(p);
	free(ne);
	free(nt);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("analysis");
	TCase *tc = tcase_create("analysis");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, chain_flows);
	tcase_add_test(tc, flow_semaphore_history);
	tcase_add_test(tc, flow_agg_reused);
	tcase_add_test(tc, chain_critical_path);
	tcase_add_test(tc, insights_fire_and_not);
	tcase_add_test(tc, insights_throttled_window);
	tcase_add_test(tc, compare_straggler);
	tcase_add_test(tc, flow_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
