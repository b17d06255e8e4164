/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/nxp.h
 * @brief libnxp — read AWS Neuron profiles (NEFF, NTFF, system profiles).
 *
 * This header includes every public header, so `#include <nxp/nxp.h>` is all
 * a user needs: nxp/common.h (what every part of the library shares: the export
 * macro, the version query, error codes, the status struct, and the
 * byte-source abstraction that every decoder reads from), then the per-module
 * headers nxp/neff.h, nxp/ntff.h, nxp/summary.h, nxp/system.h, nxp/arrow.h and
 * nxp/table.h.  Each of those also compiles on its own (it includes the headers
 * it depends on), as C99 and as C++11.
 *
 * Conventions (the same everywhere):
 *  - Handles are opaque.  `nxp_<object>_open*()` creates, `nxp_<object>_close()`
 *    destroys; every close accepts NULL.
 *  - Functions return 0 (NXP_OK) on success, a negative `nxp_error` on failure.
 *    Iterators return NXP_END (positive) when there is nothing more.
 *  - Structs that cross the ABI begin with `size_t struct_size`.  Set it to
 *    `sizeof(struct)` (the `_init()` helpers do).  The library reads or writes at
 *    most min(your size, its size) bytes and zeroes what it knows and you don't,
 *    so a program built against an older header keeps working.
 *  - Every open function takes an optional `nxp_status *` that receives the error
 *    code, a message and the byte offset of the fault.  Every handle also keeps
 *    its last error, readable with `nxp_<object>_error()`.
 *  - Strings returned by the library are UTF-8 (as found in the file) and owned
 *    by the handle that returned them; the doc of each function says how long
 *    they stay valid.
 */
#ifndef NXP_NXP_H
#define NXP_NXP_H

#include <nxp/common.h>
#include <nxp/neff.h>
#include <nxp/ntff.h>
#include <nxp/summary.h>
#include <nxp/system.h>
#include <nxp/arrow.h>
#include <nxp/table.h>

#endif /* NXP_NXP_H */
