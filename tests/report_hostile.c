/* SPDX-License-Identifier: MIT */
/* report_hostile PREFIX: writes PREFIX.neff and PREFIX.ntff whose strings the
 * report shows (profile name, instance type, DMA queue name, tensor name,
 * execution NEFF name, throttle type) are HTML/script injection attempts.
 * tests/test_report.sh renders `nxp report` of the pair in Chromium and
 * tests/report_check.py checks that nothing of it became markup. */
#include "ntff_fixture.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVIL "<script>document.title='PWNED'</script><img src=x onerror=\"document.title='PWNED'\">&amp;"

static void check(int rc, nxp_ntff_writer *w, const char *what)
{
	if (rc >= 0)
		return;
	nxp_status st;
	nxp_status_init(&st);
	nxp_ntff_writer_error_status(w, &st);
	fprintf(stderr, "report_hostile: %s: %s\n", what, st.message);
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: report_hostile PREFIX\n", stderr);
		return 2;
	}
	char path[4096];
	uint8_t uuid[16];
	for (int i = 0; i < 16; i++)
		uuid[i] = (uint8_t)(0xa0 + i);
	size_t nlen;
	void *neff = fxn_neff(uuid, &nlen);
	snprintf(path, sizeof path, "%s.neff", argv[1]);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(neff, 1, nlen, f) != nlen || fclose(f)) {
		perror(path);
		return 1;
	}
	free(neff);

	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, uuid, 16);
	info.arch = "trn2";
	info.instance_type = "trn2.48xlarge" EVIL;
	info.profile_name = "evil" EVIL;
	info.runtime_version = EVIL;
	info.compiler_version = EVIL;
	info.num_physical_cores = 1;
	snprintf(path, sizeof path, "%s.ntff", argv[1]);
	nxp_ntff_writer *w = NULL;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_ntff_writer_open_path(&w, path, &info, NULL, &st)) {
		fprintf(stderr, "report_hostile: %s\n", st.message);
		return 1;
	}
	int64_t s_evil = nxp_ntff_writer_string(w, "tensor" EVIL);
	check((int)s_evil, w, "string");
	nxp_ntff_queue q;
	int32_t qi[2], qd, qt, qx;
	for (int e = 0; e < 2; e++) {
		nxp_ntff_queue_init(&q);
		q.kind = NXP_QUEUE_INSTRUCTION;
		q.engine = e;
		check(qi[e] = nxp_ntff_writer_add_queue(w, &q), w, "queue");
	}
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_DMA;
	q.name = "queue" EVIL;
	check(qd = nxp_ntff_writer_add_queue(w, &q), w, "dma queue");
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_THROTTLE;
	check(qt = nxp_ntff_writer_add_queue(w, &q), w, "throttle queue");
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_EXECUTION;
	check(qx = nxp_ntff_writer_add_queue(w, &q), w, "execution queue");

	nxp_ntff_execution_note x = {1000, 60000, 0, 1, (uint32_t)s_evil, -1};
	check(nxp_ntff_writer_execution(w, qx, &x), w, "execution");
	for (int i = 0; i < 200; i++) {
		for (int e = 0; e < 2; e++) {
			nxp_ntff_instruction_note n = {(uint64_t)(1000 + i * 290 + e * 40), (uint64_t)(1000 + i * 290 + e * 40 + 150 + (i % 7) * 10),
						       (uint32_t)(i % 4), 0, 0};
			check(nxp_ntff_writer_instruction(w, qi[e], &n), w, "instruction");
		}
		nxp_ntff_dma_note d;
		memset(&d, 0, sizeof(d));
		d.start_tick = (uint64_t)(1000 + i * 280);
		d.end_tick = d.start_tick + 120 + (uint64_t)(i % 5) * 30;
		d.packet_aggregation_id = (uint32_t)i / 4;
		d.packet_idx = (uint32_t)i % 4;
		d.read_bytes = d.write_bytes = 4096;
		d.source = 1;
		d.dest = 2;
		d.variable = (uint32_t)s_evil;
		check(nxp_ntff_writer_dma(w, qd, &d), w, "dma");
	}
	nxp_ntff_throttle_note t = {20000, 5000, 1, 2, (uint32_t)s_evil};
	check(nxp_ntff_writer_throttle(w, qt, &t), w, "throttle");
	check(nxp_ntff_writer_finish(w), w, "finish");
	nxp_ntff_writer_close(w);
	return 0;
}
