/* SPDX-License-Identifier: MIT */
/* System tables, from a system-profile path (a file or a capture directory):
 * SystemProfileEvents (nxp_system_events_open_path), CpuUsage and
 * HostMemUsage (every cpu_util.pb / host_mem.pb, streamed), and
 * SystemProfileMetadata (one row per trace_info.pb).  A single file fills
 * the tables of its kind, known by its name as in a capture (sys_kind_of_name;
 * a name of no kind is read as events, ntrace.pb or trace.json by content);
 * the other tables have no rows. */
#include "columnar_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "status.h"
#include "system_priv.h"

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define NS "nanoseconds"

static void opt_str(nxc_builder *b, int col, const char *s)
{
	if (s && *s)
		nxc_put_str(b, col, s);
	else
		nxc_put_null(b, col);
}

static void opt_i64(nxc_builder *b, int col, int64_t v)
{
	if (v >= 0)
		nxc_put_i64(b, col, v);
	else
		nxc_put_null(b, col);
}

/* ---- the files of one kind under a path ---- */
typedef struct sys_files {
	char **path;
	char **instance;
	size_t n;
} sys_files;

static void files_free(sys_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->path[i]);
		free(f->instance[i]);
	}
	free(f->path);
	free(f->instance);
	memset(f, 0, sizeof(*f));
}

static int files_add(sys_files *f, const char *path, const char *inst)
{
	char **p = realloc(f->path, (f->n + 1) * sizeof(*p));
	if (!p)
		return NXP_E_NOMEM;
	f->path = p;
	char **q = realloc(f->instance, (f->n + 1) * sizeof(*q));
	if (!q)
		return NXP_E_NOMEM;
	f->instance = q;
	f->path[f->n] = strdup(path);
	f->instance[f->n] = strdup(inst ? inst : "");
	if (!f->path[f->n] || !f->instance[f->n]) {
		free(f->path[f->n]);
		free(f->instance[f->n]);
		return NXP_E_NOMEM;
	}
	f->n++;
	return 0;
}

/* The kind of a single file at `path` by its name (0: a name of no kind). */
static int file_kind_of(const char *path)
{
	const char *b = strrchr(path, '/');
	return sys_kind_of_name(b ? b + 1 : path);
}

static int files_find(sys_files *f, const char *path, int kind, nxp_status *st)
{
	struct stat sb;
	if (stat(path, &sb) != 0)
		return nxp__error_set(st, NXP_E_IO, -1, "%s: cannot stat: %s", path, strerror(errno));
	if (!S_ISDIR(sb.st_mode)) {
		if (file_kind_of(path) != kind)
			return 0; /* another kind's file: no rows here */
		return files_add(f, path, NULL) ? nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory") : 0;
	}
	nxp_capture *c;
	int rc = nxp_capture_open(&c, path, st);
	if (rc)
		return rc;
	size_t n = nxp_capture_file_count(c);
	for (size_t i = 0; i < n && !rc; i++) {
		nxp_capture_file cf;
		cf.struct_size = sizeof(cf);
		if (nxp_capture_get_file(c, i, &cf) || cf.kind != kind)
			continue;
		const char *inst = NULL;
		nxp_capture_process pr;
		pr.struct_size = sizeof(pr);
		if (cf.process_index >= 0 && nxp_capture_get_process(c, (size_t)cf.process_index, &pr) == 0)
			inst = pr.instance_id;
		if (files_add(f, cf.path, inst))
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	nxp_capture_close(c);
	return rc;
}

/* ---- SystemProfileEvents ---- */
enum { E_ID, E_NAME, E_START, E_END, E_DUR, E_SRC, E_INST, E_PID, E_TID, E_NC, E_PCORE, E_GID, E_FSTREAM, E_EXTRA,
       E_FLOW, E_PHASE, E_FLAGS };
static const nxc_col ev_cols[] = {
	{ "id", NXC_I64, 1, 0, 0, 0, 0, 0, "", "ntrace event id; trace.json row number" },
	{ "name", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "event name" },
	{ "start_ts", NXC_I64, 1, 0, 0, 0, 0, 0, NS, "start, Unix ns" },
	{ "end_ts", NXC_I64, 1, 0, 0, 0, 0, 0, NS, "end, Unix ns" },
	{ "duration_ns", NXC_I64, 1, 0, 0, 0, 0, 0, NS, "end_ts - start_ts" },
	{ "trace_event_source", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "neuron_rt, neuron_hw or framework" },
	{ "instance_id", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "instance" },
	{ "process_id", NXC_I64, 1, 0, 0, 0, 0, 0, "", "process id (-1 when the pid is not a number)" },
	{ "thread_id", NXC_I64, 1, 0, 0, 0, 0, 0, "", "thread id (-1 when the tid is not a number)" },
	{ "nc_idx", NXC_I64, 0, 0, 0, 0, 0, 0, "", "NeuronCore; null if absent" },
	{ "pcore_idx", NXC_I64, 0, 0, 0, 0, 0, 0, "", "physical core; null if absent" },
	{ "worker_gid", NXC_I64, 0, 0, 0, 0, 0, 0, "", "worker global id; null if absent" },
	{ "framework_stream_id", NXC_DICT, 0, 0, 0, 0, 0, 0, "", "framework stream; null if none" },
	{ "extra_attributes_json", NXC_UTF8, 0, 0, 0, 0, 0, 0, "", "other attributes, a JSON object" },
	{ "flow_id", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: the flow id as a string (the public schema's array of string holds this one element); null if none" },
	{ "phase", NXC_DICT, 1, 1, 0, 0, 0, 0, "", "libnxp: trace.json ph; ntrace X paired, i instant, B/E unpaired" },
	{ "flags", NXC_I64, 1, 1, 0, 0, 0, 0, "", "libnxp: NXP_SYSEV_* bits (unmatched start/stop, hardware, software, ...)" },
};

static void ev_free(void *p)
{
	nxp_system_events_close(p);
}

static int64_t ev_fill(nxc_stream *s, int64_t max)
{
	nxp_system_events *c = s->ctx;
	nxc_builder *b = &s->b;
	while (b->rows < max) {
		nxp_system_event e;
		memset(&e, 0, sizeof(e));
		e.struct_size = sizeof(e);
		int rc = nxp_system_events_next(c, &e);
		if (rc == NXP_END)
			break;
		if (rc < 0) {
			nxp_status est;
			nxp_status_init(&est);
			nxp_system_events_error(c, &est);
			nxc_stream_error(s, "SystemProfileEvents: %s", est.message[0] ? est.message : nxp_strerror(rc));
			return rc; /* rows of this batch are dropped with the error */
		}
		if (e.start_ts < s->opts.start_ts || e.start_ts >= s->opts.end_ts)
			continue;
		if (s->opts.pcore_idx >= 0 && e.pcore_idx != s->opts.pcore_idx)
			continue;
		nxc_put_i64(b, E_ID, e.id);
		nxc_put_str(b, E_NAME, e.name);
		nxc_put_i64(b, E_START, e.start_ts);
		nxc_put_i64(b, E_END, e.end_ts);
		nxc_put_i64(b, E_DUR, e.duration_ns);
		nxc_put_str(b, E_SRC, e.trace_event_source);
		nxc_put_str(b, E_INST, e.instance_id);
		nxc_put_i64(b, E_PID, e.process_id);
		nxc_put_i64(b, E_TID, e.thread_id);
		opt_i64(b, E_NC, e.nc_idx);
		opt_i64(b, E_PCORE, e.pcore_idx);
		opt_i64(b, E_GID, e.worker_gid);
		opt_str(b, E_FSTREAM, e.framework_stream_id);
		opt_str(b, E_EXTRA, e.extra_attributes_json);
		opt_str(b, E_FLOW, e.flow_id);
		nxc_put_str(b, E_PHASE, e.phase);
		nxc_put_i64(b, E_FLAGS, e.flags);
		nxc_end_row(b);
	}
	return b->rows;
}

static int64_t no_rows(nxc_stream *s, int64_t max)
{
	(void)s, (void)max;
	return 0;
}

static int ev_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)p;
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		int k = file_kind_of(path);
		if (k && k != NXP_SYSFILE_NTRACE && k != NXP_SYSFILE_TRACE_JSON) {
			s->fill = no_rows; /* trace_info.pb, cpu_util.pb, ...: no events */
			return 0;
		}
	}
	nxp_system_events *c;
	int rc = nxp_system_events_open_path(&c, path, NULL, st);
	if (rc)
		return rc;
	s->ctx = c;
	s->free_ctx = ev_free;
	s->fill = ev_fill;
	return 0;
}

/* ---- CpuUsage and HostMemUsage: streamed over every file of the kind ---- */
typedef struct hs_ctx {
	sys_files files;
	size_t next;
	int kind;
	nxp_source *src;
	nxp_host_stats *h;
} hs_ctx;

static void hs_free(void *p)
{
	hs_ctx *c = p;
	if (!c)
		return;
	nxp_host_stats_close(c->h);
	nxp_source_close(c->src);
	files_free(&c->files);
	free(c);
}

enum { C_TS, C_UTIL, C_CPU, C_INST };
static const nxc_col cpu_cols[] = {
	{ "timestamp", NXC_I64, 1, 0, 0, 0, 0, 0, NS, "sample time, Unix ns" },
	{ "util_percent", NXC_F64, 1, 0, 0, 0, 0, 0, "percent", "utilisation as stored in the file" },
	{ "cpu_id", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "core number or average" },
	{ "instance_id", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "instance" },
};
enum { M_TS, M_USED, M_PCT, M_INST, M_TOTAL };
static const nxc_col mem_cols[] = {
	{ "timestamp", NXC_I64, 1, 0, 0, 0, 0, 0, NS, "sample time, Unix ns" },
	{ "used_bytes", NXC_I64, 1, 0, 0, 0, 0, 0, "bytes", "memory used" },
	{ "used_percent", NXC_F64, 1, 0, 0, 0, 0, 0, "percent", "memory used as stored in the file" },
	{ "instance_id", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "instance" },
	{ "total_bytes", NXC_I64, 0, 1, 0, 0, 0, 0, "bytes", "libnxp: memory size; null if the sample has none" },
};

static int64_t hs_fill(nxc_stream *s, int64_t max)
{
	hs_ctx *c = s->ctx;
	nxc_builder *b = &s->b;
	while (b->rows < max) {
		if (!c->h) {
			if (c->next >= c->files.n)
				break;
			nxp_status st;
			nxp_status_init(&st);
			nxp_system_options so;
			nxp_system_options_init(&so);
			so.instance_id = c->files.instance[c->next];
			int rc = nxp_source_open_path(&c->src, c->files.path[c->next], &st);
			if (rc == 0)
				rc = nxp_host_stats_open(&c->h, c->src, c->kind, &so, &st);
			c->next++;
			if (rc) {
				nxc_stream_error(s, "%s: %s", s->t->name, st.message);
				return rc;
			}
		}
		int rc;
		if (c->kind == NXP_SYSFILE_CPU_UTIL) {
			nxp_cpu_usage u;
			u.struct_size = sizeof(u);
			rc = nxp_host_stats_next_cpu(c->h, &u);
			if (rc == 0 && u.timestamp >= s->opts.start_ts && u.timestamp < s->opts.end_ts) {
				nxc_put_i64(b, C_TS, u.timestamp);
				nxc_put_f64(b, C_UTIL, u.util_percent);
				nxc_put_str(b, C_CPU, u.cpu_id);
				nxc_put_str(b, C_INST, u.instance_id);
				nxc_end_row(b);
			}
		} else {
			nxp_host_mem_usage u;
			u.struct_size = sizeof(u);
			rc = nxp_host_stats_next_mem(c->h, &u);
			if (rc == 0 && u.timestamp >= s->opts.start_ts && u.timestamp < s->opts.end_ts) {
				nxc_put_i64(b, M_TS, u.timestamp);
				nxc_put_i64(b, M_USED, u.used_bytes);
				nxc_put_f64(b, M_PCT, u.used_percent);
				nxc_put_str(b, M_INST, u.instance_id);
				opt_i64(b, M_TOTAL, u.total_bytes);
				nxc_end_row(b);
			}
		}
		if (rc == NXP_END) {
			nxp_host_stats_close(c->h);
			nxp_source_close(c->src);
			c->h = NULL;
			c->src = NULL;
		} else if (rc < 0) {
			nxp_status st;
			nxp_status_init(&st);
			nxp_host_stats_error(c->h, &st);
			nxc_stream_error(s, "%s: %s", s->t->name, st.message[0] ? st.message : nxp_strerror(rc));
			return rc;
		}
	}
	return b->rows;
}

static int hs_open(nxc_stream *s, const char *path, int kind, nxp_status *st)
{
	hs_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	c->kind = kind;
	int rc = files_find(&c->files, path, kind, st);
	if (rc) {
		hs_free(c);
		return rc;
	}
	s->ctx = c;
	s->free_ctx = hs_free;
	s->fill = hs_fill;
	return 0;
}

static int cpu_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)p;
	return hs_open(s, path, NXP_SYSFILE_CPU_UTIL, st);
}

static int mem_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)p;
	return hs_open(s, path, NXP_SYSFILE_HOST_MEM, st);
}

/* ---- SystemProfileMetadata ---- */
enum { T_FIRST, T_LAST, T_FIRST_NS, T_LAST_NS, T_NTFF, T_HBM, T_INST, T_ITYPE, T_ARCH, T_RT, T_DRV, T_PID };
static const nxc_col md_cols[] = {
	{ "first_ts", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "first event, ISO-8601 UTC" },
	{ "last_ts", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "last event, ISO-8601 UTC" },
	{ "first_ts_ns", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "first event, Unix ns as text" },
	{ "last_ts_ns", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "last event, Unix ns as text" },
	{ "ntff_version", NXC_I64, 1, 0, 0, 0, 0, 0, "", "NTFF version of the capture" },
	{ "hbm_capacity_bytes", NXC_I64, 1, 0, 0, 0, 0, 0, "bytes", "HBM capacity" },
	{ "instance_id", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: instance; null if absent" },
	{ "instance_type", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: instance type; null if absent" },
	{ "arch", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: architecture; null if absent" },
	{ "runtime_version", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: runtime version; null if absent" },
	{ "driver_version", NXC_UTF8, 0, 1, 0, 0, 0, 0, "", "libnxp: driver version; null if absent" },
	{ "pid", NXC_I64, 0, 1, 0, 0, 0, 0, "", "libnxp: process id; null if absent" },
};

static int md_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)p;
	sys_files f = { 0 };
	int rc = files_find(&f, path, NXP_SYSFILE_TRACE_INFO, st);
	for (size_t i = 0; i < f.n && !rc; i++) {
		nxp_source *src;
		nxp_trace_info *ti = NULL;
		rc = nxp_source_open_path(&src, f.path[i], st);
		if (rc)
			break;
		rc = nxp_trace_info_open(&ti, src, NULL, st);
		nxp_system_metadata m;
		memset(&m, 0, sizeof(m));
		m.struct_size = sizeof(m);
		if (rc == 0)
			rc = nxp_trace_info_get(ti, &m);
		if (rc == 0) {
			char tmp[32];
			nxc_builder *b = &s->b;
			nxc_put_str(b, T_FIRST, m.first_ts);
			nxc_put_str(b, T_LAST, m.last_ts);
			snprintf(tmp, sizeof(tmp), "%lld", (long long)m.first_ts_ns);
			nxc_put_str(b, T_FIRST_NS, tmp);
			snprintf(tmp, sizeof(tmp), "%lld", (long long)m.last_ts_ns);
			nxc_put_str(b, T_LAST_NS, tmp);
			nxc_put_i64(b, T_NTFF, m.ntff_version);
			nxc_put_i64(b, T_HBM, m.hbm_capacity_bytes);
			opt_str(b, T_INST, m.instance_id && *m.instance_id ? m.instance_id : f.instance[i]);
			opt_str(b, T_ITYPE, m.instance_type);
			opt_str(b, T_ARCH, m.arch);
			opt_str(b, T_RT, m.runtime_version);
			opt_str(b, T_DRV, m.driver_version);
			opt_i64(b, T_PID, m.pid);
			nxc_end_row(b);
		}
		nxp_trace_info_close(ti);
		nxp_source_close(src);
	}
	files_free(&f);
	return rc;
}

static int md_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, md_rows, p, path, st);
}

const nxc_table nxc_table_system_events = { "SystemProfileEvents", NXC_KIND_SYSTEM, 0, 0, ev_cols, NCOLS(ev_cols),
					    ev_open };
const nxc_table nxc_table_system_metadata = { "SystemProfileMetadata", NXC_KIND_SYSTEM, 0, 0, md_cols,
					      NCOLS(md_cols), md_open };
const nxc_table nxc_table_cpu_usage = { "CpuUsage", NXC_KIND_SYSTEM, 0, 0, cpu_cols, NCOLS(cpu_cols), cpu_open };
const nxc_table nxc_table_host_mem_usage = { "HostMemUsage", NXC_KIND_SYSTEM, 0, 0, mem_cols, NCOLS(mem_cols),
					     mem_open };
