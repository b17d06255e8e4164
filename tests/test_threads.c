/* SPDX-License-Identifier: MIT */
/* Thread safety of a shared profile (doc/api.md "Threads"): N threads, each
 * with its own cursors and columnar streams over every table of ONE open
 * profile, read exactly what one thread reads alone (a hash of every field of
 * every record, and of every value of every Arrow batch).  Profiles: the demo
 * pair (file source: pread), a 2-pcore compressed synthetic NTFF through a
 * file, through memory, and through a seekable callback source (the source's
 * lock).  And several profiles summarised at once, each by the parallel pass
 * (its own pool of group readers) while the other threads also read it: the
 * one-thread figures, bit for bit.  Run under ThreadSanitizer by
 * `./dev.sh tsan`. */
#define _GNU_SOURCE
#include <check.h>
#include <nxp/nxp.h>
#include <nxp/arrow.h>
#include <nxp/table.h>

#include "ntff_fixture.h"
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 4
#define ROUNDS 2

/* ---- FNV-1a over fields ---- */
typedef struct hsh {
	uint64_t h;
	int64_t n; /* records or rows */
} hsh;

static void h_bytes(hsh *h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h->h = (h->h ^ b[i]) * 0x100000001b3ull;
}
static void h_i64(hsh *h, int64_t v)
{
	h_bytes(h, &v, sizeof(v));
}
static void h_f64(hsh *h, double v)
{
	h_bytes(h, &v, sizeof(v));
}
static void h_str(hsh *h, const char *s)
{
	if (!s) {
		h_i64(h, -7);
		return;
	}
	h_bytes(h, s, strlen(s) + 1);
}

static void hash_instruction(hsh *h, const nxp_instruction *r)
{
	int64_t v[] = {r->start_ts, r->end_ts, r->duration_ns, r->engine_id, r->pcore_idx, r->opcode_num, r->id, r->pc,
		       r->evt_wait_time_ns, r->execution_index, r->hbm_read_bytes, r->hbm_write_bytes,
		       r->sbuf_read_bytes, r->sbuf_write_bytes, r->spill_save_bytes, r->spill_reload_bytes,
		       r->psum_read_bytes, r->psum_write_bytes, r->psum_read_sbuf_write_bytes, r->tensor_elements,
		       r->raw_flops, r->adjusted_flops, r->tensor_elements_transpose, r->flops_transpose,
		       r->adjusted_flops_transpose, r->flags};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h_i64(h, v[i]);
	h_str(h, r->engine);
	h_str(h, r->opcode);
	h_str(h, r->operands);
	h_str(h, r->tensor_instruction_type);
	h_str(h, r->scalar_activation_fn);
	h_str(h, r->performance_mode);
}

static void hash_dma(hsh *h, const nxp_dma_packet *r)
{
	int64_t v[] = {r->start_ts, r->end_ts, r->duration_ns, r->pcore_idx, r->id, r->packet_idx,
		       r->packet_aggregation_id, r->engine_idx, r->read_bytes, r->write_bytes, r->transfer_bytes,
		       r->queue_idx, r->crc, r->execution_index};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h_i64(h, v[i]);
	h_f64(h, r->throughput);
	h_str(h, r->queue_type);
	h_str(h, r->variable);
	h_str(h, r->queue_name);
	h_str(h, r->source);
	h_str(h, r->dest);
}

static void hash_semaphore(hsh *h, const nxp_semaphore_update *r)
{
	int64_t v[] = {r->timestamp, r->semaphore_idx, r->value, r->double_set_or_clear, r->update_mode, r->pcore_idx};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h_i64(h, v[i]);
	h_str(h, r->id);
	h_str(h, r->update_source);
	h_str(h, r->update_operation_type);
	h_str(h, r->update_trigger_timing);
}

static void hash_throttle(hsh *h, const nxp_throttle *r)
{
	int64_t v[] = {r->timestamp, r->duration, r->k, r->n, r->pcore_idx};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h_i64(h, v[i]);
	h_str(h, r->type);
}

static void hash_error(hsh *h, const nxp_error_record *r)
{
	h_i64(h, r->timestamp);
	h_i64(h, r->error_type_id);
	h_i64(h, r->pcore_idx);
	h_str(h, r->type);
	h_str(h, r->description);
	h_str(h, r->metadata);
	h_str(h, r->metadata_hex);
}

static void hash_execution(hsh *h, const nxp_execution *r)
{
	int64_t v[] = {r->execution_index, r->execution_start_ts, r->execution_end_ts, r->num_subgraphs, r->row_count,
		       r->pcore_idx};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h_i64(h, v[i]);
	h_str(h, r->neff_name);
}

static void hash_active(hsh *h, const nxp_active_time *r)
{
	int64_t v[] = {r->start_ts, r->end_ts, r->duration_ns, r->engine_id, r->pcore_idx};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h_i64(h, v[i]);
	h_str(h, r->engine);
}

/* One cursor over `table` (seeking back to the start halfway through a
 * second pass, so seeks race too): the hash of every record, or rc. */
static int hash_cursor(nxp_profile *p, int table, hsh *out)
{
	nxp_cursor *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_cursor_open(&c, p, table, NULL, &st);
	if (rc)
		return rc;
	hsh h = {0xcbf29ce484222325ull, 0};
	union {
		nxp_instruction i;
		nxp_dma_packet d;
		nxp_semaphore_update s;
		nxp_throttle t;
		nxp_error_record e;
		nxp_execution x;
		nxp_active_time a;
	} r;
	for (;;) {
		memset(&r, 0, sizeof(r));
		switch (table) {
		case NXP_TABLE_INSTRUCTION:
			r.i.struct_size = sizeof(r.i);
			if ((rc = nxp_cursor_next_instruction(c, &r.i)) == NXP_OK)
				hash_instruction(&h, &r.i);
			break;
		case NXP_TABLE_DMA_PACKET:
			r.d.struct_size = sizeof(r.d);
			if ((rc = nxp_cursor_next_dma_packet(c, &r.d)) == NXP_OK)
				hash_dma(&h, &r.d);
			break;
		case NXP_TABLE_SEMAPHORE_UPDATE:
			r.s.struct_size = sizeof(r.s);
			if ((rc = nxp_cursor_next_semaphore_update(c, &r.s)) == NXP_OK)
				hash_semaphore(&h, &r.s);
			break;
		case NXP_TABLE_THROTTLE:
			r.t.struct_size = sizeof(r.t);
			if ((rc = nxp_cursor_next_throttle(c, &r.t)) == NXP_OK)
				hash_throttle(&h, &r.t);
			break;
		case NXP_TABLE_ERROR:
			r.e.struct_size = sizeof(r.e);
			if ((rc = nxp_cursor_next_error(c, &r.e)) == NXP_OK)
				hash_error(&h, &r.e);
			break;
		case NXP_TABLE_EXECUTION:
			r.x.struct_size = sizeof(r.x);
			if ((rc = nxp_cursor_next_execution(c, &r.x)) == NXP_OK)
				hash_execution(&h, &r.x);
			break;
		default:
			r.a.struct_size = sizeof(r.a);
			if ((rc = nxp_cursor_next_active_time(c, &r.a)) == NXP_OK)
				hash_active(&h, &r.a);
			break;
		}
		if (rc != NXP_OK)
			break;
		h.n++;
	}
	nxp_cursor_stats cs;
	cs.struct_size = sizeof(cs);
	nxp_cursor_get_stats(c, &cs);
	h_i64(&h, cs.records);
	h_i64(&h, cs.bad_records);
	h_i64(&h, cs.skipped_sections);
	h_i64(&h, cs.bytes_read);
	nxp_cursor_close(c);
	*out = h;
	return rc == NXP_END ? NXP_OK : rc;
}

/* ---- Arrow streams: every value of every column ---- */
static int arrow_valid(const struct ArrowArray *a, int64_t i)
{
	return !a->buffers[0] || ((((const uint8_t *)a->buffers[0])[i / 8] >> (i % 8)) & 1);
}

static void hash_value(hsh *h, const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i)
{
	if (!arrow_valid(a, i)) {
		h_i64(h, -99);
		return;
	}
	if (s->dictionary) {
		int32_t k = ((const int32_t *)a->buffers[1])[i];
		hash_value(h, s->dictionary, a->dictionary, k);
		return;
	}
	const char *f = s->format;
	if (strcmp(f, "u") == 0) {
		const int32_t *o = a->buffers[1];
		h_bytes(h, (const char *)a->buffers[2] + o[i], (size_t)(o[i + 1] - o[i]));
		h_i64(h, o[i + 1] - o[i]);
	} else if (strcmp(f, "i") == 0) {
		h_i64(h, ((const int32_t *)a->buffers[1])[i]);
	} else if (strcmp(f, "b") == 0) {
		h_i64(h, (((const uint8_t *)a->buffers[1])[i / 8] >> (i % 8)) & 1);
	} else { /* "l", "g", timestamps: 8 bytes */
		h_bytes(h, (const uint8_t *)a->buffers[1] + 8 * i, 8);
	}
}

static int hash_stream(nxp_profile *p, const char *table, hsh *out)
{
	struct ArrowArrayStream as;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_open_table(&as, p, table, NULL, &st);
	if (rc)
		return rc;
	struct ArrowSchema sc;
	if (as.get_schema(&as, &sc) != 0) {
		as.release(&as);
		return -1000;
	}
	hsh h = {0xcbf29ce484222325ull, 0};
	for (int64_t c = 0; c < sc.n_children; c++)
		h_str(&h, sc.children[c]->name);
	int err = 0;
	for (;;) {
		struct ArrowArray a;
		if ((err = as.get_next(&as, &a)) != 0)
			break;
		if (!a.release)
			break;
		for (int64_t r = 0; r < a.length; r++)
			for (int64_t c = 0; c < a.n_children; c++)
				hash_value(&h, sc.children[c], a.children[c], r);
		h.n += a.length;
		a.release(&a);
	}
	sc.release(&sc);
	as.release(&as);
	*out = h;
	return err ? -1000 - err : NXP_OK;
}

/* ---- the jobs: every cursor table, every stream ---- */
#define MAX_JOBS 32
typedef struct job {
	int table;         /* cursor table, or 0 */
	const char *name;  /* stream name, or NULL */
} job;

typedef struct shared {
	nxp_profile *p;
	job jobs[MAX_JOBS];
	size_t njobs;
	hsh want[MAX_JOBS];
} shared;

typedef struct worker {
	shared *sh;
	int index;
	int mismatches;
	int errors;
	char first[256];
} worker;

static int run_job(nxp_profile *p, const job *j, hsh *out)
{
	return j->name ? hash_stream(p, j->name, out) : hash_cursor(p, j->table, out);
}

static void *work(void *arg)
{
	worker *w = arg;
	shared *sh = w->sh;
	for (int round = 0; round < ROUNDS; round++) {
		for (size_t k = 0; k < sh->njobs; k++) {
			/* each thread walks the jobs from a different place: different tables at once */
			size_t i = (k + (size_t)w->index * 3 + (size_t)round) % sh->njobs;
			hsh got;
			int rc = run_job(sh->p, &sh->jobs[i], &got);
			if (rc) {
				if (!w->errors++)
					snprintf(w->first, sizeof(w->first), "job %zu: rc %d", i, rc);
			} else if (got.h != sh->want[i].h || got.n != sh->want[i].n) {
				if (!w->mismatches++ && !w->errors)
					snprintf(w->first, sizeof(w->first), "job %zu (%s/%d): %lld rows vs %lld", i,
						 sh->jobs[i].name ? sh->jobs[i].name : "cursor", sh->jobs[i].table,
						 (long long)got.n, (long long)sh->want[i].n);
			}
		}
	}
	return NULL;
}

/* Single-threaded reference, then NTHREADS threads over the same profile. */
static void check_profile(nxp_profile *p, const char *label)
{
	shared sh;
	memset(&sh, 0, sizeof(sh));
	sh.p = p;
	for (int t = NXP_TABLE_INSTRUCTION; t <= NXP_TABLE_ACTIVE_TIME; t++)
		sh.jobs[sh.njobs++] = (job){t, NULL};
	for (int i = 0; nxp_table_name(i) && sh.njobs < MAX_JOBS; i++)
		sh.jobs[sh.njobs++] = (job){0, nxp_table_name(i)};
	int64_t rows = 0;
	size_t kept = 0;
	for (size_t i = 0; i < sh.njobs; i++) {
		int rc = run_job(p, &sh.jobs[i], &sh.want[kept]);
		if (rc == NXP_E_INVAL && sh.jobs[i].name)
			continue; /* a system table: not read from a device profile */
		ck_assert_msg(rc == NXP_OK, "%s: reference job %zu: %d", label, i, rc);
		rows += sh.want[kept].n;
		sh.jobs[kept++] = sh.jobs[i];
	}
	ck_assert_int_ge(kept, 7 + 7);
	sh.njobs = kept;
	ck_assert_msg(sh.want[0].n > 0, "%s: no instructions", label);
	ck_assert_msg(rows > 1000, "%s: only %lld rows", label, (long long)rows);
	pthread_t th[NTHREADS];
	worker w[NTHREADS];
	for (int i = 0; i < NTHREADS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].sh = &sh;
		w[i].index = i;
		ck_assert_int_eq(pthread_create(&th[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_msg(w[i].errors == 0 && w[i].mismatches == 0, "%s: thread %d: %d errors, %d mismatches; first: %s",
			      label, i, w[i].errors, w[i].mismatches, w[i].first);
	/* and the profile still reads the same afterwards (nothing shared was disturbed) */
	for (size_t i = 0; i < sh.njobs; i++) {
		hsh again;
		ck_assert_int_eq(run_job(p, &sh.jobs[i], &again), NXP_OK);
		ck_assert_msg(again.h == sh.want[i].h && again.n == sh.want[i].n, "%s: job %zu differs after", label, i);
	}
}

START_TEST(test_demo_shared)
{
	nxp_profile *p = tu_open_demo();
	check_profile(p, "demo");
	nxp_profile_close(p);
}
END_TEST

/* kind: 0 file (pread), 1 memory, 2 callbacks (seek + read under the source's lock) */
static void synth_case(int kind)
{
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = 2;
	spec.compress = kind != 1;
	spec.rps = 29;
	spec.n_instr = 700;
	spec.n_dma = 400;
	tu_synth sy;
	tu_synth_write(&sy, &spec);
	static const char *const labels[] = {"synth file", "synth memory", "synth callbacks"};
	if (kind == 0) {
		nxp_profile *p = tu_synth_open(&sy, NULL);
		check_profile(p, labels[kind]);
		nxp_profile_close(p);
	} else {
		nxp_status st;
		nxp_status_init(&st);
		fxn_pair o;
		ck_assert_msg(fxn_open(&o, sy.neff, sy.neff_len, sy.ntff, sy.ntff_len,
				       kind == 1 ? FXN_SRC_MEMORY : FXN_SRC_CHUNKY, 0, &st) == NXP_OK,
			      "%s", st.message);
		check_profile(o.p, labels[kind]);
		fxn_close(&o);
	}
	tu_synth_free(&sy);
}

START_TEST(test_synth_file_shared)
{
	synth_case(0);
}
END_TEST

START_TEST(test_synth_memory_shared)
{
	synth_case(1);
}
END_TEST

START_TEST(test_synth_callbacks_shared)
{
	synth_case(2);
}
END_TEST

/* ---- many profiles, each summarised by the parallel pass, at once ---- */
static void h_summary(hsh *h, const nxp_summary *s)
{
	size_t n = nxp_summary_field_count(s);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		ck_assert_int_eq(nxp_summary_get_field(s, k, &f), NXP_OK);
		h_i64(h, f.present);
		h_i64(h, f.i);
		h_bytes(h, &f.f, sizeof(f.f));
	}
	for (size_t k = 0; k < nxp_summary_opcode_count(s); k++) {
		nxp_opcode_summary o;
		o.struct_size = sizeof(o);
		ck_assert_int_eq(nxp_summary_get_opcode(s, k, &o), NXP_OK);
		h_bytes(h, o.engine, strlen(o.engine));
		h_bytes(h, o.opcode, strlen(o.opcode));
		h_i64(h, o.instruction_count);
		h_i64(h, o.instruction_time_ns);
		h_i64(h, o.active_time_ns);
		h_bytes(h, &o.active_time_percent, sizeof(o.active_time_percent));
	}
	h->n = (int64_t)n;
}

typedef struct sum_job {
	nxp_profile *p;
	int threads;
	hsh want;
	int bad;
	char msg[NXP_STATUS_MESSAGE_MAX];
} sum_job;

static void *sum_work(void *v)
{
	sum_job *j = v;
	for (int r = 0; r < ROUNDS; r++) {
		nxp_summary_options o;
		nxp_summary_options_init(&o);
		o.threads = j->threads;
		nxp_summary *s = NULL;
		nxp_status st;
		nxp_status_init(&st);
		if (nxp_profile_summarize_opts(j->p, &o, &s, &st) != NXP_OK) {
			snprintf(j->msg, sizeof(j->msg), "%s", st.message);
			j->bad++;
			continue;
		}
		hsh h = {0xcbf29ce484222325ull, 0};
		h_summary(&h, s);
		nxp_summary_close(s);
		if (h.h != j->want.h || h.n != j->want.n) {
			snprintf(j->msg, sizeof(j->msg), "round %d: figures differ from one thread's", r);
			j->bad++;
		}
	}
	return NULL;
}

START_TEST(test_parallel_summaries_at_once)
{
	/* Three profiles (file, memory, callback source), two threads each, each
	 * thread running a parallel summary (2, 3 threads) of its profile. */
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = 2;
	spec.compress = 1;
	spec.rps = 31;
	spec.n_instr = 900;
	spec.n_dma = 500;
	spec.dma_queues = 5;
	tu_synth sy;
	tu_synth_write(&sy, &spec);
	nxp_status st;
	nxp_status_init(&st);
	nxp_profile *pf = tu_synth_open(&sy, NULL);
	fxn_pair om, oc;
	ck_assert_msg(fxn_open(&om, sy.neff, sy.neff_len, sy.ntff, sy.ntff_len, FXN_SRC_MEMORY, 0, &st) == NXP_OK,
		      "%s", st.message);
	ck_assert_msg(fxn_open(&oc, sy.neff, sy.neff_len, sy.ntff, sy.ntff_len, FXN_SRC_CHUNKY, 0, &st) == NXP_OK,
		      "%s", st.message);
	nxp_profile *ps[3] = {pf, om.p, oc.p};
	sum_job jobs[6];
	pthread_t th[6];
	for (int k = 0; k < 6; k++) {
		memset(&jobs[k], 0, sizeof(jobs[k]));
		jobs[k].p = ps[k / 2];
		jobs[k].threads = 2 + k % 2;
		nxp_summary *s = NULL;
		ck_assert_msg(nxp_profile_summarize(jobs[k].p, NULL, &s, &st) == NXP_OK, "%s", st.message);
		jobs[k].want.h = 0xcbf29ce484222325ull;
		h_summary(&jobs[k].want, s);
		nxp_summary_close(s);
	}
	for (int k = 0; k < 6; k++)
		ck_assert_int_eq(pthread_create(&th[k], NULL, sum_work, &jobs[k]), 0);
	for (int k = 0; k < 6; k++)
		ck_assert_int_eq(pthread_join(th[k], NULL), 0);
	for (int k = 0; k < 6; k++)
		ck_assert_msg(!jobs[k].bad, "profile %d, %d threads: %s", k / 2, jobs[k].threads, jobs[k].msg);
	nxp_profile_close(pf);
	fxn_close(&om);
	fxn_close(&oc);
	tu_synth_free(&sy);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("threads");
	TCase *tc = tcase_create("shared profile");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_demo_shared);
	tcase_add_test(tc, test_synth_file_shared);
	tcase_add_test(tc, test_synth_memory_shared);
	tcase_add_test(tc, test_synth_callbacks_shared);
	tcase_add_test(tc, test_parallel_summaries_at_once);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
