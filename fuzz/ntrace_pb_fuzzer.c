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
	nxp_status st;
	nxp_status_init(&st);
	nxp_system_events *c = NULL;
	int rc = nxp_system_events_open(&c, src, NXP_SYSFILE_NTRACE, &opts, &st);
	if (rc == NXP_OK) {
		nxp_system_event ev;
		int64_t rows = 0;
		for (;;) {
			memset(&ev, 0, sizeof(ev));
			ev.struct_size = sizeof(ev);
			rc = nxp_system_events_next(c, &ev);
			if (rc != NXP_OK)
				break;
			rows++;
			sink += fz_touch(ev.name) + fz_touch(ev.trace_event_source) + fz_touch(ev.instance_id) +
				fz_touch(ev.flow_id) + fz_touch(ev.framework_stream_id) +
				fz_touch(ev.extra_attributes_json) + fz_touch(ev.phase) + fz_touch(ev.category) +
				fz_touch(ev.pid) + fz_touch(ev.tid) + fz_touch(ev.process_name) +
				fz_touch(ev.thread_name) + fz_touch(ev.file) + nxp_system_event_group(ev.name);
			if (ev.end_ts < ev.start_ts && !(ev.flags & (NXP_SYSEV_UNMATCHED_STOP | NXP_SYSEV_UNPAIRED)))
				sink++;
		}
		nxp_status est;
		nxp_status_init(&est);
		int ec = nxp_system_events_error(c, &est);
		if (rc < 0) {
			FZ_CHECK(ec == rc, "cursor error %d read back as %d", rc, ec);
			fz_check_error(rc, &est, UINT64_MAX, "nxp_system_events_next"); /* offsets may be in gunzipped bytes */
		}
		if (rc < 0 && nxp_system_events_next(c, &ev) != rc)
			abort(); /* errors are sticky */
		nxp_system_stats stats;
		stats.struct_size = sizeof(stats);
		if (nxp_system_events_get_stats(c, &stats) != NXP_OK || stats.events != rows)
			abort();
	} else {
		FZ_CHECK(c == NULL && rc < 0 && st.code == rc, "nxp_system_events_open: %d, status %d", rc, st.code);
	}
	nxp_system_events_close(c);
	nxp_source_close(src);

	if (o & 4) {
		src = fz_source_open(in.data, in.size, ctl);
		if (!src)
			return 0;
		c = NULL;
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
