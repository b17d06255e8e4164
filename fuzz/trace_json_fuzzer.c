/* SPDX-License-Identifier: MIT */
/* trace.json / trace.json.gz: the streaming Chrome-trace tokenizer, B/E
 * pairing, the baseTimeNanoseconds prescan (seekable sources) and gzip.
 * Input: [opts] [ctl] [trace.json bytes...].  opts bit 0: NXP_SYSTEM_NO_PRESCAN;
 * bit 1: tiny limits (event size, depth, pending B slices); bit 2: open with
 * NXP_SYSFILE_AUTO instead of NXP_SYSFILE_TRACE_JSON. */
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
	if (o & 1)
		opts.flags |= NXP_SYSTEM_NO_PRESCAN;
	if (o & 2) {
		opts.max_json_event = 512;
		opts.max_json_depth = 3;
		opts.max_pending = 4;
	}
	nxp_source *src = fz_source_take_rest(&in);
	if (!src)
		return 0;
	sink += fz_system_events_run(src, (o & 4) ? NXP_SYSFILE_AUTO : NXP_SYSFILE_TRACE_JSON, &opts);
	nxp_source_close(src);
	return 0;
}
