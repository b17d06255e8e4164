/* SPDX-License-Identifier: MIT */
/* NTFF sections and records: nxp_profile_open of the fixed fixture NEFF with a
 * fuzzed NTFF (file header, section table, string table, queues, META, index,
 * DATA sections, zlib), then the Metadata and every table drained once.
 * Input: [flags] [ctl] [NTFF bytes...].  flags bit 0: NXP_PROFILE_SKIP_CRC (so
 * mutations get past the checksums); bit 1: NXP_PROFILE_ALLOW_MISMATCH; bit 2:
 * a small max_section_size. */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

/* Enough room for a record of any table. */
typedef union any_record {
	nxp_instruction ins;
	nxp_dma_packet dma;
	nxp_semaphore_update sem;
	nxp_throttle thr;
	nxp_error_record err;
	nxp_execution exe;
	nxp_active_time act;
} any_record;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	size_t len;
	if (!fz_fixture_neff_cached(&len))
		abort();
	return 0;
}

static void drain(nxp_profile *p, int table, uint64_t size)
{
	nxp_cursor *c = NULL;
	if (nxp_cursor_open(&c, p, table, NULL, NULL) != NXP_OK)
		return;
	any_record recs[16];
	size_t rsize = 0;
	switch (table) {
	case NXP_TABLE_INSTRUCTION: rsize = sizeof(nxp_instruction); break;
	case NXP_TABLE_DMA_PACKET: rsize = sizeof(nxp_dma_packet); break;
	case NXP_TABLE_SEMAPHORE_UPDATE: rsize = sizeof(nxp_semaphore_update); break;
	case NXP_TABLE_THROTTLE: rsize = sizeof(nxp_throttle); break;
	case NXP_TABLE_ERROR: rsize = sizeof(nxp_error_record); break;
	case NXP_TABLE_EXECUTION: rsize = sizeof(nxp_execution); break;
	default: rsize = sizeof(nxp_active_time); break;
	}
	/* Records come in batches; time order is the cursor's contract. */
	int64_t last = INT64_MIN;
	size_t count;
	int rc;
	uint8_t *buf = (uint8_t *)recs;
	while ((rc = nxp_cursor_next_batch(c, buf, rsize, 16, &count)) == NXP_OK) {
		for (size_t i = 0; i < count; i++) {
			const uint8_t *r = buf + i * rsize;
			int64_t ts;
			memcpy(&ts, r + sizeof(size_t), sizeof(ts)); /* every record starts with its time */
			if (table != NXP_TABLE_EXECUTION && ts < last)
				abort(); /* out of time order */
			last = ts;
		}
		sink += count;
	}
	nxp_cursor_stats stats;
	stats.struct_size = sizeof(stats);
	if (nxp_cursor_get_stats(c, &stats) != NXP_OK)
		abort();
	if (rc < 0) {
		nxp_status st;
		nxp_status_init(&st);
		FZ_CHECK(nxp_cursor_error(c, &st) == rc, "table %d: cursor error %d not kept", table, rc);
		fz_check_error(rc, &st, size, "cursor");
	}
	nxp_cursor_close(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t f = fz_take_u8(&in);
	nxp_profile_options opts;
	nxp_profile_options_init(&opts);
	if (f & 1)
		opts.flags |= NXP_PROFILE_SKIP_CRC;
	if (f & 2)
		opts.flags |= NXP_PROFILE_ALLOW_MISMATCH;
	if (f & 4)
		opts.max_section_size = 256;
	uint64_t in_size = in.size ? in.size - 1 : 0; /* the NTFF, after its control byte */
	nxp_source *ntff = fz_source_take_rest(&in);
	if (!ntff)
		return 0;
	nxp_source *neff = NULL;
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = fz_fixture_profile_open(&p, &neff, ntff, &opts, &st);
	if (rc == NXP_OK) {
		nxp_metadata md;
		md.struct_size = sizeof(md);
		if (nxp_profile_get_metadata(p, &md) != NXP_OK)
			abort();
		sink += fz_touch(md.profile_schema_version) + fz_touch(md.arch) + fz_touch(md.instance_type) +
			fz_touch(md.runtime_version) + fz_touch(md.collectives_version) +
			fz_touch(md.driver_version) + fz_touch(md.compiler_version) + fz_touch(md.profile_name);
		for (int t = NXP_TABLE_INSTRUCTION; t <= NXP_TABLE_ACTIVE_TIME; t++)
			drain(p, t, in_size);
	} else {
		FZ_CHECK(p == NULL, "nxp_profile_open failed (%d) but returned a handle", rc);
		fz_check_error(rc, &st, in_size, "nxp_profile_open");
	}
	nxp_profile_close(p);
	nxp_source_close(neff);
	nxp_source_close(ntff);
	return 0;
}
