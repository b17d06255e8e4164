/* SPDX-License-Identifier: MIT */
/* `nxp export NEFF NTFF --format perfetto|chrome-json -o FILE`: the device
 * profile as a timeline (nxp_profile_export_timeline).  Reached from
 * `nxp export` when --format names a timeline format. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define TL_USAGE                                                                                      \
	"nxp export NEFF NTFF --format perfetto|chrome-json -o FILE [--from T] [--to T]\n"          \
	"      [--engine E] [--execution N] [--max-events N] [--window NS] [--no-flows] [--force]\n" \
	"      [--compress] [--quiet] [--allow-mismatch]\n"                                          \
	"      the device profile as a timeline: a Perfetto trace (open FILE in ui.perfetto.dev),\n"  \
	"      or Chrome JSON (FILE ending in .gz is gzip'd); T in ns or +1.5ms from the trace\n"     \
	"      start; --engine: only that engine's instructions; --execution N: only its time;\n"     \
	"      --max-events: stop after N events (noted in the trace and here); --window: the\n"      \
	"      sampling window of the utilisation and throughput counters; --no-flows: no\n"        \
	"      semaphore arrows (they are drawn for a whole-profile Perfetto export by a second\n"  \
	"      pass, on a second core when there is one, and cost ~2/3 more CPU); --compress:\n"   \
	"      Perfetto packets deflated in compressed_packets bundles (about 1/6 of the size,\n"  \
	"      more CPU; read by ui.perfetto.dev and trace_processor), Chrome JSON gzip'd\n"       \
	"  nxp export --capture DIR --format perfetto -o OUTDIR [--combined] [--no-flows]\n"        \
	"      [--compress] [--force] [--quiet]\n"                                                  \
	"      [--system-trace-primary-group F,...] [--system-trace-secondary-group F,...]\n"        \
	"      OUTDIR/device_profile_<NTFF name>.pftrace per device profile and\n"                   \
	"      OUTDIR/system_profile.pftrace (system events as slices, CPU and memory counters,\n"   \
	"      flow_id links as flow arrows); rows grouped into process tracks by the primary\n"    \
	"      fields (default instance_id,process_id) and into tracks under them by the\n"         \
	"      secondary fields (default worker_gid,lnc_idx,thread_id); --combined also writes\n"   \
	"      OUTDIR/combined_profile.pftrace: the system rows and every device profile on host\n" \
	"      time (clock map), with an arrow from each nrt_execute to its device execution\n"

int cmd_export_timeline(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL}, *out = NULL, *format = NULL, *capture = NULL;
	int npaths = 0, quiet = 0, from_rel = 0, to_rel = 0;
	int64_t from = INT64_MIN, to = INT64_MAX, v;
	nxp_timeline_options to_opts;
	nxp_timeline_options_init(&to_opts);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return cli_help(TL_USAGE);
		if (!strcmp(a, "--force")) {
			to_opts.overwrite = 1;
		} else if (!strcmp(a, "--combined")) {
			to_opts.combined = 1;
		} else if (!strcmp(a, "--no-flows")) {
			to_opts.device_flows = 0;
		} else if (!strcmp(a, "--compress")) {
			to_opts.gzip = 1;
		} else if (!strcmp(a, "--quiet")) {
			quiet = 1;
		} else if (!strcmp(a, "--allow-mismatch")) {
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		} else if (a[0] == '-' && a[1]) {
			if (!val)
				return cli_bad_usage("export", TL_USAGE, "%s needs a value", a);
			i++;
			if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
				out = val;
			} else if (!strcmp(a, "--format")) {
				format = val;
			} else if (!strcmp(a, "--capture")) {
				capture = val;
			} else if (!strcmp(a, "--system-trace-primary-group")) {
				to_opts.system_primary_group = val;
			} else if (!strcmp(a, "--system-trace-secondary-group")) {
				to_opts.system_secondary_group = val;
			} else if (!strcmp(a, "--from")) {
				if (cli_parse_time(val, &from, &from_rel))
					return cli_bad_usage("export", TL_USAGE, "bad time '%s'", val);
			} else if (!strcmp(a, "--to")) {
				if (cli_parse_time(val, &to, &to_rel))
					return cli_bad_usage("export", TL_USAGE, "bad time '%s'", val);
			} else if (!strcmp(a, "--engine")) {
				if ((to_opts.engine = nxp_engine_from_name(val)) < 0)
					return cli_bad_usage("export", TL_USAGE, "unknown engine '%s'", val);
			} else if (!strcmp(a, "--execution")) {
				if (cli_parse_i64(val, &v) || v < 0 || v > INT32_MAX)
					return cli_bad_usage("export", TL_USAGE, "bad execution index '%s'", val);
				to_opts.execution = (int32_t)v;
			} else if (!strcmp(a, "--max-events")) {
				if (cli_parse_i64(val, &v) || v <= 0)
					return cli_bad_usage("export", TL_USAGE, "bad --max-events '%s'", val);
				to_opts.max_events = v;
			} else if (!strcmp(a, "--window")) {
				if (cli_parse_i64(val, &v) || v <= 0)
					return cli_bad_usage("export", TL_USAGE, "bad --window '%s' (ns)", val);
				to_opts.counter_window_ns = v;
			} else {
				return cli_bad_usage("export", TL_USAGE, "unknown option %s", a);
			}
		} else {
			if (npaths == 2)
				return cli_bad_usage("export", TL_USAGE, "too many paths ('%s')", a);
			paths[npaths++] = a;
		}
	}
	if (!format || !strcmp(format, "perfetto"))
		to_opts.format = NXP_TIMELINE_PERFETTO;
	else if (!strcmp(format, "chrome-json"))
		to_opts.format = NXP_TIMELINE_CHROME_JSON;
	else
		return cli_bad_usage("export", TL_USAGE, "unknown --format '%s' (perfetto, chrome-json)", format);
	if (!capture && (to_opts.combined || to_opts.system_primary_group || to_opts.system_secondary_group))
		return cli_bad_usage("export", TL_USAGE,
				     "--combined and --system-trace-*-group need --capture DIR");
	if (capture) {
		if (npaths)
			return cli_bad_usage("export", TL_USAGE, "--capture takes no NEFF/NTFF ('%s')", paths[0]);
		if (!out)
			return cli_bad_usage("export", TL_USAGE, "-o OUTDIR is needed");
		if (to_opts.format != NXP_TIMELINE_PERFETTO)
			return cli_bad_usage("export", TL_USAGE, "--capture writes --format perfetto only");
		if (from != INT64_MIN || to != INT64_MAX || to_opts.engine >= 0 || to_opts.execution >= 0)
			return cli_bad_usage("export", TL_USAGE,
					     "--capture takes no --from/--to/--engine/--execution (one profile's options)");
		nxp_status st;
		nxp_status_init(&st);
		nxp_timeline_stats ts;
		memset(&ts, 0, sizeof(ts));
		ts.struct_size = sizeof(ts);
		if (nxp_capture_export_timeline(capture, out, &to_opts, &ts, &st))
			return cli_error_output("export", &st);
		if (ts.truncated)
			fprintf(stderr, "nxp export: note: --max-events %lld reached in a device profile\n",
				(long long)to_opts.max_events);
		if (ts.read_errors || ts.bad_records || ts.skipped_sections)
			fprintf(stderr,
				"nxp export: warning: damaged device profiles: %d table(s) stopped on a read error, "
				"%lld record(s) and %lld section(s) skipped\n",
				(int)ts.read_errors, (long long)ts.bad_records, (long long)ts.skipped_sections);
		if (ts.unplaced_profiles)
			fprintf(stderr,
				"nxp export: warning: %lld device profile(s) left out of combined_profile.pftrace: "
				"no timestamp_sync_point for their NeuronCore (no host time)\n",
				(long long)ts.unplaced_profiles);
		if (!quiet)
			fprintf(stderr, "nxp export: %s: %lld events on %lld tracks, %lld flows, %lld bytes\n", out,
				(long long)ts.events, (long long)ts.tracks, (long long)ts.flows, (long long)ts.bytes);
		return 0;
	}
	if (npaths != 2)
		return cli_bad_usage("export", TL_USAGE, "a NEFF and an NTFF are needed");
	if (!out)
		return cli_bad_usage("export", TL_USAGE, "-o FILE is needed");

	nxp_profile *p = NULL;
	if (cli_open_profile("export", &p, paths[0], paths[1], &po))
		return 1;
	nxp_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	nxp_profile_get_metadata(p, &md);
	if (from_rel)
		from = md.first_hw_timestamp > INT64_MAX - from ? INT64_MAX : md.first_hw_timestamp + from;
	if (to_rel)
		to = md.first_hw_timestamp > INT64_MAX - to ? INT64_MAX : md.first_hw_timestamp + to;
	to_opts.start_ts = from;
	to_opts.end_ts = to;
	if (from > to) {
		nxp_profile_close(p);
		return cli_bad_usage("export", TL_USAGE, "--from is after --to");
	}

	nxp_status st;
	nxp_status_init(&st);
	nxp_timeline_stats ts;
	memset(&ts, 0, sizeof(ts));
	ts.struct_size = sizeof(ts);
	int rc = nxp_profile_export_timeline(p, out, &to_opts, &ts, &st);
	nxp_profile_close(p);
	if (rc)
		return cli_error_output("export", &st);
	if (ts.truncated)
		fprintf(stderr,
			"nxp export: note: --max-events %lld reached; %s stops early (narrow the time with "
			"--from/--to or --execution, or raise --max-events)\n",
			(long long)to_opts.max_events, out);
	if (ts.read_errors || ts.bad_records || ts.skipped_sections)
		fprintf(stderr,
			"nxp export: warning: the trace is damaged: %d table(s) stopped on a read error, %lld "
			"record(s) and %lld section(s) skipped; %s holds what could be read\n",
			(int)ts.read_errors, (long long)ts.bad_records, (long long)ts.skipped_sections, out);
	if (!quiet)
		fprintf(stderr, "nxp export: %s: %lld events on %lld tracks, %lld bytes\n", out, (long long)ts.events,
			(long long)ts.tracks, (long long)ts.bytes);
	return 0;
}
