/* SPDX-License-Identifier: MIT */
/* A program built against the 0.1 headers (abi/include-0.1, frozen copies of
 * release f97395e's include/nxp) run against the current library: every struct
 * it passes has the 0.1 size.  Values are compared with what the current
 * headers' API reports (abi_compat_current.c).  Usage: abi_compat_0_1 SAMPLES_DIR */
#include <nxp/nxp.h> /* the 0.1 one: this file is compiled with -I abi/include-0.1 only */

#include "abi_compat_current.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first published sizes the current headers record (NXP_*_SIZE_V0_1, checked
 * in tests/test_abi.c) are the 0.1 layout's: the end of its last field. */
#define END(T, f) (offsetof(T, f) + sizeof(((T *)0)->f))
#if defined(__LP64__) || defined(_LP64)
_Static_assert(END(nxp_neff_header, payload_gzip) == 580, "0.1 nxp_neff_header");
_Static_assert(END(nxp_neff_subgraph, instruction_count) == 88, "0.1 nxp_neff_subgraph");
_Static_assert(END(nxp_tensor_info, file_name) == 72, "0.1 nxp_tensor_info");
_Static_assert(END(nxp_dma_queue_info, dram_channel) == 80, "0.1 nxp_dma_queue_info");
_Static_assert(END(nxp_neff_instruction, psum_read_sbuf_write_bytes) == 304, "0.1 nxp_neff_instruction");
_Static_assert(END(nxp_neff_writer_options, feature_bits) == 88, "0.1 nxp_neff_writer_options");
_Static_assert(END(nxp_neff_options, max_members) == 56, "0.1 nxp_neff_options");
_Static_assert(END(nxp_status, message) == 280, "0.1 nxp_status");
_Static_assert(END(nxp_source_callbacks, close) == 40, "0.1 nxp_source_callbacks");
_Static_assert(END(nxp_profile_options, max_section_size) == 32, "0.1 nxp_profile_options");
_Static_assert(END(nxp_metadata, tpb_damaged) == 344, "0.1 nxp_metadata");
_Static_assert(END(nxp_instruction, flags) == 260, "0.1 nxp_instruction");
_Static_assert(END(nxp_dma_packet, dest) == 168, "0.1 nxp_dma_packet");
_Static_assert(END(nxp_semaphore_update, pcore_idx) == 72, "0.1 nxp_semaphore_update");
_Static_assert(END(nxp_throttle, pcore_idx) == 48, "0.1 nxp_throttle");
_Static_assert(END(nxp_error_record, pcore_idx) == 64, "0.1 nxp_error_record");
_Static_assert(END(nxp_execution, pcore_idx) == 64, "0.1 nxp_execution");
_Static_assert(END(nxp_active_time, pcore_idx) == 56, "0.1 nxp_active_time");
_Static_assert(END(nxp_cursor_options, queue_name) == 48, "0.1 nxp_cursor_options");
_Static_assert(END(nxp_cursor_stats, unknown_pcs) == 56, "0.1 nxp_cursor_stats");
_Static_assert(END(nxp_ntff_writer_options, compression_level) == 20, "0.1 nxp_ntff_writer_options");
_Static_assert(END(nxp_ntff_info, is_simulation) == 268, "0.1 nxp_ntff_info");
_Static_assert(END(nxp_ntff_queue, engine_idx) == 40, "0.1 nxp_ntff_queue");
_Static_assert(END(nxp_hardware, num_physical_cores) == 108, "0.1 nxp_hardware");
_Static_assert(END(nxp_summary_field, derived) == 64, "0.1 nxp_summary_field");
_Static_assert(END(nxp_opcode_summary, active_time_percent) == 56, "0.1 nxp_opcode_summary");
_Static_assert(END(nxp_throttle_summary, max_achievable_util_with_throttling_percent) == 48, "0.1 nxp_throttle_summary");
_Static_assert(END(nxp_system_options, instance_id) == 48, "0.1 nxp_system_options");
_Static_assert(END(nxp_system_event, offset) == 224, "0.1 nxp_system_event");
_Static_assert(END(nxp_system_stats, peak_pending) == 96, "0.1 nxp_system_stats");
_Static_assert(END(nxp_cpu_usage, instance_id) == 40, "0.1 nxp_cpu_usage");
_Static_assert(END(nxp_host_mem_usage, total_bytes) == 48, "0.1 nxp_host_mem_usage");
_Static_assert(END(nxp_system_metadata, data_version) == 136, "0.1 nxp_system_metadata");
_Static_assert(END(nxp_capture_file, uuid) == 100, "0.1 nxp_capture_file");
_Static_assert(END(nxp_capture_process, complete) == 84, "0.1 nxp_capture_process");
_Static_assert(END(nxp_capture_profile, nc_idx) == 48, "0.1 nxp_capture_profile");
_Static_assert(END(nxp_sysprof_writer_options, instance_id) == 64, "0.1 nxp_sysprof_writer_options");
_Static_assert(END(nxp_ntrace_event, n_attributes) == 136, "0.1 nxp_ntrace_event");
#endif

static int failures;
#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                             \
		}                                                               \
	} while (0)

static char neff_path[4096], ntff_path[4096];

static void neff_getters(void)
{
	char name[257];
	uint64_t data_size = 0;
	size_t nsg = 0, nt = 0, nq = 0;
	CHECK(cur_neff_facts(neff_path, name, &data_size, &nsg, &nt, &nq) == 0);

	nxp_neff_options o;
	nxp_neff_options_init(&o);
	nxp_neff *n = NULL;
	nxp_status st;
	nxp_status_init(&st);
	CHECK(nxp_neff_open_path(&n, neff_path, &o, &st) == NXP_OK);
	if (!n)
		return;
	nxp_neff_header h;
	h.struct_size = sizeof(h);
	CHECK(nxp_neff_get_header(n, &h) == NXP_OK);
	CHECK(h.struct_size == sizeof(h));
	CHECK(strcmp(h.name, name) == 0);
	CHECK(h.data_size == data_size);
	CHECK(nxp_neff_subgraph_count(n) == nsg && nsg > 0);
	for (size_t i = 0; i < nsg; i++) {
		nxp_neff_subgraph s;
		s.struct_size = sizeof(s);
		CHECK(nxp_neff_get_subgraph(n, i, &s) == NXP_OK);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			CHECK(s.instruction_count[e] == (uint64_t)cur_instruction_count(neff_path, i, e));
			if (s.instruction_count[e] == 0)
				continue;
			nxp_neff_instruction in;
			in.struct_size = sizeof(in);
			uint32_t op = 0;
			int64_t pcore = -1;
			CHECK(nxp_neff_get_instruction(n, i, e, 0, &in) == NXP_OK);
			CHECK(cur_instruction(neff_path, i, e, 0, &op, &pcore) == 0);
			CHECK(in.opcode_num == op && in.pcore_idx == pcore && in.pc == 0);
		}
	}
	CHECK(nxp_neff_tensor_count(n) == nt);
	for (size_t i = 0; i < nt; i++) {
		nxp_tensor_info t;
		t.struct_size = sizeof(t);
		CHECK(nxp_neff_get_tensor(n, i, &t) == NXP_OK);
		CHECK(t.variable_name != NULL && t.type != NULL);
	}
	CHECK(nxp_neff_dma_queue_count(n) == nq);
	for (size_t i = 0; i < nq; i++) {
		nxp_dma_queue_info q;
		q.struct_size = sizeof(q);
		CHECK(nxp_neff_get_dma_queue(n, i, &q) == NXP_OK);
		CHECK(q.name != NULL && q.name[0]);
	}
	nxp_neff_close(n);
}

/* Every table: typed next and next_batch give the count the current API gives. */
static int64_t count_typed(nxp_profile *p, int table)
{
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	nxp_cursor *c = NULL;
	if (nxp_cursor_open(&c, p, table, &co, NULL) != NXP_OK)
		return -1;
	int64_t n = 0, prev = INT64_MIN;
	int rc;
	for (;;) {
		int64_t ts = 0;
		switch (table) {
		case NXP_TABLE_INSTRUCTION: {
			nxp_instruction r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_instruction(c, &r);
			ts = r.start_ts;
			if (rc == NXP_OK && (r.struct_size != sizeof(r) || r.opcode == NULL))
				rc = -100;
			break;
		}
		case NXP_TABLE_DMA_PACKET: {
			nxp_dma_packet r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_dma_packet(c, &r);
			ts = r.start_ts;
			break;
		}
		case NXP_TABLE_SEMAPHORE_UPDATE: {
			nxp_semaphore_update r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_semaphore_update(c, &r);
			ts = r.timestamp;
			break;
		}
		case NXP_TABLE_THROTTLE: {
			nxp_throttle r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_throttle(c, &r);
			ts = r.timestamp;
			break;
		}
		case NXP_TABLE_ERROR: {
			nxp_error_record r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_error(c, &r);
			ts = r.timestamp;
			break;
		}
		case NXP_TABLE_EXECUTION: {
			nxp_execution r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_execution(c, &r);
			ts = prev; /* not ordered by a timestamp field */
			break;
		}
		default: {
			nxp_active_time r;
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_active_time(c, &r);
			ts = prev; /* ordered per engine, not globally */
			break;
		}
		}
		if (rc != NXP_OK)
			break;
		if (ts < prev)
			rc = -101; /* the merge is ordered by time */
		if (rc != NXP_OK)
			break;
		prev = ts;
		n++;
	}
	nxp_cursor_stats cs;
	cs.struct_size = sizeof(cs);
	if (nxp_cursor_get_stats(c, &cs) != NXP_OK)
		rc = -102;
	nxp_cursor_close(c);
	return rc == NXP_END ? n : rc;
}

static int64_t count_batch(nxp_profile *p, int table)
{
	static const size_t sizes[] = {0, sizeof(nxp_instruction), sizeof(nxp_dma_packet),
				       sizeof(nxp_semaphore_update), sizeof(nxp_throttle), sizeof(nxp_error_record),
				       sizeof(nxp_execution), sizeof(nxp_active_time)};
	size_t rs = sizes[table];
	nxp_cursor *c = NULL;
	if (nxp_cursor_open(&c, p, table, NULL, NULL) != NXP_OK)
		return -1;
	unsigned char *buf = calloc(64, rs);
	int64_t n = 0;
	int rc;
	size_t got = 0;
	while ((rc = nxp_cursor_next_batch(c, buf, rs, 64, &got)) == NXP_OK) {
		for (size_t i = 0; i < got; i++) {
			size_t ss;
			memcpy(&ss, buf + i * rs, sizeof(ss));
			if (ss != rs)
				rc = -103;
		}
		n += (int64_t)got;
		if (rc != NXP_OK)
			break;
	}
	free(buf);
	nxp_cursor_close(c);
	return rc == NXP_END ? n : rc;
}

static void profile_and_summary(void)
{
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	nxp_profile *p = NULL;
	CHECK(nxp_profile_open_path(&p, neff_path, ntff_path, &po, NULL) == NXP_OK);
	if (!p)
		return;
	nxp_metadata md;
	md.struct_size = sizeof(md);
	CHECK(nxp_profile_get_metadata(p, &md) == NXP_OK);
	CHECK(md.num_physical_cores >= 1);
	for (int t = NXP_TABLE_INSTRUCTION; t <= NXP_TABLE_ACTIVE_TIME; t++) {
		int64_t want = cur_table_count(neff_path, ntff_path, t);
		int64_t typed = count_typed(p, t), batch = count_batch(p, t);
		if (typed != want || batch != want)
			fprintf(stderr, "table %d: current %lld, typed %lld, batch %lld\n", t, (long long)want,
				(long long)typed, (long long)batch);
		CHECK(want >= 0 && typed == want && batch == want);
		if (t == NXP_TABLE_INSTRUCTION)
			CHECK(want > 0);
	}

	nxp_hardware hw;
	hw.struct_size = sizeof(hw);
	CHECK(nxp_hardware_for_arch("trn2", &hw) == NXP_OK);
	CHECK(hw.fp8_flops_multiplier == 0.5);
	CHECK(nxp_hardware_max_ops(&hw) > 0.0);
	nxp_summary *s = NULL;
	CHECK(nxp_profile_summarize(p, NULL, &s, NULL) == NXP_OK);
	if (s) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		CHECK(nxp_summary_find(s, "total_time", &f) == NXP_OK);
		double want = cur_summary_field(neff_path, ntff_path, "total_time");
		CHECK(f.f == want && !isnan(want));
		CHECK(nxp_summary_field_count(s) > 0);
		CHECK(nxp_summary_get_field(s, 0, &f) == NXP_OK && f.name != NULL);
		nxp_hardware sh;
		sh.struct_size = sizeof(sh);
		CHECK(nxp_summary_get_hardware(s, &sh) == NXP_OK);
		for (size_t i = 0; i < nxp_summary_opcode_count(s); i++) {
			nxp_opcode_summary os;
			os.struct_size = sizeof(os);
			CHECK(nxp_summary_get_opcode(s, i, &os) == NXP_OK);
		}
		for (size_t i = 0; i < nxp_summary_throttle_count(s); i++) {
			nxp_throttle_summary ts;
			ts.struct_size = sizeof(ts);
			CHECK(nxp_summary_get_throttle(s, i, &ts) == NXP_OK);
		}
		nxp_summary_close(s);
	}
	nxp_profile_close(p);
}

static void writers(const char *dir)
{
	char path[4200];
	/* NEFF writer with 0.1 options, read back through the 0.1 API */
	nxp_neff_writer_options wo;
	nxp_neff_writer_options_init(&wo);
	wo.name = "abi-0.1";
	nxp_neff_writer *nw = NULL;
	CHECK(nxp_neff_writer_open(&nw, &wo, NULL) == NXP_OK);
	if (nw) {
		static const char def[] = "{}";
		snprintf(path, sizeof(path), "%s/w.neff", dir);
		(void)nxp_neff_writer_add(nw, "sg00/def.json", def, sizeof(def) - 1);
		int rc = nxp_neff_writer_save(nw, path);
		CHECK(rc == NXP_OK);
		nxp_neff_writer_close(nw);
		uint8_t raw[1024];
		FILE *f = fopen(path, "rb");
		CHECK(f && fread(raw, 1, sizeof(raw), f) == sizeof(raw));
		if (f)
			fclose(f);
		nxp_neff_header h;
		h.struct_size = sizeof(h);
		CHECK(nxp_neff_parse_header(raw, sizeof(raw), -1, &h, NULL) == NXP_OK);
		CHECK(strcmp(h.name, "abi-0.1") == 0);
	}

	/* NTFF writer with 0.1 info, options and queue */
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	info.arch = "trn2";
	nxp_ntff_writer_options to;
	nxp_ntff_writer_options_init(&to);
	to.records_per_section = 16;
	nxp_ntff_writer *tw = NULL;
	snprintf(path, sizeof(path), "%s/w.ntff", dir);
	CHECK(nxp_ntff_writer_open_path(&tw, path, &info, &to, NULL) == NXP_OK);
	if (tw) {
		nxp_ntff_queue q;
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_INSTRUCTION;
		q.engine = 0;
		int32_t qi = nxp_ntff_writer_add_queue(tw, &q);
		CHECK(qi >= 0);
		for (uint32_t i = 0; i < 40; i++) {
			nxp_ntff_instruction_note note = {.start_tick = 10 * i, .end_tick = 10 * i + 5, .pc = i,
							  .wait_ticks = 0, .execution_index = -1};
			CHECK(nxp_ntff_writer_instruction(tw, qi, &note) == NXP_OK);
		}
		CHECK(nxp_ntff_writer_finish(tw) == NXP_OK);
		nxp_ntff_writer_close(tw);
	}

	/* trace_info.pb written from a 0.1 nxp_system_metadata, read back */
	nxp_system_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	md.first_ts_ns = md.last_ts_ns = md.ntff_version = md.hbm_capacity_bytes = -1;
	md.pid = 4242;
	md.session_id = md.logical_nc_size = md.num_neuron_cores = md.data_version = -1;
	md.instance_id = "i-abi";
	md.arch = "trn2";
	snprintf(path, sizeof(path), "%s/trace_info.pb", dir);
	CHECK(nxp_trace_info_write(path, &md, 0, NULL) == NXP_OK);
	nxp_source *src = NULL;
	nxp_system_options so;
	nxp_system_options_init(&so);
	CHECK(nxp_source_open_path(&src, path, NULL) == NXP_OK);
	nxp_trace_info *ti = NULL;
	CHECK(src && nxp_trace_info_open(&ti, src, &so, NULL) == NXP_OK);
	if (ti) {
		nxp_system_metadata back;
		back.struct_size = sizeof(back);
		CHECK(nxp_trace_info_get(ti, &back) == NXP_OK);
		CHECK(back.pid == 4242);
		CHECK(back.instance_id && strcmp(back.instance_id, "i-abi") == 0);
		CHECK(back.arch && strcmp(back.arch, "trn2") == 0);
		nxp_trace_info_close(ti);
	}
	nxp_source_close(src);

	/* system-profile writer with 0.1 options, read back */
	nxp_sysprof_writer_options sw;
	nxp_sysprof_writer_options_init(&sw);
	sw.instance_id = "i-abi";
	nxp_sysprof_writer *w = NULL;
	snprintf(path, sizeof(path), "%s/cpu_util.pb", dir);
	CHECK(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_CPU_UTIL, &sw, NULL) == NXP_OK);
	if (w) {
		nxp_cpu_usage u;
		memset(&u, 0, sizeof(u));
		u.struct_size = sizeof(u);
		u.timestamp = 1000;
		u.cpu_id = "3";
		u.util_percent = 12.5;
		CHECK(nxp_sysprof_writer_cpu(w, &u) == NXP_OK);
		CHECK(nxp_sysprof_writer_finish(w) == NXP_OK);
		nxp_sysprof_writer_close(w);
		src = NULL;
		CHECK(nxp_source_open_path(&src, path, NULL) == NXP_OK);
		nxp_host_stats *hs = NULL;
		CHECK(src && nxp_host_stats_open(&hs, src, NXP_SYSFILE_CPU_UTIL, &so, NULL) == NXP_OK);
		if (hs) {
			nxp_cpu_usage r;
			r.struct_size = sizeof(r);
			CHECK(nxp_host_stats_next_cpu(hs, &r) == NXP_OK);
			CHECK(r.cpu_id && strcmp(r.cpu_id, "3") == 0 && r.util_percent == 12.5 && r.timestamp == 1000);
			nxp_host_stats_close(hs);
		}
		nxp_source_close(src);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SAMPLES_DIR\n", argv[0]);
		return 2;
	}
	snprintf(neff_path, sizeof(neff_path), "%s/demo.neff", argv[1]);
	snprintf(ntff_path, sizeof(ntff_path), "%s/demo.ntff", argv[1]);
	char dir[] = "/tmp/nxp-abi-XXXXXX";
	const char *tmp = mkdtemp(dir);
	if (!tmp)
		return 2;
	neff_getters();
	profile_and_summary();
	writers(tmp);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		failures++;
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
