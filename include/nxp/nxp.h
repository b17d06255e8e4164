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
#include <nxp/timeline.h>
#include <nxp/analysis.h>
#include <nxp/report.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** @name Recognising a file by its content (since 0.2)
 * Which of the inputs libnxp reads a file holds, decided from its first bytes
 * (never from its name), so that a program can say "x.ntff is an NTFF trace,
 * not a NEFF" before a decoder complains about a field of the wrong format.
 */
/**@{*/
/** What a file holds (numbers are ABI). */
typedef enum nxp_file_kind {
	NXP_FILE_UNKNOWN = 0,   /**< none of the kinds below */
	NXP_FILE_EMPTY = 1,     /**< zero bytes (an empty file, /dev/null) */
	NXP_FILE_DIRECTORY = 2, /**< a directory (a capture directory, perhaps) */
	NXP_FILE_NEFF = 3,      /**< NEFF header fields: pkg_version 1 or 2, header_size 1024 */
	NXP_FILE_NTFF = 4,      /**< NTFF (the magic of libnxp's layout) */
	NXP_FILE_JSON = 5,      /**< JSON text, object or array (a trace.json?) */
	NXP_FILE_JSON_GZIP = 6, /**< gzip whose content begins as JSON text (a trace.json.gz?) */
	NXP_FILE_GZIP = 7,      /**< gzip of something else */
	NXP_FILE_PROTOBUF = 8,  /**< protobuf wire format, one message or length-delimited ones
				     (ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb) */
	NXP_FILE_STREAM = 9,    /**< a pipe, socket or terminal: not read, since reading would
				     take bytes its real reader needs */
} nxp_file_kind;

/**
 * Set `*kind` to the nxp_file_kind of the file at `path`.  Follows symbolic
 * links; reads at most the first 4 KiB of a regular file or device.  The
 * protobuf check is a heuristic (the first fields parse as wire format); the
 * other kinds are decided by magic bytes or header fields.
 * Errors: NXP_E_INVAL (NULL argument), NXP_E_IO (no such file, permission
 * denied, read error; the message names the path and the system's reason).
 */
NXP_API int nxp_file_kind_detect(const char *path, int *kind, nxp_status *st);
/**
 * The same decision for bytes in memory: `head` holds the first `len` bytes of
 * the input, `total_size` is the whole input's size (-1 if unknown; when it is
 * at most `len`, `head` is the whole input).  Never NXP_FILE_DIRECTORY or
 * NXP_FILE_STREAM.  Errors: NXP_E_INVAL (NULL `kind`, or NULL `head` with len > 0).
 */
NXP_API int nxp_file_kind_detect_buffer(const void *head, size_t len, int64_t total_size, int *kind);
/** A noun phrase for a kind, for messages: "a NEFF", "an NTFF trace", "an empty
 *  file", "JSON text", ...; "unrecognised data" for an unknown number.  Static storage. */
NXP_API const char *nxp_file_kind_name(int kind);
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_NXP_H */
