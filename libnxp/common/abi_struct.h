/* SPDX-License-Identifier: MIT */
/* Internal: the one rule for every size-versioned struct that crosses the ABI.
 *
 * A caller's struct begins with `size_t struct_size`.  The library accepts any
 * struct_size from the struct's first published size (NXP_<STRUCT>_SIZE_V0_1 in
 * the public header) up, reads and writes only min(caller, library) bytes, and
 * never touches a byte past the caller's struct_size.  A struct_size below the
 * first published size, or a NULL struct, is NXP_E_INVAL.
 *
 *  - nxp__struct_in():  caller's input struct -> a full library-size copy
 *    (fields the caller's header did not have are zero; struct_size = ours).
 *  - nxp__struct_in_defaults(): the same onto a library struct that already holds
 *    defaults (its _init()): fields the caller's header did not have keep them.
 *    Options structs use this, since some defaults are not 0 (-1, INT64_MAX).
 *  - nxp__struct_out(): a full library-size struct -> the caller's struct
 *    (caller's struct_size kept; fields of a newer caller header that this
 *    library does not know, i.e. bytes [ours, caller size), are zeroed).
 */
#ifndef NXP_COMMON_ABI_STRUCT_H
#define NXP_COMMON_ABI_STRUCT_H

#include <stddef.h>

/* Copy the caller's `in` (struct_size >= first) into `out` of `ours` bytes.
 * Returns 0, or NXP_E_INVAL (out untouched) when `in` is NULL or too short. */
int nxp__struct_in(void *out, size_t ours, const void *in, size_t first);

/* As nxp__struct_in() but bytes [caller size, ours) of `out` are left as they are. */
int nxp__struct_in_defaults(void *out, size_t ours, const void *in, size_t first);

/* Copy the library's `src` of `ours` bytes into the caller's `dst`
 * (struct_size >= first).  Returns 0, or NXP_E_INVAL (dst untouched) when
 * `dst` is NULL or too short. */
int nxp__struct_out(void *dst, const void *src, size_t ours, size_t first);

/* The caller's struct is usable: not NULL and struct_size >= first. */
int nxp__struct_size_ok(const void *p, size_t first);

/* Shorthands for a library-side struct variable `lib` (not a pointer). */
#define NXP__STRUCT_IN(lib, in, first) nxp__struct_in(&(lib), sizeof(lib), (in), (first))
#define NXP__STRUCT_IN_DEFAULTS(lib, in, first) nxp__struct_in_defaults(&(lib), sizeof(lib), (in), (first))
#define NXP__STRUCT_OUT(out, lib, first) nxp__struct_out((out), &(lib), sizeof(lib), (first))

#endif
