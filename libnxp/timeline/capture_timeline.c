/* SPDX-License-Identifier: MIT */
/* nxp_capture_export_timeline(): a capture directory as Perfetto traces, named
 * as the reference tool names them: OUT/device_profile_<name>.pftrace per
 * device profile (<name> = the NTFF file name without ".ntff"), and
 * OUT/system_profile.pftrace with the system events as slices and the host
 * CPU / memory samples as counters.
 *
 * System rows are grouped as the reference tool's defaults: a process-level
 * track per primary group (instance_id, process_id) and under it one slice
 * track per secondary group (worker_gid, lnc_idx, thread_id).  nxp_system_event
 * has no lnc_idx: the secondary key is worker_gid and thread_id (doc/timeline.md).
 * Rows are written in the order the cursor returns them.  Perfetto pairs a
 * track's slices by time, so a slice track takes a row only when the row keeps
 * the track properly nested (it starts at or after the track's last start and
 * ends inside its open ancestor, or after it); a row that does not fit goes to
 * the first lane track ("<name> lane k") where it does, up to TL_SYS_LANES
 * lanes (past that the last lane takes it, and may nest wrongly). */
#include "timeline_priv.h"

#include "nxp/system.h"
#include "nxp/timeline.h"
#include "abi_struct.h"
#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TL_SYS_LANES 64
#define TL_SYS_DEPTH 32

typedef struct cgroup {
	char *key;      /* "P|<instance>|<pid>" or "S|<primary>|<gid>|<tid>" or "C|<primary>|<cpu>" */
	uint64_t uuid;
	/* slice tracks: the last start and the ends of the open slices */
	int64_t last_start;
	int64_t ends[TL_SYS_DEPTH];
	int depth;
} cgroup;

/* Does [a, b] keep slice track g properly nested?  If so, record it. */
static int lane_take(cgroup *g, int64_t a, int64_t b, int force)
{
	if (g->depth && a < g->last_start && !force)
		return 0;
	while (g->depth && g->ends[g->depth - 1] <= a)
		g->depth--;
	if (g->depth && b > g->ends[g->depth - 1] && !force)
		return 0;
	if (g->depth == TL_SYS_DEPTH && !force)
		return 0;
	if (g->depth == TL_SYS_DEPTH)
		g->depth--;
	g->ends[g->depth++] = b;
	g->last_start = a;
	return 1;
}

typedef struct sx {
	tl_sink *sink;
	nxp_status *st;
	cgroup *g;
	size_t n, cap;
	int32_t next_pid, next_tid;
	int64_t events, tracks;
} sx;

/* The track of `key`, declared on first use. */
static uint64_t sx_track(sx *x, const char *key, uint64_t parent, int kind, const char *name, int32_t pid,
			 const char *unit)
{
	for (size_t i = x->n; i-- > 0;)
		if (!strcmp(x->g[i].key, key))
			return x->g[i].uuid;
	if (x->n == x->cap) {
		size_t nc = x->cap ? 2 * x->cap : 64;
		cgroup *ng = realloc(x->g, nc * sizeof(*ng));
		if (!ng)
			return 0;
		x->g = ng;
		x->cap = nc;
	}
	char *k = strdup(key);
	if (!k)
		return 0;
	uint64_t uuid = nxp__tl_hash(key, strlen(key), TL_FNV_OFFSET) | 1u;
	tl_track t = {uuid, parent, kind, name, pid, kind == TL_TRACK_SLICE ? ++x->next_tid : -1,
		      (int32_t)x->n, unit};
	if (x->sink->track(x->sink, &t)) {
		free(k);
		return 0;
	}
	memset(&x->g[x->n], 0, sizeof(x->g[x->n]));
	x->g[x->n].key = k;
	x->g[x->n].uuid = uuid;
	x->n++;
	x->tracks++;
	return uuid;
}

static cgroup *sx_find(sx *x, uint64_t uuid)
{
	for (size_t i = x->n; i-- > 0;)
		if (x->g[i].uuid == uuid)
			return &x->g[i];
	return NULL;
}

static uint64_t sx_primary(sx *x, const char *instance_id, int64_t process_id, const char *pid_text, int32_t *pid)
{
	char key[512], name[512];
	snprintf(key, sizeof(key), "P|%s|%lld|%s", instance_id ? instance_id : "", (long long)process_id,
		 pid_text ? pid_text : "");
	snprintf(name, sizeof(name), "%s%spid %s", instance_id && *instance_id ? instance_id : "",
		 instance_id && *instance_id ? " " : "", pid_text && *pid_text ? pid_text : "?");
	for (size_t i = x->n; i-- > 0;)
		if (!strcmp(x->g[i].key, key)) {
			*pid = (int32_t)(i + 1);
			return x->g[i].uuid;
		}
	*pid = (int32_t)(x->n + 1);
	return sx_track(x, key, 0, TL_TRACK_PROCESS, name, *pid, NULL);
}

static int sx_events(sx *x, const nxp_capture *c, const char *dir)
{
	nxp_system_events *ev = NULL;
	nxp_status est;
	nxp_status_init(&est);
	int rc = nxp_capture_open_events(c, -1, NULL, &ev, &est);
	if (rc == NXP_E_NOT_FOUND)
		return 0; /* no event files: a system file with counters only */
	if (rc)
		return nxp__error_set(x->st, rc, -1, "%s: system events: %s", dir, est.message);
	nxp_system_event e;
	e.struct_size = sizeof(e);
	while ((rc = nxp_system_events_next(ev, &e)) == 0) {
		int32_t pid;
		uint64_t p = sx_primary(x, e.instance_id, e.process_id, e.pid, &pid);
		char key[640], name[256];
		snprintf(key, sizeof(key), "S|%llu|%lld|%s", (unsigned long long)p, (long long)e.worker_gid,
			 e.tid ? e.tid : "");
		if (e.worker_gid >= 0)
			snprintf(name, sizeof(name), "worker %lld thread %s", (long long)e.worker_gid, e.tid ? e.tid : "?");
		else
			snprintf(name, sizeof(name), "thread %s", e.tid && *e.tid ? e.tid : "?");
		int64_t dur = e.end_ts > e.start_ts ? e.end_ts - e.start_ts : 0;
		uint64_t t = p ? sx_track(x, key, p, TL_TRACK_SLICE, name, pid, NULL) : 0;
		uint64_t base = t;
		for (int lane = 1; t; lane++) {
			cgroup *g = sx_find(x, t);
			if (!g || lane_take(g, e.start_ts, e.start_ts + dur, lane > TL_SYS_LANES))
				break;
			char lkey[700], lname[300];
			snprintf(lkey, sizeof(lkey), "%s|lane %d", key, lane);
			snprintf(lname, sizeof(lname), "%s lane %d", name, lane);
			t = sx_track(x, lkey, base, TL_TRACK_SLICE, lname, pid, NULL);
		}
		if (!t) {
			nxp_system_events_close(ev);
			return nxp__error_set(x->st, NXP_E_NOMEM, -1, "out of memory (system timeline tracks)");
		}
		tl_arg a[6] = {
			{"source", TL_ARG_STRING, 0, 0, e.trace_event_source ? e.trace_event_source : ""},
			{"id", TL_ARG_INT, e.id, 0, NULL},
			{"nc_idx", TL_ARG_INT, e.nc_idx, 0, NULL},
			{"worker_gid", TL_ARG_INT, e.worker_gid, 0, NULL},
			{"flow_id", TL_ARG_STRING, 0, 0, e.flow_id ? e.flow_id : ""},
			{"flags", TL_ARG_INT, (int64_t)e.flags, 0, NULL},
		};
		tl_event te = {t, e.start_ts, dur, e.name && *e.name ? e.name : "?", a, 6, NULL, 0, NULL, 0};
		if (x->sink->event(x->sink, &te)) {
			nxp_system_events_close(ev);
			return x->st->code ? x->st->code : NXP_E_IO;
		}
		x->events++;
	}
	if (rc != NXP_END) {
		nxp_system_events_error(ev, &est);
		nxp_system_events_close(ev);
		return nxp__error_set(x->st, rc, -1, "%s: system events: %s", dir, est.message);
	}
	nxp_system_events_close(ev);
	return 0;
}

static int sx_host(sx *x, const nxp_capture *c, const nxp_capture_process *pr, int64_t file, int kind)
{
	nxp_capture_file f;
	f.struct_size = sizeof(f);
	if (file < 0 || nxp_capture_get_file(c, (size_t)file, &f))
		return 0;
	nxp_status hst;
	nxp_status_init(&hst);
	nxp_source *src = NULL;
	nxp_host_stats *h = NULL;
	int rc = nxp_source_open_path(&src, f.path, &hst);
	if (!rc)
		rc = nxp_host_stats_open(&h, src, kind, NULL, &hst);
	if (rc) {
		if (src)
			nxp_source_close(src);
		return nxp__error_set(x->st, rc, -1, "%s: %s", f.path, hst.message);
	}
	char pidt[32];
	snprintf(pidt, sizeof(pidt), "%lld", (long long)pr->pid);
	int32_t pid;
	uint64_t p = sx_primary(x, pr->instance_id, pr->pid, pidt, &pid);
	for (;;) {
		char key[640], name[128];
		int64_t ts;
		double v;
		if (kind == NXP_SYSFILE_CPU_UTIL) {
			nxp_cpu_usage u;
			u.struct_size = sizeof(u);
			rc = nxp_host_stats_next_cpu(h, &u);
			if (rc)
				break;
			snprintf(key, sizeof(key), "C|%llu|%s", (unsigned long long)p, u.cpu_id ? u.cpu_id : "");
			snprintf(name, sizeof(name), "CPU %s %%", u.cpu_id ? u.cpu_id : "?");
			ts = u.timestamp;
			v = u.util_percent;
		} else {
			nxp_host_mem_usage m;
			m.struct_size = sizeof(m);
			rc = nxp_host_stats_next_mem(h, &m);
			if (rc)
				break;
			snprintf(key, sizeof(key), "M|%llu", (unsigned long long)p);
			snprintf(name, sizeof(name), "host memory used bytes");
			ts = m.timestamp;
			v = (double)m.used_bytes;
		}
		uint64_t t = p ? sx_track(x, key, p, TL_TRACK_COUNTER, name, pid,
					  kind == NXP_SYSFILE_CPU_UTIL ? "%" : "bytes")
			       : 0;
		if (!t) {
			rc = nxp__error_set(x->st, NXP_E_NOMEM, -1, "out of memory (system timeline tracks)");
			break;
		}
		if (x->sink->counter(x->sink, t, ts, v)) {
			rc = x->st->code ? x->st->code : NXP_E_IO;
			break;
		}
		x->events++;
	}
	if (rc != NXP_END && rc < 0 && !x->st->code) {
		nxp_host_stats_error(h, &hst);
		nxp__error_set(x->st, rc, -1, "%s: %s", f.path, hst.message);
	}
	nxp_host_stats_close(h);
	nxp_source_close(src);
	return rc == NXP_END ? 0 : rc;
}

static int write_system(const nxp_capture *c, const char *dir, const char *path, int overwrite,
			nxp_timeline_stats *out, nxp_status *st)
{
	struct stat sb;
	if (!overwrite && stat(path, &sb) == 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s exists (overwrite not allowed)", path);
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return nxp__error_set(st, NXP_E_IO, -1, "cannot create %s: %s", path, strerror(e));
	}
	(void)fchmod(fd, 0644);
	sx x;
	memset(&x, 0, sizeof(x));
	x.st = st;
	int rc = nxp__perfetto_sink_open(&x.sink, fd, st);
	if (rc) {
		unlink(tmp);
		free(tmp);
		return rc;
	}
	x.sink->st = st;
	rc = sx_events(&x, c, dir);
	for (size_t i = 0; !rc && i < nxp_capture_process_count(c); i++) {
		nxp_capture_process pr;
		pr.struct_size = sizeof(pr);
		if (nxp_capture_get_process(c, i, &pr))
			continue;
		rc = sx_host(&x, c, &pr, pr.cpu_util, NXP_SYSFILE_CPU_UTIL);
		if (!rc)
			rc = sx_host(&x, c, &pr, pr.host_mem, NXP_SYSFILE_HOST_MEM);
	}
	int64_t bytes = -1;
	if (!rc)
		rc = x.sink->finish(x.sink, &bytes);
	x.sink->destroy(x.sink);
	for (size_t i = 0; i < x.n; i++)
		free(x.g[i].key);
	free(x.g);
	if (!rc && bytes < 0)
		bytes = stat(tmp, &sb) == 0 ? (int64_t)sb.st_size : -1;
	if (!rc && rename(tmp, path)) {
		int e = errno;
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot rename %s to %s: %s", tmp, path, strerror(e));
	}
	if (rc)
		unlink(tmp);
	free(tmp);
	if (!rc) {
		out->events += x.events;
		out->tracks += x.tracks;
		out->bytes += bytes;
	}
	return rc;
}

NXP_API int nxp_capture_export_timeline(const char *dir, const char *out_dir, const nxp_timeline_options *opts,
					nxp_timeline_stats *stats, nxp_status *st)
{
	nxp_status local;
	nxp_status_init(&local);
	if (!st)
		st = &local;
	nxp_status_clear(st);
	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	if (!dir || !*dir || !out_dir || !*out_dir)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_export_timeline: NULL directory");
	if (opts && NXP__STRUCT_IN_DEFAULTS(o, opts, NXP_TIMELINE_OPTIONS_SIZE_V0_2))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_export_timeline: options struct_size too small");
	if (stats && !nxp__struct_size_ok(stats, NXP_TIMELINE_STATS_SIZE_V0_2))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_export_timeline: stats struct_size too small");
	if (o.format != NXP_TIMELINE_PERFETTO)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_export_timeline: only the Perfetto format");
	nxp_capture *c = NULL;
	int rc = nxp_capture_open(&c, dir, st);
	if (rc)
		return rc;
	if (mkdir(out_dir, 0755) && errno != EEXIST) {
		int e = errno;
		nxp_capture_close(c);
		return nxp__error_set(st, NXP_E_IO, -1, "cannot create %s: %s", out_dir, strerror(e));
	}
	nxp_timeline_stats sum;
	memset(&sum, 0, sizeof(sum));
	sum.struct_size = sizeof(sum);
	size_t olen = strlen(out_dir);
	for (size_t i = 0; !rc && i < nxp_capture_profile_count(c); i++) {
		nxp_capture_profile cp;
		cp.struct_size = sizeof(cp);
		nxp_capture_file f;
		f.struct_size = sizeof(f);
		if (nxp_capture_get_profile(c, i, &cp) || cp.ntff < 0 || cp.neff < 0 ||
		    nxp_capture_get_file(c, (size_t)cp.ntff, &f))
			continue;
		const char *base = strrchr(f.path, '/');
		base = base ? base + 1 : f.path;
		size_t bl = strlen(base);
		if (bl > 5 && !strcmp(base + bl - 5, ".ntff"))
			bl -= 5;
		size_t plen = olen + bl + 40;
		char *path = malloc(plen);
		if (!path) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		}
		snprintf(path, plen, "%s/device_profile_%.*s.pftrace", out_dir, (int)bl, base);
		nxp_profile *p = NULL;
		rc = nxp_capture_open_profile(c, i, NULL, &p, st);
		if (!rc) {
			nxp_timeline_stats ts;
			memset(&ts, 0, sizeof(ts));
			ts.struct_size = sizeof(ts);
			rc = nxp_profile_export_timeline(p, path, &o, &ts, st);
			nxp_profile_close(p);
			sum.events += ts.events;
			sum.tracks += ts.tracks;
			sum.bytes += ts.bytes;
			sum.truncated |= ts.truncated;
			sum.read_errors += ts.read_errors;
			sum.bad_records += ts.bad_records;
			sum.input_bytes += ts.input_bytes;
			sum.skipped_sections += ts.skipped_sections;
		}
		free(path);
	}
	if (!rc) {
		size_t plen = olen + 32;
		char *path = malloc(plen);
		if (!path) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		} else {
			snprintf(path, plen, "%s/system_profile.pftrace", out_dir);
			rc = write_system(c, dir, path, o.overwrite, &sum, st);
			free(path);
		}
	}
	nxp_capture_close(c);
	if (!rc && stats)
		NXP__STRUCT_OUT(stats, sum, NXP_TIMELINE_STATS_SIZE_V0_2);
	return rc;
}
