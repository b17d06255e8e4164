/* SPDX-License-Identifier: MIT */
/* cpu_util.pb and host_mem.pb samples.
 * Input: [opts] [ctl] [.pb bytes...].  opts bit 0: host_mem (else cpu_util);
 * bit 1: tiny message limit; bit 2: call the wrong next function first (must be
 * NXP_E_INVAL, not a misread). */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t o = fz_take_u8(&in);
	int mem = o & 1;
	nxp_system_options opts;
	nxp_system_options_init(&opts);
	if (o & 2)
		opts.max_message_size = 32;
	uint64_t bound = fz_sys_offset_bound(&in);
	nxp_source *src = fz_source_take_rest(&in);
	if (!src)
		return 0;
	nxp_status st;
	nxp_status_init(&st);
	nxp_host_stats *h = NULL;
	int rc = nxp_host_stats_open(&h, src, mem ? NXP_SYSFILE_HOST_MEM : NXP_SYSFILE_CPU_UTIL, &opts, &st);
	if (rc == NXP_OK) {
		nxp_cpu_usage cpu;
		nxp_host_mem_usage hm;
		cpu.struct_size = sizeof(cpu);
		hm.struct_size = sizeof(hm);
		if (o & 4) {
			int wrong = mem ? nxp_host_stats_next_cpu(h, &cpu) : nxp_host_stats_next_mem(h, &hm);
			if (wrong != NXP_E_INVAL)
				abort();
		}
		for (;;) {
			if (mem) {
				rc = nxp_host_stats_next_mem(h, &hm);
				if (rc == NXP_OK)
					sink += fz_touch(hm.instance_id) + (size_t)hm.used_bytes;
			} else {
				rc = nxp_host_stats_next_cpu(h, &cpu);
				if (rc == NXP_OK)
					sink += fz_touch(cpu.cpu_id) + fz_touch(cpu.instance_id);
			}
			if (rc != NXP_OK)
				break;
		}
		nxp_status est;
		nxp_status_init(&est);
		if (rc < 0 && rc != NXP_E_INVAL) {
			FZ_CHECK(nxp_host_stats_error(h, &est) == rc, "host stats error %d not kept", rc);
			fz_check_error(rc, &est, bound, "host stats");
		}
	} else {
		FZ_CHECK(h == NULL && rc < 0 && st.code == rc, "nxp_host_stats_open: %d, status %d", rc, st.code);
	}
	nxp_host_stats_close(h);
	nxp_source_close(src);
	return 0;
}
