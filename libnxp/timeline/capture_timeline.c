/* SPDX-License-Identifier: MIT */
/* nxp_capture_export_timeline(): a capture directory as Perfetto traces, named
 * as the reference tool names them: OUT/device_profile_<name>.pftrace per
 * device profile (<name> = the NTFF file name without ".ntff"),
 * OUT/system_profile.pftrace with the system events as slices and the host
 * CPU / memory samples as counters, and with opts->combined
 * OUT/combined_profile.pftrace: the system content plus every device profile
 * moved onto host time by the capture's clock map.
 *
 * System rows are grouped as the reference tool groups them: a process-level
 * track per primary tuple (default instance_id, process_id) and under it one
 * slice track per secondary tuple (default worker_gid, lnc_idx, thread_id).  A
 * field a row does not carry groups as "unknown" and is left out of the track
 * name; nxp_system_event has no lnc_idx column, so lnc_idx is read from an
 * `lnc_idx` attribute of the event when it has one (doc/timeline.md).
 *
 * Rows are written in the order the cursor returns them.  Perfetto pairs a
 * track's slices by time, so a slice track takes a row only when the row keeps
 * the track properly nested (it starts at or after the track's last start and
 * ends inside its open ancestor, or after it); a row that does not fit goes to
 * the first lane track ("<name> lane k") where it does, up to TL_SYS_LANES
 * lanes (past that the last lane takes it, and may nest wrongly).
 *
 * Flows: rows that share a flow_id (trace.json s/t/f rows: the same id within
 * the same category) are chained by Perfetto flows in time order (flow_ids, 47,
 * on every row but the last, terminating_flow_ids, 48, on the last).  That
 * needs to know the last row of each id, so the events are read twice: a first
 * pass counts the rows of each flow id (and collects the sync points of the
 * clock map), the second writes. */
#include "timeline_priv.h"

#include "nxp/system.h"
#include "nxp/timeline.h"
#include "abi_struct.h"
#include "status.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TL_SYS_LANES 64
#define TL_SYS_DEPTH 32
#define TL_MAX_GROUP_FIELDS 8
#define TL_MAX_FLOW_KEYS (1u << 18) /* distinct flow ids with arrows: a map of at most 2^19 x 40 B = 21 MB */

/* ---- group fields ---- */

enum gfield {
	G_INSTANCE, G_PROCESS, G_THREAD, G_NC, G_PCORE, G_WORKER, G_LNC, G_ND, G_SOURCE, G_STREAM, G_NAME, G_COUNT
};
static const char *const gfield_names[G_COUNT] = {"instance_id", "process_id", "thread_id", "nc_idx",
						   "pcore_idx", "worker_gid", "lnc_idx", "nd_idx",
						   "trace_event_source", "framework_stream_id", "name"};
/* Label before the value in a track name ("" = the value alone). */
static const char *const gfield_labels[G_COUNT] = {"", "pid ", "thread ", "nc ", "pcore ", "worker ",
						    "lnc ", "device ", "", "stream ", ""};

typedef struct gspec {
	int n;
	int f[TL_MAX_GROUP_FIELDS];
} gspec;

static int gspec_parse(gspec *g, const char *s, const char *what, nxp_status *st)
{
	g->n = 0;
	while (s && *s) {
		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, ", ");
		int k = -1;
		for (int i = 0; i < G_COUNT; i++)
			if (strlen(gfield_names[i]) == n && !memcmp(gfield_names[i], s, n))
				k = i;
		if (k < 0)
			return nxp__error_set(st, NXP_E_INVAL, -1,
					      "%s: unknown field '%.*s' (instance_id, process_id, thread_id, nc_idx, "
					      "pcore_idx, worker_gid, lnc_idx, nd_idx, trace_event_source, "
					      "framework_stream_id, name)",
					      what, (int)(n > 64 ? 64 : n), s);
		if (g->n == TL_MAX_GROUP_FIELDS)
			return nxp__error_set(st, NXP_E_INVAL, -1, "%s: more than %d fields", what,
					      TL_MAX_GROUP_FIELDS);
		g->f[g->n++] = k;
		s += n;
	}
	return 0;
}

/* An integer attribute of an extra_attributes_json object (number or decimal
 * string), or 0 when absent.  A cheap substring test first: most rows have none. */
static int attr_i64(const char *json, const char *key, int64_t *v)
{
	char q[64];
	snprintf(q, sizeof(q), "\"%s\"", key);
	if (!json || !strstr(json, q))
		return 0;
	json_t *o = json_loads(json, 0, NULL);
	json_t *x = o ? json_object_get(o, key) : NULL;
	int ok = 0;
	if (json_is_integer(x)) {
		*v = json_integer_value(x);
		ok = 1;
	} else if (json_is_string(x)) {
		const char *s = json_string_value(x);
		char *end;
		errno = 0;
		long long r = strtoll(s, &end, 10);
		if (*s && !*end && errno != ERANGE) {
			*v = r;
			ok = 1;
		}
	}
	json_decref(o);
	return ok;
}

static int attr_str(const char *json, const char *key, char *out, size_t n)
{
	char q[64];
	snprintf(q, sizeof(q), "\"%s\"", key);
	if (!json || !strstr(json, q))
		return 0;
	json_t *o = json_loads(json, 0, NULL);
	json_t *x = o ? json_object_get(o, key) : NULL;
	int ok = json_is_string(x);
	if (ok)
		snprintf(out, n, "%s", json_string_value(x));
	json_decref(o);
	return ok;
}

/* The value of field f of row e as text, or NULL when the row does not have it. */
static const char *gvalue(const nxp_system_event *e, int f, char *buf, size_t n)
{
	int64_t v = -1;
	switch (f) {
	case G_INSTANCE: return e->instance_id && *e->instance_id ? e->instance_id : NULL;
	case G_PROCESS:
		if (e->process_id >= 0)
			break;
		return e->pid && *e->pid ? e->pid : NULL;
	case G_THREAD:
		if (e->thread_id >= 0) {
			v = e->thread_id;
			break;
		}
		return e->tid && *e->tid ? e->tid : NULL;
	case G_NC: v = e->nc_idx; break;
	case G_PCORE: v = e->pcore_idx; break;
	case G_WORKER: v = e->worker_gid; break;
	case G_LNC:
		if (!attr_i64(e->extra_attributes_json, "lnc_idx", &v))
			return NULL;
		if (v < 0)
			return NULL;
		break;
	case G_ND: v = e->nd_idx; break;
	case G_SOURCE: return e->trace_event_source && *e->trace_event_source ? e->trace_event_source : NULL;
	case G_STREAM: return e->framework_stream_id && *e->framework_stream_id ? e->framework_stream_id : NULL;
	default: return e->name && *e->name ? e->name : NULL;
	}
	if (f == G_PROCESS)
		v = e->process_id;
	if (v < 0)
		return NULL;
	snprintf(buf, n, "%lld", (long long)v);
	return buf;
}

/* Key (tag, then every value, "\x01" for absent) and display name of row e
 * under spec g (a key too long for `key` is cut: rows whose values differ only
 * past 1000 bytes share a track). */
static void gkey(const gspec *g, const nxp_system_event *e, const char *tag, char *key, size_t kn, char *name,
		 size_t nn)
{
	size_t k = (size_t)snprintf(key, kn, "%s", tag), m = 0;
	name[0] = 0;
	for (int i = 0; i < g->n; i++) {
		char buf[32];
		const char *v = gvalue(e, g->f[i], buf, sizeof(buf));
		if (k < kn)
			k += (size_t)snprintf(key + k, kn - k, "\x1f%s", v ? v : "\x01");
		if (v && m < nn)
			m += (size_t)snprintf(name + m, nn - m, "%s%s%s", m ? " " : "", gfield_labels[g->f[i]], v);
	}
	if (!name[0])
		snprintf(name, nn, "%s", g->n ? "unknown" : "all events");
}

/* ---- tracks of the system content ---- */

typedef struct cgroup {
	char *key;
	uint64_t uuid;
	int32_t pid;
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

/* ---- flow ids: rows per id, and the last one ---- */

typedef struct fent {
	uint64_t h;      /* 0 = empty */
	int64_t count;
	int64_t last_ts;
	int64_t last_row; /* ordinal of the last row (max ts, then the later row) */
	uint64_t id;      /* the flow id in the files (sequential, from the sinks' next_flow_id) */
} fent;

typedef struct fmap {
	fent *e;
	size_t cap, n;
	int full;
} fmap;

/* m->e: an nxp__tl_oa_* table (timeline_priv.h) on the low bits of the key's product. */
_Static_assert(offsetof(fent, h) == 0, "nxp__tl_oa_*: the key comes first");
#define FM_OA 0u

static fent *fmap_get(fmap *m, uint64_t h, int add)
{
	if (!h)
		h = 1;
	if (m->cap) {
		fent *e = &m->e[nxp__tl_oa_slot(m->e, m->cap, sizeof(fent), h, FM_OA)];
		if (e->h)
			return e;
	}
	if (!add)
		return NULL;
	if (m->n >= TL_MAX_FLOW_KEYS) {
		m->full = 1;
		return NULL;
	}
	if (nxp__tl_oa_reserve((void **)&m->e, &m->cap, m->n, sizeof(fent), 256, FM_OA))
		return NULL;
	fent *e = &m->e[nxp__tl_oa_slot(m->e, m->cap, sizeof(fent), h, FM_OA)];
	e->h = h;
	e->last_ts = INT64_MIN;
	m->n++;
	return e;
}

/* The flow key of a row: its flow_id, within its category for trace.json flow
 * rows (s/t/f); 0 = no flow. */
static uint64_t flow_hash(const nxp_system_event *e)
{
	if (!e->flow_id || !*e->flow_id)
		return 0;
	uint64_t h = nxp__tl_hash("F", 1, TL_FNV_OFFSET);
	h = nxp__tl_hash(e->flow_id, strlen(e->flow_id), h);
	if (e->phase && strchr("stf", e->phase[0]) && e->phase[0] && e->category) {
		h = nxp__tl_hash("\x1f", 1, h);
		h = nxp__tl_hash(e->category, strlen(e->category), h);
	}
	return h ? h : 1;
}

/* ---- device profiles of the combined file ---- */

typedef struct cexec {
	int64_t exec, pcore;
	int mappable;   /* its start and end map to host time */
	int matched;    /* an nrt_execute began a flow to it */
	int terminated; /* its device slice ended the flow */
	uint64_t fid;   /* its flow id */
} cexec;

typedef struct cprof {
	size_t index;      /* capture profile index */
	int64_t proc;      /* process index */
	int64_t nc;        /* NeuronCore of the clock map */
	char neff_base[256];
	char name[256];    /* NTFF name without .ntff */
	cexec *ex;
	size_t nex;
	int placed;        /* the clock map has sync points for its core */
	uint64_t host_parent; /* primary track of its first nrt_execute, 0 = none */
} cprof;


/* ---- the writer ---- */

typedef struct sx {
	tl_sink *sink;  /* system_profile.pftrace */
	tl_sink *csink; /* combined_profile.pftrace, or NULL */
	nxp_status *st;
	cgroup *g;
	size_t n, cap;
	int32_t next_tid;
	int64_t events, tracks, flows;
	gspec prim, sec;
	fmap flows_map;
	int64_t row;
	/* combined */
	nxp_clock_map **cm; /* per process */
	size_t nproc;
	cprof *prof;
	size_t nprof;
} sx;

static int sx_declare(sx *x, const tl_track *t)
{
	if (x->sink->track(x->sink, t))
		return -1;
	if (x->csink && x->csink->track(x->csink, t))
		return -1;
	return 0;
}

/* The track of `key`, declared on first use; pid: the process group's pid
 * (0 for a process track: a new one is chosen). */
static cgroup *sx_track(sx *x, const char *key, uint64_t parent, int kind, const char *name, int32_t pid,
			const char *unit)
{
	for (size_t i = x->n; i-- > 0;)
		if (!strcmp(x->g[i].key, key))
			return &x->g[i];
	if (x->n == x->cap) {
		size_t nc = x->cap ? 2 * x->cap : 64;
		cgroup *ng = realloc(x->g, nc * sizeof(*ng));
		if (!ng)
			return NULL;
		x->g = ng;
		x->cap = nc;
	}
	char *k = strdup(key);
	if (!k)
		return NULL;
	uint64_t uuid = nxp__tl_hash(key, strlen(key), TL_FNV_OFFSET) | 1u;
	if (kind == TL_TRACK_PROCESS)
		pid = (int32_t)(x->n + 1);
	tl_track t = {uuid, parent, kind, name, pid, kind == TL_TRACK_SLICE ? ++x->next_tid : -1, (int32_t)x->n,
		      unit};
	if (sx_declare(x, &t)) {
		free(k);
		return NULL;
	}
	cgroup *g = &x->g[x->n++];
	memset(g, 0, sizeof(*g));
	g->key = k;
	g->uuid = uuid;
	g->pid = pid;
	x->tracks++;
	return g;
}

static cgroup *sx_primary(sx *x, const nxp_system_event *e)
{
	char key[1024], name[512];
	gkey(&x->prim, e, "P", key, sizeof(key), name, sizeof(name));
	return sx_track(x, key, 0, TL_TRACK_PROCESS, name, 0, NULL);
}

static int sx_oom(sx *x)
{
	return nxp__error_set(x->st, NXP_E_NOMEM, -1, "out of memory (system timeline tracks)");
}

/* nrt_execute of process `proc`: the flows to the device executions it launched
 * (combined file).  Fills out[] (at most nout), returns how many. */
static size_t exec_flows(sx *x, size_t proc, const nxp_system_event *e, uint64_t host_parent, uint64_t *out,
			 size_t nout)
{
	int64_t exec;
	if (!x->csink || strcmp(e->name, "nrt_execute") || !attr_i64(e->extra_attributes_json, "execution_index", &exec))
		return 0;
	char neff[256] = "";
	attr_str(e->extra_attributes_json, "neff_name", neff, sizeof(neff));
	/* candidates: the profiles of this process and core; by NEFF name when several */
	cprof *pick = NULL;
	int n = 0;
	for (size_t i = 0; i < x->nprof; i++) {
		cprof *p = &x->prof[i];
		if (p->proc != (int64_t)proc || p->nc != e->nc_idx || !p->placed)
			continue;
		n++;
		if (!pick || (neff[0] && !strcmp(p->neff_base, neff)))
			pick = p;
	}
	if (!pick || (n > 1 && neff[0] && strcmp(pick->neff_base, neff)))
		return 0;
	if (!pick->host_parent)
		pick->host_parent = host_parent;
	size_t k = 0;
	for (size_t i = 0; i < pick->nex && k < nout; i++) {
		cexec *c = &pick->ex[i];
		if (c->exec != exec || c->matched || !c->mappable)
			continue;
		c->matched = 1;
		out[k++] = c->fid;
	}
	return k;
}

static int sx_row(sx *x, size_t proc, const nxp_system_event *e)
{
	cgroup *pg = sx_primary(x, e);
	if (!pg)
		return sx_oom(x);
	uint64_t puuid = pg->uuid;
	int32_t pid = pg->pid;
	char key[1400], name[512];
	char tag[32];
	snprintf(tag, sizeof(tag), "S|%llu", (unsigned long long)puuid);
	gkey(&x->sec, e, tag, key, sizeof(key), name, sizeof(name));
	int64_t dur = e->end_ts > e->start_ts ? e->end_ts - e->start_ts : 0;
	cgroup *t = sx_track(x, key, puuid, TL_TRACK_SLICE, name, pid, NULL);
	if (!t)
		return sx_oom(x);
	uint64_t base = t->uuid;
	for (int lane = 1;; lane++) {
		if (lane_take(t, e->start_ts, e->start_ts + dur, lane > TL_SYS_LANES))
			break;
		char lkey[1500], lname[600];
		snprintf(lkey, sizeof(lkey), "%s|lane %d", key, lane);
		snprintf(lname, sizeof(lname), "%s lane %d", name, lane);
		t = sx_track(x, lkey, base, TL_TRACK_SLICE, lname, pid, NULL);
		if (!t)
			return sx_oom(x);
	}
	uint64_t track = t->uuid;
	tl_arg a[6] = {
		{"source", TL_ARG_STRING, 0, 0, e->trace_event_source ? e->trace_event_source : ""},
		{"id", TL_ARG_INT, e->id, 0, NULL},
		{"nc_idx", TL_ARG_INT, e->nc_idx, 0, NULL},
		{"worker_gid", TL_ARG_INT, e->worker_gid, 0, NULL},
		{"flow_id", TL_ARG_STRING, 0, 0, e->flow_id ? e->flow_id : ""},
		{"flags", TL_ARG_INT, (int64_t)e->flags, 0, NULL},
	};
	tl_event te = {track, e->start_ts, dur, e->name && *e->name ? e->name : "?", a, 6, NULL, 0, NULL, 0};
	uint64_t fid = 0;
	uint64_t h = flow_hash(e);
	fent *f = h ? fmap_get(&x->flows_map, h, 0) : NULL;
	if (f && f->count >= 2) {
		fid = f->id;
		if (x->row == f->last_row) {
			te.flow_in = &fid;
			te.nflow_in = 1;
			x->flows++;
		} else {
			te.flow_out = &fid;
			te.nflow_out = 1;
		}
	}
	x->row++;
	if (x->sink->event(x->sink, &te))
		return x->st->code ? x->st->code : NXP_E_IO;
	x->events++;
	if (x->csink) {
		uint64_t outs[66];
		size_t no = 0;
		if (fid && te.nflow_out)
			outs[no++] = fid;
		no += exec_flows(x, proc, e, puuid, outs + no, 64);
		tl_event ce = te;
		ce.flow_out = no ? outs : NULL;
		ce.nflow_out = no;
		if (x->csink->event(x->csink, &ce))
			return x->st->code ? x->st->code : NXP_E_IO;
	}
	return 0;
}

/* First pass over process `proc`'s events: rows per flow id, and (combined)
 * the process's clock map. */
static int sx_prepass(sx *x, const nxp_capture *c, size_t proc, const char *dir)
{
	nxp_system_events *ev = NULL;
	nxp_status est;
	nxp_status_init(&est);
	int rc = nxp_capture_open_events(c, (int64_t)proc, NULL, &ev, &est);
	if (rc == NXP_E_NOT_FOUND)
		return 0;
	if (rc)
		return nxp__error_set(x->st, rc, -1, "%s: system events: %s", dir, est.message);
	nxp_system_event e;
	e.struct_size = sizeof(e);
	while ((rc = nxp_system_events_next(ev, &e)) == 0) {
		int64_t row = x->row++;
		uint64_t h = flow_hash(&e);
		if (h) {
			fent *f = fmap_get(&x->flows_map, h, 1);
			if (!f && !x->flows_map.full) {
				nxp_system_events_close(ev);
				return sx_oom(x);
			}
			if (f) {
				f->count++;
				if (e.start_ts >= f->last_ts) {
					f->last_ts = e.start_ts;
					f->last_row = row;
				}
			}
		}
		if (x->csink && e.nc_idx >= 0 && !strcmp(e.name, "timestamp_sync_point")) {
			int64_t cpu, dev;
			if (attr_i64(e.extra_attributes_json, "cpu_timestamp_ns", &cpu) &&
			    attr_i64(e.extra_attributes_json, "nc_timestamp_ns", &dev) &&
			    nxp_clock_map_add(x->cm[proc], e.nc_idx, dev, cpu)) {
				nxp_system_events_close(ev);
				return sx_oom(x);
			}
		}
	}
	if (rc != NXP_END) {
		nxp_system_events_error(ev, &est);
		nxp_system_events_close(ev);
		return nxp__error_set(x->st, rc, est.offset, "%s: system events: %s", dir, est.message);
	}
	nxp_system_events_close(ev);
	return 0;
}

static int sx_events(sx *x, const nxp_capture *c, size_t proc, const char *dir)
{
	nxp_system_events *ev = NULL;
	nxp_status est;
	nxp_status_init(&est);
	int rc = nxp_capture_open_events(c, (int64_t)proc, NULL, &ev, &est);
	if (rc == NXP_E_NOT_FOUND)
		return 0; /* no event files: counters only */
	if (rc)
		return nxp__error_set(x->st, rc, -1, "%s: system events: %s", dir, est.message);
	nxp_system_event e;
	e.struct_size = sizeof(e);
	while ((rc = nxp_system_events_next(ev, &e)) == 0) {
		if ((rc = sx_row(x, proc, &e))) {
			nxp_system_events_close(ev);
			return rc;
		}
	}
	if (rc != NXP_END) {
		nxp_system_events_error(ev, &est);
		nxp_system_events_close(ev);
		return nxp__error_set(x->st, rc, est.offset, "%s: system events: %s", dir, est.message);
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
	/* The samples' primary group: from the fields a sample has (instance and
	 * pid of its process directory); the others are unknown. */
	char pidt[32];
	snprintf(pidt, sizeof(pidt), "%lld", (long long)pr->pid);
	nxp_system_event pe;
	memset(&pe, 0, sizeof(pe));
	pe.instance_id = pr->instance_id;
	pe.process_id = pr->pid;
	pe.pid = pr->pid >= 0 ? pidt : "";
	pe.thread_id = pe.nc_idx = pe.pcore_idx = pe.worker_gid = pe.nd_idx = -1;
	pe.name = pe.tid = pe.trace_event_source = pe.framework_stream_id = "";
	pe.extra_attributes_json = "{}";
	cgroup *pg = sx_primary(x, &pe);
	if (!pg) {
		nxp_host_stats_close(h);
		nxp_source_close(src);
		return sx_oom(x);
	}
	uint64_t p = pg->uuid;
	int32_t pid = pg->pid;
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
		cgroup *t = sx_track(x, key, p, TL_TRACK_COUNTER, name, pid,
				     kind == NXP_SYSFILE_CPU_UTIL ? "%" : "bytes");
		if (!t) {
			rc = sx_oom(x);
			break;
		}
		if (x->sink->counter(x->sink, t->uuid, ts, v) ||
		    (x->csink && x->csink->counter(x->csink, t->uuid, ts, v))) {
			rc = x->st->code ? x->st->code : NXP_E_IO;
			break;
		}
		x->events++;
	}
	if (rc != NXP_END && rc < 0 && !x->st->code) {
		nxp_host_stats_error(h, &hst);
		nxp__error_set(x->st, rc, hst.offset, "%s: %s", f.path, hst.message);
	}
	nxp_host_stats_close(h);
	nxp_source_close(src);
	return rc == NXP_END ? 0 : rc;
}

/* ---- a device profile on host time (the combined file) ----
 * A sink in front of the combined file's sink: device times go through the
 * clock map (the sync point of the record's execution), track ids are moved
 * apart from the other profiles', the per-pcore groups go under the host
 * process of the profile's nrt_execute rows, and the execution slices end the
 * flows their nrt_execute began. */

typedef struct dtrack {
	int exec;    /* the "executions" track or a lane of it */
	int32_t pid; /* device pid = pcore + 1 */
} dtrack;

typedef struct msink {
	tl_sink base;
	tl_sink *out;
	const nxp_clock_map *cm;
	cprof *prof;
	uint64_t salt;
	dtrack *tr;
	size_t ntr;
	int64_t unmapped, flows;
	int32_t pid_base;
	int shared; /* an earlier profile of the same core sits under the same host group */
} msink;

/* Device track ids are small (1, 2, ...): profile k's go to (k + 1) << 24 + id,
 * short varints that the system tracks' 64-bit hashes do not meet in practice. */
static uint64_t ms_id(const msink *m, uint64_t id)
{
	return m->salt + id;
}

static dtrack *ms_tr(msink *m, uint64_t id, int add)
{
	if (id >= m->ntr) {
		if (!add || id >= (1u << 24))
			return NULL;
		size_t n = m->ntr ? m->ntr : 64;
		while (n <= id)
			n *= 2;
		dtrack *t = realloc(m->tr, n * sizeof(*t));
		if (!t)
			return NULL;
		memset(t + m->ntr, 0, (n - m->ntr) * sizeof(*t));
		m->tr = t;
		m->ntr = n;
	}
	return &m->tr[id];
}

static int ms_track(tl_sink *s, const tl_track *t)
{
	msink *m = (msink *)s;
	dtrack *d = ms_tr(m, t->uuid, 1);
	if (!d)
		return nxp__error_set(m->base.st, NXP_E_NOMEM, -1, "combined timeline: out of memory, or more than 2^24 tracks in one device profile");
	dtrack *par = t->parent_uuid ? ms_tr(m, t->parent_uuid, 0) : NULL;
	d->exec = (t->name && !strcmp(t->name, "executions")) || (par && par->exec);
	d->pid = t->pid;
	tl_track o = *t;
	o.uuid = ms_id(m, t->uuid);
	o.parent_uuid = t->parent_uuid ? ms_id(m, t->parent_uuid) : m->prof->host_parent;
	char name[600];
	if (t->kind == TL_TRACK_PROCESS) {
		if (m->prof->host_parent) {
			o.kind = TL_TRACK_SLICE; /* a group under the host process */
			if (m->shared) { /* another profile of this core under the same group */
				snprintf(name, sizeof(name), "%s (%s)", t->name, m->prof->name);
				o.name = name;
			}
		} else {
			snprintf(name, sizeof(name), "%s: %s", m->prof->name, t->name);
			o.name = name;
			o.pid = m->pid_base + (t->pid & 1023);
		}
	}
	return m->out->track(m->out, &o);
}

static int ms_time(msink *m, int64_t ts, int64_t dur, int64_t *host)
{
	if (nxp_clock_map_to_host(m->cm, m->prof->nc, ts, host) || (dur > 0 && *host > INT64_MAX - dur)) {
		m->unmapped++;
		return -1;
	}
	return 0;
}

static int ms_event(tl_sink *s, const tl_event *e)
{
	msink *m = (msink *)s;
	tl_event o = *e;
	if (ms_time(m, e->ts, e->dur, &o.ts))
		return 0;
	o.track = ms_id(m, e->track);
	dtrack *d = ms_tr(m, e->track, 0);
	uint64_t fid;
	if (d && d->exec && e->dur >= 0) {
		for (size_t i = 0; i < e->nargs; i++) {
			if (strcmp(e->args[i].name, "execution_index") || e->args[i].type != TL_ARG_INT)
				continue;
			for (size_t k = 0; k < m->prof->nex; k++) {
				cexec *c = &m->prof->ex[k];
				if (c->exec == e->args[i].i && c->pcore == d->pid - 1 && c->matched && !c->terminated) {
					c->terminated = 1;
					fid = c->fid;
					o.flow_in = &fid;
					o.nflow_in = 1;
					m->flows++;
					break;
				}
			}
		}
	}
	/* the execution's flow: on its begin, as nrt_execute's (timeline_priv.h) */
	m->out->flows_on_begin = o.nflow_in && o.flow_in == &fid;
	int rc = m->out->event(m->out, &o);
	m->out->flows_on_begin = 1;
	return rc;
}

/* Late flows of the device content (its semaphore arrows) on the remapped track. */
static int ms_flow(tl_sink *s, uint64_t track, uint64_t id, int terminating)
{
	msink *m = (msink *)s;
	return m->out->flow(m->out, ms_id(m, track), id, terminating);
}

static int ms_counter(tl_sink *s, uint64_t track, int64_t ts, double value)
{
	msink *m = (msink *)s;
	int64_t h;
	if (ms_time(m, ts, 0, &h))
		return 0;
	return m->out->counter(m->out, ms_id(m, track), h, value);
}

/* The executions (index, pcore) of profile i, and whether its core has sync points. */
static int cprof_scan(sx *x, const nxp_capture *c, cprof *cp, const nxp_capture_profile *pr, const char *ntff_path,
		      const char *neff_path)
{
	const char *b = strrchr(ntff_path, '/');
	b = b ? b + 1 : ntff_path;
	size_t bl = strlen(b);
	if (bl > 5 && !strcmp(b + bl - 5, ".ntff"))
		bl -= 5;
	snprintf(cp->name, sizeof(cp->name), "%.*s", (int)(bl > 200 ? 200 : bl), b);
	const char *nb = strrchr(neff_path, '/');
	snprintf(cp->neff_base, sizeof(cp->neff_base), "%s", nb ? nb + 1 : neff_path);
	cp->proc = pr->process_index;
	nxp_profile *p = NULL;
	int rc = nxp_capture_open_profile(c, cp->index, NULL, &p, x->st);
	if (rc)
		return rc;
	nxp_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	cp->nc = pr->nc_idx;
	if (nxp_profile_get_metadata(p, &md) == 0 && md.neuroncore_idx >= 0)
		cp->nc = md.neuroncore_idx;
	nxp_cursor *cur = NULL;
	if (nxp_cursor_open(&cur, p, NXP_TABLE_EXECUTION, NULL, NULL) == 0) {
		nxp_execution e;
		e.struct_size = sizeof(e);
		size_t cap = 0;
		while (nxp_cursor_next_execution(cur, &e) == 0) {
			if (cp->nex == cap) {
				size_t nc = cap ? cap * 2 : 16;
				cexec *n = realloc(cp->ex, nc * sizeof(*n));
				if (!n) {
					rc = sx_oom(x);
					break;
				}
				cp->ex = n;
				cap = nc;
			}
			cp->ex[cp->nex++] = (cexec){e.execution_index, e.pcore_idx, 0, 0, 0, 0};
			cexec *ce = &cp->ex[cp->nex - 1];
			/* as ms_event() will place its slice: the start mapped, the duration kept */
			int64_t h0, dur;
			if (__builtin_sub_overflow(e.execution_end_ts, e.execution_start_ts, &dur))
				dur = INT64_MAX;
			ce->mappable = cp->proc >= 0 && (size_t)cp->proc < x->nproc &&
				       !nxp_clock_map_to_host(x->cm[cp->proc], cp->nc, e.execution_start_ts, &h0) &&
				       (dur <= 0 || h0 <= INT64_MAX - dur);
		}
		nxp_cursor_close(cur);
	}
	nxp_profile_close(p);
	int64_t h;
	cp->placed = cp->proc >= 0 && (size_t)cp->proc < x->nproc &&
		     nxp_clock_map_to_host(x->cm[cp->proc], cp->nc, 0, &h) != NXP_E_NOT_FOUND;
	return rc;
}

/* keep_fd: when not NULL, a second descriptor of the file for the segments
 * written after the sink is finished (the combined file). */
static int open_out(const char *path, int overwrite, int deflate, char **tmp, tl_sink **sink, int *keep_fd,
		    nxp_status *st)
{
	struct stat sb;
	if (!overwrite && stat(path, &sb) == 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s exists (overwrite not allowed)", path);
	size_t n = strlen(path);
	*tmp = malloc(n + 16);
	if (!*tmp)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	snprintf(*tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(*tmp);
	if (fd < 0) {
		int e = errno;
		free(*tmp);
		*tmp = NULL;
		return nxp__error_set(st, NXP_E_IO, -1, "cannot create %s: %s", path, strerror(e));
	}
	(void)fchmod(fd, 0644);
	if (keep_fd && (*keep_fd = dup(fd)) < 0) {
		int e = errno;
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return nxp__error_set(st, NXP_E_IO, -1, "cannot write %s: %s", path, strerror(e));
	}
	int rc = nxp__perfetto_sink_open(sink, fd, deflate, st);
	if (rc) {
		if (keep_fd) {
			close(*keep_fd);
			*keep_fd = -1;
		}
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return rc;
	}
	(*sink)->st = st;
	(*sink)->flows_on_begin = 1; /* system flows: see timeline_priv.h */
	return 0;
}

/* Finish (when rc is 0) and close a sink; rename tmp to path on success. */
static int close_out(int rc, tl_sink *sink, char *tmp, const char *path, int64_t *bytes, nxp_status *st)
{
	if (!sink)
		return rc;
	*bytes = -1;
	if (!rc)
		rc = sink->finish(sink, bytes);
	sink->destroy(sink);
	struct stat sb;
	if (!rc && *bytes < 0)
		*bytes = stat(tmp, &sb) == 0 ? (int64_t)sb.st_size : -1;
	if (!rc && rename(tmp, path)) {
		int e = errno;
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot rename %s to %s: %s", tmp, path, strerror(e));
	}
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

static char *out_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* system_profile.pftrace, and with opts->combined combined_profile.pftrace. */
static int write_system(const nxp_capture *c, const char *dir, const char *out_dir, const nxp_timeline_options *o,
			nxp_timeline_stats *out, nxp_status *st)
{
	sx x;
	memset(&x, 0, sizeof(x));
	x.st = st;
	int rc = gspec_parse(&x.prim, o->system_primary_group ? o->system_primary_group : "instance_id,process_id",
			     "system primary group", st);
	if (!rc)
		rc = gspec_parse(&x.sec,
				 o->system_secondary_group ? o->system_secondary_group : "worker_gid,lnc_idx,thread_id",
				 "system secondary group", st);
	if (rc)
		return rc;
	char *spath = out_path(out_dir, "system_profile.pftrace");
	char *cpath = o->combined ? out_path(out_dir, "combined_profile.pftrace") : NULL;
	char *stmp = NULL, *ctmp = NULL;
	int cfd = -1; /* the combined file, for its device segments */
	if (!spath || (o->combined && !cpath)) {
		rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		goto out;
	}
	rc = open_out(spath, o->overwrite, o->gzip > 0, &stmp, &x.sink, NULL, st);
	if (!rc && o->combined)
		rc = open_out(cpath, o->overwrite, o->gzip > 0, &ctmp, &x.csink, &cfd, st);
	if (rc)
		goto out;
	x.nproc = nxp_capture_process_count(c);
	if (o->combined) {
		x.cm = calloc(x.nproc ? x.nproc : 1, sizeof(*x.cm));
		x.prof = calloc(nxp_capture_profile_count(c) + 1, sizeof(*x.prof));
		if (!x.cm || !x.prof) {
			rc = sx_oom(&x);
			goto out;
		}
		for (size_t i = 0; i < x.nproc && !rc; i++)
			if (nxp_clock_map_new(&x.cm[i]))
				rc = sx_oom(&x);
	}
	/* pass 1: flow ids, sync points */
	for (size_t i = 0; !rc && i < x.nproc; i++)
		rc = sx_prepass(&x, c, i, dir);
	x.row = 0;
	/* the device profiles of the combined file */
	for (size_t i = 0; !rc && o->combined && i < nxp_capture_profile_count(c); i++) {
		nxp_capture_profile cp;
		cp.struct_size = sizeof(cp);
		nxp_capture_file nf, tf;
		nf.struct_size = tf.struct_size = sizeof(nf);
		if (nxp_capture_get_profile(c, i, &cp) || cp.ntff < 0 || cp.neff < 0 ||
		    nxp_capture_get_file(c, (size_t)cp.ntff, &tf) || nxp_capture_get_file(c, (size_t)cp.neff, &nf))
			continue;
		cprof *p = &x.prof[x.nprof++];
		p->index = i;
		rc = cprof_scan(&x, c, p, &cp, tf.path, nf.path);
	}
	/* flow ids, sequential (timeline_priv.h: next_flow_id): the system chains,
	 * then the nrt_execute -> execution arrows; the device content's follow */
	uint64_t next_id = 0;
	for (size_t i = 0; i < x.flows_map.cap; i++)
		if (x.flows_map.e[i].h && x.flows_map.e[i].count >= 2)
			x.flows_map.e[i].id = ++next_id;
	for (size_t i = 0; i < x.nprof; i++)
		for (size_t k = 0; k < x.prof[i].nex; k++)
			x.prof[i].ex[k].fid = ++next_id;
	if (x.sink)
		x.sink->next_flow_id = next_id;
	if (x.csink)
		x.csink->next_flow_id = next_id;
	/* pass 2: the rows, then the host counters */
	for (size_t i = 0; !rc && i < x.nproc; i++)
		rc = sx_events(&x, c, i, dir);
	for (size_t i = 0; !rc && i < x.nproc; i++) {
		nxp_capture_process pr;
		pr.struct_size = sizeof(pr);
		if (nxp_capture_get_process(c, i, &pr))
			continue;
		rc = sx_host(&x, c, &pr, pr.cpu_util, NXP_SYSFILE_CPU_UTIL);
		if (!rc)
			rc = sx_host(&x, c, &pr, pr.host_mem, NXP_SYSFILE_HOST_MEM);
	}
	int64_t sys_events = x.events, sys_tracks = x.tracks;
	/* The device profiles on host time, each in a segment of its own: a new
	 * sink on the same file (a Trace is the concatenation of its packets),
	 * whose first packet clears the sequence's incremental state.  One sink
	 * for everything would put most device packets behind the incremental
	 * clock the system rows left at the capture's end, each then written
	 * with an absolute timestamp (1.5x the bytes, measured). */
	int64_t sbytes = 0, cbytes = 0, seg = 0;
	if (!rc && x.csink) {
		rc = x.csink->finish(x.csink, &seg);
		cbytes += seg;
	}
	if (x.csink) {
		x.csink->destroy(x.csink);
		x.csink = NULL;
	}
	nxp_timeline_stats dsum;
	memset(&dsum, 0, sizeof(dsum));
	for (size_t i = 0; !rc && i < x.nprof; i++) {
		cprof *cp = &x.prof[i];
		if (!cp->placed) {
			out->unplaced_profiles++;
			continue;
		}
		nxp_profile *p = NULL;
		rc = nxp_capture_open_profile(c, cp->index, NULL, &p, st);
		if (rc)
			break;
		int dfd = dup(cfd);
		if (dfd < 0) {
			int e = errno;
			nxp_profile_close(p);
			rc = nxp__error_set(st, NXP_E_IO, -1, "cannot write %s: %s", cpath, strerror(e));
			break;
		}
		rc = nxp__perfetto_sink_open(&x.csink, dfd, o->gzip > 0, st); /* closes dfd on failure */
		if (rc) {
			nxp_profile_close(p);
			break;
		}
		x.csink->st = st;
		x.csink->flows_on_begin = 1;
		x.csink->next_flow_id = next_id;
		msink m;
		memset(&m, 0, sizeof(m));
		m.base.track = ms_track;
		m.base.event = ms_event;
		m.base.counter = ms_counter;
		m.base.flow = x.csink->flow ? ms_flow : NULL;
		/* flow ids: one counter for the whole file (timeline_priv.h); stable
		 * strings are not passed on: the file outlives each profile's strings */
		m.base.next_flow_id = x.csink->next_flow_id;
		m.base.st = st;
		m.out = x.csink;
		m.cm = x.cm[cp->proc];
		m.prof = cp;
		m.salt = ((uint64_t)i + 1) << 24;
		m.pid_base = 1000000 + (int32_t)(i & 0xffff) * 1024;
		for (size_t k = 0; k < i; k++)
			if (x.prof[k].placed && x.prof[k].nc == cp->nc && x.prof[k].host_parent == cp->host_parent)
				m.shared = 1;
		nxp_timeline_options dopt = *o;
		rc = nxp__device_timeline_write(p, &m.base, &dopt, &dsum, st);
		nxp_profile_close(p);
		free(m.tr);
		x.flows += m.flows;
		next_id = m.base.next_flow_id;
		if (!rc) {
			rc = x.csink->finish(x.csink, &seg);
			cbytes += seg;
		}
		x.csink->destroy(x.csink);
		x.csink = NULL;
	}
	rc = close_out(rc, x.sink, stmp, spath, &sbytes, st);
	x.sink = NULL;
	stmp = NULL;
	if (cfd >= 0) {
		if (close(cfd) && !rc)
			rc = nxp__error_set(st, NXP_E_IO, -1, "cannot write %s: %s", cpath, strerror(errno));
		cfd = -1;
		if (!rc && rename(ctmp, cpath)) {
			int e = errno;
			rc = nxp__error_set(st, NXP_E_IO, -1, "cannot rename %s to %s: %s", ctmp, cpath, strerror(e));
		}
		if (rc)
			unlink(ctmp);
		free(ctmp);
		ctmp = NULL;
	}
	if (!rc) {
		out->events += sys_events * (o->combined ? 2 : 1) + dsum.events;
		out->tracks += sys_tracks * (o->combined ? 2 : 1) + dsum.tracks;
		out->bytes += sbytes + cbytes;
		out->flows += x.flows + dsum.flows;
		out->truncated |= dsum.truncated;
		out->read_errors += dsum.read_errors;
		out->bad_records += dsum.bad_records;
		out->skipped_sections += dsum.skipped_sections;
		out->input_bytes += dsum.input_bytes;
	}
out:
	if (x.sink) {
		x.sink->destroy(x.sink);
		unlink(stmp);
	}
	if (x.csink)
		x.csink->destroy(x.csink);
	if (cfd >= 0)
		close(cfd);
	if (ctmp)
		unlink(ctmp);
	free(stmp);
	free(ctmp);
	free(spath);
	free(cpath);
	for (size_t i = 0; i < x.n; i++)
		free(x.g[i].key);
	free(x.g);
	free(x.flows_map.e);
	if (x.cm)
		for (size_t i = 0; i < x.nproc; i++)
			nxp_clock_map_close(x.cm[i]);
	free(x.cm);
	if (x.prof)
		for (size_t i = 0; i < x.nprof; i++)
			free(x.prof[i].ex);
	free(x.prof);
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
	/* group options first: a typo fails before anything is written */
	gspec g;
	int rc = gspec_parse(&g, o.system_primary_group, "system primary group", st);
	if (!rc)
		rc = gspec_parse(&g, o.system_secondary_group, "system secondary group", st);
	if (rc)
		return rc;
	nxp_capture *c = NULL;
	rc = nxp_capture_open(&c, dir, st);
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
			sum.flows += ts.flows;
		}
		free(path);
	}
	if (!rc)
		rc = write_system(c, dir, out_dir, &o, &sum, st);
	nxp_capture_close(c);
	if (!rc && stats)
		NXP__STRUCT_OUT(stats, sum, NXP_TIMELINE_STATS_SIZE_V0_2);
	return rc;
}
