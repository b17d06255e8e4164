/* SPDX-License-Identifier: MIT */
/* `nxp synth`: the generated pairs open, and their records say what the
 * workload did (FLOPs, bytes, ordering, executions, throttles, errors). */
#include "../examples/nxp/synth.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *tmp;

static void setup(void)
{
	tmp = tu_tmpdir();
}

static void teardown(void)
{
	tu_rmtree(tmp);
	free(tmp);
}

static char *gen(const synth_params *p, const char *name, synth_result *r)
{
	char *prefix = tu_path(tmp, name);
	nxp_status st;
	int rc = synth_run(p, prefix, r, &st);
	ck_assert_msg(rc == 0, "synth_run: %s", st.message);
	return prefix;
}

static char *with_ext(const char *prefix, const char *ext)
{
	size_t n = strlen(prefix) + strlen(ext) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%s%s", prefix, ext);
	return s;
}

/* Open a pair through tiny uneven chunks (the NTFF source seekable). */
typedef struct pair {
	void *neff_mem, *ntff_mem;
	nxp_source *neff_src, *ntff_src;
	nxp_profile *p;
} pair;

static void pair_open(pair *pr, const char *prefix)
{
	size_t nl, tl;
	char *a = with_ext(prefix, ".neff"), *b = with_ext(prefix, ".ntff");
	pr->neff_mem = tu_read_file(a, &nl);
	pr->ntff_mem = tu_read_file(b, &tl);
	free(a);
	free(b);
	pr->neff_src = tu_chunky_source(pr->neff_mem, nl, 0);
	pr->ntff_src = tu_chunky_source(pr->ntff_mem, tl, 1);
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_open(&pr->p, pr->neff_src, pr->ntff_src, NULL, &st);
	ck_assert_msg(rc == 0, "profile open: %s", st.message);
}

static void pair_close(pair *pr)
{
	nxp_profile_close(pr->p);
	nxp_source_close(pr->neff_src);
	nxp_source_close(pr->ntff_src);
	free(pr->neff_mem);
	free(pr->ntff_mem);
}

static nxp_cursor *cur(nxp_profile *p, int table)
{
	nxp_cursor *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_cursor_open(&c, p, table, NULL, &st) == 0, "cursor: %s", st.message);
	return c;
}

START_TEST(demo_like_pair_is_consistent)
{
	synth_params p;
	synth_params_init(&p);
	p.arch = "trn2";
	p.lnc = 2;
	p.seed = 7;
	p.m = p.k = p.n = 1024;
	synth_result r;
	char *prefix = gen(&p, "mm", &r);
	pair pr;
	pair_open(&pr, prefix);

	nxp_metadata md;
	md.struct_size = sizeof(md);
	ck_assert_int_eq(nxp_profile_get_metadata(pr.p, &md), 0);
	ck_assert_str_eq(md.arch, "trn2");
	ck_assert_str_eq(md.instance_type, "trn2.48xlarge");
	ck_assert_int_eq(md.num_physical_cores, 2);
	ck_assert_int_eq(md.vnc_enabled, 1);
	ck_assert_int_eq(md.is_simulation, 1);
	ck_assert_int_eq(md.ticks_per_nanosec, 1);
	ck_assert(fabs(md.tensor_engine_clock_freq - 2.4) < 1e-9);
	ck_assert_int_eq(md.tensor_engine_num_rows, 128);
	ck_assert_int_eq(md.trace_count, (int64_t)(r.instructions + r.dma_packets + r.semaphore_updates + r.other_notes));
	ck_assert_int_eq(md.tpb_stop_ts - md.tpb_start_ts, (int64_t)r.total_ticks);

	const nxp_neff *neff = nxp_profile_neff(pr.p);
	nxp_neff_header h;
	h.struct_size = sizeof(h);
	ck_assert_int_eq(nxp_neff_get_header(neff, &h), 0);
	ck_assert_int_eq(h.lnc_size, 2);
	ck_assert_int_eq(h.num_tpb, 2);
	ck_assert_mem_eq(h.uuid, md.neff_uuid, 16);
	ck_assert_uint_eq(nxp_neff_subgraph_count(neff), 2);

	/* Instructions: counts, time order, in-order engines, FLOPs = the GEMM
	 * once per execution and iteration. */
	nxp_cursor *c = cur(pr.p, NXP_TABLE_INSTRUCTION);
	nxp_instruction in;
	in.struct_size = sizeof(in);
	uint64_t n = 0, mm = 0;
	int64_t flops = 0, last = INT64_MIN, wait = 0;
	int64_t eng_end[2][NXP_ENGINE_COUNT];
	for (int i = 0; i < 2; i++)
		for (int e = 0; e < NXP_ENGINE_COUNT; e++)
			eng_end[i][e] = INT64_MIN;
	int rc;
	while ((rc = nxp_cursor_next_instruction(c, &in)) == 0) {
		n++;
		ck_assert_int_ge(in.start_ts, last);
		last = in.start_ts;
		ck_assert_uint_eq(in.flags & NXP_INSTRUCTION_PC_UNKNOWN, 0);
		ck_assert(in.pcore_idx == 0 || in.pcore_idx == 1);
		ck_assert_int_ge(in.start_ts, eng_end[in.pcore_idx][in.engine_id]); /* one at a time per engine */
		eng_end[in.pcore_idx][in.engine_id] = in.end_ts;
		ck_assert(in.execution_index >= 0 && in.execution_index < 3);
		if (!strcmp(in.opcode, "MATMUL")) {
			mm++;
			flops += in.raw_flops;
			ck_assert_int_eq(in.raw_flops, 2LL * 128 * 128 * 512);
			/* ~N cycles at 2.4 GHz (plus overhead; longer inside a throttle window) */
			ck_assert_int_ge(in.duration_ns - in.evt_wait_time_ns, 220);
			ck_assert_int_le(in.duration_ns - in.evt_wait_time_ns, 500);
		}
		wait += in.evt_wait_time_ns;
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, r.instructions);
	ck_assert_int_eq(r.iterations, 1);
	ck_assert_int_eq(flops, r.model_flops * 3);
	ck_assert_uint_eq(mm, 3 * 8 * 2 * 8); /* executions x m tiles x n tiles x k tiles */
	ck_assert_int_gt(wait, 0);

	/* DMA: every byte the kernel moves, per execution: A and C once, B once
	 * per core (resident in SBUF). */
	c = cur(pr.p, NXP_TABLE_DMA_PACKET);
	nxp_dma_packet d;
	d.struct_size = sizeof(d);
	int64_t in_b = 0, w_b = 0, out_b = 0;
	n = 0;
	last = INT64_MIN;
	while ((rc = nxp_cursor_next_dma_packet(c, &d)) == 0) {
		n++;
		ck_assert_int_ge(d.start_ts, last);
		last = d.start_ts;
		ck_assert_int_gt(d.duration_ns, 0);
		if (!strcmp(d.queue_type, "input")) {
			in_b += d.read_bytes;
			ck_assert_str_eq(d.variable, "A");
			ck_assert_str_eq(d.source, "hbm");
			ck_assert_str_eq(d.dest, "sbuf");
		} else if (!strcmp(d.queue_type, "data")) {
			w_b += d.read_bytes;
			ck_assert_str_eq(d.variable, "B");
		} else {
			ck_assert_str_eq(d.queue_type, "output");
			out_b += d.write_bytes;
			ck_assert_str_eq(d.variable, "C");
			ck_assert_str_eq(d.dest, "hbm");
		}
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, r.dma_packets);
	ck_assert_int_eq(in_b, 3LL * 1024 * 1024 * 2);
	ck_assert_int_eq(w_b, 3LL * 2 * 1024 * 1024 * 2);
	ck_assert_int_eq(out_b, 3LL * 1024 * 1024 * 2);

	c = cur(pr.p, NXP_TABLE_SEMAPHORE_UPDATE);
	nxp_semaphore_update su;
	su.struct_size = sizeof(su);
	n = 0;
	last = INT64_MIN;
	while ((rc = nxp_cursor_next_semaphore_update(c, &su)) == 0) {
		n++;
		ck_assert_int_ge(su.timestamp, last);
		last = su.timestamp;
		ck_assert_int_ge(su.value, 0);
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, r.semaphore_updates);

	c = cur(pr.p, NXP_TABLE_EXECUTION);
	nxp_execution ex;
	ex.struct_size = sizeof(ex);
	n = 0;
	last = INT64_MIN;
	while ((rc = nxp_cursor_next_execution(c, &ex)) == 0) {
		ck_assert_int_eq(ex.execution_index, (int32_t)n);
		ck_assert_int_gt(ex.execution_start_ts, last);
		ck_assert_int_gt(ex.execution_end_ts, ex.execution_start_ts);
		ck_assert_int_eq(ex.num_subgraphs, 2);
		last = ex.execution_end_ts;
		n++;
	}
	ck_assert_int_eq(rc, NXP_END);
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, 3);

	c = cur(pr.p, NXP_TABLE_THROTTLE);
	nxp_throttle th;
	th.struct_size = sizeof(th);
	n = 0;
	while ((rc = nxp_cursor_next_throttle(c, &th)) == 0) {
		n++;
		ck_assert_int_lt(th.k, th.n);
		ck_assert_int_gt(th.duration, 0);
	}
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, 4); /* executions 1 and 2, on both cores */

	c = cur(pr.p, NXP_TABLE_ERROR);
	nxp_error_record er;
	er.struct_size = sizeof(er);
	n = 0;
	while ((rc = nxp_cursor_next_error(c, &er)) == 0) {
		n++;
		ck_assert_str_eq(er.type, "Custom Notification");
	}
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, 2);

	pair_close(&pr);
	free(prefix);
}
END_TEST

static int files_equal(const char *a, const char *b)
{
	size_t la, lb;
	void *x = tu_read_file(a, &la), *y = tu_read_file(b, &lb);
	int eq = la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return eq;
}

START_TEST(same_parameters_same_bytes)
{
	synth_params p;
	synth_params_init(&p);
	p.workload = "mlp";
	p.lnc = 2;
	p.seed = 42;
	p.m = 256;
	p.k = 256;
	p.n = 512;
	synth_result r1, r2, r3;
	char *a = gen(&p, "a", &r1), *b = gen(&p, "b", &r2);
	p.seed = 43;
	char *c = gen(&p, "c", &r3);
	const char *ext[2] = {".neff", ".ntff"};
	for (int i = 0; i < 2; i++) {
		char *fa = with_ext(a, ext[i]), *fb = with_ext(b, ext[i]), *fc = with_ext(c, ext[i]);
		ck_assert_msg(files_equal(fa, fb), "%s differs between two identical runs", ext[i]);
		ck_assert_msg(!files_equal(fa, fc), "%s is the same for another seed", ext[i]);
		free(fa);
		free(fb);
		free(fc);
	}
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(mlp_keeps_every_engine_busy)
{
	synth_params p;
	synth_params_init(&p);
	p.workload = "mlp";
	p.arch = "trn1";
	p.seed = 3;
	p.m = 512;
	p.k = 512;
	p.n = 1024;
	synth_result r;
	char *prefix = gen(&p, "mlp", &r);
	pair pr;
	pair_open(&pr, prefix);
	nxp_cursor *c = cur(pr.p, NXP_TABLE_INSTRUCTION);
	nxp_instruction in;
	in.struct_size = sizeof(in);
	uint64_t per_engine[NXP_ENGINE_COUNT] = {0};
	int gelu = 0, reduce = 0, tt = 0;
	while (nxp_cursor_next_instruction(c, &in) == 0) {
		per_engine[in.engine_id]++;
		if (!strcmp(in.opcode, "ACTIVATE") && !strcmp(in.scalar_activation_fn, "gelu"))
			gelu++;
		reduce += !strcmp(in.opcode, "REDUCE");
		tt += !strcmp(in.opcode, "TENSOR_TENSOR");
	}
	nxp_cursor_close(c);
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		ck_assert_msg(per_engine[e] > 0, "engine %d has no instructions", e);
	int tiles = 3 * 4 * 2; /* executions x m tiles x n tiles */
	ck_assert_int_eq(gelu, tiles);
	ck_assert_int_eq(reduce, tiles);
	ck_assert_int_eq(tt, tiles);
	pair_close(&pr);
	free(prefix);
}
END_TEST

START_TEST(instruction_count_scales_and_compression_keeps_records)
{
	synth_params p;
	synth_params_init(&p);
	p.seed = 1;
	p.instructions = 40000;
	synth_result r, rz;
	char *a = gen(&p, "big", &r);
	ck_assert_uint_ge(r.instructions, 30000);
	ck_assert_uint_le(r.instructions, 50000);
	ck_assert_uint_gt(r.iterations, 1);
	p.compress = 1;
	char *b = gen(&p, "bigz", &rz);
	ck_assert_uint_eq(rz.instructions, r.instructions);
	char *fa = with_ext(a, ".ntff"), *fb = with_ext(b, ".ntff");
	size_t la, lb;
	void *x = tu_read_file(fa, &la), *y = tu_read_file(fb, &lb);
	ck_assert_uint_lt(lb, la);
	free(x);
	free(y);

	nxp_profile *pp = NULL;
	nxp_status st;
	nxp_status_init(&st);
	char *na = with_ext(b, ".neff");
	ck_assert_msg(nxp_profile_open_path(&pp, na, fb, NULL, &st) == 0, "%s", st.message);
	nxp_cursor *c = cur(pp, NXP_TABLE_INSTRUCTION);
	nxp_instruction in;
	in.struct_size = sizeof(in);
	uint64_t n = 0;
	while (nxp_cursor_next_instruction(c, &in) == 0)
		n++;
	nxp_cursor_close(c);
	ck_assert_uint_eq(n, r.instructions);

	/* The metrics of a looped 1024^3 bf16 GEMM on one core look like a real
	 * kernel's: the Tensor engine is busy most of the time, not all of it. */
	nxp_summary *s = NULL;
	ck_assert_msg(nxp_profile_summarize(pp, NULL, &s, &st) == 0, "%s", st.message);
	nxp_summary_field hfu, mfu, te, mf;
	hfu.struct_size = mfu.struct_size = te.struct_size = mf.struct_size = sizeof(hfu);
	ck_assert_int_eq(nxp_summary_find(s, "hfu_estimated_percent", &hfu), 0);
	ck_assert_int_eq(nxp_summary_find(s, "mfu_estimated_percent", &mfu), 0);
	ck_assert_int_eq(nxp_summary_find(s, "tensor_engine_active_time_percent", &te), 0);
	ck_assert_int_eq(nxp_summary_find(s, "model_flops", &mf), 0);
	ck_assert(hfu.present && mfu.present && te.present && mf.present);
	ck_assert_msg(hfu.f > 0.4 && hfu.f < 0.9, "HFU %f", hfu.f);
	ck_assert_msg(te.f > 0.5 && te.f < 0.95, "tensor active %f", te.f);
	/* hlo_stats.json counts every iteration of one execution; the summary's
	 * model_flops covers every execution the trace recorded. */
	c = cur(pp, NXP_TABLE_EXECUTION);
	nxp_execution ex;
	ex.struct_size = sizeof(ex);
	int64_t execs = 0;
	while (nxp_cursor_next_execution(c, &ex) == 0)
		execs++;
	nxp_cursor_close(c);
	ck_assert_int_gt(execs, 1);
	ck_assert_int_eq(mf.i, 2LL * 1024 * 1024 * 1024 * (int64_t)r.iterations * execs);
	nxp_summary_close(s);
	nxp_profile_close(pp);
	free(na);
	free(fa);
	free(fb);
	free(a);
	free(b);
}
END_TEST

START_TEST(bad_parameters_are_refused)
{
	synth_params p;
	synth_params_init(&p);
	synth_result r;
	nxp_status st;
	char *prefix = tu_path(tmp, "bad");
	p.workload = "conv";
	ck_assert_int_eq(synth_run(&p, prefix, &r, &st), NXP_E_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(st.message, "conv"));
	synth_params_init(&p);
	p.arch = "trn9";
	ck_assert_int_eq(synth_run(&p, prefix, &r, &st), NXP_E_NOT_FOUND);
	synth_params_init(&p);
	p.m = 100;
	ck_assert_int_eq(synth_run(&p, prefix, &r, &st), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(st.message, "multiple of 128"));
	synth_params_init(&p);
	p.lnc = 2;
	p.m = 128; /* one row tile cannot be split over two cores */
	ck_assert_int_eq(synth_run(&p, prefix, &r, &st), NXP_E_INVAL);
	synth_params_init(&p);
	p.lnc = 3;
	ck_assert_int_eq(synth_run(&p, prefix, &r, &st), NXP_E_INVAL);
	ck_assert_int_eq(synth_run(NULL, prefix, &r, &st), NXP_E_INVAL);
	char *neff = with_ext(prefix, ".neff");
	ck_assert_int_ne(access(neff, F_OK), 0); /* nothing written */
	free(neff);
	free(prefix);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("synth");
	TCase *tc = tcase_create("synth");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, demo_like_pair_is_consistent);
	tcase_add_test(tc, same_parameters_same_bytes);
	tcase_add_test(tc, mlp_keeps_every_engine_busy);
	tcase_add_test(tc, instruction_count_scales_and_compression_keeps_records);
	tcase_add_test(tc, bad_parameters_are_refused);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
