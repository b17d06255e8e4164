/* SPDX-License-Identifier: MIT */
/* Parallel summary: nxp_profile_summarize_opts() with 1, 2, 3, 4, 7 and 0 (all
 * cores) threads gives summaries identical bit for bit (every Summary field,
 * the hardware, every OpcodeSummary and ThrottleSummary row) to the
 * one-thread nxp_profile_summarize(), on the demo and on synthetic LNC=1 and
 * LNC=2 profiles (few and many DMA queues, so one and several queue groups per
 * table), for regions (a window, a physical core), and on damaged traces
 * (section bytes overwritten, files cut short; read with and without CRC
 * checks: the same figures or the same error); so does the export's summary fed by
 * its Instruction and DmaPacket streams (summary_feed.h), in any order of the
 * two, and its fallbacks, and the export's ActiveTime made from the runs the
 * same streams fed (ntff_at_feed) has the table's rows; the internal thread pool runs every task
 * with a bounded number in flight; the thread's block cache (mcache.h) hands a
 * freed block to the next allocation it fits and keeps within its bound. */
#include <check.h>
#include <nxp/nxp.h>

#include "ntff_fixture.h"
#include "mcache.h"
#include "ntff_layout.h"
#include "pool.h"
#include "summary_priv.h"
#include "summary_feed.h"
#include "columnar/columnar_priv.h"
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The summary on `threads` threads (-1: nxp_profile_summarize) of the region
 * `r` (NULL = all); rc and status out. */
static int summ_rc(nxp_profile *p, int threads, const nxp_summary_options *r, nxp_summary **s, nxp_status *st)
{
	*s = NULL;
	nxp_status_init(st);
	if (threads < 0)
		return nxp_profile_summarize(p, NULL, s, st);
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	if (r)
		o = *r;
	o.threads = threads;
	return nxp_profile_summarize_opts(p, &o, s, st);
}

static nxp_summary *summ(nxp_profile *p, int threads)
{
	nxp_summary *s = NULL;
	nxp_status st;
	int rc = summ_rc(p, threads, NULL, &s, &st);
	ck_assert_msg(rc == NXP_OK, "summarize (%d threads): %s", threads, st.message);
	return s;
}

static const int thread_counts[] = {1, 2, 3, 4, 7, 0, 2, 4};
#define N_THREAD_COUNTS (sizeof(thread_counts) / sizeof(thread_counts[0]))

/* Every figure of b equals a's, bit for bit (tu_summary_same). */
static void same(const nxp_summary *a, const nxp_summary *b, const char *label, int threads)
{
	char what[128];
	snprintf(what, sizeof(what), "%s, %d threads", label, threads);
	tu_summary_same(a, b, what);
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
/* Take and release one batch: 1, or 0 at the end or on an error. */
static int one_batch(struct ArrowArrayStream *as)
{
	struct ArrowArray a;
	if (as->get_next(as, &a) != 0 || !a.release)
		return 0;
	a.release(&a);
	return 1;
}

/* Drain a table stream (at most max_batches batches; -1: to its end or an
 * error), then release it. */
static void drain_stream(struct ArrowArrayStream *as, int max_batches)
{
	for (int b = 0; (max_batches < 0 || b < max_batches) && one_batch(as); b++)
		;
	as->release(as);
}

/* The rows of the ActiveTime table stream opened with feeds fd (NULL: read
 * as a table), one text line a row: every column, the engine through its
 * dictionary, a null engine_id as "-". */
static char *active_time_rows(nxp_profile *p, const nxc_feeds *fd)
{
	nxp_status st;
	nxp_status_init(&st);
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.batch_rows = 333;
	struct ArrowArrayStream as;
	ck_assert_int_eq(nxc_open_stream_sum(&as, nxc_find_table("ActiveTime"), p, NULL, &o, NULL, fd, &st), NXP_OK);
	size_t n = 0, cap = 1 << 16;
	char *out = malloc(cap);
	ck_assert_ptr_nonnull(out);
	out[0] = 0;
	struct ArrowArray a;
	while (as.get_next(&as, &a) == 0 && a.release) {
		ck_assert_int_eq(a.n_children, 6);
		const int64_t *c[5];
		for (int k = 0; k < 5; k++)
			c[k] = a.children[k]->buffers[1];
		const struct ArrowArray *eng = a.children[2], *dict = eng->dictionary, *eid = a.children[5];
		const int32_t *ix = eng->buffers[1], *doff = dict->buffers[1], *ev = eid->buffers[1];
		const uint8_t *valid = eid->buffers[0];
		for (int64_t i = 0; i < a.length; i++) {
			if (cap - n < 256) {
				out = realloc(out, cap *= 2);
				ck_assert_ptr_nonnull(out);
			}
			const char *ds = (const char *)dict->buffers[2] + doff[ix[i]];
			int null_id = valid && !(valid[i / 8] >> (i % 8) & 1);
			char id[16] = "-";
			if (!null_id)
				snprintf(id, sizeof(id), "%d", (int)ev[i]);
			n += (size_t)snprintf(out + n, cap - n, "%lld %lld %.*s %lld %lld %s\n", (long long)c[0][i],
					      (long long)c[1][i], (int)(doff[ix[i] + 1] - doff[ix[i]]), ds, (long long)c[3][i],
					      (long long)c[4][i], id);
		}
		a.release(&a);
	}
	ck_assert_str_eq(as.get_last_error(&as) ? as.get_last_error(&as) : "", "");
	as.release(&as);
	return out;
}

/* The export's fed summary (summary_feed.h): the Instruction and DmaPacket
 * streams, opened as the export opens them and drained in several orders,
 * feed it, and it gives the one-thread summary (or its error).  They feed
 * the export's ActiveTime too (ntff_at_feed), whose rows are the table's.  how: 0 one
 * stream then the other, 1 the DmaPacket stream first, 2 batches in turn;
 * then the fallbacks: 3 the DmaPacket stream released before its first batch, 4 the
 * Instruction stream only feeding.  clean: the profile is undamaged, so the
 * shares of 0-2 must be used (nxp__sum_feed_ready) and 3-4 must not. */
static void check_fed(nxp_profile *p, const char *label, int clean)
{
	nxp_summary *ref = NULL;
	nxp_status st0;
	int rc0 = summ_rc(p, -1, NULL, &ref, &st0);
	nxc_registry_init();
	char *at_ref = active_time_rows(p, NULL);
	for (int how = 0; how <= 4; how++) {
		nxp__sum_feed *f = NULL;
		ntff_at_feed *af = NULL;
		nxp_status st;
		nxp_status_init(&st);
		ck_assert_int_eq(nxp__sum_feed_new(&f, p, &st), NXP_OK);
		ck_assert_int_eq(ntff_at_feed_new(&af, p), NXP_OK);
		nxc_feeds fi = {f, af}, fd = {f, af};
		if (how == 4)
			fd = (nxc_feeds){NULL, NULL};
		nxp_table_options o;
		nxp_table_options_init(&o);
		o.batch_rows = 997;
		struct ArrowArrayStream si, sd;
		ck_assert_int_eq(nxc_open_stream_sum(&si, nxc_find_table("Instruction"), p, NULL, &o, NULL, &fi, &st), NXP_OK);
		ck_assert_int_eq(nxc_open_stream_sum(&sd, nxc_find_table("DmaPacket"), p, NULL, &o, NULL, &fd, &st), NXP_OK);
		if (how == 1) {
			drain_stream(&sd, -1);
			drain_stream(&si, -1);
		} else if (how == 2) {
			int mi = 1, md = 1;
			while (mi || md) {
				mi = mi && one_batch(&si);
				md = md && one_batch(&sd);
			}
			si.release(&si);
			sd.release(&sd);
		} else {
			drain_stream(&si, -1);
			drain_stream(&sd, how == 3 ? 0 : -1);
		}
		if (clean) {
			ck_assert_msg(nxp__sum_feed_ready(f) == (how <= 2), "%s, feed %d: ready %d", label, how,
				      nxp__sum_feed_ready(f));
			ck_assert_msg(ntff_at_feed_ready(af) == (how <= 2), "%s, ActiveTime feed %d: ready %d", label,
				      how, ntff_at_feed_ready(af));
		}
		nxc_feeds fa = {NULL, af};
		char *at = active_time_rows(p, &fa);
		ck_assert_msg(strcmp(at, at_ref) == 0, "%s, ActiveTime fed (order %d, ready %d): rows differ", label, how,
			      ntff_at_feed_ready(af));
		free(at);
		ntff_at_feed_free(af);
		nxp_summary *s = NULL;
		int rc = nxp__sum_feed_summarize(f, &s, &st);
		ck_assert_msg(rc == rc0, "%s, feed %d: rc %d (%s), one thread %d (%s)", label, how, rc, st.message, rc0,
			      st0.message);
		char what[128];
		snprintf(what, sizeof(what), "%s, fed summary (order %d)", label, how);
		if (rc0 == NXP_OK)
			tu_summary_same(ref, s, what);
		else
			ck_assert_str_eq(st.message, st0.message);
		nxp_summary_close(s);
		nxp__sum_feed_free(f);
	}
	free(at_ref);
	nxp_summary_close(ref);
}

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
	for (size_t k = 0; k < N_THREAD_COUNTS; k++) {
		nxp_summary *s = summ(p, thread_counts[k]);
		same(ref, s, label, thread_counts[k]);
		nxp_summary_close(s);
	}
	/* The figures above came from the parallel pass itself, not from its
	 * one-thread fallback: 2 instruction groups (or 1), DMA groups, the DMA
	 * accumulator and the other tables ran, and nothing was redone. */
	nxp__summary_parts parts;
	nxp_summary_options o;
	nxp_summary_options_init(&o);
	o.threads = 2;
	nxp_summary *s = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp__profile_summarize_parts(p, &o, &s, &st, &parts), NXP_OK);
	ck_assert_msg(parts.n >= 4 && !parts.fallback, "%s: parallel pass parts %d, fallback %d", label, parts.n,
		      parts.fallback);
	same(ref, s, label, 2);
	nxp_summary_close(s);
	nxp_summary_close(ref);
	check_fed(p, label, 1);
}

/* A region (options r): every thread count gives the one-thread figures. */
static void check_region(nxp_profile *p, const nxp_summary_options *r, const char *label)
{
	nxp_summary *ref = NULL;
	nxp_status st;
	ck_assert_msg(summ_rc(p, 1, r, &ref, &st) == NXP_OK, "%s: %s", label, st.message);
	ck_assert_uint_gt(nxp_summary_opcode_count(ref), 0);
	for (size_t k = 0; k < N_THREAD_COUNTS; k++) {
		nxp_summary *s = NULL;
		ck_assert_msg(summ_rc(p, thread_counts[k], r, &s, &st) == NXP_OK, "%s: %s", label, st.message);
		same(ref, s, label, thread_counts[k]);
		nxp_summary_close(s);
	}
	nxp_summary_close(ref);
}

/* Any profile, damaged or not: every thread count gives the one-thread
 * result — the same figures, or the same error. */
static void check_any(nxp_profile *p, const char *label)
{
	nxp_summary *ref = NULL;
	nxp_status st0;
	int rc0 = summ_rc(p, -1, NULL, &ref, &st0);
	for (size_t k = 0; k < N_THREAD_COUNTS; k++) {
		nxp_summary *s = NULL;
		nxp_status st;
		int rc = summ_rc(p, thread_counts[k], NULL, &s, &st);
		ck_assert_msg(rc == rc0, "%s, %d threads: rc %d (%s), one thread %d (%s)", label, thread_counts[k], rc,
			      st.message, rc0, st0.message);
		if (rc0 == NXP_OK)
			same(ref, s, label, thread_counts[k]);
		else
			ck_assert_str_eq(st.message, st0.message);
		nxp_summary_close(s);
	}
	nxp_summary_close(ref);
	check_fed(p, label, 0);
}

START_TEST(test_demo)
{
	nxp_profile *p = tu_open_demo();
	check_profile(p, "demo", 1, 0);
	nxp_profile_close(p);
}
END_TEST

static void synth_q(int pcores, int n_instr, int n_dma, int dma_queues, unsigned seed, const char *label)
{
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = pcores;
	spec.rps = 97;
	spec.n_instr = n_instr;
	spec.n_dma = n_dma;
	if (dma_queues > 0)
		spec.dma_queues = dma_queues;
	spec.seed = seed;
	tu_synth sy;
	tu_synth_write(&sy, &spec);
	nxp_profile *p = tu_synth_open(&sy, NULL);
	nxp_status st;
	nxp_status_init(&st);
	check_profile(p, label, n_dma > 0, 0);
	/* Regions: a window in the middle of the trace, a physical core, both. */
	int64_t first = INT64_MAX, last = INT64_MIN;
	{
		nxp_cursor *c = NULL;
		ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, &st), NXP_OK);
		nxp_instruction in;
		in.struct_size = sizeof(in);
		while (nxp_cursor_next_instruction(c, &in) == NXP_OK) {
			if (in.start_ts < first)
				first = in.start_ts;
			if (in.start_ts > last)
				last = in.start_ts;
		}
		nxp_cursor_close(c);
	}
	if (first < last) {
		const int64_t span = last - first;
		nxp_summary_options r;
		nxp_summary_options_init(&r);
		r.start_ts = first + span / 4;
		r.end_ts = first + span / 2;
		check_region(p, &r, "window");
		if (pcores > 1) {
			r.pcore_idx = 1;
			check_region(p, &r, "window, pcore 1");
			nxp_summary_options_init(&r);
			r.pcore_idx = 0;
			check_region(p, &r, "pcore 0");
		}
	}
	nxp_profile_close(p);
	tu_synth_free(&sy);
}

static void synth(int pcores, int n_instr, int n_dma, unsigned seed, const char *label)
{
	synth_q(pcores, n_instr, n_dma, 0, seed, label);
}

START_TEST(test_synth_lnc2)
{
	synth(2, 3000, 2000, 7, "synth LNC=2");
}
END_TEST

START_TEST(test_synth_lnc2_many_queues)
{
	/* 16 DMA queues per core: several queue groups at every thread count. */
	synth_q(2, 2000, 700, 16, 5, "synth LNC=2, 32 DMA queues");
}
END_TEST

/* The (damaged) pair on disk read with CRC checks and without: check_any on
 * each open that succeeds (one refused at open has nothing to summarise).
 * Returns how many opened. */
static int check_damaged(const tu_synth *sy, const char *what)
{
	int opened = 0;
	for (int skip_crc = 0; skip_crc <= 1; skip_crc++) {
		nxp_profile_options po;
		nxp_profile_options_init(&po);
		po.flags = skip_crc ? NXP_PROFILE_SKIP_CRC : 0;
		nxp_profile *p = NULL;
		nxp_status st;
		nxp_status_init(&st);
		if (nxp_profile_open_path(&p, sy->neff_path, sy->ntff_path, &po, &st) != NXP_OK)
			continue;
		char label[96];
		snprintf(label, sizeof(label), "%s, crc %s", what, skip_crc ? "off" : "on");
		check_any(p, label);
		opened++;
		nxp_profile_close(p);
	}
	return opened;
}

/* Damaged traces: in each of several DATA sections, overwrite a run of
 * payload bytes; read with CRC checks (the section is skipped) and without
 * (garbage records: bad keys, keys back in time, bad records). */
START_TEST(test_damaged)
{
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = 2;
	spec.rps = 61;
	spec.n_instr = 1500;
	spec.n_dma = 900;
	spec.dma_queues = 6;
	spec.seed = 3;
	tu_synth sy;
	tu_synth_write(&sy, &spec);
	const uint8_t *img = sy.ntff;
	const size_t len = sy.ntff_len;
	static fxn_section secs[4096];
	size_t ns = fxn_sections(img, len, secs, 4096), data = 0;
	for (size_t k = 0; k < ns; k++)
		data += secs[k].kind == NTFF_SEC_DATA;
	ck_assert_uint_gt(data, 20);
	int tried = 0;
	for (unsigned variant = 0; variant < 6; variant++) {
		uint8_t *d = malloc(len);
		ck_assert_ptr_nonnull(d);
		memcpy(d, img, len);
		/* Every 7th DATA section (from a different start each variant) gets
		 * 24 bytes overwritten at a position that moves with the variant. */
		size_t seen = 0;
		for (size_t k = 0; k < ns; k++) {
			if (secs[k].kind != NTFF_SEC_DATA || (seen++ + variant) % 7)
				continue;
			uint64_t room = secs[k].stored_length > 24 ? secs[k].stored_length - 24 : 0;
			uint64_t at = secs[k].offset + NTFF_SECTION_HEADER_SIZE + (room ? (variant * 37u + k * 11u) % room : 0);
			for (int b = 0; b < 24 && at + (uint64_t)b < len; b++)
				d[at + (uint64_t)b] = (uint8_t)(variant & 1 ? 0xff : 0x5a + b * 13 + (int)variant);
		}
		ck_assert_int_eq(tu_write_file(sy.ntff_path, d, len), 0);
		char what[64];
		snprintf(what, sizeof(what), "damaged variant %u", variant);
		tried += check_damaged(&sy, what);
		free(d);
	}
	/* Truncated: the file cut at 35 %, 60 % and 85 % (the index and the
	 * footer lost; the sections are then walked). */
	for (int cut = 35; cut <= 85; cut += 25) {
		ck_assert_int_eq(tu_write_file(sy.ntff_path, img, len * (size_t)cut / 100), 0);
		char what[64];
		snprintf(what, sizeof(what), "truncated at %d %%", cut);
		tried += check_damaged(&sy, what);
	}
	ck_assert_int_ge(tried, 8);
	tu_synth_free(&sy);
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

/* The block cache: reuse, fit, bounds, growth, and plain malloc without one. */
START_TEST(test_mcache)
{
	size_t cap, cap2;
	/* no cache installed: malloc/realloc/free */
	unsigned char *a = nxp__mc_alloc((size_t)1 << 20, &cap);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(cap, (size_t)1 << 20);
	nxp__mc_free(a, cap);

	nxp_mcache *c = nxp__mcache_new((size_t)3 << 20);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_null(nxp__mcache_use(c));
	a = nxp__mc_alloc((size_t)1 << 20, &cap);
	ck_assert_ptr_nonnull(a);
	nxp__mc_free(a, cap);
	/* a smaller request it serves (at least half its size) gets the same block, whole */
	unsigned char *b = nxp__mc_alloc((size_t)600 << 10, &cap2);
	ck_assert_ptr_eq(b, a);
	ck_assert_uint_eq(cap2, (size_t)1 << 20);
	nxp__mc_free(b, cap2);
	/* too small a request (under half) or too large: not that block */
	unsigned char *s = nxp__mc_alloc((size_t)100 << 10, &cap);
	ck_assert_ptr_ne(s, a);
	ck_assert_uint_eq(cap, (size_t)100 << 10);
	unsigned char *l = nxp__mc_alloc((size_t)2 << 20, &cap2);
	ck_assert_ptr_ne(l, a);
	/* growth keeps the bytes, whether a kept block or realloc serves it */
	memset(s, 0x5a, (size_t)100 << 10);
	size_t cg;
	unsigned char *g = nxp__mc_grow(s, (size_t)100 << 10, cap, (size_t)900 << 10, &cg);
	ck_assert_ptr_eq(g, a); /* the kept 1 MiB block */
	ck_assert_uint_eq(cg, (size_t)1 << 20);
	for (size_t i = 0; i < ((size_t)100 << 10); i++)
		ck_assert_uint_eq(g[i], 0x5a);
	unsigned char *g2 = nxp__mc_grow(g, (size_t)100 << 10, cg, (size_t)4 << 20, &cg); /* nothing kept fits */
	ck_assert_ptr_nonnull(g2);
	ck_assert_uint_eq(cg, (size_t)4 << 20);
	for (size_t i = 0; i < ((size_t)100 << 10); i++)
		ck_assert_uint_eq(g2[i], 0x5a);
	/* bounds: 3 MiB held at most; a larger block pushes smaller ones out, never a larger one */
	ck_assert_uint_eq(nxp__mcache_bytes(c), (size_t)100 << 10); /* s, given back by the first growth */
	nxp__mc_free(g2, cg);                                         /* 4 MiB > the bound: freed */
	ck_assert_uint_eq(nxp__mcache_bytes(c), (size_t)100 << 10);
	nxp__mc_free(l, cap2);                                        /* 2 MiB: kept */
	ck_assert_uint_eq(nxp__mcache_bytes(c), ((size_t)100 << 10) + ((size_t)2 << 20));
	unsigned char *x = malloc((size_t)1536 << 10);
	ck_assert_ptr_nonnull(x);
	nxp__mc_free(x, (size_t)1536 << 10); /* s makes way; l is larger, so x is freed */
	ck_assert_uint_eq(nxp__mcache_bytes(c), (size_t)2 << 20);
	x = malloc((size_t)3 << 20);
	ck_assert_ptr_nonnull(x);
	nxp__mc_free(x, (size_t)3 << 20); /* the bound exactly: l makes way */
	ck_assert_uint_eq(nxp__mcache_bytes(c), (size_t)3 << 20);
	/* blocks under 64 KiB are malloc's business */
	unsigned char *tiny = nxp__mc_alloc(1000, &cap);
	ck_assert_ptr_nonnull(tiny);
	tiny = nxp__mc_grow(tiny, 1000, cap, 5000, &cap);
	ck_assert_ptr_nonnull(tiny);
	ck_assert_uint_eq(cap, 5000);
	nxp__mc_free(tiny, cap);
	ck_assert_uint_eq(nxp__mcache_bytes(c), (size_t)3 << 20);
	/* uninstalled: nothing goes to it */
	ck_assert_ptr_eq(nxp__mcache_use(NULL), c);
	unsigned char *m = nxp__mc_alloc((size_t)3 << 20, &cap);
	ck_assert_ptr_nonnull(m);
	nxp__mc_free(m, cap);
	ck_assert_uint_eq(nxp__mcache_bytes(c), (size_t)3 << 20);
	nxp__mcache_free(c); /* frees what it holds: valgrind and ASan check */
	nxp__mcache_free(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parallel");
	TCase *tc = tcase_create("summary");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_demo);
	tcase_add_test(tc, test_synth_lnc2);
	tcase_add_test(tc, test_synth_lnc2_many_queues);
	tcase_add_test(tc, test_damaged);
	tcase_add_test(tc, test_synth_lnc1_no_dma);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_pool);
	tcase_add_test(tc, test_mcache);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
