/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "testutil.h"

#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct chunky {
	const uint8_t *data;
	size_t len, pos;
	unsigned turn;
};

static int64_t chunky_read(void *user, void *buf, size_t len)
{
	static const size_t steps[] = {1, 2, 3, 5, 7, 11, 13};
	struct chunky *c = user;
	size_t n = steps[c->turn++ % (sizeof(steps) / sizeof(steps[0]))];
	if (n > len)
		n = len;
	if (n > c->len - c->pos)
		n = c->len - c->pos;
	memcpy(buf, c->data + c->pos, n);
	c->pos += n;
	return (int64_t)n;
}

static int chunky_seek(void *user, uint64_t off)
{
	struct chunky *c = user;
	if (off > c->len)
		return -1;
	c->pos = (size_t)off;
	return 0;
}

static int64_t chunky_size(void *user)
{
	return (int64_t)((struct chunky *)user)->len;
}

static void chunky_close(void *user)
{
	free(user);
}

nxp_source *tu_chunky_source(const void *data, size_t len, int seekable)
{
	struct chunky *c = calloc(1, sizeof(*c));
	c->data = data;
	c->len = len;
	nxp_source_callbacks cb;
	nxp_source_callbacks_init(&cb);
	cb.read = chunky_read;
	cb.seek = seekable ? chunky_seek : NULL;
	cb.get_size = chunky_size;
	cb.close = chunky_close;
	nxp_source *src = NULL;
	if (nxp_source_open_callbacks(&src, &cb, c, NULL) != NXP_OK) {
		free(c);
		return NULL;
	}
	return src;
}

void *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *buf = malloc(n > 0 ? (size_t)n : 1);
	if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int tu_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(data, 1, len, f) == len;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

char *tu_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl;
	if (asprintf(&tmpl, "%s/nxp-test-XXXXXX", base ? base : "/tmp") < 0 || !mkdtemp(tmpl))
		abort();
	return tmpl;
}

void tu_rmtree(const char *dir)
{
	char *cmd;
	if (asprintf(&cmd, "rm -rf '%s'", dir) < 0)
		abort();
	int rc = system(cmd);
	ck_assert_msg(rc == 0, "%s: %d", cmd, rc);
	free(cmd);
}

char *tu_path(const char *dir, const char *name)
{
	char *p;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		abort();
	return p;
}

const char *tu_shared_dir(void)
{
	const char *d = getenv("NXP_SHARED_DIR");
	struct stat sb;
	return d && *d && stat(d, &sb) == 0 && S_ISDIR(sb.st_mode) ? d : NULL;
}

char *tu_data_path(const char *name)
{
	const char *d = getenv("NXP_TEST_DATA");
	if (!d || !*d) {
		fprintf(stderr, "NXP_TEST_DATA is not set (it names the project's tests/data; meson test sets it)\n");
		abort();
	}
	return tu_path(d, name);
}

nxp_profile *tu_open_demo(void)
{
	const char *dir = getenv("NXP_SAMPLES_DIR");
	char neff[4096], ntff[4096];
	snprintf(neff, sizeof(neff), "%s/demo.neff", dir ? dir : "samples");
	snprintf(ntff, sizeof(ntff), "%s/demo.ntff", dir ? dir : "samples");
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, neff, ntff, NULL, &st) == NXP_OK, "%s", st.message);
	return p;
}

void tu_synth_write(tu_synth *s, const fxn_spec *spec)
{
	memset(s, 0, sizeof(*s));
	s->dir = tu_tmpdir();
	s->ntff_path = tu_path(s->dir, "t.ntff");
	s->neff_path = tu_path(s->dir, "t.neff");
	fxn_write(s->ntff_path, spec, &s->m);
	s->neff = fxn_neff(spec->uuid, &s->neff_len);
	ck_assert_int_eq(tu_write_file(s->neff_path, s->neff, s->neff_len), 0);
	s->ntff = tu_read_file(s->ntff_path, &s->ntff_len);
	ck_assert_ptr_nonnull(s->ntff);
}

nxp_profile *tu_synth_open(const tu_synth *s, const nxp_profile_options *opts)
{
	nxp_profile *p = NULL;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_msg(nxp_profile_open_path(&p, s->neff_path, s->ntff_path, opts, &st) == NXP_OK, "%s", st.message);
	return p;
}

void tu_synth_free(tu_synth *s)
{
	fxn_model_free(&s->m);
	free(s->neff);
	free(s->ntff);
	remove(s->ntff_path);
	remove(s->neff_path);
	remove(s->dir);
	free(s->ntff_path);
	free(s->neff_path);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

void tu_summary_same(const nxp_summary *a, const nxp_summary *b, const char *label)
{
	size_t n = nxp_summary_field_count(a);
	for (size_t k = 0; k < n; k++) {
		nxp_summary_field fa, fb;
		fa.struct_size = fb.struct_size = sizeof(fa);
		ck_assert_int_eq(nxp_summary_get_field(a, k, &fa), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_field(b, k, &fb), NXP_OK);
		ck_assert_msg(fa.present == fb.present && fa.i == fb.i && !memcmp(&fa.f, &fb.f, sizeof(double)),
			      "%s: %s differs (%d %lld %.17g vs %d %lld %.17g)", label, fa.name, fa.present,
			      (long long)fa.i, fa.f, fb.present, (long long)fb.i, fb.f);
	}
	nxp_hardware ha, hb;
	memset(&ha, 0, sizeof(ha));
	memset(&hb, 0, sizeof(hb));
	ha.struct_size = hb.struct_size = sizeof(ha);
	int ra = nxp_summary_get_hardware(a, &ha), rb = nxp_summary_get_hardware(b, &hb);
	ck_assert_int_eq(ra, rb);
	ck_assert_msg(!memcmp(&ha, &hb, sizeof(ha)), "%s: hardware differs", label);
	ck_assert_uint_eq(nxp_summary_opcode_count(a), nxp_summary_opcode_count(b));
	for (size_t k = 0; k < nxp_summary_opcode_count(a); k++) {
		nxp_opcode_summary oa, ob;
		oa.struct_size = ob.struct_size = sizeof(oa);
		ck_assert_int_eq(nxp_summary_get_opcode(a, k, &oa), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_opcode(b, k, &ob), NXP_OK);
		ck_assert_str_eq(oa.engine, ob.engine);
		ck_assert_str_eq(oa.opcode, ob.opcode);
		ck_assert_msg(oa.instruction_count == ob.instruction_count &&
				      oa.instruction_time_ns == ob.instruction_time_ns &&
				      oa.active_time_ns == ob.active_time_ns &&
				      !memcmp(&oa.active_time_percent, &ob.active_time_percent, sizeof(double)),
			      "%s: opcode row %zu (%s %s) differs", label, k, oa.engine, oa.opcode);
	}
	ck_assert_uint_eq(nxp_summary_throttle_count(a), nxp_summary_throttle_count(b));
	for (size_t k = 0; k < nxp_summary_throttle_count(a); k++) {
		nxp_throttle_summary ta, tb;
		ta.struct_size = tb.struct_size = sizeof(ta);
		ck_assert_int_eq(nxp_summary_get_throttle(a, k, &ta), NXP_OK);
		ck_assert_int_eq(nxp_summary_get_throttle(b, k, &tb), NXP_OK);
		ck_assert_str_eq(ta.throttle_type, tb.throttle_type);
		ck_assert_msg(ta.nc_idx == tb.nc_idx && ta.throttle_active_time_ns == tb.throttle_active_time_ns &&
				      !memcmp(&ta.throttle_active_time_percent, &tb.throttle_active_time_percent,
					      sizeof(double)) &&
				      !memcmp(&ta.max_achievable_util_with_throttling_percent,
					      &tb.max_achievable_util_with_throttling_percent, sizeof(double)),
			      "%s: throttle row %zu differs", label, k);
	}
}
