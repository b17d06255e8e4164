/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the fuzz harnesses and of the seed-corpus generator.
 *
 * Input framing (the same for every harness, so the generator can write seeds):
 *
 *   single-file harnesses:  [ctl] [file bytes...]
 *   pair harnesses:         [ctl A] [ctl B] [u32 LE length of A] [A bytes] [B bytes]
 *
 * A control byte chooses how the file is served to the decoder (see FZ_CTL_*):
 * from memory (nxp_source_open_memory: the zero-copy map path) or through
 * nxp_source_open_callbacks with a chunk-size pattern, seekable or sequential,
 * with or without a known size, and optionally failing with an I/O error at a
 * fuzzer-chosen offset.  So one input exercises the decoder's parsing and its
 * handling of short reads, sequential sources and read errors.
 */
#ifndef NXP_FUZZ_COMMON_H
#define NXP_FUZZ_COMMON_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The libFuzzer entry points every harness defines (LLVMFuzzerInitialize is optional). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Control byte bits. */
#define FZ_CTL_CHUNK_MASK 0x07u /* chunk pattern: see fz_source_open */
#define FZ_CTL_SEEKABLE 0x08u   /* callback source gets a seek callback */
#define FZ_CTL_NO_SIZE 0x10u    /* callback source has no get_size callback */
#define FZ_CTL_IO_ERROR 0x20u   /* reads fail (-1) inside a bad region of the file: from
				 * size * (1 + (ctl >> 6)) / 5 (the top two bits), size / 8
				 * bytes long (at least 1); reads before and after it work,
				 * so a decoder that reads its tables at the end of the file
				 * opens and then meets the error in the middle */

/* Chunk patterns (ctl & FZ_CTL_CHUNK_MASK). */
enum {
	FZ_CHUNK_MEMORY = 0,  /* nxp_source_open_memory (ignores the other bits) */
	FZ_CHUNK_WHOLE = 1,   /* callbacks, as much as asked */
	FZ_CHUNK_ONE = 2,     /* callbacks, 1 byte per read */
	FZ_CHUNK_PRIMES = 3,  /* 1, 2, 3, 5, 7, 11, 13 cycling (like tu_chunky_source) */
	FZ_CHUNK_4K = 4,      /* at most 4096 per read */
	FZ_CHUNK_ODD = 5,     /* 4095 then 1, cycling: straddles every power-of-two boundary */
	FZ_CHUNK_RANDOM = 6,  /* 1..64 from a PRNG seeded by the data size */
	FZ_CHUNK_HALF = 7,    /* half of what is asked (at least 1) */
};

/* Control bytes that give the plain, well-behaved paths (used by the seed generator). */
#define FZ_CTL_PLAIN_MEMORY 0x00u
#define FZ_CTL_PLAIN_SEEKABLE (FZ_CHUNK_PRIMES | FZ_CTL_SEEKABLE)
#define FZ_CTL_PLAIN_SEQUENTIAL (FZ_CHUNK_PRIMES)

/* A cursor over the fuzzer's input, for harnesses that take parameters from it. */
typedef struct fz_input {
	const uint8_t *data;
	size_t size;
} fz_input;

/* Take one byte (0 when the input is exhausted). */
uint8_t fz_take_u8(fz_input *in);
/* Take a little-endian u32 (missing bytes read as 0). */
uint32_t fz_take_u32(fz_input *in);
/* Take a little-endian u64 (missing bytes read as 0). */
uint64_t fz_take_u64(fz_input *in);

/*
 * Serve `data[0..size)` as a source in the way control byte `ctl` says.  The
 * bytes are not copied: they must outlive the source.  Returns NULL only on
 * allocation failure.
 */
nxp_source *fz_source_open(const uint8_t *data, size_t size, uint8_t ctl);

/* Single-file framing: take the control byte from `in` and serve the rest of it. */
nxp_source *fz_source_take_rest(fz_input *in);
/* The largest error offset a system-profile reader may report for the file that
 * fz_source_take_rest(in) would serve: the file's size, or unbounded when the
 * file is gzip'd (faults in its content are at decompressed offsets: system.h). */
uint64_t fz_sys_offset_bound(const fz_input *in);

/* Pair framing: split `in` into two files (A, B) with their control bytes. */
typedef struct fz_pair {
	uint8_t ctl_a, ctl_b;
	const uint8_t *a, *b;
	size_t a_size, b_size;
} fz_pair;
void fz_split_pair(const uint8_t *data, size_t size, fz_pair *out);

/* Frame seeds (for the generator): malloc'ed result the caller frees; NULL on OOM. */
uint8_t *fz_frame_single(uint8_t ctl, const void *file, size_t len, size_t *out_len);
uint8_t *fz_frame_pair(uint8_t ctl_a, const void *a, size_t a_len, uint8_t ctl_b, const void *b, size_t b_len,
		       size_t *out_len);

/*
 * A broken contract: print where and why (with the values), then abort() so
 * libFuzzer saves the input.  FZ_CHECK(cond, fmt, ...) calls it when !cond.
 */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 4, 5)))
#endif
void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...);
#define FZ_CHECK(cond, ...)                                                   \
	do {                                                                  \
		if (!(cond))                                                  \
			fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);      \
	} while (0)

/*
 * The error contract: a failed call returned `rc` < 0 (and not NXP_END), and
 * `st` holds the same code, a NUL-terminated non-empty message, and an offset
 * inside the `input_size`-byte input or -1.  fz_fail()s otherwise.
 */
void fz_check_error(int rc, const nxp_status *st, uint64_t input_size, const char *what);

/*
 * Touch every byte of a NUL-terminated string the library returned, so that a
 * dangling or unterminated pointer is caught by ASan right where it is
 * produced.  NULL is fine.  Returns a value derived from the bytes.
 */
size_t fz_touch(const char *s);
/* Read every row of a system-event cursor, touching each string (so ASan sees a
 * stale pointer), and check the cursor's contract: an error is kept with a
 * message (offsets may be in gunzipped bytes: system.h) and is sticky, and the
 * stats count the rows returned.  Returns a value for the harness's sink. */
size_t fz_drain_system_events(nxp_system_events *c);

/* ---- harness set-up ------------------------------------------------------ */

/* Build the cached fixture NEFF (fuzz_fixture.h) up front, from
 * LLVMFuzzerInitialize; abort()s when it cannot be built, so a broken fixture
 * is not taken for rejected input. */
void fz_fixture_init(void);

/* A fuzzed NTFF paired with the fixture NEFF: what fz_fixture_pair_close closes. */
typedef struct fz_fixture_pair {
	nxp_profile *p; /* as the open left it: NULL after a failed open */
	nxp_source *neff, *ntff;
} fz_fixture_pair;

/*
 * Serve the rest of `in` (a control byte, then the NTFF: fz_source_take_rest)
 * and open it with the cached fixture NEFF (fz_fixture_profile_open; `opts` and
 * `st` may be NULL).  Returns the open's result, or NXP_E_NOMEM with o->ntff
 * NULL (and `st` untouched) when the source could not be made.  Close `o` with
 * fz_fixture_pair_close whatever the result.
 */
int fz_fixture_pair_open(fz_fixture_pair *o, fz_input *in, const nxp_profile_options *opts, nxp_status *st);
void fz_fixture_pair_close(fz_fixture_pair *o);

/*
 * For harnesses that write a file: a per-process output directory,
 * /dev/shm/nxp-fz-<harness>-<pid> (under /tmp when /dev/shm refuses), and the
 * path of `file` in it; the file and the directory go when the process exits
 * normally.  Call once, from LLVMFuzzerInitialize; the strings are static.
 */
void fz_out_dir(const char *harness, const char *file, const char **dir, const char **path);
/* How many entries `dir` holds besides . and .. (a writer's temporary files included). */
int fz_dir_entries(const char *dir);

/* Room for one record of any cursor table, and a record's size by table. */
typedef union fz_any_record {
	nxp_instruction ins;
	nxp_dma_packet dma;
	nxp_semaphore_update sem;
	nxp_throttle thr;
	nxp_error_record err;
	nxp_execution exe;
	nxp_active_time act;
} fz_any_record;
size_t fz_record_size(int table);

/* Open a system-event file (`kind`: nxp_sysfile) from `src`, drain it
 * (fz_drain_system_events) and close it; a failed open must return a negative
 * code, set the status to it and leave no handle.  Returns fz_drain's value
 * (0 when the open failed).  `src` stays the caller's. */
size_t fz_system_events_run(nxp_source *src, int kind, const nxp_system_options *opts);

#ifdef __cplusplus
}
#endif

#endif
