/* SPDX-License-Identifier: MIT */
/* `nxp summary NEFF NTFF [--json] [--arch A] [--allow-mismatch] [--threads N]
 * [--from T] [--to T] [--execution N] [--pcore N]`: the Summary,
 * OpcodeSummary and ThrottleSummary of a profile.  Public API only.
 *
 * Text: grouped like the reference tool, percents shown x100 with "%", absent
 * fields shown as "n/a".  JSON: one flat object keyed by the field names
 * (absent fields omitted; percents as fractions) plus "opcode_summary" and
 * "throttle_summary" arrays. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                                   \
	"nxp summary NEFF NTFF [--json] [--arch trn1|inf2|trn2|trn3] [--allow-mismatch] [--threads N]\n" \
	"                      [--from T] [--to T] [--execution N] [--pcore N]\n"                       \
	"  summary metrics and the trace's first and last timestamps (text only);\n"                    \
	"  --arch: the hardware to compute MFU/HFU/MBU for (default: the one the NTFF names);\n"        \
	"  --threads: threads to read the profile with (default 0 = all cores; same figures);\n"       \
	"  --from/--to: a region: records starting in [from, to), busy time clipped to it; T in ns\n"   \
	"    as in the tables, or relative to the trace's first timestamp: +1.5ms, +200us, +10ns;\n"    \
	"  --execution: the region of ExecutionInfo row N (0 .. executions-1);\n"                       \
	"  --pcore: one physical core's records (0 .. cores-1)"

static const char *const groups[] = {"overall", "data movement", "tensor", "vector", "scalar",
				     "sync",    "gpsimd",        "collectives", "throttling"};

static void text_value(FILE *f, const nxp_summary_field *x)
{
	if (!x->present) {
		fputs("n/a", f);
		return;
	}
	if (!strcmp(x->unit, "percent")) {
		fprintf(f, "%.2f %%", x->f * 100.0);
	} else if (!strcmp(x->unit, "seconds")) {
		double v = x->f;
		if (v != 0.0 && v < 1e-3)
			fprintf(f, "%.3f us", v * 1e6);
		else if (v != 0.0 && v < 1.0)
			fprintf(f, "%.3f ms", v * 1e3);
		else
			fprintf(f, "%.6f s", v);
	} else if (x->kind == NXP_VALUE_INT) {
		fprintf(f, "%" PRId64 "%s%s", x->i, *x->unit ? " " : "", x->unit);
	} else {
		fprintf(f, "%.6g%s%s", x->f, *x->unit ? " " : "", x->unit);
	}
}

static void print_text(const nxp_summary *s, const nxp_metadata *md)
{
	FILE *f = stdout;
	char span[32];
	cli_format_duration(md->last_hw_timestamp - md->first_hw_timestamp, span, sizeof(span));
	fprintf(f, "trace: first timestamp %" PRId64 " ns, last %" PRId64 " ns (%s)\n", md->first_hw_timestamp,
		md->last_hw_timestamp, span);
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	if (nxp_summary_get_hardware(s, &hw) == NXP_OK)
		fprintf(f, "hardware: %s (peak %.2f TFLOP/s over %d physical NeuronCore%s, HBM %.0f GB/s per stack)\n",
			*hw.arch ? hw.arch : "custom", nxp_hardware_max_ops(&hw) / 1e12,
			hw.num_physical_cores > 1 ? hw.num_physical_cores : 1, hw.num_physical_cores > 1 ? "s" : "",
			hw.hbm_bandwidth / 1e9);
	else
		fputs("hardware: unknown (hardware-dependent metrics are n/a; use --arch)\n", f);
	size_t n = nxp_summary_field_count(s);
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		fprintf(f, "\n%s\n", groups[g]);
		int any = 0;
		for (size_t k = 0; k < n; k++) {
			nxp_summary_field x = {.struct_size = sizeof(x)};
			if (nxp_summary_get_field(s, k, &x) || strcmp(x.group, groups[g]))
				continue;
			fprintf(f, "  %-44s ", x.name);
			text_value(f, &x);
			putc('\n', f);
			any = 1;
		}
		if (!strcmp(groups[g], "throttling")) {
			size_t nt = nxp_summary_throttle_count(s);
			for (size_t k = 0; k < nt; k++) {
				nxp_throttle_summary t = {.struct_size = sizeof(t)};
				if (nxp_summary_get_throttle(s, k, &t))
					continue;
				fprintf(f, "  nc %d %-12s active %.3f us (%.2f %%), max achievable utilisation %.2f %%\n",
					t.nc_idx, t.throttle_type, (double)t.throttle_active_time_ns / 1e3,
					t.throttle_active_time_percent * 100.0,
					t.max_achievable_util_with_throttling_percent * 100.0);
			}
			any |= nt > 0;
		}
		if (!any)
			fputs("  (none)\n", f);
	}
	size_t no = nxp_summary_opcode_count(s);
	fprintf(f, "\nopcodes\n  %-8s %-28s %12s %16s %16s %9s\n", "engine", "opcode", "count", "time_ns", "active_ns",
		"active");
	for (size_t k = 0; k < no; k++) {
		nxp_opcode_summary o = {.struct_size = sizeof(o)};
		if (nxp_summary_get_opcode(s, k, &o))
			continue;
		fprintf(f, "  %-8s %-28s %12" PRId64 " %16" PRId64 " %16" PRId64 " %8.2f%%\n", o.engine, o.opcode,
			o.instruction_count, o.instruction_time_ns, o.active_time_ns, o.active_time_percent * 100.0);
	}
}

static void print_json(const nxp_summary *s)
{
	FILE *f = stdout;
	putc('{', f);
	int first = 1;
	size_t n = nxp_summary_field_count(s);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field x = {.struct_size = sizeof(x)};
		if (nxp_summary_get_field(s, k, &x) || !x.present)
			continue;
		fprintf(f, "%s\"%s\":", first ? "" : ",", x.name);
		if (x.kind == NXP_VALUE_INT)
			fprintf(f, "%" PRId64, x.i);
		else
			fprintf(f, "%.17g", x.f);
		first = 0;
	}
	fprintf(f, "%s\"opcode_summary\":[", first ? "" : ",");
	for (size_t k = 0; k < nxp_summary_opcode_count(s); k++) {
		nxp_opcode_summary o = {.struct_size = sizeof(o)};
		if (nxp_summary_get_opcode(s, k, &o))
			continue;
		fputs(k ? ",{\"engine\":" : "{\"engine\":", f);
		cli_json_string(f, o.engine);
		fputs(",\"opcode\":", f);
		cli_json_string(f, o.opcode);
		fprintf(f,
			",\"instruction_count\":%" PRId64 ",\"instruction_time_ns\":%" PRId64
			",\"active_time_ns\":%" PRId64 ",\"active_time_percent\":%.17g}",
			o.instruction_count, o.instruction_time_ns, o.active_time_ns, o.active_time_percent);
	}
	fputs("],\"throttle_summary\":[", f);
	for (size_t k = 0; k < nxp_summary_throttle_count(s); k++) {
		nxp_throttle_summary t = {.struct_size = sizeof(t)};
		if (nxp_summary_get_throttle(s, k, &t))
			continue;
		fprintf(f, "%s{\"nc_idx\":%d,\"throttle_type\":", k ? "," : "", t.nc_idx);
		cli_json_string(f, t.throttle_type);
		fprintf(f,
			",\"throttle_active_time_ns\":%" PRId64
			",\"throttle_active_time_percent\":%.17g,\"max_achievable_util_with_throttling_percent\":%.17g}",
			t.throttle_active_time_ns, t.throttle_active_time_percent,
			t.max_achievable_util_with_throttling_percent);
	}
	fputs("]}\n", f);
}

/* Number of ExecutionInfo rows' distinct indices: 1 + the largest index (-1 on failure). */
static int64_t execution_count(nxp_profile *p)
{
	nxp_cursor *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_cursor_open(&c, p, NXP_TABLE_EXECUTION, NULL, &st))
		return -1;
	nxp_execution x = {.struct_size = sizeof(x)};
	int64_t n = 0;
	int rc;
	while ((rc = nxp_cursor_next_execution(c, &x)) == NXP_OK)
		if (x.execution_index >= n)
			n = (int64_t)x.execution_index + 1;
	nxp_cursor_close(c);
	return rc < 0 ? -1 : n;
}

/* Check the region arguments against the profile and put them in `so`:
 * 0, or the command's exit status after a message. */
static int region_options(nxp_profile *p, const nxp_metadata *md, const char *from_arg, int64_t from, int from_rel,
			  const char *to_arg, int64_t to, int to_rel, int64_t pcore, int64_t execution,
			  nxp_summary_options *so)
{
	const int cores = md->num_physical_cores > 0 ? md->num_physical_cores : 1;
	if (pcore >= cores)
		return cli_bad_usage("summary", USAGE, "--pcore %" PRId64 ": this profile has %d physical core%s (0..%d)",
				     pcore, cores, cores == 1 ? "" : "s", cores - 1);
	if (execution >= 0) {
		int64_t n = execution_count(p);
		if (n == 0)
			return cli_bad_usage("summary", USAGE,
					     "--execution %" PRId64 ": this profile has no ExecutionInfo rows", execution);
		if (n > 0 && execution >= n)
			return cli_bad_usage("summary", USAGE,
					     "--execution %" PRId64 ": this profile has %" PRId64 " execution%s (0..%" PRId64
					     ")",
					     execution, n, n == 1 ? "" : "s", n - 1);
	}
	/* Relative times count from the trace's first timestamp (as nxp dump). */
	if (from_rel)
		from = md->first_hw_timestamp > INT64_MAX - from ? INT64_MAX : md->first_hw_timestamp + from;
	if (to_rel)
		to = md->first_hw_timestamp > INT64_MAX - to ? INT64_MAX : md->first_hw_timestamp + to;
	if (from_arg && to_arg && from >= to)
		return cli_bad_usage("summary", USAGE,
				     "--from %s (%" PRId64 " ns) is not before --to %s (%" PRId64 " ns): the window is empty",
				     from_arg, from, to_arg, to);
	if ((from_arg && from == INT64_MAX) || (to_arg && to == INT64_MIN))
		return cli_bad_usage("summary", USAGE, "the window is empty");
	so->start_ts = from;
	so->end_ts = to;
	so->pcore_idx = pcore;
	so->execution_index = (int32_t)execution;
	return 0;
}

int cmd_summary(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL};
	const char *arch = NULL;
	int json = 0, npaths = 0, from_rel = 0, to_rel = 0;
	const char *from_arg = NULL, *to_arg = NULL;
	int64_t from = INT64_MIN, to = INT64_MAX, pcore = -1, execution = -1;
	nxp_summary_options so;
	nxp_summary_options_init(&so);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--allow-mismatch"))
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		else if (!strcmp(argv[i], "--arch")) {
			if (i + 1 == argc)
				return cli_bad_usage("summary", USAGE, "--arch needs a value (trn1, inf2, trn2, trn3)");
			arch = argv[++i];
		} else if (!strcmp(argv[i], "--threads")) {
			char *end = NULL;
			long n = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
			if (i + 1 == argc || !end || *end || end == argv[i + 1] || n < 0 || n > 4096)
				return cli_bad_usage("summary", USAGE, "--threads needs a count (0 = all cores)");
			so.threads = (int32_t)n;
			i++;
		} else if (!strcmp(argv[i], "--from") || !strcmp(argv[i], "--to")) {
			int to_opt = argv[i][2] == 't';
			if (i + 1 == argc)
				return cli_bad_usage("summary", USAGE, "%s needs a time (ns, or +N[.M] with ns, us, ms or s)",
						     argv[i]);
			const char *v = argv[++i];
			if (cli_parse_time(v, to_opt ? &to : &from, to_opt ? &to_rel : &from_rel))
				return cli_bad_usage("summary", USAGE, "bad %s '%s': ns, or +N[.M] with ns, us, ms or s",
						     to_opt ? "--to" : "--from", v);
			*(to_opt ? &to_arg : &from_arg) = v;
		} else if (!strcmp(argv[i], "--pcore") || !strcmp(argv[i], "--execution")) {
			int is_pcore = argv[i][2] == 'p';
			int64_t v = -1;
			if (i + 1 == argc || cli_parse_i64(argv[i + 1], &v) || v < 0 || v > INT32_MAX)
				return cli_bad_usage("summary", USAGE, "%s needs an index, 0 or more", argv[i]);
			*(is_pcore ? &pcore : &execution) = v;
			i++;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_help(USAGE);
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_usage("summary", USAGE, "unknown option '%s'", argv[i]);
		else if (npaths == 2)
			return cli_bad_usage("summary", USAGE, "a NEFF and an NTFF: '%s' is a third file", argv[i]);
		else
			paths[npaths++] = argv[i];
	}
	if (npaths != 2)
		return cli_bad_usage("summary", USAGE, npaths ? "no NTFF given" : "no NEFF and NTFF given");

	nxp_status st;
	nxp_status_init(&st);
	nxp_hardware hw = {.struct_size = sizeof(hw)};
	if (arch && nxp_hardware_for_arch(arch, &hw) != NXP_OK)
		return cli_bad_usage("summary", USAGE, "unknown --arch '%s' (known: trn1, inf2, trn2, trn3)", arch);
	nxp_profile *p = NULL;
	if (cli_open_profile("summary", &p, paths[0], paths[1], &po))
		return 1;
	nxp_metadata md = {.struct_size = sizeof(md)};
	nxp_summary *s = NULL;
	int rc = nxp_profile_get_metadata(p, &md);
	if (rc) {
		nxp_profile_error(p, &st);
		nxp_profile_close(p);
		return cli_error("summary", &st);
	}
	int status = region_options(p, &md, from_arg, from, from_rel, to_arg, to, to_rel, pcore, execution, &so);
	if (status) {
		nxp_profile_close(p);
		return status;
	}
	so.hw = arch ? &hw : NULL;
	rc = nxp_profile_summarize_opts(p, &so, &s, &st);
	if (!rc)
		cli_warn_damage("summary", p); /* the figures leave out what was skipped */
	nxp_profile_close(p);
	if (rc)
		return cli_error("summary", &st);
	if (json)
		print_json(s);
	else
		print_text(s, &md);
	nxp_summary_close(s);
	return 0;
}
