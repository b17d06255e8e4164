/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/common.h
 * @brief What every part of libnxp shares: the export macro, the version
 * query, error codes, the status struct, and the byte-source abstraction that
 * every decoder reads from.  Included by every other public header; the
 * conventions are described in nxp/nxp.h.
 */
#ifndef NXP_COMMON_H
#define NXP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define NXP_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#  define NXP_API __attribute__((visibility("default")))
#else
#  define NXP_API
#endif

/** @name Version (since 0.1) */
/**@{*/
#define NXP_VERSION_MAJOR 0
#define NXP_VERSION_MINOR 2
#define NXP_VERSION_PATCH 0
/** Compile-time version as one number: major*10000 + minor*100 + patch. */
#define NXP_VERSION_NUMBER (NXP_VERSION_MAJOR * 10000 + NXP_VERSION_MINOR * 100 + NXP_VERSION_PATCH)
#define NXP_VERSION_STRING "0.2.0"

/** Run-time version of the linked library, as NXP_VERSION_NUMBER. */
NXP_API unsigned nxp_version_number(void);
/** Run-time version string of the linked library, e.g. "0.2.0". Static storage. */
NXP_API const char *nxp_version_string(void);
/**@}*/

/**
 * Result codes.  The numbers are part of the ABI and never change; new codes
 * are only ever appended.
 */
typedef enum nxp_error {
	NXP_OK = 0,              /**< success */
	NXP_END = 1,             /**< iterator exhausted (not an error) */
	NXP_E_INVAL = -1,        /**< invalid argument or misuse (NULL, short struct size, wrong state) */
	NXP_E_NOMEM = -2,        /**< allocation failed */
	NXP_E_IO = -3,           /**< the operating system or read callback reported an error */
	NXP_E_TRUNCATED = -4,    /**< input ended before a structure was complete */
	NXP_E_FORMAT = -5,       /**< malformed input (bad field value, bad structure) */
	NXP_E_VERSION = -6,      /**< unsupported format version */
	NXP_E_LIMIT = -7,        /**< a configured safety limit was exceeded (size, ratio, depth) */
	NXP_E_HASH = -8,         /**< payload digest does not match the header */
	NXP_E_CRC = -9,          /**< a section or record checksum does not match */
	NXP_E_MISMATCH = -10,    /**< files do not belong together (NEFF/NTFF UUID) */
	NXP_E_NOT_FOUND = -11,   /**< a required member, file or item is missing */
	NXP_E_UNSAFE_PATH = -12, /**< archive member name is absolute or contains ".." */
	NXP_E_JSON = -13,        /**< JSON syntax error or JSON of the wrong shape */
	NXP_E_UNSUPPORTED = -14, /**< valid input that this build cannot handle (e.g. seek on a pipe) */
	NXP_E_COMPRESSION = -15, /**< compressed data is corrupt */
	NXP_E_RANGE = -16,       /**< index or value out of range */
	NXP_E_PROTOBUF = -17,    /**< protobuf wire-format error */
} nxp_error;

/** Static English text for a code (any int; unknown codes give "unknown error"). */
NXP_API const char *nxp_strerror(int code);

/** Longest message kept in a status, including the NUL. */
#define NXP_STATUS_MESSAGE_MAX 256

/**
 * Error detail: code, message and the byte offset in the input where the fault
 * was found (-1 when no offset applies).
 */
typedef struct nxp_status {
	size_t struct_size;                   /**< sizeof(nxp_status) */
	int code;                             /**< an nxp_error, 0 when no error */
	int64_t offset;                       /**< byte offset of the fault, or -1 */
	char message[NXP_STATUS_MESSAGE_MAX]; /**< NUL-terminated, "" when no error */
} nxp_status;

/** Prepare a status for use. */
static inline void nxp_status_init(nxp_status *st)
{
	st->struct_size = sizeof(*st);
	st->code = 0;
	st->offset = -1;
	st->message[0] = '\0';
}

/* ------------------------------------------------------------------------ */
/** @name Byte sources (since 0.1)
 * Every decoder reads from a source.  A source is either seekable (a regular
 * file, memory, or a callback with `seek`) or sequential (a pipe, a callback
 * without `seek`).  Decoders that only walk forward (NEFF, .pb, trace.json)
 * accept both; the NTFF reader needs a seekable source and says so with
 * NXP_E_UNSUPPORTED.  A source is used by one decoder handle at a time and must
 * outlive it.
 */
/**@{*/
typedef struct nxp_source nxp_source;

/** Caller-supplied input. */
typedef struct nxp_source_callbacks {
	size_t struct_size; /**< sizeof(nxp_source_callbacks) */
	/** Read up to `len` bytes at the current position.  Return the count read
	 *  (0 only at end of input) or -1 on error.  Required. */
	int64_t (*read)(void *user, void *buf, size_t len);
	/** Move to absolute `offset`; return 0 or -1.  Optional: NULL = sequential. */
	int (*seek)(void *user, uint64_t offset);
	/** Total size in bytes, or -1 if unknown.  Optional. */
	int64_t (*get_size)(void *user);
	/** Called once by nxp_source_close().  Optional. */
	void (*close)(void *user);
} nxp_source_callbacks;

static inline void nxp_source_callbacks_init(nxp_source_callbacks *cb)
{
	cb->struct_size = sizeof(*cb);
	cb->read = 0;
	cb->seek = 0;
	cb->get_size = 0;
	cb->close = 0;
}

/** Open a file by path (read-only).  Errors: NXP_E_INVAL, NXP_E_IO, NXP_E_NOMEM. */
NXP_API int nxp_source_open_path(nxp_source **out, const char *path, nxp_status *st);
/** Read from an open descriptor; the descriptor is not closed by nxp_source_close().
 *  Seekable when lseek() works on it.  Errors: NXP_E_INVAL, NXP_E_NOMEM. */
NXP_API int nxp_source_open_fd(nxp_source **out, int fd, nxp_status *st);
/** Read from memory the caller keeps alive and unchanged until close.
 *  Errors: NXP_E_INVAL, NXP_E_NOMEM. */
NXP_API int nxp_source_open_memory(nxp_source **out, const void *data, size_t size, nxp_status *st);
/** Read through callbacks; `cb` is copied.  Errors: NXP_E_INVAL (no read
 *  callback, short struct), NXP_E_NOMEM. */
NXP_API int nxp_source_open_callbacks(nxp_source **out, const nxp_source_callbacks *cb, void *user,
				      nxp_status *st);
/** Total size in bytes, or -1 if unknown. */
NXP_API int64_t nxp_source_size(const nxp_source *src);
/** 1 if the source can seek, 0 if it is sequential. */
NXP_API int nxp_source_seekable(const nxp_source *src);
/** Close a source (NULL is fine). */
NXP_API void nxp_source_close(nxp_source *src);
/**@}*/

/** @name First published sizes (ABI)
 * The smallest `struct_size` the library accepts for each size-versioned struct
 * of this header: the end of its last field as published in 0.1, the first
 * release.  A program built against the 0.1 header passes at least this; a
 * smaller struct_size is NXP_E_INVAL.  The values are computed by the compiler
 * for the platform's ABI; the numbers noted are those of LP64 (x86_64, aarch64),
 * checked against the frozen 0.1 headers in abi/include-0.1/ by tests/test_abi.c.
 * See doc/api.md, "ABI rules".  (nxp_status keeps its 0.1 rule: any size that
 * holds a one-byte message.) (since 0.2) */
/**@{*/
#define NXP_STATUS_SIZE_V0_1 (offsetof(nxp_status, message) + sizeof(((nxp_status *)0)->message)) /**< 280 on LP64 */
#define NXP_SOURCE_CALLBACKS_SIZE_V0_1 (offsetof(nxp_source_callbacks, close) + sizeof(((nxp_source_callbacks *)0)->close)) /**< 40 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_COMMON_H */
