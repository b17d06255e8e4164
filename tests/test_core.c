/* SPDX-License-Identifier: MIT */
/* Core: version, errors, status, byte sources. */
#include "source.h"
#include "status.h"
#include "system_priv.h"
#include "testutil.h"

#include <nxp/neff.h>

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_version)
{
	ck_assert_uint_eq(nxp_version_number(), NXP_VERSION_NUMBER);
	ck_assert_str_eq(nxp_version_string(), NXP_VERSION_STRING);
}
END_TEST

START_TEST(test_strerror)
{
	/* Pinned numbers: these must never change. */
	ck_assert_int_eq(NXP_END, 1);
	ck_assert_int_eq(NXP_E_INVAL, -1);
	ck_assert_int_eq(NXP_E_MISMATCH, -10);
	ck_assert_int_eq(NXP_E_PROTOBUF, -17);
	for (int c = NXP_E_PROTOBUF; c <= NXP_END; c++)
		ck_assert_str_ne(nxp_strerror(c), "unknown error");
	ck_assert_str_eq(nxp_strerror(-9999), "unknown error");
}
END_TEST

START_TEST(test_status_short_struct)
{
	/* An older caller's status with a 16-byte message: truncated, NUL-terminated. */
	struct {
		size_t struct_size;
		int code;
		int64_t offset;
		char message[16];
	} small;
	small.struct_size = sizeof(small);
	int rc = nxp__error_set((nxp_status *)&small, NXP_E_FORMAT, 42, "a long message that does not fit");
	ck_assert_int_eq(rc, NXP_E_FORMAT);
	ck_assert_int_eq(small.code, NXP_E_FORMAT);
	ck_assert_int_eq(small.offset, 42);
	ck_assert_uint_eq(strlen(small.message), 15);
	ck_assert_int_eq(nxp__error_set(NULL, NXP_E_IO, 0, "x"), NXP_E_IO);
}
END_TEST

static void read_all_check(nxp_source *s, const char *expect, size_t n)
{
	char buf[64];
	size_t got;
	ck_assert_int_eq(nxp_src_read(s, buf, sizeof(buf), &got), NXP_OK);
	ck_assert_uint_eq(got, n);
	ck_assert_int_eq(memcmp(buf, expect, n), 0);
	ck_assert_int_eq(nxp_src_read(s, buf, sizeof(buf), &got), NXP_OK);
	ck_assert_uint_eq(got, 0);
}

START_TEST(test_sources)
{
	static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	size_t n = sizeof(text) - 1;
	nxp_source *s;
	nxp_status st;
	nxp_status_init(&st);

	ck_assert_int_eq(nxp_source_open_memory(&s, text, n, &st), NXP_OK);
	ck_assert_int_eq(nxp_source_size(s), (int64_t)n);
	ck_assert_int_eq(nxp_source_seekable(s), 1);
	read_all_check(s, text, n);
	ck_assert_ptr_eq(nxp_src_map(s, 10, 5), (const uint8_t *)text + 10);
	ck_assert_ptr_null(nxp_src_map(s, 30, 10));
	nxp_source_close(s);

	s = tu_chunky_source(text, n, 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(nxp_source_seekable(s), 0);
	ck_assert_int_eq(nxp_src_seek(s, 5), NXP_OK); /* forward skip on a sequential source */
	read_all_check(s, text + 5, n - 5);
	ck_assert_int_eq(nxp_src_seek(s, 0), NXP_E_UNSUPPORTED);
	nxp_source_close(s);

	s = tu_chunky_source(text, n, 1);
	char buf[8];
	size_t got;
	ck_assert_int_eq(nxp_src_pread(s, 20, buf, 8, &got), NXP_OK);
	ck_assert_uint_eq(got, 8);
	ck_assert_int_eq(memcmp(buf, text + 20, 8), 0);
	ck_assert_int_eq(nxp_src_pread(s, 2, buf, 3, &got), NXP_OK);
	ck_assert_int_eq(memcmp(buf, text + 2, 3), 0);
	nxp_source_close(s);

	char *dir = tu_tmpdir();
	char *path = tu_path(dir, "f.bin");
	ck_assert_int_eq(tu_write_file(path, text, n), 0);
	ck_assert_int_eq(nxp_source_open_path(&s, path, &st), NXP_OK);
	ck_assert_int_eq(nxp_source_size(s), (int64_t)n);
	read_all_check(s, text, n);
	nxp_source_close(s);

	int fd = open(path, O_RDONLY);
	ck_assert_int_eq(nxp_source_open_fd(&s, fd, &st), NXP_OK);
	read_all_check(s, text, n);
	nxp_source_close(s);
	ck_assert_int_ne(fcntl(fd, F_GETFD), -1); /* caller's fd stays open */
	close(fd);

	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], text, n), (ssize_t)n);
	close(p[1]);
	ck_assert_int_eq(nxp_source_open_fd(&s, p[0], &st), NXP_OK);
	ck_assert_int_eq(nxp_source_seekable(s), 0);
	read_all_check(s, text, n);
	nxp_source_close(s);
	close(p[0]);

	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_source_misuse)
{
	nxp_source *s = (nxp_source *)1;
	nxp_status st;
	nxp_status_init(&st);
	ck_assert_int_eq(nxp_source_open_path(&s, "/nonexistent/nxp/file", &st), NXP_E_IO);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(st.message, "/nonexistent/nxp/file"));
	ck_assert_int_eq(nxp_source_open_path(NULL, "x", &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_source_open_memory(&s, NULL, 5, &st), NXP_E_INVAL);
	ck_assert_int_eq(nxp_source_open_fd(&s, -1, &st), NXP_E_INVAL);
	nxp_source_callbacks cb;
	nxp_source_callbacks_init(&cb);
	ck_assert_int_eq(nxp_source_open_callbacks(&s, &cb, NULL, &st), NXP_E_INVAL);
	cb.struct_size = 4; /* short struct */
	ck_assert_int_eq(nxp_source_open_callbacks(&s, &cb, NULL, &st), NXP_E_INVAL);
	nxp_source_close(NULL);
	ck_assert_int_eq(nxp_source_size(NULL), -1);
}
END_TEST

/* The generated "Operation(N)" / "func(N)" tables and the JSON escape test
 * give what the 256-entry literal tables gave (entries 0, 127, 255 pinned). */
START_TEST(test_generated_tables)
{
	ck_assert_int_eq(nxp_opcode_from_name("Operation(0)"), 0);
	ck_assert_int_eq(nxp_opcode_from_name("Operation(127)"), 127);
	ck_assert_int_eq(nxp_opcode_from_name("operation(255)"), 255);
	ck_assert_int_eq(nxp_opcode_from_name("Operation(00)"), -1);
	uint8_t raw[NXP_NEFF_INSTRUCTION_SIZE] = {0};
	nxp_neff_instruction in = {.struct_size = sizeof(in)};
	raw[0] = 0x21; /* ACTIVATE */
	raw[1] = 16;   /* inst_word_len */
	for (unsigned f = 10; f < 256; f++) {
		char want[32];
		snprintf(want, sizeof(want), "func(%u)", f);
		raw[15] = (uint8_t)f;
		ck_assert_int_eq(nxp_instruction_decode(raw, sizeof(raw), NXP_ENGINE_SCALAR, &in, NULL, 0), NXP_OK);
		ck_assert_str_eq(in.opcode, "ACTIVATE");
		ck_assert_str_eq(in.scalar_activation_fn, want);
	}
	sbuf b = {0};
	const char in_s[] = {0, 0x1f, ' ', '"', '\\', 0x7f, (char)0x80, (char)0xff, '\n'};
	sb_json_str(&b, in_s, sizeof(in_s));
	ck_assert_str_eq(sb_cstr(&b), "\"\\u0000\\u001f \\\"\\\\\x7f\x80\xff\\n\"");
	sb_free(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_status_short_struct);
	tcase_add_test(tc, test_sources);
	tcase_add_test(tc, test_source_misuse);
	tcase_add_test(tc, test_generated_tables);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
