/* SPDX-License-Identifier: MIT */
/* A synthetic capture (`nxp synth --capture`) agrees with itself: for every
 * device profile, the NeuronCore said by the NTFF file name (_vnc_<v>), by the
 * Capture API (nxp_capture_profile.nc_idx), by the NTFF metadata
 * (neuroncore_idx) and by the process's ntrace.pb events (nc_idx) is the same
 * one; the NTFF's capture_time_ns is on the host clock of the system profile,
 * at or just before its first event and its trace_info first_ts; trace_info
 * names the process of its directory and the NTFF's arch / version. */
#include "../examples/nxp/synth.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *tmp;

static void setup(void)
{
	tmp = tu_tmpdir();
}

static void teardown(void)
{
	tu_rmtree(tmp);
	free(tmp);
}

static int64_t vnc_of(const char *path)
{
	const char *p = strrchr(path, '/');
	p = strstr(p ? p : path, "_vnc_");
	return p ? strtoll(p + 5, NULL, 10) : -1;
}

static void check_capture(const char *arch, int lnc, int ranks)
{
	synth_params p;
	synth_params_init(&p);
	p.arch = arch;
	p.lnc = lnc;
	p.seed = 11;
	char *dir = tu_path(tmp, arch);
	nxp_status st;
	synth_capture_result res;
	ck_assert_msg(synth_capture_run(&p, dir, ranks, &res, &st) == 0, "%s", st.message);

	nxp_capture *cap;
	ck_assert_int_eq(nxp_capture_open(&cap, dir, &st), NXP_OK);
	ck_assert_uint_eq(nxp_capture_profile_count(cap), (size_t)ranks);
	ck_assert_uint_eq(nxp_capture_problem_count(cap), 0);
	int seen[SYNTH_MAX_RANKS] = {0};
	for (size_t i = 0; i < (size_t)ranks; i++) {
		nxp_capture_profile pr;
		pr.struct_size = sizeof(pr);
		ck_assert_int_eq(nxp_capture_get_profile(cap, i, &pr), NXP_OK);
		nxp_capture_file tf;
		tf.struct_size = sizeof(tf);
		ck_assert_int_eq(nxp_capture_get_file(cap, (size_t)pr.ntff, &tf), NXP_OK);
		int64_t nc = vnc_of(tf.path);
		/* file name, Capture API */
		ck_assert_msg(nc >= 0 && nc < ranks, "%s: no _vnc_ in the name", tf.path);
		ck_assert_int_eq(tf.vnc, nc);
		ck_assert_msg(pr.nc_idx == nc, "%s: Capture API nc_idx %lld, name says %lld", tf.path,
			      (long long)pr.nc_idx, (long long)nc);
		seen[nc]++;

		/* NTFF metadata */
		nxp_profile *prof;
		ck_assert_int_eq(nxp_capture_open_profile(cap, i, NULL, &prof, &st), NXP_OK);
		nxp_metadata md;
		md.struct_size = sizeof(md);
		ck_assert_int_eq(nxp_profile_get_metadata(prof, &md), NXP_OK);
		ck_assert_msg(md.neuroncore_idx == nc, "%s: metadata neuroncore_idx %lld, name says %lld", tf.path,
			      (long long)md.neuroncore_idx, (long long)nc);

		/* trace_info.pb of the same process */
		nxp_capture_process proc;
		proc.struct_size = sizeof(proc);
		ck_assert_int_eq(nxp_capture_get_process(cap, (size_t)pr.process_index, &proc), NXP_OK);
		ck_assert_int_ge(proc.trace_info, 0);
		nxp_capture_file ti_file;
		ti_file.struct_size = sizeof(ti_file);
		ck_assert_int_eq(nxp_capture_get_file(cap, (size_t)proc.trace_info, &ti_file), NXP_OK);
		nxp_source *src;
		ck_assert_int_eq(nxp_source_open_path(&src, ti_file.path, &st), NXP_OK);
		nxp_trace_info *ti;
		ck_assert_int_eq(nxp_trace_info_open(&ti, src, NULL, &st), NXP_OK);
		nxp_system_metadata sm;
		sm.struct_size = sizeof(sm);
		ck_assert_int_eq(nxp_trace_info_get(ti, &sm), NXP_OK);
		ck_assert_int_eq(sm.pid, proc.pid);
		ck_assert_str_eq(sm.instance_id, proc.instance_id);
		ck_assert_str_eq(sm.arch, md.arch);
		ck_assert_int_eq(sm.ntff_version, md.ntff_version);
		ck_assert_int_eq(sm.logical_nc_size, lnc);
		/* capture time: the host clock, at or before the host timeline's start
		 * and its first event, by less than a second */
		ck_assert_int_gt(md.capture_time_ns, 0);
		ck_assert_msg(md.capture_time_ns <= sm.first_ts_ns && sm.first_ts_ns - md.capture_time_ns < 1000000000,
			      "%s: capture_time_ns %lld vs trace_info first_ts_ns %lld", tf.path,
			      (long long)md.capture_time_ns, (long long)sm.first_ts_ns);

		/* ntrace.pb and trace.json events of the process */
		nxp_system_events *ev;
		ck_assert_int_eq(nxp_capture_open_events(cap, pr.process_index, NULL, &ev, &st), NXP_OK);
		nxp_system_event e;
		e.struct_size = sizeof(e);
		int rc;
		int64_t first = INT64_MAX, with_nc = 0;
		while ((rc = nxp_system_events_next(ev, &e)) == NXP_OK) {
			if (e.start_ts < first)
				first = e.start_ts;
			ck_assert_str_eq(e.instance_id, proc.instance_id);
			if (e.nc_idx >= 0) {
				ck_assert_msg(e.nc_idx == nc, "%s: event %s on nc %lld, the NTFF is nc %lld", tf.path, e.name,
					      (long long)e.nc_idx, (long long)nc);
				with_nc++;
			}
		}
		ck_assert_int_eq(rc, NXP_END);
		ck_assert_int_gt(with_nc, 0);
		ck_assert_msg(md.capture_time_ns <= first && first - md.capture_time_ns < 1000000000,
			      "%s: capture_time_ns %lld vs first host event %lld", tf.path, (long long)md.capture_time_ns,
			      (long long)first);
		nxp_system_events_close(ev);
		nxp_trace_info_close(ti);
		nxp_source_close(src);
		nxp_profile_close(prof);
	}
	for (int r = 0; r < ranks; r++)
		ck_assert_msg(seen[r] == 1, "NeuronCore %d: %d profiles", r, seen[r]);
	nxp_capture_close(cap);
	free(dir);
}

START_TEST(test_capture_consistent)
{
	check_capture("trn2", 1, 3);
}
END_TEST

START_TEST(test_capture_consistent_lnc2)
{
	check_capture("trn1", 2, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("synth_capture");
	TCase *tc = tcase_create("consistency");
	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_capture_consistent);
	tcase_add_test(tc, test_capture_consistent_lnc2);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
