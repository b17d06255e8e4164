/* SPDX-License-Identifier: MIT */
/* NTFF read benchmark: generate NTFFs of 64 MiB .. 2 GiB with the `nxp synth`
 * generator (uncompressed), then per cursor (instruction, dma, semaphore) and
 * for the three together report records/s, MB/s, the same file's read() rate
 * (`cat > /dev/null`, 1 MiB buffer, page cache hot), their ratio, and the
 * peak RSS.  Every measurement runs in its own child process so that peak RSS
 * figures are independent (ru_maxrss is a process-lifetime peak).
 *
 *   bench_ntff [--max-mib N] [--min-mib N] [--dir DIR] [--keep] [--cold]
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

int main(int argc, char **argv)
{
	uint64_t max_mib = 2048, min_mib = 64;
	const char *dir = getenv("TMPDIR");
	int keep = 0, cold = 0;
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
		else {
			fprintf(stderr, "usage: bench_ntff [--max-mib N] [--min-mib N] [--dir DIR] [--keep] [--cold]\n");
			return 2;
		}
	}
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
