/* SPDX-License-Identifier: MIT */
/* The Summary object: field registry, accessors, and the pure derivation of
 * the ratio metrics (the only place their formulas live; doc/metrics.md). */
#include "abi_struct.h"
#include "status.h"
#include "summary_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { K_I = NXP_VALUE_INT, K_F = NXP_VALUE_FLOAT };

static const struct field_def {
	const char *name;
	int kind;
	const char *unit;
	const char *group;
	unsigned flags;
} fields[NXP_SF_COUNT] = {
#define NXP_SF_DEF(name, kind, unit, group, flags) {#name, K_##kind, unit, group, flags},
	NXP_SUMMARY_FIELDS(NXP_SF_DEF)
#undef NXP_SF_DEF
};

/* The 0.1 layout of nxp_summary_field, the smallest a caller may pass. */
#define FIELD_MIN_SIZE (offsetof(nxp_summary_field, f) + sizeof(double))
#define OPCODE_MIN_SIZE (offsetof(nxp_opcode_summary, active_time_percent) + sizeof(double))
#define THROTTLE_MIN_SIZE \
	(offsetof(nxp_throttle_summary, max_achievable_util_with_throttling_percent) + sizeof(double))

int nxp_summary_new(nxp_summary **out)
{
	if (!out)
		return NXP_E_INVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? NXP_OK : NXP_E_NOMEM;
}

void nxp_summary_close(nxp_summary *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < s->n_opcodes; k++)
		free(s->opcodes[k].opcode);
	for (size_t k = 0; k < s->n_throttles; k++)
		free(s->throttles[k].throttle_type);
	free(s->opcodes);
	free(s->throttles);
	free(s);
}

size_t nxp_summary_field_count(const nxp_summary *s)
{
	(void)s;
	return NXP_SF_COUNT;
}

static int find_id(const char *name)
{
	if (!name)
		return -1;
	for (int k = 0; k < NXP_SF_COUNT; k++)
		if (!strcmp(fields[k].name, name))
			return k;
	return -1;
}

int nxp_summary_get_field(const nxp_summary *s, size_t index, nxp_summary_field *out)
{
	if (!s || !nxp__struct_size_ok(out, FIELD_MIN_SIZE))
		return NXP_E_INVAL;
	if (index >= NXP_SF_COUNT)
		return NXP_E_RANGE;
	const struct field_def *d = &fields[index];
	nxp_summary_field f;
	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	f.name = d->name;
	f.unit = d->unit;
	f.group = d->group;
	f.kind = d->kind;
	f.present = s->present[index];
	if (f.present) {
		f.i = s->i[index];
		f.f = s->f[index];
	}
	f.extension = (d->flags & NXP_SF_EXT) != 0;
	f.derived = (d->flags & NXP_SF_DERIVED) != 0;
	NXP__STRUCT_OUT(out, f, FIELD_MIN_SIZE);
	return NXP_OK;
}

int nxp_summary_find(const nxp_summary *s, const char *name, nxp_summary_field *out)
{
	if (!s || !name || !nxp__struct_size_ok(out, FIELD_MIN_SIZE))
		return NXP_E_INVAL;
	int id = find_id(name);
	if (id < 0)
		return NXP_E_NOT_FOUND;
	return nxp_summary_get_field(s, (size_t)id, out);
}

void nxp_summary_set_int(nxp_summary *s, int id, int64_t v)
{
	if (fields[id].kind == K_F) {
		nxp_summary_set_float(s, id, (double)v);
		return;
	}
	s->present[id] = 1;
	s->i[id] = v;
	s->f[id] = (double)v;
}

void nxp_summary_set_float(nxp_summary *s, int id, double v)
{
	if (fields[id].kind == K_I) {
		/* Round half away from zero (no libm); clamp defensively. */
		int64_t iv = v >= 9.2233720368547748e18	   ? INT64_MAX
			     : v <= -9.2233720368547758e18 ? INT64_MIN
							   : (int64_t)(v + (v >= 0.0 ? 0.5 : -0.5));
		s->present[id] = 1;
		s->i[id] = iv;
		s->f[id] = (double)iv;
		return;
	}
	s->present[id] = 1;
	s->i[id] = 0;
	s->f[id] = v;
}

void nxp_summary_clear(nxp_summary *s, int id)
{
	s->present[id] = 0;
	s->i[id] = 0;
	s->f[id] = 0.0;
}

int nxp_summary_has(const nxp_summary *s, int id)
{
	return s->present[id];
}

double nxp_summary_value(const nxp_summary *s, int id)
{
	return s->present[id] ? s->f[id] : 0.0;
}

int nxp_summary_set(nxp_summary *s, const char *name, double value)
{
	if (!s || !name || !isfinite(value))
		return NXP_E_INVAL;
	int id = find_id(name);
	if (id < 0)
		return NXP_E_NOT_FOUND;
	if (fields[id].kind == K_I && !(value > -9.2233720368547758e18 && value < 9.2233720368547758e18))
		return NXP_E_INVAL;
	nxp_summary_set_float(s, id, value);
	return NXP_OK;
}

int nxp_summary_unset(nxp_summary *s, const char *name)
{
	if (!s || !name)
		return NXP_E_INVAL;
	int id = find_id(name);
	if (id < 0)
		return NXP_E_NOT_FOUND;
	nxp_summary_clear(s, id);
	return NXP_OK;
}

int nxp_summary_get_hardware(const nxp_summary *s, nxp_hardware *out)
{
	if (!s || !nxp__struct_size_ok(out, NXP_HARDWARE_MIN_SIZE))
		return NXP_E_INVAL;
	if (!s->has_hw)
		return NXP_E_NOT_FOUND;
	NXP__STRUCT_OUT(out, s->hw, NXP_HARDWARE_MIN_SIZE);
	return NXP_OK;
}

size_t nxp_summary_opcode_count(const nxp_summary *s)
{
	return s ? s->n_opcodes : 0;
}

int nxp_summary_get_opcode(const nxp_summary *s, size_t index, nxp_opcode_summary *out)
{
	if (!s || !nxp__struct_size_ok(out, OPCODE_MIN_SIZE))
		return NXP_E_INVAL;
	if (index >= s->n_opcodes)
		return NXP_E_RANGE;
	const nxp_summary_opcode_row *r = &s->opcodes[index];
	nxp_opcode_summary o;
	memset(&o, 0, sizeof(o));
	o.struct_size = sizeof(o);
	o.engine = r->engine_name;
	o.opcode = r->opcode;
	o.instruction_count = r->instruction_count;
	o.instruction_time_ns = r->instruction_time_ns;
	o.active_time_ns = r->active_time_ns;
	o.active_time_percent = r->active_time_percent;
	NXP__STRUCT_OUT(out, o, OPCODE_MIN_SIZE);
	return NXP_OK;
}

size_t nxp_summary_throttle_count(const nxp_summary *s)
{
	return s ? s->n_throttles : 0;
}

int nxp_summary_get_throttle(const nxp_summary *s, size_t index, nxp_throttle_summary *out)
{
	if (!s || !nxp__struct_size_ok(out, THROTTLE_MIN_SIZE))
		return NXP_E_INVAL;
	if (index >= s->n_throttles)
		return NXP_E_RANGE;
	const nxp_summary_throttle_row *r = &s->throttles[index];
	nxp_throttle_summary t;
	memset(&t, 0, sizeof(t));
	t.struct_size = sizeof(t);
	t.nc_idx = r->nc_idx;
	t.throttle_type = r->throttle_type;
	t.throttle_active_time_ns = r->throttle_active_time_ns;
	t.throttle_active_time_percent = r->throttle_active_time_percent;
	t.max_achievable_util_with_throttling_percent = r->max_achievable_util_with_throttling_percent;
	NXP__STRUCT_OUT(out, t, THROTTLE_MIN_SIZE);
	return NXP_OK;
}

/* ------------------------------------------------------------------------ */
/* Derivation.  Every formula of doc/metrics.md is here and only here. */

#define HAS(id) (s->present[NXP_SF_##id])
#define VAL(id) (s->f[NXP_SF_##id])

/* Set `id` to num/den when both inputs are usable and den > 0, else absent. */
static void put_ratio(nxp_summary *s, int id, int ok, double num, double den)
{
	if (ok && den > 0.0 && isfinite(num) && isfinite(den))
		nxp_summary_set_float(s, id, num / den);
	else
		nxp_summary_clear(s, id);
}

static void put_cycles(nxp_summary *s, int id, int ok, double seconds, double hz)
{
	if (ok && hz > 0.0 && seconds >= 0.0 && seconds * hz < 9.2e18)
		nxp_summary_set_float(s, id, seconds * hz);
	else
		nxp_summary_clear(s, id);
}

int nxp_summary_derive(nxp_summary *s, const nxp_hardware *hw_in)
{
	if (!s)
		return NXP_E_INVAL;
	nxp_hardware hw;
	int has_hw = hw_in != NULL;
	if (has_hw) {
		if (nxp_hardware_import(&hw, hw_in) != NXP_OK)
			return NXP_E_INVAL;
		s->hw = hw;
		s->has_hw = 1;
	} else {
		memset(&hw, 0, sizeof(hw));
		s->has_hw = 0;
	}
	const double max_ops = has_hw ? nxp_hardware_max_ops(&hw) : 0.0;
	const double bw = hw.hbm_bandwidth;
	const double nc_hz = hw.neuroncore_clock_freq * 1e9;

	const int has_t = HAS(total_time);
	const double t = VAL(total_time);

	put_cycles(s, NXP_SF_neuroncore_cycle_count, has_t, t, nc_hz);
	put_cycles(s, NXP_SF_dma_active_cycles, HAS(dma_active_time), VAL(dma_active_time), nc_hz);
	put_ratio(s, NXP_SF_peak_flops_bandwidth_ratio, has_hw, max_ops, bw);

	/* FLOPs and HBM traffic. */
	const int has_hbm = HAS(hbm_read_bytes) && HAS(hbm_write_bytes);
	const double hbm = VAL(hbm_read_bytes) + VAL(hbm_write_bytes);
	const int has_inst = HAS(hardware_flops) && HAS(transpose_flops);
	const double inst_flops = VAL(hardware_flops) - VAL(transpose_flops);
	const int has_model = HAS(model_flops);
	const double model = VAL(model_flops);
	/* mfu_estimated uses the model's (HLO) FLOPs when the NEFF has them and
	 * they are non-zero; otherwise (NKI kernels) the instruction estimate. */
	const int use_model = has_model && model > 0.0;
	const double time_cap = max_ops * t; /* FLOPs the Tensor engine could do in total_time */
	const double ridge = bw > 0.0 ? max_ops / bw : 0.0;

	put_ratio(s, NXP_SF_mm_arithmetic_intensity, has_inst && has_hbm, inst_flops, hbm);
	put_ratio(s, NXP_SF_mfu_hlo_estimated_percent, has_model && has_t, model, time_cap);
	put_ratio(s, NXP_SF_mfu_inst_estimated_percent, has_inst && has_t, inst_flops, time_cap);
	put_ratio(s, NXP_SF_hfu_estimated_percent, HAS(hardware_flops) && has_t, VAL(hardware_flops), time_cap);
	put_ratio(s, NXP_SF_mfu_estimated_percent, (use_model || has_inst) && has_t, use_model ? model : inst_flops,
		  time_cap);
	/* Roofline: (FLOPs per HBM byte) / (peak FLOP/s per HBM byte/s). */
	put_ratio(s, NXP_SF_mfu_hlo_max_achievable_estimated_percent, has_model && has_hbm && hbm > 0.0,
		  model / (hbm > 0.0 ? hbm : 1.0), ridge);
	put_ratio(s, NXP_SF_mfu_inst_max_achievable_estimated_percent, has_inst && has_hbm && hbm > 0.0,
		  inst_flops / (hbm > 0.0 ? hbm : 1.0), ridge);
	put_ratio(s, NXP_SF_mfu_max_achievable_estimated_percent, (use_model || has_inst) && has_hbm && hbm > 0.0,
		  (use_model ? model : inst_flops) / (hbm > 0.0 ? hbm : 1.0), ridge);
	put_ratio(s, NXP_SF_mbu_estimated_percent, has_hbm && has_t, hbm, t * bw);
	put_ratio(s, NXP_SF_mbu_min_read_util_percent, HAS(inputs_and_weights_size_bytes) && has_t,
		  VAL(inputs_and_weights_size_bytes), t * bw);

	/* DMA averages and splits. */
	put_ratio(s, NXP_SF_dma_transfer_average_bytes, HAS(dma_transfer_total_bytes) && HAS(dma_transfer_count),
		  VAL(dma_transfer_total_bytes), VAL(dma_transfer_count));
	const int has_pk = HAS(dma_packet_count);
	const double pk = VAL(dma_packet_count);
	put_ratio(s, NXP_SF_static_dma_packet_percent, has_pk && HAS(static_dma_packet_count),
		  VAL(static_dma_packet_count), pk);
	put_ratio(s, NXP_SF_dynamic_dma_packet_percent, has_pk && HAS(static_dma_packet_count),
		  pk - VAL(static_dma_packet_count), pk);
	put_ratio(s, NXP_SF_software_dynamic_dma_packet_percent, has_pk && HAS(software_dynamic_dma_packet_count),
		  VAL(software_dynamic_dma_packet_count), pk);
	put_ratio(s, NXP_SF_hardware_dynamic_dma_packet_percent, has_pk && HAS(hardware_dynamic_dma_packet_count),
		  VAL(hardware_dynamic_dma_packet_count), pk);
	const int has_sz = HAS(dma_transfer_total_bytes);
	const double sz = VAL(dma_transfer_total_bytes);
	put_ratio(s, NXP_SF_static_dma_size_percent, has_sz && HAS(static_dma_size), VAL(static_dma_size), sz);
	put_ratio(s, NXP_SF_dynamic_dma_size_percent, has_sz && HAS(static_dma_size), sz - VAL(static_dma_size), sz);
	put_ratio(s, NXP_SF_software_dynamic_dma_size_percent, has_sz && HAS(software_dynamic_dma_size),
		  VAL(software_dynamic_dma_size), sz);
	put_ratio(s, NXP_SF_hardware_dynamic_dma_size_percent, has_sz && HAS(hardware_dynamic_dma_size),
		  VAL(hardware_dynamic_dma_size), sz);

	/* Busy times as fractions of total_time. */
	static const struct {
		int time, percent;
	} pct[] = {
		{NXP_SF_dma_active_time, NXP_SF_dma_active_time_percent},
		{NXP_SF_static_dma_active_time, NXP_SF_static_dma_active_time_percent},
		{NXP_SF_dynamic_dma_active_time, NXP_SF_dynamic_dma_active_time_percent},
		{NXP_SF_software_dynamic_dma_active_time, NXP_SF_software_dynamic_dma_active_time_percent},
		{NXP_SF_hardware_dynamic_dma_active_time, NXP_SF_hardware_dynamic_dma_active_time_percent},
		{NXP_SF_tensor_engine_active_time, NXP_SF_tensor_engine_active_time_percent},
		{NXP_SF_vector_engine_active_time, NXP_SF_vector_engine_active_time_percent},
		{NXP_SF_scalar_engine_active_time, NXP_SF_scalar_engine_active_time_percent},
		{NXP_SF_sync_engine_active_time, NXP_SF_sync_engine_active_time_percent},
		{NXP_SF_gpsimd_engine_active_time, NXP_SF_gpsimd_engine_active_time_percent},
		{NXP_SF_cc_op_active_time, NXP_SF_cc_op_active_time_percent},
		{NXP_SF_cc_cores_instruction_active_time, NXP_SF_cc_cores_instruction_active_time_percent},
		{NXP_SF_total_active_time, NXP_SF_total_active_time_percent},
	};
	for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]); k++)
		put_ratio(s, pct[k].percent, s->present[pct[k].time] && has_t, s->f[pct[k].time], t);
	return NXP_OK;
}
