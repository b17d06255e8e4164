/* SPDX-License-Identifier: MIT */
/* Warning: the problems met while reading a profile, to check first.  Every
 * device table's cursor is drained (ActiveTime is left out: it reads the
 * instruction queues again) and its counters watched: skipped records and
 * sections become rows with the byte offset the cursor reports.  Records are
 * fetched one at a time (RUN) so that every skipped record gets its own row
 * and offset; should one fetch skip several, the row counts them and gives the
 * last one's offset. */
#include "columnar_priv.h"

#include <stdio.h>
#include <stdlib.h>

#include "status.h"

#define RUN 1

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

static const struct {
	int table;
	const char *name;
	size_t rsize;
} walk[] = {
	{ NXP_TABLE_INSTRUCTION, "Instruction", sizeof(nxp_instruction) },
	{ NXP_TABLE_DMA_PACKET, "DmaPacket", sizeof(nxp_dma_packet) },
	{ NXP_TABLE_SEMAPHORE_UPDATE, "SemaphoreUpdate", sizeof(nxp_semaphore_update) },
	{ NXP_TABLE_THROTTLE, "Throttle", sizeof(nxp_throttle) },
	{ NXP_TABLE_ERROR, "Error", sizeof(nxp_error_record) },
	{ NXP_TABLE_EXECUTION, "ExecutionInfo", sizeof(nxp_execution) },
};

static int w_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)path;
	nxc_builder *b = &s->b;
	char msg[NXP_STATUS_MESSAGE_MAX + 96];
	nxp_metadata md;
	md.struct_size = sizeof(md);
	int rc = nxp_profile_get_metadata(p, &md);
	if (rc)
		return nxp_fail(st, rc, -1, "cannot read the profile's Metadata");
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
		nxp_cursor *c;
		rc = nxp_cursor_open(&c, p, walk[t].table, NULL, st);
		if (rc)
			return rc;
		void *recs = calloc(RUN, walk[t].rsize);
		if (!recs) {
			nxp_cursor_close(c);
			return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
		}
		nxp_cursor_stats prev = { sizeof(prev), 0, 0, 0, 0, -1, 0 }, cs = prev;
		for (;;) {
			size_t got = 0;
			rc = nxp_cursor_next_batch(c, recs, walk[t].rsize, RUN, &got);
			nxp_cursor_get_stats(c, &cs);
			int64_t dr = cs.bad_records - prev.bad_records, ds = cs.skipped_sections - prev.skipped_sections;
			if (dr > 0) {
				if (dr == 1)
					snprintf(msg, sizeof(msg), "%s: a record failed its checks and was skipped",
						 walk[t].name);
				else
					snprintf(msg, sizeof(msg),
						 "%s: %lld records failed their checks and were skipped (offset of the last)",
						 walk[t].name, (long long)dr);
				row(b, msg, "skipped_records", walk[t].name, ds > 0 ? -1 : cs.last_bad_offset, dr);
			}
			if (ds > 0) {
				snprintf(msg, sizeof(msg), "%s: %lld section%s skipped (bad CRC or unknown kind)",
					 walk[t].name, (long long)ds, ds == 1 ? "" : "s");
				row(b, msg, "skipped_sections", walk[t].name, dr > 0 ? -1 : cs.last_bad_offset, ds);
			}
			prev = cs;
			if (rc == NXP_END)
				break;
			if (rc < 0) {
				nxp_status cst;
				nxp_status_init(&cst);
				nxp_cursor_error(c, &cst);
				snprintf(msg, sizeof(msg), "%s: reading stopped: %s", walk[t].name,
					 cst.message[0] ? cst.message : nxp_strerror(rc));
				row(b, msg, "read_error", walk[t].name, cst.offset, 1);
				break;
			}
		}
		if (cs.unknown_pcs > 0) {
			snprintf(msg, sizeof(msg),
				 "%s: %lld records have a pc that is not in the NEFF (their static columns are null)",
				 walk[t].name, (long long)cs.unknown_pcs);
			row(b, msg, "unknown_pcs", walk[t].name, -1, cs.unknown_pcs);
		}
		free(recs);
		nxp_cursor_close(c);
	}
	return 0;
}

static int w_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, w_rows, p, path, st);
}

const nxc_table nxc_table_warning = { "Warning", NXC_KIND_PROFILE, 0, 0, w_cols,
				      (int)(sizeof(w_cols) / sizeof(w_cols[0])), w_open };
