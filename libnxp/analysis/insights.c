/* SPDX-License-Identifier: MIT */
/* Rule-based insights.  Every threshold is a named constant with its reason;
 * doc/insights.md lists them. */
#include "analysis_priv.h"

#include "abi_struct.h"
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dma_bound: DMA busy this many times longer than the Tensor engine means the
 * kernel waits on data movement rather than on compute. */
#define DMA_BOUND_RATIO 1.5
/* ... and DMA busy for at least this share of the total time (a short DMA
 * burst beside an idle Tensor engine is not a bottleneck). */
#define DMA_BOUND_MIN_SHARE 0.5
/* dma_bound is critical above this ratio. */
#define DMA_BOUND_CRITICAL_RATIO 3.0
/* low_mfu_semaphore_waits: MFU under 30 % (well below what dense matmul
 * kernels reach) while semaphore waits are at least 20 % of the critical path. */
#define LOW_MFU 0.30
#define SEM_WAIT_SHARE 0.20
/* critical_path_dominated: one resource holds at least 60 % of the path. */
#define DOMINANT_SHARE 0.60
/* small_dma_transfers: average transfer under 2 KiB, where the per-descriptor
 * fixed cost dominates the bytes moved; only with enough transfers to matter. */
#define SMALL_DMA_BYTES 2048.0
#define SMALL_DMA_MIN_COUNT 16
/* idle_gaps_between_executions: gaps between executions over 10 % of the span. */
#define EXEC_GAP_SHARE 0.10

struct nxp_insights {
	nxp_insight *v;
	size_t n, cap;
};

int nxp__insights_new(nxp_insights **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : NXP_E_NOMEM;
}

int nxp__insights_add(nxp_insights *in, const char *rule, int severity, int64_t start_ts, int64_t end_ts,
		      const nxp_insight_evidence *ev, size_t nev, const char *recommendation, const char *fmt, ...)
{
	if (in->n == in->cap) {
		size_t nc = in->cap ? in->cap * 2 : 8;
		nxp_insight *v = realloc(in->v, nc * sizeof(*v));
		if (!v)
			return NXP_E_NOMEM;
		in->v = v;
		in->cap = nc;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	nxp_insight *x = &in->v[in->n];
	memset(x, 0, sizeof(*x));
	x->struct_size = sizeof(*x);
	x->rule = rule;
	x->severity_level = severity;
	x->severity = severity == NXP_SEVERITY_CRITICAL ? "critical" : severity == NXP_SEVERITY_WARNING ? "warning" : "info";
	x->start_ts = start_ts;
	x->end_ts = end_ts;
	x->message = strdup(msg);
	x->recommendation = recommendation;
	nxp_insight_evidence *e = nev ? malloc(nev * sizeof(*e)) : NULL;
	if (!x->message || (nev && !e)) {
		free((void *)x->message);
		free(e);
		return NXP_E_NOMEM;
	}
	if (nev)
		memcpy(e, ev, nev * sizeof(*e));
	x->evidence = e;
	x->evidence_count = nev;
	in->n++;
	return 0;
}

void nxp__insights_sort(nxp_insights *in)
{
	for (size_t i = 1; i < in->n; i++)
		for (size_t j = i; j > 0 && in->v[j - 1].severity_level < in->v[j].severity_level; j--) {
			nxp_insight t = in->v[j - 1];
			in->v[j - 1] = in->v[j];
			in->v[j] = t;
		}
}

NXP_API void nxp_insights_close(nxp_insights *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->n; i++) {
		free((void *)in->v[i].message);
		free((void *)in->v[i].evidence);
	}
	free(in->v);
	free(in);
}

NXP_API size_t nxp_insights_count(const nxp_insights *in)
{
	return in ? in->n : 0;
}

NXP_API int nxp_insights_get(const nxp_insights *in, size_t index, nxp_insight *out)
{
	if (!in || !nxp__struct_size_ok(out, sizeof(nxp_insight)))
		return NXP_E_INVAL;
	if (index >= in->n)
		return NXP_E_RANGE;
	return NXP__STRUCT_OUT(out, in->v[index], sizeof(nxp_insight));
}

static double field(const nxp_summary *s, const char *name, int *present)
{
	nxp_summary_field f = {.struct_size = sizeof(f)};
	if (nxp_summary_find(s, name, &f) != NXP_OK || !f.present) {
		if (present)
			*present = 0;
		return 0;
	}
	if (present)
		*present = 1;
	return f.f;
}

static int rules(nxp_insights *out, nxp_profile *p, const nxp_summary *s, const nxp_critical_path *cp)
{
	int rc = 0, have;
	int64_t lo = INT64_MIN, hi = INT64_MIN, total_cp = 0;
	if (cp)
		nxp_critical_path_interval(cp, &lo, &hi, &total_cp);
	double total = field(s, "total_time", NULL);
	double dma = field(s, "dma_active_time", NULL), pe = field(s, "tensor_engine_active_time", NULL);
	if (total > 0 && dma >= DMA_BOUND_MIN_SHARE * total && dma > DMA_BOUND_RATIO * pe) {
		nxp_insight_evidence ev[] = {{"dma_active_time_s", dma, "seconds"},
					     {"tensor_engine_active_time_s", pe, "seconds"},
					     {"total_time_s", total, "seconds"}};
		rc = nxp__insights_add(out, "dma_bound",
				       pe > 0 && dma <= DMA_BOUND_CRITICAL_RATIO * pe ? NXP_SEVERITY_WARNING
										: NXP_SEVERITY_CRITICAL,
				       lo, hi, ev, 3,
				       "Overlap DMA with compute (more buffering), fuse layers to reuse data in SBUF, "
				       "or use larger, contiguous transfers.",
				       "DMA was busy %.3g us, %.1fx the Tensor engine's %.3g us (%.0f%% of the total time): "
				       "the kernel is bound by data movement.",
				       dma * 1e6, pe > 0 ? dma / pe : 0.0, pe * 1e6, 100 * dma / total);
		if (rc)
			return rc;
	}
	/* critical-path shares */
	int64_t sem_ns = 0, top_ns = 0;
	const char *top = NULL;
	for (size_t i = 0; cp && i < nxp_critical_path_resource_count(cp); i++) {
		nxp_critical_resource r = {.struct_size = sizeof(r)};
		nxp_critical_path_get_resource(cp, i, &r);
		if (!strcmp(r.resource, "semaphore_wait"))
			sem_ns = r.ns;
		if (r.ns > top_ns && strcmp(r.resource, "idle")) {
			top_ns = r.ns;
			top = r.resource;
		}
	}
	double mfu = field(s, "mfu_estimated_percent", &have);
	if (have && total_cp > 0 && mfu < LOW_MFU && sem_ns >= SEM_WAIT_SHARE * (double)total_cp) {
		nxp_insight_evidence ev[] = {{"mfu_estimated_percent", mfu, "fraction"},
					     {"semaphore_wait_ns", (double)sem_ns, "ns"},
					     {"critical_path_ns", (double)total_cp, "ns"}};
		if ((rc = nxp__insights_add(out, "low_mfu_semaphore_waits", NXP_SEVERITY_WARNING, lo, hi, ev, 3,
					    "Engines wait on each other: reorder or split work so producers run ahead "
					    "(deeper pipelining, more buffers).",
					    "MFU is %.1f%% and %.0f%% of the critical path is spent waiting on semaphores.",
					    100 * mfu, 100.0 * (double)sem_ns / (double)total_cp)))
			return rc;
	}
	if (top && total_cp > 0 && top_ns >= DOMINANT_SHARE * (double)total_cp) {
		nxp_insight_evidence ev[] = {{"resource_ns", (double)top_ns, "ns"},
					     {"critical_path_ns", (double)total_cp, "ns"}};
		if ((rc = nxp__insights_add(out, "critical_path_dominated", NXP_SEVERITY_INFO, lo, hi, ev, 2,
					    "Speed up or offload work on this resource first: it sets the run time.",
					    "%s holds %.0f%% of the critical path (%lld of %lld ns).", top,
					    100.0 * (double)top_ns / (double)total_cp, (long long)top_ns,
					    (long long)total_cp)))
			return rc;
	}
	int64_t thr = 0;
	for (size_t i = 0; i < nxp_summary_throttle_count(s); i++) {
		nxp_throttle_summary t = {.struct_size = sizeof(t)};
		if (nxp_summary_get_throttle(s, i, &t) == NXP_OK)
			thr += t.throttle_active_time_ns;
	}
	if (thr > 0) {
		nxp_insight_evidence ev[] = {{"throttle_active_time_ns", (double)thr, "ns"},
					     {"total_time_s", total, "seconds"}};
		if ((rc = nxp__insights_add(out, "throttling", NXP_SEVERITY_WARNING, lo, hi, ev, 2,
					    "Check the device's power and thermal state; throttled time is not the "
					    "kernel's fault and varies between runs.",
					    "The device was throttled for %lld ns.", (long long)thr)))
			return rc;
	}
	double avg = field(s, "dma_transfer_average_bytes", &have), cnt = field(s, "dma_transfer_count", NULL);
	if (have && cnt >= SMALL_DMA_MIN_COUNT && avg < SMALL_DMA_BYTES) {
		nxp_insight_evidence ev[] = {{"dma_transfer_average_bytes", avg, "bytes"},
					     {"dma_transfer_count", cnt, "count"}};
		if ((rc = nxp__insights_add(out, "small_dma_transfers", NXP_SEVERITY_WARNING, lo, hi, ev, 2,
					    "Coalesce transfers (larger tiles, contiguous layouts) so each descriptor "
					    "moves more bytes.",
					    "The %.0f DMA transfers average %.0f bytes, below %.0f bytes.", cnt, avg,
					    SMALL_DMA_BYTES)))
			return rc;
	}
	double sv = field(s, "spill_save_bytes", NULL), rl = field(s, "spill_reload_bytes", NULL);
	if (sv + rl > 0) {
		nxp_insight_evidence ev[] = {{"spill_save_bytes", sv, "bytes"}, {"spill_reload_bytes", rl, "bytes"}};
		if ((rc = nxp__insights_add(out, "spill_traffic", NXP_SEVERITY_WARNING, lo, hi, ev, 2,
					    "Reduce live tensors (smaller tiles, recomputation) so SBUF/PSUM need not "
					    "spill to HBM.",
					    "%.0f bytes were spilled and %.0f reloaded.", sv, rl)))
			return rc;
	}
	/* idle gaps between executions */
	nxp_cursor *c;
	if (nxp_cursor_open(&c, p, NXP_TABLE_EXECUTION, NULL, NULL) == NXP_OK) {
		nxp_execution x = {.struct_size = sizeof(x)};
		int64_t first = INT64_MAX, last_end = INT64_MIN, gaps = 0, n = 0;
		while (nxp_cursor_next_execution(c, &x) == NXP_OK) {
			if (x.execution_start_ts < first)
				first = x.execution_start_ts;
			if (n && x.execution_start_ts > last_end)
				gaps += x.execution_start_ts - last_end;
			if (x.execution_end_ts > last_end)
				last_end = x.execution_end_ts;
			n++;
		}
		nxp_cursor_close(c);
		if (n > 1 && last_end > first && (double)gaps >= EXEC_GAP_SHARE * (double)(last_end - first)) {
			nxp_insight_evidence ev[] = {{"gap_ns", (double)gaps, "ns"},
						     {"span_ns", (double)(last_end - first), "ns"},
						     {"executions", (double)n, "count"}};
			if ((rc = nxp__insights_add(out, "idle_gaps_between_executions", NXP_SEVERITY_INFO, first,
						    last_end, ev, 3,
						    "The device idles between executions: look at host-side work "
						    "(input preparation, synchronisation) between nrt_execute calls.",
						    "%.0f%% of the %lld executions' span is idle between them (%lld ns).",
						    100.0 * (double)gaps / (double)(last_end - first), (long long)n,
						    (long long)gaps)))
				return rc;
		}
	}
	return 0;
}

NXP_API int nxp_profile_insights(nxp_profile *p, const nxp_hardware *hw, nxp_insights **out, nxp_status *st)
{
	if (!p || !out)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_insights: NULL argument");
	*out = NULL;
	nxp_summary *s;
	int rc = nxp_profile_summarize(p, hw, &s, st);
	if (rc < 0)
		return rc;
	nxp_critical_path *cp = NULL;
	rc = nxp_profile_critical_path(p, NULL, &cp, st);
	if (rc < 0 && rc != NXP_E_NOT_FOUND) {
		nxp_summary_close(s);
		return rc;
	}
	nxp_insights *in = NULL;
	if (nxp__insights_new(&in) < 0 || (rc = rules(in, p, s, cp)) < 0) {
		nxp_critical_path_close(cp);
		nxp_summary_close(s);
		nxp_insights_close(in);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "insights: out of memory");
	}
	nxp__insights_sort(in);
	nxp_critical_path_close(cp);
	nxp_summary_close(s);
	*out = in;
	return NXP_OK;
}
