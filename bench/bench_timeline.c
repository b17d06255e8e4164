/* SPDX-License-Identifier: MIT */
/* Timeline export benchmark: export one profile as a Perfetto trace (with and
 * without flow arrows) and as Chrome JSON and report NTFF input MB/s, events/s, bytes per event, output size
 * relative to the NTFF, and peak RSS (each format in its own child process, so
 * the RSS figures are independent).
 *
 *   bench_timeline NEFF NTFF [--dir DIR]
 *
 * A large input: nxp synth --workload mlp --arch trn2 --lnc 2 --seed 1
 *                --instructions 2000000 -o /tmp/big */
#include <nxp/nxp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* CPU time (user+sys) of this process, every thread's: the machine may be
 * shared, so the main rates are per CPU-second.  Wall time is printed too: with
 * flow arrows the flow pass runs on a second thread when there is a second CPU
 * (NXP_THREADS=1: on the caller's), so wall and CPU then differ. */
static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run(const char *neff, const char *ntff, const char *out, int format, int flows)
{
	nxp_status st;
	nxp_status_init(&st);
	nxp_profile *p;
	if (nxp_profile_open_path(&p, neff, ntff, NULL, &st)) {
		fprintf(stderr, "bench_timeline: %s\n", st.message);
		return 1;
	}
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	o.format = format;
	o.overwrite = 1;
	o.gzip = 0;
	o.device_flows = flows;
	nxp_timeline_stats ts;
	memset(&ts, 0, sizeof(ts));
	ts.struct_size = sizeof(ts);
	double t0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
	int rc = nxp_profile_export_timeline(p, out, &o, &ts, &st);
	double dt = clock_s(CLOCK_PROCESS_CPUTIME_ID) - t0, wall = clock_s(CLOCK_MONOTONIC) - w0;
	nxp_profile_close(p);
	if (rc) {
		fprintf(stderr, "bench_timeline: %s\n", st.message);
		return 1;
	}
	struct stat sb;
	double in = stat(ntff, &sb) == 0 ? (double)sb.st_size : 0;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%-19s %8.3f s CPU  %8.1f MB/s NTFF  %7.3f s wall  %8.1f MB/s wall  %10.0f events/s  %6.1f B/event  "
	       "out %.2fx NTFF  %7lld flows  peak RSS %ld MiB\n",
	       format == NXP_TIMELINE_PERFETTO ? (flows ? "perfetto" : "perfetto --no-flows") : "chrome-json", dt, in / dt / 1e6,
	       wall, in / wall / 1e6,
	       (double)ts.events / dt, ts.events ? (double)ts.bytes / (double)ts.events : 0.0,
	       in > 0 ? (double)ts.bytes / in : 0.0, (long long)ts.flows, ru.ru_maxrss / 1024);
	unlink(out);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const char *paths[2] = {NULL, NULL};
	int n = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (n < 2)
			paths[n++] = argv[i];
	}
	if (n != 2) {
		fputs("usage: bench_timeline NEFF NTFF [--dir DIR]\n", stderr);
		return 2;
	}
	struct stat sb;
	if (stat(paths[1], &sb) == 0)
		printf("input %s: %.1f MB\n", paths[1], (double)sb.st_size / 1e6);
	/* 0: Perfetto with flow arrows (the default), 1: without, 2: Chrome JSON */
	for (int f = 0; f < 3; f++) {
		char out[4096];
		snprintf(out, sizeof(out), "%s/bench_timeline_%d.%s", dir, (int)getpid(), f == 2 ? "json" : "pftrace");
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0)
			_exit(run(paths[0], paths[1], out, f == 2 ? NXP_TIMELINE_CHROME_JSON : NXP_TIMELINE_PERFETTO, f == 0));
		int status = 0;
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
