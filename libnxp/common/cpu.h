/* SPDX-License-Identifier: MIT */
/* NXP_HOT_LOOP marks a function whose loops gain from AVX2 (min/max of
 * 64-bit integers, bit packing, column scatters): the compiler builds it
 * twice, for x86-64 with AVX2 and for the baseline the library is built
 * for, and the dynamic loader picks the one the CPU can run, once, when the
 * library is loaded (GNU indirect functions: GCC and clang's
 * target_clones).  The two copies are the same C, so they return the same
 * bytes (no floating-point contraction: the library is built as ISO C11,
 * and AVX2 alone has no FMA).
 *
 * Only on static functions: clang names the dispatcher of a global one
 * differently ("F.ifunc"), so callers in other files would not find it; a
 * global entry point F calls its static body F_k, which carries the mark.
 *
 * Elsewhere (other architectures, other C libraries than glibc, compilers
 * without target_clones) it expands to nothing.  `meson setup
 * -Dcpu_dispatch=false` defines NXP_NO_CPU_DISPATCH, which turns it off:
 * the ASan build does that, so the test suite runs both copies (the other
 * builds run the AVX2 one on a CPU that has it). */
#ifndef NXP_COMMON_CPU_H
#define NXP_COMMON_CPU_H

#include <stdint.h> /* glibc's: defines __GLIBC__ */

/* Under ThreadSanitizer (and MemorySanitizer) one copy: clang instruments
 * the resolver (__tsan_func_entry), which the loader runs while relocating,
 * before the sanitizer's runtime is set up, and the program crashes there
 * (seen with clang 14: a segfault in the resolver, called from
 * _dl_relocate_object). */
#if defined(__SANITIZE_THREAD__)
#define NXP_CPU_ONE_COPY 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define NXP_CPU_ONE_COPY 1
#endif
#endif

#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && !defined(NXP_NO_CPU_DISPATCH) && \
	!defined(NXP_CPU_ONE_COPY) && \
	((defined(__clang__) && __clang_major__ >= 14) || (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 8))
#define NXP_HOT_LOOP __attribute__((target_clones("avx2", "default")))
#else
#define NXP_HOT_LOOP
#endif

#endif
