/* SPDX-License-Identifier: MIT */
/* Capture fan-out (issue #16 §3): nxp_capture_compare and
 * nxp_capture_export_parquet over a synthetic 4-rank capture give the same
 * rows (field for field, doubles by memcmp) and the same Parquet files (byte
 * for byte) with 1, 2 and 4 threads, and through NXP_THREADS.
 * Table threads (issue #16 §2): nxp_profile_export_parquet with
 * opts->threads 1, 2, 4 and 0 writes the same files byte for byte, calls
 * progress one call at a time, reports the same counts; a damaged trace's
 * skipped records are counted as the Warning table has them; a failing table
 * gives the first failure in table order at any width.  Run under
 * ThreadSanitizer too (build with -Db_sanitize=thread). */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <nxp/nxp.h>

#include "testutil.h"

#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

static void same_tree_as(const char *a, const char *b, int hive)
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
	if (hive)
		ck_assert_uint_gt(partitions, 0);
	else
		ck_assert_uint_eq(partitions, 0);
	free(fa);
	free(fb);
}

static void same_tree(const char *a, const char *b)
{
	same_tree_as(a, b, 1);
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
	/* the width from opts->threads: 3 (3 profiles at once), 8 (4 profiles x 2 table threads);
	 * the report adds up every profile's files */
	for (int w = 3; w <= 8; w += 5) {
		char name[16];
		snprintf(name, sizeof name, "o%d", w);
		char *ow = tu_path(tmp, name);
		nxp_export_report rep;
		rep.struct_size = sizeof(rep);
		nxp_export_options ot;
		nxp_export_options_init(&ot);
		ot.threads = w;
		ot.report = &rep;
		ck_assert_msg(nxp_capture_export_parquet(cap, ow, &ot, &st) == NXP_OK, "%s", st.message);
		same_tree(ref, ow);
		size_t nf;
		char **fl = list_tree(ow, &nf);
		ck_assert_int_eq(rep.tables_written, (int32_t)nf);
		ck_assert_int_eq(rep.skipped_records, 0);
		for (size_t i = 0; i < nf; i++)
			free(fl[i]);
		free(fl);
		free(ow);
	}
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	run(cmd);
	free(pub);
	free(ref);
	free(tmp);
}
END_TEST

/* ---- table threads of one profile's export ---- */

static atomic_int inside, overlaps, tcalls, finals;
static void serial_progress(void *user, const char *table, int done, int total)
{
	(void)user;
	if (atomic_fetch_add(&inside, 1) != 0)
		atomic_fetch_add(&overlaps, 1);
	ck_assert_int_ge(done, 0);
	ck_assert_int_le(done, total);
	if (table) {
		atomic_fetch_add(&tcalls, 1);
		struct timespec ts = {0, 200000}; /* widen the window another call could enter */
		nanosleep(&ts, NULL);
	} else {
		ck_assert_int_eq(done, total);
		atomic_fetch_add(&finals, 1);
	}
	atomic_fetch_sub(&inside, 1);
}

static nxp_profile *open_rank0(void)
{
	const char *cap = make_capture();
	if (!cap)
		return NULL;
	nxp_capture *c;
	ck_assert_int_eq(nxp_capture_open(&c, cap, NULL), NXP_OK);
	nxp_profile *p = NULL;
	ck_assert_int_eq(nxp_capture_open_profile(c, 0, NULL, &p, NULL), NXP_OK);
	nxp_capture_close(c); /* the profile owns its files */
	return p;
}

static int file_exists(const char *dir, const char *name)
{
	char *f = tu_path(dir, name);
	struct stat sb;
	int r = stat(f, &sb) == 0;
	free(f);
	return r;
}

START_TEST(test_table_threads)
{
	nxp_profile *p = open_rank0();
	if (!p)
		return; /* only when run by meson */
	char *tmp = tu_tmpdir();
	static const char *const all[] = {"all", NULL};
	nxp_status st;
	nxp_status_init(&st);
	nxp_export_options o;
	nxp_export_options_init(&o);
	ck_assert_int_eq(o.threads, 0);
	ck_assert_ptr_null(o.report);
	o.tables = all; /* Flow too: every table kind */
	o.progress = serial_progress;
	nxp_export_report rep, rep1;
	rep.struct_size = sizeof(rep);
	o.report = &rep;
	char *ref = tu_path(tmp, "w1");
	o.threads = 1;
	ck_assert_msg(nxp_profile_export_parquet(p, ref, &o, &st) == NXP_OK, "%s", st.message);
	int serial_calls = tcalls;
	ck_assert_int_eq(finals, 1);
	ck_assert_int_eq(rep.tables_written, serial_calls);
	ck_assert_int_eq(rep.skipped_records, 0); /* an intact trace */
	ck_assert_int_eq(rep.skipped_sections, 0);
	ck_assert(file_exists(ref, "Flow.parquet"));
	rep1 = rep;
	const int widths[] = {2, 4, 0, 64};
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
		char name[16];
		snprintf(name, sizeof name, "w%d", widths[k]);
		char *out = tu_path(tmp, name);
		tcalls = finals = 0;
		memset(&rep, 0xff, sizeof rep);
		rep.struct_size = sizeof(rep);
		o.threads = widths[k];
		ck_assert_msg(nxp_profile_export_parquet(p, out, &o, &st) == NXP_OK, "threads %d: %s", widths[k],
			      st.message);
		ck_assert_int_eq(tcalls, serial_calls);
		ck_assert_int_eq(finals, 1);
		ck_assert_int_eq(overlaps, 0);
		ck_assert(memcmp(&rep, &rep1, sizeof rep) == 0);
		same_tree_as(ref, out, 0);
		free(out);
	}
	/* NXP_THREADS is the fallback of threads == 0 */
	setenv("NXP_THREADS", "3", 1);
	char *env = tu_path(tmp, "env");
	o.threads = 0;
	ck_assert_msg(nxp_profile_export_parquet(p, env, &o, &st) == NXP_OK, "%s", st.message);
	unsetenv("NXP_THREADS");
	same_tree_as(ref, env, 0);

	/* the default set: no Flow; "default" + "Flow" adds it; a name twice is written once */
	char *def = tu_path(tmp, "def");
	o.tables = NULL;
	o.progress = NULL;
	o.threads = 2;
	ck_assert_int_eq(nxp_profile_export_parquet(p, def, &o, &st), NXP_OK);
	ck_assert_int_eq(rep.tables_written, rep1.tables_written - 1);
	ck_assert(!file_exists(def, "Flow.parquet"));
	ck_assert(file_exists(def, "DmaPacket.parquet") && file_exists(def, "Summary.parquet"));
	static const char *const plus[] = {"Flow", "default", "Instruction", NULL};
	o.tables = plus;
	o.overwrite = 1;
	ck_assert_int_eq(nxp_profile_export_parquet(p, def, &o, &st), NXP_OK);
	ck_assert_int_eq(rep.tables_written, rep1.tables_written);
	same_tree_as(ref, def, 0);
	static const char *const bad[] = {"Instruction", "Nope", NULL};
	o.tables = bad;
	ck_assert_int_eq(nxp_profile_export_parquet(p, def, &o, &st), NXP_E_INVAL);
	ck_assert_msg(strstr(st.message, "\"Nope\""), "%s", st.message);

	/* misuse: negative threads, a report too short */
	o.tables = NULL;
	o.threads = -1;
	ck_assert_int_eq(nxp_profile_export_parquet(p, def, &o, &st), NXP_E_INVAL);
	ck_assert_msg(strstr(st.message, "threads"), "%s", st.message);
	o.threads = 2;
	rep.struct_size = 8;
	ck_assert_int_eq(nxp_profile_export_parquet(p, def, &o, &st), NXP_E_INVAL);
	rep.struct_size = sizeof(rep);

	/* a table that cannot be written (a directory under its name): the first
	 * failure in table order at any width; the files that were written are whole */
	for (int w = 1; w <= 2; w++) {
		char name[16];
		snprintf(name, sizeof name, "fail%d", w);
		char *out = tu_path(tmp, name);
		char *d1 = tu_path(out, "DmaPacket.parquet"), *d2 = tu_path(out, "Summary.parquet");
		char *k1 = tu_path(d1, "keep"), *k2 = tu_path(d2, "keep");
		ck_assert_int_eq(mkdir(out, 0777), 0);
		ck_assert_int_eq(mkdir(d1, 0777), 0);
		ck_assert_int_eq(mkdir(d2, 0777), 0);
		ck_assert_int_eq(tu_write_file(k1, "x", 1), 0);
		ck_assert_int_eq(tu_write_file(k2, "x", 1), 0);
		o.tables = all;
		o.threads = w;
		o.overwrite = 1;
		nxp_status_init(&st);
		int rc = nxp_profile_export_parquet(p, out, &o, &st);
		ck_assert_int_ne(rc, NXP_OK);
		ck_assert_int_eq(st.code, rc);
		ck_assert_msg(strstr(st.message, "DmaPacket"), "threads %d: %s", w, st.message);
		size_t nf;
		char **fl = list_tree(out, &nf);
		for (size_t i = 0; i < nf; i++) {
			ck_assert_msg(strstr(fl[i], ".parquet"), "left behind: %s", fl[i]);
			if (!strstr(fl[i], "/keep")) { /* written whole: as the reference */
				char *pa = tu_path(out, fl[i] + 1), *pb = tu_path(ref, fl[i] + 1);
				size_t la, lb;
				void *da = tu_read_file(pa, &la), *db = tu_read_file(pb, &lb);
				ck_assert_msg(da && db && la == lb && !memcmp(da, db, la), "%s", fl[i]);
				free(da), free(db), free(pa), free(pb);
			}
			free(fl[i]);
		}
		free(fl);
		free(k1), free(k2), free(d1), free(d2), free(out);
	}
	nxp_profile_close(p);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	run(cmd);
	free(def), free(env), free(ref), free(tmp);
}
END_TEST

/* The skipped-record counts of nxp_export_report against the Warning table. */
static void warning_counts(nxp_profile *p, int64_t *recs, int64_t *secs)
{
	static const char *const cols[] = {"category", "record_count", NULL};
	nxp_table_options to;
	nxp_table_options_init(&to);
	to.columns = cols;
	struct ArrowArrayStream s;
	ck_assert_int_eq(nxp_profile_open_table(&s, p, "Warning", &to, NULL), NXP_OK);
	*recs = *secs = 0;
	struct ArrowArray a;
	while (s.get_next(&s, &a) == 0 && a.release) {
		const struct ArrowArray *cat = a.children[0], *cnt = a.children[1];
		const int32_t *idx = cat->buffers[1], *off = cat->dictionary->buffers[1];
		const char *chars = cat->dictionary->buffers[2];
		const int64_t *n = cnt->buffers[1];
		for (int64_t i = 0; i < a.length; i++) {
			int32_t k = idx[i + cat->offset];
			if (!strncmp(chars + off[k], "skipped_records", (size_t)(off[k + 1] - off[k])))
				*recs += n[i + cnt->offset];
			else if (!strncmp(chars + off[k], "skipped_sections", (size_t)(off[k + 1] - off[k])))
				*secs += n[i + cnt->offset];
		}
		a.release(&a);
	}
	s.release(&s);
}

START_TEST(test_report_damaged)
{
	const char *cli = getenv("NXP_CLI");
	if (!cli)
		return;
	char *tmp = tu_tmpdir();
	char *base = tu_path(tmp, "d");
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "'%s' synth --workload mlp --arch trn2 --lnc 2 --seed 5 --instructions 3000 -o '%s' --quiet", cli,
		 base);
	ck_assert_int_eq(run(cmd), 0);
	char neff[4096], ntff[4096];
	snprintf(neff, sizeof neff, "%s.neff", base);
	snprintf(ntff, sizeof ntff, "%s.ntff", base);
	size_t len;
	unsigned char *b = tu_read_file(ntff, &len);
	ck_assert_ptr_nonnull(b);
	memset(b + len / 2, 0xff, 8); /* as tests/test_export.sh damages it */
	ck_assert_int_eq(tu_write_file(ntff, b, len), 0);
	free(b);
	nxp_profile *p;
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	ck_assert_int_eq(nxp_profile_open_path(&p, neff, ntff, &po, NULL), NXP_OK);
	int64_t recs, secs;
	warning_counts(p, &recs, &secs);
	ck_assert_int_gt(recs + secs, 0);
	for (int w = 1; w <= 2; w++) {
		nxp_export_options o;
		nxp_export_options_init(&o);
		nxp_export_report rep;
		rep.struct_size = sizeof(rep);
		o.report = &rep;
		o.threads = w;
		o.overwrite = 1;
		char *out = tu_path(tmp, "out");
		ck_assert_int_eq(nxp_profile_export_parquet(p, out, &o, NULL), NXP_OK);
		ck_assert_int_eq(rep.skipped_records, recs);
		ck_assert_int_eq(rep.skipped_sections, secs);
		/* without the Warning table the counts are unknown */
		static const char *const only[] = {"Instruction", NULL};
		o.tables = only;
		ck_assert_int_eq(nxp_profile_export_parquet(p, out, &o, NULL), NXP_OK);
		ck_assert_int_eq(rep.skipped_records, -1);
		ck_assert_int_eq(rep.skipped_sections, -1);
		ck_assert_int_eq(rep.tables_written, 1);
		free(out);
	}
	nxp_profile_close(p);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	run(cmd);
	free(base), free(tmp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fanout");
	TCase *tc = tcase_create("fanout");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_compare_widths);
	tcase_add_test(tc, test_export_widths);
	tcase_add_test(tc, test_table_threads);
	tcase_add_test(tc, test_report_damaged);
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
