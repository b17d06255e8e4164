/* SPDX-License-Identifier: MIT */
/* ntrace.pb: the streaming protobuf walk, START/STOP pairing, and the clock
 * map built from timestamp_sync_point events.
 * Input: [opts] [ctl] [ntrace.pb bytes...].  opts bit 0: NXP_SYSTEM_NO_PAIRING;
 * bit 1: tiny limits (message size, pending STARTs); bit 2: also build a clock
 * map from a second pass. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

static void options(uint8_t o, nxp_system_options *opts)
{
	nxp_system_options_init(opts);
	if (o & 1)
		opts->flags |= NXP_SYSTEM_NO_PAIRING;
	if (o & 2) {
		opts->max_message_size = 256;
		opts->max_pending = 4;
	}
	if (o & 8)
		opts->instance_id = "i-fuzz";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t o = fz_take_u8(&in);
	uint8_t ctl = fz_take_u8(&in);
	nxp_system_options opts;
	options(o, &opts);

	nxp_source *src = fz_source_open(in.data, in.size, ctl);
	if (!src)
		return 0;
	sink += fz_system_events_run(src, NXP_SYSFILE_NTRACE, &opts);
	nxp_source_close(src);

	if (o & 4) {
		src = fz_source_open(in.data, in.size, ctl);
		if (!src)
			return 0;
		nxp_system_events *c = NULL;
		nxp_clock_map *m = NULL;
		if (nxp_system_events_open(&c, src, NXP_SYSFILE_NTRACE, &opts, NULL) == NXP_OK &&
		    nxp_clock_map_build(&m, c, (o & 2) ? 4 : 0, NULL) == NXP_OK) {
			size_t n = nxp_clock_map_count(m);
			int64_t host;
			for (int64_t nc = -1; nc < 3; nc++) {
				sink += nxp_clock_map_to_host(m, nc, 0, &host) == NXP_OK;
				sink += nxp_clock_map_to_host(m, nc, INT64_MAX, &host) == NXP_OK;
				sink += nxp_clock_map_to_host(m, nc, INT64_MIN, &host) == NXP_OK;
			}
			sink += n;
		}
		nxp_clock_map_close(m);
		nxp_system_events_close(c);
		nxp_source_close(src);
	}
	return 0;
}
