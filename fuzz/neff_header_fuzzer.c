/* SPDX-License-Identifier: MIT */
/* nxp_neff_parse_header: the pure 1024-byte header decoder.
 * Input: [mode] [header bytes...].  `mode` chooses the file size passed in
 * (the real length, unknown, smaller or larger) and the caller's struct size
 * (full, or the 0.1 minimum), so the size-versioned copy-out is fuzzed too. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t mode = fz_take_u8(&in);
	int64_t file_size;
	switch (mode & 3) {
	case 0: file_size = (int64_t)in.size; break;
	case 1: file_size = -1; break;
	case 2: file_size = (int64_t)(in.size / 2); break;
	default: file_size = INT64_MAX; break;
	}
	/* Exact-size heap copy so ASan catches any read past `len`. */
	uint8_t *buf = malloc(in.size ? in.size : 1);
	if (!buf)
		return 0;
	if (in.size)
		memcpy(buf, in.data, in.size);
	nxp_neff_header h;
	memset(&h, 0xa5, sizeof(h));
	h.struct_size = (mode & 4) ? offsetof(nxp_neff_header, payload_gzip) : sizeof(h);
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_neff_parse_header(buf, in.size, file_size, &h, &st);
	if (rc == NXP_OK) {
		if (st.code != 0)
			abort(); /* success must leave the status clear */
		if (h.build_version[sizeof(h.build_version) - 1] != '\0' || h.name[sizeof(h.name) - 1] != '\0')
			abort(); /* strings must be terminated */
		if (h.header_size != NXP_NEFF_HEADER_SIZE)
			abort();
	} else {
		/* Every failure carries its code, a message and an offset. */
		fz_check_error(rc, &st, in.size, "nxp_neff_parse_header");
	}
	free(buf);
	return 0;
}
