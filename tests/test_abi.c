/* SPDX-License-Identifier: MIT */
/* The size rule for structs that cross the ABI (libnxp/common/abi_struct.c), with
 * shorter, first-published, current and longer caller sizes, a struct grown by an
 * appended field, and the first published sizes themselves. */
#include "abi_struct.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* The first published sizes are the 0.1 layout's (tests/abi_compat_0_1.c checks the
 * same numbers against the frozen 0.1 headers).  LP64 numbers; other ABIs get
 * their own values from the offsetof definitions. */
#if defined(__LP64__) || defined(_LP64)
_Static_assert(NXP_NEFF_OPTIONS_SIZE_V0_1 == 56, "nxp_neff_options first published size");
_Static_assert(NXP_NEFF_HEADER_SIZE_V0_1 == 580, "nxp_neff_header first published size");
_Static_assert(NXP_NEFF_SUBGRAPH_SIZE_V0_1 == 88, "nxp_neff_subgraph first published size");
_Static_assert(NXP_TENSOR_INFO_SIZE_V0_1 == 72, "nxp_tensor_info first published size");
_Static_assert(NXP_DMA_QUEUE_INFO_SIZE_V0_1 == 80, "nxp_dma_queue_info first published size");
_Static_assert(NXP_NEFF_INSTRUCTION_SIZE_V0_1 == 304, "nxp_neff_instruction first published size");
_Static_assert(NXP_NEFF_WRITER_OPTIONS_SIZE_V0_1 == 88, "nxp_neff_writer_options first published size");
_Static_assert(NXP_STATUS_SIZE_V0_1 == 280, "nxp_status first published size");
_Static_assert(NXP_SOURCE_CALLBACKS_SIZE_V0_1 == 40, "nxp_source_callbacks first published size");
_Static_assert(NXP_PROFILE_OPTIONS_SIZE_V0_1 == 32, "nxp_profile_options first published size");
_Static_assert(NXP_METADATA_SIZE_V0_1 == 344, "nxp_metadata first published size");
_Static_assert(NXP_INSTRUCTION_SIZE_V0_1 == 260, "nxp_instruction first published size");
_Static_assert(NXP_DMA_PACKET_SIZE_V0_1 == 168, "nxp_dma_packet first published size");
_Static_assert(NXP_SEMAPHORE_UPDATE_SIZE_V0_1 == 72, "nxp_semaphore_update first published size");
_Static_assert(NXP_THROTTLE_SIZE_V0_1 == 48, "nxp_throttle first published size");
_Static_assert(NXP_ERROR_RECORD_SIZE_V0_1 == 64, "nxp_error_record first published size");
_Static_assert(NXP_EXECUTION_SIZE_V0_1 == 64, "nxp_execution first published size");
_Static_assert(NXP_ACTIVE_TIME_SIZE_V0_1 == 56, "nxp_active_time first published size");
_Static_assert(NXP_CURSOR_OPTIONS_SIZE_V0_1 == 48, "nxp_cursor_options first published size");
_Static_assert(NXP_CURSOR_STATS_SIZE_V0_1 == 56, "nxp_cursor_stats first published size");
_Static_assert(NXP_NTFF_WRITER_OPTIONS_SIZE_V0_1 == 20, "nxp_ntff_writer_options first published size");
_Static_assert(NXP_NTFF_INFO_SIZE_V0_1 == 268, "nxp_ntff_info first published size");
_Static_assert(NXP_NTFF_QUEUE_SIZE_V0_1 == 40, "nxp_ntff_queue first published size");
_Static_assert(NXP_HARDWARE_SIZE_V0_1 == 108, "nxp_hardware first published size");
_Static_assert(NXP_SUMMARY_FIELD_SIZE_V0_1 == 64, "nxp_summary_field first published size");
_Static_assert(NXP_OPCODE_SUMMARY_SIZE_V0_1 == 56, "nxp_opcode_summary first published size");
_Static_assert(NXP_THROTTLE_SUMMARY_SIZE_V0_1 == 48, "nxp_throttle_summary first published size");
_Static_assert(NXP_SYSTEM_OPTIONS_SIZE_V0_1 == 48, "nxp_system_options first published size");
_Static_assert(NXP_SYSTEM_EVENT_SIZE_V0_1 == 224, "nxp_system_event first published size");
_Static_assert(NXP_SYSTEM_STATS_SIZE_V0_1 == 96, "nxp_system_stats first published size");
_Static_assert(NXP_CPU_USAGE_SIZE_V0_1 == 40, "nxp_cpu_usage first published size");
_Static_assert(NXP_HOST_MEM_USAGE_SIZE_V0_1 == 48, "nxp_host_mem_usage first published size");
_Static_assert(NXP_SYSTEM_METADATA_SIZE_V0_1 == 136, "nxp_system_metadata first published size");
_Static_assert(NXP_CAPTURE_FILE_SIZE_V0_1 == 100, "nxp_capture_file first published size");
_Static_assert(NXP_CAPTURE_PROCESS_SIZE_V0_1 == 84, "nxp_capture_process first published size");
_Static_assert(NXP_CAPTURE_PROFILE_SIZE_V0_1 == 48, "nxp_capture_profile first published size");
_Static_assert(NXP_SYSPROF_WRITER_OPTIONS_SIZE_V0_1 == 64, "nxp_sysprof_writer_options first published size");
_Static_assert(NXP_NTRACE_EVENT_SIZE_V0_1 == 136, "nxp_ntrace_event first published size");
#endif

/* A library struct: size field, then fields. */
typedef struct lib_s {
	size_t struct_size;
	uint32_t a;
	uint64_t b;
	char c[13];
} lib_s;
#define LIB_FIRST (offsetof(lib_s, b) + sizeof(uint64_t)) /* "0.1" had struct_size, a, b */

/* A caller buffer: `size` bytes declared, followed by guard bytes the library must not touch. */
#define GUARD 32
static unsigned char *caller_buf(size_t size, unsigned char fill)
{
	unsigned char *p = malloc(size + GUARD);
	ck_assert_ptr_nonnull(p);
	memset(p, fill, size + GUARD);
	memcpy(p, &size, sizeof(size));
	return p;
}

static void assert_bytes(const unsigned char *p, size_t from, size_t to, unsigned char v)
{
	for (size_t i = from; i < to; i++)
		ck_assert_msg(p[i] == v, "byte %zu is 0x%02x, expected 0x%02x", i, p[i], v);
}

static lib_s lib_value(void)
{
	lib_s s;
	memset(&s, 0, sizeof(s));
	s.struct_size = sizeof(s);
	s.a = 0x11223344u;
	s.b = 0x5566778899aabbccull;
	memcpy(s.c, "hello, world", 13);
	return s;
}

START_TEST(test_out_refuses_short_and_null)
{
	lib_s src = lib_value();
	unsigned char *p = caller_buf(LIB_FIRST - 1, 0xAB);
	ck_assert_int_eq(nxp__struct_out(p, &src, sizeof(src), LIB_FIRST), NXP_E_INVAL);
	assert_bytes(p, sizeof(size_t), LIB_FIRST - 1 + GUARD, 0xAB); /* untouched */
	ck_assert_int_eq(nxp__struct_out(NULL, &src, sizeof(src), LIB_FIRST), NXP_E_INVAL);
	ck_assert_int_eq(nxp__struct_size_ok(p, LIB_FIRST), 0);
	ck_assert_int_eq(nxp__struct_size_ok(NULL, LIB_FIRST), 0);
	free(p);
}
END_TEST

START_TEST(test_out_first_size)
{
	lib_s src = lib_value();
	unsigned char *p = caller_buf(LIB_FIRST, 0xAB);
	ck_assert_int_eq(nxp__struct_out(p, &src, sizeof(src), LIB_FIRST), NXP_OK);
	lib_s got;
	memcpy(&got, p, LIB_FIRST);
	ck_assert_uint_eq(got.struct_size, LIB_FIRST); /* the caller's size is kept */
	ck_assert_uint_eq(got.a, src.a);
	ck_assert_uint_eq(got.b, src.b);
	assert_bytes(p, LIB_FIRST, LIB_FIRST + GUARD, 0xAB); /* nothing past the caller's size */
	free(p);
}
END_TEST

START_TEST(test_out_current_size)
{
	lib_s src = lib_value();
	unsigned char *p = caller_buf(sizeof(lib_s), 0xAB);
	ck_assert_int_eq(nxp__struct_out(p, &src, sizeof(src), LIB_FIRST), NXP_OK);
	ck_assert_int_eq(memcmp(p, &src, sizeof(src)), 0);
	assert_bytes(p, sizeof(lib_s), sizeof(lib_s) + GUARD, 0xAB);
	free(p);
}
END_TEST

START_TEST(test_out_longer_size)
{
	/* A caller built against a newer header: the fields this library does not know
	 * read as 0; bytes past the caller's declared size are untouched. */
	lib_s src = lib_value();
	size_t theirs = sizeof(lib_s) + 24;
	unsigned char *p = caller_buf(theirs, 0xAB);
	ck_assert_int_eq(nxp__struct_out(p, &src, sizeof(src), LIB_FIRST), NXP_OK);
	size_t got_size;
	memcpy(&got_size, p, sizeof(got_size));
	ck_assert_uint_eq(got_size, theirs);
	ck_assert_int_eq(memcmp(p + sizeof(size_t), (char *)&src + sizeof(size_t), sizeof(src) - sizeof(size_t)), 0);
	assert_bytes(p, sizeof(lib_s), theirs, 0);
	assert_bytes(p, theirs, theirs + GUARD, 0xAB);
	free(p);
}
END_TEST

START_TEST(test_in_sizes)
{
	lib_s want = lib_value();
	/* shorter than first: refused, library copy untouched */
	lib_s out;
	memset(&out, 0x5A, sizeof(out));
	unsigned char *p = caller_buf(LIB_FIRST - 1, 0xAB);
	ck_assert_int_eq(nxp__struct_in(&out, sizeof(out), p, LIB_FIRST), NXP_E_INVAL);
	assert_bytes((unsigned char *)&out, 0, sizeof(out), 0x5A);
	ck_assert_int_eq(nxp__struct_in(&out, sizeof(out), NULL, LIB_FIRST), NXP_E_INVAL);
	free(p);

	/* first size: its fields copied, the tail zero-filled, struct_size = ours */
	p = caller_buf(LIB_FIRST, 0xAB);
	memcpy(p + sizeof(size_t), (char *)&want + sizeof(size_t), LIB_FIRST - sizeof(size_t));
	memset(&out, 0x5A, sizeof(out));
	ck_assert_int_eq(NXP__STRUCT_IN(out, p, LIB_FIRST), NXP_OK);
	ck_assert_uint_eq(out.struct_size, sizeof(lib_s));
	ck_assert_uint_eq(out.a, want.a);
	ck_assert_uint_eq(out.b, want.b);
	assert_bytes((unsigned char *)&out, LIB_FIRST, sizeof(out), 0);
	/* ... or, for options, the tail keeps the library's defaults */
	memset(&out, 0x5A, sizeof(out));
	ck_assert_int_eq(NXP__STRUCT_IN_DEFAULTS(out, p, LIB_FIRST), NXP_OK);
	ck_assert_uint_eq(out.b, want.b);
	assert_bytes((unsigned char *)&out, LIB_FIRST, sizeof(out), 0x5A);
	free(p);

	/* current size: everything */
	p = caller_buf(sizeof(lib_s), 0xAB);
	memcpy(p + sizeof(size_t), (char *)&want + sizeof(size_t), sizeof(lib_s) - sizeof(size_t));
	ck_assert_int_eq(NXP__STRUCT_IN(out, p, LIB_FIRST), NXP_OK);
	ck_assert_int_eq(memcmp(&out, &want, sizeof(out)), 0);
	free(p);

	/* longer (a newer caller): our part copied, the rest neither read into nor
	 * written past (ASan would see a read past the malloc'ed buffer) */
	size_t theirs = sizeof(lib_s) + 24;
	p = caller_buf(theirs, 0xAB);
	memcpy(p + sizeof(size_t), (char *)&want + sizeof(size_t), sizeof(lib_s) - sizeof(size_t));
	memset(&out, 0x5A, sizeof(out));
	ck_assert_int_eq(NXP__STRUCT_IN(out, p, LIB_FIRST), NXP_OK);
	ck_assert_int_eq(memcmp(&out, &want, sizeof(out)), 0);
	assert_bytes(p, sizeof(lib_s), theirs + GUARD, 0xAB);
	free(p);
}
END_TEST

/* A struct grown by one appended field, both ways round: the helper is what an
 * older or newer library would run. */
typedef struct grown_header {
	nxp_neff_header base;
	uint64_t appended;
} grown_header;

static nxp_neff_header sample_header(void)
{
	nxp_neff_header h;
	memset(&h, 0, sizeof(h));
	h.struct_size = sizeof(h);
	h.pkg_version = 2;
	h.data_size = 12345;
	strcpy(h.name, "grown");
	h.lnc_size = 2;
	h.payload_gzip = 1;
	return h;
}

START_TEST(test_grown_struct)
{
	nxp_neff_header h = sample_header();
	/* newer library (grown) -> caller of today: today's fields, nothing past them */
	grown_header lib;
	memset(&lib, 0, sizeof(lib));
	lib.base = h;
	lib.base.struct_size = sizeof(lib);
	lib.appended = 0xfeedfacecafebeefull;
	unsigned char *p = caller_buf(sizeof(nxp_neff_header), 0xAB);
	ck_assert_int_eq(nxp__struct_out(p, &lib, sizeof(lib), NXP_NEFF_HEADER_SIZE_V0_1), NXP_OK);
	nxp_neff_header got;
	memcpy(&got, p, sizeof(got));
	ck_assert_uint_eq(got.struct_size, sizeof(nxp_neff_header));
	ck_assert_uint_eq(got.data_size, 12345);
	ck_assert_str_eq(got.name, "grown");
	ck_assert_int_eq(got.payload_gzip, 1);
	assert_bytes(p, sizeof(nxp_neff_header), sizeof(nxp_neff_header) + GUARD, 0xAB);
	free(p);

	/* today's library -> a caller built against the grown header: appended reads 0 */
	grown_header caller;
	memset(&caller, 0xAB, sizeof(caller));
	caller.base.struct_size = sizeof(caller);
	ck_assert_int_eq(nxp__struct_out(&caller, &h, sizeof(h), NXP_NEFF_HEADER_SIZE_V0_1), NXP_OK);
	ck_assert_uint_eq(caller.base.struct_size, sizeof(caller));
	ck_assert_uint_eq(caller.base.data_size, 12345);
	ck_assert_uint_eq(caller.appended, 0);

	/* input: a grown caller into today's library, and today's caller into a grown library */
	caller.appended = 7;
	nxp_neff_header in_today;
	ck_assert_int_eq(NXP__STRUCT_IN(in_today, &caller, NXP_NEFF_HEADER_SIZE_V0_1), NXP_OK);
	ck_assert_uint_eq(in_today.data_size, 12345);
	ck_assert_str_eq(in_today.name, "grown");
	grown_header in_grown;
	memset(&in_grown, 0xAB, sizeof(in_grown));
	ck_assert_int_eq(NXP__STRUCT_IN(in_grown, &h, NXP_NEFF_HEADER_SIZE_V0_1), NXP_OK);
	ck_assert_uint_eq(in_grown.base.struct_size, sizeof(in_grown));
	ck_assert_uint_eq(in_grown.base.lnc_size, 2);
	ck_assert_uint_eq(in_grown.appended, 0);
}
END_TEST

/* The public getters apply the rule: the first published size works, one byte less
 * is refused, a grown caller struct gets zeros for what the library lacks. */
START_TEST(test_getters_sizes)
{
	uint8_t raw[NXP_NEFF_HEADER_SIZE];
	memset(raw, 0, sizeof(raw));
	uint64_t v = 2;
	memcpy(raw, &v, 8); /* pkg_version */
	v = NXP_NEFF_HEADER_SIZE;
	memcpy(raw + 8, &v, 8); /* header_size */
	v = 100;
	memcpy(raw + 16, &v, 8); /* data_size */
	nxp_neff_header full;
	full.struct_size = sizeof(full);
	ck_assert_int_eq(nxp_neff_parse_header(raw, sizeof(raw), -1, &full, NULL), NXP_OK);
	ck_assert_uint_eq(full.data_size, 100);

	unsigned char *p = caller_buf(NXP_NEFF_HEADER_SIZE_V0_1 - 1, 0xAB);
	ck_assert_int_eq(nxp_neff_parse_header(raw, sizeof(raw), -1, (nxp_neff_header *)(void *)p, NULL), NXP_E_INVAL);
	free(p);
	p = caller_buf(NXP_NEFF_HEADER_SIZE_V0_1, 0xAB);
	ck_assert_int_eq(nxp_neff_parse_header(raw, sizeof(raw), -1, (nxp_neff_header *)(void *)p, NULL), NXP_OK);
	ck_assert_int_eq(memcmp(p + sizeof(size_t), (char *)&full + sizeof(size_t),
				NXP_NEFF_HEADER_SIZE_V0_1 - sizeof(size_t)), 0);
	assert_bytes(p, NXP_NEFF_HEADER_SIZE_V0_1, NXP_NEFF_HEADER_SIZE_V0_1 + GUARD, 0xAB);
	free(p);

	grown_header g;
	memset(&g, 0xAB, sizeof(g));
	g.base.struct_size = sizeof(g);
	ck_assert_int_eq(nxp_neff_parse_header(raw, sizeof(raw), -1, &g.base, NULL), NXP_OK);
	ck_assert_uint_eq(g.base.data_size, 100);
	ck_assert_uint_eq(g.appended, 0);

	/* options: an options struct as short as 0.1's first size opens a writer */
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	o.name = "abi";
	o.struct_size = NXP_NEFF_WRITER_OPTIONS_SIZE_V0_1;
	nxp_neff_writer *w = NULL;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &o, NULL), NXP_OK);
	nxp_neff_writer_close(w);
	o.struct_size = NXP_NEFF_WRITER_OPTIONS_SIZE_V0_1 - 1;
	ck_assert_int_eq(nxp_neff_writer_open(&w, &o, NULL), NXP_E_INVAL);
	ck_assert_ptr_null(w);
}
END_TEST

static Suite *abi_suite(void)
{
	Suite *s = suite_create("abi");
	TCase *tc = tcase_create("struct_size");
	tcase_add_test(tc, test_out_refuses_short_and_null);
	tcase_add_test(tc, test_out_first_size);
	tcase_add_test(tc, test_out_current_size);
	tcase_add_test(tc, test_out_longer_size);
	tcase_add_test(tc, test_in_sizes);
	tcase_add_test(tc, test_grown_struct);
	tcase_add_test(tc, test_getters_sizes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(abi_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
