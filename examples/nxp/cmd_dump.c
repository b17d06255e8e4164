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
	"         [--format csv|jsonl] [--from T] [--to T] [--engine E] [--pcore N] [--queue NAME]\n"
	"         [--limit N] [--allow-mismatch]\n"
	"       nxp dump --system DIR|ntrace.pb|trace.json[.gz] [--format csv|jsonl] [--limit N]\n"
	"  --from/--to: records starting in [from, to); T in ns as in the tables, or relative to\n"
	"               the trace's first timestamp: +1.5ms, +200us, +10ns, +2s (see nxp info NEFF NTFF)\n"
	"  --engine: tensor|vector|scalar|gpsimd|sync (instruction and active_time tables)\n"
	"  --queue:  a DMA queue name of the NEFF (dma and active_time tables)\n"
	"  --pcore:  a physical core index, 0 .. cores-1 (every table)\n"
	"  --limit:  at most N records (the CSV header line not counted)";

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
	int by_engine, by_queue; /* which filters select rows of this table */
} tables[] = {
	{"instruction", NXP_TABLE_INSTRUCTION, instruction_cols, N(instruction_cols), sizeof(nxp_instruction), 1, 0},
	{"dma", NXP_TABLE_DMA_PACKET, dma_cols, N(dma_cols), sizeof(nxp_dma_packet), 0, 1},
	{"semaphore", NXP_TABLE_SEMAPHORE_UPDATE, semaphore_cols, N(semaphore_cols), sizeof(nxp_semaphore_update), 0,
	 0},
	{"throttle", NXP_TABLE_THROTTLE, throttle_cols, N(throttle_cols), sizeof(nxp_throttle), 0, 0},
	{"error", NXP_TABLE_ERROR, error_cols, N(error_cols), sizeof(nxp_error_record), 0, 0},
	{"execution", NXP_TABLE_EXECUTION, execution_cols, N(execution_cols), sizeof(nxp_execution), 0, 0},
	{"active_time", NXP_TABLE_ACTIVE_TIME, active_cols, N(active_cols), sizeof(nxp_active_time), 1, 1},
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

/* The NEFF's DMA queue names, distinct, comma-separated, into out; whether `name` is one. */
static int queue_names(const nxp_neff *neff, const char *name, char *out, size_t n)
{
	int found = 0;
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < nxp_neff_dma_queue_count(neff); i++) {
		nxp_dma_queue_info q = {.struct_size = sizeof(q)};
		if (nxp_neff_get_dma_queue(neff, i, &q))
			continue;
		found |= name && !strcmp(q.name, name);
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++) {
			nxp_dma_queue_info r = {.struct_size = sizeof(r)};
			seen = !nxp_neff_get_dma_queue(neff, j, &r) && !strcmp(r.name, q.name);
		}
		if (!seen && len < n) {
			int w = snprintf(out + len, n - len, "%s%s", len ? ", " : "", q.name);
			len += w > 0 ? (size_t)w : 0;
		}
	}
	return found;
}

int cmd_dump(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--system"))
			return cmd_dump_system(argc, argv);
	const char *pos[2] = {NULL, NULL}, *table = NULL, *format = "csv", *queue = NULL, *engine_name = NULL;
	const char *from_arg = NULL, *to_arg = NULL;
	int npos = 0, allow = 0, engine = -1, from_rel = 0, to_rel = 0;
	int64_t from = INT64_MIN, to = INT64_MAX, pcore = -1, limit = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--allow-mismatch")) {
			allow = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return cli_help(usage_text);
		if (a[0] != '-' || !a[1]) {
			if (npos == 2)
				return cli_bad_usage("dump", usage_text, "a NEFF and an NTFF: '%s' is a third file", a);
			pos[npos++] = a;
			continue;
		}
		static const char *const with_value[] = {"--table", "--format", "--queue", "--engine",
							 "--from",  "--to",     "--pcore", "--limit"};
		size_t k = 0;
		while (k < N(with_value) && strcmp(a, with_value[k]))
			k++;
		if (k == N(with_value))
			return cli_bad_usage("dump", usage_text, "unknown option '%s'", a);
		if (i + 1 == argc)
			return cli_bad_usage("dump", usage_text, "%s needs a value", a);
		const char *v = argv[++i];
		if (!strcmp(a, "--table")) {
			table = v;
		} else if (!strcmp(a, "--format")) {
			format = v;
		} else if (!strcmp(a, "--queue")) {
			queue = v;
		} else if (!strcmp(a, "--engine")) {
			engine_name = v;
			if ((engine = nxp_engine_from_name(v)) < 0)
				return cli_bad_usage("dump", usage_text,
						     "unknown --engine '%s' (tensor, vector, scalar, gpsimd, sync)", v);
		} else if (!strcmp(a, "--from")) {
			from_arg = v;
			if (cli_parse_time(v, &from, &from_rel))
				return cli_bad_usage("dump", usage_text,
						     "bad --from '%s': ns, or +N[.M] with ns, us, ms or s", v);
		} else if (!strcmp(a, "--to")) {
			to_arg = v;
			if (cli_parse_time(v, &to, &to_rel))
				return cli_bad_usage("dump", usage_text,
						     "bad --to '%s': ns, or +N[.M] with ns, us, ms or s", v);
		} else if (!strcmp(a, "--pcore")) {
			if (cli_parse_i64(v, &pcore) || pcore < 0)
				return cli_bad_usage("dump", usage_text, "bad --pcore '%s': a core index, 0 or more", v);
		} else if (cli_parse_i64(v, &limit) || limit < 0) {
			return cli_bad_usage("dump", usage_text, "bad --limit '%s': a number of records, 0 or more", v);
		}
	}
	if (npos != 2)
		return cli_bad_usage("dump", usage_text, npos ? "no NTFF given" : "no NEFF and NTFF given");
	if (!table)
		return cli_bad_usage("dump", usage_text, "no --table given");
	int json = !strcmp(format, "jsonl");
	if (!json && strcmp(format, "csv"))
		return cli_bad_usage("dump", usage_text, "unknown --format '%s' (csv, jsonl)", format);
	size_t t = 0;
	while (t < N(tables) && strcmp(tables[t].name, table))
		t++;
	if (t == N(tables))
		return cli_bad_usage("dump", usage_text,
				     "unknown --table '%s' (instruction, dma, semaphore, throttle, error, execution, "
				     "active_time)",
				     table);
	if (engine >= 0 && !tables[t].by_engine)
		return cli_bad_usage("dump", usage_text,
				     "--engine selects rows of the instruction and active_time tables, not %s", table);
	if (queue && !tables[t].by_queue)
		return cli_bad_usage("dump", usage_text,
				     "--queue selects rows of the dma and active_time tables, not %s", table);
	if (engine >= 0 && queue)
		return cli_bad_usage("dump", usage_text,
				     "--engine %s and --queue %s together select nothing: an active_time row is an "
				     "engine's or a DMA queue's",
				     engine_name, queue);
	if (!from_rel && !to_rel && from_arg && to_arg && from >= to)
		return cli_bad_usage("dump", usage_text, "--from %s is not before --to %s: the window is empty", from_arg,
				     to_arg);

	nxp_status st;
	nxp_status_init(&st);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	if (allow)
		po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
	nxp_profile *p;
	if (cli_open_profile("dump", &p, pos[0], pos[1], &po))
		return 1;
	int status = 0;
	nxp_metadata md = {.struct_size = sizeof(md)};
	char names[1024];
	if (nxp_profile_get_metadata(p, &md)) {
		nxp_profile_error(p, &st);
		status = cli_error("dump", &st);
	} else if (pcore >= md.num_physical_cores) {
		status = cli_bad_usage("dump", usage_text, "--pcore %" PRId64 ": this profile has %d physical core%s (0..%d)",
				       pcore, md.num_physical_cores, md.num_physical_cores == 1 ? "" : "s",
				       md.num_physical_cores - 1);
	} else if (queue && !queue_names(nxp_profile_neff(p), queue, names, sizeof(names))) {
		status = cli_bad_usage("dump", usage_text, "--queue '%s': no such DMA queue (this NEFF has: %s)", queue,
				       names[0] ? names : "none");
	}
	/* Relative times count from the trace's first timestamp. */
	if (!status && from_rel)
		from = md.first_hw_timestamp > INT64_MAX - from ? INT64_MAX : md.first_hw_timestamp + from;
	if (!status && to_rel)
		to = md.first_hw_timestamp > INT64_MAX - to ? INT64_MAX : md.first_hw_timestamp + to;
	if (!status && from_arg && to_arg && from >= to)
		status = cli_bad_usage("dump", usage_text,
				       "--from %s (%" PRId64 " ns) is not before --to %s (%" PRId64 " ns): the window is empty",
				       from_arg, from, to_arg, to);
	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	co.start_ts = from;
	co.end_ts = to;
	co.engine = engine;
	co.pcore_idx = pcore;
	co.queue_name = queue;
	nxp_cursor *c = NULL;
	if (!status && nxp_cursor_open(&c, p, tables[t].table, &co, &st))
		status = cli_error("dump", &st);
	if (status) {
		nxp_profile_close(p);
		return status;
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
	int64_t rows = 0;
	while (rc == NXP_OK && (limit < 0 || rows < limit) && !ferror(stdout)) {
		size_t want = limit >= 0 && limit - rows < BATCH ? (size_t)(limit - rows) : BATCH;
		rc = nxp_cursor_next_batch(c, recs, rsize, want, &got);
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
		rows += (int64_t)got;
	}
	free(recs);
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
		/* An empty answer is legitimate; say why when a filter made it so. */
		if (!rows && limit != 0 && (from_arg || to_arg || engine >= 0 || queue || pcore >= 0))
			fprintf(stderr,
				"nxp dump: note: no %s rows matched the filters (the trace spans %" PRId64 " .. %" PRId64
				" ns; --from %" PRId64 ", --to %" PRId64 ")\n",
				table, md.first_hw_timestamp, md.last_hw_timestamp, from == INT64_MIN ? md.first_hw_timestamp : from,
				to == INT64_MAX ? md.last_hw_timestamp + 1 : to);
	}
	nxp_cursor_close(c);
	nxp_profile_close(p);
	return status;
}
