/* SPDX-License-Identifier: MIT */
/* Export: every table of a profile (or a system profile) to DIR/<Table>.parquet
 * through the columnar streams and nxp_parquet_write(). */
#include "columnar_priv.h"
#include "summary_feed.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "abi_struct.h"
#include "mcache.h"
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
	int d = (int)strlen(dir); /* without trailing slashes: "out/" + "/T" is not "out//T" */
	while (d > 1 && dir[d - 1] == '/')
		d--;
	if (d == 1 && dir[0] == '/')
		d = 0; /* the root: "/T" */
	char *f = malloc(n);
	if (!f)
		return NULL;
	if (!lo || !lo->hive)
		snprintf(f, n, "%.*s/%s.parquet", d, dir, name);
	else if (lo->partition)
		snprintf(f, n, "%.*s/%s/profile=%s/part-0.parquet", d, dir, name, lo->partition);
	else
		snprintf(f, n, "%.*s/%s/part-0.parquet", d, dir, name);
	return f;
}

/* ---- the export's counts: the Warning rows, seen as they are written ---- */

/* A pass-through stream over the Warning table that adds up record_count of
 * the skipped_records / skipped_sections rows of every batch handed on. */
typedef struct count_stream {
	struct ArrowArrayStream in;
	int cat, cnt; /* child indices of category and record_count; -2: not looked up yet, -1: absent */
	int64_t recs, secs;
} count_stream;

static int cs_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
	count_stream *c = s->private_data;
	return c->in.get_schema(&c->in, out);
}

static void cs_find_columns(count_stream *c)
{
	c->cat = c->cnt = -1;
	struct ArrowSchema sc;
	if (c->in.get_schema(&c->in, &sc) != 0)
		return;
	for (int64_t i = 0; i < sc.n_children && i < INT32_MAX; i++) {
		const char *name = sc.children[i]->name;
		if (name && !strcmp(name, "category") && sc.children[i]->dictionary)
			c->cat = (int)i;
		else if (name && !strcmp(name, "record_count") && !strcmp(sc.children[i]->format, "l"))
			c->cnt = (int)i;
	}
	if (sc.release)
		sc.release(&sc);
}

static void cs_count(count_stream *c, const struct ArrowArray *a)
{
	if (c->cat < 0 || c->cnt < 0 || c->cat >= a->n_children || c->cnt >= a->n_children)
		return;
	const struct ArrowArray *cat = a->children[c->cat], *cnt = a->children[c->cnt];
	if (!cat->dictionary || cat->n_buffers < 2 || cnt->n_buffers < 2 || cat->dictionary->n_buffers < 3)
		return;
	const int32_t *idx = cat->buffers[1];
	const int32_t *off = cat->dictionary->buffers[1];
	const char *chars = cat->dictionary->buffers[2];
	const int64_t *n = cnt->buffers[1];
	if (!idx || !off || !n || !chars)
		return;
	for (int64_t i = 0; i < a->length; i++) {
		int32_t k = idx[i + cat->offset];
		if (k < 0 || k >= cat->dictionary->length)
			continue;
		size_t len = (size_t)(off[k + 1] - off[k]);
		const char *s = chars + off[k];
		if (len == 15 && !memcmp(s, "skipped_records", 15))
			c->recs += n[i + cnt->offset];
		else if (len == 16 && !memcmp(s, "skipped_sections", 16))
			c->secs += n[i + cnt->offset];
	}
}

static int cs_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
	count_stream *c = s->private_data;
	if (c->cat == -2)
		cs_find_columns(c);
	int rc = c->in.get_next(&c->in, out);
	if (rc == 0 && out->release)
		cs_count(c, out);
	return rc;
}

static const char *cs_last_error(struct ArrowArrayStream *s)
{
	count_stream *c = s->private_data;
	return c->in.get_last_error(&c->in);
}

static void cs_release(struct ArrowArrayStream *s)
{
	count_stream *c = s->private_data;
	if (c->in.release)
		c->in.release(&c->in);
	c->in.release = NULL; /* the counts stay readable until the owner frees c */
	s->release = NULL;
}

/* ---- one export: its tables as tasks, serial or on a pool ---- */

/* The costliest tables first (CPU of a 259 MB synthetic trace, see
 * doc/performance.md "Export threads"); the rest keep table order. */
static int cost_rank(const nxc_table *t)
{
	static const char *const costly[] = { "DmaPacket", "Flow", "Instruction", "OpcodeSummary", "ThrottleSummary",
					      "Summary", "ActiveTime", "Warning", "SemaphoreUpdate", NULL };
	for (int i = 0; costly[i]; i++)
		if (!strcmp(t->name, costly[i]))
			return i;
	return 100;
}

typedef struct table_export {
	nxp_profile *p;
	const char *path, *dir;
	const layout *lo;
	const nxp_export_options *o;
	int skip_missing;
	int n;           /* tables */
	int threaded;    /* progress and first_fail go through `lock` */
	pthread_mutex_t lock;
	int done;        /* tables finished */
	int first_fail;  /* table-order index of the first failure so far, n = none */
	nxp_mcache *mc[64]; /* block caches not in use (one per thread at most exists) */
	int nmc;
	/* The Instruction and DmaPacket streams feed the summary pass
	 * (summary_feed.h) and ActiveTime (ntff_at_feed) when both tables and
	 * a summary table, or ActiveTime, are written; NULL members otherwise. */
	nxc_feeds feeds;
} table_export;

typedef struct table_task {
	table_export *run;
	const nxc_table *t[3]; /* the summary tables share one task (one summary pass) */
	int idx[3];            /* their table-order indices, ascending */
	int nt;
	int rc, fail_idx, written;
	int warning;           /* the Warning table was written: recs/secs are its counts */
	int after;             /* made from the feeds: runs once the other tasks are done */
	int64_t recs, secs;
	double cpu_s;          /* CPU time of the task (its thread's clock) */
	pthread_t thread;      /* the thread it ran on */
	nxp_status st;
} table_task;

static void run_lock(table_export *r)
{
	if (r->threaded)
		pthread_mutex_lock(&r->lock);
}

static void run_unlock(table_export *r)
{
	if (r->threaded)
		pthread_mutex_unlock(&r->lock);
}

/* Rows of the batches the export passes to the Parquet writer: smaller than
 * the streams' default (65536), so a batch of the widest table (Instruction,
 * 32 columns) takes 2 MiB instead of 16 and fewer fresh pages are touched.
 * The files are byte-identical at any batch size; 259 MB trace, five
 * alternated runs: 1.45-1.65 s CPU at 65536, 1.35-1.50 s at 8192, 14.5k minor
 * faults instead of 17.5k (a simulated 1 MiB cache missed only 1.3 % less:
 * the gain is the memory touched, not cache hits). */
#define EXPORT_BATCH_ROWS 8192

/* The tables of a thread reuse each other's large buffers (mcache.h). */
#define MCACHE_BYTES ((size_t)64 << 20)

static nxp_mcache *mc_take(table_export *r)
{
	run_lock(r);
	nxp_mcache *c = r->nmc ? r->mc[--r->nmc] : NULL;
	run_unlock(r);
	return c ? c : nxp__mcache_new(MCACHE_BYTES); /* NULL: plain malloc */
}

static void mc_give(table_export *r, nxp_mcache *c)
{
	run_lock(r);
	if (c && r->nmc < (int)(sizeof(r->mc) / sizeof(r->mc[0])))
		r->mc[r->nmc++] = c, c = NULL;
	run_unlock(r);
	nxp__mcache_free(c);
}

/* Write one table to its file. */
static int write_table(table_task *k, const nxc_table *t, nxp_summary **sum, nxp_status *st)
{
	table_export *r = k->run;
	char *file = target(r->dir, t->name, r->lo);
	if (!file)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	int rc = 0;
	if (r->lo && r->lo->hive) {
		char *slash = strrchr(file, '/');
		*slash = 0;
		rc = make_dirs(file, st);
		*slash = '/';
	}
	if (!rc && r->p && !*sum && nxc_table_uses_summary(t))
		rc = r->feeds.sum ? nxp__sum_feed_summarize(r->feeds.sum, sum, st)
				  : nxp_profile_summarize(r->p, NULL, sum, st);
	struct ArrowArrayStream as;
	nxp_table_options to;
	nxp_table_options_init(&to);
	to.batch_rows = EXPORT_BATCH_ROWS;
	if (!rc)
		rc = nxc_open_stream_sum(&as, t, r->p, r->path, &to, *sum, &r->feeds, st);
	if (rc == NXP_E_NOT_FOUND && r->skip_missing) {
		if (st)
			nxp_status_init(st);
		free(file);
		return 0;
	}
	count_stream *cs = NULL;
	if (!rc && t == &nxc_table_warning) {
		if (!(cs = calloc(1, sizeof(*cs)))) {
			as.release(&as);
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		} else {
			cs->in = as;
			cs->cat = cs->cnt = -2;
			as = (struct ArrowArrayStream){ .get_schema = cs_get_schema,
							 .get_next = cs_get_next,
							 .get_last_error = cs_last_error,
							 .release = cs_release,
							 .private_data = cs };
		}
	}
	if (!rc) {
		const char *kv[] = { "schema_version", "7.4.0", "libnxp_version", nxp_version_string(), "table", t->name,
				     r->lo && r->lo->partition ? "profile" : NULL, r->lo ? r->lo->partition : NULL, NULL };
		nxp_parquet_options po;
		nxp_parquet_options_init(&po);
		po.codec = r->o->codec;
		po.level = r->o->level;
		po.overwrite = r->o->overwrite;
		po.key_values = kv;
		rc = nxp_parquet_write(file, &as, &po, st); /* releases the stream */
		if (!rc)
			k->written++;
	}
	if (cs) {
		if (!rc) {
			k->warning = 1;
			k->recs += cs->recs;
			k->secs += cs->secs;
		}
		free(cs);
	}
	free(file);
	return rc;
}

static void table_task_run(void *arg)
{
	table_task *k = arg;
	table_export *r = k->run;
	nxp_summary *sum = NULL; /* one summary pass for the summary tables */
	nxp_status_init(&k->st);
	struct timespec t0, t1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	nxp_mcache *mc = mc_take(r), *prev = nxp__mcache_use(mc);
	for (int j = 0; j < k->nt; j++) {
		run_lock(r);
		int skip = r->first_fail < k->idx[j]; /* an earlier table failed: stop, as serially */
		if (!skip && r->o->progress)
			r->o->progress(r->o->progress_user, k->t[j]->name, r->done, r->n);
		run_unlock(r);
		if (skip)
			break;
		int rc = write_table(k, k->t[j], &sum, &k->st);
		run_lock(r);
		r->done++;
		if (rc && k->idx[j] < r->first_fail)
			r->first_fail = k->idx[j];
		run_unlock(r);
		if (rc) {
			k->rc = rc;
			k->fail_idx = k->idx[j];
			break;
		}
	}
	nxp_summary_close(sum);
	nxp__mcache_use(prev);
	mc_give(r, mc);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	k->cpu_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	k->thread = pthread_self();
}

/* opts->threads as a count (0 = NXP_THREADS or the CPUs). */
static unsigned resolve_threads(int32_t threads)
{
	if (threads <= 0)
		return nxp__fanout_threads();
	return threads > 1024 ? 1024u : (unsigned)threads;
}

/* The export options in effect: the caller's bytes over our defaults. */
static int read_options(nxp_export_options *o, const nxp_export_options *uo, nxp_status *st)
{
	nxp_export_options_init(o);
	/* the caller's bytes only (a struct from an older header keeps our defaults) */
	if (uo && NXP__STRUCT_IN_DEFAULTS(*o, uo, offsetof(nxp_export_options, progress_user) + sizeof(void *)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_export_options: struct_size too small");
	if (o->threads < 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_export_options: threads %d < 0", (int)o->threads);
	if (o->report && !nxp__struct_size_ok(o->report, offsetof(nxp_export_report, tables_written) + sizeof(int32_t)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_export_report: struct_size too small");
	return 0;
}

/* Counts of one or more exports, handed to the caller at the end. */
typedef struct export_counts {
	int64_t recs, secs;
	int warning; /* some Warning table was written */
	int32_t written;
	nxp__export_timing *timing; /* NULL, or filled by a profile export */
} export_counts;

static void report_counts(const nxp_export_options *o, const export_counts *c)
{
	if (!o->report)
		return;
	nxp_export_report rep;
	memset(&rep, 0, sizeof(rep));
	rep.struct_size = sizeof(rep);
	rep.skipped_records = c->warning ? c->recs : -1;
	rep.skipped_sections = c->warning ? c->secs : -1;
	rep.tables_written = c->written;
	NXP__STRUCT_OUT(o->report, rep, offsetof(nxp_export_report, tables_written) + sizeof(int32_t));
}

static int add_table(const nxc_table **list, int *n, const nxc_table *t)
{
	for (int i = 0; i < *n; i++)
		if (list[i] == t)
			return 0; /* listed twice: written once */
	if (*n >= 64)
		return -1;
	list[(*n)++] = t;
	return 0;
}

/* Flow: libnxp's analysis table, one flow cursor over the whole trace; asked
 * for by name (or "all"), not in the default set. */
static int in_default_set(const nxc_table *t)
{
	return t != &nxc_table_flow;
}

static int max_thread(const nxp__export_timing *tm, int n)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		m = tm->thread[i] > m ? tm->thread[i] : m;
	return m;
}

/* o: already read (read_options); threads: the width to use (>= 1);
 * counts: added to. */
static int export_tables(nxp_profile *p, const char *path, const char *dir, const nxp_export_options *o,
			 unsigned threads, const layout *lo, int skip_schema, int skip_missing, export_counts *counts,
			 nxp_status *st)
{
	int system = p == NULL;
	if (!dir || !*dir)
		return nxp__error_set(st, NXP_E_INVAL, -1, "export: no directory");
	nxc_registry_init();
	/* the tables to write, in table order */
	const nxc_table *list[64];
	int n = 0;
	for (int i = 0; o->tables ? o->tables[i] != NULL : i == 0; i++) {
		const char *name = o->tables ? o->tables[i] : "default";
		int set = !strcmp(name, "all") ? 2 : !strcmp(name, "default") ? 1 : 0;
		if (set) {
			for (int j = 0; nxc_tables[j]; j++)
				if (want_table(nxc_tables[j], system) && (set == 2 || in_default_set(nxc_tables[j])) &&
				    !(skip_schema && nxc_tables[j]->kind == NXC_KIND_SCHEMA) &&
				    add_table(list, &n, nxc_tables[j]))
					return nxp__error_set(st, NXP_E_INVAL, -1, "too many tables");
			continue;
		}
		const nxc_table *t = nxc_find_table(name);
		if (!t || (!want_table(t, system) && !(lo && lo->hive && want_table(t, !system)))) {
			/* the names it could be, so that a typo is one look away */
			char names[1024];
			size_t k = 0;
			names[0] = 0;
			for (int j = 0; nxc_tables[j] && k < sizeof(names); j++)
				if (want_table(nxc_tables[j], system) || (lo && lo->hive))
					k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", k ? ", " : "",
							      nxc_tables[j]->name);
			return nxp__error_set(st, NXP_E_INVAL, -1, "unknown table \"%s\" (default, all, %s)", name, names);
		}
		if (!want_table(t, system) || (skip_schema && t->kind == NXC_KIND_SCHEMA))
			continue; /* a capture's other half */
		if (add_table(list, &n, t))
			return nxp__error_set(st, NXP_E_INVAL, -1, "too many tables");
	}
	/* back to table order (sets and names may come in any order) */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			int a = 0, b = 0;
			while (nxc_tables[a] != list[j - 1])
				a++;
			while (nxc_tables[b] != list[j])
				b++;
			if (a < b)
				break;
			const nxc_table *x = list[j];
			list[j] = list[j - 1];
			list[j - 1] = x;
		}
	/* refuse before writing anything */
	if (!o->overwrite)
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
	/* tasks: one per table, the summary tables together (in the first one's place) */
	table_task tasks[64];
	int nk = 0, sum_task = -1;
	table_export run = { .p = p, .path = path, .dir = dir, .lo = lo, .o = o, .skip_missing = skip_missing, .n = n,
			   .first_fail = n };
	memset(tasks, 0, sizeof(tasks));
	for (int i = 0; i < n; i++) {
		int shared = p && nxc_table_uses_summary(list[i]);
		int k = shared && sum_task >= 0 ? sum_task : nk++;
		if (shared)
			sum_task = k;
		tasks[k].run = &run;
		tasks[k].t[tasks[k].nt] = list[i];
		tasks[k].idx[tasks[k].nt++] = i;
	}
	/* The summary and ActiveTime fed by the Instruction and DmaPacket
	 * streams: instead of a pass of its own over both tables, the summary
	 * task combines what the two streams handed it, and ActiveTime is made
	 * from the runs they kept, so both tasks run after the others. */
	int has_i = 0, has_d = 0, at_task = -1;
	for (int k = 0; k < nk; k++) {
		const nxc_table *t = tasks[k].t[0];
		has_i |= t->kind == NXC_KIND_DEVICE && t->cursor_table == NXP_TABLE_INSTRUCTION;
		has_d |= t->kind == NXC_KIND_DEVICE && t->cursor_table == NXP_TABLE_DMA_PACKET;
		if (t->kind == NXC_KIND_DEVICE && t->cursor_table == NXP_TABLE_ACTIVE_TIME)
			at_task = k;
	}
	if (p && has_i && has_d) {
		int rc = NXP_OK;
		if (sum_task >= 0 && (rc = nxp__sum_feed_new(&run.feeds.sum, p, st)) == NXP_OK)
			tasks[sum_task].after = 1;
		if (!rc && at_task >= 0) {
			if ((rc = ntff_at_feed_new(&run.feeds.at, p)) != NXP_OK)
				nxp__error_set(st, rc, -1, "out of memory");
			else
				tasks[at_task].after = 1;
		}
		if (rc) {
			nxp__sum_feed_free(run.feeds.sum);
			return rc;
		}
	}
	if (threads > (unsigned)nk)
		threads = nk ? (unsigned)nk : 1;
	nxp_pool *pool = NULL;
	if (threads > 1 && nxp_pool_new(&pool, threads, 0) != NXP_OK)
		pool = NULL; /* no threads: serial */
	if (pool) {
		/* the costliest first; ties in table order */
		int order[64];
		for (int i = 0; i < nk; i++)
			order[i] = i;
		for (int i = 1; i < nk; i++)
			for (int j = i; j > 0; j--) {
				int a = order[j - 1], b = order[j];
				int ra = cost_rank(tasks[a].t[0]), rb = cost_rank(tasks[b].t[0]);
				if (ra < rb || (ra == rb && a < b))
					break;
				order[j - 1] = b;
				order[j] = a;
			}
		run.threaded = 1;
		pthread_mutex_init(&run.lock, NULL);
		for (int i = 0; i < nk; i++)
			if (!tasks[order[i]].after)
				nxp_pool_submit(pool, table_task_run, &tasks[order[i]]);
		nxp_pool_free(pool); /* waits for every task */
	} else {
		for (int i = 0; i < nk; i++)
			if (!tasks[i].after)
				table_task_run(&tasks[i]);
	}
	for (int i = 0; i < nk; i++)
		if (tasks[i].after)
			table_task_run(&tasks[i]);
	if (run.threaded)
		pthread_mutex_destroy(&run.lock);
	for (int i = 0; i < run.nmc; i++)
		nxp__mcache_free(run.mc[i]);
	nxp__sum_feed_free(run.feeds.sum);
	ntff_at_feed_free(run.feeds.at);
	/* the first failing table in table order */
	int rc = 0, fail = n;
	for (int i = 0; i < nk; i++) {
		if (tasks[i].rc && tasks[i].fail_idx < fail) {
			fail = tasks[i].fail_idx;
			rc = tasks[i].rc;
			nxp_status_copy(st, &tasks[i].st);
		}
		counts->written += tasks[i].written;
		if (counts->timing && i < 64) {
			nxp__export_timing *tm = counts->timing;
			int th = 0;
			while (th < i && !pthread_equal(tasks[th].thread, tasks[i].thread))
				th++;
			tm->table[i] = tasks[i].t[0]->name;
			tm->cpu_s[i] = tasks[i].cpu_s;
			tm->thread[i] = th < i ? tm->thread[th] : (i ? 1 + max_thread(tm, i) : 0);
			tm->n = i + 1;
		}
		if (tasks[i].warning) {
			counts->warning = 1;
			counts->recs += tasks[i].recs;
			counts->secs += tasks[i].secs;
		}
	}
	if (!rc && o->progress)
		o->progress(o->progress_user, NULL, n, n);
	return rc;
}

/* One export with the caller's options: read them, export, report. */
static int export_one(nxp_profile *p, const char *path, const char *dir, const nxp_export_options *uo,
		      nxp__export_timing *timing, nxp_status *st)
{
	nxp_export_options o;
	int rc = read_options(&o, uo, st);
	if (rc)
		return rc;
	export_counts counts = { .timing = timing };
	rc = export_tables(p, path, dir, &o, resolve_threads(o.threads), NULL, 0, 0, &counts, st);
	if (!rc)
		report_counts(&o, &counts);
	return rc;
}

NXP_API int nxp_profile_export_parquet(nxp_profile *p, const char *dir, const nxp_export_options *opts,
				       nxp_status *st)
{
	if (!p)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_export_parquet: NULL profile");
	return export_one(p, NULL, dir, opts, NULL, st);
}

int nxp__profile_export_parquet_timed(nxp_profile *p, const char *dir, const nxp_export_options *opts,
				      nxp__export_timing *timing, nxp_status *st)
{
	if (!p)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_export_parquet: NULL profile");
	if (timing)
		memset(timing, 0, sizeof(*timing));
	return export_one(p, NULL, dir, opts, timing, st);
}

NXP_API int nxp_system_export_parquet(const char *path, const char *dir, const nxp_export_options *opts,
				      nxp_status *st)
{
	if (!path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_export_parquet: NULL path");
	return export_one(NULL, path, dir, opts, NULL, st);
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

/* One profile's partitions: open, export, close.  Its own status and counts;
 * progress calls are serialized through the job's lock. */
typedef struct export_job {
	const nxp_capture *c;
	const char *dir;
	nxp_export_options o; /* the caller's, progress pointing at locked_progress */
	unsigned table_threads;
	void (*progress)(void *, const char *, int, int);
	void *progress_user;
	pthread_mutex_t lock;
} export_job;

typedef struct export_task {
	export_job *job;
	size_t index;
	const char *name;
	int rc;
	export_counts counts;
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
	t->rc = export_tables(p, NULL, t->job->dir, &t->job->o, t->job->table_threads, &lo, 1, 0, &t->counts, &t->st);
	nxp_profile_close(p);
}

int nxp__capture_export_parquet_threads(const char *capture_dir, const char *dir, const nxp_export_options *opts,
					unsigned threads, nxp_status *st);

NXP_API int nxp_capture_export_parquet(const char *capture_dir, const char *dir, const nxp_export_options *opts,
				       nxp_status *st)
{
	nxp_export_options o;
	int rc = read_options(&o, opts, st);
	if (rc)
		return rc;
	return nxp__capture_export_parquet_threads(capture_dir, dir, opts, resolve_threads(o.threads), st);
}

/* threads: the width (0 = one per online CPU, 1 = serial on the calling
 * thread); it overrides opts->threads.  min(profiles, threads) profiles are
 * exported at once, each on threads / that many table threads, so at most
 * `threads` threads write at once.  Each profile writes its own partition
 * files, so the files are the same whatever the width.  On an error, the
 * first failing profile's (in profile order) is returned; with several
 * profile workers, profiles after it may have been written too. */
int nxp__capture_export_parquet_threads(const char *capture_dir, const char *dir, const nxp_export_options *opts,
					unsigned threads, nxp_status *st)
{
	if (!capture_dir || !dir)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_export_parquet: NULL argument");
	nxp_export_options o;
	int rc = read_options(&o, opts, st);
	if (rc)
		return rc;
	if (!threads)
		threads = nxp_cpu_count();
	nxp_capture *c;
	rc = nxp_capture_open(&c, capture_dir, st);
	if (rc)
		return rc;
	size_t np = nxp_capture_profile_count(c);
	char **names = calloc(np ? np : 1, sizeof(*names));
	if (!names) {
		nxp_capture_close(c);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	/* partition names, unique: a repeated NTFF name gets "_<profile index>" */
	size_t nvalid = 0;
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
		nvalid++;
		for (size_t j = 0; j < i; j++)
			if (names[j] && !strcmp(names[j], names[i])) {
				snprintf(names[i] + strlen(names[i]), 24, "_%zu", i);
				break;
			}
	}
	export_counts counts = { 0 };
	/* the system tables (those the capture has) and SchemaFields, once */
	layout sys = { 1, NULL };
	if (!rc)
		rc = export_tables(NULL, capture_dir, dir, &o, threads, &sys, 0, 1, &counts, st);
	unsigned workers = threads;
	if (workers > nvalid)
		workers = nvalid ? (unsigned)nvalid : 1;
	unsigned table_threads = threads / workers;
	nxp_pool *pool = NULL;
	int fanned = 0;
	if (!rc && workers > 1 && nxp_pool_new(&pool, workers, workers) != NXP_OK)
		pool = NULL; /* no threads: serial */
	if (!rc && pool) {
		fanned = 1;
		export_job job = {.c = c, .dir = dir, .o = o, .table_threads = table_threads};
		export_task *tasks = calloc(np, sizeof(*tasks));
		if (!tasks) {
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		} else {
			job.progress = job.o.progress;
			job.progress_user = job.o.progress_user;
			if (job.progress) {
				job.o.progress = locked_progress;
				job.o.progress_user = &job;
			}
			pthread_mutex_init(&job.lock, NULL);
			for (size_t i = 0; i < np; i++) {
				tasks[i] = (export_task){ .job = &job, .index = i, .name = names[i] };
				if (names[i])
					nxp_pool_submit(pool, export_run, &tasks[i]);
			}
			nxp_pool_wait(pool);
			for (size_t i = 0; i < np; i++) {
				if (tasks[i].rc && !rc)
					rc = nxp_status_copy(st, &tasks[i].st);
				counts.written += tasks[i].counts.written;
				if (tasks[i].counts.warning) {
					counts.warning = 1;
					counts.recs += tasks[i].counts.recs;
					counts.secs += tasks[i].counts.secs;
				}
			}
			pthread_mutex_destroy(&job.lock);
			free(tasks);
		}
	}
	nxp_pool_free(pool);
	if (!fanned) /* one profile at a time, its tables on `threads` threads */
		table_threads = threads;
	for (size_t i = 0; i < np && !rc && !fanned; i++) {
		if (!names[i])
			continue;
		nxp_profile *p;
		rc = nxp_capture_open_profile(c, i, NULL, &p, st);
		if (rc)
			break;
		layout lo = { 1, names[i] };
		rc = export_tables(p, NULL, dir, &o, table_threads, &lo, 1, 0, &counts, st);
		nxp_profile_close(p);
	}
	if (!rc)
		report_counts(&o, &counts);
	for (size_t i = 0; i < np; i++)
		free(names[i]);
	free(names);
	nxp_capture_close(c);
	return rc;
}
