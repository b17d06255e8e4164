/* SPDX-License-Identifier: MIT */
/* trace_info.pb: one message, or a stream of messages merged in order.
 * Input: [opts] [ctl] [trace_info.pb bytes...].  opts bit 1: tiny message limit. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t o = fz_take_u8(&in);
	nxp_system_options opts;
	nxp_system_options_init(&opts);
	if (o & 2)
		opts.max_message_size = 64;
	uint64_t bound = fz_sys_offset_bound(&in);
	nxp_source *src = fz_source_take_rest(&in);
	if (!src)
		return 0;
	nxp_status st;
	nxp_status_init(&st);
	nxp_trace_info *ti = NULL;
	int rc = nxp_trace_info_open(&ti, src, &opts, &st);
	if (rc == NXP_OK) {
		nxp_system_metadata md;
		md.struct_size = sizeof(md);
		if (nxp_trace_info_get(ti, &md) != NXP_OK)
			abort();
		sink += fz_touch(md.first_ts) + fz_touch(md.last_ts) + fz_touch(md.instance_id) +
			fz_touch(md.instance_type) + fz_touch(md.arch) + fz_touch(md.runtime_version) +
			fz_touch(md.driver_version);
	} else {
		FZ_CHECK(ti == NULL, "nxp_trace_info_open failed (%d) but returned a handle", rc);
		fz_check_error(rc, &st, bound, "nxp_trace_info_open");
	}
	nxp_trace_info_close(ti);
	nxp_source_close(src);
	return 0;
}
