/* SPDX-License-Identifier: MIT */
/* Region summaries (nxp_summary_options start_ts/end_ts, execution_index,
 * pcore_idx): a window over the whole trace is the full summary field by
 * field; two halves' instruction counts and FLOPs add up to the whole; an
 * execution is the window of its ExecutionInfo start/end; a pcore's counts are
 * its cursor's; 1 and 2 threads agree with a window; misuse is refused. */
#include <check.h>
#include <nxp/nxp.h>

#include "ntff_fixture.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nxp_profile *demo(nxp_metadata *md)
{
	nxp_profile *p = tu_open_demo();
	memset(md, 0, sizeof(*md));
	md->struct_size = sizeof(*md);
	ck_assert_int_eq(nxp_profile_get_metadata(p, md), NXP_OK);
	return p;
}

static nxp_summary *summ(nxp_profile *p, const nxp_summary_options *o)
{
	nxp_summary *s = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = o ? nxp_profile_summarize_opts(p, o, &s, &st) : nxp_profile_summarize(p, NULL, &s, &st);
	ck_assert_msg(rc == NXP_OK, "summarize: %s", st.message);
	return s;
}

static nxp_summary *window(nxp_profile *p, int64_t lo, int64_t hi, int64_t pcore, int32_t exec, int threads)
{
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	o.start_ts = lo;
	o.end_ts = hi;
	o.pcore_idx = pcore;
	o.execution_index = exec;
	o.threads = threads;
	return summ(p, &o);
}

static int64_t geti(const nxp_summary *s, const char *name)
{
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	ck_assert_msg(f.present, "%s absent", name);
	return f.i;
}

static double getf(const nxp_summary *s, const char *name)
{
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	ck_assert_msg(f.present, "%s absent", name);
	return f.f;
}

static int64_t instructions(const nxp_summary *s)
{
	static const char *const f[] = {"tensor_engine_instruction_count", "vector_engine_instruction_count",
					"scalar_engine_instruction_count", "gpsimd_engine_instruction_count",
					"sync_engine_instruction_count"};
	int64_t n = 0;
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
		n += geti(s, f[k]);
	return n;
}

START_TEST(test_whole_window)
{
	nxp_metadata md;
	nxp_profile *p = demo(&md);
	nxp_summary *full = summ(p, NULL);
	/* Every record starts at or after the first timestamp and ends by the last. */
	nxp_summary *w = window(p, md.first_hw_timestamp, md.last_hw_timestamp + 1, -1, -1, 1);
	tu_summary_same(full, w, "whole-trace window");
	nxp_summary_close(w);
	w = window(p, INT64_MIN, md.last_hw_timestamp + 1, -1, -1, 2);
	tu_summary_same(full, w, "whole-trace window, 2 threads");
	nxp_summary_close(w);
	nxp_summary_close(full);
	nxp_profile_close(p);
}
END_TEST

START_TEST(test_halves)
{
	nxp_metadata md;
	nxp_profile *p = demo(&md);
	nxp_summary *full = summ(p, NULL);
	const int64_t lo = md.first_hw_timestamp, hi = md.last_hw_timestamp + 1, mid = lo + (hi - lo) / 2;
	nxp_summary *a = window(p, lo, mid, -1, -1, 1), *b = window(p, mid, hi, -1, -1, 1);
	ck_assert_int_gt(instructions(a), 0);
	ck_assert_int_gt(instructions(b), 0);
	ck_assert_int_eq(instructions(a) + instructions(b), instructions(full));
	static const char *const sums[] = {"hardware_flops", "transpose_flops", "adjusted_hardware_flops",
					   "matmul_instruction_count", "dma_packet_count", "dma_transfer_total_bytes"};
	for (size_t k = 0; k < sizeof(sums) / sizeof(sums[0]); k++)
		ck_assert_msg(geti(a, sums[k]) + geti(b, sums[k]) == geti(full, sums[k]), "%s does not add up", sums[k]);
	/* total_time is the window clipped to the trace; no active time exceeds it. */
	ck_assert_int_eq((int64_t)(getf(a, "total_time") * 1e9 + 0.5), mid - lo);
	ck_assert_int_eq((int64_t)(getf(b, "total_time") * 1e9 + 0.5), md.last_hw_timestamp - mid);
	static const char *const act[] = {"total_active_time", "tensor_engine_active_time", "dma_active_time",
					  "total_exec_time"};
	for (size_t k = 0; k < sizeof(act) / sizeof(act[0]); k++) {
		ck_assert_msg(getf(a, act[k]) <= getf(a, "total_time"), "first half: %s > total_time", act[k]);
		ck_assert_msg(getf(b, act[k]) <= getf(b, "total_time"), "second half: %s > total_time", act[k]);
		ck_assert_msg(getf(a, act[k]) + getf(b, act[k]) <= getf(full, act[k]) * (1 + 1e-12),
			      "%s of the halves exceeds the whole", act[k]);
	}
	nxp_summary_close(a);
	nxp_summary_close(b);
	nxp_summary_close(full);
	nxp_profile_close(p);
}
END_TEST

START_TEST(test_execution)
{
	nxp_metadata md;
	nxp_profile *p = demo(&md);
	nxp_cursor *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_EXECUTION, NULL, &st), NXP_OK);
	nxp_execution x;
	x.struct_size = sizeof(x);
	int64_t lo = INT64_MAX, hi = INT64_MIN, n = 0;
	while (nxp_cursor_next_execution(c, &x) == NXP_OK) {
		n++;
		if (x.execution_index != 0)
			continue;
		lo = x.execution_start_ts < lo ? x.execution_start_ts : lo;
		hi = x.execution_end_ts > hi ? x.execution_end_ts : hi;
	}
	nxp_cursor_close(c);
	ck_assert_int_gt(n, 1);
	ck_assert_int_lt(lo, hi);
	nxp_summary *e = window(p, INT64_MIN, INT64_MAX, -1, 0, 1), *w = window(p, lo, hi, -1, -1, 1);
	tu_summary_same(w, e, "execution 0 vs its window");
	ck_assert_int_eq((int64_t)(getf(e, "total_time") * 1e9 + 0.5), hi - lo);
	ck_assert_int_gt(instructions(e), 0);
	nxp_summary_close(e);
	e = window(p, INT64_MIN, INT64_MAX, -1, 0, 2);
	tu_summary_same(w, e, "execution 0, 2 threads");
	nxp_summary_close(e);
	nxp_summary_close(w);
	nxp_profile_close(p);
}
END_TEST

START_TEST(test_pcore)
{
	nxp_metadata md;
	nxp_profile *p = demo(&md);
	ck_assert_int_ge(md.num_physical_cores, 2);
	for (int64_t core = 0; core < 2; core++) {
		nxp_cursor_options co;
		nxp_cursor_options_init(&co);
		co.pcore_idx = core;
		nxp_cursor *c = NULL;
		nxp_status st;
		nxp_status_init(&st);
		ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, &co, &st), NXP_OK);
		nxp_instruction in;
		in.struct_size = sizeof(in);
		int64_t n = 0, flops = 0;
		while (nxp_cursor_next_instruction(c, &in) == NXP_OK) {
			ck_assert_int_eq(in.pcore_idx, core);
			n++;
			flops += in.raw_flops + in.flops_transpose;
		}
		nxp_cursor_close(c);
		ck_assert_int_gt(n, 0);
		nxp_summary *s = window(p, INT64_MIN, INT64_MAX, core, -1, 1);
		ck_assert_int_eq(instructions(s), n);
		ck_assert_int_eq(geti(s, "hardware_flops"), flops);
		nxp_summary *s2 = window(p, INT64_MIN, INT64_MAX, core, -1, 2);
		tu_summary_same(s, s2, "pcore, 2 threads");
		nxp_summary_close(s2);
		nxp_summary_close(s);
	}
	nxp_profile_close(p);
}
END_TEST

START_TEST(test_threads_window)
{
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = 2;
	spec.rps = 97;
	spec.n_instr = 3000;
	spec.n_dma = 2000;
	spec.seed = 5;
	tu_synth sy;
	tu_synth_write(&sy, &spec);
	nxp_profile *p = tu_synth_open(&sy, NULL);
	nxp_status st;
	nxp_status_init(&st);
	/* The middle third of the instructions (by start). */
	nxp_cursor *c = NULL;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, &st), NXP_OK);
	nxp_instruction in;
	in.struct_size = sizeof(in);
	int64_t *starts = NULL, n = 0;
	while (nxp_cursor_next_instruction(c, &in) == NXP_OK) {
		starts = realloc(starts, (size_t)(n + 1) * sizeof(*starts));
		starts[n++] = in.start_ts;
	}
	nxp_cursor_close(c);
	ck_assert_int_gt(n, 30);
	const int64_t lo = starts[n / 3], hi = starts[2 * n / 3];
	free(starts);
	ck_assert_int_lt(lo, hi);
	static const int64_t cores[] = {-1, 1};
	for (size_t k = 0; k < 2; k++) {
		nxp_summary *a = window(p, lo, hi, cores[k], -1, 1), *b = window(p, lo, hi, cores[k], -1, 2);
		ck_assert_int_gt(instructions(a), 0);
		ck_assert_msg(getf(a, "dma_active_time") > 0, "no DMA in the window");
		tu_summary_same(a, b, "synth window, 1 vs 2 threads");
		nxp_summary_close(b);
		b = window(p, lo, hi, cores[k], -1, 3);
		tu_summary_same(a, b, "synth window, 1 vs 3 threads");
		nxp_summary_close(b);
		nxp_summary_close(a);
	}
	nxp_profile_close(p);
	tu_synth_free(&sy);
}
END_TEST

START_TEST(test_misuse)
{
	nxp_metadata md;
	nxp_profile *p = demo(&md);
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	ck_assert_int_eq(o.start_ts, INT64_MIN);
	ck_assert_int_eq(o.end_ts, INT64_MAX);
	ck_assert_int_eq(o.execution_index, -1);
	ck_assert_int_eq(o.pcore_idx, -1);
	ck_assert_uint_eq(sizeof(o), NXP_SUMMARY_OPTIONS_SIZE_V0_2 + (sizeof(o) - NXP_SUMMARY_OPTIONS_SIZE_V0_2));
	nxp_summary *s = (nxp_summary *)1;
	nxp_status st;
	nxp_status_init(&st);
	o.start_ts = o.end_ts = 5;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, &st), NXP_E_INVAL);
	ck_assert_ptr_null(s);
	nxp_summary_options_init(&o);
	o.pcore_idx = md.num_physical_cores;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, &st), NXP_E_RANGE);
	ck_assert_ptr_nonnull(strstr(st.message, "0..1"));
	nxp_summary_options_init(&o);
	o.execution_index = 99;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, &st), NXP_E_RANGE);
	ck_assert_ptr_nonnull(strstr(st.message, "0..2"));
	nxp_summary_options_init(&o);
	o.pcore_idx = -2;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, &st), NXP_E_INVAL);
	nxp_summary_options_init(&o);
	o.struct_size = NXP_SUMMARY_OPTIONS_SIZE_V0_2 - 1;
	ck_assert_int_eq(nxp_profile_summarize_opts(p, &o, &s, &st), NXP_E_INVAL);
	/* A window beside the trace: nothing selected, total_time 0. */
	s = window(p, md.last_hw_timestamp + 1000, md.last_hw_timestamp + 2000, -1, -1, 1);
	ck_assert(getf(s, "total_time") == 0.0);
	ck_assert_int_eq(instructions(s), 0);
	nxp_summary_close(s);
	nxp_profile_close(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("region");
	TCase *tc = tcase_create("region");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_whole_window);
	tcase_add_test(tc, test_halves);
	tcase_add_test(tc, test_execution);
	tcase_add_test(tc, test_pcore);
	tcase_add_test(tc, test_threads_window);
	tcase_add_test(tc, test_misuse);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
