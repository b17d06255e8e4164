/* SPDX-License-Identifier: MIT */
/* Warning: the problems met while reading a profile, to check first.  Every
 * device table's cursor is drained (ActiveTime is left out: it reads the
 * instruction queues again) and its counters watched: skipped records and
 * sections become rows with the byte offset the cursor reports.  The tables
 * are walked through the NTFF module's internal iteration run by run
 * (ntff_iter_run): each record is checked with its table's check (no public
 * struct, no NEFF join), so every skipped record gets its own row and offset
 * at the cost of a decode; skipped sections are seen in the scan's counters
 * between runs.
 *
 * A table that a columnar stream has already read whole and found clean
 * (ntff_table_note_clean: an export writes the device tables before this
 * one) is not read again.  Otherwise each table's queues are walked one
 * after the other, each in its own order, without the k-way merge
 * (clean_walk): when nothing is wrong — every record passes its checks, no
 * key goes back, no section is skipped, no read error — the table's only
 * row is its unknown_pcs count, the same count in any order.  Only a table where something is wrong is walked again
 * through the merge, which gives its rows in the documented time order. */
#include "columnar_priv.h"

#include <stdio.h>
#include <stdlib.h>

#include "ntff_priv.h"
#include "status.h"

enum { W_MESSAGE, W_CATEGORY, W_TABLE, W_OFFSET, W_COUNT };

static const nxc_col w_cols[] = {
	{ "message", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "what was found" },
	{ "category", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "skipped_records, skipped_sections, unknown_pcs, unknown_sections, damaged_tpb, read_error" },
	{ "table_name", NXC_DICT, 0, 1, 0, 0, 0, 0, "", "libnxp: table whose rows are affected; null for the whole profile" },
	{ "offset", NXC_I64, 0, 1, 0, 0, 0, 0, "bytes", "libnxp: NTFF byte offset of the (last) bad record or section; null when none applies" },
	{ "record_count", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: records or sections concerned" },
};

static void row(nxc_builder *b, const char *msg, const char *cat, const char *table, int64_t off, int64_t count)
{
	nxc_put_str(b, W_MESSAGE, msg);
	nxc_put_str(b, W_CATEGORY, cat);
	if (table)
		nxc_put_str(b, W_TABLE, table);
	else
		nxc_put_null(b, W_TABLE);
	if (off >= 0)
		nxc_put_i64(b, W_OFFSET, off);
	else
		nxc_put_null(b, W_OFFSET);
	nxc_put_i64(b, W_COUNT, count);
	nxc_end_row(b);
}

/* The row of a table's records whose pc is not in the NEFF (none when n == 0). */
static void unknown_pcs_row(nxc_builder *b, const char *table, int64_t n)
{
	if (n <= 0)
		return;
	char msg[160];
	snprintf(msg, sizeof(msg), "%s: %lld record%s a pc that is not in the NEFF (%s static columns are null)", table,
		 (long long)n, n == 1 ? " has" : "s have", n == 1 ? "its" : "their");
	row(b, msg, "unknown_pcs", table, -1, n);
}

static const struct {
	int table;
	const char *name;
} walk[] = {
	{ NXP_TABLE_INSTRUCTION, "Instruction" },
	{ NXP_TABLE_DMA_PACKET, "DmaPacket" },
	{ NXP_TABLE_SEMAPHORE_UPDATE, "SemaphoreUpdate" },
	{ NXP_TABLE_THROTTLE, "Throttle" },
	{ NXP_TABLE_ERROR, "Error" },
	{ NXP_TABLE_EXECUTION, "ExecutionInfo" },
};

/* The table's queues one by one, unmerged: 1 when every record is good (and
 * *unknown_pcs = the Instruction records whose pc is not in the NEFF), 0 when
 * something is wrong (then the merged walk makes the rows), or NXP_E_NOMEM. */
static int clean_walk(nxp_profile *p, const ntff_table *nt, int64_t *unknown_pcs)
{
	if (ntff_table_known_clean(p, nt->table, unknown_pcs))
		return 1; /* read whole and clean already (an export's table, before this one) */
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	ntff_iter it;
	int rc = ntff_iter_open(&it, p, nt, &co, 0, UINT64_MAX);
	if (rc)
		return rc;
	int64_t unknown = 0;
	int clean = ntff_scan_seek(&it.s, 0) >= 0;
	for (size_t i = 0; i < it.s.nqr && clean; i++) {
		ntff_qreader *qr = &it.s.qr[i];
		const uint64_t nsi = qr->q->nsi;
		while (!qr->done && clean) {
			/* from qr->rec (in order) to the end of its section: every key in
			 * order and every record good, accumulated without a branch per
			 * record (a key that goes back is a bad record of the reader's,
			 * so the table is not clean either way) */
			const uint8_t *r = qr->rec, *end = qr->end;
			const size_t rs = qr->rsize;
			uint64_t last = qr->key;
			int ok = 1;
			/* Instruction and DmaPacket, the bulk: with every key and end
			 * tick <= INT64_MAX (their top bits ORed into hi), a tick that
			 * goes back (key < last, end < key) makes a difference whose top
			 * bit is set, ORed in too; the variables' maximum and the
			 * memories' bits are checked once after the section. */
			if (nt->table == NXP_TABLE_INSTRUCTION) {
				int64_t unk = 0;
				uint64_t hi = 0;
				for (; r < end; r += rs) {
					uint64_t k = ntff_ld64(r), e = ntff_ld64(r + 8);
					hi |= k | e | (k - last) | (e - k); /* ntff_instruction_ok, keys in order */
					unk += ntff_ld32(r + 16) >= nsi;
					last = k;
				}
				ok = !(hi >> 63);
				unknown += unk;
			} else if (nt->table == NXP_TABLE_DMA_PACKET) {
				uint64_t hi = 0;
				uint32_t var = 0;
				unsigned mem = 0;
				for (; r < end; r += rs) {
					uint64_t k = ntff_ld64(r), e = ntff_ld64(r + 8);
					uint32_t v = ntff_ld32(r + 44);
					hi |= k | e | (k - last) | (e - k);
					var = v > var ? v : var;
					mem |= (unsigned)r[38] | r[39];
					last = k;
				}
				/* ntff_dma_ok: span, variable in the string table, memories */
				ok = !(hi >> 63) && var < p->strtab_len && mem <= NXP_MEMORY_HBM;
			} else {
				for (; r < end; r += rs) {
					uint64_t k = ntff_record_key(r);
					ok &= (k >= last) & (k <= (uint64_t)INT64_MAX) & (nt->check(p, r) != 0);
					last = k;
				}
			}
			if (!ok) {
				clean = 0;
				break;
			}
			qr->rec = r - rs; /* the section's last record */
			qr->key = qr->last_key = last;
			if (ntff_qreader_advance(&it.s, qr) < 0)
				clean = 0;
		}
	}
	if (it.s.failed || it.s.stats.bad_records || it.s.stats.skipped_sections)
		clean = 0;
	ntff_iter_close(&it);
	*unknown_pcs = unknown;
	return clean;
}

static int w_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxc_builder *b = &s->b;
	char msg[NXP_STATUS_MESSAGE_MAX + 96];
	nxp_metadata md;
	md.struct_size = sizeof(md);
	int rc = nxp_profile_get_metadata(p, &md);
	if (rc)
		return nxp__error_set(st, rc, -1, "cannot read the profile's Metadata");
	if (md.unknown_sections > 0) {
		snprintf(msg, sizeof(msg), "%lld sections of kinds this libnxp does not know were skipped",
			 (long long)md.unknown_sections);
		row(b, msg, "unknown_sections", NULL, -1, md.unknown_sections);
	}
	if (md.tpb_damaged > 0) {
		snprintf(msg, sizeof(msg), "%lld TPB start/stop records or sections failed their checks and were skipped",
			 (long long)md.tpb_damaged);
		row(b, msg, "damaged_tpb", NULL, -1, md.tpb_damaged);
	}
	for (size_t t = 0; t < sizeof(walk) / sizeof(walk[0]); t++) {
		const ntff_table *nt = ntff_table_get(walk[t].table);
		int64_t unknown_pcs = 0;
		rc = clean_walk(p, nt, &unknown_pcs);
		if (rc < 0)
			return nxp__error_set(st, rc, -1, "out of memory");
		if (rc == 1) {
			unknown_pcs_row(b, walk[t].name, unknown_pcs);
			if (b->nomem)
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			continue;
		}
		unknown_pcs = 0;
		nxp_cursor_options co;
		nxp_cursor_options_init(&co);
		ntff_iter it;
		rc = ntff_iter_open(&it, p, nt, &co, 0, UINT64_MAX);
		if (rc)
			return nxp__error_set(st, rc, -1, "out of memory");
		int64_t prev_sections = 0, prev_bad = 0;
		rc = ntff_iter_seek(&it, 0);
		while (rc >= 0) {
			ntff_rec r;
			/* records the readers skipped (keys out of order) */
			int64_t dr = it.s.stats.bad_records - prev_bad;
			if (dr > 0) {
				if (dr == 1)
					snprintf(msg, sizeof(msg), "%s: a record failed its checks and was skipped",
						 walk[t].name);
				else
					snprintf(msg, sizeof(msg),
						 "%s: %lld records failed their checks and were skipped (offset of the last)",
						 walk[t].name, (long long)dr);
				row(b, msg, "skipped_records", walk[t].name, it.s.stats.last_bad_offset, dr);
				prev_bad = it.s.stats.bad_records;
			}
			int64_t ds = it.s.stats.skipped_sections - prev_sections;
			if (ds > 0) {
				snprintf(msg, sizeof(msg), "%s: %lld section%s skipped (bad CRC or unknown kind)",
					 walk[t].name, (long long)ds, ds == 1 ? "" : "s");
				row(b, msg, "skipped_sections", walk[t].name, it.s.stats.last_bad_offset, ds);
				prev_sections = it.s.stats.skipped_sections;
			}
			rc = ntff_iter_run(&it, &r);
			if (rc != NXP_OK)
				break;
			for (size_t i = 0; i < r.n; i++) {
				const uint8_t *rec = r.rec + i * r.rsize;
				if (!nt->check(p, rec)) {
					int64_t off = (int64_t)ntff_iter_run_offset(&it, i);
					ntff_scan_bad(&it.s, 0, (uint64_t)off);
					prev_bad = it.s.stats.bad_records;
					snprintf(msg, sizeof(msg), "%s: a record failed its checks and was skipped",
						 walk[t].name);
					row(b, msg, "skipped_records", walk[t].name, off, 1);
				} else if (walk[t].table == NXP_TABLE_INSTRUCTION) {
					nxp_ntff_instruction_note n;
					ntff_decode_instruction(rec, &n);
					unknown_pcs += n.pc >= r.q->nsi;
				}
			}
			rc = ntff_iter_skip(&it, r.n);
		}
		if (rc < 0 && rc != NXP_END) {
			snprintf(msg, sizeof(msg), "%s: reading stopped: %s", walk[t].name,
				 it.s.err.message[0] ? it.s.err.message : nxp_strerror(rc));
			row(b, msg, "read_error", walk[t].name, it.s.err.offset, 1);
		}
		unknown_pcs_row(b, walk[t].name, unknown_pcs);
		ntff_iter_close(&it);
		if (b->nomem)
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	return 0;
}

static int w_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, w_rows, p, path, st);
}

const nxc_table nxc_table_warning = { "Warning", NXC_KIND_PROFILE, 0, 0, w_cols,
				      (int)(sizeof(w_cols) / sizeof(w_cols[0])), w_open };
