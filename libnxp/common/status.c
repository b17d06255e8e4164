/* SPDX-License-Identifier: MIT */
#include "status.h"

#include "abi_struct.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int nxp__error_setv(nxp_status *st, int code, int64_t offset, const char *fmt, va_list ap)
{
	if (!st)
		return code;
	nxp_status tmp;
	nxp_status_init(&tmp);
	tmp.code = code;
	tmp.offset = offset;
	vsnprintf(tmp.message, sizeof(tmp.message), fmt, ap);
	nxp_status_copy(st, &tmp);
	return code;
}

int nxp__error_set(nxp_status *st, int code, int64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nxp__error_setv(st, code, offset, fmt, ap);
	va_end(ap);
	return code;
}

void nxp_status_clear(nxp_status *st)
{
	if (!st || st->struct_size < offsetof(nxp_status, message) + 1)
		return;
	st->code = 0;
	st->offset = -1;
	st->message[0] = '\0';
}

int nxp_status_copy(nxp_status *dst, const nxp_status *src)
{
	if (!dst)
		return src->code;
	size_t n = dst->struct_size;
	if (n < offsetof(nxp_status, message) + 1)
		return NXP_E_INVAL;
	if (n > sizeof(nxp_status))
		n = sizeof(nxp_status);
	dst->code = src->code;
	dst->offset = src->offset;
	size_t room = n - offsetof(nxp_status, message);
	size_t len = strnlen(src->message, sizeof(src->message));
	if (len >= room)
		len = room - 1;
	memcpy(dst->message, src->message, len);
	dst->message[len] = '\0';
	return src->code;
}

void nxp_hex(const uint8_t *b, size_t n, char *out)
{
	static const char hx[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hx[b[i] >> 4];
		out[2 * i + 1] = hx[b[i] & 15];
	}
	out[2 * n] = '\0';
}
