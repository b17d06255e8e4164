/* SPDX-License-Identifier: MIT */
/* Flow: the dependency edges of a profile (nxp/analysis.h), streamed from a
 * flow cursor batch by batch, so memory stays bounded by the cursor's window
 * and not by the trace.  Public columns as in the reference schema (in_id,
 * out_id, in_table, out_table, dependency_type, gap_time), then libnxp's
 * extras: exact (the edge is implied by the NEFF and the trace, not inferred;
 * doc/analysis.md), in_ts, out_ts, pcore_idx.  The time window and pcore
 * options apply to out_ts and pcore_idx as for nxp_flow_cursor_open(). */
#include "columnar_priv.h"

#include <stdlib.h>

#include "status.h"

enum { F_IN_ID, F_OUT_ID, F_IN_TABLE, F_OUT_TABLE, F_TYPE, F_GAP, F_EXACT, F_IN_TS, F_OUT_TS, F_PCORE };

static const nxc_col f_cols[] = {
	{ "in_id", NXC_I64, 1, 0, 0, 0, 0, 0, "", "id of the record the dependency comes from (Instruction/DmaPacket id; SemaphoreUpdate row number)" },
	{ "out_id", NXC_I64, 1, 0, 0, 0, 0, 0, "", "id of the record that depends on it" },
	{ "in_table", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "table of in_id: SemaphoreUpdate, Instruction or DmaPacket" },
	{ "out_table", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "table of out_id" },
	{ "dependency_type", NXC_DICT, 0, 0, 0, 0, 0, 0, "", "semaphore_wait, dma_trigger, dma_completion or semaphore_signal" },
	{ "gap_time", NXC_I64, 0, 0, 0, 0, 0, 0, "nanoseconds", "from in_ts to out_ts (negative only for inferred edges)" },
	{ "exact", NXC_BOOL, 1, 1, 0, 0, 0, 0, "", "libnxp: true when the edge is implied by the NEFF and the trace, false when inferred (doc/analysis.md)" },
	{ "in_ts", NXC_I64, 1, 1, 0, 0, 0, 0, "nanoseconds", "libnxp: when the in record released the dependency" },
	{ "out_ts", NXC_I64, 1, 1, 0, 0, 0, 0, "nanoseconds", "libnxp: when the out record could proceed" },
	{ "pcore_idx", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: physical core of the edge" },
};

#define CHUNK 512 /* edges gathered before they are appended column by column */

typedef struct flow_ctx {
	nxp_flow_cursor *cur;
	int64_t i64[6][CHUNK]; /* in_id, out_id, gap_time, in_ts, out_ts, pcore_idx (by I_*) */
	const char *str[3][CHUNK];
	uint8_t exact[CHUNK];
	int ended;
	int pending; /* an error met after rows were gathered: reported by the next fill */
} flow_ctx;

static void flow_free(void *p)
{
	flow_ctx *f = p;
	if (!f)
		return;
	nxp_flow_cursor_close(f->cur);
	free(f);
}

enum { I_IN_ID, I_OUT_ID, I_GAP, I_IN_TS, I_OUT_TS, I_PCORE };

/* Append the n gathered edges to the projected columns, in bulk. */
static int flush_chunk(flow_ctx *f, nxc_builder *b, size_t n)
{
	static const int i64_col[] = {F_IN_ID, F_OUT_ID, F_GAP, F_IN_TS, F_OUT_TS, F_PCORE};
	static const int str_col[] = {F_IN_TABLE, F_OUT_TABLE, F_TYPE};
	if (!n)
		return 0;
	int bad = 0;
	for (int k = 0; k < 6; k++) {
		int o = b->colmap[i64_col[k]];
		if (o >= 0 && nxc_col_put_i64s(&b->cols[o], f->i64[k], NULL, n))
			bad = 1;
	}
	for (int k = 0; k < 3; k++) {
		int o = b->colmap[str_col[k]];
		if (o >= 0 && nxc_col_put_strs(&b->cols[o], f->str[k], NULL, n))
			bad = 1;
	}
	int o = b->colmap[F_EXACT];
	if (o >= 0 && nxc_col_put_bools(&b->cols[o], f->exact, n))
		bad = 1;
	b->rows += (int64_t)n;
	if (bad)
		b->nomem = 1;
	return bad;
}

static int64_t flow_fill(nxc_stream *s, int64_t max)
{
	flow_ctx *f = s->ctx;
	nxc_builder *b = &s->b;
	size_t n = 0; /* edges gathered, not yet appended */
	if (f->pending) {
		int rc = f->pending;
		f->pending = 0;
		return rc;
	}
	if (f->ended)
		return 0;
	while (b->rows + (int64_t)n < max) {
		nxp_flow e = { .struct_size = sizeof(e) };
		int rc = nxp_flow_cursor_next(f->cur, &e);
		if (rc == NXP_END) {
			f->ended = 1;
			break;
		}
		if (rc < 0) {
			if (flush_chunk(f, b, n)) {
				nxc_stream_error(s, "%s: out of memory", s->t->name);
				f->ended = 1;
				return NXP_E_NOMEM;
			}
			n = 0;
			nxp_status cst;
			nxp_status_init(&cst);
			nxp_flow_cursor_error(f->cur, &cst);
			nxc_stream_error(s, "%s: %s", s->t->name, cst.message[0] ? cst.message : nxp_strerror(rc));
			f->ended = 1;
			if (b->rows > 0) {
				f->pending = rc;
				break;
			}
			return rc;
		}
		f->i64[I_IN_ID][n] = e.in_id;
		f->i64[I_OUT_ID][n] = e.out_id;
		f->i64[I_GAP][n] = e.gap_time;
		f->i64[I_IN_TS][n] = e.in_ts;
		f->i64[I_OUT_TS][n] = e.out_ts;
		f->i64[I_PCORE][n] = e.pcore_idx;
		f->str[0][n] = e.in_table;
		f->str[1][n] = e.out_table;
		f->str[2][n] = e.dependency_type;
		f->exact[n] = e.exact != 0;
		if (++n < CHUNK)
			continue;
		int bad = flush_chunk(f, b, n);
		n = 0;
		if (bad)
			break;
	}
	if (flush_chunk(f, b, n) || b->nomem) {
		nxc_stream_error(s, "%s: out of memory", s->t->name);
		f->ended = 1;
		return NXP_E_NOMEM;
	}
	return b->rows;
}

static int flow_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	flow_ctx *f = calloc(1, sizeof(*f));
	if (!f)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	nxp_flow_options fo;
	nxp_flow_options_init(&fo);
	fo.start_ts = s->opts.start_ts;
	fo.end_ts = s->opts.end_ts;
	fo.pcore_idx = s->opts.pcore_idx;
	int rc = nxp_flow_cursor_open(&f->cur, p, &fo, st);
	if (rc) {
		free(f);
		return rc;
	}
	for (int i = 0; i < s->b.ncols; i++)
		s->b.cols[i].stable_strings = 1; /* the cursor's strings are static */
	s->ctx = f;
	s->free_ctx = flow_free;
	s->fill = flow_fill;
	return 0;
}

const nxc_table nxc_table_flow = { "Flow", NXC_KIND_PROFILE, 0, 0, f_cols, (int)(sizeof(f_cols) / sizeof(f_cols[0])),
				   flow_open };
