/* SPDX-License-Identifier: MIT */
/* Cursors: every table (chosen by a byte), with fuzzed options (time window,
 * engine, core, queue name), a fuzzed seek in the middle, and the contract
 * checked as records come: time order, the window, position() agreeing with
 * the next record, stats agreeing with the records returned, and a typed
 * next() of the wrong table refused.  When the control byte injects a read
 * error, the records returned before it must match an intact read's.
 * Input: [table] [flags] [engine] [pcore] [queue] [first] [start u64] [end u64]
 *        [seek u64] [ctl] [NTFF bytes...]
 * flags bit 0: SKIP_CRC; bit 1: use start; bit 2: use end; bit 3: seek;
 *       bit 4: read with next_batch instead of the typed next. */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	return 0;
}

/* One record of the cursor's table; *ts = its start time.  Also touches its strings. */
static int next_typed(nxp_cursor *c, int table, fz_any_record *r, int64_t *ts)
{
	int rc;
	memset(r, 0, sizeof(*r));
	switch (table) {
	case NXP_TABLE_INSTRUCTION:
		r->ins.struct_size = sizeof(r->ins);
		rc = nxp_cursor_next_instruction(c, &r->ins);
		*ts = r->ins.start_ts;
		if (rc == NXP_OK)
			sink += fz_touch(r->ins.engine) + fz_touch(r->ins.opcode) + fz_touch(r->ins.operands) +
				fz_touch(r->ins.tensor_instruction_type) + fz_touch(r->ins.scalar_activation_fn) +
				fz_touch(r->ins.performance_mode);
		return rc;
	case NXP_TABLE_DMA_PACKET:
		r->dma.struct_size = sizeof(r->dma);
		rc = nxp_cursor_next_dma_packet(c, &r->dma);
		*ts = r->dma.start_ts;
		if (rc == NXP_OK)
			sink += fz_touch(r->dma.queue_type) + fz_touch(r->dma.variable) + fz_touch(r->dma.queue_name) +
				fz_touch(r->dma.source) + fz_touch(r->dma.dest);
		return rc;
	case NXP_TABLE_SEMAPHORE_UPDATE:
		r->sem.struct_size = sizeof(r->sem);
		rc = nxp_cursor_next_semaphore_update(c, &r->sem);
		*ts = r->sem.timestamp;
		if (rc == NXP_OK)
			sink += fz_touch(r->sem.id) + fz_touch(r->sem.update_source) +
				fz_touch(r->sem.update_operation_type) + fz_touch(r->sem.update_trigger_timing);
		return rc;
	case NXP_TABLE_THROTTLE:
		r->thr.struct_size = sizeof(r->thr);
		rc = nxp_cursor_next_throttle(c, &r->thr);
		*ts = r->thr.timestamp;
		if (rc == NXP_OK)
			sink += fz_touch(r->thr.type);
		return rc;
	case NXP_TABLE_ERROR:
		r->err.struct_size = sizeof(r->err);
		rc = nxp_cursor_next_error(c, &r->err);
		*ts = r->err.timestamp;
		if (rc == NXP_OK)
			sink += fz_touch(r->err.type) + fz_touch(r->err.description) + fz_touch(r->err.metadata) +
				fz_touch(r->err.metadata_hex);
		return rc;
	case NXP_TABLE_EXECUTION:
		r->exe.struct_size = sizeof(r->exe);
		rc = nxp_cursor_next_execution(c, &r->exe);
		*ts = r->exe.execution_start_ts;
		if (rc == NXP_OK)
			sink += fz_touch(r->exe.neff_name);
		return rc;
	default:
		r->act.struct_size = sizeof(r->act);
		rc = nxp_cursor_next_active_time(c, &r->act);
		*ts = r->act.start_ts;
		if (rc == NXP_OK)
			sink += fz_touch(r->act.engine);
		return rc;
	}
}

/* Start time of record i of a batch (offset differs only for executions). */
static int64_t batch_ts(int table, const uint8_t *r)
{
	int64_t ts;
	size_t off = table == NXP_TABLE_EXECUTION ? offsetof(nxp_execution, execution_start_ts) : sizeof(size_t);
	memcpy(&ts, r + off, sizeof(ts));
	return ts;
}

/* Start times of the records a cursor returns over `src` (at most `max`), read
 * in batches; *count gets how many, the result is the code that ended it. */
static int read_starts(nxp_source *src, int table, const nxp_cursor_options *co, const nxp_profile_options *po,
		       int64_t *out, size_t max, size_t *count)
{
	*count = 0;
	nxp_source *neff = NULL;
	nxp_profile *p = NULL;
	nxp_cursor *c = NULL;
	int rc = fz_fixture_profile_open(&p, &neff, src, po, NULL);
	if (rc == NXP_OK)
		rc = nxp_cursor_open(&c, p, table, co, NULL);
	while (rc == NXP_OK) {
		fz_any_record recs[8];
		size_t n = 0, rs = fz_record_size(table);
		rc = nxp_cursor_next_batch(c, recs, rs, 8, &n);
		for (size_t i = 0; i < n && *count < max; i++)
			out[(*count)++] = batch_ts(table, (const uint8_t *)recs + i * rs);
		if (*count == max)
			break;
	}
	nxp_cursor_close(c);
	nxp_profile_close(p);
	nxp_source_close(neff);
	return rc;
}

/* With a read error injected: the records returned before it are the intact
 * file's, rank for rank — never bytes of a failed read. */
static void check_prefix(const uint8_t *ntff, size_t size, uint8_t ctl, int table, const nxp_cursor_options *co,
			 const nxp_profile_options *po)
{
	enum { MAXR = 2048 };
	static int64_t want[MAXR], got[MAXR];
	size_t nwant, ngot;
	static const uint8_t empty[1];
	nxp_source *clean = NULL, *flaky = fz_source_open(ntff, size, ctl);
	if (nxp_source_open_memory(&clean, size ? ntff : empty, size, NULL) != NXP_OK || !flaky)
		goto out;
	read_starts(clean, table, co, po, want, MAXR, &nwant);
	read_starts(flaky, table, co, po, got, MAXR, &ngot);
	for (size_t i = 0; i < ngot; i++)
		FZ_CHECK(i < nwant && got[i] == want[i],
			 "table %d: with a read error, record %zu starts at %lld; the intact file's at %lld (%zu records)",
			 table, i, (long long)got[i], i < nwant ? (long long)want[i] : -1LL, nwant);
out:
	nxp_source_close(clean);
	nxp_source_close(flaky);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const queue_names[] = {NULL, "IN_QUE", "q_pe_in_w", "q_act_out", "no-such-queue", ""};
	fz_input in = {data, size};
	int table = NXP_TABLE_INSTRUCTION + fz_take_u8(&in) % 7;
	uint8_t flags = fz_take_u8(&in);
	int engine = (int8_t)fz_take_u8(&in);
	int pcore = (int8_t)fz_take_u8(&in);
	const char *queue = queue_names[fz_take_u8(&in) % (sizeof(queue_names) / sizeof(queue_names[0]))];
	unsigned first = fz_take_u8(&in);
	int64_t start = (int64_t)fz_take_u64(&in);
	int64_t end = (int64_t)fz_take_u64(&in);
	int64_t seek_to = (int64_t)fz_take_u64(&in);

	uint64_t ntff_size = in.size ? in.size - 1 : 0;
	const uint8_t *ntff_bytes = in.size ? in.data + 1 : NULL; /* after the control byte */
	uint8_t ctl = in.size ? in.data[0] : 0;
	nxp_profile_options popts;
	nxp_profile_options_init(&popts);
	if (flags & 1)
		popts.flags |= NXP_PROFILE_SKIP_CRC;
	fz_fixture_pair fx;
	if (fz_fixture_pair_open(&fx, &in, &popts, NULL) != NXP_OK)
		goto out;
	nxp_profile *p = fx.p;

	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	if (flags & 2)
		co.start_ts = start;
	if (flags & 4)
		co.end_ts = end;
	co.engine = engine;
	co.pcore_idx = pcore;
	co.queue_name = queue;
	nxp_cursor *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_cursor_open(&c, p, table, &co, &st);
	if (rc != NXP_OK) {
		FZ_CHECK(c == NULL, "nxp_cursor_open failed (%d) but returned a cursor", rc);
		FZ_CHECK(rc < 0 && st.code == rc, "nxp_cursor_open: %d, status %d", rc, st.code);
		goto out;
	}
	if (nxp_cursor_table(c) != table)
		abort();
	/* A typed next() of another table is misuse. */
	fz_any_record r;
	int64_t ts;
	if (next_typed(c, table == NXP_TABLE_THROTTLE ? NXP_TABLE_ERROR : NXP_TABLE_THROTTLE, &r, &ts) != NXP_E_INVAL)
		abort();

	int64_t returned = 0, last = INT64_MIN;
	int use_batch = flags & 16;
	for (unsigned pass = 0; pass < 2; pass++) {
		unsigned limit = pass == 0 ? first : UINT32_MAX;
		for (unsigned k = 0; k < limit;) {
			int64_t pos = nxp_cursor_position(c);
			if (use_batch) {
				fz_any_record recs[8]; /* aligned storage for 8 records of any table */
				uint8_t *buf = (uint8_t *)recs;
				size_t count = 0, rs = fz_record_size(table);
				nxp_cursor_stats before, after;
				before.struct_size = after.struct_size = sizeof(before);
				nxp_cursor_get_stats(c, &before);
				rc = nxp_cursor_next_batch(c, buf, rs, 8, &count);
				nxp_cursor_get_stats(c, &after);
				for (size_t i = 0; i < count; i++) {
					ts = batch_ts(table, buf + i * rs);
					FZ_CHECK(i != 0 || ts == pos || (ts > pos && after.bad_records > before.bad_records),
						 "table %d: position() said %lld, batch starts at %lld", table, (long long)pos,
						 (long long)ts);
					FZ_CHECK(table == NXP_TABLE_EXECUTION || ts >= last,
						 "table %d: batch record at %lld after %lld", table, (long long)ts,
						 (long long)last);
					last = ts;
				}
				returned += (int64_t)count;
				k += (unsigned)count;
			} else {
				nxp_cursor_stats before;
				before.struct_size = sizeof(before);
				nxp_cursor_get_stats(c, &before);
				rc = next_typed(c, table, &r, &ts);
				if (rc == NXP_OK) {
					nxp_cursor_stats after;
					after.struct_size = sizeof(after);
					nxp_cursor_get_stats(c, &after);
					/* Exact unless a bad record was skipped on the way: then a lower bound. */
					FZ_CHECK(ts == pos || (ts > pos && after.bad_records > before.bad_records),
						 "table %d record %lld: position() said %lld, record starts at %lld "
						 "(bad records %lld -> %lld)",
						 table, (long long)returned, (long long)pos, (long long)ts,
						 (long long)before.bad_records, (long long)after.bad_records);
					FZ_CHECK(table == NXP_TABLE_EXECUTION || ts >= last,
						 "table %d: record at %lld after %lld", table, (long long)ts, (long long)last);
					FZ_CHECK(ts >= co.start_ts && ts < co.end_ts,
						 "table %d: record at %lld outside the window [%lld, %lld)", table,
						 (long long)ts, (long long)co.start_ts, (long long)co.end_ts);
					last = ts;
					returned++;
					k++;
				}
			}
			if (rc != NXP_OK)
				break;
		}
		if (rc < 0)
			break;
		if (pass == 0 && (flags & 8)) {
			rc = nxp_cursor_seek(c, seek_to);
			if (rc < 0)
				break;
			int64_t pos = nxp_cursor_position(c);
			FZ_CHECK(pos >= seek_to, "table %d: seek(%lld) then position() %lld", table, (long long)seek_to,
				 (long long)pos);
			last = INT64_MIN;
		}
	}
	nxp_cursor_stats stats;
	stats.struct_size = sizeof(stats);
	FZ_CHECK(nxp_cursor_get_stats(c, &stats) == NXP_OK && stats.records == returned,
		 "table %d: stats.records %lld, returned %lld", table, (long long)stats.records, (long long)returned);
	if (rc < 0) {
		nxp_status est;
		nxp_status_init(&est);
		FZ_CHECK(nxp_cursor_error(c, &est) == rc, "table %d: error %d, cursor_error %d", table, rc, est.code);
		fz_check_error(rc, &est, ntff_size, "cursor");
		int again = nxp_cursor_next_batch(c, &r, fz_record_size(table), 1, &(size_t){0});
		FZ_CHECK(again == rc, "table %d: error %d not sticky (then %d)", table, rc, again);
	}
	nxp_cursor_close(c);
	if ((ctl & FZ_CTL_IO_ERROR) && (ctl & FZ_CTL_CHUNK_MASK) != FZ_CHUNK_MEMORY)
		check_prefix(ntff_bytes, (size_t)ntff_size, ctl, table, &co, &popts);
out:
	fz_fixture_pair_close(&fx);
	return 0;
}
