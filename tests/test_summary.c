/* SPDX-License-Identifier: MIT */
/* Summary: hardware tables, the field registry, accessors, and every formula of
 * nxp_summary_derive() against hand-computed values. */
#include "summary_priv.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Relative comparison for derived doubles. */
#define ck_assert_near(a, b)                                                                           \
	do {                                                                                           \
		double a_ = (a), b_ = (b);                                                             \
		ck_assert_msg(fabs(a_ - b_) <= 1e-12 * fmax(1.0, fabs(b_)), "%s = %.17g, expected %.17g", \
			      #a, a_, b_);                                                             \
	} while (0)

static nxp_hardware hw_of(const char *arch)
{
	nxp_hardware hw;
	hw.struct_size = sizeof(hw);
	ck_assert_int_eq(nxp_hardware_for_arch(arch, &hw), NXP_OK);
	return hw;
}

static double get(const nxp_summary *s, const char *name)
{
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	ck_assert_msg(f.present, "%s should be present", name);
	return f.f;
}

static int present(const nxp_summary *s, const char *name)
{
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	return f.present;
}

static void set(nxp_summary *s, const char *name, double v)
{
	ck_assert_int_eq(nxp_summary_set(s, name, v), NXP_OK);
}

/* ------------------------------------------------------------------------ */

START_TEST(test_hardware_tables)
{
	nxp_hardware t1 = hw_of("trn1"), i2 = hw_of("inf2"), t2 = hw_of("TRN2"), t3 = hw_of("trn3");
	/* metrics.md: max_ops = 2 x 128 x 128 x TE clock. */
	ck_assert_near(nxp_hardware_max_ops(&t1), 91.7504e12);
	ck_assert_near(nxp_hardware_max_ops(&i2), 91.7504e12);
	ck_assert_near(nxp_hardware_max_ops(&t2), 78.6432e12);
	ck_assert_near(nxp_hardware_max_ops(&t3), 78.6432e12);
	ck_assert_str_eq(t1.arch, "trn1");
	ck_assert_str_eq(t2.arch, "trn2");
	ck_assert_int_eq(t1.tensor_engine_num_rows, 128);
	ck_assert_int_eq(t1.tensor_engine_num_cols, 128);
	ck_assert_near(t1.vector_engine_clock_freq, 1.12);
	ck_assert_near(t1.scalar_engine_clock_freq, 1.4);
	ck_assert_near(t1.gpsimd_engine_clock_freq, 1.4);
	ck_assert_near(t1.neuroncore_clock_freq, 1.4);
	ck_assert_near(t1.hbm_bandwidth, 410e9);
	ck_assert_near(t1.dma_ddr_bandwidth, 0.0); /* not public */
	ck_assert_near(t1.fp8_flops_multiplier, 1.0);
	ck_assert_near(t2.vector_engine_clock_freq, 0.96);
	ck_assert_near(t2.neuroncore_clock_freq, 1.2);
	ck_assert_near(t2.hbm_bandwidth, 716e9);
	ck_assert_near(t2.dma_ddr_bandwidth, 435e9);
	ck_assert_near(t2.fp8_flops_multiplier, 0.5);
	ck_assert_near(t3.vector_engine_clock_freq, 1.2);
	ck_assert_near(t3.neuroncore_clock_freq, 1.2); /* assumption */
	ck_assert(t3.hbm_bandwidth > 0.0);           /* assumption, overridable */
}
END_TEST

START_TEST(test_hardware_misuse)
{
	nxp_hardware hw;
	hw.struct_size = sizeof(hw);
	ck_assert_int_eq(nxp_hardware_for_arch("trn9", &hw), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_hardware_for_arch("", &hw), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_hardware_for_arch(NULL, &hw), NXP_E_INVAL);
	ck_assert_int_eq(nxp_hardware_for_arch("trn1", NULL), NXP_E_INVAL);
	hw.struct_size = NXP_HARDWARE_MIN_SIZE - 1;
	ck_assert_int_eq(nxp_hardware_for_arch("trn1", &hw), NXP_E_INVAL);
	ck_assert(nxp_hardware_max_ops(NULL) == 0.0);
	ck_assert(nxp_hardware_max_ops(&hw) == 0.0);

	/* A newer caller's larger struct: the unknown tail is zeroed. */
	struct {
		nxp_hardware hw;
		double future[4];
	} big;
	memset(&big, 0xAB, sizeof(big));
	big.hw.struct_size = sizeof(big);
	ck_assert_int_eq(nxp_hardware_for_arch("trn2", &big.hw), NXP_OK);
	ck_assert_uint_eq(big.hw.struct_size, sizeof(big));
	for (int k = 0; k < 4; k++)
		ck_assert(big.future[k] == 0.0);
	ck_assert_near(big.hw.tensor_engine_clock_freq, 2.4);
}
END_TEST

/* The public Summary columns (schema.md, Summary), with their types and units. */
static const struct {
	const char *name;
	int kind;
	const char *unit;
} schema_fields[] = {
	{"total_time", NXP_VALUE_FLOAT, "seconds"},
	{"neuroncore_cycle_count", NXP_VALUE_INT, "cycles"},
	{"model_flops", NXP_VALUE_INT, "flops"},
	{"hardware_flops", NXP_VALUE_INT, "flops"},
	{"transpose_flops", NXP_VALUE_INT, "flops"},
	{"adjusted_hardware_flops", NXP_VALUE_INT, "flops"},
	{"adjusted_transpose_flops", NXP_VALUE_INT, "flops"},
	{"mm_arithmetic_intensity", NXP_VALUE_FLOAT, ""},
	{"peak_flops_bandwidth_ratio", NXP_VALUE_FLOAT, ""},
	{"trace_count", NXP_VALUE_INT, ""},
	{"event_count", NXP_VALUE_INT, ""},
	{"total_row_count", NXP_VALUE_INT, ""},
	{"dma_active_cycles", NXP_VALUE_INT, "cycles"},
	{"dma_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"dma_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"static_dma_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"dynamic_dma_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"static_dma_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"dma_transfer_average_bytes", NXP_VALUE_FLOAT, "bytes"},
	{"dma_packet_time", NXP_VALUE_FLOAT, "seconds"},
	{"dma_transfer_time", NXP_VALUE_FLOAT, "seconds"},
	{"dma_transfer_count", NXP_VALUE_INT, ""},
	{"dma_transfer_total_bytes", NXP_VALUE_INT, "bytes"},
	{"dma_queue_count", NXP_VALUE_INT, ""},
	{"inputs_and_weights_size_bytes", NXP_VALUE_INT, "bytes"},
	{"inputs_outputs_weights_size_bytes", NXP_VALUE_INT, "bytes"},
	{"weight_size_bytes", NXP_VALUE_INT, "bytes"},
	{"static_dma_packet_count", NXP_VALUE_INT, ""},
	{"static_dma_size", NXP_VALUE_INT, "bytes"},
	{"dynamic_dma_packet_percent", NXP_VALUE_FLOAT, "percent"},
	{"static_dma_packet_percent", NXP_VALUE_FLOAT, "percent"},
	{"dynamic_dma_size_percent", NXP_VALUE_FLOAT, "percent"},
	{"static_dma_size_percent", NXP_VALUE_FLOAT, "percent"},
	{"mbu_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"mbu_min_read_util_percent", NXP_VALUE_FLOAT, "percent"},
	{"hbm_write_bytes", NXP_VALUE_INT, "bytes"},
	{"hbm_read_bytes", NXP_VALUE_INT, "bytes"},
	{"sbuf_write_bytes", NXP_VALUE_INT, "bytes"},
	{"sbuf_read_bytes", NXP_VALUE_INT, "bytes"},
	{"spill_save_bytes", NXP_VALUE_INT, "bytes"},
	{"spill_reload_bytes", NXP_VALUE_INT, "bytes"},
	{"psum_write_bytes", NXP_VALUE_INT, "bytes"},
	{"psum_read_bytes", NXP_VALUE_INT, "bytes"},
	{"psum_read_sbuf_write_count", NXP_VALUE_INT, ""},
	{"psum_read_sbuf_write_bytes", NXP_VALUE_INT, "bytes"},
	{"input_queue_bytes", NXP_VALUE_INT, "bytes"},
	{"output_queue_bytes", NXP_VALUE_INT, "bytes"},
	{"weight_queue_bytes", NXP_VALUE_INT, "bytes"},
	{"software_dynamic_dma_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"software_dynamic_dma_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"software_dynamic_dma_packet_count", NXP_VALUE_INT, ""},
	{"software_dynamic_dma_size", NXP_VALUE_INT, "bytes"},
	{"software_dynamic_dma_packet_percent", NXP_VALUE_FLOAT, "percent"},
	{"software_dynamic_dma_size_percent", NXP_VALUE_FLOAT, "percent"},
	{"hardware_dynamic_dma_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"hardware_dynamic_dma_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"hardware_dynamic_dma_packet_count", NXP_VALUE_INT, ""},
	{"hardware_dynamic_dma_size", NXP_VALUE_INT, "bytes"},
	{"hardware_dynamic_dma_packet_percent", NXP_VALUE_FLOAT, "percent"},
	{"hardware_dynamic_dma_size_percent", NXP_VALUE_FLOAT, "percent"},
	{"tensor_engine_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"tensor_engine_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"tensor_engine_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"tensor_engine_instruction_count", NXP_VALUE_INT, ""},
	{"matmul_instruction_count", NXP_VALUE_INT, ""},
	{"mfu_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"mfu_max_achievable_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"mfu_hlo_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"mfu_hlo_max_achievable_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"mfu_inst_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"mfu_inst_max_achievable_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"hfu_estimated_percent", NXP_VALUE_FLOAT, "percent"},
	{"vector_engine_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"vector_engine_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"vector_engine_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"vector_engine_instruction_count", NXP_VALUE_INT, ""},
	{"scalar_engine_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"scalar_engine_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"scalar_engine_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"scalar_engine_instruction_count", NXP_VALUE_INT, ""},
	{"activate_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"activate_instruction_count", NXP_VALUE_INT, ""},
	{"sync_engine_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"sync_engine_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"sync_engine_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"sync_engine_instruction_count", NXP_VALUE_INT, ""},
	{"gpsimd_engine_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"gpsimd_engine_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"gpsimd_engine_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"gpsimd_engine_instruction_count", NXP_VALUE_INT, ""},
	{"cc_op_time", NXP_VALUE_FLOAT, "seconds"},
	{"cc_op_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"cc_op_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"cc_op_count", NXP_VALUE_INT, ""},
	{"cc_cores_instruction_time", NXP_VALUE_FLOAT, "seconds"},
	{"cc_cores_instruction_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"cc_cores_instruction_active_time_percent", NXP_VALUE_FLOAT, "percent"},
	{"cc_cores_instruction_count", NXP_VALUE_INT, ""},
	{"total_exec_time", NXP_VALUE_FLOAT, "seconds"},
	{"total_active_time", NXP_VALUE_FLOAT, "seconds"},
	{"total_active_time_percent", NXP_VALUE_FLOAT, "percent"},
};
#define N_SCHEMA (sizeof(schema_fields) / sizeof(schema_fields[0]))

static const char *const groups[] = {"overall", "data movement", "tensor", "vector", "scalar",
				     "sync",    "gpsimd",        "collectives", "throttling"};

START_TEST(test_registry_covers_schema)
{
	nxp_summary *s;
	ck_assert_int_eq(nxp_summary_new(&s), NXP_OK);
	ck_assert_uint_eq(N_SCHEMA, 101);
	for (size_t k = 0; k < N_SCHEMA; k++) {
		nxp_summary_field f;
		memset(&f, 0x5A, sizeof(f));
		f.struct_size = sizeof(f);
		ck_assert_msg(nxp_summary_find(s, schema_fields[k].name, &f) == NXP_OK, "%s missing",
			      schema_fields[k].name);
		ck_assert_str_eq(f.name, schema_fields[k].name);
		ck_assert_msg(f.kind == schema_fields[k].kind, "%s kind", f.name);
		ck_assert_str_eq(f.unit, schema_fields[k].unit);
		ck_assert_int_eq(f.present, 0);
		ck_assert_int_eq(f.extension, 0);
		ck_assert_int_eq(f.i, 0);
		ck_assert(f.f == 0.0);
		/* Every *_percent is a derived fraction. */
		if (strstr(f.name, "_percent"))
			ck_assert_msg(f.derived, "%s should be derived", f.name);
	}

	/* Every registry field: a schema name (in schema order), or a flagged extension. */
	size_t n = nxp_summary_field_count(s);
	ck_assert_uint_eq(n, nxp_summary_field_count(NULL));
	ck_assert_uint_ge(n, N_SCHEMA);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		ck_assert_int_eq(nxp_summary_get_field(s, k, &f), NXP_OK);
		if (k < N_SCHEMA) {
			ck_assert_str_eq(f.name, schema_fields[k].name);
		} else {
			ck_assert_msg(f.extension, "%s is not a schema name and not flagged", f.name);
		}
		int g = 0;
		for (size_t j = 0; j < sizeof(groups) / sizeof(groups[0]); j++)
			g |= !strcmp(f.group, groups[j]);
		ck_assert_msg(g, "%s: unknown group %s", f.name, f.group);
		/* Names are unique. */
		nxp_summary_field again;
		again.struct_size = sizeof(again);
		ck_assert_int_eq(nxp_summary_find(s, f.name, &again), NXP_OK);
		ck_assert_ptr_eq(again.name, f.name);
	}
	ck_assert_int_eq(nxp_summary_get_field(s, n, &(nxp_summary_field){.struct_size = sizeof(nxp_summary_field)}),
			 NXP_E_RANGE);
	nxp_summary_close(s);
}
END_TEST

START_TEST(test_set_unset_and_misuse)
{
	nxp_summary *s;
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_summary_new(NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_new(&s), NXP_OK);

	/* Ints round half away from zero; f mirrors i. */
	set(s, "trace_count", 41.5);
	ck_assert_int_eq(nxp_summary_find(s, "trace_count", &f), NXP_OK);
	ck_assert_int_eq(f.present, 1);
	ck_assert_int_eq(f.i, 42);
	ck_assert(f.f == 42.0);
	set(s, "hbm_read_bytes", 1e15);
	ck_assert_int_eq(nxp_summary_find(s, "hbm_read_bytes", &f), NXP_OK);
	ck_assert_int_eq(f.i, 1000000000000000LL);
	set(s, "total_time", 0.25);
	ck_assert(get(s, "total_time") == 0.25);
	ck_assert_int_eq(nxp_summary_unset(s, "total_time"), NXP_OK);
	ck_assert_int_eq(present(s, "total_time"), 0);

	ck_assert_int_eq(nxp_summary_set(s, "no_such_field", 1.0), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_summary_unset(s, "no_such_field"), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_summary_find(s, "no_such_field", &f), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_summary_set(s, "total_time", NAN), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_set(s, "total_time", INFINITY), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_set(s, "trace_count", 1e30), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_set(NULL, "total_time", 1.0), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_set(s, NULL, 1.0), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_unset(NULL, "total_time"), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_find(NULL, "total_time", &f), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_find(s, "total_time", NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_summary_get_field(NULL, 0, &f), NXP_E_INVAL);
	f.struct_size = offsetof(nxp_summary_field, f); /* too short */
	ck_assert_int_eq(nxp_summary_get_field(s, 0, &f), NXP_E_INVAL);

	/* An older caller's struct (the 0.1 layout, without extension/derived). */
	struct {
		size_t struct_size;
		const char *name, *unit, *group;
		int32_t kind, present;
		int64_t i;
		double f;
	} old;
	old.struct_size = sizeof(old);
	ck_assert_int_eq(nxp_summary_find(s, "trace_count", (nxp_summary_field *)&old), NXP_OK);
	ck_assert_str_eq(old.name, "trace_count");
	ck_assert_int_eq(old.i, 42);

	/* No rows, no hardware in a fresh summary. */
	ck_assert_uint_eq(nxp_summary_opcode_count(s), 0);
	ck_assert_uint_eq(nxp_summary_throttle_count(s), 0);
	ck_assert_uint_eq(nxp_summary_opcode_count(NULL), 0);
	ck_assert_uint_eq(nxp_summary_throttle_count(NULL), 0);
	nxp_opcode_summary o;
	o.struct_size = sizeof(o);
	ck_assert_int_eq(nxp_summary_get_opcode(s, 0, &o), NXP_E_RANGE);
	ck_assert_int_eq(nxp_summary_get_opcode(NULL, 0, &o), NXP_E_INVAL);
	nxp_throttle_summary t;
	t.struct_size = sizeof(t);
	ck_assert_int_eq(nxp_summary_get_throttle(s, 0, &t), NXP_E_RANGE);
	ck_assert_int_eq(nxp_summary_get_throttle(s, 0, NULL), NXP_E_INVAL);
	nxp_hardware hw;
	hw.struct_size = sizeof(hw);
	ck_assert_int_eq(nxp_summary_get_hardware(s, &hw), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_summary_get_hardware(NULL, &hw), NXP_E_INVAL);

	ck_assert_int_eq(nxp_summary_derive(NULL, NULL), NXP_E_INVAL);
	hw = hw_of("trn1");
	hw.struct_size = 8;
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_E_INVAL);
	nxp_summary_close(s);
	nxp_summary_close(NULL);
}
END_TEST

/* A summary with every raw counter the derivation reads. */
static nxp_summary *raw_counters(void)
{
	nxp_summary *s;
	ck_assert_int_eq(nxp_summary_new(&s), NXP_OK);
	set(s, "total_time", 0.002);
	set(s, "model_flops", 5e10);
	set(s, "hardware_flops", 1e11);
	set(s, "transpose_flops", 1e10);
	set(s, "hbm_read_bytes", 3e8);
	set(s, "hbm_write_bytes", 1e8);
	set(s, "inputs_and_weights_size_bytes", 2e8);
	set(s, "dma_active_time", 0.001);
	set(s, "static_dma_active_time", 0.0008);
	set(s, "dynamic_dma_active_time", 0.0003);
	set(s, "software_dynamic_dma_active_time", 0.0002);
	set(s, "hardware_dynamic_dma_active_time", 0.00015);
	set(s, "dma_transfer_total_bytes", 4e8);
	set(s, "dma_transfer_count", 1000);
	set(s, "dma_packet_count", 5000);
	set(s, "static_dma_packet_count", 4000);
	set(s, "software_dynamic_dma_packet_count", 600);
	set(s, "hardware_dynamic_dma_packet_count", 400);
	set(s, "static_dma_size", 3e8);
	set(s, "software_dynamic_dma_size", 6e7);
	set(s, "hardware_dynamic_dma_size", 4e7);
	set(s, "tensor_engine_active_time", 0.0015);
	set(s, "vector_engine_active_time", 0.0005);
	set(s, "scalar_engine_active_time", 0.0004);
	set(s, "sync_engine_active_time", 0.0001);
	set(s, "gpsimd_engine_active_time", 0.0002);
	set(s, "total_active_time", 0.0019);
	return s;
}

START_TEST(test_derive_trn1)
{
	nxp_summary *s = raw_counters();
	nxp_hardware hw = hw_of("trn1");
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	/* Hand-computed: max_ops = 2*128*128*2.8e9 = 91.7504e12 FLOP/s; in 2 ms the
	 * Tensor engine could do 1.835008e11 FLOPs; HBM traffic 4e8 bytes. */
	ck_assert_near(get(s, "mfu_estimated_percent"), 0.27247837611607145);
	ck_assert_near(get(s, "mfu_hlo_estimated_percent"), 0.27247837611607145);
	ck_assert_near(get(s, "mfu_inst_estimated_percent"), 0.49046107700892855);
	ck_assert_near(get(s, "hfu_estimated_percent"), 0.5449567522321429);
	ck_assert_near(get(s, "mm_arithmetic_intensity"), 225.0); /* 9e10 / 4e8 */
	ck_assert_near(get(s, "peak_flops_bandwidth_ratio"), 223.78146341463415);
	ck_assert_near(get(s, "mfu_max_achievable_estimated_percent"), 0.5585806710379464); /* 125 / 223.78 */
	ck_assert_near(get(s, "mfu_hlo_max_achievable_estimated_percent"), 0.5585806710379464);
	ck_assert_near(get(s, "mfu_inst_max_achievable_estimated_percent"), 225.0 / 223.78146341463415);
	ck_assert_near(get(s, "mbu_estimated_percent"), 0.4878048780487805);     /* 4e8/2ms/410e9 */
	ck_assert_near(get(s, "mbu_min_read_util_percent"), 0.24390243902439024); /* 2e8/2ms/410e9 */
	ck_assert_int_eq((int64_t)get(s, "neuroncore_cycle_count"), 2800000); /* 2 ms x 1.4 GHz */
	ck_assert_int_eq((int64_t)get(s, "dma_active_cycles"), 1400000);
	ck_assert_near(get(s, "dma_transfer_average_bytes"), 400000.0);
	ck_assert_near(get(s, "dma_active_time_percent"), 0.5);
	ck_assert_near(get(s, "static_dma_active_time_percent"), 0.4);
	ck_assert_near(get(s, "dynamic_dma_active_time_percent"), 0.15);
	ck_assert_near(get(s, "software_dynamic_dma_active_time_percent"), 0.1);
	ck_assert_near(get(s, "hardware_dynamic_dma_active_time_percent"), 0.075);
	ck_assert_near(get(s, "static_dma_packet_percent"), 0.8);
	ck_assert_near(get(s, "dynamic_dma_packet_percent"), 0.2);
	ck_assert_near(get(s, "software_dynamic_dma_packet_percent"), 0.12);
	ck_assert_near(get(s, "hardware_dynamic_dma_packet_percent"), 0.08);
	ck_assert_near(get(s, "static_dma_size_percent"), 0.75);
	ck_assert_near(get(s, "dynamic_dma_size_percent"), 0.25);
	ck_assert_near(get(s, "software_dynamic_dma_size_percent"), 0.15);
	ck_assert_near(get(s, "hardware_dynamic_dma_size_percent"), 0.1);
	ck_assert_near(get(s, "tensor_engine_active_time_percent"), 0.75);
	ck_assert_near(get(s, "vector_engine_active_time_percent"), 0.25);
	ck_assert_near(get(s, "scalar_engine_active_time_percent"), 0.2);
	ck_assert_near(get(s, "sync_engine_active_time_percent"), 0.05);
	ck_assert_near(get(s, "gpsimd_engine_active_time_percent"), 0.1);
	ck_assert_near(get(s, "total_active_time_percent"), 0.95);
	/* No collectives in the inputs: absent, never 0. */
	ck_assert_int_eq(present(s, "cc_op_active_time_percent"), 0);
	ck_assert_int_eq(present(s, "cc_cores_instruction_active_time_percent"), 0);
	/* The hardware used is remembered. */
	nxp_hardware used;
	used.struct_size = sizeof(used);
	ck_assert_int_eq(nxp_summary_get_hardware(s, &used), NXP_OK);
	ck_assert_str_eq(used.arch, "trn1");
	/* Deriving again gives the same result. */
	double mfu = get(s, "mfu_estimated_percent");
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert(get(s, "mfu_estimated_percent") == mfu);
	nxp_summary_close(s);
}
END_TEST

START_TEST(test_derive_trn2_and_override)
{
	nxp_summary *s = raw_counters();
	nxp_hardware hw = hw_of("trn2");
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	/* max_ops = 78.6432e12; 2 ms -> 1.572864e11 FLOPs; hbm_bw 716e9. */
	ck_assert_near(get(s, "mfu_estimated_percent"), 5e10 / 1.572864e11);
	ck_assert_near(get(s, "hfu_estimated_percent"), 1e11 / 1.572864e11);
	ck_assert_near(get(s, "peak_flops_bandwidth_ratio"), 109.83687150837989);
	ck_assert_near(get(s, "mfu_max_achievable_estimated_percent"), 125.0 / 109.83687150837989);
	ck_assert_near(get(s, "mbu_estimated_percent"), 4e8 / 0.002 / 716e9);
	ck_assert_int_eq((int64_t)get(s, "neuroncore_cycle_count"), 2400000);

	/* Caller overrides: a different clock and bandwidth change the results. */
	hw.tensor_engine_clock_freq = 1.0;
	hw.hbm_bandwidth = 1e12;
	hw.neuroncore_clock_freq = 2.0;
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert_near(get(s, "hfu_estimated_percent"), 1e11 / (2.0 * 128 * 128 * 1e9 * 0.002));
	ck_assert_near(get(s, "peak_flops_bandwidth_ratio"), 2.0 * 128 * 128 * 1e9 / 1e12);
	ck_assert_near(get(s, "mbu_estimated_percent"), 4e8 / 0.002 / 1e12);
	ck_assert_int_eq((int64_t)get(s, "neuroncore_cycle_count"), 4000000);

	/* An older caller's hardware struct still works (tail from the arch table). */
	nxp_hardware small = hw_of("trn2");
	small.struct_size = NXP_HARDWARE_MIN_SIZE;
	ck_assert_int_eq(nxp_summary_derive(s, &small), NXP_OK);
	ck_assert_near(get(s, "peak_flops_bandwidth_ratio"), 109.83687150837989);
	nxp_summary_close(s);
}
END_TEST

START_TEST(test_derive_model_flops_fallback)
{
	nxp_summary *s = raw_counters();
	nxp_hardware hw = hw_of("trn1");
	/* NKI kernel: no HLO statistics -> the instruction estimate. */
	ck_assert_int_eq(nxp_summary_unset(s, "model_flops"), NXP_OK);
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert_near(get(s, "mfu_estimated_percent"), 0.49046107700892855);
	ck_assert_near(get(s, "mfu_max_achievable_estimated_percent"), 225.0 / 223.78146341463415);
	ck_assert_int_eq(present(s, "mfu_hlo_estimated_percent"), 0);
	ck_assert_int_eq(present(s, "mfu_hlo_max_achievable_estimated_percent"), 0);
	/* model_flops = 0 (the compiler's value for NKI kernels): same fallback, the
	 * HLO variant is a true 0. */
	set(s, "model_flops", 0);
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert_near(get(s, "mfu_estimated_percent"), 0.49046107700892855);
	ck_assert(get(s, "mfu_hlo_estimated_percent") == 0.0);
	nxp_summary_close(s);
}
END_TEST

START_TEST(test_derive_absent_inputs)
{
	nxp_summary *s;
	ck_assert_int_eq(nxp_summary_new(&s), NXP_OK);
	nxp_hardware hw = hw_of("trn1");
	/* Mark every derived field present, then derive from nothing: all absent
	 * except the one that needs only hardware. */
	size_t n = nxp_summary_field_count(s);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		ck_assert_int_eq(nxp_summary_get_field(s, k, &f), NXP_OK);
		if (f.derived)
			set(s, f.name, 1.0);
	}
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		ck_assert_int_eq(nxp_summary_get_field(s, k, &f), NXP_OK);
		if (!strcmp(f.name, "peak_flops_bandwidth_ratio"))
			ck_assert_int_eq(f.present, 1);
		else
			ck_assert_msg(!f.present, "%s should be absent", f.name);
	}
	/* Without hardware, nothing at all. */
	ck_assert_int_eq(nxp_summary_derive(s, NULL), NXP_OK);
	ck_assert_int_eq(present(s, "peak_flops_bandwidth_ratio"), 0);
	nxp_summary_close(s);

	/* Counters but no hardware: hardware-free ratios only. */
	s = raw_counters();
	ck_assert_int_eq(nxp_summary_derive(s, NULL), NXP_OK);
	ck_assert_near(get(s, "dma_active_time_percent"), 0.5);
	ck_assert_near(get(s, "mm_arithmetic_intensity"), 225.0);
	ck_assert_near(get(s, "dma_transfer_average_bytes"), 400000.0);
	static const char *const need_hw[] = {"neuroncore_cycle_count", "dma_active_cycles", "mfu_estimated_percent",
					      "hfu_estimated_percent", "mbu_estimated_percent",
					      "mfu_max_achievable_estimated_percent", "peak_flops_bandwidth_ratio"};
	for (size_t k = 0; k < sizeof(need_hw) / sizeof(need_hw[0]); k++)
		ck_assert_msg(!present(s, need_hw[k]), "%s needs hardware", need_hw[k]);
	nxp_hardware used;
	used.struct_size = sizeof(used);
	ck_assert_int_eq(nxp_summary_get_hardware(s, &used), NXP_E_NOT_FOUND);

	/* One input missing removes exactly its dependants. */
	nxp_summary_close(s);
	s = raw_counters();
	ck_assert_int_eq(nxp_summary_unset(s, "hbm_write_bytes"), NXP_OK);
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert_int_eq(present(s, "mbu_estimated_percent"), 0);
	ck_assert_int_eq(present(s, "mm_arithmetic_intensity"), 0);
	ck_assert_int_eq(present(s, "mfu_max_achievable_estimated_percent"), 0);
	ck_assert_near(get(s, "mfu_estimated_percent"), 0.27247837611607145);
	ck_assert_near(get(s, "mbu_min_read_util_percent"), 0.24390243902439024);
	nxp_summary_close(s);
}
END_TEST

START_TEST(test_derive_zero_denominators)
{
	nxp_summary *s = raw_counters();
	nxp_hardware hw = hw_of("trn1");
	set(s, "total_time", 0.0);
	set(s, "hbm_read_bytes", 0);
	set(s, "hbm_write_bytes", 0);
	set(s, "dma_transfer_count", 0);
	set(s, "dma_packet_count", 0);
	set(s, "dma_transfer_total_bytes", 0);
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	static const char *const absent[] = {
		"mfu_estimated_percent", "hfu_estimated_percent", "mfu_inst_estimated_percent",
		"mbu_estimated_percent", "mbu_min_read_util_percent", "mm_arithmetic_intensity",
		"mfu_max_achievable_estimated_percent", "dma_transfer_average_bytes", "dma_active_time_percent",
		"tensor_engine_active_time_percent", "total_active_time_percent", "static_dma_packet_percent",
		"dynamic_dma_size_percent"};
	for (size_t k = 0; k < sizeof(absent) / sizeof(absent[0]); k++)
		ck_assert_msg(!present(s, absent[k]), "%s should be absent (denominator 0)", absent[k]);
	/* A zero numerator is a real zero. */
	ck_assert_int_eq((int64_t)get(s, "neuroncore_cycle_count"), 0);

	/* Hardware constants of 0 (not public) make their metrics absent. */
	set(s, "total_time", 0.002);
	hw.hbm_bandwidth = 0.0;
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert_int_eq(present(s, "peak_flops_bandwidth_ratio"), 0);
	ck_assert_int_eq(present(s, "mbu_estimated_percent"), 0);
	ck_assert_near(get(s, "hfu_estimated_percent"), 0.5449567522321429);
	hw.neuroncore_clock_freq = 0.0;
	ck_assert_int_eq(nxp_summary_derive(s, &hw), NXP_OK);
	ck_assert_int_eq(present(s, "neuroncore_cycle_count"), 0);
	nxp_summary_close(s);
}
END_TEST

START_TEST(test_union)
{
	nxp_union u = {0};
	ck_assert_int_eq(nxp_union_length(&u), 0);
	nxp_union_add(&u, 0, 10);
	nxp_union_add(&u, 5, 8);   /* inside */
	nxp_union_add(&u, 10, 12); /* touching */
	nxp_union_add(&u, 20, 25); /* gap */
	nxp_union_add(&u, 30, 30); /* empty */
	ck_assert_int_eq(nxp_union_length(&u), 17);
	nxp_union_add(&u, 22, 40); /* out of order but touching the open run: merged */
	ck_assert_int_eq(nxp_union_length(&u), 12 + 20);
	nxp_union_add(&u, 1, 3); /* entirely before the open run: counted on its own */
	ck_assert_int_eq(nxp_union_length(&u), 12 + 20 + 2);
	/* Hostile timestamps saturate instead of overflowing. */
	nxp_union v = {0};
	nxp_union_add(&v, INT64_MIN, INT64_MAX);
	ck_assert_int_eq(nxp_union_length(&v), INT64_MAX);
}
END_TEST

Suite *summary_suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = tcase_create("pure");
	tcase_add_test(tc, test_hardware_tables);
	tcase_add_test(tc, test_hardware_misuse);
	tcase_add_test(tc, test_registry_covers_schema);
	tcase_add_test(tc, test_set_unset_and_misuse);
	tcase_add_test(tc, test_derive_trn1);
	tcase_add_test(tc, test_derive_trn2_and_override);
	tcase_add_test(tc, test_derive_model_flops_fallback);
	tcase_add_test(tc, test_derive_absent_inputs);
	tcase_add_test(tc, test_derive_zero_denominators);
	tcase_add_test(tc, test_union);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(summary_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
