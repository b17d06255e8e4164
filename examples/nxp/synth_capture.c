/* SPDX-License-Identifier: MIT */
/* `nxp synth --capture DIR`: a whole synthetic capture directory (system
 * profile + device profiles), in the first layout of
 * doc/formats/system-profile.md §5:
 *
 *   DIR/<instance>_pid_<pid>/              one process per rank
 *       neff_<h>.neff, <h>_instid_0_vnc_<r>.ntff   (synth_run, seed + r)
 *       ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb, trace.json
 *
 * Each rank drives NeuronCore r: the NTFF name (_vnc_<r>), its metadata
 * (neuroncore_idx r, capture_time_ns = the start of the host timeline) and the
 * ntrace.pb events (nc_idx r) all say so.  The device pair comes from the existing
 * generator with the seed offset by the rank, so ranks differ slightly (one is
 * the straggler).  Its execution records are read back through the public
 * profile API, and the host-side events are placed around them with one clock
 * offset per rank (plus a small drift per execution): every execution gets a
 * `timestamp_sync_point` right after it, so mapping a device time with the
 * clock map (system.h) puts the execution inside its `nc_exec_running` event.
 *
 * Host timeline of one execution (m = mapped device start, M = mapped end, ns):
 *   nrt_execute START m-2000 ... STOP M+2000  (tracking_id pair)
 *   kbl_exec_pre [m-1800, m-400]   kbl_exec_wait [m-400, M+400]
 *   nc_exec_running [m-300, M+300] timestamp_sync_point at M+100
 *   kbl_exec_post [M+500, M+1800]
 * The generator leaves >= 5 us between executions on the device, so these
 * never overlap from one execution to the next.
 *
 * Deterministic: host time starts at 2026-01-01T00:00:00Z; instance id, pids
 * and host statistics come from the seed.  Public API only. */
#include "synth.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CAP_BASE_NS 1767225600000000000ll /* 2026-01-01T00:00:00Z */
#define CAP_MAX_EXEC 64
#define CAP_FW_EVENTS (8 + CAP_MAX_EXEC)

static int cfail(nxp_status *st, int code, const char *fmt, ...)
{
	va_list ap;
	nxp_status_init(st);
	st->code = code;
	va_start(ap, fmt);
	vsnprintf(st->message, sizeof(st->message), fmt, ap);
	va_end(ap);
	return code;
}

/* What one rank's device profile says, read back through the public API. */
typedef struct rank_dev {
	int nexec;
	int64_t start[CAP_MAX_EXEC], end[CAP_MAX_EXEC]; /* device ns */
	char hash[24];                                 /* name hash, decimal */
	char instance_type[32];
	int64_t ntff_version;
} rank_dev;

static int read_back(const char *neff, const char *ntff, rank_dev *d, nxp_status *st)
{
	nxp_profile *p;
	int rc = nxp_profile_open_path(&p, neff, ntff, NULL, st);
	if (rc < 0)
		return rc;
	nxp_metadata md;
	md.struct_size = sizeof(md);
	if ((rc = nxp_profile_get_metadata(p, &md)) < 0) {
		nxp_profile_close(p);
		return cfail(st, rc, "%s: cannot read metadata", ntff);
	}
	uint64_t h = 0;
	for (int i = 0; i < 8; i++)
		h = h << 8 | md.neff_hash[i];
	snprintf(d->hash, sizeof(d->hash), "%" PRIu64, (uint64_t)(h % 1000000000000000ull));
	snprintf(d->instance_type, sizeof(d->instance_type), "%s", md.instance_type ? md.instance_type : "");
	d->ntff_version = md.ntff_version;

	nxp_cursor_options co;
	nxp_cursor_options_init(&co);
	nxp_cursor *c;
	if ((rc = nxp_cursor_open(&c, p, NXP_TABLE_EXECUTION, &co, st)) < 0) {
		nxp_profile_close(p);
		return rc;
	}
	nxp_execution x;
	x.struct_size = sizeof(x);
	d->nexec = 0;
	while ((rc = nxp_cursor_next_execution(c, &x)) == NXP_OK) {
		if (d->nexec >= CAP_MAX_EXEC)
			continue;
		d->start[d->nexec] = x.execution_start_ts;
		d->end[d->nexec] = x.execution_end_ts;
		d->nexec++;
	}
	if (rc != NXP_END)
		nxp_cursor_error(c, st);
	nxp_cursor_close(c);
	nxp_profile_close(p);
	if (rc != NXP_END)
		return rc;
	if (!d->nexec)
		return cfail(st, NXP_E_FORMAT, "%s: the generated NTFF has no execution records", ntff);
	return 0;
}

/* ---- ntrace.pb -------------------------------------------------------------------- */
typedef struct ntw {
	nxp_sysprof_writer *w;
	int64_t nc, tid;
	int64_t tracking;   /* next tracking_id */
	int64_t id;         /* next event id */
	uint64_t written;
} ntw;

static int nt_event(ntw *t, const char *name, int phase, int64_t ts, int64_t dur, int64_t tracking, int64_t seq,
		    const char *const *attrs, size_t nattrs)
{
	nxp_ntrace_event e;
	nxp_ntrace_event_init(&e);
	e.name = name;
	e.phase = phase;
	e.timestamp = ts;
	e.duration = dur;
	e.nc_idx = t->nc;
	e.nd_idx = 0;
	e.thread_id = t->tid;
	e.id = t->id++;
	e.tracking_id = tracking;
	e.nrta_seq_id = seq;
	e.attributes = attrs;
	e.n_attributes = nattrs;
	t->written++;
	return nxp_sysprof_writer_event(t->w, &e);
}

/* Host time of device time `t` in execution e: the rank's offset plus drift. */
static int64_t host_of(int64_t off, int e, int64_t t)
{
	return t + off + (int64_t)e * 40;
}

static int write_ntrace(const char *path, const synth_params *p, const rank_dev *d, const char *inst, int64_t pid,
			int rank, int64_t off, const char *neff_name, uint64_t *nevents, nxp_status *st)
{
	nxp_sysprof_writer_options o;
	nxp_sysprof_writer_options_init(&o);
	o.arch = p->arch;
	o.pid = pid;
	o.session_id = 1;
	o.data_version = 1;
	o.logical_nc_size = p->lnc;
	o.instance_id = inst;
	ntw t = {NULL, rank, pid + 1, 1, 1, 0};
	int rc = nxp_sysprof_writer_open(&t.w, path, NXP_SYSFILE_NTRACE, &o, st);
	if (rc < 0)
		return rc;
	int64_t load = CAP_BASE_NS + 100000;
	const char *load_attrs[] = {"neff_name", neff_name, "nc_count", p->lnc == 2 ? "2" : "1", "status", "NRT_SUCCESS"};
	int64_t tr = t.tracking++;
	if (!rc)
		rc = nt_event(&t, "nrt_load", NXP_NTRACE_PHASE_START, load, -1, tr, -1, load_attrs, 2);
	if (!rc)
		rc = nt_event(&t, "nrt_load", NXP_NTRACE_PHASE_STOP, load + 1200000, -1, tr, -1, load_attrs + 4, 1);
	for (int e = 0; e < d->nexec && !rc; e++) {
		int64_t m = host_of(off, e, d->start[e]), M = host_of(off, e, d->end[e]);
		int64_t seq = e + 1;
		char cpu[24], dev[24], exec[16];
		snprintf(exec, sizeof(exec), "%d", e);
		snprintf(dev, sizeof(dev), "%" PRId64, d->end[e] + 100);
		snprintf(cpu, sizeof(cpu), "%" PRId64, host_of(off, e, d->end[e] + 100));
		const char *xattrs[] = {"neff_name", neff_name, "execution_index", exec, "status", "NRT_SUCCESS"};
		const char *sattrs[] = {"cpu_timestamp_ns", cpu, "nc_timestamp_ns", dev};
		int64_t tx = t.tracking++;
		rc = nt_event(&t, "nrt_execute", NXP_NTRACE_PHASE_START, m - 2000, -1, tx, seq, xattrs, 2);
		if (!rc)
			rc = nt_event(&t, "kbl_exec_pre", NXP_NTRACE_PHASE_NONE, m - 1800, 1400, -1, seq, NULL, 0);
		if (!rc)
			rc = nt_event(&t, "kbl_exec_wait", NXP_NTRACE_PHASE_NONE, m - 400, M - m + 800, -1, seq, NULL, 0);
		if (!rc)
			rc = nt_event(&t, "nc_exec_running", NXP_NTRACE_PHASE_NONE, m - 300, M - m + 600, -1, seq,
				      xattrs + 2, 1);
		if (!rc)
			rc = nt_event(&t, "timestamp_sync_point", NXP_NTRACE_PHASE_INSTANT, M + 100, -1, -1, seq, sattrs,
				      2);
		if (!rc)
			rc = nt_event(&t, "kbl_exec_post", NXP_NTRACE_PHASE_NONE, M + 500, 1300, -1, seq, NULL, 0);
		if (!rc)
			rc = nt_event(&t, "nrt_execute", NXP_NTRACE_PHASE_STOP, M + 2000, -1, tx, seq, xattrs + 4, 1);
	}
	if (!rc)
		rc = nxp_sysprof_writer_finish(t.w);
	if (rc < 0)
		nxp_sysprof_writer_error(t.w, st);
	nxp_sysprof_writer_close(t.w);
	*nevents += t.written;
	return rc;
}

/* ---- paths ------------------------------------------------------------------------------ */
static int join(char *out, size_t n, const char *dir, const char *name, nxp_status *st)
{
	if ((size_t)snprintf(out, n, "%s/%s", dir, name) >= n)
		return cfail(st, NXP_E_INVAL, "%s: path too long", dir);
	return 0;
}

static int make_dir(const char *path, nxp_status *st)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		return cfail(st, NXP_E_IO, "%s: cannot create directory: %s", path, strerror(errno));
	return 0;
}

/* mkdir -p */
static int make_dirs(const char *path, nxp_status *st)
{
	char p[4096];
	if (join(p, sizeof(p), path, "", st))
		return NXP_E_INVAL;
	p[strlen(p) - 1] = '\0';
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			int rc = make_dir(p, st);
			*s = '/';
			if (rc)
				return rc;
		}
	return make_dir(p, st);
}

/* ---- cpu_util.pb, host_mem.pb ------------------------------------------------------ */
#define CAP_NCPU 4
#define CAP_HOST_MEM (64ll << 30)

static int write_host_stats(const char *dir, const char *inst, int64_t pid, int64_t end, synth_rng *rng,
			    nxp_status *st)
{
	char path[4096];
	nxp_sysprof_writer_options o;
	nxp_sysprof_writer_options_init(&o);
	o.pid = pid;
	o.instance_id = inst;
	nxp_sysprof_writer *cw = NULL, *mw = NULL;
	int rc = join(path, sizeof(path), dir, "cpu_util.pb", st);
	if (!rc)
		rc = nxp_sysprof_writer_open(&cw, path, NXP_SYSFILE_CPU_UTIL, &o, st);
	if (!rc)
		rc = join(path, sizeof(path), dir, "host_mem.pb", st);
	if (!rc)
		rc = nxp_sysprof_writer_open(&mw, path, NXP_SYSFILE_HOST_MEM, &o, st);
	if (rc) {
		nxp_sysprof_writer_close(cw);
		return rc;
	}
	/* one sample every 250 us from the start to just after the last event */
	int64_t used = 6ll << 30;
	for (int64_t ts = CAP_BASE_NS; !rc && ts <= end + 250000; ts += 250000) {
		int loaded = ts >= CAP_BASE_NS + 1300000; /* after nrt_load */
		double sum = 0;
		for (int c = 0; c <= CAP_NCPU && !rc; c++) {
			char id[16];
			nxp_cpu_usage u;
			u.struct_size = sizeof(u);
			u.timestamp = ts;
			u.instance_id = inst;
			if (c < CAP_NCPU) {
				/* core 0 runs the training loop; the others idle */
				double base = c == 0 ? (loaded ? 85.0 : 60.0) : 3.0;
				u.util_percent = base + 10.0 * synth_rng_unit(rng);
				sum += u.util_percent;
				snprintf(id, sizeof(id), "%d", c);
			} else {
				u.util_percent = sum / CAP_NCPU;
				snprintf(id, sizeof(id), "average");
			}
			u.cpu_id = id;
			rc = nxp_sysprof_writer_cpu(cw, &u);
		}
		if (rc)
			break;
		if (ts < CAP_BASE_NS + 1300000)
			used += 256ll << 20; /* the NEFF load grows host memory */
		used += (int64_t)synth_rng_below(rng, 1 << 20);
		nxp_host_mem_usage m;
		m.struct_size = sizeof(m);
		m.timestamp = ts;
		m.used_bytes = used;
		m.used_percent = 100.0 * (double)used / (double)CAP_HOST_MEM;
		m.instance_id = inst;
		m.total_bytes = CAP_HOST_MEM;
		rc = nxp_sysprof_writer_mem(mw, &m);
	}
	if (!rc)
		rc = nxp_sysprof_writer_finish(cw);
	if (!rc)
		rc = nxp_sysprof_writer_finish(mw);
	if (rc < 0 && nxp_sysprof_writer_error(cw, st) == 0)
		nxp_sysprof_writer_error(mw, st);
	nxp_sysprof_writer_close(cw);
	nxp_sysprof_writer_close(mw);
	return rc;
}

/* ---- trace.json --------------------------------------------------------------------- */
static void fw_event(nxp_system_event *e, const char *ph, const char *name, const char *cat, const char *pid,
		     const char *tid, int64_t start, int64_t end, const char *args)
{
	memset(e, 0, sizeof(*e));
	e->struct_size = sizeof(*e);
	e->phase = ph;
	e->name = name;
	e->category = cat;
	e->pid = pid;
	e->tid = tid;
	e->start_ts = start;
	e->end_ts = end;
	e->extra_attributes_json = args;
}

static int write_trace_json(const char *path, const synth_params *p, const rank_dev *d, int64_t pid, int rank,
			    int64_t off, uint64_t *nevents, nxp_status *st)
{
	nxp_system_event ev[CAP_FW_EVENTS];
	static char args[CAP_MAX_EXEC][64];
	char spid[24], stid[24], pname[64], step[32];
	snprintf(spid, sizeof(spid), "%" PRId64, pid);
	snprintf(stid, sizeof(stid), "%" PRId64, pid + 1);
	snprintf(pname, sizeof(pname), "{\"name\": \"python3 (rank %d)\"}", rank);
	snprintf(step, sizeof(step), "ProfilerStep#%d", 1);
	const char *op = !strcmp(p->workload, "matmul") ? "aten::matmul" : "aten::linear";
	int64_t first = host_of(off, 0, d->start[0]);
	int64_t last = host_of(off, d->nexec - 1, d->end[d->nexec - 1]);
	size_t n = 0;
	fw_event(&ev[n++], "M", "process_name", "", spid, stid, CAP_BASE_NS, CAP_BASE_NS, pname);
	fw_event(&ev[n++], "M", "thread_name", "", spid, stid, CAP_BASE_NS, CAP_BASE_NS,
		 "{\"name\": \"MainThread\"}");
	fw_event(&ev[n++], "X", step, "user_annotation", spid, stid, first - 400000, last + 400000, NULL);
	/* inputs to the device before the first call, the result back after the last */
	fw_event(&ev[n++], "X", "aten::to", "cpu_op", spid, stid, first - 350000, first - 60000,
		 "{\"Sequence number\": 1}");
	fw_event(&ev[n++], "X", "aten::copy_", "cpu_op", spid, stid, first - 340000, first - 70000, NULL);
	for (int e = 0; e < d->nexec; e++) {
		int64_t m = host_of(off, e, d->start[e]), M = host_of(off, e, d->end[e]);
		snprintf(args[e], sizeof(args[e]), "{\"External id\": %d, \"Sequence number\": %d}", e + 2, e + 2);
		fw_event(&ev[n++], "X", op, "cpu_op", spid, stid, m - 2300, M + 2300, args[e]);
	}
	fw_event(&ev[n++], "X", "aten::to", "cpu_op", spid, stid, last + 60000, last + 300000,
		 "{\"Sequence number\": 99}");
	fw_event(&ev[n++], "X", "aten::copy_", "cpu_op", spid, stid, last + 70000, last + 290000, NULL);
	*nevents += n;
	return nxp_trace_json_write(path, ev, n, CAP_BASE_NS, 0, st);
}

/* ---- one rank ------------------------------------------------------------------------ */
static int run_rank(const synth_params *p, const char *root, const char *inst, int rank, synth_rng *rng,
		    synth_capture_result *res, nxp_status *st)
{
	char dir[4096], tmp[4096], neff[4096], ntff[4096], name[128], path[4096];
	int64_t pid = 41000 + 137 * rank + (int64_t)synth_rng_below(rng, 100);
	snprintf(name, sizeof(name), "%s_pid_%" PRId64, inst, pid);
	int rc = join(dir, sizeof(dir), root, name, st);
	if (!rc)
		rc = make_dir(dir, st);
	if (!rc)
		rc = join(tmp, sizeof(tmp), dir, ".synth_tmp", st);
	if (rc)
		return rc;

	/* The device pair: the same workload, the seed offset by the rank. */
	synth_params pr = *p;
	pr.seed = p->seed + (uint64_t)rank;
	/* Its metadata agrees with the rest of the capture: the NeuronCore of the
	 * file name (_vnc_<rank>) and of ntrace.pb, captured when the host
	 * timeline starts (trace_info first_ts_ns, the first host event). */
	pr.neuroncore_idx = rank;
	pr.capture_time_ns = CAP_BASE_NS;
	synth_result sr;
	if ((rc = synth_run(&pr, tmp, &sr, st)) < 0)
		return rc;
	char tneff[4200], tntff[4200];
	snprintf(tneff, sizeof(tneff), "%s.neff", tmp);
	snprintf(tntff, sizeof(tntff), "%s.ntff", tmp);
	rank_dev *d = calloc(1, sizeof(*d));
	if (!d)
		return cfail(st, NXP_E_NOMEM, "out of memory");
	rc = read_back(tneff, tntff, d, st);
	char base[96];
	if (!rc) {
		snprintf(base, sizeof(base), "neff_%s.neff", d->hash);
		rc = join(neff, sizeof(neff), dir, base, st);
	}
	if (!rc) {
		snprintf(base, sizeof(base), "%s_instid_0_vnc_%d.ntff", d->hash, rank);
		rc = join(ntff, sizeof(ntff), dir, base, st);
	}
	if (!rc && (rename(tneff, neff) || rename(tntff, ntff)))
		rc = cfail(st, NXP_E_IO, "%s: cannot rename the generated pair: %s", dir, strerror(errno));
	if (rc) {
		remove(tneff);
		remove(tntff);
		free(d);
		return rc;
	}

	/* Host clock: every rank's first execution starts 2 ms after the capture
	 * began (ranks launched a few us apart); the device clock is the NTFF's. */
	int64_t off = CAP_BASE_NS + 2000000 + 1500 * rank - d->start[0];
	int64_t end = host_of(off, d->nexec - 1, d->end[d->nexec - 1]) + 400000;
	snprintf(base, sizeof(base), "neff_%s.neff", d->hash);
	if (!rc)
		rc = join(path, sizeof(path), dir, "ntrace.pb", st);
	if (!rc)
		rc = write_ntrace(path, p, d, inst, pid, rank, off, base, &res->runtime_events, st);
	if (!rc)
		rc = join(path, sizeof(path), dir, "trace.json", st);
	if (!rc)
		rc = write_trace_json(path, p, d, pid, rank, off, &res->framework_events, st);
	if (!rc)
		rc = write_host_stats(dir, inst, pid, end, rng, st);
	if (!rc) {
		static const int64_t hbm_gib[] = {32, 32, 96}; /* trn1, inf2, trn2 (public); trn3: left out */
		static const char *const archs[] = {"trn1", "inf2", "trn2"};
		nxp_system_metadata md;
		memset(&md, 0, sizeof(md));
		md.struct_size = sizeof(md);
		md.first_ts_ns = CAP_BASE_NS;
		md.last_ts_ns = end;
		md.ntff_version = d->ntff_version;
		md.hbm_capacity_bytes = -1;
		for (int i = 0; i < 3; i++)
			if (!strcmp(p->arch, archs[i]))
				md.hbm_capacity_bytes = hbm_gib[i] << 30;
		md.instance_id = inst;
		md.instance_type = d->instance_type;
		md.arch = p->arch;
		md.runtime_version = "synthetic (nxp synth)";
		md.driver_version = "synthetic (nxp synth)";
		md.pid = pid;
		md.session_id = 1;
		md.logical_nc_size = p->lnc;
		md.num_neuron_cores = 1;
		md.data_version = 1;
		rc = join(path, sizeof(path), dir, "trace_info.pb", st);
		if (!rc)
			rc = nxp_trace_info_write(path, &md, 0, st);
	}
	if (!rc) {
		res->executions += d->nexec;
		res->device_instructions += sr.instructions;
		int64_t dev = d->end[d->nexec - 1] - d->start[0];
		if (dev > res->slowest_ns) {
			res->slowest_ns = dev;
			res->straggler = rank;
		}
	}
	free(d);
	return rc;
}

int synth_capture_run(const synth_params *p, const char *dir, int ranks, synth_capture_result *res,
		      nxp_status *st)
{
	synth_capture_result local;
	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	res->straggler = -1;
	nxp_status_init(st);
	if (!p || !dir || !*dir || ranks < 1 || ranks > SYNTH_MAX_RANKS || p->executions > CAP_MAX_EXEC)
		return cfail(st, NXP_E_INVAL, "synth capture: invalid parameters (ranks must be 1..%d)", SYNTH_MAX_RANKS);
	int rc = make_dirs(dir, st);
	if (rc)
		return rc;
	synth_rng rng;
	synth_rng_seed(&rng, p->seed ^ 0x63617074757265ull); /* "capture" */
	char inst[24];
	snprintf(inst, sizeof(inst), "i-0%016" PRIx64, synth_rng_next(&rng));
	for (int r = 0; r < ranks && !rc; r++)
		rc = run_rank(p, dir, inst, r, &rng, res, st);
	res->ranks = rc ? 0 : ranks;
	return rc;
}
