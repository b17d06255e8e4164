/* SPDX-License-Identifier: MIT */
/*
 * The NEFF payload: one streaming pass of libarchive over the gzip'd or plain
 * tar that follows the header.  libarchive pulls bytes through a read callback
 * over the nxp_source, which also feeds the digest, so the hash check costs no
 * second pass and a sequential source works.  Nothing is extracted: only the
 * members the manifests need are read into memory, everything else is skipped,
 * and every inflated block is checked against the limits (a gzip bomb is
 * refused after a bounded amount of work).
 */
#include "neff_priv.h"

#include <archive.h>
#include <archive_entry.h>
#include <md5.h>
#include <sha2.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define WALK_BLOCK 65536

enum { DIGEST_NONE, DIGEST_MD5, DIGEST_SHA256 };

typedef struct walk {
	nxp_neff *n;
	nxp_source *src;
	uint64_t remaining; /* payload bytes not yet handed to libarchive */
	uint64_t consumed;  /* payload bytes handed to libarchive (compressed) */
	int io_error;
	int short_payload;  /* the source ended before data_size bytes */
	int digest;
	MD5_CTX md5;
	SHA2_CTX sha;
	uint8_t first[2];
	size_t nfirst;
	int gzip;
	uint8_t buf[WALK_BLOCK];
	uint8_t scratch[WALK_BLOCK];
} walk;

static void walk_digest(walk *w, const uint8_t *p, size_t len)
{
	if (w->digest == DIGEST_MD5)
		MD5Update(&w->md5, p, len);
	else if (w->digest == DIGEST_SHA256)
		SHA256Update(&w->sha, p, len);
}

static la_ssize_t walk_read(struct archive *a, void *user, const void **out)
{
	walk *w = user;
	*out = w->buf;
	if (!w->remaining)
		return 0;
	size_t want = w->remaining < WALK_BLOCK ? (size_t)w->remaining : WALK_BLOCK;
	size_t got = 0;
	if (nxp_src_read(w->src, w->buf, want, &got) != NXP_OK) {
		w->io_error = 1;
		archive_set_error(a, EIO, "read error");
		return -1;
	}
	if (!got) {
		w->short_payload = 1;
		return 0;
	}
	for (size_t i = 0; w->nfirst < 2 && i < got; i++)
		w->first[w->nfirst++] = w->buf[i];
	walk_digest(w, w->buf, got);
	w->consumed += got;
	w->remaining -= got;
	return (la_ssize_t)got;
}

/* Only installed when nothing needs to see every byte (no hash) and the source
 * can seek: skipping a plain tar's weights then costs nothing. */
static la_int64_t walk_skip(struct archive *a, void *user, la_int64_t request)
{
	(void)a;
	walk *w = user;
	uint64_t n = request > 0 ? (uint64_t)request : 0;
	if (n > w->remaining)
		n = w->remaining;
	if (!n || nxp_src_seek(w->src, w->src->pos + n) != NXP_OK)
		return 0; /* libarchive falls back to reading */
	w->consumed += n;
	w->remaining -= n;
	return (la_int64_t)n;
}

int neff_path_normalise(const char *in, char **out)
{
	*out = NULL;
	if (in[0] == '/')
		return NXP_E_UNSAFE_PATH;
	while (in[0] == '.' && in[1] == '/') {
		in += 2;
		while (*in == '/')
			in++;
	}
	if (!strcmp(in, "."))
		in = "";
	size_t len = strlen(in);
	while (len && in[len - 1] == '/')
		len--;
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && in[j] != '/')
			j++;
		if (j - i == 2 && in[i] == '.' && in[i + 1] == '.')
			return NXP_E_UNSAFE_PATH;
		i = j + 1;
	}
	char *s = malloc(len + 1);
	if (!s)
		return NXP_E_NOMEM;
	memcpy(s, in, len);
	s[len] = '\0';
	*out = s;
	return NXP_OK;
}

neff_member *neff_member_find(nxp_neff *n, const char *name)
{
	for (size_t i = 0; i < n->nmembers; i++)
		if (!strcmp(n->members[i].name, name))
			return &n->members[i];
	return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* Members read into memory: the top-level manifests, and the .json / .bin
 * files below the top level (sgNN/def.json, the engine binaries, ...) except
 * debug_info/.  Tar order is arbitrary, so this is decided by name alone. */
static int want_member(const char *name)
{
	const char *slash = strchr(name, '/');
	if (!slash)
		return (!strncmp(name, "kelf-", 5) && ends_with(name, ".json")) || !strcmp(name, "neff.json") ||
		       !strcmp(name, "hlo_stats.json");
	if (!strncmp(name, "debug_info/", 11))
		return 0;
	const char *base = strrchr(name, '/') + 1;
	if (!strcmp(base, "kernel_debug_info.json"))
		return 0;
	return ends_with(name, ".json") || ends_with(name, ".bin");
}

static int is_kernel_debug_info(const char *name)
{
	const char *slash = strrchr(name, '/');
	return !strcmp(slash ? slash + 1 : name, "kernel_debug_info.json");
}

/* Payload errors: the file offset up to which the payload has been consumed
 * (compressed bytes, so an upper bound of where the fault is). */
static int64_t err_offset(const walk *w)
{
	return NXP_NEFF_HEADER_SIZE + (int64_t)w->consumed;
}

static int mentions_compression(const char *msg)
{
	static const char *const words[] = {"gzip", "ompress", "inflate", "deflate", "zlib", "CRC"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(msg, words[i]))
			return 1;
	return 0;
}

/* Map a libarchive failure to one of our codes. */
static int archive_failure(walk *w, struct archive *a, const char *member)
{
	nxp_neff *n = w->n;
	const char *msg = archive_error_string(a);
	if (!msg)
		msg = "unknown archive error";
	char where[300] = "";
	if (member)
		snprintf(where, sizeof(where), " (member %s)", member);
	if (w->io_error)
		return neff_fail(n, NXP_E_IO, err_offset(w), "read error in the NEFF payload%s", where);
	if (w->short_payload)
		return neff_fail(n, NXP_E_TRUNCATED, err_offset(w),
				 "NEFF payload truncated: input ends after %llu of %llu bytes%s",
				 (unsigned long long)w->consumed, (unsigned long long)n->hdr.data_size, where);
	if (w->gzip && (archive_filter_code(a, 0) != ARCHIVE_FILTER_GZIP || mentions_compression(msg)))
		return neff_fail(n, NXP_E_COMPRESSION, err_offset(w), "corrupt gzip payload%s: %s", where, msg);
	if (strstr(msg, "runcated"))
		return neff_fail(n, NXP_E_TRUNCATED, err_offset(w), "NEFF archive truncated%s: %s", where, msg);
	return neff_fail(n, NXP_E_FORMAT, err_offset(w), "bad tar payload%s: %s", where, msg);
}

/* Limits on inflation, checked after every block so a bomb stops early. */
static int check_inflation(walk *w, struct archive *a, const char *member)
{
	if (!w->gzip)
		return NXP_OK;
	nxp_neff *n = w->n;
	la_int64_t inflated = archive_filter_bytes(a, 0);
	if (inflated < 0)
		return NXP_OK;
	uint64_t inf = (uint64_t)inflated;
	if (inf > n->lim.max_total_inflated)
		return neff_fail(n, NXP_E_LIMIT, err_offset(w),
				 "payload inflates past max_total_inflated (%llu bytes) in member %s",
				 (unsigned long long)n->lim.max_total_inflated, member);
	if (inf > NEFF_RATIO_CHECK_AFTER && w->consumed && inf / w->consumed >= n->lim.max_inflation_ratio)
		return neff_fail(n, NXP_E_LIMIT, err_offset(w),
				 "payload inflation ratio over max_inflation_ratio %u:1 (%llu bytes from %llu) in member %s",
				 n->lim.max_inflation_ratio, (unsigned long long)inf, (unsigned long long)w->consumed,
				 member);
	return NXP_OK;
}

static int discard_member(walk *w, struct archive *a, const char *member)
{
	if (!w->gzip) {
		if (archive_read_data_skip(a) != ARCHIVE_OK)
			return archive_failure(w, a, member);
		return NXP_OK;
	}
	for (;;) {
		la_ssize_t r = archive_read_data(a, w->scratch, WALK_BLOCK);
		if (r < 0)
			return archive_failure(w, a, member);
		if (r == 0)
			return NXP_OK;
		int rc = check_inflation(w, a, member);
		if (rc)
			return rc;
	}
}

static int read_member(walk *w, struct archive *a, struct archive_entry *e, const char *member, int64_t off,
		       uint8_t **data, size_t *len)
{
	nxp_neff *n = w->n;
	int is_json = ends_with(member, ".json");
	uint64_t limit = n->lim.max_member_size;
	const char *which = "max_member_size";
	if (is_json && n->lim.max_json_size < limit) {
		limit = n->lim.max_json_size;
		which = "max_json_size";
	}
	int64_t esize = archive_entry_size_is_set(e) ? archive_entry_size(e) : -1;
	if (esize > 0 && (uint64_t)esize > limit)
		return neff_fail(n, NXP_E_LIMIT, off, "member %s is %lld bytes, over %s (%llu)", member,
				 (long long)esize, which, (unsigned long long)limit);
	size_t cap = esize > 0 ? (size_t)esize : 4096, used = 0;
	uint8_t *buf = malloc(cap);
	if (!buf)
		return neff_fail(n, NXP_E_NOMEM, off, "out of memory for member %s", member);
	for (;;) {
		if (used == cap) {
			if (used >= limit) {
				free(buf);
				return neff_fail(n, NXP_E_LIMIT, off, "member %s is over %s (%llu)", member, which,
						 (unsigned long long)limit);
			}
			size_t ncap = cap * 2 < limit ? cap * 2 : (size_t)limit;
			uint8_t *t = realloc(buf, ncap);
			if (!t) {
				free(buf);
				return neff_fail(n, NXP_E_NOMEM, off, "out of memory for member %s", member);
			}
			buf = t;
			cap = ncap;
		}
		size_t want = cap - used < WALK_BLOCK ? cap - used : WALK_BLOCK;
		la_ssize_t r = archive_read_data(a, buf + used, want);
		if (r < 0) {
			free(buf);
			return archive_failure(w, a, member);
		}
		if (r == 0)
			break;
		used += (size_t)r;
		int rc = check_inflation(w, a, member);
		if (rc) {
			free(buf);
			return rc;
		}
	}
	*data = buf;
	*len = used;
	return NXP_OK;
}

/* Keep a member; a later member of the same name replaces an earlier one (tar
 * semantics).  Takes ownership of name and data. */
static int keep_member(nxp_neff *n, char *name, uint8_t *data, size_t len, int64_t off)
{
	neff_member *m = neff_member_find(n, name);
	if (m) {
		free(name);
		free(m->data);
		m->data = data;
		m->len = len;
		m->offset = off;
		return NXP_OK;
	}
	if (n->nmembers == n->members_cap) {
		size_t ncap = n->members_cap ? n->members_cap * 2 : 16;
		neff_member *t = realloc(n->members, ncap * sizeof(*t));
		if (!t) {
			free(name);
			free(data);
			return neff_fail(n, NXP_E_NOMEM, off, "out of memory");
		}
		n->members = t;
		n->members_cap = ncap;
	}
	n->members[n->nmembers++] = (neff_member){name, data, len, off};
	return NXP_OK;
}

static int walk_entries(walk *w, struct archive *a)
{
	nxp_neff *n = w->n;
	uint64_t count = 0;
	for (;;) {
		struct archive_entry *e;
		int r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF)
			return NXP_OK;
		if (r == ARCHIVE_WARN)
			n->warnings++;
		else if (r != ARCHIVE_OK)
			return archive_failure(w, a, NULL);
		if (++count > n->lim.max_members)
			return neff_fail(n, NXP_E_LIMIT, err_offset(w), "archive has more than max_members (%u) members",
					 n->lim.max_members);
		int64_t off = w->gzip ? err_offset(w) : NXP_NEFF_HEADER_SIZE + archive_read_header_position(a);
		const char *raw = archive_entry_pathname(e);
		if (!raw)
			return neff_fail(n, NXP_E_FORMAT, off, "archive member without a readable name");
		char *name;
		int rc = neff_path_normalise(raw, &name);
		if (rc == NXP_E_UNSAFE_PATH)
			return neff_fail(n, rc, off, "unsafe archive member name \"%s\" (absolute or \"..\")", raw);
		if (rc)
			return neff_fail(n, rc, off, "out of memory");
		if (archive_entry_filetype(e) != AE_IFREG || !name[0] || !want_member(name)) {
			if (archive_entry_filetype(e) == AE_IFREG && is_kernel_debug_info(name))
				n->has_kernel_debug_info = 1;
			rc = discard_member(w, a, name);
			free(name);
			if (rc)
				return rc;
			continue;
		}
		uint8_t *data = NULL;
		size_t len = 0;
		rc = read_member(w, a, e, name, off, &data, &len);
		if (rc) {
			free(name);
			return rc;
		}
		rc = keep_member(n, name, data, len, off);
		if (rc)
			return rc;
	}
}

/* After the archive: the bytes libarchive did not need (tar padding, gzip
 * trailer) still belong to the digest. */
static int finish_digest(walk *w)
{
	nxp_neff *n = w->n;
	while (w->remaining) {
		size_t want = w->remaining < WALK_BLOCK ? (size_t)w->remaining : WALK_BLOCK, got = 0;
		if (nxp_src_read(w->src, w->buf, want, &got) != NXP_OK)
			return neff_fail(n, NXP_E_IO, err_offset(w), "read error in the NEFF payload");
		if (!got)
			return neff_fail(n, NXP_E_TRUNCATED, err_offset(w),
					 "NEFF payload truncated: input ends after %llu of %llu bytes",
					 (unsigned long long)w->consumed, (unsigned long long)n->hdr.data_size);
		walk_digest(w, w->buf, got);
		w->consumed += got;
		w->remaining -= got;
	}
	uint8_t d[32];
	size_t dlen;
	const char *algo;
	if (w->digest == DIGEST_MD5) {
		MD5Final(d, &w->md5);
		dlen = 16;
		algo = "MD5";
	} else {
		SHA256Final(d, &w->sha);
		dlen = 32;
		algo = "SHA-256";
	}
	if (memcmp(d, n->hdr.hash, dlen)) {
		char want_hex[65], got_hex[65];
		nxp_hex(n->hdr.hash, dlen, want_hex);
		nxp_hex(d, dlen, got_hex);
		return neff_fail(n, NXP_E_HASH, NEFF_OFF_HASH, "payload %s mismatch: header has %s, payload is %s",
				 algo, want_hex, got_hex);
	}
	n->hdr.hash_verified = 1;
	return NXP_OK;
}

int neff_archive_walk(nxp_neff *n)
{
	walk *w = calloc(1, sizeof(*w));
	if (!w)
		return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
	w->n = n;
	w->src = n->src;
	w->remaining = n->hdr.data_size;
	if (n->lim.flags & NXP_NEFF_VERIFY_HASH) {
		w->digest = n->hdr.pkg_version == 1 ? DIGEST_SHA256 : DIGEST_MD5;
		if (w->digest == DIGEST_MD5)
			MD5Init(&w->md5);
		else
			SHA256Init(&w->sha);
	}
	struct archive *a = archive_read_new();
	if (!a) {
		free(w);
		return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
	}
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_none(a);
	archive_read_support_format_tar(a);
	archive_read_set_read_callback(a, walk_read);
	archive_read_set_callback_data(a, w);
	if (!w->digest && n->src->seekable)
		archive_read_set_skip_callback(a, walk_skip);
	int rc;
	int r = archive_read_open1(a);
	w->gzip = w->nfirst == 2 && w->first[0] == 0x1f && w->first[1] == 0x8b;
	n->hdr.payload_gzip = w->gzip;
	if (r != ARCHIVE_OK)
		rc = archive_failure(w, a, NULL);
	else
		rc = walk_entries(w, a);
	archive_read_free(a);
	if (!rc && w->digest)
		rc = finish_digest(w);
	free(w);
	return rc;
}
