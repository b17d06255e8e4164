/* SPDX-License-Identifier: MIT */
/* `nxp dump NEFF NTFF --table T`: stream one profile table as CSV or JSONL,
 * time-ordered, in constant memory (public API only). */
#include "cli.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
	"nxp dump NEFF NTFF --table instruction|dma|semaphore|throttle|error|execution|active_time\n"
	"         [--format csv|jsonl] [--from NS] [--to NS] [--engine E] [--pcore N] [--queue NAME]\n"
	"         [--allow-mismatch]\n"
	"       nxp dump --system ...";

enum { I64, I32, U32, F64, STR, BOOL32 };

typedef struct column {
	const char *name;
	int type;
	size_t off;
} column;

#define C(T, f, t) {#f, t, offsetof(T, f)}

static const column instruction_cols[] = {
	C(nxp_instruction, start_ts, I64), C(nxp_instruction, end_ts, I64), C(nxp_instruction, duration_ns, I64),
	C(nxp_instruction, engine, STR), C(nxp_instruction, pcore_idx, I64), C(nxp_instruction, opcode, STR),
	C(nxp_instruction, operands, STR), C(nxp_instruction, id, I64), C(nxp_instruction, pc, I64),
	C(nxp_instruction, evt_wait_time_ns, I64), C(nxp_instruction, execution_index, I32),
	C(nxp_instruction, hbm_read_bytes, I64), C(nxp_instruction, hbm_write_bytes, I64),
	C(nxp_instruction, sbuf_read_bytes, I64), C(nxp_instruction, sbuf_write_bytes, I64),
	C(nxp_instruction, spill_save_bytes, I64), C(nxp_instruction, spill_reload_bytes, I64),
	C(nxp_instruction, psum_read_bytes, I64), C(nxp_instruction, psum_write_bytes, I64),
	C(nxp_instruction, psum_read_sbuf_write_bytes, I64), C(nxp_instruction, tensor_instruction_type, STR),
	C(nxp_instruction, tensor_elements, I64), C(nxp_instruction, raw_flops, I64),
	C(nxp_instruction, adjusted_flops, I64), C(nxp_instruction, tensor_elements_transpose, I64),
	C(nxp_instruction, flops_transpose, I64), C(nxp_instruction, adjusted_flops_transpose, I64),
	C(nxp_instruction, scalar_activation_fn, STR), C(nxp_instruction, performance_mode, STR),
};

static const column dma_cols[] = {
	C(nxp_dma_packet, start_ts, I64), C(nxp_dma_packet, end_ts, I64), C(nxp_dma_packet, duration_ns, I64),
	C(nxp_dma_packet, pcore_idx, I64), C(nxp_dma_packet, id, I64), C(nxp_dma_packet, packet_idx, I32),
	C(nxp_dma_packet, packet_aggregation_id, I64), C(nxp_dma_packet, engine_idx, I64),
	C(nxp_dma_packet, read_bytes, I64), C(nxp_dma_packet, write_bytes, I64),
	C(nxp_dma_packet, transfer_bytes, I64), C(nxp_dma_packet, throughput, F64),
	C(nxp_dma_packet, queue_type, STR), C(nxp_dma_packet, variable, STR), C(nxp_dma_packet, queue_name, STR),
	C(nxp_dma_packet, queue_idx, I64), C(nxp_dma_packet, crc, I64), C(nxp_dma_packet, source, STR),
	C(nxp_dma_packet, dest, STR),
};

static const column semaphore_cols[] = {
	C(nxp_semaphore_update, timestamp, I64), C(nxp_semaphore_update, id, STR),
	C(nxp_semaphore_update, value, I32), C(nxp_semaphore_update, update_source, STR),
	C(nxp_semaphore_update, double_set_or_clear, BOOL32), C(nxp_semaphore_update, update_mode, I32),
	C(nxp_semaphore_update, update_operation_type, STR), C(nxp_semaphore_update, update_trigger_timing, STR),
	C(nxp_semaphore_update, pcore_idx, I64),
};

static const column throttle_cols[] = {
	C(nxp_throttle, duration, I64), C(nxp_throttle, k, I32), C(nxp_throttle, n, I32),
	C(nxp_throttle, timestamp, I64), C(nxp_throttle, type, STR), C(nxp_throttle, pcore_idx, I64),
};

static const column error_cols[] = {
	C(nxp_error_record, description, STR), C(nxp_error_record, error_type_id, I32),
	C(nxp_error_record, metadata, STR), C(nxp_error_record, metadata_hex, STR),
	C(nxp_error_record, pcore_idx, I64), C(nxp_error_record, timestamp, I64), C(nxp_error_record, type, STR),
};

static const column execution_cols[] = {
	C(nxp_execution, execution_index, I32), C(nxp_execution, neff_name, STR),
	C(nxp_execution, execution_start_ts, I64), C(nxp_execution, execution_end_ts, I64),
	C(nxp_execution, num_subgraphs, I32), C(nxp_execution, row_count, I64),
};

static const column active_cols[] = {
	C(nxp_active_time, start_ts, I64), C(nxp_active_time, end_ts, I64), C(nxp_active_time, engine, STR),
	C(nxp_active_time, pcore_idx, I64), C(nxp_active_time, duration_ns, I64),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	int table;
	const column *cols;
	size_t ncols;
	size_t size;
} tables[] = {
	{"instruction", NXP_TABLE_INSTRUCTION, instruction_cols, N(instruction_cols), sizeof(nxp_instruction)},
	{"dma", NXP_TABLE_DMA_PACKET, dma_cols, N(dma_cols), sizeof(nxp_dma_packet)},
	{"semaphore", NXP_TABLE_SEMAPHORE_UPDATE, semaphore_cols, N(semaphore_cols), sizeof(nxp_semaphore_update)},
	{"throttle", NXP_TABLE_THROTTLE, throttle_cols, N(throttle_cols), sizeof(nxp_throttle)},
	{"error", NXP_TABLE_ERROR, error_cols, N(error_cols), sizeof(nxp_error_record)},
	{"execution", NXP_TABLE_EXECUTION, execution_cols, N(execution_cols), sizeof(nxp_execution)},
	{"active_time", NXP_TABLE_ACTIVE_TIME, active_cols, N(active_cols), sizeof(nxp_active_time)},
};

static void put_value(FILE *f, const column *c, const void *rec, int json)
{
	const char *p = (const char *)rec + c->off;
	switch (c->type) {
	case I64: {
		int64_t v;
		memcpy(&v, p, sizeof(v));
		fprintf(f, "%" PRId64, v);
		break;
	}
	case I32: {
		int32_t v;
		memcpy(&v, p, sizeof(v));
		fprintf(f, "%" PRId32, v);
		break;
	}
	case BOOL32: {
		int32_t v;
		memcpy(&v, p, sizeof(v));
		fputs(v ? "true" : "false", f);
		break;
	}
	case U32: {
		uint32_t v;
		memcpy(&v, p, sizeof(v));
		fprintf(f, "%" PRIu32, v);
		break;
	}
	case F64: {
		double v;
		memcpy(&v, p, sizeof(v));
		fprintf(f, "%.17g", v);
		break;
	}
	default: {
		const char *s;
		memcpy(&s, p, sizeof(s));
		if (json)
			cli_json_string(f, s ? s : "");
		else
			cli_csv_field(f, s);
	}
	}
}

int cmd_dump(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--system"))
			return cmd_dump_system(argc, argv);
	const char *pos[2] = {NULL, NULL}, *table = NULL, *format = "csv", *queue = NULL;
	int npos = 0, allow = 0, engine = -1;
	int64_t from = INT64_MIN, to = INT64_MAX, pcore = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--allow-mismatch")) {
			allow = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("usage: %s\n", usage_text);
			return 0;
		} else if (a[0] == '-' && a[1] == '-') {
			if (!v)
				return cli_usage(usage_text);
			i++;
			if (!strcmp(a, "--table"))
				table = v;
			else if (!strcmp(a, "--format"))
				format = v;
			else if (!strcmp(a, "--queue"))
				queue = v;
			else if (!strcmp(a, "--engine")) {
				if ((engine = nxp_engine_from_name(v)) < 0) {
					fprintf(stderr, "nxp dump: unknown engine '%s'\n", v);
					return 2;
				}
			} else if (!strcmp(a, "--from") ? cli_parse_i64(v, &from)
				   : !strcmp(a, "--to") ? cli_parse_i64(v, &to)
				   : !strcmp(a, "--pcore") ? cli_parse_i64(v, &pcore)
							   : -1) {
				fprintf(stderr, "nxp dump: bad option or value: %s %s\n", a, v);
				return 2;
			}
		} else if (npos < 2) {
			pos[npos++] = a;
		} else {
			return cli_usage(usage_text);
		}
	}
	if (npos != 2 || !table)
		return cli_usage(usage_text);
	int json = !strcmp(format, "jsonl");
	if (!json && strcmp(format, "csv"))
		return cli_usage(usage_text);
	size_t t = 0;
	while (t < N(tables) && strcmp(tables[t].name, table))
		t++;
	if (t == N(tables)) {
		fprintf(stderr, "nxp dump: unknown table '%s'\n", table);
		return cli_usage(usage_text);
	}

	nxp_status st;
	nxp_status_init(&st);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	if (allow)
		po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
	nxp_profile *p;
	if (nxp_profile_open_path(&p, pos[0], pos[1], &po, &st))
		return cli_error("dump", &st);
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = from;
	co.end_ts = to;
	co.engine = engine;
	co.pcore_idx = pcore;
	co.queue_name = queue;
	nxp_cursor *c;
	if (nxp_cursor_open(&c, p, tables[t].table, &co, &st)) {
		nxp_profile_close(p);
		return cli_error("dump", &st);
	}
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	const column *cols = tables[t].cols;
	size_t ncols = tables[t].ncols, rsize = tables[t].size;
	if (!json) {
		for (size_t k = 0; k < ncols; k++)
			printf("%s%s", k ? "," : "", cols[k].name);
		putchar('\n');
	}
	enum { BATCH = 256 };
	void *recs = malloc(BATCH * rsize);
	int rc = recs ? NXP_OK : NXP_E_NOMEM;
	size_t got;
	while (rc == NXP_OK) {
		rc = nxp_cursor_next_batch(c, recs, rsize, BATCH, &got);
		for (size_t r = 0; r < got; r++) {
			const void *rec = (const char *)recs + r * rsize;
			if (json)
				putchar('{');
			for (size_t k = 0; k < ncols; k++) {
				if (json)
					printf("%s\"%s\":", k ? "," : "", cols[k].name);
				else if (k)
					putchar(',');
				put_value(stdout, &cols[k], rec, json);
			}
			fputs(json ? "}\n" : "\n", stdout);
		}
	}
	free(recs);
	int status = 0;
	if (fflush(stdout) != 0) {
		fprintf(stderr, "nxp dump: write error\n");
		status = 1;
	}
	if (rc < 0) {
		nxp_cursor_error(c, &st);
		if (!st.code) {
			st.code = rc;
			snprintf(st.message, sizeof(st.message), "%s", nxp_strerror(rc));
		}
		status = cli_error("dump", &st);
	} else {
		nxp_cursor_stats cs;
		cs.struct_size = sizeof(cs);
		if (nxp_cursor_get_stats(c, &cs) == NXP_OK && (cs.bad_records || cs.skipped_sections))
			fprintf(stderr,
				"nxp dump: warning: %" PRId64 " bad records and %" PRId64
				" bad sections skipped (last at byte offset %" PRId64 ")\n",
				cs.bad_records, cs.skipped_sections, cs.last_bad_offset);
	}
	nxp_cursor_close(c);
	nxp_profile_close(p);
	return status;
}
