/* SPDX-License-Identifier: MIT */
#include "abi_struct.h"

#include <nxp/nxp.h>
#include <string.h>

int nxp__struct_size_ok(const void *p, size_t first)
{
	size_t theirs;
	if (!p)
		return 0;
	memcpy(&theirs, p, sizeof(theirs));
	return theirs >= first && theirs >= sizeof(size_t);
}

static int struct_in(void *out, size_t ours, const void *in, size_t first, int zero_tail)
{
	if (!out || ours < sizeof(size_t) || !nxp__struct_size_ok(in, first))
		return NXP_E_INVAL;
	size_t theirs;
	memcpy(&theirs, in, sizeof(theirs));
	size_t n = theirs < ours ? theirs : ours;
	memcpy((char *)out + sizeof(size_t), (const char *)in + sizeof(size_t), n - sizeof(size_t));
	if (zero_tail && n < ours) /* fields the caller's (older) header does not have */
		memset((char *)out + n, 0, ours - n);
	memcpy(out, &ours, sizeof(ours));
	return NXP_OK;
}

int nxp__struct_in(void *out, size_t ours, const void *in, size_t first)
{
	return struct_in(out, ours, in, first, 1);
}

int nxp__struct_in_defaults(void *out, size_t ours, const void *in, size_t first)
{
	return struct_in(out, ours, in, first, 0);
}

int nxp__struct_out(void *dst, const void *src, size_t ours, size_t first)
{
	if (!src || ours < sizeof(size_t) || !nxp__struct_size_ok(dst, first))
		return NXP_E_INVAL;
	size_t theirs;
	memcpy(&theirs, dst, sizeof(theirs));
	size_t n = theirs < ours ? theirs : ours;
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t), n - sizeof(size_t));
	if (theirs > ours) /* fields of a newer header that this library does not know */
		memset((char *)dst + ours, 0, theirs - ours);
	return NXP_OK;
}
