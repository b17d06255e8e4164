/* SPDX-License-Identifier: MIT */
/*
 * Seed-corpus generator (a build step): `gen_corpus OUTDIR STAMP NAME...`
 * writes OUTDIR/<NAME>/seed-* for every harness NAME, using the library's own
 * writers, so no corpus is a committed blob.  Seeds are framed the way each
 * harness reads its input (fuzz_common.h), and include a few truncated and
 * mutated variants next to the valid files.  An unknown NAME is an error: every
 * harness must have a generator entry in `generators` below.
 */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static const char *outdir;
static const char *cur_name;
static unsigned cur_count;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "gen_corpus: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static char *path_of(const char *name)
{
	size_t len = strlen(outdir) + strlen(cur_name) + strlen(name) + 3;
	char *p = malloc(len);
	if (!p)
		die("out of memory");
	snprintf(p, len, "%s/%s/%s", outdir, cur_name, name);
	return p;
}

/* Write one seed (already framed) under the current harness directory. */
static void put_raw(const char *label, const void *data, size_t len)
{
	char name[128];
	snprintf(name, sizeof(name), "seed-%03u-%s", cur_count++, label);
	char *p = path_of(name);
	FILE *f = fopen(p, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
		die("cannot write %s: %s", p, strerror(errno));
	free(p);
}

/* Write a seed: harness parameter bytes, then a single-file frame. */
static void put_single(const char *label, const void *params, size_t np, uint8_t ctl, const void *file,
		       size_t len)
{
	size_t flen;
	uint8_t *framed = fz_frame_single(ctl, file, len, &flen);
	uint8_t *buf = malloc(np + flen);
	if (!framed || !buf)
		die("out of memory");
	if (np)
		memcpy(buf, params, np);
	memcpy(buf + np, framed, flen);
	put_raw(label, buf, np + flen);
	free(buf);
	free(framed);
}

/* The usual set of variants of a valid file: whole (memory, chunked seekable,
 * chunked sequential), truncated at a few points, and a few bytes flipped. */
static void put_variants(const char *label, const void *params, size_t np, const uint8_t *file, size_t len)
{
	char l[96];
	snprintf(l, sizeof(l), "%s-mem", label);
	put_single(l, params, np, FZ_CTL_PLAIN_MEMORY, file, len);
	snprintf(l, sizeof(l), "%s-seek", label);
	put_single(l, params, np, FZ_CTL_PLAIN_SEEKABLE, file, len);
	snprintf(l, sizeof(l), "%s-seq", label);
	put_single(l, params, np, FZ_CTL_PLAIN_SEQUENTIAL, file, len);
	snprintf(l, sizeof(l), "%s-ioerr", label);
	put_single(l, params, np, FZ_CHUNK_4K | FZ_CTL_SEEKABLE | FZ_CTL_IO_ERROR | 0x80, file, len);
	static const unsigned cuts[] = {1, 3, 5, 7};
	for (unsigned i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		size_t cut = len * cuts[i] / 8;
		snprintf(l, sizeof(l), "%s-trunc%zu", label, cut);
		put_single(l, params, np, FZ_CTL_PLAIN_MEMORY, file, cut);
	}
	uint8_t *m = malloc(len ? len : 1);
	if (!m)
		die("out of memory");
	for (unsigned i = 0; i < 3 && len; i++) {
		memcpy(m, file, len);
		size_t at = (size_t)((uint64_t)len * (2 * i + 1) / 7);
		m[at] ^= (uint8_t)(0x5a + i);
		snprintf(l, sizeof(l), "%s-flip%zu", label, at);
		put_single(l, params, np, FZ_CTL_PLAIN_MEMORY, m, len);
	}
	free(m);
}

/* ---- generators: one per harness ------------------------------------------ */

static void need(int rc, const char *what)
{
	if (rc < 0)
		die("%s failed: %s", what, nxp_strerror(rc));
}

static uint8_t *read_back(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot reopen %s", path);
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf)
			die("out of memory");
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* A scratch file path inside the output directory (removed by the caller). */
static char *scratch(const char *name)
{
	size_t len = strlen(outdir) + strlen(name) + 16;
	char *p = malloc(len);
	if (!p)
		die("out of memory");
	snprintf(p, len, "%s/.tmp-%s", outdir, name);
	return p;
}

static uint8_t *fixture_neff(int plain, size_t *len)
{
	uint8_t *d = NULL;
	need(fz_fixture_neff(plain, &d, len), "fixture NEFF");
	return d;
}

static uint8_t *fixture_ntff(int variant, size_t *len)
{
	uint8_t *d = NULL;
	need(fz_fixture_ntff_memory(variant, &d, len), "fixture NTFF");
	return d;
}

static void st_u64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The seeds are only useful if the fixture decodes: check it with the readers,
 * so a reader/writer disagreement fails the build instead of silently giving
 * the fuzzers a corpus of rejects. */
static void verify_fixture(void)
{
	for (int plain = 0; plain < 2; plain++) {
		size_t len;
		uint8_t *neff = fixture_neff(plain, &len);
		nxp_source *src = NULL;
		nxp_neff *n = NULL;
		nxp_status st;
		nxp_status_init(&st);
		need(nxp_source_open_memory(&src, neff, len, &st), "memory source");
		if (nxp_neff_open(&n, src, NULL, &st) != NXP_OK)
			die("the fixture NEFF does not open: %s (offset %lld)", st.message, (long long)st.offset);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++)
			if (nxp_neff_instruction_count(n, 0, e) != (int64_t)FZ_FIXTURE_PCS[e])
				die("the fixture NEFF has %lld instructions on engine %d, expected %u",
				    (long long)nxp_neff_instruction_count(n, 0, e), e, FZ_FIXTURE_PCS[e]);
		nxp_neff_close(n);
		nxp_source_close(src);
		free(neff);
	}
	for (int v = 0; v < FZ_NTFF_VARIANT_COUNT; v++) {
		size_t len;
		uint8_t *ntff = fixture_ntff(v, &len);
		nxp_source *src = NULL, *neff = NULL;
		nxp_profile *p = NULL;
		nxp_status st;
		nxp_status_init(&st);
		need(nxp_source_open_memory(&src, ntff, len, &st), "memory source");
		if (fz_fixture_profile_open(&p, &neff, src, NULL, &st) != NXP_OK)
			die("the fixture NTFF %d does not open: %s (offset %lld)", v, st.message, (long long)st.offset);
		nxp_cursor *c = NULL;
		need(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, &st), "cursor");
		nxp_instruction r;
		r.struct_size = sizeof(r);
		int64_t n = 0;
		int rc;
		while ((rc = nxp_cursor_next_instruction(c, &r)) == NXP_OK) {
			if (r.flags & NXP_INSTRUCTION_PC_UNKNOWN)
				die("fixture NTFF %d: pc %lld not joined with the NEFF", v, (long long)r.pc);
			n++;
		}
		if (rc != NXP_END || (v != FZ_NTFF_EMPTY && n == 0))
			die("fixture NTFF %d: instruction cursor gave %lld records, then %s", v, (long long)n,
			    nxp_strerror(rc));
		nxp_cursor_close(c);
		nxp_profile_close(p);
		nxp_source_close(neff);
		nxp_source_close(src);
		free(ntff);
	}
}

static void gen_neff_header(void)
{
	size_t len;
	uint8_t *neff = fixture_neff(0, &len);
	uint8_t *buf = malloc(len + 1);
	if (!buf)
		die("out of memory");
	static const uint8_t modes[] = {0, 1, 2, 3, 4};
	for (size_t i = 0; i < sizeof(modes); i++) {
		char l[32];
		snprintf(l, sizeof(l), "whole-mode%u", modes[i]);
		buf[0] = modes[i];
		memcpy(buf + 1, neff, len);
		put_raw(l, buf, len + 1);
	}
	buf[0] = 1;
	put_raw("header-only", buf, 1 + NXP_NEFF_HEADER_SIZE);
	put_raw("short", buf, NXP_NEFF_HEADER_SIZE);
	/* Field edits the decoder must refuse or accept (header_size, data_size, versions). */
	static const struct {
		const char *label;
		size_t off;
		uint64_t v;
	} edits[] = {
		{"hdrsize512", 0x008, 512}, {"datasize0", 0x010, 0}, {"datasize-max", 0x010, UINT64_MAX},
		{"major3", 0x018, 3},      {"pkg0", 0x000, 0},       {"pkg1", 0x000, 1},
	};
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		buf[0] = 0;
		memcpy(buf + 1, neff, len);
		st_u64(buf + 1 + edits[i].off, edits[i].v);
		put_raw(edits[i].label, buf, len + 1);
	}
	free(buf);
	free(neff);
}

static void gen_instruction(void)
{
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		/* The fixture's own encodings: round-trip them through the writer's encoder. */
		nxp_neff_instruction in;
		memset(&in, 0, sizeof(in));
		in.struct_size = sizeof(in);
		in.engine = e;
		static const unsigned ops[] = {0x01, 0x02, 0x21, 0x41, 0x43, 0x46, 0x49, 0xA0, 0xB8, 0xC1, 0x77};
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			uint8_t seed[2 + NXP_NEFF_INSTRUCTION_SIZE];
			in.opcode_num = ops[k];
			in.wait_mode = 1;
			in.wait_idx = 15;
			in.update_mode = (uint8_t)(k % 3);
			in.semaphore_value = (uint32_t)k;
			in.src.address = 0x10000000u + (uint32_t)k * 64;
			in.src.dtype = (uint8_t)(k % 8);
			in.src.num_elem[0] = 128;
			in.src.step_elem[0] = 1;
			in.dst.address = (k & 1) ? 0x2000000u : 0x4000u;
			in.dst.dtype = (uint8_t)(k % 5);
			in.dst.num_elem[0] = 64;
			in.dst.step_elem[0] = (int16_t)-1;
			in.flags = (uint8_t)(k & 0xf);
			in.partitions = 128;
			need(nxp_instruction_encode(&in, seed + 2), "instruction encode");
			seed[0] = (uint8_t)e;
			seed[1] = 0xff;
			char l[32];
			snprintf(l, sizeof(l), "e%d-op%02x", e, ops[k]);
			put_raw(l, seed, sizeof(seed));
			seed[1] = 9; /* a short text buffer */
			snprintf(l, sizeof(l), "e%d-op%02x-short", e, ops[k]);
			put_raw(l, seed, sizeof(seed));
		}
	}
}

static void gen_neff(void)
{
	size_t len, plen;
	uint8_t *neff = fixture_neff(0, &len);
	uint8_t *plain = fixture_neff(1, &plen);
	uint8_t o = 0;
	put_variants("gz", &o, 1, neff, len);
	put_variants("tar", &o, 1, plain, plen);
	o = 1;
	put_single("gz-verify", &o, 1, FZ_CTL_PLAIN_MEMORY, neff, len);
	put_single("tar-verify", &o, 1, FZ_CTL_PLAIN_SEQUENTIAL, plain, plen);
	o = 2;
	put_single("gz-limits", &o, 1, FZ_CTL_PLAIN_MEMORY, neff, len);
	put_single("tar-limits", &o, 1, FZ_CTL_PLAIN_MEMORY, plain, plen);
	free(neff);
	free(plain);
}

static void gen_ntff(void)
{
	for (int v = 0; v < FZ_NTFF_VARIANT_COUNT; v++) {
		size_t len;
		uint8_t *ntff = fixture_ntff(v, &len);
		char l[32];
		snprintf(l, sizeof(l), "v%d", v);
		uint8_t f = 0;
		put_variants(l, &f, 1, ntff, len);
		f = 1; /* SKIP_CRC: mutations reach the records */
		snprintf(l, sizeof(l), "v%d-nocrc", v);
		put_single(l, &f, 1, FZ_CTL_PLAIN_MEMORY, ntff, len);
		f = 4;
		snprintf(l, sizeof(l), "v%d-smallsec", v);
		put_single(l, &f, 1, FZ_CTL_PLAIN_MEMORY, ntff, len);
		free(ntff);
	}
}

static void gen_cursor(void)
{
	size_t blen, slen;
	uint8_t *basic = fixture_ntff(FZ_NTFF_BASIC, &blen);
	uint8_t *small = fixture_ntff(FZ_NTFF_SMALL_SECTIONS, &slen);
	static const struct {
		uint8_t flags, engine, pcore, queue, first;
		int64_t start, end, seek;
	} cfg[] = {
		{0x01, 0xff, 0xff, 0, 0, 0, 0, 0},
		{0x11, 0xff, 0xff, 0, 0, 0, 0, 0},             /* batches */
		{0x09, 0xff, 0xff, 0, 3, 0, 0, 6000},          /* seek after 3 records */
		{0x07, 0x00, 0x00, 0, 0, 2000, 12000, 0},      /* window, tensor engine, core 0 */
		{0x0f, 0xff, 0xff, 1, 2, 1000, 30000, 11000},  /* IN_QUE, window and seek */
		{0x08, 0x04, 0xff, 2, 1, 0, 0, INT64_MAX},     /* seek past the end */
	};
	for (int t = 0; t < 7; t++) {
		for (size_t k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
			uint8_t params[6 + 24];
			params[0] = (uint8_t)t;
			params[1] = cfg[k].flags;
			params[2] = cfg[k].engine;
			params[3] = cfg[k].pcore;
			params[4] = cfg[k].queue;
			params[5] = cfg[k].first;
			st_u64(params + 6, (uint64_t)cfg[k].start);
			st_u64(params + 14, (uint64_t)cfg[k].end);
			st_u64(params + 22, (uint64_t)cfg[k].seek);
			char l[32];
			snprintf(l, sizeof(l), "t%d-c%zu", t + 1, k);
			put_single(l, params, sizeof(params), (k & 1) ? FZ_CTL_PLAIN_SEEKABLE : FZ_CTL_PLAIN_MEMORY,
				   (k % 3 == 2) ? small : basic, (k % 3 == 2) ? slen : blen);
		}
		/* batches over many small sections with a bad region in the middle
		 * of the file: a read error while the cursor moves on */
		for (unsigned r = 0; r < 4; r++) {
			uint8_t params[6 + 24] = {(uint8_t)t, 0x11, 0xff, 0xff, 0, 0};
			char l[32];
			snprintf(l, sizeof(l), "t%d-ioerr%u", t + 1, r);
			put_single(l, params, sizeof(params),
				   (uint8_t)(FZ_CHUNK_4K | FZ_CTL_SEEKABLE | FZ_CTL_IO_ERROR | (r << 6)), small, slen);
		}
	}
	free(basic);
	free(small);
}

static void gen_summary(void)
{
	for (int v = 0; v < FZ_NTFF_VARIANT_COUNT; v++) {
		size_t len;
		uint8_t *ntff = fixture_ntff(v, &len);
		char l[32];
		uint8_t mode = (uint8_t)(v == FZ_NTFF_BASIC ? 4 : 0);
		snprintf(l, sizeof(l), "v%d", v);
		put_single(l, &mode, 1, FZ_CTL_PLAIN_MEMORY, ntff, len);
		mode = 2;
		snprintf(l, sizeof(l), "v%d-nocrc", v);
		put_single(l, &mode, 1, FZ_CTL_PLAIN_SEEKABLE, ntff, len);
		free(ntff);
	}
	/* nxp_summary_derive: raw counters by field index, then hardware overrides. */
	for (unsigned arch = 0; arch < 4; arch++) {
		uint8_t buf[2 + 9 * 40];
		size_t n = 0;
		buf[n++] = 1;
		buf[n++] = (uint8_t)arch;
		for (unsigned i = 0; i < 32; i++) {
			double v = (i % 5 == 4) ? 0.0 : 1000.0 * (i + 1) * (arch + 1);
			uint64_t bits;
			memcpy(&bits, &v, sizeof(bits));
			buf[n++] = (uint8_t)i;
			st_u64(buf + n, bits);
			n += 8;
		}
		buf[n++] = 0xff;
		st_u64(buf + n, 0);
		n += 8;
		put_raw(arch == 0 ? "derive-trn1" : arch == 1 ? "derive-inf2" : arch == 2 ? "derive-trn2" : "derive-trn3",
			buf, n);
	}
}

static void gen_pair(void)
{
	size_t nlen, plen, tlen, clen;
	uint8_t *neff = fixture_neff(0, &nlen);
	uint8_t *plain = fixture_neff(1, &plen);
	uint8_t *ntff = fixture_ntff(FZ_NTFF_BASIC, &tlen);
	uint8_t *comp = fixture_ntff(FZ_NTFF_COMPRESSED, &clen);
	static const struct {
		const char *label;
		int plain, comp;
		uint8_t ctl_a, ctl_b;
	} cfg[] = {
		{"gz-basic", 0, 0, FZ_CTL_PLAIN_MEMORY, FZ_CTL_PLAIN_MEMORY},
		{"tar-basic-seq", 1, 0, FZ_CTL_PLAIN_SEQUENTIAL, FZ_CTL_PLAIN_SEEKABLE},
		{"gz-comp", 0, 1, FZ_CTL_PLAIN_SEEKABLE, FZ_CTL_PLAIN_MEMORY},
		{"tar-comp-nocrc", 1, 1, FZ_CTL_PLAIN_MEMORY, FZ_CTL_PLAIN_MEMORY | 0x80},
	};
	for (size_t k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
		size_t out;
		uint8_t *f = fz_frame_pair(cfg[k].ctl_a, cfg[k].plain ? plain : neff, cfg[k].plain ? plen : nlen,
					   cfg[k].ctl_b, cfg[k].comp ? comp : ntff, cfg[k].comp ? clen : tlen, &out);
		if (!f)
			die("out of memory");
		put_raw(cfg[k].label, f, out);
		free(f);
	}
	free(neff);
	free(plain);
	free(ntff);
	free(comp);
}

/* ---- system profiles ---- */

static uint8_t *write_ntrace(int stream, size_t *len)
{
	char *path = scratch("ntrace.pb");
	nxp_sysprof_writer_options o;
	nxp_sysprof_writer_options_init(&o);
	o.stream = stream;
	o.chunk_events = 3;
	o.arch = "trn2";
	o.pid = 4242;
	o.instance_id = "i-0123456789abcdef0";
	nxp_sysprof_writer *w = NULL;
	nxp_status st;
	nxp_status_init(&st);
	need(nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, &o, &st), "ntrace writer");
	need(nxp_sysprof_writer_string(w, "nrt_execute"), "ntrace string");
	static const struct {
		const char *name;
		int phase;
		int64_t ts, dur, nc, tracking;
	} evs[] = {
		{"nrt_execute", NXP_NTRACE_PHASE_START, 1000000, -1, 0, 7},
		{"nc_exec_running", NXP_NTRACE_PHASE_START, 1001000, -1, 0, 8},
		{"nc_exec_running", NXP_NTRACE_PHASE_STOP, 1005000, -1, 0, 8},
		{"timestamp_sync_point", NXP_NTRACE_PHASE_INSTANT, 1006000, -1, 0, -1},
		{"nrt_execute", NXP_NTRACE_PHASE_STOP, 1007000, -1, 0, 7},
		{"kbl_exec_pre", NXP_NTRACE_PHASE_NONE, 1008000, 500, 1, -1},
		{"cc_running", NXP_NTRACE_PHASE_STOP, 1009000, -1, 1, 99},  /* STOP without START */
		{"nrt_load", NXP_NTRACE_PHASE_START, 1010000, -1, 1, 100}, /* never closed */
	};
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		nxp_ntrace_event e;
		nxp_ntrace_event_init(&e);
		e.timestamp = evs[i].ts;
		e.name = evs[i].name;
		e.phase = evs[i].phase;
		e.duration = evs[i].dur;
		e.nc_idx = evs[i].nc;
		e.nd_idx = 0;
		e.thread_id = 77;
		e.id = (int64_t)i;
		e.tracking_id = evs[i].tracking;
		e.nrta_seq_id = (int64_t)i * 3;
		static const char *const sync_attrs[] = {"cpu_timestamp_ns", "1006000", "nc_timestamp_ns", "5000"};
		static const char *const attrs[] = {"model", "fuzz", "bytes", "4096"};
		e.attributes = strcmp(e.name, "timestamp_sync_point") == 0 ? sync_attrs : attrs;
		e.n_attributes = 2;
		need(nxp_sysprof_writer_event(w, &e), "ntrace event");
	}
	need(nxp_sysprof_writer_finish(w), "ntrace finish");
	nxp_sysprof_writer_close(w);
	uint8_t *d = read_back(path, len);
	unlink(path);
	free(path);
	return d;
}

static void gen_ntrace_pb(void)
{
	for (int stream = 0; stream < 2; stream++) {
		size_t len;
		uint8_t *d = write_ntrace(stream, &len);
		char l[32];
		static const uint8_t opts[] = {0, 1, 4, 8};
		for (size_t k = 0; k < sizeof(opts); k++) {
			snprintf(l, sizeof(l), "s%d-o%u", stream, opts[k]);
			if (k == 0)
				put_variants(l, &opts[k], 1, d, len);
			else
				put_single(l, &opts[k], 1, FZ_CTL_PLAIN_MEMORY, d, len);
		}
		free(d);
	}
}

static void gen_trace_json(void)
{
	static const struct {
		const char *ph, *name, *pid, *tid, *args, *flow;
		int64_t ts, dur;
	} evs[] = {
		{"M", "process_name", "1", "0", "{\"name\":\"python\"}", "", 0, 0},
		{"X", "aten::matmul", "1", "2", "{\"shape\":[[128,128]]}", "", 1000000, 5000},
		{"B", "forward", "1", "2", "{}", "", 1001000, 0},
		{"E", "forward", "1", "2", "{}", "", 1009000, 0},
		{"i", "marker", "Spans", "3", "{}", "", 1002000, 0},
		{"C", "memory", "1", "0", "{\"bytes\":1024}", "", 1003000, 0},
		{"s", "flow", "1", "2", "{}", "42", 1004000, 0},
		{"f", "flow", "1", "3", "{}", "42", 1005000, 0},
	};
	nxp_system_event ev[sizeof(evs) / sizeof(evs[0])];
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].struct_size = sizeof(ev[i]);
		ev[i].phase = evs[i].ph;
		ev[i].name = evs[i].name;
		ev[i].pid = evs[i].pid;
		ev[i].tid = evs[i].tid;
		ev[i].extra_attributes_json = evs[i].args;
		ev[i].flow_id = evs[i].flow;
		ev[i].category = "cpu_op";
		ev[i].start_ts = 1700000000000000000LL + evs[i].ts;
		ev[i].end_ts = ev[i].start_ts + evs[i].dur;
		ev[i].duration_ns = evs[i].dur;
	}
	for (int gz = 0; gz < 2; gz++) {
		char *path = scratch("trace.json");
		nxp_status st;
		nxp_status_init(&st);
		need(nxp_trace_json_write(path, ev, sizeof(ev) / sizeof(ev[0]), 1700000000000000000LL, gz, &st),
		     "trace.json writer");
		size_t len;
		uint8_t *d = read_back(path, &len);
		unlink(path);
		free(path);
		uint8_t o = 0;
		put_variants(gz ? "gz" : "json", &o, 1, d, len);
		o = 1;
		put_single(gz ? "gz-noprescan" : "json-noprescan", &o, 1, FZ_CTL_PLAIN_SEQUENTIAL, d, len);
		o = 2;
		put_single(gz ? "gz-limits" : "json-limits", &o, 1, FZ_CTL_PLAIN_MEMORY, d, len);
		o = 4;
		put_single(gz ? "gz-auto" : "json-auto", &o, 1, FZ_CTL_PLAIN_MEMORY, d, len);
		free(d);
	}
	/* Hand-written shapes the writer does not produce. */
	static const char *const texts[] = {
		"{\"baseTimeNanoseconds\": 1700000000000000000, \"traceEvents\": [{\"ph\":\"X\",\"name\":\"a\","
		"\"pid\":1,\"tid\":1,\"ts\":1.5,\"dur\":2.25}]}",
		"[{\"ph\":\"X\",\"name\":\"bare array\",\"pid\":\"p\",\"tid\":\"t\",\"ts\":10,\"dur\":1}]",
		"{\"traceEvents\": [{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":1}, 7, null, "
		"{\"ph\":\"Q\"}, {\"ph\":\"E\",\"pid\":1,\"tid\":9,\"ts\":2}], \"deviceProperties\": [{\"a\":[[[[1]]]]}]}",
		"{\"traceEvents\": [{\"ph\":\"X\",\"name\":\"\\u00e9\\ud83d\\ude00\",\"args\":{\"a\":{\"b\":{\"c\":[1,2,"
		"{\"d\":true}]}}},\"ts\":-5,\"dur\":1e300}]}",
		/* exact decimal times: ns-resolution fractions, exponents, half-even ties, a late base as a string */
		"{\"traceEvents\": [{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"ts\":1712195495519695.8,"
		"\"dur\":53.09}, {\"ph\":\"i\",\"name\":\"e\",\"pid\":1,\"tid\":2,\"ts\":1.7121954955196958e15}, "
		"{\"ph\":\"i\",\"name\":\"t\",\"\\u0074s\":-0.0025E-0,\"ts\":0.0015}], "
		"\"baseTimeNanoseconds\": \"-1712195495000000000.5\"}",
		/* valid JSON that is not a trace (a PyTorch execution trace) */
		"{\"schema\": \"1.1.1-chakra.0.0.4\", \"nodes\": [{\"id\": 1, \"name\": \"[pytorch|profiler]\"}]}",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char l[16];
		snprintf(l, sizeof(l), "text%zu", i);
		uint8_t o = 0;
		put_single(l, &o, 1, FZ_CTL_PLAIN_SEEKABLE, texts[i], strlen(texts[i]));
	}
}

static void gen_trace_info_pb(void)
{
	nxp_system_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	md.first_ts_ns = 1700000000000000000LL;
	md.last_ts_ns = 1700000001000000000LL;
	md.ntff_version = 6;
	md.hbm_capacity_bytes = 96LL << 30;
	md.instance_id = "i-0123456789abcdef0";
	md.instance_type = "trn2.48xlarge";
	md.arch = "trn2";
	md.runtime_version = "2.0.0";
	md.driver_version = "2.19";
	md.pid = 4242;
	md.session_id = 1;
	md.logical_nc_size = 2;
	md.num_neuron_cores = 8;
	md.data_version = 1;
	for (int stream = 0; stream < 2; stream++) {
		char *path = scratch("trace_info.pb");
		nxp_status st;
		nxp_status_init(&st);
		need(nxp_trace_info_write(path, &md, stream, &st), "trace_info writer");
		size_t len;
		uint8_t *d = read_back(path, &len);
		unlink(path);
		free(path);
		uint8_t o = 0;
		put_variants(stream ? "stream" : "single", &o, 1, d, len);
		o = 2;
		put_single(stream ? "stream-limit" : "single-limit", &o, 1, FZ_CTL_PLAIN_MEMORY, d, len);
		free(d);
	}
}

static void gen_host_stats_pb(void)
{
	for (int mem = 0; mem < 2; mem++) {
		for (int stream = 0; stream < 2; stream++) {
			char *path = scratch("host.pb");
			nxp_sysprof_writer_options o;
			nxp_sysprof_writer_options_init(&o);
			o.stream = stream;
			o.chunk_events = 2;
			o.instance_id = "i-0123456789abcdef0";
			nxp_sysprof_writer *w = NULL;
			nxp_status st;
			nxp_status_init(&st);
			need(nxp_sysprof_writer_open(&w, path, mem ? NXP_SYSFILE_HOST_MEM : NXP_SYSFILE_CPU_UTIL, &o, &st),
			     "host stats writer");
			for (int i = 0; i < 5; i++) {
				if (mem) {
					nxp_host_mem_usage s;
					memset(&s, 0, sizeof(s));
					s.struct_size = sizeof(s);
					s.timestamp = 1700000000000000000LL + i * 1000000LL;
					s.used_bytes = (int64_t)(1 + i) << 30;
					s.used_percent = 10.0 * i;
					s.total_bytes = i == 3 ? -1 : 64LL << 30;
					need(nxp_sysprof_writer_mem(w, &s), "host_mem sample");
				} else {
					nxp_cpu_usage s;
					memset(&s, 0, sizeof(s));
					s.struct_size = sizeof(s);
					s.timestamp = 1700000000000000000LL + i * 1000000LL;
					s.util_percent = 12.5 * i;
					s.cpu_id = i == 4 ? "average" : (i & 1) ? "1" : "0";
					need(nxp_sysprof_writer_cpu(w, &s), "cpu_util sample");
				}
			}
			need(nxp_sysprof_writer_finish(w), "host stats finish");
			nxp_sysprof_writer_close(w);
			size_t len;
			uint8_t *d = read_back(path, &len);
			unlink(path);
			free(path);
			char l[32];
			snprintf(l, sizeof(l), "%s-%s", mem ? "mem" : "cpu", stream ? "stream" : "single");
			uint8_t op = (uint8_t)mem;
			put_variants(l, &op, 1, d, len);
			op = (uint8_t)(mem | 4);
			snprintf(l, sizeof(l), "%s-%s-wrong", mem ? "mem" : "cpu", stream ? "stream" : "single");
			put_single(l, &op, 1, FZ_CTL_PLAIN_MEMORY, d, len);
			free(d);
		}
	}
}

static void put_entry(uint8_t *buf, size_t *n, uint8_t dir, uint8_t file, uint16_t len, const void *data, size_t dlen)
{
	buf[(*n)++] = dir;
	buf[(*n)++] = file;
	buf[(*n)++] = (uint8_t)len;
	buf[(*n)++] = (uint8_t)(len >> 8);
	if (dlen)
		memcpy(buf + *n, data, dlen);
	*n += dlen;
}

static void gen_capture(void)
{
	size_t nlen;
	uint8_t *ntrace = write_ntrace(0, &nlen);
	uint8_t *buf = malloc(nlen + 256);
	if (!buf)
		die("out of memory");
	size_t n = 0;
	/* The out/i-..._pid_N layout: events, NEFF/NTFF pair (by UUID and by name). */
	put_entry(buf, &n, 1, 0, (uint16_t)nlen, ntrace, nlen);
	put_entry(buf, &n, 1, 1, 0, NULL, 0);
	put_entry(buf, &n, 1, 6, 0xffff, NULL, 0);
	put_entry(buf, &n, 1, 7, 0xfffe, NULL, 0);
	put_raw("pid-layout", buf, n);
	/* Session layout with a symlink loop and a stray name. */
	n = 0;
	put_entry(buf, &n, 0, 0, (uint16_t)nlen, ntrace, nlen);
	put_entry(buf, &n, 0, 10, 0xfffe, NULL, 0);
	put_entry(buf, &n, 4, 11, 0xffff, NULL, 0);
	put_entry(buf, &n, 0, 0xfe, 0, NULL, 0);
	put_entry(buf, &n, 5, 0xff, 5, "hello", 5);
	put_raw("session-layout", buf, n);
	/* Name pairing without UUIDs, a 0-byte NTFF, an unpaired NEFF. */
	n = 0;
	put_entry(buf, &n, 3, 8, 3, "abc", 3);
	put_entry(buf, &n, 3, 9, 0, NULL, 0);
	put_entry(buf, &n, 2, 6, 0xffff, NULL, 0);
	put_entry(buf, &n, 2, 4, 2, "{}", 2);
	put_raw("name-pairing", buf, n);
	free(buf);
	free(ntrace);
}

/* table: [table] [flags] [batch] + single-framed NTFF; a few tables, projections and batch sizes */
static void gen_table(void)
{
	size_t blen, slen;
	uint8_t *basic = fixture_ntff(FZ_NTFF_BASIC, &blen);
	uint8_t *small = fixture_ntff(FZ_NTFF_SMALL_SECTIONS, &slen);
	for (uint8_t t = 0; t < 16; t++) {
		uint8_t params[3] = {t, (uint8_t)(t & 2), (uint8_t)(t * 7)};
		char l[32];
		snprintf(l, sizeof(l), "t%u", (unsigned)t);
		put_single(l, params, 3, FZ_CTL_PLAIN_MEMORY, (t & 1) ? small : basic, (t & 1) ? slen : blen);
	}
	free(basic);
	free(small);
}

/* timeline: [flags] [max_events] [engine/exec] [window] [u64 start] [u64 end] + single-framed NTFF:
 * Perfetto and Chrome JSON (plain and gzip'd), filters, windows, truncation, a read error */
static void gen_timeline(void)
{
	size_t blen, slen;
	uint8_t *basic = fixture_ntff(FZ_NTFF_BASIC, &blen);
	uint8_t *small = fixture_ntff(FZ_NTFF_SMALL_SECTIONS, &slen);
	static const struct {
		uint8_t flags, maxb, sel, win;
		int64_t start, end;
	} cfg[] = {
		{0x00, 0xff, 0, 0, 0, 0},           /* Perfetto, everything */
		{0x02, 0xff, 0, 0, 0, 0},           /* Chrome JSON */
		{0x06, 0xff, 0, 0, 0, 0},           /* Chrome JSON, gzip'd */
		{0x08, 0xff, 0x01, 0, 0, 0},        /* one engine */
		{0x12, 0xff, 0x00, 0, 0, 0},        /* execution 0 */
		{0x20, 0xff, 0, 0, 2000, 12000},    /* time window */
		{0x42, 0x02, 0, 3, 0, 0},           /* truncated, small counter window */
		{0x01, 0x40, 0, 0, 0, 0},           /* SKIP_CRC */
	};
	for (size_t k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
		uint8_t params[4 + 16] = {cfg[k].flags, cfg[k].maxb, cfg[k].sel, cfg[k].win};
		st_u64(params + 4, (uint64_t)cfg[k].start);
		st_u64(params + 12, (uint64_t)cfg[k].end);
		char l[32];
		snprintf(l, sizeof(l), "c%zu", k);
		put_single(l, params, sizeof(params), (k & 1) ? FZ_CTL_PLAIN_SEEKABLE : FZ_CTL_PLAIN_MEMORY,
			   (k % 3 == 2) ? small : basic, (k % 3 == 2) ? slen : blen);
	}
	uint8_t p0[4 + 16] = {0x02, 0xff};
	put_variants("json", p0, sizeof(p0), basic, blen);
	for (unsigned r = 0; r < 2; r++) {
		uint8_t p1[4 + 16] = {(uint8_t)(r ? 0x02 : 0x00), 0xff};
		char l[32];
		snprintf(l, sizeof(l), "ioerr%u", r);
		put_single(l, p1, sizeof(p1), (uint8_t)(FZ_CHUNK_4K | FZ_CTL_SEEKABLE | FZ_CTL_IO_ERROR | (r << 6)),
			   small, slen);
	}
	free(basic);
	free(small);
}

/* analysis: [flags] [pcore] [exec] [window] [u64 start] [u64 end] [id] + single-framed NTFF */
static void gen_analysis(void)
{
	size_t blen, slen;
	uint8_t *basic = fixture_ntff(FZ_NTFF_BASIC, &blen);
	uint8_t *small = fixture_ntff(FZ_NTFF_SMALL_SECTIONS, &slen);
	static const struct {
		uint8_t flags, pcore, exec, win;
		int64_t start, end;
		uint8_t id;
	} cfg[] = {
		{0x00, 0, 0, 0, 0, 0, 0},
		{0x80, 0, 0, 0xff, 0, 0, 1},          /* flows_of the first edge's out record */
		{0x4e, 0, 0, 10, 1000, 30000, 2},     /* bounds, pcore, execution 0 */
		{0x18, 0, 1, 0, 0, 0, 3},             /* critical path of execution 1, pcore 0 */
		{0xc1, 0, 0, 1, 0, 0, 0},             /* SKIP_CRC, semaphore updates */
		{0x20, 0, 0, 0, 0, 0, 5},             /* no insights */
	};
	for (size_t k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
		uint8_t params[4 + 16 + 1] = {cfg[k].flags, cfg[k].pcore, cfg[k].exec, cfg[k].win};
		st_u64(params + 4, (uint64_t)cfg[k].start);
		st_u64(params + 12, (uint64_t)cfg[k].end);
		params[20] = cfg[k].id;
		char l[32];
		snprintf(l, sizeof(l), "c%zu", k);
		put_single(l, params, sizeof(params), (k & 1) ? FZ_CTL_PLAIN_SEEKABLE : FZ_CTL_PLAIN_MEMORY,
			   (k % 3 == 2) ? small : basic, (k % 3 == 2) ? slen : blen);
	}
	uint8_t p0[4 + 16 + 1] = {0};
	put_variants("basic", p0, sizeof(p0), basic, blen);
	free(basic);
	free(small);
}

/* report: [flags] [columns] [dma rows] [top opcodes] + single-framed NTFF */
static void gen_report(void)
{
	size_t blen, slen, elen;
	uint8_t *basic = fixture_ntff(FZ_NTFF_BASIC, &blen);
	uint8_t *small = fixture_ntff(FZ_NTFF_SMALL_SECTIONS, &slen);
	uint8_t *empty = fixture_ntff(FZ_NTFF_EMPTY, &elen);
	static const uint8_t cfg[][4] = {
		{0x00, 0, 0, 0},
		{0x04, 0, 0, 0},    /* title with markup */
		{0x0a, 0, 1, 1},    /* 100 columns, no analysis, 1 DMA row, 1 opcode */
		{0x0c, 0xf0, 3, 5}, /* 3940 columns */
	};
	for (size_t k = 0; k < sizeof(cfg) / sizeof(cfg[0]); k++) {
		char l[32];
		snprintf(l, sizeof(l), "c%zu", k);
		put_single(l, cfg[k], 4, (k & 1) ? FZ_CTL_PLAIN_SEEKABLE : FZ_CTL_PLAIN_MEMORY, (k & 2) ? small : basic,
			   (k & 2) ? slen : blen);
	}
	put_single("empty", cfg[0], 4, FZ_CTL_PLAIN_MEMORY, empty, elen);
	put_variants("basic", cfg[1], 4, basic, blen);
	free(basic);
	free(small);
	free(empty);
}

/* sniff: [mode] + bytes: one file of every kind, under several total sizes */
static void gen_sniff(void)
{
	size_t nlen, tlen, plen;
	uint8_t *neff = fixture_neff(1, &nlen);
	uint8_t *ntff = fixture_ntff(FZ_NTFF_BASIC, &tlen);
	uint8_t *pb = write_ntrace(0, &plen);
	/* gzip'd JSON, built with zlib's gzip framing */
	static const char json[] = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1}]}";
	uint8_t gz[256];
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2");
	zs.next_in = (Bytef *)json;
	zs.avail_in = sizeof(json) - 1;
	zs.next_out = gz;
	zs.avail_out = sizeof(gz);
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		die("deflate");
	size_t gzlen = zs.total_out;
	deflateEnd(&zs);
	const struct {
		const char *label;
		const void *p;
		size_t n;
	} files[] = {
		{"empty", "", 0},
		{"neff", neff, nlen > 4096 ? 4096 : nlen},
		{"ntff", ntff, tlen > 4096 ? 4096 : tlen},
		{"json", json, sizeof(json) - 1},
		{"json-ws", " \n\t[1,2]", 8},
		{"json-gz", gz, gzlen},
		{"gz-trunc", gz, 12},
		{"ntrace-pb", pb, plen > 4096 ? 4096 : plen},
		{"text", "hello world\n", 12},
	};
	static const uint8_t modes[] = {0x08, 0x01, 0x02, 0x03, 0x84};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		for (size_t m = 0; m < sizeof(modes); m++) {
			char l[48];
			snprintf(l, sizeof(l), "%s-m%02x", files[i].label, modes[m]);
			uint8_t *buf = malloc(files[i].n + 1);
			if (!buf)
				die("out of memory");
			buf[0] = modes[m];
			memcpy(buf + 1, files[i].p, files[i].n);
			put_raw(l, buf, files[i].n + 1);
			free(buf);
		}
	free(neff);
	free(ntff);
	free(pb);
}

typedef void (*gen_fn)(void);

static const struct {
	const char *name;
	gen_fn fn;
} generators[] = {
	{"neff_header", gen_neff_header},
	{"instruction", gen_instruction},
	{"neff", gen_neff},
	{"ntff", gen_ntff},
	{"cursor", gen_cursor},
	{"summary", gen_summary},
	{"pair", gen_pair},
	{"ntrace_pb", gen_ntrace_pb},
	{"trace_json", gen_trace_json},
	{"trace_info_pb", gen_trace_info_pb},
	{"host_stats_pb", gen_host_stats_pb},
	{"capture", gen_capture},
	{"table", gen_table},
	{"timeline", gen_timeline},
	{"analysis", gen_analysis},
	{"report", gen_report},
	{"sniff", gen_sniff},
	{NULL, NULL},
};

/* Remove old seeds so a changed generator leaves no stale ones behind. */
static void clean_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "seed-", 5) != 0)
			continue;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *p = malloc(len);
		if (!p)
			die("out of memory");
		snprintf(p, len, "%s/%s", dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
}

static void make_dir(const char *p)
{
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		die("cannot create %s: %s", p, strerror(errno));
}

int main(int argc, char **argv)
{
	if (argc < 3)
		die("usage: gen_corpus OUTDIR STAMP NAME...");
	outdir = argv[1];
	make_dir(outdir);
	verify_fixture();
	for (int i = 3; i < argc; i++) {
		gen_fn fn = NULL;
		for (size_t k = 0; generators[k].name; k++)
			if (strcmp(generators[k].name, argv[i]) == 0)
				fn = generators[k].fn;
		if (!fn)
			die("no seed generator for harness '%s' (add one to fuzz/gen_corpus.c)", argv[i]);
		size_t len = strlen(outdir) + strlen(argv[i]) + 2;
		char *dir = malloc(len);
		if (!dir)
			die("out of memory");
		snprintf(dir, len, "%s/%s", outdir, argv[i]);
		make_dir(dir);
		clean_dir(dir);
		free(dir);
		cur_name = argv[i];
		cur_count = 0;
		fn();
		if (cur_count == 0)
			die("generator for '%s' wrote no seeds", argv[i]);
	}
	FILE *f = fopen(argv[2], "w");
	if (!f || fprintf(f, "%d harness corpora\n", argc - 3) < 0 || fclose(f) != 0)
		die("cannot write %s", argv[2]);
	return 0;
}
