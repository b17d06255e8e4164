/* SPDX-License-Identifier: MIT */
/* HTML report: a fuzzed NTFF (paired with the fixture NEFF) written with
 * nxp_profile_write_report() to a file in a per-process /dev/shm directory
 * (fuzzed columns, DMA rows, opcode count, analysis on/off, and a title with
 * markup in it), read back and checked: stats.bytes is the file's size, the
 * page is one HTML document (starts with <!DOCTYPE html>, ends with </html>),
 * holds no NUL byte, no <script and not the raw title (it must be escaped);
 * a failed write leaves no file (nor temporary file) behind.
 * Input: [flags] [columns] [dma rows] [top opcodes] [ctl] [NTFF bytes...]
 * flags bit 0: SKIP_CRC; bit 1: analysis off; bit 2: title; bit 3: columns
 * 100 + 16 * byte 1 (else default). */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile uint64_t sink;
static const char *dir, *path; /* fz_out_dir */

#define TITLE "<script>x</script>&\"'"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_fixture_init();
	fz_out_dir("report", "out.html", &dir, &path);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	uint8_t flags = fz_take_u8(&in), cols = fz_take_u8(&in), dmar = fz_take_u8(&in), top = fz_take_u8(&in);
	nxp_profile_options popts;
	nxp_profile_options_init(&popts);
	if (flags & 1)
		popts.flags |= NXP_PROFILE_SKIP_CRC;
	fz_fixture_pair fx;
	if (fz_fixture_pair_open(&fx, &in, &popts, NULL) != NXP_OK)
		goto out;
	nxp_profile *p = fx.p;

	nxp_report_options o;
	nxp_report_options_init(&o);
	o.overwrite = 1;
	o.analysis = !(flags & 2);
	if (flags & 4)
		o.title = TITLE;
	if (flags & 8)
		o.columns = 100 + 16 * (int32_t)cols;
	o.max_dma_rows = dmar & 31;
	o.top_opcodes = top & 31;
	nxp_report_stats rs;
	memset(&rs, 0, sizeof(rs));
	rs.struct_size = sizeof(rs);
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_profile_write_report(p, path, &o, &rs, &st);
	if (rc != NXP_OK) {
		fz_check_error(rc, &st, UINT64_MAX, "write_report");
		FZ_CHECK(rc != NXP_E_IO, "I/O error writing to %s: %s", dir, st.message);
		FZ_CHECK(fz_dir_entries(dir) == 0, "a failed report left a file behind");
		goto out;
	}
	FZ_CHECK(fz_dir_entries(dir) == 1, "%d files after a report", fz_dir_entries(dir));
	FZ_CHECK(rs.critical_path_status <= 0 && rs.insights_status <= 0, "statuses %d %d",
		 rs.critical_path_status, rs.insights_status);
	FZ_CHECK(rs.insight_count >= 0 && rs.read_errors >= 0 && rs.bad_records >= 0, "negative counts");
	FILE *f = fopen(path, "rb");
	FZ_CHECK(f != NULL, "no file after a successful report");
	struct stat sb;
	FZ_CHECK(fstat(fileno(f), &sb) == 0, "stat");
	FZ_CHECK(rs.bytes == (int64_t)sb.st_size, "stats.bytes %lld, file %lld", (long long)rs.bytes,
		 (long long)sb.st_size);
	FZ_CHECK(sb.st_size < (64 << 20), "a %lld-byte report", (long long)sb.st_size);
	size_t n = (size_t)sb.st_size;
	char *b = malloc(n + 1);
	FZ_CHECK(b && fread(b, 1, n, f) == n, "cannot read the report back");
	fclose(f);
	b[n] = 0;
	FZ_CHECK(strlen(b) == n, "NUL byte at %zu of the page", strlen(b));
	FZ_CHECK(!strncmp(b, "<!DOCTYPE html>", 15), "page starts with %.20s", b);
	const char *end = "</html>";
	const char *tail = b + n;
	while (tail > b && (tail[-1] == '\n' || tail[-1] == ' '))
		tail--;
	FZ_CHECK((size_t)(tail - b) >= strlen(end) && !strncmp(tail - strlen(end), end, strlen(end)),
		 "page does not end with </html>");
	FZ_CHECK(!strstr(b, "<script"), "the page holds <script (unescaped title or profile string)");
	for (size_t i = 0; i < n; i++)
		sink += (uint8_t)b[i];
	free(b);
	unlink(path);
out:
	fz_fixture_pair_close(&fx);
	return 0;
}
