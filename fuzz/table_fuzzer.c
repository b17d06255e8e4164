/* SPDX-License-Identifier: MIT */
/* Columnar tables: a fuzzed NTFF (paired with the fixture NEFF) read through
 * nxp_profile_open_table() — one table chosen by a byte (every profile table,
 * Warning and the derived ones included), a fuzzed projection and batch size —
 * and every batch drained and walked: lengths, offsets inside the data buffer,
 * validity against null_count, dictionary indices in range; batches released
 * after the profile is closed.
 * Input: [table] [flags] [batch] [ctl] [NTFF bytes...]
 * flags bit 0: SKIP_CRC; bit 1: project every other column; bit 2: engine 0 only. */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	return 0;
}

static int bit(const void *b, int64_t i)
{
	return (((const uint8_t *)b)[i / 8] >> (i % 8)) & 1;
}

static void walk_column(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t len)
{
	FZ_CHECK(a->length == len, "column %s: length %lld, batch %lld", s->name ? s->name : "",
		 (long long)a->length, (long long)len);
	if (a->buffers[0]) {
		int64_t nulls = 0;
		for (int64_t i = 0; i < len; i++)
			nulls += !bit(a->buffers[0], i);
		FZ_CHECK(nulls == a->null_count, "null_count %lld, bitmap %lld", (long long)a->null_count,
			 (long long)nulls);
	} else {
		FZ_CHECK(a->null_count == 0, "nulls without a bitmap");
	}
	if (!strcmp(s->format, "u")) {
		const int32_t *o = a->buffers[1];
		FZ_CHECK(o[0] == 0, "first offset %d", o[0]);
		for (int64_t i = 0; i < len; i++)
			FZ_CHECK(o[i] <= o[i + 1], "offsets go back at %lld", (long long)i);
		for (int32_t k = 0; k < o[len]; k++)
			sink += ((const uint8_t *)a->buffers[2])[k];
	} else if (!strcmp(s->format, "l") || !strcmp(s->format, "g")) {
		for (int64_t i = 0; i < len; i++)
			sink += ((const uint64_t *)a->buffers[1])[i];
	} else if (!strcmp(s->format, "i")) {
		for (int64_t i = 0; i < len; i++)
			sink += (uint32_t)((const int32_t *)a->buffers[1])[i];
	}
	if (s->dictionary) {
		FZ_CHECK(a->dictionary != NULL, "dictionary column without a dictionary");
		walk_column(s->dictionary, a->dictionary, a->dictionary->length);
		for (int64_t i = 0; i < len; i++) {
			int32_t x = ((const int32_t *)a->buffers[1])[i];
			if (a->buffers[0] && !bit(a->buffers[0], i))
				continue;
			FZ_CHECK(x >= 0 && x < a->dictionary->length, "index %d of %lld", x,
				 (long long)a->dictionary->length);
		}
	}
}

#define MAX_KEEP 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t tsel = fz_take_u8(&in), flags = fz_take_u8(&in), batch = fz_take_u8(&in);
	int ntables = 0;
	while (nxp_table_name(ntables))
		ntables++;
	const char *table = nxp_table_name(tsel % ntables);
	nxp_profile_options popts;
	nxp_profile_options_init(&popts);
	if (flags & 1)
		popts.flags |= NXP_PROFILE_SKIP_CRC;
	struct ArrowArray keep[MAX_KEEP];
	int nkeep = 0;
	struct ArrowSchema schema;
	memset(&schema, 0, sizeof(schema));
	const char *cols[128];
	fz_fixture_pair fx;
	if (fz_fixture_pair_open(&fx, &in, &popts, NULL) != NXP_OK)
		goto out;
	nxp_profile *p = fx.p;

	nxp_table_options o;
	nxp_table_options_init(&o);
	o.batch_rows = 1 + batch;
	if (flags & 4)
		o.engine = 0;
	struct ArrowArrayStream st;
	nxp_status s;
	nxp_status_init(&s);
	if (flags & 2) {
		/* every other column of the table, learnt from its full schema */
		if (nxp_profile_open_table(&st, p, table, NULL, &s) != NXP_OK)
			goto out;
		struct ArrowSchema full;
		int n = 0;
		if (st.get_schema(&st, &full) == 0) {
			for (int64_t i = 0; i < full.n_children && n < 127; i += 2)
				cols[n++] = full.children[i]->name; /* static names: valid after release */
			full.release(&full);
		}
		st.release(&st);
		cols[n] = NULL;
		o.columns = cols;
	}
	int rc = nxp_profile_open_table(&st, p, table, &o, &s);
	if (rc != NXP_OK) {
		FZ_CHECK(rc < 0 && s.code == rc, "open_table: %d, status %d", rc, s.code);
		goto out;
	}
	FZ_CHECK(st.get_schema(&st, &schema) == 0, "get_schema failed");
	for (;;) {
		struct ArrowArray a;
		int e = st.get_next(&st, &a);
		if (e != 0) {
			FZ_CHECK(st.get_last_error(&st) != NULL, "get_next %d without a message", e);
			FZ_CHECK(st.get_next(&st, &a) != 0, "a stream in error went on");
			break;
		}
		if (!a.release)
			break;
		FZ_CHECK(a.n_children == schema.n_children, "children %lld vs schema %lld", (long long)a.n_children,
			 (long long)schema.n_children);
		FZ_CHECK(a.length > 0 && a.length <= o.batch_rows, "batch of %lld rows (max %lld)",
			 (long long)a.length, (long long)o.batch_rows);
		for (int64_t i = 0; i < a.n_children; i++)
			walk_column(schema.children[i], a.children[i], a.length);
		if (nkeep < MAX_KEEP)
			keep[nkeep++] = a;
		else
			a.release(&a);
	}
	st.release(&st);
out:
	fz_fixture_pair_close(&fx);
	/* the batches outlive the stream and the profile */
	for (int i = nkeep; i-- > 0;)
		keep[i].release(&keep[i]);
	if (schema.release)
		schema.release(&schema);
	return 0;
}
