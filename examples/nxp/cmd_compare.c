/* SPDX-License-Identifier: MIT */
/* `nxp compare CAPTURE_DIR [--json] [--arch A]`: one row per device profile
 * of a capture, slowest first, with the gap to the fastest and the figure that
 * explains it, then the capture-level insights (straggler).  Public API only.
 *
 * JSON: {"profiles": [{"profile_index", "ntff", "instance_id", "process_id",
 * "nc_idx", "status", "total_ns", "gap_ns", "mfu" (fraction or null),
 * "engine_active_ns": {engine: ns}, "dma_active_ns", "dma_bytes", "throttle_ns",
 * "host_execute_count", "host_execute_total_ns", "host_execute_max_ns",
 * "host_start_skew_ns" (null when no nrt_execute), "explaining_figure",
 * "explaining_delta_ns"}], "insights": [...as nxp insights --json]}. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                         \
	"nxp compare CAPTURE_DIR [--json] [--arch trn1|inf2|trn2|trn3] [--threads N]\n" \
	"  --threads: profiles read at once (default 0 = all cores, 1 = one by one;\n"    \
	"  same rows either way)\n"                                                      \
	"  one row per device profile, slowest first: total time, gap to the fastest,\n" \
	"  MFU, engine and DMA active time, throttling, host nrt_execute times and start\n" \
	"  skew, the figure that explains the gap; then the straggler insight"

static void print_json(const nxp_comparison *cmp)
{
	FILE *f = stdout;
	fputs("{\"profiles\":[", f);
	size_t n = nxp_comparison_count(cmp);
	for (size_t k = 0; k < n; k++) {
		nxp_comparison_row r = {.struct_size = sizeof(r)};
		if (nxp_comparison_get(cmp, k, &r))
			continue;
		fprintf(f, "%s{\"profile_index\":%" PRId64 ",\"ntff\":", k ? "," : "", r.profile_index);
		cli_json_string(f, r.ntff_path);
		fputs(",\"instance_id\":", f);
		cli_json_string(f, r.instance_id);
		fprintf(f, ",\"process_id\":%" PRId64 ",\"nc_idx\":%" PRId64 ",\"status\":%d", r.process_id, r.nc_idx,
			r.status);
		if (r.status) {
			fputs(",\"error\":", f);
			cli_json_string(f, nxp_strerror(r.status));
		}
		fprintf(f, ",\"total_ns\":%" PRId64 ",\"gap_ns\":%" PRId64 ",\"mfu\":", r.total_ns, r.gap_ns);
		if (r.mfu_present)
			fprintf(f, "%.17g", r.mfu);
		else
			fputs("null", f);
		fputs(",\"engine_active_ns\":{", f);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			if (e)
				putc(',', f);
			cli_json_string(f, nxp_engine_name(e));
			fprintf(f, ":%" PRId64, r.engine_active_ns[e]);
		}
		fprintf(f,
			"},\"dma_active_ns\":%" PRId64 ",\"dma_bytes\":%" PRId64 ",\"throttle_ns\":%" PRId64
			",\"host_execute_count\":%" PRId64 ",\"host_execute_total_ns\":%" PRId64
			",\"host_execute_max_ns\":%" PRId64 ",\"host_start_skew_ns\":",
			r.dma_active_ns, r.dma_bytes, r.throttle_ns, r.host_execute_count, r.host_execute_total_ns,
			r.host_execute_max_ns);
		if (r.host_start_skew_ns < 0)
			fputs("null", f);
		else
			fprintf(f, "%" PRId64, r.host_start_skew_ns);
		fputs(",\"explaining_figure\":", f);
		cli_json_string(f, r.explaining_figure);
		fprintf(f, ",\"explaining_delta_ns\":%" PRId64 "}", r.explaining_delta_ns);
	}
	fputs("],\"insights\":[", f);
	const nxp_insights *in = nxp_comparison_insights(cmp);
	for (size_t k = 0; k < nxp_insights_count(in); k++) {
		nxp_insight x = {.struct_size = sizeof(x)};
		if (nxp_insights_get(in, k, &x))
			continue;
		if (k)
			putc(',', f);
		cli_insight_json(f, &x);
	}
	fputs("]}\n", f);
}

static void print_text(const nxp_comparison *cmp)
{
	FILE *f = stdout;
	size_t n = nxp_comparison_count(cmp);
	fprintf(f, "%zu device profile%s, slowest first\n", n, n == 1 ? "" : "s");
	fprintf(f, "  %-4s %-5s %-3s %14s %12s %7s %14s %14s %14s %12s %12s %12s  %s\n", "#", "pid", "nc", "total_ns",
		"gap_ns", "mfu", "tensor_ns", "dma_ns", "dma_bytes", "throttle_ns", "host_exec", "skew_ns",
		"explains the gap");
	for (size_t k = 0; k < n; k++) {
		nxp_comparison_row r = {.struct_size = sizeof(r)};
		if (nxp_comparison_get(cmp, k, &r))
			continue;
		if (r.status) {
			fprintf(f, "  %-4" PRId64 " %s: %s\n", r.profile_index, r.ntff_path, nxp_strerror(r.status));
			continue;
		}
		char mfu[16] = "n/a", skew[24] = "n/a";
		if (r.mfu_present)
			snprintf(mfu, sizeof(mfu), "%.2f%%", r.mfu * 100.0);
		if (r.host_start_skew_ns >= 0)
			snprintf(skew, sizeof(skew), "%" PRId64, r.host_start_skew_ns);
		fprintf(f,
			"  %-4" PRId64 " %-5" PRId64 " %-3" PRId64 " %14" PRId64 " %12" PRId64 " %7s %14" PRId64
			" %14" PRId64 " %14" PRId64 " %12" PRId64 " %12" PRId64 " %12s  %s",
			r.profile_index, r.process_id, r.nc_idx, r.total_ns, r.gap_ns, mfu,
			r.engine_active_ns[NXP_ENGINE_TENSOR], r.dma_active_ns, r.dma_bytes, r.throttle_ns,
			r.host_execute_count, skew, *r.explaining_figure ? r.explaining_figure : "-");
		if (*r.explaining_figure)
			fprintf(f, " (+%" PRId64 " ns)", r.explaining_delta_ns);
		putc('\n', f);
	}
	const nxp_insights *in = nxp_comparison_insights(cmp);
	size_t ni = nxp_insights_count(in);
	fputs(ni ? "\ninsights\n" : "\ninsights: none\n", f);
	for (size_t k = 0; k < ni; k++) {
		nxp_insight x = {.struct_size = sizeof(x)};
		if (!nxp_insights_get(in, k, &x))
			cli_insight_text(f, &x);
	}
}

int cmd_compare(int argc, char **argv)
{
	const char *dir = NULL, *arch = NULL;
	int json = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--arch")) {
			if (i + 1 == argc)
				return cli_bad_usage("compare", USAGE, "--arch needs a value (trn1, inf2, trn2, trn3)");
			arch = argv[++i];
		} else if (!strcmp(argv[i], "--threads")) {
			char *end = NULL;
			long n = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
			if (i + 1 == argc || !end || *end || end == argv[i + 1] || n < 0 || n > 1024)
				return cli_bad_usage("compare", USAGE, "--threads needs a count (0 = all cores)");
			/* the library's capture fan-out width (see nxp_capture_compare) */
			setenv("NXP_THREADS", argv[++i], 1);
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_help(USAGE);
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_usage("compare", USAGE, "unknown option '%s'", argv[i]);
		else if (dir)
			return cli_bad_usage("compare", USAGE, "one capture directory: '%s' is a second", argv[i]);
		else
			dir = argv[i];
	}
	if (!dir)
		return cli_bad_usage("compare", USAGE, "no capture directory given");
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	if (arch && nxp_hardware_for_arch(arch, &hw) != NXP_OK)
		return cli_bad_usage("compare", USAGE, "unknown --arch '%s' (known: trn1, inf2, trn2, trn3)", arch);

	nxp_status st;
	nxp_status_init(&st);
	int kind = 0;
	if (nxp_file_kind_detect(dir, &kind, &st))
		return cli_fail("compare", "%s", st.message);
	if (kind != NXP_FILE_DIRECTORY)
		return cli_fail("compare", "%s is %s, not a capture directory%s", dir, nxp_file_kind_name(kind),
				kind == NXP_FILE_NEFF || kind == NXP_FILE_NTFF ? " (for one profile: nxp summary NEFF NTFF)"
										 : "");
	nxp_capture *cap = NULL;
	if (nxp_capture_open(&cap, dir, &st))
		return cli_error_in("compare", dir, &st);
	nxp_comparison *cmp = NULL;
	int rc = nxp_capture_compare(cap, arch ? &hw : NULL, &cmp, &st);
	if (rc) {
		nxp_capture_close(cap);
		return cli_error_in("compare", dir, &st);
	}
	if (json)
		print_json(cmp);
	else
		print_text(cmp);
	nxp_comparison_close(cmp);
	nxp_capture_close(cap);
	return 0;
}
