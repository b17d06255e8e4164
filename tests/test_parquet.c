/* SPDX-License-Identifier: MIT */
/* nxp_parquet_write: Arrow streams built by hand (every supported type, nulls,
 * empty strings, dictionaries that change per batch, several batches, non-zero
 * offsets, several row groups and pages, zero rows, each codec), error paths,
 * and the RLE/bit-packed hybrid checked against a decoder written here.
 *
 * The `readers` case writes its files and the aggregates they must give into
 * $NXP_PARQUET_OUT when that is set: tests/js/run_readers.sh then reads every
 * file with DuckDB and with hyparquet and compares (test `parquet_readers`). */
#include "testutil.h"
#include "../libnxp/parquet/parquet_priv.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* ---- datasets: column specs and values as functions of the row number g ---- */

enum { C_I32, C_I64, C_U32, C_F32, C_F64, C_BOOL, C_STR, C_DICT };
typedef struct tcol {
	const char *name;
	int kind, nullable;
} tcol;
typedef struct tval {
	int null;
	int64_t i;
	double d;
	char s[64];
} tval;

enum { DS_ALL, DS_FALLBACK, DS_PAGES, DS_EDGE };
static const tcol all_cols[] = {
	{"i32", C_I32, 1}, {"i64", C_I64, 0}, {"u32", C_U32, 0}, {"f32", C_F32, 1},
	{"f64", C_F64, 0}, {"flag", C_BOOL, 1}, {"name", C_STR, 1}, {"eng", C_DICT, 1},
};
static const tcol fallback_cols[] = {{"big", C_DICT, 0}};
static const tcol pages_cols[] = {{"ts", C_I64, 0}, {"engine", C_DICT, 0}};
static const char *const engines[] = {"PE", "ACT", "POOL", "DVE", "SP"};
/* Numbers at the edges of DELTA_BINARY_PACKED (deltas that overflow, negative
 * deltas, constants) and dictionary candidates (few distinct integers and
 * doubles), over several pages; a utf8 column too many-valued for its
 * dictionary (PLAIN after 1 MiB); an integer column whose dictionary fills
 * up inside a later page (its ids go back to values, DELTA after). */
static const tcol edge_cols[] = {
	{"x64", C_I64, 0}, {"nx", C_I64, 1}, {"x32", C_I32, 1}, {"konst", C_I64, 0},
	{"lowcard", C_U32, 0}, {"ratio", C_F64, 1}, {"ustr", C_STR, 1}, {"rnd", C_I64, 1},
	{"back", C_I64, 0}, {"grow", C_I64, 1},
};
#define EDGE_ROWS 300000
/* encodings each edge column's chunks must list (the first page decides) */
static const char *const edge_enc[] = {
	"\"DELTA_BINARY_PACKED\"", "\"DELTA_BINARY_PACKED\"", "\"DELTA_BINARY_PACKED\"", "\"RLE_DICTIONARY\"",
	"\"RLE_DICTIONARY\"", "\"RLE_DICTIONARY\"", "\"RLE_DICTIONARY\", \"PLAIN\"", "\"DELTA_BINARY_PACKED\"",
	"\"PLAIN\"", "\"RLE_DICTIONARY\", \"DELTA_BINARY_PACKED\"",
};

static const tcol *ds_cols(int ds, int *ncols)
{
	switch (ds) {
	case DS_ALL: *ncols = 8; return all_cols;
	case DS_FALLBACK: *ncols = 1; return fallback_cols;
	case DS_PAGES: *ncols = 2; return pages_cols;
	default: *ncols = 10; return edge_cols;
	}
}

static void gen(int ds, int col, int64_t g, tval *v)
{
	memset(v, 0, sizeof(*v));
	if (ds == DS_FALLBACK) {
		snprintf(v->s, sizeof(v->s), "value-%08lld-padding-padding-padding-padding", (long long)g);
		return;
	}
	if (ds == DS_EDGE) {
		static const int64_t few[] = {0, 4096, 65536, 3000000000ll};
		switch (col) {
		/* a pair (g even, g + 1) sums to -2g: the running sum stays in range */
		case 0: v->i = g % 2 ? INT64_MIN + g : INT64_MAX - g * 3; break;
		case 1: v->null = g % 3 == 1; v->i = g % 1000 < 500 ? g * 3 : -g * 1000003; break;
		case 2: v->null = g % 10 == 9; v->i = g % 2 ? INT32_MIN + g : INT32_MAX - g; break;
		case 3: v->i = 42; break;
		case 4: v->i = few[(g * 7 / 3) % 4]; break;
		case 5: v->null = g % 13 == 5; v->d = (double)(g % 9) * 0.25 - 1; break;
		case 9: /* 16 wide values, then ~137000 new ones: past the 131072 entries near row 293000 */
			v->null = g % 7 == 3;
			v->i = g < 140000 ? (int64_t)((uint64_t)(g % 16) * 0x9e3779b97f4a7c15ull >> 20) : g * 5 - 7;
			break;
		case 6:
			v->null = g % 101 == 0;
			snprintf(v->s, sizeof(v->s), "unique-%09lld-abcdefghijklmnopqrstuvwxyz", (long long)g);
			break;
		default: { /* 7: random 40-bit values: pages that do not compress (stored raw after the
			    * first); 8: random values that come back every 20000 rows (too many for a
			    * dictionary, no use to DELTA, repeats ZSTD finds in PLAIN) */
			uint64_t z = (uint64_t)(col == 7 ? g : g % 20000 + 1000000) * 0x9e3779b97f4a7c15ull;
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			v->null = col == 7 && g % 50 == 7;
			v->i = (int64_t)((z ^ (z >> 31)) >> 24);
			break;
		}
		}
		return;
	}
	if (ds == DS_PAGES) {
		if (col == 0)
			v->i = 1000000000000ll + g * 3;
		else
			snprintf(v->s, sizeof(v->s), "%s", engines[(g / 1000) % 5]);
		return;
	}
	switch (all_cols[col].kind) {
	case C_I32: v->null = g % 10 == 3; v->i = (g * 7) % 2001 - 1000; break;
	case C_I64: v->i = g * 1000003 - 5000000000ll; break;
	case C_U32: v->i = 4000000000ll - g; break;
	case C_F32: v->null = g % 7 == 0; v->d = (double)(g % 1000) * 0.5; break;
	case C_F64: v->d = (double)g * 0.25 - 100; break;
	case C_BOOL: v->null = g % 11 == 0; v->i = g % 3 == 0; break;
	case C_STR:
		v->null = g % 17 == 0;
		if (g % 13 != 0)
			snprintf(v->s, sizeof(v->s), "s%lld", (long long)(g % 50));
		break;
	default:
		v->null = g % 19 == 0;
		snprintf(v->s, sizeof(v->s), "%s", engines[g % 5]);
		break;
	}
}

/* ---- hand-built Arrow arrays -------------------------------------------- */

typedef struct owned {
	void *buf[3];
	int64_t nchild; /* children to free (a test may corrupt n_children) */
} owned;

static void arr_release(struct ArrowArray *a)
{
	owned *o = a->private_data;
	for (int64_t i = 0; i < o->nchild; i++) {
		if (a->children[i]->release)
			a->children[i]->release(a->children[i]);
		free(a->children[i]);
	}
	free(a->children);
	if (a->dictionary) {
		if (a->dictionary->release)
			a->dictionary->release(a->dictionary);
		free(a->dictionary);
	}
	for (int i = 0; i < 3; i++)
		free(o->buf[i]);
	free(o);
	free(a->buffers);
	a->release = NULL;
}

static struct ArrowArray *new_array(int64_t len, int64_t off, int64_t nulls, int nbuf, void *b0, void *b1,
				    void *b2)
{
	struct ArrowArray *a = calloc(1, sizeof(*a));
	owned *o = calloc(1, sizeof(*o));
	a->length = len;
	a->offset = off;
	a->null_count = nulls;
	a->n_buffers = nbuf;
	a->buffers = calloc(3, sizeof(void *));
	o->buf[0] = b0, o->buf[1] = b1, o->buf[2] = b2;
	for (int i = 0; i < nbuf; i++)
		a->buffers[i] = o->buf[i];
	a->private_data = o;
	a->release = arr_release;
	return a;
}

static void set_bit(uint8_t *b, int64_t i, int v)
{
	if (v)
		b[i >> 3] |= (uint8_t)(1u << (i & 7));
	else
		b[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

/* Column `col` of dataset ds for rows g0..g0+len, stored from physical index
 * `lead` (the leading slots hold junk), with offset child_off. */
static struct ArrowArray *build_column(int ds, const tcol *c, int col, int64_t g0, int64_t len, int64_t child_off,
				       int64_t top_off, int rot)
{
	int64_t lead = child_off + top_off, phys = lead + len;
	uint8_t *valid = malloc((size_t)(phys / 8 + 1));
	memset(valid, 0, (size_t)(phys / 8 + 1));
	int64_t nulls = 0;
	size_t width = c->kind == C_I32 || c->kind == C_F32 || c->kind == C_DICT || c->kind == C_U32 ? 4 : 8;
	uint8_t *vals = malloc((size_t)phys * width + 8);
	memset(vals, 0x7f, (size_t)phys * width + 8); /* junk in the leading slots */
	int32_t *offs = NULL;
	char *data = NULL;
	size_t dn = 0;
	if (c->kind == C_STR) {
		offs = calloc((size_t)phys + 1, 4);
		data = malloc((size_t)len * 64 + 16);
		memcpy(data, "JUNKJUNK", 8); /* the leading slots span junk bytes */
		dn = 8;
		/* the leading slots span the junk; without any, the first offset is 8 (not 0) */
		for (int64_t p = 0; p <= lead; p++)
			offs[p] = (int32_t)(lead ? p * 8 / lead : 8);
	}
	if (c->kind == C_BOOL) {
		memset(vals, 0xff, (size_t)(phys / 8 + 1));
	}
	for (int64_t r = 0; r < len; r++) {
		tval v;
		gen(ds, col, g0 + r, &v);
		int64_t p = lead + r;
		set_bit(valid, p, !v.null);
		nulls += v.null;
		switch (c->kind) {
		case C_I32: ((int32_t *)vals)[p] = v.null ? 12345 : (int32_t)v.i; break;
		case C_I64: ((int64_t *)vals)[p] = v.i; break;
		case C_U32: ((uint32_t *)vals)[p] = (uint32_t)v.i; break;
		case C_F32: ((float *)vals)[p] = v.null ? -1e30f : (float)v.d; break;
		case C_F64: ((double *)vals)[p] = v.d; break;
		case C_BOOL: set_bit(vals, p, v.null ? 1 : (int)v.i); break;
		case C_STR:
			if (!v.null || r % 2) { /* a null may span bytes, per the spec */
				size_t l = v.null ? 3 : strlen(v.s);
				memcpy(data + dn, v.null ? "xyz" : v.s, l);
				dn += l;
			}
			offs[p + 1] = (int32_t)dn;
			break;
		default: {
			int32_t x = 0;
			if (ds == DS_FALLBACK) {
				x = (int32_t)(g0 + r);
			} else {
				for (int j = 0; j < 5; j++)
					if (!strcmp(v.s, engines[(j + rot) % 5]))
						x = j;
			}
			((int32_t *)vals)[p] = v.null ? 999 : x; /* a null's index may be out of range */
			break;
		}
		}
	}
	int nullable_buffer = c->nullable && nulls > 0;
	if (!nullable_buffer) {
		free(valid);
		valid = NULL;
	}
	struct ArrowArray *a;
	if (c->kind == C_STR)
		a = new_array(phys - child_off, child_off, nulls, 3, valid, offs, data), free(vals);
	else
		a = new_array(phys - child_off, child_off, nullable_buffer ? -1 : 0, 2, valid, vals, NULL);
	if (c->kind == C_DICT) {
		/* The dictionary: rotated per batch, plus an entry no row uses. */
		int64_t nd = ds == DS_FALLBACK ? g0 + len : 6;
		int32_t *doff = calloc((size_t)nd + 2, 4);
		char *dd = malloc((size_t)nd * 64 + 16);
		size_t k = 0;
		for (int64_t j = 0; j < nd; j++) {
			tval v;
			if (ds == DS_FALLBACK)
				gen(ds, 0, j, &v);
			else
				snprintf(v.s, sizeof(v.s), "%s", j < 5 ? engines[(j + rot) % 5] : "ZZZ_UNUSED");
			memcpy(dd + k, v.s, strlen(v.s));
			k += strlen(v.s);
			doff[j + 1] = (int32_t)k;
		}
		a->dictionary = new_array(nd, 0, 0, 3, NULL, doff, dd);
	}
	return a;
}

typedef struct tbatch_spec {
	int64_t len, child_off, top_off;
} tbatch_spec;

typedef struct tstream {
	int ds, ncols;
	const tcol *cols;
	struct ArrowArray batches[64];
	int nb, next;
	int fail_at;       /* get_next fails (EIO) at this batch; -1 none */
	int fail_schema;
	const char *bad_format; /* replaces column 0's format */
} tstream;

static void schema_release(struct ArrowSchema *s)
{
	for (int64_t i = 0; i < s->n_children; i++) {
		struct ArrowSchema *c = s->children[i];
		if (c->dictionary) {
			free(c->dictionary);
		}
		free(c);
	}
	free(s->children);
	s->release = NULL;
}

static void leaf_release(struct ArrowSchema *s)
{
	s->release = NULL;
}

static int ts_get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
	tstream *t = st->private_data;
	if (t->fail_schema)
		return EIO;
	memset(out, 0, sizeof(*out));
	out->format = "+s";
	out->name = "";
	out->n_children = t->ncols;
	out->children = calloc((size_t)t->ncols, sizeof(void *));
	for (int j = 0; j < t->ncols; j++) {
		struct ArrowSchema *c = calloc(1, sizeof(*c));
		static const char *fmt[] = {"i", "l", "I", "f", "g", "b", "u", "i"};
		c->format = j == 0 && t->bad_format ? t->bad_format : fmt[t->cols[j].kind];
		c->name = t->cols[j].name;
		c->flags = t->cols[j].nullable ? ARROW_FLAG_NULLABLE : 0;
		c->release = leaf_release;
		if (t->cols[j].kind == C_DICT) {
			c->dictionary = calloc(1, sizeof(*c->dictionary));
			c->dictionary->format = "u";
			c->dictionary->release = leaf_release;
		}
		out->children[j] = c;
	}
	out->release = schema_release;
	return 0;
}

static int ts_get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
	tstream *t = st->private_data;
	if (t->next == t->fail_at)
		return EIO;
	if (t->next >= t->nb) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	*out = t->batches[t->next];
	t->batches[t->next++].release = NULL;
	return 0;
}

static const char *ts_last_error(struct ArrowArrayStream *st)
{
	(void)st;
	return "injected read failure";
}

static void ts_release(struct ArrowArrayStream *st)
{
	tstream *t = st->private_data;
	for (int i = 0; i < t->nb; i++)
		if (t->batches[i].release)
			t->batches[i].release(&t->batches[i]);
	free(t);
	st->release = NULL;
}

/* A stream over dataset ds with the given batches (rows numbered on). */
static void make_stream(struct ArrowArrayStream *s, int ds, const tbatch_spec *b, int nb)
{
	tstream *t = calloc(1, sizeof(*t));
	t->ds = ds;
	t->fail_at = -1;
	t->cols = ds_cols(ds, &t->ncols);
	int64_t g = 0;
	for (int i = 0; i < nb; i++) {
		struct ArrowArray *top = new_array(b[i].len, b[i].top_off, 0, 1, NULL, NULL, NULL);
		top->n_children = t->ncols;
		top->children = calloc((size_t)t->ncols, sizeof(void *));
		((owned *)top->private_data)->nchild = t->ncols;
		for (int j = 0; j < t->ncols; j++)
			top->children[j] = build_column(ds, &t->cols[j], j, g, b[i].len, b[i].child_off, b[i].top_off, i);
		t->batches[i] = *top;
		free(top);
		g += b[i].len;
	}
	t->nb = nb;
	memset(s, 0, sizeof(*s));
	s->get_schema = ts_get_schema;
	s->get_next = ts_get_next;
	s->get_last_error = ts_last_error;
	s->release = ts_release;
	s->private_data = t;
}

static const tbatch_spec all_batches[] = {{7000, 0, 0}, {1, 0, 0}, {0, 0, 0}, {12999, 5, 3}, {10000, 2, 0}};
#define ALL_ROWS 30000

static tstream *priv(struct ArrowArrayStream *s)
{
	return s->private_data;
}

/* ---- checks on the bytes -------------------------------------------------- */

static void check_par1(const char *path)
{
	size_t n;
	uint8_t *b = tu_read_file(path, &n);
	ck_assert_uint_ge(n, 12);
	ck_assert_mem_eq(b, "PAR1", 4);
	ck_assert_mem_eq(b + n - 4, "PAR1", 4);
	uint32_t flen;
	memcpy(&flen, b + n - 8, 4);
	ck_assert_uint_lt(flen, n - 8);
	free(b);
}

static int count_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strstr(e->d_name, ".tmp-") != NULL;
	closedir(d);
	return n;
}

static void rm_rf(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *p = tu_path(dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

static int write_ds(const char *path, int ds, const tbatch_spec *b, int nb, const nxp_parquet_options *o,
		    nxp_status *st)
{
	struct ArrowArrayStream s;
	make_stream(&s, ds, b, nb);
	return nxp_parquet_write(path, &s, o, st);
}

/* ---- expected aggregates for the JS readers ------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, (*s == '"' || *s == '\\') ? "\\%c" : "%c", *s);
	fputc('"', f);
}

static void json_val(FILE *f, int kind, const tval *v)
{
	if (v->null)
		fputs("null", f);
	else if (kind == C_F32 || kind == C_F64)
		fprintf(f, "%.17g", v->d);
	else if (kind == C_BOOL)
		fputs(v->i ? "true" : "false", f);
	else if (kind == C_STR || kind == C_DICT)
		json_str(f, v->s);
	else
		fprintf(f, "\"%lld\"", (long long)v->i);
}

static const char *duck_type(int kind)
{
	static const char *t[] = {"INTEGER", "BIGINT", "BIGINT", "FLOAT", "DOUBLE", "BOOLEAN", "VARCHAR", "VARCHAR"};
	return t[kind];
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void expect_file(FILE *f, int first, const char *name, int ds, int64_t rows, const char *codec,
			int min_rg, int max_rg, const int64_t *spots, int nspots)
{
	int ncols;
	const tcol *cols = ds_cols(ds, &ncols);
	fprintf(f, "%s\n  ", first ? "" : ",");
	json_str(f, name);
	fprintf(f, ": {\"rows\": %lld, \"codec\": \"%s\", \"min_row_groups\": %d, \"max_row_groups\": %d,\n",
		(long long)rows, codec, min_rg, max_rg);
	fprintf(f, "   \"kv\": {\"nxp.version\": \"%s\"%s},\n   \"columns\": [", nxp_version_string(),
		ds == DS_ALL ? ", \"nxp.schema_version\": \"7.4.0\", \"note\": \"written by test_parquet\"" : "");
	for (int j = 0; j < ncols; j++) {
		const tcol *c = &cols[j];
		int64_t nn = 0, nulls = 0, isum = 0, imin = INT64_MAX, imax = INT64_MIN, trues = 0;
		double dsum = 0, dmin = 1e300, dmax = -1e300;
		char **strs = malloc((size_t)(rows ? rows : 1) * sizeof(char *));
		for (int64_t g = 0; g < rows; g++) {
			tval v;
			gen(ds, j, g, &v);
			if (v.null) {
				nulls++;
				continue;
			}
			if (c->kind == C_STR || c->kind == C_DICT) {
				strs[nn] = strdup(v.s);
			} else {
				isum += v.i, imin = v.i < imin ? v.i : imin, imax = v.i > imax ? v.i : imax;
				dsum += v.d, dmin = v.d < dmin ? v.d : dmin, dmax = v.d > dmax ? v.d : dmax;
				trues += v.i != 0;
			}
			nn++;
		}
		fprintf(f, "%s\n    {\"name\": \"%s\", \"type\": \"%s\", \"nullable\": %s, \"count\": %lld, \"nulls\": %lld",
			j ? "," : "", c->name, duck_type(c->kind), c->nullable ? "true" : "false", (long long)nn,
			(long long)nulls);
		if (ds == DS_EDGE && max_rg == 1) /* (in smaller row groups the first pages see fewer
						   * values, and may choose otherwise) */
			fprintf(f, ", \"enc\": [%s]", edge_enc[j]);
		if (nn && (c->kind == C_STR || c->kind == C_DICT)) {
			qsort(strs, (size_t)nn, sizeof(char *), cmp_str);
			int64_t distinct = 1;
			for (int64_t i = 1; i < nn; i++)
				distinct += strcmp(strs[i], strs[i - 1]) != 0;
			fprintf(f, ", \"distinct\": %lld, \"min\": ", (long long)distinct);
			json_str(f, strs[0]);
			fputs(", \"max\": ", f);
			json_str(f, strs[nn - 1]);
		} else if (nn && (c->kind == C_F32 || c->kind == C_F64)) {
			fprintf(f, ", \"sum\": %.17g, \"min\": %.17g, \"max\": %.17g", dsum, dmin, dmax);
		} else if (nn && c->kind == C_BOOL) {
			fprintf(f, ", \"trues\": %lld, \"min\": %s, \"max\": %s", (long long)trues,
				trues == nn ? "true" : "false", trues ? "true" : "false");
		} else if (nn) {
			fprintf(f, ", \"sum\": \"%lld\", \"min\": \"%lld\", \"max\": \"%lld\"", (long long)isum,
				(long long)imin, (long long)imax);
		}
		fputs("}", f);
		for (int64_t i = 0; i < (c->kind == C_STR || c->kind == C_DICT ? nn : 0); i++)
			free(strs[i]);
		free(strs);
	}
	fputs("],\n   \"spot\": [", f);
	for (int s = 0; s < nspots; s++) {
		fprintf(f, "%s{\"row\": %lld, \"values\": {", s ? ", " : "", (long long)spots[s]);
		for (int j = 0; j < ncols; j++) {
			tval v;
			gen(ds, j, spots[s], &v);
			fprintf(f, "%s\"%s\": ", j ? ", " : "", cols[j].name);
			json_val(f, cols[j].kind, &v);
		}
		fputs("}}", f);
	}
	fputs("]}", f);
}

/* ---- test cases ----------------------------------------------------------- */

START_TEST(readers)
{
	const char *out_env = getenv("NXP_PARQUET_OUT");
	char *dir = out_env ? strdup(out_env) : tu_tmpdir();
	static const char *const kv[] = {"nxp.schema_version", "7.4.0", "note", "written by test_parquet", NULL};
	static const char *codec_names[] = {"ZSTD", "GZIP", "UNCOMPRESSED"};
	static const char *file_names[] = {"all_zstd.parquet", "all_gzip.parquet", "all_none.parquet"};
	nxp_status st;
	nxp_status_init(&st);
	for (int codec = 0; codec < 3; codec++) {
		nxp_parquet_options o;
		nxp_parquet_options_init(&o);
		o.codec = codec;
		o.key_values = kv;
		char *p = tu_path(dir, file_names[codec]);
		ck_assert_int_eq(write_ds(p, DS_ALL, all_batches, 5, &o, &st), NXP_OK);
		check_par1(p);
		free(p);
	}
	nxp_parquet_options o;
	nxp_parquet_options_init(&o);
	o.key_values = kv;
	o.row_group_bytes = 64 << 10;
	char *p = tu_path(dir, "all_small_rg.parquet");
	ck_assert_int_eq(write_ds(p, DS_ALL, all_batches, 5, &o, &st), NXP_OK);
	free(p);
	o.row_group_bytes = 0;
	p = tu_path(dir, "empty.parquet");
	ck_assert_int_eq(write_ds(p, DS_ALL, NULL, 0, &o, &st), NXP_OK);
	check_par1(p);
	free(p);

	nxp_parquet_options_init(&o);
	tbatch_spec fb[] = {{25000, 0, 0}, {15000, 1, 0}};
	p = tu_path(dir, "dict_fallback.parquet");
	ck_assert_int_eq(write_ds(p, DS_FALLBACK, fb, 2, &o, &st), NXP_OK);
	free(p);
	tbatch_spec eb[] = {{1, 0, 0}, {127, 3, 0}, {128, 0, 2}, {129, 1, 1}, {EDGE_ROWS - 385, 0, 0}};
	p = tu_path(dir, "edge.parquet");
	ck_assert_int_eq(write_ds(p, DS_EDGE, eb, 5, &o, &st), NXP_OK);
	free(p);
	/* the same in row groups of 2 MiB (15 of them): what a column's chunk found
	 * (pages that do not compress, PLAIN or DELTA) carries over to the next ones
	 * and is found again every 8th chunk */
	o.row_group_bytes = 2 << 20;
	p = tu_path(dir, "edge_rg.parquet");
	ck_assert_int_eq(write_ds(p, DS_EDGE, eb, 5, &o, &st), NXP_OK);
	free(p);
	o.row_group_bytes = 0;
	tbatch_spec pg[7];
	for (int i = 0; i < 7; i++)
		pg[i] = (tbatch_spec){i < 6 ? 65536 : 6784, 0, 0};
	p = tu_path(dir, "pages.parquet");
	ck_assert_int_eq(write_ds(p, DS_PAGES, pg, 7, &o, &st), NXP_OK);
	free(p);
	ck_assert_int_eq(count_tmp(dir), 0);

	char *ej = tu_path(dir, "expected.json");
	FILE *f = fopen(ej, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{", f);
	const int64_t spots[] = {0, 1, 6999, 7000, 7001, 7002, 20000, 29999};
	for (int codec = 0; codec < 3; codec++)
		expect_file(f, codec == 0, file_names[codec], DS_ALL, ALL_ROWS, codec_names[codec], 1, 1, spots, 8);
	expect_file(f, 0, "all_small_rg.parquet", DS_ALL, ALL_ROWS, "ZSTD", 3, 1000, spots, 8);
	expect_file(f, 0, "empty.parquet", DS_ALL, 0, "ZSTD", 0, 0, NULL, 0);
	const int64_t fspots[] = {0, 24999, 25000, 39999};
	expect_file(f, 0, "dict_fallback.parquet", DS_FALLBACK, 40000, "ZSTD", 1, 1, fspots, 4);
	const int64_t pspots[] = {0, 65535, 65536, 400000 - 1};
	expect_file(f, 0, "pages.parquet", DS_PAGES, 400000, "ZSTD", 1, 1, pspots, 4);
	const int64_t espots[] = {0, 1, 2, 127, 128, 129, 255, 256, 384, 385, 131071, 131072, 131073, EDGE_ROWS - 1};
	expect_file(f, 0, "edge.parquet", DS_EDGE, EDGE_ROWS, "ZSTD", 1, 1, espots, 14);
	expect_file(f, 0, "edge_rg.parquet", DS_EDGE, EDGE_ROWS, "ZSTD", 9, 1000, espots, 14);
	fputs("\n}\n", f);
	ck_assert_int_eq(fclose(f), 0);
	free(ej);
	if (!out_env)
		rm_rf(dir);
	free(dir);
}
END_TEST

START_TEST(existing_file)
{
	char *dir = tu_tmpdir();
	char *p = tu_path(dir, "t.parquet");
	ck_assert_int_eq(tu_write_file(p, "keep", 4), 0);
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(write_ds(p, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1, NULL, &st), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(st.message, "exists"));
	size_t n;
	char *b = tu_read_file(p, &n);
	ck_assert_uint_eq(n, 4);
	free(b);
	nxp_parquet_options o;
	nxp_parquet_options_init(&o);
	o.overwrite = 1;
	ck_assert_int_eq(write_ds(p, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1, &o, &st), NXP_OK);
	check_par1(p);
	ck_assert_int_eq(count_tmp(dir), 0);
	free(p);
	rm_rf(dir);
	free(dir);
}
END_TEST

START_TEST(unwritable_dir)
{
	char *dir = tu_tmpdir();
	nxp_status st;
	nxp_status_init(&st);
	/* a directory that does not exist: ENOENT */
	char *p = tu_path(dir, "missing/t.parquet");
	ck_assert_int_eq(write_ds(p, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1, NULL, &st), NXP_E_IO);
	ck_assert_ptr_nonnull(strstr(st.message, strerror(ENOENT)));
	free(p);
	/* a read-only directory (root bypasses the mode: then only the check above counts) */
	char *ro = tu_path(dir, "ro");
	ck_assert_int_eq(mkdir(ro, 0500), 0);
	p = tu_path(ro, "t.parquet");
	int rc = write_ds(p, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1, NULL, &st);
	if (geteuid() != 0) {
		ck_assert_int_eq(rc, NXP_E_IO);
		ck_assert_ptr_nonnull(strstr(st.message, strerror(EACCES)));
	} else {
		ck_assert_int_eq(rc, NXP_OK);
		unlink(p);
	}
	ck_assert_int_eq(count_tmp(ro), 0);
	free(p);
	rmdir(ro);
	free(ro);
	rm_rf(dir);
	free(dir);
}
END_TEST

START_TEST(stream_errors)
{
	char *dir = tu_tmpdir();
	char *p = tu_path(dir, "t.parquet");
	nxp_status st;
	nxp_status_init(&st);
	struct ArrowArrayStream s;
	/* get_next fails after a batch was written: nothing under the name, no temporary file */
	make_stream(&s, DS_ALL, all_batches, 5);
	priv(&s)->fail_at = 3;
	ck_assert_int_eq(nxp_parquet_write(p, &s, NULL, &st), NXP_E_IO);
	ck_assert_ptr_null(s.release);
	ck_assert_ptr_nonnull(strstr(st.message, "injected read failure"));
	ck_assert_int_eq(access(p, F_OK), -1);
	ck_assert_int_eq(count_tmp(dir), 0);
	/* get_schema fails */
	make_stream(&s, DS_ALL, all_batches, 1);
	priv(&s)->fail_schema = 1;
	ck_assert_int_eq(nxp_parquet_write(p, &s, NULL, &st), NXP_E_IO);
	ck_assert_int_eq(access(p, F_OK), -1);
	/* unsupported type */
	make_stream(&s, DS_ALL, all_batches, 1);
	priv(&s)->bad_format = "tsu:";
	ck_assert_int_eq(nxp_parquet_write(p, &s, NULL, &st), NXP_E_INVAL);
	ck_assert_ptr_nonnull(strstr(st.message, "unsupported Arrow type"));
	ck_assert_int_eq(access(p, F_OK), -1);
	ck_assert_int_eq(count_tmp(dir), 0);
	free(p);
	rm_rf(dir);
	free(dir);
}
END_TEST

/* Malformed Arrow arrays are refused with NXP_E_INVAL and leave no file. */
START_TEST(bad_arrays)
{
	char *dir = tu_tmpdir();
	char *p = tu_path(dir, "t.parquet");
	nxp_status st;
	nxp_status_init(&st);
	for (int k = 0; k < 7; k++) {
		struct ArrowArrayStream s;
		make_stream(&s, DS_ALL, all_batches, 2);
		struct ArrowArray *b = &priv(&s)->batches[0];
		switch (k) {
		case 0: b->children[1]->n_buffers = 1; break;                         /* i64: buffers */
		case 1: b->children[1]->length = 10; break;                           /* shorter than the batch */
		case 2: ((int32_t *)b->children[6]->buffers[1])[100] = 1 << 30; break; /* offsets not monotonic */
		case 3: ((int32_t *)b->children[7]->buffers[1])[1] = 77; break;        /* dictionary index */
		case 4: b->n_children = 3; break;                                     /* columns */
		case 5: b->children[0]->offset = -1; break;                           /* negative offset */
		default: /* a null in a non-nullable column */
			b->children[1]->null_count = 1;
			b->children[1]->buffers[0] = b->children[0]->buffers[0];
			break;
		}
		ck_assert_int_eq(nxp_parquet_write(p, &s, NULL, &st), NXP_E_INVAL);
		ck_assert_int_eq(access(p, F_OK), -1);
		ck_assert_int_eq(count_tmp(dir), 0);
	}
	free(p);
	rm_rf(dir);
	free(dir);
}
END_TEST

START_TEST(misuse)
{
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_parquet_write("/tmp/x.parquet", NULL, NULL, &st), NXP_E_INVAL);
	struct ArrowArrayStream s;
	make_stream(&s, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1);
	ck_assert_int_eq(nxp_parquet_write(NULL, &s, NULL, &st), NXP_E_INVAL);
	ck_assert_ptr_null(s.release); /* released even when refused */
	nxp_parquet_options o;
	nxp_parquet_options_init(&o);
	o.codec = 7;
	make_stream(&s, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1);
	ck_assert_int_eq(nxp_parquet_write("/tmp/nxp-never.parquet", &s, &o, &st), NXP_E_INVAL);
	nxp_parquet_options_init(&o);
	o.struct_size = 8;
	make_stream(&s, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1);
	ck_assert_int_eq(nxp_parquet_write("/tmp/nxp-never.parquet", &s, &o, &st), NXP_E_INVAL);
	nxp_parquet_options_init(&o);
	static const char *const odd[] = {"key", NULL};
	o.key_values = odd;
	make_stream(&s, DS_PAGES, (tbatch_spec[]){{10, 0, 0}}, 1);
	ck_assert_int_eq(nxp_parquet_write("/tmp/nxp-never.parquet", &s, &o, &st), NXP_E_INVAL);
	ck_assert_int_eq(access("/tmp/nxp-never.parquet", F_OK), -1);
}
END_TEST

/* ---- encoders, against a decoder written from Encodings.md ------------------ */

static uint64_t get_uvarint(const uint8_t *b, size_t *i)
{
	uint64_t v = 0;
	for (int s = 0;; s += 7) {
		uint8_t x = b[(*i)++];
		v |= (uint64_t)(x & 0x7f) << s;
		if (!(x & 0x80))
			return v;
	}
}

static size_t decode_hybrid(const uint8_t *b, size_t n, int bw, uint32_t *out, size_t want)
{
	size_t i = 0, k = 0;
	while (i < n && k < want) {
		uint64_t h = get_uvarint(b, &i);
		if (h & 1) {
			size_t cnt = (size_t)(h >> 1) * 8;
			uint64_t bitpos = 0;
			for (size_t j = 0; j < cnt; j++, bitpos += (uint64_t)bw) {
				uint32_t v = 0;
				for (int t = 0; t < bw; t++) {
					uint64_t q = bitpos + (uint64_t)t;
					v |= (uint32_t)((b[i + q / 8] >> (q % 8)) & 1) << t;
				}
				if (k < want)
					out[k++] = v;
				else /* the last group's padding */
					ck_assert_uint_eq(v, 0);
			}
			i += (size_t)(h >> 1) * (size_t)bw;
		} else {
			uint32_t v = 0;
			for (int t = 0; t < (bw + 7) / 8; t++)
				v |= (uint32_t)b[i++] << (8 * t);
			for (uint64_t j = 0; j < (h >> 1) && k < want; j++)
				out[k++] = v;
		}
	}
	ck_assert_uint_eq(i, n);
	return k;
}

START_TEST(rle_hybrid)
{
	enum { N = 5000 };
	uint32_t *v = malloc(N * 4), *back = malloc(N * 4);
	unsigned seed = 7;
	for (int bw = 1; bw <= 32; bw += (bw < 9 ? 1 : bw < 30 ? 7 : 2)) { /* every width of the one-word groups, 32 */
		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245 + 12345;
			uint32_t r = seed >> 8;
			/* runs, random stretches and short repeats mixed */
			v[i] = (i / 300) % 2 ? (uint32_t)(i / 37) : r;
			if (bw < 32)
				v[i] &= (1u << bw) - 1;
		}
		for (size_t n = 0; n <= N; n += n < 20 ? 1 : 997) {
			pq_buf b = {0};
			ck_assert_int_eq(pq_rle_hybrid(&b, v, n, bw), 0);
			ck_assert_uint_eq(decode_hybrid(b.p, b.n, bw, back, n), n);
			ck_assert_int_eq(n ? memcmp(v, back, n * 4) : 0, 0);
			pq_buf_free(&b);
		}
	}
	/* definition levels from a bitmap: all set, none set, mixed */
	uint8_t bits[40];
	for (int mode = 0; mode < 3; mode++) {
		memset(bits, mode == 0 ? 0xff : 0, sizeof bits);
		size_t n = 317, nulls = mode == 0 ? 0 : n;
		if (mode == 2) {
			nulls = 0;
			for (size_t i = 0; i < n; i++) {
				int set = (i * 7919) % 5 != 0;
				bits[i / 8] |= (uint8_t)(set << (i % 8));
				nulls += !set;
			}
		}
		pq_buf b = {0};
		ck_assert_int_eq(pq_def_levels(&b, bits, n, nulls), 0);
		ck_assert_uint_eq(decode_hybrid(b.p, b.n, 1, back, n), n);
		for (size_t i = 0; i < n; i++)
			ck_assert_uint_eq(back[i], (bits[i / 8] >> (i % 8)) & 1);
		pq_buf_free(&b);
	}
	/* bit copies at every alignment */
	uint8_t src[16], dst[20];
	for (int i = 0; i < 16; i++)
		src[i] = (uint8_t)(i * 37 + 11);
	for (int so = 0; so < 9; so++)
		for (int dof = 0; dof < 9; dof++) {
			memset(dst, 0, sizeof dst);
			int64_t ones = pq_bits_copy(dst, dof, src, so, 100);
			int64_t want = 0;
			for (int i = 0; i < 100; i++) {
				int bit = (src[(so + i) / 8] >> ((so + i) % 8)) & 1;
				want += bit;
				ck_assert_int_eq((dst[(dof + i) / 8] >> ((dof + i) % 8)) & 1, bit);
			}
			ck_assert_int_eq(ones, want);
			ck_assert_int_eq(dst[(dof + 100) / 8] >> ((dof + 100) % 8), 0);
		}
	free(v);
	free(back);
}
END_TEST

/* DELTA_BINARY_PACKED decoder written from Encodings.md, bit by bit: the
 * values of b[0..n) into out (at most cap); *used: bytes read.  Checks what
 * the spec asks of writers: block size a multiple of 128, miniblocks of a
 * multiple of 32 values, no width above the physical type's (type_bits),
 * zero padding bits and zero widths for the miniblocks past the last value.
 * INT32 values wrap in 32 bits, INT64 in 64. */
static size_t decode_delta(const uint8_t *b, size_t n, int type_bits, int64_t *out, size_t cap, size_t *used)
{
	size_t i = 0;
	uint64_t block = get_uvarint(b, &i), minis = get_uvarint(b, &i), total = get_uvarint(b, &i);
	uint64_t zz = get_uvarint(b, &i);
	ck_assert(block > 0 && block % 128 == 0);
	ck_assert(minis > 0 && block % minis == 0 && (block / minis) % 32 == 0);
	ck_assert_uint_le(total, cap);
	uint64_t per = block / minis;
	uint64_t prev = (zz >> 1) ^ (0 - (zz & 1));
	size_t k = 0;
	if (total)
		out[k++] = type_bits == 32 ? (int64_t)(int32_t)(uint32_t)prev : (int64_t)prev;
	while (k < total) {
		zz = get_uvarint(b, &i);
		uint64_t min_delta = (zz >> 1) ^ (0 - (zz & 1));
		const uint8_t *widths = b + i;
		i += (size_t)minis;
		for (uint64_t m = 0; m < minis; m++) {
			if (k >= total) {
				ck_assert_int_eq(widths[m], 0);
				continue;
			}
			int bw = widths[m];
			ck_assert_int_le(bw, type_bits);
			uint64_t bit = 0;
			for (uint64_t j = 0; j < per; j++) {
				uint64_t d = 0;
				for (int t = 0; t < bw; t++, bit++)
					d |= (uint64_t)((b[i + bit / 8] >> (bit % 8)) & 1) << t;
				if (k < total) {
					prev += min_delta + d;
					if (type_bits == 32)
						prev = (uint64_t)(int64_t)(int32_t)(uint32_t)prev;
					out[k++] = (int64_t)prev;
				} else {
					ck_assert_uint_eq(d, 0);
				}
			}
			ck_assert_uint_eq(bit % 8, 0);
			i += (size_t)(bit / 8);
		}
	}
	ck_assert_uint_le(i, n);
	*used = i;
	return k;
}

/* Encode v[0..n) (as int32 when type_bits is 32) after 3 bytes already in
 * the buffer, decode, compare; returns the encoded size. */
static size_t delta_roundtrip(const int64_t *v, size_t n, int type_bits)
{
	pq_buf b = {0};
	ck_assert_int_eq(pq_buf_put(&b, "abc", 3), 0);
	if (type_bits == 32) {
		int32_t *v32 = malloc(n * 4 + 4);
		for (size_t i = 0; i < n; i++)
			v32[i] = (int32_t)v[i];
		ck_assert_int_eq(pq_delta_i32(&b, v32, n), 0);
		free(v32);
	} else {
		ck_assert_int_eq(pq_delta_i64(&b, v, n), 0);
	}
	ck_assert_int_eq(memcmp(b.p, "abc", 3), 0);
	int64_t *back = malloc(n * 8 + 8);
	size_t used = 0;
	ck_assert_uint_eq(decode_delta(b.p + 3, b.n - 3, type_bits, back, n, &used), n);
	ck_assert_uint_eq(used, b.n - 3);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(back[i], type_bits == 32 ? (int64_t)(int32_t)v[i] : v[i]);
	free(back);
	size_t size = b.n - 3;
	pq_buf_free(&b);
	return size;
}

START_TEST(delta_binary_packed)
{
	enum { N = 5000 };
	int64_t *v = malloc(N * 8);
	static const size_t lens[] = {0, 1, 2, 31, 32, 33, 127, 128, 129, 130, 255, 256, 257, 1000, 4097, N};
	uint64_t seed = 11;
	for (int pat = 0; pat < 8; pat++) {
		for (size_t i = 0; i < N; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			switch (pat) {
			case 0: v[i] = 1000000000000ll + (int64_t)i * 1000 + (int64_t)(seed >> 60); break; /* timestamps */
			case 1: v[i] = 42; break;                                                /* all equal */
			case 2: v[i] = i % 2 ? INT64_MIN : INT64_MAX; break;                     /* deltas overflow */
			case 3: v[i] = 5000000 - (int64_t)i * 977; break;                        /* negative deltas */
			case 4: v[i] = (int64_t)seed; break;                                     /* 64 bits wide */
			case 5: v[i] = i % 3 ? INT32_MIN + (int64_t)i : INT32_MAX - (int64_t)i; break;
			case 6: v[i] = i == 200 ? INT64_MIN : (int64_t)i; break;                 /* one outlier */
			default: v[i] = (int64_t)(seed >> 61) - 3; break;                        /* small, mixed sign */
			}
		}
		for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
			delta_roundtrip(v, lens[l], 64);
			delta_roundtrip(v, lens[l], 32);
		}
	}
	/* every miniblock width 1..64: deltas of w random bits (the packer has
	 * one routine a width) */
	for (int wbits = 1; wbits <= 64; wbits++) {
		uint64_t acc = 0;
		for (size_t i = 0; i < 300; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			acc += wbits == 64 ? seed : seed >> (64 - wbits);
			v[i] = (int64_t)acc;
		}
		delta_roundtrip(v, 300, 64);
		delta_roundtrip(v, 300, 32);
	}
	/* exact sizes: 1000 equal values = header (2 + 1 + 2 + 1 bytes) and 8
	 * blocks of a zero min delta and four zero widths; one value = header only */
	for (int i = 0; i < 1000; i++)
		v[i] = 42;
	ck_assert_uint_eq(delta_roundtrip(v, 1000, 64), 6 + 8 * 5);
	ck_assert_uint_eq(delta_roundtrip(v, 1, 64), 5);
	ck_assert_uint_eq(delta_roundtrip(v, 0, 64), 5);
	/* +1 steps: 129 values are the first and one block of 128 deltas of width
	 * 0 (header 2 + 1 + 2 + 1); the 130th value opens a second block */
	for (int i = 0; i < 130; i++)
		v[i] = i;
	ck_assert_uint_eq(delta_roundtrip(v, 129, 64), 6 + (1 + 4));
	ck_assert_uint_eq(delta_roundtrip(v, 130, 64), 6 + 2 * (1 + 4));
	/* INT32 extremes alternating: in 32-bit wrapping arithmetic the deltas are
	 * +1/-1 (min delta -1, width 2: 32 * 2 bits a miniblock); as INT64 values
	 * they are -/+(2^32 - 1), width 33 and a 5-byte min delta.  Header: 2 + 1 +
	 * 2 + 5 (zigzag of 2^31 - 1) bytes; 255 deltas fill all 4 miniblocks of
	 * both blocks. */
	for (int i = 0; i < 256; i++)
		v[i] = i % 2 ? INT32_MIN : INT32_MAX;
	ck_assert_uint_eq(delta_roundtrip(v, 256, 32), 10 + 2 * (1 + 4 + 4 * 8));
	ck_assert_uint_eq(delta_roundtrip(v, 256, 64), 10 + 2 * (5 + 4 + 4 * 132));
	free(v);
}
END_TEST

/* ZSTD frames of raw blocks, for pages that do not compress: libzstd reads
 * them back; the size is the frame header, 3 bytes a 128 KiB block, the data. */
START_TEST(zstd_stored)
{
	static const size_t lens[] = {0, 1, 1000, 128 << 10, (128 << 10) + 1, 300000};
	uint8_t *src = malloc(300000), *back = malloc(300001);
	for (size_t i = 0; i < 300000; i++)
		src[i] = (uint8_t)(i * 2654435761u >> 13);
	pq_codec *c = pq_codec_new(NXP_PARQUET_ZSTD, 0);
	ck_assert_ptr_nonnull(c);
	for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
		size_t n = lens[l], blocks = n ? (n + (128 << 10) - 1) / (128 << 10) : 1;
		pq_buf out = {0};
		const uint8_t *res;
		size_t res_n;
		ck_assert_int_eq(pq_codec_store(c, src, n, &out, &res, &res_n), 0);
		ck_assert_uint_eq(res_n, 9 + 3 * blocks + n);
		ck_assert_uint_eq(ZSTD_getFrameContentSize(res, res_n), n);
		size_t got = ZSTD_decompress(back, 300001, res, res_n);
		ck_assert_msg(!ZSTD_isError(got), "%s", ZSTD_getErrorName(got));
		ck_assert_uint_eq(got, n);
		ck_assert_int_eq(n ? memcmp(back, src, n) : 0, 0);
		pq_buf_free(&out);
	}
	pq_codec_free(c);
	free(src);
	free(back);
}
END_TEST

/* Same stream, same bytes: the encodings chosen per chunk depend on the data only. */
START_TEST(deterministic)
{
	char *dir = tu_tmpdir();
	char *p1 = tu_path(dir, "a.parquet"), *p2 = tu_path(dir, "b.parquet");
	nxp_status st;
	nxp_status_init(&st);
	tbatch_spec eb[] = {{1000, 0, 0}, {150000, 2, 1}};
	ck_assert_int_eq(write_ds(p1, DS_EDGE, eb, 2, NULL, &st), NXP_OK);
	ck_assert_int_eq(write_ds(p2, DS_EDGE, eb, 2, NULL, &st), NXP_OK);
	size_t n1, n2;
	uint8_t *a = tu_read_file(p1, &n1), *b = tu_read_file(p2, &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_int_eq(memcmp(a, b, n1), 0);
	free(a);
	free(b);
	free(p1);
	free(p2);
	rm_rf(dir);
	free(dir);
}
END_TEST

/* utf8 values that are all empty may come without a data buffer (NULL:
 * nothing to point at, as the C Data Interface allows for an empty buffer);
 * the writer's statistics compare and copy them (found by a damaged NTFF
 * through `nxp export` under UBSan: memcmp given NULL). */
START_TEST(empty_strings)
{
	static const tcol cols[] = {{"s", C_STR, 0}};
	char *dir = tu_tmpdir();
	char *p = tu_path(dir, "e.parquet");
	tstream *t = calloc(1, sizeof(*t));
	t->fail_at = -1;
	t->cols = cols;
	t->ncols = 1;
	for (int i = 0; i < 3; i++) {
		/* batches: "", "", ""; then "b", "", ""; then "", "", "" again */
		int32_t *off = calloc(4, sizeof(int32_t));
		char *data = NULL;
		if (i == 1) {
			off[1] = off[2] = off[3] = 1;
			data = malloc(1);
			data[0] = 'b';
		}
		struct ArrowArray *top = new_array(3, 0, 0, 1, NULL, NULL, NULL);
		top->n_children = 1;
		top->children = calloc(1, sizeof(void *));
		top->children[0] = new_array(3, 0, 0, 3, NULL, off, data);
		((owned *)top->private_data)->nchild = 1;
		t->batches[i] = *top;
		free(top);
	}
	t->nb = 3;
	struct ArrowArrayStream s;
	memset(&s, 0, sizeof(s));
	s.get_schema = ts_get_schema;
	s.get_next = ts_get_next;
	s.get_last_error = ts_last_error;
	s.release = ts_release;
	s.private_data = t;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_parquet_write(p, &s, NULL, &st) == NXP_OK, "%s", st.message);
	check_par1(p);
	free(p);
	rm_rf(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parquet");
	/* `readers` alone: tests/js/run_readers.sh runs it with CK_RUN_CASE=readers */
	TCase *tr = tcase_create("readers");
	tcase_set_timeout(tr, 300);
	tcase_add_test(tr, readers);
	suite_add_tcase(s, tr);
	TCase *tc = tcase_create("writer");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, existing_file);
	tcase_add_test(tc, unwritable_dir);
	tcase_add_test(tc, stream_errors);
	tcase_add_test(tc, bad_arrays);
	tcase_add_test(tc, misuse);
	tcase_add_test(tc, rle_hybrid);
	tcase_add_test(tc, delta_binary_packed);
	tcase_add_test(tc, deterministic);
	tcase_add_test(tc, zstd_stored);
	tcase_add_test(tc, empty_strings);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
