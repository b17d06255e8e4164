/* SPDX-License-Identifier: MIT */
/* Per-generation hardware constants used by the summary metrics.  One table:
 * a correction is a one-line change.  Sources: doc/metrics.md (public figures;
 * the rows marked "assumption" are libnxp's, overridable by the caller). */
#include "abi_struct.h"
#include "neff_internal.h"
#include "status.h"
#include "summary_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct hw_row {
	const char *arch;
	double te_ghz, ve_ghz, se_ghz, gp_ghz, nc_ghz;
	double hbm_bw;   /* bytes/s of one HBM stack, as the metrics use it */
	double dma_bw;   /* bytes/s, 0 = not public */
} hw_table[] = { /* the FP8 multiplier is the NEFF module's rule (nxp_fp8_flops_multiplier) */
	/* Trn1 / Inf2: 820 GB/s per chip over 2 stacks = 410 GB/s per stack.
	 * dma_ddr_bandwidth is not public: 0. */
	{"trn1", 2.8, 1.12, 1.4, 1.4, 1.4, 410e9, 0.0},
	{"inf2", 2.8, 1.12, 1.4, 1.4, 1.4, 410e9, 0.0},
	/* Trn2: ≈716 GB/s per stack as used by the reference metrics; 435 GB/s DMA. */
	{"trn2", 2.4, 0.96, 1.2, 1.2, 1.2, 716e9, 435e9},
	/* Trn3: base clock not public (assumption: 1.2 GHz, as Trn2); HBM stack
	 * bandwidth not public (assumption: 4.9 TB/s per chip over 4 stacks =
	 * 1.225 TB/s); DMA bandwidth not public: 0. */
	{"trn3", 2.4, 1.2, 1.2, 1.2, 1.2, 1.225e12, 0.0},
};

static const struct hw_row *find_row(const char *arch)
{
	if (!arch)
		return NULL;
	for (size_t k = 0; k < sizeof(hw_table) / sizeof(hw_table[0]); k++)
		if (!strcasecmp(arch, hw_table[k].arch))
			return &hw_table[k];
	return NULL;
}

static void fill(nxp_hardware *h, const struct hw_row *r)
{
	memset(h, 0, sizeof(*h));
	h->struct_size = sizeof(*h);
	snprintf(h->arch, sizeof(h->arch), "%s", r->arch);
	h->tensor_engine_num_rows = 128;
	h->tensor_engine_num_cols = 128;
	h->tensor_engine_clock_freq = r->te_ghz;
	h->vector_engine_clock_freq = r->ve_ghz;
	h->scalar_engine_clock_freq = r->se_ghz;
	h->gpsimd_engine_clock_freq = r->gp_ghz;
	h->neuroncore_clock_freq = r->nc_ghz;
	h->hbm_bandwidth = r->hbm_bw;
	h->dma_ddr_bandwidth = r->dma_bw;
	h->fp8_flops_multiplier = nxp_fp8_flops_multiplier(r->arch);
	h->num_physical_cores = 0; /* from the profile, 1 outside one */
}

int nxp_hardware_for_arch(const char *arch, nxp_hardware *out)
{
	if (!arch || !nxp__struct_size_ok(out, NXP_HARDWARE_MIN_SIZE))
		return NXP_E_INVAL;
	const struct hw_row *r = find_row(arch);
	if (!r)
		return NXP_E_NOT_FOUND;
	nxp_hardware h;
	fill(&h, r);
	NXP__STRUCT_OUT(out, h, NXP_HARDWARE_MIN_SIZE);
	return NXP_OK;
}

double nxp_hardware_max_ops(const nxp_hardware *hw)
{
	if (!nxp__struct_size_ok(hw, NXP_HARDWARE_MIN_SIZE))
		return 0.0;
	int32_t cores = hw->struct_size >= offsetof(nxp_hardware, num_physical_cores) + sizeof(int32_t)
				? hw->num_physical_cores
				: 0;
	return 2.0 * (double)hw->tensor_engine_num_rows * (double)hw->tensor_engine_num_cols *
	       hw->tensor_engine_clock_freq * 1e9 * (cores > 1 ? cores : 1);
}

int nxp_hardware_import(nxp_hardware *dst, const nxp_hardware *src)
{
	if (!nxp__struct_size_ok(src, NXP_HARDWARE_MIN_SIZE))
		return NXP_E_INVAL;
	char arch[sizeof(src->arch) + 1];
	memcpy(arch, src->arch, sizeof(src->arch));
	arch[sizeof(src->arch)] = '\0';
	const struct hw_row *r = find_row(arch);
	if (r) {
		fill(dst, r);
	} else {
		memset(dst, 0, sizeof(*dst));
		dst->struct_size = sizeof(*dst);
	}
	/* fields an older caller's header lacks keep the table's values for its arch */
	nxp__struct_in_defaults(dst, sizeof(*dst), src, NXP_HARDWARE_MIN_SIZE);
	dst->arch[sizeof(dst->arch) - 1] = '\0';
	return NXP_OK;
}
