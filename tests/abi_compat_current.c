/* SPDX-License-Identifier: MIT */
/* The reference side of tests/abi_compat_0_1.c: compiled against the current headers. */
#include "abi_compat_current.h"

#include <nxp/nxp.h>

#include <math.h>
#include <string.h>

int cur_neff_facts(const char *neff, char name[257], uint64_t *data_size, size_t *subgraphs, size_t *tensors,
		   size_t *queues)
{
	nxp_neff *n = NULL;
	if (nxp_neff_open_path(&n, neff, NULL, NULL) != NXP_OK)
		return -1;
	nxp_neff_header h;
	h.struct_size = sizeof(h);
	int rc = nxp_neff_get_header(n, &h);
	if (rc == NXP_OK) {
		memcpy(name, h.name, 257);
		*data_size = h.data_size;
		*subgraphs = nxp_neff_subgraph_count(n);
		*tensors = nxp_neff_tensor_count(n);
		*queues = nxp_neff_dma_queue_count(n);
	}
	nxp_neff_close(n);
	return rc;
}

int64_t cur_instruction_count(const char *neff, size_t sg, int engine)
{
	nxp_neff *n = NULL;
	if (nxp_neff_open_path(&n, neff, NULL, NULL) != NXP_OK)
		return -1;
	int64_t c = nxp_neff_instruction_count(n, sg, engine);
	nxp_neff_close(n);
	return c;
}

int cur_instruction(const char *neff, size_t sg, int engine, uint64_t pc, uint32_t *opcode, int64_t *pcore)
{
	nxp_neff *n = NULL;
	if (nxp_neff_open_path(&n, neff, NULL, NULL) != NXP_OK)
		return -1;
	nxp_neff_instruction in;
	in.struct_size = sizeof(in);
	int rc = nxp_neff_get_instruction(n, sg, engine, pc, &in);
	if (rc == NXP_OK) {
		*opcode = in.opcode_num;
		*pcore = in.pcore_idx;
	}
	nxp_neff_close(n);
	return rc;
}

int64_t cur_table_count(const char *neff, const char *ntff, int table)
{
	nxp_profile *p = NULL;
	if (nxp_profile_open_path(&p, neff, ntff, NULL, NULL) != NXP_OK)
		return -1;
	nxp_cursor *c = NULL;
	int64_t n = -1;
	if (nxp_cursor_open(&c, p, table, NULL, NULL) == NXP_OK) {
		union {
			size_t struct_size;
			nxp_instruction i;
			nxp_dma_packet d;
			nxp_semaphore_update s;
			nxp_throttle t;
			nxp_error_record e;
			nxp_execution x;
			nxp_active_time a;
		} r;
		n = 0;
		int rc;
		for (;;) {
			memset(&r, 0, sizeof(r));
			r.struct_size = sizeof(r);
			rc = nxp_cursor_next_batch(c, &r, sizeof(r), 1, &(size_t){0});
			if (rc != NXP_OK)
				break;
			n++;
		}
		if (rc != NXP_END)
			n = -1;
	}
	nxp_cursor_close(c);
	nxp_profile_close(p);
	return n;
}

double cur_summary_field(const char *neff, const char *ntff, const char *name)
{
	nxp_profile *p = NULL;
	double v = NAN;
	if (nxp_profile_open_path(&p, neff, ntff, NULL, NULL) != NXP_OK)
		return v;
	nxp_summary *s = NULL;
	if (nxp_profile_summarize(p, NULL, &s, NULL) == NXP_OK) {
		nxp_summary_field f;
		f.struct_size = sizeof(f);
		if (nxp_summary_find(s, name, &f) == NXP_OK)
			v = f.f;
	}
	nxp_summary_close(s);
	nxp_profile_close(p);
	return v;
}
