/* SPDX-License-Identifier: MIT */
/* Parallel summary: nxp_profile_summarize_opts() with 1, 2, 3, 4 and 0 (all
 * cores) threads gives summaries identical bit for bit (every Summary field,
 * the hardware, every OpcodeSummary and ThrottleSummary row) to the
 * one-thread nxp_profile_summarize(), on the demo and on synthetic LNC=2
 * profiles; and the internal thread pool runs every task with a bounded
 * number in flight. */
#include <check.h>
#include <nxp/nxp.h>

#include "ntff_fixture.h"
#include "pool.h"
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nxp_summary *summ(nxp_profile *p, int threads)
{
	nxp_summary *s = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc;
	if (threads < 0) {
		rc = nxp_profile_summarize(p, NULL, &s, &st);
	} else {
		nxp_summary_options o;
		nxp_summary_options_init(&o);
		o.threads = threads;
		rc = nxp_profile_summarize_opts(p, &o, &s, &st);
	}
	ck_assert_msg(rc == NXP_OK, "summarize (%d threads): %s", threads, st.message);
	return s;
}

/* Every figure of b equals a's, bit for bit. */
static void same(const nxp_summary *a, const nxp_summary *b, const char *label, int threads)
{
	size_t n = nxp_summary_field_count(a);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field fa, fb;
		fa.struct_size = fb.struct_size = sizeof(fa);
		ck_assert_int_eq(nxp_summary_get_field(a, k, &fa), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_field(b, k, &fb), NXP_OK);
		ck_assert_msg(fa.present == fb.present && fa.i == fb.i && !memcmp(&fa.f, &fb.f, sizeof(double)),
			      "%s, %d threads: %s differs (%d %lld %.17g vs %d %lld %.17g)", label, threads, fa.name,
			      fa.present, (long long)fa.i, fa.f, fb.present, (long long)fb.i, fb.f);
	}
	nxp_hardware ha, hb;
	memset(&ha, 0, sizeof(ha));
	memset(&hb, 0, sizeof(hb));
	ha.struct_size = hb.struct_size = sizeof(ha);
	int ra = nxp_summary_get_hardware(a, &ha), rb = nxp_summary_get_hardware(b, &hb);
	ck_assert_int_eq(ra, rb);
	ck_assert_msg(!memcmp(&ha, &hb, sizeof(ha)), "%s, %d threads: hardware differs", label, threads);
	ck_assert_uint_eq(nxp_summary_opcode_count(a), nxp_summary_opcode_count(b));
	for (size_t k = 0; k < nxp_summary_opcode_count(a); k++) {
		nxp_opcode_summary oa, ob;
		oa.struct_size = ob.struct_size = sizeof(oa);
		ck_assert_int_eq(nxp_summary_get_opcode(a, k, &oa), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_opcode(b, k, &ob), NXP_OK);
		ck_assert_str_eq(oa.engine, ob.engine);
		ck_assert_str_eq(oa.opcode, ob.opcode);
		ck_assert_msg(oa.instruction_count == ob.instruction_count &&
				      oa.instruction_time_ns == ob.instruction_time_ns &&
				      oa.active_time_ns == ob.active_time_ns &&
				      !memcmp(&oa.active_time_percent, &ob.active_time_percent, sizeof(double)),
			      "%s, %d threads: opcode row %zu (%s %s) differs", label, threads, k, oa.engine, oa.opcode);
	}
	ck_assert_uint_eq(nxp_summary_throttle_count(a), nxp_summary_throttle_count(b));
	for (size_t k = 0; k < nxp_summary_throttle_count(a); k++) {
		nxp_throttle_summary ta, tb;
		ta.struct_size = tb.struct_size = sizeof(ta);
		ck_assert_int_eq(nxp_summary_get_throttle(a, k, &ta), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_throttle(b, k, &tb), NXP_OK);
		ck_assert_str_eq(ta.throttle_type, tb.throttle_type);
		ck_assert_msg(ta.nc_idx == tb.nc_idx && ta.throttle_active_time_ns == tb.throttle_active_time_ns &&
				      !memcmp(&ta.throttle_active_time_percent, &tb.throttle_active_time_percent,
					      sizeof(double)) &&
				      !memcmp(&ta.max_achievable_util_with_throttling_percent,
					      &tb.max_achievable_util_with_throttling_percent, sizeof(double)),
			      "%s, %d threads: throttle row %zu differs", label, threads, k);
	}
}

static double fieldf(const nxp_summary *s, const char *name, int *present)
{
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	ck_assert_int_eq(nxp_summary_find(s, name, &f), NXP_OK);
	*present = f.present;
	return f.f;
}

/* 1 (the plain call and opts), 2, 3, 4, 0 threads, twice each; with DMA the
 * merged total_active_time must be real (not a trivial 0). */
static void check_profile(nxp_profile *p, const char *label, int want_dma, int want_throttles)
{
	nxp_summary *ref = summ(p, -1);
	int pr;
	ck_assert_msg(fieldf(ref, "total_active_time", &pr) > 0 && pr, "%s: no active time", label);
	if (want_dma) {
		ck_assert_msg(fieldf(ref, "dma_active_time", &pr) > 0 && pr, "%s: no DMA", label);
		ck_assert_msg(fieldf(ref, "total_active_time", &pr) > fieldf(ref, "dma_active_time", &pr),
			      "%s: instructions add no active time", label);
	}
	ck_assert_uint_gt(nxp_summary_opcode_count(ref), 0);
	if (want_throttles)
		ck_assert_uint_gt(nxp_summary_throttle_count(ref), 0);
	static const int threads[] = {1, 2, 3, 4, 0, 2, 4};
	for (size_t k = 0; k < sizeof(threads) / sizeof(threads[0]); k++) {
		nxp_summary *s = summ(p, threads[k]);
		same(ref, s, label, threads[k]);
		nxp_summary_close(s);
	}
	nxp_summary_close(ref);
}

START_TEST(test_demo)
{
	const char *dir = getenv("NXP_SAMPLES_DIR");
	char neff[4096], ntff[4096];
	snprintf(neff, sizeof(neff), "%s/demo.neff", dir ? dir : "samples");
	snprintf(ntff, sizeof(ntff), "%s/demo.ntff", dir ? dir : "samples");
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, neff, ntff, NULL, &st) == NXP_OK, "%s", st.message);
	check_profile(p, "demo", 1, 0);
	nxp_profile_close(p);
}
END_TEST

static void synth(int pcores, int n_instr, int n_dma, unsigned seed, const char *label)
{
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = pcores;
	spec.rps = 97;
	spec.n_instr = n_instr;
	spec.n_dma = n_dma;
	spec.seed = seed;
	char *dir = tu_tmpdir();
	char *ntff_path = tu_path(dir, "t.ntff");
	char *neff_path = tu_path(dir, "t.neff");
	fxn_model m;
	fxn_write(ntff_path, &spec, &m);
	size_t nl;
	void *neff = fxn_neff(spec.uuid, &nl);
	ck_assert_int_eq(tu_write_file(neff_path, neff, nl), 0);
	nxp_status st;
	nxp_status_init(&st);
	nxp_profile *p = NULL;
	ck_assert_msg(nxp_profile_open_path(&p, neff_path, ntff_path, NULL, &st) == NXP_OK, "%s", st.message);
	check_profile(p, label, n_dma > 0, 0);
	nxp_profile_close(p);
	fxn_model_free(&m);
	free(neff);
	remove(ntff_path);
	remove(neff_path);
	remove(dir);
	free(ntff_path);
	free(neff_path);
	free(dir);
}

START_TEST(test_synth_lnc2)
{
	synth(2, 3000, 2000, 7, "synth LNC=2");
}
END_TEST

START_TEST(test_synth_lnc1_no_dma)
{
	synth(1, 1500, 0, 11, "synth LNC=1 without DMA");
}
END_TEST

START_TEST(test_options)
{
	nxp_summary *s = (nxp_summary *)1;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_profile_summarize_opts(NULL, NULL, &s, &st), NXP_E_INVAL);
	ck_assert_ptr_null(s);
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	ck_assert_int_eq(o.threads, 0);
	ck_assert_ptr_null(o.hw);
	ck_assert_uint_ge(sizeof(o), NXP_SUMMARY_OPTIONS_SIZE_V0_2);
}
END_TEST

/* ---- the pool ---------------------------------------------------------- */
typedef struct pool_ctl {
	pthread_mutex_t m;
	int live, max_live, done;
	int out[200];
} pool_ctl;

typedef struct pool_job {
	pool_ctl *c;
	int i;
} pool_job;

static void pool_fn(void *v)
{
	pool_job *j = v;
	pthread_mutex_lock(&j->c->m);
	if (++j->c->live > j->c->max_live)
		j->c->max_live = j->c->live;
	pthread_mutex_unlock(&j->c->m);
	volatile unsigned x = 0;
	for (int k = 0; k < 20000; k++)
		x += (unsigned)k;
	(void)x;
	j->c->out[j->i] = j->i * 3 + 1;
	pthread_mutex_lock(&j->c->m);
	j->c->live--;
	j->c->done++;
	pthread_mutex_unlock(&j->c->m);
}

START_TEST(test_pool)
{
	static const unsigned workers[] = {1, 2, 4, 0};
	for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
		pool_ctl c;
		memset(&c, 0, sizeof(c));
		pthread_mutex_init(&c.m, NULL);
		pool_job jobs[200];
		nxp_pool *pool = NULL;
		ck_assert_int_eq(nxp_pool_new(&pool, workers[w], 3), NXP_OK);
		unsigned nw = nxp_pool_workers(pool);
		ck_assert_uint_eq(nw, workers[w] ? workers[w] : nxp_cpu_count());
		for (int i = 0; i < 200; i++) {
			jobs[i] = (pool_job){&c, i};
			ck_assert_int_eq(nxp_pool_submit(pool, pool_fn, &jobs[i]), NXP_OK);
		}
		nxp_pool_wait(pool);
		ck_assert_int_eq(c.done, 200); /* visible after wait */
		for (int i = 0; i < 200; i++)
			ck_assert_int_eq(c.out[i], i * 3 + 1);
		int bound = nw > 3 ? 3 : (int)nw; /* never more than the workers, nor than the in-flight bound */
		ck_assert_int_le(c.max_live, bound);
		ck_assert_int_ge(c.max_live, 1);
		nxp_pool_free(pool);
		pthread_mutex_destroy(&c.m);
	}
	ck_assert_int_eq(nxp_pool_submit(NULL, pool_fn, NULL), NXP_E_INVAL);
	nxp_pool_free(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parallel");
	TCase *tc = tcase_create("summary");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_demo);
	tcase_add_test(tc, test_synth_lnc2);
	tcase_add_test(tc, test_synth_lnc1_no_dma);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_pool);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
