/* SPDX-License-Identifier: MIT */
/* Capture directories: discover the files of a system/device profile capture
 * (both known layouts, system-profile.md §1), group them by process directory
 * and pair each NTFF with its NEFF. */
#include "abi_struct.h"
#include "ntff_layout.h"
#include "status.h"
#include "system_priv.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILES 100000
#define MAX_DEPTH 16

typedef struct cfile {
	char *path, *dir, *base, *hash;
	nxp_capture_file pub;
} cfile;

typedef struct cproc {
	char *dir, *instance_id, *timestamp;
	nxp_capture_process pub;
} cproc;

struct nxp_capture {
	cfile *f;
	size_t nf, capf;
	cproc *p;
	size_t np;
	nxp_capture_profile *prof;
	size_t nprof;
	char **problems;
	size_t nproblems;
	int oom;
};

static void problem(nxp_capture *c, const char *fmt, ...) NXP_PRINTF(2, 3);

#include <stdarg.h>
static void problem(nxp_capture *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char **p = realloc(c->problems, (c->nproblems + 1) * sizeof(*p));
	if (!p || !(p[c->nproblems] = sys_strdup(msg))) {
		if (p)
			c->problems = p;
		c->oom = 1;
		return;
	}
	c->problems = p;
	c->nproblems++;
}

/* ---- names ---- */
static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

int sys_kind_of_name(const char *base)
{
	if (!strcmp(base, "ntrace.pb"))
		return NXP_SYSFILE_NTRACE;
	if (!strcmp(base, "trace_info.pb"))
		return NXP_SYSFILE_TRACE_INFO;
	if (!strcmp(base, "cpu_util.pb"))
		return NXP_SYSFILE_CPU_UTIL;
	if (!strcmp(base, "host_mem.pb"))
		return NXP_SYSFILE_HOST_MEM;
	if (ends_with(base, "trace.json") || ends_with(base, "trace.json.gz"))
		return NXP_SYSFILE_TRACE_JSON;
	if (ends_with(base, ".neff"))
		return NXP_SYSFILE_NEFF;
	if (ends_with(base, ".ntff"))
		return NXP_SYSFILE_NTFF;
	return 0;
}

/* Integer after `key` in `s` ("_vnc_" → 3), or -1. */
static int64_t num_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	if (!p)
		return -1;
	p += strlen(key);
	if (*p < '0' || *p > '9')
		return -1;
	return strtoll(p, NULL, 10);
}

/* Hash in NEFF/NTFF names: neff_<h>[_vnc_v].neff, graph_<h>.neff,
 * <h>_instid_<i>_vnc_<v>.ntff, <h>_vnc_<v>.ntff.  "" when none. */
static char *name_hash(const char *base, int kind)
{
	const char *p = base;
	if (kind == NXP_SYSFILE_NEFF) {
		if (!strncmp(p, "neff_", 5))
			p += 5;
		else if (!strncmp(p, "graph_", 6))
			p += 6;
		else
			return sys_strdup("");
	} else if (!strncmp(p, "profile_nc_", 11)) {
		return sys_strdup("");
	}
	size_t n = 0;
	while (p[n] && p[n] != '_' && p[n] != '.')
		n++;
	char *h = malloc(n + 1);
	if (h) {
		memcpy(h, p, n);
		h[n] = '\0';
	}
	return h;
}

/* "<instance>_pid_<pid>" → instance and pid. */
static int parse_proc_name(const char *name, char **inst, int64_t *pid)
{
	const char *p = strstr(name, "_pid_");
	if (!p || p == name || p[5] < '0' || p[5] > '9')
		return 0;
	*inst = malloc((size_t)(p - name) + 1);
	if (!*inst)
		return 0;
	memcpy(*inst, name, (size_t)(p - name));
	(*inst)[p - name] = '\0';
	*pid = strtoll(p + 5, NULL, 10);
	return 1;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* ---- discovery ---- */
static int add_file(nxp_capture *c, const char *path, const char *dir, const char *base, int kind, int64_t size)
{
	if (c->nf >= MAX_FILES)
		return NXP_E_LIMIT;
	if (c->nf == c->capf) {
		size_t cap = c->capf ? c->capf * 2 : 64;
		cfile *f = realloc(c->f, cap * sizeof(*f));
		if (!f)
			return NXP_E_NOMEM;
		c->f = f;
		c->capf = cap;
	}
	cfile *f = &c->f[c->nf];
	memset(f, 0, sizeof(*f));
	f->path = sys_strdup(path);
	/* vLLM's neffs/ sub-directory belongs to the directory above it. */
	if (!strcmp(base_of(dir), "neffs") && strchr(dir, '/')) {
		f->dir = sys_strdup(dir);
		if (f->dir)
			*strrchr(f->dir, '/') = '\0';
	} else {
		f->dir = sys_strdup(dir);
	}
	f->base = sys_strdup(base);
	f->hash = name_hash(base, kind);
	if (!f->path || !f->dir || !f->base || !f->hash) {
		free(f->path);
		free(f->dir);
		free(f->base);
		free(f->hash);
		return NXP_E_NOMEM;
	}
	nxp_capture_file *pf = &f->pub;
	pf->struct_size = sizeof(*pf);
	pf->kind = kind;
	pf->size = size;
	pf->process_index = -1;
	pf->vnc = num_after(base, "_vnc_");
	pf->session = num_after(base, "_session_");
	pf->instid = num_after(base, "_instid_");
	pf->nc_idx = num_after(base, "profile_nc_");
	c->nf++;
	return NXP_OK;
}

static int walk(nxp_capture *c, const char *dir, int depth, nxp_status *st)
{
	if (depth > MAX_DEPTH)
		return NXP_OK;
	DIR *d = opendir(dir);
	if (!d)
		return depth == 0 ? nxp__error_set(st, NXP_E_IO, -1, "%s: %s", dir, strerror(errno)) : NXP_OK;
	int rc = NXP_OK;
	struct dirent *e;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *path = malloc(n);
		if (!path) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		}
		snprintf(path, n, "%s/%s", dir, e->d_name);
		struct stat sb;
		if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			rc = walk(c, path, depth + 1, st);
		} else if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
			int kind = sys_kind_of_name(e->d_name);
			if (kind) {
				rc = add_file(c, path, dir, e->d_name, kind, (int64_t)sb.st_size);
				if (rc == NXP_E_LIMIT)
					rc = nxp__error_set(st, rc, -1, "%s: more than %d capture files", dir,
							    MAX_FILES);
				else if (rc)
					rc = nxp__error_set(st, rc, -1, "out of memory");
			}
		}
		free(path);
	}
	closedir(d);
	return rc;
}

static int cmp_file(const void *a, const void *b)
{
	const cfile *x = a, *y = b;
	int r = strcmp(x->dir, y->dir);
	return r ? r : strcmp(x->base, y->base);
}

/* ---- UUIDs ---- */
/* NEFF header UUID from its first 1024 bytes. */
static int read_neff_uuid(const char *path, uint8_t uuid[16])
{
	uint8_t hdr[1024];
	FILE *f = fopen(path, "rb");
	if (!f)
		return NXP_E_IO;
	size_t n = fread(hdr, 1, sizeof(hdr), f);
	fclose(f);
	nxp_neff_header h;
	h.struct_size = sizeof(h);
	int rc = nxp_neff_parse_header(hdr, n, -1, &h, NULL);
	if (rc)
		return rc;
	memcpy(uuid, h.uuid, 16);
	return NXP_OK;
}

/* NTFF UUID from its fixed file header (the NTFF module's layout decoder). */
static int read_ntff_uuid(const char *path, uint8_t uuid[16])
{
	uint8_t hdr[NTFF_FILE_HEADER_SIZE];
	FILE *f = fopen(path, "rb");
	if (!f)
		return NXP_E_IO;
	size_t n = fread(hdr, 1, sizeof(hdr), f);
	fclose(f);
	ntff_file_header h;
	int rc = ntff_file_header_decode(hdr, n, &h, NULL);
	if (rc)
		return rc;
	memcpy(uuid, h.neff_uuid, 16);
	return NXP_OK;
}

/* ---- grouping and pairing ---- */
static int build_processes(nxp_capture *c)
{
	for (size_t i = 0; i < c->nf; i++) {
		cfile *f = &c->f[i];
		if (c->np && !strcmp(c->p[c->np - 1].dir, f->dir)) {
			f->pub.process_index = (int64_t)c->np - 1;
			continue;
		}
		cproc *p = realloc(c->p, (c->np + 1) * sizeof(*p));
		if (!p)
			return NXP_E_NOMEM;
		c->p = p;
		cproc *q = &c->p[c->np];
		memset(q, 0, sizeof(*q));
		q->dir = sys_strdup(f->dir);
		if (!q->dir)
			return NXP_E_NOMEM;
		int64_t pid = -1;
		char *inst = NULL;
		const char *name = base_of(q->dir);
		if (parse_proc_name(name, &inst, &pid)) {
			q->timestamp = sys_strdup("");
		} else {
			/* <instance>_pid_<pid>/<timestamp>/ layout */
			char *parent = sys_strdup(q->dir);
			char *slash = parent ? strrchr(parent, '/') : NULL;
			if (slash) {
				*slash = '\0';
				if (parse_proc_name(base_of(parent), &inst, &pid))
					q->timestamp = sys_strdup(name);
			}
			free(parent);
			if (!q->timestamp)
				q->timestamp = sys_strdup("");
		}
		q->instance_id = inst ? inst : sys_strdup("");
		if (!q->instance_id || !q->timestamp)
			return NXP_E_NOMEM;
		nxp_capture_process *pp = &q->pub;
		pp->struct_size = sizeof(*pp);
		pp->pid = pid;
		pp->ntrace = pp->trace_info = pp->cpu_util = pp->host_mem = pp->trace_json = -1;
		c->np++;
		f->pub.process_index = (int64_t)c->np - 1;
	}
	for (size_t i = 0; i < c->nf; i++) {
		cfile *f = &c->f[i];
		nxp_capture_process *pp = &c->p[f->pub.process_index].pub;
		int64_t *slot = NULL;
		switch (f->pub.kind) {
		case NXP_SYSFILE_NTRACE: slot = &pp->ntrace; break;
		case NXP_SYSFILE_TRACE_INFO: slot = &pp->trace_info; break;
		case NXP_SYSFILE_CPU_UTIL: slot = &pp->cpu_util; break;
		case NXP_SYSFILE_HOST_MEM: slot = &pp->host_mem; break;
		case NXP_SYSFILE_TRACE_JSON: slot = &pp->trace_json; break;
		}
		if (slot && *slot < 0)
			*slot = (int64_t)i;
		else if (slot)
			problem(c, "%s: a second %s in the same directory is ignored for the process", f->path,
			f->base);
	}
	for (size_t i = 0; i < c->np; i++) {
		nxp_capture_process *pp = &c->p[i].pub;
		pp->complete = pp->ntrace >= 0 && pp->trace_info >= 0;
		int any_sys = pp->ntrace >= 0 || pp->trace_info >= 0 || pp->cpu_util >= 0 || pp->host_mem >= 0;
		if (any_sys && pp->ntrace < 0)
			problem(c, "%s: ntrace.pb is missing (required)", c->p[i].dir);
		if (any_sys && pp->trace_info < 0)
			problem(c, "%s: trace_info.pb is missing (required)", c->p[i].dir);
	}
	return c->oom ? NXP_E_NOMEM : NXP_OK;
}

static int pair(nxp_capture *c)
{
	size_t nprof = 0;
	for (size_t i = 0; i < c->nf; i++)
		nprof += c->f[i].pub.kind == NXP_SYSFILE_NTFF;
	c->prof = calloc(nprof ? nprof : 1, sizeof(*c->prof));
	char *neff_used = calloc(c->nf ? c->nf : 1, 1);
	if (!c->prof || !neff_used) {
		free(neff_used);
		return NXP_E_NOMEM;
	}
	for (size_t i = 0; i < c->nf; i++) {
		cfile *f = &c->f[i];
		if (f->pub.kind == NXP_SYSFILE_NEFF && read_neff_uuid(f->path, f->pub.uuid) == NXP_OK)
			f->pub.has_uuid = 1;
		if (f->pub.kind == NXP_SYSFILE_NTFF && read_ntff_uuid(f->path, f->pub.uuid) == NXP_OK)
			f->pub.has_uuid = 1;
	}
	for (size_t i = 0; i < c->nf; i++) {
		cfile *t = &c->f[i];
		if (t->pub.kind != NXP_SYSFILE_NTFF)
			continue;
		nxp_capture_profile *pr = &c->prof[c->nprof++];
		pr->struct_size = sizeof(*pr);
		pr->ntff = (int64_t)i;
		pr->neff = -1;
		pr->process_index = t->pub.process_index;
		/* The NeuronCore: profile_nc_<n> (session captures), else the
		 * NTFF's _vnc_<v> (the runtime's per-core files). */
		pr->nc_idx = t->pub.nc_idx >= 0 ? t->pub.nc_idx : t->pub.vnc;
		if (t->pub.size == 0)
			problem(c, "%s: empty NTFF (nothing was captured)", t->path);
		int64_t by_uuid = -1, by_name = -1, sole = -1, neffs = 0;
		for (size_t j = 0; j < c->nf; j++) {
			cfile *n = &c->f[j];
			if (n->pub.kind != NXP_SYSFILE_NEFF || n->pub.process_index != t->pub.process_index)
				continue;
			neffs++;
			sole = (int64_t)j;
			if (t->pub.has_uuid && n->pub.has_uuid && !memcmp(t->pub.uuid, n->pub.uuid, 16))
				by_uuid = (int64_t)j;
			if (t->hash[0] && !strcmp(t->hash, n->hash) &&
			    (t->pub.vnc < 0 || n->pub.vnc < 0 || t->pub.vnc == n->pub.vnc))
				by_name = (int64_t)j;
		}
		if (by_uuid >= 0) {
			pr->neff = by_uuid;
			pr->pairing = NXP_PAIRED_BY_UUID;
		} else if (by_name >= 0) {
			pr->neff = by_name;
			pr->pairing = NXP_PAIRED_BY_NAME;
			if (t->pub.has_uuid && c->f[by_name].pub.has_uuid)
				problem(c, "%s: NEFF/NTFF UUID mismatch with %s (files from different compilations)",
					t->path, c->f[by_name].path);
		} else if (neffs == 1) {
			pr->neff = sole;
			pr->pairing = NXP_PAIRED_SOLE;
		} else {
			pr->pairing = NXP_PAIRED_NONE;
			problem(c, "%s: no matching NEFF found (%lld NEFF files in its directory)", t->path,
				(long long)neffs);
		}
		if (pr->neff >= 0)
			neff_used[pr->neff] = 1;
	}
	for (size_t i = 0; i < c->nf; i++)
		if (c->f[i].pub.kind == NXP_SYSFILE_NEFF && !neff_used[i])
			problem(c, "%s: NEFF without an NTFF", c->f[i].path);
	free(neff_used);
	return c->oom ? NXP_E_NOMEM : NXP_OK;
}

int nxp_capture_open(nxp_capture **out, const char *dir, nxp_status *st)
{
	if (!out || !dir)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_open: NULL argument");
	*out = NULL;
	nxp_capture *c = calloc(1, sizeof(*c));
	if (!c)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	/* Strip trailing slashes so that directory names parse. */
	char *root = sys_strdup(dir);
	if (!root) {
		free(c);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	for (size_t n = strlen(root); n > 1 && root[n - 1] == '/'; n--)
		root[n - 1] = '\0';
	int rc = walk(c, root, 0, st);
	free(root);
	if (!rc && c->nf == 0)
		rc = nxp__error_set(st, NXP_E_NOT_FOUND, -1,
				    "%s: no system-profile, framework-trace, NEFF or NTFF files", dir);
	if (!rc) {
		qsort(c->f, c->nf, sizeof(*c->f), cmp_file);
		rc = build_processes(c);
		if (!rc)
			rc = pair(c);
		if (rc)
			rc = nxp__error_set(st, rc, -1, "out of memory");
	}
	if (rc) {
		nxp_capture_close(c);
		return rc;
	}
	for (size_t i = 0; i < c->nf; i++) {
		c->f[i].pub.path = c->f[i].path;
		c->f[i].pub.name_hash = c->f[i].hash;
	}
	for (size_t i = 0; i < c->np; i++) {
		c->p[i].pub.dir = c->p[i].dir;
		c->p[i].pub.instance_id = c->p[i].instance_id;
		c->p[i].pub.timestamp = c->p[i].timestamp;
	}
	*out = c;
	return NXP_OK;
}

void nxp_capture_close(nxp_capture *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nf; i++) {
		free(c->f[i].path);
		free(c->f[i].dir);
		free(c->f[i].base);
		free(c->f[i].hash);
	}
	free(c->f);
	for (size_t i = 0; i < c->np; i++) {
		free(c->p[i].dir);
		free(c->p[i].instance_id);
		free(c->p[i].timestamp);
	}
	free(c->p);
	free(c->prof);
	for (size_t i = 0; i < c->nproblems; i++)
		free(c->problems[i]);
	free(c->problems);
	free(c);
}

size_t nxp_capture_file_count(const nxp_capture *c)
{
	return c ? c->nf : 0;
}

int nxp_capture_get_file(const nxp_capture *c, size_t index, nxp_capture_file *out)
{
	if (!c || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	if (index >= c->nf)
		return NXP_E_RANGE;
	NXP__STRUCT_OUT(out, c->f[index].pub, sizeof(size_t));
	return NXP_OK;
}

size_t nxp_capture_process_count(const nxp_capture *c)
{
	return c ? c->np : 0;
}

int nxp_capture_get_process(const nxp_capture *c, size_t index, nxp_capture_process *out)
{
	if (!c || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	if (index >= c->np)
		return NXP_E_RANGE;
	NXP__STRUCT_OUT(out, c->p[index].pub, sizeof(size_t));
	return NXP_OK;
}

size_t nxp_capture_profile_count(const nxp_capture *c)
{
	return c ? c->nprof : 0;
}

int nxp_capture_get_profile(const nxp_capture *c, size_t index, nxp_capture_profile *out)
{
	if (!c || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	if (index >= c->nprof)
		return NXP_E_RANGE;
	NXP__STRUCT_OUT(out, c->prof[index], sizeof(size_t));
	return NXP_OK;
}

size_t nxp_capture_problem_count(const nxp_capture *c)
{
	return c ? c->nproblems : 0;
}

const char *nxp_capture_problem(const nxp_capture *c, size_t index)
{
	return c && index < c->nproblems ? c->problems[index] : NULL;
}

int nxp_capture_open_profile(const nxp_capture *c, size_t index, const nxp_profile_options *opts,
			     nxp_profile **out, nxp_status *st)
{
	if (!c || !out)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_open_profile: NULL argument");
	*out = NULL;
	if (index >= c->nprof)
		return nxp__error_set(st, NXP_E_RANGE, -1, "profile %zu of %zu", index, c->nprof);
	const nxp_capture_profile *p = &c->prof[index];
	if (p->neff < 0 || p->ntff < 0)
		return nxp__error_set(st, NXP_E_NOT_FOUND, -1, "%s: no NEFF paired with this NTFF",
				      p->ntff >= 0 ? c->f[p->ntff].path : "?");
	return nxp_profile_open_path(out, c->f[p->neff].path, c->f[p->ntff].path, opts, st);
}

int nxp_capture_open_events(const nxp_capture *c, int64_t process_index, const nxp_system_options *opts,
			    nxp_system_events **out, nxp_status *st)
{
	if (!c || !out)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_open_events: NULL argument");
	*out = NULL;
	if (process_index < -1 || process_index >= (int64_t)c->np)
		return nxp__error_set(st, NXP_E_RANGE, -1, "process %lld of %zu", (long long)process_index, c->np);
	const char **paths = calloc(c->nf ? c->nf : 1, sizeof(*paths));
	const char **insts = calloc(c->nf ? c->nf : 1, sizeof(*insts));
	if (!paths || !insts) {
		free(paths);
		free(insts);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	size_t n = 0;
	for (size_t i = 0; i < c->np; i++) {
		if (process_index >= 0 && (size_t)process_index != i)
			continue;
		const nxp_capture_process *p = &c->p[i].pub;
		/* runtime events first, then the framework's */
		if (p->ntrace >= 0) {
			paths[n] = c->f[p->ntrace].path;
			insts[n++] = c->p[i].instance_id;
		}
		if (p->trace_json >= 0) {
			paths[n] = c->f[p->trace_json].path;
			insts[n++] = c->p[i].instance_id;
		}
	}
	int rc;
	if (!n)
		rc = nxp__error_set(st, NXP_E_NOT_FOUND, -1, "no ntrace.pb or trace.json in the capture");
	else
		rc = sys_events_open_files(out, paths, insts, n, opts, st);
	free(paths);
	free(insts);
	return rc;
}

/* An open capture is read-only and shared by threads: its getters record
 * nothing (they fail only with NXP_E_INVAL / NXP_E_RANGE for their own
 * arguments), and nxp_capture_open_profile / _open_events report into their
 * own `st`.  The accessor exists so that every handle has one, and reports
 * "no error". */
int nxp_capture_error(const nxp_capture *c, nxp_status *st)
{
	if (!c)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_error: NULL handle");
	nxp_status none;
	nxp_status_init(&none);
	return nxp_status_copy(st, &none);
}

/* 0.2 names: the created handle's own prefix and `_open` verb, out parameter
 * first; the 0.1 nxp_capture_open_profile / _open_events stay as they are. */
int nxp_profile_open_capture(nxp_profile **out, const nxp_capture *c, size_t index, const nxp_profile_options *opts,
			     nxp_status *st)
{
	return nxp_capture_open_profile(c, index, opts, out, st);
}

int nxp_system_events_open_capture(nxp_system_events **out, const nxp_capture *c, int64_t process_index,
				   const nxp_system_options *opts, nxp_status *st)
{
	return nxp_capture_open_events(c, process_index, opts, out, st);
}
