/* SPDX-License-Identifier: MIT */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint8_t fz_take_u8(fz_input *in)
{
	if (in->size == 0)
		return 0;
	uint8_t b = in->data[0];
	in->data++;
	in->size--;
	return b;
}

uint32_t fz_take_u32(fz_input *in)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < 4; i++)
		v |= (uint32_t)fz_take_u8(in) << (8 * i);
	return v;
}

uint64_t fz_take_u64(fz_input *in)
{
	uint64_t lo = fz_take_u32(in);
	uint64_t hi = fz_take_u32(in);
	return lo | hi << 32;
}

struct fz_src {
	const uint8_t *data;
	size_t size, pos;
	uint8_t ctl;
	unsigned turn;
	uint32_t rng;
	size_t fail_at, fail_end; /* reads in [fail_at, fail_end) fail; fail_at SIZE_MAX: never */
};

static size_t chunk_len(struct fz_src *s, size_t want)
{
	static const size_t primes[] = {1, 2, 3, 5, 7, 11, 13};
	size_t n = want;
	switch (s->ctl & FZ_CTL_CHUNK_MASK) {
	case FZ_CHUNK_ONE:
		n = 1;
		break;
	case FZ_CHUNK_PRIMES:
		n = primes[s->turn % (sizeof(primes) / sizeof(primes[0]))];
		break;
	case FZ_CHUNK_4K:
		n = 4096;
		break;
	case FZ_CHUNK_ODD:
		n = (s->turn & 1) ? 1 : 4095;
		break;
	case FZ_CHUNK_RANDOM:
		s->rng = s->rng * 1103515245u + 12345u;
		n = 1 + ((s->rng >> 16) & 63);
		break;
	case FZ_CHUNK_HALF:
		n = want / 2 ? want / 2 : 1;
		break;
	default:
		break;
	}
	s->turn++;
	return n < want ? n : want;
}

static int64_t fz_read(void *user, void *buf, size_t len)
{
	struct fz_src *s = user;
	if (s->pos >= s->fail_at && s->pos < s->fail_end)
		return -1;
	size_t n = chunk_len(s, len);
	if (n > s->size - s->pos)
		n = s->size - s->pos;
	if (s->pos < s->fail_at && n > s->fail_at - s->pos) /* stop at the bad region */
		n = s->fail_at - s->pos;
	if (n)
		memcpy(buf, s->data + s->pos, n);
	s->pos += n;
	return (int64_t)n;
}

static int fz_seek(void *user, uint64_t off)
{
	struct fz_src *s = user;
	if (off > s->size)
		return -1;
	s->pos = (size_t)off;
	return 0;
}

static int64_t fz_size(void *user)
{
	return (int64_t)((struct fz_src *)user)->size;
}

static void fz_close(void *user)
{
	free(user);
}

nxp_source *fz_source_open(const uint8_t *data, size_t size, uint8_t ctl)
{
	nxp_source *src = NULL;
	if ((ctl & FZ_CTL_CHUNK_MASK) == FZ_CHUNK_MEMORY) {
		/* A zero-length memory source may legitimately get a NULL pointer. */
		static const uint8_t empty[1];
		if (nxp_source_open_memory(&src, size ? data : empty, size, NULL) != NXP_OK)
			return NULL;
		return src;
	}
	struct fz_src *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->data = data;
	s->size = size;
	s->ctl = ctl;
	s->rng = (uint32_t)size * 2654435761u;
	s->fail_at = s->fail_end = SIZE_MAX;
	if (ctl & FZ_CTL_IO_ERROR) {
		s->fail_at = (size_t)((uint64_t)size * (1u + (ctl >> 6)) / 5u);
		s->fail_end = s->fail_at + (size / 8 ? size / 8 : 1);
	}
	nxp_source_callbacks cb;
	nxp_source_callbacks_init(&cb);
	cb.read = fz_read;
	cb.seek = (ctl & FZ_CTL_SEEKABLE) ? fz_seek : NULL;
	cb.get_size = (ctl & FZ_CTL_NO_SIZE) ? NULL : fz_size;
	cb.close = fz_close;
	if (nxp_source_open_callbacks(&src, &cb, s, NULL) != NXP_OK) {
		free(s);
		return NULL;
	}
	return src;
}

nxp_source *fz_source_take_rest(fz_input *in)
{
	uint8_t ctl = fz_take_u8(in);
	nxp_source *src = fz_source_open(in->data, in->size, ctl);
	in->data += in->size;
	in->size = 0;
	return src;
}

uint64_t fz_sys_offset_bound(const fz_input *in)
{
	if (in->size < 1)
		return 0;
	const uint8_t *file = in->data + 1; /* after the chunk-pattern byte */
	size_t n = in->size - 1;
	return n >= 2 && file[0] == 0x1f && file[1] == 0x8b ? UINT64_MAX : n;
}

void fz_split_pair(const uint8_t *data, size_t size, fz_pair *out)
{
	fz_input in = {data, size};
	out->ctl_a = fz_take_u8(&in);
	out->ctl_b = fz_take_u8(&in);
	uint32_t a_len = fz_take_u32(&in);
	if (a_len > in.size)
		a_len = (uint32_t)in.size;
	out->a = in.data;
	out->a_size = a_len;
	out->b = in.data + a_len;
	out->b_size = in.size - a_len;
}

uint8_t *fz_frame_single(uint8_t ctl, const void *file, size_t len, size_t *out_len)
{
	uint8_t *buf = malloc(len + 1);
	if (!buf)
		return NULL;
	buf[0] = ctl;
	if (len)
		memcpy(buf + 1, file, len);
	*out_len = len + 1;
	return buf;
}

uint8_t *fz_frame_pair(uint8_t ctl_a, const void *a, size_t a_len, uint8_t ctl_b, const void *b, size_t b_len,
		       size_t *out_len)
{
	if (a_len > UINT32_MAX)
		return NULL;
	uint8_t *buf = malloc(6 + a_len + b_len);
	if (!buf)
		return NULL;
	buf[0] = ctl_a;
	buf[1] = ctl_b;
	for (unsigned i = 0; i < 4; i++)
		buf[2 + i] = (uint8_t)(a_len >> (8 * i));
	if (a_len)
		memcpy(buf + 6, a, a_len);
	if (b_len)
		memcpy(buf + 6 + a_len, b, b_len);
	*out_len = 6 + a_len + b_len;
	return buf;
}

size_t fz_touch(const char *s)
{
	if (!s)
		return 0;
	size_t h = 0;
	for (; *s; s++)
		h = h * 31 + (unsigned char)*s;
	return h;
}

void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: contract broken: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void fz_check_error(int rc, const nxp_status *st, uint64_t input_size, const char *what)
{
	FZ_CHECK(rc < 0, "%s: expected an error code, got %d", what, rc);
	FZ_CHECK(st->code == rc, "%s: returned %d but the status says %d", what, rc, st->code);
	FZ_CHECK(memchr(st->message, '\0', sizeof(st->message)) != NULL, "%s: unterminated message", what);
	FZ_CHECK(st->message[0] != '\0', "%s: error %d (%s) without a message", what, rc, nxp_strerror(rc));
	FZ_CHECK(st->offset >= -1 && (st->offset < 0 || (uint64_t)st->offset <= input_size),
		 "%s: error offset %lld outside the %llu-byte input (%s)", what, (long long)st->offset,
		 (unsigned long long)input_size, st->message);
}

size_t fz_drain_system_events(nxp_system_events *c)
{
	size_t sink = 0;
	nxp_system_event ev;
	int64_t rows = 0;
	int rc;
	for (;;) {
		memset(&ev, 0, sizeof(ev));
		ev.struct_size = sizeof(ev);
		rc = nxp_system_events_next(c, &ev);
		if (rc != NXP_OK)
			break;
		rows++;
		sink += fz_touch(ev.name) + fz_touch(ev.trace_event_source) + fz_touch(ev.instance_id) +
			fz_touch(ev.flow_id) + fz_touch(ev.framework_stream_id) + fz_touch(ev.extra_attributes_json) +
			fz_touch(ev.phase) + fz_touch(ev.category) + fz_touch(ev.pid) + fz_touch(ev.tid) +
			fz_touch(ev.process_name) + fz_touch(ev.thread_name) + fz_touch(ev.file) +
			(size_t)nxp_system_event_group(ev.name);
		if (ev.end_ts < ev.start_ts && !(ev.flags & (NXP_SYSEV_UNMATCHED_STOP | NXP_SYSEV_UNPAIRED)))
			sink++;
	}
	nxp_status est;
	nxp_status_init(&est);
	int ec = nxp_system_events_error(c, &est);
	if (rc < 0) {
		FZ_CHECK(ec == rc, "cursor error %d read back as %d", rc, ec);
		fz_check_error(rc, &est, UINT64_MAX, "nxp_system_events_next");
		FZ_CHECK(nxp_system_events_next(c, &ev) == rc, "cursor error %d is not sticky", rc);
	}
	nxp_system_stats stats;
	stats.struct_size = sizeof(stats);
	FZ_CHECK(nxp_system_events_get_stats(c, &stats) == NXP_OK && stats.events == rows,
		 "stats count %lld rows, %lld were returned", (long long)stats.events, (long long)rows);
	return sink;
}

size_t fz_system_events_run(nxp_source *src, int kind, const nxp_system_options *opts)
{
	nxp_status st;
	nxp_status_init(&st);
	nxp_system_events *c = NULL;
	size_t sink = 0;
	int rc = nxp_system_events_open(&c, src, kind, opts, &st);
	if (rc == NXP_OK)
		sink = fz_drain_system_events(c);
	else
		FZ_CHECK(c == NULL && rc < 0 && st.code == rc, "nxp_system_events_open: %d, status %d", rc, st.code);
	nxp_system_events_close(c);
	return sink;
}

size_t fz_record_size(int table)
{
	switch (table) {
	case NXP_TABLE_INSTRUCTION: return sizeof(nxp_instruction);
	case NXP_TABLE_DMA_PACKET: return sizeof(nxp_dma_packet);
	case NXP_TABLE_SEMAPHORE_UPDATE: return sizeof(nxp_semaphore_update);
	case NXP_TABLE_THROTTLE: return sizeof(nxp_throttle);
	case NXP_TABLE_ERROR: return sizeof(nxp_error_record);
	case NXP_TABLE_EXECUTION: return sizeof(nxp_execution);
	default: return sizeof(nxp_active_time);
	}
}

void fz_fixture_init(void)
{
	size_t len;
	if (!fz_fixture_neff_cached(&len))
		abort();
}

int fz_fixture_pair_open(fz_fixture_pair *o, fz_input *in, const nxp_profile_options *opts, nxp_status *st)
{
	o->p = NULL;
	o->neff = NULL;
	o->ntff = fz_source_take_rest(in);
	if (!o->ntff)
		return NXP_E_NOMEM;
	return fz_fixture_profile_open(&o->p, &o->neff, o->ntff, opts, st);
}

void fz_fixture_pair_close(fz_fixture_pair *o)
{
	nxp_profile_close(o->p);
	nxp_source_close(o->neff);
	nxp_source_close(o->ntff);
	o->p = NULL;
	o->neff = o->ntff = NULL;
}

static char out_dir[64], out_path[128];

static void out_cleanup(void)
{
	unlink(out_path);
	rmdir(out_dir);
}

void fz_out_dir(const char *harness, const char *file, const char **dir, const char **path)
{
	snprintf(out_dir, sizeof(out_dir), "/dev/shm/nxp-fz-%s-%ld", harness, (long)getpid());
	if (mkdir(out_dir, 0700) != 0) {
		snprintf(out_dir, sizeof(out_dir), "/tmp/nxp-fz-%s-%ld", harness, (long)getpid());
		mkdir(out_dir, 0700);
	}
	atexit(out_cleanup);
	snprintf(out_path, sizeof(out_path), "%s/%s", out_dir, file);
	*dir = out_dir;
	*path = out_path;
}

int fz_dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	FZ_CHECK(d != NULL, "cannot open %s", dir);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}
