/* SPDX-License-Identifier: MIT */
/* Internal interface of the system-profile module: the buffered (optionally
 * gzip'd) input layer, a small growable string buffer, the per-file row readers
 * behind the public nxp_system_events cursor, and option defaults. */
#ifndef NXP_SYSTEM_PRIV_H
#define NXP_SYSTEM_PRIV_H

#include <nxp/nxp.h>

#include "status.h"

#include <stdint.h>
#include <zlib.h>

/* Option defaults (0 in an option means these). */
#define SYS_DEFAULT_MAX_MESSAGE (16u << 20)
#define SYS_DEFAULT_MAX_JSON_EVENT (16u << 20)
#define SYS_DEFAULT_MAX_JSON_DEPTH 64u
#define SYS_DEFAULT_MAX_PENDING (1u << 20)
#define SYS_DEFAULT_MAX_SYNC_POINTS (1u << 20)

/* Options with every default applied; `instance_id` never NULL.  The handle
 * that resolved them owns a copy of the caller's instance_id (`own`); readers
 * given a sys_opts by value only borrow it. */
typedef struct sys_opts {
	uint32_t flags;
	uint64_t max_message;
	uint64_t max_json_event;
	uint32_t max_json_depth;
	uint32_t max_pending;
	const char *instance_id;
	char *own;
} sys_opts;

/* Fill `o` from caller options (NULL = defaults), copying the instance_id
 * string.  NXP_E_INVAL on a short struct, NXP_E_NOMEM; `o` needs
 * sys_opts_free() only after success. */
int sys_opts_resolve(sys_opts *o, const nxp_system_options *in);
void sys_opts_free(sys_opts *o);

/* ---- input: buffered bytes from a source, inflating gzip transparently ---- */
#define SYSIN_BUF (64u << 10)

typedef struct sysin {
	nxp_source *src;
	uint8_t *buf;          /* decompressed window */
	size_t pos, len;       /* next byte, bytes valid */
	uint64_t off;          /* logical (decompressed) offset of buf[0] */
	uint64_t start;        /* source offset where the stream starts (for rewind) */
	int gzip;
	int zdone;             /* inflate reached the end of all members */
	int src_eof;
	z_stream *z;           /* heap: zlib points back at it */
	uint8_t *raw;          /* compressed input buffer (gzip only) */
} sysin;

/* Start reading `src` at its current position; detects gzip (1f 8b) when
 * `detect_gzip`.  Errors: NXP_E_NOMEM, NXP_E_IO, NXP_E_COMPRESSION. */
int sysin_open(sysin *in, nxp_source *src, int detect_gzip, nxp_status *st);
void sysin_close(sysin *in);
/* Make at least one more byte available: 0, NXP_END at end of input, or an error. */
int sysin_fill(sysin *in, nxp_status *st);
/* Logical offset of the next byte. */
static inline uint64_t sysin_tell(const sysin *in)
{
	return in->off + in->pos;
}
/* Copy exactly n bytes (NXP_E_TRUNCATED with the offset when input ends first). */
int sysin_read(sysin *in, void *dst, size_t n, nxp_status *st);
/* Discard n bytes (NXP_E_TRUNCATED when input ends first). */
int sysin_skip(sysin *in, uint64_t n, nxp_status *st);
/* Restart from the beginning (seekable sources only: NXP_E_UNSUPPORTED otherwise). */
int sysin_rewind(sysin *in, nxp_status *st);

/* ---- growable string ---- */
typedef struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
} sbuf;
void sb_reset(sbuf *b);
void sb_free(sbuf *b);
void sb_put(sbuf *b, const char *s, size_t n);
void sb_puts(sbuf *b, const char *s);
void sb_printf(sbuf *b, const char *fmt, ...) NXP_PRINTF(2, 3);
/* Append s (n bytes) as a JSON string literal with quotes. */
void sb_json_str(sbuf *b, const char *s, size_t n);
/* Decimal text of v written backwards ending at `end` (NUL included); returns
 * its start.  The buffer before `end` must hold 21 bytes. */
char *sb_u64(char *end, uint64_t v);
/* NUL-terminated contents ("" when empty). */
const char *sb_cstr(sbuf *b);
/* Copy of a NUL-terminated string into malloc'ed storage, or NULL. */
char *sys_strdup(const char *s);

/* trace_event_source values: rows point at these, so the cursor counts them
 * by address. */
extern const char sys_src_framework[], sys_src_rt[], sys_src_hw[];

/* ---- per-file row readers behind nxp_system_events ---- */
typedef struct sysrd {
	/* 0 with *ev filled (strings valid until the next call), NXP_END, or error. */
	int (*next)(struct sysrd *r, nxp_system_event *ev, nxp_status *st);
	void (*free)(struct sysrd *r);
	int64_t bytes_read;
	int64_t skipped;
	int64_t base_time_ns;
	int64_t peak_pending;
} sysrd;

/* ntrace.pb rows (pairing START/STOP by tracking_id unless NXP_SYSTEM_NO_PAIRING).
 * `in` (opened with sysin_open) is moved into the reader, also on error. */
int ntrace_reader_open(sysrd **out, sysin *in, const sys_opts *o, nxp_status *st);
/* trace.json / trace.json.gz rows; `in` is moved into the reader. */
int json_reader_open(sysrd **out, sysin *in, const sys_opts *o, nxp_status *st);
/* Guess the kind of an opened input from its first buffered bytes:
 * NXP_SYSFILE_TRACE_JSON when the first non-blank byte is '{' or '[', else
 * NXP_SYSFILE_NTRACE. */
int sys_sniff_kind(const sysin *in);

/* Decimal number text s[0..n) times 10^scale, rounded half to even to an
 * integer, exactly (trace_json_reader.c): 0 with *out set, 1 not a number,
 * 2 outside int64 (*out unchanged). */
int sys_decimal_to_i64(const char *s, size_t n, int scale, int64_t *out);

/* Cursor over a list of files (paths and per-file instance ids copied). */
int sys_events_open_files(nxp_system_events **out, const char *const *paths, const char *const *instance_ids,
			  size_t n, const nxp_system_options *opts, nxp_status *st);

/* Fill an ISO-8601 UTC string for Unix ns (out >= 40 bytes). */
void sys_iso_time(int64_t ns, char *out, size_t size);

/* The NXP_SYSFILE_* kind a capture's file name stands for (the reference
 * tool's names: ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb,
 * *trace.json[.gz], *.neff, *.ntff), 0 for another name.  `base` has no '/'. */
int sys_kind_of_name(const char *base);

#endif
