/* SPDX-License-Identifier: MIT */
/*
 * NEFF writer: members in memory -> tar (pax restricted, gzip'd unless asked
 * not to) via libarchive -> 1024-byte header with data_size and the payload
 * digest in front.  Deterministic: fixed mtime, owner and permissions, gzip
 * without a timestamp, members in the order they were added.
 */
#include "neff_priv.h"

#include "abi_struct.h"

#include <archive.h>
#include <archive_entry.h>
#include <md5.h>
#include <sha2.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wmember {
	char *path;
	uint8_t *data;
	size_t len;
} wmember;

struct nxp_neff_writer {
	nxp_neff_writer_options opts;
	char *build_version;
	char *name;
	wmember *members;
	size_t count, cap;
	nxp_status err; /* last error of add/save/save_memory, for nxp_neff_writer_error */
};

static int wfail(nxp_neff_writer *w, int code, const char *fmt, ...) NXP_PRINTF(3, 4);
static int wfail(nxp_neff_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nxp__error_setv(&w->err, code, -1, fmt, ap);
	va_end(ap);
	return code;
}

typedef struct membuf {
	uint8_t *p;
	size_t len, cap;
	int oom;
} membuf;

static int membuf_put(membuf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		size_t ncap = b->cap ? b->cap : 65536;
		while (ncap < b->len + len)
			ncap *= 2;
		uint8_t *t = realloc(b->p, ncap);
		if (!t) {
			b->oom = 1;
			return -1;
		}
		b->p = t;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

static la_ssize_t write_cb(struct archive *a, void *user, const void *buf, size_t len)
{
	if (membuf_put(user, buf, len)) {
		archive_set_error(a, ENOMEM, "out of memory");
		return -1;
	}
	return (la_ssize_t)len;
}

static char *dup_or_null(const char *s, size_t max, int *bad)
{
	if (!s)
		return NULL;
	if (strlen(s) > max) {
		*bad = 1;
		return NULL;
	}
	char *d = strdup(s);
	if (!d)
		*bad = 2;
	return d;
}

int nxp_neff_writer_open(nxp_neff_writer **out, const nxp_neff_writer_options *opts, nxp_status *st)
{
	if (out)
		*out = NULL;
	if (!out || (opts && !nxp__struct_size_ok(opts, NXP_NEFF_WRITER_OPTIONS_SIZE_V0_1)))
		return nxp__error_set(st, NXP_E_INVAL, -1,
				      "nxp_neff_writer_open: NULL argument or short options struct_size");
	nxp_neff_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	nxp_neff_writer_options_init(&w->opts);
	nxp_status_init(&w->err);
	if (opts) /* fields an older caller's header lacks keep their defaults */
		NXP__STRUCT_IN_DEFAULTS(w->opts, opts, NXP_NEFF_WRITER_OPTIONS_SIZE_V0_1);
	if (w->opts.pkg_version == 0)
		w->opts.pkg_version = 2;
	int bad = 0;
	w->build_version = dup_or_null(w->opts.build_version, 128, &bad);
	if (!bad)
		w->name = dup_or_null(w->opts.name, 256, &bad);
	if (bad || (w->opts.pkg_version != 1 && w->opts.pkg_version != 2)) {
		nxp_neff_writer_close(w);
		if (bad == 2)
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		return nxp__error_set(st, NXP_E_INVAL, -1,
				      "nxp_neff_writer_open: pkg_version must be 1 or 2, build_version at most 128 bytes, "
				      "name at most 256 bytes");
	}
	w->opts.build_version = w->build_version;
	w->opts.name = w->name;
	*out = w;
	nxp_status_clear(st);
	return NXP_OK;
}

void nxp_neff_writer_close(nxp_neff_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->count; i++) {
		free(w->members[i].path);
		free(w->members[i].data);
	}
	free(w->members);
	free(w->build_version);
	free(w->name);
	free(w);
}

int nxp_neff_writer_add(nxp_neff_writer *w, const char *path, const void *data, size_t len)
{
	if (!w)
		return NXP_E_INVAL;
	if (!path || (!data && len))
		return wfail(w, NXP_E_INVAL, "nxp_neff_writer_add: NULL path, or NULL data with a length");
	char *norm;
	int rc = neff_path_normalise(path, &norm);
	if (rc)
		return wfail(w, rc, "nxp_neff_writer_add: member path \"%s\": %s", path, nxp_strerror(rc));
	if (!norm[0]) {
		free(norm);
		return wfail(w, NXP_E_INVAL, "nxp_neff_writer_add: empty member path");
	}
	if (w->count == w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 16;
		wmember *t = realloc(w->members, ncap * sizeof(*t));
		if (!t) {
			free(norm);
			return wfail(w, NXP_E_NOMEM, "out of memory");
		}
		w->members = t;
		w->cap = ncap;
	}
	uint8_t *copy = malloc(len ? len : 1);
	if (!copy) {
		free(norm);
		return wfail(w, NXP_E_NOMEM, "out of memory");
	}
	if (len)
		memcpy(copy, data, len);
	w->members[w->count++] = (wmember){norm, copy, len};
	return NXP_OK;
}

/* Distinct top-level "sgNN" folders: the default num_tpb. */
static uint32_t count_subgraphs(const nxp_neff_writer *w)
{
	uint32_t count = 0;
	for (size_t i = 0; i < w->count; i++) {
		const char *p = w->members[i].path, *slash = strchr(p, '/');
		if (!slash || strncmp(p, "sg", 2))
			continue;
		size_t dl = (size_t)(slash - p);
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++) {
			const char *q = w->members[j].path;
			seen = !strncmp(q, p, dl) && q[dl] == '/';
		}
		count += !seen;
	}
	return count ? count : 1;
}

static int build_payload(const nxp_neff_writer *w, membuf *out)
{
	struct archive *a = archive_write_new();
	if (!a)
		return NXP_E_NOMEM;
	int rc = NXP_OK;
	int plain = (w->opts.flags & NXP_NEFF_WRITE_PLAIN_TAR) != 0;
	if (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    (!plain && (archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
			archive_write_set_filter_option(a, "gzip", "timestamp", NULL) != ARCHIVE_OK)) ||
	    archive_write_set_bytes_per_block(a, 512) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open(a, out, NULL, write_cb, NULL) != ARCHIVE_OK) {
		archive_write_free(a);
		return out->oom ? NXP_E_NOMEM : NXP_E_FORMAT;
	}
	struct archive_entry *e = archive_entry_new();
	if (!e) {
		archive_write_free(a);
		return NXP_E_NOMEM;
	}
	for (size_t i = 0; i < w->count && !rc; i++) {
		const wmember *m = &w->members[i];
		char *name = malloc(strlen(m->path) + 3);
		if (!name) {
			rc = NXP_E_NOMEM;
			break;
		}
		sprintf(name, "%s%s", (w->opts.flags & NXP_NEFF_WRITE_DOT_SLASH) ? "./" : "", m->path);
		archive_entry_clear(e);
		archive_entry_set_pathname(e, name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, (la_int64_t)m->len);
		archive_entry_set_mtime(e, 0, 0);
		archive_entry_set_uid(e, 0);
		archive_entry_set_gid(e, 0);
		archive_entry_set_uname(e, "root");
		archive_entry_set_gname(e, "root");
		free(name);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    (m->len && archive_write_data(a, m->data, m->len) != (la_ssize_t)m->len))
			rc = out->oom ? NXP_E_NOMEM : NXP_E_FORMAT;
	}
	archive_entry_free(e);
	if (archive_write_close(a) != ARCHIVE_OK && !rc)
		rc = out->oom ? NXP_E_NOMEM : NXP_E_FORMAT;
	archive_write_free(a);
	return rc;
}

int nxp_neff_writer_save_memory(nxp_neff_writer *w, void **data, size_t *len)
{
	if (!w)
		return NXP_E_INVAL;
	if (!data || !len)
		return wfail(w, NXP_E_INVAL, "nxp_neff_writer_save_memory: NULL argument");
	*data = NULL;
	*len = 0;
	membuf b = {0};
	/* Room for the header first, so the payload is written after it once. */
	uint8_t zero[NXP_NEFF_HEADER_SIZE] = {0};
	if (membuf_put(&b, zero, sizeof(zero)))
		return wfail(w, NXP_E_NOMEM, "out of memory");
	int rc = build_payload(w, &b);
	if (rc) {
		free(b.p);
		return wfail(w, rc, rc == NXP_E_NOMEM ? "out of memory" : "the archive writer (libarchive) failed");
	}
	nxp_neff_header h;
	memset(&h, 0, sizeof(h));
	h.pkg_version = w->opts.pkg_version;
	h.header_size = NXP_NEFF_HEADER_SIZE;
	h.data_size = b.len - NXP_NEFF_HEADER_SIZE;
	h.neff_version_major = w->opts.neff_version_major;
	h.neff_version_minor = w->opts.neff_version_minor;
	snprintf(h.build_version, sizeof(h.build_version), "%s",
		 w->opts.build_version ? w->opts.build_version : "libnxp " NXP_VERSION_STRING);
	snprintf(h.name, sizeof(h.name), "%s", w->opts.name ? w->opts.name : "");
	h.num_tpb = w->opts.num_tpb ? w->opts.num_tpb : count_subgraphs(w);
	h.requested_tpb_count = h.num_tpb;
	memcpy(h.uuid, w->opts.uuid, sizeof(h.uuid));
	h.feature_bits = w->opts.feature_bits;
	h.lnc_size = w->opts.lnc_size ? w->opts.lnc_size : 1;
	const uint8_t *payload = b.p + NXP_NEFF_HEADER_SIZE;
	if (h.pkg_version == 1) {
		SHA2_CTX c;
		SHA256Init(&c);
		SHA256Update(&c, payload, (size_t)h.data_size);
		SHA256Final(h.hash, &c);
	} else {
		MD5_CTX c;
		MD5Init(&c);
		MD5Update(&c, payload, (size_t)h.data_size);
		MD5Final(h.hash, &c);
	}
	neff_header_encode(&h, b.p);
	*data = b.p;
	*len = b.len;
	return NXP_OK;
}

int nxp_neff_writer_save(nxp_neff_writer *w, const char *path)
{
	if (!w)
		return NXP_E_INVAL;
	if (!path)
		return wfail(w, NXP_E_INVAL, "nxp_neff_writer_save: NULL path");
	void *data;
	size_t len;
	int rc = nxp_neff_writer_save_memory(w, &data, &len);
	if (rc)
		return rc;
	FILE *f = fopen(path, "wb");
	if (!f) {
		rc = wfail(w, NXP_E_IO, "%s: %s", path, strerror(errno));
		free(data);
		return rc;
	}
	int ok = fwrite(data, 1, len, f) == len;
	int saved = errno;
	if (fclose(f) != 0 && ok) {
		ok = 0;
		saved = errno;
	}
	free(data);
	return ok ? NXP_OK : wfail(w, NXP_E_IO, "%s: %s", path, strerror(saved));
}

int nxp_neff_writer_error(const nxp_neff_writer *w, nxp_status *st)
{
	if (!w)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_neff_writer_error: NULL handle");
	return nxp_status_copy(st, &w->err);
}
