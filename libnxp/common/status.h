/* SPDX-License-Identifier: MIT */
/* Internal: filling nxp_status and per-handle errors. */
#ifndef NXP_STATUS_INTERNAL_H
#define NXP_STATUS_INTERNAL_H

#include <nxp/nxp.h>

#include <stdarg.h>

#if defined(__GNUC__)
#define NXP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define NXP_PRINTF(a, b)
#endif

/* THE error setter: every error the library reports goes through it (handle
 * wrappers such as neff_fail() only pick the handle's status).  Sets `st`
 * (may be NULL; a caller's shorter status is filled as far as it goes) to
 * code/offset/message, offset -1 when none applies; returns `code` so callers
 * can `return nxp__error_set(...)`. */
int nxp__error_set(nxp_status *st, int code, int64_t offset, const char *fmt, ...) NXP_PRINTF(4, 5);
/* The same with a va_list, for wrappers that take their own format. */
int nxp__error_setv(nxp_status *st, int code, int64_t offset, const char *fmt, va_list ap) NXP_PRINTF(4, 0);

/* Internal results that are neither NXP_OK, NXP_END nor an nxp_error: a
 * "skipped" or "bad record" or "end of input" signal passed between a decoder's
 * own functions.  They sit far above every public code (NXP_END = 1 and the
 * negative nxp_error values), so an internal result can never be mistaken for
 * a public one, and none may escape through a public function. */
enum nxp__internal_result {
	NXP__INTERNAL_BASE = 0x10000,
	NXP__SKIPPED = NXP__INTERNAL_BASE + 1, /* a section/member was bad and skipped (counted as a warning) */
	NXP__BAD_RECORD,                       /* a record failed its checks and is skipped */
	NXP__EOF,                              /* a character reader hit the end of its input */
	NXP__NO_ROW,                           /* a step consumed input without producing a row: call again */
};
_Static_assert((int)NXP__INTERNAL_BASE > (int)NXP_END && -(int)NXP__INTERNAL_BASE < (int)NXP_E_PROTOBUF,
	       "internal results must stay outside the public code range");
/* Lower-case hex of n bytes into out (2n+1 bytes), for messages (UUIDs, digests). */
void nxp_hex(const uint8_t *b, size_t n, char *out);
/* Reset to "no error". */
void nxp_status_clear(nxp_status *st);
/* Copy an internal full-size status into a caller's possibly shorter one.
 * Returns src->code.  NXP_E_INVAL if dst is unusable. */
int nxp_status_copy(nxp_status *dst, const nxp_status *src);

#endif
