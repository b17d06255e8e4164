/* SPDX-License-Identifier: MIT */
/* Capture fan-out (issue #16 §3): nxp_capture_compare and
 * nxp_capture_export_parquet over a synthetic 4-rank capture give the same
 * rows (field for field, doubles by memcmp) and the same Parquet files (byte
 * for byte) with 1, 2 and 4 threads, and through NXP_THREADS. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <nxp/nxp.h>

#include "testutil.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libnxp internals (analysis/compare.c, columnar/export.c) */
int nxp__capture_compare_threads(const nxp_capture *c, const nxp_hardware *hw, unsigned threads,
				 nxp_comparison **out, nxp_status *st);
int nxp__capture_export_parquet_threads(const char *capture_dir, const char *dir, const nxp_export_options *opts,
					unsigned threads, nxp_status *st);

static char *capture; /* made once by `nxp synth --capture DIR --ranks 4` */

static int run(const char *cmd)
{
	int rc = system(cmd);
	return rc == 0 ? 0 : -1;
}

static const char *make_capture(void)
{
	if (capture)
		return capture;
	const char *cli = getenv("NXP_CLI");
	if (!cli)
		return NULL;
	char *dir = tu_tmpdir();
	capture = tu_path(dir, "cap");
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' synth --workload matmul --arch trn2 --seed 7 --capture '%s' --ranks 4 >/dev/null",
		 cli, capture);
	ck_assert_int_eq(run(cmd), 0);
	free(dir);
	return capture;
}

static nxp_comparison *compare(const nxp_capture *c, int threads)
{
	nxp_comparison *cmp = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = threads < 0 ? nxp_capture_compare(c, NULL, &cmp, &st)
			     : nxp__capture_compare_threads(c, NULL, (unsigned)threads, &cmp, &st);
	ck_assert_msg(rc == NXP_OK, "compare(%d): %s", threads, st.message);
	return cmp;
}

static void same_comparison(const nxp_comparison *a, const nxp_comparison *b)
{
	ck_assert_uint_eq(nxp_comparison_count(a), nxp_comparison_count(b));
	ck_assert_uint_eq(nxp_comparison_count(a), 4);
	for (size_t i = 0; i < nxp_comparison_count(a); i++) {
		nxp_comparison_row x, y;
		memset(&x, 0, sizeof x);
		memset(&y, 0, sizeof y);
		x.struct_size = y.struct_size = sizeof x;
		ck_assert_int_eq(nxp_comparison_get(a, i, &x), NXP_OK);
		ck_assert_int_eq(nxp_comparison_get(b, i, &y), NXP_OK);
		ck_assert_int_eq(x.status, 0);
		ck_assert_str_eq(x.ntff_path, y.ntff_path);
		ck_assert_str_eq(x.instance_id, y.instance_id);
		ck_assert_str_eq(x.explaining_figure, y.explaining_figure);
		ck_assert(memcmp(&x.mfu, &y.mfu, sizeof x.mfu) == 0);
		x.ntff_path = y.ntff_path = x.instance_id = y.instance_id = NULL;
		x.explaining_figure = y.explaining_figure = NULL;
		ck_assert_msg(memcmp(&x, &y, sizeof x) == 0, "row %zu differs", i);
		ck_assert_int_gt(x.total_ns, 0);
	}
	nxp_insights *ia = (nxp_insights *)nxp_comparison_insights(a), *ib = (nxp_insights *)nxp_comparison_insights(b);
	ck_assert_uint_eq(nxp_insights_count(ia), nxp_insights_count(ib));
}

START_TEST(test_compare_widths)
{
	const char *cap = make_capture();
	if (!cap)
		return; /* only when run by meson */
	nxp_capture *c;
	ck_assert_int_eq(nxp_capture_open(&c, cap, NULL), NXP_OK);
	ck_assert_uint_eq(nxp_capture_profile_count(c), 4);
	nxp_comparison *serial = compare(c, 1);
	for (int t = 0; t <= 4; t += t ? 2 : 2) {
		nxp_comparison *other = compare(c, t);
		same_comparison(serial, other);
		nxp_comparison_close(other);
	}
	/* the public entry point, its width from NXP_THREADS */
	const char *w[] = {"1", "2", "4", "0", "junk"};
	for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
		setenv("NXP_THREADS", w[k], 1);
		nxp_comparison *other = compare(c, -1);
		same_comparison(serial, other);
		nxp_comparison_close(other);
	}
	unsetenv("NXP_THREADS");
	nxp_comparison_close(serial);
	nxp_capture_close(c);
}
END_TEST

/* Files under a tree, relative paths, sorted. */
static char **files;
static size_t nfiles, root_len;

static int collect(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	if (flag != FTW_F)
		return 0;
	files = realloc(files, (nfiles + 1) * sizeof(*files));
	files[nfiles++] = strdup(path + root_len);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **list_tree(const char *root, size_t *n)
{
	files = NULL;
	nfiles = 0;
	root_len = strlen(root);
	ck_assert_int_eq(nftw(root, collect, 16, FTW_PHYS), 0);
	qsort(files, nfiles, sizeof(*files), by_name);
	*n = nfiles;
	return files;
}

static void same_tree(const char *a, const char *b)
{
	size_t na, nb;
	char **fa = list_tree(a, &na);
	char **fb = list_tree(b, &nb);
	ck_assert_uint_eq(na, nb);
	ck_assert_uint_gt(na, 8);
	size_t partitions = 0;
	for (size_t i = 0; i < na; i++) {
		ck_assert_str_eq(fa[i], fb[i]);
		if (strstr(fa[i], "/profile="))
			partitions++;
		char *pa = tu_path(a, fa[i] + 1), *pb = tu_path(b, fb[i] + 1);
		size_t la, lb;
		void *da = tu_read_file(pa, &la), *db = tu_read_file(pb, &lb);
		ck_assert_ptr_nonnull(da);
		ck_assert_ptr_nonnull(db);
		ck_assert_msg(la == lb && memcmp(da, db, la) == 0, "%s differs", fa[i]);
		free(da), free(db), free(pa), free(pb), free(fa[i]), free(fb[i]);
	}
	ck_assert_uint_gt(partitions, 0);
	free(fa);
	free(fb);
}

static int calls;
static void count_progress(void *user, const char *table, int done, int total)
{
	(void)user, (void)table, (void)done, (void)total;
	calls++; /* serialized by the library */
}

START_TEST(test_export_widths)
{
	const char *cap = make_capture();
	if (!cap)
		return;
	char *tmp = tu_tmpdir();
	char *ref = tu_path(tmp, "t1");
	nxp_status st;
	nxp_status_init(&st);
	nxp_export_options o;
	nxp_export_options_init(&o);
	o.progress = count_progress;
	ck_assert_msg(nxp__capture_export_parquet_threads(cap, ref, &o, 1, &st) == NXP_OK, "%s", st.message);
	int serial_calls = calls;
	const unsigned widths[] = {2, 4, 0};
	for (size_t k = 0; k < 3; k++) {
		char name[16];
		snprintf(name, sizeof name, "t%zu", k + 2);
		char *out = tu_path(tmp, name);
		calls = 0;
		ck_assert_msg(nxp__capture_export_parquet_threads(cap, out, &o, widths[k], &st) == NXP_OK, "%s",
			      st.message);
		ck_assert_int_eq(calls, serial_calls);
		same_tree(ref, out);
		free(out);
	}
	/* the public entry point through NXP_THREADS; no overwrite refuses as before */
	setenv("NXP_THREADS", "2", 1);
	char *pub = tu_path(tmp, "pub");
	ck_assert_int_eq(nxp_capture_export_parquet(cap, pub, NULL, &st), NXP_OK);
	same_tree(ref, pub);
	ck_assert_int_eq(nxp_capture_export_parquet(cap, pub, NULL, &st), NXP_E_INVAL);
	unsetenv("NXP_THREADS");
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	run(cmd);
	free(pub);
	free(ref);
	free(tmp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fanout");
	TCase *tc = tcase_create("fanout");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_compare_widths);
	tcase_add_test(tc, test_export_widths);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (capture) {
		char cmd[4096];
		snprintf(cmd, sizeof cmd, "rm -rf \"$(dirname '%s')\"", capture);
		run(cmd);
		free(capture);
	}
	return failed ? 1 : 0;
}
