/* SPDX-License-Identifier: MIT */
/* bench_system [--mib N] [--dir D]: write an N MiB (default 500) synthetic
 * ntrace.pb with the streaming writer (never built in memory), then read it
 * back with the system-event cursor (START/STOP pairing on) and report
 * events/s, MB/s, the `cat` rate of the same file, and peak RSS before and
 * after the read (getrusage): memory must stay flat whatever the size. */
#include <nxp/nxp.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_rss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static const char *const names[] = {"nrt_execute", "kbl_exec_pre", "kmgr_exec_core", "nc_exec_running",
				    "dmem_buf_copyin", "nrt_tensor_read"};

int main(int argc, char **argv)
{
	long mib = 500;
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mib") && i + 1 < argc)
			mib = atol(argv[++i]);
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/bench_system_%d_ntrace.pb", dir, (int)getpid());
	uint64_t target = (uint64_t)mib << 20;

	/* Write: START/STOP pairs with a couple of attributes, interleaved over 4 threads. */
	double t0 = now();
	nxp_sysprof_writer_options wo;
	nxp_sysprof_writer_options_init(&wo);
	wo.pid = 1234;
	wo.instance_id = "i-0bench";
	nxp_sysprof_writer *w;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_sysprof_writer_open(&w, path, NXP_SYSFILE_NTRACE, &wo, &st)) {
		fprintf(stderr, "bench_system: %s\n", st.message);
		return 1;
	}
	uint64_t written = 0, nev = 0;
	int64_t ts = 1700000000000000000LL;
	char seq[32];
	const char *attrs[] = {"model", "bert-large", "seq", seq};
	while (written < target) {
		for (int k = 0; k < 4096; k++, nev++) {
			nxp_ntrace_event e;
			nxp_ntrace_event_init(&e);
			uint64_t pair = nev / 2;
			e.timestamp = ts + (int64_t)nev * 100;
			e.name = (nev & 1) ? NULL : names[pair % 6];
			e.phase = (nev & 1) ? NXP_NTRACE_PHASE_STOP : NXP_NTRACE_PHASE_START;
			e.tracking_id = (int64_t)pair;
			e.thread_id = (int64_t)(pair % 4);
			e.nc_idx = (int64_t)(pair % 8);
			e.id = (int64_t)nev;
			snprintf(seq, sizeof(seq), "%llu", (unsigned long long)pair);
			e.attributes = attrs;
			e.n_attributes = (nev & 1) ? 0 : 2;
			if (nxp_sysprof_writer_event(w, &e)) {
				nxp_sysprof_writer_error(w, &st);
				fprintf(stderr, "bench_system: %s\n", st.message);
				return 1;
			}
		}
		struct stat sb;
		fflush(NULL);
		written = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : written + 4096 * 40;
	}
	if (nxp_sysprof_writer_finish(w)) {
		fprintf(stderr, "bench_system: write failed\n");
		return 1;
	}
	nxp_sysprof_writer_close(w);
	struct stat sb;
	stat(path, &sb);
	double wsec = now() - t0;
	long rss_after_write = peak_rss_kib();

	/* cat rate of the same file (page cache warm after the write). */
	t0 = now();
	int fd = open(path, O_RDONLY);
	static char buf[1 << 20];
	ssize_t r;
	uint64_t catbytes = 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		catbytes += (uint64_t)r;
	close(fd);
	double csec = now() - t0;

	/* Read with pairing. */
	t0 = now();
	nxp_system_events *c;
	if (nxp_system_events_open_path(&c, path, NULL, &st)) {
		fprintf(stderr, "bench_system: %s\n", st.message);
		return 1;
	}
	nxp_system_event e;
	e.struct_size = sizeof(e);
	uint64_t rows = 0;
	int64_t check = 0;
	int rc;
	while ((rc = nxp_system_events_next(c, &e)) == NXP_OK) {
		rows++;
		check += e.duration_ns;
	}
	double rsec = now() - t0;
	nxp_system_stats s;
	s.struct_size = sizeof(s);
	nxp_system_events_get_stats(c, &s);
	if (rc != NXP_END) {
		nxp_system_events_error(c, &st);
		fprintf(stderr, "bench_system: read error: %s\n", st.message);
		return 1;
	}
	nxp_system_events_close(c);
	long rss_after_read = peak_rss_kib();
	if (!getenv("BENCH_KEEP")) unlink(path);

	double mb = (double)sb.st_size / 1e6;
	printf("bench_system: ntrace.pb %.1f MB, %llu events (%llu paired rows, %lld unmatched)\n", mb,
	       (unsigned long long)nev, (unsigned long long)rows, (long long)(s.unmatched_starts + s.unmatched_stops));
	printf("  write: %.2f s, %.1f MB/s, %.2f M events/s\n", wsec, mb / wsec, (double)nev / wsec / 1e6);
	printf("  read:  %.2f s, %.1f MB/s, %.2f M events/s (%.2f M rows/s), peak pending %lld\n", rsec, mb / rsec,
	       (double)nev / rsec / 1e6, (double)rows / rsec / 1e6, (long long)s.peak_pending);
	printf("  cat:   %.2f s, %.1f MB/s\n", csec, (double)catbytes / 1e6 / csec);
	printf("  peak RSS: %ld KiB after write, %ld KiB after read (sum of durations %lld)\n", rss_after_write,
	       rss_after_read, (long long)check);
	return rows == nev / 2 ? 0 : 1;
}
