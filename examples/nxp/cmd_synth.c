/* SPDX-License-Identifier: MIT */
/* `nxp synth`: write a synthetic but realistic NEFF/NTFF pair (see synth.h). */
#include "cli.h"
#include "synth.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

static const char usage_text[] =
	"nxp synth --workload matmul|mlp --arch trn1|inf2|trn2|trn3 --seed N\n"
	"          (-o PREFIX | --capture DIR [--ranks R] [--force])\n"
	"          [--lnc 1|2] [--instructions N] [--m M --k K --n N] [--executions E] [--compress] [--quiet]\n"
	"  -o: writes PREFIX.neff and PREFIX.ntff\n"
	"  --capture: writes a capture directory (system profile, trace.json and one NEFF/NTFF pair\n"
	"             per rank; R ranks, default 2, seeds N, N+1, ...); a directory that is not\n"
	"             empty is refused unless --force (two captures would mix)\n"
	"  the same arguments give the same bytes";

static int want_u64(const char *opt, const char *val, uint64_t *out)
{
	int64_t v;
	if (!val || cli_parse_i64(val, &v) || v < 0) {
		fprintf(stderr, "nxp synth: %s needs a non-negative integer, not '%s'\n", opt, val ? val : "");
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/* 1 when `dir` exists and holds something (0 when absent or empty); -1 with a
 * message when it cannot be used as a capture directory at all. */
static int dir_in_use(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		cli_fail("synth", "%s: %s", dir, strerror(errno));
		return -1;
	}
	int used = 0;
	struct dirent *e;
	while (!used && (e = readdir(d)))
		used = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return used;
}

int cmd_synth(int argc, char **argv)
{
	synth_params p;
	synth_params_init(&p);
	const char *prefix = NULL, *capture = NULL;
	int ranks = 2;
	int have_seed = 0, have_workload = 0, have_arch = 0, quiet = 0, force = 0;
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
		} else if (!strcmp(a, "--force")) {
			force = 1;
			continue;
		}
		static const char *const with_value[] = {"--workload", "--arch", "-o",  "--output",       "--capture",
							 "--ranks",    "--seed", "--lnc", "--instructions", "--executions",
							 "--m",        "--k",    "--n"};
		size_t k = 0;
		while (k < sizeof(with_value) / sizeof(with_value[0]) && strcmp(a, with_value[k]))
			k++;
		if (k == sizeof(with_value) / sizeof(with_value[0]))
			return cli_bad_usage("synth", usage_text, a[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'",
					     a);
		if (!v)
			return cli_bad_usage("synth", usage_text, "%s needs a value", a);
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
		}
	}
	if (!have_workload || !have_arch || !have_seed)
		return cli_bad_usage("synth", usage_text, "--%s is required",
				     !have_workload ? "workload" : !have_arch ? "arch" : "seed");
	if (!!prefix == !!capture)
		return cli_bad_usage("synth", usage_text, prefix ? "-o and --capture exclude each other"
								: "give -o PREFIX or --capture DIR");
	if (capture && !force) {
		int used = dir_in_use(capture);
		if (used < 0)
			return 1;
		if (used)
			return cli_fail("synth", "%s is not empty: writing a capture into it would mix two captures "
						 "(--force to do it anyway)",
					capture);
	}

	nxp_status st;
	if (capture) {
		synth_capture_result cr;
		if (synth_capture_run(&p, capture, ranks, &cr, &st) < 0)
			return cli_error("synth", &st);
		if (!quiet)
			printf("wrote capture %s: %d rank%s, %d device executions (%llu instructions), %llu runtime events, "
			       "%llu framework events; straggler rank %d (%.3f ms first to last execution)\n",
			       capture, cr.ranks, cr.ranks == 1 ? "" : "s", cr.executions, (unsigned long long)cr.device_instructions,
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
