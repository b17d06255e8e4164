/* SPDX-License-Identifier: MIT */
/* Rank comparison over a capture: one summary per device profile, the host
 * nrt_execute events of its process, sorted slowest first. */
#include "analysis_priv.h"

#include "abi_struct.h"
#include "pool.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

/* straggler: the slowest profile is at least 5 % slower than the fastest
 * (run-to-run noise of identical ranks stays well under that). */
#define STRAGGLER_SHARE 0.05
/* ... critical when 20 % slower. */
#define STRAGGLER_CRITICAL_SHARE 0.20

struct nxp_comparison {
	nxp_comparison_row *rows;
	size_t n;
	char **strings;
	size_t nstrings;
	nxp_insights *insights;
};

static const char *keep(nxp_comparison *c, const char *s)
{
	char **v = realloc(c->strings, (c->nstrings + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->strings = v;
	return (v[c->nstrings] = strdup(s ? s : "")) ? v[c->nstrings++] : NULL;
}

static int64_t fns(const nxp_summary *s, const char *name)
{
	nxp_summary_field f = {.struct_size = sizeof(f)};
	if (nxp_summary_find(s, name, &f) != NXP_OK || !f.present)
		return 0;
	return f.unit && !strcmp(f.unit, "seconds") ? (int64_t)(f.f * 1e9 + 0.5) : f.i;
}

static const char *const engine_field[NXP_ENGINE_COUNT] = {"tensor_engine_active_time", "vector_engine_active_time",
							    "scalar_engine_active_time", "gpsimd_engine_active_time",
							    "sync_engine_active_time"};

static void fill_row(nxp_comparison_row *r, nxp_profile *p, const nxp_hardware *hw, int32_t sum_threads,
		     nxp_status *st)
{
	nxp_summary *s;
	nxp_summary_options so;
	nxp_summary_options_init(&so);
	so.hw = hw;
	so.threads = sum_threads;
	int rc = nxp_profile_summarize_opts(p, &so, &s, st);
	if (rc < 0) {
		r->status = rc;
		return;
	}
	r->total_ns = fns(s, "total_time");
	nxp_summary_field f = {.struct_size = sizeof(f)};
	if (nxp_summary_find(s, "mfu_estimated_percent", &f) == NXP_OK && f.present) {
		r->mfu_present = 1;
		r->mfu = f.f;
	}
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		r->engine_active_ns[e] = fns(s, engine_field[e]);
	r->dma_active_ns = fns(s, "dma_active_time");
	r->dma_bytes = fns(s, "dma_transfer_total_bytes");
	for (size_t i = 0; i < nxp_summary_throttle_count(s); i++) {
		nxp_throttle_summary t = {.struct_size = sizeof(t)};
		if (nxp_summary_get_throttle(s, i, &t) == NXP_OK)
			r->throttle_ns += t.throttle_active_time_ns;
	}
	nxp_summary_close(s);
}

static void host_events(const nxp_capture *cap, nxp_comparison_row *r, int64_t process_index, int64_t *first)
{
	*first = INT64_MAX;
	if (process_index < 0)
		return;
	nxp_system_events *ev;
	if (nxp_capture_open_events(cap, process_index, NULL, &ev, NULL) != NXP_OK)
		return;
	nxp_system_event e = {.struct_size = sizeof(e)};
	while (nxp_system_events_next(ev, &e) == NXP_OK) {
		if (!e.name || strcmp(e.name, "nrt_execute") || (e.flags & NXP_SYSEV_UNMATCHED_STOP))
			continue;
		if (r->nc_idx >= 0 && e.nc_idx >= 0 && e.nc_idx != r->nc_idx)
			continue;
		r->host_execute_count++;
		r->host_execute_total_ns += e.duration_ns;
		if (e.duration_ns > r->host_execute_max_ns)
			r->host_execute_max_ns = e.duration_ns;
		if (e.start_ts < *first)
			*first = e.start_ts;
	}
	nxp_system_events_close(ev);
}

NXP_API void nxp_comparison_close(nxp_comparison *cmp)
{
	if (!cmp)
		return;
	for (size_t i = 0; i < cmp->nstrings; i++)
		free(cmp->strings[i]);
	free(cmp->strings);
	free(cmp->rows);
	nxp_insights_close(cmp->insights);
	free(cmp);
}

typedef struct fig {
	const char *name;
	int64_t d;
} fig;

static int slower_first(const void *a, const void *b)
{
	const nxp_comparison_row *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->profile_index < y->profile_index ? -1 : x->profile_index > y->profile_index;
}

/* One profile's row: open, summarize, close; then its process's host events.
 * Writes only its own row and first[] slot. */
typedef struct row_task {
	const nxp_capture *c;
	const nxp_hardware *hw;
	nxp_comparison_row *r;
	int64_t *first;
	int64_t process_index;
	int32_t sum_threads;
} row_task;

static void row_run(void *arg)
{
	row_task *t = arg;
	nxp_profile *p;
	int rc = nxp_capture_open_profile(t->c, (size_t)t->r->profile_index, NULL, &p, NULL);
	if (rc < 0) {
		t->r->status = rc;
	} else {
		fill_row(t->r, p, t->hw, t->sum_threads, NULL);
		nxp_profile_close(p);
	}
	host_events(t->c, t->r, t->process_index, t->first);
}

int nxp__capture_compare_threads(const nxp_capture *c, const nxp_hardware *hw, unsigned threads,
				 nxp_comparison **out, nxp_status *st);

NXP_API int nxp_capture_compare(const nxp_capture *c, const nxp_hardware *hw, nxp_comparison **out, nxp_status *st)
{
	return nxp__capture_compare_threads(c, hw, nxp__fanout_threads(), out, st);
}

/* threads: profiles processed at once (0 = one per online CPU, 1 = serial, on
 * the calling thread).  Rows are computed independently and sorted after, so
 * the result is the same whatever the width. */
int nxp__capture_compare_threads(const nxp_capture *c, const nxp_hardware *hw, unsigned threads,
				 nxp_comparison **out, nxp_status *st)
{
	row_task *tasks = NULL;
	nxp_pool *pool = NULL;
	if (!c || !out)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_compare: NULL argument");
	*out = NULL;
	size_t n = nxp_capture_profile_count(c);
	if (!n)
		return nxp__error_set(st, NXP_E_NOT_FOUND, -1, "nxp_capture_compare: the capture has no device profile");
	nxp_comparison *cmp = calloc(1, sizeof(*cmp));
	int64_t *first = calloc(n, sizeof(*first));
	tasks = calloc(n, sizeof(*tasks));
	if (!cmp || !first || !tasks || !(cmp->rows = calloc(n, sizeof(*cmp->rows))) ||
	    nxp__insights_new(&cmp->insights) < 0)
		goto nomem;
	cmp->n = n;
	for (size_t i = 0; i < n; i++) {
		nxp_comparison_row *r = &cmp->rows[i];
		r->struct_size = sizeof(*r);
		r->profile_index = (int64_t)i;
		r->process_id = -1;
		r->host_start_skew_ns = -1;
		nxp_capture_profile cp = {.struct_size = sizeof(cp)};
		nxp_capture_get_profile(c, i, &cp);
		r->nc_idx = cp.nc_idx;
		nxp_capture_file f = {.struct_size = sizeof(f)};
		if (!(r->ntff_path = keep(cmp, cp.ntff >= 0 && nxp_capture_get_file(c, (size_t)cp.ntff, &f) == NXP_OK ? f.path : "")))
			goto nomem;
		nxp_capture_process pr = {.struct_size = sizeof(pr)};
		const char *inst = "";
		if (cp.process_index >= 0 && nxp_capture_get_process(c, (size_t)cp.process_index, &pr) == NXP_OK) {
			inst = pr.instance_id;
			r->process_id = pr.pid;
		}
		if (!(r->instance_id = keep(cmp, inst)))
			goto nomem;
		tasks[i] = (row_task){c, hw, r, &first[i], cp.process_index, 0};
	}
	if (!threads)
		threads = nxp_cpu_count();
	if (threads > n)
		threads = (unsigned)n;
	/* with several profiles at once each summary runs single-threaded (the
	 * figures are identical either way, see nxp_summary_options.threads) */
	if (threads > 1 && nxp_pool_new(&pool, threads, threads) == NXP_OK) {
		for (size_t i = 0; i < n; i++) {
			tasks[i].sum_threads = 1;
			nxp_pool_submit(pool, row_run, &tasks[i]);
		}
		nxp_pool_free(pool); /* waits: every row written is visible here */
	} else {
		for (size_t i = 0; i < n; i++)
			row_run(&tasks[i]);
	}
	int64_t first_min = INT64_MAX;
	for (size_t i = 0; i < n; i++)
		if (first[i] < first_min)
			first_min = first[i];
	for (size_t i = 0; i < n; i++)
		if (first[i] != INT64_MAX)
			cmp->rows[i].host_start_skew_ns = first[i] - first_min;
	qsort(cmp->rows, n, sizeof(*cmp->rows), slower_first);
	/* the fastest profile that could be read */
	const nxp_comparison_row *fast = NULL;
	for (size_t i = 0; i < n; i++)
		if (!cmp->rows[i].status)
			fast = &cmp->rows[i];
	for (size_t i = 0; fast && i < n; i++) {
		nxp_comparison_row *r = &cmp->rows[i];
		r->explaining_figure = "";
		if (r->status)
			continue;
		r->gap_ns = r->total_ns - fast->total_ns;
		if (r == fast || r->gap_ns <= 0)
			continue;
		/* the figure whose excess over the fastest profile is largest */
		fig cand[NXP_ENGINE_COUNT + 3];
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			cand[e].name = engine_field[e];
			cand[e].d = r->engine_active_ns[e] - fast->engine_active_ns[e];
		}
		cand[NXP_ENGINE_COUNT] = (fig){"dma_active_time", r->dma_active_ns - fast->dma_active_ns};
		cand[NXP_ENGINE_COUNT + 1] = (fig){"throttle_active_time", r->throttle_ns - fast->throttle_ns};
		cand[NXP_ENGINE_COUNT + 2] =
			(fig){"host_start_skew", r->host_start_skew_ns >= 0 && fast->host_start_skew_ns >= 0
								     ? r->host_start_skew_ns - fast->host_start_skew_ns
								     : 0};
		size_t best = 0;
		for (size_t k = 1; k < sizeof cand / sizeof cand[0]; k++)
			if (cand[k].d > cand[best].d)
				best = k;
		if (cand[best].d > 0) {
			r->explaining_figure = cand[best].name;
			r->explaining_delta_ns = cand[best].d;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!cmp->rows[i].explaining_figure)
			cmp->rows[i].explaining_figure = "";
	if (fast && !cmp->rows[0].status && fast->total_ns > 0 &&
	    (double)cmp->rows[0].gap_ns >= STRAGGLER_SHARE * (double)fast->total_ns) {
		const nxp_comparison_row *s = &cmp->rows[0];
		double share = (double)s->gap_ns / (double)fast->total_ns;
		nxp_insight_evidence ev[] = {{"slowest_total_ns", (double)s->total_ns, "ns"},
					     {"fastest_total_ns", (double)fast->total_ns, "ns"},
					     {"explaining_delta_ns", (double)s->explaining_delta_ns, "ns"}};
		if (nxp__insights_add(cmp->insights, "straggler",
				      share >= STRAGGLER_CRITICAL_SHARE ? NXP_SEVERITY_CRITICAL : NXP_SEVERITY_WARNING,
				      INT64_MIN, INT64_MIN, ev, 3,
				      "Every rank waits for the slowest at the next collective: look at what differs on "
				      "this rank (its figure below, its host, its inputs).",
				      "%s is the slowest profile, %.1f%% (%lld ns) slower than the fastest; the largest "
				      "difference is %s (+%lld ns).",
				      s->ntff_path, 100 * share, (long long)s->gap_ns,
				      *s->explaining_figure ? s->explaining_figure : "none measured",
				      (long long)s->explaining_delta_ns) < 0)
			goto nomem;
	}
	free(first);
	free(tasks);
	*out = cmp;
	return NXP_OK;
nomem:
	free(first);
	free(tasks);
	nxp_comparison_close(cmp);
	return nxp__error_set(st, NXP_E_NOMEM, -1, "nxp_capture_compare: out of memory");
}

NXP_API size_t nxp_comparison_count(const nxp_comparison *cmp)
{
	return cmp ? cmp->n : 0;
}

NXP_API int nxp_comparison_get(const nxp_comparison *cmp, size_t index, nxp_comparison_row *out)
{
	if (!cmp || !nxp__struct_size_ok(out, sizeof(nxp_comparison_row)))
		return NXP_E_INVAL;
	if (index >= cmp->n)
		return NXP_E_RANGE;
	return NXP__STRUCT_OUT(out, cmp->rows[index], sizeof(nxp_comparison_row));
}

NXP_API const nxp_insights *nxp_comparison_insights(const nxp_comparison *cmp)
{
	return cmp ? cmp->insights : NULL;
}
