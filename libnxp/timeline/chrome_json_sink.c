/* SPDX-License-Identifier: MIT */
/* Timeline sink: Chrome trace-event JSON ({"traceEvents":[...]}), plain or
 * gzip'd through zlib.  Slices are complete events ("X"), instants "i",
 * counters "C", track names and order "M" metadata, flows "s"/"f".  Times are
 * microseconds written as exact decimals from the integer nanoseconds
 * (1605887123 ns -> 1605887.123), never through a double. */
#include "timeline_priv.h"

#include "status.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define CJ_BUF (256u * 1024u)

typedef struct cj_track {
	uint64_t uuid;
	int32_t pid, tid;
	char *name;
} cj_track;

typedef struct cj_sink {
	tl_sink base;
	int fd;
	gzFile gz;
	unsigned char *buf;
	size_t len;
	int64_t written;
	int any;
	cj_track *tracks; /* open addressing on uuid */
	size_t cap, count;
} cj_sink;

static int cj_flush(cj_sink *s)
{
	if (!s->len)
		return 0;
	if (s->gz) {
		if (gzwrite(s->gz, s->buf, (unsigned)s->len) != (int)s->len) {
			int e;
			const char *m = gzerror(s->gz, &e);
			return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s",
					e == Z_ERRNO ? strerror(errno) : m);
		}
	} else {
		size_t off = 0;
		while (off < s->len) {
			ssize_t n = write(s->fd, s->buf + off, s->len - off);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s",
						strerror(errno));
			}
			off += (size_t)n;
		}
		s->written += (int64_t)s->len;
	}
	s->len = 0;
	return 0;
}

/* Room for n more bytes (n <= CJ_BUF / 2). */
static int cj_room(cj_sink *s, size_t n)
{
	return s->len + n > CJ_BUF ? cj_flush(s) : 0;
}

static int cj_raw(cj_sink *s, const char *p, size_t n)
{
	while (n) {
		int rc = cj_room(s, 1);
		if (rc)
			return rc;
		size_t k = CJ_BUF - s->len < n ? CJ_BUF - s->len : n;
		memcpy(s->buf + s->len, p, k);
		s->len += k;
		p += k;
		n -= k;
	}
	return 0;
}

static int cj_str(cj_sink *s, const char *p)
{
	return cj_raw(s, p, strlen(p));
}

static int cj_fmt(cj_sink *s, const char *fmt, ...) NXP_PRINTF(2, 3);
static int cj_fmt(cj_sink *s, const char *fmt, ...)
{
	int rc = cj_room(s, 128);
	if (rc)
		return rc;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf((char *)s->buf + s->len, 128, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->len += (size_t)(n < 128 ? n : 127);
	return 0;
}

/* Length of a valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	unsigned v = c & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string literal; invalid UTF-8 becomes U+FFFD so the file always loads. */
static int cj_json_string(cj_sink *s, const char *str)
{
	const unsigned char *p = (const unsigned char *)(str ? str : "");
	int rc = cj_raw(s, "\"", 1);
	while (!rc && *p) {
		rc = cj_room(s, 8);
		if (rc)
			break;
		unsigned char c = *p;
		if (c == '"' || c == '\\') {
			s->buf[s->len++] = '\\';
			s->buf[s->len++] = c;
			p++;
		} else if (c < 0x20) {
			s->len += (size_t)snprintf((char *)s->buf + s->len, 8, "\\u%04x", c);
			p++;
		} else {
			size_t n = utf8_len(p);
			if (!n) {
				memcpy(s->buf + s->len, "\\ufffd", 6);
				s->len += 6;
				p++;
			} else {
				memcpy(s->buf + s->len, p, n);
				s->len += n;
				p += n;
			}
		}
	}
	return rc ? rc : cj_raw(s, "\"", 1);
}

/* ns as an exact decimal number of microseconds. */
static int cj_us(cj_sink *s, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	return cj_fmt(s, "%s%llu.%03u", ns < 0 ? "-" : "", (unsigned long long)(a / 1000), (unsigned)(a % 1000));
}

static int cj_double(cj_sink *s, double d)
{
	if (!isfinite(d))
		return cj_str(s, "null");
	return cj_fmt(s, "%.17g", d);
}

static int cj_begin(cj_sink *s)
{
	int rc = cj_str(s, s->any ? ",\n" : "{\"traceEvents\":[\n");
	s->any = 1;
	return rc;
}

static const cj_track *cj_find(const cj_sink *s, uint64_t uuid)
{
	if (!s->cap)
		return NULL;
	size_t j = (size_t)(uuid * 0x9e3779b97f4a7c15ull) & (s->cap - 1);
	while (s->tracks[j].uuid) {
		if (s->tracks[j].uuid == uuid)
			return &s->tracks[j];
		j = (j + 1) & (s->cap - 1);
	}
	return NULL;
}

static int cj_add(cj_sink *s, const tl_track *t)
{
	if ((s->count + 1) * 2 > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		cj_track *n = calloc(ncap, sizeof(*n));
		if (!n)
			return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->tracks[i].uuid)
				continue;
			size_t j = (size_t)(s->tracks[i].uuid * 0x9e3779b97f4a7c15ull) & (ncap - 1);
			while (n[j].uuid)
				j = (j + 1) & (ncap - 1);
			n[j] = s->tracks[i];
		}
		free(s->tracks);
		s->tracks = n;
		s->cap = ncap;
	}
	size_t j = (size_t)(t->uuid * 0x9e3779b97f4a7c15ull) & (s->cap - 1);
	while (s->tracks[j].uuid)
		j = (j + 1) & (s->cap - 1);
	char *name = strdup(t->name ? t->name : "");
	if (!name)
		return nxp__error_set(s->base.st, NXP_E_NOMEM, -1, "out of memory");
	s->tracks[j].uuid = t->uuid;
	s->tracks[j].pid = t->pid;
	s->tracks[j].tid = t->tid;
	s->tracks[j].name = name;
	s->count++;
	return 0;
}

static int cj_track_fn(tl_sink *base, const tl_track *t)
{
	cj_sink *s = (cj_sink *)base;
	int rc = cj_add(s, t);
	if (rc)
		return rc;
	if (t->kind == TL_TRACK_COUNTER)
		return 0; /* a counter is named by its "C" events */
	int proc = t->kind == TL_TRACK_PROCESS;
	rc = cj_begin(s);
	if (!rc)
		rc = cj_fmt(s, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
			    proc ? "process_name" : "thread_name", (int)t->pid, (int)t->tid);
	if (!rc)
		rc = cj_json_string(s, t->name);
	if (!rc)
		rc = cj_str(s, "}}");
	if (!rc)
		rc = cj_begin(s);
	if (!rc)
		rc = cj_fmt(s, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
			    proc ? "process_sort_index" : "thread_sort_index", (int)t->pid, (int)t->tid,
			    (int)t->rank);
	return rc;
}

static int cj_args(cj_sink *s, const tl_arg *args, size_t n)
{
	int rc = cj_str(s, ",\"args\":{");
	for (size_t i = 0; !rc && i < n; i++) {
		if (i)
			rc = cj_raw(s, ",", 1);
		if (!rc)
			rc = cj_json_string(s, args[i].name);
		if (!rc)
			rc = cj_raw(s, ":", 1);
		if (rc)
			break;
		switch (args[i].type) {
		case TL_ARG_INT:
			rc = cj_fmt(s, "%lld", (long long)args[i].i);
			break;
		case TL_ARG_DOUBLE:
			rc = cj_double(s, args[i].d);
			break;
		default:
			rc = cj_json_string(s, args[i].s);
		}
	}
	return rc ? rc : cj_raw(s, "}", 1);
}

static int cj_flow(cj_sink *s, const cj_track *t, int64_t ts, uint64_t id, int out)
{
	int rc = cj_begin(s);
	if (!rc)
		rc = cj_fmt(s, "{\"ph\":\"%s\",\"cat\":\"flow\",\"name\":\"flow\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":",
			    out ? "s" : "f\",\"bp\":\"e", (unsigned long long)id, (int)t->pid, (int)t->tid);
	if (!rc)
		rc = cj_us(s, ts);
	return rc ? rc : cj_raw(s, "}", 1);
}

static int cj_event(tl_sink *base, const tl_event *e)
{
	cj_sink *s = (cj_sink *)base;
	const cj_track *t = cj_find(s, e->track);
	if (!t)
		return nxp__error_set(s->base.st, NXP_E_INVAL, -1, "timeline: event on an undeclared track");
	int rc = cj_begin(s);
	if (!rc)
		rc = cj_fmt(s, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"name\":", e->dur < 0 ? "i\",\"s\":\"t" : "X",
			    (int)t->pid, (int)t->tid);
	if (!rc)
		rc = cj_json_string(s, e->name);
	if (!rc)
		rc = cj_str(s, ",\"ts\":");
	if (!rc)
		rc = cj_us(s, e->ts);
	if (!rc && e->dur >= 0) {
		rc = cj_str(s, ",\"dur\":");
		if (!rc)
			rc = cj_us(s, e->dur);
	}
	if (!rc && e->nargs)
		rc = cj_args(s, e->args, e->nargs);
	if (!rc)
		rc = cj_raw(s, "}", 1);
	for (size_t i = 0; !rc && i < e->nflow_out; i++)
		rc = cj_flow(s, t, e->ts, e->flow_out[i], 1);
	for (size_t i = 0; !rc && i < e->nflow_in; i++)
		rc = cj_flow(s, t, e->ts, e->flow_in[i], 0);
	return rc;
}

static int cj_counter(tl_sink *base, uint64_t track, int64_t ts, double value)
{
	cj_sink *s = (cj_sink *)base;
	const cj_track *t = cj_find(s, track);
	if (!t)
		return nxp__error_set(s->base.st, NXP_E_INVAL, -1, "timeline: counter on an undeclared track");
	int rc = cj_begin(s);
	if (!rc)
		rc = cj_fmt(s, "{\"ph\":\"C\",\"pid\":%d,\"name\":", (int)t->pid);
	if (!rc)
		rc = cj_json_string(s, t->name);
	if (!rc)
		rc = cj_str(s, ",\"ts\":");
	if (!rc)
		rc = cj_us(s, ts);
	if (!rc)
		rc = cj_str(s, ",\"args\":{\"value\":");
	if (!rc)
		rc = cj_double(s, value);
	return rc ? rc : cj_str(s, "}}");
}

static int cj_finish(tl_sink *base, int64_t *bytes)
{
	cj_sink *s = (cj_sink *)base;
	int rc = cj_str(s, s->any ? "\n],\"displayTimeUnit\":\"ns\"}\n" : "{\"traceEvents\":[],\"displayTimeUnit\":\"ns\"}\n");
	if (!rc)
		rc = cj_flush(s);
	if (rc)
		return rc;
	if (s->gz) {
		gzFile gz = s->gz;
		s->gz = NULL;
		int e = gzclose(gz);
		s->fd = -1; /* gzclose closed it */
		if (e != Z_OK)
			return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s",
					e == Z_ERRNO ? strerror(errno) : "zlib error");
		*bytes = -1; /* the caller stats the file */
		return 0;
	}
	int fd = s->fd;
	s->fd = -1;
	if (close(fd))
		return nxp__error_set(s->base.st, NXP_E_IO, -1, "cannot write the trace: %s", strerror(errno));
	*bytes = s->written;
	return 0;
}

static void cj_destroy(tl_sink *base)
{
	cj_sink *s = (cj_sink *)base;
	if (!s)
		return;
	if (s->gz)
		gzclose(s->gz);
	else if (s->fd >= 0)
		close(s->fd);
	for (size_t i = 0; i < s->cap; i++)
		free(s->tracks[i].name);
	free(s->tracks);
	free(s->buf);
	free(s);
}

int nxp__chrome_json_sink_open(tl_sink **out, int fd, int gzip, nxp_status *st)
{
	cj_sink *s = calloc(1, sizeof(*s));
	if (s)
		s->buf = malloc(CJ_BUF);
	if (!s || !s->buf) {
		free(s);
		close(fd);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	s->fd = fd;
	if (gzip) {
		s->gz = gzdopen(fd, "wb6");
		if (!s->gz) {
			free(s->buf);
			free(s);
			close(fd);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "cannot start gzip compression");
		}
	}
	s->base.track = cj_track_fn;
	s->base.event = cj_event;
	s->base.counter = cj_counter;
	s->base.finish = cj_finish;
	s->base.destroy = cj_destroy;
	s->base.st = st;
	*out = &s->base;
	return 0;
}
