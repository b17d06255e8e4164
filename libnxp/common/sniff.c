/* SPDX-License-Identifier: MIT */
/* Recognising an input by its first bytes (nxp_file_kind_detect), so that a
 * tool can say "x.ntff is an NTFF trace, not a NEFF" instead of a decoder's
 * complaint about a field that only means something in the other format. */
#define _GNU_SOURCE
#include "status.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Bytes looked at: enough for the NEFF fields, the NTFF magic, the start of a
 * gzip stream and a few protobuf fields. */
#define SNIFF_HEAD 4096

/* The NEFF has no magic: its first two header fields (pkg_version 1 or 2,
 * header_size 1024) are what identifies it (doc/formats/neff.md). */
static int is_neff(const uint8_t *p, size_t n)
{
	if (n < 16)
		return 0;
	uint64_t pkg = 0, hsize = 0;
	for (int i = 7; i >= 0; i--) {
		pkg = pkg << 8 | p[i];
		hsize = hsize << 8 | p[8 + i];
	}
	return (pkg == 1 || pkg == 2) && hsize == 1024;
}

/* libnxp's NTFF layout magic (libnxp/ntff/ntff_layout.h, doc/formats/ntff.md). */
static int is_ntff(const uint8_t *p, size_t n)
{
	return n >= 8 && memcmp(p, "NXPNTFF\0", 8) == 0;
}

/* JSON text: optional UTF-8 byte-order mark and white space, then an object or
 * an array. */
static int is_json(const uint8_t *p, size_t n)
{
	size_t i = 0;
	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3;
	for (; i < n; i++) {
		if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')
			continue;
		return p[i] == '{' || p[i] == '[';
	}
	return 0;
}

static int is_gzip(const uint8_t *p, size_t n)
{
	return n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

/* The first bytes a gzip'd head inflates to (as far as `n` input bytes go). */
static size_t gunzip_head(const uint8_t *p, size_t n, uint8_t *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int rc = inflate(&z, Z_SYNC_FLUSH);
	size_t got = cap - z.avail_out;
	inflateEnd(&z);
	return rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR ? got : 0;
}

/* Read a base-128 varint at p[*i]; 1 = read, 0 = ran out of bytes, -1 = too long. */
static int varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (*i >= n)
			return 0;
		uint8_t b = p[(*i)++];
		*v |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
		if (!(b & 0x80))
			return 1;
	}
	return -1;
}

/* Walk protobuf fields over p[0, n).  `whole` = p holds the whole message, so
 * it must end exactly at n; otherwise running out of bytes mid-field is fine.
 * Returns the number of fields read, or -1 when the bytes are not wire format. */
static long pb_walk(const uint8_t *p, size_t n, int whole)
{
	size_t i = 0;
	long fields = 0;
	while (i < n) {
		uint64_t tag, v;
		int r = varint(p, n, &i, &tag);
		if (r <= 0)
			return r == 0 && !whole ? fields : -1;
		uint64_t field = tag >> 3;
		if (field == 0 || field > 0x1fffffff)
			return -1;
		switch (tag & 7) {
		case 0:
			r = varint(p, n, &i, &v);
			if (r <= 0)
				return r == 0 && !whole ? fields : -1;
			break;
		case 1:
		case 5: {
			size_t w = (tag & 7) == 1 ? 8 : 4;
			if (n - i < w)
				return whole ? -1 : fields;
			i += w;
			break;
		}
		case 2:
			r = varint(p, n, &i, &v);
			if (r <= 0)
				return r == 0 && !whole ? fields : -1;
			if (v > n - i)
				return whole ? -1 : fields;
			i += (size_t)v;
			break;
		default: /* groups (3, 4) are not used by any of the schemas; 6, 7 do not exist */
			return -1;
		}
		fields++;
	}
	return fields;
}

/* One message, or a stream of length-delimited messages. */
static int is_protobuf(const uint8_t *p, size_t n, int whole)
{
	if (pb_walk(p, n, whole) > 0)
		return 1;
	size_t i = 0;
	long msgs = 0, fields = 0;
	while (i < n) {
		uint64_t len;
		int r = varint(p, n, &i, &len);
		if (r < 0 || (r == 0 && whole))
			return 0;
		if (r == 0)
			break;
		size_t avail = n - i;
		int complete = len <= avail;
		long f = pb_walk(p + i, complete ? (size_t)len : avail, complete || whole);
		if (f < 0 || (!complete && whole))
			return 0;
		fields += f;
		msgs++;
		if (!complete)
			break;
		i += (size_t)len;
	}
	return msgs > 0 && fields > 0;
}

static int kind_of_head(const uint8_t *p, size_t n, int whole)
{
	if (n == 0)
		return NXP_FILE_EMPTY;
	if (is_ntff(p, n))
		return NXP_FILE_NTFF;
	if (is_neff(p, n))
		return NXP_FILE_NEFF;
	if (is_json(p, n))
		return NXP_FILE_JSON;
	if (is_gzip(p, n)) {
		uint8_t buf[512];
		size_t got = gunzip_head(p, n, buf, sizeof(buf));
		return is_json(buf, got) ? NXP_FILE_JSON_GZIP : NXP_FILE_GZIP;
	}
	if (is_protobuf(p, n, whole))
		return NXP_FILE_PROTOBUF;
	return NXP_FILE_UNKNOWN;
}

int nxp_file_kind_detect_buffer(const void *head, size_t len, int64_t total_size, int *kind)
{
	if (!kind || (!head && len))
		return NXP_E_INVAL;
	int whole = total_size >= 0 && (uint64_t)total_size <= len;
	*kind = kind_of_head(head, len, whole);
	return NXP_OK;
}

int nxp_file_kind_detect(const char *path, int *kind, nxp_status *st)
{
	if (!path || !kind)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_file_kind_detect: NULL argument");
	struct stat sb;
	if (stat(path, &sb) != 0)
		return nxp__error_set(st, NXP_E_IO, -1, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode)) {
		*kind = NXP_FILE_DIRECTORY;
		return NXP_OK;
	}
	/* Reading a pipe or socket would take bytes its reader needs. */
	if (!S_ISREG(sb.st_mode) && !S_ISCHR(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		*kind = NXP_FILE_STREAM;
		return NXP_OK;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC | (S_ISREG(sb.st_mode) ? 0 : O_NONBLOCK));
	if (fd < 0)
		return nxp__error_set(st, NXP_E_IO, -1, "%s: %s", path, strerror(errno));
	uint8_t head[SNIFF_HEAD];
	size_t n = 0;
	int err = 0;
	while (n < sizeof(head)) {
		ssize_t r = read(fd, head + n, sizeof(head) - n);
		if (r > 0) {
			n += (size_t)r;
		} else if (r == 0) {
			break;
		} else if (errno != EINTR) {
			err = errno;
			break;
		}
		if (!S_ISREG(sb.st_mode) && r > 0)
			break; /* a device: one read is all we take */
	}
	close(fd);
	if (err == EAGAIN || err == EWOULDBLOCK) {
		*kind = NXP_FILE_STREAM; /* a terminal or similar with nothing to read yet */
		return NXP_OK;
	}
	if (err)
		return nxp__error_set(st, NXP_E_IO, 0, "%s: %s", path, strerror(err));
	int whole = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size <= n : n == 0;
	*kind = kind_of_head(head, n, whole);
	return NXP_OK;
}

const char *nxp_file_kind_name(int kind)
{
	switch (kind) {
	case NXP_FILE_EMPTY: return "an empty file";
	case NXP_FILE_DIRECTORY: return "a directory";
	case NXP_FILE_NEFF: return "a NEFF";
	case NXP_FILE_NTFF: return "an NTFF trace";
	case NXP_FILE_JSON: return "JSON text";
	case NXP_FILE_JSON_GZIP: return "gzip'd JSON text";
	case NXP_FILE_GZIP: return "gzip data";
	case NXP_FILE_PROTOBUF: return "a protobuf file (.pb)";
	case NXP_FILE_STREAM: return "a pipe or device";
	}
	return "unrecognised data";
}
