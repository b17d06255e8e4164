/* SPDX-License-Identifier: MIT */
/* Columnar tables (nxp/table.h): every stream is read by a consumer written
 * against the Arrow C Data / C Stream specification, which checks every batch
 * (formats, buffer counts, lengths, offsets, validity bits against null_count,
 * dictionary indices, release callbacks), keeps the batches until after the
 * stream and the profile are gone, and releases them in reverse order.
 * Values are compared with the cursor API. */
#include <check.h>
#include <nxp/nxp.h>

#include "ntff_fixture.h"
#include "ntff_priv.h"
#include "testutil.h"
#include "../libnxp/columnar/columnar_priv.h" /* the column descriptors: where each value comes from */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a spec consumer ---- */
static int bit(const void *buf, int64_t i)
{
	return (((const uint8_t *)buf)[i / 8] >> (i % 8)) & 1;
}

static int64_t n_buffers_for(const char *fmt)
{
	if (strcmp(fmt, "u") == 0)
		return 3;
	if (strcmp(fmt, "+s") == 0)
		return 1;
	return 2;
}

/* Validate one (non-struct) column array against its schema. */
static void check_column(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t length)
{
	ck_assert_ptr_nonnull(a->release);
	ck_assert_ptr_nonnull(s->release);
	ck_assert_int_eq(a->length, length);
	ck_assert_int_eq(a->offset, 0);
	ck_assert_int_eq(a->n_children, 0);
	ck_assert_int_eq(a->n_buffers, n_buffers_for(s->format));
	ck_assert(strcmp(s->format, "l") == 0 || strcmp(s->format, "i") == 0 || strcmp(s->format, "g") == 0 ||
		  strcmp(s->format, "b") == 0 || strcmp(s->format, "u") == 0);
	ck_assert_int_ge(a->null_count, 0);
	if (!(s->flags & ARROW_FLAG_NULLABLE))
		ck_assert_int_eq(a->null_count, 0);
	if (a->null_count > 0)
		ck_assert_ptr_nonnull(a->buffers[0]);
	if (a->buffers[0]) {
		int64_t nulls = 0;
		for (int64_t i = 0; i < a->length; i++)
			nulls += !bit(a->buffers[0], i);
		ck_assert_int_eq(nulls, a->null_count);
	}
	ck_assert_ptr_nonnull(a->buffers[1]);
	if (strcmp(s->format, "u") == 0) {
		const int32_t *o = a->buffers[1];
		ck_assert_ptr_nonnull(a->buffers[2]);
		ck_assert_int_eq(o[0], 0);
		for (int64_t i = 0; i < a->length; i++)
			ck_assert_int_le(o[i], o[i + 1]);
		/* every byte inside [0, o[length]) is readable (ASan checks it) */
		volatile uint64_t sum = 0;
		const uint8_t *d = a->buffers[2];
		for (int32_t k = 0; k < o[a->length]; k++)
			sum += d[k];
		(void)sum;
	} else if (length > 0) {
		volatile uint64_t sum = 0;
		size_t bytes = strcmp(s->format, "b") == 0 ? (size_t)(length + 7) / 8
			       : strcmp(s->format, "i") == 0 ? (size_t)length * 4
							      : (size_t)length * 8;
		for (size_t k = 0; k < bytes; k++)
			sum += ((const uint8_t *)a->buffers[1])[k];
		(void)sum;
	}
	if (s->dictionary) {
		ck_assert_str_eq(s->format, "i");
		ck_assert_str_eq(s->dictionary->format, "u");
		ck_assert_ptr_nonnull(a->dictionary);
		check_column(s->dictionary, a->dictionary, a->dictionary->length);
		const int32_t *idx = a->buffers[1];
		for (int64_t i = 0; i < a->length; i++) {
			if (a->buffers[0] && !bit(a->buffers[0], i))
				continue;
			ck_assert_int_ge(idx[i], 0);
			ck_assert_int_lt(idx[i], a->dictionary->length);
		}
	} else {
		ck_assert_ptr_null(a->dictionary);
	}
}

static void check_batch(const struct ArrowSchema *s, const struct ArrowArray *a)
{
	ck_assert_str_eq(s->format, "+s");
	ck_assert_ptr_nonnull(a->release);
	ck_assert_int_eq(a->n_buffers, 1);
	ck_assert_int_eq(a->null_count, 0);
	ck_assert_int_eq(a->offset, 0);
	ck_assert_int_eq(a->n_children, s->n_children);
	ck_assert_int_gt(a->length, 0);
	for (int64_t i = 0; i < a->n_children; i++)
		check_column(s->children[i], a->children[i], a->length);
}

/* All batches of a stream, checked; the stream is released. */
typedef struct drained {
	struct ArrowSchema schema;
	struct ArrowArray *b;
	size_t n;
	int64_t rows;
} drained;

static void drain(struct ArrowArrayStream *st, drained *d)
{
	memset(d, 0, sizeof(*d));
	ck_assert_ptr_nonnull(st->release);
	ck_assert_int_eq(st->get_schema(st, &d->schema), 0);
	ck_assert_ptr_nonnull(d->schema.release);
	for (;;) {
		struct ArrowArray a;
		int rc = st->get_next(st, &a);
		ck_assert_msg(rc == 0, "get_next: %d %s", rc, st->get_last_error(st) ? st->get_last_error(st) : "");
		if (!a.release)
			break;
		check_batch(&d->schema, &a);
		d->b = realloc(d->b, (d->n + 1) * sizeof(*d->b));
		d->b[d->n++] = a;
		d->rows += a.length;
	}
	/* the end stays the end */
	struct ArrowArray a;
	ck_assert_int_eq(st->get_next(st, &a), 0);
	ck_assert_ptr_null(a.release);
	st->release(st);
	ck_assert_ptr_null(st->release);
}

static void drained_free(drained *d)
{
	/* reverse order, children moved out first for some of them */
	for (size_t i = d->n; i-- > 0;) {
		struct ArrowArray *a = &d->b[i];
		if (i % 2 == 0 && a->n_children > 0) {
			/* move the first column out (spec: move the struct, mark the original released) */
			struct ArrowArray moved = *a->children[0];
			a->children[0]->release = NULL;
			a->release(a);
			moved.release(&moved);
			ck_assert_ptr_null(moved.release);
		} else {
			a->release(a);
		}
		ck_assert_ptr_null(a->release);
	}
	free(d->b);
	d->schema.release(&d->schema);
	ck_assert_ptr_null(d->schema.release);
}

static int col_of(const drained *d, const char *name)
{
	for (int64_t i = 0; i < d->schema.n_children; i++)
		if (strcmp(d->schema.children[i]->name, name) == 0)
			return (int)i;
	return -1;
}

static int64_t get_i64(const drained *d, int col, size_t b, int64_t row)
{
	const struct ArrowArray *c = d->b[b].children[col];
	const char *f = d->schema.children[col]->format;
	if (strcmp(f, "l") == 0)
		return ((const int64_t *)c->buffers[1])[row];
	return ((const int32_t *)c->buffers[1])[row];
}

static const char *get_str(const drained *d, int col, size_t b, int64_t row, char *tmp, size_t tmpsz)
{
	const struct ArrowArray *c = d->b[b].children[col];
	if (c->buffers[0] && !bit(c->buffers[0], row))
		return NULL;
	if (c->dictionary) {
		row = ((const int32_t *)c->buffers[1])[row];
		c = c->dictionary;
	}
	const int32_t *o = c->buffers[1];
	size_t n = (size_t)(o[row + 1] - o[row]);
	ck_assert_uint_lt(n, tmpsz);
	memcpy(tmp, (const char *)c->buffers[2] + o[row], n);
	tmp[n] = 0;
	return tmp;
}

/* ---- profiles ---- */
static const char *samples_dir(void)
{
	const char *s = getenv("NXP_SAMPLES_DIR");
	return s ? s : "samples";
}

static nxp_profile *open_demo(void)
{
	char neff[4096], ntff[4096];
	snprintf(neff, sizeof(neff), "%s/demo.neff", samples_dir());
	snprintf(ntff, sizeof(ntff), "%s/demo.ntff", samples_dir());
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, neff, ntff, NULL, &st) == NXP_OK, "%s", st.message);
	return p;
}

typedef struct synth {
	char *dir, *path;
	void *neff;
	uint8_t *ntff;
	fxn_model m;
	fxn_pair o;
} synth;

static nxp_profile *open_synth_n(synth *s, int pcores, int n_instr, int n_dma)
{
	memset(s, 0, sizeof(*s));
	fxn_spec spec;
	fxn_spec_default(&spec);
	spec.pcores = pcores;
	if (n_instr)
		spec.n_instr = n_instr;
	if (n_dma)
		spec.n_dma = n_dma;
	spec.rps = 37;
	s->dir = tu_tmpdir();
	s->path = tu_path(s->dir, "t.ntff");
	fxn_write(s->path, &spec, &s->m);
	size_t nl, tl;
	s->neff = fxn_neff(spec.uuid, &nl);
	s->ntff = tu_read_file(s->path, &tl);
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(fxn_open(&s->o, s->neff, nl, s->ntff, tl, FXN_SRC_MEMORY, 0, &st) == NXP_OK, "%s", st.message);
	return s->o.p;
}

static nxp_profile *open_synth(synth *s, int pcores)
{
	return open_synth_n(s, pcores, 0, 0);
}

static void close_synth(synth *s)
{
	fxn_close(&s->o);
	fxn_model_free(&s->m);
	free(s->neff);
	free(s->ntff);
	remove(s->path);
	remove(s->dir);
	free(s->path);
	free(s->dir);
}

/* Every profile table: open, drain and check; returns the drained tables
 * (released by the caller after closing the profile). */
static size_t drain_all(nxp_profile *p, drained *out, size_t max, int64_t batch_rows)
{
	size_t n = 0;
	for (int i = 0; nxp_table_name(i); i++) {
		const char *name = nxp_table_name(i);
		nxp_table_options o;
		nxp_table_options_init(&o);
		o.batch_rows = batch_rows;
		struct ArrowArrayStream st;
		nxp_status s;
		nxp_status_init(&s);
		int rc = nxp_profile_open_table(&st, p, name, &o, &s);
		if (!strcmp(name, "SystemProfileEvents") || !strcmp(name, "SystemProfileMetadata") ||
		    !strcmp(name, "CpuUsage") || !strcmp(name, "HostMemUsage")) {
			ck_assert_int_eq(rc, NXP_E_INVAL);
			continue;
		}
		ck_assert_msg(rc == NXP_OK, "%s: %s", name, s.message);
		ck_assert_uint_lt(n, max);
		drain(&st, &out[n]);
		n++;
	}
	return n;
}

static const drained *find(const drained *d, size_t n, const char *const *names, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return &d[i];
	return NULL;
}

/* Compare the device tables with the cursor API; check SchemaFields. */
static void compare(nxp_profile *p, const drained *d, size_t n)
{
	const char *names[64];
	size_t k = 0;
	for (int i = 0; nxp_table_name(i); i++) {
		const char *nm = nxp_table_name(i);
		if (strcmp(nm, "SystemProfileEvents") && strcmp(nm, "SystemProfileMetadata") && strcmp(nm, "CpuUsage") &&
		    strcmp(nm, "HostMemUsage"))
			names[k++] = nm;
	}
	ck_assert_uint_eq(k, n);
	char tmp[4096];

	/* Instruction: count, sum of durations, every opcode, time order */
	const drained *ins = find(d, n, names, "Instruction");
	ck_assert_ptr_nonnull(ins);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	int cop = col_of(ins, "opcode"), cdur = col_of(ins, "duration_ns"), cst = col_of(ins, "start_ts"),
	    ceng = col_of(ins, "engine");
	ck_assert_int_ge(cop, 0);
	int64_t rows = 0, sum_c = 0, sum_t = 0, prev = INT64_MIN;
	for (size_t b = 0; b < ins->n; b++)
		for (int64_t r = 0; r < ins->b[b].length; r++) {
			nxp_instruction rec;
			rec.struct_size = sizeof(rec);
			ck_assert_int_eq(nxp_cursor_next_instruction(c, &rec), NXP_OK);
			ck_assert_str_eq(get_str(ins, cop, b, r, tmp, sizeof(tmp)), rec.opcode);
			ck_assert_str_eq(get_str(ins, ceng, b, r, tmp, sizeof(tmp)), rec.engine);
			ck_assert_int_eq(get_i64(ins, cst, b, r), rec.start_ts);
			ck_assert_int_ge(rec.start_ts, prev);
			prev = rec.start_ts;
			sum_c += rec.duration_ns;
			sum_t += get_i64(ins, cdur, b, r);
			rows++;
		}
	nxp_instruction rec;
	rec.struct_size = sizeof(rec);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &rec), NXP_END);
	nxp_cursor_close(c);
	ck_assert_int_eq(rows, ins->rows);
	ck_assert_int_eq(sum_c, sum_t);

	/* the other cursor tables: counts */
	static const struct {
		const char *name;
		int table;
		size_t rsize;
	} dev[] = {
		{ "DmaPacket", NXP_TABLE_DMA_PACKET, sizeof(nxp_dma_packet) },
		{ "SemaphoreUpdate", NXP_TABLE_SEMAPHORE_UPDATE, sizeof(nxp_semaphore_update) },
		{ "Throttle", NXP_TABLE_THROTTLE, sizeof(nxp_throttle) },
		{ "Error", NXP_TABLE_ERROR, sizeof(nxp_error_record) },
		{ "ExecutionInfo", NXP_TABLE_EXECUTION, sizeof(nxp_execution) },
		{ "ActiveTime", NXP_TABLE_ACTIVE_TIME, sizeof(nxp_active_time) },
	};
	for (size_t t = 0; t < sizeof(dev) / sizeof(dev[0]); t++) {
		ck_assert_int_eq(nxp_cursor_open(&c, p, dev[t].table, NULL, NULL), NXP_OK);
		void *recs = calloc(64, dev[t].rsize);
		int64_t cnt = 0;
		size_t got;
		while (nxp_cursor_next_batch(c, recs, dev[t].rsize, 64, &got) == NXP_OK)
			cnt += (int64_t)got;
		free(recs);
		nxp_cursor_close(c);
		ck_assert_int_eq(find(d, n, names, dev[t].name)->rows, cnt);
	}
	/* DmaPacket: sum of transfer_bytes */
	const drained *dma = find(d, n, names, "DmaPacket");
	int ctb = col_of(dma, "transfer_bytes");
	int64_t tb = 0, tb_c = 0;
	for (size_t b = 0; b < dma->n; b++)
		for (int64_t r = 0; r < dma->b[b].length; r++)
			tb += get_i64(dma, ctb, b, r);
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
	nxp_dma_packet dr;
	dr.struct_size = sizeof(dr);
	while (nxp_cursor_next_dma_packet(c, &dr) == NXP_OK)
		tb_c += dr.transfer_bytes;
	nxp_cursor_close(c);
	ck_assert_int_eq(tb, tb_c);

	/* OpcodeSummary: instruction counts add up to the Instruction rows */
	const drained *os = find(d, n, names, "OpcodeSummary");
	int cic = col_of(os, "instruction_count");
	int64_t oc = 0;
	for (size_t b = 0; b < os->n; b++)
		for (int64_t r = 0; r < os->b[b].length; r++)
			oc += get_i64(os, cic, b, r);
	ck_assert_int_eq(oc, ins->rows);
	/* Summary and Metadata: one row */
	ck_assert_int_eq(find(d, n, names, "Summary")->rows, 1);
	ck_assert_int_eq(find(d, n, names, "Metadata")->rows, 1);
	ck_assert_int_eq(find(d, n, names, "NeffHeader")->rows, 1);

	/* SchemaFields lists exactly the columns of every stream */
	const drained *sf = find(d, n, names, "SchemaFields");
	int ct = col_of(sf, "table_name"), cf = col_of(sf, "field_name");
	int64_t listed = 0, expect = 0;
	for (size_t i = 0; i < n; i++)
		expect += d[i].schema.n_children;
	char tmp2[256];
	for (size_t b = 0; b < sf->n; b++)
		for (int64_t r = 0; r < sf->b[b].length; r++) {
			const char *tn = get_str(sf, ct, b, r, tmp2, sizeof(tmp2));
			const char *fn = get_str(sf, cf, b, r, tmp, sizeof(tmp));
			const drained *t = find(d, n, names, tn);
			if (!t) /* a system table: checked in test_system_tables */
				continue;
			ck_assert_msg(col_of(t, fn) >= 0, "SchemaFields lists %s.%s, not produced", tn, fn);
			listed++;
		}
	ck_assert_int_eq(listed, expect);
}

static void run_profile(nxp_profile *p, int64_t batch_rows, int close_first)
{
	drained d[64];
	size_t n = drain_all(p, d, 64, batch_rows);
	compare(p, d, n);
	if (close_first)
		nxp_profile_close(p);
	for (size_t i = n; i-- > 0;)
		drained_free(&d[i]);
}

START_TEST(test_demo_every_table)
{
	nxp_profile *p = open_demo();
	run_profile(p, 0, 1); /* batches released after the profile is closed */
}
END_TEST

START_TEST(test_demo_small_batches)
{
	nxp_profile *p = open_demo();
	run_profile(p, 100, 0);
	nxp_profile_close(p);
}
END_TEST

START_TEST(test_synthetic_lnc2)
{
	synth s;
	nxp_profile *p = open_synth(&s, 2);
	nxp_metadata md;
	md.struct_size = sizeof(md);
	ck_assert_int_eq(nxp_profile_get_metadata(p, &md), NXP_OK);
	ck_assert_int_eq(md.num_physical_cores, 2);
	drained d[64];
	size_t n = drain_all(p, d, 64, 1000);
	compare(p, d, n);
	/* both physical cores appear in the Instruction table */
	const drained *ins = NULL;
	for (size_t i = 0; i < n; i++)
		if (d[i].schema.n_children > 0 && col_of(&d[i], "opcode") >= 0 && col_of(&d[i], "pc") >= 0)
			ins = &d[i];
	ck_assert_ptr_nonnull(ins);
	int cp = col_of(ins, "pcore_idx");
	int seen[2] = { 0, 0 };
	for (size_t b = 0; b < ins->n; b++)
		for (int64_t r = 0; r < ins->b[b].length; r++) {
			int64_t v = get_i64(ins, cp, b, r);
			ck_assert(v == 0 || v == 1);
			seen[v] = 1;
		}
	ck_assert(seen[0] && seen[1]);
	close_synth(&s); /* the profile is gone; the batches stay valid */
	for (size_t i = n; i-- > 0;)
		drained_free(&d[i]);
}
END_TEST

START_TEST(test_projection_and_filters)
{
	nxp_profile *p = open_demo();
	const char *cols[] = { "opcode", "start_ts", NULL };
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.columns = cols;
	o.engine = NXP_ENGINE_TENSOR;
	struct ArrowArrayStream st;
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "Instruction", &o, NULL), NXP_OK);
	drained d;
	drain(&st, &d);
	ck_assert_int_eq(d.schema.n_children, 2);
	ck_assert_str_eq(d.schema.children[0]->name, "opcode");
	ck_assert_str_eq(d.schema.children[1]->name, "start_ts");
	ck_assert_ptr_nonnull(d.schema.children[0]->dictionary);
	/* the same rows as a tensor-engine cursor */
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.engine = NXP_ENGINE_TENSOR;
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, &co, NULL), NXP_OK);
	char tmp[256];
	int64_t rows = 0;
	for (size_t b = 0; b < d.n; b++)
		for (int64_t r = 0; r < d.b[b].length; r++) {
			nxp_instruction rec;
			rec.struct_size = sizeof(rec);
			ck_assert_int_eq(nxp_cursor_next_instruction(c, &rec), NXP_OK);
			ck_assert_str_eq(get_str(&d, 0, b, r, tmp, sizeof(tmp)), rec.opcode);
			ck_assert_int_eq(get_i64(&d, 1, b, r), rec.start_ts);
			rows++;
		}
	ck_assert_int_gt(rows, 0);
	nxp_instruction rec;
	rec.struct_size = sizeof(rec);
	ck_assert_int_eq(nxp_cursor_next_instruction(c, &rec), NXP_END);
	nxp_cursor_close(c);
	drained_free(&d);

	/* misuse */
	nxp_status s;
	nxp_status_init(&s);
	const char *bad[] = { "no_such_column", NULL };
	o.columns = bad;
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "Instruction", &o, &s), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(s.message, "no_such_column"));
	const char *twice[] = { "pc", "pc", NULL };
	o.columns = twice;
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "Instruction", &o, &s), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "NoSuchTable", NULL, &s), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_open_table(NULL, p, "Instruction", NULL, &s), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_open_table(&st, NULL, "Instruction", NULL, &s), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_open_table(&st, p, NULL, NULL, &s), NXP_E_INVAL);
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "CpuUsage", NULL, &s), NXP_E_INVAL);
	o.columns = NULL;
	o.struct_size = 4;
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "Instruction", &o, &s), NXP_E_INVAL);
	ck_assert_int_eq(nxp_system_open_table(&st, "/nonexistent", "Instruction", NULL, &s), NXP_E_INVAL);
	ck_assert_ptr_null(nxp_table_name(-1));
	ck_assert_ptr_null(nxp_table_name(1000));
	/* SchemaFields needs no profile */
	ck_assert_int_eq(nxp_profile_open_table(&st, NULL, "SchemaFields", NULL, &s), NXP_OK);
	drain(&st, &d);
	ck_assert_int_gt(d.rows, 100);
	drained_free(&d);
	nxp_profile_close(p);
}
END_TEST

/* The stream and the batches released from other threads than the reader. */
#include <pthread.h>
static void *release_batch(void *arg)
{
	struct ArrowArray *a = arg;
	a->release(a);
	return NULL;
}

START_TEST(test_release_other_thread)
{
	nxp_profile *p = open_demo();
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.batch_rows = 50;
	struct ArrowArrayStream st;
	ck_assert_int_eq(nxp_profile_open_table(&st, p, "DmaPacket", &o, NULL), NXP_OK);
	struct ArrowArray a[2];
	ck_assert_int_eq(st.get_next(&st, &a[0]), 0);
	ck_assert_int_eq(st.get_next(&st, &a[1]), 0);
	ck_assert_ptr_nonnull(a[0].release);
	ck_assert_ptr_nonnull(a[1].release);
	st.release(&st); /* before the stream's end */
	nxp_profile_close(p);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, release_batch, &a[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ck_assert_ptr_null(a[0].release);
	ck_assert_ptr_null(a[1].release);
}
END_TEST

/* A profile of the fixture NEFF and the NTFF a test wrote at `path`, opened
 * from chunked memory (FXN_SRC_CHUNKY); written_close() releases it. */
typedef struct written {
	fxn_pair o;
	void *neff;
	uint8_t *ntff;
} written;

static void written_open(written *w, const char *path)
{
	size_t nl, tl;
	uint8_t uuid[16] = { 0 };
	w->neff = fxn_neff(uuid, &nl);
	w->ntff = tu_read_file(path, &tl);
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(fxn_open(&w->o, w->neff, nl, w->ntff, tl, FXN_SRC_CHUNKY, 0, &st), NXP_OK);
}

static void written_close(written *w)
{
	fxn_close(&w->o);
	free(w->neff);
	free(w->ntff);
}

/* Close, then remove and free the test's file and folder. */
static void written_done(written *w, char *path, char *dir)
{
	written_close(w);
	remove(path);
	remove(dir);
	free(path);
	free(dir);
}

/* Bad records mid-batch: the rows are the cursor's, the Warning table lists
 * the skipped records with the cursor's offsets. */
START_TEST(test_bad_records_mid_batch)
{
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "bad.ntff");
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, NULL), NXP_OK);
	ntff_writer_set_unchecked(w, 1);
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_INSTRUCTION;
	q.engine = NXP_ENGINE_SCALAR;
	int32_t iq = nxp_ntff_writer_add_queue(w, &q);
	/* 40 records, two of them going backwards (bad) */
	uint64_t t = 10;
	for (int i = 0; i < 40; i++) {
		uint64_t start = (i == 13 || i == 27) ? t - 15 : t;
		nxp_ntff_instruction_note n = { start, start + 3, 0, 0, -1 };
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq, &n), NXP_OK);
		if (!(i == 13 || i == 27))
			t += 10;
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	written wr;
	written_open(&wr, path);

	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, wr.o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction rec;
	rec.struct_size = sizeof(rec);
	int64_t crow = 0;
	int64_t offs[2], k = 0, prev_bad = 0;
	while (nxp_cursor_next_instruction(c, &rec) == NXP_OK) {
		crow++;
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		nxp_cursor_get_stats(c, &cs);
		if (cs.bad_records != prev_bad) {
			ck_assert_int_lt(k, 2);
			offs[k++] = cs.last_bad_offset;
			prev_bad = cs.bad_records;
		}
	}
	nxp_cursor_close(c);
	ck_assert_int_eq(crow, 38);
	ck_assert_int_eq(k, 2);

	nxp_table_options to;
	nxp_table_options_init(&to);
	to.batch_rows = 16; /* the bad records fall inside batches */
	struct ArrowArrayStream as;
	ck_assert_int_eq(nxp_profile_open_table(&as, wr.o.p, "Instruction", &to, NULL), NXP_OK);
	drained d;
	drain(&as, &d);
	ck_assert_int_eq(d.rows, crow);
	drained_free(&d);

	ck_assert_int_eq(nxp_profile_open_table(&as, wr.o.p, "Warning", NULL, NULL), NXP_OK);
	drain(&as, &d);
	int cc = col_of(&d, "category"), ct = col_of(&d, "table_name"), co = col_of(&d, "offset"),
	    cn = col_of(&d, "record_count");
	char tmp[256], tmp2[256];
	int64_t skipped = 0;
	int found[2] = { 0, 0 };
	for (size_t b = 0; b < d.n; b++)
		for (int64_t r = 0; r < d.b[b].length; r++) {
			const char *cat = get_str(&d, cc, b, r, tmp, sizeof(tmp));
			if (strcmp(cat, "skipped_records"))
				continue;
			ck_assert_str_eq(get_str(&d, ct, b, r, tmp2, sizeof(tmp2)), "Instruction");
			skipped += get_i64(&d, cn, b, r);
			int64_t off = get_i64(&d, co, b, r);
			for (int i = 0; i < 2; i++)
				if (off == offs[i])
					found[i] = 1;
		}
	ck_assert_int_eq(skipped, 2);
	ck_assert(found[0] && found[1]);
	drained_free(&d);

	written_done(&wr, path, dir);
}
END_TEST

/* ---- every column of every device table against the cursor's record ----
 * The columnar paths (Instruction's and DmaPacket's direct writers, the other
 * tables' scatter) must give, row by row, the values and nulls of the public
 * record struct at the offsets the table's descriptor names, and null slots
 * must hold zeros (what nxc_col_append_null writes). */
static int rec_is_null(const nxc_col *c, const uint8_t *r, int is_instr)
{
	int pcu = 0;
	if (is_instr) {
		uint32_t fl;
		memcpy(&fl, r + offsetof(nxp_instruction, flags), 4);
		pcu = (fl & NXP_INSTRUCTION_PC_UNKNOWN) != 0;
	}
	switch (c->nullif) {
	case NXN_NEG:
		if (c->src == NXS_I64) {
			int64_t v;
			memcpy(&v, r + c->off, 8);
			return v < 0;
		} else {
			int32_t v;
			memcpy(&v, r + c->off, 4);
			return v < 0;
		}
	case NXN_PC_UNKNOWN:
		return pcu;
	case NXN_EMPTY_OR_PC_UNKNOWN:
		if (pcu)
			return 1;
		/* fall through */
	case NXN_EMPTY: {
		const char *str;
		memcpy(&str, r + c->off, sizeof(str));
		return !str || !*str;
	}
	default:
		return 0;
	}
}

/* The rows with start in [start_ts, end_ts): the stream's and the cursor's window. */
static void compare_columns_window(nxp_profile *p, const char *table, int64_t batch_rows, int64_t start_ts,
				   int64_t end_ts)
{
	const nxc_table *t = nxc_find_table(table);
	ck_assert_ptr_nonnull(t);
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.batch_rows = batch_rows;
	o.start_ts = start_ts;
	o.end_ts = end_ts;
	struct ArrowArrayStream as;
	ck_assert_int_eq(nxp_profile_open_table(&as, p, table, &o, NULL), NXP_OK);
	drained d;
	drain(&as, &d);
	ck_assert_int_eq(d.schema.n_children, t->ncols);
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = start_ts;
	co.end_ts = end_ts;
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, t->cursor_table, &co, NULL), NXP_OK);
	uint8_t *rec = calloc(1, t->rec_size);
	int is_instr = t->cursor_table == NXP_TABLE_INSTRUCTION;
	char tmp[4096];
	int64_t rows = 0, nulls = 0;
	for (size_t b = 0; b < d.n; b++)
		for (int64_t r = 0; r < d.b[b].length; r++) {
			size_t got = 0;
			ck_assert_int_eq(nxp_cursor_next_batch(c, rec, t->rec_size, 1, &got), NXP_OK);
			ck_assert_uint_eq(got, 1);
			for (int k = 0; k < t->ncols; k++) {
				const nxc_col *col = &t->cols[k];
				const struct ArrowArray *a = d.b[b].children[k];
				int null = a->buffers[0] && !bit(a->buffers[0], r);
				ck_assert_msg(null == rec_is_null(col, rec, is_instr), "%s.%s row %lld: null %d", table,
					      col->name, (long long)rows, null);
				nulls += null;
				if (col->type == NXC_DICT || col->type == NXC_UTF8) {
					if (null) {
						if (col->type == NXC_DICT)
							ck_assert_int_eq(((const int32_t *)a->buffers[1])[r], 0);
						continue;
					}
					const char *want;
					memcpy(&want, rec + col->off, sizeof(want));
					ck_assert_str_eq(get_str(&d, k, b, r, tmp, sizeof(tmp)), want ? want : "");
					continue;
				}
				int64_t want = 0;
				double wantf = 0;
				switch (col->src) {
				case NXS_I64:
					memcpy(&want, rec + col->off, 8);
					break;
				case NXS_I32: {
					int32_t v;
					memcpy(&v, rec + col->off, 4);
					want = v;
					break;
				}
				case NXS_U32: {
					uint32_t v;
					memcpy(&v, rec + col->off, 4);
					want = v;
					break;
				}
				case NXS_F64:
					memcpy(&wantf, rec + col->off, 8);
					break;
				default: { /* pc_in_neff */
					uint32_t fl;
					memcpy(&fl, rec + col->off, 4);
					want = !(fl & NXP_INSTRUCTION_PC_UNKNOWN);
					break;
				}
				}
				if (null)
					want = 0, wantf = 0;
				switch (col->type) {
				case NXC_I64:
					ck_assert_msg(((const int64_t *)a->buffers[1])[r] == want, "%s.%s row %lld", table,
						      col->name, (long long)rows);
					break;
				case NXC_I32:
					ck_assert_msg(((const int32_t *)a->buffers[1])[r] == (int32_t)want, "%s.%s row %lld",
						      table, col->name, (long long)rows);
					break;
				case NXC_F64:
					ck_assert_msg(memcmp(&((const double *)a->buffers[1])[r], &wantf, 8) == 0,
						      "%s.%s row %lld", table, col->name, (long long)rows);
					break;
				case NXC_BOOL:
					ck_assert_int_eq(bit(a->buffers[1], r), want != 0);
					break;
				}
			}
			rows++;
		}
	size_t got = 0;
	ck_assert_int_eq(nxp_cursor_next_batch(c, rec, t->rec_size, 1, &got), NXP_END);
	nxp_cursor_close(c);
	free(rec);
	ck_assert_int_eq(rows, d.rows);
	/* the nulls seen row by row are the batches' null counts */
	int64_t counted = 0;
	for (size_t b = 0; b < d.n; b++)
		for (int k = 0; k < t->ncols; k++)
			counted += d.b[b].children[k]->null_count;
	ck_assert_int_eq(nulls, counted);
	drained_free(&d);
}

static void compare_columns(nxp_profile *p, const char *table, int64_t batch_rows)
{
	compare_columns_window(p, table, batch_rows, INT64_MIN, INT64_MAX);
}

static const char *const device_tables[] = { "Instruction", "DmaPacket", "SemaphoreUpdate", "Throttle",
					     "Error", "ExecutionInfo", "ActiveTime" };

START_TEST(test_every_column_vs_cursor)
{
	nxp_profile *p = open_demo();
	for (size_t i = 0; i < sizeof(device_tables) / sizeof(device_tables[0]); i++) {
		compare_columns(p, device_tables[i], 0);
		compare_columns(p, device_tables[i], 7);
	}
	nxp_profile_close(p);
	synth s;
	p = open_synth(&s, 2); /* 2 ticks per ns, pcs outside the NEFF, null sources */
	for (size_t i = 0; i < sizeof(device_tables) / sizeof(device_tables[0]); i++) {
		compare_columns(p, device_tables[i], 0);
		compare_columns(p, device_tables[i], 33);
	}
	close_synth(&s);
}
END_TEST

/* ---- buffer reuse: batches released early lend their buffers to later
 * batches; the batches still held must not change ---- */
typedef struct held {
	struct ArrowArray *a;
	size_t n;
} held;

static void *release_all(void *arg)
{
	held *h = arg;
	for (size_t i = 0; i < h->n; i++)
		if (h->a[i].release)
			h->a[i].release(&h->a[i]);
	return NULL;
}

static uint64_t batch_digest(const struct ArrowSchema *s, const struct ArrowArray *a)
{
	uint64_t h = 1469598103934665603ULL;
#define MIX(p, n)                                                  \
	for (size_t z = 0; z < (size_t)(n); z++) {                 \
		h ^= ((const uint8_t *)(p))[z];                    \
		h *= 1099511628211ULL;                             \
	}
	for (int64_t c = 0; c < a->n_children; c++) {
		const struct ArrowArray *ch = a->children[c];
		const char *f = s->children[c]->format;
		size_t es = !strcmp(f, "l") || !strcmp(f, "g") ? 8 : !strcmp(f, "i") ? 4 : 0;
		if (ch->buffers[0] && ch->null_count)
			MIX(ch->buffers[0], ch->length / 8);
		if (es)
			MIX(ch->buffers[1], es * (size_t)ch->length);
		if (!strcmp(f, "u")) {
			const int32_t *o = ch->buffers[1];
			MIX(ch->buffers[1], 4 * (size_t)(ch->length + 1));
			MIX(ch->buffers[2], (size_t)o[ch->length]);
		}
		if (ch->dictionary) {
			const int32_t *o = ch->dictionary->buffers[1];
			MIX(ch->dictionary->buffers[2], (size_t)o[ch->dictionary->length]);
		}
	}
#undef MIX
	return h;
}

static void reuse_table(nxp_profile *p, const char *table)
{
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.batch_rows = 600; /* 4800-byte int64 buffers: big enough to be recycled */
	/* reference: every batch held to the end (no reuse possible) */
	struct ArrowArrayStream as;
	ck_assert_int_eq(nxp_profile_open_table(&as, p, table, &o, NULL), NXP_OK);
	drained ref;
	drain(&as, &ref);
	ck_assert_msg(ref.n > 6, "%s: %zu batches", table, ref.n);
	uint64_t *want = calloc(ref.n, sizeof(*want));
	for (size_t i = 0; i < ref.n; i++)
		want[i] = batch_digest(&ref.schema, &ref.b[i]);
	/* every third batch held, the others released at once (their buffers go to
	 * the next batches); the held ones are checked now and after the stream */
	ck_assert_int_eq(nxp_profile_open_table(&as, p, table, &o, NULL), NXP_OK);
	held h = { calloc(ref.n, sizeof(struct ArrowArray)), 0 };
	for (size_t i = 0;; i++) {
		struct ArrowArray a;
		ck_assert_int_eq(as.get_next(&as, &a), 0);
		if (!a.release)
			break;
		ck_assert_uint_lt(i, ref.n);
		check_batch(&ref.schema, &a);
		ck_assert_msg(batch_digest(&ref.schema, &a) == want[i], "%s batch %zu differs", table, i);
		if (i % 3 == 0)
			h.a[h.n++] = a;
		else
			a.release(&a);
		for (size_t j = 0; j < h.n; j++)
			ck_assert_msg(batch_digest(&ref.schema, &h.a[j]) == want[3 * j], "%s held batch %zu changed",
				      table, 3 * j);
	}
	as.release(&as);
	for (size_t j = 0; j < h.n; j++)
		ck_assert(batch_digest(&ref.schema, &h.a[j]) == want[3 * j]);
	/* the held batches go from another thread, after the stream */
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, release_all, &h), 0);
	pthread_join(th, NULL);
	free(h.a);
	free(want);
	drained_free(&ref);
}

START_TEST(test_buffer_reuse)
{
	synth s;
	nxp_profile *p = open_synth_n(&s, 2, 3000, 1500);
	reuse_table(p, "Instruction");
	reuse_table(p, "DmaPacket");
	close_synth(&s);
}
END_TEST

/* ---- Warning: queues walked without the merge when clean, through it when not ---- */
static int64_t warning_count(nxp_profile *p, const char *category, const char *table, int64_t *offs, int max,
			     int *noffs)
{
	struct ArrowArrayStream as;
	ck_assert_int_eq(nxp_profile_open_table(&as, p, "Warning", NULL, NULL), NXP_OK);
	drained d;
	drain(&as, &d);
	int cc = col_of(&d, "category"), ct = col_of(&d, "table_name"), co = col_of(&d, "offset"),
	    cn = col_of(&d, "record_count");
	char tmp[256], tmp2[256];
	int64_t total = 0;
	if (noffs)
		*noffs = 0;
	for (size_t b = 0; b < d.n; b++)
		for (int64_t r = 0; r < d.b[b].length; r++) {
			const char *tn = get_str(&d, ct, b, r, tmp2, sizeof(tmp2));
			if (strcmp(get_str(&d, cc, b, r, tmp, sizeof(tmp)), category) || !tn || strcmp(tn, table))
				continue;
			total += get_i64(&d, cn, b, r);
			if (noffs && *noffs < max)
				offs[(*noffs)++] = get_i64(&d, co, b, r);
		}
	drained_free(&d);
	return total;
}

/* An NTFF writer at `path` that takes bad notes too (ntff_writer_set_unchecked),
 * with one Scalar instruction queue (*q0; *q its description, for more). */
static nxp_ntff_writer *unchecked_writer(const char *path, nxp_ntff_queue *q, int32_t *q0)
{
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, NULL), NXP_OK);
	ntff_writer_set_unchecked(w, 1);
	nxp_ntff_queue_init(q);
	q->kind = NXP_QUEUE_INSTRUCTION;
	q->engine = NXP_ENGINE_SCALAR;
	*q0 = nxp_ntff_writer_add_queue(w, q);
	return w;
}

START_TEST(test_warning_walks)
{
	/* clean synthetic trace: unknown pcs counted as the cursor counts them */
	synth s;
	nxp_profile *p = open_synth(&s, 2);
	nxp_cursor *c;
	ck_assert_int_eq(nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	nxp_instruction rec;
	rec.struct_size = sizeof(rec);
	while (nxp_cursor_next_instruction(c, &rec) == NXP_OK)
		;
	nxp_cursor_stats cs;
	cs.struct_size = sizeof(cs);
	nxp_cursor_get_stats(c, &cs);
	nxp_cursor_close(c);
	ck_assert_int_gt(cs.unknown_pcs, 0);
	ck_assert_int_eq(warning_count(p, "unknown_pcs", "Instruction", NULL, 0, NULL), cs.unknown_pcs);
	ck_assert_int_eq(warning_count(p, "skipped_records", "Instruction", NULL, 0, NULL), 0);
	ck_assert_int_eq(warning_count(p, "skipped_records", "DmaPacket", NULL, 0, NULL), 0);
	close_synth(&s);

	/* two interleaved queues, bad records in each (keys going back, one bad
	 * span): the rows come in the cursor's order with its offsets */
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "two.ntff");
	nxp_ntff_queue q;
	int32_t q0;
	nxp_ntff_writer *w = unchecked_writer(path, &q, &q0);
	q.engine = NXP_ENGINE_VECTOR;
	int32_t q1 = nxp_ntff_writer_add_queue(w, &q);
	uint64_t t0 = 10, t1 = 15;
	for (int i = 0; i < 60; i++) {
		uint64_t s0 = i == 41 ? t0 - 30 : t0, s1 = i == 17 ? t1 - 30 : t1;
		nxp_ntff_instruction_note n0 = { s0, s0 + 3, (uint32_t)i, 0, -1 };
		nxp_ntff_instruction_note n1 = { s1, i == 50 ? s1 - 1 : s1 + 4, 999, 0, -1 }; /* 50: ends before it starts */
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, q0, &n0), NXP_OK);
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, q1, &n1), NXP_OK);
		if (i != 41)
			t0 += 10;
		if (i != 17)
			t1 += 10;
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	written wr;
	written_open(&wr, path);
	ck_assert_int_eq(nxp_cursor_open(&c, wr.o.p, NXP_TABLE_INSTRUCTION, NULL, NULL), NXP_OK);
	int64_t offs[8], prev_bad = 0;
	int k = 0;
	while (nxp_cursor_next_instruction(c, &rec) == NXP_OK) {
		nxp_cursor_get_stats(c, &cs);
		if (cs.bad_records != prev_bad) {
			ck_assert_int_lt(k, 8);
			offs[k++] = cs.last_bad_offset;
			prev_bad = cs.bad_records;
		}
	}
	nxp_cursor_get_stats(c, &cs);
	nxp_cursor_close(c);
	ck_assert_int_eq(cs.bad_records, 3);
	int64_t got[8];
	int ng = 0;
	ck_assert_int_eq(warning_count(wr.o.p, "skipped_records", "Instruction", got, 8, &ng), 3);
	ck_assert_int_eq(ng, k);
	for (int i = 0; i < k; i++)
		ck_assert_int_eq(got[i], offs[i]); /* the cursor's order */
	ck_assert_int_eq(warning_count(wr.o.p, "unknown_pcs", "Instruction", NULL, 0, NULL), cs.unknown_pcs);
	written_done(&wr, path, dir);
}
END_TEST

/* Drain `table` (columns: NULL-terminated or NULL = all; the window
 * [start, end) in ns) and return its rows. */
static int64_t drain_rows(nxp_profile *p, const char *table, const char *const *columns, int64_t start, int64_t end)
{
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.columns = columns;
	o.start_ts = start;
	o.end_ts = end;
	struct ArrowArrayStream as;
	ck_assert_int_eq(nxp_profile_open_table(&as, p, table, &o, NULL), NXP_OK);
	drained d;
	drain(&as, &d);
	int64_t rows = 0;
	for (size_t b = 0; b < d.n; b++)
		rows += d.b[b].length;
	drained_free(&d);
	return rows;
}

/* A table stream that read a table whole and clean lets the Warning walk
 * skip it (ntff_table_note_clean); the rows must be what a walk finds.  A
 * window, a projection without the NEFF join, or damage must not count as
 * clean. */
START_TEST(test_warning_after_tables)
{
	synth s;
	nxp_profile *p = open_synth(&s, 2);
	int64_t unknown = warning_count(p, "unknown_pcs", "Instruction", NULL, 0, NULL);
	ck_assert_int_gt(unknown, 0);
	static const char *const no_join[] = { "start_ts", NULL };
	ck_assert_int_gt(drain_rows(p, "Instruction", no_join, INT64_MIN, INT64_MAX), 0);
	ck_assert_int_eq(warning_count(p, "unknown_pcs", "Instruction", NULL, 0, NULL), unknown);
	ck_assert_int_gt(drain_rows(p, "Instruction", NULL, INT64_MIN, INT64_MAX), 0);
	ck_assert_int_gt(drain_rows(p, "DmaPacket", NULL, INT64_MIN, INT64_MAX), 0);
	ck_assert_int_eq(warning_count(p, "unknown_pcs", "Instruction", NULL, 0, NULL), unknown);
	ck_assert_int_eq(warning_count(p, "skipped_records", "DmaPacket", NULL, 0, NULL), 0);
	close_synth(&s);

	/* one queue with a key that goes back at record 30: a window before it
	 * reads clean, the whole table does not */
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "late.ntff");
	nxp_ntff_queue q;
	int32_t q0;
	nxp_ntff_writer *w = unchecked_writer(path, &q, &q0);
	for (int i = 0; i < 40; i++) {
		uint64_t t = i == 30 ? 5 : 10 + 10 * (uint64_t)i;
		nxp_ntff_instruction_note n = { t, t + 3, 0, 0, -1 };
		ck_assert_int_eq(nxp_ntff_writer_instruction(w, q0, &n), NXP_OK);
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	written wr;
	written_open(&wr, path);
	ck_assert_int_eq(drain_rows(wr.o.p, "Instruction", NULL, 0, 100), 9);
	ck_assert_int_eq(warning_count(wr.o.p, "skipped_records", "Instruction", NULL, 0, NULL), 1);
	ck_assert_int_eq(drain_rows(wr.o.p, "Instruction", NULL, INT64_MIN, INT64_MAX), 39);
	ck_assert_int_eq(warning_count(wr.o.p, "skipped_records", "Instruction", NULL, 0, NULL), 1);
	written_done(&wr, path, dir);
}
END_TEST

/* DmaPacket: each of ntff_dma_ok's checks, failing alone in a queue whose
 * keys stay in order (the unmerged walk checks the records of a section in
 * bulk, so each must be caught by itself): the Warning rows are the cursor's
 * skipped records, with its offsets */
START_TEST(test_warning_dma_checks)
{
	for (int f = 0; f < 5; f++) {
		char *dir = tu_tmpdir();
		char *path = tu_path(dir, "dma.ntff");
		nxp_ntff_info info;
		nxp_ntff_info_init(&info);
		nxp_ntff_writer *w;
		ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, NULL, NULL), NXP_OK);
		ntff_writer_set_unchecked(w, 1);
		int64_t var = nxp_ntff_writer_string(w, "tensor_a");
		ck_assert_int_gt(var, 0);
		nxp_ntff_queue q;
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_DMA;
		q.name = "qSyncIO";
		int32_t q0 = nxp_ntff_writer_add_queue(w, &q);
		for (int i = 0; i < 40; i++) {
			uint64_t t = 100 + 10 * (uint64_t)i;
			nxp_ntff_dma_note n = { t, t + 5, 1, (uint32_t)i, 64, 64, 0, 0, NXP_MEMORY_HBM, NXP_MEMORY_SBUF, -1,
						(uint32_t)var };
			if (i == 7 + f) {
				if (f == 0)
					n.source = NXP_MEMORY_HBM + 1; /* no such memory */
				else if (f == 1)
					n.dest = 0x80;
				else if (f == 2)
					n.variable = 1u << 30; /* beyond the string table */
				else if (f == 3)
					n.end_tick = (uint64_t)INT64_MAX + 2; /* not a time */
				else
					n.end_tick = t - 1; /* ends before it starts */
			}
			ck_assert_int_eq(nxp_ntff_writer_dma(w, q0, &n), NXP_OK);
		}
		ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
		nxp_ntff_writer_close(w);
		written wr;
		written_open(&wr, path);
		nxp_cursor *c;
		ck_assert_int_eq(nxp_cursor_open(&c, wr.o.p, NXP_TABLE_DMA_PACKET, NULL, NULL), NXP_OK);
		nxp_dma_packet rec;
		rec.struct_size = sizeof(rec);
		while (nxp_cursor_next_dma_packet(c, &rec) == NXP_OK)
			;
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		nxp_cursor_get_stats(c, &cs);
		nxp_cursor_close(c);
		ck_assert_int_eq(cs.bad_records, 1);
		int64_t got[2];
		int ng = 0;
		ck_assert_int_eq(warning_count(wr.o.p, "skipped_records", "DmaPacket", got, 2, &ng), 1);
		ck_assert_int_eq(ng, 1);
		ck_assert_int_eq(got[0], cs.last_bad_offset);
		written_done(&wr, path, dir);
	}
}
END_TEST

/* Queues that interleave record by record (the merge's block path; the
 * Instruction, DmaPacket and SemaphoreUpdate direct paths), with ties across
 * queues, records that fail their checks, keys that go back, and
 * sections of 5 records: every row and column is the cursor's, whole, in
 * windows, in batches of any size; the Warning table counts the cursor's
 * skipped records. */
START_TEST(test_interleaved_bad_records)
{
	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "mix.ntff");
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	info.num_physical_cores = 3; /* a semaphore queue each */
	nxp_ntff_writer_options wo;
	nxp_ntff_writer_options_init(&wo);
	wo.records_per_section = 5;
	nxp_ntff_writer *w;
	ck_assert_int_eq(nxp_ntff_writer_open_path(&w, path, &info, &wo, NULL), NXP_OK);
	ntff_writer_set_unchecked(w, 1);
	int64_t var = nxp_ntff_writer_string(w, "tensor_a");
	ck_assert_int_gt(var, 0);
	enum { NI = 4, ND = 3, NS = 3, N = 120 };
	int32_t iq[NI], dq[ND], sq[NS];
	static const char *const qnames[ND] = { "qSyncIO", "qPoolIO", "qActIO" };
	for (int e = 0; e < NI; e++) {
		nxp_ntff_queue q;
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_INSTRUCTION;
		q.engine = (nxp_engine)e;
		iq[e] = nxp_ntff_writer_add_queue(w, &q);
		ck_assert_int_ge(iq[e], 0);
	}
	for (int j = 0; j < ND; j++) {
		nxp_ntff_queue q;
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_DMA;
		q.name = qnames[j];
		dq[j] = nxp_ntff_writer_add_queue(w, &q);
		ck_assert_int_ge(dq[j], 0);
	}
	for (int j = 0; j < NS; j++) {
		nxp_ntff_queue q;
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_SEMAPHORE;
		q.pcore_idx = j;
		sq[j] = nxp_ntff_writer_add_queue(w, &q);
		ck_assert_int_ge(sq[j], 0);
	}
	/* record i of queue e starts at 100 + 10 i + e % 3: the queues take turns,
	 * and those with the same e % 3 tie */
	for (int i = 0; i < N; i++) {
		for (int e = 0; e < NI; e++) {
			uint64_t t = 100 + 10 * (uint64_t)i + (uint64_t)(e % 3);
			nxp_ntff_instruction_note n = { t, t + 4, (uint32_t)i, 0, -1 };
			if ((i + e) % 17 == 5)
				n.end_tick = t - 1; /* ends before it starts */
			if ((i * 7 + e) % 29 == 3)
				n.start_tick = n.end_tick = t - 25; /* goes back */
			ck_assert_int_eq(nxp_ntff_writer_instruction(w, iq[e], &n), NXP_OK);
		}
		for (int j = 0; j < ND; j++) {
			uint64_t t = 100 + 10 * (uint64_t)i + (uint64_t)j;
			nxp_ntff_dma_note n = { t, t + 5, 1, (uint32_t)i, 64, 64, 0, 0, NXP_MEMORY_HBM, NXP_MEMORY_SBUF, -1,
						(uint32_t)var };
			if ((i + j) % 13 == 4)
				n.dest = 0x80; /* no such memory */
			if ((i * 5 + j) % 31 == 7)
				n.start_tick = n.end_tick = t - 40; /* goes back */
			ck_assert_int_eq(nxp_ntff_writer_dma(w, dq[j], &n), NXP_OK);
		}
		for (int j = 0; j < NS; j++) { /* queues 0 and 2 tie */
			nxp_ntff_semaphore_note n = { 100 + 10 * (uint64_t)i + (uint64_t)(j % 2), (uint16_t)(i % 7),
						      (uint8_t)(j + 1), (uint8_t)(i % 4), i - 60, (uint8_t)(i % 2),
						      (uint8_t)(i % 3 == 0), (uint8_t)j };
			if ((i + j) % 11 == 2)
				n.operation = 9; /* no such operation */
			if ((i + 3 * j) % 19 == 6)
				n.update_source = 200; /* no such engine */
			if ((i * 3 + j) % 23 == 8)
				n.tick -= 35; /* goes back */
			ck_assert_int_eq(nxp_ntff_writer_semaphore(w, sq[j], &n), NXP_OK);
		}
	}
	ck_assert_int_eq(nxp_ntff_writer_finish(w), NXP_OK);
	nxp_ntff_writer_close(w);
	written wr;
	written_open(&wr, path);
	static const char *const tables[] = { "Instruction", "DmaPacket", "SemaphoreUpdate" };
	static const int cursor_tables[] = { NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE };
	static const int nq[] = { NI, ND, NS };
	for (int k = 0; k < 3; k++) {
		compare_columns(wr.o.p, tables[k], 0);
		compare_columns(wr.o.p, tables[k], 1);
		compare_columns(wr.o.p, tables[k], 7);
		compare_columns(wr.o.p, tables[k], 300);
		/* windows that start and end between and on tied keys */
		compare_columns_window(wr.o.p, tables[k], 0, 0, 600);
		compare_columns_window(wr.o.p, tables[k], 5, 402, 903);
		compare_columns_window(wr.o.p, tables[k], 11, 700, INT64_MAX);
		/* the cursor's bad records, counted the same way by the Warning table */
		nxp_cursor *c;
		ck_assert_int_eq(nxp_cursor_open(&c, wr.o.p, cursor_tables[k], NULL, NULL), NXP_OK);
		uint8_t rec[1024];
		size_t got = 0;
		int64_t rows = 0;
		const nxc_table *t = nxc_find_table(tables[k]);
		ck_assert_uint_le(t->rec_size, sizeof(rec));
		while (nxp_cursor_next_batch(c, rec, t->rec_size, 1, &got) == NXP_OK)
			rows += (int64_t)got;
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		nxp_cursor_get_stats(c, &cs);
		nxp_cursor_close(c);
		ck_assert_int_gt(cs.bad_records, 5);
		ck_assert_int_gt(rows, nq[k] * N / 2);
		ck_assert_int_eq(warning_count(wr.o.p, "skipped_records", tables[k], NULL, 0, NULL), cs.bad_records);
	}
	written_done(&wr, path, dir);
}
END_TEST

Suite *table_suite(void)
{
	Suite *s = suite_create("table");
	TCase *t = tcase_create("arrow");
	tcase_add_test(t, test_demo_every_table);
	tcase_add_test(t, test_demo_small_batches);
	tcase_add_test(t, test_synthetic_lnc2);
	tcase_add_test(t, test_projection_and_filters);
	tcase_add_test(t, test_release_other_thread);
	tcase_add_test(t, test_bad_records_mid_batch);
	tcase_add_test(t, test_every_column_vs_cursor);
	tcase_add_test(t, test_interleaved_bad_records);
	tcase_add_test(t, test_buffer_reuse);
	tcase_add_test(t, test_warning_walks);
	tcase_add_test(t, test_warning_after_tables);
	tcase_add_test(t, test_warning_dma_checks);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(table_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
