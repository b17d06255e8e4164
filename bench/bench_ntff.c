/* SPDX-License-Identifier: MIT */
/* NTFF read benchmark: generate NTFFs of 64 MiB .. 2 GiB with the `nxp synth`
 * generator (uncompressed), then per cursor (instruction, dma, semaphore) and
 * for the three together report records/s, MB/s, the same file's read() rate
 * (`cat > /dev/null`, 1 MiB buffer, page cache hot), their ratio, and the
 * peak RSS.  Every measurement runs in its own child process so that peak RSS
 * figures are independent (ru_maxrss is a process-lifetime peak).
 *
 *   bench_ntff [--max-mib N] [--min-mib N] [--dir DIR] [--keep] [--cold]
 *   bench_ntff --per-thread [--mib N] [--reps R] [--dir DIR]
 *
 * --per-thread: N threads each reading their own profile (N = 1, then 2; the
 * profiles are copies of one N-MiB trace, default 256), in one process, two
 * workloads: reading the Instruction, DmaPacket and SemaphoreUpdate tables
 * (batches of 64) and nxp_profile_summarize (one thread each).  Per thread:
 * records/s and NTFF MB/s per wall second and per thread-CPU second
 * (CLOCK_THREAD_CPUTIME_ID), and each rate's ratio to one thread alone; the
 * best of R runs (default 3) of each N.  On a machine with fewer free cores
 * than threads the wall rates drop while the CPU rates should not: the CPU
 * rate ratio is the measure of interference between threads (shared caches,
 * memory bandwidth, locks), the wall ratio that of the machine's load.
 *
 * --cold evicts the NTFF from the page cache (fdatasync, then posix_fadvise
 * DONTNEED: no root needed) before the `cat` read and before every cursor
 * measurement, so both read from the disk; without it both read the page
 * cache, where `cat` runs at memory-copy speed.
 *
 * DIR defaults to $TMPDIR or /tmp.  Files are removed after each size unless
 * --keep. */
#include "synth.h"

#include <nxp/nxp.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A field of /proc/self/status in KiB (VmRSS, VmHWM), -1 if unavailable. */
static long proc_kib(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long v = -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec * 1e-6;
}

static long maxrss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Result of one child measurement. */
typedef struct meas {
	int ok;
	double seconds;
	double cpu;           /* user + system CPU seconds of the measured part */
	uint64_t records;
	uint64_t bytes;       /* NTFF bytes the cursors read */
	long rss_open_kib;    /* VmRSS once the profile (NEFF tables) is open */
	long hwm_kib;         /* VmHWM at the end */
	char error[NXP_STATUS_MESSAGE_MAX];
} meas;

/* Run fn in a child; its result comes back through a pipe. */
static meas in_child(void (*fn)(meas *, void *), void *arg)
{
	meas m;
	memset(&m, 0, sizeof(m));
	int fd[2];
	if (pipe(fd)) {
		snprintf(m.error, sizeof(m.error), "pipe: %s", strerror(errno));
		return m;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		meas r;
		memset(&r, 0, sizeof(r));
		fn(&r, arg);
		ssize_t w = write(fd[1], &r, sizeof(r));
		_exit(w == (ssize_t)sizeof(r) ? 0 : 1);
	}
	close(fd[1]);
	ssize_t n = pid > 0 ? read(fd[0], &m, sizeof(m)) : -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (n != (ssize_t)sizeof(m)) {
		memset(&m, 0, sizeof(m));
		snprintf(m.error, sizeof(m.error), "child failed");
	}
	return m;
}

/* ---- generation ---- */
typedef struct gen_arg {
	const char *prefix;
	uint64_t instructions;
} gen_arg;

static void do_generate(meas *m, void *a)
{
	gen_arg *g = a;
	synth_params p;
	synth_params_init(&p);
	p.workload = "mlp";
	p.arch = "trn2";
	p.lnc = 2;
	p.seed = 1;
	p.instructions = g->instructions;
	synth_result r;
	nxp_status st;
	double t0 = now(), c0 = cpu_seconds();
	int rc = synth_run(&p, g->prefix, &r, &st);
	m->seconds = now() - t0;
	m->cpu = cpu_seconds() - c0;
	m->records = r.instructions + r.dma_packets + r.semaphore_updates + r.other_notes;
	m->hwm_kib = maxrss_kib();
	m->ok = rc == 0;
	if (rc)
		snprintf(m->error, sizeof(m->error), "%s", st.message);
}

/* Evict a file's pages from the page cache (--cold).  0 on success. */
static int evict(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	int rc = fdatasync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) ? -1 : 0;
	close(fd);
	return rc;
}

/* ---- cat ---- */
static double cat_rate(const char *path, uint64_t *bytes, int cold)
{
	static char buf[1 << 20];
	double best = 0;
	for (int pass = 0; pass < 2; pass++) { /* pass 0 warms the page cache (or, cold, the code paths) */
		if (cold && evict(path))
			return 0;
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			return 0;
		uint64_t total = 0;
		double t0 = now();
		ssize_t n;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += (uint64_t)n;
		double dt = now() - t0;
		close(fd);
		*bytes = total;
		if (pass)
			best = (double)total / dt;
	}
	return best;
}

/* ---- cursors ---- */
typedef struct read_arg {
	const char *neff, *ntff;
	int mode; /* 0 instruction, 1 dma, 2 semaphore, 3 all three */
} read_arg;

static void do_read(meas *m, void *a)
{
	read_arg *ra = a;
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_profile_open_path(&p, ra->neff, ra->ntff, NULL, &st)) {
		snprintf(m->error, sizeof(m->error), "%s", st.message);
		return;
	}
	m->rss_open_kib = proc_kib("VmRSS");
	static const int tables[3] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE};
	nxp_cursor *c[3] = {NULL, NULL, NULL};
	int first = ra->mode == 3 ? 0 : ra->mode, last = ra->mode == 3 ? 2 : ra->mode;
	double t0 = now(), c0 = cpu_seconds();
	for (int i = first; i <= last; i++)
		if (nxp_cursor_open(&c[i], p, tables[i], NULL, &st)) {
			snprintf(m->error, sizeof(m->error), "%s", st.message);
			goto out;
		}
	/* records are taken 64 at a time through nxp_cursor_next_batch, the way a
	 * consumer that cares about speed reads them */
	enum { BATCH = 64 };
	static nxp_instruction in[BATCH];
	static nxp_dma_packet d[BATCH];
	static nxp_semaphore_update s[BATCH];
	static const size_t sizes[3] = {sizeof(nxp_instruction), sizeof(nxp_dma_packet), sizeof(nxp_semaphore_update)};
	void *bufs[3] = {in, d, s};
	/* all three: a time-ordered merge of the three tables, as a timeline
	 * viewer consumes them (batch by batch) */
	int live = last - first + 1, rc = 0;
	while (live > 0) {
		int pick = -1;
		int64_t best = INT64_MAX;
		for (int i = first; i <= last; i++)
			if (c[i]) {
				int64_t pos = nxp_cursor_position(c[i]);
				if (pick < 0 || pos < best) {
					best = pos;
					pick = i;
				}
			}
		size_t got = 0;
		rc = nxp_cursor_next_batch(c[pick], bufs[pick], sizes[pick], BATCH, &got);
		m->records += got;
		if (rc == NXP_END) {
			nxp_cursor_stats cs;
			cs.struct_size = sizeof(cs);
			nxp_cursor_get_stats(c[pick], &cs);
			m->bytes += (uint64_t)cs.bytes_read;
			nxp_cursor_close(c[pick]);
			c[pick] = NULL;
			live--;
		} else if (rc < 0) {
			nxp_cursor_error(c[pick], &st);
			snprintf(m->error, sizeof(m->error), "%s", st.message);
			goto out;
		}
	}
	m->seconds = now() - t0;
	m->cpu = cpu_seconds() - c0;
	m->hwm_kib = proc_kib("VmHWM");
	if (m->hwm_kib < 0)
		m->hwm_kib = maxrss_kib();
	m->ok = 1;
out:
	for (int i = 0; i < 3; i++)
		nxp_cursor_close(c[i]);
	nxp_profile_close(p);
}

static uint64_t file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) ? 0 : (uint64_t)sb.st_size;
}

/* ---- --per-thread: N threads, N profiles ---- */
static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct pt_job {
	const char *neff, *ntff;
	int summary;                  /* 0: read three tables; 1: nxp_profile_summarize */
	pthread_barrier_t *go;
	double wall, cpu;
	uint64_t records, bytes;
	int ok;
	char error[NXP_STATUS_MESSAGE_MAX];
} pt_job;

static void *pt_run(void *v)
{
	pt_job *j = v;
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	pthread_barrier_wait(j->go); /* every thread starts at once */
	double t0 = now(), c0 = thread_cpu();
	if (nxp_profile_open_path(&p, j->neff, j->ntff, NULL, &st)) {
		snprintf(j->error, sizeof(j->error), "%s", st.message);
		return NULL;
	}
	if (j->summary) {
		nxp_summary *s = NULL;
		if (nxp_profile_summarize(p, NULL, &s, &st)) {
			snprintf(j->error, sizeof(j->error), "%s", st.message);
			nxp_profile_close(p);
			return NULL;
		}
		nxp_summary_field f = {.struct_size = sizeof(f)};
		if (!nxp_summary_find(s, "total_row_count", &f))
			j->records = (uint64_t)f.i;
		nxp_summary_close(s);
		j->bytes = file_size(j->ntff);
	} else {
		static const int tables[3] = {NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE};
		static const size_t sizes[3] = {sizeof(nxp_instruction), sizeof(nxp_dma_packet),
						sizeof(nxp_semaphore_update)};
		enum { BATCH = 64 };
		union {
			nxp_instruction in[BATCH];
			nxp_dma_packet d[BATCH];
			nxp_semaphore_update s[BATCH];
		} *buf = malloc(sizeof(*buf));
		for (int t = 0; t < 3 && buf; t++) {
			nxp_cursor *c = NULL;
			if (nxp_cursor_open(&c, p, tables[t], NULL, &st)) {
				snprintf(j->error, sizeof(j->error), "%s", st.message);
				break;
			}
			size_t got;
			int rc;
			while ((rc = nxp_cursor_next_batch(c, buf, sizes[t], BATCH, &got)) == NXP_OK)
				j->records += got;
			nxp_cursor_stats cs;
			cs.struct_size = sizeof(cs);
			nxp_cursor_get_stats(c, &cs);
			j->bytes += (uint64_t)cs.bytes_read;
			if (rc != NXP_END) {
				nxp_cursor_error(c, &st);
				snprintf(j->error, sizeof(j->error), "%s", st.message);
			}
			nxp_cursor_close(c);
		}
		free(buf);
	}
	nxp_profile_close(p);
	j->cpu = thread_cpu() - c0;
	j->wall = now() - t0;
	j->ok = !j->error[0];
	return NULL;
}

/* N threads, each its own profile; fills jobs[0..n-1].  0 on success. */
static int pt_round(pt_job *jobs, int n, char (*neff)[4200], char (*ntff)[4200], int summary)
{
	pthread_t th[8];
	pthread_barrier_t go;
	pthread_barrier_init(&go, NULL, (unsigned)n);
	for (int k = 0; k < n; k++) {
		memset(&jobs[k], 0, sizeof(jobs[k]));
		jobs[k].neff = neff[k];
		jobs[k].ntff = ntff[k];
		jobs[k].summary = summary;
		jobs[k].go = &go;
		if (pthread_create(&th[k], NULL, pt_run, &jobs[k]))
			return -1;
	}
	for (int k = 0; k < n; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&go);
	for (int k = 0; k < n; k++)
		if (!jobs[k].ok) {
			fprintf(stderr, "bench_ntff: thread %d: %s\n", k, jobs[k].error);
			return -1;
		}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	static char buf[1 << 20];
	ssize_t n;
	int rc = in < 0 || out < 0;
	while (!rc && (n = read(in, buf, sizeof(buf))) > 0)
		rc = write(out, buf, (size_t)n) != n;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

static double load1(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

static int per_thread(const char *dir, uint64_t mib, int reps)
{
	enum { NMAX = 2 };
	char prefix[4096], neff[NMAX][4200], ntff[NMAX][4200];
	snprintf(prefix, sizeof(prefix), "%s/bench_ntff_pt_calib", dir);
	snprintf(neff[0], sizeof(neff[0]), "%s.neff", prefix);
	snprintf(ntff[0], sizeof(ntff[0]), "%s.ntff", prefix);
	gen_arg ga = {prefix, 200000};
	meas g = in_child(do_generate, &ga);
	if (!g.ok) {
		fprintf(stderr, "bench_ntff: generation failed: %s\n", g.error);
		return 1;
	}
	double per_instr = (double)file_size(ntff[0]) / 200000.0;
	unlink(neff[0]);
	unlink(ntff[0]);
	snprintf(prefix, sizeof(prefix), "%s/bench_ntff_pt_%d_0", dir, (int)getpid());
	ga.prefix = prefix;
	ga.instructions = (uint64_t)((double)(mib << 20) / per_instr);
	snprintf(neff[0], sizeof(neff[0]), "%s.neff", prefix);
	snprintf(ntff[0], sizeof(ntff[0]), "%s.ntff", prefix);
	g = in_child(do_generate, &ga);
	if (!g.ok) {
		fprintf(stderr, "bench_ntff: generation failed: %s\n", g.error);
		return 1;
	}
	for (int k = 1; k < NMAX; k++) { /* same size: copies (own files, own page-cache pages) */
		snprintf(neff[k], sizeof(neff[k]), "%s/bench_ntff_pt_%d_%d.neff", dir, (int)getpid(), k);
		snprintf(ntff[k], sizeof(ntff[k]), "%s/bench_ntff_pt_%d_%d.ntff", dir, (int)getpid(), k);
		if (copy_file(neff[0], neff[k]) || copy_file(ntff[0], ntff[k])) {
			fprintf(stderr, "bench_ntff: cannot copy the trace into %s\n", dir);
			return 1;
		}
	}
	printf("bench_ntff --per-thread: %d threads x their own %.0f MiB profile (synthetic mlp trn2 LNC=2), best of %d,"
	       " %ld online CPUs\n", NMAX, (double)file_size(ntff[0]) / 1048576.0, reps, sysconf(_SC_NPROCESSORS_ONLN));
	printf("per thread: Mrec/s and MB/s per wall second (wall) and per thread-CPU second (cpu); x1 = ratio to one "
	       "thread alone\n");
	printf("%-10s %3s %6s %9s %9s %9s %9s %7s %7s %6s\n", "workload", "N", "thread", "wall Mr/s", "wall MB/s",
	       "cpu Mr/s", "cpu MB/s", "wall x1", "cpu x1", "load");
	static const char *const wl[2] = {"read 3 tbl", "summary"};
	int rc = 0;
	for (int summary = 0; summary <= 1 && !rc; summary++) {
		double one_wall = 0, one_cpu = 0; /* MB/s of one thread alone */
		for (int n = 1; n <= NMAX && !rc; n++) {
			pt_job best[NMAX], jobs[NMAX];
			memset(best, 0, sizeof(best));
			for (int r = 0; r < reps && !rc; r++) {
				if (pt_round(jobs, n, neff, ntff, summary)) {
					rc = 1;
					break;
				}
				/* keep the round whose slowest thread was fastest */
				double worst = 0, bworst = 0;
				for (int k = 0; k < n; k++) {
					if (jobs[k].wall > worst)
						worst = jobs[k].wall;
					if (best[k].wall > bworst)
						bworst = best[k].wall;
				}
				if (!r || worst < bworst)
					memcpy(best, jobs, sizeof(best));
			}
			for (int k = 0; k < n && !rc; k++) {
				const pt_job *j = &best[k];
				double wmb = (double)j->bytes / j->wall / 1e6, cmb = (double)j->bytes / j->cpu / 1e6;
				if (n == 1) {
					one_wall = wmb;
					one_cpu = cmb;
				}
				printf("%-10s %3d %6d %9.2f %9.1f %9.2f %9.1f %7.2f %7.2f %6.1f\n", wl[summary], n, k,
				       (double)j->records / j->wall / 1e6, wmb, (double)j->records / j->cpu / 1e6, cmb,
				       wmb / one_wall, cmb / one_cpu, load1());
			}
			fflush(stdout);
		}
	}
	for (int k = 0; k < NMAX; k++) {
		unlink(neff[k]);
		unlink(ntff[k]);
	}
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t max_mib = 2048, min_mib = 64;
	const char *dir = getenv("TMPDIR");
	int keep = 0, cold = 0, pt = 0, reps = 3;
	uint64_t pt_mib = 256;
	if (!dir || !*dir)
		dir = "/tmp";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max-mib") && i + 1 < argc)
			max_mib = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--min-mib") && i + 1 < argc)
			min_mib = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--keep"))
			keep = 1;
		else if (!strcmp(argv[i], "--cold"))
			cold = 1;
		else if (!strcmp(argv[i], "--per-thread"))
			pt = 1;
		else if (!strcmp(argv[i], "--mib") && i + 1 < argc)
			pt_mib = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
		else {
			fprintf(stderr, "usage: bench_ntff [--max-mib N] [--min-mib N] [--dir DIR] [--keep] [--cold]\n"
					"       bench_ntff --per-thread [--mib N] [--reps R] [--dir DIR]\n");
			return 2;
		}
	}
	if (pt)
		return per_thread(dir, pt_mib ? pt_mib : 256, reps);
	char prefix[4096], neff[4200], ntff[4200];

	/* calibrate bytes per instruction on a small trace */
	snprintf(prefix, sizeof(prefix), "%s/bench_ntff_calib", dir);
	snprintf(neff, sizeof(neff), "%s.neff", prefix);
	snprintf(ntff, sizeof(ntff), "%s.ntff", prefix);
	gen_arg ga = {prefix, 200000};
	meas g = in_child(do_generate, &ga);
	if (!g.ok) {
		fprintf(stderr, "bench_ntff: generation failed: %s\n", g.error);
		return 1;
	}
	double per_instr = (double)file_size(ntff) / 200000.0;
	unlink(neff);
	unlink(ntff);

	printf("bench_ntff: synthetic mlp trn2 LNC=2 traces (uncompressed), dir %s, page cache %s\n", dir,
	       cold ? "COLD (file evicted before every read)" : "hot");
	printf("Mrec/s and MB/s are per wall-clock second; 'CPU MB/s' divides by the process's CPU time instead\n"
	       "(the figure that does not depend on other load on the machine).  cat/x = cat MB/s / MB/s.\n");
	printf("%-9s %-11s %12s %8s %9s %9s %9s %7s %9s %9s\n", "size", "cursor", "records", "Mrec/s", "MB/s",
	       "CPU MB/s", "cat MB/s", "cat/x", "RSS open", "peak RSS");
	static const char *const names[4] = {"instr", "dma", "semaphore", "all three"};
	for (uint64_t mib = min_mib; mib <= max_mib; mib *= 2) {
		snprintf(prefix, sizeof(prefix), "%s/bench_ntff_%llu", dir, (unsigned long long)mib);
		snprintf(neff, sizeof(neff), "%s.neff", prefix);
		snprintf(ntff, sizeof(ntff), "%s.ntff", prefix);
		ga.prefix = prefix;
		ga.instructions = (uint64_t)((double)(mib << 20) / per_instr);
		g = in_child(do_generate, &ga);
		if (!g.ok) {
			fprintf(stderr, "bench_ntff: generation of %llu MiB failed: %s\n", (unsigned long long)mib, g.error);
			return 1;
		}
		uint64_t fsz = file_size(ntff), cbytes = 0;
		printf("%-9s %-11s %12llu %8.2f %9.1f %9.1f %9s %7s %9s %8.1fM  (generate %.1f s, %.1f s CPU)\n", "",
		       "write", (unsigned long long)g.records, (double)g.records / g.seconds / 1e6,
		       (double)fsz / g.seconds / 1e6, (double)fsz / g.cpu / 1e6, "", "", "", (double)g.hwm_kib / 1024.0,
		       g.seconds, g.cpu);
		double cat = cat_rate(ntff, &cbytes, cold);
		if (cat <= 0) {
			fprintf(stderr, "bench_ntff: could not read%s %s\n", cold ? " or evict" : "", ntff);
			return 1;
		}
		char sz[32];
		snprintf(sz, sizeof(sz), "%.0fMiB", (double)fsz / 1048576.0);
		for (int mode = 0; mode < 4; mode++) {
			read_arg ra = {neff, ntff, mode};
			if (cold && evict(ntff)) {
				fprintf(stderr, "bench_ntff: cannot evict %s from the page cache\n", ntff);
				return 1;
			}
			meas m = in_child(do_read, &ra);
			if (!m.ok) {
				fprintf(stderr, "bench_ntff: %s: %s\n", names[mode], m.error);
				return 1;
			}
			/* MB/s counts the NTFF bytes the cursor(s) had to read */
			double mbs = (double)m.bytes / m.seconds / 1e6;
			printf("%-9s %-11s %12llu %8.2f %9.1f %9.1f %9.1f %7.2f %8.1fM %8.1fM\n", mode ? "" : sz, names[mode],
			       (unsigned long long)m.records, (double)m.records / m.seconds / 1e6, mbs,
			       (double)m.bytes / (m.cpu > 0 ? m.cpu : 1e-9) / 1e6, cat / 1e6, cat / 1e6 / (mbs > 0 ? mbs : 1),
			       (double)m.rss_open_kib / 1024.0, (double)m.hwm_kib / 1024.0);
		}
		fflush(stdout);
		if (!keep) {
			unlink(neff);
			unlink(ntff);
		}
	}
	return 0;
}
