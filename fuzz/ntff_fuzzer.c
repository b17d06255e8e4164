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

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	return 0;
}

static void drain(nxp_profile *p, int table, uint64_t size)
{
	nxp_cursor *c = NULL;
	if (nxp_cursor_open(&c, p, table, NULL, NULL) != NXP_OK)
		return;
	fz_any_record recs[16];
	size_t rsize = fz_record_size(table);
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
	nxp_status st;
	nxp_status_init(&st);
	fz_fixture_pair fx;
	int rc = fz_fixture_pair_open(&fx, &in, &opts, &st);
	nxp_profile *p = fx.p;
	if (!fx.ntff)
		return 0;
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
	fz_fixture_pair_close(&fx);
	return 0;
}
