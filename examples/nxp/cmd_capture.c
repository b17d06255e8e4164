/* SPDX-License-Identifier: MIT */
/* `nxp capture DIR`: overview of a capture directory — instances, processes,
 * NeuronCores, device profiles (MFU, HFU, MBU, total time) and framework /
 * runtime event counts, then the problems found.  Public API only. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                                   \
	"nxp capture DIR\n"                                                                         \
	"  overview of a capture directory: instances, processes, NeuronCores, device profiles\n" \
	"  (MFU, HFU, MBU, total time), runtime and framework event counts, problems found"
#define MAX_NC 4096

/* Summary field as text ("n/a" when absent). */
static void field(nxp_summary *s, const char *name, int percent, char *out, size_t n)
{
	nxp_summary_field f;
	f.struct_size = sizeof(f);
	if (!s || nxp_summary_find(s, name, &f) || !f.present)
		snprintf(out, n, "n/a");
	else if (percent)
		snprintf(out, n, "%.2f%%", f.f * 100.0);
	else if (f.f < 1e-3)
		snprintf(out, n, "%.1f us", f.f * 1e6);
	else if (f.f < 1.0)
		snprintf(out, n, "%.3f ms", f.f * 1e3);
	else
		snprintf(out, n, "%.3f s", f.f);
}

/* A path inside the capture directory, shown relative to it. */
static const char *rel(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : path;
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case NXP_SYSFILE_NTRACE: return "ntrace.pb";
	case NXP_SYSFILE_TRACE_INFO: return "trace_info.pb";
	case NXP_SYSFILE_CPU_UTIL: return "cpu_util.pb";
	case NXP_SYSFILE_HOST_MEM: return "host_mem.pb";
	case NXP_SYSFILE_TRACE_JSON: return "trace.json";
	case NXP_SYSFILE_NEFF: return "neff";
	case NXP_SYSFILE_NTFF: return "ntff";
	}
	return "?";
}

static const char *pairing_name(int p)
{
	switch (p) {
	case NXP_PAIRED_BY_UUID: return "uuid";
	case NXP_PAIRED_BY_NAME: return "file name";
	case NXP_PAIRED_SOLE: return "only NEFF";
	}
	return "unpaired";
}

int cmd_capture(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_help(USAGE);
		if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_usage("capture", USAGE, "unknown option '%s'", argv[i]);
	}
	if (argc != 2)
		return cli_bad_usage("capture", USAGE, argc < 2 ? "no capture directory given" : "one directory only");
	nxp_status st;
	nxp_status_init(&st);
	int kind;
	if (nxp_file_kind_detect(argv[1], &kind, &st))
		return cli_fail("capture", "%s", st.message);
	if (kind != NXP_FILE_DIRECTORY)
		return cli_fail("capture", "%s is %s, not a capture directory%s", argv[1], nxp_file_kind_name(kind),
				kind == NXP_FILE_NEFF || kind == NXP_FILE_NTFF ? " (for one profile: nxp summary NEFF NTFF)"
				: kind == NXP_FILE_PROTOBUF || kind == NXP_FILE_JSON || kind == NXP_FILE_JSON_GZIP
					? " (for one file: nxp dump --system FILE)"
					: "");
	nxp_capture *cap;
	if (nxp_capture_open(&cap, argv[1], &st))
		return cli_error("capture", &st);
	int status = 0;
	size_t np = nxp_capture_process_count(cap);

	/* Instances. */
	printf("capture %s\n", argv[1]);
	printf("instances:");
	for (size_t i = 0; i < np; i++) {
		nxp_capture_process p, q;
		p.struct_size = q.struct_size = sizeof(p);
		nxp_capture_get_process(cap, i, &p);
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++) {
			nxp_capture_get_process(cap, j, &q);
			seen = !strcmp(p.instance_id, q.instance_id);
		}
		if (!seen)
			printf(" %s", p.instance_id[0] ? p.instance_id : "(unnamed)");
	}
	printf("\n\nprocesses: %zu\n", np);

	/* Per process: files and event counts. */
	static uint8_t nc_seen[MAX_NC];
	memset(nc_seen, 0, sizeof(nc_seen));
	for (size_t i = 0; i < np; i++) {
		nxp_capture_process p;
		p.struct_size = sizeof(p);
		nxp_capture_get_process(cap, i, &p);
		printf("  [%zu] %s pid %" PRId64 "%s%s  %s\n", i, p.instance_id[0] ? p.instance_id : "-", p.pid,
		       p.timestamp[0] ? " at " : "", p.timestamp, p.dir);
		printf("      files:");
		int64_t idx[] = {p.ntrace, p.trace_info, p.cpu_util, p.host_mem, p.trace_json};
		const char *names[] = {"ntrace.pb", "trace_info.pb", "cpu_util.pb", "host_mem.pb", "trace.json"};
		for (int k = 0; k < 5; k++)
			printf(" %s%s", idx[k] >= 0 ? "" : "-", names[k]);
		putchar('\n');
		nxp_system_events *c;
		nxp_status est;
		nxp_status_init(&est);
		if (p.ntrace < 0 && p.trace_json < 0)
			continue;
		if (nxp_capture_open_events(cap, (int64_t)i, NULL, &c, &est)) {
			printf("      events: error: %s\n", est.message);
			status = 1;
			continue;
		}
		nxp_system_event e;
		e.struct_size = sizeof(e);
		int rc;
		while ((rc = nxp_system_events_next(c, &e)) == NXP_OK)
			if (e.nc_idx >= 0 && e.nc_idx < MAX_NC)
				nc_seen[e.nc_idx] = 1;
		nxp_system_stats s;
		s.struct_size = sizeof(s);
		nxp_system_events_get_stats(c, &s);
		printf("      events: runtime %" PRId64 " (neuron_rt %" PRId64 ", neuron_hw %" PRId64 "), framework %" PRId64
		       ", unmatched start/stop %" PRId64 "/%" PRId64 "\n",
		       s.neuron_rt + s.neuron_hw, s.neuron_rt, s.neuron_hw, s.framework, s.unmatched_starts,
		       s.unmatched_stops);
		if (rc != NXP_END) {
			nxp_system_events_error(c, &est);
			printf("      events: error: %s (byte offset %" PRId64 ")\n", est.message, est.offset);
			status = 1;
		}
		nxp_system_events_close(c);
	}

	/* NeuronCores: from runtime events and from the device profiles' names. */
	size_t nprof = nxp_capture_profile_count(cap);
	for (size_t i = 0; i < nprof; i++) {
		nxp_capture_profile pr;
		pr.struct_size = sizeof(pr);
		nxp_capture_get_profile(cap, i, &pr);
		if (pr.nc_idx >= 0 && pr.nc_idx < MAX_NC)
			nc_seen[pr.nc_idx] = 1;
	}
	printf("\nneuroncores:");
	int any = 0;
	for (int i = 0; i < MAX_NC; i++)
		if (nc_seen[i]) {
			printf(" %d", i);
			any = 1;
		}
	printf("%s\n", any ? "" : " (none seen)");

	/* Device profiles with their headline metrics. */
	printf("\ndevice profiles: %zu\n", nprof);
	if (nprof)
		printf("  %-4s %-10s %-10s %-10s %-10s %-12s %s\n", "#", "MFU", "HFU", "MBU", "total_time", "paired by",
		       "NTFF / NEFF");
	for (size_t i = 0; i < nprof; i++) {
		nxp_capture_profile pr;
		pr.struct_size = sizeof(pr);
		nxp_capture_get_profile(cap, i, &pr);
		nxp_capture_file nf, tf;
		nf.struct_size = tf.struct_size = sizeof(nf);
		nxp_capture_get_file(cap, (size_t)pr.ntff, &tf);
		int has_neff = pr.neff >= 0 && nxp_capture_get_file(cap, (size_t)pr.neff, &nf) == NXP_OK;
		char mfu[32], hfu[32], mbu[32], tt[32];
		nxp_summary *sum = NULL;
		nxp_profile *prof = NULL;
		nxp_status pst;
		nxp_status_init(&pst);
		const char *err = NULL;
		if (!has_neff)
			err = "no NEFF";
		else if (nxp_capture_open_profile(cap, i, NULL, &prof, &pst) ||
			 nxp_profile_summarize(prof, NULL, &sum, &pst))
			err = pst.message;
		field(sum, "mfu_estimated_percent", 1, mfu, sizeof(mfu));
		field(sum, "hfu_estimated_percent", 1, hfu, sizeof(hfu));
		field(sum, "mbu_estimated_percent", 1, mbu, sizeof(mbu));
		field(sum, "total_time", 0, tt, sizeof(tt));
		printf("  %-4zu %-10s %-10s %-10s %-10s %-12s %s / %s\n", i, mfu, hfu, mbu, tt, pairing_name(pr.pairing),
		       rel(argv[1], tf.path), has_neff ? rel(argv[1], nf.path) : "-");
		if (err)
			printf("       error: %s\n", err);
		nxp_summary_close(sum);
		nxp_profile_close(prof);
	}

	size_t nf = nxp_capture_file_count(cap);
	size_t counts[8] = {0};
	for (size_t i = 0; i < nf; i++) {
		nxp_capture_file f;
		f.struct_size = sizeof(f);
		nxp_capture_get_file(cap, i, &f);
		if (f.kind >= 0 && f.kind < 8)
			counts[f.kind]++;
	}
	printf("\nfiles: %zu (", nf);
	for (int k = 1, first = 1; k < 8; k++)
		if (counts[k]) {
			printf("%s%zu %s", first ? "" : ", ", counts[k], kind_name(k));
			first = 0;
		}
	printf(")\n");
	size_t nprob = nxp_capture_problem_count(cap);
	printf("problems: %zu\n", nprob);
	for (size_t i = 0; i < nprob; i++)
		printf("  - %s\n", nxp_capture_problem(cap, i));
	nxp_capture_close(cap);
	return status;
}
