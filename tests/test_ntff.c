/* SPDX-License-Identifier: MIT */
/* NTFF layout and writer: header/section/footer encoding, writer misuse,
 * pairing, versions, and every corruption class (clean error or documented
 * counted skip, never a crash). */
#include <check.h>
#include <nxp/nxp.h>

#include "ntff_fixture.h"
#include "ntff_layout.h"
#include "ntff_priv.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct img {
	char *dir, *path;
	uint8_t *ntff, *neff;
	size_t ntff_len, neff_len;
	fxn_spec spec;
	fxn_model m;
} img;

static void img_build(img *w, int compress)
{
	memset(w, 0, sizeof(*w));
	fxn_spec_default(&w->spec);
	w->spec.n_instr = 60;
	w->spec.n_dma = 40;
	w->spec.rps = 16;
	w->spec.compress = compress;
	w->dir = tu_tmpdir();
	w->path = tu_path(w->dir, "t.ntff");
	fxn_write(w->path, &w->spec, &w->m);
	w->ntff = tu_read_file(w->path, &w->ntff_len);
	w->neff = fxn_neff(w->spec.uuid, &w->neff_len);
}

static void img_free(img *w)
{
	remove(w->path);
	remove(w->dir);
	free(w->path);
	free(w->dir);
	free(w->ntff);
	free(w->neff);
	fxn_model_free(&w->m);
}

static int try_open(const img *w, const uint8_t *ntff, size_t len, int kind, uint32_t flags, fxn_pair *o,
		    nxp_status *st)
{
	nxp_status_init(st);
	return fxn_open(o, w->neff, w->neff_len, ntff, len, kind, flags, st);
}

/* Count the rows of every table; returns the first negative code or 0.  *rows
 * gets the total and *stats the summed counters. */
static int scan_all(nxp_profile *p, int64_t *rows, nxp_cursor_stats *sum)
{
	static const int tables[] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE,
				     NXP_TABLE_THROTTLE,    NXP_TABLE_ERROR,      NXP_TABLE_EXECUTION,
				     NXP_TABLE_ACTIVE_TIME};
	union {
		nxp_instruction i;
		nxp_dma_packet d;
		nxp_semaphore_update s;
		nxp_throttle t;
		nxp_error_record e;
		nxp_execution x;
		nxp_active_time a;
	} buf[8];
	*rows = 0;
	memset(sum, 0, sizeof(*sum));
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		nxp_cursor *c;
		int rc = nxp_cursor_open(&c, p, tables[t], NULL, NULL);
		if (rc)
			return rc;
		size_t got;
		while ((rc = nxp_cursor_next_batch(c, buf, sizeof(buf[0]), 8, &got)) == NXP_OK)
			if (tables[t] != NXP_TABLE_ACTIVE_TIME)
				*rows += (int64_t)got;
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		nxp_cursor_get_stats(c, &cs);
		sum->bad_records += cs.bad_records;
		sum->skipped_sections += cs.skipped_sections;
		if (cs.last_bad_offset >= 0)
			sum->last_bad_offset = cs.last_bad_offset;
		if (rc < 0) {
			nxp_status st;
			nxp_status_init(&st);
			ck_assert_int_eq(nxp_cursor_error(c, &st), rc);
			ck_assert(st.message[0] != '\0');
			nxp_cursor_close(c);
			return rc;
		}
		nxp_cursor_close(c);
	}
	return 0;
}

static int64_t model_rows(const fxn_model *m)
{
	int64_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		n += m->r[i].kind != NXP_QUEUE_TPB;
	return n;
}

/* The section checksum is CRC-32 (gzip polynomial) whichever library computes
 * it (libdeflate when built with it, zlib otherwise): the standard check value
 * and zlib's own crc32() over many lengths and alignments. */
START_TEST(test_crc32_is_zlib_crc32)
{
	ck_assert_uint_eq(ntff_crc32("123456789", 9), 0xCBF43926u);
	ck_assert_uint_eq(ntff_crc32("", 0), 0);
	size_t n = 1u << 20;
	uint8_t *b = malloc(n + 64);
	ck_assert_ptr_nonnull(b);
	uint32_t x = 12345;
	for (size_t i = 0; i < n + 64; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (uint8_t)(x >> 16);
	}
	for (size_t len = 0; len < 600; len++)
		for (size_t align = 0; align < 16; align += 5)
			ck_assert_uint_eq(ntff_crc32(b + align, len), (uint32_t)crc32(0, b + align, (uInt)len));
	ck_assert_uint_eq(ntff_crc32(b + 3, n), (uint32_t)crc32(0, b + 3, (uInt)n));
	free(b);
}
END_TEST

START_TEST(test_layout_encode)
{
	ntff_file_header h;
	memset(&h, 0, sizeof(h));
	h.layout_version = 1;
	h.ntff_version = 6;
	h.ticks_per_nanosec = 3;
	h.num_physical_cores = 2;
	h.neff_uuid[0] = 0xab;
	uint8_t b[NTFF_FILE_HEADER_SIZE];
	ntff_file_header_encode(&h, b);
	ck_assert_mem_eq(b, "NXPNTFF\0", 8);
	ntff_file_header d;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(ntff_file_header_decode(b, sizeof(b), &d, &st), NXP_OK);
	ck_assert_int_eq(d.ticks_per_nanosec, 3);
	ck_assert_int_eq(d.num_physical_cores, 2);
	ck_assert_int_eq(d.neff_uuid[0], 0xab);
	ck_assert_int_eq(ntff_file_header_decode(b, 60, &d, &st), NXP_E_TRUNCATED);
	b[40] ^= 1;
	ck_assert_int_eq(ntff_file_header_decode(b, sizeof(b), &d, &st), NXP_E_CRC);
	ck_assert_int_eq(st.offset, 124);

	ntff_section_header s = {.kind = NTFF_SEC_DATA, .queue = 7, .record_kind = 2, .record_size = 48,
				 .record_count = 3, .stored_length = 144, .raw_length = 144, .first_ts = 5,
				 .last_ts = 9, .max_end_ts = 11, .data_crc = 0x12345678};
	uint8_t sb[NTFF_SECTION_HEADER_SIZE];
	ntff_section_header_encode(&s, sb);
	ntff_section_header t;
	ck_assert_int_eq(ntff_section_header_decode(sb, &t, 1000, &st), NXP_OK);
	ck_assert_int_eq(t.queue, 7);
	ck_assert_int_eq(t.max_end_ts, 11);
	ck_assert_uint_eq(t.data_crc, 0x12345678);
	sb[20] ^= 1;
	ck_assert_int_eq(ntff_section_header_decode(sb, &t, 1000, &st), NXP_E_CRC);
	ck_assert_int_eq(st.offset, 1000);
	sb[0] = 'Z';
	ck_assert_int_eq(ntff_section_header_decode(sb, &t, 1000, &st), NXP_E_FORMAT);

	/* records: encode/decode every kind */
	uint8_t r[64];
	nxp_ntff_dma_note dn = {10, 20, 3, 4, 5, 6, 7, NXP_DMA_HARDWARE_DYNAMIC, 1, 3, -1, 9}, dd;
	ntff_encode_dma(r, &dn);
	ntff_decode_dma(r, &dd);
	ck_assert_mem_eq(&dn.start_tick, &dd.start_tick, 16);
	ck_assert_uint_eq(dd.flags, NXP_DMA_HARDWARE_DYNAMIC);
	ck_assert_int_eq(dd.execution_index, -1);
	ck_assert_uint_eq(dd.variable, 9);
	ck_assert_uint_eq(ntff_record_end(NXP_QUEUE_DMA, r), 20);
	nxp_ntff_throttle_note tn = {UINT64_MAX - 1, 5, 1, 2, 3};
	ntff_encode_throttle(r, &tn);
	ck_assert_uint_eq(ntff_record_end(NXP_QUEUE_THROTTLE, r), UINT64_MAX); /* saturates */
	ck_assert_uint_eq(ntff_record_size(NXP_QUEUE_INSTRUCTION), 32);
	ck_assert_uint_eq(ntff_record_size(99), 0);

	/* compression round trip and corrupt data */
	uint8_t raw[1000], back[1000], *z;
	size_t zl;
	for (int i = 0; i < 1000; i++)
		raw[i] = (uint8_t)(i % 7);
	ck_assert_int_eq(ntff_deflate(raw, sizeof(raw), 6, &z, &zl), NXP_OK);
	ck_assert_uint_lt(zl, 200);
	ck_assert_int_eq(ntff_inflate(z, zl, back, sizeof(back)), NXP_OK);
	ck_assert_mem_eq(raw, back, sizeof(raw));
	ck_assert_int_eq(ntff_inflate(z, zl, back, 999), NXP_E_COMPRESSION);
	ck_assert_int_eq(ntff_inflate(z, zl - 3, back, sizeof(back)), NXP_E_COMPRESSION);
	z[zl / 2] ^= 0x55;
	ck_assert_int_ne(ntff_inflate(z, zl, back, sizeof(back)), NXP_OK);
	free(z);
}
END_TEST

START_TEST(test_writer_misuse)
{
	char *dir = tu_tmpdir(), *path = tu_path(dir, "w.ntff");
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer *w;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_ntff_writer_open_path(NULL, path, &info, NULL, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, NULL, NULL, &st), NXP_E_INVAL);
	info.ticks_per_nanosec = 0;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, &st), NXP_E_INVAL);
	info.ticks_per_nanosec = 1;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, "/nonexistent/dir/x.ntff", &info, NULL, &st), NXP_E_IO);
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, &st), NXP_OK);
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	ck_assert_int_eq(nxp_ntff_writer_add_queue(w, &q), NXP_E_INVAL); /* kind 0 */
	q.kind = NXP_QUEUE_INSTRUCTION;
	ck_assert_int_eq(nxp_ntff_writer_add_queue(w, &q), NXP_E_INVAL); /* no engine */
	q.engine = NXP_ENGINE_VECTOR;
	q.pcore_idx = 1;
	ck_assert_int_eq(nxp_ntff_writer_add_queue(w, &q), NXP_E_INVAL); /* pcore out of range */
	q.pcore_idx = 0;
	int32_t iq = nxp_ntff_writer_add_queue(w, &q);
	ck_assert_int_eq(iq, 0);
	q.kind = NXP_QUEUE_DMA;
	q.name = "qd";
	int32_t dq = nxp_ntff_writer_add_queue(w, &q);
	ck_assert_int_eq(dq, 1);
	nxp_ntff_instruction_note in = {100, 120, 0, 0, -1};
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &in), NXP_OK);
	in.start_tick = 99;
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &in), NXP_E_RANGE);
	ck_assert_int_eq(nxp_ntff_writer_error_status(w, &st), NXP_E_RANGE);
	ck_assert_ptr_nonnull(strstr(st.message, "back in time"));
	in.start_tick = 130;
	in.end_tick = 125;
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &in), NXP_E_RANGE);
	in.end_tick = 140;
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, dq, &in), NXP_E_INVAL); /* queue of another kind */
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, 7, &in), NXP_E_INVAL);
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, NULL), NXP_E_INVAL);
	nxp_ntff_dma_note dn;
	memset(&dn, 0, sizeof(dn));
	dn.variable = 1u << 30;
	ck_assert_int_eq(nxp_ntff_writer_dma(w, dq, &dn), NXP_E_RANGE);
	dn.variable = 0;
	dn.source = 9;
	ck_assert_int_eq(nxp_ntff_writer_dma(w, dq, &dn), NXP_E_INVAL);
	ck_assert_int_eq(nxp_ntff_writer_string(w, NULL), NXP_E_INVAL);
	int64_t a = nxp_ntff_writer_string(w, ""), b = nxp_ntff_writer_string(w, "x");
	ck_assert_int_gt(a, 0);
	ck_assert_int_gt(b, a);
	ck_assert_int_eq(nxp_ntff_writer_string(w, "x"), b);
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &in), NXP_E_INVAL); /* finished */
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_E_INVAL);
	nxp_ntff_writer_close(w);
	nxp_ntff_writer_close(NULL);
	remove(path);
	remove(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_pairing)
{
	img w;
	img_build(&w, 0);
	uint8_t other[16];
	for (int i = 0; i < 16; i++)
		other[i] = (uint8_t)(0x10 + i);
	size_t nl;
	void *neff2 = fxn_neff(other, &nl);
	fxn_pair o;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(fxn_open(&o, neff2, nl, w.ntff, w.ntff_len, FXN_SRC_CHUNKY, 0, &st), NXP_E_MISMATCH);
	ck_assert_ptr_nonnull(strstr(st.message, "101112131415161718191a1b1c1d1e1f"));
	ck_assert_ptr_nonnull(strstr(st.message, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"));
	ck_assert_int_eq(fxn_open(&o, neff2, nl, w.ntff, w.ntff_len, FXN_SRC_CHUNKY, NXP_PROFILE_ALLOW_MISMATCH, &st),
			 NXP_OK);
	int64_t rows;
	nxp_cursor_stats cs;
	ck_assert_int_eq(scan_all(o.p, &rows, &cs), 0);
	ck_assert_int_eq(rows, model_rows(&w.m));
	fxn_close(&o);
	free(neff2);
	/* misuse */
	ck_assert_int_eq(nxp_profile_open(NULL, NULL, NULL, NULL, &st), NXP_E_INVAL);
	nxp_profile_close(NULL);
	nxp_cursor_close(NULL);
	ck_assert_ptr_null(nxp_profile_neff(NULL));
	img_free(&w);
}
END_TEST

START_TEST(test_header_errors)
{
	img w;
	img_build(&w, 0);
	uint8_t *b = malloc(w.ntff_len);
	fxn_pair o;
	nxp_status st;
	/* unknown layout version: refused naming the range */
	memcpy(b, w.ntff, w.ntff_len);
	ntff_st32(b + 8, 2);
	ntff_st32(b + 124, ntff_crc32(b, 124));
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_VERSION);
	ck_assert_ptr_nonnull(strstr(st.message, "supported: 1 - 1"));
	ck_assert_int_eq(st.offset, 8);
	/* bad magic */
	memcpy(b, w.ntff, w.ntff_len);
	b[0] = 'X';
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_CHUNKY, 0, &o, &st), NXP_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(st.message, "magic"));
	/* bad header CRC */
	memcpy(b, w.ntff, w.ntff_len);
	b[100] ^= 0x40;
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_CHUNKY, 0, &o, &st), NXP_E_CRC);
	ck_assert_int_eq(st.offset, 124);
	/* empty file */
	ck_assert_int_eq(try_open(&w, b, 0, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_TRUNCATED);
	ck_assert_ptr_nonnull(strstr(st.message, "nothing was captured"));
	free(b);
	img_free(&w);
}
END_TEST

/* Truncation at many offsets: a clean error at open or while reading, or
 * (when only the index/footer is lost) a linear walk that reads everything. */
START_TEST(test_truncated)
{
	img w;
	img_build(&w, _i);
	fxn_section sec[256];
	size_t ns = fxn_sections(w.ntff, w.ntff_len, sec, 256);
	ck_assert_uint_gt(ns, 10);
	uint64_t index_off = sec[ns - 1].offset;
	ck_assert_uint_eq(sec[ns - 1].kind, NTFF_SEC_INDEX);
	int64_t all = model_rows(&w.m);
	size_t step = w.ntff_len / 97 + 1;
	for (size_t len = 0; len < w.ntff_len; len += (len > w.ntff_len - 200 ? 1 : step)) {
		uint8_t *b = malloc(len ? len : 1); /* exact size: ASan sees any over-read */
		memcpy(b, w.ntff, len);
		fxn_pair o;
		nxp_status st;
		int rc = try_open(&w, b, len, _i ? FXN_SRC_CHUNKY : FXN_SRC_MEMORY, 0, &o, &st);
		if (len >= index_off) {
			/* the tables are intact: the walk finds them */
			ck_assert_msg(rc == NXP_OK, "len %zu: %s", len, st.message);
			int64_t rows;
			nxp_cursor_stats cs;
			ck_assert_int_eq(scan_all(o.p, &rows, &cs), 0);
			ck_assert_int_eq(rows, all);
			fxn_close(&o);
		} else {
			ck_assert_msg(rc < 0, "len %zu opened", len);
			ck_assert(rc == NXP_E_TRUNCATED || rc == NXP_E_FORMAT || rc == NXP_E_VERSION);
			ck_assert(st.message[0] != '\0');
		}
		free(b);
	}
	img_free(&w);
}
END_TEST

static size_t first_data(const fxn_section *sec, size_t ns, unsigned queue)
{
	for (size_t i = 0; i < ns; i++)
		if (sec[i].kind == NTFF_SEC_DATA && sec[i].queue == queue)
			return i;
	ck_abort_msg("no data section");
	return 0;
}

START_TEST(test_bad_section_crc)
{
	img w;
	img_build(&w, _i);
	fxn_section sec[256];
	size_t ns = fxn_sections(w.ntff, w.ntff_len, sec, 256);
	size_t k = first_data(sec, ns, 0); /* first section of the tensor-engine queue */
	uint8_t *b = malloc(w.ntff_len);
	memcpy(b, w.ntff, w.ntff_len);
	b[sec[k].offset + NTFF_SECTION_HEADER_SIZE + 5] ^= 0x10;
	fxn_pair o;
	nxp_status st;
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_CHUNKY, 0, &o, &st), NXP_OK);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction r;
	r.struct_size = sizeof(r);
	int64_t n = 0, tensor = 0;
	while (nxp_cursor_next_instruction(c, &r) == NXP_OK) {
		n++;
		tensor += r.engine_id == NXP_ENGINE_TENSOR;
	}
	nxp_cursor_stats cs;
	cs.struct_size = sizeof(cs);
	nxp_cursor_get_stats(c, &cs);
	ck_assert_int_eq(cs.skipped_sections, 1);
	ck_assert_int_eq(cs.last_bad_offset, (int64_t)sec[k].offset);
	ck_assert_int_eq(tensor, w.spec.n_instr - (int64_t)w.spec.rps); /* the section's records are gone */
	ck_assert_int_eq(n, 5 * w.spec.n_instr - (int64_t)w.spec.rps);
	nxp_cursor_close(c);
	fxn_close(&o);
	if (!_i) {
		/* with CRC checks off the section is read */
		ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, NXP_PROFILE_SKIP_CRC, &o, &st), NXP_OK);
		ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
		n = 0;
		while (nxp_cursor_next_instruction(c, &r) == NXP_OK)
			n++;
		nxp_cursor_get_stats(c, &cs);
		ck_assert_int_eq(cs.skipped_sections, 0);
		ck_assert_int_eq(n + cs.bad_records, 5 * w.spec.n_instr);
		nxp_cursor_close(c);
		fxn_close(&o);
	}
	free(b);
	img_free(&w);
}
END_TEST

/* A damaged TPB section does not fail the open: the Metadata counts it. */
START_TEST(test_bad_tpb_section)
{
	img w;
	img_build(&w, _i);
	fxn_pair o;
	nxp_status st;
	ck_assert_int_eq(try_open(&w, w.ntff, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_OK);
	unsigned tpb = NTFF_NO_QUEUE;
	for (size_t i = 0; i < o.p->nqueues; i++)
		if (o.p->queues[i].kind == NXP_QUEUE_TPB)
			tpb = (unsigned)i;
	ck_assert_uint_ne(tpb, NTFF_NO_QUEUE);
	nxp_metadata md;
	md.struct_size = sizeof(md);
	ck_assert_int_eq(nxp_profile_get_metadata(o.p, &md), NXP_OK);
	ck_assert_int_eq(md.tpb_damaged, 0);
	ck_assert_int_ne(md.tpb_start_ts, INT64_MIN);
	int64_t start = md.tpb_start_ts;
	fxn_close(&o);

	fxn_section sec[256];
	size_t ns = fxn_sections(w.ntff, w.ntff_len, sec, 256);
	size_t k = first_data(sec, ns, tpb);
	uint8_t *b = malloc(w.ntff_len);
	memcpy(b, w.ntff, w.ntff_len);
	b[sec[k].offset + NTFF_SECTION_HEADER_SIZE + 1] ^= 0x01;
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_CHUNKY, 0, &o, &st), NXP_OK);
	ck_assert_int_eq(nxp_profile_get_metadata(o.p, &md), NXP_OK);
	ck_assert_int_eq(md.tpb_damaged, 1);
	ck_assert(md.tpb_start_ts == INT64_MIN || md.tpb_start_ts > start); /* its first start was in that section */
	fxn_close(&o);
	free(b);
	img_free(&w);
}
END_TEST

/* Rewrite the INDEX section after editing entry `e` with `edit`. */
static void edit_index(uint8_t *b, size_t len, void (*edit)(ntff_index_entry *), size_t which_kind_data)
{
	fxn_section sec[256];
	size_t ns = fxn_sections(b, len, sec, 256);
	uint64_t off = sec[ns - 1].offset;
	ntff_section_header h;
	ck_assert_int_eq(ntff_section_header_decode(b + off, &h, off, NULL), NXP_OK);
	ck_assert_int_eq(h.kind, NTFF_SEC_INDEX);
	ck_assert_int_eq(h.flags & NTFF_SEC_ZLIB, 0);
	uint8_t *pl = b + off + NTFF_SECTION_HEADER_SIZE;
	size_t seen = 0;
	for (uint64_t i = 0; i < h.record_count; i++) {
		ntff_index_entry e;
		ntff_index_entry_decode(pl + i * NTFF_INDEX_ENTRY_SIZE, &e);
		if (e.kind == NTFF_SEC_DATA && seen++ == which_kind_data) {
			edit(&e);
			ntff_index_entry_encode(&e, pl + i * NTFF_INDEX_ENTRY_SIZE);
		}
	}
	h.data_crc = ntff_crc32(pl, (size_t)h.stored_length);
	ntff_section_header_encode(&h, b + off);
}

static void huge_length(ntff_index_entry *e)
{
	e->stored_length = UINT64_MAX - 100;
}

static void bad_queue(ntff_index_entry *e)
{
	e->queue = 5000;
}

START_TEST(test_index_corruption)
{
	img w;
	img_build(&w, 0);
	uint8_t *b = malloc(w.ntff_len);
	fxn_pair o;
	nxp_status st;
	/* section length past EOF in the index */
	memcpy(b, w.ntff, w.ntff_len);
	edit_index(b, w.ntff_len, huge_length, 3);
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_CHUNKY, 0, &o, &st), NXP_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(st.message, "past the end"));
	ck_assert_int_gt(st.offset, 0);
	/* queue id outside the queue table */
	memcpy(b, w.ntff, w.ntff_len);
	edit_index(b, w.ntff_len, bad_queue, 0);
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(st.message, "queue id 5000"));
	/* the INDEX relabelled as a second string table: refused, offset of the duplicate */
	memcpy(b, w.ntff, w.ntff_len);
	{
		fxn_section s2[256];
		size_t n2 = fxn_sections(b, w.ntff_len, s2, 256);
		ntff_st16(b + s2[n2 - 1].offset + 4, NTFF_SEC_STRTAB);
		fxn_fix_section_crc(b, s2[n2 - 1].offset);
		ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_FORMAT);
		ck_assert_int_eq(st.offset, (int64_t)s2[n2 - 1].offset);
		ck_assert_ptr_nonnull(strstr(st.message, "second section"));
	}
	/* a damaged index falls back to the linear walk */
	memcpy(b, w.ntff, w.ntff_len);
	fxn_section sec[256];
	size_t ns = fxn_sections(b, w.ntff_len, sec, 256);
	b[sec[ns - 1].offset + NTFF_SECTION_HEADER_SIZE + 3] ^= 1;
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_OK);
	ck_assert_int_eq(o.p->used_index, 0);
	int64_t rows;
	nxp_cursor_stats cs;
	ck_assert_int_eq(scan_all(o.p, &rows, &cs), 0);
	ck_assert_int_eq(rows, model_rows(&w.m));
	fxn_close(&o);
	ck_assert_int_eq(try_open(&w, w.ntff, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_OK);
	ck_assert_int_eq(o.p->used_index, 1);
	fxn_close(&o);
	free(b);
	img_free(&w);
}
END_TEST

START_TEST(test_section_header_corruption)
{
	img w;
	img_build(&w, 0);
	uint8_t *b = malloc(w.ntff_len);
	fxn_section sec[256];
	size_t ns = fxn_sections(w.ntff, w.ntff_len, sec, 256);
	size_t k = first_data(sec, ns, 5); /* first DMA queue */
	fxn_pair o;
	nxp_status st;
	int64_t rows;
	nxp_cursor_stats cs;
	int64_t all = model_rows(&w.m);
	/* record count x size overflow; queue id changed; record size too small; unknown record kind */
	struct {
		unsigned at, width;
		uint64_t v;
	} edits[] = {{16, 8, 0x4000000000000001ull}, {8, 4, 3}, {14, 2, 8}, {12, 2, 77}, {24, 8, 1ull << 40}};
	for (size_t e = 0; e < sizeof(edits) / sizeof(edits[0]); e++) {
		memcpy(b, w.ntff, w.ntff_len);
		uint8_t *h = b + sec[k].offset;
		if (edits[e].width == 8)
			ntff_st64(h + edits[e].at, edits[e].v);
		else if (edits[e].width == 4)
			ntff_st32(h + edits[e].at, (uint32_t)edits[e].v);
		else
			ntff_st16(h + edits[e].at, (uint16_t)edits[e].v);
		fxn_fix_section_crc(b, sec[k].offset);
		ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_CHUNKY, 0, &o, &st), NXP_OK);
		ck_assert_int_eq(scan_all(o.p, &rows, &cs), 0);
		ck_assert_int_eq(cs.skipped_sections, 2); /* DMA table and active time */
		ck_assert_int_eq(cs.last_bad_offset, (int64_t)sec[k].offset);
		ck_assert_int_eq(rows, all - (int64_t)w.spec.rps);
		fxn_close(&o);
	}
	/* the QUEUES table: count x size overflow refuses the file */
	size_t qk = 0;
	while (sec[qk].kind != NTFF_SEC_QUEUES)
		qk++;
	memcpy(b, w.ntff, w.ntff_len);
	ntff_st64(b + sec[qk].offset + 16, 0x4000000000000001ull);
	fxn_fix_section_crc(b, sec[qk].offset);
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_FORMAT);
	ck_assert_int_eq(st.offset, (int64_t)sec[qk].offset);
	/* queue name strref outside the string table */
	memcpy(b, w.ntff, w.ntff_len);
	uint8_t *qp = b + sec[qk].offset + NTFF_SECTION_HEADER_SIZE;
	ntff_st32(qp + 8, 0x7fffffff);
	ntff_section_header qh;
	ntff_section_header_decode(b + sec[qk].offset, &qh, 0, NULL);
	qh.data_crc = ntff_crc32(qp, (size_t)qh.stored_length);
	ntff_section_header_encode(&qh, b + sec[qk].offset);
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_FORMAT);
	ck_assert_ptr_nonnull(strstr(st.message, "string table"));
	/* STRTAB with a bad CRC refuses the file */
	memcpy(b, w.ntff, w.ntff_len);
	size_t sk = 0;
	while (sec[sk].kind != NTFF_SEC_STRTAB)
		sk++;
	b[sec[sk].offset + NTFF_SECTION_HEADER_SIZE + 2] ^= 1;
	ck_assert_int_eq(try_open(&w, b, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_CRC);
	/* max_section_size: a limit smaller than the string table */
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	po.max_section_size = 8;
	nxp_source *a, *t;
	nxp_source_open_memory(&a, w.neff, w.neff_len, NULL);
	nxp_source_open_memory(&t, w.ntff, w.ntff_len, NULL);
	nxp_profile *p;
	ck_assert_int_eq(nxp_profile_open(&p, a, t, &po, &st), NXP_E_LIMIT);
	nxp_source_close(a);
	nxp_source_close(t);
	free(b);
	img_free(&w);
}
END_TEST

/* An NTFF written with the writer's unchecked mode (to make bad records) into a
 * temporary file, then opened with a fixture NEFF over the tiny-uneven-chunk
 * source: unchecked_begin, write notes, unchecked_open, unchecked_end. */
typedef struct unchecked_file {
	char *dir, *path;
	uint8_t *ntff;
	void *neff;
	fxn_pair o;
} unchecked_file;

static nxp_ntff_writer *unchecked_begin(unchecked_file *u, const char *name)
{
	memset(u, 0, sizeof(*u));
	u->dir = tu_tmpdir();
	u->path = tu_path(u->dir, name);
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, u->path, &info, NULL, NULL), NXP_OK);
	ntff_writer_set_unchecked(w, 1);
	return w;
}

/* Finish and close the writer, then open the pair; returns the profile. */
static nxp_profile *unchecked_open(unchecked_file *u, nxp_ntff_writer *w)
{
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	uint8_t uuid[16] = {0};
	size_t len, nl;
	u->ntff = tu_read_file(u->path, &len);
	u->neff = fxn_neff(uuid, &nl);
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(fxn_open(&u->o, u->neff, nl, u->ntff, len, FXN_SRC_CHUNKY, 0, &st), NXP_OK);
	return u->o.p;
}

static void unchecked_end(unchecked_file *u)
{
	fxn_close(&u->o);
	free(u->ntff);
	free(u->neff);
	remove(u->path);
	remove(u->dir);
	free(u->path);
	free(u->dir);
}

/* Files made with the writer's unchecked mode: records going backwards and
 * string references out of range are bad records, skipped and counted. */
START_TEST(test_bad_records)
{
	unchecked_file u;
	nxp_ntff_writer *w = unchecked_begin(&u, "bad.ntff");
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_INSTRUCTION;
	q.engine = NXP_ENGINE_SCALAR;
	int32_t iq = nxp_ntff_writer_add_queue(w, &q);
	q.kind = NXP_QUEUE_DMA;
	q.engine = -1;
	q.name = "q_act_out";
	int32_t dq = nxp_ntff_writer_add_queue(w, &q);
	q.kind = NXP_QUEUE_ERROR;
	int32_t eq = nxp_ntff_writer_add_queue(w, &q);
	uint64_t starts[] = {10, 20, 15, 30, 25, 40};
	for (int i = 0; i < 6; i++) {
		nxp_ntff_instruction_note n = {starts[i], starts[i] + 3, 0, 0, -1};
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &n), NXP_OK);
		nxp_ntff_dma_note d;
		memset(&d, 0, sizeof(d));
		d.start_tick = 100 + (uint64_t)i;
		d.end_tick = i == 4 ? 50 : 110; /* ends before it starts */
		d.variable = i == 1 ? 0x7fffffffu : 0;
		d.source = i == 5 ? 200 : 1;
		ck_assert_int_eq(nxp_ntff_writer_dma(w, dq, &d), NXP_OK);
		nxp_ntff_error_note e = {200 + (uint64_t)i, 1, (uint8_t)(i == 2 ? 9 : 1), i == 3 ? 0x7ffffff0u : 0, 0};
		ck_assert_int_eq(nxp_ntff_writer_error(w, eq, &e), NXP_OK);
	}
	nxp_profile *p = unchecked_open(&u, w);
	nxp_cursor *c;
	nxp_cursor_stats cs;
	cs.struct_size = sizeof(cs);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction r;
	r.struct_size = sizeof(r);
	int64_t want[] = {10, 20, 30, 40}, k = 0;
	while (nxp_cursor_next_instruction(c, &r) == NXP_OK) {
		ck_assert_int_lt(k, 4);
		ck_assert_int_eq(r.start_ts, want[k]);
		k++;
	}
	ck_assert_int_eq(k, 4);
	nxp_cursor_get_stats(c, &cs);
	ck_assert_int_eq(cs.bad_records, 2);
	/* the 5th record (25) of the only section of queue 0 */
	ck_assert_int_eq(cs.last_bad_offset, (int64_t)(NTFF_FILE_HEADER_SIZE + NTFF_SECTION_HEADER_SIZE + 4 * 32));
	nxp_cursor_close(c);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
	nxp_dma_packet d;
	d.struct_size = sizeof(d);
	k = 0;
	while (nxp_cursor_next_dma_packet(c, &d) == NXP_OK) {
		ck_assert_int_eq(d.id, k == 0 ? 0 : k == 1 ? 2 : 3); /* ids skip the bad rows */
		k++;
	}
	ck_assert_int_eq(k, 3);
	nxp_cursor_get_stats(c, &cs);
	ck_assert_int_eq(cs.bad_records, 3);
	nxp_cursor_close(c);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_ERROR, NULL, NULL), NXP_OK);
	nxp_error_record er;
	er.struct_size = sizeof(er);
	k = 0;
	while (nxp_cursor_next_error(c, &er) == NXP_OK)
		k++;
	ck_assert_int_eq(k, 4);
	nxp_cursor_get_stats(c, &cs);
	ck_assert_int_eq(cs.bad_records, 2);
	nxp_cursor_close(c);
	unchecked_end(&u);
}
END_TEST

/* ActiveTime and DmaPacket read the same DMA records with the same checks:
 * packets with a string id outside the string table or an unknown memory kind
 * are bad for both (not busy time), counted once each, at the record's own
 * byte offset (issue 12: ActiveTime used to count them as busy and report the
 * section's offset). */
START_TEST(test_active_time_agrees_with_dma)
{
	unchecked_file u;
	nxp_ntff_writer *w = unchecked_begin(&u, "baddma.ntff");
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_DMA;
	q.engine = -1;
	q.name = "qA";
	int32_t qa = nxp_ntff_writer_add_queue(w, &q);
	q.name = "qB";
	int32_t qb = nxp_ntff_writer_add_queue(w, &q);
	enum { N = 6 };
	/* Disjoint packets (gaps of 10 ticks): each good one is its own busy run.
	 * Queue A: 100, 120, ...; queue B: 110, 130, ... interleaved in time. */
	for (int i = 0; i < N; i++) {
		for (int b = 0; b < 2; b++) {
			nxp_ntff_dma_note d;
			memset(&d, 0, sizeof(d));
			d.start_tick = 100 + 20 * (uint64_t)i + 10 * (uint64_t)b;
			d.end_tick = d.start_tick + 5;
			d.read_bytes = d.write_bytes = 64;
			d.source = NXP_MEMORY_HBM;
			d.dest = NXP_MEMORY_SBUF;
			if (b == 0 && i == 1)
				d.variable = 0x7fffffffu; /* string id outside the table */
			if (b == 0 && i == 3)
				d.source = 7; /* unknown memory kind */
			if (b == 1 && i == 4)
				d.dest = 200; /* unknown memory kind, the last bad one in time */
			ck_assert_int_eq(nxp_ntff_writer_dma(w, b ? qb : qa, &d), NXP_OK);
		}
	}
	nxp_profile *p = unchecked_open(&u, w);
	nxp_cursor_stats ds, as;
	ds.struct_size = as.struct_size = sizeof(ds);

	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
	int64_t lo[2 * N], hi[2 * N];
	int k = 0;
	nxp_dma_packet d;
	d.struct_size = sizeof(d);
	while (nxp_cursor_next_dma_packet(c, &d) == NXP_OK) {
		ck_assert_int_lt(k, 2 * N);
		lo[k] = d.start_ts;
		hi[k] = d.end_ts;
		k++;
	}
	ck_assert_int_eq(k, 2 * N - 3);
	nxp_cursor_get_stats(c, &ds);
	nxp_cursor_close(c);
	ck_assert_int_eq(ds.bad_records, 3);
	/* the last bad record in time: queue B's 5th record (index 4), in the
	 * second DATA section (queue A's has N records of 48 bytes) */
	uint64_t sec_b = NTFF_FILE_HEADER_SIZE + NTFF_SECTION_HEADER_SIZE + N * NTFF_REC_DMA_SIZE;
	ck_assert_int_eq(ds.last_bad_offset, (int64_t)(sec_b + NTFF_SECTION_HEADER_SIZE + 4 * NTFF_REC_DMA_SIZE));

	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_ACTIVE_TIME, NULL, NULL), NXP_OK);
	nxp_active_time a;
	a.struct_size = sizeof(a);
	int m = 0;
	while (nxp_cursor_next_active_time(c, &a) == NXP_OK) {
		ck_assert_int_lt(m, k);
		ck_assert_str_eq(a.engine, "dma");
		ck_assert_int_eq(a.start_ts, lo[m]); /* the same packets, busy exactly while they run */
		ck_assert_int_eq(a.end_ts, hi[m]);
		m++;
	}
	ck_assert_int_eq(m, k);
	nxp_cursor_get_stats(c, &as);
	nxp_cursor_close(c);
	ck_assert_int_eq(as.bad_records, ds.bad_records);
	ck_assert_int_eq(as.last_bad_offset, ds.last_bad_offset);
	unchecked_end(&u);
}
END_TEST

/* Seek over a damaged section: a key above INT64_MAX among sorted keys can
 * steer the binary search early; the cursor must still start at or after the
 * seek point, with the same row ids as a full scan (fuzz/crashes/cursor/
 * seek-lands-before-bad-key). */
START_TEST(test_seek_over_bad_key)
{
	unchecked_file u;
	nxp_ntff_writer *w = unchecked_begin(&u, "badkey.ntff");
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_INSTRUCTION;
	q.engine = NXP_ENGINE_SCALAR;
	int32_t iq = nxp_ntff_writer_add_queue(w, &q);
	const uint64_t big = (UINT64_C(1) << 63) + 5;
	uint64_t starts[] = {10, big, 15, 30, 35, 40};
	for (int i = 0; i < 6; i++) {
		nxp_ntff_instruction_note n = {starts[i], starts[i] + 3, 0, 0, -1};
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &n), NXP_OK);
	}
	nxp_profile *p = unchecked_open(&u, w);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction r;
	r.struct_size = sizeof(r);
	/* full scan: 10 (id 0), the bad row (id 1), 15, 30, 35, 40 (ids 2..5) */
	int64_t k = 0;
	while (nxp_cursor_next_instruction(c, &r) == NXP_OK)
		k++;
	ck_assert_int_eq(k, 5);
	/* the search lands on the bad key; 15 follows in order but is before 25 */
	ck_assert_int_eq(nxp_cursor_seek(c, 25), NXP_OK);
	ck_assert_int_eq(nxp_cursor_position(c), 30);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &r), NXP_OK);
	ck_assert_int_eq(r.start_ts, 30);
	ck_assert_int_eq(r.id, 3);
	nxp_cursor_close(c);
	/* the same through a window that starts there */
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = 25;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, &co, NULL), NXP_OK);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &r), NXP_OK);
	ck_assert_int_eq(r.start_ts, 30);
	ck_assert_int_eq(r.id, 3);
	nxp_cursor_close(c);
	unchecked_end(&u);
}
END_TEST

START_TEST(test_unfinished_and_unknown)
{
	img w;
	img_build(&w, 0);
	fxn_section sec[256];
	size_t ns = fxn_sections(w.ntff, w.ntff_len, sec, 256);
	/* a writer that never finished: no tables */
	char *path = tu_path(w.dir, "unfinished.ntff");
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, w.spec.uuid, 16);
	nxp_ntff_writer *wr;
	nxp_ntff_writer_options wo;
	nxp_ntff_writer_options_init(&wo);
	wo.records_per_section = 2;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&wr, path, &info, &wo, NULL), NXP_OK);
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_TPB;
	int32_t tq = nxp_ntff_writer_add_queue(wr, &q);
	for (uint64_t i = 0; i < 5; i++) {
		nxp_ntff_tpb_note n = {i, 0};
		ck_assert_int_eq(nxp_ntff_writer_tpb(wr, tq, &n), NXP_OK);
	}
	nxp_ntff_writer_close(wr);
	size_t ul;
	uint8_t *u = tu_read_file(path, &ul);
	ck_assert_uint_gt(ul, NTFF_FILE_HEADER_SIZE);
	fxn_pair o;
	nxp_status st;
	ck_assert_int_eq(try_open(&w, u, ul, FXN_SRC_MEMORY, 0, &o, &st), NXP_E_TRUNCATED);
	ck_assert_ptr_nonnull(strstr(st.message, "not finished"));
	free(u);
	remove(path);
	free(path);

	/* an unknown section kind (inserted after the header; no index, so the walk finds it) */
	uint64_t index_off = sec[ns - 1].offset;
	size_t extra = NTFF_SECTION_HEADER_SIZE + 10;
	size_t bl = (size_t)index_off + extra;
	uint8_t *b = malloc(bl);
	memcpy(b, w.ntff, NTFF_FILE_HEADER_SIZE);
	ntff_section_header h;
	memset(&h, 0, sizeof(h));
	h.kind = 99;
	h.queue = NTFF_NO_QUEUE;
	h.stored_length = h.raw_length = 10;
	uint8_t pl[10] = "abcdefghi";
	h.data_crc = ntff_crc32(pl, 10);
	ntff_section_header_encode(&h, b + NTFF_FILE_HEADER_SIZE);
	memcpy(b + NTFF_FILE_HEADER_SIZE + NTFF_SECTION_HEADER_SIZE, pl, 10);
	memcpy(b + NTFF_FILE_HEADER_SIZE + extra, w.ntff + NTFF_FILE_HEADER_SIZE, (size_t)index_off - NTFF_FILE_HEADER_SIZE);
	ck_assert_int_eq(try_open(&w, b, bl, FXN_SRC_CHUNKY, 0, &o, &st), NXP_OK);
	nxp_metadata md;
	md.struct_size = sizeof(md);
	nxp_profile_get_metadata(o.p, &md);
	ck_assert_int_eq(md.unknown_sections, 1);
	int64_t rows;
	nxp_cursor_stats cs;
	ck_assert_int_eq(scan_all(o.p, &rows, &cs), 0);
	ck_assert_int_eq(rows, model_rows(&w.m));
	fxn_close(&o);
	free(b);
	img_free(&w);
}
END_TEST

/* A source whose reads fail after a while: the cursor ends with NXP_E_IO. */
typedef struct flaky {
	const uint8_t *d;
	size_t len, pos, budget;
} flaky;

static int64_t flaky_read(void *u, void *buf, size_t len)
{
	flaky *f = u;
	if (f->budget == 0)
		return -1;
	f->budget--;
	size_t n = len < f->len - f->pos ? len : f->len - f->pos;
	memcpy(buf, f->d + f->pos, n);
	f->pos += n;
	return (int64_t)n;
}

static int flaky_seek(void *u, uint64_t off)
{
	flaky *f = u;
	if (off > f->len)
		return -1;
	f->pos = (size_t)off;
	return 0;
}

static int64_t flaky_size(void *u)
{
	return (int64_t)((flaky *)u)->len;
}

START_TEST(test_io_error)
{
	img w;
	img_build(&w, 0);
	/* the instructions of the intact file, in cursor order */
	nxp_instruction clean[512];
	size_t nclean = 0;
	{
		fxn_pair o;
		nxp_status st;
		ck_assert_int_eq(try_open(&w, w.ntff, w.ntff_len, FXN_SRC_MEMORY, 0, &o, &st), NXP_OK);
		nxp_cursor *c;
		ck_assert_int_eq(nxp_cursor_open(&c, o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
		while (nclean < 512) {
			clean[nclean].struct_size = sizeof(clean[0]);
			if (nxp_cursor_next_instruction(c, &clean[nclean]) != NXP_OK)
				break;
			nclean++;
		}
		ck_assert_uint_gt(nclean, 0);
		ck_assert_uint_lt(nclean, 512);
		nxp_cursor_close(c);
		fxn_close(&o);
	}
	int saw_io = 0;
	for (size_t budget = 0; budget < 80; budget += 3) {
		flaky f = {w.ntff, w.ntff_len, 0, budget};
		nxp_source_callbacks cb;
		nxp_source_callbacks_init(&cb);
		cb.read = flaky_read;
		cb.seek = flaky_seek;
		cb.get_size = flaky_size;
		nxp_source *ns, *nf;
		ck_assert_int_eq(nxp_source_open_memory(&nf, w.neff, w.neff_len, NULL), NXP_OK);
		ck_assert_int_eq(nxp_source_open_callbacks(&ns, &cb, &f, NULL), NXP_OK);
		nxp_profile *p;
		nxp_status st;
		nxp_status_init(&st);
		int rc = nxp_profile_open(&p, nf, ns, NULL, &st);
		if (rc == NXP_OK) {
			/* Batches stop at the read error: every record returned before it is
			 * the clean file's record of that rank, never bytes of a failed read. */
			nxp_cursor *c = NULL;
			int orc = nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL);
			ck_assert(orc == NXP_OK || orc == NXP_E_IO); /* opening reads each queue's first section */
			nxp_instruction got[8];
			size_t n = 0, k = 0;
			int brc = orc == NXP_OK ? NXP_OK : NXP_E_IO;
			while (c && ((brc = nxp_cursor_next_batch(c, got, sizeof(got[0]), 8, &n)) == NXP_OK || n > 0)) {
				for (size_t j = 0; j < n; j++, k++) {
					ck_assert_uint_lt(k, nclean);
					ck_assert_int_eq(got[j].start_ts, clean[k].start_ts);
					ck_assert_int_eq(got[j].end_ts, clean[k].end_ts);
					ck_assert_int_eq(got[j].pc, clean[k].pc);
				}
				if (brc != NXP_OK)
					break;
			}
			ck_assert(brc == NXP_END || brc == NXP_E_IO);
			if (c && brc == NXP_E_IO) /* the error stays */
				ck_assert_int_eq(nxp_cursor_next_batch(c, got, sizeof(got[0]), 8, &n), NXP_E_IO);
			nxp_cursor_close(c);
			/* then every table, with what is left of the read budget */
			int64_t rows;
			nxp_cursor_stats cs;
			rc = scan_all(p, &rows, &cs);
			if (brc == NXP_E_IO)
				rc = NXP_E_IO;
			nxp_profile_close(p);
		}
		ck_assert(rc == NXP_OK || rc == NXP_E_IO);
		saw_io |= rc == NXP_E_IO;
		nxp_source_close(ns);
		nxp_source_close(nf);
	}
	ck_assert(saw_io);
	img_free(&w);
}
END_TEST

/* The merge (ntff_priv.h) against a plain sort: eleven DMA queues (not a power
 * of two: the tree has empty leaves), one empty, keys that tie within and
 * across queues, seven records per section (runs cross sections), read record
 * by record, run by run (moving past whole runs, part of them, or none), and
 * through the cursor, whole and windowed: every record once, in (start, queue
 * id, position) order, with its row id. */
typedef struct mref {
	uint64_t key;
	uint32_t qid, pos;
} mref;

static int mref_cmp(const void *a, const void *b)
{
	const mref *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->qid != y->qid)
		return x->qid < y->qid ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

enum { MQ = 11 };

/* Read [from, to) with `mode` (0 record by record, 1 whole runs, 2 runs moved
 * past one record at a time or not at all) and check it against ref[]. */
static void merge_matches(nxp_profile *p, const mref *ref, size_t nref, uint64_t from, uint64_t to, int mode)
{
	size_t lo = 0, hi = 0;
	while (lo < nref && ref[lo].key < from)
		lo++;
	for (size_t i = 0; i < nref; i++)
		hi += ref[i].key < to;
	nxp_cursor_options o;
	nxp_cursor_options_init(&o);
	ntff_iter it;
	ck_assert_int_eq(ntff_iter_open(&it, p, ntff_table_get(NXP_TABLE_DMA_PACKET), &o, from, to), NXP_OK);
	ck_assert_int_eq(ntff_iter_seek(&it, from), NXP_OK);
	size_t at = lo, turn = 0;
	ntff_rec r;
	int rc;
	while ((rc = mode == 0 ? ntff_iter_next(&it, &r) : ntff_iter_run(&it, &r)) == NXP_OK) {
		ck_assert_uint_ge(r.n, 1);
		size_t take = r.n;
		if (mode == 2) /* by turns: none of the run (it comes again), its first record, all of it */
			take = turn % 3 == 0 ? 0 : turn % 3 == 1 ? 1 : r.n;
		turn++;
		for (size_t i = 0; i < take; i++) {
			nxp_ntff_dma_note n;
			ntff_decode_dma(r.rec + i * r.rsize, &n);
			ck_assert_uint_lt(at, hi);
			ck_assert_uint_eq(n.start_tick, ref[at].key);
			ck_assert_uint_eq(r.qid, ref[at].qid);
			ck_assert_uint_eq(n.packet_idx, ref[at].pos);
			ck_assert_int_eq(r.id + (int64_t)i, (int64_t)at);
			at++;
		}
		if (mode == 2)
			ck_assert_int_eq(ntff_iter_skip(&it, take), NXP_OK);
	}
	ck_assert_int_eq(rc, NXP_END);
	ck_assert_uint_eq(at, hi);
	ck_assert_int_eq(it.s.stats.bad_records, 0);
	ntff_iter_close(&it);
	/* the cursor: record by record through its table's next */
	nxp_cursor *c;
	o.start_ts = (int64_t)from;
	o.end_ts = to == UINT64_MAX ? INT64_MAX : (int64_t)to;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, &o, NULL), NXP_OK);
	nxp_dma_packet d;
	d.struct_size = sizeof(d);
	at = lo;
	while (nxp_cursor_next_dma_packet(c, &d) == NXP_OK) {
		ck_assert_uint_lt(at, hi);
		ck_assert_int_eq(d.start_ts, (int64_t)ref[at].key);
		ck_assert_int_eq(d.packet_idx, (int64_t)ref[at].pos);
		ck_assert_int_eq(d.id, (int64_t)at);
		at++;
	}
	ck_assert_uint_eq(at, hi);
	nxp_cursor_close(c);
}

START_TEST(test_merge_order)
{
	char *dir = tu_tmpdir(), *path = tu_path(dir, "merge.ntff");
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer_options wo;
	nxp_ntff_writer_options_init(&wo);
	wo.records_per_section = 7;
	wo.flags = _i ? NXP_NTFF_WRITE_COMPRESS : 0;
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, &wo, NULL), NXP_OK);
	int32_t qid[MQ];
	for (int i = 0; i < MQ; i++) {
		nxp_ntff_queue q;
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_DMA;
		q.engine = -1;
		q.name = "q_act_out";
		q.queue_idx = i;
		ck_assert_int_ge(qid[i] = nxp_ntff_writer_add_queue(w, &q), 0);
	}
	mref *ref = malloc(MQ * 400 * sizeof(*ref));
	ck_assert_ptr_nonnull(ref);
	size_t nref = 0;
	unsigned seed = 12345;
	for (int i = 0; i < MQ; i++) {
		/* queue 3 empty; queue 5 one long run ahead of the others; the rest
		 * step by 0..2 ticks (ties within the queue and across queues) */
		int count = i == 3 ? 0 : 40 + 30 * (i % 4);
		uint64_t key = i == 5 ? 0 : 5 + (uint64_t)(i % 3);
		for (int k = 0; k < count; k++) {
			seed = seed * 1103515245u + 12345u;
			if (k)
				key += i == 5 ? (k < 25 ? 0 : 3) : (seed >> 16) % 3;
			nxp_ntff_dma_note n;
			memset(&n, 0, sizeof(n));
			n.start_tick = key;
			n.end_tick = key + 1;
			n.packet_idx = (uint32_t)k;
			n.source = n.dest = 1;
			ck_assert_int_eq(nxp_ntff_writer_dma(w, qid[i], &n), NXP_OK);
			ref[nref++] = (mref){key, (uint32_t)qid[i], (uint32_t)k};
		}
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	qsort(ref, nref, sizeof(*ref), mref_cmp);
	size_t ntff_len, neff_len;
	uint8_t *ntff = tu_read_file(path, &ntff_len), uuid[16] = {0};
	void *neff = fxn_neff(uuid, &neff_len);
	for (int src = FXN_SRC_MEMORY; src <= FXN_SRC_CHUNKY; src++) {
		fxn_pair o;
		nxp_status st;
		nxp_status_init(&st);
		ck_assert_int_eq(fxn_open(&o, neff, neff_len, ntff, ntff_len, src, 0, &st), NXP_OK);
		static const uint64_t win[][2] = {{0, UINT64_MAX}, {6, 40}, {7, 8}, {30, UINT64_MAX}, {1000, 2000}};
		for (size_t k = 0; k < sizeof(win) / sizeof(win[0]); k++)
			for (int mode = 0; mode < 3; mode++)
				merge_matches(o.p, ref, nref, win[k][0], win[k][1], mode);
		fxn_close(&o);
	}
	free(ref);
	free(ntff);
	free(neff);
	remove(path);
	remove(dir);
	free(path);
	free(dir);
}
END_TEST

Suite *ntff_suite(void);
Suite *ntff_suite(void)
{
	Suite *s = suite_create("ntff");
	TCase *t = tcase_create("ntff");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, test_crc32_is_zlib_crc32);
	tcase_add_test(t, test_layout_encode);
	tcase_add_test(t, test_writer_misuse);
	tcase_add_test(t, test_pairing);
	tcase_add_test(t, test_header_errors);
	tcase_add_loop_test(t, test_truncated, 0, 2);
	tcase_add_loop_test(t, test_bad_section_crc, 0, 2);
	tcase_add_loop_test(t, test_bad_tpb_section, 0, 2);
	tcase_add_test(t, test_index_corruption);
	tcase_add_test(t, test_section_header_corruption);
	tcase_add_test(t, test_bad_records);
	tcase_add_test(t, test_seek_over_bad_key);
	tcase_add_test(t, test_active_time_agrees_with_dma);
	tcase_add_test(t, test_unfinished_and_unknown);
	tcase_add_test(t, test_io_error);
	tcase_add_loop_test(t, test_merge_order, 0, 2);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(ntff_suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? 1 : 0;
}
