/* SPDX-License-Identifier: MIT */
/* Shared test helpers. */
#ifndef NXP_TESTUTIL_H
#define NXP_TESTUTIL_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>

/* A source over memory that hands out tiny, uneven chunks (1, 2, 3, 5, 7, 11, 13 bytes,
 * cycling) through the callback interface.  Seekable when `seekable` is set. */
nxp_source *tu_chunky_source(const void *data, size_t len, int seekable);
/* Read a whole file into malloc'ed memory (aborts the test on failure). */
void *tu_read_file(const char *path, size_t *len);
/* Write memory to a file; returns 0 on success. */
int tu_write_file(const char *path, const void *data, size_t len);
/* A fresh temporary directory (mkdtemp under $TMPDIR or /tmp); caller frees the string. */
char *tu_tmpdir(void);
/* path join into a static-per-call malloc'ed string (caller frees). */
char *tu_path(const char *dir, const char *name);
/* The optional ../shared corpus (NXP_SHARED_DIR, set by tests/meson.build only when
 * the folder exists), or NULL when it is absent: a test that needs it must then skip
 * visibly (a meson test exits 77).  Nothing in the project requires it. */
const char *tu_shared_dir(void);
/* Path of `name` under the project's tests/data (NXP_TEST_DATA, set by tests/meson.build);
 * caller frees.  Aborts with a message when NXP_TEST_DATA is unset. */
char *tu_data_path(const char *name);

#endif
