/* SPDX-License-Identifier: MIT */
/* The one ArrowArrayStream implementation every table goes through: options
 * and projection, get_schema / get_next / get_last_error / release, and the
 * public entry points nxp_table_name(), nxp_profile_open_table() and
 * nxp_system_open_table(). */
#include "columnar_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

void nxc_stream_error(nxc_stream *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
}

static int to_errno(int rc)
{
	switch (rc) {
	case NXP_E_NOMEM:
		return ENOMEM;
	case NXP_E_INVAL:
		return EINVAL;
	default:
		return EIO;
	}
}

static int s_get_schema(struct ArrowArrayStream *as, struct ArrowSchema *out)
{
	nxc_stream *s = as ? as->private_data : NULL;
	if (!s || !out)
		return EINVAL;
	if (nxc_schema_make(out, s->t, s->proj, s->nproj)) {
		nxc_stream_error(s, "out of memory");
		return ENOMEM;
	}
	return 0;
}

static int s_get_next(struct ArrowArrayStream *as, struct ArrowArray *out)
{
	nxc_stream *s = as ? as->private_data : NULL;
	if (!s || !out)
		return EINVAL;
	memset(out, 0, sizeof(*out));
	if (s->done < 0)
		return EIO;
	if (s->done) {
		out->release = NULL;
		return 0;
	}
	int64_t n = nxc_builder_begin(&s->b) ? 0 : s->fill(s, s->batch_rows);
	if (s->b.nomem || s->b.stale) {
		nxc_stream_error(s, "out of memory");
		s->done = -1;
		return ENOMEM;
	}
	if (n < 0) {
		if (!s->err[0])
			nxc_stream_error(s, "%s", nxp_strerror((int)n));
		s->done = -1;
		return to_errno((int)n);
	}
	if (n == 0) {
		s->done = 1;
		out->release = NULL;
		return 0;
	}
	if (nxc_builder_finish(&s->b, out)) {
		nxc_stream_error(s, "out of memory");
		s->done = -1;
		return ENOMEM;
	}
	return 0;
}

static const char *s_last_error(struct ArrowArrayStream *as)
{
	nxc_stream *s = as ? as->private_data : NULL;
	return s && s->err[0] ? s->err : NULL;
}

static void stream_free(nxc_stream *s)
{
	if (!s)
		return;
	if (s->free_ctx)
		s->free_ctx(s->ctx);
	nxc_builder_free(&s->b);
	free(s->proj);
	free(s);
}

static void s_release(struct ArrowArrayStream *as)
{
	if (!as || !as->release)
		return;
	stream_free(as->private_data);
	as->release = NULL;
	as->private_data = NULL;
}

int nxc_open_stream(struct ArrowArrayStream *out, const nxc_table *t, nxp_profile *p, const char *path,
		    const nxp_table_options *uopts, nxp_status *st)
{
	return nxc_open_stream_sum(out, t, p, path, uopts, NULL, NULL, st);
}

int nxc_open_stream_sum(struct ArrowArrayStream *out, const nxc_table *t, nxp_profile *p, const char *path,
			const nxp_table_options *uopts, nxp_summary *sum, const nxc_feeds *feeds, nxp_status *st)
{
	nxp_table_options o;
	nxp_table_options_init(&o);
	if (uopts) {
		if (uopts->struct_size < offsetof(nxp_table_options, batch_rows) + sizeof(int64_t))
			return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_table_options: struct_size too small");
		memcpy(&o, uopts, sizeof(o) < uopts->struct_size ? sizeof(o) : uopts->struct_size);
		o.struct_size = sizeof(o);
	}
	if (o.batch_rows < 0 || o.batch_rows > (INT64_C(1) << 28))
		return nxp__error_set(st, NXP_E_INVAL, -1, "batch_rows %lld out of range", (long long)o.batch_rows);
	nxc_stream *s = calloc(1, sizeof(*s));
	if (!s)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	s->t = t;
	s->opts = o;
	s->shared_sum = sum;
	if (feeds)
		s->feeds = *feeds;
	s->batch_rows = o.batch_rows ? o.batch_rows : 65536;
	int n = 0;
	if (o.columns)
		while (o.columns[n])
			n++;
	else
		n = t->ncols;
	s->proj = malloc((size_t)(n ? n : 1) * sizeof(int));
	if (!s->proj) {
		stream_free(s);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		int c = o.columns ? nxc_col_index(t, o.columns[i]) : i;
		if (c < 0) {
			int rc = nxp__error_set(st, NXP_E_INVAL, -1, "table %s has no column \"%s\"", t->name,
						 o.columns[i]);
			stream_free(s);
			return rc;
		}
		for (int j = 0; j < i; j++)
			if (s->proj[j] == c) {
				int rc = nxp__error_set(st, NXP_E_INVAL, -1, "column \"%s\" requested twice",
							 o.columns[i]);
				stream_free(s);
				return rc;
			}
		s->proj[i] = c;
		if (t->cols[c].neff)
			s->needs_neff = 1;
	}
	s->nproj = n;
	if (nxc_builder_init(&s->b, t, s->proj, n)) {
		stream_free(s);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	int rc;
	if (t->kind == NXC_KIND_DEVICE)
		rc = nxc_device_open(s, p, st);
	else
		rc = t->open(s, p, path, st);
	if (rc) {
		stream_free(s);
		return rc;
	}
	memset(out, 0, sizeof(*out));
	out->get_schema = s_get_schema;
	out->get_next = s_get_next;
	out->get_last_error = s_last_error;
	out->release = s_release;
	out->private_data = s;
	return NXP_OK;
}

/* ---- tables filled at open, handed out batch_rows at a time ---- */
typedef struct rows_ctx {
	nxc_builder all; /* every row, built at open */
	int64_t next;
} rows_ctx;

static void rows_free(void *p)
{
	rows_ctx *r = p;
	if (!r)
		return;
	nxc_builder_free(&r->all);
	free(r);
}

static int64_t rows_fill(nxc_stream *s, int64_t max)
{
	rows_ctx *r = s->ctx;
	int64_t n = r->all.rows - r->next;
	if (n > max)
		n = max;
	for (int c = 0; c < s->b.ncols; c++)
		for (int64_t i = 0; i < n; i++)
			if (nxc_col_copy(&s->b.cols[c], &r->all.cols[c], r->next + i)) {
				s->b.nomem = 1;
				return NXP_E_NOMEM;
			}
	r->next += n;
	s->b.rows += n;
	return n;
}

int nxc_rows_open(nxc_stream *s, nxc_rows_fn rows, nxp_profile *p, const char *path, nxp_status *st)
{
	rows_ctx *r = calloc(1, sizeof(*r));
	if (!r)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	int rc = rows(s, p, path, st);
	if (rc == 0 && s->b.nomem)
		rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	if (rc == 0) {
		/* the filled builder is kept aside; s->b starts empty */
		r->all = s->b;
		if (nxc_builder_init(&s->b, s->t, s->proj, s->nproj)) {
			memset(&s->b, 0, sizeof(s->b));
			rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
	}
	if (rc) {
		rows_free(r);
		return rc;
	}
	s->ctx = r;
	s->free_ctx = rows_free;
	s->fill = rows_fill;
	return 0;
}

/* ---- public ---- */
NXP_API const char *nxp_table_name(int index)
{
	if (index < 0)
		return NULL;
	nxc_registry_init();
	for (int i = 0; nxc_tables[i]; i++)
		if (i == index)
			return nxc_tables[i]->name;
	return NULL;
}

NXP_API int nxp_profile_open_table(struct ArrowArrayStream *out, nxp_profile *p, const char *table,
				   const nxp_table_options *opts, nxp_status *st)
{
	if (!out || !table)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_open_table: NULL argument");
	const nxc_table *t = nxc_find_table(table);
	if (!t)
		return nxp__error_set(st, NXP_E_INVAL, -1, "unknown table \"%s\"", table);
	if (t->kind == NXC_KIND_SYSTEM)
		return nxp__error_set(st, NXP_E_INVAL, -1,
				       "table %s comes from a system profile (nxp_system_open_table)", table);
	if (!p && t->kind != NXC_KIND_SCHEMA)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_open_table: NULL profile");
	return nxc_open_stream(out, t, p, NULL, opts, st);
}

NXP_API int nxp_system_open_table(struct ArrowArrayStream *out, const char *path, const char *table,
				  const nxp_table_options *opts, nxp_status *st)
{
	if (!out || !table || !path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_open_table: NULL argument");
	const nxc_table *t = nxc_find_table(table);
	if (!t)
		return nxp__error_set(st, NXP_E_INVAL, -1, "unknown table \"%s\"", table);
	if (t->kind != NXC_KIND_SYSTEM && t->kind != NXC_KIND_SCHEMA)
		return nxp__error_set(st, NXP_E_INVAL, -1,
				       "table %s comes from a device profile (nxp_profile_open_table)", table);
	return nxc_open_stream(out, t, NULL, path, opts, st);
}
