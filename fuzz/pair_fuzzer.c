/* SPDX-License-Identifier: MIT */
/* A fuzzed NEFF with a fuzzed NTFF: nxp_profile_open's joins (UUID pairing,
 * queues and pcs resolved against the NEFF) and the instruction and DMA tables,
 * whose rows join NTFF notifications with NEFF facts.
 * Input (pair framing, fuzz_common.h): [ctl NEFF] [ctl NTFF] [u32 NEFF length]
 * [NEFF] [NTFF]. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_pair pr;
	fz_split_pair(data, size, &pr);
	nxp_source *neff = fz_source_open(pr.a, pr.a_size, pr.ctl_a);
	/* The NTFF reader needs a seekable source: give it one (memory, or callbacks with seek). */
	nxp_source *ntff = fz_source_open(pr.b, pr.b_size, (uint8_t)(pr.ctl_b | FZ_CTL_SEEKABLE));
	nxp_profile *p = NULL;
	if (!neff || !ntff)
		goto out;
	nxp_profile_options o;
	nxp_profile_options_init(&o);
	if (pr.ctl_b & 0x80) /* when the I/O-error bit is clear, the top bit picks SKIP_CRC */
		o.flags |= (pr.ctl_b & FZ_CTL_IO_ERROR) ? 0 : NXP_PROFILE_SKIP_CRC;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_open(&p, neff, ntff, &o, &st);
	if (rc != NXP_OK) {
		FZ_CHECK(p == NULL, "nxp_profile_open failed (%d) but returned a handle", rc);
		fz_check_error(rc, &st, pr.a_size > pr.b_size ? pr.a_size : pr.b_size, "nxp_profile_open");
		goto out;
	}
	sink += nxp_profile_neff(p) != NULL;
	nxp_cursor *c = NULL;
	if (nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, NULL) == NXP_OK) {
		nxp_instruction r;
		r.struct_size = sizeof(r);
		while (nxp_cursor_next_instruction(c, &r) == NXP_OK)
			sink += fz_touch(r.engine) + fz_touch(r.opcode) + fz_touch(r.operands) +
				fz_touch(r.tensor_instruction_type) + fz_touch(r.scalar_activation_fn) +
				fz_touch(r.performance_mode);
	}
	nxp_cursor_close(c);
	c = NULL;
	if (nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, NULL) == NXP_OK) {
		nxp_dma_packet r;
		r.struct_size = sizeof(r);
		while (nxp_cursor_next_dma_packet(c, &r) == NXP_OK)
			sink += fz_touch(r.queue_type) + fz_touch(r.variable) + fz_touch(r.queue_name) +
				fz_touch(r.source) + fz_touch(r.dest);
	}
	nxp_cursor_close(c);
out:
	nxp_profile_close(p);
	nxp_source_close(neff);
	nxp_source_close(ntff);
	return 0;
}
