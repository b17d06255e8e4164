/* SPDX-License-Identifier: MIT */
/* Export: every table of a profile (or a system profile) to DIR/<Table>.parquet
 * through the columnar streams and nxp_parquet_write(). */
#include "columnar_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi_struct.h"
#include "pool.h"
#include "status.h"

static int want_table(const nxc_table *t, int system)
{
	if (t->kind == NXC_KIND_SCHEMA)
		return 1;
	return system ? t->kind == NXC_KIND_SYSTEM : t->kind != NXC_KIND_SYSTEM;
}

/* mkdir -p of `path` (modified in place and restored). */
static int make_dirs(char *path, nxp_status *st)
{
	for (char *q = path + 1;; q++) {
		if (*q != '/' && *q)
			continue;
		char c = *q;
		*q = 0;
		int bad = mkdir(path, 0777) != 0 && errno != EEXIST;
		struct stat sb;
		if (!bad && (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)))
			bad = 1, errno = ENOTDIR;
		if (bad) {
			int rc = nxp__error_set(st, NXP_E_IO, -1, "%s: cannot create: %s", path, strerror(errno));
			*q = c;
			return rc;
		}
		*q = c;
		if (!c)
			return 0;
	}
}

/* Where table `name` goes: DIR/<Table>.parquet (flat), or, for a capture,
 * DIR/<Table>/[profile=<partition>/]part-0.parquet. */
typedef struct layout {
	int hive;
	const char *partition; /* escaped profile name, NULL: system/SchemaFields */
} layout;

static char *target(const char *dir, const char *name, const layout *lo)
{
	size_t n = strlen(dir) + strlen(name) + (lo && lo->partition ? strlen(lo->partition) : 0) + 64;
	char *f = malloc(n);
	if (!f)
		return NULL;
	if (!lo || !lo->hive)
		snprintf(f, n, "%s/%s.parquet", dir, name);
	else if (lo->partition)
		snprintf(f, n, "%s/%s/profile=%s/part-0.parquet", dir, name, lo->partition);
	else
		snprintf(f, n, "%s/%s/part-0.parquet", dir, name);
	return f;
}

static int export_tables(nxp_profile *p, const char *path, const char *dir, const nxp_export_options *uo,
			 const layout *lo, int skip_schema, int skip_missing, nxp_status *st)
{
	int system = p == NULL;
	nxp_export_options o;
	nxp_export_options_init(&o);
	/* the caller's bytes only (a struct from an older header keeps our defaults) */
	if (uo && NXP__STRUCT_IN_DEFAULTS(o, uo, offsetof(nxp_export_options, progress_user) + sizeof(void *)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_export_options: struct_size too small");
	if (!dir || !*dir)
		return nxp__error_set(st, NXP_E_INVAL, -1, "export: no directory");
	nxc_registry_init();
	/* the tables to write */
	const nxc_table *list[64];
	int n = 0;
	if (o.tables) {
		for (int i = 0; o.tables[i]; i++) {
			const nxc_table *t = nxc_find_table(o.tables[i]);
			if (!t || (!want_table(t, system) && !(lo && lo->hive && want_table(t, !system))))
				return nxp__error_set(st, NXP_E_INVAL, -1, "unknown %s table \"%s\"",
						system ? "system" : "profile", o.tables[i]);
			if (!want_table(t, system) || (skip_schema && t->kind == NXC_KIND_SCHEMA))
				continue; /* a capture's other half */
			if (n < 64)
				list[n++] = t;
		}
	} else {
		for (int i = 0; nxc_tables[i] && n < 64; i++)
			if (want_table(nxc_tables[i], system) && !(skip_schema && nxc_tables[i]->kind == NXC_KIND_SCHEMA))
				list[n++] = nxc_tables[i];
	}
	/* refuse before writing anything */
	if (!o.overwrite)
		for (int i = 0; i < n; i++) {
			char *file = target(dir, list[i]->name, lo);
			if (!file)
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			if (access(file, F_OK) == 0) {
				int rc = nxp__error_set(st, NXP_E_INVAL, -1, "%s exists (overwrite not allowed)", file);
				free(file);
				return rc;
			}
			free(file);
		}
	{
		char *d = strdup(dir);
		if (!d)
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		int rc = make_dirs(d, st);
		free(d);
		if (rc)
			return rc;
	}
	const char *kv[] = { "schema_version", "7.4.0", "libnxp_version", nxp_version_string(), "table", NULL,
			     lo && lo->partition ? "profile" : NULL, lo ? lo->partition : NULL, NULL };
	int rc = 0;
	nxp_summary *sum = NULL; /* one summary pass for the summary tables */
	for (int i = 0; i < n && !rc; i++) {
		if (o.progress)
			o.progress(o.progress_user, list[i]->name, i, n);
		char *file = target(dir, list[i]->name, lo);
		if (!file) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		}
		if (lo && lo->hive) {
			char *slash = strrchr(file, '/');
			*slash = 0;
			rc = make_dirs(file, st);
			*slash = '/';
		}
		if (!rc && p && !sum && nxc_table_uses_summary(list[i]))
			rc = nxp_profile_summarize(p, NULL, &sum, st);
		struct ArrowArrayStream as;
		if (!rc)
			rc = nxc_open_stream_sum(&as, list[i], p, path, NULL, sum, st);
		if (rc == NXP_E_NOT_FOUND && skip_missing) {
			if (st)
				nxp_status_init(st);
			rc = 0;
			free(file);
			continue;
		}
		if (!rc) {
			nxp_parquet_options po;
			nxp_parquet_options_init(&po);
			po.codec = o.codec;
			po.level = o.level;
			po.overwrite = o.overwrite;
			kv[5] = list[i]->name;
			po.key_values = kv;
			rc = nxp_parquet_write(file, &as, &po, st); /* releases the stream */
		}
		free(file);
	}
	nxp_summary_close(sum);
	if (!rc && o.progress)
		o.progress(o.progress_user, NULL, n, n);
	return rc;
}

NXP_API int nxp_profile_export_parquet(nxp_profile *p, const char *dir, const nxp_export_options *opts,
				       nxp_status *st)
{
	if (!p)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_export_parquet: NULL profile");
	return export_tables(p, NULL, dir, opts, NULL, 0, 0, st);
}

NXP_API int nxp_system_export_parquet(const char *path, const char *dir, const nxp_export_options *opts,
				      nxp_status *st)
{
	if (!path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_export_parquet: NULL path");
	return export_tables(NULL, path, dir, opts, NULL, 0, 0, st);
}

/* The partition value of a profile: its NTFF's file name without ".ntff",
 * every byte outside [A-Za-z0-9._-] as '_'. */
static char *partition_name(const char *ntff_path)
{
	const char *b = strrchr(ntff_path, '/');
	b = b ? b + 1 : ntff_path;
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".ntff"))
		n -= 5;
	char *r = malloc(n + 24);
	if (!r)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)b[i];
		r[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
				       c == '_' || c == '-'
			       ? (char)c
			       : '_';
	}
	r[n] = 0;
	if (n == 0 || r[0] == '.')
		r[0] = '_', r[n ? n : 1] = 0;
	return r;
}

/* One profile's partitions: open, export, close.  Its own status; progress
 * calls are serialized through the job's lock. */
typedef struct export_job {
	const nxp_capture *c;
	const char *dir;
	nxp_export_options o; /* the caller's, progress pointing at locked_progress */
	void (*progress)(void *, const char *, int, int);
	void *progress_user;
	pthread_mutex_t lock;
} export_job;

typedef struct export_task {
	export_job *job;
	size_t index;
	const char *name;
	int rc;
	nxp_status st;
} export_task;

static void locked_progress(void *user, const char *table, int done, int total)
{
	export_job *j = user;
	pthread_mutex_lock(&j->lock);
	j->progress(j->progress_user, table, done, total);
	pthread_mutex_unlock(&j->lock);
}

static void export_run(void *arg)
{
	export_task *t = arg;
	nxp_status_init(&t->st);
	nxp_profile *p;
	t->rc = nxp_capture_open_profile(t->job->c, t->index, NULL, &p, &t->st);
	if (t->rc)
		return;
	layout lo = { 1, t->name };
	t->rc = export_tables(p, NULL, t->job->dir, &t->job->o, &lo, 1, 0, &t->st);
	nxp_profile_close(p);
}

unsigned nxp__fanout_threads(void); /* analysis/compare.c */
int nxp__capture_export_parquet_threads(const char *capture_dir, const char *dir, const nxp_export_options *opts,
					unsigned threads, nxp_status *st);

NXP_API int nxp_capture_export_parquet(const char *capture_dir, const char *dir, const nxp_export_options *opts,
				       nxp_status *st)
{
	return nxp__capture_export_parquet_threads(capture_dir, dir, opts, nxp__fanout_threads(), st);
}

/* threads: profiles exported at once (0 = one per online CPU, 1 = serial on
 * the calling thread).  Each profile writes its own partition files, so the
 * files are the same whatever the width.  On an error, the first failing
 * profile's (in profile order) is returned; with threads > 1 profiles after it
 * may have been written too. */
int nxp__capture_export_parquet_threads(const char *capture_dir, const char *dir, const nxp_export_options *opts,
					unsigned threads, nxp_status *st)
{
	if (!capture_dir || !dir)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_export_parquet: NULL argument");
	nxp_capture *c;
	int rc = nxp_capture_open(&c, capture_dir, st);
	if (rc)
		return rc;
	size_t np = nxp_capture_profile_count(c);
	char **names = calloc(np ? np : 1, sizeof(*names));
	if (!names) {
		nxp_capture_close(c);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	/* partition names, unique: a repeated NTFF name gets "_<profile index>" */
	for (size_t i = 0; i < np && !rc; i++) {
		nxp_capture_profile cp;
		nxp_capture_file f;
		cp.struct_size = sizeof(cp);
		f.struct_size = sizeof(f);
		if (nxp_capture_get_profile(c, i, &cp) || cp.ntff < 0 || cp.neff < 0 ||
		    nxp_capture_get_file(c, (size_t)cp.ntff, &f))
			continue; /* unpaired: listed among the capture's problems */
		if (!(names[i] = partition_name(f.path))) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			break;
		}
		for (size_t j = 0; j < i; j++)
			if (names[j] && !strcmp(names[j], names[i])) {
				snprintf(names[i] + strlen(names[i]), 24, "_%zu", i);
				break;
			}
	}
	/* the system tables (those the capture has) and SchemaFields, once */
	layout sys = { 1, NULL };
	if (!rc)
		rc = export_tables(NULL, capture_dir, dir, opts, &sys, 0, 1, st);
	if (!threads)
		threads = nxp_cpu_count();
	if (threads > np)
		threads = np ? (unsigned)np : 1;
	nxp_pool *pool = NULL;
	int fanned = 0;
	if (!rc && threads > 1 && nxp_pool_new(&pool, threads, threads) != NXP_OK)
		pool = NULL; /* no threads: serial */
	if (!rc && pool) {
		fanned = 1;
		export_job job = {.c = c, .dir = dir};
		export_task *tasks = calloc(np, sizeof(*tasks));
		if (!tasks) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		} else {
			nxp_export_options_init(&job.o);
			if (opts) /* validated by the system export above */
				NXP__STRUCT_IN_DEFAULTS(job.o, opts, offsetof(nxp_export_options, progress_user) + sizeof(void *));
			job.progress = job.o.progress;
			job.progress_user = job.o.progress_user;
			if (job.progress) {
				job.o.progress = locked_progress;
				job.o.progress_user = &job;
			}
			pthread_mutex_init(&job.lock, NULL);
			for (size_t i = 0; i < np; i++) {
				tasks[i] = (export_task){&job, i, names[i], 0, {0}};
				if (names[i])
					nxp_pool_submit(pool, export_run, &tasks[i]);
			}
			nxp_pool_wait(pool);
			for (size_t i = 0; i < np && !rc; i++)
				if (tasks[i].rc) {
					rc = nxp__error_set(st, tasks[i].rc, tasks[i].st.offset, "%s", tasks[i].st.message);
				}
			pthread_mutex_destroy(&job.lock);
			free(tasks);
		}
	}
	nxp_pool_free(pool);
	for (size_t i = 0; i < np && !rc && !fanned; i++) {
		if (!names[i])
			continue;
		nxp_profile *p;
		rc = nxp_capture_open_profile(c, i, NULL, &p, st);
		if (rc)
			break;
		layout lo = { 1, names[i] };
		rc = export_tables(p, NULL, dir, opts, &lo, 1, 0, st);
		nxp_profile_close(p);
	}
	for (size_t i = 0; i < np; i++)
		free(names[i]);
	free(names);
	nxp_capture_close(c);
	return rc;
}
