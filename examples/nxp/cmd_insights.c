/* SPDX-License-Identifier: MIT */
/* `nxp insights NEFF NTFF [--json] [--arch A] [--allow-mismatch]`: the
 * rule-based findings of doc/insights.md, most severe first.  Public API only.
 *
 * JSON: a list of {"rule", "severity", "message", "recommendation",
 * "start_ts", "end_ts" (null when the finding has no time range),
 * "evidence": {name: value, ...}, "evidence_units": {name: unit, ...}}. */
#include "cli.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define USAGE                                                                                 \
	"nxp insights NEFF NTFF [--json] [--arch trn1|inf2|trn2|trn3] [--allow-mismatch]\n"  \
	"  rule-based findings (DMA-bound work, semaphore waits, a dominating resource on the\n" \
	"  critical path, throttling, small DMA transfers, spills, idle gaps), most severe first"

static void json_number(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == (double)(int64_t)v && fabs(v) < 9e15)
		fprintf(f, "%" PRId64, (int64_t)v);
	else
		fprintf(f, "%.17g", v);
}

static void json_ts(FILE *f, int64_t t)
{
	if (t == INT64_MIN)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, t);
}

void cli_insight_json(FILE *f, const nxp_insight *x)
{
	fputs("{\"rule\":", f);
	cli_json_string(f, x->rule);
	fputs(",\"severity\":", f);
	cli_json_string(f, x->severity);
	fputs(",\"message\":", f);
	cli_json_string(f, x->message);
	fputs(",\"recommendation\":", f);
	cli_json_string(f, x->recommendation);
	fputs(",\"start_ts\":", f);
	json_ts(f, x->start_ts);
	fputs(",\"end_ts\":", f);
	json_ts(f, x->end_ts);
	fputs(",\"evidence\":{", f);
	for (size_t k = 0; k < x->evidence_count; k++) {
		if (k)
			putc(',', f);
		cli_json_string(f, x->evidence[k].name);
		putc(':', f);
		json_number(f, x->evidence[k].value);
	}
	fputs("},\"evidence_units\":{", f);
	for (size_t k = 0; k < x->evidence_count; k++) {
		if (k)
			putc(',', f);
		cli_json_string(f, x->evidence[k].name);
		putc(':', f);
		cli_json_string(f, x->evidence[k].unit);
	}
	fputs("}}", f);
}

void cli_insight_text(FILE *f, const nxp_insight *x)
{
	fprintf(f, "[%s] %s: %s\n", x->severity, x->rule, x->message);
	if (x->recommendation && *x->recommendation)
		fprintf(f, "    recommendation: %s\n", x->recommendation);
	if (x->start_ts != INT64_MIN)
		fprintf(f, "    time: %" PRId64 " .. %" PRId64 " ns\n", x->start_ts, x->end_ts);
	for (size_t k = 0; k < x->evidence_count; k++)
		fprintf(f, "    %s = %.6g%s%s\n", x->evidence[k].name, x->evidence[k].value,
			*x->evidence[k].unit ? " " : "", x->evidence[k].unit);
}

int cmd_insights(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL};
	const char *arch = NULL;
	int json = 0, npaths = 0;
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--allow-mismatch"))
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		else if (!strcmp(argv[i], "--arch")) {
			if (i + 1 == argc)
				return cli_bad_usage("insights", USAGE, "--arch needs a value (trn1, inf2, trn2, trn3)");
			arch = argv[++i];
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_help(USAGE);
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_usage("insights", USAGE, "unknown option '%s'", argv[i]);
		else if (npaths == 2)
			return cli_bad_usage("insights", USAGE, "a NEFF and an NTFF: '%s' is a third file", argv[i]);
		else
			paths[npaths++] = argv[i];
	}
	if (npaths != 2)
		return cli_bad_usage("insights", USAGE, npaths ? "no NTFF given" : "no NEFF and NTFF given");
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	if (arch && nxp_hardware_for_arch(arch, &hw) != NXP_OK)
		return cli_bad_usage("insights", USAGE, "unknown --arch '%s' (known: trn1, inf2, trn2, trn3)", arch);

	nxp_profile *p = NULL;
	if (cli_open_profile("insights", &p, paths[0], paths[1], &po))
		return 1;
	nxp_status st;
	nxp_status_init(&st);
	nxp_insights *in = NULL;
	int rc = nxp_profile_insights(p, arch ? &hw : NULL, &in, &st);
	if (!rc)
		cli_warn_damage("insights", p);
	nxp_profile_close(p);
	if (rc)
		return cli_error_in("insights", paths[1], &st);
	size_t n = nxp_insights_count(in);
	if (json)
		putchar('[');
	else if (!n)
		puts("no findings");
	for (size_t k = 0; k < n; k++) {
		nxp_insight x = {.struct_size = sizeof(x)};
		if (nxp_insights_get(in, k, &x))
			continue;
		if (json) {
			if (k)
				putchar(',');
			cli_insight_json(stdout, &x);
		} else {
			cli_insight_text(stdout, &x);
		}
	}
	if (json)
		puts("]");
	nxp_insights_close(in);
	return 0;
}
