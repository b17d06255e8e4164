/* SPDX-License-Identifier: MIT */
/* `nxp critical-path NEFF NTFF [--execution N] [--pcore N] [--json] [--allow-mismatch]`:
 * the critical path of an execution (or of the summary's total_exec_time
 * interval), the time per resource on it and the records along it.  Public API only.
 *
 * JSON: {"start_ts", "end_ts", "total_ns", "breakdown": [{"resource", "ns",
 * "busy_ns", "slack_ns"}] (the ns sum exactly to total_ns), "path": [{"table",
 * "id", "start_ts", "end_ts", "resource", "label", "via", "ns"}]}. */
#include "cli.h"

#include <inttypes.h>
#include <string.h>

#define USAGE                                                                                     \
	"nxp critical-path NEFF NTFF [--execution N] [--pcore N] [--json] [--limit N] [--allow-mismatch]\n" \
	"  the critical path: time per resource (engines, DMA queues, semaphore waits, idle)\n"    \
	"  and the records along it; without --execution, the interval of the summary's\n"          \
	"  total_exec_time; --limit: print at most N path steps in the text output"

static const char *table_name(int32_t t)
{
	switch (t) {
	case NXP_TABLE_INSTRUCTION:
		return "Instruction";
	case NXP_TABLE_DMA_PACKET:
		return "DmaPacket";
	case NXP_TABLE_SEMAPHORE_UPDATE:
		return "SemaphoreUpdate";
	default:
		return "?";
	}
}

static void print_json(const nxp_critical_path *cp)
{
	FILE *f = stdout;
	int64_t s = 0, e = 0, total = 0;
	nxp_critical_path_interval(cp, &s, &e, &total);
	fprintf(f, "{\"start_ts\":%" PRId64 ",\"end_ts\":%" PRId64 ",\"total_ns\":%" PRId64 ",\"breakdown\":[", s, e,
		total);
	size_t nr = nxp_critical_path_resource_count(cp);
	for (size_t k = 0; k < nr; k++) {
		nxp_critical_resource r = {.struct_size = sizeof(r)};
		if (nxp_critical_path_get_resource(cp, k, &r))
			continue;
		fputs(k ? ",{\"resource\":" : "{\"resource\":", f);
		cli_json_string(f, r.resource);
		fprintf(f, ",\"ns\":%" PRId64 ",\"busy_ns\":%" PRId64 ",\"slack_ns\":%" PRId64 "}", r.ns, r.busy_ns,
			r.slack_ns);
	}
	fputs("],\"path\":[", f);
	size_t ns = nxp_critical_path_step_count(cp);
	for (size_t k = 0; k < ns; k++) {
		nxp_critical_step st = {.struct_size = sizeof(st)};
		if (nxp_critical_path_get_step(cp, k, &st))
			continue;
		fputs(k ? ",{\"table\":" : "{\"table\":", f);
		cli_json_string(f, table_name(st.table));
		fprintf(f, ",\"id\":%" PRId64 ",\"start_ts\":%" PRId64 ",\"end_ts\":%" PRId64 ",\"resource\":", st.id,
			st.start_ts, st.end_ts);
		cli_json_string(f, st.resource);
		fputs(",\"label\":", f);
		cli_json_string(f, st.label);
		fputs(",\"via\":", f);
		cli_json_string(f, st.via);
		fprintf(f, ",\"ns\":%" PRId64 "}", st.ns);
	}
	fputs("]}\n", f);
}

static void print_text(const nxp_critical_path *cp, int64_t limit)
{
	FILE *f = stdout;
	int64_t s = 0, e = 0, total = 0;
	nxp_critical_path_interval(cp, &s, &e, &total);
	char d[32];
	cli_format_duration(total, d, sizeof(d));
	fprintf(f, "interval: %" PRId64 " .. %" PRId64 " ns (%s)\n\nbreakdown\n", s, e, d);
	fprintf(f, "  %-32s %14s %8s %14s %14s\n", "resource", "ns", "share", "busy_ns", "slack_ns");
	size_t nr = nxp_critical_path_resource_count(cp);
	for (size_t k = 0; k < nr; k++) {
		nxp_critical_resource r = {.struct_size = sizeof(r)};
		if (nxp_critical_path_get_resource(cp, k, &r))
			continue;
		fprintf(f, "  %-32s %14" PRId64 " %7.2f%% %14" PRId64 " %14" PRId64 "\n", r.resource, r.ns,
			total > 0 ? 100.0 * (double)r.ns / (double)total : 0.0, r.busy_ns, r.slack_ns);
	}
	size_t ns = nxp_critical_path_step_count(cp);
	fprintf(f, "\npath (%zu steps, earliest first)\n", ns);
	fprintf(f, "  %-15s %10s %16s %16s %-24s %-20s %12s  %s\n", "table", "id", "start_ts", "end_ts", "resource",
		"label", "ns", "via");
	for (size_t k = 0; k < ns; k++) {
		if (limit >= 0 && (int64_t)k >= limit) {
			fprintf(f, "  ... %zu more (--limit)\n", ns - k);
			break;
		}
		nxp_critical_step st = {.struct_size = sizeof(st)};
		if (nxp_critical_path_get_step(cp, k, &st))
			continue;
		fprintf(f, "  %-15s %10" PRId64 " %16" PRId64 " %16" PRId64 " %-24s %-20s %12" PRId64 "  %s\n",
			table_name(st.table), st.id, st.start_ts, st.end_ts, st.resource, st.label, st.ns, st.via);
	}
}

int cmd_critical_path(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL};
	int json = 0, npaths = 0;
	int64_t limit = -1;
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	nxp_critical_path_options co;
	nxp_critical_path_options_init(&co);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--allow-mismatch"))
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		else if (!strcmp(argv[i], "--execution") || !strcmp(argv[i], "--pcore") ||
			 !strcmp(argv[i], "--limit")) {
			int64_t v;
			if (i + 1 == argc)
				return cli_bad_usage("critical-path", USAGE, "%s needs a value", argv[i]);
			if (cli_parse_i64(argv[i + 1], &v) || v < 0 || (argv[i][2] == 'e' && v > INT32_MAX))
				return cli_bad_usage("critical-path", USAGE, "%s: '%s' is not a whole number >= 0",
						     argv[i], argv[i + 1]);
			if (argv[i][2] == 'e')
				co.execution_index = (int32_t)v;
			else if (argv[i][2] == 'p')
				co.pcore_idx = v;
			else
				limit = v;
			i++;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_help(USAGE);
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_usage("critical-path", USAGE, "unknown option '%s'", argv[i]);
		else if (npaths == 2)
			return cli_bad_usage("critical-path", USAGE, "a NEFF and an NTFF: '%s' is a third file",
					     argv[i]);
		else
			paths[npaths++] = argv[i];
	}
	if (npaths != 2)
		return cli_bad_usage("critical-path", USAGE, npaths ? "no NTFF given" : "no NEFF and NTFF given");

	nxp_profile *p = NULL;
	if (cli_open_profile("critical-path", &p, paths[0], paths[1], &po))
		return 1;
	nxp_status st;
	nxp_status_init(&st);
	nxp_critical_path *cp = NULL;
	int rc = nxp_profile_critical_path(p, &co, &cp, &st);
	if (!rc)
		cli_warn_damage("critical-path", p);
	nxp_profile_close(p);
	if (rc)
		return cli_error_in("critical-path", paths[1], &st);
	if (json)
		print_json(cp);
	else
		print_text(cp, limit);
	nxp_critical_path_close(cp);
	return 0;
}
