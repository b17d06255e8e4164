/* SPDX-License-Identifier: MIT */
/* nxp_neff_open: header, gzip/tar archive walk (libarchive), kelf/def.json and
 * engine manifests (jansson), instruction streams.  Then every accessor is
 * walked, so a half-built handle that reports success is caught too.
 * Input: [opts] [ctl] [NEFF bytes...].  opts bit 0: verify the digest; bit 1:
 * tiny safety limits (so the limit paths are reachable with small inputs). */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

static void walk(const nxp_neff *neff)
{
	nxp_neff_header h;
	h.struct_size = sizeof(h);
	if (nxp_neff_get_header(neff, &h) != NXP_OK)
		abort();
	sink += h.data_size + fz_touch(h.name) + fz_touch(h.build_version);
	size_t nsg = nxp_neff_subgraph_count(neff);
	for (size_t i = 0; i < nsg; i++) {
		nxp_neff_subgraph sg;
		sg.struct_size = sizeof(sg);
		if (nxp_neff_get_subgraph(neff, i, &sg) != NXP_OK)
			abort();
		sink += fz_touch(sg.name) + fz_touch(sg.definition);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			int64_t n = nxp_neff_instruction_count(neff, i, e);
			if (n < 0 || (uint64_t)n != sg.instruction_count[e])
				abort();
			/* All of them for small streams, a sample for large ones. */
			uint64_t step = (uint64_t)n > 4096 ? (uint64_t)n / 1024 : 1;
			for (uint64_t pc = 0; pc < (uint64_t)n; pc += step) {
				nxp_neff_instruction ins;
				ins.struct_size = sizeof(ins);
				if (nxp_neff_get_instruction(neff, i, e, pc, &ins) != NXP_OK)
					abort();
				sink += fz_touch(ins.opcode) + fz_touch(ins.operands) +
					fz_touch(ins.tensor_instruction_type) + fz_touch(ins.scalar_activation_fn);
			}
			nxp_neff_instruction ins;
			ins.struct_size = sizeof(ins);
			if (nxp_neff_get_instruction(neff, i, e, (uint64_t)n, &ins) != NXP_E_RANGE)
				abort();
		}
	}
	nxp_neff_subgraph sg;
	sg.struct_size = sizeof(sg);
	if (nxp_neff_get_subgraph(neff, nsg, &sg) != NXP_E_RANGE)
		abort();
	size_t nt = nxp_neff_tensor_count(neff);
	for (size_t i = 0; i < nt; i++) {
		nxp_tensor_info t;
		t.struct_size = sizeof(t);
		if (nxp_neff_get_tensor(neff, i, &t) != NXP_OK)
			abort();
		sink += fz_touch(t.variable_name) + fz_touch(t.type) + fz_touch(t.format) + fz_touch(t.shape) +
			fz_touch(t.file_name);
	}
	size_t nq = nxp_neff_dma_queue_count(neff);
	for (size_t i = 0; i < nq; i++) {
		nxp_dma_queue_info q;
		q.struct_size = sizeof(q);
		if (nxp_neff_get_dma_queue(neff, i, &q) != NXP_OK)
			abort();
		sink += fz_touch(q.name) + fz_touch(q.type) + fz_touch(q.neff_type) + fz_touch(q.owner);
	}
	sink += (size_t)nxp_neff_has_kernel_debug_info(neff) + nxp_neff_warning_count(neff);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t o = fz_take_u8(&in);
	uint64_t file_size = in.size ? in.size - 1 : 0; /* after the control byte */
	nxp_source *src = fz_source_take_rest(&in);
	if (!src)
		return 0;
	nxp_neff_options opts;
	nxp_neff_options_init(&opts);
	if (o & 1)
		opts.flags |= NXP_NEFF_VERIFY_HASH;
	if (o & 2) {
		opts.max_member_size = 64 * 1024;
		opts.max_total_inflated = 256 * 1024;
		opts.max_inflation_ratio = 4;
		opts.max_json_size = 8 * 1024;
		opts.max_json_depth = 4;
		opts.max_members = 16;
	}
	nxp_status st;
	nxp_status_init(&st);
	nxp_neff *neff = NULL;
	int rc = nxp_neff_open(&neff, src, &opts, &st);
	if (rc == NXP_OK) {
		if (!neff)
			abort();
		walk(neff);
	} else {
		FZ_CHECK(neff == NULL, "nxp_neff_open failed (%d) but returned a handle", rc);
		fz_check_error(rc, &st, file_size, "nxp_neff_open");
	}
	nxp_neff_close(neff);
	nxp_source_close(src);
	return 0;
}
