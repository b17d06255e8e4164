/* SPDX-License-Identifier: MIT */
/* Internal interface of the analysis module (flows, critical path, insights,
 * capture comparison). */
#ifndef NXP_ANALYSIS_PRIV_H
#define NXP_ANALYSIS_PRIV_H

#include <nxp/nxp.h>

#include <stdint.h>

/* Opcodes that start a DMA transfer on a queue owned by their engine
 * (DMAMEMCPY, DMA_INDIRECT, DMA_TRANSPOSE, PSEUDO_DMATRIGGER; doc/formats/neff.md). */
static inline int nxp__is_dma_trigger_opcode(uint32_t op)
{
	return op == 0xB8 || op == 0xBB || op == 0xBD || op == 0xC1;
}

/* Saturating a - b and a + b for time bounds. */
static inline int64_t nxp__ts_sub(int64_t a, int64_t b)
{
	return (b > 0 && a < INT64_MIN + b) ? INT64_MIN : a - b;
}
static inline int64_t nxp__ts_add(int64_t a, int64_t b)
{
	return (b > 0 && a > INT64_MAX - b) ? INT64_MAX : a + b;
}

/* Names of the edge kinds. */
const char *nxp__flow_kind_name(int kind);

/* Insight list building (insights.c), used by compare.c too. */
typedef struct nxp__insight_builder nxp__insight_builder;
int nxp__insights_new(nxp_insights **out);
/* Append an insight; strings are copied; evidence copied (names/units must be static).
 * Returns 0 or NXP_E_NOMEM. */
int nxp__insights_add(nxp_insights *in, const char *rule, int severity, int64_t start_ts, int64_t end_ts,
		      const nxp_insight_evidence *ev, size_t nev, const char *recommendation, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;
/* Sort by decreasing severity, stable in insertion (rule) order. */
void nxp__insights_sort(nxp_insights *in);

#endif
