/* SPDX-License-Identifier: MIT */
/* Timeline export: a fuzzed NTFF (paired with the fixture NEFF) exported with
 * nxp_profile_export_timeline() to a file in a per-process /dev/shm directory,
 * then read back and checked: Perfetto output is a sequence of well-formed
 * `packet` fields (1, length-delimited) that each unpack as a TracePacket;
 * Chrome JSON (plain or gzip'd) parses with jansson as {"traceEvents":[...]}
 * whose events are objects with a "ph" string.  stats.bytes is the file's
 * size, stats.events stays within max_events, and a failed export leaves no
 * file (nor temporary file) behind.  Work per input is bounded by max_events.
 * Input: [flags] [max_events] [engine/execution] [window] [u64 start] [u64 end]
 *        [ctl] [NTFF bytes...]
 * flags bit 0: SKIP_CRC; bit 1: Chrome JSON (else Perfetto); bit 2: gzip (JSON);
 *       bit 3: one engine (byte 2 % engines); bit 4: execution (byte 2 >> 4);
 *       bit 5: time window [start, end); bit 6: counter window = 1000 * (1 + byte 3). */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include "perfetto_trace.pb-c.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static volatile uint64_t sink;
static const char *dir, *path; /* fz_out_dir */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	fz_out_dir("timeline", "out", &dir, &path);
	return 0;
}

static uint8_t *slurp(int gz, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap + 1);
	FZ_CHECK(b != NULL, "oom");
	if (gz) {
		gzFile f = gzopen(path, "rb");
		FZ_CHECK(f != NULL, "cannot gzopen the export");
		for (;;) {
			if (n == cap) {
				cap *= 2;
				b = realloc(b, cap + 1);
				FZ_CHECK(b != NULL, "oom");
			}
			int r = gzread(f, b + n, (unsigned)(cap - n));
			int e = 0;
			FZ_CHECK(r >= 0, "gzip export does not decompress: %s", gzerror(f, &e));
			if (r == 0)
				break;
			n += (size_t)r;
		}
		int e;
		gzerror(f, &e);
		FZ_CHECK(e == Z_OK || e == Z_BUF_ERROR, "gzip stream error %d", e);
		gzclose(f);
	} else {
		FILE *f = fopen(path, "rb");
		FZ_CHECK(f != NULL, "cannot open the export");
		for (;;) {
			if (n == cap) {
				cap *= 2;
				b = realloc(b, cap + 1);
				FZ_CHECK(b != NULL, "oom");
			}
			size_t r = fread(b + n, 1, cap - n, f);
			if (r == 0)
				break;
			n += r;
		}
		fclose(f);
	}
	b[n] = 0;
	*len = n;
	return b;
}

static int get_varint(const uint8_t *b, size_t n, size_t *at, uint64_t *v)
{
	*v = 0;
	for (unsigned sh = 0; sh < 64; sh += 7) {
		if (*at >= n)
			return -1;
		uint8_t c = b[(*at)++];
		*v |= (uint64_t)(c & 0x7f) << sh;
		if (!(c & 0x80))
			return 0;
	}
	return -1;
}

static void check_perfetto(const uint8_t *b, size_t n)
{
	size_t at = 0, packets = 0;
	while (at < n) {
		uint64_t tag, len;
		size_t here = at;
		FZ_CHECK(get_varint(b, n, &at, &tag) == 0, "bad packet tag varint at %zu of %zu", here, n);
		FZ_CHECK(tag == 0x0a, "top-level tag 0x%llx at %zu (want field 1, length-delimited)",
			 (unsigned long long)tag, here);
		FZ_CHECK(get_varint(b, n, &at, &len) == 0, "bad packet length varint at %zu", here);
		FZ_CHECK(len <= n - at, "packet at %zu: length %llu past the end (%zu left)", here,
			 (unsigned long long)len, n - at);
		Perfetto__Protos__TracePacket *pk = perfetto__protos__trace_packet__unpack(NULL, len, b + at);
		FZ_CHECK(pk != NULL, "packet at %zu (%llu bytes) does not unpack", here, (unsigned long long)len);
		sink += pk->timestamp;
		perfetto__protos__trace_packet__free_unpacked(pk, NULL);
		at += len;
		packets++;
	}
	FZ_CHECK(packets > 0 || n == 0, "no packets");
}

static void check_chrome(const uint8_t *b, size_t n)
{
	json_error_t je;
	json_t *root = json_loadb((const char *)b, n, 0, &je);
	FZ_CHECK(root != NULL, "Chrome JSON does not parse: %s (line %d col %d, pos %d)", je.text, je.line,
		 je.column, je.position);
	FZ_CHECK(json_is_object(root), "root is not an object");
	json_t *ev = json_object_get(root, "traceEvents");
	FZ_CHECK(json_is_array(ev), "no traceEvents array");
	size_t i;
	json_t *e;
	json_array_foreach(ev, i, e) {
		FZ_CHECK(json_is_object(e), "event %zu is not an object", i);
		json_t *ph = json_object_get(e, "ph");
		FZ_CHECK(json_is_string(ph), "event %zu has no ph", i);
		const char *s = json_string_value(ph);
		FZ_CHECK(strchr("XiCMsfBEIe", s[0]) && s[0], "event %zu: ph \"%s\"", i, s);
		json_t *ts = json_object_get(e, "ts");
		FZ_CHECK(ts == NULL || json_is_number(ts), "event %zu: ts not a number", i);
	}
	json_decref(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t flags = fz_take_u8(&in), maxb = fz_take_u8(&in), sel = fz_take_u8(&in), win = fz_take_u8(&in);
	int64_t start = (int64_t)fz_take_u64(&in), end = (int64_t)fz_take_u64(&in);
	nxp_profile_options popts;
	nxp_profile_options_init(&popts);
	if (flags & 1)
		popts.flags |= NXP_PROFILE_SKIP_CRC;
	fz_fixture_pair fx;
	if (fz_fixture_pair_open(&fx, &in, &popts, NULL) != NXP_OK)
		goto out;
	nxp_profile *p = fx.p;

	nxp_timeline_options o;
	nxp_timeline_options_init(&o);
	int json = (flags & 2) != 0, gz = json && (flags & 4);
	o.format = json ? NXP_TIMELINE_CHROME_JSON : NXP_TIMELINE_PERFETTO;
	o.gzip = gz;
	o.overwrite = 1;
	o.max_events = 1 + 4 * (int64_t)maxb;
	if (flags & 8)
		o.engine = sel % NXP_ENGINE_COUNT;
	if (flags & 16)
		o.execution = sel >> 4;
	if (flags & 32) {
		o.start_ts = start;
		o.end_ts = end;
	}
	if (flags & 64)
		o.counter_window_ns = 1000 * (1 + (int64_t)win);
	nxp_timeline_stats ts;
	memset(&ts, 0, sizeof(ts));
	ts.struct_size = sizeof(ts);
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_export_timeline(p, path, &o, &ts, &st);
	if (rc != NXP_OK) {
		fz_check_error(rc, &st, UINT64_MAX, "export_timeline");
		/* timeline.h: a table whose cursor fails (at open or later) is
		 * noted in the file and the export succeeds, so the only errors
		 * are a bad option (NXP_E_INVAL: execution N not in what could be
		 * read), NXP_E_NOMEM, and NXP_E_IO about the output file
		 * (fuzz/crashes/README.md, timeline/cursor-open-read-error). */
		FZ_CHECK(rc == NXP_E_INVAL || rc == NXP_E_NOMEM || (rc == NXP_E_IO && strstr(st.message, dir)),
			 "export failed on the input: %s (%s)", nxp_strerror(rc), st.message);
		FZ_CHECK(!(rc == NXP_E_IO && strstr(st.message, dir)), "I/O error writing to %s: %s", dir,
			 st.message);
		FZ_CHECK(fz_dir_entries(dir) == 0, "a failed export left a file behind");
		goto out;
	}
	FZ_CHECK(fz_dir_entries(dir) == 1, "%d files after an export", fz_dir_entries(dir));
	FZ_CHECK(ts.events >= 0 && ts.events <= o.max_events, "events %lld, max_events %lld", (long long)ts.events,
		 (long long)o.max_events);
	FZ_CHECK(ts.truncated == 0 || ts.events == o.max_events, "truncated at %lld events of %lld",
		 (long long)ts.events, (long long)o.max_events);
	struct stat sb;
	FZ_CHECK(stat(path, &sb) == 0, "no file after a successful export");
	FZ_CHECK(ts.bytes == (int64_t)sb.st_size, "stats.bytes %lld, file %lld", (long long)ts.bytes,
		 (long long)sb.st_size);
	size_t n;
	uint8_t *b = slurp(gz, &n);
	if (json)
		check_chrome(b, n);
	else
		check_perfetto(b, n);
	free(b);
	unlink(path);
out:
	fz_fixture_pair_close(&fx);
	return 0;
}
