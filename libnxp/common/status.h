/* SPDX-License-Identifier: MIT */
/* Internal: filling nxp_status and per-handle errors. */
#ifndef NXP_STATUS_INTERNAL_H
#define NXP_STATUS_INTERNAL_H

#include <nxp/nxp.h>

#if defined(__GNUC__)
#define NXP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NXP_PRINTF(a, b)
#endif

/* Set `st` (may be NULL) to code/offset/message; returns code so callers can
 * `return nxp_fail(...)`. */
int nxp_fail(nxp_status *st, int code, int64_t offset, const char *fmt, ...) NXP_PRINTF(4, 5);
/* Lower-case hex of n bytes into out (2n+1 bytes), for messages (UUIDs, digests). */
void nxp_hex(const uint8_t *b, size_t n, char *out);
/* Reset to "no error". */
void nxp_status_clear(nxp_status *st);
/* Copy an internal full-size status into a caller's possibly shorter one.
 * Returns src->code.  NXP_E_INVAL if dst is unusable. */
int nxp_status_copy(nxp_status *dst, const nxp_status *src);
/* True if a caller struct declares at least `min` bytes (its first field is a size_t size). */
int nxp_struct_ok(const void *p, size_t min);
/* Copy min(caller size, ours) bytes of a library struct `src` (of size `ours`, whose first
 * field is struct_size) into caller's `dst`, preserving caller's struct_size; zero nothing else. */
void nxp_struct_out(void *dst, const void *src, size_t ours);

#endif
