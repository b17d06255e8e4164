/* SPDX-License-Identifier: MIT */
/* Summary: nxp_profile_summarize over the fixture NEFF + a fuzzed NTFF (one
 * streaming pass, every metric), and nxp_summary_derive over fuzzed raw
 * counters and hardware constants (NaN, infinities, zeros, huge values: the
 * float-to-int and ratio paths).
 * Input: [mode] ...
 *   mode bit 0 clear: [mode] [ctl] [NTFF bytes...]; mode bit 1: SKIP_CRC;
 *                     bit 2: pass a hardware description for "trn1".
 *   mode bit 0 set:   [mode] [arch] then (field index u8, value f64) pairs,
 *                     and after a 0xff index, hardware overrides. */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	return 0;
}

static void walk(const nxp_summary *s)
{
	size_t n = nxp_summary_field_count(s);
	for (size_t i = 0; i < n; i++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		if (nxp_summary_get_field(s, i, &f) != NXP_OK)
			abort();
		sink += fz_touch(f.name) + fz_touch(f.unit) + fz_touch(f.group);
		nxp_summary_field g;
		g.struct_size = sizeof(g);
		if (nxp_summary_find(s, f.name, &g) != NXP_OK || g.present != f.present)
			abort(); /* by-name and by-index must agree */
		if (f.present && f.kind == NXP_VALUE_FLOAT && isnan(f.f))
			sink++; /* NaN presented as a value: see report */
	}
	for (size_t i = 0; i < nxp_summary_opcode_count(s); i++) {
		nxp_opcode_summary o;
		o.struct_size = sizeof(o);
		if (nxp_summary_get_opcode(s, i, &o) != NXP_OK)
			abort();
		sink += fz_touch(o.engine) + fz_touch(o.opcode);
	}
	for (size_t i = 0; i < nxp_summary_throttle_count(s); i++) {
		nxp_throttle_summary t;
		t.struct_size = sizeof(t);
		if (nxp_summary_get_throttle(s, i, &t) != NXP_OK)
			abort();
		sink += fz_touch(t.throttle_type);
	}
}

static double take_f64(fz_input *in)
{
	uint64_t bits = fz_take_u64(in);
	double d;
	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void derive(fz_input *in)
{
	static const char *const arches[] = {"trn1", "inf2", "trn2", "trn3"};
	nxp_summary *s = NULL;
	if (nxp_summary_new(&s) != NXP_OK)
		abort();
	nxp_hardware hw;
	hw.struct_size = sizeof(hw);
	if (nxp_hardware_for_arch(arches[fz_take_u8(in) % 4], &hw) != NXP_OK)
		abort();
	size_t n = nxp_summary_field_count(s);
	while (in->size >= 9) {
		uint8_t idx = fz_take_u8(in);
		double v = take_f64(in);
		if (idx == 0xff)
			break;
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		if (n && nxp_summary_get_field(s, idx % n, &f) == NXP_OK)
			nxp_summary_set(s, f.name, v);
	}
	double *hwf[] = {&hw.tensor_engine_clock_freq, &hw.vector_engine_clock_freq, &hw.scalar_engine_clock_freq,
			 &hw.gpsimd_engine_clock_freq, &hw.neuroncore_clock_freq, &hw.hbm_bandwidth,
			 &hw.dma_ddr_bandwidth, &hw.fp8_flops_multiplier};
	while (in->size >= 9) {
		uint8_t idx = fz_take_u8(in);
		double v = take_f64(in);
		if (idx < sizeof(hwf) / sizeof(hwf[0]))
			*hwf[idx] = v;
		else if (idx == 8)
			hw.tensor_engine_num_rows = (int64_t)fz_take_u64(in);
		else if (idx == 9)
			hw.tensor_engine_num_cols = (int64_t)fz_take_u64(in);
	}
	sink += nxp_hardware_max_ops(&hw) > 0;
	if (nxp_summary_derive(s, &hw) != NXP_OK)
		abort();
	walk(s);
	nxp_summary_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t mode = fz_take_u8(&in);
	if (mode & 1) {
		derive(&in);
		return 0;
	}
	nxp_profile_options opts;
	nxp_profile_options_init(&opts);
	if (mode & 2)
		opts.flags |= NXP_PROFILE_SKIP_CRC;
	fz_fixture_pair fx;
	if (fz_fixture_pair_open(&fx, &in, &opts, NULL) == NXP_OK) {
		nxp_profile *p = fx.p;
		nxp_hardware hw;
		hw.struct_size = sizeof(hw);
		const nxp_hardware *hwp = NULL;
		if ((mode & 4) && nxp_hardware_for_arch("trn1", &hw) == NXP_OK)
			hwp = &hw;
		nxp_summary *s = NULL;
		nxp_status st;
		nxp_status_init(&st);
		int rc = nxp_profile_summarize(p, hwp, &s, &st);
		if (rc == NXP_OK)
			walk(s);
		else {
			FZ_CHECK(s == NULL, "nxp_profile_summarize failed (%d) but returned a summary", rc);
			fz_check_error(rc, &st, UINT64_MAX, "nxp_profile_summarize");
		}
		nxp_summary_close(s);
	}
	fz_fixture_pair_close(&fx);
	return 0;
}
