/* SPDX-License-Identifier: MIT */
/* Device tables (Instruction, DmaPacket, SemaphoreUpdate, Throttle, Error,
 * ExecutionInfo, ActiveTime).
 *
 * Instruction and DmaPacket: straight from the NTFF module's internal
 * iteration (ntff_priv.h) — blocks of merged records where queues interleave
 * (ntff_iter_block), runs of in-order records otherwise (ntff_iter_run): the
 * raw records are decoded and checked, then every projected column is
 * written in one loop over the gathered rows — no public 280-byte struct, and
 * the NEFF's static instruction is looked up only when a projected column
 * needs it (opcode, operands, bytes, FLOPs).
 * The other record tables: runs, the table's own fill into a
 * run of public structs, scattered column by column into the projected
 * columns.  ActiveTime (derived) goes through the public cursor, or in an
 * export that reads both tables whole, comes from the runs the two streams
 * fed (ntff_at_feed).  Values, nulls, ids and skipped records are the
 * cursor's in every case. */
#include "columnar_priv.h"
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#include "ntff_priv.h"
#include "status.h"
#include "summary_feed.h"

#define RUN 256 /* records per run at most */

/* Instruction columns written straight from the decoded record. */
enum {
	IC_START, IC_END, IC_DUR, IC_ENGINE, IC_PCORE, IC_OPCODE, IC_OPERANDS, IC_ID, IC_PC, IC_WAIT,
	IC_HBM_R, IC_HBM_W, IC_SBUF_R, IC_SBUF_W, IC_SPILL_S, IC_SPILL_R, IC_PSUM_R, IC_PSUM_W, IC_PSUM_RS,
	IC_PERF_MODE, IC_TENSOR_TYPE, IC_TENSOR_EL, IC_RAW_FLOPS, IC_ADJ_FLOPS, IC_TENSOR_EL_T, IC_FLOPS_T,
	IC_ADJ_FLOPS_T, IC_ACT_FN, IC_ENGINE_ID, IC_OPNUM, IC_EXEC, IC_PC_IN_NEFF, IC_COUNT
};
static const char *const ic_names[IC_COUNT] = {
	"start_ts", "end_ts", "duration_ns", "engine", "pcore_idx", "opcode", "operands", "id", "pc",
	"evt_wait_time_ns", "hbm_read_bytes", "hbm_write_bytes", "sbuf_read_bytes", "sbuf_write_bytes",
	"spill_save_bytes", "spill_reload_bytes", "psum_read_bytes", "psum_write_bytes",
	"psum_read_sbuf_write_bytes", "performance_mode", "tensor_instruction_type", "tensor_elements",
	"raw_flops", "adjusted_flops", "tensor_elements_transpose", "flops_transpose", "adjusted_flops_transpose",
	"scalar_activation_fn", "engine_id", "opcode_num", "execution_index", "pc_in_neff",
};

/* DmaPacket columns written straight from the decoded record. */
enum {
	DC_START, DC_END, DC_DUR, DC_PCORE, DC_ID, DC_PACKET_IDX, DC_AGG, DC_ENGINE_IDX, DC_READ, DC_WRITE,
	DC_TRANSFER, DC_THROUGHPUT, DC_QUEUE_TYPE, DC_VARIABLE, DC_QUEUE_NAME, DC_QUEUE_IDX, DC_CRC, DC_EXEC,
	DC_SOURCE, DC_DEST, DC_COUNT
};
static const char *const dc_names[DC_COUNT] = {
	"start_ts", "end_ts", "duration_ns", "pcore_idx", "id", "packet_idx", "packet_aggregation_id",
	"engine_idx", "read_bytes", "write_bytes", "transfer_bytes", "throughput", "queue_type", "variable",
	"queue_name", "queue_idx", "crc", "execution_index", "source", "dest",
};

/* SemaphoreUpdate columns written straight from the decoded record. */
enum {
	SC_TS, SC_ID, SC_VALUE, SC_SOURCE, SC_DSC, SC_MODE, SC_OP, SC_TRIGGER, SC_PCORE, SC_IDX, SC_COUNT
};
static const char *const sc_names[SC_COUNT] = {
	"timestamp", "id", "value", "update_source", "double_set_or_clear", "update_mode",
	"update_operation_type", "update_trigger_timing", "pcore_idx", "semaphore_idx",
};

/* A dictionary column's indices by a code of the row (its queue, a string
 * id), so that the string behind a code is looked up once per batch rather
 * than once per row: direct-mapped, reset with the batch's dictionary (at its
 * first row).  A miss asks the dictionary, which hands back the index a
 * string already has: indices and dictionary are the ones nxc_col_put_strs
 * would make from the rows' strings, entries in order of first use. */
#define CM_SLOTS 64
#define CM_EMPTY INT32_MIN
#define CM_NULL (INT32_MIN + 1) /* the code's rows are null */
#define CM_DIRECT 1024          /* codes of a queue: a direct table when below this */
typedef struct codemap {
	uint64_t key[CM_SLOTS];
	int32_t val[CM_SLOTS]; /* dictionary index, CM_NULL or CM_EMPTY */
	int32_t dv[CM_DIRECT]; /* the same by code, for small codes (PUT_QCODED) */
	uint64_t *stag;        /* by static instruction (PUT_SICODED), direct-mapped: the batch's
				* number << 32 | the key, ... */
	int32_t *sx;           /* ... and the index; allocated at first use */
	uint32_t smask;        /* slots - 1 */
	uint32_t gen;          /* the batch's number */
} codemap;
#define CM_SI_SLOTS (1u << 16) /* slots at most (768 KiB a column) */

typedef struct dev_ctx {
	nxp_cursor *cur;  /* ActiveTime read as a table */
	ntff_at_feed *at_rows; /* ActiveTime read from the export's feed (borrowed) */
	ntff_iter it;     /* the record tables */
	int it_open;
	const ntff_table *nt;
	nxp_profile *p;
	uint8_t *recs;
	size_t rsize;
	int *ic;          /* Instruction: IC_* of each output column (direct path), else NULL */
	int *dc;          /* DmaPacket: DC_* of each output column (direct path), else NULL */
	struct drun *dr;  /* DmaPacket: the run being gathered */
	int *sc;          /* SemaphoreUpdate: SC_* of each output column (direct path), else NULL */
	struct srun *sr;  /* SemaphoreUpdate: the run being gathered */
	codemap *cm;      /* Instruction, DmaPacket: one per output column */
	size_t ncm;
	uint32_t *sibase; /* Instruction: each queue's first static-instruction key (irun.sik) */
	uint32_t nsik;    /* the keys: every queue's static instructions, and one for a pc not
			   * in the NEFF */
	int need_si;      /* a projected column needs the NEFF's static instruction */
	int whole;        /* every queue of the table, no window: a clean end is noted */
	nxp__sum_feed *feed; /* the export's summary share this stream feeds (NULL: none) */
	ntff_at_feed *atf;   /* the export's ActiveTime share it feeds (NULL: none) */
	int pending;  /* an error met after rows were returned: reported by the next fill */
	int ended;
} dev_ctx;

/* The shares this stream feeds end: ok at the table's end, else (an
 * error, a release before the end) they are not used. */
static void feed_end(dev_ctx *d, int ok)
{
	if (d->feed)
		nxp__sum_feed_end(d->feed, d->nt->table, ok);
	if (d->atf)
		ntff_at_feed_end(d->atf, d->nt->table, ok);
	d->feed = NULL;
	d->atf = NULL;
}

static void dev_free(void *p)
{
	dev_ctx *d = p;
	if (!d)
		return;
	feed_end(d, 0); /* released before its end: no share */
	nxp_cursor_close(d->cur);
	if (d->it_open)
		ntff_iter_close(&d->it);
	free(d->recs);
	free(d->ic);
	free(d->dc);
	free(d->dr);
	free(d->sc);
	free(d->sr);
	for (size_t i = 0; d->cm && i < d->ncm; i++)
		free(d->cm[i].stag), free(d->cm[i].sx);
	free(d->cm);
	free(d->sibase);
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

/* Append n records (stride rsize, n <= RUN) to column c: each column's values
 * and nulls gathered from the records, then appended in bulk. */
NXP_HOT_LOOP static int scatter(nxc_colbuf *cb, const uint8_t *recs, size_t rsize, size_t n, int is_instr)
{
	const nxc_col *c = cb->col;
	int64_t v[RUN];
	uint8_t ok[RUN];
	const uint8_t *valid = NULL;
	if (c->nullif != NXN_NEVER) {
		for (size_t i = 0; i < n; i++)
			ok[i] = !is_null(c, recs + i * rsize, rsize, is_instr);
		valid = ok;
	}
	switch (c->src) {
	case NXS_I64:
		for (size_t i = 0; i < n; i++)
			memcpy(&v[i], recs + i * rsize + c->off, 8);
		return nxc_col_put_i64s(cb, v, valid, n);
	case NXS_I32:
	case NXS_U32:
		for (size_t i = 0; i < n; i++) {
			int32_t x;
			memcpy(&x, recs + i * rsize + c->off, 4);
			v[i] = c->src == NXS_I32 ? (int64_t)x : (int64_t)(uint32_t)x;
		}
		if (c->type == NXC_BOOL) {
			uint8_t bv[RUN];
			for (size_t i = 0; i < n; i++)
				bv[i] = v[i] != 0;
			if (!valid)
				return nxc_col_put_bools(cb, bv, n);
			break;
		}
		return nxc_col_put_i64s(cb, v, valid, n);
	case NXS_F64:
		if (!valid && c->type == NXC_F64) {
			double d[RUN];
			for (size_t i = 0; i < n; i++)
				memcpy(&d[i], recs + i * rsize + c->off, 8);
			return nxc_col_put_f64s(cb, d, n);
		}
		break;
	case NXS_STR: {
		const char *sv[RUN];
		for (size_t i = 0; i < n; i++)
			memcpy(&sv[i], recs + i * rsize + c->off, sizeof(sv[i]));
		return nxc_col_put_strs(cb, sv, valid, n);
	}
	default:
		break;
	}
	/* the rest (nullable floats and bools, pc_in_neff), row by row */
	if (nxc_col_reserve(cb, (int64_t)n))
		return NXP_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *r = recs + i * rsize;
		int rc;
		if (valid && !valid[i]) {
			rc = nxc_col_append_null(cb);
		} else if (c->src == NXS_F64) {
			double x;
			memcpy(&x, r + c->off, 8);
			rc = nxc_col_append_f64(cb, x);
		} else if (c->src == NXS_I32 || c->src == NXS_U32) {
			rc = nxc_col_append_i64(cb, v[i]);
		} else { /* Instruction pc_in_neff */
			uint32_t fl;
			memcpy(&fl, r + c->off, 4);
			rc = nxc_col_append_bool(cb, !(fl & NXP_INSTRUCTION_PC_UNKNOWN));
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int64_t cursor_fill(nxc_stream *s, int64_t max)
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
		int rc = d->at_rows ? ntff_at_feed_next_batch(d->at_rows, d->recs, d->rsize, want, &got)
				    : nxp_cursor_next_batch(d->cur, d->recs, d->rsize, want, &got);
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

/* ---- the record tables through ntff_iter ---- */

#define put_i64s nxc_col_put_i64s

static inline int64_t to_ns(uint64_t tick, uint64_t tpn)
{
	return (int64_t)(tpn == 1 ? tick : tick / tpn);
}

static inline size_t cm_slot(uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 58); /* 64 slots */
}

static void cm_begin(codemap *cm, const nxc_colbuf *cb)
{
	if (cb->length == 0) /* a new batch: a new dictionary */
		for (size_t i = 0; i < CM_SLOTS; i++)
			cm->val[i] = CM_EMPTY;
}

static void cm_begin_direct(codemap *cm, const nxc_colbuf *cb, size_t ncodes)
{
	if (cb->length == 0)
		for (size_t i = 0; i < ncodes; i++)
			cm->dv[i] = CM_EMPTY;
}

/* The static-instruction table of a column (a slot per key up to
 * CM_SI_SLOTS, then keys share slots): a new batch takes a new number,
 * which leaves every slot empty without a reset. */
static int cm_begin_si(codemap *cm, const nxc_colbuf *cb, uint32_t nkeys)
{
	if (!cm->stag) {
		uint32_t n = 1;
		while (n < nkeys && n < CM_SI_SLOTS)
			n *= 2;
		cm->stag = calloc(n, sizeof(*cm->stag));
		cm->sx = calloc(n, sizeof(*cm->sx));
		if (!cm->stag || !cm->sx)
			return -1;
		cm->smask = n - 1;
	}
	if (cb->length == 0 || cm->gen == 0)
		cm->gen++;
	return 0;
}

/* The good records of one Instruction run, decoded. */
typedef struct irun {
	size_t n;
	const ntff_queue *q[RUN];
	uint32_t qid[RUN];
	nxp_ntff_instruction_note note[RUN];
	int64_t id[RUN];
	const nxp_static_instr *si[RUN];
	uint32_t sik[RUN]; /* si's key (dev_ctx.sibase) */
	uint32_t nsik;
	int all_known; /* every si is non-NULL */
} irun;

/* Coded dictionary columns (in put_instruction_col / put_dma_col): each
 * row's index by a code of the row, looked up in a table of the column's
 * codemap; a miss resolves the code's string (null when `nullx`: CM_NULL)
 * and fills the slot.  Rows whose index is CM_NULL become null rows (index
 * 0) after the loop, in coded_commit, which the loops OR their indices
 * into (negative: some row is null). */
#define CODED_MISS(strx, nullx)                                               \
	{                                                                     \
		const char *str = (strx);                                     \
		x = (nullx) ? CM_NULL : nxc_col_dict_index(cb, str);          \
		if (x < 0 && x != CM_NULL)                                    \
			return NXP_E_NOMEM;                                   \
	}

static int coded_commit(nxc_colbuf *cb, int32_t *ix, uint8_t *ok, size_t n, int32_t any)
{
	if (any >= 0)
		return nxc_col_indices_commit(cb, NULL, n);
	for (size_t i = 0; i < n; i++) {
		ok[i] = ix[i] != CM_NULL;
		ix[i] = ix[i] < 0 ? 0 : ix[i];
	}
	return nxc_col_indices_commit(cb, ok, n);
}

/* Any code: the direct-mapped CM_SLOTS table, key and index.  Returns from
 * the caller. */
#define PUT_CODED(keyx, strx, nullx)                                          \
	{                                                                     \
		int32_t *ix = nxc_col_indices_direct(cb, n), any = 0;         \
		if (!ix)                                                      \
			return NXP_E_NOMEM;                                   \
		cm_begin(cm, cb);                                             \
		for (size_t i = 0; i < n; i++) {                              \
			uint64_t key = (keyx);                                \
			size_t sl = cm_slot(key);                             \
			int32_t x = cm->val[sl];                              \
			if (cm->key[sl] != key || x == CM_EMPTY) {            \
				CODED_MISS(strx, nullx)                       \
				cm->key[sl] = key;                            \
				cm->val[sl] = x;                              \
			}                                                     \
			ix[i] = x;                                            \
			any |= x;                                             \
		}                                                             \
		return coded_commit(cb, ix, ok, n, any);                      \
	}

/* Codes below ncodes (a queue's: qid, or qid * 4 + kind), ncodes <=
 * CM_DIRECT: the direct table, no key to compare (else PUT_CODED). */
#define PUT_QCODED(keyx, ncodes, strx, nullx)                                 \
	if ((ncodes) > CM_DIRECT)                                             \
		PUT_CODED(keyx, strx, nullx)                                  \
	{                                                                     \
		int32_t *ix = nxc_col_indices_direct(cb, n), any = 0;         \
		if (!ix)                                                      \
			return NXP_E_NOMEM;                                   \
		cm_begin_direct(cm, cb, (ncodes));                            \
		for (size_t i = 0; i < n; i++) {                              \
			size_t key = (keyx);                                  \
			int32_t x = cm->dv[key];                              \
			if (x == CM_EMPTY) {                                  \
				CODED_MISS(strx, nullx)                       \
				cm->dv[key] = x;                              \
			}                                                     \
			ix[i] = x;                                            \
			any |= x;                                             \
		}                                                             \
		return coded_commit(cb, ix, ok, n, any);                      \
	}

/* Strings of the row's static instruction, by its key (irun.sik, every
 * queue's pcs and one for a pc not in the NEFF): the NEFF's strings looked
 * up once per instruction and batch (where keys do not share a slot). */
#define PUT_SICODED(strx, nullx)                                              \
	{                                                                     \
		int32_t *ix = nxc_col_indices_direct(cb, n), any = 0;         \
		if (!ix || cm_begin_si(cm, cb, r->nsik))                      \
			return NXP_E_NOMEM;                                   \
		const uint64_t gen = (uint64_t)cm->gen << 32;                 \
		for (size_t i = 0; i < n; i++) {                              \
			const uint32_t sl = r->sik[i] & cm->smask;            \
			int32_t x = cm->sx[sl];                               \
			if (cm->stag[sl] != (gen | r->sik[i])) {              \
				CODED_MISS(strx, nullx)                       \
				cm->stag[sl] = gen | r->sik[i];               \
				cm->sx[sl] = x;                               \
			}                                                     \
			ix[i] = x;                                            \
			any |= x;                                             \
		}                                                             \
		return coded_commit(cb, ix, ok, n, any);                      \
	}

/* Column IC_* of the run's records into cb (the values of records.c's fill). */
/* In put_instruction_col / put_dma_col: `expr` of each row i < n, written
 * in place into column cb when it has room, else through the staging v[];
 * returns from the caller. */
#define PUT_I64(expr)                                              \
	{                                                          \
		int64_t *o = nxc_col_i64_direct(cb, n), *t = o ? o : v; \
		for (size_t i = 0; i < n; i++)                     \
			t[i] = (int64_t)(expr);                    \
		if (!o)                                            \
			return put_i64s(cb, v, NULL, n);           \
		nxc_col_commit(cb, n);                             \
		return 0;                                          \
	}

NXP_HOT_LOOP static int put_instruction_col(nxc_colbuf *cb, int ic, const irun *r, const nxp_profile *p, codemap *cm)
{
	int64_t v[RUN];
	uint8_t ok[RUN];
	size_t n = r->n;
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	const nxp_static_instr *const *si = r->si;
	const uint8_t *known = r->all_known ? NULL : ok;
	if (!r->all_known)
		for (size_t i = 0; i < n; i++)
			ok[i] = si[i] != NULL;
	/* every pc in the NEFF (the usual case): no test per row, written in place */
#define NEFF_I64(field)                                          \
	if (r->all_known)                                        \
		PUT_I64(si[i]->field);                           \
	for (size_t i = 0; i < n; i++)                           \
		v[i] = si[i] ? (int64_t)si[i]->field : 0;        \
	return put_i64s(cb, v, known, n)
#define NEFF_STR(field) PUT_SICODED(si[i] ? si[i]->field : "", !si[i] || !str || !*str)
	/* tensor elements and FLOPs: in the column of its kind (transpose or not) */
	int tr = ic == IC_TENSOR_EL_T || ic == IC_FLOPS_T || ic == IC_ADJ_FLOPS_T;
	switch (ic) {
	case IC_START: PUT_I64(to_ns(r->note[i].start_tick, tpn));
	case IC_END: PUT_I64(to_ns(r->note[i].end_tick, tpn));
	case IC_DUR: PUT_I64(to_ns(r->note[i].end_tick, tpn) - to_ns(r->note[i].start_tick, tpn));
	case IC_WAIT: PUT_I64(to_ns(r->note[i].wait_ticks, tpn));
	case IC_PC: PUT_I64(r->note[i].pc);
	case IC_ID:
		return put_i64s(cb, r->id, NULL, n);
	case IC_PCORE: PUT_I64(r->q[i]->pcore);
	case IC_ENGINE_ID: PUT_I64(r->q[i]->engine);
	case IC_EXEC:
		for (size_t i = 0; i < n; i++) {
			v[i] = r->note[i].execution_index;
			ok[i] = r->note[i].execution_index >= 0;
		}
		return put_i64s(cb, v, ok, n);
	case IC_ENGINE:
		PUT_QCODED(r->qid[i], p->nqueues, r->q[i]->engine_name, 0);
	case IC_PC_IN_NEFF:
		for (size_t i = 0; i < n; i++)
			ok[i] = si[i] != NULL;
		return nxc_col_put_bools(cb, ok, n);
	case IC_OPCODE:
		PUT_SICODED(si[i] ? si[i]->opcode : "unknown", 0);
	case IC_OPERANDS:
		PUT_SICODED(si[i] ? si[i]->operands : "", 0);
	case IC_OPNUM: PUT_I64(si[i] ? si[i]->opcode_num : 0);
	case IC_HBM_R: NEFF_I64(hbm_read_bytes);
	case IC_HBM_W: NEFF_I64(hbm_write_bytes);
	case IC_SBUF_R: NEFF_I64(sbuf_read_bytes);
	case IC_SBUF_W: NEFF_I64(sbuf_write_bytes);
	case IC_SPILL_S: NEFF_I64(spill_save_bytes);
	case IC_SPILL_R: NEFF_I64(spill_reload_bytes);
	case IC_PSUM_R: NEFF_I64(psum_read_bytes);
	case IC_PSUM_W: NEFF_I64(psum_write_bytes);
	case IC_PSUM_RS: NEFF_I64(psum_read_sbuf_write_bytes);
	case IC_PERF_MODE: NEFF_STR(performance_mode);
	case IC_TENSOR_TYPE: NEFF_STR(tensor_instruction_type);
	case IC_ACT_FN: NEFF_STR(scalar_activation_fn);
	case IC_TENSOR_EL:
	case IC_TENSOR_EL_T:
		if (r->all_known)
			PUT_I64((si[i]->is_transpose != 0) == tr ? si[i]->tensor_elements : 0);
		for (size_t i = 0; i < n; i++)
			v[i] = si[i] && (si[i]->is_transpose != 0) == tr ? si[i]->tensor_elements : 0;
		return put_i64s(cb, v, known, n);
	case IC_RAW_FLOPS:
	case IC_FLOPS_T:
		if (r->all_known)
			PUT_I64((si[i]->is_transpose != 0) == tr ? si[i]->raw_flops : 0);
		for (size_t i = 0; i < n; i++)
			v[i] = si[i] && (si[i]->is_transpose != 0) == tr ? si[i]->raw_flops : 0;
		return put_i64s(cb, v, known, n);
	case IC_ADJ_FLOPS:
	case IC_ADJ_FLOPS_T:
		for (size_t i = 0; i < n; i++)
			v[i] = si[i] && (si[i]->is_transpose != 0) == tr && si[i]->raw_flops
				       ? (int64_t)((double)si[i]->raw_flops * p->flops_mult[si[i]->mm_dtype])
				       : 0;
		return put_i64s(cb, v, known, n);
	default:
		return NXP_E_INVAL;
	}
#undef NEFF_I64
#undef NEFF_STR
}

/* The good records of one DmaPacket run: each record's raw bytes copied
 * whole (a few wide moves, where storing each decoded field cost a load and
 * a store per field and row), decoded column by column by put_dma_col. */
typedef struct drun {
	const ntff_queue *q[RUN];
	uint32_t qid[RUN];
	int64_t id[RUN];
	uint8_t raw[RUN][NTFF_REC_DMA_SIZE];
} drun;

/* Fields of record i of a drun (ntff_decode_dma's layout). */
#define D_START(i) ntff_ld64(r->raw[i])
#define D_END(i) ntff_ld64(r->raw[i] + 8)
#define D_AGG(i) ntff_ld32(r->raw[i] + 16)
#define D_PIDX(i) ntff_ld32(r->raw[i] + 20)
#define D_RB(i) ntff_ld32(r->raw[i] + 24)
#define D_WB(i) ntff_ld32(r->raw[i] + 28)
#define D_CRC(i) ntff_ld32(r->raw[i] + 32)
#define D_FLAGS(i) ntff_ld16(r->raw[i] + 36)
#define D_EXEC(i) ((int32_t)ntff_ld32(r->raw[i] + 40))
#define D_VAR(i) ntff_ld32(r->raw[i] + 44)

_Static_assert((NXP_DMA_HARDWARE_DYNAMIC | NXP_DMA_SOFTWARE_DYNAMIC) == 3, "DC_QUEUE_TYPE's code");

static const char *const memory_names[] = { "", "sbuf", "psum", "hbm" };

static const char *dma_queue_type(const ntff_queue *q, unsigned flags)
{
	if (flags & NXP_DMA_HARDWARE_DYNAMIC)
		return "hardware_dynamic";
	if (flags & NXP_DMA_SOFTWARE_DYNAMIC)
		return "software_dynamic";
	return q->neff_queue && q->neff_queue->type ? q->neff_queue->type : "unknown";
}

/* Column DC_* of the run's n records into cb (the values of records.c's fill_dma). */
NXP_HOT_LOOP static int put_dma_col(nxc_colbuf *cb, int dc, const drun *r, size_t n, const nxp_profile *p,
				    codemap *cm)
{
	int64_t v[RUN];
	uint8_t ok[RUN];
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	switch (dc) {
	case DC_START: PUT_I64(to_ns(D_START(i), tpn));
	case DC_END: PUT_I64(to_ns(D_END(i), tpn));
	case DC_DUR: PUT_I64(to_ns(D_END(i), tpn) - to_ns(D_START(i), tpn));
	case DC_PCORE: PUT_I64(r->q[i]->pcore);
	case DC_ID: return put_i64s(cb, r->id, NULL, n);
	case DC_PACKET_IDX: PUT_I64((int32_t)D_PIDX(i));
	case DC_AGG: PUT_I64(D_AGG(i));
	case DC_ENGINE_IDX: PUT_I64(r->q[i]->engine_idx);
	case DC_READ: PUT_I64(D_RB(i));
	case DC_WRITE: PUT_I64(D_WB(i));
	case DC_TRANSFER: PUT_I64(D_RB(i) > D_WB(i) ? D_RB(i) : D_WB(i));
	case DC_QUEUE_IDX: PUT_I64(r->q[i]->queue_idx);
	case DC_CRC: PUT_I64(D_CRC(i));
	case DC_THROUGHPUT: {
		double t[RUN];
		for (size_t i = 0; i < n; i++) {
			int64_t dur = to_ns(D_END(i), tpn) - to_ns(D_START(i), tpn);
			int64_t bytes = D_RB(i) > D_WB(i) ? D_RB(i) : D_WB(i);
			t[i] = dur > 0 ? (double)bytes / ((double)dur * 1e-9) : 0.0;
		}
		return nxc_col_put_f64s(cb, t, n);
	}
	case DC_EXEC:
		for (size_t i = 0; i < n; i++) {
			v[i] = D_EXEC(i);
			ok[i] = D_EXEC(i) >= 0;
		}
		return put_i64s(cb, v, ok, n);
	case DC_QUEUE_TYPE:
		/* code: the queue and its packet's dynamic flags (bits 0 and 1; both
		 * set is a code of its own, with hardware_dynamic's string) */
		PUT_QCODED((size_t)r->qid[i] << 2 | (D_FLAGS(i) & (NXP_DMA_HARDWARE_DYNAMIC | NXP_DMA_SOFTWARE_DYNAMIC)),
			   p->nqueues * 4, dma_queue_type(r->q[i], D_FLAGS(i)), 0);
	case DC_VARIABLE:
		/* code: the string id (checked: in the table) */
		PUT_CODED(D_VAR(i), D_VAR(i) ? p->strtab + D_VAR(i) : "unknown", !*str);
	case DC_QUEUE_NAME:
		PUT_QCODED(r->qid[i], p->nqueues, r->q[i]->name, !str || !*str);
	case DC_SOURCE:
	case DC_DEST: {
		/* four codes: their dictionary indices kept here, looked up at first use */
		int32_t *ix = nxc_col_indices_direct(cb, n), map[4] = { 0, -1, -1, -1 };
		const size_t at = dc == DC_SOURCE ? 38 : 39; /* the record's source or dest byte */
		if (!ix)
			return NXP_E_NOMEM;
		for (size_t i = 0; i < n; i++) {
			unsigned m = r->raw[i][at] & 3; /* checked: <= hbm; 0: null, index 0 */
			ok[i] = m != 0;
			if (map[m] < 0 && (map[m] = nxc_col_dict_index(cb, memory_names[m])) < 0)
				return NXP_E_NOMEM;
			ix[i] = map[m];
		}
		return nxc_col_indices_commit(cb, ok, n);
	}
	default:
		return NXP_E_INVAL;
	}
}

/* The good records of one SemaphoreUpdate run, decoded. */
typedef struct srun {
	const ntff_queue *q[RUN];
	nxp_ntff_semaphore_note note[RUN];
} srun;

/* Column SC_* of the run's n records into cb (the values of records.c's
 * fill_semaphore; the NXN_EMPTY columns' empty strings null). */
NXP_HOT_LOOP static int put_semaphore_col(nxc_colbuf *cb, int sc, const srun *r, size_t n, nxp_profile *p,
					  codemap *cm)
{
	int64_t v[RUN];
	uint8_t ok[RUN];
	uint64_t tpn = (uint64_t)p->hdr.ticks_per_nanosec;
	switch (sc) {
	case SC_TS: PUT_I64(to_ns(r->note[i].tick, tpn));
	case SC_VALUE: PUT_I64(r->note[i].value);
	case SC_MODE: PUT_I64(r->note[i].update_mode);
	case SC_PCORE: PUT_I64(r->q[i]->pcore);
	case SC_IDX: PUT_I64(r->note[i].semaphore_idx);
	case SC_DSC:
		for (size_t i = 0; i < n; i++)
			ok[i] = r->note[i].double_set_or_clear != 0;
		return nxc_col_put_bools(cb, ok, n);
	case SC_SOURCE: /* (codes: checked < NXP_ENGINE_COUNT) */
		PUT_QCODED(r->note[i].update_source, NXP_ENGINE_COUNT,
			   nxp_engine_name(r->note[i].update_source) ? nxp_engine_name(r->note[i].update_source)
								      : "unknown",
			   !*str);
	case SC_OP: /* (checked <= 3) */
		PUT_QCODED(r->note[i].operation, 4, ntff_semaphore_op(r->note[i].operation), !*str);
	case SC_TRIGGER: /* (checked <= 1) */
		PUT_QCODED(r->note[i].trigger_complete, 2, r->note[i].trigger_complete ? "complete" : "start", !*str);
	case SC_ID: {
		/* by semaphore number (< 2^16): a name is made once per 256 */
		int32_t *ix = nxc_col_indices_direct(cb, n);
		if (!ix)
			return NXP_E_NOMEM;
		cm_begin(cm, cb);
		for (size_t i = 0; i < n; i++) {
			uint64_t key = r->note[i].semaphore_idx;
			size_t sl = cm_slot(key);
			int32_t x = cm->val[sl];
			if (cm->key[sl] != key || x == CM_EMPTY) {
				const char *str = ntff_semaphore_name(p, r->note[i].semaphore_idx);
				if (!str || (x = nxc_col_dict_index(cb, str)) < 0)
					return NXP_E_NOMEM;
				cm->key[sl] = key;
				cm->val[sl] = x;
			}
			ix[i] = x;
		}
		return nxc_col_indices_commit(cb, NULL, n);
	}
	default:
		return NXP_E_INVAL;
	}
}

/* An error ends the stream: reported now when no row is gathered, else by
 * the next fill (after the rows). */
static void fill_error(nxc_stream *s, dev_ctx *d, int rc)
{
	nxc_stream_error(s, "%s: %s", s->t->name, d->it.s.err.message[0] ? d->it.s.err.message : nxp_strerror(rc));
	d->ended = 1;
	feed_end(d, 0);
}

/* Decode and check one Instruction record into row k of the gathered run:
 * 1 when good, 0 when bad (the caller counts it). */
static inline int gather_instruction(dev_ctx *d, irun *ir, size_t k, const ntff_queue *q, uint32_t qid,
				     const uint8_t *rec, int64_t id)
{
	nxp_ntff_instruction_note *n = &ir->note[k];
	ntff_decode_instruction(rec, n);
	if (!ntff_instruction_ok(n))
		return 0;
	ir->q[k] = q;
	ir->qid[k] = qid;
	ir->id[k] = id;
	if (d->need_si) {
		const nxp_static_instr *si = n->pc < q->nsi ? &q->si[n->pc] : NULL;
		ir->si[k] = si;
		ir->sik[k] = si ? d->sibase[qid] + n->pc : d->nsik - 1;
		if (!si) {
			ir->all_known = 0;
			d->it.s.stats.unknown_pcs++;
		}
	}
	return 1;
}

/* The same for a DmaPacket record (kept raw). */
static inline int gather_dma(dev_ctx *d, size_t k, const ntff_queue *q, uint32_t qid, const uint8_t *rec,
			     int64_t id)
{
	nxp_ntff_dma_note n;
	ntff_decode_dma(rec, &n);
	if (!ntff_dma_ok(d->p, &n))
		return 0;
	drun *dr = d->dr;
	dr->q[k] = q;
	dr->qid[k] = qid;
	dr->id[k] = id;
	memcpy(dr->raw[k], rec, NTFF_REC_DMA_SIZE);
	return 1;
}

/* The same for a SemaphoreUpdate record. */
static inline int gather_semaphore(dev_ctx *d, size_t k, const ntff_queue *q, const uint8_t *rec)
{
	nxp_ntff_semaphore_note *n = &d->sr->note[k];
	ntff_decode_semaphore(rec, n);
	if (!ntff_semaphore_ok(n))
		return 0;
	d->sr->q[k] = q;
	return 1;
}

/* The rows gathered since the last call (*fed up to k, of ir or d->dr) to
 * the shares this stream feeds: a call per run, not per record. */
static void feed_rows(dev_ctx *d, const irun *ir, size_t *fed, size_t k)
{
	size_t f = *fed, m = k - f;
	*fed = k;
	if (!m)
		return;
	if (ir) {
		if (d->feed)
			nxp__sum_feed_instrs(d->feed, ir->q + f, ir->note + f, m);
		if (d->atf)
			ntff_at_feed_instrs(d->atf, ir->qid + f, ir->note + f, m);
	} else if (d->dr) {
		if (d->feed)
			nxp__sum_feed_dmas(d->feed, d->dr->qid + f, d->dr->raw[f], NTFF_REC_DMA_SIZE, m);
		if (d->atf)
			ntff_at_feed_dmas(d->atf, d->dr->qid + f, d->dr->raw[f], NTFF_REC_DMA_SIZE, m);
	}
}

static int64_t iter_fill(nxc_stream *s, int64_t max)
{
	dev_ctx *d = s->ctx;
	if (d->pending) {
		int rc = d->pending;
		d->pending = 0;
		return rc;
	}
	if (d->ended)
		return 0;
	for (int i = 0; i < s->b.ncols; i++)
		if (nxc_col_reserve(&s->b.cols[i], max - s->b.rows)) {
			s->b.nomem = 1;
			return NXP_E_NOMEM;
		}
	ntff_iter *it = &d->it;
	irun *ir = NULL;
	if (d->ic && !(ir = malloc(sizeof(*ir)))) {
		s->b.nomem = 1;
		return NXP_E_NOMEM;
	}
	ntff_blk *blk = NULL; /* the direct paths (Instruction, DmaPacket, SemaphoreUpdate) */
	if ((ir || d->dr || d->sr) && !(blk = malloc(sizeof(*blk)))) {
		free(ir);
		s->b.nomem = 1;
		return NXP_E_NOMEM;
	}
	int64_t result = 0;
	while (s->b.rows < max && !d->ended) {
		/* Gather up to RUN good records from as many runs as it takes (runs
		 * are short where queues interleave), then write every column once. */
		size_t k = 0, fed = 0; /* fed: rows handed to the feeds */
		if (ir) {
			ir->all_known = 1;
			ir->nsik = d->nsik;
		}
		while (k < RUN && s->b.rows + (int64_t)k < max) {
			ntff_rec r;
			int rc;
			if (blk) {
				/* A block where queues interleave, else the next run.  Every
				 * record of a block is taken: ask for no more than there is room. */
				size_t room = RUN - k;
				if (room > (size_t)(max - s->b.rows) - k)
					room = (size_t)(max - s->b.rows) - k;
				rc = ntff_iter_block(it, blk, room);
				if (rc == NXP_OK && blk->n) {
					for (size_t i = 0; i < blk->n; i++) {
						ntff_qreader *bq = blk->qr[i];
						int64_t id = blk->id + (int64_t)i;
						if (ir      ? gather_instruction(d, ir, k, bq->q, bq->qid, blk->rec[i], id)
						    : d->dr ? gather_dma(d, k, bq->q, bq->qid, blk->rec[i], id)
							    : gather_semaphore(d, k, bq->q, blk->rec[i]))
							k++;
						else
							ntff_scan_bad(&it->s, 0, ntff_blk_offset(blk, i));
					}
					continue;
				}
				if (rc == NXP_OK)
					rc = ntff_iter_run(it, &r);
			} else {
				rc = ntff_iter_run(it, &r);
			}
			if (rc == NXP_END) {
				d->ended = 1;
				/* (Instruction: the unknown pcs are counted with the join) */
				if (d->whole && !it->s.failed && !it->s.stats.bad_records && !it->s.stats.skipped_sections &&
				    (!d->ic || d->need_si))
					ntff_table_note_clean(d->p, d->nt->table, d->ic ? it->s.stats.unknown_pcs : 0);
				feed_rows(d, ir, &fed, k);
				feed_end(d, !it->s.failed);
				break;
			}
			if (rc < 0) {
				fill_error(s, d, rc);
				if (s->b.rows + (int64_t)k == 0) {
					result = rc;
					goto out;
				}
				d->pending = rc;
				break;
			}
			size_t m = r.n;
			if (m > RUN - k)
				m = RUN - k;
			if (m > (size_t)(max - s->b.rows) - k)
				m = (size_t)(max - s->b.rows) - k;
			if (ir) {
				for (size_t i = 0; i < m; i++)
					if (gather_instruction(d, ir, k, r.q, r.qid, r.rec + i * r.rsize, r.id + (int64_t)i))
						k++;
					else
						ntff_scan_bad(&it->s, 0, ntff_iter_run_offset(it, i));
			} else if (d->dr) {
				for (size_t i = 0; i < m; i++)
					if (gather_dma(d, k, r.q, r.qid, r.rec + i * r.rsize, r.id + (int64_t)i))
						k++;
					else
						ntff_scan_bad(&it->s, 0, ntff_iter_run_offset(it, i));
			} else if (d->sr) {
				for (size_t i = 0; i < m; i++)
					if (gather_semaphore(d, k, r.q, r.rec + i * r.rsize))
						k++;
					else
						ntff_scan_bad(&it->s, 0, ntff_iter_run_offset(it, i));
			} else {
				size_t i = 0;
				for (; i < m; i++) {
					it->s.next_id = r.id + (int64_t)i;
					int frc = d->nt->fill(&it->s, r.q, r.rec + i * r.rsize, d->recs + k * d->rsize);
					if (frc < 0) {
						/* the rows gathered are good; the error comes after them */
						it->s.next_id = r.id;
						fill_error(s, d, frc);
						if (s->b.rows + (int64_t)k == 0) {
							result = frc;
							goto out;
						}
						d->pending = frc;
						break;
					}
					if (frc == NXP__BAD_RECORD)
						ntff_scan_bad(&it->s, 0, ntff_iter_run_offset(it, i));
					else
						k++;
				}
				if (d->ended)
					break;
				it->s.next_id = r.id;
			}
			ntff_iter_skip(it, m); /* a read error here ends the next ntff_iter_run */
		}
		ir ? (void)(ir->n = k) : (void)0;
		feed_rows(d, ir, &fed, k);
		it->s.stats.records += (int64_t)k;
		for (int c = 0; c < s->b.ncols && k > 0; c++) {
			int bad = ir      ? put_instruction_col(&s->b.cols[c], d->ic[c], ir, d->p, &d->cm[c])
				  : d->dr ? put_dma_col(&s->b.cols[c], d->dc[c], d->dr, k, d->p, &d->cm[c])
				  : d->sr ? put_semaphore_col(&s->b.cols[c], d->sc[c], d->sr, k, d->p, &d->cm[c])
					  : scatter(&s->b.cols[c], d->recs, d->rsize, k, 0);
			if (bad) {
				s->b.nomem = 1;
				result = NXP_E_NOMEM;
				goto out;
			}
		}
		s->b.rows += (int64_t)k;
	}
	result = s->b.rows;
out:
	free(ir);
	free(blk);
	return result;
}

/* Each projected column's index in `names` (a column-by-column table's
 * sources) into a new array *out (freed by dev_free through the table's
 * state); NXP_E_INVAL for a column the table has no source for. */
static int map_columns(const nxc_stream *s, const char *const *names, int count, const char *table, int **out,
		       nxp_status *st)
{
	int *m = malloc((size_t)(s->b.ncols ? s->b.ncols : 1) * sizeof(int));
	if (!m)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	*out = m;
	for (int i = 0; i < s->b.ncols; i++) {
		int k = 0;
		while (k < count && strcmp(names[k], s->b.cols[i].col->name))
			k++;
		if (k == count)
			return nxp__error_set(st, NXP_E_INVAL, -1, "%s column \"%s\" has no source", table,
					      s->b.cols[i].col->name);
		m[i] = k;
	}
	return 0;
}

/* Each queue's first static-instruction key (d->sibase, d->nsik): 0, -1
 * when out of memory or past 2^32 keys. */
static int static_keys(dev_ctx *d)
{
	const nxp_profile *p = d->p;
	if (!(d->sibase = malloc((p->nqueues ? p->nqueues : 1) * sizeof(*d->sibase))))
		return -1;
	uint64_t k = 0;
	for (size_t i = 0; i < p->nqueues; i++) {
		d->sibase[i] = (uint32_t)k;
		k += p->queues[i].nsi;
	}
	if (k >= UINT32_MAX)
		return -1;
	d->nsik = (uint32_t)k + 1;
	return 0;
}

int nxc_device_open(nxc_stream *s, nxp_profile *p, nxp_status *st)
{
	dev_ctx *d = calloc(1, sizeof(*d));
	if (!d)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	d->p = p;
	d->rsize = s->t->rec_size;
	d->nt = ntff_table_get(s->t->cursor_table);
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = s->opts.start_ts;
	co.end_ts = s->opts.end_ts;
	co.engine = s->opts.engine;
	co.pcore_idx = s->opts.pcore_idx;
	co.queue_name = s->opts.queue_name;
	uint64_t from = co.start_ts == INT64_MIN ? 0 : ntff_tick_of(p, co.start_ts);
	uint64_t to = co.end_ts == INT64_MAX ? UINT64_MAX : ntff_tick_of(p, co.end_ts);
	d->whole = from == 0 && to == UINT64_MAX && co.engine == -1 && co.pcore_idx == -1 && !co.queue_name;
	int rc;
	if (!d->nt || d->nt->derived || co.engine < -1 || co.engine >= NXP_ENGINE_COUNT || co.pcore_idx < -1) {
		/* ActiveTime, and the cursor's own refusals */
		d->recs = calloc(RUN, d->rsize);
		if (!d->recs) {
			dev_free(d);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		/* ActiveTime of the whole profile from the export's feed, once both
		 * streams fed it whole */
		if (s->t->cursor_table == NXP_TABLE_ACTIVE_TIME && d->whole && ntff_at_feed_ready(s->feeds.at))
			d->at_rows = s->feeds.at;
		rc = d->at_rows ? 0 : nxp_cursor_open(&d->cur, p, s->t->cursor_table, &co, st);
		if (rc) {
			dev_free(d);
			return rc;
		}
		s->fill = cursor_fill;
	} else {
		/* the direct paths: their columns by number, the DmaPacket and
		 * SemaphoreUpdate runs (the Instruction run is iter_fill's) */
		int run_nomem = 0;
		rc = NXP_OK;
		if (s->t->cursor_table == NXP_TABLE_INSTRUCTION) {
			rc = map_columns(s, ic_names, IC_COUNT, "Instruction", &d->ic, st);
			for (int i = 0; !rc && i < s->b.ncols; i++)
				if (d->ic[i] == IC_PC_IN_NEFF || s->b.cols[i].col->neff)
					d->need_si = 1;
		} else if (s->t->cursor_table == NXP_TABLE_DMA_PACKET) {
			rc = map_columns(s, dc_names, DC_COUNT, "DmaPacket", &d->dc, st);
			run_nomem = !rc && !(d->dr = malloc(sizeof(*d->dr)));
		} else if (s->t->cursor_table == NXP_TABLE_SEMAPHORE_UPDATE) {
			rc = map_columns(s, sc_names, SC_COUNT, "SemaphoreUpdate", &d->sc, st);
			run_nomem = !rc && !(d->sr = malloc(sizeof(*d->sr)));
		}
		if (run_nomem)
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		if (rc) {
			dev_free(d);
			return rc;
		}
		if (d->need_si && static_keys(d)) {
			dev_free(d);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		d->ncm = (size_t)(s->b.ncols ? s->b.ncols : 1);
		if ((d->ic || d->dc || d->sc) && !(d->cm = calloc(d->ncm, sizeof(*d->cm)))) {
			dev_free(d);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		if (!d->ic && !d->dc && !d->sc && !(d->recs = calloc(RUN, d->rsize))) {
			dev_free(d);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		/* the export's shares: every record (the summary's with the NEFF join) */
		if (s->feeds.sum && d->whole && (d->dc || (d->ic && d->need_si)) &&
		    nxp__sum_feed_begin(s->feeds.sum, d->nt->table))
			d->feed = s->feeds.sum;
		if (s->feeds.at && d->whole && (d->dc || d->ic) && ntff_at_feed_begin(s->feeds.at, d->nt->table))
			d->atf = s->feeds.at;
		rc = ntff_iter_open(&d->it, p, d->nt, &co, from, to);
		if (rc) {
			dev_free(d);
			return nxp__error_set(st, rc, -1, "out of memory");
		}
		d->it_open = 1;
		if ((rc = ntff_iter_seek(&d->it, from)) < 0) {
			nxp_status_copy(st, &d->it.s.err);
			dev_free(d);
			return rc;
		}
		s->fill = iter_fill;
	}
	for (int i = 0; i < s->b.ncols; i++)
		s->b.cols[i].stable_strings = 1; /* profile strings live as long as the profile */
	s->ctx = d;
	s->free_ctx = dev_free;
	return 0;
}
