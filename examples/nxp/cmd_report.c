/* SPDX-License-Identifier: MIT */
/* `nxp report NEFF NTFF -o report.html` and `nxp report --capture DIR -o
 * report.html`: the one-page HTML report (nxp_profile_write_report,
 * nxp_capture_write_report). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define REPORT_USAGE                                                                                  \
	"nxp report NEFF NTFF -o FILE.html [--title T] [--columns N] [--arch A] [--no-analysis]\n"   \
	"      [--force] [--quiet] [--allow-mismatch]\n"                                             \
	"  nxp report --capture DIR -o FILE.html [...]\n"                                             \
	"      one self-contained HTML page (no script, nothing fetched): key figures, engine and\n"  \
	"      DMA activity over time, utilisation, top opcodes, DMA throughput per queue, the\n"      \
	"      critical path and the insights; for a capture, the rank comparison first;\n"          \
	"      --columns: pixel columns of the pictures (100..4000, default 800)\n"

int cmd_report(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL}, *out = NULL, *capture = NULL, *arch = NULL;
	int npaths = 0, quiet = 0;
	int64_t v;
	nxp_report_options ro;
	nxp_report_options_init(&ro);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return cli_help(REPORT_USAGE);
		if (!strcmp(a, "--force")) {
			ro.overwrite = 1;
		} else if (!strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (!strcmp(a, "--no-analysis")) {
			ro.analysis = 0;
		} else if (!strcmp(a, "--allow-mismatch")) {
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		} else if (a[0] == '-' && a[1]) {
			if (!val)
				return cli_bad_usage("report", REPORT_USAGE, "%s needs a value", a);
			i++;
			if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
				out = val;
			} else if (!strcmp(a, "--capture")) {
				capture = val;
			} else if (!strcmp(a, "--title")) {
				ro.title = val;
			} else if (!strcmp(a, "--arch")) {
				arch = val;
			} else if (!strcmp(a, "--columns")) {
				if (cli_parse_i64(val, &v) || v < 100 || v > 4000)
					return cli_bad_usage("report", REPORT_USAGE, "bad --columns '%s' (100..4000)", val);
				ro.columns = (int32_t)v;
			} else {
				return cli_bad_usage("report", REPORT_USAGE, "unknown option %s", a);
			}
		} else {
			if (npaths == 2)
				return cli_bad_usage("report", REPORT_USAGE, "too many paths ('%s')", a);
			paths[npaths++] = a;
		}
	}
	if (capture && npaths)
		return cli_bad_usage("report", REPORT_USAGE, "--capture DIR takes no NEFF/NTFF ('%s')", paths[0]);
	if (!capture && npaths != 2)
		return cli_bad_usage("report", REPORT_USAGE, "a NEFF and an NTFF (or --capture DIR) are needed");
	if (!out)
		return cli_bad_usage("report", REPORT_USAGE, "-o FILE.html is needed");
	nxp_hardware hw;
	memset(&hw, 0, sizeof(hw));
	hw.struct_size = sizeof(hw);
	if (arch) {
		if (nxp_hardware_for_arch(arch, &hw))
			return cli_bad_usage("report", REPORT_USAGE, "unknown --arch '%s' (trn1, inf2, trn2, trn3)", arch);
		ro.hw = &hw;
	}

	nxp_status st;
	nxp_status_init(&st);
	nxp_report_stats rs;
	memset(&rs, 0, sizeof(rs));
	rs.struct_size = sizeof(rs);
	int rc;
	if (capture) {
		int kind = 0;
		if (nxp_file_kind_detect(capture, &kind, &st))
			return cli_fail("report", "%s", st.message);
		if (kind != NXP_FILE_DIRECTORY)
			return cli_fail("report", "%s is %s, not a capture directory", capture, nxp_file_kind_name(kind));
		nxp_capture *c = NULL;
		if (nxp_capture_open(&c, capture, &st))
			return cli_error_output("report", &st);
		if (!ro.title) {
			const char *b = strrchr(capture, '/');
			ro.title = b && b[1] ? b + 1 : capture;
		}
		rc = nxp_capture_write_report(c, out, &ro, &rs, &st);
		nxp_capture_close(c);
	} else {
		nxp_profile *p = NULL;
		if (cli_open_profile("report", &p, paths[0], paths[1], &po))
			return 1;
		rc = nxp_profile_write_report(p, out, &ro, &rs, &st);
		if (!rc && !rs.read_errors && !rs.bad_records) /* (else the warning below says it) */
			cli_warn_damage("report", p);
		nxp_profile_close(p);
	}
	if (rc)
		return cli_error_output("report", &st);
	if (rs.read_errors || rs.bad_records)
		fprintf(stderr, "nxp report: warning: the trace is damaged (%d read error(s), %lld record(s) skipped); "
				"%s shows what could be read\n",
			(int)rs.read_errors, (long long)rs.bad_records, out);
	if (rs.critical_path_status && ro.analysis)
		fprintf(stderr, "nxp report: note: no critical path (%s)\n", nxp_strerror(rs.critical_path_status));
	if (rs.insights_status && ro.analysis)
		fprintf(stderr, "nxp report: note: no insights (%s)\n", nxp_strerror(rs.insights_status));
	if (!quiet)
		fprintf(stderr, "nxp report: %s: %lld bytes, %d sections, %d timeline rows, %d insights\n", out,
			(long long)rs.bytes, (int)rs.sections, (int)rs.timeline_rows, (int)rs.insight_count);
	return 0;
}
