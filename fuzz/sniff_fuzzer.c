/* SPDX-License-Identifier: MIT */
/* File-kind sniffing: nxp_file_kind_detect_buffer() over fuzzed bytes (copied
 * to a buffer of exactly the length passed, so ASan sees any over-read), with
 * the total size known, unknown, larger or smaller than the head.  Checks: the
 * result is one of the kinds a buffer can have (never DIRECTORY or STREAM),
 * EMPTY exactly for zero bytes, the same on a second call, named by
 * nxp_file_kind_name(); the total size only changes the protobuf decision;
 * and, for a whole input of at most 4 KiB written to a /dev/shm file,
 * nxp_file_kind_detect() agrees.
 * Input: [mode] [bytes...]
 * mode bits 0-1: total size = len, -1, len + 1 + byte, 0; bit 2: only the
 *      first (mode >> 3) * len / 32 bytes as the head; bit 3 (whole inputs):
 *      compare with nxp_file_kind_detect on a file. */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile uint64_t sink;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "/dev/shm/nxp-fz-sniff-%ld", (long)getpid());
	return 0;
}

static int detect(const uint8_t *h, size_t len, int64_t total)
{
	int kind = -1;
	int rc = nxp_file_kind_detect_buffer(h, len, total, &kind);
	FZ_CHECK(rc == NXP_OK, "detect_buffer(%zu bytes, total %lld): %d", len, (long long)total, rc);
	FZ_CHECK(kind >= NXP_FILE_UNKNOWN && kind <= NXP_FILE_PROTOBUF && kind != NXP_FILE_DIRECTORY,
		 "kind %d", kind);
	FZ_CHECK((kind == NXP_FILE_EMPTY) == (len == 0), "kind %d for %zu bytes", kind, len);
	const char *name = nxp_file_kind_name(kind);
	FZ_CHECK(name && name[0], "kind %d has no name", kind);
	sink += fz_touch(name);
	return kind;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t mode = fz_take_u8(&in);
	size_t len = in.size;
	if (mode & 4)
		len = len * (mode >> 3) / 32;
	uint8_t *h = malloc(len ? len : 1);
	if (!h)
		return 0;
	if (len)
		memcpy(h, in.data, len);
	int64_t total;
	switch (mode & 3) {
	case 0: total = (int64_t)in.size; break;
	case 1: total = -1; break;
	case 2: total = (int64_t)in.size + 1 + (mode >> 2); break;
	default: total = 0; break;
	}
	int k = detect(len ? h : NULL, len, total);
	FZ_CHECK(detect(h, len, total) == k, "a second call differs");
	int whole = detect(h, len, (int64_t)len), part = detect(h, len, -1);
	if (k != NXP_FILE_PROTOBUF && k != NXP_FILE_UNKNOWN)
		FZ_CHECK(whole == k && part == k, "kind %d changes with the total size (%d whole, %d part)", k,
			 whole, part);
	else
		FZ_CHECK((whole == NXP_FILE_PROTOBUF || whole == NXP_FILE_UNKNOWN) &&
				 (part == NXP_FILE_PROTOBUF || part == NXP_FILE_UNKNOWN),
			 "kind %d, then %d whole and %d part", k, whole, part);
	FZ_CHECK(nxp_file_kind_detect_buffer(NULL, 1, 1, &k) == NXP_E_INVAL, "NULL head accepted");
	FZ_CHECK(nxp_file_kind_detect_buffer(h, len, total, NULL) == NXP_E_INVAL, "NULL kind accepted");

	if ((mode & 8) && len == in.size && len <= 4096) {
		FILE *f = fopen(path, "wb");
		if (f) {
			int ok = (len == 0 || fwrite(h, 1, len, f) == len);
			ok &= fclose(f) == 0;
			if (ok) {
				nxp_status st;
				nxp_status_init(&st);
				int fk = -1;
				FZ_CHECK(nxp_file_kind_detect(path, &fk, &st) == NXP_OK, "detect(file): %s", st.message);
				FZ_CHECK(fk == whole, "file kind %d, buffer kind %d (%zu bytes)", fk, whole, len);
			}
			unlink(path);
		}
	}
	free(h);
	return 0;
}
