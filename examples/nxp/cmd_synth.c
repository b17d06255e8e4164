/* SPDX-License-Identifier: MIT */
/* `nxp synth`: write a synthetic but realistic NEFF/NTFF pair (see synth.h). */
#include "cli.h"
#include "synth.h"

#include <string.h>

static const char usage_text[] =
	"nxp synth --workload matmul|mlp --arch trn1|inf2|trn2|trn3 --seed N (-o PREFIX | --capture DIR [--ranks R])\n"
	"                 [--lnc 1|2] [--instructions N] [--m M --k K --n N] [--executions E] [--compress]\n"
	"  -o: writes PREFIX.neff and PREFIX.ntff\n"
	"  --capture: writes a capture directory (system profile, trace.json and one NEFF/NTFF pair\n"
	"             per rank; R ranks, default 2, seeds N, N+1, ...)\n"
	"  the same arguments give the same bytes";

static int want_u64(const char *opt, const char *val, uint64_t *out)
{
	int64_t v;
	if (!val || cli_parse_i64(val, &v) || v < 0) {
		fprintf(stderr, "nxp synth: %s needs a non-negative integer\n", opt);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int cmd_synth(int argc, char **argv)
{
	synth_params p;
	synth_params_init(&p);
	const char *prefix = NULL, *capture = NULL;
	int ranks = 2;
	int have_seed = 0, have_workload = 0, have_arch = 0, quiet = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t x;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("usage: %s\n", usage_text);
			return 0;
		} else if (!strcmp(a, "--compress")) {
			p.compress = 1;
			continue;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
			continue;
		}
		if (!v)
			return cli_usage(usage_text);
		i++;
		if (!strcmp(a, "--workload")) {
			p.workload = v;
			have_workload = 1;
		} else if (!strcmp(a, "--arch")) {
			p.arch = v;
			have_arch = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			prefix = v;
		} else if (!strcmp(a, "--capture")) {
			capture = v;
		} else if (!strcmp(a, "--ranks")) {
			if (want_u64(a, v, &x) || x < 1 || x > SYNTH_MAX_RANKS) {
				fprintf(stderr, "nxp synth: --ranks must be 1..%d\n", SYNTH_MAX_RANKS);
				return 2;
			}
			ranks = (int)x;
		} else if (!strcmp(a, "--seed")) {
			if (want_u64(a, v, &p.seed))
				return 2;
			have_seed = 1;
		} else if (!strcmp(a, "--lnc")) {
			if (want_u64(a, v, &x) || (x != 1 && x != 2)) {
				fprintf(stderr, "nxp synth: --lnc must be 1 or 2\n");
				return 2;
			}
			p.lnc = (int)x;
		} else if (!strcmp(a, "--instructions")) {
			if (want_u64(a, v, &p.instructions))
				return 2;
		} else if (!strcmp(a, "--executions")) {
			if (want_u64(a, v, &x) || x < 1 || x > 64) {
				fprintf(stderr, "nxp synth: --executions must be 1..64\n");
				return 2;
			}
			p.executions = (int)x;
		} else if (!strcmp(a, "--m") || !strcmp(a, "--k") || !strcmp(a, "--n")) {
			if (want_u64(a, v, &x) || !x) {
				fprintf(stderr, "nxp synth: %s must be a positive integer\n", a);
				return 2;
			}
			*(a[2] == 'm' ? &p.m : a[2] == 'k' ? &p.k : &p.n) = x;
		} else {
			fprintf(stderr, "nxp synth: unknown option '%s'\n", a);
			return cli_usage(usage_text);
		}
	}
	if (!!prefix == !!capture || !have_seed || !have_workload || !have_arch)
		return cli_usage(usage_text);

	nxp_status st;
	if (capture) {
		synth_capture_result cr;
		if (synth_capture_run(&p, capture, ranks, &cr, &st) < 0)
			return cli_error("synth", &st);
		if (!quiet)
			printf("wrote capture %s: %d ranks, %d device executions (%llu instructions), %llu runtime events, "
			       "%llu framework events; straggler rank %d (%.3f ms first to last execution)\n",
			       capture, cr.ranks, cr.executions, (unsigned long long)cr.device_instructions,
			       (unsigned long long)cr.runtime_events, (unsigned long long)cr.framework_events,
			       cr.straggler, (double)cr.slowest_ns / 1e6);
		return 0;
	}
	synth_result r;
	int rc = synth_run(&p, prefix, &r, &st);
	if (rc < 0)
		return cli_error("synth", &st);
	if (!quiet)
		printf("wrote %s.neff and %s.ntff: %llu instructions (%llu static x %llu iterations x %d executions), "
		       "%llu DMA packets, %llu semaphore updates, %llu other notifications, %.3f ms of device time\n",
		       prefix, prefix, (unsigned long long)r.instructions, (unsigned long long)r.body_instructions,
		       (unsigned long long)r.iterations, p.executions, (unsigned long long)r.dma_packets,
		       (unsigned long long)r.semaphore_updates, (unsigned long long)r.other_notes,
		       (double)r.total_ticks / 1e6);
	return 0;
}
