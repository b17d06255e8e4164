/* SPDX-License-Identifier: MIT */
/* Timeline export (nxp_profile_export_timeline): misuse, file handling, and
 * the Chrome JSON content against the cursors on the demo pair, records that
 * fail their checks (skipped and counted, the good ones written).  The Perfetto
 * files are checked in depth by tests/pftrace_check.py (test 'timeline_cli'). */
#include <check.h>
#include <jansson.h>
#include <nxp/nxp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char neff[4096], ntff[4096], dir[256];
static nxp_profile *prof;

static void setup(void)
{
	const char *s = getenv("NXP_SAMPLES_DIR");
	ck_assert_ptr_nonnull(s);
	snprintf(neff, sizeof(neff), "%s/demo.neff", s);
	snprintf(ntff, sizeof(ntff), "%s/demo.ntff", s);
	snprintf(dir, sizeof(dir), "/tmp/nxp_tl_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_profile_open_path(&prof, neff, ntff, NULL, &st), 0);
}

static void teardown(void)
{
	nxp_profile_close(prof);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int64_t count_table(int table)
{
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, prof, table, NULL, NULL), 0);
	char rec[512];
	size_t n;
	int64_t total = 0;
	size_t sz = table == NXP_TABLE_INSTRUCTION ? sizeof(nxp_instruction)
		    : table == NXP_TABLE_DMA_PACKET ? sizeof(nxp_dma_packet)
		    : table == NXP_TABLE_EXECUTION  ? sizeof(nxp_execution)
						    : sizeof(nxp_throttle);
	while (nxp_cursor_next_batch(c, rec, sz, 1, &n) == 0)
		total += (int64_t)n;
	nxp_cursor_close(c);
	return total;
}

static json_t *load_json(const char *path)
{
	gzFile g = gzopen(path, "rb");
	ck_assert_ptr_nonnull(g);
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	int n;
	while ((n = gzread(g, buf + len, (unsigned)(cap - len))) > 0) {
		len += (size_t)n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	gzclose(g);
	json_error_t err;
	json_t *j = json_loadb(buf, len, 0, &err);
	free(buf);
	ck_assert_msg(j != NULL, "%s: %s (line %d)", path, err.text, err.line);
	return j;
}

START_TEST(test_misuse)
{
	nxp_status st;
	nxp_status_init(&st);
	char path[512];
	snprintf(path, sizeof(path), "%s/x.pftrace", dir);
	ck_assert_int_eq(nxp_profile_export_timeline(NULL, path, NULL, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, NULL, NULL, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, "", NULL, NULL, NULL), NXP_E_INVAL);
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	o.struct_size = NXP_TIMELINE_OPTIONS_SIZE_V0_2 - 1;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, NULL, &st), NXP_E_INVAL);
	nxp_timeline_options_init(&o);
	o.format = 7;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, NULL, &st), NXP_E_INVAL);
	ck_assert(strstr(st.message, "format") != NULL);
	nxp_timeline_options_init(&o);
	o.start_ts = 10;
	o.end_ts = 5;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, NULL, &st), NXP_E_INVAL);
	nxp_timeline_options_init(&o);
	o.execution = 999999;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, NULL, &st), NXP_E_INVAL);
	ck_assert(strstr(st.message, "999999") != NULL);
	nxp_timeline_stats ts;
	ts.struct_size = 8;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, NULL, &ts, &st), NXP_E_INVAL);
	struct stat sb;
	ck_assert_int_ne(stat(path, &sb), 0); /* nothing written by any of these */
}
END_TEST

START_TEST(test_files)
{
	nxp_status st;
	nxp_status_init(&st);
	char path[512];
	snprintf(path, sizeof(path), "%s/t.pftrace", dir);
	nxp_timeline_stats ts;
	ts.struct_size = sizeof(ts);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, NULL, &ts, &st), 0);
	struct stat sb;
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_size, ts.bytes);
	ck_assert_int_gt(ts.events, 0);
	ck_assert_int_gt(ts.tracks, 2);
	ck_assert_int_gt(ts.input_bytes, 0);
	ck_assert_int_eq(ts.truncated, 0);
	ck_assert_int_eq(ts.read_errors, 0);
	FILE *f = fopen(path, "rb");
	ck_assert_int_eq(fgetc(f), 0x0a); /* Trace.packet, length-delimited */
	fclose(f);
	/* an existing file: refused without overwrite and untouched; replaced with it */
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, NULL, NULL, &st), NXP_E_INVAL);
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	o.overwrite = 1;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, NULL, &st), 0);
	/* no temporary left behind */
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q tmp", dir);
	ck_assert_int_ne(system(cmd), 0);
	/* an unwritable place: NXP_E_IO, nothing at the path */
	ck_assert_int_eq(nxp_profile_export_timeline(prof, "/nonexistent-dir/x.pftrace", NULL, NULL, &st), NXP_E_IO);
	ck_assert(strstr(st.message, "/nonexistent-dir/x.pftrace") != NULL);
	/* a too-short stats struct from a caller: still the first size works */
	ts.struct_size = NXP_TIMELINE_STATS_SIZE_V0_2;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts, &st), 0);
}
END_TEST

/* Chrome JSON: one X per execution, instruction, DMA packet and throttle window;
 * ts/dur exact; the gzip'd file equal in content. */
START_TEST(test_chrome_counts)
{
	int64_t want = count_table(NXP_TABLE_INSTRUCTION) + count_table(NXP_TABLE_DMA_PACKET) +
		       count_table(NXP_TABLE_EXECUTION) + count_table(NXP_TABLE_THROTTLE);
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	o.format = NXP_TIMELINE_CHROME_JSON;
	const char *names[2] = {"t.json", "t.json.gz"};
	for (int k = 0; k < 2; k++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, NULL, NULL), 0);
		FILE *f = fopen(path, "rb");
		int c0 = fgetc(f), c1 = fgetc(f);
		fclose(f);
		if (k == 1)
			ck_assert(c0 == 0x1f && c1 == 0x8b);
		else
			ck_assert_int_eq(c0, '{');
		json_t *j = load_json(path);
		json_t *ev = json_object_get(j, "traceEvents");
		ck_assert(json_is_array(ev));
		int64_t x = 0;
		size_t i;
		json_t *e;
		json_array_foreach(ev, i, e)
		{
			if (!strcmp(json_string_value(json_object_get(e, "ph")), "X")) {
				x++;
				ck_assert(json_is_real(json_object_get(e, "ts")));
				ck_assert(json_is_real(json_object_get(e, "dur")));
			}
		}
		ck_assert_int_eq(x, want);
		json_decref(j);
	}
}
END_TEST

START_TEST(test_options)
{
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	o.format = NXP_TIMELINE_CHROME_JSON;
	o.max_events = 100;
	char path[512];
	snprintf(path, sizeof(path), "%s/cut.json", dir);
	nxp_timeline_stats ts;
	ts.struct_size = sizeof(ts);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts, NULL), 0);
	ck_assert_int_eq(ts.truncated, 1);
	ck_assert_int_eq(ts.events, 100);
	json_t *j = load_json(path);
	json_t *ev = json_object_get(j, "traceEvents"), *e;
	size_t i;
	int notes = 0;
	json_array_foreach(ev, i, e)
	{
		const char *n = json_string_value(json_object_get(e, "name"));
		if (n && strstr(n, "max events reached"))
			notes++;
	}
	ck_assert_int_eq(notes, 1);
	json_decref(j);

	/* --engine tensor: instruction slices only on "tensor" tracks */
	nxp_timeline_options_init(&o);
	o.format = NXP_TIMELINE_CHROME_JSON;
	o.engine = NXP_ENGINE_TENSOR;
	snprintf(path, sizeof(path), "%s/tensor.json", dir);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts, NULL), 0);
	j = load_json(path);
	ev = json_object_get(j, "traceEvents");
	json_array_foreach(ev, i, e)
	{
		const char *ph = json_string_value(json_object_get(e, "ph"));
		const char *n = json_string_value(json_object_get(e, "name"));
		if (!strcmp(ph, "M") && !strcmp(n, "thread_name")) {
			const char *tn = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
			ck_assert_msg(strcmp(tn, "vector") && strcmp(tn, "scalar") && strcmp(tn, "gpsimd"),
				      "engine track %s with --engine tensor", tn);
		}
	}
	json_decref(j);

	/* execution 0 only: every X event ends by the end of execution 0 */
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, prof, NXP_TABLE_EXECUTION, NULL, NULL), 0);
	nxp_execution ex;
	ex.struct_size = sizeof(ex);
	ck_assert_int_eq(nxp_cursor_next_execution(c, &ex), 0);
	nxp_cursor_close(c);
	nxp_timeline_options_init(&o);
	o.format = NXP_TIMELINE_CHROME_JSON;
	o.execution = ex.execution_index;
	snprintf(path, sizeof(path), "%s/exec.json", dir);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts, NULL), 0);
	j = load_json(path);
	ev = json_object_get(j, "traceEvents");
	int64_t xs = 0;
	json_array_foreach(ev, i, e)
	{
		if (strcmp(json_string_value(json_object_get(e, "ph")), "X"))
			continue;
		double t = json_real_value(json_object_get(e, "ts"));
		ck_assert(t * 1000.0 >= (double)ex.execution_start_ts - 1.0);
		ck_assert(t * 1000.0 <= (double)ex.execution_end_ts + 1.0);
		xs++;
	}
	ck_assert_int_gt(xs, 0);
	json_decref(j);
}
END_TEST

/* Flow arrows: on by default for a whole-profile Perfetto export, counted in
 * stats.flows; off with device_flows = 0, with a filter, in Chrome JSON; an
 * options struct of the first published size gets the default (on). */
START_TEST(test_flows)
{
	char path[512];
	nxp_timeline_options o;
	nxp_timeline_stats ts, ts0;
	nxp_status st;
	nxp_status_init(&st);
	memset(&ts, 0, sizeof(ts));
	ts.struct_size = sizeof(ts);
	ts0 = ts;
	nxp_timeline_options_init(&o);
	ck_assert_int_eq(o.device_flows, 1);
	snprintf(path, sizeof(path), "%s/flows.pftrace", dir);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts, &st), 0);
	ck_assert_int_gt(ts.flows, 0);

	o.device_flows = 0;
	o.overwrite = 1;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts0, &st), 0);
	ck_assert_int_eq(ts0.flows, 0);
	ck_assert_int_eq(ts0.events, ts.events); /* the same slices and counters */
	/* each flow: a start and an end id, 9 bytes each */
	ck_assert_int_ge(ts.bytes - ts0.bytes, ts.flows * 18);

	nxp_timeline_options_init(&o);
	o.overwrite = 1;
	o.engine = NXP_ENGINE_TENSOR;
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts0, &st), 0);
	ck_assert_int_eq(ts0.flows, 0);

	nxp_timeline_options_init(&o);
	o.overwrite = 1;
	o.format = NXP_TIMELINE_CHROME_JSON;
	snprintf(path, sizeof(path), "%s/flows.json", dir);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts0, &st), 0);
	ck_assert_int_eq(ts0.flows, 0);

	/* a caller built against the first 0.2 options (no device_flows) */
	nxp_timeline_options_init(&o);
	o.overwrite = 1;
	o.struct_size = NXP_TIMELINE_OPTIONS_SIZE_V0_2;
	o.device_flows = 0; /* beyond struct_size: must not be read */
	snprintf(path, sizeof(path), "%s/flows2.pftrace", dir);
	ck_assert_int_eq(nxp_profile_export_timeline(prof, path, &o, &ts0, &st), 0);
	ck_assert_int_eq(ts0.flows, ts.flows);
}
END_TEST

/* Records that fail their checks, in four tables: the timeline skips and
 * counts them as the cursors do (its own decode of the raw records,
 * device_timeline.c), and writes every good one. */
void ntff_writer_set_unchecked(nxp_ntff_writer *w, int on); /* libnxp_internal: bad notes */

/* Finish the writer and open its file against the demo NEFF. */
static nxp_profile *finish_open(nxp_ntff_writer *w, const char *path)
{
	ck_assert_int_eq(nxp_ntff_writer_finish(w), 0);
	nxp_ntff_writer_close(w);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	po.flags = NXP_PROFILE_ALLOW_MISMATCH;
	nxp_profile *p;
	ck_assert_int_eq(nxp_profile_open_path(&p, neff, path, &po, NULL), 0);
	return p;
}

/* p exported as Chrome JSON to DIR/<stem>.json (its path into json) and as
 * Perfetto to DIR/<stem>.pftrace: ts[0], ts[1], the two exports' stats. */
static void export_json_pftrace(nxp_profile *p, const char *stem, char json[512], nxp_timeline_stats ts[2])
{
	char pf[512];
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	for (int k = 0; k < 2; k++) {
		o.format = k ? NXP_TIMELINE_PERFETTO : NXP_TIMELINE_CHROME_JSON;
		char *path = k ? pf : json;
		snprintf(path, 512, "%s/%s.%s", dir, stem, k ? "pftrace" : "json");
		ts[k].struct_size = sizeof(ts[k]);
		ck_assert_int_eq(nxp_profile_export_timeline(p, path, &o, &ts[k], NULL), 0);
	}
}

/* Events of phase ph (and name, unless NULL) in a Chrome JSON file. */
static int64_t count_events(const char *path, const char *ph, const char *name)
{
	json_t *j = load_json(path);
	json_t *ev = json_object_get(j, "traceEvents");
	int64_t n = 0;
	size_t i;
	json_t *e;
	json_array_foreach(ev, i, e)
	{
		const char *eph = json_string_value(json_object_get(e, "ph"));
		const char *nm = json_string_value(json_object_get(e, "name"));
		n += eph && !strcmp(eph, ph) && (!name || (nm && !strcmp(nm, name)));
	}
	json_decref(j);
	return n;
}

START_TEST(test_bad_records)
{
	char path[512], out[512];
	snprintf(path, sizeof(path), "%s/bad.ntff", dir);
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, NULL), 0);
	ntff_writer_set_unchecked(w, 1);
	int64_t name = nxp_ntff_writer_string(w, "bad.neff");
	ck_assert_int_gt(name, 0);
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_INSTRUCTION;
	q.engine = NXP_ENGINE_VECTOR;
	int32_t iq = nxp_ntff_writer_add_queue(w, &q);
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_DMA;
	q.name = "qSyncIO";
	int32_t dq = nxp_ntff_writer_add_queue(w, &q);
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_SEMAPHORE;
	int32_t sq = nxp_ntff_writer_add_queue(w, &q);
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_EXECUTION;
	int32_t xq = nxp_ntff_writer_add_queue(w, &q);
	ck_assert(iq >= 0 && dq >= 0 && sq >= 0 && xq >= 0);
	nxp_ntff_execution_note x = {1000, 100000, 0, 1, (uint32_t)name, 10};
	ck_assert_int_eq(nxp_ntff_writer_execution(w, xq, &x), 0);
	x.neff_name = 1u << 30; /* no such string: bad */
	ck_assert_int_eq(nxp_ntff_writer_execution(w, xq, &x), 0);
	int bad = 1;
	for (int i = 0; i < 30; i++) {
		uint64_t t = 2000 + 1000 * (uint64_t)i;
		nxp_ntff_instruction_note n = {t, t + 500, (uint32_t)i, 0, 0};
		if (i == 7 || i == 19) { /* ends before it starts: bad */
			n.end_tick = t - 1;
			bad++;
		}
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &n), 0);
		nxp_ntff_dma_note d;
		memset(&d, 0, sizeof(d));
		d.start_tick = t + 100;
		d.end_tick = t + 400;
		d.read_bytes = d.write_bytes = 4096;
		d.source = NXP_MEMORY_HBM;
		d.dest = i % 5 == 3 ? 9 : NXP_MEMORY_HBM; /* no such memory: bad */
		bad += i % 5 == 3;
		ck_assert_int_eq(nxp_ntff_writer_dma(w, dq, &d), 0);
		nxp_ntff_semaphore_note sn = {t + 200, 3, NXP_ENGINE_VECTOR, i == 11 ? 7 : 1, i, 0, 0, 0};
		bad += i == 11; /* no such operation: bad */
		ck_assert_int_eq(nxp_ntff_writer_semaphore(w, sq, &sn), 0);
	}
	nxp_profile *p = finish_open(w, path);
	nxp_timeline_stats ts[2];
	export_json_pftrace(p, "bad", out, ts);
	ck_assert_int_eq(ts[0].bad_records, bad);
	ck_assert_int_eq(bad, 1 + 2 + 6 + 1);
	ck_assert_int_eq(ts[0].read_errors, 0);
	ck_assert_int_eq(count_events(out, "X", NULL), 1 + 28 + 24); /* execution, instructions, DMA packets */
	ck_assert_int_eq(count_events(out, "C", "S[3]"), 29);
	/* the Perfetto file skips and counts the same */
	ck_assert_int_eq(ts[1].bad_records, bad);
	nxp_profile_close(p);
}
END_TEST

/* Queues that take turns record by record (the NTFF merge's block path), with
 * ties, records failing their checks, keys going back and sections of 4
 * records: both formats hold one slice per good record the cursors return
 * and count their bad records. */
START_TEST(test_interleaved_records)
{
	char path[512], out[512];
	snprintf(path, sizeof(path), "%s/mix.ntff", dir);
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer_options wo;
	nxp_ntff_writer_options_init(&wo);
	wo.records_per_section = 4;
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, &wo, NULL), 0);
	ntff_writer_set_unchecked(w, 1);
	int64_t name = nxp_ntff_writer_string(w, "mix.neff");
	ck_assert_int_gt(name, 0);
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_EXECUTION;
	int32_t xq = nxp_ntff_writer_add_queue(w, &q);
	ck_assert_int_ge(xq, 0);
	nxp_ntff_execution_note x = {1000, 1000000, 0, 1, (uint32_t)name, 10};
	ck_assert_int_eq(nxp_ntff_writer_execution(w, xq, &x), 0);
	enum { NI = 3, ND = 2, N = 90 };
	int32_t iq[NI], dq[ND];
	static const nxp_engine engines[NI] = {NXP_ENGINE_TENSOR, NXP_ENGINE_VECTOR, NXP_ENGINE_SCALAR};
	static const char *const qnames[ND] = {"qSyncIO", "qPoolIO"};
	for (int e = 0; e < NI; e++) {
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_INSTRUCTION;
		q.engine = engines[e];
		ck_assert_int_ge(iq[e] = nxp_ntff_writer_add_queue(w, &q), 0);
	}
	for (int j = 0; j < ND; j++) {
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_DMA;
		q.name = qnames[j];
		ck_assert_int_ge(dq[j] = nxp_ntff_writer_add_queue(w, &q), 0);
	}
	for (int i = 0; i < N; i++) {
		uint64_t t = 2000 + 1000 * (uint64_t)i;
		for (int e = 0; e < NI; e++) {
			uint64_t s0 = t + (uint64_t)(e % 2) * 300; /* engines 0 and 2 tie */
			nxp_ntff_instruction_note n = {s0, s0 + 200, (uint32_t)i, 0, 0};
			if ((i + e) % 11 == 4)
				n.end_tick = s0 - 1; /* ends before it starts: bad */
			if ((i * 3 + e) % 23 == 9)
				n.start_tick = n.end_tick = s0 - 2500; /* goes back */
			ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq[e], &n), 0);
		}
		for (int j = 0; j < ND; j++) {
			nxp_ntff_dma_note d;
			memset(&d, 0, sizeof(d));
			d.start_tick = t + 100 + 300 * (uint64_t)j;
			d.end_tick = d.start_tick + 250;
			d.read_bytes = d.write_bytes = 4096;
			d.source = NXP_MEMORY_HBM;
			d.dest = (i + j) % 7 == 2 ? 9 : NXP_MEMORY_HBM; /* no such memory: bad */
			ck_assert_int_eq(nxp_ntff_writer_dma(w, dq[j], &d), 0);
		}
	}
	nxp_profile *p = finish_open(w, path);
	/* what the cursors return and skip */
	int64_t good = 0, bad = 0;
	static const int tables[] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET};
	for (int k = 0; k < 2; k++) {
		nxp_cursor *c;
		ck_assert_int_eq(nxp_cursor_open(&c, p, tables[k], NULL, NULL), 0);
		if (k == 0) {
			nxp_instruction r;
			r.struct_size = sizeof(r);
			while (nxp_cursor_next_instruction(c, &r) == 0)
				good++;
		} else {
			nxp_dma_packet r;
			r.struct_size = sizeof(r);
			while (nxp_cursor_next_dma_packet(c, &r) == 0)
				good++;
		}
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		nxp_cursor_get_stats(c, &cs);
		nxp_cursor_close(c);
		ck_assert_int_gt(cs.bad_records, 3);
		bad += cs.bad_records;
	}
	nxp_timeline_stats ts[2];
	export_json_pftrace(p, "mix", out, ts);
	ck_assert_int_eq(ts[0].bad_records, bad);
	ck_assert_int_eq(ts[0].read_errors, 0);
	/* the execution, then every good instruction and DMA packet */
	ck_assert_int_eq(count_events(out, "X", NULL), 1 + good);
	ck_assert_int_eq(ts[1].bad_records, bad);
	nxp_profile_close(p);
}
END_TEST

START_TEST(test_capture_misuse)
{
	nxp_status st;
	nxp_status_init(&st);
	char out[512], missing[512];
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(missing, sizeof(missing), "%s/no-such-capture", dir);
	ck_assert_int_eq(nxp_capture_export_timeline(NULL, out, NULL, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_capture_export_timeline(dir, NULL, NULL, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_capture_export_timeline(dir, "", NULL, NULL, NULL), NXP_E_INVAL);
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	o.format = NXP_TIMELINE_CHROME_JSON;
	ck_assert_int_eq(nxp_capture_export_timeline(dir, out, &o, NULL, &st), NXP_E_INVAL);
	ck_assert(strstr(st.message, "Perfetto") != NULL);
	nxp_timeline_options_init(&o);
	o.struct_size = NXP_TIMELINE_OPTIONS_SIZE_V0_2 - 1;
	ck_assert_int_eq(nxp_capture_export_timeline(dir, out, &o, NULL, &st), NXP_E_INVAL);
	nxp_timeline_stats ts;
	ts.struct_size = 8;
	ck_assert_int_eq(nxp_capture_export_timeline(dir, out, NULL, &ts, &st), NXP_E_INVAL);
	ck_assert_int_ne(nxp_capture_export_timeline(missing, out, NULL, NULL, &st), 0);
	ck_assert(st.message[0] != 0);
	struct stat sb;
	ck_assert_int_ne(stat(out, &sb), 0); /* nothing created by any of these */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("timeline");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_misuse);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_chrome_counts);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_flows);
	tcase_add_test(tc, test_capture_misuse);
	tcase_add_test(tc, test_bad_records);
	tcase_add_test(tc, test_interleaved_records);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
