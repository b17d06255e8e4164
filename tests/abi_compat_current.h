/* SPDX-License-Identifier: MIT */
/* What the current headers' API reports, in plain C types only, so that
 * abi_compat_0_1.c (compiled against the frozen 0.1 headers) can compare. */
#ifndef NXP_ABI_COMPAT_CURRENT_H
#define NXP_ABI_COMPAT_CURRENT_H

#include <stddef.h>
#include <stdint.h>

/* NEFF facts: 0 on success. */
int cur_neff_facts(const char *neff, char name[257], uint64_t *data_size, size_t *subgraphs, size_t *tensors,
		   size_t *queues);
/* Instruction count of (subgraph, engine), -1 if none. */
int64_t cur_instruction_count(const char *neff, size_t sg, int engine);
/* Opcode and pc of instruction `pc` of (subgraph, engine); 0 on success. */
int cur_instruction(const char *neff, size_t sg, int engine, uint64_t pc, uint32_t *opcode, int64_t *pcore);
/* Number of records of `table` read with next_batch; -1 on error. */
int64_t cur_table_count(const char *neff, const char *ntff, int table);
/* The summary field `name` of the demo pair (NaN if absent). */
double cur_summary_field(const char *neff, const char *ntff, const char *name);

#endif
