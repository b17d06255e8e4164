/* SPDX-License-Identifier: MIT */
/* System profiles: .pb readers and writers, trace.json, clock map, capture
 * directories.  Every cursor test also runs through tu_chunky_source. */
#include "neff_fixture.h"
#include "pbwire.h"
#include "status.h"
#include "system_priv.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---- */
enum { SRC_MEMORY, SRC_CHUNKY_SEEK, SRC_CHUNKY_SEQ, SRC_MODES };

static nxp_source *make_src(const void *data, size_t len, int mode)
{
	nxp_source *s = NULL;
	if (mode == SRC_MEMORY)
		ck_assert_int_eq(nxp_source_open_memory(&s, data, len, NULL), NXP_OK);
	else
		s = tu_chunky_source(data, len, mode == SRC_CHUNKY_SEEK);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* A captured row (strings copied). */
typedef struct row {
	nxp_system_event e;
	char name[128], phase[4], pid[64], tid[64], src[16], attrs[512], flow[32], pname[64], tname[64], inst[64];
} row;

static void copy_row(row *r, const nxp_system_event *e)
{
	r->e = *e;
	snprintf(r->name, sizeof(r->name), "%s", e->name);
	snprintf(r->phase, sizeof(r->phase), "%s", e->phase);
	snprintf(r->pid, sizeof(r->pid), "%s", e->pid);
	snprintf(r->tid, sizeof(r->tid), "%s", e->tid);
	snprintf(r->src, sizeof(r->src), "%s", e->trace_event_source);
	snprintf(r->attrs, sizeof(r->attrs), "%s", e->extra_attributes_json);
	snprintf(r->flow, sizeof(r->flow), "%s", e->flow_id);
	snprintf(r->pname, sizeof(r->pname), "%s", e->process_name);
	snprintf(r->tname, sizeof(r->tname), "%s", e->thread_name);
	snprintf(r->inst, sizeof(r->inst), "%s", e->instance_id);
}

/* Read every row of a cursor; returns the final code (NXP_END or an error). */
static int read_all(nxp_system_events *c, row **rows, size_t *n)
{
	size_t cap = 16;
	*rows = calloc(cap, sizeof(row));
	*n = 0;
	nxp_system_event e;
	e.struct_size = sizeof(e);
	int rc;
	while ((rc = nxp_system_events_next(c, &e)) == NXP_OK) {
		if (*n == cap) {
			cap *= 2;
			*rows = realloc(*rows, cap * sizeof(row));
		}
		copy_row(&(*rows)[(*n)++], &e);
	}
	return rc;
}

/* The first nxp_system_events_next() of `len` bytes of `doc` (served as `mode`,
 * read as `kind` with options `o`, which may be NULL) fails with `code`; *st gets
 * the handle's error (nxp_system_events_error). */
static void expect_first_error(const void *doc, size_t len, int mode, int kind, const nxp_system_options *o,
			       int code, nxp_status *st)
{
	nxp_source *s = make_src(doc, len, mode);
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open(&c, s, kind, o, NULL), NXP_OK);
	nxp_system_event e;
	e.struct_size = sizeof(e);
	ck_assert_int_eq(nxp_system_events_next(c, &e), code);
	nxp_status_init(st);
	nxp_system_events_error(c, st);
	nxp_system_events_close(c);
	nxp_source_close(s);
}

static const row *find(const row *rows, size_t n, const char *name, const char *phase)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name) && (!phase || !strcmp(rows[i].phase, phase)))
			return &rows[i];
	return NULL;
}

static size_t count_phase(const row *rows, size_t n, const char *phase)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += !strcmp(rows[i].phase, phase);
	return k;
}

static char *tmpdir;
static void setup(void)
{
	tmpdir = tu_tmpdir();
}
static void teardown(void)
{
	tu_rmtree(tmpdir);
	free(tmpdir);
}

/* ---- the real Kineto trace ---- */
#define KINETO_BASE 1775078550000000000LL

static void check_kineto_rows(const row *rows, size_t n, int base_applied)
{
	ck_assert_uint_eq(n, 75);
	ck_assert_uint_eq(count_phase(rows, n, "M"), 60);
	ck_assert_uint_eq(count_phase(rows, n, "X"), 9);
	ck_assert_uint_eq(count_phase(rows, n, "f"), 3);
	ck_assert_uint_eq(count_phase(rows, n, "s"), 1);
	ck_assert_uint_eq(count_phase(rows, n, "i"), 2);
	int64_t base = base_applied ? KINETO_BASE : 0;
	const row *op1 = find(rows, n, "op1", "X");
	ck_assert_ptr_nonnull(op1);
	ck_assert_int_eq(op1->e.start_ts, base + 88511388202765LL);
	ck_assert_int_eq(op1->e.duration_ns, 40);
	ck_assert_int_eq(op1->e.end_ts, base + 88511388202805LL);
	ck_assert_int_eq(op1->e.process_id, 514683);
	ck_assert_int_eq(op1->e.thread_id, 514683);
	ck_assert_str_eq(op1->pid, "514683");
	ck_assert_str_eq(op1->src, "framework");
	ck_assert_str_eq(op1->attrs, "{\"External id\":1}");
	/* String pid/tid. */
	const row *span = find(rows, n, "Test trace (0)", "X");
	ck_assert_ptr_nonnull(span);
	ck_assert_str_eq(span->pid, "Spans");
	ck_assert_str_eq(span->tid, "Test trace");
	ck_assert_int_eq(span->e.process_id, -1);
	ck_assert_int_eq(span->e.thread_id, -1);
	ck_assert_int_eq(span->e.duration_ns, 300);
	ck_assert_int_eq(span->e.start_ts, base + 88511388202755LL);
	/* Empty-string pid of the last instant, and its scope kept. */
	const row *rwe = find(rows, n, "Record Window End", "i");
	ck_assert_ptr_nonnull(rwe);
	ck_assert_str_eq(rwe->pid, "");
	ck_assert_str_eq(rwe->attrs, "{\"s\":\"g\"}");
	ck_assert_int_eq(rwe->e.start_ts, base + 88511388203055LL);
	/* Flows: one start, three ends bound to the enclosing slice. */
	size_t fe = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(rows[i].phase, "f"))
			continue;
		fe++;
		ck_assert_str_eq(rows[i].attrs, "{\"bp\":\"e\"}");
		ck_assert_str_eq(rows[i].name, "ac2g");
	}
	ck_assert_uint_eq(fe, 3);
	const row *fs = find(rows, n, "ac2g", "s");
	ck_assert_str_eq(fs->flow, "1");
	const row *f200 = NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].phase, "f") && !strcmp(rows[i].flow, "200"))
			f200 = &rows[i];
	ck_assert_ptr_nonnull(f200);
	ck_assert_int_eq(f200->e.start_ts, base + 88511388202855LL);
	ck_assert_int_eq(f200->e.process_id, 0);
	ck_assert_int_eq(f200->e.thread_id, 1);
	/* Metadata rows and names applied to later rows. */
	const row *pn = find(rows, n, "process_name", "M");
	ck_assert_ptr_nonnull(pn);
	ck_assert_ptr_nonnull(strstr(pn->attrs, "\"name\""));
	const row *kern = find(rows, n, "Kernel", "X");
	ck_assert_ptr_nonnull(kern);
	ck_assert_int_eq(kern->e.duration_ns, 20);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(rows[i].e.id, (int64_t)i < 75 ? rows[i].e.id : -1);
		ck_assert_uint_eq(rows[i].e.flags & NXP_SYSEV_NO_BASE_TIME, base_applied ? 0 : NXP_SYSEV_NO_BASE_TIME);
	}
}

START_TEST(test_kineto_real)
{
	/* The project's copy (tests/data/kineto, with its licence): this test always runs. */
	char *path = tu_data_path("kineto/after_fix_trace.json");
	size_t len;
	void *data = tu_read_file(path, &len);
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(data, len, mode);
		nxp_system_events *c;
		nxp_status st;
		nxp_status_init(&st);
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_AUTO, NULL, &st), NXP_OK);
		row *rows;
		size_t n;
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		/* baseTimeNanoseconds precedes traceEvents in this file: applied on every source. */
		check_kineto_rows(rows, n, 1);
		nxp_system_stats stats;
		stats.struct_size = sizeof(stats);
		ck_assert_int_eq(nxp_system_events_get_stats(c, &stats), NXP_OK);
		ck_assert_int_eq(stats.events, 75);
		ck_assert_int_eq(stats.framework, 75);
		ck_assert_int_eq(stats.base_time_ns, KINETO_BASE);
		ck_assert_int_eq(stats.bytes_read, (int64_t)len);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
	/* By path, and gzip'd. */
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	row *rows;
	size_t n;
	ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
	check_kineto_rows(rows, n, 1);
	ck_assert_str_eq(rows[0].e.file, path); /* dangling after close: compare now */
	free(rows);
	nxp_system_events_close(c);
	char *gz = tu_path(tmpdir, "trace.json.gz");
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s'", path, gz);
	ck_assert_int_eq(system(cmd), 0);
	size_t glen;
	void *gdata = tu_read_file(gz, &glen);
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(gdata, glen, mode);
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_AUTO, NULL, NULL), NXP_OK);
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		check_kineto_rows(rows, n, 1);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
	free(gdata);
	free(gz);
	free(data);
	free(path);
}
END_TEST

/* ---- trace.json writer round trip, base after traceEvents, B/E ---- */
static nxp_system_event fw(const char *ph, const char *name, const char *pid, const char *tid, int64_t ts,
			   int64_t end, const char *args, const char *flow)
{
	nxp_system_event e;
	memset(&e, 0, sizeof(e));
	e.struct_size = sizeof(e);
	e.phase = ph;
	e.name = name;
	e.pid = pid;
	e.tid = tid;
	e.start_ts = ts;
	e.end_ts = end;
	e.extra_attributes_json = args;
	e.flow_id = flow;
	e.category = "cpu_op";
	return e;
}

#define BASE 1700000000000000000LL

START_TEST(test_trace_json_roundtrip)
{
	nxp_system_event ev[] = {
		fw("M", "process_name", "7", "0", BASE, BASE, "{\"name\":\"python\"}", NULL),
		fw("M", "thread_name", "7", "8", BASE, BASE, "{\"name\":\"main\"}", NULL),
		fw("X", "aten::mm", "7", "8", BASE + 1500, BASE + 4250, "{\"Input Dims\":[[2,3]]}", NULL),
		fw("B", "outer", "7", "8", BASE + 10000, 0, "{\"k\":1}", NULL),
		fw("B", "inner", "7", "8", BASE + 11000, 0, NULL, NULL),
		fw("E", "", "7", "8", BASE + 12000, 0, NULL, NULL),
		fw("B", "other_thread", "7", "9", BASE + 11500, 0, NULL, NULL),
		fw("E", "", "7", "8", BASE + 20000, 0, "{\"k2\":2}", NULL),
		fw("E", "", "7", "99", BASE + 21000, 0, NULL, NULL), /* no open slice on 7/99 */
		fw("C", "mem", "7", "0", BASE + 22000, 0, "{\"bytes\":4096}", NULL),
		fw("s", "flow", "7", "8", BASE + 1500, 0, NULL, "42"),
		fw("f", "flow", "Spans", "x", BASE + 3000, 0, "{\"bp\":\"e\"}", "42"),
		fw("i", "mark", "7", "8", BASE + 30000, 0, "{\"s\":\"t\"}", NULL),
	};
	size_t nev = sizeof(ev) / sizeof(ev[0]);
	for (int gz = 0; gz < 2; gz++) {
		char *path = tu_path(tmpdir, gz ? "t.json.gz" : "t.json");
		ck_assert_int_eq(nxp_trace_json_write(path, ev, nev, BASE, gz, NULL), NXP_OK);
		size_t len;
		void *data = tu_read_file(path, &len);
		if (gz)
			ck_assert_uint_eq(((uint8_t *)data)[0], 0x1f);
		for (int mode = 0; mode < SRC_MODES; mode++) {
			nxp_source *s = make_src(data, len, mode);
			nxp_system_events *c;
			ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
			row *rows;
			size_t n;
			ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
			/* 13 events: 3 B and 3 E give 2 paired rows, 1 unmatched E and 1 B
			 * still open at the end: 11 rows. */
			ck_assert_uint_eq(n, 11);
			int seq = mode == SRC_CHUNKY_SEQ; /* base written after traceEvents: only a seekable source sees it */
			int64_t base = seq ? 0 : BASE;
			const row *mm = find(rows, n, "aten::mm", "X");
			ck_assert_ptr_nonnull(mm);
			ck_assert_int_eq(mm->e.start_ts - base, 1500);
			ck_assert_int_eq(mm->e.duration_ns, 2750);
			ck_assert_str_eq(mm->pname, "python");
			ck_assert_str_eq(mm->tname, "main");
			ck_assert_str_eq(mm->attrs, "{\"Input Dims\":[[2,3]]}");
			ck_assert_uint_eq(mm->e.flags & NXP_SYSEV_NO_BASE_TIME, seq ? NXP_SYSEV_NO_BASE_TIME : 0);
			const row *inner = find(rows, n, "inner", "X"), *outer = find(rows, n, "outer", "X");
			ck_assert_ptr_nonnull(inner);
			ck_assert_ptr_nonnull(outer);
			ck_assert_int_eq(inner->e.start_ts - base, 11000);
			ck_assert_int_eq(inner->e.duration_ns, 1000);
			ck_assert_int_eq(outer->e.start_ts - base, 10000);
			ck_assert_int_eq(outer->e.end_ts - base, 20000);
			ck_assert_str_eq(outer->attrs, "{\"k\":1,\"k2\":2}");
			ck_assert(inner < outer); /* inner closes first */
			const row *lone = find(rows, n, "", "E");
			ck_assert_ptr_nonnull(lone);
			ck_assert_uint_eq(lone->e.flags & NXP_SYSEV_UNMATCHED_STOP, NXP_SYSEV_UNMATCHED_STOP);
			ck_assert_str_eq(lone->tid, "99");
			const row *open = find(rows, n, "other_thread", "B");
			ck_assert_ptr_nonnull(open);
			ck_assert_uint_eq(open->e.flags & NXP_SYSEV_UNMATCHED_START, NXP_SYSEV_UNMATCHED_START);
			ck_assert_int_eq(open->e.duration_ns, 0);
			ck_assert_str_eq(open->tid, "9");
			ck_assert(open == &rows[n - 1]); /* returned at the end */
			const row *ctr = find(rows, n, "mem", "C");
			ck_assert_str_eq(ctr->attrs, "{\"bytes\":4096}");
			const row *f = find(rows, n, "flow", "f");
			ck_assert_str_eq(f->flow, "42");
			ck_assert_str_eq(f->pid, "Spans");
			ck_assert_str_eq(f->attrs, "{\"bp\":\"e\"}");
			ck_assert_str_eq(find(rows, n, "mark", "i")->attrs, "{\"s\":\"t\"}");
			nxp_system_stats stats;
			stats.struct_size = sizeof(stats);
			nxp_system_events_get_stats(c, &stats);
			ck_assert_int_eq(stats.unmatched_starts, 1);
			ck_assert_int_eq(stats.unmatched_stops, 1);
			ck_assert_int_eq(stats.peak_pending, 2); /* outer+inner, then outer+other_thread */
			/* Without a base, every row says so: also the B still open at the end
			 * (returned after the late base has been read). */
			for (size_t i = 0; i < n; i++)
				ck_assert_uint_eq(rows[i].e.flags & NXP_SYSEV_NO_BASE_TIME, seq ? NXP_SYSEV_NO_BASE_TIME : 0);
			ck_assert_int_eq(open->e.start_ts, base + 11500);
			free(rows);
			nxp_system_events_close(c);
			nxp_source_close(s);
		}
		free(data);
		free(path);
	}
}
END_TEST

START_TEST(test_trace_json_bare_array)
{
	static const char doc[] = " [ {\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":1.5,\"dur\":2},"
				  " 17, {\"ph\":\"Q\",\"name\":\"weird\"}, {\"ph\":\"i\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":3} ]\n";
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(doc, sizeof(doc) - 1, mode);
		nxp_system_events *c;
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_AUTO, NULL, NULL), NXP_OK);
		row *rows;
		size_t n;
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 2);
		ck_assert_int_eq(rows[0].e.start_ts, 1500);
		ck_assert_int_eq(rows[0].e.end_ts, 3500);
		ck_assert_int_eq(rows[1].e.id, 3); /* element index */
		nxp_system_stats stats;
		stats.struct_size = sizeof(stats);
		nxp_system_events_get_stats(c, &stats);
		ck_assert_int_eq(stats.skipped, 2); /* the number and the unknown ph */
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
}
END_TEST

/* Every prefix of a valid trace fails cleanly (or, for the full file, succeeds). */
START_TEST(test_trace_json_malformed)
{
	static const char doc[] = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\\"}\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":2},"
				  "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":5}],\"baseTimeNanoseconds\":100}";
	size_t len = sizeof(doc) - 1;
	for (int mode = 0; mode < SRC_MODES; mode++) {
		for (size_t cut = 0; cut <= len; cut++) {
			nxp_source *s = make_src(doc, cut, mode);
			nxp_system_events *c;
			ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
			row *rows;
			size_t n;
			int rc = read_all(c, &rows, &n);
			if (cut == len) {
				ck_assert_int_eq(rc, NXP_END);
				ck_assert_uint_eq(n, 2);
				ck_assert_str_eq(rows[0].name, "a\"}");
			} else {
				ck_assert_msg(rc == NXP_E_TRUNCATED || rc == NXP_E_JSON, "cut %zu rc %d", cut, rc);
				nxp_status st;
				nxp_status_init(&st);
				ck_assert_int_eq(nxp_system_events_error(c, &st), rc);
				ck_assert_int_ge(st.offset, 0);
				ck_assert_int_le(st.offset, (int64_t)cut);
				ck_assert_str_ne(st.message, "");
				/* sticky */
				nxp_system_event e;
				e.struct_size = sizeof(e);
				ck_assert_int_eq(nxp_system_events_next(c, &e), rc);
			}
			free(rows);
			nxp_system_events_close(c);
			nxp_source_close(s);
		}
	}
	/* Syntax error inside an event: offset of the fault within the file. */
	static const char bad[] = "{\"traceEvents\":[{\"ph\":\"X\" \"name\":1}]}";
	nxp_status st;
	expect_first_error(bad, sizeof(bad) - 1, SRC_MEMORY, NXP_SYSFILE_AUTO, NULL, NXP_E_JSON, &st);
	ck_assert_int_ge(st.offset, 16); /* the event starts at 16; jansson points just past the fault */
	ck_assert_int_le(st.offset, 34);
}
END_TEST

START_TEST(test_trace_json_limits)
{
	/* Deep nesting inside one event. */
	size_t depth = 5000;
	char *deep = malloc(depth * 2 + 64);
	size_t k = (size_t)sprintf(deep, "{\"traceEvents\":[{\"ph\":\"X\",\"args\":");
	for (size_t i = 0; i < depth; i++)
		deep[k++] = '[';
	for (size_t i = 0; i < depth; i++)
		deep[k++] = ']';
	k += (size_t)sprintf(deep + k, "}]}");
	/* A huge string in one event. */
	size_t big = 3u << 20;
	char *huge = malloc(big + 64);
	size_t h = (size_t)sprintf(huge, "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"");
	memset(huge + h, 'x', big);
	h += big;
	h += (size_t)sprintf(huge + h, "\"}]}");
	nxp_system_options o;
	nxp_system_options_init(&o);
	o.max_json_event = 1u << 20;
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_status st;
		expect_first_error(deep, k, mode, NXP_SYSFILE_AUTO, &o, NXP_E_LIMIT, &st);
		/* The event object (offset 16) is depth 1; the 64th '[' (offset 33 + 63) is depth 65. */
		ck_assert_int_eq(st.offset, 33 + 63);
		ck_assert_ptr_nonnull(strstr(st.message, "nesting"));
		expect_first_error(huge, h, mode, NXP_SYSFILE_AUTO, &o, NXP_E_LIMIT, &st);
		ck_assert_int_eq(st.offset, 16);
	}
	free(deep);
	free(huge);
}
END_TEST

/* ---- ntrace.pb ---- */
static void write_ntrace(const char *path, int stream, uint32_t chunk)
{
	nxp_sysprof_writer_options o;
	nxp_sysprof_writer_options_init(&o);
	o.stream = stream;
	o.chunk_events = chunk;
	o.arch = "trn2";
	o.pid = 4242;
	o.instance_id = "i-0abc";
	o.logical_nc_size = 2;
	nxp_sysprof_writer *w;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, &o, &st), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_string(w, "nrt_load"), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_string(w, "kbl_exec_pre"), NXP_OK);
	nxp_ntrace_event e;
	/* 0: START nrt_execute (tracking 7) */
	nxp_ntrace_event_init(&e);
	e.timestamp = 1000;
	e.name = "nrt_execute";
	e.phase = NXP_NTRACE_PHASE_START;
	e.tracking_id = 7;
	e.nc_idx = 3;
	e.thread_id = 11;
	e.id = 500;
	static const char *const a1[] = {"model", "bert", "worker_gid", "5"};
	e.attributes = a1;
	e.n_attributes = 2;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 1: START nc_exec_running (tracking 8) */
	nxp_ntrace_event_init(&e);
	e.timestamp = 1100;
	e.name = "nc_exec_running";
	e.phase = NXP_NTRACE_PHASE_START;
	e.tracking_id = 8;
	e.nc_idx = 3;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 2: STOP tracking 8 */
	e.timestamp = 1900;
	e.phase = NXP_NTRACE_PHASE_STOP;
	e.name = NULL;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 3: STOP tracking 7, with an attribute */
	nxp_ntrace_event_init(&e);
	e.timestamp = 2000;
	e.phase = NXP_NTRACE_PHASE_STOP;
	e.tracking_id = 7;
	e.nrta_seq_id = 99;
	static const char *const a2[] = {"status", "ok", "model", "bert-large"}; /* STOP's model wins */
	e.attributes = a2;
	e.n_attributes = 2;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 4: name from the string pool, complete with a duration */
	nxp_ntrace_event_init(&e);
	e.timestamp = 3000;
	e.event_type = 1;
	e.duration = 250;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 5: STOP without START */
	nxp_ntrace_event_init(&e);
	e.timestamp = 3500;
	e.name = "nrt_tensor_read";
	e.phase = NXP_NTRACE_PHASE_STOP;
	e.tracking_id = 1234;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 6: START never stopped */
	e.timestamp = 3600;
	e.name = "nrt_tensor_write";
	e.phase = NXP_NTRACE_PHASE_START;
	e.tracking_id = 1235;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	/* 7: instant sync point */
	nxp_ntrace_event_init(&e);
	e.timestamp = 4000;
	e.name = "timestamp_sync_point";
	e.phase = NXP_NTRACE_PHASE_INSTANT;
	e.nc_idx = 3;
	static const char *const a3[] = {"cpu_timestamp_ns", "4000", "nc_timestamp_ns", "777000"};
	e.attributes = a3;
	e.n_attributes = 2;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
}

static void check_ntrace_rows(const row *rows, size_t n)
{
	ck_assert_uint_eq(n, 6);
	/* Order: rows as their STOPs arrive, then unmatched STARTs at the end. */
	ck_assert_str_eq(rows[0].name, "nc_exec_running");
	ck_assert_int_eq(rows[0].e.start_ts, 1100);
	ck_assert_int_eq(rows[0].e.end_ts, 1900);
	ck_assert_int_eq(rows[0].e.duration_ns, 800);
	ck_assert_str_eq(rows[0].src, "neuron_hw");
	ck_assert_uint_eq(rows[0].e.flags, NXP_SYSEV_HARDWARE);
	ck_assert_str_eq(rows[1].name, "nrt_execute");
	ck_assert_str_eq(rows[1].phase, "X");
	ck_assert_str_eq(rows[1].src, "neuron_rt");
	ck_assert_uint_eq(rows[1].e.flags, NXP_SYSEV_SOFTWARE);
	ck_assert_int_eq(rows[1].e.duration_ns, 1000);
	ck_assert_int_eq(rows[1].e.id, 500);
	ck_assert_int_eq(rows[1].e.nc_idx, 3);
	ck_assert_int_eq(rows[1].e.thread_id, 11);
	ck_assert_int_eq(rows[1].e.process_id, 4242);
	ck_assert_int_eq(rows[1].e.worker_gid, 5);
	ck_assert_int_eq(rows[1].e.tracking_id, 7);
	ck_assert_str_eq(rows[1].inst, "i-0abc");
	ck_assert_str_eq(rows[1].attrs, "{\"model\":\"bert-large\",\"worker_gid\":\"5\",\"status\":\"ok\"}");
	ck_assert_str_eq(rows[2].name, "kbl_exec_pre"); /* string pool [1] */
	ck_assert_int_eq(rows[2].e.duration_ns, 250);
	ck_assert_str_eq(rows[3].name, "nrt_tensor_read");
	ck_assert_uint_eq(rows[3].e.flags & NXP_SYSEV_UNMATCHED_STOP, NXP_SYSEV_UNMATCHED_STOP);
	ck_assert_str_eq(rows[3].phase, "E");
	ck_assert_str_eq(rows[4].name, "timestamp_sync_point");
	ck_assert_str_eq(rows[4].phase, "i");
	ck_assert_str_eq(rows[4].src, "neuron_hw");
	ck_assert_str_eq(rows[5].name, "nrt_tensor_write");
	ck_assert_uint_eq(rows[5].e.flags & NXP_SYSEV_UNMATCHED_START, NXP_SYSEV_UNMATCHED_START);
	ck_assert_int_eq(rows[5].e.duration_ns, 0);
}

START_TEST(test_ntrace_roundtrip)
{
	for (int stream = 0; stream < 2; stream++) {
		for (uint32_t chunk = 1; chunk <= (stream ? 3u : 1u); chunk++) {
			char *path = tu_path(tmpdir, "ntrace.pb");
			write_ntrace(path, stream, chunk);
			size_t len;
			uint8_t *data = tu_read_file(path, &len);
			/* Framing: single starts with a root tag (pool: 0x1a); a stream with a length. */
			if (!stream)
				ck_assert_uint_eq(data[0], 0x1a);
			else
				ck_assert_uint_ne(data[0], 0x1a);
			for (int mode = 0; mode < SRC_MODES; mode++) {
				nxp_source *s = make_src(data, len, mode);
				nxp_system_events *c;
				ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_AUTO, NULL, NULL), NXP_OK);
				row *rows;
				size_t n;
				ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
				check_ntrace_rows(rows, n);
				nxp_system_stats stats;
				stats.struct_size = sizeof(stats);
				nxp_system_events_get_stats(c, &stats);
				ck_assert_int_eq(stats.neuron_hw, 2);
				ck_assert_int_eq(stats.neuron_rt, 4);
				ck_assert_int_eq(stats.unmatched_starts, 1);
				ck_assert_int_eq(stats.unmatched_stops, 1);
				ck_assert_int_eq(stats.bytes_read, (int64_t)len);
				free(rows);
				nxp_system_events_close(c);
				nxp_source_close(s);
			}
			/* Without pairing: every event comes back alone. */
			nxp_system_options o;
			nxp_system_options_init(&o);
			o.flags = NXP_SYSTEM_NO_PAIRING;
			nxp_system_events *c;
			ck_assert_int_eq(nxp_system_events_open_path(&c, path, &o, NULL), NXP_OK);
			row *rows;
			size_t n;
			ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
			ck_assert_uint_eq(n, 8);
			ck_assert_str_eq(rows[0].phase, "B");
			ck_assert_uint_eq(rows[0].e.flags & NXP_SYSEV_UNPAIRED, NXP_SYSEV_UNPAIRED);
			ck_assert_int_eq(rows[3].e.nrta_seq_id, 99);
			free(rows);
			nxp_system_events_close(c);
			free(data);
			free(path);
		}
	}
}
END_TEST

/* Hand-built wire bytes: unknown root and event fields are ignored; field 16
 * is read as nrta_seq_id when 15 is absent. */
START_TEST(test_ntrace_unknown_fields)
{
	uint8_t ev[] = {0x08, 0x05,             /* timestamp 5 */
			0x32, 0x03, 'n', 'r', 't', /* hint "nrt" */
			0x80, 0x01, 0x2a,          /* field 16 varint 42 */
			0xa2, 0x06, 0x01, 'z',     /* field 100 LEN "z" (unknown) */
			0x68, 0x03};               /* phase INSTANT */
	uint8_t file[64];
	size_t k = 0;
	file[k++] = 0xfa; /* root field 31 LEN (unknown), 2 bytes */
	file[k++] = 0x01;
	file[k++] = 0x02;
	file[k++] = 0xde;
	file[k++] = 0xad;
	file[k++] = 0x0a;
	file[k++] = (uint8_t)sizeof(ev);
	memcpy(file + k, ev, sizeof(ev));
	k += sizeof(ev);
	file[k++] = 0x28; /* pid 9 */
	file[k++] = 0x09;
	/* The first varint (0xfa 0x01 = 250) is not a root tag: this is read as a
	 * stream, and 250 bytes run past the end. */
	nxp_source *s = make_src(file, k, SRC_MEMORY);
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	nxp_system_event e;
	e.struct_size = sizeof(e);
	ck_assert_int_eq(nxp_system_events_next(c, &e), NXP_E_TRUNCATED);
	nxp_system_events_close(c);
	nxp_source_close(s);
	/* Put a known field first: a single message. */
	uint8_t file2[64];
	file2[0] = 0x28;
	file2[1] = 0x09;
	memcpy(file2 + 2, file, k - 2);
	for (int mode = 0; mode < SRC_MODES; mode++) {
		s = make_src(file2, k, mode);
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
		ck_assert_int_eq(nxp_system_events_next(c, &e), NXP_OK);
		ck_assert_str_eq(e.name, "nrt");
		ck_assert_int_eq(e.start_ts, 5);
		ck_assert_int_eq(e.nrta_seq_id, 42);
		ck_assert_int_eq(e.process_id, 9);
		ck_assert_str_eq(e.phase, "i");
		ck_assert_int_eq(nxp_system_events_next(c, &e), NXP_END);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
}
END_TEST

static void expect_pb_error(const uint8_t *data, size_t len, int code, int64_t offset)
{
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(data, len, mode);
		nxp_system_events *c;
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
		row *rows;
		size_t n;
		ck_assert_int_eq(read_all(c, &rows, &n), code);
		nxp_status st;
		nxp_status_init(&st);
		nxp_system_events_error(c, &st);
		ck_assert_int_eq(st.offset, offset);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
}

START_TEST(test_ntrace_malformed)
{
	/* Bad varint: 11 continuation bytes in a field value at offset 1. */
	uint8_t bad_varint[] = {0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	expect_pb_error(bad_varint, sizeof(bad_varint), NXP_E_PROTOBUF, 1);
	/* Length past EOF: events field of 100 bytes in a 7-byte file. */
	uint8_t past[] = {0x28, 0x01, 0x0a, 0x64, 0x08, 0x01, 0x00};
	expect_pb_error(past, sizeof(past), NXP_E_TRUNCATED, 3);
	/* Group wire type (3) at offset 2. */
	uint8_t group[] = {0x28, 0x01, 0x0b, 0x0c};
	expect_pb_error(group, sizeof(group), NXP_E_PROTOBUF, 2);
	/* An event that does not unpack (bad inner varint). */
	uint8_t inner[] = {0x0a, 0x03, 0x08, 0xff, 0xff};
	expect_pb_error(inner, sizeof(inner), NXP_E_PROTOBUF, 0);
	/* Stream: a field crossing its message's end. */
	uint8_t cross[] = {0x03, 0x28, 0x01, 0x0a, 0x05, 0x08, 0x01, 0x08, 0x02, 0x08};
	expect_pb_error(cross, sizeof(cross), NXP_E_PROTOBUF, 3);
	/* Over the message limit. */
	nxp_system_options o;
	nxp_system_options_init(&o);
	o.max_message_size = 4;
	uint8_t big[] = {0x0a, 0x06, 0x08, 0x01, 0x10, 0x02, 0x18, 0x03};
	nxp_status st;
	expect_first_error(big, sizeof(big), SRC_MEMORY, NXP_SYSFILE_NTRACE, &o, NXP_E_LIMIT, &st);
	ck_assert_int_eq(st.offset, 1);
}
END_TEST

/* Every truncation of a written file: a clean error with an in-range offset, or
 * a clean end (a single message cut at a field boundary is itself valid). */
START_TEST(test_ntrace_truncated_everywhere)
{
	for (int stream = 0; stream < 2; stream++) {
		char *path = tu_path(tmpdir, "ntrace.pb");
		write_ntrace(path, stream, 2);
		size_t len;
		uint8_t *data = tu_read_file(path, &len);
		size_t clean = 0;
		for (size_t cut = 0; cut < len; cut++) {
			for (int mode = 0; mode < SRC_MODES; mode++) {
				nxp_source *s = make_src(data, cut, mode);
				nxp_system_events *c;
				ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
				row *rows;
				size_t n;
				int rc = read_all(c, &rows, &n);
				if (rc == NXP_END) {
					clean += mode == 0;
				} else {
					ck_assert_msg(rc == NXP_E_TRUNCATED || rc == NXP_E_PROTOBUF, "cut %zu: %d", cut, rc);
					nxp_status st;
					nxp_status_init(&st);
					nxp_system_events_error(c, &st);
					ck_assert_int_ge(st.offset, 0);
					ck_assert_int_le(st.offset, (int64_t)cut);
				}
				free(rows);
				nxp_system_events_close(c);
				nxp_source_close(s);
			}
		}
		/* A stream cut at a message boundary is a shorter valid stream: the
		 * empty file and the 4 boundaries before the end (header message + 4
		 * chunks of 2 events). */
		if (stream)
			ck_assert_uint_eq(clean, 5);
		else
			ck_assert_uint_gt(clean, 3);
		free(data);
		free(path);
	}
}
END_TEST

/* ---- host stats and trace_info ---- */
START_TEST(test_host_stats_roundtrip)
{
	for (int stream = 0; stream < 2; stream++) {
		char *cpu = tu_path(tmpdir, "cpu_util.pb"), *mem = tu_path(tmpdir, "host_mem.pb");
		nxp_sysprof_writer_options o;
		nxp_sysprof_writer_options_init(&o);
		o.stream = stream;
		o.chunk_events = 2;
		o.instance_id = "i-77";
		nxp_sysprof_writer *w;
		ck_assert_int_eq(nxp_sysprof_writer_open(&w, cpu, NXP_SYSFILE_CPU_UTIL, &o, NULL), NXP_OK);
		for (int i = 0; i < 5; i++) {
			nxp_cpu_usage u = {sizeof(u), 1000 + i, 0.25 * i, i == 4 ? "average" : (i % 2 ? "1" : "0"), NULL};
			ck_assert_int_eq(nxp_sysprof_writer_cpu(w, &u), NXP_OK);
		}
		nxp_host_mem_usage dummy = {sizeof(dummy), 0, 0, 0, NULL, -1};
		ck_assert_int_eq(nxp_sysprof_writer_mem(w, &dummy), NXP_E_INVAL); /* wrong kind */
		ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
		nxp_sysprof_writer_close(w);
		ck_assert_int_eq(nxp_sysprof_writer_open(&w, mem, NXP_SYSFILE_HOST_MEM, &o, NULL), NXP_OK);
		for (int i = 0; i < 3; i++) {
			nxp_host_mem_usage u = {sizeof(u), 2000 + i, (int64_t)1 << (30 + i), 0.1 * (i + 1), NULL,
						i == 2 ? -1 : (int64_t)1 << 40};
			ck_assert_int_eq(nxp_sysprof_writer_mem(w, &u), NXP_OK);
		}
		ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
		nxp_sysprof_writer_close(w);

		size_t clen, mlen;
		void *cdata = tu_read_file(cpu, &clen), *mdata = tu_read_file(mem, &mlen);
		for (int mode = 0; mode < SRC_MODES; mode++) {
			nxp_source *s = make_src(cdata, clen, mode);
			nxp_host_stats *h;
			ck_assert_int_eq(nxp_host_stats_open(&h, s, NXP_SYSFILE_CPU_UTIL, NULL, NULL), NXP_OK);
			nxp_cpu_usage u;
			u.struct_size = sizeof(u);
			nxp_host_mem_usage m;
			m.struct_size = sizeof(m);
			ck_assert_int_eq(nxp_host_stats_next_mem(h, &m), NXP_E_INVAL);
			for (int i = 0; i < 5; i++) {
				ck_assert_int_eq(nxp_host_stats_next_cpu(h, &u), NXP_OK);
				ck_assert_int_eq(u.timestamp, 1000 + i);
				ck_assert(u.util_percent == 0.25 * i);
				ck_assert_str_eq(u.cpu_id, i == 4 ? "average" : (i % 2 ? "1" : "0"));
				ck_assert_str_eq(u.instance_id, "i-77");
			}
			ck_assert_int_eq(nxp_host_stats_next_cpu(h, &u), NXP_END);
			nxp_host_stats_close(h);
			nxp_source_close(s);

			s = make_src(mdata, mlen, mode);
			ck_assert_int_eq(nxp_host_stats_open(&h, s, NXP_SYSFILE_HOST_MEM, NULL, NULL), NXP_OK);
			for (int i = 0; i < 3; i++) {
				ck_assert_int_eq(nxp_host_stats_next_mem(h, &m), NXP_OK);
				ck_assert_int_eq(m.timestamp, 2000 + i);
				ck_assert_int_eq(m.used_bytes, (int64_t)1 << (30 + i));
				ck_assert(m.used_percent == 0.1 * (i + 1));
				ck_assert_int_eq(m.total_bytes, i == 2 ? -1 : (int64_t)1 << 40);
			}
			ck_assert_int_eq(nxp_host_stats_next_mem(h, &m), NXP_END);
			nxp_host_stats_close(h);
			nxp_source_close(s);
		}
		/* Truncated sample stream: clean error. */
		nxp_source *s = make_src(mdata, mlen - 1, SRC_CHUNKY_SEQ);
		nxp_host_stats *h;
		ck_assert_int_eq(nxp_host_stats_open(&h, s, NXP_SYSFILE_HOST_MEM, NULL, NULL), NXP_OK);
		nxp_host_mem_usage m;
		m.struct_size = sizeof(m);
		int rc;
		while ((rc = nxp_host_stats_next_mem(h, &m)) == NXP_OK)
			;
		ck_assert_msg(rc == NXP_E_TRUNCATED || rc == NXP_E_PROTOBUF, "rc %d", rc);
		nxp_status st;
		nxp_status_init(&st);
		ck_assert_int_eq(nxp_host_stats_error(h, &st), rc);
		ck_assert_int_ge(st.offset, 0);
		nxp_host_stats_close(h);
		nxp_source_close(s);
		free(cdata);
		free(mdata);
		free(cpu);
		free(mem);
	}
}
END_TEST

START_TEST(test_trace_info_roundtrip)
{
	nxp_system_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	md.first_ts_ns = 1748779200000000000LL; /* 2025-06-01T12:00:00Z */
	md.last_ts_ns = 1748779201500000000LL;
	md.ntff_version = 6;
	md.hbm_capacity_bytes = 96LL << 30;
	md.instance_id = "i-0123";
	md.instance_type = "trn2.48xlarge";
	md.arch = "trn2";
	md.runtime_version = "2.31";
	md.driver_version = NULL;
	md.pid = 77;
	md.session_id = -1;
	md.logical_nc_size = 2;
	md.num_neuron_cores = 8;
	md.data_version = -1;
	for (int stream = 0; stream < 2; stream++) {
		char *path = tu_path(tmpdir, "trace_info.pb");
		ck_assert_int_eq(nxp_trace_info_write(path, &md, stream, NULL), NXP_OK);
		size_t len;
		void *data = tu_read_file(path, &len);
		for (int mode = 0; mode < SRC_MODES; mode++) {
			nxp_source *s = make_src(data, len, mode);
			nxp_trace_info *ti;
			ck_assert_int_eq(nxp_trace_info_open(&ti, s, NULL, NULL), NXP_OK);
			nxp_system_metadata got;
			got.struct_size = sizeof(got);
			ck_assert_int_eq(nxp_trace_info_get(ti, &got), NXP_OK);
			nxp_status tst;
			nxp_status_init(&tst);
			ck_assert_int_eq(nxp_trace_info_get(ti, NULL), NXP_E_INVAL);
			ck_assert_int_eq(nxp_trace_info_error(ti, &tst), NXP_OK); /* getters record nothing */
			ck_assert_str_eq(tst.message, "");
			ck_assert_int_eq(got.first_ts_ns, md.first_ts_ns);
			ck_assert_int_eq(got.last_ts_ns, md.last_ts_ns);
			ck_assert_str_eq(got.first_ts, "2025-06-01T12:00:00.000000000Z");
			ck_assert_str_eq(got.last_ts, "2025-06-01T12:00:01.500000000Z");
			ck_assert_int_eq(got.ntff_version, 6);
			ck_assert_int_eq(got.hbm_capacity_bytes, 96LL << 30);
			ck_assert_str_eq(got.instance_id, "i-0123");
			ck_assert_str_eq(got.instance_type, "trn2.48xlarge");
			ck_assert_str_eq(got.arch, "trn2");
			ck_assert_str_eq(got.driver_version, "");
			ck_assert_int_eq(got.pid, 77);
			ck_assert_int_eq(got.session_id, -1);
			ck_assert_int_eq(got.logical_nc_size, 2);
			ck_assert_int_eq(got.num_neuron_cores, 8);
			nxp_trace_info_close(ti);
			nxp_source_close(s);
		}
		/* Every truncation fails cleanly or parses (single message cut at a field boundary). */
		for (size_t cut = 0; cut < len; cut++) {
			nxp_source *s = make_src(data, cut, SRC_CHUNKY_SEQ);
			nxp_trace_info *ti = NULL;
			nxp_status st;
			nxp_status_init(&st);
			int rc = nxp_trace_info_open(&ti, s, NULL, &st);
			if (rc) {
				ck_assert_msg(rc == NXP_E_TRUNCATED || rc == NXP_E_PROTOBUF, "cut %zu rc %d", cut, rc);
				ck_assert_int_ge(st.offset, 0);
				ck_assert_ptr_null(ti);
			}
			nxp_trace_info_close(ti);
			nxp_source_close(s);
		}
		free(data);
		free(path);
	}
	/* Over the size limit. */
	nxp_system_options o;
	nxp_system_options_init(&o);
	o.max_message_size = 8;
	char *path = tu_path(tmpdir, "trace_info.pb");
	size_t len;
	void *data = tu_read_file(path, &len);
	nxp_source *s = make_src(data, len, SRC_MEMORY);
	nxp_trace_info *ti;
	ck_assert_int_eq(nxp_trace_info_open(&ti, s, &o, NULL), NXP_E_LIMIT);
	nxp_source_close(s);
	free(data);
	free(path);
}
END_TEST

/* ---- clock map ---- */
START_TEST(test_clock_map)
{
	char *path = tu_path(tmpdir, "ntrace.pb");
	nxp_sysprof_writer *w;
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	/* Core 0: executions ending at device 1,000,000 and 3,000,000; core 1: one. */
	struct { int64_t nc, cpu, dev; } pts[] = {{0, 5000000000LL, 1000000}, {1, 5000000100LL, 9000000},
						  {0, 5000002500LL, 3000000}};
	for (size_t i = 0; i < 3; i++) {
		char cpu[32], dev[32];
		snprintf(cpu, sizeof(cpu), "%lld", (long long)pts[i].cpu);
		snprintf(dev, sizeof(dev), "%lld", (long long)pts[i].dev);
		const char *attrs[] = {"cpu_timestamp_ns", cpu, "nc_timestamp_ns", dev};
		nxp_ntrace_event e;
		nxp_ntrace_event_init(&e);
		e.timestamp = pts[i].cpu;
		e.name = "timestamp_sync_point";
		e.phase = NXP_NTRACE_PHASE_INSTANT;
		e.nc_idx = pts[i].nc;
		e.attributes = attrs;
		e.n_attributes = 2;
		ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	}
	nxp_ntrace_event e;
	nxp_ntrace_event_init(&e);
	e.name = "timestamp_sync_point"; /* without attributes: not kept */
	e.nc_idx = 2;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);

	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	nxp_clock_map *m;
	ck_assert_int_eq(nxp_clock_map_build(&m, c, 0, NULL), NXP_OK);
	nxp_system_events_close(c);
	ck_assert_uint_eq(nxp_clock_map_count(m), 3);
	nxp_clock_map_close(m);
	/* The 0.2 name reads the same map. */
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_open(&m, c, 0, NULL), NXP_OK);
	nxp_system_events_close(c);
	ck_assert_uint_eq(nxp_clock_map_count(m), 3);
	int64_t host;
	/* t in the first execution of core 0: its sync point (dev 1e6 ↔ cpu 5e9). */
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, 400000, &host), NXP_OK);
	ck_assert_int_eq(host, 5000000000LL - 600000);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, 1000000, &host), NXP_OK);
	ck_assert_int_eq(host, 5000000000LL);
	/* second execution: the second sync point */
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, 2000000, &host), NXP_OK);
	ck_assert_int_eq(host, 5000002500LL - 1000000);
	/* after the last sync point: the last one */
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, 3000010, &host), NXP_OK);
	ck_assert_int_eq(host, 5000002510LL);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 1, 9000000, &host), NXP_OK);
	ck_assert_int_eq(host, 5000000100LL);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 2, 0, &host), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_clock_map_to_host(NULL, 0, 0, &host), NXP_E_INVAL);
	nxp_clock_map_close(m);
	/* Limit. */
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_build(&m, c, 2, NULL), NXP_E_LIMIT);
	nxp_system_events_close(c);
	/* Manual map, points added out of order. */
	ck_assert_int_eq(nxp_clock_map_new(&m), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_add(m, 5, 300, 10300), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_add(m, 5, 100, 10000), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 5, 50, &host), NXP_OK);
	ck_assert_int_eq(host, 9950);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 5, 200, &host), NXP_OK);
	ck_assert_int_eq(host, 10200);
	/* A failed lookup records nothing (a const map, shared by threads). */
	ck_assert_int_eq(nxp_clock_map_to_host(m, 6, 200, &host), NXP_E_NOT_FOUND);
	nxp_status cst;
	nxp_status_init(&cst);
	ck_assert_int_eq(nxp_clock_map_error(m, &cst), NXP_OK);
	ck_assert_int_eq(cst.code, 0);
	ck_assert_int_eq(nxp_clock_map_error(NULL, &cst), NXP_E_INVAL);
	nxp_clock_map_close(m);
	free(path);
}
END_TEST

/* ---- times that do not fit int64 ns (fuzz/crashes/trace_json) ---- */
START_TEST(test_trace_json_time_overflow)
{
	/* base INT64_MAX: every event but one whose ts is 0 overflows. */
	static const char doc[] =
		"{\"baseTimeNanoseconds\":9223372036854775807,\"traceEvents\":["
		"{\"ph\":\"X\",\"name\":\"zero\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":0},"
		"{\"ph\":\"X\",\"name\":\"over\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
		"{\"ph\":\"i\",\"name\":\"neg\",\"pid\":1,\"tid\":1,\"ts\":-1}]}";
	/* no base: ts × 1000 overflows (integer and real), ts + dur overflows, E − B
	 * overflows; exactly INT64_MIN fits (also after rounding half to even), one
	 * ns below does not. */
	static const char doc2[] =
		"[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
		"{\"ph\":\"X\",\"name\":\"mul\",\"pid\":1,\"tid\":1,\"ts\":9223372036854776,\"dur\":0},"
		"{\"ph\":\"i\",\"name\":\"real\",\"pid\":1,\"tid\":1,\"ts\":1e300},"
		"{\"ph\":\"i\",\"name\":\"min\",\"pid\":1,\"tid\":1,\"ts\":-9223372036854775.808},"
		"{\"ph\":\"i\",\"name\":\"tie\",\"pid\":1,\"tid\":1,\"ts\":-9223372036854775.8085},"
		"{\"ph\":\"i\",\"name\":\"under\",\"pid\":1,\"tid\":1,\"ts\":-9223372036854775.8086},"
		"{\"ph\":\"X\",\"name\":\"dur\",\"pid\":1,\"tid\":1,\"ts\":9223372036854774,\"dur\":9223372036854774},"
		"{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":-9223372036854775},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":9223372036854775},"
		"{\"ph\":\"i\",\"name\":\"last\",\"pid\":1,\"tid\":1,\"ts\":7}]";
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(doc, sizeof(doc) - 1, mode);
		nxp_system_events *c;
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
		row *rows;
		size_t n;
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 2);
		ck_assert_str_eq(rows[0].name, "zero");
		ck_assert_int_eq(rows[0].e.start_ts, INT64_MAX);
		ck_assert_str_eq(rows[1].name, "neg");
		ck_assert_int_eq(rows[1].e.start_ts, INT64_MAX - 1000);
		nxp_system_stats stats;
		stats.struct_size = sizeof(stats);
		nxp_system_events_get_stats(c, &stats);
		ck_assert_int_eq(stats.skipped, 1);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);

		s = make_src(doc2, sizeof(doc2) - 1, mode);
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 5);
		ck_assert_str_eq(rows[0].name, "ok");
		ck_assert_int_eq(rows[0].e.duration_ns, 3000);
		ck_assert_str_eq(rows[1].name, "min");
		ck_assert_int_eq(rows[1].e.start_ts, INT64_MIN);
		ck_assert_str_eq(rows[2].name, "tie");
		ck_assert_int_eq(rows[2].e.start_ts, INT64_MIN);
		ck_assert_str_eq(rows[3].name, "last");
		ck_assert_int_eq(rows[3].e.id, 9);
		/* the E was bad: its B stays open and comes back at the end */
		ck_assert_str_eq(rows[4].name, "b");
		ck_assert_str_eq(rows[4].phase, "B");
		ck_assert_int_eq(rows[4].e.start_ts, -9223372036854775000LL);
		ck_assert_uint_eq(rows[4].e.flags & NXP_SYSEV_UNMATCHED_START, NXP_SYSEV_UNMATCHED_START);
		nxp_system_events_get_stats(c, &stats);
		ck_assert_int_eq(stats.skipped, 5); /* mul, real, under, dur, E */
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
	/* The saved reproducer (fuzz/crashes/trace_json/base-time-plus-ts-overflow)
	 * is replayed by replay_trace_json under UBSan. */
	/* The writer refuses times it cannot express relative to the base. */
	nxp_system_event ev = fw("X", "x", "1", "1", INT64_MIN, 0, NULL, NULL);
	char *path = tu_path(tmpdir, "r.json");
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_trace_json_write(path, &ev, 1, 1, 0, &st), NXP_E_RANGE);
	ck_assert_int_eq(st.code, NXP_E_RANGE);
	ev = fw("X", "x", "1", "1", INT64_MIN, INT64_MAX, NULL, NULL);
	ck_assert_int_eq(nxp_trace_json_write(path, &ev, 1, 0, 0, NULL), NXP_E_RANGE);
	free(path);
}
END_TEST

/* ---- exact times: the decimal text of the number, never a double ---- */
START_TEST(test_decimal_to_ns)
{
	static const struct {
		const char *text;
		int scale, rc;
		int64_t want;
	} cases[] = {
		/* issue 11: Kineto at ns resolution */
		{"1712195495519695.8", 3, 0, 1712195495519695800LL},
		{"1712195495519689.0", 3, 0, 1712195495519689000LL},
		{"53.09", 3, 0, 53090},
		{"1712195495519695", 3, 0, 1712195495519695000LL},
		/* exponent forms, leading zeros, many digits */
		{"1.7121954955196958e15", 3, 0, 1712195495519695800LL},
		{"1.7121954955196958E+15", 3, 0, 1712195495519695800LL},
		{"17121954955196958e-1", 3, 0, 1712195495519695800LL},
		{"0.0000000000017121954955196958e27", 3, 0, 1712195495519695800LL},
		{"000017.5", 3, 0, 17500},
		{"1.000000000000000000000000000000000000000000000000001", 3, 0, 1000},
		{"0.00049999999999999999999999999999", 3, 0, 0},
		{"0.00050000000000000000000000000001", 3, 0, 1},
		{"1e-999999999999", 3, 0, 0},
		{"0e999999999999", 3, 0, 0},
		{"-0.0", 3, 0, 0},
		/* round half to even below 1 ns */
		{"0.0005", 3, 0, 0},
		{"0.0015", 3, 0, 2},
		{"0.0025", 3, 0, 2},
		{"0.0035", 3, 0, 4},
		{"-0.0005", 3, 0, 0},
		{"-0.0015", 3, 0, -2},
		{"-0.0025", 3, 0, -2},
		{"-0.00251", 3, 0, -3},
		/* negatives */
		{"-1712195495519695.8", 3, 0, -1712195495519695800LL},
		{"-5e-1", 3, 0, -500},
		/* the int64 edges: exact, then one past (also by rounding) */
		{"9223372036854775.807", 3, 0, INT64_MAX},
		{"9223372036854775.8074", 3, 0, INT64_MAX},
		{"9223372036854775.8075", 3, 2, 0},
		{"9223372036854775.808", 3, 2, 0},
		{"-9223372036854775.808", 3, 0, INT64_MIN},
		{"-9223372036854775.809", 3, 2, 0},
		{"9223372036854775807", 0, 0, INT64_MAX},
		{"9223372036854775808", 0, 2, 0},
		{"99999999999999999999", 0, 2, 0},
		{"1e19", 0, 2, 0},
		{"1e18", 0, 0, 1000000000000000000LL},
		{"1e999999999999999999999", 3, 2, 0},
		{"1700000000000000000.5", 0, 0, 1700000000000000000LL},
		{"1700000000000000001.5", 0, 0, 1700000000000000002LL},
		/* not numbers */
		{"", 3, 1, 0},
		{"-", 3, 1, 0},
		{".", 3, 1, 0},
		{"1e", 3, 1, 0},
		{"1e+", 3, 1, 0},
		{"1x", 3, 1, 0},
		{"soon", 0, 1, 0},
		{"1.5.", 3, 1, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 12345;
		int rc = sys_decimal_to_i64(cases[i].text, strlen(cases[i].text), cases[i].scale, &v);
		ck_assert_msg(rc == cases[i].rc, "%s: rc %d, want %d", cases[i].text, rc, cases[i].rc);
		if (!rc)
			ck_assert_msg(v == cases[i].want, "%s: %lld, want %lld", cases[i].text, (long long)v,
				      (long long)cases[i].want);
		else
			ck_assert_int_eq(v, 12345); /* unchanged */
	}
}
END_TEST

START_TEST(test_trace_json_exact_times)
{
	/* Without a base: the numbers are absolute µs (Kineto's ns-resolution form). */
	static const char doc[] =
		"{\"traceEvents\":["
		"{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":1712195495519695.8,\"dur\":53.09},"
		"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":1712195495519689.0,\"dur\":1.7e1},"
		"{\"ph\":\"i\",\"name\":\"c\",\"pid\":1,\"tid\":2,\"ts\":1.7121954955196958e15},"
		"{\"ph\":\"i\",\"name\":\"d\",\"pid\":1,\"tid\":2,\"ts\":-0.0015},"
		"{\"ph\":\"i\",\"name\":\"e\",\"pid\":1,\"tid\":2,\"ts\":0.0025},"
		"{\"ph\":\"B\",\"name\":\"f\",\"pid\":1,\"tid\":2,\"ts\":1712195495519700.001},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":1712195495519700.0025},"
		/* keys written with escapes, a duplicate ts (the last counts), args with a ts */
		"{\"ph\":\"X\",\"name\":\"g\",\"args\":{\"ts\":1},\"pid\":1,\"tid\":2,\"ts\":5,\"\\u0074s\":7.0000004,"
		"\"d\\u0075r\" : 0.0005 }]}";
	/* With a base (before traceEvents), relative µs with fractions and exponents. */
	static const char doc2[] =
		"{\"baseTimeNanoseconds\":1712195495000000000,\"traceEvents\":["
		"{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":519695.8,\"dur\":53.09},"
		"{\"ph\":\"i\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":5.196958E5},"
		"{\"ph\":\"i\",\"name\":\"c\",\"pid\":1,\"tid\":2,\"ts\":-1.5}]}";
	/* A base as a string with a fraction, written after traceEvents. */
	static const char doc3[] =
		"{\"traceEvents\":[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":0.0015}],"
		"\"baseTimeNanoseconds\":\"1712195495000000000.5\"}";
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(doc, sizeof(doc) - 1, mode);
		nxp_system_events *c;
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
		row *rows;
		size_t n;
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 7);
		ck_assert_int_eq(rows[0].e.start_ts, 1712195495519695800LL);
		ck_assert_int_eq(rows[0].e.duration_ns, 53090);
		ck_assert_int_eq(rows[0].e.end_ts, 1712195495519695800LL + 53090);
		ck_assert_int_eq(rows[1].e.start_ts, 1712195495519689000LL);
		ck_assert_int_eq(rows[1].e.duration_ns, 17000);
		ck_assert_int_eq(rows[2].e.start_ts, 1712195495519695800LL);
		ck_assert_int_eq(rows[3].e.start_ts, -2);
		ck_assert_int_eq(rows[4].e.start_ts, 2);
		ck_assert_str_eq(rows[5].name, "f");
		ck_assert_int_eq(rows[5].e.start_ts, 1712195495519700001LL);
		ck_assert_int_eq(rows[5].e.end_ts, 1712195495519700002LL);
		ck_assert_str_eq(rows[6].name, "g");
		ck_assert_int_eq(rows[6].e.start_ts, 7000);
		ck_assert_int_eq(rows[6].e.duration_ns, 0);
		for (size_t i = 0; i < n; i++)
			ck_assert_uint_eq(rows[i].e.flags & NXP_SYSEV_NO_BASE_TIME, NXP_SYSEV_NO_BASE_TIME);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);

		s = make_src(doc2, sizeof(doc2) - 1, mode);
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 3);
		ck_assert_int_eq(rows[0].e.start_ts, 1712195495519695800LL);
		ck_assert_int_eq(rows[0].e.end_ts, 1712195495519748890LL);
		ck_assert_int_eq(rows[1].e.start_ts, 1712195495519695800LL);
		ck_assert_int_eq(rows[2].e.start_ts, 1712195494999998500LL);
		ck_assert_uint_eq(rows[0].e.flags & NXP_SYSEV_NO_BASE_TIME, 0);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);

		if (mode == SRC_CHUNKY_SEQ)
			continue; /* a late base needs the prescan */
		s = make_src(doc3, sizeof(doc3) - 1, mode);
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 1);
		ck_assert_int_eq(rows[0].e.start_ts, 1712195495000000002LL); /* base ...000.5 → ...000 (even), + 2 */
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
	/* A base outside int64 is refused, naming its offset. */
	static const char over[] = "{\"baseTimeNanoseconds\":9223372036854775808,\"traceEvents\":[]}";
	nxp_status st;
	expect_first_error(over, sizeof(over) - 1, SRC_MEMORY, NXP_SYSFILE_TRACE_JSON, NULL, NXP_E_RANGE, &st);
	ck_assert_int_eq(st.offset, 23);
	ck_assert_ptr_nonnull(strstr(st.message, "offset 23"));
}
END_TEST

/* Valid JSON that is not a Chrome trace fails; the JSON Array Format does not. */
START_TEST(test_trace_json_not_a_trace)
{
	static const struct {
		const char *doc;
		int64_t offset;
	} bad[] = {
		/* a PyTorch execution trace */
		{"{\"schema\":\"1.1.1-chakra.0.0.4\",\"pid\":7,\"time\":\"2024-04-04\",\"start_ts\":1,"
		 "\"nodes\":[{\"id\":1,\"name\":\"[pytorch|profiler|execution_trace|process]\",\"ctrl_deps\":1}],"
		 "\"finish_ts\":2}",
		 0},
		{"  {}", 2},
		{"\n[{\"id\":1,\"name\":\"x\"},{\"id\":2}]", 1},
		{"[1,2,3]", 0},
		{"[[[]]]", 0},
		{"42", 0},
		{" -1.5e3", 1},
		{"\"traceEvents\"", 0},
		{"null", 0},
		{"true", 0},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int mode = 0; mode < SRC_MODES; mode++) {
			nxp_source *s = make_src(bad[i].doc, strlen(bad[i].doc), mode);
			nxp_system_events *c;
			ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
			row *rows;
			size_t n;
			int rc = read_all(c, &rows, &n);
			ck_assert_msg(rc == NXP_E_FORMAT, "%s: %d", bad[i].doc, rc);
			ck_assert_uint_eq(n, 0);
			nxp_status st;
			nxp_status_init(&st);
			ck_assert_int_eq(nxp_system_events_error(c, &st), NXP_E_FORMAT);
			ck_assert_msg(strstr(st.message, "no traceEvents: not a Chrome trace-event file") != NULL, "%s",
				      st.message);
			ck_assert_int_eq(st.offset, bad[i].offset);
			free(rows);
			nxp_system_events_close(c);
			nxp_source_close(s);
		}
	/* Still traces: the JSON Array Format (also empty, and with non-events
	 * among events), an empty traceEvents. */
	static const char *const good[] = {
		"[]",
		"[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1}]",
		"[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1},17,{\"id\":2}]",
		"{\"traceEvents\":[]}",
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[],\"nodes\":[]}",
	};
	static const size_t want[] = {0, 1, 1, 0, 0};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		nxp_source *s = make_src(good[i], strlen(good[i]), SRC_MEMORY);
		nxp_system_events *c;
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_TRACE_JSON, NULL, NULL), NXP_OK);
		row *rows;
		size_t n;
		int rc = read_all(c, &rows, &n);
		ck_assert_int_eq(rc, NXP_END);
		ck_assert_uint_eq(n, want[i]);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
}
END_TEST

/* ntrace events whose times do not fit int64 are skipped and counted. */
START_TEST(test_ntrace_time_overflow)
{
	char *path = tu_path(tmpdir, "ntrace.pb");
	nxp_sysprof_writer *w;
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	nxp_ntrace_event e;
	nxp_ntrace_event_init(&e);
	e.name = "nrt_a";
	e.timestamp = INT64_MAX - 5;
	e.duration = 10; /* end past INT64_MAX */
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	e.duration = 5; /* end exactly INT64_MAX: fine */
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	nxp_ntrace_event_init(&e);
	e.name = "nrt_b";
	e.timestamp = -1; /* on the wire: UINT64_MAX */
	e.phase = NXP_NTRACE_PHASE_START;
	e.tracking_id = 1;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	e.timestamp = 100;
	e.phase = NXP_NTRACE_PHASE_STOP;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	nxp_ntrace_event_init(&e);
	e.name = "nrt_c"; /* START at 0, STOP at INT64_MAX: the widest pair */
	e.timestamp = 0;
	e.phase = NXP_NTRACE_PHASE_START;
	e.tracking_id = 2;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	e.timestamp = INT64_MAX;
	e.phase = NXP_NTRACE_PHASE_STOP;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	size_t len;
	void *data = tu_read_file(path, &len);
	for (int mode = 0; mode < SRC_MODES; mode++) {
		nxp_source *s = make_src(data, len, mode);
		nxp_system_events *c;
		ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
		row *rows;
		size_t n;
		ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
		ck_assert_uint_eq(n, 3);
		ck_assert_str_eq(rows[0].name, "nrt_a");
		ck_assert_int_eq(rows[0].e.end_ts, INT64_MAX);
		ck_assert_int_eq(rows[0].e.duration_ns, 5);
		ck_assert_str_eq(rows[1].name, "nrt_b"); /* its START was skipped */
		ck_assert_uint_eq(rows[1].e.flags & NXP_SYSEV_UNMATCHED_STOP, NXP_SYSEV_UNMATCHED_STOP);
		ck_assert_str_eq(rows[2].name, "nrt_c");
		ck_assert_int_eq(rows[2].e.duration_ns, INT64_MAX);
		nxp_system_stats stats;
		stats.struct_size = sizeof(stats);
		nxp_system_events_get_stats(c, &stats);
		ck_assert_int_eq(stats.skipped, 2);
		free(rows);
		nxp_system_events_close(c);
		nxp_source_close(s);
	}
	free(data);
	free(path);
}
END_TEST

/* Clock map: overflow is NXP_E_RANGE, exact results whose intermediate
 * difference overflows still map; an empty map (no sync point) builds. */
START_TEST(test_clock_map_extremes)
{
	nxp_clock_map *m;
	int64_t host = 12345;
	ck_assert_int_eq(nxp_clock_map_new(&m), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_add(m, 0, -1, -10), NXP_OK);
	/* INT64_MAX − (−1) overflows, but −10 + 2^63 fits. */
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, INT64_MAX, &host), NXP_OK);
	ck_assert_int_eq(host, INT64_MAX - 9);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, INT64_MIN, &host), NXP_E_RANGE);
	ck_assert_int_eq(host, INT64_MAX - 9); /* unchanged on error */
	ck_assert_int_eq(nxp_clock_map_add(m, 1, INT64_MIN, INT64_MAX), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 1, INT64_MIN, &host), NXP_OK);
	ck_assert_int_eq(host, INT64_MAX);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 1, INT64_MIN + 1, &host), NXP_E_RANGE);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 1, -1, &host), NXP_E_RANGE);
	ck_assert_int_eq(nxp_clock_map_add(m, 2, INT64_MAX, INT64_MIN), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 2, INT64_MIN, &host), NXP_E_RANGE);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 2, INT64_MAX, &host), NXP_OK);
	ck_assert_int_eq(host, INT64_MIN);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 2, 0, &host), NXP_E_RANGE);
	/* t − dev = 2^64 − 1 overflows, host + t does not: INT64_MIN + 2^64 − 1 */
	ck_assert_int_eq(nxp_clock_map_add(m, 3, INT64_MIN, INT64_MIN), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 3, INT64_MIN, &host), NXP_OK);
	ck_assert_int_eq(host, INT64_MIN);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 3, INT64_MAX, &host), NXP_OK);
	ck_assert_int_eq(host, INT64_MAX);
	nxp_clock_map_close(m);

	/* A file without any sync point: an empty map (qsort of nothing). */
	char *path = tu_path(tmpdir, "ntrace.pb");
	nxp_sysprof_writer *w;
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	nxp_ntrace_event e;
	nxp_ntrace_event_init(&e);
	e.name = "nrt_execute";
	e.timestamp = 5;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_build(&m, c, 0, NULL), NXP_OK);
	ck_assert_uint_eq(nxp_clock_map_count(m), 0);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, 1, &host), NXP_E_NOT_FOUND);
	nxp_clock_map_close(m);
	nxp_system_events_close(c);
	/* Sync points whose attributes do not fit int64 are not kept. */
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	nxp_ntrace_event_init(&e);
	e.name = "timestamp_sync_point";
	e.nc_idx = 0;
	static const char *const big[] = {"cpu_timestamp_ns", "99999999999999999999", "nc_timestamp_ns", "1"};
	e.attributes = big;
	e.n_attributes = 2;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	static const char *const good[] = {"cpu_timestamp_ns", "-9223372036854775808", "nc_timestamp_ns",
					   "9223372036854775807"};
	e.attributes = good;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	ck_assert_int_eq(nxp_clock_map_build(&m, c, 0, NULL), NXP_OK);
	ck_assert_uint_eq(nxp_clock_map_count(m), 1);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, 0, &host), NXP_E_RANGE);
	ck_assert_int_eq(nxp_clock_map_to_host(m, 0, INT64_MAX, &host), NXP_OK);
	ck_assert_int_eq(host, INT64_MIN);
	nxp_clock_map_close(m);
	nxp_system_events_close(c);
	free(path);
}
END_TEST

/* Strings given at open are copied: the caller may free them right after. */
static char *scratch(const char *s)
{
	char *d = malloc(strlen(s) + 1);
	ck_assert_ptr_nonnull(d);
	strcpy(d, s);
	return d;
}

static void scrub(char *s)
{
	memset(s, 'X', strlen(s));
	free(s);
}

START_TEST(test_strings_copied_at_open)
{
	/* Writer: arch and instance_id are written at the first event. */
	char *path = tu_path(tmpdir, "ntrace.pb");
	nxp_sysprof_writer_options wo;
	nxp_sysprof_writer_options_init(&wo);
	char *arch = scratch("trn2"), *inst = scratch("i-0writer");
	wo.arch = arch;
	wo.instance_id = inst;
	nxp_sysprof_writer *w;
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, &wo, NULL), NXP_OK);
	scrub(arch);
	scrub(inst);
	ck_assert_int_eq(nxp_sysprof_writer_string(w, "nrt_load"), NXP_OK);
	nxp_ntrace_event e;
	nxp_ntrace_event_init(&e);
	e.name = "nrt_execute";
	e.timestamp = 9;
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	size_t len;
	uint8_t *data = tu_read_file(path, &len);
	/* root: pool "nrt_load", arch "trn2" (field 4), instance_id (field 9), then the event */
	static const uint8_t head[] = {0x1a, 8, 'n', 'r', 't', '_', 'l', 'o', 'a', 'd', 0x22, 4, 't', 'r', 'n', '2',
				       0x4a, 9, 'i', '-', '0', 'w', 'r', 'i', 't', 'e', 'r', 0x0a};
	ck_assert_uint_gt(len, sizeof(head));
	ck_assert_mem_eq(data, head, sizeof(head));
	free(data);
	/* A cpu_util writer writes instance_id at open time already; still fine. */

	/* Readers: nxp_system_options.instance_id is copied at open. */
	nxp_system_options o;
	nxp_system_options_init(&o);
	char *oi = scratch("i-0opts");
	o.instance_id = oi;
	static const char doc[] = "[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":3}]";
	nxp_source *s = make_src(doc, sizeof(doc) - 1, SRC_MEMORY);
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open(&c, s, NXP_SYSFILE_AUTO, &o, NULL), NXP_OK);
	scrub(oi);
	row *rows;
	size_t n;
	ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(rows[0].inst, "i-0opts");
	free(rows);
	nxp_system_events_close(c);
	nxp_source_close(s);
	/* an ntrace.pb without its own instance_id (cursor by path) */
	char *p2 = tu_path(tmpdir, "noinst.pb");
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, p2, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	oi = scratch("i-0path");
	o.instance_id = oi;
	ck_assert_int_eq(nxp_system_events_open_path(&c, p2, &o, NULL), NXP_OK);
	scrub(oi);
	ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(rows[0].inst, "i-0path");
	free(rows);
	nxp_system_events_close(c);
	/* host stats: a cpu_util.pb without an instance_id of its own */
	char *cpu = tu_path(tmpdir, "cpu_util.pb");
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, cpu, NXP_SYSFILE_CPU_UTIL, NULL, NULL), NXP_OK);
	nxp_cpu_usage u = {sizeof(u), 1, 50.0, "0", NULL};
	ck_assert_int_eq(nxp_sysprof_writer_cpu(w, &u), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	data = tu_read_file(cpu, &len);
	for (int mode = 0; mode < SRC_MODES; mode++) {
		oi = scratch("i-0host");
		o.instance_id = oi;
		s = make_src(data, len, mode);
		nxp_host_stats *h;
		ck_assert_int_eq(nxp_host_stats_open(&h, s, NXP_SYSFILE_CPU_UTIL, &o, NULL), NXP_OK);
		scrub(oi);
		ck_assert_int_eq(nxp_host_stats_next_cpu(h, &u), NXP_OK);
		ck_assert_str_eq(u.instance_id, "i-0host");
		ck_assert_int_eq(nxp_host_stats_next_cpu(h, &u), NXP_END);
		nxp_host_stats_close(h);
		nxp_source_close(s);
	}
	free(data);
	free(cpu);
	free(p2);
	free(path);
}
END_TEST

/* ---- capture directories ---- */
static void mkdirs(const char *path)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_neff(const char *path, uint8_t uuid_byte)
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	memset(o.uuid, uuid_byte, 16);
	o.name = "net";
	nxp_neff_writer *w;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &o, NULL), NXP_OK);
	const fx_member *m;
	size_t n = fx_std_members(&m);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(nxp_neff_writer_add(w, m[i].path, m[i].data, m[i].len ? m[i].len : strlen(m[i].data)),
				 NXP_OK);
	ck_assert_int_eq(nxp_neff_writer_save(w, path), NXP_OK);
	nxp_neff_writer_close(w);
}

static void write_ntff(const char *path, uint8_t uuid_byte)
{
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memset(info.neff_uuid, uuid_byte, 16);
	info.arch = "trn2";
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, NULL), NXP_OK);
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
}

/* Two ranks of layout 1, one process of layout 2 (timestamp sub-directory). */
static void build_capture(const char *root)
{
	for (int rank = 0; rank < 2; rank++) {
		char dir[512], p[600];
		snprintf(dir, sizeof(dir), "%s/out/i-0abc_pid_%d", root, 100 + rank);
		mkdirs(dir);
		snprintf(p, sizeof(p), "%s/ntrace.pb", dir);
		write_ntrace(p, rank, 2);
		nxp_system_metadata md;
		memset(&md, 0, sizeof(md));
		md.struct_size = sizeof(md);
		md.first_ts_ns = md.last_ts_ns = md.ntff_version = md.hbm_capacity_bytes = -1;
		md.pid = md.session_id = md.logical_nc_size = md.num_neuron_cores = md.data_version = -1;
		snprintf(p, sizeof(p), "%s/trace_info.pb", dir);
		ck_assert_int_eq(nxp_trace_info_write(p, &md, 0, NULL), NXP_OK);
		nxp_system_event ev = fw("X", "step", "100", "1", 1000, 3000, "{}", NULL);
		snprintf(p, sizeof(p), "%s/trace.json", dir);
		ck_assert_int_eq(nxp_trace_json_write(p, &ev, 1, 0, 0, NULL), NXP_OK);
		/* NEFF/NTFF pair by name and UUID; the UUID differs per rank. */
		snprintf(p, sizeof(p), "%s/neff_395760075800974.neff", dir);
		write_neff(p, (uint8_t)(0x10 + rank));
		snprintf(p, sizeof(p), "%s/395760075800974_instid_0_vnc_%d.ntff", dir, rank);
		write_ntff(p, (uint8_t)(0x10 + rank));
	}
	char dir[512], p[600];
	snprintf(dir, sizeof(dir), "%s/out/i-0def_pid_300/20250601T120000", root);
	mkdirs(dir);
	snprintf(p, sizeof(p), "%s/neff_555_vnc_0.neff", dir);
	write_neff(p, 0x55);
	snprintf(p, sizeof(p), "%s/profile_nc_0_session_1.ntff", dir);
	write_ntff(p, 0x55);
	snprintf(p, sizeof(p), "%s/profile_nc_1_session_1.ntff", dir);
	write_ntff(p, 0x66); /* no NEFF with this UUID; only NEFF of the dir: paired as sole */
	snprintf(p, sizeof(p), "%s/ntrace.pb", dir); /* trace_info.pb missing */
	write_ntrace(p, 0, 1);
}

START_TEST(test_capture_directory)
{
	build_capture(tmpdir);
	nxp_capture *cap;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_capture_open(&cap, tmpdir, &st), NXP_OK);
	ck_assert_int_eq(nxp_capture_error(cap, &st), NXP_OK);
	ck_assert_int_eq(st.code, 0);
	ck_assert_int_eq(nxp_capture_error(NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(st.code, NXP_E_INVAL);
	nxp_status_init(&st);
	ck_assert_uint_eq(nxp_capture_process_count(cap), 3);
	ck_assert_uint_eq(nxp_capture_file_count(cap), 14);
	nxp_capture_process p;
	p.struct_size = sizeof(p);
	ck_assert_int_eq(nxp_capture_get_process(cap, 0, &p), NXP_OK);
	ck_assert_str_eq(p.instance_id, "i-0abc");
	ck_assert_int_eq(p.pid, 100);
	ck_assert_int_eq(p.complete, 1);
	ck_assert_int_ge(p.trace_json, 0);
	ck_assert_int_eq(nxp_capture_get_process(cap, 2, &p), NXP_OK);
	ck_assert_str_eq(p.instance_id, "i-0def");
	ck_assert_int_eq(p.pid, 300);
	ck_assert_str_eq(p.timestamp, "20250601T120000");
	ck_assert_int_eq(p.complete, 0);
	ck_assert_int_eq(p.trace_info, -1);
	ck_assert_int_eq(nxp_capture_get_process(cap, 3, &p), NXP_E_RANGE);

	ck_assert_uint_eq(nxp_capture_profile_count(cap), 4);
	nxp_capture_profile pr;
	pr.struct_size = sizeof(pr);
	nxp_capture_file f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_capture_get_profile(cap, 0, &pr), NXP_OK);
	ck_assert_int_eq(pr.pairing, NXP_PAIRED_BY_UUID);
	ck_assert_int_eq(pr.process_index, 0);
	ck_assert_int_eq(nxp_capture_get_file(cap, (size_t)pr.neff, &f), NXP_OK);
	ck_assert_int_eq(f.kind, NXP_SYSFILE_NEFF);
	ck_assert_int_eq(f.has_uuid, 1);
	ck_assert_uint_eq(f.uuid[0], 0x10);
	ck_assert_str_eq(f.name_hash, "395760075800974");
	ck_assert_int_eq(nxp_capture_get_file(cap, (size_t)pr.ntff, &f), NXP_OK);
	ck_assert_int_eq(f.vnc, 0);
	ck_assert_int_eq(f.instid, 0);
	ck_assert_int_eq(f.nc_idx, -1); /* the file: no profile_nc_ in its name */
	ck_assert_int_eq(pr.nc_idx, 0); /* the profile: its NeuronCore, from _vnc_0 */
	ck_assert_int_eq(nxp_capture_get_profile(cap, 2, &pr), NXP_OK);
	ck_assert_int_eq(pr.pairing, NXP_PAIRED_BY_UUID);
	ck_assert_int_eq(pr.nc_idx, 0);
	ck_assert_int_eq(nxp_capture_get_profile(cap, 3, &pr), NXP_OK);
	ck_assert_int_eq(pr.pairing, NXP_PAIRED_SOLE);
	ck_assert_int_eq(pr.nc_idx, 1);
	/* Problems: trace_info.pb missing for pid 300. */
	int missing = 0;
	for (size_t i = 0; i < nxp_capture_problem_count(cap); i++)
		missing += strstr(nxp_capture_problem(cap, i), "trace_info.pb is missing") != NULL;
	ck_assert_int_eq(missing, 1);
	ck_assert_ptr_null(nxp_capture_problem(cap, 99));

	/* Profiles open (NEFF + NTFF through nxp_profile_open_path). */
	nxp_profile *prof;
	ck_assert_msg(nxp_capture_open_profile(cap, 0, NULL, &prof, &st) == NXP_OK, "%s", st.message);
	nxp_profile_close(prof);
	ck_assert_int_eq(nxp_capture_open_profile(cap, 9, NULL, &prof, NULL), NXP_E_RANGE);
	/* 0.2 names: out parameter first, same results. */
	ck_assert_msg(nxp_profile_open_capture(&prof, cap, 0, NULL, &st) == NXP_OK, "%s", st.message);
	nxp_profile_close(prof);
	ck_assert_int_eq(nxp_profile_open_capture(&prof, cap, 9, NULL, NULL), NXP_E_RANGE);
	ck_assert_int_eq(nxp_system_events_open_capture(NULL, cap, 1, NULL, NULL), NXP_E_INVAL);

	/* Events of one process: ntrace rows then trace.json rows, instance from the dir name. */
	nxp_system_events *c;
	ck_assert_int_eq(nxp_capture_open_events(cap, 1, NULL, &c, NULL), NXP_OK);
	row *rows;
	size_t n;
	ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(rows[6].name, "step");
	ck_assert_str_eq(rows[6].src, "framework");
	ck_assert_str_eq(rows[6].inst, "i-0abc");
	ck_assert_str_eq(rows[1].inst, "i-0abc"); /* from the file itself */
	free(rows);
	nxp_system_events_close(c);
	ck_assert_int_eq(nxp_system_events_open_capture(&c, cap, 1, NULL, NULL), NXP_OK);
	ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(rows[6].name, "step");
	free(rows);
	nxp_system_events_close(c);
	ck_assert_int_eq(nxp_capture_open_events(cap, 3, NULL, &c, NULL), NXP_E_RANGE);
	ck_assert_int_eq(nxp_system_events_open_capture(&c, cap, 3, NULL, NULL), NXP_E_RANGE);
	nxp_capture_close(cap);

	/* The whole directory through open_path: 3 ntrace (6 rows each) + 2 trace.json. */
	ck_assert_int_eq(nxp_system_events_open_path(&c, tmpdir, NULL, NULL), NXP_OK);
	ck_assert_int_eq(read_all(c, &rows, &n), NXP_END);
	ck_assert_uint_eq(n, 20);
	nxp_system_stats stats;
	stats.struct_size = sizeof(stats);
	nxp_system_events_get_stats(c, &stats);
	ck_assert_int_eq(stats.files, 5);
	ck_assert_int_eq(stats.framework, 2);
	free(rows);
	nxp_system_events_close(c);

	/* The CLI (shared library, public API only). */
	const char *cli = getenv("NXP_CLI");
	if (cli) {
		char cmd[1024], line[4096];
		snprintf(cmd, sizeof(cmd), "'%s' capture '%s' 2>&1", cli, tmpdir);
		FILE *f = popen(cmd, "r");
		int procs = 0, profs = 0, counts = 0, missing = 0;
		while (fgets(line, sizeof(line), f)) {
			procs += !strcmp(line, "processes: 3\n");
			profs += !strcmp(line, "device profiles: 4\n");
			counts += strstr(line, "events: runtime 6 (neuron_rt 4, neuron_hw 2), framework 1") != NULL;
			missing += strstr(line, "trace_info.pb is missing") != NULL;
		}
		ck_assert_int_eq(pclose(f), 0);
		ck_assert_int_eq(procs, 1);
		ck_assert_int_eq(profs, 1);
		ck_assert_int_eq(counts, 2);
		ck_assert_int_eq(missing, 1);
		snprintf(cmd, sizeof(cmd), "'%s' dump --system '%s' --format jsonl", cli, tmpdir);
		f = popen(cmd, "r");
		int lines = 0;
		while (fgets(line, sizeof(line), f))
			lines += line[0] == '{';
		ck_assert_int_eq(pclose(f), 0);
		ck_assert_int_eq(lines, 20);
	}

	/* Not a capture. */
	char *empty = tu_path(tmpdir, "empty");
	mkdirs(empty);
	ck_assert_int_eq(nxp_capture_open(&cap, empty, &st), NXP_E_NOT_FOUND);
	ck_assert_int_eq(nxp_system_events_open_path(&c, empty, NULL, NULL), NXP_E_NOT_FOUND);
	char *nope = tu_path(tmpdir, "does-not-exist");
	ck_assert_int_eq(nxp_capture_open(&cap, nope, &st), NXP_E_IO);
	ck_assert_int_eq(nxp_system_events_open_path(&c, nope, NULL, &st), NXP_E_IO);
	free(empty);
	free(nope);
}
END_TEST

START_TEST(test_misuse)
{
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open(NULL, NULL, 0, NULL, NULL), NXP_E_INVAL);
	static const char doc[] = "[]";
	nxp_source *s = make_src(doc, 2, SRC_MEMORY);
	ck_assert_int_eq(nxp_system_events_open(&c, s, 99, NULL, NULL), NXP_E_INVAL);
	nxp_system_options o;
	o.struct_size = 2;
	ck_assert_int_eq(nxp_system_events_open(&c, s, 0, &o, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_system_events_open(&c, s, 0, NULL, NULL), NXP_OK);
	struct { size_t struct_size; } tiny = {sizeof(tiny)};
	ck_assert_int_eq(nxp_system_events_next(c, (nxp_system_event *)&tiny), NXP_E_INVAL);
	/* An older, shorter record struct gets only its fields. */
	struct { size_t struct_size; int64_t id; const char *name; int64_t start_ts; } old = {sizeof(old), 0, 0, 0};
	ck_assert_int_eq(nxp_system_events_next(c, (nxp_system_event *)&old), NXP_END);
	nxp_system_events_close(c);
	nxp_source_close(s);
	nxp_system_events_close(NULL);
	nxp_host_stats_close(NULL);
	nxp_trace_info_close(NULL);
	nxp_clock_map_close(NULL);
	nxp_capture_close(NULL);
	nxp_sysprof_writer_close(NULL);
	ck_assert_int_eq(nxp_host_stats_open(NULL, NULL, NXP_SYSFILE_CPU_UTIL, NULL, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_trace_info_open(NULL, NULL, NULL, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_trace_info_error(NULL, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_capture_open(NULL, "x", NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_sysprof_writer_open(NULL, "x", NXP_SYSFILE_NTRACE, NULL, NULL), NXP_E_INVAL);
	ck_assert_int_eq(nxp_sysprof_writer_open((nxp_sysprof_writer **)&c, "x", NXP_SYSFILE_TRACE_JSON, NULL, NULL),
			 NXP_E_INVAL);
	ck_assert_uint_eq(nxp_system_event_group("nrt_model_switch"), NXP_SYSEV_HARDWARE);
	ck_assert_uint_eq(nxp_system_event_group("dmem_buf_copyin"), NXP_SYSEV_SOFTWARE);
	ck_assert_uint_eq(nxp_system_event_group("something_else"), 0);
	ck_assert_uint_eq(nxp_system_event_group(NULL), 0);
	/* Writer: strings after the first event are refused. */
	char *path = tu_path(tmpdir, "w.pb");
	nxp_sysprof_writer *w;
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, NULL, NULL), NXP_OK);
	nxp_ntrace_event e;
	nxp_ntrace_event_init(&e);
	ck_assert_int_eq(nxp_sysprof_writer_event(w, &e), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_string(w, "late"), NXP_E_INVAL);
	nxp_sysprof_writer_close(w);
	free(path);
}
END_TEST

/* Varint helpers and the stream padding rule. */
START_TEST(test_pbwire_varint)
{
	uint8_t b[10];
	uint64_t v;
	uint64_t cases[] = {0, 1, 127, 128, 300, UINT32_MAX, UINT64_MAX};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = pb_encode_varint(cases[i], b);
		ck_assert_uint_eq(pb_decode_varint(b, n, &v), n);
		ck_assert_uint_eq(v, cases[i]);
		if (n > 1)
			ck_assert_uint_eq(pb_decode_varint(b, n - 1, &v), 0);
	}
	memset(b, 0xff, 10);
	ck_assert_uint_eq(pb_decode_varint(b, 10, &v), 0);
	/* A stream whose first message would be 10 bytes (= tag 0x0a) is padded. */
	char *path = tu_path(tmpdir, "pad.pb");
	nxp_sysprof_writer_options o;
	nxp_sysprof_writer_options_init(&o);
	o.stream = 1;
	o.pid = 1; /* 2 bytes */
	o.instance_id = "abcdef"; /* 8 bytes: header message is 10 bytes */
	nxp_sysprof_writer *w;
	ck_assert_int_eq(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, &o, NULL), NXP_OK);
	ck_assert_int_eq(nxp_sysprof_writer_finish(w), NXP_OK);
	nxp_sysprof_writer_close(w);
	size_t len;
	uint8_t *data = tu_read_file(path, &len);
	ck_assert_uint_eq(data[0], 12);
	ck_assert_uint_eq(len, 13);
	nxp_system_events *c;
	ck_assert_int_eq(nxp_system_events_open_path(&c, path, NULL, NULL), NXP_OK);
	nxp_system_event e;
	e.struct_size = sizeof(e);
	ck_assert_int_eq(nxp_system_events_next(c, &e), NXP_END);
	nxp_system_events_close(c);
	free(data);
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("system");
	TCase *t = tcase_create("system");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, test_kineto_real);
	tcase_add_test(t, test_trace_json_roundtrip);
	tcase_add_test(t, test_trace_json_bare_array);
	tcase_add_test(t, test_trace_json_malformed);
	tcase_add_test(t, test_trace_json_limits);
	tcase_add_test(t, test_ntrace_roundtrip);
	tcase_add_test(t, test_ntrace_unknown_fields);
	tcase_add_test(t, test_ntrace_malformed);
	tcase_add_test(t, test_ntrace_truncated_everywhere);
	tcase_add_test(t, test_host_stats_roundtrip);
	tcase_add_test(t, test_trace_info_roundtrip);
	tcase_add_test(t, test_clock_map);
	tcase_add_test(t, test_capture_directory);
	tcase_add_test(t, test_misuse);
	tcase_add_test(t, test_pbwire_varint);
	tcase_add_test(t, test_trace_json_time_overflow);
	tcase_add_test(t, test_decimal_to_ns);
	tcase_add_test(t, test_trace_json_exact_times);
	tcase_add_test(t, test_trace_json_not_a_trace);
	tcase_add_test(t, test_ntrace_time_overflow);
	tcase_add_test(t, test_clock_map_extremes);
	tcase_add_test(t, test_strings_copied_at_open);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
