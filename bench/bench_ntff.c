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
 * --per-thread: N workers each reading their own profile (N = 1, then 2;
 * the profiles are copies of one N-MiB trace, default 256, fsync'ed before
 * the rounds), two workloads: reading the Instruction, DmaPacket and
 * SemaphoreUpdate tables (batches of 64) and nxp_profile_summarize (one
 * thread each).  The workers are threads of this process, and then, for
 * comparison in the same run, separate child processes (one worker thread
 * each); the four set-ups (threads or processes, N = 1 or 2) alternate R
 * times (default 5).  Per worker, medians over the rounds: records/s and
 * NTFF MB/s per wall second and per thread-CPU second
 * (CLOCK_THREAD_CPUTIME_ID), each rate's ratio to one worker of the same
 * kind alone, the thread's minor faults and involuntary context switches.
 * On a machine with fewer free cores than workers the wall rates drop while
 * the CPU rates should not: the CPU-rate ratio is the measure of
 * interference between workers (shared caches, memory bandwidth, locks), the
 * wall ratio that of the machine's load; threads / processes isolates what
 * the workers share only inside one process (address space, malloc, the
 * library's state).
 *
 * --cold evicts the NTFF from the page cache (fdatasync, then posix_fadvise
 * DONTNEED: no root needed) before the `cat` read and before every cursor
 * measurement, so both read from the disk; without it both read the page
 * cache, where `cat` runs at memory-copy speed.
 *
 * DIR defaults to $TMPDIR or /tmp.  Files are removed after each size unless
 * --keep. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
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

/* ---- --per-thread: N threads (or N processes), N profiles ---- */
static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct pt_job {
	const char *neff, *ntff;
	int summary;                  /* 0: read three tables; 1: nxp_profile_summarize */
	pthread_barrier_t *go;        /* NULL: start at once */
	double wall, cpu;
	uint64_t records, bytes;
	long minflt, nivcsw;          /* the thread's minor faults and involuntary context switches */
	int ok;
	char error[NXP_STATUS_MESSAGE_MAX];
} pt_job;

static void *pt_run(void *v)
{
	pt_job *j = v;
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	if (j->go)
		pthread_barrier_wait(j->go); /* every thread starts at once */
	struct rusage r0, r1;
	getrusage(RUSAGE_THREAD, &r0);
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
		uint64_t records = 0; /* a local: the jobs of several threads lie in one array */
		for (int t = 0; t < 3 && buf; t++) {
			nxp_cursor *c = NULL;
			if (nxp_cursor_open(&c, p, tables[t], NULL, &st)) {
				snprintf(j->error, sizeof(j->error), "%s", st.message);
				break;
			}
			size_t got;
			int rc;
			while ((rc = nxp_cursor_next_batch(c, buf, sizes[t], BATCH, &got)) == NXP_OK)
				records += got;
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
		j->records = records;
		free(buf);
	}
	nxp_profile_close(p);
	j->cpu = thread_cpu() - c0;
	j->wall = now() - t0;
	getrusage(RUSAGE_THREAD, &r1);
	j->minflt = r1.ru_minflt - r0.ru_minflt;
	j->nivcsw = r1.ru_nivcsw - r0.ru_nivcsw;
	j->ok = !j->error[0];
	return NULL;
}

enum { PT_NMAX = 2 };

static void pt_setup(pt_job *jobs, int n, char (*neff)[4200], char (*ntff)[4200], int summary)
{
	for (int k = 0; k < n; k++) {
		memset(&jobs[k], 0, sizeof(jobs[k]));
		jobs[k].neff = neff[k];
		jobs[k].ntff = ntff[k];
		jobs[k].summary = summary;
	}
}

static int pt_check(const pt_job *jobs, int n, const char *how)
{
	for (int k = 0; k < n; k++)
		if (!jobs[k].ok) {
			fprintf(stderr, "bench_ntff: %s %d: %s\n", how, k, jobs[k].error[0] ? jobs[k].error : "failed");
			return -1;
		}
	return 0;
}

/* N threads of this process, each its own profile.  0 on success. */
static int pt_threads(pt_job *jobs, int n, char (*neff)[4200], char (*ntff)[4200], int summary)
{
	pthread_t th[PT_NMAX];
	pthread_barrier_t go;
	pthread_barrier_init(&go, NULL, (unsigned)n);
	pt_setup(jobs, n, neff, ntff, summary);
	int started = 0;
	for (; started < n; started++) {
		jobs[started].go = &go;
		if (pthread_create(&th[started], NULL, pt_run, &jobs[started]))
			break;
	}
	if (started < n) { /* cannot happen with 2 threads; do not leave the others waiting at the barrier */
		fprintf(stderr, "bench_ntff: cannot start a thread\n");
		exit(1);
	}
	for (int k = 0; k < n; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&go);
	return pt_check(jobs, n, "thread");
}

/* N child processes, each running the same job on one thread of its own
 * (a thread as in pt_threads, so that both use a thread's malloc arena),
 * started together; results come back through pipes.  0 on success. */
static int pt_procs(pt_job *jobs, int n, char (*neff)[4200], char (*ntff)[4200], int summary)
{
	int res[PT_NMAX][2], go[2];
	pid_t pid[PT_NMAX];
	pt_setup(jobs, n, neff, ntff, summary);
	if (pipe(go))
		return -1;
	fflush(stdout);
	for (int k = 0; k < n; k++) {
		if (pipe(res[k]))
			return -1;
		pid[k] = fork();
		if (pid[k] == 0) {
			close(go[1]);
			close(res[k][0]);
			char b;
			if (read(go[0], &b, 1) != 1)
				_exit(1);
			pthread_t th;
			if (pthread_create(&th, NULL, pt_run, &jobs[k]))
				_exit(1);
			pthread_join(th, NULL);
			ssize_t w = write(res[k][1], &jobs[k], sizeof(jobs[k]));
			_exit(w == (ssize_t)sizeof(jobs[k]) ? 0 : 1);
		}
		close(res[k][1]);
		if (pid[k] < 0)
			return -1;
	}
	close(go[0]);
	char start[PT_NMAX] = {0};
	ssize_t w = write(go[1], start, (size_t)n); /* both children start at once */
	close(go[1]);
	for (int k = 0; k < n; k++) {
		pt_job r;
		ssize_t got = read(res[k][0], &r, sizeof(r));
		close(res[k][0]);
		waitpid(pid[k], NULL, 0);
		if (got == (ssize_t)sizeof(r) && w == n)
			jobs[k] = r;
		else
			jobs[k].ok = 0;
	}
	return pt_check(jobs, n, "process");
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

/* Write a file's dirty pages back now, so that the kernel's writeback of the
 * freshly written profiles does not run during the measured rounds. */
static int sync_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { PT_REPS_MAX = 64 };

/* Results of one workload: [mode: 0 threads, 1 processes][N - 1][rep][thread]. */
typedef struct pt_results {
	pt_job j[2][PT_NMAX][PT_REPS_MAX][PT_NMAX];
	double load[2][PT_NMAX];
} pt_results;

/* Median over the reps of worker k's MB/s per wall (cpu = 0) or per CPU second. */
static double pt_rate(const pt_results *r, int mode, int n, int k, int reps, int cpu)
{
	double v[PT_REPS_MAX];
	for (int i = 0; i < reps; i++) {
		const pt_job *j = &r->j[mode][n - 1][i][k];
		v[i] = (double)j->bytes / (cpu ? j->cpu : j->wall) / 1e6;
	}
	return median(v, reps);
}

static double pt_records(const pt_results *r, int mode, int n, int k, int reps, int cpu)
{
	double v[PT_REPS_MAX];
	for (int i = 0; i < reps; i++) {
		const pt_job *j = &r->j[mode][n - 1][i][k];
		v[i] = (double)j->records / (cpu ? j->cpu : j->wall) / 1e6;
	}
	return median(v, reps);
}

static int per_thread(const char *dir, uint64_t mib, int reps)
{
	char prefix[4096], neff[PT_NMAX][4200], ntff[PT_NMAX][4200];
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
	int rc = 0;
	for (int k = 1; k < PT_NMAX; k++) { /* same size: copies (own files, own page-cache pages) */
		snprintf(neff[k], sizeof(neff[k]), "%s/bench_ntff_pt_%d_%d.neff", dir, (int)getpid(), k);
		snprintf(ntff[k], sizeof(ntff[k]), "%s/bench_ntff_pt_%d_%d.ntff", dir, (int)getpid(), k);
		if (copy_file(neff[0], neff[k]) || copy_file(ntff[0], ntff[k])) {
			fprintf(stderr, "bench_ntff: cannot copy the trace into %s\n", dir);
			rc = 1;
		}
	}
	for (int k = 0; k < PT_NMAX && !rc; k++)
		if (sync_file(neff[k]) || sync_file(ntff[k])) {
			fprintf(stderr, "bench_ntff: cannot fsync %s\n", ntff[k]);
			rc = 1;
		}
	pt_results *res = rc ? NULL : calloc(1, sizeof(*res));
	if (!rc && !res) {
		fprintf(stderr, "bench_ntff: out of memory\n");
		rc = 1;
	}
	if (!rc) {
		printf("bench_ntff --per-thread: N = 1, 2 workers, each reading its own %.0f MiB profile (synthetic mlp trn2 "
		       "LNC=2), %ld online CPUs; workers are threads of this process, then (the same job on one thread of "
		       "a child process each) separate processes; the four set-ups alternate, median of %d rounds\n",
		       (double)file_size(ntff[0]) / 1048576.0, sysconf(_SC_NPROCESSORS_ONLN), reps);
		printf("per worker: Mrec/s and MB/s per wall second and per thread-CPU second (medians); x1 = ratio to one "
		       "worker alone of the same kind; faults, ivcsw = the worker thread's minor faults and involuntary "
		       "context switches (median)\n");
		printf("%-10s %-7s %2s %2s %9s %9s %9s %9s %7s %7s %7s %6s %5s\n", "workload", "workers", "N", "k",
		       "wall Mr/s", "wall MB/s", "cpu Mr/s", "cpu MB/s", "wall x1", "cpu x1", "faults", "ivcsw", "load");
	}
	static const char *const wl[2] = {"read 3 tbl", "summary"};
	static const char *const modes[2] = {"threads", "procs"};
	for (int summary = 0; summary <= 1 && !rc; summary++) {
		memset(res, 0, sizeof(*res));
		for (int r = 0; r < reps && !rc; r++) /* alternate, so that a change of load meets every set-up */
			for (int mode = 0; mode < 2 && !rc; mode++)
				for (int n = 1; n <= PT_NMAX && !rc; n++) {
					pt_job *jobs = res->j[mode][n - 1][r];
					rc = mode ? pt_procs(jobs, n, neff, ntff, summary)
						  : pt_threads(jobs, n, neff, ntff, summary);
					res->load[mode][n - 1] += load1() / reps;
				}
		double x1[2] = {0, 0}; /* mean CPU-rate ratio of the N = 2 workers, threads and processes */
		for (int mode = 0; mode < 2 && !rc; mode++)
			for (int n = 1; n <= PT_NMAX; n++)
				for (int k = 0; k < n; k++) {
					double wmb = pt_rate(res, mode, n, k, reps, 0), cmb = pt_rate(res, mode, n, k, reps, 1);
					double wx = wmb / pt_rate(res, mode, 1, 0, reps, 0),
					       cx = cmb / pt_rate(res, mode, 1, 0, reps, 1);
					double fl[PT_REPS_MAX], cs[PT_REPS_MAX];
					for (int i = 0; i < reps; i++) {
						fl[i] = (double)res->j[mode][n - 1][i][k].minflt;
						cs[i] = (double)res->j[mode][n - 1][i][k].nivcsw;
					}
					if (n == PT_NMAX)
						x1[mode] += cx / n;
					printf("%-10s %-7s %2d %2d %9.2f %9.1f %9.2f %9.1f %7.2f %7.2f %7.0f %6.0f %5.1f\n",
					       wl[summary], modes[mode], n, k, pt_records(res, mode, n, k, reps, 0), wmb,
					       pt_records(res, mode, n, k, reps, 1), cmb, wx, cx, median(fl, reps),
					       median(cs, reps), res->load[mode][n - 1]);
				}
		if (!rc)
			printf("%-10s N=%d CPU-rate ratio to one alone: threads %.3f, processes %.3f; threads / processes "
			       "%.3f\n",
			       wl[summary], PT_NMAX, x1[0], x1[1], x1[0] / x1[1]);
		fflush(stdout);
	}
	free(res);
	for (int k = 0; k < PT_NMAX; k++) {
		unlink(neff[k]);
		unlink(ntff[k]);
	}
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t max_mib = 2048, min_mib = 64;
	const char *dir = getenv("TMPDIR");
	int keep = 0, cold = 0, pt = 0, reps = 5;
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
			reps = atoi(argv[++i]) > 0 ? (atoi(argv[i]) < PT_REPS_MAX ? atoi(argv[i]) : PT_REPS_MAX) : 1;
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
