/* SPDX-License-Identifier: MIT */
/* Column-wise read of the Instruction table vs OTF2 3.0's reader, same events,
 * same run (issue 13 §5).
 *
 *   bench_columnar [--instructions N] [--dir DIR] [--reps R] [--keep]
 *   bench_columnar --neff F --ntff F [--dir DIR] [--reps R]
 *   bench_columnar --neff F --ntff F --tables T,... [--reps R] [--columns C,...]
 *   bench_columnar [--neff F --ntff F] --export DIR [--threads N] [--reps R]
 *
 * --export: the whole default export (Parquet, ZSTD) into DIR, overwriting;
 * per task (table; the summary tables share one) its CPU seconds on its
 * thread's clock and the thread it ran on, then the process's CPU and wall
 * time and NTFF MB per CPU second (best of R by process CPU).
 *
 * --tables: each table's pass alone (no Parquet): the Arrow stream drained,
 * every column (or --columns) of every batch, CPU seconds of this process
 * (user+sys, CLOCK_PROCESS_CPUTIME_ID, best of R, stream open included),
 * NTFF MB per CPU second; then one more run hashes every batch's buffers
 * (lengths, nulls, validity bits, values, dictionaries; not timed): equal
 * hashes = the same batches, so two builds' outputs can be compared without
 * Parquet.
 *
 * 1. A synthetic trace (mlp, trn2, LNC 2, seed 1; N instructions, default
 *    4 M ~ 700 MB of NTFF) unless --neff/--ntff name one.
 * 2. libnxp, columnar: nxp_profile_open_table("Instruction") projected to four
 *    int64 columns (start_ts, duration_ns, pc, evt_wait_time_ns), every value
 *    summed; and the whole table (every column, with the NEFF join) for reference.
 * 3. libnxp, records: nxp_cursor_next_batch of nxp_instruction, the same sums.
 * 4. OTF2: the same instructions written with OTF2's writer as Enter/Leave
 *    pairs (one location per physical core x engine, one region per opcode,
 *    the trace's timestamps made monotonic per location), then read back with
 *    OTF2's global event reader (time-ordered merge across locations, as
 *    libnxp's cursors merge queues) and callbacks that sum the durations.
 * Rates are instructions per second (one instruction = one row = one
 * Enter/Leave pair = two OTF2 events); each figure is the best of R runs
 * (default 3) with the files in the page cache.  The ratios are measured in
 * this run; nothing is compared with recorded numbers. */
#include "synth.h"

#include <nxp/nxp.h>
#include <otf2/otf2.h>

#include "columnar_priv.h" /* nxp__profile_export_parquet_timed (--export) */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "bench_columnar: %s: %s\n", what, msg);
	exit(1);
}

static long long fsize(const char *p)
{
	struct stat sb;
	return stat(p, &sb) ? -1 : (long long)sb.st_size;
}

static long long dir_size(const char *dir)
{
	char cmd[4500];
	snprintf(cmd, sizeof(cmd), "du -sb '%s' 2>/dev/null", dir);
	FILE *f = popen(cmd, "r");
	long long v = -1;
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		pclose(f);
	}
	return v;
}

/* ---- libnxp columnar ---- */
typedef struct sums {
	uint64_t rows;
	int64_t s[4];
} sums;

static const char *const four_cols[] = { "start_ts", "duration_ns", "pc", "evt_wait_time_ns", NULL };

static sums read_columnar(nxp_profile *p, const char *const *cols, int64_t batch_rows)
{
	sums r;
	memset(&r, 0, sizeof(r));
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.columns = cols;
	o.batch_rows = batch_rows;
	struct ArrowArrayStream s;
	nxp_status st;
	if (nxp_profile_open_table(&s, p, "Instruction", &o, &st) < 0)
		die("nxp_profile_open_table", st.message);
	for (;;) {
		struct ArrowArray a;
		int rc = s.get_next(&s, &a);
		if (rc) {
			const char *e = s.get_last_error(&s);
			die("get_next", e ? e : strerror(rc));
		}
		if (!a.release)
			break;
		int nc = cols ? (int)a.n_children : 0;
		for (int c = 0; c < nc && c < 4; c++) {
			const struct ArrowArray *ch = a.children[c];
			const int64_t *v = (const int64_t *)ch->buffers[1] + ch->offset;
			int64_t acc = 0;
			for (int64_t i = 0; i < ch->length; i++)
				acc += v[i];
			r.s[c] += acc;
		}
		r.rows += (uint64_t)a.length;
		a.release(&a);
	}
	s.release(&s);
	return r;
}

static sums read_records(nxp_profile *p)
{
	sums r;
	memset(&r, 0, sizeof(r));
	nxp_cursor *c;
	nxp_status st;
	if (nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, &st) < 0)
		die("nxp_cursor_open", st.message);
	enum { B = 4096 };
	static nxp_instruction buf[B];
	for (;;) {
		size_t n = 0;
		int rc = nxp_cursor_next_batch(c, buf, sizeof(buf[0]), B, &n);
		for (size_t i = 0; i < n; i++) {
			r.s[0] += buf[i].start_ts;
			r.s[1] += buf[i].duration_ns;
			r.s[2] += buf[i].pc;
			r.s[3] += buf[i].evt_wait_time_ns;
		}
		r.rows += n;
		if (rc == NXP_END)
			break;
		if (rc < 0) {
			nxp_cursor_error(c, &st);
			die("nxp_cursor_next_batch", st.message);
		}
	}
	nxp_cursor_close(c);
	return r;
}

/* ---- one table's pass alone (--tables) ---- */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t hash_bits(uint64_t h, const uint8_t *bits, int64_t off, int64_t n)
{
	for (int64_t i = 0; i < n; i++) {
		uint8_t v = bits ? (uint8_t)((bits[(off + i) / 8] >> ((off + i) % 8)) & 1) : 1;
		h = fnv(h, &v, 1);
	}
	return h;
}

/* Buffers of one column as its schema `fmt` says. */
static uint64_t hash_array(uint64_t h, const struct ArrowArray *a, const char *fmt, int dict)
{
	h = fnv(h, &a->length, 8);
	h = fnv(h, &a->null_count, 8);
	if (a->null_count)
		h = hash_bits(h, a->buffers[0], a->offset, a->length);
	if (!strcmp(fmt, "b")) {
		h = hash_bits(h, a->buffers[1], a->offset, a->length);
	} else if (!strcmp(fmt, "u")) {
		const int32_t *o = (const int32_t *)a->buffers[1] + a->offset;
		for (int64_t i = 0; i < a->length; i++) {
			int32_t len = o[i + 1] - o[i];
			h = fnv(h, &len, 4);
			h = fnv(h, (const char *)a->buffers[2] + o[i], (size_t)len);
		}
	} else {
		size_t es = !strcmp(fmt, "i") ? 4 : 8;
		h = fnv(h, (const uint8_t *)a->buffers[1] + es * (size_t)a->offset, es * (size_t)a->length);
	}
	if (dict && a->dictionary)
		h = hash_array(h, a->dictionary, "u", 0);
	return h;
}

static int split_list(char *s, const char **out, int max)
{
	int n = 0;
	for (char *t = strtok(s, ","); t && n < max - 1; t = strtok(NULL, ","))
		out[n++] = t;
	out[n] = NULL;
	return n;
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --export: nxp_profile_export_parquet into DIR (default tables, ZSTD,
 * overwriting), reps times; the best run's CPU per task (its thread's clock),
 * the thread it ran on, and the process's CPU and wall for the whole export. */
static int run_export(nxp_profile *p, long long ntff_bytes, const char *dir, int threads, int reps)
{
	nxp__export_timing best_tm = { 0 };
	double best_cpu = 1e30, best_wall = 1e30;
	for (int r = 0; r < reps; r++) {
		nxp_export_options o;
		nxp_export_options_init(&o);
		o.overwrite = 1;
		o.threads = threads;
		nxp__export_timing tm;
		nxp_status st;
		double c0 = cpu_now(), w0 = now();
		if (nxp__profile_export_parquet_timed(p, dir, &o, &tm, &st) < 0)
			die("nxp_profile_export_parquet", st.message);
		double c = cpu_now() - c0, w = now() - w0;
		if (c < best_cpu)
			best_cpu = c, best_wall = w, best_tm = tm;
	}
	double sum = 0;
	printf("export to %s, --threads %d, best of %d by process CPU:\n", dir, threads, reps);
	printf("  %-18s %9s %7s %7s\n", "task", "CPU s", "share", "thread");
	for (int i = 0; i < best_tm.n; i++)
		sum += best_tm.cpu_s[i];
	for (int i = 0; i < best_tm.n; i++)
		printf("  %-18s %9.3f %6.1f%% %7d\n", best_tm.table[i], best_tm.cpu_s[i],
		       sum > 0 ? 100.0 * best_tm.cpu_s[i] / sum : 0.0, best_tm.thread[i]);
	printf("  tasks %.3f s CPU; process %.3f s CPU (%.0f MB/s per CPU s), %.3f s wall (%.0f MB/s)\n", sum,
	       best_cpu, (double)ntff_bytes / 1e6 / best_cpu, best_wall, (double)ntff_bytes / 1e6 / best_wall);
	return 0;
}

static int run_tables(nxp_profile *p, long long ntff_bytes, char *tables, char *columns, int reps)
{
	const char *tv[64], *cv[256];
	int nt = split_list(tables, tv, 64);
	if (columns)
		split_list(columns, cv, 256);
	printf("%-18s %10s %9s %9s  %s\n", "table", "rows", "CPU s", "MB/CPU s", "batch hash");
	for (int t = 0; t < nt; t++) {
		double best = 1e30;
		uint64_t h = 0, rows = 0;
		/* reps timed runs without the hash, then one run that hashes */
		for (int r = 0; r <= reps; r++) {
			int hashing = r == reps;
			double c0 = cpu_now();
			nxp_table_options o;
			nxp_table_options_init(&o);
			o.columns = columns ? cv : NULL;
			struct ArrowArrayStream s;
			struct ArrowSchema sc;
			nxp_status st;
			if (nxp_profile_open_table(&s, p, tv[t], &o, &st) < 0)
				die(tv[t], st.message);
			if (s.get_schema(&s, &sc))
				die(tv[t], "get_schema");
			h = 1469598103934665603ULL;
			rows = 0;
			for (;;) {
				struct ArrowArray a;
				int rc = s.get_next(&s, &a);
				if (rc) {
					const char *e = s.get_last_error(&s);
					die(tv[t], e ? e : strerror(rc));
				}
				if (!a.release)
					break;
				for (int64_t c = 0; c < a.n_children && hashing; c++)
					h = hash_array(h, a.children[c], sc.children[c]->format,
						       sc.children[c]->dictionary != NULL);
				rows += (uint64_t)a.length;
				a.release(&a);
			}
			sc.release(&sc);
			s.release(&s);
			double c = cpu_now() - c0;
			if (!hashing)
				best = c < best ? c : best;
		}
		printf("%-18s %10" PRIu64 " %9.3f %9.1f  %016" PRIx64 "\n", tv[t], rows, best,
		       (double)ntff_bytes / 1e6 / best, h);
	}
	return 0;
}

/* ---- the events for OTF2, taken from the same table ---- */
typedef struct events {
	uint64_t n;
	uint8_t *loc;
	uint32_t *region;
	uint64_t *enter, *leave;
	uint64_t per_loc[16];
	uint32_t n_regions;
	int64_t duration_sum;
} events;

static void load_events(nxp_profile *p, events *ev, uint64_t n)
{
	static const char *const cols[] = { "start_ts", "end_ts", "pcore_idx", "engine_id", "opcode_num", NULL };
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.columns = cols;
	struct ArrowArrayStream s;
	nxp_status st;
	if (nxp_profile_open_table(&s, p, "Instruction", &o, &st) < 0)
		die("nxp_profile_open_table", st.message);
	memset(ev, 0, sizeof(*ev));
	ev->loc = malloc(n);
	ev->region = malloc(n * sizeof(uint32_t));
	ev->enter = malloc(n * sizeof(uint64_t));
	ev->leave = malloc(n * sizeof(uint64_t));
	if (!ev->loc || !ev->region || !ev->enter || !ev->leave)
		die("malloc", "events");
	uint64_t last_leave[16] = { 0 };
	uint64_t k = 0;
	for (;;) {
		struct ArrowArray a;
		if (s.get_next(&s, &a))
			die("get_next", s.get_last_error(&s));
		if (!a.release)
			break;
		const int64_t *ts = (const int64_t *)a.children[0]->buffers[1] + a.children[0]->offset;
		const int64_t *te = (const int64_t *)a.children[1]->buffers[1] + a.children[1]->offset;
		const int64_t *pc = (const int64_t *)a.children[2]->buffers[1] + a.children[2]->offset;
		const int32_t *en = (const int32_t *)a.children[3]->buffers[1] + a.children[3]->offset;
		const int64_t *op = (const int64_t *)a.children[4]->buffers[1] + a.children[4]->offset;
		for (int64_t i = 0; i < a.length && k < n; i++, k++) {
			int loc = (int)((pc[i] & 1) * NXP_ENGINE_COUNT + en[i]) & 15;
			uint64_t e = (uint64_t)ts[i] > last_leave[loc] ? (uint64_t)ts[i] : last_leave[loc];
			uint64_t l = (uint64_t)te[i] > e ? (uint64_t)te[i] : e;
			last_leave[loc] = l;
			ev->loc[k] = (uint8_t)loc;
			ev->region[k] = (uint32_t)op[i] & 1023;
			if (ev->region[k] + 1 > ev->n_regions)
				ev->n_regions = ev->region[k] + 1;
			ev->enter[k] = e;
			ev->leave[k] = l;
			ev->per_loc[loc]++;
			ev->duration_sum += (int64_t)(l - e);
		}
		a.release(&a);
	}
	s.release(&s);
	ev->n = k;
}

/* ---- OTF2 writer ---- */
static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *cb, bool final)
{
	(void)u, (void)ft, (void)l, (void)cb, (void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
	(void)u, (void)ft, (void)l;
	return 0;
}

static OTF2_FlushCallbacks flush_cbs = { .otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush };

static void ck(OTF2_ErrorCode e, const char *what)
{
	if (e != OTF2_SUCCESS)
		die(what, OTF2_Error_GetDescription(e));
}

static void write_otf2(const char *dir, const events *ev)
{
	OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
					     OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!ar)
		die("OTF2_Archive_Open", dir);
	ck(OTF2_Archive_SetFlushCallbacks(ar, &flush_cbs, NULL), "SetFlushCallbacks");
	ck(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "SetSerialCollectiveCallbacks");
	ck(OTF2_Archive_OpenEvtFiles(ar), "OpenEvtFiles");
	OTF2_EvtWriter *w[16] = { 0 };
	for (uint64_t i = 0; i < ev->n; i++) {
		int l = ev->loc[i];
		if (!w[l])
			w[l] = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)l);
		ck(OTF2_EvtWriter_Enter(w[l], NULL, ev->enter[i], ev->region[i]), "Enter");
		ck(OTF2_EvtWriter_Leave(w[l], NULL, ev->leave[i], ev->region[i]), "Leave");
	}
	for (int l = 0; l < 16; l++)
		if (w[l])
			ck(OTF2_Archive_CloseEvtWriter(ar, w[l]), "CloseEvtWriter");
	ck(OTF2_Archive_CloseEvtFiles(ar), "CloseEvtFiles");
	ck(OTF2_Archive_OpenDefFiles(ar), "OpenDefFiles");
	for (int l = 0; l < 16; l++)
		if (ev->per_loc[l]) {
			OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)l);
			ck(OTF2_Archive_CloseDefWriter(ar, d), "CloseDefWriter");
		}
	ck(OTF2_Archive_CloseDefFiles(ar), "CloseDefFiles");
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
	uint64_t t0 = ev->n ? ev->enter[0] : 0, t1 = 0;
	for (uint64_t i = 0; i < ev->n; i++)
		t1 = ev->leave[i] > t1 ? ev->leave[i] : t1;
	ck(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, t0, t1 - t0 + 1, OTF2_UNDEFINED_TIMESTAMP),
	   "ClockProperties");
	uint32_t sid = 0;
	ck(OTF2_GlobalDefWriter_WriteString(g, sid++, ""), "String");
	ck(OTF2_GlobalDefWriter_WriteString(g, sid++, "neuroncore"), "String");
	ck(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE), "SystemTreeNode");
	ck(OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						    OTF2_UNDEFINED_LOCATION_GROUP), "LocationGroup");
	for (uint32_t r = 0; r < ev->n_regions; r++) {
		char name[32];
		snprintf(name, sizeof(name), "opcode_%u", r);
		ck(OTF2_GlobalDefWriter_WriteString(g, sid, name), "String");
		ck(OTF2_GlobalDefWriter_WriteRegion(g, r, sid, sid, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
						    OTF2_REGION_FLAG_NONE, 0, 0, 0), "Region");
		sid++;
	}
	for (int l = 0; l < 16; l++)
		if (ev->per_loc[l]) {
			char name[32];
			snprintf(name, sizeof(name), "pcore%d.engine%d", l / NXP_ENGINE_COUNT, l % NXP_ENGINE_COUNT);
			ck(OTF2_GlobalDefWriter_WriteString(g, sid, name), "String");
			ck(OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)l, sid, OTF2_LOCATION_TYPE_CPU_THREAD,
							      2 * ev->per_loc[l], 0), "Location");
			sid++;
		}
	ck(OTF2_Archive_Close(ar), "Archive_Close");
}

/* ---- OTF2 reader ---- */
typedef struct otf2_acc {
	uint64_t enters, leaves;
	uint64_t open_ts[16];
	int64_t duration_sum;
	OTF2_Reader *r;
	uint64_t locs[16];
	int nlocs;
} otf2_acc;

static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType t,
				     uint64_t nev, OTF2_LocationGroupRef g)
{
	(void)name, (void)t, (void)nev, (void)g;
	otf2_acc *a = u;
	if (a->nlocs < 16)
		a->locs[a->nlocs++] = self;
	return OTF2_Reader_SelectLocation(a->r, self) == OTF2_SUCCESS ? OTF2_CALLBACK_SUCCESS
								       : OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
				  OTF2_RegionRef region)
{
	(void)al, (void)region;
	otf2_acc *a = u;
	a->open_ts[loc & 15] = t;
	a->enters++;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
				  OTF2_RegionRef region)
{
	(void)al, (void)region;
	otf2_acc *a = u;
	a->duration_sum += (int64_t)(t - a->open_ts[loc & 15]);
	a->leaves++;
	return OTF2_CALLBACK_SUCCESS;
}

static otf2_acc read_otf2(const char *anchor)
{
	otf2_acc a;
	memset(&a, 0, sizeof(a));
	OTF2_Reader *r = OTF2_Reader_Open(anchor);
	if (!r)
		die("OTF2_Reader_Open", anchor);
	a.r = r;
	ck(OTF2_Reader_SetSerialCollectiveCallbacks(r), "Reader_SetSerialCollectiveCallbacks");
	OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(r);
	OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, on_location);
	ck(OTF2_Reader_RegisterGlobalDefCallbacks(r, gd, gcb, &a), "RegisterGlobalDefCallbacks");
	OTF2_GlobalDefReaderCallbacks_Delete(gcb);
	uint64_t ndefs = 0;
	ck(OTF2_Reader_ReadAllGlobalDefinitions(r, gd, &ndefs), "ReadAllGlobalDefinitions");
	ck(OTF2_Reader_CloseGlobalDefReader(r, gd), "CloseGlobalDefReader");
	uint64_t nloc = 0;
	ck(OTF2_Reader_GetNumberOfLocations(r, &nloc), "GetNumberOfLocations");
	ck(OTF2_Reader_OpenDefFiles(r), "OpenDefFiles");
	ck(OTF2_Reader_OpenEvtFiles(r), "OpenEvtFiles");
	for (int i = 0; i < a.nlocs; i++) {
		OTF2_DefReader *d = OTF2_Reader_GetDefReader(r, a.locs[i]);
		if (d) {
			uint64_t nd = 0;
			OTF2_Reader_ReadAllLocalDefinitions(r, d, &nd);
			OTF2_Reader_CloseDefReader(r, d);
		}
		if (!OTF2_Reader_GetEvtReader(r, a.locs[i]))
			die("OTF2_Reader_GetEvtReader", "NULL");
	}
	ck(OTF2_Reader_CloseDefFiles(r), "CloseDefFiles");
	OTF2_GlobalEvtReader *ge = OTF2_Reader_GetGlobalEvtReader(r);
	OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
	OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, on_enter);
	OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, on_leave);
	ck(OTF2_Reader_RegisterGlobalEvtCallbacks(r, ge, ecb, &a), "RegisterGlobalEvtCallbacks");
	OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
	uint64_t nev = 0;
	ck(OTF2_Reader_ReadAllGlobalEvents(r, ge, &nev), "ReadAllGlobalEvents");
	ck(OTF2_Reader_CloseGlobalEvtReader(r, ge), "CloseGlobalEvtReader");
	ck(OTF2_Reader_CloseEvtFiles(r), "CloseEvtFiles");
	ck(OTF2_Reader_Close(r), "Reader_Close");
	return a;
}

int main(int argc, char **argv)
{
	uint64_t instructions = 4000000;
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const char *neff = NULL, *ntff = NULL;
	int reps = 3, keep = 0;
	char *tables = NULL, *columns = NULL;
	const char *export_dir = NULL;
	int threads = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--instructions") && v)
			instructions = strtoull(v, NULL, 10), i++;
		else if (!strcmp(a, "--dir") && v)
			dir = v, i++;
		else if (!strcmp(a, "--reps") && v)
			reps = atoi(v), i++;
		else if (!strcmp(a, "--neff") && v)
			neff = v, i++;
		else if (!strcmp(a, "--ntff") && v)
			ntff = v, i++;
		else if (!strcmp(a, "--tables") && v)
			tables = argv[++i];
		else if (!strcmp(a, "--columns") && v)
			columns = argv[++i];
		else if (!strcmp(a, "--export") && v)
			export_dir = argv[++i];
		else if (!strcmp(a, "--threads") && v)
			threads = atoi(v), i++;
		else if (!strcmp(a, "--keep"))
			keep = 1;
		else {
			fprintf(stderr, "usage: bench_columnar [--instructions N] [--dir DIR] [--reps R] [--keep]\n"
					"       bench_columnar --neff F --ntff F [--dir DIR] [--reps R]\n"
					"       bench_columnar --neff F --ntff F --tables T,... [--columns C,...] [--reps R]\n"
					"       bench_columnar [--neff F --ntff F] --export DIR [--threads N] [--reps R]\n");
			return 2;
		}
	}
	if (reps < 1)
		reps = 1;
	char prefix[4096], pneff[4200], pntff[4200], odir[4200], anchor[4300];
	snprintf(prefix, sizeof(prefix), "%s/bench_columnar_%d", dir, (int)getpid());
	snprintf(odir, sizeof(odir), "%s.otf2", prefix);
	snprintf(anchor, sizeof(anchor), "%s/traces.otf2", odir);
	int generated = 0;
	if (!neff || !ntff) {
		synth_params p;
		synth_params_init(&p);
		p.workload = "mlp";
		p.arch = "trn2";
		p.lnc = 2;
		p.seed = 1;
		p.instructions = instructions;
		synth_result res;
		nxp_status st;
		double t0 = now();
		if (synth_run(&p, prefix, &res, &st) < 0)
			die("synth", st.message);
		snprintf(pneff, sizeof(pneff), "%s.neff", prefix);
		snprintf(pntff, sizeof(pntff), "%s.ntff", prefix);
		neff = pneff, ntff = pntff, generated = 1;
		printf("trace: mlp trn2 LNC 2, %" PRIu64 " instructions, %" PRIu64 " DMA packets, %.0f MB NTFF "
		       "(generated in %.1f s)\n", res.instructions, res.dma_packets, (double)fsize(ntff) / 1e6,
		       now() - t0);
	} else {
		printf("trace: %s (%.0f MB)\n", ntff, (double)fsize(ntff) / 1e6);
	}
	nxp_profile *p;
	nxp_status st;
	if (nxp_profile_open_path(&p, neff, ntff, NULL, &st) < 0)
		die("nxp_profile_open_path", st.message);
	if (tables || export_dir) {
		int rc = tables ? run_tables(p, fsize(ntff), tables, columns, reps)
				: run_export(p, fsize(ntff), export_dir, threads, reps);
		nxp_profile_close(p);
		if (generated && !keep) {
			unlink(pneff);
			unlink(pntff);
		}
		return rc;
	}

	double best_col = 1e30, best_all = 1e30, best_rec = 1e30, best_otf2 = 1e30;
	sums col = { 0 }, rec = { 0 }, all = { 0 };
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		col = read_columnar(p, four_cols, 0);
		double t1 = now();
		rec = read_records(p);
		double t2 = now();
		all = read_columnar(p, NULL, 0);
		double t3 = now();
		best_col = t1 - t0 < best_col ? t1 - t0 : best_col;
		best_rec = t2 - t1 < best_rec ? t2 - t1 : best_rec;
		best_all = t3 - t2 < best_all ? t3 - t2 : best_all;
	}
	if (col.rows != rec.rows || all.rows != rec.rows || memcmp(col.s, rec.s, sizeof(col.s)))
		die("check", "columnar and record sums differ");
	uint64_t n = col.rows;

	events ev;
	load_events(p, &ev, n);
	double tw = now();
	write_otf2(odir, &ev);
	tw = now() - tw;
	otf2_acc oa = { 0 };
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		oa = read_otf2(anchor);
		double t = now() - t0;
		best_otf2 = t < best_otf2 ? t : best_otf2;
	}
	if (oa.enters != n || oa.leaves != n || oa.duration_sum != ev.duration_sum)
		die("check", "OTF2 read back a different number of events or durations");

	int nloc = 0;
	for (int l = 0; l < 16; l++)
		nloc += ev.per_loc[l] != 0;
	printf("instructions: %" PRIu64 " (= %" PRIu64 " OTF2 Enter/Leave pairs on %d locations, %u regions; "
	       "OTF2 archive %.0f MB, written in %.2f s)\n", n, n, nloc, ev.n_regions, (double)dir_size(odir) / 1e6,
	       tw);
	printf("best of %d, page cache hot:\n", reps);
	printf("  %-52s %8.3f s  %7.1f M instructions/s\n", "libnxp columnar, 4 int64 columns (projection)", best_col,
	       (double)n / best_col / 1e6);
	printf("  %-52s %8.3f s  %7.1f M instructions/s\n", "libnxp columnar, every column (NEFF join)", best_all,
	       (double)n / best_all / 1e6);
	printf("  %-52s %8.3f s  %7.1f M instructions/s\n", "libnxp records (nxp_cursor_next_batch)", best_rec,
	       (double)n / best_rec / 1e6);
	printf("  %-52s %8.3f s  %7.1f M instructions/s (%.1f M OTF2 events/s)\n",
	       "OTF2 3.0 global event reader, Enter+Leave callbacks", best_otf2, (double)n / best_otf2 / 1e6,
	       2.0 * (double)n / best_otf2 / 1e6);
	printf("ratios (same run): columnar/OTF2 %.2fx per instruction (%.2fx per OTF2 event), "
	       "records/OTF2 %.2fx, columnar/records %.2fx\n",
	       best_otf2 / best_col, best_otf2 / best_col / 2.0, best_otf2 / best_rec, best_rec / best_col);

	nxp_profile_close(p);
	free(ev.loc), free(ev.region), free(ev.enter), free(ev.leave);
	char cmd[4500];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", odir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_columnar: could not remove %s\n", odir);
	if (generated && !keep) {
		unlink(pneff);
		unlink(pntff);
	} else if (generated) {
		printf("kept %s and %s\n", pneff, pntff);
	}
	return 0;
}
