/* SPDX-License-Identifier: MIT */
/* nxp_parquet_write throughput: N rows (default 20 M) of four int64 columns
 * (start, duration, address, bytes) and a dictionary<int32, utf8> engine column,
 * in 65536-row batches, written with ZSTD level 1 and 3, GZIP and none.
 * Prints MB/s of Arrow input (36 bytes a row), rows/s and the file size.
 *   bench_parquet [--rows N] [--dir DIR] [--only zstd-1|zstd-3|gzip-6|none] */
#include <nxp/nxp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCH 65536
#define NDISTINCT 16 /* distinct batches, reused round-robin (no generation in the timing) */

static int64_t *cols[NDISTINCT][4];
static int32_t *eng[NDISTINCT];
static const char dict_data[] = "PEACTPOOLDVESPQSYNC";
static const int32_t dict_off[] = {0, 2, 5, 9, 12, 14, 19};

typedef struct bstream {
	int64_t rows, done;
	struct ArrowArray kids[5], dict;
	const void *bufs[5][2], *dbufs[3];
	struct ArrowArray *kidp[5];
} bstream;

static void noop_array(struct ArrowArray *a) { a->release = NULL; }
static void noop_schema(struct ArrowSchema *s) { s->release = NULL; }

static struct ArrowSchema leaves[5], dict_schema, *leafp[5];
static const char *names[5] = {"start_ts", "duration", "address", "bytes", "engine"};

static int get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
	(void)s;
	for (int j = 0; j < 5; j++) {
		leaves[j] = (struct ArrowSchema){.format = j < 4 ? "l" : "i", .name = names[j], .release = noop_schema};
		leafp[j] = &leaves[j];
	}
	dict_schema = (struct ArrowSchema){.format = "u", .name = "", .release = noop_schema};
	leaves[4].dictionary = &dict_schema;
	*out = (struct ArrowSchema){.format = "+s", .name = "", .n_children = 5, .children = leafp,
				    .release = noop_schema};
	return 0;
}

static int get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
	bstream *b = s->private_data;
	memset(out, 0, sizeof(*out));
	if (b->done >= b->rows)
		return 0;
	int64_t n = b->rows - b->done < BATCH ? b->rows - b->done : BATCH;
	int k = (int)((b->done / BATCH) % NDISTINCT);
	for (int j = 0; j < 5; j++) {
		b->bufs[j][0] = NULL;
		b->bufs[j][1] = j < 4 ? (const void *)cols[k][j] : (const void *)eng[k];
		b->kids[j] = (struct ArrowArray){.length = n, .n_buffers = 2, .buffers = b->bufs[j], .release = noop_array};
		b->kidp[j] = &b->kids[j];
	}
	b->dbufs[0] = NULL, b->dbufs[1] = dict_off, b->dbufs[2] = dict_data;
	b->dict = (struct ArrowArray){.length = 6, .n_buffers = 3, .buffers = b->dbufs, .release = noop_array};
	b->kids[4].dictionary = &b->dict;
	*out = (struct ArrowArray){.length = n, .n_buffers = 1, .buffers = b->bufs[0], .n_children = 5,
				   .children = b->kidp, .release = noop_array};
	b->done += n;
	return 0;
}

static void release_stream(struct ArrowArrayStream *s) { s->release = NULL; }

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int64_t rows = 20000000;
	const char *dir = "/tmp", *only = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--rows"))
			rows = atoll(argv[i + 1]);
		else if (!strcmp(argv[i], "--dir"))
			dir = argv[i + 1];
		else if (!strcmp(argv[i], "--only"))
			only = argv[i + 1];
	}
	uint64_t x = 88172645463325252ull;
	int64_t ts = 1700000000000000000ll;
	for (int k = 0; k < NDISTINCT; k++) {
		for (int j = 0; j < 4; j++)
			cols[k][j] = malloc(BATCH * sizeof(int64_t));
		eng[k] = malloc(BATCH * sizeof(int32_t));
		for (int i = 0; i < BATCH; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			int64_t dur = 200 + (int64_t)(x % 3000);
			ts += dur / 4;
			cols[k][0][i] = ts;
			cols[k][1][i] = dur;
			cols[k][2][i] = 0x100000000ll + (int64_t)((x >> 20) % 4096) * 512;
			cols[k][3][i] = 64 << (x >> 40) % 8;
			eng[k][i] = (int32_t)((i / 64 + (int)(x >> 50) % 2) % 5);
		}
	}
	struct { const char *name; int codec, level; } runs[] = {
		{"zstd-1", NXP_PARQUET_ZSTD, 1}, {"zstd-3", NXP_PARQUET_ZSTD, 3},
		{"gzip-6", NXP_PARQUET_GZIP, 6}, {"none", NXP_PARQUET_NONE, 0},
	};
	double in_mb = (double)rows * 36 / 1e6;
	printf("bench_parquet: %lld rows x (4 int64 + dictionary<int32,utf8>), %.0f MB of Arrow input\n",
	       (long long)rows, in_mb);
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		if (only && strcmp(only, runs[r].name))
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/bench_parquet_%d.parquet", dir, (int)getpid());
		bstream b = {.rows = rows};
		struct ArrowArrayStream s = {.get_schema = get_schema, .get_next = get_next,
					     .release = release_stream, .private_data = &b};
		nxp_parquet_options o;
		nxp_parquet_options_init(&o);
		o.codec = runs[r].codec;
		o.level = runs[r].level;
		o.overwrite = 1;
		nxp_status st;
		nxp_status_init(&st);
		double t0 = now();
		if (nxp_parquet_write(path, &s, &o, &st) != NXP_OK) {
			fprintf(stderr, "bench_parquet: %s\n", st.message);
			return 1;
		}
		double dt = now() - t0;
		FILE *f = fopen(path, "rb");
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		fclose(f);
		unlink(path);
		printf("  %-7s %8.1f MB/s  %6.1f M rows/s  %8.1f MB file (%.1f%%)  %.2f s\n", runs[r].name, in_mb / dt,
		       (double)rows / dt / 1e6, (double)size / 1e6, 100.0 * (double)size / (in_mb * 1e6), dt);
	}
	for (int k = 0; k < NDISTINCT; k++) {
		for (int j = 0; j < 4; j++)
			free(cols[k][j]);
		free(eng[k]);
	}
	return 0;
}
