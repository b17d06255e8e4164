/* SPDX-License-Identifier: MIT */
/* `nxp dump --system DIR|FILE [--format csv|jsonl]`: stream SystemProfileEvents
 * rows (host time, Unix ns) from a capture directory, an ntrace.pb, or a
 * trace.json[.gz].  Public API only. */
#include "cli.h"

#include <inttypes.h>
#include <string.h>

#define USAGE "nxp dump --system DIR|FILE [--format csv|jsonl]"

static const char *const columns[] = {
	"id", "name", "start_ts", "end_ts", "duration_ns", "trace_event_source", "instance_id", "process_id",
	"thread_id", "nc_idx", "pcore_idx", "worker_gid", "flow_id", "framework_stream_id", "extra_attributes_json",
	"phase", "pid", "tid", "flags",
};

static void csv_i64(FILE *f, int64_t v, int absent_if_negative)
{
	if (!(absent_if_negative && v < 0))
		fprintf(f, "%" PRId64, v);
}

static void write_csv(FILE *f, const nxp_system_event *e)
{
	fprintf(f, "%" PRId64 ",", e->id);
	cli_csv_field(f, e->name);
	fprintf(f, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", e->start_ts, e->end_ts, e->duration_ns);
	cli_csv_field(f, e->trace_event_source);
	fputc(',', f);
	cli_csv_field(f, e->instance_id);
	fputc(',', f);
	csv_i64(f, e->process_id, 1);
	fputc(',', f);
	csv_i64(f, e->thread_id, 1);
	fputc(',', f);
	csv_i64(f, e->nc_idx, 1);
	fputc(',', f);
	csv_i64(f, e->pcore_idx, 1);
	fputc(',', f);
	csv_i64(f, e->worker_gid, 1);
	fputc(',', f);
	cli_csv_field(f, e->flow_id);
	fputc(',', f);
	cli_csv_field(f, e->framework_stream_id);
	fputc(',', f);
	cli_csv_field(f, e->extra_attributes_json);
	fputc(',', f);
	cli_csv_field(f, e->phase);
	fputc(',', f);
	cli_csv_field(f, e->pid);
	fputc(',', f);
	cli_csv_field(f, e->tid);
	fprintf(f, ",%u\n", e->flags);
}

static void json_i64(FILE *f, const char *key, int64_t v, int absent_if_negative)
{
	if (absent_if_negative && v < 0)
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":%" PRId64, key, v);
}

static void json_str(FILE *f, const char *key, const char *v)
{
	fprintf(f, ",\"%s\":", key);
	cli_json_string(f, v);
}

static void write_jsonl(FILE *f, const nxp_system_event *e)
{
	fprintf(f, "{\"id\":%" PRId64, e->id);
	json_str(f, "name", e->name);
	json_i64(f, "start_ts", e->start_ts, 0);
	json_i64(f, "end_ts", e->end_ts, 0);
	json_i64(f, "duration_ns", e->duration_ns, 0);
	json_str(f, "trace_event_source", e->trace_event_source);
	json_str(f, "instance_id", e->instance_id);
	json_i64(f, "process_id", e->process_id, 1);
	json_i64(f, "thread_id", e->thread_id, 1);
	json_i64(f, "nc_idx", e->nc_idx, 1);
	json_i64(f, "pcore_idx", e->pcore_idx, 1);
	json_i64(f, "worker_gid", e->worker_gid, 1);
	fputs(",\"flow_id\":[", f);
	if (e->flow_id[0])
		cli_json_string(f, e->flow_id);
	fputc(']', f);
	json_str(f, "framework_stream_id", e->framework_stream_id);
	/* The attributes are JSON already: embed the object. */
	fprintf(f, ",\"extra_attributes_json\":%s", e->extra_attributes_json[0] ? e->extra_attributes_json : "{}");
	json_str(f, "phase", e->phase);
	json_str(f, "pid", e->pid);
	json_str(f, "tid", e->tid);
	fprintf(f, ",\"flags\":%u}\n", e->flags);
}

int cmd_dump_system(int argc, char **argv)
{
	const char *path = NULL, *format = "csv";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--system"))
			continue;
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			format = argv[++i];
		else if (argv[i][0] == '-' || path)
			return cli_usage(USAGE);
		else
			path = argv[i];
	}
	int jsonl = !strcmp(format, "jsonl");
	if (!path || (!jsonl && strcmp(format, "csv")))
		return cli_usage(USAGE);
	nxp_status st;
	nxp_status_init(&st);
	nxp_system_events *c;
	if (nxp_system_events_open_path(&c, path, NULL, &st))
		return cli_error("dump", &st);
	if (!jsonl) {
		for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
			printf("%s%s", i ? "," : "", columns[i]);
		putchar('\n');
	}
	nxp_system_event e;
	e.struct_size = sizeof(e);
	int rc;
	while ((rc = nxp_system_events_next(c, &e)) == NXP_OK) {
		if (jsonl)
			write_jsonl(stdout, &e);
		else
			write_csv(stdout, &e);
	}
	int status = 0;
	if (rc != NXP_END) {
		nxp_system_events_error(c, &st);
		status = cli_error("dump", &st);
	}
	nxp_system_events_close(c);
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
