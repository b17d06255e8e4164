/* SPDX-License-Identifier: MIT */
/* Device tables (Instruction, DmaPacket, SemaphoreUpdate, Throttle, Error,
 * ExecutionInfo, ActiveTime): read through the public cursor API in runs of
 * records (nxp_cursor_next_batch), then scattered column by column into the
 * projected columns only.  Non-null numeric columns are copied in one tight
 * loop per run; no per-row allocation; dictionary lookups go by pointer. */
#include "columnar_priv.h"

#include <stdlib.h>
#include <string.h>

#include "status.h"

#define RUN 256 /* records per nxp_cursor_next_batch */

typedef struct dev_ctx {
	nxp_cursor *cur;
	uint8_t *recs;
	size_t rsize;
	int pending;  /* an error met after rows were returned: reported by the next fill */
	int ended;
} dev_ctx;

static void dev_free(void *p)
{
	dev_ctx *d = p;
	if (!d)
		return;
	nxp_cursor_close(d->cur);
	free(d->recs);
	free(d);
}

static int is_null(const nxc_col *c, const uint8_t *r, size_t rsize, int is_instr)
{
	(void)rsize;
	int pcu = 0;
	if (is_instr && (c->nullif == NXN_PC_UNKNOWN || c->nullif == NXN_EMPTY_OR_PC_UNKNOWN)) {
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
		const char *s;
		memcpy(&s, r + c->off, sizeof(s));
		return !s || !*s;
	}
	default:
		return 0;
	}
}

/* Append n records (stride rsize) to column c. */
static int scatter(nxc_colbuf *cb, const uint8_t *recs, size_t rsize, size_t n, int is_instr)
{
	const nxc_col *c = cb->col;
	if (nxc_col_reserve(cb, (int64_t)n))
		return NXP_E_NOMEM;
	if (c->nullif == NXN_NEVER && !cb->validity.p) {
		/* fast paths: no nulls possible */
		if (c->src == NXS_I64 && c->type == NXC_I64) {
			uint8_t *dst = cb->data.p + cb->data.len;
			for (size_t i = 0; i < n; i++)
				memcpy(dst + 8 * i, recs + i * rsize + c->off, 8);
			cb->data.len += 8 * n;
			cb->length += (int64_t)n;
			return 0;
		}
		if (c->src == NXS_I32 && c->type == NXC_I32) {
			uint8_t *dst = cb->data.p + cb->data.len;
			for (size_t i = 0; i < n; i++)
				memcpy(dst + 4 * i, recs + i * rsize + c->off, 4);
			cb->data.len += 4 * n;
			cb->length += (int64_t)n;
			return 0;
		}
		if (c->src == NXS_F64 && c->type == NXC_F64) {
			uint8_t *dst = cb->data.p + cb->data.len;
			for (size_t i = 0; i < n; i++)
				memcpy(dst + 8 * i, recs + i * rsize + c->off, 8);
			cb->data.len += 8 * n;
			cb->length += (int64_t)n;
			return 0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const uint8_t *r = recs + i * rsize;
		int rc;
		if (c->nullif != NXN_NEVER && is_null(c, r, rsize, is_instr)) {
			rc = nxc_col_append_null(cb);
		} else {
			switch (c->src) {
			case NXS_I64: {
				int64_t v;
				memcpy(&v, r + c->off, 8);
				rc = nxc_col_append_i64(cb, v);
				break;
			}
			case NXS_I32: {
				int32_t v;
				memcpy(&v, r + c->off, 4);
				rc = nxc_col_append_i64(cb, v);
				break;
			}
			case NXS_U32: {
				uint32_t v;
				memcpy(&v, r + c->off, 4);
				rc = nxc_col_append_i64(cb, v);
				break;
			}
			case NXS_F64: {
				double v;
				memcpy(&v, r + c->off, 8);
				rc = nxc_col_append_f64(cb, v);
				break;
			}
			case NXS_STR: {
				const char *s;
				memcpy(&s, r + c->off, sizeof(s));
				rc = nxc_col_append_str(cb, s);
				break;
			}
			default: { /* Instruction pc_in_neff */
				uint32_t fl;
				memcpy(&fl, r + c->off, 4);
				rc = nxc_col_append_bool(cb, !(fl & NXP_INSTRUCTION_PC_UNKNOWN));
				break;
			}
			}
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int64_t dev_fill(nxc_stream *s, int64_t max)
{
	dev_ctx *d = s->ctx;
	if (d->pending) {
		int rc = d->pending;
		d->pending = 0;
		return rc;
	}
	if (d->ended)
		return 0;
	int is_instr = s->t->cursor_table == NXP_TABLE_INSTRUCTION;
	while (s->b.rows < max) {
		size_t want = (size_t)(max - s->b.rows), got = 0;
		if (want > RUN)
			want = RUN;
		int rc = nxp_cursor_next_batch(d->cur, d->recs, d->rsize, want, &got);
		if (got > 0) {
			for (int i = 0; i < s->b.ncols; i++)
				if (scatter(&s->b.cols[i], d->recs, d->rsize, got, is_instr)) {
					s->b.nomem = 1;
					return NXP_E_NOMEM;
				}
			s->b.rows += (int64_t)got;
		}
		if (rc == NXP_END) {
			d->ended = 1;
			break;
		}
		if (rc < 0) {
			nxp_status cst;
			nxp_status_init(&cst);
			nxp_cursor_error(d->cur, &cst);
			nxc_stream_error(s, "%s: %s", s->t->name, cst.message[0] ? cst.message : nxp_strerror(rc));
			d->ended = 1;
			if (s->b.rows > 0) {
				d->pending = rc;
				break;
			}
			return rc;
		}
	}
	return s->b.rows;
}

int nxc_device_open(nxc_stream *s, nxp_profile *p, nxp_status *st)
{
	dev_ctx *d = calloc(1, sizeof(*d));
	if (!d)
		return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
	d->rsize = s->t->rec_size;
	d->recs = calloc(RUN, d->rsize);
	if (!d->recs) {
		dev_free(d);
		return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
	}
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = s->opts.start_ts;
	co.end_ts = s->opts.end_ts;
	co.engine = s->opts.engine;
	co.pcore_idx = s->opts.pcore_idx;
	co.queue_name = s->opts.queue_name;
	int rc = nxp_cursor_open(&d->cur, p, s->t->cursor_table, &co, st);
	if (rc) {
		dev_free(d);
		return rc;
	}
	for (int i = 0; i < s->b.ncols; i++)
		s->b.cols[i].stable_strings = 1; /* cursor strings live as long as the profile */
	s->ctx = d;
	s->free_ctx = dev_free;
	s->fill = dev_fill;
	return 0;
}
