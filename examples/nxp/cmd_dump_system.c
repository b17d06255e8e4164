/* SPDX-License-Identifier: MIT */
/* `nxp dump --system DIR|FILE [--format csv|jsonl]`: stream SystemProfileEvents
 * rows (host time, Unix ns) from a capture directory, an ntrace.pb, or a
 * trace.json[.gz].  Public API only. */
#include "cli.h"

#include <inttypes.h>
#include <string.h>

#define USAGE                                                                                     \
	"nxp dump --system DIR|ntrace.pb|trace.json[.gz] [--format csv|jsonl] [--limit N]\n"          \
	"  system-profile events in host time (Unix ns) from a capture directory, an ntrace.pb\n"     \
	"  or a Chrome-trace trace.json (plain or gzip'd); --limit: at most N rows"

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

/* Refuse, by content and before anything is written, what is not a system
 * profile: one line naming the file; 0 when the reader may try it. */
static int check_system_input(const char *path)
{
	nxp_status st;
	nxp_status_init(&st);
	int kind;
	if (nxp_file_kind_detect(path, &kind, &st))
		return cli_fail("dump", "%s", st.message);
	switch (kind) {
	case NXP_FILE_DIRECTORY:
	case NXP_FILE_JSON:
	case NXP_FILE_JSON_GZIP:
	case NXP_FILE_PROTOBUF:
	case NXP_FILE_STREAM:
		return 0;
	case NXP_FILE_EMPTY:
		return cli_fail("dump", "%s: empty file", path);
	case NXP_FILE_NEFF:
	case NXP_FILE_NTFF:
		return cli_fail("dump", "%s is %s, not a system profile (for a device profile: nxp dump NEFF NTFF --table T)",
				path, nxp_file_kind_name(kind));
	default:
		return cli_fail("dump", "%s is %s, not a system profile (a capture directory, ntrace.pb or trace.json)",
				path, nxp_file_kind_name(kind));
	}
}

int cmd_dump_system(int argc, char **argv)
{
	const char *path = NULL, *format = "csv";
	int64_t limit = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--system"))
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return cli_help(USAGE);
		if (!strcmp(a, "--format") || !strcmp(a, "--limit")) {
			if (i + 1 == argc)
				return cli_bad_usage("dump", USAGE, "%s needs a value", a);
			const char *v = argv[++i];
			if (a[2] == 'f')
				format = v;
			else if (cli_parse_i64(v, &limit) || limit < 0)
				return cli_bad_usage("dump", USAGE, "bad --limit '%s': a number of rows, 0 or more", v);
		} else if (a[0] == '-' && a[1]) {
			return cli_bad_usage("dump", USAGE, "unknown option '%s' (with --system)", a);
		} else if (path) {
			return cli_bad_usage("dump", USAGE, "one input with --system: '%s' is a second one", a);
		} else {
			path = a;
		}
	}
	int jsonl = !strcmp(format, "jsonl");
	if (!jsonl && strcmp(format, "csv"))
		return cli_bad_usage("dump", USAGE, "unknown --format '%s' (csv, jsonl)", format);
	if (!path)
		return cli_bad_usage("dump", USAGE, "no input given");
	if (check_system_input(path))
		return 1;
	nxp_status st;
	nxp_status_init(&st);
	nxp_system_events *c;
	if (nxp_system_events_open_path(&c, path, NULL, &st))
		return cli_error_in("dump", path, &st);
	/* The first row is read before the header is written, so that an input
	 * that fails at once leaves nothing on stdout. */
	nxp_system_event e;
	e.struct_size = sizeof(e);
	int rc = limit == 0 ? NXP_END : nxp_system_events_next(c, &e);
	if (rc < 0) {
		nxp_system_events_error(c, &st);
		nxp_system_events_close(c);
		return cli_error_in("dump", path, &st);
	}
	if (!jsonl) {
		for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
			printf("%s%s", i ? "," : "", columns[i]);
		putchar('\n');
	}
	int64_t rows = 0;
	while (rc == NXP_OK && !ferror(stdout)) {
		if (jsonl)
			write_jsonl(stdout, &e);
		else
			write_csv(stdout, &e);
		if (limit >= 0 && ++rows >= limit)
			break;
		rc = nxp_system_events_next(c, &e);
	}
	int status = 0;
	if (rc < 0) {
		nxp_system_events_error(c, &st);
		status = cli_error_in("dump", path, &st);
	}
	nxp_system_events_close(c);
	return status;
}
