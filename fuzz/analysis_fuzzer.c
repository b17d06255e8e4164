/* SPDX-License-Identifier: MIT */
/* Analysis: a fuzzed NTFF (paired with the fixture NEFF) through the flow
 * cursor (bounded number of edges; small fuzzed window, time bounds and
 * pcore), nxp_profile_flows_of() on one record, the critical path (of the
 * whole interval or one execution) and the insights.  Checks: every edge has
 * static names matching its kind and gap_time == out_ts - in_ts, exact edges
 * are not negative, out_ts lies in the asked window; cursor errors follow the
 * error contract and are sticky; the critical path's breakdown rows sum to
 * total_ns = end - start, busy + slack = total, steps are in order; insights
 * have their strings and a severity name matching the level.
 * Input: [flags] [pcore] [execution] [window] [u64 start] [u64 end] [u8 id]
 *        [ctl] [NTFF bytes...]
 * flags bit 0: SKIP_CRC; bit 1: flow time bounds; bit 2: flow pcore filter;
 *       bit 3: critical path of execution byte 2 (else -1); bit 4: critical
 *       path pcore filter; bit 5: skip insights; bits 6-7: flows_of table. */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

#define MAX_EDGES 4096

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	return 0;
}

static const char *const kind_names[] = {NULL, "semaphore_wait", "dma_trigger", "dma_completion",
					 "semaphore_signal"};

static void check_flow(const nxp_flow *f, const nxp_flow_options *o)
{
	FZ_CHECK(f->kind >= 1 && f->kind <= 4, "kind %d", f->kind);
	FZ_CHECK(f->dependency_type && !strcmp(f->dependency_type, kind_names[f->kind]), "kind %d named %s",
		 f->kind, f->dependency_type ? f->dependency_type : "(null)");
	sink += fz_touch(f->in_table) + fz_touch(f->out_table);
	FZ_CHECK(f->in_table && f->out_table, "table names missing");
	int64_t gap;
	FZ_CHECK(!__builtin_sub_overflow(f->out_ts, f->in_ts, &gap) && gap == f->gap_time,
		 "gap_time %lld, out_ts %lld - in_ts %lld", (long long)f->gap_time, (long long)f->out_ts,
		 (long long)f->in_ts);
	FZ_CHECK(!f->exact || f->gap_time >= 0, "exact edge with a negative gap %lld", (long long)f->gap_time);
	FZ_CHECK(f->out_ts >= o->start_ts && f->out_ts < o->end_ts, "out_ts %lld outside [%lld, %lld)",
		 (long long)f->out_ts, (long long)o->start_ts, (long long)o->end_ts);
	FZ_CHECK(o->pcore_idx < 0 || f->pcore_idx == o->pcore_idx, "pcore %lld, asked %lld",
		 (long long)f->pcore_idx, (long long)o->pcore_idx);
}

static void run_flows(nxp_profile *p, uint8_t flags, uint8_t pcore, uint8_t win, int64_t start, int64_t end,
		      uint8_t idsel)
{
	nxp_flow_options o;
	nxp_flow_options_init(&o);
	o.window_ns = 1 + (int64_t)win * 4000;
	if (flags & 2) {
		o.start_ts = start;
		o.end_ts = end;
	}
	if (flags & 4)
		o.pcore_idx = pcore & 3;
	nxp_flow_cursor *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_flow_cursor_open(&c, p, &o, &st);
	if (rc != NXP_OK) {
		fz_check_error(rc, &st, UINT64_MAX, "flow_cursor_open");
		FZ_CHECK(c == NULL, "a failed open returned a cursor");
		return;
	}
	nxp_flow f;
	int64_t n = 0, first_out = -1;
	for (; n < MAX_EDGES; n++) {
		memset(&f, 0xa5, sizeof(f));
		f.struct_size = sizeof(f);
		rc = nxp_flow_cursor_next(c, &f);
		if (rc != NXP_OK)
			break;
		check_flow(&f, &o);
		if (first_out < 0)
			first_out = f.out_id;
		sink += (uint64_t)f.in_id ^ (uint64_t)f.out_id;
	}
	if (rc < 0 && rc != NXP_END) {
		nxp_status e;
		nxp_status_init(&e);
		FZ_CHECK(nxp_flow_cursor_error(c, &e) == rc, "cursor_error differs from next's %d", rc);
		fz_check_error(rc, &e, UINT64_MAX, "flow_cursor_next");
		FZ_CHECK(nxp_flow_cursor_next(c, &f) == rc, "a flow cursor in error went on");
	} else if (rc == NXP_END) {
		FZ_CHECK(nxp_flow_cursor_next(c, &f) == NXP_END, "next after the end");
	}
	nxp_flow_cursor_close(c);

	/* what one record waited on / unblocked */
	static const int tables[] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE,
				     NXP_TABLE_INSTRUCTION};
	nxp_flow got[4];
	size_t count = 0;
	int64_t id = (flags & 0x80) && first_out >= 0 ? first_out : idsel;
	nxp_status_init(&st);
	rc = nxp_profile_flows_of(p, tables[flags >> 6], id, (idsel & 1) ? NXP_FLOW_WAITED_ON : NXP_FLOW_UNBLOCKED,
				  got, sizeof(got[0]), 4, &count, &st);
	if (rc < 0) {
		fz_check_error(rc, &st, UINT64_MAX, "flows_of");
		return;
	}
	nxp_flow_options all;
	nxp_flow_options_init(&all);
	for (size_t i = 0; i < count && i < 4; i++)
		check_flow(&got[i], &all);
}

static void run_critical_path(nxp_profile *p, uint8_t flags, uint8_t pcore, uint8_t exec)
{
	nxp_critical_path_options o;
	nxp_critical_path_options_init(&o);
	if (flags & 8)
		o.execution_index = exec & 7;
	if (flags & 16)
		o.pcore_idx = pcore & 3;
	nxp_critical_path *cp = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_critical_path(p, &o, &cp, &st);
	if (rc != NXP_OK) {
		fz_check_error(rc, &st, UINT64_MAX, "critical_path");
		return;
	}
	int64_t lo, hi, total;
	FZ_CHECK(nxp_critical_path_interval(cp, &lo, &hi, &total) == NXP_OK, "interval");
	int64_t d;
	FZ_CHECK(!__builtin_sub_overflow(hi, lo, &d) && d == total && total >= 0,
		 "interval [%lld, %lld], total %lld", (long long)lo, (long long)hi, (long long)total);
	size_t nr = nxp_critical_path_resource_count(cp);
	int64_t sum = 0, prev = INT64_MAX;
	for (size_t i = 0; i < nr; i++) {
		nxp_critical_resource r;
		r.struct_size = sizeof(r);
		FZ_CHECK(nxp_critical_path_get_resource(cp, i, &r) == NXP_OK, "get_resource %zu", i);
		sink += fz_touch(r.resource);
		FZ_CHECK(r.resource && r.resource[0], "resource %zu unnamed", i);
		FZ_CHECK(r.ns >= 0 && r.ns <= total, "resource %s: ns %lld of %lld", r.resource, (long long)r.ns,
			 (long long)total);
		FZ_CHECK(r.ns <= prev, "breakdown not largest first at %zu", i);
		prev = r.ns;
		FZ_CHECK(!__builtin_add_overflow(sum, r.ns, &sum), "breakdown sum overflows");
		if (!strncmp(r.resource, "engine:", 7) || !strncmp(r.resource, "dma:", 4)) {
			FZ_CHECK(r.busy_ns >= 0 && r.busy_ns <= total && r.busy_ns + r.slack_ns == total,
				 "%s: busy %lld + slack %lld != total %lld", r.resource, (long long)r.busy_ns,
				 (long long)r.slack_ns, (long long)total);
		} else {
			FZ_CHECK(r.busy_ns == 0 && r.slack_ns == 0, "%s with busy/slack", r.resource);
		}
	}
	FZ_CHECK(sum == total, "breakdown sums to %lld, total_ns %lld", (long long)sum, (long long)total);
	nxp_critical_resource r;
	r.struct_size = sizeof(r);
	FZ_CHECK(nxp_critical_path_get_resource(cp, nr, &r) == NXP_E_RANGE, "resource past the end");
	size_t ns = nxp_critical_path_step_count(cp);
	int64_t last = INT64_MIN;
	for (size_t i = 0; i < ns; i++) {
		nxp_critical_step s;
		s.struct_size = sizeof(s);
		FZ_CHECK(nxp_critical_path_get_step(cp, i, &s) == NXP_OK, "get_step %zu", i);
		sink += fz_touch(s.resource) + fz_touch(s.label) + fz_touch(s.via);
		FZ_CHECK(s.resource && s.label && s.via, "step %zu: a NULL string", i);
		FZ_CHECK(s.start_ts <= s.end_ts, "step %zu: [%lld, %lld]", i, (long long)s.start_ts,
			 (long long)s.end_ts);
		FZ_CHECK(s.ns >= 0, "step %zu: ns %lld", i, (long long)s.ns);
		FZ_CHECK(s.end_ts >= last, "steps out of order at %zu (end_ts)", i);
		last = s.end_ts;
	}
	nxp_critical_step s;
	s.struct_size = sizeof(s);
	FZ_CHECK(nxp_critical_path_get_step(cp, ns, &s) == NXP_E_RANGE, "step past the end");
	nxp_critical_path_close(cp);
}

static void run_insights(nxp_profile *p)
{
	nxp_insights *ins = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_insights(p, NULL, &ins, &st);
	if (rc != NXP_OK) {
		fz_check_error(rc, &st, UINT64_MAX, "insights");
		return;
	}
	static const char *const sev[] = {NULL, "info", "warning", "critical"};
	size_t n = nxp_insights_count(ins);
	int prev = 4;
	for (size_t i = 0; i < n; i++) {
		nxp_insight x;
		x.struct_size = sizeof(x);
		FZ_CHECK(nxp_insights_get(ins, i, &x) == NXP_OK, "insights_get %zu", i);
		FZ_CHECK(x.severity_level >= 1 && x.severity_level <= 3, "severity %d", x.severity_level);
		FZ_CHECK(x.severity && !strcmp(x.severity, sev[x.severity_level]), "severity %d named %s",
			 x.severity_level, x.severity ? x.severity : "(null)");
		FZ_CHECK(x.severity_level <= prev, "insights not in decreasing severity at %zu", i);
		prev = x.severity_level;
		FZ_CHECK(x.rule && x.rule[0] && x.message && x.recommendation, "insight %zu: missing strings", i);
		sink += fz_touch(x.rule) + fz_touch(x.message) + fz_touch(x.recommendation);
		FZ_CHECK(x.evidence_count == 0 || x.evidence, "evidence count %zu, no array", x.evidence_count);
		for (size_t k = 0; k < x.evidence_count; k++) {
			sink += fz_touch(x.evidence[k].name) + fz_touch(x.evidence[k].unit);
			FZ_CHECK(x.evidence[k].name && x.evidence[k].unit, "evidence %zu: missing strings", k);
		}
	}
	nxp_insight x;
	x.struct_size = sizeof(x);
	FZ_CHECK(nxp_insights_get(ins, n, &x) == NXP_E_RANGE, "insight past the end");
	nxp_insights_close(ins);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t flags = fz_take_u8(&in), pcore = fz_take_u8(&in), exec = fz_take_u8(&in), win = fz_take_u8(&in);
	int64_t start = (int64_t)fz_take_u64(&in), end = (int64_t)fz_take_u64(&in);
	uint8_t idsel = fz_take_u8(&in);
	nxp_profile_options popts;
	nxp_profile_options_init(&popts);
	if (flags & 1)
		popts.flags |= NXP_PROFILE_SKIP_CRC;
	fz_fixture_pair fx;
	if (fz_fixture_pair_open(&fx, &in, &popts, NULL) == NXP_OK) {
		nxp_profile *p = fx.p;
		if (!(flags & 2) || start < end)
			run_flows(p, flags, pcore, win, start, end, idsel);
		run_critical_path(p, flags, pcore, exec);
		if (!(flags & 32))
			run_insights(p);
	}
	fz_fixture_pair_close(&fx);
	return 0;
}
