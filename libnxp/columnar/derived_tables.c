/* SPDX-License-Identifier: MIT */
/* Tables derived from one summary pass (nxp_profile_summarize): Summary (one
 * row; one column per summary field, in the units of `nxp summary --json`:
 * seconds, fractions for *_percent, counts), OpcodeSummary, ThrottleSummary;
 * and Metadata (nxp_profile_get_metadata). */
#include "columnar_priv.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- Summary ---- */
#define SUMMARY_MAX 512
static nxc_col summary_cols[SUMMARY_MAX];
static pthread_once_t summary_once = PTHREAD_ONCE_INIT;

static void summary_cols_init(void)
{
	nxp_summary *s = NULL;
	if (nxp_summary_new(&s))
		return;
	size_t n = nxp_summary_field_count(s);
	int k = 0;
	for (size_t i = 0; i < n && k < SUMMARY_MAX; i++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		if (nxp_summary_get_field(s, i, &f))
			continue;
		nxc_col *c = &summary_cols[k++];
		c->name = f.name;
		c->type = f.kind == NXP_VALUE_INT ? NXC_I64 : NXC_F64;
		c->required = 0;
		c->extension = (uint8_t)(f.extension != 0);
		c->unit = f.unit;
		c->desc = f.extension ? "libnxp: summary field (doc/metrics.md); null when the inputs cannot support it"
				      : "summary field (doc/metrics.md); null when the inputs cannot support it";
	}
	nxp_summary_close(s);
	nxc_table_summary.ncols = k;
}

void nxc_registry_init(void)
{
	pthread_once(&summary_once, summary_cols_init);
}

typedef struct summ_ctx {
	nxp_summary *sum;
} summ_ctx;

/* The stream's shared summary pass when the export made one, else a pass of
 * its own; unsummarize() closes only the latter. */
static int summarize(nxc_stream *s, nxp_profile *p, nxp_summary **out, nxp_status *st)
{
	if (s->shared_sum) {
		*out = s->shared_sum;
		return 0;
	}
	return nxp_profile_summarize(p, NULL, out, st);
}

static void unsummarize(nxc_stream *s, nxp_summary *sum)
{
	if (sum != s->shared_sum)
		nxp_summary_close(sum);
}

static int s_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxp_summary *sum;
	int rc = summarize(s, p, &sum, st);
	if (rc)
		return rc;
	for (int i = 0; i < nxc_table_summary.ncols; i++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		if (nxp_summary_find(sum, summary_cols[i].name, &f) || !f.present)
			nxc_put_null(&s->b, i);
		else if (f.kind == NXP_VALUE_INT)
			nxc_put_i64(&s->b, i, f.i);
		else
			nxc_put_f64(&s->b, i, f.f);
	}
	nxc_end_row(&s->b);
	unsummarize(s, sum);
	return 0;
}

/* ---- OpcodeSummary ---- */
static const nxc_col o_cols[] = {
	{ "engine", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "engine name" },
	{ "opcode", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "opcode name" },
	{ "instruction_count", NXC_I64, 1, 0, 0, 0, 0, 0, "", "instructions" },
	{ "instruction_time_ns", NXC_I64, 1, 0, 0, 0, 0, 0, "nanoseconds", "summed instruction time" },
	{ "active_time_ns", NXC_I64, 1, 0, 0, 0, 0, 0, "nanoseconds", "merged busy time" },
	{ "active_time_percent", NXC_F64, 1, 0, 0, 0, 0, 0, "", "active_time_ns / total_time (a fraction)" },
};

static int o_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxp_summary *sum;
	int rc = summarize(s, p, &sum, st);
	if (rc)
		return rc;
	size_t n = nxp_summary_opcode_count(sum);
	for (size_t i = 0; i < n; i++) {
		nxp_opcode_summary o;
		o.struct_size = sizeof(o);
		if ((rc = nxp_summary_get_opcode(sum, i, &o)) != 0)
			break;
		nxc_put_str(&s->b, 0, o.engine);
		nxc_put_str(&s->b, 1, o.opcode);
		nxc_put_i64(&s->b, 2, o.instruction_count);
		nxc_put_i64(&s->b, 3, o.instruction_time_ns);
		nxc_put_i64(&s->b, 4, o.active_time_ns);
		nxc_put_f64(&s->b, 5, o.active_time_percent);
		nxc_end_row(&s->b);
	}
	unsummarize(s, sum);
	return rc ? nxp__error_set(st, rc, -1, "cannot read an OpcodeSummary row") : 0;
}

/* ---- ThrottleSummary ---- */
static const nxc_col ts_cols[] = {
	{ "nc_idx", NXC_I32, 1, 0, 0, 0, 0, 0, "", "physical core" },
	{ "throttle_type", NXC_DICT, 0, 0, 0, 0, 0, 0, "", "throttle type" },
	{ "throttle_active_time_ns", NXC_I64, 0, 0, 0, 0, 0, 0, "nanoseconds", "time under throttling" },
	{ "throttle_active_time_percent", NXC_F64, 0, 0, 0, 0, 0, 0, "percent", "throttled fraction of total_time" },
	{ "max_achievable_util_with_throttling_percent", NXC_F64, 0, 0, 0, 0, 0, 0, "percent", "utilisation reachable under the throttling (a fraction)" },
};

static int ts_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxp_summary *sum;
	int rc = summarize(s, p, &sum, st);
	if (rc)
		return rc;
	size_t n = nxp_summary_throttle_count(sum);
	for (size_t i = 0; i < n; i++) {
		nxp_throttle_summary t;
		t.struct_size = sizeof(t);
		if ((rc = nxp_summary_get_throttle(sum, i, &t)) != 0)
			break;
		nxc_put_i64(&s->b, 0, t.nc_idx);
		if (t.throttle_type && *t.throttle_type)
			nxc_put_str(&s->b, 1, t.throttle_type);
		else
			nxc_put_null(&s->b, 1);
		nxc_put_i64(&s->b, 2, t.throttle_active_time_ns);
		nxc_put_f64(&s->b, 3, t.throttle_active_time_percent);
		nxc_put_f64(&s->b, 4, t.max_achievable_util_with_throttling_percent);
		nxc_end_row(&s->b);
	}
	unsummarize(s, sum);
	return rc ? nxp__error_set(st, rc, -1, "cannot read a ThrottleSummary row") : 0;
}

/* ---- Metadata ---- */
enum {
	M_SCHEMA, M_NTFF_VERSION, M_NPC, M_VNC, M_FIRST_HW, M_LAST_HW, M_DMA_BW, M_NDMA, M_HBM_BW, M_ROWS, M_COLS,
	M_TCLK, M_VCLK, M_VCH, M_SCLK, M_SCH, M_GCLK, M_GCH, M_NCCLK, M_TPN, M_INSTANCE, M_RUNTIME, M_COLL,
	M_DRIVER, M_COMPILER, M_NCIDX, M_NDIDX, M_PROFILE, M_SIM, M_ARCH, M_LAYOUT, M_CAPTURE, M_UUID,
	M_TRACES, M_EVENTS, M_TPB_START, M_TPB_STOP, M_UNKNOWN, M_TPB_DAMAGED
};
static const nxc_col m_cols[] = {
	{ "profile_schema_version", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "public schema version libnxp mirrors" },
	{ "ntff_version", NXC_I32, 1, 0, 0, 0, 0, 0, "", "public NTFF model version the file represents" },
	{ "num_physical_cores", NXC_I32, 1, 0, 0, 0, 0, 0, "", "physical cores of the logical core" },
	{ "vnc_enabled", NXC_BOOL, 1, 0, 0, 0, 0, 0, "", "LNC > 1" },
	{ "first_hw_timestamp", NXC_I64, 1, 0, 0, 0, 0, 0, "nanoseconds", "first device timestamp" },
	{ "last_hw_timestamp", NXC_I64, 1, 0, 0, 0, 0, 0, "nanoseconds", "last device timestamp" },
	{ "dma_ddr_bandwidth", NXC_F64, 1, 0, 0, 0, 0, 0, "bytes_per_second", "DMA bandwidth, 0 if not public" },
	{ "num_dma_engines_per_neuroncore", NXC_I32, 1, 0, 0, 0, 0, 0, "", "DMA engines per core" },
	{ "hbm_ddr_bandwidth", NXC_F64, 1, 0, 0, 0, 0, 0, "bytes_per_second", "HBM bandwidth" },
	{ "tensor_engine_num_rows", NXC_I64, 1, 0, 0, 0, 0, 0, "", "PE array rows" },
	{ "tensor_engine_num_cols", NXC_I64, 1, 0, 0, 0, 0, 0, "", "PE array columns" },
	{ "tensor_engine_clock_freq", NXC_F64, 1, 0, 0, 0, 0, 0, "gigahertz", "Tensor engine clock" },
	{ "vector_engine_clock_freq", NXC_F64, 1, 0, 0, 0, 0, 0, "gigahertz", "Vector engine clock" },
	{ "vector_engine_num_channels", NXC_I64, 1, 0, 0, 0, 0, 0, "", "Vector engine channels" },
	{ "scalar_engine_clock_freq", NXC_F64, 1, 0, 0, 0, 0, 0, "gigahertz", "Scalar engine clock" },
	{ "scalar_engine_num_channels", NXC_I64, 1, 0, 0, 0, 0, 0, "", "Scalar engine channels" },
	{ "gpsimd_engine_clock_freq", NXC_F64, 1, 0, 0, 0, 0, 0, "gigahertz", "GpSimd engine clock" },
	{ "gpsimd_engine_num_channels", NXC_I64, 1, 0, 0, 0, 0, 0, "", "GpSimd engine channels" },
	{ "neuroncore_clock_freq", NXC_F64, 1, 0, 0, 0, 0, 0, "gigahertz", "NeuronCore base clock" },
	{ "ticks_per_nanosec", NXC_I64, 1, 0, 0, 0, 0, 0, "", "device ticks per nanosecond" },
	{ "instance_type", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "instance type; null if unknown" },
	{ "runtime_version", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "runtime version; null if unknown" },
	{ "collectives_version", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "collectives version; null if unknown" },
	{ "driver_version", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "driver version; null if unknown" },
	{ "compiler_version", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "compiler version; null if unknown" },
	{ "neuroncore_idx", NXC_I64, 0, 0, 0, 0, 0, 0, "", "NeuronCore index" },
	{ "neuron_device_idx", NXC_I64, 0, 0, 0, 0, 0, 0, "", "Neuron device index" },
	{ "profile_name", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "profile name; null if unknown" },
	{ "is_simulation", NXC_BOOL, 0, 0, 0, 0, 0, 0, "", "trace from a simulator" },
	{ "arch", NXC_UTF8, 1, 1, 0, 0, 0, 0, "", "libnxp: trn1, inf2, trn2, trn3" },
	{ "layout_version", NXC_I32, 1, 1, 0, 0, 0, 0, "", "libnxp: NTFF layout version of the file" },
	{ "capture_time_ns", NXC_I64, 0, 1, 0, 0, 0, 0, "nanoseconds", "libnxp: Unix time of the capture; null if unknown" },
	{ "neff_uuid", NXC_UTF8, 1, 1, 0, 0, 0, 0, "", "libnxp: UUID of the NEFF the trace belongs to, hex" },
	{ "trace_count", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: all notifications" },
	{ "event_count", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: all but instruction notifications" },
	{ "tpb_start_ts", NXC_I64, 0, 1, 0, 0, 0, 0, "nanoseconds", "libnxp: first TPB start; null if none" },
	{ "tpb_stop_ts", NXC_I64, 0, 1, 0, 0, 0, 0, "nanoseconds", "libnxp: last TPB stop; null if none" },
	{ "unknown_sections", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: sections of unknown kinds (skipped)" },
	{ "tpb_damaged", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: TPB records or sections skipped as damaged" },
};

static void opt_str(nxc_builder *b, int col, const char *s)
{
	if (s && *s)
		nxc_put_str(b, col, s);
	else
		nxc_put_null(b, col);
}

static int m_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxc_builder *b = &s->b;
	nxp_metadata m;
	memset(&m, 0, sizeof(m));
	m.struct_size = sizeof(m);
	int rc = nxp_profile_get_metadata(p, &m);
	if (rc)
		return nxp__error_set(st, rc, -1, "cannot read the profile's Metadata");
	nxc_put_str(b, M_SCHEMA, m.profile_schema_version);
	nxc_put_i64(b, M_NTFF_VERSION, m.ntff_version);
	nxc_put_i64(b, M_NPC, m.num_physical_cores);
	nxc_put_bool(b, M_VNC, m.vnc_enabled);
	nxc_put_i64(b, M_FIRST_HW, m.first_hw_timestamp);
	nxc_put_i64(b, M_LAST_HW, m.last_hw_timestamp);
	nxc_put_f64(b, M_DMA_BW, m.dma_ddr_bandwidth);
	nxc_put_i64(b, M_NDMA, m.num_dma_engines_per_neuroncore);
	nxc_put_f64(b, M_HBM_BW, m.hbm_ddr_bandwidth);
	nxc_put_i64(b, M_ROWS, m.tensor_engine_num_rows);
	nxc_put_i64(b, M_COLS, m.tensor_engine_num_cols);
	nxc_put_f64(b, M_TCLK, m.tensor_engine_clock_freq);
	nxc_put_f64(b, M_VCLK, m.vector_engine_clock_freq);
	nxc_put_i64(b, M_VCH, m.vector_engine_num_channels);
	nxc_put_f64(b, M_SCLK, m.scalar_engine_clock_freq);
	nxc_put_i64(b, M_SCH, m.scalar_engine_num_channels);
	nxc_put_f64(b, M_GCLK, m.gpsimd_engine_clock_freq);
	nxc_put_i64(b, M_GCH, m.gpsimd_engine_num_channels);
	nxc_put_f64(b, M_NCCLK, m.neuroncore_clock_freq);
	nxc_put_i64(b, M_TPN, m.ticks_per_nanosec);
	opt_str(b, M_INSTANCE, m.instance_type);
	opt_str(b, M_RUNTIME, m.runtime_version);
	opt_str(b, M_COLL, m.collectives_version);
	opt_str(b, M_DRIVER, m.driver_version);
	opt_str(b, M_COMPILER, m.compiler_version);
	nxc_put_i64(b, M_NCIDX, m.neuroncore_idx);
	nxc_put_i64(b, M_NDIDX, m.neuron_device_idx);
	opt_str(b, M_PROFILE, m.profile_name);
	nxc_put_bool(b, M_SIM, m.is_simulation);
	nxc_put_str(b, M_ARCH, m.arch ? m.arch : "");
	nxc_put_i64(b, M_LAYOUT, m.layout_version);
	if (m.capture_time_ns)
		nxc_put_i64(b, M_CAPTURE, m.capture_time_ns);
	else
		nxc_put_null(b, M_CAPTURE);
	char hex[33];
	nxp_hex(m.neff_uuid, 16, hex);
	nxc_put_str(b, M_UUID, hex);
	nxc_put_i64(b, M_TRACES, m.trace_count);
	nxc_put_i64(b, M_EVENTS, m.event_count);
	if (m.tpb_start_ts != INT64_MIN)
		nxc_put_i64(b, M_TPB_START, m.tpb_start_ts);
	else
		nxc_put_null(b, M_TPB_START);
	if (m.tpb_stop_ts != INT64_MIN)
		nxc_put_i64(b, M_TPB_STOP, m.tpb_stop_ts);
	else
		nxc_put_null(b, M_TPB_STOP);
	nxc_put_i64(b, M_UNKNOWN, m.unknown_sections);
	nxc_put_i64(b, M_TPB_DAMAGED, m.tpb_damaged);
	nxc_end_row(b);
	return 0;
}

static int s_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, s_rows, p, path, st);
}
static int o_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, o_rows, p, path, st);
}
static int ts_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, ts_rows, p, path, st);
}
static int m_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, m_rows, p, path, st);
}

nxc_table nxc_table_summary = { "Summary", NXC_KIND_PROFILE, 0, 0, summary_cols, 0, s_open };
const nxc_table nxc_table_opcode_summary = { "OpcodeSummary", NXC_KIND_PROFILE, 0, 0, o_cols, NCOLS(o_cols),
					     o_open };
const nxc_table nxc_table_throttle_summary = { "ThrottleSummary", NXC_KIND_PROFILE, 0, 0, ts_cols, NCOLS(ts_cols),
					       ts_open };
const nxc_table nxc_table_metadata = { "Metadata", NXC_KIND_PROFILE, 0, 0, m_cols, NCOLS(m_cols), m_open };

int nxc_table_uses_summary(const nxc_table *t)
{
	return t == &nxc_table_summary || t == &nxc_table_opcode_summary || t == &nxc_table_throttle_summary;
}
